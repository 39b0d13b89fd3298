//! Reading a row of tic-tac-toe cells from a judge input line, fast: a 256-entry table maps
//! each byte to its cell (or to "not a cell"), and the row becomes part of a base-3 board code
//! that indexes the solved tables directly, with no board built in between.
//!
//! Each problem names its own three characters (`x o .` for algospot, `X O .` for BOJ 7682,
//! `0 1 2` for BOJ 16571, `X O -` for ttt-finals) and accepts those alone, as its statement
//! says: a lowercase `o` in a BOJ 7682 board is an error, not an `O`.

use ply_tictactoe::{Board, Mark, Position};

use ply_core::SplitMix64;

const NOT_A_CELL: u8 = 0xff;

/// A byte-to-cell table for one problem: 0 empty, 1 `X`, 2 `O`, `NOT_A_CELL` otherwise.
pub struct CellTable {
    map: [u8; 256],
    expected: &'static str,
}

impl CellTable {
    /// The table of these characters for an empty cell, `X` and `O` (`*b".XO"`), and no
    /// other; `expected` describes them in errors.
    pub const fn new(chars: [u8; 3], expected: &'static str) -> CellTable {
        let mut map = [NOT_A_CELL; 256];
        map[chars[0] as usize] = 0;
        map[chars[1] as usize] = 1;
        map[chars[2] as usize] = 2;
        CellTable { map, expected }
    }

    /// The cell of `byte`: 0 empty, 1 `X`, 2 `O`, or 255 if it is not a cell (so the OR of
    /// several results is 255 exactly when one of them is not a cell).
    #[inline]
    pub const fn cell(&self, byte: u8) -> u8 {
        self.map[byte as usize]
    }

    /// The base-3 code of the `N` cells on `line` (cell `i` worth 3^i), surrounding
    /// whitespace ignored; with `spaced`, the cells are separated by whitespace (and must be).
    ///
    /// # Errors
    ///
    /// A message naming the bad character and its column, or the wrong number of cells.
    #[inline]
    pub fn row<const N: usize>(&self, line: &[u8], spaced: bool) -> Result<usize, String> {
        if let (3, false, &[a, b, c]) = (N, spaced, line) {
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
            if spaced && i > 0 && !body[i - 1].is_ascii_whitespace() {
                return Err(format!(
                    "'{}' at column {} follows another cell without a space (the cells are \
                     separated by spaces)",
                    super::stream::show_byte(byte),
                    lead + i + 1,
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

/// The board in a problem's characters (`chars`: empty, `X`, `O`), rows separated by `/`.
pub fn board_text(b: Board, chars: [char; 3]) -> String {
    let mut s = write_board(b, chars, "", "/");
    s.pop();
    s
}

/// Why the game of `pos` is over (`X has three in a row`, `the board is full`), if it is.
pub fn over_reason(pos: &Position, name: impl Fn(Mark) -> char) -> Option<String> {
    match pos.winner() {
        Some(w) => Some(format!("{} has three in a row", name(w))),
        None if pos.is_over() => Some("the board is full".to_string()),
        None => None,
    }
}

/// What perfect play makes of `pos`, from the solved table, marks named by `name`: `the game
/// is over: X has three in a row`, or `O to move, win in 3 under perfect play` (the value and
/// the remoteness: moves to the end when the winner hurries and the loser stalls).
pub fn describe(pos: &Position, name: impl Fn(Mark) -> char) -> String {
    match over_reason(pos, &name) {
        Some(why) => format!("the game is over: {why}"),
        None => format!(
            "{} to move, {} under perfect play",
            name(pos.to_move()),
            pos.value()
        ),
    }
}
