"""Stacks position files (docs/stacks.md, "Position files"): the docs' example, both
forms round trip, and every check of the "Validation" section refuses with the line and
column of the text at fault."""

from __future__ import annotations

import pathlib
import random
import re

import pytest

from seqsolve.games.stacks.cards import Card
from seqsolve.games.stacks.position_text import PositionError, parse, to_readable, to_stn
from seqsolve.games.stacks.rules import make_rules
from seqsolve.reference.stacks import ReferenceStacks

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs" / "stacks.md"
EXAMPLE = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"


def _docs_block(after: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    return re.search(re.escape(after) + r".*?```\n(.*?)```", text, re.DOTALL).group(1)


def test_the_docs_examples_parse_and_are_one_position():
    """Both example blocks of docs/stacks.md give the same position, written back as the docs write it."""
    line = _docs_block("Example (2 players").strip()
    assert line == EXAMPLE
    pos = parse(line, "docs/stacks.md")
    readable = parse(_docs_block("### Readable form"), "docs/stacks.md")
    assert readable == pos
    assert to_stn(pos) == EXAMPLE
    assert pos.hands[0] == [Card.B4, Card.BW, Card.R2, Card.SK, Card.BK] and pos.unknown == [0, 5]
    assert (pos.aside_count, pos.aside_cards, pos.draw_count, pos.draw_cards) == (5, None, 91, None)
    docs_lines = [ln.split("#")[0].rstrip() for ln in _docs_block("### Readable form").splitlines()]
    assert to_readable(pos).splitlines() == docs_lines


def _positions():
    """Positions of random reference games under several seatings and options: in the
    middle of turns and Block windows, finished, and as seen by one seat."""
    found = []
    for variant, players in [
        ("stacks", 2),
        ("stacks", 3),
        ("stacks[stacks_refill=empty_hand_only,stacks_chip_supply=3]", 4),
        ("stacks[stacks_two_player_removal=false,stacks_steal_chip_can_win=true]", 2),
        ("stacks[max_turns=40]", 6),
        (
            "stacks[stacks_chip_supply=1,stacks_win_chips=2,stacks_win_min_each=1]",
            2,
        ),  # refills within a turn once the chips are out, the stalled draw (ST-22)
    ]:
        rules = make_rules(variant, players)
        for seed in range(4):
            rng = random.Random(seed)
            game = ReferenceStacks.new(rules, random.Random(seed))
            while not game.is_terminal():
                game.apply(rng.choice(game.legal_actions()))
                rare = game.block_asked is not None or game.refilled
                if rng.random() < 0.02 or rare and rng.random() < 0.3:
                    found.append(game.to_position())
            found.append(game.to_position())
    return found


def _seen_by_seat_0(pos):
    """The position with the other hands and the draw pile unknown (docs: Information)."""
    unseen = parse(to_stn(pos))
    for seat in range(1, pos.players):
        unseen.unknown[seat] += len(unseen.hands[seat])
        unseen.hands[seat] = []
    unseen.draw_cards = None if unseen.draw_count else []
    return unseen


def test_both_forms_round_trip_without_loss():
    """docs/stacks.md: "Both forms convert into each other without loss"."""
    positions = _positions()
    assert any(p.block_asked is not None for p in positions) and any(p.result == "draw" for p in positions)
    assert any(isinstance(p.result, int) for p in positions) and any(p.direction == -1 for p in positions)
    assert any(p.refilled for p in positions)
    for pos in positions + [_seen_by_seat_0(p) for p in positions[::5]]:
        line = to_stn(pos)
        assert parse(line) == pos, line
        assert parse(to_readable(pos)) == pos, line
        assert to_stn(parse(to_readable(pos))) == line


def test_readable_keys_comments_and_lists_follow_the_classic_form():
    """P-10: case-insensitive keys in any order, comments, commas or blanks in lists,
    x- keys ignored, defaults for direction, progress, block-asked and skips."""
    text = """
    # a comment line
    seqsolve-position 1
    Draw: 91                      # count alone
    VARIANT: stacks
    options: stacks_chip_supply=5
    x-note: anything
    to-move: 0
    hand 1: ?5
    hand 0: BK, B4 BW,R2 SK
    discard 0: R5
    discard 1: B2
    special: -
    pile: B1, B2, B3
    pile: R1
    chips 0: 0 1
    chips 1: 0 0
    aside: 5
    turn: 6
    """
    pos = parse(text)
    assert to_stn(pos) == EXAMPLE.replace("stacks ", "stacks[stacks_chip_supply=5] ", 1)


# ---------------------------------------------------------------------------
# Validation: each check, where it points

BASE = "stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0"

REFUSED = [
    # (text, the text the error points at, what it says)
    ("stacks 0> B1/X9 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "X9", "unknown Stacks card 'X9'"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 11a 0 0", "11a", "draw count must be a whole number"),
    ("stacks 0> B1/?x -/- - - 0b0r/0b0r 0/0 0 110 0 0", "x", "unknown cards must be a whole number"),
    ("stacks 3> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "3>", "bad to-move '3': a seat is 0 to 1"),
    ("stacks 0 B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "0 B1", "bad to-move '0'"),
    ("stacks !7 B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "7 B1", "bad winner '7'"),
    ("stacks 0> B1/B2 -/-/- - - 0b0r/0b0r 0/0 0 110 0 0", "- - - 0b0r", "discard entry for seat 2"),
    ("stacks 0> B1/B2 -/- - - 0b0r 0/0 0 110 0 0", " 0/0", "1 chips entries for 2 hands"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0 0 110 0 0", " 0 110", "1 skips entries for 2 hands"),
    ("stacks 0> B1/B2 -/- - - 0b/0b0r 0/0 0 110 0 0", "0b/", "bad chips '0b' for seat 0"),
    (
        "stacks 0> B1,B2 - - - 0b0r 0 0 110 0 0",
        "B1,B2",
        "1 hands: Sequence Stacks is for 2 to 6 players (ST-1)",
    ),
    ("stacks 0> B1/B2 -/- - B1+B3 0b0r/0b0r 0/0 0 108 0 0", "B3", "B3 as card 2 of a pile"),
    ("stacks 0> B1/B3 -/- - B2 0b0r/0b0r 0/0 0 109 0 0", "B2 ", "B2 as card 1 of a pile"),
    ("stacks 0> B1/B2 -/- - B1+RW 0b0r/0b0r 0/0 0 108 0 0", "RW", "RW on a b pile: a pile is one colour"),
    ("stacks 0> B1/B2 -/- - B1+SK 0b0r/0b0r 0/0 0 108 0 0", "SK", "SK is an action card"),
    ("stacks 0> B1/B2 -/- - B1+BW+BW+BW+BW+BW 0b0r/0b0r 0/0 0 104 0 0", "BW 0b", "a pile of 6 cards"),
    ("stacks 0> B1/B2 -/- - R1+R2+R3+R4+R5 0b0r/0b0r 0/0 0 105 0 0", "R1+", "a pile of 5 cards stands only"),
    ("stacks 0>k1 B1/B2 -/- - B1+B2+B3+B4+B5,R1+R2+R3+R4+R5 0b0r/0b0r 0/0 0 100 0 0", "R1+", "a pile of 5"),
    (
        "stacks 0> B1/B2 -/- - B1,BW,B1 0b0r/0b0r 0/0 0 107 0 0",
        "B1 0b",
        "more than 2 piles of one colour (ST-7",
    ),
    (
        "stacks 0> B1/B1,B1,B1,B1,B1,B1,B1,B1,B1 -/- - - 0b0r/0b0r 0/0 0 102 0 0",
        "B1 -",
        "B1 is named 10 times",
    ),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 109 0 0", "109", "the position holds 111 cards"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 5 106 0 0", "106", "the position holds 113 cards"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b21r 0/0 0 110 0 0", "0b21r", "more red chips than the supply of 20"),
    ("stacks 0> B1/B2 -/- - - 0b0r/2b3r 0/0 0 110 0 0", "2b3r", "seat 1 holds 2b3r and has won (ST-21)"),
    ("stacks 0> B1/B2 -/- B3 - 0b0r/0b0r 0/0 0 109 0 0", "B3", "B3 is not an action card"),
    ("stacks 0>rp B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "0>rp", "bad to-move '0>rp'"),
    ("stacks 0>k1 B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "1 B1", "no pile holds 5 cards (ST-15)"),
    ("stacks 0>k0 B1/B2 -/- - B1+B2+B3+B4+B5 0b0r/0b0r 0/0 0 105 0 0", "0 B1", "only an opponent is asked"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110:B3,B4 0 0", "110:", "draw count 110 but 2 cards listed"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 3:B1,B2 107 0 0", "3:", "aside count 3 but 2 cards listed"),
    ("stacks[foo=1] 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "stacks[", "unknown Stacks option 'foo'"),
    ("classic 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0", "classic", "is not Sequence Stacks' preset"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0", "$", "the quiet field is missing"),
    ("stacks 0> B1/B2 -/- - - 0b0r/0b0r 0/0 0 110 0 0 9", "9", "unexpected field '9'"),
    (BASE + "\nmore", "more", "a file holds one position"),
    ("", "", "empty position"),
]


def _expected_place(text: str, at: str) -> tuple[int, int]:
    """Where the first ``at`` in ``text`` starts; ``$`` is the end of the text."""
    index = len(text) if at == "$" else text.index(at)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


@pytest.mark.parametrize("text, at, message", REFUSED, ids=[m for _, _, m in REFUSED])
def test_a_bad_stn_position_is_refused_where_the_fault_is(text, at, message):
    with pytest.raises(PositionError) as caught:
        parse(text, "game.stn")
    err = caught.value
    assert message in err.message
    assert (err.line, err.column) == _expected_place(text, at)
    assert str(err).startswith(f"game.stn:{err.line}:{err.column}: ")


READABLE = """seqsolve-position 1
variant: stacks
to-move: 0
hand 0: B1
hand 1: B2
discard 0: -
discard 1: -
chips 0: 0 0
chips 1: 0 0
aside: 0
draw: 110
"""

READABLE_REFUSED = [
    ("to-move: 0", "to-mover: 0", "to-mover", "unknown key 'to-mover'"),
    ("to-move: 0", "to-move: 0\nTO-MOVE: 1", "TO-MOVE", "duplicate key 'to-move' (first on line 3)"),
    ("to-move: 0", "to-move: 0\ndirection: sideways", "sideways", "direction takes forward or reverse"),
    ("to-move: 0", "to-move: 0\nprogress: maybe", "maybe", "progress takes yes or no"),
    ("to-move: 0", "to-move: 0\nrefilled: maybe", "maybe", "refilled takes yes or no"),
    ("to-move: 0", "result: draw\nrefilled: yes", "yes", "a finished game has no refilled"),
    ("to-move: 0", "result: 1\nto-move: 0", "0\nhand", "a finished game has no to-move"),
    ("to-move: 0", "result: *", "seqsolve", "missing 'to-move:' line"),
    ("hand 1: B2", "hand 1: B2\nhand 2: -", "seqsolve", "missing 'discard 2:' line"),
    ("chips 1: 0 0", "chips 1: 0", "0\naside", "chips 1 takes two numbers"),
    ("chips 1: 0 0", "", "seqsolve", "missing 'chips 1:' line"),
    ("chips 1: 0 0", "chips 1: 0 0\nchips 4: 0 0", "0 0\naside", "chips entry for seat 4"),
    ("draw: 110", "", "seqsolve", "missing 'draw:' line"),
    (
        "to-move: 0",
        "to-move: 0\noptions: stacks_refill=never",
        "stacks_refill=never",
        "takes turn_start or empty_hand_only",
    ),
    ("to-move: 0", "to-move: 0\noptions: max_turns=9\nvariant2: x", "variant2", "unknown key"),
    ("variant: stacks", "variant: stacks[max_turns=5]\noptions: max_turns=9", "max_turns=9", "is set twice"),
    ("to-move: 0", "to-move: 0\nfree text", "free text", "expected 'key: value'"),
    ("seqsolve-position 1", "seqsolve-position 2", "seqsolve", "unsupported header"),
]


@pytest.mark.parametrize("old, new, at, message", READABLE_REFUSED, ids=[m for *_, m in READABLE_REFUSED])
def test_a_bad_readable_position_is_refused_where_the_fault_is(old, new, at, message):
    text = READABLE.replace(old, new, 1)
    with pytest.raises(PositionError) as caught:
        parse(text, "game.txt")
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == _expected_place(text, at)


def test_the_readable_base_is_valid_and_a_finished_game_gives_its_result():
    assert to_stn(parse(READABLE)) == BASE
    finished = READABLE.replace("to-move: 0", "result: draw")
    assert to_stn(parse(finished)) == BASE.replace("0>", "!=", 1)
    assert "result: draw" in to_readable(parse(finished)) and "to-move" not in to_readable(parse(finished))
