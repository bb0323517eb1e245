"""An ``ext:`` program's handshake is held to the time limit per move, and a program
that cannot finish it is found out once: the command stops in one line before it
writes anything, instead of waiting again for every game.

The programs here sleep far beyond tiny limits; the tests assert what happens, never
how long it took, and each ends as soon as its limit has passed.
"""

from __future__ import annotations

import sys

import pytest
from cli_helpers import fails

from seqsolve.bots import BotFailure, make_bot
from seqsolve.games import rules_for

SLEEPER = f"ext:{sys.executable} -c 'import time; time.sleep(60)'"


@pytest.fixture
def spawned(monkeypatch) -> list[list[str]]:
    """The command lines of the programs started in this process (not timing: every start)."""
    from seqsolve.games import external

    started: list[list[str]] = []
    real = external.subprocess.Popen

    def counting(argv, *args, **kwargs):
        started.append(list(argv))
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(external.subprocess, "Popen", counting)
    return started


def test_the_handshake_waits_only_the_time_limit_and_is_not_tried_again(spawned):
    bot = make_bot(SLEEPER)
    bot.move_timeout = 0.05
    rules = rules_for("classic", 2)
    try:
        for _ in range(3):  # three games: the program is started for the first only
            with pytest.raises(
                BotFailure, match=r"^no handshake: no answer within the time limit of 0.05 s$"
            ):
                bot.start(rules, "bg", 0)
    finally:
        bot.close()
    assert len(spawned) == 1


@pytest.mark.parametrize(
    "command",
    [
        ("match", "{spec}", "random", "--games", "8", "--jobs", "2", "--out", "out.jsonl"),
        ("tournament", "random", "{spec}", "greedy", "--games", "4", "--jobs", "2", "--out", "out"),
        ("balance", "{spec}", "--games", "4", "--jobs", "2", "--out", "out", "--no-plots"),
    ],
    ids=["match", "tournament", "balance"],
)
def test_a_program_without_handshake_stops_the_run_in_one_line(tmp_path, monkeypatch, spawned, command):
    monkeypatch.chdir(tmp_path)
    args = [word.format(spec=SLEEPER) for word in command]
    line = fails(*args, "--move-timeout", "0.05", "--seed", "1", "--no-progress")
    assert (
        line
        == f"seqsolve: bot {SLEEPER} cannot start: no handshake: no answer within the time limit of 0.05 s"
    )
    assert len(spawned) == 1  # once, before any game or worker
    assert list(tmp_path.iterdir()) == []  # nothing written
