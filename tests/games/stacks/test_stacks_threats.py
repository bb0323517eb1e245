"""The seats' threat summary of a Stacks analysis (``threats`` of ``analyze --json``):
the chips that win each seat (ST-21) and the piles at 4 that would give one (ST-9),
with whether the seat holds, may hold or cannot hold a card completing them."""

from __future__ import annotations

import json

from cli_helpers import ok
from core_helpers import state

from seqsolve.games.stacks.threats import threat_summary


def _summary(**kw) -> dict:
    return {t.side: t.to_dict() for t in threat_summary(state(**kw))}


def test_a_seat_a_chip_from_the_win_with_the_card_in_hand():
    """Seat 0 holds 2b2r: either chip wins; it holds B5 for the blue pile at 4, nothing
    for the red one.  Seat 1 (1b2r) needs two more chips (5 in all)."""
    seen = _summary(
        hands=["B5 R2", "B4 R1"],
        piles=["B1 B2 B3 B4", "R1 R2 R3 RW"],
        chips=[(2, 2), (1, 2)],
    )
    assert seen["0"]["wins_with"] == ["blue", "red"] and seen["0"]["possible"]
    assert seen["0"]["completions"] == [
        {"pile": "B1+B2+B3+B4", "cards": ["B5", "BW"], "holds": "yes"},
        {"pile": "R1+R2+R3+RW", "cards": ["R5", "RW"], "holds": "no"},
    ]
    assert seen["1"] == {
        "side": "1",
        "seats": [1],
        "chips": {"blue": 1, "red": 2},
        "wins_with": [],
        "completions": [],
        "possible": False,
    }


def test_a_hidden_hand_may_hold_the_card_and_the_discard_top_counts():
    seen = _summary(
        hands=["R2", "-"], unknown=[0, 5], discards=["RW", "-"], piles=["R1 R2 R3 R4"], chips=[(2, 2), (2, 2)]
    )
    assert seen["0"]["completions"][0]["holds"] == "yes"  # its discard top (ST-12)
    assert seen["1"]["completions"][0]["holds"] == "maybe" and seen["1"]["possible"]


def test_an_empty_supply_gives_no_winning_chip():
    """ST-9: seat 0 holds both blue chips, so the blue pile gives none; a red chip would win."""
    seen = _summary(
        variant="stacks[stacks_chip_supply=2,stacks_win_chips=4]",
        hands=["B5", "-"],
        piles=["B1 B2 B3 B4"],
        chips=[(2, 1), (0, 0)],
    )
    assert seen["0"]["wins_with"] == ["red"] and seen["0"]["completions"] == []


def test_analyze_json_has_threats_for_every_seat(tmp_path):
    path = tmp_path / "p.stn"
    path.write_text("stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0\n")
    data = json.loads(ok("analyze", str(path), "--iters", "20", "--seed", "1", "--json"))
    assert [t["side"] for t in data["threats"]] == ["0", "1"]
    assert data["threats"][0]["chips"] == {"blue": 0, "red": 1} and data["exact"]["opponent_wins"] is None
    assert "seat 0    0b1r: no single chip wins" in ok("analyze", str(path), "--iters", "20", "--seed", "1")
