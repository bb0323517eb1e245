"""A race (``seqsolve fair``) in words, numbers and one plot: the race table, the
costs of the best candidates beside the original (``balance``'s own table), the JSON
report, the Markdown report and the plot of seat advantage against each tried value."""

from __future__ import annotations

import os

from .output import (
    STACKS_COLUMNS,
    TABLE_COLUMNS,
    _interval,
    _pct,
    format_balance,
    format_markdown,
    format_text,
    match_rows,
    stacks_rows,
    table_rows,
)
from .plots import new_figure
from .race import RaceConfig, RaceResult, option_values

RACE_COLUMNS = ("rank", "variant", "games", "first seat adv. (pp) [CI]", "result")

#: how long a summary's heatmap is kept out of the report: it is the board's, not the race's
_LEFT_OUT = ("heatmap",)


def _tolerance(config: RaceConfig) -> str:
    return f"±{100 * config.within:.1f} pp"


def _status(config: RaceConfig, result: RaceResult, i: int, original: bool) -> str:
    d = result.dropped[i]
    text = "in" if d is None else f"dropped in round {d}"
    for c in result.confirmations:
        if c["candidate"] == i:
            text = (
                ("the answer, " if c is result.confirmed else "")
                + f"confirmed on {c['games']} new games (fixed-n CI), "
                + ("within " if c["within"] else "not within ")
                + _tolerance(config)
            )
    return f"{text} (original)" if original else text


def _level(c: dict) -> str:
    return f"{100 * c['level']:.4g}%"


def _interval_line(config: RaceConfig, result: RaceResult) -> str:
    level = round(100 * config.level)
    line = f"CI: {level}% confidence sequence (betting), valid at every round"
    for c in result.confirmations:
        adv, low, high = c["sequential"]
        label = config.candidates[c["candidate"]].label
        line += (
            f"; {label}: {_level(c)} fixed-n interval on its {c['games']} confirmation games alone"
            f" (after {c['selection_games']} games of the selection at {_pct(adv, True)} {_interval([low, high], True)})"
        )
    return line


def _confirmation_line(config: RaceConfig, result: RaceResult) -> str:
    """How many were confirmed, at what level and why, which one is the answer, and
    what choosing it costs (docs/fair-command.md)."""
    confirmed = result.confirmed
    if confirmed is None:
        return "confirmation: none (the budget pays for no confirmation after a round of every candidate)"
    label = config.candidates[confirmed["candidate"]].label
    n = len(result.confirmations)
    line = (
        f"confirmation: {n} of at most {config.confirm} (--confirm), each at {_level(confirmed)}"
        f"; stopped: {result.confirm_stopped}; the answer: {label}, "
    )
    if confirmed["within"]:
        line += f"fair within {_tolerance(config)} (--within)"
    else:
        line += f"the one nearest 0; none is known to be fair within {_tolerance(config)} (--within)"
    if confirmed["planned"] == 1:
        return line
    return line + (
        f". Chosen on the confirmation games, so each interval is at the Bonferroni level 1 - {1 - config.level:g}/"
        f"{confirmed['planned']} (at most {confirmed['planned']} confirmations): all hold at once with"
        f" {round(100 * config.level)}%, the answer's too; its estimate still leans toward 0 (the small"
        " winner's curse of a choice)"
    )


def race_rows(config: RaceConfig, result: RaceResult) -> list[list[str]]:
    """One row per candidate, best first."""
    rows = []
    for rank, i in enumerate(result.ranking(), 1):
        adv, low, high = result.intervals[i]
        rows.append(
            [
                str(rank),
                config.candidates[i].label,
                str(result.games[i]),
                f"{_pct(adv, True)} {_interval([low, high], True)}",
                _status(config, result, i, i == 0),
            ]
        )
    return rows


def _grid_line(grid: dict) -> str:
    return (
        f"games: the race {grid['race_games']} (every confirmation's among them), {100 * grid['race_share']:.0f}%"
        f" of a uniform grid's to the same precision (±{100 * grid['half_width']:.2f} pp on the best at"
        f" {100 * grid['level']:.4g}%): {grid['fixed_interval']} with fixed-n"
        f" intervals ({grid['fixed_interval_games_each']} each), {grid['same_sequence']} with sequential ones"
    )


def _confirmations_said(result: RaceResult) -> str:
    n = len(result.confirmations)
    if not n:
        return ""
    games = result.confirmations[0]["games"]
    if n == 1:
        return f"; then the pick's confirmation ({games} games)"
    return f"; then {n} confirmations of {games} new games each"


def format_race(config: RaceConfig, result: RaceResult, summaries: list[dict], grid: dict) -> str:
    """The terminal report: the race, then the costs of the best beside the original."""
    lines = [
        f"race: {len(result.rounds)} rounds of {config.batch} games, stopped by {result.stopped}"
        + _confirmations_said(result),
        format_text(RACE_COLUMNS, race_rows(config, result)),
        _interval_line(config, result),
        _confirmation_line(config, result),
        _grid_line(grid),
        "",
        "the original and the best, as 'seqsolve balance' reports them (fixed-n intervals):",
        format_balance(summaries),
    ]
    return "\n".join(lines)


def report_json(config: RaceConfig, result: RaceResult, summaries: list[dict], grid: dict) -> dict:
    """The race as one JSON object (docs/fair-command.md lists its fields)."""
    names = [name for name, _ in config.tries]
    bal = config.balance
    candidates = []
    for i, point in enumerate(config.candidates):
        adv, low, high = result.intervals[i]
        candidates.append(
            {
                "variant": point.variant,
                "label": point.label,
                "original": i == 0,
                "values": option_values(point, names),
                "games": result.games[i],
                "first_seat_advantage": adv,
                "first_seat_advantage_cs": [low, high],
                "dropped_in_round": result.dropped[i],
            }
        )
    return {
        "seqsolve": "fair",
        "variant": config.candidates[0].variant,
        "players": config.candidates[0].players,
        "teams": config.candidates[0].teams,
        "bots": list(bal.bots),
        "seed": bal.seed,
        "skill": {"strong": bal.strong_bot, "weak": bal.weak} if bal.weak else None,
        "race": {
            **config.to_json(),
            "interval": "betting confidence sequence with a fixed bet (Waudby-Smith and Ramdas 2024), scores in [0, 1]",
            "bet": config.bet,
            "selection_width": config.select_width,
            "rounds": len(result.rounds),
            "stopped": result.stopped,
            "within": config.within,
            "confirm": config.confirm,
            "confirmation": _confirmation_json(config, result, result.confirmed),
            "confirmations": [_confirmation_json(config, result, c) for c in result.confirmations],
            "confirm_stopped": result.confirm_stopped,
            "games": result.spent,
        },
        "uniform_grid": grid,
        "ranking": [config.candidates[i].label for i in result.ranking()],
        "candidates": candidates,
        "rounds": [
            {
                "round": r["round"],
                "games": r["games"],
                "intervals": {config.candidates[i].label: v for i, v in r["intervals"].items()},
                "dropped": [config.candidates[i].label for i in r["dropped"]],
            }
            for r in result.rounds
        ],
        "reported": [{k: v for k, v in s.items() if k not in _LEFT_OUT} for s in summaries],
    }


def _confirmation_json(config: RaceConfig, result: RaceResult, c: dict | None) -> dict | None:
    if not c:
        return None
    return {
        "candidate": config.candidates[c["candidate"]].label,
        "selection_games": c["selection_games"],
        "games": c["games"],
        "level": c["level"],
        "planned": c["planned"],
        "first_seat_advantage": c["interval"][0],
        "first_seat_advantage_ci": c["interval"][1:],
        "within": c["within"],
        "at_selection": c["sequential"],
    }


def markdown_report(
    config: RaceConfig,
    result: RaceResult,
    summaries: list[dict],
    data: dict,
    plot: str | None,
    report_path: str,
) -> str:
    """The Markdown report, linking the plot relative to the report."""
    level = round(100 * config.level)
    lines = [
        f"# The fairest compensation for {config.candidates[0].label}",
        "",
        f"Command: `{data['command']}`",
        "",
        (
            f"Bots {', '.join(config.balance.bots)}, seed {config.balance.seed}; {len(result.rounds)} rounds of "
            f"{config.batch} games per candidate, stopped by {result.stopped}"
            + _confirmations_said(result)
            + f".  Intervals: {level}% confidence sequences (betting, valid at every round;"
            " docs/fair-command.md)"
            + (
                "; the confirmed: the fixed-n interval of their confirmation games."
                if result.confirmed
                else "."
            )
        ),
        "",
        format_markdown(RACE_COLUMNS, race_rows(config, result)),
        "",
        _interval_line(config, result) + ".",
        "",
        _confirmation_line(config, result) + ".",
        "",
        _grid_line(data["uniform_grid"]) + ".",
        "",
        "## The original and the best, as `seqsolve balance` reports them",
        "",
        (
            "Fixed-n 95% intervals on the games each candidate played in the race; *delta* rows in the JSON "
            "compare each with the original."
        ),
        "",
        format_markdown(TABLE_COLUMNS, table_rows(summaries)),
        "",
    ]
    stacks = stacks_rows(summaries)
    if stacks:  # Sequence Stacks' own counts (docs/balance-metrics.md)
        lines += [
            "Sequence Stacks: action cards per game (95% CI).",
            "",
            format_markdown(STACKS_COLUMNS, stacks),
            "",
        ]
    header, rows = match_rows(summaries)
    if rows:  # the skill match: the strong bot's score against the weak one
        lines += [
            f"Skill: {config.balance.strong_bot} against {config.balance.weak}, paired deals (95% CI).",
            "",
            format_markdown(header, rows),
            "",
        ]
    if plot:
        link = os.path.relpath(plot, os.path.dirname(os.path.abspath(report_path)) or ".")
        lines += ["![seat advantage against each tried value](" + link.replace(os.sep, "/") + ")", ""]
    return "\n".join(lines)


def plot_race(config: RaceConfig, result: RaceResult):
    """Seat advantage against each tried option's values: every candidate at its value,
    with its sequential interval, black while in the race, grey once dropped."""
    names = [name for name, _ in config.tries]
    fig = new_figure(4.2 * len(names) + 0.8, 3.6)
    axes = fig.subplots(1, len(names), sharey=True, squeeze=False)[0]
    values = [option_values(p, names) for p in config.candidates]
    for ax, name in zip(axes, names):
        xs = list(dict.fromkeys(str(v[name]) for v in values))
        at = {x: k for k, x in enumerate(xs)}
        groups: dict[str, list[int]] = {}
        for i, v in enumerate(values):
            groups.setdefault(str(v[name]), []).append(i)
        for x, members in groups.items():
            for j, i in enumerate(members):
                adv, low, high = (100 * y for y in result.intervals[i])
                offset = (j - (len(members) - 1) / 2) * min(0.12, 0.7 / len(members))  # within its value
                alive = result.dropped[i] is None
                ax.errorbar(
                    at[x] + offset,
                    adv,
                    yerr=[[adv - low], [high - adv]],
                    fmt="s" if i == 0 else "o",
                    color="black" if alive else "#9a9a9a",
                    capsize=3,
                    ms=5,
                )
        ax.axhspan(-100 * config.within, 100 * config.within, color="#2e8b57", alpha=0.12, lw=0)
        ax.axhline(0, color="#c0392b", lw=1)
        ax.set_xticks(range(len(xs)), xs)
        ax.set_xlabel(name)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("first seat's advantage, pp")
    level = round(100 * config.level)
    parts = [f"{config.candidates[0].label}: seat advantage ({level}% confidence sequences"]
    if result.confirmed:
        several = len(result.confirmations) > 1
        parts.append(
            f"the confirmed: {_level(result.confirmed)} fixed-n on {'their' if several else 'its'} new games"
        )
    parts.append(f"green band: within {_tolerance(config)}")
    parts.append("black: still in, grey: dropped, square: original)")
    # one panel is too narrow for two parts on a line: one part a line there, else two
    breaks = [";\n" if len(names) == 1 or k % 2 == 0 else "; " for k in range(1, len(parts))]
    title = parts[0] + "".join(b + p for b, p in zip(breaks, parts[1:]))
    fig.suptitle(title, fontsize="medium")
    return fig
