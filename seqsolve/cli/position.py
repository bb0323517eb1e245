"""The commands on one position: show, apply, convert, perft; and bench, which
times the engine on positions of its own.

Positions are read and written by :mod:`seqsolve.games.sequence.notation`, played by
:class:`seqsolve.games.sequence.state.State`, drawn by :mod:`seqsolve.games.sequence.render` and timed by
:mod:`seqsolve.benchmark`.

A position argument ``FILE`` is a path, ``-`` for standard input, or
``example:N`` for a bundled example (``seqsolve/data/exampleN.sqn``: 1-3 are the worked
examples of RULES.md §5.5, 4 a mid-game position with every card known).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from importlib import resources

import click

from ..games import rules_for
from ..games.sequence.moves import MoveSyntaxError, join_turns, parse_turn
from ..games.sequence.notation import (
    parse_position,
    position_to_dict,
    read_position,
    read_position_stream,
    to_readable,
    to_sqn,
)
from ..games.sequence.position import Position
from ..games.sequence.rules import Variant
from .errors import CliError
from .options import (
    GAMES,
    MAX_GAMES,
    fresh_seed,
    json_option,
    players_option,
    progress_option,
    seed_option,
    teams_option,
    variant_option,
)
from .progress import progress_enabled

FORMATS = ("sqn", "readable", "json")
#: perft deeper than this would not finish (the tree grows ~100x per action)
MAX_DEPTH = 12


def _example_names() -> list[str]:
    data = resources.files("seqsolve").joinpath("data")
    names = [p.name[len("example") : -len(".sqn")] for p in data.iterdir() if p.name.startswith("example")]
    return sorted((n for n in names if n.isdigit()), key=int)


EXAMPLES = _example_names()


# ---------------------------------------------------------------------------
# helpers shared by the commands


def load_position(source: str) -> Position:
    """Read ``source``: a path, ``-`` (standard input) or ``example:N`` (bundled).

    Raises:
        PositionError: the text is not a valid position (or the file is unreadable).
        CliError: an unknown example name.
    """
    if source == "-":
        return read_position_stream(sys.stdin, "<stdin>")
    if source.startswith("example:"):
        return _example(source.split(":", 1)[1])
    return read_position(source)


def _example(name: str) -> Position:
    if name not in EXAMPLES:
        raise CliError(f"unknown example {name!r} (bundled: {', '.join(EXAMPLES)})")
    text = resources.files("seqsolve").joinpath("data", f"example{name}.sqn").read_text(encoding="utf-8")
    return parse_position(text, f"example:{name}")


def _state(pos: Position, seed=None):
    from ..games.sequence.state import State  # the compiled core, loaded only by commands that play

    return State.from_position(pos, seed=seed)


def legal_strings(pos: Position) -> list[str]:
    """The P-13 strings of the side to move (empty when its hand is unknown or the game is over)."""
    return [str(m) for m in _state(pos).legal_moves()]


def position_json(pos: Position, **extra) -> str:
    """``position_to_dict`` plus ``legal_moves`` and ``sequences`` (P-7 strings), as JSON text."""
    data = position_to_dict(pos)
    data["legal_moves"] = legal_strings(pos)
    data["sequences"] = [f"{colour}:{_window(w)}" for colour, w in pos.sequences]
    data.update(extra)
    return json.dumps(data, indent=2) + "\n"


def _window(w: int) -> str:
    from ..games.sequence.board import window_name

    return window_name(w)


def format_position(pos: Position, to: str) -> str:
    """The whole text of ``pos`` in one of :data:`FORMATS`, ending with a newline."""
    if to == "sqn":
        return to_sqn(pos) + "\n"
    if to == "readable":
        return to_readable(pos)
    return position_json(pos)


def _use_color(flag: bool | None) -> bool:
    """``--color``/``--no-color`` if given; else colour only on a terminal without NO_COLOR."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR", ""):
        return False
    return sys.stdout.isatty()


def play_to_end(state) -> list[str]:
    """Play uniformly random legal actions to the end; returns the turns as P-12 strings.

    A dead-card exchange and the play after it form one turn (``"~5S 9H@i3"``).
    The choices come from the state's own bit generator, so a seed fixes the game.
    """
    played = []
    while not state.is_terminal():
        action = state.random_action()
        past = state.counter_past_limit(action)
        if past:
            raise CliError(f"random play stopped at turn {state.turn}: {past}")
        played.append(state.action_to_move(action))
        state.apply(action)
    return join_turns(played)


def _new_rules(variant: str, players: int | None, teams: int | None):
    if players is None and Variant.parse(variant).options().get("players") is None:
        players = 2  # a variant that seats no one is shown with 2 players
    return rules_for(variant, players, teams)


SHOW_EPILOG = """\b
Examples:
  seqsolve show game.sqn                 draw a position file
  seqsolve show --example 2              a bundled example (RULES.md §5.5)
  seqsolve show --example 2 --json       fields, legal_moves and sequences as JSON
  seqsolve show --new --seed 1           a freshly dealt classic 2-player game
  seqsolve show --new --variant seed000 --players 4 --seed 7 --viewer 0
  seqsolve show --new --seed 1 --play-random    play that deal to the end at random
  cat game.sqn | seqsolve show -
"""


@click.command(epilog=SHOW_EPILOG)
@click.argument("file", required=False)
@click.option(
    "--example", type=click.Choice(EXAMPLES), help="Show a bundled example position instead of FILE."
)
@click.option("--new", "new", is_flag=True, help="Deal a new game instead of reading FILE.")
@variant_option("With --new: preset and overrides, e.g. 'classic[sequences_to_win=3]'.")
@players_option("With --new: number of players [default: 2].", default=None)
@teams_option("With --new: number of sides when it is not implied.")
@seed_option("the deal, the random play and hidden cards")
@click.option("--play-random", is_flag=True, help="Play uniformly random moves to the end of the game.")
@click.option("--viewer", type=int, help="Show only what this seat may see (other hands hidden).")
@json_option("the position as JSON (with legal_moves)")
@click.option(
    "--color/--no-color", default=None, help="Force ANSI colours on or off (default: on a terminal)."
)
def show(file, example, new, variant, players, teams, seed, play_random, viewer, as_json, color) -> None:
    """Draw a position: board, sequences, hands, discards, draw pile, whose turn.

    The position comes from FILE, from --example N, or from --new (a seeded deal).
    With --play-random the game is played on to its end by uniformly random legal
    moves; unseen cards of a position file are first dealt at random, as the side
    to move could imagine them.
    """
    sources = [s for s in (file is not None, example is not None, new) if s]
    if len(sources) != 1:
        raise click.UsageError("give exactly one of FILE, --example N or --new")
    if not new and (variant or players or teams):
        raise click.UsageError("--variant, --players and --teams go with --new")
    notes = []
    played = None
    if new or play_random:
        seed = fresh_seed() if seed is None else seed
    if new:
        from ..games.sequence.state import State

        rules = _new_rules(variant or "classic", players, teams)
        state = State.new(rules, seed=seed)
        notes.append(f"dealt      {rules.variant}, seed {seed}")
    else:
        pos = load_position(file) if file is not None else _example(example)
        state = _state(pos, seed=seed)
    if viewer is not None and not 0 <= viewer < state.rules.players:
        raise click.BadParameter(
            f"seat {viewer} does not exist (0..{state.rules.players - 1})", param_hint="--viewer"
        )
    outcome = None
    if play_random:
        start = state.turn
        if not new and _has_hidden(state):
            import numpy as np

            if state.is_terminal():
                raise CliError("the game is already over: nothing to play")
            state = state.resample(state.current_player, np.random.default_rng(seed))
            notes.append(f"unseen     cards dealt at random for seat {state.current_player} (seed {seed})")
        played = play_to_end(state)
        outcome = state.outcome()
        notes.append(
            f"random     {len(played)} turns from turn {start} (seed {seed}),"
            f" ended by {outcome.termination.name.lower().replace('_', ' ')}"
        )
    pos = state.to_position(viewer)
    if as_json:
        extra = {}
        if new or play_random:
            extra["seed"] = seed
        if played is not None:
            extra["played"] = played
            extra["termination"] = outcome.termination.name.lower()
        click.echo(position_json(pos, **extra), nl=False)
        return
    from ..games.sequence.render import render_position

    text = render_position(pos, legal_strings(pos), color=_use_color(color), notes=notes)
    if played:
        wrapped = textwrap.fill(
            " ".join(f"{i}.{t.replace(' ', '_')}" for i, t in enumerate(played, 1)),
            width=100,
            initial_indent="moves      ",
            subsequent_indent="           ",
        )
        text += wrapped.replace("_", " ") + "\n"
    text += f"sqn        {to_sqn(pos)}\n"
    click.echo(text, nl=False, color=_use_color(color))


def _has_hidden(state) -> bool:
    pos = state.to_position()
    return any(h.unknown for h in pos.hands) or (pos.draw_cards is None and pos.draw_count > 0)


APPLY_EPILOG = """\b
Examples:
  seqsolve apply example:2 AH@f2                 green plays AH on f2 in example 2
  seqsolve apply example:3 9H@i3 --to readable   finish seat 2's turn (it already exchanged)
  seqsolve apply game.sqn "~5S 9H@i3" JSxe5      two turns; an exchange and its play are one argument
  seqsolve apply game.sqn ~5S                    stop mid-turn: the result is an 'Nx' position (P-16)
"""


@click.command(epilog=APPLY_EPILOG)
@click.argument("file")
@click.argument("moves", nargs=-1, required=True)
@click.option("--to", type=click.Choice(FORMATS), default="sqn", show_default=True, help="Output format.")
def apply(file, moves, to) -> None:
    """Play whole turns (P-12 notation) on the position in FILE and print the result.

    Each MOVE argument is one whole turn: an optional dead-card exchange and
    then the play, e.g. "~5S 9H@i3" (quote it), 5H@e5, JSxe5 or pass.  An
    illegal move stops everything: one line names the move number, the move and
    the reason, and nothing is printed on stdout.  A draw from reshuffled discards
    is unknown, '?' (RULES.md P-17): nobody knows the new order of the pile.
    """
    from ..games.sequence.actions import IllegalMoveError

    state = _state(load_position(file)).without_shuffles()
    for number, text in enumerate(moves, 1):
        try:
            actions = parse_turn(text)
        except MoveSyntaxError as exc:
            raise CliError(f"move {number} {text!r}: {exc}") from None
        for action in actions:
            try:
                state.apply(action)
            except IllegalMoveError as exc:
                reason = str(exc)
                if len(actions) == 1 and reason.startswith(f"{action}: "):
                    reason = reason[len(f"{action}: ") :]
                unknown = state.hand(state.current_player).count("?") if not state.is_terminal() else 0
                if unknown:
                    reason += f" (this position does not show {unknown} of the mover's cards)"
                raise CliError(f"move {number} {text!r} is illegal: {reason}") from None
    click.echo(format_position(state.to_position(), to), nl=False)


CONVERT_EPILOG = """\b
Examples:
  seqsolve convert example:3 --to readable       SQN to the readable form
  seqsolve convert game.txt --to sqn             readable form to canonical SQN
  seqsolve convert - --to json < game.sqn        JSON (as show --json)
"""


@click.command(epilog=CONVERT_EPILOG)
@click.argument("file")
@click.option("--to", type=click.Choice(FORMATS), default="sqn", show_default=True, help="Output format.")
def convert(file, to) -> None:
    """Rewrite the position in FILE in canonical SQN, readable or JSON form.

    Both position forms convert into each other without loss (comments aside).
    """
    click.echo(format_position(load_position(file), to), nl=False)


PERFT_EPILOG = """\b
Examples:
  seqsolve perft example:4 --depth 3             leaves of the action tree 3 actions deep
  seqsolve perft example:4 --depth 2 --divide    the count below each first action
  seqsolve perft game.sqn --depth 3 --json
Every hand and the draw pile must be listed (a perfect-information position).
An exchange is an action of its own; an action that ends the game is one leaf.
"""


@click.command(epilog=PERFT_EPILOG)
@click.argument("file")
@click.option("--depth", type=click.IntRange(0, MAX_DEPTH), required=True, help=f"Actions deep (at most {MAX_DEPTH}).")
@click.option("--divide", is_flag=True, help="List the count below each legal first action.")
@json_option("the counts as JSON")
@seed_option("any reshuffle inside the tree", fixed=True)
@progress_option("A line when the count starts")
def perft(file, depth, divide, as_json, seed, progress) -> None:
    """Count the leaves of the action tree of the position in FILE (as chess perft)."""
    import time

    pos = load_position(file)
    hidden = [f"hand {s} holds {h.unknown} unknown" for s, h in enumerate(pos.hands) if h.unknown]
    if pos.draw_cards is None and pos.draw_count:
        hidden.append(f"the draw pile's {pos.draw_count} cards are not listed")
    if hidden:
        name = "<stdin>" if file == "-" else file
        raise CliError(f"{name}: perft needs every card known, but {'; '.join(hidden)}")
    state = _state(pos, seed=seed)
    if progress_enabled(progress):
        click.echo(f"counting the leaves {depth} actions deep (Ctrl-C stops) ...", err=True)
    start = time.perf_counter()
    parts: dict[str, int] = {}
    if divide and depth > 0 and not state.is_terminal():
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            parts[str(state.action_to_move(action))] = 1 if child.is_terminal() else child.perft(depth - 1)
        total = sum(parts.values())
    else:
        total = state.perft(depth)
    seconds = time.perf_counter() - start
    if as_json:
        data = {"depth": depth, "nodes": total, "seconds": seconds}
        if divide:
            data["divide"] = parts
        click.echo(json.dumps(data, indent=2))
        return
    if not divide:
        click.echo(str(total))
        return
    width = max((len(m) for m in parts), default=0)
    lines = [f"{m:<{width}}  {n}" for m, n in parts.items()]
    lines += ["", f"{len(parts)} actions, {total} leaves at depth {depth}"]
    click.echo("\n".join(lines))


BENCH_EPILOG = """\b
Examples:
  seqsolve bench                          the standard workload (a few seconds)
  seqsolve bench --json > bench.json      figures for scripts
  seqsolve bench --games 1000 --seed 3    a quick, smaller run
benchmarks/bench.py compares these figures with the plain-Python reference.
"""


@click.command(epilog=BENCH_EPILOG)
@click.option(
    "--games", type=GAMES, default=None, help=f"Random games to play (1..{MAX_GAMES}) [default: 100000]."
)
@seed_option("the deals and the scan position", fixed=True)
@click.option(
    "--scans", type=click.IntRange(1, 2 * MAX_GAMES), default=None, help="Repeats of the scan loop [default: 2 x games]."
)
@json_option("the figures as JSON")
def bench(games, seed, scans, as_json) -> None:
    """Time the compiled core on one CPU core: random playouts, sequence scans, bot games.

    The workload is fixed and seeded: classic rules, 2 players, uniformly random
    games from fresh deals (games/s, plies/s), then full and through-one-cell
    sequence scans of a mid-game position (scans/s), then greedy and heuristic
    self-play as a match plays it (games/s, µs per decision; one game per 50 and
    per 500 random games).  Progress goes to stderr.
    """
    from ..benchmark import DEFAULT_GAMES, format_table, run_benchmark

    result = run_benchmark(
        games if games is not None else DEFAULT_GAMES,
        seed=seed,
        scan_repeats=scans,
        log=lambda line: click.echo(line, err=True),
    )
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(format_table(result), nl=False)


COMMANDS = [show, apply, convert, perft, bench]
