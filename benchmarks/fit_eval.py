"""Fit the evaluation weights (the F_* features of ext/seqsolve/_eval.pxd) by
logistic regression on self-play positions.

Each sampled position is seen by one seat (its observation: its own hand known,
every other hidden card unknown, as the heuristic bot sees the positions it
compares); the row is that seat's side features minus the other side's, the
label whether that seat's side went on to win.  Two players, classic rules.

``--view world`` reads the whole position instead (every hand known), as mcts's
leaf evaluation sees a dealt world; ``--plain`` fits only the features the
evaluation reads on its fast path (dead windows counted as open ones, no hand
cells), and ``--out`` then writes a weights file the bots read as it is
(``heuristic:weights=weights.json``; without ``--plain`` it holds the features' points).

    python benchmarks/fit_eval.py --games 4000 --jobs 2 --plain --out weights.json
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


def play(game: int, seed: int, every: int, world: bool = False) -> tuple[np.ndarray, np.ndarray]:
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
            feats = _eval.position_features((state if world else state.observation(viewer)).core)
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


def plain(x: np.ndarray) -> np.ndarray:
    """The fast path's features: dead windows folded into the open ones of their
    fill, the hand-cell counts dropped."""
    dead = FEATURES.index("dead_open0")
    folded = x[:, :dead].copy()
    folded[:, :5] += x[:, dead : dead + 5]
    return folded


FEATURES = _eval.FEATURE_NAMES


def plain_weights(w: np.ndarray) -> dict:
    """Fitted eval points of plain()'s features as evaluation weights (w_dead_open
    equal to w_open keeps the evaluation on its fast path)."""
    named = dict(zip(FEATURES, (float(v) for v in w)))
    opened = tuple(named[f"open{k}"] for k in range(5))
    return {
        "w_open": opened,
        "w_dead_open": opened,
        "w_threat": named["threat"],
        "w_win_threat": named["win_threat"],
        "w_double_threat": named["double"],
        "w_win_double": named["win_double"],
        "w_sequence": named["sequence"],
        "w_jack_in_hand": named["wild"],
        "w_remove_in_hand": named["remove"],
        "w_dead_card": -named["dead"],
        "w_ready": named["ready"],
        "w_win_ready": named["win_ready"],
        "w_tempo": named["tempo"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--every", type=int, default=3, help="sample one position every N plies")
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument(
        "--view",
        choices=("observation", "world"),
        default="observation",
        help="features of the sampling seat's observation, or of the whole position",
    )
    ap.add_argument("--plain", action="store_true", help="fit only the fast path's features")
    ap.add_argument("--data", help="cache the rows in this .npz")
    ap.add_argument("--out", help="write the fitted weights (eval points, eval_scale 100) as JSON")
    args = ap.parse_args()
    parts = Parallel(n_jobs=args.jobs, batch_size=16)(
        delayed(play)(g, args.seed, args.every, args.view == "world") for g in range(args.games)
    )
    x = np.concatenate([p[0] for p in parts if len(p[0])])
    y = np.concatenate([p[1] for p in parts if len(p[0])])
    if args.data:
        np.savez_compressed(args.data, x=x, y=y)
    keep = y != 0.5
    if args.plain:
        x = plain(x)
    w = fit(x[keep], y[keep], args.l2) * 100.0  # in eval points: eval_scale is 100
    for name, value in zip(FEATURES, w):
        print(f"{name:12s} {value:9.2f}")
    if args.out:
        out = plain_weights(w) if args.plain else dict(zip(FEATURES, [float(v) for v in w]))
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
