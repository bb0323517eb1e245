"""Properties of the compiled Stacks engine over random games (hypothesis): cards
and chips are conserved, a game going on always has a legal action, and every
action number it does not list is refused without changing anything."""

from __future__ import annotations

from collections import Counter

import pytest
from core_helpers import VARIANTS, card_census
from hypothesis import given, settings
from hypothesis import strategies as st

from seqsolve.games.stacks.actions import NUM_ACTIONS
from seqsolve.games.stacks.cards import colour
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState

games = st.tuples(st.integers(2, 6), st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))


def check_invariants(state: StacksState) -> None:
    """ST-2/ST-3 cards and ST-4 chips conserved; piles are legal sequences (ST-7, ST-8)."""
    pos, rules = state.to_position(), state.rules
    assert card_census(pos) == (Counter(dict(enumerate(rules.deck))), 0)
    for c in (0, 1):
        assert sum(chips[c] for chips in pos.chips) <= rules.chip_supply
    for c in (0, 1):
        assert sum(colour(p[0]) == c for p in pos.piles) <= rules.max_piles_per_colour
    for pile in pos.piles:
        assert 1 <= len(pile) <= (5 if pos.block_asked is not None else 4)
        assert len({colour(card) for card in pile}) == 1
        assert all(card % 6 in (i, 5) for i, card in enumerate(pile))  # value i + 1, or a wild


@settings(max_examples=40, deadline=None)
@given(games)
def test_cards_and_chips_are_conserved_and_a_game_going_on_can_always_act(game):
    players, variant, seed = game
    state = StacksState.new(make_rules(variant, players), seed=seed)
    while not state.is_terminal():
        check_invariants(state)
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal)) and state.current_player is not None
        state.apply(state.random_action())
    check_invariants(state)
    assert state.legal_actions() == [] and state.current_player is None


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 300))
def test_every_action_not_listed_is_refused_and_changes_nothing(game, steps):
    players, variant, seed = game
    state = StacksState.new(make_rules(variant, players), seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.random_action())
    before = state.to_position()
    legal = set(state.legal_actions())
    for action in range(NUM_ACTIONS):
        if action in legal:
            continue
        with pytest.raises(ValueError, match=r"\w"):
            state.apply(action)
    assert state.to_position() == before
