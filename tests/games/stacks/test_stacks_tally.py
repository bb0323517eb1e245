"""What balance counts of a Sequence Stacks game (STACKS.tally, docs/balance-metrics.md
"Sequence Stacks"), on hand-built positions where the answer is known, and its summary
over a point's records."""

from __future__ import annotations

import pickle

import pytest

from seqsolve.games import read_state, rules_for
from seqsolve.games.stacks.game import STACKS

#: seat 1 is asked whether to block seat 0's completed blue pile (ST-15)
BLOCK_WINDOW = "stacks 0>pk1 R1/BK,?4 -/- - B1+B2+B3+B4+B5 {chips}/0b0r 0/0 0 101 10 0"


def _tally(text: str, seed=None):
    state = read_state(text, seed=seed)
    return state, STACKS.tally(state.rules)


@pytest.mark.parametrize("chips, decided", [("2b2r", True), ("1b2r", False), ("3b0r", False)])
def test_st15_a_block_decides_the_game_when_it_cancels_a_winning_chip(chips, decided):
    """ST-21: 5 chips with at least 2 of each colour win; the blue chip would make 3b2r
    from 2b2r, but not a win from 1b2r (4 chips) or 3b0r (no red)."""
    state, tally = _tally(BLOCK_WINDOW.format(chips=chips))
    tally.play(state, state.string_to_action("block"), len(state.legal_actions()))
    detail = tally.finish(state)
    assert detail["blocks"] == 1 and detail["block_decided"] is decided
    assert detail["decisions"] == 1 and detail["legal"] == 2 and not state.is_terminal()


def test_st15_a_pass_lets_the_chip_win_and_counts_no_block():
    state, tally = _tally(BLOCK_WINDOW.format(chips="2b2r"))
    tally.play(state, state.string_to_action("pass"), 2)
    assert state.outcome().winner == "0"
    assert tally.finish(state)["blocks"] == 0 and not tally.finish(state)["block_decided"]


def test_st19_a_steal_of_a_chip_that_wins_is_counted_as_deciding():
    """stacks_steal_chip_can_win=true: 2b2r takes seat 1's blue chip and has 3b2r."""
    state, tally = _tally(
        "stacks[stacks_steal_chip_can_win=true] 0> R1,SX/?5 -/- - - 2b2r/1b0r 0/0 0 105 10 0"
    )
    tally.play(state, state.string_to_action("SX@1b"), 4)
    detail = tally.finish(state)
    assert state.outcome().winner == "0" and detail["steals_chip"] == 1 and detail["steal_chip_won"] is True


def test_st13_st20_an_emptied_hand_drawing_from_an_empty_pile_recycles_the_set_aside_cards():
    """R1 empties seat 0's hand: it draws five at once (ST-13) from an empty draw pile,
    so the 106 set-aside cards become the new draw pile (ST-20)."""
    state, tally = _tally("stacks 0> R1/?5 -/- - - 0b0r/0b0r 0/0 106 0 10 0", seed=1)
    tally.play(state, state.string_to_action("R1"), 2)
    assert tally.finish(state)["recycles"] == 1 and len(state.hand(0)) == 5
    assert STACKS.write_position(state).split()[8:10] == ["0", "101"]  # aside emptied, 101 left to draw


def test_the_tally_counts_every_action_card_of_a_random_game_and_summarizes_a_point():
    """Over seeded random games of 4 players: every count agrees with the recorded moves,
    and the summary gives means inside their intervals and rates among the right games."""
    tally_of = pickle.loads(pickle.dumps(STACKS.tally))  # what a worker process gets
    rules = rules_for("stacks", 4)
    records = []
    for seed in range(6):
        state = STACKS.new_initial_state(rules, seed=seed)
        tally, moves = tally_of(rules), []
        while not state.is_terminal():
            action = state.random_action()
            moves.append(state.action_to_string(action))
            tally.play(state, action, len(state.legal_actions()))
        detail = tally.finish(state)
        plays = [m.lstrip("^") for m in moves]
        assert detail["skips"] == plays.count("SK") and detail["reverses"] == plays.count("RV")
        assert detail["steals_card"] == sum(m.startswith("SC@") for m in plays)
        assert detail["steals_chip"] == sum(m.startswith("SX@") for m in plays)
        assert detail["blocks"] == moves.count("block") and detail["legal"] >= len(moves)
        winner = state.outcome().winner
        records.append({"detail": detail, "winner_side": None if winner is None else int(winner)})
    summary = tally_of(rules).summarize(records)
    for key in ("decisions", "blocks", "steals_card", "steals_chip", "skips", "reverses", "recycles"):
        low, high = summary[f"{key}_mean_ci"]
        assert low <= summary[f"{key}_mean"] <= high
        assert summary[f"{key}_mean"] == sum(r["detail"][key] for r in records) / len(records)
    assert summary["steals_card_mean"] > 0 and summary["skips_mean"] > 0
    decisive = sum(r["winner_side"] is not None for r in records)
    assert summary["block_decided_rate"] == sum(r["detail"]["block_decided"] for r in records) / len(records)
    if decisive:
        assert summary["steal_chip_won_rate"] == 0.0  # the preset forbids a winning steal (ST-19)
    else:
        assert summary["steal_chip_won_rate"] is None
