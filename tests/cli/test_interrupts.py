"""Ctrl-C (SIGINT) stops every long command within about a second, cleanly.

Each command runs as a real ``python -m seqsolve`` process on a workload that
would take far longer than the test (hours: ``--depth 12``, ``--iters 999999999``,
a million games).  The test waits until the command says on stderr that its long
part has begun, sends SIGINT, and expects what every interruption promises:
exit code 130, nothing on stdout, one ``seqsolve: interrupted...`` line as the
last line on stderr (after any progress), no traceback and no "Exception
ignored".  The time limit is generous on purpose: what it catches is a command
that ignores the signal, not a slow machine.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

import pytest

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

STOPS_WITHIN = 45.0  # seconds after SIGINT; an uninterrupted run takes hours


@pytest.fixture
def start():
    """Start ``python -m seqsolve ARGS``; whatever is still running at the end is killed."""
    started = []

    def spawn(args: list[str], python_flags: tuple[str, ...] = (), group: bool = False) -> subprocess.Popen:
        proc = subprocess.Popen(
            [sys.executable, *python_flags, "-m", "seqsolve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=group,
        )
        started.append(proc)
        return proc

    yield spawn
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _file_holds(path, limit: float = 120.0) -> None:
    """Wait until the command has written its first line to ``path``."""
    deadline = time.monotonic() + limit
    while not (os.path.exists(path) and open(path, "rb").read().count(b"\n") >= 1):
        assert time.monotonic() < deadline, f"{path} was never written"
        time.sleep(0.02)


def _stderr_until(proc: subprocess.Popen, marker: str, limit: float = 120.0) -> str:
    """What the process wrote on stderr up to and including ``marker`` (progress
    lines end in ``\\r``, not a newline, so this reads what is there)."""
    seen = b""
    deadline = time.monotonic() + limit
    fd = proc.stderr.fileno()
    while marker.encode() not in seen:
        assert time.monotonic() < deadline, f"no {marker!r} on stderr: {seen[-500:]!r}"
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the command ended before {marker!r}: {seen[-500:]!r}"
            seen += chunk
    return seen.decode()


def _interrupt(proc: subprocess.Popen, before: str, group: bool = False) -> tuple[str, str]:
    """SIGINT (to the process, or its whole group as a terminal's Ctrl-C does),
    then check the promises; returns stdout and the whole of stderr."""
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=STOPS_WITHIN + 60)
    waited = time.monotonic() - sent
    err = before + err.decode()
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    assert waited < STOPS_WITHIN, f"took {waited:.1f} s to stop"
    assert out == b""
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.strip()]
    said = [line for line in lines if line.startswith("seqsolve:")]
    assert len(said) == 1 and lines[-1] == said[0], lines[-5:]
    assert said[0].startswith("seqsolve: interrupted"), said
    return out.decode(), err


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("interrupts") / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=1), 2, jobs=1, out=str(path))
    return str(path)


@pytest.mark.parametrize(
    "args, marker",
    [
        (["perft", "example:4", "--depth", "12", "--progress"], "counting the leaves"),
        (["perft", "example:4", "--depth", "12", "--divide", "--progress"], "counting the leaves"),
        (["analyze", "example:2", "--iters", "999999999", "--progress"], "searching"),
        (["analyze", "example:2", "--iters", "999999999", "--jobs", "2", "--progress"], "searching"),
        (["bench", "--games", "100000000"], "playing"),
        (["match", "random", "greedy", "--games", "1000000", "--jobs", "1", "--progress"], "games/s"),
        (["tournament", "random", "greedy", "--games", "1000000", "--jobs", "1", "--progress"], "games/s"),
        (["balance", "--games", "1000000", "--jobs", "1", "--progress"], "games/s"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_long_command_stops_on_sigint(start, args, marker):
    proc = start(args)
    _interrupt(proc, _stderr_until(proc, marker))


@pytest.mark.parametrize(
    "bot",
    ["mcts:iters=999999999", "mcts:iters=999999999,work=0", "rollout:worlds=9999999", "mcts:time=86400"],
)
def test_match_stops_inside_a_search_and_says_how_to_resume(start, tmp_path, bot):
    """The search of a move runs on the main thread, in the compiled loop or (time=)
    in the Python runner: it checks for Ctrl-C itself."""
    out = tmp_path / "games.jsonl"
    proc = start(["match", bot, "random", "--games", "2", "--jobs", "1", "--seed", "1", "--out", str(out)])
    _file_holds(out)
    _, err = _interrupt(proc, "")
    assert err.rstrip().endswith(f"rerun the same command to resume from {out}")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_annotate_stops_on_sigint(start, record, jobs):
    proc = start(["annotate", record, "--game", "0", "--iters", "999999999", "--jobs", jobs, "--progress"])
    _, err = _interrupt(
        proc, _stderr_until(proc, "annotating game 0: [------------------------------] 0/78 decisions")
    )
    assert err.rstrip().endswith("seqsolve: interrupted after 0 of 78 decisions")


def test_ctrl_c_reaches_the_workers_too(start):
    """A terminal's Ctrl-C signals the whole process group, joblib's worker processes included."""
    proc = start(["match", "random", "greedy", "--games", "1000000", "--jobs", "2", "--progress"], group=True)
    _interrupt(proc, _stderr_until(proc, "games/s"), group=True)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:  # ended meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _cmdline(pid: int) -> str | None:
    try:
        return open(f"/proc/{pid}/cmdline").read()
    except OSError:  # ended meanwhile
        return None


def _sigint_blocked(pid: int) -> bool:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("SigBlk:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
    raise AssertionError(f"no SigBlk in /proc/{pid}/status")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc (Linux)")
def test_workers_are_born_with_ctrl_c_held(start):
    """A worker still importing when Ctrl-C comes cannot have set a handler yet, and
    would print a traceback: the workers start with SIGINT blocked (the runner
    answers for them), and the runner itself does not keep it blocked."""
    proc = start(["match", "random", "greedy", "--games", "1000000", "--jobs", "2", "--progress"], group=True)
    before = _stderr_until(proc, "games/s")
    # the workers are forks of the command (its own command line; the trackers are not),
    # born once the first games have shown that the match is long
    command = open(f"/proc/{proc.pid}/cmdline").read()
    deadline = time.monotonic() + 60
    while len(workers := [p for p in _children(proc.pid) if _cmdline(p) == command]) < 2:
        assert time.monotonic() < deadline, workers
        time.sleep(0.05)
    assert len(workers) == 2, workers
    assert all(_sigint_blocked(pid) for pid in workers)
    while _sigint_blocked(proc.pid):  # held only while the workers are being born
        assert time.monotonic() < deadline, "the runner keeps SIGINT blocked"
        time.sleep(0.05)
    _interrupt(proc, before, group=True)


def test_sigint_while_the_command_line_is_imported(start):
    """Ctrl-C right after start: ``-X importtime`` reports each import on stderr as it
    completes, so the signal is sent while the command line is still being imported
    (numpy has just come in; the bots and the commands have not)."""
    proc = start(["analyze", "example:2", "--iters", "999999999"], python_flags=("-X", "importtime"))
    before = _stderr_until(proc, " numpy\n")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    err = before + err.decode()
    own = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert proc.returncode == 130, err[-2000:]
    assert out == b"" and own == ["seqsolve: interrupted"], own


def test_a_ctrl_c_caught_inside_exec_code_keeps_the_exit_code(tmp_path):
    """CPython remembers a KeyboardInterrupt that passed through code run by exec()
    of a string (as dataclasses build their methods), even once caught, and under
    ``python -m`` kills itself with SIGINT at exit: the exit code must survive it."""
    (tmp_path / "ctrl_c_in_exec.py").write_text(
        "import os, signal\n"
        "from seqsolve.__main__ import run\n"
        "import seqsolve.cli\n"  # imports run exec() of strings too, which would hide the note
        "try:\n"
        "    exec('os.kill(os.getpid(), signal.SIGINT)\\nfor _ in range(10**6): pass')\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
        "run(['--version'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "ctrl_c_in_exec"], cwd=tmp_path, capture_output=True, timeout=120
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
