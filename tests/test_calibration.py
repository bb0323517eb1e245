"""benchmarks/calibration.py's scoring: the Brier score, the logistic calibration fit
(which must recover a known slope), the Platt map (monotone, proofs kept) and the
bootstrap over games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from script_helpers import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "calibration.py"


@pytest.fixture(scope="module")
def calibration():
    return load_script(SCRIPT, "calibration")


def test_brier_of_sure_right_wrong_and_even_estimates(calibration):
    assert calibration.brier([1, 0], [1, 0]) == 0
    assert calibration.brier([1, 0], [0, 1]) == 1
    assert calibration.brier([0.5] * 4, [1, 0, 0, 1]) == 0.25
    assert calibration.brier([0.8, 0.3], [1, 0]) == pytest.approx((0.04 + 0.09) / 2)


@pytest.mark.parametrize("slope,intercept", [(1.0, 0.0), (0.6, 0.3), (1.4, -0.2)])
def test_the_logistic_fit_recovers_a_known_slope_and_intercept(calibration, slope, intercept):
    """Outcomes drawn with P(win) = sigmoid(a + b logit p): the fit finds a and b."""
    rng = np.random.default_rng(5)
    p = rng.uniform(0.05, 0.95, 40_000)
    truth = 1 / (1 + np.exp(-(intercept + slope * np.log(p / (1 - p)))))
    y = (rng.random(p.size) < truth).astype(float)
    a, b = calibration.calibration_slope(p, y)
    assert b == pytest.approx(slope, abs=0.05)
    assert a == pytest.approx(intercept, abs=0.05)


def test_calibrated_estimates_score_better_than_the_base_rate(calibration):
    rng = np.random.default_rng(6)
    rows = [
        {"game": i // 3, "win": p, "outcome": float(rng.random() < p)}
        for i, p in enumerate(rng.uniform(0.05, 0.95, 600))
    ]
    f = calibration.figures(rows, draws=50)
    assert f["brier"] < f["brier_base"]
    assert f["brier_gain_ci"][0] > 0
    assert f["slope_ci"][0] < 1 < f["slope_ci"][1]
    assert f["positions"] == 600 and f["games"] == 200
    assert sum(b["n"] for b in f["reliability"]) == 600


def test_the_bootstrap_resamples_whole_games_and_repeats_from_its_seed(calibration):
    rows = [
        {"game": g, "win": w, "outcome": o}
        for g, w, o in [(0, 0.9, 1), (0, 0.8, 1), (1, 0.2, 0), (2, 0.6, 0)]
    ]
    once = calibration.bootstrap(rows, calibration.brier, draws=200, seed=3)
    assert once == calibration.bootstrap(rows, calibration.brier, draws=200, seed=3)
    assert 0 <= once[0] <= once[1] <= 1


def test_the_platt_map_is_monotone_and_keeps_proofs(calibration):
    mapping = calibration.platt_map(0.2, 0.7)
    p = np.linspace(0.001, 0.999, 500)
    mapped = mapping(p)
    assert np.all(np.diff(mapped) > 0)  # the order of the turns is kept
    assert np.all((mapped > 0) & (mapped < 1))
    assert list(mapping(np.array([0.0, 1.0]))) == [0.0, 1.0]
    # a slope below 1 pulls estimates toward the middle
    assert mapping(np.array([0.999]))[0] < 0.999 and mapping(np.array([0.001]))[0] > 0.001


def test_the_brier_difference_pairs_positions_and_resamples_games(calibration):
    """Default minus replaced over the positions both rated: negative when the default's
    estimates are nearer the outcomes, its interval from whole games, repeatable."""
    rng = np.random.default_rng(7)
    truth = rng.uniform(0.05, 0.95, 300)
    outcome = (rng.random(300) < truth).astype(float)
    sharp = [
        {"game": i // 3, "ply": i, "win": p, "outcome": y} for i, (p, y) in enumerate(zip(truth, outcome))
    ]
    blunt = [{**r, "win": 0.5} for r in sharp if r["ply"] != 5]  # one position not rated
    d = calibration.brier_difference(sharp, blunt, draws=200)
    assert d["positions"] == 299
    kept = [r for r in sharp if r["ply"] != 5]
    assert d["difference"] == pytest.approx(
        calibration.brier([r["win"] for r in kept], outcome[[r["ply"] for r in kept]]) - 0.25
    )
    assert d["difference_ci"][0] <= d["difference"] <= d["difference_ci"][1] < 0
    assert calibration.brier_difference(sharp, blunt, draws=200) == d
    assert calibration.brier_difference(blunt, blunt, draws=50)["difference_ci"] == (0.0, 0.0)


def test_each_analysis_has_its_own_cache(calibration):
    names = {
        calibration.cache_name("classic-2p", 1),
        calibration.cache_name("classic-2p", 1, replaced=True),
        calibration.cache_name("classic-2p", 1, bot="rollout:depth=0"),
        calibration.cache_name("classic-2p", 2),
    }
    assert len(names) == 4 and calibration.cache_name("classic-2p", 1) == "classic-2p-s1-analyses.jsonl"


def test_the_replaced_analysis_neither_proves_nor_weighs_the_last_play(calibration, tmp_path):
    """``--replaced`` scores the analysis the default replaced: the same search without the
    last play's evidence (classic 2p: no ``infer``) and without proofs."""
    from seqsolve.play.config import MatchConfig
    from seqsolve.play.match import run_games
    from seqsolve.play.records import read_records

    out = tmp_path / "games.jsonl"
    run_games(MatchConfig(bots=("greedy", "greedy"), seed=3), 1, jobs=1, out=str(out))
    record = read_records(str(out))[1][0]
    ply = calibration.chosen_plies(record, 3, 1)[-1]
    now = calibration.analyse_position(record, ply, 1)
    before = calibration.analyse_position(record, ply, 1, replaced=True)
    assert now["search"] == "rollout:depth=12,infer=0.5" and before["search"] == "rollout:depth=12"
    assert not before["proven"] and before["outcome"] == now["outcome"] in (0.0, 1.0)
    assert 0 <= before["win"] <= 1


def test_the_platt_fit_maps_each_group_from_the_raw_estimates(calibration):
    """A map for the positions whose worlds the last play weighed and one for the others,
    fitted on the search's own estimates; a group too small gets none, and proofs are
    neither fitted nor moved."""
    rng = np.random.default_rng(8)
    raw = rng.uniform(0.05, 0.95, 3000)
    truth = 1 / (1 + np.exp(-(0.2 + 1.5 * np.log(raw / (1 - raw)))))
    rows = [
        {
            "game": i // 3,
            "ply": i,
            "raw": p,
            "win": 0.5,
            "proven": False,
            "weighed": True,
            "outcome": float(o),
        }
        for i, (p, o) in enumerate(zip(raw, rng.random(raw.size) < truth))
    ]
    rows += [{**rows[0], "ply": -1, "weighed": False}]  # one position without the last play
    rows += [{**rows[0], "ply": -2, "raw": 1.0, "proven": True, "outcome": 0.0}]  # a proof
    fitted = calibration.platt_fit(rows)
    assert set(fitted) == {True}
    a, b = fitted[True]
    assert a == pytest.approx(0.2, abs=0.15) and b == pytest.approx(1.5, abs=0.15)
    shown = calibration.printed(rows, fitted)
    assert shown[-2]["win"] == rows[-2]["raw"]  # no map for its group: its raw estimate
    assert shown[-1]["win"] == 1.0  # the proof
    assert all(0 < r["win"] < 1 for r in shown[:-1])
    order = np.argsort(raw)
    assert np.all(np.diff([shown[i]["win"] for i in order]) >= 0)


def test_a_cached_analysis_is_brought_to_today_s_map(calibration):
    """A row analysed before (or under another) map shows what ``analyze`` prints now."""
    from seqsolve.analysis.calibration import platt_map_for

    row = {"game": 0, "ply": 3, "win": 0.3, "raw": 0.3, "proven": False, "weighed": True, "calibration": None}
    now = calibration.as_printed_now("classic-2p", row)
    mapping = platt_map_for("classic", 2, 2, True)
    assert now["win"] == mapping(0.3) and now["calibration"] == mapping.to_dict()
    assert calibration.as_printed_now("classic-2p", now) == now
    proof = {**row, "win": 0.0, "raw": 0.0, "proven": True}
    assert calibration.as_printed_now("classic-2p", proof)["win"] == 0.0
    other = calibration.as_printed_now("classic-2p", row, bot="rollout:depth=0")
    assert other["win"] == 0.3
