"""Sequence Stacks as a :class:`~seqsolve.games.base.Game`: its rules, deals and
position files, reached by the runners the way they reach classic Sequence.

Pure Python at import: the compiled engine is loaded by the first method that deals
or reads a game, and the position text module only by the methods that read or
write one.
"""

from __future__ import annotations

from ..base import NotSupported
from .rules import StacksRules, make_rules, parse_overrides


class StacksGame:
    """The card game Sequence Stacks (RULES.md §4)."""

    name = "stacks"

    def parse_variant(self, text: str) -> dict[str, object]:
        """The options ``text`` sets (StacksRules fields), each value checked."""
        overrides = parse_overrides(text)
        make_rules(text)  # the range checks, which need no seating but a player count
        return overrides

    def rules(self, variant: str, players: int | None = None, teams: int | None = None) -> StacksRules:
        return make_rules(variant, players, teams)

    def new_initial_state(self, rules: StacksRules, seed=None):
        """A shuffled, dealt game (ST-5): the same seed deals the same cards."""
        from .state import StacksState

        return StacksState.new(rules, seed=seed)

    def read_position(self, text: str, source: str = "<string>"):
        """The state of a Stacks position file in either form (docs/stacks.md)."""
        from .position_text import parse
        from .state import StacksState

        return StacksState.from_position(parse(text, source))

    #: the forms :meth:`write_position` writes: one line (STN), readable
    position_forms = ("stn", "readable")

    def write_position(self, state, viewer: int | None = None, form: str = "stn") -> str:
        """The position file of ``state`` in ``form``, as ``viewer`` (if given) may see it."""
        from .position_text import to_readable, to_stn

        seen = state if viewer is None else state.observation(viewer)
        pos = seen.to_position()
        return to_readable(pos) if form == "readable" else to_stn(pos)

    def bot_classes(self) -> dict[str, type]:
        """The Stacks bots by name: random, greedy, mcts (seqsolve/games/stacks/bots.py)."""
        from .bots import bot_classes

        return bot_classes()

    def tally(self, rules: StacksRules):
        raise NotSupported("the balance tally is built for Sequence only, not for Sequence Stacks yet")

    def searcher(self, params: dict):
        raise NotSupported("the compiled search is built for Sequence only, not for Sequence Stacks yet")

    def __repr__(self) -> str:
        return "STACKS"

    def __reduce__(self):
        return "STACKS"  # one game object per process: pickles by name, to worker processes


STACKS = StacksGame()
