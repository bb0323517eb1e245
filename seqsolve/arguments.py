"""The checks of a public function's arguments: each refusal is an
:class:`~seqsolve.errors.ArgumentError` naming the function and the argument, so that
a program embedding seqsolve never sees an AttributeError or an OverflowError from
deep inside (docs/api.md, "What goes wrong").

The checks cost a type test and a comparison: the per-ply methods of a state
(``hand``, ``observation``) keep them.
"""

from __future__ import annotations

import enum
from typing import Any

from .errors import ArgumentError


class PublicEnum(enum.Enum):
    """An enum of the public API: looking up a value it does not have is an
    ArgumentError naming the enum and its values (still a ValueError, as enum's own
    refusal is), so that only seqsolve's errors come out of a public name.

    >>> from seqsolve import MoveKind
    >>> MoveKind("jump")
    Traceback (most recent call last):
    seqsolve.errors.ArgumentError: MoveKind: 'jump' is not one of 'place', 'remove', 'exchange', 'pass'
    """

    @classmethod
    def _missing_(cls, value):
        raise ArgumentError(
            f"{cls.__name__}: {value!r} is not one of {', '.join(repr(m.value) for m in cls)}"
        )


def integer(value: Any, where: str, name: str, low: int, high: int) -> int:
    """``value`` if it is an int (not a bool) from ``low`` to ``high``, as an int.

    >>> integer(3, "hand", "seat", 0, 3)
    3
    >>> integer(True, "hand", "seat", 0, 3)
    Traceback (most recent call last):
    seqsolve.errors.ArgumentError: hand: seat must be an integer from 0 to 3, not True
    """
    if type(value) is int and low <= value <= high:
        return value
    if not isinstance(value, bool) and hasattr(value, "__index__"):
        number = value.__index__()  # numpy's integers
        if low <= number <= high:
            return number
    raise ArgumentError(f"{where}: {name} must be an integer from {low} to {high}, not {value!r}")


def seat(value: Any, where: str, players: int, name: str = "seat") -> int:
    """``value`` if it names one of ``players`` seats (0 first)."""
    return integer(value, where, name, 0, players - 1)


def text(value: Any, where: str, name: str, example: str) -> str:
    """``value`` if it is a string; ``example`` says what kind in the refusal."""
    if isinstance(value, str):
        return value
    raise ArgumentError(f"{where}: {name} must be {example}, not {value!r}")


def choice(value: Any, where: str, name: str, choices) -> str:
    """``value`` if it is one of the strings ``choices`` (a list or a dict would not
    even be looked up: it is unhashable).

    >>> choice([], "to_text", "form", ("sqn", "readable"))
    Traceback (most recent call last):
    seqsolve.errors.ArgumentError: to_text: form must be one of sqn, readable, not []
    """
    if isinstance(value, str) and value in choices:
        return value
    raise ArgumentError(f"{where}: {name} must be one of {', '.join(choices)}, not {value!r}")


def flag(value: Any, where: str, name: str) -> bool:
    """``value`` if it is True or False (a string such as ``"no"`` would read as True)."""
    if isinstance(value, bool):
        return value
    raise ArgumentError(f"{where}: {name} must be True or False, not {value!r}")


def seed(value: Any, where: str, name: str = "seed") -> Any:
    """``value`` if numpy can seed with it and it means what the caller meant: None, an
    int from 0, a SeedSequence, a BitGenerator or a Generator (not a bool or a float)."""
    import numpy as np

    if value is None or isinstance(
        value, (np.random.SeedSequence, np.random.BitGenerator, np.random.Generator)
    ):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 0:
        return value
    raise ArgumentError(
        f"{where}: {name} must be None, an integer from 0, a numpy SeedSequence, BitGenerator"
        f" or Generator, not {value!r}"
    )
