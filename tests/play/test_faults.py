"""A worker process killed during a run (``kill -9``, the out-of-memory killer): the
run plays the lost games again in new workers and ends as an unbroken run would; a
worker lost twice with nothing finished between stops the run in one line, and the
same command resumes it.  The kill is the worker's own (:mod:`fault_helpers`), on a
chosen game: nothing depends on timing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import fails, run
from fault_helpers import dying_chunks

from seqsolve.play.records import read_records

MATCH = ("match", "random", "greedy", "--games", "40", "--seed", "3", "--jobs", "2", "--no-progress")


def _stable(path: Path) -> list[dict]:
    """The games of a record file without their timing."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in read_records(str(path))[1]]


def _report(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "games/s" not in line]


def test_a_match_whose_worker_is_killed_ends_as_an_unbroken_one(tmp_path, monkeypatch):
    """It used to end in a TerminatedWorkerError traceback."""
    whole = run(*MATCH, "--out", str(tmp_path / "whole.jsonl"))
    dying_chunks(monkeypatch, tmp_path / "killed", game=10)
    broken = run(*MATCH, "--out", str(tmp_path / "broken.jsonl"))
    assert (tmp_path / "killed").exists(), "no worker was killed"
    assert broken.exit_code == 0, broken.stderr
    assert broken.stderr == ""
    assert _report(broken.stdout) == _report(whole.stdout)
    assert _stable(tmp_path / "broken.jsonl") == _stable(tmp_path / "whole.jsonl")


def test_a_worker_lost_again_and_again_stops_in_one_line_and_resumes(tmp_path, monkeypatch):
    whole = tmp_path / "whole.jsonl"
    args = ("match", "random", "greedy", "--games", "4", "--seed", "3", "--jobs", "2", "--no-progress")
    run(*args, "--out", str(whole))
    out = tmp_path / "f.jsonl"
    with monkeypatch.context() as patch:
        dying_chunks(patch, tmp_path / "killed", game=0, always=True)
        line = fails(*args, "--out", str(out))
        assert fails(*args).startswith("seqsolve: a worker process was killed (SIGKILL")
    assert line.startswith(
        "seqsolve: a worker process was killed (SIGKILL, as the out-of-memory killer does)"
    )
    assert line.endswith(
        f"are kept in {out}: rerun the same command to resume (fewer --jobs use less memory)"
    )
    assert 0 not in {r["game"] for r in read_records(str(out))[1]}
    assert run(*args, "--out", str(out)).exit_code == 0
    assert _stable(out) == _stable(whole)


FOLDER_RUNS = {
    "tournament": ("tournament", "random", "greedy", "heuristic", "--games", "8"),
    "balance": ("balance", "--variant", "classic", "--games", "8", "--no-plots"),
}


@pytest.mark.parametrize("command", FOLDER_RUNS)
def test_a_run_of_many_matches_whose_worker_is_killed_ends_as_an_unbroken_one(tmp_path, monkeypatch, command):
    args = (*FOLDER_RUNS[command], "--seed", "2", "--jobs", "2", "--no-progress", "--json")
    run(*args, "--out", str(tmp_path / "whole"))
    dying_chunks(monkeypatch, tmp_path / "killed", game=4)
    broken = run(*args, "--out", str(tmp_path / "broken"))
    assert (tmp_path / "killed").exists(), "no worker was killed"
    assert broken.exit_code == 0 and broken.stderr == "", broken.stderr
    paths = sorted((tmp_path / "whole").rglob("*.jsonl"))
    assert paths
    for path in paths:
        assert _stable(tmp_path / "broken" / path.relative_to(tmp_path / "whole")) == _stable(path)


FORKED = """
import os, sys
os.cpu_count = lambda: 2  # two workers, whatever the machine
from multiprocessing import resource_tracker
from seqsolve.play import pool
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
records = run_games(MatchConfig(bots=("random", "random")), 4, jobs=2, chunk=2)
assert pool.forks() and len(records) == 4
print(resource_tracker._resource_tracker._pid, "joblib" in sys.modules)
"""


def test_forked_workers_leave_no_resource_tracker_anything_to_say():
    """A killed worker could leave a resource tracker a name it never knew, and each
    tracker printed a KeyError traceback on stderr, a cascade of them after a kill.
    Forked workers need no tracker (their semaphores are unlinked at once), so none is
    started (each was a fresh Python: a third of a CPU second a command), and no joblib."""
    done = subprocess.run(
        [sys.executable, "-c", FORKED], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "False"]
    assert done.stderr == ""


def test_a_run_that_stops_ends_its_progress_line_first(tmp_path, monkeypatch):
    """The one line came after the progress bar, on the same line."""
    args = ("match", "random", "greedy", "--seed", "3", "--jobs", "2", "--out", str(tmp_path / "f.jsonl"))
    assert run(*args, "--games", "2", "--no-progress").exit_code == 0
    dying_chunks(monkeypatch, tmp_path / "killed", game=2, always=True)
    result = run(*args, "--games", "8", "--progress")  # the 2 games on file show at once
    assert result.exit_code == 1
    assert "] 2/8 games" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("seqsolve: a worker process was killed (SIGKILL")
