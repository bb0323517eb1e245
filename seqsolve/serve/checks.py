"""What a request to ``seqsolve serve`` may ask, checked the way the command line checks
its options: each field's type and range, and the bots a page may seat.

A page is data from a browser, so it is held to more than the command line: a bot it
names may not start a program (``ext:``, as for a spec read from a file), read a file
(a ``weights`` file) or think without a bound: every budget a bot's spec can raise
(``iters``, ``time``, ``work``, ``worlds``, ``nodes``) has a ceiling here, the time
ones tied to the server's ``--max-seconds``.  Anything else is one
:class:`RequestError` whose message the page shows as it is.
"""

from __future__ import annotations

import math

from ..errors import SeqsolveError


class RequestError(SeqsolveError, ValueError):
    """A request the server will not carry out: the one line the page shows."""


#: the bots a page may seat, by game: those that think inside seqsolve
SEATABLE = ("random", "greedy", "heuristic", "search", "mcts", "rollout")

#: the most of each budget a bot's spec may ask for, whatever the bot (``time`` and
#: ``cap`` are tied to ``--max-seconds`` instead)
BUDGET_CEILINGS = {"iters": 50_000, "work": 100_000_000, "worlds": 20_000, "nodes": 2_000_000}
#: the bots whose ``work=0`` means "no bound" (a rollout's worlds bound it anyway)
UNBOUNDED_AT_ZERO = ("mcts",)

#: a page's longest text (a pasted record or position), in characters
MAX_TEXT = 2_000_000
#: the most moves a game sent by a page may hold
MAX_MOVES = 5_000
#: the most iterations a hint, an analysis or an annotated decision may ask for
MAX_ITERATIONS = 50_000


def field(body: dict, name: str, kind: type, default=None, *, required: bool = False):
    """``body[name]`` if it is a ``kind`` (``default`` when absent and not ``required``).

    >>> field({"seed": 7}, "seed", int)
    7
    >>> field({"seed": "7"}, "seed", int)
    Traceback (most recent call last):
    seqsolve.serve.checks.RequestError: 'seed' must be a whole number, not "7"
    """
    if name not in body or body[name] is None:
        if required:
            raise RequestError(f"the request has no {name!r}")
        return default
    value = body[name]
    ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok or (kind is float and not math.isfinite(value)):
        raise RequestError(f"{name!r} must be {_KINDS.get(kind, kind.__name__)}, not {_shown(value)}")
    if kind is str and len(value) > MAX_TEXT:
        raise RequestError(f"{name!r} is longer than {MAX_TEXT:,} characters")
    return value


_KINDS = {
    int: "a whole number",
    float: "a number",
    str: "text",
    list: "a list",
    dict: "an object",
    bool: "true or false",
}


def whole(body: dict, name: str, default: int | None, low: int, high: int) -> int | None:
    """``body[name]``, a whole number from ``low`` to ``high`` (``default`` when absent).

    >>> whole({"seat": 5}, "seat", 0, 0, 3)
    Traceback (most recent call last):
    seqsolve.serve.checks.RequestError: 'seat' must be from 0 to 3, not 5
    """
    value = field(body, name, int, default)
    if value is not None and not low <= value <= high:
        raise RequestError(f"{name!r} must be from {low} to {high}, not {value}")
    return value


def iterations(body: dict, default: int) -> int:
    """The iterations a search of the request may run (``iterations``, 1..:data:`MAX_ITERATIONS`)."""
    return whole(body, "iterations", default, 1, MAX_ITERATIONS)  # type: ignore[return-value]


def check_bot(spec: str, game, max_seconds: float) -> str:
    """``spec`` if a page may seat that bot of ``game``: a bot of :data:`SEATABLE`, no
    weights file, each budget under its ceiling and a time budget of at most
    ``max_seconds``; the spec with spaces trimmed.

    Raises:
        RequestError: why not, in one line (an unknown bot or bad value as ``seqsolve bots`` says it).
    """
    from ..bots import BotError, make_bot, parse_spec
    from ..bots.classes import class_spec

    if not isinstance(spec, str) or not spec.strip():
        raise RequestError(f"a bot is a spec such as 'heuristic', not {_shown(spec)}")
    spec = spec.strip()
    named = None if spec.partition(":")[0].strip() in game.bot_classes() else class_spec(spec)
    if named is not None:  # parse_spec would read its class as a parameter and say that
        raise RequestError(
            f"bot {_shown(spec)} cannot be seated from the page: it runs the code of {_shown(named.where)}"
        )
    try:
        name, raw = parse_spec(spec)
    except BotError as exc:
        raise RequestError(str(exc)) from None
    if name not in SEATABLE:
        raise RequestError(
            f"bot {_shown(name)} cannot be seated from the page (it may: {', '.join(SEATABLE)})"
        )
    if raw.get("weights", "default") != "default":
        raise RequestError(
            f"bot {spec}: the page plays the default weights only (a weights file is not read)"
        )
    try:
        bot = make_bot(spec, game, programs=False)
    except BotError as exc:
        raise RequestError(str(exc)) from None
    try:
        for key in ("time", "cap"):
            value = bot.options.get(key)
            if value is not None and value > max_seconds:
                raise RequestError(
                    f"bot {spec}: {key}={value:g} is above the server's {max_seconds:g} s a move"
                )
        for key, ceiling in BUDGET_CEILINGS.items():
            value = bot.options.get(key)
            if value is None:
                continue
            if value > ceiling or (value == 0 and key == "work" and name in UNBOUNDED_AT_ZERO):
                raise RequestError(f"bot {spec}: {key} must be from 1 to {ceiling:,} here (not {value})")
    finally:
        bot.close()
    return spec


def _shown(value) -> str:
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
