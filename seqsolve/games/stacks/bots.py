"""The Sequence Stacks bots: ``random``, ``greedy`` and ``mcts``, whose brains are the C
functions of :mod:`seqsolve._stacks_bots` (docs/stacks.md "Bots").

A bot is handed the observation of its seat (``StacksState.observation(seat)``): its
own hand and the public cards.  Greedy and random read nothing else; mcts deals the
cards it cannot see anew in every iteration of its search.

>>> import numpy as np
>>> from seqsolve.games.stacks.rules import make_rules
>>> from seqsolve.games.stacks.state import StacksState
>>> state = StacksState.new(make_rules("stacks", 2), seed=5)
>>> bot = StacksMCTSBot(iters=100, time=0)
>>> bot.start(state.rules, state.seats, 0)
>>> bot.choose(state.observation(0), np.random.default_rng(1)) in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import _stacks_bots
from ..bot import Bot, BotError, Param
from .state import StacksState

_SEARCH = _stacks_bots.default_params()
#: playout actions per decision (benchmarks/RESULTS.md, "Experiments: Sequence Stacks":
#: 210-250 ns each on average, 330 at most, so about 0.1 s CPU at the worst;
#: ``time`` cuts what a slower machine would carry past it)
MOVE_WORK = 300_000


class StacksRandomBot(Bot):
    name = "random"
    summary = "uniform over the legal actions"
    params = {}

    def choose(self, observation: StacksState, rng: np.random.Generator) -> int:
        return _stacks_bots.random_action(observation.core, rng.bit_generator)

    def loop_chooser(self, rules) -> tuple[str, None, int]:
        return self.name, None, 0


class StacksGreedyBot(Bot):
    name = "greedy"
    summary = (
        "one decision: complete and win, build what it can finish, keep wilds for the 5, block, steal, skip"
    )
    params = {
        "block": Param(
            str, "always", "when a Block is played on a completion giving a chip: always or matters"
        ),
    }

    def __init__(self, **values: Any):
        super().__init__(**values)
        if self.options["block"] not in ("matters", "always"):
            raise BotError(f"bot greedy: block is matters or always, not {self.options['block']!r}")

    def choose(self, observation: StacksState, rng: np.random.Generator) -> int:
        return _stacks_bots.greedy_action(observation.core, self.options["block"] == "always")

    def loop_chooser(self, rules) -> tuple[str, dict, int]:
        return self.name, {"block_all": self.options["block"] == "always"}, 0


class StacksMCTSBot(Bot):
    name = "mcts"
    summary = "Monte Carlo in C: greedy's best actions played out by greedy in the same dealt worlds"
    params = {
        "time": Param(
            float,
            0.1,
            "CPU seconds of the thinking thread per decision at most (0: no cap)",
            maximum=86_400.0,
        ),
        "iters": Param(int, 0, "iterations per decision at most (0: no cap)", maximum=10**9),
        "work": Param(
            int,
            MOVE_WORK,
            "playout actions per decision at most (0: no cap): a search ends alike on any machine",
            maximum=10**12,
        ),
        "c": Param(float, _SEARCH["c"], "UCB1 exploration constant (rewards in [0, 1])", maximum=10.0),
        "eps": Param(
            float, _SEARCH["eps"], "chance that a playout action is uniform instead of greedy's", maximum=1.0
        ),
        "depth": Param(
            int,
            _SEARCH["depth"],
            "playout actions before the chips still needed score the position (-1: play to the end)",
            minimum=-1,
            maximum=100_000,
        ),
        "bias": Param(float, _SEARCH["bias"], "progressive bias toward greedy's choice", maximum=1000.0),
        "margin": Param(
            float,
            _SEARCH["margin"],
            "play greedy's choice unless the search's beats it by this many standard errors (0: the search's)",
            maximum=100.0,
        ),
        "nodes": Param(int, _SEARCH["max_nodes"], "most tree nodes kept", minimum=16, maximum=10**8),
        "top": Param(
            int,
            _SEARCH["top"],
            "decide among greedy's best top actions, each played out in the same worlds (0: the tree)",
            maximum=16,
        ),
        "halve": Param(
            int,
            _SEARCH["halve"],
            "sequential halving (the budget in rounds, the worse half of the candidates but greedy's dropped after"
            " each) in games of at most this many players (0: never)",
            maximum=6,
        ),
    }

    def __init__(self, **values: Any):
        super().__init__(**values)
        if not self.options["iters"] and not self.options["time"] and not self.options["work"]:
            raise BotError("bot mcts: give iters, time or work (or several)")
        self._searcher: _stacks_bots.StacksSearcher | None = None
        self.last: dict | None = None

    def searcher(self) -> _stacks_bots.StacksSearcher:
        """The search with the spec's parameters (its ``params`` are what an analysis
        with this spec searches with)."""
        if self._searcher is None:
            o = self.options
            self._searcher = _stacks_bots.StacksSearcher(
                {
                    "c": o["c"],
                    "eps": o["eps"],
                    "depth": o["depth"],
                    "bias": o["bias"],
                    "margin": o["margin"],
                    "max_nodes": o["nodes"],
                    "top": o["top"],
                    "halve": o["halve"],
                }
            )
        return self._searcher

    def choose(self, observation: StacksState, rng: np.random.Generator) -> int:
        self.last = self.searcher().decide(
            observation.core,
            observation.current_player,
            rng.bit_generator,
            iterations=self.options["iters"],
            seconds=self.options["time"],
            work=self.options["work"],
        )
        return self.last["best"]

    def loop_chooser(self, rules) -> tuple[str, dict, int]:
        """The loop calls the search :meth:`choose` calls, with the same budgets: a ``time``
        cap (CPU seconds of the thinking thread) binds alike, and only where it binds does
        a game depend on the machine, in either path."""
        o = self.options
        budgets = {"iterations": o["iters"], "seconds": o["time"], "work": o["work"]}
        return self.name, {"params": self.searcher().params, **budgets}, 0

    def close(self) -> None:
        self._searcher = None


def bot_classes() -> dict[str, type[Bot]]:
    """The Stacks bots by name."""
    return {cls.name: cls for cls in (StacksRandomBot, StacksGreedyBot, StacksMCTSBot)}
