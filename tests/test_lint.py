"""The tree passes ruff's lint and format check as configured in pyproject.toml
([tool.ruff]): a finding, or a file ``ruff format`` would change, fails the suite, and
so the check that ``.ci/run`` runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_finds_nothing():
    done = _ruff("check", "--output-format", "concise")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_changes_nothing():
    done = _ruff("format", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
