"""Compiled core versus the plain-Python reference, on the workload of ``seqsolve bench``.

Run from the repository root after ``pip install -e .``::

    python benchmarks/bench.py                 # standard sizes (about 10 s)
    python benchmarks/bench.py --games 2000    # quicker
    python benchmarks/bench.py --json

The compiled side is :func:`seqsolve.benchmark.run_benchmark` (exactly what
``seqsolve bench --json`` prints).  The reference side does the same kinds of
work with :mod:`seqsolve.reference`, on smaller sizes (``--scale``):

* random games: ``RefGame.new`` deals, then each action is drawn uniformly
  from ``legal_moves()`` and played with ``apply()`` (deals come from
  ``random.Random``, so the games are other games of the same kind);
* scans, on the same mid-game position and timed separately like the core's:
  through one cell, the C-24 test (``counts_for``) on the windows through each
  cell for every side; full, the same test over all 192 windows, once per side.

The table gives the ratio compiled / reference for each rate.  The target
of the engine issue is at least 200x the reference's games/s.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from seqsolve.benchmark import DEFAULT_GAMES, midgame_state, per_second, run_benchmark
from seqsolve.games.sequence.board import windows, windows_through
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.reference.game import RefGame
from seqsolve.reference.sequences import counts_for

TARGET = 200.0


def reference_games(games: int, seed: int) -> dict:
    """Uniformly random reference games from fresh deals; games/s and plies/s."""
    rules = parse_rules("classic", players=2)
    plies = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        game = RefGame.new(rules, rng=rng)
        while not game.is_over:
            game.apply(rng.choice(game.legal_moves()))
            plies += 1
    seconds = time.perf_counter() - start
    return {**per_second(seconds, games=games, plies=plies), "plies_per_game": plies / games}


def reference_scans(repeats: int, seed: int) -> dict:
    """The reference doing the core's two scans on the same mid-game position, each timed
    on its own: full windows through each cell (incremental), and all 192 windows (full)."""
    state = midgame_state(seed)
    game = RefGame.from_position(state.to_position())
    board, sides = game.board, game.sides
    all_windows = windows()
    through = windows_through()

    def full_through(colour: str, cell: int) -> int:
        return sum(1 for w in through[cell] if all(counts_for(board[c], colour) for c in all_windows[w]))

    start = time.perf_counter()
    inc = 0
    for _ in range(repeats):
        for colour in sides:
            for cell in range(100):
                full_through(colour, cell)
                inc += 1
    inc_seconds = time.perf_counter() - start
    start = time.perf_counter()
    full = 0
    for _ in range(repeats):
        for colour in sides:
            sum(1 for w in all_windows if all(counts_for(board[c], colour) for c in w))
            full += 1
    full_seconds = time.perf_counter() - start
    return {
        "scan_repeats": repeats,
        "scans": inc,
        "full_scans": full,
        "scan_seconds": inc_seconds,
        "scans_per_s": inc / inc_seconds,
        "full_scans_per_s": full / full_seconds,
    }


def compare(games: int, seed: int, scale: int) -> dict:

    def say(line: str) -> None:
        print(line, file=sys.stderr)

    compiled = run_benchmark(games, seed=seed, log=say)
    ref_games = max(1, games // scale)
    ref_repeats = max(1, compiled["scan_repeats"] // (scale * 4))
    say(f"reference: {ref_games} random games ...")
    ref = reference_games(ref_games, seed)
    say(f"reference: scanning the mid-game position {ref_repeats} times ...")
    ref.update(reference_scans(ref_repeats, seed))
    keys = ("games_per_s", "plies_per_s", "scans_per_s", "full_scans_per_s")
    ratios = {k: compiled[k] / ref[k] for k in keys}
    return {"compiled": compiled, "reference": ref, "ratio": ratios, "target_games_ratio": TARGET}


def table(result: dict) -> str:
    c, r, q = result["compiled"], result["reference"], result["ratio"]
    rows = [
        ("random games / s", "games_per_s"),
        ("plies / s", "plies_per_s"),
        ("scans through one cell / s", "scans_per_s"),
        ("full scans / s", "full_scans_per_s"),
    ]
    lines = [
        "| measure | compiled core | Python reference | compiled / reference |",
        "|---|---:|---:|---:|",
    ]
    for name, key in rows:
        lines.append(f"| {name} | {c[key]:,.0f} | {r[key]:,.1f} | {q[key]:,.0f}x |")
    lines.append("")
    lines.append(
        f"workload: compiled {c['games']:,} games ({c['plies_per_game']:.1f} plies/game), "
        f"{c['scan_repeats']:,} scan repeats; reference {r['games']:,} games "
        f"({r['plies_per_game']:.1f} plies/game), {r['scan_repeats']:,} scan repeats; seed {c['seed']}"
    )
    verdict = "meets" if q["games_per_s"] >= result["target_games_ratio"] else "MISSES"
    lines.append(f"games/s ratio {q['games_per_s']:,.0f}x {verdict} the target of {TARGET:.0f}x")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help="compiled games (default %(default)s)"
    )
    parser.add_argument("--scale", type=int, default=500, help="reference sizes = compiled sizes / scale")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print all figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.scale < 1:
        parser.error("--games and --scale must be at least 1")
    result = compare(args.games, args.seed, args.scale)
    print(json.dumps(result, indent=2) if args.json else table(result), end="" if not args.json else "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
