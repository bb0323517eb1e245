"""``search``, the default search: in each kind of game it is one fixed spec, move for
move, in Python and in the compiled loop, so the figures measured for those specs are
its figures."""

from __future__ import annotations

import numpy as np
import pytest

from seqsolve import _choose
from seqsolve.bots import BotError, make_bot
from seqsolve.games.sequence.bots.default_search import SPECS, TIMED_SPECS, game_kind
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.play import match
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game

#: seatings of each kind of game: (preset, players, teams, the kind's key in SPECS)
SEATINGS = [
    ("classic", 2, None, "blind-2p"),
    ("draft", 2, None, "draft"),
    ("numbers", 4, 2, "blind"),
    ("classic", 3, None, "blind"),
    ("seed000", 6, 3, "blind"),
    ("draft", 4, 2, "draft"),
    ("numbers", 2, None, "blind-2p"),
]
#: the seatings the compiled loop plays ``search`` in: without evidence to keep
LOOP_SEATINGS = [seating for seating in SEATINGS if seating[3] != "blind-2p"]


def _rules(preset: str, players: int, teams: int | None):
    return parse_rules(preset, players=players, **({"teams": teams} if teams else {}))


def _position(preset: str, players: int, teams: int | None, plies: int) -> State:
    """A position ``plies`` greedy actions into a seeded deal, as its mover sees it."""
    state = State.new(_rules(preset, players, teams), seed=plies)
    for ply in range(plies):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(ply)))
    return state.observation(state.current_player)


def test_the_seatings_cover_every_kind_of_game():
    assert {kind for *_, kind in SEATINGS} == set(SPECS) == set(TIMED_SPECS)


@pytest.mark.parametrize("preset, players, teams, kind", SEATINGS)
def test_search_chooses_as_the_spec_of_its_kind_of_game(preset, players, teams, kind):
    """From the same stream, on the same view, the same move as the spec it names."""
    rules = _rules(preset, players, teams)
    assert game_kind(rules) == kind
    search, spec = make_bot("search"), make_bot(SPECS[kind])
    assert search.spec_for(rules) == SPECS[kind]
    for plies in (0, 9, 23):
        view = _position(preset, players, teams, plies)
        ours = search.choose(view, np.random.default_rng(plies))
        theirs = spec.choose(view, np.random.default_rng(plies))
        assert ours == theirs
        assert ours in view.legal_actions()


@pytest.mark.parametrize("preset, players, teams, kind", LOOP_SEATINGS)
def test_the_loop_gets_the_chooser_of_the_rules(preset, players, teams, kind):
    """The compiled loop is given the chooser of the game's kind, the very one the spec gives."""
    rules = _rules(preset, players, teams)
    spec = make_bot(SPECS[kind]).loop_chooser(rules)
    assert spec is not None
    assert make_bot("search").loop_chooser(rules) == spec
    assert make_bot("restricted:no=corners,bot=search").loop_chooser(rules) == (*spec[:2], 8)


@pytest.mark.parametrize(
    "preset, players, teams", [("classic", 3, None), ("numbers", 4, 2), ("draft", 2, None), ("draft", 4, 2)]
)
def test_a_whole_game_in_the_loop_is_the_python_runners(preset, players, teams):
    config = MatchConfig(bots=("search", "greedy"), variant=preset, players=players, teams=teams, seed=5)
    bots = [make_bot(spec) for spec in config.bots]
    rules = config.rules()
    loop = SEQUENCE.loop(rules, [b.loop_chooser(rules) for b in bots], None)
    assert loop is not None
    compiled = match._play_compiled(config, [0], loop, False, True)
    python = [play_game(config, 0)]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in compiled] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in python
    ]
    assert compiled[0]["moves"], "a game was played"


def test_with_two_seats_and_a_blind_draw_search_reads_the_last_play():
    """The spec with evidence plays in Python (the loop keeps no view of the last
    turn); a position analysed alone has no last play, and gets the spec without."""
    rules = _rules("classic", 2, None)
    search = make_bot("search")
    assert make_bot(search.spec_for(rules)).options["infer"] > 0
    assert search.loop_chooser(rules) is None
    assert search.spec_for(rules, evidence=False) == SPECS["blind"]
    assert search.spec_for(_rules("classic", 3, None)) == SPECS["blind"]
    assert search.spec_for(_rules("draft", 2, None), evidence=False) == SPECS["draft"]


def test_evidence_carries_from_turn_to_turn_in_a_whole_game():
    """Within a game of two seats ``search`` weighs its worlds by the opponent's play
    from its second turn on, and a new game starts without it."""
    bot = make_bot("search")
    rules = _rules("classic", 2, None)
    weighed = []
    state = State.new(rules, seed=1)
    rng = np.random.default_rng(0)
    bot.start(rules, state.seats, 0)
    while not state.is_terminal() and state.turn < 12:
        seat = state.current_player
        if seat == 0:
            state.apply(bot.choose(state.observation(0), rng))
            weighed.append(bot.bot_for(rules)._searcher.evidence_seat)
        else:
            state.apply(_choose.greedy_action(state.observation(seat).core, np.random.PCG64(state.turn)))
    assert weighed[0] == -1 and weighed[1:].count(1) >= len(weighed) - 2, weighed
    bot.start(rules, state.seats, 0)
    bot.choose(State.new(rules, seed=2).observation(0), rng)
    assert bot.bot_for(rules)._searcher.evidence_seat == -1


def test_a_time_budget_is_each_searchs_own():
    """``search:time=T`` hands T to whichever search plays; on the clock, the compiled
    loop (counted budgets only) does not play it."""
    bot = make_bot("search:time=0.25")
    blind, draft = _rules("classic", 2, None), _rules("draft", 2, None)
    assert bot.spec_for(blind) == "rollout:depth=12,worlds=1000000,time=0.25,infer=0.5"
    assert bot.spec_for(blind, evidence=False) == "rollout:depth=12,worlds=1000000,time=0.25"
    assert bot.spec_for(draft) == "mcts:iters=0,time=0.25,recall=true"
    assert (
        make_bot(bot.spec_for(draft)).options["time"] == 0.25
        and make_bot(bot.spec_for(draft)).options["recall"]
    )
    assert bot.loop_chooser(blind) is None and bot.loop_chooser(draft) is None
    assert not match._plays_cheap_games(MatchConfig(bots=("search", "greedy")), None)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("search:time=-1", "bot search: parameter time must be at least 0"),
        ("search:iters=5", "bot search: unknown parameter 'iters' (known: time)"),
        ("search:time=soon", "bot search: parameter time takes a float, not 'soon'"),
    ],
)
def test_bad_specs_are_refused_in_one_line(spec, message):
    with pytest.raises(BotError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec)
