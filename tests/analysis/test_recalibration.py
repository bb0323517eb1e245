"""The Platt map of the win estimates: increasing (the order of the turns is kept), proofs
left exact, applied by ``analyze`` only to the default search at its default budget with
hidden cards, the one it was measured for."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seqsolve.analysis import results
from seqsolve.analysis.proof import Proof
from seqsolve.analysis.results import TurnStat, recalibrated, settle_estimates
from seqsolve.analysis.search import analyze
from seqsolve.analysis.spec import search_settings
from seqsolve.cli.position import load_position
from seqsolve.games import rules_for

MAP = (0.3, 0.7)


@given(st.floats(0.0005, 0.9995), st.floats(0.0005, 0.9995))
def test_the_map_keeps_the_order_of_estimates(p, q):
    if p < q:
        assert recalibrated(p, MAP) <= recalibrated(q, MAP)


def test_the_map_leaves_certainty_alone_and_moves_estimates():
    assert recalibrated(0.0, MAP) == 0.0 and recalibrated(1.0, MAP) == 1.0
    # a slope below 1 pulls toward the middle; the intercept lifts the mover
    assert 0.5 < recalibrated(0.5, MAP) < 0.6
    assert recalibrated(0.95, MAP) < 0.95 and recalibrated(0.02, MAP) > 0.02
    assert recalibrated(0.4, (0.0, 1.0)) == pytest.approx(0.4)


def test_settling_maps_estimates_and_their_intervals_but_not_proofs():
    won = TurnStat("JC@b6", (1,), win=0.97, win_ci=(0.9, 0.99), proof=Proof("win", 2))
    guess = TurnStat("5S@e1", (2,), win=0.95, win_ci=(0.9, 0.99))
    low = TurnStat("6S@e2", (3,), win=0.2, win_ci=(0.1, 0.3))
    lost = TurnStat("7S@e3", (4,), win=0.3, win_ci=(0.2, 0.4), proof=Proof("loss", 1))
    settle_estimates([won, guess, low, lost], MAP)
    assert (won.win, won.win_ci, lost.win, lost.win_ci) == (1.0, (1.0, 1.0), 0.0, (0.0, 0.0))
    assert guess.win == pytest.approx(recalibrated(0.95, MAP))
    assert guess.win_ci == pytest.approx((recalibrated(0.9, MAP), recalibrated(0.99, MAP)))
    assert low.win == pytest.approx(recalibrated(0.2, MAP))
    assert guess.win > low.win


def test_only_the_default_search_at_its_default_budget_gets_the_map(monkeypatch):
    rules = rules_for("classic", players=2)
    monkeypatch.setitem(results.RECALIBRATION, ("classic", 2, 2), MAP)
    assert search_settings(rules=rules).calibration == MAP
    assert search_settings(rules=rules, iterations=300).calibration is None
    assert search_settings(rules=rules, seconds=1.0).calibration is None
    assert search_settings("rollout:depth=12", rules=rules).calibration is None
    assert search_settings("mcts", rules=rules).calibration is None
    assert search_settings(rules=rules_for("classic", players=3)).calibration is None


def test_analyze_prints_the_mapped_estimates_in_the_same_order():
    state = load_position("example:2", 1)
    settings = search_settings(rules=state.rules, iterations=60)
    plain = analyze(state, settings=settings, seed=1, threats=False)
    mapped = analyze(state, settings=replace(settings, calibration=MAP), seed=1, threats=False)
    assert [m.move for m in mapped.moves] == [m.move for m in plain.moves]
    changed = 0
    for p, m in zip(plain.moves, mapped.moves):
        if p.proof is None and p.exact is None and p.win is not None:
            assert m.win == pytest.approx(min(max(recalibrated(p.win, MAP), 0.001), 0.999))
            changed += m.win != p.win
    assert changed


def test_an_open_analysis_is_not_mapped():
    """The map was measured with hidden cards: with every card known the estimates are raw."""
    state = load_position("example:4", 1)
    settings = search_settings(rules=state.rules, iterations=60)
    plain = analyze(state, settings=settings, seed=1, open_information=True, threats=False)
    mapped = analyze(state, settings=replace(settings, calibration=MAP), seed=1, open_information=True, threats=False)
    assert [(m.move, m.win) for m in mapped.moves] == [(m.move, m.win) for m in plain.moves]
