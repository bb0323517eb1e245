"""The random bot: uniform over the distinct legal actions (RULES.md P-13)."""

from __future__ import annotations

import numpy as np

from ...bot import Bot
from ..rules import Rules
from ..state import State


class RandomBot(Bot):
    name = "random"
    summary = "uniform over the distinct legal moves (exchanges included)"
    params = {}

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        actions = observation.legal_actions()
        return actions[int(rng.integers(len(actions)))]

    def loop_chooser(self, rules: Rules) -> tuple[str, None, int]:
        return "random", None, 0
