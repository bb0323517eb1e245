"""Pictures of positions (issue 15): the SVG of a Sequence position is well-formed and
holds what the position holds — a chip per chip, by colour, locked chips marked (C-27),
a line per completed sequence (C-25), the card faces and coordinates (C-5, §1.2) — and
a mark with its label per given turn; the PNG draws the same shapes."""

from __future__ import annotations

import io
from importlib import resources
from xml.etree import ElementTree as ET

import pytest

from seqsolve.games import read_state
from seqsolve.games.base import Game, MoveSyntaxError, NotSupported
from seqsolve.games.sequence.board import window_name
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.games.sequence.state import State
from seqsolve.games.sequence.svg import card_face

NS = "{http://www.w3.org/2000/svg}"
EXAMPLE3 = resources.files("seqsolve").joinpath("data", "example3.sqn").read_text(encoding="utf-8")


def _elements(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def _finished_game(seed: int) -> State:
    state = State.new(SEQUENCE.rules("classic", 2), seed=seed)
    while not state.is_terminal():
        state.apply(state.random_action())
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_chip_element_per_chip_by_colour_and_lock_c27(seed):
    state = _finished_game(seed)
    pos = state.to_position()
    svg = SEQUENCE.picture(state)
    chips = {e.get("data-cell"): e for e in _elements(svg, "chip")}
    board = {f"{'abcdefghij'[c % 10]}{c // 10 + 1}": t for c, t in enumerate(pos.board) if t not in ".*"}
    assert len(chips) == len(_elements(svg, "chip")) == len(board) > 0
    for cell, token in board.items():
        assert chips[cell].get("data-colour") == token.lower()
        assert chips[cell].get("data-locked") == ("true" if token.isupper() else "false")
    assert any(t.isupper() for t in board.values())  # a finished game has a sequence: locked chips
    rings = sorted(e.get("data-cell") for e in _elements(svg, "lock"))
    assert rings == sorted(cell for cell, t in board.items() if t.isupper())


def test_a_line_per_completed_sequence_c25():
    state = read_state(EXAMPLE3)
    lines = _elements(SEQUENCE.picture(state), "sequence")
    assert (
        [(e.get("data-colour"), e.get("data-window")) for e in lines]
        == [(colour, window_name(w)) for colour, w in state.sequences()]
        == [("g", "b3-f3"), ("b", "e4-e8"), ("b", "e6-i6")]
    )
    e4_e8 = lines[1]  # drawn from the centre of e4 to the centre of e8: one column, five rows
    assert e4_e8.get("x1") == e4_e8.get("x2") and float(e4_e8.get("y2")) - float(e4_e8.get("y1")) == 4 * 60


def test_card_faces_corners_and_coordinates_c5():
    svg = SEQUENCE.picture(read_state(EXAMPLE3))
    cards = _elements(svg, "card")
    assert len(cards) == 96 and len(_elements(svg, "corner")) == 4
    assert {e.get("data-cell"): e.get("data-card") for e in cards}["e5"] == "5H"  # the Jax board
    texts = [e.text for e in ET.fromstring(svg).iter(f"{NS}text")]
    assert "5\u2665" in texts and "10\u2666" in texts  # rank and suit symbol in the corners
    for name in list("abcdefghij") + [str(n) for n in range(1, 11)]:
        assert texts.count(name) >= 2  # both sides of the board
    assert card_face("N17") == ("N17", "", "#222222")  # Numbers' stand-ins print as they are


def test_a_mark_per_given_turn_with_its_label():
    state = read_state(EXAMPLE3)  # seat 2 exchanged already; it holds 9H for i3
    marks = [
        {"move": "9H@i3", "label": "61%"},
        {"move": "TH@f7", "label": "<40% & falling>"},  # escaped, read back whole
        {"move": "2Cxg4", "label": "12%"},
        {"move": "pass", "label": "0%"},
    ]
    svg = SEQUENCE.picture(state, marks=marks)
    found = _elements(svg, "mark")
    assert [e.get("data-move") for e in found] == ["9H@i3", "TH@f7", "2Cxg4", "pass"]
    assert [e.get("data-cell") for e in found] == ["i3", "f7", "g4", None]  # a pass lands nowhere
    labels = {e.get("data-move"): e.text for e in _elements(svg, "mark-label")}
    assert labels["9H@i3"] == "61%" and labels["TH@f7"] == "<40% & falling>"
    assert "0%" in labels["pass"] and "pass" in labels["pass"]  # listed below the board


def test_an_exchange_and_its_play_share_the_cell_with_both_labels():
    state = read_state(EXAMPLE3)
    svg = SEQUENCE.picture(
        state, marks=[{"move": "9H@i3", "label": "a"}, {"move": "~2C 9H@i3", "label": "b"}]
    )
    assert [e.get("data-cell") for e in _elements(svg, "mark")] == ["i3", "i3"]
    label_ys = [float(e.get("y")) for e in _elements(svg, "mark-label")]
    assert label_ys[1] > label_ys[0]  # stacked, not drawn over each other


def test_a_mark_not_in_move_notation_is_refused():
    with pytest.raises(MoveSyntaxError):
        SEQUENCE.picture(read_state(EXAMPLE3), marks=[{"move": "9H-i3", "label": "x"}])


def test_the_viewer_sees_only_its_own_hand():
    state = read_state(EXAMPLE3)
    assert "holding 10\u2660 3\u2665" in SEQUENCE.picture(state)  # seat 2 moves and its hand is listed
    assert "holding ?6" in SEQUENCE.picture(state, viewer=0)


def test_a_state_shows_itself_as_its_picture_in_jupyter():
    state = read_state(EXAMPLE3)
    svg = state._repr_svg_()
    assert svg == SEQUENCE.picture(state) and ET.fromstring(svg).tag == f"{NS}svg"


def test_the_png_draws_the_same_picture():
    from matplotlib.image import imread

    from seqsolve.balance.plots import new_figure

    data = SEQUENCE.picture_png(read_state(EXAMPLE3), new_figure, marks=[{"move": "9H@i3", "label": "61%"}])
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = imread(io.BytesIO(data))
    root = ET.fromstring(SEQUENCE.picture(read_state(EXAMPLE3)))
    assert image.shape[:2] == (int(root.get("height")), int(root.get("width")))
    assert image[..., :3].std() > 0.05


def test_a_game_without_pictures_says_so():
    class Pictureless(Game):  # the protocol's own methods: what a game that draws nothing says
        name = "pictureless"

    with pytest.raises(NotSupported, match="the game pictureless draws no pictures"):
        Pictureless().picture(None)
    with pytest.raises(NotSupported):
        Pictureless().picture_png(None, None)
