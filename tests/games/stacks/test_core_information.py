"""StacksState as the runners use it: clones that share nothing, observations that
hide what a seat may not see (RULES.md §4.8), resampled worlds that keep what it
saw, random playouts, perft and the game object."""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np
import pytest
from core_helpers import card_census, state

from seqsolve.games.exact import NoTactics
from seqsolve.games.stacks.game import STACKS
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState


def midgame(players: int = 3, seed: int = 11, actions: int = 60) -> StacksState:
    st = StacksState.new(make_rules("stacks", players), seed=seed)
    for _ in range(actions):
        if st.is_terminal():
            break
        st.apply(st.random_action())
    assert not st.is_terminal()
    return st


def test_a_clone_shares_nothing_with_its_original():
    st = midgame()
    before = st.to_position()
    twin = st.clone()
    twin.apply(twin.legal_actions()[-1])
    assert st.to_position() == before and twin.to_position() != before


def test_clones_recycle_alike_and_the_same_seed_deals_the_same_game():
    a, b = midgame(seed=4), midgame(seed=4)
    assert a.to_position() == b.to_position()
    c = a.clone()
    a.core.playout()
    c.core.playout()
    assert a.to_position() == c.to_position()


#: what every seat sees of a position (§4.8), whoever observes or resamples it
PUBLIC = ("discards", "special", "piles", "chips", "skips", "aside_cards", "turn", "block_asked")


def test_an_observation_hides_the_other_hands_and_the_draw_pile():
    st = midgame()
    full = st.to_position()
    seen = st.observation(1).to_position()
    assert seen.hands[1] == full.hands[1] and seen.unknown[1] == 0
    for seat in (0, 2):
        assert seen.hands[seat] == [] and seen.unknown[seat] == len(full.hands[seat])
    assert seen.draw_cards is None and seen.draw_count == full.draw_count
    assert all(getattr(seen, f) == getattr(full, f) for f in (*PUBLIC, "to_move"))
    assert st.observation(1).has_hidden_cards() and not st.has_hidden_cards()


def test_an_observation_cannot_play_on_without_being_resampled():
    seen = midgame().observation(0)
    with pytest.raises(ValueError, match="resample"):
        seen.core.playout()
    with pytest.raises(ValueError, match="perft"):
        seen.perft(1)


def test_a_resampled_world_keeps_what_the_seat_saw_and_conserves_the_cards():
    st = midgame(players=4)
    seen = st.observation(2)
    world = seen.resample(2, np.random.default_rng(3))
    full, wpos = st.to_position(), world.to_position()
    assert not world.has_hidden_cards()
    assert wpos.hands[2] == full.hands[2]
    assert [len(h) for h in wpos.hands] == [len(h) for h in full.hands]
    for f in (*PUBLIC, "draw_count"):
        assert getattr(wpos, f) == getattr(full, f)
    assert card_census(wpos) == (Counter(dict(enumerate(st.rules.deck))), 0)
    assert world.legal_actions()  # a world plays on
    world.core.playout()
    assert world.is_terminal()


def test_resampling_deals_set_aside_cards_given_by_their_count():
    st = StacksState.new(make_rules("stacks", 2), seed=1)
    while st.to_position().aside_count == 0:  # play on to the first set-aside pile
        st.apply(st.random_action())
    pos = st.to_position()
    assert not st.is_terminal()
    pos.aside_cards = None  # a file may give the set-aside stack by its count alone
    world = StacksState.from_position(pos).resample(0, 5)
    wpos = world.to_position()
    assert wpos.aside_count == pos.aside_count and len(wpos.aside_cards) == pos.aside_count
    assert card_census(wpos) == (Counter(dict(enumerate(st.rules.deck))), 0)
    pos.aside_count += 1  # one card too many: the unseen cards no longer fill the slots
    with pytest.raises(ValueError, match="inconsistent"):
        StacksState.from_position(pos).resample(0, 5)


def test_random_playouts_always_end():
    for players in range(2, 7):
        for seed in range(20):
            st = StacksState.new(make_rules("stacks", players), seed=seed)
            st.core.playout()
            assert st.is_terminal() and st.legal_actions() == [] and st.current_player is None
            assert sorted(st.returns()) in ([0.0] * players, [-1.0] * (players - 1) + [1.0])


def test_perft_counts_the_leaves_of_the_action_tree():
    st = state(hands=["B1 B2", "R1"], draw="R1 R1 R1 R1 R1 R1")
    # B1, ~B1, ~B2; after B1: B2 ~B2; after ~B1 / ~B2: seat 1's turn, refilled
    assert st.perft(1) == 3
    assert st.perft(2) == sum(c.perft(1) for c in _children(st))


def _children(st):
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        yield child


def test_the_game_object_deals_checks_variants_and_refuses_what_it_lacks():
    assert STACKS.name == "stacks" and pickle.loads(pickle.dumps(STACKS)) is STACKS
    assert STACKS.parse_variant("stacks[stacks_refill=empty_hand_only]").overrides == (
        ("stacks_refill", "empty_hand_only"),
    )
    with pytest.raises(ValueError):
        STACKS.parse_variant("stacks[stacks_chip_supply=-1]")
    rules = STACKS.rules("stacks", players=4)
    st = STACKS.new_initial_state(rules, seed=2)
    assert st.sides == "0123" and st.side_of(3) == 3 and st.current_player == 0
    tactics = STACKS.tactics(st, False)  # exact facts by decision, the seats' threat summary to show
    assert tactics.looked and not tactics.whole_turns and tactics.opponent_wins(st, 0) == []
    assert isinstance(tactics, NoTactics) and [t.side for t in tactics.summary()] == list("0123")
    assert STACKS.loop(rules, [None, None]) is None
