"""Where a bot's choices lose: every decision of BOT in matches against OPPONENT,
re-scored by flat Monte Carlo.

At each of BOT's decisions, the candidates are greedy's ``k`` best actions plus
the one BOT chose; each is played to the end by greedy in the same ``worlds``
deals of the unseen cards (``Searcher.rollout_values``, as the ``rollout`` bot
does).  The loss of the decision is the best candidate's value minus the value
of BOT's choice, grouped by what BOT played and what the rollouts preferred
(place, wild = two-eyed jack, remove = one-eyed jack, exchange).  The best of
``k`` noisy estimates is biased upward, so small losses are partly noise; the
large ones are real.

    python benchmarks/decision_loss.py --games 40 --seed 11 --json loss.json
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

import numpy as np
from joblib import Parallel, delayed

from seqsolve import _eval, _search
from seqsolve.bots import make_bot
from seqsolve.games.sequence.actions import ActionKind, decode_action
from seqsolve.games.sequence.cards import CardKind
from seqsolve.games.sequence.state import State
from seqsolve.play.config import MatchConfig


def kind_of(rules, action: int) -> str:
    kind, card, _, _ = decode_action(action)
    if kind == ActionKind.REMOVE:
        return "remove"
    if kind == ActionKind.EXCHANGE:
        return "exchange"
    if kind == ActionKind.PASS:
        return "pass"
    deck = rules.deck_cards
    return "wild" if deck.kind(deck.codes[card]) == CardKind.WILD else "place"


def game_losses(config: MatchConfig, game: int, k: int, worlds: int) -> list[dict]:
    """One game of the match, every decision of the first bot re-scored."""
    rules = config.rules()
    seat_bot = config.seat_bots(game)
    bots = [make_bot(spec) for spec in config.bots]
    state = State.new(rules, seed=config.deal_seed(game))
    rngs = [np.random.default_rng(config.bot_seed(game, s)) for s in range(rules.players)]
    judge = _search.Searcher({})
    judge_seed = np.random.SeedSequence([config.seed, game, 1])
    for seat in range(rules.players):
        bots[seat_bot[seat]].start(rules, state.seats, seat)
    rows = []
    while not state.is_terminal():
        seat = state.current_player
        view = state.observation(seat)
        action = bots[seat_bot[seat]].choose(view, rngs[seat])
        if seat_bot[seat] == 0:
            scored = sorted(_eval.score_actions(view.core), key=lambda item: -item[1])
            candidates = [a for a, _ in scored[:k]]
            if action not in candidates:
                candidates.append(action)
            if len(candidates) > 1:
                bitgen = np.random.PCG64(judge_seed.spawn(1)[0])
                values = judge.rollout_values(view.core, seat, bitgen, candidates, worlds, 0, 0)
                best = int(np.argmax(values))
                rows.append(
                    {
                        "game": game,
                        "turn": state.turn,
                        "chosen": kind_of(rules, action),
                        "best": kind_of(rules, candidates[best]),
                        "loss": float(values[best] - values[candidates.index(action)]),
                    }
                )
        state.apply(action)
    return rows


def summarize(rows: list[dict]) -> list[dict]:
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        groups[(r["chosen"], r["best"])].append(r["loss"])
    out = [
        {"chosen": c, "best": b, "decisions": len(v), "loss_sum": sum(v), "loss_mean": sum(v) / len(v)}
        for (c, b), v in groups.items()
    ]
    return sorted(out, key=lambda g: -g["loss_sum"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=1600)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--json", dest="json_out", help="write every decision and the summary here")
    args = parser.parse_args()
    config = MatchConfig(bots=(args.bot, args.opponent), seed=args.seed)
    per_game = Parallel(n_jobs=args.jobs)(
        delayed(game_losses)(config, g, args.k, args.worlds) for g in range(args.games)
    )
    rows = [r for game in per_game for r in game]
    groups = summarize(rows)
    print(
        f"{len(rows)} decisions of {args.bot} against {args.opponent}, mean loss {np.mean([r['loss'] for r in rows]):.4f}"
    )
    print(f"{'chosen':>9} {'best':>9} {'decisions':>9} {'loss sum':>9} {'mean':>7}")
    for g in groups:
        print(
            f"{g['chosen']:>9} {g['best']:>9} {g['decisions']:>9} {g['loss_sum']:>9.2f} {g['loss_mean']:>7.4f}"
        )
    for r in sorted(rows, key=lambda r: -r["loss"])[:5]:
        print(
            f"  largest: game {r['game']} turn {r['turn']}: played {r['chosen']}, better {r['best']}, loss {r['loss']:.3f}"
        )
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump({"args": vars(args), "summary": groups, "decisions": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
