"""The games seqsolve plays, one folder each (:mod:`.sequence`, the board game;
:mod:`.stacks`, Sequence Stacks, the card game of RULES.md §4), behind the interface of
:mod:`.base`, and the registry that says which game plays a variant.

Every command resolves a variant string here (:func:`rules_for`) and reads a position
file here (:func:`read_state`), so a variant or a file names its game in one place, with
the same words everywhere.  Importing this module loads no compiled code.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .base import Game, GameState, NotSupported, PositionError, RulesError

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
    from .stacks.game import STACKS

    return (SEQUENCE, STACKS)


@lru_cache(maxsize=256)  # asked once per game played, so it is a dictionary look-up
def game_for(variant: str) -> Game:
    """The game that plays ``variant`` (``preset[opt=value,...]``): Sequence Stacks for
    its preset ``stacks``, Sequence for every other (whose own parser names an unknown one).

    >>> game_for("classic[sequences_to_win=3]").name, game_for("stacks[stacks_refill=empty_hand_only]").name
    ('sequence', 'stacks')
    """
    preset = variant.strip().split("[", 1)[0].strip().lower()  # whose reader says a preset is lower case
    for game in all_games()[1:]:
        if preset in game.presets:
            return game
    return all_games()[0]


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
    line that is not a comment names (an SQN or STN line's variant), or, in the readable
    form (both games' start with ``seqsolve-position``), its ``variant:`` line's.  A file
    no other game claims is Sequence's, whose reader then says what is wrong with it.
    A JSON position (``convert --to json``) names its game by its ``variant`` field, and
    the game's reader says that JSON is written, not read.

    >>> position_game("# a comment\\nclassic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ...").name
    'sequence'
    >>> position_game("seqsolve-position 1\\nvariant: stacks   # Sequence Stacks\\n...").name
    'stacks'
    """
    if text.lstrip().startswith("{"):
        variant = re.search(r'"variant"\s*:\s*"([^"]*)"', text)
        return game_for(variant.group(1)) if variant else all_games()[0]
    lines = (line.split("#", 1)[0].split() for line in text.splitlines())
    words = [w for w in lines if w]
    if not words:
        return all_games()[0]
    if words[0][0] != "seqsolve-position":
        return game_for(words[0][0])
    for line in words[1:]:
        if line[0] == "variant:" and len(line) > 1:
            return game_for(line[1])
    return all_games()[0]


def read_state(text: str, source: str = "<string>", seed=None) -> GameState:
    """The state of a position file of any game (:meth:`Game.read_position`).

    Raises:
        PositionError: naming ``source``, the line and the column.
    """
    return position_game(text).read_position(text, source, seed)
