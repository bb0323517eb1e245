"""How much faster ``seqsolve match`` runs at ``--jobs 2`` than at ``--jobs 1``, and
how much of it no second core can share.

Each run is the whole command in a fresh Python process (``python -m seqsolve match
... --no-progress``: start-up, imports, the workers' start, the report), as a user
types it.  Runs alternate ``--jobs 1`` and ``--jobs 2`` round by round, so a change in
the machine's load hits both alike; each figure is given per round, as a median and a
range.  From each run:

* ``wall``: the command's wall time, and ``speedup``, that of ``--jobs 1`` over that of
  ``--jobs 2`` (the figure a user sees; it needs two idle cores);
* ``cpu``: user + system CPU time of the command and every process it started
  (``os.wait4``);
* ``parent``: CPU time of the command's own process (its interpreter's end included, the
  total less what it and its reaped children had used at exit); ``here``: the part of it spent
  playing games (a run plays its first games itself, to measure them);
  ``serial = parent - here`` is the work of the run that no worker can take over
  (interpreter start-up, imports, dealing tasks, taking results, the report), and
  ``serial_share`` its part of the whole ``--jobs 1`` run.

Three figures depend little on the load (CPU time, not wall time):

* ``cpu_overhead``: CPU at ``--jobs 2`` over CPU at ``--jobs 1`` (what parallel play
  costs in extra work: the pool, tasks, results);
* ``alone``: the parent's CPU time while no worker runs (before the workers start,
  the first games measured included, and after the last game is in: the report, the
  exit), which a second core cannot shorten;
* ``bound``: the speed-up two idle cores would give, ``cpu(jobs 1) / (alone +
  max((cpu(jobs 2) - alone) / 2, the busiest worker's CPU))``.

``--tree DIR`` (again for each) runs the command of another checkout too (its own
``seqsolve``, built in place: ``PYTHONPATH`` and the working directory set to it), its runs
interleaved with this one's, round by round: a change measured against its base.

Usage:  python benchmarks/jobs_scaling.py [--workload greedy|search|all] [--rounds 3]
            [--greedy-games 40000] [--search-games 400] [--seed 1] [--tree DIR]... [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: this checkout, whose ``seqsolve`` the runs use unless ``--tree`` names others
HERE = str(Path(__file__).resolve().parent.parent)
#: workload -> (bot specs, default games)
WORKLOADS = {"greedy": (("greedy", "greedy"), 40_000), "search": (("search", "search"), 400)}

#: the command, run in the child with a note of its own CPU time written at exit
#: (after the pool's workers have ended, so their CPU is counted as the children's)
CHILD = """
import atexit, json, resource, sys

note, args = sys.argv[1], sys.argv[2:]
seen = {}

def cpu(who=resource.RUSAGE_SELF):
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime

def write_note():
    pool = sys.modules.get("seqsolve.play.pool")
    stats = seen.get("stats")
    with open(note, "w") as f:
        json.dump({"parent": cpu(), "children": cpu(resource.RUSAGE_CHILDREN),
                   "before": seen.get("before"), "after": seen.get("after"),
                   "here": pool.here_seconds if pool else 0.0,
                   "worker_cpu": sorted(stats.worker_cpu.values()) if stats else [],
                   "tasks": stats.tasks if stats else 0,
                   "pool": bool(stats and stats.pool_started)}, f)

atexit.register(write_note)
from seqsolve.play import pool as _pool

_play_on_workers = _pool.play_on_workers

def play_on_workers(*a, **k):
    seen["stats"] = a[10]  # the run's RunStats, for each worker's CPU time
    seen["before"] = cpu()  # the workers are started now
    try:
        return _play_on_workers(*a, **k)
    finally:
        seen["after"] = cpu()  # the last game is in

_pool.play_on_workers = play_on_workers
from seqsolve.__main__ import run
run(args)
"""


def one_run(bots: tuple[str, ...], games: int, jobs: int, seed: int, tree: str = HERE) -> dict:
    """One ``seqsolve match`` of checkout ``tree`` in a fresh process: its wall time, CPU
    times and pool use."""
    args = ["match", *bots, "--games", str(games), "--jobs", str(jobs), "--seed", str(seed), "--no-progress"]
    with tempfile.TemporaryDirectory() as folder:
        note = os.path.join(folder, "note.json")
        started = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": tree}
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, note, *args], stdout=subprocess.DEVNULL, cwd=tree, env=env
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(f"seqsolve {' '.join(args)} failed (exit code {child.returncode})")
        with open(note, encoding="utf-8") as f:
            run = json.load(f)
    run.update(wall=wall, cpu=usage.ru_utime + usage.ru_stime)
    # the interpreter's own end, after the note (the workers were reaped before it)
    run["exit"] = max(0.0, run["cpu"] - run["parent"] - run["children"])
    run["parent"] += run["exit"]
    run["serial"] = run["parent"] - run["here"]
    if run["before"] is not None:  # the parent's CPU while no worker ran: before them, after them
        run["alone"] = run["before"] + run["parent"] - run["after"]
    else:
        run["alone"] = run["parent"]
    return run


def measure(workload: str, games: int, rounds: int, seed: int, trees: list[str]) -> list[dict]:
    """The figures of ``workload`` for each checkout of ``trees``, their runs interleaved."""
    bots = WORKLOADS[workload][0]
    for tree in trees:
        one_run(bots, 2, 1, seed, tree)  # caches warm
    rows: dict[str, list[dict]] = {tree: [] for tree in trees}
    for r in range(rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            order = (1, 2) if r % 2 == 0 else (2, 1)
            runs = {jobs: one_run(bots, games, jobs, seed, tree) for jobs in order}
            rows[tree].append(_row(runs[1], runs[2]))
    return [_result(workload, bots, games, seed, tree, rows[tree]) for tree in trees]


def _row(one: dict, two: dict) -> dict:
    """One round's figures from its ``--jobs 1`` and ``--jobs 2`` runs."""
    parallel = max((two["cpu"] - two["alone"]) / 2, max(two["worker_cpu"], default=0.0))
    return {
        "speedup": one["wall"] / two["wall"],
        "cpu_overhead": two["cpu"] / one["cpu"],
        "bound": one["cpu"] / (two["alone"] + parallel),
        "alone": two["alone"],
        "serial": two["serial"],
        "serial_share": two["serial"] / one["cpu"],
        "busy": two["cpu"] / (2 * two["wall"]),
        "cpu_jobs1": one["cpu"],
        "cpu_jobs2": two["cpu"],
        "jobs1": one,
        "jobs2": two,
    }


#: the figures reported, each as a median and a range over the rounds
KEYS = (
    "speedup",
    "cpu_jobs1",
    "cpu_jobs2",
    "cpu_overhead",
    "serial",
    "alone",
    "serial_share",
    "bound",
    "busy",
)


def _result(workload: str, bots: tuple[str, ...], games: int, seed: int, tree: str, rows: list[dict]) -> dict:
    def spread(key: str) -> dict:
        values = [row[key] for row in rows]
        return {"median": statistics.median(values), "min": min(values), "max": max(values)}

    return {
        "workload": workload,
        "tree": tree,
        "command": f"seqsolve match {' '.join(bots)} --games {games} --seed {seed}",
        "games": games,
        "load": os.getloadavg()[0],
        "rounds": rows,
        **{key: spread(key) for key in KEYS},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=[*WORKLOADS, "all"], default="greedy")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--greedy-games", type=int, default=WORKLOADS["greedy"][1])
    parser.add_argument("--search-games", type=int, default=WORKLOADS["search"][1])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--tree", action="append", default=[], metavar="DIR", help="another checkout to run too"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = list(WORKLOADS) if args.workload == "all" else [args.workload]
    games = {"greedy": args.greedy_games, "search": args.search_games}
    trees = [HERE, *(str(Path(t).resolve()) for t in args.tree)]
    results = [res for name in names for res in measure(name, games[name], args.rounds, args.seed, trees)]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for res in results:
        print(
            f"{res['command']} ({res['tree']}), --jobs 2 over --jobs 1, {len(res['rounds'])} rounds"
            f" interleaved (load {res['load']:.1f} at the end):"
        )
        for key, what, unit in [
            ("speedup", "whole-command wall-clock speed-up", "x"),
            ("cpu_jobs1", "CPU of all processes, --jobs 1", " s"),
            ("cpu_jobs2", "CPU of all processes, --jobs 2", " s"),
            ("cpu_overhead", "CPU at --jobs 2 / CPU at --jobs 1", "x"),
            ("serial", "serial CPU at --jobs 2 (parent, not games)", " s"),
            ("alone", "parent CPU while no worker runs, --jobs 2", " s"),
            ("serial_share", "serial CPU / CPU at --jobs 1", ""),
            ("bound", "speed-up on two idle cores, from CPU times", "x"),
            ("busy", "cores kept busy at --jobs 2 (CPU / 2 x wall)", ""),
        ]:
            s = res[key]
            print(f"  {what:48s} {s['median']:.3f}{unit}  ({s['min']:.3f}-{s['max']:.3f})")


if __name__ == "__main__":
    main()
