"""ply: Othello (4x4, 6x6, 8x8) and tic-tac-toe, solved.

>>> from ply import othello, tictactoe
>>> othello.solve(othello.Board(size=4)).score
-10
>>> tictactoe.Board().value()
Value(outcome='draw', remoteness=9)
"""

from . import othello, tictactoe

__all__ = ["othello", "tictactoe"]
