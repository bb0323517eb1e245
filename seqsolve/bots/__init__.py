"""Bots and the spec strings that name them: ``random``, ``mcts:iters=4000,c=0.7``.

``make_bot(spec, game)`` builds a bot of a game from its spec; an unknown bot or
parameter is a :class:`BotError` that lists what exists.  Each game has its own bots
(:meth:`~seqsolve.games.base.Game.bot_classes`), under the same names where they do
the same job (``random``, ``greedy``, ``mcts``); a game's bots live in its folder
(``seqsolve.games.sequence.bots``, ``seqsolve.games.stacks.bots``) and the bot contract
below every game (``seqsolve.games.bot``).  ``ext:COMMAND`` runs an external program
speaking the line protocol of ``seqsolve.games.external``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ArgumentError
from ..games.bot import Bot, BotError, BotFailure, Param, ProgramRefused
from .specs import parse_spec

if TYPE_CHECKING:
    from ..games.base import Game

__all__ = [
    "Bot",
    "BotError",
    "BotFailure",
    "Param",
    "ProgramRefused",
    "bot_classes",
    "make_bot",
    "parse_spec",
    "refused_in_files",
    "restrictions",
    "starts_a_program",
]


def bot_classes(game: Game | None = None) -> dict[str, type[Bot]]:
    """Every bot of ``game`` by name; without a game, the first game built's (Sequence's)."""
    return _game(game).bot_classes()


def restrictions() -> tuple[str, ...]:
    """What a Sequence ``restricted`` bot can bar (``two_eyed``, ``one_eyed``, ``exchange``,
    ``corners``), in order: the restrictions a balance run measures, named for the runners
    without their importing Sequence's folder."""
    from ..games.sequence.bots.restricted import RESTRICTIONS

    return tuple(RESTRICTIONS)


def _game(game) -> Game:
    """The game ``game`` names: a Game, a variant string (``"stacks"``), a game's rules or
    a state of it; None is the first game built (Sequence)."""
    from ..games import all_games, game_for

    if game is None:
        return all_games()[0]
    if isinstance(game, str):
        return game_for(game)
    if hasattr(game, "bot_classes"):
        return game
    variant = getattr(getattr(game, "rules", game), "variant", None)
    if variant is None:
        raise ArgumentError(
            f"make_bot: game must be a variant string ('stacks'), rules, a state or a game, not {game!r}"
        )
    return game_for(str(variant))


def make_bot(spec: str, game=None, *, programs: bool = True) -> Bot:
    """Build a bot of ``game`` from its spec string, checking every parameter.  A bot
    that names another bot (``restricted:bot=...``) gets one of the same game.  With
    ``programs=False`` (a spec read from a file) a bot that would start a program, at any
    depth, is refused: only the person running seqsolve names one.

    Args:
        spec: ``name:key=value,...`` as ``seqsolve bots`` lists them.
        game: whose bot: a variant string (``"stacks"``, ``"classic"``), rules
            (:func:`seqsolve.parse_rules`), a state, or a game object; None is Sequence.
        programs: whether the spec may start a program (``ext:``).

    Raises:
        BotError: an unknown bot or parameter, or a bad value; ProgramRefused (a
            BotError) for a program where ``programs`` is False.
        ArgumentError: ``spec`` is not a string, or ``game`` names no game.

    >>> make_bot("mcts:iters=500,c=0.5")
    <bot mcts:iters=500,c=0.5>
    >>> make_bot("greedy", "stacks").name
    'greedy'
    >>> make_bot("mcts:iters=-1")
    Traceback (most recent call last):
    seqsolve.games.bot.BotError: bot mcts: parameter iters must be at least 0 and at most 1000000000 (not -1)
    >>> make_bot("restricted:no=two_eyed,bot=ext:touch x", programs=False)
    Traceback (most recent call last):
    seqsolve.games.bot.ProgramRefused: bot ext:touch x starts a program, which a spec read from a file may not
    """
    if not isinstance(spec, str):
        raise ArgumentError(f"make_bot: spec must be a bot spec such as 'heuristic', not {spec!r}")
    default = _game(None)
    game = _game(game)
    classes = game.bot_classes()
    name = spec.strip().partition(":")[0]
    if name not in classes:
        from .classes import make_class_bot

        made = make_class_bot(spec, game, programs, make_bot)  # FILE.py:Class, module:Class, entry points
        if made is not None:
            return made
        of = "" if game is default else f" of {game.name}"  # the default game's message is the one users know
        known = f"known: {_known(classes)}; see 'seqsolve bots'"
        raise BotError(f"unknown bot {name!r}{of} ({known}){_variant_hint(name)}")
    name, raw = parse_spec(spec)
    cls = classes[name]
    if cls.runs_a_program and not programs:
        raise ProgramRefused(f"bot {spec.strip()} starts a program, which a spec read from a file may not")
    values = {}
    for key, text in raw.items():
        values[key] = cls.parse_param(key, text)
    if cls.wraps_a_bot:
        values["make_bot"] = lambda inner: make_bot(inner, game, programs=programs)
    if cls.writes_positions:
        values["game"] = game
    return cls(**values)


def _variant_hint(name: str) -> str:
    """A hint when a bot name is a variant (``draft``, ``classic[hand_bonus=1]``): the
    commands take bots as arguments and variants with ``--variant``, and a variant typed
    where a bot goes is the likeliest way to meet an unknown bot.

    >>> _variant_hint("draft[hand_bonus=1]"), _variant_hint("alphazero")
    (": 'draft[hand_bonus=1]' is a variant, which the commands take with --variant", '')
    """
    from ..games import all_games

    preset = name.split("[", 1)[0].strip().lower()
    if any(preset in game.presets for game in all_games()):
        return f": {name!r} is a variant, which the commands take with --variant"
    return ""


def _known(classes: dict) -> str:
    """The bot names a spec may start with: the game's, then the installed packages' (entry points)."""
    from .classes import entry_points

    return ", ".join([*classes, *(n for n in entry_points() if n not in classes)])


def starts_a_program(spec: str, game: Game | None = None) -> bool:
    """Whether the bot of ``spec`` would start a program (``ext:``, at any depth); a
    Python class (``FILE.py:Class``, ``module:Class``) runs in-process and starts none.

    >>> starts_a_program("restricted:no=two_eyed,bot=ext:python bot.py"), starts_a_program("mcts")
    (True, False)

    Raises:
        BotError: ``spec`` is not a bot of ``game``.
    """
    from .classes import CodeRefused

    try:
        make_bot(spec, game, programs=False).close()
    except CodeRefused:
        return False
    except ProgramRefused:
        return True
    return False


def refused_in_files(spec: str, game: Game | None = None) -> bool:
    """Whether a spec read from a file may not name the bot of ``spec``: it starts a
    program or loads the code of a Python file or module (see :class:`ProgramRefused`).

    >>> refused_in_files("ext:python bot.py"), refused_in_files("my_bots.py:Clever"), refused_in_files("mcts")
    (True, True, False)

    Raises:
        BotError: ``spec`` is not a bot of ``game``.
    """
    try:
        make_bot(spec, game, programs=False).close()
    except ProgramRefused:
        return True
    return False
