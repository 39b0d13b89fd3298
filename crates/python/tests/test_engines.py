"""Engines and matches (python-chess's shape): ply in process against ``ply gtp`` and ``ply
nboard`` run as subprocesses, ``play`` and ``analyse`` under each kind of ``Limit``, and
engines that break ending the match with an ``EngineError`` naming them."""

import shlex

import pytest

from ply.othello import Board, EngineError, Limit, SimpleEngine, play_match


def replay(game):
    """The game's transcript replayed from the start: a legal game to its end."""
    board = Board.from_transcript(game.transcript, size=6)
    assert board.is_game_over()
    return board


def test_ply_plays_ply_gtp_as_a_subprocess(ply_bin):
    command = f"{shlex.quote(str(ply_bin))} gtp --no-ponder --depth 2"
    openings = [Board(size=6), Board.from_transcript("c2b2", size=6)]
    with SimpleEngine.ply(hash_mb=2) as ply, SimpleEngine.popen_gtp(command) as gtp:
        assert gtp.name == f"GTP engine `{command}`"
        games = play_match(ply, gtp, openings, Limit(depth=2))
    assert len(games) == 4
    for i, game in enumerate(games):
        names = ("ply", gtp.name) if i % 2 == 0 else (gtp.name, "ply")
        assert (game.black, game.white) == names
        assert game.opening == ("" if i < 2 else "c2b2")
        assert game.transcript.startswith(game.opening)
        end = replay(game)
        assert game.board() == end
        assert game.black_score == end.outcome().score
        assert game.points("X") + game.points("O") == 1.0
        assert game.flagged is None
        assert "PB[" in game.ggf and "RE[" in game.ggf


def test_a_fischer_clock_reaches_a_gtp_engine_and_times_each_side(ply_bin):
    command = f"{shlex.quote(str(ply_bin))} gtp --no-ponder"
    clock = Limit(black_clock=30, white_clock=30, black_inc=1, white_inc=1)
    with SimpleEngine.ply(hash_mb=2) as ply, SimpleEngine.popen_gtp(command) as gtp:
        games = play_match(ply, gtp, [Board(size=6)], clock)
    for game in games:
        replay(game)
        black, white = game.times
        assert black > 0 and white > 0
        assert game.flagged is None


def test_play_and_analyse_answer_as_python_chess_does(ply_bin):
    board = Board(size=6)
    with SimpleEngine.ply(hash_mb=2) as ply:
        result = ply.play(board, Limit(depth=2))
        assert result.move in board.legal_moves
        assert result.info["pv"][0] == result.move
        assert isinstance(result.info["score"], float)
        info = ply.analyse("c4", Limit(time=0.05))
        assert info["depth"] >= 1 and (info["book"] or info["nodes"] >= 1)
        # ply says which of its searches answered and the time it gave itself.
        assert info["source"] in ("book", "midgame", "solver", "mixed", "selective")
        assert 0 < info["budget"] <= 0.05 and info["ponder_hit"] is False
    command = f"{shlex.quote(str(ply_bin))} nboard"
    with SimpleEngine.popen_nboard(command) as nboard:
        result = nboard.play(board, Limit(depth=2))
        assert result.move in board.legal_moves
    with pytest.raises(EngineError, match="quit already"):
        ply.play(board, Limit(depth=1))


@pytest.mark.parametrize(
    "genmove, says",
    [
        ("exit 0", "ended before answering"),
        ('printf "=%s a1\\n\\n" "$id"', "played a1, which is not a legal move"),
    ],
)
def test_an_engine_that_exits_or_cheats_ends_the_match_naming_it(genmove, says):
    fake = (
        'while read id cmd rest; do case "$cmd" in genmove) '
        + genmove
        + ' ;; *) printf "=%s\\n\\n" "$id" ;; esac; done'
    )
    with SimpleEngine.ply(hash_mb=2) as ply, SimpleEngine.popen_gtp(fake) as gtp:
        with pytest.raises(EngineError) as e:
            play_match(ply, gtp, [Board(size=6)], Limit(depth=1))
    text = str(e.value)
    assert f"GTP engine `{fake}`" in text and says in text and "genmove w" in text


def test_bad_limits_and_arguments_are_refused():
    for kwargs in [{}, {"time": 1, "depth": 2}, {"depth": 0}, {"time": -1}, {"white_inc": 1}]:
        with pytest.raises(ValueError):
            Limit(**kwargs)
    with pytest.raises(EngineError, match="cannot start|ended before answering"):
        SimpleEngine.popen_gtp("exit 3")
    with SimpleEngine.ply() as a:
        with pytest.raises(ValueError, match="two engines"):
            play_match(a, a, [Board(size=4)], Limit(depth=1))
        with pytest.raises(ValueError, match="game is over"):
            a.play(Board("XXXXXXXXXXXXXXXX", "O"), Limit(depth=1))
        # A clock for one colour only answers that colour.
        with pytest.raises(ValueError, match="white_clock"):
            a.play("c4", Limit(black_clock=5))
