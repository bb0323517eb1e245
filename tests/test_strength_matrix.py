"""benchmarks/strength_matrix.py's list of bot specs: a spec's own options are
comma-separated like the list, and must stay with their bot."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "strength_matrix.py"


def load():
    spec = importlib.util.spec_from_file_location("strength_matrix", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_options_stay_with_their_bot():
    split = load().split_specs
    assert split("mcts:others=1,oheur=1") == ["mcts:others=1,oheur=1"]
    assert split("greedy,mcts:eps=1,k=8,heuristic") == ["greedy", "mcts:eps=1,k=8", "heuristic"]
    assert split("rollout:time=0.1,mcts") == ["rollout:time=0.1", "mcts"]
