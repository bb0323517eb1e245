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

A turn may be several decisions of one player (Sequence's dead-card exchange and
then its play; in Stacks every card of a turn): :meth:`GameState.ends_turn` says which
decision ends it, so that a runner can show whole turns (:func:`whole_turns`) while
everything it decides and stores is one action, "the decision to make now".

Features that not every game has (Sequence's exact board threats, proofs, a balance
point's heatmap) are reached through the game too (:meth:`Game.tactics`,
:meth:`Game.prove_win`, :meth:`Game.picture`): a game
without them raises :class:`NotSupported` there, in one place, instead of failing somewhere inside a runner.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from ..errors import SeqsolveError


class RulesError(SeqsolveError, ValueError):
    """An unknown preset or option, a bad value, or an impossible seating: what any
    game says of a variant it cannot set up."""


class NotSupported(SeqsolveError, ValueError):
    """A feature the game of the variant does not have (its message names both)."""


class PositionError(SeqsolveError, ValueError):
    """A position file that cannot be read, and where to look (RULES.md P-11 for Sequence).

    ``line`` and ``column`` are 1-based; both are 0 when the file itself
    could not be read.

    >>> str(PositionError("game.sqn", 1, 9, "corner a1 must be *"))
    'game.sqn:1:9: corner a1 must be *'
    """

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        super().__init__(f"{source}:{line}:{column}: {message}")
        self.source = source
        self.line = line
        self.column = column
        self.message = message

    def __reduce__(self):
        # The default pickling re-calls __init__ with the formatted text only;
        # errors must survive the trip back from worker processes.
        return (type(self), (self.source, self.line, self.column, self.message))


class PositionArgumentError(PositionError):
    """A position given as objects that fails a check; ``argument`` names what to fix.

    >>> str(PositionArgumentError("hands[1][0]", "'ZZ' is not a card"))
    "hands[1][0]: 'ZZ' is not a card"
    """

    def __init__(self, argument: str, message: str) -> None:
        ValueError.__init__(self, f"{argument}: {message}")
        self.source, self.line, self.column, self.message = argument, 0, 0, message
        self.argument = argument

    def __reduce__(self):
        return (type(self), (self.argument, self.message))


class MoveSyntaxError(SeqsolveError, ValueError):
    """Move text that is not in the game's notation."""


class IllegalMoveError(SeqsolveError, ValueError):
    """A move that the rules do not allow here; the message says why."""


def turns_played(state, last_action: int | None) -> int:
    """How many turns a game has had, the one count every command gives (a record's
    ``turns``, ``replay``, ``annotate``, the end of ``play``): the game's own count
    where a turn can stop part-way (Sequence Stacks: ``StacksState.turns_played``,
    docs/stacks.md "Turns"), else the completed turns.  ``last_action`` is the last
    action played (None: none).
    """
    own = getattr(state, "turns_played", None)
    return state.turn if own is None else own(last_action)


def whole_turns(decisions: Iterable[tuple[str, bool]]) -> list[str]:
    """Decisions as whole turns: each ``(text, ends_turn)`` joined to those after it
    up to the one that ends the turn (an unfinished turn last, as far as it goes).

    >>> whole_turns([("~5S", False), ("9H@i3", True), ("JSxe5", True), ("~2C", False)])
    ['~5S 9H@i3', 'JSxe5', '~2C']
    """
    turns: list[str] = []
    pending: list[str] = []
    for text, ends in decisions:
        pending.append(text)
        if ends:
            turns.append(" ".join(pending))
            pending = []
    if pending:
        turns.append(" ".join(pending))
    return turns


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

    #: the rules of the game, as ``Game.rules`` made them: the runners read its
    #: ``variant`` (whose ``str`` the registry maps to this game), ``players`` and ``teams``
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

    def apply(self, action: int) -> None:
        """Play one decision, checked: an ``IllegalMoveError`` saying why when it is not legal."""

    def apply_legal(self, action: int) -> None:
        """Play an action taken from :meth:`legal_actions`, unchecked: the runners' and
        bots' path, which would otherwise pay for the check on every decision."""

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

    def ends_turn(self, action: int) -> bool:
        """Whether the legal ``action`` is the last decision of its player's turn (False
        for a decision the same player follows with another); read from the action
        alone, so that it can be asked of the state where the turn began."""

    def play_turn(self, text: str) -> None:
        """Play one whole turn written in the game's notation, keeping what the text
        adds to its actions (Sequence: a declaration, the card an exchange drew);
        nothing is played if a part is illegal.

        Raises:
            MoveSyntaxError: the text is not a turn in the game's notation.
            IllegalMoveError: a decision is not legal where it comes (the message says why).
        """

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat``'s hand in the game's notation, ``'?'`` for an unknown one."""

    def hidden_cards(self) -> list[str]:
        """Where the state holds cards it does not know, in words (``hand 1 holds 7
        unknown``); empty when every card is known."""

    def perft(self, depth: int) -> int:
        """The leaves of the action tree ``depth`` actions deep (an action that ends the
        game is one leaf); every card must be known."""


class Game(Protocol):
    """One game: its rules from a variant string, its deals, its position files."""

    #: the game's name, as the registry and the messages give it
    name: str
    #: the bot a command plays when it is given none (balance's self-play)
    default_bot: str

    def parse_variant(self, text: str) -> Any:
        """The variant ``text`` names, checked as far as it can be without a seating
        (a ``ValueError`` naming what is wrong): an object with its ``preset``, its
        ``overrides`` (option, value) pairs, ``options()`` (every option's value,
        ``players`` None when it seats no one) and ``with_overrides(dict)``, whose
        ``str`` is the variant string."""

    #: the presets of the game's rule books, in their order (what ``balance --all-presets`` runs)
    presets: tuple[str, ...]

    def parse_option(self, name: str, text: str) -> Any:
        """The value of the option ``name`` written ``text`` (a ``RulesError`` naming what it takes)."""

    def default_teams(self, players: int) -> int | None:
        """The sides a player count implies when none are given; None when it leaves a choice."""

    def seatings(self, preset: str) -> list[tuple[int, int]]:
        """Every (players, teams) the preset allows, as the balance grid seats it."""

    def rules(self, variant: str, players: int | None = None, teams: int | None = None) -> Any:
        """The rules of one game of ``variant`` with that seating (players/teams
        override the variant's own); a ``ValueError`` naming what is wrong."""

    def new_initial_state(self, rules: Any, seed=None) -> GameState:
        """A freshly dealt game; the same seed deals the same game."""

    def read_position(self, text: str, source: str = "<string>", seed=None) -> GameState:
        """The state a position file describes, with every check of a file.

        With a seed, chance in the game (a reshuffle, :meth:`GameState.resample`)
        draws from it; without one, a card only chance could reveal stays unknown.

        Raises:
            PositionError: naming ``source``, the line and the column.
        """

    #: the forms :meth:`write_position` writes, the first the default
    position_forms: tuple[str, ...]

    def write_position(self, state: GameState, viewer: int | None = None, form: str = "sqn") -> str:
        """The position file of ``state`` in ``form`` (only what ``viewer`` sees, if given)."""

    def position_facts(self, state: GameState) -> dict:
        """What ``show --json`` adds to the position's fields (JSON-ready), beyond the legal moves."""

    def render(
        self,
        state: GameState,
        viewer: int | None,
        legal: list[str] | None,
        color: bool,
        notes: list[str],
        last: Iterable[str] = (),
    ) -> str:
        """The position drawn for a terminal (only what ``viewer`` sees, if given), with
        the lines of ``notes``, the ``legal`` moves of the side to move (None: not listed)
        and where the moves ``last`` (in the game's notation) landed marked, so that a
        player sees what the bots just did (``seqsolve play``).

        Raises:
            NotSupported: the game draws no picture of its positions (``show`` and
                ``play`` then say so in one line).
        """
        raise NotSupported(f"{self.name} has no picture of its positions yet")

    def picture(self, state: GameState, viewer: int | None = None, marks: list[dict] | None = None) -> str:
        """The position drawn as SVG text (only what ``viewer`` sees, if given), with each
        of ``marks`` (``{"move": a whole turn in the game's notation, "label": text}``, an
        analysis' win chance say) shown where its turn plays; a game without pictures
        raises :class:`NotSupported`.

        Raises:
            MoveSyntaxError: a mark's move is not in the game's notation.
        """
        raise NotSupported(f"the game {self.name} draws no pictures")

    def picture_png(
        self, state: GameState, new_figure, viewer: int | None = None, marks: list[dict] | None = None
    ) -> bytes:
        """The same picture as :meth:`picture`, as PNG bytes drawn on ``new_figure(width, height)``."""
        raise NotSupported(f"the game {self.name} draws no pictures")

    def side_name(self, side: str) -> str:
        """The word for a side's character in messages (Sequence: ``'b'`` is ``'blue'``)."""

    #: why a played game may end, as records name them (the lower-case names of
    #: :attr:`GameOutcome.termination`), a win first
    terminations: tuple[str, ...]

    def tally(self, rules: Any) -> Any:
        """What the balance analysis counts of each game (a ``play.match.Tally``),
        which also sums those counts over a point's records (``tally.summarize``)."""

    def plot_games(self, summary: dict, new_figure) -> Any:
        """The game's own picture of a balance point's games (from its tally's summary),
        drawn on a figure of ``new_figure(width, height)``: the figure, which the caller
        writes (a game knows nothing of files)."""

    def loop(self, rules: Any, choosers: list, detail: Any = None) -> Any:
        """A compiled player of whole games between bots (each bot's
        ``Bot.loop_chooser(rules)``, None for a bot it cannot play) with the same games
        and records as the runner's own loop, or None: the runner then plays them
        action by action."""

    def searcher(self, params: dict) -> Any:
        """The compiled information-set search that ``analyze`` drives: ``search(state,
        viewer, bit_generator, iterations=, seconds=, open_information=)`` returning
        ``{"iterations", "seconds", "value", ...}``, then ``root_stats(pv_length)`` (per
        root action: ``action``, ``visits``, ``value``, ``pv``) and ``evaluate(state, side)``;
        a game with tactics adds ``rollout_values`` and ``rollout_outcomes`` (per dealt world,
        each action's result and the hands dealt: the analysis' ``depends``)."""

    def prove_win(
        self,
        state: GameState,
        side: int,
        captain: int,
        plies: int,
        nodes: int,
        seconds: float,
        excluded: tuple[str, ...] = (),
    ) -> tuple[bool, list[int], int, bool]:
        """Whether ``side`` wins by force within ``plies`` turns of ``state`` whatever the
        cards hidden from it (``captain``: a seat of the side that chooses whatever it
        holds, or -1): ``(proven, line, nodes used, complete)``, within ``nodes`` and
        ``seconds`` (0: no clock).  The proof search ``analyze`` reports.  ``excluded``:
        cards nobody may hold or draw unseen (a proof on that condition: the analysis'
        "wins unless green holds a one-eyed jack").

        Raises:
            NotSupported: the game has no proof search.
        """

    def halt_searches(self, stop: bool = True) -> None:
        """End every search of :meth:`searcher` running in this process at its next check
        (``stop``), or let searches run again (``False``)."""

    def tactics(self, view: GameState, open_information: bool) -> Any:
        """The exact facts ``analyze`` reports beside its search, found by trying moves
        in ``view`` (what the analyst sees): a :class:`Tactics`."""

    def bot_classes(self) -> dict[str, type]:
        """The game's bots by name (``seqsolve.bots.Bot`` classes), the same name for the
        same job in every game: ``random``, ``greedy``, ``mcts``, ..."""


class Tactics(Protocol):
    """What a game knows exactly about the decision to make in a view, by trying moves
    rather than by search: the analysis ranks and explains turns with it.

    Optional, read with defaults: ``whole_turns`` (True: a turn's first decisions are
    ranked as whole turns; Stacks ranks each decision on its own), ``looked`` (True: the
    opponents' wins were looked for) and ``wins_now(view, turn, side)`` (``"win"``,
    ``"win_unless_blocked"`` or None, for a game whose win is not always the end of the
    turn that makes it: Stacks' Block window)."""

    def opponent_wins(self, view: GameState, side: int) -> list[dict]:
        """Every way a side other than ``side`` would win on its next turn in ``view``: a dict
        each, JSON-ready, whose ``possible`` says whether it may hold what it needs."""

    def replacement_wins(self, action: int, side: int) -> float:
        """For a decision that does not end the turn (Sequence's exchange): the chance that
        what it reveals lets ``side`` win at once."""

    def is_pass(self, action: int) -> bool:
        """Whether the action ends the turn doing nothing (the last resort a turn may anchor on)."""

    def is_known_play(self, state: GameState, action: int) -> bool:
        """Whether ``action`` ends the turn in ``state`` and the analyst knows all it plays."""

    def describe(self, threat: dict) -> str:
        """One entry of :meth:`opponent_wins` in words, for the text report."""

    def summary(self) -> list:
        """Per side, what it threatens (objects with ``to_dict()`` and ``lines()``, the text report's)."""

    def holding_features(self, after: GameState, side: int) -> list[dict]:
        """What the hidden hands of the sides other than ``side`` may hold that can decide
        the game after a turn (``after``): ``{"side", "holding", "seats", "cards"}`` each
        (the side's name, the holding in words), held in a world when one of ``seats``
        holds one of ``cards`` (the analysis' ``depends``)."""

    def holding_chance(self, seats: list[int], cards: list[str]) -> float | None:
        """The exact chance that one of ``seats`` holds one of ``cards`` unseen by the
        analyst, None when a known hand holds one."""

    def winning_draws(self, after: GameState, turn: tuple[int, ...], side: int) -> dict | None:
        """The cards whose draw after ``turn`` would let ``side`` win on its next turn, and
        the chance of drawing one; None when the draw is not a chance (known or chosen)."""
