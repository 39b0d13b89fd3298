"""Othello on 4x4, 6x6 and 8x8 boards (types of ply.othello)."""

import os
from typing import Any, Optional, TypeVar, Union

_B = TypeVar("_B", bound="Board")

Move = Union[str, int]
"""A move: a name (``"d3"``, ``"pass"``) or an index (``row * n + col``; ``n * n`` is a pass)."""

BoardLike = Union["Board", str]
"""A board, or text read as the command line reads a position: a transcript (``"f5d6"``),
cells and side to move, an OBF line or a GGF game."""

Score = Union[int, float]
"""A score in discs: an ``int`` when exact, a ``float`` when estimated."""

class Board:
    """An Othello position and the moves that led to it (python-chess style), with
    OpenSpiel's state methods. Boards pickle (moves included) and may be subclassed."""

    def __init__(
        self, cells: Optional[str] = None, turn: Optional[str] = None, *, size: Optional[int] = None
    ) -> None: ...
    @classmethod
    def from_obf(cls: type[_B], line: str) -> _B:
        """The position of an OBF line (a ``%`` comment and Edax's unused ``--:-127`` slots
        allowed); the board keeps the line's ``scores`` and ``comment``."""
    @property
    def scores(self) -> dict[str, int]:
        """The OBF line's scored moves (move name to exact score) for its position, the
        board's first; ``{}`` for a board not read from OBF."""
    @property
    def comment(self) -> Optional[str]:
        """The OBF line's comment (after its ``%``), or ``None``."""
    @classmethod
    def from_transcript(cls: type[_B], transcript: str, *, size: Optional[int] = None) -> _B:
        """The game of a transcript (``"f5d6c3"``) from the start; its moves are the
        ``move_stack``."""
    @property
    def size(self) -> int: ...
    @property
    def turn(self) -> str:
        """``"X"`` (black) or ``"O"`` (white)."""
    @property
    def legal_moves(self) -> list[str]: ...
    @property
    def legal_actions(self) -> list[int]: ...
    @property
    def move_stack(self) -> list[str]: ...
    @property
    def discs(self) -> tuple[int, int]:
        """Black's and white's disc counts."""
    def is_legal(self, mv: Move) -> bool: ...
    def push(self, mv: Move) -> None: ...
    def pop(self) -> str: ...
    def move_index(self, name: Move) -> int: ...
    def move_name(self, index: int) -> str: ...
    def is_game_over(self) -> bool: ...
    def current_player(self) -> int:
        """0 (black), 1 (white) or -4 (``pyspiel.PlayerId.TERMINAL``) at the end."""
    def returns(self) -> list[float]:
        """Black's and white's: 1/-1 for more/fewer discs at the end, 0 otherwise."""
    def history(self) -> list[int]:
        """The moves played, as OpenSpiel's actions."""
    def observation_tensor(self, player: Optional[int] = None) -> Any:
        """OpenSpiel's 3 planes (empty, player's, opponent's) of n*n cells, flat; a float32
        numpy array when numpy is installed, else a list."""
    def legal_actions_mask(self) -> Any:
        """n*n+1 entries, true for legal actions; a numpy bool array or a list of 0/1."""
    def outcome(self) -> Optional[Outcome]: ...
    def obf(self) -> str: ...
    def copy(self: _B) -> _B: ...
    def __copy__(self: _B) -> _B: ...
    def __deepcopy__(self: _B, memo: object) -> _B: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __getstate__(self) -> tuple[list[int], Optional[dict[str, Any]]]: ...
    def __setstate__(self, state: tuple[list[int], Optional[dict[str, Any]]]) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Outcome:
    """How a finished game ended; ``score`` is black's, empty squares to the winner."""

    @property
    def winner(self) -> Optional[str]: ...
    @property
    def black(self) -> int: ...
    @property
    def white(self) -> int: ...
    @property
    def score(self) -> int: ...

class SolveResult:
    """The exact result: score for the side to move, a best move and a line."""

    @property
    def score(self) -> int: ...
    @property
    def best_move(self) -> Optional[str]:
        """A square, ``"pass"`` when the side to move must pass, ``None`` at the end."""
    @property
    def line(self) -> list[str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def moves(self) -> Optional[list[MoveScore]]:
        """With ``all_moves=True``: every legal move's exact score, best first."""

class MoveScore:
    """One move's score in discs for the side that plays it: exact, estimated, or from the book."""

    @property
    def move(self) -> str:
        """A square, or ``"pass"``."""
    @property
    def index(self) -> int: ...
    @property
    def score(self) -> Score:
        """An ``int`` when exact, a ``float`` when estimated."""
    @property
    def exact(self) -> bool: ...
    @property
    def book(self) -> bool:
        """True when the score comes from the opening book."""
    @property
    def depth(self) -> int:
        """Plies the score rests on (the empty squares when exact)."""

class Book:
    """An opening book read from a file: ply's own or an Edax book (``.dat``)."""

    def __init__(self, path: Union[str, os.PathLike[str]]) -> None: ...
    @property
    def size(self) -> int:
        """The board side: 4, 6 or 8."""
    @property
    def kind(self) -> str:
        """``"exact"``, ``"searched"`` or ``"partial"`` (some moves of each position, as
        Edax's)."""
    def moves(self, board: BoardLike) -> list[MoveScore]:
        """The moves the book scores in the position (or a mirror image), best first; ``[]``
        when it does not hold it."""
    def lookup(self, board: BoardLike) -> Optional[MoveScore]:
        """The book's best move with the position's value; ``None`` when it does not hold it."""
    def __contains__(self, board: BoardLike) -> bool: ...
    def __len__(self) -> int: ...

class Game:
    """One game of a WTHOR database, with the fields of ``ply othello games --json``."""

    @property
    def number(self) -> int: ...
    @property
    def year(self) -> int: ...
    @property
    def tournament(self) -> Optional[str]: ...
    @property
    def tournament_number(self) -> int: ...
    @property
    def black(self) -> Optional[str]:
        """Black's name; ``None`` without the players' file."""
    @property
    def black_number(self) -> int: ...
    @property
    def white(self) -> Optional[str]: ...
    @property
    def white_number(self) -> int: ...
    @property
    def black_discs(self) -> int: ...
    @property
    def black_score(self) -> int:
        """Black's result as a disc difference, empties to the winner."""
    @property
    def theoretical(self) -> int: ...
    @property
    def theoretical_depth(self) -> int: ...
    @property
    def moves(self) -> list[str]:
        """The moves from the start, passes included."""
    @property
    def transcript(self) -> str: ...
    def board(self) -> Board:
        """The game's end position, its moves in ``move_stack``."""

def games(
    path: Union[str, os.PathLike[str]],
    *,
    players: Union[None, str, os.PathLike[str]] = None,
    tournaments: Union[None, str, os.PathLike[str]] = None,
) -> list[Game]:
    """Every game of a WTHOR database, replayed; names from ``WTHOR.JOU``/``WTHOR.TRN``."""

class Analysis:
    """Every legal move's score (best first), the position's score and the expected line: every
    field of the JSON report that ``ply othello analyze --json`` and the web API print."""

    @property
    def size(self) -> int: ...
    @property
    def position(self) -> str:
        """``size * size`` cells row by row: ``X`` black, ``O`` white, ``-`` empty."""
    @property
    def turn(self) -> str: ...
    @property
    def status(self) -> str:
        """``"play"``, ``"pass"`` or ``"over"``."""
    @property
    def empties(self) -> int: ...
    @property
    def discs(self) -> dict[str, int]:
        """``{"X": black, "O": white}``."""
    @property
    def score(self) -> Score:
        """An ``int`` when proven, a ``float`` when estimated."""
    @property
    def proven(self) -> bool: ...
    @property
    def all_exact(self) -> bool: ...
    @property
    def confidence(self) -> Optional[int]:
        """The solver's selective pass's confidence in percent when it gave the best move."""
    @property
    def best(self) -> Optional[str]:
        """A square, ``"pass"`` when the side to move must pass, ``None`` at the end."""
    @property
    def line(self) -> list[str]: ...
    @property
    def moves(self) -> list[MoveScore]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def elapsed_ms(self) -> int: ...
    @property
    def engine(self) -> str:
        """``"solver"``, ``"midgame"``, ``"mixed"``, ``"book"`` or ``"selective"``."""
    @property
    def opening(self) -> Optional[str]:
        """The standard name of the opening, when the position (or the game's moves) has one."""

def solve(
    board: BoardLike, *, threads: int = 1, hash_mb: int = 16, all_moves: bool = False
) -> SolveResult:
    """The exact score, a best move and a line; with ``all_moves`` every move's exact score.
    Releases the GIL; Ctrl-C stops it.

    ``hash_mb`` is the table the threads share (each adds one of 1 MB of its own), with the
    same default as ``ply othello solve``."""

def analyze(
    board: BoardLike,
    *,
    time: Optional[float] = None,
    depth: Optional[int] = None,
    threads: int = 1,
    book: Union[None, bool, Book, str, os.PathLike[str]] = None,
    solver: bool = True,
) -> Analysis:
    """Every move's score, exact or estimated: within ``time`` seconds (1 by default) or
    ``depth`` plies of the midgame engine, as ``ply othello analyze`` takes them. ``book``:
    ``None`` for the shipped opening book, ``False`` for none, a ``Book`` or a path to a
    book file (ply's, or Edax's ``.dat``) to answer from instead."""

def perft(board: BoardLike, depth: int) -> int:
    """Leaves of the game tree to ``depth`` plies (a pass is a ply)."""

def opening_name(board: Board) -> Optional[str]:
    """The standard name of the opening of ``board``'s game (``"Tiger"``, ``"Rose"``, ...):
    that of the last position of its moves that has one, found up to the board's symmetries,
    so mirror images and transpositions are named too; ``None`` before the first named
    position, off the named lines and on 4x4 and 6x6 boards."""

class EngineError(RuntimeError):
    """An engine failed: it could not start, exited, stayed silent past its bound, named an
    illegal move or answered outside its protocol. The message names the engine and the
    command."""

class Limit:
    """How long a move may think, as python-chess's ``Limit``: one of a fixed ``time`` in
    seconds, a ``depth`` in plies (1 to 60), or a game clock (``white_clock``/``black_clock``:
    seconds left, ``white_inc``/``black_inc`` added after each move)."""

    def __init__(
        self,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        white_clock: Optional[float] = None,
        black_clock: Optional[float] = None,
        white_inc: Optional[float] = None,
        black_inc: Optional[float] = None,
    ) -> None: ...
    @property
    def time(self) -> Optional[float]: ...
    @property
    def depth(self) -> Optional[int]: ...
    @property
    def white_clock(self) -> Optional[float]: ...
    @property
    def black_clock(self) -> Optional[float]: ...
    @property
    def white_inc(self) -> Optional[float]: ...
    @property
    def black_inc(self) -> Optional[float]: ...

class PlayResult:
    """What ``SimpleEngine.play`` returns: the ``move`` (a square name or ``"pass"``), the
    reply the engine expects (``ponder``) and its ``info`` (as ``analyse`` returns it)."""

    @property
    def move(self) -> str: ...
    @property
    def ponder(self) -> Optional[str]: ...
    @property
    def info(self) -> dict[str, Any]: ...

class SimpleEngine:
    """An engine behind python-chess's calls; use it in a ``with`` block or call ``quit()``."""

    @staticmethod
    def ply(
        *, threads: int = 1, hash_mb: Optional[int] = None, book: bool = True, ponder: bool = False
    ) -> SimpleEngine:
        """ply itself, in this process."""
    @staticmethod
    def popen_gtp(command: str) -> SimpleEngine:
        """A GTP engine started by the shell command line ``command``."""
    @staticmethod
    def popen_nboard(command: str) -> SimpleEngine:
        """An NBoard engine started by the shell command line ``command``."""
    @staticmethod
    def api(url: str) -> SimpleEngine:
        """A ``ply serve`` at ``url`` (``http://HOST:PORT``), through its JSON API."""
    @property
    def name(self) -> str: ...
    def play(self, board: BoardLike, limit: Limit) -> PlayResult:
        """The move the engine plays in ``board`` under ``limit``."""
    def analyse(self, board: BoardLike, limit: Limit) -> dict[str, Any]:
        """``pv`` (the expected line, the engine's move first) and, where the engine says
        them, ``score`` (discs for the side to move), ``proven``, ``depth``, ``nodes``,
        ``book``, ``ponder_hit``, ``source`` (which of ply's searches answered: ``"book"``,
        ``"midgame"``, ``"solver"``, ``"mixed"`` or ``"selective"``; ``None`` from another
        engine) and ``budget`` (the seconds the engine gave itself, or ``None``)."""
    def quit(self) -> None:
        """Ends the engine (a program is asked to quit, then killed if it stays)."""
    def __enter__(self) -> SimpleEngine: ...
    def __exit__(self, *args: object) -> bool: ...

class MatchGame:
    """A game of a match, as a record."""

    @property
    def black(self) -> str: ...
    @property
    def white(self) -> str: ...
    @property
    def opening(self) -> str:
        """The opening's moves, as a transcript."""
    @property
    def transcript(self) -> str: ...
    @property
    def moves(self) -> list[str]:
        """Every move from the start, the opening's and passes included."""
    @property
    def ggf(self) -> str:
        """The game as a GGF record: players, moves, result (``:t`` for a loss on time)."""
    @property
    def black_score(self) -> int: ...
    @property
    def flagged(self) -> Optional[str]:
        """``"X"`` or ``"O"``: the side that lost on time, if one did."""
    @property
    def times(self) -> tuple[float, float]:
        """Black's and white's thinking time, in seconds."""
    def board(self) -> Board:
        """The final position, its moves in ``move_stack``."""
    def points(self, side: str) -> float:
        """1 for a win of ``side`` (``"X"`` or ``"O"``), 0.5 for a draw, 0 for a loss."""

def play_match(
    first: SimpleEngine,
    second: SimpleEngine,
    openings: list[BoardLike],
    limit: Optional[Limit] = None,
    *,
    limits: Optional[tuple[Limit, Limit]] = None,
) -> list[MatchGame]:
    """Every opening twice, ``first`` as black then as white, under ``limit`` (or ``limits``:
    first's, second's); the games in that order."""
