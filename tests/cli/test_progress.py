"""One progress display (seqsolve/cli/progress.py) for every long command: a line on
stderr rewritten in place, `label: [bar] done/total unit  rate unit/s`, never on stdout."""

from __future__ import annotations

import json

from cli_helpers import run

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

FULL = "[" + "#" * 30 + "]"


def _lines(stderr: str) -> list[str]:
    """The last state of each progress line (a line is rewritten after each ``\\r``)."""
    return [line.split("\r")[-1].strip() for line in stderr.split("\n") if line.strip()]


def _ok(*args: str):
    result = run(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def test_match_shows_games_rate_and_running_score_and_keeps_stdout_clean():
    result = _ok(
        "match", "random", "greedy", "--games", "4", "--seed", "1", "--jobs", "1", "--progress", "--json"
    )
    json.loads(result.stdout)  # nothing but the object
    last = _lines(result.stderr)[-1]
    assert last.startswith(f"random vs greedy: {FULL} 4/4 games  ") and " games/s  score of random: " in last


def test_tournament_and_balance_show_one_line_per_stage():
    result = _ok(
        "tournament",
        "random",
        "greedy",
        "heuristic",
        "--games",
        "2",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--progress",
    )
    assert [line.split(":")[0] for line in _lines(result.stderr)] == [
        "random vs greedy",
        "random vs heuristic",
        "greedy vs heuristic",
    ]
    assert all(f"{FULL} 2/2 games" in line for line in _lines(result.stderr))
    result = _ok(
        "balance",
        "random",
        "--games",
        "3",
        "--weak",
        "random",
        "--match-games",
        "2",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--no-plots",
        "--progress",
    )
    assert [line.split(": [")[0] for line in _lines(result.stderr)] == [
        "[1/2] classic 2p self-play",
        "[2/2] classic 2p strong vs weak",
    ]


def test_annotate_counts_decisions_on_the_same_display(tmp_path):
    path = tmp_path / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=1), 1, jobs=1, out=str(path))
    result = _ok("annotate", str(path), "--game", "0", "--iters", "10", "--seed", "1", "--progress", "--json")
    json.loads(result.stdout)
    last = _lines(result.stderr)[-1]
    assert last.startswith("annotating game 0: [") and " decisions/s" in last
    done, total = last.split("] ")[1].split(" ")[0].split("/")
    assert done == total != "0"


def test_no_progress_means_nothing_on_stderr():
    result = _ok("match", "random", "greedy", "--games", "2", "--seed", "1", "--jobs", "1", "--no-progress")
    assert result.stderr == ""
