//! Self-play games for the training data: a random opening, the midgame engine, a perfect
//! end.
//!
//! Game `k` of a set plays from its own random generator, seeded from the set's seed and `k`
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

use ply_core::SplitMix64;
use ply_othello::{
    midgame::{self, Limits},
    solve::{SolveOptions, Solver},
    Color, Move, Position,
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
    let mut rng = game_rng(params.seed, index);
    let span = u64::from(params.random_max - params.random_min) + 1;
    let random = params.random_min + rng.below_by_remainder(span) as u8;
    let exact = u32::from(params.exact_empties);
    let mut pos = Position::start(params.size);
    let mut moves = Vec::with_capacity(params.max_moves() as usize);
    let mut random_moves = 0;
    let limits = Limits {
        table_bits: TABLE_BITS,
        threads: 1,
        ..Limits::depth(u32::from(params.depth))
    };
    while !pos.is_game_over() && pos.empties().count() > exact {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        let sq = if random_moves < random {
            random_moves += 1;
            let legal: Vec<_> = pos.legal_moves().into_iter().collect();
            legal[rng.below_by_remainder(legal.len() as u64) as usize]
        } else {
            midgame::best_move(&pos, &limits).ok_or_else(|| DataError::Engine {
                game: index,
                message: format!("the midgame engine has no move in {pos}"),
            })?
        };
        moves.push(sq);
        pos = pos.play_unchecked(sq);
    }
    if !pos.is_game_over() {
        let mut solver = Solver::try_new(SolveOptions {
            threads: 1,
            hash_mb: SOLVER_MB,
        })
        .map_err(|e| DataError::Engine {
            game: index,
            message: e.to_string(),
        })?;
        let solved = solver.solve(&pos);
        let mover = pos.turn();
        for m in solved.pv {
            pos = match m {
                Move::Play(sq) => {
                    moves.push(sq);
                    pos.play_unchecked(sq)
                }
                Move::Pass => pos.passed(),
            };
        }
        let end = if pos.turn() == mover {
            pos.final_score()
        } else {
            -pos.final_score()
        };
        if !pos.is_game_over() || end != solved.score.0 {
            return Err(DataError::Engine {
                game: index,
                message: format!(
                    "the solver's line from {exact} empties ends on {end:+}, not on its score \
                     {:+} (over: {})",
                    solved.score,
                    pos.is_game_over()
                ),
            });
        }
    }
    let black = match pos.turn() {
        Color::Black => pos.final_score(),
        Color::White => -pos.final_score(),
    };
    Ok(Game {
        index,
        random_moves,
        moves,
        score: black as i8,
    })
}
