"""What a bot is: something that turns an observation into an action.

A bot never sees a ``State`` with hidden cards: the match runner hands it
``state.observation(seat)``, a state in which every card that seat cannot see
is unknown.  Cheating is therefore impossible by construction; the one
exception is a bot built with ``open=True`` for analysis, which the runner
gives the full state on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..rules import Rules
from ..state import State


class BotError(ValueError):
    """An unknown bot, an unknown parameter or a bad parameter value."""


class BotFailure(RuntimeError):
    """A bot that could not produce a legal move (crashed, silent, illegal answer)."""


@dataclass(frozen=True)
class Param:
    """One tunable parameter of a bot: its type, default and meaning."""

    kind: type
    default: Any
    help: str
    minimum: float = 0

    def parse(self, bot: str, name: str, text: str) -> Any:
        try:
            if self.kind is bool:
                if text.lower() in ("1", "true", "yes", "on"):
                    return True
                if text.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            value = self.kind(text)
        except ValueError:
            raise BotError(f"bot {bot}: parameter {name} takes a {self.kind.__name__}, not {text!r}") from None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < self.minimum:
            raise BotError(f"bot {bot}: parameter {name} must be at least {self.minimum:g} ({text})")
        return value


class Bot:
    """Base class.  Subclasses set ``name``, ``params`` and implement :meth:`choose`."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}
    #: True when the bot must be given the full state (perfect-information analysis only).
    open_information: bool = False
    #: seconds the runner allows per move (``--move-timeout``); only an external
    #: program, whose thinking seqsolve cannot see, is held to it
    move_timeout: float = 10.0

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

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        """The core action to play, legal in ``observation``."""
        raise NotImplementedError

    def close(self) -> None:
        """Release whatever the bot holds (processes, memory)."""

    def __repr__(self) -> str:
        return f"<bot {self.spec}>"
