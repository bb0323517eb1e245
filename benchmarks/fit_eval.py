"""Fit the evaluation weights (the F_* features of ext/seqsolve/_eval.pxd) by
logistic regression on self-play positions.

Each sampled position is seen by one seat (its observation: its own hand known,
every other hidden card unknown, as the heuristic bot sees the positions it
compares); the row is that seat's side features minus the other side's, the
label whether that seat's side went on to win.  Two players, classic rules.

    python benchmarks/fit_eval.py --games 4000 --jobs 2 --out weights.json
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from joblib import Parallel, delayed
from scipy.optimize import minimize

from seqsolve import _eval
from seqsolve.bots import make_bot
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State

PAIRS = (("heuristic", "greedy"), ("greedy", "heuristic"), ("heuristic", "heuristic"), ("greedy", "greedy"))


def play(game: int, seed: int, every: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and labels from one seeded game."""
    rules = parse_rules("classic", players=2)
    seq = np.random.SeedSequence([seed, game])
    deal, b0, b1, pick = seq.spawn(4)
    specs = PAIRS[game % len(PAIRS)]
    bots = [make_bot(spec) for spec in specs]
    rngs = [np.random.default_rng(b0), np.random.default_rng(b1)]
    sampler = np.random.default_rng(pick)
    state = State.new(rules, seed=deal)
    rows, seats = [], []
    ply = 0
    while not state.is_terminal():
        seat = state.current_player
        if ply % every == 0:
            viewer = int(sampler.integers(2))
            feats = _eval.position_features(state.observation(viewer).core)
            me = state.side_of(viewer)
            rows.append(np.subtract(feats[me], feats[1 - me]))
            seats.append(me)
        state.apply(bots[seat].choose(state.observation(seat), rngs[seat]))
        ply += 1
    returns = state.returns()
    labels = np.array([returns[s] for s in seats], dtype=float)
    return np.array(rows), labels


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Weights of a logistic model without intercept (the features are differences)."""
    scale = x.std(axis=0) + 1e-9

    def loss(w):
        z = (x / scale) @ w
        p = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-12
        value = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + l2 * w @ w
        grad = (x / scale).T @ (p - y) / len(y) + 2 * l2 * w
        return value, grad

    res = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B")
    return res.x / scale


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--every", type=int, default=3, help="sample one position every N plies")
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--data", help="cache the rows in this .npz")
    ap.add_argument("--out", help="write the fitted weights (eval points, eval_scale 100) as JSON")
    args = ap.parse_args()
    parts = Parallel(n_jobs=args.jobs, batch_size=16)(
        delayed(play)(g, args.seed, args.every) for g in range(args.games)
    )
    x = np.concatenate([p[0] for p in parts if len(p[0])])
    y = np.concatenate([p[1] for p in parts if len(p[0])])
    if args.data:
        np.savez_compressed(args.data, x=x, y=y)
    keep = y != 0.5
    w = fit(x[keep], y[keep], args.l2) * 100.0  # in eval points: eval_scale is 100
    names = _eval.FEATURE_NAMES
    for name, value in zip(names, w):
        print(f"{name:12s} {value:9.2f}")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(dict(zip(names, [float(v) for v in w])), fh, indent=1)


if __name__ == "__main__":
    main()
