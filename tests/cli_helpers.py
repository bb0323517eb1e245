"""Running the ``seqsolve`` command in-process, for the command tests.

``fails`` holds the promise every command makes about bad input: a non-zero exit,
nothing on stdout, and exactly one line on stderr starting ``seqsolve: ``.  A command's
tests bind the first argument once: ``run_cli = partial(outcome, "fair")``.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from seqsolve.cli import main


def _runner() -> CliRunner:
    try:  # click 8.1 mixes stderr into stdout unless told not to; 8.2+ keeps them apart
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def run(*args: str, input: str | None = None, env: dict | None = None):
    return _runner().invoke(main, list(args), input=input, env=env)


def ok(*args: str, **kw) -> str:
    """Run a command that must succeed; return its stdout."""
    result = run(*args, **kw)
    assert result.exit_code == 0, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result.stdout


def fails(*args: str, code: int = 1, **kw) -> str:
    """Run a command that must fail: exit ``code``, nothing on stdout, one line on stderr."""
    result = run(*args, **kw)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seqsolve: "), result.stderr
    return lines[0]


def outcome(*args: str) -> tuple[int, str, str]:
    """Run a command; return its exit code, stdout and stderr."""
    result = run(*args)
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> dict:
    """Run a command that must succeed with ``--json``; return the object it prints."""
    return json.loads(ok(*args, "--json"))


def stable(data: dict) -> dict:
    """A command's JSON without what may differ between equal runs (time, paths, the command)."""
    return {k: v for k, v in data.items() if k not in ("seconds", "out", "command")}
