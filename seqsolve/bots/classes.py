"""Bots written as Python classes, played in-process: ``FILE.py:Class``, ``module:Class``
and the entry points of the group ``seqsolve.bots``.

A bot writer who works in Python should not need a process per game and a line of text
per move (``ext:``, :mod:`seqsolve.games.external`) to measure a bot.  A class with the
bot interface of :class:`seqsolve.bots.Bot` is loaded by its spec and played like a
built-in bot:

* ``choose(observation, rng) -> int``, required: the action to play, one of
  ``observation.legal_actions()``; ``observation`` is what the seat may see
  (``state.observation(seat)``) and ``rng`` a ``numpy.random.Generator`` seeded by the
  runner, so a bot that draws only from it replays the same games for a seed;
* ``start(rules, seats, seat)``, ``close()``, ``check_rules(rules)``: optional, as for
  the built-in bots;
* ``params``: optional, a dict of :class:`~seqsolve.bots.Param` by name; a spec's
  ``key=value`` are parsed and range-checked by them and every value (defaults
  included) reaches the constructor as a keyword argument;
* ``summary``: optional, the line ``seqsolve bots`` prints (else the docstring's first).
* ``wraps_a_bot``, ``writes_positions``, ``runs_a_program``: optional flags, as on
  :class:`~seqsolve.bots.Bot`: the constructor is then also handed ``make_bot=`` (the
  registry's factory, for a bot that plays through another spec) or ``game=`` (the game
  played, whose positions and notation a wrapper of another framework may need).

Subclassing :class:`~seqsolve.bots.Bot` is optional: a plain class with the same
methods plays the same way.  Either is held in a :class:`PythonBot`, which checks the
arguments of every call as a built-in bot's ``choose`` does, and turns what a bug in the
class does, an exception or an answer that is not a legal action, into a
:class:`~seqsolve.bots.BotFailure`: the game is forfeited with the reason, as an
``ext:`` program's is, and the match goes on.

Only the spec crosses to a joblib worker, which loads the class again: a file is read
by its path (relative to the folder the command runs in), a module imported by its
name, so both must be reachable there as they are here.  Loading a class runs its
code, so, like ``ext:``, a spec read from a file may not name a file or a module
(:class:`~seqsolve.bots.ProgramRefused`); an entry point is code the user installed
and may.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import os
import re
import sys
import traceback
from dataclasses import dataclass
from typing import Any

from ..games.bot import Bot, BotError, BotFailure, Param, ProgramRefused
from .specs import parse_spec, parse_values

#: the entry-point group through which installed packages offer bots
ENTRY_POINT_GROUP = "seqsolve.bots"

#: what a bot writer's code may raise and seqsolve reports: anything (a sys.exit() or a
#: class of its own derived from BaseException included) but Ctrl-C, which each handler
#: lets through first (``except KeyboardInterrupt: raise``) so that it still stops the run
_BUGS = BaseException

_NAME = r"[A-Za-z_]\w*"
_DOTTED = re.compile(rf"{_NAME}(\.{_NAME})*")


class CodeRefused(ProgramRefused):
    """A spec read from a file that names a Python file or module: loading it would run
    its code, which, like starting a program, only the person running seqsolve may ask."""


@dataclass(frozen=True)
class ClassSpec:
    """A spec naming a class: where it is (a ``.py`` file or a module), its name there
    (``Outer.Inner`` for a nested class) and the raw ``key=value`` text after it."""

    where: str
    qualname: str
    rest: str

    @property
    def is_file(self) -> bool:
        return looks_like_a_file(self.where)

    @property
    def name(self) -> str:
        """The bot's name in messages and records: ``where:Class``."""
        return f"{self.where}:{self.qualname}"


def looks_like_a_file(where: str) -> bool:
    """Whether the part before ``:Class`` is a path rather than a module name.

    >>> looks_like_a_file("my_bots.py"), looks_like_a_file("bots/x"), looks_like_a_file("my_bots")
    (True, True, False)
    """
    return where.endswith(".py") or "/" in where or os.sep in where


def class_spec(spec: str) -> ClassSpec | None:
    """The class a spec names, or None when it names none (a bot name, an entry point).

    ``FILE.py:Class[:key=value,...]`` or ``module:Class[:key=value,...]``: a file is a
    path ending in ``.py`` (or holding ``/``), a module a dotted name, and the class a
    dotted name with no ``=`` (so ``mcts:c=1`` is never one).

    >>> class_spec("my_bots.py:CleverBot:depth=3")
    ClassSpec(where='my_bots.py', qualname='CleverBot', rest='depth=3')
    >>> class_spec("bots.strong:Clever"), class_spec("mcts:c=1"), class_spec("heuristic")
    (ClassSpec(where='bots.strong', qualname='Clever', rest=''), None, None)
    """
    where, sep, rest = spec.strip().partition(":")
    where = where.strip()
    qualname, _, params = rest.partition(":")
    qualname = qualname.strip()
    if looks_like_a_file(where):
        return ClassSpec(where, qualname, params.strip())
    if sep and _DOTTED.fullmatch(where) and _DOTTED.fullmatch(qualname):
        return ClassSpec(where, qualname, params.strip())
    return None


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The bot's name and its raw parameter texts, for every kind of spec: a class's name
    is ``where:Class``.

    >>> split_spec("bots.py:Clever:depth=3"), split_spec("mcts:c=1")
    (('bots.py:Clever', {'depth': '3'}), ('mcts', {'c': '1'}))
    """
    named = class_spec(spec)
    if named is None:
        return parse_spec(spec)
    return named.name, parse_values(spec, named.rest)


# ---------------------------------------------------------------- loading


@contextlib.contextmanager
def _prints_to_stderr():
    """What the bot writer's code prints goes to stderr: stdout holds the command's
    results (``--json``), which a debugging print would corrupt."""
    shown, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout = shown


@contextlib.contextmanager
def _writers_code(fault, *lets_through: type[BaseException]):
    """Around a call into the bot writer's code: what it prints goes to stderr, Ctrl-C and
    ``lets_through`` pass, and any other exception, whatever its class, becomes
    ``fault(where)`` (``where``: the exception in one line, at the bot's own line)."""
    try:
        with _prints_to_stderr():
            yield
    except (KeyboardInterrupt, *lets_through):
        raise
    except _BUGS as exc:  # the bot writer's code, any bug
        raise fault(_located(exc)) from None


def _located(exc: BaseException, origin: str | None = None) -> str:
    """``ValueError: bad (my_bots.py, line 12)``: an exception in one line, with the
    innermost frame of ``origin`` (a file) where one is, else the innermost frame."""
    text = " ".join(str(exc).split())
    said = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    # the machinery that loads (importlib, this module) says nothing of where the bug is
    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if not f.filename.startswith("<frozen")
        and os.sep + "importlib" + os.sep not in f.filename
        and os.path.abspath(f.filename) != os.path.abspath(__file__)
    ]
    if origin is not None:
        own = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(origin)]
        frames = own or frames
    if frames:
        said += f" ({os.path.basename(frames[-1].filename)}, line {frames[-1].lineno})"
    return said


def _load_file(spec: ClassSpec):
    """The module of ``spec.where``, a Python file, loaded once per version of the file."""
    path = spec.where
    if not path.endswith(".py"):
        raise BotError(f"bot {spec.name}: a bot file is a Python file ending in .py, not {path!r}")
    try:
        info = os.stat(path)
    except OSError as exc:
        raise BotError(f"bot {spec.name}: cannot read {path} ({exc.strerror})") from None
    if not os.path.isfile(path):
        raise BotError(f"bot {spec.name}: {path} is not a file")
    full = os.path.abspath(path)
    # a name of its own per file, in sys.modules: its classes pickle and its dataclasses work
    module_name = "_seqsolve_bot_" + hashlib.sha1(full.encode()).hexdigest()[:16]
    version = (info.st_mtime_ns, info.st_size)
    loaded = sys.modules.get(module_name)
    if loaded is not None and getattr(loaded, "__seqsolve_version__", None) == version:
        return loaded
    try:
        with open(full, "rb") as f:
            source = f.read()
        code = compile(source, path, "exec", dont_inherit=True)
    except OSError as exc:
        raise BotError(f"bot {spec.name}: cannot read {path} ({exc.strerror})") from None
    except SyntaxError as exc:
        # a NUL byte or an undecodable file is a SyntaxError with no line (Python 3.11.4 on)
        where = (
            path
            + (f":{exc.lineno}" if exc.lineno else "")
            + (f":{exc.offset}" if exc.lineno and exc.offset else "")
        )
        raise BotError(f"bot {spec.name}: {where}: {exc.msg}") from None
    except ValueError as exc:  # a NUL byte
        raise BotError(f"bot {spec.name}: {path}: {exc}") from None
    module_spec = importlib.util.spec_from_file_location(module_name, full)
    module = importlib.util.module_from_spec(module_spec)  # type: ignore[arg-type]
    module.__seqsolve_version__ = version  # type: ignore[attr-defined]
    sys.modules[module_name] = module
    try:
        with _prints_to_stderr():
            exec(code, module.__dict__)  # noqa: S102 - what loading a bot file means
    except KeyboardInterrupt:
        raise
    except _BUGS as exc:  # the bot writer's code, any bug
        del sys.modules[module_name]
        raise BotError(f"bot {spec.name}: loading {path} raised {_located(exc, full)}") from None
    return module


def _import_module(spec: ClassSpec):
    try:
        with _prints_to_stderr():
            return importlib.import_module(spec.where)
    except ModuleNotFoundError as exc:
        if exc.name and (spec.where == exc.name or spec.where.startswith(exc.name + ".")):
            raise BotError(
                f"bot {spec.name}: no module named {exc.name!r} on the Python path"
                f" (a file is named with its .py: {spec.where.replace('.', '/')}.py:{spec.qualname})"
            ) from None
        raise BotError(f"bot {spec.name}: importing {spec.where} raised {_located(exc)}") from None
    except KeyboardInterrupt:
        raise
    except _BUGS as exc:  # the bot writer's code, any bug
        raise BotError(f"bot {spec.name}: importing {spec.where} raised {_located(exc)}") from None


def load_class(spec: ClassSpec) -> type:
    """The class ``spec`` names, checked to be a bot.

    Raises:
        BotError: in one line, a missing file, a syntax error (file, line and column),
            an exception while loading, no such class, or a class that is not a bot.
    """
    if not spec.qualname:
        raise BotError(f"bot {spec.where}: name the class after the file: {spec.where}:ClassName")
    if not _DOTTED.fullmatch(spec.qualname):
        raise BotError(f"bot {spec.name}: {spec.qualname!r} is not a class name")
    module = _load_file(spec) if spec.is_file else _import_module(spec)
    found: Any = module
    for part in spec.qualname.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise BotError(f"bot {spec.name}: {spec.where} has no class {spec.qualname!r}") from None
        except Exception as exc:  # noqa: BLE001 - a module __getattr__ that fails
            raise BotError(f"bot {spec.name}: looking up {spec.qualname} raised {_located(exc)}") from None
    check_bot_class(found, spec.name)
    return found


def check_bot_class(cls: Any, name: str) -> None:
    """Refuse, in one line, what is not a bot class: not a class, no ``choose``, or
    ``params`` that are not :class:`~seqsolve.bots.Param` by name."""
    if not isinstance(cls, type):
        raise BotError(f"bot {name}: {name.rpartition(':')[2]} is not a class but {type(cls).__name__}")
    choose = getattr(cls, "choose", None)
    if not callable(choose) or choose is Bot.choose:
        raise BotError(f"bot {name}: {cls.__name__} is not a bot: it has no method choose(observation, rng)")
    params = getattr(cls, "params", {})
    if not isinstance(params, dict) or not all(
        isinstance(k, str) and isinstance(p, Param) for k, p in params.items()
    ):
        raise BotError(f"bot {name}: {cls.__name__}.params must be a dict of seqsolve.bots.Param by name")


# ---------------------------------------------------------------- entry points


def entry_points() -> dict[str, Any]:
    """The installed packages' bots (group ``seqsolve.bots``) by name, the first of a
    name kept (``importlib.metadata`` lists each distribution once)."""
    import importlib.metadata  # here: a hundredth of a CPU second that a match needs not

    found: dict[str, Any] = {}  # importlib.metadata.EntryPoint by name
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, point)
    return found


def _provider(point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return (
        f"{point.value} of {dist.name}" if dist is not None and getattr(dist, "name", None) else point.value
    )


def load_entry_point(name: str, point: importlib.metadata.EntryPoint) -> type:
    """The class an entry point names, checked to be a bot.

    Raises:
        BotError: the package fails to load it, or it is not a bot class.
    """
    try:
        with _prints_to_stderr():
            cls = point.load()
    except KeyboardInterrupt:
        raise
    except _BUGS as exc:  # the bot writer's code, any bug
        raise BotError(f"bot {name} ({_provider(point)}): loading it raised {_located(exc)}") from None
    check_bot_class(cls, name)
    return cls


@dataclass(frozen=True)
class InstalledBot:
    """A bot an installed package offers, as ``seqsolve bots`` lists it: the class, or
    why it could not be loaded (the list goes on without it)."""

    name: str
    provider: str
    cls: type | None
    problem: str = ""


def installed_bots(builtin: dict[str, type]) -> list[InstalledBot]:
    """Every entry point of the group ``seqsolve.bots``, loaded; one whose name is a
    built-in bot's is listed as hidden by it (the built-in bot wins)."""
    listed = []
    for name, point in entry_points().items():
        provider = _provider(point)
        if name in builtin:
            listed.append(InstalledBot(name, provider, None, f"hidden by the built-in bot {name}"))
            continue
        try:
            listed.append(InstalledBot(name, provider, load_entry_point(name, point)))
        except BotError as exc:
            said = str(exc)
            for prefix in (f"bot {name} ({provider}): ", f"bot {name}: "):
                said = said.removeprefix(prefix)
            listed.append(InstalledBot(name, provider, None, said))
    return listed


def summary_of(cls: type) -> str:
    """The one line that describes a bot class: its ``summary``, else its docstring's first line."""
    text = getattr(cls, "summary", "") or (cls.__doc__ or "").strip().split("\n")[0]
    return " ".join(str(text).split())


# ---------------------------------------------------------------- the bot


def class_values(cls: type, name: str, raw: dict[str, str]) -> dict[str, Any]:
    """Every parameter of ``cls`` (its defaults, then ``raw``'s texts parsed and checked).

    Raises:
        BotError: an unknown or removed parameter, or a bad value.
    """
    params: dict[str, Param] = getattr(cls, "params", {})
    removed: dict[str, str] = getattr(cls, "removed", {}) or {}
    values = {key: p.default for key, p in params.items()}
    for key, text in raw.items():
        if key in params:
            values[key] = params[key].parse(name, key, text)
        elif key in removed:
            raise BotError(f"bot {name}: parameter {key} was removed: {removed[key]}")
        else:
            raise BotError(f"bot {name}: unknown parameter {key!r} (known: {', '.join(params) or 'none'})")
    return values


class PythonBot(Bot):
    """A bot class loaded by its spec, played in-process; what goes wrong inside it is a
    :class:`~seqsolve.bots.BotFailure` (a forfeit), never a crash of the run."""

    name = "python"
    summary = "a Python class with the bot interface: FILE.py:Class or module:Class (docs/api.md)"

    def __init__(self, cls: type, name: str, values: dict[str, Any], extra: dict[str, Any] | None = None):
        # name and params are the loaded class's: messages and ``spec`` name it
        self.name = name  # type: ignore[misc]
        self.params = dict(getattr(cls, "params", {}))  # type: ignore[misc]
        self.options = dict(values)
        self.inner_class = cls
        with _writers_code(lambda where: BotError(f"bot {name}: {cls.__name__}(...) raised {where}")):
            self.inner = cls(**values, **(extra or {}))
        # a Bot subclass's choose checks its arguments as this one's does: call it unchecked
        unchecked = getattr(type(self.inner).choose, "unchecked", None)
        self._choose = functools.partial(unchecked, self.inner) if unchecked else self.inner.choose

    def start(self, rules, seats: str, seat: int) -> None:
        start = getattr(self.inner, "start", None)
        if start is None:
            return
        with _writers_code(lambda where: BotFailure(f"start raised {where}"), BotFailure):
            start(rules, seats, seat)

    def check_rules(self, rules) -> None:
        check = getattr(self.inner, "check_rules", None)
        if check is None:
            return
        with _writers_code(lambda where: BotError(f"bot {self.name}: check_rules raised {where}"), BotError):
            check(rules)

    def choose(self, observation, rng) -> int:
        shown, sys.stdout = sys.stdout, sys.stderr  # as in _prints_to_stderr, at a lower cost a move
        try:
            action = self._choose(observation, rng)
        except BotFailure:
            raise
        except KeyboardInterrupt:
            raise
        except _BUGS as exc:  # the bot writer's code, any bug
            raise BotFailure(f"raised {_located(exc)}") from None
        finally:
            sys.stdout = shown
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            raise BotFailure(f"answered {_short(action)}, not an action (an int of legal_actions())")
        try:
            action = action.__index__()
        except KeyboardInterrupt:
            raise
        except _BUGS as exc:  # an __index__ of the bot writer's own
            raise BotFailure(f"answered {_short(action)}, whose __index__ raised {_located(exc)}") from None
        if action not in observation.legal_actions():
            try:
                text = observation.action_to_string(action)
            except Exception:  # noqa: BLE001 - an integer that is no action at all
                text = _short(action)
            raise BotFailure(f"illegal action {text}")
        return action

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            try:
                with _prints_to_stderr():
                    close()
            except KeyboardInterrupt:
                raise
            except _BUGS:
                pass


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def make_class_bot(spec: str, game, programs: bool, make_bot) -> Bot | None:
    """The bot of a class spec or of an entry point's name; None when ``spec`` is neither.

    Args:
        spec: ``FILE.py:Class``, ``module:Class`` or ``NAME`` of an entry point, with
            ``:key=value,...`` after it.
        game: the game played (handed to a class that ``writes_positions``).
        programs: whether the spec may run code of a file or module (see the module's docs).
        make_bot: the registry's factory, for a class that ``wraps_a_bot``.
    """

    named = class_spec(spec)
    if named is not None:
        if not programs:
            raise CodeRefused(
                f"bot {spec.strip()} runs the code of {named.where}, which a spec read from a file may not"
            )
        cls = load_class(named)
        name, raw = split_spec(spec)
    else:
        name, raw = parse_spec(spec)
        points = entry_points()
        if name not in points:
            return None
        cls = load_entry_point(name, points[name])
    if getattr(cls, "runs_a_program", False) and not programs:
        raise ProgramRefused(f"bot {spec.strip()} starts a program, which a spec read from a file may not")
    values = class_values(cls, name, raw)
    extra: dict[str, Any] = {}
    if getattr(cls, "wraps_a_bot", False):
        extra["make_bot"] = lambda inner: make_bot(inner, game, programs=programs)
    if getattr(cls, "writes_positions", False):
        extra["game"] = game
    return PythonBot(cls, name, values, extra)
