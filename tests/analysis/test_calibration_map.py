"""The calibration map of the default analysis: it keeps the order of the turns, never
moves a proof, never takes an estimate to 0 or 1, and acts only on the default analysis
of a setup it was fitted for (docs/analyze.md, "Calibration")."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from seqsolve.analysis.calibration import PLATT_MAPS, PlattMap, calibrate, platt_map_for
from seqsolve.analysis.proof import Proof
from seqsolve.analysis.results import ESTIMATE_CEILING, ESTIMATE_FLOOR, TurnStat
from seqsolve.analysis.search import _calibration_for, analyze
from seqsolve.cli.analysis import format_analysis
from seqsolve.games import rules_for

#: a strong stretch and a strong squeeze, with a shift, besides the fitted maps
MAPS = [PlattMap(0.3, 2.5, "stretch"), PlattMap(-0.4, 0.4, "squeeze")] + [
    PlattMap(a, b, str(key)) for key, (a, b) in PLATT_MAPS.items()
]


def _proof(result: str) -> Proof:
    return Proof(result=result, turns=1, line=[])


def _turns() -> list[TurnStat]:
    """A ranked list as an analysis leaves it: a win at once, a forced win, estimates
    (the bounds among them) in visit order, a forced loss."""
    stats = [
        TurnStat("AH@a1", (1,), win=1.0, win_ci=(1.0, 1.0), exact="win"),
        TurnStat("KS@b2", (2,), win=1.0, win_ci=(1.0, 1.0), proof=_proof("win")),
    ]
    for i, w in enumerate([0.999, 0.8, 0.5, 0.31, 0.3, 0.05, 0.001]):
        stats.append(TurnStat(f"t{i}", (10 + i,), visits=100 - i, win=w, win_ci=(max(w - 0.02, 0.001), w)))
    stats.append(TurnStat("none", (30,)))  # never tried by the search
    stats.append(TurnStat("QD@c3", (40,), win=0.0, win_ci=(0.0, 0.0), proof=_proof("loss")))
    return stats


def test_every_fitted_map_is_increasing():
    assert PLATT_MAPS, "no map fitted"
    for a, b in PLATT_MAPS.values():
        assert b > 0 and math.isfinite(a)


@pytest.mark.parametrize("mapping", MAPS, ids=lambda m: m.setup)
def test_the_map_keeps_the_order_and_stays_strictly_inside(mapping):
    grid = [i / 1000 for i in range(1, 1000)]
    mapped = [mapping(p) for p in grid]
    assert all(x <= y for x, y in pairwise(mapped))
    assert all(ESTIMATE_FLOOR <= m <= ESTIMATE_CEILING for m in mapped)
    assert mapping(0.0) == mapping(ESTIMATE_FLOOR) and mapping(1.0) == mapping(ESTIMATE_CEILING)


@pytest.mark.parametrize("mapping", MAPS, ids=lambda m: m.setup)
def test_calibrate_moves_estimates_only(mapping):
    stats = _turns()
    before = [(s.move, s.win, s.win_ci) for s in stats]
    calibrate(stats, mapping)
    assert [s.move for s in stats] == [m for m, _, _ in before]  # the ranking is the search's
    won, proved, *estimates, untried, lost = stats
    assert (won.win, won.win_ci) == (1.0, (1.0, 1.0)) and (proved.win, proved.win_ci) == (1.0, (1.0, 1.0))
    assert (lost.win, lost.win_ci) == (0.0, (0.0, 0.0))
    assert untried.win is None and untried.win_ci is None
    for s, (_, raw, ci) in zip(estimates, before[2:]):
        assert s.raw_win == raw and s.win == mapping(raw)
        assert 0 < ESTIMATE_FLOOR <= s.win_ci[0] <= s.win <= s.win_ci[1] <= ESTIMATE_CEILING < 1
        assert s.win_ci == (mapping(ci[0]), mapping(ci[1]))
        assert s.to_dict()["win_raw"] == raw
    wins = [s.win for s in estimates]
    assert wins == sorted(wins, reverse=True)  # the estimates keep their order
    assert all(s.win not in (0.0, 1.0) for s in estimates)


def test_a_map_exists_only_for_the_setups_it_was_fitted_for():
    assert _calibration_for(rules_for("classic", players=2), True, False) is not None
    assert _calibration_for(rules_for("classic", players=2), False, False) is None  # no last play
    assert _calibration_for(rules_for("draft", players=2), False, False) is not None
    assert _calibration_for(rules_for("classic", players=4, teams=2), False, False) is not None
    assert _calibration_for(rules_for("classic", players=3), False, False) is None
    assert _calibration_for(rules_for("classic", players=6, teams=2), False, False) is None
    assert _calibration_for(rules_for("stacks", players=2), False, False) is None
    assert _calibration_for(rules_for("classic", players=2), True, True) is None  # every card known
    key = ("classic", 2, 2, True)
    assert platt_map_for(*key).to_dict() == {
        "setup": "classic, 2 players, last play weighed",
        "a": PLATT_MAPS[key][0],
        "b": PLATT_MAPS[key][1],
    }


@pytest.fixture(scope="module")
def mid_game(tmp_path_factory):
    """A classic 2-player position as its mover saw it, the opponent's last play recorded."""
    from seqsolve.play.config import MatchConfig
    from seqsolve.play.match import run_games
    from seqsolve.play.records import read_records
    from seqsolve.play.records.replay import Replay

    out = tmp_path_factory.mktemp("game") / "game.jsonl"
    run_games(MatchConfig(bots=("greedy", "greedy"), seed=4), 1, jobs=1, out=str(out))
    game = Replay(read_records(str(out))[1][0])
    state = game.state
    for step in game:
        if step.ply >= 9 and len(state.legal_actions()) > 1:
            return state.observation(step.seat), state.clone()
    raise AssertionError("no decision after ply 9")


def test_the_default_analysis_prints_the_mapped_estimates(mid_game):
    view, _ = mid_game
    a = analyze(view, seed=2, threats=False, depends=0)
    assert a.calibration == platt_map_for("classic", 2, 2, True)
    assert a.to_dict()["calibration"] == a.calibration.to_dict()
    mapped = [m for m in a.moves if m.win is not None and m.proof is None and m.exact != "win"]
    assert mapped
    for m in mapped:
        assert m.win == a.calibration(m.raw_win) and 0 < m.win < 1
    assert "calibrated on games of the default search (classic, 2 players, last play weighed)" in (
        format_analysis(a)
    )


@pytest.mark.parametrize(
    "options",
    [
        {"iterations": 400},  # an explicit budget, even the default's
        {"seconds": 0.05},
        {"bot": "rollout:depth=12,infer=0.5"},  # the default's spec, named
        {"open_information": True},
    ],
    ids=["iterations", "seconds", "spec", "open"],
)
def test_any_other_analysis_prints_the_search_s_own_estimates(mid_game, options):
    view, full = mid_game
    a = analyze(
        full if options.get("open_information") else view, seed=2, threats=False, depends=0, **options
    )
    assert a.calibration is None and a.to_dict()["calibration"] is None
    assert all(m.raw_win is None and m.to_dict()["win_raw"] == m.win for m in a.moves)
    assert "calibrated" not in format_analysis(a)


def test_a_position_without_the_last_play_or_with_other_rules_has_no_map():
    from seqsolve.cli.position import load_position

    for example in ("example:1", "example:3"):  # classic 2p, no last play; 4p teams of 3 sequences
        a = analyze(load_position(example, seed=1), seed=1, threats=False, depends=0)
        assert a.calibration is None
