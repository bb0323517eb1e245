"""The seats' threat summary of a Stacks analysis (``threats`` of ``analyze --json``):
the chips that win each seat (ST-21) and the piles at 4 that would give one (ST-9),
with whether the seat holds, may hold or cannot hold a card completing them."""

from __future__ import annotations

import json

from cli_helpers import ok
from core_helpers import state

from seqsolve.games.stacks.threats import opponent_wins, threat_summary, wins_now


def _threats(side=0, **kw) -> list[dict]:
    return opponent_wins(state(**kw), side)


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
    assert data["threats"][0]["chips"] == {"blue": 0, "red": 1}
    assert data["exact"] == {
        "win_in_one": [],
        "opponent_wins": [],
        "blocks": [],
        "no_block": False,
        "win_unless_blocked": [],
    }
    text = ok("analyze", str(path), "--iters", "20", "--seed", "1")
    assert (
        "seat 0    0b1r: no single chip wins" in text
        and "exact      no side can win on its next turn" in text
    )


def test_an_opponents_completion_with_the_cards_that_make_it():
    """Seat 1 (2b2r) wins with either chip: the blue pile at 4 is its win if it plays B5 or
    BW.  Its known hand holds B5 (yes); a hidden hand may (maybe); nothing left to draw, no
    copy unseen and no Steal-a-Card in reach: no."""
    kw = {"piles": ["B1 B2 B3 B4"], "chips": [(0, 0), (2, 2)]}
    held = _threats(hands=["R1", "B5 R3"], **kw)
    assert held == [
        {
            "side": "1",
            "pile": "B1+B2+B3+B4",
            "cards": ["B5", "BW"],
            "holds": "yes",
            "possible": True,
            "block": "no",
            "blockers": [],
        }
    ]
    assert _threats(hands=["R1", "-"], unknown=[0, 3], **kw)[0]["holds"] == "maybe"
    none = _threats(hands=["R1", "R3"], **kw)[0]
    assert none["holds"] == "no" and not none["possible"]
    kw["chips"] = [(0, 0), (1, 2)]
    assert _threats(hands=["R1", "B5"], **kw) == []  # a blue chip leaves it at 4 chips


def test_a_steal_or_the_next_refill_may_bring_the_card():
    """ST-18: a Steal-a-Card held reaches seat 0's discard top B5; ST-11: seat 1 (2 cards)
    refills to 5 at its turn start from a draw pile that may hold a B5."""
    kw = {"piles": ["B1 B2 B3 B4"], "chips": [(0, 0), (2, 2)]}
    assert _threats(hands=["R1", "SC"], discards=["B5", "-"], **kw)[0]["holds"] == "yes"
    assert _threats(hands=["R1", "R2 R3"], draw_count=20, draw=None, **kw)[0]["holds"] == "maybe"
    listed = _threats(hands=["R1", "R2 R3"], draw="R4 R5 BW", **kw)[0]  # its 3 cards: BW among them
    assert listed["holds"] == "maybe"
    assert _threats(hands=["R1", "R2 R3"], draw="R4 R5 R1 BW", **kw)[0]["holds"] == "no"


def test_a_block_held_or_maybe_held_can_stop_a_completion():
    kw = {"piles": ["R1 R2 R3 R4"], "chips": [(0, 0), (2, 2)]}
    assert _threats(hands=["BK", "R5"], **kw)[0] == {
        "side": "1",
        "pile": "R1+R2+R3+R4",
        "cards": ["R5", "RW"],
        "holds": "yes",
        "possible": True,
        "block": "yes",
        "blockers": [0],
    }
    kw["chips"] = [(0, 0), (2, 2), (0, 0)]
    three = _threats(players=3, hands=["R2", "R5", "-"], unknown=[0, 0, 4], **kw)
    assert [(t["side"], t["block"], t["blockers"]) for t in three] == [("1", "maybe", [2])]


def test_a_completion_in_an_open_block_window_is_a_threat_until_answered():
    """Seat 0 completed the blue pile with 2b2r (ST-15: seat 1 is asked): the chip wins."""
    st = state(
        hands=["B4", "BK R2"], piles=["B1 B2 B3 B4 B5"], chips=[(2, 2), (0, 0)], block_asked=1, progress=True
    )
    (threat,) = opponent_wins(st, 1)
    assert threat["holds"] == "played" and threat["block"] == "yes" and threat["blockers"] == [1]
    block, pass_ = (st.string_to_action(t) for t in ("block", "pass"))
    assert wins_now(st, (pass_,), 0) == "win" and wins_now(st, (block,), 0) is None
    blocked = st.clone()
    blocked.apply(block)
    assert opponent_wins(blocked, 1) == []


def test_a_completion_that_wins_now_or_unless_blocked():
    """ST-21 with ST-15: R5 wins seat 0 the game once seat 1 has no Block to answer with."""
    kw = {"piles": ["R1 R2 R3 R4"], "chips": [(3, 1), (0, 0)]}
    st = state(hands=["R5", "-"], unknown=[0, 3], **kw)
    r5 = st.string_to_action("R5")
    assert wins_now(st, (r5,), 0) == "win_unless_blocked"
    assert wins_now(state(hands=["R5", "R1 R2"], **kw), (r5,), 0) == "win"  # seat 1's hand is known
    other = state(hands=["R5 B1", "-"], unknown=[0, 3], **kw)
    assert wins_now(other, (other.string_to_action("B1"),), 0) is None
