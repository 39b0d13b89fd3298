//! The Go Text Protocol (version 2), engine side: ply as the engine that clients speaking
//! GTP to Othello engines drive, as Quarry does with Egaroucid's console and GRhino.
//! (GoGui plays games other than Go only through its own `gogui-rules_*` extension, which
//! ply does not speak.)
//!
//! Three parts, each testable alone: [`command`] reads one line into a command (pure),
//! [`session`] applies commands to the game and says the answer's text, [`answer`] writes the
//! answer as GTP frames it; [`serve`] is the loop that joins them over any reader and
//! writer (`ply gtp` gives it stdin and stdout). GTP is strictly one answer per command, in
//! order, so the loop needs no thread: `genmove` thinks on the loop's own; the player
//! ([`ply_othello::play`]) ponders on a thread of its own after its move until the next
//! command.
//!
//! `genmove` asks the player for its move (the one entry point, [`ply_othello::analyze`]:
//! the book, a chosen one or the shipped one, the midgame engine, the exact solver near the
//! end). Without a game clock a move takes at most the level's time and depth; with one
//! (`time_settings`, `kgs-time_settings none|absolute|byoyomi|canadian`, and `fischer MAIN
//! INCREMENT`, an extension) the player's clock decides each move's share, and `time_left`
//! corrects it. `reg_genmove` says the move without playing it and `hint` every move's value
//! (the name NBoard and Edax's console give it; GNU Go's GTP calls the same `top_moves`),
//! neither charged to the clock.

use std::io::{self, BufRead, Write};

pub mod answer;
pub mod command;
pub mod session;

pub use session::{Level, Session};

/// Answers the commands read from `input` on `output` until `quit` or the end of the input.
/// Bytes that are not UTF-8 make an unknown command, not the end.
///
/// # Errors
/// When `input` cannot be read or `output` written.
pub fn serve(
    session: &mut Session,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let raw = String::from_utf8_lossy(&buf);
        let Some(line) = command::parse(&raw) else {
            continue;
        };
        let quit = line.command == Ok(command::Command::Quit);
        let result = match &line.command {
            Ok(c) => session.apply(c),
            Err(e) => Err(e.clone()),
        };
        output.write_all(answer::format(line.id.as_deref(), &result).as_bytes())?;
        output.flush()?;
        if quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn serve_answers_each_command_in_order_and_stops_at_quit() {
        let mut s = Session::new(Level {
            depth: 1,
            move_time: Duration::from_secs(5),
            threads: 1,
            book: None,
            ponder: false,
        })
        .unwrap();
        let input = "1 boardsize 4\n# a comment\n\n2 play b b1\nfoo\n3 quit\n4 name\n";
        let mut out = Vec::new();
        serve(&mut s, &mut input.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "=1\n\n=2\n\n? unknown command: `foo`\n\n=3\n\n"
        );
    }
}
