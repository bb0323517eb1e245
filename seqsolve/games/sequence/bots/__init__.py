"""Sequence's bots by name: what :meth:`SequenceGame.bot_classes
<seqsolve.games.sequence.game.SequenceGame.bot_classes>` offers to :func:`seqsolve.bots.make_bot`
(a module of its own, so that the game reaches its bots without importing the registry)."""

from __future__ import annotations

from ...bot import Bot


def sequence_bots() -> dict[str, type[Bot]]:
    """Sequence's bots by name (imported on demand: some load compiled modules)."""
    from ...external import ExternalBot
    from .default_search import SearchBot
    from .restricted import RestrictedBot
    from .search import GreedyBot, HeuristicBot, MCTSBot, RolloutBot
    from .simple import RandomBot

    found = [RandomBot, GreedyBot, HeuristicBot, MCTSBot, RolloutBot, SearchBot, RestrictedBot, ExternalBot]
    return {cls.name: cls for cls in found}
