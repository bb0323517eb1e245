"""benchmarks/strength_matrix.py's own logic: a spec's options are comma-separated
like the list of specs and must stay with their bot; two bots measured on the
same deals are compared deal by deal; a cache that is not one is one line that
says where."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from script_helpers import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "strength_matrix.py"


def load():
    return load_script(SCRIPT, "strength_matrix", register=True)


def test_options_stay_with_their_bot():
    split = load().split_specs
    assert split("mcts:others=1,top=4") == ["mcts:others=1,top=4"]
    assert split("greedy,mcts:eps=1,k=8,heuristic") == ["greedy", "mcts:eps=1,k=8", "heuristic"]
    assert split("rollout:time=0.1,mcts") == ["rollout:time=0.1", "mcts"]


def _row(bot, seed, deals, opponent="heuristic", players=2):
    return {
        "key": f"{bot} vs {opponent} | classic | {players}p",
        "bot": bot,
        "opponent": opponent,
        "preset": "classic",
        "players": players,
        "teams": None,
        "seed": seed,
        "games": 2 * len(deals),
        "deal_scores": deals,
        "score": sum(deals) / len(deals),
        "score_ci": [0.0, 1.0],
        "fair": 0.5,
        "cpu_per_move": 0.01,
        "worst_cpu_per_move": 0.02,
    }


def test_compare_pairs_the_deals_both_bots_played(tmp_path):
    cache = tmp_path / "cache.jsonl"
    rows = [
        _row("mcts", 1, [1.0, 0.5, 0.5, 0.0]),
        _row("mcts:x=1", 1, [1.0, 1.0]),  # a shorter run: the first two deals of seed 1
        _row("mcts", 2, [0.0, 0.5]),
        _row("mcts:x=1", 2, [0.5, 0.5]),
        _row("mcts:x=1", 3, [1.0]),  # no partner on seed 3: left out
        _row("mcts", 1, [0.5], opponent="greedy"),  # another cell, without its partner
    ]
    cache.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    lines = load().compared(str(cache), "mcts:x=1", "mcts")
    assert len(lines) == 1
    # deals (1, 1, .5, .5) against (1, .5, 0, .5): differences 0, .5, .5, 0
    assert "+25.0% [" in lines[0] and "over 4 deals (seeds 1, 2)" in lines[0]
    assert "75.0% against 50.0%" in lines[0]


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"key": "a"', ":1:"),  # cut short
        (json.dumps(_row("mcts", 1, [0.5])) + "\nnot json\n", ":2:1:"),
        ('{"key": "a", "bot": "mcts"}', ":1: not a cell of the cache: no opponent, preset"),
        ("[1, 2]", ":1: not a cell of the cache: no key"),
    ],
)
def test_a_bad_cache_is_one_line_naming_the_line(tmp_path, text, where):
    cache = tmp_path / "cache.jsonl"
    cache.write_text(text)
    module = load()
    with pytest.raises(module.CacheError, match="cache.jsonl" + where.replace("[", r"\[")):
        module.cache_rows(str(cache))


def test_the_script_exits_with_one_line_on_a_bad_cache(tmp_path):
    cache = tmp_path / "cache.jsonl"
    cache.write_text("not json\n")
    for flags in (["--pool"], ["--compare", "mcts,heuristic"], ["--resume", "--bots", "greedy"]):
        run = subprocess.run(
            [sys.executable, str(SCRIPT), "--cache", str(cache), *flags],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 1, flags
        assert run.stderr.strip().count("\n") == 0 and f"{cache}:1:1: not a cell" in run.stderr
    missing = tmp_path / "none.jsonl"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--cache", str(missing), "--pool"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1 and f"{missing}: cannot read the cache" in run.stderr
