"""Progress on stderr while a command runs (on a terminal unless told otherwise)."""

from __future__ import annotations

import sys
import time

import click


def progress_enabled(flag: bool | None) -> bool:
    return sys.stderr.isatty() if flag is None else flag


class Progress:
    """A one-line progress report on stderr: games done, games/s, running score."""

    def __init__(self, total: int, first_bot: str, enabled: bool):
        self.total, self.first_bot, self.enabled = total, first_bot, enabled
        self.done, self.score, self.started = 0, 0.0, time.perf_counter()

    def update(self, records: list[dict]) -> None:
        self.done += len(records)
        self.score += sum(r["score"] for r in records)
        if not self.enabled:
            return
        rate = self.done / max(time.perf_counter() - self.started, 1e-9)
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        bar = "#" * filled + "-" * (width - filled)
        mean = self.score / self.done if self.done else 0.0
        click.echo(
            f"\r[{bar}] {self.done}/{self.total} games  {rate:.1f} games/s  "
            f"score of {self.first_bot}: {100 * mean:.1f}%",
            err=True,
            nl=False,
        )

    def close(self) -> None:
        if self.enabled:
            click.echo("", err=True)
