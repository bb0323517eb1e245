"""Type stub of the flat Monte Carlo rollouts, ``seqsolve._rollout`` (ext/seqsolve/_rollout.pyx)."""

import numpy as np

from ._core import CoreGame
from ._worlds import Worlds

class Rollouts(Worlds):
    rollout_depth: int
    rollout_work: int
    def rollout_values(
        self,
        observation: CoreGame,
        viewer: int,
        bit_generator: np.random.BitGenerator,
        actions: list[int],
        worlds: int,
        open_information: int = 0,
        policy: int = 0,
        depth: int = 0,
    ) -> list[float]: ...
    def rollout_outcomes(
        self,
        observation: CoreGame,
        viewer: int,
        bit_generator: np.random.BitGenerator,
        actions: list[int],
        worlds: int,
        depth: int = 0,
    ) -> tuple[list[list[float]], list[list[list[int]]]]: ...
    def rollout_choice(
        self,
        observation: CoreGame,
        viewer: int,
        bit_generator: np.random.BitGenerator,
        k: int,
        worlds: int,
        halve: bool = False,
        seconds: float = 0,
        open_information: int = 0,
        policy: int = 0,
        depth: int = 0,
        work: int = 0,
    ) -> int: ...
