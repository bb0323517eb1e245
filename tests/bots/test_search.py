"""The compiled bot brains (seqsolve._eval, _choose, _search): one-ply scores,
the static evaluation, greedy / heuristic choices and information-set MCTS.

Hand-built positions are SQN lines (RULES.md §5.1) written row by row, so each
test shows the board it is about.  Cells named in comments use the C-5 layout.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from state_helpers import make

from seqsolve import _choose, _eval, _search
from seqsolve.games.sequence.notation import parse_position
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State, Termination

EMPTY_ROW = ".........."


def position(
    rows: dict[int, str],
    hands: str,
    sequences: str = "-",
    *,
    variant: str = "classic",
    seats: str = "bg",
    to_move: int = 0,
    discards: str | None = None,
    draw: int | None = None,
    turn: int = 20,
    seed: int = 1,
    draft: str | None = None,
) -> State:
    """A State from an SQN line whose board rows (1-based) default to empty (``draft``:
    the draft variant's face-up cards, D-5)."""
    board = []
    for r in range(1, 11):
        row = rows.get(r, EMPTY_ROW)
        if r in (1, 10):
            row = "*" + row[1:9] + "*"
        assert len(row) == 10, row
        board.append(row)
    n_seats = len(seats)
    discards = discards or "/".join(["-"] * n_seats)
    if draw is None:
        held = sum(_count(h) for h in hands.split("/"))
        dropped = sum(len(p.split(",")) for p in discards.split("/") if p != "-")
        draw = 104 - held - dropped - (len(draft.split(",")) if draft else 0)
    sqn = f"{variant} {'/'.join(board)} {seats} {to_move} {hands} {discards} {sequences} {draw} {turn} 0"
    if draft is not None:
        sqn += f" draft:{draft or '-'}"
    return State.from_position(parse_position(sqn), seed=seed)


def _count(hand: str) -> int:
    n = 0
    for item in hand.split(","):
        if item == "-":
            continue
        n += int(item[1:] or 1) if item.startswith("?") else 1
    return n


def kind(action: int) -> int:
    return (action >> 16) & 3


def move(state: State, action: int) -> str:
    return str(state.action_to_move(action))


# Blue holds a6-a10 (a10 is a corner) and b5 c5 d5 e5: 9C on a5 wins (C-10: two sequences).
WIN_IN_ONE = {
    "rows": {5: ".bbbb.....", 6: "B.........", 7: "B.........", 8: "B.gggg....", 9: "B........."},
    "hands": "9C,2S,3S,4S,5S,6S,KD/?7",
    "sequences": "b:a6-a10",
}

# Green holds b3-f3 and b8 c8 d8 e8 (a8 is blue): green wins on f8 (AC) unless blue
# blocks; blue holds the other AC and cannot win.
MUST_BLOCK = {
    "rows": {3: ".GGGGG....", 8: "bgggg....."},
    "hands": "AC,2S,3S,4S,5S,6S,KD/?7",
    "sequences": "g:b3-f3",
}


# ---------------------------------------------------------------- weights


def test_defaults_and_unknown_keys():
    w = _eval.default_weights()
    assert w["w_win"] > w["w_exchange"] > w["w_block_win"] > w["w_complete"] > w["w_block"][3]
    assert set(w) < set(_search.default_params())
    with pytest.raises(ValueError, match="known: w_win"):
        _choose.greedy_action(
            State.new(parse_rules("classic", players=2), seed=0).core, np.random.PCG64(0), {"w_wni": 1.0}
        )
    with pytest.raises(ValueError, match="known:.*max_nodes"):
        _search.Searcher({"cc": 1.0})
    with pytest.raises(ValueError, match="w_block needs 4"):
        _eval.score_actions(State.new(parse_rules("classic", players=2), seed=0).core, {"w_block": (1, 2)})


# ---------------------------------------------------------------- greedy


def test_greedy_takes_a_win_in_one():
    state = position(**WIN_IN_ONE)
    action = _choose.greedy_action(state.core, np.random.PCG64(0))
    assert move(state, action) == "9C@a5"
    assert _eval.score_action(state.core, action) >= _eval.default_weights()["w_win"]
    state.apply(action)
    assert state.outcome().winner == "b"


def test_greedy_blocks_an_opponent_four():
    state = position(**MUST_BLOCK)
    for seed in range(5):
        assert move(state, _choose.greedy_action(state.core, np.random.PCG64(seed))) == "AC@f8"


def test_greedy_exchanges_a_dead_card():
    # 9C shows on a5 and c7, both taken (C-20): exchanging it comes before any play
    state = position(rows={5: "g.........", 7: "..g......."}, hands="9C,2S,3S,4S,5S,6S,KD/?7")
    action = _choose.greedy_action(state.core, np.random.PCG64(0))
    assert move(state, action) == "~9C"
    assert _eval.score_action(state.core, action) > 0


def test_greedy_breaks_ties_with_the_generator():
    state = State.new(parse_rules("classic", players=2), seed=3)
    flat = {"w_centre": 0.0, "w_corner_line": 0.0, "w_extend": (0, 0, 0, 0, 0)}  # every plain play scores 0
    picks = {_choose.greedy_action(state.core, np.random.PCG64(s), flat) for s in range(30)}
    plain = {a for a in state.legal_actions() if _eval.score_action(state.core, a, flat) == 0.0}
    assert picks <= plain and len(plain) >= 4
    assert len(picks) >= 3


def test_one_eyed_jack_breaks_an_opponent_four():
    # only a one-eyed jack can stop green's f8 here: it takes an unlocked chip of b8..e8
    state = position(
        rows={3: ".GGGGG....", 8: "bgggg....."}, hands="JS,2S,3S,4S,5S,6S,KD/?7", sequences="g:b3-f3"
    )
    action = _choose.greedy_action(state.core, np.random.PCG64(0))
    assert kind(action) == 1 and move(state, action)[3:] in ("b8", "c8", "d8", "e8")


# ---------------------------------------------------------------- evaluation


def test_evaluation_is_a_probability_that_sees_threats():
    state = position(**WIN_IN_ONE)
    blue = _eval.evaluate_position(state.core, 0)
    green = _eval.evaluate_position(state.core, 1)
    assert 0.0 < blue < 1.0 and math.isclose(blue + green, 1.0)
    assert blue > 0.9  # a sequence, a live four and the card in hand, to move
    fresh = State.new(parse_rules("classic", players=2), seed=0)
    assert abs(_eval.evaluate_position(fresh.core, 0) - 0.5) < 0.15
    names = _eval.FEATURE_NAMES
    feats = _eval.position_features(state.core)
    assert feats[0][names.index("sequence")] == 1 and feats[0][names.index("threat")] >= 1
    assert feats[0][names.index("ready")] == 1 and feats[1][names.index("ready")] == 0


def test_evaluation_of_a_finished_game():
    state = position(**WIN_IN_ONE)
    state.apply(_choose.greedy_action(state.core, np.random.PCG64(0)))
    assert _eval.evaluate_position(state.core, 0) == 1.0
    assert _eval.evaluate_position(state.core, 1) == 0.0


# ---------------------------------------------------------------- heuristic


def test_heuristic_wins_and_blocks():
    state = position(**WIN_IN_ONE)
    assert move(state, _choose.heuristic_action(state.core, np.random.PCG64(0))) == "9C@a5"
    state = position(**MUST_BLOCK)
    assert move(state, _choose.heuristic_action(state.core, np.random.PCG64(0))) == "AC@f8"


def test_heuristic_with_two_rivals_also_blocks_the_trailing_one():
    """C-10: with 3 sides one sequence wins, so either rival's sequence is blue's loss.
    Green leads (g1 h1 i1, a7 a8) and no play of blue's touches it; red, behind, has the
    open three c6 d6 e6.  Blue holds 3H (f6, the block; or i9) and 3S (f9, making its own
    three f9 g9 h9; or c1).  Watching only the leader, blue scored f9 a little above f6
    and left red its three; pooling both rivals as the evaluation's softmax does, the
    block is worth more."""
    state = make(
        parse_rules("classic", players=3),
        chips={"g": "g1 h1 i1 a7 a8", "r": "c6 d6 e6", "b": "g9 h9"},
        hands=["3H 3S", [], []],
        unknown_hands={1: 6, 2: 6},
        draw=60,
    )
    observation = state.observation(0)
    after = {
        move(state, a): _eval.evaluate_scores(_child(observation, a).core) for a in state.legal_actions()
    }
    blue, green, red = after["3H@f6"]
    blue_f9, green_f9, red_f9 = after["3S@f9"]
    assert green > max(red, red_f9) + 15 and abs(green - green_f9) < 2  # the leader, out of reach
    assert blue - green < blue_f9 - green_f9 and red < red_f9 - 10
    assert _heuristic_moves(observation) == {"3H@f6"}


def _child(state: State, action: int) -> State:
    child = state.clone()
    child.apply(action)
    return child


def _play(bots, seed, preset="classic", players=2, teams=None):
    state = State.new(parse_rules(preset, players=players, teams=teams), seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat % len(bots)](state, seat, rng))
    return state


def _random_bot(state, seat, rng):
    actions = state.legal_actions()
    return actions[rng.integers(len(actions))]


def _heuristic_bot(state, seat, rng):
    return _choose.heuristic_action(state.observation(seat).core, np.random.PCG64(rng.integers(2**32)))


def test_heuristic_beats_random():
    wins = 0
    for game in range(40):
        seat = game % 2  # alternate who moves first
        bots = [_heuristic_bot, _random_bot] if seat == 0 else [_random_bot, _heuristic_bot]
        final = _play(bots, seed=1000 + game)
        wins += final.outcome().winner == "bg"[seat]
    assert wins >= 34, wins


# ---------------------------------------------------------------- MCTS


def _search_from(state, seat, seed=7, iterations=2000, **params):
    searcher = _search.Searcher(params or None)
    return searcher, searcher.search(
        state.observation(seat).core, seat, np.random.PCG64(seed), iterations=iterations
    )


def test_mcts_takes_a_win_in_one_without_searching():
    """A search cannot better a win: the first winning action comes back at once,
    valued 1, with no iteration spent (with a two-eyed jack in hand a small budget
    may never try the winning cell among some 80 others).  One sequence short of the
    win, the same move is searched as any other."""
    state = position(**WIN_IN_ONE)
    _, result = _search_from(state, 0)
    assert move(state, result["best"]) == "9C@a5"
    assert result["iterations"] == 0 and result["value"] == 1.0
    assert result["actions"] == [(result["best"], 0, 1.0, 0)]
    longer = position(**WIN_IN_ONE, variant="classic[sequences_to_win=3]")
    _, result = _search_from(longer, 0)
    assert result["iterations"] == 2000 and sum(a[1] for a in result["actions"]) == 2000
    assert result["value"] < 1.0


def test_mcts_finds_the_forced_block():
    state = position(**MUST_BLOCK)
    _, result = _search_from(state, 0, iterations=3000)
    assert move(state, result["best"]) == "AC@f8"
    assert result["pv"][0] == result["best"]


def test_mcts_is_deterministic_for_a_seed():
    state = State.new(parse_rules("classic", players=2), seed=5)
    _, a = _search_from(state, 0, seed=11, iterations=1500)
    _, b = _search_from(state, 0, seed=11, iterations=1500)
    for key in ("iterations", "best", "pv", "actions", "nodes"):
        assert a[key] == b[key]


def test_mcts_never_reads_hidden_cards():
    """Two true states with the same observation give the same search, card for card."""
    truth = State.new(parse_rules("classic", players=2), seed=21)
    rng = np.random.default_rng(0)
    for _ in range(30):
        truth.apply(_random_bot(truth, truth.current_player, rng))
    seat = truth.current_player
    seen = truth.observation(seat)
    other_world = seen.resample(seat, np.random.default_rng(99))
    assert other_world.core.hand(1 - seat) != truth.core.hand(1 - seat)
    results = []
    for game in (truth.core, seen.core, other_world.core):
        searcher = _search.Searcher()
        result = searcher.search(game, seat, np.random.PCG64(3), iterations=1000)
        results.append((result["actions"], result["pv"]))
    assert results[0] == results[1] == results[2]
    # open information does read them: the true world searches differently
    searcher = _search.Searcher()
    open_result = searcher.search(truth.core, seat, np.random.PCG64(3), iterations=1000, open_information=1)
    assert (open_result["actions"], open_result["pv"]) != results[0]


def test_mcts_root_stats_and_budget():
    state = State.new(parse_rules("classic", players=2), seed=2)
    searcher, result = _search_from(state, 0, iterations=1000)
    stats = searcher.root_stats(pv_length=4)
    assert [s["action"] for s in stats] == [a[0] for a in result["actions"]]
    assert math.isclose(sum(s["share"] for s in stats), 1.0)
    assert all(1 <= len(s["pv"]) <= 4 and s["pv"][0] == s["action"] for s in stats)
    assert all(s["availability"] >= s["visits"] for s in stats)
    timed = searcher.search(state.observation(0).core, 0, np.random.PCG64(1), seconds=0.05)
    # the time budget, not an iteration count, ended it (the clock is read every 64
    # iterations); how many fitted in depends on the machine's load, so it is not asserted
    assert timed["seconds"] >= 0.05 and timed["iterations"] % 64 == 0


def test_mcts_edge_cases():
    searcher = _search.Searcher()
    finished = position(**WIN_IN_ONE)
    finished.apply(_choose.greedy_action(finished.core, np.random.PCG64(0)))
    with pytest.raises(ValueError, match="over"):
        searcher.search(finished.core, 0, np.random.PCG64(0), iterations=10)
    fresh = State.new(parse_rules("classic", players=2), seed=0)
    with pytest.raises(ValueError, match="budget"):
        searcher.search(fresh.core, 0, np.random.PCG64(0))
    # a single legal action comes back at once
    only = position(rows={1: ".g........"}, hands="2S/?1")  # 2S: b1 is taken, only g9 is left
    only_result = searcher.search(only.observation(0).core, 0, np.random.PCG64(0), iterations=100)
    assert only_result["iterations"] == 0
    assert [s["action"] for s in searcher.root_stats()] == [only_result["best"]]
    assert [move(only, only_result["best"])] == [str(m) for m in only.legal_moves()[:1]]


def test_mcts_tree_stops_growing_at_max_nodes():
    state = State.new(parse_rules("classic", players=2), seed=4)
    searcher, result = _search_from(state, 0, iterations=3000, max_nodes=256)
    assert searcher.node_count <= 256 and result["iterations"] == 3000


@pytest.mark.parametrize(
    "preset, players, teams",
    [("classic", 3, None), ("classic", 4, 2), ("draft", 2, None), ("draft", 4, None), ("classic", 6, 3)],
)
def test_mcts_plays_every_seating(preset, players, teams):
    searcher = _search.Searcher({"playout_depth": 8})
    rng = np.random.default_rng(players)

    def mcts_bot(state, seat, rng):
        result = searcher.search(
            state.observation(seat).core, seat, np.random.PCG64(rng.integers(2**32)), iterations=200
        )
        assert result["best"] in state.legal_actions()
        sides = state.rules.teams
        values = [a[2] for a in result["actions"]]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sides in (2, 3)
        return result["best"]

    state = State.new(parse_rules(preset, players=players, teams=teams), seed=players)
    for _ in range(3 * players):
        if state.is_terminal():
            break
        seat = state.current_player
        state.apply(mcts_bot(state, seat, rng))
    # greedy and heuristic on the same seating
    if not state.is_terminal():
        seat = state.current_player
        view = state.observation(seat).core
        assert _choose.greedy_action(view, np.random.PCG64(0)) in state.legal_actions()
        assert _choose.heuristic_action(view, np.random.PCG64(0)) in state.legal_actions()
        values = [_eval.evaluate_position(view, s) for s in range(state.rules.teams)]
        assert math.isclose(sum(values), 1.0)


def test_draft_actions_take_a_good_card():
    state = State.new(parse_rules("draft", players=2), seed=8)
    action = _choose.greedy_action(state.core, np.random.PCG64(0))
    pick = ((action >> 20) & 0x7F) - 1
    assert pick in state.core.draft()
    scores = dict(_eval.score_actions(state.core))
    same_play = [s for a, s in scores.items() if a & 0xFFFFF == action & 0xFFFFF]
    assert scores[action] == max(same_play)


def _heuristic_moves(state: State, seeds=range(6)) -> set[str]:
    return {move(state, _choose.heuristic_action(state.core, np.random.PCG64(k))) for k in seeds}


def test_heuristic_draft_pick_fills_its_four():
    """D-1: of five draft cards the heuristic takes 9C, the card of the fifth cell (a5) of its
    four b5-e5 (f5 is green's), whatever it plays and whatever the tie-breaks."""
    state = position({5: ".bbbbg...."}, "2S,3S,4S,5S,6S,KD/?6", variant="draft", draft="9C,QD,2C,4H,KH")
    assert {m.split("+")[1] for m in _heuristic_moves(state)} == {"9C"}


def test_heuristic_draft_pick_denies_the_winning_card():
    """D-1: green (one sequence) needs f8 (AC) to win and the other AC is discarded: blue, who
    cannot block with a chip, takes the AC from the draft before green can."""
    state = position(
        {3: ".GGGGG....", 8: "bgggg....."},
        "2S,3S,4S,5S,6S,KD/?6",
        "g:b3-f3",
        variant="draft",
        discards="AC/-",
        draft="AC,QD,2C,4H,KH",
    )
    assert {m.split("+")[1] for m in _heuristic_moves(state)} == {"AC"}


def test_heuristic_draws_by_count_rather_than_lose_at_the_draft_end():
    """D-4: the last draft card ends the game by the count of sequences; blue, a sequence
    behind, completes a5-e5 with 9C to draw instead of losing."""
    state = make(
        parse_rules("draft", players=2),
        chips={"G": "b3 c3 d3 e3 f3", "b": "b5 c5 d5 e5", "g": "f5"},
        sequences=["g b3-f3"],
        hands=["9C 2S 3S 4S 5S 6S", "KD"],
        draft="QD",
        draw=[],
    )
    assert _heuristic_moves(state) == {"9C@a5+QD"}
    state.apply(_choose.heuristic_action(state.core, np.random.PCG64(0)))
    assert state.outcome().termination is Termination.DRAFT_END and state.outcome().winner is None


def test_heuristic_beats_greedy_in_the_draft():
    """Issue 10: with its draft picks valued only by the evaluation (which reads no
    ordinary card of the hand) the heuristic scored 10% against greedy in the draft
    variant; it now scores about 60% (D-1).  120 paired games, a fixed seed."""
    from seqsolve.play.config import MatchConfig
    from seqsolve.play.match import run_games

    records = run_games(MatchConfig(bots=("heuristic", "greedy"), variant="draft", seed=11), 120, jobs=1)
    score = sum(r["score"] for r in records) / len(records)
    assert len(records) == 120 and score > 0.45, score


def test_decisive_action():
    assert move(position(**WIN_IN_ONE), _choose.decisive_action(position(**WIN_IN_ONE).core)) == "9C@a5"
    assert move(position(**MUST_BLOCK), _choose.decisive_action(position(**MUST_BLOCK).core)) == "AC@f8"
    assert _choose.decisive_action(State.new(parse_rules("classic", players=2), seed=0).core) is None


@pytest.mark.parametrize(
    "params",
    [
        {"playout_depth": -1, "policy_eps": 0.0},
        {"playout_depth": 0},
        {"widen": 0.0, "expand_k": 1},
        {"other_policy": 1},
        {"decisive": 0, "root_prior": 0.0},
    ],
)
def test_mcts_parameter_variants(params):
    state = position(**WIN_IN_ONE)
    _, result = _search_from(state, 0, iterations=500, **params)
    assert move(state, result["best"]) == "9C@a5"
    fresh = State.new(parse_rules("classic", players=2), seed=9)
    _, result = _search_from(fresh, 0, iterations=300, **params)
    assert result["best"] in fresh.legal_actions()


def test_search_leaves_the_observation_alone():
    state = State.new(parse_rules("classic", players=2), seed=6)
    seen = state.observation(0)
    before = ([seen.core.hand(s) for s in range(2)], seen.core.draw_pile(), seen.core.discards())
    _search_from(state, 0, iterations=500)
    searcher = _search.Searcher()
    searcher.search(seen.core, 0, np.random.PCG64(0), iterations=300, open_information=1)  # unknowns dealt
    assert ([seen.core.hand(s) for s in range(2)], seen.core.draw_pile(), seen.core.discards()) == before


def test_search_hold_weight_reaches_the_searcher_and_has_a_range():
    """Draft variant: the search adds what every known hand card is worth to hold
    (mcts:hold, default 1; benchmarks/RESULTS.md measures it)."""
    from seqsolve.bots import make_bot
    from seqsolve.games.bot import BotError

    assert _search.default_params()["hold"] == 1.0
    assert make_bot("mcts:hold=0").searcher().params["hold"] == 0.0
    assert (
        "hold" not in make_bot("mcts").searcher().params or make_bot("mcts").searcher().params["hold"] == 1.0
    )
    with pytest.raises(BotError, match="hold"):
        make_bot("mcts:hold=-1")


def test_mcts_top_searches_only_the_heuristics_best_moves():
    """mcts:top=k: the root's moves are the heuristic's best k (heuristic_key's
    order), so with k=1 the search plays what the heuristic plays (D-1 in the draft)."""
    four = position({5: ".bbbbg...."}, "2S,3S,4S,5S,6S,KD/?6", variant="draft", draft="9C,QD,2C,4H,KH")
    for state in (four, position(**MUST_BLOCK), State.new(parse_rules("classic", players=2), seed=5)):
        _, result = _search_from(state, 0, iterations=300, root_top=1)
        assert move(state, result["best"]) in _heuristic_moves(state, seeds=range(12))
        assert len(result["actions"]) == 1 and result["actions"][0][1] == 300
    _, result = _search_from(four, 0, iterations=600, root_top=3)
    assert len(result["actions"]) == 3 and sum(a[1] for a in result["actions"]) == 600
    assert {move(four, a[0]).split("+")[1] for a in result["actions"]} == {"9C"}  # no other pick is near
    _, wide = _search_from(four, 0, iterations=600, root_top=0)
    assert len(wide["actions"]) > 8


def test_mcts_top_by_default_cuts_only_the_draft_root():
    """The default (-1): the heuristic's best 8 in the draft variant (D-1: every play
    comes with each of five picks), every legal move elsewhere."""
    assert _search.default_params()["root_top"] == -1
    draft = State.new(parse_rules("draft", players=2), seed=3)
    _, result = _search_from(draft, 0, iterations=1500)
    assert len(draft.legal_actions()) > 8 and len(result["actions"]) == 8
    classic = State.new(parse_rules("classic", players=2), seed=3)
    _, result = _search_from(classic, 0, iterations=1500)
    assert len(result["actions"]) > 8


def test_mcts_top_finds_wins_and_blocks_and_is_deterministic():
    state = position(**WIN_IN_ONE)
    _, result = _search_from(state, 0, iterations=500, root_top=4)
    assert move(state, result["best"]) == "9C@a5"
    state = position(**MUST_BLOCK)
    _, result = _search_from(state, 0, iterations=1000, root_top=4)
    assert move(state, result["best"]) == "AC@f8"
    fresh = State.new(parse_rules("draft", players=2), seed=3)
    _, a = _search_from(fresh, 0, seed=4, iterations=800, root_top=6)
    _, b = _search_from(fresh, 0, seed=4, iterations=800, root_top=6)
    for key in ("iterations", "best", "pv", "actions", "nodes"):
        assert a[key] == b[key]
    assert a["best"] in fresh.legal_actions()


def test_mcts_top_parameter_has_a_range():
    from seqsolve.bots import make_bot
    from seqsolve.games.bot import BotError

    assert make_bot("mcts:top=5").searcher().params["root_top"] == 5
    assert make_bot("mcts").searcher().params["root_top"] == -1
    with pytest.raises(BotError, match="top"):
        make_bot("mcts:top=-2")
    with pytest.raises(ValueError, match="root_top"):
        _search.Searcher({"root_top": -2})


# Blue's b5-e5 and green's b8-e8 are open fours nobody can close this turn (no 9C,
# no AC, no jack): a quiet position where the heuristic's ranking decides.
QUIET = {"rows": {5: ".bbbb.....", 8: ".gggg....."}, "hands": "2S,3S,4S,5S,6S,KD,QH/?7"}


def test_mcts_puct_shares_root_visits_by_the_heuristics_rank():
    """root_puct: with a huge constant the exploration term is all that counts, so
    root visits follow the prior 1/(rank+1): the heuristic's move gets the most,
    about twice the runner-up's; a win in one is still found (decisive first)."""
    state = position(**QUIET)
    _, result = _search_from(state, 0, iterations=3000, root_puct=1000.0)
    (best, most, _, _), (_, second, _, _) = result["actions"][:2]
    assert move(state, best) in _heuristic_moves(state, seeds=range(12))
    assert 1.6 < most / second < 2.4
    _, plain = _search_from(state, 0, iterations=3000)
    assert plain["actions"][0][1] < most / 2  # UCB1 spreads the visits far more evenly
    win = position(**WIN_IN_ONE)
    _, result = _search_from(win, 0, iterations=500, root_puct=1.0)
    assert move(win, result["best"]) == "9C@a5"


@pytest.mark.parametrize(
    "preset,players,teams,long_game",
    [
        ("numbers", 6, 3, True),  # 3 sides, 2 sequences each
        ("numbers-seed001-literal", 6, 3, True),
        ("seed000", 3, None, False),  # 3 sides, 3 sequences each, but no teams
        ("seed000", 6, 3, True),
        ("numbers", 3, None, False),  # 3 sides, 1 sequence
        ("classic", 6, 3, False),
        ("seed000", 2, None, False),  # 3 sequences, 2 sides
        ("classic", 2, None, False),
    ],
)
def test_mcts_puct_by_default_only_where_three_teams_need_several_sequences(
    preset, players, teams, long_game
):
    """root_puct -1 (the default): PUCT with constant 1 where 3 teams each need 2
    or more sequences, UCB1 elsewhere; the default search is the one with that
    setting given, and not the other."""
    from seqsolve.bots import make_bot

    assert _search.default_params()["root_puct"] == -1.0
    assert make_bot("mcts").searcher().params["root_puct"] == -1.0
    state = State.new(parse_rules(preset, players=players, teams=teams), seed=5)
    _, default = _search_from(state, 0, iterations=400)
    _, alike = _search_from(state, 0, iterations=400, root_puct=1.0 if long_game else 0.0)
    _, other = _search_from(state, 0, iterations=400, root_puct=0.0 if long_game else 1.0)
    assert (default["actions"], default["work"]) == (alike["actions"], alike["work"])
    assert default["actions"] != other["actions"]


def test_mcts_puct_rejects_what_is_not_a_number():
    from seqsolve.bots import make_bot

    for bad in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ValueError, match="root_puct"):
            _search.Searcher({"root_puct": bad})
    with pytest.raises(Exception, match="puct"):
        make_bot("mcts:puct=-2")


def test_mcts_cpu_cap_ends_the_search_whatever_the_iterations():
    """cpu_seconds: the thread's CPU clock is read every 64 iterations after the
    first 64, so a cap already spent stops the search at exactly 64; without a cap
    the iteration budget decides.  mcts:cap passes it on."""
    from seqsolve.bots import make_bot
    from seqsolve.games.bot import BotError

    state = State.new(parse_rules("draft", players=2), seed=3)
    core = state.observation(0).core
    capped = _search.Searcher().search(core, 0, np.random.PCG64(1), iterations=10**9, cpu_seconds=1e-12)
    assert capped["iterations"] == 64 and capped["capped"] and capped["best"] in state.legal_actions()
    free = _search.Searcher().search(core, 0, np.random.PCG64(1), iterations=100)
    assert free["iterations"] == 100 and not free["capped"]
    bot = make_bot("mcts:iters=1000000000,cap=0.000000000001")
    assert bot.choose(state.observation(0), np.random.default_rng(1)) in state.legal_actions()
    assert bot.last["iterations"] == 64 and bot.last["capped"]
    assert make_bot("mcts").options["cap"] == 0.0  # opt-in: a move it cuts depends on the load
    with pytest.raises(BotError, match="give cap or time, not both"):  # time= is a budget of its own
        make_bot("mcts:time=0.001,iters=0,cap=0.000000000001")


def _draft_view(seed=3):
    state = State.new(parse_rules("draft", players=2), seed=seed)
    return state, state.observation(0).core


def test_mcts_work_budget_stops_at_the_first_iteration_that_spends_it():
    """work: checked after every iteration, so the search ends at the first
    iteration whose units reach the budget; one iteration fewer stays under it."""
    state, core = _draft_view()
    cut = _search.Searcher().search(core, 0, np.random.PCG64(1), iterations=10**9, work=400_000)
    assert cut["work_cut"] and not cut["capped"] and cut["work"] >= 400_000
    assert cut["best"] in state.legal_actions()
    short = _search.Searcher().search(core, 0, np.random.PCG64(1), iterations=cut["iterations"] - 1)
    assert short["work"] < 400_000 and not short["work_cut"]
    alone = _search.Searcher().search(core, 0, np.random.PCG64(1), work=400_000)  # a budget of its own
    assert alone["iterations"] == cut["iterations"]
    free = _search.Searcher().search(core, 0, np.random.PCG64(1), iterations=cut["iterations"])
    assert not free["work_cut"] and free["work"] == cut["work"]  # the iteration budget came first


def test_mcts_work_budget_gives_the_same_search_under_load():
    """The same seed and work budget give the same search twice, the second time
    with another search busy on a second thread: what ends the search is counted
    work, not a clock (no timing is asserted, only results compared)."""
    import threading

    _, core = _draft_view()
    keys = ("iterations", "work", "best", "pv", "actions", "nodes")

    def budgeted():
        result = _search.Searcher().search(core, 0, np.random.PCG64(5), iterations=10**9, work=2_000_000)
        return {key: result[key] for key in keys}

    calm = budgeted()
    assert (
        _search.Searcher().search(core, 0, np.random.PCG64(5), iterations=calm["iterations"])["work"]
        == calm["work"]
    )
    stop = threading.Event()
    _, other = _draft_view(seed=4)

    def busy():
        while not stop.is_set():
            _search.Searcher().search(other, 0, np.random.PCG64(0), iterations=300)

    worker = threading.Thread(target=busy)
    worker.start()
    try:
        loaded = [budgeted() for _ in range(2)]
    finally:
        stop.set()
        worker.join()
    assert loaded == [calm, calm]


# Hand-built classic positions, two players: two two-eyed jacks on a crowded board
# (the widest root there is), the must-block and quiet positions, and the opening.
CROWDED = {
    "rows": {
        2: ".bgbg.gb..",
        3: "..gbb.b...",
        4: ".g.bgg....",
        5: "..b.gb.g..",
        6: ".gb..b.g..",
        7: "...g..b...",
        8: ".b..g.b...",
        9: "..g.b.....",
    },
    "hands": "JD,JC,2S,3S,4S,5S,KD/?7",
}


@pytest.mark.parametrize("name", ["crowded", "must block", "quiet", "opening"])
def test_mcts_default_work_budget_cuts_no_classic_two_player_search(name):
    """MOVE_WORK leaves every classic 2-player search its 6,000 iterations, so the
    default plays there the very games it played before the budget (the crowded
    board spends about two thirds of it)."""
    from seqsolve.bots import make_bot
    from seqsolve.games.sequence.bots.search import MOVE_WORK

    if name == "opening":
        state = State.new(parse_rules("classic", players=2), seed=8)
    else:
        state = position(**{"crowded": CROWDED, "must block": MUST_BLOCK, "quiet": QUIET}[name])
    bot = make_bot("mcts")
    assert bot.options["work"] == MOVE_WORK
    bot.choose(state.observation(state.current_player), np.random.default_rng(1))
    assert bot.last["iterations"] == 6000 and not bot.last["work_cut"]
    assert bot.last["work"] < MOVE_WORK


def test_mcts_work_parameter_reaches_the_search_and_time_turns_it_off():
    """mcts:work passes the budget on; by default it cuts a costly draft search
    (4 players in mid-game: a wide tree, and every evaluation values four hands
    for holding); time= and work=0 switch it off."""
    from seqsolve.bots import make_bot

    costly = State.new(parse_rules("draft", players=4), seed=0)
    for turn in range(16):
        costly.apply(
            _choose.heuristic_action(costly.observation(costly.current_player).core, np.random.PCG64(turn))
        )
    default = make_bot("mcts")
    default.choose(costly.observation(costly.current_player), np.random.default_rng(1))
    assert default.last["work_cut"] and default.last["iterations"] < 6000
    state, _ = _draft_view()
    bot = make_bot("mcts:iters=1000000000,work=300000")
    assert bot.choose(state.observation(0), np.random.default_rng(1)) in state.legal_actions()
    assert bot.last["work_cut"] and 300_000 <= bot.last["work"]
    timed = make_bot("mcts:time=0.001,iters=0,work=1")  # time= is a budget of its own
    timed.choose(state.observation(0), np.random.default_rng(1))
    assert not timed.last["work_cut"]
    free = make_bot("mcts:iters=100,work=0")
    free.choose(state.observation(0), np.random.default_rng(1))
    assert free.last["iterations"] == 100 and not free.last["work_cut"]


def test_mcts_without_iterations_the_work_budget_alone_ends_the_search():
    """iters=0 leaves the move to the work budget (the same stop on any machine);
    with work=0 too and no time there is no budget, a one-line bot error."""
    from seqsolve.bots import make_bot
    from seqsolve.games.bot import BotError
    from seqsolve.games.sequence.bots.search import MOVE_WORK

    state = State.new(parse_rules("classic", players=2), seed=8)
    bot = make_bot("mcts:iters=0")
    bot.choose(state.observation(state.current_player), np.random.default_rng(1))
    assert bot.last["work_cut"] and bot.last["work"] >= MOVE_WORK
    assert bot.last["iterations"] > 6000
    with pytest.raises(BotError, match="give iters, time or work"):
        make_bot("mcts:iters=0,work=0")


def test_mcts_others_move_by_the_policy_with_three_sides():
    """other_policy=-1 (the default): with 3 sides (3 players, 6 in 3 teams) the
    other seats move by the playout policy, with 2 sides (2 players, 4 in 2 teams)
    by the tree: the default search is the very search of the explicit setting,
    and differs from the other one."""
    from seqsolve.bots import make_bot

    assert _search.default_params()["other_policy"] == -1
    for players, teams, same in ((3, None, 1), (6, 3, 1), (4, 2, 0), (2, None, 0)):
        rules = (
            parse_rules("classic", players=players, teams=teams)
            if teams
            else parse_rules("classic", players=players)
        )
        state = State.new(rules, seed=2)
        _, auto = _search_from(state, 0, iterations=1500)
        _, alike = _search_from(state, 0, iterations=1500, other_policy=same)
        _, other = _search_from(state, 0, iterations=1500, other_policy=1 - same)
        assert (auto["actions"], auto["nodes"]) == (alike["actions"], alike["nodes"])
        assert (auto["actions"], auto["nodes"]) != (other["actions"], other["nodes"])
    assert make_bot("mcts:others=0").searcher().params["other_policy"] == 0
    with pytest.raises(ValueError, match="other_policy"):
        _search.Searcher({"other_policy": 2})


# Green holds b3-f3, b8 c8 d8 e8 and the AC for f8: it wins on its turn whatever blue
# does (blue holds no ace of clubs and no jack).
LOST_IN_ONE = {
    "rows": {3: ".GGGGG....", 8: "bgggg....."},
    "hands": "2S,3S,4S,5S,6S,KD,7D/AC,2D,3D,4D,5D,6D,7C",
    "sequences": "g:b3-f3",
}


@pytest.mark.parametrize("preset,players", [("classic", 2), ("draft", 2), ("draft", 4), ("numbers", 3)])
def test_every_legal_action_needs_a_held_card_and_an_offered_pick(preset, players):
    """The search's descent passes over a child whose card the mover does not hold, or
    whose draft pick the draft does not offer, before looking it up among the world's
    legal actions: this is what makes that sound (passes aside, which need no card)."""
    from seqsolve.games.sequence.actions import ActionKind, decode_action

    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(3):
        state = State.new(parse_rules(preset, players=players), seed=seed)
        while not state.is_terminal():
            core = state.core
            held, offered = set(core.hand(state.current_player)), set(core.draft())
            for action in state.legal_actions():
                kind, card, _, pick = decode_action(action)
                if kind != ActionKind.PASS:
                    assert card in held and (pick < 0 or pick in offered)
                    checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    assert checked > 1000


@pytest.mark.parametrize("module, name", [("seqsolve._worlds", "Worlds"), ("seqsolve._rollout", "Rollouts")])
def test_the_searchers_bases_are_not_built_alone(module, name):
    """Worlds and Rollouts hold no scratch or weights of their own: a Searcher is what is built."""
    import importlib

    with pytest.raises(TypeError, match="build a seqsolve._search.Searcher"):
        getattr(importlib.import_module(module), name)()
