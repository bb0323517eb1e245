"""OpenSpiel's information-set MCTS, seated in seqsolve's match runner, against
seqsolve's bots (train with their tools, measure with ours).

Plays ``--games`` games (classic, 2 players; the runner's pairs: each deal twice, the
seats swapped) of ``seqsolve.frameworks.openspiel.ISMCTSBot`` with ``--sims``
simulations a move against each opponent, through ``seqsolve.play.match.play_game``
(what ``seqsolve match`` runs), and prints the score with its 95% interval and the
ISMCTS bot's CPU time per move.

Usage:  python benchmarks/frameworks_strength.py [--games 16] [--sims 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from seqsolve.bots import make_bot
from seqsolve.frameworks.openspiel import ISMCTSBot
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game
from seqsolve.stats import score_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--sims", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="random,heuristic")
    args = parser.parse_args()
    for opponent in args.opponents.split(","):
        config = MatchConfig(bots=(f"openspiel-ismcts:sims={args.sims}", opponent), seed=args.seed)
        wins = draws = losses = 0
        moves, cpu = 0, 0.0
        for game in range(args.games):
            bots = [ISMCTSBot(sims=args.sims), make_bot(opponent)]
            search = bots[0]
            real = search.choose

            def timed(observation, rng, real=real):
                nonlocal moves, cpu
                started = time.process_time()
                action = real(observation, rng)
                cpu += time.process_time() - started
                moves += 1
                return action

            search.choose = timed
            record = play_game(config, game, bots=bots)
            seat_side = record["side_bot"].index(0)
            if record["winner_side"] is None:
                draws += 1
            elif record["winner_side"] == seat_side:
                wins += 1
            else:
                losses += 1
        score, low, high = score_interval(wins, draws, losses)
        print(
            f"openspiel-ismcts:sims={args.sims} vs {opponent}: {wins} wins {draws} draws {losses} losses, "
            f"score {score:.1%} [95% {low:.1%}, {high:.1%}], {cpu / max(moves, 1) * 1000:.0f} ms CPU a move"
        )


if __name__ == "__main__":
    main()
