"""A Sequence Stacks position as a picture: the shared piles in the middle of the table
(draw pile, set-aside stack, special pile, the sequence piles by colour with their top
card and count), then a row per seat (its hand, discard pile, chips and skip tokens),
whose turn it is and any Block window (ST-15), the last decision marked where it
landed, and marks on given decisions with their labels (an analysis' win chances),
each an arrow from the card to where it goes.

Stacks has no board, so the picture is a table laid out in rows; it is composed as a
list of :class:`~seqsolve.games.drawing.Shape` and written as SVG or PNG by the
writers Sequence's pictures use (:mod:`seqsolve.games.drawing`).

Each element says what it stands for in its ``class`` and ``data-`` attributes, one
element per thing: ``pile`` (``data-colour``, ``data-count``, ``data-top``), ``card``
(a card of a hand: ``data-seat``, ``data-card``, ``?`` when hidden), ``chip``
(``data-seat``, ``data-colour``), ``discard``, ``skip``, ``draw-pile``,
``aside-pile``, ``special-pile``, ``to-move``, ``block-window``, ``last-decision``,
and ``mark`` / ``mark-label`` with ``data-move``.

>>> from seqsolve.games.stacks.position_text import parse
>>> pos = parse("stacks 0> B3,B4,R5,R5,SX/?5 -/- - B1+B2,R1 0b0r/1b1r 0/0 5 94 0 0")
>>> svg = position_svg(pos, [{"move": "B3", "label": "61%"}])
>>> svg.count('class="pile"'), svg.count('class="chip"'), svg.count('class="card"'), svg.count('class="mark"')
(2, 2, 10, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..base import MoveSyntaxError
from ..drawing import INK, SUIT_RED, Shape, mark_line, shapes_png, shapes_svg, text
from .actions import BLOCK, ActionKind, action_to_text, decode_action, text_to_action
from .cards import BLUE, COLOUR_LETTERS, Card, card_code, colour, value
from .position import StacksPosition

__all__ = ["decision_places", "place_name", "position_png", "position_shapes", "position_svg"]

COLOURS = {BLUE: "#1f5fbf", 1 - BLUE: SUIT_RED}
COLOUR_WORDS = ("blue", "red")
PAPER = "#f7f3e8"
FACE = "#fffdf6"
BACK = "#6d5a8c"  # the back of a card nobody here may see
CARD_W, CARD_H = 40, 56  # a card of a hand or a discard pile
PILE_W, PILE_H = 58, 80  # a pile in the middle of the table
GAP = 6
LEFT = 20
LINE = 18
ROW = 96  # one seat's row
CHIP_R, CHIP_STEP = 7, 17
ACTION_NAMES = {Card.SK: "Skip", Card.RV: "Rev.", Card.SC: "St.C", Card.SX: "St.X", Card.BK: "Block"}


@dataclass(frozen=True)
class Box:
    """Where a thing is drawn: its top-left corner and size, for marks to point at."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def card_face(card: int | None) -> tuple[str, str]:
    """A card as its face prints it: the big label and its ink (None: a hidden card).

    >>> card_face(Card.B3), card_face(Card.RW), card_face(Card.SX), card_face(None)
    (('3', '#1f5fbf'), ('W', '#c0392b'), ('St.X', '#222222'), ('?', '#ffffff'))
    """
    if card is None:
        return "?", "#ffffff"
    c = colour(card)
    if c is None:
        return ACTION_NAMES[Card(card)], INK
    v = value(card)
    return ("W" if v == 0 else str(v)), COLOURS[c]


def _card(box: Box, card: int | None, size: float, cls: str | None, data: dict) -> list[Shape]:
    """A card face (or back) in ``box`` with its label; ``cls`` and ``data`` name it."""
    label, ink = card_face(card)
    fit = min(1.0, box.w / (0.62 * size * len(label) + 6))  # an action card's name fits its card
    rim = COLOURS[colour(card)] if card is not None and colour(card) is not None else "#8a8270"
    shapes = [
        _rect(box, {"fill": BACK if card is None else FACE, "stroke": rim, "stroke-width": 1.5}, cls, data),
        text(
            box.x + box.w / 2, box.y + box.h / 2 + size / 3, label, size * fit, ink, **{"font-weight": "bold"}
        ),
    ]
    return shapes


def _rect(box: Box, style: dict, cls: str, data: dict, pad: float = 0, rx: float = 4) -> Shape:
    """A rounded rectangle over ``box``, grown by ``pad`` on every side: a card, an empty
    place and an outline differ only in ``style``."""
    place = {"x": box.x - pad, "y": box.y - pad, "width": box.w + 2 * pad, "height": box.h + 2 * pad}
    return Shape("rect", {**place, "rx": rx, **style}, cls=cls, data=data)


def _empty(box: Box, cls: str, data: dict, stroke: str = "#b8b2a0") -> Shape:
    """The outline of an empty place (a pile slot, an empty discard pile)."""
    style = {"fill": "none", "stroke": stroke, "stroke-width": 1.5, "stroke-dasharray": "4 3"}
    return _rect(box, style, cls, data)


def _outline(box: Box, stroke: str, cls: str, data: dict, pad: float = 4, width: float = 3) -> Shape:
    return _rect(box, {"fill": "none", "stroke": stroke, "stroke-width": width}, cls, data, pad=pad, rx=6)


class _Table:
    """The layout of one picture: every place a mark may point at, by what it is."""

    def __init__(self, pos: StacksPosition):
        self.pos = pos
        self.shapes: list[Shape] = []
        self.piles: dict[int, Box] = {}  # by index in pos.piles
        self.slots: dict[int, list[Box]] = {0: [], 1: []}  # empty places for a new pile, by colour
        self.hands: dict[int, list[tuple[int | None, Box]]] = {}
        self.discards: dict[int, Box] = {}
        self.chips: dict[int, Box] = {}
        self.labels: dict[int, Box] = {}
        self.rows: dict[int, Box] = {}
        self.draw = self.aside = self.special = Box(0, 0, 0, 0)


def _middle(t: _Table, top: float) -> float:
    """The shared piles: draw, set-aside, special, then the sequence piles by colour
    (a dashed slot where a colour may start another pile, ST-7).  Returns the bottom."""
    pos = t.pos
    x = LEFT
    label_y = top + PILE_H + 16
    for name, count, cls in (
        ("draw", pos.draw_count, "draw-pile"),
        ("aside", pos.aside_count, "aside-pile"),
        ("special", len(pos.special), "special-pile"),
    ):
        box = Box(x, top, PILE_W, PILE_H)
        data = {"count": count}
        if cls == "special-pile" and pos.special:
            data["cards"] = " ".join(card_code(c) for c in sorted(pos.special))
        face_down = cls != "special-pile" and count > 0  # draw and set-aside cards lie face down
        if face_down:
            t.shapes.append(_card(box, None, 15, cls, data)[0])
        else:
            t.shapes.append(_empty(box, cls, data))
        ink = "#ffffff" if face_down else INK
        t.shapes.append(
            text(box.x + box.w / 2, box.y + box.h / 2 + 6, str(count), 17, ink, **{"font-weight": "bold"})
        )
        t.shapes.append(text(box.x + box.w / 2, label_y, name, 12))
        setattr(t, {"draw-pile": "draw", "aside-pile": "aside", "special-pile": "special"}[cls], box)
        x += PILE_W + 2 * GAP
    x += 2 * GAP
    per_colour = _slots_per_colour(pos)
    for c in (0, 1):
        started = [k for k, pile in enumerate(pos.piles) if colour(pile[0]) == c]
        for slot in range(per_colour):
            box = Box(x, top, PILE_W, PILE_H)
            if slot < len(started):
                k = started[slot]
                pile = pos.piles[k]
                data = {
                    "colour": COLOUR_LETTERS[c],
                    "index": k,
                    "count": len(pile),
                    "top": card_code(pile[-1]),
                    "cards": " ".join(card_code(card) for card in pile),
                }
                t.shapes += _card(box, pile[-1], 26, "pile", data)
                t.shapes.append(text(box.x + box.w / 2, box.y + box.h - 8, f"{len(pile)}/5", 11, COLOURS[c]))
                t.piles[k] = box
            else:
                t.shapes.append(_empty(box, "pile-slot", {"colour": COLOUR_LETTERS[c]}, COLOURS[c]))
                t.slots[c].append(box)
            x += PILE_W + GAP
        t.shapes.append(
            text(
                x - (PILE_W + GAP) * per_colour / 2 - GAP / 2,
                label_y,
                f"{COLOUR_WORDS[c]} piles",
                12,
                COLOURS[c],
            )
        )
        x += 2 * GAP
    return label_y + 10


def _slots_per_colour(pos: StacksPosition) -> int:
    """The places for one colour's piles: the option's limit (ST-7), or more if a
    position holds more."""
    started = [sum(1 for p in pos.piles if colour(p[0]) == c) for c in (0, 1)]
    return max(pos.rules.max_piles_per_colour, *started)


def _hand_cards(pos: StacksPosition, seat: int) -> list[int | None]:
    return sorted(pos.hands[seat]) + [None] * pos.unknown[seat]


def _seat_rows(t: _Table, top: float, width: float) -> float:
    """A row per seat: its name, hand, discard pile (top card and count), chips and skip tokens."""
    pos = t.pos
    widest = max(len(_hand_cards(pos, s)) for s in range(pos.players))
    hand_x = LEFT + 92
    discard_x = hand_x + max(widest, 5) * (CARD_W + 4) + 3 * GAP
    chips_x = discard_x + CARD_W + 4 * GAP
    y = top
    for seat in range(pos.players):
        row = Box(LEFT - 8, y, width - 2 * LEFT + 16, ROW - 8)
        t.rows[seat] = row
        t.shapes.append(
            Shape(
                "rect",
                {
                    "x": row.x,
                    "y": row.y,
                    "width": row.w,
                    "height": row.h,
                    "rx": 6,
                    "fill": "#efe9d8",
                    "stroke": "none",
                },
                cls="seat",
                data={"seat": seat},
            )
        )
        label = Box(LEFT - 2, y + 10, 58, 19)
        t.labels[seat] = label
        t.shapes.append(text(LEFT, y + 24, f"seat {seat}", 14, INK, "start", **{"font-weight": "bold"}))
        note = _seat_note(pos, seat)
        if note:
            t.shapes.append(text(LEFT, y + 42, note, 11, INK, "start"))
        if pos.skips[seat]:
            for k in range(pos.skips[seat]):
                t.shapes.append(
                    Shape(
                        "rect",
                        {
                            "x": LEFT + 12 * (k % 6),  # six a line, below the seat's name
                            "y": y + 52 + 11 * (k // 6),
                            "width": 9,
                            "height": 9,
                            "fill": "#e0a030",
                            "stroke": INK,
                            "stroke-width": 1,
                        },
                        cls="skip",
                        data={"seat": seat},
                    )
                )
            t.shapes.append(text(LEFT + 12 * min(pos.skips[seat], 6) + 2, y + 61, "skip", 10, INK, "start"))
        cards = []
        for k, card in enumerate(_hand_cards(pos, seat)):
            box = Box(hand_x + k * (CARD_W + 4), y + 14, CARD_W, CARD_H)
            t.shapes += _card(
                box, card, 17, "card", {"seat": seat, "card": "?" if card is None else card_code(card)}
            )
            cards.append((card, box))
        t.hands[seat] = cards
        if not cards:
            t.shapes.append(text(hand_x, y + 46, "no cards", 12, INK, "start"))
        pile = pos.discards[seat]
        box = Box(discard_x, y + 14, CARD_W, CARD_H)
        data = {"seat": seat, "count": len(pile)}
        if pile:
            data["top"] = card_code(pile[-1])
            t.shapes += _card(box, pile[-1], 17, "discard", data)
        else:
            t.shapes.append(_empty(box, "discard", data))
        t.discards[seat] = box
        t.shapes.append(text(box.x + box.w / 2, y + 14 + CARD_H + 15, f"discard {len(pile)}", 10))
        blue, red = pos.chips[seat]
        for line, (c, n) in enumerate(((BLUE, blue), (1 - BLUE, red))):
            cy = y + 30 + line * 26
            for k in range(n):
                t.shapes.append(
                    Shape(
                        "circle",
                        {
                            "cx": chips_x + CHIP_R + k * CHIP_STEP,
                            "cy": cy,
                            "r": CHIP_R,
                            "fill": COLOURS[c],
                            "stroke": INK,
                            "stroke-width": 1,
                        },
                        cls="chip",
                        data={"seat": seat, "colour": COLOUR_LETTERS[c]},
                    )
                )
            t.shapes.append(
                text(
                    chips_x + max(n, 0) * CHIP_STEP + 4,
                    cy + 4,
                    f"{n} {COLOUR_WORDS[c]}",
                    11,
                    COLOURS[c],
                    "start",
                )
            )
        t.chips[seat] = Box(chips_x, y + 20, max(blue, red, 1) * CHIP_STEP + 50, 46)
        y += ROW
    return y


def _seat_note(pos: StacksPosition, seat: int) -> str:
    if pos.result is not None:
        return "wins" if pos.result == seat else ""
    if pos.block_asked == seat:
        return "asked to block"
    if pos.to_move == seat:
        return "to move" if pos.block_asked is None else "completed a pile"
    return ""


def _caption(pos: StacksPosition) -> list[str]:
    rules = pos.rules
    lines = [
        (
            f"{rules.variant}, {rules.players} players: {rules.win_chips} chips to win,"
            f" at least {rules.win_min_each} of each colour"
        )
    ]
    if pos.result == "draw":
        lines.append(f"turn {pos.turn}: a draw")
    elif pos.result is not None:
        lines.append(f"turn {pos.turn}: seat {pos.result} wins")
    else:
        way = "forward" if pos.direction == 1 else "reverse"
        lines.append(f"turn {pos.turn}: seat {pos.to_move} to move (play goes {way})")
        if pos.block_asked is not None:
            lines.append(
                f"Block window: seat {pos.block_asked} is asked whether to block the pile"
                f" seat {pos.to_move} completed (ST-15)"
            )
    if pos.last_decision is not None:
        seat, action = pos.last_decision
        lines.append(f"last decision: seat {seat} {_decision_words(action)}")
    return lines


def _decision_words(action: int) -> str:
    a = decode_action(action)
    words = action_to_text(action)
    if a.kind == ActionKind.DISCARD:
        return f"discarded {words[1:]}"
    if a.kind == ActionKind.PLAY:
        return f"played {words}"
    return {"block": "blocked", "pass": "let the completion stand", "end": "ended the turn"}[words]


def _full_pile(pos: StacksPosition) -> int | None:
    return next((k for k, p in enumerate(pos.piles) if len(p) == 5), None)


def _turn_shapes(t: _Table) -> list[Shape]:
    """The mover's row outlined; a Block window's pile and the seat asked outlined too."""
    pos = t.pos
    shapes = []
    if pos.to_move is not None:
        shapes.append(_outline(t.rows[pos.to_move], INK, "to-move", {"seat": pos.to_move}, pad=0, width=2.5))
    full = _full_pile(pos)
    if pos.block_asked is not None and full is not None:
        data = {"seat": pos.block_asked, "pile": full}
        shapes.append(_outline(t.piles[full], "#e0a030", "block-window", data, pad=5, width=4))
        shapes.append(_outline(t.rows[pos.block_asked], "#e0a030", "block-window-seat", data, pad=0, width=3))
    return shapes


def _landed(t: _Table, seat: int, action: int) -> Box | None:
    """Where the decision ``action`` of ``seat`` shows in the position it made."""
    pos, a = t.pos, decode_action(action)
    if a.kind == ActionKind.DISCARD:
        return t.discards.get(seat)
    if action == BLOCK:
        return t.aside
    if a.kind != ActionKind.PLAY:
        return t.labels.get(seat)
    c = colour(a.card)
    if c is None:
        return t.special
    v = value(a.card)
    for k, pile in enumerate(pos.piles):
        if pile[-1] == a.card and (v == 0 or len(pile) == v):
            return t.piles[k]
    return t.aside  # the card completed its pile, which went to the set-aside stack (ST-9)


def _last_shapes(t: _Table) -> list[Shape]:
    if t.pos.last_decision is None:
        return []
    seat, action = t.pos.last_decision
    box = _landed(t, seat, action)
    if box is None:
        return []
    data = {"seat": seat, "move": action_to_text(action)}
    shape = _outline(box, "#2e8b3e", "last-decision", data, pad=3, width=3)
    return [Shape("rect", {**shape.attrs, "stroke-dasharray": "6 3"}, cls=shape.cls, data=shape.data)]


def _source(t: _Table, seat: int, action: int) -> Box:
    """Where a decision of ``seat`` starts: the card in its hand (or the top of its
    discard pile), else its name."""
    a = decode_action(action)
    if a.kind == ActionKind.PLAY and a.from_discard:
        return t.discards[seat]
    card = Card.BK if action == BLOCK else a.card
    for held, box in t.hands.get(seat, []):
        if held is not None and held == card:
            return box
    return t.labels[seat]


def _target(t: _Table, seat: int, action: int) -> Box | None:
    """Where a decision goes, or None where it goes nowhere on the table (pass, end, a
    play whose pile is not there)."""
    pos, a = t.pos, decode_action(action)
    if a.kind == ActionKind.DISCARD:
        return t.discards[seat]
    if action == BLOCK:
        full = _full_pile(pos)
        return None if full is None else t.piles[full]
    if a.kind != ActionKind.PLAY:
        return None
    if a.card == Card.SC:
        return t.discards.get(a.arg)
    if a.card == Card.SX:
        return t.chips.get(a.arg // 2)
    c = colour(a.card)
    if c is None:
        return t.special
    v = value(a.card)
    before = a.arg if v == 0 else v - 1  # the pile's value before the card (ST-8)
    if before == 0:
        return t.slots[c][0] if t.slots[c] else None
    return next((t.piles[k] for k, p in enumerate(pos.piles) if colour(p[0]) == c and len(p) == before), None)


def place_name(t: _Table, seat: int, action: int) -> str | None:
    """The name of the element a decision of ``seat`` goes to (where its arrow points),
    as a page names the picture's elements from their class and ``data-`` attributes:
    ``pile:K`` (``data-index``), ``slot:b`` (a ``pile-slot`` of a colour), ``discard:S``,
    ``chip:Sr`` (a seat's chips of a colour), ``special``; None where it goes nowhere."""
    box = _target(t, seat, action)
    if box is None:
        return None
    a = decode_action(action)
    if a.kind == ActionKind.DISCARD:
        return f"discard:{seat}"
    if a.card == Card.SC:
        return f"discard:{a.arg}"
    if a.card == Card.SX:
        return f"chip:{a.arg // 2}{COLOUR_LETTERS[a.arg % 2]}"
    if box is t.special:
        return "special"
    for k, pile in t.piles.items():
        if box is pile:
            return f"pile:{k}"
    for c, slots in t.slots.items():
        if slots and box is slots[0]:
            return f"slot:{COLOUR_LETTERS[c]}"
    return None


def decision_places(pos: StacksPosition, moves: Iterable[str]) -> list[dict]:
    """For each decision ``moves`` names (Stacks notation), for the seat deciding in
    ``pos``: the card a person picks to make it (``^B3`` for the top of the own discard
    pile, ``BK`` for a block, None for pass and end) and the element of the picture
    they click (:func:`place_name`): what ``seqsolve serve``'s page maps clicks with.

    >>> from seqsolve.games.stacks.position_text import parse
    >>> pos = parse("stacks 0> B3,B4,R5,R5,SX/?5 -/- - B1+B2,R1 0b0r/1b1r 0/0 5 94 0 0")
    >>> [d["place"] for d in decision_places(pos, ["B3", "~R5", "SX@1r"])]
    ['pile:0', 'discard:0', 'chip:1r']
    """
    seat = pos.block_asked if pos.block_asked is not None else pos.to_move
    t = _Table(pos)
    _middle(t, 0)
    _seat_rows(t, 0, _width(pos))
    out = []
    for move in moves:
        action = text_to_action(move)
        a = decode_action(action)
        if action == BLOCK:
            card = card_code(Card.BK)
        elif a.card is None:
            card = None
        else:
            card = ("^" if a.from_discard else "") + card_code(a.card)
        out.append({"card": card, "place": None if seat is None else place_name(t, seat, action)})
    return out


def _arrow(x1: float, y1: float, x2: float, y2: float, stroke: str, data: dict) -> list[Shape]:
    """A line from ``(x1, y1)`` to ``(x2, y2)`` with a head at its end."""
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    bx, by = x2 - 12 * ux, y2 - 12 * uy
    head = [(x2, y2), (bx - 6 * uy, by + 6 * ux), (bx + 6 * uy, by - 6 * ux)]
    return [
        Shape(
            "line",
            {
                "x1": x1,
                "y1": y1,
                "x2": bx,
                "y2": by,
                "stroke": stroke,
                "stroke-width": 3.5,
                "stroke-linecap": "round",
                "opacity": 0.85,
            },
            cls="mark",
            data=data,
        ),
        Shape(
            "polygon", {"points": head, "fill": stroke, "stroke": stroke, "stroke-width": 1, "opacity": 0.85}
        ),
    ]


def _mark_shapes(t: _Table, marks: list[dict]) -> tuple[list[Shape], list[dict]]:
    """Each mark as an arrow from its card to where it goes, its label at the arrow's
    end (labels of one place stacked); a mark with nowhere to go goes to the caption."""
    pos = t.pos
    seat = pos.block_asked if pos.block_asked is not None else pos.to_move
    on_table: list[Shape] = []
    off_table: list[dict] = []
    stacked: dict[tuple, int] = {}
    for mark in marks:
        move, label = str(mark["move"]), str(mark.get("label", ""))
        try:
            action = text_to_action(move)
        except ValueError as exc:
            raise MoveSyntaxError(str(exc)) from None
        data = {"move": move, "label": label}
        target = None if seat is None else _target(t, seat, action)
        if target is None:
            off_table.append(data)
            continue
        source = _source(t, seat, action)
        (x1, y1), (x2, y2) = source.centre, target.centre
        if abs(y2 - y1) > 1:  # from the card's edge to the target's, leaving both faces clear
            up = 1 if y1 > y2 else -1
            y1 -= up * source.h / 2
            y2 += up * (target.h / 2 + 2)
        else:  # along the row, below its cards rather than across them
            y1 = y2 = max(source.y + source.h, target.y + target.h) + 5
            x2 += (target.w / 2) * (1 if x1 > x2 else -1)
        card = decode_action(action).card
        stroke = INK if card is None or colour(card) is None else COLOURS[colour(card)]
        on_table += _arrow(x1, y1, x2, y2, stroke, data)
        k = stacked.get(target, 0)
        stacked[target] = k + 1
        width = 7 * len(label) + 8
        top = target.y + target.h * 0.62 + 15 * k
        on_table.append(
            Shape(
                "rect",
                {
                    "x": target.x + target.w / 2 - width / 2,
                    "y": top,
                    "width": width,
                    "height": 14,
                    "rx": 3,
                    "fill": "#ffffff",
                    "stroke": stroke,
                    "stroke-width": 1,
                    "opacity": 0.92,
                },
            )
        )
        on_table.append(
            text(
                target.x + target.w / 2,
                top + 11,
                label,
                11,
                INK,
                cls="mark-label",
                data=data,
                **{"font-weight": "bold"},
            )
        )
    return on_table, off_table


def position_shapes(pos: StacksPosition, marks: Iterable[dict] | None = None) -> tuple[list[Shape], int, int]:
    """Everything the picture of ``pos`` draws, in drawing order, and its width and height.

    ``marks`` are ``{"move": a decision in Stacks notation, "label": text}`` (the label
    optional), drawn for the seat deciding now; a decision that does not parse raises
    :class:`~seqsolve.games.base.MoveSyntaxError`.
    """
    marks = list(marks or ())
    width = _width(pos)
    shapes = [Shape("rect", {"x": 0, "y": 0, "width": width, "height": 0, "fill": PAPER})]
    t = _Table(pos)
    y = 8
    for line in _caption(pos):
        y += LINE
        shapes.append(text(LEFT, y, line, 13, INK, "start"))
    y = _middle(t, y + 14)
    y = _seat_rows(t, y + 10, width)
    shapes += t.shapes
    shapes += _turn_shapes(t)
    shapes += _last_shapes(t)
    on_table, off_table = _mark_shapes(t, marks)
    shapes += on_table
    for data in off_table:  # pass, end, a play with no pile to go to: a line of its own
        y += LINE
        shapes += mark_line(LEFT, y, data)
    height = int(y + 14)
    shapes[0] = Shape("rect", {**shapes[0].attrs, "height": height})
    return shapes, width, height


def _width(pos: StacksPosition) -> int:
    """Wide enough for the shared piles and for the widest seat row."""
    per_colour = _slots_per_colour(pos)
    middle = 2 * LEFT + 3 * (PILE_W + 2 * GAP) + 2 * GAP + 2 * (per_colour * (PILE_W + GAP) + 2 * GAP)
    widest = max(len(_hand_cards(pos, s)) for s in range(pos.players))
    chips = max(max(b, r) for b, r in pos.chips)
    row = (
        LEFT + 92 + max(widest, 5) * (CARD_W + 4) + 3 * GAP + CARD_W + 4 * GAP + chips * CHIP_STEP + 70 + LEFT
    )
    return int(max(middle, row, 560))


def position_svg(pos: StacksPosition, marks: Iterable[dict] | None = None) -> str:
    """The picture of ``pos`` (with ``marks``, see :func:`position_shapes`) as SVG text."""
    shapes, width, height = position_shapes(pos, marks)
    return shapes_svg(shapes, width, height, "; ".join(_caption(pos)))


def position_png(pos: StacksPosition, new_figure, marks: Iterable[dict] | None = None) -> bytes:
    """The same picture as :func:`position_svg`, drawn by matplotlib on
    ``new_figure(width, height)`` (inches, 100 dots each) as PNG bytes."""
    shapes, width, height = position_shapes(pos, marks)
    return shapes_png(shapes, width, height, new_figure)
