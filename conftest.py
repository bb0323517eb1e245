"""Collection of the package's doctests (``--doctest-modules`` over seqsolve/): the
framework wrappers in seqsolve/frameworks/ import their optional packages, so where
one is not installed (open-spiel has no wheel for Python 3.10, and the test extra
leaves it out there) that wrapper's doctests are not collected; tests/frameworks/
says why it skips."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    path
    for module, path in (
        ("pyspiel", "seqsolve/frameworks/openspiel.py"),
        ("pettingzoo", "seqsolve/frameworks/pettingzoo.py"),
    )
    if importlib.util.find_spec(module) is None
]
