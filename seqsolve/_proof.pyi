"""Type stub of the compiled proof search ``seqsolve._proof`` (ext/seqsolve/_proof.pyx)."""

from ._core import CoreGame

def prove_win(
    game: CoreGame,
    attacker: int,
    captain: int,
    plies: int,
    budget: int = ...,
    seconds: float = ...,
    excluded: int = ...,
) -> tuple[bool, list[int], int, bool]: ...
