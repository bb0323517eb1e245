"""Bradley-Terry ratings for a round robin (the ``tournament`` command's table), in
logistic Elo as :mod:`.stats` uses it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from ..stats import z_value

_NAT = math.log(10.0) / 400.0  # natural-log units per Elo point


class Rating(NamedTuple):
    """A rating in Elo with its confidence interval."""

    elo: float
    low: float
    high: float


def bradley_terry(
    results: Mapping[tuple[str, str], tuple[float, float, float]],
    anchor: str | None = None,
    level: float = 0.95,
    prior_sd: float = 1000.0,
) -> dict[str, Rating]:
    """Elo ratings for a tournament table by maximum likelihood (Bradley-Terry, logistic).

    The model (Bradley & Terry 1952; Zermelo 1929) says ``a`` scores against
    ``b`` with expectation ``score_from_elo(r_a - r_b)``.  Draws count as half
    a win each way, i.e. the log-likelihood is
    ``sum (w_a + d/2) log P(a > b) + (w_b + d/2) log P(b > a)`` over pairings.

    Regularization: a player who won (or lost) every game has an infinite
    maximum-likelihood rating, and a player with no games or a disconnected
    table none at all.  We therefore add an independent normal prior
    ``r ~ N(0, prior_sd^2)`` on every rating (a MAP estimate; cf. the virtual
    draws of R. Coulom's BayesElo).  With the default 1000 Elo it barely
    moves ordinary ratings (a 0.75 score over 100 games gives 190.7 rather
    than 190.8), and gives an unbeaten player a large but finite rating with a
    wide interval.

    Intervals are Wald intervals ``r +- z * se`` from the inverse Hessian of
    the negative log-posterior (the observed Fisher information; for this
    model it equals the expected one).  Counting a draw as two half-games
    overstates the per-game variance a little, so intervals err on the wide
    side.  Ratings are relative to the field mean (mean 0) or, with
    ``anchor``, to that player (rating 0, interval [0, 0]); in both cases the
    interval is that of the contrast, so it does not include the arbitrary
    common offset.

    Args:
        results: ``{(a, b): (wins_a, draws, wins_b)}``; both orders of a
            pairing may appear and are added together.
        anchor: a player whose rating is fixed at 0.
        level: two-sided confidence level.
        prior_sd: standard deviation of the regularizing prior, in Elo.

    Returns:
        ``{player: Rating(elo, low, high)}``, strongest first (ties by name).

    Raises:
        ValueError: on a self-pairing, negative counts or an unknown anchor.

    >>> r = bradley_terry({("a", "b"): (75, 0, 25)}, anchor="b")
    >>> round(r["a"].elo), r["b"]
    (191, Rating(elo=0.0, low=0.0, high=0.0))
    """
    from scipy import optimize, special

    z = z_value(level)
    if not prior_sd > 0:
        raise ValueError(f"prior_sd must be > 0, got {prior_sd!r}")
    players: dict[str, int] = {}
    for a, b in results:
        if a == b:
            raise ValueError(f"player {a!r} paired with itself")
        for p in (a, b):
            players.setdefault(p, len(players))
    if anchor is not None and anchor not in players:
        raise ValueError(f"anchor {anchor!r} is not in the results")
    if not players:
        return {}
    k = len(players)
    ii, jj, score_i, games = [], [], [], []
    for (a, b), counts in results.items():
        wa, d, wb = (float(c) for c in counts)
        if min(wa, d, wb) < 0:
            raise ValueError(f"negative count for {(a, b)!r}: {counts!r}")
        ii.append(players[a])
        jj.append(players[b])
        score_i.append(wa + d / 2.0)
        games.append(wa + d + wb)
    i_arr, j_arr = np.array(ii), np.array(jj)
    s_arr, n_arr = np.array(score_i), np.array(games)
    prec = 1.0 / (prior_sd * _NAT) ** 2  # prior precision in natural units

    def objective(theta: np.ndarray) -> float:
        x = theta[i_arr] - theta[j_arr]
        # -[s log sigma(x) + (n - s) log sigma(-x)] with log sigma(x) = -log(1 + e^-x)
        nll = np.sum(s_arr * np.logaddexp(0.0, -x) + (n_arr - s_arr) * np.logaddexp(0.0, x))
        return float(nll + 0.5 * prec * theta @ theta)

    def gradient(theta: np.ndarray) -> np.ndarray:
        resid = n_arr * special.expit(theta[i_arr] - theta[j_arr]) - s_arr
        grad = prec * theta
        np.add.at(grad, i_arr, resid)
        np.add.at(grad, j_arr, -resid)
        return grad

    def hessian(theta: np.ndarray) -> np.ndarray:
        p = special.expit(theta[i_arr] - theta[j_arr])
        w = n_arr * p * (1.0 - p)
        hess = prec * np.eye(k)
        np.add.at(hess, (i_arr, i_arr), w)
        np.add.at(hess, (j_arr, j_arr), w)
        np.add.at(hess, (i_arr, j_arr), -w)
        np.add.at(hess, (j_arr, i_arr), -w)
        return hess

    fit = optimize.minimize(
        objective, np.zeros(k), jac=gradient, hess=hessian, method="trust-exact", options={"gtol": 1e-9}
    )
    if not fit.success and np.max(np.abs(gradient(fit.x))) > 1e-6:
        raise RuntimeError(f"Bradley-Terry fit did not converge: {fit.message}")
    theta = fit.x
    cov = np.linalg.inv(hessian(theta))
    if anchor is None:
        contrast = np.eye(k) - np.full((k, k), 1.0 / k)  # rows: e_i - mean
    else:
        contrast = np.eye(k)
        contrast[:, players[anchor]] -= 1.0  # rows: e_i - e_anchor
    est = contrast @ theta / _NAT
    var = np.einsum("ij,jk,ik->i", contrast, cov, contrast)
    se = np.sqrt(np.maximum(var, 0.0)) / _NAT
    out = {
        name: Rating(float(est[i]) + 0.0, float(est[i] - z * se[i]) + 0.0, float(est[i] + z * se[i]) + 0.0)
        for name, i in players.items()
    }
    return dict(sorted(out.items(), key=lambda item: (-item[1].elo, str(item[0]))))
