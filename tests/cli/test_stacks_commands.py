"""Sequence Stacks (RULES.md §4, issue 13) through every command: positions shown,
played, converted and counted; matches, tournaments, replays and balance runs played
end to end (with a test-only random bot until Stacks' own bots land); the ``ext:``
line protocol spoken in Stacks positions and actions; analyze and annotate on the Stacks search.

Positions are docs/stacks.md's example and seeded deals of ``show --new``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import fails, ok
from stacks_helpers import with_random_bot

from seqsolve.games import read_state
from seqsolve.games.stacks.game import STACKS

EXAMPLE = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"
RANDOM_BOT = str(Path(__file__).parents[2] / "examples" / "random_bot.py")


@pytest.fixture
def example(tmp_path) -> str:
    path = tmp_path / "example.stn"
    path.write_text(EXAMPLE + "\n")
    return str(path)


def dealt(tmp_path, seed: int = 3, players: int = 2) -> str:
    """A freshly dealt Stacks game with every card listed (``show --new --json``'s STN)."""
    data = json.loads(
        ok("show", "--new", "--variant", "stacks", "--players", str(players), "--seed", str(seed), "--json")
    )
    path = tmp_path / f"dealt{seed}.stn"
    path.write_text(data["stn"] + "\n")
    return str(path)


# ---------------------------------------------------------------- positions


def test_show_draws_a_stacks_position_with_its_legal_decisions(example):
    """ST-8: a 4 goes on the blue 3, a wild starts or extends a pile; ST-14: any card may end the turn."""
    text = ok("show", example)
    assert "piles      B1 B2 B3  |  R1" in text and "seat 1     hand ?5" in text
    legal = next(line for line in text.splitlines() if line.startswith("legal"))
    assert {"B4", "BW>0", "BW>3", "R2", "SK", "~BK"} <= set(legal.split()[2:])
    assert text.rstrip().endswith("stn        " + EXAMPLE)
    data = json.loads(ok("show", example, "--json"))
    assert (
        data["stn"] == EXAMPLE
        and data["piles"] == [["B1", "B2", "B3"], ["R1"]]
        and data["hands"][1] == ["?"] * 5
    )
    assert "B4" in data["legal_moves"] and data["players"] == 2


def test_show_new_deals_and_plays_a_stacks_game_to_its_end():
    """ST-5 deals five cards each; random play ends in a win or a draw (ST-21, ST-22)."""
    data = json.loads(
        ok("show", "--new", "--variant", "stacks", "--players", "4", "--seed", "5", "--play-random", "--json")
    )
    assert data["players"] == 4 and data["result"] is not None and data["termination"] in STACKS.terminations
    state = read_state(data["stn"])
    assert state.is_terminal() and state.outcome().result == data["result"]
    again = json.loads(
        ok("show", "--new", "--variant", "stacks", "--players", "4", "--seed", "5", "--play-random", "--json")
    )
    assert again["played"] == data["played"]  # the seed fixes the game
    view = ok("show", "--new", "--variant", "stacks", "--players", "3", "--seed", "5", "--viewer", "1")
    assert "seat 0     hand ?5" in view and "seat 2     hand ?5" in view and "seat 1     hand ?" not in view


def test_apply_plays_whole_turns_in_stacks_notation(example):
    """ST-8: B4 builds on the blue 3; ST-14: the discard ends the turn, and play passes on."""
    out = ok("apply", example, "B4 ~SK")
    assert out == "stacks 1> BW,R2,BK/?5 R5,SK/B2 - B1+B2+B3+B4,R1 0b1r/0b0r 0/0 5 91 7 0\n"
    part = ok("apply", example, "BW>3", "--to", "readable")  # a turn may stop part-way
    assert "pile: B1 B2 B3 BW" in part and "to-move: 0" in part and "progress: yes" in part
    assert json.loads(ok("apply", example, "R2", "--to", "json"))["piles"][1] == ["R1", "R2"]


def test_apply_is_all_or_nothing_and_names_the_rule(example):
    assert fails("apply", example, "B4 ~SK", "R2 ~R2") == (
        "seqsolve: move 2 'R2 ~R2' is illegal: R2: seat 1 shows no R2 (this position does not show 5 of the mover's cards)"
    )
    assert fails("apply", example, "B4 B4") == "seqsolve: move 1 'B4 B4' is illegal: B4: seat 0 holds no B4"
    assert "(ST-15)" in fails("apply", example, "pass")


def test_convert_round_trips_every_form(example, tmp_path):
    readable = ok("convert", example, "--to", "readable")
    assert readable.startswith("seqsolve-position 1\nvariant: stacks\n")
    path = tmp_path / "back.txt"
    path.write_text(readable)
    assert ok("convert", str(path), "--to", "stn") == EXAMPLE + "\n"
    assert ok("convert", str(path), "--to", "sqn") == EXAMPLE + "\n"  # the one-line form of the file's game
    assert ok("convert", "-", "--to", "stn", input=readable) == EXAMPLE + "\n"
    data = json.loads(ok("convert", example, "--to", "json"))
    assert data["stn"] == EXAMPLE and data["chips"] == [[0, 1], [0, 0]] and data["aside_count"] == 5


def test_perft_counts_the_stacks_action_tree(tmp_path):
    """A deal with every card listed: --divide's parts add up to the count, which is the engine's."""
    path = dealt(tmp_path)
    total = int(ok("perft", path, "--depth", "3"))
    data = json.loads(ok("perft", path, "--depth", "3", "--divide", "--json"))
    assert data["nodes"] == total == sum(data["divide"].values()) > len(data["divide"]) > 1
    state = read_state(Path(path).read_text())
    assert state.perft(3) == total and set(data["divide"]) == {
        state.action_to_string(a) for a in state.legal_actions()
    }


def test_bench_times_stacks_random_games_next_to_classic():
    data = json.loads(ok("bench", "--json", "--games", "20", "--scans", "10"))
    stacks = data["stacks"]
    assert stacks["variant"] == "stacks" and stacks["games"] == 2 and stacks["actions"] > stacks["games"]
    assert stacks["games_per_s"] > 0
    assert "Stacks random games (2p)" in ok("bench", "--games", "10", "--scans", "5")


def test_analyze_ranks_every_decision_of_the_seat_to_move(example, tmp_path):
    """The Stacks mcts search (docs/stacks.md "Bots") ranks each legal decision on its own,
    after the exact facts: here no seat is a chip from the win, so there are none."""
    data = json.loads(ok("analyze", example, "mcts:iters=300,time=0", "--seed", "1", "--json"))
    legal = {read_state(EXAMPLE).action_to_string(a) for a in read_state(EXAMPLE).legal_actions()}
    assert data["variant"] == "stacks" and data["to_move"] == 0 and data["iterations"] == 300
    assert {m["move"] for m in data["moves"]} == legal and data["legal_turns"] == len(legal)
    assert all(0 <= m["win"] <= 1 and m["pv"][0].startswith(m["move"]) for m in data["moves"])
    assert data["exact"]["opponent_wins"] == [] and data["exact"]["win_unless_blocked"] == []
    text = ok("analyze", example, "--iters", "300", "--seed", "1", "--top", "3")
    assert "seat 0 (seat 0) to move" in text and "300 iterations" in text
    assert "exact      no side can win on its next turn" in text
    hidden = tmp_path / "seat1.stn"
    hidden.write_text(EXAMPLE.replace("stacks 0>", "stacks 1>") + "\n")
    assert "seat 1's cards are not listed" in fails("analyze", str(hidden))


def test_annotate_marks_the_decisions_of_a_stacks_match_record(tmp_path):
    records = tmp_path / "games.jsonl"
    ok(
        "match",
        "greedy",
        "random",
        "--variant",
        "stacks",
        "--games",
        "2",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--out",
        str(records),
    )
    data = json.loads(ok("annotate", str(records), "--game", "0", "--iters", "60", "--seed", "1", "--json"))
    moves = json.loads(records.read_text().splitlines()[1])["moves"]
    assert data["variant"] == "stacks" and data["decisions"]
    for d in data["decisions"]:
        assert d["played"] == moves[d["ply"] - 1] and d["drop"] >= 0
        assert d["mark"] in (None, "mistake", "blunder")
    assert {s["bot"] for s in data["summary"]} == {"greedy", "random"}
    text = ok("annotate", str(records), "--game", "0", "--iters", "60", "--seed", "1")
    assert text.startswith(f"game 0: stacks, 2 players; {data['result_text']}")


# ---------------------------------------------------------------- the runners


@pytest.mark.parametrize("players", [2, 3, 5])
def test_match_and_replay_play_stacks_end_to_end(tmp_path, monkeypatch, players):
    """Paired deals over 2..6 seats, records replayed action by action (a Block window's
    answers in the turn that opened it), the position after any action written back."""
    with_random_bot(monkeypatch)
    records = tmp_path / "games.jsonl"
    args = (
        "match",
        "random",
        "random",
        "--variant",
        "stacks",
        "--players",
        str(players),
        "--games",
        str(players),
        "--seed",
        "4",
        "--jobs",
        "1",
        "--out",
        str(records),
    )
    summary = json.loads(ok(*args, "--json"))
    assert summary["games"] == players and summary["teams"] == players and summary["variant"] == "stacks"
    lines = [json.loads(line) for line in records.read_text().splitlines()[1:]]
    assert all(
        r["result"] in ("draw", *"012345"[:players]) and r["termination"] in STACKS.terminations
        for r in lines
    )
    text = ok("replay", str(records), "--game", "1")
    assert text.startswith("game 1: stacks, seats 0 (seat 0, random)") and "result: " in text
    game = lines[1]
    position = ok("replay", str(records), "--game", "1", "--ply", str(game["plies"]))
    assert read_state(position).is_terminal()
    assert ok(*args).startswith(
        f"match random vs random — stacks, {players} players, {players} sides"
    )  # resumed


def test_tournament_between_a_bot_and_an_external_program(tmp_path, monkeypatch):
    with_random_bot(monkeypatch)
    spec = f"ext:{sys.executable} {RANDOM_BOT}"
    report = json.loads(
        ok(
            "tournament",
            "random",
            spec,
            "--variant",
            "stacks",
            "--games",
            "4",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--json",
        )
    )
    assert {r["bot"] for r in report["ratings"]} == {"random", spec}


def test_balance_measures_stacks_over_seatings_and_options(tmp_path, monkeypatch):
    """§4.9's refill option against player counts, with Stacks' own metrics and the report."""
    with_random_bot(monkeypatch)
    out = tmp_path / "run"
    data = json.loads(
        ok(
            "balance",
            "random",
            "--variant",
            "stacks",
            "--vary",
            "players=2,4",
            "--vary",
            "stacks_refill=turn_start,empty_hand_only",
            "--games",
            "6",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--json",
        )
    )
    points = data["variants"]
    assert [(p["variant"], p["players"]) for p in points] == [
        (f"stacks[stacks_refill={refill}]", players)
        for players in (2, 4)
        for refill in ("turn_start", "empty_hand_only")
    ]
    for p in points:
        assert p["games"] == 6 and len(p["seat_win"]) == p["players"] and p["teams"] == p["players"]
        assert p["blocks_mean_ci"][0] <= p["blocks_mean"] <= p["blocks_mean_ci"][1]
        assert 0 <= p["block_decided_rate"] <= 1 and p["recycles_mean"] >= 0
    report = (out / "balance.md").read_text()
    assert "## Sequence Stacks: Block and the Steal cards" in report and "Board heatmaps" not in report
    assert (out / "balance" / "seat_advantage.png").exists()
    assert "side5_win" in (out / "balance.csv").read_text().splitlines()[0]


def test_balance_plays_stacks_with_its_own_default_bot(tmp_path):
    """No bot named: each game's own default plays (greedy for Stacks, heuristic for Sequence)."""
    data = json.loads(
        ok("balance", "--variant", "stacks", "--games", "4", "--seed", "1", "--jobs", "1", "--json")
    )
    assert data["bots"] == ["greedy"] and data["variants"][0]["games"] == 4
    data = json.loads(
        ok("balance", "--variant", "classic", "--games", "2", "--seed", "1", "--jobs", "1", "--json")
    )
    assert data["bots"] == ["heuristic"]


# ---------------------------------------------------------------- the ext: line protocol


SCRIPTED = """\
import sys
log = open(sys.argv[1], "a")
legal = []
for line in sys.stdin:
    log.write(line)
    words = line.split()
    if words[0] == "seqsolve":
        print("ready", flush=True)
    elif words[0] == "legal":
        legal = words[1:]
    elif words[0] == "go":
        print("move " + legal[-1], flush=True)
    elif words[0] == "quit":
        break
"""


def test_an_external_program_plays_stacks_over_the_line_protocol(tmp_path, monkeypatch):
    """docs/protocol.md: the game line names the variant and the seats as Stacks' sides,
    each position is what the seat sees as STN, the legal actions and the answer are in
    Stacks notation (a Block window's ``block``/``pass`` asked out of turn included)."""
    with_random_bot(monkeypatch)
    script = tmp_path / "last_legal.py"
    script.write_text(SCRIPTED)
    log = tmp_path / "log.txt"
    spec = f"ext:{sys.executable} {script} {log}"
    records = tmp_path / "games.jsonl"
    ok(
        "match",
        spec,
        "random",
        "--variant",
        "stacks",
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "8",
        "--jobs",
        "1",
        "--out",
        str(records),
    )
    games = [json.loads(line) for line in records.read_text().splitlines()[1:]]
    assert all(g["forfeit"] is None for g in games)
    sent = log.read_text().splitlines()
    assert sent[0] == "seqsolve 1" and sent[1].startswith("game stacks 012 ")
    positions = [line[len("position ") :] for line in sent if line.startswith("position ")]
    assert positions and all(line.startswith("stacks ") for line in positions)
    for text in positions[:20]:
        state = read_state(text)
        seat = state.current_player
        assert state.hand(seat).count("?") == 0 and state.hidden_cards()  # its own hand, nothing else
    assert any(line in ("legal pass", "legal block pass") for line in sent)  # asked out of turn (ST-15)


def test_bots_lists_the_bots_of_the_variants_game(monkeypatch):
    with_random_bot(monkeypatch)
    assert set(json.loads(ok("bots", "--variant", "stacks", "--json"))) == {"random", "ext"}
    assert {"greedy", "mcts"} <= set(json.loads(ok("bots", "--json")))  # Sequence's, by default
