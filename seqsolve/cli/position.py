"""The commands on one position: show, apply, convert, perft; and bench, which
times the engine on positions of its own.

Positions are read, written and drawn by the game their variant names (the registry
of :mod:`seqsolve.games`), played through its :class:`~seqsolve.games.base.GameState`,
and timed by :mod:`seqsolve.benchmark`.

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

from ..games import game_for, read_state, rules_for
from ..games.base import GameState, IllegalMoveError, MoveSyntaxError, whole_turns
from ..games.files import read_stream_text, read_text
from .errors import CliError
from .options import (
    FILE_PATH,
    GAMES,
    MAX_GAMES,
    fresh_seed,
    json_option,
    progress_option,
    seating_options,
    seed_option,
    variant_option,
)
from .pictures import check_picture, draw_picture, picture_options, read_arrows
from .progress import progress_enabled

#: the forms --to writes: a one-line form (classic's SQN, Stacks' STN: either name gives
#: the one-line form of the position's own game), readable, JSON
FORMATS = ("sqn", "stn", "readable", "json")
#: perft deeper than this would not finish (the tree grows ~100x per action)
MAX_DEPTH = 12


def _example_names() -> list[str]:
    data = resources.files("seqsolve").joinpath("data")
    names = [p.name[len("example") : -len(".sqn")] for p in data.iterdir() if p.name.startswith("example")]
    return sorted((n for n in names if n.isdigit()), key=int)


EXAMPLES = _example_names()


# ---------------------------------------------------------------------------
# helpers shared by the commands


def load_position(source: str, seed=None) -> GameState:
    """Read ``source``, a path, ``-`` (standard input) or ``example:N`` (bundled), as a
    state of the game its variant names (``seed``: see :meth:`~seqsolve.games.base.Game.read_position`).

    Raises:
        PositionError: the text is not a valid position (or the file is unreadable).
        CliError: an unknown example name.
    """
    if source == "-":
        return read_state(read_stream_text(sys.stdin, "<stdin>"), "<stdin>", seed)
    if source.startswith("example:"):
        return _example(source.split(":", 1)[1], seed)
    return read_state(read_text(source), source, seed)


def _example(name: str, seed=None) -> GameState:
    if name not in EXAMPLES:
        raise CliError(f"unknown example {name!r} (bundled: {', '.join(EXAMPLES)})")
    text = resources.files("seqsolve").joinpath("data", f"example{name}.sqn").read_text(encoding="utf-8")
    return read_state(text, f"example:{name}", seed)


def _game(state: GameState):
    return game_for(str(state.rules.variant))


def legal_strings(state: GameState) -> list[str]:
    """The legal moves of the side to move in its game's notation (none when the game is
    over or the mover's hand is not all known)."""
    if state.is_terminal() or "?" in state.hand(state.current_player):
        return []
    return [state.action_to_string(a) for a in state.legal_actions()]


def position_json(state: GameState, viewer: int | None = None, **extra) -> str:
    """The position's JSON fields (as ``viewer`` sees it, if given), then ``legal_moves``
    and the game's own facts (Sequence: ``sequences``), as JSON text."""
    game = _game(state)
    view = state if viewer is None else state.observation(viewer)
    data = json.loads(game.write_position(state, viewer, "json"))
    data["legal_moves"] = legal_strings(view)
    data.update(game.position_facts(view))
    data.update(extra)
    return json.dumps(data, indent=2) + "\n"


def format_position(state: GameState, to: str) -> str:
    """The whole text of ``state`` in one of :data:`FORMATS`, ending with a newline."""
    if to == "json":
        return position_json(state)
    return _game(state).write_position(state, form=to).rstrip("\n") + "\n"


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
        try:
            action = state.random_action()
        except IllegalMoveError as exc:
            raise CliError(f"random play stopped at turn {state.turn}: {exc}") from None
        played.append((state.action_to_string(action), state.ends_turn(action)))
        state.apply_legal(action)
    return whole_turns(played)


def _new_rules(variant: str, players: int | None, teams: int | None):
    if players is None and game_for(variant).parse_variant(variant).options().get("players") is None:
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
  seqsolve show game.sqn --to svg --out game.svg            the board as a picture
  seqsolve analyze game.sqn --top 3 --json > best.json
  seqsolve show game.sqn --to png --out game.png --arrows best.json   its best turns marked
"""


@click.command(epilog=SHOW_EPILOG)
@click.argument("file", required=False)
@click.option(
    "--example", type=click.Choice(EXAMPLES), help="Show a bundled example position instead of FILE."
)
@click.option("--new", "new", is_flag=True, help="Deal a new game instead of reading FILE.")
@variant_option("With --new: preset and overrides, e.g. 'classic[sequences_to_win=3]'.")
@seating_options(
    "With --new: number of players [default: 2].",
    "With --new: number of sides when it is not implied.",
    default=None,
)
@seed_option("the deal, the random play and hidden cards")
@click.option("--play-random", is_flag=True, help="Play uniformly random moves to the end of the game.")
@click.option("--viewer", type=int, help="Show only what this seat may see (other hands hidden).")
@json_option("the position as JSON (with legal_moves)")
@click.option(
    "--color/--no-color", default=None, help="Force ANSI colours on or off (default: on a terminal)."
)
@picture_options("the position (board, chips, sequences, coordinates)")
@click.option(
    "--arrows",
    type=FILE_PATH,
    default=None,
    help="With --to: mark the turns of this 'seqsolve analyze --json' output with their win chances.",
)
def show(
    file,
    example,
    new,
    variant,
    players,
    teams,
    seed,
    play_random,
    viewer,
    as_json,
    color,
    picture,
    out,
    arrows,
) -> None:
    """Draw a position: board, sequences, hands, discards, draw pile, whose turn.

    The position comes from FILE, from --example N, or from --new (a seeded deal).
    --to svg (or png, into --out) draws it as a picture, with the turns of an
    analysis (--arrows, the output of analyze --json) marked by their win chances.
    With --play-random the game is played on to its end by uniformly random legal
    moves; unseen cards of a position file are first dealt at random, as the side
    to move could imagine them.
    """
    sources = [s for s in (file is not None, example is not None, new) if s]
    if len(sources) != 1:
        raise click.UsageError("give exactly one of FILE, --example N or --new")
    if not new and (variant or players or teams):
        raise click.UsageError("--variant, --players and --teams go with --new")
    if arrows is not None and picture is None:
        raise click.UsageError("--arrows goes with --to svg or --to png")
    check_picture(picture, out, as_json)
    notes = []
    played = None
    if new or play_random:
        seed = fresh_seed() if seed is None else seed
    if new:
        rules = _new_rules(variant or "classic", players, teams)
        state = _game_of(rules).new_initial_state(rules, seed=seed)
        notes.append(f"dealt      {rules.variant}, seed {seed}")
    else:
        state = load_position(file, seed) if file is not None else _example(example, seed)
    if viewer is not None and not 0 <= viewer < state.rules.players:
        raise click.BadParameter(
            f"seat {viewer} does not exist (0..{state.rules.players - 1})", param_hint="--viewer"
        )
    outcome = None
    if play_random:
        start = state.turn
        if not new and state.has_hidden_cards():
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
    if picture is not None:
        marks = read_arrows(arrows, state) if arrows is not None else None
        draw_picture(state, picture, out, viewer, marks)
        return
    if as_json:
        extra = {}
        if new or play_random:
            extra["seed"] = seed
        if played is not None:
            extra["played"] = played
            extra["termination"] = outcome.termination.name.lower()
        click.echo(position_json(state, viewer, **extra), nl=False)
        return
    game = _game(state)
    legal = legal_strings(state if viewer is None else state.observation(viewer))
    text = game.render(state, viewer, legal, color=_use_color(color), notes=notes)
    if played:
        wrapped = textwrap.fill(
            " ".join(f"{i}.{t.replace(' ', '_')}" for i, t in enumerate(played, 1)),
            width=100,
            initial_indent="moves      ",
            subsequent_indent="           ",
        )
        text += wrapped.replace("_", " ") + "\n"
    text += f"{game.position_forms[0]:<11}{game.write_position(state, viewer)}\n"
    click.echo(text, nl=False, color=_use_color(color))


def _game_of(rules):
    return game_for(str(rules.variant))


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
    state = load_position(file)  # read without a seed: a draw after a reshuffle is unknown
    for number, text in enumerate(moves, 1):
        try:
            state.play_turn(text)
        except MoveSyntaxError as exc:
            raise CliError(f"move {number} {text!r}: {exc}") from None
        except IllegalMoveError as exc:
            reason = str(exc)
            unknown = state.hand(state.current_player).count("?") if not state.is_terminal() else 0
            if unknown:
                reason += f" (this position does not show {unknown} of the mover's cards)"
            raise CliError(f"move {number} {text!r} is illegal: {reason}") from None
    click.echo(format_position(state, to), nl=False)


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
@click.option(
    "--depth", type=click.IntRange(0, MAX_DEPTH), required=True, help=f"Actions deep (at most {MAX_DEPTH})."
)
@click.option("--divide", is_flag=True, help="List the count below each legal first action.")
@json_option("the counts as JSON")
@seed_option("any reshuffle inside the tree", fixed=True)
@progress_option("A line when the count starts")
def perft(file, depth, divide, as_json, seed, progress) -> None:
    """Count the leaves of the action tree of the position in FILE (as chess perft)."""
    import time

    state = load_position(file, seed)
    hidden = state.hidden_cards()
    if hidden:
        name = "<stdin>" if file == "-" else file
        raise CliError(f"{name}: perft needs every card known, but {'; '.join(hidden)}")
    if progress_enabled(progress):
        click.echo(f"counting the leaves {depth} actions deep (Ctrl-C stops) ...", err=True)
    start = time.perf_counter()
    parts: dict[str, int] = {}
    if divide and depth > 0 and not state.is_terminal():
        for action in state.legal_actions():
            child = state.clone()
            child.apply_legal(action)
            parts[state.action_to_string(action)] = 1 if child.is_terminal() else child.perft(depth - 1)
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
    "--scans",
    type=click.IntRange(1, 2 * MAX_GAMES),
    default=None,
    help="Repeats of the scan loop [default: 2 x games].",
)
@json_option("the figures as JSON")
def bench(games, seed, scans, as_json) -> None:
    """Time the compiled core on one CPU core: random playouts, sequence scans, bot games.

    The workload is fixed and seeded: classic rules, 2 players, uniformly random
    games from fresh deals (games/s, plies/s), then full and through-one-cell
    sequence scans of a mid-game position (scans/s), then greedy and heuristic
    self-play as a match plays it (games/s, µs per decision; one game per 10 and
    per 25 random games), then random 2-player Sequence Stacks games (one per 10),
    games/s next to classic's.  Progress goes to stderr.
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
