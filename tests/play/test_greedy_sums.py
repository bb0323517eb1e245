"""The greedy bot in the compiled loop reads its placement values off cell sums kept
through a game: it plays the Python runner's games (where every value is computed at
its decision) whatever the rules, seating and weights, and keeps sums only where they
give the same values to the last bit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seqsolve import _loop as compiled_loop
from seqsolve.bots import make_bot
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.play import match
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game

BLOCK2 = Path(__file__).parents[1] / "data" / "weights" / "block2.json"


def _stable(records: list[dict]) -> list[list]:
    return [[(k, v) for k, v in r.items() if k != "seconds"] for r in records]


def _loop(config: MatchConfig):
    bots = [make_bot(spec) for spec in config.bots]
    rules = config.rules()
    return SEQUENCE.loop(rules, [b.loop_chooser(rules) for b in bots], None)


def _both_runners(config: MatchConfig, games: int) -> tuple[list, list]:
    compiled = match._play_compiled(config, list(range(games)), _loop(config), False, True)
    python = [play_game(config, g) for g in range(games)]
    return _stable(compiled), _stable(python)


def _same_games(config: MatchConfig, games: int) -> None:
    compiled, python = _both_runners(config, games)
    assert compiled == python


def _weights(tmp_path: Path, **weights) -> str:
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(weights))
    return str(path)


@pytest.mark.parametrize(
    "variant, players, teams",
    [
        ("classic", 2, None),
        ("classic", 3, None),
        ("classic", 4, None),
        ("classic", 6, 3),
        ("numbers", 2, None),
        ("seed000", 2, None),
        ("seed000", 3, None),
        ("draft", 2, None),
        ("classic[sequences_to_win=3]", 2, None),
        ("classic[overlap_reuse_limit=1,sequences_to_win=3]", 2, None),
        ("classic[heart_rule=on]", 2, None),
        ("classic[allow_voluntary_pass=true,first_turn_jacks=off]", 2, None),
    ],
)
def test_greedy_self_play_plays_the_python_runners_games(variant, players, teams):
    config = MatchConfig(bots=("greedy", "greedy"), variant=variant, players=players, teams=teams, seed=11)
    _same_games(config, 6)


def test_bots_with_other_weights_keep_their_own_sums(tmp_path):
    whole = _weights(tmp_path, w_centre=3.0, w_extend=[2, 5, 17, 70, 300], w_remove_cost=25.0)
    config = MatchConfig(bots=(f"greedy:weights={whole}", f"greedy:weights={BLOCK2}"), seed=12)
    assert _loop(config).lineup.summed == [True, True]
    _same_games(config, 8)


def test_weights_that_are_not_whole_numbers_compute_every_value(tmp_path):
    """Sums of such weights could round differently from the window-by-window sum."""
    fractional = _weights(tmp_path, w_block=[1, 3.25, 12, 3000])
    config = MatchConfig(bots=(f"greedy:weights={fractional}", "greedy"), seed=13)
    assert _loop(config).lineup.summed == [False, True]
    _same_games(config, 8)


@pytest.mark.parametrize(
    "bots, variant, summed",
    [
        (("greedy", "random"), "classic", [True, False]),
        (("greedy", "heuristic"), "seed000", [True, False]),
        (("restricted:no=corners,bot=greedy", "greedy"), "classic", [False, True]),
        (("greedy", "greedy"), "draft", [False, False]),
        (("greedy", "greedy"), "classic[heart_rule=on]", [False, False]),
    ],
)
def test_which_bots_keep_sums(bots, variant, summed):
    config = MatchConfig(bots=bots, variant=variant, seed=14)
    assert _loop(config).lineup.summed == summed


def test_restricted_greedy_and_other_bots_play_the_python_runners_games():
    config = MatchConfig(bots=("restricted:no=two_eyed+one_eyed,bot=greedy", "greedy"), seed=15)
    _same_games(config, 6)
    config = MatchConfig(bots=("greedy", "heuristic"), variant="seed000", seed=16)
    _same_games(config, 6)


@pytest.mark.parametrize(
    "bots, variant, counted",
    [
        (("greedy", "greedy"), "classic", False),
        (("greedy", "random"), "draft", False),
        (("restricted:no=corners,bot=greedy", "greedy"), "classic", False),
        (("greedy", "heuristic"), "classic", True),
        (("restricted:no=corners,bot=heuristic", "random"), "classic", True),
        (("mcts:iters=10", "greedy"), "classic", True),
    ],
)
def test_which_games_keep_the_tallys_open_counts(bots, variant, counted):
    """Issue 37: the games of greedy and random bots keep the window tally's fills and
    bars alone (Tally.fill_only); a game with any other bot keeps its open counts too."""
    config = MatchConfig(bots=bots, variant=variant, seed=14)
    assert _loop(config).lineup.counted is counted


def test_the_heuristic_reads_the_open_counts_its_games_keep(monkeypatch):
    """The greedy bot's games skip the counts; the heuristic's must not: kept, they are
    the Python runner's games, and skipped as for greedy, the heuristic plays others."""
    config = MatchConfig(bots=("greedy", "heuristic"), seed=17)
    _same_games(config, 4)
    monkeypatch.setattr(compiled_loop, "reads_counts", lambda kind: False)
    assert not _loop(config).lineup.counted
    compiled, python = _both_runners(config, 4)
    assert compiled != python
