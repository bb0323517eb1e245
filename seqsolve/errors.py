"""The root of every error seqsolve raises on purpose, so that a program embedding it
can catch them all in one ``except`` (docs/api.md, "What goes wrong").

Each error keeps the built-in base it had before this root existed (``ValueError``
for a bad input, ``RuntimeError`` for a bot that failed), so code catching those
still catches them.  Importing this module loads nothing else.
"""

from __future__ import annotations


class SeqsolveError(Exception):
    """Any error seqsolve raises on purpose; its message is one line saying what is wrong.

    >>> import seqsolve
    >>> try:
    ...     seqsolve.parse_rules("clasic")
    ... except seqsolve.SeqsolveError as exc:
    ...     print(type(exc).__name__)
    RulesError
    """


class ArgumentError(SeqsolveError, TypeError, ValueError):
    """An argument of a public function or method that has the wrong type or value; the
    message names the argument.  Both a ``TypeError`` and a ``ValueError``, so that a
    caller catching either catches it.

    >>> import seqsolve
    >>> seqsolve.parse_rules(None)
    Traceback (most recent call last):
    seqsolve.errors.ArgumentError: parse_rules: text must be a variant string such as 'classic', not None
    """
