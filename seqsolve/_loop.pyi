"""Type stub of the compiled game loop ``seqsolve._loop`` (ext/seqsolve/_loop.pyx)."""

from collections.abc import Mapping
from typing import Any

from ._core import CoreRules

#: the compiled choosers by name
KINDS: dict[str, int]

def pcg64_state(entropy: list[int]) -> dict[str, int]: ...
def reads_counts(kind: str) -> bool: ...

class Lineup:
    def __init__(self, rules: CoreRules, bots: list[tuple[str, Mapping[str, Any] | None, int]]) -> None: ...
    @property
    def counted(self) -> bool: ...
    @property
    def summed(self) -> list[bool]: ...
    def play(
        self,
        entropy: list[int],
        games: list[tuple[int, int, list[int]]],
        moves: bool = False,
        detail: bool = False,
    ) -> list[tuple[int, int, int, int, float, list[int] | None, tuple | None]]: ...
