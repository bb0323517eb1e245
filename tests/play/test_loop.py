"""The compiled game loop (seqsolve._loop): the same games and records as the Python
runner on every preset and seating, numpy's own streams, and the runner's choice
between the two."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from seqsolve import _loop, _search
from seqsolve.bots import make_bot
from seqsolve.cli import main
from seqsolve.games import RulesError, rules_for
from seqsolve.games.sequence.game import SEQUENCE, SequenceGame
from seqsolve.games.sequence.rules import PRESETS
from seqsolve.games.sequence.tally import GameDetail
from seqsolve.play import match
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game, run_games
from seqsolve.play.seeds import bot_seed, deal_seed, key_part, stream_words

#: weight files (benchmarks/tune_weights.py writes such files)
WEIGHTS = Path(__file__).parents[1] / "data" / "weights"
BLOCK2, MIXED = WEIGHTS / "block2.json", WEIGHTS / "mixed.json"

#: every seating (C-6): individual players, and teams of two or three sides
SEATINGS = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]


def _seated(preset: str, players: int, teams: int) -> bool:
    try:
        rules_for(preset, players, teams)
    except RulesError:  # the draft variant has two sides (D-2); a preset may cap the players
        return False
    return True


#: every preset with every seating it allows
PRESET_SEATINGS = [(preset, p, t) for preset in PRESETS for p, t in SEATINGS if _seated(preset, p, t)]


def _stable(records: list[dict]) -> list[list]:
    """Records without their timing, the one field that may differ between runs, as
    lists of fields: the order too is a record file's line."""
    return [[(k, v) for k, v in r.items() if k != "seconds"] for r in records]


def _python_runner(config: MatchConfig, games, detail=None) -> list[dict]:
    return [play_game(config, g, detail=detail) for g in games]


def _compiled(config: MatchConfig, games, detail=None) -> list[dict]:
    bots = [make_bot(spec) for spec in config.bots]
    rules = config.rules()
    loop = SEQUENCE.loop(rules, [b.loop_chooser(rules) for b in bots], detail)
    assert loop is not None, "the compiled loop must play these bots"
    return match._play_compiled(config, list(games), loop, detail is not None, True)


# ---------------------------------------------------------------- numpy's streams


@pytest.mark.parametrize(
    "seed, key",
    [
        (0, (0,)),
        (1, (5, 1, 0)),
        (2**63 - 1, (10**9, 3, 11)),
        (2**32, (2**32 + 7,)),
        (12345, ("balance", "classic[sequences_to_win=3]", 6, 3, 0, "restrict:two_eyed", 17, 2, 5)),
        (7, ("tournament", 4, 0, 1, 1)),
    ],
)
def test_stream_words_seed_numpys_own_pcg64(seed, key):
    """The loop seeds PCG64 in C from the words numpy's SeedSequence hashes: the states
    equal numpy's, and so do the numbers drawn (STYLE habit 6: numpy's streams)."""
    words = stream_words(seed, key[:-1])
    last = key_part(key[-1])
    words += [last & 0xFFFFFFFF] + ([last >> 32] if last >> 32 else [])
    ours = _loop.pcg64_state(words)
    theirs = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=tuple(key_part(p) for p in key))).state
    assert ours == theirs["state"]


def test_the_match_streams_are_the_runners():
    """A deal's and a seat's stream under a match's words are seeds.deal_seed / bot_seed."""
    stream = ("balance", "draft", 4, 2, 1, "self")
    words = stream_words(99, stream)
    assert _loop.pcg64_state(words + [3]) == np.random.PCG64(deal_seed(99, 3, stream)).state["state"]
    assert (
        _loop.pcg64_state(words + [3, 2, 1]) == np.random.PCG64(bot_seed(99, 3, 1, 1, stream)).state["state"]
    )


# ---------------------------------------------------------------- parity with the Python runner


@pytest.mark.parametrize("preset, players, teams", PRESET_SEATINGS)
def test_every_preset_and_seating_plays_the_python_runners_games(preset, players, teams):
    """Paired games (bots rotated over the sides) and fixed-seat self-play with the
    balance detail: the compiled loop's records are the Python runner's, move for move."""
    paired = MatchConfig(bots=("greedy", "random"), variant=preset, players=players, teams=teams, seed=31)
    assert _stable(_compiled(paired, range(teams))) == _stable(_python_runner(paired, range(teams)))
    selfplay = MatchConfig(
        bots=("heuristic",),
        variant=preset,
        players=players,
        teams=teams,
        seed=32,
        fixed_seats=True,
        stream=("balance", preset, players, teams, 0, "self"),
    )
    ours = _compiled(selfplay, range(2), SEQUENCE.tally)
    assert _stable(ours) == _stable(_python_runner(selfplay, range(2), SEQUENCE.tally))
    assert all(r["moves"] and "detail" in r for r in ours)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_one_bot_per_side_and_per_seat(preset):
    """Three sides with a bot each, and self-play with a bot per seat (balance's seatings)."""
    sides = 3 if _seated(preset, 3, 3) else 2
    per_side = MatchConfig(
        bots=("heuristic", "greedy", "random")[:sides], variant=preset, players=sides, seed=5
    )
    assert _stable(_compiled(per_side, range(2 * sides))) == _stable(
        _python_runner(per_side, range(2 * sides))
    )
    per_seat = MatchConfig(
        bots=("random", "greedy", "heuristic", "greedy"), variant=preset, players=4, fixed_seats=True, seed=6
    )
    assert _stable(_compiled(per_seat, range(3), GameDetail)) == _stable(
        _python_runner(per_seat, range(3), GameDetail)
    )


def test_a_single_legal_action_draws_nothing_from_the_random_bots_stream():
    """numpy's ``integers(1)`` draws nothing, and the random bot's stream must not move
    either when one action is legal (often a forced pass in a 12-player game)."""
    config = MatchConfig(bots=("random",), players=12, teams=3, fixed_seats=True, seed=3)
    ours = _compiled(config, range(4), GameDetail)
    assert sum(r["plies"] - r["detail"]["decisions"] for r in ours) > 20  # single-action plies
    assert _stable(ours) == _stable(_python_runner(config, range(4), GameDetail))


@pytest.mark.parametrize("inner", ["random", "greedy", f"heuristic:weights={BLOCK2}"])
@pytest.mark.parametrize(
    "barred", ["two_eyed", "one_eyed", "exchange", "corners", "two_eyed+one_eyed+exchange+corners"]
)
def test_restricted_bots_play_as_in_python(inner, barred):
    """A restricted bot (balance's restricted play) chooses in C exactly as RestrictedBot
    does: the inner bot on the barred tables, a random allowed action after a pass
    that only the bar made legal, unrestricted when nothing is allowed."""
    spec = f"restricted:no={barred},bot={inner.replace(',', ';')}"
    for preset in ("classic", "draft"):
        config = MatchConfig(bots=(inner, spec), variant=preset, seed=8)
        assert _stable(_compiled(config, range(6))) == _stable(_python_runner(config, range(6)))


#: every preset at 2, 3 (three sides) and 4 players (two teams) where it allows them
SEARCH_SEATINGS = [
    (preset, p, t) for preset in PRESETS for p, t in ((2, 2), (3, 3), (4, 2)) if _seated(preset, p, t)
]


@pytest.mark.parametrize("preset, players, teams", SEARCH_SEATINGS)
@pytest.mark.parametrize("spec, rival", [("mcts:iters=200", "greedy"), ("rollout:worlds=20", "heuristic")])
def test_searching_bots_play_the_python_runners_games(spec, rival, preset, players, teams):
    """mcts and rollout search in the loop from the seat's own stream, on the mover's
    view, as MCTSBot and RolloutBot do: the same records, move for move."""
    config = MatchConfig(bots=(spec, rival), variant=preset, players=players, teams=teams, seed=45)
    assert _stable(_compiled(config, range(teams))) == _stable(_python_runner(config, range(teams)))


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:iters=1000000,work=300000",  # the work budget ends every search
        f"mcts:iters=150,others=1,top=4,puct=0.5,depth=-1,weights={BLOCK2}",
        "rollout:worlds=3,k=3,halve=1,policy=heuristic",
        f"rollout:worlds=6,k=3,halve=1,weights={MIXED}",
        "rollout:worlds=4,k=1",
        "rollout:worlds=40,depth=6,work=60000",  # truncated playouts, cut by the work budget
        "rollout:worlds=30,k=4,halve=1,depth=3,work=40000",
        "restricted:no=two_eyed,bot=mcts:iters=100",
        "restricted:no=corners+exchange,bot=rollout:worlds=5;halve=1",
    ],
)
def test_search_options_play_as_in_python(spec):
    """Budgets, tree and playout options, sequential halving and restricted searchers
    (the search on the barred tables) choose in the loop as in Python."""
    for preset in ("classic", "draft"):
        config = MatchConfig(bots=(spec, "greedy"), variant=preset, seed=43)
        assert _stable(_compiled(config, range(2))) == _stable(_python_runner(config, range(2)))


@pytest.mark.parametrize(
    "variant, players, teams",
    [
        ("classic[first_turn_short=2]", 2, 2),  # K-3
        ("classic[head_start=2]", 3, 3),  # K-5
        ("classic[head_start=1,first_seat=1]", 4, 2),  # K-5 with teams
        ("classic[head_start=2,head_start_edge=on]", 3, 3),  # K-6
        ("classic[hand_bonus=1,first_turn_jacks=off,first_turn_short=1,head_start=1]", 2, 2),  # K-1..K-5
        ("draft[first_turn_short=1]", 2, 2),  # K-3 in the draft
        ("draft[hand_bonus=1,first_turn_short=1]", 2, 2),  # K-1, K-3 in the draft
    ],
)
def test_compensation_rules_play_as_in_python(variant, players, teams):
    """K-1 to K-5 (docs/rules.md §2.5) in the compiled loop: the deal, the first turn and
    the board before it as the Python runner plays them, for one-ply bots (greedy self-play
    on its cell sums) and a search."""
    for bots in (("greedy", "greedy"), ("greedy", "random"), ("heuristic", "mcts:iters=60")):
        config = MatchConfig(bots=bots, variant=variant, players=players, teams=teams, seed=47)
        assert _stable(_compiled(config, range(teams))) == _stable(_python_runner(config, range(teams)))


def test_halted_searches_end_the_loops_match():
    """halt() is how Ctrl-C reaches searches off the main thread: the loop's match ends
    with KeyboardInterrupt instead of playing on with unsearched moves."""
    config = MatchConfig(bots=("mcts:iters=50", "rollout:worlds=3"), seed=44)
    rules = config.rules()
    for spec in config.bots:
        loop = SEQUENCE.loop(rules, [make_bot(spec).loop_chooser(rules), ("random", None, 0)])
        _search.halt()
        try:
            with pytest.raises(KeyboardInterrupt):
                loop.play(stream_words(config.seed, config.stream), [(0, 0, [0, 1])], False, False)
        finally:
            _search.halt(False)
        assert loop.play(stream_words(config.seed, config.stream), [(0, 0, [0, 1])], False, False)[0][4] > 0


def test_weights_in_the_spec_play_as_in_python():
    config = MatchConfig(bots=(f"heuristic:weights={MIXED}", f"greedy:weights={BLOCK2}"), seed=4)
    assert _stable(_compiled(config, range(6))) == _stable(_python_runner(config, range(6)))


# ---------------------------------------------------------------- the runner's choice


def test_match_picks_the_compiled_loop_and_writes_the_same_record_file(tmp_path, monkeypatch):
    """run_games uses the loop when every bot has a compiled chooser; with the loop
    switched off it writes the same record file, line for line but the timing."""
    config = MatchConfig(bots=("heuristic", "greedy"), variant="draft", seed=21)
    compiled, python = tmp_path / "compiled.jsonl", tmp_path / "python.jsonl"
    played = []
    real = SequenceGame.loop

    def spy(self, *args):
        loop = real(self, *args)
        played.append(loop is not None)
        return loop

    monkeypatch.setattr(SequenceGame, "loop", spy)
    run_games(config, 8, jobs=1, out=str(compiled), chunk=4)
    assert played and all(played)
    monkeypatch.setattr(SequenceGame, "loop", lambda self, *args: None)
    run_games(config, 8, jobs=1, out=str(python), chunk=4)
    lines = [[json.loads(line) for line in path.read_text().splitlines()] for path in (compiled, python)]
    assert lines[0][0] == lines[1][0]  # the headers
    assert _stable(lines[0][1:]) == _stable(lines[1][1:])


def test_records_without_a_file_leave_out_the_moves():
    config = MatchConfig(bots=("random", "greedy"), seed=2)
    records = run_games(config, 4, jobs=1)
    assert all("moves" not in r and r["plies"] > 0 for r in records)


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:time=0.01",
        "mcts:iters=10,cap=1",
        "mcts:iters=10,infer=1",
        "mcts:iters=10,open=1",
        "rollout:worlds=2,time=1",
        "rollout:worlds=2,infer=1",
        "rollout:worlds=2,see=hands",
        "restricted:no=corners,bot=mcts:iters=10;time=1",
    ],
)
def test_searching_bots_stay_on_the_python_runner(spec):
    """A search on the clock (time, cap), with evidence (infer) or seeing every card has
    no compiled chooser: the loop plays deterministic budgets only."""
    rules = MatchConfig(bots=(spec, "random")).rules()
    assert SEQUENCE.loop(rules, [make_bot(spec).loop_chooser(rules), ("random", None, 0)]) is None


def test_searching_bots_keep_the_python_runners_chunks():
    """A search's game costs seconds in the loop too: its matches keep 64-game chunks
    (progress, an SPRT's stop, what Ctrl-C loses), only searchless ones grow to 512."""
    assert match._plays_cheap_games(MatchConfig(bots=("greedy", "restricted:no=corners,bot=random")), None)
    # ``search`` with two seats reads the last play, in Python: its loop is with three
    for spec, players in (
        ("mcts:iters=10", 2),
        ("rollout:worlds=2", 2),
        ("restricted:no=corners,bot=mcts:iters=10", 2),
        ("search", 3),
    ):
        rules = MatchConfig(bots=(spec,), players=players).rules()
        assert SEQUENCE.loop(rules, [make_bot(spec).loop_chooser(rules)]) is not None
        assert not match._plays_cheap_games(MatchConfig(bots=(spec, "greedy")), None)


def test_another_tally_stays_on_the_python_runner():
    class Plies(GameDetail):
        pass

    rules = MatchConfig(bots=("random", "random")).rules()
    assert SEQUENCE.loop(rules, [("random", None, 0)] * 2, Plies) is None
    assert SEQUENCE.loop(rules, [("random", None, 0)] * 2, SEQUENCE.tally) is not None


def test_sprt_stops_at_the_same_deal_in_bigger_chunks(monkeypatch):
    """The compiled loop plays bigger chunks; an SPRT still stops at the same deal with
    the same numbers as the Python runner's 64-game chunks, and at any --jobs."""
    args = [
        "match",
        "greedy",
        "random",
        "--games",
        "4000",
        "--seed",
        "4",
        "--json",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
    ]
    keys = ("games", "wins", "draws", "score", "score_ci", "sprt", "turns")

    def summary(*extra):
        result = CliRunner().invoke(main, args + list(extra))
        assert result.exit_code == 0, result.stderr
        return {k: json.loads(result.stdout)[k] for k in keys}

    compiled = summary("--jobs", "1")
    assert compiled["sprt"]["decision"] == "H1" and compiled["games"] < 4000
    assert summary("--jobs", "2") == compiled
    monkeypatch.setattr(SequenceGame, "loop", lambda self, *a: None)
    assert summary("--jobs", "1") == compiled
