//! 6x6 played perfectly from the first move: ply, through the entry point the page calls
//! (`ply_server::othello::analyze`) with the page's default budget, plays random and greedy
//! opponents as both colours, and never ends below the game's value (white wins by 4, -4 for
//! black with the empties to the winner). The opening book answers the first moves, the
//! exact solver the rest.

use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use ply_core::SplitMix64;
use ply_othello::{BoardSize, Color, Position, Square};
use ply_server::othello::{analyze, Analysis, Request, DEFAULT_BUDGET_MS};

/// The game's value for black.
const VALUE: i32 = -4;

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Random,
    /// The move that turns the most discs (ties at random).
    Greedy,
}

fn opponent_move(pos: &Position, kind: Opponent, rng: &mut SplitMix64) -> Square {
    let moves: Vec<Square> = pos.legal_moves().collect();
    let pool: Vec<Square> = match kind {
        Opponent::Random => moves,
        Opponent::Greedy => {
            let most = moves.iter().map(|&m| pos.flips(m).count()).max().unwrap();
            moves
                .into_iter()
                .filter(|&m| pos.flips(m).count() == most)
                .collect()
        }
    };
    pool[rng.below(pool.len())]
}

fn best_is_exact(a: &Analysis) -> bool {
    a.moves
        .iter()
        .any(|m| Some(&m.square) == a.best.as_ref() && m.exact)
}

/// Plays one game; returns ply's final score and the longest it took to know its move
/// exactly, in milliseconds.
fn play(ply: Color, kind: Opponent, seed: u64) -> (i32, u64, String) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::start(BoardSize::Six);
    let mut record = String::new();
    let mut slowest = 0;
    while !pos.is_game_over() {
        if !pos.can_move() {
            pos = pos.passed();
            continue;
        }
        let sq = if pos.turn() == ply {
            let req = Request {
                position: pos,
                analysis: ply_othello::analyze::Request {
                    time: Some(Duration::from_millis(DEFAULT_BUDGET_MS).as_secs_f64()),
                    ..ply_othello::analyze::Request::default()
                },
            };
            // When the move to play is known exactly: the first snapshot whose best move is
            // exact (the analysis goes on within the budget, scoring the other moves).
            let mut known_at = None;
            let a = analyze(req, None, Arc::new(AtomicBool::new(false)), &mut |s| {
                if known_at.is_none() && best_is_exact(&s) {
                    known_at = Some(s.elapsed_ms);
                }
            });
            assert!(best_is_exact(&a), "ply's move is not proven optimal: {a:?}");
            slowest = slowest.max(known_at.unwrap_or(a.elapsed_ms));
            Square::parse(a.best.as_deref().expect("a move")).unwrap()
        } else {
            opponent_move(&pos, kind, &mut rng)
        };
        record.push_str(&sq.to_string());
        pos = pos.play(sq).unwrap();
    }
    let black = pos.final_score() * if pos.turn() == Color::Black { 1 } else { -1 };
    let score = if ply == Color::Black { black } else { -black };
    (score, slowest, record)
}

#[test]
#[ignore = "heavy: run with `cargo test --profile test-release -- --ignored`"]
fn ply_never_ends_below_the_value_of_6x6_as_either_colour() {
    let mut slowest = 0;
    for (ply, value) in [(Color::Black, VALUE), (Color::White, -VALUE)] {
        for (kind, seeds) in [(Opponent::Random, 1..=4u64), (Opponent::Greedy, 1..=2)] {
            for seed in seeds {
                let (score, slow, record) =
                    play(ply, kind, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                eprintln!(
                    "ply {ply:?} vs {kind:?} #{seed}: {score:+} (slowest move {slow} ms) {record}"
                );
                assert!(
                    score >= value,
                    "ply as {ply:?} against {kind:?} (seed {seed}) ended {score:+}, below the \
                     game's value {value:+}: {record}"
                );
                slowest = slowest.max(slow);
            }
        }
    }
    eprintln!("slowest move known exactly after {slowest} ms");
}
