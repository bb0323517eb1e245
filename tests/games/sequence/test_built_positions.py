"""A Position built field by field in Python meets the same checks as a position file.

The engine trusts what State.from_position hands it, so a junk field must stop there with
one line naming it, never reach the core as an AttributeError or a wrong game.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

import seqsolve
from seqsolve import Position, PositionError, State
from seqsolve.games.sequence.position import Hand

START = "classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0"
MIDGAME = "classic *8*/10/4b5/10/10/5g4/10/10/10/*8* bg 0 5H,6H,?5/?7 AC/2D - 88 2 0"


def _position(text: str = START) -> Position:
    return State.from_position(seqsolve.parse_state(text).to_position()).to_position()


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("board", "." * 100, "board must be a tuple of strings"),
        ("board", (".",) * 50, "board must hold 100 entries, not 50"),
        ("hands", ("5H 6H", "7H"), "hands must be a tuple of Hand"),
        ("hands", (Hand(("5H",), "2"), Hand((), 7)), "hands[0].unknown must be an int"),
        ("seats", 3, "seats must be a string"),
        ("to_move", "0", "to_move must be an int"),
        ("discards", None, "discards must be a tuple with one entry per seat"),
        ("sequences", (("b", 999),), "sequences must be a tuple of (colour, window number"),
        ("turn", 1.5, "turn must be an int"),
        ("exchange_used", "yes", "exchange_used must be True or False"),
        ("rules", None, "rules must be a Rules"),
        ("last_turns", ("5H@e5",), "last_turns[0] must be a tuple of strings"),
    ],
)
def test_a_field_of_the_wrong_shape_is_named(field, value, named):
    with pytest.raises(PositionError) as err:
        State.from_position(dataclasses.replace(_position(), **{field: value}))
    assert str(err.value).startswith("State.from_position: ")
    assert named in str(err.value)


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("to_move", 9, "to_move must be a seat 0..1 or None, not 9"),
        ("turn", -1, "turn must be 0.."),
        ("board", ("x",) * 100, "a chip must be a side's colour"),
        ("board", ("r",) * 100, "a chip must be a side's colour"),
        ("board", (".",) * 100, "'*' on the four corners"),
        ("draw_cards", ("ZZ",), "draw_cards holds 'ZZ', not a card of deck standard-104"),
        ("seats", "bgr", "seats must be 2 colour letters"),
        ("result", "q", "result must be a side's colour"),
        ("to_move", None, "must give its result"),
        ("sequences", (("r", 3),), "sequences must name a side's colour"),
        ("hands", (Hand(("5H",), 0),), "hands must hold one entry per seat (2), not 1"),
    ],
)
def test_a_name_the_rules_do_not_know_is_named(field, value, named):
    """Well typed but meaningless to the engine: refused before it reaches the core."""
    with pytest.raises(PositionError, match="^State.from_position: ") as err:
        State.from_position(dataclasses.replace(_position(), **{field: value}))
    assert named in str(err.value)


def test_a_built_position_that_is_sound_plays_like_the_file():
    built = dataclasses.replace(_position(MIDGAME))
    assert State.from_position(built).to_text("sqn") == seqsolve.parse_state(MIDGAME).to_text("sqn")


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 300),
    st.text(max_size=5),
    st.lists(st.text(max_size=3), max_size=4).map(tuple),
    st.lists(st.lists(st.text(max_size=3), max_size=3).map(tuple), max_size=3).map(tuple),
)


@given(field=st.sampled_from([f.name for f in dataclasses.fields(Position)]), value=JUNK)
def test_any_junk_in_any_field_is_one_clear_error(field, value):
    position = _position(MIDGAME)
    try:
        state = State.from_position(dataclasses.replace(position, **{field: value}))
    except seqsolve.SeqsolveError as err:
        assert "\n" not in str(err) and str(err)
    else:
        # accepted (a built position may hold part of a deck): the engine can play it
        state.to_text("readable")
        for action in state.legal_actions()[:3]:
            state.clone().apply_legal(action)


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "mcts:iters=20", "rollout", "search"])
@pytest.mark.parametrize(
    ("observation", "rng", "named"),
    [
        (None, "rng", "choose takes a game state"),
        ("5H@e5", "rng", "choose takes a game state"),
        ("state", None, "numpy.random.Generator"),
        ("state", 7, "numpy.random.Generator"),
        ("hidden", "rng", "no legal action is known"),
        ("over", "rng", "the game is over"),
    ],
)
def test_a_bots_choose_names_a_bad_argument(spec, observation, rng, named):
    """Bot.choose is public: junk in is one line naming the bot and the argument."""
    import numpy as np

    from seqsolve.bots import make_bot
    from seqsolve.games import game_for

    states = {
        "state": seqsolve.parse_state(MIDGAME),
        "hidden": seqsolve.parse_state(START),
        "over": seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bg != ?7/?7 -/- - 90 0 0"),
    }
    bot = make_bot(spec, game_for("classic"))
    given_rng = np.random.default_rng(1) if rng == "rng" else rng
    with pytest.raises(seqsolve.ArgumentError, match=named) as err:
        bot.choose(states.get(observation, observation), given_rng)
    assert str(err.value).startswith(f"bot {bot.name}: ")
