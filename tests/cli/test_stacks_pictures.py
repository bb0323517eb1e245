"""Pictures of Sequence Stacks positions on the command line: ``show --to
svg|png`` with ``--arrows`` from ``analyze --json``, ``analyze --to svg|png``,
``annotate --pictures DIR`` on a Stacks record, the same as for Sequence; and bad
input: one line, exit 1 (2 for options that mean nothing together), nothing written."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest
from cli_helpers import fails, ok

from seqsolve.cli.pictures import win_label
from seqsolve.games.stacks.game import STACKS

#: seat 0 to move, with a blue pile of 2 and a red pile of 1 on the table
POSITION = "stacks 0> B3,B4,R5,R5,SX/B2,B3,R2,R4,BK -/- - B1+B2,R1 0b0r/1b1r 0/0 5 94 0 0\n"
SEARCH = ("--iters", "300", "--seed", "5")


def _elements(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == cls]


def _marks(svg: str) -> list[tuple[str, str]]:
    return [(e.get("data-move"), e.get("data-label")) for e in _elements(svg, "mark")]


@pytest.fixture(scope="module")
def position(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("stacks") / "game.stn"
    path.write_text(POSITION)
    return str(path)


@pytest.fixture(scope="module")
def analysis(tmp_path_factory, position) -> tuple[str, dict]:
    path = tmp_path_factory.mktemp("arrows") / "best.json"
    text = ok("analyze", position, *SEARCH, "--top", "4", "--json")
    path.write_text(text)
    return str(path), json.loads(text)


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    ok(
        "match",
        "random",
        "greedy",
        "--variant",
        "stacks",
        "--games",
        "1",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--out",
        str(path),
    )
    return str(path)


def test_show_to_svg_is_the_games_picture_on_stdout_or_in_a_file(tmp_path, position):
    svg = ok("show", position, "--to", "svg")
    assert svg == STACKS.picture(STACKS.read_position(POSITION))
    assert (
        len(_elements(svg, "pile")) == 2
        and len(_elements(svg, "chip")) == 2
        and len(_elements(svg, "card")) == 10
    )
    out = tmp_path / "table.svg"
    assert ok("show", position, "--to", "svg", "--out", str(out)) == ""
    assert out.read_text(encoding="utf-8") == svg
    hidden = ok("show", position, "--to", "svg", "--viewer", "0")
    assert [e.get("data-card") for e in _elements(hidden, "card") if e.get("data-seat") == "1"] == ["?"] * 5


def test_show_a_new_deal_played_out_to_png(tmp_path):
    out = tmp_path / "table.png"
    args = ("show", "--new", "--variant", "stacks", "--players", "3", "--seed", "3", "--play-random")
    assert ok(*args, "--to", "png", "--out", str(out)) == ""
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    svg = ok(*args, "--to", "svg")
    assert len(_elements(svg, "last-decision")) == 1  # the game's last decision, where it landed


def test_show_arrows_marks_each_decision_of_the_analysis_with_its_win_chance(analysis, position):
    path, data = analysis
    marks = _marks(ok("show", position, "--to", "svg", "--arrows", path))
    assert marks == [(m["move"], win_label(m["win"])) for m in data["moves"]]
    assert len(marks) == 4


def test_analyze_to_svg_marks_the_best_three_decisions_and_to_png_writes_one(analysis, position, tmp_path):
    _, data = analysis
    marks = _marks(ok("analyze", position, *SEARCH, "--to", "svg"))
    assert marks == [(m["move"], win_label(m["win"])) for m in data["moves"][:3]]
    assert len(_marks(ok("analyze", position, *SEARCH, "--to", "svg", "--top", "1"))) == 1
    out = tmp_path / "best.png"
    assert ok("analyze", position, *SEARCH, "--to", "png", "--out", str(out)) == ""
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_annotate_draws_each_marked_decision_of_a_stacks_game(tmp_path, record):
    folder = tmp_path / "pictures"
    args = ("annotate", record, "--game", "0", "--seat", "0", "--iters", "20", "--seed", "2")
    result = json.loads(ok(*args, "--mistake", "0", "--blunder", "0.3", "--pictures", str(folder), "--json"))
    marked = [d for d in result["decisions"] if d["mark"]]
    assert marked and len(result["pictures"]) == len(marked)
    names = [f"ply{d['ply']:04d}-seat0-{d['mark']}.svg" for d in marked]
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)
    for d, name in zip(marked, names):
        svg = (folder / name).read_text(encoding="utf-8")
        assert _marks(svg) == [
            (d["best"], f"better {win_label(d['win_best'])}"),
            (d["played"], f"played {win_label(d['win_played'])}"),
        ]
        # the position as seat 0 saw it: the other hand hidden
        assert {e.get("data-card") for e in _elements(svg, "card") if e.get("data-seat") == "1"} <= {"?"}


# ---------------------------------------------------------------- bad input


def test_a_sequence_analysis_on_a_stacks_position_is_one_line(tmp_path, position):
    arrows = tmp_path / "classic.json"
    arrows.write_text(ok("analyze", "example:3", "--iters", "50", "--seed", "1", "--json"))
    out = tmp_path / "table.svg"
    line = fails("show", position, "--to", "svg", "--arrows", str(arrows), "--out", str(out))
    assert line.startswith(f"seqsolve: --arrows {arrows} analyses turn 70")
    assert not out.exists()


def test_an_analysis_of_another_stacks_position_is_refused(tmp_path, analysis):
    path, _ = analysis
    other = tmp_path / "other.stn"
    other.write_text(POSITION.replace("B3,B4,R5,R5,SX/B2", "B2,B4,R5,R5,SX/B3", 1))
    line = fails("show", str(other), "--to", "svg", "--arrows", path)
    assert "analyses another position" in line


def test_an_arrow_that_cannot_be_played_here_is_refused(tmp_path, position):
    arrows = tmp_path / "bad.json"
    stn = STACKS.write_position(STACKS.read_position(POSITION), 0)
    arrows.write_text(
        json.dumps({"moves": [{"move": "R3", "win": 0.5}], "turn": 0, "to_move": 0, "position": stn})
    )
    line = fails("show", position, "--to", "svg", "--arrows", str(arrows))
    assert line.startswith(f"seqsolve: --arrows {arrows}: turn 1 'R3' cannot be played here: R3:")


def test_unwritable_outputs_are_one_line_and_nothing_is_written(tmp_path, position, record):
    for command in (("show", position, "--to", "svg"), ("analyze", position, *SEARCH, "--to", "png")):
        line = fails(*command, "--out", str(tmp_path / "no" / f"table.{command[-1]}"))
        assert "--out" in line and "does not exist" in line
    assert "is a directory" in fails("show", position, "--to", "svg", "--out", str(tmp_path), code=2)
    pictures = tmp_path / "gone" / "pictures"
    line = fails("annotate", record, "--game", "0", "--iters", "5", "--pictures", str(pictures))
    assert "--pictures" in line and "does not exist" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args, words",
    [
        (("--to", "png"), "--to png writes a file"),
        (("--arrows", "a.json"), "--arrows goes with --to"),
        (("--out", "a.svg"), "--out goes with --to"),
        (("--to", "svg", "--json"), "--json and --to"),
        (("--to", "svg", "--out", "a.png"), "names a .png file but --to svg"),
    ],
)
def test_picture_options_that_mean_nothing_together_are_usage_errors(position, args, words):
    assert words in fails("show", position, *args, code=2)
