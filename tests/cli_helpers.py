"""Running the ``seqsolve`` command in-process, for the command tests.

``fails`` holds the promise every command makes about bad input: a non-zero exit,
nothing on stdout, and exactly one line on stderr starting ``seqsolve: ``.
"""

from __future__ import annotations

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
