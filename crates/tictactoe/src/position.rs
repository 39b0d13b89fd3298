//! A board that can occur in a game, with who moved first: the type the solvers work on.
//!
//! Parsing gives a [`Board`] (any arrangement); [`Position::new`] checks it could arise in a
//! real game and otherwise says which rule it breaks. Who moves next then follows from the
//! counts and who moved first, so a position is just the two masks and the first mark.

use std::fmt;

use ply_core::{Game, Outcome, Player, Tally, Value};

use crate::{table, Board, Cell, Mark};

/// Why a board cannot occur in a game where `first` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unreachable {
    /// The second player has more marks than the first.
    SecondAhead {
        /// Who moves first.
        first: Mark,
    },
    /// The first player is two or more marks ahead.
    FirstTooFarAhead {
        /// Who moves first.
        first: Mark,
        /// Marks of the first player.
        first_count: u32,
        /// Marks of the second player.
        second_count: u32,
    },
    /// Both marks have three in a row.
    BothWon,
    /// One side has three in a row but the other side has moved after it.
    MovedAfterWin {
        /// The side with three in a row.
        winner: Mark,
    },
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unreachable::SecondAhead { first } => write!(
                f,
                "{} has more marks than {first} but {first} moves first",
                first.other()
            ),
            Unreachable::FirstTooFarAhead {
                first,
                first_count,
                second_count,
            } => write!(
                f,
                "{first} has {first_count} marks but {} only {second_count}: \
                 {first} moves first, so it is at most one ahead",
                first.other()
            ),
            Unreachable::BothWon => f.write_str("both sides have three in a row"),
            Unreachable::MovedAfterWin { winner } => write!(
                f,
                "{winner} has three in a row but {} has moved since",
                winner.other()
            ),
        }
    }
}

impl std::error::Error for Unreachable {}

/// A move that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// The cell is taken.
    Occupied(Cell),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::Occupied(c) => write!(f, "{c} is taken"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Counts by result, named by mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Won by `X`.
    pub x: u64,
    /// Won by `O`.
    pub o: u64,
    /// Drawn.
    pub draw: u64,
}

impl Counts {
    /// All of them.
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.x + self.o + self.draw
    }

    /// A ply-core tally (by order of play) named by mark, given who moved first.
    #[must_use]
    pub const fn from_tally(t: Tally, first: Mark) -> Counts {
        match first {
            Mark::X => Counts {
                x: t.first,
                o: t.second,
                draw: t.draw,
            },
            Mark::O => Counts {
                x: t.second,
                o: t.first,
                draw: t.draw,
            },
        }
    }
}

/// A tic-tac-toe position that can occur in a game: a [`Board`] and who moved first.
///
/// ```
/// use ply_tictactoe::{Mark, Position};
/// use ply_core::Value;
/// let pos = Position::new("xx./oo./...".parse()?, Mark::X)?;
/// assert_eq!(pos.to_move(), Mark::X);
/// assert_eq!(pos.value(), Value::win(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    first: Mark,
}

impl Position {
    /// The empty board, `first` to move.
    #[must_use]
    pub const fn start(first: Mark) -> Position {
        Position {
            board: Board::EMPTY,
            first,
        }
    }

    /// The position, if `board` can occur in a game that `first` starts.
    ///
    /// # Errors
    ///
    /// [`Unreachable`] names the rule the board breaks.
    pub fn new(board: Board, first: Mark) -> Result<Position, Unreachable> {
        check(board, first)?;
        Ok(Position { board, first })
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> Board {
        self.board
    }

    /// Who moved first.
    #[must_use]
    pub const fn first(&self) -> Mark {
        self.first
    }

    /// Whose turn it is (also once the game is over: the side that would move next).
    #[must_use]
    pub const fn to_move(&self) -> Mark {
        if self.board.count(self.first) == self.board.count(self.first.other()) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The side with three in a row, if any.
    #[must_use]
    pub const fn winner(&self) -> Option<Mark> {
        if self.board.has_line(Mark::X) {
            Some(Mark::X)
        } else if self.board.has_line(Mark::O) {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// Whether the game is over: a line of three or a full board.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.winner().is_some() || self.board.is_full()
    }

    /// The empty cells, if the game goes on.
    pub fn moves(&self) -> impl Iterator<Item = Cell> {
        let empty = if self.is_over() {
            0
        } else {
            self.board.empty()
        };
        Cell::all().filter(move |c| empty & c.bit() != 0)
    }

    /// The position after the side to move marks `cell`.
    ///
    /// # Errors
    ///
    /// [`PlayError`] if the game is over or the cell is taken.
    pub fn play(&self, cell: Cell) -> Result<Position, PlayError> {
        if self.is_over() {
            Err(PlayError::GameOver)
        } else if self.board.get(cell).is_some() {
            Err(PlayError::Occupied(cell))
        } else {
            Ok(self.play_unchecked(cell))
        }
    }

    /// The position after the side to move marks `cell`, which must be empty in a game that
    /// goes on (else the result is not a position that can occur).
    #[must_use]
    pub const fn play_unchecked(&self, cell: Cell) -> Position {
        Position {
            board: self.board.with(cell, self.to_move()),
            first: self.first,
        }
    }

    /// The board as if `X` had moved first: the key of the solved tables.
    const fn as_x_first(&self) -> Board {
        match self.first {
            Mark::X => self.board,
            Mark::O => self.board.swap_marks(),
        }
    }

    /// The value for the side to move, looked up in the solved table.
    ///
    /// # Panics
    ///
    /// Only for a position that cannot occur, which only [`Position::play_unchecked`] on a
    /// taken cell or a finished game can make.
    #[must_use]
    pub fn value(&self) -> Value {
        table::SolvedTable::get()
            .entry(self.as_x_first())
            .value()
            .expect("the table holds every reachable position")
    }

    /// Every move with its value for the side making it, looked up in the solved table.
    ///
    /// # Panics
    ///
    /// As [`Position::value`].
    #[must_use]
    pub fn analyze(&self) -> Vec<(Cell, Value)> {
        self.moves()
            .map(|c| (c, self.play_unchecked(c).value().before_move()))
            .collect()
    }

    /// The distinct final boards reachable from here (this one if the game is over), by
    /// result, looked up in a table built on first use.
    #[must_use]
    pub fn count_finals(&self) -> Counts {
        let [first, second, draw] = table::FinalsTable::get().counts(self.as_x_first());
        Counts::from_tally(
            Tally {
                first: u64::from(first),
                second: u64::from(second),
                draw: u64::from(draw),
            },
            self.first,
        )
    }
}

/// Whether `board` can occur in a game that `first` starts, and if not, why.
///
/// # Errors
///
/// [`Unreachable`] names the rule the board breaks.
pub fn check(board: Board, first: Mark) -> Result<(), Unreachable> {
    let second = first.other();
    let (nf, ns) = (board.count(first), board.count(second));
    if ns > nf {
        return Err(Unreachable::SecondAhead { first });
    }
    if nf > ns + 1 {
        return Err(Unreachable::FirstTooFarAhead {
            first,
            first_count: nf,
            second_count: ns,
        });
    }
    match (board.has_line(first), board.has_line(second)) {
        (true, true) => Err(Unreachable::BothWon),
        (true, false) if nf == ns => Err(Unreachable::MovedAfterWin { winner: first }),
        (false, true) if nf > ns => Err(Unreachable::MovedAfterWin { winner: second }),
        _ => Ok(()),
    }
}

impl Game for Position {
    type Move = Cell;

    fn to_move(&self) -> Player {
        if self.to_move() == self.first {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self) -> Vec<Cell> {
        self.moves().collect()
    }

    fn play(&self, cell: Cell) -> Position {
        self.play_unchecked(cell)
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(w) if w == self.to_move() => Some(Outcome::Win),
            Some(_) => Some(Outcome::Loss),
            None if self.board.is_full() => Some(Outcome::Draw),
            None => None,
        }
    }

    fn canonical(&self) -> Position {
        Position {
            board: self.board.canonical(),
            first: self.first,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.board.fmt(f)
    }
}
