"""``search``: the default search, ``mcts`` where two sides play and truncated rollouts
where three do.

No one search does best everywhere.  Where two sides play, ``mcts`` holds the matrix's
rows.  Where three sides play (3 players, or 6 in 3 teams), its root moves differ by
less than the noise of a fresh world each iteration: there flat rollouts that meet
every candidate in the same worlds, cut after 12 greedy actions and scored by the
static evaluation, beat ``heuristic``'s own score on every cell, two of them where
``mcts`` was level with it (benchmarks/RESULTS.md, "Truncated rollouts" and "The
default search").

``search`` is therefore one of two fixed specs, chosen by the rules' number of sides
when a game starts.  It plays exactly as that spec does, in Python and in the compiled
loop, so every figure of either spec is a figure of ``search`` on its seatings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ..games.sequence.rules import Rules
from ..games.sequence.state import State
from .base import Bot, Param

#: the search each kind of game (:func:`game_kind`) plays at the default, counted
#: budget.  Three sides: 600,000 work units hold the slowest moves (the opening's,
#: about 100 ns a unit) under 0.1 s of CPU on one core; later moves end sooner, when
#: their 400 worlds are played (benchmarks/RESULTS.md, "The default search")
SPECS: dict[str, str] = {"two sides": "mcts", "three sides": "rollout:depth=12,worlds=400,work=600000"}

#: the same searches held to a time budget (``search:time=T``) instead of counted work
TIMED_SPECS: dict[str, str] = {
    "two sides": "mcts:iters=0,time={t}",
    "three sides": "rollout:depth=12,worlds=1000000,time={t}",
}


def game_kind(rules: Rules) -> str:
    """The key of :data:`SPECS` that plays a game of ``rules``."""
    return "three sides" if rules.teams >= 3 else "two sides"


class SearchBot(Bot):
    name = "search"
    summary = "the default search: mcts where two sides play, rollouts cut at 12 actions where three do"
    params: ClassVar[dict[str, Param]] = {
        "time": Param(float, 0.0, "seconds per move (0: the counted budgets, at most about 0.1 s of CPU a move "
                                  "on one core, the same moves on any machine)", maximum=86_400.0),
    }

    wraps_a_bot = True

    def __init__(self, *, make_bot: Callable[[str], Bot], **values: Any):
        super().__init__(**values)
        self._make_bot = make_bot
        self._bots: dict[str, Bot] = {}  # by the spec each plays

    def spec_for(self, rules: Rules) -> str:
        """The spec this bot plays in games of ``rules``."""
        t = self.options["time"]
        kind = game_kind(rules)
        return TIMED_SPECS[kind].format(t=t) if t else SPECS[kind]

    def bot_for(self, rules: Rules) -> Bot:
        """The bot that plays games of ``rules`` (built once a spec, kept warm)."""
        spec = self.spec_for(rules)
        if spec not in self._bots:
            self._bots[spec] = self._make_bot(spec)
        return self._bots[spec]

    def start(self, rules: Rules, seats: str, seat: int) -> None:
        self.bot_for(rules).start(rules, seats, seat)

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        return self.bot_for(observation.rules).choose(observation, rng)

    def loop_chooser(self, rules: Rules) -> tuple[str, dict | None, int] | None:
        return self.bot_for(rules).loop_chooser(rules)

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots.clear()
