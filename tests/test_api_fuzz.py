"""Every public name of the Python API, called with arguments of wrong types and values,
raises only documented errors (``seqsolve.SeqsolveError`` and its subclasses): never a
raw AttributeError, IndexError, OverflowError or TypeError from inside."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seqsolve
from seqsolve import SeqsolveError

STN = "stacks 0> B1,B3,R5,R5,SX/?5 -/- - - 0b0r/0b0r 0/0 0 102 0 0"

#: wrong values of every kind; the names under test get them in any argument
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([-1, 0, 1, 2, 99, 2**31, 2**63, 2**70]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "classic", "stacks", "ZZ", "5H@e5", "pass", "B3", "?", "sqn", "readable"]),
    st.lists(st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=3)), max_size=3),
)

#: methods that may not be called with anything: they play without checking, or run long
UNCHECKED = {"apply_legal", "core"}


def states():
    classic = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
    return [classic, seqsolve.parse_state(STN).resample(0, 1)]


def _method_names(state) -> list[str]:
    return sorted(
        n
        for n, v in inspect.getmembers(type(state))
        if not n.startswith("_") and n not in UNCHECKED and callable(v) and not isinstance(v, property)
    )


FUNCTIONS = [
    n for n in seqsolve.__all__ if n != "__version__" and inspect.isfunction(getattr(seqsolve, n))
] + ["Move.from_str", "Variant.parse", "State.new", "State.from_position"]


def _public(name: str):
    """A name of ``seqsolve``, or a class's constructor method (``Move.from_str``)."""
    owner, _, method = name.partition(".")
    return getattr(getattr(seqsolve, owner), method) if method else getattr(seqsolve, owner)


def _arity(function) -> tuple[int, int]:
    """How many positional arguments ``function`` requires, and takes at most."""
    params = [
        p
        for p in inspect.signature(function).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return sum(p.default is p.empty for p in params), len(params)


def _calls(function, args: list) -> None:
    try:
        function(*args)
    except SeqsolveError:
        pass
    except Exception as exc:  # noqa: BLE001  (what the test exists to catch)
        pytest.fail(f"{function.__qualname__}{tuple(args)!r} raised {type(exc).__name__}: {exc}")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_public_functions_raise_only_documented_errors(data):
    name = data.draw(st.sampled_from(FUNCTIONS))
    function = _public(name)
    low, high = _arity(function)
    args = data.draw(st.lists(JUNK, min_size=low, max_size=high))
    if name == "best_move" and len(args) > 1 and data.draw(st.booleans()):
        args = [states()[0], *args[1:]]  # a real game with a junk bot spec, budget or seed
    _calls(function, args)


@pytest.mark.parametrize("which", [0, 1], ids=["sequence", "stacks"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_state_methods_raise_only_documented_errors(which, data):
    state = states()[which]
    name = data.draw(st.sampled_from(_method_names(state)))
    low, high = _arity(getattr(state, name))
    args = data.draw(st.lists(JUNK, min_size=low, max_size=high))
    _calls(getattr(state, name), args)


@settings(max_examples=60, deadline=None)
@given(
    kwargs=st.dictionaries(
        st.sampled_from(
            [
                "variant",
                "seats",
                "to_move",
                "exchange_used",
                "result",
                "discards",
                "sequences",
                "draw",
                "turn",
                "stall",
                "draft",
                "seed",
            ]
        ),
        JUNK,
        max_size=3,
    ),
    board=JUNK,
    hands=JUNK,
)
def test_make_state_raises_only_documented_errors(kwargs, board, hands):
    try:
        seqsolve.make_state(board, hands, **kwargs)
    except SeqsolveError:
        pass
