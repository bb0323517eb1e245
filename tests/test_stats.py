"""Tests for seqsolve.stats: known values, coverage in seeded simulations, SPRT error rates."""

from __future__ import annotations

import math

import numpy as np
import pytest

from seqsolve.stats import (
    SPRT,
    elo_from_score,
    elo_interval,
    likelihood_of_superiority,
    paired_score_interval,
    pentanomial_counts,
    rate_interval,
    score_from_elo,
    score_interval,
    summarize_lengths,
)

# --------------------------------------------------------------------------
# simulation helpers


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def draw_games(rng: np.random.Generator, n: int, win: float, draw: float) -> np.ndarray:
    """n game scores (1, 0.5, 0) with the given win and draw probabilities."""
    return rng.choice([1.0, 0.5, 0.0], size=n, p=[win, draw, 1.0 - win - draw])


def draw_pairs(
    rng: np.random.Generator, n_pairs: int, base: float, luck: float, draw: float, same_sign: bool
) -> tuple[np.ndarray, float]:
    """Paired games whose results share a per-deal effect ``u = +-luck`` (logit scale).

    ``same_sign=False`` models a deal that favours a seat: A gets ``+u`` in one
    game and ``-u`` in the other (results negatively correlated).
    ``same_sign=True`` models a deal that favours A's style: ``+u`` in both
    (positively correlated).  Returns the (n_pairs, 2) game scores and the true
    expected score.
    """
    u = rng.choice([-luck, luck], size=n_pairs)
    second = u if same_sign else -u
    out = np.empty((n_pairs, 2))
    for col, shift in enumerate((u, second)):
        p_win = (1.0 - draw) / (1.0 + np.exp(-(base + shift)))
        r = rng.random(n_pairs)
        out[:, col] = np.where(r < p_win, 1.0, np.where(r < p_win + draw, 0.5, 0.0))
    true = draw / 2.0 + (1.0 - draw) * (sigmoid(base + luck) + sigmoid(base - luck)) / 2.0
    return out, true


def wdl(scores: np.ndarray) -> tuple[int, int, int]:
    flat = np.ravel(scores)
    return int(np.sum(flat == 1.0)), int(np.sum(flat == 0.5)), int(np.sum(flat == 0.0))


# --------------------------------------------------------------------------
# Elo, LOS, rates


def test_elo_known_values() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_from_score(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo_from_score(10 / 11) == pytest.approx(400.0)
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)


def test_elo_extremes_and_cap() -> None:
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert elo_from_score(1.0, cap=800) == 800.0
    assert elo_from_score(0.0, cap=800) == -800.0
    assert elo_from_score(0.99, cap=100) == 100.0
    assert math.isnan(elo_from_score(math.nan))
    with pytest.raises(ValueError, match="score must be in"):
        elo_from_score(1.2)


def test_elo_interval_maps_bounds() -> None:
    elo, low, high = elo_interval(0.75, 0.6, 1.0)
    assert elo == pytest.approx(190.848, abs=1e-3)
    assert low == pytest.approx(elo_from_score(0.6))
    assert high == math.inf
    assert elo_interval(0.75, 0.6, 1.0, cap=1000)[2] == 1000.0


def test_likelihood_of_superiority() -> None:
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(7, 7) == 0.5
    assert likelihood_of_superiority(60, 40) == pytest.approx(0.97725, abs=1e-5)  # Phi(2)
    assert likelihood_of_superiority(40, 60) == pytest.approx(1 - 0.97725, abs=1e-5)
    with pytest.raises(ValueError):
        likelihood_of_superiority(-1, 3)


def test_rate_interval_known_wilson_values() -> None:
    rate, low, high = rate_interval(8, 10)
    assert (rate, round(low, 4), round(high, 4)) == (0.8, 0.4902, 0.9433)
    assert rate_interval(0, 20)[1] == 0.0 and rate_interval(20, 20)[2] == 1.0
    assert rate_interval(0, 20)[2] == pytest.approx(0.1611, abs=1e-4)
    rate, low, high = rate_interval(0, 0)
    assert math.isnan(rate) and (low, high) == (0.0, 1.0)
    # a higher level gives a wider interval
    assert rate_interval(8, 10, 0.99)[1] < rate_interval(8, 10, 0.9)[1]
    with pytest.raises(ValueError):
        rate_interval(11, 10)
    with pytest.raises(ValueError):
        rate_interval(1, 10, level=1.0)


def test_rate_interval_coverage() -> None:
    rng = np.random.default_rng(2024)
    p, n = 0.2, 30
    hits = sum(
        lo <= p <= hi for _, lo, hi in (rate_interval(int(k), n) for k in rng.binomial(n, p, size=2000))
    )
    assert 0.92 <= hits / 2000 <= 0.98


# --------------------------------------------------------------------------
# score intervals


def test_score_interval_without_draws_is_wilson() -> None:
    for w, l in [(8, 2), (0, 5), (5, 0), (37, 41), (1, 99)]:
        assert score_interval(w, 0, l) == pytest.approx(rate_interval(w, w + l), abs=1e-9)


def test_score_interval_edges() -> None:
    score, low, high = score_interval(0, 0, 0)
    assert math.isnan(score) and (low, high) == (0.0, 1.0)
    # all draws: centred on 0.5, not collapsed to a point
    score, low, high = score_interval(0, 10, 0)
    assert score == 0.5 and low < 0.45 and high > 0.55
    assert low == pytest.approx(1 - high)
    # all wins: the upper bound is 1, the lower one is Wilson's
    score, low, high = score_interval(10, 0, 0)
    assert (score, high) == (1.0, 1.0) and low == pytest.approx(rate_interval(10, 10)[1])
    for counts in [(3, 0, 0), (0, 0, 3), (0, 1, 0), (50, 1, 0), (1, 1, 1)]:
        s, lo, hi = score_interval(*counts)
        assert 0.0 <= lo <= s <= hi <= 1.0
    with pytest.raises(ValueError):
        score_interval(-1, 2, 3)


def test_draws_narrow_the_interval() -> None:
    # same score 0.6 from 50 games: 30-0-20 versus 20-20-10
    _, lo_nodraw, hi_nodraw = score_interval(30, 0, 20)
    _, lo_draw, hi_draw = score_interval(20, 20, 10)
    assert hi_draw - lo_draw < hi_nodraw - lo_nodraw


def test_score_interval_coverage() -> None:
    rng = np.random.default_rng(7)
    win, draw = 0.4, 0.3
    true = win + draw / 2
    hits = 0
    reps = 300
    for _ in range(reps):
        _, lo, hi = score_interval(*wdl(draw_games(rng, 60, win, draw)))
        hits += lo <= true <= hi
    assert 0.91 <= hits / reps <= 0.985


def test_score_interval_coverage_near_the_edge() -> None:
    # a lopsided matchup with few games, where a normal interval undercovers badly
    rng = np.random.default_rng(8)
    win, draw = 0.85, 0.1
    true = win + draw / 2
    reps = 300
    hits = sum(
        lo <= true <= hi
        for _, lo, hi in (score_interval(*wdl(draw_games(rng, 20, win, draw))) for _ in range(reps))
    )
    assert 0.91 <= hits / reps <= 0.99


# --------------------------------------------------------------------------
# paired deals


def test_pentanomial_counts() -> None:
    assert pentanomial_counts([0, 0.25, 0.5, 0.5, 0.75, 1, 1]) == [1, 1, 2, 1, 2]
    assert pentanomial_counts([]) == [0] * 5
    with pytest.raises(ValueError, match="two-game pair score"):
        pentanomial_counts([0.3])
    with pytest.raises(ValueError):
        pentanomial_counts([1.25])


def test_paired_interval_edges() -> None:
    score, low, high = paired_score_interval([])
    assert math.isnan(score) and (low, high) == (0.0, 1.0)
    score, low, high = paired_score_interval([0.5] * 40)
    assert score == 0.5 and 0.4 < low < 0.5 < high < 0.6
    score, low, high = paired_score_interval([1.0] * 5)
    assert score == 1.0 and high == 1.0 and 0.0 < low < 1.0
    with pytest.raises(ValueError):
        paired_score_interval([0.5, 1.5])


def test_paired_interval_on_single_game_blocks_matches_score_interval() -> None:
    # blocks of one game: the paired interval is the trinomial one
    assert paired_score_interval([1.0] * 7 + [0.5] * 5 + [0.0] * 4) == pytest.approx(score_interval(7, 5, 4))


def _paired_vs_unpaired(same_sign: bool, luck: float, seed: int, reps: int = 300) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    cover_p = cover_u = 0
    width_p = width_u = 0.0
    for _ in range(reps):
        games, true = draw_pairs(rng, 40, base=0.2, luck=luck, draw=0.2, same_sign=same_sign)
        _, lo_p, hi_p = paired_score_interval(games.mean(axis=1))
        _, lo_u, hi_u = score_interval(*wdl(games))
        cover_p += lo_p <= true <= hi_p
        cover_u += lo_u <= true <= hi_u
        width_p += hi_p - lo_p
        width_u += hi_u - lo_u
    return {
        "cover_paired": cover_p / reps,
        "cover_unpaired": cover_u / reps,
        "width_ratio": width_p / width_u,
    }


def test_paired_interval_is_narrower_when_the_deal_favours_a_seat() -> None:
    # seat-swapped pairs: the deal's seat advantage cancels within the pair, the
    # results are negatively correlated, and the pentanomial interval is tighter
    # than counting games as independent -- while still covering.
    out = _paired_vs_unpaired(same_sign=False, luck=2.0, seed=3)
    assert out["width_ratio"] < 0.85
    assert out["cover_paired"] >= 0.915


def test_paired_interval_stays_honest_when_results_are_positively_correlated() -> None:
    # when a deal favours one bot in both games, the independent-games interval is
    # too narrow and undercovers; the paired interval widens and keeps its coverage.
    out = _paired_vs_unpaired(same_sign=True, luck=3.0, seed=3)
    assert out["width_ratio"] > 1.15
    assert out["cover_unpaired"] < 0.9
    assert out["cover_paired"] >= 0.915


# --------------------------------------------------------------------------
# SPRT


def test_sprt_parse_and_bounds() -> None:
    sprt = SPRT.parse("elo0=0,elo1=20,alpha=0.05,beta=0.05")
    assert (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta) == (0.0, 20.0, 0.05, 0.05)
    assert sprt.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert SPRT.parse(str(sprt)).bounds == sprt.bounds
    assert str(SPRT.parse(" elo0 = -5 , elo1=5.5 ")) == "elo0=-5,elo1=5.5,alpha=0.05,beta=0.05"
    lower, upper = SPRT(0, 10, alpha=0.01, beta=0.1).bounds
    assert lower == pytest.approx(math.log(0.1 / 0.99)) and upper == pytest.approx(math.log(0.9 / 0.01))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("elo0=0", "missing elo1"),
        ("elo0=0,elo1=20,gamma=1", "unknown key 'gamma'"),
        ("elo0=0,elo1=x", "not a number"),
        ("elo0=0,elo0=1,elo1=2", "given twice"),
        ("elo0=0;elo1=20", "expected key=value|not a number"),
        ("elo0=20,elo1=0", "elo0 < elo1"),
        ("elo0=0,elo1=20,alpha=0", "alpha"),
        ("elo0=0,elo1=20,alpha=0.6,beta=0.5", "alpha"),
        ("", "expected key=value"),
    ],
)
def test_sprt_parse_rejects_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SPRT.parse(spec)


def test_sprt_llr_basics() -> None:
    sprt = SPRT(0, 20)
    assert sprt.llr([0] * 5) == 0.0 and sprt.decision([0] * 5) is None
    # symmetric results sit between the hypotheses: the LLR favours H0 (elo 0)
    assert sprt.llr([10, 30, 80, 30, 10]) < 0
    # a clearly positive result (score 0.7) is far past the upper bound
    assert sprt.llr([0, 10, 60, 90, 40]) > sprt.bounds[1]
    assert sprt.decision([0, 10, 60, 90, 40]) == "H1"
    assert sprt.decision([40, 90, 60, 10, 0]) == "H0"
    # trinomial counts work too, and more data means a larger |LLR|
    assert 0 < sprt.llr([30, 40, 40]) < sprt.llr([60, 80, 80])
    with pytest.raises(ValueError):
        sprt.llr([1, 2, 3, 4])


def test_sprt_llr_matches_binomial_sprt_without_draws() -> None:
    # with only wins and losses the constrained MLE is the Bernoulli itself, so the
    # GSPRT is Wald's SPRT: W log(s1/s0) + L log((1-s1)/(1-s0))
    sprt = SPRT(-10, 30)
    s0, s1 = score_from_elo(-10), score_from_elo(30)
    w, l = 57, 43
    expected = w * math.log(s1 / s0) + l * math.log((1 - s1) / (1 - s0))
    assert sprt.llr([l, 0, w]) == pytest.approx(expected, rel=1e-9)


def test_sprt_update_pairs_accumulates() -> None:
    sprt = SPRT(0, 20)
    assert sprt.update_pairs([1, 3, 8, 3, 1]) is None
    sprt.update_pairs([1, 3, 8, 3, 1])
    assert sprt.counts == [2, 6, 16, 6, 2]
    assert sprt.llr() == pytest.approx(sprt.llr([2, 6, 16, 6, 2]))
    with pytest.raises(ValueError, match="expected 5 counts"):
        sprt.update_pairs([1, 1, 1])


def _pentanomial(score: float, draw: float) -> np.ndarray:
    """Pair-score distribution of two independent games with mean ``score``."""
    game = np.array([1 - score - draw / 2, draw, score - draw / 2])  # L, D, W
    return np.convolve(game, game)


def _run_sprt(
    sprt: SPRT, true_elo: float, rng: np.random.Generator, step: int = 5, max_pairs: int = 3000
) -> str:
    probs = _pentanomial(score_from_elo(true_elo), draw=0.3)
    outcomes = rng.choice(5, size=max_pairs, p=probs)
    cumulative = np.cumsum(np.eye(5, dtype=int)[outcomes], axis=0)
    for end in range(step, max_pairs + 1, step):
        verdict = sprt.decision(cumulative[end - 1].tolist())
        if verdict is not None:
            return verdict
    return "none"


@pytest.mark.parametrize(
    ("true_elo", "verdict", "min_rate"),
    [
        (-60.0, "H0", 0.99),  # well below elo0
        (0.0, "H0", 0.90),  # at elo0: accepting H1 is the type I error (alpha = 0.05)
        (50.0, "H1", 0.90),  # at elo1: accepting H0 is the type II error (beta = 0.05)
        (120.0, "H1", 0.99),  # well above elo1
    ],
)
def test_sprt_decisions_and_error_rates(true_elo: float, verdict: str, min_rate: float) -> None:
    sprt = SPRT(0, 50, alpha=0.05, beta=0.05)
    rng = np.random.default_rng(int(true_elo) + 1000)
    runs = 150
    verdicts = [_run_sprt(sprt, true_elo, rng) for _ in range(runs)]
    assert verdicts.count("none") == 0
    assert verdicts.count(verdict) / runs >= min_rate


# --------------------------------------------------------------------------
# summaries


def test_summarize_lengths() -> None:
    out = summarize_lengths(range(1, 12))  # 1..11
    assert out == {
        "n": 11.0,
        "mean": 6.0,
        "std": pytest.approx(math.sqrt(11.0)),
        "min": 1.0,
        "p10": 2.0,
        "median": 6.0,
        "p90": 10.0,
        "max": 11.0,
    }
    assert summarize_lengths([42])["std"] == 0.0
    with pytest.raises(ValueError):
        summarize_lengths([])


# --------------------------------------------------------------------------
# match summaries: infinite Elo and the SPRT line (seqsolve.play.report)


def fake_records(results: list[float]) -> list[dict]:
    """Paired games of bots 0 and 1 (seats swapped each deal) with the first bot's scores."""
    records = []
    for game, score in enumerate(results):
        side_bot = [0, 1] if game % 2 == 0 else [1, 0]
        winner = None if score == 0.5 else side_bot.index(0 if score == 1.0 else 1)
        records.append(
            {
                "game": game,
                "deal": game // 2,
                "teams": 2,
                "side_bot": side_bot,
                "winner_side": winner,
                "score": score,
                "turns": 30,
                "termination": "win" if winner is not None else "stall",
                "forfeit": None,
            }
        )
    return records


@pytest.mark.parametrize(
    "results, elo, low, high",
    [
        ([0.0] * 10, "-inf", "-inf", None),  # 0%: minus infinity, interval [-inf, finite]
        ([1.0] * 10, "inf", None, "inf"),  # 100%
        ([1.0, 0.0] * 5, 0.0, None, None),  # 50%: finite and symmetric
    ],
    ids=["0%", "100%", "50%"],
)
def test_match_summary_keeps_the_sign_of_an_infinite_elo(results, elo, low, high):
    """A score of 0% is -inf Elo (not "inf"); JSON, which has no infinity, gets "-inf"/"inf"
    strings that float() reads back, and the text shows an ordered interval."""
    import json

    from seqsolve.play.report import format_match, summarize_match

    summary = summarize_match(fake_records(results), ("a", "b"), 1.0)
    data = json.loads(json.dumps(summary, allow_nan=False))  # strict JSON
    assert data["elo"] == elo
    ci = [float(x) for x in data["elo_ci"]]
    assert (
        ci[0] < ci[1]
        and (low is None or data["elo_ci"][0] == low)
        and (high is None or data["elo_ci"][1] == high)
    )
    line = next(x for x in format_match(summary).splitlines() if "Elo difference" in x)
    shown = line.split("Elo difference: ")[1].split("   LOS")[0]
    if elo == "-inf":
        assert shown.startswith("-inf  95% CI [-inf, -") and math.isfinite(ci[1]) and ci[1] < 0
    elif elo == "inf":
        assert shown.startswith("+inf  95% CI [+") and shown.endswith(", +inf]") and ci[0] > 0
    else:
        assert shown == f"+0  95% CI [{ci[0]:+.0f}, {ci[1]:+.0f}]" and ci[0] == pytest.approx(-ci[1])


@pytest.mark.parametrize(
    "decision, llr, expected",
    [
        ("H0", -2.951, "SPRT elo0=0,elo1=20: LLR -2.95 ≤ -2.94: H0 accepted (elo ≤ 0)"),
        ("H1", 3.02, "SPRT elo0=0,elo1=20: LLR 3.02 ≥ 2.94: H1 accepted (elo ≥ 20)"),
        ("undecided", 1.5, "SPRT elo0=0,elo1=20: LLR 1.50 in [-2.94, 2.94]: undecided"),
    ],
)
def test_sprt_line_says_which_hypothesis_was_accepted(decision, llr, expected):
    """A stopped SPRT names the accepted hypothesis and the bound crossed; "in [a, b]" only
    while undecided."""
    from seqsolve.play.report import format_match, summarize_match

    lower, upper = SPRT(0, 20).bounds
    summary = summarize_match(fake_records([1.0, 0.0] * 3), ("a", "b"), 1.0)
    summary["sprt"] = {
        "spec": "elo0=0,elo1=20",
        "llr": llr,
        "lower": lower,
        "upper": upper,
        "decision": decision,
    }
    assert format_match(summary).splitlines()[-1] == "  " + expected


def test_the_root_finder_brackets_and_converges():
    """Brent's method of the intervals: the root to within its tolerance, at an end or
    deep inside the bracket, and a bracket without a sign change refused."""
    from seqsolve.stats import _root

    root = _root(lambda x: x**3 - 2 * x - 5, 2.0, 3.0, xtol=1e-15)
    assert abs(root - 2.0945514815423265) <= 4e-15
    assert _root(lambda x: x - 0.5, 0.0, 0.5, xtol=1e-12) == 0.5
    tiny = _root(lambda x: x - 1e-290, 1e-300, 0.5, xtol=1e-300)
    assert math.isclose(tiny, 1e-290, rel_tol=1e-14)
    steep = _root(lambda x: math.expm1(50 * x), -1.0, 2.0, xtol=1e-14)
    assert abs(steep) <= 1e-13
    with pytest.raises(ValueError, match="no sign change"):
        _root(lambda x: x * x + 1, -1.0, 1.0, xtol=1e-12)


def test_percentiles_are_numpys():
    """The report's percentiles, computed without np.percentile (whose first call
    imports numpy.ma), are its numbers exactly."""
    from seqsolve.stats import _percentiles

    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 10, 101, 1000):
        x = rng.integers(1, 300, n).astype(float)
        assert _percentiles(x, (10, 50, 90)) == [float(v) for v in np.percentile(x, [10, 50, 90])]
