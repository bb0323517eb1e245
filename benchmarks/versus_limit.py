"""seqsolve against the tuned C reference (``limit``), on the same kinds of work, one core.

The reference is a single-core C implementation of the work a Sequence program is judged
on (random playouts, one-ply greedy self-play, flat UCT playouts).  This script runs
seqsolve and the reference on the same workloads in the same sitting, interleaved round
by round (the order of the two flips every round), so that a busy machine slows both
alike, and prints seqsolve's rate over the reference's: the fraction of the reference's
speed seqsolve reaches on this machine.

Every rate is counted in CPU time (the reference's ``*_per_cpu_s`` figures, the thread
CPU time of seqsolve's calls): on a shared machine wall time measures the neighbours.

Workloads (classic rules, 2 players, unless said):

* ``random`` — uniformly random games from fresh deals: ``_core.random_games`` against
  ``limit_playout``.  The two random policies differ (seqsolve lists exchanges as
  actions), so games differ in length: the ratio is of plies (actions) per second;
* ``greedy`` — greedy self-play as ``seqsolve match greedy greedy --jobs 1`` plays it
  (the compiled loop, records made) against ``limit_greedy ... cell`` (the reference's
  fastest one-ply bot): the ratio is of decisions per second;
* ``heuristic`` — heuristic self-play, the same way, against the same C greedy bot: the
  heuristic evaluates far more per legal move, so this ratio says what its evaluation
  costs beside the reference's one-ply greedy;
* ``mcts`` — MCTS iterations per second (``_search.Searcher`` with its default
  parameters) from positions 40 turns into seeded random games of each preset, against
  ``limit_mcts``'s flat-UCT playouts per second from its own turn-40 position.  The two
  iterations are different work (a seqsolve iteration deals a world, walks the tree,
  plays a short guided playout and evaluates), so the ratio is a yardstick, not a like
  for like;
* ``search`` — the default ``search`` bot's CPU time per move on the classic turn-40
  positions, and how many of the reference's mid-game MCTS playouts the same CPU time
  buys.

Usage::

    python benchmarks/versus_limit.py PATH/TO/limit            # builds it if needed
    python benchmarks/versus_limit.py PATH/TO/limit --rounds 5 --scale 2
    python benchmarks/versus_limit.py PATH/TO/limit --json
    python benchmarks/versus_limit.py PATH/TO/limit --only random,greedy

The folder is built with ``make`` when its programs are missing (copy it somewhere
writable first if it is read-only).  Figures quoted in benchmarks/RESULTS.md come from
this script, with the command and the machine it printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

PROGRAMS = ("limit_playout", "limit_greedy", "limit_mcts")
WORKLOADS = ("random", "greedy", "heuristic", "mcts", "search")
#: workload sizes at --scale 1: a round of every workload takes about 10-20 s of CPU
SIZES = {
    "random_games": 100_000,
    "c_random_games": 200_000,
    "greedy_games": 4_000,
    "c_greedy_games": 20_000,
    "heuristic_games": 1_000,
    "mcts_iterations": 5_000,
    "c_mcts_playouts": 100_000,
    "search_moves": 4,
}
#: presets whose MCTS iterations are measured (2 players)
MCTS_PRESETS = ("classic", "seed000", "numbers", "draft")
MCTS_TURN = 40
RESULT_LINE = re.compile(r"^RESULT (\S+) (.*)$", re.MULTILINE)


class LimitError(Exception):
    """The reference could not be built or run: the message says what to do."""


# ---------------------------------------------------------------- the C reference


def build_reference(folder: Path) -> None:
    """``make`` in ``folder`` when one of its programs is missing."""
    if not folder.is_dir() or not (folder / "seq_engine.h").is_file():
        raise LimitError(f"{folder}: not the C reference's folder (no seq_engine.h)")
    if all(os.access(folder / name, os.X_OK) for name in PROGRAMS):
        return
    if not os.access(folder, os.W_OK):
        raise LimitError(
            f"{folder}: its programs are not built and the folder is read-only; copy it and pass the copy"
        )
    made = subprocess.run(["make", "-C", str(folder), *PROGRAMS], check=False, capture_output=True, text=True)
    if made.returncode != 0:
        tail = (made.stderr or made.stdout).strip().splitlines()[-1:] or ["make failed"]
        raise LimitError(f"{folder}: make failed: {tail[0]}")


def run_reference(folder: Path, *args: str) -> dict[str, dict[str, float]]:
    """Run one reference program; its ``RESULT`` lines as {name: {key: value}}."""
    done = subprocess.run([str(folder / args[0]), *args[1:]], check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise LimitError(f"{args[0]} exited with {done.returncode}: {done.stderr.strip()[:200]}")
    results = {}
    for name, rest in RESULT_LINE.findall(done.stdout):
        results[name] = {k: float(v) for k, v in (item.split("=", 1) for item in rest.split())}
    if not results:
        raise LimitError(f"{args[0]} printed no RESULT line")
    return results


# ---------------------------------------------------------------- seqsolve


def cpu_timed(call, *args, **kwargs):
    """``call(*args, **kwargs)``'s value and the CPU seconds of this thread it took."""
    start = time.thread_time()
    value = call(*args, **kwargs)
    return value, max(time.thread_time() - start, 1e-9)


def midgame_views(preset: str, seeds: range, turns: int = MCTS_TURN):
    """What the seat to move sees, ``turns`` turns into seeded uniformly random games."""
    from seqsolve.games.sequence.rules import parse_rules
    from seqsolve.games.sequence.state import State

    views = []
    for seed in seeds:
        state = State.new(parse_rules(preset, players=2), seed=seed)
        rng = np.random.default_rng(seed)
        while state.turn < turns and not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.integers(len(actions))])
        if not state.is_terminal():
            views.append((state.observation(state.current_player), state.current_player))
    return views


def seqsolve_random(games: int, seed: int) -> dict:
    from seqsolve import _core
    from seqsolve.games.sequence.rules import parse_rules
    from seqsolve.games.sequence.state import core_rules

    rules = core_rules(parse_rules("classic", players=2))
    (played, plies, _draws), cpu = cpu_timed(lambda: _core.random_games(rules, np.random.PCG64(seed), games))
    return {"games_per_cpu_s": played / cpu, "plies_per_cpu_s": plies / cpu, "plies_per_game": plies / played}


def seqsolve_self_play(bot: str, games: int, seed: int) -> dict:
    from seqsolve.play.config import MatchConfig
    from seqsolve.play.match import run_games

    config = MatchConfig(bots=(bot, bot), variant="classic", players=2, seed=seed)
    records, cpu = cpu_timed(lambda: run_games(config, games, jobs=1))
    plies = sum(r["plies"] for r in records)
    return {
        "plies_per_cpu_s": plies / cpu,
        "us_per_decision": 1e6 * cpu / plies,
        "plies_per_game": plies / len(records),
    }


def seqsolve_mcts(views, iterations: int) -> dict:
    from seqsolve import _search

    rates = []
    for i, (view, seat) in enumerate(views):
        searcher = _search.Searcher({})
        result, cpu = cpu_timed(searcher.search, view.core, seat, np.random.PCG64(i), iterations=iterations)
        rates.append(result["iterations"] / cpu)
    return {"iterations_per_cpu_s": statistics.median(rates)}


def seqsolve_search(views, moves: int) -> dict:
    from seqsolve.bots import make_bot

    spent = []
    for i, (view, _seat) in enumerate(views[:moves]):
        bot = make_bot("search")
        try:
            _, cpu = cpu_timed(bot.choose, view, np.random.default_rng(i))
        finally:
            bot.close()
        spent.append(cpu)
    return {"cpu_s_per_move": statistics.median(spent)} if spent else {}


# ---------------------------------------------------------------- rounds


def one_round(folder: Path, round_no: int, scale: float, only: tuple[str, ...], views: dict) -> dict:
    """Every chosen workload once, seqsolve and the reference back to back (the order
    flips with the round); returns {workload: {"seqsolve": ..., "limit": ..., "ratio": ...}}."""

    def size(key: str) -> int:
        return max(1, int(SIZES[key] * scale))

    seed = 1 + round_no
    pairs = {
        "random": (
            lambda: seqsolve_random(size("random_games"), seed),
            lambda: run_reference(folder, "limit_playout", str(size("c_random_games")), str(seed))[
                "c_playout_full"
            ],
            "plies_per_cpu_s",
        ),
        "greedy": (
            lambda: seqsolve_self_play("greedy", size("greedy_games"), seed),
            lambda: run_reference(folder, "limit_greedy", str(size("c_greedy_games")), str(seed), "cell")[
                "c_greedy_cell"
            ],
            "plies_per_cpu_s",
        ),
        "heuristic": (
            lambda: seqsolve_self_play("heuristic", size("heuristic_games"), seed),
            lambda: run_reference(folder, "limit_greedy", str(size("c_greedy_games")), str(seed), "cell")[
                "c_greedy_cell"
            ],
            "plies_per_cpu_s",
        ),
    }
    out = {}
    for name, (ours, theirs, key) in pairs.items():
        if name not in only:
            continue
        first, second = (ours, theirs) if round_no % 2 == 0 else (theirs, ours)
        a, b = first(), second()
        mine, ref = (a, b) if round_no % 2 == 0 else (b, a)
        out[name] = {"seqsolve": mine, "limit": ref, "ratio": mine[key] / ref[key]}
    if "mcts" in only or "search" in only:
        c_mcts = run_reference(folder, "limit_mcts", str(size("c_mcts_playouts")), str(seed), str(MCTS_TURN))
        ref = c_mcts["mcts_midgame"]
        if "mcts" in only:
            for preset, pv in views.items():
                mine = seqsolve_mcts(pv, size("mcts_iterations"))
                out[f"mcts {preset}"] = {
                    "seqsolve": mine,
                    "limit": ref,
                    "ratio": mine["iterations_per_cpu_s"] / ref["playouts_per_cpu_s"],
                }
        if "search" in only:
            mine = seqsolve_search(
                views.get("classic", []), max(1, int(SIZES["search_moves"] * min(scale, 1) + 0.5))
            )
            if mine:
                mine["c_playouts_per_move"] = mine["cpu_s_per_move"] * ref["playouts_per_cpu_s"]
                out["search"] = {"seqsolve": mine, "limit": ref, "ratio": None}
    return out


def summarise(rounds: list[dict]) -> dict:
    """Per workload: the ratio's min, median and max over the rounds, and the rates."""
    summary = {}
    for name in rounds[0]:
        ratios = [r[name]["ratio"] for r in rounds if r[name]["ratio"] is not None]
        summary[name] = {
            "ratios": ratios,
            "ratio_min": min(ratios) if ratios else None,
            "ratio_median": statistics.median(ratios) if ratios else None,
            "ratio_max": max(ratios) if ratios else None,
            "seqsolve": [r[name]["seqsolve"] for r in rounds],
            "limit": [r[name]["limit"] for r in rounds],
        }
    return summary


def describe(name: str, entry: dict) -> str:
    """One line of the table: the rates (medians over the rounds) and the ratio range."""
    mine, ref = entry["seqsolve"], entry["limit"]

    def med(rows, key):
        return statistics.median(row[key] for row in rows)

    if name == "random":
        rates = (
            f"{med(mine, 'plies_per_cpu_s') / 1e6:.2f}M vs {med(ref, 'plies_per_cpu_s') / 1e6:.2f}M plies/s"
        )
    elif name in ("greedy", "heuristic"):
        rates = f"{med(mine, 'us_per_decision'):.2f} vs {1e6 / med(ref, 'plies_per_cpu_s'):.2f} µs/decision"
    elif name.startswith("mcts"):
        rates = f"{med(mine, 'iterations_per_cpu_s'):,.0f} it/s vs {med(ref, 'playouts_per_cpu_s'):,.0f} playouts/s"
    else:
        cpu = med(mine, "cpu_s_per_move")
        return f"{name:<16}{'':>22}  {cpu * 1e3:.1f} ms CPU per move = {med(mine, 'c_playouts_per_move'):,.0f} C playouts"
    low, mid, high = entry["ratio_min"], entry["ratio_median"], entry["ratio_max"]
    return f"{name:<16}{low:>6.3f} {mid:>6.3f} {high:>6.3f}×   {rates}"


def machine() -> str:
    from seqsolve.benchmark import machine_info

    m = machine_info()
    return f"{m['cpu']}, {m['cpu_count']} CPUs, {m['platform']}, Python {m['python']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the C reference's folder (built with make if needed)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload's size (default 1)")
    parser.add_argument(
        "--only", default=",".join(WORKLOADS), help=f"comma-separated subset of {','.join(WORKLOADS)}"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    only = tuple(w.strip() for w in args.only.split(",") if w.strip())
    unknown = [w for w in only if w not in WORKLOADS]
    if unknown or not only:
        parser.error(
            f"--only: unknown workload {', '.join(unknown) or '(none)'}; choose from {', '.join(WORKLOADS)}"
        )
    if args.rounds < 1 or not 0 < args.scale <= 100:
        parser.error("--rounds must be at least 1 and --scale in (0, 100]")
    try:
        build_reference(args.folder)
        views = {}
        if "mcts" in only or "search" in only:
            presets = MCTS_PRESETS if "mcts" in only else ("classic",)
            views = {p: midgame_views(p, range(11, 14)) for p in presets}
        seqsolve_random(200, 0)  # warm: imports and tables
        for bot in ("greedy", "heuristic"):
            if bot in only:
                seqsolve_self_play(bot, 4, 0)
        rounds = []
        for r in range(args.rounds):
            if not args.json:
                print(f"round {r + 1}/{args.rounds} ...", file=sys.stderr, flush=True)
            rounds.append(one_round(args.folder, r, args.scale, only, views))
    except LimitError as exc:
        print(f"versus_limit: {exc}", file=sys.stderr)
        return 1
    summary = summarise(rounds)
    if args.json:
        print(
            json.dumps(
                {"rounds": args.rounds, "scale": args.scale, "machine": machine(), "workloads": summary}
            )
        )
        return 0
    print(
        f"seqsolve / C reference, one core, CPU time, {args.rounds} rounds interleaved (scale {args.scale})"
    )
    print(f"{'workload':<16}{'min':>6} {'median':>6} {'max':>6}    rates (medians: seqsolve vs C)")
    for name, entry in summary.items():
        print(describe(name, entry))
    print(f"machine: {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
