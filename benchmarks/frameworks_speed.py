"""Random games through the framework wrappers beside the core's.

Five ways to play a uniformly random game of classic Sequence (2 players), timed in
CPU seconds of this process (``time.process_time``), interleaved round by round so that
load from other work falls on all of them alike:

* ``core playout``: ``CoreGame.playout()``, the whole game in compiled code;
* ``State API``: a Python loop over ``legal_actions()`` and ``apply_legal`` (what a
  Python program embedding seqsolve pays);
* ``OpenSpiel``: ``seqsolve.frameworks.openspiel``'s game, chance outcomes (the deal,
  every draw) sampled from ``chance_outcomes()``, actions from ``legal_actions()``;
* ``OpenSpiel + tensor``: the same, reading the mover's ``observation_tensor`` before
  each decision, as a learning agent would;
* ``PettingZoo``: ``seqsolve.frameworks.pettingzoo``'s AEC environment (``raw_env``), ``last()``
  (observation and mask) before each action, an action drawn from the mask.

Then, for OpenSpiel's MCTS bots, the cost of valuing one leaf (the state after the
deal) with seqsolve's ``PlayoutEvaluator`` (a random game in the core) and with
OpenSpiel's ``RandomRolloutEvaluator`` (a random game through the OpenSpiel states),
interleaved the same way.

Usage:  python benchmarks/frameworks_speed.py [--games 200] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel

import seqsolve
import seqsolve.frameworks.openspiel
from seqsolve.frameworks.pettingzoo import raw_env

RULES = seqsolve.parse_rules("classic", players=2)


def core_playout(games: int, seed: int) -> int:
    plies = 0
    for g in range(games):
        state = seqsolve.State.new(RULES, seed=seed + g)
        plies += state.core.playout()
    return plies


def state_api(games: int, seed: int) -> int:
    plies = 0
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = seqsolve.State.new(RULES, seed=seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_legal(legal[int(rng.integers(len(legal)))])
            plies += 1
    return plies


def openspiel(games: int, seed: int, tensor: bool = False) -> int:
    game = pyspiel.load_game("python_seqsolve_sequence")
    rng = np.random.default_rng(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(actions[int(rng.choice(len(actions), p=probs))])
                continue
            if tensor:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            plies += 1
    return plies


def pettingzoo(games: int, seed: int) -> int:
    game = raw_env("classic", 2)
    rng = np.random.default_rng(seed)
    plies = 0
    for g in range(games):
        game.reset(seed=seed + g)
        for _ in game.agent_iter():
            obs, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            game.step(int(legal[int(rng.integers(len(legal)))]))
            plies += 1
    return plies


def leaf_costs(rounds: int) -> list[tuple[float, float]]:
    """CPU seconds of one leaf value, (core playout, OpenSpiel rollout), per round."""
    from open_spiel.python.algorithms import mcts

    from seqsolve.frameworks.openspiel import PlayoutEvaluator

    game = pyspiel.load_game("python_seqsolve_sequence")
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    ours = PlayoutEvaluator(1, np.random.default_rng(2))
    theirs = mcts.RandomRolloutEvaluator(1, np.random.RandomState(2))
    costs = []
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(400):
            ours.evaluate(state)
        core = (time.process_time() - started) / 400
        started = time.process_time()
        for _ in range(40):
            theirs.evaluate(state)
        costs.append((core, (time.process_time() - started) / 40))
    return costs


WAYS = {
    "core playout": (core_playout, 50),  # games per wrapper game: the core is this much faster
    "State API": (state_api, 1),
    "OpenSpiel": (openspiel, 1),
    "OpenSpiel + tensor": (lambda n, s: openspiel(n, s, tensor=True), 1),
    "PettingZoo": (pettingzoo, 1),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per way and round (x50 for the core)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for way, times in WAYS.values():  # imports, tables, caches: once, untimed
        way(2 * times, 10**6)
    rows = []
    for r in range(args.rounds):
        row = {}
        for name, (way, times) in WAYS.items():
            games = args.games * times
            started = time.process_time()
            plies = way(games, 1000 * r)
            seconds = time.process_time() - started
            row[name] = {"games_s": games / seconds, "plies_game": plies / games}
        rows.append(row)
    leaves = leaf_costs(args.rounds)
    if args.json:
        print(json.dumps({"games": rows, "leaf_seconds": leaves}, indent=2))
        return
    print(f"{'way':<20} " + "  ".join(f"round {r + 1:<29}" for r in range(args.rounds)))
    for name in WAYS:
        cells = []
        for row in rows:
            core, api, mine = row["core playout"]["games_s"], row["State API"]["games_s"], row[name]
            cells.append(
                f"{mine['games_s']:>9,.0f}/s {mine['games_s'] / core:>7.4f}xC {mine['games_s'] / api:>6.3f}xA"
            )
        plies = np.mean([row[name]["plies_game"] for row in rows])
        print(f"{name:<20} " + "  ".join(cells) + f"   {plies:.0f} plies/game")
    print("games/s (CPU); xC: ratio to the core's playout in the same round; xA: to the State API loop's")
    print(
        "a leaf's value, core playout / OpenSpiel rollout: "
        + "   ".join(
            f"{core * 1e6:.0f} µs / {rollout * 1e3:.2f} ms ({rollout / core:.0f}x)"
            for core, rollout in leaves
        )
    )


if __name__ == "__main__":
    main()
