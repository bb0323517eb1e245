"""Parity of the compiled Stacks engine with the plain-Python reference (STYLE habit
9): positions reached by random play in the compiled engine, across 2–6 players
and mixes of the §4.9 options, each loaded into both engines, their legal actions
compared, then one random action applied in both and the positions compared.

Both are loaded without a shuffle source, so a recycled draw pile is unknown in
both (ST-20) and the comparison is exact: the engines shuffle with different
generators and agree only up to the order of a recycled pile.
"""

from __future__ import annotations

import dataclasses

import core_helpers
import numpy as np

from seqsolve.games.stacks.actions import action_to_text
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState
from seqsolve.reference.stacks import ReferenceStacks

VARIANTS = [
    *core_helpers.VARIANTS,
    "stacks[stacks_max_piles_per_colour=3,stacks_win_chips=4,stacks_win_min_each=0]",
    "stacks[stacks_first_turn_short=2]",  # K-4: a short first hand, unrefilled
    "stacks[stacks_refill=empty_hand_only,stacks_first_turn_short=4]",  # K-4 with ST-11's literal seed
    "stacks[stacks_first_hand_bonus=3]",  # K-7: a long first hand, kept until played
    "stacks[stacks_refill=empty_hand_only,stacks_first_hand_bonus=5]",  # K-7 with ST-11's literal seed
    "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",  # once the two chips are out: refills within a turn (the stalled draw, ST-22)
]
POSITIONS = 12_000


def differences(a, b) -> dict[str, tuple]:
    return {
        f.name: (getattr(a, f.name), getattr(b, f.name))
        for f in dataclasses.fields(a)
        if getattr(a, f.name) != getattr(b, f.name)
    }


def test_the_compiled_engine_agrees_with_the_reference_on_random_positions():
    choose = np.random.default_rng(2026)
    checked, game, seen_players, refilled = 0, 0, set(), 0
    while checked < POSITIONS:
        players = 2 + game % 5
        rules = make_rules(VARIANTS[game % len(VARIANTS)], players)
        driver = StacksState.new(rules, seed=game)
        game += 1
        while not driver.is_terminal() and checked < POSITIONS:
            pos = driver.to_position()
            core, ref = StacksState.from_position(pos), ReferenceStacks.from_position(pos)
            legal = core.legal_actions()
            assert legal == ref.legal_actions(), (pos, [action_to_text(a) for a in legal])
            action = legal[choose.integers(len(legal))]
            core.apply(action)
            ref.apply(action)
            after = core.to_position()
            assert after == ref.to_position(), (
                pos,
                action_to_text(action),
                differences(after, ref.to_position()),
            )
            assert core.current_player == ref.current_player and core.returns() == ref.returns()
            driver.apply(action)
            checked += 1
            seen_players.add(players)
            refilled += after.refilled
    assert seen_players == {2, 3, 4, 5, 6}
    assert refilled  # the flag of the stalled draw (ST-22) was compared too
