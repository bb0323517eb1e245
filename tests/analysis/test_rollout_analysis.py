"""Analysis by the default search: where the draw is blind it is a flat search, every
legal turn played out by greedy in the same worlds (cut after 12 actions and scored
by the evaluation); in the draft variant, the tree of mcts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from seqsolve import _choose
from seqsolve.analysis.annotate import annotate_record
from seqsolve.analysis.results import AnalysisError
from seqsolve.analysis.search import analyze
from seqsolve.analysis.spec import DEFAULT_ANNOTATE_WORLDS, DEFAULT_WORLDS, search_settings
from seqsolve.cli import main
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.games.stacks.game import STACKS
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game
from seqsolve.play.seeds import stream_seed

THREE, TWO = parse_rules("classic", players=3), parse_rules("classic", players=2)


def _three_sides(plies: int = 20) -> State:
    """A classic 3-player position ``plies`` greedy actions into a seeded deal."""
    state = State.new(THREE, seed=4)
    for ply in range(plies):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(ply)))
    return state


def test_three_sides_are_analysed_by_rollouts_of_every_legal_turn():
    """Each turn's win is its mean over the same worlds, the very means the compiled
    rollout gives from the analysis's stream; every turn is played in every world."""
    state = _three_sides()
    a = analyze(state, seed=1)
    assert (a.search, a.unit, a.iterations) == ("rollout:depth=12", "worlds", DEFAULT_WORLDS)
    view = state.observation(state.current_player)
    legal = view.legal_actions()
    means = SEQUENCE.searcher({}).rollout_values(
        view, state.current_player, np.random.PCG64(stream_seed(1, (0,))), legal, DEFAULT_WORLDS, 0, 12
    )
    assert len(a.moves) == len(legal) and all(m.visits == DEFAULT_WORLDS for m in a.moves)
    for m in a.moves:
        assert m.win == pytest.approx(means[legal.index(m.actions[0])], abs=1e-9)
    wins = [m.win for m in a.moves]
    assert wins == sorted(wins, reverse=True)
    assert a.value == pytest.approx(max(means))


def test_a_rollout_analysis_is_the_same_for_a_seed_and_shares_its_worlds_among_threads():
    state = _three_sides()
    once, again = analyze(state, seed=3, iterations=40), analyze(state, seed=3, iterations=40)
    assert [(m.move, m.win) for m in once.moves] == [(m.move, m.win) for m in again.moves]
    two = analyze(state, seed=3, iterations=41, jobs=2)
    assert two.iterations == 41 and all(m.visits == 41 for m in two.moves)


def test_the_draft_keeps_the_tree_and_an_explicit_spec_is_searched_as_given():
    two = State.new(TWO, seed=1)
    assert analyze(two, iterations=30, seed=1).search == "rollout:depth=12"
    assert (
        analyze(State.new(parse_rules("draft", players=2), seed=1), iterations=300).search
        == "mcts:recall=true"
    )
    tree = analyze(two, bot="mcts", iterations=300, seed=1)
    assert (tree.search, tree.unit, tree.iterations) == ("mcts", "iterations", 300)
    weights = Path(__file__).parents[1] / "data" / "weights" / "block2.json"
    flat = analyze(two, bot=f"rollout:depth=4,weights={weights}", iterations=20, seed=1)
    assert (flat.search, flat.iterations) == (f"rollout:depth=4,weights={weights}", 20)


def test_a_game_without_search_analyses_with_its_mcts():
    assert search_settings("search", iterations=10, game=STACKS).spec == "mcts"
    with pytest.raises(AnalysisError, match="analysis needs a search bot \\('mcts', key=value"):
        search_settings("rollout", game=STACKS)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("rollout:halve=1", "a rollout analysis plays every legal turn out by greedy"),
        ("rollout:see=hands", "see do not apply \\(--open sees every card\\)"),
        ("rollout:worlds=0", "bot rollout: parameter worlds must be at least 1"),
        ("heuristic", "analysis needs a search bot \\('search' or 'mcts' or 'rollout'"),
    ],
)
def test_bad_rollout_analyses_are_refused(spec, message):
    with pytest.raises(AnalysisError, match=message):
        search_settings(spec, rules=THREE)


def test_the_command_line_analyses_a_three_side_file(tmp_path):
    path = tmp_path / "three.sqn"
    path.write_text(SEQUENCE.write_position(_three_sides().observation(_three_sides().current_player)))
    result = CliRunner().invoke(main, ["analyze", str(path), "--seed", "2", "--iters", "30", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["search"], data["iterations"], data["teams"]) == ("rollout:depth=12", 30, 3)
    text = CliRunner().invoke(main, ["analyze", str(path), "--seed", "2", "--iters", "30", "--top", "3"])
    assert "search     rollout:depth=12: 30 worlds, 1 thread, seed 2" in text.output


def test_annotating_a_three_side_game_plays_out_each_decision():
    config = MatchConfig(bots=("greedy", "random", "greedy"), players=3, seed=8)
    record = play_game(config, 0)
    result = annotate_record(record, seats=[1], seed=1, iterations=10)
    assert (result["search"], result["iterations"]) == ("rollout:depth=12", 10)
    assert result["decisions"] and all(d["seat"] == 1 for d in result["decisions"])
    assert search_settings("search", rules=THREE, default_worlds=DEFAULT_ANNOTATE_WORLDS).iterations == 100


def test_annotate_weighs_the_last_play_as_analyze_does():
    """What the opponent just chose not to do is evidence about its
    hand.  ``annotate`` weighs each decision's worlds by the opponent's last play exactly
    as ``analyze`` of that position does (the same estimates), and the weighing changes them."""
    from seqsolve.play.records import Replay

    record = play_game(MatchConfig(bots=("greedy", "greedy"), seed=3), 0)
    result = annotate_record(record, seats=[0], seed=0, iterations=30)
    assert result["search"] == "rollout:depth=12,infer=0.5"
    game = Replay(record)
    views = {}
    for step in game:
        if step.seat == 0 and len(game.state.legal_actions()) > 1:
            views[step.ply] = game.state.observation(0)
    blind = search_settings("search", 30, rules=TWO)  # as if no last play were recorded
    weighed = 0
    for d in result["decisions"][:10]:
        view = views[d["ply"]]
        options = {"seed": 0, "stream": (d["ply"],), "threats": False, "depends": 0}
        played = analyze(view, iterations=30, **options).find(d["played"])
        assert played is not None and played.win == d["win_played"]
        unweighed = analyze(view, settings=blind, **options).find(d["played"])
        weighed += view.before_last_play() is not None and unweighed.win != d["win_played"]
    assert weighed >= 5


def test_a_budget_counts_only_where_the_caller_gives_it():
    """``search`` stands for a spec with worlds of its own: the analysis's default
    budget still applies; a time given to ``search`` is the analysis's budget."""
    assert search_settings("search", rules=THREE).iterations == DEFAULT_WORLDS
    timed = search_settings("search:time=0.5", rules=THREE)
    assert (timed.iterations, timed.seconds, timed.spec) == (0, 0.5, "rollout:depth=12")
    timed = search_settings("search:time=0.5", rules=parse_rules("draft", players=2))
    assert (timed.iterations, timed.seconds, timed.rollout) == (0, 0.5, None)
    assert search_settings("rollout:worlds=33", rules=THREE).iterations == 33
    assert search_settings("rollout:worlds=33", iterations=7, rules=THREE).iterations == 7
