"""The OpenSpiel adapter (`ply.openspiel`) against OpenSpiel's own Othello, and OpenSpiel's
tools running on it. OpenSpiel comes from PyPI (`open_spiel`), installed by scripts/test."""

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import ply.openspiel  # noqa: F401  (registers the game)
from ply.othello import Board


def test_the_game_is_registered_for_every_size():
    for n in (4, 6, 8):
        game = pyspiel.load_game(f"python_ply_othello(size={n})")
        assert game.num_distinct_actions() == n * n + 1
        assert game.observation_tensor_shape() == [3, n, n]
        assert game.num_players() == 2 and game.max_game_length() == 2 * n * n
        state = game.new_initial_state()
        assert state.legal_actions() == Board(size=n).legal_actions
    assert pyspiel.load_game("python_ply_othello").get_parameters() == {"size": 8}
    with pytest.raises(Exception, match="size=5: `5` is not a board size"):
        pyspiel.load_game("python_ply_othello(size=5)")


def test_a_thousand_random_games_agree_with_openspiels_othello():
    """Every legal action (a pass is action 64), player, terminal state, return, history and
    observation, of the adapter and of ply's Board, equals OpenSpiel's at every ply."""
    theirs_game = pyspiel.load_game("othello")
    ours_game = pyspiel.load_game("python_ply_othello")
    rng = random.Random(2024)
    passes = terminal_passes = 0
    results = {1.0: 0, -1.0: 0, 0.0: 0}
    for _ in range(1000):
        theirs = theirs_game.new_initial_state()
        ours = ours_game.new_initial_state()
        while True:
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal == ours.board.legal_actions
            assert ours.current_player() == theirs.current_player() == ours.board.current_player()
            assert ours.is_terminal() == theirs.is_terminal() == ours.board.is_game_over()
            assert ours.returns() == theirs.returns() == ours.board.returns()
            assert ours.history() == theirs.history() == ours.board.history()
            assert list(ours.legal_actions_mask()) == theirs.legal_actions_mask()
            if theirs.is_terminal():
                for p in (0, 1):
                    assert ours.observation_tensor(p) == theirs.observation_tensor(p)
                break
            assert ours.observation_tensor() == theirs.observation_tensor()
            assert np.array_equal(ours.board.observation_tensor(), theirs.observation_tensor())
            action = rng.choice(legal)
            if action == 64:
                passes += 1
            theirs.apply_action(action)
            ours.apply_action(action)
        results[theirs.returns()[0]] += 1
    # The games were varied: passes happened, and each result came out.
    assert passes > 0
    assert all(results.values()), results


def test_openspiels_mcts_bot_finishes_a_6x6_game():
    game = pyspiel.load_game("python_ply_othello", {"size": 6})
    bots = [
        mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=20,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
            random_state=np.random.RandomState(seed),
        )
        for seed in (1, 2)
    ]
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        plies += 1
    assert plies >= 20
    black, white = state.board.discs
    expected = [0.0, 0.0] if black == white else ([1.0, -1.0] if black > white else [-1.0, 1.0])
    assert state.returns() == expected
    # The same game replayed on ply's Board ends the same way.
    replay = Board(size=6)
    for a in state.history():
        replay.push(a)
    assert replay == state.board and replay.is_game_over()


def test_clones_are_independent():
    game = pyspiel.load_game("python_ply_othello", {"size": 4})
    state = game.new_initial_state()
    state.apply_action(1)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() == [1] and len(clone.history()) == 2
    assert str(state) != str(clone)


def test_openspiels_cpp_bots_and_evaluation_run_on_every_size():
    for n in (4, 6, 8):
        game = pyspiel.load_game("python_ply_othello", {"size": n})
        mcts_bot = pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, n), 2.0, 10, 1000, False, n, False
        )
        bots = [mcts_bot, pyspiel.make_uniform_random_bot(1, n)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
        assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0]), returns
