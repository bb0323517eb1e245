"""Statistics for bot matchups: scores with honest error bars, Elo, SPRT (ratings of a
round robin are in :mod:`.ratings`).

A game result is scored from bot A's point of view: 1 for a win, 0.5 for a
draw, 0 for a loss.  The match runner plays *paired deals*: every shuffle is
played twice with the seats swapped, and the mean of the two games is the
*pair score* (0, 0.25, 0.5, 0.75 or 1).  The two games of a pair share the
deal, so their results are correlated; the paired statistics here treat the
pair as the independent unit (the "pentanomial" model of the Stockfish
testing framework, fishtest), which is honest whatever that correlation is.

One method underlies the score intervals and the SPRT.  A score is the mean of
a distribution on a few values (0, 0.5, 1 for single games; 0, 0.25, ..., 1
for pairs).  For a hypothesised mean ``mu`` we take the maximum-likelihood
distribution *with that mean* given the observed frequencies -- the empirical
likelihood weights ``p_i = f_i / (1 + lam * (a_i - mu))`` (A. B. Owen,
*Empirical Likelihood*, 2001; the same "MLE with given expectation" is
Proposition 1.1 of M. Van den Bergh's fishtest notes, support_MLE_multinomial).
Then:

* intervals invert a score test, ``n * (mean - mu)**2 <= z**2 * var(mu)``,
  with the variance of that constrained distribution -- Wilson's (1927)
  construction, to which it reduces exactly for win/loss data; and
* the SPRT uses the generalized log-likelihood ratio between the
  constrained distributions at the two hypothesised scores, as fishtest does.

Elo here is always the *logistic* Elo: an expected score ``s`` means a rating
difference ``400 * log10(s / (1 - s))``.  It assumes a two-sided game in which
equal bots score 0.5.  In a match where A holds one side of three, equal bots
score 1/3, so the Elo of that score is a summary, not a rating difference:
compare per-seat or per-side win rates (:func:`rate_interval`) with ``1/k``.

Every function is deterministic and pure; randomness appears only in tests.
The root finding is Brent's method, here (:func:`_root`): importing scipy's
``optimize`` costs a third of a CPU second, a tenth of a 40,000-game greedy
match, paid after every worker is done; so the report of a match imports no scipy.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import Literal

import numpy as np

__all__ = [
    "SPRT",
    "elo_from_score",
    "elo_interval",
    "likelihood_of_superiority",
    "paired_score_interval",
    "pentanomial_counts",
    "rate_interval",
    "score_from_elo",
    "score_interval",
    "summarize_lengths",
]

# Pseudo-count given to an extreme outcome (score 0 or 1) that was never
# observed.  The constrained MLE needs both extremes in its support to reach
# every mean in (0, 1); as the pseudo-count goes to zero the result tends to
# the exact boundary MLE, so a tiny value changes nothing visible
# (fishtest regularizes every empty cell with 1e-3 for the same reason).
_PSEUDO_COUNT = 1e-6
_TINY = 1e-300
_RTOL = 4 * float(np.finfo(float).eps)  # relative precision of a root: a few units in the last place


def _root(f, a: float, b: float, xtol: float, rtol: float = _RTOL, most: int = 200) -> float:
    """A root of ``f`` between ``a`` and ``b``, where ``f`` changes sign, to within
    ``xtol + rtol * |root|``: Brent's method (R. P. Brent, *Algorithms for Minimization
    without Derivatives*, 1973, ch. 4), which keeps a bracket as bisection does but steps
    by secant or inverse quadratic interpolation while those converge, so it needs a few
    evaluations where bisection needs fifty.

    >>> round(_root(lambda x: x * x - 2.0, 0.0, 2.0, xtol=1e-12), 12)
    1.414213562373

    Raises:
        ValueError: ``f(a)`` and ``f(b)`` have the same sign.
    """
    fa, fb = f(a), f(b)
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    if (fa > 0.0) == (fb > 0.0):
        raise ValueError(f"no sign change between {a!r} and {b!r}")
    c, fc = a, fa  # the bracket is [b, c]: b the best estimate, a the one before it
    step = last = b - a
    for _ in range(most):
        if (fb > 0.0) == (fc > 0.0):  # the root left [b, c]: the bracket is [a, b] again
            c, fc = a, fa
            step = last = b - a
        if abs(fc) < abs(fb):  # keep b the end nearer the root
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol = 0.5 * (xtol + rtol * abs(b))
        half = 0.5 * (c - b)
        if abs(half) <= tol or fb == 0.0:
            return b
        if abs(last) >= tol and abs(fa) > abs(fb):
            s = fb / fa
            if a == c:  # two points: the secant
                p, q = 2.0 * half * s, 1.0 - s
            else:  # three: inverse quadratic interpolation
                q, r = fa / fc, fb / fc
                p = s * (2.0 * half * q * (q - r) - (b - a) * (r - 1.0))
                q = (q - 1.0) * (r - 1.0) * (s - 1.0)
            if p > 0.0:
                q = -q
            p = abs(p)
            # take the interpolated step only when it stays well inside the bracket
            # and shrinks faster than bisection would
            if 2.0 * p < min(3.0 * half * q - abs(tol * q), abs(last * q)):
                last, step = step, p / q
            else:
                step = last = half
        else:
            step = last = half
        a, fa = b, fb
        b += step if abs(step) > tol else math.copysign(tol, half)
        fb = f(b)
    return b


def z_value(level: float) -> float:
    """Two-sided standard normal quantile for a confidence ``level`` in (0, 1)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


# --------------------------------------------------------------------------
# Elo and simple rates


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic Elo).

    ``1 / (1 + 10 ** (-elo / 400))``, the inverse of :func:`elo_from_score`.

    >>> score_from_elo(0.0)
    0.5
    >>> round(score_from_elo(400.0), 4)
    0.9091
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(s: float, cap: float = math.inf) -> float:
    """Logistic Elo difference implied by an expected score ``s``.

    ``-400 * log10(1/s - 1)``.  A score of exactly 0 or 1 is consistent with
    any large difference, so it maps to ``-inf`` / ``+inf`` -- the honest
    answer -- unless ``cap`` is given, in which case every result is clipped to
    ``[-cap, cap]`` (useful for tables and strict JSON, which has no infinity).

    Args:
        s: expected score in [0, 1]; NaN (no games) gives NaN.
        cap: clip the result to ``[-cap, cap]``.

    Raises:
        ValueError: if ``s`` is outside [0, 1].

    >>> elo_from_score(0.5)
    0.0
    >>> round(elo_from_score(0.75), 2)
    190.85
    >>> elo_from_score(1.0), elo_from_score(1.0, cap=1000)
    (inf, 1000.0)
    """
    if math.isnan(s):
        return math.nan
    if not 0.0 <= s <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {s!r}")
    if s == 0.0:
        elo = -math.inf
    elif s == 1.0:
        elo = math.inf
    else:
        elo = 400.0 * math.log10(s / (1.0 - s))
    return max(-cap, min(cap, elo)) + 0.0  # + 0.0 turns -0.0 into 0.0


def elo_interval(score: float, low: float, high: float, cap: float = math.inf) -> tuple[float, float, float]:
    """Map a score and its interval to Elo (the map is increasing, so bounds map to bounds).

    Returns ``(elo, elo_low, elo_high)``; bounds at 0 or 1 become ``-inf`` /
    ``+inf`` unless ``cap`` clips them (see :func:`elo_from_score`).

    >>> tuple(round(x, 1) for x in elo_interval(0.5, 0.4, 0.6))
    (0.0, -70.4, 70.4)
    """
    return (elo_from_score(score, cap), elo_from_score(low, cap), elo_from_score(high, cap))


def rate_interval(successes: float, n: float, level: float = 0.95) -> tuple[float, float, float]:
    """Wilson score interval for a success rate, e.g. a per-seat win rate.

    Wilson (1927) inverts the score test ``n (k/n - p)^2 <= z^2 p (1 - p)``,
    using the variance at the hypothesised ``p`` rather than at the estimate;
    unlike the normal interval it stays inside [0, 1] and does not collapse to
    a point at 0 or n successes.

    Args:
        successes: number of successes ``k``, ``0 <= k <= n``.
        n: number of trials; with ``n == 0`` the rate is NaN and the interval [0, 1].
        level: two-sided confidence level.

    Returns:
        ``(rate, low, high)``.

    >>> tuple(round(x, 4) for x in rate_interval(8, 10))
    (0.8, 0.4902, 0.9433)
    >>> rate_interval(0, 0)
    (nan, 0.0, 1.0)
    """
    z = z_value(level)
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes!r}, n={n!r}")
    if n == 0:
        return (math.nan, 0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (successes + z2 / 2.0) / (n + z2)
    half = z / (n + z2) * math.sqrt(successes * (n - successes) / n + z2 / 4.0)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (p, low, high)


def likelihood_of_superiority(wins: float, losses: float) -> float:
    """Probability that A is the stronger bot, from wins and losses (draws carry no information).

    ``LOS = Phi((W - L) / sqrt(W + L))``, the normal approximation to the
    posterior that a win is more likely than a loss given a decisive game
    (chessprogramming wiki, "Match Statistics").  0.5 when there are no
    decisive games.

    >>> likelihood_of_superiority(0, 0)
    0.5
    >>> round(likelihood_of_superiority(60, 40), 4)
    0.9772
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses must be >= 0, got {wins!r}, {losses!r}")
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def mean_interval(values: Iterable[float]) -> tuple[float, float, float]:
    """Mean with a normal 95% interval (lengths and counts per game: many games); the
    interval is unbounded for a single value.

    >>> [round(x, 3) for x in mean_interval([1, 2, 3])]
    [2.0, 0.868, 3.132]
    """
    x = np.asarray(list(values), dtype=float)
    mean = float(x.mean())
    half = 1.959963984540054 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.inf
    return mean, mean - half, mean + half


def summarize_lengths(lengths: Iterable[float]) -> dict[str, float]:
    """Describe a list of game lengths (turns or plies).

    Returns a dict with ``n``, ``mean``, ``std`` (sample standard deviation,
    ``ddof=1``, 0.0 for a single game), ``min``, ``p10``, ``median``, ``p90``
    and ``max``; percentiles interpolate linearly between order statistics
    (numpy's default).

    Raises:
        ValueError: for an empty list.

    >>> summarize_lengths([10, 20, 30])["median"]
    20.0
    """
    x = np.asarray(list(lengths), dtype=float)
    if x.size == 0:
        raise ValueError("summarize_lengths needs at least one length")
    p10, median, p90 = _percentiles(x, (10, 50, 90))
    return {
        "n": float(x.size),
        "mean": float(x.mean()),
        "std": float(x.std(ddof=1)) if x.size > 1 else 0.0,
        "min": float(x.min()),
        "p10": float(p10),
        "median": float(median),
        "p90": float(p90),
        "max": float(x.max()),
    }


def _percentiles(x: np.ndarray, qs: Sequence[float]) -> list[float]:
    """``np.percentile(x, qs)`` (linear interpolation), the same numbers computed the
    same way, without it: its first call imports ``numpy.ma``, a hundredth of a CPU
    second at the end of every match report.

    >>> _percentiles(np.array([1.0, 2.0, 4.0, 8.0]), (10, 50, 90))
    [1.3, 3.0, 6.800000000000001]
    """
    ordered = np.sort(x)
    last = ordered.size - 1
    found = []
    for q in qs:
        at = (q / 100) * last
        below = min(math.floor(at), last)
        above = min(below + 1, last)
        t = at - below
        a, b = float(ordered[below]), float(ordered[above])
        # numpy's lerp: from the nearer end, so that t = 1 gives b exactly
        found.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)
    return found


# --------------------------------------------------------------------------
# The constrained (empirical-likelihood) MLE and the score intervals


def _constrained_mle(values: Sequence[float], freqs: Sequence[float], mu: float) -> list[float]:
    """Maximum-likelihood distribution on ``values`` with mean ``mu``, given observed ``freqs``.

    Maximizes ``sum f_i log p_i`` subject to ``sum p_i = 1`` and
    ``sum p_i a_i = mu``.  The Lagrange conditions give
    ``p_i = f_i / (1 + lam (a_i - mu))`` where ``lam`` solves
    ``h(lam) = sum f_i (a_i - mu) / (1 + lam (a_i - mu)) = 0`` on the interval
    where every denominator is positive; ``h`` decreases from +inf to -inf there,
    so the root is unique (A. B. Owen, *Empirical Likelihood*, 2001).

    The root can sit very close to an end of that interval (when an extreme
    value has a tiny frequency), so we write each denominator as the convex
    combination ``(1 - t) A_i + t B_i`` of its values at the two ends and solve
    for ``t`` from whichever end is nearer, which keeps full relative precision.

    ``values`` must be increasing, and the first and last ``freqs`` positive.
    """
    lo, hi = values[0], values[-1]
    k = len(values)
    if mu <= lo:
        return [1.0] + [0.0] * (k - 1)
    if mu >= hi:
        return [0.0] * (k - 1) + [1.0]
    d = [a - mu for a in values]
    dmin, dmax = d[0], d[-1]
    ends_a = [1.0 - di / dmax for di in d]  # denominators at lam = -1/dmax
    ends_b = [1.0 - di / dmin for di in d]  # denominators at lam = -1/dmin
    ends_a[-1] = 0.0
    ends_b[0] = 0.0
    terms = [fi * di for fi, di in zip(freqs, d)]

    def h_from_a(t: float) -> float:  # decreasing in t
        return sum(c / ((1.0 - t) * a + t * b) for c, a, b in zip(terms, ends_a, ends_b) if c)

    def h_from_b(s: float) -> float:  # increasing in s = 1 - t
        return sum(c / (s * a + (1.0 - s) * b) for c, a, b in zip(terms, ends_a, ends_b) if c)

    if h_from_a(0.5) < 0.0:
        t = _root(h_from_a, _TINY, 0.5, xtol=_TINY)
        denoms = [(1.0 - t) * a + t * b for a, b in zip(ends_a, ends_b)]
    else:
        s = _root(h_from_b, _TINY, 0.5, xtol=_TINY)
        denoms = [s * a + (1.0 - s) * b for a, b in zip(ends_a, ends_b)]
    p = [fi / di if fi else 0.0 for fi, di in zip(freqs, denoms)]
    total = sum(p)
    return [pi / total for pi in p]


def _frequencies(counts: Sequence[float]) -> tuple[float, list[float]]:
    """Total count and relative frequencies, with a pseudo-count on empty extremes."""
    n = float(sum(counts))
    reg = [float(c) for c in counts]
    for i in (0, -1):
        if reg[i] == 0.0:
            reg[i] = _PSEUDO_COUNT
    total = sum(reg)
    return n, [c / total for c in reg]


def _interval_from_counts(
    values: Sequence[float], counts: Sequence[float], level: float
) -> tuple[float, float, float]:
    """Score-test (Wilson-style) interval for the mean of a distribution on ``values``.

    ``values`` are increasing and span [0, 1]; ``counts`` are how often each was
    observed.  The interval is ``{mu : n (mean - mu)^2 <= z^2 var(mu)}`` where
    ``var(mu)`` is the variance of :func:`_constrained_mle` at ``mu``: the
    unknown shape of the distribution (e.g. the draw rate) is profiled out
    rather than fixed at its estimate, so an all-draws sample still gets a
    sensible interval.  For two values this is exactly Wilson's interval.
    """
    z = z_value(level)
    if any(c < 0 for c in counts):
        raise ValueError(f"counts must be >= 0, got {list(counts)!r}")
    n, freqs = _frequencies(counts)
    if n == 0:
        return (math.nan, 0.0, 1.0)
    mean = sum(a * c for a, c in zip(values, counts)) / n
    mean = min(max(mean, values[0]), values[-1])
    z2 = z * z

    def g(mu: float) -> float:  # <= 0 inside the interval
        p = _constrained_mle(values, freqs, mu)
        var = sum(pi * (a - mu) ** 2 for pi, a in zip(p, values))
        return n * (mean - mu) ** 2 - z2 * var

    # g(values[0]) > 0 < g(values[-1]) unless the mean sits there; g < 0 just inside
    # from the mean (exactly at an extreme value the constrained variance is 0, so step in).
    lo_start = max(values[0], min(mean, values[-1] - 1e-12))
    hi_start = min(values[-1], max(mean, values[0] + 1e-12))
    low = values[0] if mean <= values[0] else _root(g, values[0], lo_start, xtol=1e-13)
    high = values[-1] if mean >= values[-1] else _root(g, hi_start, values[-1], xtol=1e-13)
    return (mean, max(0.0, low), min(1.0, high))


def score_interval(wins: int, draws: int, losses: int, level: float = 0.95) -> tuple[float, float, float]:
    """Mean score of independent games, with a Wilson-style interval.

    The score is ``(W + D/2) / N``.  Per game, the result is trinomial on
    {0, 1/2, 1}; its variance is ``s (1 - s) - d / 4`` (draws reduce it).  The
    interval inverts the score test, as Wilson's does for win/loss data:
    ``mu`` is inside when ``N (score - mu)^2 <= z^2 var(mu)``, with ``var(mu)``
    the per-game variance of the most likely trinomial whose mean is ``mu``
    (the draw rate profiled out; see the module docstring).  Consequences:

    * with no draws it is exactly :func:`rate_interval` (Wilson);
    * it never leaves [0, 1] and never collapses to a point, even for all
      wins or all draws;
    * draws make it narrower than win/loss data with the same score, as they should.

    Treat games as independent only if they are: for paired deals use
    :func:`paired_score_interval`.

    Args:
        wins, draws, losses: counts from A's point of view.
        level: two-sided confidence level.

    Returns:
        ``(score, low, high)``; with no games ``(nan, 0.0, 1.0)``.

    >>> tuple(round(x, 4) for x in score_interval(8, 0, 2))
    (0.8, 0.4902, 0.9433)
    >>> tuple(round(x, 4) for x in score_interval(6, 4, 0))
    (0.8, 0.578, 0.9159)
    """
    return _interval_from_counts((0.0, 0.5, 1.0), (losses, draws, wins), level)


def _pair_values(pair_scores: Iterable[float]) -> tuple[list[float], list[int]]:
    """Distinct observed scores, with 0 and 1 always present, and their counts."""
    tally: dict[float, int] = {0.0: 0, 1.0: 0}
    for s, n in Counter(map(float, pair_scores)).items():  # in the order first seen
        if not 0.0 <= s <= 1.0:  # also rejects NaN
            raise ValueError(f"pair scores must be in [0, 1], got {s!r}")
        tally[s] = tally.get(s, 0) + n
    values = sorted(tally)
    return values, [tally[v] for v in values]


def paired_score_interval(pair_scores: Iterable[float], level: float = 0.95) -> tuple[float, float, float]:
    """Mean score over paired deals, with an interval that treats each pair as one observation.

    ``pair_scores`` are the means of the games played on one shuffle (for two
    games with seats swapped: 0, 0.25, 0.5, 0.75 or 1 -- the pentanomial model
    fishtest uses).  The two games of a pair are correlated: a deal that
    favours one seat tends to give A one win and one loss (negative
    correlation, so a pair score near 0.5 and a *narrower* interval than
    counting games as independent), while a deal that suits one bot's style
    gives it both games (positive correlation, a *wider* interval -- the
    independent-games interval would then be too narrow).  Using the empirical
    distribution of pair scores is right in both cases.

    The interval is the same score-test construction as
    :func:`score_interval`, applied to the distribution of pair scores with
    ``n`` = number of pairs.  Any block scores in [0, 1] are accepted (e.g. a
    shuffle played three times with rotated seats).

    Returns:
        ``(score, low, high)``; with no pairs ``(nan, 0.0, 1.0)``.

    >>> tuple(round(x, 4) for x in paired_score_interval([0.5, 0.5, 0.75, 0.5, 1.0]))
    (0.65, 0.3676, 0.8373)
    """
    values, counts = _pair_values(pair_scores)
    return _interval_from_counts(values, counts, level)


def pentanomial_counts(pair_scores: Iterable[float]) -> list[int]:
    """Count pair scores 0, 0.25, 0.5, 0.75, 1 (fishtest's LL, LD+DL, LW+DD+WL, DW+WD, WW).

    Raises:
        ValueError: for a score that is not a multiple of 1/4 in [0, 1].

    >>> pentanomial_counts([0.5, 1.0, 0.5, 0.25])
    [0, 1, 2, 0, 1]
    """
    counts = [0] * 5
    for s in pair_scores:
        q = float(s) * 4.0
        i = round(q) if math.isfinite(q) else -1
        if not 0 <= i <= 4 or abs(q - i) > 1e-9:
            raise ValueError(f"a two-game pair score must be 0, 0.25, 0.5, 0.75 or 1, got {s!r}")
        counts[i] += 1
    return counts


# --------------------------------------------------------------------------
# Sequential probability ratio test


#: Elo hypotheses further out are scores of 0 or 1 to a double: the likelihoods overflow
#: or take log(0) (elo1=1e300 used to end a whole match in "math domain error").
SPRT_ELO_LIMIT = 2000


class SPRT:
    """Generalized SPRT of ``elo = elo0`` (H0) against ``elo = elo1`` (H1), logistic Elo.

    Wald's sequential test stops as soon as the log-likelihood ratio leaves
    ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: accepting H1 when
    H0 is true has probability about ``alpha``, accepting H0 when H1 is true
    about ``beta``, and between the two the test takes as few games as it
    can.  The distribution of results is not known beyond its mean (draw
    rate, pair correlation...), so, as in fishtest, the likelihood ratio is
    the *generalized* one: each hypothesis is represented by the
    maximum-likelihood distribution with mean ``score_from_elo(elo)`` given
    the observed frequencies (M. Van den Bergh, "GSPRT" notes for fishtest).
    Elo is logistic (``score_from_elo``), not fishtest's "normalized" Elo.

    Counts are a list ordered from worst to best for A: length 5 is the
    pentanomial of pair scores (LL, LD+DL, LW+DD+WL, DW+WD, WW), which is the
    right unit for paired deals; length 3 is (losses, draws, wins) of
    independent games.  Decisions are taken whenever you call; the
    stopping overshoot is not corrected, so realized error rates come out a
    little below nominal.

    >>> sprt = SPRT.parse("elo0=0,elo1=20,alpha=0.05,beta=0.05")
    >>> tuple(round(b, 3) for b in sprt.bounds)
    (-2.944, 2.944)
    >>> sprt.decision([10, 30, 80, 30, 10]), sprt.decision([0, 10, 60, 90, 40])
    (None, 'H1')
    """

    _KEYS = ("elo0", "elo1", "alpha", "beta")

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        elo0, elo1, alpha, beta = float(elo0), float(elo1), float(alpha), float(beta)
        if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
            raise ValueError(f"SPRT needs finite elo0 < elo1, got elo0={elo0!r}, elo1={elo1!r}")
        if not -SPRT_ELO_LIMIT <= elo0 < elo1 <= SPRT_ELO_LIMIT:
            raise ValueError(
                f"SPRT needs -{SPRT_ELO_LIMIT} <= elo0 < elo1 <= {SPRT_ELO_LIMIT}, got elo0={elo0!r}, elo1={elo1!r}"
            )
        if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
            raise ValueError(f"SPRT needs 0 < alpha, beta and alpha + beta < 1, got {alpha!r}, {beta!r}")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.counts: list[int] | None = None  # accumulated by update_pairs

    @classmethod
    def parse(cls, spec: str) -> SPRT:
        """Build from ``"elo0=0,elo1=20,alpha=0.05,beta=0.05"`` (alpha, beta default 0.05).

        Raises:
            ValueError: naming the problem (missing, unknown, repeated or
                non-numeric key, or invalid values).
        """
        params: dict[str, float] = {}
        for item in spec.split(","):
            key, sep, value = (part.strip() for part in item.partition("="))
            if not sep or not key:
                raise ValueError(f"bad SPRT spec {spec!r}: expected key=value, got {item.strip()!r}")
            if key not in cls._KEYS:
                raise ValueError(
                    f"bad SPRT spec {spec!r}: unknown key {key!r} (known: {', '.join(cls._KEYS)})"
                )
            if key in params:
                raise ValueError(f"bad SPRT spec {spec!r}: {key} given twice")
            try:
                params[key] = float(value)
            except ValueError:
                raise ValueError(f"bad SPRT spec {spec!r}: {key}={value!r} is not a number") from None
        missing = [k for k in ("elo0", "elo1") if k not in params]
        if missing:
            raise ValueError(f"bad SPRT spec {spec!r}: missing {', '.join(missing)}")
        try:
            return cls(**params)
        except ValueError as exc:
            raise ValueError(f"bad SPRT spec {spec!r}: {exc}") from None

    def __str__(self) -> str:
        def fmt(x: float) -> str:
            return str(int(x)) if x.is_integer() else repr(x)

        return ",".join(f"{k}={fmt(getattr(self, k))}" for k in self._KEYS)

    def __repr__(self) -> str:
        return f"SPRT(elo0={self.elo0!r}, elo1={self.elo1!r}, alpha={self.alpha!r}, beta={self.beta!r})"

    @property
    def bounds(self) -> tuple[float, float]:
        """``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: accept H0 below, H1 above."""
        return (math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha))

    def _counts(self, counts: Sequence[float] | None) -> Sequence[float]:
        if counts is None:
            return self.counts or [0, 0, 0, 0, 0]
        if len(counts) not in (3, 5) or any(c < 0 for c in counts):
            raise ValueError(
                f"counts must be 3 (L, D, W) or 5 (pentanomial) non-negative numbers, got {counts!r}"
            )
        return counts

    def llr(self, counts: Sequence[float] | None = None) -> float:
        """Generalized log-likelihood ratio of H1 against H0 (0.0 with no results).

        ``sum_i n_i log(p1_i / p0_i)`` where ``p0``, ``p1`` are the constrained
        MLEs with means ``score_from_elo(elo0)`` and ``score_from_elo(elo1)``.
        Without ``counts``, uses the counts accumulated by :meth:`update_pairs`.
        """
        counts = self._counts(counts)
        n, freqs = _frequencies(counts)
        if n == 0:
            return 0.0
        k = len(counts)
        values = [i / (k - 1) for i in range(k)]
        p0 = _constrained_mle(values, freqs, score_from_elo(self.elo0))
        p1 = _constrained_mle(values, freqs, score_from_elo(self.elo1))
        return sum(c * (math.log(b) - math.log(a)) for c, a, b in zip(counts, p0, p1) if c)

    def decision(self, counts: Sequence[float] | None = None) -> Literal["H0", "H1"] | None:
        """``"H1"`` (elo1 or better), ``"H0"`` (elo0 or worse) or ``None`` (keep playing)."""
        llr = self.llr(counts)
        lower, upper = self.bounds
        if llr <= lower:
            return "H0"
        if llr >= upper:
            return "H1"
        return None

    def update_pairs(self, pentanomial: Sequence[int]) -> Literal["H0", "H1"] | None:
        """Add new pentanomial counts (or 3 trinomial counts) to the running total; return the decision."""
        pentanomial = self._counts(pentanomial)
        if self.counts is None:
            self.counts = [0] * len(pentanomial)
        if len(pentanomial) != len(self.counts):
            raise ValueError(
                f"expected {len(self.counts)} counts like the earlier updates, got {len(pentanomial)}"
            )
        self.counts = [a + b for a, b in zip(self.counts, pentanomial)]
        return self.decision()
