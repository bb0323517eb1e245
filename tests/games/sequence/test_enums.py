"""Closed sets are enums, each said once: action kinds and core results
(games/sequence/state.py), why games end, colour names."""

from __future__ import annotations

import numpy as np

from seqsolve import State, parse_rules
from seqsolve.balance.metrics import TERMINATIONS
from seqsolve.games.sequence.actions import ActionKind, decode_action
from seqsolve.games.sequence.moves import MoveKind
from seqsolve.games.sequence.position import COLOUR_NAMES, COLOURS
from seqsolve.games.sequence.state import CoreResult, Termination


def test_action_kinds_name_what_the_core_encodes():
    """C-15, C-19, C-30: every legal action of random games decodes to the kind of its move."""
    rng = np.random.default_rng(4)
    seen = set()
    for seed in range(6):
        state = State.new(parse_rules("classic[allow_voluntary_pass=true]", players=2), seed=seed)
        while not state.is_terminal():
            for action in state.legal_actions():
                kind = ActionKind(decode_action(action)[0])
                assert kind is ActionKind.of(state.action_to_move(action))
                assert kind.name == state.action_to_move(action).kind.name
                seen.add(kind)
            state.apply(int(rng.choice(state.legal_actions())))
        assert state.core.result in (0, 1, CoreResult.DRAW)
    assert {k.name for k in seen} <= {k.name for k in MoveKind} and ActionKind.PLACE in seen


def test_terminations_come_from_the_enum():
    """C-31, D-4 (then ST-21, ST-22): the balance tables count every ending a played game of
    Sequence, then of Sequence Stacks, can have, and forfeits."""
    from seqsolve.games.stacks.state import Termination as StacksTermination

    sequence = tuple(t.name.lower() for t in Termination if t is not Termination.RECORDED)
    stacks = tuple(t.name.lower() for t in StacksTermination if t is not StacksTermination.RECORDED)
    assert TERMINATIONS == (*sequence, *(t for t in stacks if t not in sequence), "forfeit")


def test_one_name_per_colour():
    assert "".join(COLOUR_NAMES) == COLOURS
