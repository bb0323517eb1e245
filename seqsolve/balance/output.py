"""A balance run in words and numbers: the text and Markdown tables, CSV, the JSON
report and the Markdown report with its plots."""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Sequence

from ..bots import restrictions
from .metrics import TERMINATIONS
from .run import BalanceConfig


def _pct(x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def _interval(ci: Sequence[float] | None, signed: bool = False) -> str:
    if not ci:
        return "-"
    return f"[{_pct(ci[0], signed)}, {_pct(ci[1], signed)}]"


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


TABLE_COLUMNS = (
    "variant",
    "games",
    "first seat adv. (pp) [95% CI]",
    "side wins % (in seat order)",
    "balanced p",
    "draws %",
    "other ends",
    "turns mean (p10-p90)",
    "decisions",
    "branching",
    "jacks/game",
    "exch./game",
    "reshuf./game",
    "corner wins %",
    "jack wins %",
    "exch. wins %",
)
_ENDS = {
    "frozen": "frozen",
    "stall": "stall",
    "turn_cap": "cap",
    "deck_exhausted": "deck",
    "draft_end": "draft end",
    "draw_stalled": "stalled",
    "max_turns": "cap",
    "forfeit": "forfeit",
}


def _mean(s: dict, key: str) -> str:
    """A per-game mean of the summary, or ``-`` for a metric its game does not count."""
    return "-" if s.get(key) is None else f"{s[key]:.2f}"


def table_rows(summaries: list[dict]) -> list[list[str]]:
    """The terminal/Markdown table: one row per variant."""
    rows = []
    for s in summaries:
        if not s.get("games"):
            rows.append([s["label"], "0"] + ["-"] * (len(TABLE_COLUMNS) - 2))
            continue
        t = s["turns"]
        rows.append(
            [
                s["label"],
                str(s["games"]),
                f"{_pct(s['first_seat_advantage'], True)} {_interval(s['first_seat_advantage_ci'], True)}",
                " ".join(_pct(x) for x in s["side_win"]),
                _p(s["balance_test"]["p_value"]),
                _pct(s["draw_rate"]),
                ", ".join(f"{_ENDS[k]} {v}" for k, v in s["terminations"].items() if k != "win") or "-",
                f"{t['mean']:.1f} ({t['p10']:.0f}-{t['p90']:.0f})",
                f"{s['decisions_mean']:.1f}",
                "-" if s["branching"] is None else f"{s['branching']:.1f}",  # no action played: all forfeits
                _mean(s, "jacks_mean"),
                _mean(s, "exchanges_mean"),
                _mean(s, "reshuffles_mean"),
                _pct(s.get("corner_win_rate")),
                _pct(s.get("jack_won_rate")),
                _pct(s.get("exchange_won_rate")),
            ]
        )
    return rows


#: the table of Sequence Stacks' own metrics (docs/balance-metrics.md, "Sequence Stacks")
STACKS_COLUMNS = (
    "variant",
    "blocks/game",
    "Block decided % [95% CI]",
    "card steals/game",
    "chip steals/game",
    "chip steal won % [95% CI]",
    "skips/game",
    "reverses/game",
    "recycles/game",
)


def stacks_rows(summaries: list[dict]) -> list[list[str]]:
    """One row per Sequence Stacks variant that played games (none in a Sequence-only run)."""
    return [
        [
            s["label"],
            _mean(s, "blocks_mean"),
            f"{_pct(s['block_decided_rate'])} {_interval(s['block_decided_ci'])}",
            _mean(s, "steals_card_mean"),
            _mean(s, "steals_chip_mean"),
            f"{_pct(s['steal_chip_won_rate'])} {_interval(s['steal_chip_won_ci'])}",
            _mean(s, "skips_mean"),
            _mean(s, "reverses_mean"),
            _mean(s, "recycles_mean"),
        ]
        for s in summaries
        if s.get("games") and "blocks_mean" in s
    ]


def match_rows(summaries: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Restricted-play and skill scores per variant (empty when none were played)."""
    names = sorted({r for s in summaries for r in s.get("restricted", {})}, key=list(restrictions()).index)
    skill = any("skill" in s for s in summaries)
    if not names and not skill:
        return [], []
    header = ["variant", "fair"] + [f"vs no {r} %" for r in names] + (["strong vs weak %"] if skill else [])
    rows = []
    for s in summaries:
        row = [s["label"], _pct(1 / s["teams"])]
        for r in names:
            e = s.get("restricted", {}).get(r)
            row.append(f"{_pct(e['score'])} {_interval(e['score_ci'])}" if e else "-")
        if skill:
            e = s.get("skill")
            row.append(f"{_pct(e['score'])} {_interval(e['score_ci'])}" if e else "-")
        rows.append(row)
    return header, rows


def format_text(header: Sequence[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(header, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines)


def format_markdown(header: Sequence[str], rows: list[list[str]]) -> str:
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(header), "|" + "|".join("---" for _ in header) + "|"] + [line(r) for r in rows])


def format_balance(summaries: list[dict]) -> str:
    """The terminal report: the variant table, then the match table if any."""
    text = format_text(TABLE_COLUMNS, table_rows(summaries))
    stacks = stacks_rows(summaries)
    if stacks:
        text += "\n\nSequence Stacks: action cards per game and how often they decided it (95% CI):\n"
        text += format_text(STACKS_COLUMNS, stacks)
    header, rows = match_rows(summaries)
    if rows:
        text += "\n\nscore of the bot against a restricted or weaker opponent (95% CI):\n"
        text += format_text(header, rows)
    return text


# per-game figures a summary holds under their own names
GAME_MEANS = (
    "plies_mean",
    "decisions_mean",
    "branching",
    "exchanges_mean",
    "two_eyed_mean",
    "one_eyed_mean",
    "jacks_mean",
    "reshuffles_mean",
    "passes_mean",
    "corner_win_rate",
    "jack_won_rate",
    "exchange_won_rate",
    "blocks_mean",
    "block_decided_rate",
    "steals_card_mean",
    "steals_chip_mean",
    "steal_chip_won_rate",
    "skips_mean",
    "reverses_mean",
    "recycles_mean",
)


def csv_fields() -> tuple[str, ...]:
    """The columns of :func:`to_csv`, in order."""
    return (
        "variant",
        "players",
        "teams",
        "replica",
        "games",
        *(f"side{i}_{k}" for i in range(6) for k in ("win", "low", "high")),
        "first_seat_advantage",
        "first_seat_advantage_low",
        "first_seat_advantage_high",
        "chi2",
        "p_value",
        "draw_rate",
        "draw_rate_low",
        "draw_rate_high",
        *(f"end_{k}" for k in TERMINATIONS),
        "turns_mean",
        "turns_std",
        "turns_p10",
        "turns_median",
        "turns_p90",
        *GAME_MEANS,
        "ludii_advantage_p1",
        "ludii_balance",
        "ludii_completion",
        "ludii_drawishness",
        "ludii_duration",
        *(f"no_{r}_{k}" for r in restrictions() for k in ("score", "low", "high")),
        "skill_score",
        "skill_low",
        "skill_high",
    )


def to_csv(summaries: list[dict]) -> str:
    """One row per variant with every number of the summaries (:func:`csv_fields`)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=csv_fields(), lineterminator="\n")
    writer.writeheader()
    for s in summaries:
        row: dict = {k: s.get(k) for k in ("variant", "players", "teams", "replica", "games")}
        if s.get("games"):
            for i, (rate, ci) in enumerate(zip(s["side_win"], s["side_win_ci"])):
                row.update({f"side{i}_win": rate, f"side{i}_low": ci[0], f"side{i}_high": ci[1]})
            row["first_seat_advantage"] = s["first_seat_advantage"]
            row["first_seat_advantage_low"], row["first_seat_advantage_high"] = s["first_seat_advantage_ci"]
            row["chi2"], row["p_value"] = s["balance_test"]["chi2"], s["balance_test"]["p_value"]
            row["draw_rate"] = s["draw_rate"]
            row["draw_rate_low"], row["draw_rate_high"] = s["draw_rate_ci"]
            for k in TERMINATIONS:
                row[f"end_{k}"] = s["terminations"].get(k, 0)
            for k in ("mean", "std", "p10", "median", "p90"):
                row[f"turns_{k}"] = s["turns"][k]
            for k in GAME_MEANS:
                row[k] = s.get(k)  # a metric of the other game is left empty
            for k in ("advantage_p1", "balance", "completion", "drawishness", "duration"):
                row[f"ludii_{k}"] = s["ludii"][k]
            for r, e in s.get("restricted", {}).items():
                row[f"no_{r}_score"], (row[f"no_{r}_low"], row[f"no_{r}_high"]) = e["score"], e["score_ci"]
            if "skill" in s:
                row["skill_score"], (row["skill_low"], row["skill_high"]) = (
                    s["skill"]["score"],
                    s["skill"]["score_ci"],
                )
        writer.writerow({k: _csv_value(v) for k, v in row.items()})
    return buf.getvalue()


def _csv_value(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else v


def report_json(
    summaries: list[dict], config: BalanceConfig, games: int, games_per_match: int | None
) -> dict:
    """The ``--json`` object: the run's settings and one entry per variant."""
    return {
        "seqsolve": "balance",
        "seed": config.seed,
        "bots": list(config.bots),
        "games": games,
        "restrict": list(config.restrict),
        "strong": config.strong_bot if config.weak else None,
        "weak": config.weak,
        "games_per_match": (games if games_per_match is None else games_per_match)
        if (config.restrict or config.weak)
        else None,
        "variants": summaries,
    }


def plots_folder(report_path: str) -> str:
    """``docs/balance.md`` keeps its plots in ``docs/balance/``."""
    return os.path.splitext(report_path)[0]


_LEGEND = (
    "Intervals are 95%. *First seat adv.* is the score of the side that moves first (a draw shared "
    "equally) minus its fair share 1/sides, in percentage points; *balanced p* is the chi-square test "
    "of equal wins for every side; *other ends* counts games that did not end in a win (frozen board, "
    "stall, turn cap, ...); *decisions* are actions per game with more than one choice; "
    "*branching* is the mean number of legal actions per action; "
    "*corner wins* is the share of won games in which the winner had a sequence through a corner. "
    "*jack wins* is the share of won games whose winning play placed a two-eyed jack, *exch. wins* "
    "the share whose winning turn began with a dead-card exchange. "
    "seqsolve's docs/balance-metrics.md defines every column."
)


def markdown_report(
    summaries: list[dict], data: dict, command: str, plots: dict | None, report_path: str
) -> str:
    """A Markdown report: the command, the tables, the plots shown in it."""
    base = os.path.dirname(os.path.abspath(report_path))

    def link(path: str) -> str:
        return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")

    lines = [
        "# Rule-variant balance",
        "",
        "Made by:",
        "",
        "```",
        command,
        "```",
        "",
        (
            f"Bots: {', '.join(data['bots'])} (self-play, every bot fixed on its seat, a new deal every game); "
            f"root seed {data['seed']}; {data['games']} games per variant."
        ),
        _LEGEND,
        "",
        format_markdown(TABLE_COLUMNS, table_rows(summaries)),
        "",
    ]
    stacks = stacks_rows(summaries)
    if stacks:
        lines += [
            "## Sequence Stacks: Block and the Steal cards",
            "",
            format_markdown(STACKS_COLUMNS, stacks),
            "",
        ]
    header, rows = match_rows(summaries)
    if rows:
        lines += [
            "## Restricted play and skill",
            "",
            (
                "Score (%) of the bot against the same bot barred from a rule, and of the strong bot against the "
                "weak one, over paired deals; *fair* is the score of equal play (1/sides)."
            ),
            "",
            format_markdown(header, rows),
            "",
        ]
    lines += [
        "## Ludii's outcome concepts",
        "",
        format_markdown(
            ("variant", "advantage P1", "balance", "completion", "drawishness", "duration (turns)"),
            [
                [
                    s["label"],
                    f"{s['ludii']['advantage_p1']:.3f}",
                    f"{s['ludii']['balance']:.3f}",
                    f"{s['ludii']['completion']:.3f}",
                    f"{s['ludii']['drawishness']:.3f}",
                    f"{s['ludii']['duration']:.1f}",
                ]
                for s in summaries
                if s.get("games")
            ],
        ),
        "",
    ]
    if plots:  # the plots written (one that could not be is left out)
        lines += ["## Plots", ""]
        for key, title in (("seat_advantage", "seat advantage"), ("lengths", "game length")):
            if plots.get(key):
                lines += [f"![{title}]({link(plots[key])})", ""]
        for label, path in plots.get("heatmaps", {}).items():  # shown in the report, not only linked
            lines += [f"### {label}", "", f"![board heatmaps of {label}]({link(path)})", ""]
    return "\n".join(lines)
