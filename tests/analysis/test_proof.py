"""Proven results: the proof search of seqsolve._proof, checked against the full-width
reference search, the tactics corpus (tests/data/tactics.txt), and what ``analyze``,
its JSON and ``annotate`` say about proofs (only a proof reads 1.000 or 0.000)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import fails, ok
from script_helpers import load_script

from seqsolve.analysis.proof import plies_until, prove_turns
from seqsolve.analysis.results import ESTIMATE_CEILING, ESTIMATE_FLOOR
from seqsolve.analysis.search import analyze
from seqsolve.bots import make_bot
from seqsolve.cli.analysis import format_annotation
from seqsolve.cli.position import load_position
from seqsolve.games import read_state, rules_for
from seqsolve.games.sequence.moves import parse_turn
from seqsolve.games.sequence.state import State
from seqsolve.reference.forced import forced_win, unseen_pool
from seqsolve.reference.game import RefGame

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "tactics_corpus.py"


@pytest.fixture(scope="module")
def corpus():
    return load_script(SCRIPT, "tactics_corpus")


@pytest.fixture(scope="module")
def entries(corpus):
    return corpus.read_corpus()


def test_the_corpus_covers_every_preset_with_multi_turn_wins_and_traps(entries):
    assert len(entries) >= 100
    multi = [e for e in entries if e["kind"] == "win" and e["turns"] >= 2]
    assert len(multi) * 2 >= len(entries)
    setups = {(e["preset"], e["players"]) for e in entries}
    assert {
        ("classic", 2),
        ("classic", 3),
        ("classic", 4),
        ("draft", 2),
        ("numbers", 2),
        ("seed000", 2),
        ("seed000", 4),
    } <= setups
    assert any(e["kind"] == "trap" for e in entries)


def test_the_proof_search_gives_every_corpus_answer(corpus, entries):
    """The whole corpus, proofs only (the search's part of ``analyze``)."""
    wrong = []
    for e in entries:
        state = read_state(e["sqn"], "corpus", 0)
        view = state.clone() if e["mode"] == "open" else state.observation(state.current_player)
        turns = corpus._turns(view)
        proofs = prove_turns(view, turns).proofs
        text = {t: corpus._text(view, t) for t in turns}
        if e["kind"] == "trap":
            ok = not any(text[t] == e["moves"][0] and p.result == "win" for t, p in proofs.items())
        elif e["kind"] == "loss":
            ok = len(proofs) == len(turns) and max(p.turns for p in proofs.values()) == e["turns"]
        else:
            fastest = {text[t] for t, p in proofs.items() if p.result == "win" and p.turns == e["turns"]}
            faster = [p for p in proofs.values() if p.result == "win" and p.turns < e["turns"]]
            ok = fastest == set(e["moves"]) and not faster
        if not ok:
            wrong.append((e["preset"], e["players"], e["mode"], e["kind"], e["moves"]))
    assert not wrong


def test_analyze_at_its_defaults_solves_a_sample_of_the_corpus(corpus, entries):
    sample, seen = [], set()
    for e in entries:
        key = (e["preset"], e["players"], e["mode"], e["kind"])
        if key not in seen and len(sample) < 8:
            seen.add(key)
            sample.append(e)
    for e in sample:
        state = read_state(e["sqn"], "corpus", 0)
        a = analyze(state, seed=1, open_information=e["mode"] == "open", threats=False)
        assert corpus.solved(e, a), (e["preset"], e["players"], e["mode"], e["kind"], e["moves"])


def _reference_win_in_two(state, turn) -> bool:
    """The full-width answer, hidden cards, two players: after ``turn`` the mover wins
    on its next turn whatever the opponent plays, with any card it has not seen."""
    mover = state.current_player
    ref = RefGame.from_position(state.to_position())
    before = list(ref.hands[mover])
    text = " ".join(state.action_to_string(a) for a in turn)
    ref.apply(text)
    if ref.is_over:
        return ref.result == state.sides[state.side_of(mover)]
    rest = list(before)
    for m in parse_turn(text):
        rest.remove(m.card)
        if m.pick:
            rest.append(m.pick)  # a draft card taken in the open is held
    return forced_win(ref, state.sides[state.side_of(mover)], {mover: rest}, unseen_pool(ref, [before]), 2)


def test_no_claimed_win_is_stopped_by_a_full_width_defence():
    """Seeded games of ``heuristic``: the first win in two the proof search claims from
    the mover's observation in each holds against every reply with every card the
    mover has not seen (jacks included), in the reference engine."""
    rules = rules_for("classic", players=2)
    bot = make_bot("heuristic")
    claims = 0
    for seed in (18, 24):
        state = State.new(rules, seed=seed)
        rng = np.random.default_rng(seed)
        claimed = False
        while not state.is_terminal() and not claimed:
            view = state.observation(state.current_player)
            turns = [(a,) for a in view.legal_actions() if view.ends_turn(a)]
            for turn, proof in prove_turns(view, turns, max_turns=2).proofs.items():
                if proof.result == "win" and proof.turns == 2:
                    assert _reference_win_in_two(state, turn), view.action_to_string(turn[0])
                    claimed = True
                    break
            state.apply(bot.choose(state.observation(state.current_player), rng))
        claims += claimed
    assert claims == 2


def test_traps_look_won_but_the_defence_stops_them(entries):
    """A turn that leaves two winning cells for the mover's cards is not proven when one
    defence (a removal, a block of a shared cell, a win of its own) answers both."""
    traps = [e for e in entries if e["kind"] == "trap"][:3]
    assert traps
    for e in traps:
        state = read_state(e["sqn"], "corpus", 0)
        turn = (state.string_to_action(e["moves"][0]),)
        assert not _reference_win_in_two(state, turn)
        view = state.observation(state.current_player)
        assert not prove_turns(view, [turn]).proofs


def test_plies_until_counts_every_seat_up_to_the_sides_turn():
    rules = rules_for("classic", players=4)
    assert plies_until(rules, 1, 0, 1) == 2  # seat 1 (side 1), then seat 2 (side 0)
    assert plies_until(rules, 1, 0, 2) == 4
    assert plies_until(rules_for("classic", players=3), 0, 2, 1) == 3


def test_only_a_proof_reads_one_or_zero(corpus, entries):
    """Unproven estimates stay within [0.001, 0.999] in the table and the JSON; proven
    wins come first at exactly 1, with their proof in the JSON."""
    e = next(e for e in entries if e["kind"] == "win" and e["turns"] == 2 and e["mode"] == "open")
    a = analyze(read_state(e["sqn"], "corpus", 0), seed=1, open_information=True, threats=False)
    data = a.to_dict()
    assert data["moves"][0]["proof"]["result"] == "win" and data["moves"][0]["win"] == 1.0
    for m in data["moves"]:
        if "proof" not in m and m["exact"] != "win":
            assert ESTIMATE_FLOOR <= m["win"] <= ESTIMATE_CEILING
            assert ESTIMATE_FLOOR <= m["win_ci"][0] <= m["win_ci"][1] <= ESTIMATE_CEILING
    ranks = [
        0 if "proof" in m and m["proof"]["result"] == "win" else 2 if "proof" in m else 1
        for m in data["moves"]
    ]
    assert ranks == sorted(ranks)
    for source in ("example:1", "example:2"):
        for m in analyze(load_position(source, seed=1), seed=1, iterations=50).to_dict()["moves"]:
            assert "proof" in m or m["win"] is None or ESTIMATE_FLOOR <= m["win"] <= ESTIMATE_CEILING


def test_the_table_and_json_say_what_is_proven(entries, tmp_path):
    e = next(e for e in entries if e["kind"] == "win" and e["turns"] == 2 and e["mode"] == "open")
    path = tmp_path / "won.sqn"
    path.write_text(e["sqn"] + "\n")
    out = ok("analyze", str(path), "--open", "--seed", "1", "--top", "3")
    assert "wins by force in 2 turns" in out and f"with {', '.join(e['moves'])}" in out
    data = json.loads(ok("analyze", str(path), "--open", "--seed", "1", "--json"))
    assert data["moves"][0]["proof"]["turns"] == 2 and data["moves"][0]["move"] in e["moves"]
    off = ok("analyze", str(path), "--open", "--seed", "1", "--prove", "0")
    assert "by force" not in off and " 1.000 " not in off
    assert "--prove" in fails("analyze", str(path), "--prove", "9", code=2)


def test_annotate_says_where_a_forced_win_was_missed(tmp_path):
    games = tmp_path / "games.jsonl"
    ok("match", "random", "random", "--games", "3", "--seed", "4", "--out", str(games))
    args = ("annotate", str(games), "--game", "2", "--seat", "0", "--open", "--iters", "10", "--seed", "1")
    data = json.loads(ok(*args, "--json"))
    missed = {d["ply"]: d for d in data["decisions"] if d["missed_win"]}
    assert missed[71]["played"] == "JC@j5" and missed[71]["missed_win"] == 2
    assert missed[71]["proof_best"]["result"] == "win" and missed[71]["best"] == "JC@c6"
    text = format_annotation(data)
    assert "JC@j5" in text and "missed a forced win in 2" in text


def test_no_proof_where_the_cards_may_run_out_before_the_win(entries):
    """With deck_exhaustion=draw_game the game may end drawn when the pile runs out: a
    defence that only draws could end it, so the search claims nothing near the end."""
    from seqsolve import _proof

    e = next(
        e
        for e in entries
        if e["preset"] == "classic"
        and e["players"] == 2
        and e["kind"] == "win"
        and e["turns"] == 2
        and e["mode"] == "open"
    )
    sqn = e["sqn"].replace("classic ", "classic[deck_exhaustion=draw_game] ", 1)
    state = read_state(sqn, "corpus", 0)
    state.apply(state.string_to_action(e["moves"][0]))
    core, side = state.core, 1 - state.current_player
    assert _proof.prove_win(core, side, 1 - state.current_player, 2)[0]
    hands = [list(core.hand(s)) for s in range(2)]
    core.set_hidden(hands, list(core.draw_pile())[:3], True)
    assert not _proof.prove_win(core, side, 1 - state.current_player, 2)[0]
