"""Looking positions up in a `Book` (the library's one book type): the shipped 6x6 exact book
and 8x8 searched book, read from their files."""

from pathlib import Path

import pytest

from ply import othello
from ply.othello import Board

DATA = Path(__file__).resolve().parents[2] / "othello" / "data"


def test_the_exact_6x6_book_gives_the_optimal_move_and_the_exact_value():
    book = othello.Book(DATA / "book6.bin")
    assert (book.size, book.kind) == (6, "exact")
    start = Board(size=6)
    assert start in book
    best = book.lookup(start)
    # 6x6 is a white win by 4 (16-20): -4 for black to move.
    assert best.move in start.legal_moves and best.score == -4 and type(best.score) is int
    assert best.exact and best.book and best.depth == 32
    moves = book.moves(start)
    assert [(m.move, m.score, m.exact) for m in moves] == [(best.move, -4, True)]
    # A mirror image of the start's child is held too, with its move mapped onto it.
    for mv in start.legal_moves:
        child = start.copy()
        child.push(mv)
        assert child in book and book.lookup(child).move in child.legal_moves


def test_the_searched_8x8_book_scores_every_move_as_the_analysis_does():
    book = othello.Book(str(DATA / "book8.bin"))
    assert (book.size, book.kind) == (8, "searched")
    for board in (Board(), "f5", "f5d6", Board.from_transcript("f5f6")):
        a = othello.analyze(board, depth=1)
        assert a.engine == "book"
        moves = book.moves(board)
        assert {m.move: m.score for m in moves} == {m.move: m.score for m in a.moves}
        assert all(m.book and not m.exact and type(m.score) is float for m in moves)
        assert [m.score for m in moves] == sorted((m.score for m in moves), reverse=True)
        best = book.lookup(board)
        assert (best.move, best.score) == (a.best, a.score)


def test_positions_the_book_does_not_hold(data):
    book = othello.Book(DATA / "book8.bin")
    # An endgame of the FFO suite: far beyond any opening book.
    far = Board.from_obf((data / "ffo40-49.obf").read_text().splitlines()[0])
    assert far not in book
    assert book.moves(far) == [] and book.lookup(far) is None
    # Another board size is never in it.
    assert Board(size=6) not in book and book.moves(Board(size=4)) == []
    with pytest.raises(ValueError, match="board: transcript"):
        book.moves("f5z9")
    with pytest.raises(TypeError, match="board: expected a Board or a string"):
        book.lookup(64)
