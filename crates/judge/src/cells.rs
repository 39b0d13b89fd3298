//! Reading a row of tic-tac-toe cells from a judge input line, fast: a 256-entry table maps
//! each byte to its cell (or to "not a cell"), and the row becomes part of a base-3 board code
//! that indexes the solved tables directly, with no board built in between.

use ply_tictactoe::{Board, Mark, Notation, Position};

use ply_core::SplitMix64;

const NOT_A_CELL: u8 = 0xff;

/// A byte-to-cell table for one notation: 0 empty, 1 `X`, 2 `O`, `NOT_A_CELL` otherwise.
pub struct CellTable {
    map: [u8; 256],
    expected: &'static str,
}

impl CellTable {
    /// The table of `notation`; `expected` describes the accepted characters in errors.
    pub const fn new(notation: Notation, expected: &'static str) -> CellTable {
        let mut map = [NOT_A_CELL; 256];
        let mut b = 0;
        while b < 256 {
            map[b] = match notation.cell(b as u8) {
                Some(None) => 0,
                Some(Some(Mark::X)) => 1,
                Some(Some(Mark::O)) => 2,
                None => NOT_A_CELL,
            };
            b += 1;
        }
        CellTable { map, expected }
    }

    /// The cell of `byte`: 0 empty, 1 `X`, 2 `O`, or 255 if it is not a cell (so the OR of
    /// several results is 255 exactly when one of them is not a cell).
    #[inline]
    pub const fn cell(&self, byte: u8) -> u8 {
        self.map[byte as usize]
    }

    /// The base-3 code of the `N` cells on `line` (cell `i` worth 3^i), surrounding
    /// whitespace ignored; with `spaced`, whitespace between cells is ignored too.
    ///
    /// # Errors
    ///
    /// A message naming the bad character and its column, or the wrong number of cells.
    #[inline]
    pub fn row<const N: usize>(&self, line: &[u8], spaced: bool) -> Result<usize, String> {
        if let (3, &[a, b, c]) = (N, line) {
            // The common case, a bare three-cell row: one OR tells whether all are cells.
            let [a, b, c] = [a, b, c].map(|byte| self.map[usize::from(byte)]);
            if a | b | c != NOT_A_CELL {
                return Ok(usize::from(a) + 3 * usize::from(b) + 9 * usize::from(c));
            }
        }
        self.row_slow::<N>(line, spaced)
    }

    fn row_slow<const N: usize>(&self, line: &[u8], spaced: bool) -> Result<usize, String> {
        let lead = line.len() - line.trim_ascii_start().len();
        let body = line.trim_ascii();
        let (mut code, mut power, mut cells) = (0, 1, 0);
        for (i, &byte) in body.iter().enumerate() {
            if spaced && byte.is_ascii_whitespace() {
                continue;
            }
            let cell = self.map[usize::from(byte)];
            if cell == NOT_A_CELL {
                return Err(format!(
                    "unknown character '{}' at column {} (expected {})",
                    super::stream::show_byte(byte),
                    lead + i + 1,
                    self.expected
                ));
            }
            cells += 1;
            if cells <= N {
                code += usize::from(cell) * power;
                power *= 3;
            }
        }
        if cells == N {
            Ok(code)
        } else {
            Err(format!("expected {N} cells, found {cells}"))
        }
    }
}

/// 3^(3 * row): the weight of the first cell of each row in a board code.
pub const ROW_WEIGHT: [usize; 3] = [1, 27, 729];

/// The board of a base-3 code below 3^9.
pub fn board(code: usize) -> Board {
    Board::from_code(code).expect("nine cells make a code below 3^9")
}

/// How a generator picks a position.
#[derive(Clone, Copy, Debug)]
pub enum Length {
    /// Random moves until the game is over.
    ToTheEnd,
    /// At most this many random moves (fewer if the game ends first).
    AtMost(usize),
}

/// A position reached by random moves from the empty board.
pub fn random_position(rng: &mut SplitMix64, first: Mark, length: Length) -> Position {
    let mut pos = Position::start(first);
    let limit = match length {
        Length::ToTheEnd => 9,
        Length::AtMost(n) => n,
    };
    for _ in 0..limit {
        let moves: Vec<_> = pos.moves().collect();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    pos
}

/// The board written as nine cells row-major with these characters for empty, `X`, `O`,
/// `cell_sep` between cells and `row_sep` after each row.
pub fn write_board(b: Board, chars: [char; 3], cell_sep: &str, row_sep: &str) -> String {
    let mut s = String::new();
    for row in &b.rows() {
        for (c, &cell) in row.iter().enumerate() {
            if c > 0 {
                s.push_str(cell_sep);
            }
            s.push(match cell {
                'X' => chars[1],
                'O' => chars[2],
                _ => chars[0],
            });
        }
        s.push_str(row_sep);
    }
    s
}
