//! A position seen from the side to move, as Edax keeps it: a move is an xor and a swap, a
//! pass is a swap.

use std::fmt;

use crate::{moves, Bitboard, BoardSize, Square};

/// The side of a disc or of the player to move. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Black (`X`, `*`, 1): moves first.
    Black,
    /// White (`O`, 2).
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black, `O` for white.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// A move: a disc on a square, or a pass (allowed only when the side to move has no move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Put a disc on this square.
    Play(Square),
    /// Pass the turn.
    Pass,
}

impl fmt::Display for Move {
    /// A lowercase square name, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The square is not on a board of this size.
    OffBoard(Square),
    /// The square already holds a disc.
    Occupied(Square),
    /// The square is empty but the move turns nothing over.
    NoFlip(Square),
    /// A pass was asked for while the side to move has a legal move.
    PassWithMoves,
    /// The game is over.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffBoard(s) => write!(f, "{s} is not on the board"),
            PlayError::Occupied(s) => write!(f, "{s} is already taken"),
            PlayError::NoFlip(s) => write!(f, "{s} is not a legal move: it turns no disc"),
            PlayError::PassWithMoves => write!(f, "cannot pass: there is a legal move"),
            PlayError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A position no game reaches: this centre square is empty, while the four centre squares
/// are filled from the start ([`Position::check_centre`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyCentre(pub Square);

impl fmt::Display for EmptyCentre {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "impossible position: centre square {} is empty \
             (the four centre squares are filled from the start)",
            self.0
        )
    }
}

impl std::error::Error for EmptyCentre {}

/// An Othello position from the side to move's view.
///
/// ```
/// use ply_othello::{BoardSize, Color, Position, Square};
/// let pos = Position::start(BoardSize::Eight);
/// assert_eq!(pos.turn(), Color::Black);
/// assert_eq!(pos.legal_moves().count(), 4);
/// let next = pos.play(Square::parse("f5").unwrap()).unwrap();
/// assert_eq!(next.turn(), Color::White);
/// assert_eq!(next.disc_count(Color::Black), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    player: Bitboard,
    opponent: Bitboard,
    size: BoardSize,
    turn: Color,
}

impl Position {
    /// The start position: white on d4 and e5, black on d5 and e4 (for 8x8; the same shape at
    /// the centre of smaller boards), black to move.
    #[must_use]
    pub fn start(size: BoardSize) -> Position {
        let h = size.n() / 2;
        let sq = |c: u8, r: u8| Bitboard(1u64 << (r * 8 + c));
        let white = sq(h - 1, h - 1) | sq(h, h);
        let black = sq(h - 1, h) | sq(h, h - 1);
        Position {
            player: black,
            opponent: white,
            size,
            turn: Color::Black,
        }
    }

    /// A position from the discs of each colour and the side to move.
    ///
    /// # Errors
    /// When a disc lies off the board or both colours claim a square.
    pub fn from_discs(
        black: Bitboard,
        white: Bitboard,
        turn: Color,
        size: BoardSize,
    ) -> Result<Position, String> {
        if !(black & white).is_empty() {
            return Err(format!(
                "{} holds discs of both colours",
                (black & white)
                    .first()
                    .map_or(String::new(), |s| s.to_string())
            ));
        }
        if !((black | white) & !size.mask()).is_empty() {
            return Err(format!("a disc lies off the {n}x{n} board", n = size.n()));
        }
        let (player, opponent) = match turn {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Ok(Position {
            player,
            opponent,
            size,
            turn,
        })
    }

    /// Checks what every game keeps from its start: the four centre squares hold discs. A
    /// position with an empty centre square (an empty board, say) cannot occur in a game.
    /// The reader of cells (`text::parse_position`, which every front end's reader calls)
    /// makes this check, so no front end has to.
    ///
    /// # Errors
    /// [`EmptyCentre`], naming the first empty centre square.
    ///
    /// ```
    /// use ply_othello::{BoardSize, Color, Position, Square};
    /// assert!(Position::start(BoardSize::Six).check_centre().is_ok());
    /// let empty = Position::from_raw(0, 0, Color::Black, BoardSize::Four);
    /// let e = empty.check_centre().unwrap_err();
    /// assert_eq!(e.0, Square::parse("b2").unwrap());
    /// assert!(e.to_string().starts_with("impossible position: centre square b2 is empty"), "{e}");
    /// ```
    pub fn check_centre(&self) -> Result<(), EmptyCentre> {
        let h = self.size.n() / 2;
        let occupied = self.player | self.opponent;
        for (c, r) in [(h - 1, h - 1), (h, h - 1), (h - 1, h), (h, h)] {
            let sq = Square::new(c, r).expect("on the board");
            if !occupied.contains(sq) {
                return Err(EmptyCentre(sq));
            }
        }
        Ok(())
    }

    /// Builds a position from the mover's and the opponent's discs without checks.
    #[must_use]
    pub const fn from_raw(player: u64, opponent: u64, turn: Color, size: BoardSize) -> Position {
        Position {
            player: Bitboard(player),
            opponent: Bitboard(opponent),
            size,
            turn,
        }
    }

    /// Discs of the side to move.
    #[must_use]
    pub const fn player(&self) -> Bitboard {
        self.player
    }

    /// Discs of the other side.
    #[must_use]
    pub const fn opponent(&self) -> Bitboard {
        self.opponent
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The colour to move.
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Discs of one colour.
    #[must_use]
    pub const fn discs(&self, c: Color) -> Bitboard {
        if matches!(
            (c, self.turn),
            (Color::Black, Color::Black) | (Color::White, Color::White)
        ) {
            self.player
        } else {
            self.opponent
        }
    }

    /// Number of discs of one colour.
    #[must_use]
    pub const fn disc_count(&self, c: Color) -> u32 {
        self.discs(c).count()
    }

    /// Empty squares that exist on the board.
    #[must_use]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player.0 | self.opponent.0) & self.size.mask().0)
    }

    /// Legal moves of the side to move.
    #[must_use]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(moves::legal_moves(
            self.player.0,
            self.opponent.0,
            self.empties().0,
        ))
    }

    /// True when the side to move has a legal move.
    #[must_use]
    pub fn can_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// True when neither side can move.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        !self.can_move() && !self.passed().can_move()
    }

    /// Discs a move on `sq` would turn over (empty when the move is not legal).
    #[must_use]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if !self.empties().contains(sq) {
            return Bitboard::EMPTY;
        }
        Bitboard(moves::flips(self.player.0, self.opponent.0, sq.index()))
    }

    /// Plays a move known to be legal: no checks beyond debug assertions.
    #[must_use]
    pub fn play_unchecked(&self, sq: Square) -> Position {
        let f = moves::flips(self.player.0, self.opponent.0, sq.index());
        debug_assert!(f != 0 && self.empties().contains(sq), "illegal move {sq}");
        Position {
            player: Bitboard(self.opponent.0 ^ f),
            opponent: Bitboard(self.player.0 | f | 1u64 << sq.index()),
            size: self.size,
            turn: self.turn.other(),
        }
    }

    /// Plays a move after checking that it is legal.
    ///
    /// # Errors
    /// When the square is off the board, taken, or turns no disc.
    pub fn play(&self, sq: Square) -> Result<Position, PlayError> {
        if !sq.is_on(self.size) {
            return Err(PlayError::OffBoard(sq));
        }
        if !self.empties().contains(sq) {
            return Err(PlayError::Occupied(sq));
        }
        if self.flips(sq).is_empty() {
            return Err(PlayError::NoFlip(sq));
        }
        Ok(self.play_unchecked(sq))
    }

    /// Plays a square or a pass after checking that it is legal.
    ///
    /// # Errors
    /// As [`Position::play`] and [`Position::pass`].
    pub fn play_move(&self, m: Move) -> Result<Position, PlayError> {
        match m {
            Move::Play(sq) => self.play(sq),
            Move::Pass => self.pass(),
        }
    }

    /// True when `sq` is a legal move.
    #[must_use]
    pub fn is_legal(&self, sq: Square) -> bool {
        sq.is_on(self.size) && !self.flips(sq).is_empty()
    }

    /// The same discs with the other side to move (no check that a pass is allowed).
    #[must_use]
    pub const fn passed(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            size: self.size,
            turn: self.turn.other(),
        }
    }

    /// Passes after checking that the side to move has no legal move and the game goes on.
    ///
    /// # Errors
    /// When the side to move has a move, or neither side has one.
    pub fn pass(&self) -> Result<Position, PlayError> {
        if self.can_move() {
            Err(PlayError::PassWithMoves)
        } else if !self.passed().can_move() {
            Err(PlayError::GameOver)
        } else {
            Ok(self.passed())
        }
    }

    /// The final score for the side to move: disc difference with the empty squares given to
    /// the winner (World Othello Federation rule). Meaningful once the game is over.
    #[must_use]
    pub fn final_score(&self) -> i32 {
        final_score(self.player.0, self.opponent.0, self.size.squares())
    }

    /// [`Position::final_score`] from `color`'s point of view, whoever is to move: what a
    /// game's result says (black's score in GGF's `RE`, WTHOR's discs, a review's result).
    ///
    /// ```
    /// use ply_othello::{BoardSize, Color, Position};
    /// // A finished 4x4 game: every square black's, white to move (cells a1.. row by row).
    /// let end: Position = "XXXXXXXXXXXXXXXX O".parse().unwrap();
    /// assert_eq!(end.final_score_for(Color::Black), 16);
    /// assert_eq!(end.final_score_for(Color::White), -16);
    /// assert_eq!(end.final_score(), -16);
    /// ```
    #[must_use]
    pub fn final_score_for(&self, color: Color) -> i32 {
        if self.turn() == color {
            self.final_score()
        } else {
            -self.final_score()
        }
    }
}

/// Disc difference for the side with `p`, empties to the winner, on a board of `squares`.
#[inline]
#[must_use]
pub fn final_score(p: u64, o: u64, squares: u32) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = squares as i32 - np - no;
    let diff = np - no;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}
