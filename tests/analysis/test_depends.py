"""What the hidden cards decide (seqsolve.analysis.depends): the opponents' holdings that
split a turn's outcome, proofs on the condition that they lack a card, the draws that
win the mover's next turn, and the per-world results the compiled rollouts give for it."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from cli_helpers import fails, ok
from state_helpers import make, rules_for

from seqsolve.analysis.proof import prove_turns, prove_win_unless
from seqsolve.analysis.results import AnalysisError
from seqsolve.analysis.search import analyze
from seqsolve.cli.analysis import format_analysis
from seqsolve.games.sequence.game import SEQUENCE

ONE_EYED = ["JH", "JS"]


def _open_four() -> object:
    """Blue (to move, a sequence already) plays 4H@f5 for c5-f5, open at b5 and g5, whose
    cards (QS, AH) it holds: green can block one cell only, so the turn wins by force
    unless green removes a chip with a one-eyed jack.  Green's 7 cards are hidden."""
    return make(
        rules_for(),
        chips={"b": "c5 d5 e5 h2", "B": "a6 a7 a8 a9", "g": "i8 b9 c2 e9 f9"},
        hands=["4H QS AH 2S 3D 8C KD", ()],
        unknown_hands={1: 7},
        draw=90,
        turn=8,
        sequences=["b a6-a10"],
    ).observation(0)


#: the chance that green's 7 hidden cards, dealt from the 97 blue has not seen, hold one
#: of the 4 one-eyed jacks
JACK_CHANCE = 1 - comb(97 - 4, 7) / comb(97, 7)


def _turn(view, text: str) -> tuple[int, ...]:
    return (view.string_to_action(text),)


def test_a_turn_that_wins_unless_green_holds_a_one_eyed_jack_says_so_exactly():
    view = _open_four()
    turn = _turn(view, "4H@f5")
    assert turn not in prove_turns(view, [turn]).proofs  # a jack refutes it outright
    proof = prove_win_unless(view, turn, ONE_EYED)
    assert proof is not None and proof.result == "win" and proof.turns == 2
    a = analyze(view, seed=3)
    stat = a.find("4H@f5")
    assert stat.proof is None
    (first, *_) = stat.depends
    assert first.feature == "green holds a one-eyed jack"
    assert first.proof is not None and first.proof.turns == 2
    assert first.share == pytest.approx(JACK_CHANCE) and first.worlds is None and first.win_without == 1.0
    assert "wins by force in 2 turns unless green holds a one-eyed jack" in format_analysis(a)


def test_without_proofs_the_dealt_worlds_find_the_jack_with_its_share():
    """The same split estimated over the dealt worlds: the share near the exact chance
    (200 worlds: a standard error of 0.03), the turn better without the jack."""
    a = analyze(_open_four(), seed=3, prove=0)
    stat = a.find("4H@f5")
    jack = next(d for d in stat.depends if d.feature == "green holds a one-eyed jack")
    assert jack.proof is None and jack.worlds == 200
    assert abs(jack.share - JACK_CHANCE) < 0.1
    assert jack.share == jack.worlds_with / jack.worlds
    assert jack.win_without - jack.win_with >= 0.1


def _one_away():
    """Blue (a sequence already) holds c5-f5 with b5 green's: g5 (AH) wins, and blue holds
    neither AH nor a two-eyed jack; one AH is on green's discard pile."""
    return make(
        rules_for(),
        chips={"b": "c5 d5 e5 f5", "B": "a6 a7 a8 a9", "g": "b5 i8 b9 c2"},
        hands=["2S 3D 8C KD 5C 6S 7D", ()],
        discards=[(), ("AH",)],
        unknown_hands={1: 7},
        draw=89,
        turn=8,
        sequences=["b a6-a10"],
    ).observation(0)


def test_the_draws_that_win_next_turn_are_listed_with_their_exact_chance():
    view = _one_away()
    tactics = SEQUENCE.tactics(view, False)
    turn = _turn(view, "KD@c10")
    after = view.clone()
    for a in turn:
        after.apply(a)
    draws = tactics.winning_draws(after, turn, 0)
    # 104 cards, 7 in blue's hand and one discarded: 96 unseen; AH 1 left, JD 2, JC 2
    assert draws == {
        "cells": ["g5"],
        "cards": ["AH", "JD", "JC"],
        "held": [],
        "copies": 5,
        "of": 96,
        "chance": 5 / 96,
    }
    data = analyze(view, seed=1).to_dict(3)
    for move in data["moves"]:
        assert move["winning_draws"]["cells"] == ["g5"] and move["winning_draws"]["chance"] == 5 / 96


def test_json_has_depends_and_winning_draws_for_the_best_turns_only():
    data = analyze(_open_four(), seed=3, depends=2).to_dict()
    assert all("winning_draws" in m for m in data["moves"][:2])
    assert not any("depends" in m or "winning_draws" in m for m in data["moves"][2:])
    for m in data["moves"][:2]:
        for d in m["depends"]:
            assert set(d) >= {"feature", "share", "win_with", "win_without", "worlds", "worlds_with"}
    none = analyze(_open_four(), seed=3, depends=0).to_dict()
    assert not any("depends" in m or "winning_draws" in m for m in none["moves"])


def test_with_every_card_known_nothing_depends_on_hidden_cards():
    state = make(
        rules_for(),
        chips={"b": "c5 d5 e5"},
        hands=["4H QS AH 2S 3D 8C KD", "5C 6S 7D 9S TS QD KS"],
        draw="rest",
    )
    data = analyze(state, seed=1, open_information=True, iterations=50).to_dict(3)
    assert not any(m.get("depends") or m.get("winning_draws") for m in data["moves"])


def test_the_per_world_results_average_to_the_rollout_values_and_deal_what_the_mover_cannot_see():
    view = _open_four()
    searcher = SEQUENCE.searcher({})
    actions = view.legal_actions()[:4]
    results, hands = searcher.rollout_outcomes(view, 0, np.random.PCG64(7), actions, 30, depth=12)
    means = searcher.rollout_values(view, 0, np.random.PCG64(7), actions, 30, 0, depth=12)
    assert [sum(r[i] for r in results) / 30 for i in range(4)] == pytest.approx(means)
    assert len(results) == len(hands) == 30
    for world in hands:
        assert sorted(world[0]) == sorted(view.hand(0)) and len(world[1]) == 7


def test_a_bad_depends_is_one_line():
    with pytest.raises(AnalysisError, match="depends"):
        analyze(_open_four(), depends=-1)
    with pytest.raises(AnalysisError, match="depends"):
        analyze(_open_four(), depends="3")
    assert "--depends" in fails("analyze", "example:1", "--depends", "-1", code=2)
    assert "--depends" in fails("analyze", "example:1", "--depends", "x", code=2)


def test_the_table_shows_the_draws_under_each_of_the_best_turns(tmp_path):
    text = SEQUENCE.write_position(_one_away())
    out = ok("analyze", "-", "--seed", "1", "--top", "4", input=text)
    line = "     draws:   AH JD JC win next turn on g5 if still open: 5 of 96 unseen cards, 5.2%"
    assert out.count(line) == 3  # the best three (--depends 3), not the fourth
    assert line not in ok("analyze", "-", "--seed", "1", "--top", "4", "--depends", "0", input=text)


def test_the_chance_of_a_holding_is_exact_and_none_when_the_holding_is_known():
    state = make(
        rules_for(),
        chips={"b": "c5 d5 e5"},
        hands=["4H QS AH 2S 3D 8C KD", "JH"],
        unknown_hands={1: 6},
        draw=90,
    )
    assert SEQUENCE.tactics(state, True).holding_chance([1], ONE_EYED) is None  # seen in its hand
    view = state.observation(0)
    assert SEQUENCE.tactics(view, False).holding_chance([1], ONE_EYED) == pytest.approx(JACK_CHANCE)
    assert SEQUENCE.tactics(view, False).holding_chance([1], ["4H"]) == pytest.approx(
        1 - comb(96, 7) / comb(97, 7)
    )
