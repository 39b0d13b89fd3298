//! The vocabulary every small game in ply shares, and what a game gets for free from it.
//!
//! A game implements [`Game`] (who moves, the legal moves, the position after a move, and the
//! outcome once the game is over). From that alone this crate gives an exact solver with
//! GAMESMAN values ([`Solver`]), the value of every move ([`Solver::analyze`]), the set of
//! positions reachable from a start ([`reachable`]), the distinct final positions reachable
//! from a position by result ([`count_finals`]) and the number of games ([`count_games`]).
//! It also holds ply's one seedable random generator, [`SplitMix64`], and the one way its
//! batch jobs are split over machines, [`Shard`] (`--shard I/N`), and its one parallel map
//! over threads, [`par_map`] (results in item order, whatever the thread count).
//!
//! The code is generic and memoised with a hash map, so it is meant for small games
//! (tic-tac-toe, 4x4 Othello) and as a slow, obviously right reference for the fast
//! special-purpose solvers of the game crates.
//!
//! ```
//! use ply_core::{Game, Outcome, Player, Solver, Value};
//!
//! /// Take one or two from a pile; whoever cannot move loses.
//! #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
//! struct Pile { left: u8, mover: Player }
//!
//! impl Game for Pile {
//!     type Move = u8;
//!     fn to_move(&self) -> Player { self.mover }
//!     fn legal_moves(&self) -> Vec<u8> { (1..=2).filter(|&k| k <= self.left).collect() }
//!     fn play(&self, k: u8) -> Pile { Pile { left: self.left - k, mover: self.mover.other() } }
//!     fn outcome(&self) -> Option<Outcome> { (self.left == 0).then_some(Outcome::Loss) }
//! }
//!
//! let mut solver = Solver::new();
//! let start = Pile { left: 10, mover: Player::First };
//! assert_eq!(solver.solve(&start), Value::win(7));
//! let best = solver.analyze(&start).into_iter().find(|&(_, v)| v == Value::win(7));
//! assert_eq!(best, Some((1, Value::win(7))));
//! ```

#![deny(missing_docs)]

mod count;
mod game;
mod par;
mod rng;
mod shard;
mod solve;
mod value;

pub use count::{count_finals, count_games, count_games_up_to_symmetry, reachable, Tally};
pub use game::{Game, Player};
pub use par::par_map;
pub use rng::SplitMix64;
pub use shard::{Shard, ShardError};
pub use solve::Solver;
pub use value::{Outcome, Value};
