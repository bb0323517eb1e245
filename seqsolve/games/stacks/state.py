"""A game of Sequence Stacks in progress: the Python face of the compiled engine
``seqsolve._stacks``, speaking the :class:`~seqsolve.games.base.GameState`
vocabulary the runners and bots use.

Every seat plays for itself (ST-1), so a side is a seat, named ``'0'``…``'5'``.
A turn is many decisions, and a Block is asked of opponents out of turn (ST-15,
docs/stacks.md), so :attr:`StacksState.current_player` is whoever decides now.
User input is checked here, with the reason for every refusal; the engine assumes
legal actions and never checks again.

>>> from seqsolve.games.stacks.rules import make_rules
>>> state = StacksState.new(make_rules("stacks", 2), seed=7)
>>> state.current_player, state.sides, state.to_position().draw_count
(0, '01', 102)
>>> state.apply(state.legal_actions()[-1]); state.turn
1
"""

from __future__ import annotations

import enum
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ... import arguments
from ...errors import ArgumentError
from ..base import IllegalMoveError, MoveSyntaxError
from ..engine import Outcome, bit_generator, deal_unseen, not_built
from .actions import (
    BLOCK,
    DISCARD_BASE,
    NUM_ACTIONS,
    PASS,
    action_to_text,
    text_to_action,
)
from .cards import card_code
from .position import StacksPosition
from .refusals import refusal
from .rules import StacksRules

try:
    from ... import _stacks
except ImportError as exc:  # pragma: no cover - exercised only in an unbuilt tree
    raise not_built("compiled Stacks engine", exc) from None

#: a seat's side character (ST-1: no teams)
SEAT_NAMES = "012345"
_ONGOING, _DRAW = -1, 6


class Termination(enum.Enum):
    """Why a Stacks game ended (ST-21, ST-22)."""

    WIN = 1
    DRAW_STALLED = 2  # nothing left to draw and a full round without progress, or a stalled turn
    MAX_TURNS = 3
    RECORDED = 4  # read finished from a position: the reason is not recorded


class LastDecision(NamedTuple):
    """The decision that made a position: the seat that took it and its action number,
    what a picture marks as a board marks the last chip laid.

    >>> LastDecision(1, 24).text
    'B3'
    """

    seat: int
    action: int

    @property
    def text(self) -> str:
        """The decision in notation (``B3``, ``~R5``, ``block``)."""
        return action_to_text(self.action)


@lru_cache(maxsize=64)
def stacks_tables(rules: StacksRules) -> _stacks.StacksTables:
    """The engine's copy of a rule set, built once per rule set."""
    return _stacks.StacksTables(
        rules.players,
        rules.refill,
        rules.max_piles_per_colour,
        rules.chip_supply,
        rules.win_chips,
        rules.win_min_each,
        rules.actions_from_discard,
        rules.steal_chip_can_win,
        rules.max_turns,
        rules.deck,
        rules.first_turn_short,
        rules.first_hand_bonus,
    )


class StacksState:
    """A game of Sequence Stacks in progress or finished."""

    def __init__(self, rules: StacksRules, core: _stacks.StacksCore, last: tuple[int, int] | None = None):
        self.rules = rules
        self.seats = SEAT_NAMES[: rules.players]
        self._core = core
        self._last = last  # (seat, action): a plain tuple, the cheapest thing apply can keep

    @property
    def last_decision(self) -> LastDecision | None:
        """The decision that made this position (None: a deal, or a position file that
        does not say); kept by :meth:`clone`, :meth:`observation` and :meth:`resample`."""
        return None if self._last is None else LastDecision(*self._last)

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, rules: StacksRules, seed=None) -> StacksState:
        """Shuffle and deal (ST-5); the same seed deals the same game and recycles alike."""
        if not isinstance(rules, StacksRules):
            raise ArgumentError(
                f"new: rules must be Sequence Stacks rules (seqsolve.parse_rules('stacks')), not {rules!r}"
            )
        seed = arguments.seed(seed, "new")
        core = _stacks.StacksCore(stacks_tables(rules), bit_generator(seed))
        core.deal()
        return cls(rules, core)

    @classmethod
    def from_position(cls, pos: StacksPosition, seed=None) -> StacksState:
        """The game at ``pos``, a decision point (the mover's turn start is behind it).

        ``seed`` is the shuffle source of recycled piles (ST-20); without one a
        recycled draw pile is unknown, as it is to anyone reading the file.
        """
        if not isinstance(pos, StacksPosition):
            raise ArgumentError(f"from_position: pos must be a Sequence Stacks position, not {pos!r}")
        seed = arguments.seed(seed, "from_position")
        core = _stacks.StacksCore(stacks_tables(pos.rules), None if seed is None else bit_generator(seed))
        fields = {name: getattr(pos, name) for name in _FIELDS}
        core.load(fields)
        return cls(pos.rules, core, pos.last_decision)

    def to_position(self) -> StacksPosition:
        """Everything, canonical (docs/stacks.md); an empty pile or stack is listed."""
        fields = self._core.dump()
        del fields["termination"]
        return StacksPosition(rules=self.rules, **fields, last_decision=self._last)

    def to_text(self, form: str = "stn", viewer: int | None = None) -> str:
        """The position file of this state (docs/stacks.md): ``"stn"`` (or ``"sqn"``, the
        one-line form's name in classic), ``"readable"`` or ``"json"``; with ``viewer``,
        only what that seat may see.

        Raises:
            ArgumentError: an unknown ``form``, or a ``viewer`` that is no seat.
        """
        import json

        from .position_text import to_readable, to_stn
        from .view import position_to_dict

        writers = {
            "stn": to_stn,
            "readable": to_readable,
            "json": lambda p: json.dumps(position_to_dict(p), indent=2),
        }
        writer = writers["stn" if form == "sqn" else arguments.choice(form, "to_text", "form", writers)]
        seen = (
            self
            if viewer is None
            else self.observation(arguments.seat(viewer, "to_text", self.rules.players, "viewer"))
        )
        return writer(seen.to_position())

    # ------------------------------------------------------------ reading
    @property
    def sides(self) -> str:
        return self.seats

    def side_of(self, seat: int) -> int:
        return arguments.seat(seat, "side_of", self.rules.players)

    @property
    def current_player(self) -> int | None:
        """The seat that decides now (the asked opponent in a Block window); None when over."""
        return self._core.current_player

    @property
    def turn(self) -> int:
        return self._core.turn

    @property
    def core(self) -> _stacks.StacksCore:
        """The compiled game, for bots and runners that work in the engine."""
        return self._core

    def is_terminal(self) -> bool:
        return self._core.result != _ONGOING

    def outcome(self) -> Outcome | None:
        result = self._core.result
        if result == _ONGOING:
            return None
        winner = None if result == _DRAW else self.seats[result]
        return Outcome(Termination(self._core.termination), winner)

    def returns(self) -> list[float]:
        """1 for the winner and -1 for the others; all 0 for a draw or a game going on."""
        result = self._core.result
        if result in (_ONGOING, _DRAW):
            return [0.0] * self.rules.players
        return [1.0 if seat == result else -1.0 for seat in range(self.rules.players)]

    def has_hidden_cards(self) -> bool:
        return self._core.has_unknown()

    # ------------------------------------------------------------ actions
    def legal_actions(self) -> list[int]:
        """Ascending action numbers of docs/stacks.md."""
        return self._core.legal_actions()

    def apply(self, action: int | str) -> None:
        """Play one decision: an action number from :meth:`legal_actions`, or its text.

        Raises:
            IllegalMoveError: the decision is not legal here (the message says why).
            MoveSyntaxError: the text is not Stacks notation.
            ArgumentError: ``action`` is neither (a bool is not an action number).
        """
        if isinstance(action, str):
            action = self.string_to_action(action)
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            action = int(action)
            if action not in self._core.legal_actions():
                raise IllegalMoveError(refusal(self.to_position(), self.rules, action))
        else:
            raise ArgumentError(f"apply: action must be an action number or its text, not {action!r}")
        seat = self._core.current_player
        self._core.apply(action)
        self._last = (seat, action)

    def apply_legal(self, action: int) -> None:
        """Play an action number taken from this state's :meth:`legal_actions`, unchecked
        (the runners' and bots' path; a program's own input goes to :meth:`apply`).  A
        number that is no action at all is refused: the engine would read past its tables."""
        seat = self._core.current_player
        try:
            if not 0 <= action < NUM_ACTIONS:
                raise OverflowError
            self._core.apply(action)
        except (TypeError, ValueError, OverflowError):  # free until raised: the check of a type only
            raise ArgumentError(
                f"apply_legal: action must be one of legal_actions(), not {action!r}"
            ) from None
        self._last = (seat, int(action))

    def random_action(self) -> int:
        """A legal action drawn uniformly with the game's own bit generator."""
        return self._core.random_action()

    def action_to_string(self, action: int) -> str:
        """The decision's text (``B3``, ``~R5``, ``block``)."""
        return action_to_text(arguments.integer(action, "action_to_string", "action", 0, NUM_ACTIONS - 1))

    def string_to_action(self, text: str) -> int:
        """The action ``text`` names: a MoveSyntaxError when it is not Stacks notation,
        an IllegalMoveError saying why (naming the rule) when it is not legal here."""
        text = arguments.text(text, "string_to_action", "text", "a decision in notation such as 'B3'")
        try:
            action = text_to_action(text)
        except ValueError as exc:
            raise MoveSyntaxError(str(exc)) from None
        if action not in self._core.legal_actions():
            raise IllegalMoveError(refusal(self.to_position(), self.rules, action))
        return action

    @staticmethod
    def ends_turn(action: int) -> bool:
        """A discard (ST-14) or ``end`` ends the turn; a play goes on, and so does a
        Block window's answer: the completer carries on with its turn (ST-15)."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            action = arguments.integer(action, "ends_turn", "action", 0, NUM_ACTIONS - 1)
        return action >= DISCARD_BASE and action not in (BLOCK, PASS)

    def turns_played(self, last_action: int | None) -> int:
        """Turns begun (docs/stacks.md, "Turns"): the completed ones, skipped ones
        included (ST-10), and the turn the game stopped in when ``last_action`` (the
        last action played; None: none) did not end it: a win (ST-21) or a stalled
        draw (ST-22) comes in the middle of a turn, a forfeit may.

        >>> from seqsolve.games.stacks.rules import make_rules
        >>> state = StacksState.new(make_rules("stacks", 2), seed=7)
        >>> b1 = state.string_to_action("B1"); state.apply(b1); state.turns_played(b1)  # the first turn, under way
        1
        >>> r2 = state.string_to_action("~R2"); state.apply(r2); state.turns_played(r2)  # and complete
        1
        """
        unfinished = last_action is not None and not self.ends_turn(last_action)
        return self.turn + unfinished

    def seats_skipped(self, action: int) -> list[int]:
        """The seats whose turns are skipped (ST-10) when ``action`` ends this turn, in
        the order they are skipped: each such turn completes at once, so it is a turn
        of its own in every count (docs/stacks.md, "Turns")."""
        action = arguments.integer(action, "seats_skipped", "action", 0, NUM_ACTIONS - 1)
        if not self.ends_turn(action) or self.is_terminal():
            return []
        if action not in self._core.legal_actions():
            raise IllegalMoveError(refusal(self.to_position(), self.rules, action))
        after = self._core.clone(None)
        after.apply(action)
        skipped = after.turn - self.turn - 1
        if not skipped:
            return []
        seat, step, players = self.current_player, self.to_position().direction, self.rules.players
        return [(seat + step * (i + 1)) % players for i in range(skipped)]

    def play_turn(self, text: str) -> None:
        """Play the decisions of ``text`` (``B1 B2 ~R5``, a Block window's answers in
        their place: ``B5 pass R1 ~B2``), all or none; a turn may stop part-way, but
        nothing may follow the decision that ends it."""
        words = arguments.text(text, "play_turn", "text", "a turn in notation such as 'B3 ~R5'").split()
        if not words:
            raise MoveSyntaxError("an empty turn: give its decisions, e.g. 'B3 ~R5'")
        trial = self.clone()
        for i, word in enumerate(words):
            if trial.is_terminal():
                raise IllegalMoveError(f"{word}: the game is over")
            action = trial.string_to_action(word)
            if trial.ends_turn(action) and i < len(words) - 1:
                raise MoveSyntaxError(f"{word!r} ends the turn: give the next turn as an argument of its own")
            trial.apply_legal(action)
        self._core = trial._core
        self._last = trial._last

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat``'s hand in kind order, ``'?'`` for each unknown one."""
        counts, unknown = self._core.hand_counts(arguments.seat(seat, "hand", self.rules.players))
        return [card_code(kind) for kind, n in enumerate(counts) for _ in range(n)] + ["?"] * unknown

    def hidden_cards(self) -> list[str]:
        """Where the state holds unknown cards, in words; empty when every card is known."""
        pos = self.to_position()
        out = [f"hand {seat} holds {n} unknown" for seat, n in enumerate(pos.unknown) if n]
        if pos.draw_cards is None and pos.draw_count:
            out.append(f"the draw pile's {pos.draw_count} cards are not listed")
        if pos.aside_cards is None and pos.aside_count:
            out.append(f"the {pos.aside_count} set-aside cards are not listed")
        return out

    def _repr_svg_(self) -> str:
        """Jupyter (and IPython's other front ends) show a state as its picture."""
        from .picture import position_svg

        return position_svg(self.to_position())

    def clone(self) -> StacksState:
        return StacksState(self.rules, self._core.clone(), self._last)

    def perft(self, depth: int) -> int:
        """Leaves of the action tree ``depth`` actions deep (at most 12, as ``seqsolve perft``)."""
        depth = arguments.integer(depth, "perft", "depth", 0, 12)
        if self.has_hidden_cards():
            raise ArgumentError(f"perft needs every card known, but {'; '.join(self.hidden_cards())}")
        return self._core.clone().perft(depth)

    # ------------------------------------------------------------ hidden information
    def observation(self, player: int) -> StacksState:
        """What ``player`` may see (§4.8): its own hand and everything public; the other
        hands and the draw pile are unknown, and there is no shuffle source, so a
        recycled pile stays unknown instead of foretelling a shuffle."""
        player = arguments.seat(player, "observation", self.rules.players, "player")
        seen = StacksState(self.rules, self._core.clone(None), self._last)  # every decision is public
        seen._core.mask_hidden(player)
        return seen

    def resample(self, player: int, rng) -> StacksState:
        """A full-information world consistent with what ``player`` has seen: every card
        it cannot see (other hands, its own unknown cards, the draw pile, set-aside
        cards given by their count) dealt anew from the cards it has not seen."""
        player = arguments.seat(player, "resample", self.rules.players, "player")
        rng = (
            rng
            if isinstance(rng, np.random.Generator)
            else np.random.default_rng(arguments.seed(rng, "resample", "rng"))
        )
        pos = self.to_position()
        unseen = Counter(dict(enumerate(self.rules.deck)))
        own = list(pos.hands[player])
        seen = (
            own + [c for pile in pos.discards for c in pile] + pos.special + [c for p in pos.piles for c in p]
        )
        seen += pos.aside_cards or []
        sizes = [len(h) + u for h, u in zip(pos.hands, pos.unknown)]
        hidden_aside = 0 if pos.aside_cards is not None else pos.aside_count
        hands, cards = deal_unseen(
            unseen, seen, {player: own}, sizes, pos.draw_count + hidden_aside, player, rng
        )
        draw, aside = cards[: pos.draw_count], cards[pos.draw_count :]
        # its own generator, drawn from rng: copying the real game's would foresee its recycling
        world = StacksState(self.rules, self._core.clone(bit_generator(rng)), self._last)
        world._core.set_hidden(hands, draw, sorted(aside) if pos.aside_cards is None else None)
        return world


#: the StacksPosition fields the engine loads
_FIELDS = (
    "to_move",
    "direction",
    "progress",
    "refilled",
    "block_asked",
    "result",
    "hands",
    "unknown",
    "discards",
    "special",
    "piles",
    "chips",
    "skips",
    "aside_count",
    "aside_cards",
    "draw_count",
    "draw_cards",
    "turn",
    "quiet",
)
