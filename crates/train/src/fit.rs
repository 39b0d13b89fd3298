//! How the evaluation's weights are made, from nothing but the rules and a seed.
//!
//! 1. **Positions**: games from the start position, the first few moves uniformly random
//!    (so the openings vary), then a quick heuristic player (fewest replies for the opponent,
//!    corners first, X-squares last) that still plays a random move one time in eight, both
//!    sides played by one engine on the match runner. One position is drawn from each phase
//!    of every game. More games (`exact_games`) add
//!    positions only to the phases whose labels are all exact, where a label costs a few
//!    milliseconds: on 8x8 ten times as many positions there (held-out error at 12-17 empties
//!    8.4 discs with 14,000, 7.2 with 42,000, 6.9 with 150,000). More games again
//!    (`mid_games`) add positions only to the phases just above those, up to `mid_empties`,
//!    whose search labels reach the exact phases within a few plies: the solver's move
//!    ordering and the midgame engine's leaves lean on them most. Each game comes from its
//!    own seed, so the set does not depend on the number of threads.
//! 2. **Labels**, phase by phase from the end of the game backwards: the exact score from the
//!    solver where the position has few empty squares, elsewhere the mean value of two
//!    fixed-depth searches one ply apart (their side-to-move biases cancel), whose leaves all
//!    lie in phases already fitted.
//! 3. **Fit**, phase by phase: ridge regression (conjugate gradients on the normal
//!    equations), each phase on its own positions and those within two empty squares of its
//!    edges; symmetric images of a pattern share one weight. One position in twenty is kept
//!    aside to report the error on positions never trained on.
//!
//! `cargo run --release -p ply-train --example train-eval -- --size 6` runs it all and
//! writes `crates/othello/data/eval6.bin` (the 8x8 weights come from `scripts/train-eval8`
//! instead); with `--exact-cache FILE` the exact scores are kept in a file
//! ([`ExactCache`]) for the next run.

use std::time::Instant;

use ply_core::{par_map, SplitMix64};
use ply_engines::{
    matches::{play_seated, Seats},
    Answer, Engine, EngineError, Limit,
};
use ply_othello::{
    analyze::Discs64,
    eval::{layout, phase_count, phase_of, phase_width, Eval, EXTRA_WEIGHTS},
    solve::{SolveOptions, Solver},
    spine::clock::SYSTEM,
    BoardSize, Color, GameRecord, Move, Position, Square,
};

use crate::{
    cache::ExactCache,
    ridge::{features, ridge_fit, store_phase, Row},
    selfplay::{after, UNTIMED},
};

/// What to train, and how hard.
#[derive(Clone, Debug)]
pub struct Config {
    /// The board size.
    pub size: BoardSize,
    /// Games to draw positions from (one position per phase of each).
    pub games: usize,
    /// Seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// More games, after those, whose positions are kept only in the phases that the exact
    /// solver labels whole (every empties count of the phase at most `exact_empties`):
    /// exact labels there are cheap, and these phases decide both the solver's speed and
    /// the midgame engine's leaves.
    pub exact_games: usize,
    /// Positions with at most this many empty squares are labelled by the exact solver.
    pub exact_empties: u32,
    /// More games again, after the `exact_games`, whose positions are kept only in the
    /// phases above the exact ones that lie wholly within `mid_empties` empty squares.
    pub mid_games: usize,
    /// See `mid_games`.
    pub mid_empties: u32,
    /// Depth of the search that labels the others; at least [`phase_width`].
    pub search_depth: u32,
    /// Ridge penalty on every weight.
    pub ridge: f64,
    /// Worker threads (the result does not depend on it).
    pub threads: usize,
    /// Conjugate-gradient iterations of each fit.
    pub iterations: usize,
    /// Fit only the first this many phases (for quick experiments; the others stay zero).
    pub phases: usize,
}

impl Config {
    /// The settings of the shipped weights for a board size.
    #[must_use]
    pub fn shipped(size: BoardSize) -> Config {
        match size {
            BoardSize::Six => Config {
                size,
                games: 30_000,
                seed: 6_000_000,
                exact_games: 250_000,
                exact_empties: 20,
                mid_games: 30_000,
                mid_empties: 27,
                search_depth: 8,
                ridge: 2.0,
                threads: 2,
                iterations: 60,
                phases: usize::MAX,
            },
            _ => Config {
                size: BoardSize::Eight,
                games: 14_000,
                seed: 8_000_000,
                exact_games: 136_000,
                exact_empties: 18,
                mid_games: 42_000,
                mid_empties: 23,
                search_depth: 6,
                ridge: 15.0,
                threads: 2,
                iterations: 60,
                phases: usize::MAX,
            },
        }
    }
}

/// A position and its label, in discs for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// Exact final score or search estimate, in discs.
    pub score: f32,
    /// True when the label is the exact score.
    pub exact: bool,
    /// Kept aside: never trained on, only measured.
    pub held_out: bool,
}

impl Sample {
    /// Empty squares on a board of `size`.
    #[must_use]
    pub fn empties(&self, size: BoardSize) -> u32 {
        (!(self.p | self.o) & size.mask().0).count_ones()
    }
}

/// The heuristic player's choice among `legal` moves (deterministic given `rng`).
fn heuristic_move(pos: &Position, rng: &mut SplitMix64) -> Square {
    let size = pos.size();
    let m = size.n() - 1;
    let corners: u64 = [0, m, m * 8, m * 8 + m].iter().map(|&s| 1u64 << s).sum();
    let xs: u64 = [9, 8 + m - 1, (m - 1) * 8 + 1, (m - 1) * 8 + m - 1]
        .iter()
        .map(|&s| 1u64 << s)
        .sum();
    let moves: Vec<_> = pos.legal_moves().into_iter().collect();
    if rng.below_by_remainder(8) == 0 {
        return moves[rng.below_by_remainder(moves.len() as u64) as usize];
    }
    let key = |sq: Square| {
        let bit = 1u64 << sq.index();
        let replies = pos.play_unchecked(sq).legal_moves().count() as i32;
        replies + if bit & corners != 0 { -20 } else { 0 } + if bit & xs != 0 { 10 } else { 0 }
    };
    let best = moves.iter().map(|&sq| key(sq)).min().expect("a legal move");
    let ties: Vec<_> = moves.into_iter().filter(|&sq| key(sq) == best).collect();
    ties[rng.below_by_remainder(ties.len() as u64) as usize]
}

/// A board size that has an evaluation (6 or 8), read by the library's one reader of a
/// size ([`BoardSize`]'s `FromStr`), for the `--size` of the fits and calibrations.
///
/// # Errors
/// The reader's message, or that 4x4 has no evaluation.
///
/// ```
/// use ply_othello::BoardSize;
/// assert_eq!(ply_train::fit::evaluated_size("6"), Ok(BoardSize::Six));
/// assert_eq!(ply_train::fit::evaluated_size("7").unwrap_err(), "`7` is not a board size: use 4, 6 or 8");
/// assert!(ply_train::fit::evaluated_size("4").unwrap_err().contains("no evaluation"));
/// ```
pub fn evaluated_size(text: &str) -> Result<BoardSize, String> {
    match text.parse::<BoardSize>() {
        Ok(BoardSize::Four) => Err(format!("`{text}`: 4x4 has no evaluation; use 6 or 8")),
        Ok(size) => Ok(size),
        Err(e) => Err(e.to_string()),
    }
}

/// The positions drawn from game `seed`: one per phase, where the side to move has a move.
///
/// The game is played on the one game loop, the match runner's, by one [`Sampler`] at both
/// seats: both sides draw from one random stream.
#[must_use]
pub fn game_positions(size: BoardSize, seed: u64) -> Vec<Position> {
    let mut sampler = Sampler::new(size, seed);
    let start = GameRecord::new(Position::start(size));
    play_seated(Seats::One(&mut sampler), &start, [UNTIMED; 2], &SYSTEM)
        .expect("the sampler plays only legal moves and never fails");
    sampler.drawn()
}

/// The engine that plays both sides of a game [`game_positions`] draws from: a few
/// uniformly random moves, then [`heuristic_move`]; it keeps every position it moves in,
/// by phase.
struct Sampler {
    size: BoardSize,
    rng: SplitMix64,
    random_plies: u64,
    /// Moves played so far (passes are not moves).
    ply: u64,
    pos: Position,
    seen: Vec<Vec<Position>>,
}

impl Sampler {
    fn new(size: BoardSize, seed: u64) -> Sampler {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let random_plies = 2 + rng.below_by_remainder(9);
        Sampler {
            size,
            rng,
            random_plies,
            ply: 0,
            pos: Position::start(size),
            seen: vec![Vec::new(); phase_count(size)],
        }
    }

    /// One position of each phase the game went through, drawn from the same stream.
    fn drawn(mut self) -> Vec<Position> {
        let rng = &mut self.rng;
        self.seen
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| s[rng.below_by_remainder(s.len() as u64) as usize])
            .collect()
    }
}

impl Engine for Sampler {
    fn name(&self) -> &str {
        "fit sampler"
    }

    fn new_game(&mut self, game: &GameRecord) -> Result<(), EngineError> {
        self.pos = game.position();
        Ok(())
    }

    /// Only passes are told: the sampler plays both sides.
    fn play(&mut self, m: Move) -> Result<(), EngineError> {
        self.pos = after(self.pos, m);
        Ok(())
    }

    fn go(&mut self, _: &Limit) -> Result<Answer, EngineError> {
        let pos = self.pos;
        self.seen[phase_of(self.size, pos.empties().count())].push(pos);
        let sq = if self.ply < self.random_plies {
            let moves: Vec<_> = pos.legal_moves().into_iter().collect();
            moves[self.rng.below_by_remainder(moves.len() as u64) as usize]
        } else {
            heuristic_move(&pos, &mut self.rng)
        };
        self.pos = pos.play_unchecked(sq);
        self.ply += 1;
        Ok(Answer {
            best: Move::Play(sq),
            info: None,
        })
    }

    fn quit(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
}

/// The plain minimax value of `pos` searched `depth` plies over `eval` (a pass costs no
/// depth; the end of the game scores its exact disc difference), in 64ths of a disc: the
/// midgame engine's search with Multi-ProbCut off ([`ply_othello::midgame::fixed_depth_value`]).
#[must_use]
pub fn search_value(eval: &Eval, pos: &Position, depth: u32) -> Discs64 {
    ply_othello::midgame::fixed_depth_value(eval, pos, depth)
}

/// Fits phase `phase` of `weights` to the labelled, not held-out samples within two empty
/// squares of the phase (`labelled[i]` says whether sample `i` has its label yet).
fn fit_phase(
    cfg: &Config,
    samples: &[Sample],
    labelled: &[bool],
    phase: usize,
    weights: &mut [i16],
) {
    let size = cfg.size;
    let l = layout(size).expect("an evaluated size");
    let width = phase_width(size);
    let lo = (phase as u32 * width).saturating_sub(2);
    let hi = if phase + 1 == phase_count(size) {
        size.squares()
    } else {
        (phase as u32 + 1) * width - 1 + 2
    };
    let rows: Vec<Row> = samples
        .iter()
        .zip(labelled)
        .filter(|(s, &ok)| ok && !s.held_out && (lo..=hi).contains(&s.empties(size)))
        .map(|(s, _)| Row {
            features: features(l, s.p, s.o, size),
            target: f64::from(s.score),
        })
        .collect();
    let per_phase = l.pattern_weights() + EXTRA_WEIGHTS;
    let w = ridge_fit(&rows, per_phase, cfg.ridge, cfg.iterations);
    store_phase(
        l,
        &w,
        &mut weights[phase * per_phase..(phase + 1) * per_phase],
    );
}

/// What training reports per phase.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseReport {
    /// Empty squares of the phase, lowest and highest.
    pub empties: (u32, u32),
    /// Positions trained on.
    pub trained: usize,
    /// Positions held out.
    pub held_out: usize,
    /// Mean absolute error on the held-out positions, in discs, against their labels.
    pub held_out_mae: f64,
    /// The same on the positions trained on.
    pub trained_mae: f64,
    /// How many of the held-out labels are exact scores.
    pub held_out_exact: usize,
}

/// The empty squares of `phase`, lowest and highest.
pub(crate) fn phase_empties(size: BoardSize, phase: usize) -> (u32, u32) {
    let width = phase_width(size);
    let lo = phase as u32 * width;
    let hi = if phase + 1 == phase_count(size) {
        size.squares() - 4
    } else {
        lo + width - 1
    };
    (lo, hi)
}

/// The highest phase whose every empties count is at most `exact_empties`, if any.
fn last_exact_phase(size: BoardSize, exact_empties: u32) -> Option<usize> {
    let width = phase_width(size);
    ((exact_empties + 1) / width)
        .checked_sub(1)
        .map(|p| p as usize)
}

/// Draws positions from `cfg.games` games, from `cfg.exact_games` more those in the
/// phases labelled exactly, and from `cfg.mid_games` more those in the phases above them up
/// to `cfg.mid_empties` (see [`game_positions`]).
#[must_use]
pub fn draw_samples(cfg: &Config) -> Vec<Sample> {
    let total = (cfg.games + cfg.exact_games + cfg.mid_games) as u64;
    let seeds: Vec<u64> = (0..total).map(|i| cfg.seed + i).collect();
    let exact_phases = last_exact_phase(cfg.size, cfg.exact_empties).map_or(0, |p| p + 1);
    let mid_phases = last_exact_phase(cfg.size, cfg.mid_empties).map_or(0, |p| p + 1);
    let per_game = par_map(&seeds, cfg.threads, |i, &seed| {
        let mut positions = game_positions(cfg.size, seed);
        let phase = |p: &Position| phase_of(cfg.size, p.empties().count());
        if i >= cfg.games + cfg.exact_games {
            positions.retain(|p| (exact_phases..mid_phases).contains(&phase(p)));
        } else if i >= cfg.games {
            positions.retain(|p| phase(p) < exact_phases);
        }
        positions
    });
    let mut out = Vec::new();
    for positions in per_game {
        for pos in positions {
            out.push(Sample {
                p: pos.player().0,
                o: pos.opponent().0,
                score: 0.0,
                exact: false,
                held_out: SplitMix64::new(out.len() as u64)
                    .next_u64()
                    .is_multiple_of(20),
            });
        }
    }
    out
}

/// Trains the weights of `cfg.size` from scratch, calling `progress` with a line of news
/// now and then. Returns the evaluation and a report per phase.
///
/// Exact scores are taken from `cache` where it has them, and those solved here are added to
/// it.
///
/// # Errors
/// When the cache cannot be written.
///
/// # Panics
/// When `cfg.search_depth` is less than the phase width (its leaves would fall in phases not
/// yet fitted) or the size is 4x4.
pub fn train(
    cfg: &Config,
    mut cache: Option<&mut ExactCache>,
    mut progress: impl FnMut(&str),
) -> Result<(Eval, Vec<PhaseReport>), String> {
    let size = cfg.size;
    assert!(cfg.search_depth >= phase_width(size), "search too shallow");
    let per_phase = Eval::weights_per_phase(size).expect("an evaluated size");
    let phases = phase_count(size).min(cfg.phases);
    let started = Instant::now();
    let mut samples = draw_samples(cfg);
    progress(&format!(
        "{} positions from {} games ({:.1} s)",
        samples.len(),
        cfg.games + cfg.exact_games + cfg.mid_games,
        started.elapsed().as_secs_f64()
    ));
    let mut labelled = vec![false; samples.len()];
    let mut weights = vec![0i16; per_phase * phase_count(size)];
    for phase in 0..phases {
        let eval = Eval::from_weights(size, weights.clone()).expect("right length");
        let todo: Vec<usize> = (0..samples.len())
            .filter(|&i| phase_of(size, samples[i].empties(size)) == phase)
            .collect();
        let t = Instant::now();
        let cached = cache.as_deref();
        let labels = par_map(&todo, cfg.threads, |_, &i| {
            let s = &samples[i];
            let pos = Position::from_raw(s.p, s.o, Color::Black, size);
            let exact = s.empties(size) <= cfg.exact_empties;
            if let Some(score) = cached.filter(|_| exact).and_then(|c| c.get(s.p, s.o)) {
                (f32::from(score), true)
            } else if exact {
                thread_local! {
                    static SOLVER: std::cell::RefCell<Option<Solver>> = const { std::cell::RefCell::new(None) };
                }
                SOLVER.with(|cell| {
                    let mut slot = cell.borrow_mut();
                    let solver = slot.get_or_insert_with(|| {
                        Solver::new(SolveOptions {
                            threads: 1,
                            hash_mb: 16,
                        })
                    });
                    (solver.solve(&pos).score.0 as f32, true)
                })
            } else {
                // Two depths of opposite parity: the side-to-move bias of each cancels.
                let d = cfg.search_depth;
                let v =
                    search_value(&eval, &pos, d).discs() + search_value(&eval, &pos, d + 1).discs();
                ((v / 2.0) as f32, false)
            }
        });
        let mut solved = Vec::new();
        for (&i, (score, exact)) in todo.iter().zip(labels) {
            let s = &mut samples[i];
            // The cache writes only the scores it did not know.
            if exact && cache.is_some() {
                solved.push((s.p, s.o, score as i8));
            }
            s.score = score;
            s.exact = exact;
            labelled[i] = true;
        }
        if let Some(c) = cache.as_deref_mut() {
            c.add(&solved)?;
        }
        fit_phase(cfg, &samples, &labelled, phase, &mut weights);
        progress(&format!(
            "phase {phase}: {} positions labelled in {:.1} s, fitted ({:.0} s in all)",
            todo.len(),
            t.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        ));
    }
    // Every label is in now: fit each phase again with its neighbours on both sides.
    for phase in 0..phases {
        fit_phase(cfg, &samples, &labelled, phase, &mut weights);
    }
    let eval = Eval::from_weights(size, weights).expect("right length");
    let reports = report(&eval, &samples);
    progress(&format!("done in {:.0} s", started.elapsed().as_secs_f64()));
    Ok((eval, reports))
}

/// The held-out error of `eval` per phase.
#[must_use]
pub fn report(eval: &Eval, samples: &[Sample]) -> Vec<PhaseReport> {
    let size = eval.size();
    (0..phase_count(size))
        .map(|phase| {
            let mine: Vec<&Sample> = samples
                .iter()
                .filter(|s| phase_of(size, s.empties(size)) == phase)
                .collect();
            let held: Vec<&&Sample> = mine.iter().filter(|s| s.held_out).collect();
            let error = |s: &Sample| {
                let v = Discs64(eval.evaluate_reference(s.p, s.o)).discs();
                (v - f64::from(s.score)).abs()
            };
            let err: f64 = held.iter().map(|s| error(s)).sum();
            let trained: Vec<&&Sample> = mine.iter().filter(|s| !s.held_out).collect();
            let trained_err: f64 = trained.iter().map(|s| error(s)).sum();
            PhaseReport {
                empties: phase_empties(size, phase),
                trained: mine.len() - held.len(),
                held_out: held.len(),
                held_out_mae: if held.is_empty() {
                    0.0
                } else {
                    err / held.len() as f64
                },
                held_out_exact: held.iter().filter(|s| s.exact).count(),
                trained_mae: trained_err / trained.len().max(1) as f64,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use ply_othello::analyze::WholeDiscs;

    use super::*;

    #[test]
    fn search_value_is_minimax_over_the_evaluation() {
        /// Minimax without pruning, straight from the rules: the slow reference.
        fn minimax(e: &Eval, pos: &Position, depth: u32) -> i32 {
            if pos.is_game_over() {
                return WholeDiscs(pos.final_score()).in_64ths().0;
            }
            if !pos.can_move() {
                return -minimax(e, &pos.passed(), depth);
            }
            if depth == 0 {
                let v = e.evaluate_reference(pos.player().0, pos.opponent().0);
                let bound = WholeDiscs(pos.size().squares() as i32).in_64ths().0;
                return v.clamp(-bound, bound);
            }
            pos.legal_moves()
                .map(|sq| -minimax(e, &pos.play_unchecked(sq), depth - 1))
                .max()
                .expect("a legal move")
        }
        for size in [BoardSize::Six, BoardSize::Eight] {
            let e = ply_othello::eval::builtin(size).unwrap();
            for seed in 0..4 {
                for pos in game_positions(size, seed).into_iter().step_by(2) {
                    for depth in 0..=3 {
                        assert_eq!(
                            search_value(e, &pos, depth),
                            Discs64(minimax(e, &pos, depth)),
                            "{pos} depth {depth}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn extra_games_add_positions_only_where_labels_are_exact() {
        let mut cfg = Config::shipped(BoardSize::Eight);
        cfg.games = 3;
        cfg.exact_games = 0;
        cfg.mid_games = 0;
        let base = draw_samples(&cfg);
        cfg.exact_games = 5;
        let more = draw_samples(&cfg);
        assert_eq!(&more[..base.len()], &base[..]);
        assert!(more.len() > base.len());
        assert!(more[base.len()..]
            .iter()
            .all(|s| s.empties(BoardSize::Eight) < 18));
        // The mid games add positions at 18-23 empties only (the phase above the exact ones).
        cfg.mid_games = 5;
        let mid = draw_samples(&cfg);
        assert_eq!(&mid[..more.len()], &more[..]);
        assert!(mid.len() > more.len());
        assert!(mid[more.len()..]
            .iter()
            .all(|s| (18..24).contains(&s.empties(BoardSize::Eight))));
        assert_eq!(last_exact_phase(BoardSize::Eight, 18), Some(2));
        assert_eq!(last_exact_phase(BoardSize::Six, 20), Some(4));
        assert_eq!(last_exact_phase(BoardSize::Eight, 4), None);
    }

    /// The positions of a game as the loop of their own that the fit had before the match
    /// runner played its games: the reference the runner's games are checked against.
    fn game_positions_slow(size: BoardSize, seed: u64) -> Vec<Position> {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let mut pos = Position::start(size);
        let random_plies = 2 + rng.below_by_remainder(9);
        let mut seen: Vec<Vec<Position>> = vec![Vec::new(); phase_count(size)];
        let mut ply = 0;
        while !pos.is_game_over() {
            if !pos.can_move() {
                pos = pos.passed();
                continue;
            }
            seen[phase_of(size, pos.empties().count())].push(pos);
            let sq = if ply < random_plies {
                let moves: Vec<_> = pos.legal_moves().into_iter().collect();
                moves[rng.below_by_remainder(moves.len() as u64) as usize]
            } else {
                heuristic_move(&pos, &mut rng)
            };
            pos = pos.play_unchecked(sq);
            ply += 1;
        }
        seen.into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| s[rng.below_by_remainder(s.len() as u64) as usize])
            .collect()
    }

    /// On the match runner, the sampler draws the positions its own loop drew, seed by seed,
    /// passes included (the one engine at both seats is told them).
    #[test]
    fn the_runners_games_draw_the_positions_of_the_old_loop() {
        let mut passes = 0;
        for size in [BoardSize::Six, BoardSize::Eight] {
            for seed in (0..40).chain([6_000_000, 8_000_000, u64::MAX]) {
                assert_eq!(
                    game_positions(size, seed),
                    game_positions_slow(size, seed),
                    "{size:?} seed {seed}"
                );
                let mut sampler = Sampler::new(size, seed);
                let start = GameRecord::new(Position::start(size));
                let game =
                    play_seated(Seats::One(&mut sampler), &start, [UNTIMED; 2], &SYSTEM).unwrap();
                passes += game
                    .record
                    .moves()
                    .iter()
                    .filter(|m| **m == Move::Pass)
                    .count();
            }
        }
        assert!(passes > 0, "a game with a pass was compared");
    }

    #[test]
    fn games_are_deterministic_and_legal() {
        let a = game_positions(BoardSize::Eight, 7);
        assert_eq!(a, game_positions(BoardSize::Eight, 7));
        assert!(a.len() >= 8);
        assert!(a.iter().all(Position::can_move));
    }
}
