"""The Sequence Stacks bots (seqsolve/games/stacks/bots.py, ext/seqsolve/_stacks_bots.pyx):
legal answers on hand-built positions, greedy's documented preferences one by one,
the search's budget and seeds, and greedy's margin over random in the compiled loop."""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import card_census, position, state

from seqsolve import _stacks_bots
from seqsolve.games.stacks.bots import StacksGreedyBot, StacksMCTSBot, StacksRandomBot, bot_classes
from seqsolve.games.stacks.game import STACKS
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState, stacks_tables

BOTS = [
    StacksRandomBot(),
    StacksGreedyBot(),
    StacksGreedyBot(block="matters"),
    StacksMCTSBot(iters=60, time=0),
]


def whole(**kw) -> StacksState:
    """A hand-built position whose unlisted cards are all in the draw pile, unknown: the
    deck adds up, so a search can deal the unseen cards."""
    pos = position(**kw)
    known, unknown = card_census(pos)
    rest = sum(pos.rules.deck) - sum(known.values()) - unknown
    return StacksState.from_position(position(**kw, draw=None, draw_count=rest), seed=1)


def greedy(st: StacksState, block_all: bool = True) -> str:
    seat = st.current_player
    return st.action_to_string(_stacks_bots.greedy_action(st.observation(seat).core, block_all))


def mcts(st: StacksState, iters: int = 300, seed: int = 1) -> dict:
    seat = st.current_player
    return _stacks_bots.StacksSearcher().search(st.observation(seat).core, seat, np.random.PCG64(seed), iters)


# ------------------------------------------------------------ every bot answers legally

HAND_BUILT = {
    "block window (ST-15)": {
        "hands": ["B4", "BK R2"],
        "piles": ["B1 B2 B3 B4 B5"],
        "block_asked": 1,
        "progress": True,
    },
    "empty hand (ST-14)": {"hands": ["-", "R1"], "progress": True},
    "steals (ST-18, ST-19)": {
        "hands": ["SC SX B2", "R1"],
        "discards": ["-", "B1"],
        "chips": [(0, 0), (1, 1)],
    },
    "wild targets (ST-8)": {"hands": ["BW RW B3", "R1"], "piles": ["B1 B2", "R1"]},
}


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.spec)
@pytest.mark.parametrize("name", HAND_BUILT)
def test_each_bot_answers_a_legal_action_on_hand_built_positions(bot, name):
    st = whole(**HAND_BUILT[name])
    seat = st.current_player
    bot.start(st.rules, st.seats, seat)
    assert bot.choose(st.observation(seat), np.random.default_rng(3)) in st.legal_actions()


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.spec)
@pytest.mark.parametrize("players", [2, 4])
def test_each_bot_plays_dealt_games_legally_from_its_observation(bot, players):
    rng = np.random.default_rng(players)
    st = StacksState.new(make_rules("stacks", players), seed=11)
    for _ in range(120):
        if st.is_terminal():
            break
        seat = st.current_player
        st.apply(bot.choose(st.observation(seat), rng))  # apply refuses an illegal action


def test_stacks_game_lists_its_bots():
    assert set(bot_classes()) == {"random", "greedy", "mcts"}
    assert set(STACKS.bot_classes()) == {"random", "greedy", "mcts", "ext"}  # and the line protocol's programs
    assert all(cls.summary for cls in bot_classes().values())


# ------------------------------------------------------------ greedy's preferences


def test_greedy_completes_a_pile_rather_than_ending_the_turn():
    # ST-9: the 5 on a pile at 4 takes a chip
    st = state(hands=["R1 B5 SK", "-"], piles=["B1 B2 B3 B4"])
    assert greedy(st) == "B5"


def test_greedy_takes_the_completion_that_wins():
    # ST-21: with 3 blue and 1 red chips only a red chip wins (5 chips, 2 of each)
    st = state(hands=["B5 R5", "-"], piles=["B1 B2 B3 B4", "R1 R2 R3 R4"], chips=[(3, 1), (0, 0)])
    assert greedy(st) == "R5"


def test_greedy_keeps_a_wild_when_a_number_does_the_same_job():
    st = state(hands=["BW B5", "-"], piles=["B1 B2 B3 B4"])
    assert greedy(st) == "B5"
    st = state(hands=["BW B5", "-"], piles=["B1 B2 B3 B4"], discards=["B4", "-"])
    assert greedy(st) == "B5"


def test_greedy_plays_a_wild_as_the_five_when_no_number_can():
    st = state(hands=["BW R2", "-"], piles=["B1 B2 B3 B4"])
    assert greedy(st) == "BW>4"


def test_greedy_builds_a_pile_it_can_finish_this_turn():
    # ST-8: R3, R4, R5 on a red pile at 2 reach the 5
    st = state(hands=["R3 R4 R5 SC", "-"], piles=["R1 R2"])
    assert greedy(st) == "R3"


def test_greedy_does_not_leave_a_pile_at_four_for_the_next_player():
    st = state(hands=["B4 SC", "-"], piles=["B1 B2 B3"])
    assert greedy(st) == "~SC"
    # ... but builds to 4 when its hand holds the 5
    st = state(hands=["B4 B5 SC", "-"], piles=["B1 B2 B3"])
    assert greedy(st) == "B4"


def test_greedy_spends_no_wild_on_a_build_it_cannot_finish():
    st = state(hands=["RW SC", "-"], piles=["R1"])
    assert greedy(st) == "~SC"


def test_greedy_plays_from_the_discard_top_when_equal():
    # ST-12: the discard top is played like a hand card; the hand keeps its own
    st = state(hands=["B2 SC", "-"], piles=["B1"], discards=["B2", "-"])
    assert greedy(st) == "^B2"


def test_greedy_blocks_a_completion_that_would_win_and_lets_a_far_one_stand():
    # ST-15: seat 1 holds a Block; seat 0 completed a blue pile
    window = {"hands": ["-", "BK R2"], "piles": ["B1 B2 B3 B4 B5"], "block_asked": 1, "progress": True}
    # block=matters
    assert (
        greedy(state(**window, chips=[(2, 2), (0, 0)]), block_all=False) == "block"
    )  # the chip would win (ST-21)
    assert greedy(state(**window, chips=[(0, 0), (0, 0)]), block_all=False) == "pass"  # it would still need 4
    # block=always, the default
    assert greedy(state(**window, chips=[(0, 0), (0, 0)])) == "block"


def test_greedy_does_not_block_a_completion_that_gives_no_chip():
    # ST-9: the blue supply is empty (stacks_chip_supply=1, the chip already taken)
    window = {"hands": ["-", "BK R2"], "piles": ["B1 B2 B3 B4 B5"], "block_asked": 1, "progress": True}
    st = state(**window, variant="stacks[stacks_chip_supply=1]", chips=[(1, 1), (0, 0)])
    assert greedy(st, block_all=True) == "pass"


def test_greedy_steals_a_chip_that_brings_its_win_closer():
    # ST-19: seat 1 holds blue and red; seat 0 needs both colours
    st = state(hands=["SX R1", "-"], chips=[(0, 0), (1, 2)])
    assert greedy(st) in ("SX@1b", "SX@1r")
    # a chip that does not matter: seat 0 needs blue, not a fifth red; seat 1, with no
    # blue, still needs 2 chips after losing one of its 5 red
    st = state(hands=["SX R1", "-"], chips=[(0, 4), (0, 5)])
    assert greedy(st) == "R1"


def test_greedy_steals_a_card_that_completes_a_pile():
    # ST-18: seat 1's discard top is a 5 for the blue pile at 4
    st = state(hands=["SC R2", "-"], piles=["B1 B2 B3 B4"], discards=["-", "B5"])
    assert greedy(st) == "SC@1"
    # a top that fits nowhere is left there (the red 2 fits nowhere either: it goes)
    st = state(hands=["SC R2", "-"], discards=["-", "B5"])
    assert greedy(st) == "~R2"


def test_greedy_skips_the_player_about_to_win():
    # ST-16 with 4 players: the Skip goes to seat 1, the next player
    near = state(players=4, hands=["SK R1", "-", "-", "-"], chips=[(0, 0), (2, 2), (0, 0), (0, 0)])
    assert greedy(near) == "SK"
    far = state(players=4, hands=["SK R1", "-", "-", "-"], chips=[(0, 0), (0, 0), (2, 2), (0, 0)])
    assert greedy(far) == "R1"


def test_greedy_discards_what_it_values_least():
    # ST-14: no play helps (no pile, no discard to steal from): the dead 5 goes, the wild stays
    st = state(hands=["BW SC B5", "-"])
    assert greedy(st) == "~B5"


# ------------------------------------------------------------ mcts


def test_mcts_finds_the_winning_completion():
    # ST-21: the red 5 wins for seat 0 (2 blue, 1 red + 1 red); nothing else comes close
    st = whole(hands=["R5 B1 SK B3", "-"], piles=["R1 R2 R3 R4"], chips=[(2, 1), (0, 0)])
    found = mcts(st, iters=300)
    assert st.action_to_string(found["best"]) == "R5"


def test_mcts_respects_its_iteration_cap_and_reproduces_with_a_seed():
    st = StacksState.new(make_rules("stacks", 3), seed=4)
    first, again = mcts(st, iters=137, seed=9), mcts(st, iters=137, seed=9)
    assert first["iterations"] == 137
    assert sum(visits for _, visits, _ in first["actions"]) == 137
    del first["seconds"], again["seconds"]
    assert first == again


def test_mcts_searches_where_a_turn_would_loop_without_an_action_cap():
    """ST-22 [OURS]: no chip to take (supply 0), an empty draw pile, and this turn has
    refilled it once already: the B5 that empties the hand stalls the game at its ST-13
    draw, a finished child, and the search (no cap on a turn's length) counts it."""
    pos = position(
        variant="stacks[stacks_chip_supply=0]",
        hands=["B5", "-"],
        unknown=[0, 102],  # the rest of the 112-card deck, so the search deals it to seat 1
        piles=["B1 B2 B3 B4"],
        aside="B1 B2 B3 B4 B5",
        progress=True,
        refilled=True,
    )
    st = StacksState.from_position(pos, seed=1)
    found = mcts(st, iters=200)
    visits = {st.action_to_string(a): n for a, n, _ in found["actions"]}
    assert found["iterations"] == 200 and sum(visits.values()) == 200 and visits["B5"] > 0
    st.apply(st.string_to_action("B5"))
    assert st.is_terminal() and st.to_position().result == "draw"


def test_mcts_answers_a_single_legal_action_at_once():
    st = whole(hands=["-", "R2"], piles=["B1 B2 B3 B4 B5"], block_asked=1, progress=True)  # no Block: pass
    found = mcts(st, iters=500)
    assert found["iterations"] == 0 and st.action_to_string(found["best"]) == "pass"


def test_mcts_refuses_a_seat_that_does_not_decide_and_no_budget():
    st = StacksState.new(make_rules("stacks", 2), seed=4)
    searcher = _stacks_bots.StacksSearcher()
    with pytest.raises(ValueError, match="does not decide"):
        searcher.search(st.observation(1).core, 1, np.random.PCG64(1), 10)
    with pytest.raises(ValueError, match="budget"):
        searcher.search(st.observation(0).core, 0, np.random.PCG64(1))
    with pytest.raises(ValueError, match="unknown search parameter"):
        _stacks_bots.StacksSearcher({"cc": 1})


def test_seeds_reproduce_the_bots_choices():
    st = StacksState.new(make_rules("stacks", 4), seed=8)
    seen = st.observation(st.current_player)
    for bot in (StacksRandomBot(), StacksMCTSBot(iters=80, time=0)):
        picks = [bot.choose(seen, np.random.default_rng(5)) for _ in range(2)]
        assert picks[0] == picks[1]


def test_mcts_bot_refuses_no_budget():
    from seqsolve.bots.base import BotError

    with pytest.raises(BotError, match="iters or time"):
        StacksMCTSBot(iters=0, time=0)
    with pytest.raises(BotError, match="block"):
        StacksGreedyBot(block="never")


# ------------------------------------------------------------ strength (compiled loop, fixed seeds)


@pytest.mark.parametrize("players, games, least", [(2, 200, 0.9), (4, 200, 0.6)])
def test_greedy_beats_random_by_a_clear_margin(players, games, least):
    # seats rotated over the deals; the fair share is 1/players
    tables = stacks_tables(make_rules("stacks", players))
    wins = 0
    for i in range(games):
        seats = ["random"] * players
        seats[i % players] = "greedy"
        result, _, _ = _stacks_bots.play_game(tables, np.random.PCG64(i), np.random.PCG64(10_000 + i), seats)
        wins += result == i % players
    assert wins / games >= least


def test_play_game_gives_a_searching_seat_its_budget():
    tables = stacks_tables(make_rules("stacks", 2))
    searcher = _stacks_bots.StacksSearcher()
    result, turns, moves = _stacks_bots.play_game(
        tables, np.random.PCG64(1), np.random.PCG64(2), [(searcher, 20, 0.0), "greedy"]
    )
    assert result in (0, 1, 6) and turns > 0
    assert moves[0][0] > 0 and moves[1][0] == 0  # only the searching seat searched
    with pytest.raises(ValueError, match="two bit generators"):
        gen = np.random.PCG64(1)
        _stacks_bots.play_game(tables, gen, gen, ["random", "random"])


def test_mcts_margin_keeps_greedys_choice_unless_the_search_is_sure():
    st = StacksState.new(make_rules("stacks", 2), seed=21)
    seen = st.observation(st.current_player)
    for _ in range(6):  # a few decisions into the first turn, each with a choice
        loose = _stacks_bots.StacksSearcher({"margin": 0.0}).search(seen.core, 0, np.random.PCG64(3), 200)
        strict = _stacks_bots.StacksSearcher({"margin": 100.0}).search(seen.core, 0, np.random.PCG64(3), 200)
        assert loose["best"] == loose["actions"][0][0]  # margin 0: the most visited
        assert strict["best"] == _stacks_bots.greedy_action(seen.core)  # never sure enough
        st.apply(loose["best"])
        if st.current_player != 0:
            break
        seen = st.observation(0)
