"""No bot is clearly weaker than greedy on any preset.

A bot once scored 55% against greedy on ``classic`` and 10% on ``draft``, and
nothing noticed because strength was measured on one preset.  These matches
are small (seconds) and seeded, so they give the same games every run; the
check is deliberately loose -- the upper end of the 95% paired-deal interval
must reach greedy's fair share -- so it catches a broken bot, not a small
regression (benchmarks/strength_matrix.py measures those).
"""

from __future__ import annotations

import pytest

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.report import summarize_match

PRESETS = ("classic", "seed000", "seed002-literal", "numbers", "numbers-seed001-literal", "draft")

#: bot spec (a small budget where it searches) and deals per preset
BOTS = {
    "heuristic": 40,
    "mcts:iters=300": 10,
    "rollout:worlds=6,k=4": 8,
    "rollout:depth=12,worlds=12": 8,  # search's rollouts (the same playouts and evaluation, fewer worlds)
}


def _match(bot: str, variant: str, deals: int, players: int = 2, teams: int | None = None) -> dict:
    config = MatchConfig(bots=(bot, "greedy"), variant=variant, players=players, teams=teams, seed=11)
    return summarize_match(run_games(config, deals * config.games_per_deal, jobs=1), config.bots)


@pytest.mark.parametrize("variant", PRESETS)
@pytest.mark.parametrize("bot", list(BOTS))
def test_no_bot_is_clearly_below_greedy_on_any_preset(bot, variant):
    summary = _match(bot, variant, BOTS[bot])
    low, high = summary["score_ci"]
    assert high >= 0.5, f"{bot} vs greedy on {variant}: {summary['score']:.1%} [{low:.1%}, {high:.1%}]"


@pytest.mark.parametrize(
    "variant, players, teams", [("classic", 3, None), ("draft", 4, 2), ("numbers", 6, 3)]
)
def test_heuristic_is_not_clearly_below_greedy_with_more_seats(variant, players, teams):
    summary = _match("heuristic", variant, 20, players, teams)
    low, high = summary["score_ci"]
    fair = 1 / (3 if teams == 3 or players == 3 else 2)
    assert high >= fair, (
        f"heuristic vs greedy on {variant} {players}p: {summary['score']:.1%} [{low:.1%}, {high:.1%}]"
    )


@pytest.mark.parametrize(
    "variant, players, teams", [("classic", 3, None), ("seed000", 6, 3), ("numbers", 3, None)]
)
def test_the_default_searchs_rollouts_are_not_clearly_below_greedy_with_three_sides(variant, players, teams):
    """``search`` plays truncated rollouts wherever the draw is blind (a small budget
    here: the same playouts and evaluation, fewer worlds)."""
    summary = _match("rollout:depth=12,worlds=12", variant, 8, players, teams)
    low, high = summary["score_ci"]
    assert high >= 1 / 3, (
        f"truncated rollouts vs greedy on {variant} {players}p: {summary['score']:.1%} [{low:.1%}, {high:.1%}]"
    )
