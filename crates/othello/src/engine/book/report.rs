//! What a front end says of a book (`ply othello book info`, the line after a book is
//! written), and the positions of played games that a book lacks (`ply othello book add`).

use std::collections::{BTreeMap, HashSet};

use super::{canonical_image, game_positions, key, Book};
use crate::{text, BoardSize, GameRecord, Position};

impl Book {
    /// `exact`, `partial` or `searched`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        if self.is_exact() {
            "exact"
        } else if self.is_partial() {
            "partial"
        } else {
            "searched"
        }
    }

    /// What the book holds, in a line: `1,234 positions, 8x8 down to 40 empty squares
    /// (searched)`.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "{}, {}x{} down to {} empty squares{}",
            text::plural(self.len(), "position"),
            self.size().n(),
            self.size().n(),
            self.min_empties(),
            match (self.is_exact(), self.is_partial()) {
                (true, _) => "",
                (false, false) => " (searched)",
                (false, true) => " (partial: searched, some moves of each position)",
            }
        )
    }

    /// The positions by their number of empty squares.
    fn by_empties(&self) -> BTreeMap<u32, usize> {
        let mut by_empties: BTreeMap<u32, usize> = BTreeMap::new();
        for (p, _) in self.iter() {
            *by_empties.entry(p.empties().count()).or_default() += 1;
        }
        by_empties
    }

    /// The book, read from a file of `bytes` bytes, as `ply othello book info` prints it:
    /// its board, kind, positions, size, depth, the start position's value, whether an exact
    /// book is closed, and its positions by empty squares.
    #[must_use]
    pub fn info_text(&self, bytes: usize) -> String {
        let mut s = String::new();
        let mut line = |l: String| {
            s.push_str(&l);
            s.push('\n');
        };
        line(format!("board       {0}x{0}", self.size().n()));
        line(format!(
            "kind        {}{}",
            self.kind(),
            if self.is_exact() {
                ": exact values"
            } else if self.is_partial() {
                ": the moves that stay in the book and the best of the others scored (Edax's)"
            } else {
                ": every move scored by a deep search, negamaxed through the book"
            }
        ));
        line(format!("positions   {}", self.len()));
        line(format!("bytes       {bytes}"));
        line(format!(
            "depth       down to {} empty squares",
            self.min_empties()
        ));
        line(match self.lookup(&Position::start(self.size())) {
            Some(m) if m.exact => {
                format!("start       {:+} for black (exact), {}", m.score, m.best)
            }
            Some(m) => format!(
                "start       {:+} for black, {} (a search of depth {} through the book)",
                m.score, m.best, m.depth
            ),
            None => "start       not in the book".to_string(),
        });
        if self.is_exact() {
            line(match self.first_gap() {
                None => {
                    "closed      yes: a weak solution for both colours to its depth".to_string()
                }
                Some(g) => format!("closed      no: {} is missing", text::format_position(&g)),
            });
        }
        for (e, n) in &self.by_empties() {
            line(format!(
                "  {e:>2} empties  {n:>7} position{}",
                if *n == 1 { "" } else { "s" }
            ));
        }
        s
    }

    /// [`Book::info_text`] as one JSON object.
    #[cfg(feature = "serde")]
    #[must_use]
    pub fn info_json(&self, bytes: usize) -> serde_json::Value {
        let gap = self.first_gap().map(|p| text::format_position(&p));
        let start = self.lookup(&Position::start(self.size()));
        serde_json::json!({
            "size": self.size().n(),
            "kind": self.kind(),
            "positions": self.len(),
            "bytes": bytes,
            "min_empties": self.min_empties(),
            "start_score": start.map(|m| m.score),
            "start_best": start.map(|m| m.best.to_string()),
            "start_depth": start.map(|m| m.depth),
            "closed": self.is_exact().then_some(gap.is_none()),
            "first_gap": gap,
            "by_empties": self
                .by_empties()
                .iter()
                .map(|(e, n)| serde_json::json!({"empties": e, "positions": n}))
                .collect::<Vec<_>>(),
        })
    }
}

impl Book {
    /// Whether the positions of WTHOR games (8x8) can be added to the book: a searched 8x8
    /// one takes them.
    ///
    /// # Errors
    /// What is wrong: another size, or an exact book.
    pub fn takes_games(&self) -> Result<(), String> {
        if self.size() != BoardSize::Eight {
            return Err(format!(
                "a {0}x{0} book; WTHOR games are 8x8",
                self.size().n()
            ));
        }
        if self.is_exact() {
            return Err(
                "an exact book takes no searched positions: add to a searched one".to_string(),
            );
        }
        Ok(())
    }
}

/// The number of positions an Edax book's header announces (0 when it is too short).
#[must_use]
pub fn edax_positions(bytes: &[u8]) -> u32 {
    bytes
        .get(38..42)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// What `ply othello book export` says of the Edax book `bytes` written from `book`: how
/// many positions its header announces, and how many the ply book holds.
#[must_use]
pub fn edax_note(book: &Book, bytes: &[u8]) -> String {
    format!(
        "an Edax book of {} ({} in the ply book)",
        text::plural(
            usize::try_from(edax_positions(bytes)).unwrap_or(0),
            "position"
        ),
        book.len()
    )
}

/// The positions of played games that a book lacks, one per symmetry class (in key order),
/// and how many it holds already: `ply othello book add` gathers them game by game.
#[derive(Debug, Default)]
pub struct Gathered {
    games: usize,
    present: HashSet<(u64, u64)>,
    new: BTreeMap<(u64, u64), Position>,
}

impl Gathered {
    /// Adds the positions of the first `plies` moves of `game` ([`game_positions`]): those
    /// `book` holds are counted, the others kept as their least image.
    pub fn add_game(&mut self, book: &Book, game: &GameRecord, plies: usize) {
        self.games += 1;
        for pos in game_positions(game, plies) {
            let k = key(&pos);
            if book.lookup(&pos).is_some() {
                self.present.insert(k);
            } else {
                self.new.entry(k).or_insert_with(|| canonical_image(&pos));
            }
        }
    }

    /// The games added so far.
    #[must_use]
    pub fn games(&self) -> usize {
        self.games
    }

    /// The positions the book lacks, in key order, and the number of those it holds.
    #[must_use]
    pub fn finish(self) -> (Vec<Position>, usize) {
        (self.new.into_values().collect(), self.present.len())
    }
}

/// What `ply othello book add` says when done: the games read from `files` files, the
/// positions of their first `plies` moves, of which `added` were searched at `depth` and
/// added and `present` were in the book already.
#[must_use]
pub fn added_note(
    games: usize,
    files: usize,
    plies: usize,
    added: usize,
    present: usize,
    depth: u32,
) -> String {
    format!(
        "{} in {}; {} in their first {}: {added} added (searched at depth {depth}), {present} in \
         the book already",
        text::plural(games, "game"),
        text::plural(files, "file"),
        text::plural(added + present, "position"),
        text::plural(plies, "move"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    /// The shipped 6x6 book is exact and closed; its text and its positions agree.
    #[test]
    fn the_info_of_the_shipped_6x6_book() {
        let book = Book::builtin(BoardSize::Six).expect("6x6 ships a book");
        assert_eq!(book.kind(), "exact");
        let text = book.info_text(123);
        assert!(text.starts_with("board       6x6\nkind        exact: exact values\n"));
        assert!(text.contains(&format!("positions   {}\nbytes       123\n", book.len())));
        assert!(
            text.contains("start       -4 for black (exact), "),
            "{text}"
        );
        assert!(text.contains("closed      yes"), "{text}");
        assert!(
            book.summary().ends_with(" empty squares"),
            "{}",
            book.summary()
        );
    }

    #[test]
    fn an_edax_header_too_short_announces_no_position() {
        assert_eq!(edax_positions(&[0; 10]), 0);
        let mut header = vec![0; 42];
        header[38..42].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(edax_positions(&header), 7);
        let book = Book::builtin(BoardSize::Six).expect("6x6 ships a book");
        assert_eq!(
            edax_note(book, &header),
            format!(
                "an Edax book of 7 positions ({} in the ply book)",
                book.len()
            )
        );
    }

    /// A game's positions the book lacks are kept once per symmetry class; those it holds
    /// are counted.
    #[test]
    fn a_games_positions_are_gathered_once_per_class() {
        let book = Book::builtin(BoardSize::Eight).expect("8x8 ships a book");
        let game = crate::transcript::parse("f5d6c3d3c4", Position::start(BoardSize::Eight))
            .expect("a legal game");
        assert_eq!(book.takes_games(), Ok(()));
        let mut g = Gathered::default();
        g.add_game(book, &game, 5);
        g.add_game(book, &game, 5);
        assert_eq!(g.games(), 2);
        let (new, present) = g.finish();
        let all: HashSet<(u64, u64)> = game_positions(&game, 5).map(|p| key(&p)).collect();
        assert_eq!(new.len() + present, all.len());
        assert!(new
            .iter()
            .all(|p| *p == canonical_image(p) && book.lookup(p).is_none()));
    }
}
