"""Restricted play: a bot that may not use one kind of action.

How much does a rule matter?  Let a bot play against the same bot that is barred
from what the rule offers, and measure the score (the "restricted play" of
Jaffe et al., *Evaluating Competitive Game Balance with Restricted Play*, AIIDE
2012).  ``restricted:no=two_eyed,bot=heuristic`` is the heuristic bot that never
places a two-eyed jack.  What can be barred (join several with ``+``):

``two_eyed``
    placing a two-eyed jack (C-2; a red jack under ``jack_identity=colour``).
``one_eyed``
    removing a chip with a one-eyed jack (C-15).
``exchange``
    exchanging a dead card (C-14); the dead card stays in hand.
``corners``
    completing a sequence through a corner (C-23): the bot never places a chip on
    the last empty cell of a five-cell line that contains a corner and whose other
    cells hold its side's chips.  It may still place chips in such lines.

The barred actions are left out by the compiled move generator itself, for the
restricted side only (``CoreRules.restricted``), so the inner bot -- whatever
it is -- chooses exactly as it would among the actions that remain; a search
bot also assumes its own side restricted in its look-ahead.  When nothing
remains (every legal action is barred), the bot plays unrestricted for that
action; ``forced`` counts how often.  The inner bot's own parameters are joined
with ``;`` instead of ``,``: ``restricted:no=corners,bot=mcts:iters=500;c=0.5``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ...bot import Bot, BotError, Param
from ..rules import Rules
from ..state import State

#: What may be barred, and the core's flag for it (``RESTRICT_*`` of ``_core.pxd``).
RESTRICTIONS: dict[str, int] = {"two_eyed": 1, "one_eyed": 2, "exchange": 4, "corners": 8}


def restriction_flags(text: str) -> int:
    """The core flags of ``two_eyed+corners``-style text.

    >>> restriction_flags("two_eyed+corners")
    9
    """
    flags = 0
    for name in filter(None, (part.strip() for part in text.split("+"))):
        if name not in RESTRICTIONS:
            raise BotError(f"bot restricted: cannot bar {name!r} (known: {', '.join(RESTRICTIONS)})")
        flags |= RESTRICTIONS[name]
    if not flags:
        raise BotError(f"bot restricted: say what is barred, no={'+'.join(RESTRICTIONS)} or a part of it")
    return flags


class RestrictedBot(Bot):
    name = "restricted"
    summary = "another bot barred from one kind of action (restricted:no=two_eyed,bot=heuristic)"
    params: ClassVar[dict[str, Param]] = {
        "no": Param(str, "", f"what is barred: {', '.join(RESTRICTIONS)} (join several with +)"),
        "bot": Param(str, "heuristic", "the bot that chooses (its own parameters joined with ';')"),
    }

    wraps_a_bot = True

    def __init__(self, *, make_bot: Callable[[str], Bot], **values: Any):
        super().__init__(**values)
        self.flags = restriction_flags(self.options["no"])
        inner = self.options["bot"].replace(";", ",")
        if inner.partition(":")[0].strip() == self.name:
            raise BotError("bot restricted: the inner bot cannot itself be restricted (join bars with +)")
        self.inner = make_bot(inner)
        self.open_information = self.inner.open_information
        self.forced = 0
        self._tables: dict = {}

    def start(self, rules: Rules, seats: str, seat: int) -> None:
        self.inner.start(rules, seats, seat)

    def restricted_view(self, observation: State) -> State:
        """The observation under tables that bar this bot's side the restricted actions."""
        core = observation.core
        side = observation.side_of(observation.current_player)
        key = (core.rules, side)
        tables = self._tables.get(key)
        if tables is None:
            tables = self._tables[key] = core.rules.restricted(side, self.flags)
        return State(observation.rules, observation.seats, core.with_rules(tables))

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        legal = set(observation.legal_actions())
        view = self.restricted_view(observation)
        allowed = [a for a in view.legal_actions() if a in legal]
        if allowed:
            action = self.inner.choose(view, rng)
            if action in legal:
                return action
            # the inner bot chose a pass that only the restriction made legal
            return allowed[int(rng.integers(len(allowed)))]
        self.forced += 1
        return self.inner.choose(observation, rng)

    def loop_chooser(self, rules: Rules) -> tuple[str, dict | None, int] | None:
        inner = self.inner.loop_chooser(rules)
        return None if inner is None else (inner[0], inner[1], self.flags)

    def close(self) -> None:
        self.inner.close()
