"""The sequence rules C-24..C-28 on a plain board (a list of cell tokens), for the
code that reasons about positions without the compiled core: the P-11 checks of a
position file and the threats of an analysis.

The core scans bitboards; :mod:`seqsolve.reference` has its own plain copy of these
rules, kept apart on purpose so that the parity tests compare two independent
readings of RULES.md.
"""

from __future__ import annotations

import itertools
from functools import cache

from .board import CORNERS, windows, windows_through
from .position import CORNER
from .rules import UNLIMITED, Rules

#: The four centre cells of the heart rule (D-3): e5, f5, e6, f6.
HEART_CELLS = (44, 45, 54, 55)


@cache
def _cells(window: int, with_corners: bool) -> frozenset[int]:
    cells = frozenset(windows()[window])
    return cells if with_corners else cells - frozenset(CORNERS)


def shared_cells(a: int, b: int, rules: Rules) -> int:
    """Cells windows ``a`` and ``b`` have in common, as the overlap rule counts them (C-25).

    >>> from seqsolve.games.sequence.board import parse_window
    >>> from seqsolve.games.sequence.rules import parse_rules
    >>> shared_cells(parse_window("a1-a5"), parse_window("a5-a9"), parse_rules("classic", players=2))
    1
    """
    corners = rules.corner_counts_as_shared
    return len(_cells(a, corners) & _cells(b, corners))


def overlap_allows(window: int, completed: list[int], rules: Rules) -> bool:
    """May ``window`` join a side's ``completed`` sequences (conditions 2 and 3 of C-25)?

    It shares at most ``overlap_max_shared`` cells with each of them; and, unless
    ``overlap_reuse_limit`` is unlimited, neither it nor any sequence it touches ends
    up crossing more than that many others.
    """
    crossing = {s: shared_cells(window, s, rules) for s in completed}
    if max(crossing.values(), default=0) > rules.overlap_max_shared:
        return False
    limit = rules.overlap_reuse_limit
    if limit == UNLIMITED:
        return True
    touched = [s for s, n in crossing.items() if n]
    if len(touched) > limit:
        return False
    return all(
        sum(1 for other in completed if other != s and shared_cells(s, other, rules)) < limit for s in touched
    )


def counts_for(token: str, colour: str) -> bool:
    """A cell counts for a side when it holds that side's chip or is a corner (C-24)."""
    return token == CORNER or token.lower() == colour


def new_sequences(
    board: list[str], colour: str, cell: int, completed: list[int], rules: Rules
) -> tuple[int, ...]:
    """The windows a chip of ``colour`` just placed on ``cell`` completes, as the side
    declares them: the most that may all count together, the lexicographically first
    such set when several tie (C-25, C-26).  ``board`` already holds the chip."""
    candidates = sorted(
        w
        for w in windows_through()[cell]
        if w not in completed
        and all(counts_for(board[c], colour) for c in windows()[w])
        and overlap_allows(w, completed, rules)
    )
    for size in range(len(candidates), 0, -1):
        for chosen in itertools.combinations(candidates, size):
            if _declarable(chosen, completed, rules):
                return chosen
    return ()


def _declarable(chosen: tuple[int, ...], completed: list[int], rules: Rules) -> bool:
    """Each window in turn passes the overlap rule against those completed before it (C-26)."""
    return all(overlap_allows(w, list(completed) + list(chosen[:i]), rules) for i, w in enumerate(chosen))
