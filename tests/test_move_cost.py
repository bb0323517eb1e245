"""benchmarks/move_cost.py, the timing of default mcts moves per preset: a seeded run
prints the same digest twice (what lets two builds be compared), and bad arguments end
in one line and exit code 2, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "move_cost.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_a_seeded_run_gives_the_same_digest_twice():
    first = run("classic", "2", "--games", "1", "--iterations", "60", "--work", "0")
    assert first.returncode == 0, first.stderr
    assert "classic 2p" in first.stdout and "digest" in first.stdout
    digest = first.stdout.rsplit("digest", 1)[1]
    assert (
        run("classic", "2", "--games", "1", "--iterations", "60", "--work", "0").stdout.rsplit("digest", 1)[1]
        == digest
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (("nosuch", "2"), "unknown preset 'nosuch'"),
        (("classic", "7"), "7 players cannot be seated"),
        (("classic", "2", "--games", "0"), "--games must be at least 1"),
        (("classic", "2", "--iterations", "0", "--work", "0"), "give --iterations or --work above 0"),
    ],
)
def test_bad_arguments_end_in_one_line(args, message):
    done = run(*args)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
