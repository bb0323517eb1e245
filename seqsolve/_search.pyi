"""Type stub of the compiled search module ``seqsolve._search`` (ext/seqsolve/_search.pyx)."""

from collections.abc import Mapping
from typing import Any, TypeAlias, TypedDict

import numpy as np

from ._core import CoreGame

Weights: TypeAlias = Mapping[str, float | tuple[float, ...] | list[float]]

#: Names of the evaluation features, in the order of :func:`position_features`.
FEATURE_NAMES: tuple[str, ...]

class SearchResult(TypedDict):
    iterations: int
    seconds: float
    nodes: int
    best: int
    value: float
    pv: list[int]
    actions: list[tuple[int, int, float, int]]

class RootStat(TypedDict):
    action: int
    visits: int
    share: float
    value: float
    availability: int
    pv: list[int]

def default_weights() -> dict[str, Any]: ...
def default_params() -> dict[str, Any]: ...
def score_action(game: CoreGame, action: int, weights: Weights | None = None) -> float: ...
def score_actions(game: CoreGame, weights: Weights | None = None) -> list[tuple[int, float]]: ...
def evaluate_position(game: CoreGame, side: int, weights: Weights | None = None) -> float: ...
def evaluate_scores(game: CoreGame, weights: Weights | None = None) -> list[float]: ...
def position_features(game: CoreGame) -> list[list[float]]: ...
def decisive_action(game: CoreGame, bit_generator: np.random.BitGenerator | None = None) -> int | None: ...
def greedy_action(
    game: CoreGame, bit_generator: np.random.BitGenerator, weights: Weights | None = None
) -> int: ...
def heuristic_action(
    game: CoreGame, bit_generator: np.random.BitGenerator, weights: Weights | None = None
) -> int: ...

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
    def set_evidence(self, before: CoreGame, now: CoreGame, temperature: float, tries: int = 64) -> bool: ...
    def clear_evidence(self) -> None: ...
    @property
    def evidence_seat(self) -> int: ...
    def deal_world(self, observation: CoreGame, viewer: int, bit_generator: np.random.BitGenerator) -> CoreGame: ...
