//! The figures of a set of games and the lines that report them: a match's results and
//! each side's time a move ([`MatchTally`], `ply bench match`), and what pondering is
//! worth ([`PonderTally`], `ply bench ponder`: the pondering side's points, its ponder hits
//! and the depth each side reached, read from the
//! [`Info`](crate::Info) of each move), with the
//! [`median`] they share. The benches play the games on [`crate::matches`] and print these
//! lines.

use std::time::Duration;

use ply_othello::{analyze::Engine as Source, Color};

use crate::matches::Game;

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
/// The values are sorted in place.
#[must_use]
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// The greatest of `values`, 0 when there is none.
fn most(values: &[f64]) -> f64 {
    values.iter().copied().fold(0.0, f64::max)
}

/// `black` or `white`.
fn color_word(side: Color) -> &'static str {
    if side == Color::Black {
        "black"
    } else {
        "white"
    }
}

/// One engine's results in a match, game by game: wins, draws, losses, points, discs, and
/// its time and the other's for each move, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// Games counted.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Points: a win 1, a draw one half.
    pub points: f64,
    /// The sum of its disc differences.
    pub discs: i64,
    /// Its time for each of its moves, in milliseconds.
    pub ours: Vec<f64>,
    /// The other's time for each of its moves, in milliseconds.
    pub theirs: Vec<f64>,
}

impl MatchTally {
    /// Counts `game`, which the engine played as `side`; returns its disc difference.
    pub fn add(&mut self, side: Color, game: &Game) -> i32 {
        let result = game.score(side);
        self.games += 1;
        self.discs += i64::from(result);
        self.points += game.points(side);
        match result.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        for m in &game.asked {
            let ms = m.used.as_secs_f64() * 1000.0;
            if m.side == side {
                self.ours.push(ms);
            } else {
                self.theirs.push(ms);
            }
        }
        result
    }

    /// The line of game `k` (from 0) from `opening`, played by `name` as `side` to
    /// `result`, with the running score.
    #[must_use]
    pub fn game_line(
        &self,
        k: usize,
        opening: &str,
        name: &str,
        side: Color,
        result: i32,
    ) -> String {
        format!(
            "{:>3} {opening} {name} as {:<5} {result:>+4}   running {}-{}-{} ({:.1}%)",
            k + 1,
            color_word(side),
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.points / f64::from(self.games)
        )
    }

    /// The two closing lines: the result, and the time a move of `name` and of the other
    /// (median and most). Sorts the times.
    #[must_use]
    pub fn summary(&mut self, name: &str) -> String {
        let games = f64::from(self.games.max(1));
        format!(
            "{name} won {}, drew {}, lost {} of {}: {:.1}% of the points, {:+.1} discs a game\n\
             time a move (ms): {name} median {:.0}, most {:.0}; the other median {:.0}, most \
             {:.0}",
            self.wins,
            self.draws,
            self.losses,
            self.games,
            100.0 * self.points / games,
            self.discs as f64 / games,
            median(&mut self.ours).unwrap_or(0.0),
            most(&self.ours),
            median(&mut self.theirs).unwrap_or(0.0),
            most(&self.theirs),
        )
    }
}

/// A match of a pondering player against one that does not: the pondering side's points,
/// its ponder hits, the games lost on time, and the depth of each side's moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PonderTally {
    /// Games counted.
    pub games: u32,
    /// The pondering side's points.
    pub points: f64,
    /// Its ponder hits.
    pub hits: u32,
    /// Its moves.
    pub moves: u32,
    /// Games lost on time: by the pondering side, by the other.
    pub flags: [u32; 2],
    /// Depths of the midgame engine's moves: the pondering side's after a miss, after a
    /// hit, and the other side's.
    pub depths: [Vec<u32>; 3],
}

impl PonderTally {
    /// Counts a game the side `flagged` lost on time (`used` on its last move), with the
    /// pondering side as `ponder`; returns the line that reports it (`number` from 1).
    pub fn flagged(
        &mut self,
        number: usize,
        opening: &str,
        ponder: Color,
        flagged: Color,
        used: Duration,
    ) -> String {
        let ponderer_lost = flagged == ponder;
        self.points += if ponderer_lost { 0.0 } else { 1.0 };
        self.games += 1;
        self.flags[usize::from(!ponderer_lost)] += 1;
        format!(
            "{number:>3} {opening} pondering as {:<5} {flagged:?} ran out of time ({used:?} on \
             its last move)",
            color_word(ponder),
        )
    }

    /// Counts `game`, played with the pondering side as `ponder`; returns the lines that
    /// report it (`number` from 1): a game lost on time as [`PonderTally::flagged`] counts
    /// it, a game played to the end as [`PonderTally::played`].
    pub fn add(&mut self, number: usize, opening: &str, ponder: Color, game: &Game) -> String {
        match game.flagged {
            Some(side) => {
                let used = game.asked.last().map_or(Duration::ZERO, |a| a.used);
                self.flagged(number, opening, ponder, side, used)
            }
            None => self.played(number, opening, ponder, game),
        }
    }

    /// Counts a game played to the end with the pondering side as `ponder`; returns the
    /// lines that report it: each move that took more than twice its budget and 50 ms over
    /// it (the budget the engine's [`Info`](crate::Info) names), then the game's line (`number` from 1).
    /// A move's depth counts where the midgame engine answered it (not the book, not the
    /// solver), the pondering side's apart by whether it was a ponder hit.
    pub fn played(&mut self, number: usize, opening: &str, ponder: Color, game: &Game) -> String {
        let mut s = String::new();
        for a in &game.asked {
            let Some(budget) = a.info.as_ref().and_then(|i| i.budget) else {
                continue;
            };
            if a.used > budget * 2 && a.used > budget + Duration::from_millis(50) {
                let who = if a.side == ponder {
                    "pondering"
                } else {
                    "plain"
                };
                let engine = a
                    .info
                    .as_ref()
                    .and_then(|i| i.source)
                    .map_or("?", Source::name);
                s.push_str(&format!(
                    "    overrun: {who} at {} empties, {budget:?} given, {:?} taken ({engine})\n",
                    a.empties, a.used
                ));
            }
        }
        let score = game.score(ponder);
        self.points += match score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        self.games += 1;
        let (mut hits, mut moves) = (0, 0);
        let mut longest = [Duration::ZERO; 2];
        for a in &game.asked {
            let ours = a.side == ponder;
            let info = a.info.as_ref();
            let hit = info.is_some_and(|i| i.ponder_hit);
            if ours {
                moves += 1;
                hits += u32::from(hit);
            }
            longest[usize::from(!ours)] = longest[usize::from(!ours)].max(a.used);
            if let Some(i) = info.filter(|i| i.source == Some(Source::Midgame)) {
                self.depths[if ours { usize::from(hit) } else { 2 }].push(i.depth);
            }
        }
        self.hits += hits;
        self.moves += moves;
        s.push_str(&format!(
            "{number:>3} {opening} pondering as {:<5} {score:>+4}  hits {hits}/{moves}  longest \
             move {:?} vs {:?}  running {:.1}% of {}",
            color_word(ponder),
            longest[0],
            longest[1],
            100.0 * self.points / f64::from(self.games),
            self.games,
        ));
        s
    }

    /// The two closing lines: the pondering side's points, hits and flags; the mean depth
    /// of each side's moves.
    #[must_use]
    pub fn summary(&self) -> String {
        let mean = |v: &[u32]| v.iter().map(|&d| f64::from(d)).sum::<f64>() / v.len().max(1) as f64;
        let d = &self.depths;
        format!(
            "pondering took {} of {} points ({:.1}%); ponder hits {} of {} moves; lost on time: \
             pondering {}, plain {}\n\
             mean depth of the midgame engine's moves: pondering side after a hit {:.2} ({} \
             moves), after a miss {:.2} ({}); the side that does not ponder {:.2} ({})",
            self.points,
            self.games,
            100.0 * self.points / f64::from(self.games.max(1)),
            self.hits,
            self.moves,
            self.flags[0],
            self.flags[1],
            mean(&d[1]),
            d[1].len(),
            mean(&d[0]),
            d[0].len(),
            mean(&d[2]),
            d[2].len(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut [22.0, 20.0, 21.0, 23.0]), Some(21.5));
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut []), None);
    }

    #[test]
    fn a_flag_loses_the_game_for_the_side_that_ran_out() {
        let mut t = PonderTally::default();
        let used = Duration::from_millis(5);
        let line = t.flagged(1, "f5d6", Color::Black, Color::White, used);
        assert_eq!(
            line,
            "  1 f5d6 pondering as black White ran out of time (5ms on its last move)"
        );
        t.flagged(2, "f5d6", Color::White, Color::White, used);
        assert_eq!((t.points, t.games, t.flags), (1.0, 2, [1, 1]));
        assert!(t
            .summary()
            .starts_with("pondering took 1 of 2 points (50.0%); ponder hits 0 of 0 moves; lost on time: pondering 1, plain 1\n"));
    }

    #[test]
    fn an_empty_match_summary_divides_by_one_game() {
        let mut t = MatchTally::default();
        assert_eq!(
            t.summary("ply"),
            "ply won 0, drew 0, lost 0 of 0: 0.0% of the points, +0.0 discs a game\ntime a move \
             (ms): ply median 0, most 0; the other median 0, most 0"
        );
    }
}
