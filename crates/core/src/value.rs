//! GAMESMAN values: an outcome for the side to move plus the remoteness.
//!
//! Remoteness is the number of moves to the end of the game when both sides play perfectly:
//! the winner wins as fast as possible, the loser loses as slowly as possible, and a side
//! that can only draw reaches the draw as fast as possible.

use std::{cmp::Ordering, fmt};

/// Win, draw or loss, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Outcome {
    /// The same result seen from the other side.
    #[must_use]
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// `"win"`, `"draw"` or `"loss"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// The value of a position under perfect play: an [`Outcome`] for the side to move and the
/// remoteness (moves left until the game ends).
///
/// Values are ordered by preference for the side to move: a faster win is better than a
/// slower one, any win beats a draw, a faster draw beats a slower one, any draw beats a loss,
/// and a slower loss beats a faster one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// The result for the side to move.
    pub outcome: Outcome,
    /// Moves to the end of the game under perfect play.
    pub remoteness: u32,
}

impl Value {
    /// A win in `remoteness` moves.
    #[must_use]
    pub const fn win(remoteness: u32) -> Value {
        Value {
            outcome: Outcome::Win,
            remoteness,
        }
    }

    /// A draw reached in `remoteness` moves.
    #[must_use]
    pub const fn draw(remoteness: u32) -> Value {
        Value {
            outcome: Outcome::Draw,
            remoteness,
        }
    }

    /// A loss in `remoteness` moves.
    #[must_use]
    pub const fn loss(remoteness: u32) -> Value {
        Value {
            outcome: Outcome::Loss,
            remoteness,
        }
    }

    /// The value of a move for the side that makes it, given the value of the position it
    /// leads to (which is seen from the opponent): the outcome flips, one move is added.
    #[must_use]
    pub const fn before_move(self) -> Value {
        Value {
            outcome: self.outcome.flip(),
            remoteness: self.remoteness + 1,
        }
    }

    fn rank(self) -> (u8, i64) {
        let r = i64::from(self.remoteness);
        match self.outcome {
            Outcome::Win => (2, -r),
            Outcome::Draw => (1, -r),
            Outcome::Loss => (0, r),
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.outcome.as_str(), self.remoteness)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference_order() {
        let mut values = vec![
            Value::loss(1),
            Value::win(3),
            Value::draw(2),
            Value::loss(5),
            Value::win(1),
            Value::draw(4),
        ];
        values.sort();
        assert_eq!(
            values,
            [
                Value::loss(1),
                Value::loss(5),
                Value::draw(4),
                Value::draw(2),
                Value::win(3),
                Value::win(1)
            ]
        );
    }

    #[test]
    fn before_move_flips_and_counts() {
        assert_eq!(Value::loss(0).before_move(), Value::win(1));
        assert_eq!(Value::draw(2).before_move(), Value::draw(3));
        assert_eq!(Value::win(4).before_move(), Value::loss(5));
    }
}
