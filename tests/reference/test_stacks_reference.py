"""The Stacks reference engine's own behaviour (seqsolve.reference.stacks): dealing,
copying, loading and writing back, playouts.  The rules themselves are tested on
every engine in tests/games/stacks/."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from seqsolve.games.stacks.cards import HAND_SIZE
from seqsolve.games.stacks.rules import make_rules
from seqsolve.reference.stacks import ReferenceStacks


@pytest.mark.parametrize("players", range(2, 7))
def test_st5_new_deals_five_to_each_seat_from_the_shuffled_deck(players):
    rules = make_rules("stacks", players)
    game = ReferenceStacks.new(rules, random.Random(players))
    pos = game.to_position()
    assert [len(h) for h in pos.hands] == [HAND_SIZE] * players
    assert pos.draw_count == sum(rules.deck) - HAND_SIZE * players
    everything = Counter(c for h in pos.hands for c in h) + Counter(pos.draw_cards)
    assert [everything[c] for c in range(len(rules.deck))] == rules.deck
    assert (pos.to_move, pos.direction, pos.piles, pos.special, pos.turn) == (0, 1, [], [], 0)


def test_new_shuffles_by_the_generator_it_is_given():
    rules = make_rules("stacks", 3)
    first = ReferenceStacks.new(rules, random.Random(7)).to_position()
    assert ReferenceStacks.new(rules, random.Random(7)).to_position() == first
    assert ReferenceStacks.new(rules, random.Random(8)).to_position() != first


def test_from_position_gives_back_the_position():
    game = ReferenceStacks.new(make_rules("stacks", 4), random.Random(3))
    game.random_playout(random.Random(4))
    for seed in (0, 5, 9):
        mid = ReferenceStacks.new(make_rules("stacks", 4), random.Random(seed))
        rng = random.Random(seed)
        for _ in range(40):
            mid.apply(rng.choice(mid.legal_actions()))
        pos = mid.to_position()
        assert ReferenceStacks.from_position(pos).to_position() == pos


def test_clone_is_independent_of_the_original():
    game = ReferenceStacks.new(make_rules("stacks", 2), random.Random(1))
    before = game.to_position()
    copy = game.clone()
    copy.random_playout(random.Random(2))
    assert game.to_position() == before
    assert copy.is_terminal() and not game.is_terminal()


def test_random_playout_returns_the_actions_that_replay_the_game():
    rules = make_rules("stacks", 3)
    game = ReferenceStacks.new(rules, random.Random(11))
    actions = game.random_playout(random.Random(12))
    again = ReferenceStacks.new(rules, random.Random(11))
    for action in actions:
        again.apply(action)
    assert again.to_position() == game.to_position() and again.is_terminal()


def test_from_position_refuses_entries_that_do_not_match_the_players():
    pos = ReferenceStacks.new(make_rules("stacks", 2), random.Random(1)).to_position()
    pos.skips = [0, 0, 0]
    with pytest.raises(ValueError, match="skips"):
        ReferenceStacks.from_position(pos)
