"""What the program loads before a command's work starts.

Whatever ``seqsolve match`` imports while no game is played is time that a second core
cannot share (``benchmarks/jobs_scaling.py`` measures it): the group (:mod:`seqsolve.cli`)
imports a command's module only when that command runs.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import seqsolve.cli
from seqsolve.cli import _HOMES, main

#: what a match needs none of: the other commands' modules, and the heavy optional packages
NOT_FOR_A_MATCH = (
    "seqsolve.cli.analysis",
    "seqsolve.cli.balance",
    "seqsolve.cli.fair",
    "seqsolve.cli.pictures",
    "seqsolve.cli.play",
    "seqsolve.cli.position",
    "seqsolve.cli.serve",
    "seqsolve.analysis",
    "seqsolve.balance",
    "seqsolve.serve",
    "joblib",
    "scipy",
    "matplotlib",
)


def _program(*args: str) -> dict:
    """Run the program on ``args`` in a fresh interpreter; what was imported when it exited."""
    code = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print(json.dumps({'modules': sorted(sys.modules)})))\n"
        "from seqsolve.__main__ import run\n"
        f"run({list(args)!r})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_a_match_imports_no_other_command_and_no_optional_package():
    seen = _program("match", "greedy", "greedy", "--games", "2", "--seed", "1", "--no-progress")
    assert "seqsolve.cli.match" in seen["modules"]
    assert [m for m in NOT_FOR_A_MATCH if m in seen["modules"]] == []


def test_every_command_is_found_in_the_module_named_for_it():
    modules = [
        info.name
        for info in pkgutil.iter_modules(seqsolve.cli.__path__)
        if hasattr(importlib.import_module(f"seqsolve.cli.{info.name}"), "COMMANDS")
    ]
    assert sorted(set(_HOMES.values())) == sorted(modules)
    for module in modules:
        names = [c.name for c in importlib.import_module(f"seqsolve.cli.{module}").COMMANDS]
        assert sorted(names) == sorted(name for name, home in _HOMES.items() if home == module)
    assert main.list_commands(None) == sorted(_HOMES)
    assert all(main.get_command(None, name).name == name for name in _HOMES)
    assert main.get_command(None, "no-such-command") is None
