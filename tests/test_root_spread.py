"""benchmarks/root_spread.py: a search that must play the heuristic's move agrees
with it every time, the figures do not depend on --jobs, and a bad option is one
line, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from script_helpers import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "root_spread.py"


def load():
    return load_script(SCRIPT, "root_spread")


def test_a_search_held_to_the_heuristics_move_always_agrees():
    """top=1: the root searches the heuristic's best move alone."""
    root_spread = load()
    held = root_spread.game_decisions("mcts:iters=300,top=1", "classic", 2, None, 0, 5, 10)
    free = root_spread.game_decisions("mcts:iters=300", "classic", 2, None, 0, 5, 10)
    assert len(held) == len(free) > 5  # same greedy-played game, same decisions
    assert all(d["agree"] for d in held)
    assert not all(d["agree"] for d in free)
    assert all(d["spread"] is None or d["spread"] >= 0 for d in free)
    assert all(0 < d["top_share"] <= 1 for d in free)


def test_the_figures_do_not_depend_on_jobs(tmp_path):
    root_spread = load()
    figures = []
    for jobs in (1, 2):
        out = tmp_path / f"spread{jobs}.json"
        assert (
            root_spread.main(
                [
                    "--bot",
                    "mcts:iters=150",
                    "--presets",
                    "numbers",
                    "--players",
                    "2",
                    "--games",
                    "2",
                    "--seed",
                    "3",
                    "--jobs",
                    str(jobs),
                    "--json",
                    str(out),
                ]
            )
            == 0
        )
        figures.append(json.loads(out.read_text())["rows"])
    assert figures[0] == figures[1]
    row = figures[0][0]
    assert (row["preset"], row["players"], row["games"]) == ("numbers", 2, 2) and row["decisions"] > 0


def test_a_preset_gets_only_the_seatings_its_rules_accept(tmp_path):
    """draft is played by 2 or 4 (2 sides): asked for 2, 3 and 6 players it gets
    the 2-player cell alone."""
    out = tmp_path / "draft.json"
    assert (
        load().main(
            [
                "--bot",
                "mcts:iters=100",
                "--presets",
                "draft",
                "--players",
                "2,3,6",
                "--games",
                "1",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    assert [(r["preset"], r["players"]) for r in json.loads(out.read_text())["rows"]] == [("draft", 2)]


def test_a_bad_option_is_one_line():
    for args in (["--players", "5"], ["--presets", "nosuch"], ["--bot", "mcts:nosuch=1"]):
        done = subprocess.run(
            [sys.executable, str(SCRIPT), *args, "--games", "1"], capture_output=True, text=True
        )
        assert done.returncode == 2, args
        assert done.stderr.startswith("root_spread.py: ") and done.stderr.count("\n") == 1, done.stderr
