"""Position files (RULES.md §5): the one-line SQN form and the readable form.

Reading is done in two steps so that every rejection can point at the text
that caused it.  A form-specific parser (:func:`_parse_sqn`,
:func:`_parse_readable`) only cuts the text into :class:`_Fields` whose pieces
are :class:`_Tok` tokens remembering their line and column; :func:`_build`
then interprets those tokens and runs the P-11 checks, the same code for both
forms.  Writers emit the canonical spellings (P-2, P-5, P-15) in the layout of
the §5.5 worked examples.

>>> pos = parse_position("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
>>> pos.hands[1].unknown, pos.draw_count
(7, 90)
>>> to_sqn(pos)
'classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0'
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from .board import CELLS, COLUMNS, CORNERS, SIZE, cell_name, parse_window, window_name, windows
from .cards import Deck, normalize_card
from .position import COLOURS, CORNER, COUNTER_MAX, EMPTY, Hand, Position
from .rules import PLAYER_COUNTS, UNLIMITED, Rules, RulesError, Variant, format_value, parse_value
from .sequences import overlap_allows

__all__ = [
    "PositionError",
    "parse_position",
    "parse_position_bytes",
    "position_to_dict",
    "read_position",
    "read_position_stream",
    "to_readable",
    "to_sqn",
]

HEADER = "seqsolve-position 1"
# A position file is a few hundred bytes; readers stop here so that /dev/zero or a
# huge file is refused at once instead of filling the memory.
MAX_FILE_BYTES = 1 << 20
MAX_MESSAGE = 300  # characters of a rejection's message; the line and column say where the rest is
BOARD_TOKENS = "*.bgrBGR"
COLOUR_NAMES = {"b": "blue", "g": "green", "r": "red"}
SQN_FIELDS = ("variant", "board", "seats", "to-move", "hands", "discards", "sequences", "draw", "turn", "stall")
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

_COMMENT = re.compile(r"(?:^|(?<=[ \t]))#")
_ITEM = re.compile(r"[^\s,]+")
_WORD = re.compile(r"\S+")
_NUMBER = re.compile(r"[0-9]+")
_SEAT_KEY = re.compile(r"(hand|discard) ([0-9]+)")
_SEQUENCE = re.compile(r"([bgrBGR]):(.+)")


class PositionError(ValueError):
    """A position that cannot be read, and where to look (RULES.md P-11).

    ``line`` and ``column`` are 1-based; both are 0 when the file itself
    could not be read.

    >>> str(PositionError("game.sqn", 1, 9, "corner a1 must be *"))
    'game.sqn:1:9: corner a1 must be *'
    """

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        super().__init__(f"{source}:{line}:{column}: {message}")
        self.source = source
        self.line = line
        self.column = column
        self.message = message

    def __reduce__(self):
        # The default pickling re-calls __init__ with the formatted text only;
        # errors must survive the trip back from worker processes.
        return (type(self), (self.source, self.line, self.column, self.message))


# ---------------------------------------------------------------------------
# Tokens and the form-independent field bundle


class _Tok(NamedTuple):
    """A piece of the input and where it starts (1-based line and column)."""

    text: str
    line: int
    col: int


class _List(NamedTuple):
    """A list value (a hand, a discard pile, the draft) and where the whole entry starts."""

    at: _Tok
    items: list[_Tok]


class _Bad(Exception):
    """Internal: a rejection at a token; :func:`parse_position` adds the source name."""

    def __init__(self, at: _Tok, message: str) -> None:
        super().__init__(message)
        self.at = at
        self.message = message


@dataclass
class _Fields:
    """What a position text says, still as located tokens, whichever form it came in."""

    head: _Tok  # the first line: the place for problems no single token owns
    variant: _Tok | None = None
    options: list[_Tok] = field(default_factory=list)
    seats_at: _Tok | None = None
    seats: list[_Tok] = field(default_factory=list)  # one token per seat letter
    board: list[_Tok] = field(default_factory=list)  # 100 single-cell tokens
    to_move: _Tok | None = None
    exchange: _Tok | None = None  # present when the exchange is used (x, exchange-used: yes)
    result: _Tok | None = None  # b, g, r or draw; None while in progress
    hands_at: _Tok | None = None
    hands: dict[int, _List] = field(default_factory=dict)
    discards_at: _Tok | None = None
    discards: dict[int, _List] = field(default_factory=dict)
    sequences: list[_Tok] = field(default_factory=list)  # each "c:end-end"
    draw: _Tok | None = None  # the count; None means "deck minus the rest" (P-15)
    draw_cards: list[_Tok] | None = None
    turn: _Tok | None = None
    stall: _Tok | None = None
    draft: _List | None = None


def _items(tok: _Tok) -> list[_Tok]:
    """Split a list value on blanks and/or commas (P-10), keeping columns."""
    return [_Tok(m.group(), tok.line, tok.col + m.start()) for m in _ITEM.finditer(tok.text)]


def _words(tok: _Tok) -> list[_Tok]:
    """Split on blanks only (SQN fields, board rows), keeping columns."""
    return [_Tok(m.group(), tok.line, tok.col + m.start()) for m in _WORD.finditer(tok.text)]


def _pieces(tok: _Tok, sep: str) -> list[_Tok]:
    """Split on ``sep`` keeping empty pieces, so that a missing entry can be reported."""
    out, col = [], tok.col
    for piece in tok.text.split(sep):
        out.append(_Tok(piece, tok.line, col))
        col += len(piece) + len(sep)
    return out


def _after(tok: _Tok, offset: int) -> _Tok:
    """The part of ``tok`` from ``offset`` on, with its column."""
    return _Tok(tok.text[offset:], tok.line, tok.col + offset)


def _end_of(tok: _Tok) -> _Tok:
    """An empty token just past ``tok``: where something missing should have been."""
    return _Tok("", tok.line, tok.col + len(tok.text))


# ---------------------------------------------------------------------------
# Reading: entry points


def parse_position(text: str, source: str = "<string>") -> Position:
    """Read a position in either form (RULES.md §5.1 SQN, §5.2 readable).

    The first non-blank, non-comment line decides the form: ``seqsolve-position 1``
    starts a readable file, anything else is an SQN line.

    Args:
        text: the file's contents.
        source: the name used in error messages.

    Returns:
        The position, with ``rules`` resolved for its seats.

    Raises:
        PositionError: on any grammar error or failed P-11 check, naming the
            line and column of the offending text.
    """
    try:
        return _build(_parse_fields(text))
    except _Bad as bad:
        message = bad.message
        if len(message) > MAX_MESSAGE:  # a huge token quoted whole would make one huge line
            message = message[:MAX_MESSAGE] + "..."
        raise PositionError(source, bad.at.line, bad.at.col, message) from None


def read_position(path: str | os.PathLike[str]) -> Position:
    """Read a position file; an unreadable file is a PositionError at line 0, column 0.

    A FIFO is opened without waiting for a writer (one with none reads as empty), and
    at most :data:`MAX_FILE_BYTES` are read, so no file can make this hang or fill memory.
    """
    source = os.fspath(path)
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            os.set_blocking(fd, True)  # a pipe with a writer is then read to its end
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PositionError(source, 0, 0, f"cannot read position file: {exc.strerror or exc}") from None
    return parse_position_bytes(data, source)


def read_position_stream(stream, source: str = "<stdin>") -> Position:
    """Read a position from an open stream (standard input), with the limits of :func:`read_position`."""
    data = getattr(stream, "buffer", stream).read(MAX_FILE_BYTES + 1)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return parse_position_bytes(data, source)


def parse_position_bytes(data: bytes, source: str) -> Position:
    """A position file's bytes: UTF-8 text (a byte-order mark allowed) of at most 1 MB.

    What is not such text is refused as a whole, at line 0, column 0, without
    echoing any of it.
    """
    if len(data) > MAX_FILE_BYTES:
        raise PositionError(source, 0, 0, f"larger than {MAX_FILE_BYTES >> 20} MB: not a position file")
    nul = data.find(b"\0")
    if nul >= 0:
        raise PositionError(source, 0, 0, f"binary data (a NUL byte at offset {nul}): not a position file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PositionError(
            source, 0, 0, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
    return parse_position(text, source)


def _strip_comment(line: str) -> str:
    """Cut a ``#`` comment: one that starts the line or follows a blank (P-10)."""
    m = _COMMENT.search(line)
    return line[: m.start()] if m else line


def _parse_fields(text: str) -> _Fields:
    lines = [(n, _strip_comment(raw)) for n, raw in enumerate(text.splitlines(), 1)]
    meaningful = [(i, n, t) for i, (n, t) in enumerate(lines) if t.strip()]
    if not meaningful:
        raise _Bad(_Tok("", 1, 1), f"empty position: expected an SQN line or {HEADER!r}")
    index, lineno, first = meaningful[0]
    words = _words(_Tok(first, lineno, 1))
    if words[0].text.lower() == "seqsolve-position":
        if [w.text for w in words[1:]] != ["1"]:
            raise _Bad(words[0], f"unsupported header {first.strip()!r}: expected {HEADER!r}")
        return _parse_readable(lines[index + 1 :], words[0])
    if len(meaningful) > 1:
        _, n, extra = meaningful[1]
        col = len(extra) - len(extra.lstrip()) + 1
        raise _Bad(_Tok(extra, n, col), "unexpected text after the SQN line: a file holds one position")
    return _parse_sqn(words)


# ---------------------------------------------------------------------------
# Reading: SQN (§5.1)


def _parse_sqn(fields: list[_Tok]) -> _Fields:
    """Cut an SQN line into its ten fields (eleven with the D-5 draft field)."""
    draft = None
    if len(fields) == len(SQN_FIELDS) + 1 and fields[-1].text.lower().startswith("draft:"):
        draft = fields.pop()
    if len(fields) < len(SQN_FIELDS):
        missing = SQN_FIELDS[len(fields)]
        raise _Bad(
            _end_of(fields[-1]),
            f"SQN has {len(fields)} fields, expected 10: the {missing} field is missing ({' '.join(SQN_FIELDS)})",
        )
    if len(fields) > len(SQN_FIELDS):
        raise _Bad(fields[len(SQN_FIELDS)], f"unexpected field {fields[len(SQN_FIELDS)].text!r} after the stall field")
    variant, board, seats, to_move, hands, discards, sequences, draw, turn, stall = fields
    f = _Fields(head=variant, variant=variant, turn=turn, stall=stall)
    f.board = _sqn_board(board)
    f.seats_at = seats
    f.seats = [_Tok(ch, seats.line, seats.col + i) for i, ch in enumerate(seats.text)]
    _sqn_to_move(f, to_move)
    f.hands_at, f.hands = hands, _sqn_entries(hands)
    f.discards_at, f.discards = discards, _sqn_entries(discards)
    f.sequences = [] if sequences.text == "-" else _items(sequences)
    f.draw, f.draw_cards = _split_draw(draw)
    if draft is not None:
        value = _after(draft, len("draft:"))
        f.draft = _List(value, _items(value))
    return f


def _sqn_board(tok: _Tok) -> list[_Tok]:
    """P-2: ten ``/``-separated rows of tokens and empty-run numbers, one token per cell."""
    rows = _pieces(tok, "/")
    if len(rows) != SIZE:
        raise _Bad(tok, f"board has {len(rows)} rows, expected 10 separated by / (P-2)")
    cells: list[_Tok] = []
    for number, row in enumerate(rows, 1):
        cells += _sqn_row(row, number)
    return cells


def _sqn_row(row: _Tok, number: int) -> list[_Tok]:
    cells: list[_Tok] = []
    i = 0
    while i < len(row.text):
        at = _after(row, i)
        run = _NUMBER.match(row.text, i)
        if run:  # digits are read greedily: "10" is ten empty cells
            if run.group().startswith("0") or _value(run.group()) > SIZE:
                raise _Bad(at, f"bad run of empty cells {run.group()!r}: write 1 to 10 (P-2)")
            cells += [_Tok(EMPTY, at.line, at.col)] * int(run.group())
            i = run.end()
        elif row.text[i] in BOARD_TOKENS:
            cells.append(_Tok(row.text[i], at.line, at.col))
            i += 1
        else:
            raise _Bad(at, f"bad board character {row.text[i]!r}: expected * . b g r B G R or a number (P-2)")
        if len(cells) > SIZE:
            raise _Bad(at, f"board row {number} describes more than 10 cells (P-2)")
    if len(cells) < SIZE:
        raise _Bad(row, f"board row {number} describes {len(cells)} cells, expected 10 (P-2)")
    return cells


def _sqn_to_move(f: _Fields, tok: _Tok) -> None:
    """P-4: ``N``, ``Nx`` or a result ``!b`` ``!g`` ``!r`` ``!=``."""
    text = tok.text
    if text.startswith("!"):
        if text not in ("!b", "!g", "!r", "!="):
            raise _Bad(tok, f"bad result {text!r}: expected !b, !g, !r or != (P-4)")
        f.result = _Tok("draw" if text == "!=" else text[1], tok.line, tok.col + 1)
        return
    digits = _NUMBER.match(text)
    if not digits or text[digits.end() :] not in ("", "x", "X"):
        raise _Bad(tok, f"bad to-move {text!r}: expected a seat number, optionally with x, or a result like !b (P-4)")
    f.to_move = _Tok(digits.group(), tok.line, tok.col)
    if digits.end() < len(text):
        f.exchange = _after(tok, digits.end())


def _sqn_entries(tok: _Tok) -> dict[int, _List]:
    """P-5/P-6: one ``/``-separated entry per seat, each a comma-separated list."""
    return {seat: _List(piece, _items(piece)) for seat, piece in enumerate(_pieces(tok, "/"))}


def _split_draw(tok: _Tok) -> tuple[_Tok, list[_Tok] | None]:
    """P-8: ``count`` or ``count:top-first list`` (readable: ``count : list``)."""
    count, sep, _ = tok.text.partition(":")
    if not sep:
        return _Tok(tok.text.strip(), tok.line, tok.col), None
    cards = _items(_after(tok, len(count) + 1))
    return _Tok(count.strip(), tok.line, tok.col), cards


# ---------------------------------------------------------------------------
# Reading: readable form (§5.2)


def _parse_readable(lines: list[tuple[int, str]], head: _Tok) -> _Fields:
    """Read ``key: value`` lines (P-10); ``board:`` is followed by its rows."""
    f = _Fields(head=head)
    seen: dict[str, int] = {}
    i = 0
    while i < len(lines):
        lineno, text = lines[i]
        i += 1
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip())
        colon = text.find(":")
        if colon < 0:
            raise _Bad(_Tok(text.strip(), lineno, indent + 1), f"expected 'key: value', found {text.strip()!r} (P-10)")
        key = _Tok(" ".join(text[:colon].lower().split()), lineno, indent + 1)
        raw = text[colon + 1 :]
        value = _Tok(raw.strip(), lineno, colon + 2 + len(raw) - len(raw.lstrip()))
        if key.text.startswith("x-"):
            continue  # extension keys are for other tools
        if key.text in seen:
            raise _Bad(key, f"duplicate key {key.text!r} (first on line {seen[key.text]})")
        seen[key.text] = lineno
        if key.text == "board":
            if value.text:
                raise _Bad(value, "the board rows go on the lines after 'board:' (P-10)")
            f.board, i = _readable_board(lines, i, key)
        else:
            _readable_key(f, key, value)
    for required in ("variant", "seats", "board"):
        if required not in seen:
            raise _Bad(head, f"missing '{required}:' line (P-10)")
    return f


def _readable_key(f: _Fields, key: _Tok, value: _Tok) -> None:
    """Store one ``key: value`` line in ``f``."""
    name = key.text
    seat_key = _SEAT_KEY.fullmatch(name)
    if name not in READABLE_KEYS and not seat_key:
        known = ", ".join((*READABLE_KEYS, "board", "hand N", "discard N"))
        raise _Bad(key, f"unknown key {name!r} (known: {known}; x-... keys are ignored)")
    if not value.text:
        hint = "; write - for none" if seat_key or name in ("sequences", "draft") else ""
        raise _Bad(value, f"'{name}:' needs a value{hint}")
    if seat_key:
        entries = f.hands if seat_key.group(1) == "hand" else f.discards
        entries[_value(seat_key.group(2))] = _List(value, _items(value))
    elif name == "variant":
        f.variant = value
    elif name == "options":
        f.options = _items(value)
    elif name == "seats":
        f.seats_at = value
        f.seats = [_Tok(ch, w.line, w.col + k) for w in _items(value) for k, ch in enumerate(w.text)]
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
        f.draft = _List(value, _items(value))


def _yes_no(value: _Tok) -> bool:
    text = value.text.lower()
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    raise _Bad(value, f"exchange-used takes yes or no, not {value.text!r}")


def _readable_result(value: _Tok) -> _Tok | None:
    text = value.text.lower()
    if text == "*":
        return None
    if text not in ("b", "g", "r", "draw"):
        raise _Bad(value, f"result takes * (in progress), b, g, r or draw, not {value.text!r}")
    return value._replace(text=text)


def _readable_sequences(value: _Tok) -> list[_Tok]:
    """``g b3-f3, b e4-e8`` (or SQN-style ``g:b3-f3``) to ``c:end-end`` tokens."""
    words = _items(value)
    if [w.text for w in words] == ["-"]:
        return []
    out: list[_Tok] = []
    colour: _Tok | None = None
    for w in words:
        if colour is None and ":" in w.text:
            out.append(w)
        elif colour is None and len(w.text) == 1 and w.text.lower() in COLOURS:
            colour = w
        elif colour is not None and w.text.lower() not in COLOURS:
            out.append(colour._replace(text=f"{colour.text}:{w.text}"))
            colour = None
        else:
            raise _Bad(w, f"bad sequence list at {w.text!r}: expected colour then cells, e.g. b a6-a10 (P-7)")
    if colour is not None:
        raise _Bad(colour, f"sequence colour {colour.text!r} without its cells, e.g. b a6-a10 (P-7)")
    return out


def _readable_board(lines: list[tuple[int, str]], i: int, key: _Tok) -> tuple[list[_Tok], int]:
    """The optional column header then exactly 10 rows (P-10); returns the cells and the next line."""
    cells: list[_Tok] = []
    row = 0
    header_allowed = True
    while row < SIZE:
        while i < len(lines) and not lines[i][1].strip():
            i += 1
        if i == len(lines):
            raise _Bad(key, f"board has {row} rows, expected 10 (P-10)")
        lineno, text = lines[i]
        words = _words(_Tok(text, lineno, 1))
        if ":" in text:
            raise _Bad(words[0], f"board has {row} rows, expected 10 before {text.strip()!r} (P-10)")
        i += 1
        if header_allowed and [w.text.lower() for w in words] == list(COLUMNS):
            header_allowed = False
            continue
        header_allowed = False
        row += 1
        cells += _readable_row(words, row, _Tok(text.rstrip(), lineno, 1))
    return cells, i


def _readable_row(words: list[_Tok], row: int, line: _Tok) -> list[_Tok]:
    if _NUMBER.fullmatch(words[0].text):  # optional row number; cells are never digits
        if _value(words[0].text) != row:
            raise _Bad(words[0], f"row number {words[0].text} where row {row} was expected")
        words = words[1:]
    if len(words) != SIZE:
        at = words[SIZE] if len(words) > SIZE else _end_of(line)
        raise _Bad(at, f"board row {row} has {len(words)} cells, expected 10 (P-10)")
    return words


# ---------------------------------------------------------------------------
# Interpreting and checking (P-11), the same for both forms


def _build(f: _Fields) -> Position:
    """Turn located fields into a Position, running every P-11 check."""
    seats = _read_seats(f)
    rules = _read_rules(f, seats)
    deck = rules.deck_cards
    board = _read_board(f)
    to_move, exchange_used, result = _read_turn_state(f, seats, rules)
    hands, hand_cards = _read_hands(f, rules)
    discards = _read_discards(f, rules)
    sequences = _read_sequences(f, seats, board, rules)
    _check_locks(f, sequences)
    _check_wins(f, sequences, result, rules)
    draft = _read_draft(f, rules)
    draw_cards = None if f.draw_cards is None else [_card(t, deck, "the listed draw pile") for t in f.draw_cards]
    listed = hand_cards + [t for pile in discards for t in pile] + (draw_cards or []) + (draft or [])
    _check_copies(listed, deck)
    draw_count = _read_draw_count(f, hands, discards, draft, draw_cards, deck)
    return Position(
        rules=rules,
        seats=seats,
        board=board,
        to_move=to_move,
        hands=hands,
        discards=tuple(tuple(t.text for t in pile) for pile in discards),
        sequences=sequences,
        draw_count=draw_count,
        draw_cards=None if draw_cards is None else tuple(t.text for t in draw_cards),
        turn=_read_counter(f.turn, "turn"),
        stall=_read_counter(f.stall, "stall"),
        exchange_used=exchange_used,
        result=result,
        draft=None if draft is None else tuple(_sorted_codes((t.text for t in draft), deck)),
    )


def _read_seats(f: _Fields) -> str:
    """P-3 and P-11.2: colour letters, a known player count, seat ``s`` plays side ``s mod T``."""
    assert f.seats_at is not None
    for tok in f.seats:
        if tok.text not in COLOURS:
            raise _Bad(tok, f"bad seat colour {tok.text!r}: expected b, g or r (P-3)")
    seats = "".join(t.text for t in f.seats)
    if len(seats) not in PLAYER_COUNTS:
        allowed = ", ".join(map(str, PLAYER_COUNTS))
        raise _Bad(f.seats_at, f"{len(seats)} seats: a game has {allowed} players (C-6, P-11.2)")
    teams = len(set(seats))
    if teams < 2:
        raise _Bad(f.seats_at, "every seat plays the same colour: a game has 2 or 3 sides (P-3)")
    if len(seats) % teams:
        raise _Bad(f.seats_at, f"{len(seats)} seats cannot form {teams} equal sides (C-6, P-11.2)")
    for seat, tok in enumerate(f.seats):
        first = seat % teams
        if seats[seat] != seats[first]:
            raise _Bad(
                tok,
                f"seat {seat} plays {tok.text} but seat {first} plays {seats[first]}: with {teams} sides"
                f" seat s plays the colour of seat s mod {teams} (P-3)",
            )
    return seats


def _read_rules(f: _Fields, seats: str) -> Rules:
    """P-1 (plus the readable ``options`` line), resolved for the seats' players and sides."""
    assert f.variant is not None
    try:
        variant = Variant.parse(f.variant.text)
    except RulesError as exc:
        raise _Bad(f.variant, f"bad variant: {exc} (P-1)") from None
    variant = variant.with_overrides(_read_options(f.options, variant))
    players, teams = len(seats), len(set(seats))
    given = dict(variant.overrides)
    for name, want in (("players", players), ("teams", teams)):
        if name in given and given[name] != want:
            raise _Bad(f.variant, f"the variant sets {name}={given[name]} but the seats give {want} (P-1, P-3)")
    try:
        return variant.resolve(players, teams)
    except RulesError as exc:
        raise _Bad(f.variant, f"{exc} (P-11.2)") from None


def _read_options(options: list[_Tok], variant: Variant) -> dict[str, object]:
    """The readable ``options:`` items; an option may be set only once."""
    found: dict[str, object] = {}
    already = dict(variant.overrides)
    for tok in options:
        name, sep, text = tok.text.partition("=")
        if not sep or not name:
            raise _Bad(tok, f"bad option {tok.text!r}: expected name=value (P-1)")
        if name in found or name in already:
            raise _Bad(tok, f"option {name} is set twice")
        try:
            found[name] = parse_value(name, text)
        except RulesError as exc:
            raise _Bad(tok, f"{exc} (P-1)") from None
    return found


def _read_board(f: _Fields) -> tuple[str, ...]:
    """P-2 and P-11.1: one of ``* . b g r B G R`` per cell, ``*`` exactly on the corners."""
    assert len(f.board) == CELLS
    for cell, tok in enumerate(f.board):
        if len(tok.text) != 1 or tok.text not in BOARD_TOKENS:
            raise _Bad(tok, f"bad board token {tok.text!r} at {cell_name(cell)}: expected one of * . b g r B G R")
        if cell in CORNERS and tok.text != CORNER:
            raise _Bad(tok, f"corner {cell_name(cell)} must be * (P-11.1)")
        if cell not in CORNERS and tok.text == CORNER:
            raise _Bad(tok, f"* at {cell_name(cell)}: free corners are only a1, j1, a10, j10 (P-11.1)")
    return tuple(t.text for t in f.board)


def _read_turn_state(f: _Fields, seats: str, rules: Rules) -> tuple[int | None, bool, str | None]:
    """P-4, P-11.8: the seat to move and the used exchange, or the result of a finished game."""
    if f.result is not None:
        result = f.result.text
        if f.to_move is not None:
            raise _Bad(f.to_move, f"the game is over (result {result}), so nobody is to move (P-10)")
        if f.exchange is not None:
            raise _Bad(f.exchange, f"the game is over (result {result}), so no exchange is in progress")
        if result != "draw" and result not in seats:
            raise _Bad(f.result, f"result says {result} won, but nobody plays {result} (P-4)")
        return None, False, result
    if f.to_move is None:
        raise _Bad(f.head, "'to-move:' is required while the game is in progress (P-10)")
    seat = _read_counter(f.to_move, "to-move")
    if seat >= len(seats):
        raise _Bad(f.to_move, f"to-move {seat} is not a seat: seats are 0..{len(seats) - 1} (P-11.8)")
    if f.exchange is not None and rules.dead_card_exchanges_per_turn == 0:
        raise _Bad(f.exchange, "an exchange is marked as used, but dead_card_exchanges_per_turn=0 (P-11.8)")
    return seat, f.exchange is not None, None


def _read_counter(tok: _Tok | None, name: str) -> int:
    """P-9: a whole number 0..COUNTER_MAX (the core's 32-bit counters, RULES-NOTES);
    a missing readable counter is 0."""
    if tok is None:
        return 0
    if not _NUMBER.fullmatch(tok.text):
        raise _Bad(tok, f"{name} must be a whole number >= 0, not {_shown(tok.text)} (P-9)")
    value = _value(tok.text)
    if value > COUNTER_MAX:
        digits = tok.text if len(tok.text) <= 20 else tok.text[:20] + "..."
        raise _Bad(tok, f"{name} {digits} is out of range: at most {COUNTER_MAX} (P-9)")
    return value


def _value(digits: str) -> int:
    """The value of an ASCII digit string, saturated just past COUNTER_MAX.

    Every number in a position is small, so anything longer is out of range
    anyway; saturating keeps ``int()`` away from its digit limit (a ValueError
    that is not a PositionError) on a line of thousands of digits.
    """
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(COUNTER_MAX)) else COUNTER_MAX + 1


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short so that one bad token stays one short line."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _seat_entries(entries: dict[int, _List], sqn_field: _Tok | None, f: _Fields, what: str) -> list[_List]:
    """Exactly one entry per seat, in seat order (P-5, P-6, P-10).

    A missing entry is reported at the end of the SQN field, or (readable
    form, no field) at the seat's letter on the ``seats:`` line.
    """
    players = len(f.seats)
    for seat, entry in entries.items():
        if seat >= players:
            raise _Bad(entry.at, f"{what} for seat {seat}, but the seats are 0..{players - 1}")
    for seat in range(players):
        if seat not in entries:
            where = _end_of(sqn_field) if sqn_field is not None else f.seats[seat]
            raise _Bad(where, f"no {what} for seat {seat}: one per seat is required")
    return [entries[seat] for seat in range(players)]


def _read_hands(f: _Fields, rules: Rules) -> tuple[tuple[Hand, ...], list[_Tok]]:
    """P-5 and the hand-size half of P-11.7; also returns the known cards for P-11.6."""
    hands, known_tokens = [], []
    for seat, entry in enumerate(_seat_entries(f.hands, f.hands_at, f, "hand")):
        known, unknown = _read_cards(entry, rules.deck_cards, "hand", allow_unknown=True)
        size = len(known) + unknown
        limit = rules.hand_size + (rules.bonus_cards if seat == 0 else 0)  # bonus_cards: RULES-NOTES
        if size > limit:
            raise _Bad(entry.at, f"hand {seat} holds {size} cards; this variant's hand size is {limit} (P-11.7)")
        known_tokens += known
        hands.append(Hand(tuple(_sorted_codes((t.text for t in known), rules.deck_cards)), unknown))
    return tuple(hands), known_tokens


def _read_discards(f: _Fields, rules: Rules) -> list[list[_Tok]]:
    """P-6: one pile per seat, bottom first; discards are public, so no ``?``."""
    return [
        _read_cards(entry, rules.deck_cards, "discard pile", allow_unknown=False)[0]
        for entry in _seat_entries(f.discards, f.discards_at, f, "discard pile")
    ]


def _read_cards(entry: _List, deck: Deck, what: str, allow_unknown: bool) -> tuple[list[_Tok], int]:
    """A card list: codes, ``?``/``?N`` unknowns when allowed, or a lone ``-`` for none."""
    if not entry.items:
        raise _Bad(entry.at, f"empty {what}: write - for none")
    if [t.text for t in entry.items] == ["-"]:
        return [], 0
    known, unknown = [], 0
    for tok in entry.items:
        if tok.text == "-":
            raise _Bad(tok, f"- means an empty {what} and stands alone")
        if tok.text.startswith("?"):
            if not allow_unknown:
                raise _Bad(tok, f"the {what} is public: unknown cards (?) are not allowed here (P-6, D-5)")
            unknown += _unknown_count(tok)
        else:
            known.append(_card(tok, deck, f"a {what}"))
    return known, unknown


def _unknown_count(tok: _Tok) -> int:
    """``?`` is one unknown card, ``?N`` is N (P-5, P-15)."""
    if tok.text == "?":
        return 1
    digits = tok.text[1:]
    if not _NUMBER.fullmatch(digits) or _value(digits) < 1:
        raise _Bad(tok, f"bad unknown cards {tok.text!r}: write ? or ?N with N >= 1 (P-5)")
    return _value(digits)


def _card(tok: _Tok, deck: Deck, where: str) -> _Tok:
    """A card code of this deck, canonically spelt (``10h`` -> ``TH``, C-1)."""
    code = normalize_card(tok.text)
    try:
        deck.index(code)
    except KeyError:
        if tok.text.startswith("?"):
            raise _Bad(tok, f"unknown cards (?) are not allowed in {where}") from None
        sample = ", ".join(deck.codes[:3])
        raise _Bad(tok, f"{tok.text!r} is not a card of deck {deck.name} ({sample}, ..., {deck.codes[-1]})") from None
    return tok._replace(text=code)


def _sorted_codes(codes, deck: Deck) -> list[str]:
    """Canonical card order (P-5): the deck's own order."""
    return sorted(codes, key=deck.index)


def _read_sequences(f: _Fields, seats: str, board: tuple[str, ...], rules: Rules) -> tuple[tuple[str, int], ...]:
    """P-7 and P-11.3: straight five-cell windows of a seated colour, counting for it (C-24),
    and allowed by the overlap options (C-25) in the listed order."""
    done: dict[str, list[int]] = {}
    listed: list[tuple[str, int]] = []
    for tok in f.sequences:
        m = _SEQUENCE.fullmatch(tok.text)
        if not m:
            raise _Bad(tok, f"bad sequence {tok.text!r}: expected colour:end-end, e.g. b:a6-a10 (P-7)")
        colour = m.group(1).lower()
        try:
            window = parse_window(m.group(2))
        except ValueError as exc:
            raise _Bad(tok, f"{exc} (P-11.3)") from None
        if colour not in seats:
            raise _Bad(tok, f"sequence {window_name(window)} of {colour}, but nobody plays {colour} (P-11.3)")
        for cell in windows()[window]:
            if board[cell] != CORNER and board[cell].lower() != colour:
                raise _Bad(
                    tok,
                    f"sequence {colour} {window_name(window)}: {cell_name(cell)} holds {board[cell]!r},"
                    f" which does not count for {colour} (C-24, P-11.3)",
                )
        earlier = done.setdefault(colour, [])
        if not overlap_allows(window, earlier, rules):
            raise _Bad(
                tok,
                f"sequence {colour} {window_name(window)} overlaps the earlier {colour} sequences more than"
                f" overlap_max_shared={rules.overlap_max_shared},"
                f" overlap_reuse_limit={format_value(rules.overlap_reuse_limit)} allow (C-25, P-11.3)",
            )
        earlier.append(window)
        listed.append((colour, window))
    return tuple(listed)


def _check_locks(f: _Fields, sequences: tuple[tuple[str, int], ...]) -> None:
    """P-11.4: locked chips are exactly the non-corner cells of the listed sequences."""
    in_sequence = {cell: colour for colour, w in sequences for cell in windows()[w] if cell not in CORNERS}
    for cell, tok in enumerate(f.board):
        locked = tok.text.isupper()
        if locked and cell not in in_sequence:
            raise _Bad(tok, f"locked chip {tok.text} at {cell_name(cell)} is in no listed sequence (P-11.4)")
        if not locked and cell in in_sequence:
            colour = in_sequence[cell]
            raise _Bad(
                tok,
                f"{cell_name(cell)} is in a listed {colour} sequence, so its chip must be locked:"
                f" write {colour.upper()} (P-11.4)",
            )


def _check_wins(f: _Fields, sequences: tuple[tuple[str, int], ...], result: str | None, rules: Rules) -> None:
    """P-11.5: only the side the result names may have ``sequences_to_win`` sequences."""
    count: Counter[str] = Counter()
    for tok, (colour, _) in zip(f.sequences, sequences, strict=True):
        count[colour] += 1
        if count[colour] == rules.sequences_to_win and colour != result:
            if result is None:
                state = "the game is still in progress"
            elif result == "draw":
                state = "the result is a draw"
            else:
                state = f"the result says {COLOUR_NAMES[result]} won"
            raise _Bad(
                tok,
                f"{COLOUR_NAMES[colour]} has {count[colour]} sequences, enough to win"
                f" (sequences_to_win={rules.sequences_to_win}), but {state} (P-11.5)",
            )


def _read_draft(f: _Fields, rules: Rules) -> list[_Tok] | None:
    """D-5: the face-up draft, present exactly in the draft variant, at most ``draft_size`` cards."""
    if rules.draw_mode != "draft":
        if f.draft is not None:
            raise _Bad(f.draft.at, "a draft is recorded only with draw_mode=draft (D-5)")
        return None
    if f.draft is None:
        raise _Bad(
            f.head, "the draft variant records its draft: add a draft:CARDS field (SQN) or a 'draft:' line (D-5)"
        )
    cards, _ = _read_cards(f.draft, rules.deck_cards, "draft", allow_unknown=False)
    if len(cards) > rules.draft_size:
        raise _Bad(f.draft.at, f"draft of {len(cards)} cards; draft_size is {rules.draft_size} (D-5)")
    return cards


def _check_copies(cards: list[_Tok], deck: Deck) -> None:
    """P-11.6: no code more often than the deck holds it over all cards the file names."""
    seen: Counter[str] = Counter()
    for tok in cards:
        seen[tok.text] += 1
        if seen[tok.text] > deck.copies:
            raise _Bad(
                tok,
                f"card {tok.text} is named {seen[tok.text]} times over hands, discards, draw pile and draft;"
                f" the deck has {deck.copies} (P-11.6)",
            )


def _read_draw_count(
    f: _Fields,
    hands: tuple[Hand, ...],
    discards: list[list[_Tok]],
    draft: list[_Tok] | None,
    draw_cards: list[_Tok] | None,
    deck: Deck,
) -> int:
    """P-8, P-15 and the total of P-11.7: hands + discards + draw (+ draft) = deck size."""
    held = sum(len(h) for h in hands) + sum(len(p) for p in discards) + len(draft or ())
    what = "hands, discards and draft" if draft is not None else "hands and discards"
    if f.draw is None:  # readable form without draw: (P-15)
        if held > deck.size:
            raise _Bad(f.head, f"{what} hold {held} cards, more than the {deck.size} of the deck (P-11.7)")
        return deck.size - held
    count = _read_counter(f.draw, "draw")
    if draw_cards is not None and len(draw_cards) != count:
        raise _Bad(f.draw, f"the draw pile has {count} cards but {len(draw_cards)} are listed (P-8)")
    if held + count != deck.size:
        raise _Bad(
            f.draw,
            f"{what} hold {held} cards and the draw pile {count}: {held + count} in all,"
            f" but the deck has {deck.size} (P-11.7)",
        )
    return count


# ---------------------------------------------------------------------------
# Writing (canonical forms)


def to_sqn(pos: Position) -> str:
    """The canonical SQN line of ``pos`` (§5.1, P-2, P-5, P-15), without a newline.

    Empty runs are digits, hands are sorted canonically with unknown cards
    last as ``?N``, and the variant names only the options that differ from
    its preset.  A draft position gets the D-5 ``draft:`` field.
    """
    deck = pos.rules.deck_cards
    fields = [
        str(pos.rules.variant),
        "/".join(_sqn_row_text(pos.board[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)),
        pos.seats,
        _sqn_turn_text(pos),
        "/".join(",".join(_hand_items(h, deck)) or "-" for h in pos.hands),
        "/".join(",".join(pile) or "-" for pile in pos.discards),
        ",".join(f"{c}:{window_name(w)}" for c, w in pos.sequences) or "-",
        str(pos.draw_count) + ("" if pos.draw_cards is None else ":" + ",".join(pos.draw_cards)),
        str(pos.turn),
        str(pos.stall),
    ]
    if pos.draft is not None:
        fields.append("draft:" + (",".join(_sorted_codes(pos.draft, deck)) or "-"))
    return " ".join(fields)


def _sqn_row_text(cells: tuple[str, ...]) -> str:
    """One P-2 row: runs of empty cells become their length."""
    out, run = [], 0
    for token in cells:
        if token == EMPTY:
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(token)
    if run:
        out.append(str(run))
    return "".join(out)


def _sqn_turn_text(pos: Position) -> str:
    if pos.result is not None:
        return "!=" if pos.result == "draw" else f"!{pos.result}"
    return f"{pos.to_move}{'x' if pos.exchange_used else ''}"


def _hand_items(hand: Hand, deck: Deck) -> list[str]:
    """Known cards canonically sorted, then the unknown ones as one ``?N`` (P-5, P-15)."""
    items = _sorted_codes(hand.known, deck)
    if hand.unknown:
        items.append(f"?{hand.unknown}")
    return items


def to_readable(pos: Position) -> str:
    """The canonical readable form of ``pos`` (§5.2), laid out as the §5.5 examples.

    Optional lines appear only when they carry information: ``options:``
    when the variant has overrides, ``exchange-used: yes`` when it is used,
    ``turn:`` and ``stall:`` (as a pair) unless both are 0, ``result:``
    instead of ``to-move:`` once the game is over.  Ends with a newline.
    """
    deck = pos.rules.deck_cards
    variant = pos.rules.variant
    lines = [HEADER, f"variant: {variant.preset}"]
    if variant.overrides:
        lines.append("options: " + ", ".join(f"{k}={format_value(v)}" for k, v in variant.overrides))
    lines.append("seats: " + " ".join(pos.seats))
    lines.append(f"to-move: {pos.to_move}" if pos.result is None else f"result: {pos.result}")
    if pos.exchange_used:
        lines.append("exchange-used: yes")
    if pos.turn or pos.stall:
        lines += [f"turn: {pos.turn}", f"stall: {pos.stall}"]
    lines.append("board:")
    lines.append("      " + " ".join(COLUMNS))
    for r in range(SIZE):
        lines.append(f"{r + 1:>4}  " + " ".join(pos.board[r * SIZE : (r + 1) * SIZE]))
    lines.append("sequences: " + (", ".join(f"{c} {window_name(w)}" for c, w in pos.sequences) or "-"))
    lines += [f"hand {s}: " + (" ".join(_hand_items(h, deck)) or "-") for s, h in enumerate(pos.hands)]
    lines += [f"discard {s}: " + (" ".join(pile) or "-") for s, pile in enumerate(pos.discards)]
    draw = f"draw: {pos.draw_count}"
    if pos.draw_cards is not None:
        draw = f"{draw} : {' '.join(pos.draw_cards)}".rstrip()
    lines.append(draw)
    if pos.draft is not None:
        lines.append("draft: " + (" ".join(_sorted_codes(pos.draft, deck)) or "-"))
    return "\n".join(lines) + "\n"


def position_to_dict(pos: Position) -> dict:
    """Every field of ``pos`` as JSON-able data (for ``--json`` output).

    Unknown hand cards are ``"?"``; sequences are P-7 strings; option values
    are numbers, booleans or strings (``"unlimited"`` for no limit).
    """
    deck = pos.rules.deck_cards
    variant = pos.rules.variant
    return {
        "variant": str(variant),
        "options": {k: "unlimited" if v == UNLIMITED else v for k, v in variant.overrides},
        "players": pos.rules.players,
        "teams": pos.rules.teams,
        "seats": pos.seats,
        "to_move": pos.to_move,
        "exchange_used": pos.exchange_used,
        "result": pos.result,
        "turn": pos.turn,
        "stall": pos.stall,
        "board": ["".join(pos.board[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)],
        "hands": [_sorted_codes(h.known, deck) + ["?"] * h.unknown for h in pos.hands],
        "discards": [list(pile) for pile in pos.discards],
        "sequences": [f"{c}:{window_name(w)}" for c, w in pos.sequences],
        "draw_count": pos.draw_count,
        "draw_cards": None if pos.draw_cards is None else list(pos.draw_cards),
        "draft": None if pos.draft is None else _sorted_codes(pos.draft, deck),
        "sqn": to_sqn(pos),
    }
