"""The Sequence Stacks bots (seqsolve/games/stacks/bots.py, ext/seqsolve/_stacks_bots.pyx):
legal answers on hand-built positions, greedy's documented preferences one by one,
the search's budget and seeds, and greedy's margin over random in the compiled loop."""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import card_census, position, state

from seqsolve import _stacks_bots
from seqsolve.games.stacks.bots import StacksGreedyBot, StacksMCTSBot, StacksRandomBot, bot_classes
from seqsolve.games.stacks.game import STACKS
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import StacksState, stacks_tables

BOTS = [
    StacksRandomBot(),
    StacksGreedyBot(),
    StacksGreedyBot(block="matters"),
    StacksMCTSBot(iters=60, time=0),
]


def whole(**kw) -> StacksState:
    """A hand-built position whose unlisted cards are all in the draw pile, unknown: the
    deck adds up, so a search can deal the unseen cards."""
    pos = position(**kw)
    known, unknown = card_census(pos)
    rest = sum(pos.rules.deck) - sum(known.values()) - unknown
    return StacksState.from_position(position(**kw, draw=None, draw_count=rest), seed=1)


def greedy(st: StacksState, block_all: bool = True) -> str:
    seat = st.current_player
    return st.action_to_string(_stacks_bots.greedy_action(st.observation(seat).core, block_all))


def mcts(st: StacksState, iters: int = 300, seed: int = 1, top: int = 0, **params) -> dict:
    """The tree's search (``top=0``) or the flat search of the bot's decisions."""
    seat = st.current_player
    searcher = _stacks_bots.StacksSearcher({"top": top, **params})
    search = searcher.decide if top else searcher.search
    return search(st.observation(seat).core, seat, np.random.PCG64(seed), iters)


# ------------------------------------------------------------ every bot answers legally

HAND_BUILT = {
    "block window (ST-15)": {
        "hands": ["B4", "BK R2"],
        "piles": ["B1 B2 B3 B4 B5"],
        "block_asked": 1,
        "progress": True,
    },
    "empty hand (ST-14)": {"hands": ["-", "R1"], "progress": True},
    "steals (ST-18, ST-19)": {
        "hands": ["SC SX B2", "R1"],
        "discards": ["-", "B1"],
        "chips": [(0, 0), (1, 1)],
    },
    "wild targets (ST-8)": {"hands": ["BW RW B3", "R1"], "piles": ["B1 B2", "R1"]},
}


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.spec)
@pytest.mark.parametrize("name", HAND_BUILT)
def test_each_bot_answers_a_legal_action_on_hand_built_positions(bot, name):
    st = whole(**HAND_BUILT[name])
    seat = st.current_player
    bot.start(st.rules, st.seats, seat)
    assert bot.choose(st.observation(seat), np.random.default_rng(3)) in st.legal_actions()


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.spec)
@pytest.mark.parametrize("players", [2, 4])
def test_each_bot_plays_dealt_games_legally_from_its_observation(bot, players):
    rng = np.random.default_rng(players)
    st = StacksState.new(make_rules("stacks", players), seed=11)
    for _ in range(120):
        if st.is_terminal():
            break
        seat = st.current_player
        st.apply(bot.choose(st.observation(seat), rng))  # apply refuses an illegal action


def test_stacks_game_lists_its_bots():
    assert set(bot_classes()) == {"random", "greedy", "mcts"}
    assert set(STACKS.bot_classes()) == {
        "random",
        "greedy",
        "mcts",
        "ext",
    }  # and the line protocol's programs
    assert all(cls.summary for cls in bot_classes().values())


# ------------------------------------------------------------ greedy's preferences


#: greedy's documented preferences (docs/stacks.md), each a position where it decides
#: and the one action it must choose: (what it shows, the position's fields, the action)
GREEDY_CHOICES = [
    (
        "ST-9 completes a pile rather than ending the turn",
        {"hands": ["R1 B5 SK", "-"], "piles": ["B1 B2 B3 B4"]},
        "B5",
    ),
    # with 3 blue and 1 red chips only a red chip wins (5 chips, 2 of each)
    (
        "ST-21 takes the completion that wins",
        {"hands": ["B5 R5", "-"], "piles": ["B1 B2 B3 B4", "R1 R2 R3 R4"], "chips": [(3, 1), (0, 0)]},
        "R5",
    ),
    (
        "keeps a wild when a number does the same job",
        {"hands": ["BW B5", "-"], "piles": ["B1 B2 B3 B4"]},
        "B5",
    ),
    (
        "keeps a wild when a number from the discards does the same job",
        {"hands": ["BW B5", "-"], "piles": ["B1 B2 B3 B4"], "discards": ["B4", "-"]},
        "B5",
    ),
    (
        "plays a wild as the five when no number can",
        {"hands": ["BW R2", "-"], "piles": ["B1 B2 B3 B4"]},
        "BW>4",
    ),
    # R3, R4, R5 on a red pile at 2 reach the 5
    ("ST-8 builds a pile it can finish this turn", {"hands": ["R3 R4 R5 SC", "-"], "piles": ["R1 R2"]}, "R3"),
    ("leaves no pile at four for the next player", {"hands": ["B4 SC", "-"], "piles": ["B1 B2 B3"]}, "~SC"),
    (
        "builds to four when its hand holds the five",
        {"hands": ["B4 B5 SC", "-"], "piles": ["B1 B2 B3"]},
        "B4",
    ),
    ("spends no wild on a build it cannot finish", {"hands": ["RW SC", "-"], "piles": ["R1"]}, "~SC"),
    # the discard top is played like a hand card; the hand keeps its own
    (
        "ST-12 plays from the discard top when equal",
        {"hands": ["B2 SC", "-"], "piles": ["B1"], "discards": ["B2", "-"]},
        "^B2",
    ),
    # seat 0 needs blue, not a fifth red; seat 1, with no blue, still needs 2 chips after
    # losing one of its 5 red
    ("ST-19 steals no chip that does not matter", {"hands": ["SX R1", "-"], "chips": [(0, 4), (0, 5)]}, "R1"),
    # seat 1's discard top is a 5 for the blue pile at 4
    (
        "ST-18 steals a card that completes a pile",
        {"hands": ["SC R2", "-"], "piles": ["B1 B2 B3 B4"], "discards": ["-", "B5"]},
        "SC@1",
    ),
    # the red 2 fits nowhere either: it goes
    ("ST-18 leaves a top that fits nowhere", {"hands": ["SC R2", "-"], "discards": ["-", "B5"]}, "~R2"),
    # with 4 players the Skip goes to seat 1, the next player
    (
        "ST-16 skips the player about to win",
        {"players": 4, "hands": ["SK R1", "-", "-", "-"], "chips": [(0, 0), (2, 2), (0, 0), (0, 0)]},
        "SK",
    ),
    (
        "ST-16 skips no player far from winning",
        {"players": 4, "hands": ["SK R1", "-", "-", "-"], "chips": [(0, 0), (0, 0), (2, 2), (0, 0)]},
        "R1",
    ),
    # no play helps (no pile, no discard to steal from): the dead 5 goes, the wild stays
    ("ST-14 discards what it values least", {"hands": ["BW SC B5", "-"]}, "~B5"),
]


@pytest.mark.parametrize(
    "fields, action", [c[1:] for c in GREEDY_CHOICES], ids=[c[0] for c in GREEDY_CHOICES]
)
def test_greedy_chooses_as_documented(fields, action):
    assert greedy(state(**fields)) == action


def test_greedy_blocks_a_completion_that_would_win_and_lets_a_far_one_stand():
    # ST-15: seat 1 holds a Block; seat 0 completed a blue pile
    window = {"hands": ["-", "BK R2"], "piles": ["B1 B2 B3 B4 B5"], "block_asked": 1, "progress": True}
    # block=matters
    assert (
        greedy(state(**window, chips=[(2, 2), (0, 0)]), block_all=False) == "block"
    )  # the chip would win (ST-21)
    assert greedy(state(**window, chips=[(0, 0), (0, 0)]), block_all=False) == "pass"  # it would still need 4
    # block=always, the default
    assert greedy(state(**window, chips=[(0, 0), (0, 0)])) == "block"


def test_greedy_does_not_block_a_completion_that_gives_no_chip():
    # ST-9: the blue supply is empty (stacks_chip_supply=1, the chip already taken)
    window = {"hands": ["-", "BK R2"], "piles": ["B1 B2 B3 B4 B5"], "block_asked": 1, "progress": True}
    st = state(
        **window,
        variant="stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",
        chips=[(1, 0), (0, 1)],
    )
    assert greedy(st, block_all=True) == "pass"


def test_greedy_steals_a_chip_that_brings_its_win_closer():
    # ST-19: seat 1 holds blue and red; seat 0 needs both colours (either chip will do)
    st = state(hands=["SX R1", "-"], chips=[(0, 0), (1, 2)])
    assert greedy(st) in ("SX@1b", "SX@1r")


# ------------------------------------------------------------ mcts


def test_mcts_finds_the_winning_completion():
    # ST-21: the red 5 wins for seat 0 (2 blue, 1 red + 1 red); nothing else comes close
    st = whole(hands=["R5 B1 SK B3", "-"], piles=["R1 R2 R3 R4"], chips=[(2, 1), (0, 0)])
    found = mcts(st, iters=300)
    assert st.action_to_string(found["best"]) == "R5"


@pytest.mark.parametrize("top", [0, 6])
def test_mcts_respects_its_iteration_cap_and_reproduces_with_a_seed(top):
    st = StacksState.new(make_rules("stacks", 3), seed=4)
    first, again = (mcts(st, iters=137, seed=9, top=top, halve=0) for _ in range(2))
    assert first["iterations"] == 137
    if top:  # the flat search without halving: every candidate in every world
        assert {visits for _, visits, _ in first["actions"]} == {137} and len(first["actions"]) == top
    else:  # the tree: one root child an iteration
        assert sum(visits for _, visits, _ in first["actions"]) == 137
    del first["seconds"], again["seconds"]
    assert first == again


@pytest.mark.parametrize("top", [0, 6])
def test_mcts_work_budget_ends_at_the_iteration_that_reaches_it(top):
    st = StacksState.new(make_rules("stacks", 2), seed=4)
    seen = st.observation(0)

    def decide(**budget):
        searcher = _stacks_bots.StacksSearcher({"top": top, "halve": 0})  # rounds follow the budget's kind
        found = searcher.decide(seen.core, 0, np.random.PCG64(2), **budget)
        del found["seconds"]
        return found

    found = decide(work=5000)
    assert found["work"] >= 5000 and found["iterations"] > 0
    assert decide(iterations=found["iterations"] - 1)["work"] < 5000  # one iteration less had not reached it
    assert decide(work=5000) == found


@pytest.mark.parametrize("top", [0, 6])
def test_mcts_searches_where_a_turn_would_loop_without_an_action_cap(top):
    """ST-22 [OURS]: no chip to take (the supply empty), an empty draw pile, and this turn has
    refilled it once already: the B5 that empties the hand stalls the game at its ST-13
    draw, a finished child, and the search (no cap on a turn's length) counts it."""
    pos = position(
        variant="stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",
        chips=[(1, 0), (0, 1)],  # the supply is empty
        hands=["B5", "-"],
        unknown=[0, 102],  # the rest of the 112-card deck, so the search deals it to seat 1
        piles=["B1 B2 B3 B4"],
        aside="B1 B2 B3 B4 B5",
        progress=True,
        refilled=True,
    )
    st = StacksState.from_position(pos, seed=1)
    found = mcts(st, iters=200, top=top)
    visits = {st.action_to_string(a): n for a, n, _ in found["actions"]}
    assert found["iterations"] == 200 and visits["B5"] > 0
    assert sum(visits.values()) == 200 * (len(visits) if top else 1)
    st.apply(st.string_to_action("B5"))
    assert st.is_terminal() and st.to_position().result == "draw"


def test_mcts_answers_a_single_legal_action_at_once():
    st = whole(hands=["-", "R2"], piles=["B1 B2 B3 B4 B5"], block_asked=1, progress=True)  # no Block: pass
    found = mcts(st, iters=500)
    assert found["iterations"] == 0 and st.action_to_string(found["best"]) == "pass"


def test_mcts_refuses_a_seat_that_does_not_decide_and_no_budget():
    st = StacksState.new(make_rules("stacks", 2), seed=4)
    searcher = _stacks_bots.StacksSearcher()
    with pytest.raises(ValueError, match="does not decide"):
        searcher.search(st.observation(1).core, 1, np.random.PCG64(1), 10)
    with pytest.raises(ValueError, match="budget"):
        searcher.search(st.observation(0).core, 0, np.random.PCG64(1))
    with pytest.raises(ValueError, match="unknown search parameter"):
        _stacks_bots.StacksSearcher({"cc": 1})


def test_seeds_reproduce_the_bots_choices():
    st = StacksState.new(make_rules("stacks", 4), seed=8)
    seen = st.observation(st.current_player)
    for bot in (StacksRandomBot(), StacksMCTSBot(iters=80, time=0)):
        picks = [bot.choose(seen, np.random.default_rng(5)) for _ in range(2)]
        assert picks[0] == picks[1]


def test_mcts_bot_refuses_no_budget():
    from seqsolve.games.bot import BotError

    with pytest.raises(BotError, match="iters, time or work"):
        StacksMCTSBot(iters=0, time=0, work=0)
    with pytest.raises(BotError, match="block"):
        StacksGreedyBot(block="never")


# ------------------------------------------------------------ strength (compiled loop, fixed seeds)


@pytest.mark.parametrize("players, games, least", [(2, 200, 0.9), (4, 200, 0.6)])
def test_greedy_beats_random_by_a_clear_margin(players, games, least):
    # seats rotated over the deals; the fair share is 1/players
    tables = stacks_tables(make_rules("stacks", players))
    wins = 0
    for i in range(games):
        seats = ["random"] * players
        seats[i % players] = "greedy"
        result, _, _ = _stacks_bots.play_game(tables, np.random.PCG64(i), np.random.PCG64(10_000 + i), seats)
        wins += result == i % players
    assert wins / games >= least


def test_play_game_gives_a_searching_seat_its_budget():
    tables = stacks_tables(make_rules("stacks", 2))
    searcher = _stacks_bots.StacksSearcher()
    result, turns, moves = _stacks_bots.play_game(
        tables, np.random.PCG64(1), np.random.PCG64(2), [(searcher, 20, 0.0), "greedy"]
    )
    assert result in (0, 1, 6) and turns > 0
    assert moves[0][0] > 0 and moves[1][0] == 0  # only the searching seat searched
    with pytest.raises(ValueError, match="two bit generators"):
        gen = np.random.PCG64(1)
        _stacks_bots.play_game(tables, gen, gen, ["random", "random"])


def test_mcts_margin_keeps_greedys_choice_unless_the_search_is_sure():
    st = StacksState.new(make_rules("stacks", 2), seed=21)
    seen = st.observation(st.current_player)
    for _ in range(6):  # a few decisions into the first turn, each with a choice
        loose = _stacks_bots.StacksSearcher({"margin": 0.0}).search(seen.core, 0, np.random.PCG64(3), 200)
        strict = _stacks_bots.StacksSearcher({"margin": 100.0}).search(seen.core, 0, np.random.PCG64(3), 200)
        assert loose["best"] == loose["actions"][0][0]  # margin 0: the most visited
        assert strict["best"] == _stacks_bots.greedy_action(seen.core)  # never sure enough
        st.apply(loose["best"])
        if st.current_player != 0:
            break
        seen = st.observation(0)


# ------------------------------------------------------------ the search the analysis drives


def test_the_games_searcher_ranks_the_root_decisions_with_their_lines():
    st = StacksState.new(make_rules("stacks", 3), seed=4)
    searcher = STACKS.searcher({"c": 0.5})
    assert searcher.params["c"] == 0.5 and searcher.params["eps"] == _stacks_bots.default_params()["eps"]
    found = searcher.search(st.observation(0), 0, np.random.PCG64(2), iterations=200, open_information=0)
    stats = searcher.root_stats(5)
    assert found["iterations"] == 200 == sum(s["visits"] for s in stats)
    assert {s["action"] for s in stats} <= set(st.legal_actions())
    assert all(s["pv"][0] == s["action"] and 1 <= len(s["pv"]) <= 5 for s in stats)
    assert [s["visits"] for s in stats] == sorted((s["visits"] for s in stats), reverse=True)
    # the root's value is the viewer's mean reward over every iteration
    assert found["value"] == pytest.approx(sum(s["value"] * s["visits"] for s in stats) / 200)


def test_the_stacks_mcts_bot_gives_an_analysis_its_parameters():
    from seqsolve.analysis.spec import search_settings

    settings = search_settings("mcts:c=0.4,nodes=5000,iters=70,time=0", game=STACKS)
    assert (settings.iterations, settings.seconds, settings.open_information) == (70, 0.0, False)
    assert search_settings("mcts:iters=70", game=STACKS).seconds == 0.1  # the bot's own time cap stays
    assert settings.params["c"] == 0.4 and settings.params["max_nodes"] == 5000
    assert STACKS.searcher(settings.params).params == settings.params


def test_halt_ends_running_searches_until_released():
    st = StacksState.new(make_rules("stacks", 2), seed=4)
    budget = 10**8
    STACKS.halt_searches()
    try:
        found = STACKS.searcher({}).search(st.observation(0), 0, np.random.PCG64(1), iterations=budget)
    finally:
        STACKS.halt_searches(False)
    assert 0 < found["iterations"] < budget
    assert (
        STACKS.searcher({}).search(st.observation(0), 0, np.random.PCG64(1), iterations=300)["iterations"]
        == 300
    )


def test_evaluate_scores_a_won_game_and_shares_an_open_one():
    won = whole(hands=["R5 B1", "-"], piles=["R1 R2 R3 R4"], chips=[(3, 1), (0, 0)])
    won.apply(next(a for a in won.legal_actions() if won.action_to_string(a) == "R5"))
    won.apply(won.legal_actions()[0])  # seat 1 holds no Block: pass (ST-15), and the chip wins (ST-21)
    assert won.is_terminal()
    assert (STACKS.searcher({}).evaluate(won, 0), STACKS.searcher({}).evaluate(won, 1)) == (1.0, 0.0)
    going = StacksState.new(make_rules("stacks", 3), seed=2)
    shares = [STACKS.searcher({}).evaluate(going, seat) for seat in range(3)]
    assert sum(shares) == pytest.approx(1.0) and shares[0] == pytest.approx(1 / 3)  # nobody has a chip yet
    with pytest.raises(ValueError, match="no seat 3"):
        STACKS.searcher({}).evaluate(going, 3)


# ------------------------------------------------------------ the flat search (top > 0)


def flat(st: StacksState, iters: int = 200, seed: int = 1, top: int = 3, **params) -> dict:
    return mcts(st, iters, seed, top=top, eps=0.0, **params)


def test_flat_search_plays_greedys_best_actions_in_every_world():
    st = whole(hands=["B1 R1 B3 SC SX", "-"], piles=["B1 B2"], discards=["-", "R2"], chips=[(0, 0), (1, 0)])
    found = flat(st, iters=150, top=3, halve=0)
    ranked = [a for a, _ in _stacks_bots.greedy_scores(st.observation(0).core)]
    assert {a for a, _, _ in found["actions"]} == set(ranked[:3])
    assert [visits for _, visits, _ in found["actions"]] == [150, 150, 150]  # each candidate, every world
    assert found["iterations"] == 150


def test_flat_search_scores_two_orders_of_the_same_plays_alike_in_every_world():
    """Common random numbers: R5 then B1 and B1 then R5 (greedy completes the red pile
    next, ST-9) reach the same position in every world, and with the same random stream
    after them they end alike, to the last playout."""
    st = whole(hands=["R5 B1 SC", "-"], piles=["R1 R2 R3 R4"])
    found = flat(st, iters=120, top=4)
    means = {st.action_to_string(a): mean for a, _, mean in found["actions"]}
    assert means["R5"] == means["B1"]
    assert len(set(means.values())) > 1  # the other candidates differ


def test_flat_search_keeps_greedys_choice_unless_a_gain_is_sure():
    st = StacksState.new(make_rules("stacks", 2), seed=21)
    for _ in range(6):  # a few decisions into the first turn
        seen = st.observation(0)
        loose, strict = flat(st, iters=150, margin=0.0, halve=0), flat(st, iters=150, margin=100.0)
        best_mean = max(mean for _, _, mean in loose["actions"])
        assert {a: m for a, _, m in loose["actions"]}[loose["best"]] == best_mean
        assert strict["best"] == _stacks_bots.greedy_action(seen.core)
        st.apply(loose["best"])
        if st.current_player != 0:
            break


def test_flat_search_compares_every_legal_action_when_fewer_than_top():
    # ST-15: the Block window of a seat holding a Block: block or pass, nothing else
    st = whole(hands=["B4", "BK R2"], piles=["B1 B2 B3 B4 B5"], block_asked=1, progress=True)
    found = flat(st, iters=80, top=8)
    assert sorted(st.action_to_string(a) for a, _, _ in found["actions"]) == ["block", "pass"]
    assert found["best"] in st.legal_actions()


def test_flat_search_halving_drops_the_worse_half_after_each_round():
    """Sequential halving: 6 candidates over 120 worlds play 40 worlds each, then greedy's
    choice and the best 2 others by paired gain play 40 more, then greedy's and the best
    of those to the end; the choice is among the candidates still played out."""
    st = StacksState.new(make_rules("stacks", 2), seed=5)  # 8 legal actions
    seen = st.observation(st.current_player)
    found = flat(st, iters=120, top=6)  # halve by default
    visits = {a: v for a, v, _ in found["actions"]}
    assert sorted(visits.values()) == [40, 40, 40, 80, 120, 120]
    assert visits[_stacks_bots.greedy_action(seen.core)] == 120
    assert visits[found["best"]] == 120
    assert visits[flat(st, iters=120, top=6, margin=0.0)["best"]] == 120  # no dropped candidate is played
    first = {a: m for a, _, m in flat(st, iters=40, top=6, halve=0)["actions"]}  # the same first 40 worlds
    kept = [a for a, v in visits.items() if v > 40]
    dropped = [a for a, v in visits.items() if v == 40]
    others = [a for a in kept if a != _stacks_bots.greedy_action(seen.core)]
    assert min(first[a] for a in others) >= max(first[a] for a in dropped)


def test_flat_search_halves_by_default_with_2_players_only():
    """Measured (benchmarks/RESULTS.md, "Experiments: Sequence Stacks"): halving gains with 2 players,
    not with 4, where every candidate meets every world."""
    for players, halve, rounds in [(2, 2, 3), (4, 2, 1), (4, 4, 3), (2, 0, 1)]:
        st = StacksState.new(make_rules("stacks", players), seed=5)
        seen = st.observation(st.current_player)
        searcher = _stacks_bots.StacksSearcher({"top": 6, "halve": halve})
        found = searcher.decide(seen.core, st.current_player, np.random.PCG64(1), 60)
        assert len({v for _, v, _ in found["actions"]}) == rounds
    assert _stacks_bots.default_params()["halve"] == 2


def test_flat_search_halving_plans_its_rounds_on_the_counted_work():
    st = StacksState.new(make_rules("stacks", 2), seed=3)
    seen = st.observation(st.current_player)
    searcher = _stacks_bots.StacksSearcher({"top": 4})
    found = searcher.decide(seen.core, st.current_player, np.random.PCG64(5), work=20_000)
    visits = sorted(v for _, v, _ in found["actions"])
    assert visits[0] == visits[1] < visits[2] == visits[3] == found["iterations"]  # 4 -> 2 at half the work
    assert found["work"] >= 20_000
