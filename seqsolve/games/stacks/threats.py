"""What ``analyze`` can say exactly of a Sequence Stacks position beyond its search:
per seat, the chips that would win it (ST-21) and the piles at 4 whose completion
(ST-9) would give one, with the cards that complete them and whether the seat holds,
may hold or cannot hold one.  The ``threats`` of ``analyze --json`` (docs/stacks.md,
"Commands"), shaped as Sequence's: one entry per side, a side being a seat.

It is a count, not a search: a completion still passes the Block window (ST-15),
and a seat may draw the card it lacks at its next turn start (ST-11).  The ranking
of decisions stays the search's (:class:`~seqsolve.games.exact.NoTactics`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from ..exact import NoTactics
from .cards import Card, card_code, colour
from .position_text import FULL_PILE

COLOUR_WORDS = ("blue", "red")
#: the cards that complete a pile at 4 of each colour: its 5 and its wild (ST-8)
COMPLETERS = ((Card.B5, Card.BW), (Card.R5, Card.RW))


@dataclass
class SeatThreats:
    """The threat summary of one seat (see :func:`threat_summary`)."""

    side: str
    seats: list[int]
    chips: dict[str, int]
    #: chip colours whose next chip wins the seat the game (ST-21), with chips left in the supply
    wins_with: list[str]
    #: piles at 4 of those colours: ``{"pile", "cards", "holds"}``, ``holds`` one of
    #: ``yes`` (in its hand or on its discard top), ``maybe`` (its hand has unknown
    #: cards and a completing card is unseen), ``no``
    completions: list[dict]
    #: whether the seat could win with the next card it plays (a Block aside)
    possible: bool

    def to_dict(self) -> dict:
        return asdict(self)

    def lines(self) -> list[str]:
        """The seat's line(s) of ``analyze``'s report."""
        chips = f"{self.chips['blue']}b{self.chips['red']}r"
        wins = " or ".join(self.wins_with) + " chip wins" if self.wins_with else "no single chip wins"
        out = [f"  seat {self.side:<4} {chips}: {wins}"]
        for c in self.completions:
            out.append(f"         {c['pile']} completes with {' or '.join(c['cards'])}: holds {c['holds']}")
        return out


def threat_summary(view) -> list[SeatThreats]:
    """Every seat's summary in ``view`` (a state; what it does not list is unknown)."""
    pos = view.to_position()
    rules = pos.rules
    unseen = _unseen(pos)
    held = [sum(c[k] for c in pos.chips) for k in (0, 1)]
    out = []
    for seat in range(rules.players):
        chips = pos.chips[seat]
        wins_with = []
        for k in (0, 1):
            after = [chips[0] + (k == 0), chips[1] + (k == 1)]
            if held[k] < rules.chip_supply and rules.meets_win(*after):
                wins_with.append(k)
        top = pos.discards[seat][-1:] if pos.discards[seat] else []
        completions = []
        for pile in pos.piles:
            k = colour(pile[0])
            if len(pile) != FULL_PILE - 1 or k not in wins_with:
                continue
            cards = COMPLETERS[k]
            if any(c in pos.hands[seat] or c in top for c in cards):
                holds = "yes"
            elif pos.unknown[seat] and any(unseen[c] for c in cards):
                holds = "maybe"
            else:
                holds = "no"
            completions.append(
                {
                    "pile": "+".join(map(card_code, pile)),
                    "cards": [card_code(c) for c in cards],
                    "holds": holds,
                }
            )
        out.append(
            SeatThreats(
                side=view.seats[seat],
                seats=[seat],
                chips={"blue": chips[0], "red": chips[1]},
                wins_with=[COLOUR_WORDS[k] for k in wins_with],
                completions=completions,
                possible=any(c["holds"] != "no" for c in completions),
            )
        )
    return out


def _unseen(pos) -> Counter:
    """Copies of each kind the position does not show anywhere."""
    shown = Counter()
    for cards in (
        *pos.hands,
        *pos.discards,
        pos.special,
        *pos.piles,
        pos.aside_cards or [],
        pos.draw_cards or [],
    ):
        shown.update(cards)
    return Counter({kind: count - shown[kind] for kind, count in enumerate(pos.rules.deck)})


class StacksTactics(NoTactics):
    """No exact tactics for the ranking (every decision ranked on its own), and the
    seats' threat summary for the report."""

    def __init__(self, view):
        self._view = view

    def summary(self) -> list[SeatThreats]:
        return threat_summary(self._view)
