"""What each game's Python face over its compiled engine shares (Sequence's
``State``, Stacks' ``StacksState``): the end of a game as a record stores it, and
the bit generator an engine shuffles with, so that both games seed and report alike.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Outcome:
    """The end of a game (a :class:`~seqsolve.games.base.GameOutcome`): why, as the
    game's own Termination, and which side won (its character; None for a draw)."""

    termination: enum.Enum
    winner: str | None

    @property
    def result(self) -> str:
        """The winner's character or ``'draw'`` (the ``result:`` of a position file)."""
        return self.winner or "draw"


def bit_generator(seed) -> np.random.BitGenerator:
    """A PCG64 from an int, a SeedSequence, a BitGenerator (used as is), a Generator
    (a child stream is drawn from it) or None (fresh entropy)."""
    if isinstance(seed, np.random.BitGenerator):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.PCG64(seed.integers(2**63))
    return np.random.PCG64(seed)
