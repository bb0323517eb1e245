"""An interval for a mean that stays valid however often it is looked at: the
confidence sequence of :mod:`seqsolve.balance.race`.

A race looks at every candidate's interval after each round and drops candidates on
what it sees.  A fixed-``n`` interval (Wilson, the score test of ``balance``) covers
with 95% at one ``n`` chosen in advance; checked after every round it misses far more
often, because a run of luck at any one of the looks is enough.  A *confidence
sequence* covers at every ``n`` at once: with probability at least ``1 - alpha`` the
true mean lies in the interval at every round, so a race may stop, drop or go on
whenever it likes.

The one here is the two-sided normal-mixture boundary for a sub-Gaussian sum
(Robbins 1970; Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric,
nonasymptotic confidence sequences", Annals of Statistics 49(2), 2021, §3).  A game's
score lies in [0, 1], so it is sub-Gaussian with variance factor 1/4 (Hoeffding's
lemma), and with ``S_n`` the sum of ``n`` scores, mean ``mu`` and ``v = n/4``::

    M_n = sqrt(rho / (v + rho)) * exp((S_n - n mu)^2 / (2 (v + rho)))

is a nonnegative supermartingale with ``M_0 = 1`` (a Gaussian mixture, of variance
``1/rho``, of the exponential supermartingales ``exp(l (S_n - n mu) - l^2 v / 2)``), so
by Ville's inequality ``M_n`` ever reaches ``1/alpha`` with probability at most ``alpha``.
Solving ``M_n < 1/alpha`` for ``mu``::

    |S_n / n - mu| < sqrt((v + rho) log((v + rho) / (rho alpha^2))) / n

``rho`` sets where the boundary is tightest; it must be fixed before the first game
(:func:`tuned_rho`: narrowest at the games a candidate plays when no candidate is
dropped).  Like Hoeffding's inequality the width ignores the observed variance, so
it is conservative for a rate far from 1/2 (three sides: a fair share of 1/3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: Hoeffding's variance factor of a score in [0, 1]: (1 - 0)^2 / 4
SCORE_VARIANCE = 0.25


def half_width(n: int | np.ndarray, alpha: float, rho: float) -> float | np.ndarray:
    """Half the width of the confidence sequence for a mean of ``n`` scores in [0, 1].

    >>> round(half_width(1000, 0.05, 100.0), 4)
    0.0504
    >>> half_width(4000, 0.05, 100.0) < half_width(1000, 0.05, 100.0)
    True
    """
    v = SCORE_VARIANCE * np.asarray(n, dtype=float)
    width = np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha * alpha))) / np.maximum(n, 1)
    return float(width) if np.ndim(width) == 0 else width


def tuned_rho(n: int, alpha: float) -> float:
    """The mixture's ``rho`` that makes the interval narrowest after ``n`` games
    (a choice made before any game, so the intervals stay valid).

    >>> rho = tuned_rho(1000, 0.05)
    >>> all(half_width(1000, 0.05, rho) <= half_width(1000, 0.05, r) for r in (rho / 2, rho * 2))
    True
    """
    v = SCORE_VARIANCE * max(n, 1)
    grid = v * np.logspace(-4, 2, 601)
    widths = (v + grid) * np.log((v + grid) / (grid * alpha * alpha))
    return float(grid[int(np.argmin(widths))])


def sequence_games_for(width: float, alpha: float) -> int:
    """The fewest games after which the confidence sequence, tuned for that many
    (:func:`tuned_rho`), is at most ``width`` wide on each side: what a race tunes its
    mixture for when it knows the precision it wants.

    >>> n = sequence_games_for(0.025, 0.05)
    >>> half_width(n, 0.05, tuned_rho(n, 0.05)) <= 0.025 < half_width(n - 50, 0.05, tuned_rho(n - 50, 0.05))
    True
    """
    if width <= 0:
        raise ValueError("a width must be positive")
    low, high = 1, 2
    while half_width(high, alpha, tuned_rho(high, alpha)) > width:
        low, high = high, high * 2
    while low < high:
        mid = (low + high) // 2
        if half_width(mid, alpha, tuned_rho(mid, alpha)) > width:
            low = mid + 1
        else:
            high = mid
    return high


def fixed_games(width: float, variance: float, alpha: float) -> int:
    """The games a fixed-``n`` normal interval needs to be at most ``width`` wide on
    each side, for scores of that ``variance``: the size of a confirmation decided
    before its first game.

    >>> fixed_games(0.01, 0.25, 0.05)
    9604
    """
    from scipy.stats import norm

    if width <= 0:
        raise ValueError("a width must be positive")
    z = float(norm.ppf(1 - alpha / 2))
    return math.ceil(round((z / width) ** 2 * variance, 6))


def sequence_interval(total: float, n: int, alpha: float, rho: float) -> tuple[float, float, float]:
    """``(mean, low, high)`` of ``n`` scores in [0, 1] summing to ``total``: the
    anytime-valid interval, clipped to [0, 1]; with no scores ``(nan, 0, 1)``.

    >>> tuple(round(x, 3) for x in sequence_interval(520, 1000, 0.05, 100.0))
    (0.52, 0.47, 0.57)
    """
    if n <= 0:
        return math.nan, 0.0, 1.0
    mean = total / n
    w = half_width(n, alpha, rho)
    return mean, max(0.0, mean - w), min(1.0, mean + w)


def fixed_half_width(n: int | np.ndarray, alpha: float, variance: float = SCORE_VARIANCE):
    """The normal interval's half width at one ``n`` fixed in advance, for scores of
    that ``variance`` (at most 1/4): what a uniform grid of ``n`` games per candidate
    would report.

    >>> round(fixed_half_width(1000, 0.05), 4)
    0.031
    """
    from scipy.stats import norm

    width = float(norm.ppf(1 - alpha / 2)) * np.sqrt(variance / np.asarray(n, dtype=float))
    return float(width) if np.ndim(width) == 0 else width


def fixed_games_for(scores: Sequence[float], width: float, level: float) -> int:
    """The games ``balance``'s fixed-``n`` interval (the score test of
    :func:`seqsolve.stats.paired_score_interval`) needs to be at most ``width`` wide on
    each side, for scores distributed as ``scores``: what a uniform grid would play per
    candidate to reach the precision a race ended with.

    >>> fixed_games_for([0.0, 1.0] * 50, 0.031, 0.95)
    996

    Raises:
        ValueError: no scores, or a width that is not positive.
    """
    from .. import stats

    if width <= 0 or not len(scores):
        raise ValueError("a width must be positive, and scores given")
    values, counts = stats._pair_values(scores)
    total = sum(counts)

    def wide(n: int) -> bool:
        _, low, high = stats._interval_from_counts(values, [c * n / total for c in counts], level)
        return (high - low) / 2 > width

    low, high = 1, 1
    while wide(high):
        low, high = high + 1, high * 2
        if high > 10**12:
            return high
    while low < high:
        mid = (low + high) // 2
        if wide(mid):
            low = mid + 1
        else:
            high = mid
    return high
