"""A slow, obvious reference of the rules, for parity tests against the core.

Written for clarity with sets and lists, never for speed (STYLE habit 9).
"""

from __future__ import annotations

from .board import CORNERS, windows
from .rules import UNLIMITED, Rules


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
