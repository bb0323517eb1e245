"""Sequence as an OpenSpiel game, and OpenSpiel's information-set MCTS as a seqsolve bot.

Importing this module registers ``python_seqsolve_sequence`` with OpenSpiel, so that
``pyspiel.load_game("python_seqsolve_sequence(variant=draft,players=4)")`` gives any
Sequence preset to OpenSpiel's algorithms.  The game is sequential, with imperfect
information and explicit chance: every card dealt and every card drawn is a chance
outcome (:class:`seqsolve.frameworks._tables.Dealer`), so the engine's own shuffles
never decide what a seat sees.  Actions are numbered once for the whole game
(:class:`~seqsolve.frameworks._tables.ActionTable`: 533 in classic).

What a seat knows is given the two ways OpenSpiel defines:

* the *observation*: what the seat sees now, as a tensor (board planes, its hand,
  the discard piles, the draft, sizes, counted from the observer) and as a string,
  the position file that seat may be shown (``State.to_text(viewer=seat)``), which
  ``seqsolve.parse_state`` reads back;
* the *information state*: everything the seat saw, in order (perfect recall): as a
  string, the deal and every action, with the cards dealt or drawn to the seat and
  ``?`` for the others'; as a tensor, the observation and every card the seat has held.

>>> import pyspiel, seqsolve.frameworks.openspiel
>>> game = pyspiel.load_game("python_seqsolve_sequence(variant=classic,players=2)")
>>> game.num_distinct_actions(), game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
(533, True)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import Any, ClassVar

from . import require

require("open-spiel", "pyspiel")

import numpy as np
import pyspiel

from ..errors import ArgumentError
from ..games.base import IllegalMoveError
from ..games.bot import Bot, BotError, Param
from ..games.engine import bit_generator
from ..games.sequence.notation import to_sqn
from ..games.sequence.position import Hand
from ..games.sequence.rules import Rules, RulesError
from ..games.sequence.state import State
from ._tables import (
    ActionTable,
    Dealer,
    _copy,
    draw,
    game_rules,
    observation_pieces,
    play,
    seen_in,
    seen_in_deal,
    write_seen,
)

#: the name OpenSpiel knows the game by
GAME_NAME = "python_seqsolve_sequence"
_DEFAULTS = {"variant": "classic", "players": 2, "teams": 0}
#: the deal's order of the draw pile (never seen: every draw is a chance outcome)
_PILE_SEED = 0


def _game_type(utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Sequence (seqsolve)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=12,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


#: registered once: two sides make the game zero-sum (a team shares its return), three not
GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class _Kept:
    """A value a state shares with its clones: OpenSpiel clones a Python state by deep
    copy, and a game State here is never changed once made (a play copies it)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        """OpenSpiel serialises a Python state by pickling its attributes: the game by its
        parameters, a seqsolve game by its position file with every card listed (SQN), a
        draw to come by the game before the play and the play."""
        value = self.value
        if isinstance(value, SequenceGame):
            return _kept_game, (dict(value.get_parameters()),)
        if isinstance(value, State):
            return _kept_world, (value.to_text(),)
        return _kept_draw, (_Kept(value.before), value.action)


def _kept_game(params: dict) -> _Kept:
    return _Kept(SequenceGame(params))


def _kept_world(text: str) -> _Kept:
    from ..api import parse_state

    return _Kept(_copy(parse_state(text)))


def _kept_draw(before: _Kept, action: int) -> _Kept:
    _, pending = play(before.value, action)
    return _Kept(pending)


def _safe_variant(variant: str) -> str:
    """A variant as OpenSpiel's game strings can hold it: its options written
    ``name:value`` and parted by ``;`` (``classic[heart_rule:on;max_turns:200]``), since
    OpenSpiel splits a game string at every ``=`` and ``,``."""
    head, bracket, body = variant.partition("[")
    return head + bracket + body.replace("=", ":").replace(",", ";")


def _seqsolve_variant(variant: str) -> str:
    """The variant as ``--variant`` writes it (the inverse of :func:`_safe_variant`)."""
    head, bracket, body = variant.partition("[")
    return head + bracket + body.replace(":", "=").replace(";", ",")


class SequenceGame(pyspiel.Game):
    """A Sequence preset as an OpenSpiel game: parameters ``variant`` (a preset, with
    options in brackets, as ``--variant`` takes them or written ``name:value`` and parted
    by ``;`` for OpenSpiel's game strings), ``players`` and ``teams`` (0: the preset's
    choice)."""

    def __init__(self, params: dict | None = None):
        unknown = sorted(set(params or {}) - set(_DEFAULTS))
        if unknown:
            raise ArgumentError(
                f"SequenceGame: unknown parameter {unknown[0]!r} (known: players, teams, variant)"
            )
        values = {**_DEFAULTS, **(params or {})}
        if not isinstance(values["variant"], str):
            raise ArgumentError(
                f"SequenceGame: variant must be text such as 'classic', not {values['variant']!r}"
            )
        values["variant"] = _safe_variant(values["variant"])
        self.rules = game_rules(_seqsolve_variant(values["variant"]), values["players"], values["teams"])
        self.table = ActionTable(self.rules)
        self.dealer = Dealer.of(self.rules)
        r = self.rules
        # a turn is its exchanges (each discards a card of the deck: unlimited is at most
        # the deck) and the play that ends it
        deck = len(r.deck_cards.codes) * r.deck_cards.copies
        exchanges = deck if r.unlimited_exchanges else min(r.dead_card_exchanges_per_turn, deck)
        zero_sum = r.teams == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.size,
            max_chance_outcomes=len(r.deck_cards.codes),
            num_players=r.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=r.max_turns * (exchanges + 1),
        )
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(_game_type(utility), info, values)
        self._shared = _Kept(self)

    @classmethod
    def of(cls, rules: Rules) -> SequenceGame:
        """The game of ``rules`` (what seqsolve's runners hold)."""
        return cls({"variant": str(rules.variant), "players": rules.players, "teams": rules.teams})

    def new_initial_state(self) -> SequenceState:
        return SequenceState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SequenceObserver(
            self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class SequenceState(pyspiel.State):
    """A game in progress: the deal (a list of the cards dealt, until it is complete),
    then a seqsolve :class:`~seqsolve.State` with every card known, or a play whose
    draw a chance outcome is still to give."""

    def __init__(self, game: SequenceGame):
        super().__init__(game)
        self._game_ref = game._shared
        self._dealt: list[int] | None = []
        self._world: _Kept | None = None
        self._draw: _Kept | None = None  # a _tables.Draw
        #: what each seat saw, in order: (seat that sees the private text or -1, public, private)
        self._log: list[tuple[int, str, str]] = []
        self._held = [Counter() for _ in range(game.rules.players)]

    @property
    def world(self) -> State | None:
        """The seqsolve game behind this state (None while dealing or drawing)."""
        return None if self._world is None or self._draw is not None else self._world.value

    def _g(self) -> SequenceGame:
        return self._game_ref.value

    # ------------------------------------------------------------ OpenSpiel's state API
    def current_player(self) -> int:
        if self._dealt is not None or self._draw is not None:
            return pyspiel.PlayerId.CHANCE
        world = self._world.value
        if world.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return world.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self._g().table.legal(self._world.value)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._dealt is not None:
            return self._g().dealer.deal_outcomes(self._dealt)
        return self._draw.value.outcomes()

    def _apply_action(self, action: int) -> None:
        g = self._g()
        codes = g.rules.deck_cards.codes
        if self._dealt is not None or self._draw is not None:
            # OpenSpiel hands any number on: a card no deal or draw can give is refused here
            if action not in dict(self.chance_outcomes()):
                raise IllegalMoveError(f"chance outcome {action} is no card the deal or draw can give here")
        elif self._world is not None:
            # ... and the core plays only legal actions, without checking them again
            g.table.checked(action, self._world.value, f"seat {self._world.value.current_player}")
        if self._dealt is not None:
            owner = g.dealer.deal_owner(len(self._dealt))
            self._dealt.append(action)
            if owner is None:
                self._log.append((-1, f"draft:{codes[action]}", ""))
            else:
                self._log.append((owner, f"deal{owner}:?", f"deal{owner}:{codes[action]}"))
                self._held[owner][action] += 1
            if len(self._dealt) == g.dealer.deal_size:
                self._world = _Kept(g.dealer.table(self._dealt, _PILE_SEED))
                self._dealt = None
            return
        if self._draw is not None:
            pending = self._draw.value
            seat = pending.drawn_by()
            self._world = _Kept(draw(pending, action))
            self._draw = None
            if seat is None:
                self._log.append((-1, f"draft:{codes[action]}", ""))
            else:
                self._log.append((seat, f"draw{seat}:?", f"draw{seat}:{codes[action]}"))
                self._held[seat][action] += 1
            return
        world = self._world.value
        seat = world.current_player
        self._log.append((-1, f"{seat}:{g.table.text(action)}", ""))
        after, pending = play(world, g.table.core(action))
        if pending is None:
            self._world = _Kept(after)
        else:
            self._draw = _Kept(pending)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self._g().rules.deck_cards.codes[action]
        return self._g().table.text(action)

    def is_terminal(self) -> bool:
        return self.world is not None and self.world.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._g().rules.players
        return self.world.returns()

    def __str__(self) -> str:
        if self._dealt is not None:
            return "dealing: " + " ".join(self._g().rules.deck_cards.codes[c] for c in self._dealt)
        if self._draw is not None:
            return self._pending_text(None)
        return self._world.value.to_text()

    def _pending_text(self, viewer: int | None, private: bool = True) -> str:
        """A play whose draw is still to come: the position before it, then the play (the
        position file has no place for a card being drawn)."""
        pending = self._draw.value
        move = pending.before.action_to_string(pending.action)
        return f"{_text(pending.before, viewer, private)} then {move}, drawing"

    def resample_from_infostate(self, player: int, sampler) -> SequenceState:
        """A state ``player`` cannot tell from this one: the same deal and actions as it
        saw them, every card it has not seen dealt anew (``State.resample``).  The other
        seats' earlier private draws are not made up again: their information states
        show them as ``?``.  ``sampler`` (a ``pyspiel`` sampler) gives the seed."""
        if self.world is None or self.is_terminal():
            raise pyspiel.SpielError("resample_from_infostate: only at a decision of a seat")
        rng = np.random.default_rng(int(sampler() * 2**53))
        new = self.clone()
        new._world = _Kept(self.world.observation(player).resample(player, rng))
        new._log = [(who, pub, priv if who in (-1, player) else pub) for who, pub, priv in self._log]
        new._held = [held if s == player else Counter() for s, held in enumerate(self._held)]
        return new

    # ------------------------------------------------------------ what a seat sees
    def seen(self, player: int):
        g = self._g()
        if self._dealt is not None:
            return seen_in_deal(g.rules, g.dealer, self._dealt, player)
        if self._draw is not None:
            pending = self._draw.value
            return seen_in(pending.unseen, player, to_move=-1)
        world = self._world.value
        return seen_in(world, player, to_move=-1 if world.is_terminal() else None)

    def observation_text(self, player: int, private: bool = True) -> str:
        """What ``player`` sees now: its position file (SQN); without ``private``, what
        every seat sees (its own hand as a count too)."""
        if self._dealt is not None:
            codes = self._g().rules.deck_cards.codes
            cards = self.seen(player).hand
            shown = ",".join(codes[c] for c in cards) if private else f"{len(cards)} cards"
            return f"dealing to seat {player}: {shown}"
        if self._draw is not None:
            return self._pending_text(player, private)
        return _text(self._world.value, player, private)

    def information_text(self, player: int, private: bool = True) -> str:
        """Everything ``player`` saw, in order, then the cards it holds now (redundant in
        a game played from the deal; in a resampled world, where the other seats' past
        draws are ``?``, it tells their information states apart by their hands).
        Without ``private``, what every seat saw."""
        codes = self._g().rules.deck_cards.codes
        seen = " ".join(priv if who == player and private else pub for who, pub, priv in self._log)
        if not private:
            return f"seat {player}: {seen}"
        hand = ",".join(codes[c] for c in self.seen(player).hand)
        return f"seat {player}: {seen} | hand {hand}"


def _text(world: State, viewer: int | None, private: bool) -> str:
    """``world``'s position file as ``viewer`` sees it; without ``private``, with the
    viewer's hand a count too (the public observation)."""
    if private:
        return world.to_text(viewer=viewer)
    pos = world.to_position(viewer)
    return to_sqn(replace(pos, hands=tuple(Hand((), len(hand)) for hand in pos.hands)))


class SequenceObserver:
    """OpenSpiel's Python observer: ``tensor`` and its named views ``dict`` for one seat.

    Without perfect recall, the observation; with it, the information state.  Both
    count seats and sides from the observer (the observer is seat 0 of every
    seat-indexed piece, its side side 0), so that one network serves every seat.
    """

    def __init__(self, rules: Rules, iig_obs_type, params):
        if params:
            raise ValueError(f"the Sequence observer takes no parameters, not {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("the Sequence observer shows one seat's cards, never every seat's")
        self.rules = rules
        self.recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces = observation_pieces(
            rules,
            private=self.private,
            public=iig_obs_type.public_info,
            recall=self.recall,
        )
        self.tensor = np.zeros(sum(math.prod(shape) for _, shape in pieces), np.float32)
        self.dict = {}
        start = 0
        for name, shape in pieces:
            size = math.prod(shape)
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: SequenceState, player: int) -> None:
        self.tensor.fill(0)
        write_seen(
            self.dict, state.seen(player), player, self.rules, state._held[player] if self.private else None
        )

    def string_from(self, state: SequenceState, player: int) -> str:
        if self.recall:
            return state.information_text(player, self.private)
        return state.observation_text(player, self.private)


pyspiel.register_game(GAME_TYPE, SequenceGame)


# ---------------------------------------------------------------------- bots
class PlayoutEvaluator:
    """An OpenSpiel MCTS evaluator that plays random games to the end in seqsolve's
    compiled core (``CoreGame.playout``): some 75 µs a leaf, where OpenSpiel's
    ``RandomRolloutEvaluator`` takes 6 ms through the Python states
    (benchmarks/RESULTS.md, "Frameworks"); uniform priors."""

    def __init__(self, rollouts: int = 1, random_state: np.random.Generator | None = None):
        self.rollouts = rollouts
        self.rng = random_state or np.random.default_rng()

    def evaluate(self, state: SequenceState) -> np.ndarray:
        state = state.clone()
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(self.rng.choice(actions, p=probs)))
        world = state.world
        total = np.zeros(world.rules.players)
        for _ in range(self.rollouts):
            game = State(world.rules, world.seats, world.core.clone(bit_generator(self.rng)))
            if not game.is_terminal():
                game.core.playout()
            total += game.returns()
        return total / self.rollouts

    def prior(self, state: SequenceState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTSBot(Bot):
    """OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``)
    playing seqsolve's games: each move, a fresh search from the observation, worlds
    resampled from what the seat has seen, leaves valued by :class:`PlayoutEvaluator`.

    ``seqsolve match seqsolve.frameworks.openspiel:ISMCTSBot random`` plays it.
    """

    name = "openspiel-ismcts"
    summary = "OpenSpiel's information-set MCTS over the OpenSpiel game, core playouts at the leaves"
    params: ClassVar[dict[str, Param]] = {
        "sims": Param(int, 200, "simulations per move", 1, 1_000_000),
        "uct_c": Param(float, 2.0, "UCT exploration constant", 0, 100),
        "rollouts": Param(int, 1, "core playouts per leaf", 1, 1000),
    }

    def __init__(self, **values: Any):
        super().__init__(**values)
        self._game: SequenceGame | None = None

    def check_rules(self, rules) -> None:
        """The OpenSpiel game is Sequence's: Sequence Stacks is refused before a game."""
        if not isinstance(rules, Rules):
            raise BotError(f"bot {self.name} plays Sequence only (its OpenSpiel game), not Sequence Stacks")
        try:
            game_rules(str(rules.variant), rules.players, rules.teams)  # what the wrappers cannot deal
        except RulesError as exc:
            raise BotError(f"bot {self.name}: {exc}") from None

    def start(self, rules: Rules, seats: str, seat: int) -> None:
        self.check_rules(rules)
        if self._game is None or self._game.rules != rules:
            self._game = SequenceGame.of(rules)

    def __getstate__(self) -> dict:
        # the OpenSpiel game is rebuilt where the bot plays (a joblib worker)
        return {**self.__dict__, "_game": None}

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        from open_spiel.python.algorithms import ismcts

        if self._game is None or self._game.rules != observation.rules:
            self.start(observation.rules, observation.seats, observation.current_player)
        game = self._game
        assert game is not None
        seat = observation.current_player
        state = game.new_initial_state()
        state._dealt = None
        state._world = _Kept(observation.resample(seat, rng))
        legal = game.table.legal(observation)
        if len(legal) == 1:
            return game.table.core(legal[0])
        bot = ismcts.ISMCTSBot(
            game,
            PlayoutEvaluator(self.options["rollouts"], rng),
            self.options["uct_c"],
            self.options["sims"],
            random_state=np.random.RandomState(int(rng.integers(2**32))),
        )
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, lambda: rng.random()))
        return game.table.core(int(bot.step(state)))
