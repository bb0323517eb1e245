"""Exact answers of any game, found by playing turns on copies of the view: what a
turn leads to and whether it wins at once.  The game's own exact facts (threats,
what a revealed card may bring) come from its :meth:`~seqsolve.games.base.Game.tactics`."""

from __future__ import annotations

from collections.abc import Iterable

from .base import NotSupported


def outcome_of(view, actions: Iterable[int]):
    """The view after a turn, or None when one of its actions is not legal there."""
    child = view.clone()
    for a in actions:
        if a not in child.legal_actions():
            return None
        child.apply(a)
    return child


def has_won(state, side: int) -> bool:
    outcome = state.outcome()
    return outcome is not None and outcome.winner == state.sides[side]


def won_after(state, action: int, side: int) -> bool:
    child = state.clone()
    child.apply(action)
    return has_won(child, side)


def winning_actions(state) -> set[int]:
    """The legal actions after which the mover's side has won, each tried on a copy."""
    side = state.side_of(state.current_player)
    return {action for action in state.legal_actions() if won_after(state, action, side)}


def turn_wins(view, turn: Iterable[int], side: int) -> bool:
    after = outcome_of(view, turn)
    return after is not None and has_won(after, side)


class NoTactics:
    """The tactics of a game that has none (its :meth:`~seqsolve.games.base.Game.tactics`
    raises :class:`~seqsolve.games.base.NotSupported`): no threats, nothing an action
    reveals, and every legal decision ranked on its own, as the decision to make now
    (its continuation still shown in whole turns)."""

    #: each legal decision is ranked on its own, not as the start of a whole turn
    whole_turns = False
    #: no opponent's win is looked for: an empty list of them says nothing
    looked = False

    @staticmethod
    def opponent_wins(view, side: int) -> list[dict]:
        return []

    @staticmethod
    def replacement_wins(action: int, side: int) -> float:
        return 0.0

    @staticmethod
    def is_pass(action: int) -> bool:
        return False

    @staticmethod
    def is_known_play(state, action: int) -> bool:
        return state.ends_turn(action)

    @staticmethod
    def describe(threat: dict) -> str:
        return str(threat)

    @staticmethod
    def summary() -> None:
        return None

    @staticmethod
    def holding_features(after, side: int) -> list[dict]:
        return []

    @staticmethod
    def winning_draws(after, turn, side: int) -> None:
        return None

    @staticmethod
    def holding_chance(seats, cards) -> None:
        return None


def tactics_of(game, view, open_information: bool):
    """The game's tactics for ``view``, or :class:`NoTactics` for a game without them."""
    try:
        return game.tactics(view, open_information)
    except NotSupported:
        return NoTactics()
