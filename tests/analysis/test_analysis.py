"""Position analysis and game annotation (seqsolve.analysis, ``seqsolve analyze`` / ``annotate``).

The tactics in ``tests/data/tactics/`` are hand-built positions (readable form, RULES.md §5.2)
whose best turn is known; each names it in an ``x-best:`` line (alternatives separated by
``|``), and ``x-exact:`` says whether the answer is exact (``win``: ranked first with
probability 1; ``block``: the only turn that stops an immediate win).  Bad input follows
P-11 and the one-line error rule of the command line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import fails, ok

from seqsolve.analysis.annotate import annotate_record
from seqsolve.analysis.results import AnalysisError
from seqsolve.analysis.search import analyze
from seqsolve.cli.position import load_position
from seqsolve.games.sequence.notation import parse_position, read_position
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.games.sequence.threats import immediate_wins, threat_summary
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.records import RecordError

TACTICS = Path(__file__).parents[1] / "data" / "tactics"
ITERS = 20_000


def _tags(path: Path) -> dict[str, str]:
    """The ``x-`` extension keys of a readable position file (ignored by the reader, P-10)."""
    tags = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip().lower().startswith("x-"):
            tags[key.strip().lower()[2:]] = value.strip()
    return tags


def analyze_position(pos, **options):
    """:func:`analyze` of a position's state, dealt with the analysis seed (as ``seqsolve analyze`` reads it)."""
    return analyze(State.from_position(pos, seed=options.get("seed", 0)), **options)


def _stable(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "seconds"}


# ---------------------------------------------------------------- tactics


@pytest.mark.parametrize("bot, iterations", [("mcts", ITERS), ("search", None)], ids=["tree", "default"])
@pytest.mark.parametrize("path", sorted(TACTICS.glob("*.txt")), ids=lambda p: p.stem)
def test_tactics_find_the_known_best_turn(path, bot, iterations):
    """The tree at a fixed budget, and the default search (rollouts wherever the draw is
    blind) at its default budget, find each tactic's best turn."""
    tags = _tags(path)
    best = [b.strip() for b in tags["best"].split("|")]
    open_information = tags.get("open") == "yes"
    analysis = analyze_position(
        read_position(path), bot=bot, iterations=iterations, seed=0, open_information=open_information
    )
    top = analysis.moves[0]
    assert top.move in best, [(m.move, m.share, m.win) for m in analysis.moves[:5]]
    exact = tags.get("exact")
    if exact == "win":
        assert top.exact == "win" and top.win == 1.0 and top.win_ci == (1.0, 1.0)
        assert analysis.tactics.win_in_one[0] == top.move
    elif exact == "block":
        assert top.block is True
        assert analysis.tactics.blocks == [top.move]  # the only turn that stops it
        assert not analysis.tactics.no_block
        assert all(m.block is False for m in analysis.moves[1:])


def test_every_tactic_has_a_best_turn_and_the_set_covers_the_issue():
    names = {p.stem for p in TACTICS.glob("*.txt")}
    assert {"win-in-one", "forced-block", "jack-breaks-four", "jack-double-threat", "exchange-open"} <= names
    for path in TACTICS.glob("*.txt"):
        assert "best" in _tags(path), path


def test_exchange_that_matters_with_hidden_cards():
    """Without --open the replacement is unknown: 6 of the 97 cards blue has not seen (AH twice,
    JD twice, JC twice) win at once, so exchanging the dead 5S first beats every turn without it."""
    analysis = analyze_position(read_position(TACTICS / "exchange-open.txt"), iterations=5000, seed=0)
    top = analysis.moves[0]
    assert top.move.startswith("~5S ") and top.replacement_wins == pytest.approx(6 / 97)
    plain = analysis.find(top.move.split(" ", 1)[1])
    assert analysis.moves[1] is plain and top.win >= plain.win
    assert top.move.split(" ", 1)[1] == plain.move  # the exchange ranks just above its own play


def test_no_block_exists_against_a_double_threat():
    text = (TACTICS / "jack-breaks-four.txt").read_text().replace("hand 0: JS ", "hand 0: 4S ")
    analysis = analyze_position(parse_position(text), iterations=2000, seed=0)
    tactics = analysis.tactics
    assert {t["cell"] for t in tactics.threats} == {"e3", "a7"}
    assert all(t["possible"] and t["side"] == "g" for t in tactics.threats)
    assert tactics.blocks == [] and tactics.no_block
    assert all(m.block is False for m in analysis.moves)


def test_threat_possibility_follows_the_cards_seen():
    """A winning cell whose card and wild cards are all in the analyst's hand or the discards is
    not a threat; with open information only the side's own hands count."""
    text = (TACTICS / "forced-block.txt").read_text()
    # 3D and every two-eyed jack visible: green cannot hold a card for d3
    seen = text.replace("hand 0: 3D 2S 3S 9C 8H TC KD", "hand 0: 3D 3D 2S 3S 9C 8H TC").replace(
        "discard 0: -", "discard 0: JD JD JC JC"
    )
    state = State.from_position(parse_position(seen)).observation(0)
    (threat,) = immediate_wins(state, 1)
    assert threat["cell"] == "d3" and threat["card"] == "3D" and not threat["possible"]
    analysis = analyze(state, iterations=1000, seed=0)
    assert analysis.tactics.blocks == [] and not analysis.tactics.no_block
    assert all(m.block is None for m in analysis.moves)


# ---------------------------------------------------------------- threat summary


def test_threat_summary_lists_windows_cards_and_dead_cards():
    state = State.from_position(read_position(TACTICS / "jack-breaks-four.txt")).observation(0)
    blue, green = threat_summary(state)
    assert (green.colour, green.count, green.needed, green.sequences) == ("g", 1, 2, ["g:j1-j5"])
    assert {(w["window"], tuple(w["cells"]), w["wins"]) for w in green.one_away} == {
        ("e3-e7", ("e3",), True),
        ("a7-e7", ("a7",), True),
    }
    assert green.cells["e3"]["card"] == "4D" and green.cells["e3"]["live"]
    assert green.cells["e3"]["unseen"] == 2 and green.cells["e3"]["holders"] == []
    assert green.wild["cards"] == ["JD", "JC"] and green.wild["unseen"] == 4
    assert blue.sequences == ["b:a10-e10"] and blue.dead_cards == {}
    assert all(len(w["cells"]) == 2 for w in blue.two_away + green.two_away)

    dead = State.from_position(read_position(TACTICS / "exchange-open.txt")).observation(0)
    blue, _ = threat_summary(dead)
    assert blue.dead_cards == {0: ["5S"]}
    assert blue.cells["g5"]["card"] == "AH" and blue.cells["g5"]["unseen"] == 2


def test_overlap_options_limit_the_windows():
    """RULES.md §5.5 example 3: a5-e5 would be blue's third sequence under the defaults, but
    with overlap_reuse_limit=1 (e4-e8 already crossed by e6-i6) it cannot count."""
    state = load_position("example:3")
    blue = threat_summary(state.observation(2))[0]
    assert all(w["window"] != "a5-e5" for w in blue.one_away)
    text = (Path(__file__).parents[1] / "data" / "example3.sqn").read_text()
    loose = parse_position(text.replace("overlap_reuse_limit=1", "overlap_reuse_limit=unlimited"))
    blue = threat_summary(State.from_position(loose).observation(2))[0]
    assert any(w["window"] == "a5-e5" and w["wins"] for w in blue.one_away)


# ---------------------------------------------------------------- search statistics


def test_determinism_with_a_seed_and_jobs():
    def run(seed: int, jobs: int = 1) -> dict:
        return analyze(
            load_position("example:2", seed), bot="mcts", iterations=4000, seed=seed, jobs=jobs
        ).to_dict()

    one = run(3)
    assert _stable(one) == _stable(run(3))
    two = run(3, jobs=2)
    assert _stable(two) == _stable(run(3, jobs=2))
    assert two["iterations"] == 4000 and two["jobs"] == 2
    other = run(4)
    assert [m["visits"] for m in other["moves"]] != [m["visits"] for m in one["moves"]]


def test_merged_root_statistics_are_consistent():
    analysis = analyze(load_position("example:2", 1), bot="mcts", iterations=6000, seed=1, jobs=3)
    assert sum(m.visits for m in analysis.moves) == analysis.iterations == 6000
    assert sum(m.share for m in analysis.moves) == pytest.approx(1.0)
    legal = {str(m) for m in load_position("example:2").legal_moves()}
    assert {m.move for m in analysis.moves} == legal
    for m in analysis.moves:
        low, high = m.win_ci
        assert 0.0 <= low <= m.win <= high <= 1.0
        assert m.pv[0] == m.move


def test_time_budget_and_bot_parameters():
    analysis = analyze(load_position("example:2", 0), seconds=0.05, bot="mcts:c=0.3,depth=4", seed=0)
    # the budget ended the search (the clock is read every 64 iterations); the count depends on the load
    assert analysis.seconds >= 0.05 and analysis.iterations % 64 == 0
    with pytest.raises(AnalysisError, match="search bot"):
        analyze(load_position("example:2", 0), bot="heuristic")


@pytest.mark.parametrize(
    "variant, players, teams",
    [
        ("classic", 3, None),
        ("classic", 6, 3),
        ("classic", 12, 2),
        ("seed000", 4, None),
        ("numbers", 2, None),
        ("draft", 4, None),
        ("classic[dead_card_exchanges_per_turn=unlimited]", 2, None),
    ],
)
def test_every_preset_and_player_count(variant, players, teams):
    state = State.new(parse_rules(variant, players=players, teams=teams), seed=5)
    for _ in range(30):
        state.apply(state.core.random_action())
    assert not state.is_terminal()
    analysis = analyze(state, iterations=800, seed=0)
    legal = state.observation(state.current_player).legal_actions()
    assert {m.actions[0] for m in analysis.moves} == set(legal)
    assert len(analysis.threats) == state.rules.teams
    hidden = analyze(state, iterations=800, seed=0, open_information=True)
    assert hidden.open_information and len(hidden.moves) == len(analysis.moves)


# ---------------------------------------------------------------- command line


def test_cli_json_has_the_documented_keys():
    data = json.loads(ok("analyze", "example:2", "--iters", "3000", "--json", "--top", "3"))
    assert data["to_move"] == 1 and data["iterations"] == 3000 and data["legal_turns"] == 7
    assert len(data["moves"]) == 3
    for m in data["moves"]:
        assert {"move", "share", "win", "win_ci", "pv"} <= set(m)
        assert len(m["win_ci"]) == 2 and m["pv"][0] == m["move"]
    assert {"win_in_one", "opponent_wins", "blocks", "no_block"} <= set(data["exact"])
    assert [t["side"] for t in data["threats"]] == ["b", "g"]
    assert {"one_away", "two_away", "cells", "wild", "dead_cards", "sequences"} <= set(data["threats"][0])


def test_cli_text_report():
    out = ok("analyze", str(TACTICS / "win-in-one.txt"), "--iters", "2000", "--top", "3")
    assert "AH@g5" in out.splitlines()[4] and "(wins now)" in out
    assert "blue wins now with AH@g5" in out
    assert "green on d3 with 3D" in out
    assert "… 11 more legal turns" in out
    out = ok("analyze", str(TACTICS / "exchange-open.txt"), "--open", "--iters", "2000", "--jobs", "2")
    assert "~5S AH@g5" in out.splitlines()[4] and "dead cards in seat 0's hand: 5S" in out


FINISHED = "classic[sequences_to_win=1] *8*/BBBBB5/10/10/10/10/10/10/10/*8* bg !b 3S,JS,7H,JH,6D,TD,6C/?7 -/- b:a2-e2 90 0 0"
UNLISTED = "classic *8*/10/10/10/10/10/10/10/10/*8* bg 1 3S,JS,7H,JH,6D,TD,6C/?7 -/- - 90 0 0"
TOO_MANY = "classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 3S,JS,7H,JH,6D,TD,6C/?7 -/- - 91 0 0"


def test_cli_bad_input_is_one_line():
    assert "the game is over (result b)" in fails("analyze", "-", input=FINISHED)
    assert "seat 1's cards are not listed: analyze needs the cards of the side to move" in fails(
        "analyze", "-", input=UNLISTED
    )
    assert "P-11.7" in fails("analyze", "-", input=TOO_MANY)
    line = fails("analyze", "example:2", "--open")
    assert "hand 0 holds 7 unknown" in line and "draw pile's 56 cards are not listed" in line
    assert "unknown parameter 'foo'" in fails("analyze", "example:2", "mcts:foo=1")
    assert "search bot" in fails("analyze", "example:2", "greedy")
    assert "--frobnicate" in fails("analyze", "example:2", "--frobnicate", code=2)
    assert "--jobs" in fails("analyze", "example:2", "--jobs", "0", code=2)


# ---------------------------------------------------------------- annotate


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """Two short recorded games of random against greedy (so there are blunders to find)."""
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    run_games(MatchConfig(bots=("random", "greedy"), seed=3), 2, jobs=1, out=str(path))
    return path


def test_annotate_marks_blunders_of_the_random_player(recorded):
    from seqsolve.play.records import read_records

    _, games = read_records(str(recorded))
    record = games[0]
    result = annotate_record(record, iterations=100, seed=0)
    decisions = result["decisions"]
    assert decisions and all(d["drop"] is not None and d["drop"] >= 0 for d in decisions)
    random_seat = record["seats"].index("random")
    marked = [d for d in decisions if d["mark"]]
    assert any(d["seat"] == random_seat and d["mark"] == "blunder" for d in marked)
    for d in marked:
        assert d["best"] != d["played"] and d["win_best"] - d["win_played"] == pytest.approx(d["drop"])
    summary = {s["seat"]: s for s in result["summary"]}
    assert summary[random_seat]["mean_drop"] > summary[1 - random_seat]["mean_drop"]
    assert summary[random_seat]["bot"] == "random"
    # one seat, and the same answers whatever --jobs
    mine = annotate_record(record, seats=[random_seat], iterations=100, seed=0, jobs=2)
    assert mine["decisions"] == [d for d in decisions if d["seat"] == random_seat]


def test_annotate_cli(recorded):
    out = ok("annotate", str(recorded), "--game", "0", "--iters", "60", "--seat", "0")
    first = out.splitlines()[0]
    assert first.startswith("game 0: classic, 2 players; ") and " won after " in first
    assert "seat 0 (blue, random):" in out
    data = json.loads(ok("annotate", str(recorded), "--game", "1", "--iters", "40", "--json"))
    assert {"decisions", "summary", "thresholds", "result"} <= set(data)
    assert {"ply", "turn", "seat", "played", "win_played", "best", "win_best", "drop", "mark"} <= set(
        data["decisions"][0]
    )
    assert fails("annotate", str(recorded), "--game", "7") == (  # bad input, exit 1
        f"seqsolve: {recorded} has no game 7 (it holds 2 games)"
    )
    assert "seat 4 does not exist" in fails("annotate", str(recorded), "--game", "0", "--seat", "4")
    assert "mistake <= blunder" in fails(
        "annotate", str(recorded), "--game", "0", "--mistake", "0.3", "--blunder", "0.2"
    )


def test_annotate_refuses_a_record_that_cannot_be_replayed(recorded):
    from seqsolve.play.records import read_records

    _, games = read_records(str(recorded))
    record = dict(games[0], moves=["AH@a1", *games[0]["moves"][1:]])
    with pytest.raises(RecordError, match="games.jsonl:2: move 1 'AH@a1' cannot be replayed"):
        annotate_record(record, iterations=100, where="games.jsonl:2")
    with pytest.raises(RecordError, match="game record: the game record has no 'game'"):
        annotate_record({"moves": []}, iterations=100)
