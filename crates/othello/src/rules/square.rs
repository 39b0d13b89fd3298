//! Squares and their names: columns `a`–`h` left to right, rows `1`–`8` top to bottom.

use std::{fmt, str::FromStr};

use crate::ParseError;

/// One square of the 8x8 layout, `a1` = 0 … `h8` = 63 (index = row * 8 + column).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `col` (0 = `a`) and `row` (0 = `1`), if both are below 8.
    #[must_use]
    pub const fn new(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The square with this index, if it is below 64.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// Index `row * 8 + col`, 0..64.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Column, 0 = `a`.
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// Row, 0 = `1`.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// Parses `a1`…`h8`, either case.
    ///
    /// # Errors
    /// When the text is not a column letter followed by a row digit.
    ///
    /// ```
    /// use ply_othello::Square;
    /// assert_eq!(Square::parse("F5").unwrap().to_string(), "f5");
    /// assert!(Square::parse("i9").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Square, ParseError> {
        let b = text.as_bytes();
        if b.len() == 2 {
            let c = b[0].to_ascii_lowercase();
            if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&b[1]) {
                return Ok(Square((b[1] - b'1') * 8 + (c - b'a')));
            }
        }
        Err(ParseError::new(format!(
            "`{text}` is not a square (expected a1..h8)"
        )))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl FromStr for Square {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Square, ParseError> {
        Square::parse(s)
    }
}
