"""What each request of ``seqsolve serve`` does: one function per page action, a checked
JSON object in, a JSON-ready answer out, no state kept between calls.

The game lives in the page: every request carries the game as its record holds it (the
variant and seating, the seed, who holds each seat, the moves), and the answer carries
it back with whatever the bots then played.  A request replays the game from its
record (:class:`~seqsolve.play.table.Table`, the same table ``seqsolve play`` sits
at), so a reload, a second tab or a restarted server continue exactly where the page
was.  The bot of a seat draws from a stream keyed by the seed, the seat and the ply it
decides (:func:`bot_rng`), so the same page asks the same bots the same question and
gets the same reply, whichever request makes it.

Every input error (a bad variant, position, move, record or bot) is a
:class:`~seqsolve.serve.checks.RequestError`, the one line the page shows.  Nothing here
writes a file except :func:`save`, through :mod:`seqsolve.play.records.outputs`.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass

from ..games import game_for, read_state, rules_for
from ..games.base import NotSupported
from .checks import MAX_MOVES, RequestError, check_bot, field, iterations, whole

#: the iterations of a hint, an analysis and each annotated decision when the page gives none
HINT_ITERATIONS = 2_000
ANNOTATE_ITERATIONS = 300
#: turns an analysis draws on the board
SHOWN_TURNS = 3
#: the largest seed, as ``--seed`` takes it
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Limits:
    """What the server allows a request: ``max_seconds`` of search (a hint, an analysis,
    an annotation; and each bot's time budget), and the folder saves go to (None: none)."""

    max_seconds: float = 5.0
    save_dir: str | None = None


def _refused(exc: BaseException) -> RequestError:
    """An error of the game, the records or the bots as the page's one line (a file that
    could not be read names no line; a system error names its file)."""
    from ..games.base import PositionError

    if isinstance(exc, PositionError) and exc.line == 0:
        text = f"{exc.source}: {exc.message}"
    elif isinstance(exc, OSError) and exc.filename is not None:
        text = f"{os.path.basename(str(exc.filename))}: {exc.strerror or exc}"
    else:
        text = str(exc)
    return RequestError(" ".join(text.split()))


def win_label(win: float | None) -> str:
    """An analysis' win estimate as a mark's label (as ``analyze --to svg`` writes it).

    >>> win_label(0.6149), win_label(None)
    ('61%', '?')
    """
    return "?" if win is None else f"{100 * win:.0f}%"


# ---------------------------------------------------------------- a game at the table


def new_game(body: dict, limits: Limits) -> dict:
    """A new game: ``variant`` (default classic), ``players``, ``teams``, ``seed``
    (default a fresh one), ``seat`` (the person's, default 0) and ``bot`` (every other
    seat's, default the game's); the bots play up to the person's first turn."""
    variant = field(body, "variant", str, "classic").strip() or "classic"
    players = whole(body, "players", None, 1, 12)
    teams = whole(body, "teams", None, 1, 12)
    seed = whole(body, "seed", None, 0, MAX_SEED)
    seed = secrets.randbelow(2**31) if seed is None else seed  # as a command's fresh --seed
    try:
        if players is None and game_for(variant).parse_variant(variant).options().get("players") is None:
            players = 2
        rules = rules_for(variant, players, teams)
    except ValueError as exc:
        raise _refused(exc) from None
    seat = whole(body, "seat", 0, 0, rules.players - 1)
    game = game_for(str(rules.variant))
    bot = check_bot(field(body, "bot", str, game.default_bot), game, limits.max_seconds)
    from ..play.table import HUMAN

    seats = [HUMAN if s == seat else bot for s in range(rules.players)]
    page = {
        "variant": str(rules.variant),
        "players": rules.players,
        "teams": rules.teams,
        "seed": seed,
        "seats": seats,
        "moves": [],
    }
    return _answer(_table(page, limits))


def play(body: dict, limits: Limits) -> dict:
    """The person's ``move`` (a decision, or a whole turn, in the game's notation) in the
    ``game``, then the bots' replies; without a move, only the bots' (a page opened on
    a game whose next turn is a bot's)."""
    table = _table(field(body, "game", dict, required=True), limits)
    move = field(body, "move", str)
    if move is not None:
        if table.over:
            raise RequestError("the game is over: there is no move to make")
        if table.human_to_move() is None:
            raise RequestError("it is a bot's turn, not yours")
        try:
            actions = table.read_move(move)
        except ValueError as exc:
            raise RequestError(f"not played: {_refused(exc)}") from None
        for action in actions:
            table.play(action)
    return _answer(table)


def undo(body: dict, limits: Limits) -> dict:
    """The ``game`` with the person's last turn and the bots' replies after it taken back."""
    table = _table(field(body, "game", dict, required=True), limits)
    if not table.undo():
        raise RequestError("nothing to undo: you have not played yet")
    return _answer(table, bots=False)


def hint(body: dict, limits: Limits) -> dict:
    """The analysis' best turns for the person to move in ``game``, drawn on the board:
    ``iterations`` (default :data:`HINT_ITERATIONS`) within the server's time cap."""
    table = _table(field(body, "game", dict, required=True), limits)
    seat = table.human_to_move()
    if seat is None:
        raise RequestError("no hint: it is not your turn" if not table.over else "no hint: the game is over")
    found = _analysis(
        table.state.observation(seat),
        iterations(body, HINT_ITERATIONS),
        limits,
        table.record["seed"],
        ("hint", len(table.record["moves"])),
    )
    return {**_answer(table, marks=found["marks"], bots=False), "analysis": found}


def save(body: dict, limits: Limits) -> dict:
    """Write the ``game``'s record as the file ``name`` (a plain ``.jsonl`` name) in the
    server's save folder; a file that exists is left alone."""
    from ..play.records import check_output_file, write_text

    if limits.save_dir is None:
        raise RequestError("this server saves no files (start it with --save-dir DIR); download the record")
    table = _table(field(body, "game", dict, required=True), limits)
    name = field(body, "name", str, required=True).strip()
    if (
        not name
        or name != os.path.basename(name)
        or name.startswith(".")
        or "\\" in name
        or not name.isprintable()  # a NUL, a tab, a newline: no name a person typed
    ):
        raise RequestError(f"{name!r} is not a plain file name (no folder, not hidden, no control character)")
    if not name.endswith(".jsonl"):
        raise RequestError(f"{name}: a record file's name ends in .jsonl")
    path = os.path.join(limits.save_dir, name)
    if os.path.lexists(path):
        raise RequestError(f"{name} exists: choose another name")
    try:
        check_output_file(path, "save")
        write_text(path, table.record_text())
    except (ValueError, OSError) as exc:
        raise _refused(exc) from None
    return {"saved": name, "path": os.path.abspath(path)}


def _table(page: dict, limits: Limits):
    """The table of the game a page sends, replayed from its moves; its bots checked as a
    page's bots are (:func:`~seqsolve.serve.checks.check_bot`) and never a program."""
    from ..play.table import HUMAN, Table, table_record

    variant = field(page, "variant", str, required=True)
    players = whole(page, "players", None, 1, 12)
    teams = whole(page, "teams", None, 1, 12)
    seed = whole(page, "seed", None, 0, MAX_SEED)
    if seed is None:
        raise RequestError("the game has no 'seed'")
    try:
        rules = rules_for(variant, players, teams)
    except ValueError as exc:
        raise _refused(exc) from None
    game = game_for(str(rules.variant))
    seats = _strings(page, "seats", rules.players)
    if len(seats) != rules.players:
        raise RequestError(f"'seats' names {len(seats)} players for {rules.players} seats")
    if HUMAN not in seats:
        raise RequestError(f"no seat of the game is yours ({HUMAN!r}): nobody to play it")
    seats = [s if s == HUMAN else check_bot(s, game, limits.max_seconds) for s in seats]
    moves = _strings(page, "moves", MAX_MOVES)
    record = table_record(rules, seed, seats, moves)
    start = field(page, "start", str)
    if start is not None:
        record["start"] = start
    try:
        return Table(record, "the game", programs=False)
    except ValueError as exc:
        raise _refused(exc) from None


def _strings(body: dict, name: str, most: int) -> list[str]:
    items = field(body, name, list, [])
    if len(items) > most:
        raise RequestError(f"{name!r} holds more than {most} entries")
    for k, item in enumerate(items):
        if not isinstance(item, str) or len(item) > 200:
            raise RequestError(f"{name!r} entry {k + 1} is not a short text")
    return list(items)


def bot_rng(seed: int, ply: int, seat: int):
    """The generator the bot of ``seat`` decides the action number ``ply`` (from 1) with:
    the same for the same game whichever request asks."""
    import numpy as np

    from ..play.seeds import stream_seed

    return np.random.default_rng(stream_seed(seed, ("play", "serve", ply, seat)))


def _bots_play(table) -> list[str]:
    """Let the bots decide until a person is to move or the game ends; what they played."""
    from ..bots import BotFailure

    played = []
    while not table.over and table.human_to_move() is None:
        seat = table.state.current_player
        table.rngs[seat] = bot_rng(table.record["seed"], len(table.record["moves"]) + 1, seat)
        try:
            played.append(table.bot_move())
        except BotFailure as exc:
            raise RequestError(f"seat {seat}'s bot failed: {exc}") from None
    return played


def _answer(table, marks: list[dict] | None = None, bots: bool = True) -> dict:
    """The page's view of the table after the bots (``bots``) have played: the game to
    keep, its record, the position as the person's seat sees it, and their moves."""
    from ..play.records import result_text

    try:
        last = _bots_play(table) if bots else []
        state = table.state
        seat = table.human_to_move()
        viewer = seat if seat is not None else table.humans[0]
        page = {k: table.record[k] for k in ("variant", "players", "teams", "seed", "seats", "moves")}
        if "start" in table.record:
            page["start"] = table.record["start"]
        return {
            "game": page,
            "record": table.record_text(),
            "over": table.over,
            "result": result_text(table.game_record(), state.seats) if table.over else None,
            "turns": table.turns,
            "seat": viewer,
            "your_turn": seat is not None,
            "bots_played": last,
            **position_view(state, viewer, marks if seat is not None else None, last, legal=seat is not None),
        }
    finally:
        table.close()


# ---------------------------------------------------------------- pictures and moves


def position_view(state, viewer: int | None, marks=None, last=(), legal: bool = True) -> dict:
    """What the page draws of ``state`` as ``viewer`` (None: every card) sees it: the
    picture (None where the game draws none, with why), the text view, the hand of the
    seat to move and its legal moves with the card and cell each plays."""
    game = game_for(str(state.rules.variant))
    try:
        picture, why = game.picture(state, viewer, marks or None), None
    except NotSupported as exc:
        picture, why = None, str(exc)
    except ValueError as exc:  # a mark that is not a turn of the game
        raise _refused(exc) from None
    try:
        text = game.render(state, viewer, None, False, [], list(last))
    except NotSupported as exc:
        text = str(exc)
    mover = None if state.is_terminal() else state.current_player
    view = {
        "picture": picture,
        "no_picture": why,
        "text": text,
        "to_move": mover,
        "side": None if mover is None else game.side_name(state.seats[mover]),
        "hand": [] if mover is None else state.hand(mover),
        "legal": [],
    }
    if legal and mover is not None and (viewer is None or viewer == mover) and "?" not in state.hand(mover):
        view["legal"] = _targets(
            game, state, [state.action_to_string(a) for a in state.legal_actions()], viewer
        )
    return view


def _targets(game, state, moves: list[str], viewer: int | None) -> list[dict]:
    """The legal ``moves`` with the card each plays and the element of the picture it
    lands on, for clicking: Sequence's ``move_target`` (the cell, by its name) or
    Sequence Stacks' ``move_targets`` (a pile, a colour's start slot, a discard pile,
    a seat's chips, by the names of :func:`seqsolve.games.stacks.picture.place_name`);
    None where a move lands nowhere (a pass, an exchange): the page lists it instead."""
    if hasattr(game, "move_targets"):
        found = game.move_targets(state, moves, viewer)
    elif hasattr(game, "move_target"):
        found = [game.move_target(text) for text in moves]
    else:
        found = [{}] * len(moves)
    return [{"move": text, "card": f.get("card"), "cell": f.get("cell")} for text, f in zip(moves, found)]


def _analysis(view, its: int, limits: Limits, seed: int, stream: tuple) -> dict:
    """The analysis of the turn to play in ``view``, at most ``its`` iterations and the
    server's seconds: its best turns as marks and as rows."""
    from ..analysis.search import analyze

    try:
        result = analyze(
            view,
            iterations=its,
            seconds=limits.max_seconds,
            seed=seed,
            stream=stream,
            threats=False,
            prove=0,
            depends=0,
        )
    except ValueError as exc:
        raise _refused(exc) from None
    rows = [{"move": m.move, "win": m.win, "visits": m.visits} for m in result.moves[:SHOWN_TURNS]]
    return {
        "moves": rows,
        "marks": [{"move": r["move"], "label": win_label(r["win"])} for r in rows],
        "iterations": result.iterations,
        "seconds": round(result.seconds, 3),
        "search": result.search,
    }


# ---------------------------------------------------------------- records and positions


def _record_game(body: dict) -> tuple[dict, str]:
    """The game ``game`` (a game number; default the first) of the record ``text``."""
    from ..play.records import games_by_number, scan_bytes

    text = field(body, "text", str, required=True)
    where = "the record"
    try:
        found = scan_bytes(where, text.encode("utf-8"))
    except ValueError as exc:
        raise _refused(exc) from None
    if not found.games:
        raise RequestError(f"{where}: it holds no game (line 2 on are the games)")
    numbers = games_by_number(found.games)
    number = whole(body, "game", found.games[0][1]["game"], 0, 10**9)
    if number not in numbers:
        shown = ", ".join(str(n) for n in sorted(numbers)[:10])
        raise RequestError(
            f"{where} has no game {number} (it has {shown}{', ...' if len(numbers) > 10 else ''})"
        )
    line = next(n for n, r in found.games if r["game"] == number)
    return numbers[number], f"{where}:{line}"


def review(body: dict, limits: Limits) -> dict:
    """The position after ``ply`` actions (default 0) of a game of a record, every card
    shown, with ``marks`` (``[{"move", "label"}]``: the page's annotation) drawn, and
    the game's moves."""
    from ..play.records import Replay, result_text

    record, where = _record_game(body)
    ply = whole(body, "ply", 0, 0, len(record["moves"]))
    marks = _marks(body)
    seats = []
    try:
        replay = Replay(record, where)
        at = replay.state.clone() if ply == 0 else None
        for step in replay:
            seats.append(step.seat)
            if step.ply == ply + 1:
                at = replay.state.clone()
    except ValueError as exc:
        raise _refused(exc) from None
    if at is None:
        at = replay.state
    view = position_view(at, None, marks, legal=False)
    return {
        "game": record["game"],
        "variant": record["variant"],
        "seats": record["seats"],
        "result": result_text(record, replay.state.seats),
        "moves": [
            {"ply": k, "move": m, "seat": s} for k, (m, s) in enumerate(zip(record["moves"], seats), 1)
        ],
        "ply": ply,
        "plies": len(record["moves"]),
        **view,
    }


def _marks(body: dict) -> list[dict]:
    marks = field(body, "marks", list, [])
    if len(marks) > 20:
        raise RequestError("'marks' holds more than 20 turns")
    out = []
    for k, mark in enumerate(marks, 1):
        if not isinstance(mark, dict):
            raise RequestError(f"mark {k} is not an object with a 'move'")
        move = field(mark, "move", str, required=True)
        label = field(mark, "label", str, "")
        if len(move) > 200 or len(label) > 20:
            raise RequestError(f"mark {k} is too long")
        out.append({"move": move, "label": label})
    return out


def annotate(body: dict, limits: Limits) -> dict:
    """Every decision of a game of a record analysed (``iterations`` each, default
    :data:`ANNOTATE_ITERATIONS`; the whole within the server's seconds), its mistakes
    and blunders marked with the better turn."""
    from ..analysis.annotate import annotate_record

    record, where = _record_game(body)
    its = iterations(body, ANNOTATE_ITERATIONS)
    per = limits.max_seconds / max(1, len(record["moves"]))
    try:
        found = annotate_record(record, iterations=its, seconds=per, seed=record["seed"], where=where)
    except ValueError as exc:
        raise _refused(exc) from None
    keys = ("ply", "turn", "seat", "played", "best", "win_played", "win_best", "drop", "mark")
    return {
        "game": found["game"],
        "decisions": [{k: d[k] for k in keys} for d in found["decisions"]],
        "summary": found["summary"],
        "iterations": its,
    }


def analyze_position(body: dict, limits: Limits) -> dict:
    """A position (``position``: a position file's text, either game, either form) after
    the turns ``moves`` are tried on it, drawn with the analysis' best turns."""
    from ..analysis.spec import check_analyzable

    text = field(body, "position", str, required=True)
    moves = _strings(body, "moves", MAX_MOVES)
    try:
        state = read_state(text, "the position")
    except ValueError as exc:
        raise _refused(exc) from None
    for k, move in enumerate(moves, 1):
        if state.is_terminal():
            raise RequestError(f"move {k} {move!r}: the game is already over")
        try:
            state.play_turn(move)
        except ValueError as exc:
            raise RequestError(f"move {k} {move!r}: {_refused(exc)}") from None
    game = game_for(str(state.rules.variant))
    found, why = None, None
    try:
        check_analyzable(state)
    except ValueError as exc:
        why = str(exc)
    else:
        found = _analysis(state, iterations(body, HINT_ITERATIONS), limits, 0, ("serve", len(moves)))
    view = position_view(state, None, found["marks"] if found else None)
    return {
        **view,
        "analysis": found,
        "no_analysis": why,
        "moves": moves,
        "position": game.write_position(state),
        "over": state.is_terminal(),
    }
