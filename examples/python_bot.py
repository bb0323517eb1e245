"""A bot written as a Python class, played in-process by seqsolve.

    seqsolve match examples/python_bot.py:Neighbourly heuristic --games 20
    seqsolve match examples/python_bot.py:Neighbourly:greed=0.5 random --games 20

seqsolve loads the class by its spec (the file, a colon, the class; its parameters after
another colon), builds one per worker and calls ``choose`` with what the seat may see
and a seeded ``numpy.random.Generator``; the answer is an action of
``observation.legal_actions()``.  An exception or an illegal answer forfeits the game,
with the reason in the record.  See docs/api.md, "Writing a bot".
"""

from __future__ import annotations

from seqsolve import Bot, BotError, Param


class Neighbourly(Bot):
    """Puts a chip beside its own side's chips when it can, else plays at random."""

    summary = "a chip beside its own side's chips (with chance greed) when it can, else a random action"
    params = {
        "greed": Param(float, 1.0, "chance of playing beside its own chips when it can", 0, 1),
    }

    def check_rules(self, rules):
        if str(rules.variant).startswith("stacks"):
            raise BotError("bot Neighbourly plays Sequence, not Sequence Stacks")

    def start(self, rules, seats, seat):
        self.seat = seat  # this bot's seat, for the game about to start

    def choose(self, observation, rng):
        legal = observation.legal_actions()
        if rng.random() < self.options["greed"]:
            own = set(observation.chips(observation.side_of(self.seat)))
            near = [a for a in legal if self._beside(observation.action_to_move(a).cell, own)]
            if near:
                return near[int(rng.integers(len(near)))]
        return legal[int(rng.integers(len(legal)))]

    @staticmethod
    def _beside(cell, own) -> bool:
        """Whether ``cell`` (0..99, row by row; None for a move that takes no cell)
        touches one of the cells in ``own``, across a side or a corner."""
        if cell is None:
            return False
        row, col = divmod(cell, 10)
        return any(
            (r * 10 + c) in own
            for r in range(max(row - 1, 0), min(row + 2, 10))
            for c in range(max(col - 1, 0), min(col + 2, 10))
        )
