use ply_othello::{midgame::{analyze, Limits, DISC}, BoardSize, Position};
use std::time::Duration;
fn main() {
    let pos = Position::start(BoardSize::Six);
    for sel in [false, true] {
        let l = Limits { selective: sel, ..Limits::budget(Duration::from_secs(1)) };
        let a = analyze(&pos, &l);
        println!("selective {sel}: depth {} score {:.2} nodes {}", a.depth, a.score as f64 / DISC as f64, a.nodes);
    }
    for d in 1..=14 {
        let l = Limits { selective: false, all_moves: false, ..Limits::depth(d) };
        let a = analyze(&pos, &l);
        print!("d{d}:{:.1} ", a.score as f64 / DISC as f64);
    }
    println!();
}
