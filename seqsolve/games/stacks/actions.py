"""A Stacks decision as one integer (what bots and the compiled core exchange) and as
text (what records, the line protocol and people write): docs/stacks.md §Actions.

A turn is many decisions of one player (ST-12), and Block is a decision asked of an
opponent out of turn (ST-15), so every action is one small step::

    PLAY     src * 204 + card * 12 + arg   0…407   a card from hand (src 0) or from
                                                   the top of the own discard pile (1)
    DISCARD  408 + card                    408…424 end the turn (ST-14)
    BLOCK    425                                   block the completion just made
    PASS     426                                   let it stand
    END      427                                   end the turn with an empty hand

``arg`` says what the card does where the card alone does not: a wild's target pile
by its value before the play (0 starts a pile, 1–4 builds on the oldest pile of
that colour and value), Steal-a-Card's victim seat, Steal-a-Chip's ``seat * 2 +
colour``; 0 otherwise.  A number card needs no target: a ``k`` goes on the oldest
pile of its colour whose value is ``k - 1`` (a 1 starts a pile).

This module is syntax only; whether an action is legal is the state's to say.
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from .cards import COLOUR_LETTERS, Card, card_code, parse_card

ARGS = 12
PLAY_SPAN = len(Card) * ARGS  # 204
DISCARD_BASE = 2 * PLAY_SPAN  # 408
BLOCK = DISCARD_BASE + len(Card)  # 425
PASS = BLOCK + 1
END = BLOCK + 2
NUM_ACTIONS = END + 1  # 428


class ActionKind(enum.IntEnum):
    PLAY = 0
    DISCARD = 1
    BLOCK = 2
    PASS = 3
    END = 4


class StacksAction(NamedTuple):
    kind: ActionKind
    card: Card | None = None
    from_discard: bool = False
    arg: int = 0


def encode_play(card: int, arg: int = 0, from_discard: bool = False) -> int:
    if not 0 <= arg < ARGS:
        raise ValueError(f"action argument {arg} out of range")
    return int(from_discard) * PLAY_SPAN + int(card) * ARGS + arg


def encode_discard(card: int) -> int:
    return DISCARD_BASE + int(card)


def decode_action(action: int) -> StacksAction:
    """The parts of an action number (a ValueError for a number no action has)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no Stacks action has number {action}")
    if action < DISCARD_BASE:
        src, rest = divmod(action, PLAY_SPAN)
        card, arg = divmod(rest, ARGS)
        return StacksAction(ActionKind.PLAY, Card(card), bool(src), arg)
    if action < BLOCK:
        return StacksAction(ActionKind.DISCARD, Card(action - DISCARD_BASE))
    return StacksAction({BLOCK: ActionKind.BLOCK, PASS: ActionKind.PASS, END: ActionKind.END}[action])


_WORDS = {"block": BLOCK, "pass": PASS, "end": END}


def action_to_text(action: int) -> str:
    """``B3``, ``^B3``, ``BW>0``, ``SC@2``, ``SX@1r``, ``~R5``, ``block``, ``pass``, ``end``."""
    a = decode_action(action)
    if a.kind == ActionKind.DISCARD:
        return "~" + card_code(a.card)
    if a.kind != ActionKind.PLAY:
        return a.kind.name.lower()
    text = ("^" if a.from_discard else "") + card_code(a.card)
    if a.card in (Card.BW, Card.RW):
        text += f">{a.arg}"
    elif a.card == Card.SC:
        text += f"@{a.arg}"
    elif a.card == Card.SX:
        text += f"@{a.arg // 2}{COLOUR_LETTERS[a.arg % 2]}"
    return text


_PLAY = re.compile(r"(\^?)([A-Za-z][A-Za-z0-9])(?:>(\d)|@(\d)([brBR])?)?")


def text_to_action(text: str) -> int:
    """The action ``text`` writes (the inverse of :func:`action_to_text`), or a
    ValueError saying what is wrong with the text; legality is not checked."""
    t = text.strip()
    if t.lower() in _WORDS:
        return _WORDS[t.lower()]
    if t.startswith("~"):
        return encode_discard(parse_card(t[1:]))
    m = _PLAY.fullmatch(t)
    if not m:
        raise ValueError(
            f"cannot read Stacks action {text!r} (e.g. B3, ^B3, BW>0, SC@2, SX@1r, ~R5, block, pass, end)"
        )
    src, code, target, victim, chip = m.groups()
    card = parse_card(code)
    if card == Card.BK:
        raise ValueError(f"{text!r}: a Block is played only as 'block', in answer to a completion (ST-15)")
    wild = card in (Card.BW, Card.RW)
    if wild != (target is not None):
        raise ValueError(
            f"{text!r}: a wild names its target pile's value, 0 for a new pile (BW>0 … BW>4); no other card does"
        )
    if (card in (Card.SC, Card.SX)) != (victim is not None) or (card == Card.SX) != (chip is not None):
        raise ValueError(
            f"{text!r}: Steal-a-Card names a seat (SC@2), Steal-a-Chip a seat and a colour (SX@2r); no other card does"
        )
    if wild:
        arg = int(target)
        if arg > 4:
            raise ValueError(f"{text!r}: a pile's value is 0 to 4 before a card goes on it")
    elif card == Card.SC:
        arg = int(victim)
    elif card == Card.SX:
        arg = int(victim) * 2 + COLOUR_LETTERS.index(chip.lower())
    else:
        arg = 0
    if arg >= ARGS or (card == Card.SC and arg > 5):
        raise ValueError(f"{text!r}: there are at most 6 seats (0-5)")

    return encode_play(card, arg, bool(src))
