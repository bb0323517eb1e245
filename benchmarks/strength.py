"""Bot strength and match speed, as recorded in benchmarks/RESULTS.md.

Runs, through the same code as ``seqsolve match``:

* the strength ladder: greedy vs random, heuristic vs greedy, mcts vs heuristic
  on classic with 2 players, and a line for 4 players in 2 teams and for 3
  players (paired deals, 95% intervals);
* ``match random random --games N`` throughput with 1 and 2 jobs, and the ratio;
* with ``--ceiling``, the information ladder: the flat Monte Carlo bot
  (``rollout``) fair, then seeing every hand, then every card and the draw
  pile's order, against greedy and against heuristic.  How far the seeing bots
  get bounds what any fair bot can score.

Usage:  python benchmarks/strength.py [--quick] [--ceiling] [--skip-ladder] [--json out.json]
Every figure is seeded; rerunning gives the same games (timings aside).
MCTS iterations per second are measured by benchmarks/search_speed.py.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.report import summarize_match

MCTS = "mcts"  # the default budget of the bot


def ladder(quick: bool) -> list[dict]:
    scale = 0.25 if quick else 1.0
    rows = []
    plan = [
        (("greedy", "random"), 2, None, 400),
        (("heuristic", "greedy"), 2, None, 2000),
        ((MCTS, "heuristic"), 2, None, 300),
        (("greedy", "random"), 4, None, 200),
        (("heuristic", "greedy"), 4, None, 1000),
        ((MCTS, "heuristic"), 4, None, 120),
        (("greedy", "random"), 3, None, 300),
        (("heuristic", "greedy"), 3, None, 1500),
        ((MCTS, "heuristic"), 3, None, 150),
    ]
    for bots, players, teams, games in plan:
        games = max(6, int(games * scale) // 6 * 6)
        rows.append(match_row(bots, players, games, teams))
    return rows


CEILING = [
    # (bot, opponent, games): the fair bot, then what seeing the hidden cards is worth
    ("rollout", "greedy", 120),
    ("rollout", "heuristic", 120),
    ("rollout:see=hands,worlds=200", "greedy", 200),
    ("rollout:see=hands,worlds=200", "heuristic", 200),
    ("rollout:see=all,worlds=4", "greedy", 400),
    ("rollout:see=all,worlds=4", "heuristic", 400),
    ("rollout:see=hands,worlds=100,policy=heuristic", "heuristic", 100),
    ("rollout:see=all,worlds=2,policy=heuristic", "heuristic", 400),
]


def match_row(bots: tuple[str, str], players: int, games: int, teams: int | None = None) -> dict:
    config = MatchConfig(bots=bots, players=players, teams=teams, seed=2026)
    started = time.perf_counter()
    records = run_games(config, games, jobs=-1)
    seconds = time.perf_counter() - started
    s = summarize_match(records, bots, seconds)
    row = {
        "a": bots[0],
        "b": bots[1],
        "players": players,
        "sides": config.sides,
        "games": s["games"],
        "score": s["score"],
        "score_ci": s["score_ci"],
        "elo": s["elo"],
        "elo_ci": s["elo_ci"],
        "draws": s["draws"],
        "seconds": seconds,
    }
    print(json.dumps(row), flush=True)
    return row


def ceiling(quick: bool) -> list[dict]:
    scale = 0.25 if quick else 1.0
    return [match_row((a, b), 2, max(6, int(games * scale) // 2 * 2)) for a, b, games in CEILING]


def throughput(games: int) -> dict:
    config = MatchConfig(bots=("random", "random"), seed=7)
    out = {}
    for jobs in (1, 2):
        started = time.perf_counter()
        run_games(config, games, jobs=jobs)
        seconds = time.perf_counter() - started
        out[f"jobs{jobs}"] = {"games": games, "seconds": seconds, "games_per_s": games / seconds}
    out["scaling"] = out["jobs2"]["games_per_s"] / out["jobs1"]["games_per_s"]
    print(json.dumps(out), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a quarter of the games")
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--skip-ladder", action="store_true")
    ap.add_argument(
        "--ceiling", action="store_true", help="also the information ladder (slow: about an hour)"
    )
    args = ap.parse_args()
    result = {
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "throughput": throughput(2000 if args.quick else 10000),
    }
    if not args.skip_ladder:
        result["ladder"] = ladder(args.quick)
    if args.ceiling:
        result["ceiling"] = ceiling(args.quick)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)


if __name__ == "__main__":
    main()
