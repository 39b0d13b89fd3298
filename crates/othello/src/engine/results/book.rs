//! A book from the results of its levels: an exact book from solves (`ply othello book
//! build` after `grow` and `solve`), a searched one from searches (after `deviate` and
//! `book search`), and a searched position as `deviate` grows from it.

use std::cmp::Reverse;

use super::BookEntry;
use crate::{
    analyze::WholeDiscs,
    book::{self, Book, ScoredMove},
    text, BoardSize,
};

/// The book of `entries`, every level's results: exact when they are solves (down to
/// `min_empties`, and closed), searched and negamaxed ([`book::build_searched`]) when they
/// are searches.
///
/// # Errors
/// Results that mix solves and searches, an exact book without `min_empties` (the message
/// names `--min-empties`), an exact one that does not close (the missing position named),
/// or what the book refuses.
pub fn build_book(
    size: BoardSize,
    min_empties: Option<u32>,
    entries: Vec<BookEntry>,
) -> Result<Book, String> {
    let searched = entries.iter().filter(|s| s.searched.is_some()).count();
    if searched > 0 && searched < entries.len() {
        return Err(
            "the results mix exact solves (`ply othello solve`) and searches \
                    (`ply othello book search`): a book is one or the other"
                .into(),
        );
    }
    if searched > 0 {
        let entries = entries
            .into_iter()
            .filter_map(|s| s.searched.map(|(_, moves)| (s.position, moves)))
            .collect();
        return book::build_searched(size, entries).map_err(|e| e.to_string());
    }
    let min_empties = min_empties
        .ok_or("--min-empties: an exact book needs the depth its levels were grown to")?;
    let book = Book::from_entries(
        size,
        min_empties,
        entries
            .iter()
            .map(|s| (s.position, s.best, WholeDiscs(s.score))),
    )
    .map_err(|e| e.to_string())?;
    if let Some(gap) = book.first_gap() {
        return Err(format!(
            "the results do not close: {} is missing (solve the level `ply othello book grow` \
             prints next)",
            text::format_position(&gap)
        ));
    }
    Ok(book)
}

impl BookEntry {
    /// The entry as `deviate` reads a searched level: its key and its moves, best first.
    ///
    /// # Errors
    /// An exact solve, or a position that is not the least of its images (the levels
    /// `deviate` prints hold only those).
    pub fn into_searched(self) -> Result<((u64, u64), Vec<ScoredMove>), String> {
        let Some((_, mut moves)) = self.searched else {
            return Err(
                "an exact solve, not a search: `deviate` grows from the results of \
                        `ply othello book search`"
                    .into(),
            );
        };
        if book::canonical_image(&self.position) != self.position {
            return Err(
                "not the least image of its position (the levels `deviate` prints \
                        hold only those)"
                    .into(),
            );
        }
        moves.sort_by_key(|m| Reverse(m.score));
        Ok((book::key(&self.position), moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    /// An entry of `position` (scored from its first legal move on: the first best, the
    /// others 2 discs worse).
    fn entry_at(position: Position, searched: bool) -> BookEntry {
        let best = position.legal_moves().next().unwrap();
        BookEntry {
            position,
            best,
            score: -10,
            searched: searched.then(|| {
                let moves = position
                    .legal_moves()
                    .map(|square| ScoredMove {
                        square,
                        score: WholeDiscs(if square == best { -10 } else { -12 }),
                        depth: 4,
                    })
                    .collect();
                (4, moves)
            }),
        }
    }

    fn entry(searched: bool) -> BookEntry {
        entry_at(Position::start(BoardSize::Four), searched)
    }

    /// Solves and searches do not mix; an exact book needs its depth and must close.
    #[test]
    fn a_book_is_exact_or_searched() {
        let mixed = build_book(BoardSize::Four, Some(0), vec![entry(true), entry(false)]);
        assert!(mixed.unwrap_err().contains("mix exact solves"));
        let no_depth = build_book(BoardSize::Four, None, vec![entry(false)]);
        assert!(no_depth.unwrap_err().starts_with("--min-empties"));
        let open = build_book(BoardSize::Four, Some(0), vec![entry(false)]).unwrap_err();
        assert!(open.starts_with("the results do not close: "), "{open}");
        let searched = build_book(BoardSize::Four, None, vec![entry(true)]).unwrap();
        assert!(!searched.is_exact());
        assert_eq!(searched.len(), 1);
    }

    /// `deviate` reads searches only, of least images, their moves best first.
    #[test]
    fn deviate_reads_searches_only_best_first() {
        let e = entry(false).into_searched().unwrap_err();
        assert!(e.starts_with("an exact solve"), "{e}");
        let image = book::canonical_image(&Position::start(BoardSize::Four));
        let mut e = entry_at(image, true);
        e.searched.as_mut().unwrap().1.reverse();
        let (key, moves) = e.into_searched().unwrap();
        assert_eq!(key, book::key(&image));
        assert_eq!(moves[0].score, WholeDiscs(-10));
        assert!(moves[1..].iter().all(|m| m.score == WholeDiscs(-12)));
    }
}
