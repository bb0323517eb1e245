"""Plots of a balance run, drawn with matplotlib's Agg backend into PNG files.

Nothing here computes a statistic: every function draws the summaries that
:func:`seqsolve.balance.metrics.summarize_point` made.  Figures are built with
``matplotlib.figure.Figure`` directly (no ``pyplot`` and its global state), so
drawing works on a machine without a display and from worker threads.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import partial

from ..games import NotSupported, game_for
from ..play.records import RecordError, make_output_folder, write_figure

#: blue, green, red chips (Sequence's sides), then three more for Stacks' 4 to 6 seats
SIDE_COLOURS = ("#1f5fbf", "#2e8b3e", "#c0392b", "#8e44ad", "#d35400", "#7f8c8d")


def new_figure(width: float, height: float):
    """A blank figure; the ImportError when matplotlib is missing says what to install,
    so a command can ask for one before any game is played and fail in one line."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(
            "plots need matplotlib, a dependency of seqsolve: pip install matplotlib (or pass --no-plots)"
        ) from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def plot_seat_advantage(summaries: Sequence[dict]):
    """Seat advantage across variants: the first mover's advantage (score − fair share, in
    percentage points) and every side's win rate, each with its 95% interval."""
    rows = [s for s in summaries if s.get("games")]
    height = 1.6 + 0.34 * max(len(rows), 1)
    fig = new_figure(11, height)
    left, right = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1, 1.2]})
    ys = list(range(len(rows)))[::-1]
    labelled: set[int] = set()
    for y, s in zip(ys, rows):
        adv = 100 * s["first_seat_advantage"]
        low, high = (100 * x for x in s["first_seat_advantage_ci"])
        left.errorbar(adv, y, xerr=[[adv - low], [high - adv]], fmt="o", color="black", capsize=3, ms=4)
        sides = len(s["side_win"])
        for k, (rate, ci) in enumerate(zip(s["side_win"], s["side_win_ci"])):
            offset = (k - (sides - 1) / 2) * 0.22
            r = 100 * rate
            right.errorbar(
                r,
                y + offset,
                xerr=[[r - 100 * ci[0]], [100 * ci[1] - r]],
                fmt="o",
                color=SIDE_COLOURS[k],
                capsize=2,
                ms=3.5,
                label=None if k in labelled else str(k),
            )
            labelled.add(k)
        fair = 100 * (1 - s["draw_rate"]) / sides
        right.plot([fair, fair], [y - 0.4, y + 0.4], color="grey", lw=1)
    left.axvline(0, color="grey", lw=1)
    left.set_yticks(ys, [s["label"] for s in rows])
    left.set_xlabel("first seat's advantage, pp (score − 1/sides; draws shared)")
    right.set_xlabel("win rate of each side, % (grey: equal share of the decisive games)")
    if labelled:
        right.legend(title="side", loc="best", fontsize="small")
    for ax in (left, right):
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.7, len(rows) - 0.3)
    fig.suptitle("Seat advantage by variant (95% intervals)")
    return fig


def plot_lengths(summaries: Sequence[dict]):
    """Game length across variants: mean turns with the 10th–90th percentile range."""
    rows = [s for s in summaries if s.get("games")]
    fig = new_figure(8, 1.2 + 0.32 * max(len(rows), 1))
    ax = fig.subplots()
    ys = list(range(len(rows)))[::-1]
    for y, s in zip(ys, rows):
        t = s["turns"]
        ax.plot([t["p10"], t["p90"]], [y, y], color="grey", lw=3, alpha=0.6)
        ax.plot(t["median"], y, "|", color="black", ms=10)
        ax.plot(t["mean"], y, "o", color="black", ms=4)
    ax.set_yticks(ys, [s["label"] for s in rows])
    ax.set_xlabel("turns per game (dot: mean, bar: median, band: 10th–90th percentile)")
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle("Game length by variant")
    return fig


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", label).strip("_")


def write_plots(summaries: Sequence[dict], folder: str) -> tuple[dict[str, object], str | None]:
    """Every plot of a run into ``folder`` (made when its parent exists):
    ``seat_advantage.png``, ``lengths.png`` and one ``heatmap-<variant>.png`` per variant,
    the game's picture of its games (:meth:`~seqsolve.games.base.Game.plot_games`).

    Returns the paths written by name (a plot that could not be written is left out, so
    the report that links them loses nothing else) and one line on those that could not
    be written, or None.
    """
    try:
        make_output_folder(folder, "plots")
    except RecordError as exc:
        return {}, f"no plot written: {exc}"
    out: dict[str, object] = {"heatmaps": {}}
    failed: list[str] = []
    attempted = 0

    def write(draw, path: str) -> str | None:
        nonlocal attempted
        figure = draw()  # drawn and written one at a time: a large grid holds one figure
        attempted += 1
        try:
            return write_figure(figure, path)
        except RecordError as exc:
            failed.append(str(exc))
            return None

    for name, draw in (("seat_advantage", plot_seat_advantage), ("lengths", plot_lengths)):
        if written := write(partial(draw, summaries), os.path.join(folder, f"{name}.png")):
            out[name] = written
    for s in summaries:
        if s.get("games"):
            path = os.path.join(folder, f"heatmap-{_slug(s['label'])}.png")
            try:
                written = write(partial(game_for(s["variant"]).plot_games, s, new_figure), path)
            except NotSupported:  # a game without a board (Stacks) has no heatmap
                continue
            if written:
                out["heatmaps"][s["label"]] = written
    if not failed:
        return out, None
    return out, f"{len(failed)} of {attempted} plots not written: {failed[0]}"
