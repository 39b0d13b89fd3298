//! `boj-7682`: lines of nine cells `X`/`O`/`.`, ended by `end`, `X` moving first; answer
//! `valid` when the board is a final position some real game stops at, else `invalid`.
//! Boards that cannot occur are part of the question here, so they are answers, not errors.
//! Only uppercase `X`, `O` and `.` are cells, as in the statement: a lowercase `o` is an error.

use std::io::{BufRead, Write};

use ply_core::SplitMix64;
use ply_tictactoe::{table::SolvedTable, Board, Mark, Position};

use super::{
    cells::{
        board, board_text, describe, over_reason, random_position, write_board, CellTable, Length,
    },
    stream::{Lines, Out},
};
use crate::Error;

const CELLS: CellTable = CellTable::new(*b".XO", "X, O or .");

/// Reads boards until `end`, writes `valid` or `invalid` for each.
///
/// # Errors
///
/// A bad-input error naming the line for a malformed board or a missing `end`; the answers
/// before it are written.
pub fn solve(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let table = SolvedTable::get();
    let mut lines = Lines::new(input);
    Out::run(out, |out| {
        let mut case = 0;
        while let Some(code) = next_board(&mut lines, &mut case)? {
            let is_final = table
                .entry_by_code(code)
                .value()
                .is_some_and(|v| v.remoteness == 0);
            out.push(if is_final { b"valid\n" } else { b"invalid\n" })?;
        }
        lines.expect_end("`end`")
    })
}

/// The code of the next board, or `None` at `end`; counts the cases in `case`.
fn next_board(lines: &mut Lines<'_>, case: &mut u64) -> Result<Option<usize>, Error> {
    *case += 1;
    let Some(line) = lines.next_nonblank()? else {
        return Err(Error::input(format!(
            "case {case}: the input ends without the closing line `end`"
        )));
    };
    if line.trimmed() == b"end" {
        return Ok(None);
    }
    CELLS
        .row::<9>(line.text, false)
        .map(Some)
        .map_err(|e| Error::input(format!("case {case}, line {}: {e}", line.no)))
}

/// Why ply answers each board as it does: the rule an impossible board breaks, why a final
/// board is final, or the value and remoteness of a board whose game goes on.
///
/// Explains the first `limit` cases only (the rest of the input is not read).
///
/// # Errors
///
/// As [`solve`].
pub fn explain(input: &[u8], limit: usize) -> Result<Vec<String>, Error> {
    let mut reader = input;
    let mut lines = Lines::new(&mut reader);
    let mut case = 0;
    let mut why = Vec::new();
    while let Some(code) = next_board(&mut lines, &mut case)? {
        if why.len() == limit {
            return Ok(why);
        }
        let b = board(code);
        let text = board_text(b, ['.', 'X', 'O']).replace('/', "");
        why.push(match Position::new(b, Mark::X) {
            Err(reason) => {
                format!("case {case}: {text} -> invalid: the board cannot occur: {reason}")
            }
            Ok(pos) => match over_reason(&pos, mark) {
                Some(end) => format!("case {case}: {text} -> valid: a game ends here: {end}"),
                None => format!(
                    "case {case}: {text} -> invalid: the game is not over: {}",
                    describe(&pos, mark)
                ),
            },
        });
    }
    lines.expect_end("`end`")?;
    Ok(why)
}

/// A mark as this problem writes it.
fn mark(m: Mark) -> char {
    match m {
        Mark::X => 'X',
        Mark::O => 'O',
    }
}

/// Writes `count` boards (finals, unfinished positions, arbitrary and damaged boards) and
/// `end`.
///
/// # Errors
///
/// A write error.
pub fn generate(count: usize, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..count {
        let b = match rng.below(10) {
            0..=3 => random_position(&mut rng, Mark::X, Length::ToTheEnd).board(),
            4 | 5 => {
                let length = Length::AtMost(rng.below(9));
                random_position(&mut rng, Mark::X, length).board()
            }
            6 | 7 => arbitrary(&mut rng, false),
            8 => arbitrary(&mut rng, true),
            _ => {
                // A final board with one cell changed: usually just invalid.
                let b = random_position(&mut rng, Mark::X, Length::ToTheEnd).board();
                let cell = ply_tictactoe::Cell::new(rng.below(9) as u8).expect("below 9");
                match b.get(cell) {
                    Some(m) => b.with(cell, m.other()),
                    None => b.with(cell, Mark::X),
                }
            }
        };
        writeln!(out, "{}", write_board(b, ['.', 'X', 'O'], "", ""))?;
    }
    writeln!(out, "end")?;
    Ok(())
}

/// Any arrangement of marks (`full`: no empty cell).
fn arbitrary(rng: &mut SplitMix64, full: bool) -> Board {
    let mut b = Board::EMPTY;
    for cell in ply_tictactoe::Cell::all() {
        match rng.below(if full { 2 } else { 3 }) {
            0 => b = b.with(cell, Mark::X),
            1 => b = b.with(cell, Mark::O),
            _ => {}
        }
    }
    b
}
