"""How much faster a match runs at ``--jobs 2`` than at ``--jobs 1``.

Each run is a fresh Python process (so a worker pool's start-up is paid, as on the
command line) that plays a match through ``run_games`` the way ``seqsolve match``
does, and reports the runner's wall time, its own CPU time and each worker's
(``RunStats``).  Runs alternate ``--jobs 1`` and ``--jobs 2`` round by round, so a
change in the machine's load hits both alike; the speed-up is given per round, as
a median and a range.

Wall-clock speed-up needs two idle cores: on a shared machine it is only a lower
bound.  Two figures do not depend on the load:

* ``cpu_overhead``: CPU time of all processes at ``--jobs 2`` over that at
  ``--jobs 1`` (what parallel play costs in extra work: start-up, tasks, results);
* ``cpu_bound``: the speed-up two idle cores would give if no process ever waited,
  ``cpu(jobs 1) / max(cpu(jobs 2) / 2, the busiest process's cpu)``.

Usage:  python benchmarks/jobs_scaling.py [--workload greedy|search|all] [--rounds 3]
            [--greedy-games 40000] [--search-games 400] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

#: workload -> (bot specs, default games)
WORKLOADS = {"greedy": (("greedy", "greedy"), 40_000), "search": (("search", "greedy"), 400)}

CHILD = """
import json, sys, time
from seqsolve.play import pool
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

bots, games, jobs, seed = json.loads(sys.argv[1])
stats = pool.RunStats()
wall, cpu = time.perf_counter(), time.process_time()
records = run_games(MatchConfig(bots=tuple(bots), seed=seed), games, jobs=jobs, stats=stats)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"games": len(records), "wall": wall, "runner_cpu": cpu,
                  "worker_cpu": sorted(stats.worker_cpu.values()), "here_games": stats.here_games,
                  "tasks": stats.tasks, "pool": stats.pool_started}))
"""


def one_run(bots: tuple[str, ...], games: int, jobs: int, seed: int) -> dict:
    """One match in a fresh process; its figures, with the whole command's wall time."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([list(bots), games, jobs, seed])],
        capture_output=True,
        text=True,
        check=True,
    )
    run = json.loads(done.stdout)
    run["command_wall"] = time.perf_counter() - started
    run["cpu"] = run["runner_cpu"] + sum(run["worker_cpu"])
    run["busiest"] = max([run["runner_cpu"], *run["worker_cpu"]])
    return run


def measure(workload: str, games: int, rounds: int, seed: int) -> dict:
    bots = WORKLOADS[workload][0]
    one_run(bots, 2, 1, seed)  # caches warm
    rows = []
    for r in range(rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        runs = {jobs: one_run(bots, games, jobs, seed) for jobs in order}
        one, two = runs[1], runs[2]
        rows.append(
            {
                "speedup": one["wall"] / two["wall"],
                "command_speedup": one["command_wall"] / two["command_wall"],
                "cpu_overhead": two["cpu"] / one["cpu"],
                "cpu_bound": one["cpu"] / max(two["cpu"] / 2, two["busiest"]),
                "busy": two["cpu"] / (2 * two["wall"]),
                "jobs1": one,
                "jobs2": two,
            }
        )

    def spread(key: str) -> dict:
        values = [row[key] for row in rows]
        return {"median": statistics.median(values), "min": min(values), "max": max(values)}

    return {
        "workload": workload,
        "command": f"seqsolve match {' '.join(bots)} --games {games} --seed {seed}",
        "games": games,
        "rounds": rows,
        **{key: spread(key) for key in ("speedup", "command_speedup", "cpu_overhead", "cpu_bound", "busy")},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=[*WORKLOADS, "all"], default="greedy")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--greedy-games", type=int, default=WORKLOADS["greedy"][1])
    parser.add_argument("--search-games", type=int, default=WORKLOADS["search"][1])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = list(WORKLOADS) if args.workload == "all" else [args.workload]
    games = {"greedy": args.greedy_games, "search": args.search_games}
    results = [measure(name, games[name], args.rounds, args.seed) for name in names]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for res in results:
        print(f"{res['command']}, --jobs 2 over --jobs 1, {len(res['rounds'])} rounds interleaved:")
        for key, what in [
            ("speedup", "runner wall-clock speed-up"),
            ("command_speedup", "whole-command wall-clock speed-up"),
            ("cpu_overhead", "CPU at --jobs 2 / CPU at --jobs 1"),
            ("cpu_bound", "speed-up on two idle cores, from CPU times"),
            ("busy", "cores kept busy at --jobs 2 (CPU / 2 x wall)"),
        ]:
            s = res[key]
            print(f"  {what:48s} {s['median']:.2f}  ({s['min']:.2f}-{s['max']:.2f})")


if __name__ == "__main__":
    main()
