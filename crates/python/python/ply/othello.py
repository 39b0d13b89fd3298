"""Othello on 4x4, 6x6 and 8x8 boards: a python-chess style Board, the exact solver, the
analysis of every move and perft, all from ply's Rust crates.

Moves are named (``"d3"``, ``"pass"``) or numbered as OpenSpiel and pgx number them:
``row * n + col`` with a1 = 0 (row 1 at the top) and ``n * n`` for a pass, so 0-63 and 64
on 8x8, 0-35 and 36 on 6x6, 0-15 and 16 on 4x4.

>>> from ply.othello import Board, solve, perft
>>> b = Board()
>>> b.legal_moves
['d3', 'c4', 'f5', 'e6']
>>> b.push("d3"); b.push(2 * 8 + 2)   # c3 by index
>>> b.move_stack
['d3', 'c3']
>>> Board.from_transcript("d3c3").history()   # OpenSpiel's actions
[19, 18]
>>> perft(Board(), 6)
8200
>>> solve(Board(size=4)).score
-10

A transcript (or a position, an OBF line) is a board wherever one is taken; exact scores are
``int``, estimates ``float``; ``all_moves=True`` scores every move exactly:

>>> from ply.othello import analyze
>>> [m.score for m in solve("b1", all_moves=True).moves]   # 4x4, after b1
[10, -12, -14]
>>> type(analyze(Board(size=4)).score), type(analyze(Board(), depth=2, book=False).score)
(<class 'int'>, <class 'float'>)

A forced pass is a move like any other, so ``push(best)`` plays a game to its end:

>>> b = Board("OOOO" "OOOO" "OOOX" "OOO-", "X")   # black must pass
>>> solve(b).best_move, analyze(b).best, analyze(b).moves[0].index
('pass', 'pass', 16)
>>> while not b.is_game_over(): b.push(solve(b).best_move)
>>> b.move_stack
['pass', 'd4']

``Board.from_obf`` reads an OBF line as ``ply othello solve --obf`` does, Edax's unused
slots (``--:-127``) and a ``%`` comment included, and keeps the line's scores and comment:

>>> e = Board.from_obf("-----OX--XO----- X; B1:-10; A2:-10; --:-127; % the 4x4 start")
>>> e.scores, e.comment
({'b1': -10, 'a2': -10}, 'the 4x4 start')

``games(path)`` reads a WTHOR database and ``Book(path).moves(board)`` looks a position up in
an opening book file (see the README for both).

Engines as in python-chess: ply itself, any GTP or NBoard program started by command line
(``SimpleEngine.popen_gtp("edax -gtp")``, ``SimpleEngine.popen_nboard(...)``) or a ``ply
serve`` (``SimpleEngine.api(url)``), each asked with ``play`` and ``analyse`` under a
``Limit`` of time, depth or clock; ``play_match`` plays two engines from openings, both
colours, and returns the games as records:

>>> from ply.othello import Limit, SimpleEngine, play_match
>>> with SimpleEngine.ply() as a, SimpleEngine.ply() as b:
...     games = play_match(a, b, [Board(size=4)], Limit(depth=1))
>>> [(g.black, g.white) for g in games], games[0].board().is_game_over()
([('ply', 'ply'), ('ply', 'ply')], True)
>>> games[0].points("X") + games[0].points("O")
1.0
"""

from ._ply import othello as _native

__all__ = [
    "Analysis",
    "Board",
    "Book",
    "EngineError",
    "Game",
    "Limit",
    "MatchGame",
    "MoveScore",
    "Outcome",
    "PlayResult",
    "SimpleEngine",
    "SolveResult",
    "analyze",
    "games",
    "perft",
    "play_match",
    "solve",
]
globals().update({n: getattr(_native, n) for n in __all__})

# The standard opening names (src/othello/opening.rs).
__all__.append("opening_name")
opening_name = _native.opening_name
