"""What every game's position files share (RULES.md §5, docs/stacks.md "Position
files"): located tokens, comments, the header, and the rule that the first
meaningful line decides between the one-line form and the readable one.

Each game cuts its own fields out of the text; keeping the tokens, their
splitting and the rejection here means a problem in a position file is located
and worded one way, whichever game the file holds, and no game reads another's
folder to get them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from .base import PositionError

HEADER = "seqsolve-position 1"
# The largest turn or stall counter (P-9): the cores keep their counters in 32 bits,
# so readers refuse more and no turn may end that would pass it (RULES-NOTES, "Counters").
COUNTER_MAX = 2**31 - 1
MAX_MESSAGE = 300  # characters of a rejection's message; the line and column say where the rest is
DIGITS = re.compile(r"[0-9]+")

_COMMENT = re.compile(r"(?:^|(?<=[ \t]))#")
_ITEM = re.compile(r"[^\s,]+")
_WORD = re.compile(r"\S+")

Fields = TypeVar("Fields")


class Tok(NamedTuple):
    """A piece of the input and where it starts (1-based line and column)."""

    text: str
    line: int
    col: int


class BadToken(Exception):
    """Internal: a rejection at a token; :func:`position_error` adds the source name."""

    def __init__(self, at: Tok, message: str) -> None:
        super().__init__(message)
        self.at = at
        self.message = message


def position_error(bad: BadToken, source: str) -> PositionError:
    """The public error for a rejection, its message cut to MAX_MESSAGE: a huge token
    quoted whole would make one huge line."""
    message = bad.message if len(bad.message) <= MAX_MESSAGE else bad.message[:MAX_MESSAGE] + "..."
    return PositionError(source, bad.at.line, bad.at.col, message)


def split_items(tok: Tok) -> list[Tok]:
    """Split a list value on blanks and/or commas (P-10), keeping columns."""
    return [Tok(m.group(), tok.line, tok.col + m.start()) for m in _ITEM.finditer(tok.text)]


def split_words(tok: Tok) -> list[Tok]:
    """Split on blanks only (one-line fields, board rows), keeping columns."""
    return [Tok(m.group(), tok.line, tok.col + m.start()) for m in _WORD.finditer(tok.text)]


def split_pieces(tok: Tok, sep: str) -> list[Tok]:
    """Split on ``sep`` keeping empty pieces, so that a missing entry can be reported."""
    out, col = [], tok.col
    for piece in tok.text.split(sep):
        out.append(Tok(piece, tok.line, col))
        col += len(piece) + len(sep)
    return out


def token_after(tok: Tok, offset: int) -> Tok:
    """The part of ``tok`` from ``offset`` on, with its column."""
    return Tok(tok.text[offset:], tok.line, tok.col + offset)


def end_of(tok: Tok) -> Tok:
    """An empty token just past ``tok``: where something missing should have been."""
    return Tok("", tok.line, tok.col + len(tok.text))


def check_field_count(words: list[Tok], names: tuple[str, ...], line_form: str) -> None:
    """Refuse a one-line form (SQN, STN) whose field count is not ``len(names)``: a short
    line at its end, naming the first missing field; a long one at the first extra field."""
    if len(words) < len(names):
        raise BadToken(
            end_of(words[-1]),
            f"{line_form} has {len(words)} fields, expected {len(names)}: "
            f"the {names[len(words)]} field is missing ({' '.join(names)})",
        )
    if len(words) > len(names):
        raise BadToken(
            words[len(names)], f"unexpected field {words[len(names)].text!r} after the {names[-1]} field"
        )


def number_value(digits: str) -> int:
    """The value of an ASCII digit string, saturated just past COUNTER_MAX.

    Every number in a position is small, so anything longer is out of range
    anyway; saturating keeps ``int()`` away from its digit limit (a ValueError
    that is not a PositionError) on a line of thousands of digits.
    """
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(COUNTER_MAX)) else COUNTER_MAX + 1


def strip_comment(line: str) -> str:
    """Cut a ``#`` comment: one that starts the line or follows a blank (P-10)."""
    m = _COMMENT.search(line)
    return line[: m.start()] if m else line


def key_and_value(lineno: int, text: str) -> tuple[Tok, Tok] | None:
    """A readable ``key: value`` line, located, its key lower case with blanks collapsed;
    None for a blank line or an ``x-`` key, which belongs to other tools (P-10)."""
    if not text.strip():
        return None
    indent = len(text) - len(text.lstrip())
    colon = text.find(":")
    if colon < 0:
        raise BadToken(
            Tok(text.strip(), lineno, indent + 1), f"expected 'key: value', found {text.strip()!r} (P-10)"
        )
    key = Tok(" ".join(text[:colon].lower().split()), lineno, indent + 1)
    raw = text[colon + 1 :]
    value = Tok(raw.strip(), lineno, colon + 2 + len(raw) - len(raw.lstrip()))
    return None if key.text.startswith("x-") else (key, value)


def note_key(seen: dict[str, int], key: Tok, repeatable: tuple[str, ...] = ()) -> None:
    """Refuse a key given twice (unless ``repeatable``), remembering the line of each."""
    if key.text in seen and key.text not in repeatable:
        raise BadToken(key, f"duplicate key {key.text!r} (first on line {seen[key.text]})")
    seen[key.text] = key.line


def parse_either_form(
    text: str,
    line_form: str,
    parse_line: Callable[[list[Tok]], Fields],
    parse_readable: Callable[[list[tuple[int, str]], Tok], Fields],
) -> Fields:
    """A game's fields from either form; the first meaningful line decides which.

    ``line_form`` names the game's one-line form in messages (SQN, STN);
    ``parse_line`` gets that line's blank-separated words, ``parse_readable`` the
    (line number, text) pairs after the header, comments cut, and the header's token.
    """
    lines = [(n, strip_comment(raw)) for n, raw in enumerate(text.splitlines(), 1)]
    meaningful = [(i, n, t) for i, (n, t) in enumerate(lines) if t.strip()]
    if not meaningful:
        raise BadToken(Tok("", 1, 1), f"empty position: expected an {line_form} line or {HEADER!r}")
    index, lineno, first = meaningful[0]
    words = split_words(Tok(first, lineno, 1))
    if words[0].text.startswith("{"):
        raise BadToken(
            words[0],
            f"a position as JSON (what convert --to json writes) is not read back: give its {line_form.lower()!r}"
            f" field, the {line_form} line, or the readable form",
        )
    if words[0].text.lower() == "seqsolve-position":
        if [w.text for w in words[1:]] != ["1"]:
            raise BadToken(words[0], f"unsupported header {first.strip()!r}: expected {HEADER!r}")
        return parse_readable(lines[index + 1 :], words[0])
    if len(meaningful) > 1:
        _, n, extra = meaningful[1]
        raise BadToken(
            Tok(extra, n, len(extra) - len(extra.lstrip()) + 1),
            f"unexpected text after the {line_form} line: a file holds one position",
        )
    return parse_line(words)
