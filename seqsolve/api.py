"""What a program embedding seqsolve calls: a checked state from text or from objects,
and a bot's move in notation.

The command line reads a position file, checks it (P-11), asks a bot and prints the
move; these functions are the same three steps for a caller that holds the position
in memory (a contest framework, a GUI), with the same checks and the same one-line
errors as exceptions: :class:`~seqsolve.PositionError` for a position,
:class:`~seqsolve.BotError` for a bot spec, :class:`~seqsolve.RulesError` for a
variant.
"""

from __future__ import annotations

import math

import numpy as np

from .bots import Bot, BotError, bot_classes, make_bot, parse_spec
from .games.sequence.actions import IllegalMoveError
from .games.sequence.moves import Move
from .games.sequence.notation import parse_position
from .games.sequence.position_objects import make_state
from .games.sequence.state import UNKNOWN_CODE, State

__all__ = ["best_move", "make_state", "parse_state"]


def parse_state(text: str, seed=None, source: str = "<string>") -> State:
    """The state a position text describes, SQN or readable (RULES.md §5), checked as a
    file is (P-11).

    Args:
        text: one SQN line, or a readable position starting ``seqsolve-position 1``.
        seed: seeds the state's shuffles (a reshuffle of the discards); an int,
            a ``numpy`` SeedSequence or Generator, or None for fresh entropy.
        source: the name error messages give the text.

    Raises:
        PositionError: the text is not a position, or fails a check; the message
            names the line and column.

    >>> import seqsolve
    >>> state = seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
    >>> state.current_player, len(state.hand(0))
    (0, 7)
    >>> seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bb 0 ?7/?7 -/- - 90 0 0")
    Traceback (most recent call last):
    seqsolve.games.base.PositionError: <string>:1:41: every seat plays the same colour: a game has 2 or 3 sides (P-3)
    """
    return State.from_position(parse_position(text, source), seed)


def best_move(state: State, bot: str | Bot = "search", seconds: float | None = None, seed=None) -> Move:
    """The move a bot plays for the side to move, from what that seat may see.

    Args:
        state: the game; only the mover's observation reaches the bot, so the other
            hands may be unknown, but the mover's own cards must be listed.
        bot: a bot spec as the command line takes it (``"mcts:c=0.5"``, ``"heuristic"``;
            ``seqsolve bots`` lists them; by default ``search``, the default search of the
            game's draw), or a :class:`Bot` kept across moves (see
            :func:`make_bot`; call its ``start`` once per game yourself).
        seconds: a time budget for a spec's bot: the ``time`` of ``mcts`` (which
            then stops on time alone unless the spec gives ``iters``), of
            ``rollout`` and of ``search``, the move timeout of ``ext:``; the other bots decide in
            one ply and need none.
        seed: seeds the bot's random choices: an int, SeedSequence, Generator
            (pass one Generator along to keep one stream over a game) or None.

    Returns:
        One action (RULES.md P-12): a play, a pass or a dead-card exchange; after
        an exchange, apply it and ask again for the play that ends the turn.

    Raises:
        BotError: an unknown bot, a bad parameter or a bad ``seconds``.
        IllegalMoveError: the game is over.
        ValueError: the mover's cards are not all known (any card, for a bot built
            to see every card, ``open=1``: for analysis only).

    >>> import seqsolve
    >>> state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
    >>> move = seqsolve.best_move(state, "mcts:iters=200", seed=1)
    >>> move in state.legal_moves()
    True
    >>> seqsolve.best_move(state, "mcts:iters=lots")
    Traceback (most recent call last):
    seqsolve.bots.base.BotError: bot mcts: parameter iters takes a int, not 'lots'
    """
    seat = state.current_player
    if seat is None:
        raise IllegalMoveError(f"the game is over (result {state.outcome().result})")
    if UNKNOWN_CODE in state.core.hand(seat):
        raise ValueError(f"seat {seat}'s cards are not all known: a bot needs its own hand")
    kept = isinstance(bot, Bot)
    if kept and seconds is not None:
        raise BotError(f"seconds is for a bot spec: {bot!r} keeps the budget it was made with")
    player = bot if kept else _bot_with_budget(bot, seconds)
    try:
        if player.open_information and _hides_cards(state):
            raise ValueError(f"bot {player.spec} sees every card (open), but some are unknown here")
        if not kept:
            player.start(state.rules, state.seats, seat)
        view = state if player.open_information else state.observation(seat)  # as the match runner does
        action = player.choose(view, np.random.default_rng(seed))
    finally:
        if not kept:
            player.close()
    return state.action_to_move(action)


def _hides_cards(state: State) -> bool:
    core = state.core
    return UNKNOWN_CODE in core.draw_pile() or any(
        UNKNOWN_CODE in core.hand(s) for s in range(state.rules.players)
    )


def _bot_with_budget(spec: str, seconds: float | None) -> Bot:
    """The bot of ``spec`` with ``seconds`` as its time budget, checked as the bot's own
    parameters are (a budget given twice is refused: which was meant is a guess)."""
    if seconds is None:
        return make_bot(spec)
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
        raise BotError(f"seconds must be a finite number above 0, not {seconds!r}")
    name, raw = parse_spec(spec)
    params = getattr(bot_classes().get(name), "params", {})
    if "time" in raw:
        raise BotError(f"bot {spec!r}: the time is given twice (time= and seconds)")
    if "time" in params:
        raw["time"] = repr(float(seconds))
        if "iters" in params and "iters" not in raw:
            raw["iters"] = "0"
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in raw.items())
    made = make_bot(spec)
    if name == "ext":
        made.move_timeout = float(seconds)
    return made
