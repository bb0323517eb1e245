"""Cutting a position text into located fields (RULES.md §5.1 SQN, §5.2 readable).

The first of the two steps of reading a position (:mod:`.notation`): a
form-specific parser only cuts the text into :class:`Fields` whose pieces are
:class:`Tok` tokens remembering their line and column, so that every rejection,
here or in :mod:`.position_checks`, can point at the text that caused it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..position_syntax import (
    DIGITS,
    BadToken,
    Tok,
    check_field_count,
    end_of,
    key_and_value,
    note_key,
    number_value,
    parse_either_form,
    split_items,
    split_pieces,
    split_words,
    token_after,
)
from .board import COLUMNS, SIZE
from .position import COLOURS, EMPTY

BOARD_TOKENS = "*.bgrBGR"
SQN_FIELDS = (
    "variant",
    "board",
    "seats",
    "to-move",
    "hands",
    "discards",
    "sequences",
    "draw",
    "turn",
    "stall",
)
# Readable keys that hold one value each; "board", "hand N" and "discard N" are handled apart.
READABLE_KEYS = (
    "variant",
    "options",
    "seats",
    "to-move",
    "exchange-used",
    "result",
    "turn",
    "stall",
    "sequences",
    "draw",
    "draft",
)

_SEAT_KEY = re.compile(r"(hand|discard|take|last) ([0-9]+)")
#: the keyed fields an SQN line may add after its ten: the draft (D-5), the takes and
#: the last turns (P-19, P-20), in any order
SQN_EXTRAS = ("draft", "takes", "last")


class TokList(NamedTuple):
    """A list value (a hand, a discard pile, the draft) and where the whole entry starts."""

    at: Tok
    items: list[Tok]


@dataclass
class Fields:
    """What a position text says, still as located tokens, whichever form it came in."""

    head: Tok  # the first line: the place for problems no single token owns
    variant: Tok | None = None
    options: list[Tok] = field(default_factory=list)
    seats_at: Tok | None = None
    seats: list[Tok] = field(default_factory=list)  # one token per seat letter
    board: list[Tok] = field(default_factory=list)  # 100 single-cell tokens
    to_move: Tok | None = None
    exchange: Tok | None = None  # present when the exchange is used (x, exchange-used: yes)
    result: Tok | None = None  # b, g, r or draw; None while in progress
    hands_at: Tok | None = None
    hands: dict[int, TokList] = field(default_factory=dict)
    discards_at: Tok | None = None
    discards: dict[int, TokList] = field(default_factory=dict)
    sequences: list[Tok] = field(default_factory=list)  # each "c:end-end"
    draw: Tok | None = None  # the count; None means "deck minus the rest" (P-15)
    draw_cards: list[Tok] | None = None
    turn: Tok | None = None
    stall: Tok | None = None
    draft: TokList | None = None
    takes_at: Tok | None = None  # the SQN field, or None (readable form, or no field)
    takes: dict[int, TokList] = field(default_factory=dict)  # P-19, per seat
    last_at: Tok | None = None
    last: dict[int, TokList] = field(default_factory=dict)  # P-20, per seat: the actions of a turn


def parse_fields(text: str) -> Fields:
    """The located fields of an SQN line or a readable file (§5.1, §5.2)."""
    return parse_either_form(text, "SQN", _parse_sqn, _parse_readable)


# ---------------------------------------------------------------------------
# Reading: SQN (§5.1)


def _parse_sqn(fields: list[Tok]) -> Fields:
    """Cut an SQN line into its ten fields, and the keyed ones after them (D-5 draft,
    P-19 takes, P-20 last turns)."""
    extras: dict[str, Tok] = {}
    while len(fields) > len(SQN_FIELDS):
        key = fields[-1].text.partition(":")[0].lower()
        if key not in SQN_EXTRAS or ":" not in fields[-1].text or key in extras:
            break
        extras[key] = fields.pop()
    check_field_count(fields, SQN_FIELDS, "SQN")
    variant, board, seats, to_move, hands, discards, sequences, draw, turn, stall = fields
    f = Fields(head=variant, variant=variant, turn=turn, stall=stall)
    f.board = _sqn_board(board)
    f.seats_at = seats
    f.seats = [Tok(ch, seats.line, seats.col + i) for i, ch in enumerate(seats.text)]
    _sqn_to_move(f, to_move)
    f.hands_at, f.hands = hands, _sqn_entries(hands)
    f.discards_at, f.discards = discards, _sqn_entries(discards)
    f.sequences = [] if sequences.text == "-" else split_items(sequences)
    f.draw, f.draw_cards = _split_draw(draw)
    if "draft" in extras:
        value = token_after(extras["draft"], len("draft:"))
        f.draft = TokList(value, split_items(value))
    if "takes" in extras:
        f.takes_at = token_after(extras["takes"], len("takes:"))
        f.takes = _sqn_entries(f.takes_at)
    if "last" in extras:
        f.last_at = token_after(extras["last"], len("last:"))
        f.last = _sqn_entries(f.last_at)
    return f


def _sqn_board(tok: Tok) -> list[Tok]:
    """P-2: ten ``/``-separated rows of tokens and empty-run numbers, one token per cell."""
    rows = split_pieces(tok, "/")
    if len(rows) != SIZE:
        raise BadToken(tok, f"board has {len(rows)} rows, expected 10 separated by / (P-2)")
    cells: list[Tok] = []
    for number, row in enumerate(rows, 1):
        cells += _sqn_row(row, number)
    return cells


def _sqn_row(row: Tok, number: int) -> list[Tok]:
    cells: list[Tok] = []
    i = 0
    while i < len(row.text):
        at = token_after(row, i)
        run = DIGITS.match(row.text, i)
        if run:  # digits are read greedily: "10" is ten empty cells
            if run.group().startswith("0") or number_value(run.group()) > SIZE:
                raise BadToken(at, f"bad run of empty cells {run.group()!r}: write 1 to 10 (P-2)")
            cells += [Tok(EMPTY, at.line, at.col)] * int(run.group())
            i = run.end()
        elif row.text[i] in BOARD_TOKENS:
            cells.append(Tok(row.text[i], at.line, at.col))
            i += 1
        else:
            raise BadToken(
                at, f"bad board character {row.text[i]!r}: expected * . b g r B G R or a number (P-2)"
            )
        if len(cells) > SIZE:
            raise BadToken(at, f"board row {number} describes more than 10 cells (P-2)")
    if len(cells) < SIZE:
        raise BadToken(row, f"board row {number} describes {len(cells)} cells, expected 10 (P-2)")
    return cells


def _sqn_to_move(f: Fields, tok: Tok) -> None:
    """P-4: ``N``, ``Nx`` or a result ``!b`` ``!g`` ``!r`` ``!=``."""
    text = tok.text
    if text.startswith("!"):
        if text not in ("!b", "!g", "!r", "!="):
            raise BadToken(tok, f"bad result {text!r}: expected !b, !g, !r or != (P-4)")
        f.result = Tok("draw" if text == "!=" else text[1], tok.line, tok.col + 1)
        return
    digits = DIGITS.match(text)
    if not digits or text[digits.end() :] not in ("", "x", "X"):
        raise BadToken(
            tok, f"bad to-move {text!r}: expected a seat number, optionally with x, or a result like !b (P-4)"
        )
    f.to_move = Tok(digits.group(), tok.line, tok.col)
    if digits.end() < len(text):
        f.exchange = token_after(tok, digits.end())


def _sqn_entries(tok: Tok) -> dict[int, TokList]:
    """P-5/P-6: one ``/``-separated entry per seat, each a comma-separated list."""
    return {seat: TokList(piece, split_items(piece)) for seat, piece in enumerate(split_pieces(tok, "/"))}


def _split_draw(tok: Tok) -> tuple[Tok, list[Tok] | None]:
    """P-8: ``count`` or ``count:top-first list`` (readable: ``count : list``)."""
    count, sep, _ = tok.text.partition(":")
    if not sep:
        return Tok(tok.text.strip(), tok.line, tok.col), None
    cards = split_items(token_after(tok, len(count) + 1))
    return Tok(count.strip(), tok.line, tok.col), cards


# ---------------------------------------------------------------------------
# Reading: readable form (§5.2)


def _parse_readable(lines: list[tuple[int, str]], head: Tok) -> Fields:
    """Read ``key: value`` lines (P-10); ``board:`` is followed by its rows."""
    f = Fields(head=head)
    seen: dict[str, int] = {}
    i = 0
    while i < len(lines):
        line = key_and_value(*lines[i])
        i += 1
        if line is None:
            continue
        key, value = line
        note_key(seen, key)
        if key.text == "board":
            if value.text:
                raise BadToken(value, "the board rows go on the lines after 'board:' (P-10)")
            f.board, i = _readable_board(lines, i, key)
        else:
            _readable_key(f, key, value)
    for required in ("variant", "seats", "board"):
        if required not in seen:
            raise BadToken(head, f"missing '{required}:' line (P-10)")
    return f


def _readable_key(f: Fields, key: Tok, value: Tok) -> None:
    """Store one ``key: value`` line in ``f``."""
    name = key.text
    seat_key = _SEAT_KEY.fullmatch(name)
    if name not in READABLE_KEYS and not seat_key:
        known = ", ".join((*READABLE_KEYS, "board", "hand N", "discard N", "take N", "last N"))
        raise BadToken(key, f"unknown key {name!r} (known: {known}; x-... keys are ignored)")
    if not value.text:
        hint = "; write - for none" if seat_key or name in ("sequences", "draft") else ""
        raise BadToken(value, f"'{name}:' needs a value{hint}")
    if seat_key:
        entries = {"hand": f.hands, "discard": f.discards, "take": f.takes, "last": f.last}[seat_key.group(1)]
        entries[number_value(seat_key.group(2))] = TokList(value, split_items(value))
    elif name == "variant":
        f.variant = value
    elif name == "options":
        f.options = split_items(value)
    elif name == "seats":
        f.seats_at = value
        f.seats = [Tok(ch, w.line, w.col + k) for w in split_items(value) for k, ch in enumerate(w.text)]
    elif name == "to-move":
        f.to_move = value
    elif name == "exchange-used":
        f.exchange = value if _yes_no(value) else None
    elif name == "result":
        f.result = _readable_result(value)
    elif name in ("turn", "stall"):
        setattr(f, name, value)
    elif name == "sequences":
        f.sequences = _readable_sequences(value)
    elif name == "draw":
        f.draw, f.draw_cards = _split_draw(value)
    elif name == "draft":
        f.draft = TokList(value, split_items(value))


def _yes_no(value: Tok) -> bool:
    text = value.text.lower()
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    raise BadToken(value, f"exchange-used takes yes or no, not {value.text!r}")


def _readable_result(value: Tok) -> Tok | None:
    text = value.text.lower()
    if text == "*":
        return None
    if text not in ("b", "g", "r", "draw"):
        raise BadToken(value, f"result takes * (in progress), b, g, r or draw, not {value.text!r}")
    return value._replace(text=text)


def _readable_sequences(value: Tok) -> list[Tok]:
    """``g b3-f3, b e4-e8`` (or SQN-style ``g:b3-f3``) to ``c:end-end`` tokens."""
    words = split_items(value)
    if [w.text for w in words] == ["-"]:
        return []
    out: list[Tok] = []
    colour: Tok | None = None
    for w in words:
        if colour is None and ":" in w.text:
            out.append(w)
        elif colour is None and len(w.text) == 1 and w.text.lower() in COLOURS:
            colour = w
        elif colour is not None and w.text.lower() not in COLOURS:
            out.append(colour._replace(text=f"{colour.text}:{w.text}"))
            colour = None
        else:
            raise BadToken(
                w, f"bad sequence list at {w.text!r}: expected colour then cells, e.g. b a6-a10 (P-7)"
            )
    if colour is not None:
        raise BadToken(colour, f"sequence colour {colour.text!r} without its cells, e.g. b a6-a10 (P-7)")
    return out


def _readable_board(lines: list[tuple[int, str]], i: int, key: Tok) -> tuple[list[Tok], int]:
    """The optional column header then exactly 10 rows (P-10); returns the cells and the next line."""
    cells: list[Tok] = []
    row = 0
    header_allowed = True
    while row < SIZE:
        while i < len(lines) and not lines[i][1].strip():
            i += 1
        if i == len(lines):
            raise BadToken(key, f"board has {row} rows, expected 10 (P-10)")
        lineno, text = lines[i]
        words = split_words(Tok(text, lineno, 1))
        if ":" in text:
            raise BadToken(words[0], f"board has {row} rows, expected 10 before {text.strip()!r} (P-10)")
        i += 1
        if header_allowed and [w.text.lower() for w in words] == list(COLUMNS):
            header_allowed = False
            continue
        header_allowed = False
        row += 1
        cells += _readable_row(words, row, Tok(text.rstrip(), lineno, 1))
    return cells, i


def _readable_row(words: list[Tok], row: int, line: Tok) -> list[Tok]:
    if DIGITS.fullmatch(words[0].text):  # optional row number; cells are never digits
        if number_value(words[0].text) != row:
            raise BadToken(words[0], f"row number {words[0].text} where row {row} was expected")
        words = words[1:]
    if len(words) != SIZE:
        at = words[SIZE] if len(words) > SIZE else end_of(line)
        raise BadToken(at, f"board row {row} has {len(words)} cells, expected 10 (P-10)")
    return words
