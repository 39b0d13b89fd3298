//! `ply bench ponder`: what pondering is worth. Two players of this build in one process,
//! one thinking on the opponent's time and one not, play each opening twice (colours
//! swapped) at a Fischer clock, the moves timed by the referee's clock
//! ([`ply_othello::play::play_game`]); the score of the pondering side, and the depth each
//! side reached on its moves (the pondering side's ponder hits apart).
//!
//! ```text
//! ply bench ponder --openings 25 --main-ms 2000 --inc-ms 100
//! ```

use std::{
    io::{self, Write},
    time::Duration,
};

use anyhow::Context;
use ply_othello::{
    play::{play_game, GameError, Player, Settings, TimeControl},
    spine::clock::SYSTEM,
    Color, GameRecord,
};

use crate::error::bad;

/// Arguments of `ply bench ponder`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Openings to play (each twice, colours swapped), the first N of xot-openings.txt.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub openings: usize,
    /// Main time of each side's Fischer clock, milliseconds.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub main_ms: u64,
    /// Fischer increment, milliseconds.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub inc_ms: u64,
    /// Directory holding xot-openings.txt (default: $PLY_DATA, else the repository's
    /// testdata/).
    #[arg(long, value_name = "DIR")]
    pub data: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.main_ms == 0 || a.main_ms > 3_600_000 || a.inc_ms > 60_000 {
        return Err(bad(format!(
            "--main-ms {} --inc-ms {}: expected 1 to 3600000 and 0 to 60000",
            a.main_ms, a.inc_ms
        )));
    }
    let openings = super::xot_openings(a.data.as_deref(), a.openings)?;
    let control = TimeControl::Fischer {
        main: Duration::from_millis(a.main_ms),
        increment: Duration::from_millis(a.inc_ms),
    };
    let player = |ponder: bool| {
        Player::new(Settings {
            depth: None,
            ponder,
            ..Settings::default()
        })
    };
    let (mut pondering, mut plain) = (player(true), player(false));
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} openings x 2 colours, Fischer {} ms + {} ms a move: pondering against not",
        openings.len(),
        a.main_ms,
        a.inc_ms
    )?;
    let (mut points, mut games) = (0.0, 0u32);
    let mut depths: [Vec<u32>; 3] = Default::default();
    let mut hits = 0u32;
    // Games lost on time: by the pondering side, by the other.
    let mut flags = [0u32; 2];
    let mut moves = 0u32;
    for (i, o) in openings.iter().enumerate() {
        let line = &o.text;
        for ponder_color in [Color::Black, Color::White] {
            let start = GameRecord::new(o.game.position());
            let (black, white) = match ponder_color {
                Color::Black => (&mut pondering, &mut plain),
                Color::White => (&mut plain, &mut pondering),
            };
            let p = usize::from(ponder_color == Color::White);
            let played = match play_game(black, white, start, control, &SYSTEM) {
                Ok(played) => played,
                Err(GameError::Flagged { side, used }) => {
                    // A flag loses the game for that side; the match goes on.
                    let ponderer_lost = side == ponder_color;
                    points += if ponderer_lost { 0.0 } else { 1.0 };
                    games += 1;
                    flags[usize::from(!ponderer_lost)] += 1;
                    writeln!(
                        out,
                        "{:>3} {line} pondering as {:<5} {side:?} ran out of time ({used:?} on its last move)",
                        i + 1,
                        if p == 0 { "black" } else { "white" },
                    )?;
                    continue;
                }
                Err(e) => return Err(e).with_context(|| format!("opening {} ({line})", i + 1)),
            };
            for (side, empties, budget, used, engine) in &played.overruns {
                let who = if (*side == Color::White) == (p == 1) {
                    "pondering"
                } else {
                    "plain"
                };
                writeln!(out, "    overrun: {who} at {empties} empties, {budget:?} given, {used:?} taken ({engine})")?;
            }
            let score = if p == 0 {
                played.black_score
            } else {
                -played.black_score
            };
            points += match score.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            };
            games += 1;
            hits += played.ponder_hits[p];
            moves += played.times[p].len() as u32;
            for &(d, hit) in &played.depths[p] {
                depths[usize::from(hit)].push(d);
            }
            for &(d, _) in &played.depths[1 - p] {
                depths[2].push(d);
            }
            let most = |t: &[Duration]| t.iter().max().copied().unwrap_or_default();
            writeln!(
                out,
                "{:>3} {line} pondering as {:<5} {score:>+4}  hits {}/{}  longest move {:?} vs {:?}  running {:.1}% of {games}",
                i + 1,
                if p == 0 { "black" } else { "white" },
                played.ponder_hits[p],
                played.times[p].len(),
                most(&played.times[p]),
                most(&played.times[1 - p]),
                100.0 * points / f64::from(games),
            )?;
            out.flush()?;
        }
    }
    let mean = |v: &[u32]| v.iter().map(|&d| f64::from(d)).sum::<f64>() / v.len().max(1) as f64;
    writeln!(
        out,
        "pondering took {points} of {games} points ({:.1}%); ponder hits {hits} of {moves} moves; lost on time: pondering {}, plain {}",
        100.0 * points / f64::from(games.max(1)),
        flags[0],
        flags[1]
    )?;
    writeln!(
        out,
        "mean depth of the midgame engine's moves: pondering side after a hit {:.2} ({} moves), after a miss {:.2} ({}); the side that does not ponder {:.2} ({})",
        mean(&depths[1]),
        depths[1].len(),
        mean(&depths[0]),
        depths[0].len(),
        mean(&depths[2]),
        depths[2].len(),
    )?;
    Ok(())
}
