import copy
import pickle

import pytest

from ply import tictactoe
from ply.tictactoe import Board, Value, check


def test_state_space_figures_of_design_md():
    s = tictactoe.stats()
    assert s.reachable == 5478
    assert s.reachable_up_to_symmetry == 765
    assert (s.finals.total, s.finals.x, s.finals.o, s.finals.draw) == (958, 626, 316, 16)
    assert (s.games.total, s.games.x, s.games.o, s.games.draw) == (255168, 131184, 77904, 46080)
    assert s.games_up_to_symmetry.total == 26830


def test_empty_board_is_a_draw():
    v = Board().value()
    assert (v.outcome, v.remoteness) == ("draw", 9)
    assert Board(first="O").value().outcome == "draw"


def test_value_and_moves():
    b = Board("xo./.x./..o")
    assert b.turn == "X"
    assert b.value().outcome == "win" and b.value().remoteness == 3
    moves = dict(b.moves())
    assert set(moves) == set(b.legal_moves) == {2, 3, 5, 6, 7}
    assert moves[3].outcome == "win" and moves[2].outcome == "draw"
    # The position's value is the best of its moves'.
    best = [c for c, v in moves.items() if v == b.value()]
    assert best


def test_count_finals_matches_the_judge_samples():
    c = Board("OX--X-XOO", first="O").count_finals()
    assert (c.total, c.o, c.x, c.draw) == (4, 1, 2, 1)
    c = Board("O-OXO-X--", first="O").count_finals()
    assert (c.total, c.o, c.x, c.draw) == (11, 9, 1, 1)
    c = Board().count_finals()
    assert (c.total, c.x, c.o, c.draw) == (958, 626, 316, 16)


def test_check_says_why_not():
    c = check("oo./.../...")
    assert not c and c.reason == "O has more marks than X but X moves first"
    c = check("xxx/ooo/...")
    assert not c.reachable and "both" in c.reason
    c = check("xxx/oo./...")
    assert c.reachable and c.is_final and c.reason is None
    with pytest.raises(ValueError, match="unknown character 'q' at position 3"):
        check("xxq")


def test_push_pop_copy_hash():
    b = Board()
    b.push(4)
    b.push(0)
    assert b.turn == "X" and str(b) == "O..\n.X.\n...\n"
    c = copy.copy(b)
    c.push(8)
    assert c != b and hash(b) == hash(Board("o../.x./..."))
    c.pop()
    assert c == b
    with pytest.raises(ValueError, match="taken"):
        b.push(4)
    with pytest.raises(ValueError, match="cell 9"):
        b.push(9)
    with pytest.raises(ValueError, match="cell 18446744073709551616"):
        b.push(2**64)
    with pytest.raises(ValueError, match="`d1` is not a cell"):
        b.push("d1")
    with pytest.raises(TypeError, match="cell: expected"):
        b.push(4.0)
    with pytest.raises(IndexError):
        Board().pop()


def test_unreachable_board_is_a_value_error():
    with pytest.raises(ValueError, match="O has more marks than X"):
        Board("oo./.../...")


def test_value_type():
    assert isinstance(Board().value(), Value)
    assert str(Board("xo./.x./..o").value()) == "win in 3"


def test_cells_by_name():
    a, b = Board(), Board()
    a.push("b2")
    b.push(4)
    assert a == b and a.move_stack == [4]
    a.push("C1")
    assert a.move_stack == [4, 2] and str(a) == "..O\n.X.\n...\n"


class Named(Board):
    """A subclass, for pickling (pickle finds classes by their module's name)."""


def test_pickle_and_subclass():
    b = Board("x../.o./...", first="X")
    b.push("c3")
    again = pickle.loads(pickle.dumps(b))
    assert again == b and again.move_stack == [8] and again.first == "X"
    again.pop()
    assert again == Board("x../.o./...")

    n = Named(first="O")
    n.push(0)
    n.name = "game 1"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        n2 = pickle.loads(pickle.dumps(n, protocol=protocol))
        assert type(n2) is Named and n2 == n and n2.name == "game 1" and n2.first == "O"
    c = copy.deepcopy(n)
    assert type(c) is Named and c.name == "game 1" and c.move_stack == [0]


def test_type_errors_name_the_argument_and_the_type():
    with pytest.raises(TypeError, match="^cells: expected a string, got int$"):
        tictactoe.check(5)
    with pytest.raises(TypeError, match="^first: expected a string, got int$"):
        tictactoe.Board(first=1)
    with pytest.raises(TypeError, match="^cell: expected .*, got bool$"):
        tictactoe.Board().push(True)
