"""The balance metrics (defined in docs/balance-metrics.md): what each game
did (the game's tally, counted by the runner) and the summaries of a point's
records: seat advantage, decisiveness, lengths, the worth of a rule, skill versus
luck."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import stats
from ..games import all_games, game_for
from ..play.config import MatchConfig
from ..play.report import summarize_match
from .grid import VariantPoint

#: why games end, as records name them: every way a played game of a game built can
#: end (:attr:`~seqsolve.games.base.Game.terminations`), then a forfeit
TERMINATIONS = (*dict.fromkeys(t for game in all_games() for t in game.terminations), "forfeit")


@dataclass
class PointResult:
    """The records of one point: ``self`` (self-play) and one list per match."""

    point: VariantPoint
    records: dict[str, list[dict]] = field(default_factory=dict)
    configs: dict[str, MatchConfig] = field(default_factory=dict)


def _ci(k: float, n: int) -> list[float]:
    _, low, high = stats.rate_interval(k, n)
    return [low, high]


def _rate(k: float, n: int) -> float | None:
    return k / n if n else None


def difference_interval(
    a: tuple[float, float, float], b: tuple[float, float, float]
) -> tuple[float, float, float]:
    """``a - b`` of two independent estimates given as (value, low, high), with Newcombe's
    (1998, method 10) square-and-add interval built from their own intervals.

    >>> [round(x, 3) for x in difference_interval((0.5, 0.4, 0.6), (0.5, 0.4, 0.6))]
    [0.0, -0.141, 0.141]
    """
    (x, xl, xh), (y, yl, yh) = a, b
    d = x - y
    return d, d - math.hypot(x - xl, yh - y), d + math.hypot(xh - x, y - yl)


def balance_test(side_wins: Sequence[int]) -> dict:
    """Chi-square goodness of fit of the sides' wins (decisive games) against equal shares.

    Returns ``{"chi2", "df", "p_value", "decisive"}``; ``p_value`` is None without a
    decisive game.  A small p-value says the sides are not equally likely to win.

    >>> round(balance_test([50, 50])["p_value"], 3), round(balance_test([70, 30])["p_value"], 5)
    (1.0, 6e-05)
    """
    from scipy.stats import chisquare

    decisive = int(sum(side_wins))
    if decisive == 0:
        return {"chi2": None, "df": len(side_wins) - 1, "p_value": None, "decisive": 0}
    result = chisquare(list(side_wins))
    return {
        "chi2": float(result.statistic),
        "df": len(side_wins) - 1,
        "p_value": float(result.pvalue),
        "decisive": decisive,
    }


def first_seat_scores(point: VariantPoint, records: Sequence[dict]) -> list[float]:
    """The score of the side that moves first in each self-play game: 1 a win, 1/T a
    draw (T sides), 0 a loss; its mean minus 1/T is the first seat's advantage."""
    sides = point.teams
    first_side = point.rules().first_seat % sides
    return [
        1 / sides if r["winner_side"] is None else 1.0 if r["winner_side"] == first_side else 0.0
        for r in records
    ]


def summarize_point(result: PointResult) -> dict:
    """Every balance metric of one point, from its records (docs/balance-metrics.md)."""
    point = result.point
    records = result.records.get("self", [])
    rules = point.rules()
    n, sides = len(records), point.teams
    first_side = rules.first_seat % sides
    side_wins = [0] * sides
    draws = 0
    terminations: Counter = Counter()
    scores = first_seat_scores(point, records)
    legal = plies = 0
    for r in records:
        w = r["winner_side"]
        terminations[r["termination"]] += 1
        if w is None:
            draws += 1
        else:
            side_wins[w] += 1
        legal += r["detail"]["legal"]
        plies += r["plies"]
    decisive = n - draws
    out: dict = {
        "variant": point.variant,
        "players": point.players,
        "teams": point.teams,
        "replica": point.replica,
        "label": point.label,
        "bots": list(result.configs["self"].bots) if "self" in result.configs else None,
        "seed": result.configs["self"].seed if "self" in result.configs else None,
        "stream": list(result.configs["self"].stream) if "self" in result.configs else None,
        "games": n,
    }
    _add_matches(out, result, sides)
    if not n:
        return out
    side_rate = [_rate(k, n) for k in side_wins]
    out["side_win"] = side_rate
    out["side_win_ci"] = [_ci(k, n) for k in side_wins]
    out["seat_win"] = [side_rate[s % sides] for s in range(point.players)]
    out["seat_win_ci"] = [out["side_win_ci"][s % sides] for s in range(point.players)]
    out["first_seat"] = rules.first_seat
    mean, low, high = stats.paired_score_interval(scores)
    fair = 1 / sides
    out["first_seat_score"] = mean
    out["first_seat_advantage"] = mean - fair
    out["first_seat_advantage_ci"] = [low - fair, high - fair]
    out["balance_test"] = balance_test(side_wins)
    out["draw_rate"] = draws / n
    out["draw_rate_ci"] = _ci(draws, n)
    out["terminations"] = {
        k: terminations.get(k, 0) for k in TERMINATIONS if terminations.get(k, 0) or k == "win"
    }
    out["termination_rates"] = {k: v / n for k, v in out["terminations"].items()}
    turns = [r["turns"] for r in records]
    out["turns"] = stats.summarize_lengths(turns)
    out["turns_mean_ci"] = list(stats.mean_interval(turns)[1:])
    out["plies_mean"] = plies / n
    out["plies"] = stats.summarize_lengths([r["plies"] for r in records])
    out["branching"] = legal / plies if plies else None
    # the game's own metrics: every tally counts "legal" for the branching above
    out.update(game_for(point.variant).tally(rules).summarize(records))
    # Ludii's outcome concepts (docs/balance-metrics.md): player 1 is the side that moves first
    timeouts = terminations.get("turn_cap", 0) + terminations.get("max_turns", 0)  # Sequence's, Stacks' cap
    ludii_rates = [k / n for k in side_wins]
    out["ludii"] = {
        "advantage_p1": (side_wins[first_side] + 0.5 * draws) / n,
        "balance": 1.0 - max(abs(a - b) for a, b in itertools.combinations(ludii_rates, 2)),
        "completion": decisive / n,
        "drawishness": (draws - timeouts) / n,
        "timeouts": timeouts / n,
        "duration": out["turns"]["mean"],
    }
    return out


def _add_matches(out: dict, result: PointResult, sides: int) -> None:
    """The restricted-play and skill matches of a point, into its summary ``out``
    (also when it played no self-play games: ``--no-self-play``)."""
    for name, recs in result.records.items():
        if name == "self" or not recs:
            continue
        config = result.configs[name]
        s = summarize_match(recs, config.bots)
        entry = {
            "bots": list(config.bots),
            "seed": config.seed,
            "stream": list(config.stream),
            "games": s["games"],
            "score": s["score"],
            "score_ci": s["score_ci"],
            "fair": 1 / sides,
            "draws": s["draws"],
        }
        if name == "skill":
            out["skill"] = entry
        else:
            out.setdefault("restricted", {})[name] = entry


def add_deltas(summaries: list[dict]) -> None:
    """Differences of every point from the first one, with 95% intervals (RULES.md §2.2:
    seat advantage, draw rate and game length as deltas), in place."""
    if not summaries or not summaries[0].get("games"):
        return
    base = summaries[0]
    for s in summaries[1:]:
        if not s.get("games"):
            continue
        adv = difference_interval(
            (s["first_seat_advantage"], *s["first_seat_advantage_ci"]),
            (base["first_seat_advantage"], *base["first_seat_advantage_ci"]),
        )
        draw = difference_interval(
            (s["draw_rate"], *s["draw_rate_ci"]), (base["draw_rate"], *base["draw_rate_ci"])
        )
        turns = difference_interval(
            (s["turns"]["mean"], *s["turns_mean_ci"]), (base["turns"]["mean"], *base["turns_mean_ci"])
        )
        s["delta"] = {
            "vs": base["label"],
            "first_seat_advantage": list(adv),
            "draw_rate": list(draw),
            "turns_mean": list(turns),
        }


def summarize(results: list[PointResult]) -> list[dict]:
    out = [summarize_point(r) for r in results]
    add_deltas(out)
    return out
