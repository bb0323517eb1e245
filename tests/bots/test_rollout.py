"""Hand-aware evaluation features, flat Monte Carlo rollouts, worlds dealt by the
search and the evidence an opponent's play gives about its hand.

Positions are SQN lines built with ``tests/test_search.position``; row 5 of the
board reads a5=9C b5=QS c5=7C d5=6H e5=5H f5=4H, and 9C also shows on c7.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from state_helpers import LONG_GAME, preset_configs, rules_for
from test_search import MUST_BLOCK, WIN_IN_ONE, move, position

from seqsolve import _choose, _eval, _search
from seqsolve.bots import BotError, make_bot
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State

NAMES = _eval.FEATURE_NAMES
DECK = parse_rules("classic", players=2).deck_cards


def card_code(name: str) -> int:
    return DECK.index(name)


def features(state: State, side: int = 0) -> dict[str, float]:
    return dict(zip(NAMES, _eval.position_features(state.core)[side]))


def test_hand_features_count_cells_the_hand_can_fill():
    # blue b5 c5 d5: a5-e5 misses a5 (9C) and e5 (5H); b5-f5 misses e5 and f5 (4H);
    # c5-g5 misses e5, f5 and g5 (AH).  The same five filler cards in every hand, so
    # the differences come from 5H and 4H; hand<e> counts windows by chips + cells
    # the hand fills.
    rows = {5: ".bbb......"}
    filler = "2C,2C,KS,KS,8D"
    both = features(position(rows=rows, hands=f"5H,4H,{filler}/?7"))
    one = features(position(rows=rows, hands=f"5H,AD,{filler}/?7"))
    none = features(position(rows=rows, hands=f"AD,AD,{filler}/?7"))
    assert both["hand5"] - none["hand5"] == 1  # b5-f5: three chips and the hand fills the other two
    assert both["hand4"] - none["hand4"] == 2  # a5-e5 (3 + e5) and c5-g5 (2 + e5, f5)
    assert one["hand5"] == none["hand5"]
    assert one["hand4"] - none["hand4"] == 2  # a5-e5 and b5-f5, 3 + e5 each
    assert one["hand3"] - none["hand3"] == 1  # c5-g5: 2 + e5
    # green's view of blue: blue's hand unknown, so no hand features for blue
    hidden = position(rows=rows, hands=f"5H,4H,{filler}/?7").observation(1)
    assert all(v == 0 for k, v in zip(NAMES, _eval.position_features(hidden.core)[0]) if k.startswith("hand"))


def test_a_window_needing_a_card_with_no_copy_left_is_dead():
    rows = {5: ".bbb......"}
    live = features(position(rows=rows, hands="AS,AS,2S,3S,4S,5S,6S/?7"))
    dead = features(position(rows=rows, hands="AS,AS,2S,3S,4S,5S,6S/?7", discards="9C,9C/-"))
    assert live["open3"] == 2 and live["dead_open3"] == 0
    assert dead["open3"] == 1 and dead["dead_open3"] == 1  # a5-e5 now needs a two-eyed jack


def test_a_card_in_the_other_hand_does_not_make_a_threat_live():
    # blue b5-e5 (four; green holds f5) needs a5 = 9C: one copy discarded, the other
    # in green's known hand
    rows = {5: ".bbbbg...."}
    state = position(rows=rows, hands="AS,AS,2S,3S,4S,5S,6S/9C,2H,3H,4H,5H,6H,7H", discards="9C/-")
    assert features(state)["threat"] == 0.5  # only a two-eyed jack can still fill a5
    hidden = dict(zip(NAMES, _eval.position_features(state.observation(0).core)[0]))
    assert hidden["threat"] == 1.0  # blue cannot see green's 9C


def test_rollout_values_are_win_rates_with_common_worlds():
    state = position(**WIN_IN_ONE)
    searcher = _search.Searcher()
    actions = state.legal_actions()[:6]
    winning = [a for a in state.legal_actions() if move(state, a) == "9C@a5"]
    values = searcher.rollout_values(state.observation(0).core, 0, np.random.PCG64(1), actions + winning, 40)
    assert all(0.0 <= v <= 1.0 for v in values)
    assert values[-1] == 1.0  # the winning play wins in every world
    again = searcher.rollout_values(state.observation(0).core, 0, np.random.PCG64(1), actions + winning, 40)
    assert values == again
    # with every card seen and greedy playouts a world is a single deterministic game
    full = searcher.rollout_values(state.core, 0, np.random.PCG64(2), actions, 3, 1)
    assert all(v in (0.0, 0.5, 1.0) for v in full)
    with pytest.raises(ValueError):
        searcher.rollout_values(state.core, 0, np.random.PCG64(2), [], 3)


def test_rollout_depth_scores_the_evaluation_after_that_many_greedy_actions():
    # every card seen (one world, the draw pile's order known): a playout cut at
    # `depth` is the candidate, then `depth` greedy actions (ties to the first), then
    # the static evaluation of the position reached
    state = State.new(parse_rules("classic", players=2), seed=5)
    for _ in range(12):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(0)))
    actions = state.legal_actions()[:3]
    searcher = _search.Searcher()
    for depth in (1, 4, 9):
        values = searcher.rollout_values(
            state.core, state.current_player, np.random.PCG64(3), actions, 2, 1, depth=depth
        )
        for action, value in zip(actions, values):
            after = state.clone()
            after.apply(action)
            for _ in range(depth):
                scored = _eval.score_actions(after.core)
                best = max(score for _, score in scored)
                after.apply(next(a for a, score in scored if score == best))
            assert value == pytest.approx(_eval.evaluate_position(after.core, 0))
    # 0 plays to the end: a result, not an estimate
    ended = searcher.rollout_values(state.core, state.current_player, np.random.PCG64(3), actions, 2, 1)
    assert all(v in (0.0, 0.5, 1.0) for v in ended)


def test_a_rollout_work_budget_cuts_the_worlds_the_same_way_every_time():
    state = State.new(parse_rules("classic", players=2), seed=6)
    for _ in range(10):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(0)))
    view = state.observation(state.current_player)
    searcher = _search.Searcher()

    def choice(worlds, work):
        action = searcher.rollout_choice(
            view.core, state.current_player, np.random.PCG64(8), 4, worlds, depth=8, work=work
        )
        return action, searcher.work

    _, all_worlds = choice(200, 0)
    assert all_worlds > 0
    budget = all_worlds // 10
    action, spent = choice(200, budget)
    assert budget <= spent < all_worlds // 2  # cut after the batch that passed the budget
    assert choice(200, budget) == (action, spent)  # counted, not timed: the same cut every time
    # a budget never reached plays every world (dealt in batches, so other worlds than
    # the unbudgeted move's single run: about the same work, not the same)
    assert choice(200, 10**12)[1] == pytest.approx(all_worlds, rel=0.1)


def test_dealt_worlds_keep_what_the_viewer_sees_and_conserve_cards():
    state = State.new(parse_rules("classic", players=2), seed=4)
    for _ in range(9):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(0)))
    seat = state.current_player
    view = state.observation(seat)
    searcher = _search.Searcher()
    deck = Counter(card_code(c) for c in DECK.cards())
    for k in range(20):
        world = searcher.deal_world(view.core, seat, np.random.PCG64(k))
        assert world.hand(seat) == state.core.hand(seat)
        held = Counter(c for s in range(2) for c in world.hand(s)) + Counter(world.draw_pile())
        assert held + Counter(card for _, card in world.discards()) == deck


@pytest.mark.parametrize("players", [2, 4])
def test_recall_deals_every_world_around_the_public_takes(players):
    """D-5: with ``recall`` every world keeps in each other hand the draft cards that seat
    was seen to take and has not played (CoreGame.public_hand) and still conserves the
    deck; without it the same worlds deal some of those cards elsewhere."""
    rules = parse_rules("draft", players=players, **({"teams": 2} if players > 2 else {}))
    state = State.new(rules, seed=7)
    for ply in range(8 * players):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(ply)))
    seat = state.current_player
    view = state.observation(seat).core
    public = {s: Counter(view.public_hand(s)) for s in range(players) if s != seat}
    assert sum(sum(c.values()) for c in public.values()) >= players  # the game shows some
    deck = Counter(rules.deck_cards.index(c) for c in rules.deck_cards.cards())
    missed = 0
    for recall in (1, 0):
        searcher = _search.Searcher({"recall": recall})
        for k in range(30):
            world = searcher.deal_world(view, seat, np.random.PCG64(k))
            assert world.hand(seat) == state.core.hand(seat)
            held = Counter(c for s in range(players) for c in world.hand(s)) + Counter(world.draw_pile())
            assert held + Counter(world.draft()) + Counter(card for _, card in world.discards()) == deck
            lost = sum(len(known - Counter(world.hand(s))) for s, known in public.items())
            if recall:
                assert lost == 0
            missed += lost
    assert missed > 0


def test_recall_reaches_the_searcher_in_python_and_in_the_loop():
    """``mcts:recall=true`` and ``rollout:recall=true`` hand recall to their Searcher, also in the
    compiled loop; off by default, so the figures measured before it stand."""
    rules = parse_rules("draft", players=2)
    for spec in ("mcts:recall=true", "rollout:recall=true,worlds=8"):
        bot = make_bot(spec)
        assert bot.searcher_params()["recall"] == 1
        assert bot.loop_chooser(rules)[1]["params"]["recall"] == 1
    for spec in ("mcts", "rollout"):
        assert "recall" not in make_bot(spec).searcher_params()


def _worlds_keep_the_tally(rules, seed, every):
    """Deal a world every ``every`` turns of a greedy game, with and without evidence,
    and compare its window tally with a recount; returns (worlds, reshuffles seen)."""
    state = State.new(rules, seed=seed)
    searcher = _search.Searcher()
    worlds = reshuffles = 0
    before = None
    while not state.is_terminal():
        seat = state.current_player
        view = state.observation(seat).core
        if state.turn % every == 0:
            if before is not None:
                searcher.set_evidence(before, view, 0.1)
            world = searcher.deal_world(view, seat, np.random.PCG64(state.turn))
            fresh = world.clone()
            fresh.start_tally()
            assert world.tally() == fresh.tally()
            worlds += 1
        discards = len(state.core.discards())
        state.apply(_choose.greedy_action(view, np.random.PCG64(state.turn)))
        reshuffles += len(state.core.discards()) < discards
        before = state.observation(seat).core
    return worlds, reshuffles


@pytest.mark.parametrize("preset,players,teams", preset_configs())
def test_dealt_worlds_keep_the_window_tally_of_their_board(preset, players, teams):
    """The search counts the root's window tally once and every world copies it: a
    deal fills hands and the draw pile, never a chip or a discard."""
    worlds, _ = _worlds_keep_the_tally(rules_for(preset, players, teams), 1, 4)
    assert worlds > 3


def test_dealt_worlds_keep_the_tally_after_a_reshuffle():
    """C-29: the discards go back into the draw pile, and the tally's discarded
    copies with them."""
    worlds, reshuffles = _worlds_keep_the_tally(rules_for("classic", **LONG_GAME), 3, 2)
    assert reshuffles > 0 and worlds > 50


def _unblocked_threat():
    """Blue's views before and after green's turn: blue threatens a5 (9C), which
    wins; green held neither 9C nor a two-eyed jack and played elsewhere."""
    full = position(**{**WIN_IN_ONE, "hands": "9C,2S,3S,4S,5S,6S,KD/5H,6H,7H,8H,4D,9D,3D"}, to_move=1)
    before = full.observation(0)
    action = _choose.greedy_action(full.observation(1).core, np.random.PCG64(0))
    assert move(full, action) != "9C@a5"
    full.apply(action)
    return before, full.observation(0), full


def _old_cards_of_green(searcher, now, n=600):
    seen = Counter()
    for k in range(n):
        hand = searcher.deal_world(now.core, 0, np.random.PCG64(k)).hand(1)
        seen.update(set(hand[:-1]))  # the last slot holds the card drawn after the play
    return seen


def test_an_unblocked_threat_tells_the_search_what_the_opponent_lacks():
    before, now, _ = _unblocked_threat()
    searcher = _search.Searcher()
    blind = _old_cards_of_green(searcher, now)
    assert searcher.set_evidence(before.core, now.core, 0.1)
    told = _old_cards_of_green(searcher, now)
    blockers = [card_code(c) for c in ("9C", "JD", "JC")]  # the other 9C, the two-eyed jacks
    assert sum(blind[c] for c in blockers) > 100
    assert sum(told[c] for c in blockers) < sum(blind[c] for c in blockers) / 10
    searcher.clear_evidence()
    assert sum(_old_cards_of_green(searcher, now)[c] for c in blockers) > 100


def test_a_new_game_forgets_the_last_games_evidence():
    before, now, _ = _unblocked_threat()
    bot = make_bot("rollout:worlds=4,k=2,infer=0.3")
    bot.start(now.rules, now.seats, 0)
    bot._before = before
    bot.choose(now, np.random.default_rng(0))
    assert bot._searcher.evidence_seat == 1
    bot.start(now.rules, now.seats, 0)  # the next game
    bot.choose(position(**WIN_IN_ONE).observation(0), np.random.default_rng(0))
    assert bot._searcher.evidence_seat == -1


def test_evidence_needs_exactly_one_opponent_play():
    before, now, _ = _unblocked_threat()
    searcher = _search.Searcher()
    assert not searcher.set_evidence(before.core, now.core, 0.0)  # temperature 0: off
    assert not searcher.set_evidence(now.core, now.core, 0.1)  # nothing happened
    assert not searcher.set_evidence(before.core, before.core, 0.1)


def test_rollout_bot_spec_and_choice():
    bot = make_bot("rollout:worlds=30,k=4,infer=0.3")
    state = position(**WIN_IN_ONE)
    bot.start(state.rules, state.seats, 0)
    assert move(state, bot.choose(state.observation(0), np.random.default_rng(0))) == "9C@a5"
    assert not bot.open_information and make_bot("rollout:see=hands").open_information
    state = position(**MUST_BLOCK)
    for seed in range(3):
        assert (
            move(state, make_bot("rollout").choose(state.observation(0), np.random.default_rng(seed)))
            == "AC@f8"
        )
    with pytest.raises(BotError, match="see is one of none, all, hands"):
        make_bot("rollout:see=some")
    with pytest.raises(BotError, match="policy is one of greedy, heuristic"):
        make_bot("rollout:policy=random")
    with pytest.raises(BotError, match="depth must be at least 0"):
        make_bot("rollout:depth=-1")
    with pytest.raises(BotError, match="work takes a int"):
        make_bot("rollout:work=soon")


@pytest.mark.parametrize("spec", ["rollout:worlds=20,k=3,infer=0.3", "mcts:iters=200,infer=0.3"])
def test_inferring_bots_play_whole_games(spec):
    from seqsolve.play.config import MatchConfig
    from seqsolve.play.match import play_game

    config = MatchConfig(bots=(spec, "greedy"), variant="classic", players=2, teams=None, seed=3)
    record = play_game(config, 0)
    assert record["forfeit"] is None and record["result"] in ("b", "g", "draw")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("rollout:see=x", "see is one of none, all, hands"),
        ("rollout:worlds=0", "worlds must be at least 1"),
        ("mcts:infer=-1", "infer must be at least 0"),
        ("mcts:greedy=1", "parameter greedy was removed"),
        ("mcts:recall=maybe", "recall takes a bool"),
        ("rollout:recall=2", "recall takes a bool"),
    ],
)
def test_bad_new_parameters_are_one_line_errors(spec, message):
    from cli_helpers import fails

    text = fails("match", spec, "greedy", "--games", "2")
    assert message in text and len(text.strip().splitlines()) == 1


def test_rollout_time_budget_deals_worlds_in_batches():
    """time= stops after the batch of 8 worlds that spends it: a budget too small for
    one batch plays exactly one (the same worlds as worlds=8: the same choice, the
    stream left in the same state); a budget never reached plays every world."""
    state = position(**MUST_BLOCK)

    def played(spec: str, seed: int) -> tuple[int, dict]:
        bot = make_bot(spec)
        bot.start(state.rules, state.seats, 0)
        rng = np.random.default_rng(seed)
        return bot.choose(state.observation(0), rng), rng.bit_generator.state

    for seed in range(4):
        assert played("rollout:worlds=4000,k=6,time=1e-9", seed) == played("rollout:worlds=8,k=6", seed)
        assert played("rollout:worlds=4000,k=6", seed)[1] != played("rollout:worlds=8,k=6", seed)[1]
    every = played("rollout:worlds=20,k=6,time=1000", 0)  # batches of 8, 8 and 4 worlds
    assert every == played("rollout:worlds=20,k=6,time=100", 0)
    assert every[1] != played("rollout:worlds=20,k=6,time=1e-9", 0)[1]


def _opening_with_evidence(turns=8, preset="classic"):
    """Blue's views after its own action and at its next turn, some turns into a
    greedy game of ``preset`` with 2 players: green's one play lies between them."""
    state = State.new(rules_for(preset, 2, None), seed=3)
    rng = np.random.PCG64(0)
    while True:
        action = _choose.greedy_action(state.observation(state.current_player).core, rng)
        blue = state.current_player == 0
        state.apply(action)
        if blue and state.turn >= turns:
            before = state.observation(0)
            state.apply(_choose.greedy_action(state.observation(1).core, rng))
            return before, state.observation(0)


def test_weighing_the_worlds_is_paid_from_the_work_budget():
    """A search with evidence weighs every world it deals (and the worlds it turns
    down); that work counts, so a move with evidence keeps to the same budget and
    plays fewer iterations in it."""
    before, now = _opening_with_evidence()
    iterations = {}
    for told in (False, True):
        searcher = _search.Searcher()
        if told:
            assert searcher.set_evidence(before.core, now.core, 0.1)
        stats = searcher.search(now.core, 0, np.random.PCG64(0), iterations=10**6, work=2_000_000)
        assert 2_000_000 <= stats["work"] < 2_100_000
        iterations[told] = stats["iterations"]
        assert (searcher.ev_scored > 0) == told
        searcher.rollout_choice(now.core, 0, np.random.PCG64(0), 4, 10**6, depth=12, work=200_000)
        assert 200_000 <= searcher.work < 220_000
        assert (searcher.ev_scored > 0) == told
    assert iterations[True] < iterations[False]


def _likelihood_by_hand(before, now, world, temperature):
    """The opponent model spelled out: green's hand in ``world`` (less its newest
    card, plus the card it played) put into the position before its play, every
    legal action scored, a softmax of the log-scaled scores at ``temperature``."""
    played = now.core.discards()[-1][1]
    core = before.core.clone()
    hand = list(world.hand(1))[:-1] + [played]
    core.set_hidden([list(before.core.hand(0)), hand], list(world.draw_pile()), False)
    core.start_tally()
    logs = {a: (math.log(1 + s) if s >= 0 else -math.log(1 - s)) for a, s in _eval.score_actions(core)}
    chosen = [a for a in logs if _plays_into(core, a, now)]
    assert len(chosen) == 1
    top = max(logs.values())
    total = sum(math.exp((u - top) / temperature) for u in logs.values())
    return math.exp((logs[chosen[0]] - top) / temperature) / total


def _plays_into(core, action, now):
    after = core.clone()
    after.apply(action)
    return after.discards()[-1] == now.core.discards()[-1] and all(
        after.chips(s) == now.core.chips(s) for s in (0, 1)
    )


@pytest.mark.parametrize("preset", ["classic", "numbers", "seed000"])
def test_the_likelihood_of_a_world_is_the_opponent_models(preset):
    """play_likelihood sums each card's actions once per piece of evidence; a world's
    likelihood must still be the softmax over exactly the actions its hand allows."""
    before, now = _opening_with_evidence(preset=preset)
    for temperature in (0.1, 0.5, 2.0):
        searcher = _search.Searcher()
        assert searcher.set_evidence(before.core, now.core, temperature)
        for k in range(40):
            world = searcher.deal_world(now.core, 0, np.random.PCG64(k))
            ours = searcher.play_likelihood_in(world)
            assert ours == pytest.approx(_likelihood_by_hand(before, now, world, temperature), rel=1e-9)
