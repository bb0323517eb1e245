"""The compiled Stacks engine (StacksState) on hand-built positions, one rule of
RULES.md §4 at a time, each named by its ID."""

from __future__ import annotations

import pytest
from core_helpers import card_census, hand, state, texts

from seqsolve.games.stacks.cards import Card
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState, Termination

PLENTY = "R1 R1 R1 R1 R1 R1 R1 R1 R1 R1 R1 R1"


# ---------------------------------------------------------------- ST-15 Block window


def completion(**kw) -> StacksState:
    """Four players; seat 1 holds the blue 5 for a blue pile at 4."""
    kw.setdefault("hands", ["B1", "B5 R1", "BK", "BK R2"])
    return state(players=4, piles=["B1 B2 B3 B4"], to_move=1, draw=PLENTY, **kw)


def test_st15_every_opponent_is_asked_in_turn_order_then_the_completer_scores():
    st = completion()
    st.apply("B5")
    asked = []
    while st.current_player != 1:
        asked.append(st.current_player)
        assert texts(st) == (["block", "pass"] if "BK" in hand(st, st.current_player) else ["pass"])
        st.apply("pass")
    assert asked == [2, 3, 0]  # the completer's neighbour first, holders or not
    pos = st.to_position()
    assert pos.chips[1] == (1, 0) and pos.piles == [] and pos.aside_count == 5  # ST-9
    assert pos.block_asked is None and pos.progress and hand(st, 1) == "R1"


def test_st15_after_a_reverse_the_window_goes_the_other_way():
    st = completion(direction=-1)
    st.apply("B5")
    asked = []
    while st.current_player != 1:
        asked.append(st.current_player)
        st.apply("pass")
    assert asked == [0, 3, 2]


def test_st15_the_first_block_cancels_the_chip_and_sets_the_pile_aside():
    st = completion()
    st.apply("B5")
    st.apply("pass")  # seat 2 holds a Block but lets it stand
    st.apply("block")  # seat 3
    pos = st.to_position()
    assert st.current_player == 1 and pos.block_asked is None  # seat 0 is never asked
    assert pos.chips == [(0, 0)] * 4 and pos.aside_count == 5 and pos.piles == []
    assert pos.special == [Card.BK] and hand(st, 3) == "R2"  # no replacement drawn


def test_st15_block_is_asked_only_in_a_window_and_pass_only_there():
    st = completion()
    assert "block" not in texts(st) and "pass" not in texts(st)
    with pytest.raises(ValueError, match="ST-15"):
        st.apply("block")
    st.apply("B5")
    with pytest.raises(ValueError, match="seat 2 is asked"):
        st.apply("R1")


def test_st9_an_empty_supply_gives_no_chip():
    st = completion(
        variant="stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",
        chips=[(1, 0), (0, 0), (0, 0), (0, 0)],
    )
    st.apply("B5")
    for _ in range(3):
        st.apply("pass")
    assert st.to_position().chips[1] == (0, 0) and st.to_position().aside_count == 5


# ---------------------------------------------------------------- ST-7, ST-8, ST-12 piles


def test_st7_two_piles_of_a_colour_at_most():
    st = state(hands=["B1 BW R1 RW", "-"], piles=["B1", "B1 B2"], draw=PLENTY)
    assert texts(st)[:6] == ["BW>1", "BW>2", "R1", "RW>0", "~B1", "~BW"]  # no B1, no BW>0
    with pytest.raises(ValueError, match="ST-7"):
        st.apply("B1")


def test_st8_a_number_goes_on_the_oldest_pile_of_its_colour_one_below_it():
    st = state(hands=["B2 B4 R2", "-"], piles=["R1", "B1", "B1"], draw=PLENTY)
    assert "B4" not in texts(st) and "R2" in texts(st)
    st.apply("B2")
    assert st.to_position().piles == [[Card.R1], [Card.B1, Card.B2], [Card.B1]]
    with pytest.raises(ValueError, match="ST-8"):
        st.apply("B4")


def test_st8_a_wild_names_the_value_it_builds_on_and_only_on_its_colour():
    st = state(hands=["RW", "-"], piles=["B1 B2", "R1 R2 R3"], draw=PLENTY)
    assert [t for t in texts(st) if t.startswith("RW")] == ["RW>0", "RW>3"]
    st.apply("RW>3")
    assert st.to_position().piles[1] == [Card.R1, Card.R2, Card.R3, Card.RW]


def test_st12_the_top_of_the_own_discard_pile_is_playable_and_then_the_next():
    st = state(hands=["R5", "-"], discards=["B2 B1", "B3"], draw=PLENTY)
    assert texts(st) == ["^B1", "~R5"]  # not seat 1's top, not the card under
    st.apply("^B1")
    assert texts(st) == ["^B2", "~R5"]


def test_st12_action_cards_from_the_discard_pile_follow_the_option():
    pos = {"hands": ["R5", "-"], "discards": ["SK", "-"], "draw": PLENTY}
    assert "^SK" in texts(state(**pos))
    st = state(variant="stacks[stacks_actions_from_discard=false]", **pos)
    assert "^SK" not in texts(st)
    with pytest.raises(ValueError, match="stacks_actions_from_discard"):
        st.apply("^SK")
    assert "^BK" not in texts(state(hands=["R5", "-"], discards=["BK", "-"], draw=PLENTY))  # ST-15


# ---------------------------------------------------------------- ST-10, ST-16, ST-17 turn order


def test_st16_skip_gives_a_token_to_the_next_player_who_loses_a_whole_turn():
    st = state(players=3, hands=["SK B3", "R4", "-"], draw=PLENTY)
    st.apply("SK")
    assert st.to_position().skips == [0, 1, 0] and st.to_position().special == [Card.SK]
    st.apply("~B3")
    pos = st.to_position()
    assert st.current_player == 2 and pos.turn == 2 and pos.skips == [0, 0, 0]  # ST-10
    assert hand(st, 1) == "R4" and pos.quiet == 2  # no draw, no play in a skipped turn


def test_st16_with_two_players_the_skipper_plays_again_and_tokens_stack():
    st = state(hands=["SK SK B3", "R4"], draw=PLENTY)
    st.apply("SK")
    st.apply("SK")
    assert st.to_position().skips == [0, 2]
    st.apply("~B3")
    assert st.current_player == 0 and st.turn == 2 and st.to_position().skips == [0, 1]
    assert hand(st, 0) == "R1 R1 R1 R1 R1"  # a new turn: refilled (ST-11)


def test_st17_reverse_flips_the_direction_at_once():
    st = state(players=3, hands=["RV SK B3", "-", "-"], draw=PLENTY)
    st.apply("RV")
    st.apply("SK")
    assert st.to_position().direction == -1 and st.to_position().skips == [0, 0, 1]
    st.apply("~B3")
    assert st.current_player == 1  # seat 2 is skipped, going backwards


def test_st3_two_players_play_without_reverse():
    st = StacksState.new(make_rules("stacks", 2), seed=3)
    known, unknown = card_census(st.to_position())
    assert unknown == 0 and sum(known.values()) == 112
    assert (known[Card.RV], known[Card.BK], known[Card.SX], known[Card.SC], known[Card.SK]) == (0, 2, 2, 2, 2)
    full = StacksState.new(make_rules("stacks[stacks_two_player_removal=false]", 2), seed=3)
    assert sum(card_census(full.to_position())[0].values()) == 120
    assert sum(card_census(StacksState.new(make_rules("stacks", 3), seed=3).to_position())[0].values()) == 120


# ---------------------------------------------------------------- ST-18, ST-19 steals


def test_st18_steal_a_card_takes_the_top_of_an_opponents_discard_pile():
    st = state(players=3, hands=["SC B3", "-", "-"], discards=["R1", "R2 R5", "-"], draw=PLENTY)
    assert [t for t in texts(st) if t.startswith("SC")] == ["SC@1"]  # not itself, not an empty pile
    st.apply("SC@1")
    pos = st.to_position()
    assert hand(st, 0) == "B3 R5" and pos.discards[1] == [Card.R2] and pos.special == [Card.SC]
    with pytest.raises(ValueError, match="ST-18"):
        state(players=3, hands=["SC", "-", "-"], discards=["R1", "R2", "-"]).apply("SC@2")


def test_st19_steal_a_chip_may_not_make_the_stealer_win():
    pos = {"players": 3, "hands": ["SX B3", "-", "-"], "chips": [(3, 1), (1, 1), (0, 0)], "draw": PLENTY}
    st = state(**pos)
    assert [t for t in texts(st) if t.startswith("SX")] == ["SX@1b"]  # 4b1r is no win (ST-21); 3b2r would be
    with pytest.raises(ValueError, match="ST-19"):
        st.apply("SX@1r")
    st.apply("SX@1b")
    assert st.to_position().chips == [(4, 1), (0, 1), (0, 0)] and st.to_position().progress


def test_st19_with_the_option_a_steal_wins():
    st = state(
        variant="stacks[stacks_steal_chip_can_win=true]",
        players=3,
        hands=["SX B3", "-", "-"],
        chips=[(3, 1), (1, 1), (0, 0)],
        draw=PLENTY,
    )
    st.apply("SX@1r")
    assert st.is_terminal() and st.returns() == [1.0, -1.0, -1.0]
    assert st.outcome().termination is Termination.WIN and st.outcome().result == "0"


# ---------------------------------------------------------------- ST-11, ST-13 refills


def test_st11_turn_start_refills_to_five():
    st = state(hands=["B3", "R2 R3"], draw=PLENTY)
    st.apply("~B3")
    assert hand(st, 1) == "R1 R1 R1 R2 R3"


def test_st11_empty_hand_only_draws_five_into_an_empty_hand_only():
    st = state(variant="stacks[stacks_refill=empty_hand_only]", hands=["B3", "R2 R3"], draw=PLENTY)
    st.apply("~B3")
    assert hand(st, 1) == "R2 R3"
    st = state(variant="stacks[stacks_refill=empty_hand_only]", hands=["B3", "-"], draw=PLENTY)
    st.apply("~B3")
    assert hand(st, 1) == "R1 R1 R1 R1 R1"


def test_st13_an_emptied_hand_draws_five_at_once():
    st = state(hands=["B1", "-"], draw=PLENTY)
    st.apply("B1")
    assert hand(st, 0) == "R1 R1 R1 R1 R1" and st.to_position().draw_count == len(PLENTY.split()) - 5


def test_st13_the_five_come_as_the_last_card_leaves_the_hand_before_its_window():
    st = state(hands=["B5", "-"], piles=["B1 B2 B3 B4"], draw=PLENTY)
    st.apply("B5")
    assert st.current_player == 1 and hand(st, 0) == "R1 R1 R1 R1 R1"  # drawn before the Block window
    st = state(hands=["SC", "-"], discards=["-", "B2"], draw=PLENTY)
    st.apply("SC@1")
    assert hand(st, 0) == "B2 R1 R1 R1 R1 R1"  # five, then the stolen card


def test_st14_an_empty_hand_that_cannot_be_refilled_ends_with_end():
    st = state(hands=["B1", "-"], discards=["R1", "-"])
    st.apply("B1")
    assert texts(st) == ["^R1", "end"]
    with pytest.raises(ValueError, match="ST-14"):
        state(hands=["B1", "-"]).apply("end")
    st.apply("end")
    assert st.current_player == 1 and st.turn == 1


# ---------------------------------------------------------------- ST-20 recycling


def test_st20_an_empty_draw_pile_is_refilled_from_the_set_aside_cards():
    st = state(seed=5, hands=["B3", "-"], aside="B1 B2 B4 B5 BW")
    st.apply("~B3")
    pos = st.to_position()
    assert hand(st, 1) == "B1 B2 B4 B5 BW" and pos.aside_count == 0 and pos.draw_count == 0


def test_st20_without_a_shuffle_source_the_recycled_cards_are_unknown():
    st = state(hands=["B3", "-"], aside="B1 B2 B4 B5 BW R1")
    st.apply("~B3")
    pos = st.to_position()
    assert pos.hands[1] == [] and pos.unknown[1] == 5 and pos.draw_count == 1 and pos.draw_cards is None
    assert st.has_hidden_cards()


def test_st20_with_nothing_to_recycle_draws_are_skipped():
    st = state(hands=["B3", "R2"])
    st.apply("~B3")
    assert hand(st, 1) == "R2" and st.current_player == 1


# ---------------------------------------------------------------- ST-21, ST-22 the end


def test_st21_four_blue_and_one_red_is_not_yet_a_win():
    st = state(
        hands=["B5 R5", "-"], piles=["B1 B2 B3 B4", "R1 R2 R3 R4"], chips=[(3, 1), (0, 0)], draw=PLENTY
    )
    st.apply("B5")
    st.apply("pass")
    assert not st.is_terminal() and st.to_position().chips[0] == (4, 1)
    st.apply("R5")
    st.apply("pass")
    assert st.outcome().termination is Termination.WIN and st.returns() == [1.0, -1.0]
    pos = st.to_position()
    assert pos.result == 0 and pos.to_move is None and st.current_player is None and st.legal_actions() == []


def test_st21_a_wild_can_be_the_winning_five():
    st = state(hands=["RW", "-"], piles=["R1 R2 R3 R4"], chips=[(2, 2), (0, 0)])
    st.apply("RW>4")
    st.apply("pass")
    assert st.outcome().result == "0"


def test_st22_a_quiet_round_with_nothing_to_draw_is_a_draw():
    st = state(hands=["B3", "R2"], quiet=1)
    st.apply("~B3")
    assert st.outcome().termination is Termination.DRAW_STALLED and st.returns() == [0.0, 0.0]
    assert st.to_position().result == "draw"
    going = state(hands=["B3", "R2"], quiet=1, draw="R1")  # a card left to draw: play on
    going.apply("~B3")
    assert not going.is_terminal()


def test_st22_the_turn_limit_ends_in_a_draw():
    st = state(variant="stacks[max_turns=5]", hands=["B3", "R2"], turn=4, draw=PLENTY)
    st.apply("~B3")
    assert st.outcome().termination is Termination.MAX_TURNS and st.turn == 5
