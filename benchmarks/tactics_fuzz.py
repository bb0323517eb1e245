"""Where the bots get one-move tactics wrong, found on positions nobody built by hand.

Seeded games are walked by a mix of ``greedy``, ``heuristic`` and random moves; at
every decision the script asks what the rules make certain and whether each bot
under test did it:

* ``win``: some legal action wins at once (found by applying every one on a copy
  of the game) -- the bot must play one of them;
* ``block``: the mover cannot win, an opponent can win on its next placement with a
  card the mover cannot rule out (``threats.immediate_wins``), and some play leaves
  no such cell (judged on the mover's own view, so a card drawn after the play
  does not count) -- the bot must play one of those.  A dead-card exchange is not
  judged (the turn goes on).  With three sides a side between the mover and the
  threatening one may block in its place, so a miss there is not always a mistake.

Every miss is printed with the game, turn, the move played and the moves that
would have done it (``--json`` writes them all).  This is how the reuse limit's bug
(seed000) and the search's missed double completion were found; see
benchmarks/RESULTS.md, "Tactics" and "Experiments: the evaluation and its weights".

    python benchmarks/tactics_fuzz.py --variant seed002-literal --players 2 --check block
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import numpy as np
from strength_matrix import split_specs  # the matrix's reading of --bots, beside this script

from seqsolve.bots import BotError, make_bot
from seqsolve.games.base import RulesError
from seqsolve.games.exact import winning_actions
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.games.sequence.threats import immediate_wins

CHECKS = ("win", "block")


def threats(view: State, side: int) -> list[dict]:
    """The cells where another side wins with its next chip, with a card ``view``'s
    seat cannot rule out."""
    return [
        t
        for other in range(len(view.sides))
        if other != side
        for t in immediate_wins(view, other)
        if t["possible"]
    ]


def full_blocks(view: State, side: int) -> set[int]:
    """The plays after which no other side can win with its next chip (or the game is over)."""
    out = set()
    for action in view.legal_actions():
        if view.ends_turn(action):
            child = view.clone()
            child.apply(action)
            if child.is_terminal() or not threats(child, side):
                out.add(action)
    return out


def fuzz(
    variant: str,
    players: int,
    teams: int | None,
    games: int,
    seed: int,
    specs: list[str],
    checks: tuple[str, ...],
) -> dict:
    rules = parse_rules(variant, players=players, teams=teams)
    bots = {spec: make_bot(spec) for spec in specs}
    walkers = [make_bot("greedy"), make_bot("heuristic")]
    positions = dict.fromkeys(checks, 0)
    misses = []
    for game in range(games):
        rng = np.random.default_rng([seed, game])
        state = State.new(rules, seed=int(rng.integers(1 << 30)))
        while not state.is_terminal():
            seat = state.current_player
            side = state.side_of(seat)
            view = state.observation(seat)
            wins = winning_actions(state)
            good, check = None, None
            if wins and "win" in checks:
                good, check = wins, "win"
            elif not wins and "block" in checks and threats(view, side):
                good, check = full_blocks(view, side), "block"
            if good:
                positions[check] += 1
                for spec, bot in bots.items():
                    bot.start(rules, state.sides, seat)
                    action = bot.choose(view, np.random.default_rng([seed, game, state.turn]))
                    if state.ends_turn(action) and action not in good:
                        misses.append(
                            {
                                "check": check,
                                "bot": spec,
                                "game": game,
                                "turn": state.turn,
                                "played": state.action_to_string(action),
                                "good": sorted(state.action_to_string(a) for a in good),
                            }
                        )
                        print(
                            f"miss: {check} {spec} game {game} turn {state.turn}: played "
                            f"{misses[-1]['played']}, not one of {' '.join(misses[-1]['good'][:8])}",
                            file=sys.stderr,
                            flush=True,
                        )
            if rng.random() < 0.8:
                action = walkers[game % 2].choose(view, rng)
            else:
                action = state.random_action()
            state.apply(action)
    counts = {
        spec: {check: sum(1 for m in misses if m["bot"] == spec and m["check"] == check) for check in checks}
        for spec in specs
    }
    return {
        "variant": variant,
        "players": players,
        "teams": teams,
        "games": games,
        "seed": seed,
        "positions": positions,
        "misses_by_bot": counts,
        "misses": misses,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="Exit code 1 when a bot missed; 2 on bad input."
    )
    parser.add_argument("--variant", default="classic", help="a preset, options in brackets allowed")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", type=int, default=None)
    parser.add_argument("--games", type=int, default=40, help="games walked")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--bots",
        default="greedy,heuristic,mcts",
        help="comma-separated bot specs; a "
        "spec's own options may follow it (mcts:iters=300,k=8,greedy is two bots)",
    )
    parser.add_argument("--check", default="win,block", help="win, block or both")
    parser.add_argument("--json", dest="json_path", help="write the result here (whole or not at all)")
    args = parser.parse_args(argv)
    checks = tuple(c.strip() for c in args.check.split(",") if c.strip())
    specs = [s.strip() for s in split_specs(args.bots) if s.strip()]
    try:
        if not checks or any(c not in CHECKS for c in checks):
            raise ValueError(f"--check takes {' and '.join(CHECKS)}, not {args.check!r}")
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        parse_rules(args.variant, players=args.players, teams=args.teams)
        for spec in specs:
            make_bot(spec).close()
    except (ValueError, RulesError, BotError) as exc:
        print(f"tactics_fuzz.py: {exc}", file=sys.stderr)
        return 2
    result = fuzz(args.variant, args.players, args.teams, args.games, args.seed, specs, checks)
    for spec, counts in result["misses_by_bot"].items():
        said = ", ".join(f"{check} {n} of {result['positions'][check]}" for check, n in counts.items())
        print(f"{spec}: missed {said}")
    if args.json_path:
        folder = os.path.dirname(os.path.abspath(args.json_path))
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as out:
            json.dump(result, out, indent=1)
        os.replace(out.name, args.json_path)
    return 1 if result["misses"] else 0


if __name__ == "__main__":
    sys.exit(main())
