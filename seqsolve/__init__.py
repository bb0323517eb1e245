"""seqsolve: a fast rules engine, bots and analyses for the board game Sequence.

The compiled core (``seqsolve._core``) is loaded on first use of the engine,
so the pure-Python parts (rules, notation) import even in an unbuilt tree.
Every name below is imported on first use, so that the ``seqsolve`` program
(:mod:`seqsolve.__main__`) runs its own code before any import that Ctrl-C
could cut short.
"""

from __future__ import annotations

__version__ = "0.1.0"

_HOMES = {
    "Move": "games.sequence.moves",
    "MoveKind": "games.sequence.moves",
    "parse_turn": "games.sequence.moves",
    "Rules": "games.sequence.rules",
    "RulesError": "games.sequence.rules",
    "Variant": "games.sequence.rules",
    "parse_rules": "games.sequence.rules",
    "State": "games.sequence.state",
    "Outcome": "games.sequence.state",
    "Termination": "games.sequence.state",
    "IllegalMoveError": "games.sequence.state",
}

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
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module 'seqsolve' has no attribute {name!r}")
