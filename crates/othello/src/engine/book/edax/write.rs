//! Writing a searched 8x8 book as Edax's: links, leaves, levels, and the positions Edax keeps
//! beside them (passes, ends of the game).

use std::collections::BTreeMap;

use super::{
    level_for, Link, Record, EDAX_RELEASE, EDAX_VERSION, ENDCUT_ERROR, HEADER_BYTES, MAGIC,
    MIDGAME_ERROR, NO_MOVE, PASS, SCORE_INF,
};
use crate::{
    book::lookup::{after, canonical, After, BadBook, Book},
    BoardSize, Position, Square,
};

/// Where a link of a book written as Edax's leads besides a position of the book.
#[derive(Clone, Copy)]
enum Extra {
    /// A position of the book.
    None,
    /// A position whose side to move must pass, before a position of the book.
    PassLink(Position),
    /// A position whose side to move must pass, before one the book does not hold.
    PassLeaf(Position),
    /// The end of the game.
    End(Position),
}

impl Book {
    /// The Edax book (`.dat`, as Edax 4.4 writes it) of this searched 8x8 book: each
    /// position with its links, the moves whose score and depth are those of the book
    /// position they lead to (as the negamax leaves them), and its leaf, the best of the
    /// others, at the level whose search has its depth (when every scored move is a link but
    /// not every legal move is scored, the last link stands in as the leaf, as Edax wants);
    /// and the positions where a link's side to move must pass, with their pass link. Edax
    /// has no place for a position's other moves, which are left out, nor for a date (ply
    /// writes 1970-01-01, so a book gives the same bytes every time); the game counts are 0
    /// and the bounds of the values open (Edax's `book negamax` derives both).
    ///
    /// # Errors
    /// When the book is not 8x8, or exact.
    pub fn write_edax(&self) -> Result<Vec<u8>, BadBook> {
        if self.size != BoardSize::Eight {
            return Err(BadBook(format!(
                "an Edax book is 8x8, this one {0}x{0}",
                self.size.n()
            )));
        }
        if self.exact {
            return Err(BadBook(
                "an exact book has no place in Edax's format: export a searched one".into(),
            ));
        }
        let mut records: BTreeMap<(u64, u64), Record> = BTreeMap::new();
        for e in &self.entries {
            let pos = e.position(self.size);
            let empties = pos.empties().count();
            // A link: a move whose score and depth are those of the book position it leads
            // to (as the negamax leaves them), or that leads to a position Edax keeps on its
            // own (the end of the game, or a pass: a position of a record of its own); the
            // others are searches of their own, the best of which is the leaf.
            let mut links: Vec<(Link, Extra)> = Vec::new();
            let mut others = Vec::new();
            for m in self.stored(e) {
                let sq = Square::from_index(m.square).expect("a square of the board");
                let link = Link {
                    score: m.score,
                    square: m.square,
                };
                let child = pos.play_unchecked(sq);
                let through = match after(&child) {
                    After::Over(score) => {
                        (score.0 == i32::from(m.score)).then_some(Extra::End(child))
                    }
                    After::Next(next, sign) => match self.lookup(&next) {
                        Some(b)
                            if ((b.score * sign).0, b.depth + 1)
                                == (i32::from(m.score), u32::from(m.depth)) =>
                        {
                            Some(if sign == 1 {
                                Extra::PassLink(child)
                            } else {
                                Extra::None
                            })
                        }
                        None if sign == 1 => Some(Extra::PassLeaf(child)),
                        _ => None,
                    },
                };
                match through {
                    Some(extra) => links.push((link, extra)),
                    None => others.push((link, m.depth)),
                }
            }
            // Edax wants a leaf unless every move is linked: the last link stands in.
            if others.is_empty() && links.len() < pos.legal_moves().count() as usize {
                if let Some((l, _)) = links.pop() {
                    let m = self.stored(e).iter().find(|m| m.square == l.square);
                    others.push((l, m.expect("a stored move").depth));
                }
            }
            let leaf = others.first().copied();
            for (l, extra) in &links {
                let none = Link {
                    score: -127,
                    square: NO_MOVE,
                };
                let value = l.score.checked_neg().expect("a disc difference");
                let (child, links, leaf, level) = match *extra {
                    Extra::None => continue,
                    // The opponent must pass: Edax links to that position, which links to
                    // the book's next one by a pass,
                    Extra::PassLink(child) => (
                        child,
                        vec![Link {
                            score: value,
                            square: PASS,
                        }],
                        none,
                        0,
                    ),
                    // or holds the search after the pass as its leaf;
                    Extra::PassLeaf(child) => {
                        let depth = self
                            .stored(e)
                            .iter()
                            .find(|m| m.square == l.square)
                            .map_or(1, |m| u32::from(m.depth));
                        let level = level_for(depth.saturating_sub(1), child.empties().count());
                        let leaf = Link {
                            score: value,
                            square: PASS,
                        };
                        (child, Vec::new(), leaf, level)
                    }
                    // the end of the game: its final score.
                    Extra::End(child) => (
                        child,
                        Vec::new(),
                        Link {
                            score: value,
                            square: NO_MOVE,
                        },
                        0,
                    ),
                };
                let (player, opponent, _) = canonical(&child);
                records.entry((player, opponent)).or_insert(Record {
                    at: 0,
                    player,
                    opponent,
                    level,
                    links,
                    leaf,
                });
            }
            let links: Vec<Link> = links.into_iter().map(|(l, _)| l).collect();
            let level = leaf.map_or(0, |(_, depth)| level_for(u32::from(depth), empties));
            records.insert(
                (e.player, e.opponent),
                Record {
                    at: 0,
                    player: e.player,
                    opponent: e.opponent,
                    level,
                    links,
                    leaf: leaf.map_or(
                        Link {
                            score: -127,
                            square: NO_MOVE,
                        },
                        |(l, _)| l,
                    ),
                },
            );
        }
        let level = records.values().map(|r| r.level).max().unwrap_or(0);
        // A position without a leaf searched nothing: the book's level.
        for r in records.values_mut().filter(|r| r.leaf.square == NO_MOVE) {
            r.level = level;
        }
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[EDAX_VERSION, EDAX_RELEASE]);
        // 1970-01-01 00:00:00 and the pad byte.
        out.extend_from_slice(&1970i16.to_le_bytes());
        out.extend_from_slice(&[1, 1, 0, 0, 0, 0]);
        let depth = i32::try_from(self.min_empties).expect("at most 64");
        for v in [i32::from(level), depth, MIDGAME_ERROR, ENDCUT_ERROR, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let n = i32::try_from(records.len()).map_err(|_| BadBook("too many positions".into()))?;
        out.extend_from_slice(&n.to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_BYTES);
        for r in records.values() {
            out.extend_from_slice(&r.player.to_le_bytes());
            out.extend_from_slice(&r.opponent.to_le_bytes());
            out.extend_from_slice(&[0; 16]);
            let value = r
                .links
                .iter()
                .chain(std::iter::once(&r.leaf).filter(|l| l.square != NO_MOVE))
                .map(|l| i16::from(l.score))
                .max()
                .unwrap_or(-SCORE_INF);
            for v in [value, -SCORE_INF, SCORE_INF] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            let count = u8::try_from(r.links.len()).expect("at most 64 links");
            out.extend_from_slice(&[count, r.level]);
            for l in r.links.iter().chain(std::iter::once(&r.leaf)) {
                out.extend_from_slice(&l.score.to_le_bytes());
                out.push(l.square);
            }
        }
        Ok(out)
    }
}
