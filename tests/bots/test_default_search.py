"""``search``, the default search: on each seating it is one fixed spec (``mcts`` where
two sides play, truncated rollouts where three do), move for move, in Python and in
the compiled loop, so the figures measured for those specs are its figures."""

from __future__ import annotations

import numpy as np
import pytest

from seqsolve import _choose
from seqsolve.bots import BotError, make_bot
from seqsolve.bots.default_search import SPECS
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.games.sequence.loop import for_sides
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.play import match
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game

#: a seating of each number of sides: (preset, players, teams, sides)
SEATINGS = [("classic", 2, None, 2), ("draft", 2, None, 2), ("numbers", 4, 2, 2),
            ("classic", 3, None, 3), ("seed000", 6, 3, 3)]


def _position(preset: str, players: int, teams: int | None, plies: int) -> State:
    """A position ``plies`` greedy actions into a seeded deal, as its mover sees it."""
    rules = parse_rules(preset, players=players, **({"teams": teams} if teams else {}))
    state = State.new(rules, seed=plies)
    for ply in range(plies):
        state.apply(_choose.greedy_action(state.observation(state.current_player).core, np.random.PCG64(ply)))
    return state.observation(state.current_player)


@pytest.mark.parametrize("preset, players, teams, sides", SEATINGS)
def test_search_chooses_as_the_spec_of_its_number_of_sides(preset, players, teams, sides):
    """From the same stream, on the same view, the same move as the spec it names."""
    search, spec = make_bot("search"), make_bot(SPECS[sides])
    assert search.spec_for(sides) == SPECS[sides]
    for plies in (0, 9, 23):
        view = _position(preset, players, teams, plies)
        assert view.rules.teams == sides
        ours = search.choose(view, np.random.default_rng(plies))
        theirs = spec.choose(view, np.random.default_rng(plies))
        assert ours == theirs
        assert ours in view.legal_actions()


@pytest.mark.parametrize("preset, players, teams, sides", SEATINGS)
def test_the_loop_gets_the_chooser_of_the_rules_sides(preset, players, teams, sides):
    """The compiled loop keeps the chooser of the game's sides, the very one the spec gives."""
    chooser = make_bot("search").loop_chooser()
    assert chooser is not None and chooser[0] == "search"
    assert for_sides(chooser, sides) == make_bot(SPECS[sides]).loop_chooser()
    barred = make_bot("restricted:no=corners,bot=search").loop_chooser()
    assert for_sides(barred, sides) == (*make_bot(SPECS[sides]).loop_chooser()[:2], 8)
    assert for_sides(("greedy", {}, 0), sides) == ("greedy", {}, 0)


@pytest.mark.parametrize("preset, players, teams", [("classic", 3, None), ("numbers", 4, 2)])
def test_a_whole_game_in_the_loop_is_the_python_runners(preset, players, teams):
    config = MatchConfig(bots=("search", "greedy"), variant=preset, players=players, teams=teams, seed=5)
    bots = [make_bot(spec) for spec in config.bots]
    loop = SEQUENCE.loop(config.rules(), [b.loop_chooser() for b in bots], None)
    assert loop is not None
    compiled = match._play_compiled(config, [0], loop, False, True)
    python = [play_game(config, 0)]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in compiled] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in python
    ]
    assert compiled[0]["moves"], "a game was played"


def test_a_time_budget_is_each_searchs_own():
    """``search:time=T`` hands T to whichever search plays; on the clock, the compiled
    loop (counted budgets only) does not play it."""
    bot = make_bot("search:time=0.25")
    assert bot.spec_for(2) == "mcts:iters=0,time=0.25"
    assert bot.spec_for(3) == "rollout:depth=12,worlds=1000000,time=0.25"
    assert make_bot(bot.spec_for(2)).options["time"] == 0.25
    assert bot.loop_chooser() is None
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
