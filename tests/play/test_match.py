"""The match runner: seeding, pairing, records, resuming, errors, external bots, Dask."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import fails
from click.testing import CliRunner

from seqsolve.bots import BotError, make_bot
from seqsolve.cli import main
from seqsolve.games.sequence.notation import parse_position
from seqsolve.games.sequence.state import State
from seqsolve.games.sequence.tally import GameDetail
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game, run_games
from seqsolve.play.records import read_records

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = f"ext:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


def _stable(records: list[dict]) -> list[dict]:
    """Records without their timing, the one field that may differ between runs."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def run_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------- seeding and pairing


def test_same_seed_same_games_whatever_jobs():
    config = MatchConfig(bots=("random", "random"), seed=11)
    one = run_games(config, 12, jobs=1)
    two = run_games(config, 12, jobs=2, chunk=2)
    assert _stable(one) == _stable(two)
    other = run_games(MatchConfig(bots=("random", "random"), seed=12), 12, jobs=1)
    assert _stable(other) != _stable(one)


def test_paired_games_share_the_deal_with_seats_swapped():
    config = MatchConfig(bots=("random", "greedy"), seed=5)
    first, second = play_game(config, 0), play_game(config, 1)
    assert first["seats"] == ["random", "greedy"] and second["seats"] == ["greedy", "random"]
    rules = config.rules()
    deal_a = State.new(rules, seed=config.deal_seed(0))
    deal_b = State.new(rules, seed=config.deal_seed(1))
    assert deal_a.to_position() == deal_b.to_position()
    assert play_game(config, 2)["deal"] == 1


def test_three_sides_rotate_the_first_bot_over_every_side():
    config = MatchConfig(bots=("random", "greedy"), players=3, seed=2)
    sides = [play_game(config, g)["side_bot"] for g in range(3)]
    assert [s.index(0) for s in sides] == [0, 1, 2]


def test_team_game_seats_follow_sides():
    config = MatchConfig(bots=("random", "greedy"), players=4, seed=2)
    record = play_game(config, 0)
    assert record["seats"] == ["random", "greedy", "random", "greedy"]
    assert record["result"] in ("b", "g", "draw")


# ---------------------------------------------------------------- records and resuming


def test_rerun_after_interruption_resumes_without_loss_or_duplicates(tmp_path):
    out = tmp_path / "games.jsonl"
    config = MatchConfig(bots=("random", "random"), seed=21)
    full = run_games(config, 16, jobs=1, out=str(tmp_path / "full.jsonl"))  # with its moves
    run_games(config, 10, jobs=1, out=str(out))
    # simulate a kill in the middle of writing a line
    with open(out, "a", encoding="utf-8") as fh:
        fh.write('{"game": 10, "deal": 5, "varia')
    resumed = run_games(config, 16, jobs=2, out=str(out))
    assert _stable(resumed) == _stable(full)
    _, records = read_records(str(out))
    assert sorted(r["game"] for r in records) == list(range(16))


def test_records_keep_their_moves_only_when_written(tmp_path):
    config = MatchConfig(bots=("random", "greedy"), seed=4)
    written = run_games(config, 6, jobs=1, out=str(tmp_path / "games.jsonl"))
    kept = run_games(config, 6, jobs=2)
    assert all(len(r["moves"]) == r["plies"] > 0 for r in written)
    assert all("moves" not in r for r in kept)
    assert _stable([{k: v for k, v in r.items() if k != "moves"} for r in written]) == _stable(kept)


def _interrupt_once_written(args: list[str], records: Path) -> tuple[subprocess.Popen, str]:
    """Run the command, SIGINT it once ``records`` holds 30 games; the process and its stderr.

    It waits for the records, however long they take; the bound only stops a hung run."""
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    while not (records.exists() and records.read_text().count("\n") > 30):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the run wrote fewer than 30 games (exit {proc.poll()}): {proc.communicate()[1]}")
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    return proc, err


def test_killed_cli_run_resumes_to_identical_numbers(tmp_path):
    """A real interruption: SIGINT a running match, rerun the same command."""
    out = tmp_path / "games.jsonl"
    args = [
        sys.executable,
        "-m",
        "seqsolve",
        "match",
        "random",
        "random",
        "--games",
        "4000",
        "--seed",
        "8",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--json",
        "--no-progress",
    ]
    proc, err = _interrupt_once_written(args, out)
    done_before = out.read_text().count("\n") - 1
    assert 0 < done_before
    if err == "seqsolve: interrupted\n":  # the signal landed after the last game, in the exit
        assert proc.returncode == 130 and done_before == 4000
    elif proc.returncode != 0:  # (a return code 0: finished before the signal landed)
        assert "rerun the same command" in err
    again = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    fresh = subprocess.run(
        args[:-4] + ["--json", "--no-progress"], capture_output=True, text=True, timeout=600
    )
    a, b = json.loads(again.stdout), json.loads(fresh.stdout)
    for key in ("games", "wins", "draws", "score", "score_ci", "elo", "turns", "by_side"):
        assert a[key] == b[key], key
    _, records = read_records(str(out))
    assert [r["game"] for r in records] == list(range(4000))


def _cut_to(path: Path, games: int) -> None:
    """What an interruption leaves: the header and the first ``games`` records."""
    lines = path.read_text().split("\n")
    path.write_text("\n".join(lines[: 1 + games]) + "\n")


def test_match_without_seed_resumes_from_its_own_records(tmp_path):
    """No --seed: a rerun takes the seed from the record file, so the same command resumes."""
    out = tmp_path / "games.jsonl"
    args = ("match", "random", "random", "--games", "8", "--out", str(out), "--json", "--no-progress")
    code, first, _ = run_cli(*args)
    assert code == 0
    whole = out.read_text()
    _cut_to(out, 3)
    code, again, stderr = run_cli(*args)
    assert code == 0, stderr
    a, b = json.loads(first), json.loads(again)
    assert f"seed {a['seed']} (from {out})" in stderr
    for key in ("seed", "games", "wins", "draws", "score", "turns"):
        assert a[key] == b[key], key
    before = sorted((json.loads(x) for x in whole.split("\n")[1:] if x), key=lambda r: r["game"])
    assert _stable(read_records(str(out))[1]) == _stable(before)
    # another match in that file is still refused, with or without a seed
    code, _, stderr = run_cli("match", "random", "greedy", "--games", "8", "--out", str(out), "--no-progress")
    assert code != 0 and "holds a different match" in stderr


def test_tournament_without_seed_resumes_from_its_own_records(tmp_path):
    folder = tmp_path / "t"
    args = (
        "tournament",
        "random",
        "greedy",
        "heuristic",
        "--games",
        "4",
        "--out",
        str(folder),
        "--json",
        "--no-progress",
    )
    code, first, _ = run_cli(*args)
    assert code == 0
    for path in sorted(folder.glob("*.jsonl"))[:2]:
        _cut_to(path, 1)
    code, again, stderr = run_cli(*args)
    assert code == 0, stderr
    a, b = json.loads(first), json.loads(again)
    assert "from" in stderr and str(a["seed"]) in stderr
    for key in ("seed", "ratings", "scores", "results"):
        assert a[key] == b[key], key


def test_tournament_that_cannot_be_seated_makes_no_folder(tmp_path):
    folder = tmp_path / "t"
    code, _, stderr = run_cli("tournament", "random", "greedy", "--players", "5", "--out", str(folder))
    assert code != 0 and "5 players cannot be seated" in stderr
    assert not folder.exists()


def test_interrupted_tournament_says_how_to_resume(tmp_path):
    """SIGINT during a pairing: records kept, one line naming the folder, SIGINT's exit code."""
    folder = tmp_path / "t"
    args = [
        sys.executable,
        "-m",
        "seqsolve",
        "tournament",
        "random",
        "greedy",
        "--games",
        "4000",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--out",
        str(folder),
        "--json",
        "--no-progress",
    ]
    records = folder / "random-vs-greedy.jsonl"
    proc, err = _interrupt_once_written(args, records)
    kept = records.read_text().count("\n") - 1
    if proc.returncode != 0:  # it may finish before the signal lands on a fast machine
        assert proc.returncode == 130
        assert (
            err.strip()
            .splitlines()[-1]
            .startswith(
                f"seqsolve: interrupted in random vs greedy; rerun the same command to resume from {folder}"
            )
        )
        assert 30 <= kept < 4000
    again = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert [r["game"] for r in read_records(str(records))[1]] == list(range(4000))


def test_foreign_out_file_is_refused_and_left_alone(tmp_path):
    out = tmp_path / "notes.jsonl"
    out.write_text("hello\n")
    code, _, stderr = run_cli("match", "random", "random", "--games", "2", "--out", str(out), "--seed", "1")
    assert code != 0 and "not a seqsolve match record file" in stderr
    assert out.read_text() == "hello\n"
    other = tmp_path / "other.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=1), 2, out=str(other))
    code, _, stderr = run_cli("match", "random", "greedy", "--games", "2", "--out", str(other), "--seed", "1")
    assert code != 0 and "holds a different match" in stderr


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, message",
    [
        (["nosuchbot", "random"], "unknown bot 'nosuchbot'"),
        (["mcts:iterz=5", "random"], "unknown parameter 'iterz'"),
        (["mcts:iters=many", "random"], "parameter iters takes a int"),
        (["random", "random", "--players", "5"], "5 players cannot be seated"),
        (["random", "random", "--players", "6"], "give the number of sides"),
        (["random", "random", "--players", "4", "--teams", "3"], "cannot form 3 equal sides"),
        (["random", "random", "--variant", "clasic"], "unknown preset 'clasic'"),
        (["random", "random", "--sprt", "elo0=0,elo1=oops"], "--sprt"),
        (["random", "random", "random"], "give two bots or one per side"),
        (["random", "random", "--jobs", "0"], "is not a number of workers"),
        (["random", "random", "--games", "0"], "--games"),
    ],
)
def test_bad_match_input_is_one_clear_line(tmp_path, args, message):
    out = tmp_path / "x.jsonl"
    code, _, stderr = run_cli("match", "--games", "2", "--out", str(out), *args)
    assert code != 0
    assert message in stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert not out.exists()


def test_bot_specs_parse_and_list_parameters():
    assert make_bot("mcts:iters=50,c=0.5").spec == "mcts:iters=50,c=0.5"
    with pytest.raises(BotError, match="known: "):
        make_bot("mcts:bogus=1")
    code, stdout, _ = run_cli("bots")
    assert code == 0 and "heuristic" in stdout and "iters=" in stdout


# ---------------------------------------------------------------- summaries


def test_match_json_summary_keys_and_sanity():
    code, stdout, _ = run_cli(
        "match", "greedy", "random", "--games", "40", "--seed", "3", "--json", "--jobs", "1"
    )
    assert code == 0
    summary = json.loads(stdout)
    for key in ("games", "wins", "draws", "score", "score_ci", "elo", "elo_ci", "games_per_s"):
        assert key in summary
    assert summary["games"] == 40
    low, high = summary["score_ci"]
    assert 0 <= low <= summary["score"] <= high <= 1
    assert summary["score"] > 0.8  # greedy crushes random
    assert sum(summary["wins"].values()) + summary["draws"] == 40


def test_sprt_stops_early_and_reports_decision():
    code, stdout, _ = run_cli(
        "match",
        "greedy",
        "random",
        "--games",
        "2000",
        "--seed",
        "4",
        "--json",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--jobs",
        "1",
    )
    assert code == 0
    summary = json.loads(stdout)
    assert summary["sprt"]["decision"] == "H1"
    assert summary["games"] < 2000


def test_tournament_table_and_replay(tmp_path):
    code, stdout, _ = run_cli(
        "tournament",
        "random",
        "greedy",
        "--games",
        "20",
        "--seed",
        "2",
        "--json",
        "--jobs",
        "1",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    report = json.loads(stdout)
    assert report["ratings"][0]["bot"] == "greedy"
    assert report["scores"]["greedy"]["random"] > 0.5
    path = next(tmp_path.glob("*.jsonl"))
    code, stdout, _ = run_cli("replay", str(path), "--game", "3")
    assert code == 0 and "result:" in stdout
    code, stdout, _ = run_cli("replay", str(path), "--game", "3", "--ply", "7")
    assert code == 0
    assert parse_position(stdout).turn <= 7


# ---------------------------------------------------------------- external bots


def test_external_bot_plays_a_match():
    config = MatchConfig(bots=(EXAMPLE_BOT, "random"), seed=6)
    records = run_games(config, 4, jobs=1)
    assert all(r["forfeit"] is None for r in records)
    assert all(r["termination"] != "forfeit" for r in records)


def _bot(tmp_path: Path, script: str) -> str:
    """The ext spec of a Python program whose body is ``script``."""
    prog = tmp_path / "bot.py"
    prog.write_text("import sys\n" + script)
    return f"ext:{sys.executable} {prog}"


ANSWERS_GO = "print('ready', flush=True)\nfor line in sys.stdin:\n    if line.startswith('go'):\n"


@pytest.mark.parametrize(
    "script, timeout, reason",
    [
        (ANSWERS_GO + "        print('move 2S@a1', flush=True)\n", 30, "illegal answer '2S@a1'"),
        (ANSWERS_GO + "        sys.exit(3)\n", 30, "the program exited with code 3"),
        # the one test of the limit itself: a program that sleeps far beyond it
        (ANSWERS_GO + "        import time; time.sleep(60)\n", 0.5, "no answer within the time limit"),
    ],
)
def test_failing_external_bot_loses_with_reason(tmp_path, script, timeout, reason):
    spec = _bot(tmp_path, script)
    records = run_games(MatchConfig(bots=(spec, "random"), seed=1, move_timeout=timeout), 2, jobs=1)
    for r in records:
        assert r["termination"] == "forfeit"
        assert reason in r["forfeit"]["reason"]
        assert r["side_bot"][r["winner_side"]] == 1  # the other bot wins


def test_external_bot_that_dies_before_the_handshake_loses_every_game(tmp_path):
    spec = _bot(tmp_path, "sys.exit(2)\n")
    records = run_games(MatchConfig(bots=(spec, "random"), seed=1), 4, jobs=1)
    assert [r["termination"] for r in records] == ["forfeit"] * 4
    for r in records:
        assert r["plies"] == 0 and r["forfeit"]["reason"] == "no handshake: the program exited with code 2"
        assert r["side_bot"][r["winner_side"]] == 1


def _without_seconds(path: Path) -> str:
    """A record file's text without the timing of each game, the one thing that may differ between runs."""
    return re.sub(r',"seconds":[0-9.e-]+', "", path.read_text())


@pytest.mark.parametrize(
    "script",
    [
        "print('ready', flush=True)\nsys.exit(0)\n",  # after it, before reading its first game
        (  # in the middle of a game, on its third move
            "print('ready', flush=True)\nn = 0\n"
            "for line in sys.stdin:\n    words = line.split()\n    if words[0] == 'legal':\n        legal = words[1:]\n"
            "    if words[0] == 'go':\n        n += 1\n        if n == 3:\n            sys.exit(4)\n"
            "        print('move', legal[0], flush=True)\n"
        ),
    ],
    ids=["before-first-game", "mid-game"],
)
def test_external_bot_forfeits_at_the_same_point_every_run(tmp_path, script):
    """A dying program is noticed at a point fixed by the games, not by how fast it died:
    five runs of the same command write the same records."""
    spec = _bot(tmp_path, script)
    runs = []
    for k in range(5):
        out = tmp_path / f"run{k}.jsonl"
        code, _, stderr = run_cli(
            "match",
            spec,
            "random",
            "--games",
            "4",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--no-progress",
        )
        assert code == 0, stderr
        runs.append(_without_seconds(out))
    assert runs == [runs[0]] * 5
    _, records = read_records(str(tmp_path / "run0.jsonl"))
    assert [r["termination"] for r in records] == ["forfeit"] * 4
    assert all(r["forfeit"]["bot"] == spec for r in records)


def test_move_timeout_reaches_the_program(tmp_path):
    """--move-timeout is the limit the program is told (go <ms>) in match and tournament."""
    spec = _bot(tmp_path, ANSWERS_GO + "        print('move', 'ms=' + line.split()[1], flush=True)\n")
    code, stdout, stderr = run_cli(
        "match",
        spec,
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--move-timeout",
        "25",
        "--json",
        "--no-progress",
    )
    assert code == 0, stderr
    assert "illegal answer 'ms=25000'" in json.loads(stdout)["forfeits"][0]["reason"]
    folder = tmp_path / "t"
    code, _, stderr = run_cli(
        "tournament",
        spec,
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--move-timeout",
        "7.5",
        "--out",
        str(folder),
        "--no-progress",
    )
    assert code == 0, stderr
    _, records = read_records(str(next(folder.glob("*.jsonl"))))
    assert all("illegal answer 'ms=7500'" in r["forfeit"]["reason"] for r in records)


@pytest.mark.parametrize("command", ["match", "tournament", "balance"])
@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_move_timeout_must_be_seconds_above_zero(command, value):
    bots = [] if command == "balance" else ["random", "greedy"]
    line = fails(command, *bots, "--move-timeout", value, code=2)
    assert "--move-timeout" in line and (
        "is not in the range 0 < x <= 86400" in line or "is not a finite number" in line
    )


def test_forfeit_reason_is_short_and_quotes_the_programs_stderr(tmp_path):
    """A huge answer is quoted by its start; a crash shows the end of the program's stderr."""
    spec = _bot(tmp_path, ANSWERS_GO + "        print('move ' + 'x' * 100000, flush=True)\n")
    code, stdout, _ = run_cli(
        "match", spec, "random", "--games", "2", "--seed", "1", "--jobs", "1", "--no-progress"
    )
    assert code == 0
    line = next(x for x in stdout.splitlines() if "forfeits:" in x)
    assert "x" * 80 + "…" in line and len(line) < 400
    crash = _bot(tmp_path, "print('loading', file=sys.stderr)\n" + ANSWERS_GO + "        1 / 0\n")
    records = run_games(MatchConfig(bots=(crash, "random"), seed=1), 2, jobs=1)
    for r in records:
        reason = r["forfeit"]["reason"]
        assert reason.startswith("the program exited with code 1; its stderr: ")
        assert reason.endswith("ZeroDivisionError: division by zero") and len(reason) < 250


def test_external_bot_outside_the_repository_says_why_it_failed(tmp_path, monkeypatch):
    """A relative script path that does not exist where seqsolve runs: the program's own
    complaint (its stderr) is the reason, and self-play records the forfeit like any result."""
    monkeypatch.chdir(tmp_path)
    config = MatchConfig(bots=("ext:python examples/random_bot.py",), fixed_seats=True, seed=3)
    records = run_games(config, 2, jobs=1, detail=GameDetail)
    for r in records:
        assert r["termination"] == "forfeit" and r["plies"] == 0
        assert "examples/random_bot.py" in r["forfeit"]["reason"] and "No such file" in r["forfeit"]["reason"]
        assert r["winner_side"] == 1  # seat 0 forfeits; in self-play the next side is credited


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ext:/nonexistent/bot", "bot ext: cannot find the program '/nonexistent/bot'"),
        ("ext:'python", "bot ext: cannot read the command"),
        ("ext:", "bot ext: give the program to run"),
        ("ext:   ", "bot ext: give the program to run"),
        (
            "ext:python bot.py,timeout=1",
            "',timeout=1' in 'python bot.py,timeout=1' reads like a bot parameter",
        ),
    ],
)
def test_external_bot_that_cannot_run_is_one_line_before_any_game(tmp_path, spec, message):
    out = tmp_path / "games.jsonl"
    code, _, stderr = run_cli("match", "random", spec, "--games", "2", "--out", str(out), "--no-progress")
    assert code != 0
    assert stderr.strip().splitlines() == [stderr.strip()] and message in stderr
    assert not out.exists()


# ---------------------------------------------------------------- Dask


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen) -> None:
    """Until something listens on ``port`` (the scheduler is up), however long it takes to start;
    the bound only stops a hung start."""
    deadline = time.monotonic() + 600
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the Dask scheduler did not start (exit {proc.poll()})")
        time.sleep(0.1)


def test_dask_backend_gives_identical_results():
    """A real scheduler and worker on loopback run the same games as joblib's processes."""
    import distributed  # noqa: F401  (installed by the test extra: a missing one must fail, not skip)

    dask = shutil.which("dask") or str(Path(sys.executable).with_name("dask"))
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    ]
    try:
        _wait_for_port(port, procs[0])
        procs.append(
            subprocess.Popen(
                [dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        )
        args = ["match", "random", "greedy", "--games", "24", "--seed", "13", "--json"]
        code, dask_out, err = run_cli(*args, "--backend", "dask", "--scheduler", address)
        assert code == 0, err
        code, local_out, _ = run_cli(*args, "--jobs", "1")
        a, b = json.loads(dask_out), json.loads(local_out)
        for key in ("games", "wins", "draws", "score", "score_ci", "turns", "by_side"):
            assert a[key] == b[key], key
    finally:
        for p in reversed(procs):
            p.terminate()
            p.wait(timeout=30)
