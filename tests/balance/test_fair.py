"""The race for the fairest compensation (``seqsolve fair``): the anytime-valid
interval, the race's rule on known rates, and the command on a few hundred greedy games."""

from __future__ import annotations

import json
import math
import os
from functools import partial

import numpy as np
import pytest
from cli_helpers import outcome
from cli_helpers import run_json as _run_json
from cli_helpers import stable as _stable

from seqsolve.balance.race import RacePlan, candidates_of, drops, race, uniform_grid
from seqsolve.balance.sequential import (
    bet_for_games,
    bet_interval,
    fixed_games,
    fixed_half_width,
    half_width,
    sequence_games_for,
    tuned_rho,
)
from seqsolve.play.records import read_records

FAST = ("--bot", "greedy", "--jobs", "1", "--no-progress")
#: the original, one extra card, and seven: the second seat's hand twice the first's
RACE = ("classic", "--try", "hand_bonus=1,7", "--batch", "20", "--budget", "400", "--seed", "5")


run_cli = partial(outcome, "fair")
run_json = partial(_run_json, "fair")


# ---------------------------------------------------------------- the interval


def _paths(probabilities, paths: int, games: int, seed: int) -> np.ndarray:
    """``paths`` independent sequences of ``games`` scores: 0, 1/3 (a draw of three
    sides) or 1 with the given probabilities."""
    values = np.array([0.0, 1 / 3, 1.0])
    return values[np.random.default_rng(seed).choice(3, size=(paths, games), p=probabilities)]


@pytest.mark.parametrize(
    ("probabilities", "sides"),
    [((0.5, 0.0, 0.5), 2), ((0.62, 0.06, 0.32), 3)],  # two sides; three with draws, near their fair share
)
def test_betting_sequence_covers_at_every_look_where_the_fixed_one_does_not(probabilities, sides):
    alpha, games, every = 0.05, 2000, 20
    looks = np.arange(every, games + 1, every)
    scores = _paths(probabilities, 1500, games, seed=sides)
    mean = float(np.dot(probabilities, [0.0, 1 / 3, 1.0]))
    variance = float(np.dot(probabilities, (np.array([0.0, 1 / 3, 1.0]) - mean) ** 2))
    bet = bet_for_games(games, alpha, 1 / sides * (1 - 1 / sides))
    # the interval leaves out the true mean exactly when a capital bet against it reaches 2/alpha
    threshold = np.log(2 / alpha)
    up = np.cumsum(np.log1p(bet * (scores - mean)), axis=1)[:, looks - 1]
    down = np.cumsum(np.log1p(-bet * (scores - mean)), axis=1)[:, looks - 1]
    missed_sequential = np.mean(np.any(np.maximum(up, down) >= threshold, axis=1))
    running = np.cumsum(scores, axis=1)[:, looks - 1] / looks
    fixed = fixed_half_width(looks, alpha, variance)  # the fixed-n interval at the true variance
    missed_fixed = np.mean(np.any(np.abs(running - mean) >= fixed, axis=1))
    assert missed_sequential <= alpha  # valid at all 100 looks at once
    assert missed_fixed > 3 * alpha  # the fixed-n interval, looked at 100 times, is not
    assert abs(np.mean(np.abs(running[:, -1] - mean) >= fixed[-1]) - alpha) < 0.02  # right at one look
    # the interval is that set: just inside its ends no capital has reached 2/alpha, just outside one has
    for path in scores[:5]:
        _, low, high = bet_interval(path[:1000], alpha, bet)
        for end, side in ((low, 1.0), (high, -1.0)):
            if 0 < end < 1:
                inside = np.sum(np.log1p(side * bet * (path[:1000] - (end + side * 1e-6))))
                outside = np.sum(np.log1p(side * bet * (path[:1000] - (end - side * 1e-6))))
                assert inside < threshold <= outside
    # the price of looking whenever one likes, and how much the bet saves on the normal mixture
    _, low, high = bet_interval(scores[0], alpha, bet)
    assert fixed[-1] < (high - low) / 2 < half_width(games, alpha, tuned_rho(games, alpha))


def test_interval_is_clipped_and_empty_without_games():
    assert bet_interval([], 0.05, 0.1)[1:] == (0.0, 1.0)
    mean, low, high = bet_interval([1.0] * 10, 0.05, 0.5)
    assert mean == 1.0 and high == 1.0 and low < 1.0
    with pytest.raises(ValueError):
        bet_interval([0.5], 0.05, 1.0)


# ---------------------------------------------------------------- the race's rule


def _known_rates(rates, seed=0):
    rng = np.random.default_rng(seed)
    games = [(rng.random(100_000) < r).astype(float) for r in rates]
    return lambda i, n: games[i][:n]


def test_race_drops_the_unfair_and_keeps_the_fair():
    result = race(
        _known_rates([0.56, 0.5, 0.75, 0.48]),
        [0.5] * 4,
        100,
        40_000,
        RacePlan(bet_for_games(2000, 0.05), None, 0),
    )
    assert result.dropped[1] is None and result.ranking()[0] == 1
    assert result.dropped[2] is not None and result.dropped[2] <= 2  # 25 points off: gone at once
    assert result.dropped[0] is not None  # 6 points off: later, once its interval leaves 0
    assert result.games[2] < result.games[0] <= result.games[1]
    assert result.spent == sum(100 * len(r["intervals"]) for r in result.rounds)


def test_race_stops_at_the_budget_and_never_drops_everyone():
    result = race(
        _known_rates([0.7, 0.72]), [0.5, 0.5], 50, 1000, RacePlan(bet_for_games(500, 0.05), None, 0)
    )
    assert [d is None for d in result.dropped].count(True) >= 1
    assert result.spent <= 1000 and "budget" in result.stopped or "left" in result.stopped
    # none fair: the one surely further from 0 than the other goes
    assert drops({0: (0.3, 0.25, 0.35), 1: (0.1, 0.05, 0.15)}) == [0]
    assert drops({0: (0.1, 0.05, 0.15), 1: (0.12, 0.06, 0.18)}) == []


def _simulated_race(advantages, sides, seed, precision=0.02, budget=100_000, most=1, within=math.inf):
    """A race on candidates of known advantage (points), planned as ``fair`` plans it."""
    share = 1 / sides
    rates = [a / 100 + share for a in advantages]
    plan = RacePlan.of(len(rates), sides, 100, budget, 0.95, precision)
    result = race(_known_rates(rates, seed), [share] * len(rates), 100, budget, plan, 1, most, within)
    return result, plan, rates


def test_the_confirmation_interval_holds_the_picks_advantage_in_95_percent_of_races():
    """The pick is chosen on its first games and judged on new ones: its fixed-n interval
    stays valid although the pick is the candidate that looked fairest."""
    held, picks = [], []
    for seed in range(60):
        result, plan, rates = _simulated_race([3.0, -1.0, 0.5, -6.0], 2, seed, precision=0.03)
        c = result.confirmed
        assert c is not None and c["games"] == plan.confirm == fixed_games(0.03, 0.25, 0.05)
        _, low, high = result.intervals[c["candidate"]]
        held.append(low <= rates[c["candidate"]] - 0.5 <= high)
        picks.append(c["candidate"])
        assert result.games[c["candidate"]] == c["selection_games"] + c["games"]
    # mostly one of the two nearest 0; the selection knows them only to 7.5 points
    assert np.mean([p in (1, 2) for p in picks]) >= 0.7
    assert np.mean(held) >= 0.88  # 95% expected; 60 races


@pytest.mark.parametrize(
    ("advantages", "sides"),
    [
        ([4, -2, -7, 2.5, -3.5, -8.5, 1, -5, -10], 2),  # hand_bonus 0-2 crossed with a rule worth 0/-1.5/-3
        ([5, -1, -6, 3.5, -2.5, -7.5, 2, -4, -9], 3),  # the same with three sides
    ],
)
def test_the_race_needs_at_most_a_third_of_a_uniform_grids_games(advantages, sides):
    """Issue 39's goal, on a simulated candidate set: the grid plays every candidate to
    the precision the race reached on its pick, with fixed-n intervals."""
    race_games = grid_games = 0
    picked = []
    for seed in range(8):
        result, _, _ = _simulated_race(advantages, sides, seed, precision=0.01)
        pick = result.ranking()[0]
        picked.append(abs(advantages[pick]))
        scores = _known_rates([a / 100 + 1 / sides for a in advantages], seed)(pick, result.games[pick])
        grid = uniform_grid(result, pick, scores, 0.95)
        assert 0.008 <= grid["half_width"] <= 0.012  # the precision asked for, 1 pp
        assert grid["fixed_interval"] == len(advantages) * grid["fixed_interval_games_each"]
        race_games += grid["race_games"]
        grid_games += grid["fixed_interval"]
    assert race_games <= grid_games / 3
    # the pick: at most the selection's 2.5 points from the fairest, within 1 point on average
    assert max(picked) <= min(map(abs, advantages)) + 2.5 and np.mean(picked) <= min(map(abs, advantages)) + 1


def test_a_race_without_the_budget_for_a_confirmation_has_one_stage():
    result, plan, _ = _simulated_race([3.0, -1.0, 0.5], 2, 0, precision=0.01, budget=6000)
    assert plan.confirm == 0 and plan.select_width is None and result.confirmed is None
    assert plan.bet == pytest.approx(bet_for_games(2000, 0.05))  # tuned for budget / candidates
    assert sequence_games_for(0.025, 0.05) > fixed_games(0.025, 0.25, 0.05) * 2  # the normal mixture's price


def _turning(selection: float, after: float, turn: int = 1500):
    """Scores in exact blocks: a mean of ``selection`` for the first ``turn`` games (the
    selection's), ``after`` from then on (the confirmation's)."""

    def block(mean: float) -> np.ndarray:
        ones = round(mean * 100)
        return np.array([1.0] * ones + [0.0] * (100 - ones))[np.random.default_rng(ones).permutation(100)]

    return np.concatenate([np.tile(block(selection), turn // 100), np.tile(block(after), 400)])


def _race_of(games, budget=40_000, most=3, within=0.04, precision=0.02):
    plan = RacePlan.of(len(games), 2, 100, budget, 0.95, precision)
    result = race(lambda i, n: games[i][:n], [0.5] * len(games), 100, budget, plan, 1, most, within)
    return result, plan


def test_a_pick_outside_the_tolerance_hands_over_to_the_next_candidate_left():
    """The pick looked fair in the selection and is 10 points off on new games; the
    next left, 2 points off in the selection, is fair on its new games and is the answer."""
    games = [_turning(0.5, 0.4), _turning(0.52, 0.5), np.ones(60_000)]
    result, plan = _race_of(games)
    assert result.dropped[2] == 1 and result.dropped[0] is None and result.dropped[1] is None
    first, second = result.confirmations
    assert (first["candidate"], first["within"]) == (0, False) and first["interval"][2] < -0.04
    assert (second["candidate"], second["within"]) == (1, True)
    assert result.confirmed is second and result.ranking()[0] == 1
    # both at the Bonferroni level of the two the race could confirm, each sized for the precision there
    games_each = plan.confirmation_games(2)
    assert games_each == fixed_games(0.02, 0.25, 0.025) > plan.confirm
    for c in (first, second):
        assert c["level"] == pytest.approx(0.975) and c["games"] == games_each and c["planned"] == 2
        assert result.games[c["candidate"]] == c["selection_games"] + games_each
        assert c["interval"][2] - c["interval"][1] <= 2 * 0.02 + 1e-9
    assert (
        result.intervals[0] == tuple(first["interval"])
        and "confirmation 2 lies within" in result.confirm_stopped
    )
    assert result.spent == sum(result.games) <= 40_000
    # the grid prices the same claim: the answer's precision at its level, every confirmation paid by the race
    grid = uniform_grid(result, 1, games[1][: result.games[1]], 0.95)
    assert grid["level"] == pytest.approx(0.975) and grid["race_games"] == result.spent
    assert grid["race_share"] == pytest.approx(result.spent / grid["fixed_interval"])
    # --confirm 1: the pick alone, at 95%, reported although outside the tolerance
    result, plan = _race_of(games, most=1)
    (only,) = result.confirmations
    assert only["candidate"] == 0 and only["level"] == pytest.approx(0.95) and only["games"] == plan.confirm
    assert result.confirmed is only and "in --confirm 1" in result.confirm_stopped


def test_the_budget_decides_how_many_may_be_confirmed_before_the_first():
    """Three left, none fair on new games but the third: the budget pays for two at
    their Bonferroni size, so two are confirmed and the third never starts."""
    games = [_turning(0.5, 0.4), _turning(0.51, 0.6), _turning(0.52, 0.5), np.ones(60_000)]
    roomy, plan = _race_of(games)
    assert [c["candidate"] for c in roomy.confirmations] == [0, 1, 2] and roomy.confirmed["candidate"] == 2
    selection = sum(roomy.games) - 3 * plan.confirmation_games(3)
    budget = selection + 2 * plan.confirmation_games(2) + 100  # not 3 x confirmation_games(3)
    result, _ = _race_of(games, budget=budget)
    assert [c["candidate"] for c in result.confirmations] == [0, 1]
    assert all(c["planned"] == 2 and c["level"] == pytest.approx(0.975) for c in result.confirmations)
    assert "the budget pays for 2 confirmations" in result.confirm_stopped and result.spent <= budget
    # none within: the answer is the one nearest 0, of those confirmed
    assert result.games[2] == roomy.confirmations[2]["selection_games"]  # the third kept its selection games
    assert abs(result.confirmed["interval"][0]) <= min(abs(c["interval"][0]) for c in result.confirmations)
    # one that pays for a single confirmation only: today's race, the pick at 95%
    result, _ = _race_of(games, budget=selection + plan.confirm + 100)
    assert [(c["candidate"], c["planned"]) for c in result.confirmations] == [(0, 1)]
    # no interval of +-precision can lie within a tolerance no wider: one confirmation, and why
    result, _ = _race_of(games, within=0.02)
    assert len(result.confirmations) == 1 and "--precision" in result.confirm_stopped


def test_candidates_are_the_original_and_every_combination():
    labels = [p.label for p in candidates_of("classic", ["hand_bonus=1,2", "first_turn_jacks=off"], 4, 2)]
    assert labels[0] == "classic 4p/2t" and len(labels) == 6
    assert "classic[hand_bonus=2,first_turn_jacks=off] 4p/2t" in labels
    # --separate: one option changed at a time
    labels = [
        p.label for p in candidates_of("classic", ["hand_bonus=1,2", "first_turn_jacks=off"], separate=True)
    ]
    assert labels == [
        "classic 2p",
        "classic[hand_bonus=1] 2p",
        "classic[hand_bonus=2] 2p",
        "classic[first_turn_jacks=off] 2p",
    ]
    # a tried value equal to the original's is the original, not a second candidate
    assert [p.label for p in candidates_of("classic[hand_bonus=1]", ["hand_bonus=0,1"])] == [
        "classic[hand_bonus=1] 2p",
        "classic[hand_bonus=0] 2p",
    ]


# ---------------------------------------------------------------- the command


def test_race_drops_a_clearly_unfair_candidate_and_reports_the_costs():
    data = run_json(*RACE, *FAST)
    by_label = {c["label"]: c for c in data["candidates"]}
    unfair = by_label["classic[hand_bonus=7] 2p"]
    assert unfair["dropped_in_round"] is not None
    assert unfair["first_seat_advantage_cs"][1] < 0  # the seat with twice the cards wins
    assert data["ranking"][-1] == unfair["label"]
    assert unfair["games"] < max(c["games"] for c in data["candidates"])
    assert data["race"]["games"] == sum(c["games"] for c in data["candidates"]) <= 400
    grid = data["uniform_grid"]
    assert grid["race_games"] == data["race"]["games"] and grid["same_sequence"] >= grid["race_games"]
    # the original is reported first, with balance's metrics, then the best
    reported = data["reported"]
    assert reported[0]["label"] == "classic 2p" and reported[0]["games"] == by_label["classic 2p"]["games"]
    assert {"turns", "draw_rate", "terminations", "jacks_mean", "exchanges_mean"} <= reported[0].keys()
    assert all("delta" in r for r in reported[1:])


def test_same_seed_same_race_whatever_jobs():
    one = run_json(*RACE, *FAST)
    two = run_json(*RACE, "--bot", "greedy", "--jobs", "2", "--no-progress")
    assert _stable(one) == _stable(two)
    other = run_json(*RACE[:-1], "6", *FAST)
    assert other["candidates"] != one["candidates"]


def test_interrupted_race_resumes_to_the_same_answer(tmp_path):
    out = tmp_path / "race"
    args = (*RACE, "--out", str(out), "--no-plots", *FAST)
    first = run_json(*args)
    # an interruption: one candidate's last games lost, the last record cut short, no report yet
    path = out / candidates_of("classic", ["hand_bonus=1"])[1].slug / "self.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:25]) + lines[25][:-30])
    (out / "fair.json").unlink()
    resumed = run_json(*args)
    assert _stable(resumed) == _stable(first)
    _, records = read_records(str(path))
    assert [r["game"] for r in records] == list(range(first["candidates"][1]["games"]))
    fresh = run_json(*RACE, *FAST)
    assert _stable(fresh) == _stable(first)
    # without --seed the folder's seed is used; another seed is refused
    again = run_json(*RACE[:-2], "--out", str(out), "--no-plots", *FAST)
    assert again["seed"] == 5 and again["candidates"] == first["candidates"]
    code, _, err = run_cli(*RACE[:-1], "6", "--out", str(out), *FAST)
    assert code == 1 and "holds a fair run with seed=5" in err


def test_a_race_with_a_confirmation_reports_it_and_resumes_to_the_same_answer(tmp_path):
    """--precision 10: about a hundred new games confirm the pick, within the budget of 400."""
    out = tmp_path / "race"
    args = (*RACE, "--precision", "10", "--out", str(out), "--no-plots", *FAST)
    first = run_json(*args)
    conf = first["race"]["confirmation"]
    confirm = fixed_games(0.1, 0.25, 0.05)
    assert conf["games"] == confirm and first["race"]["selection_width"] == pytest.approx(0.25)
    pick = next(c for c in first["candidates"] if c["label"] == conf["candidate"])
    assert first["ranking"][0] == conf["candidate"] and pick["dropped_in_round"] is None
    assert pick["games"] == conf["selection_games"] + confirm
    assert pick["first_seat_advantage_cs"] == conf["first_seat_advantage_ci"]
    grid = first["uniform_grid"]
    assert grid["race_share"] == pytest.approx(grid["race_games"] / grid["fixed_interval"])
    assert first["race"]["games"] <= 400
    # resumed after the confirmation's records lost their tail: the same race
    path = (
        out
        / next(p for p in candidates_of("classic", ["hand_bonus=1,7"]) if p.label == conf["candidate"]).slug
    )
    lines = (path / "self.jsonl").read_text().splitlines(keepends=True)
    (path / "self.jsonl").write_text("".join(lines[: len(lines) - 40]))
    (out / "fair.json").unlink()
    assert _stable(run_json(*args)) == _stable(first)
    two = run_json(*RACE, "--precision", "10", "--bot", "greedy", "--jobs", "2", "--no-progress")
    assert _stable(two) == _stable(run_json(*RACE, "--precision", "10", *FAST))  # and whatever --jobs
    code, stdout, _ = run_cli(*RACE, "--precision", "10", *FAST)
    assert code == 0 and f"confirmed on {confirm} new games" in stdout and "of a uniform grid's" in stdout


def test_the_next_candidate_left_is_confirmed_and_a_rerun_resumes_across_the_confirmations(tmp_path):
    """--precision 10 --within 14: the pick (one extra card) lands outside +-14 points on
    its new games, the original inside; the answer is the original, and a rerun after
    both confirmations lost their last games gives the same race."""
    out = tmp_path / "race"
    args = (*RACE, "--precision", "10", "--within", "14", "--out", str(out), "--no-plots", *FAST)
    first = run_json(*args)
    race_data = first["race"]
    first_pick, second = race_data["confirmations"]
    assert (first_pick["candidate"], first_pick["within"]) == ("classic[hand_bonus=1] 2p", False)
    assert (second["candidate"], second["within"]) == ("classic 2p", True)
    assert race_data["confirmation"] == second and first["ranking"][0] == "classic 2p"
    assert race_data["within"] == pytest.approx(0.14) and race_data["confirm"] == 3
    each = fixed_games(0.1, 0.25, 0.025)  # the Bonferroni level of two confirmations
    assert first_pick["games"] == second["games"] == each and second["level"] == pytest.approx(0.975)
    by_label = {c["label"]: c for c in first["candidates"]}
    for c in (first_pick, second):
        assert by_label[c["candidate"]]["games"] == c["selection_games"] + each
        assert by_label[c["candidate"]]["first_seat_advantage_cs"] == c["first_seat_advantage_ci"]
    assert (
        race_data["games"] == sum(c["games"] for c in first["candidates"]) <= 400
    )  # both confirmations paid
    assert first["uniform_grid"]["race_games"] == race_data["games"]
    for c in (first_pick, second):  # an interruption in each confirmation
        path = (
            out
            / next(p for p in candidates_of("classic", ["hand_bonus=1,7"]) if p.label == c["candidate"]).slug
        )
        lines = (path / "self.jsonl").read_text().splitlines(keepends=True)
        (path / "self.jsonl").write_text("".join(lines[: len(lines) - 60]))
    (out / "fair.json").unlink()
    assert _stable(run_json(*args)) == _stable(first)
    # the same games answer another tolerance: --within may change on a rerun of the folder
    code, stdout, _ = run_cli(*RACE, "--precision", "10", "--within", "11", "--out", str(out), *FAST)
    assert code == 0 and "the answer, confirmed on" in stdout and "not within ±11.0 pp" in stdout
    assert "the budget pays for 2 confirmations of 126 games, not 3" in stdout  # the third left never starts
    assert "Bonferroni level 1 - 0.05/2" in stdout and "winner's curse" in stdout
    assert "Bonferroni" in (out / "fair.md").read_text()
    two = run_json(
        *RACE, "--precision", "10", "--within", "14", "--bot", "greedy", "--jobs", "2", "--no-progress"
    )
    assert _stable(two)["race"] == _stable(first)["race"] and two["candidates"] == first["candidates"]


def test_out_writes_json_report_and_plot_and_skill(tmp_path):
    out = tmp_path / "race"
    code, stdout, err = run_cli(
        *RACE, "--out", str(out), "--weak", "random", "--match-games", "4", "--best", "1", *FAST
    )
    assert code == 0, err
    assert "rank" in stdout and "dropped in round" in stdout and "written:" in stdout
    data = json.loads((out / "fair.json").read_text())
    assert [r["skill"]["bots"] for r in data["reported"]] == [["greedy", "random"]] * 2
    assert len(data["reported"]) == 2  # the original and --best 1
    report = (out / "fair.md").read_text()
    assert "![seat advantage" in report and "fair/advantage.png" in report
    assert (out / "fair" / "advantage.png").read_bytes()[:4] == b"\x89PNG"
    # a folder holding something else (here the plot's) is refused
    code, _, err = run_cli(*RACE, "--out", str(out / "fair"), *FAST)
    assert code == 1 and "not empty" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("classic", "--try", "nosuch=1"), "--try 'nosuch=1': unknown option 'nosuch'"),
        (
            ("classic", "--try", "hand_bonus=x"),
            "--try 'hand_bonus=x': option hand_bonus takes a whole number",
        ),
        (("classic", "--try", "hand_bonus=99"), "--try 'hand_bonus=99': option hand_bonus must be"),
        (("classic", "--try", "hand_bonus"), "expected OPTION=VALUE"),
        (("classic", "--try", "players=3"), "players is the seating"),
        (("classic", "--try", "hand_bonus=1,1"), "a value is given twice"),
        (("classic", "--try", "hand_bonus=0"), "nothing to race"),
        (("classic",), "give at least one --try"),
        (("nosuch", "--try", "hand_bonus=1"), "VARIANT 'nosuch': unknown preset"),
        (("classic", "--try", "hand_bonus=1", "--bot", "nosuchbot"), "unknown bot 'nosuchbot'"),
        (("classic", "--try", "hand_bonus=1", "--budget", "10"), "does not pay for one round"),
        (("classic", "--try", "hand_bonus=1", "--strong", "greedy"), "--strong goes with --weak"),
        (("classic", "--try", "hand_bonus=1", "--level", "2"), "--level"),
        (("classic", "--try", "hand_bonus=1", "--precision", "0"), "--precision"),
        (("classic", "--try", "hand_bonus=1", "--within", "0"), "--within"),
        (("classic", "--try", "hand_bonus=1", "--within", "nan"), "--within"),
        (("classic", "--try", "hand_bonus=1", "--confirm", "0"), "--confirm"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "race"
    code, stdout, stderr = run_cli(*args, "--out", str(out), "--no-progress")
    assert code != 0 and stdout == ""
    assert message in stderr and stderr.count("\n") == 1, stderr
    assert not out.exists()


@pytest.mark.parametrize("backend", ["threading", "dask"])
def test_other_backends_give_the_same_race(backend):
    """``--backend dask`` without --scheduler starts a local Dask cluster."""
    if backend == "dask":
        import distributed  # noqa: F401  (installed by the test extra: a missing one must fail, not skip)
    args = (
        "classic",
        "--try",
        "hand_bonus=7",
        "--batch",
        "10",
        "--budget",
        "60",
        "--seed",
        "2",
        "--bot",
        "greedy",
    )
    local = run_json(*args, "--jobs", "1", "--no-progress")
    assert _stable(run_json(*args, "--backend", backend, "--jobs", "2", "--no-progress")) == _stable(local)


def test_a_race_without_out_plays_each_game_once(monkeypatch):
    from seqsolve.balance import race as race_module
    from seqsolve.balance.run import BalanceConfig

    played = []
    real = race_module.run_games

    def counting(config, games, **kwargs):
        before = len(kwargs["out"].done)
        records = real(config, games, **kwargs)
        played.append(len(records) - before)
        return records

    monkeypatch.setattr(race_module, "run_games", counting)
    points = candidates_of("classic", ["hand_bonus=7"])
    config = race_module.RaceConfig(
        BalanceConfig(points, ("greedy",), seed=4), (("hand_bonus", (7,)),), 10, 60
    )
    result, reported = race_module.run_race(config, jobs=1)
    assert sum(played) == result.spent == sum(len(r.records["self"]) for r in reported)


def test_a_race_reads_each_record_file_whole_once_and_resumes_from_it(tmp_path, monkeypatch):
    """The files stay open between rounds: a race of many rounds does not read its
    records back every round; with fewer allowed open than candidates, a closed file
    reopens and resumes, and no game is played twice."""
    from seqsolve.balance import manifest
    from seqsolve.balance import race as race_module
    from seqsolve.balance.run import BalanceConfig, jobs_of
    from seqsolve.play.records import writing
    from seqsolve.play.records.reading import scan

    scans = []
    real = writing.check_file

    def counting(path, *args, **kwargs):
        scans.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(writing, "check_file", counting)
    points = candidates_of("classic", ["hand_bonus=1,2"])
    config = race_module.RaceConfig(
        BalanceConfig(points, ("greedy",), seed=4), (("hand_bonus", (1, 2)),), 20, 300
    )
    out = str(tmp_path / "race")

    def run():
        with manifest.open_output(config.balance, out, "fair"):
            return race_module.run_race(config, out=out, jobs=1)[0]

    first = run()
    assert len(first.rounds) > 2 and scans == []  # new files: nothing read back
    again = run()
    assert sorted(scans) == sorted(set(scans)) and len(scans) == len(points)  # each file read once
    monkeypatch.setattr(race_module.OpenRecords, "most", 1)
    config = race_module.RaceConfig(
        BalanceConfig(points, ("greedy",), seed=4), (("hand_bonus", (1, 2)),), 20, 600
    )
    third = run()  # a bigger budget: more rounds, on files closed and reopened
    assert again.intervals == first.intervals and again.games == first.games
    assert third.games[0] >= first.games[0]
    for point in points:
        path = os.path.join(out, point.slug, jobs_of(config.balance, point)[0].filename)
        games = sorted(r["game"] for _, r in scan(path).games)
        assert games == list(range(len(games)))  # every game once, none replayed


def test_ctrl_c_keeps_the_finished_rounds_and_a_rerun_finishes_the_race(tmp_path, monkeypatch):
    from seqsolve.balance import race as race_module

    out = tmp_path / "race"
    args = (*RACE, "--out", str(out), "--no-plots", *FAST)
    real, calls = race_module.run_games, []

    def interrupted_later(*a, **kw):
        calls.append(1)
        if len(calls) == 7:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(race_module, "run_games", interrupted_later)
    code, stdout, stderr = run_cli(*args)
    assert code == 130 and stdout == "" and "rerun the same command to resume" in stderr
    assert not (out / "fair.json").exists()
    kept = read_records(str(out / "classic-2p2t" / "self.jsonl"))[1]
    assert len(kept) >= 40  # the rounds played before Ctrl-C stay
    monkeypatch.setattr(race_module, "run_games", real)
    assert _stable(run_json(*args)) == _stable(run_json(*RACE, *FAST))


def test_a_sequence_stacks_race_reports_its_own_counts(tmp_path):
    """Any option of the variant's game is raced: here one of Sequence Stacks, with its default bot."""
    out = tmp_path / "race"
    args = ("stacks", "--try", "stacks_win_chips=4", "--batch", "8", "--budget", "32", "--seed", "1")
    data = run_json(*args, "--jobs", "1", "--no-progress", "--out", str(out))
    assert data["bots"] == ["greedy"] and [c["values"] for c in data["candidates"]] == [
        {"stacks_win_chips": 5},
        {"stacks_win_chips": 4},
    ]
    assert "blocks_mean" in data["reported"][0]
    assert "Sequence Stacks: action cards per game" in (out / "fair.md").read_text()


@pytest.mark.parametrize("tries", [["hand_bonus=1,2"], ["hand_bonus=1", "head_start=1"]])
def test_the_plot_title_fits_its_figure(tries):
    """One tried option draws one narrow panel: its title must break more often to fit."""
    from seqsolve.balance import race as race_module
    from seqsolve.balance.race_output import plot_race
    from seqsolve.balance.run import BalanceConfig

    points = candidates_of("classic", tries)
    options = tuple((t.split("=")[0], tuple(int(v) for v in t.split("=")[1].split(","))) for t in tries)
    config = race_module.RaceConfig(BalanceConfig(points, ("greedy",), seed=4), options, 10, 60)
    n = len(points)
    result = race_module.RaceResult(
        games=[10] * n,
        intervals=[(0.01 * i, -0.05, 0.05) for i in range(n)],
        dropped=[None] + [1] * (n - 1),
        confirmations=[
            {"candidate": 0, "games": 10, "within": True, "interval": [0.0, -0.05, 0.05], "level": 0.95}
        ],
    )
    fig = plot_race(config, result)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    box, width = fig._suptitle.get_window_extent(renderer), fig.bbox.width
    assert box.x0 >= 0 and box.x1 <= width
