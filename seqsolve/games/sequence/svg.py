"""A Sequence position as a picture: the board with its card faces, the chips, the
locked chips and completed sequences, the coordinates of RULES.md §1.2, and marks
on given turns with their labels (an analysis' win chances).

The picture is composed once, as a list of :class:`~seqsolve.games.drawing.Shape` in
pixel coordinates, and written as SVG text (:func:`position_svg`) or as a PNG drawn by
matplotlib (:func:`position_png`) by the writers every game's pictures share
(:mod:`seqsolve.games.drawing`), so the two pictures never disagree.

Each element of the SVG says what it stands for in its ``class`` and ``data-``
attributes (``chip`` with ``data-cell``/``data-colour``/``data-locked``,
``sequence`` with ``data-window``, ``mark`` and ``mark-label`` with ``data-move``),
so that a program (or a test) can read the position back from the picture.

>>> from seqsolve.games.sequence.notation import parse_position
>>> pos = parse_position("classic *8*/b9/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
>>> svg = position_svg(pos, [{"move": "5C@b2", "label": "61%"}])
>>> svg.count('class="chip"'), svg.count('class="mark"'), ">61%<" in svg
(1, 1, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..drawing import INK, SUIT_RED, Shape, mark_line, shapes_png, shapes_svg
from ..drawing import text as _text
from .board import COLUMNS, SIZE, cell_name, window_name, windows
from .cards import RANKS, SUITS
from .moves import MoveKind, parse_turn
from .position import COLOUR_NAMES, CORNER, EMPTY, Position

__all__ = ["Shape", "position_png", "position_shapes", "position_svg"]

CELL = 60  # pixels per cell
MARGIN = 26  # room for the coordinates around the board
LINE = 18  # one caption line
CHIP_COLOURS = {"b": "#1f5fbf", "g": "#2e8b3e", "r": SUIT_RED}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = "HD"


def _centre(cell: int) -> tuple[float, float]:
    row, col = divmod(cell, SIZE)
    return MARGIN + (col + 0.5) * CELL, MARGIN + (row + 0.5) * CELL


def card_face(label: str) -> tuple[str, str, str]:
    """A cell's label as the card face prints it: corner index, centre symbol, ink.

    >>> card_face("TH"), card_face("QS")[0], card_face("N17")
    (('10\u2665', '\u2665', '#c0392b'), 'Q\u2660', ('N17', '', '#222222'))
    """
    if len(label) == 2 and label[0] in RANKS and label[1] in SUITS:
        rank = "10" if label[0] == "T" else label[0]
        symbol = SUIT_SYMBOLS[label[1]]
        return f"{rank}{symbol}", symbol, CHIP_COLOURS["r"] if label[1] in RED_SUITS else INK
    return label, "", INK  # Sequence Numbers' stand-ins, a layout file's own labels


def _cell_shapes(cell: int, label: str) -> list[Shape]:
    row, col = divmod(cell, SIZE)
    x, y = MARGIN + col * CELL, MARGIN + row * CELL
    cx, cy = _centre(cell)
    name = cell_name(cell)
    if label == CORNER:  # a free corner counts for every side (C-24): a star, never a chip
        return [
            Shape(
                "rect",
                {
                    "x": x + 2,
                    "y": y + 2,
                    "width": CELL - 4,
                    "height": CELL - 4,
                    "rx": 5,
                    "fill": "#efe3bf",
                    "stroke": "#9a8a5a",
                    "stroke-width": 1,
                },
                cls="corner",
                data={"cell": name},
            ),
            _text(cx, cy + 9, "\u2605", 26, "#9a8a5a"),
        ]
    index, symbol, ink = card_face(label)
    shapes = [
        Shape(
            "rect",
            {
                "x": x + 2,
                "y": y + 2,
                "width": CELL - 4,
                "height": CELL - 4,
                "rx": 5,
                "fill": "#fffdf6",
                "stroke": "#b8b2a0",
                "stroke-width": 1,
            },
            cls="card",
            data={"cell": name, "card": label},
        ),
        _text(x + 5, y + 15, index, 12, ink, "start"),
        _text(x + CELL - 5, y + CELL - 6, index, 12, ink, "end"),
    ]
    if symbol:
        shapes.append(_text(cx, cy + 9, symbol, 26, ink, opacity=0.35))
    return shapes


def _chip_shapes(cell: int, token: str) -> list[Shape]:
    cx, cy = _centre(cell)
    colour = token.lower()
    locked = token.isupper()
    shapes = [
        Shape(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": 0.33 * CELL,
                "fill": CHIP_COLOURS[colour],
                "stroke": INK,
                "stroke-width": 1.5,
            },
            cls="chip",
            data={"cell": cell_name(cell), "colour": colour, "locked": "true" if locked else "false"},
        ),
    ]
    if locked:  # a chip of a completed sequence (C-27): a white ring inside it
        shapes.append(
            Shape(
                "circle",
                {
                    "cx": cx,
                    "cy": cy,
                    "r": 0.19 * CELL,
                    "fill": "none",
                    "stroke": "#ffffff",
                    "stroke-width": 3,
                },
                cls="lock",
                data={"cell": cell_name(cell)},
            )
        )
    return shapes


def _sequence_shape(colour: str, window: int) -> Shape:
    cells = windows()[window]
    (x1, y1), (x2, y2) = _centre(cells[0]), _centre(cells[-1])
    return Shape(
        "line",
        {
            "x1": x1,
            "y1": y1,
            "x2": x2,
            "y2": y2,
            "stroke": CHIP_COLOURS[colour],
            "stroke-width": 8,
            "stroke-linecap": "round",
            "opacity": 0.6,
        },
        cls="sequence",
        data={"colour": colour, "window": window_name(window)},
    )


def _coordinates() -> list[Shape]:
    """Column letters above and below, row numbers left and right (a1 top left)."""
    far = MARGIN + SIZE * CELL
    shapes = []
    for k in range(SIZE):
        x = MARGIN + (k + 0.5) * CELL
        y = MARGIN + (k + 0.5) * CELL + 5
        shapes += [
            _text(x, MARGIN - 8, COLUMNS[k], 14),
            _text(x, far + 18, COLUMNS[k], 14),
            _text(MARGIN / 2, y, str(k + 1), 14),
            _text(far + MARGIN / 2, y, str(k + 1), 14),
        ]
    return shapes


def _played_cell(move: str) -> tuple[int | None, MoveKind]:
    """The cell a turn's play lands on (None for a pass or a bare exchange), and its kind."""
    play = parse_turn(move)[-1]
    return play.cell, play.kind


def _mark_shapes(pos: Position, marks: Sequence[dict]) -> tuple[list[Shape], list[dict]]:
    """Each mark as a ring on the cell its play lands on, with its label below the cell's
    centre (labels of one cell stacked); a mark without a cell goes to the caption."""
    colour = CHIP_COLOURS.get(pos.seats[pos.to_move], INK) if pos.to_move is not None else INK
    on_board: list[Shape] = []
    off_board: list[dict] = []
    stacked: dict[int, int] = {}
    for mark in marks:
        move, label = str(mark["move"]), str(mark.get("label", ""))
        cell, kind = _played_cell(move)
        data = {"move": move, "label": label}
        if cell is None:
            off_board.append(data)
            continue
        cx, cy = _centre(cell)
        removal = kind is MoveKind.REMOVE
        k = stacked.get(cell, 0)
        stacked[cell] = k + 1
        if k == 0:
            ring = {
                "cx": cx,
                "cy": cy,
                "r": 0.45 * CELL,
                "fill": "none",
                "stroke": INK if removal else colour,
                "stroke-width": 3.5,
                "stroke-dasharray": "5 3" if removal else "none",
            }
        else:  # the same cell again (an exchange and the play after it): one ring shows both
            ring = {"cx": cx, "cy": cy, "r": 0.45 * CELL, "fill": "none", "stroke": "none", "stroke-width": 0}
        on_board.append(Shape("circle", ring, cls="mark", data={**data, "cell": cell_name(cell)}))
        width = 7 * len(label) + 8
        top = cy + 0.12 * CELL + 15 * k
        on_board.append(
            Shape(
                "rect",
                {
                    "x": cx - width / 2,
                    "y": top,
                    "width": width,
                    "height": 14,
                    "rx": 3,
                    "fill": "#ffffff",
                    "stroke": colour,
                    "stroke-width": 1,
                    "opacity": 0.92,
                },
            )
        )
        on_board.append(
            _text(cx, top + 11, label, 11, INK, cls="mark-label", data=data, **{"font-weight": "bold"})
        )
    return on_board, off_board


def _caption(pos: Position) -> list[str]:
    rules = pos.rules
    lines = [f"{rules.variant}, {rules.players} players ({rules.teams} sides)"]
    if pos.result == "draw":
        lines.append(f"turn {pos.turn}: a draw")
    elif pos.result is not None:
        lines.append(f"turn {pos.turn}: {COLOUR_NAMES[pos.result]} wins")
    else:
        seat = pos.to_move
        hand = pos.hands[seat]  # type: ignore[index]
        cards = " ".join(card_face(c)[0] for c in hand.known) + (f" ?{hand.unknown}" if hand.unknown else "")
        lines.append(
            f"turn {pos.turn}: seat {seat} ({COLOUR_NAMES[pos.seats[seat]]}) to move,"  # type: ignore[index]
            f" holding {cards.strip() or 'nothing'}"
        )
    return lines


def position_shapes(pos: Position, marks: Iterable[dict] | None = None) -> tuple[list[Shape], int, int]:
    """Everything the picture of ``pos`` draws, in drawing order, and its width and height.

    ``marks`` are ``{"move": turn in P-12 notation, "label": text}`` (the label optional);
    a turn that does not parse raises :class:`~seqsolve.games.base.MoveSyntaxError`.
    """
    marks = list(marks or ())
    board_end = 2 * MARGIN + SIZE * CELL
    shapes = [Shape("rect", {"x": 0, "y": 0, "width": board_end, "height": 0, "fill": "#f7f3e8"})]
    labels = pos.rules.layout.labels
    for cell in range(SIZE * SIZE):
        shapes += _cell_shapes(cell, labels[cell])
    shapes += _coordinates()
    for cell, token in enumerate(pos.board):
        if token not in (EMPTY, CORNER):
            shapes += _chip_shapes(cell, token)
    shapes += [_sequence_shape(colour, window) for colour, window in pos.sequences]
    on_board, off_board = _mark_shapes(pos, marks)
    shapes += on_board
    y = board_end + 4
    for line in _caption(pos):
        y += LINE
        shapes.append(_text(MARGIN, y, line, 13, INK, "start"))
    for data in off_board:  # a pass or a bare exchange: its mark is a line of the caption
        y += LINE
        shapes += mark_line(MARGIN, y, data)
    height = y + 10
    shapes[0] = Shape("rect", {**shapes[0].attrs, "height": height})
    return shapes, board_end, height


def position_svg(pos: Position, marks: Iterable[dict] | None = None) -> str:
    """The picture of ``pos`` (with ``marks``, see :func:`position_shapes`) as SVG text."""
    shapes, width, height = position_shapes(pos, marks)
    return shapes_svg(shapes, width, height, "; ".join(_caption(pos)))


def position_png(pos: Position, new_figure, marks: Iterable[dict] | None = None) -> bytes:
    """The same picture as :func:`position_svg`, drawn by matplotlib on
    ``new_figure(width, height)`` (inches, 100 dots each) as PNG bytes."""
    shapes, width, height = position_shapes(pos, marks)
    return shapes_png(shapes, width, height, new_figure)
