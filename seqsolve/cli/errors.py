"""How a command fails: one line on stderr, ``seqsolve: <what is wrong>``, and an
exit code (1 for bad input, 2 for a bad command line, 130 for Ctrl-C); nothing on
stdout unless the whole result is ready, and never a traceback.
"""

from __future__ import annotations

import contextlib
from typing import NoReturn

import click

from ..games.base import PositionError


class CliError(click.ClickException):
    """Bad input found by a command: one line on stderr, exit code 1."""

    exit_code = 1


class Interrupted(CliError):
    """Ctrl-C (SIGINT): one line on stderr, saying how to resume when the command
    can, and SIGINT's exit code."""

    exit_code = 130

    def __init__(self, message: str = "interrupted"):
        super().__init__(message)


@contextlib.contextmanager
def interrupt_as_error():
    """KeyboardInterrupt becomes :class:`Interrupted` before click sees it (click
    would print a blank line and call it 'aborted', exit code 1)."""
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted() from None


def one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def describe(exc: BaseException) -> str:
    """The message of an input error, as the one line users see (without ``seqsolve:``)."""
    if isinstance(exc, PositionError) and exc.line == 0:
        return f"{exc.source}: {exc.message}"  # the file itself could not be read
    if isinstance(exc, click.UsageError) and not isinstance(exc, CliError):
        where = exc.ctx.command_path if exc.ctx is not None else "seqsolve"
        return f"{exc.format_message()} (see '{where} --help')"
    if isinstance(exc, click.ClickException):
        return exc.format_message()
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)


def interrupted(bar, out: str | None, kind: str, progress: str = "") -> NoReturn:
    """Ctrl-C during a run: what is written stays; the group prints one line on how
    to resume and exits with SIGINT's code (see :class:`Interrupted`)."""
    bar.close()
    where = (
        f"; rerun the same command to resume from {out}"
        if out
        else f" (use --out {kind} to keep and resume games)"
    )
    raise Interrupted(f"interrupted{progress}{where}")
