"""`othello.opening_name`: the standard names, found by position up to the board's symmetries,
kept by a game that has left the named lines."""

import pytest

from ply.othello import Board, opening_name


def test_the_tiger_from_f5_and_its_mirror_images():
    for moves in ["f5d6c3d3c4", "d3c5f6f5e6", "c4e3f6e6f5", "e6f4c3c4d3"]:
        assert opening_name(Board.from_transcript(moves)) == "Tiger", moves


def test_a_transposition_is_named_too():
    # The Tiger's moves in another order that reaches its position.
    tiger = Board.from_transcript("f5d6c3d3c4")
    other = Board.from_transcript("f5d6c4d3c3")
    assert other == tiger
    assert opening_name(other) == "Tiger"


def test_a_game_keeps_its_name_and_other_positions_have_none():
    b = Board.from_transcript("f5d6c3d3c4")
    b.push("g5")
    assert opening_name(b) == "Tiger"
    # The same position set up without its moves is on no named line.
    assert opening_name(Board.from_obf(b.obf())) is None
    assert opening_name(Board()) is None
    assert opening_name(Board.from_transcript("f5")) is None
    assert opening_name(Board(size=6)) is None
    assert opening_name(Board.from_transcript("f5d6c3d3c4f4f6")) == "Stephenson"


def test_anything_but_a_board_is_a_type_error():
    with pytest.raises(TypeError):
        opening_name("f5d6c3d3c4")
