//! Reading and writing boards as text.
//!
//! One forgiving reader serves every format ply meets: nine cells row-major, marks `X x O o`,
//! empties `. - _ 0`, or the digits `0 1 2` where a format numbers the cells; rows may be
//! separated by `/`, spaces or newlines. The writer emits one canonical form,
//! `XO./.X./..O`, which the reader accepts back.

use std::{fmt, str::FromStr};

use crate::{Board, Cell, Mark};

/// How the cells of a board are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// `X`/`x` and `O`/`o` for marks; `.`, `-`, `_` or `0` for an empty cell.
    #[default]
    Marks,
    /// `0` for an empty cell, `1` for `X`, `2` for `O`.
    Digits,
}

impl Notation {
    /// The cell a character stands for: `Some(None)` is an empty cell, `None` is not a cell.
    #[must_use]
    pub const fn cell(self, c: u8) -> Option<Option<Mark>> {
        match (self, c) {
            (Notation::Marks, b'X' | b'x') | (Notation::Digits, b'1') => Some(Some(Mark::X)),
            (Notation::Marks, b'O' | b'o') | (Notation::Digits, b'2') => Some(Some(Mark::O)),
            (Notation::Marks, b'.' | b'-' | b'_' | b'0') | (Notation::Digits, b'0') => Some(None),
            _ => None,
        }
    }

    fn expected(self) -> &'static str {
        match self {
            Notation::Marks => "X, O or an empty cell (. - _ 0)",
            Notation::Digits => "0, 1 or 2",
        }
    }
}

/// Why a text is not a board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// A character that is neither a cell nor a separator.
    UnknownChar {
        /// The character.
        ch: char,
        /// Its place in the text, counting characters from 1.
        position: usize,
        /// What the notation accepts there.
        expected: &'static str,
    },
    /// Not exactly nine cells.
    CellCount {
        /// How many cells the text holds.
        found: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownChar {
                ch,
                position,
                expected,
            } => write!(
                f,
                "unknown character {ch:?} at position {position} (expected {expected})"
            ),
            ParseError::CellCount { found } => write!(f, "expected 9 cells, found {found}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Whether `c` may separate rows.
const fn is_separator(c: char) -> bool {
    matches!(c, '/' | ' ' | '\t' | '\r' | '\n')
}

/// Reads a board written in `notation`.
///
/// ```
/// use ply_tictactoe::{parse_board, Notation};
/// let b = parse_board("xo./.x./..o", Notation::Marks)?;
/// assert_eq!(b, parse_board("1 2 0\n0 1 0\n0 0 2", Notation::Digits)?);
/// # Ok::<(), ply_tictactoe::ParseError>(())
/// ```
///
/// # Errors
///
/// [`ParseError::UnknownChar`] names the first character that is neither a cell nor a
/// separator and its place; [`ParseError::CellCount`] says how many cells there were if not 9.
pub fn parse_board(text: &str, notation: Notation) -> Result<Board, ParseError> {
    let mut board = Board::EMPTY;
    let mut cells = 0;
    for (i, ch) in text.chars().enumerate() {
        if is_separator(ch) {
            continue;
        }
        let cell = u8::try_from(ch).ok().and_then(|b| notation.cell(b)).ok_or(
            ParseError::UnknownChar {
                ch,
                position: i + 1,
                expected: notation.expected(),
            },
        )?;
        if let (Some(mark), Some(at)) = (cell, Cell::new(cells)) {
            board = board.with(at, mark);
        }
        cells = cells.saturating_add(1);
    }
    if cells == 9 {
        Ok(board)
    } else {
        Err(ParseError::CellCount {
            found: usize::from(cells),
        })
    }
}

impl FromStr for Board {
    type Err = ParseError;

    /// Reads a board in [`Notation::Marks`].
    fn from_str(s: &str) -> Result<Board, ParseError> {
        parse_board(s, Notation::Marks)
    }
}

impl Board {
    /// The three rows as characters, `X`, `O` or `.`.
    #[must_use]
    pub fn rows(self) -> [[char; 3]; 3] {
        let mut rows = [['.'; 3]; 3];
        for cell in Cell::all() {
            let i = usize::from(cell.index());
            rows[i / 3][i % 3] = self.get(cell).map_or('.', Mark::as_char);
        }
        rows
    }
}

impl fmt::Display for Board {
    /// Writes `XO./.X./..O`: rows top to bottom separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.rows().iter().enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in row {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_notation_reads_the_same_board() {
        let want = parse_board("XO./.X./..O", Notation::Marks).unwrap();
        for text in [
            "xo.-x-__o",
            "XO0 0X0 00O",
            "XO.\n.X.\n..O\n",
            "x o . / . x . / . . o",
        ] {
            assert_eq!(parse_board(text, Notation::Marks).unwrap(), want, "{text}");
        }
        assert_eq!(parse_board("120/010/002", Notation::Digits).unwrap(), want);
    }

    #[test]
    fn errors_name_the_character_and_place() {
        let e = parse_board("XO./.Z./..O", Notation::Marks).unwrap_err();
        assert_eq!(
            e,
            ParseError::UnknownChar {
                ch: 'Z',
                position: 6,
                expected: "X, O or an empty cell (. - _ 0)"
            }
        );
        assert_eq!(
            e.to_string(),
            "unknown character 'Z' at position 6 (expected X, O or an empty cell (. - _ 0))"
        );
        assert_eq!(
            parse_board("XO./.X./.O", Notation::Marks).unwrap_err(),
            ParseError::CellCount { found: 8 }
        );
        assert_eq!(
            parse_board("XO./.X./..O.", Notation::Marks).unwrap_err(),
            ParseError::CellCount { found: 10 }
        );
        assert!(matches!(
            parse_board("x00/000/000", Notation::Digits),
            Err(ParseError::UnknownChar {
                ch: 'x',
                position: 1,
                ..
            })
        ));
    }
}
