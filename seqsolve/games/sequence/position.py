"""A position as plain data: what a position file (RULES.md §5) says.

``Position`` is the meeting point of the file readers and writers
(``seqsolve.games.sequence.notation``), the engine (``State.from_position`` /
``State.to_position``) and the plain-Python reference engine.  It may hold
unknown cards (``Hand.unknown``, a draw pile given only by its count); the
engine keeps them unknown until ``State.resample`` fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..position_syntax import COUNTER_MAX  # noqa: F401  (P-9: the turn and stall counters are every game's)
from .rules import Rules

COLOURS = "bgr"
#: what the text says of each colour (the one copy: renderers, checks, reports)
COLOUR_NAMES = {"b": "blue", "g": "green", "r": "red"}
EMPTY = "."
CORNER = "*"


@dataclass(frozen=True)
class Hand:
    """Known cards (canonical order) and a number of unknown ones."""

    known: tuple[str, ...] = ()
    unknown: int = 0

    def __len__(self) -> int:
        return len(self.known) + self.unknown


@dataclass(frozen=True)
class Position:
    """One moment of a classic (or Numbers, or draft) game.

    ``board`` holds 100 tokens of P-2 (``*`` corner, ``.`` empty, ``b g r``
    chips, ``B G R`` locked chips).  ``to_move`` is None when the game is over,
    and then ``result`` is a colour letter or ``"draw"``.  ``exchange_used``
    is the ``x`` of P-4/P-16.  ``sequences`` lists ``(colour, window)`` in
    completion order (windows numbered as in ``seqsolve.games.sequence.board.windows``).
    ``draw_cards`` is the draw pile top first when it is known, else None.
    ``draft`` is the face-up draft (D-5), None outside the draft variant.
    ``takes`` and ``last_turns`` are the public record of P-19 and P-20.
    """

    rules: Rules
    seats: str
    board: tuple[str, ...]
    to_move: int | None
    hands: tuple[Hand, ...]
    discards: tuple[tuple[str, ...], ...]
    sequences: tuple[tuple[str, int], ...] = ()
    draw_count: int = 0
    draw_cards: tuple[str, ...] | None = None
    turn: int = 0
    stall: int = 0
    exchange_used: bool = False
    result: str | None = None
    draft: tuple[str, ...] | None = field(default=None)
    #: per seat, the draft cards everyone saw it take and not play since (D-1, P-19), in
    #: deck order; None when no seat has any
    takes: tuple[tuple[str, ...], ...] | None = None
    #: per seat, the actions of its last turn as P-12 text (exchanges, then the play),
    #: ``()`` when not known; None when no seat's is (P-20)
    last_turns: tuple[tuple[str, ...], ...] | None = None

    @property
    def sides(self) -> str:
        """The colour of each side, side ``s mod T`` for seat ``s`` (C-7)."""
        return self.seats[: self.rules.teams]
