"""Playing a match's games on this machine's cores: when to start worker processes,
how many games each is given at a time, and the one pool every match of a run shares.

Why not simply ``joblib.Parallel``: a worker process costs a Python start-up and the
import of numpy and seqsolve (about a quarter of a CPU second) before its first game,
and a greedy match of 40,000 games is only a few seconds of work.  So the runner

* plays the first games here, timing them: a run whose whole work is estimated
  under :data:`IN_PROCESS_SECONDS` never starts a worker (a run: the matches of this
  process, so that a balance grid of many short matches still gets its pool);
* otherwise starts the workers and keeps playing games here until the first of
  them answers, so their start-up is not time lost;
* starts the pool once per process (:func:`pool`) and reuses it for every later match
  of a tournament or balance run;
* sizes each task by the measured cost of a game, large while much is left and
  smaller towards the end (guided scheduling), so both cores finish together;
* keeps two tasks per worker queued, so no worker waits for the runner;
* forks its workers on Linux (no joblib, no resource-tracker process: :func:`pool`),
  and, for a caller that reads columns (``match``) and keeps no record file, has them
  send their games column by column (:mod:`.columns`): a fifth of the runner's work
  to take in, against records.

What the runner does while no worker plays (its start-up, the first games, the report)
is what a second core cannot shorten: ``benchmarks/jobs_scaling.py`` measures it.

Which process plays which game changes nothing: every game is a pure function of
(config, game number) (see :mod:`.seeds`), so records are the same at any ``--jobs``.
The other joblib backends (``threading``, ``dask``) keep joblib's own scheduling in
:mod:`.match`.
"""

from __future__ import annotations

import atexit
import itertools
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .columns import Columns
from .records import record_lines

#: a match whose games are estimated to take less CPU time than this in all (seconds)
#: is played in this process: starting workers would cost more than they save.  0:
#: every game on the workers, none played here (what the tests of lost workers need)
IN_PROCESS_SECONDS = 1.0

#: the first games are played here until they have taken this long (seconds), to
#: measure what a game costs before deciding how to play the rest: the second core
#: idles meanwhile, so it is kept short (a hundred greedy games measure them)
PROBE_SECONDS = 0.01

#: a task takes about this long (seconds) at most, and at least :data:`SHORTEST_TASK`
#: (towards the end of a match): long enough that a task's own cost (dispatch, the
#: records sent back, a record file's write) stays small, short enough that progress,
#: Ctrl-C and an SPRT's stop are answered soon
LONGEST_TASK, SHORTEST_TASK = 0.5, 0.02

#: loky's idle workers end after this many seconds (a fork pool's live as long as the
#: process); between the matches of a run they wait
IDLE_SECONDS = 300


@dataclass
class RunStats:
    """What a run did with processes (for benchmarks and tests; results never depend on it).

    ``worker_cpu`` is each worker process's CPU time so far (start-up included) when it
    last finished a task; ``here_games`` the games played in the runner's own process.
    """

    pool_started: bool = False
    here_games: int = 0
    worker_games: int = 0
    tasks: int = 0
    worker_cpu: dict[int, float] = field(default_factory=dict)


#: CPU seconds of games played in this process so far: a run of many short matches
#: (a balance grid, a tournament) starts its pool once they add up to a long run
here_seconds = 0.0

#: the pool of this process and its number of workers; None before the first
_POOL: list = [None, 0]

#: how many pools this process has started (one per run, unless a worker died)
pools_started = 0


@atexit.register
def _let_go() -> None:
    """At exit, once the standard library's own exit hook has ended the workers (it
    runs before this one), drop the pool while the modules its clean-up calls are
    still there: a pool left to the interpreter's last sweep is collected after
    ``concurrent.futures.process`` (imported only when a run first needs workers)
    and prints an "Exception ignored" traceback."""
    _POOL[:] = [None, 0]


def pool(n_jobs: int):
    """The process's worker pool with at least ``n_jobs`` workers: a new one only when
    there is none yet, or the last one broke or was stopped.  Its processes are born
    at the first ``submit`` (call that with Ctrl-C held), without waiting for them.

    On Linux the workers are forks of this process: they start in milliseconds with
    seqsolve already imported, where a fresh interpreter (loky's way, kept elsewhere)
    spends a quarter of a CPU second importing numpy and seqsolve, a tenth of a
    40,000-game greedy match.  A fork holds nothing of the runner's files
    (:func:`_forget_files`): a record file's lock stays the runner's alone.
    """
    global pools_started
    if alive(n_jobs):
        return _POOL[0]
    stop_pool()
    if _FORK and threading.active_count() == 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("fork")
        executor = ProcessPoolExecutor(
            n_jobs, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
        )
    else:  # other systems, or a program with threads
        # a pool of its own, not loky's process-wide reusable one: joblib's Parallel
        # takes that one over and expects its own set-up on it
        from joblib.externals.loky.process_executor import ProcessPoolExecutor as LokyPool

        executor = LokyPool(max_workers=n_jobs, timeout=IDLE_SECONDS)
    _POOL[:] = [executor, n_jobs]
    pools_started += 1
    return executor


#: fork the workers on Linux: the standard library's fork pool makes them all before
#: its own threads start, and the runner forks only while it is the process's one
#: thread (a fork copies no other thread, nor so any lock one holds); else loky's
#: fresh interpreters
_FORK = sys.platform.startswith("linux")


def _broken(executor) -> bool:
    flags = getattr(executor, "_flags", None)  # loky's
    if flags is not None:
        return bool(flags.broken or flags.shutdown)
    return bool(executor._broken or executor._shutdown_thread)


def _start_worker(runner: int) -> None:
    """In a forked worker, first: end with the runner, and hold none of its files."""
    _end_with(runner)
    _forget_files()


def _end_with(runner: int) -> None:
    """Have the kernel kill this worker when the runner dies (``PR_SET_PDEATHSIG``).

    loky's workers watch their parent; a fork of the standard library's pool would wait
    for ever on a task queue that its sibling forks keep open, after a ``kill -9`` of the
    runner or the out-of-memory killer's.  A runner already gone: the worker ends now.
    """
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() != runner:
        os._exit(1)


def _forget_files() -> None:
    """In a forked worker: close what it inherited of the runner's files and folders (a
    record file, a folder's lock), so that an ``flock`` is released when the runner
    closes its own copy, not when the pool ends.  Pipes and sockets (the worker's
    own queues) are kept."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            mode = os.fstat(fd).st_mode
        except OSError:  # the listing's own descriptor, already closed
            continue
        if fd > 2 and (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            os.close(fd)


def alive(n_jobs: int) -> bool:
    """Whether this process has a working pool of at least ``n_jobs`` workers."""
    executor, size = _POOL
    return executor is not None and size >= n_jobs and not _broken(executor)


def stop_pool() -> None:
    """Kill the workers at once (Ctrl-C, a stop, a lost worker): their tasks are not wanted."""
    executor = _POOL[0]
    _POOL[:] = [None, 0]
    if executor is None:
        return
    if not hasattr(executor, "_flags"):  # the standard library's (a fork pool)
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            if process.is_alive():
                process.kill()
        executor.shutdown(wait=True, cancel_futures=True)
    else:  # loky's (other systems, or a program with threads): its killed workers are waited for
        executor.shutdown(wait=True, kill_workers=True)


def forks() -> bool:
    """Whether the process's pool is (or, started now, would be) a fork pool: no
    joblib, no loky and no resource tracker process for it, only forks of this one."""
    executor = _POOL[0]
    if executor is not None:
        return not hasattr(executor, "_flags")
    return _FORK and threading.active_count() == 1


class LostWorker(RuntimeError):
    """A worker process of a fork pool died (killed by a signal, the out-of-memory
    killer); the message gives the exit codes of the workers as loky's
    ``TerminatedWorkerError`` does, which the runner answers alike."""


def lost(exc: BaseException) -> bool:
    """Whether ``exc`` says a worker process died: a fork pool's, or loky's (looked up
    only when loky was imported: a fork pool never imports it)."""
    if isinstance(exc, LostWorker):
        return True
    loky = sys.modules.get("joblib.externals.loky.process_executor")
    return loky is not None and isinstance(exc, loky.TerminatedWorkerError)


def lost_worker(executor, exc: BaseException) -> BaseException:
    """A fork pool's ``BrokenProcessPool`` as a :class:`LostWorker` with the exit
    codes of the workers."""
    codes = []
    for process in (getattr(executor, "_processes", None) or {}).values():
        process.join(1)
        code = process.exitcode
        if code is not None and code < 0:
            codes.append(f"{signal.Signals(-code).name}({code})")
        elif code:
            codes.append(f"EXIT({code})")
    return LostWorker(
        f"a worker process died ({exc}); the exit codes of the workers are {{{', '.join(codes)}}}"
    )


def worker_task(play: Callable, config, games: list[int], detail, moves: bool, packed: bool = False) -> tuple:
    """One task in a worker: ``play``'s records of ``games`` with what they cost there:
    (pid, the process's CPU time so far, the task's CPU seconds, records, and with
    ``moves`` (a record file is kept) their lines for the file, written here).  With
    ``packed`` the records travel as :class:`~.columns.Columns` (a fifth of the
    runner's work to take in: see :mod:`.columns`)."""
    started = time.process_time()
    records = play(config, games, detail, moves)
    lines = record_lines(records) if moves else None
    if packed:
        records = Columns.of(records)
    cpu = time.process_time()
    return os.getpid(), cpu, cpu - started, records, lines


class Cost:
    """The measured cost of a game in CPU seconds (a task's own cost included: CPU time,
    so that a busy machine does not make games look dearer), and the task sizes it gives.

    A game's cost is taken from the biggest task measured (the latest of equals): the
    first games of a process also pay for its tables and warm caches, and a task's
    fixed cost weighs least on the biggest.
    """

    def __init__(self, per_deal: int, fixed: int | None = None):
        self.per_deal, self.fixed = per_deal, fixed
        self.seconds = 0.0  # all measured, in all
        self.games = 0
        self._biggest = (0, 0.0)  # games and seconds of the biggest task

    def add(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds
        if games >= self._biggest[0]:
            self._biggest = (games, seconds)

    @property
    def per_game(self) -> float:
        games, seconds = self._biggest
        return seconds / max(games, 1)

    def size(self, left: int, n_jobs: int, longest: float = LONGEST_TASK) -> int:
        """Games in the next task, with ``left`` games still to hand out to ``n_jobs``
        players: a quarter of each one's share of the work left, within
        [:data:`SHORTEST_TASK`, ``longest``] seconds, in whole deals where it can
        (``fixed`` games when it is set).

        >>> cost = Cost(2)
        >>> cost.add(10, 0.01)  # a millisecond a game
        >>> cost.size(40_000, 2), cost.size(100, 2)
        (500, 20)
        """
        if self.fixed:
            return self.fixed
        if not self.games:  # nothing measured yet: a deal at a time until a task answers
            return self.per_deal
        seconds = min(longest, max(SHORTEST_TASK, left * self.per_game / (4 * n_jobs)))
        games = max(1, int(seconds / max(self.per_game, 1e-9)))
        if games > self.per_deal:
            games -= games % self.per_deal
        return games


def take(todo: Iterator[int], size: int) -> list[int]:
    """The next ``size`` games of ``todo`` (fewer at its end)."""
    return list(itertools.islice(todo, size))


def play_here(play: Callable, config, games: list[int], detail, moves: bool, cost: Cost) -> list[dict]:
    """``games`` played in this process, their time added to ``cost``."""
    global here_seconds
    started = time.process_time()
    records = play(config, games, detail, moves)
    cost.add(len(games), time.process_time() - started)
    here_seconds += time.process_time() - started
    return records


def play_on_workers(
    play: Callable,
    config,
    todo: Iterator[int],
    left: int,
    n_jobs: int,
    cost: Cost,
    detail,
    moves: bool,
    take_records: Callable[[list[dict], str | None], bool],
    held: Callable,
    stats: RunStats,
    here: bool = True,
    packed: bool = False,
) -> None:
    """Play the ``left`` games of ``todo`` on ``n_jobs`` workers of the :func:`pool`,
    this process playing too (with ``here``) until the first worker answers.  ``take_records`` gets
    every finished task's records (in completion order; from a worker, as
    :class:`~.columns.Columns` with ``packed``), with their lines for a record file
    when the worker made them, and returns True to stop.

    Raises:
        LostWorker, TerminatedWorkerError: a worker died (of a fork pool, of loky's);
            what finished is kept (the pool is stopped).
    """
    from concurrent.futures import FIRST_COMPLETED, Future, wait
    from concurrent.futures.process import BrokenProcessPool

    executor = pool(n_jobs)
    stats.pool_started = True
    running: set[Future] = set()
    try:

        def submit() -> bool:
            nonlocal left
            part = take(todo, cost.size(left, n_jobs))
            if not part:
                return False
            left -= len(part)
            running.add(executor.submit(worker_task, play, config, part, detail, moves, packed))
            return True

        sys.stdout.flush()  # a fork would write what is buffered again when it ends
        sys.stderr.flush()
        with held():  # the workers are born here (and loky's thread that replaces a lost one)
            while len(running) < 2 * n_jobs and submit():
                pass
        while running or (here and left):
            if here and left:
                part = take(todo, cost.size(left, n_jobs + 1, SHORTEST_TASK * 2))
                left -= len(part)
                records = play_here(play, config, part, detail, moves, cost)
                stats.here_games += len(part)
                if take_records(records, None):
                    stop_pool()
                    return
                finished = {f for f in running if f.done()}
            else:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                running.discard(f)
                pid, cpu, seconds, records, lines = f.result()
                here = False
                cost.add(len(records), seconds)
                stats.tasks += 1
                stats.worker_games += len(records)
                stats.worker_cpu[pid] = max(cpu, stats.worker_cpu.get(pid, 0.0))
                if take_records(records, lines):
                    stop_pool()
                    return
                submit()
    except BrokenProcessPool as exc:  # from a result, or from a submit once the pool broke
        lost = exc if "loky" in type(exc).__module__ else lost_worker(executor, exc)
        stop_pool()
        raise lost from None
    except BaseException:
        stop_pool()
        raise
