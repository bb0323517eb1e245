"""One line that says what is wrong, naming what the user gave: Sequence Stacks'
positions, variants and decisions, and the search bots' parameters around them."""

from __future__ import annotations

import pytest
from cli_helpers import fails, ok

EXAMPLE = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"


def _file(tmp_path, text: str, name: str = "p.stn") -> str:
    path = tmp_path / name
    path.write_text(text + "\n")
    return str(path)


def test_a_win_chips_below_the_default_minimum_names_the_option_given():
    line = fails("match", "greedy", "greedy", "--variant", "stacks[stacks_win_chips=1]", "--games", "2")
    assert line == (
        "seqsolve: option stacks_win_chips=1 is fewer than twice stacks_win_min_each (2 by default):"
        " give stacks_win_min_each too, at most 0 (ST-21)"
    )


def test_a_pile_of_six_cards_is_too_long(tmp_path):
    six = EXAMPLE.replace("B1+B2+B3,", "B1+B2+B3+B4+B5+B1,").replace(" 5 91 ", " 5 88 ")
    assert fails("show", _file(tmp_path, six)).endswith(
        ":1:52: a pile of 6 cards: a pile is complete at 5 (ST-9)"
    )


def test_a_preset_in_capitals_is_read_as_stacks(tmp_path):
    line = fails("show", _file(tmp_path, EXAMPLE.replace("stacks", "STACKS", 1)))
    assert line.endswith(":1:1: bad variant: variant 'STACKS': the preset is written 'stacks', in lower case")


@pytest.mark.parametrize(("position", "field"), [(EXAMPLE, "stn"), ("example:3", "sqn")])
def test_a_json_position_is_named_as_such(tmp_path, position, field):
    if position == EXAMPLE:
        position = _file(tmp_path, EXAMPLE)
    written = _file(tmp_path, ok("convert", position, "--to", "json"), "p.json")
    for command in ("show", "convert"):
        assert fails(command, written).endswith(
            f":1:1: a position as JSON (what convert --to json writes) is not read back: give its '{field}' field,"
            f" the {field.upper()} line, or the readable form"
        )


def test_block_with_the_asked_seats_hand_unknown_says_it_shows_none(tmp_path):
    window = _file(tmp_path, "stacks 0>k1 R2/?5 -/- - B1+B2+B3+B4+B5 0b0r/0b0r 0/0 0 101 0 0")
    assert fails("apply", window, "block") == (
        "seqsolve: move 1 'block' is illegal: block: seat 1 shows no Block (ST-15)"
        " (this position does not show 5 of the mover's cards)"
    )


def test_the_unknown_preset_list_names_stacks():
    line = fails("match", "greedy", "greedy", "--variant", "stax", "--games", "2")
    assert line.endswith("draft; stacks for Sequence Stacks)")


def test_restricted_play_is_refused_for_stacks_naming_the_option():
    assert fails("balance", "--variant", "stacks", "--restrict", "corners", "--games", "2") == (
        "seqsolve: --restrict bars Sequence's actions (two_eyed, one_eyed, exchange, corners), which stacks 2p"
        " does not have: measure stacks without --restrict"
    )


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_recall_is_refused_outside_the_draft_variant(command):
    assert fails(command, "mcts:recall=true", "random", "--games", "2") == (
        "seqsolve: bot mcts: recall keeps the cards taken from the face-up draft, which only the draft variant"
        " has (draw_mode=draft), not classic"
    )


def test_cap_with_time_is_refused():
    assert fails("match", "mcts:cap=3,time=1", "random", "--games", "2") == (
        "seqsolve: bot mcts: cap bounds a move's iterations, and time= replaces them: give cap or time, not both"
    )


def test_a_budget_given_twice_to_analyze_is_refused(tmp_path):
    path = _file(tmp_path, EXAMPLE)
    assert fails("analyze", path, "mcts:iters=100", "--iters", "200") == (
        "seqsolve: mcts:iters=100: iters=100 and --iters 200 both set the search's budget: give one of them"
    )
    assert "mcts:iters=100: 100 iterations" in ok(
        "analyze", path, "mcts:iters=100", "--iters", "100", "--seed", "1"
    )


def test_recall_is_refused_by_analyze_outside_the_draft_variant():
    assert fails("analyze", "example:3", "mcts:recall=true", "--iters", "50") == (
        "seqsolve: bot mcts: recall keeps the cards taken from the face-up draft, which only the draft variant"
        " has (draw_mode=draft), not classic[sequences_to_win=3,overlap_reuse_limit=1]"
    )
