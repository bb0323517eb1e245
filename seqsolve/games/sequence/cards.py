"""Card codes, jack kinds and decks.

A card is named by its code (``"TD"``, ``"JS"``, Numbers ``"N17"``, ``"PL"``).
Inside the compiled core a card is the index of its code in ``Deck.codes``;
decks list their codes in the canonical sort order of RULES.md P-5, so sorting
by index is sorting canonically.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache, cached_property

SUITS = "SHDC"
RANKS = "A23456789TJQK"
UNKNOWN = "?"


class CardKind(enum.IntEnum):
    """What playing a card does (C-2, C-15, N-7)."""

    NORMAL = 0  # place a chip on one of the card's two cells
    WILD = 1  # two-eyed jack / Plus: place on any empty non-corner cell
    REMOVE = 2  # one-eyed jack / Minus: remove an unlocked opposing chip


@dataclass(frozen=True)
class Deck:
    """A deck: distinct codes (canonical order), copies of each, and jack kinds."""

    name: str
    codes: tuple[str, ...]
    wild: frozenset[str]
    remove: frozenset[str]
    copies: int = 2

    @property
    def size(self) -> int:
        return len(self.codes) * self.copies

    def kind(self, code: str) -> CardKind:
        if code in self.wild:
            return CardKind.WILD
        if code in self.remove:
            return CardKind.REMOVE
        return CardKind.NORMAL

    def index(self, code: str) -> int:
        """Core index of a code; raises ``KeyError`` for a code not in this deck."""
        return self._indexes[code]

    @cached_property
    def _indexes(self) -> dict[str, int]:
        # kept on the deck: a cache keyed by the deck would hash its 52 codes on every call
        return {c: i for i, c in enumerate(self.codes)}

    def cards(self) -> list[str]:
        """Every physical card, in canonical order (each code ``copies`` times)."""
        return [c for c in self.codes for _ in range(self.copies)]

    def in_order(self, codes) -> list[str]:
        """``codes`` in canonical card order (P-5): the deck's own order."""
        return sorted(codes, key=self.index)


def _standard_codes() -> tuple[str, ...]:
    return tuple(rank + suit for suit in SUITS for rank in RANKS)


def _numbers_codes() -> tuple[str, ...]:
    return tuple(f"N{n:02d}" for n in range(1, 49)) + ("PL", "MI")


@cache
def make_deck(name: str = "standard-104", jack_identity: str = "eyes") -> Deck:
    """Build a deck by option values (RULES.md §2.1 ``deck`` and ``jack_identity``).

    >>> d = make_deck()
    >>> d.size, d.kind("JD").name, d.kind("JS").name
    (104, 'WILD', 'REMOVE')
    >>> make_deck(jack_identity="colour").kind("JH").name
    'WILD'
    """
    if name == "standard-104":
        if jack_identity == "eyes":
            wild, remove = {"JD", "JC"}, {"JS", "JH"}
        elif jack_identity == "colour":
            wild, remove = {"JD", "JH"}, {"JS", "JC"}
        else:
            raise ValueError(f"jack_identity must be eyes or colour, not {jack_identity!r}")
        return Deck(name, _standard_codes(), frozenset(wild), frozenset(remove))
    if name == "numbers-standin-1":
        return Deck(name, _numbers_codes(), frozenset({"PL"}), frozenset({"MI"}))
    raise ValueError(f"unknown deck {name!r} (known: standard-104, numbers-standin-1)")


def normalize_card(text: str) -> str:
    """Canonical spelling of a card as typed: upper case, ``10`` becomes ``T`` (C-1).

    >>> normalize_card("10h"), normalize_card("n7"), normalize_card("js")
    ('TH', 'N07', 'JS')
    """
    t = text.strip().upper()
    if t.startswith("10") and len(t) == 3:
        t = "T" + t[2:]
    if 2 <= len(t) <= 4 and t[0] == "N" and t[1:].isascii() and t[1:].isdigit():
        t = f"N{int(t[1:]):02d}"
    return t
