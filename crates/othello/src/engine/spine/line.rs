//! The principal variation both searches report: a walk from a position along the move the
//! search names at each step, a pass put in wherever the side to move has none, until the
//! game ends, the line is long enough or the search names no move. The midgame engine names
//! its table's best move; the solver the first move it proves keeps the exact score.

use crate::{Move, Position, Square};

/// The line from `pos`, at most `max` moves and passes long: at each position where the
/// side to move has a move, `next(position, line so far)` names the one to play (`None`
/// ends the line there; an error ends the walk and is returned). Also returns the position
/// the line leads to.
pub(crate) fn walk<E>(
    pos: &Position,
    max: usize,
    mut next: impl FnMut(&Position, &[Move]) -> Result<Option<Square>, E>,
) -> Result<(Vec<Move>, Position), E> {
    let mut line = Vec::new();
    let mut cur = *pos;
    while line.len() < max && !cur.is_game_over() {
        if !cur.can_move() {
            line.push(Move::Pass);
            cur = cur.passed();
            continue;
        }
        match next(&cur, &line)? {
            Some(sq) => {
                line.push(Move::Play(sq));
                cur = cur.play_unchecked(sq);
            }
            None => break,
        }
    }
    Ok((line, cur))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    /// The first legal move at every step.
    fn first(pos: &Position, _: &[Move]) -> Result<Option<Square>, ()> {
        Ok(pos.legal_moves().next())
    }

    #[test]
    fn walks_to_the_end_with_passes_and_stops_at_max() {
        let start = Position::start(BoardSize::Four);
        let (line, end) = walk(&start, usize::MAX, first).unwrap();
        assert!(end.is_game_over());
        // Replaying the line, passes included, reaches the same end.
        let mut cur = start;
        for m in &line {
            cur = match *m {
                Move::Pass => {
                    assert!(!cur.can_move());
                    cur.passed()
                }
                Move::Play(sq) => cur.play(sq).unwrap(),
            };
        }
        assert_eq!(cur, end);
        let (short, _) = walk(&start, 3, first).unwrap();
        assert_eq!(short[..], line[..3]);
    }

    #[test]
    fn no_move_or_an_error_ends_the_walk() {
        let start = Position::start(BoardSize::Eight);
        let d3 = Square::from_index(19).unwrap();
        let (line, end) = walk(&start, 10, |_, l| Ok::<_, ()>(l.is_empty().then_some(d3))).unwrap();
        assert_eq!(line, [Move::Play(d3)]);
        assert_eq!(end, start.play(d3).unwrap());
        assert_eq!(
            walk(&start, 10, |_, _| Err::<Option<Square>, _>("stopped")),
            Err("stopped")
        );
    }
}
