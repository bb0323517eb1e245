"""Bot matchups: who plays which seat, with which seeds, where the records go.

The runner owns seeds, seats and records (STYLE habit 5).  Every game is a
pure function of (match config, game index): its deal comes from
``SeedSequence(seed, spawn_key=(deal,))`` and its bots' streams from keys under
it, so results never depend on ``--jobs``, chunking, the backend or the order
in which games finish.  Deals are shared: with ``T`` sides, every deal is
played ``T`` times and the first bot plays each side once (for two sides, the
paired games of chess-engine testing: the same shuffle with seats swapped).

A config with ``fixed_seats`` (self-play for rule-variant balance) instead
keeps every bot on its seat and gives every game its own deal, so that games
are independent samples of the seats' chances.  With ``detail`` (what makes a
:class:`Tally`, such as the game's own ``tally``, the balance analysis' count) the
runner also records what it counts of each game in a ``detail`` field.

The runner knows no game's rules: it deals through the variant's game
(:func:`seqsolve.games.game_for`) and speaks the game interface of
:mod:`seqsolve.games.base` (moves recorded by ``action_to_string``).
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol

import numpy as np

from ..bots import BotFailure, make_bot
from ..games.base import GameState, turns_played
from ..games.bot import Bot
from . import pool
from .columns import Columns, Outcomes, parts_of
from .config import MatchConfig, MatchError, check_config, game_identity, game_score
from .records import RecordFile, game_ending
from .seeds import stream_words


class Tally(Protocol):
    """Counts what one game did, beyond its result: the runner applies every action
    through :meth:`play` and puts what :meth:`finish` returns in the record.  Made
    as ``detail(rules)`` in the worker, so ``detail`` must pickle (a class, or the
    ``tally`` method of a game)."""

    def play(self, state: GameState, action: int, n_legal: int) -> None:
        """Apply ``action`` (one of ``n_legal`` legal actions) to ``state``, counting it."""

    def finish(self, state: GameState) -> dict: ...


MakeTally = Callable[..., Tally]


# ---------------------------------------------------------------- one game


def play_game(
    config: MatchConfig,
    game: int,
    bots: list[Bot] | None = None,
    detail: MakeTally | None = None,
    moves: bool = True,
) -> dict:
    """Play game number ``game`` of a match and return its record.

    With ``detail`` the record also holds a ``detail`` dict, what a ``detail(rules)`` tally counted;
    without ``moves`` it leaves out the move list (``plies`` still counts them):
    writing every move as text is a fifth of a random game's cost, and a run
    that keeps no record file never reads them.
    """
    rules = config.rules()
    seat_bot = config.seat_bots(game)
    owned = bots is None
    if bots is None:
        bots = _make_bots(config)
    state = config.game.new_initial_state(rules, seed=config.deal_seed(game))
    rngs = [np.random.default_rng(config.bot_seed(game, s)) for s in range(rules.players)]
    played: list[str] | None = [] if moves else None
    plies = 0
    last = None  # the last action played
    forfeit = None
    tally = detail(rules) if detail else None
    started = time.perf_counter()
    try:
        for seat in range(rules.players):
            try:
                _start(bots[seat_bot[seat]], rules, state.seats, seat)
            except BotFailure as exc:  # a program that does not start loses like one that crashes
                forfeit = {"seat": seat, "bot": config.bots[seat_bot[seat]], "reason": str(exc)}
                break
        while forfeit is None and not state.is_terminal():
            seat = state.current_player
            bot = bots[seat_bot[seat]]
            try:
                view = state if bot.open_information else state.observation(seat)
                action = bot.choose(view, rngs[seat])
                legal = state.legal_actions()
                if action not in legal:
                    raise BotFailure(f"illegal action {state.action_to_string(action)}")
            except BotFailure as exc:
                forfeit = {"seat": seat, "bot": config.bots[seat_bot[seat]], "reason": str(exc)}
                break
            plies += 1
            if played is not None:
                played.append(state.action_to_string(action))
            if tally is None:
                state.apply_legal(action)
            else:
                tally.play(state, action, len(legal))
            last = action
    finally:
        if owned:
            for bot in bots:
                bot.close()
    ending = _ending(state, seat_bot, forfeit, last)
    record = _record(config, game, ending, played, plies, forfeit, time.perf_counter() - started)
    if tally is not None:
        record["detail"] = tally.finish(state)
    return record


def _make_bots(config: MatchConfig) -> list[Bot]:
    """The config's bots, held to its time limit per move."""
    bots = [make_bot(spec, config.game) for spec in config.bots]
    for bot in bots:
        bot.move_timeout = config.move_timeout
    return bots


def _start(bot: Bot, rules, seats: str, seat: int) -> None:
    try:
        bot.start(rules, seats, seat)
    except BotFailure:
        raise
    except OSError as exc:  # pragma: no cover - defensive
        raise BotFailure(str(exc)) from None


def _forfeit_winner(seat_bot: list[int], seat: int, teams: int) -> int:
    """The side credited with a game forfeited from ``seat``: the first other side
    played by another bot or, in self-play (no such side), the side after the
    forfeiting one in turn order."""
    side = seat % teams
    others = [s for s in range(teams) if s != side and seat_bot[s] != seat_bot[seat]]
    return others[0] if others else (side + 1) % teams


def _ending(
    state, seat_bot: list[int], forfeit: dict | None, last_action: int | None
) -> tuple[str, int | None, str, int]:
    """How a game ended, as its record says it: result, winning side, termination, turns."""
    turns = turns_played(state, last_action)
    if forfeit is None:
        ending = game_ending(state)
        return ending["result"], ending["winner_side"], ending["termination"], turns
    winner_side = _forfeit_winner(seat_bot, forfeit["seat"], state.rules.teams)
    return state.sides[winner_side], winner_side, "forfeit", turns


def _record(config, game, ending, moves, plies, forfeit, seconds, identity: dict | None = None) -> dict:
    """Game ``game``'s record; ``identity`` is its :func:`game_identity` when the caller has it."""
    result, winner_side, termination, turns = ending
    if identity is None:
        identity = game_identity(config, game)
    return {
        **identity,
        **({} if moves is None else {"moves": moves}),
        "result": result,
        "winner_side": winner_side,
        "termination": termination,
        "forfeit": forfeit,
        "turns": turns,
        "plies": plies,
        "score": game_score(identity["side_bot"], winner_side),
        "seconds": round(seconds, 6),
    }


def _play_chunk(
    config: MatchConfig, games: list[int], detail: MakeTally | None = None, moves: bool = True
) -> list[dict]:
    """One joblib task: a few games sharing bot instances (and their warm memory), in
    the game's compiled loop when it can play every bot of the match."""
    bots = _make_bots(config)
    try:
        rules = config.rules()
        loop = config.game.loop(rules, [bot.loop_chooser(rules) for bot in bots], detail)
        if loop is not None:
            return _play_compiled(config, games, loop, detail is not None, moves)
        return [play_game(config, g, bots, detail, moves) for g in games]
    finally:
        for bot in bots:
            bot.close()


def _play_compiled(config: MatchConfig, games: list[int], loop, detail: bool, moves: bool) -> list[dict]:
    """The records of ``games`` played whole in the compiled loop: the same games, from
    the same streams (:func:`~.seeds.stream_words`), as :func:`play_game` plays."""
    per = config.games_per_deal
    seatings: dict[int, list[int]] = {}  # a game's seating depends on its place in the deal alone
    identities: dict[int, dict] = {}
    plan = []
    for g in games:
        if g % per not in seatings:
            seatings[g % per] = config.seat_bots(g)
            identities[g % per] = game_identity(config, g)
        plan.append((g // per, g % per, seatings[g % per]))  # config.deal_index, without its lookups
    records = []
    endings = loop.play(stream_words(config.seed, config.stream), plan, moves, detail)
    # _record's fields, in its order, filled in on a copy of a blank record per seating: a
    # greedy game takes some 25 us, of which building its record took 1.3 us, now 0.9
    blank = dict.fromkeys(
        ("result", "winner_side", "termination", "forfeit", "turns", "plies", "score", "seconds")
    )
    blanks: dict[int, dict] = {}
    for g, (result, winner, termination, turns, plies, seconds, played, counted) in zip(games, endings):
        record = blanks.get(g % per)
        if record is None:
            moved = {} if played is None else {"moves": None}
            record = blanks[g % per] = {**identities[g % per], **moved, **blank}
        record = record.copy()
        record["game"] = g
        record["deal"] = g // per
        if played is not None:
            record["moves"] = played
        record["result"] = result
        record["winner_side"] = winner
        record["termination"] = termination
        record["turns"] = turns
        record["plies"] = plies
        record["score"] = game_score(record["side_bot"], winner)
        record["seconds"] = round(seconds, 6)
        if counted is not None:
            record["detail"] = counted
        records.append(record)
    return records


# ---------------------------------------------------------------- running


def chunks(games: Iterable[int], size: int) -> Iterator[list[int]]:
    """``games`` in lists of ``size``, each made only when it is asked for: a match
    of a billion games never holds a billion game numbers."""
    part: list[int] = []
    for game in games:
        part.append(game)
        if len(part) == size:
            yield part
            part = []
    if part:
        yield part


def import_runner(backend: str | None = None) -> None:
    """Import what will run the games now.  A Ctrl-C that lands inside an import can
    be lost, or end the process by the signal after its message, so the commands
    import it before they write a record file: from then on an interruption is
    theirs to answer (and to say how to resume).  On this machine that is the
    standard library's process pool when the workers will be forks (Linux, one
    thread: see :mod:`.pool`), which needs no joblib (a twentieth of a CPU second
    at the start of every command); else joblib and its process backend."""
    if backend in (None, "loky") and pool.forks():
        import concurrent.futures.process  # noqa: F401
        import multiprocessing.context  # noqa: F401

        return
    import joblib  # noqa: F401
    from joblib.externals import loky  # noqa: F401


def workers(jobs: int, n_chunks: int, backend: str | None = None) -> int:
    """How many workers to start for ``n_chunks`` chunks of games (on this machine:
    games) at ``--jobs jobs``.

    -1 is every core.  Never more workers than chunks (an idle worker still costs a
    process, and a thousand of them exhaust the machine's semaphores), nor, for the
    local process backends, more than the machine's cores.

    >>> workers(1000, 2, None) <= 2
    True
    """
    if jobs != -1 and jobs < 1:
        raise MatchError(f"{jobs} is not a number of workers (use 1, 2, ... or -1 for every core)")
    cores = os.cpu_count() or 1
    wanted = cores if jobs == -1 else jobs
    if backend in (None, "loky", "multiprocessing"):
        wanted = min(wanted, cores)
    return max(1, min(wanted, n_chunks))


def run_games(
    config: MatchConfig,
    games: int,
    jobs: int = -1,
    out: str | RecordFile | None = None,
    on_records: Callable[[list[dict]], bool | None] | None = None,
    backend: str | None = None,
    chunk: int | None = None,
    detail: MakeTally | None = None,
    stats: pool.RunStats | None = None,
    columns: bool = False,
) -> list[dict] | Outcomes:
    """Play games ``0 .. games-1`` (skipping those already in ``out``) in parallel.

    ``on_records`` sees every finished chunk (in completion order); returning True
    stops the run early (SPRT).  ``detail`` adds the ``detail`` field of
    :func:`play_game` to new records.  Returns every record, ordered by game number.
    The record file ``out`` (a path, or a :class:`~seqsolve.play.records.RecordFile` the
    caller holds open) is checked whole before any game is played, and locked until
    the run ends.  A worker process that dies (killed for lack of memory, a signal)
    has its games played again by new workers: the same games, from the same seeds.
    On this machine (no ``backend``, or ``loky``) the games are scheduled by
    :mod:`.pool`: a short match starts no worker, a long one shares the process's one
    pool; ``chunk`` fixes the games per task (else they follow the measured cost of a
    game) and ``stats``, when given, is filled in with what the run did with processes.
    With ``columns`` (a caller that reads a few fields, such as a match's report) the
    records come as :class:`~.columns.Outcomes`, and ``on_records`` may be given a
    worker's games as :class:`~.columns.Columns` (read them with :func:`~.columns.column`):
    without a record file, the workers' games then reach this process column by column,
    and no record is built unless asked for.

    Raises:
        WorkerLost: workers died twice with no game finished between; what finished
            is kept (in ``out``, for a resumed run to count).
    """
    check_config(config)
    args = (config, games, jobs, on_records, backend, chunk, detail, stats or pool.RunStats(), columns)
    if not isinstance(out, str):  # a RecordFile the caller opened, or None
        return _run(out, *args)
    with RecordFile(out, config.to_json()) as store:
        return _run(store, *args)


#: the most games of a joblib task (the ``threading`` and ``dask`` backends) played
#: action by action (a few ms to seconds) and in the compiled loop, where a random game
#: costs 15 us: a task's own cost (dispatch, its records pickled back) took 20% of a
#: match of 64-game chunks.  Results never depend on it; progress, an SPRT's stop and
#: an interrupted run's loss are counted in chunks.
_CHUNK, _CHUNK_COMPILED = 64, 512

#: the compiled choosers that search: their games take seconds in the loop too
_SEARCHING = ("mcts", "rollout")


def _plays_cheap_games(config: MatchConfig, detail: MakeTally | None) -> bool:
    """Whether the workers will play the match in the game's compiled loop without a
    search: only such games are cheap enough for the bigger chunks."""
    bots = [make_bot(spec, config.game) for spec in config.bots]
    try:
        rules = config.rules()
        choosers = [bot.loop_chooser(rules) for bot in bots]
        if any(c is not None and c[0] in _SEARCHING for c in choosers):
            return False
        return config.game.loop(rules, choosers, detail) is not None
    finally:
        for bot in bots:
            bot.close()


def _run(
    store, config, games, jobs, on_records, backend, chunk, detail, stats, columns
) -> list[dict] | Outcomes:
    done: dict[int, dict | Columns] = {}  # game -> its record, or the columns that hold it

    def finished() -> list[dict] | Outcomes:
        return Outcomes(parts_of(done)) if columns else [done[g] for g in sorted(done)]

    if store:
        done = {g: r for g, r in store.done.items() if g < games}
    stopped = bool(on_records and done and on_records(sorted(done.values(), key=lambda r: r["game"])))
    count = 0 if stopped else games - len(done)
    if count <= 0:
        return finished()
    if backend in (None, "loky"):
        packed = columns and store is None
        play = _on_this_machine(config, games, jobs, store, done, on_records, chunk, detail, stats, packed)
    else:
        play = _on_joblib(config, games, jobs, store, done, on_records, backend, chunk, detail, count)
    finished_at_loss = None  # games done when a worker was last lost
    while True:
        try:
            play()
            return finished()
        except Exception as exc:
            if not pool.lost(exc):
                raise
            # a worker killed (the out-of-memory killer, a signal, a crash): its chunk's
            # games are played again by new workers, from the same seeds, so the results
            # are those of an unbroken run; twice with nothing finished between, it stops
            if finished_at_loss == len(done):
                raise WorkerLost(_lost_message(exc, games, len(done), store)) from None
            finished_at_loss = len(done)


def _keeps_moves(store, detail) -> bool:
    """Whether the run's records keep their moves: for a record file, and for a
    ``detail`` run (balance, fair), whose summary reads what decided each won game
    from its last moves; a run that keeps neither leaves them out (only ``plies``)."""
    return store is not None or detail is not None


def _on_this_machine(config, games, jobs, store, done, on_records, chunk, detail, stats, packed=False):
    """The local run as a function that plays every game not in ``done`` (called again
    after a lost worker): the first games here, to measure them, then the rest here
    too when they are little work or ``jobs`` is 1, else on the pool's workers (their
    games sent as columns with ``packed``, kept so in ``done``)."""
    cost = pool.Cost(config.games_per_deal, chunk)
    moves = _keeps_moves(store, detail)

    def take_records(records: list[dict] | Columns, lines: str | None = None) -> bool:
        if packed and not isinstance(records, Columns):  # played here: kept alike
            records = Columns.of(records)
        if isinstance(records, Columns):
            done.update(dict.fromkeys(records.column("game"), records))
        else:
            if store:
                store.append(records, lines)
            for r in records:
                done[r["game"]] = r
        return bool(on_records and on_records(records))

    def play() -> None:
        task = _play_chunk  # looked up now: what a test put in its place is what workers get
        # the games not yet played (a fresh run: all, without a look-up for each)
        todo = (g for g in range(games) if g not in done) if done else iter(range(games))
        left = games - len(done)
        n_jobs = workers(jobs, left)
        measure = chunk is None and pool.IN_PROCESS_SECONDS > 0 and not cost.games
        size = 1
        # a run already long (its pool up, or a second of games played here before):
        # its first game is enough to measure the match
        long_run = n_jobs > 1 and (pool.alive(n_jobs) or pool.here_seconds >= pool.IN_PROCESS_SECONDS)
        while measure and left and cost.seconds < pool.PROBE_SECONDS and not (long_run and cost.games):
            part = pool.take(todo, size)
            left -= len(part)
            stats.here_games += len(part)
            if take_records(pool.play_here(task, config, part, detail, moves, cost)):
                return
            size *= 2
        # short: this match and what this process played before it, little work in all
        work = pool.here_seconds + left * cost.per_game
        short = 0 < pool.IN_PROCESS_SECONDS and work < pool.IN_PROCESS_SECONDS and not pool.alive(n_jobs)
        if n_jobs > 1 and left and not (short and chunk is None):
            here = pool.IN_PROCESS_SECONDS > 0
            pool.play_on_workers(
                task,
                config,
                todo,
                left,
                n_jobs,
                cost,
                detail,
                moves,
                take_records,
                _ctrl_c_held,
                stats,
                here,
                packed,
            )
            return
        while left:
            part = pool.take(todo, cost.size(left, 1))
            left -= len(part)
            stats.here_games += len(part)
            if take_records(pool.play_here(task, config, part, detail, moves, cost)):
                return

    return play


def _on_joblib(config, games, jobs, store, done, on_records, backend, chunk, detail, count):
    """The run on another joblib backend (threads, a Dask cluster), in chunks of a size
    fixed from the number of games."""
    most = _CHUNK_COMPILED if _plays_cheap_games(config, detail) else _CHUNK
    size = chunk or max(1, min(most, count // (workers(jobs, count, backend) * 8) or 1))
    # keep pairs of a deal in one chunk so an early stop never splits a deal
    per = config.games_per_deal
    size = max(per, size - size % per)
    n_jobs = workers(jobs, -(-count // size), backend)

    def play() -> None:
        todo = (g for g in range(games) if g not in done)
        _play_chunks(config, chunks(todo, size), n_jobs, store, done, on_records, backend, detail)

    return play


class WorkerLost(MatchError):
    """The worker processes playing a match died twice without a game finishing
    between (each loss is otherwise made good by playing its games again)."""


def _lost_message(exc: BaseException, games: int, finished: int, store) -> str:
    codes = re.search(r"exit codes of the workers are \{([^}]*)\}", str(exc))
    codes = codes.group(1) if codes else "unknown exit code"
    why = "killed (SIGKILL, as the out-of-memory killer does)" if "SIGKILL" in codes else f"lost ({codes})"
    kept = (
        f"{finished} games are kept in {store.path}: rerun the same command to resume (fewer --jobs use less memory)"
        if store
        else f"{finished} of {games} games were played (use --out to keep games and resume)"
    )
    return f"a worker process was {why} twice with no game finished between; {kept}"


def _play_chunks(config, tasks, n_jobs, store, done, on_records, backend, detail) -> None:
    """Play the chunks of games ``tasks`` on ``n_jobs`` workers of a joblib ``backend``, adding their records to
    ``done`` (and ``store``) as they finish, until all are played or ``on_records``
    asks to stop.

    Raises:
        TerminatedWorkerError: a worker process died; what finished before is kept.
    """
    from joblib import Parallel, delayed, parallel_backend

    jobs = (delayed(_play_chunk)(config, part, detail, _keeps_moves(store, detail)) for part in tasks)
    with parallel_backend(backend, n_jobs=n_jobs):
        runner = Parallel(return_as="generator_unordered")
        results = runner(jobs)
        try:
            for records in results:
                if store:
                    store.append(records)
                for r in records:
                    done[r["game"]] = r
                if on_records and on_records(records):
                    break
        finally:
            close = getattr(results, "close", None)
            if close:
                with warnings.catch_warnings():  # stopped early on purpose: unused results are expected
                    warnings.filterwarnings("ignore", "[0-9]+ tasks have been successfully executed")
                    warnings.filterwarnings("ignore", "[0-9]+ tasks which were still being processed")
                    close()


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold SIGINT back while the worker processes (and the executor's thread,
    which starts any replacement worker) are created.

    A terminal's Ctrl-C reaches every process of the group, and the runner, which
    keeps what is done and stops the workers, is the one to answer it.  A worker
    answering too would print its traceback, and a worker still importing at that
    moment cannot yet have set a handler; a signal mask is inherited through fork
    and exec, so the workers start with SIGINT blocked.  A Ctrl-C that arrives
    while it is held is delivered, not lost, when the mask is restored.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no process groups to fear
        yield
        return
    # multiprocessing's resource tracker, when it first starts, unblocks SIGINT
    # and SIGTERM for the thread that starts it (CPython <= 3.12): start it first.
    # Forked workers use none (their semaphores are unlinked at once): starting the
    # two trackers, each a fresh Python, cost a third of a CPU second a command
    if not pool.forks():
        _start_trackers_quietly()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_trackers_quietly() -> None:
    """Start the resource trackers of multiprocessing and of loky (a process each,
    for the life of this one) with their stderr on the null device, when not running.

    A worker killed in the middle of a message to a tracker (the out-of-memory
    killer does not wait) leaves it a name to forget that it never knew: each
    tracker then prints a ``KeyError`` traceback, a cascade of them after one lost
    worker, although nothing is wrong that the run does not make good itself.
    """
    from multiprocessing import resource_tracker

    from joblib.externals.loky.backend import resource_tracker as loky_tracker

    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)  # what a process started now inherits as its stderr
        resource_tracker.ensure_running()
        loky_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)
