"""The sequence rules C-24..C-28 of the reference, on a plain board of P-2 tokens:
which windows count for a side (C-24), which may join its sequences (C-25) and what
it declares (C-26).  The package has its own reading of these rules
(:mod:`seqsolve.games.sequence.sequences`); this one is kept apart so that the
parity tests compare two.
"""

from __future__ import annotations

import itertools

from ..games.sequence.board import CORNERS, windows, windows_through
from ..games.sequence.position import CORNER
from ..games.sequence.rules import UNLIMITED, Rules

#: The four centre cells of the heart rule (D-3): e5, f5, e6, f6.
HEART_CELLS = (44, 45, 54, 55)


def shared_cells(a: int, b: int, rules: Rules) -> int:
    """How many cells windows ``a`` and ``b`` share for the overlap rule (C-25)."""
    common = set(windows()[a]) & set(windows()[b])
    if not rules.corner_counts_as_shared:
        common -= set(CORNERS)
    return len(common)


def overlap_allows(window: int, completed: list[int], rules: Rules) -> bool:
    """Conditions 2 and 3 of C-25: may ``window`` join a side's ``completed`` sequences?

    ``completed`` are that side's sequences in completion order.
    """
    if any(shared_cells(window, s, rules) > rules.overlap_max_shared for s in completed):
        return False
    limit = rules.overlap_reuse_limit
    if limit == UNLIMITED:
        return True
    touching = [s for s in completed if shared_cells(window, s, rules) > 0]
    if len(touching) > limit:
        return False
    for s in touching:
        crossed = sum(1 for o in completed if o != s and shared_cells(s, o, rules) > 0)
        if crossed >= limit:
            return False
    return True


def counts_for(token: str, colour: str) -> bool:
    """C-24: a cell counts for a side if it holds that side's chip (locked or not) or is a corner.

    >>> counts_for("B", "b"), counts_for("*", "g"), counts_for("g", "b"), counts_for(".", "b")
    (True, True, False, False)
    """
    return token == CORNER or token.lower() == colour


def valid_declaration(windows_in_order: tuple[int, ...], completed: list[int], rules: Rules) -> bool:
    """C-26 step 2: may these windows all become sequences, completed one after another?

    ``windows_in_order`` is checked in the given (ascending) order: each window
    must pass :func:`overlap_allows` against ``completed`` extended by the
    windows accepted before it.
    """
    so_far = list(completed)
    for w in windows_in_order:
        if not overlap_allows(w, so_far, rules):
            return False
        so_far.append(w)
    return True


def eligible_windows(
    board: list[str] | tuple[str, ...], colour: str, cell: int, completed: list[int], rules: Rules
) -> list[int]:
    """C-25/C-26 step 1: the eligible windows through ``cell`` for side ``colour``, ascending."""
    found = []
    for w in windows_through()[cell]:
        if w in completed:
            continue
        if not all(counts_for(board[c], colour) for c in windows()[w]):
            continue
        if overlap_allows(w, completed, rules):
            found.append(w)
    return found


def maximum_declarations(candidates: list[int], completed: list[int], rules: Rules) -> list[tuple[int, ...]]:
    """C-26 step 2: every maximum-size valid subset of ``candidates``, in lexicographic order.

    The first entry is the canonical declaration (C-26 step 3).  With no
    candidates the only declaration is the empty one, ``[()]``.
    """
    ordered = sorted(candidates)
    for size in range(len(ordered), 0, -1):
        found = [
            combo
            for combo in itertools.combinations(ordered, size)
            if valid_declaration(combo, completed, rules)
        ]
        if found:
            return found
    return [()]
