"""seqsolve: a fast rules engine, bots and analyses for the board game Sequence.

The compiled core (``seqsolve._core``) is loaded on first use of the engine,
so the pure-Python parts (rules, notation) import even in an unbuilt tree.
"""

from __future__ import annotations

from .moves import Move, MoveKind, parse_turn
from .rules import Rules, RulesError, Variant, parse_rules

__version__ = "0.1.0"

__all__ = [
    "Move",
    "MoveKind",
    "Rules",
    "RulesError",
    "State",
    "Variant",
    "parse_rules",
    "parse_turn",
    "__version__",
]


def __getattr__(name: str):
    if name in ("State", "Outcome", "Termination", "IllegalMoveError"):
        from . import state

        return getattr(state, name)
    raise AttributeError(f"module 'seqsolve' has no attribute {name!r}")
