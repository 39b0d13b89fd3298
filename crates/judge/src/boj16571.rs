//! `boj-16571`: one board, three lines of three cells `0`/`1`/`2` (empty, `X`, `O`) separated
//! by spaces, as in the statement (`1 2 1`; `121` is an error), `X` moving first and the game
//! not over; answer `W`, `D` or `L` for the side to move.

use std::io::{BufRead, Write};

use ply_core::{Outcome, SplitMix64};
use ply_tictactoe::{check, Mark, Position};

use super::{
    cells::{
        board, describe, over_reason, random_position, write_board, CellTable, Length, ROW_WEIGHT,
    },
    stream::{Lines, Out},
};
use crate::Error;

const CELLS: CellTable = CellTable::new(*b"012", "0, 1 or 2");

/// Reads the board, writes `W`, `D` or `L`.
///
/// # Errors
///
/// A bad-input error naming the line for a malformed row, and for a board that cannot occur
/// or whose game is already over (the problem promises neither).
pub fn solve(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let mut lines = Lines::new(input);
    Out::run(out, |out| {
        let pos = read(&mut lines)?;
        out.push(match pos.value().outcome {
            Outcome::Win => b"W\n",
            Outcome::Draw => b"D\n",
            Outcome::Loss => b"L\n",
        })?;
        Ok(())
    })
}

/// Reads the one board of the input: a position whose game goes on.
fn read(lines: &mut Lines<'_>) -> Result<Position, Error> {
    let (mut code, mut first_line) = (0, 0);
    for (row, weight) in ROW_WEIGHT.iter().enumerate() {
        let line = lines
            .next_nonblank()?
            .ok_or_else(|| Error::input(format!("the input ends after {row} of the 3 rows")))?;
        if row == 0 {
            first_line = line.no;
        }
        let cells = CELLS
            .row::<3>(line.text, true)
            .map_err(|e| Error::input(format!("line {}: {e}", line.no)))?;
        code += cells * weight;
    }
    let lines_read = format!("lines {first_line}-{}", lines.line_no());
    let pos = Position::new(board(code), Mark::X).map_err(|reason| {
        Error::input(format!("{lines_read}: the board cannot occur: {reason}"))
    })?;
    if let Some(how) = over_reason(&pos, |m| if m == Mark::X { 'X' } else { 'O' }) {
        return Err(Error::input(format!(
            "{lines_read}: the game is already over: {how}"
        )));
    }
    debug_assert!(check(pos.board(), Mark::X).is_ok());
    lines.expect_end("the board")?;
    Ok(pos)
}

/// Why ply answers as it does: the value and remoteness for the side to move.
///
/// Explains the first `limit` cases only (the rest of the input is not read).
///
/// # Errors
///
/// As [`solve`].
pub fn explain(input: &[u8], limit: usize) -> Result<Vec<String>, Error> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let mut reader = input;
    let pos = read(&mut Lines::new(&mut reader))?;
    let answer = match pos.value().outcome {
        Outcome::Win => 'W',
        Outcome::Draw => 'D',
        Outcome::Loss => 'L',
    };
    let digit = |m: Mark| if m == Mark::X { '1' } else { '2' };
    let text = write_board(pos.board(), ['0', '1', '2'], " ", "/");
    Ok(vec![format!(
        "case 1: {} -> {answer}: {} ({})",
        text.trim_end_matches('/'),
        describe(&pos, digit),
        "1 is X, 2 is O"
    )])
}

/// Writes one random unfinished board; the format holds exactly one.
///
/// # Errors
///
/// A bad-input error if `count` is not 1; a write error.
pub fn generate(count: usize, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
    if count != 1 {
        return Err(Error::input(format!(
            "boj-16571 inputs hold exactly one board: use --count 1 (not {count})"
        )));
    }
    let mut rng = SplitMix64::new(seed);
    let pos = loop {
        let length = Length::AtMost(rng.below(9));
        let pos = random_position(&mut rng, Mark::X, length);
        if !pos.is_over() {
            break pos;
        }
    };
    out.write_all(write_board(pos.board(), ['0', '1', '2'], " ", "\n").as_bytes())?;
    Ok(())
}
