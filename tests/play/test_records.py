"""Record files (seqsolve/play/records/): complete checks, locks, output paths, errors that
name the file, and what replay and annotate say about a recorded game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import fails, ok

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.records import read_records

ARGS = ("random", "random", "--seed", "1", "--jobs", "1", "--no-progress")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """Four random games, the same match as ``match ARGS``."""
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=1), 4, jobs=1, out=str(path))
    return path


def _with_line(recorded: Path, folder: Path, number: int, text: str) -> Path:
    """A copy of the record file whose line ``number`` is ``text``."""
    lines = recorded.read_text().split("\n")
    lines[number - 1] = text
    path = folder / "games.jsonl"
    path.write_text("\n".join(lines))
    return path


def _changed(recorded: Path, **fields) -> str:
    """Line 3 of the record file (game 1) with ``fields`` changed (None: removed)."""
    record = json.loads(recorded.read_text().split("\n")[2])
    for key, value in fields.items():
        if value is None:
            record.pop(key)
        else:
            record[key] = value
    return json.dumps(record)


BAD_LINES = {
    "null": (lambda r: "null", "a game record is a JSON object, not null"),
    "list": (lambda r: "[]", "a game record is a JSON object, not []"),
    "no moves": (lambda r: _changed(r, moves=None), "the game record has no 'moves'"),
    "seed abc": (lambda r: _changed(r, seed="abc"), "'seed' must be a seed (0, 1, ...), not \"abc\""),
    "seed -1": (lambda r: _changed(r, seed=-1), "'seed' must be a seed (0, 1, ...), not -1"),
    "side_bot 5": (
        lambda r: _changed(r, side_bot=[0, 5]),
        "'side_bot' must number the header's 2 bots from 0",
    ),
    "game '0'": (lambda r: _changed(r, game="0"), "'game' must be a game number (0, 1, ...), not \"0\""),
    "winner 7": (
        lambda r: _changed(r, winner_side=7),
        "'winner_side' must be a side from 0 to 1 or null, not 7",
    ),
    "cut short": (lambda r: '{"game": 1, "deal": 0, "varia', "not a JSON line"),
}
COMMANDS = {
    "replay": lambda path: ("replay", str(path), "--game", "0"),
    "annotate": lambda path: ("annotate", str(path), "--game", "0", "--iters", "10"),
    "match": lambda path: ("match", *ARGS, "--games", "8", "--out", str(path)),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad", BAD_LINES)
def test_a_bad_record_line_is_one_line_naming_file_and_line(recorded, tmp_path, bad, command):
    """A damaged line anywhere but last is refused before replay, annotate or a resumed
    match uses the file (a resumed match used to append its games first), file untouched."""
    make, message = BAD_LINES[bad]
    path = _with_line(recorded, tmp_path, 3, make(recorded))
    before = path.read_bytes()
    assert fails(*COMMANDS[command](path)) == f"seqsolve: {path}:3: {message}"
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", COMMANDS)
def test_a_header_of_another_format_is_refused(recorded, tmp_path, command):
    header = json.loads(recorded.read_text().split("\n")[0])
    path = _with_line(recorded, tmp_path, 1, json.dumps({**header, "format": 99}))
    before = path.read_bytes()
    line = fails(*COMMANDS[command](path))
    assert line.startswith(f"seqsolve: {path}:1: record format 99 is not one this seqsolve reads (format 1)")
    assert path.read_bytes() == before


def test_only_a_last_line_cut_short_is_dropped_on_resume(recorded, tmp_path):
    whole = recorded.read_text()
    path = tmp_path / "games.jsonl"
    path.write_text(whole + '{"game": 4, "deal": 2, "varia')  # a kill in the middle of a write
    assert [r["game"] for r in read_records(str(path))[1]] == [0, 1, 2, 3]
    ok("match", *ARGS, "--games", "6", "--out", str(path))
    assert path.read_text().startswith(whole)
    assert [r["game"] for r in read_records(str(path))[1]] == list(range(6))
    # a last line written whole but for its newline is kept, and the newline added
    path.write_text(whole.rstrip("\n"))
    ok("match", *ARGS, "--games", "6", "--out", str(path))
    assert path.read_text().startswith(whole)
    assert [r["game"] for r in read_records(str(path))[1]] == list(range(6))


def test_a_binary_file_is_named_not_decoded(tmp_path):
    path = tmp_path / "games.jsonl"
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4  # a picture, say
    path.write_bytes(data)
    message = f"seqsolve: {path}:1: not a seqsolve match record file (not UTF-8 text)"
    assert fails("replay", str(path), "--game", "0") == message
    assert fails("annotate", str(path), "--game", "0") == message
    assert fails("match", *ARGS, "--out", str(path)) == message
    assert path.read_bytes() == data


def test_a_full_disk_names_the_file_in_words(tmp_path):
    full = tmp_path / "games.jsonl"
    full.symlink_to("/dev/" + "full")  # a link to the device: no test names a device to write
    assert fails("match", *ARGS, "--games", "2", "--out", str(full)) == (
        f"seqsolve: {full}: cannot write (No space left on device)"
    )
    assert full.is_symlink()


def test_a_fifo_without_a_writer_never_hangs(tmp_path):
    """Reading a FIFO nobody writes to used to wait forever (replay, annotate, the seed
    lookup of a resumed match); writing records into one would hang once it is full."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert (
        fails("replay", str(fifo), "--game", "0") == f"seqsolve: {fifo}:1: not a seqsolve match record file"
    )
    assert (
        fails("annotate", str(fifo), "--game", "0") == f"seqsolve: {fifo}:1: not a seqsolve match record file"
    )
    assert fails("match", *ARGS, "--games", "2", "--out", str(fifo)) == (
        f"seqsolve: {fifo}: a pipe, not a file: records are read back to resume"
    )


def test_an_unreadable_record_file_names_the_file(tmp_path):
    assert fails("replay", str(tmp_path / "none.jsonl"), "--game", "0") == (
        f"seqsolve: {tmp_path / 'none.jsonl'}: cannot read (No such file or directory)"
    )


# ---------------------------------------------------------------- locks


def _start_and_wait(args: list[str]) -> subprocess.Popen:
    """Start a run; return once it has written its first progress (so it holds its lock)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "seqsolve", *args, "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stderr.read(1)  # blocks until the run reports progress
    assert first and proc.poll() is None, (first, proc.stderr.read())
    return proc


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=300)


RUNS = {
    "match": ("match", "random", "random", "--games", "400000", "--seed", "2", "--jobs", "1"),
    "tournament": ("tournament", "random", "greedy", "--games", "400000", "--seed", "2", "--jobs", "1"),
    "balance": ("balance", "random", "--games", "400000", "--seed", "2", "--jobs", "1", "--no-plots"),
}


@pytest.mark.parametrize("run", RUNS)
def test_a_second_run_on_the_same_out_is_refused_while_the_first_runs(tmp_path, run):
    out = tmp_path / ("games.jsonl" if run == "match" else "run")
    args = [*RUNS[run], "--out", str(out)]
    first = _start_and_wait(args)
    try:
        line = fails(*args, "--no-progress")
    finally:
        _stop(first)
    assert line == (
        f"seqsolve: {out}: in use by another seqsolve run; wait for it to end or choose another --out"
    )
    records = [out] if run == "match" else sorted(out.rglob("*.jsonl"))
    for path in records:
        games = [r["game"] for r in read_records(str(path))[1]]
        assert len(games) == len(set(games)) == path.read_text().count("\n") - 1  # no game twice


# ---------------------------------------------------------------- output paths


def test_balance_out_reused_with_another_grid_is_refused(tmp_path):
    out = tmp_path / "run"
    base = ("balance", "random", "--games", "4", "--seed", "1", "--jobs", "1", "--no-progress", "--no-plots")
    ok(*base, "--out", str(out))
    files = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for other, held, asked in [
        (("--variant", "seed000"), "variants=classic 2p", "not seed000 2p"),
        (("--players", "3"), "variants=classic 2p", "not classic 3p"),
        (("greedy",), 'bots=["random"]', 'not ["random", "greedy"]'),
        (("--weak", "random"), "weak=null", 'not "random"'),
    ]:
        line = fails(*base, *other, "--out", str(out))
        assert line.startswith(f"seqsolve: {out} holds a balance run with {held}, {asked}; "), line
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == files
    ok(*base, "--out", str(out))  # the same command still resumes


@pytest.mark.parametrize(
    "command, option",
    [
        (("match", *ARGS, "--games", "2"), "--out"),
        (("balance", "random", "--games", "2", "--jobs", "1", "--no-plots"), "--report"),
        (("balance", "random", "--games", "2", "--jobs", "1", "--no-plots"), "--csv"),
    ],
)
def test_a_file_in_a_missing_folder_is_refused_before_any_game(tmp_path, command, option):
    path = tmp_path / "missing" / "x.out"
    assert fails(*command, option, str(path)) == (
        f"seqsolve: {option} {path}: folder {tmp_path / 'missing'} does not exist"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        ("tournament", "random", "greedy", "--games", "2", "--jobs", "1", "--no-progress"),
        ("balance", "random", "--games", "2", "--jobs", "1", "--no-plots", "--no-progress"),
    ],
)
def test_an_out_folder_is_made_when_its_parent_exists(tmp_path, command):
    missing = tmp_path / "missing" / "run"
    assert fails(*command, "--out", str(missing)) == (
        f"seqsolve: --out {missing}: folder {tmp_path / 'missing'} does not exist"
    )
    assert list(tmp_path.iterdir()) == []
    ok(*command, "--out", str(tmp_path / "run"))
    assert list((tmp_path / "run").rglob("*.jsonl"))


# ---------------------------------------------------------------- what replay and annotate say


def test_replay_lists_whole_turns_and_counts_them(recorded, tmp_path):
    path = tmp_path / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=1), 12, jobs=1, out=str(path))
    exchanges = 0
    for record in read_records(str(path))[1]:
        lines = ok("replay", str(path), "--game", str(record["game"])).splitlines()
        turns = lines[1:-1]
        assert [int(t.split(".")[0]) for t in turns] == list(range(1, len(turns) + 1))
        assert lines[-1].endswith(f" after {len(turns)} turns")
        actions = [a for t in turns for a in t.split(": ", 1)[1].split()]
        assert actions == record["moves"]  # every action listed once, exchanges joined to their play
        exchanges += sum(" " in t.split(": ", 1)[1] for t in turns)
        colour = {"b": "blue", "g": "green", "draw": None}[record["result"]]
        assert lines[-1].startswith(f"result: {colour} won" if colour else "result: draw")
        if record["termination"] == "win":
            assert f"({colour}): " in turns[-1]  # the last turn listed is the winner's
    assert exchanges  # a turn with a dead-card exchange was listed as one turn


@pytest.fixture(scope="module")
def forfeited(tmp_path_factory) -> Path:
    """Two games against a program that exits at once: it forfeits before its first move."""
    folder = tmp_path_factory.mktemp("forfeit")
    program = folder / "dies.py"
    program.write_text("import sys\nsys.exit(2)\n")
    path = folder / "games.jsonl"
    run_games(
        MatchConfig(bots=(f"ext:{sys.executable} {program}", "random"), seed=1), 2, jobs=1, out=str(path)
    )
    return path


def test_annotate_says_who_won_a_forfeit_and_that_there_are_no_moves(forfeited):
    games = read_records(str(forfeited))[1]
    assert games[0]["moves"] == [] and games[0]["termination"] == "forfeit"
    lines = ok("annotate", str(forfeited), "--game", "0").splitlines()
    assert lines[0] == (
        f"game 0: classic, 2 players; green won: seat 0 (ext:{sys.executable} {forfeited.parent / 'dies.py'})"
        " forfeited (no handshake: the program exited with code 2) after 0 turns"
    )
    assert lines[1:] == ["the record has no moves: there is nothing to analyse"]
    data = json.loads(ok("annotate", str(forfeited), "--game", "0", "--json"))
    assert data["result"] == "g" and data["decisions"] == []
    # game 1: the program sits on seat 1 and forfeits before or at its first move
    replayed = ok("replay", str(forfeited), "--game", "1").splitlines()
    plies = games[1]["plies"]
    assert replayed[-1].startswith("result: blue won: seat 1 (ext:")
    assert replayed[-1].endswith(f" after {plies} turn{'' if plies == 1 else 's'}")


@pytest.mark.parametrize("command", ["replay", "annotate"])
def test_moves_that_cannot_be_replayed_name_file_and_line(recorded, tmp_path, command):
    record = json.loads(recorded.read_text().split("\n")[1])
    illegal = dict(record, moves=["AH@a1", *record["moves"][1:]])
    path = _with_line(recorded, tmp_path, 2, json.dumps(illegal))
    line = fails(*COMMANDS[command](path))
    assert line.startswith(f"seqsolve: {path}:2: move 1 'AH@a1' cannot be replayed: ")
    short = dict(record, moves=record["moves"][:5], plies=5)
    path = _with_line(recorded, tmp_path, 2, json.dumps(short))
    assert fails(*COMMANDS[command](path)) == f"seqsolve: {path}:2: the moves stop before the game is over"


@pytest.fixture(scope="module")
def stacks_recorded(tmp_path_factory) -> Path:
    """Two random games of Sequence Stacks."""
    path = tmp_path_factory.mktemp("records") / "stacks.jsonl"
    run_games(MatchConfig(bots=("random", "random"), variant="stacks", seed=1), 2, jobs=1, out=str(path))
    return path


def _other_winner(record: dict) -> dict:
    """The record with the other side named the winner, its score in step."""
    side = 1 - record["winner_side"]
    result = "bg"[side] if record["variant"] == "classic" else str(side)
    return dict(record, result=result, winner_side=side, score=1.0 - record["score"])


@pytest.mark.parametrize("command", ["replay", "annotate"])
@pytest.mark.parametrize("variant", ["classic", "stacks"])
def test_the_moves_decide_who_won_and_a_record_saying_otherwise_is_refused(
    recorded, stacks_recorded, tmp_path, command, variant
):
    """Both printed the record's result although its moves ended the other way."""
    source = recorded if variant == "classic" else stacks_recorded
    record = json.loads(source.read_text().split("\n")[1])
    assert record["termination"] == "win"
    path = _with_line(source, tmp_path, 2, json.dumps(_other_winner(record)))
    names = {"classic": ("blue", "green"), "stacks": ("seat 0", "seat 1")}[variant]
    said, played = names[1 - record["winner_side"]], names[record["winner_side"]]
    assert (
        fails(*COMMANDS[command](path))
        == f"seqsolve: {path}:2: the record says {said} won, but its moves end {played} won"
    )
    forfeit = {"seat": 0, "bot": "random", "reason": "no answer"}
    path = _with_line(source, tmp_path, 2, json.dumps(dict(record, termination="forfeit", forfeit=forfeit)))
    line = fails(*COMMANDS[command](path))
    assert line.startswith(
        f"seqsolve: {path}:2: the record says {played} won: seat 0 (random) forfeited (no answer)"
    )
    assert line.endswith(f"but its moves end {played} won")


@pytest.mark.parametrize("command", ["replay", "annotate"])
def test_a_header_naming_another_game_than_its_games_is_refused(recorded, stacks_recorded, tmp_path, command):
    """A Stacks header above Sequence games, or another preset's or seating's, went unnoticed."""
    games = recorded.read_text().split("\n")[1:]
    for header, game in [
        (stacks_recorded.read_text().split("\n")[0], "stacks, 2 players, 2 sides"),
        (recorded.read_text().split("\n")[0].replace('"classic"', '"draft"'), "draft, 2 players, 2 sides"),
        (
            recorded.read_text().split("\n")[0].replace('"players": 2', '"players": 4'),
            "classic, 4 players, 2 sides",
        ),
    ]:
        path = tmp_path / "games.jsonl"
        path.write_text("\n".join([header, *games]))
        line = fails(*COMMANDS[command](path))
        assert line == f"seqsolve: {path}:2: a game of classic, 2 players, 2 sides among the games of {game}"
    path.write_text(
        "\n".join([recorded.read_text().split("\n")[0].replace('"players": 2', '"players": "2"'), *games])
    )
    assert fails(*COMMANDS[command](path)) == (
        f"seqsolve: {path}:1: the header's config names no game (a variant, players and sides)"
    )


def test_moves_read_back_share_one_string_per_distinct_move(recorded):
    """A record file's games read back hold each distinct move once, as played games do:
    a long race's records would otherwise take gigabytes (one string per move per game)."""
    _, records = read_records(str(recorded))
    moves = [m for r in records for m in r["moves"]]
    assert len(moves) > len(set(moves))  # the same move in several games
    assert len({id(m) for m in moves}) == len(set(moves))
