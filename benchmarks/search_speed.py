"""Speed of the compiled bot brains (seqsolve._choose and _search) on one core, classic rules, 2 players.

* MCTS iterations per second from the opening (5 seeded deals) and from a
  mid-game (5 seeded uniformly random games stopped at turn 40), each the best of
  3 searches of ``--iterations`` iterations, median over the positions;
* greedy and heuristic time per move over positions taken every 8 turns from 20
  seeded random games (the Python call included);
* the ``rollout`` bot's time per move (default 1,600 worlds, 8 candidates) on the
  opening and turn-40 positions, and its playouts per second.

Usage: ``python benchmarks/search_speed.py [--iterations N] ['{"playout_depth": 8}' ...]``
(each extra argument is a JSON dict of Searcher parameters to measure too).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from seqsolve import _choose, _search
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State


def random_game(seed: int, turns: int) -> State:
    state = State.new(parse_rules("classic", players=2), seed=seed)
    rng = np.random.default_rng(seed)
    while state.turn < turns and not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.integers(len(actions))])
    return state


def iterations_per_second(state: State, params: dict, iterations: int, repeats: int = 3) -> float:
    seat = state.current_player
    view = state.observation(seat).core
    best = 0.0
    for r in range(repeats):
        result = _search.Searcher(params).search(view, seat, np.random.PCG64(r), iterations=iterations)
        best = max(best, result["iterations"] / result["seconds"])
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30_000)
    parser.add_argument("params", nargs="*", help="JSON dicts of Searcher parameters")
    args = parser.parse_args()
    positions = {
        "opening": [random_game(seed, 0) for seed in range(1, 6)],
        "turn 40": [random_game(seed, 40) for seed in range(11, 16)],
    }
    for text in ["{}", *args.params]:
        params = json.loads(text)
        cells = []
        for name, states in positions.items():
            rates = [iterations_per_second(s, params, args.iterations) for s in states]
            cells.append(f"{name}: {statistics.median(rates):>9,.0f} it/s")
        print(f"mcts {text:<40} " + "   ".join(cells), flush=True)
    views = []
    for seed in range(20):
        state = State.new(parse_rules("classic", players=2), seed=100 + seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and state.turn < 80:
            if state.turn % 8 == 0:
                views.append(state.observation(state.current_player).core)
            actions = state.legal_actions()
            state.apply(actions[rng.integers(len(actions))])
    bit_generator = np.random.PCG64(0)
    for choose in (_choose.greedy_action, _choose.heuristic_action):
        start = time.perf_counter()
        for _ in range(5):
            for view in views:
                choose(view, bit_generator)
        per_move = (time.perf_counter() - start) / (5 * len(views))
        print(f"{choose.__name__}: {per_move * 1e6:,.0f} us per move ({len(views)} positions)")
    from seqsolve.bots import make_bot

    bot = make_bot("rollout")
    for name, states in positions.items():
        times = []
        for k, state in enumerate(states):
            start = time.perf_counter()
            bot.choose(state.observation(state.current_player), np.random.default_rng(k))
            times.append(time.perf_counter() - start)
        per_move = statistics.median(times)
        print(
            f"rollout {name}: {per_move * 1e3:,.0f} ms per move, "
            f"at most {1600 * 8 / per_move:,.0f} playouts/s (median of {len(states)})"
        )


if __name__ == "__main__":
    main()
