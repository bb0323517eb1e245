"""Bots and the spec strings that name them: ``random``, ``mcts:iters=4000,c=0.7``.

``make_bot(spec)`` builds a bot from its spec; an unknown bot or parameter is
a :class:`BotError` that lists what exists.  ``ext:COMMAND`` runs an external
program speaking the line protocol of ``seqsolve.bots.external``.
"""

from __future__ import annotations

from .base import Bot, BotError, BotFailure, Param

__all__ = ["Bot", "BotError", "BotFailure", "Param", "bot_classes", "make_bot", "parse_spec"]


def bot_classes() -> dict[str, type[Bot]]:
    """Every built-in bot by name (imported on demand: some load compiled modules)."""
    from .external import ExternalBot
    from .restricted import RestrictedBot
    from .search import GreedyBot, HeuristicBot, MCTSBot, RolloutBot
    from .simple import RandomBot

    found = [RandomBot, GreedyBot, HeuristicBot, MCTSBot, RolloutBot, RestrictedBot, ExternalBot]
    return {cls.name: cls for cls in found}


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


def make_bot(spec: str) -> Bot:
    """Build a bot from its spec string, checking every parameter.

    >>> make_bot("mcts:iters=500,c=0.5")
    <bot mcts:iters=500,c=0.5>
    >>> make_bot("mcts:iters=-1")
    Traceback (most recent call last):
    seqsolve.bots.base.BotError: bot mcts: parameter iters must be at least 0 and at most 1000000000 (not -1)
    """
    name, raw = parse_spec(spec)
    classes = bot_classes()
    if name not in classes:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(classes)}; see 'seqsolve bots')")
    cls = classes[name]
    values = {}
    for key, text in raw.items():
        if key not in cls.params:
            known = ", ".join(cls.params) or "none"
            raise BotError(f"bot {name}: unknown parameter {key!r} (known: {known})")
        values[key] = cls.params[key].parse(name, key, text)
    if cls.wraps_a_bot:
        values["make_bot"] = make_bot
    return cls(**values)
