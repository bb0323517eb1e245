"""Type stub of the compiled choosers ``seqsolve._choose`` (ext/seqsolve/_choose.pyx)."""

import numpy as np

from ._core import CoreGame
from ._eval import Weights

def decisive_action(game: CoreGame, bit_generator: np.random.BitGenerator | None = None) -> int | None: ...
def greedy_action(
    game: CoreGame, bit_generator: np.random.BitGenerator, weights: Weights | None = None
) -> int: ...
def heuristic_action(
    game: CoreGame, bit_generator: np.random.BitGenerator, weights: Weights | None = None
) -> int: ...
def heuristic_keys(
    game: CoreGame, bit_generator: np.random.BitGenerator, weights: Weights | None = None
) -> list[tuple[int, int, int, float]]: ...
