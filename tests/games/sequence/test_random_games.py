"""``_core.random_games`` plays the games of ``deal`` then ``playout``, one after the other.

``random_games`` (the workload of ``seqsolve bench`` and of the comparison with the C
reference) plays by a playout of its own that keeps the counts a random move needs and
draws a numpy PCG64 inline.  Whatever it keeps, its games must be those of the general
path: a game dealt by ``CoreGame.deal`` and played out by ``CoreGame.playout`` from the
same bit generator, game after game.  So for each rule set below both are run from equal
bit generators, and the totals (games, actions, draws) and the bit generators' states
afterwards must be equal: one action chosen otherwise, or one number drawn more or less,
changes them.

The rule sets reach every path of the quick playout and its fall-backs: seatings of 2, 3
and 4 seats, the numbers board, the compensation rules (K-1's larger hands, K-2's first
turn), voluntary passes, no exchanges, deck exhaustion as a draw, the heart rule, hands of
more than 8 cards, and the draft (played by the general path).
"""

from __future__ import annotations

import numpy as np
import pytest

from seqsolve import _core
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import core_rules

RULE_SETS = [
    ("classic", 2, None),
    ("seed000", 3, None),
    ("numbers", 2, None),
    ("classic", 4, 2),
    ("classic[hand_bonus=1,first_turn_jacks=off]", 2, None),
    ("classic[hand_bonus=4]", 2, None),
    ("classic[first_turn_short=2]", 2, None),
    ("classic[head_start=2]", 3, None),
    ("classic[first_turn_short=1,head_start=1]", 4, 2),
    ("classic[head_start=2,head_start_edge=on]", 3, None),  # K-6
    ("classic[allow_voluntary_pass=on]", 2, None),
    ("classic[dead_card_exchanges_per_turn=0]", 2, None),
    ("classic[deck_exhaustion=draw_game]", 2, None),
    ("classic[heart_rule=on]", 2, None),
    ("draft", 2, None),
    ("draft[hand_bonus=1,first_turn_short=1]", 2, None),  # K-3's fill from the pile in the draft
]


def tables(spec: str, players: int, teams: int | None) -> _core.CoreRules:
    return core_rules(parse_rules(spec, players=players, **({"teams": teams} if teams else {})))


def one_by_one(rules: _core.CoreRules, bit_generator, n_games: int) -> tuple[int, int, int]:
    """The games of random_games by the general path: deal, then random play to the end."""
    plies = draws = 0
    for _ in range(n_games):
        game = _core.CoreGame(rules, bit_generator)
        game.deal()
        plies += game.playout()
        draws += game.result == 3
    return n_games, plies, draws


def same_state(a, b) -> bool:
    """Two bit generators' states are equal (some hold numpy arrays)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_state(a[k], b[k]) for k in a)
    return bool(np.array_equal(a, b))


@pytest.mark.parametrize(("spec", "players", "teams"), RULE_SETS)
def test_random_games_are_the_general_playouts(spec, players, teams):
    rules = tables(spec, players, teams)
    for seed in (3, 2026):
        quick, general = np.random.PCG64(seed), np.random.PCG64(seed)
        assert _core.random_games(rules, quick, 300) == one_by_one(rules, general, 300)
        assert same_state(quick.state, general.state)


@pytest.mark.parametrize("kind", [np.random.Philox, np.random.SFC64, np.random.MT19937])
def test_random_games_with_other_bit_generators(kind):
    """Only a PCG64 is drawn inline; any other bit generator is drawn through numpy."""
    rules = tables("classic", 2, None)
    quick, general = kind(11), kind(11)
    assert _core.random_games(rules, quick, 200) == one_by_one(rules, general, 200)
    assert same_state(quick.state, general.state)


def test_random_games_takes_the_pending_half_of_a_draw():
    """A PCG64 holding the high half of its last 64-bit output gives it first (numpy's
    32-bit draw), and random_games leaves such a half behind as numpy would."""
    rules = tables("classic", 2, None)
    quick, general = np.random.PCG64(5), np.random.PCG64(5)
    for bit_generator in (quick, general):
        state = bit_generator.state
        state["has_uint32"], state["uinteger"] = 1, 0xDEADBEEF
        bit_generator.state = state
    assert _core.random_games(rules, quick, 7) == one_by_one(rules, general, 7)
    assert same_state(quick.state, general.state)


def test_random_games_continue_one_another():
    """Two calls from one bit generator play the games of one call of their total."""
    rules = tables("classic", 2, None)
    split, whole = np.random.PCG64(8), np.random.PCG64(8)
    first = _core.random_games(rules, split, 120)
    second = _core.random_games(rules, split, 180)
    total = _core.random_games(rules, whole, 300)
    assert (first[0] + second[0], first[1] + second[1], first[2] + second[2]) == total
    assert same_state(split.state, whole.state)
