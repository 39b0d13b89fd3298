//! `ttt-finals`: lines of nine cells `O`/`X`/`-`, `O` moving first; answer
//! `total o_wins x_wins draws`, the distinct final boards reachable from the board. Only
//! uppercase `O`, `X` and `-` are cells.

use std::io::{BufRead, Write};

use ply_core::{reachable, SplitMix64};
use ply_tictactoe::{Mark, Position};

use super::{
    cells::{board, board_text, describe, random_position, write_board, CellTable, Length},
    stream::{Lines, Out},
};
use crate::Error;

const CELLS: CellTable = CellTable::new(*b"-XO", "O, X or -");

/// Reads one board a line, writes its four counts.
///
/// # Errors
///
/// A bad-input error naming the case and line for a malformed board or one that cannot occur.
pub fn solve(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let mut lines = Lines::new(input);
    Out::run(out, |out| {
        let mut case = 0;
        while let Some(pos) = next_position(&mut lines, &mut case)? {
            let c = pos.count_finals();
            out.push(format!("{} {} {} {}\n", c.total(), c.o, c.x, c.draw).as_bytes())?;
        }
        if case == 0 {
            return Err(Error::input("the input is empty: expected a board"));
        }
        Ok(())
    })
}

/// The position on the next line, or `None` at the end; counts the cases in `case`.
fn next_position(lines: &mut Lines<'_>, case: &mut u64) -> Result<Option<Position>, Error> {
    let Some(line) = lines.next_nonblank()? else {
        return Ok(None);
    };
    *case += 1;
    let at = format!("case {case}, line {}", line.no);
    let code = CELLS
        .row::<9>(line.text, false)
        .map_err(|e| Error::input(format!("{at}: {e}")))?;
    Position::new(board(code), Mark::O)
        .map(Some)
        .map_err(|reason| Error::input(format!("{at}: the board cannot occur: {reason}")))
}

/// The most final boards an explanation lists one by one.
const LISTED: usize = 8;

/// Why ply answers each board as it does: who moves and the value with its remoteness, the
/// counts, and the final boards themselves when there are few.
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
    while let Some(pos) = next_position(&mut lines, &mut case)? {
        if why.len() == limit {
            return Ok(why);
        }
        let c = pos.count_finals();
        let chars = ['-', 'X', 'O'];
        let text = board_text(pos.board(), chars).replace('/', "");
        let mut finals: Vec<String> = reachable(&pos)
            .into_iter()
            .filter(Position::is_over)
            .map(|f| board_text(f.board(), chars).replace('/', ""))
            .collect();
        finals.sort();
        let listed = if finals.len() <= LISTED {
            format!(": {}", finals.join(" "))
        } else {
            String::new()
        };
        why.push(format!(
            "case {case}: {text} -> {} {} {} {}: {}; {} distinct final boards reachable, \
             {} won by O, {} by X, {} drawn{listed}",
            c.total(),
            c.o,
            c.x,
            c.draw,
            describe(&pos, |m| if m == Mark::X { 'X' } else { 'O' }),
            c.total(),
            c.o,
            c.x,
            c.draw,
        ));
    }
    if case == 0 {
        return Err(Error::input("the input is empty: expected a board"));
    }
    Ok(why)
}

/// Writes `count` random boards that can occur with `O` moving first, one a line.
///
/// # Errors
///
/// A write error.
pub fn generate(count: usize, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..count {
        let length = match rng.below(6) {
            0 => Length::ToTheEnd,
            _ => Length::AtMost(rng.below(9)),
        };
        let pos = random_position(&mut rng, Mark::O, length);
        writeln!(out, "{}", write_board(pos.board(), ['-', 'X', 'O'], "", ""))?;
    }
    Ok(())
}
