"""Records sent column by column (:mod:`seqsolve.play.columns`): the workers of a run that
keeps no record file send their games as columns, and the report reads them without a
record being built; the records and the report are those of a run at ``--jobs 1``."""

from __future__ import annotations

import json
import os
import pickle

import pytest

from seqsolve.play import pool
from seqsolve.play.columns import Columns, Outcomes, column
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.report import summarize_match


def _stable(records) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def _summary(records, bots) -> str:
    return json.dumps(summarize_match(records, bots), sort_keys=True)


def test_columns_give_back_the_same_records_field_for_field():
    records = run_games(MatchConfig(bots=("greedy", "random"), seed=4), 12, jobs=1)
    part = pickle.loads(pickle.dumps(Columns.of(records)))
    assert isinstance(part, Columns) and len(part) == 12
    rebuilt = part.records()
    assert rebuilt == records
    assert [list(r) for r in rebuilt] == [list(r) for r in records]  # the fields' order too
    assert part.column("score") == [r["score"] for r in records]
    assert part.column("no such field") == [None] * 12


def test_records_with_different_fields_stay_records():
    records = [{"game": 0, "score": 1.0}, {"game": 1, "score": 0.0, "detail": {}}]
    assert Columns.of(records) is records
    assert Columns.of([]) == []


def test_outcomes_are_in_game_order_whatever_order_the_parts_came_in():
    records = run_games(MatchConfig(bots=("greedy", "random"), seed=5), 10, jobs=1)
    runs = Outcomes([Columns.of(records[6:]), records[:2], Columns.of(records[2:6])])
    assert len(runs) == 10
    assert runs.column("game") == list(range(10))
    assert column(runs, "winner_side") == [r["winner_side"] for r in records]
    assert list(runs) == records and runs == records and runs[3] == records[3]
    assert _summary(runs, ("greedy", "random")) == _summary(records, ("greedy", "random"))


def test_outcomes_of_parts_whose_games_interleave_are_in_game_order():
    records = run_games(MatchConfig(bots=("greedy", "random"), seed=6), 8, jobs=1)
    runs = Outcomes([Columns.of(records[1::2]), Columns.of(records[0::2])])
    assert runs.column("game") == list(range(8))
    assert list(runs) == records
    assert _summary(runs, ("greedy", "random")) == _summary(records, ("greedy", "random"))


@pytest.mark.parametrize(
    "bots, options",
    [
        (("greedy", "greedy"), {}),
        (("heuristic", "random"), {"players": 4}),
        (("greedy", "random"), {"players": 3}),
    ],
    ids=str,
)
def test_a_run_on_workers_sends_columns_and_reports_as_one_here(monkeypatch, bots, options):
    config = MatchConfig(bots=bots, seed=11, **options)
    games = 40 * config.games_per_deal
    here = run_games(config, games, jobs=1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 0)  # every game on a worker
    seen = []
    stats = pool.RunStats()
    runs = run_games(
        config,
        games,
        jobs=2,
        chunk=config.games_per_deal * 4,
        columns=True,
        on_records=seen.append,
        stats=stats,
    )
    assert isinstance(runs, Outcomes) and stats.worker_games == games
    assert seen and all(isinstance(part, Columns) for part in seen)
    assert sorted(g for part in seen for g in column(part, "game")) == list(range(games))
    assert _stable(runs) == _stable(here)
    assert _summary(runs, bots) == _summary(here, bots)


def test_a_run_that_keeps_a_record_file_sends_records(tmp_path, monkeypatch):
    """The workers write the file's lines; the runner keeps their records as before."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 0)
    seen = []
    config = MatchConfig(bots=("greedy", "random"), seed=3)
    runs = run_games(
        config, 16, jobs=2, chunk=4, out=str(tmp_path / "f.jsonl"), columns=True, on_records=seen.append
    )
    assert seen and all(isinstance(part, list) for part in seen)
    assert [r["game"] for r in runs] == list(range(16)) and "moves" in runs[0]
