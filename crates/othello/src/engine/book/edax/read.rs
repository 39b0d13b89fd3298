//! Reading an Edax book: the header, then each position, checked as it is read and then
//! against the others (no position twice, every link to a position the book holds), into a
//! partial searched book.

use std::collections::HashMap;

use super::{
    leaf_depth, position, Link, Record, CENTRE, EDAX_VERSION, HEADER_BYTES, MAGIC, NO_MOVE, PASS,
    POSITION_HEAD, SCORE_INF,
};
use crate::{
    book::lookup::{after, canonical, key, After, BadBook, Book, ScoredMove},
    formats::binfile::Reader,
    spine::units::WholeDiscs,
    BoardSize, Position, Square,
};

/// The name of a move byte: a square, `pass`, or `none`.
fn move_name(m: u8) -> String {
    match m {
        PASS => "pass".into(),
        NO_MOVE => "none".into(),
        _ => Square::from_index(m).map_or_else(|| format!("move byte {m}"), |s| s.to_string()),
    }
}

/// Reads the header; the number of positions it announces.
fn read_header(r: &mut Reader<'_>) -> Result<usize, String> {
    let magic = r.take(8, "the magic number")?;
    if magic != MAGIC {
        return Err("not an Edax book (it does not start with `XADEKOOB`)".into());
    }
    let at = r.at;
    let version = r.u8("the version")?;
    if version != EDAX_VERSION {
        return Err(format!(
            "the version (byte {at}) is {version}: Edax 4.4 and later write version \
             {EDAX_VERSION}"
        ));
    }
    r.u8("the release")?;
    let at = r.at;
    let date = r.take(8, "the date")?;
    let [month, day, hour, minute, second] = [date[2], date[3], date[4], date[5], date[6]];
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return Err(format!(
            "the date (byte {at}) is not a date: month {month}, day {day}, \
             {hour:02}:{minute:02}:{second:02}"
        ));
    }
    for (what, range) in [
        ("the level", 0..=60),
        ("the depth", 0..=60),
        ("the midgame error", 0..=64),
        ("the endcut error", 0..=64),
    ] {
        let at = r.at;
        let v = r.i32(what)?;
        if !range.contains(&v) {
            return Err(format!(
                "{what} (byte {at}) is {v}, not {} to {}",
                range.start(),
                range.end()
            ));
        }
    }
    r.i32("the verbosity")?;
    let at = r.at;
    let n = r.i32("the number of positions")?;
    usize::try_from(n).map_err(|_| format!("the number of positions (byte {at}) is {n}"))
}

/// Reads the position at `r`, the `k`th, checking what can be checked without the others.
fn read_position(r: &mut Reader<'_>, k: usize) -> Result<Record, BadBook> {
    let at = r.at;
    let bad = |why: String| BadBook(format!("Edax book: position {k} (byte {at}): {why}"));
    let player = r.u64("the discs").map_err(bad)?;
    let opponent = r.u64("the discs").map_err(bad)?;
    for what in ["the wins", "the draws", "the losses", "the lines"] {
        r.u32(what).map_err(bad)?;
    }
    for (j, what) in ["the value", "the lower bound", "the upper bound"]
        .into_iter()
        .enumerate()
    {
        let v = r.i16(what).map_err(bad)?;
        // Widened: -32768 has no absolute value in an i16.
        if i32::from(v).abs() > i32::from(SCORE_INF) {
            return Err(bad(format!(
                "{what} (byte {}) is {v}, not -127 to 127",
                at + 32 + 2 * j
            )));
        }
    }
    let count = r.u8("the number of links").map_err(bad)?;
    let level = r.u8("the level").map_err(bad)?;
    if level > 60 {
        return Err(bad(format!(
            "the level (byte {}) is {level}, not 0 to 60",
            at + 39
        )));
    }
    if player & opponent != 0 {
        return Err(bad(format!(
            "the discs: both sides have a disc on {}",
            Square::from_index(u8::try_from((player & opponent).trailing_zeros()).expect("< 64"))
                .expect("a square")
        )));
    }
    if (player | opponent) & CENTRE != CENTRE {
        let empty = CENTRE & !(player | opponent);
        return Err(bad(format!(
            "the discs: the centre square {} is empty, so no game reaches the position",
            Square::from_index(u8::try_from(empty.trailing_zeros()).expect("< 64"))
                .expect("a square")
        )));
    }
    let (least_player, least_opponent, _) = canonical(&position(player, opponent));
    if (least_player, least_opponent) != (player, opponent) {
        return Err(bad(
            "the discs: not the least of the position's eight images, which Edax stores".into(),
        ));
    }
    let pos = position(player, opponent);
    let must_pass = !pos.can_move() && !pos.is_game_over();
    let mut links = Vec::with_capacity(usize::from(count));
    let mut seen = 0u128;
    for j in 0..usize::from(count) {
        let link_at = r.at;
        let b = r.take(2, &format!("link {j}")).map_err(bad)?;
        let link = Link {
            score: i8::from_le_bytes([b[0]]),
            square: b[1],
        };
        let what = |why: String| bad(format!("link {j} (byte {link_at}): {why}"));
        check_move(&pos, link, must_pass, count).map_err(what)?;
        if seen & (1 << link.square) != 0 {
            return Err(what(format!("{} is linked twice", move_name(link.square))));
        }
        seen |= 1 << link.square;
        links.push(link);
    }
    let leaf_at = r.at;
    let b = r.take(2, "the leaf").map_err(bad)?;
    let leaf = Link {
        score: i8::from_le_bytes([b[0]]),
        square: b[1],
    };
    let what = |why: String| bad(format!("the leaf (byte {leaf_at}): {why}"));
    if leaf.square == NO_MOVE {
        // None: every move is linked (or the pass, or the game is over).
        let legal = pos.legal_moves().count();
        let pass_linked = links.len() == 1 && links[0].square == PASS;
        if u32::from(count) != legal && !pass_linked {
            return Err(what(format!(
                "none, but only {count} of the position's {legal} moves are linked"
            )));
        }
    } else {
        if count > 0 && leaf.square == PASS {
            return Err(what("a pass beside links".into()));
        }
        check_move(&pos, leaf, must_pass, 0).map_err(what)?;
        if seen & (1 << leaf.square) != 0 {
            return Err(what(format!("{} is a link too", move_name(leaf.square))));
        }
    }
    Ok(Record {
        at,
        player,
        opponent,
        level,
        links,
        leaf,
    })
}

/// Checks a link or a leaf of `pos`: a legal move (a pass, alone, when the side to move
/// must pass) with a score that is a disc difference.
fn check_move(pos: &Position, m: Link, must_pass: bool, links: u8) -> Result<(), String> {
    let legal = match m.square {
        PASS => must_pass && links <= 1,
        s => Square::from_index(s).is_some_and(|sq| pos.is_legal(sq)),
    };
    if !legal {
        return Err(format!("{} is not a legal move", move_name(m.square)));
    }
    if i32::from(m.score).abs() > 64 {
        return Err(format!(
            "{} is scored {}, not -64 to 64",
            move_name(m.square),
            m.score
        ));
    }
    Ok(())
}

/// The key of the position `(player, opponent)` reaches with `m` (a square or a pass).
pub(super) fn child_key(player: u64, opponent: u64, m: u8) -> (u64, u64) {
    let pos = position(player, opponent);
    let child = match Square::from_index(m) {
        Some(sq) => pos.play_unchecked(sq),
        None => pos.passed(),
    };
    key(&child)
}

impl Book {
    /// Reads an Edax book (`.dat`, Edax 4.4 and later) into a partial searched book: each
    /// position that can move, with its links and its leaf as its scored moves. A leaf's
    /// depth is that of the search of its level; a link's, one more than the depth of the
    /// best move of the position it leads to.
    ///
    /// # Errors
    /// When the file is not an Edax book, has another version, a header field out of range,
    /// is truncated, holds more or fewer positions than its header says, or a position that
    /// no game reaches (discs on one square, an empty centre), that is not the least of its
    /// images, is there twice, has a link or a leaf that is not a legal move, a score out of
    /// range, or a link to a position the book does not hold. The message names the
    /// position by its index and the byte it starts at, and the field and its byte.
    pub fn read_edax(bytes: &[u8]) -> Result<Book, BadBook> {
        let mut r = Reader { bytes, at: 0 };
        let count = read_header(&mut r).map_err(|e| BadBook(format!("Edax book header: {e}")))?;
        debug_assert_eq!(r.at, HEADER_BYTES);
        let mut records = Vec::new();
        while r.at < bytes.len() {
            records.push(read_position(&mut r, records.len())?);
        }
        if records.len() != count {
            return Err(BadBook(format!(
                "Edax book header: the number of positions (byte 38) is {count}, but the \
                 file's {} bytes hold {}",
                bytes.len(),
                records.len()
            )));
        }
        let mut index: HashMap<(u64, u64), usize> = HashMap::with_capacity(records.len());
        for (k, e) in records.iter().enumerate() {
            if let Some(j) = index.insert((e.player, e.opponent), k) {
                return Err(BadBook(format!(
                    "Edax book: position {k} (byte {}): the same position as position {j}",
                    e.at
                )));
            }
        }
        for (k, e) in records.iter().enumerate() {
            for (j, l) in e.links.iter().enumerate() {
                if !index.contains_key(&child_key(e.player, e.opponent, l.square)) {
                    return Err(BadBook(format!(
                        "Edax book: position {k} (byte {}): link {j} (byte {}): {} leads to a \
                         position the book does not hold",
                        e.at,
                        e.at + POSITION_HEAD + 2 * j,
                        move_name(l.square)
                    )));
                }
            }
        }
        let mut depths: Vec<Option<u32>> = vec![None; records.len()];
        let mut rows = Vec::new();
        for k in 0..records.len() {
            let e = &records[k];
            let pos = position(e.player, e.opponent);
            if !pos.can_move() {
                continue;
            }
            let moves = scored_moves(k, &records, &index, &mut depths);
            rows.push((pos, moves));
        }
        Book::from_partial(BoardSize::Eight, rows)
    }
}

/// The scored moves of position `k` (links, then its leaf), each with its depth.
fn scored_moves(
    k: usize,
    records: &[Record],
    index: &HashMap<(u64, u64), usize>,
    depths: &mut Vec<Option<u32>>,
) -> Vec<ScoredMove> {
    let e = &records[k];
    let pos = position(e.player, e.opponent);
    let empties = pos.empties().count();
    let mut moves = Vec::with_capacity(e.links.len() + 1);
    for l in &e.links {
        let sq = Square::from_index(l.square).expect("checked: a position that can move");
        let child = pos.play_unchecked(sq);
        let depth = match after(&child) {
            After::Over(_) => 1,
            After::Next(next, _) => index
                .get(&key(&next))
                .and_then(|&j| best_depth(j, records, index, depths))
                .or_else(|| {
                    // A pass to a position the book does not hold: the search after the
                    // pass, the pass position's leaf.
                    let p = &records[*index.get(&key(&child))?];
                    (p.leaf.square == PASS).then(|| leaf_depth(p.level, empties - 1))
                })
                .map_or_else(|| leaf_depth(e.level, empties), |d| d + 1),
        };
        moves.push(ScoredMove {
            square: sq,
            score: WholeDiscs(i32::from(l.score)),
            depth,
        });
    }
    if let Some(sq) = Square::from_index(e.leaf.square) {
        moves.push(ScoredMove {
            square: sq,
            score: WholeDiscs(i32::from(e.leaf.score)),
            depth: leaf_depth(e.level, empties),
        });
    }
    moves
}

/// The depth of the best move of position `j` (the first of the highest score, as the
/// book orders them), `None` for a position with no move to score.
fn best_depth(
    j: usize,
    records: &[Record],
    index: &HashMap<(u64, u64), usize>,
    depths: &mut Vec<Option<u32>>,
) -> Option<u32> {
    if let Some(d) = depths[j] {
        return Some(d);
    }
    let e = &records[j];
    if !position(e.player, e.opponent).can_move() {
        return None;
    }
    let moves = scored_moves(j, records, index, depths);
    let best = moves.iter().map(|m| m.score).max()?;
    let d = moves.iter().find(|m| m.score == best)?.depth;
    depths[j] = Some(d);
    Some(d)
}
