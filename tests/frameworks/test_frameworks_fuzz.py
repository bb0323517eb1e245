"""The framework wrappers under bad input, as an outside checker calls them: OpenSpiel game
parameters of the wrong type or range, chance outcomes and actions that no deal or rule
allows, PettingZoo environments with a bad variant and steps with anything but a legal
action.  Each is one of seqsolve's errors with a one-line message (or OpenSpiel's own
``SpielError`` where OpenSpiel refuses first), and the game is unchanged after it: the
core, which plays only legal actions, never sees an illegal one."""

from __future__ import annotations

import numpy as np
import pytest

import seqsolve
from seqsolve.errors import SeqsolveError

pyspiel = pytest.importorskip("pyspiel", reason="the frameworks extra (open-spiel) is not installed")
pytest.importorskip("pettingzoo", reason="the frameworks extra (pettingzoo) is not installed")

import seqsolve.frameworks.openspiel
from seqsolve.frameworks.openspiel import SequenceGame
from seqsolve.frameworks.pettingzoo import env

#: what a caller may hand as an action, none of them a whole number of the table
NOT_ACTIONS = [
    None,
    1.5,
    float("nan"),
    float("inf"),
    "3",
    "abc",
    [1],
    np.array([1, 2]),
    np.float64(3.0),
    True,
    object(),
]


def _one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text, text
    return text


@pytest.mark.parametrize(
    "params, error, message",
    [
        ("variant=nope", seqsolve.RulesError, "unknown preset"),
        ("variant=classic[", seqsolve.RulesError, "bad variant"),
        ("variant=classic[x:1]", seqsolve.RulesError, "unknown option 'x'"),
        ("variant=stacks", seqsolve.RulesError, "Sequence Stacks"),
        ("variant=classic[sequences_to_win:0]", seqsolve.RulesError, "sequences_to_win"),
        ("players=-1", seqsolve.RulesError, "cannot be seated"),
        ("players=1", seqsolve.RulesError, "cannot be seated"),
        ("players=99", seqsolve.RulesError, "cannot be seated"),
        ("teams=5", seqsolve.RulesError, "equal sides"),
        ("players=x", pyspiel.SpielError, "Wrong type"),
        ("players=2.5", pyspiel.SpielError, "Wrong type"),
        ("foo=1", pyspiel.SpielError, "Unknown parameter"),
    ],
)
def test_bad_openspiel_parameters_are_one_clear_error(params, error, message):
    with pytest.raises(error, match=message) as caught:
        pyspiel.load_game(f"python_seqsolve_sequence({params})")
    if isinstance(caught.value, SeqsolveError):
        _one_line(caught.value)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"players": "x"}, "players must be a whole number, not 'x'"),
        ({"players": None}, "players must be a whole number, not None"),
        ({"players": 2.7}, "players must be a whole number, not 2.7"),
        ({"players": True}, "players must be a whole number, not True"),
        ({"teams": "2"}, "teams must be a whole number"),
        ({"variant": None}, "variant must be text"),
        ({"variant": 5}, "variant must be text"),
        ({"bogus": 1}, "unknown parameter 'bogus'"),
    ],
)
def test_the_game_built_directly_checks_its_parameters(params, message):
    with pytest.raises(seqsolve.ArgumentError, match=message):
        SequenceGame(params)


def _decision():
    state = pyspiel.load_game("python_seqsolve_sequence").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_an_openspiel_chance_outcome_that_no_card_gives_is_refused():
    state = pyspiel.load_game("python_seqsolve_sequence").new_initial_state()
    before = str(state)
    for outcome in (52, 200, 10**6, 2**40):
        with pytest.raises(seqsolve.IllegalMoveError, match="no card the deal or draw can give"):
            state.apply_action(outcome)
        assert str(state) == before and state.history() == []


def test_an_openspiel_action_that_is_not_legal_is_refused_and_changes_nothing():
    state = _decision()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in legal)
    before, history = str(state), state.history()
    with pytest.raises(seqsolve.IllegalMoveError, match=r"^seat 0: action \S+ is not legal here"):
        state.apply_action(illegal)
    for action in (533, 10**6, 2**62):
        with pytest.raises(seqsolve.ArgumentError, match="a whole number from 0 to 532"):
            state.apply_action(action)
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own check of -1, kInvalidAction
        state.apply_action(-1)
    assert str(state) == before and state.history() == history
    state.apply_action(min(legal))  # and the game goes on


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"variant": "nope"}, seqsolve.RulesError, "unknown preset"),
        ({"variant": "stacks"}, seqsolve.RulesError, "Sequence Stacks"),
        ({"variant": None}, seqsolve.ArgumentError, "variant string"),
        ({"players": "x"}, seqsolve.ArgumentError, "players must be a whole number"),
        ({"players": 2.5}, seqsolve.ArgumentError, "players must be a whole number"),
        ({"players": 99}, seqsolve.RulesError, "cannot be seated"),
        ({"teams": 7}, seqsolve.RulesError, "equal sides"),
        ({"render_mode": "human"}, ValueError, "render_mode"),
    ],
)
def test_a_pettingzoo_env_with_bad_arguments_is_one_clear_error(kwargs, error, message):
    with pytest.raises(error, match=message) as caught:
        env(**kwargs)
    _one_line(caught.value)


def test_a_pettingzoo_step_with_anything_but_a_legal_action_is_refused():
    game = env()
    game.reset(seed=1)
    agent = game.agent_selection
    before = game.observe(agent)
    mask = before["action_mask"]
    for action in [*NOT_ACTIONS, -1, 533, 10**30]:
        with pytest.raises(
            seqsolve.ArgumentError, match=rf"^{agent}: action .* is not legal: an action is a whole"
        ):
            game.step(action)
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(seqsolve.IllegalMoveError, match=rf"^{agent}: action \S+ is not legal here"):
        game.step(np.int64(illegal))
    after = game.observe(agent)
    assert game.agent_selection == agent
    assert np.array_equal(after["observation"], before["observation"])
    game.step(np.int64(np.flatnonzero(mask)[0]))  # a numpy integer is an action
    assert game.agent_selection != agent
    with pytest.raises(seqsolve.ArgumentError, match="no agent 'player_9'"):
        game.observe("player_9")
