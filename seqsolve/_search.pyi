"""Type stub of the compiled tree search ``seqsolve._search`` (ext/seqsolve/_search.pyx)."""

from collections.abc import Mapping
from typing import Any, TypedDict

import numpy as np

from ._core import CoreGame
from ._rollout import Rollouts
from ._worlds import halt as halt

class SearchResult(TypedDict):
    iterations: int
    seconds: float
    nodes: int
    best: int
    value: float
    pv: list[int]
    actions: list[tuple[int, int, float, int]]
    capped: bool
    work: int
    work_cut: bool

class RootStat(TypedDict):
    action: int
    visits: int
    share: float
    value: float
    availability: int
    pv: list[int]

def default_params() -> dict[str, Any]: ...

class Searcher(Rollouts):
    def __init__(self, params: Mapping[str, Any] | None = None) -> None: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def node_count(self) -> int: ...
    def search(
        self,
        observation: CoreGame,
        viewer: int,
        bit_generator: np.random.BitGenerator,
        iterations: int = 0,
        seconds: float = 0,
        open_information: int = 0,
        cpu_seconds: float = 0,
        work: int = 0,
    ) -> SearchResult: ...
    def root_stats(self, pv_length: int = 12) -> list[RootStat]: ...
