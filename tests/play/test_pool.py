"""How a run uses this machine's cores (:mod:`seqsolve.play.pool`): a short match starts
no worker, a long run starts one pool and keeps it, and which process plays a game
changes nothing in its record, interrupted or not.  Nothing here depends on timing:
the tests that need workers set ``IN_PROCESS_SECONDS`` to 0 (every game on a worker)."""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from seqsolve.cli import main
from seqsolve.play import match, pool
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.records import read_records


def _games(path) -> list[dict]:
    """A record file's games in game order, without their timing (the one field that
    differs between two runs of the same games)."""
    return sorted(
        ({k: v for k, v in r.items() if k != "seconds"} for r in read_records(str(path))[1]),
        key=lambda r: r["game"],
    )


def _lines(path) -> list[str]:
    """A record file's game lines byte for byte as written, but for the value of
    ``seconds``, in game order (workers write the lines of the games they play)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()[1:]
    lines = [re.sub(r',"seconds":[-+.0-9e]+', "", line) for line in lines]
    assert all('"seconds"' not in line for line in lines)
    return sorted(lines, key=lambda line: json.loads(line)["game"])


@pytest.fixture
def on_workers(monkeypatch):
    """Every game on a worker of a pool of two, however short the run."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 0)


def test_a_short_match_starts_no_worker(monkeypatch):
    def no_pool(*_):
        raise AssertionError("a worker pool was asked for")

    pool.stop_pool()
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "pool", no_pool)
    monkeypatch.setattr(pool, "here_seconds", 0.0)  # a fresh process: no game played before
    before = {child.pid for child in multiprocessing.active_children()}
    stats = pool.RunStats()
    records = run_games(MatchConfig(bots=("greedy", "random"), seed=3), 40, jobs=2, stats=stats)
    assert len(records) == 40
    assert not stats.pool_started and stats.here_games == 40 and stats.worker_games == 0
    # no child born here (earlier tests' pools may still be ending theirs)
    assert {child.pid for child in multiprocessing.active_children()} <= before
    # the command too
    result = CliRunner().invoke(main, ["match", "greedy", "random", "--games", "40", "--jobs", "2", "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 40


def test_short_matches_that_add_up_to_a_long_run_get_the_pool(monkeypatch):
    """A balance grid of many short matches: once this process has played a second of
    games, the next match goes to the workers, and the one after keeps them."""
    pool.stop_pool()
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "here_seconds", pool.IN_PROCESS_SECONDS)
    started = pool.pools_started
    for seed in (1, 2):
        stats = pool.RunStats()
        run_games(MatchConfig(bots=("greedy", "random"), seed=seed), 40, jobs=2, stats=stats)
        assert stats.pool_started and stats.worker_games >= 1
    assert pool.pools_started == started + 1


def test_a_long_match_measures_its_first_games_then_starts_the_pool(monkeypatch):
    """Played here until measured (and found long), then on the workers."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 1e-9)  # any work at all is long
    monkeypatch.setattr(pool, "PROBE_SECONDS", 1e-9)  # one game measures it
    stats = pool.RunStats()
    records = run_games(MatchConfig(bots=("greedy", "random"), seed=3), 200, jobs=2, stats=stats)
    assert [r["game"] for r in records] == list(range(200))
    assert stats.pool_started and stats.here_games >= 1 and stats.worker_games >= 1
    assert stats.here_games + stats.worker_games == 200
    assert 1 <= len(stats.worker_cpu) <= 2


def test_one_pool_for_a_run_of_many_matches_and_tasks(on_workers):
    pool.stop_pool()
    started = pool.pools_started
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "tournament",
            "random",
            "greedy",
            "heuristic",
            "--games",
            "24",
            "--seed",
            "5",
            "--jobs",
            "2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    assert pool.pools_started == started + 1
    # and a later match of the same process keeps it
    stats = pool.RunStats()
    run_games(MatchConfig(bots=("random", "greedy"), seed=1), 20, jobs=2, stats=stats)
    assert pool.pools_started == started + 1
    assert stats.tasks >= 2 and stats.worker_games == 20 and stats.here_games == 0
    assert 1 <= len(stats.worker_cpu) <= 2


@pytest.mark.parametrize(
    "bots, options",
    [
        (("greedy", "greedy"), {}),
        (("heuristic", "random"), {"players": 4}),
        (("greedy", "random"), {"players": 6, "teams": 3}),
        (("greedy", "random"), {"variant": "stacks"}),
        (("mcts:iters=20", "greedy"), {}),
    ],
    ids=lambda v: str(v),
)
def test_records_are_the_same_at_any_jobs(tmp_path, monkeypatch, bots, options):
    config = MatchConfig(bots=bots, seed=9, **options)
    games = 4 * config.games_per_deal
    run_games(config, games, jobs=1, out=str(tmp_path / "one.jsonl"))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 0)
    stats = pool.RunStats()
    run_games(config, games, jobs=2, out=str(tmp_path / "two.jsonl"), stats=stats)
    assert stats.worker_games == games
    assert _lines(tmp_path / "two.jsonl") == _lines(tmp_path / "one.jsonl")


def test_records_are_the_same_when_this_process_plays_too(tmp_path, monkeypatch):
    config = MatchConfig(bots=("greedy", "random"), seed=2)
    run_games(config, 120, jobs=1, out=str(tmp_path / "one.jsonl"))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 1e-9)
    monkeypatch.setattr(pool, "PROBE_SECONDS", 1e-9)
    run_games(config, 120, jobs=2, out=str(tmp_path / "two.jsonl"))
    assert _lines(tmp_path / "two.jsonl") == _lines(tmp_path / "one.jsonl")


def test_an_interrupted_run_resumes_to_the_same_records(tmp_path, on_workers):
    config = MatchConfig(bots=("greedy", "random"), seed=4)
    whole = tmp_path / "whole.jsonl"
    run_games(config, 60, jobs=1, out=str(whole))
    seen = []

    def ctrl_c(records):
        seen.append(len(records))
        if len(seen) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "broken.jsonl"
    before = {child.pid for child in multiprocessing.active_children()}
    with pytest.raises(KeyboardInterrupt):
        run_games(config, 60, jobs=2, out=str(out), on_records=ctrl_c)
    kept = len(read_records(str(out))[1])
    assert 0 < kept < 60
    assert pool._POOL[0] is None  # its workers were stopped: none of them is left alive
    assert not [p for p in multiprocessing.active_children() if p.is_alive() and p.pid not in before]
    stats = pool.RunStats()
    run_games(config, 60, jobs=2, out=str(out), stats=stats)
    assert stats.worker_games == 60 - kept
    assert _lines(out) == _lines(whole)


def test_a_run_stopped_early_keeps_what_it_has(tmp_path, on_workers):
    """An SPRT's stop: on_records says so, the workers are stopped, the file holds whole games."""
    config = MatchConfig(bots=("greedy", "random"), seed=4)
    out = tmp_path / "stopped.jsonl"
    records = run_games(config, 60, jobs=2, out=str(out), on_records=lambda records: True)
    assert 0 < len(records) < 60
    assert _games(out) == sorted(
        ({k: v for k, v in r.items() if k != "seconds"} for r in records), key=lambda r: r["game"]
    )
    assert pool._POOL[0] is None


def test_a_worker_holds_no_lock_of_the_runner(tmp_path, on_workers):
    """Forked workers close the runner's files: the same process can open a finished
    match's record file again while the pool lives on."""
    config = MatchConfig(bots=("greedy", "random"), seed=4)
    out = tmp_path / "games.jsonl"
    run_games(config, 8, jobs=2, out=str(out))
    assert pool._POOL[0] is not None
    again = run_games(config, 12, jobs=2, out=str(out))  # locks the file afresh
    assert [r["game"] for r in again] == list(range(12))


#: the runner's task, kept before any test replaces it
_PLAY_CHUNK = match._play_chunk


def _marking_chunk(config, games, *rest, mark: str):
    """``_play_chunk`` that first writes its process id to the file ``mark``."""
    with open(mark, "a") as f:
        f.write(f"{os.getpid()}\n")
    return _PLAY_CHUNK(config, games, *rest)


def test_the_chunk_a_test_puts_in_place_is_what_workers_play(tmp_path, on_workers, monkeypatch):
    """fault_helpers replaces match._play_chunk: the pool must be given it, not the original."""
    played = tmp_path / "played"
    monkeypatch.setattr(match, "_play_chunk", functools.partial(_marking_chunk, mark=str(played)))
    run_games(MatchConfig(bots=("random", "random"), seed=1), 8, jobs=2)
    assert played.exists() and str(os.getpid()) not in played.read_text().split()


def test_a_program_with_threads_gets_fresh_interpreters_and_the_same_records(tmp_path, on_workers):
    """No fork while another thread runs (it could hold a lock the fork would keep
    forever): loky's workers then, with the same games."""
    config = MatchConfig(bots=("greedy", "random"), seed=6)
    run_games(config, 12, jobs=1, out=str(tmp_path / "one.jsonl"))
    pool.stop_pool()
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        stats = pool.RunStats()
        run_games(config, 12, jobs=2, out=str(tmp_path / "two.jsonl"), stats=stats)
        assert "loky" in type(pool._POOL[0]).__module__
    finally:
        release.set()
        other.join()
        pool.stop_pool()
    assert stats.worker_games == 12
    assert _lines(tmp_path / "two.jsonl") == _lines(tmp_path / "one.jsonl")


RUNNER = """
import os, sys
os.cpu_count = lambda: 2
from seqsolve.play import pool
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
pool.IN_PROCESS_SECONDS = 0
run_games(MatchConfig(bots=("random", "random")), 10**9, jobs=2)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")
def test_workers_end_with_a_runner_killed_outright():
    """kill -9 of the runner (the out-of-memory killer's way) leaves no worker behind."""
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 120
        while len(forks := _forks(runner.pid)) < 2:
            assert runner.poll() is None and time.monotonic() < deadline, forks
            time.sleep(0.05)
    finally:
        runner.kill()
        runner.wait()
    deadline = time.monotonic() + 60
    while alive := [pid for pid in forks if os.path.exists(f"/proc/{pid}")]:
        assert time.monotonic() < deadline, f"workers {alive} outlived their runner"
        time.sleep(0.05)


def _forks(parent: int) -> list[int]:
    """The children of ``parent`` with its own command line (its forks, not its trackers)."""
    try:
        command = Path(f"/proc/{parent}/cmdline").read_bytes()
    except OSError:
        return []
    found = []
    for entry in os.listdir("/proc"):
        try:
            if not entry.isdigit():
                continue
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == parent and Path(f"/proc/{entry}/cmdline").read_bytes() == command:
                found.append(int(entry))
        except OSError:  # ended meanwhile
            continue
    return found


def test_the_pool_of_a_program_with_threads_leaves_joblib_its_own(tmp_path, on_workers):
    """With another thread running the runner takes a loky pool of its own; joblib's
    Parallel afterwards still gets loky's process-wide pool set up its way."""
    import threading

    from joblib import Parallel, delayed

    pool.stop_pool()
    done = threading.Event()
    waiting = threading.Thread(target=done.wait)
    waiting.start()
    try:
        stats = pool.RunStats()
        run_games(MatchConfig(bots=("greedy", "random"), seed=6), 20, jobs=2, stats=stats)
        assert stats.worker_games == 20 and hasattr(pool._POOL[0], "_flags")  # loky's
        assert Parallel(n_jobs=2)(delayed(abs)(-n) for n in range(4)) == [0, 1, 2, 3]
    finally:
        done.set()
        waiting.join()
        pool.stop_pool()
