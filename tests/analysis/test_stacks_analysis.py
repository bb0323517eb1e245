"""Analysis of Sequence Stacks (issue 13) through the game interface: the Stacks mcts
search ranks every legal decision of the seat asked now, with no exact tactics; a Block
window (ST-15) is analysed from the seat asked.  Small iteration budgets, fixed seeds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from seqsolve.analysis.search import analyze
from seqsolve.bots import make_bot
from seqsolve.games import read_state

#: seat 0 completes the red pile with its R5 and takes the chip that wins (3 blue, 2 red: ST-21)
WINNING = "stacks 0> B1,B3,R5,SK/R2,R3 -/- - R1+R2+R3+R4 3b1r/0b0r 0/0 0 102 0 0"
#: seat 0 just completed the blue pile; seat 1, holding a Block, is asked (ST-15)
BLOCK_WINDOW = "stacks 0>pk1 B4/R2,BK -/- - B1+B2+B3+B4+B5 1b2r/0b0r 0/0 0 104 0 0"


def _texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def test_every_legal_decision_is_ranked_and_the_winning_completion_first():
    state = read_state(WINNING)
    a = analyze(state, bot="mcts:iters=400,time=0", seed=1)
    assert {m.move for m in a.moves} == _texts(state) and len(a.moves) == len(_texts(state))
    best = a.moves[0]
    # ST-15 asks seat 1 first, and its hidden hand may hold one of the 2 Blocks: the chip
    # wins unless blocked, so the completion is ranked first but its chance stays the search's
    assert best.move == "R5" and best.exact == "win_unless_blocked" and best.pv == ["R5 pass"]
    assert 0.9 < best.win < 1.0
    assert a.iterations == 400 and sum(m.visits for m in a.moves) == 400
    assert abs(sum(m.share for m in a.moves) - 1.0) < 1e-9
    assert a.tactics.win_in_one == [] and a.tactics.unless_blocked == ["R5"] and a.tactics.looked
    exact = a.to_dict()["exact"]
    assert exact["opponent_wins"] == [] and exact["win_unless_blocked"] == ["R5"]
    seat0 = a.to_dict()["threats"][0]  # the summary: R5 completes the red pile, and the red chip wins
    assert seat0["wins_with"] == ["red"] and seat0["completions"][0]["holds"] == "yes"


def test_the_seat_asked_in_a_block_window_weighs_block_against_pass():
    state = read_state(BLOCK_WINDOW)
    a = analyze(state, bot="mcts:iters=300,time=0", seed=2)
    assert a.to_move == 1 and {m.move for m in a.moves} == {"block", "pass"}
    assert all(0.0 <= m.win <= 1.0 for m in a.moves)


def test_the_same_seed_gives_the_same_analysis():
    state = read_state(WINNING.replace("R5", "R1"))  # no win in sight: the estimates are close
    first, again = (analyze(state, bot="mcts:iters=300,time=0", seed=5, jobs=2) for _ in range(2))
    assert [(m.move, m.visits, m.win) for m in first.moves] == [
        (m.move, m.visits, m.win) for m in again.moves
    ]


#: as WINNING, but both Blocks of the 2-player deck are spent (the special pile): R5 wins for sure
WINNING_SURE = "stacks 0> B1,B3,R5,SK/R2,R3 -/- BK,BK R1+R2+R3+R4 3b1r/0b0r 0/0 0 100 0 0"
#: seat 1 (2b2r) wins with the blue pile at 4 if it draws or holds B5 or BW; seat 0 can take
#: the pile with its B5 or steal a chip of seat 1 with its Steal-a-Chip (ST-19)
THREATENED = "stacks 0> B1,B5,R2,SX/R2,R3 -/- - B1+B2+B3+B4 0b0r/2b2r 0/0 0 102 0 0"


def test_a_sure_win_now_is_exact_and_ranked_first():
    a = analyze(read_state(WINNING_SURE), bot="mcts:iters=300,time=0", seed=3)
    best = a.moves[0]
    assert best.move == "R5" and best.exact == "win" and best.win == 1.0 and best.win_ci == (1.0, 1.0)
    assert a.tactics.win_in_one == ["R5"] and a.tactics.unless_blocked == []
    assert [m.move for m in a.moves if m.exact] == ["R5"]


def test_an_opponents_winning_completion_and_the_decisions_that_leave_none_first():
    a = analyze(read_state(THREATENED), bot="mcts:iters=300,time=0", seed=4)
    (threat,) = a.tactics.threats
    assert threat == {
        "side": "1",
        "pile": "B1+B2+B3+B4",
        "cards": ["B5", "BW"],
        "holds": "maybe",  # seat 1's hand is hidden from seat 0
        "possible": True,
        "block": "no",  # both Blocks are unseen, but seat 0 holds none and seat 1 is the completer
        "blockers": [],
    }
    blocks = {"B5", "SX@1b", "SX@1r"}  # take the pile, or leave seat 1 a chip short of the win
    assert set(a.tactics.blocks) == blocks and not a.tactics.no_block
    assert {m.move for m in a.moves[:3]} == blocks and all(m.block for m in a.moves[:3])
    assert not any(m.block for m in a.moves[3:])
    data = a.to_dict()
    assert data["exact"]["opponent_wins"] == [threat] and set(data["exact"]["blocks"]) == blocks
    assert {m["move"] for m in data["moves"] if m["block"]} == blocks


def test_a_block_window_on_a_winning_completion():
    """Seat 1 is asked (ST-15) about seat 0's completion whose chip wins (2b2r + blue):
    ``pass`` loses, ``block`` is the decision that leaves no winning completion."""
    state = read_state(BLOCK_WINDOW.replace("1b2r", "2b2r"))
    a = analyze(state, bot="mcts:iters=200,time=0", seed=2)
    assert a.moves[0].move == "block" and a.moves[0].block and a.tactics.blocks == ["block"]
    assert a.tactics.threats[0]["holds"] == "played" and a.tactics.threats[0]["blockers"] == [1]


# ---------------------------------------------------------------- tactics

TACTICS = Path(__file__).parents[1] / "data" / "tactics" / "stacks"


def _tags(path: Path) -> dict[str, str]:
    """The ``x-`` keys of a readable position (ignored by the reader, P-10)."""
    tags = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip().lower().startswith("x-"):
            tags[key.strip().lower()[2:]] = value.strip()
    return tags


@pytest.mark.parametrize("path", sorted(TACTICS.glob("*.txt")), ids=lambda p: p.stem)
def test_stacks_tactics_are_ranked_first(path):
    """Each hand-built tactic's ``x-best`` decision is ranked first, with its exact tag:
    ``win`` (win 1), ``win_unless_blocked``, or ``block`` (every decision that leaves the
    opponent no winning completion ranked above every other one)."""
    tags = _tags(path)
    best = tags["best"].split("|")
    a = analyze(read_state(path.read_text()), bot="mcts:iters=1000,time=0", seed=0)
    top = a.moves[0]
    assert top.move in best, [(m.move, m.win) for m in a.moves[:4]]
    if tags["exact"] == "win":
        assert top.exact == "win" and top.win == 1.0 and a.tactics.win_in_one == [top.move]
    elif tags["exact"] == "win_unless_blocked":
        assert top.exact == "win_unless_blocked" and a.tactics.unless_blocked == [top.move] and top.win < 1.0
    else:
        assert set(a.tactics.blocks) == set(best) and not a.tactics.no_block
        assert [m.block for m in a.moves] == [True] * len(best) + [False] * (len(a.moves) - len(best))


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
@pytest.mark.parametrize(
    "path", sorted(p for p in TACTICS.glob("*.txt") if _tags(p).get("bots") == "yes"), ids=lambda p: p.stem
)
def test_stacks_bots_play_the_tactic(path, bot):
    """The bots, from the seat's observation, take the win and block the winning chip."""
    state = read_state(path.read_text())
    player = make_bot(f"{bot}:iters=300,time=0,work=0" if bot == "mcts" else bot, game="stacks")
    player.start(state.rules, state.seats, state.current_player)
    for seed in range(3):
        action = player.choose(state.observation(state.current_player), np.random.default_rng(seed))
        assert state.action_to_string(action) in _tags(path)["best"].split("|")
