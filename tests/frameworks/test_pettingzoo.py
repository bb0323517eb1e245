"""Sequence as a PettingZoo AEC environment (seqsolve.frameworks.pettingzoo), checked by
PettingZoo's own API and seed tests and against the engine."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (the test extra installs it)")

from pettingzoo.test import api_test, seed_test

import seqsolve
from seqsolve.frameworks.pettingzoo import env

SEATINGS = [("classic", 2), ("classic", 4), ("numbers", 3), ("draft", 2), ("seed002-literal", 2)]


@pytest.mark.filterwarnings("ignore:Observation space for each agent")  # a dict, as masks need
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_pettingzoo_api_and_seeds(variant, players):
    api_test(env(variant, players), num_cycles=1000, verbose_progress=False)
    seed_test(functools.partial(env, variant, players), num_cycles=200)


def test_masks_are_the_legal_actions_and_the_game_is_the_engines():
    """A whole game played through the masks: each mask is the engine's legal
    actions of the seat to move (the others' masks empty), the game is the engine's
    game of the same seed, and the rewards are its returns."""
    game = env("classic", 2)
    game.reset(seed=9)
    twin = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=9)
    rng = np.random.default_rng(9)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        seat = game.possible_agents.index(agent)
        assert seat == twin.current_player
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(game.unwrapped.table.core(int(a)) for a in legal) == sorted(twin.legal_actions())
        other = game.possible_agents[1 - seat]
        assert not game.observe(other)["action_mask"].any()
        action = int(rng.choice(legal))
        twin.apply_legal(game.unwrapped.table.core(action))
        game.step(action)
    assert twin.is_terminal()
    assert [totals[a] for a in game.possible_agents] == twin.returns()


def test_an_illegal_action_is_one_clear_error():
    game = env()
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=r"player_0: action \S+ is not legal here"):
        game.step(illegal)
    with pytest.raises(ValueError, match="not legal"):
        game.step(10**6)
    with pytest.raises(seqsolve.RulesError, match="unknown preset"):
        env("nosuch")


def test_the_observation_shows_only_the_agents_own_hand():
    game = env()
    game.reset(seed=3)
    world = game.unwrapped.world
    start = 0
    for name, shape in game.unwrapped._pieces:
        size = int(np.prod(shape))
        if name == "hand":
            for seat in (0, 1):
                seen = game.observe(f"player_{seat}")["observation"][start : start + size]
                assert sorted(np.repeat(np.arange(size), seen.astype(int))) == sorted(world.known_hand(seat))
        start += size
    assert game.render() is None
    shown = env(render_mode="ansi")
    shown.reset(seed=3)
    assert shown.render() == world.to_text("readable")
    with pytest.raises(AssertionError, match="reset"):  # PettingZoo's order enforcing
        env().step(0)
