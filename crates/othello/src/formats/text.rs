//! Positions as text: one line of cells plus the side to move, read in the spellings people
//! paste, and a plain picture for the terminal.
//!
//! A position is written as its cells `a1`, `b1`, … row by row (the first row first), then
//! the side to move. The board size follows from the number of cells: 16, 36 or 64. The
//! reader accepts the common symbol sets — `X`/`O`/`-`, `*`/`O`/`.`, `B`/`W`/`.`,
//! `x`/`o`/`.` — with whitespace or `/` anywhere between cells (so a pasted 8-line picture
//! works too), as long as one board keeps to one symbol for each kind of cell: a board that
//! mixes `X` and `*` is more likely a bad paste than a position. The side to move is one
//! more symbol (`X`, `O`, `*`, `B`, `W`, …) or the word `black` or `white`.
//!
//! The writer always uses `X`/`O`/`-`, the OBF spelling, so that `format(parse(s)) == s` for
//! every OBF board.

use std::fmt;

use crate::{Bitboard, BoardSize, Color, ParseError, Position, Square};

/// What one cell symbol stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Disc(Color),
    Empty,
}

fn classify(c: char) -> Option<Cell> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Cell::Disc(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Some(Cell::Disc(Color::White)),
        '-' | '.' | '_' => Some(Cell::Empty),
        _ => None,
    }
}

const SYMBOL_SETS: &str = "X/O/-, */O/., B/W/. or x/o/.";

/// Reads a position; the size is inferred from the number of cells (16, 36 or 64).
///
/// # Errors
/// When a character is not a cell symbol, one board mixes symbols for the same kind of cell,
/// the cell count is not 16, 36 or 64, or the side to move is missing or not a colour. The
/// message names the character position (1-based) where that helps.
///
/// ```
/// use ply_othello::{text, BoardSize, Color};
/// let pos = text::parse_position("-----*O--O*----- white").unwrap();
/// assert_eq!(pos.size(), BoardSize::Four);
/// assert_eq!(pos.turn(), Color::White);
/// assert!(text::parse_position("-----XO--OX----").is_err());
/// ```
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    let pos = parse_setup(text)?;
    // A position that no game reaches is refused here, in the one reader of cells, so that
    // no front end has to remember the check.
    pos.check_centre()
        .map_err(|e| ParseError::new(e.to_string()))?;
    Ok(pos)
}

/// The cells and the side to move as [`parse_position`] reads them, before the check that
/// a game can reach the position: for a reader that words the two failures apart.
pub(crate) fn parse_setup(text: &str) -> Result<Position, ParseError> {
    let trimmed = text.trim();
    // The side to move may be spelled as a word at the end.
    let lower = trimmed.to_ascii_lowercase();
    let (cells_text, word_turn) = if let Some(rest) = lower.strip_suffix("black") {
        (&trimmed[..rest.len()], Some(Color::Black))
    } else if let Some(rest) = lower.strip_suffix("white") {
        (&trimmed[..rest.len()], Some(Color::White))
    } else {
        (trimmed, None)
    };
    if word_turn.is_some() && !cells_text.ends_with(char::is_whitespace) {
        return Err(ParseError::new(
            "the side to move (`black` or `white`) must follow the cells after a space",
        ));
    }

    // (1-based character position, symbol, meaning)
    let mut symbols = Vec::with_capacity(65);
    // Whether the last symbol stood apart after a space, as a side to move does.
    let mut last_apart = false;
    let mut after_space = false;
    for (i, c) in cells_text.chars().enumerate() {
        if c.is_whitespace() || c == '/' {
            after_space = c == ' ';
            continue;
        }
        last_apart = after_space;
        after_space = false;
        match classify(c) {
            Some(cell) => symbols.push((i + 1, c, cell)),
            None => {
                return Err(ParseError::new(format!(
                    "character {} (`{}`) is not a cell or a side to move (expected {SYMBOL_SETS})",
                    i + 1,
                    c.escape_debug()
                )))
            }
        }
    }

    let (cells, turn) = match (symbols.len(), word_turn) {
        (16 | 36 | 64, Some(turn)) => (&symbols[..], turn),
        (17 | 37 | 65, None) => {
            let (at, c, cell) = symbols[symbols.len() - 1];
            let Cell::Disc(turn) = cell else {
                return Err(ParseError::new(format!(
                    "character {at} (`{c}`): the side to move must be a colour \
                     (X, O, *, B, W, black or white), not an empty square"
                )));
            };
            (&symbols[..symbols.len() - 1], turn)
        }
        (n @ (16 | 36 | 64), None) if last_apart => {
            return Err(ParseError::new(format!(
                "found {} cells and a side to move; a board has 16, 36 or 64 cells \
                 (4x4, 6x6 or 8x8)",
                n - 1
            )))
        }
        (16 | 36 | 64, None) => {
            return Err(ParseError::new(format!(
                "the side to move is missing after the {} cells (add ` X` or ` O`)",
                symbols.len()
            )))
        }
        (n, _) => {
            let n = n - usize::from(word_turn.is_none() && n > 0);
            return Err(ParseError::new(format!(
                "found {n} cells and a side to move; a board has 16, 36 or 64 cells \
                 (4x4, 6x6 or 8x8)"
            )));
        }
    };

    let size = match cells.len() {
        16 => BoardSize::Four,
        36 => BoardSize::Six,
        _ => BoardSize::Eight,
    };
    let n = usize::from(size.n());
    // One symbol per kind of cell within a board.
    let mut seen: [Option<(usize, char)>; 3] = [None; 3];
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (k, &(at, c, cell)) in cells.iter().enumerate() {
        let kind = match cell {
            Cell::Disc(Color::Black) => 0,
            Cell::Disc(Color::White) => 1,
            Cell::Empty => 2,
        };
        match seen[kind] {
            None => seen[kind] = Some((at, c)),
            Some((first_at, first)) if first != c => {
                let what = ["black discs", "white discs", "empty squares"][kind];
                return Err(ParseError::new(format!(
                    "character {at} (`{c}`) mixes symbols: character {first_at} used `{first}` \
                     for {what} (one board keeps to one of {SYMBOL_SETS})"
                )));
            }
            Some(_) => {}
        }
        let sq = Square::new((k % n) as u8, (k / n) as u8).expect("k < 64");
        match cell {
            Cell::Disc(Color::Black) => black = black.with(sq),
            Cell::Disc(Color::White) => white = white.with(sq),
            Cell::Empty => {}
        }
    }
    Position::from_discs(black, white, turn, size).map_err(ParseError::new)
}

/// The board alone as `n * n` cells row by row from a1, `X` black, `O` white, `-` empty: the
/// web API's and the analysis report's spelling (the side to move goes beside it), the same
/// as [`format_position`]'s and OBF's, so the text and the JSON of a command agree.
///
/// ```
/// use ply_othello::{text, BoardSize, Position};
/// assert_eq!(text::cells(&Position::start(BoardSize::Four)), "-----OX--XO-----");
/// ```
#[must_use]
pub fn cells(pos: &Position) -> String {
    let s = format_position(pos);
    s[..s.len() - 2].to_owned()
}

/// Writes a position as its cells (`X` black, `O` white, `-` empty), a space and the side to
/// move (`X` or `O`): the board part of an OBF line.
///
/// ```
/// use ply_othello::{text, BoardSize, Position};
/// let s = text::format_position(&Position::start(BoardSize::Four));
/// assert_eq!(s, "-----OX--XO----- X");
/// assert_eq!(text::parse_position(&s).unwrap(), Position::start(BoardSize::Four));
/// ```
#[must_use]
pub fn format_position(pos: &Position) -> String {
    let n = pos.size().n();
    let mut s = String::with_capacity(usize::from(n) * usize::from(n) + 2);
    for row in 0..n {
        for col in 0..n {
            let sq = Square::new(col, row).expect("on the 8x8 layout");
            s.push(cell_char(pos, sq, '-'));
        }
    }
    s.push(' ');
    s.push(pos.turn().symbol());
    s
}

// `Position`'s own spelling is this module's, so its `Display` and `FromStr` live here: the
// rules stay free of text and the formats build on them, not the other way round.
impl fmt::Display for Position {
    /// One line: the cells `a1`..`h8` row by row (`X` black, `O` white, `-` empty), a space and
    /// the side to move, as [`format_position`] writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_position(self))
    }
}

impl std::str::FromStr for Position {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Position, ParseError> {
        parse_position(s)
    }
}

/// `4`, `6` or `8` (also `8x8`), with one message for every front end that reads a size.
///
/// ```
/// use ply_othello::BoardSize;
/// assert_eq!("6".parse::<BoardSize>().unwrap(), BoardSize::Six);
/// assert_eq!("8x8".parse::<BoardSize>().unwrap(), BoardSize::Eight);
/// assert_eq!("5".parse::<BoardSize>().unwrap_err().to_string(), "`5` is not a board size: use 4, 6 or 8");
/// ```
impl std::str::FromStr for BoardSize {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<BoardSize, ParseError> {
        let t = s.trim();
        let n = t
            .split_once(['x', 'X'])
            .map_or(t, |(a, b)| if a == b { a } else { "" });
        n.parse::<u8>()
            .ok()
            .and_then(BoardSize::from_n)
            .ok_or_else(|| ParseError::new(format!("`{s}` is not a board size: use 4, 6 or 8")))
    }
}

/// A side: `X`, `B`, `*` or `black` for black, `O`, `W` or `white` for white (any case), with
/// one message for every front end that reads one.
///
/// ```
/// use ply_othello::Color;
/// assert_eq!("o".parse::<Color>().unwrap(), Color::White);
/// assert_eq!("Black".parse::<Color>().unwrap(), Color::Black);
/// assert!("red".parse::<Color>().unwrap_err().to_string().contains("X (black) or O (white)"));
/// ```
impl std::str::FromStr for Color {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Color, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "x" | "b" | "*" | "black" => Ok(Color::Black),
            "o" | "w" | "white" => Ok(Color::White),
            _ => Err(ParseError::new(format!(
                "`{s}` is not a side: use X (black) or O (white)"
            ))),
        }
    }
}

fn cell_char(pos: &Position, sq: Square, empty: char) -> char {
    if pos.discs(Color::Black).contains(sq) {
        'X'
    } else if pos.discs(Color::White).contains(sq) {
        'O'
    } else {
        empty
    }
}

/// A plain picture of the board for the terminal: column letters above and below, row
/// numbers on both sides, `X` black, `O` white, `-` empty, and `.` on the squares in `marks`
/// (usually the legal moves).
///
/// ```
/// use ply_othello::{text, BoardSize, Position};
/// let pos = Position::start(BoardSize::Four);
/// let pic = text::picture(&pos, pos.legal_moves());
/// assert_eq!(pic, "  a b c d\n1 - . - - 1\n2 . O X - 2\n3 - X O . 3\n4 - - . - 4\n  a b c d\n");
/// ```
#[must_use]
pub fn picture(pos: &Position, marks: Bitboard) -> String {
    let n = pos.size().n();
    let mut letters = String::from(" ");
    for col in 0..n {
        letters.push(' ');
        letters.push(char::from(b'a' + col));
    }
    letters.push('\n');
    let mut s = letters.clone();
    for row in 0..n {
        s.push(char::from(b'1' + row));
        for col in 0..n {
            let sq = Square::new(col, row).expect("on the 8x8 layout");
            let empty = if marks.contains(sq) { '.' } else { '-' };
            s.push(' ');
            s.push(cell_char(pos, sq, empty));
        }
        s.push(' ');
        s.push(char::from(b'1' + row));
        s.push('\n');
    }
    s.push_str(&letters);
    s
}

/// `count` and the noun, singular for one: `1 position`, `5 positions` (the reports' and
/// the command line's counts).
///
/// ```
/// assert_eq!(ply_othello::text::plural(1, "game"), "1 game");
/// assert_eq!(ply_othello::text::plural(0, "game"), "0 games");
/// ```
#[must_use]
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START8: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn every_symbol_set_reads_the_start_position() {
        let start = Position::start(BoardSize::Eight);
        for (b, w, e) in [
            ('X', 'O', '-'),
            ('*', 'O', '.'),
            ('B', 'W', '.'),
            ('x', 'o', '.'),
        ] {
            let s: String = START8
                .chars()
                .map(|c| match c {
                    'X' => b,
                    'O' => w,
                    '-' => e,
                    c => c,
                })
                .collect();
            assert_eq!(parse_position(&s).unwrap(), start, "{s}");
        }
        assert_eq!(format_position(&start), START8);
    }

    #[test]
    fn rows_may_be_split_and_the_side_spelled_out() {
        let pic =
            "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\nblack";
        assert_eq!(
            parse_position(pic).unwrap(),
            Position::start(BoardSize::Eight)
        );
        let slashed = "------/------/--OX--/--XO--/------/------ O";
        let pos = parse_position(slashed).unwrap();
        assert_eq!(pos.size(), BoardSize::Six);
        assert_eq!(pos.turn(), Color::White);
    }

    #[test]
    fn bad_pastes_say_what_is_wrong() {
        let err = |s: &str| parse_position(s).unwrap_err().to_string();
        assert!(err("-----XO--OX-----").contains("side to move is missing"));
        assert!(err("-----XO--OX---- X").contains("found 15 cells"));
        assert!(err("-----XO--OZ----- X").contains("character 11 (`Z`)"));
        assert!(err("-----XO--O*----- X").contains("mixes symbols"));
        assert!(err("-----XO--OX----- -").contains("not an empty square"));
        assert!(err("").contains("found 0 cells"));
        assert!(err("-----XO--OX-----white").contains("after a space"));
    }
}
