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


def stream_words(seed: int, stream: Sequence[KeyPart] = ()) -> list[int]:
    """The 32-bit words that ``SeedSequence(seed, spawn_key=(*stream, ...))`` hashes
    before the rest of its key, as numpy assembles them (the seed's words, zero-padded
    to its pool of 4, then each key part's, least significant first; 0 is one word):
    what the compiled game loop seeds numpy's PCG64 streams from (``seqsolve._loop``).

    >>> stream_words(2**32 + 5, ("ab",))
    [5, 1, 0, 0, 24930]
    """
    words = _words(seed)
    return words + [0] * (4 - len(words)) + [w for part in stream for w in _words(key_part(part))]


def _words(n: int) -> list[int]:
    out = [n & 0xFFFFFFFF]
    while n > 0xFFFFFFFF:
        n >>= 32
        out.append(n & 0xFFFFFFFF)
    return out


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
