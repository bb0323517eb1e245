"""One seed derivation (seqsolve/play/seeds.py): every command's streams are
SeedSequence spawn keys under its root seed, so results depend on the root seed and
what a game is, never on --jobs, resuming or a place in a grid; record files made
with the seeds of before are refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from cli_helpers import fails, ok

from seqsolve.play.records import Replay, read_records
from seqsolve.play.seeds import bot_seed, deal_seed, stream_seed

TOURNAMENT = ("tournament", "random", "greedy", "heuristic", "--games", "4", "--seed", "5", "--no-progress")
BALANCE = ("balance", "random", "--games", "6", "--seed", "5", "--no-progress", "--no-plots")


def _state(seq: np.random.SeedSequence) -> list[int]:
    return list(seq.generate_state(4))


def test_a_match_keeps_its_keys_and_a_stream_prefixes_them():
    assert _state(deal_seed(3, 7)) == _state(np.random.SeedSequence(3, spawn_key=(7,)))
    assert _state(bot_seed(3, 7, 1, 0)) == _state(np.random.SeedSequence(3, spawn_key=(7, 2, 0)))
    prefixed = deal_seed(3, 7, ("tournament", 1))
    assert _state(prefixed) == _state(stream_seed(3, ("tournament", 1, 7)))
    assert _state(prefixed) != _state(deal_seed(3, 7)) != _state(deal_seed(3, 7, ("tournament", 0)))


def _games(path: Path) -> list[tuple]:
    return [(r["game"], r["deal"], tuple(r["moves"]), r["score"]) for r in read_records(str(path))[1]]


def test_tournament_jobs_and_resuming_do_not_change_the_games(tmp_path):
    one = json.loads(ok(*TOURNAMENT, "--jobs", "1", "--json", "--out", str(tmp_path / "one")))
    two = json.loads(ok(*TOURNAMENT, "--jobs", "2", "--json", "--out", str(tmp_path / "two")))
    files = sorted(p.name for p in (tmp_path / "one").glob("*.jsonl"))
    assert len(files) == 3
    for name in files:
        assert _games(tmp_path / "one" / name) == _games(tmp_path / "two" / name)
    assert one["ratings"] == two["ratings"] and one["scores"] == two["scores"]
    # cut the second pairing to its first game and rerun: the same games come back
    cut = tmp_path / "two" / files[1]
    cut.write_text("".join(cut.read_text().splitlines(keepends=True)[:2]))
    again = json.loads(ok(*TOURNAMENT, "--jobs", "1", "--json", "--out", str(tmp_path / "two")))
    assert _games(cut) == _games(tmp_path / "one" / files[1])
    assert again["scores"] == one["scores"]


def test_every_pairing_of_a_tournament_has_its_own_deals_and_replays(tmp_path):
    ok(*TOURNAMENT, "--jobs", "1", "--out", str(tmp_path))
    starts = set()
    for path in sorted(tmp_path.glob("*.jsonl")):
        header, records = read_records(str(path))
        assert header["config"]["seed"] == 5 and header["config"]["stream"][0] == "tournament"
        first = Replay(records[0], str(path))
        starts.add(str(first.state.to_position()))
        for _ in first:  # the recorded moves are legal from the deal of the pairing's stream
            pass
        assert first.state.is_terminal()
    assert len(starts) == 3


def test_a_tournament_file_made_with_the_old_seeds_is_refused(tmp_path):
    ok(*TOURNAMENT, "--jobs", "1", "--out", str(tmp_path))
    path = sorted(tmp_path.glob("*.jsonl"))[1]
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    del header["config"]["stream"]  # as written before streams: root + 1000003 * pairing
    header["config"]["seed"] = 5 + 1000003
    path.write_text(json.dumps(header) + "\n")
    before = {p: p.read_bytes() for p in tmp_path.iterdir()}
    line = fails(*TOURNAMENT, "--jobs", "1", "--out", str(tmp_path))
    assert line == (
        f"seqsolve: {path}:1: made with the seeds of seqsolve before spawn-key streams (its seed 1000008"
        " is not a root seed), so its games cannot be resumed; choose another --out"
    )
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_balance_games_of_a_variant_do_not_depend_on_the_grid_or_jobs(tmp_path):
    ok(*BALANCE, "--jobs", "1", "--out", str(tmp_path / "alone"))
    ok(
        *BALANCE,
        "--jobs",
        "2",
        "--variant",
        "seed000",
        "--variant",
        "classic",
        "--out",
        str(tmp_path / "grid"),
    )
    alone = next((tmp_path / "alone").rglob("self.jsonl"))
    in_grid = [p for p in (tmp_path / "grid").rglob("self.jsonl") if "classic" in str(p.parent.name)]
    assert len(in_grid) == 1
    assert _games(alone) == _games(in_grid[0])
    header = read_records(str(alone))[0]
    assert header["config"]["stream"] == ["balance", "classic", 2, 2, 0, "self"]


def test_a_balance_folder_made_with_the_old_seeds_is_refused(tmp_path):
    ok(*BALANCE, "--jobs", "1", "--out", str(tmp_path))
    manifest = tmp_path / "manifest.json"
    data = json.loads(manifest.read_text())
    del data["seeds"]  # as written before streams
    manifest.write_text(json.dumps(data))
    line = fails(*BALANCE, "--jobs", "1", "--out", str(tmp_path))
    assert line == (
        f"seqsolve: {tmp_path} holds a balance run made with the seeds of seqsolve before spawn-key"
        " streams; its games cannot be resumed: choose another --out"
    )


def test_tournament_backends_play_the_same_games():
    """tournament takes --backend like match: threads and processes, the same games."""
    loky = json.loads(ok(*TOURNAMENT, "--jobs", "2", "--json"))
    threads = json.loads(ok(*TOURNAMENT, "--jobs", "2", "--backend", "threading", "--json"))
    assert loky["scores"] == threads["scores"] and loky["results"] == threads["results"]
