"""examples/embed.py, the referee of the README's "From Python": it runs, plays whole
games through the public API alone, and a player's illegal answer is a forfeit."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from script_helpers import load_script

import seqsolve

EMBED = Path(__file__).resolve().parent.parent / "examples" / "embed.py"


def _embed():
    return load_script(EMBED, "embed_example")


def test_the_example_runs_and_repeats_itself_for_a_seed():
    command = [sys.executable, str(EMBED), "--bot", "heuristic", "--seed", "4"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert first.returncode == 0, first.stderr
    assert re.fullmatch(
        r"(seqsolve heuristic|the centre player) wins \(win after \d+ turns\)\n", first.stdout
    )
    assert (
        subprocess.run(command, capture_output=True, text=True, timeout=300, check=False).stdout
        == first.stdout
    )


def test_the_example_uses_the_public_api_only():
    tree = ast.parse(EMBED.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module != "__future__"]
    assert imported == {"argparse", "numpy", "seqsolve"}
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "seqsolve"
    }
    assert used and used <= set(seqsolve.__all__), used - set(seqsolve.__all__)


def test_two_seqsolve_players_finish_games_from_the_views_alone():
    """Every view of a whole game, exchanges and sequences included, rebuilds through
    make_state into a state whose bot answers legally (three-player games too)."""
    embed = _embed()
    for seed, players in ((1, 2), (2, 3)):
        rng = np.random.default_rng(seed)
        seats = {f"greedy {s}": embed.seqsolve_player("greedy", None, rng) for s in range(players)}
        assert "forfeits" not in embed.referee(seats, seed)


def test_an_illegal_answer_forfeits():
    embed = _embed()
    result = embed.referee({"passer": lambda view: "pass", "centre": embed.centre_player}, seed=1)
    assert result.startswith("passer forfeits after 0 turns: pass: a legal play exists")
