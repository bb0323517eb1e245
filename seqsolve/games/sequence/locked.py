"""Which sequences a board's locked chips stand for (P-7, P-11.4), when only one
reading exists.

A program that keeps its own board often marks the chips of completed sequences
but not the sequences themselves, while a position lists them (C-25 limits how they
may overlap, and which of them count toward the win depends on how many there
are).  Each colour's locked chips, split into groups that no window links, must be
covered exactly by windows of that colour that the overlap rules allow together;
a group with no such cover or with two is refused, naming its cells.
"""

from __future__ import annotations

from functools import cache

from ...errors import SeqsolveError
from .board import CORNERS, cell_name, window_name, windows, windows_through
from .position import COLOURS, CORNER
from .rules import Rules
from .sequences import overlap_allows

#: covers tried per group of locked chips before giving up: real boards need a few dozen
SEARCH_LIMIT = 100_000


_LOCKED = frozenset(COLOURS.upper())


@cache
def _window_cells() -> tuple[frozenset[int], ...]:
    return tuple(frozenset(w) for w in windows())


class LockedChipsError(SeqsolveError, ValueError):
    """Locked chips that no set of sequences explains, or that two sets explain."""


def locked_sequences(board: tuple[str, ...], rules: Rules) -> tuple[tuple[str, int], ...]:
    """The ``(colour, window)`` sequences the locked chips of ``board`` (100 P-2 tokens)
    must be, colour by colour, windows in board order.

    >>> from seqsolve.games.sequence.rules import parse_rules
    >>> board = ["."] * 100
    >>> for cell in range(10, 19):  # a2..i2, locked blue: two sequences sharing e2 (C-25)
    ...     board[cell] = "B"
    >>> [(c, window_name(w)) for c, w in locked_sequences(tuple(board), parse_rules("classic", players=2))]
    [('b', 'a2-e2'), ('b', 'e2-i2')]

    Raises:
        LockedChipsError: some locked chips form no set of sequences the overlap
            options allow, or more than one (the message names the cells).
    """
    by_colour: dict[str, set[int]] = {}
    for cell, token in enumerate(board):
        if token in _LOCKED:
            by_colour.setdefault(token.lower(), set()).add(cell)
    found: list[tuple[str, int]] = []
    for colour in sorted(by_colour, key=COLOURS.index):
        locked = frozenset(by_colour[colour])
        counting = locked | {c for c in CORNERS if board[c] == CORNER}
        through = sorted({w for cell in locked for w in windows_through()[cell]})
        candidates = [w for w in through if _window_cells()[w] <= counting]
        for group, group_windows in _groups(locked, candidates):
            found += [(colour, w) for w in _only_cover(colour, group, group_windows, rules)]
    return tuple(found)


def _groups(locked: frozenset[int], candidates: list[int]) -> list[tuple[set[int], list[int]]]:
    """The locked cells split into groups no candidate window joins, with their windows;
    a locked cell in no candidate window is a group of its own, without windows."""
    owner = {cell: cell for cell in locked}

    def root(cell: int) -> int:
        while owner[cell] != cell:
            owner[cell] = owner[owner[cell]]
            cell = owner[cell]
        return cell

    for w in candidates:
        cells = [c for c in windows()[w] if c not in CORNERS]
        for c in cells[1:]:
            owner[root(c)] = root(cells[0])
    groups: dict[int, tuple[set[int], list[int]]] = {}
    for cell in sorted(locked):
        groups.setdefault(root(cell), (set(), []))[0].add(cell)
    for w in candidates:
        groups[root(next(c for c in windows()[w] if c not in CORNERS))][1].append(w)
    return list(groups.values())


def _only_cover(colour: str, group: set[int], candidates: list[int], rules: Rules) -> list[int]:
    """The one set of ``candidates`` that covers ``group`` exactly and passes C-25."""
    covers = _covers(group, candidates, rules)
    if len(covers) == 1:
        return covers[0]
    cells = ", ".join(cell_name(c) for c in sorted(group))
    if not covers:
        raise LockedChipsError(
            f"the locked {colour} chips at {cells} are no set of sequences the overlap options"
            f" allow (C-25, P-11.4): list the sequences"
        )
    readings = " or ".join(", ".join(window_name(w) for w in cover) for cover in covers[:2])
    raise LockedChipsError(
        f"the locked {colour} chips at {cells} are sequences {readings}: list the sequences (P-7)"
    )


def _covers(group: set[int], candidates: list[int], rules: Rules) -> list[list[int]]:
    """Up to two sets of windows covering ``group`` exactly that may all count together;
    every window in board order is taken or left, and a branch stops once the windows
    left can no longer cover what is missing."""
    cells = [_window_cells()[w] & group for w in candidates]
    reach = [frozenset()] * (len(candidates) + 1)
    for i in range(len(candidates) - 1, -1, -1):
        reach[i] = reach[i + 1] | cells[i]
    found: list[list[int]] = []
    steps = 0

    def visit(i: int, chosen: list[int], covered: frozenset[int]) -> None:
        nonlocal steps
        steps += 1
        if steps > SEARCH_LIMIT:
            shown = ", ".join(cell_name(c) for c in sorted(group))
            raise LockedChipsError(
                f"the locked chips at {shown} can be read in too many ways: list the sequences"
            )
        if len(found) > 1 or not group <= covered | reach[i]:
            return
        if i == len(candidates):
            found.append(list(chosen))
            return
        w = candidates[i]
        if overlap_allows(w, chosen, rules):
            visit(i + 1, chosen + [w], covered | cells[i])
        visit(i + 1, chosen, covered)

    visit(0, [], frozenset())
    return found
