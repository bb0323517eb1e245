"""Cutting a Stacks position text into located fields (docs/stacks.md, "Position
files"): the STN line and the readable form give the same :class:`StacksFields`,
whose tokens remember their line and column so that every rejection, here or in
:mod:`.position_text`, points at the text that caused it.

The tokens, their splitting, the header and the choice of form are every game's
(:mod:`seqsolve.games.position_syntax`): one way to locate a problem in a
position file, whichever game it holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..position_syntax import (
    BadToken,
    Tok,
    check_field_count,
    key_and_value,
    note_key,
    number_value,
    parse_either_form,
    split_items,
    split_pieces,
    token_after,
)

STN_FIELDS = (
    "variant",
    "to-move",
    "hands",
    "discards",
    "special",
    "piles",
    "chips",
    "skips",
    "aside",
    "draw",
    "turn",
    "quiet",
)
READABLE_KEYS = (
    "variant", "options", "to-move", "direction", "progress", "refilled", "block-asked", "result",
    "turn", "quiet", "special", "aside", "draw", "last",
)  # fmt: skip
#: readable keys that describe a game still going, which a finished one does not give
GOING_KEYS = ("to-move", "direction", "progress", "refilled", "block-asked")

_SEAT_KEY = re.compile(r"(hand|discard|chips|skips) ([0-9]+)")
_TO_MOVE = re.compile(r"([0-9]+)([<>])(p?)(r?)(?:k([0-9]+))?")


@dataclass
class StacksFields:
    """What a position text says, as located tokens, whichever form it came in.

    Seat entries are dicts by seat (the readable form may give them in any order);
    a list value is its items, and ``None`` where a field was not given.
    """

    head: Tok  # the first line: the place for problems no single token owns
    variant: Tok | None = None
    options: list[Tok] = field(default_factory=list)
    to_move: Tok | None = None
    direction: Tok | None = None  # ">" / "<" or forward / reverse
    progress: Tok | None = None  # "p" / yes / no
    refilled: Tok | None = None  # "r" / yes / no
    block_asked: Tok | None = None  # a seat, or "-" in the readable form
    result: Tok | None = None  # a seat or "draw"; None while the game goes on
    given: set[str] = field(default_factory=set)  # readable keys present
    hands: dict[int, list[Tok]] = field(default_factory=dict)
    hands_at: dict[int, Tok] = field(default_factory=dict)
    discards: dict[int, list[Tok]] = field(default_factory=dict)
    discards_at: dict[int, Tok] = field(default_factory=dict)
    special: list[Tok] = field(default_factory=list)
    piles: list[tuple[Tok, list[Tok]]] = field(default_factory=list)  # (the whole pile, its cards)
    chips: dict[int, tuple[Tok, Tok, Tok]] = field(default_factory=dict)  # (entry, blue, red)
    skips: dict[int, Tok] = field(default_factory=dict)
    aside: Tok | None = None
    aside_cards: list[Tok] | None = None
    draw: Tok | None = None
    draw_cards: list[Tok] | None = None
    turn: Tok | None = None
    quiet: Tok | None = None
    last: Tok | None = None  # readable only: the seat and the decision that made the position


def parse_fields(text: str) -> StacksFields:
    """The located fields of an STN line or a readable file."""
    return parse_either_form(text, "STN", _parse_stn, _parse_readable)


# ---------------------------------------------------------------------------
# STN: one line of twelve fields


def _parse_stn(words: list[Tok]) -> StacksFields:
    check_field_count(words, STN_FIELDS, "STN")
    variant, to_move, hands, discards, special, piles, chips, skips, aside, draw, turn, quiet = words
    f = StacksFields(head=variant, variant=variant, turn=turn, quiet=quiet)
    _stn_to_move(f, to_move)
    for seat, piece in enumerate(split_pieces(hands, "/")):
        f.hands_at[seat], f.hands[seat] = piece, _list(piece, ",")
    for seat, piece in enumerate(split_pieces(discards, "/")):
        f.discards_at[seat], f.discards[seat] = piece, _list(piece, ",")
    f.special = _list(special, ",")
    f.piles = [(pile, split_pieces(pile, "+")) for pile in _list(piles, ",")]
    for seat, piece in enumerate(split_pieces(chips, "/")):
        m = re.fullmatch(r"([0-9]+)b([0-9]+)r", piece.text)
        if not m:
            raise BadToken(
                piece, f"bad chips {piece.text!r} for seat {seat}: expected <blue>b<red>r, e.g. 2b1r"
            )
        f.chips[seat] = (
            piece,
            Tok(m.group(1), piece.line, piece.col),
            token_after(piece, m.start(2))._replace(text=m.group(2)),
        )
    f.skips = dict(enumerate(split_pieces(skips, "/")))
    f.aside, f.aside_cards = _count_and_cards(aside, ",")
    f.draw, f.draw_cards = _count_and_cards(draw, ",")
    return f


def _stn_to_move(f: StacksFields, tok: Tok) -> None:
    """``0>``, ``2<p``, ``1>prk2``; a finished game ``!3`` or ``!=``."""
    text = tok.text
    if text.startswith("!"):
        if text != "!=" and not re.fullmatch(r"![0-9]+", text):
            raise BadToken(tok, f"bad result {text!r}: expected ! and the winning seat (!1) or != for a draw")
        f.result = Tok("draw" if text == "!=" else text[1:], tok.line, tok.col + 1)
        return
    m = _TO_MOVE.fullmatch(text)
    if not m:
        raise BadToken(
            tok,
            f"bad to-move {text!r}: expected a seat, > or <, optionally p, optionally r,"
            " optionally k and a seat (e.g. 0>, 2<p, 1>prk2)",
        )
    f.to_move = Tok(m.group(1), tok.line, tok.col)
    f.direction = token_after(tok, m.start(2))._replace(text=m.group(2))
    f.progress = token_after(tok, m.start(3))._replace(text=m.group(3)) if m.group(3) else None
    f.refilled = token_after(tok, m.start(4))._replace(text=m.group(4)) if m.group(4) else None
    f.block_asked = token_after(tok, m.start(5)) if m.group(5) else None


def _list(tok: Tok, sep: str) -> list[Tok]:
    """An STN list: ``-`` for none, else ``sep``-separated items (an empty one is kept,
    to be refused where it stands)."""
    return [] if tok.text == "-" else split_pieces(tok, sep)


def _count_and_cards(tok: Tok, sep: str) -> tuple[Tok, list[Tok] | None]:
    """``count`` or ``count:cards``; the readable form separates cards by blanks."""
    count, colon, _ = tok.text.partition(":")
    counted = Tok(count.strip(), tok.line, tok.col)
    if not colon:
        return counted, None
    rest = token_after(tok, len(count) + 1)
    if sep == ",":
        return counted, _list(rest, ",") if rest.text else []
    cards = split_items(rest)
    return counted, [] if [t.text for t in cards] == ["-"] else cards


# ---------------------------------------------------------------------------
# The readable form: key: value lines


def _parse_readable(lines: list[tuple[int, str]], head: Tok) -> StacksFields:
    f = StacksFields(head=head)
    seen: dict[str, int] = {}
    for key, value in filter(None, (key_and_value(*line) for line in lines)):
        note_key(seen, key, repeatable=("pile",))
        _readable_key(f, key, value)
    f.given = set(seen)
    if "variant" not in seen:
        raise BadToken(head, "missing 'variant:' line")
    return f


def _readable_key(f: StacksFields, key: Tok, value: Tok) -> None:
    name = key.text
    seat_key = _SEAT_KEY.fullmatch(name)
    if name not in READABLE_KEYS and name != "pile" and not seat_key:
        known = ", ".join((*READABLE_KEYS, "pile", "hand N", "discard N", "chips N", "skips N"))
        raise BadToken(key, f"unknown key {name!r} (known: {known}; x-... keys are ignored)")
    if not value.text:
        raise BadToken(value, f"'{name}:' needs a value; write - for none")
    if seat_key:
        _readable_seat_key(f, seat_key.group(1), number_value(seat_key.group(2)), value)
    elif name == "pile":
        f.piles.append((value, split_items(value)))
    elif name == "options":
        f.options = split_items(value)
    elif name == "special":
        f.special = _items(value)
    elif name in ("aside", "draw"):
        count, cards = _count_and_cards(value, " ")
        setattr(f, name, count)
        setattr(f, name + "_cards", cards)
    elif name == "result":
        text = value.text.lower()
        f.result = None if text == "*" else value._replace(text=text)
    else:
        setattr(f, name.replace("-", "_"), value)


def _readable_seat_key(f: StacksFields, kind: str, seat: int, value: Tok) -> None:
    if kind == "hand":
        f.hands_at[seat], f.hands[seat] = value, _items(value)
    elif kind == "discard":
        f.discards_at[seat], f.discards[seat] = value, _items(value)
    elif kind == "skips":
        f.skips[seat] = value
    else:
        words = split_items(value)
        if len(words) != 2:
            raise BadToken(
                value, f"chips {seat} takes two numbers, blue then red (e.g. 2 1), not {value.text!r}"
            )
        f.chips[seat] = (value, words[0], words[1])


def _items(value: Tok) -> list[Tok]:
    """A readable list: blanks and/or commas between items, ``-`` for none (P-10)."""
    return [] if value.text == "-" else split_items(value)
