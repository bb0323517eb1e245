"""benchmarks/versus_limit.py: seqsolve against the C reference prints well-formed ratios.

Never a timing test: the workloads are tiny and only the shape of the output is checked.
A stand-in reference (shell scripts printing the real programs' RESULT lines) checks the
plumbing on any machine; the real reference, copied and built, is used where this
machine has it (SEQSOLVE_LIMIT_DIR, or the shared tools folder beside the checkout)."""

from __future__ import annotations

import json
import math
import os
import shutil
import stat
from pathlib import Path

import pytest

from tests.script_helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
versus = load_script(ROOT / "benchmarks" / "versus_limit.py", "versus_limit")

STAND_IN = {
    "limit_playout": "RESULT c_playout_full games_per_s=1000 plies_per_s=80000 games_per_cpu_s=2000 "
    "plies_per_cpu_s=160000 avg_plies=80.0 seat0_win=0.5 draw=0.0",
    "limit_greedy": "RESULT c_greedy_cell games_per_s=100 plies_per_s=5000 games_per_cpu_s=200 "
    "plies_per_cpu_s=10000 us_per_decision=100 avg_plies=50 seat0_win=0.5 draw=0 moves_per_decision=22",
    "limit_mcts": "RESULT mcts_opening playouts_per_s=10 playouts_per_cpu_s=20 plies_per_playout=80 root_moves=14\n"
    "RESULT mcts_midgame playouts_per_s=100 playouts_per_cpu_s=200 plies_per_playout=48 root_moves=11",
}


def stand_in_reference(folder: Path) -> Path:
    folder.mkdir()
    (folder / "seq_engine.h").write_text("/* stand-in */\n")
    for name, lines in STAND_IN.items():
        program = folder / name
        program.write_text(f"#!/bin/sh\ncat <<'EOF'\n{lines}\nEOF\n")
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return folder


def real_reference() -> Path | None:
    candidates = [os.environ.get("SEQSOLVE_LIMIT_DIR", "")]
    candidates += [
        str(ROOT.parent / "shared" / "tools" / "limit"),
        str(ROOT.parents[1] / "shared" / "tools" / "limit"),
    ]
    for c in candidates:
        if c and (Path(c) / "seq_engine.h").is_file() and shutil.which("make") and shutil.which("gcc"):
            return Path(c)
    return None


def check_output(data: dict, workloads: set[str]) -> None:
    assert data["rounds"] == 1
    assert "CPU" in data["machine"]
    assert set(data["workloads"]) == workloads
    for name, entry in data["workloads"].items():
        if name == "search":
            row = entry["seqsolve"][0]
            assert row["cpu_s_per_move"] > 0 and row["c_playouts_per_move"] > 0
            continue
        assert len(entry["ratios"]) == 1
        assert entry["ratio_min"] <= entry["ratio_median"] <= entry["ratio_max"]
        assert all(math.isfinite(r) and r > 0 for r in entry["ratios"])
        assert len(entry["seqsolve"]) == len(entry["limit"]) == 1


def test_stand_in_reference_gives_ratios(tmp_path, capsys):
    folder = stand_in_reference(tmp_path / "limit")
    code = versus.main(
        [str(folder), "--rounds", "1", "--scale", "0.002", "--only", "random,greedy,mcts", "--json"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    mcts = {f"mcts {p}" for p in versus.MCTS_PRESETS}
    check_output(data, {"random", "greedy"} | mcts)
    # the stand-in's rate is the denominator: the ratio is seqsolve's rate over it
    entry = data["workloads"]["random"]
    assert entry["ratios"][0] == pytest.approx(entry["seqsolve"][0]["plies_per_cpu_s"] / 160000)
    assert data["workloads"]["mcts draft"]["limit"][0]["playouts_per_cpu_s"] == 200


def test_table_names_every_workload(tmp_path, capsys):
    folder = stand_in_reference(tmp_path / "limit")
    assert versus.main([str(folder), "--rounds", "1", "--scale", "0.002", "--only", "random,heuristic"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("seqsolve / C reference")
    assert any(line.startswith("random ") and line.count("×") == 1 for line in lines)
    assert any(line.startswith("heuristic ") and "µs/decision" in line for line in lines)
    assert lines[-1].startswith("machine: ")


def test_not_a_reference_folder_is_one_line(tmp_path, capsys):
    assert versus.main([str(tmp_path), "--rounds", "1", "--only", "random"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "seq_engine.h" in err[0] and str(tmp_path) in err[0]


def test_unknown_workload_is_refused(tmp_path):
    with pytest.raises(SystemExit) as exc:
        versus.main([str(tmp_path), "--only", "random,bogus"])
    assert exc.value.code == 2


def test_real_reference_built_and_run(tmp_path, capsys):
    source = real_reference()
    if source is None:
        pytest.skip("the C reference is not on this machine (set SEQSOLVE_LIMIT_DIR)")
    folder = tmp_path / "limit"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns(*versus.PROGRAMS, "*.o", "bench_*"))
    code = versus.main(
        [str(folder), "--rounds", "1", "--scale", "0.002", "--only", "random,greedy,search", "--json"]
    )
    assert code == 0
    assert all(os.access(folder / name, os.X_OK) for name in versus.PROGRAMS)
    check_output(json.loads(capsys.readouterr().out), {"random", "greedy", "search"})
