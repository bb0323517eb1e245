"""Move notation and move listing (RULES.md §5.4, §5.4a: P-12 … P-18) on the compiled engine.

P-12 is the notation itself (round trips of :class:`seqsolve.games.sequence.moves.Move`, whole
turns); P-13 … P-18 are checked on hand-built positions through
:class:`seqsolve.games.sequence.state.State`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from state_helpers import FILLER, LONG_GAME, board_token, make, moves, rules_for, seq_names

from seqsolve.games.sequence.actions import IllegalMoveError
from seqsolve.games.sequence.board import parse_window
from seqsolve.games.sequence.moves import Move, MoveKind, MoveSyntaxError, parse_turn
from seqsolve.games.sequence.notation import parse_position, read_position, to_sqn
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State, Termination

# ---------------------------------------------------------------------------
# P-12 notation
# ---------------------------------------------------------------------------

CANONICAL = [
    "5H@e5",
    "JD@e5",
    "N17@e5",
    "PL@e5",
    "JSxe5",
    "MIxe5",
    "~5S",
    "~5S>9H",
    "pass",
    "9C@a5=a5-e5",
    "9C@a5=a1-e1,e1-i1",
    "5H@e5+QD",
    "JSxe5+2C",
    "~5S+9H",
    "JD@j10",
    "TH@i2",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_p12_canonical_moves_round_trip(text):
    """P-12: every canonical spelling parses and is written back unchanged; repr round-trips."""
    move = Move.from_str(text)
    assert str(move) == text
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize(
    "typed,canonical",
    [
        ("jsxE5", "JSxe5"),
        ("10H@i2", "TH@i2"),
        ("n7@E5", "N07@e5"),
        ("PASS", "pass"),
        ("~5s>9h", "~5S>9H"),
        ("9C@a5=e5-a5", "9C@a5=a5-e5"),
        ("9C@a5=e1-i1,a1-e1", "9C@a5=a1-e1,e1-i1"),
        (" 5H@e5 ", "5H@e5"),
    ],
)
def test_p12_readers_are_tolerant_writers_canonical(typed, canonical):
    """P-12/C-1: case, ``10`` for T, reversed window ends and declaration order are normalised."""
    assert str(Move.from_str(typed)) == canonical


def test_p12_move_fields():
    """P-12: the parts of a move."""
    m = Move.from_str("9C@a5=a1-a5,a5-e5+QD")
    assert (m.kind, m.card, m.cell, m.pick) == (MoveKind.PLACE, "9C", 40, "QD")
    assert m.declare == (parse_window("a1-a5"), parse_window("a5-e5"))
    x = Move.from_str("~5S>9H")
    assert (x.kind, x.card, x.drawn) == (MoveKind.EXCHANGE, "5S", "9H") and not x.is_play
    assert x.bare() == Move.from_str("~5S")
    assert Move.from_str("JSxe5").kind is MoveKind.REMOVE and Move.from_str("pass").is_play


@pytest.mark.parametrize(
    "bad", ["5H-e5", "5H@k5", "5H@e11", "5H@e0", "JSxe5=a5-e5", "9C@a5=a5-e6", "~", "", "5H"]
)
def test_p12_bad_notation_is_a_syntax_error(bad):
    """P-12: anything else is refused with a MoveSyntaxError (a ValueError)."""
    with pytest.raises(MoveSyntaxError):
        Move.from_str(bad)


def test_p12_whole_turn_is_exchange_then_play():
    """P-12: a whole turn is the exchange (if any) then the play."""
    assert [str(m) for m in parse_turn("~5S 9H@i3")] == ["~5S", "9H@i3"]
    assert [str(m) for m in parse_turn("~5S pass")] == ["~5S", "pass"]
    assert [str(m) for m in parse_turn("~5S ~4S 9H@i3")] == ["~5S", "~4S", "9H@i3"]
    for bad in ("9H@i3 ~5S", "5H@e5 9C@a5", "", "pass 5H@e5"):
        with pytest.raises(MoveSyntaxError):
            parse_turn(bad)


def test_p12_whole_turn_applies_on_the_engine():
    """P-12/P-16: example 3 of §5.5 one step earlier: ``"~5S 9H@i3"`` is seat 2's whole turn."""
    pos = read_position("tests/data/example3.sqn")
    hands = list(pos.hands)
    hands[2] = replace(hands[2], known=tuple(sorted(("5S",) + tuple(c for c in hands[2].known if c != "9H"))))
    discards = list(pos.discards)
    assert discards[2][-1] == "5S"
    discards[2] = discards[2][:-1]
    before = replace(
        pos,
        hands=tuple(hands),
        discards=tuple(discards),
        exchange_used=False,
        draw_cards=("9H",) + pos.draw_cards,
        draw_count=pos.draw_count + 1,
    )
    s = State.from_position(before)
    assert "~5S" in moves(s)
    s.apply("~5S 9H@i3")
    assert board_token(s, "i3") == "b" and s.current_player == 3 and s.turn == 71
    assert s.to_position().discards[2][-2:] == ("5S", "9H")
    assert s.hand(2) == ["TS", "3H", "8H", "TH", "2C", "QC"]  # QC was the top of the draw pile


def test_p12_whole_turn_is_atomic():
    """P-12: if the play of a whole turn is illegal, the exchange is not made either."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S 9C", ""], draw="KS QS")
    before = s.to_position()
    with pytest.raises(IllegalMoveError, match="a5, c7"):
        s.apply("~5S 9C@e5")
    assert s.to_position() == before
    s.apply("~5S 9C@a5")
    assert s.to_position().discards[0] == ("5S", "9C")
    assert s.hand(0) == ["QS", "KS"] and s.current_player == 1


def test_p12_declaration_suffix_applies_on_the_engine():
    """P-12: ``=a3-a7`` chooses among maximum declarations; without it the canonical one."""
    s = make(rules_for(**LONG_GAME), chips={"b": "a2 a3 a5 a6 a7"}, hands=["8C", ""])
    other = s.clone()
    s.apply("8C@a4")
    other.apply("8C@a4=a3-a7")
    assert seq_names(s) == ["b:a1-a5"] and seq_names(other) == ["b:a3-a7"]


def test_p12_drawn_card_of_an_exchange_on_an_unknown_draw_pile():
    """P-12: ``~5S>9H`` names the card drawn; on an unknown draw pile it becomes that card."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S", ""], draw=20)
    s.apply("~5S>9H")
    assert s.hand(0) == ["9H"] and s.draw_pile_size() == 19
    assert "9H@i3" in moves(s)


# ---------------------------------------------------------------------------
# P-13 listing
# ---------------------------------------------------------------------------


def deck_order(state, text: str) -> tuple:
    m = Move.from_str(text)
    idx = state.rules.deck_cards.index
    kind = {MoveKind.PLACE: 0, MoveKind.REMOVE: 0, MoveKind.EXCHANGE: 1, MoveKind.PASS: 2}[m.kind]
    return (
        kind,
        idx(m.card) if m.card else -1,
        m.cell if m.cell is not None else -1,
        idx(m.pick) if m.pick else -1,
    )


def test_p13_order_plays_by_card_then_cell_then_exchanges_then_nothing():
    """P-13: plays by (card deck index, cell), then ``~XX`` exchanges; no pass when a play exists."""
    s = make(
        rules_for(),
        chips={"b": "e1", "g": "d9 e5"},
        hands=["9C 5S JS 4H 2S KC", ""],
    )
    listed = moves(s)
    assert listed == sorted(listed, key=lambda t: deck_order(s, t))
    assert listed == [
        "2S@b1",
        "2S@g9",
        "JSxe5",
        "JSxd9",
        "4H@f5",
        "4H@i8",
        "9C@a5",
        "9C@c7",
        "KC@a8",
        "KC@e8",
        "~5S",
    ]
    assert "pass" not in listed


def test_p13_cells_in_reading_order():
    """P-13: a two-eyed jack's cells are listed a1, b1, … j10 (cell order)."""
    s = make(rules_for(), hands=["JD", ""])
    cells = [Move.from_str(m).cell for m in moves(s)]
    assert cells == sorted(cells) and len(cells) == 96


def test_p13_a_card_held_twice_is_listed_once_per_target():
    """P-13: two 5H give 5H@e5 and 5H@i7 once each; two dead 5S give one ~5S."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5H 5H 5S 5S", ""])
    assert moves(s) == ["5H@e5", "5H@i7", "~5S"]


def test_p13_exchanges_listed_only_while_allowed():
    """P-13: after the turn's exchange, ``~XX`` is no longer listed."""
    s = make(rules_for(), chips={"b": "e1 d1", "g": "d9 e9"}, hands=["5S 4S 9C", ""], draw="KS")
    assert moves(s) == ["9C@a5", "9C@c7", "~4S", "~5S"]
    s.apply("~4S")
    assert moves(s) == ["KS@b4", "KS@j4", "9C@a5", "9C@c7"]


def test_p13_pass_only_when_no_play_exists():
    """P-13/C-30: ``pass`` after the exchanges, only when no play is possible."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9 e5"}, hands=["5S JD", ""], exchange_used=False)
    assert "pass" not in moves(s)
    s2 = make(rules_for(), chips={"b": "e1 e5 d9"}, hands=["5S JS", ""])
    assert moves(s2) == ["~5S", "pass"]


def test_p13_draft_picks_are_the_last_key():
    """P-13/D-1: in the draft variant every play and exchange is listed once per distinct
    draft card, picks in deck order."""
    s = make(
        rules_for("draft"), chips={"b": "e1", "g": "d9"}, hands=["5S 5H", ""], draft="QD 2C 2C KS", draw=""
    )
    assert moves(s) == [
        "5H@e5+KS",
        "5H@e5+QD",
        "5H@e5+2C",
        "5H@i7+KS",
        "5H@i7+QD",
        "5H@i7+2C",
        "~5S+KS",
        "~5S+QD",
        "~5S+2C",
    ]


def test_p13_nothing_listed_when_the_hand_is_unknown_or_the_game_over():
    """P-13: an unknown hand lists nothing; a finished game lists nothing."""
    s = make(rules_for(), hands=["5H", ""], unknown_hands={0: 1})
    assert s.legal_moves() == []
    pos = read_position("tests/data/example1.sqn")
    seen_by_0 = State.from_position(pos)
    seen_by_0.apply("6C@a2")
    assert seen_by_0.current_player == 1 and seen_by_0.legal_moves() == []
    won = make(rules_for(players=3), chips={"b": "a5 b5 c5 d5"}, hands=["5H", "5H", ""])
    won.apply("5H@e5")
    assert won.is_terminal() and won.legal_moves() == [] and won.legal_actions() == []


def test_p13_actions_and_moves_correspond():
    """P-13: ``legal_actions`` and ``legal_moves`` list the same things in the same order."""
    s = State.new(parse_rules("draft", players=2), seed=4)
    acts = s.legal_actions()
    assert [s.action_to_move(a) for a in acts] == s.legal_moves()
    assert [s.move_to_action(m) for m in s.legal_moves()] == acts


def test_p13_listing_of_example_2():
    """P-13: example 2 of §5.5, seen by green: its seven live cards' plays, in order."""
    pos = read_position("tests/data/example2.sqn")
    s = State.from_position(pos)
    listed = moves(s)
    assert listed == sorted(listed, key=lambda t: deck_order(s, t))
    assert listed[0].startswith("8S@") and "pass" not in listed and not any(m.startswith("~") for m in listed)
    assert set(listed) >= {"AH@f2", "AH@g5", "2C@e2"}


def test_p13_perft_counts_exchanges_as_actions():
    """P-13/RULES-NOTES: perft(1) = listed actions; an exchange leads to a mid-turn position."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S 9C", "4H"], draw="KS QS TS")
    assert s.perft(1) == len(s.legal_actions()) == 3  # 9C@a5, 9C@c7, ~5S
    # after 9C@x: seat 1 has 4H@f5, 4H@i8 (2 each); after ~5S: KS@b4, KS@j4, 9C@a5, 9C@c7
    assert s.perft(2) == 2 + 2 + 4


# ---------------------------------------------------------------------------
# P-14 counters at the end
# ---------------------------------------------------------------------------


def test_p14_win_leaves_turn_and_stall_alone():
    """P-14: a winning turn does not advance the turn and stall counters."""
    s = make(rules_for(players=3), chips={"b": "a5 b5 c5 d5"}, hands=["5H", "", ""], turn=30, stall=4)
    s.apply("5H@e5")
    assert s.outcome().termination is Termination.WIN
    pos = s.to_position()
    assert (pos.turn, pos.stall, pos.to_move, pos.result) == (30, 4, None, "b")
    assert to_sqn(pos).endswith(" 30 4") and " !b " in to_sqn(pos)


def test_p14_draw_game_leaves_counters_alone():
    """P-14: the draw_game end of C-29 does not advance the counters."""
    s = make(
        rules_for(deck_exhaustion="draw_game"), chips={"g": "e5"}, hands=["JS", ""], draw=[], turn=7, stall=2
    )
    s.apply("JSxe5")
    assert s.outcome().termination is Termination.DECK_EXHAUSTED
    assert (s.turn, s.stall) == (7, 2)
    assert " != " in to_sqn(s.to_position())


def test_p14_draft_end_leaves_counters_alone():
    """P-14/D-4: the draft_end end does not advance the counters either."""
    s = make(rules_for("draft"), hands=["5H", ""], draft="", draw=[], turn=11, stall=1)
    s.apply("5H@e5")
    assert s.outcome().termination is Termination.DRAFT_END and (s.turn, s.stall) == (11, 1)


def test_p14_limits_end_after_the_turn_is_counted():
    """P-14/C-31: the stall, cap and frozen ends come after C-18, so those counters do advance."""
    s = make(rules_for(max_turns=5), hands=["5H", ""], turn=4, stall=3)
    s.apply("5H@e5")
    assert s.outcome().termination is Termination.TURN_CAP and (s.turn, s.stall) == (5, 0)


# ---------------------------------------------------------------------------
# P-16 exchanges in positions
# ---------------------------------------------------------------------------


def test_p16_exchange_yields_the_mid_turn_x_position():
    """P-16: after ``~5S`` the position is ``0x``; read back it allows no further exchange."""
    s = make(rules_for(), chips={"b": "e1 d1", "g": "d9 e9"}, hands=["5S 9C", ""], draw="4S KS")
    s.apply("~5S")
    pos = s.to_position()
    assert pos.exchange_used and pos.to_move == 0
    line = to_sqn(pos)
    assert line.split()[3] == "0x"
    again = State.from_position(pos)
    assert moves(again) == moves(s) == ["9C@a5", "9C@c7"]
    assert not any(m.startswith("~") for m in moves(again))


def test_p16_sqn_x_reader_and_engine_agree():
    """P-16: an SQN ``2x`` position (example 3) reads as exchange used; the engine lists no ``~``."""
    pos = read_position("tests/data/example3.sqn")
    s = State.from_position(pos)
    assert s.core.exchanges_left == 0
    assert moves(s) == ["TS@b6", "3H@i9", "8H@i4", "9H@i3", "TH@i2", "2C@e2"]
    assert to_sqn(s.to_position()).split()[3] == "2x"


def test_p16_exchange_count_not_recorded_above_one():
    """P-16: with dead_card_exchanges_per_turn=2 one used exchange is not recorded; two are ``x``."""
    rules = rules_for(dead_card_exchanges_per_turn=2)
    s = make(rules, chips={"b": "e1 d1 c1", "g": "d9 e9 f9"}, hands=["5S 9C", ""], draw="4S 3S KS")
    s.apply("~5S")
    assert not s.to_position().exchange_used and "~4S" in moves(s)
    s.apply("~4S")
    assert s.to_position().exchange_used and moves(s) == ["9C@a5", "9C@c7"]  # 3S is dead too


def test_p16_no_x_without_exchanges():
    """P-16/P-11.8: with dead_card_exchanges_per_turn=0 no position is ever ``x``."""
    s = make(rules_for(dead_card_exchanges_per_turn=0), chips={"b": "e1", "g": "d9"}, hands=["5S", ""])
    assert moves(s) == ["pass"]
    assert not s.to_position().exchange_used


# ---------------------------------------------------------------------------
# P-17 draws after a reshuffle
# ---------------------------------------------------------------------------


def test_p17_draw_pile_listed_before_a_reshuffle_not_after():
    """P-17: a full-information position lists the draw pile until a reshuffle, then only its count."""
    s = make(rules_for(), hands=["5H 4H", "9C"], draw=["KS"], discards=["QS 7C", "2D"])
    pos = s.to_position()
    assert pos.draw_cards == ("KS",)
    s.apply("5H@e5")  # draws KS: the pile is empty but known
    assert s.to_position().draw_cards == ()
    s.apply("9C@a5")  # reshuffle of QS 7C 2D 5H 9C, then a draw
    pos = s.to_position()
    assert pos.draw_cards is None and pos.draw_count == 4
    assert to_sqn(pos).split()[7] == "4"
    assert pos.discards == ((), ())


def test_p17_drawn_card_is_unknown_to_everyone_but_its_holder():
    """P-17/§1.14: after the reshuffle the drawer sees its card, the others see ``?``."""
    s = make(rules_for(), hands=["5H", "9C"], draw=[], discards=["QS 7C", "2D"])
    s.apply("5H@e5")
    drawn = s.hand(0)
    assert len(drawn) == 1 and drawn[0] in {"QS", "7C", "2D", "5H"}
    assert s.observation(0).hand(0) == drawn
    assert s.observation(1).hand(0) == ["?"]
    assert s.observation(1).to_position().draw_cards is None


def test_p17_reshuffle_inside_an_observation_stays_unknown():
    """P-17: an observation has no shuffle of its own: a reshuffle in it leaves unknown cards,
    and a world resampled from it can be played on."""
    rules = rules_for()
    rest = rules.deck_cards.cards()
    rest.remove("5H")
    rest.remove("9C")
    s = make(rules, hands=["5H", "9C"], draw=[], discards=[rest[:51], rest[51:]])
    seen = s.observation(0)
    seen.apply("5H@e5")
    assert seen.hand(0) == ["?"] and seen.draw_pile_size() == 102
    assert seen.to_position().draw_cards is None
    world = seen.resample(0, 1)
    assert "?" not in world.hand(0) and "?" not in world.hand(1)
    assert world.core.playout() > 0 and world.is_terminal()


# ---------------------------------------------------------------------------
# P-18 voluntary pass
# ---------------------------------------------------------------------------


def test_p18_voluntary_pass_listed_last_and_scored_like_a_forced_pass():
    """P-18: with allow_voluntary_pass=true ``pass`` is listed after the plays; no draw, stall +1."""
    s = make(rules_for(allow_voluntary_pass=True), hands=["5H", ""], draw="KS", turn=2, stall=0)
    assert moves(s) == ["5H@e5", "5H@i7", "pass"]
    s.apply("pass")
    assert s.hand(0) == ["5H"] and s.draw_pile_size() == 1
    assert (s.turn, s.stall, s.current_player) == (3, 1, 1)
    assert s.to_position().discards == ((), ())


def test_p18_voluntary_pass_after_an_exchange():
    """P-18: the exchange may be followed by a voluntary pass."""
    s = make(rules_for(allow_voluntary_pass=True), chips={"b": "e1", "g": "d9"}, hands=["5S", ""], draw="KS")
    assert moves(s) == ["~5S", "pass"]
    s.apply("~5S pass")
    assert s.hand(0) == ["KS"] and s.stall == 1


def test_p18_voluntary_pass_counts_toward_the_stall_limit():
    """P-18/C-31: voluntary passes end the game at the stall limit like forced ones."""
    s = make(rules_for(allow_voluntary_pass=True, stall_limit=2), hands=["5H", "9C"])
    s.apply("pass")
    s.apply("pass")
    assert s.outcome().termination is Termination.STALL


def test_p18_no_voluntary_pass_by_default():
    """P-18/C-19: without the option a pass with a play in hand is refused."""
    s = make(rules_for(), hands=["5H", ""])
    with pytest.raises(IllegalMoveError, match="C-19"):
        s.apply("pass")


# ---------------------------------------------------------------------------
# engine conveniences used with moves
# ---------------------------------------------------------------------------


def test_push_pop_and_clone_are_independent():
    """push/pop restore the state exactly; a clone does not share it."""
    s = make(rules_for(), hands=["5H 9C", "4H"], draw=list(FILLER))
    before = s.to_position()
    s.push("5H@e5")
    s.push("4H@f5")
    s.pop()
    s.pop()
    assert s.to_position() == before
    c = s.clone()
    c.apply("9C@a5")
    assert s.to_position() == before


def test_illegal_moves_name_their_reason():
    """IllegalMoveError says why, citing the rule where there is one."""
    s = make(rules_for(), chips={"g": "e5"}, hands=["5H JS", ""])
    cases = {
        "4H@f5": "does not hold",
        "5H@f5": "e5, i7",
        "JSxf5": "no chip",
        "5H@e5": "not empty",
        "JS@f5": "removes a chip",
        "5Hxe5": "one-eyed jack",
        "XX@e5": "not a card",
        "5H@e5+QD": "no draft",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            s.clone().apply(text)


def test_no_move_after_the_end():
    """A finished game accepts no move."""
    s = make(rules_for(players=3), chips={"b": "a5 b5 c5 d5"}, hands=["5H", "9C", ""])
    s.apply("5H@e5")
    with pytest.raises(IllegalMoveError, match="over"):
        s.apply("9C@a5")


# ---------------------------------------------------------------------------
# Positions written by the engine (P-2 … P-10): what State.to_position records
# ---------------------------------------------------------------------------


def test_p2_board_tokens_written_by_the_engine():
    """P-2: corners ``*``, chips ``b g r``, locked chips upper case, empty ``.``."""
    s = make(
        rules_for(players=3, sequences_to_win=2),
        chips={"b": "a5 b5 c5 d5", "g": "j2", "r": "a2"},
        hands=["5H", "", ""],
    )
    s.apply("5H@e5")
    board = s.to_position().board
    assert board[0] == board[9] == board[90] == board[99] == "*"
    assert [board[c] for c in (40, 41, 42, 43, 44)] == ["B"] * 5
    assert board[19] == "g" and board[10] == "r" and board[45] == "."
    assert to_sqn(s.to_position()).split()[1].split("/")[4] == "BBBBB5"


def test_p4_to_move_exchange_mark_and_result():
    """P-4: the seat to move, ``x`` once the exchange is used, ``!b`` / ``!=`` when over."""
    s = make(
        rules_for(players=3), chips={"b": "a5 b5 c5 d5 e1", "g": "d9"}, hands=["5S 5H", "", ""], draw="KS"
    )
    assert to_sqn(s.to_position()).split()[3] == "0"
    s.apply("~5S")
    assert to_sqn(s.to_position()).split()[3] == "0x"
    s.apply("5H@e5")
    assert to_sqn(s.to_position()).split()[3] == "!b"
    d = make(rules_for(stall_limit=1))
    d.apply("pass")
    assert to_sqn(d.to_position()).split()[3] == "!="


def test_p5_hands_in_canonical_order_unknown_last():
    """P-5: known cards sorted by suit S H D C then rank A … K; unknown cards last as ``?N``."""
    s = make(rules_for(), hands=["KC 2D JS AH 9S TS AS", ""], unknown_hands={1: 3})
    assert s.hand(0) == ["AS", "9S", "TS", "JS", "AH", "2D", "KC"]
    assert to_sqn(s.to_position()).split()[4] == "AS,9S,TS,JS,AH,2D,KC/?3"


def test_p6_discards_bottom_first():
    """P-6: each seat's pile in the order the cards were played (top last)."""
    s = make(rules_for(), chips={"g": "f5"}, hands=["5H JS 9C", "4H"], draw=list(FILLER))
    s.apply("5H@e5")
    s.apply("4H@i8")
    s.apply("9C@a5")
    assert s.to_position().discards == (("5H", "9C"), ("4H",))


def test_p7_sequences_in_completion_order_with_canonical_ends():
    """P-7: sequences listed in completion order, ends in reading order (``b:a6-a10``)."""
    s = make(rules_for(**LONG_GAME), chips={"g": "a9 a8 a7", "b": "b1 c1 d1"}, hands=["5S", "TC"])
    s.apply("5S@e1")
    s.apply("TC@a6")
    assert to_sqn(s.to_position()).split()[6] == "b:a1-e1,g:a6-a10"


def test_p8_draw_pile_top_first():
    """P-8: the listed draw pile is top first: the next card drawn is the first listed."""
    s = make(rules_for(), hands=["5H", ""], draw="KS QS TC")
    assert to_sqn(s.to_position()).split()[7] == "3:KS,QS,TC"
    s.apply("5H@e5")
    assert s.hand(0) == ["KS"] and s.to_position().draw_cards == ("QS", "TC")


def test_p9_turn_and_stall_counters():
    """P-9: turns completed (passes included) and turns since a chip was placed or removed."""
    s = make(rules_for(players=3), hands=["5H", "", ""], turn=5, stall=0)
    s.apply("5H@e5")
    s.apply("pass")
    s.apply("pass")
    assert to_sqn(s.to_position()).split()[8:10] == ["8", "2"]


def test_p10_engine_positions_read_back_in_both_forms():
    """P-10/§5: a position written from a mid-game engine state reads back unchanged in both forms."""
    from seqsolve.games.sequence.notation import to_readable

    s = State.new(parse_rules("classic", players=4), seed=17)
    for _ in range(9):
        s.apply(int(s.legal_actions()[-1]))
    for pos in (s.to_position(), s.observation(1).to_position()):
        assert parse_position(to_sqn(pos)) == pos
        assert parse_position(to_readable(pos)) == pos
        assert State.from_position(pos).to_position() == pos
