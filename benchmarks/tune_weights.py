"""Search the heuristic's evaluation weights for playing strength (CMA-ES).

Every candidate weight set plays the heuristic bot against greedy on paired deals
(classic, 2 players; the same deals for every candidate of a generation, new
deals each generation), and CMA-ES (the ``cma`` package: ``pip install cma``)
moves towards the sets that score best.  Logistic regression on self-play
positions (benchmarks/fit_eval.py) predicts winners but plays worse, which is
why strength is searched directly here.

    python benchmarks/tune_weights.py --generations 15 --pairs 600 --out best.json

``--out`` writes a weights file every evaluating bot reads: ``heuristic:weights=best.json``.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from joblib import Parallel, delayed

from seqsolve import _choose, _eval
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State

RULES = parse_rules("classic", players=2)
TUNED = (
    "w_open",
    "w_dead_open",
    "w_hand",
    "w_threat",
    "w_win_threat",
    "w_double_threat",
    "w_win_double",
    "w_sequence",
    "w_jack_in_hand",
    "w_remove_in_hand",
    "w_dead_card",
    "w_ready",
    "w_win_ready",
    "w_tempo",
    "w_tactics",
)


def play_pair(deal: int, seed: int, weights: dict) -> float:
    """Mean score of heuristic(weights) over the two games of one deal."""
    total = 0.0
    for swap in (0, 1):
        deal_seq, g0, g1 = np.random.SeedSequence([seed, deal]).spawn(3)
        state = State.new(RULES, seed=deal_seq)
        gens = (np.random.PCG64(g0), np.random.PCG64(g1))
        while not state.is_terminal():
            seat = state.current_player
            view = state.observation(seat).core
            if (seat == 0) != bool(swap):
                state.apply(_choose.heuristic_action(view, gens[seat], weights))
            else:
                state.apply(_choose.greedy_action(view, gens[seat]))
        total += (state.returns()[1 if swap else 0] + 1) / 2
    return total / 2


def score(weights: dict, pairs: int, seed: int, jobs: int) -> float:
    return float(
        np.mean(
            Parallel(n_jobs=jobs, batch_size=8)(delayed(play_pair)(d, seed, weights) for d in range(pairs))
        )
    )


def main() -> None:
    import cma

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generations", type=int, default=15)
    ap.add_argument("--pairs", type=int, default=600, help="paired deals per candidate")
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--out", help="write the best mean weights as JSON")
    args = ap.parse_args()
    start = {k: v for k, v in _eval.default_weights().items() if k in TUNED}
    slots = [(k, i) for k in TUNED for i in range(len(start[k]) if isinstance(start[k], tuple) else 1)]

    def value(k, i):
        return start[k][i] if isinstance(start[k], tuple) else start[k]

    scale = np.array([max(abs(value(k, i)), 5.0) for k, i in slots])

    def weights_of(x):
        w = {k: list(v) if isinstance(v, tuple) else v for k, v in start.items()}
        for (k, i), xi, s in zip(slots, x, scale):
            if isinstance(w[k], list):
                w[k][i] = float(xi * s)
            else:
                w[k] = float(xi * s)
        return {k: tuple(v) if isinstance(v, list) else v for k, v in w.items()}

    x0 = np.array([value(k, i) for k, i in slots]) / scale
    es = cma.CMAEvolutionStrategy(x0, 0.4, {"popsize": 12, "seed": 7, "verbose": -9})
    best = (score(weights_of(x0), args.pairs, 99, args.jobs), weights_of(x0))
    print(f"defaults: {best[0]:.3f}", flush=True)
    for gen in range(args.generations):
        xs = es.ask()
        es.tell(xs, [-score(weights_of(x), args.pairs, 1000 + gen, args.jobs) for x in xs])
        mean = weights_of(es.mean)
        s = score(mean, args.pairs, 99, args.jobs)
        print(f"generation {gen}: mean weights score {s:.3f}", flush=True)
        if s > best[0]:
            best = (s, mean)
    print(f"best: {best[0]:.3f}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(best[1], fh, indent=1)


if __name__ == "__main__":
    main()
