"""Exact answers of any game, found by playing turns on copies of the view: what a
turn leads to and whether it wins at once.  The game's own exact facts (threats,
what a revealed card may bring) come from its :meth:`~seqsolve.games.base.Game.tactics`."""

from __future__ import annotations

from collections.abc import Iterable


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


def turn_wins(view, turn: Iterable[int], side: int) -> bool:
    after = outcome_of(view, turn)
    return after is not None and has_won(after, side)
