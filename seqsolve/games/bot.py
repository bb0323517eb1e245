"""What a bot is: something that turns an observation into an action.

A bot never sees a ``State`` with hidden cards: the match runner hands it
``state.observation(seat)``, a state in which every card that seat cannot see
is unknown.  Cheating is therefore impossible by construction; the one
exception is a bot built with ``open=True`` for analysis, which the runner
gives the full state on purpose.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import ArgumentError, SeqsolveError

if TYPE_CHECKING:  # spec parsing needs neither numpy nor the compiled core
    import numpy as np

    from .sequence.rules import Rules
    from .sequence.state import State


class BotError(SeqsolveError, ValueError):
    """An unknown bot, an unknown parameter or a bad parameter value."""


class ProgramRefused(BotError):
    """A bot spec that would start a program (``ext:``), where only the person running
    seqsolve may name one: a spec read from a file is data, and opening a file never
    runs a program (:func:`seqsolve.bots.make_bot` with ``programs=False``)."""


class BotFailure(SeqsolveError, RuntimeError):
    """A bot that could not produce a legal move (crashed, silent, illegal answer)."""


@dataclass(frozen=True)
class Param:
    """One tunable parameter of a bot: its type, default, meaning and, for numbers,
    the range ``minimum .. maximum`` outside which the bot would be meaningless
    (a probability above 1) or would never answer (a billion-second budget)."""

    kind: type
    default: Any
    help: str
    minimum: float = 0
    maximum: float = math.inf  # every built-in numeric parameter gives its own

    def parse(self, bot: str, name: str, text: str) -> Any:
        try:
            if self.kind is bool:
                if text.lower() in ("1", "true", "yes", "on"):
                    return True
                if text.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            # Python's int() and float() also read '5_0', '１' and '١٢': a spec is written
            # as --variant is, in plain ASCII digits, so that one value has one spelling
            if self.kind in (int, float) and (not text.isascii() or "_" in text):
                raise ValueError
            value = self.kind(text)
        except Exception:  # noqa: BLE001 - a bot writer's own kind may raise anything
            raise BotError(
                f"bot {bot}: parameter {name} takes a {self.kind.__name__}, not {text!r}"
            ) from None
        if self.kind in (int, float) and not (math.isfinite(value) and self.minimum <= value <= self.maximum):
            raise BotError(
                f"bot {bot}: parameter {name} must be at least {_number(self.minimum)}"
                f" and at most {_number(self.maximum)} (not {text})"
            )
        return value

    @property
    def range(self) -> str | None:
        """The allowed values as people write them (``0..1``); None for text and flags."""
        if self.kind not in (int, float):
            return None
        return f"{_number(self.minimum)}..{_number(self.maximum)}"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class Bot:
    """Base class.  Subclasses set ``name``, ``params`` and implement :meth:`choose`."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}
    #: parameters of earlier versions, by name, and why they went (one line each): a spec
    #: that gives one is told so rather than that it never existed
    removed: ClassVar[dict[str, str]] = {}
    #: a bot that plays through another bot named by a spec: :func:`seqsolve.bots.make_bot`
    #: hands it the factory as ``make_bot=``, so that it needs no import of the registry
    wraps_a_bot: ClassVar[bool] = False
    #: a bot that hands positions to another program as text: :func:`seqsolve.bots.make_bot`
    #: hands it the game whose position files and notation it writes as ``game=``
    writes_positions: ClassVar[bool] = False
    #: a bot that starts another program: only a spec the person running seqsolve gave
    #: may build one (see :class:`ProgramRefused`)
    runs_a_program: ClassVar[bool] = False
    #: True when the bot must be given the full state (perfect-information analysis only).
    open_information: bool = False
    #: seconds the runner allows per move (``--move-timeout``); only an external
    #: program, whose thinking seqsolve cannot see, is held to it
    move_timeout: float = 10.0

    @classmethod
    def parse_param(cls, key: str, text: str) -> Any:
        """The value of parameter ``key`` written ``text`` in a spec.

        Raises:
            BotError: an unknown or removed parameter, or a bad value, in one line.
        """
        if key in cls.params:
            return cls.params[key].parse(cls.name, key, text)
        if key in cls.removed:
            raise BotError(f"bot {cls.name}: parameter {key} was removed: {cls.removed[key]}")
        known = ", ".join(cls.params) or "none"
        raise BotError(f"bot {cls.name}: unknown parameter {key!r} (known: {known})")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # every bot's choose, built in or written by a user, is public: its arguments are
        # checked once here rather than failing deep inside a search as an AttributeError
        super().__init_subclass__(**kwargs)
        if "choose" in cls.__dict__:
            cls.choose = _checked_choose(cls.__dict__["choose"])  # type: ignore[method-assign]

    def __init__(self, **values: Any):
        self.options = {k: p.default for k, p in self.params.items()}
        self.options.update(values)

    @property
    def spec(self) -> str:
        """The bot spec string that rebuilds this bot (defaults left out)."""
        changed = [f"{k}={v}" for k, v in self.options.items() if v != self.params[k].default]
        return self.name + (":" + ",".join(changed) if changed else "")

    def start(self, rules: Rules, seats: str, seat: int) -> None:
        """Called once before a game: the rules and the seat this bot plays."""

    def check_rules(self, rules: Rules) -> None:
        """A BotError when a parameter given means nothing in games of ``rules``: the
        runners ask before the first game."""

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        """The core action to play, legal in ``observation``."""
        raise NotImplementedError

    def close(self) -> None:
        """Release whatever the bot holds (processes, memory)."""

    def loop_chooser(self, rules: Rules) -> tuple[str, dict | None, int] | None:
        """How the compiled game loop plays this bot in games of ``rules``, ``(chooser,
        weights, restriction flags)`` (``seqsolve._loop.Lineup``), or None: the runner
        then asks it action by action.  Only a bot whose every choice that loop makes exactly as
        :meth:`choose` does may give one."""
        return None

    def __repr__(self) -> str:
        return f"<bot {self.spec}>"


def _checked_choose(choose):
    """``choose`` that first checks it was given a game state with a turn to play and a
    numpy Generator, naming the bot and the argument at fault in one line."""

    @functools.wraps(choose)
    def checked(self, observation, rng):
        import numpy as np

        if not callable(getattr(observation, "legal_actions", None)):
            raise ArgumentError(
                f"bot {self.name}: choose takes a game state (an observation), not {_shown(observation)}"
            )
        if not isinstance(rng, np.random.Generator):
            raise ArgumentError(
                f"bot {self.name}: choose takes a numpy.random.Generator "
                f"(numpy.random.default_rng(seed)), not {_shown(rng)}"
            )
        if observation.is_terminal():
            raise ArgumentError(f"bot {self.name}: the game is over, there is no turn to choose")
        if not observation.legal_actions():
            raise ArgumentError(
                f"bot {self.name}: no legal action is known in this state (the seat to move holds "
                "only unknown cards); give the bot what its seat sees, state.observation(seat)"
            )
        return choose(self, observation, rng)

    checked.unchecked = choose  # type: ignore[attr-defined]
    return checked


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
