"""The documents a reader follows: README.md, docs/*.md and RULES-NOTES.md.

A moved section leaves links behind, an API change leaves the README example
behind, and a new rule test can cite an ID the rules page never explains; none
of that fails anywhere else, so it is checked here.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from seqsolve.games.sequence.board import get_layout

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "RULES-NOTES.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
RULE_ID = re.compile(r"(?<![\w-])((?:C|D|N|P|ST)-\d+[a-z]?)(?!\w)")


def _prose(path: Path) -> str:
    """The text outside fenced blocks: a `# comment` in a shell example is no heading."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def _anchors(path: Path) -> set[str]:
    """The heading anchors GitHub makes: lower case, punctuation dropped, blanks to '-'."""
    headings = re.findall(r"^#+\s+(.*)$", _prose(path), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _links(path: Path) -> list[str]:
    return [t for t in LINK.findall(_prose(path)) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_an_existing_file_and_heading(document):
    broken = []
    for target in _links(document):
        name, _, anchor = target.partition("#")
        path = (document.parent / name).resolve() if name else document
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(target)
    assert broken == [], f"{document.name}: broken links {broken}"


def test_the_documents_link_the_moved_sections():
    """README keeps a paragraph per feature and links the reference pages in docs/."""
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in _links(ROOT / "README.md")}
    for page in ("rules", "bots", "protocol", "dask", "balance-metrics", "positions"):
        assert (ROOT / "docs" / f"{page}.md").resolve() in linked, page


def test_readme_python_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```python\n(.*?)^```", text, re.M | re.S)
    assert block, "README has no ```python example"
    test = doctest.DocTestParser().get_doctest(block.group(1), {}, "README example", "README.md", 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=report.append)
    assert result.attempted >= 5
    assert result.failed == 0, "".join(report)


def test_readme_test_command_is_what_ci_runs():
    """.ci/run says it runs exactly the README's test command."""
    command = "pip install -e '.[test]' && python -m pytest"
    assert f"```\n{command}\n```" in (ROOT / "README.md").read_text(encoding="utf-8")
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert ci[-1] == command


def test_rules_page_defines_every_rule_id_the_tests_cite():
    cited = set()
    for path in (ROOT / "tests").rglob("*"):
        if path.is_file() and path.name != Path(__file__).name:
            cited |= set(RULE_ID.findall(path.read_text(encoding="utf-8", errors="replace")))
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert len(cited) > 50  # the suite cites the classic, draft, Numbers and position rules
    assert sorted(i for i in cited if f"**{i}" not in rules) == []


def test_rules_page_board_is_the_engines_layout():
    """C-5: the board drawn in docs/rules.md is the one the engine plays on."""
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    grid = re.search(r"^```\n\s+a  b  c .*?\n(.*?)^```", rules, re.M | re.S)
    assert grid, "docs/rules.md has no board grid"
    rows = [line.split()[1:] for line in grid.group(1).splitlines()]
    assert tuple(label for row in rows for label in row) == get_layout("jax").labels


# not _core: it has no examples
@pytest.mark.parametrize("name", [
    "seqsolve._eval", "seqsolve._choose", "seqsolve._worlds", "seqsolve._rollout", "seqsolve._search",
    "seqsolve._stacks", "seqsolve._loop", "seqsolve._stacks_bots",
])
def test_the_compiled_modules_docstring_examples_run(name):
    """pytest does not collect doctests from compiled modules: run them here."""
    import doctest
    import importlib

    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module, name, module=False, globs=dict(vars(module))):
        runner.run(test)
    assert runner.tries > 0 and runner.failures == 0
