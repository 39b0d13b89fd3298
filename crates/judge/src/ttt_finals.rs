//! `ttt-finals`: lines of nine cells `O`/`X`/`-`, `O` moving first; answer
//! `total o_wins x_wins draws`, the distinct final boards reachable from the board.

use std::io::{BufRead, Write};

use ply_core::SplitMix64;
use ply_tictactoe::{Mark, Notation, Position};

use super::{
    cells::{board, random_position, write_board, CellTable, Length},
    stream::{Lines, Out},
};
use crate::Error;

const CELLS: CellTable = CellTable::new(Notation::Marks, "O, X or -");

/// Reads one board a line, writes its four counts.
///
/// # Errors
///
/// A bad-input error naming the case and line for a malformed board or one that cannot occur.
pub fn solve(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), Error> {
    let mut lines = Lines::new(input);
    Out::run(out, |out| {
        let mut case = 0;
        while let Some(line) = lines.next_nonblank()? {
            case += 1;
            let at = format!("case {case}, line {}", line.no);
            let code = CELLS
                .row::<9>(line.text, false)
                .map_err(|e| Error::input(format!("{at}: {e}")))?;
            let pos = Position::new(board(code), Mark::O).map_err(|reason| {
                Error::input(format!("{at}: the board cannot occur: {reason}"))
            })?;
            let c = pos.count_finals();
            out.push(format!("{} {} {} {}\n", c.total(), c.o, c.x, c.draw).as_bytes())?;
        }
        if case == 0 {
            return Err(Error::input("the input is empty: expected a board"));
        }
        Ok(())
    })
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
