"""Games a second of a trivial Python bot played in-process against the same bot over
``ext:``.

The bot plays the first legal action.  In-process it is the class ``FirstLegal`` of this
file (``benchmarks/python_bot_speed.py:FirstLegal``); over the line protocol it is this
file run with ``--ext``, answering the first move of each ``legal`` line, which is the
first of ``legal_actions()``: both play the same games against ``random`` from the same
seed (checked, timing aside), so the ratio is the cost of the door alone.

Rounds interleave the two (in-process, then ext, ...) on one core (``jobs=1``), so that
the load of a shared machine falls on both alike; each figure is games a second of wall
time, and of CPU time (this process and its children: the ext program's own work counts).

Usage:  python benchmarks/python_bot_speed.py [--games 300] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


class FirstLegal:
    """The first legal action: a bot that costs nothing but the door it comes through."""

    def choose(self, observation, rng):
        return observation.legal_actions()[0]


def ext_main() -> None:
    """The same bot speaking the line protocol (seqsolve/games/external.py)."""
    legal: list[str] = []
    for line in sys.stdin:
        word, _, rest = line.partition(" ")
        word = word.strip()
        if word == "seqsolve":
            print("ready", flush=True)
        elif word == "legal":
            legal = rest.split()
        elif word == "go":
            print("move " + legal[0], flush=True)
        elif word == "quit":
            return


def timed(spec: str, games: int, seed: int) -> tuple[float, float, list[dict]]:
    """Wall and CPU seconds (this process and its ended children) of ``games`` games of
    ``spec`` against ``random``, and their records."""
    from seqsolve.play.config import MatchConfig
    from seqsolve.play.match import run_games

    config = MatchConfig(bots=(spec, "random"), seed=seed)
    children = os.times()
    cpu, wall = time.process_time(), time.perf_counter()
    records = run_games(config, games, jobs=1, out=None)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    ended = os.times()  # the ext program has ended and been waited for: its CPU is counted
    cpu += ended.children_user + ended.children_system - children.children_user - children.children_system
    return wall, cpu, records


def stable(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("seconds", "seats")} for r in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games of each door a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    inproc = f"{HERE}:FirstLegal"
    ext = f"ext:{sys.executable} {HERE} --ext"
    timed(inproc, 4, args.seed)  # imports and tables, once
    rounds = []
    for _ in range(args.rounds):
        wall_in, cpu_in, rec_in = timed(inproc, args.games, args.seed)
        wall_ext, cpu_ext, rec_ext = timed(ext, args.games, args.seed)
        if stable(rec_in) != stable(rec_ext):
            raise SystemExit("the two doors played different games: the comparison is void")
        if any(r["forfeit"] for r in rec_in + rec_ext):
            raise SystemExit("a forfeit: the comparison is void")
        rounds.append(
            {
                "in_process_games_per_s": args.games / wall_in,
                "ext_games_per_s": args.games / wall_ext,
                "ratio_wall": wall_ext / wall_in,
                "in_process_games_per_cpu_s": args.games / cpu_in,
                "ext_games_per_cpu_s": args.games / cpu_ext,
                "ratio_cpu": cpu_ext / cpu_in,
            }
        )
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "rounds": rounds}, indent=2))
        return
    print(f"FirstLegal vs random, classic 2p, {args.games} games a door a round, seed {args.seed}, jobs=1")
    print("round  in-process g/s (CPU)   ext: g/s (CPU)   in-process / ext: wall, CPU")
    for k, r in enumerate(rounds, 1):
        print(
            f"{k:>5}  {r['in_process_games_per_s']:>8.1f} ({r['in_process_games_per_cpu_s']:>7.1f})"
            f"  {r['ext_games_per_s']:>7.1f} ({r['ext_games_per_cpu_s']:>6.1f})"
            f"   {r['ratio_wall']:>5.1f}x, {r['ratio_cpu']:>5.1f}x"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["--ext"]:
        ext_main()
    else:
        main()
