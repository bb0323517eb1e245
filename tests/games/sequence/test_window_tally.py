"""The window tally (issue 14, item 2): per-side window counts that apply_action keeps
up to date, so that the bots' scores and evaluation read a window's fill instead of
recounting it.  Its contract is that nothing changes: the counts equal a recount
after every action (placements, one-eyed jack removals, sequences that bar windows
by C-25), and every score, evaluation and choice is the same, to the last bit, as
on the same game without the tally.
"""

from __future__ import annotations

import numpy as np
import pytest
from state_helpers import rules_for

from seqsolve import _choose, _eval
from seqsolve.games.base import RulesError
from seqsolve.games.sequence.rules import PRESETS, UNLIMITED
from seqsolve.games.sequence.state import State
from seqsolve.reference.sequences import overlap_allows


def seatings():
    """Every preset with two sides, and with three where the preset allows them."""
    out = []
    for preset in PRESETS:
        for players, teams in ((2, None), (3, None), (6, 3)):
            try:
                rules_for(preset, players, teams)
            except RulesError:
                continue
            out.append((preset, players, teams))
    return out


SEATINGS = seatings()

# long games with several sequences each: the windows a sequence bars (C-25) and the
# overlaps it allows (overlap_max_shared 0, 1, 4) are where a kept count could go stale
LONG = [
    ("classic", {"sequences_to_win": 4, "overlap_max_shared": 0}),
    ("classic", {"sequences_to_win": 4, "overlap_max_shared": 1}),
    ("classic", {"sequences_to_win": 4, "overlap_max_shared": 4, "corner_shared": True}),
    ("classic", {"sequences_to_win": 3, "heart_rule": "on"}),
    ("classic", {"sequences_to_win": 4, "overlap_reuse_limit": 1}),
    ("classic", {"sequences_to_win": 4, "overlap_reuse_limit": 2, "overlap_max_shared": 2}),
]


def games(rules, seeds, fill_only=False):
    """Pairs of the same dealt game, the first keeping the tally from the deal."""
    for seed in seeds:
        kept = State.new(rules, seed=seed).core
        plain = kept.clone()
        kept.start_tally(fill_only)
        yield seed, kept, plain


def play_along(rules, seeds, check, fill_only=False):
    """Play each game to its end, greedy and random actions mixed (so chips are also
    removed), calling ``check(kept, plain)`` before every action."""
    steps = 0
    for seed, kept, plain in games(rules, seeds, fill_only):
        rng = np.random.default_rng(seed)
        while kept.result == -1:  # RESULT_NONE: the game goes on
            check(kept, plain)
            steps += 1
            if rng.random() < 0.5:
                legal = plain.legal_actions()
                action = legal[rng.integers(len(legal))]
            else:
                action = _choose.greedy_action(plain, np.random.PCG64(steps))
            kept.apply(action)
            plain.apply(action)
        assert kept.chips(0) == plain.chips(0) and kept.sequences() == plain.sequences()
    return steps


def recount(game):
    fresh = game.clone()
    fresh.start_tally()
    return fresh.tally()


def same_counts(kept, plain):
    assert plain.tally() is None
    assert kept.tally() == recount(kept)


@pytest.mark.parametrize("preset,players,teams", SEATINGS)
def test_tally_equals_a_recount_after_every_action(preset, players, teams):
    assert play_along(rules_for(preset, players, teams), range(3), same_counts) > 40


@pytest.mark.parametrize("preset,changes", LONG)
def test_tally_follows_sequences_that_bar_windows(preset, changes):
    """C-25: a completed sequence bars the windows overlapping it by more than
    overlap_max_shared cells; the tally recounts that side when it completes one."""
    barred = []

    def check(kept, plain):
        same_counts(kept, plain)
        barred.append(sum(len(side[3]) for side in kept.tally()))

    play_along(rules_for(preset, 2, None, **changes), range(4), check)
    assert max(barred) > 0


@pytest.mark.parametrize("preset,changes", LONG + [("seed000", {}), ("seed000", {"sequences_to_win": 4})])
def test_barred_windows_are_the_ones_c25_forbids(preset, changes):
    """C-25 conditions 2 and 3 (the reuse limit included): after every action the
    tally bars, per side, exactly the windows that the reference's overlap rule
    forbids that side's sequences, so no bot counts a line that cannot score."""
    rules = rules_for(preset, 2, None, **changes)
    no_limit = rules.replace(overlap_reuse_limit=UNLIMITED)
    by_the_limit = []  # windows barred by condition 3 alone

    def check(kept, plain):
        for side, counts in enumerate(kept.tally()):
            done = [w for s, w in kept.sequences() if s == side]
            assert counts[3] == [w for w in range(192) if not overlap_allows(w, done, rules)]
            by_the_limit.append(sum(overlap_allows(w, done, no_limit) for w in counts[3]))

    play_along(rules, range(4), check)
    assert (max(by_the_limit) > 0) == (rules.overlap_reuse_limit != UNLIMITED)


# the default weights, the one-ply score in the heuristic's key, and the split
# evaluation (dead windows and hand-fillable cells), which reads no tally
WEIGHTS = [
    None,
    {"w_tactics": 0.5},
    {"w_hand": (0.0, 1.0, 2.0, 3.0, 4.0), "w_dead_open": (0.0, 0.5, 1.0, 3.0, 4.0)},
]


def same_scores(kept, plain):
    for weights in WEIGHTS:
        assert _eval.score_actions(kept, weights) == _eval.score_actions(plain, weights)
        assert _eval.evaluate_scores(kept, weights) == _eval.evaluate_scores(plain, weights)
        for side in range(len(_eval.evaluate_scores(plain))):
            assert _eval.evaluate_position(kept, side, weights) == _eval.evaluate_position(
                plain, side, weights
            )
        for chooser in (_choose.heuristic_action, _choose.greedy_action):
            assert chooser(kept, np.random.PCG64(5), weights) == chooser(plain, np.random.PCG64(5), weights)


def same_keys(kept, plain):
    """The heuristic reads an ordinary play's key off the tally without a copy: every
    action's key (its evaluation to the last bit) is the copy's, on the game (every
    hand and the draw known) and on the mover's observation (both unknown)."""
    seen_kept, seen_plain = kept.clone(), plain.clone()
    seen_kept.mask_hidden(kept.to_move)
    seen_plain.mask_hidden(kept.to_move)
    for a, b in ((kept, plain), (seen_kept, seen_plain)):
        for weights in WEIGHTS:
            with_tally = _choose.heuristic_keys(a, np.random.PCG64(5), weights)
            without = _choose.heuristic_keys(b, np.random.PCG64(5), weights)
            assert [(k[:3], k[3].hex()) for k in with_tally] == [(k[:3], k[3].hex()) for k in without]


# what each check compares, and on how many games (the keys are cheap: every action)
CHECKS = [pytest.param(same_scores, range(2), id="scores"), pytest.param(same_keys, range(3), id="keys")]


@pytest.mark.parametrize("check,seeds", CHECKS)
@pytest.mark.parametrize("preset,players,teams", SEATINGS)
def test_scores_and_choices_are_the_same_with_the_tally(preset, players, teams, check, seeds):
    assert play_along(rules_for(preset, players, teams), seeds, check) > 20


@pytest.mark.parametrize("check,seeds", CHECKS)
@pytest.mark.parametrize("preset,changes", LONG)
def test_scores_are_the_same_with_sequences_on_the_board(preset, changes, check, seeds):
    play_along(rules_for(preset, 2, None, **changes), seeds, check)


def same_fills(kept, plain):
    """A fill_only tally: the fills, bars and discards of a recount, no open counts, and
    every greedy score and choice the same as without a tally (greedy reads no more)."""
    assert [(side[0], side[3], side[4]) for side in kept.tally()] == [
        (side[0], side[3], side[4]) for side in recount(kept)
    ]
    assert all(side[1] is None and side[2] is None for side in kept.tally())
    for weights in WEIGHTS:
        assert _eval.score_actions(kept, weights) == _eval.score_actions(plain, weights)
        assert _choose.greedy_action(kept, np.random.PCG64(5), weights) == _choose.greedy_action(
            plain, np.random.PCG64(5), weights
        )


@pytest.mark.parametrize(
    "rules",
    [rules_for(*seating) for seating in SEATINGS]
    + [rules_for(preset, 2, None, **changes) for preset, changes in LONG],
)
def test_a_fill_only_tally_keeps_what_greedy_reads(rules):
    """Issue 37: a game whose bots read only the tally's fills and bars (the compiled
    loop's greedy and random bots) keeps those alone, through removals and sequences."""
    assert play_along(rules, range(2), same_fills, fill_only=True) > 20


def test_a_game_keeps_no_tally_until_asked():
    game = State.new(rules_for("classic"), seed=1).core
    assert game.tally() is None
    game.start_tally()
    assert game.clone().tally() == game.tally()
    assert len(SEATINGS) > len(PRESETS)
    # an empty board: the 12 windows through a corner hold one counting cell for both sides
    assert [side[1] for side in game.tally()] == [[180, 12, 0, 0, 0], [180, 12, 0, 0, 0]]
