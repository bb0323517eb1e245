"""Pictures on the command line (issue 15): ``show --to svg|png`` with ``--arrows`` from
``analyze --json``, ``analyze --to svg``, ``annotate --pictures DIR``; and their bad
input: one line, exit 1 (2 for options that mean nothing together), nothing written."""

from __future__ import annotations

import json
from importlib import resources
from xml.etree import ElementTree as ET

import pytest
from cli_helpers import fails, ok

from seqsolve.cli.pictures import win_label
from seqsolve.games import read_state
from seqsolve.games.sequence.game import SEQUENCE

EXAMPLE3 = resources.files("seqsolve").joinpath("data", "example3.sqn").read_text(encoding="utf-8")
SEARCH = ("--iters", "600", "--seed", "5")
#: example 3 as its seat to move (2) sees it: the 'position' of its analysis
VIEW3 = SEQUENCE.write_position(read_state(EXAMPLE3), 2)


def _analysis(moves: list[dict], turn=70, to_move=2, position: str | None = VIEW3) -> str:
    """An ``analyze --json`` object of example 3 as far as ``--arrows`` reads it."""
    return json.dumps({"moves": moves, "turn": turn, "to_move": to_move, "position": position})


def _marks(svg: str) -> list[tuple[str, str]]:
    return [
        (e.get("data-move"), e.get("data-label"))
        for e in ET.fromstring(svg).iter()
        if e.get("class") == "mark"
    ]


@pytest.fixture(scope="module")
def analysis(tmp_path_factory) -> tuple[str, dict]:
    path = tmp_path_factory.mktemp("arrows") / "best.json"
    text = ok("analyze", "example:3", *SEARCH, "--top", "4", "--json")
    path.write_text(text)
    return str(path), json.loads(text)


def test_show_to_svg_is_the_games_picture_on_stdout_or_in_a_file(tmp_path):
    svg = ok("show", "example:3", "--to", "svg")
    assert svg == SEQUENCE.picture(read_state(EXAMPLE3))
    out = tmp_path / "board.svg"
    assert ok("show", "example:3", "--to", "svg", "--out", str(out)) == ""
    assert out.read_text(encoding="utf-8") == svg
    hidden = ok("show", "example:3", "--to", "svg", "--viewer", "0")
    assert "holding ?6" in hidden and "holding ?6" not in svg


def test_show_to_png_writes_a_png(tmp_path):
    out = tmp_path / "board.png"
    assert ok("show", "--new", "--seed", "3", "--play-random", "--to", "png", "--out", str(out)) == ""
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_show_arrows_marks_each_turn_of_the_analysis_with_its_win_chance(analysis):
    path, data = analysis
    marks = _marks(ok("show", "example:3", "--to", "svg", "--arrows", path))
    assert marks == [(m["move"], win_label(m["win"])) for m in data["moves"]]
    assert len(marks) == 4


def test_analyze_to_svg_marks_the_best_three_turns(analysis):
    _, data = analysis
    marks = _marks(ok("analyze", "example:3", *SEARCH, "--to", "svg"))
    assert marks == [(m["move"], win_label(m["win"])) for m in data["moves"][:3]]
    assert len(_marks(ok("analyze", "example:3", *SEARCH, "--to", "svg", "--top", "1"))) == 1


@pytest.mark.parametrize(
    "content, words",
    [
        ("not json", "not the JSON of 'seqsolve analyze --json'"),
        ("[1, 2]", "no list of moves"),
        (_analysis([], turn="70"), "'turn' is not a whole number"),
        (_analysis([{"move": "9H@i3", "win": 7}]), "move 1 is not a turn"),
        (_analysis([{"move": "9H@i3", "win": 0.5}], turn=33, to_move=1), "analyses turn 33"),
        (_analysis([{"move": "5S@b2", "win": 0.5}]), "turn 1 '5S@b2' cannot be played"),
        (_analysis([{"move": "5Sb2", "win": 0.5}]), "bad move"),
        (_analysis([{"move": "9H@i3", "win": 0.5}], position=None), "no 'position' text"),
        (_analysis([{"move": "9H@i3", "win": 0.5}], position="classic 8x8"), "analyses another position"),
    ],
)
def test_a_bad_arrows_file_is_one_line_and_nothing_is_written(tmp_path, content, words):
    arrows = tmp_path / "arrows.json"
    arrows.write_text(content)
    out = tmp_path / "board.svg"
    line = fails("show", "example:3", "--to", "svg", "--arrows", str(arrows), "--out", str(out))
    assert f"--arrows {arrows}" in line and words in line
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["arrows.json"]


def test_an_analysis_of_another_position_at_the_same_turn_is_refused(analysis, tmp_path):
    """Only the turn and the seat to move were compared: the marks and win chances of
    another position, same turn, same mover, were drawn on this one."""
    path, _ = analysis
    # the mover's 2C swapped with the draw pile's 4H
    other = EXAMPLE3.replace("TS,3H,8H,9H,TH,2C", "TS,3H,8H,9H,TH,4H", 1).replace("AH,4H 70", "AH,2C 70", 1)
    assert other != EXAMPLE3
    position = tmp_path / "other.sqn"
    position.write_text(other)
    line = fails("show", str(position), "--to", "svg", "--arrows", path)
    assert line == (
        f"seqsolve: --arrows {path} analyses another position than this one (turn 70, seat 2 to move in both):"
        " its 'position' differs"
    )

    # an analysis with every card known fits its position, still not another
    opened = tmp_path / "open.json"
    opened.write_text(ok("analyze", "example:4", "--iters", "50", "--seed", "5", "--open", "--json"))
    assert _marks(ok("show", "example:4", "--to", "svg", "--arrows", str(opened)))
    example4 = resources.files("seqsolve").joinpath("data", "example4.sqn").read_text(encoding="utf-8")
    position.write_text(example4.replace("8C,TC/", "8C,QD/", 1).replace("QC,QD 32", "QC,TC 32", 1))
    assert "analyses another position" in fails("show", str(position), "--to", "svg", "--arrows", str(opened))


def test_an_unreadable_arrows_file_and_a_missing_out_folder(tmp_path):
    assert "cannot read" in fails("show", "example:3", "--to", "svg", "--arrows", str(tmp_path / "none.json"))
    line = fails("show", "example:3", "--to", "svg", "--out", str(tmp_path / "no" / "board.svg"))
    assert "does not exist" in line
    line = fails("analyze", "example:3", *SEARCH, "--to", "svg", "--out", str(tmp_path / "no" / "b.svg"))
    assert "--out" in line and "does not exist" in line


@pytest.mark.parametrize(
    "args, words",
    [
        (("show", "example:3", "--to", "png"), "--to png writes a file"),
        (("show", "example:3", "--arrows", "a.json"), "--arrows goes with --to"),
        (("show", "example:3", "--out", "a.svg"), "--out goes with --to"),
        (("show", "example:3", "--to", "svg", "--json"), "--json and --to"),
        (("analyze", "example:3", "--to", "svg", "--json"), "--json and --to"),
        (("show", "example:3", "--to", "gif"), "'gif' is not one of"),
    ],
)
def test_picture_options_that_mean_nothing_together_are_usage_errors(args, words):
    assert words in fails(*args, code=2)


def test_annotate_draws_each_marked_decision(tmp_path):
    records = tmp_path / "games.jsonl"
    ok("match", "random", "greedy", "--games", "2", "--seed", "1", "--jobs", "1", "--out", str(records))
    folder = tmp_path / "pictures"
    result = json.loads(
        ok(
            "annotate",
            str(records),
            "--game",
            "0",
            "--seat",
            "0",
            "--iters",
            "200",
            "--seed",
            "2",
            "--mistake",
            "0",
            "--blunder",
            "0.3",
            "--pictures",
            str(folder),
            "--json",
        )
    )
    marked = [d for d in result["decisions"] if d["mark"]]
    assert marked and len(result["pictures"]) == len(marked)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"ply{d['ply']:04d}-seat0-{d['mark']}.svg" for d in marked
    )
    for d in marked:
        svg = (folder / f"ply{d['ply']:04d}-seat0-{d['mark']}.svg").read_text(encoding="utf-8")
        assert _marks(svg) == [
            (d["best"], f"better {win_label(d['win_best'])}"),
            (d["played"], f"played {win_label(d['win_played'])}"),
        ]


def test_annotate_pictures_in_a_missing_folder_is_refused_before_any_analysis(tmp_path):
    records = tmp_path / "games.jsonl"
    ok("match", "random", "greedy", "--games", "2", "--seed", "1", "--jobs", "1", "--out", str(records))
    line = fails("annotate", str(records), "--game", "0", "--pictures", str(tmp_path / "a" / "b"))
    assert "--pictures" in line and "does not exist" in line
