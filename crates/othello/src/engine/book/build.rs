//! How a book grows, apart from what it holds: the positions a level starts from and the
//! ones past it, the lines that deviate from a searched book, the search of a position's
//! moves (the leaf scoring, [`search_moves`], and many positions on threads, [`search_all`]),
//! and the negamax that carries searched scores back through the book.

use std::collections::{BTreeMap, HashMap, HashSet};

use ply_core::SplitMix64;

use super::lookup::{after, canonical_image, key, After, BadBook, Book, ScoredMove};
use crate::{
    analyze::{self, Analysis, Options},
    spine::units::{Discs64, WholeDiscs},
    text, BoardSize, GameRecord, Move, Position, Square,
};

/// The positions where ply is to move again after the opponent, to move in `pos`, plays any
/// of its moves (passes played out), in move order; finished games are left out.
#[must_use]
pub fn after_any_reply(pos: &Position) -> Vec<Position> {
    let mut out = Vec::new();
    opponent_turn(pos, &mut out);
    out
}

fn opponent_turn(q: &Position, out: &mut Vec<Position>) {
    if q.is_game_over() {
        return;
    }
    if !q.can_move() {
        ply_turn(q.passed(), out);
        return;
    }
    for r in q.legal_moves() {
        ply_turn(q.play_unchecked(r), out);
    }
}

fn ply_turn(c: Position, out: &mut Vec<Position>) {
    if c.is_game_over() {
        return;
    }
    if c.can_move() {
        out.push(c);
    } else {
        opponent_turn(&c.passed(), out);
    }
}

/// The book's roots on a board: the start (ply plays black) and every position after
/// black's first move (ply plays white).
#[must_use]
pub fn roots(size: BoardSize) -> Vec<Position> {
    let start = Position::start(size);
    std::iter::once(start)
        .chain(after_any_reply(&start))
        .collect()
}

/// The ply nodes one step past the book position `pos` with its move `best`: ply plays
/// `best`, the opponent any reply.
///
/// # Panics
/// When `best` is not legal in `pos`.
#[must_use]
pub fn successors(pos: &Position, best: Square) -> Vec<Position> {
    let next = pos.play(best).expect("a book move is legal");
    after_any_reply(&next)
}

/// Negamaxes searched positions through the book they make: every move whose position
/// after it (passes played out) is one of `searched` takes that position's best score
/// (negated, one ply deeper) in place of its own search's; the others keep theirs. Moves
/// come back best first, the positions in the order given.
///
/// ```
/// use ply_othello::{analyze::WholeDiscs, book::{negamax, ScoredMove}, BoardSize, Position, Square};
///
/// let start = Position::start(BoardSize::Eight);
/// let f5 = Square::parse("f5").unwrap();
/// let after = start.play(f5).unwrap();
/// let scored = |s: &str, score, depth| ScoredMove {
///     square: Square::parse(s).unwrap(),
///     score: WholeDiscs(score),
///     depth,
/// };
/// // The search at the start says +1 for every move; the book's position after f5 says
/// // its own best move is worth +3 to white, so f5 is worth -3 to black, and so is every
/// // other first move: each leads to an image of that position.
/// let book = negamax(vec![
///     (start, ["f5", "e6", "d3", "c4"].iter().map(|s| scored(s, 1, 10)).collect()),
///     (after, vec![scored("d6", 3, 10), scored("f6", 0, 10), scored("f4", 0, 10)]),
/// ]);
/// let (_, moves) = &book[0];
/// assert_eq!(moves.len(), 4);
/// assert!(moves.iter().all(|m| (m.score, m.depth) == (WholeDiscs(-3), 11)));
/// ```
///
/// # Panics
/// When a position's list holds a move that is not legal there, or is empty.
#[must_use]
pub fn negamax(searched: Vec<(Position, Vec<ScoredMove>)>) -> Vec<(Position, Vec<ScoredMove>)> {
    let index: HashMap<(u64, u64), usize> = searched
        .iter()
        .enumerate()
        .map(|(k, (p, _))| (key(p), k))
        .collect();
    let mut done: Vec<Option<Vec<ScoredMove>>> = vec![None; searched.len()];
    for k in 0..searched.len() {
        negamax_from(k, &searched, &index, &mut done);
    }
    searched
        .into_iter()
        .zip(done)
        .map(|((pos, _), moves)| (pos, moves.expect("every position done")))
        .collect()
}

/// The best score and its depth of position `k`, its moves negamaxed into `done` first
/// (the positions after them before it: the game only goes forward, so this ends).
fn negamax_from(
    k: usize,
    searched: &[(Position, Vec<ScoredMove>)],
    index: &HashMap<(u64, u64), usize>,
    done: &mut Vec<Option<Vec<ScoredMove>>>,
) -> (WholeDiscs, u32) {
    if let Some(moves) = &done[k] {
        return (moves[0].score, moves[0].depth);
    }
    let (pos, given) = &searched[k];
    let mut moves = Vec::with_capacity(given.len());
    for m in given {
        let child = pos.play(m.square).expect("a searched move is legal");
        let found = match after(&child) {
            After::Over(score) => Some((score, 1)),
            After::Next(next, sign) => index.get(&key(&next)).map(|&j| {
                let (v, d) = negamax_from(j, searched, index, done);
                (v * sign, d + 1)
            }),
        };
        moves.push(match found {
            Some((score, depth)) => ScoredMove {
                square: m.square,
                score,
                depth,
            },
            None => *m,
        });
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    let best = (moves[0].score, moves[0].depth);
    done[k] = Some(moves);
    best
}

impl Book {
    /// The first position an exact book should hold and does not: a root, or a successor of
    /// a book position with at least [`Book::min_empties`] empty squares. `None` when the
    /// book is closed, that is, a weak solution down to its depth (and for a searched book,
    /// which is not meant to close).
    #[must_use]
    pub fn first_gap(&self) -> Option<Position> {
        if !self.is_exact() {
            return None;
        }
        let wanted = |p: &Position| p.empties().count() >= self.min_empties();
        roots(self.size())
            .into_iter()
            .chain(self.iter().flat_map(|(pos, m)| successors(&pos, m.best)))
            .find(|p| wanted(p) && self.lookup(p).is_none())
    }
}

/// The next level of an exact book to solve: the roots when nothing is solved yet (`None`),
/// else every position one step past a solved one (its best move, then any reply) that is
/// not solved and has at least `min_empties` empty squares; one per symmetry class (its
/// least image), sorted by key, so the level is the same whatever the order of `solved`.
#[must_use]
pub fn next_exact_level(
    size: BoardSize,
    min_empties: u32,
    solved: Option<&[(Position, Square)]>,
) -> Vec<Position> {
    let candidates: Vec<Position> = match solved {
        None => roots(size),
        Some(solved) => solved
            .iter()
            .flat_map(|(p, best)| successors(p, *best))
            .collect(),
    };
    let done: HashSet<(u64, u64)> = solved
        .unwrap_or_default()
        .iter()
        .map(|(p, _)| key(p))
        .collect();
    let mut next: BTreeMap<(u64, u64), Position> = BTreeMap::new();
    for p in candidates {
        if p.empties().count() >= min_empties && !done.contains(&key(&p)) {
            next.entry(key(&p)).or_insert_with(|| canonical_image(&p));
        }
    }
    next.into_values().collect()
}

/// How the self-play lines of a searched book's next level choose their moves
/// ([`deviate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The board size.
    pub size: BoardSize,
    /// A line ends where fewer empty squares are left.
    pub min_empties: u32,
    /// Self-play lines from the start: line 0 plays the best move everywhere.
    pub lines: u32,
    /// A line may play a move scored at most this many discs below the best (0 or more).
    pub width: i32,
    /// The most discs a line's deviations may give away in all (0 or more).
    pub loss: i32,
    /// Seed of the lines' choices.
    pub seed: u64,
}

/// The next level of a searched book: where the self-play lines from the start leave the
/// `searched` positions (keyed by [`key`], each least image's moves best first), one
/// position per symmetry class (its least image), sorted by key. Each line plays a move
/// within `width` discs of the best, chosen by a hash of the seed, the line and the
/// position (line 0 always the best), as long as its losses add up to no more than `loss`.
#[must_use]
pub fn deviate(d: &Deviation, searched: &HashMap<(u64, u64), Vec<ScoredMove>>) -> Vec<Position> {
    let mut next: BTreeMap<(u64, u64), Position> = BTreeMap::new();
    for line in 0..d.lines {
        if let Some(p) = line_end(d, searched, line) {
            next.entry(key(&p)).or_insert(p);
        }
    }
    next.into_values().collect()
}

/// A 64-bit mix of the seed, the line and the position: which deviation a line takes.
fn choice(seed: u64, line: u32, key: (u64, u64)) -> u64 {
    let mut rng = SplitMix64::new(
        seed ^ u64::from(line).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ key.0.rotate_left(17)
            ^ key.1.rotate_left(41),
    );
    rng.next_u64()
}

/// Where line `line` leaves the searched positions: the first position it reaches that is
/// not searched, with at least `min_empties` empty squares; `None` when it ends (the game
/// over, or too few empties) inside them.
fn line_end(
    d: &Deviation,
    searched: &HashMap<(u64, u64), Vec<ScoredMove>>,
    line: u32,
) -> Option<Position> {
    let mut pos = Position::start(d.size);
    let mut lost = 0;
    loop {
        while !pos.is_game_over() && !pos.can_move() {
            pos = pos.passed();
        }
        if pos.is_game_over() || pos.empties().count() < d.min_empties {
            return None;
        }
        // The least image: its discs are the key, and the results' moves are its moves.
        let here = canonical_image(&pos);
        let pos_key = (here.player().0, here.opponent().0);
        let Some(moves) = searched.get(&pos_key) else {
            return Some(here);
        };
        let best = moves[0].score;
        let within: Vec<&ScoredMove> = moves
            .iter()
            .filter(|m| (best - m.score).0 <= d.width && lost + (best - m.score).0 <= d.loss)
            .collect();
        let m = if line == 0 {
            moves[0]
        } else {
            *within[(choice(d.seed, line, pos_key) % within.len() as u64) as usize]
        };
        lost += (best - m.score).0;
        // The moves are those of the least image: play on it.
        pos = here.play_unchecked(m.square);
    }
}

/// A searched book from every level's results: each position once (a position searched in
/// two levels is refused, named), the scores negamaxed through the book ([`negamax`]).
///
/// # Errors
/// A position given twice, or what [`Book::from_searched`] refuses.
pub fn build_searched(
    size: BoardSize,
    entries: Vec<(Position, Vec<ScoredMove>)>,
) -> Result<Book, BadBook> {
    let mut seen = HashSet::new();
    for (pos, _) in &entries {
        if !seen.insert(key(pos)) {
            return Err(BadBook(format!(
                "{} is searched twice (in two levels?)",
                text::format_position(pos)
            )));
        }
    }
    Book::from_searched(size, negamax(entries))
}

/// The positions of `game` where one of its first `plies` moves is played (passes are not
/// moves: a position where the side to move must pass is left out), in the game's order.
/// These are what [`add_searched`] adds to a book from a game, as Edax's `book add` adds a
/// database's games down to the book's depth.
pub fn game_positions(game: &GameRecord, plies: usize) -> impl Iterator<Item = Position> + '_ {
    game.plies()
        .filter(|(_, m)| matches!(m, Move::Play(_)))
        .take(plies)
        .map(|(pos, _)| pos)
}

/// A midgame score (64ths of a disc) in whole discs, as a searched book holds it: rounded,
/// and never past the board's squares.
fn whole_discs(score: Discs64, size: BoardSize) -> WholeDiscs {
    let squares = i32::try_from(size.squares()).expect("at most 64");
    WholeDiscs(score.nearest().0.clamp(-squares, squares))
}

/// Every move of `pos` scored by the midgame engine at `depth`, in whole discs, best first
/// (a stable sort keeps the engine's order of ties), each resting on `depth` plies; with the
/// analysis it came from. The leaf scoring of a searched book: what `ply othello book
/// search` writes for a level's positions and [`search_all`] gives the positions of games.
/// A fresh analysis (new tables, one thread, no clock, no book, no solver), so a position's
/// scores are the same whatever was searched before it.
#[must_use]
pub fn search_moves(pos: &Position, depth: u32) -> (Vec<ScoredMove>, Analysis) {
    let found = analyze::analyze(
        pos,
        &Options {
            solver: false,
            book: false,
            ..Options::depth(depth)
        },
    );
    let mut moves: Vec<ScoredMove> = found
        .moves
        .iter()
        .map(|m| ScoredMove {
            square: m.square,
            score: whole_discs(m.score, pos.size()),
            depth,
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    (moves, found)
}

/// [`search_moves`] of every position, `threads` positions at a time (each search on one
/// thread), through ply's one parallel map ([`ply_core::par_map`]): the moves in the
/// positions' order, the same whatever `threads` is. `searched` is called once as each
/// position is done, from the thread that searched it (a front end counts them to show
/// progress).
#[must_use]
pub fn search_all(
    positions: &[Position],
    depth: u32,
    threads: usize,
    searched: &(dyn Fn() + Sync),
) -> Vec<Vec<ScoredMove>> {
    ply_core::par_map(positions, threads, |_, pos| {
        let (moves, _) = search_moves(pos, depth);
        searched();
        moves
    })
}

/// `book` with the searched positions `added` (each with every legal move scored, as
/// [`Book::from_searched`] takes them) put in, and the scores negamaxed through the whole
/// book ([`negamax`]): a move of a book position that now leads to an added position takes
/// that position's value; a book position whose moves lead to no added one keeps its
/// scores, which the negamax of the book it came from made. A [partial](Book::is_partial)
/// book stays partial (its positions keep the moves they score).
///
/// # Errors
/// An exact book (it holds proofs, not scores to negamax), a position the book holds already
/// or given twice, or what [`Book::from_searched`] refuses.
pub fn add_searched(book: &Book, added: Vec<(Position, Vec<ScoredMove>)>) -> Result<Book, BadBook> {
    if book.is_exact() {
        return Err(BadBook(String::from(
            "an exact book (a weak solution) takes no searched positions: add to a searched book",
        )));
    }
    let mut entries: Vec<(Position, Vec<ScoredMove>)> = book
        .iter()
        .map(|(pos, _)| {
            let moves = book.moves(&pos).expect("a book position is in its book");
            (pos, moves)
        })
        .collect();
    for (pos, _) in &added {
        if book.lookup(pos).is_some() {
            return Err(BadBook(format!(
                "{} is in the book already",
                text::format_position(pos)
            )));
        }
    }
    entries.extend(added);
    let mut seen = HashSet::new();
    for (pos, _) in &entries {
        if !seen.insert(key(pos)) {
            return Err(BadBook(format!(
                "{} is added twice",
                text::format_position(pos)
            )));
        }
    }
    let entries = negamax(entries);
    if book.is_partial() {
        Book::from_partial(book.size(), entries)
    } else {
        Book::from_searched(book.size(), entries)
    }
}

#[cfg(test)]
mod tests {
    use ply_core::SplitMix64;

    use super::*;
    use crate::book::testing::{book4, searched4};

    /// The leaf scoring: every legal move once, best first, in whole discs within the board,
    /// each resting on the depth asked; the best is the engine's own best score.
    #[test]
    fn a_searched_position_scores_every_move_best_first_in_whole_discs() {
        let pos = Position::start(BoardSize::Six)
            .play(Square::parse("c2").unwrap())
            .unwrap();
        let (moves, found) = search_moves(&pos, 3);
        let mut squares: Vec<Square> = moves.iter().map(|m| m.square).collect();
        squares.sort_unstable();
        let mut legal: Vec<Square> = pos.legal_moves().collect();
        legal.sort_unstable();
        assert_eq!(squares, legal);
        assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(moves.iter().all(|m| m.depth == 3 && m.score.0.abs() <= 36));
        let best = found.moves.iter().map(|m| m.score).max().unwrap();
        assert_eq!(moves[0].score, whole_discs(best, BoardSize::Six));
    }

    /// The parallel search gives each position what a search of it alone gives, in the
    /// positions' order, whatever the thread count, and reports each position once.
    #[test]
    fn searching_on_threads_gives_each_position_its_own_search() {
        let start = Position::start(BoardSize::Six);
        let positions: Vec<Position> = after_any_reply(&start)
            .iter()
            .flat_map(after_any_reply)
            .take(5)
            .collect();
        let alone: Vec<Vec<ScoredMove>> = positions.iter().map(|p| search_moves(p, 2).0).collect();
        for threads in [1, 3, 8] {
            let count = std::sync::atomic::AtomicUsize::new(0);
            let all = search_all(&positions, 2, threads, &|| {
                count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            });
            assert_eq!(all, alone, "{threads} threads");
            assert_eq!(count.into_inner(), positions.len());
        }
    }

    #[test]
    fn a_book_missing_a_position_shows_the_gap() {
        let book = book4(6);
        let mut entries: Vec<(Position, Square, WholeDiscs)> =
            book.iter().map(|(p, m)| (p, m.best, m.score)).collect();
        let dropped = entries.pop().unwrap().0;
        let holed = Book::from_entries(BoardSize::Four, 6, entries).unwrap();
        let gap = holed.first_gap().expect("a gap");
        assert_eq!(key(&gap).0, key(&dropped).0);
    }

    #[test]
    fn replies_play_out_passes_and_skip_finished_games() {
        // Random 4x4 games, where passes are common: after any reply, ply is to move and
        // can move; without passes there is one position per reply.
        let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut passes = 0;
        for _ in 0..300 {
            let mut q = Position::start(BoardSize::Four);
            while !q.is_game_over() {
                let after = after_any_reply(&q);
                let ply = q.turn().other();
                for p in &after {
                    assert!(p.can_move() && p.turn() == ply);
                    assert!(p.empties().count() < q.empties().count() || !q.can_move());
                }
                let moves = q.legal_moves().count();
                if after
                    .iter()
                    .any(|p| p.empties().count() + 1 != q.empties().count())
                {
                    passes += 1;
                } else if q.legal_moves().all(|r| q.play_unchecked(r).can_move()) {
                    assert_eq!(after.len(), moves as usize);
                }
                q = match q.legal_moves().nth(rng.below(moves.max(1) as usize)) {
                    Some(sq) => q.play_unchecked(sq),
                    None => q.passed(),
                };
            }
        }
        assert!(passes > 0, "no pass was played out");
    }

    #[test]
    fn negamax_takes_the_value_across_a_pass_and_adds_the_plies() {
        // A 4x4 game where the side to move, after d1, must pass: the position after the
        // pass is the mover's again, so its value counts with the same sign.
        let mut rng = SplitMix64::new(7);
        for _ in 0..2000 {
            let mut q = Position::start(BoardSize::Four);
            while !q.is_game_over() && q.can_move() {
                let pass_after = q.legal_moves().find(|&sq| {
                    let c = q.play_unchecked(sq);
                    !c.is_game_over() && !c.can_move() && c.passed().can_move()
                });
                if let Some(sq) = pass_after {
                    let after = q.play_unchecked(sq).passed();
                    let leaf = |p: &Position, score| {
                        p.legal_moves()
                            .map(|square| ScoredMove {
                                square,
                                score: WholeDiscs(score),
                                depth: 3,
                            })
                            .collect::<Vec<_>>()
                    };
                    let out = negamax(vec![(q, leaf(&q, -30)), (after, leaf(&after, 4))]);
                    // The position after the pass: its own best, or a move that ends the game.
                    let next = out[1].1[0];
                    assert!(next.score >= WholeDiscs(4));
                    let m = out[0].1.iter().find(|m| m.square == sq).unwrap();
                    assert_eq!((m.score, m.depth), (next.score, next.depth + 1));
                    assert_eq!(out[0].1[0].square, sq);
                    return;
                }
                let n = q.legal_moves().count() as usize;
                q = q.play_unchecked(q.legal_moves().nth(rng.below(n)).unwrap());
            }
        }
        panic!("no pass found");
    }

    #[test]
    fn adding_positions_keeps_the_book_and_negamaxes_the_new_values_in() {
        let book = searched4(8);
        // Nothing added: the book's negamaxed scores negamax to themselves.
        assert_eq!(add_searched(&book, Vec::new()).unwrap(), book);
        // A position one move past a book position, below the book's depth.
        let (parent, square, child) = book
            .iter()
            .find_map(|(p, _)| {
                p.legal_moves()
                    .find_map(|sq| match after(&p.play_unchecked(sq)) {
                        After::Next(q, -1) if q.empties().count() == 7 => Some((p, sq, q)),
                        _ => None,
                    })
            })
            .expect("a book position with a move past the book");
        let scored = |score| {
            child
                .legal_moves()
                .map(|square| ScoredMove {
                    square,
                    score: WholeDiscs(score),
                    depth: 1,
                })
                .collect::<Vec<_>>()
        };
        let grown = add_searched(&book, vec![(child, scored(16))]).unwrap();
        assert_eq!(grown.len(), book.len() + 1);
        assert_eq!(grown.min_empties(), 7);
        assert_eq!(grown.lookup(&child).unwrap().score, WholeDiscs(16));
        let m = grown.moves(&parent).unwrap();
        let m = m.iter().find(|m| m.square == square).unwrap();
        assert_eq!((m.score, m.depth), (WholeDiscs(-16), 2));
        // Every book position whose moves do not lead to the child keeps its scores.
        let kept = book
            .iter()
            .filter(|(p, _)| grown.moves(p) == book.moves(p))
            .count();
        assert!(kept > book.len() / 2, "{kept} of {}", book.len());
        // A position the book holds, one given twice, and an exact book are refused.
        let (held, _) = book.iter().next().unwrap();
        let again: Vec<ScoredMove> = book.moves(&held).unwrap();
        let e = add_searched(&book, vec![(held, again)]).unwrap_err();
        assert!(e.to_string().contains("in the book already"), "{e}");
        let e = add_searched(&book, vec![(child, scored(0)), (child, scored(0))]).unwrap_err();
        assert!(e.to_string().contains("added twice"), "{e}");
        let e = add_searched(&book4(8), Vec::new()).unwrap_err();
        assert!(e.to_string().contains("exact book"), "{e}");
    }

    #[test]
    fn a_games_positions_are_those_before_its_first_moves_passes_left_out() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..200 {
            let mut game = GameRecord::new(Position::start(BoardSize::Four));
            while !game.position().is_game_over() {
                let q = game.position();
                let m = match q
                    .legal_moves()
                    .nth(rng.below(q.legal_moves().count().max(1) as usize))
                {
                    Some(sq) => Move::Play(sq),
                    None => Move::Pass,
                };
                game.play(m).unwrap();
            }
            let all: Vec<Position> = game_positions(&game, 60).collect();
            let played = game.moves().iter().filter(|m| **m != Move::Pass).count();
            assert_eq!(all.len(), played);
            assert!(all.iter().all(Position::can_move));
            assert_eq!(all[0], Position::start(BoardSize::Four));
            let first: Vec<Position> = game_positions(&game, 3).collect();
            assert_eq!(first[..], all[..3]);
        }
    }
}
