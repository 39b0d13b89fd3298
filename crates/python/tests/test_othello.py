import copy
import json
import multiprocessing
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ply import othello
from ply.othello import Board


def test_start_positions_and_moves():
    b = Board()
    assert b.size == 8 and b.turn == "X" and b.discs == (2, 2)
    assert b.legal_moves == ["d3", "c4", "f5", "e6"]
    assert b.legal_actions == [19, 26, 37, 44]
    assert Board(size=6).legal_moves == ["c2", "b3", "e4", "d5"]
    assert Board(size=4).legal_actions == [1, 4, 11, 14]


def test_indices_follow_openspiel():
    b = Board()
    assert b.move_index("a1") == 0 and b.move_index("h8") == 63 and b.move_index("pass") == 64
    assert b.move_name(19) == "d3" and b.move_name(64) == "pass"
    small = Board(size=6)
    assert small.move_index("f6") == 35 and small.move_index("pass") == 36
    assert Board(size=4).move_name(16) == "pass"
    b.push(19)
    assert b.move_stack == ["d3"]


def test_push_pop_round_trip():
    b = Board()
    start = b.copy()
    for mv in ["f5", "d6", "c3", "d3", "c4"]:
        b.push(mv)
    assert b.turn == "O"
    assert [b.pop() for _ in range(5)] == ["c4", "d3", "c3", "d6", "f5"]
    assert b == start and hash(b) == hash(start)
    with pytest.raises(IndexError):
        b.pop()


def test_hash_copy_eq():
    a, b = Board(), Board()
    a.push("d3")
    c = copy.copy(a)
    d = copy.deepcopy(a)
    c.push("c3")
    assert a != c and a == d and a.move_stack == ["d3"]
    b.push("d3")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, c, Board()}) == 3
    assert Board() != "not a board"


def test_bad_input_raises_value_error_with_the_message():
    with pytest.raises(ValueError, match="`zz` is not a square"):
        Board().push("zz")
    with pytest.raises(ValueError, match="a1 is not a legal move: it turns no disc"):
        Board().push("a1")
    with pytest.raises(ValueError, match="cannot pass: there is a legal move"):
        Board().push("pass")
    with pytest.raises(ValueError, match="move index 65"):
        Board().push(65)
    with pytest.raises(ValueError, match="size=5: expected 4, 6 or 8"):
        Board(size=5)
    with pytest.raises(ValueError, match="threads=0: expected 1 to 256"):
        othello.solve(Board(size=4), threads=0)
    with pytest.raises(ValueError, match="hash_mb=65537: expected 1 to 65536"):
        othello.solve(Board(size=4), hash_mb=65537)
    with pytest.raises(ValueError, match="time=-1"):
        othello.analyze(Board(size=4), time=-1)
    with pytest.raises(ValueError):
        Board.from_obf("XXXX X;")


def test_position_error_is_the_clis(ply_bin):
    text = "XXXX X"
    with pytest.raises(ValueError) as e:
        Board(text)
    cli = subprocess.run([ply_bin, "othello", "show", text], capture_output=True, text=True)
    assert cli.returncode == 2
    assert str(e.value) in cli.stderr


def test_cells_and_turn_and_obf():
    cells = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27
    b = Board(cells, "X")
    assert b == Board()
    assert b.obf() == cells + " X;"
    assert Board.from_obf(b.obf()) == b
    assert "a b c d e f g h" in str(b)
    with pytest.raises(ValueError, match="size=6: the cells make a 8x8 board"):
        Board(cells, "X", size=6)


def test_pass_handling():
    # Black to move with no legal move but white can move: black must pass.
    b = Board("OOOO" "OOOO" "OOOX" "OOO-", "X")
    assert not b.is_game_over()
    assert b.legal_moves == ["pass"] and b.legal_actions == [16]
    b.push("pass")
    assert b.turn == "O" and b.move_stack == ["pass"]
    assert b.pop() == "pass" and b.turn == "X"
    b.push(16)
    assert b.turn == "O"


def test_outcome():
    b = Board("XXXX" "XXXX" "XXXX" "XXX-", "O")
    assert b.is_game_over() and b.legal_moves == []
    o = b.outcome()
    assert (o.winner, o.black, o.white, o.score) == ("X", 15, 0, 16)
    assert Board().outcome() is None


def test_perft():
    assert othello.perft(Board(), 0) == 1
    assert othello.perft(Board(), 5) == 1396
    assert othello.perft(Board(), 6) == 8200
    assert othello.perft(Board(size=4), 16) == 60060


def test_4x4_start_solves_to_minus_10():
    r = othello.solve(Board(size=4))
    assert r.score == -10
    assert r.best_move in Board(size=4).legal_moves
    # The line is a real game: it replays, and ends with the score it promises.
    b = Board(size=4)
    for mv in r.line:
        b.push(mv)
    assert b.is_game_over()
    assert b.outcome().score == -10


def test_ffo_40(data):
    line = (data / "ffo40-49.obf").read_text().splitlines()[0]
    b = Board.from_obf(line)
    r = othello.solve(b, threads=2, hash_mb=64)
    assert r.score == 38
    assert r.best_move == "a2"


def test_analyze_exact_near_the_end(data):
    line = (data / "ffo40-49.obf").read_text().splitlines()[0]
    expected = {}
    for item in line.split(";")[1:]:
        if item.strip():
            mv, score = item.strip().split(":")
            expected[mv.lower()] = int(score)
    a = othello.analyze(Board.from_obf(line), time=60)
    assert a.proven and a.all_exact and a.engine in ("solver", "midgame")
    assert a.best == "a2" and a.score == 38
    for m in a.moves:
        if m.move in expected:
            assert m.score == expected[m.move], m


def test_analyze_estimates_the_opening():
    a = othello.analyze(Board(), time=0.2, book=False)
    assert a.engine == "midgame" and not a.proven and not a.all_exact
    assert sorted(m.move for m in a.moves) == sorted(Board().legal_moves)
    assert a.best in Board().legal_moves
    assert not any(m.book for m in a.moves)


def test_analyze_answers_the_8x8_opening_from_the_searched_book():
    a = othello.analyze(Board(), time=0.2)
    assert a.engine == "book" and not a.proven and a.nodes == 0
    assert sorted(m.move for m in a.moves) == sorted(Board().legal_moves)
    assert all(m.book and not m.exact and m.depth >= 10 for m in a.moves)
    assert a.depth == a.moves[0].depth


def test_analyze_answers_the_6x6_opening_from_the_book():
    start = Board(size=6)
    a = othello.analyze(start, time=1)
    assert a.proven and a.all_exact and a.engine == "book" and a.score == -4
    assert sorted(m.move for m in a.moves) == sorted(start.legal_moves)
    assert all(m.exact and m.book and m.score == -4 for m in a.moves)


def test_random_game_equals_cli_replay(ply_bin):
    rng = random.Random(13)
    for size in (4, 6, 8):
        b = Board(size=size)
        while not b.is_game_over():
            b.push(rng.choice(b.legal_actions))
        transcript = "".join(m for m in b.move_stack if m != "pass")
        out = subprocess.run(
            [ply_bin, "othello", "play", transcript, "--size", str(size), "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        cli = json.loads(out)
        assert cli["game_over"] and b.is_game_over()
        assert cli["position"] + ";" == b.obf() or cli["position"] == b.obf().rstrip(";")
        assert cli["discs"] == {"black": b.discs[0], "white": b.discs[1]}
        assert cli["score_black"] == b.outcome().score
        assert [m for m in cli["moves"] if m != "pass"] == [
            m for m in b.move_stack if m != "pass"
        ]


def test_solve_and_analyze_finished_and_passing_positions():
    over = Board("XXXX" "XXXX" "XXXX" "XXX-", "O")
    r = othello.solve(over)
    assert (r.score, r.best_move) == (-16, None)
    # Black must pass; white takes d4 and every disc: -16 for black.
    passing = Board("OOOO" "OOOO" "OOOX" "OOO-", "X")
    r = othello.solve(passing)
    # The forced pass is the move to play (issue 53: it was None, and push(best) failed).
    assert (r.score, r.best_move, r.line) == (-16, "pass", ["pass", "d4"])
    a = othello.analyze(passing, time=1)
    assert a.proven and a.score == -16 and a.best == "pass"
    assert [(m.move, m.index, m.score, m.exact) for m in a.moves] == [("pass", 16, -16, True)]
    a = othello.analyze(over, time=0.1)
    assert a.moves == [] and a.best is None


def test_position_that_no_game_reaches_is_refused_as_the_cli_refuses_it(ply_bin):
    empty = "-" * 64
    with pytest.raises(ValueError, match="impossible position: centre square d4 is empty") as e:
        Board(empty, "X")
    cli = subprocess.run([ply_bin, "othello", "show", empty + " X"], capture_output=True, text=True)
    assert cli.returncode == 2 and str(e.value) in cli.stderr
    with pytest.raises(ValueError, match="centre square"):
        Board.from_obf("-" * 16 + " X;")


def test_errors_are_type_or_value_errors_never_overflow():
    b = Board()
    for call in [
        lambda: othello.perft(b, -1),
        lambda: othello.perft(b, 2**70),
        lambda: othello.solve(b, hash_mb=-1),
        lambda: othello.solve(b, threads=2**64),
        lambda: Board(size=-8),
        lambda: Board(size=2**64),
        lambda: b.push(2**64),
        lambda: b.push(-1),
        lambda: b.move_name(2**80),
        lambda: othello.analyze(b, depth=0),
        lambda: othello.analyze(b, time=float("nan")),
        lambda: othello.analyze(b, time=1, depth=2),
        lambda: b.observation_tensor(2),
        lambda: Board(size=4).push("e5"),
    ]:
        with pytest.raises(ValueError):
            call()
    for call in [
        lambda: othello.perft(b, "3"),
        lambda: othello.perft(b, 3.0),
        lambda: othello.solve(b, threads="2"),
        lambda: Board(size="8"),
        lambda: b.push(3.5),
        lambda: b.push(None),
        lambda: othello.analyze(b, time="1"),
        lambda: Board.from_transcript(42),
    ]:
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match=r"hash_mb=-1: expected 1 to 65536"):
        othello.solve(b, hash_mb=-1)
    with pytest.raises(ValueError, match=r"depth=-1: expected 0 to 64"):
        othello.perft(b, -1)
    with pytest.raises(ValueError, match=r"size=-8: expected 4, 6 or 8"):
        Board(size=-8)
    with pytest.raises(TypeError, match="move: expected a square name"):
        b.push(3.5)
    assert b.move_stack == []


def test_from_transcript():
    b = Board.from_transcript("f5d6c3")
    assert b.move_stack == ["f5", "d6", "c3"] and b.history() == [37, 43, 18]
    replay = Board()
    for mv in ["f5", "d6", "c3"]:
        replay.push(mv)
    assert b == replay
    # The passes a transcript leaves out are in the moves; the size is a keyword.
    small = Board(size=4)
    rng = random.Random(5)
    while not small.is_game_over():
        small.push(rng.choice(small.legal_actions))
    text = "".join(m for m in small.move_stack if m != "pass")
    again = Board.from_transcript(text, size=4)
    assert again.move_stack == small.move_stack and again == small
    with pytest.raises(ValueError, match="a1"):
        Board.from_transcript("a1")


def test_openspiel_state_methods():
    b = Board()
    assert b.current_player() == 0 and b.returns() == [0.0, 0.0] and b.history() == []
    t = list(b.observation_tensor())
    assert len(t) == 3 * 64
    empty, mine, theirs = t[:64], t[64:128], t[128:]
    # Black to move: black's discs (e4 = 28, d5 = 35) are the player's plane.
    assert [i for i, v in enumerate(mine) if v] == [28, 35]
    assert [i for i, v in enumerate(theirs) if v] == [27, 36]
    assert sum(empty) == 60
    # White's view swaps the two planes.
    w = list(b.observation_tensor(1))
    assert w[64:128] == theirs and w[128:] == mine
    mask = list(b.legal_actions_mask())
    assert len(mask) == 65 and [i for i, v in enumerate(mask) if v] == b.legal_actions
    b.push("d3")
    assert b.current_player() == 1 and b.history() == [19]
    over = Board("XXXX" "XXXX" "XXXX" "XXX-", "O")
    assert over.current_player() == -4 and over.returns() == [1.0, -1.0]
    assert list(over.legal_actions_mask()) == [0] * 17
    with pytest.raises(ValueError, match="give the player"):
        over.observation_tensor()
    assert len(over.observation_tensor(0)) == 48
    # A pass is action n * n, and it is in the history.
    passing = Board("OOOO" "OOOO" "OOOX" "OOO-", "X")
    passing.push(16)
    assert passing.history() == [16]


def test_observation_tensor_is_numpy_when_numpy_is_installed():
    np = pytest.importorskip("numpy")
    t = Board(size=6).observation_tensor()
    assert isinstance(t, np.ndarray) and t.dtype == np.float32 and t.shape == (108,)
    assert t.reshape(3, 6, 6)[0].sum() == 32
    m = Board(size=6).legal_actions_mask()
    assert isinstance(m, np.ndarray) and m.dtype == np.bool_ and m.sum() == 4


def test_tensors_are_lists_without_numpy():
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from ply.othello import Board\n"
        "b = Board(size=4)\n"
        "t, m = b.observation_tensor(), b.legal_actions_mask()\n"
        "assert type(t) is list and len(t) == 48 and t[16 + 6] == 1.0, t\n"
        "assert m == [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0], m\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_analyze_takes_the_clis_options():
    start6 = Board(size=6)
    a = othello.analyze(start6, depth=2, book=False, solver=False)
    assert a.engine == "midgame" and not a.proven and a.depth == 2
    assert othello.analyze(start6, depth=2).engine == "book"
    # A depth that reaches the end of the game hands over to the exact solver.
    a = othello.analyze(Board(size=4), depth=12, threads=2)
    assert a.proven and a.all_exact and a.score == -10


class Tagged(Board):
    """A subclass with an attribute of its own. As with any extension type, the arguments
    reach the board through `__new__`; `__init__` passes none on."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.tag = "mine"

    def corners(self):
        n = self.size
        return [self.move_name(i) for i in (0, n - 1, n * (n - 1), n * n - 1)]


def test_pickle_round_trip_keeps_position_moves_and_subclass():
    b = Board.from_transcript("f5d6c3d3c4")
    again = pickle.loads(pickle.dumps(b))
    assert type(again) is Board and again == b and again.move_stack == b.move_stack
    assert again.pop() == "c4" and again == Board.from_transcript("f5d6c3d3")
    # A set-up position keeps its start: the moves are replayed from it.
    small = Board("OOOO" "OOOO" "OOOX" "OOO-", "X")
    small.push("pass")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        s2 = pickle.loads(pickle.dumps(small, protocol=protocol))
        assert s2 == small and s2.move_stack == ["pass"] and s2.pop() == "pass" and s2.turn == "X"

    t = Tagged(size=6)
    t.push("c2")
    t.extra = [1, 2]
    t2 = pickle.loads(pickle.dumps(t))
    assert type(t2) is Tagged and t2 == t and (t2.tag, t2.extra) == ("mine", [1, 2])
    assert t2.corners() == ["a1", "f1", "a6", "f6"]
    c = t.copy()
    d = copy.deepcopy(t)
    assert type(c) is Tagged and type(d) is Tagged and c.extra is t.extra and d.extra is not t.extra
    assert d.extra == [1, 2] and d.move_stack == ["c2"]
    assert type(Tagged.from_transcript("c2", size=6)) is Tagged


def _perft3(board):
    return othello.perft(board, 3)


def test_boards_travel_to_worker_processes():
    boards = [Board(size=n) for n in (4, 6, 8)] + [Board.from_transcript("f5d6")]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        counts = pool.map(_perft3, boards)
    assert counts == [othello.perft(b, 3) for b in boards]


def test_analysis_has_every_field_of_the_json_report(ply_bin):
    # A fixed depth without the book searches the same nodes in both.
    moves = "f5d6c3d3c4f4"
    a = othello.analyze(Board.from_transcript(moves), depth=3, book=False)
    out = subprocess.run(
        [ply_bin, "othello", "analyze", moves, "--depth", "3", "--no-book", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cli = json.loads(out)
    for key, value in cli.items():
        mine = getattr(a, key)
        if key == "elapsed_ms":
            assert isinstance(mine, int) and mine >= 0
        elif key == "moves":
            assert [
                {"move": m.move, "score": m.score, "exact": m.exact, "depth": m.depth, "book": m.book}
                for m in mine
            ] == value
        else:
            assert mine == value, key
    assert a.status == "play" and a.confidence is None and sum(a.discs.values()) == 4 + 6


def test_type_errors_name_the_argument_and_the_type():
    with pytest.raises(TypeError, match="^cells: expected a string, got int$"):
        Board(123)
    with pytest.raises(TypeError, match="^turn: expected a string, got int$"):
        Board("-" * 16, 1)
    with pytest.raises(TypeError, match="^transcript: expected a string, got bytes$"):
        Board.from_transcript(b"f5")
    # A bool is not a square, nor a number of threads.
    with pytest.raises(TypeError, match="^move: expected .* or an index, got bool$"):
        Board().push(True)
    with pytest.raises(TypeError, match="^threads: expected an integer, got bool$"):
        othello.analyze(Board(), depth=1, threads=True)


def test_analyze_answers_from_a_chosen_book_file_or_book(ply_bin, tmp_path):
    # The shipped 8x8 book exported as Edax's .dat, then imported back as ply's file: both
    # answer, as a path or as a Book, and say what the CLI says.
    shipped = Path(__file__).resolve().parents[2] / "othello" / "data" / "book8.bin"
    dat, own = tmp_path / "b.dat", tmp_path / "b.bin"
    subprocess.run([ply_bin, "othello", "book", "export", shipped, "--out", dat], check=True)
    subprocess.run([ply_bin, "othello", "book", "import", dat, "--out", own], check=True)
    board = Board.from_transcript("f5d6")
    cli = subprocess.run(
        [ply_bin, "othello", "analyze", "f5d6", "--depth", "2", "--json", "--book", dat],
        capture_output=True, text=True, check=True,
    )
    want = {m["move"]: (m["score"], m["book"]) for m in json.loads(cli.stdout)["moves"]}
    for book in (dat, str(own), othello.Book(dat), othello.Book(own)):
        a = othello.analyze(board, depth=2, book=book)
        assert {m.move: (m.score, m.book) for m in a.moves} == want
        # The Edax book keeps the moves that stay in it and the best other one: some of
        # this position's are the engine's.
        assert a.engine == "mixed" and any(m.book for m in a.moves) and not all(m.book for m in a.moves)
    b = othello.Book(dat)
    assert (b.size, b.kind, len(b)) == (8, "partial", len(othello.Book(own)))
    assert othello.analyze(board, depth=2, book=False).engine == "midgame"
    with pytest.raises(FileNotFoundError, match="missing.dat: no such file"):
        othello.Book(tmp_path / "missing.dat")
    torn = tmp_path / "torn.dat"
    torn.write_bytes(dat.read_bytes()[:100])
    # Cut inside the first position (which field, depends on the book's first records): the
    # message names the position, the field and the byte where the file ends.
    with pytest.raises(
        ValueError,
        match=r"torn.dat: .*position 1 \(byte \d+\): the \w+ \(byte \d+\): the file ends at byte 100",
    ):
        othello.analyze(board, book=torn)
    with pytest.raises(TypeError, match="book"):
        othello.analyze(board, book=3)
