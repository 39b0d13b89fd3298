//! Self-play games for the training data: a random opening, the midgame engine, a perfect
//! end.
//!
//! The games are played on the one game loop, the match runner's
//! ([`ply_engines::matches::play_seated`]): one [`SelfPlay`] engine at both seats, since
//! both sides draw from one random stream and follow one solver's line. Game `k` of a set
//! plays from its own random generator, seeded from the set's seed and `k`
//! alone, so a game is the same whichever shard, process or machine plays it:
//!
//! 1. a number of uniformly random legal moves, drawn in `random_min..=random_max` (the
//!    openings vary; the engine alone would play one game);
//! 2. then the midgame engine ([`ply_othello::midgame::best_move`]) for both sides, at a fixed
//!    depth, no clock, one thread, a small table: deterministic;
//! 3. from `exact_empties` empty squares on, the exact solver's principal variation to the
//!    end: both sides play perfectly, so the final score is the exact value of every position
//!    from there on (from each side to move's view).
//!
//! ```
//! use ply_othello::BoardSize;
//! use ply_train::{recipe::Params, selfplay};
//!
//! let params = Params::default_for(BoardSize::Six);
//! let game = selfplay::play(&params, 3).unwrap();
//! assert_eq!(game, selfplay::play(&params, 3).unwrap());
//! assert!(game.moves.len() >= 28);
//! ```

use std::{collections::VecDeque, time::Duration};

use ply_core::SplitMix64;
use ply_engines::{
    matches::{play_seated, Control, Seats},
    Answer, Engine, EngineError, Fault, Limit,
};
use ply_othello::{
    midgame::{self, Limits},
    solve::{SolveOptions, Solver},
    spine::clock::SYSTEM,
    Color, GameRecord, Move, Position, Square,
};

use crate::{error::DataError, games::Game, recipe::Params};

/// The midgame engine's table: `2^16` entries (2 MB), plenty for a shallow search.
const TABLE_BITS: u32 = 16;

/// The exact solver's table, made afresh for every game so that a game does not depend on
/// the games played before it in the same process.
const SOLVER_MB: usize = 16;

/// The random generator of game `index` of the set with seed `seed`.
#[must_use]
pub fn game_rng(seed: u64, index: u64) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed);
    let a = mix.next_u64();
    let mut mix = SplitMix64::new(index ^ a);
    SplitMix64::new(mix.next_u64())
}

/// Plays game `index` of the set `params` (see the module docs).
///
/// # Errors
/// [`DataError::Params`] when `params` fail [`Params::check`]; [`DataError::Engine`] when the
/// solver's line does not end on its score (a bug).
pub fn play(params: &Params, index: u64) -> Result<Game, DataError> {
    params.check()?;
    let mut engine = SelfPlay::new(params, index);
    let start = GameRecord::new(Position::start(params.size));
    let engine_error = |message: String| DataError::Engine {
        game: index,
        message,
    };
    let game = play_seated(Seats::One(&mut engine), &start, [UNTIMED; 2], &SYSTEM)
        .map_err(|e| engine_error(e.error.message))?;
    engine
        .end
        .check(game.score(Color::Black), Color::Black)
        .map_err(engine_error)?;
    Ok(Game {
        index,
        random_moves: engine.random_moves,
        moves: squares(&game.record),
        score: game.black_score as i8,
    })
}

/// The control of a self-play game: none (each engine keeps its own fixed recipe).
pub(crate) const UNTIMED: Control = Control::Limit(Limit::Time(Duration::MAX));

/// The squares played in `record`, passes left out.
pub(crate) fn squares(record: &GameRecord) -> Vec<Square> {
    record
        .moves()
        .iter()
        .filter_map(|m| match m {
            Move::Play(sq) => Some(*sq),
            Move::Pass => None,
        })
        .collect()
}

/// The engine that plays both sides of a self-play game (see the module docs): random moves
/// first, then the midgame engine, then the exact solver's line.
#[derive(Debug)]
pub struct SelfPlay {
    rng: SplitMix64,
    /// The random moves this game opens with, and how many are played.
    random: u8,
    random_moves: u8,
    limits: Limits,
    pos: Position,
    end: PerfectEnd,
}

impl SelfPlay {
    /// The engine of game `index` of the set `params` (checked by the caller).
    #[must_use]
    pub fn new(params: &Params, index: u64) -> SelfPlay {
        let mut rng = game_rng(params.seed, index);
        let span = u64::from(params.random_max - params.random_min) + 1;
        let random = params.random_min + rng.below_by_remainder(span) as u8;
        SelfPlay {
            rng,
            random,
            random_moves: 0,
            limits: Limits {
                table_bits: TABLE_BITS,
                threads: 1,
                ..Limits::depth(u32::from(params.depth))
            },
            pos: Position::start(params.size),
            end: PerfectEnd::new(u32::from(params.exact_empties), SOLVER_MB),
        }
    }
}

impl Engine for SelfPlay {
    fn name(&self) -> &str {
        "self-play"
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
        let sq = if let Some((sq, _)) = self.end.next(&pos)? {
            sq
        } else if self.random_moves < self.random {
            self.random_moves += 1;
            let legal: Vec<_> = pos.legal_moves().into_iter().collect();
            legal[self.rng.below_by_remainder(legal.len() as u64) as usize]
        } else {
            midgame::best_move(&pos, &self.limits)
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

/// `pos` after `m`, a move the rules allow (the match runner checked it): how the self-play
/// engines, which are told only the passes, follow their game.
pub(crate) fn after(pos: Position, m: Move) -> Position {
    match m {
        Move::Play(sq) => pos.play_unchecked(sq),
        Move::Pass => pos.passed(),
    }
}

/// A self-play engine's failure on `go`: a bug, worded as `message`.
fn go_error(message: String) -> EngineError {
    EngineError::new("self-play", "go", Fault::Protocol, message)
}

/// The perfect end of a self-play game (of `train gen`'s and of the test set's): from the first position of at most `exact` empty
/// squares reached (the side to move may have to pass there), the exact solver's principal
/// variation, both sides' moves and passes, to the end.
#[derive(Debug)]
pub(crate) struct PerfectEnd {
    exact: u32,
    hash_mb: usize,
    /// The solver's line still to play, once solved.
    line: Option<VecDeque<Move>>,
    /// The side to move where it was solved, its score, and the empties there.
    solved: Option<(Color, i32, u32)>,
    /// The score of the position the line's next move is played in, for its side to move.
    score: i32,
}

impl PerfectEnd {
    pub(crate) fn new(exact: u32, hash_mb: usize) -> PerfectEnd {
        PerfectEnd {
            exact,
            hash_mb,
            line: None,
            solved: None,
            score: 0,
        }
    }

    /// Solves `pos` when it is the first position of the perfect end.
    fn settle(&mut self, pos: &Position) -> Result<(), EngineError> {
        if self.line.is_some() || pos.is_game_over() || pos.empties().count() > self.exact {
            return Ok(());
        }
        let mut solver = Solver::try_new(SolveOptions {
            threads: 1,
            hash_mb: self.hash_mb,
        })
        .map_err(|e| go_error(e.to_string()))?;
        let solved = solver.solve(pos);
        self.solved = Some((pos.turn(), solved.score.0, pos.empties().count()));
        self.score = solved.score.0;
        self.line = Some(solved.pv.into_iter().collect());
        Ok(())
    }

    /// The line's move in `pos`, a square, with the exact score of `pos` for its side to
    /// move (`None` before the perfect end).
    pub(crate) fn next(&mut self, pos: &Position) -> Result<Option<(Square, i32)>, EngineError> {
        self.settle(pos)?;
        let Some(line) = &mut self.line else {
            return Ok(None);
        };
        match line.pop_front() {
            Some(Move::Play(sq)) => {
                let score = self.score;
                self.score = -score;
                Ok(Some((sq, score)))
            }
            other => Err(go_error(format!(
                "the solver's line {} where {pos} has a move",
                other.map_or("ends".to_owned(), |m| format!("plays {m}"))
            ))),
        }
    }

    /// Follows the line with `m`, a move played in `pos` that the engine did not choose
    /// (a pass); nothing before the perfect end.
    pub(crate) fn follow(
        &mut self,
        pos: &Position,
        m: Move,
        command: &str,
    ) -> Result<(), EngineError> {
        self.settle(pos)?;
        let Some(line) = &mut self.line else {
            return Ok(());
        };
        match line.pop_front() {
            Some(next) if next == m => {
                self.score = -self.score;
                Ok(())
            }
            other => Err(EngineError::new(
                "self-play",
                command,
                Fault::Protocol,
                format!(
                    "the solver's line {} where {m} is played in {pos}",
                    other.map_or("ends".to_owned(), |n| format!("plays {n}"))
                ),
            )),
        }
    }

    /// Checks the end of the game, `score` for `side`: the line played out and ending on
    /// the solved score.
    pub(crate) fn check(&self, score: i32, side: Color) -> Result<(), String> {
        let Some((mover, solved, empties)) = self.solved else {
            return Ok(());
        };
        let end = if side == mover { score } else { -score };
        let left = self.line.as_ref().map_or(0, VecDeque::len);
        if end != solved || left != 0 {
            return Err(format!(
                "the solver's line from {empties} empties ends on {end:+}, not on its score \
                 {solved:+} ({left} moves of it left)"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first 4x4 position of `exact` (11) empties or fewer is solved where it is first reached, and
    /// its line is followed to the end: a move off the line, a line that runs out, or an end
    /// on another score is refused, naming what happened.
    #[test]
    fn the_perfect_end_follows_the_solvers_line_and_checks_its_end() {
        let start = Position::start(ply_othello::BoardSize::Four);
        let mut end = PerfectEnd::new(11, 1);
        assert!(end.next(&start).unwrap().is_none(), "12 empties: not yet");
        let first = start.legal_moves().into_iter().next().unwrap();
        let mut pos = start.play_unchecked(first);
        let mut record = GameRecord::new(pos);
        let mut scores = Vec::new();
        while !pos.is_game_over() {
            let m = if pos.can_move() {
                let (sq, score) = end.next(&pos).unwrap().expect("the perfect end");
                scores.push(score);
                Move::Play(sq)
            } else {
                end.follow(&pos, Move::Pass, "play").unwrap();
                Move::Pass
            };
            record.play(m).unwrap();
            pos = after(pos, m);
        }
        let (mover, solved, empties) = end.solved.unwrap();
        assert_eq!((mover, empties), (Color::White, 11));
        assert_eq!(scores[0], solved);
        let white = if pos.turn() == Color::White {
            pos.final_score()
        } else {
            -pos.final_score()
        };
        assert_eq!(white, solved);
        end.check(white, Color::White).unwrap();
        end.check(-white, Color::Black).unwrap();
        let e = end.check(white + 2, Color::White).unwrap_err();
        assert!(e.contains("from 11 empties ends on"), "{e}");
        // The line has run out: another move is refused.
        let e = end.next(&Position::start(ply_othello::BoardSize::Four));
        assert!(e.is_err());
        // A move off the line.
        let mut end = PerfectEnd::new(11, 1);
        let after_first = start.play_unchecked(first);
        let line = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 1,
        })
        .solve(&after_first)
        .pv;
        let off = after_first
            .legal_moves()
            .into_iter()
            .map(Move::Play)
            .find(|m| *m != line[0])
            .expect("a second move");
        let e = end.follow(&after_first, off, "play").unwrap_err();
        assert!(e.message.contains("the solver's line plays"), "{e}");
        assert_eq!(e.engine, "self-play");
    }

    /// A game of the set is the same on the match runner, game after game.
    #[test]
    fn a_game_is_played_on_the_match_runner_as_the_set_says() {
        let params = Params::default_for(ply_othello::BoardSize::Six);
        let game = play(&params, 5).unwrap();
        assert_eq!(game, play(&params, 5).unwrap());
        assert!((params.random_min..=params.random_max).contains(&game.random_moves));
        let mut replay = GameRecord::new(Position::start(params.size));
        for &sq in &game.moves {
            replay.play_with_implicit_pass(sq).unwrap();
        }
        let end = replay.position();
        assert!(end.is_game_over());
        assert_eq!(i32::from(game.score), end.final_score_for(Color::Black));
    }
}
