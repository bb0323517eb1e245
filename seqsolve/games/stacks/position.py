"""A Stacks position as plain fields: what the position file says (docs/stacks.md)
and what the compiled core and the plain-Python reference load and write back.

Cards are :class:`~.cards.Card` kinds.  Lists of known cards are canonical
(ascending kind) where order has no meaning (hands, the special pile, the
set-aside cards) and in play order where it has (discard piles and sequence piles
bottom first, the draw pile top first).
"""

from __future__ import annotations

import dataclasses

from .rules import StacksRules


@dataclasses.dataclass
class StacksPosition:
    rules: StacksRules
    #: seat whose turn it is (None once the game is over)
    to_move: int | None
    #: +1 while play passes to seat + 1 (ST-6), -1 after an odd number of Reverses (ST-17)
    direction: int = 1
    #: in this turn a card went to a sequence pile or a chip changed hands (ST-22)
    progress: bool = False
    #: in this turn the draw pile was refilled from the set-aside stack and no chip has
    #: changed hands since: the next refill of the turn is the stalled draw (ST-22 [OURS])
    refilled: bool = False
    #: the opponent asked now whether to block the completion just made (ST-15), or None;
    #: the completer is ``to_move`` and the completed pile is the one holding 5 cards
    block_asked: int | None = None
    #: None while the game goes on, else the winning seat or "draw"
    result: int | str | None = None
    #: per seat: the known cards of the hand, and how many more are unknown
    hands: list[list[int]] = dataclasses.field(default_factory=list)
    unknown: list[int] = dataclasses.field(default_factory=list)
    #: per seat, bottom first (all public)
    discards: list[list[int]] = dataclasses.field(default_factory=list)
    #: action cards played so far (public)
    special: list[int] = dataclasses.field(default_factory=list)
    #: sequence piles in the order they were started, each bottom first
    piles: list[list[int]] = dataclasses.field(default_factory=list)
    #: per seat: (blue chips, red chips)
    chips: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    #: per seat: skip tokens held (ST-16)
    skips: list[int] = dataclasses.field(default_factory=list)
    #: completed and blocked piles set aside (ST-9, ST-20): how many cards, and
    #: which if listed (None: the count alone)
    aside_count: int = 0
    aside_cards: list[int] | None = None
    #: the draw pile: how many cards, and which, top first, if listed
    draw_count: int = 0
    draw_cards: list[int] | None = None
    #: completed turns (skipped ones included), and consecutive completed turns in
    #: which no card went to a pile and no chip changed hands (ST-22)
    turn: int = 0
    quiet: int = 0
    #: the decision that made this position, ``(seat, action number)``, or None (a deal,
    #: or a file that does not say): a note on how the position was reached, which a
    #: picture marks, not part of the position, so two positions compare without it
    last_decision: tuple[int, int] | None = dataclasses.field(default=None, compare=False)

    @property
    def players(self) -> int:
        return self.rules.players
