"""Analysis of Sequence Stacks (issue 13) through the game interface: the Stacks mcts
search ranks every legal decision of the seat asked now, with no exact tactics; a Block
window (ST-15) is analysed from the seat asked.  Small iteration budgets, fixed seeds."""

from __future__ import annotations

from seqsolve.analysis.search import analyze
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
    # ST-15 asks seat 1 first, so the win is the search's, not an exact one: seat 1's hand is
    # dealt anew in every world, and only a world with a Block in it stops the chip
    assert best.move == "R5" and best.exact is None and best.pv == ["R5 pass"]
    assert best.win > 0.9 and best.win == max(m.win for m in a.moves)
    assert a.iterations == 400 and sum(m.visits for m in a.moves) == 400
    assert abs(sum(m.share for m in a.moves) - 1.0) < 1e-9
    assert a.tactics.win_in_one == [] and not a.tactics.looked
    assert a.to_dict()["exact"]["opponent_wins"] is None  # not looked for: Stacks has no exact tactics
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
