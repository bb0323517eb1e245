"""Type stub of the compiled tree search ``seqsolve._search`` (ext/seqsolve/_search.pyx)."""

from collections.abc import Mapping
from typing import Any, TypedDict

import numpy as np

from ._core import CoreGame

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
def halt(stop: bool = True) -> None: ...

class Searcher:
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
    def rollout_values(
        self,
        observation: CoreGame,
        viewer: int,
        bit_generator: np.random.BitGenerator,
        actions: list[int],
        worlds: int,
        open_information: int = 0,
        policy: int = 0,
    ) -> list[float]: ...
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
    ) -> int: ...
    def set_evidence(self, before: CoreGame, now: CoreGame, temperature: float, tries: int = 64) -> bool: ...
    def clear_evidence(self) -> None: ...
    @property
    def evidence_seat(self) -> int: ...
    def deal_world(self, observation: CoreGame, viewer: int, bit_generator: np.random.BitGenerator) -> CoreGame: ...
