"""The drawing every game's pictures share: a picture is a list of :class:`Shape` in
pixel coordinates, written two ways from the same list, so that the two forms never
disagree.

* SVG text (:func:`shapes_svg`), built with the standard library's ElementTree, which
  escapes every label and always yields well-formed XML: no drawing library is needed
  for rectangles, circles, lines, polygons and text.
* A PNG drawn by matplotlib (:func:`shapes_png`), a regular dependency already used
  for the balance plots (matplotlib cannot read SVG, and a converter such as cairosvg
  would need the cairo C library).

Each shape may say what it stands for (``cls`` and ``data``, written into the SVG as
``class`` and ``data-`` attributes only), so that a program or a test can read the
position back from the picture.  What a game draws is its own module's
(:mod:`seqsolve.games.sequence.svg`, :mod:`seqsolve.games.stacks.picture`).

>>> svg = shapes_svg([text(10, 20, "a < b", 12, cls="note")], 40, 30, "a title")
>>> svg.startswith("<svg") and 'class="note"' in svg and "a &lt; b" in svg
True
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

__all__ = ["FONT", "INK", "SUIT_RED", "Shape", "shapes_png", "shapes_svg", "text"]

INK = "#222222"
FONT = "DejaVu Sans, Verdana, sans-serif"
#: the red of red suits, red chips and red piles
SUIT_RED = "#c0392b"


@dataclass(frozen=True)
class Shape:
    """One thing drawn: an SVG element name (``rect``, ``circle``, ``line``,
    ``polygon``, ``text``), its geometry and style as SVG attributes, its text, and
    what it stands for (``cls`` and ``data``, written into the SVG only)."""

    kind: str
    attrs: dict
    text: str | None = None
    cls: str | None = None
    data: dict = field(default_factory=dict)


def text(
    x: float,
    y: float,
    words: str,
    size: float,
    fill: str = INK,
    anchor: str = "middle",
    cls: str | None = None,
    data: dict | None = None,
    **extra,
) -> Shape:
    """Text whose baseline starts, is centred or ends (``anchor``) at ``(x, y)``."""
    attrs = {
        "x": x,
        "y": y,
        "font-size": size,
        "fill": fill,
        "text-anchor": anchor,
        "font-family": FONT,
        **extra,
    }
    return Shape("text", attrs, words, cls, data or {})


def mark_line(x: float, y: float, data: dict) -> list[Shape]:
    """A marked turn that has no place on the picture (a pass, a bare exchange, an end):
    an empty box and its move and label, a line under the picture's caption."""
    box = {"x": x, "y": y - 11, "width": 12, "height": 12, "fill": "none", "stroke": INK, "stroke-width": 2}
    label = f"{data['move']}  {data['label']}".rstrip()
    return [
        Shape("rect", box, cls="mark", data=data),
        text(x + 18, y, label, 13, INK, "start", cls="mark-label", data=data, **{"font-weight": "bold"}),
    ]


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_number(float(x))},{_number(float(y))}" for x, y in points)


def shapes_svg(shapes: Sequence[Shape], width: int, height: int, title: str) -> str:
    """``shapes`` as the SVG text of a ``width`` x ``height`` picture, in drawing order
    (a polygon's ``points`` are given as a list of ``(x, y)``).  Ends with a newline."""
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
        },
    )
    ET.SubElement(root, "title").text = title
    for shape in shapes:
        attrs = {
            key: _points(value) if key == "points" else _number(value) for key, value in shape.attrs.items()
        }
        if shape.cls:
            attrs["class"] = shape.cls
        attrs.update({f"data-{key}": str(value) for key, value in shape.data.items()})
        element = ET.SubElement(root, shape.kind, attrs)
        if shape.text is not None:
            element.text = shape.text
    return ET.tostring(root, encoding="unicode") + "\n"


def shapes_png(shapes: Sequence[Shape], width: int, height: int, new_figure) -> bytes:
    """The same picture as :func:`shapes_svg`, drawn by matplotlib on
    ``new_figure(width, height)`` (inches, 100 dots each) as PNG bytes."""
    fig = new_figure(width / 100, height / 100)
    fig.set_layout_engine("none")  # one axes filling the figure, placed by hand
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    for order, shape in enumerate(shapes):
        _draw(ax, shape, order)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


_ANCHORS = {"start": "left", "middle": "center", "end": "right"}
POINTS_PER_PIXEL = 0.72  # at 100 dots per inch


def _draw(ax, shape: Shape, order: int) -> None:
    """One shape on ``ax``, above every shape before it (as SVG paints in document order)."""
    from matplotlib import patches

    a = shape.attrs
    alpha = float(a.get("opacity", 1))
    fill = a.get("fill", "none")
    stroke = a.get("stroke", "none")
    width = float(a.get("stroke-width", 0)) * POINTS_PER_PIXEL
    style = {
        "facecolor": fill,
        "edgecolor": stroke,
        "linewidth": width if stroke != "none" else 0,
        "alpha": alpha,
        "zorder": order,
    }
    if a.get("stroke-dasharray", "none") != "none":
        style["linestyle"] = (
            0,
            tuple(float(v) * POINTS_PER_PIXEL / max(width, 1e-9) for v in str(a["stroke-dasharray"]).split()),
        )
    if shape.kind == "rect":
        box = "round,pad=0,rounding_size=" + str(a.get("rx", 0)) if a.get("rx") else "square,pad=0"
        ax.add_patch(patches.FancyBboxPatch((a["x"], a["y"]), a["width"], a["height"], boxstyle=box, **style))
    elif shape.kind == "circle":
        ax.add_patch(patches.Circle((a["cx"], a["cy"]), a["r"], **style))
    elif shape.kind == "polygon":
        ax.add_patch(patches.Polygon(list(a["points"]), closed=True, **style))
    elif shape.kind == "line":
        line = {"linestyle": style["linestyle"]} if "linestyle" in style else {}
        ax.plot(
            [a["x1"], a["x2"]],
            [a["y1"], a["y2"]],
            color=stroke,
            linewidth=width,
            alpha=alpha,
            solid_capstyle="round",
            zorder=order,
            **line,
        )
    elif shape.kind == "text":
        ax.text(
            a["x"],
            a["y"],
            shape.text,
            fontsize=float(a["font-size"]) * POINTS_PER_PIXEL,
            color=fill,
            alpha=alpha,
            ha=_ANCHORS[a.get("text-anchor", "start")],
            va="baseline",
            fontweight=a.get("font-weight", "normal"),
            zorder=order,
        )
