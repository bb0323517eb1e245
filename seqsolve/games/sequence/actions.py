"""Core action numbers: the encoding the compiled core uses for one action, its
kinds, and the error a move that the rules do not allow raises.

The one Python mirror of the core's encoding (``encode`` in ext/seqsolve/_core.pyx),
apart from the state so that what checks a move and what plays it share it.
"""

from __future__ import annotations

import enum

from ..base import IllegalMoveError  # noqa: F401  (re-exported: raised by the checks of this game)
from .moves import Move

#: the cell field of an action that names no cell (an exchange, a pass)
NO_CELL = 127


class ActionKind(enum.IntEnum):
    """The kind of a core action number (bits 16..19; ``kind`` in ext/seqsolve/_core.pyx)."""

    PLACE = 0
    REMOVE = 1
    EXCHANGE = 2
    PASS = 3

    @classmethod
    def of(cls, move: Move) -> ActionKind:
        return cls[move.kind.name]


def encode_action(kind: int, card: int = 0, cell: int = NO_CELL, pick: int = -1) -> int:
    """The core's action number: ``kind << 16 | (pick + 1) << 20 | card << 8 | cell``.

    ``card`` and ``pick`` are deck indexes (``pick`` -1: no draft card).  The one
    Python mirror of the core's encoding (``encode`` in ext/seqsolve/_core.pyx).

    >>> decode_action(encode_action(ActionKind.REMOVE, card=11, cell=44, pick=3))
    (1, 11, 44, 3)
    >>> decode_action(encode_action(ActionKind.PASS))[0] == ActionKind.PASS
    True
    """
    return (kind << 16) | ((pick + 1) << 20) | (card << 8) | cell


def decode_action(action: int) -> tuple[int, int, int, int]:
    """``(kind, card, cell, pick)`` of a core action number (see :func:`encode_action`);
    ``kind`` is a plain int, equal to its :class:`ActionKind` (no enum is built per action)."""
    return (action >> 16) & 3, (action >> 8) & 0xFF, action & 0x7F, ((action >> 20) & 0x7F) - 1
