"""What a program embedding seqsolve calls: a checked state from text or from objects,
the rules of a variant, and a bot's move, for Sequence and Sequence Stacks alike.

The command line reads a position file, checks it (P-11), asks a bot and prints the
move; these functions are the same three steps for a caller that holds the position
in memory (a contest framework, a GUI), with the same checks and the same one-line
errors as exceptions, every one a :class:`~seqsolve.SeqsolveError`:
:class:`~seqsolve.PositionError` for a position, :class:`~seqsolve.BotError` for a
bot spec, :class:`~seqsolve.RulesError` for a variant, :class:`~seqsolve.ArgumentError`
for an argument of the wrong type or value.
"""

from __future__ import annotations

import math

import numpy as np

from . import arguments
from .bots import Bot, BotError, make_bot
from .bots.classes import split_spec
from .errors import ArgumentError
from .games import game_for, position_game
from .games.base import IllegalMoveError
from .games.sequence.position_objects import make_state

__all__ = ["best_move", "make_state", "parse_rules", "parse_state"]


def parse_state(text: str, seed=None, source: str = "<string>"):
    """The state a position text describes, checked as a file is (P-11): a Sequence
    :class:`~seqsolve.State` from SQN or its readable form, a Sequence Stacks state
    from STN or its readable form (docs/stacks.md), the game told by the text's variant.

    Args:
        text: one SQN or STN line, or a readable position starting ``seqsolve-position 1``.
        seed: seeds the state's shuffles (a reshuffle of the discards); an int from 0,
            a ``numpy`` SeedSequence or Generator, or None for fresh entropy (in
            Sequence Stacks, None leaves a recycled draw pile unknown).
        source: the name error messages give the text.

    Raises:
        PositionError: the text is not a position, or fails a check; the message
            names the line and column.
        ArgumentError: ``text`` or ``source`` is not a string, or ``seed`` is no seed.

    >>> import seqsolve
    >>> state = seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
    >>> state.current_player, len(state.hand(0))
    (0, 7)
    >>> seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bb 0 ?7/?7 -/- - 90 0 0")
    Traceback (most recent call last):
    seqsolve.games.base.PositionError: <string>:1:41: every seat plays the same colour: a game has 2 or 3 sides (P-3)
    """
    text = arguments.text(text, "parse_state", "text", "a position's text (SQN, STN or readable)")
    source = arguments.text(source, "parse_state", "source", "the name of the text, a string")
    seed = arguments.seed(seed, "parse_state")
    game = position_game(text)
    if game.name != "sequence":
        return game.read_position(text, source, seed)
    from .games.sequence.notation import parse_position
    from .games.sequence.state import State

    return State.from_position(parse_position(text, source), seed)


def parse_rules(text: str, players: int | None = None, teams: int | None = None):
    """The rules of a variant (``preset[option=value,...]``, RULES.md §2; ``stacks`` and
    its options for Sequence Stacks, §4.9) seated with ``players`` in ``teams`` sides.

    Args:
        text: the variant string.
        players, teams: the seating; None takes the variant's own, or its default.

    Raises:
        RulesError: an unknown preset or option, a bad value or an impossible seating.
        ArgumentError: ``text`` is not a string, or ``players``/``teams`` not an integer.

    >>> import seqsolve
    >>> rules = seqsolve.parse_rules("seed000", players=4); rules.hand_size, rules.sequences_to_win
    (6, 3)
    >>> seqsolve.parse_rules("stacks", players=3).players
    3
    """
    text = arguments.text(text, "parse_rules", "text", "a variant string such as 'classic'")
    for name, value in (("players", players), ("teams", teams)):
        if value is not None:
            arguments.integer(value, "parse_rules", name, 1, 99)
    game = game_for(text)
    if game.name == "sequence":
        from .games.sequence.rules import Variant

        return Variant.parse(text).resolve(players, teams)
    return game.rules(text, players, teams)


def best_move(state, bot: str | Bot = "search", seconds: float | None = None, seed=None):
    """The move a bot plays for the seat that decides now, from what that seat may see.

    Args:
        state: the game, Sequence or Sequence Stacks; only the mover's observation reaches
            the bot, so the other hands may be unknown, but the mover's own cards must
            be listed.
        bot: a bot spec as the command line takes it (``"mcts:c=0.5"``, ``"heuristic"``;
            ``seqsolve bots`` lists them; by default ``search``, the default search of
            Sequence's draw, and ``greedy`` in Sequence Stacks), or a :class:`Bot` kept
            across moves (see :func:`make_bot`; call its ``start`` once per game yourself).
        seconds: a time budget for a spec's bot: the ``time`` of ``mcts`` (which
            then stops on time alone unless the spec gives ``iters``), of
            ``rollout`` and of ``search``, the move timeout of ``ext:``; the other bots decide in
            one ply and need none.
        seed: seeds the bot's random choices: an int from 0, SeedSequence, Generator
            (pass one Generator along to keep one stream over a game) or None.

    Returns:
        In Sequence, a :class:`Move`, one action (RULES.md P-12): a play, a pass or a
        dead-card exchange; after an exchange, apply it and ask again for the play that
        ends the turn.  In Sequence Stacks, one decision's text (``"B3"``, ``"~R5"``,
        ``"block"``), which ``state.apply`` takes.

    Raises:
        BotError: an unknown bot, a bad parameter or a bad ``seconds``.
        BotFailure: an ``ext:`` program that did not start or gave no legal answer.
        IllegalMoveError: the game is over.
        ArgumentError: ``state`` is not a state, the mover's cards are not all known
            (any card, for a bot built to see every card, ``open=1``: for analysis only),
            or ``seed`` is no seed.

    >>> import seqsolve
    >>> state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
    >>> move = seqsolve.best_move(state, "mcts:iters=200", seed=1)
    >>> move in state.legal_moves()
    True
    >>> seqsolve.best_move(state, "mcts:iters=lots")
    Traceback (most recent call last):
    seqsolve.games.bot.BotError: bot mcts: parameter iters takes a int, not 'lots'
    """
    game = _game_of(state, "best_move")
    seed = arguments.seed(seed, "best_move")
    seat = state.current_player
    if seat is None:
        raise IllegalMoveError(f"the game is over (result {state.outcome().result})")
    if "?" in state.hand(seat):
        raise ArgumentError(f"best_move: seat {seat}'s cards are not all known: a bot needs its own hand")
    kept = isinstance(bot, Bot)
    if isinstance(bot, Bot):
        if seconds is not None:
            raise BotError(f"seconds is for a bot spec: {bot!r} keeps the budget it was made with")
        player = bot
    else:
        if bot == "search" and game.name != "sequence":
            bot = game.default_bot
        spec = arguments.text(bot, "best_move", "bot", "a bot spec such as 'heuristic', or a Bot")
        player = _bot_with_budget(spec, seconds, game)
    try:
        if player.open_information and state.has_hidden_cards():
            raise ArgumentError(
                f"best_move: bot {player.spec} sees every card (open), but some are unknown here"
            )
        if not kept:
            player.start(state.rules, state.seats, seat)
        view = state if player.open_information else state.observation(seat)  # as the match runner does
        action = player.choose(view, np.random.default_rng(seed))
    finally:
        if not kept:
            player.close()
    if game.name != "sequence":
        return state.action_to_string(action)
    return state.action_to_move(action)


def _game_of(state, where: str):
    """The game of a state, or an ArgumentError saying what ``state`` should be."""
    from .games.base import GameState

    rules = getattr(state, "rules", None)
    variant = getattr(rules, "variant", None)
    if not isinstance(state, GameState) or variant is None:
        raise ArgumentError(
            f"{where}: state must be a game's state (seqsolve.parse_state, State.new), not {state!r}"
        )
    return game_for(str(variant))


def _bot_with_budget(spec: str, seconds: float | None, game) -> Bot:
    """The bot of ``spec`` with ``seconds`` as its time budget, checked as the bot's own
    parameters are (a budget given twice is refused: which was meant is a guess)."""
    if seconds is None:
        return make_bot(spec, game)
    if isinstance(seconds, bool) or not (
        isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0
    ):
        raise BotError(f"seconds must be a finite number above 0, not {seconds!r}")
    name, raw = split_spec(spec)
    if name in game.bot_classes():
        params = game.bot_classes()[name].params
    else:  # a Python class (FILE.py:Class, module:Class, an entry point): its own parameters
        made = make_bot(spec, game)
        params = made.params
        made.close()
    if "time" in raw:
        raise BotError(f"bot {spec!r}: the time is given twice (time= and seconds)")
    if "time" in params:
        raw["time"] = repr(float(seconds))
        if "iters" in params and "iters" not in raw:
            raw["iters"] = "0"
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in raw.items())
    made = make_bot(spec, game)
    if name == "ext":
        made.move_timeout = float(seconds)
    return made
