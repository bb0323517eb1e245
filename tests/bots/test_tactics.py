"""Every searching and scoring bot on the one-move tactics of Sequence: win with a
two-eyed jack when no natural card fits, block a winning cell with one, break an
opponent's four with a one-eyed jack, win rather than block, complete a sequence
the partner built (2 teams of 2), and tell a filled line that the reuse limit bars
(seed000) from a winning one; with 3 sides, win and block too.  Each position is
played from three seeds: a bot that gets one of these wrong loses games that no
evaluation can win back.

``rollout`` is left out with 3 sides: its greedy playouts let the third side do the
blocking (on the 6-player block below it values b1, which builds its own line, above
f8), a judgement of its playout model rather than a tactic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_search import MUST_BLOCK, WIN_IN_ONE, move, position

from seqsolve.bots import make_bot
from seqsolve.games.sequence.notation import read_position
from seqsolve.games.sequence.state import State

POSITIONS = Path(__file__).parents[1] / "data" / "tactics"

# blue completes b5-f5 or a5 (its second sequence) while green threatens f8
WIN_OR_BLOCK = {
    "rows": {5: ".bbbb.....", 6: "B.........", 7: "B.........", 8: "B.gggg....", 9: "B........."},
    "hands": "9C,AC,3S,4S,5S,6S,KD/?7",
    "sequences": "b:a6-a10",
}


def wins(state, action):
    state.apply(action)
    return state.is_terminal() and state.outcome().winner == "b"


def blocks_f8(state, action):
    """Green's four b8-e8 can no longer become five: f8 taken or one of its chips gone."""
    text = move(state, action)
    return text in ("JD@f8", "JC@f8", "AC@f8") or (text[2] == "x" and text[3:5] in ("b8", "c8", "d8", "e8"))


# seed000 (C-25, overlap_reuse_limit=1): blue holds e4-e8 and e6-i6, which already
# crosses it, so 9C on a5 fills a5-e5 but makes no sequence (it would cross e4-e8 a
# second time); AC on a9 completes a9-e9, blue's third sequence, and wins.
REUSE_LIMIT = {
    "rows": {
        4: "....B.....",
        5: ".bbbB.....",
        6: "....BBBBB.",
        7: "....B.....",
        8: "....B.....",
        9: ".bbbb.....",
    },
    "hands": "9C,AC,2S,4S,5S,6S/?6",
    "sequences": "b:e4-e8,b:e6-i6",
    "variant": "seed000",
}


TACTICS = {
    "a two-eyed jack wins": (dict(WIN_IN_ONE, hands="JD,2S,3S,4S,5S,6S,KD/?7"), wins),
    "a two-eyed jack blocks": (dict(MUST_BLOCK, hands="JD,2S,3S,4S,5S,6S,KD/?7"), blocks_f8),
    "a one-eyed jack breaks the four": (dict(MUST_BLOCK, hands="JS,2S,3S,4S,5S,6S,KD/?7"), blocks_f8),
    "winning comes before blocking": (WIN_OR_BLOCK, wins),
    "a line the reuse limit bars is no win (C-25)": (REUSE_LIMIT, wins),
    "the partner's four is completed": (
        dict(WIN_IN_ONE, seats="bgbg", hands="9C,2S,3S,4S,5S,KD/?6/?6/?6"),
        wins,
    ),
}


# one sequence wins with 3 sides: the same threats without the sequences already made
THREE_SIDES = {
    "3 players: win": (
        {
            **WIN_IN_ONE,
            "rows": {5: ".bbbb....."},
            "sequences": "-",
            "seats": "bgr",
            "hands": "9C,2S,3S,4S,5S,6S/?6/?6",
        },
        wins,
    ),
    "3 players: block": (
        {
            **MUST_BLOCK,
            "rows": {8: "bgggg....."},
            "sequences": "-",
            "seats": "bgr",
            "hands": "AC,2S,3S,4S,5S,6S/?6/?6",
        },
        blocks_f8,
    ),
    "3 teams of 2: block": (
        {
            **MUST_BLOCK,
            "rows": {8: "bgggg....."},
            "sequences": "-",
            "seats": "bgrbgr",
            "hands": "AC,2S,3S,4S,5S/?5/?5/?5/?5/?5",
        },
        blocks_f8,
    ),
}


BOTS = ["greedy", "heuristic", "mcts", "rollout:worlds=50"]
CASES = [(spec, name) for spec in BOTS for name in TACTICS] + [
    (spec, name) for spec in BOTS if not spec.startswith("rollout") for name in THREE_SIDES
]


def test_the_heuristic_blocks_a_double_completion():
    """Two sequences from one chip: green needs both and one chip on d5 fills two lines
    that seed002-literal lets share four cells.  The heuristic blocks a cell where an
    opponent wins at once whenever a block exists; it once read a win threat as one
    line short of the last sequence and played JC@d7 here (benchmarks/tactics_fuzz.py
    found it).  Greedy, which weighs one window at a time, still misses it."""
    state = State.from_position(read_position(POSITIONS / "double-completion.txt"), seed=1)
    for seed in range(3):
        action = make_bot("heuristic").choose(state.observation(0), np.random.default_rng(seed))
        assert move(state, action) == "JC@d5"


@pytest.mark.parametrize("spec,name", CASES)
def test_bots_play_the_one_move_tactics(spec, name):
    pos, good = {**TACTICS, **THREE_SIDES}[name]
    for seed in range(3):
        state = position(**pos, seed=seed)
        action = make_bot(spec).choose(state.observation(state.current_player), np.random.default_rng(seed))
        assert good(state, action), (spec, name, move(state, action))
