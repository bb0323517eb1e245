"""The fixed, seeded speed workload of ``seqsolve bench`` (one core, classic rules, 2 players).

Three measurements, all in the compiled core without the GIL:

* **random playouts** — ``games`` uniformly random games from fresh seeded
  deals (``_core.random_games``): games/s and plies (actions)/s;
* **sequence scans** — on a mid-game position (a seeded random game stopped
  after half of its actions), ``_core.scan_counts`` times, separately, the
  incremental scan (the windows through one cell, what a placement needs) over
  each of the 100 cells, and the full scan of all 192 windows;
* **bot games** — greedy and heuristic self-play as ``seqsolve match`` plays it
  on one core (the compiled game loop, records made, none written): games/s
  and µs per decision (action), all in;
* **Sequence Stacks** — uniformly random 2-player games of the compiled Stacks
  engine from fresh seeded deals (``_stacks.random_games``), one per
  :data:`STACKS_PER` random classic games: games/s and actions/s next to classic's.

``benchmarks/bench.py`` compares these figures with the plain-Python reference.
"""

from __future__ import annotations

import os
import platform
import sys
import time

import numpy as np

from . import __version__
from .games.sequence.notation import to_sqn
from .games.sequence.rules import parse_rules

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_SCAN_REPEATS",
    "machine_info",
    "midgame_state",
    "per_second",
    "run_benchmark",
]

DEFAULT_GAMES = 100_000
DEFAULT_SCAN_REPEATS = 200_000
#: the bot-game workload: each bot's self-play games, one per this many random games
BOT_GAMES = {"greedy": 10, "heuristic": 25}
VARIANT = "classic"
PLAYERS = 2
#: one random Stacks game per this many random classic games
STACKS_PER = 10


def machine_info() -> dict:
    """Where the figures were measured: platform, CPU model and count, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
    }


def midgame_state(seed: int = 0):
    """A classic 2-player game dealt with ``seed`` and played at random for half its length.

    The same seed plays the same game to the end first, to learn its length.

    >>> s = midgame_state(0); 20 < s.turn < 80 and not s.is_terminal()
    True
    """
    from .games.sequence.state import State

    rules = parse_rules(VARIANT, players=PLAYERS)
    full = State.new(rules, seed=seed)
    length = full.core.playout()
    state = State.new(rules, seed=seed)
    for _ in range(length // 2):
        state.apply_legal(state.core.random_action())
    return state


def run_benchmark(
    games: int = DEFAULT_GAMES, seed: int = 0, scan_repeats: int | None = None, log=None
) -> dict:
    """Run the workload and return its figures (the keys of ``seqsolve bench --json``).

    Args:
        games: random games to play (the scan repeats scale with it unless given).
        seed: root seed of the deals and of the mid-game position.
        scan_repeats: repeats of the scan loop; default ``2 * games``.
        log: a callable for progress lines (e.g. printing to stderr), or None.

    Returns:
        ``games_per_s``, ``plies_per_s``, ``scans_per_s`` (incremental),
        ``full_scans_per_s``, ``games``, ``plies_per_game``, ``seconds`` (of the
        playouts), ``scan_seconds``, ``bot_games`` (per bot of :data:`BOT_GAMES`:
        ``bot``, ``games``, ``plies``, ``seconds``, ``games_per_s``, ``plies_per_s``,
        ``us_per_action``), ``machine``, ``version`` and the workload's settings.
    """
    from . import _core
    from .games.sequence.state import core_rules

    if games < 1:
        raise ValueError("the benchmark needs at least 1 game")
    repeats = scan_repeats if scan_repeats is not None else 2 * games
    rules = core_rules(parse_rules(VARIANT, players=PLAYERS))
    say = log or (lambda _text: None)

    _core.random_games(rules, np.random.PCG64(seed + 1), min(games, 200))  # warm caches
    say(f"playing {games} random games (classic, 2 players, seed {seed}) ...")
    bit_generator = np.random.PCG64(seed)
    start = time.perf_counter()
    played, plies, draws = _core.random_games(rules, bit_generator, games)
    seconds = time.perf_counter() - start

    state = midgame_state(seed)
    say(f"scanning a mid-game position {repeats} times (turn {state.turn}) ...")
    start = time.perf_counter()
    incremental, _found = _core.scan_counts(state.core, repeats, True)
    scan_seconds = time.perf_counter() - start
    start = time.perf_counter()
    full, _found = _core.scan_counts(state.core, repeats * 20, False)
    full_seconds = time.perf_counter() - start

    bot_games = []
    for bot, per in BOT_GAMES.items():
        n = max(1, games // per)
        say(f"playing {n} {bot} self-play games ...")
        bot_games.append(self_play(bot, n, seed))

    n = max(1, games // STACKS_PER)
    say(f"playing {n} random Sequence Stacks games ({PLAYERS} players) ...")
    stacks = stacks_playouts(n, seed)

    return {
        "version": __version__,
        "variant": VARIANT,
        "players": PLAYERS,
        "seed": seed,
        **per_second(seconds, games=played, plies=plies),
        "draws": draws,
        "plies_per_game": plies / played,
        "scan_position": to_sqn(state.to_position()),
        "scan_repeats": repeats,
        "scans": incremental,
        "full_scans": full,
        "scan_seconds": scan_seconds,
        "scans_per_s": incremental / scan_seconds,
        "full_scan_seconds": full_seconds,
        "full_scans_per_s": full / full_seconds,
        "bot_games": bot_games,
        "stacks": stacks,
        "machine": machine_info(),
    }


def stacks_playouts(games: int, seed: int, players: int = PLAYERS) -> dict:
    """``games`` uniformly random games of Sequence Stacks in its compiled engine, from
    fresh deals of the stream ``seed``, timed on one core.

    >>> figures = stacks_playouts(3, 0); figures["games"], figures["actions"] > 0
    (3, True)
    """
    from . import _stacks
    from .games.stacks.rules import make_rules
    from .games.stacks.state import stacks_tables

    tables = stacks_tables(make_rules("stacks", players))
    _stacks.random_games(tables, np.random.PCG64(seed + 1), min(games, 20))  # warm caches
    start = time.perf_counter()
    played, actions, draws = _stacks.random_games(tables, np.random.PCG64(seed), games)
    seconds = time.perf_counter() - start
    return {
        "variant": "stacks",
        "players": players,
        **per_second(seconds, games=played, actions=actions),
        "draws": draws,
    }


def self_play(bot: str, games: int, seed: int) -> dict:
    """``games`` games of ``bot`` against itself, timed as a match on one core plays them.

    >>> figures = self_play("greedy", 2, 0); figures["games"], figures["us_per_action"] > 0
    (2, True)
    """
    from .play.config import MatchConfig
    from .play.match import run_games

    config = MatchConfig(bots=(bot, bot), variant=VARIANT, players=PLAYERS, seed=seed)
    run_games(config, 2, jobs=1)  # the runner's imports and tables, once
    start = time.perf_counter()
    records = run_games(config, games, jobs=1)
    seconds = time.perf_counter() - start
    plies = sum(r["plies"] for r in records)
    return {
        "bot": bot,
        **per_second(seconds, games=len(records), plies=plies),
        "us_per_action": 1e6 * seconds / plies,
    }


def per_second(seconds: float, **counts: int) -> dict:
    """``counts``, the ``seconds`` they took and each one's rate, named alike in every
    workload (``games_per_s``), so that ``benchmarks/bench.py`` can set the reference's
    figures beside these by key.

    >>> per_second(2.0, games=10, plies=300)
    {'games': 10, 'plies': 300, 'seconds': 2.0, 'games_per_s': 5.0, 'plies_per_s': 150.0}
    """
    return {**counts, "seconds": seconds, **{f"{name}_per_s": n / seconds for name, n in counts.items()}}


def format_table(result: dict) -> str:
    """The figures of :func:`run_benchmark` as a small text table."""
    rows = [
        ("random games", result["games"], result["seconds"], result["games_per_s"]),
        ("  plies (actions)", result["plies"], result["seconds"], result["plies_per_s"]),
        ("scans through one cell", result["scans"], result["scan_seconds"], result["scans_per_s"]),
        (
            "full scans (192 windows)",
            result["full_scans"],
            result["full_scan_seconds"],
            result["full_scans_per_s"],
        ),
    ]
    for b in result["bot_games"]:
        rows.append((f"{b['bot']} self-play games", b["games"], b["seconds"], b["games_per_s"]))
        rows.append(("  decisions (actions)", b["plies"], b["seconds"], b["plies_per_s"]))
    st = result["stacks"]
    rows.append((f"Stacks random games ({st['players']}p)", st["games"], st["seconds"], st["games_per_s"]))
    rows.append(("  decisions (actions)", st["actions"], st["seconds"], st["actions_per_s"]))
    m = result["machine"]
    lines = [
        (
            f"seqsolve {result['version']} bench: {result['variant']}, {result['players']} players,"
            f" seed {result['seed']}, one core"
        ),
        f"{'workload':<26}{'count':>14}{'seconds':>10}{'per second':>16}",
    ]
    for name, count, secs, rate in rows:
        lines.append(f"{name:<26}{count:>14,}{secs:>10.3f}{rate:>16,.0f}")
    lines.append(f"plies per game {result['plies_per_game']:.1f}, draws {result['draws']}")
    for b in result["bot_games"]:
        lines.append(f"{b['bot']}: {b['us_per_action']:.2f} µs per decision, all in")
    lines.append(f"machine: {m['cpu']}, {m['cpu_count']} CPUs, {m['platform']}, Python {m['python']}")
    return "\n".join(lines) + "\n"
