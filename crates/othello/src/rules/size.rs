//! Board sizes, and which squares of the 8x8 layout exist on each: a smaller board occupies
//! the top-left corner. `Square::is_on` is written here rather than beside `Square`, so that
//! squares, bitboards and sizes do not import each other in a circle.

use crate::{Bitboard, Square};

/// A board size: 4x4, 6x6 or 8x8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum BoardSize {
    /// 4x4, 16 squares.
    Four,
    /// 6x6, 36 squares.
    Six,
    /// 8x8, the standard board.
    Eight,
}

impl BoardSize {
    /// The size with `n` squares on a side (4, 6 or 8).
    #[must_use]
    pub const fn from_n(n: u8) -> Option<BoardSize> {
        match n {
            4 => Some(BoardSize::Four),
            6 => Some(BoardSize::Six),
            8 => Some(BoardSize::Eight),
            _ => None,
        }
    }

    /// Squares on a side.
    #[must_use]
    pub const fn n(self) -> u8 {
        match self {
            BoardSize::Four => 4,
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }

    /// The squares that exist on this board (the top-left `n` x `n` corner of the 8x8 layout).
    #[must_use]
    pub const fn mask(self) -> Bitboard {
        match self {
            BoardSize::Four => Bitboard(0x0000_0000_0f0f_0f0f),
            BoardSize::Six => Bitboard(0x0000_3f3f_3f3f_3f3f),
            BoardSize::Eight => Bitboard(u64::MAX),
        }
    }

    /// Number of squares, `n * n`.
    #[must_use]
    pub const fn squares(self) -> u32 {
        let n = self.n() as u32;
        n * n
    }
}

impl Square {
    /// True when the square exists on a board of this size.
    #[must_use]
    pub const fn is_on(self, size: BoardSize) -> bool {
        self.col() < size.n() && self.row() < size.n()
    }
}
