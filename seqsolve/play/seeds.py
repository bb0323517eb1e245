"""Where every random stream of every command comes from (STYLE habit 6).

Streams are ``SeedSequence(root, spawn_key=...)`` children keyed by what they are
for, never by the order in which games are run: the same root seed gives the same
games at any ``--jobs``, chunk size or completion order, and a record (root seed,
stream, deal number) is enough to deal its game again.  The keys, under the root
seed (``--seed``) of the command:

==========  =====================================================================
match       ``(deal,)`` shuffles deal ``deal``; ``(deal, 1 + game_of_deal, seat)``
            is the bot on ``seat`` in that deal's ``game_of_deal``-th game
tournament  ``("tournament", pairing)`` then the match's keys
balance     ``("balance", variant, players, teams, replica, job)`` then the match's
            keys (``job``: ``self``, ``restrict:NAME`` or ``skill``)
analyze     ``(tree,)`` for each root-parallel tree
annotate    ``(decision, tree)``
==========  =====================================================================

The prefix of a match inside a bigger run is its *stream*; a text part of a key
stands for the integer of its UTF-8 bytes, so keys stay readable in records and
two different texts never share a stream.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: what the headers of record files and balance manifests say of their seeds: absent in
#: files made before tournaments and balance runs derived their matches' streams here
SEED_SCHEME = "spawn-key"

#: how a key part is written in a record: a whole number (0, 1, ...) or a text
KeyPart = int | str


def key_part(part: KeyPart) -> int:
    """A spawn-key entry (numpy takes whole numbers of any size) for one key part.

    >>> key_part(3), key_part("ab") == 0x6162
    (3, True)
    """
    return int.from_bytes(part.encode("utf-8"), "big") if isinstance(part, str) else part


def stream_seed(seed: int, key: Sequence[KeyPart]) -> np.random.SeedSequence:
    """The stream ``key`` under the root ``seed`` (see the table above)."""
    return np.random.SeedSequence(seed, spawn_key=tuple(key_part(p) for p in key))


def deal_seed(seed: int, deal: int, stream: Sequence[KeyPart] = ()) -> np.random.SeedSequence:
    """The stream that shuffles deal number ``deal`` of a match (and its reshuffles)."""
    return stream_seed(seed, (*stream, deal))


def bot_seed(
    seed: int, deal: int, game_of_deal: int, seat: int, stream: Sequence[KeyPart] = ()
) -> np.random.SeedSequence:
    """The stream of the bot on ``seat`` in the ``game_of_deal``-th game of deal ``deal``
    (keys under the deal's own, which shuffles: ``1 + game_of_deal``)."""
    return stream_seed(seed, (*stream, deal, 1 + game_of_deal, seat))


def tournament_stream(pairing: int) -> tuple[KeyPart, ...]:
    """The stream of pairing number ``pairing`` of a tournament."""
    return ("tournament", pairing)


def balance_stream(variant: str, players: int, teams: int, replica: int, job: str) -> tuple[KeyPart, ...]:
    """The stream of one job of one variant point of a balance run: the point itself,
    never its place in the grid."""
    return ("balance", variant, players, teams, replica, job)

