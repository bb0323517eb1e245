"""Pictures of Sequence Stacks positions: the SVG holds one element per
thing the position holds — a ``pile`` per sequence pile with its colour, top card and
count (ST-7, ST-8), a ``card`` per card of each hand (``?`` where hidden, §4.8), a
``chip`` per chip by seat and colour (ST-4), a ``discard`` per seat, the draw,
set-aside and special piles with their counts —, whose turn it is and any Block window
(ST-15), the last decision where it landed, and a mark per given decision; the PNG
draws the same picture.  The state remembers its last decision for that."""

from __future__ import annotations

import io
import json
from collections import Counter
from xml.etree import ElementTree as ET

import pytest

from seqsolve.games.base import MoveSyntaxError, PositionError
from seqsolve.games.stacks.actions import text_to_action
from seqsolve.games.stacks.cards import card_code
from seqsolve.games.stacks.game import STACKS
from seqsolve.games.stacks.position_text import parse, to_readable
from seqsolve.games.stacks.state import LastDecision, StacksState

NS = "{http://www.w3.org/2000/svg}"
#: seat 0 to move, a blue pile of 2 and a red pile of 1, seat 1 holds 1 blue and 1 red chip
SMALL = "stacks 0> B3,B4,R5,R5,SX/B2,B3,R2,R4,BK -/- - B1+B2,R1 0b0r/1b1r 0/0 5 94 0 0"
#: seat 2 completed a red pile and seat 1 is asked whether to block it (ST-15)
BLOCK_WINDOW = (
    "stacks 2<pk1 B1,B5,R3,R5/B3,R1,BK/B3,R1,R3,SC"
    " R2,SX,B3,B2,B3,B2,R3,R4,R2,R4,B4,RV,R1,R3/R4,B2,B4,B1,B4,B4,RW,R3,SX,B4,B4,BW,BW,B4"
    "/BW,BK,R5,B5,RW,R2,B5,B5,B2,R2,R5,R4,B1,B3,B2,R1 SK,SK,RV,SC,SC,SX R1+R2+RW+R4+R5,R1+RW,B1,B1"
    " 1b0r/0b2r/0b0r 0/0/0 15:B3,B4,B5,BW,BW,R1,R1,R2,R3,R3,R4,R4,R5,R5,RW"
    " 35:R3,BW,RV,B5,B2,B4,RW,R4,B5,B5,R2,B1,B3,B1,R5,B2,R4,R5,B3,R2,R5,R3,R2,B2,SX,RW,B1,SK,R1,BW,B3,B5,B1,B2,BK"
    " 54 1"
)


def _elements(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == cls]


def _played(players: int, seed: int, actions: int) -> StacksState:
    """A game of random decisions, ``actions`` of them or to its end."""
    state = STACKS.new_initial_state(STACKS.rules("stacks", players), seed=seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_legal(state.random_action())
    return state


POSITIONS = [
    (players, seed, actions) for players in (2, 3, 6) for seed, actions in ((1, 40), (2, 150), (3, 5000))
]


@pytest.mark.parametrize("players, seed, actions", POSITIONS)
def test_one_element_per_pile_chip_card_and_discard(players, seed, actions):
    state = _played(players, seed, actions)
    pos = state.to_position()
    svg = STACKS.picture(state)
    assert ET.fromstring(svg).tag == f"{NS}svg"

    piles = _elements(svg, "pile")
    assert [(e.get("data-colour"), int(e.get("data-count")), e.get("data-top")) for e in piles] == sorted(
        (("br"[p[0] // 6], len(p), card_code(p[-1])) for p in pos.piles), key=lambda t: t[0]
    ) or not pos.piles
    assert sorted(int(e.get("data-index")) for e in piles) == list(range(len(pos.piles)))
    for e in piles:
        pile = pos.piles[int(e.get("data-index"))]
        assert e.get("data-cards") == " ".join(card_code(c) for c in pile)

    chips = Counter((int(e.get("data-seat")), e.get("data-colour")) for e in _elements(svg, "chip"))
    assert chips == Counter(
        {(s, c): n for s, (b, r) in enumerate(pos.chips) for c, n in (("b", b), ("r", r)) if n}
    )

    for seat in range(players):
        cards = [e.get("data-card") for e in _elements(svg, "card") if e.get("data-seat") == str(seat)]
        assert cards == [card_code(c) for c in sorted(pos.hands[seat])] + ["?"] * pos.unknown[seat]
    assert len(_elements(svg, "card")) == sum(len(h) for h in pos.hands) + sum(pos.unknown)

    discards = _elements(svg, "discard")
    assert [(int(e.get("data-seat")), int(e.get("data-count")), e.get("data-top")) for e in discards] == [
        (s, len(d), card_code(d[-1]) if d else None) for s, d in enumerate(pos.discards)
    ]
    assert len(_elements(svg, "skip")) == sum(pos.skips)
    for cls, count in (
        ("draw-pile", pos.draw_count),
        ("aside-pile", pos.aside_count),
        ("special-pile", len(pos.special)),
    ):
        (element,) = _elements(svg, cls)
        assert int(element.get("data-count")) == count

    movers = [int(e.get("data-seat")) for e in _elements(svg, "to-move")]
    assert movers == ([] if pos.to_move is None else [pos.to_move])


def test_a_finished_game_says_who_won_and_outlines_no_mover():
    state = _played(2, 3, 5000)
    assert state.is_terminal()
    svg = STACKS.picture(state)
    title = ET.fromstring(svg).find(f"{NS}title").text
    winner = state.outcome().winner
    assert (f"seat {winner} wins" if winner is not None else "a draw") in title
    assert _elements(svg, "to-move") == []


def test_the_viewer_sees_its_own_hand_only():
    state = STACKS.read_position(SMALL)
    svg = STACKS.picture(state, viewer=0)
    by_seat = {
        s: [e.get("data-card") for e in _elements(svg, "card") if e.get("data-seat") == str(s)]
        for s in (0, 1)
    }
    assert by_seat == {0: ["B3", "B4", "R5", "R5", "SX"], 1: ["?"] * 5}
    assert "B2" in [e.get("data-card") for e in _elements(STACKS.picture(state), "card")]


def test_a_block_window_outlines_the_completed_pile_and_the_seat_asked_st15():
    state = STACKS.read_position(BLOCK_WINDOW)
    svg = STACKS.picture(state)
    (window,) = _elements(svg, "block-window")
    assert (window.get("data-seat"), window.get("data-pile")) == ("1", "0")
    (full,) = [e for e in _elements(svg, "pile") if e.get("data-index") == "0"]
    assert full.get("data-count") == "5"
    assert [e.get("data-seat") for e in _elements(svg, "to-move")] == ["2"]  # the completer's turn goes on
    assert "seat 1 is asked whether to block" in ET.fromstring(svg).find(f"{NS}title").text
    assert _elements(STACKS.picture(STACKS.read_position(SMALL)), "block-window") == []


def test_the_state_remembers_its_last_decision_through_clone_observation_and_positions():
    state = STACKS.read_position(SMALL)
    assert state.last_decision is None and state.to_position().last_decision is None
    assert _elements(STACKS.picture(state), "last-decision") == []
    state.apply("B3")
    assert state.last_decision == LastDecision(0, text_to_action("B3")) and state.last_decision.text == "B3"
    for copy in (state.clone(), state.observation(1), state.resample(1, 7)):
        assert copy.last_decision == state.last_decision
    again = StacksState.from_position(state.to_position())
    assert again.last_decision == state.last_decision
    assert again.to_position() == parse(state.to_text())  # a note on the position, not part of it
    state.apply_legal(text_to_action("~R5"))
    assert state.last_decision == (0, text_to_action("~R5"))
    state.play_turn("R2")  # seat 1's turn: the last word of a turn is its last decision
    assert state.last_decision.seat == 1 and state.last_decision.text == "R2"


@pytest.mark.parametrize(
    "decision, cls, where",
    [
        ("B3", "pile", {"data-top": "B3"}),
        ("~R5", "discard", {"data-seat": "0"}),
        ("SX@1r", "special-pile", {}),
    ],
)
def test_the_last_decision_is_marked_where_it_landed(decision, cls, where):
    state = STACKS.read_position(SMALL)
    state.apply(decision)
    svg = STACKS.picture(state)
    (last,) = _elements(svg, "last-decision")
    assert (last.get("data-seat"), last.get("data-move")) == ("0", decision)
    (landed,) = [e for e in _elements(svg, cls) if all(e.get(k) == v for k, v in where.items())]
    # the outline surrounds the element it marks
    lx, ly, lw, lh = (float(last.get(k)) for k in ("x", "y", "width", "height"))
    x, y, w, h = (float(landed.get(k)) for k in ("x", "y", "width", "height"))
    assert lx < x and ly < y and lx + lw > x + w and ly + lh > y + h
    assert "last decision: seat 0" in ET.fromstring(svg).find(f"{NS}title").text


def _outlines(last: ET.Element, element: ET.Element) -> bool:
    lx, ly, lw, lh = (float(last.get(k)) for k in ("x", "y", "width", "height"))
    x, y, w, h = (float(element.get(k)) for k in ("x", "y", "width", "height"))
    return lx < x and ly < y and lx + lw > x + w and ly + lh > y + h


@pytest.mark.parametrize("answer, chips", [("pass", "1"), ("block", "0")])
def test_a_completion_is_marked_on_its_pile_then_a_block_on_the_set_aside_stack_st9_st15(answer, chips):
    state = STACKS.read_position(
        "stacks 0> B3,B4,R5,R5,SX/B2,B3,R2,R4,BK -/- - B1+B2,R1+R2+R3+R4 0b0r/1b1r 0/0 5 91 0 0"
    )
    state.apply("R5")
    svg = STACKS.picture(state)
    (last,) = _elements(svg, "last-decision")
    (full,) = [e for e in _elements(svg, "pile") if e.get("data-count") == "5"]
    assert last.get("data-move") == "R5" and _outlines(last, full)
    assert _elements(svg, "block-window")[0].get("data-pile") == full.get("data-index")

    state.apply(answer)  # seat 1 answers: the pile goes to the set-aside stack either way
    svg = STACKS.picture(state)
    assert [e.get("data-top") for e in _elements(svg, "pile")] == ["B2"]
    (last,) = _elements(svg, "last-decision")
    (aside,) = _elements(svg, "aside-pile")
    assert (last.get("data-seat"), last.get("data-move"), aside.get("data-count")) == ("1", answer, "10")
    assert _outlines(last, aside) == (answer == "block")
    assert [e.get("data-seat") for e in _elements(svg, "chip") if e.get("data-colour") == "r"].count(
        "0"
    ) == int(chips)


def test_a_mark_per_decision_with_its_label_arrows_to_where_it_goes():
    state = STACKS.read_position(SMALL)
    marks = [
        {"move": "B3", "label": "61%"},
        {"move": "~B3", "label": "55%"},
        {"move": "SX@1b", "label": "40%"},
        {"move": "end", "label": "1%"},
    ]
    svg = STACKS.picture(state, marks=marks)
    found = [(e.get("data-move"), e.get("data-label")) for e in _elements(svg, "mark")]
    assert found == [(m["move"], m["label"]) for m in marks if m["move"] != "end"] + [("end", "1%")]
    kinds = {e.get("data-move"): e.tag for e in _elements(svg, "mark")}
    assert kinds == {"B3": f"{NS}line", "~B3": f"{NS}line", "SX@1b": f"{NS}line", "end": f"{NS}rect"}
    labels = [e.text for e in _elements(svg, "mark-label")]
    assert labels == ["61%", "55%", "40%", "end  1%"]
    (b3,) = [e for e in _elements(svg, "mark") if e.get("data-move") == "B3"]
    (pile,) = [e for e in _elements(svg, "pile") if e.get("data-top") == "B2"]
    assert float(b3.get("y2")) > float(pile.get("y"))  # from the hand up to the blue pile of 2


def test_block_in_a_block_window_arrows_from_the_block_card_to_the_pile():
    svg = STACKS.picture(
        STACKS.read_position(BLOCK_WINDOW), marks=[{"move": "block", "label": "70%"}, {"move": "pass"}]
    )
    (block,) = [e for e in _elements(svg, "mark") if e.get("data-move") == "block"]
    (card,) = [e for e in _elements(svg, "card") if e.get("data-seat") == "1" and e.get("data-card") == "BK"]
    assert float(block.get("x1")) == float(card.get("x")) + float(card.get("width")) / 2
    assert [e.get("data-move") for e in _elements(svg, "mark")] == ["block", "pass"]


def test_a_mark_not_in_stacks_notation_is_refused():
    with pytest.raises(MoveSyntaxError):
        STACKS.picture(STACKS.read_position(SMALL), marks=[{"move": "9H@i3", "label": "x"}])


def test_a_stacks_state_shows_itself_as_its_picture_in_jupyter():
    state = _played(3, 4, 60)
    assert state._repr_svg_() == STACKS.picture(state)


def test_the_png_draws_the_same_picture():
    from matplotlib.image import imread

    from seqsolve.balance.plots import new_figure

    state = STACKS.read_position(BLOCK_WINDOW)
    marks = [{"move": "block", "label": "61%"}, {"move": "pass", "label": "39%"}]
    data = STACKS.picture_png(state, new_figure, marks=marks)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = imread(io.BytesIO(data))
    root = ET.fromstring(STACKS.picture(state, marks=marks))
    assert image.shape[:2] == (int(root.get("height")), int(root.get("width")))
    assert image[..., :3].std() > 0.05


# ---------------------------------------------------------------- the last decision in position files


def test_the_readable_form_and_json_keep_the_last_decision_and_stn_does_not():
    state = STACKS.read_position(SMALL)
    state.play_turn("B3")
    readable = state.to_text("readable")
    assert "\nlast: 0 B3\n" in readable
    again = STACKS.read_position(readable)
    assert again.last_decision == state.last_decision and again.to_text("readable") == readable
    assert json.loads(state.to_text("json"))["last_decision"] == {"seat": 0, "decision": "B3"}
    stn = state.to_text()
    assert "last" not in stn and STACKS.read_position(stn).last_decision is None
    assert STACKS.read_position(stn).to_position() == again.to_position()
    assert "last       seat 0: B3" in STACKS.render(again, None, None, False, [])
    (last,) = _elements(STACKS.picture(again), "last-decision")
    assert last.get("data-move") == "B3"
    assert STACKS.read_position(readable.replace("last: 0 B3", "last: -")).last_decision is None


@pytest.mark.parametrize(
    "line, column, words",
    [
        ("last: 2 B3", 7, "bad last seat '2': a seat is 0 to 1"),
        ("last: 0 Q9", 9, "unknown Stacks card 'Q9'"),
        ("last: 0", 7, "last takes a seat and a decision"),
        ("last: 0 B3 ~R5", 7, "last takes a seat and a decision"),
    ],
)
def test_a_bad_last_line_is_refused_with_its_line_and_column(line, column, words):
    readable = parse(SMALL)
    text = to_readable(readable).replace("quiet: 0\n", f"quiet: 0\n{line}\n")
    number = text.splitlines().index(line) + 1
    with pytest.raises(PositionError) as caught:
        parse(text, "game.txt")
    message = str(caught.value)
    assert message.startswith(f"game.txt:{number}:{column}: ") and words in message


@pytest.mark.parametrize("variant", ["stacks", "stacks[stacks_max_piles_per_colour=3]"])
@pytest.mark.parametrize("seed", range(8))
def test_every_legal_decision_of_any_position_is_a_mark(variant, seed):
    """Random positions of any size, a Block window among them: each legal decision of
    the seat asked is one mark, whether drawn as an arrow or as a line below."""
    state = STACKS.new_initial_state(STACKS.rules(variant, 2 + seed % 5), seed=seed)
    for _ in range(30 + 37 * seed):  # stopping before the end of the game
        after = state.clone()
        after.apply_legal(after.random_action())
        if after.is_terminal():
            break
        state = after
    seat = state.current_player
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    for view in (state, state.observation(seat)):
        svg = STACKS.picture(view, marks=[{"move": m, "label": f"{k}%"} for k, m in enumerate(legal)])
        assert sorted(e.get("data-move") for e in _elements(svg, "mark")) == sorted(legal)
        places = len(_elements(svg, "pile-slot")) + len(_elements(svg, "pile"))
        assert places == 2 * state.rules.max_piles_per_colour  # a slot where a pile may start (ST-7)
