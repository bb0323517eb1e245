"""What an mcts move costs on one core, per preset: thread CPU of ``Searcher.search`` on
fixed positions (every third turn of seeded greedy self-play games), with the work units
the budget lets it spend.

The positions and the searches are seeded, so two builds (or two machines) time the same
work: the last line's digest of every search's best move and iteration count is equal when
they search alike, and only the times may differ.

    python benchmarks/move_cost.py draft 4 --games 3 --work 6000000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from seqsolve import _search
from seqsolve.bots import make_bot
from seqsolve.games.base import RulesError
from seqsolve.games.sequence.bots.search import MOVE_WORK
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State


def positions(preset: str, players: int, teams: int | None, games: int):
    """(observation core, seat, turn) every third turn of greedy self-play games."""
    rules = parse_rules(preset, players=players, teams=teams)
    for seed in range(games):
        state = State.new(rules, seed=1000 + seed)
        rng = np.random.default_rng(seed)
        greedy = make_bot("greedy")
        while not state.is_terminal():
            seat = state.current_player
            if state.turn % 3 == 0:
                yield state.observation(seat).core, seat, state.turn
            state.apply(greedy.choose(state.observation(seat), rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("preset")
    parser.add_argument("players", type=int)
    parser.add_argument("--teams", type=int, default=None)
    parser.add_argument("--games", type=int, default=4, help="greedy self-play games to take positions from")
    parser.add_argument("--iterations", type=int, default=6000)
    parser.add_argument("--work", type=int, default=MOVE_WORK, help="work budget (default: mcts's)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.iterations <= 0 and args.work <= 0:
        parser.error("give --iterations or --work above 0")
    try:
        found = list(positions(args.preset, args.players, args.teams, args.games))
    except RulesError as exc:
        parser.error(str(exc))
    ms, works, digest = [], [], 0
    for core, seat, turn in found:
        start = time.thread_time()
        result = _search.Searcher().search(
            core, seat, np.random.PCG64(turn), iterations=args.iterations, work=args.work
        )
        ms.append((time.thread_time() - start) * 1e3)
        works.append(result["work"])
        digest = (digest * 31 + result["best"] + result["iterations"]) % 1_000_003
    ms_a, work_a = np.array(ms), np.array(works) / 1e6
    print(
        f"{args.preset} {args.players}p, {len(ms)} positions: CPU ms mean {ms_a.mean():.1f}, "
        f"p95 {np.percentile(ms_a, 95):.1f}, worst {ms_a.max():.1f}; work units mean {work_a.mean():.2f} M, "
        f"most {work_a.max():.2f} M; digest {digest}"
    )


if __name__ == "__main__":
    main()
