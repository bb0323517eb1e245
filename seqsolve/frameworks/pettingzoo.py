"""Sequence as a PettingZoo AEC environment with action masks.

One agent per seat (``player_0`` …), acting in turn as the rules say (a dead-card
exchange is an action of its own, and the same agent acts again).  The action space
is the game's :class:`~seqsolve.frameworks._tables.ActionTable` (``Discrete(533)`` in
classic); each observation is a dict, as PettingZoo's classic games give it:
``observation``, what the agent's seat sees (the tensor OpenSpiel's game observes,
:mod:`seqsolve.frameworks.openspiel`: board planes, its hand, the discards, counted
from that seat), and ``action_mask``, 1 for each legal action of the agent to move.
A game ends with rewards +1 for the winning side's seats and -1 for the others (0 each
in a draw); the deal and the draws come from the seed of ``reset``.

>>> from seqsolve.frameworks.pettingzoo import env
>>> game = env(variant="classic", players=2)
>>> game.reset(seed=1)
>>> obs, reward, terminated, truncated, info = game.last()
>>> game.agent_selection, int(obs["action_mask"].sum()), terminated
('player_0', 12, False)
"""

from __future__ import annotations

import math

from . import require

require("pettingzoo", "pettingzoo")

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import ArgumentError
from ..games.sequence.state import State
from ._tables import ActionTable, game_rules, observation_pieces, seen_in, write_seen

#: the largest number any part of an observation holds (a discard pile, the draw pile,
#: sequences: at most 192 windows)
_HIGH = 255.0


def env(variant: str = "classic", players: int = 2, teams: int = 0, render_mode: str | None = None):
    """A Sequence environment (PettingZoo's ``env()`` convention): :class:`SequenceEnv`
    in PettingZoo's OrderEnforcingWrapper, which refuses a step or an observation before
    ``reset``.  ``raw_env`` is the environment alone."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(variant, players, teams, render_mode))


def raw_env(variant: str = "classic", players: int = 2, teams: int = 0, render_mode: str | None = None):
    """:class:`SequenceEnv` without wrappers."""
    return SequenceEnv(variant, players, teams, render_mode)


class SequenceEnv(AECEnv):
    """Sequence for ``players`` agents under ``variant`` (a preset, with options in
    brackets as ``--variant`` takes them)."""

    metadata = {"name": "seqsolve_sequence_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: str = "classic", players: int = 2, teams: int = 0, render_mode=None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = game_rules(variant, players, teams)
        self.table = ActionTable(self.rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._pieces = observation_pieces(self.rules)
        size = sum(math.prod(shape) for _, shape in self._pieces)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, _HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.table.size)
        self.world: State | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.world = State.new(self.rules, seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.world.current_player]

    def observe(self, agent: str) -> dict:
        if agent not in self.possible_agents:
            shown = repr(agent) if len(repr(agent)) <= 40 else repr(agent)[:37] + "..."
            raise ArgumentError(f"observe: no agent {shown} (agents: {', '.join(self.possible_agents)})")
        seat = self.possible_agents.index(agent)
        tensor = np.zeros(self._observation_space["observation"].shape, np.float32)
        views, start = {}, 0
        for name, shape in self._pieces:
            size = math.prod(shape)
            views[name] = tensor[start : start + size].reshape(shape)
            start += size
        world = self.world
        write_seen(views, seen_in(world, seat, to_move=-1 if world.is_terminal() else None), seat, self.rules)
        mask = np.zeros(self.table.size, np.int8)
        if not world.is_terminal() and world.current_player == seat:
            mask[self.table.legal(world)] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = self.table.checked(action, self.world, agent)
        self._cumulative_rewards[agent] = 0.0
        self.world.apply_legal(self.table.core(action))
        if self.world.is_terminal():
            for a, value in zip(self.agents, self.world.returns()):
                self.rewards[a] = value
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.world.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.world is None:
            return None
        return self.world.to_text("readable")

    def close(self) -> None:
        self.world = None
