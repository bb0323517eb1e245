"""``seqsolve play`` run in-process with its input given whole: what it says to bad
lines, bad files and bots that fail, each in one line and without a traceback.

The bots are ``random`` and ``greedy`` (no search), the games seeded, and nothing
here depends on how long anything takes.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from cli_helpers import fails, run

from seqsolve.play.records import read_records

CLASSIC = ("--bot", "random", "--seed", "1", "--no-review")

#: a program that answers the handshake, then exits when it is asked for a move
QUITS_AT_FIRST_MOVE = "import sys\nprint('ready', flush=True)\nfor line in sys.stdin:\n    if line.startswith('go'):\n        sys.exit(1)\n"


def played(*args: str, input: str = "quit\n", env: dict | None = None) -> str:
    """Run ``play`` that must end well; its output."""
    result = run("play", *args, input=input, env=env)
    assert result.exit_code == 0, (result.stdout[-2000:], result.stderr, result.exception)
    assert result.stderr == ""
    return result.stdout


def program(tmp_path: Path, body: str, name: str = "bot.py") -> str:
    """The ext spec of a Python program ``body`` written into ``tmp_path``."""
    (tmp_path / name).write_text(body)
    return f"ext:{sys.executable} {tmp_path / name}"


def only_files(tmp_path: Path) -> set[str]:
    return {p.name for p in tmp_path.iterdir()}


def record_of(path: Path) -> dict:
    header, games = read_records(str(path))
    assert header["config"]["command"] == "play" and len(games) == 1
    return games[0]


def write_record(path: Path, header: dict, *games: dict) -> None:
    path.write_text("".join(json.dumps(x) + "\n" for x in (header, *games)))


def a_record(tmp_path: Path, *args: str) -> tuple[dict, dict]:
    """The header and game of a fresh play record (a game left at once)."""
    played(*args, "--out", str(tmp_path / "made.jsonl"))
    lines = (tmp_path / "made.jsonl").read_text().splitlines()
    (tmp_path / "made.jsonl").unlink()
    (tmp_path / "made.sqn").unlink(missing_ok=True)
    (tmp_path / "made.stn").unlink(missing_ok=True)
    return json.loads(lines[0]), json.loads(lines[1])


# ---------------------------------------------------------------- commands at the prompt


@pytest.mark.parametrize("line", ["moves extra", "quit now", "hint please", "undo 2"])
def test_a_command_with_words_after_it_says_so(tmp_path, monkeypatch, line):
    monkeypatch.chdir(tmp_path)
    out = played(*CLASSIC, input=f"{line}\nquit\n")
    word = line.split()[0]
    assert f"not done: {word} takes nothing after it" in out
    assert "bad move" not in out


def test_save_reads_its_file_name_as_a_shell_word(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    out = played(
        *CLASSIC,
        input='save my game.sqn\nsave "q x.sqn"\nsave ~/x.sqn\nsave "open\nquit\n',
        env={"HOME": str(home)},
    )
    assert "not saved: give one file name, not 2 (quote a name with spaces" in out
    assert """saved q x.sqn: "seqsolve play --from 'q x.sqn' --seat 0" plays on from it""" in out
    assert f"saved {home / 'x.sqn'}: " in out
    assert "not saved: cannot read the file name" in out  # an unclosed quote
    assert (tmp_path / "q x.sqn").is_file() and (home / "x.sqn").is_file()
    assert only_files(tmp_path) == {"home", "q x.sqn", "play-1.jsonl", "play-1.sqn"}


def test_a_saved_position_names_the_seat_it_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    played(*CLASSIC, input="save pos.sqn\nquit\n")
    line = fails("play", "--from", "pos.sqn", "--seat", "1", "--bot", "random")
    assert (
        line
        == "seqsolve: pos.sqn: seat 1's cards are not listed; the file shows seat 0's: play it with --seat 0"
    )


def test_a_seat_given_twice_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "seat 0 is given twice" in fails("play", "--seat", "0", "--seat", "0", code=2)
    assert "seat 5 does not exist" in fails("play", "--seat", "5", "--from", "example:4", code=2)


# ---------------------------------------------------------------- Sequence Stacks


def test_stacks_plays_its_own_default_bot_and_names_seats_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = played("--variant", "stacks", "--seed", "1", "--no-review", input="save s.sqn\nsave s.stn\nquit\n")
    assert "players: seat 0 (you), seat 1 (greedy)" in out
    assert "seat 0 (seat 0" not in out and "seat 0> " in out and "(seat 0)> " not in out
    assert "not saved: s.sqn names a Sequence (SQN) position; this game's is .stn (stacks)" in out
    assert record_of(tmp_path / "play-1.jsonl")["seats"] == ["human", "greedy"]
    # the position left beside the record is in the game's own form
    assert only_files(tmp_path) == {"play-1.jsonl", "play-1.stn", "s.stn"}
    assert "--from play-1.stn --seat 0" in out
    # a Stacks position plays on with Stacks' default bot too
    out = played("--from", "s.stn", "--seed", "2", "--out", "again.jsonl", "--no-review")
    assert record_of(tmp_path / "again.jsonl")["seats"] == ["human", "greedy"]


# ---------------------------------------------------------------- play records


def test_records_that_hold_no_game_to_resume_say_why(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    header, game = a_record(tmp_path, *CLASSIC)
    whole = json.dumps(game)
    (tmp_path / "cut.jsonl").write_text(json.dumps(header) + "\n" + whole[: len(whole) // 2])
    assert fails("play", "--from", "cut.jsonl") == (
        "seqsolve: cut.jsonl: cut short: line 2, the game, is incomplete; there is nothing to resume"
    )
    (tmp_path / "head.jsonl").write_text(json.dumps(header)[:30])
    assert fails("play", "--from", "head.jsonl") == (
        "seqsolve: head.jsonl:1: cut short: the file ends inside the header of a record"
    )
    (tmp_path / "bare.jsonl").write_text(json.dumps(header) + "\n")
    assert "bare.jsonl: cut short: line 2, the game, is missing" in fails("play", "--from", "bare.jsonl")
    write_record(tmp_path / "two.jsonl", header, game, {**game, "game": 1})
    assert fails("play", "--from", "two.jsonl") == (
        "seqsolve: two.jsonl:3: a second game; a record of play holds one game"
    )
    write_record(tmp_path / "bots.jsonl", header, {**game, "seats": ["random", "random"]})
    assert fails("play", "--from", "bots.jsonl") == (
        "seqsolve: bots.jsonl:2: no seat of the game is a person's ('human'): nobody to play it"
    )


def test_bot_replaces_the_bots_of_a_resumed_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    played(*CLASSIC, input="1\nquit\n")
    before = record_of(tmp_path / "play-1.jsonl")
    assert before["seats"] == ["human", "random"]
    played("--from", "play-1.jsonl", "--bot", "greedy")
    after = record_of(tmp_path / "play-1.jsonl")
    assert after["seats"] == ["human", "greedy"] and after["moves"] == before["moves"]
    assert "--bot" in fails("play", "--from", "play-1.jsonl", "--bot", "random", "--bot", "greedy", code=2)
    assert "--seed" in fails("play", "--from", "play-1.jsonl", "--seed", "3", code=2)


# ---------------------------------------------------------------- ext: bots that fail


def test_a_program_that_fails_its_handshake_is_one_line_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = program(tmp_path, "import sys\nsys.exit(3)\n")
    line = fails("play", "--bot", spec, "--seed", "1")
    assert line == f"seqsolve: seat 1 ({spec}) cannot start: no handshake: the program exited with code 3"
    assert only_files(tmp_path) == {"bot.py"}


def test_a_game_whose_program_failed_resumes_as_it_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = program(tmp_path, QUITS_AT_FIRST_MOVE)
    result = run("play", "--bot", spec, "--seat", "1", "--seed", "1")  # the program opens, and fails
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.stderr == (
        f"seqsolve: seat 0 (blue, {spec}) failed: the program exited with code 1;"
        " the game is saved: resume it with 'seqsolve play --from play-1.jsonl --bot heuristic'\n"
    )
    assert record_of(tmp_path / "play-1.jsonl")["seats"] == [spec, "human"]
    # the record alone does not start the program again; the command it gives resumes
    assert "is an external program" in fails("play", "--from", "play-1.jsonl")
    played("--from", "play-1.jsonl", "--bot", "random", "--no-review")
    assert record_of(tmp_path / "play-1.jsonl")["seats"] == ["random", "human"]
    # named again on the command line, the program runs, fails its handshake in one line
    failing = program(tmp_path, "import sys\nsys.exit(4)\n", "dies.py")
    assert fails("play", "--from", "play-1.jsonl", "--bot", failing) == (
        f"seqsolve: seat 0 ({failing}) cannot start: no handshake: the program exited with code 4"
    )


def test_from_a_fifo_nobody_writes_is_one_line_not_a_wait(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    assert fails("play", "--from", "pipe").startswith("seqsolve: pipe:1:1: empty position")


def test_leaving_a_game_with_a_program_says_to_name_it_again(tmp_path, monkeypatch):
    """The record alone never starts the program, so the resume command it gives names it."""
    monkeypatch.chdir(tmp_path)
    spec = f"ext:{sys.executable} {Path(__file__).resolve().parents[2] / 'examples' / 'random_bot.py'}"
    out = played("--bot", spec, "--seed", "1", "--no-review", "--out", "my game.jsonl")
    assert f"""resume it with "seqsolve play --from 'my game.jsonl' --bot '{spec}'", or""" in out
    assert "--from 'my game.sqn' --seat 0" in out
    played("--from", "my game.jsonl", "--bot", spec, "--no-review")


@pytest.mark.parametrize("variant", ["classic", "stacks"])
def test_a_digit_that_is_no_number_is_a_bad_move_not_an_error(tmp_path, monkeypatch, variant):
    """'²' is a digit to str.isdigit but not to int(): it ended the game in one line."""
    monkeypatch.chdir(tmp_path)
    out = played("--variant", variant, *CLASSIC, input="²\nquit\n")
    assert "seat 0" in out
