"""Moves as users see them: a frozen :class:`Move` and the notation of RULES.md P-12.

One ``Move`` is one action: a play (``5H@e5``, ``JSxe5``), a dead-card exchange
(``~5S``) or a ``pass``.  A whole turn is an exchange (if any) then a play,
``"~5S 9H@i3"``; :func:`parse_turn` splits it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ... import arguments
from ...arguments import PublicEnum
from ...errors import ArgumentError
from ..base import MoveSyntaxError
from .board import CELLS, cell_name, parse_cell, parse_window, window_name, windows
from .cards import normalize_card


class MoveKind(PublicEnum):
    """What one action does (P-12): the four shapes of move notation."""

    PLACE = "place"  # a normal card or a wild on an empty cell
    REMOVE = "remove"  # a remove card (one-eyed jack, Minus) on an opposing chip
    EXCHANGE = "exchange"  # dead-card exchange, the optional first step of a turn
    PASS = "pass"  # no play: forced (C-30) or voluntary (C-19 option)


_CELL = r"[a-jA-J](?:10|[1-9])"
_PLAY = re.compile(
    rf"^(?P<card>[0-9A-Za-z]+?)(?P<op>@|x)(?P<cell>{_CELL})(?:=(?P<declare>[^+]+))?(?:\+(?P<pick>[0-9A-Za-z]+))?$"
)
_EXCHANGE = re.compile(
    r"^~(?P<card>[0-9A-Za-z]+?)(?:>(?P<drawn>[0-9A-Za-z?]+))?(?:\+(?P<pick>[0-9A-Za-z]+))?$"
)


@dataclass(frozen=True)
class Move:
    """One action of a turn.

    ``declare`` is the chosen set of new sequences (window numbers) when a
    placement has several maximum declarations (C-26); ``None`` means the
    canonical choice.  ``pick`` is the draft card taken (D-1); ``drawn`` the
    card an exchange drew, when known (informational only).

    >>> m = Move.from_str("9C@a5=a5-e5"); str(m)
    '9C@a5=a5-e5'
    >>> Move.from_str("jsxE5")
    Move.from_str('JSxe5')
    """

    kind: MoveKind
    card: str | None = None
    cell: int | None = None
    declare: tuple[int, ...] | None = None
    pick: str | None = None
    drawn: str | None = None

    def __post_init__(self) -> None:
        """A Move a program builds is checked for its shape, so that a bad field is an
        ArgumentError naming it rather than a TypeError from the board's code when the
        move is played or printed; whether it is legal is the state's question."""
        if not isinstance(self.kind, MoveKind):
            raise ArgumentError(f"Move: kind must be a MoveKind, not {self.kind!r}")
        for name in ("card", "pick", "drawn"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ArgumentError(f"Move: {name} must be a card code such as '5H', not {value!r}")
        on_board = self.kind in (MoveKind.PLACE, MoveKind.REMOVE)
        if (self.card is None) == (self.kind in (MoveKind.PLACE, MoveKind.REMOVE, MoveKind.EXCHANGE)):
            raise ArgumentError(
                f"Move: kind {self.kind.value!r} {'needs' if self.card is None else 'takes no'} card"
            )
        if (self.cell is None) == on_board:
            raise ArgumentError(
                f"Move: kind {self.kind.value!r} {'needs' if self.cell is None else 'takes no'} cell"
            )
        if self.cell is not None:
            object.__setattr__(self, "cell", arguments.integer(self.cell, "Move", "cell", 0, CELLS - 1))
        if self.declare is not None:
            if not on_board or isinstance(self.declare, str) or not isinstance(self.declare, Iterable):
                raise ArgumentError(
                    f"Move: declare must be window numbers of a placement, not {self.declare!r}"
                )
            last = len(windows()) - 1
            object.__setattr__(
                self, "declare", tuple(arguments.integer(w, "Move", "declare", 0, last) for w in self.declare)
            )

    @classmethod
    def from_str(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise ArgumentError(
                f"Move.from_str: text must be a move in notation such as '5H@e5', not {text!r}"
            )
        t = text.strip()
        if t.lower() == "pass":
            return cls(MoveKind.PASS)
        m = _EXCHANGE.match(t)
        if m:
            drawn = m.group("drawn")
            return cls(
                MoveKind.EXCHANGE,
                card=normalize_card(m.group("card")),
                drawn=None if drawn is None else normalize_card(drawn),
                pick=_opt_card(m.group("pick")),
            )
        m = _PLAY.match(t)
        if not m:
            raise MoveSyntaxError(
                f"bad move {text!r}: expected CARD@CELL, CARDxCELL, ~CARD or pass (e.g. 5H@e5, JSxe5, ~5S)"
            )
        kind = MoveKind.PLACE if m.group("op") == "@" else MoveKind.REMOVE
        declare = None
        if m.group("declare"):
            if kind is MoveKind.REMOVE:
                raise MoveSyntaxError(f"bad move {text!r}: a removal declares no sequence")
            try:
                declare = tuple(sorted(parse_window(w) for w in m.group("declare").split(",")))
            except ValueError as exc:
                raise MoveSyntaxError(f"bad move {text!r}: {exc}") from None
        return cls(
            kind,
            card=normalize_card(m.group("card")),
            cell=parse_cell(m.group("cell")),
            declare=declare,
            pick=_opt_card(m.group("pick")),
        )

    def __str__(self) -> str:
        pick = f"+{self.pick}" if self.pick else ""
        if self.kind is MoveKind.PASS:
            return "pass"
        if self.kind is MoveKind.EXCHANGE:
            drawn = f">{self.drawn}" if self.drawn else ""
            return f"~{self.card}{drawn}{pick}"
        op = "@" if self.kind is MoveKind.PLACE else "x"
        declare = "=" + ",".join(window_name(w) for w in self.declare) if self.declare else ""
        return f"{self.card}{op}{cell_name(self.cell)}{declare}{pick}"  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    @property
    def is_play(self) -> bool:
        """True for the action that ends a turn (a placement, removal or pass)."""
        return self.kind is not MoveKind.EXCHANGE

    def bare(self) -> Move:
        """The move without the informational ``drawn`` card (what the rules compare)."""
        return Move(self.kind, self.card, self.cell, self.declare, self.pick)


def _opt_card(text: str | None) -> str | None:
    return None if text is None else normalize_card(text)


def parse_turn(text: str) -> list[Move]:
    """Split a whole turn into its actions: exchanges first, then at most one play.

    >>> [str(m) for m in parse_turn("~5S 9H@i3")]
    ['~5S', '9H@i3']
    """
    if not isinstance(text, str):
        raise ArgumentError(f"parse_turn: text must be a turn in notation such as '~5S 9H@i3', not {text!r}")
    moves = [Move.from_str(part) for part in text.split()]
    if not moves:
        raise MoveSyntaxError("empty move")
    plays = [i for i, m in enumerate(moves) if m.is_play]
    if len(plays) > 1 or (plays and plays[0] != len(moves) - 1):
        raise MoveSyntaxError(f"bad turn {text!r}: exchanges come first and a turn has one play")
    return moves
