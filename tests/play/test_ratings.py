"""Bradley-Terry ratings and the round robin they rate (seqsolve.play.ratings,
seqsolve.play.tournament)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from seqsolve.play.match import run_games
from seqsolve.play.ratings import Rating, bradley_terry
from seqsolve.play.tournament import Tournament
from seqsolve.stats import elo_from_score, score_from_elo


def test_bradley_terry_two_players_matches_closed_form() -> None:
    ratings = bradley_terry({("a", "b"): (70, 10, 20)})  # a scores 0.75 from 100 games
    diff = ratings["a"].elo - ratings["b"].elo
    assert diff == pytest.approx(elo_from_score(0.75), abs=0.5)  # the prior costs a fraction of a point
    assert ratings["a"].elo == pytest.approx(-ratings["b"].elo)
    # se of the difference: (400 / ln 10) / sqrt(n s (1 - s)); each side carries half of it
    se_diff = 400 / math.log(10) / math.sqrt(100 * 0.75 * 0.25)
    half_width = (ratings["a"].high - ratings["a"].low) / 2
    assert half_width == pytest.approx(1.959964 * se_diff / 2, rel=0.01)


def test_bradley_terry_recovers_three_players() -> None:
    truth = {"weak": -150.0, "mid": 0.0, "strong": 150.0}
    rng = np.random.default_rng(3)
    results = {}
    names = list(truth)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            s = score_from_elo(truth[a] - truth[b])
            draw = 0.2
            w, d, l = rng.multinomial(200, [s - draw / 2, draw, 1 - s - draw / 2])
            results[(a, b)] = (int(w), int(d), int(l))
    ratings = bradley_terry(results)
    assert list(ratings) == ["strong", "mid", "weak"]
    assert sum(r.elo for r in ratings.values()) == pytest.approx(0.0, abs=1e-6)
    for name, r in ratings.items():
        assert isinstance(r, Rating)
        assert r.low < truth[name] < r.high
    anchored = bradley_terry(results, anchor="mid")
    assert anchored["mid"] == Rating(0.0, 0.0, 0.0)
    assert anchored["strong"].elo == pytest.approx(ratings["strong"].elo - ratings["mid"].elo)
    assert anchored["strong"].low < 150.0 < anchored["strong"].high


def test_bradley_terry_handles_unbeaten_and_winless_players() -> None:
    results = {
        ("champ", "a"): (10, 0, 0),
        ("champ", "b"): (10, 0, 0),
        ("a", "b"): (6, 2, 2),
        ("b", "loser"): (10, 0, 0),
        ("loser", "a"): (0, 0, 10),
    }
    ratings = bradley_terry(results)
    assert list(ratings) == ["champ", "a", "b", "loser"]
    for r in ratings.values():
        assert all(math.isfinite(x) for x in r) and r.low < r.elo < r.high
    # the unbeaten player's rating is large but its interval is wide
    champ = ratings["champ"]
    assert champ.elo - ratings["a"].elo > 200
    assert champ.high - champ.low > ratings["a"].high - ratings["a"].low


def test_bradley_terry_merges_both_orders_and_validates() -> None:
    one = bradley_terry({("a", "b"): (10, 4, 6)})
    two = bradley_terry({("a", "b"): (4, 2, 2), ("b", "a"): (4, 2, 6)})
    assert one["a"].elo == pytest.approx(two["a"].elo)
    assert bradley_terry({}) == {}
    with pytest.raises(ValueError, match="itself"):
        bradley_terry({("a", "a"): (1, 0, 0)})
    with pytest.raises(ValueError, match="anchor"):
        bradley_terry({("a", "b"): (1, 0, 0)}, anchor="c")
    with pytest.raises(ValueError, match="negative"):
        bradley_terry({("a", "b"): (1, -1, 0)})


def test_tournament_pairings_seeds_and_report():
    league = Tournament(("random", "greedy", "heuristic"), players=2)
    assert league.pairings == [("random", "greedy"), ("random", "heuristic"), ("greedy", "heuristic")]
    configs = [league.config(k, 7) for k in range(3)]
    assert [c.seed for c in configs] == [7, 7, 7]  # one root; each pairing has its own stream
    assert [c.stream for c in configs] == [("tournament", 0), ("tournament", 1), ("tournament", 2)]
    assert [c.bots for c in configs] == league.pairings
    records = run_games(configs[0], 2, jobs=1)
    league.add(0, records)
    wins_a, draws, wins_b = league.results[("random", "greedy")]
    assert wins_a + draws + wins_b == 2
    assert league.scores["random"]["greedy"] == pytest.approx(1 - league.scores["greedy"]["random"])
    report = league.report(games=2, seed=7, seconds=0.0)
    assert [r["bot"] for r in report["ratings"]] == sorted(
        ("random", "greedy"), key=lambda b: -bradley_terry(league.results)[b].elo
    )
    assert list(report["scores"]) == ["random", "greedy", "heuristic"]
    assert report["results"] == [
        {"a": "random", "b": "greedy", "wins_a": wins_a, "draws": draws, "wins_b": wins_b}
    ]
