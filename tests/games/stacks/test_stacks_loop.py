"""Sequence Stacks' compiled game loop (``_stacks_bots.Lineup`` behind ``STACKS.loop``):
the same games and records as the Python runner, decision for decision, on every
player count and every mix of the §4.9 options, and the runner's choice between the two."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seqsolve import _stacks_bots
from seqsolve.bots import make_bot
from seqsolve.games.stacks.game import STACKS, StacksGame
from seqsolve.games.stacks.rules import make_rules
from seqsolve.games.stacks.state import stacks_tables
from seqsolve.games.stacks.tally import StacksDetail
from seqsolve.play import match
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game, run_games
from seqsolve.play.seeds import stream_words

#: the on/off options of RULES.md §4.9, every mix of them (ST-11, ST-3, ST-12, ST-19)
SWITCHES = {
    "stacks_refill": ("turn_start", "empty_hand_only"),
    "stacks_two_player_removal": ("true", "false"),
    "stacks_actions_from_discard": ("true", "false"),
    "stacks_steal_chip_can_win": ("false", "true"),
}
#: the numeric options of §4.9, their default first, then values that end games otherwise:
#: one pile per colour (ST-7), a supply that runs out (ST-4), low win targets (ST-21), a
#: turn cap that ends games (ST-22), seat 0's short or long first hand (K-4, K-7, never
#: both); each mix takes the next of each in turn
NUMBERS = {
    "stacks_max_piles_per_colour": (2, 1, 3),
    "stacks_chip_supply": (20, 3, 4),
    "stacks_win_chips,stacks_win_min_each": ((5, 2), (3, 1), (4, 0), (6, 3)),
    "max_turns": (3000, 30, 12),
    # K-4 and K-7 (docs/rules.md §2.5)
    "stacks_first_turn_short,stacks_first_hand_bonus": ((0, 0), (2, 0), (0, 3), (4, 0), (0, 5), (1, 0)),
}
PLAYERS = (2, 3, 4, 5, 6)


def _variant(index: int, switches: tuple[str, ...]) -> str:
    options = dict(zip(SWITCHES, switches))
    for names, values in NUMBERS.items():
        value = values[index % len(values)]
        options.update(zip(names.split(","), value if isinstance(value, tuple) else (value,)))
    return "stacks[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]"


#: every player count with every mix of the switches (16), the numbers rotating
MIXES = [
    (players, _variant(i + players, switches))
    for players in PLAYERS
    for i, switches in enumerate(itertools.product(*SWITCHES.values()))
]


def _lines(records: list[dict]) -> list[str]:
    """Records as a record file's lines, without their timing (the one field that may
    differ between two runs of the same game)."""
    return [json.dumps({k: v for k, v in r.items() if k != "seconds"}) for r in records]


def _compiled(config: MatchConfig, games, detail=None) -> list[dict]:
    bots = [make_bot(spec, STACKS) for spec in config.bots]
    rules = config.rules()
    loop = STACKS.loop(rules, [b.loop_chooser(rules) for b in bots], detail)
    assert loop is not None, "the compiled loop must play these bots"
    return match._play_compiled(config, list(games), loop, detail is not None, True)


def _python(config: MatchConfig, games, detail=None) -> list[dict]:
    return [play_game(config, g, detail=detail) for g in games]


def _same(config: MatchConfig, games, detail=None) -> list[dict]:
    compiled = _compiled(config, games, detail)
    assert _lines(compiled) == _lines(_python(config, games, detail))
    return compiled


@pytest.mark.parametrize("players, variant", MIXES)
def test_the_loop_plays_the_runners_games_under_every_option_mix(players, variant):
    """random against greedy with seats rotated (paired deals), and greedy self-play with
    the balance tally: byte for byte the records of the runner's own loop."""
    paired = MatchConfig(
        bots=("greedy", "random"), variant=variant, players=players, teams=players, seed=players
    )
    played = _same(paired, range(2 * players))
    tallied = MatchConfig(
        bots=("greedy",), variant=variant, players=players, teams=players, seed=7, fixed_seats=True
    )
    played += _same(tallied, range(3), STACKS.tally)
    assert all(r["plies"] == len(r["moves"]) > 0 for r in played)


def test_the_mixes_reach_every_ending_and_every_count():
    """The option mixes above end games in every way (ST-21, ST-22) and the tallied games
    count every kind of decision, so that the parity above covers them."""
    endings, counted = (
        set(),
        dict.fromkeys(("blocks", "steals_card", "steals_chip", "skips", "reverses", "recycles"), 0),
    )
    decided = set()
    for players, variant in MIXES:
        paired = MatchConfig(
            bots=("greedy", "random"), variant=variant, players=players, teams=players, seed=players
        )
        endings |= {r["termination"] for r in _compiled(paired, range(2 * players))}
        config = MatchConfig(
            bots=("greedy",), variant=variant, players=players, teams=players, seed=7, fixed_seats=True
        )
        for r in _compiled(config, range(3), STACKS.tally):
            endings.add(r["termination"])
            for key in counted:
                counted[key] += r["detail"][key]
            decided |= {key for key in ("block_decided", "steal_chip_won") if r["detail"][key]}
    assert endings == set(STACKS.terminations)
    assert all(counted.values()), counted
    assert decided == {"block_decided", "steal_chip_won"}


@pytest.mark.parametrize("players", PLAYERS)
def test_mcts_plays_the_runners_games(players):
    """A search with a work budget decides alike in both loops: the same observation, the
    same stream, the same search."""
    config = MatchConfig(
        bots=("mcts:work=1500,time=0,top=3", "random"),
        variant="stacks",
        players=players,
        teams=players,
        seed=3,
    )
    _same(config, range(players))


def test_mcts_with_iterations_and_the_tree_plays_the_runners_games():
    config = MatchConfig(
        bots=("mcts:iters=20,work=0,time=0,top=0", "greedy:block=matters"),
        seed=5,
        variant="stacks[stacks_refill=empty_hand_only]",
        players=3,
        teams=3,
    )
    _same(config, range(3))


def test_the_runner_plays_stacks_in_the_loop_unless_a_bot_has_no_chooser(monkeypatch, tmp_path):
    """run_games takes the compiled loop for built-in bots (the same records at any chunk
    size, and when a record file is resumed), and the Python runner for a bot without a
    chooser."""
    config = MatchConfig(bots=("random", "greedy"), variant="stacks", players=2, teams=2, seed=9)
    used = []
    real = StacksGame.loop

    def spy(self, *args):
        loop = real(self, *args)
        used.append(loop is not None)
        return loop

    monkeypatch.setattr(StacksGame, "loop", spy)
    out = str(tmp_path / "games.jsonl")
    run_games(config, 6, jobs=1, chunk=2, out=out)
    resumed = run_games(config, 12, jobs=1, chunk=4, out=out)
    assert used and all(used)
    assert _lines(resumed) == _lines(_python(config, range(12)))
    assert _lines(run_games(config, 12, jobs=1)) == _lines(
        [play_game(config, g, moves=False) for g in range(12)]
    )
    rules = config.rules()
    assert STACKS.loop(rules, [("random", None, 0), None]) is None


def test_a_tally_other_than_the_games_own_is_counted_in_python():
    class Other(StacksDetail):
        pass

    rules = make_rules("stacks", 2)
    assert STACKS.loop(rules, [("random", None, 0)], Other) is None
    assert STACKS.loop(rules, [("random", None, 0)], STACKS.tally) is not None


@pytest.mark.parametrize(
    "bots, message",
    [
        ([], "give 1 to 6 bots"),
        ([("heuristic", None, 0)], "no compiled Stacks chooser 'heuristic'"),
        ([("random", None, 1)], "bars no action"),
        ([("mcts", {"params": {}, "iterations": 0, "seconds": 0, "work": 0}, 0)], "give mcts a budget"),
    ],
)
def test_a_lineup_refuses_what_it_cannot_play_in_one_line(bots, message):
    with pytest.raises(ValueError, match=message):
        _stacks_bots.Lineup(stacks_tables(make_rules("stacks", 2)), bots)


def test_a_game_list_that_does_not_seat_every_player_is_refused():
    lineup = _stacks_bots.Lineup(stacks_tables(make_rules("stacks", 3)), [("random", None, 0)])
    with pytest.raises(ValueError, match="a bot for each of the 3 seats"):
        lineup.play(stream_words(1), [(0, 0, [0, 0])])
    with pytest.raises(ValueError, match="no bot 1 in a lineup of 1"):
        lineup.play(stream_words(1), [(0, 0, [0, 1, 0])])


def test_an_early_stop_keeps_whole_chunks_of_the_loops_games():
    """SPRT's stop (``on_records`` answering True) ends a compiled match after a chunk, with
    the games the runner would have played."""
    config = MatchConfig(bots=("greedy", "random"), variant="stacks", players=3, teams=3, seed=4)
    seen = []
    kept = run_games(
        config, 60, jobs=1, chunk=6, on_records=lambda records: seen.append(len(records)) or True
    )
    assert seen == [6] and [r["game"] for r in kept] == list(range(6))
    assert _lines(kept) == _lines([play_game(config, g, moves=False) for g in range(6)])


def test_halted_searches_end_the_loops_match():
    """halt() is how Ctrl-C reaches searches off the main thread: a match of the loop ends
    with KeyboardInterrupt instead of playing on with unsearched decisions."""
    config = MatchConfig(
        bots=("mcts:work=2000,time=0", "random"), variant="stacks", players=2, teams=2, seed=2
    )
    rules = config.rules()
    loop = STACKS.loop(rules, [make_bot(spec, STACKS).loop_chooser(rules) for spec in config.bots])
    STACKS.halt_searches()
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.play(stream_words(config.seed), [(0, 0, [0, 1])], False, False)
    finally:
        STACKS.halt_searches(False)
    assert loop.play(stream_words(config.seed), [(0, 0, [0, 1])], False, False)[0][3] > 0


@settings(max_examples=25)
@given(
    players=st.sampled_from(PLAYERS),
    bots=st.lists(st.sampled_from(["random", "greedy", "greedy:block=matters"]), min_size=2, max_size=2),
    seed=st.integers(0, 2**63 - 1),
    switches=st.tuples(*(st.sampled_from(v) for v in SWITCHES.values())),
    index=st.integers(0, 11),
)
def test_any_seed_lineup_and_options_play_the_runners_games(players, bots, seed, switches, index):
    config = MatchConfig(
        bots=tuple(bots), variant=_variant(index, switches), players=players, teams=players, seed=seed
    )
    _same(config, range(config.games_per_deal))
