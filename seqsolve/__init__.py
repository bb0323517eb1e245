"""seqsolve: a fast rules engine, bots and analyses for the board game Sequence.

The compiled core (``seqsolve._core``) is loaded on first use of the engine,
so the pure-Python parts (rules, notation) import even in an unbuilt tree.
Every name below is imported on first use, so that the ``seqsolve`` program
(:mod:`seqsolve.__main__`) runs its own code before any import that Ctrl-C
could cut short.  These names (``__all__``) are the public API, described in
docs/api.md; every other module and name is internal and may change.

>>> import seqsolve
>>> state = seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
>>> state.rules.players
2
"""

from __future__ import annotations

__version__ = "0.2.0"  # CHANGELOG.md names what changed in it

_HOMES = {
    # the game
    "Move": "games.sequence.moves",
    "MoveKind": "games.sequence.moves",
    "MoveSyntaxError": "games.sequence.moves",
    "parse_turn": "games.sequence.moves",
    "Rules": "games.sequence.rules",
    "RulesError": "games.sequence.rules",
    "Variant": "games.sequence.rules",
    "parse_rules": "api",
    "State": "games.sequence.state",
    "Outcome": "games.sequence.state",
    "Termination": "games.sequence.state",
    "IllegalMoveError": "games.sequence.actions",
    # positions: from text, from objects, and the helpers for what a program lacks
    "Position": "games.sequence.position",
    "PositionError": "games.sequence.notation",
    "parse_state": "api",
    "make_state": "api",
    "sequences_from_locked": "games.sequence.position_objects",
    "discard_piles": "games.sequence.position_objects",
    # bots
    "best_move": "api",
    "Bot": "bots",
    "BotError": "bots",
    "BotFailure": "bots",
    "Param": "bots",
    "make_bot": "bots",
    # the root of every error, and the error of a bad argument
    "SeqsolveError": "errors",
    "ArgumentError": "errors",
}

__all__ = [
    "ArgumentError",
    "Bot",
    "BotError",
    "BotFailure",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveSyntaxError",
    "Outcome",
    "Param",
    "Position",
    "PositionError",
    "Rules",
    "RulesError",
    "SeqsolveError",
    "State",
    "Termination",
    "Variant",
    "__version__",
    "best_move",
    "discard_piles",
    "make_bot",
    "make_state",
    "parse_rules",
    "parse_state",
    "parse_turn",
    "sequences_from_locked",
]


def __getattr__(name: str):
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module 'seqsolve' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The lazy names too, so that completion in a shell or an editor offers them."""
    return sorted(set(globals()) | set(__all__))
