//! Two sets of weights against each other at a fixed depth: the quickest measure of which
//! evaluation plays better, with nothing else different (same search, same depth, no clock,
//! no book, no solver beyond what the depth reaches). Each opening is played twice, colours
//! swapped; every move is the best of the root's moves by a plain minimax search of the
//! depth below it ([`crate::fit::search_value`]), the first in square order among equals, so
//! a duel is deterministic. The games are played by `ply-engines`' match runner, each set
//! of weights a [`Weights`] engine.
//!
//! ```
//! use ply_othello::{eval, BoardSize, Square};
//! use ply_train::duel;
//!
//! // The shipped weights against themselves from one opening: a draw in points.
//! let e = eval::builtin(BoardSize::Eight).unwrap().clone().with_tempo(0);
//! let f5 = Square::parse("f5").unwrap();
//! let games = duel::play(&e, &e, &[vec![f5]], 1, 1);
//! assert_eq!(games.len(), 2);
//! assert_eq!(duel::points(&games), 1.0);
//! ```

use ply_core::par_map;
use ply_engines::{
    engine::illegal,
    matches::{play_game, Control},
    xot::{self, XotError},
    Answer, Engine, EngineError, Limit,
};
use ply_othello::{eval::Eval, spine::clock::SYSTEM, GameRecord, Move, Position, Square};

use crate::{fit::search_value, selfplay::squares};

/// A set of weights as an engine: [`choose`] at the depth of [`Limit::Depth`] (1 under any
/// other limit: a duel has no clock).
#[derive(Debug)]
pub struct Weights<'a> {
    name: String,
    eval: &'a Eval,
    game: GameRecord,
}

impl<'a> Weights<'a> {
    /// `eval` as an engine named `name`.
    #[must_use]
    pub fn new(name: impl Into<String>, eval: &'a Eval) -> Weights<'a> {
        Weights {
            name: name.into(),
            eval,
            game: GameRecord::new(Position::start(eval.size())),
        }
    }
}

impl Engine for Weights<'_> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.game = game.clone();
        Ok(())
    }

    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        let before = self.game.clone();
        self.game
            .play(m)
            .map_err(|e| illegal(&self.name, &format!("play {m}"), &before, m, e))
    }

    fn go(&mut self, limit: &Limit) -> Result<Answer, EngineError> {
        let depth = match limit {
            Limit::Depth(d) => *d,
            Limit::Time(_) | Limit::Clock(_) => 1,
        };
        let best = choose(self.eval, &self.game.position(), depth).map_or(Move::Pass, Move::Play);
        self.play(best)?;
        Ok(Answer { best, info: None })
    }

    fn quit(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
}

/// One game of a duel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelGame {
    /// The opening's index in the list given.
    pub opening: usize,
    /// Whether the first weights played black.
    pub first_is_black: bool,
    /// The final disc difference for the first weights.
    pub score: i32,
    /// Every move, the opening's included (passes left out).
    pub moves: Vec<Square>,
}

/// The move `eval` plays in `pos` at `depth`: the best child by `-search_value(child, depth
/// - 1)`, the first in square order among equals; `None` when `pos` has no move.
#[must_use]
pub fn choose(eval: &Eval, pos: &Position, depth: u32) -> Option<Square> {
    let mut best: Option<(ply_othello::analyze::Discs64, Square)> = None;
    for sq in pos.legal_moves() {
        let child = pos.play_unchecked(sq);
        let v = -search_value(eval, &child, depth.saturating_sub(1));
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

/// Plays every opening twice, `first` and `second` swapping colours, each side searching
/// `depth` plies a move; games in opening order (first as black, then as white), whatever
/// the thread count.
///
/// # Panics
/// When an opening holds an illegal move (the caller checks openings as it reads them).
/// The games themselves cannot fail: both engines play legal moves and know no clock.
#[must_use]
pub fn play(
    first: &Eval,
    second: &Eval,
    openings: &[Vec<Square>],
    depth: u32,
    threads: usize,
) -> Vec<DuelGame> {
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|k| [(k, true), (k, false)])
        .collect();
    let starts: Vec<GameRecord> = openings
        .iter()
        .enumerate()
        .map(|(k, opening)| {
            let mut game = GameRecord::new(Position::start(first.size()));
            for &sq in opening {
                let legal = game.play_with_implicit_pass(sq);
                assert!(legal.is_ok(), "opening {k}: {sq} is illegal");
            }
            game
        })
        .collect();
    let depth = Control::Limit(Limit::Depth(depth));
    par_map(&jobs, threads, |_, &(k, first_is_black)| {
        let (mut a, mut b) = (Weights::new("first", first), Weights::new("second", second));
        let (black, white): (&mut dyn Engine, &mut dyn Engine) = if first_is_black {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        // Neither engine can fail: both play legal moves and know no clock.
        let game = play_game(black, white, &starts[k], [depth, depth], &SYSTEM)
            .unwrap_or_else(|e| panic!("a duel's engines cannot fail: {e}"));
        let moves = squares(&game.record);
        DuelGame {
            opening: k,
            first_is_black,
            score: if first_is_black {
                game.black_score
            } else {
                -game.black_score
            },
            moves,
        }
    })
}

/// The first `n` openings of an XOT list (read by [`ply_engines::xot`]), each as the squares
/// played: what [`play`] takes.
///
/// # Errors
/// A line that is not an opening, named by its number.
pub fn openings(list: &str, n: usize) -> Result<Vec<Vec<Square>>, XotError> {
    Ok(xot::first(list, n)?
        .iter()
        .map(|o| squares(&o.game))
        .collect())
}

/// The first weights' points: a win 1, a draw one half.
#[must_use]
pub fn points(games: &[DuelGame]) -> f64 {
    games
        .iter()
        .map(|g| match g.score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        })
        .sum()
}

/// The first weights' games in sum: won, drawn, lost, and the mean disc difference a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    /// Games the first weights won.
    pub won: usize,
    /// Games drawn.
    pub drawn: usize,
    /// Games the first weights lost.
    pub lost: usize,
    /// The mean final disc difference a game for the first weights (0 without games).
    pub discs: f64,
}

/// The first weights' tally over `games`.
#[must_use]
pub fn tally(games: &[DuelGame]) -> Tally {
    let (won, drawn, lost) = games
        .iter()
        .fold((0, 0, 0), |(w, d, l), g| match g.score.signum() {
            1 => (w + 1, d, l),
            0 => (w, d + 1, l),
            _ => (w, d, l + 1),
        });
    let discs = if games.is_empty() {
        0.0
    } else {
        games.iter().map(|g| f64::from(g.score)).sum::<f64>() / games.len() as f64
    };
    Tally {
        won,
        drawn,
        lost,
        discs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::{eval, BoardSize, Color};

    /// The shipped 8x8 evaluation without its handicap, and tables of zeros.
    fn shipped_and_zero() -> (Eval, Eval) {
        let good = eval::builtin(BoardSize::Eight)
            .unwrap()
            .clone()
            .with_tempo(0);
        let zero = Eval::from_weights(
            BoardSize::Eight,
            vec![0; eval::tables(BoardSize::Eight).unwrap().weights().len()],
        )
        .unwrap();
        (good, zero)
    }

    #[test]
    fn better_weights_win_and_colours_alternate() {
        let (good, zero) = shipped_and_zero();
        let openings: Vec<Vec<Square>> = ["f5", "f5d6", "f5f6", "f5f4"]
            .iter()
            .map(|t| crate::testset::opening(t).unwrap())
            .collect();
        let games = play(&good, &zero, &openings, 2, 2);
        assert_eq!(games.len(), 8);
        for (i, g) in games.iter().enumerate() {
            assert_eq!((g.opening, g.first_is_black), (i / 2, i % 2 == 0));
            // Each game is legal from the start and ends where its score says.
            let mut pos = Position::start(BoardSize::Eight);
            for &sq in &g.moves {
                if !pos.can_move() {
                    pos = pos.passed();
                }
                assert!(pos.is_legal(sq));
                pos = pos.play_unchecked(sq);
            }
            assert!(pos.is_game_over());
        }
        assert!(points(&games) >= 6.0, "{games:?}");
        assert_eq!(games, play(&good, &zero, &openings, 2, 1), "deterministic");
    }

    /// The tally counts each game once by its sign and averages the discs; points are a win
    /// and half a draw.
    #[test]
    fn the_tally_counts_wins_draws_losses_and_averages_the_discs() {
        let game = |score| DuelGame {
            opening: 0,
            first_is_black: true,
            score,
            moves: Vec::new(),
        };
        let games = [game(10), game(-4), game(0), game(2)];
        assert_eq!(
            tally(&games),
            Tally {
                won: 2,
                drawn: 1,
                lost: 1,
                discs: 2.0
            }
        );
        assert_eq!(points(&games), 2.5);
        assert_eq!(tally(&[]).discs, 0.0);
    }

    /// The plain loop the duel was before it ran on the match runner: the same games.
    fn plain(eval: [&Eval; 2], opening: &[Square], depth: u32) -> Vec<Square> {
        let mut pos = Position::start(eval[0].size());
        let mut moves = opening.to_vec();
        for &sq in opening {
            if !pos.can_move() {
                pos = pos.passed();
            }
            pos = pos.play_unchecked(sq);
        }
        while !pos.is_game_over() {
            if !pos.can_move() {
                pos = pos.passed();
                continue;
            }
            let sq = choose(eval[usize::from(pos.turn() == Color::White)], &pos, depth).unwrap();
            pos = pos.play_unchecked(sq);
            moves.push(sq);
        }
        moves
    }

    #[test]
    fn the_match_runner_plays_the_games_the_plain_loop_played() {
        let (good, zero) = shipped_and_zero();
        let openings: Vec<Vec<Square>> = ["f5d6c3d3c4f4c5b3", "f5f6e6f4"]
            .iter()
            .map(|t| crate::testset::opening(t).unwrap())
            .collect();
        let games = play(&good, &zero, &openings, 2, 1);
        for g in &games {
            let order = if g.first_is_black {
                [&good, &zero]
            } else {
                [&zero, &good]
            };
            assert_eq!(g.moves, plain(order, &openings[g.opening], 2), "{g:?}");
        }
    }

    #[test]
    fn openings_are_the_squares_their_lines_play() {
        let list = "f5d6c3\nf5f6\n";
        let got = openings(list, 2).unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(
            got,
            [vec![sq("f5"), sq("d6"), sq("c3")], vec![sq("f5"), sq("f6")]]
        );
        assert_eq!(openings("f5a1\n", 1).unwrap_err().line, 1);
    }
}
