"""Whole games of Sequence between built-in bots in the compiled loop
(``seqsolve._loop``): what :meth:`SequenceGame.loop` gives the match runner when
every bot of a match has a compiled chooser (:meth:`seqsolve.bots.Bot.loop_chooser`).

The loop plays the games the runner would play, action for action, from the same
streams; this side turns its codes back into what a record says.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import _loop
from .rules import Rules
from .state import CoreResult, State, Termination, core_rules, default_seats
from .tally import GameDetail, detail_record

#: a finished game as the runner records it: result, winning side, termination,
#: turns, actions, seconds, the moves (or None) and the balance detail (or None)
Ending = tuple[str, "int | None", str, int, int, float, "list[str] | None", "dict | None"]

_TERMINATIONS = {t.value: t.name.lower() for t in Termination}


class CompiledGames:
    """A match's bots on one rule set, ready to play whole games in C."""

    def __init__(self, rules: Rules, choosers: Sequence[tuple[str, dict | None, int]]):
        self.lineup = _loop.Lineup(core_rules(rules), list(choosers))
        self.sides = default_seats(rules)[: rules.teams]
        # actions are named by the rules alone (State.action_to_string reads no position)
        self._namer = State.new(rules, seed=0)
        self._names: dict[int, str] = {}

    def play(
        self, entropy: list[int], games: list[tuple[int, int, list[int]]], moves: bool, detail: bool
    ) -> list[Ending]:
        """Play ``games`` (``Lineup.play``'s arguments) and return how each ended."""
        return [self._ending(*end) for end in self.lineup.play(entropy, games, moves, detail)]

    def _ending(self, result, termination, turns, plies, seconds, actions, counted) -> Ending:
        winner = None if result == CoreResult.DRAW else result
        return (
            "draw" if winner is None else self.sides[winner],
            winner,
            _TERMINATIONS[termination],
            turns,
            plies,
            seconds,
            None if actions is None else self._named(actions),
            None if counted is None else detail_record(*counted),
        )

    def _named(self, actions: list[int]) -> list[str]:
        """The names of ``actions``: looked up in C (``map``) once every one has been named,
        as all but a match's first few games' have (a game has some fifty actions)."""
        try:
            return list(map(self._names.__getitem__, actions))
        except KeyError:
            return [self._name(a) for a in actions]

    def _name(self, action: int) -> str:
        name = self._names.get(action)
        if name is None:
            name = self._names[action] = self._namer.action_to_string(action)
        return name


def compiled_games(rules: Rules, choosers: Sequence[tuple | None], detail) -> CompiledGames | None:
    """The compiled loop for these bots (their ``loop_chooser(rules)``), or None when a bot
    has none or ``detail`` counts something else than :class:`GameDetail`."""
    if any(c is None for c in choosers):
        return None
    if detail is not None and type(detail(rules)) is not GameDetail:
        return None
    return CompiledGames(rules, choosers)
