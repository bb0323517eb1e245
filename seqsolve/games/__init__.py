"""The games seqsolve plays, one folder each (:mod:`.sequence`, the board game), behind
the interface of :mod:`.base`, and the registry that says which game plays a variant.

Every command resolves a variant string here (:func:`rules_for`), so a variant of a
game not built yet is refused in one place, with the same words everywhere.  Importing
this module loads no compiled code.
"""

from __future__ import annotations

from functools import lru_cache

from .base import NOT_BUILT, Game, GameState, NotSupported, RulesError

__all__ = ["Game", "GameState", "NotSupported", "RulesError", "game_for", "rules_for"]


@lru_cache(maxsize=256)  # asked once per game played, so it is a dictionary look-up
def game_for(variant: str) -> Game:
    """The game that plays ``variant`` (``preset[opt=value,...]``): Sequence for every
    preset but ``stacks``.

    >>> game_for("classic[sequences_to_win=3]").name
    'sequence'

    Raises:
        RulesError: the variant's game is not built yet.
    """
    from .sequence.game import SEQUENCE

    preset = variant.strip().split("[", 1)[0].strip()
    if preset in NOT_BUILT:
        raise RulesError(NOT_BUILT[preset])
    return SEQUENCE


@lru_cache(maxsize=256)
def rules_for(variant: str, players: int | None = None, teams: int | None = None):
    """The rules of one game of ``variant`` seated as given (players/teams override the
    variant's own): the one way a command turns a variant string into rules.

    >>> rules_for("seed000", players=4).hand_size
    6

    Raises:
        RulesError: a bad variant, option, value or seating, named.
    """
    return game_for(variant).rules(variant, players, teams)
