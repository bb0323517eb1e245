"""Python bot specs as an outside checker would try them: whatever a class's ``choose``
answers or raises (``None``, text, a float, a huge or negative int, an ``__index__`` that
raises, an exception of its own derived from ``BaseException``, ``sys.exit()``) forfeits
the game with the reason and the match goes on; whatever a spec names that is no bot (a
missing file, a folder, a FIFO, a syntax error, a NUL byte, a function of the standard
library) is one line and exit code 1, never a traceback."""

from __future__ import annotations

import json
import os
import re

import pytest
from cli_helpers import fails, run

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

ANSWERS = '''
import sys


class Answers:
    """Answers what ``kind`` names, a legal action for ``kind="legal"``."""

    def __init__(self, kind):
        self.kind = kind

    def choose(self, observation, rng):
        legal = observation.legal_actions()
        if self.kind == "legal":
            print("thinking out loud")
            return legal[0]
        if self.kind == "exit":
            sys.exit()
        if self.kind == "own":
            class Own(BaseException):
                pass
            raise Own("mine")
        if self.kind == "index":
            class Index:
                def __index__(self):
                    raise RuntimeError("no number")
            return Index()
        return self.kind


class Closes:
    def choose(self, observation, rng):
        return observation.legal_actions()[0]

    def close(self):
        sys.exit(2)


def make(kind):
    return type(f"A{abs(hash(repr(kind)))}", (Answers,), {"__init__": lambda self: Answers.__init__(self, kind)})
'''


@pytest.fixture
def answers(tmp_path):
    path = tmp_path / "answers.py"
    kinds = {
        "Legal": '"legal"',
        "Nothing": "None",
        "Text": '"B3"',
        "Float": "1.0",
        "Huge": "10 ** 100",
        "Negative": "-1",
        "Big": "2 ** 63",
        "Truth": "True",
        "Listed": "[0]",
        "Exits": '"exit"',
        "Own": '"own"',
        "Index": '"index"',
    }
    path.write_text(ANSWERS + "".join(f"\n{name} = make({kind})\n" for name, kind in kinds.items()))
    return path


@pytest.mark.parametrize(
    "cls, reason",
    [
        ("Nothing", r"^answered None, not an action"),
        ("Text", r"^answered 'B3', not an action"),
        ("Float", r"^answered 1\.0, not an action"),
        ("Truth", r"^answered True, not an action"),
        ("Listed", r"^answered \[0\], not an action"),
        ("Huge", r"^illegal action 1000000000000000000000000000000000000\.\.\.$"),
        ("Big", r"^illegal action \S+$"),
        ("Negative", r"^illegal action \S+$"),
        ("Exits", r"^raised SystemExit \(answers\.py, line \d+\)$"),
        ("Own", r"^raised Own: mine \(answers\.py, line \d+\)$"),
        ("Index", r"^answered .*, whose __index__ raised RuntimeError: no number \(answers\.py, line \d+\)$"),
    ],
)
def test_any_answer_that_is_no_legal_action_forfeits_with_its_reason(answers, cls, reason):
    spec = f"{answers}:{cls}"
    config = MatchConfig(bots=(spec, "random"), variant="classic[sequences_to_win=1]", seed=1)
    records = run_games(config, 2, jobs=1)
    assert len(records) == 2
    for r in records:
        assert r["termination"] == "forfeit" and r["forfeit"]["bot"] == spec
        assert "\n" not in r["forfeit"]["reason"]
        assert re.match(reason, r["forfeit"]["reason"]), r["forfeit"]["reason"]


def test_prints_and_a_sys_exit_in_close_leave_json_clean(answers):
    for cls in ("Legal", "Closes"):
        result = run("match", f"{answers}:{cls}", "random", "--games", "2", "--seed", "1", "--json")
        assert result.exit_code == 0, (result.stderr, result.exception)
        json.loads(result.stdout)


def _bad_files(folder):
    (folder / "syntax.py").write_text("def f(:\n")
    (folder / "nul.py").write_bytes(b"x = 1\0\n")
    (folder / "undecodable.py").write_bytes(b"\xff\xfe = 1\n")
    (folder / "exits.py").write_text("raise SystemExit(4)\n")
    (folder / "folder.py").mkdir()
    os.mkfifo(folder / "fifo.py")
    os.symlink(folder / "gone.py", folder / "dangling.py")
    (folder / "ok.py").write_text(
        "class B:\n    def choose(self, o, r):\n        return o.legal_actions()[0]\n"
    )


@pytest.mark.parametrize(
    "spec, message",
    [
        ("{d}/missing.py:B", r"cannot read {d}/missing\.py \(No such file or directory\)$"),
        ("{d}/dangling.py:B", r"cannot read {d}/dangling\.py \(No such file or directory\)$"),
        ("{d}/folder.py:B", r"{d}/folder\.py is not a file$"),
        ("{d}/fifo.py:B", r"{d}/fifo\.py is not a file$"),
        ("{d}/syntax.py:B", r"{d}/syntax\.py:1:\d+: invalid syntax$"),
        ("{d}/nul.py:B", r"{d}/nul\.py: source code (string )?cannot contain null bytes$"),
        ("{d}/undecodable.py:B", r"{d}/undecodable\.py(:\d+(:\d+)?)?: .*utf-8"),
        ("{d}/exits.py:B", r"loading {d}/exits\.py raised SystemExit: 4 \(exits\.py, line 1\)$"),
        ("{d}/ok.py:", r"name the class after the file"),
        ("{d}/ok.py:1x", r"'1x' is not a class name$"),
        ("{d}/ok.py:Missing", r"has no class 'Missing'$"),
        ("{d}/ok.py:B:depth=3", r"unknown parameter 'depth' \(known: none\)$"),
        ("{d}/ok.py:B:depth", r"parameters are key=value, not 'depth'$"),
        ("{d}:B", r"a bot file is a Python file ending in \.py"),
        ("/dev/null:B", r"a bot file is a Python file ending in \.py"),
        ("no_such_module_here:B", r"no module named 'no_such_module_here' on the Python path"),
        ("os:system", r"system is not a class but builtin_function_or_method$"),
        ("sys:exit", r"exit is not a class"),
        ("subprocess:Popen", r"Popen is not a bot: it has no method choose"),
        ("builtins:object", r"object is not a bot"),
    ],
)
def test_a_spec_that_names_no_bot_is_one_line(tmp_path, spec, message):
    _bad_files(tmp_path)
    d = str(tmp_path)
    line = fails("match", spec.format(d=d), "random", "--games", "2")
    assert re.search(message.format(d=re.escape(d)), line), line


PARAMS = """
from seqsolve.bots import Param


def picky(text):
    raise RuntimeError("never")


class Tuned:
    params = {
        "depth": Param(int, 1, "plies", 0, 10),
        "c": Param(float, 1.0, "exploration", 0, 5),
        "odd": Param(picky, None, "a kind of the writer's own"),
    }

    def __init__(self, **values):
        self.values = values

    def choose(self, observation, rng):
        return observation.legal_actions()[0]
"""


@pytest.mark.parametrize(
    "written, message",
    [
        ("depth=11", "parameter depth must be at least 0 and at most 10 (not 11)"),
        ("depth=-1", "parameter depth must be at least 0 and at most 10 (not -1)"),
        ("depth=99999999999999999999", "at most 10"),
        ("depth=1.5", "parameter depth takes a int, not '1.5'"),
        ("depth=5_0", "parameter depth takes a int, not '5_0'"),
        ("depth=\uff15", "parameter depth takes a int"),
        ("c=nan", "parameter c must be at least 0 and at most 5 (not nan)"),
        ("c=inf", "at most 5"),
        ("c=1_0", "parameter c takes a float"),
        ("odd=x", "parameter odd takes a picky, not 'x'"),
        ("deep=1", "unknown parameter 'deep' (known: depth, c, odd)"),
    ],
)
def test_a_parameter_unknown_out_of_range_or_oddly_written_is_one_line(tmp_path, written, message):
    (tmp_path / "tuned.py").write_text(PARAMS)
    line = fails("match", f"{tmp_path}/tuned.py:Tuned:{written}", "random", "--games", "2")
    assert message in line, line
