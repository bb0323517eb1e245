"""Reports read records: match summaries as dicts (for ``--json``) and as text.

Nothing here plays a game; everything is computed from the records that
``seqsolve.play.match`` writes, so a resumed run reports exactly what an
uninterrupted one would.
"""

from __future__ import annotations

import gc
import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from .. import stats
from .columns import Outcomes


def bot_labels(bots: tuple[str, ...]) -> list[str]:
    """Names to report bots by: their specs, numbered when the same spec plays twice."""
    if len(set(bots)) == len(bots):
        return list(bots)
    return [f"{b} ({i + 1})" for i, b in enumerate(bots)]


def _deal_scores(records: list[dict]) -> list[float]:
    """The first bot's mean score per deal: the unit of the paired statistics."""
    by_deal: dict[int, list[float]] = defaultdict(list)
    for r in records:
        by_deal[r["deal"]].append(r["score"])
    return [sum(v) / len(v) for _, v in sorted(by_deal.items())]


def _mean_per_deal(deals: list[int], scores: list[float]) -> list[float]:
    """The first bot's mean score per deal, in deal order (what :func:`_deal_scores`
    gives).  Scores of halves (two sides: 0, 1/2, 1) add up exactly in any order, so numpy
    sums them per deal when every deal's games follow each other; else (thirds, or deals
    out of order) they are summed as Python does, in the records' order.

    >>> _mean_per_deal([0, 0, 1, 1], [1.0, 0.5, 0.0, 1.0]), _mean_per_deal([0, 0], [1 / 3, 1.0])
    ([0.75, 0.5], [0.6666666666666666])
    """
    if scores:
        d = np.asarray(deals, dtype=np.int64)
        x = np.asarray(scores, dtype=float)
        if (d[1:] >= d[:-1]).all() and (x * 2 == np.round(x * 2)).all():
            starts = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])
            counts = np.diff(np.r_[starts, d.size])
            return (np.add.reduceat(x, starts) / counts).tolist()
    by_deal: dict[int, list[float]] = defaultdict(list)
    for deal, s in zip(deals, scores):
        by_deal[deal].append(s)
    return [sum(v) / len(v) for _, v in sorted(by_deal.items())]


#: the fields of a record that a match's summary reads
_READ = ("winner_side", "side_bot", "score", "deal", "turns", "termination", "forfeit", "game", "teams")


def _columns(records: list[dict] | Outcomes) -> dict[str, list]:
    """The fields a summary reads, each a list in the records' order; from the columns
    of :class:`~.columns.Outcomes` without building a record."""
    if isinstance(records, Outcomes):
        return {key: records.column(key) for key in _READ}
    return {key: [r.get(key) for r in records] for key in _READ}


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: a summary builds tens of thousands of lists and
    tuples and no cycle, and each of the full collections they set off walks every
    object of the process (half the summary's CPU time after a 40,000-game match)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def summarize_match(
    records: list[dict] | Outcomes, bots: tuple[str, ...], seconds: float | None = None
) -> dict:
    """Wins, draws, losses, score with a 95% interval, Elo, LOS, per-side split, lengths.

    Computed from the columns of the fields it reads, in the records' order (sums of
    scores of 1/3 depend on it), with the games counted by (winner, seating) first:
    this runs after the last game, while every core but this one is idle.
    """
    with _collector_paused():
        return _summary(records, bots, seconds)


def _summary(records: list[dict] | Outcomes, bots: tuple[str, ...], seconds: float | None) -> dict:
    games = len(records)
    labels = bot_labels(bots)
    col = _columns(records)
    sides = col["teams"][0] if games else 2
    # how many games each seating (side -> bot) ended with each winning side (None: a draw)
    endings = Counter(zip(col["winner_side"], map(tuple, col["side_bot"])))
    wins = [0] * len(bots)
    draws = 0
    side_wins = [0] * sides  # whoever played the side
    mine = [[0, 0, 0] for _ in range(sides)]  # the first bot's games, wins, draws per side
    for (winner, seating), n in endings.items():
        if winner is None:
            draws += n
        else:
            wins[seating[winner]] += n
            side_wins[winner] += n
        for side in range(sides):
            if seating[side] == 0:
                mine[side][0] += n
                if winner == side:
                    mine[side][1] += n
                elif winner is None:
                    mine[side][2] += n
    two_bots = len(set(bots)) == 2 or len(bots) == 2
    a_wins = wins[0] if bots else 0
    a_losses = games - draws - a_wins
    scores = col["score"]
    score = sum(scores) / games if games else float("nan")
    deal_scores = _mean_per_deal(col["deal"], scores)
    if games and len(deal_scores) > 1:
        _, low, high = stats.paired_score_interval(deal_scores)
    elif games:
        _, low, high = stats.score_interval(a_wins, draws, a_losses)
    else:
        low = high = float("nan")
    summary: dict = {
        "bots": list(bots),
        "games": games,
        "labels": labels,
        "wins": dict(zip(labels, wins)),
        "draws": draws,
        "losses": a_losses,
        "score": score,
        "score_ci": [low, high],
        "paired_deals": True,
        "deals": len(deal_scores),
    }
    if sides == 2 and two_bots and games:
        summary["elo"] = _json_elo(stats.elo_from_score(score))
        summary["elo_ci"] = [_json_elo(x) for x in stats.elo_interval(score, low, high)[1:]]
        summary["los"] = stats.likelihood_of_superiority(a_wins, a_losses)
    else:
        summary["elo"] = None
        summary["elo_ci"] = None
        summary["los"] = stats.likelihood_of_superiority(a_wins, a_losses) if games else None
    summary["by_side"] = _by_side(side_wins, games)
    summary["first_bot_by_side"] = _first_bot_by_side(mine)
    summary["turns"] = stats.summarize_lengths(col["turns"]) if games else None
    summary["terminations"] = dict(sorted(Counter(col["termination"]).items()))
    forfeits = col["forfeit"]
    summary["forfeits"] = (
        [{"game": g, **f} for g, f in zip(col["game"], forfeits) if f] if any(forfeits) else []
    )
    summary["seconds"] = seconds
    summary["games_per_s"] = games / seconds if seconds else None
    return summary


def _json_elo(x: float) -> float | str | None:
    """An Elo difference as JSON can hold it: a number, or ``"inf"`` / ``"-inf"`` for a
    score of 100% / 0% (JSON has no infinity, and null would lose the sign; Python's
    ``float()`` reads both strings back); None when there is no estimate (NaN)."""
    if math.isnan(x):
        return None
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def _by_side(side_wins: list[int], n: int) -> list[dict]:
    """How often each side (seat colour) won, whoever played it: the seat advantage."""
    out = []
    for side, won in enumerate(side_wins):
        _, low, high = stats.rate_interval(won, n) if n else (0, float("nan"), float("nan"))
        out.append({"side": side, "wins": won, "win_rate": won / n if n else None, "ci": [low, high]})
    return out


def _first_bot_by_side(mine: list[list[int]]) -> list[dict]:
    """The first bot's score split by the side it played, from its games, wins and
    draws on each side."""
    out = []
    for side, (games, w, d) in enumerate(mine):
        if not games:
            continue
        s, low, high = stats.score_interval(w, d, games - w - d)
        out.append({"side": side, "games": games, "score": s, "ci": [low, high]})
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _elo(x: float | str | None) -> str:
    """A summary's Elo value (see :func:`_json_elo`) for the terminal: ``+120``, ``-inf``."""
    if x is None:
        return "-"
    x = float(x)
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _sprt_line(s: dict) -> str:
    """The SPRT's state: which hypothesis it accepted and why, or its bounds while undecided."""
    test = stats.SPRT.parse(s["spec"])
    llr = f"LLR {s['llr']:.2f}"
    if s["decision"] == "H0":
        return f"{llr} ≤ {s['lower']:.2f}: H0 accepted (elo ≤ {test.elo0:g})"
    if s["decision"] == "H1":
        return f"{llr} ≥ {s['upper']:.2f}: H1 accepted (elo ≥ {test.elo1:g})"
    return f"{llr} in [{s['lower']:.2f}, {s['upper']:.2f}]: undecided"


def format_match(summary: dict, colours: str = "bgr") -> str:
    """The summary as a few lines of text for the terminal."""
    a, b = summary["labels"][0], summary["labels"][-1]
    lines = [
        (
            f"{summary['games']} games ({summary['deals']} deals, each played with the seats "
            "rotated so both bots get the same cards: paired games cancel the luck of the deal)"
        ),
        f"  {a}: {summary['wins'].get(a, 0)} wins   {b}: {summary['wins'].get(b, 0)} wins   draws: {summary['draws']}",
        (
            f"  score of {a}: {_pct(summary['score'])}  95% CI [{_pct(summary['score_ci'][0])}, "
            f"{_pct(summary['score_ci'][1])}]"
        ),
    ]
    if summary["elo"] is not None or summary["elo_ci"] is not None:
        low, high = summary["elo_ci"] or (None, None)
        lines.append(
            f"  Elo difference: {_elo(summary['elo'])}  95% CI [{_elo(low)}, {_elo(high)}]   "
            f"LOS: {_pct(summary['los'])}"
        )
    sides = ", ".join(
        f"{colours[s['side']]} {_pct(s['win_rate'])} [{_pct(s['ci'][0])}, {_pct(s['ci'][1])}]"
        for s in summary["by_side"]
    )
    lines.append(f"  wins by side (seat advantage): {sides}")
    split = ", ".join(f"as {colours[s['side']]} {_pct(s['score'])}" for s in summary["first_bot_by_side"])
    lines.append(f"  score of {a} by side: {split}")
    t = summary["turns"]
    if t:
        lines.append(
            f"  game length (turns): mean {t['mean']:.1f} ± {t['std']:.1f}, median {t['median']:.0f}, "
            f"range {t['min']:.0f}–{t['max']:.0f}"
        )
    ends = ", ".join(f"{k} {v}" for k, v in summary["terminations"].items())
    lines.append(f"  endings: {ends}")
    if summary["forfeits"]:
        f = summary["forfeits"][0]
        lines.append(
            f"  forfeits: {len(summary['forfeits'])} (first: game {f['game']}, {f['bot']}: {f['reason']})"
        )
    if summary.get("games_per_s"):
        lines.append(f"  {summary['games_per_s']:.1f} games/s")
    if summary.get("sprt"):
        s = summary["sprt"]
        lines.append(f"  SPRT {s['spec']}: {_sprt_line(s)}")
    return "\n".join(lines)
