"""The documents a reader follows: README.md, docs/*.md and RULES-NOTES.md.

A moved section leaves links behind, an API change leaves the README example
behind, and a new rule test can cite an ID the rules page never explains; none
of that fails anywhere else, so it is checked here.
"""

from __future__ import annotations

import doctest
import re
import subprocess
from pathlib import Path

import pytest

from seqsolve.games.sequence.board import get_layout

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "RULES-NOTES.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
RULE_ID = re.compile(r"(?<![\w-])((?:C|D|K|N|P|ST)-\d+[a-z]?)(?!\w)")


def _prose(path: Path) -> str:
    """The text outside fenced blocks: a `# comment` in a shell example is no heading."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def _anchors(path: Path) -> set[str]:
    """The heading anchors GitHub makes: lower case, punctuation dropped, blanks to '-'."""
    headings = re.findall(r"^#+\s+(.*)$", _prose(path), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _links(path: Path) -> list[str]:
    return [t for t in LINK.findall(_prose(path)) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_an_existing_file_and_heading(document):
    broken = []
    for target in _links(document):
        name, _, anchor = target.partition("#")
        path = (document.parent / name).resolve() if name else document
        if not path.exists() or anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(target)
    assert broken == [], f"{document.name}: broken links {broken}"


def test_the_documents_link_the_moved_sections():
    """README keeps a paragraph per feature and links the reference pages in docs/."""
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in _links(ROOT / "README.md")}
    for page in ("rules", "bots", "protocol", "dask", "balance-metrics", "positions"):
        assert (ROOT / "docs" / f"{page}.md").resolve() in linked, page


def test_readme_python_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
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
    ci = [
        line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")
    ]
    assert ci[-1] == command


def test_rules_page_defines_every_rule_id_the_tests_cite():
    cited = set()
    for path in (ROOT / "tests").rglob("*"):
        # the suite's own text files: a module's bytecode (__pycache__, written wherever
        # PYTHONDONTWRITEBYTECODE is unset) holds its strings beside marshal's type bytes
        if path.is_file() and path.name != Path(__file__).name and "__pycache__" not in path.parts:
            cited |= set(RULE_ID.findall(path.read_text(encoding="utf-8", errors="replace")))
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert len(cited) > 50  # the suite cites the classic, draft, Numbers and position rules
    assert sorted(i for i in cited if f"**{i}" not in rules) == []


def test_rules_page_board_is_the_engines_layout():
    """C-5: the board drawn in docs/rules.md is the one the engine plays on."""
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    grid = re.search(r"^```\n\s+a  b  c .*?\n(.*?)^```", rules, re.MULTILINE | re.DOTALL)
    assert grid, "docs/rules.md has no board grid"
    rows = [line.split()[1:] for line in grid.group(1).splitlines()]
    assert tuple(label for row in rows for label in row) == get_layout("jax").labels


# not _core: it has no examples
@pytest.mark.parametrize(
    "name",
    [
        "seqsolve._eval",
        "seqsolve._choose",
        "seqsolve._worlds",
        "seqsolve._rollout",
        "seqsolve._search",
        "seqsolve._stacks",
        "seqsolve._loop",
        "seqsolve._stacks_bots",
    ],
)
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


#: The repository speaks of the program, not of how the work on it was organised: no
#: numbered periods of work ("the ninth ..."), no "earlier ..." of them. The word is
#: spelled in two pieces so that this file does not hold it.
WORK_PERIOD = re.compile(r"\b" + "ses" + r"sions?\b", re.IGNORECASE)


def _tracked_text_files() -> list[Path]:
    """Every file git tracks (or, outside a checkout, every file but caches and builds)."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        )
        names = listing.stdout.decode("utf-8").split("\0")
        paths = [ROOT / n for n in names if n]
    except (OSError, subprocess.SubprocessError):
        skip = {".git", "build", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache"}
        paths = [p for p in ROOT.rglob("*") if not skip & set(p.relative_to(ROOT).parts)]
    texts = []
    for path in paths:
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if b"\0" not in data[:8192]:
                texts.append(path)
    return texts


def test_no_file_speaks_of_how_the_work_was_organised():
    found = []
    files = _tracked_text_files()
    assert len(files) > 50
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if WORK_PERIOD.search(line):
                found.append(f"{name}:{number}: {line.strip()[:80]}")
    assert found == [], "\n".join(found)


def test_the_work_period_pattern_finds_what_it_must():
    """The pattern catches the phrasings that crept in, and not Python's own argument."""
    word = "ses" + "sion"
    for text in (f"the ninth {word}", f"(twenty-first {word})", f"earlier {word}s", f"This {word.upper()}"):
        assert WORK_PERIOD.search(text), text
    assert not WORK_PERIOD.search(f"subprocess.Popen(..., start_new_{word}=True)")


def test_the_changelog_names_the_version_the_package_says():
    """CHANGELOG.md's newest entry is the version `seqsolve --version` prints, and the
    version is written once: pyproject.toml reads it from the package."""
    import seqsolve

    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, re.MULTILINE)
    assert versions and versions[0] == seqsolve.__version__
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic = \["version"\]', project, re.MULTILINE)
    assert 'version = {attr = "seqsolve.__version__"}' in project


@pytest.mark.parametrize(
    "page",
    sorted((ROOT / "docs").glob("*.md")),
    ids=lambda p: p.name,
)
def test_every_docs_page_starts_with_the_question_it_answers(page):
    """A reader knows from the first lines whether this is the page they need."""
    title, first = _prose(page).lstrip().split("\n\n", 2)[:2]
    first = first.replace("\n", " ")
    question, stop = first.find("?"), first.find(". ")
    assert title.startswith("# ")
    assert question != -1 and (stop == -1 or question < stop), f"{page.name}: {first[:80]!r}"
