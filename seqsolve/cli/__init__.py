"""The ``seqsolve`` command line (Click): one module per command group.

:mod:`.position` (show, apply, convert, perft, bench), :mod:`.match` (match,
tournament, replay, bots), :mod:`.analysis` (analyze, annotate) and
:mod:`.balance` (balance), :mod:`.fair` (fair), :mod:`.play` (play), :mod:`.serve` (serve); the options they share are in :mod:`.options`, the way
they fail in :mod:`.errors`.  The commands are thin: they call the modules that do
the work, importing the heavy ones (numpy, joblib, the compiled core) inside the
command so that --help and every usage error answer at once; a command's module is
itself imported only when that command runs.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

import click

from .. import __version__
from .errors import describe, interrupt_as_error, one_line

__all__ = ["main"]

#: each command's module (its ``COMMANDS``), imported when the command runs or
#: --help lists them: ``seqsolve match`` then imports no other command's module and
#: what it alone needs (a twentieth of a CPU second, while no worker plays yet)
_HOMES = {
    **dict.fromkeys(("show", "apply", "convert", "perft", "bench"), "position"),
    **dict.fromkeys(("match", "tournament", "replay", "bots"), "match"),
    **dict.fromkeys(("analyze", "annotate"), "analysis"),
    "balance": "balance",
    "fair": "fair",
    "play": "play",
    "serve": "serve",
}


# click >= 8.2 raises this for a bare ``seqsolve``; older versions print the help themselves.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _Group(click.Group):
    """A group whose errors are one line on stderr (``seqsolve: ...``), never a traceback,
    and whose commands are imported on first use (:data:`_HOMES`)."""

    def list_commands(self, ctx) -> list[str]:
        return sorted(_HOMES)

    def get_command(self, ctx, name: str) -> click.Command | None:
        if name not in self.commands and name in _HOMES:
            for command in import_module(f".{_HOMES[name]}", __name__).COMMANDS:
                self.add_command(command)
        return self.commands.get(name)

    def make_context(self, *args, **kwargs):
        with interrupt_as_error():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with interrupt_as_error():
            return super().invoke(ctx)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS_IS_HELP as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.ClickException as exc:
            self._fail(describe(exc), exc.exit_code)
        except click.Abort:
            self._fail("aborted", 1)
        except BrokenPipeError:
            # the reader went away (``seqsolve show ... | head``): stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except (ValueError, OSError) as exc:  # PositionError, RulesError, move errors, files
            if os.environ.get("SEQSOLVE_DEBUG"):
                raise
            self._fail(describe(exc), 1)
        sys.exit(0)

    @staticmethod
    def _fail(message: str, code: int) -> None:
        click.echo(f"seqsolve: {one_line(message)}", err=True)
        sys.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="seqsolve", message="%(prog)s %(version)s")
def main() -> None:
    """seqsolve: a rules engine and bots for the board game Sequence.

    A position FILE is a path to an SQN or readable position file (RULES.md §5),
    '-' for standard input, or example:N for a bundled example: 1, 2 and 3 are
    the worked examples of RULES.md §5.5, 4 is a mid-game with every card known.

    \b
    Examples:
      seqsolve show --example 2
      seqsolve show --new --seed 1 --play-random
      seqsolve apply example:2 AH@f2 --to readable
      seqsolve perft example:4 --depth 3 --divide
      seqsolve bench
    """
