"""OBF lines read by the library's one reader (issue 53): the project's own test set (`%`
comments), Edax's problem files (unused slots `--:-127`), the FFO files; `Board.from_obf`
keeps a line's scores and comment, and every function that takes a board takes the line."""

import copy
import pickle
import subprocess

import pytest

from ply import othello
from ply.othello import Board


def scored(line):
    """The scored moves of an OBF line, read here by hand: `MOVE:SCORE` items after the
    board, up to a `%`, Edax's `--` slots left out."""
    body = line.split("%", 1)[0]
    out = {}
    for item in body.split(";")[1:]:
        item = item.strip()
        if item and not item.startswith("--"):
            mv, score = item.split(":")
            out[mv.lower()] = int(score)
    return out


def test_the_test_sets_lines_keep_their_scores_and_comments(data):
    lines = [l for l in (data / "eval8-testset.obf").read_text().splitlines() if not l.startswith("%")]
    assert len(lines) > 100
    for line in lines:
        b = Board.from_obf(line)
        assert b.scores == scored(line) and len(b.scores) == 1
        assert b.comment == line.split("%", 1)[1].strip()
        assert b.comment.startswith("game ")
        assert b.obf() == line.split(";", 1)[0] + ";"


def test_edax_problem_lines_skip_the_unused_slots_and_score_every_move(data):
    lines = (data / "edax-shape.obf").read_text().splitlines()
    assert all("--:-127" in l for l in lines)
    for line in lines:
        b = Board.from_obf(line)
        assert b.scores == scored(line)
        assert sorted(b.scores) == sorted(b.legal_moves) and b.comment is None
        # The line's scores are the solver's, move by move.
        every = othello.solve(b, all_moves=True)
        assert {m.move: m.score for m in every.moves} == b.scores


def test_the_ffo_lines_keep_their_scores(data):
    for line in (data / "fforum-1-19.obf").read_text().splitlines():
        b = Board.from_obf(line)
        assert b.scores == scored(line) and b.scores and b.comment is None


def test_a_board_not_read_from_obf_has_no_scores():
    assert Board().scores == {} and Board().comment is None
    assert Board.from_obf("-----OX--XO----- X;").scores == {}


def test_scores_and_comment_survive_copies_and_pickles_and_score_the_first_position():
    b = Board.from_obf("-----OX--XO----- X; B1:-10; A2:-10; --:-127; % a note")
    assert (b.scores, b.comment) == ({"b1": -10, "a2": -10}, "a note")
    for c in (b.copy(), copy.copy(b), copy.deepcopy(b), pickle.loads(pickle.dumps(b))):
        assert (c.scores, c.comment) == (b.scores, b.comment) and c == b
    b.push("b1")
    assert b.scores == {"b1": -10, "a2": -10}
    back = pickle.loads(pickle.dumps(b))
    assert back.move_stack == ["b1"] and back.scores == b.scores


def test_every_function_that_takes_a_board_takes_an_obf_line(data, ply_bin):
    exact = [l for l in (data / "eval8-testset.obf").read_text().splitlines() if l.endswith(" exact")]
    line = min(exact, key=lambda l: l.split()[0].count("-"))  # the fewest empties: a quick solve
    b = Board.from_obf(line)
    assert othello.perft(line, 2) == othello.perft(b, 2)
    assert othello.solve(line).score == othello.solve(b).score == max(b.scores.values())
    a = othello.analyze(line, depth=1)
    assert a.position == b.obf().split()[0]
    # The command line reads the same line (it refused the comment: "expected MOVE:SCORE").
    shown = subprocess.run([ply_bin, "othello", "show", line], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr


def test_bad_lines_are_refused_with_the_readers_message():
    with pytest.raises(ValueError, match=r"scored move 1 \(`A1:\+2`\)"):
        Board.from_obf("-----OX--XO----- X; A1:+2;")
    with pytest.raises(ValueError, match=r"scored move 2 \(`--:x`\): `x` is not a whole number"):
        Board.from_obf("-----OX--XO----- X; B1:-10; --:x;")
