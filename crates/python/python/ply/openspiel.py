"""ply's Othello as an OpenSpiel game, on 4x4, 6x6 and 8x8 boards.

Importing this module registers ``python_ply_othello`` with pyspiel (OpenSpiel, ``pip
install open_spiel``), with a ``size`` parameter (4, 6 or 8; 8 by default). Its actions,
players, returns and observation tensor are those of OpenSpiel's own ``othello`` (which
has only 8x8): ``row * n + col`` for a square, ``n * n`` for a pass; player 0 is black and
moves first; returns are 1 and -1 for more and fewer discs at the end, 0 for a draw; the
observation is three planes (empty, the player's discs, the opponent's). So OpenSpiel's
MCTS, AlphaZero and evaluation tools run on every size.

>>> import pyspiel
>>> import ply.openspiel
>>> game = pyspiel.load_game("python_ply_othello", {"size": 6})
>>> state = game.new_initial_state()
>>> state.legal_actions()
[8, 13, 22, 27]
>>> game.observation_tensor_shape()
[3, 6, 6]
>>> state.apply_action(8)
>>> state.current_player(), state.history()
(1, [8])
"""

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as e:  # OpenSpiel (and numpy) are optional: only this module needs them.
    raise ImportError(
        f"ply.openspiel needs OpenSpiel and numpy ({e.name or e} is missing): "
        "pip install open_spiel numpy",
        name=e.name,
    ) from e

from .othello import Board

__all__ = ["GAME_NAME", "OthelloGame", "OthelloState"]

GAME_NAME = "python_ply_othello"
"""The name to give ``pyspiel.load_game``."""

_SIZES = (4, 6, 8)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Othello on 4x4, 6x6 or 8x8 (ply)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"size": 8},
)


class OthelloGame(pyspiel.Game):
    """Othello on an n x n board (``size`` 4, 6 or 8), with OpenSpiel's numbering."""

    def __init__(self, params=None):
        params = dict(params or {})
        size = params.get("size", 8)
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"size: expected an integer, got {type(size).__name__}")
        if size not in _SIZES:
            # The library's words for a bad size (`BoardSize`'s parser), named by parameter.
            raise ValueError(f"size={size}: `{size}` is not a board size: use 4, 6 or 8")
        cells = size * size
        info = pyspiel.GameInfo(
            num_distinct_actions=cells + 1,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # As OpenSpiel's othello: a bound that leaves room for passes.
            max_game_length=2 * cells,
        )
        super().__init__(_GAME_TYPE, info, {"size": size})
        self.size = size

    def new_initial_state(self):
        """The start position, black to move."""
        return OthelloState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer (three planes), or the public-information observer for
        information states."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BoardObserver(self.size, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class OthelloState(pyspiel.State):
    """A position of :class:`OthelloGame`, kept as a :class:`ply.othello.Board`
    (``state.board``)."""

    def __init__(self, game):
        super().__init__(game)
        self.board = Board(size=game.size)

    def current_player(self):
        player = self.board.current_player()
        return pyspiel.PlayerId.TERMINAL if player < 0 else player

    def _legal_actions(self, player):
        return self.board.legal_actions

    def _apply_action(self, action):
        self.board.push(int(action))

    def _action_to_string(self, player, action):
        return self.board.move_name(int(action))

    def is_terminal(self):
        return self.board.is_game_over()

    def returns(self):
        return self.board.returns()

    def __str__(self):
        return str(self.board)


class BoardObserver:
    """Observer (OpenSpiel's PyObserver interface): the board as three planes of n x n
    cells, from the observing player's view."""

    def __init__(self, size, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        shape = (3, size, size)
        self.tensor = np.zeros(3 * size * size, np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state, player):
        self.tensor[:] = state.board.observation_tensor(player)

    def string_from(self, state, player):
        return str(state.board)


pyspiel.register_game(_GAME_TYPE, OthelloGame)
