"""What each game's Python face over its compiled engine shares (Sequence's
``State``, Stacks' ``StacksState``): the end of a game as a record stores it, the
bit generator an engine shuffles with, and the dealing of a resampled world, so
that both games seed, report and resample alike.
"""

from __future__ import annotations

import enum
from collections import Counter
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


def deal_unseen(
    unseen: Counter,
    seen: list[int],
    kept: dict[int, list[int]],
    sizes: list[int],
    rest: int,
    player: int,
    rng,
) -> tuple[list[list[int]], list[int]]:
    """The cards ``player`` has not seen, dealt anew for a resampled world: each hand
    filled to its size (a seat keeps its ``kept`` cards first: ``player``'s own, and
    any cards another seat is known to hold), then the ``rest`` cards (the piles it
    cannot see) in dealt order.

    ``unseen`` starts as the deck's count of each card; ``seen`` is every card
    ``player`` can see, the kept ones included.  A ValueError when the two do not add
    up: the position's hidden cards could not all come from the deck.
    """
    unseen.subtract(seen)
    if any(n < 0 for n in unseen.values()):
        raise ValueError("inconsistent position: a card is seen more often than the deck holds it")
    pool = np.array(sorted(unseen.elements()), dtype=np.int64)
    slots = sum(sizes) - sum(len(cards) for cards in kept.values()) + rest
    if len(pool) != slots:
        raise ValueError(
            f"inconsistent position: {slots} hidden cards but {len(pool)} cards unseen by seat {player}"
        )
    rng.shuffle(pool)
    cards = pool.tolist()
    hands = []
    for seat, size in enumerate(sizes):
        mine = list(kept.get(seat, ()))
        take = size - len(mine)
        hands.append(mine + cards[:take])
        cards = cards[take:]
    return hands, cards


def not_built(engine: str, exc: ImportError) -> ImportError:
    """The error for a compiled ``engine`` that does not import: what to run, since it
    means the tree was never built (or built for another Python)."""
    return ImportError(
        f"seqsolve's {engine} is not built: run 'pip install -e .' in the project folder"
        f" (it needs a C compiler) — {exc}"
    )
