"""The lines every game's text view ends with (``seqsolve show``): the draw pile and
the legal moves read alike whichever game a position holds."""

from __future__ import annotations

from collections.abc import Sequence


def draw_pile_line(count: int, top_first: Sequence[str] | None) -> str:
    """The draw pile's size, and its cards top first when the position lists them."""
    line = f"draw pile  {count} card{'s' if count != 1 else ''}"
    return f"{line}, top first: {' '.join(top_first)}" if top_first else line


def legal_lines(legal: Sequence[str] | None, result: str | None, unknown_hand: str) -> list[str]:
    """The legal moves of a game going on, when asked for; none listed means the
    hand that would play them is unknown here, which ``unknown_hand`` says."""
    if legal is None or result is not None:
        return []
    return [f"legal      {len(legal)}: {' '.join(legal)}" if legal else f"legal      - ({unknown_hand})"]
