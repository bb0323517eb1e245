"""``seqsolve play`` fed random lines (hypothesis): commands with and without words
after them, move numbers, moves in and out of the notation, garbage, unicode, empty
lines, then the end of input.  Whatever is typed: no traceback, the command ends (the
input is finite and every line is answered), and no file appears but the record, the
position left beside it and the files a ``save`` said it wrote.
"""

from __future__ import annotations

import os
import re
import tempfile

from cli_helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: a file name for ``save``: plain, with spaces, quoted, or not one name at all (never a
#: path out of the test's folder)
NAMES = st.one_of(
    st.sampled_from(
        ["a.sqn", "b.stn", "c.txt", "x y.sqn", '"q x.sqn"', "'s.stn", "a b c", "", ".", "..", "-"]
    ),
    st.text(st.characters(blacklist_characters="/\\~\x00", blacklist_categories=("Cs",)), max_size=8),
)

WORDS = ["moves", "hint", "undo", "quit", "save", "pass", "1", "2", "99", "0", "-1"]

MOVES = st.sampled_from(
    [
        "5H@e5",
        "JSxe5",
        "~5S",
        "~5S 9H@i3",
        "KS@b4",
        "B1",
        "~B3",
        "end",
        "block",
        "BW>0",
        "SC@2",
        "1 2",
        "1 1 1",
    ]
)

LINE = st.one_of(
    st.sampled_from(WORDS),
    st.builds(lambda w, x: f"{w} {x}", st.sampled_from(WORDS), st.text(max_size=6)),
    st.builds(lambda name: f"save {name}", NAMES),
    st.integers(-3, 400).map(str),
    MOVES,
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"), max_size=20),
    st.just(""),
)


def _fuzz(variant: str, lines: list[str], end_with_quit: bool) -> None:
    text = "".join(line + "\n" for line in lines) + ("quit\n" if end_with_quit else "")
    with tempfile.TemporaryDirectory() as folder:
        here = os.getcwd()
        os.chdir(folder)
        try:
            result = run(
                "play",
                "--variant",
                variant,
                "--bot",
                "random",
                "--seed",
                "5",
                "--hint-time",
                "0.01",
                "--no-review",
                "--out",
                "game.jsonl",
                input=text,
                env={"HOME": folder},
            )
            made = set(os.listdir(folder))
        finally:
            os.chdir(here)
    assert result.exit_code == 0, (result.stdout[-3000:], result.stderr, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr == ""
    assert "Traceback" not in result.stdout
    saved = set(re.findall(r"saved (.+?): ['\"]seqsolve play --from", result.stdout))
    assert made <= {"game.jsonl", "game.sqn", "game.stn"} | saved, made


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, max_size=12), st.booleans())
def test_classic_play_survives_any_lines(lines, quit):
    _fuzz("classic[sequences_to_win=1]", lines, quit)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, max_size=12), st.booleans())
def test_stacks_play_survives_any_lines(lines, quit):
    _fuzz("stacks", lines, quit)
