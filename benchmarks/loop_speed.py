"""Match throughput of the compiled game loop against the Python runner (issue 14).

For random, greedy and heuristic self-play (classic, 2 players, one seed) it times
``run_games`` on one core (``jobs=1``: the games run in this process) twice: with
the compiled loop, and with it switched off (``SequenceGame.loop`` answering None,
so every action goes through the Python runner, as before the loop existed).  The
times are CPU seconds of this process (``time.process_time``), so other work on a
shared machine inflates them less than wall time would.  Both runners play the
first games of the match and must give the same records (checked, timing aside).
The first line is ``seqsolve bench``'s random-game workload timed the same way, for
the issue's ratio ``match random random`` / bench.

Usage:  python benchmarks/loop_speed.py [--scale 1.0] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from seqsolve import _core
from seqsolve.games.sequence.game import SequenceGame
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import core_rules
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

#: games per bot: (compiled loop, Python runner) at --scale 1
WORKLOAD = {"random": (20_000, 2_000), "greedy": (20_000, 2_000), "heuristic": (2_000, 300)}


def timed(config: MatchConfig, games: int, compiled: bool) -> tuple[float, list[dict]]:
    real = SequenceGame.loop
    if not compiled:
        SequenceGame.loop = lambda self, *args: None
    try:
        run_games(config, 2, jobs=1)  # imports and tables, once
        started = time.process_time()
        records = run_games(config, games, jobs=1)
        return time.process_time() - started, records
    finally:
        SequenceGame.loop = real


def stable(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    rules = core_rules(parse_rules("classic", players=2))
    n = int(100_000 * args.scale)
    started = time.process_time()
    _, plies, _ = _core.random_games(rules, np.random.PCG64(0), n)
    seconds = time.process_time() - started
    rows.append(
        {
            "workload": "bench random games",
            "games": n,
            "seconds": seconds,
            "games_per_s": n / seconds,
            "us_per_action": 1e6 * seconds / plies,
        }
    )
    for bot, (fast, slow) in WORKLOAD.items():
        config = MatchConfig(bots=(bot, bot), seed=1)
        for compiled, games in (
            (False, max(2, int(slow * args.scale))),
            (True, max(2, int(fast * args.scale))),
        ):
            seconds, records = timed(config, games, compiled)
            plies = sum(r["plies"] for r in records)
            rows.append(
                {
                    "workload": f"match {bot} {bot} ({'compiled loop' if compiled else 'Python runner'})",
                    "games": games,
                    "seconds": seconds,
                    "games_per_s": games / seconds,
                    "us_per_action": 1e6 * seconds / plies,
                }
            )
        first = min(len(records), 200)
        _, python = timed(config, first, False)
        assert stable(records[:first]) == stable(python), f"{bot}: the runners played different games"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"rows": rows, "load": load}, indent=2))
        return
    print(f"{'workload':<44}{'games':>9}{'CPU s':>8}{'games/s':>10}{'µs/action':>11}")
    for r in rows:
        print(
            f"{r['workload']:<44}{r['games']:>9,}{r['seconds']:>8.2f}{r['games_per_s']:>10,.0f}{r['us_per_action']:>11.2f}"
        )
    print(f"load average (1 min) at the end: {load:.2f}" if load is not None else "")


if __name__ == "__main__":
    main()
