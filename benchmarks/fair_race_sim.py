"""The ``fair`` race against a uniform grid, simulated on candidates of known seat
advantage: no game is played, each candidate's games are Bernoulli draws at its rate.

For each candidate set (the advantages, in points, that a compensation rule crossed
with others might give) and each run, it races the candidates with
:func:`seqsolve.balance.race.race` under the plan ``seqsolve fair`` makes from the same
options (:class:`~seqsolve.balance.race.RacePlan`), then prices the uniform grid at the
precision the race reached on its pick (:func:`~seqsolve.balance.race.uniform_grid`).
It prints, per candidate set: the race's games (every confirmation's among them) and
the grid's (means over runs), their ratio, the confirmations per race, how often the
answer (the first confirmed within ``--within``, else the confirmed one nearest 0) was
within 1 point of the fairest candidate, how often it was reported fair within
``--within`` and truly was, and how often its final interval held its true advantage.

    python benchmarks/fair_race_sim.py --runs 100 --seed 1 [--precision 1 --within 1 --confirm 3 \
        --batch 200 --budget 40000]

The defaults are those of ``seqsolve fair``.
"""

from __future__ import annotations

import argparse

import numpy as np

from seqsolve.balance.race import RacePlan, race, uniform_grid

#: candidate sets: (name, advantages in points, sides).  hand_bonus 0/1/2 giving about
#: +4, -2 and -7 points in two-player classic, crossed with rules worth 0 to -4 points
SCENARIOS = [
    ("6: classic 2p as in the example below", [6.4, 5.2, -2.0, -2.3, -9.5, -10.7], 2),
    ("6: hand_bonus 0-2 x a -3.5 rule", [4, -2, -7, 0.5, -5.5, -10.5], 2),
    ("9: hand_bonus 0-2 x 0/-1.5/-3", [a + b for a in (4, -2, -7) for b in (0, -1.5, -3)], 2),
    ("12: hand_bonus 0-3 x 0/-1.5/-3", [a + b for a in (4, -2, -7, -11) for b in (0, -1.5, -3)], 2),
    ("20: hand_bonus 0-3 x 0..-4", [a + b for a in (4, -2, -7, -11) for b in (0, -1, -2, -3, -4)], 2),
    ("9, 3 sides: 0-2 x 0/-1.5/-3", [a + b for a in (5, -1, -6) for b in (0, -1.5, -3)], 3),
    #: three left as fair as one another at the selection's width, one of them outside
    #: +-1 point (classic 2p in docs/fairness.md: -1.4, -0.6, -0.8 after the selection)
    ("6: three near fair (-1.4, -0.6, -0.8), three not", [-1.4, -0.6, -0.8, 3.5, -4.5, 6.0], 2),
]


def simulate(advantages, sides, runs, seed, batch, budget, level, precision, within, confirm):
    share = 1 / sides
    rates = np.asarray(advantages) / 100 + share
    k = len(rates)
    plan = RacePlan.of(k, sides, batch, budget, level, precision)
    race_games, grid_games, confirmations, near, fair, truly, covered = [], [], [], [], [], [], []
    fairest = min(abs(a) for a in advantages)
    for run in range(runs):
        rng = np.random.default_rng([seed, run])
        games = [(rng.random(budget) < r).astype(float) for r in rates]
        result = race(
            lambda i, n, games=games: games[i][:n], [share] * k, batch, budget, plan, 1, confirm, within
        )
        pick = result.ranking()[0]
        grid = uniform_grid(result, pick, games[pick][: result.games[pick]], level)
        race_games.append(grid["race_games"])
        grid_games.append(grid["fixed_interval"])
        confirmations.append(len(result.confirmations))
        near.append(abs(advantages[pick]) - fairest <= 1.0)
        said = bool(result.confirmed and result.confirmed["within"])
        fair.append(said)
        truly.append(abs(advantages[pick]) <= 100 * within if said else True)
        _, low, high = result.intervals[pick]
        covered.append(low <= rates[pick] - share <= high)
    return {
        "race": float(np.mean(race_games)),
        "grid": float(np.mean(grid_games)),
        "share": float(np.mean(race_games) / np.mean(grid_games)),
        "confirmations": float(np.mean(confirmations)),
        "near": float(np.mean(near)),
        "fair": float(np.mean(fair)),
        "truly": float(np.mean(truly)),
        "covered": float(np.mean(covered)),
        "confirm": plan.confirm,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--budget", type=int, default=40_000)
    parser.add_argument("--level", type=float, default=0.95)
    parser.add_argument("--precision", type=float, default=1.0, help="points")
    parser.add_argument("--within", type=float, default=1.0, help="points")
    parser.add_argument("--confirm", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{args.runs} runs each, --batch {args.batch} --budget {args.budget} --level {args.level}"
        f" --precision {args.precision} --within {args.within} --confirm {args.confirm}"
    )
    print(
        "| candidates | race games | grid games | race / grid | confirmed | answer within 1 pp of the fairest"
        " | answer said fair | said fair and is | answer's CI holds |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, advantages, sides in SCENARIOS:
        r = simulate(
            advantages,
            sides,
            args.runs,
            args.seed,
            args.batch,
            args.budget,
            args.level,
            args.precision / 100,
            args.within / 100,
            args.confirm,
        )
        print(
            f"| {name} | {r['race']:.0f} | {r['grid']:.0f} | {r['share']:.2f} | {r['confirmations']:.2f} |"
            f" {100 * r['near']:.0f}% | {100 * r['fair']:.0f}% | {100 * r['truly']:.0f}% | {100 * r['covered']:.0f}% |"
        )


if __name__ == "__main__":
    main()
