"""Positions and rule sets no Stacks game can reach are refused in one line naming the
field (docs/stacks.md, "Validation"; RULES-NOTES.md, "Options that let nobody win")."""

from __future__ import annotations

import pytest

from seqsolve.games.base import PositionError, RulesError
from seqsolve.games.stacks.position_text import parse
from seqsolve.games.stacks.rules import make_rules

EXAMPLE = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"


def _refused(text: str) -> str:
    with pytest.raises(PositionError) as exc:
        parse(text)
    return str(exc.value)


def test_quiet_is_never_more_than_turn():
    """ST-22: quiet turns are completed turns."""
    assert _refused(EXAMPLE[: -len("6 0")] + "6 7") == (
        "<string>:1:70: quiet 7 is more than turn 6: quiet turns are completed turns (ST-22)"
    )


def test_a_two_player_game_never_plays_backward():
    """ST-3: the 2-player deck has no Reverse, so play never turns (ST-17)."""
    assert _refused(EXAMPLE.replace("0>", "0<")) == (
        "<string>:1:9: direction reverse, but the deck of 2 players has no Reverse (ST-3, ST-17)"
    )


def test_the_direction_is_what_the_reverses_played_make_it():
    """ST-17: each Reverse in the special pile flipped play once."""
    three = "stacks 0{d} B1/B2/B3 -/-/- {special} - 0b0r/0b0r/0b0r 0/0/0 0 {draw} 3 0"
    assert parse(three.format(d="<", special="RV", draw=116)).direction == -1
    assert parse(three.format(d=">", special="RV,RV", draw=115)).direction == 1
    assert "an even number leaves play forward" in _refused(three.format(d="<", special="RV,RV", draw=115))
    assert "an odd number turns play backward" in _refused(three.format(d=">", special="RV", draw=116))


def test_a_game_going_on_has_played_fewer_than_max_turns():
    """ST-22: the max_turns-th completed turn ends the game."""
    text = EXAMPLE.replace("stacks ", "stacks[max_turns=5] ", 1)
    assert _refused(text).endswith(
        "turn 6, but the game ended in a draw after max_turns=5 completed turns (ST-22)"
    )
    assert parse(text.replace(" 6 0", " 4 0")).turn == 4


@pytest.mark.parametrize(
    ("to_move", "chips", "message"),
    [
        (
            "!0",
            "0b1r/0b0r",
            "1:61: seat 0 won, but holds 0b1r: a win is 5 chips, at least 2 of each colour (ST-21)",
        ),
        (
            "!0",
            "3b2r/2b3r",
            "1:66: seat 1 holds 2b3r and has won (ST-21), but seat 0 won: the first to win ends the game",
        ),
        ("!=", "3b2r/0b0r", "1:61: seat 0 holds 3b2r and has won (ST-21), but the game ended in a draw"),
    ],
)
def test_a_finished_game_names_the_seat_that_won(to_move, chips, message):
    """ST-21: the game ends at the first win, so the winner holds one and nobody else does."""
    text = f"stacks {to_move} B4,BW,R2,SK,BK/R1,R1,R1,R1,R1 R5/B2 - B1+B2+B3,R1 {chips} 0/0 5 91 6 0"
    assert _refused(text) == "<string>:" + message
    assert parse(text.replace(chips, "3b2r/0b0r").replace("!=", "!0")).result == 0


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        (
            "stacks[stacks_win_chips=41]",
            (
                "option stacks_win_chips=41 is more chips than the supply holds, 40 in all"
                " (stacks_chip_supply 20 by default, of each colour): nobody could win (ST-4, ST-21)"
            ),
        ),
        (
            "stacks[stacks_chip_supply=1]",
            (
                "option stacks_chip_supply=1 puts 2 chips in play, fewer than the 5 that win"
                " (stacks_win_chips' default): nobody could win unless stacks_win_chips is at most 2 (ST-4, ST-21)"
            ),
        ),
        (
            "stacks[stacks_chip_supply=0]",
            (
                "option stacks_chip_supply=0 puts 0 chips in play, fewer than the 5 that win"
                " (stacks_win_chips' default): nobody could win (ST-4, ST-21)"
            ),
        ),
        (
            "stacks[stacks_chip_supply=3,stacks_win_chips=7]",
            (
                "option stacks_win_chips=7 is more chips than the supply"
                " holds, 6 in all (stacks_chip_supply=3, of each colour): nobody could win (ST-4, ST-21)"
            ),
        ),
        (
            "stacks[stacks_win_chips=1]",
            (
                "option stacks_win_chips=1 is fewer than twice stacks_win_min_each (2 by"
                " default): give stacks_win_min_each too, at most 0 (ST-21)"
            ),
        ),
        (
            "stacks[stacks_win_chips=5,stacks_win_min_each=3]",
            (
                "option stacks_win_min_each=3 must be at most half of"
                " stacks_win_chips=5 (2): ST-21 counts both colours in the chips that win"
            ),
        ),
    ],
)
def test_options_that_let_nobody_win_are_refused_naming_an_option_given(variant, message):
    """ST-4 and ST-21: a win needs stacks_win_chips chips from a supply of
    2 x stacks_chip_supply; the message blames an option the variant sets."""
    with pytest.raises(RulesError) as exc:
        make_rules(variant)
    assert str(exc.value) == message


@pytest.mark.parametrize(
    "variant",
    [
        "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",
        "stacks[stacks_win_chips=40]",
        "stacks[stacks_win_chips=1,stacks_win_min_each=0]",
    ],
)
def test_options_a_seat_can_win_under_are_taken(variant):
    assert make_rules(variant).variant == variant
