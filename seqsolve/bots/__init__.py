"""Bots and the spec strings that name them: ``random``, ``mcts:iters=4000,c=0.7``.

``make_bot(spec, game)`` builds a bot of a game from its spec; an unknown bot or
parameter is a :class:`BotError` that lists what exists.  Each game has its own bots
(:meth:`~seqsolve.games.base.Game.bot_classes`), under the same names where they do
the same job (``random``, ``greedy``, ``mcts``); the modules of this folder are
Sequence's.  ``ext:COMMAND`` runs an external program speaking the line protocol of
``seqsolve.bots.external``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Bot, BotError, BotFailure, Param

if TYPE_CHECKING:
    from ..games.base import Game

__all__ = ["Bot", "BotError", "BotFailure", "Param", "bot_classes", "make_bot", "parse_spec"]


def bot_classes(game: Game | None = None) -> dict[str, type[Bot]]:
    """Every bot of ``game`` by name; without a game, the first game built's (Sequence's)."""
    return _game(game).bot_classes()


def _game(game: Game | None) -> Game:
    if game is not None:
        return game
    from ..games import all_games

    return all_games()[0]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and raw parameter texts.

    >>> parse_spec("mcts:iters=4000,c=0.7")
    ('mcts', {'iters': '4000', 'c': '0.7'})
    >>> parse_spec("ext:python bot.py --fast")
    ('ext', {'command': 'python bot.py --fast'})

    A key given twice is refused: which of the two values was meant is a guess.
    """
    name, _, rest = spec.strip().partition(":")
    if name == "ext":
        return name, {"command": rest.strip()}
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotError(f"bot {spec!r}: parameters are key=value, not {item!r}")
        if key.strip() in values:
            raise BotError(f"bot {spec!r}: parameter {key.strip()} is given twice")
        values[key.strip()] = value.strip()
    return name, values


def make_bot(spec: str, game: Game | None = None) -> Bot:
    """Build a bot of ``game`` (without one, Sequence) from its spec string, checking
    every parameter.  A bot that names another bot (``restricted:bot=...``) gets one of
    the same game.

    >>> make_bot("mcts:iters=500,c=0.5")
    <bot mcts:iters=500,c=0.5>
    >>> make_bot("mcts:iters=-1")
    Traceback (most recent call last):
    seqsolve.bots.base.BotError: bot mcts: parameter iters must be at least 0 and at most 1000000000 (not -1)
    """
    name, raw = parse_spec(spec)
    default = _game(None)
    game = game or default
    classes = game.bot_classes()
    if name not in classes:
        of = "" if game is default else f" of {game.name}"  # the default game's message is the one users know
        raise BotError(f"unknown bot {name!r}{of} (known: {', '.join(classes)}; see 'seqsolve bots')")
    cls = classes[name]
    values = {}
    for key, text in raw.items():
        values[key] = cls.parse_param(key, text)
    if cls.wraps_a_bot:
        values["make_bot"] = lambda inner: make_bot(inner, game)
    if cls.writes_positions:
        values["game"] = game
    return cls(**values)
