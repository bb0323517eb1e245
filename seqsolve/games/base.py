"""What every game of seqsolve offers the runners: a :class:`Game` (its rules, its
deals, its position files) and the :class:`GameState` of one game in progress.

The runners (``match``, ``tournament``, ``replay``, ``balance``, ``analyze``,
``annotate``) speak only this vocabulary, which is open_spiel's (``Game`` /
``State`` of ``spiel.h``), so that a second game (Sequence Stacks, a pure card
game whose turn is several decisions of one player, with a Block asked of the
opponents out of turn) plugs in by adding its own folder under ``games/`` and one
line to the registry of :mod:`seqsolve.games`.

Actions are integers, meaningful only to the game that made them: a runner
stores them as text (:meth:`GameState.action_to_string`) and reads them back
through the state they apply to (:meth:`GameState.string_to_action`), which is
where the rules say whether the text is legal there.  Sides are named by one
character each (``GameState.sides``); seat ``s`` plays for side ``side_of(s)``.

Features that only one game has (Sequence's balance metrics and its compiled
tree search) are reached through the game too (:meth:`Game.tally`,
:meth:`Game.searcher`): a game without them raises :class:`NotSupported` there,
in one place, instead of failing somewhere inside a runner.
"""

from __future__ import annotations

import enum
from typing import Any, Protocol, runtime_checkable

#: presets of the rule books that name a game seqsolve does not play yet, and what
#: to say about them (the registry, and Sequence's own variant parser, say it)
NOT_BUILT = {"stacks": "preset 'stacks' is Sequence Stacks, a separate game not built yet"}


class RulesError(ValueError):
    """An unknown preset or option, a bad value, or an impossible seating: what any
    game says of a variant it cannot set up."""


class NotSupported(ValueError):
    """A feature the game of the variant does not have (its message names both)."""


class GameOutcome(Protocol):
    """How a game ended: why (an enum whose lower-case name a record stores) and
    which side won (its character in ``GameState.sides``, None for a draw)."""

    @property
    def termination(self) -> enum.Enum: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def result(self) -> str:
        """The winner's character, or ``'draw'``."""


@runtime_checkable
class GameState(Protocol):
    """One game in progress or finished, as the runners and bots drive it."""

    rules: Any
    #: one character per seat in turn order: the side each seat plays for
    seats: str

    @property
    def sides(self) -> str:
        """One character per side; ``seats`` repeats them."""

    def side_of(self, seat: int) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The seat that decides next; None when the game is over (or, in a game with
        decisions asked out of turn, while no single seat is to act)."""

    @property
    def turn(self) -> int:
        """Completed turns (a record's length in turns)."""

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> None: ...

    def clone(self) -> GameState: ...

    def observation(self, player: int) -> GameState:
        """What ``player`` may see: every card it may not see is unknown."""

    def resample(self, player: int, rng) -> GameState:
        """A full-information world consistent with what ``player`` has seen."""

    def has_hidden_cards(self) -> bool:
        """Whether any card of the state is unknown (an observation's, a file's)."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]:
        """Per seat: 1 for a winning side, -1 for a losing one, 0 for all in a draw."""

    def outcome(self) -> GameOutcome | None: ...

    def action_to_string(self, action: int) -> str: ...

    def string_to_action(self, text: str) -> int:
        """The action ``text`` names, or a ``ValueError`` saying why it is not legal here."""


class Game(Protocol):
    """One game: its rules from a variant string, its deals, its position files."""

    #: the game's name, as the registry and the messages give it
    name: str

    def parse_variant(self, text: str) -> Any:
        """The variant ``text`` names, checked as far as it can be without a seating
        (a ``ValueError`` naming what is wrong)."""

    def rules(self, variant: str, players: int | None = None, teams: int | None = None) -> Any:
        """The rules of one game of ``variant`` with that seating (players/teams
        override the variant's own); a ``ValueError`` naming what is wrong."""

    def new_initial_state(self, rules: Any, seed=None) -> GameState:
        """A freshly dealt game; the same seed deals the same game."""

    def read_position(self, text: str, source: str = "<string>") -> GameState:
        """The state a position file describes, with every check of a file; a
        ``ValueError`` naming ``source``, the line and the column."""

    #: the forms :meth:`write_position` writes, the first the default
    position_forms: tuple[str, ...]

    def write_position(self, state: GameState, viewer: int | None = None, form: str = "sqn") -> str:
        """The position file of ``state`` in ``form`` (only what ``viewer`` sees, if given)."""

    def tally(self, rules: Any) -> Any:
        """What the balance analysis counts of each game (a ``play.match.Tally``)."""

    def loop(self, rules: Any, choosers: list, detail: Any = None) -> Any:
        """A compiled player of whole games between bots (each bot's
        ``Bot.loop_chooser()``, None for a bot it cannot play) with the same games
        and records as the runner's own loop, or None: the runner then plays them
        action by action."""

    def searcher(self, params: dict) -> Any:
        """The compiled information-set search that ``analyze`` drives."""
