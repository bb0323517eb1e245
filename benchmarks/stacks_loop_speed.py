"""Match throughput of Sequence Stacks' compiled game loop against the Python runner.

For random and greedy self-play (Sequence Stacks, 2 players, one seed) it times
``run_games`` on one core (``jobs=1``: the games run in this process) with the
compiled loop, and with it switched off (``StacksGame.loop`` answering None, so every
decision goes through the Python runner, as before the loop existed), interleaved
with ``seqsolve bench``'s own Stacks workload (``benchmark.stacks_playouts``: random
2-player games in the engine), round after round, so that load from other work on a
shared machine falls on all of them alike.  The times are CPU seconds of this process
(``time.process_time``).  Both runners play the first games of each match and must
give the same records (checked, timing aside).

Usage:  python benchmarks/stacks_loop_speed.py [--scale 1.0] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from seqsolve.benchmark import stacks_playouts
from seqsolve.games.stacks.game import StacksGame
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

#: games per bot at --scale 1: (compiled loop, Python runner)
WORKLOAD = {"random": (40_000, 2_000), "greedy": (20_000, 2_000)}
#: bench's Stacks games at --scale 1 (its default workload: 100,000 classic games, one in 10)
BENCH_GAMES = 10_000


def timed(config: MatchConfig, games: int, compiled: bool) -> tuple[float, list[dict]]:
    real = StacksGame.loop
    if not compiled:
        StacksGame.loop = lambda self, *args: None
    try:
        run_games(config, 2, jobs=1)  # imports and tables, once
        started = time.process_time()
        records = run_games(config, games, jobs=1)
        return time.process_time() - started, records
    finally:
        StacksGame.loop = real


def stable(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def row(workload: str, games: int, seconds: float, plies: int) -> dict:
    return {
        "workload": workload,
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "us_per_action": 1e6 * seconds / plies,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for r in range(args.rounds):
        n = max(1, int(BENCH_GAMES * args.scale))
        started = time.process_time()
        figures = stacks_playouts(n, 0)
        rows.append(
            row(
                f"bench Stacks random games, round {r + 1}",
                n,
                time.process_time() - started,
                figures["actions"],
            )
        )
        for bot, (fast, slow) in WORKLOAD.items():
            config = MatchConfig(bots=(bot, bot), variant="stacks", players=2, teams=2, seed=1)
            for compiled, games in (
                (False, max(2, int(slow * args.scale))),
                (True, max(2, int(fast * args.scale))),
            ):
                seconds, records = timed(config, games, compiled)
                runner = "compiled loop" if compiled else "Python runner"
                plies = sum(rec["plies"] for rec in records)
                rows.append(
                    row(
                        f"match {bot} {bot} --variant stacks ({runner}), round {r + 1}", games, seconds, plies
                    )
                )
            if r == 0:
                first = min(len(records), 200)
                _, python = timed(config, first, False)
                assert stable(records[:first]) == stable(python), f"{bot}: the runners played different games"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"rows": rows, "load": load}, indent=2))
        return
    print(f"{'workload':<62}{'games':>8}{'CPU s':>8}{'games/s':>10}{'µs/action':>11}")
    for r in rows:
        print(
            f"{r['workload']:<62}{r['games']:>8,}{r['seconds']:>8.2f}{r['games_per_s']:>10,.0f}{r['us_per_action']:>11.2f}"
        )
    print(f"load average (1 min) at the end: {load:.2f}" if load is not None else "")


if __name__ == "__main__":
    main()
