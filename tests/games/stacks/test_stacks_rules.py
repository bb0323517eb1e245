"""Every rule of Sequence Stacks (RULES.md ST-1 to ST-22) and every option of §4.9, each
on a hand-built position written as an STN line, on every engine (``engine`` fixture).

In the lines, ``*`` (the aside or draw count) or ``?*`` (in a hand) is the rest of
the deck (engines.complete).  The 2-player deck has 2 SK, 0 RV, 2 SC, 2 SX, 2 BK (ST-3).
"""

from __future__ import annotations

from collections import Counter

import pytest
from engines import legal, play, start, stn

from seqsolve.games.base import RulesError
from seqsolve.games.stacks.actions import BLOCK, encode_play, text_to_action
from seqsolve.games.stacks.cards import Card, deck_counts
from seqsolve.games.stacks.position_text import PositionError, parse
from seqsolve.games.stacks.rules import make_rules

# ---------------------------------------------------------------------------
# 4.1 Components and players


def test_st1_two_to_six_players(engine):
    """ST-1: six hands make a 6-player game whose turn goes round all six seats."""
    g = start(
        engine,
        "stacks 4> B1/B1/B1/B1/B1/B1 -/-/-/-/-/- - - 0b0r/0b0r/0b0r/0b0r/0b0r/0b0r 0/0/0/0/0/0 0 * 0 0",
    )
    play(g, "~B1")
    assert g.current_player == 5
    play(g, "~B1")
    assert g.current_player == 0


def test_st1_seven_players_are_refused():
    """ST-1: no seventh seat, in a variant or in a position."""
    with pytest.raises(RulesError, match="ST-1"):
        make_rules("stacks", 7)
    with pytest.raises(PositionError, match="ST-1"):
        parse(
            "stacks 0> -/-/-/-/-/-/- -/-/-/-/-/-/- - - " + "/".join(["0b0r"] * 7) + " 0/0/0/0/0/0/0 0 120 0 0"
        )


def test_st2_the_deck_holds_120_cards():
    """ST-2: nine of each number and seven wilds a colour, 16 action cards."""
    counts = deck_counts(3)
    assert sum(counts) == 120
    assert counts[Card.B3] == counts[Card.R5] == 9 and counts[Card.BW] == counts[Card.RW] == 7
    assert [counts[c] for c in (Card.SK, Card.RV, Card.SC, Card.BK, Card.SX)] == [3, 3, 3, 3, 4]


def test_st2_a_card_named_more_often_than_the_deck_holds_is_refused():
    """ST-2: ten B1 in a 3-player game."""
    with pytest.raises(PositionError, match=r"B1 is named 10 times.*ST-2"):
        parse("stacks 0> B1,B1,B1,B1,B1/B1,B1,B1,B1,B1/? -/-/- - - 0b0r/0b0r/0b0r 0/0/0 0 109 0 0")


def test_st3_two_players_play_without_eight_action_cards():
    """ST-3: 112 cards, no Reverse; the option puts them back."""
    counts = deck_counts(2)
    assert sum(counts) == 112
    assert [counts[c] for c in (Card.SK, Card.RV, Card.SC, Card.BK, Card.SX)] == [2, 0, 2, 2, 2]
    with pytest.raises(PositionError, match="RV is named 1 times"):
        parse("stacks 0> RV/- -/- - - 0b0r/0b0r 0/0 0 111 0 0")


def test_st3_stacks_two_player_removal_false_keeps_the_whole_deck(engine):
    """ST-3, option stacks_two_player_removal: a Reverse in a 2-player game."""
    assert sum(make_rules("stacks[stacks_two_player_removal=false]", 2).deck) == 120
    g = start(engine, "stacks[stacks_two_player_removal=false] 0> RV,B1/B2 -/- - - 0b0r/0b0r 0/0 0 * 0 0")
    play(g, "RV", "~B1")
    assert g.to_position().direction == -1 and g.current_player == 1


def test_st4_chips_beyond_the_supply_are_refused():
    """ST-4: 20 of each colour."""
    with pytest.raises(PositionError, match=r"1:31: more blue chips than the supply of 20 \(ST-4\)"):
        parse("stacks 0> B1/B2 -/- - - 19b0r/2b0r 0/0 0 110 0 0")


def test_st4_stacks_chip_supply_sets_the_supply(engine):
    """ST-4, option stacks_chip_supply: with 1 blue chip, taken, a completion gains nothing."""
    g = start(
        engine,
        "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1] 0> B5,B1/B2 -/- - B1+B2+B3+B4 0b0r/1b0r 0/0 0 * 0 0",
    )
    play(g, "B5", "pass")
    assert g.to_position().chips == [(0, 0), (1, 0)]


# ---------------------------------------------------------------------------
# 4.2 Setup


def test_st5_a_dealt_game_starts_with_five_cards_each(engine):
    """ST-5: from a dealt position (the reference deals), seat 0 holds 5 and plays."""
    import random

    from seqsolve.reference.stacks import ReferenceStacks

    pos = ReferenceStacks.new(make_rules("stacks", 4), random.Random(5)).to_position()
    g = engine.from_position(pos)
    assert [len(h) for h in g.to_position().hands] == [5, 5, 5, 5]
    assert g.to_position().draw_count == 100 and g.to_position().piles == []


def test_st6_seat_0_starts_and_play_passes_to_seat_plus_1(engine):
    """ST-6: after seat 0's discard, seat 1 moves; after seat 2's, seat 0."""
    g = start(engine, "stacks 0> B1/B2/B3 -/-/- - - 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    assert g.current_player == 0
    play(g, "~B1")
    assert g.current_player == 1
    g = start(engine, "stacks 2> B1/B2/B3 -/-/- - - 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    play(g, "~B3")
    assert g.current_player == 0


# ---------------------------------------------------------------------------
# 4.3 Sequence piles


def test_st7_a_pile_starts_with_a_1_or_a_wild_while_fewer_than_two_of_its_colour(engine):
    """ST-7: two blue piles in play: no third blue pile; a red one may start."""
    g = start(engine, "stacks 0> B1,BW,R1/B2 -/- - B1+B2,B1 0b0r/0b0r 0/0 0 * 0 0")
    assert legal(g) == ["BW>1", "BW>2", "R1", "~B1", "~BW", "~R1"]
    with pytest.raises(ValueError, match="ST-7"):
        play(g, "B1")
    play(g, "R1")
    assert g.to_position().piles[-1] == [Card.R1]


def test_st7_only_a_1_or_a_wild_starts_a_pile(engine):
    """ST-7: with no piles, a 2 cannot be played; a wild starts a pile as its 1."""
    g = start(engine, "stacks 0> B2,RW/B3 -/- - - 0b0r/0b0r 0/0 0 * 0 0")
    assert legal(g) == ["RW>0", "~B2", "~RW"]
    play(g, "RW>0")
    assert g.to_position().piles == [[Card.RW]]


@pytest.mark.parametrize("limit, startable", [(1, False), (3, True)])
def test_st7_stacks_max_piles_per_colour(engine, limit, startable):
    """ST-7, option stacks_max_piles_per_colour."""
    piles = "B1" if limit == 1 else "B1,B1+B2"
    g = start(
        engine, f"stacks[stacks_max_piles_per_colour={limit}] 0> B1,R1/B2 -/- - {piles} 0b0r/0b0r 0/0 0 * 0 0"
    )
    assert ("B1" in legal(g)) == startable
    assert "R1" in legal(g)


def test_st8_a_pile_builds_with_the_next_number_or_a_wild_of_its_colour(engine):
    """ST-8: a 3 on the blue 2, a wild on any pile of its colour, nothing on the wrong colour."""
    g = start(engine, "stacks 0> B3,B4,BW,R3,RW/B2 -/- - B1+B2,R1 0b0r/0b0r 0/0 0 * 0 0")
    assert legal(g) == ["B3", "BW>0", "BW>2", "RW>0", "RW>1", "~B3", "~B4", "~BW", "~R3", "~RW"]
    play(g, "B3", "B4", "RW>1", "R3")
    assert g.to_position().piles == [[Card.B1, Card.B2, Card.B3, Card.B4], [Card.R1, Card.RW, Card.R3]]


def test_st8_equal_piles_are_built_oldest_first(engine):
    """ST-8 (docs/stacks.md): a card goes on the oldest pile of its colour with the value it needs."""
    g = start(engine, "stacks 0> B2,BW/B3 -/- - B1,R1,B1 0b0r/0b0r 0/0 0 * 0 0")
    assert legal(g) == ["B2", "BW>1", "~B2", "~BW"]
    play(g, "B2", "BW>1")
    assert g.to_position().piles == [[Card.B1, Card.B2], [Card.R1], [Card.B1, Card.BW]]


def test_st8_a_wild_stands_for_the_5(engine):
    """ST-8: a wild as the fifth card completes the pile (ST-9)."""
    g = start(engine, "stacks 0> BW,B1/B2 -/- - B1+B2+B3+B4 0b0r/0b0r 0/0 0 * 0 0")
    play(g, "BW>4")
    assert g.current_player == 1 and legal(g) == ["pass"]
    play(g, "pass")
    assert g.to_position().chips[0] == (1, 0)


def test_st9_a_completion_earns_a_chip_of_its_colour_and_is_set_aside(engine):
    """ST-9: after the Block window, the completer takes a red chip; the 5 cards are set aside."""
    g = start(engine, "stacks 0> R5,B1/B2 -/- - B1,R1+R2+RW+R4 0b0r/0b0r 0/0 0 * 0 0")
    play(g, "R5")
    pos = g.to_position()
    assert pos.block_asked == 1 and pos.chips[0] == (0, 0) and len(pos.piles[1]) == 5
    play(g, "pass")
    pos = g.to_position()
    assert pos.chips == [(0, 1), (0, 0)] and pos.piles == [[Card.B1]]
    assert pos.aside_count == 5 and pos.aside_cards == [Card.R1, Card.R2, Card.R4, Card.R5, Card.RW]
    assert g.current_player == 0 and pos.progress


def test_st9_no_chip_when_the_supply_of_that_colour_is_empty(engine):
    """ST-9: the supply of red is empty: the pile is set aside, no chip taken."""
    g = start(engine, "stacks 0> R5,B1/B2 -/- - R1+R2+R3+R4 0b10r/0b10r 0/0 0 * 0 0")
    play(g, "R5", "pass")
    pos = g.to_position()
    assert pos.chips == [(0, 10), (0, 10)] and pos.aside_count == 5 and not g.is_terminal()


# ---------------------------------------------------------------------------
# 4.4 The turn


def test_st10_a_skip_token_is_spent_and_the_whole_turn_skipped(engine):
    """ST-10: seat 1 holds two tokens: its turn is skipped (no draw), one token is left."""
    g = start(engine, "stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/2 0 * 3 0")
    play(g, "~B1")
    pos = g.to_position()
    assert g.current_player == 0 and pos.skips == [0, 1] and pos.turn == 5
    assert pos.hands[1] == [Card.B2] and pos.unknown[1] == 0  # no refill for a skipped turn
    assert pos.quiet == 2  # skipped turns count as turns (ST-22)


def test_st11_the_hand_is_refilled_to_five_at_the_turn_start(engine):
    """ST-11: seat 1 holds 2 and draws 3 from the top; seat 0 holding 6 draws nothing."""
    g = start(engine, "stacks 0> B1,B2,B3,B4,B5,BW,R1/R2,R3 -/- - - 0b0r/0b0r 0/0 * 4:R4,R5,RW,B1 0 0")
    play(g, "~B1")
    pos = g.to_position()
    assert pos.hands[1] == [Card.R2, Card.R3, Card.R4, Card.R5, Card.RW] and pos.draw_cards == [Card.B1]
    play(g, "~R2")
    assert len(g.to_position().hands[0]) == 6 and g.to_position().draw_cards == [Card.B1]


def test_st11_stacks_refill_empty_hand_only_draws_only_into_an_empty_hand(engine):
    """ST-11, option stacks_refill=empty_hand_only: 2 cards stay 2; an empty hand draws 5."""
    g = start(
        engine,
        "stacks[stacks_refill=empty_hand_only] 0> B1/R2,R3 -/- - - 0b0r/0b0r 0/0 * 6:R4,R5,RW,B1,B2,B3 0 0",
    )
    play(g, "~B1")
    assert g.to_position().hands[1] == [Card.R2, Card.R3]
    play(g, "~R2")
    pos = g.to_position()
    assert sorted(pos.hands[0]) == [Card.B1, Card.B2, Card.R4, Card.R5, Card.RW] and pos.draw_cards == [
        Card.B3
    ]


def test_st12_any_number_of_cards_in_one_turn(engine):
    """ST-12: five plays, then the discard."""
    g = start(engine, "stacks 0> B1,B2,B3,R1,R5,SC/B2 -/R4 - - 0b0r/0b0r 0/0 0 * 0 0")
    play(g, "B1", "B2", "R1", "B3", "SC@1")
    pos = g.to_position()
    assert pos.hands[0] == [Card.R4, Card.R5] and g.current_player == 0
    play(g, "~R4")
    assert g.current_player == 1


def test_st12_the_top_of_the_own_discard_pile_and_then_the_next(engine):
    """ST-12: ^B1 from the discard pile, then the B2 under it is the top and may go too."""
    g = start(engine, "stacks 0> R3/B4 B3,B2,B1/B1 - - 0b0r/0b0r 0/0 0 * 0 0")
    assert legal(g) == ["^B1", "~R3"]
    play(g, "^B1", "^B2", "^B3")
    assert g.to_position().piles == [[Card.B1, Card.B2, Card.B3]] and g.to_position().discards[0] == []


@pytest.mark.parametrize("from_discard", [True, False])
def test_st12_stacks_actions_from_discard(engine, from_discard):
    """ST-12, option stacks_actions_from_discard: an action card on top of the own
    discard pile is playable only with it; a number card always."""
    option = "" if from_discard else "[stacks_actions_from_discard=false]"
    g = start(engine, f"stacks{option} 0> R3/B4 SK/- - - 0b0r/0b0r 0/0 0 * 0 0")
    assert ("^SK" in legal(g)) == from_discard
    g = start(engine, f"stacks{option} 0> R3/B4 B1/- - - 0b0r/0b0r 0/0 0 * 0 0")
    assert "^B1" in legal(g)


def test_st13_an_emptied_hand_draws_five_at_once(engine):
    """ST-13: the last card leaves the hand and 5 come from the top of the draw pile."""
    g = start(engine, "stacks 0> B1/B4 -/- - - 0b0r/0b0r 0/0 * 6:B2,B3,R1,R2,RW,B5 0 0")
    play(g, "B1")
    pos = g.to_position()
    assert pos.hands[0] == [Card.B2, Card.B3, Card.R1, Card.R2, Card.RW] and pos.draw_cards == [Card.B5]
    play(g, "B2", "B3", "R1", "R2", "~RW")
    assert g.current_player == 1


def test_st14_a_discard_ends_the_turn_end_only_with_an_empty_hand(engine):
    """ST-14: any card, action cards too, ends the turn on the own discard pile;
    ``end`` is for a hand that is empty and could not be refilled."""
    g = start(engine, "stacks 0> BK,B2/?* -/- - - 0b0r/0b0r 0/0 0 0 0 0")
    assert "end" not in legal(g)
    with pytest.raises(ValueError, match="ST-14"):
        play(g, "end")
    play(g, "~BK")
    assert g.to_position().discards[0] == [Card.BK] and g.current_player == 1
    g = start(engine, "stacks 0> -/?* B2/- - - 0b0r/0b0r 0/0 0 0 0 0")
    assert legal(g) == ["end"]
    play(g, "end")
    assert g.current_player == 1 and g.to_position().turn == 1


# ---------------------------------------------------------------------------
# 4.5 Action cards


def test_st15_block_cancels_the_chip(engine):
    """ST-15: the first opponent to block cancels the chip; the pile is set aside all
    the same; the Block goes to the special pile and the blocker draws nothing."""
    g = start(engine, "stacks 0> B5,R1/BK,R2/BK,R3 -/-/- - B1+B2+B3+B4 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    play(g, "B5")
    assert g.current_player == 1 and legal(g) == ["block", "pass"]
    play(g, "pass")
    assert g.current_player == 2
    play(g, "block")
    pos = g.to_position()
    assert g.current_player == 0 and pos.block_asked is None
    assert pos.chips == [(0, 0)] * 3 and pos.piles == [] and pos.aside_count == 5
    assert pos.special == [Card.BK] and pos.hands[2] == [Card.R3] and pos.hands[1] == [Card.R2, Card.BK]


def test_st15_every_opponent_is_asked_holder_or_not_in_turn_order(engine):
    """ST-15 (docs/stacks.md): all opponents are asked from the completer's neighbour in
    the current direction; one without a Block can only pass."""
    g = start(engine, "stacks 1< R2/B5,R1/R3/BK -/-/-/- RV B1+B2+B3+B4 0b0r/0b0r/0b0r/0b0r 0/0/0/0 0 * 0 0")
    play(g, "B5")
    asked = []
    while g.current_player != 1:
        asked.append((g.current_player, legal(g)))
        play(g, "pass")
    assert asked == [(0, ["pass"]), (3, ["block", "pass"]), (2, ["pass"])]
    assert g.to_position().chips[1] == (1, 0)


def test_st15_block_is_never_played_in_ones_own_turn(engine):
    """ST-15: a Block in the mover's hand is not a play (it may be discarded)."""
    g = start(engine, "stacks 0> BK/B1 -/- - - 0b0r/0b0r 0/0 0 * 0 0")
    assert legal(g) == ["~BK"]
    with pytest.raises(ValueError, match="ST-15"):
        g.apply(encode_play(Card.BK))
    with pytest.raises(ValueError, match="ST-15"):
        g.apply(BLOCK)


def test_st15_block_from_the_hand_only(engine):
    """ST-15: a Block on top of the asked seat's discard pile does not block."""
    g = start(engine, "stacks 0> B5,R1/R2 -/BK - B1+B2+B3+B4 0b0r/0b0r 0/0 0 * 0 0")
    play(g, "B5")
    assert legal(g) == ["pass"]


def test_st16_skip_gives_the_next_player_a_token_and_two_players_play_again(engine):
    """ST-16: with 2 players the skipper plays again after its discard; tokens stack."""
    g = start(engine, "stacks 0> SK,SK,B1,B2/R1 -/- - - 0b0r/0b0r 0/0 0 * 0 0")
    play(g, "SK", "SK")
    pos = g.to_position()
    assert pos.skips == [0, 2] and pos.special == [Card.SK, Card.SK]
    play(g, "~B1")
    assert g.current_player == 0 and g.to_position().skips == [0, 1]


def test_st16_the_token_goes_to_the_next_player_in_the_current_direction(engine):
    """ST-16 with ST-17: after a Reverse the Skip's token goes to the seat before."""
    g = start(engine, "stacks 0> SK,RV,B1/R1/R2 -/-/- - - 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    play(g, "SK")
    assert g.to_position().skips == [0, 1, 0]
    g = start(engine, "stacks 0> SK,RV,B1/R1/R2 -/-/- - - 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    play(g, "RV", "SK", "~B1")
    assert g.to_position().skips == [0, 0, 0] and g.current_player == 1  # seat 2 skipped


def test_st17_reverse_flips_the_direction_at_once(engine):
    """ST-17: seat 0's Reverse sends the turn to seat 2."""
    g = start(engine, "stacks 0> RV,B1/R1/R2 -/-/- - - 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    play(g, "RV")
    assert g.to_position().direction == -1 and g.to_position().special == [Card.RV]
    play(g, "~B1")
    assert g.current_player == 2


def test_st18_steal_a_card_takes_the_top_of_an_opponents_discard_pile(engine):
    """ST-18: only an opponent with a discard pile; the top card goes to the hand."""
    g = start(engine, "stacks 0> SC,B1/R1/R2 B2/R3,B4/- - - 0b0r/0b0r/0b0r 0/0/0 0 * 0 0")
    assert [a for a in legal(g) if a.startswith(("SC", "^SC"))] == ["SC@1"]
    with pytest.raises(ValueError, match="ST-18"):
        play(g, "SC@2")
    play(g, "SC@1")
    pos = g.to_position()
    assert pos.hands[0] == [Card.B1, Card.B4] and pos.discards[1] == [Card.R3] and pos.special == [Card.SC]


def test_st19_steal_a_chip_takes_any_chip_of_an_opponent(engine):
    """ST-19: either colour the opponent holds, from any opponent."""
    g = start(engine, "stacks 0> SX,B1/R1/R2 -/-/- - - 0b0r/0b2r/1b0r 0/0/0 0 * 0 0")
    assert [a for a in legal(g) if a.startswith("SX")] == ["SX@1r", "SX@2b"]
    play(g, "SX@1r")
    pos = g.to_position()
    assert pos.chips == [(0, 1), (0, 1), (1, 0)] and pos.progress


def test_st19_steal_a_chip_cannot_win(engine):
    """ST-19: a steal that would meet the win condition is not legal."""
    g = start(engine, "stacks 0> SX,B1/R1 -/- - - 2b2r/1b1r 0/0 0 * 0 0")
    assert legal(g) == ["B1", "~B1", "~SX"]
    with pytest.raises(ValueError, match="ST-19"):
        play(g, "SX@1r")


def test_st19_stacks_steal_chip_can_win(engine):
    """ST-19, option stacks_steal_chip_can_win=true: the steal wins at once (ST-21)."""
    g = start(engine, "stacks[stacks_steal_chip_can_win=true] 0> SX,B1/R1 -/- - - 2b2r/1b1r 0/0 0 * 0 0")
    play(g, "SX@1b")
    assert g.is_terminal() and g.returns() == [1.0, -1.0] and g.to_position().result == 0


# ---------------------------------------------------------------------------
# 4.6 Draw pile


def test_st20_an_empty_draw_pile_is_refilled_from_the_set_aside_cards(engine):
    """ST-20: the set-aside cards become the draw pile; what is drawn comes from them."""
    g = start(engine, "stacks 0> B1/?* -/- - - 0b0r/0b0r 0/0 10:B2,B2,B3,B3,B4,B4,B5,B5,R1,R1 0 0 0", seed=3)
    play(g, "B1")
    pos = g.to_position()
    aside = Counter([Card.B2, Card.B3, Card.B4, Card.B5, Card.R1] * 2)
    assert len(pos.hands[0]) == 5 and pos.aside_count == 0 and pos.draw_count == 5
    assert Counter(pos.hands[0]) + Counter(pos.draw_cards) == aside


def test_st20_without_a_shuffle_source_recycled_cards_are_unknown(engine):
    """ST-20 (docs/stacks.md): with seed None nobody knows the recycled order."""
    g = start(engine, "stacks 0> B1/?* -/- - - 0b0r/0b0r 0/0 10:B2,B2,B3,B3,B4,B4,B5,B5,R1,R1 0 0 0")
    play(g, "B1")
    pos = g.to_position()
    assert pos.hands[0] == [] and pos.unknown[0] == 5 and pos.draw_count == 5 and pos.draw_cards is None


def test_st20_nothing_to_recycle_skips_the_draw(engine):
    """ST-20: discard piles and the special pile are never recycled; the hand stays empty."""
    g = start(engine, "stacks 0> B1/?* B2/R3 SK - 0b0r/0b0r 0/0 0 0 0 0")
    play(g, "B1")
    pos = g.to_position()
    assert pos.hands[0] == [] and pos.unknown[0] == 0 and pos.discards == [[Card.B2], [Card.R3]]
    assert legal(g) == ["^B2", "end"]


# ---------------------------------------------------------------------------
# 4.7 Winning and end of game


def test_st21_five_chips_with_two_of_each_colour_win(engine):
    """ST-21: 2b2r and a blue completion win at once."""
    g = start(engine, "stacks 0> B5,R1/R2 -/- - B1+B2+B3+B4 2b2r/0b0r 0/0 0 * 0 0")
    play(g, "B5", "pass")
    assert g.is_terminal() and g.current_player is None and g.legal_actions() == []
    assert g.returns() == [1.0, -1.0] and g.to_position().result == 0


def test_st21_four_blue_and_one_red_is_not_yet_a_win(engine):
    """ST-21: 4b0r + a red chip = 4b1r, the game goes on; then 4b2r wins."""
    g = start(engine, "stacks 0> R5,R1,R2,R3,R4,RW/B1 -/- - R1+R2+R3+R4 4b0r/0b0r 0/0 0 * 0 0")
    play(g, "R5", "pass")
    assert not g.is_terminal() and g.to_position().chips[0] == (4, 1)
    play(g, "R1", "R2", "R3", "R4", "RW>4", "pass")
    assert g.is_terminal() and g.to_position().result == 0


def test_st21_stacks_win_chips_and_stacks_win_min_each(engine):
    """ST-21, options stacks_win_chips=3 and stacks_win_min_each=1: 2b1r wins."""
    g = start(
        engine,
        "stacks[stacks_win_chips=3,stacks_win_min_each=1] 1> R1/B5,R2 -/- - B1+B2+B3+B4 0b0r/1b1r 0/0 0 * 0 0",
    )
    play(g, "B5", "pass")
    assert g.is_terminal() and g.returns() == [-1.0, 1.0]


def test_st21_a_won_position_still_going_is_refused():
    """ST-21: a seat with 3b2r in a game going on has already won."""
    with pytest.raises(PositionError, match="ST-21"):
        parse("stacks 0> B1/B2 -/- - - 3b2r/0b0r 0/0 0 110 0 0")


def test_st22_a_quiet_round_with_nothing_to_draw_is_a_draw(engine):
    """ST-22: draw pile and set-aside stack empty, a full round (2 turns) without a
    card to a pile or a chip moved: the game is drawn."""
    g = start(engine, "stacks 0> B3/B4,?* -/- - - 0b0r/0b0r 0/0 0 0 7 1")
    play(g, "~B3")
    assert g.is_terminal() and g.to_position().result == "draw" and g.returns() == [0.0, 0.0]


def test_st22_a_card_to_a_pile_keeps_the_game_going(engine):
    """ST-22: progress in the turn resets the quiet count."""
    g = start(engine, "stacks 0> B1,B3/B4,?* -/- - - 0b0r/0b0r 0/0 0 0 7 1")
    play(g, "B1", "~B3")
    assert not g.is_terminal() and g.to_position().quiet == 0


def test_st22_quiet_turns_end_only_when_nothing_is_left_to_draw(engine):
    """ST-22: with a draw pile, quiet turns go on being counted."""
    g = start(engine, "stacks 0> B3/B4 -/- - - 0b0r/0b0r 0/0 0 * 7 5")
    play(g, "~B3")
    assert not g.is_terminal() and g.to_position().quiet == 6


def test_st22_max_turns(engine):
    """ST-22, option max_turns: the 5th completed turn ends the game in a draw."""
    g = start(engine, "stacks[max_turns=5] 0> B1,B3/B4 -/- - - 0b0r/0b0r 0/0 0 * 4 0")
    play(g, "B1", "~B3")
    assert g.is_terminal() and g.to_position().result == "draw" and g.to_position().turn == 5


#: seat 0 holds the 5 of a blue pile at 4; the draw pile is empty and the set-aside
#: stack holds a blue run, so every completion refills the draw pile with a run
#: one chip of each colour; ``{chips}`` 0b1r/1b0r leaves no blue chip to take
LOOP = (
    "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1] 0>{flags} B5/?* -/- -"
    " B1+B2+B3+B4 {chips} 0/0 5:B1,B2,B3,B4,B5 0 0 0"
)
NO_BLUE, NO_CHIP_YET = "0b1r/1b0r", "0b0r/0b0r"


def _build_the_run_again(g) -> None:
    play(g, "B1", "B2", "B3", "B4", "B5")


def test_st22_a_second_refill_in_a_turn_without_a_chip_is_the_stalled_draw(engine):
    """ST-22 [OURS] (RULES-NOTES.md): with no chip to take, the same run comes back
    from the set-aside stack and is built again; the second refill of the turn ends
    the game in a draw instead of looping.  The run that stalled lands on the
    set-aside stack, so every card is still somewhere."""
    g = start(engine, LOOP.format(chips=NO_BLUE, flags=""), seed=1)
    play(g, "B5", "pass")  # the first refill: the run comes back
    assert stn(g).split()[1] == "0>pr" and not g.is_terminal()
    _build_the_run_again(g)
    pos = g.to_position()
    assert g.is_terminal() and pos.result == "draw" and g.returns() == [0.0, 0.0]
    assert pos.piles == [] and pos.hands[0] == [] and pos.draw_count == 0 and pos.aside_count == 10
    assert parse(stn(g)) == pos  # a valid finished position


def test_st22_a_chip_after_the_refill_lets_the_next_refill_go_on(engine):
    """ST-22 [OURS]: the chip of the first completion (supply 1) clears the flag, so
    the second refill goes on; the third, with no chip since the second, stalls."""
    g = start(engine, LOOP.format(chips=NO_CHIP_YET, flags=""), seed=1)
    play(g, "B5", "pass")
    assert stn(g).split()[1] == "0>p" and g.to_position().chips[0] == (1, 0)
    _build_the_run_again(g)
    play(g, "pass")
    assert not g.is_terminal() and stn(g).split()[1] == "0>pr"
    _build_the_run_again(g)
    assert g.is_terminal() and g.to_position().result == "draw"


def test_st22_the_refilled_flag_of_a_position_is_played_by(engine):
    """ST-22 [OURS], docs/stacks.md: ``r`` in the to-move field says the turn has
    refilled already, so the next refill is the stalled draw."""
    g = start(engine, LOOP.format(chips=NO_BLUE, flags="r"), seed=1)
    play(g, "B5")
    assert g.is_terminal() and g.to_position().result == "draw"


def test_st22_a_new_turn_clears_the_refilled_flag(engine):
    """ST-22 [OURS]: the flag counts refills within one turn only; the next turn's
    ST-11 refill recycles as any first refill does."""
    g = start(
        engine,
        "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1] 0>r B3/?* -/- - - 1b0r/0b1r 0/0 5:B1,B2,B3,B4,B5 0 0 0",
        seed=1,
    )
    play(g, "~B3")
    assert not g.is_terminal() and stn(g).split()[1] == "1>"


def test_st22_a_turn_start_refill_counts_as_the_first_of_the_turn(engine):
    """ST-22 [OURS]: the ST-11 refill at the start of seat 1's turn recycles; its
    completion gives no chip, so the refill its ST-13 draw needs stalls."""
    g = start(
        engine,
        "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1] 0> R3,?*/B5,R2,R3,R4 -/- - B1+B2+B3+B4 1b0r/0b1r 0/0"
        " 5:R1,R1,R1,R1,R1 0 0 0",
        seed=1,
    )
    play(g, "~R3")  # seat 1 draws its fifth card, an R1, from the recycled stack
    assert stn(g).split()[1] == "1>r" and g.to_position().draw_count == 4
    play(g, "B5", "pass", "R1", "R2", "R3")
    assert not g.is_terminal()
    play(g, "R4")  # the ST-13 draw takes the four R1 and then needs a second refill
    pos = g.to_position()
    assert g.is_terminal() and pos.result == "draw"
    assert pos.piles == [[Card.R1, Card.R2, Card.R3, Card.R4]] and pos.hands[1] == [Card.R1] * 4


# ---------------------------------------------------------------------------
# §4.9 options not named above


def test_players_option_is_a_seating_not_an_option():
    """§4.9 players: given as the player count, never inside the brackets."""
    assert make_rules("stacks", 5).players == 5
    with pytest.raises(RulesError, match="seating"):
        make_rules("stacks[players=3]", 3)


def test_text_and_numbers_agree_for_every_legal_action(engine):
    """The actions of docs/stacks.md: what legal_actions lists is written and read back."""
    g = start(engine, "stacks 0> B1,BW,SC,SX,SK/R1,BK R2/R3 - R1 0b0r/0b1r 0/0 0 * 0 0")
    assert all(text_to_action(t) == a for t, a in zip(legal(g), g.legal_actions()))
    assert stn(g).startswith("stacks 0> ")
