//! The 8x8 evaluation's test set: positions of games that look like real play, each with a
//! score the evaluation is measured against (`ply bench eval --obf`).
//!
//! Game `k` of the set starts from an XOT opening (line `first_opening + k` of
//! `xot-openings.txt`, far from the first hundred that `ply bench match` plays), then the
//! midgame engine plays both sides at a fixed depth (no clock, one thread: deterministic),
//! and from [`Recipe::exact_empties`] on the exact solver's line: both sides play perfectly.
//! The positions kept, with what labels them:
//!
//! - every position from `exact_empties` down to [`Recipe::fewest_empties`] lies on the
//!   perfect line, so its exact value is the solved score, seen from its side to move; its
//!   best move is the line's move;
//! - above, the positions at [`Recipe::deep`] empties, each scored by a search of
//!   [`Recipe::label_depth`] plies (the midgame engine in play mode, with its ProbCut): an
//!   estimate, marked as such on its line.
//!
//! A position whose side to move must pass is skipped. Each position is one OBF line with
//! its best move and score, and a `%` comment naming the game and the label's kind
//! (`exact`, or `depth 18`); [`Label`] reads the kind back.
//!
//! The training games (`ply train gen`) start from uniformly random moves from the start
//! position; [`shares_opening`] tells whether one of them passes through an opening of this
//! set, so that the fit can leave it out.

use std::{fmt, io::Write, path::Path, time::Instant};

use ply_engines::{
    matches::{play_seated, Seats},
    Answer, Engine, EngineError, Fault, Limit,
};
use ply_othello::{
    analyze::Discs64,
    midgame::{self, Limits},
    obf::{ObfLine, ScoredMove},
    spine::clock::SYSTEM,
    Color, GameRecord, Move, Position, Square,
};

use crate::selfplay::{after, PerfectEnd, UNTIMED};

/// How the games of the test set are played and labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// Depth of the midgame engine that plays both sides before the exact end.
    pub play_depth: u32,
    /// From this many empty squares on, both sides play the solver's perfect line.
    pub exact_empties: u32,
    /// The fewest empties a kept position has.
    pub fewest_empties: u32,
    /// Empties of the positions above `exact_empties` that are kept, each labelled by a
    /// search of `label_depth` plies.
    pub deep: Vec<u32>,
    /// Depth of the labelling search above `exact_empties`.
    pub label_depth: u32,
}

impl Default for Recipe {
    /// The shipped set's recipe: play at depth 10, perfect from 24 empties, every position
    /// of 14-24 empties exact, and one in three of 26-40 labelled at depth 18.
    fn default() -> Recipe {
        Recipe {
            play_depth: 10,
            exact_empties: 24,
            fewest_empties: 14,
            deep: vec![26, 29, 32, 35, 38, 40],
            label_depth: 18,
        }
    }
}

/// What a test position's score rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The exact value, proven by the solver.
    Exact,
    /// A search of this many plies (an estimate).
    Depth(u32),
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Exact => f.write_str("exact"),
            Label::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

impl Label {
    /// Reads the label's kind from a test-set line's `%` comment (`…, exact` or
    /// `…, depth 18`); `None` when the comment names none.
    ///
    /// ```
    /// use ply_train::testset::Label;
    /// assert_eq!(Label::from_comment("game 3, exact"), Some(Label::Exact));
    /// assert_eq!(Label::from_comment("game 3, depth 18"), Some(Label::Depth(18)));
    /// assert_eq!(Label::from_comment("game 3"), None);
    /// ```
    #[must_use]
    pub fn from_comment(comment: &str) -> Option<Label> {
        let last = comment.rsplit(',').next()?.trim();
        if last == "exact" {
            return Some(Label::Exact);
        }
        last.strip_prefix("depth ")?.parse().ok().map(Label::Depth)
    }
}

/// One position of the test set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPosition {
    /// The position with its best move and that move's score (the position's score).
    pub line: ObfLine,
    /// What the score rests on.
    pub label: Label,
}

/// Plays game `game` of the set from `opening` (moves from the start position) by `recipe`
/// and returns its labelled positions, most empties first. The game is played on the one
/// game loop, the match runner's, by one [`Labeller`] at both seats.
///
/// # Errors
/// A message when an opening move is illegal, or when the solver's line does not end on
/// its score (a bug).
pub fn play(game: u64, opening: &[Square], recipe: &Recipe) -> Result<Vec<TestPosition>, String> {
    let mut pos = Position::start(ply_othello::BoardSize::Eight);
    let mut start = GameRecord::new(pos);
    for (k, &sq) in opening.iter().enumerate() {
        pos = pos
            .play(sq)
            .map_err(|e| format!("game {game}: opening move {}: {e}", k + 1))?;
        start
            .play(Move::Play(sq))
            .expect("a move the position allows is on the record");
    }
    let mut labeller = Labeller::new(recipe);
    let played = play_seated(Seats::One(&mut labeller), &start, [UNTIMED; 2], &SYSTEM)
        .map_err(|e| format!("game {game}: {}", e.error.message))?;
    labeller
        .end
        .check(played.score(Color::Black), Color::Black)
        .map_err(|e| format!("game {game}: {e}"))?;
    Ok(labeller.out)
}

/// The engine that plays both sides of a test-set game and labels its positions as it goes
/// (see the module docs).
#[derive(Debug)]
pub struct Labeller {
    fewest_empties: u32,
    deep: Vec<u32>,
    play: Limits,
    label: Limits,
    pos: Position,
    end: PerfectEnd,
    out: Vec<TestPosition>,
}

impl Labeller {
    /// The engine of `recipe`'s games.
    #[must_use]
    pub fn new(recipe: &Recipe) -> Labeller {
        Labeller {
            fewest_empties: recipe.fewest_empties,
            deep: recipe.deep.clone(),
            play: Limits {
                table_bits: 18,
                threads: 1,
                ..Limits::depth(recipe.play_depth)
            },
            label: Limits {
                table_bits: 20,
                threads: 1,
                all_moves: false,
                ..Limits::depth(recipe.label_depth)
            },
            pos: Position::start(ply_othello::BoardSize::Eight),
            end: PerfectEnd::new(recipe.exact_empties, 64),
            out: Vec::new(),
        }
    }

    /// The positions labelled so far, most empties first.
    #[must_use]
    pub fn positions(&self) -> &[TestPosition] {
        &self.out
    }

    /// The labelling search's position at `pos`, when `pos` is one the recipe keeps above
    /// the perfect end.
    fn label(&self, pos: Position) -> Result<Option<TestPosition>, EngineError> {
        if !self.deep.contains(&pos.empties().count()) {
            return Ok(None);
        }
        let a = midgame::analyze(&pos, &self.label);
        let best = a
            .best
            .ok_or_else(|| go_error(format!("no move found in {pos}")))?;
        Ok(Some(TestPosition {
            line: scored(pos, Move::Play(best), rounded_discs(a.score)),
            label: if a.proven {
                Label::Exact
            } else {
                Label::Depth(a.depth)
            },
        }))
    }
}

impl Engine for Labeller {
    fn name(&self) -> &str {
        "test set"
    }

    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.pos = game.position();
        Ok(())
    }

    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        self.end.follow(&self.pos, m, "play")?;
        self.pos = after(self.pos, m);
        Ok(())
    }

    fn go(&mut self, _: &Limit) -> Result<Answer, EngineError> {
        let pos = self.pos;
        let sq = if let Some((sq, score)) = self.end.next(&pos)? {
            if pos.empties().count() >= self.fewest_empties {
                self.out.push(TestPosition {
                    line: scored(pos, Move::Play(sq), score),
                    label: Label::Exact,
                });
            }
            sq
        } else {
            if let Some(t) = self.label(pos)? {
                self.out.push(t);
            }
            // The game goes on with the player's own move, labelled or not.
            midgame::best_move(&pos, &self.play)
                .ok_or_else(|| go_error(format!("the midgame engine has no move in {pos}")))?
        };
        self.pos = pos.play_unchecked(sq);
        Ok(Answer {
            best: Move::Play(sq),
            info: None,
        })
    }

    fn quit(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
}

/// A test-set engine's failure on `go`: a bug, worded as `message`.
fn go_error(message: String) -> EngineError {
    EngineError::new("test set", "go", Fault::Protocol, message)
}

/// An estimate rounded to the nearest even number of discs (an 8x8 score is always even).
fn rounded_discs(score: Discs64) -> i32 {
    let discs = (score.discs() / 2.0).round() as i32 * 2;
    discs.clamp(-64, 64)
}

fn scored(position: Position, mv: Move, score: i32) -> ObfLine {
    ObfLine {
        position,
        moves: vec![ScoredMove { mv, score }],
        comment: None,
    }
}

/// The opening of an XOT line (`f5d6c3…`), checked by the rules: the one reader of
/// opening lists ([`ply_engines::xot`]) on this line.
///
/// # Errors
/// The transcript's error, naming the move; an empty line.
pub fn opening(line: &str) -> Result<Vec<Square>, String> {
    let record = ply_engines::xot::openings(line)
        .next()
        .ok_or("an empty line, not an opening")?
        .map_err(|e| e.message)?
        .game;
    Ok(record
        .moves()
        .iter()
        .filter_map(|m| match m {
            Move::Play(sq) => Some(*sq),
            Move::Pass => None,
        })
        .collect())
}

/// The positions after the openings of a test-set file (`text`, as [`header`] and
/// [`game_text`] write it), each with its number of moves, from the XOT list `xot`: what
/// [`shares_opening`] compares a training game with.
///
/// # Errors
/// When the file's first line names no opening line, or the XOT list lacks a game's
/// opening or holds an illegal one.
pub fn openings(text: &str, xot: &str) -> Result<Vec<(usize, Position)>, String> {
    let first = text
        .lines()
        .next()
        .and_then(|l| l.split("from line ").nth(1))
        .and_then(|l| l.split(',').next())
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .ok_or("line 1: not a test set's first line (it names the XOT line of game 0)")?;
    let games = text.lines().filter(|l| l.ends_with(" done")).count();
    let lines: Vec<&str> = xot.lines().skip(first - 1).take(games).collect();
    if lines.len() < games {
        return Err(format!(
            "the XOT list ends before line {} (game {})",
            first + lines.len(),
            lines.len()
        ));
    }
    lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let moves = opening(line).map_err(|e| format!("XOT line {}: {e}", first + k))?;
            let pos = moves
                .iter()
                .fold(Position::start(ply_othello::BoardSize::Eight), |p, &sq| {
                    p.play_unchecked(sq)
                });
            Ok((moves.len(), pos))
        })
        .collect()
}

/// Whether a game's moves (`moves`, from the start) pass through the position after one of
/// `openings` (each the positions an opening reaches, compared after as many moves).
#[must_use]
pub fn shares_opening(moves: &[Square], openings: &[(usize, Position)]) -> bool {
    let mut pos = Position::start(ply_othello::BoardSize::Eight);
    for (k, &sq) in moves.iter().enumerate() {
        if !pos.can_move() {
            pos = pos.passed();
        }
        pos = pos.play_unchecked(sq);
        if openings.iter().any(|(n, p)| *n == k + 1 && *p == pos) {
            return true;
        }
    }
    false
}

/// The first line of a test-set file: the recipe and the openings, so that a resumed file
/// is grown by the same recipe.
#[must_use]
pub fn header(recipe: &Recipe, first_opening: usize) -> String {
    let deep: Vec<String> = recipe.deep.iter().map(u32::to_string).collect();
    format!(
        "% ply train testset: XOT openings from line {first_opening}, play depth {}, exact from \
         {} empties kept down to {}, depth {} at {} empties",
        recipe.play_depth,
        recipe.exact_empties,
        recipe.fewest_empties,
        recipe.label_depth,
        deep.join(",")
    )
}

/// The lines of game `game`'s positions, then its closing `% game K done` line: what a
/// test-set file gains per game, in one write.
#[must_use]
pub fn game_text(game: u64, positions: &[TestPosition]) -> String {
    let mut s = String::new();
    for t in positions {
        s.push_str(&format!("{} % game {game}, {}\n", t.line, t.label));
    }
    s.push_str(&format!("% game {game} done\n"));
    s
}

/// How far a test-set file got: the games it holds whole, and the length of the text up to
/// the end of the last one (what is after it is a torn write, to be cut).
///
/// # Errors
/// When the first line is not `header`, or the games are not 0, 1, 2, … in order; the
/// message names the line.
pub fn resume_point(text: &str, header: &str) -> Result<(u64, usize), String> {
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        None => return Ok((0, 0)),
        Some(first) if first.trim_end() == header => {}
        Some(first) if !first.ends_with('\n') && header.starts_with(first) => return Ok((0, 0)),
        Some(first) => {
            return Err(format!(
                "line 1: the file was made by another recipe: `{}`, not `{header}`",
                first.trim_end()
            ))
        }
    }
    let mut done = 0u64;
    let mut end = header.len() + 1;
    let mut at = end;
    for (k, line) in lines.enumerate() {
        at += line.len();
        if let Some(rest) = line.trim_end().strip_prefix("% game ") {
            if let Some(n) = rest.strip_suffix(" done") {
                if !line.ends_with('\n') {
                    break;
                }
                if n.parse::<u64>() != Ok(done) {
                    return Err(format!(
                        "line {}: `{}` where game {done} was to end",
                        k + 2,
                        line.trim_end()
                    ));
                }
                done += 1;
                end = at;
            }
        }
    }
    Ok((done, end))
}

/// Why [`grow`] stopped: the input's fault (a file made by another recipe, an opening
/// line that is missing or not an opening), or not (a file that cannot be read or written,
/// a game the engine could not play). Each message names the file and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrowError {
    /// Bad input.
    BadInput(String),
    /// Any other failure.
    Failed(String),
}

impl fmt::Display for GrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrowError::BadInput(m) | GrowError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GrowError {}

/// Grows the test-set file at `path` to `games` games (`ply train testset`): created with
/// its [`header`], or resumed after the last whole game it holds (a torn last game cut
/// off). Game `k` starts from line `first_opening + k` of `xot` (the text of the XOT list
/// named `xot_name`), is played by `recipe` ([`play`]) and appended in one write
/// ([`game_text`]) flushed to the disk, so that a killed run loses at most the game it was
/// playing. `note` hears what is worth a line on a terminal: the cut, the resumption, each
/// game played.
///
/// # Errors
/// As [`GrowError`] says; the games before the failing one stay in the file.
pub fn grow(
    path: &Path,
    games: u64,
    first_opening: usize,
    (xot_name, xot): (&str, &str),
    recipe: &Recipe,
    note: &mut dyn FnMut(&str),
) -> Result<(), GrowError> {
    let failed = |e: std::io::Error| GrowError::Failed(e.to_string());
    let openings: Vec<&str> = xot.lines().collect();
    let head = header(recipe, first_opening);
    let name = path.display();
    let old = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(GrowError::Failed(format!("reading {name}: {e}"))),
    };
    let (mut done, end) =
        resume_point(&old, &head).map_err(|e| GrowError::BadInput(format!("{name}: {e}")))?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| GrowError::Failed(format!("opening {name}: {e}")))?;
    if end < old.len() {
        note(&format!(
            "{name}: cut a torn last game ({} bytes)",
            old.len() - end
        ));
    }
    file.set_len(end as u64).map_err(failed)?;
    if end == 0 {
        writeln!(file, "{head}").map_err(failed)?;
    }
    if done > 0 {
        note(&format!("{name}: resuming after {done} games"));
    }
    while done < games {
        let line = first_opening - 1 + done as usize;
        let text = openings
            .get(line)
            .ok_or_else(|| GrowError::BadInput(format!("{xot_name}: has no line {}", line + 1)))?;
        let moves = opening(text)
            .map_err(|e| GrowError::BadInput(format!("{xot_name} line {}: {e}", line + 1)))?;
        let started = Instant::now();
        let positions = play(done, &moves, recipe).map_err(GrowError::Failed)?;
        file.write_all(game_text(done, &positions).as_bytes())
            .map_err(failed)?;
        file.sync_data().map_err(failed)?;
        note(&format!(
            "{name}: game {done} (XOT line {}): {} positions in {:.1} s",
            line + 1,
            positions.len(),
            started.elapsed().as_secs_f64()
        ));
        done += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ply_othello::solve::{SolveOptions, Solver};

    use super::*;

    #[test]
    fn a_game_keeps_exact_positions_that_agree_with_the_solver() {
        let recipe = Recipe {
            play_depth: 2,
            exact_empties: 12,
            fewest_empties: 8,
            deep: vec![14],
            label_depth: 3,
        };
        let moves = opening("f5d6c3d3c4f4c5b3").unwrap();
        let got = play(0, &moves, &recipe).unwrap();
        assert_eq!(got, play(0, &moves, &recipe).unwrap());
        let exact: Vec<_> = got.iter().filter(|t| t.label == Label::Exact).collect();
        assert!(exact.len() >= 4, "{got:?}");
        assert!(got.iter().any(|t| t.label == Label::Depth(3)));
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 8,
        });
        for t in exact {
            let e = t.line.position.empties().count();
            assert!((8..=12).contains(&e));
            assert_eq!(
                solver.solve(&t.line.position).score.0,
                t.line.moves[0].score
            );
        }
    }

    #[test]
    fn a_file_resumes_after_its_last_whole_game_and_refuses_another_recipe() {
        let head = header(&Recipe::default(), 5001);
        assert_eq!(resume_point("", &head), Ok((0, 0)));
        let pos = Position::start(ply_othello::BoardSize::Eight);
        let t = TestPosition {
            line: scored(pos, Move::Play(Square::parse("f5").unwrap()), 0),
            label: Label::Depth(18),
        };
        let whole = format!(
            "{head}\n{}{}",
            game_text(0, std::slice::from_ref(&t)),
            game_text(1, &[])
        );
        assert_eq!(resume_point(&whole, &head), Ok((2, whole.len())));
        let torn = format!("{whole}{}", &game_text(2, &[t])[..20]);
        assert_eq!(resume_point(&torn, &head), Ok((2, whole.len())));
        let other = header(
            &Recipe {
                play_depth: 12,
                ..Recipe::default()
            },
            5001,
        );
        assert!(resume_point(&whole, &other).unwrap_err().contains("line 1"));
        let skipped = format!("{head}\n{}", game_text(1, &[]));
        assert!(resume_point(&skipped, &head)
            .unwrap_err()
            .contains("line 2"));
    }

    #[test]
    fn an_illegal_opening_is_refused_with_its_move() {
        let err = play(0, &[Square::parse("a1").unwrap()], &Recipe::default()).unwrap_err();
        assert!(err.contains("opening move 1"), "{err}");
    }

    #[test]
    fn a_game_through_an_opening_is_found() {
        let moves = opening("f5d6c3d3c4f4").unwrap();
        let after = |n: usize| {
            moves[..n]
                .iter()
                .fold(Position::start(ply_othello::BoardSize::Eight), |p, &s| {
                    p.play_unchecked(s)
                })
        };
        assert!(shares_opening(&moves, &[(4, after(4))]));
        assert!(!shares_opening(&moves[..3], &[(4, after(4))]));
    }

    #[test]
    fn grow_refuses_a_missing_opening_line_naming_the_list_and_keeps_the_header() {
        let dir = std::env::temp_dir().join(format!("ply-testset-grow-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("set.obf");
        let recipe = Recipe::default();
        let mut notes = Vec::new();
        let e = grow(&path, 1, 3, ("xot.txt", "f5d6\n"), &recipe, &mut |n| {
            notes.push(n.to_string());
        })
        .unwrap_err();
        assert_eq!(e, GrowError::BadInput("xot.txt: has no line 3".into()));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{}\n", header(&recipe, 3)));
        // Grown again to no games, the file is only read: nothing to note, nothing written.
        grow(&path, 0, 3, ("xot.txt", ""), &recipe, &mut |n| {
            notes.push(n.to_string());
        })
        .unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let other = grow(&path, 1, 4, ("xot.txt", ""), &recipe, &mut |_| {}).unwrap_err();
        assert!(
            matches!(&other, GrowError::BadInput(m) if m.contains("line 1: the file was made by another recipe")),
            "{other}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
