"""The runners build every bot of a Sequence Stacks run as a Stacks bot: the parameters
docs/stacks.md documents for Stacks' own bots (``greedy:block=``, ``mcts:bias=``,
``mcts:halve=``) are taken by ``match``, ``tournament`` and ``balance``, and a bad one
is refused listing the Stacks bot's parameters, not classic's."""

from __future__ import annotations

import json

import pytest
from cli_helpers import fails, ok

SPECS = ["greedy:block=matters", "mcts:bias=2,iters=10,time=0", "mcts:halve=2,iters=10,time=0"]


@pytest.mark.parametrize("spec", SPECS)
def test_match_takes_the_stacks_bot_parameters(spec):
    data = json.loads(
        ok(
            "match",
            spec,
            "random",
            "--variant",
            "stacks",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--json",
        )
    )
    assert data["games"] == 2 and data["bots"][0] == spec


@pytest.mark.parametrize("spec", SPECS)
def test_tournament_takes_the_stacks_bot_parameters(spec):
    data = json.loads(
        ok(
            "tournament",
            spec,
            "random",
            "--variant",
            "stacks",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--json",
        )
    )
    assert {r["bot"] for r in data["ratings"]} == {spec, "random"}


@pytest.mark.parametrize("spec", SPECS[:2])
def test_balance_takes_the_stacks_bot_parameters(spec, tmp_path):
    data = json.loads(
        ok(
            "balance",
            spec,
            "--variant",
            "stacks",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / "run"),
            "--json",
        )
    )
    assert data["bots"] == [spec] and data["variants"][0]["games"] == 2


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_a_bad_stacks_parameter_lists_the_stacks_bots_own(command):
    line = fails(command, "greedy:w_win=3", "random", "--variant", "stacks", "--games", "2", "--jobs", "1")
    assert line == "seqsolve: bot greedy: unknown parameter 'w_win' (known: block)"
