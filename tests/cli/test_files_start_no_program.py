"""Opening a file never runs a program: a bot spec read from a file (a play record, a
match record being resumed, a tournament or balance folder being resumed) that
would start one (``ext:``) is refused in one line; only the person running seqsolve
names a program to run, on the command line.

Every test plants ``ext:touch <tmp>/PWNED`` in what the command reads and checks that
the file never appears.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import fails, ok, run

from seqsolve.bots import ProgramRefused, make_bot, starts_a_program
from seqsolve.play.table import HUMAN, Table


def planted(tmp_path: Path) -> tuple[str, Path]:
    pwned = tmp_path / "PWNED"
    return f"ext:touch {pwned}", pwned


def play_record(tmp_path: Path, seats: list[str], name: str = "game.jsonl") -> Path:
    """A play record of a game left at once, its seats then rewritten to ``seats``."""
    path = tmp_path / name
    result = run("play", "--bot", "random", "--seed", "1", "--out", str(path), "--no-review", input="quit\n")
    assert result.exit_code == 0, result.stderr
    header, game = (json.loads(line) for line in path.read_text().splitlines())
    header["config"]["bots"] = game["seats"] = seats
    path.write_text(json.dumps(header) + "\n" + json.dumps(game) + "\n")
    return path


@pytest.mark.parametrize("how", ["ext:{}", "restricted:no=corners,bot=ext:{}"])
def test_play_from_a_record_that_seats_a_program_refuses_it(tmp_path, monkeypatch, how):
    monkeypatch.chdir(tmp_path)
    spec, pwned = planted(tmp_path)
    seat = how.format(spec.removeprefix("ext:"))
    path = play_record(tmp_path, [HUMAN, seat])
    before = path.read_text()
    line = fails("play", "--from", str(path))
    assert line == (
        f"seqsolve: seat 1 of {path}:2 is an external program ({seat}), which opening a file never runs;"
        " name it with --bot to run it"
    )
    assert not pwned.exists() and path.read_text() == before
    # replay and annotate read the same record and run nothing either
    ok("replay", str(path), "--game", "0")
    ok("annotate", str(path), "--game", "0", "--iters", "5", "--seed", "1")
    assert not pwned.exists()
    # named on the command line, the person's bot takes the seat
    result = run("play", "--from", str(path), "--bot", "random", "--no-review", input="quit\n")
    assert result.exit_code == 0, result.stderr
    assert not pwned.exists()


def test_a_table_of_a_record_starts_no_program():
    """The Python side: a Table made from a record refuses a program unless told the specs are the caller's."""
    record = {
        "game": 0,
        "deal": 0,
        "variant": "classic",
        "players": 2,
        "teams": 2,
        "seed": 1,
        "stream": ["play"],
        "seats": [HUMAN, "ext:touch never"],
        "side_bot": [0, 1],
        "moves": [],
    }
    with pytest.raises(ProgramRefused, match="seat 1 of game record is an external program"):
        Table(record)
    assert starts_a_program("ext:touch x") and not starts_a_program("greedy")
    with pytest.raises(ProgramRefused):
        make_bot("restricted:no=corners,bot=ext:touch x", programs=False)


def test_resuming_a_match_file_that_names_a_program_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec, pwned = planted(tmp_path)
    ok("match", "random", "greedy", "--games", "2", "--seed", "1", "--out", "m.jsonl", "--no-progress")
    path = tmp_path / "m.jsonl"
    path.write_text(path.read_text().replace('"greedy"', json.dumps(spec)))
    before = path.read_text()
    assert "holds a different match" in fails(
        "match", "random", "greedy", "--games", "4", "--out", "m.jsonl", "--no-progress"
    )
    assert not pwned.exists() and path.read_text() == before


def test_resuming_a_tournament_folder_that_names_a_program_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec, pwned = planted(tmp_path)
    ok("tournament", "random", "greedy", "--games", "2", "--seed", "1", "--out", "t", "--no-progress")
    for path in (tmp_path / "t").iterdir():
        path.write_text(path.read_text().replace('"greedy"', json.dumps(spec)))
    assert "holds a different match" in fails(
        "tournament", "random", "greedy", "--games", "4", "--out", "t", "--no-progress"
    )
    assert not pwned.exists()


def test_resuming_a_balance_folder_whose_manifest_names_a_program_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec, pwned = planted(tmp_path)
    ok("balance", "random", "--games", "2", "--seed", "1", "--out", "b", "--no-plots", "--no-progress")
    manifest = tmp_path / "b" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["bots"] = [spec]
    manifest.write_text(json.dumps(data))
    line = fails("balance", "random", "--games", "4", "--out", "b", "--no-plots", "--no-progress")
    assert "holds a balance run with bots=" in line
    assert not pwned.exists()
