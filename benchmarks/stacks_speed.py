"""Sequence Stacks: random playouts per second of the compiled engine against the
plain-Python reference, on one core, for 2 and 4 players (issue 13's target: at
least 100x).

Run from the repository root after ``pip install -e .``::

    python benchmarks/stacks_speed.py                  # about 10 s
    python benchmarks/stacks_speed.py --games 20000 --ref-games 200 --json

Both sides deal a fresh game and play uniformly random legal actions to the end
(the compiled side: ``seqsolve._stacks.random_games``, without the GIL; the
reference: ``ReferenceStacks.new`` then ``random_playout``).  The games are other
games of the same kind (the two shuffle with different generators), so the ratio
of games/s is the figure; actions/s says how long the games were.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from seqsolve import _stacks
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import stacks_tables
from seqsolve.reference.stacks import ReferenceStacks

TARGET = 100.0


def compiled_games(players: int, games: int, seed: int) -> dict:
    tables = stacks_tables(make_rules("stacks", players))
    start = time.perf_counter()
    _, actions, draws = _stacks.random_games(tables, np.random.PCG64(seed), games)
    return _rates(games, actions, time.perf_counter() - start, draws)


def reference_games(players: int, games: int, seed: int) -> dict:
    rules = make_rules("stacks", players)
    actions = draws = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        game = ReferenceStacks.new(rules, rng)
        actions += len(game.random_playout(rng))
        draws += game.result == "draw"
    return _rates(games, actions, time.perf_counter() - start, draws)


def _rates(games: int, actions: int, seconds: float, draws: int) -> dict:
    return {
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1),
        "actions_per_s": round(actions / seconds),
        "actions_per_game": round(actions / games, 1),
        "draw_share": round(draws / games, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="compiled games per player count")
    parser.add_argument("--ref-games", type=int, default=300, help="reference games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {}
    for players in (2, 4):
        core = compiled_games(players, args.games, args.seed)
        ref = reference_games(players, args.ref_games, args.seed)
        rows[players] = {
            "compiled": core,
            "reference": ref,
            "ratio": round(core["games_per_s"] / ref["games_per_s"], 1),
        }
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{'players':>7} {'compiled games/s':>17} {'reference games/s':>18} {'ratio':>7} {'actions/game':>13}"
    )
    for players, row in rows.items():
        mark = "" if row["ratio"] >= TARGET else f"  (below the {TARGET:.0f}x target)"
        print(
            f"{players:>7} {row['compiled']['games_per_s']:>17,.0f} {row['reference']['games_per_s']:>18,.1f}"
            f" {row['ratio']:>6.0f}x {row['compiled']['actions_per_game']:>13}{mark}"
        )


if __name__ == "__main__":
    main()
