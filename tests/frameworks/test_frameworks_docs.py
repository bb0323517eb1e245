"""docs/frameworks.md's ```python blocks are doctests: the page cannot drift."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed (the test extra installs it on Python 3.11 and later)"
)
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (the test extra installs it)")

ROOT = Path(__file__).resolve().parents[2]


def test_frameworks_page_examples_run():
    page = (ROOT / "docs" / "frameworks.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 4
    test = doctest.DocTestParser().get_doctest(
        "".join(blocks), {}, "docs/frameworks.md", "docs/frameworks.md", 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_links_the_page():
    assert "(docs/frameworks.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
