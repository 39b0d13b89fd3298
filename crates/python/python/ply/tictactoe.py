"""Tic-tac-toe, solved: GAMESMAN values (win/draw/loss for the side to move and remoteness),
reachability with the reason a board cannot occur, final-board counts and the state-space
figures, from ply's Rust crates. Cells are 0-8 row by row.

>>> from ply.tictactoe import Board, check, stats
>>> Board("xo./.x./..o").value()
Value(outcome='win', remoteness=3)
>>> check("oo./.../...").reason
'O has more marks than X but X moves first'
>>> stats().reachable
5478
"""

from ._ply import tictactoe as _native

__all__ = ["Board", "Check", "Counts", "Stats", "Value", "check", "stats"]
globals().update({n: getattr(_native, n) for n in __all__})
