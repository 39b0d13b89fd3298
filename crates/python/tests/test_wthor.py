"""`othello.games(path)`: WTHOR databases read by the library's one WTHOR reader, checked
against files written here byte by byte from the format's description, and against
`ply othello games --json`."""

import json
import struct
import subprocess

import pytest

from ply import othello
from ply.othello import Board


def header(games=0, names=0, year=0):
    """The 16-byte header: created 2025-01-02, 8x8 games, theoretical depth 22."""
    return bytes([20, 25, 1, 2]) + struct.pack("<IHHBBBB", games, names, year, 8, 0, 22, 0)


def square_byte(name):
    return 10 * int(name[1]) + "abcdefgh".index(name[0]) + 1


def game_record(transcript, tournament, black, white):
    """A 68-byte record of a finished game: passes are not stored."""
    b = Board.from_transcript(transcript)
    assert b.is_game_over()
    black_discs = (64 + b.outcome().score) // 2
    moves = bytes(square_byte(m) for m in b.move_stack if m != "pass")
    return struct.pack("<HHHBB", tournament, black, white, black_discs, black_discs) + moves.ljust(60, b"\0")


def names_file(names, width=20):
    return header(names=len(names)) + b"".join(n.encode("latin-1").ljust(width, b"\0") for n in names)


@pytest.fixture
def database(data, tmp_path):
    transcripts = (data / "ply-games.txt").read_text().split()
    wtb = tmp_path / "WTH_2024.wtb"
    records = [game_record(t, 0, k % 3, (k + 1) % 3) for k, t in enumerate(transcripts)]
    wtb.write_bytes(header(games=len(records), year=2024) + b"".join(records))
    jou = tmp_path / "WTHOR.JOU"
    jou.write_bytes(names_file(["Ann", "Bob", "Céline"]))
    trn = tmp_path / "WTHOR.TRN"
    trn.write_bytes(names_file(["Paris Open"], width=26))
    return transcripts, wtb, jou, trn


def test_games_are_records_with_players_year_result_and_moves(database):
    transcripts, wtb, jou, trn = database
    games = othello.games(wtb, players=jou, tournaments=str(trn))
    assert len(games) == len(transcripts) == 8
    names = ["Ann", "Bob", "Céline"]
    for k, (g, t) in enumerate(zip(games, transcripts)):
        b = Board.from_transcript(t)
        assert g.number == k + 1 and g.year == 2024 and g.tournament == "Paris Open"
        assert (g.black, g.white) == (names[k % 3], names[(k + 1) % 3])
        assert (g.black_number, g.white_number, g.tournament_number) == (k % 3, (k + 1) % 3, 0)
        assert g.black_score == b.outcome().score == 2 * g.black_discs - 64
        assert g.theoretical == g.black_discs and g.theoretical_depth == 22
        # Passes put back, as the board's moves name them.
        assert g.moves == b.move_stack and g.transcript == t
        end = g.board()
        assert end == b and end.move_stack == b.move_stack and end.is_game_over()
    assert sum("pass" in g.moves for g in games) >= 3


def test_without_names_files_players_are_numbers_only(database):
    _, wtb, _, _ = database
    g = othello.games(str(wtb))[1]
    assert (g.black, g.white, g.tournament) == (None, None, None)
    assert (g.black_number, g.white_number) == (1, 2)


def test_the_games_are_those_the_command_line_lists(database, ply_bin):
    _, wtb, jou, trn = database
    cli = subprocess.run(
        [ply_bin, "othello", "games", wtb, "--players", jou, "--tournaments", trn, "--json"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    games = othello.games(wtb, players=jou, tournaments=trn)
    assert len(cli) == len(games)
    for row, g in zip(map(json.loads, cli), games):
        for key in ("year", "tournament", "tournament_number", "black", "black_number", "white",
                    "white_number", "black_discs", "black_score", "theoretical", "theoretical_depth"):
            assert getattr(g, key) == row[key], key
        assert (g.number, g.transcript) == (row["game"], row["moves"])


def test_broken_files_are_refused_naming_the_file_record_and_byte(database, tmp_path):
    transcripts, wtb, jou, _ = database
    with pytest.raises(FileNotFoundError, match="nothing.wtb: no such file"):
        othello.games(tmp_path / "nothing.wtb")
    torn = tmp_path / "torn.wtb"
    torn.write_bytes(wtb.read_bytes()[:-10])
    with pytest.raises(ValueError, match=r"torn.wtb: record 8, field `record` \(byte 492\): the file ends 58 bytes"):
        othello.games(torn)
    # Game 2's first move replaced by a1, which is no first move.
    bad = bytearray(wtb.read_bytes())
    bad[16 + 68 + 8] = 11
    (tmp_path / "bad.wtb").write_bytes(bytes(bad))
    with pytest.raises(ValueError, match=r"bad.wtb: record 2, field `moves` \(byte 92\): move 1 \(a1 by black\)"):
        othello.games(tmp_path / "bad.wtb")
    # Player 2 is not in a names file of two.
    short = tmp_path / "short.jou"
    short.write_bytes(names_file(["Ann", "Bob"]))
    with pytest.raises(ValueError, match=r"WTH_2024.wtb: record 2, field `white player`: 2 is not in .*short.jou \(it holds 2 names\)"):
        othello.games(wtb, players=short)
    with pytest.raises(ValueError, match=r"WTHOR.JOU: header, field `names \(N2\)`"):
        othello.games(jou)
    with pytest.raises(TypeError):
        othello.games(3)
