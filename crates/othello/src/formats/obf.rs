//! OBF, the line format of Edax and of the FFO test suites: a position, then the exact score
//! of some of its moves.
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;
//! ```
//!
//! The board is read by [`crate::text::parse_position`] (so any of its symbol sets works);
//! the moves are `MOVE:SCORE` separated by `;`, a move being a square name or `PA` for a
//! pass, a score the disc difference for the side to move with the empties given to the
//! winner. Every scored move is checked to be legal when the line is read, so a solver never
//! meets a bad one. Everything from a `%` to the end of the line is a comment, kept in
//! [`ObfLine::comment`] (the test set names each position's game there). A file holds one
//! line per position; blank lines and lines with only a comment are skipped.
//!
//! Edax writes its problem files (`problem/hard-20.obf`) with a fixed number of scored-move
//! slots a line and fills the unused ones with `--:-127`: a slot whose move is `--` is read
//! as no move at all and skipped.
//!
//! [`ObfLine::parse`] is the one reader of an OBF line: `ply othello solve --obf` (through
//! [`parse_file`]), the pasted text of `show` and `analyze` (through [`crate::input`]) and
//! Python's `Board.from_obf` all read with it.
//!
//! The writer spells lines the way the FFO files do (`X`/`O`/`-`, upper-case squares, signed
//! scores, `; ` between moves and a final `;`, then ` % ` and the comment if there is one),
//! so those files and the test set print back byte for byte.

use std::fmt;

use crate::{text, Move, ParseError, Position};

/// One move of an OBF line with its exact score.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ScoredMove {
    /// The move (a pass only in a position whose side to move has no legal move).
    pub mv: Move,
    /// Disc difference for the side to move after best play, empties to the winner.
    pub score: i32,
}

/// A position and the scores of some of its moves: one line of an OBF file.
///
/// ```
/// use ply_othello::obf::ObfLine;
/// let text = "-----OX--XO----- X; B1:-10; A2:-10;";
/// let line: ObfLine = text.parse().unwrap();
/// assert_eq!(line.moves.len(), 2);
/// assert_eq!(line.to_string(), text);
/// // Edax's unused slots are skipped; a comment is kept.
/// let edax: ObfLine = "-----OX--XO----- X; B1:-10; --:-127; --:-127; % from Edax".parse().unwrap();
/// assert_eq!((edax.moves.len(), edax.comment.as_deref()), (1, Some("from Edax")));
/// assert_eq!(edax.to_string(), "-----OX--XO----- X; B1:-10; % from Edax");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObfLine {
    /// The position.
    pub position: Position,
    /// Scored moves, in the order of the line (best first in the FFO files).
    pub moves: Vec<ScoredMove>,
    /// The text after the line's `%`, trimmed; `None` when the line has no `%`.
    pub comment: Option<String>,
}

/// One position of an OBF file, with the line it came from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObfEntry {
    /// Line number in the file, 1-based.
    pub line: usize,
    /// What the line says.
    pub obf: ObfLine,
}

impl ObfLine {
    /// Reads one OBF line, its `%` comment included.
    ///
    /// # Errors
    /// When the board cannot be read, a move is not `MOVE:SCORE`, a square or pass is not
    /// legal in the position, a move is scored twice, or a score is out of range for the
    /// board. The message names the move by its place on the line.
    pub fn parse(line: &str) -> Result<ObfLine, ParseError> {
        let (line, comment) = match line.split_once('%') {
            Some((line, comment)) => (line, Some(comment.trim().to_owned())),
            None => (line, None),
        };
        let (board, rest) = match line.split_once(';') {
            Some((board, rest)) => (board, rest),
            None => (line, ""),
        };
        let position = text::parse_position(board)?;
        let max = i32::try_from(position.size().squares()).expect("at most 64");
        let mut moves: Vec<ScoredMove> = Vec::new();
        for (k, item) in rest.split(';').map(str::trim).enumerate() {
            if item.is_empty() {
                continue;
            }
            let k = k + 1;
            let fail = |why: String| ParseError::new(format!("scored move {k} (`{item}`): {why}"));
            let (mv_text, score_text) = item
                .split_once(':')
                .ok_or_else(|| fail("expected MOVE:SCORE, like `G8:+18`".into()))?;
            let score_text = score_text.trim();
            let digits = score_text.strip_prefix('+').unwrap_or(score_text);
            let score: i32 = digits
                .parse()
                .ok()
                .filter(|_| !digits.starts_with(['+']))
                .ok_or_else(|| fail(format!("`{score_text}` is not a whole number")))?;
            if mv_text.trim() == UNUSED_SLOT {
                // Edax's filler for a slot with no move (`--:-127`).
                continue;
            }
            let mv = parse_move(mv_text.trim()).map_err(|e| fail(e.message().to_owned()))?;
            if score.unsigned_abs() > max.unsigned_abs() {
                return Err(fail(format!(
                    "score {score} is beyond ±{max}, the most a {n}x{n} board allows",
                    n = position.size().n()
                )));
            }
            position
                .play_move(mv)
                .map_err(|e| fail(format!("{e} in this position")))?;
            if moves.iter().any(|m| m.mv == mv) {
                return Err(fail("this move is scored twice".into()));
            }
            moves.push(ScoredMove { mv, score });
        }
        Ok(ObfLine {
            position,
            moves,
            comment,
        })
    }

    /// The best score on the line, if any move is scored.
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|m| m.score).max()
    }
}

/// The move of a scored-move slot that holds none: Edax fills a line's unused slots with
/// `--:-127`.
const UNUSED_SLOT: &str = "--";

/// A square name (either case) or `PA`/`pass` (either case).
fn parse_move(s: &str) -> Result<Move, ParseError> {
    if s.eq_ignore_ascii_case("pa") || s.eq_ignore_ascii_case("pass") {
        Ok(Move::Pass)
    } else {
        s.parse().map(Move::Play)
    }
}

impl std::str::FromStr for ObfLine {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<ObfLine, ParseError> {
        ObfLine::parse(s)
    }
}

impl fmt::Display for ObfLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", text::format_position(&self.position))?;
        for m in &self.moves {
            match m.mv {
                Move::Play(sq) => write!(f, " {}:{:+};", sq.to_string().to_uppercase(), m.score)?,
                Move::Pass => write!(f, " PA:{:+};", m.score)?,
            }
        }
        match self.comment.as_deref() {
            None => {}
            Some("") => f.write_str(" %")?,
            Some(comment) => write!(f, " % {comment}")?,
        }
        Ok(())
    }
}

/// Reads a whole OBF file: one position per line, each with its `%` comment if it has one;
/// blank lines and lines with only a comment skipped.
///
/// # Errors
/// The first bad line, as a [`ParseError`] that carries its line number.
///
/// ```
/// use ply_othello::obf;
/// let file = "% two positions\n-----OX--XO----- X; B1:-10;\n\n-----OX--XX--X-- O; % second\n";
/// let entries = obf::parse_file(file).unwrap();
/// assert_eq!(entries.len(), 2);
/// assert_eq!(entries[1].line, 4);
/// assert_eq!(entries[1].obf.comment.as_deref(), Some("second"));
/// let err = obf::parse_file("-----OX--XO----- X; Q9:+2;").unwrap_err();
/// assert_eq!(err.line(), Some(1));
/// ```
pub fn parse_file(text: &str) -> Result<Vec<ObfEntry>, ParseError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split_once('%').map_or(raw, |(before, _)| before);
        if content.trim().is_empty() {
            continue;
        }
        let obf = ObfLine::parse(raw).map_err(|e| e.at_line(i + 1))?;
        entries.push(ObfEntry { line: i + 1, obf });
    }
    Ok(entries)
}

/// `positions` as an OBF file: one position a line, without scores (a level of a book to
/// solve or search).
///
/// ```
/// use ply_othello::{obf, BoardSize, Position};
/// let file = obf::positions_file(&[Position::start(BoardSize::Four)]);
/// assert_eq!(file, "-----OX--XO----- X;\n");
/// assert_eq!(obf::parse_file(&file).unwrap()[0].obf.position, Position::start(BoardSize::Four));
/// ```
#[must_use]
pub fn positions_file(positions: &[Position]) -> String {
    positions
        .iter()
        .map(|p| format!("{};\n", text::format_position(p)))
        .collect()
}

/// The positions of `entries` (an OBF file's) that `shard` holds, each with its input line:
/// the k-th position (from 0, counting positions only) when `shard` holds k. What a batch
/// run on shard I/N works on.
///
/// ```
/// use ply_core::Shard;
/// use ply_othello::obf;
/// let file = "-----OX--XO----- X;\n% a comment\n-----OX--XX--X-- O;\n-----OX--XO----- X;\n";
/// let entries = obf::parse_file(file).unwrap();
/// let shard: Shard = "1/2".parse().unwrap();
/// let lines: Vec<usize> = obf::shard(&entries, shard).iter().map(|e| e.0).collect();
/// assert_eq!(lines, [3]);
/// ```
#[must_use]
pub fn shard(entries: &[ObfEntry], shard: ply_core::Shard) -> Vec<(usize, Position)> {
    entries
        .iter()
        .enumerate()
        .filter(|(k, _)| shard.holds(*k as u64))
        .map(|(_, e)| (e.line, e.obf.position))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_with_their_sign() {
        let s = "-----OX--XO----- X; B1:-10; A2:+0; D3:+4;";
        assert_eq!(ObfLine::parse(s).unwrap().to_string(), s);
        // A loose spelling reads and prints in the canonical one.
        let loose = "-----OX--XO----- x;b1:-10;a2:0";
        assert_eq!(
            ObfLine::parse(loose).unwrap().to_string(),
            "-----OX--XO----- X; B1:-10; A2:+0;"
        );
    }

    #[test]
    fn bad_moves_are_named() {
        let err = |s: &str| ObfLine::parse(s).unwrap_err().to_string();
        assert!(err("-----OX--XO----- X; A1:+2;").contains("scored move 1 (`A1:+2`)"));
        assert!(err("-----OX--XO----- X; B1:+2; B2:+0;").contains("b2 is already taken"));
        assert!(err("-----OX--XO----- X; B1").contains("expected MOVE:SCORE"));
        assert!(err("-----OX--XO----- X; B1:x").contains("not a whole number"));
        assert!(err("-----OX--XO----- X; B1:++2").contains("not a whole number"));
        assert!(err("-----OX--XO----- X; B1:+30;").contains("beyond ±16"));
        // The most negative i32 has no absolute value in an i32.
        assert!(err("-----OX--XO----- X; B1:-2147483648;").contains("beyond ±16"));
        assert!(err("-----OX--XO----- X; B1:+2; b1:+2").contains("scored twice"));
        assert!(err("-----OX--XO----- X; PA:+2").contains("cannot pass"));
        assert!(err("-----OX--XO----- X; E5:+2").contains("not on the board"));
    }

    #[test]
    fn a_pass_is_scored_only_when_forced() {
        // White to move has no move on this 4x4 board; black has d4.
        let s = "XXXXXXXXXXXO---- O; PA:-14;";
        let line = ObfLine::parse(s).unwrap();
        assert_eq!(line.moves[0].mv, Move::Pass);
        assert_eq!(line.to_string(), s);
    }

    #[test]
    fn edax_unused_slots_are_skipped_wherever_they_stand() {
        let line = ObfLine::parse("-----OX--XO----- X; B1:-10; --:-127; A2:-10; --:-127;").unwrap();
        let moves: Vec<String> = line.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["b1", "a2"]);
        // A line of nothing but unused slots has no scored move.
        let none = ObfLine::parse("-----OX--XO----- X; --:-127; --:-127;").unwrap();
        assert!(none.moves.is_empty());
        // The slot's score must still be a number; a move spelt `-` is no slot.
        let err = |s: &str| ObfLine::parse(s).unwrap_err().to_string();
        assert!(err("-----OX--XO----- X; --:x;")
            .contains("scored move 1 (`--:x`): `x` is not a whole number"));
        assert!(err("-----OX--XO----- X; -:-127;").contains("scored move 1 (`-:-127`)"));
    }

    #[test]
    fn a_comment_is_kept_and_printed_back() {
        let s = "-----OX--XO----- X; B1:-10; % game 0, depth 18";
        let line = ObfLine::parse(s).unwrap();
        assert_eq!(line.comment.as_deref(), Some("game 0, depth 18"));
        assert_eq!(line.moves.len(), 1);
        assert_eq!(line.to_string(), s);
        // A `%` right after the board, with no scored move; an empty comment.
        let bare = ObfLine::parse("-----OX--XO----- X;% note").unwrap();
        assert_eq!(
            (bare.moves.len(), bare.comment.as_deref()),
            (0, Some("note"))
        );
        let empty = ObfLine::parse("-----OX--XO----- X; %").unwrap();
        assert_eq!(empty.comment.as_deref(), Some(""));
        assert_eq!(ObfLine::parse(&empty.to_string()).unwrap(), empty);
        assert_eq!(ObfLine::parse("-----OX--XO----- X;").unwrap().comment, None);
    }
}
