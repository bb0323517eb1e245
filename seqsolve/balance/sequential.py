"""An interval for a mean that stays valid however often it is looked at: the
confidence sequences of :mod:`seqsolve.balance.race`.

A race looks at every candidate's interval after each round and drops candidates on
what it sees.  A fixed-``n`` interval (Wilson, the score test of ``balance``) covers
with 95% at one ``n`` chosen in advance; checked after every round it misses far more
often, because a run of luck at any one of the looks is enough.  A *confidence
sequence* covers at every ``n`` at once: with probability at least ``1 - alpha`` the
true mean lies in the interval at every round, so a race may stop, drop or go on
whenever it likes.

The race's is a *betting* confidence sequence (Waudby-Smith and Ramdas, "Estimating
means of bounded random variables by betting", JRSS-B 86(1), 2024; Ville's
inequality).  A gambler who believes the mean is not ``m`` stakes a fixed fraction
``bet`` of his capital on every game, on either side: after scores ``x_1..x_n`` in
[0, 1] the two capitals are::

    K+(m) = prod(1 + bet (x_i - m)),    K-(m) = prod(1 - bet (x_i - m))

If the mean is ``m`` each is a nonnegative martingale starting at 1 (``bet`` below 1
keeps every factor positive), so by Ville's inequality either ever reaches ``2 /
alpha`` with probability at most ``alpha / 2``.  The interval is every ``m`` at which
neither has: ``K+`` falls and ``K-`` rises with ``m``, so it is one interval, found by
bisection (:func:`bet_interval`).  Its width adapts to the scores' variance (a fair
share of 1/3 with three sides has variance 2/9, not Hoeffding's 1/4) and, since
``log(1 + y) < y``, it is never wider than the sub-Gaussian boundary of the same bet.

A fixed bet is narrowest around one number of games and never narrower than about
``bet * variance / 2``: :func:`tuned_bet` picks it, before any game, for the width
the race is after.  The normal-mixture boundary (Robbins 1970; Howard, Ramdas,
McAuliffe and Sekhon, Annals of Statistics 49(2), 2021), :func:`half_width`, is kept to
compare: at the games it is tuned for it is about 1.55 times as wide as a fixed-``n``
interval; the tuned bet, about 1.4 (two sides).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

#: Hoeffding's variance factor of a score in [0, 1]: (1 - 0)^2 / 4
SCORE_VARIANCE = 0.25


#: the bet is tuned for this fraction of the games at which a bet would be narrowest
#: for the width wanted: a larger bet narrows the early rounds (where the far-off
#: candidates are dropped) for a floor still below the width (simulated races, 0.5 to
#: 0.7 spent the fewest games; docs/fair-command.md)
BET_TUNING = 0.7
#: the largest bet: far from 1, where the capital could be wiped out by one game
MAX_BET = 0.5


def tuned_bet(width: float, alpha: float, variance: float = SCORE_VARIANCE) -> float:
    """The fixed bet for a confidence sequence meant to reach ``width`` on each side,
    for scores of about that ``variance``.

    To second order the interval of a bet ``b`` after ``n`` games is ``log(2/alpha) /
    (b n) + b variance / 2`` on each side, narrowest for ``b = sqrt(2 log(2/alpha) /
    (variance n))`` at ``n = 2 log(2/alpha) variance / width^2`` games; the bet is that
    of :data:`BET_TUNING` times those games.

    >>> round(tuned_bet(0.025, 0.05), 4)
    0.1195
    """
    if width <= 0:
        raise ValueError("a width must be positive")
    return min(MAX_BET, width / (variance * math.sqrt(BET_TUNING)))


def bet_for_games(n: int, alpha: float, variance: float = SCORE_VARIANCE) -> float:
    """The bet :func:`tuned_bet` makes for the width a bet reaches at best after ``n`` games.

    >>> bet_for_games(1, 0.05)
    0.5
    """
    width = math.sqrt(2 * math.log(2 / alpha) * variance / max(n, 1))
    return tuned_bet(width, alpha, variance)


def bet_interval_counts(
    values: Sequence[float], counts: Sequence[float], alpha: float, bet: float
) -> tuple[float, float, float]:
    """``(mean, low, high)`` of the betting confidence sequence for scores taking
    ``values`` (in [0, 1]) ``counts`` times each; with no scores ``(nan, 0, 1)``.

    >>> tuple(round(x, 3) for x in bet_interval_counts([0.0, 1.0], [480, 520], 0.05, 0.12))
    (0.52, 0.474, 0.566)
    """
    if not 0 < bet < 1:
        raise ValueError("a bet must lie in (0, 1)")
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    n = float(c.sum())
    if n <= 0:
        return math.nan, 0.0, 1.0
    mean = float((v * c).sum() / n)
    threshold = math.log(2 / alpha)

    def capital(m: float, side: float) -> float:
        return float((c * np.log1p(side * bet * (v - m))).sum())

    # K+ falls with m: the low end is where it crosses the threshold, below the mean
    low, high = 0.0, mean
    if capital(0.0, 1.0) < threshold:
        high = 0.0
    for _ in range(50):
        mid = (low + high) / 2
        low, high = (mid, high) if capital(mid, 1.0) >= threshold else (low, mid)
    lower = high
    low, high = mean, 1.0
    if capital(1.0, -1.0) < threshold:
        low = 1.0
    for _ in range(50):
        mid = (low + high) / 2
        low, high = (low, mid) if capital(mid, -1.0) >= threshold else (mid, high)
    return mean, lower, low


def bet_interval(scores: Sequence[float], alpha: float, bet: float) -> tuple[float, float, float]:
    """The betting confidence sequence of ``scores`` in [0, 1] (see the module).

    >>> tuple(round(x, 3) for x in bet_interval([1.0, 0.0] * 500, 0.05, 0.12))
    (0.5, 0.454, 0.546)
    """
    values, counts = np.unique(np.asarray(scores, dtype=float), return_counts=True)
    return bet_interval_counts(values, counts, alpha, bet)


def bet_games_for(values: Sequence[float], counts: Sequence[float], width: float, alpha: float) -> int:
    """The games after which the betting sequence tuned for ``width`` is that narrow on
    each side, for scores distributed as ``counts`` of ``values``: what a uniform grid
    with these intervals would play per candidate.

    >>> n = bet_games_for([0.0, 1.0], [1, 1], 0.025, 0.05)
    >>> fixed_games(0.025, 0.25, 0.05) < n < sequence_games_for(0.025, 0.05)  # the normal mixture's
    True
    """
    c = np.asarray(counts, dtype=float)
    share = c / c.sum()
    mean = float((np.asarray(values) * share).sum())
    variance = max(float((share * (np.asarray(values) - mean) ** 2).sum()), 1e-6)
    bet = tuned_bet(width, alpha, variance)

    def wide(n: int) -> bool:
        _, low, high = bet_interval_counts(values, share * n, alpha, bet)
        return (high - low) / 2 > width

    return _fewest_games(wide, 10**9)


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

    return _fewest_games(wide, 10**12)


def _fewest_games(wide: Callable[[int], bool], most: int) -> int:
    """The fewest games ``n`` for which ``wide(n)`` is false (an interval narrows as games
    come, so ``wide`` turns false once and stays false): doubling, then halving the gap;
    past ``most`` the doubling stops and says so by returning more than ``most``.

    >>> _fewest_games(lambda n: n < 1000, 10**9)
    1000
    """
    low, high = 1, 1
    while wide(high):
        low, high = high + 1, high * 2
        if high > most:
            return high
    while low < high:
        mid = (low + high) // 2
        low, high = (mid + 1, high) if wide(mid) else (low, mid)
    return high
