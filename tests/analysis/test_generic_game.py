"""``analyze`` speaks only the game interface (issue 12): a toy game whose turn is one or
two decisions of one player, with a searcher and no tactics, is analysed decision by
decision, its continuations shown in whole turns."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from seqsolve.analysis import search
from seqsolve.analysis.search import analyze
from seqsolve.analysis.spec import SearchSettings
from seqsolve.games.base import NotSupported

GOAL = 6
#: the search budget, given directly: the toy game has no mcts bot to read parameters from
BUDGET = SearchSettings(params={}, iterations=6, seconds=0.0, spec="mcts")
#: +1 ending the turn, +2 ending the turn, +1 and decide again (never twice in a turn)
NAMES = ("+1", "+2", "+1..")


@dataclass(frozen=True)
class _Rules:
    variant: str = "race"
    players: int = 2
    teams: int = 2


@dataclass(frozen=True)
class _Outcome:
    winner: str

    @property
    def result(self) -> str:
        return self.winner


class Race:
    """Two players add to one count; whoever brings it to GOAL wins."""

    rules = _Rules()
    seats = sides = "ab"

    def __init__(self, count: int = 0, mover: int = 0, again: bool = False):
        self.count, self.mover, self.again = count, mover, again

    current_player = property(lambda self: None if self.is_terminal() else self.mover)
    turn = property(lambda self: self.count)

    def side_of(self, seat: int) -> int:
        return seat

    def is_terminal(self) -> bool:
        return self.count >= GOAL

    def outcome(self):
        return _Outcome(self.sides[1 - self.mover]) if self.is_terminal() else None

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1] if self.again else [0, 1, 2]

    def ends_turn(self, action: int) -> bool:
        return action != 2

    def apply(self, action: int) -> None:
        self.count += 2 if action == 1 else 1
        self.again = action == 2
        if not self.again and not self.is_terminal():
            self.mover = 1 - self.mover
        elif self.is_terminal():
            self.mover = 1 - self.mover  # the winner is the one who moved last

    def clone(self) -> Race:
        return Race(self.count, self.mover, self.again)

    observation = lambda self, player: self.clone()  # nothing is hidden
    has_hidden_cards = lambda self: False
    hidden_cards = lambda self: []
    hand = lambda self, seat: []

    def action_to_string(self, action: int) -> str:
        return NAMES[action]


class _Searcher:
    """Visits each root action in proportion to how close it brings the count to GOAL."""

    def search(self, state, viewer, bit_generator, **budget) -> dict:
        self.legal = state.legal_actions()
        return {"iterations": budget["iterations"], "seconds": 0.0, "value": 0.5}

    def root_stats(self, pv_length: int) -> list[dict]:
        weight = {0: 1, 1: 3, 2: 2}
        return [
            {"action": a, "visits": weight[a], "value": 0.5, "pv": [a, 0] if a == 2 else [a]}
            for a in self.legal
        ]

    @staticmethod
    def evaluate(state, side: int) -> float:
        return 0.5


class RaceGame:
    name = "race"

    def searcher(self, params: dict):
        return _Searcher()

    def tactics(self, view, open_information: bool):
        raise NotSupported("race has no tactics")

    def write_position(self, state, viewer=None, form="sqn") -> str:
        return f"race {state.count} {state.mover}"


@pytest.fixture
def race(monkeypatch):
    game = RaceGame()
    monkeypatch.setattr(search, "game_for", lambda variant: game if variant == "race" else None)
    return game


def test_every_decision_of_a_game_without_tactics_is_ranked_on_its_own(race):
    analysis = analyze(Race(count=2), settings=BUDGET, seed=0, threats=True)
    assert [m.move for m in analysis.moves] == ["+2", "+1..", "+1"]  # by visits
    assert [m.actions for m in analysis.moves] == [(1,), (2,), (0,)]
    assert analysis.moves[1].pv == ["+1.. +1"]  # the tree's line, in whole turns
    assert analysis.tactics.threats == [] and analysis.threats is None
    assert analysis.position == "race 2 0" and analysis.side == "a"


def test_the_second_decision_of_a_turn_and_an_exact_win(race):
    analysis = analyze(Race(count=4, mover=1, again=True), settings=BUDGET, seed=0)
    assert analysis.to_move == 1 and {m.move for m in analysis.moves} == {"+1", "+2"}
    best = analysis.moves[0]
    assert best.move == "+2" and best.exact == "win" and best.win == 1.0  # found by playing it
    assert analysis.tactics.win_in_one == ["+2"]
