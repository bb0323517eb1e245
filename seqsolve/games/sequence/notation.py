"""Position files (RULES.md §5): the one-line SQN form and the readable form.

Reading is done in two steps so that every rejection can point at the text
that caused it: :mod:`.position_syntax` only cuts the text into fields of located
tokens, :mod:`.position_checks` interprets them and runs the P-11 checks, the same
code for both forms; here are the entry points, which turn a rejection into a
:class:`PositionError` naming the source, line and column.  Writers emit the
canonical spellings (P-2, P-5, P-15) in the layout of the §5.5 worked examples.

>>> pos = parse_position("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
>>> pos.hands[1].unknown, pos.draw_count
(7, 90)
>>> to_sqn(pos)
'classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0'
"""

from __future__ import annotations

import os

from ..base import PositionArgumentError, PositionError
from ..files import MAX_FILE_BYTES, read_stream_text, read_text, text_of
from ..position_syntax import HEADER, BadToken, position_error
from .board import COLUMNS, CORNERS, SIZE, window_name, windows
from .cards import Deck
from .position import COLOURS, CORNER, COUNTER_MAX, EMPTY, Hand, Position
from .position_checks import build_position
from .position_syntax import parse_fields
from .rules import UNLIMITED, Rules, format_value

__all__ = [
    "MAX_FILE_BYTES",
    "PositionError",
    "check_built_position",
    "parse_position",
    "parse_position_bytes",
    "position_to_dict",
    "read_position",
    "read_position_stream",
    "to_readable",
    "to_sqn",
]


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
        return build_position(parse_fields(text))
    except BadToken as bad:
        raise position_error(bad, source) from None


def read_position(path: str | os.PathLike[str]) -> Position:
    """Read a position file (see :func:`seqsolve.games.files.read_text`)."""
    return parse_position(read_text(path), os.fspath(path))


def read_position_stream(stream, source: str = "<stdin>") -> Position:
    """Read a position from an open stream (standard input), with the limits of a file."""
    return parse_position(read_stream_text(stream, source), source)


def parse_position_bytes(data: bytes, source: str) -> Position:
    """A position file's bytes (see :func:`seqsolve.games.files.text_of`)."""
    return parse_position(text_of(data, source), source)


def check_built_position(pos: Position, source: str = "Position") -> None:
    """Refuse a :class:`Position` a program built field by field whose fields the engine
    cannot take: a value of the wrong type, a card the deck does not have, a colour of no
    side, a seat or window that does not exist, a counter out of range.

    This is not the P-11 check of a file: a built position may hold part of a deck (the
    rule tests build small positions so), and the engine plays it as given.  Text, or
    :func:`seqsolve.make_state`, gets every P-11 check.

    Raises:
        PositionArgumentError: one line naming the field at fault.
    """
    problem = _shape_problem(pos) or _name_problem(pos)
    if problem:
        raise PositionArgumentError(source, problem)


def _shape_problem(pos: Position) -> str | None:
    """What is not the type the :class:`Position` fields declare, or None."""

    def texts(value, name: str, size: int | None = None) -> str | None:
        if not isinstance(value, (tuple, list)) or not all(isinstance(v, str) for v in value):
            return f"{name} must be a tuple of strings, not {_shown(value)}"
        if size is not None and len(value) != size:
            return f"{name} must hold {size} entries, not {len(value)}"
        return None

    def per_seat(value, name: str, optional: bool) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, (tuple, list)):
            return f"{name} must be a tuple with one entry per seat, not {_shown(value)}"
        return next((p for i, v in enumerate(value) if (p := texts(v, f"{name}[{i}]"))), None)

    def counter(value, name: str) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{name} must be an int, not {_shown(value)}"
        return None

    if not isinstance(pos.rules, Rules):
        return f"rules must be a Rules (seqsolve.parse_rules), not {_shown(pos.rules)}"
    if not isinstance(pos.seats, str):
        return f"seats must be a string of colour letters, not {_shown(pos.seats)}"
    if problem := texts(pos.board, "board", len(COLUMNS) * SIZE):
        return problem
    if pos.to_move is not None and (problem := counter(pos.to_move, "to_move")):
        return problem
    if not isinstance(pos.hands, (tuple, list)) or not all(isinstance(h, Hand) for h in pos.hands):
        return f"hands must be a tuple of Hand, one per seat, not {_shown(pos.hands)}"
    for i, hand in enumerate(pos.hands):
        if problem := texts(hand.known, f"hands[{i}].known") or counter(hand.unknown, f"hands[{i}].unknown"):
            return problem
    if problem := per_seat(pos.discards, "discards", optional=False):
        return problem
    if not isinstance(pos.sequences, (tuple, list)) or not all(
        isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str) and s[1] in range(len(windows()))
        for s in pos.sequences
    ):
        return (
            f"sequences must be a tuple of (colour, window number 0..191) pairs, not {_shown(pos.sequences)}"
        )
    for name in ("draw_count", "turn", "stall"):
        if problem := counter(getattr(pos, name), name):
            return problem
    if pos.draw_cards is not None and (problem := texts(pos.draw_cards, "draw_cards")):
        return problem
    if pos.draft is not None and (problem := texts(pos.draft, "draft")):
        return problem
    if not isinstance(pos.exchange_used, bool):
        return f"exchange_used must be True or False, not {_shown(pos.exchange_used)}"
    if pos.result is not None and not isinstance(pos.result, str):
        return f"result must be a colour letter, 'draw' or None, not {_shown(pos.result)}"
    return per_seat(pos.takes, "takes", optional=True) or per_seat(
        pos.last_turns, "last_turns", optional=True
    )


def _name_problem(pos: Position) -> str | None:
    """A name in a well-typed position that the rules do not know, or None."""
    rules = pos.rules
    if len(pos.seats) != rules.players or set(pos.seats) - set(COLOURS):
        return f"seats must be {rules.players} colour letters of {COLOURS!r}, not {pos.seats!r}"
    sides = pos.seats[: rules.teams]
    if pos.to_move is not None and not 0 <= pos.to_move < rules.players:
        return f"to_move must be a seat 0..{rules.players - 1} or None, not {pos.to_move}"
    if pos.to_move is None and pos.result is None:
        return "a position with no seat to move (to_move None) must give its result"
    if pos.result is not None and pos.result != "draw" and pos.result not in sides:
        return f"result must be a side's colour of {sides!r}, 'draw' or None, not {pos.result!r}"
    for name in ("hands", "discards"):
        if len(getattr(pos, name)) != rules.players:
            return f"{name} must hold one entry per seat ({rules.players}), not {len(getattr(pos, name))}"
    for name, count in (("draw_count", pos.draw_count), ("turn", pos.turn), ("stall", pos.stall)):
        if not 0 <= count <= COUNTER_MAX:
            return f"{name} must be 0..{COUNTER_MAX}, not {count}"
    tokens = set(pos.board) - {EMPTY, CORNER}
    if any(t.lower() not in sides for t in tokens):
        return f"board holds {sorted(tokens)}: a chip must be a side's colour of {sides!r} (or locked, upper case)"
    if any((pos.board[c] == CORNER) != (c in CORNERS) for c in range(len(pos.board))):
        return "board must hold '*' on the four corners and only there (P-2)"
    if any(colour not in sides for colour, _ in pos.sequences):
        return f"sequences must name a side's colour of {sides!r}"
    codes = set(rules.deck_cards.codes)
    cards = [("hands", c) for h in pos.hands for c in h.known] + [
        ("discards", c) for pile in pos.discards for c in pile
    ]
    cards += [("draw_cards", c) for c in pos.draw_cards or ()] + [("draft", c) for c in pos.draft or ()]
    cards += [("takes", c) for t in pos.takes or () for c in t]
    bad = next(((name, c) for name, c in cards if c not in codes), None)
    if bad:
        return f"{bad[0]} holds {bad[1]!r}, not a card of deck {rules.deck}"
    if any(h.unknown < 0 for h in pos.hands):
        return "a hand's unknown count must be >= 0"
    for name in ("takes", "last_turns"):
        value = getattr(pos, name)
        if value is not None and len(value) != rules.players:
            return f"{name} must hold one entry per seat ({rules.players}) or be None"
    return None


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
        fields.append("draft:" + (",".join(deck.in_order(pos.draft)) or "-"))
    if pos.takes is not None:
        fields.append("takes:" + "/".join(",".join(t) or "-" for t in pos.takes))
    if pos.last_turns is not None:
        fields.append("last:" + "/".join(",".join(t) or "-" for t in pos.last_turns))
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
    items = deck.in_order(hand.known)
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
        lines.append("draft: " + (" ".join(deck.in_order(pos.draft)) or "-"))
    lines += [f"take {s}: " + " ".join(t) for s, t in enumerate(pos.takes or ()) if t]
    lines += [f"last {s}: " + " ".join(t) for s, t in enumerate(pos.last_turns or ()) if t]
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
        "hands": [deck.in_order(h.known) + ["?"] * h.unknown for h in pos.hands],
        "discards": [list(pile) for pile in pos.discards],
        "sequences": [f"{c}:{window_name(w)}" for c, w in pos.sequences],
        "draw_count": pos.draw_count,
        "draw_cards": None if pos.draw_cards is None else list(pos.draw_cards),
        "draft": None if pos.draft is None else deck.in_order(pos.draft),
        "takes": [list(t) for t in pos.takes] if pos.takes is not None else None,
        "last_turns": [" ".join(t) or None for t in pos.last_turns] if pos.last_turns is not None else None,
        "sqn": to_sqn(pos),
    }
