"""Rule-variant balance: grids, the unfair and the symmetric check, resume, outputs, restricted play."""

from __future__ import annotations

import csv
import json
import sys
from functools import partial

import numpy as np
import pytest
from cli_helpers import outcome
from cli_helpers import run_json as _run_json
from cli_helpers import stable as _stable

from seqsolve.balance.grid import expand_grid, point_stream
from seqsolve.bots import BotError, make_bot
from seqsolve.games.sequence.notation import PositionError, parse_position, to_sqn
from seqsolve.games.sequence.rules import RulesError, parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.games.sequence.tally import GameDetail
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game, run_games
from seqsolve.play.records import read_records

FAST = ("greedy", "--jobs", "1", "--no-progress")


run_cli = partial(outcome, "balance")
run_json = partial(_run_json, "balance")


# ---------------------------------------------------------------- grids


def test_grid_is_the_product_of_the_varied_options_in_order():
    points = expand_grid(["classic"], ["players=2,3", "sequences_to_win=1,2"])
    assert [p.label for p in points] == [
        "classic[sequences_to_win=1] 2p",  # the first --vary varies slowest
        "classic[sequences_to_win=2] 2p",
        "classic[sequences_to_win=1] 3p",
        "classic[sequences_to_win=2] 3p",
    ]
    assert [p.label for p in expand_grid(["seed000"], ["players=4,6"])] == [
        "seed000 4p/2t",
        "seed000 6p/2t",
        "seed000 6p/3t",
    ]
    assert [p.label for p in expand_grid(["draft"], players=4)] == ["draft 4p/2t"]
    # the same variant twice is measured twice, with its own seeds
    twice = expand_grid(["classic", "classic"])
    assert [p.replica for p in twice] == [0, 1]
    assert point_stream(twice[0], "self") != point_stream(twice[1], "self")


def test_all_presets_seat_every_player_count_they_allow():
    points = expand_grid(all_presets=True)
    by_preset: dict[str, list[str]] = {}
    for p in points:
        by_preset.setdefault(p.variant, []).append(p.seating)
    assert by_preset["classic"] == [
        "2p",
        "3p",
        "4p/2t",
        "6p/2t",
        "6p/3t",
        "8p/2t",
        "9p/3t",
        "10p/2t",
        "12p/2t",
        "12p/3t",
    ]
    assert by_preset["seed000"] == by_preset["numbers"] == ["2p", "3p", "4p/2t", "6p/2t", "6p/3t"]
    assert by_preset["draft"] == ["2p", "4p/2t"]  # RULES.md §2.3
    assert len(points) == 37 and "stacks" not in by_preset


@pytest.mark.parametrize(
    "args, message",
    [
        (["--vary", "colour=red,blue"], "unknown option 'colour'"),
        (["--vary", "sequences_to_win=1,two"], "option sequences_to_win takes"),
        (["--vary", "hand_size"], "expected OPTION=VALUE"),
        (["--vary", "players=2,5"], "5 players cannot be seated"),
        (["--vary", "players=2,4", "--teams", "3"], "cannot form 3 equal sides"),
        (
            ["--variant", "draft", "--players", "3"],
            "draft with 3 players in 2 sides: 3 players cannot form 2",
        ),
        (["--variant", "clasic"], "unknown preset 'clasic'"),
        (["--vary", "players=2", "--vary", "players=3"], "given twice"),
        (["--all-presets", "--vary", "players=2"], "--all-presets"),
        (["nosuchbot"], "unknown bot 'nosuchbot'"),
        (["greedy", "random", "random"], "one per side (2) or one per seat (2)"),
        (["--restrict", "jacks"], "unknown restriction 'jacks'"),
        (["--restrict", ""], "--restrict: an empty name in ''"),
        (["--restrict", "corners,"], "--restrict: an empty name in 'corners,'"),
    ],
)
def test_bad_grid_is_one_clear_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "run"
    code, stdout, stderr = run_cli(*args, "--games", "2", "--seed", "1", "--out", str(out), "--no-progress")
    assert code == 1, stderr
    assert message in stderr and stderr.startswith("seqsolve: ")
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stdout == "" and not out.exists()


# ---------------------------------------------------------------- the unfair and the symmetric check


def test_unfair_variant_is_reported_unbalanced_with_the_right_sign():
    """bonus_cards=6: seat 0 holds 13 cards to the other's 7 (an analysis-only option)."""
    data = run_json(
        "--variant",
        "classic[bonus_cards=6]",
        "--variant",
        "classic[bonus_cards=6,first_seat=1]",
        "--games",
        "300",
        "--seed",
        "3",
        *FAST,
    )
    first, second = data["variants"]
    assert first["side_win"][0] > 0.7 and first["side_win_ci"][0][0] > 0.5
    assert first["balance_test"]["p_value"] < 1e-6
    assert first["first_seat_advantage"] > 0 and first["first_seat_advantage_ci"][0] > 0.1
    # seat 1 moves first here, but seat 0 still holds the cards: the first seat is at a disadvantage
    assert second["first_seat"] == 1 and second["side_win"][0] > 0.7
    assert second["first_seat_advantage_ci"][1] < 0
    assert first["ludii"]["balance"] < 0.6


def test_same_variant_twice_differs_by_no_more_than_its_interval():
    data = run_json("--variant", "classic", "--variant", "classic", "--games", "300", "--seed", "5", *FAST)
    a, b = data["variants"]
    assert (a["replica"], b["replica"]) == (0, 1) and a["seed"] == b["seed"] == 5
    assert a["stream"] == ["balance", "classic", 2, 2, 0, "self"] and b["stream"][4] == 1
    delta = b["delta"]
    assert delta["vs"] == "classic 2p"
    for key in ("first_seat_advantage", "draw_rate", "turns_mean"):
        _, low, high = delta[key]
        assert low <= 0 <= high, key
    assert delta["first_seat_advantage"][2] - delta["first_seat_advantage"][1] < 0.25


def test_a_bot_per_side_stays_on_its_side():
    data = run_json("greedy", "random", "--games", "60", "--seed", "2", "--jobs", "1", "--no-progress")
    v = data["variants"][0]
    assert v["bots"] == ["greedy", "random"] and v["side_win"][0] > 0.8


# ---------------------------------------------------------------- outputs


def test_json_csv_markdown_and_plots(tmp_path):
    from matplotlib.image import imread

    out = tmp_path / "run"
    data = run_json(
        "--vary",
        "players=2,3",
        "--games",
        "30",
        "--seed",
        "4",
        "--out",
        str(out),
        "--restrict",
        "two_eyed",
        "--weak",
        "random",
        "--match-games",
        "6",
        *FAST,
    )
    assert [v["variant"] for v in data["variants"]] == ["classic", "classic"]
    for v, players in zip(data["variants"], (2, 3)):
        assert v["games"] == 30 and v["players"] == players and v["teams"] == players
        assert len(v["seat_win"]) == len(v["seat_win_ci"]) == players
        assert len(v["side_win"]) == len(v["side_win_ci"]) == v["teams"]
        assert all(lo <= rate <= hi for rate, (lo, hi) in zip(v["side_win"], v["side_win_ci"]))
        assert sum(v["side_win"]) + v["draw_rate"] == pytest.approx(1)
        assert v["plies_mean"] >= v["turns"]["mean"] > 0 and v["branching"] > 1
        assert sum(v["terminations"].values()) == 30
        for key in ("advantage_p1", "balance", "completion", "drawishness", "duration"):
            assert key in v["ludii"]
        assert len(v["heatmap"]["chips"]) == len(v["heatmap"]["sequences"]) == 100
        assert v["restricted"]["two_eyed"]["games"] == 6  # whole deals of 2 or 3 games
        assert v["skill"]["bots"] == ["greedy", "random"]
    assert json.loads((out / "balance.json").read_text())["variants"] == data["variants"]
    with open(out / "balance.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["variant"], r["players"]) for r in rows] == [("classic", "2"), ("classic", "3")]
    assert float(rows[0]["side0_win"]) == pytest.approx(data["variants"][0]["side_win"][0], abs=1e-5)
    report = (out / "balance.md").read_text()
    assert "seqsolve balance" in report and "| classic 3p |" in report
    pngs = sorted((out / "balance").glob("*.png"))
    assert [p.name for p in pngs] == [
        "heatmap-classic_2p.png",
        "heatmap-classic_3p.png",
        "lengths.png",
        "seat_advantage.png",
    ]
    for png in pngs:
        assert f"balance/{png.name}" in report
    for label, name in (("classic 2p", "classic_2p"), ("classic 3p", "classic_3p")):
        assert f"![board heatmaps of {label}](balance/heatmap-{name}.png)" in report  # shown, not only linked
        image = imread(png)
        assert image.ndim == 3 and image.shape[0] > 150 and image.shape[1] > 300 and image.shape[2] in (3, 4)
        assert image[..., :3].std() > 0.01  # something is drawn


def test_terminal_table_and_no_out_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("--games", "10", "--seed", "1", *FAST)
    assert code == 0, err
    assert "first seat adv." in out and "classic 2p" in out
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- seeds and resume


def test_same_seed_same_report_whatever_jobs():
    args = ("--vary", "players=2,4", "--games", "24", "--seed", "9", "greedy", "--no-progress")
    one = run_json(*args, "--jobs", "1")
    two = run_json(*args, "--jobs", "2")
    assert _stable(one) == _stable(two)
    assert _stable(run_json(*args, "--jobs", "1")) == _stable(one)
    other = run_json(*args[:-4], "--seed", "10", "greedy", "--no-progress", "--jobs", "1")
    assert other["variants"][0]["heatmap"] != one["variants"][0]["heatmap"]


def test_interrupted_run_resumes_to_the_same_numbers(tmp_path):
    out = tmp_path / "run"
    args = ("--vary", "players=2,3", "--seed", "6", "--out", str(out), "--no-plots", *FAST)
    first = run_json(*args, "--games", "20")  # an interruption after 20 games
    assert first["variants"][0]["games"] == 20
    # cut the last record of one file short, as a kill in the middle of a write would
    path = out / "classic-3p3t" / "self.jsonl"
    path.write_text(path.read_text()[:-25])
    resumed = run_json(*args, "--games", "50")
    fresh = run_json("--vary", "players=2,3", "--seed", "6", "--games", "50", *FAST)
    assert _stable(resumed)["variants"] == _stable(fresh)["variants"]
    _, records = read_records(str(path))
    assert [r["game"] for r in records] == list(range(50))
    # without --seed the folder's seed is used
    again = run_json("--vary", "players=2,3", "--out", str(out), "--games", "50", "--no-plots", *FAST)
    assert again["seed"] == 6 and again["variants"] == resumed["variants"]


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        (lambda d: d["chips"][0].__setitem__(0, None), "chips[0] must be a list of distinct cells"),
        (lambda d: d["chips"][1].append(100), "chips[1] must be a list of distinct cells"),
        (lambda d: d.__setitem__("sequences", [[0, 9999]]), "sequences must be a list of [side, window]"),
        (lambda d: d.__setitem__("sequences", [None]), "sequences must be a list of [side, window]"),
        (lambda d: d.__setitem__("legal", None), "legal must be a whole number"),
        (lambda d: d.__setitem__("two_eyed", "x"), "two_eyed must be a whole number"),
        (lambda d: d.__setitem__("decisions", -3), "decisions must be a whole number"),
        (lambda d: d.pop("chips"), "chips must be a list"),
    ],
)
def test_a_resumed_run_names_an_edited_detail(tmp_path, edit, named):
    """Records read back on resume are checked: a damaged detail is one line, not a traceback."""
    out = tmp_path / "run"
    args = ("--seed", "3", "--out", str(out), "--no-plots", *FAST)
    run_json(*args, "--games", "4")
    path = out / "classic-2p2t" / "self.jsonl"
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    edit(record["detail"])
    lines[1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    code, stdout, stderr = run_cli(*args, "--games", "6")
    assert code == 1 and stdout == ""
    assert stderr.startswith(f"seqsolve: {path}: game {record['game']}: detail: ") and named in stderr
    assert stderr.count("\n") == 1


def test_out_folder_of_another_run_is_refused(tmp_path):
    out = tmp_path / "run"
    run_json("--games", "4", "--seed", "1", "--out", str(out), "--no-plots", *FAST)
    code, _, err = run_cli("--games", "4", "--seed", "2", "--out", str(out), *FAST)
    assert code == 1 and "holds a balance run with seed=1" in err
    other = tmp_path / "notes"
    other.mkdir()
    (other / "x.txt").write_text("mine")
    code, _, err = run_cli("--games", "4", "--seed", "2", "--out", str(other), *FAST)
    assert code == 1 and "not empty" in err and (other / "x.txt").read_text() == "mine"


@pytest.mark.parametrize("backend", ["threading", "dask"])
def test_other_backends_give_the_same_report(backend):
    """``--backend dask`` without --scheduler starts a local Dask cluster (see test_match for a remote one)."""
    if backend == "dask":
        import distributed  # noqa: F401  (installed by the test extra: a missing one must fail, not skip)
    args = ("--vary", "players=2,3", "--games", "12", "--seed", "8", "greedy", "--no-progress")
    assert _stable(run_json(*args, "--backend", backend, "--jobs", "2")) == _stable(
        run_json(*args, "--jobs", "1")
    )


# ---------------------------------------------------------------- engine and runner pieces


def test_bonus_cards_deal_seat_zero_extra_cards_and_it_keeps_them():
    rules = parse_rules("classic[bonus_cards=3]", players=2)
    plain = State.new(parse_rules("classic", players=2), seed=4)
    state = State.new(rules, seed=4)
    assert state.core.hand_sizes() == [10, 7]
    assert state.hand(1) == plain.hand(1)  # the bonus comes after the ordinary deal
    rng = np.random.default_rng(0)
    for _ in range(12):
        state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    assert state.core.hand_sizes() == [10, 7]
    text = to_sqn(state.to_position())
    assert text.startswith("classic[bonus_cards=3] ")
    assert parse_position(text).hands[0].known == tuple(state.hand(0))
    with pytest.raises(PositionError, match="hand size is 7"):
        parse_position(text.replace("classic[bonus_cards=3]", "classic"))
    with pytest.raises(RulesError, match=r"bonus_cards must be 0\.\.39, not 95"):
        parse_rules("classic[bonus_cards=95]", players=2)
    with pytest.raises(RulesError, match="bonus cards"):  # a hand of 7 + 34 is more than 40
        parse_rules("classic[bonus_cards=34]", players=2)


def test_match_headers_and_seating_unchanged_without_fixed_seats():
    config = MatchConfig(bots=("random", "greedy"), seed=1)
    assert "fixed_seats" not in config.to_json()
    assert config.deal_index(3) == 1 and config.seat_bots(1) == [1, 0]
    fixed = MatchConfig(bots=("random", "greedy"), seed=1, fixed_seats=True)
    assert [fixed.deal_index(g) for g in range(3)] == [0, 1, 2]
    assert fixed.seat_bots(1) == [0, 1]
    assert fixed.to_json()["fixed_seats"] is True


def test_game_detail_counts_what_the_moves_did():
    record = play_game(
        MatchConfig(bots=("random",), seed=2, fixed_seats=True, players=3), 0, detail=GameDetail
    )
    d, moves = record["detail"], record["moves"]
    assert d["exchanges"] == sum(m.startswith("~") for m in moves)
    assert d["one_eyed"] == sum("x" in m for m in moves)
    assert d["two_eyed"] == sum(m[:2] in ("JD", "JC") and "@" in m for m in moves)
    assert d["passes"] == moves.count("pass")
    assert d["decisions"] <= record["plies"] <= d["legal"]
    assert sum(len(c) for c in d["chips"]) > 0 and len(d["chips"]) == 3
    assert all(0 <= side < 3 and 0 <= w < 192 for side, w in d["sequences"])
    assert "detail" not in play_game(MatchConfig(bots=("random",), seed=2, fixed_seats=True), 0)


def test_what_decided_a_won_game_is_read_from_its_last_moves():
    """A game won by a play counts as won by a jack when that play placed a two-eyed
    jack, after an exchange when its winning turn began with one; draws, games won at
    the end of the cards or by a forfeit, and records without moves are left out."""
    base = {"variant": "classic", "players": 2, "teams": 2, "detail": _detail(), "termination": "win"}
    games = [
        {**base, "winner_side": 0, "moves": ["5H@e5", "JD@f6"]},  # a two-eyed jack won
        {**base, "winner_side": 1, "moves": ["5H@e5", "~5S", "9H@i3"]},  # after an exchange
        {**base, "winner_side": 0, "moves": ["~2C", "JC@a2"]},  # both
        {**base, "winner_side": 1, "moves": ["5H@e5", "JSxe5", "QH@g7"]},  # neither: a one-eyed jack before
        {**base, "winner_side": None, "termination": "frozen", "moves": ["JD@f6"]},  # a draw
        {**base, "winner_side": 0},  # no moves kept
        {
            **base,
            "winner_side": 0,
            "termination": "draft_end",
            "moves": ["JD@f6"],
        },  # won at the end of the cards
        {**base, "winner_side": 1, "termination": "forfeit", "moves": ["JD@f6"]},  # won by a forfeit
    ]
    out = GameDetail.summarize(games)
    assert out["jack_won_rate"] == 2 / 4 and out["exchange_won_rate"] == 2 / 4
    low, high = out["jack_won_ci"]
    assert low < 0.5 < high
    assert GameDetail.summarize(games[4:])["jack_won_rate"] is None


def test_a_detail_run_keeps_its_moves_with_or_without_a_record_file(tmp_path):
    """The share of games a jack or an exchange decided is read from the moves, so a
    balance run reports it alike with and without ``--out`` (and on resume)."""
    args = ("--games", "30", "--seed", "3", *FAST)
    kept = run_json(*args, "--out", str(tmp_path / "run"), "--no-plots")["variants"][0]
    fresh = run_json(*args)["variants"][0]
    assert fresh["jack_won_rate"] is not None
    assert (fresh["jack_won_rate"], fresh["exchange_won_rate"]) == (
        kept["jack_won_rate"],
        kept["exchange_won_rate"],
    )


def _detail() -> dict:
    return {
        "decisions": 1,
        "legal": 1,
        "exchanges": 0,
        "two_eyed": 0,
        "one_eyed": 0,
        "passes": 0,
        "reshuffles": 0,
        "chips": [[], []],
        "sequences": [],
    }


@pytest.mark.parametrize("barred", ["two_eyed", "one_eyed", "exchange", "corners"])
def test_restricted_bot_never_does_what_it_is_barred_from(barred):
    from seqsolve.games.sequence.board import CORNERS, windows

    corner_windows = [set(w) for w in windows() if set(w) & set(CORNERS)]
    bot = make_bot(f"restricted:no={barred},bot=greedy")
    other = make_bot("greedy")
    rules = parse_rules("classic", players=2)
    checked = 0
    for game in range(12):
        state = State.new(rules, seed=game)
        rng = np.random.default_rng(game)
        while not state.is_terminal():
            seat = state.current_player
            view = state.observation(seat)
            action = (bot if seat == 0 else other).choose(view, rng)
            assert action in state.legal_actions()
            if seat == 0:
                move = str(state.action_to_move(action))
                mine = set(state.chips(0)) | set(CORNERS)
                if barred == "two_eyed":
                    assert not (move[:2] in ("JD", "JC") and "@" in move)
                elif barred == "one_eyed":
                    assert "x" not in move
                elif barred == "exchange":
                    assert not move.startswith("~")
                elif "@" in move:
                    cell = state.action_to_move(action).cell
                    assert not any(w - mine == {cell} for w in corner_windows)
                checked += 1
            state.apply(action)
    assert checked > 100
    assert bot.forced < checked / 10


def test_restricted_bot_specs():
    bot = make_bot("restricted:no=two_eyed+corners,bot=mcts:iters=5;c=0.5")
    assert bot.flags == 9 and bot.inner.spec == "mcts:iters=5,c=0.5"
    for spec, message in [
        ("restricted:no=jacks", "cannot bar 'jacks'"),
        ("restricted", "say what is barred"),
        ("restricted:no=exchange,bot=restricted:no=corners", "cannot itself be restricted"),
        ("restricted:no=exchange,bot=nosuch", "unknown bot 'nosuch'"),
    ]:
        with pytest.raises(BotError, match=message):
            make_bot(spec)


def test_restricted_play_finds_the_jacks_matter():
    config = MatchConfig(bots=("greedy", "restricted:no=two_eyed+one_eyed,bot=greedy"), seed=3)
    records = run_games(config, 200, jobs=1)
    from seqsolve.play.report import summarize_match

    summary = summarize_match(records, config.bots)
    assert summary["score_ci"][0] > 0.55


def test_self_play_forfeit_is_a_result_like_any_other(tmp_path, monkeypatch):
    """A bot that forfeits in single-bot self-play (here: a program that exits when asked
    for its first move) is counted as a forfeit, not a crash of the run."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quits.py").write_text(
        "import sys\nprint('ready', flush=True)\nfor line in sys.stdin:\n    if line.startswith('go'):\n"
        "        sys.exit(1)\n"
    )
    code, stdout, stderr = run_cli(
        f"ext:{sys.executable} quits.py",
        "--games",
        "2",
        "--jobs",
        "1",
        "--no-plots",
        "--no-progress",
        "--seed",
        "1",
    )
    assert code == 0, stderr
    assert "forfeit 2" in stdout


def test_a_program_that_cannot_start_stops_the_run_before_any_folder(tmp_path, monkeypatch):
    """A program that never finishes its handshake is found out once, within --move-timeout,
    before --out is made (not once per game, each after its own wait)."""
    monkeypatch.chdir(tmp_path)
    spec = f'ext:{sys.executable} -c "import time; time.sleep(60)"'
    code, stdout, stderr = run_cli(
        spec,
        "--games",
        "4",
        "--move-timeout",
        "0.05",
        "--out",
        "runs",
        "--no-plots",
        "--no-progress",
        "--seed",
        "1",
    )
    assert code == 1 and stdout == ""
    assert stderr.strip() == (
        f"seqsolve: bot {spec} cannot start: no handshake: no answer within the time limit of 0.05 s"
    )
    assert not (tmp_path / "runs").exists()


def test_no_self_play_plays_only_the_matches_with_games_games():
    """--games is 1..10^9 as everywhere; --no-self-play (not --games 0) skips self-play,
    and the matches are still reported (they were dropped when a variant had no self-play)."""
    data = run_json(
        "random",
        "--no-self-play",
        "--weak",
        "random",
        "--restrict",
        "corners",
        "--games",
        "4",
        "--seed",
        "3",
        "--jobs",
        "1",
        "--no-progress",
    )
    variant = data["variants"][0]
    assert variant["games"] == 0 and "side_win" not in variant
    assert variant["skill"]["games"] == variant["restricted"]["corners"]["games"] == 4
    assert "--no-self-play" in data["command"]
    assert "'--games'" in run_cli("--games", "0", "--weak", "random")[2]
