"""benchmarks/tactics_fuzz.py: it finds the wins and blocks a bot misses (random
misses them; greedy takes every win), and a bad option is one line, not a
traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from script_helpers import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "tactics_fuzz.py"


def test_the_fuzz_finds_what_random_misses_and_greedy_does_not():
    fuzz = load_script(SCRIPT, "tactics_fuzz")
    result = fuzz.fuzz("classic", 2, None, 4, 7, ["random", "greedy"], ("win", "block"))
    assert result["positions"]["win"] >= 4 and result["positions"]["block"] >= 1
    assert result["misses_by_bot"]["greedy"]["win"] == 0
    assert result["misses_by_bot"]["random"]["win"] > 0
    for miss in result["misses"]:
        assert miss["bot"] == "random" or miss["check"] == "block"
        assert miss["good"] and miss["played"] not in miss["good"]


def test_the_json_is_written_and_the_exit_code_says_a_bot_missed(tmp_path):
    fuzz = load_script(SCRIPT, "tactics_fuzz")
    out = tmp_path / "fuzz.json"
    assert fuzz.main(["--games", "2", "--bots", "random", "--check", "win", "--json", str(out)]) == 1
    data = json.loads(out.read_text())
    assert data["misses"] and set(data["positions"]) == {"win"}
    assert fuzz.main(["--games", "2", "--bots", "greedy", "--check", "win"]) == 0


def test_bad_options_are_one_line():
    for args in (
        ["--variant", "nope"],
        ["--bots", "mcts:zz=1"],
        ["--check", "lose"],
        ["--players", "7"],
        ["--games", "0"],
    ):
        run = subprocess.run(
            [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 2, (args, run.stderr)
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
