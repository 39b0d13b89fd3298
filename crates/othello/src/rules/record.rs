//! A game: a start position and every ply since, passes included, each checked as it is
//! played. Transcripts and GGF records read into a [`GameRecord`] and write out of one.
//!
//! Passes are stored explicitly so that the side to move after any ply is never in doubt;
//! the readers insert the passes a transcript leaves implicit.

use crate::{Move, PlayError, Position, Square};

/// A start position and the moves played from it, each one legal.
///
/// ```
/// use ply_othello::{BoardSize, GameRecord, Move, Position, Square};
/// let mut game = GameRecord::new(Position::start(BoardSize::Eight));
/// game.play(Move::Play(Square::parse("f5").unwrap())).unwrap();
/// assert!(game.play(Move::Pass).is_err()); // white has moves
/// assert_eq!(game.moves().len(), 1);
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameRecord {
    start: Position,
    moves: Vec<Move>,
    current: Position,
}

impl GameRecord {
    /// A game with no move yet.
    #[must_use]
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            start,
            moves: Vec::new(),
            current: start,
        }
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> Position {
        self.start
    }

    /// Every ply so far, passes included.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after the last ply.
    #[must_use]
    pub fn position(&self) -> Position {
        self.current
    }

    /// Plays one ply after checking it.
    ///
    /// # Errors
    /// When the move is not legal (see [`Position::play_move`]); the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.current = self.current.play_move(m)?;
        self.moves.push(m);
        Ok(())
    }

    /// Plays a square, first passing for the side to move if it has no legal move (the pass
    /// a transcript leaves out). Returns whether a pass was inserted.
    ///
    /// # Errors
    /// When the game is over or the square is not legal for whoever must play it; the game
    /// is unchanged.
    pub fn play_with_implicit_pass(&mut self, sq: Square) -> Result<bool, PlayError> {
        if self.current.is_game_over() {
            return Err(PlayError::GameOver);
        }
        let pass = !self.current.can_move() && self.current.passed().can_move();
        let before = self.current;
        let from = if pass { before.passed() } else { before };
        self.current = from.play(sq)?;
        if pass {
            self.moves.push(Move::Pass);
        }
        self.moves.push(Move::Play(sq));
        Ok(pass)
    }

    /// The position before each ply and the ply, in order.
    pub fn plies(&self) -> impl Iterator<Item = (Position, Move)> + '_ {
        self.moves.iter().scan(self.start, |pos, &m| {
            let before = *pos;
            *pos = before.play_move(m).expect("moves were checked when played");
            Some((before, m))
        })
    }
}
