"""Properties of Stacks games on every engine (hypothesis): the cards and chips are
conserved, a game going on always has a decision, exactly the legal actions apply,
and random games end (ST-22).  Games are dealt by the reference (ST-5) and played
from that position by the engine under test."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seqsolve.games.stacks.actions import NUM_ACTIONS, action_to_text, text_to_action
from seqsolve.games.stacks.position import StacksPosition
from seqsolve.games.stacks.rules import make_rules
from seqsolve.reference.stacks import ReferenceStacks

VARIANTS = [
    "stacks",
    "stacks[stacks_refill=empty_hand_only]",
    "stacks[stacks_max_piles_per_colour=1,stacks_chip_supply=3]",
    "stacks[stacks_win_chips=3,stacks_win_min_each=1,stacks_steal_chip_can_win=true]",
    "stacks[stacks_two_player_removal=false,stacks_actions_from_discard=false]",
    "stacks[max_turns=30]",
    # once both chips are out every completion recycles: turns loop but for ST-22's stalled draw
    "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",
    "stacks[stacks_chip_supply=2,stacks_win_chips=4,stacks_refill=empty_hand_only]",
]
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
games = st.tuples(st.sampled_from(VARIANTS), st.integers(2, 6), st.integers(0, 2**32 - 1))


def _canonical(action: int) -> bool:
    """An action number the notation writes and reads back to itself."""
    try:
        return text_to_action(action_to_text(action)) == action
    except ValueError:
        return False


CANONICAL = [a for a in range(NUM_ACTIONS) if _canonical(a)]


def _deal(engine, variant: str, players: int, seed: int):
    pos = ReferenceStacks.new(make_rules(variant, players), random.Random(seed)).to_position()
    return engine.from_position(pos, seed=seed)


def _cards(pos: StacksPosition) -> Counter:
    known = Counter(c for h in pos.hands for c in h) + Counter(c for d in pos.discards for c in d)
    known += Counter(pos.special) + Counter(c for p in pos.piles for c in p)
    return known + Counter(pos.aside_cards or []) + Counter(pos.draw_cards or [])


def _check_conserved(pos: StacksPosition) -> None:
    """deck = hands + discards + special + piles + aside + draw; chips within the supply."""
    deck = pos.rules.deck
    known = _cards(pos)
    unknown = sum(pos.unknown) + (pos.aside_count if pos.aside_cards is None else 0)
    unknown += pos.draw_count if pos.draw_cards is None else 0
    assert sum(known.values()) + unknown == sum(deck)
    assert all(known[c] <= deck[c] for c in known)
    if not unknown:
        assert [known[c] for c in range(len(deck))] == deck
    for colour in (0, 1):
        held = sum(c[colour] for c in pos.chips)
        assert 0 <= held <= pos.rules.chip_supply  # supply + held = chip_supply a colour


@SETTINGS
@given(games)
def test_cards_and_chips_are_conserved_and_a_decision_always_exists(engine, game):
    """ST-2, ST-4: nothing appears or vanishes; ST-22: a game going on has an action,
    a finished one none."""
    variant, players, seed = game
    g = _deal(engine, variant, players, seed)
    rng = random.Random(seed)
    chips_before = 0
    while not g.is_terminal():
        pos = g.to_position()
        _check_conserved(pos)
        chips = sum(b + r for b, r in pos.chips)
        assert chips_before <= chips <= chips_before + 1  # a chip is only gained by completing (ST-9)
        chips_before = chips
        actions = g.legal_actions()
        assert actions and actions == sorted(set(actions)) and g.current_player is not None
        g.apply(rng.choice(actions))
    _check_conserved(g.to_position())
    assert g.legal_actions() == [] and g.current_player is None
    assert sorted(g.returns()) in ([0.0] * players, [-1.0] * (players - 1) + [1.0])


@SETTINGS
@given(games, st.integers(0, 400))
def test_exactly_the_legal_actions_apply(engine, game, steps):
    """Every legal action applies; every other canonical action is refused with a
    ValueError and changes nothing."""
    variant, players, seed = game
    g = _deal(engine, variant, players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_terminal():
            break
        g.apply(rng.choice(g.legal_actions()))
    before = g.to_position()
    legal = set(g.legal_actions())
    for action in CANONICAL:
        copy = g.clone()
        if action in legal:
            copy.apply(action)
        else:
            try:
                copy.apply(action)
            except ValueError:
                pass
            else:
                raise AssertionError(f"{action_to_text(action)} applied but is not legal")
            assert copy.to_position() == before
    assert g.to_position() == before


@SETTINGS
@given(games)
def test_st22_random_games_end(engine, game):
    """ST-22: every random game ends, by a win or a draw, within max_turns turns, and
    every turn within a bound of its own: at most one refill of the draw pile (ST-20)
    per chip that changed hands in it, and one more, before the stalled draw."""
    variant, players, seed = game
    g = _deal(engine, variant, players, seed)
    rng = random.Random(seed)
    limit = make_rules(variant, players).max_turns
    before = g.to_position()
    refills = chips_moved = 0
    while not g.is_terminal():
        g.apply(rng.choice(g.legal_actions()))
        pos = g.to_position()
        assert pos.turn <= limit
        if pos.turn != before.turn:
            refills = chips_moved = 0
        refills += pos.aside_count < before.aside_count  # only a refill empties the set-aside stack
        chips_moved += pos.chips != before.chips
        assert refills <= chips_moved + 1
        before = pos
    pos = g.to_position()
    assert pos.result == "draw" or g.returns()[pos.result] == 1.0
    stalled = pos.draw_count == 0 and pos.aside_count > 0  # the stalled draw recycles nothing
    assert pos.result != "draw" or pos.turn == limit or stalled or (pos.draw_count, pos.aside_count) == (0, 0)
