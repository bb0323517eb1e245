"""The public API type-checks: mypy, configured in pyproject.toml ([tool.mypy]: the
public modules and what they import, the compiled modules by their stubs), reports no
error.  Its cache lives in pytest's cache folder, so that a second run takes a second."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error(request, tmp_path):
    cache = request.config.cache.mkdir("mypy") if getattr(request.config, "cache", None) else tmp_path
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 9 source files" in done.stdout  # the files of [tool.mypy]
