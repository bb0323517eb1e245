"""The evaluation weights as one set (``weights=NAME|FILE``) and the parameters that were removed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from seqsolve import _choose, _eval
from seqsolve.bots import BotError, make_bot
from seqsolve.games.sequence.bots.search import load_weights
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State

WEIGHTED = ("greedy", "heuristic", "mcts", "rollout")


def write(tmp_path, content, name="w.json"):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


@pytest.mark.parametrize("bot", WEIGHTED)
def test_the_default_set_is_the_default_and_is_left_out_of_the_spec(bot):
    assert make_bot(f"{bot}:weights=default").spec == bot
    assert load_weights(bot, "default") == {}


def test_a_weights_file_sets_the_weights_it_names_and_keeps_the_others(tmp_path):
    path = write(tmp_path, {"w_block": [2, 6, 24, 6000], "w_jack_cost": 0})
    assert load_weights("heuristic", str(path)) == {"w_block": (2.0, 6.0, 24.0, 6000.0), "w_jack_cost": 0.0}
    bot = make_bot(f"heuristic:weights={path}")
    assert bot.spec == f"heuristic:weights={path}"
    mcts = make_bot(f"mcts:iters=50,weights={path}")
    assert mcts.searcher_params()["w_block"] == (2.0, 6.0, 24.0, 6000.0)
    assert mcts.searcher().params["w_jack_cost"] == 0.0
    assert mcts.searcher().params["w_win"] == _eval.default_weights()["w_win"]


def test_a_weights_file_changes_the_choice_as_the_same_weights_given_to_the_chooser(tmp_path):
    """The bot plays what the compiled chooser plays with those weights, and a set that
    makes jacks free moves at least one choice away from the default's."""
    weights = {"w_jack_cost": 0, "w_remove_cost": 0, "w_centre": 50}
    path = write(tmp_path, weights)
    bot, plain = make_bot(f"greedy:weights={path}"), make_bot("greedy")
    differ = 0
    for seed in range(8):
        state = State.new(parse_rules("classic", players=2), seed=seed)
        view = state.observation(state.current_player)
        ours = bot.choose(view, np.random.default_rng(seed))
        assert ours == _choose.greedy_action(view.core, np.random.default_rng(seed).bit_generator, weights)
        differ += ours != plain.choose(view, np.random.default_rng(seed))
    assert differ > 0


def test_tune_weights_output_is_a_weights_file(tmp_path):
    """benchmarks/tune_weights.py writes ``json.dump`` of a dict of weights, tuples as lists."""
    tuned = {k: v for k, v in _eval.default_weights().items() if k in ("w_open", "w_threat", "w_tempo")}
    path = write(tmp_path, tuned)
    assert load_weights("heuristic", str(path)) == {
        k: (tuple(v) if isinstance(v, tuple) else v) for k, v in tuned.items()
    }


@pytest.mark.parametrize(
    "content, words",
    [
        ("{", "line 1 column 2: not JSON"),
        ("[1, 2]", "holds a JSON object of weights by name"),
        ({"w_nosuch": 1}, "unknown weight 'w_nosuch' (known: w_win,"),
        ({"w_block": [1, 2]}, "weight w_block is a list of 4 numbers"),
        ({"w_block": 3}, "weight w_block is a list of 4 numbers"),
        ({"w_win": [1]}, "weight w_win is a number"),
        ({"w_win": "big"}, "weight w_win is a number"),
        ({"w_win": True}, "weight w_win is a number"),
        ({"w_win": 1e300}, "of magnitude at most 1e+12"),
        ("\xff\xfe", "not JSON"),
    ],
)
def test_a_bad_weights_file_is_one_line_naming_the_file(tmp_path, content, words):
    path = write(tmp_path, content)
    with pytest.raises(BotError) as err:
        make_bot(f"heuristic:weights={path}")
    message = str(err.value)
    assert message.startswith(f"bot heuristic: weights file {path}") and words in message
    assert "\n" not in message


def test_a_missing_weights_file_or_set_and_a_folder(tmp_path):
    with pytest.raises(
        BotError, match=r"^bot mcts: weights 'strong' is neither a weight set \(default\) nor a file$"
    ):
        make_bot("mcts:weights=strong")
    with pytest.raises(BotError, match="cannot be read"):
        make_bot(f"rollout:weights={tmp_path}")


@pytest.mark.parametrize("bot", WEIGHTED)
@pytest.mark.parametrize("weight", ["w_block", "w_jack_cost", "eval_scale"])
def test_a_weight_given_alone_was_removed(bot, weight):
    with pytest.raises(BotError) as err:
        make_bot(f"{bot}:{weight}=2")
    assert str(err.value) == (
        f"bot {bot}: parameter {weight} was removed: the evaluation weights are one set "
        "now: weights=FILE, a JSON object of weights by name"
    )


#: the search parameters that measured no gain, and the Searcher keys they set
NO_GAIN = {
    "quiet": "playout_quiet",
    "oheur": "other_heuristic",
    "greedy": "playout_greedy",
    "rank": "root_rank",
    "margin": "root_margin",
}


@pytest.mark.parametrize("name", NO_GAIN)
def test_the_search_parameters_without_gain_were_removed(name):
    from seqsolve import _search

    with pytest.raises(BotError) as err:
        make_bot(f"mcts:{name}=1")
    assert str(err.value) == (
        f"bot mcts: parameter {name} was removed: it measured no gain over the default "
        "(benchmarks/RESULTS.md)"
    )
    with pytest.raises(ValueError, match="unknown key"):
        _search.Searcher({NO_GAIN[name]: 1})


def test_an_unknown_parameter_is_still_called_unknown():
    with pytest.raises(BotError, match=r"^bot mcts: unknown parameter 'wieghts' \(known: iters, time, work,"):
        make_bot("mcts:wieghts=default")
