"""Type stub of the compiled Sequence Stacks bots ``seqsolve._stacks_bots``
(ext/seqsolve/_stacks_bots.pyx); the bot classes are in
:mod:`seqsolve.games.stacks.bots`.
"""

from typing import Any

import numpy as np

from ._stacks import StacksCore, StacksTables

def random_action(core: StacksCore, bit_generator: np.random.BitGenerator) -> int: ...
def greedy_action(core: StacksCore, block_all: bool = True) -> int: ...
def greedy_scores(core: StacksCore, block_all: bool = True) -> list[tuple[int, float]]: ...
def default_params() -> dict[str, Any]: ...
def evaluate(core: StacksCore, seat: int) -> float: ...
def halt(stop: bool = True) -> None: ...

class StacksSearcher:
    """Information-set MCTS for one viewer on the Stacks engine."""

    def __init__(self, params: dict[str, Any] | None = None) -> None: ...
    @property
    def params(self) -> dict[str, Any]: ...
    def search(
        self,
        observation: StacksCore,
        viewer: int,
        bit_generator: np.random.BitGenerator,
        iterations: int = 0,
        seconds: float = 0,
        work: int = 0,
    ) -> dict[str, Any]: ...
    decide = search  # the same arguments and answer (the flat search with top > 0)
    def root_stats(self, pv_length: int = 12) -> list[dict[str, Any]]: ...

def play_game(
    tables: StacksTables,
    deal_bit_generator: np.random.BitGenerator,
    bot_bit_generator: np.random.BitGenerator,
    seats: list[Any],
) -> tuple[int, int, list[tuple[int, float, float]]]: ...

KINDS: dict[str, int]

class Lineup:
    """The bots of a match as C choosers: whole Stacks games without the GIL."""

    def __init__(self, tables: StacksTables, bots: list[tuple[str, dict[str, Any] | None, int]]) -> None: ...
    def play(
        self,
        entropy: list[int],
        games: list[tuple[int, int, list[int]]],
        moves: bool = False,
        detail: bool = False,
    ) -> list[tuple[int, int, int, int, float, list[int] | None, tuple | None]]: ...
