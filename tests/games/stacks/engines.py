"""The Stacks engines one rule test runs on, and the helpers that drive them by text.

Every engine has the interface of docs/stacks.md (``from_position``, ``legal_actions``,
``apply``, ``to_position``, ...): the plain-Python reference always, the compiled
core's :class:`StacksState` once it is built.  Positions are written as STN lines;
an ``*`` for the aside or draw count, or ``?*`` in a hand, stands for the cards the
rest of the line leaves over, so that a test spells out only what it is about.
"""

from __future__ import annotations

from seqsolve.games.stacks.actions import action_to_text, text_to_action
from seqsolve.games.stacks.position_text import parse, to_stn
from seqsolve.games.stacks.rules import make_rules
from seqsolve.reference.stacks import ReferenceStacks


def available_engines() -> list[type]:
    """ReferenceStacks, and the compiled core's StacksState when it imports."""
    engines: list[type] = [ReferenceStacks]
    try:
        from seqsolve.games.stacks.state import StacksState
    except ImportError:
        pass
    else:
        engines.append(StacksState)
    return engines


def _cards_in(item: str) -> int:
    if item.startswith("?"):
        return 1 if item == "?" else int(item[1:])
    return 1


def complete(stn: str) -> str:
    """``stn`` with its one ``*`` (aside or draw count) or ``?*`` (in a hand) replaced by
    the number of cards the deck has left over."""
    fields = stn.split()
    variant, hands, discards, special, piles, aside, draw = (fields[i] for i in (0, 2, 3, 4, 5, 8, 9))
    players = hands.count("/") + 1
    deck = sum(make_rules(variant, players).deck)
    used = 0
    for entry in hands.split("/") + discards.split("/") + [special]:
        used += sum(_cards_in(i) for i in entry.split(",") if i not in ("-", "?*"))
    used += sum(len(p.split("+")) for p in piles.split(",") if p != "-")
    used += sum(int(f.partition(":")[0]) for f in (aside, draw) if f != "*")
    rest = str(deck - used)
    if "?*" in hands:
        fields[2] = hands.replace("?*", "?" + rest)
    else:
        fields[8 if aside == "*" else 9] = rest
    return " ".join(fields)


def start(engine: type, stn: str, seed: int | None = None):
    """The engine's game at the (completed) STN position."""
    return engine.from_position(parse(complete(stn)), seed=seed)


def play(game, *texts: str) -> None:
    for text in texts:
        game.apply(text_to_action(text))


def legal(game) -> list[str]:
    return [action_to_text(a) for a in game.legal_actions()]


def stn(game) -> str:
    return to_stn(game.to_position())
