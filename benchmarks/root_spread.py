"""How far the search tells the root's moves apart, per preset and seating, and
how often it then plays the heuristic's move.

A search whose root moves all end with about the same mean value chooses among
them by noise, and it is then no wiser than the one-ply heuristic it starts
from: the default ``mcts`` was measured below ``heuristic`` (2026-12-01,
benchmarks/RESULTS.md, "Experiments: the search on classic and the blind draw")
exactly on the cells where this spread is smallest (the long games: numbers 6p,
two sequences for each of 3 teams; seed000 6p, three).  For every cell this
plays ``--games`` games in which every seat moves as greedy does; at each
decision of the first side with more than one legal action it runs BOT and
``heuristic`` on the mover's observation and records:

* ``agree``: BOT's move is the heuristic's;
* ``spread``: the best minus the worst mean value, for the mover's side, over the
  root moves with at least ``--min-visits`` visits (the median over decisions);
* ``top share``: the most visited root move's share of the root's visits (median).

The cells are the strength matrix's seating classes that each preset's rules
accept (so ``--players 3`` leaves out draft).  The games follow greedy, so the
positions are the same for every BOT.  Seeded:
the same command gives the same figures whatever ``--jobs`` is.

    python benchmarks/root_spread.py --presets classic,numbers,seed000 --players 2,6 --games 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

import numpy as np
from joblib import Parallel, delayed
from strength_matrix import SEATINGS, seatings  # the matrix's seating classes, beside this script

from seqsolve import _choose
from seqsolve.bots import make_bot
from seqsolve.games.sequence.rules import Variant, parse_rules
from seqsolve.games.sequence.state import State


def game_decisions(
    spec: str, preset: str, players: int, teams: int | None, game: int, seed: int, min_visits: int
) -> list[dict]:
    """The first side's decisions in one greedy-played game: agree, spread, top share."""
    rules = parse_rules(preset, players=players, teams=teams)
    bot = make_bot(spec)
    stream = np.random.SeedSequence([seed, game])
    state = State.new(rules, seed=int(stream.generate_state(1)[0]))
    greedy_rng = np.random.default_rng(stream.spawn(1)[0])
    found = []
    while not state.is_terminal():
        seat = state.current_player
        view = state.observation(seat)
        if state.side_of(seat) == 0 and len(state.legal_actions()) > 1:
            turn_seed = [seed, game, state.turn]
            heuristic = _choose.heuristic_action(view.core, np.random.PCG64(turn_seed))
            chosen = bot.choose(view, np.random.default_rng(turn_seed))
            stats = bot.searcher().root_stats(1)
            values = [d["value"] for d in stats if d["visits"] >= min_visits]
            found.append(
                {
                    "agree": chosen == heuristic,
                    "spread": max(values) - min(values) if len(values) > 1 else None,
                    "top_share": stats[0]["share"] if stats else 1.0,
                }
            )
        state.apply(_choose.greedy_action(view.core, greedy_rng.bit_generator))
    return found


def summarize(decisions: list[dict], games: int) -> dict:
    spreads = [d["spread"] for d in decisions if d["spread"] is not None]
    return {
        "games": games,
        "decisions": len(decisions),
        "decisions_per_game": len(decisions) / games,
        "agree": sum(d["agree"] for d in decisions) / len(decisions) if decisions else None,
        "spread_median": statistics.median(spreads) if spreads else None,
        "top_share_median": statistics.median(d["top_share"] for d in decisions) if decisions else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="mcts", help="a searching bot with root statistics (default mcts)")
    parser.add_argument("--presets", default="classic,numbers,seed000")
    parser.add_argument("--players", default="2,3,6", help="comma-separated: 2, 3, 4 (2 teams), 6 (3 teams)")
    parser.add_argument("--games", type=int, default=4, help="games a cell (default 4)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--min-visits", type=int, default=50, help="root moves with fewer visits are left out of the spread"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    try:
        players = [int(p) for p in args.players.split(",")]
        if any(p not in dict(SEATINGS) for p in players) or args.games < 1:
            raise ValueError("players must be among 2, 3, 4, 6 and games at least 1")
        presets = [p for p in args.presets.split(",") if p]
        for preset in presets:
            Variant.parse(preset)
        cells = [(preset, n, teams) for preset in presets for n, teams in seatings(preset) if n in players]
        make_bot(args.bot).searcher()
    except Exception as exc:  # noqa: BLE001 - a bad option, preset or bot: one line, no traceback
        print(f"root_spread.py: {exc}", file=sys.stderr)
        return 2
    runs = Parallel(n_jobs=args.jobs)(
        delayed(game_decisions)(args.bot, preset, n, teams, game, args.seed, args.min_visits)
        for preset, n, teams in cells
        for game in range(args.games)
    )
    rows = []
    for index, (preset, n, _) in enumerate(cells):
        decisions = [d for run in runs[index * args.games : (index + 1) * args.games] for d in run]
        rows.append({"preset": preset, "players": n, "bot": args.bot, **summarize(decisions, args.games)})
    print(
        "| preset | players | decisions a game | agrees with heuristic | value spread (median) | top share (median) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        spread = "—" if r["spread_median"] is None else f"{r['spread_median']:.4f}"
        agree = "—" if r["agree"] is None else f"{r['agree']:.0%}"
        share = "—" if r["top_share_median"] is None else f"{r['top_share_median']:.2f}"
        print(
            f"| {r['preset']} | {r['players']} | {r['decisions_per_game']:.1f} | {agree} | {spread} | {share} |"
        )
    if args.json:  # whole or not at all: written beside, then renamed
        with open(args.json + ".part", "w") as out:
            json.dump({"seed": args.seed, "min_visits": args.min_visits, "rows": rows}, out, indent=1)
        os.replace(args.json + ".part", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
