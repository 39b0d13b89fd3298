//! The consistency check of proven values along a game: perfect play keeps a position's
//! value, so a proven answer must agree with the proven answer before it (the value can only
//! have moved against a side whose answer in between was not proven) and with the game's
//! final score. `ply bench play` fails on a game this check refuses.

use std::{
    fmt,
    io::{self, Write},
};

use ply_othello::Color;
use serde_json::json;

use crate::{
    matches::{Asked, Game},
    tally::median,
};

/// The proven value for black of the position an answer was given in, in discs.
fn black_value(a: &Asked) -> Option<i32> {
    let info = a.info.as_ref().filter(|i| i.proven)?;
    let v = info.score.round() as i32;
    Some(if a.side == Color::Black { v } else { -v })
}

/// Where a game's proven answers contradict each other or its result: the index in
/// `game.asked` of the answer (or `game.asked.len()` for the final score) and what is
/// wrong. An answer without information counts as not proven.
///
/// The value for black is tracked as a range: a proven answer pins it, its move keeps it
/// (perfect play), and an answer that is not proven can only lower its own side's value (an
/// unproven black move can lower black's value, an unproven white move raise it).
#[must_use]
pub fn contradiction(game: &Game) -> Option<(usize, String)> {
    let answers = &game.asked;
    let (mut lo, mut hi): (Option<i32>, Option<i32>) = (None, None);
    let mut pinned_by: Option<usize> = None;
    let within = |v: i32, lo: Option<i32>, hi: Option<i32>| {
        lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)
    };
    let since = |by: Option<usize>| {
        by.map_or(String::new(), |i| {
            format!(
                " (the proven answer at {} empties said {:+})",
                answers[i].empties,
                black_value(&answers[i]).unwrap_or(0)
            )
        })
    };
    for (i, a) in answers.iter().enumerate() {
        match black_value(a) {
            Some(v) => {
                if !within(v, lo, hi) {
                    return Some((
                        i,
                        format!(
                            "proven {v:+} for black at {} empties, outside {}..{}{}",
                            a.empties,
                            lo.map_or(String::new(), |l| format!("{l:+}")),
                            hi.map_or(String::new(), |h| format!("{h:+}")),
                            since(pinned_by)
                        ),
                    ));
                }
                (lo, hi, pinned_by) = (Some(v), Some(v), Some(i));
            }
            None if a.side == Color::Black => lo = None,
            None => hi = None,
        }
    }
    let final_black = game.black_score;
    (game.flagged.is_none() && !within(final_black, lo, hi)).then(|| {
        (
            answers.len(),
            format!(
                "the game ended {final_black:+} for black{}",
                since(pinned_by)
            ),
        )
    })
}

/// The empties of the first answer from which every answer to the end of the game was
/// proven; `None` when the last was not.
#[must_use]
pub fn proven_from(game: &Game) -> Option<u32> {
    let answers = &game.asked;
    let last_unproven = answers.iter().rposition(|a| black_value(a).is_none());
    let first = last_unproven.map_or(0, |i| i + 1);
    answers.get(first).map(|a| a.empties)
}

/// How a self-play run of `ply bench play` was set: what its heading and summary say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Games to play.
    pub games: usize,
    /// Time a move, in milliseconds.
    pub ms: u64,
    /// Threads of each analysis.
    pub threads: usize,
    /// Every move scored at each turn, as the JSON API does.
    pub all_moves: bool,
    /// No solver of a side's own: the solvers the process keeps between analyses.
    pub fresh: bool,
    /// One JSON object a game, then one for the run, instead of the table.
    pub json: bool,
}

/// Why a self-play report stopped: a failed write, or a failure of the bench (a game whose
/// last answer was not proven, games whose proven answers disagree).
#[derive(Debug)]
pub enum ReportError {
    /// Writing failed.
    Io(io::Error),
    /// The bench failed: what is wrong, naming the games.
    Failed(String),
}

impl From<io::Error> for ReportError {
    fn from(e: io::Error) -> ReportError {
        ReportError::Io(e)
    }
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io(e) => write!(f, "{e}"),
            ReportError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ReportError {}

/// One answer of a game, as the report shows it.
struct Row {
    empties: u32,
    best: ply_othello::Move,
    /// The analysis's score for the side to move, in discs.
    discs: f64,
    proven: bool,
    book: bool,
    ms: f64,
}

impl From<&Asked> for Row {
    fn from(m: &Asked) -> Row {
        let info = m.info.as_ref();
        Row {
            empties: m.empties,
            best: m.played,
            discs: info.map_or(0.0, |i| i.score),
            proven: info.is_some_and(|i| i.proven),
            book: info.is_some_and(|i| i.book),
            ms: m.used.as_secs_f64() * 1000.0,
        }
    }
}

/// The report of a self-play run (`ply bench play`), game by game: the empties from which
/// every answer was proven ([`proven_from`]), the answers' times, and the games whose
/// proven answers disagree ([`contradiction`]), which fail the run at its end.
#[derive(Debug)]
pub struct SelfPlayReport {
    run: SelfPlay,
    froms: Vec<f64>,
    failures: Vec<String>,
    all_ms: Vec<f64>,
    unproven_ms: Vec<f64>,
}

impl SelfPlayReport {
    /// A report of `run`, its heading written to `out` (nothing with `json`).
    ///
    /// # Errors
    /// A failed write.
    pub fn start(run: SelfPlay, out: &mut impl Write) -> io::Result<SelfPlayReport> {
        if !run.json {
            let mode = match (run.all_moves, run.fresh) {
                (false, false) => "best move only, a solver kept by each side, as NBoard and GTP",
                (false, true) => "best move only, the solvers kept between analyses",
                (true, false) => "every move scored, a solver kept by each side",
                (true, true) => {
                    "every move scored, the solvers kept between analyses, as the JSON API"
                }
            };
            writeln!(
                out,
                "self-play from {} XOT openings, {} ms a move, {mode}, {} thread(s)",
                run.games, run.ms, run.threads
            )?;
            writeln!(
                out,
                "{:>4} {:<24} {:>7} {:>11} {:>9} {:>6} {:>5}",
                "game", "opening", "answers", "proven from", "median ms", "max ms", "final"
            )?;
        }
        Ok(SelfPlayReport {
            run,
            froms: Vec::new(),
            failures: Vec::new(),
            all_ms: Vec::new(),
            unproven_ms: Vec::new(),
        })
    }

    /// Counts game `number` (from 1), played from `opening`, and writes its row.
    ///
    /// # Errors
    /// A failed write, or a game whose last answer was not proven (the bench fails at
    /// once).
    pub fn add(
        &mut self,
        out: &mut impl Write,
        number: usize,
        opening: &str,
        game: &Game,
    ) -> Result<(), ReportError> {
        let answers: Vec<Row> = game.asked.iter().map(Row::from).collect();
        if let Some((at, what)) = contradiction(game) {
            let place = answers.get(at).map_or("at the end".to_string(), |x| {
                format!("at answer {} ({} empties)", at + 1, x.empties)
            });
            let moves: String = answers.iter().map(|x| x.best.to_string()).collect();
            self.failures.push(format!(
                "game {number} ({opening}), {place}: {what}; the game: {opening}{moves}"
            ));
        }
        let final_black = game.black_score;
        let from = proven_from(game).ok_or_else(|| {
            ReportError::Failed(format!(
                "game {number} ({opening}): the last answer was not proven"
            ))
        })?;
        self.froms.push(f64::from(from));
        let mut ms: Vec<f64> = answers.iter().filter(|x| !x.book).map(|x| x.ms).collect();
        self.all_ms.extend_from_slice(&ms);
        self.unproven_ms.extend(
            answers
                .iter()
                .filter(|x| !x.book && !x.proven)
                .map(|x| x.ms),
        );
        let max = ms.iter().copied().fold(0.0, f64::max);
        let med = median(&mut ms).unwrap_or(0.0);
        if self.run.json {
            let moves: Vec<_> = answers
                .iter()
                .map(|x| {
                    json!({"empties": x.empties, "best": x.best.to_string(),
                           "score": x.discs, "proven": x.proven, "book": x.book,
                           "ms": (x.ms * 10.0).round() / 10.0})
                })
                .collect();
            let row = json!({"game": number, "opening": opening, "answers": answers.len(),
                             "proven_from": from, "median_ms": med.round(), "max_ms": max.round(),
                             "final": final_black, "moves": moves});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{number:>4} {opening:<24} {:>7} {from:>11} {med:>9.0} {max:>6.0} \
                 {final_black:>+5}",
                answers.len(),
            )?;
        }
        out.flush()?;
        Ok(())
    }

    /// Writes the run's summary (at least one game counted).
    ///
    /// # Errors
    /// A failed write, or games whose proven answers disagree (each named on a line).
    pub fn finish(mut self, out: &mut impl Write) -> Result<(), ReportError> {
        let run = self.run;
        let at_22 = self.froms.iter().filter(|&&f| f >= 22.0).count();
        let max_ms = self.all_ms.iter().copied().fold(0.0, f64::max);
        let searched = self.all_ms.len();
        let from_median = median(&mut self.froms).expect("at least one game");
        let med_ms = median(&mut self.all_ms).unwrap_or(0.0);
        let med_unproven = median(&mut self.unproven_ms).unwrap_or(0.0);
        let failures = &self.failures;
        if run.json {
            let row = json!({"games": run.games, "ms": run.ms, "all_moves": run.all_moves,
                             "fresh": run.fresh, "threads": run.threads,
                             "proven_from_median": from_median, "proven_from_22": at_22,
                             "answers": searched, "median_ms": med_ms.round(),
                             "median_unproven_ms": med_unproven.round(),
                             "max_ms": max_ms.round(), "checked": failures.is_empty()});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "proven from a median {from_median} empties over {} games ({at_22} from 22 or \
                 more)",
                run.games
            )?;
            writeln!(
                out,
                "{searched} answers searched: median {med_ms:.0} ms (unproven ones \
                 {med_unproven:.0}), most {max_ms:.0} ms; budget {} ms",
                run.ms
            )?;
            if failures.is_empty() {
                writeln!(
                    out,
                    "checked: every proven value kept along its game and the final scores"
                )?;
            }
        }
        if !failures.is_empty() {
            return Err(ReportError::Failed(format!(
                "{} game(s) whose proven answers disagree:\n{}",
                failures.len(),
                failures.join("\n")
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ply_othello::{BoardSize, GameRecord, Move, Position, Square};

    use super::*;
    use crate::engine::Info;

    fn answer(empties: u32, side: Color, score: f64, proven: bool) -> Asked {
        Asked {
            side,
            empties,
            played: Move::Play(Square::parse("a1").unwrap()),
            used: Duration::ZERO,
            info: Some(Info {
                score,
                proven,
                depth: 0,
                book: false,
                line: Vec::new(),
                nodes: 0,
                ponder_hit: false,
                source: None,
                budget: None,
            }),
        }
    }

    fn game(asked: &[Asked], black_score: i32) -> Game {
        let start = GameRecord::new(Position::start(BoardSize::Four));
        Game {
            black: "b".into(),
            white: "w".into(),
            opening: start.clone(),
            record: start,
            asked: asked.to_vec(),
            flagged: None,
            black_score,
        }
    }

    use Color::{Black as B, White as W};

    #[test]
    fn proven_answers_must_keep_the_value() {
        // Black proves +4, white then proves -4 (+4 for black), and the game ends +4.
        let kept = [answer(3, B, 4.0, true), answer(2, W, -4.0, true)];
        assert_eq!(contradiction(&game(&kept, 4)), None);
        assert_eq!(proven_from(&game(&kept, 4)), Some(3));
        // White's proven answer says black has +6: the value moved with no unproven answer.
        let moved = [answer(3, B, 4.0, true), answer(2, W, -6.0, true)];
        assert_eq!(contradiction(&game(&moved, 6)).map(|c| c.0), Some(1));
        // The final score disagrees with the last proven answer.
        assert_eq!(contradiction(&game(&kept, 2)).map(|c| c.0), Some(2));
    }

    #[test]
    fn an_unproven_answer_can_only_lower_its_own_sides_value() {
        // Black estimates, then white proves black's value: it may be lower than before...
        let lower = [
            answer(5, B, 4.0, true),
            answer(4, W, 0.0, false),
            answer(3, B, 2.0, false),
            answer(2, W, -2.0, true),
        ];
        // ... white's unproven answer could have raised it too, so anything goes.
        assert_eq!(contradiction(&game(&lower, 2)), None);
        let black_only = [
            answer(5, B, 4.0, true),
            answer(4, B, 2.0, false),
            answer(3, W, -6.0, true),
        ];
        // Only black answered without proof: black's value cannot have risen to +6.
        assert_eq!(contradiction(&game(&black_only, 6)).map(|c| c.0), Some(2));
        assert_eq!(proven_from(&game(&black_only, 6)), Some(3));
        assert_eq!(proven_from(&game(&black_only[..2], 6)), None);
    }

    #[test]
    fn an_answer_without_information_is_not_proven() {
        let mut silent = answer(3, B, 4.0, true);
        silent.info = None;
        let asked = [answer(4, W, -4.0, true), silent];
        assert_eq!(proven_from(&game(&asked, 4)), None);
        // Black's silent answer may have lowered black's value: +2 is no contradiction.
        assert_eq!(contradiction(&game(&asked, 2)), None);
        assert_eq!(contradiction(&game(&asked, 6)).map(|c| c.0), Some(2));
    }

    fn run(json: bool) -> SelfPlay {
        SelfPlay {
            games: 2,
            ms: 10,
            threads: 1,
            all_moves: false,
            fresh: false,
            json,
        }
    }

    #[test]
    fn a_self_play_report_fails_at_the_end_on_a_contradiction_and_at_once_on_an_unproven_end() {
        let mut out = Vec::new();
        let mut r = SelfPlayReport::start(run(false), &mut out).unwrap();
        let kept = [answer(3, B, 4.0, true), answer(2, W, -4.0, true)];
        r.add(&mut out, 1, "f5", &game(&kept, 4)).unwrap();
        let moved = [answer(3, B, 4.0, true), answer(2, W, -6.0, true)];
        r.add(&mut out, 2, "f5", &game(&moved, 6)).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(
            text.contains(
                "\n   1 f5                             2           3         0      0    +4\n"
            ),
            "{text}"
        );
        let Err(ReportError::Failed(why)) = r.finish(&mut out) else {
            panic!("the contradiction must fail the run")
        };
        assert!(
            why.starts_with(
                "1 game(s) whose proven answers disagree:\ngame 2 (f5), at answer 2 (2 empties): "
            ),
            "{why}"
        );
        let unproven = [answer(3, B, 4.0, true), answer(2, W, -4.0, false)];
        let mut r = SelfPlayReport::start(run(true), &mut Vec::new()).unwrap();
        let Err(ReportError::Failed(why)) = r.add(&mut Vec::new(), 1, "f5", &game(&unproven, 4))
        else {
            panic!("an unproven last answer must fail the game")
        };
        assert_eq!(why, "game 1 (f5): the last answer was not proven");
    }
}
