"""Time per decision of the one-ply bots (greedy, heuristic) on every preset.

The positions are every third position of 20 seeded greedy self-play games
per preset (2 players); each bot decides on each of them, five times, and the
best of the five passes is reported in µs of CPU per decision (thread time, so a
busy machine does not inflate it).  ``choices`` is a digest of greedy's choices
with a fixed tie-break stream: two builds that print the same digest choose
alike, which is how a speed change is checked to change nothing else.

Usage:  python benchmarks/decision_speed.py [--presets classic,draft] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import numpy as np

from seqsolve import _choose
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State

PRESETS = ("classic", "seed000", "seed002-literal", "numbers", "numbers-seed001-literal", "draft")


def positions(preset: str, games: int = 20) -> list[State]:
    rules = parse_rules(preset, players=2)
    out = []
    for seed in range(games):
        state = State.new(rules, seed=seed)
        rng = np.random.PCG64(seed)
        ply = 0
        while not state.is_terminal():
            if ply % 3 == 0:
                out.append(state.clone())
            state.apply(_choose.greedy_action(state.core, rng))
            ply += 1
    return out


def per_decision(choose, states: list[State], passes: int = 5) -> float:
    rng = np.random.PCG64(1)
    best = float("inf")
    for _ in range(passes):
        started = time.thread_time()
        for state in states:
            choose(state.core, rng)
        best = min(best, (time.thread_time() - started) / len(states))
    return best * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for preset in args.presets.split(","):
        states = positions(preset)
        choices = [_choose.greedy_action(s.core, np.random.PCG64(7)) for s in states]
        digest = hashlib.sha256(np.asarray(choices, dtype=np.int64).tobytes()).hexdigest()[:12]
        row = {
            "preset": preset,
            "positions": len(states),
            "greedy_us": per_decision(_choose.greedy_action, states),
            "heuristic_us": per_decision(_choose.heuristic_action, states, passes=2),
            "choices": digest,
        }
        rows.append(row)
        if not args.json:
            print(
                f"{preset:<24} {row['positions']:>4} positions  greedy {row['greedy_us']:7.2f} µs  "
                f"heuristic {row['heuristic_us']:8.2f} µs  choices {digest}",
                flush=True,
            )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
