"""Whole games of Sequence Stacks between its built-in bots in the compiled loop
(``seqsolve._stacks_bots.Lineup``): what :meth:`StacksGame.loop` gives the match
runner when every bot of a match has a compiled chooser (``Bot.loop_chooser``).

The loop plays the games the runner would play, decision for decision, from the same
streams; this side turns its codes back into what a record says.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import _stacks_bots
from .actions import action_to_text
from .rules import StacksRules
from .state import SEAT_NAMES, Termination, stacks_tables
from .tally import COUNTS, StacksDetail

_DRAW = 6
_TERMINATIONS = {t.value: t.name.lower() for t in Termination}


class CompiledGames:
    """A match's Stacks bots on one rule set, ready to play whole games in C."""

    def __init__(self, rules: StacksRules, choosers: Sequence[tuple[str, dict | None, int]]):
        self.lineup = _stacks_bots.Lineup(stacks_tables(rules), list(choosers))
        self.sides = SEAT_NAMES[: rules.players]

    def play(
        self, entropy: list[int], games: list[tuple[int, int, list[int]]], moves: bool, detail: bool
    ) -> list:
        """Play ``games`` (``Lineup.play``'s arguments) and return how each ended, as
        ``seqsolve.games.sequence.loop.Ending`` says: the runner's one shape."""
        return [self._ending(*end) for end in self.lineup.play(entropy, games, moves, detail)]

    def _ending(self, result, termination, turns, plies, seconds, actions, counted) -> tuple:
        winner = None if result == _DRAW else result
        return (
            "draw" if winner is None else self.sides[winner],
            winner,
            _TERMINATIONS[termination],
            turns,
            plies,
            seconds,
            None if actions is None else [action_to_text(a) for a in actions],
            None if counted is None else _detail(counted),
        )


def _detail(counted: tuple) -> dict:
    """The ``detail`` field StacksDetail.finish writes, from the loop's counts."""
    *counts, block_decided, steal_chip_won = counted
    return {**dict(zip(COUNTS, counts)), "block_decided": block_decided, "steal_chip_won": steal_chip_won}


def compiled_games(rules: StacksRules, choosers: Sequence[tuple | None], detail) -> CompiledGames | None:
    """The compiled loop for these bots (their ``loop_chooser(rules)``), or None when a bot
    has none or ``detail`` counts something else than :class:`StacksDetail`."""
    if any(c is None for c in choosers):
        return None
    if detail is not None and type(detail(rules)) is not StacksDetail:
        return None
    return CompiledGames(rules, choosers)
