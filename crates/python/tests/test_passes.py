"""A forced pass is a move like any other (issue 53): `analyze` and `solve` name it as the
best move, so a game loop `board.push(best)` plays through passes to the end."""

import random

from ply import othello
from ply.othello import Board


def random_prefix(size, plies, seed):
    """A board after up to `plies` random moves (passes included) from the start."""
    rng = random.Random(seed)
    b = Board(size=size)
    for _ in range(plies):
        if b.is_game_over():
            break
        b.push(rng.choice(b.legal_moves))
    return b


def test_at_a_forced_pass_the_pass_is_the_best_move_and_the_only_one():
    seen = 0
    for seed in range(150):
        # Random 4x4 games, stopped at their first forced pass (if they have one).
        rng = random.Random(seed)
        b = Board(size=4)
        while not b.is_game_over() and b.legal_moves != ["pass"]:
            b.push(rng.choice(b.legal_moves))
        if b.is_game_over():
            continue
        seen += 1
        exact = othello.solve(b)
        assert exact.best_move == "pass" and exact.line[0] == "pass"
        every = othello.solve(b, all_moves=True)
        assert [(m.move, m.index, m.score, m.exact) for m in every.moves] == [
            ("pass", 16, exact.score, True)
        ]
        a = othello.analyze(b, time=5)
        assert a.status == "pass" and a.best == "pass"
        assert [(m.move, m.index, m.score) for m in a.moves] == [("pass", 16, exact.score)]
        assert a.proven and a.score == exact.score and a.line[0] == "pass"
        # A fixed depth, no solver: the pass is still the move, its score the estimate's.
        d = othello.analyze(b, depth=2, solver=False)
        assert d.best == "pass" and [m.move for m in d.moves] == ["pass"]
        assert d.moves[0].score == d.score
    assert seen >= 20, f"only {seen} positions with a forced pass"


def play_out(b, choose):
    """Plays `choose(b)` until the game ends; returns the moves and how many were passes."""
    moves = []
    while not b.is_game_over():
        mv = choose(b)
        b.push(mv)
        moves.append(mv)
    return moves, moves.count("pass")


def test_whole_games_play_through_passes_with_push_of_the_solvers_best_move():
    passes = 0
    for size, plies in ((4, 3), (6, 22)):
        for seed in range(60 if size == 4 else 8):
            b = random_prefix(size, plies, seed)
            if b.is_game_over():
                continue
            want = othello.solve(b).score
            mover = b.turn
            _, n = play_out(b, lambda x: othello.solve(x).best_move)
            passes += n
            # Perfect play from both sides ends on the score the solver promised.
            black = b.outcome().score
            assert (black if mover == "X" else -black) == want
    assert passes >= 10, f"only {passes} passes met"


def test_whole_games_play_through_passes_with_push_of_the_analysis_best():
    passes = 0
    for seed in range(60):
        b = random_prefix(4, 2, seed)
        moves, n = play_out(b, lambda x: othello.analyze(x, depth=3).best)
        passes += n
        assert all(m is not None for m in moves)
    assert passes >= 5, f"only {passes} passes met"
