//! The one reader of opening lists: a text of opening lines (`f5d6c3d3c4f4c5b3`, one a
//! line, as `testdata/xot-openings.txt` holds the XOT list), each checked by the rules from
//! the 8x8 start. Blank lines are skipped but counted, so a line number is the file's.
//!
//! ```
//! use ply_engines::xot;
//!
//! let list = "f5d6c3d3c4f4c5b3\n\nf5f6e6f4\n";
//! let openings = xot::openings(list).collect::<Result<Vec<_>, _>>().unwrap();
//! assert_eq!(openings.len(), 2);
//! assert_eq!((openings[1].line, openings[1].game.moves().len()), (3, 4));
//! assert!(xot::openings("f5f5").next().unwrap().is_err());
//! ```

use std::fmt;

use ply_othello::{transcript, BoardSize, GameRecord, Position};

/// One opening of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its line in the list, from 1.
    pub line: usize,
    /// The line's text, trimmed.
    pub text: String,
    /// The game it plays from the start (passes put back where the rules need them).
    pub game: GameRecord,
}

impl Opening {
    /// The position the opening leads to.
    #[must_use]
    pub fn position(&self) -> Position {
        self.game.position()
    }
}

/// A line of a list that is not an opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XotError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for XotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for XotError {}

/// The openings of `list` in order, each read when the iterator reaches it (so taking the
/// first N reads only those).
pub fn openings(list: &str) -> impl Iterator<Item = Result<Opening, XotError>> + '_ {
    list.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(line, text)| {
            transcript::parse(text, Position::start(BoardSize::Eight))
                .map(|game| Opening {
                    line,
                    text: text.to_owned(),
                    game,
                })
                .map_err(|e| XotError {
                    line,
                    message: e.to_string(),
                })
        })
}

/// The first `n` openings of `list`.
///
/// # Errors
/// The first line among them that is not an opening.
pub fn first(list: &str, n: usize) -> Result<Vec<Opening>, XotError> {
    openings(list).take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_s_list_reads_whole() {
        let list = include_str!("../../../testdata/xot-openings.txt");
        let all = first(list, usize::MAX).unwrap();
        assert!(all.len() >= 1000, "{}", all.len());
        for o in &all {
            assert_eq!(transcript::format(&o.game), o.text.to_ascii_lowercase());
        }
    }

    #[test]
    fn a_bad_line_is_named_by_its_number_in_the_file() {
        let e = first("f5d6\n\nf5d6zz\n", 5).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("line 3: "), "{e}");
        // Only the openings taken are read.
        assert_eq!(first("f5d6\nzz\n", 1).unwrap().len(), 1);
    }
}
