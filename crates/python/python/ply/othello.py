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
"""

from ._ply import othello as _native

__all__ = ["Analysis", "Board", "Book", "MoveScore", "Outcome", "SolveResult", "analyze", "perft", "solve"]
globals().update({n: getattr(_native, n) for n in __all__})

# The standard opening names (src/othello/opening.rs).
__all__.append("opening_name")
opening_name = _native.opening_name
