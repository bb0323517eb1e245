"""Drawing a position for people: the board with its card labels, and the rest as labelled lines.

Chips are drawn so that the picture reads without colour: ``(b)`` is an unlocked
blue chip, ``[B]`` a blue chip locked in a completed sequence, ``*`` a free
corner, and an empty cell shows the card that claims it (``5H``).  With
``color=True`` chips also get their colour (ANSI escapes) and empty cells are
dimmed; callers decide (``seqsolve show`` does it for a terminal unless
``NO_COLOR`` is set).  The cells of the last moves (``seqsolve play`` shows where a
bot's move landed) stand between ``>`` and ``<``, and are underlined in colour.

>>> from seqsolve.games.sequence.notation import parse_position
>>> pos = parse_position("classic *8*/b9/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
>>> print(draw_board(pos).splitlines()[2])
   2  (b)  5C  4C  3C  2C  AH  KH  QH  TH  TS
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..render import draw_pile_line, legal_lines
from .board import COLUMNS, SIZE, window_name
from .position import COLOUR_NAMES, CORNER, EMPTY, Position

__all__ = ["COLOUR_NAMES", "draw_board", "render_position", "style"]


# SGR codes: chips on their colour's background; locked chips also bold.
_CHIP_STYLE = {"b": "97;44", "g": "30;42", "r": "97;41"}
_DIM = "2"
_BOLD = "1"
_UNDERLINE = "4"


def style(text: str, sgr: str, color: bool) -> str:
    """Wrap ``text`` in an ANSI SGR escape when ``color`` is on.

    >>> style("x", "1", False), style("x", "1", True)
    ('x', '\\x1b[1mx\\x1b[0m')
    """
    return f"\x1b[{sgr}m{text}\x1b[0m" if color else text


def _cell(token: str, label: str, color: bool, marked: bool = False) -> str:
    mark = ";" + _UNDERLINE if marked else ""
    if token == CORNER:
        return " * "
    if token == EMPTY:
        return style(f"{label:>3}", _DIM + mark, color)
    colour = token.lower()
    glyph = f"[{token}]" if token.isupper() else f"({token})"
    sgr = _CHIP_STYLE[colour] + (";" + _BOLD if token.isupper() else "") + mark
    return style(glyph, sgr, color)


def draw_board(pos: Position, color: bool = False, marks: Iterable[int] = ()) -> str:
    """The 10×10 board with column letters and row numbers (RULES.md §1.2 coordinates),
    the cells ``marks`` between ``>`` and ``<`` (the separators beside them, so columns stay put).

    >>> from seqsolve.games.sequence.notation import parse_position
    >>> board = parse_position("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
    >>> print(draw_board(board, marks=[11]).splitlines()[2])
       2   6C> 5C< 4C  3C  2C  AH  KH  QH  TH  TS
    """
    labels = pos.rules.layout.labels
    marked = set(marks)
    lines = ["       " + "   ".join(COLUMNS)]
    for r in range(SIZE):
        row = f"{r + 1:>4} "
        for c in range(SIZE):
            cell = r * SIZE + c
            before = ">" if cell in marked else "<" if c and cell - 1 in marked else " "
            row += before + _cell(pos.board[cell], labels[cell], color, cell in marked)
        if r * SIZE + SIZE - 1 in marked:
            row += "<"
        lines.append(row.rstrip())
    return "\n".join(lines)


def _seat(pos: Position, seat: int, color: bool) -> str:
    colour = pos.seats[seat]
    return f"seat {seat} ({style(COLOUR_NAMES[colour], _CHIP_STYLE[colour], color)})"


def _cards(known: Iterable[str], unknown: int = 0) -> str:
    items = list(known) + ([f"?{unknown}"] if unknown else [])
    return " ".join(items) if items else "-"


def render_position(
    pos: Position,
    legal: Sequence[str] | None = None,
    color: bool = False,
    notes: Sequence[str] = (),
    marks: Iterable[int] = (),
) -> str:
    """The board and every field of ``pos`` as text; ``legal`` lists the mover's turns (P-13).

    ``notes`` are extra ``(label, text)``-style lines (already formatted) shown
    after the result, e.g. how a random game ended; ``marks`` the cells drawn
    marked (:func:`draw_board`).  Ends with a newline.
    """
    rules = pos.rules
    lines = [draw_board(pos, color, marks), ""]
    lines.append(
        f"variant    {rules.variant}  ({rules.players} players, {rules.teams} sides,"
        f" {rules.sequences_to_win} sequence{'s' if rules.sequences_to_win != 1 else ''} to win)"
    )
    lines.append("seats      " + "  ".join(f"{s}:{c}" for s, c in enumerate(pos.seats)))
    if pos.result is not None:
        if pos.result == "draw":
            lines.append("result     draw")
        else:
            name = style(COLOUR_NAMES[pos.result], _CHIP_STYLE[pos.result], color)
            lines.append(f"result     {name} wins")
    else:
        extra = ", dead-card exchange made: must play" if pos.exchange_used else ""
        lines.append(f"to move    {_seat(pos, pos.to_move, color)}{extra}")  # type: ignore[arg-type]
    lines.extend(notes)
    lines.append(f"turn       {pos.turn}  (stall {pos.stall})")
    if pos.sequences:
        counts = "  ".join(
            f"{COLOUR_NAMES[c]} {sum(1 for s, _ in pos.sequences if s == c)}" for c in pos.sides
        )
        listed = ", ".join(f"{c}:{window_name(w)}" for c, w in pos.sequences)
        lines.append(f"sequences  {listed}  ({counts})")
    else:
        lines.append("sequences  -")
    for seat, hand in enumerate(pos.hands):
        lines.append(f"hand {seat}:{pos.seats[seat]}     {_cards(hand.known, hand.unknown)}")
    for seat, pile in enumerate(pos.discards):
        top = f"  (top {pile[-1]}, {len(pile)} cards)" if pile else ""
        lines.append(f"discard {seat}:{pos.seats[seat]}  {_cards(pile)}{top}")
    if pos.draft is not None:
        lines.append(f"draft      {_cards(pos.draft)}")
    lines.append(draw_pile_line(pos.draw_count, pos.draw_cards))
    lines.extend(legal_lines(legal, pos.result, "the mover's hand is not known here"))
    return "\n".join(lines) + "\n"
