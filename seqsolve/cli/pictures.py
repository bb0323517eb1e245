"""Pictures of positions on the command line: ``show --to svg|png``, ``analyze --to
svg|png`` and ``annotate --pictures DIR`` draw through the game's
:meth:`~seqsolve.games.base.Game.picture`, with marks (a turn and its label) read
from an analysis.

A picture is made whole before anything is written: SVG text goes to stdout or, as a
PNG must, to ``--out`` (written whole or not at all), and a bad ``--arrows`` file is
refused in one line before any drawing.
"""

from __future__ import annotations

import json
import math
import os

import click

from ..games import game_for
from ..games.base import GameState
from ..play.records import check_output_file, write_text
from .errors import CliError
from .options import FILE_PATH, option_group

#: the forms of a picture, ``--to`` of show and analyze
PICTURE_FORMS = ("svg", "png")
#: the turns ``analyze --to svg`` marks when ``--top`` does not say
PICTURE_TOP = 3
#: an ``analyze --json`` file is a few kilobytes; more is not one
MAX_ARROWS_BYTES = 1 << 22


def picture_options(what: str):
    """``--to svg|png`` and ``--out FILE`` (``what``: what the picture shows)."""
    return option_group(
        [
            click.option(
                "--to",
                "picture",
                type=click.Choice(PICTURE_FORMS),
                default=None,
                help=f"Draw {what} as a picture instead of text (png needs --out).",
            ),
            click.option(
                "--out",
                type=FILE_PATH,
                default=None,
                help="Write the picture to this file (svg: default stdout).",
            ),
        ]
    )


def check_picture(picture: str | None, out: str | None, as_json: bool) -> None:
    """What the picture options mean together, before any work (exit 2, or 1 for a bad --out folder)."""
    if picture is None:
        if out is not None:
            raise click.UsageError("--out goes with --to svg or --to png")
        return
    if as_json:
        raise click.UsageError("--json and --to draw different things: give one")
    if picture == "png" and out is None:
        raise click.UsageError("--to png writes a file: give --out FILE.png")
    if out is not None:
        suffix = os.path.splitext(out)[1].lower().lstrip(".")
        if suffix in PICTURE_FORMS and suffix != picture:
            raise click.UsageError(
                f"--out {out} names a .{suffix} file but --to {picture} draws {picture.upper()}:"
                f" give --to {suffix}, or --out a .{picture} file"
            )
        check_output_file(out, "--out")


def win_label(win: float | None) -> str:
    """An analysis' win estimate as a mark's label.

    >>> win_label(0.6149), win_label(None)
    ('61%', '?')
    """
    return "?" if win is None else f"{100 * win:.0f}%"


def marks_from_analysis(data: dict) -> list[dict]:
    """The turns of an analysis (``analyze --json``'s object), best first, as marks
    labelled with their win chances."""
    return [{"move": m["move"], "label": win_label(m["win"])} for m in data["moves"]]


def read_arrows(path: str, state: GameState) -> list[dict]:
    """The marks of ``path``, the output of ``analyze --json`` for the position ``state``.

    Raises:
        CliError: the file cannot be read, is not such output, analyses another
            position (its ``position`` is compared, not only its turn and mover), or
            names a turn that is not legal in ``state``.
    """
    where = f"--arrows {path}"
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_ARROWS_BYTES + 1)
    except OSError as exc:
        raise CliError(f"{where}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > MAX_ARROWS_BYTES:
        raise CliError(
            f"{where}: larger than {MAX_ARROWS_BYTES >> 20} MB, not the output of 'seqsolve analyze --json'"
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CliError(f"{where}: not the JSON of 'seqsolve analyze --json' ({exc})") from None
    _check_analysis(where, data)
    if (data["turn"], data["to_move"]) != (state.turn, state.current_player):
        raise CliError(
            f"{where} analyses turn {data['turn']} with seat {data['to_move']} to move, but this position is"
            f" turn {state.turn} with {_mover(state)}"
        )
    _check_position(where, data, state)
    marks = marks_from_analysis(data)
    for k, mark in enumerate(marks, 1):
        try:
            state.clone().play_turn(mark["move"])
        except ValueError as exc:
            raise CliError(f"{where}: turn {k} {mark['move']!r} cannot be played here: {exc}") from None
    return marks


def _check_position(where: str, data: dict, state: GameState) -> None:
    """Refuse an analysis of another position at the same turn with the same seat to
    move: its turns may be legal here, but their win chances are another game's.  The
    positions are compared as the mover saw them (what an analysis reads), so an
    analysis with every card known (``--open``) still fits the position it analysed."""
    game = game_for(str(state.rules.variant))
    try:
        analysed = game.read_position(data["position"], "the analysis")
    except ValueError:
        analysed = None
    mover = state.current_player
    if analysed is None or game.write_position(analysed, mover) != game.write_position(state, mover):
        raise CliError(
            f"{where} analyses another position than this one (turn {state.turn}, seat {mover} to move in both):"
            f" its 'position' differs"
        )


def _mover(state: GameState) -> str:
    return "the game over" if state.current_player is None else f"seat {state.current_player} to move"


def _check_analysis(where: str, data) -> None:
    """The fields of an analysis that a picture reads, with their types."""
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise CliError(f"{where}: not the output of 'seqsolve analyze --json' (no list of moves)")
    for key in ("turn", "to_move"):
        if type(data.get(key)) is not int:
            raise CliError(
                f"{where}: not the output of 'seqsolve analyze --json' ({key!r} is not a whole number)"
            )
    for k, move in enumerate(data["moves"], 1):
        win = move.get("win", "missing") if isinstance(move, dict) else "missing"
        if (
            not isinstance(move, dict)
            or not isinstance(move.get("move"), str)
            or not (win is None or (type(win) in (int, float) and math.isfinite(win) and 0 <= win <= 1))
        ):
            raise CliError(f"{where}: move {k} is not a turn with a win chance between 0 and 1")
    if not isinstance(data.get("position"), str):
        raise CliError(f"{where}: not the output of 'seqsolve analyze --json' (no 'position' text)")


def draw_picture(
    state: GameState,
    picture: str,
    out: str | None,
    viewer: int | None = None,
    marks: list[dict] | None = None,
) -> None:
    """Draw ``state`` with ``marks`` as ``picture`` (svg or png) into ``out``, or SVG to stdout."""
    game = game_for(str(state.rules.variant))
    if picture == "svg":
        data: str | bytes = game.picture(state, viewer, marks)
    else:
        data = game.picture_png(state, _new_figure, viewer, marks)
    if out is None:
        click.echo(data, nl=False)
    else:
        write_text(out, data)


def _new_figure(width: float, height: float):
    from ..balance.plots import new_figure

    try:
        return new_figure(width, height)
    except ImportError:
        raise CliError("--to png needs matplotlib: pip install matplotlib (or use --to svg)") from None


def check_pictures(folder: str, record: dict) -> None:
    """``--pictures DIR`` before any analysis: a folder that can be made, for a game that
    draws pictures (its first position is drawn to make sure)."""
    from ..play.records import check_output_folder, start_state

    check_output_folder(folder, "--pictures")
    game_for(record["variant"]).picture(start_state(record))


def write_pictures(
    folder: str, drawn: list[tuple[str, GameState, list[dict]]]
) -> tuple[list[str], str | None]:
    """Each ``(name, state, marks)`` as ``folder/name.svg`` (the folder made now, once
    the analysis is done): the paths written, and one line on those that could not be
    (None when every one was), so that one picture failing loses nothing else."""
    from ..play.records import RecordError, make_output_folder

    try:
        make_output_folder(folder, "--pictures")
    except RecordError as exc:
        return [], f"no picture written: {exc}"
    paths, failed = [], []
    for name, state, marks in drawn:
        path = os.path.join(folder, f"{name}.svg")
        try:
            write_text(path, game_for(str(state.rules.variant)).picture(state, None, marks))
        except RecordError as exc:
            failed.append(str(exc))
            continue
        paths.append(path)
    if not failed:
        return paths, None
    return paths, f"{len(failed)} of {len(drawn)} pictures not written: {failed[0]}"
