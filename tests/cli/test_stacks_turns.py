"""One count of turns for a Sequence Stacks game on every surface (docs/stacks.md,
"Turns"): the end line of ``play``, the record's ``turns``, ``replay``'s numbered lines
and its end line, ``annotate``'s; a Skip's skipped turn and the turn the game is won
in are turns, a Block window's answers are not."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from cli_helpers import ok

from seqsolve.play.records import read_records


def test_play_replay_annotate_and_the_record_count_the_same_turns(tmp_path):
    """Seed 4: the person plays the first legal decision each time against greedy; the
    game has Skips, Block windows and a win in the middle of a turn."""
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "seqsolve",
            "play",
            "--variant",
            "stacks",
            "--bot",
            "greedy",
            "--seed",
            "4",
            "--no-review",
        ],
        input="1\n" * 2000,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    played = int(re.search(r"result: seat \d won after (\d+) turns", done.stdout).group(1))
    records = str(tmp_path / "play-4.jsonl")
    _, (record,) = read_records(records)
    assert record["turns"] == played
    assert "SK" in record["moves"] and "pass" in record["moves"]

    text = ok("replay", records, "--game", "0")
    lines = re.findall(r"^ +(\d+)\. seat (\d) \(seat \d\): (.*)$", text, re.MULTILINE)
    assert [int(n) for n, _, _ in lines] == list(range(1, played + 1))
    assert text.rstrip().endswith(f"won after {played} turns")
    assert any(moves == "(skipped)" for _, _, moves in lines)  # ST-10: a turn of its own
    assert not any(
        moves.split()[0] in ("block", "pass") for _, _, moves in lines
    )  # part of the completer's turn
    assert not lines[-1][2].split()[-1].startswith("~")  # won in the middle of the turn: counted

    annotated = json.loads(ok("annotate", records, "--game", "0", "--iters", "5", "--seed", "1", "--json"))
    assert annotated["turns"] == played


def test_a_won_turn_counts_and_a_completed_one_is_not_counted_twice():
    from seqsolve.games.stacks.state import StacksState

    class Stacks:
        turn = 25
        ends_turn = staticmethod(StacksState.ends_turn)

    assert (
        StacksState.turns_played(Stacks(), 426) == 26
    )  # the winner's pass of a Block window: its turn under way
    assert (
        StacksState.turns_played(Stacks(), 410) == 25
    )  # a discard: the turn is complete (an ST-22 draw at its end)
    assert StacksState.turns_played(Stacks(), None) == 25
