"""A test-only Stacks bot, so that the runners (match, tournament, replay, balance) can be
driven end to end on Sequence Stacks before its own bots exist: tests put it in the
game's bots with :func:`with_random_bot` (a pytest ``monkeypatch``)."""

from __future__ import annotations

from typing import ClassVar

from seqsolve.games.bot import Bot
from seqsolve.games.external import ExternalBot
from seqsolve.games.stacks.game import StacksGame


class UniformStacksBot(Bot):
    """Uniform over the legal decisions of the seat asked (its observation)."""

    name = "random"
    summary = "test only: uniform over the legal Stacks decisions"
    params: ClassVar[dict] = {}

    def choose(self, observation, rng) -> int:
        actions = observation.legal_actions()
        return actions[int(rng.integers(len(actions)))]


def with_random_bot(monkeypatch) -> None:
    """Stacks' bots become ``random`` (this one) and ``ext`` for the rest of the test."""
    bots = {UniformStacksBot.name: UniformStacksBot, ExternalBot.name: ExternalBot}
    monkeypatch.setattr(StacksGame, "bot_classes", staticmethod(lambda: dict(bots)))
