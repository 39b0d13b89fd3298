//! `ply bench ponder`: what pondering is worth. Two players of this build in one process,
//! one thinking on the opponent's time and one not, play each opening twice (colours
//! swapped) at a Fischer clock on the match runner ([`ply_engines::matches::play_game`]),
//! the moves timed by the referee's clock; the score of the pondering side, and the depth
//! each side reached on its moves (the pondering side's ponder hits apart), from what each
//! move's [`ply_engines::Info`] says.
//!
//! ```text
//! ply bench ponder --openings 25 --main-ms 2000 --inc-ms 100
//! ```

use std::{
    io::{self, Write},
    time::Duration,
};

use anyhow::Context;
use ply_engines::{
    matches::{play_game, Control},
    tally::PonderTally,
    PlyEngine,
};
use ply_othello::{
    play::{Player, Settings, TimeControl},
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
    let clock = Control::Clock(control);
    // Each player is on the clock before its first game, so that no move pays for the
    // solver's table it keeps (made when a clock is set).
    let player = |name: &str, ponder: bool| {
        let mut p = Player::new(Settings {
            depth: None,
            ponder,
            ..Settings::default()
        });
        p.set_time_control(control);
        PlyEngine::with_player(name, p)
    };
    let (mut pondering, mut plain) = (player("pondering", true), player("plain", false));
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} openings x 2 colours, Fischer {} ms + {} ms a move: pondering against not",
        openings.len(),
        a.main_ms,
        a.inc_ms
    )?;
    let mut tally = PonderTally::default();
    for (i, o) in openings.iter().enumerate() {
        let line = &o.text;
        for ponder_color in [Color::Black, Color::White] {
            let start = GameRecord::new(o.game.position());
            let (black, white) = match ponder_color {
                Color::Black => (&mut pondering, &mut plain),
                Color::White => (&mut plain, &mut pondering),
            };
            // A flag loses the game for that side (the game says so); the match goes on.
            let game = play_game(black, white, &start, [clock; 2], &SYSTEM)
                .with_context(|| format!("opening {} ({line})", i + 1))?;
            let report = tally.add(i + 1, line, ponder_color, &game);
            writeln!(out, "{report}")?;
            out.flush()?;
        }
    }
    writeln!(out, "{}", tally.summary())?;
    Ok(())
}
