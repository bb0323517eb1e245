"""``search``: the default search, truncated rollouts in the blind draw and ``mcts`` in
the draft variant.

No one search does best everywhere.  Flat rollouts that meet every candidate turn in
the same worlds, cut after 12 greedy actions and scored by the static evaluation,
score at least as much as ``mcts`` on the same deals wherever the draw is blind, with
two sides as with three, and more on most cells, against ``greedy`` and against
``heuristic`` (benchmarks/RESULTS.md, "Experiments: the search on classic and the blind draw"; on classic 2p against
``heuristic`` the two are level).
In the draft variant a cut playout is scored without what the hand's picks are worth
(``mcts``'s ``hold``), and there ``mcts`` is clearly stronger; it also keeps in every
world the cards the other seats were seen to take from the face-up draft
(``recall``), which a player at the table remembers.

``search`` is therefore one of three fixed specs, chosen by the rules' draw and seats
when a game starts: with two seats and a blind draw the rollouts also read the
opponent's last play (``infer``).  It plays exactly as that spec does, so every
figure of a spec is a figure of ``search`` in its games; the compiled loop plays the
two specs without evidence (it keeps no view from the last turn), Python the third.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ...bot import Bot, Param
from ..rules import Rules
from ..state import State

#: the search each kind of game (:func:`game_kind`) plays at the default, counted budget.
#: Rollouts: 600,000 work units hold the slowest moves (the opening's, about 100 ns a
#: unit) under 0.1 s of CPU on one core; later moves end sooner, when their 400
#: worlds are played (benchmarks/RESULTS.md, "Experiments: speed").  With two seats
#: each world is also weighed by how likely the opponent's last play was with the
#: hand it deals (``infer=0.5``, paid from the same work): +2.2 points against
#: ``heuristic`` on classic 2p, level or above on the other cells (benchmarks/RESULTS.md,
#: "Experiments: the search on classic and the blind draw"); with more seats no
#: single play lies between two turns.  In the draft variant the takes are public, and
#: ``mcts`` that deals its worlds around them (``recall``) scores about 10 points more
#: against ``greedy`` with 4 seats than without (benchmarks/RESULTS.md, "Experiments: the draft search")
SPECS: dict[str, str] = {
    "blind-2p": "rollout:depth=12,worlds=400,work=600000,infer=0.5",
    "blind": "rollout:depth=12,worlds=400,work=600000",
    "draft": "mcts:recall=true",
}

#: the same searches held to a time budget (``search:time=T``) instead of counted work
TIMED_SPECS: dict[str, str] = {
    "blind-2p": "rollout:depth=12,worlds=1000000,time={t},infer=0.5",
    "blind": "rollout:depth=12,worlds=1000000,time={t}",
    "draft": "mcts:iters=0,time={t},recall=true",
}


def game_kind(rules: Rules, evidence: bool = True) -> str:
    """The key of :data:`SPECS` that plays a game of ``rules``: its draw (``blind`` or
    ``draft``), and ``blind-2p`` for a blind draw with two seats.  Without
    ``evidence`` (one position analysed alone: there is no last play to read) a
    blind draw is ``blind`` whatever the seats."""
    if rules.draw_mode == "blind" and rules.players == 2 and evidence:
        return "blind-2p"
    return rules.draw_mode


class SearchBot(Bot):
    name = "search"
    summary = "the default search: rollouts cut at 12 actions, mcts in the draft variant"
    params: ClassVar[dict[str, Param]] = {
        "time": Param(
            float,
            0.0,
            "seconds per move (0: the counted budgets, at most about 0.1 s of CPU a move "
            "on one core, the same moves on any machine)",
            maximum=86_400.0,
        ),
    }

    wraps_a_bot = True

    def __init__(self, *, make_bot: Callable[[str], Bot], **values: Any):
        super().__init__(**values)
        self._make_bot = make_bot
        self._bots: dict[str, Bot] = {}  # by the spec each plays

    def spec_for(self, rules: Rules, evidence: bool = True) -> str:
        """The spec this bot plays in games of ``rules`` (``evidence``: see :func:`game_kind`)."""
        t = self.options["time"]
        kind = game_kind(rules, evidence)
        return TIMED_SPECS[kind].format(t=t) if t else SPECS[kind]

    def bot_for(self, rules: Rules) -> Bot:
        """The bot that plays games of ``rules`` (built once a spec, kept warm)."""
        spec = self.spec_for(rules)
        if spec not in self._bots:
            self._bots[spec] = self._make_bot(spec)
        return self._bots[spec]

    def start(self, rules: Rules, seats: str, seat: int) -> None:
        self.bot_for(rules).start(rules, seats, seat)

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        return self.bot_for(observation.rules).choose(observation, rng)

    def loop_chooser(self, rules: Rules) -> tuple[str, dict | None, int] | None:
        return self.bot_for(rules).loop_chooser(rules)

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots.clear()
