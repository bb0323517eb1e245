"""Hand-built Stacks positions for the engine tests, written with card codes so a
test reads like the rule it checks (``hands=["B5 BK", "-"]``, ``piles=["B1 B2 B3 B4"]``).

Positions need not hold the whole deck (the engine never asks for one); the
conservation tests start from real deals instead.
"""

from __future__ import annotations

from collections import Counter

from seqsolve.games.stacks.cards import parse_card
from seqsolve.games.stacks.position import StacksPosition
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState

#: option mixes of §4.9 that random-game tests play (each option away from its default)
VARIANTS = [
    "stacks",
    "stacks[stacks_refill=empty_hand_only]",
    "stacks[stacks_actions_from_discard=false,stacks_steal_chip_can_win=true]",
    "stacks[stacks_max_piles_per_colour=1,stacks_chip_supply=3,stacks_two_player_removal=false]",
    "stacks[stacks_win_chips=3,stacks_win_min_each=1,max_turns=40]",
]


def cards(text: str) -> list[int]:
    """``"B1 BW R3"`` -> card kinds; ``"-"`` or ``""`` -> []."""
    return [] if text.strip() in ("", "-") else [parse_card(c) for c in text.split()]


def position(
    players: int = 2,
    variant: str = "stacks",
    *,
    hands=None,
    unknown=None,
    discards=None,
    special="",
    piles=(),
    chips=None,
    skips=None,
    aside=None,
    aside_count=None,
    draw="",
    draw_count=None,
    **fields,
) -> StacksPosition:
    """A position with seat 0 to move forward and everything else empty unless given.

    ``aside``/``draw`` are card lists (the draw pile top first); ``None`` with a
    count gives the pile by its count alone (unknown cards).
    """
    n = players
    fields.setdefault("to_move", 0)
    aside_cards = None if aside is None and aside_count else cards(aside or "")
    draw_cards = None if draw is None else cards(draw)
    return StacksPosition(
        rules=make_rules(variant, players),
        hands=[sorted(cards(h)) for h in (hands or ["-"] * n)],
        unknown=list(unknown or [0] * n),
        discards=[cards(d) for d in (discards or ["-"] * n)],
        special=sorted(cards(special)),
        piles=[cards(p) for p in piles],
        chips=[tuple(c) for c in (chips or [(0, 0)] * n)],
        skips=list(skips or [0] * n),
        aside_count=len(aside_cards) if aside_cards is not None else aside_count,
        aside_cards=None if aside_cards is None else sorted(aside_cards),
        draw_count=len(draw_cards) if draw_cards is not None else draw_count,
        draw_cards=draw_cards,
        **fields,
    )


def state(seed=None, **kw) -> StacksState:
    return StacksState.from_position(position(**kw), seed=seed)


def texts(st: StacksState) -> list[str]:
    return [st.action_to_string(a) for a in st.legal_actions()]


def hand(st: StacksState, seat: int) -> str:
    from seqsolve.games.stacks.cards import card_code

    return " ".join(card_code(c) for c in st.to_position().hands[seat]) or "-"


def card_census(pos: StacksPosition) -> tuple[Counter, int]:
    """Every known card of a position by kind, and how many cards are unknown."""
    known = Counter()
    for group in (
        *pos.hands,
        *pos.discards,
        pos.special,
        *pos.piles,
        pos.aside_cards or [],
        pos.draw_cards or [],
    ):
        known.update(group)
    unknown = sum(pos.unknown) + (pos.aside_count if pos.aside_cards is None else 0)
    unknown += pos.draw_count if pos.draw_cards is None else 0
    return known, unknown
