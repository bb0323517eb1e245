"""Every bot takes a win in one, on every preset and seating and on option sets that
change what a sequence is (C-25's overlap and reuse limits, corners left out of the
overlap, the heart rule D-3).  The positions are not hand-built: seeded games are
walked by a mix of bots and random moves, and at every decision where some legal
action wins at once (found by applying each one) the bots must play one of those.

This is how the reuse limit's bug was found: the evaluation ignored C-25 condition 3,
so on seed000 greedy and rollout played a filled line that scored nothing over the
real winning cell (tests/bots/test_tactics.py has that position by hand)."""

from __future__ import annotations

import numpy as np
import pytest
from state_helpers import preset_configs

from seqsolve.bots import make_bot
from seqsolve.games.exact import winning_actions
from seqsolve.games.sequence.rules import PRESETS, parse_rules
from seqsolve.games.sequence.state import State

VARIANTS = [
    *PRESETS,
    "classic[overlap_max_shared=0,sequences_to_win=3]",
    "classic[overlap_max_shared=4,sequences_to_win=3,corner_counts_as_shared=false]",
    "classic[sequences_to_win=4,overlap_reuse_limit=2,overlap_max_shared=2]",
    "classic[sequences_to_win=3,overlap_reuse_limit=1,corner_counts_as_shared=false]",
    "classic[heart_rule=on]",
]
SEATINGS = ((2, None), (3, None), (4, 2), (6, 3))
BOTS = ("greedy", "heuristic", "mcts:iters=300", "rollout:worlds=8")


@pytest.mark.parametrize("variant,players,teams", preset_configs(VARIANTS, SEATINGS))
def test_every_bot_takes_a_win_in_one(variant, players, teams):
    rules = parse_rules(variant, players=players, teams=teams)
    bots = {spec: make_bot(spec) for spec in BOTS}
    walkers = [make_bot("greedy"), make_bot("heuristic")]
    found = 0
    for game in range(4):
        rng = np.random.default_rng([2026, game])
        state = State.new(rules, seed=int(rng.integers(1 << 30)))
        while not state.is_terminal():
            seat = state.current_player
            wins = winning_actions(state)
            if wins:
                found += 1
                for spec, bot in bots.items():
                    bot.start(rules, state.sides, seat)
                    action = bot.choose(state.observation(seat), np.random.default_rng([game, state.turn]))
                    assert action in wins, (
                        spec,
                        game,
                        state.turn,
                        state.action_to_string(action),
                        sorted(state.action_to_string(a) for a in wins),
                    )
            if rng.random() < 0.8:
                action = walkers[game % 2].choose(state.observation(seat), rng)
            else:
                action = state.random_action()
            state.apply(action)
    assert found >= 4  # the walk met a win in one in every game, or nearly
