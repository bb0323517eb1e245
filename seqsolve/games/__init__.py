"""The games seqsolve plays, one folder each (:mod:`.sequence`, the board game), behind
the interface of :mod:`.base`, and the registry that says which game plays a variant.

Every command resolves a variant string here (:func:`rules_for`), so a variant of a
game not built yet is refused in one place, with the same words everywhere.  Importing
this module loads no compiled code.
"""

from __future__ import annotations

from functools import lru_cache

from .base import NOT_BUILT, Game, GameState, NotSupported, PositionError, RulesError

__all__ = [
    "Game",
    "GameState",
    "NotSupported",
    "PositionError",
    "RulesError",
    "all_games",
    "game_for",
    "position_game",
    "read_state",
    "rules_for",
]


def all_games() -> tuple[Game, ...]:
    """Every game built, Sequence first (what a list of all of them, e.g. the
    terminations a balance table has columns for, is made of)."""
    from .sequence.game import SEQUENCE

    return (SEQUENCE,)


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


def position_game(text: str) -> Game:
    """The game whose position file ``text`` is: the one the first word of its first
    line that is not a comment names (an SQN line's variant; Sequence's readable form
    starts with its own header).  A file no built game claims is Sequence's, whose
    reader then says what is wrong with it.

    >>> position_game("# a comment\\nclassic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ...").name
    'sequence'
    """
    for line in text.splitlines():
        words = line.split()
        if words and not words[0].startswith("#"):
            try:
                return game_for(words[0])
            except RulesError:
                break
    return all_games()[0]


def read_state(text: str, source: str = "<string>", seed=None) -> GameState:
    """The state of a position file of any game (:meth:`Game.read_position`).

    Raises:
        PositionError: naming ``source``, the line and the column.
    """
    return position_game(text).read_position(text, source, seed)
