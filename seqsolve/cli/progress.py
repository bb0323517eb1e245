"""Progress on stderr while a command runs (on a terminal unless told otherwise).

One display for every long command (match, tournament, balance, annotate): a line
rewritten in place, so stdout stays clean for ``--json`` and pipes.
"""

from __future__ import annotations

import sys
import time

import click


def progress_enabled(flag: bool | None) -> bool:
    return sys.stderr.isatty() if flag is None else flag


class Progress:
    """One line on stderr per stage of a command: what it is, a bar, how many of how
    many, the rate, and a note (a match's running score).

    >>> bar = Progress(enabled=False)
    >>> bar.start("greedy vs random", 4)
    >>> bar.advance(3, note="score of greedy: 66.7%")
    >>> bar.label, bar.done, bar.total
    ('greedy vs random', 3, 4)
    """

    WIDTH = 30

    def __init__(self, enabled: bool, unit: str = "games"):
        self.enabled, self.unit = enabled, unit
        #: the stage under way (kept after :meth:`close`, for the line Ctrl-C prints)
        self.label = ""
        self.total = self.done = 0
        self.note = ""
        self.started = time.perf_counter()
        self._open = False  # a line is on stderr without its newline

    def start(self, label: str, total: int) -> None:
        """A new stage (the previous one's line is ended); its line shows from the first
        :meth:`advance` (``advance(0)`` to show it at once), so a line with a rate
        means the work is under way."""
        self.close()
        self.label, self.total, self.done, self.note = label, total, 0, ""
        self.started = time.perf_counter()

    def advance(self, count: int, note: str | None = None) -> None:
        """``count`` more done; ``note`` replaces the note when given."""
        self.done += count
        if note is not None:
            self.note = note
        self._show()

    def update(self, records: list[dict]) -> None:
        """The runners' ``on_records`` callback: finished game records."""
        self.advance(len(records))

    def _show(self) -> None:
        if not self.enabled:
            return
        filled = int(self.WIDTH * self.done / max(self.total, 1))
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        rate = self.done / max(time.perf_counter() - self.started, 1e-9)
        note = f"  {self.note}" if self.note else ""
        self._open = True  # before writing: Ctrl-C may come in the middle of it
        click.echo(
            f"\r{self.label}: [{bar}] {self.done}/{self.total} {self.unit}  {rate:.1f} {self.unit}/s{note}   ",
            err=True,
            nl=False,
        )

    def close(self) -> None:
        """End the line (nothing when none is shown)."""
        if self._open:
            click.echo("", err=True)
            self._open = False
