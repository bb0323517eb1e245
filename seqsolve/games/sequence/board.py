"""Board geometry: cell names, layouts and the 192 five-cell windows.

Cells are integers ``0..99``, ``cell = 10 * row + column`` with row 0 the top
row (RULES.md §1.2: ``a1`` is cell 0, ``j10`` is cell 99).  Windows are
numbered in the canonical order of C-26 (first cell in reading order, then
direction across, down, down-right, down-left), so comparing window numbers
compares windows canonically.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .cards import RANKS, SUITS

SIZE = 10
CELLS = SIZE * SIZE
CORNERS = (0, 9, 90, 99)
COLUMNS = "abcdefghij"
CORNER = "*"

#: Directions in canonical order: across, down, down-right, down-left.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

# The Jax board (C-5), drawn as printed; XX marks the free corners.
_JAX = """
XX 2S 3S 4S 5S 6S 7S 8S 9S XX
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
XX AD KD QD TD 9D 8D 7D 6D XX
"""


def cell_name(cell: int) -> str:
    """``cell_name(0) == 'a1'``; ``cell_name(99) == 'j10'``."""
    row, col = divmod(cell, SIZE)
    return f"{COLUMNS[col]}{row + 1}"


def parse_cell(text: str) -> int:
    """Inverse of :func:`cell_name`; raises ``ValueError`` on a bad name.

    >>> parse_cell("e5"), parse_cell("J10")
    (44, 99)
    """
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in COLUMNS or not (t[1:].isascii() and t[1:].isdigit() and len(t) <= 4):
        raise ValueError(f"bad cell name {text!r} (expected a1..j10)")
    row = int(t[1:])
    if not 1 <= row <= SIZE or t[1] == "0":
        raise ValueError(f"bad cell name {text!r} (rows are 1..10)")
    return (row - 1) * SIZE + COLUMNS.index(t[0])


@dataclass(frozen=True)
class Layout:
    """Which card label each cell shows; ``'*'`` for a free corner."""

    name: str
    labels: tuple[str, ...]

    def cells_of(self, code: str) -> tuple[int, ...]:
        return _cells_by_label(self).get(code, ())


@cache
def _cells_by_label(layout: Layout) -> dict[str, tuple[int, ...]]:
    found: dict[str, list[int]] = {}
    for cell, label in enumerate(layout.labels):
        if label != CORNER:
            found.setdefault(label, []).append(cell)
    return {k: tuple(v) for k, v in found.items()}


def _parse_grid(name: str, text: str) -> Layout:
    tokens = text.split()
    if len(tokens) != CELLS:
        raise ValueError(f"layout {name}: {len(tokens)} cells, expected {CELLS}")
    labels = tuple(CORNER if t in ("XX", "*") else t for t in tokens)
    check_layout(name, labels)
    return Layout(name, labels)


def check_layout(name: str, labels: tuple[str, ...]) -> None:
    """A layout has corners exactly at the four corners and every label twice (C-4)."""
    corners = {i for i, lab in enumerate(labels) if lab == CORNER}
    if corners != set(CORNERS):
        raise ValueError(f"layout {name}: free corners must be exactly a1, j1, a10, j10")
    counts: dict[str, int] = {}
    for lab in labels:
        if lab != CORNER:
            counts[lab] = counts.get(lab, 0) + 1
    odd = sorted(k for k, v in counts.items() if v != 2)
    if odd:
        raise ValueError(f"layout {name}: every card must show on exactly two cells ({odd[0]})")


def _numbers_label(code: str) -> str:
    """Stand-in number of §3.1: ``n = 12 * suitIndex + rankIndex + 1`` (jacks skipped)."""
    ranks = RANKS.replace("J", "")
    return f"N{12 * SUITS.index(code[1]) + ranks.index(code[0]) + 1:02d}"


@cache
def get_layout(name: str = "jax") -> Layout:
    """A layout by ``board`` option value: ``jax``, ``numbers-standin-1`` or a file path.

    >>> get_layout().labels[44], get_layout("numbers-standin-1").labels[44]
    ('5H', 'N17')
    """
    jax = _parse_grid("jax", _JAX)
    if name == "jax":
        return jax
    if name == "numbers-standin-1":
        labels = tuple(lab if lab == CORNER else _numbers_label(lab) for lab in jax.labels)
        return Layout(name, labels)
    try:
        with open(name, encoding="utf-8") as fh:
            text = "\n".join(line.split("#", 1)[0] for line in fh)
    except OSError as exc:
        raise ValueError(
            f"unknown board {name!r} (known: jax, numbers-standin-1, or a layout file): {exc.strerror}"
        ) from None
    return _parse_grid(name, text)


@cache
def windows() -> tuple[tuple[int, ...], ...]:
    """All 192 five-cell windows, canonically ordered, each listed from its first end.

    >>> w = windows(); len(w), w[0]
    (192, (0, 1, 2, 3, 4))
    """
    found = []
    for start in range(CELLS):
        r, c = divmod(start, SIZE)
        for dr, dc in DIRECTIONS:
            er, ec = r + 4 * dr, c + 4 * dc
            if 0 <= er < SIZE and 0 <= ec < SIZE:
                found.append(tuple((r + k * dr) * SIZE + (c + k * dc) for k in range(5)))
    return tuple(found)


@cache
def windows_through() -> tuple[tuple[int, ...], ...]:
    """For each cell, the numbers of the windows that contain it (at most 20)."""
    through: list[list[int]] = [[] for _ in range(CELLS)]
    for w, cells in enumerate(windows()):
        for cell in cells:
            through[cell].append(w)
    return tuple(tuple(t) for t in through)


@cache
def _window_by_ends() -> dict[tuple[int, int], int]:
    return {(cells[0], cells[-1]): w for w, cells in enumerate(windows())}


def window_name(window: int) -> str:
    """``'a6-a10'``: the two ends, first in reading order (P-7)."""
    cells = windows()[window]
    return f"{cell_name(cells[0])}-{cell_name(cells[-1])}"


def parse_window(text: str) -> int:
    """Window number from ``'a6-a10'``; ends may come in either order.

    >>> window_name(parse_window("a10-a6"))
    'a6-a10'
    """
    parts = text.strip().split("-")
    if len(parts) != 2:
        raise ValueError(f"bad sequence {text!r} (expected two cells like a6-a10)")
    a, b = (parse_cell(p) for p in parts)
    a, b = min(a, b), max(a, b)
    found = _window_by_ends().get((a, b))
    if found is None:
        raise ValueError(f"{text!r} is not five cells in a straight line")
    return found
