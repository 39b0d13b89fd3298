//! The board as two 9-bit masks, one per mark: lines, counts and symmetries are a few
//! mask operations, and the pair maps to a base-3 index for the solved table.

use std::fmt;

/// A player's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// The mark `X`.
    X,
    /// The mark `O`.
    O,
}

impl Mark {
    /// The other mark.
    #[must_use]
    pub const fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// `'X'` or `'O'`.
    #[must_use]
    pub const fn as_char(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

/// One of the nine cells, numbered 0–8 row-major from the top left; named `a1`–`c3`
/// (column letter, row number from the top) as Othello squares are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with this row-major index, if it is below 9.
    #[must_use]
    pub const fn new(index: u8) -> Option<Cell> {
        if index < 9 {
            Some(Cell(index))
        } else {
            None
        }
    }

    /// The row-major index, 0–8.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The cell's bit in a [`Board`] mask.
    #[must_use]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }

    /// Every cell in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..9).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = char::from(b'a' + self.0 % 3);
        write!(f, "{column}{}", self.0 / 3 + 1)
    }
}

impl std::str::FromStr for Cell {
    type Err = BadCellName;

    /// A cell by name, `a1` to `c3` (either case), as [`Cell`]'s `Display` writes it.
    ///
    /// ```
    /// use ply_tictactoe::Cell;
    /// assert_eq!("b2".parse::<Cell>().unwrap().index(), 4);
    /// assert_eq!("C1".parse::<Cell>().unwrap().index(), 2);
    /// assert!("d1".parse::<Cell>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Cell, BadCellName> {
        match s.as_bytes() {
            [c @ (b'a'..=b'c' | b'A'..=b'C'), r @ b'1'..=b'3'] => {
                Ok(Cell((r - b'1') * 3 + (c.to_ascii_lowercase() - b'a')))
            }
            _ => Err(BadCellName(s.to_owned())),
        }
    }
}

/// A cell name that is not `a1` to `c3`; it holds the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCellName(pub String);

impl fmt::Display for BadCellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a cell: expected a1 to c3", self.0)
    }
}

impl std::error::Error for BadCellName {}

/// The eight lines of three, as masks.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All nine cells.
pub const FULL: u16 = 0x1ff;

/// A tic-tac-toe board: where the `X`s and the `O`s are, nothing more. It may be any
/// arrangement, possible in a game or not; [`crate::Position`] is a board that can occur.
///
/// Bit `i` of each mask is cell `i` (row-major from the top left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    x: u16,
    o: u16,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { x: 0, o: 0 };

    /// A board from its two masks, if they are 9-bit masks that do not overlap.
    #[must_use]
    pub const fn from_masks(x: u16, o: u16) -> Option<Board> {
        if x & o != 0 || (x | o) & !FULL != 0 {
            None
        } else {
            Some(Board { x, o })
        }
    }

    /// The cells holding `mark`.
    #[must_use]
    pub const fn mask(self, mark: Mark) -> u16 {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }

    /// The empty cells.
    #[must_use]
    pub const fn empty(self) -> u16 {
        FULL & !(self.x | self.o)
    }

    /// The mark on `cell`, if any.
    #[must_use]
    pub const fn get(self, cell: Cell) -> Option<Mark> {
        if self.x & cell.bit() != 0 {
            Some(Mark::X)
        } else if self.o & cell.bit() != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The board with `mark` placed on `cell` (whatever was there is replaced).
    #[must_use]
    pub const fn with(self, cell: Cell, mark: Mark) -> Board {
        let (x, o) = (self.x & !cell.bit(), self.o & !cell.bit());
        match mark {
            Mark::X => Board {
                x: x | cell.bit(),
                o,
            },
            Mark::O => Board {
                x,
                o: o | cell.bit(),
            },
        }
    }

    /// How many marks of this kind are on the board.
    #[must_use]
    pub const fn count(self, mark: Mark) -> u32 {
        self.mask(mark).count_ones()
    }

    /// Whether `mark` has three in a row.
    #[must_use]
    pub const fn has_line(self, mark: Mark) -> bool {
        let m = self.mask(mark);
        let mut i = 0;
        while i < LINES.len() {
            if m & LINES[i] == LINES[i] {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Whether every cell is taken.
    #[must_use]
    pub const fn is_full(self) -> bool {
        self.x | self.o == FULL
    }

    /// The same board with every `X` turned into an `O` and back: a game where `O` moves
    /// first is a game where `X` moves first with the marks swapped.
    #[must_use]
    pub const fn swap_marks(self) -> Board {
        Board {
            x: self.o,
            o: self.x,
        }
    }

    /// The board under symmetry `k` (0–7) of the square: `k & 3` quarter turns clockwise,
    /// then a mirror left to right if `k & 4`. Symmetry 0 is the identity.
    #[must_use]
    pub fn transform(self, k: u8) -> Board {
        Board {
            x: transform_mask(self.x, k),
            o: transform_mask(self.o, k),
        }
    }

    /// The smallest of the eight symmetric images: one fixed board per symmetry class.
    #[must_use]
    pub fn canonical(self) -> Board {
        (0..8)
            .map(|k| self.transform(k))
            .min()
            .expect("eight symmetries")
    }

    /// The index of the board among all 3^9 arrangements: cell `i` contributes
    /// 3^i times 0 (empty), 1 (`X`) or 2 (`O`).
    #[must_use]
    pub fn code(self) -> usize {
        usize::from(BASE3[usize::from(self.x)]) + 2 * usize::from(BASE3[usize::from(self.o)])
    }

    /// The board with this base-3 [`Board::code`], if it is below 3^9.
    #[must_use]
    pub fn from_code(code: usize) -> Option<Board> {
        if code >= CODES {
            return None;
        }
        let (mut x, mut o, mut rest) = (0, 0, code);
        for i in 0..9 {
            match rest % 3 {
                1 => x |= 1 << i,
                2 => o |= 1 << i,
                _ => {}
            }
            rest /= 3;
        }
        Some(Board { x, o })
    }
}

/// How many boards there are: 3^9.
pub const CODES: usize = 19683;

/// `BASE3[m]` reads the bits of the 9-bit mask `m` as base-3 digits.
pub(crate) static BASE3: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let (mut value, mut power, mut i) = (0u16, 1u16, 0);
        while i < 9 {
            if m & (1 << i) != 0 {
                value += power;
            }
            power *= 3;
            i += 1;
        }
        table[m] = value;
        m += 1;
    }
    table
};

fn transform_mask(mask: u16, k: u8) -> u16 {
    let mut out = 0;
    for i in 0..9u16 {
        if mask & (1 << i) == 0 {
            continue;
        }
        let (mut row, mut col) = (i / 3, i % 3);
        for _ in 0..(k & 3) {
            (row, col) = (col, 2 - row);
        }
        if k & 4 != 0 {
            col = 2 - col;
        }
        out |= 1 << (row * 3 + col);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_round_trips_on_every_board() {
        for code in 0..CODES {
            let b = Board::from_code(code).unwrap();
            assert_eq!(b.code(), code);
        }
        assert_eq!(Board::from_code(CODES), None);
    }

    #[test]
    fn symmetries_form_the_eight_images_of_a_corner() {
        let corner = Board::EMPTY.with(Cell::new(0).unwrap(), Mark::X);
        let mut images: Vec<Board> = (0..8).map(|k| corner.transform(k)).collect();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 4);
        let lone = Board::EMPTY
            .with(Cell::new(0).unwrap(), Mark::X)
            .with(Cell::new(1).unwrap(), Mark::O);
        let mut images: Vec<Board> = (0..8).map(|k| lone.transform(k)).collect();
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn cells_are_named_like_othello_squares() {
        let names: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
        assert_eq!(
            names,
            ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
        );
    }
}
