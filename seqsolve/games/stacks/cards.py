"""The 120 cards of Sequence Stacks (ST-2) as 17 kinds, numbered so that a kind is a
small integer in the compiled core and its two-letter code in every file.

Number and wild cards have a colour; the five action cards are colourless (ST-2:
their printed colour has no effect in play).  Codes are ``B1``…``B5``, ``BW``,
``R1``…``R5``, ``RW`` and ``SK`` (Skip), ``RV`` (Reverse), ``SC`` (Steal-a-Card),
``SX`` (Steal-a-Chip), ``BK`` (Block); the kind order is also the canonical order
of a hand in a position file (docs/stacks.md).
"""

from __future__ import annotations

import enum

BLUE, RED = 0, 1
#: chip and pile colours as position files write them
COLOUR_LETTERS = "br"
#: cards in a hand at the start of a turn (ST-5, ST-11) and drawn at once (ST-13)
HAND_SIZE = 5


class Card(enum.IntEnum):
    B1 = 0
    B2 = 1
    B3 = 2
    B4 = 3
    B5 = 4
    BW = 5
    R1 = 6
    R2 = 7
    R3 = 8
    R4 = 9
    R5 = 10
    RW = 11
    SK = 12  # Skip (ST-16)
    RV = 13  # Reverse (ST-17)
    SC = 14  # Steal-a-Card (ST-18)
    SX = 15  # Steal-a-Chip (ST-19)
    BK = 16  # Block (ST-15)


CARD_KINDS = len(Card)
#: the kinds played to sequence piles; the rest are action cards
PILE_CARDS = frozenset(c for c in Card if c < Card.SK)
ACTION_CARDS = frozenset(c for c in Card if c >= Card.SK)

#: copies of each kind in the full 120-card deck (ST-2)
FULL_DECK = {
    **{c: 9 for c in PILE_CARDS},
    Card.BW: 7,
    Card.RW: 7,
    Card.SK: 3,
    Card.RV: 3,
    Card.SC: 3,
    Card.SX: 4,
    Card.BK: 3,
}
#: what comes out with two players (ST-3): 8 cards, leaving 112
TWO_PLAYER_REMOVED = {Card.RV: 3, Card.BK: 1, Card.SX: 2, Card.SC: 1, Card.SK: 1}


def colour(card: int) -> int | None:
    """BLUE or RED for a number or wild card, None for an action card."""
    return None if card >= Card.SK else card // 6


def value(card: int) -> int | None:
    """1–5 for a number card, 0 for a wild (it takes the value the pile needs), None
    for an action card."""
    if card >= Card.SK:
        return None
    return 0 if card % 6 == 5 else card % 6 + 1


def deck_counts(players: int, two_player_removal: bool = True) -> list[int]:
    """Copies of each kind (indexed by :class:`Card`) in the deck of a game."""
    counts = [FULL_DECK[c] for c in Card]
    if players == 2 and two_player_removal:
        for card, gone in TWO_PLAYER_REMOVED.items():
            counts[card] -= gone
    return counts


def card_code(card: int) -> str:
    return Card(card).name


def parse_card(code: str) -> Card:
    """The kind a code names (case-insensitive), or a ValueError naming the code."""
    try:
        return Card[code.strip().upper()]
    except KeyError:
        raise ValueError(f"unknown Stacks card {code!r} (B1-B5, BW, R1-R5, RW, SK, RV, SC, SX, BK)") from None
