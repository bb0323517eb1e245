"""Sequence Stacks: how much stronger each bot is than the one below it (issue 13's
targets: greedy beats random in at least 90% of games, mcts at 0.1 s per decision
beats greedy in at least 65%, with 2 and with 4 players).

Run from the repository root after ``pip install -e .``, on one core::

    nice python benchmarks/stacks_strength.py greedy random --players 2,4 --deals 500
    nice python benchmarks/stacks_strength.py mcts greedy --players 2 --deals 100 --json

One bot (the first) plays against copies of the other.  Every deal is played once per
seat with the first bot in that seat (seats rotated: 2 games a deal with 2 players, 4
with 4); with ``--seats K`` the first bot takes K seats and every set of K seats is
played once a deal (6 games a deal for 2 of 4 seats).  The games run in the compiled
loop ``seqsolve._stacks_bots.play_game``; a searching seat is handed only its
observation.  A game scores 1 for the first bot's win, 0 for a loss, K/players for a
draw (the project's game score, summed over the bot's seats); its score is the mean,
with the 95% interval of ``paired_score_interval`` over the deals (a deal's games are
one observation) and the Wilson interval of its win rate; the fair share is K/players.
mcts's time per decision is the CPU time of the thread, mean and worst, over the
decisions it searched (a single legal action is answered without a search).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time

import numpy as np

from seqsolve import _stacks_bots
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import stacks_tables
from seqsolve.stats import paired_score_interval, rate_interval


def search_params(text: str) -> dict:
    """``k=4,margin=1`` as the searcher's parameters (numbers)."""
    params = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        params[key.strip()] = float(value) if "." in value else int(value)
    return params


def seat_bot(name: str, args, searcher):
    if name == "mcts":
        return (searcher, args.iters, args.time, args.work)
    if name in ("random", "greedy", "greedy-matters"):
        return name
    raise SystemExit(f"stacks_strength: unknown bot {name!r} (random, greedy, greedy-matters, mcts)")


def match(first: str, other: str, players: int, deals: int, seed: int, args) -> dict:
    tables = stacks_tables(make_rules("stacks", players))
    searcher = _stacks_bots.StacksSearcher(args.params) if "mcts" in (first, other) else None
    roots = np.random.SeedSequence([seed, players]).spawn(deals)
    deal_scores, wins, draws, games = [], 0, 0, 0
    searches, cpu, worst = 0, 0.0, 0.0
    started = time.perf_counter()
    for d, root in enumerate(roots):
        deal_seed, bot_seed = root.spawn(2)
        scores = []
        for mine in itertools.combinations(range(players), args.seats):
            seats = [seat_bot(first if seat in mine else other, args, searcher) for seat in range(players)]
            result, _, moves = _stacks_bots.play_game(
                tables,
                np.random.PCG64(deal_seed),  # the same cards for every seating of the deal
                np.random.PCG64(bot_seed.spawn(1)[0]),
                seats,
            )
            scores.append(len(mine) / players if result == 6 else float(result in mine))
            wins += result in mine
            draws += result == 6
            games += 1
            if first == "mcts":
                for seat in mine:
                    searches += moves[seat][0]
                    cpu += moves[seat][1]
                    worst = max(worst, moves[seat][2])
        deal_scores.append(sum(scores) / len(scores))
        if args.progress and (d + 1) % args.progress == 0:
            print(f"  {first} vs {other} {players}p: {d + 1}/{deals} deals", file=sys.stderr, flush=True)
    score, low, high = paired_score_interval(deal_scores)
    _, wlow, whigh = rate_interval(wins, games)
    row = {
        "bot": first,
        "vs": other,
        "players": players,
        "deals": deals,
        "games": games,
        "seed": seed,
        "score": score,
        "score_ci": [low, high],
        "wins": wins,
        "win_rate_ci": [wlow, whigh],
        "draws": draws,
        "seats": args.seats,
        "fair": args.seats / players,
        "score_over_fair": score * players / args.seats,
        "seconds": time.perf_counter() - started,
        "deal_scores": deal_scores,  # to pool runs on several seeds as one paired sample
    }
    if first == "mcts":
        row.update(
            time=args.time,
            iters=args.iters,
            work=args.work,
            params=searcher.params,
            searches=searches,
            ms_per_search=1000 * cpu / max(1, searches),
            worst_ms=1000 * worst,
        )
    return row


def line(r: dict) -> str:
    text = (
        f"{r['bot']} vs {r['vs']} | {r['players']}p, {r['seats']} seat(s) | "
        f"{r['games']} games ({r['deals']} deals) | "
        f"score {r['score']:.1%} [{r['score_ci'][0]:.1%}, {r['score_ci'][1]:.1%}] | "
        f"wins {r['wins']} [{r['win_rate_ci'][0]:.1%}, {r['win_rate_ci'][1]:.1%}] | draws {r['draws']} | "
        f"fair {r['fair']:.1%} | {r['seconds']:.0f} s"
    )
    if "ms_per_search" in r:
        text += f" | {r['ms_per_search']:.1f} ms/decision mean, {r['worst_ms']:.1f} worst"
    return text


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="random, greedy, greedy-matters or mcts")
    parser.add_argument("opponent", help="the bot every other seat plays")
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated (default 2,4)")
    parser.add_argument("--deals", type=int, default=500, help="deals per player count (default 500)")
    parser.add_argument(
        "--seats",
        type=int,
        default=1,
        help="seats the first bot takes in every game (default 1); "
        "each set of that many seats plays once a deal",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--time", type=float, default=0.1, help="mcts: CPU seconds per decision (default 0.1)"
    )
    parser.add_argument(
        "--iters", type=int, default=0, help="mcts: iterations per decision at most (0: none)"
    )
    parser.add_argument(
        "--work", type=int, default=0, help="mcts: playout actions per decision at most (0: none)"
    )
    parser.add_argument(
        "--params",
        type=search_params,
        default={},
        help="mcts: search parameters as key=value,... (default: the searcher's, _stacks_bots.default_params)",
    )
    parser.add_argument("--progress", type=int, default=0, help="report every N deals on stderr")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    if not all(1 <= args.seats < players for players in counts):
        parser.error(f"--seats {args.seats}: the first bot needs 1 seat at least and leaves one to the other")
    print(f"# load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for players in counts:
        row = match(args.bot, args.opponent, players, args.deals, args.seed, args)
        print(json.dumps(row) if args.json else line(row), flush=True)


if __name__ == "__main__":
    main()
