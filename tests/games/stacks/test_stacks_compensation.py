"""Compensation rules K-4 and K-7 of docs/rules.md §2.5 for Sequence Stacks:
``stacks_first_turn_short=N`` deals seat 0 (who moves first, ST-6) N cards fewer
and skips the refill before its first turn; ``stacks_first_hand_bonus=N`` deals it
N cards more; on both engines and in STN lines.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from seqsolve.games.base import RulesError
from seqsolve.games.stacks.actions import encode_discard
from seqsolve.games.stacks.position_text import parse, to_readable, to_stn
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState
from seqsolve.reference.stacks import ReferenceStacks


def engines_agree(rules, seed: int, choice: int, turns: int) -> None:
    """The compiled engine and the reference, each rebuilt from the same position at
    every turn of a random game, offer the same actions and reach the same positions."""
    choose = np.random.default_rng(choice)
    driver = StacksState.new(rules, seed=seed)
    for _ in range(turns):
        if driver.is_terminal():
            break
        pos = driver.to_position()
        core, ref = StacksState.from_position(pos), ReferenceStacks.from_position(pos)
        assert core.legal_actions() == ref.legal_actions()
        action = core.legal_actions()[int(choose.integers(len(core.legal_actions())))]
        core.apply(action)
        ref.apply(action)
        assert core.to_position() == ref.to_position()
        driver.apply(action)


def stn_round_trip(variant: str, players: int):
    """A new game's STN line names the option in its variant and reads back to the same
    rules and line; returns the position read back and the line."""
    rules = make_rules(variant, players)
    line = to_stn(StacksState.new(rules, seed=4).to_position())
    assert line.startswith(f"{variant} 0> ")
    back = parse(line)
    assert back.rules == rules
    assert to_stn(StacksState.from_position(back).to_position()) == line
    return back, line


@pytest.mark.parametrize("players, short", [(2, 1), (3, 2), (6, 4)])
def test_k4_stacks_first_turn_short_deals_seat_0_fewer_cards(players, short):
    """K-4: seat 0 holds 5 - N cards on its first turn in both engines; the others hold 5."""
    rules = make_rules(f"stacks[stacks_first_turn_short={short}]", players)
    deck = sum(rules.deck)
    expected = [5 - short] + [5] * (players - 1)
    for pos in (
        StacksState.new(rules, seed=3).to_position(),
        ReferenceStacks.new(rules, random.Random(3)).to_position(),
    ):
        assert pos.to_move == 0 and pos.turn == 0
        assert [len(h) + u for h, u in zip(pos.hands, pos.unknown)] == expected
        assert pos.draw_count == deck - sum(expected)


@pytest.mark.parametrize("refill", ["turn_start", "empty_hand_only"])
def test_k4_stacks_without_the_option_the_deal_is_unchanged(refill):
    """K-4 off (N = 0): five cards each, as ST-5 deals them."""
    rules = make_rules(f"stacks[stacks_refill={refill},stacks_first_turn_short=0]", 3)
    assert rules == make_rules(f"stacks[stacks_refill={refill}]", 3)
    pos = StacksState.new(rules, seed=1).to_position()
    assert [len(h) for h in pos.hands] == [5, 5, 5]


def test_k4_stacks_seat_0_refills_at_its_second_turn():
    """K-4 with ST-11 (turn_start): from its second turn on seat 0 is refilled to 5 as usual."""
    rules = make_rules("stacks[stacks_first_turn_short=3]", 2)
    choose = np.random.default_rng(7)
    checked = 0
    for seed in range(6):
        game = StacksState.new(rules, seed=seed)
        assert len(game.to_position().hands[0]) == 2
        while not game.is_terminal():
            pos = game.to_position()
            if pos.turn > 0 and pos.to_move == 0 and pos.block_asked is None and pos.draw_count:
                assert len(pos.hands[0]) + pos.unknown[0] >= 5 or pos.progress or pos.refilled
                checked += 1
                break
            legal = game.legal_actions()
            game.apply(legal[int(choose.integers(len(legal)))])
    assert checked >= 3


def test_k4_stacks_engines_agree_after_a_short_deal():
    """K-4: the compiled engine and the reference play on alike from a short first hand."""
    engines_agree(make_rules("stacks[stacks_first_turn_short=2]", 3), seed=5, choice=11, turns=40)


def test_k4_stacks_first_turn_short_in_stn_lines():
    """K-4, STN: the option is written in the variant and read back; seat 0's short hand is legal."""
    back, line = stn_round_trip("stacks[stacks_first_turn_short=2]", 2)
    assert to_stn(parse(to_readable(back))) == line  # the readable form too


def test_k4_stacks_first_turn_short_refuses_bad_values():
    """K-4: 0..4 (seat 0 keeps a card), a whole number; one line naming the option."""
    with pytest.raises(RulesError, match=r"option stacks_first_turn_short must be between 0 and 4, not 5"):
        make_rules("stacks[stacks_first_turn_short=5]", 2)
    with pytest.raises(RulesError, match="stacks_first_turn_short"):
        make_rules("stacks[stacks_first_turn_short=-1]", 2)
    with pytest.raises(RulesError, match="stacks_first_turn_short"):
        make_rules("stacks[stacks_first_turn_short=two]", 2)


# ---------------------------------------------------------------- K-7 stacks_first_hand_bonus


@pytest.mark.parametrize("refill", ["turn_start", "empty_hand_only"])
@pytest.mark.parametrize("players, bonus", [(2, 1), (4, 3), (6, 5)])
def test_k7_stacks_first_hand_bonus_deals_seat_0_more_cards(players, bonus, refill):
    """K-7: seat 0 holds 5 + N cards on its first turn in both engines, the others 5; the
    refill before that turn (ST-11) draws nothing, under either refill rule."""
    rules = make_rules(f"stacks[stacks_refill={refill},stacks_first_hand_bonus={bonus}]", players)
    expected = [5 + bonus] + [5] * (players - 1)
    for pos in (
        StacksState.new(rules, seed=3).to_position(),
        ReferenceStacks.new(rules, random.Random(3)).to_position(),
    ):
        assert pos.to_move == 0 and pos.turn == 0
        assert [len(h) + u for h, u in zip(pos.hands, pos.unknown)] == expected
        assert pos.draw_count == sum(rules.deck) - sum(expected)


def test_k7_stacks_the_extra_cards_come_after_the_ordinary_rounds():
    """K-7: the ordinary deal of ST-5 is unchanged (every other seat gets the same cards as
    without the option); seat 0 keeps its five and takes the next N from the pile."""
    plain = StacksState.new(make_rules("stacks", 3), seed=8).to_position()
    bonus = StacksState.new(make_rules("stacks[stacks_first_hand_bonus=2]", 3), seed=8).to_position()
    assert bonus.hands[1:] == plain.hands[1:]
    assert all(bonus.hands[0].count(card) >= plain.hands[0].count(card) for card in set(plain.hands[0]))
    assert len(bonus.hands[0]) == 7


@pytest.mark.parametrize("refill", ["turn_start", "empty_hand_only"])
def test_k7_stacks_hand_built_long_hand_keeps_its_cards(refill):
    """K-7 on a position read from its STN line: seat 0 at turn 0 holding seven cards
    discards one (ST-14) and holds six at its next turn, which draws nothing (ST-11: five
    or more): no hand limit; both engines list the same decisions and reach the same
    positions."""
    rules = make_rules(f"stacks[stacks_refill={refill},stacks_first_hand_bonus=2]", 2)
    back = parse(to_stn(StacksState.new(rules, seed=12).to_position()))
    assert back.rules == rules and len(back.hands[0]) == 7
    core, ref = StacksState.from_position(back), ReferenceStacks.from_position(back)
    for seat in (0, 1):
        pos = core.to_position()
        assert pos.to_move == seat and core.legal_actions() == ref.legal_actions()
        action = encode_discard(pos.hands[seat][0])
        core.apply(action)
        ref.apply(action)
        assert core.to_position() == ref.to_position()
    pos = core.to_position()
    assert pos.to_move == 0 and len(pos.hands[0]) == 6
    assert pos.draw_count == back.draw_count  # neither seat drew: seat 1 still held 5 at its turn


@pytest.mark.parametrize("refill", ["turn_start", "empty_hand_only"])
def test_k7_stacks_engines_agree_after_a_long_deal(refill):
    """K-7: the compiled engine and the reference play on alike from seat 0's long hand."""
    rules = make_rules(f"stacks[stacks_refill={refill},stacks_first_hand_bonus=3]", 4)
    engines_agree(rules, seed=9, choice=13, turns=60)


def test_k7_stacks_first_hand_bonus_in_stn_lines():
    """K-7, STN: the option is written in the variant and read back."""
    stn_round_trip("stacks[stacks_first_hand_bonus=4]", 4)


def test_k7_stacks_first_hand_bonus_refuses_bad_values():
    """K-7: 0..5, a whole number, and not with K-4; one line naming the option."""
    with pytest.raises(RulesError, match=r"option stacks_first_hand_bonus must be between 0 and 5, not 6"):
        make_rules("stacks[stacks_first_hand_bonus=6]", 2)
    with pytest.raises(RulesError, match="stacks_first_hand_bonus"):
        make_rules("stacks[stacks_first_hand_bonus=-1]", 2)
    with pytest.raises(RulesError, match="stacks_first_hand_bonus"):
        make_rules("stacks[stacks_first_hand_bonus=two]", 2)
    with pytest.raises(
        RulesError, match=r"stacks_first_turn_short=1 \(K-4\) and stacks_first_hand_bonus=2 \(K-7\)"
    ):
        make_rules("stacks[stacks_first_turn_short=1,stacks_first_hand_bonus=2]", 4)
    assert make_rules("stacks[stacks_first_turn_short=2,stacks_first_hand_bonus=0]", 4).first_turn_short == 2
