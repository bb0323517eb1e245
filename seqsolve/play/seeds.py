"""Where every random stream of a match comes from (STYLE habit 6).

Streams are ``SeedSequence(root, spawn_key=...)`` children keyed by what they are
for, never by the order in which games are run: the same root seed gives the same
games at any ``--jobs``, chunk size or completion order, and a record (root seed,
deal number) is enough to deal its game again.
"""

from __future__ import annotations

import numpy as np


def deal_seed(seed: int, deal: int) -> np.random.SeedSequence:
    """The stream that shuffles deal number ``deal`` of a match (and its reshuffles)."""
    return np.random.SeedSequence(seed, spawn_key=(deal,))


def bot_seed(seed: int, deal: int, game_of_deal: int, seat: int) -> np.random.SeedSequence:
    """The stream of the bot on ``seat`` in the ``game_of_deal``-th game of deal ``deal``
    (keys under the deal's own, which shuffles: ``1 + game_of_deal``)."""
    return np.random.SeedSequence(seed, spawn_key=(deal, 1 + game_of_deal, seat))
