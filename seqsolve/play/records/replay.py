"""Replaying a recorded game into a state, action by action, and saying how it ended."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ...games import game_for
from .schema import UNFINISHED, RecordError, check_game


def start_state(record: dict, where: str = "game record"):
    """The state a recorded game started from: its game's deal for its rules and seed,
    or its ``start`` position (whose reshuffles draw from that seed).

    Raises:
        PositionError: a ``start`` that is not a position of the record's rules.
    """
    from ..seeds import deal_seed

    game = game_for(record["variant"])
    rules = game.rules(record["variant"], record["players"], record["teams"])
    seed = deal_seed(record["seed"], record["deal"], record.get("stream", ()))
    if "start" not in record:
        return game.new_initial_state(rules, seed=seed)
    state = game.read_position(record["start"], f"{where} (start)", seed=seed)
    if str(state.rules.variant) != str(rules.variant) or state.rules.players != rules.players:
        raise RecordError(
            f"{where}: the start position is not a game of {rules.variant}, {rules.players} players"
        )
    return state


@dataclass(frozen=True)
class Step:
    """One recorded action about to be replayed: ``ply`` counts actions from 1 (the
    entry of ``moves`` it comes from), ``turn`` the turns completed before it (the
    actions of one turn share it)."""

    ply: int
    text: str
    seat: int
    turn: int
    action: int
    #: seats whose turns this action, ending a turn, makes them skip (Stacks' ST-10)
    skipped: tuple[int, ...] = ()


class Replay:
    """Replays a recorded game: iterate for each action (``state`` is the position
    before it; it is applied when the next step is asked for); ``state`` is the
    final position afterwards.

    Raises (while iterating):
        RecordError: a move that is not legal there, or moves that stop before the
        end of a game that was not forfeited, naming ``where`` (``file:line``).
    """

    def __init__(self, record: dict, where: str = "game record"):
        problem = check_game(record)
        if problem:
            raise RecordError(f"{where}: {problem}")
        self.record, self.where = record, where
        self.state = start_state(record, where)

    def __iter__(self) -> Iterator[Step]:
        state = self.state
        for ply, text in enumerate(self.record["moves"], 1):
            if state.is_terminal():
                raise RecordError(f"{self.where}: move {ply} {text!r}: the game was already over")
            try:
                action = state.string_to_action(text)
            except ValueError as exc:
                raise RecordError(f"{self.where}: move {ply} {text!r} cannot be replayed: {exc}") from None
            skipped = getattr(state, "seats_skipped", None)  # a game with skipped turns says which
            yield Step(
                ply, text, state.current_player, state.turn, action, tuple(skipped(action)) if skipped else ()
            )
            state.apply(action)
        record = self.record
        if not state.is_terminal():
            if record["termination"] not in ("forfeit", UNFINISHED):
                raise RecordError(f"{self.where}: the moves stop before the game is over")
            return
        ending = game_ending(state)
        if any(record[key] != value for key, value in ending.items()):
            moves = result_text({**record, **ending, "forfeit": None}, state.seats)
            raise RecordError(
                f"{self.where}: the record says {result_text(record, state.seats)}, but its moves end {moves}"
            )


def game_ending(state) -> dict:
    """How the finished game ``state`` ended, in a game record's fields: ``result``
    (a side's character or ``draw``), ``winner_side`` (its number or None) and
    ``termination`` (``win``, ``stall``, ...): what its moves decide, whatever a
    record says."""
    outcome = state.outcome()
    side = None if outcome.winner is None else state.sides.index(outcome.winner)
    return {"result": outcome.result, "winner_side": side, "termination": outcome.termination.name.lower()}


#: the line of a skipped turn (ST-10), in place of its actions
SKIPPED = "(skipped)"


def turns(steps) -> list[tuple[int, list[str]]]:
    """The steps of a replay grouped into whole turns: ``(seat, actions)`` each, a
    skipped turn as ``(seat, ["(skipped)"])``: as many as
    :func:`~seqsolve.games.base.turns_played` counts.

    >>> [(seat, texts) for seat, texts in turns([Step(1, "~5S", 0, 0, 1), Step(2, "9H@i3", 0, 0, 2)])]
    [(0, ['~5S', '9H@i3'])]
    """
    out: list[tuple[int, list[str]]] = []
    last = None
    for step in steps:
        if step.turn != last:
            out.append((step.seat, []))
            last = step.turn
        out[-1][1].append(step.text)
        out.extend((seat, [SKIPPED]) for seat in step.skipped)
    return out


def result_text(record: dict, seats: str) -> str:
    """How a recorded game ended, in words: ``green won``, ``draw (stall)``,
    ``blue won: seat 1 (ext:bot) forfeited (no answer)``.  ``seats`` is the
    side of each seat in turn order (``GameState.seats``); the game names the sides."""
    side = record["winner_side"]
    name = game_for(record["variant"]).side_name
    sides = list(dict.fromkeys(seats))
    forfeit = record["forfeit"]
    if record["termination"] == UNFINISHED:
        return "unfinished"
    if record["termination"] == "forfeit" and forfeit:
        who = f"seat {forfeit.get('seat')} ({forfeit.get('bot')}) forfeited ({forfeit.get('reason')})"
        return f"{name(sides[side])} won: {who}" if side is not None else who
    if side is None:
        return f"draw ({record['termination']})"
    why = "" if record["termination"] == "win" else f" ({record['termination']})"
    return f"{name(sides[side])} won{why}"
