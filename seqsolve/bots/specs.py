"""The spec strings that name a bot: ``name:key=value,...``, split before any bot is built.

Its own module because both the built-in registry (``seqsolve.bots``) and the loader of
Python classes (``seqsolve.bots.classes``) read specs, and neither should import the other.
"""

from __future__ import annotations

from ..games.bot import BotError


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
    return name, parse_values(spec, rest)


def parse_values(spec: str, rest: str) -> dict[str, str]:
    """The raw parameter texts of ``key=value,...`` (``rest``, the part of ``spec`` after
    the bot's name), a key given twice refused.

    >>> parse_values("my_bots.py:Clever:depth=3", "depth=3")
    {'depth': '3'}
    """
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotError(f"bot {spec!r}: parameters are key=value, not {item!r}")
        if key.strip() in values:
            raise BotError(f"bot {spec!r}: parameter {key.strip()} is given twice")
        values[key.strip()] = value.strip()
    return values
