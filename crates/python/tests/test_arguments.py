"""What issue 53 found missing in Python besides passes and files: transcripts wherever a
board is taken, exact scores as `int` (estimates as `float`), `solve(all_moves=True)`, and
an ImportError that says how to install OpenSpiel."""

import importlib
import subprocess
import sys

import pytest

from ply import othello
from ply.othello import Board


def test_a_transcript_is_a_board_everywhere(ply_bin):
    b = Board.from_transcript("f5d6")
    a, want = othello.analyze("f5d6", depth=3, book=False), othello.analyze(b, depth=3, book=False)
    assert [(m.move, m.score) for m in a.moves] == [(m.move, m.score) for m in want.moves]
    assert a.position == want.position and a.turn == "X"
    assert othello.perft("f5", 3) == othello.perft(Board.from_transcript("f5"), 3)
    # A 4x4 game's transcript is played on the 4x4 board, as the command line plays it.
    four = "b1a1"
    assert othello.solve(four).score == othello.solve(Board.from_transcript(four, size=4)).score
    # Cells and side to move, as the command line takes them.
    assert othello.solve("XXXXXXXXXXXO---- O").best_move == "pass"
    cli = subprocess.run(
        [ply_bin, "othello", "analyze", "f5d6", "--depth", "2", "--no-book", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert '"position":"' + othello.analyze("f5d6", depth=2, book=False).position in cli


def test_bad_board_text_is_a_value_error_and_other_types_a_type_error():
    with pytest.raises(ValueError, match=r"^board: transcript: move 2 \(`f5`\) .*f5 is already taken"):
        othello.analyze("f5f5")
    with pytest.raises(ValueError, match="^board: neither a transcript"):
        othello.solve("hello")
    with pytest.raises(TypeError, match=r"^board: expected a Board or a string .*, got int$"):
        othello.perft(3, 1)


def test_exact_scores_are_ints_and_estimates_floats():
    exact = othello.analyze(Board(size=4), time=5)
    assert exact.proven and type(exact.score) is int and exact.score == -10
    assert all(type(m.score) is int for m in exact.moves)
    assert "score=-10," in repr(exact) and "score=-10," in repr(exact.moves[0])
    estimate = othello.analyze(Board(), depth=2, book=False, solver=False)
    assert not estimate.proven and type(estimate.score) is float
    assert all(type(m.score) is float and not m.exact for m in estimate.moves)
    assert type(othello.solve(Board(size=4)).score) is int


def test_solve_all_moves_gives_every_moves_exact_score():
    b = Board.from_transcript("b1", size=4)
    r = othello.solve(b, all_moves=True)
    assert sorted(m.move for m in r.moves) == sorted(b.legal_moves)
    for m in r.moves:
        child = b.copy()
        child.push(m.move)
        assert m.score == -othello.solve(child).score and m.exact and type(m.score) is int
        assert m.index == b.move_index(m.move) and m.depth == 11 and not m.book
    assert [m.score for m in r.moves] == sorted((m.score for m in r.moves), reverse=True)
    assert r.moves[0].score == r.score
    assert othello.solve(b).moves is None
    over = Board("XXXX" "XXXX" "XXXX" "XXX-", "O")
    assert othello.solve(over, all_moves=True).moves == []


def test_importing_the_openspiel_adapter_without_openspiel_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now fails
    monkeypatch.delitem(sys.modules, "ply.openspiel", raising=False)
    with pytest.raises(ImportError, match="pip install open_spiel") as e:
        importlib.import_module("ply.openspiel")
    assert "pyspiel" in str(e.value)
