"""Tests of the plain-Python reference engine (seqsolve.reference) on hand-built positions.

Every test names the rule of ../shared/RULES.md it checks.  Positions are built
directly as :class:`Position` objects (no file notation), or by playing moves.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from state_helpers import W, cells, rules_for

from seqsolve.games.sequence.board import CORNERS, parse_cell, window_name, windows
from seqsolve.games.sequence.position import Hand, Position
from seqsolve.games.sequence.rules import UNLIMITED, max_sequences
from seqsolve.reference.game import RefGame
from seqsolve.reference.sequences import overlap_allows

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

FILLER = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H"]


def names(declarations) -> list[list[str]]:
    return [[window_name(w) for w in d] for d in declarations]


def empty_board() -> list[str]:
    return ["*" if c in CORNERS else "." for c in range(100)]


def picture(text: str) -> list[str]:
    """A board drawn as 10 rows of 10 tokens (an optional leading row number is skipped)."""
    board = []
    for line in text.strip().splitlines():
        tokens = line.split()
        if len(tokens) == 11:
            tokens = tokens[1:]
        assert len(tokens) == 10, line
        board.extend(tokens)
    assert len(board) == 100
    return board


def game_from(
    rules,
    chips: dict[str, str] | None = None,
    board: list[str] | None = None,
    hands: list[list[str]] | None = None,
    draw: list[str] | None = None,
    discards: list[list[str]] | None = None,
    sequences: tuple[str, ...] = (),
    to_move: int = 0,
    draft: list[str] | None = None,
    turn: int = 0,
    stall: int = 0,
    exchange_used: bool = False,
    rng: random.Random | None = None,
) -> RefGame:
    """A RefGame from a hand-built Position.  ``chips`` maps a token to cell names: {"b": "a5 b5"}."""
    seats = "bgr"[: rules.teams] * (rules.players // rules.teams)
    board = list(board) if board is not None else empty_board()
    for token, where in (chips or {}).items():
        for c in cells(where):
            board[c] = token
    hands = hands if hands is not None else [[] for _ in seats]
    discards = discards if discards is not None else [[] for _ in seats]
    draw = list(FILLER) if draw is None else draw
    seqs = tuple((s.split()[0], W(s.split()[1])) for s in sequences)
    pos = Position(
        rules=rules,
        seats=seats,
        board=tuple(board),
        to_move=to_move,
        hands=tuple(Hand(tuple(h), 0) for h in hands),
        discards=tuple(tuple(d) for d in discards),
        sequences=seqs,
        draw_count=len(draw),
        draw_cards=tuple(draw),
        turn=turn,
        stall=stall,
        exchange_used=exchange_used,
        draft=None if draft is None else tuple(draft),
    )
    return RefGame.from_position(pos, rng=rng or random.Random(7))


def drop(game: RefGame, seat: int, cell: str) -> None:
    """Let ``seat`` place a chip on ``cell`` with a two-eyed jack (order-of-arrival tests)."""
    game.to_move = seat
    game.hands[seat].append("JD")
    game.apply(f"JD@{cell}")


def drop_all(game: RefGame, seat: int, where: str) -> None:
    """:func:`drop` on each cell of a space-separated list, in order."""
    for cell in where.split():
        drop(game, seat, cell)


def seq_names(game: RefGame) -> list[str]:
    return [f"{c}:{window_name(w)}" for c, w in game.sequences]


LINE_RULES = {"sequences_to_win": 9, "stall_limit": 0, "max_turns": 0}

# ---------------------------------------------------------------------------
# construction and round trip
# ---------------------------------------------------------------------------


def test_new_deal_c12_c13_cards_and_first_seat():
    """C-9, C-12, C-13: hands of hand_size, the rest is the draw pile, empty board, seat 0 first."""
    rules = rules_for("classic", 4)
    g = RefGame.new(rules, rng=random.Random(3))
    assert g.seats == "bgbg"
    assert [len(h) for h in g.hands] == [6, 6, 6, 6]
    assert len(g.draw_pile) == 104 - 24
    assert g.current_seat == 0 and g.turn == 0 and g.stall == 0
    assert sorted(g._all_cards()) == sorted(rules.deck_cards.cards())
    assert g.board.count(".") == 96 and g.sequences == []


def test_new_deal_d1_draft_is_dealt_after_hands():
    """D-1, D-2: six cards each, then five face up."""
    g = RefGame.new(rules_for("draft", 2), rng=random.Random(3))
    assert [len(h) for h in g.hands] == [6, 6]
    assert len(g.draft) == 5 and len(g.draw_pile) == 104 - 12 - 5


def test_new_deal_bonus_cards_go_to_seat_zero_after_the_hands():
    """The analysis option bonus_cards: seat 0 takes the extra cards after the ordinary deal, as the core deals them."""
    plain = RefGame.new(rules_for("classic", 2), rng=random.Random(5))
    rules = rules_for("classic", 2, bonus_cards=3)
    g = RefGame.new(rules, rng=random.Random(5))
    assert [len(h) for h in g.hands] == [10, 7]
    assert len(g.draw_pile) == 104 - 17
    assert sorted(g.hands[1]) == sorted(plain.hands[1])
    assert sorted(g._all_cards()) == sorted(rules.deck_cards.cards())


def test_first_seat_option_c8():
    """C-8 / first_seat: the given seat moves first."""
    g = RefGame.new(rules_for("classic", 3, first_seat=2), rng=random.Random(1))
    assert g.current_seat == 2


def test_from_position_requires_known_cards():
    """RefGame needs full information: unknown hand cards or an unlisted draw pile are refused."""
    rules = rules_for()
    pos = game_from(rules, hands=[["5H"], ["2C"]]).to_position()
    with pytest.raises(ValueError, match="hand"):
        RefGame.from_position(Position(**{**pos.__dict__, "hands": (Hand(("5H",), 2), Hand(("2C",), 0))}))
    with pytest.raises(ValueError, match="draw pile"):
        RefGame.from_position(Position(**{**pos.__dict__, "draw_cards": None}))


def test_to_position_round_trip_and_canonical_hand_order():
    """P-5/P-8: hands sorted by deck index, draw pile top first; a round trip gives the same game."""
    rules = rules_for()
    g = game_from(rules, hands=[["KC", "5H", "AS"], ["2C"]], draw=["QD", "3S"], chips={"b": "a5", "G": "b5"})
    pos = g.to_position()
    assert pos.hands[0].known == ("AS", "5H", "KC")
    assert pos.draw_cards == ("QD", "3S") and pos.draw_count == 2
    assert RefGame.from_position(pos).to_position() == pos


# ---------------------------------------------------------------------------
# legal move list (P-13)
# ---------------------------------------------------------------------------


def test_legal_moves_p13_canonical_order_and_duplicates():
    """P-13: plays by (card deck index, cell), a card held twice listed once, then exchanges, no pass."""
    rules = rules_for()
    # 2S cells b1, g9; 5H cells e5, i7 (i7 taken); 9C cells a5, c7 both taken -> dead
    g = game_from(rules, chips={"g": "i7 a5 c7"}, hands=[["9C", "5H", "2S", "2S"], []])
    assert g.legal_moves() == ["2S@b1", "2S@g9", "5H@e5", "~9C"]


def test_legal_moves_empty_when_game_over():
    """P-13: nothing is listed once the game is over."""
    rules = rules_for()
    g = game_from(rules, chips={"b": "a5 b5 d5 e5 c3 c4 c6 c7"}, hands=[["7C", "2S"], []])
    g.apply("7C@c5")
    assert g.is_over and g.legal_moves() == [] and g.current_seat is None
    with pytest.raises(ValueError, match="over"):
        g.apply("2S@b1")


# ---------------------------------------------------------------------------
# C-25 / C-26: eligibility and declaration
# ---------------------------------------------------------------------------


def test_c25_overlap_max_shared_1_allows_one_shared_cell():
    """C-25 default overlap_max_shared=1: a crossing window may reuse one cell of a sequence."""
    g = game_from(rules_for(), chips={"B": "a5 b5 c5 d5 e5", "b": "e1 e2 e4"}, sequences=("b a5-e5",))
    assert names(g.declarations(parse_cell("e3"))) == [["e1-e5"]]


def test_c25_overlap_max_shared_0_forbids_any_shared_cell():
    """C-25 overlap_max_shared=0: the crossing window is not eligible."""
    g = game_from(
        rules_for(overlap_max_shared=0),
        chips={"B": "a5 b5 c5 d5 e5", "b": "e1 e2 e4"},
        sequences=("b a5-e5",),
    )
    assert g.declarations(parse_cell("e3")) == [()]


def test_c25_overlap_max_shared_4_lets_a_six_run_count_twice():
    """C-25 overlap_max_shared=4 (seed002-literal): b5-f5 shares 4 cells with a5-e5 and still counts."""
    chips = {"B": "a5 b5 c5 d5 e5"}
    literal = game_from(rules_for("seed002-literal"), chips=chips, sequences=("b a5-e5",))
    assert names(literal.declarations(parse_cell("f5"))) == [["b5-f5"]]
    default = game_from(rules_for(), chips=chips, sequences=("b a5-e5",))
    assert default.declarations(parse_cell("f5")) == [()]


def test_c25_overlap_reuse_limit_1_example3_a5_e5():
    """C-25 condition 3 with overlap_reuse_limit=1 (RULES.md §5.5 example 3): a5-e5 would cross
    e4-e8, which e6-i6 already crosses, so 9C@a5 completes nothing; with the default it wins."""
    board = picture(
        """
        1  * g . . b . . b . *
        2  g g . g . . g b . g
        3  . G G G G G g g . .
        4  . g . b B g b . . b
        5  . b b b B . . . . .
        6  b . g g B B B B B g
        7  . b b b B g b g b b
        8  . . g g B g g . b .
        9  b g g g g . g . . g
       10  * g b b b b g . b *
        """
    )
    seqs = ("g b3-f3", "b e4-e8", "b e6-i6")
    hands = [[], [], ["TS", "3H", "8H", "9C", "TH", "2C"], []]
    seed000 = rules_for("seed000", 4)
    assert seed000.overlap_reuse_limit == 1 and seed000.sequences_to_win == 3
    g = game_from(seed000, board=board, hands=hands, sequences=seqs, to_move=2, draw=["QC", "JH"])
    assert g.declarations(parse_cell("a5")) == [()]
    g.apply("9C@a5")
    assert not g.is_over and g.board[parse_cell("a5")] == "b"
    assert seq_names(g) == ["g:b3-f3", "b:e4-e8", "b:e6-i6"]

    unlimited = seed000.replace(overlap_reuse_limit=UNLIMITED)
    g = game_from(unlimited, board=board, hands=hands, sequences=seqs, to_move=2, draw=["QC", "JH"])
    assert names(g.declarations(parse_cell("a5"))) == [["a5-e5"]]
    g.apply("9C@a5")
    assert g.result == "b" and g.termination == "win"
    assert g.board[parse_cell("a5")] == "B" and g.turn == 0


def test_c25_reuse_limit_counts_sequences_touched():
    """C-25 condition 3: a window touching two completed sequences needs overlap_reuse_limit >= 2."""
    completed = [W("a1-e1"), W("a3-e3")]
    across = W("c1-c5")
    assert overlap_allows(across, completed, rules_for(overlap_reuse_limit=1)) is False
    assert overlap_allows(across, completed, rules_for(overlap_reuse_limit=2)) is True
    assert overlap_allows(across, completed, rules_for()) is True


def test_c25_corner_counts_as_shared_false():
    """C-25 corner_counts_as_shared: with overlap_max_shared=0, a1-a5 may share the corner a1
    with a1-e1 only when corners are left out of intersections."""
    chips = {"B": "b1 c1 d1 e1", "b": "a2 a3 a4"}
    shared = game_from(rules_for(overlap_max_shared=0), chips=chips, sequences=("b a1-e1",))
    assert shared.declarations(parse_cell("a5")) == [()]
    free = game_from(
        rules_for(overlap_max_shared=0, corner_counts_as_shared=False), chips=chips, sequences=("b a1-e1",)
    )
    assert names(free.declarations(parse_cell("a5"))) == [["a1-a5"]]


def test_c26_six_run_choice_canonical_and_explicit():
    """C-26: a 6-run completed in its 3rd cell has two maximum declarations; the canonical one is
    the earlier window, the mover may name the other, and anything else is illegal."""
    rules = rules_for(**LINE_RULES)
    chips = {"b": "a5 b5 d5 e5 f5"}
    g = game_from(rules, chips=chips, hands=[["7C"], []])
    assert names(g.declarations(parse_cell("c5"))) == [["a5-e5"], ["b5-f5"]]

    canonical = g.clone()
    canonical.apply("7C@c5")
    assert seq_names(canonical) == ["b:a5-e5"]
    assert canonical.board[parse_cell("a5")] == "B" and canonical.board[parse_cell("f5")] == "b"

    chosen = g.clone()
    chosen.apply("7C@c5=b5-f5")
    assert seq_names(chosen) == ["b:b5-f5"]
    assert chosen.board[parse_cell("a5")] == "b" and chosen.board[parse_cell("f5")] == "B"

    for bad in ("7C@c5=a5-e5,b5-f5", "7C@c5=c5-g5", "7C@c5=c1-c5"):
        with pytest.raises(ValueError, match="C-26"):
            g.clone().apply(bad)


def test_c26_removal_never_declares():
    """C-26: sequences form only on placement; a removal that 'opens' nothing declares nothing."""
    rules = rules_for(**LINE_RULES)
    g = game_from(rules, chips={"b": "a5 b5 c5 d5 e5", "g": "f5"}, hands=[["JS"], []])
    g.apply("JSxf5")
    assert g.sequences == [] and g.board[parse_cell("f5")] == "."


# ---------------------------------------------------------------------------
# long lines (§1.11 table)
# ---------------------------------------------------------------------------


def test_long_line_9_left_to_right_two_sequences():
    """§1.11 / C-26: a 9-run built left to right holds a5-e5 then e5-i5 (sharing e5)."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "a5 b5 c5 d5 e5 f5 g5 h5 i5")
    assert seq_names(g) == ["b:a5-e5", "b:e5-i5"]


def test_long_line_9_middle_last_two_sequences_at_once():
    """§1.11 / C-28: the middle chip of a 9-run completes both halves at once."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "a5 b5 c5 d5 f5 g5 h5 i5")
    assert g.sequences == []
    assert names(g.declarations(parse_cell("e5"), "b")) == [["a5-e5", "e5-i5"]]
    drop(g, 0, "e5")
    assert seq_names(g) == ["b:a5-e5", "b:e5-i5"]


def test_long_line_9_with_overlap_0_holds_one():
    """§1.11: with overlap_max_shared=0 a 9-run holds one sequence."""
    g = game_from(rules_for(overlap_max_shared=0, **LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "a5 b5 c5 d5 f5 g5 h5 i5 e5")
    assert seq_names(g) == ["b:a5-e5"]


def test_long_line_9_through_corner_on_different_turns():
    """§1.11: with a1-e1 already a sequence (a1 a corner), chips up to i1 complete e1-i1."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "b1 c1 d1 e1")
    assert seq_names(g) == ["b:a1-e1"]
    drop_all(g, 0, "f1 g1 h1 i1")
    assert seq_names(g) == ["b:a1-e1", "b:e1-i1"]


def test_long_line_10_left_to_right_two_sequences_sharing_e2():
    """§1.11: a 10-run built left to right holds two sequences: a2-e2, then e2-i2 at i2 (j2 adds none)."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "a2 b2 c2 d2 e2 f2 g2 h2 i2 j2")
    assert seq_names(g) == ["b:a2-e2", "b:e2-i2"]
    assert g.board[parse_cell("j2")] == "b"


def test_long_line_10_disjoint_halves():
    """§1.11: a 10-run whose right half came first and whose left half is closed at e2 holds two
    disjoint sequences (a2-e2 beats b2-f2 canonically, both sharing <= 1 cell with f2-j2)."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "f2 g2 h2 i2 j2 a2 b2 c2 d2")
    assert seq_names(g) == ["b:f2-j2"]
    assert names(g.declarations(parse_cell("e2"), "b")) == [["a2-e2"], ["b2-f2"]]
    drop(g, 0, "e2")
    assert seq_names(g) == ["b:f2-j2", "b:a2-e2"]


def test_long_line_10_first_c2_g2_holds_one():
    """§1.11: a 10-run whose first declared sequence was c2-g2 holds only that one."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "c2 d2 e2 f2 g2 a2 b2 h2 i2 j2")
    assert seq_names(g) == ["b:c2-g2"]
    assert all(g.board[c] == "b" for c in cells("a2 b2 h2 i2 j2"))


def test_long_line_10_explicit_declaration_of_right_half():
    """§1.11/C-26: closing f2 between a2-e2 and g2-j2 offers e2-i2 or f2-j2; the mover may take f2-j2."""
    g = game_from(rules_for(**LINE_RULES), draw=["AS"] * 20)
    drop_all(g, 0, "a2 b2 c2 d2 e2 g2 h2 i2 j2")
    assert names(g.declarations(parse_cell("f2"), "b")) == [["e2-i2"], ["f2-j2"]]
    g.to_move = 0
    g.hands[0].append("AH")  # AH shows on f2
    g.apply("AH@f2=f2-j2")
    assert seq_names(g) == ["b:a2-e2", "b:f2-j2"]


# ---------------------------------------------------------------------------
# corners (C-22 .. C-24)
# ---------------------------------------------------------------------------


def test_c22_corner_sequence_needs_four_chips():
    """C-22/C-24: a window through a corner is complete with 4 chips; the corner is not locked."""
    rules = rules_for(**LINE_RULES)
    g = game_from(rules, chips={"b": "b1 c1 d1"}, hands=[["5S"], []])
    g.apply("5S@e1")
    assert seq_names(g) == ["b:a1-e1"]
    assert g.board[0] == "*" and all(g.board[c] == "B" for c in cells("b1 c1 d1 e1"))


def test_c22_two_sides_share_a_corner():
    """C-22: another side may use the same corner in its own sequence."""
    rules = rules_for(**LINE_RULES)
    g = game_from(
        rules,
        chips={"B": "b1 c1 d1 e1", "g": "a2 a3 a4"},
        sequences=("b a1-e1",),
        hands=[[], ["9C"]],
        to_move=1,
    )
    g.apply("9C@a5")
    assert seq_names(g) == ["b:a1-e1", "g:a1-a5"]


# ---------------------------------------------------------------------------
# C-28: several sequences at once, win
# ---------------------------------------------------------------------------


def test_c28_two_sequences_at_once_win_immediately():
    """C-16/C-28/P-14: one chip completing a row and a column gives two sequences and wins at once;
    no card is drawn and the counters do not advance."""
    rules = rules_for()
    g = game_from(rules, chips={"b": "a5 b5 d5 e5 c3 c4 c6 c7"}, hands=[["7C", "2S"], []], turn=12, stall=4)
    # c3-c7 comes first canonically: its first cell c3 precedes a5 in reading order
    assert names(g.declarations(parse_cell("c5"))) == [["c3-c7", "a5-e5"]]
    g.apply("7C@c5")
    assert g.result == "b" and g.termination == "win"
    assert seq_names(g) == ["b:c3-c7", "b:a5-e5"]
    assert g.turn == 12 and g.stall == 4
    assert g.hands[0] == ["2S"] and g.draw_pile == FILLER and g.discards[0] == ["7C"]
    pos = g.to_position()
    assert pos.result == "b" and pos.to_move is None


def test_c16_one_sequence_not_enough_for_two_sides():
    """C-10/C-16: with 2 sides one sequence does not end the game; the turn ends normally."""
    g = game_from(rules_for(), chips={"b": "a5 b5 d5 e5"}, hands=[["7C"], []], draw=["KH"])
    g.apply("7C@c5")
    assert not g.is_over and seq_names(g) == ["b:a5-e5"]
    assert g.hands[0] == ["KH"] and g.turn == 1 and g.current_seat == 1


# ---------------------------------------------------------------------------
# jacks (C-15, C-19a, C-23, C-27)
# ---------------------------------------------------------------------------


def test_c15_one_eyed_jack_targets_only_unlocked_opponent_chips():
    """C-15/C-27/§1.8: JS may remove an unlocked opponent chip, never a locked, own or team-mate chip."""
    rules = rules_for("classic", 4)  # seats b g b g: seat 2 is seat 0's team-mate
    g = game_from(rules, chips={"b": "a5", "B": "b5", "g": "c5", "G": "d5"}, hands=[["JS"], [], [], []])
    assert g.legal_moves() == ["JSxc5"]
    for bad, why in (("JSxa5", "own side"), ("JSxd5", "locked"), ("JSxe5", "no chip"), ("JSxa1", "no chip")):
        with pytest.raises(ValueError, match=why):
            g.clone().apply(bad)
    g.apply("JSxc5")
    assert g.board[parse_cell("c5")] == "." and g.stall == 0 and g.discards[0] == ["JS"]
    assert g.hands[0] == [FILLER[0]]  # C-17: a removal is followed by a draw


def test_c15_one_eyed_jack_any_opponent_with_three_sides():
    """§1.8: in a 3-side game either opponent's unlocked chip may be removed."""
    g = game_from(
        rules_for("classic", 3), chips={"b": "a5", "g": "c5", "r": "e5", "R": "f5"}, hands=[["JH"], [], []]
    )
    assert g.legal_moves() == ["JHxc5", "JHxe5"]


def test_c19a_one_eyed_jack_without_target_is_not_dead():
    """C-19a: a one-eyed jack with nothing to remove has no play and cannot be exchanged: forced pass."""
    g = game_from(
        rules_for(), chips={"B": "a5 b5 c5 d5 e5", "b": "j5"}, hands=[["JS"], []], sequences=("b a5-e5",)
    )
    assert g.legal_moves() == ["pass"]
    with pytest.raises(ValueError, match="dead"):
        g.clone().apply("~JS")


def test_c15_two_eyed_jack_any_empty_cell_but_not_corners():
    """C-15/C-23: a two-eyed jack goes on any empty non-corner cell, never a corner or an occupied cell."""
    g = game_from(rules_for(), chips={"g": "e5"}, hands=[["JC"], []])
    moves = g.legal_moves()
    assert len(moves) == 95
    assert "JC@a1" not in moves and "JC@e5" not in moves and "JC@b1" in moves
    with pytest.raises(ValueError, match="not an empty cell"):
        g.clone().apply("JC@a1")
    with pytest.raises(ValueError, match="not an empty cell"):
        g.clone().apply("JC@e5")
    with pytest.raises(ValueError, match="removes a chip"):
        game_from(rules_for(), chips={"g": "e5"}, hands=[["JS"], []]).apply("JS@b1")


def test_c15_normal_card_only_its_two_cells():
    """C-15: a normal card goes only on an empty cell showing it."""
    g = game_from(rules_for(), hands=[["5H"], []])
    assert g.legal_moves() == ["5H@e5", "5H@i7"]
    with pytest.raises(ValueError, match="not shown"):
        g.clone().apply("5H@e6")
    with pytest.raises(ValueError, match="does not hold"):
        g.clone().apply("4H@f5")


# ---------------------------------------------------------------------------
# dead cards (C-14, C-20, C-21) and passing (C-15, C-19, C-30, P-18)
# ---------------------------------------------------------------------------


def test_c14_dead_card_exchange_and_limit_one():
    """C-14/C-20: a dead card may be exchanged once per turn; the replacement is the draw pile's top;
    after it no further exchange is listed and the position says exchange-used."""
    g = game_from(rules_for(), chips={"g": "e5 i7 a5 c7"}, hands=[["5H", "9C", "2S"], []], draw=["KH", "QH"])
    assert g.legal_moves() == ["2S@b1", "2S@g9", "~5H", "~9C"]
    g.apply("~5H")
    assert g.discards[0] == ["5H"] and sorted(g.hands[0]) == sorted(["9C", "2S", "KH"])
    assert g.draw_pile == ["QH"] and g.turn == 0 and g.current_seat == 0
    assert not any(m.startswith("~") for m in g.legal_moves())
    assert g.to_position().exchange_used is True
    with pytest.raises(ValueError, match="no exchange left"):
        g.clone().apply("~9C")
    g.apply("KH@g2")
    assert g.current_seat == 1 and g.exchanges_left == 1


def test_c14_exchange_used_position_and_unlimited():
    """C-14/P-16: exchange_used means none left; dead_card_exchanges_per_turn=unlimited never runs out;
    =0 never allows one."""
    chips = {"g": "e5 i7 a5 c7"}
    hands = [["5H", "9C"], []]
    used = game_from(rules_for(), chips=chips, hands=hands, exchange_used=True)
    assert used.legal_moves() == ["pass"]
    many = game_from(
        rules_for(dead_card_exchanges_per_turn=UNLIMITED), chips=chips, hands=hands, draw=["5H", "9C", "KH"]
    )
    many.apply("~5H")
    many.apply("~9C")  # draws 5H (still dead)
    assert "~5H" in many.legal_moves() and many.to_position().exchange_used is False
    none = game_from(rules_for(dead_card_exchanges_per_turn=0), chips=chips, hands=hands)
    assert none.legal_moves() == ["pass"] and none.to_position().exchange_used is False


def test_c14_whole_turn_string_is_atomic():
    """P-12/P-16: a whole turn "~5H KH@g2" is applied action by action, and not at all if illegal."""
    g = game_from(rules_for(), chips={"g": "e5 i7"}, hands=[["5H"], []], draw=["KH", "QH"])
    before = g.to_position()
    with pytest.raises(ValueError):
        g.apply("~5H QH@h2")  # QH is not drawn: KH is
    assert g.to_position() == before
    g.apply("~5H KH@g2")
    assert g.board[parse_cell("g2")] == "b" and g.current_seat == 1


def test_c30_forced_pass_no_draw_counters_advance():
    """C-15/C-30: with no legal play the only move is pass: no card drawn, turn and stall advance."""
    g = game_from(
        rules_for(), chips={"g": "e5 i7"}, hands=[["5H"], ["2S"]], exchange_used=True, turn=5, stall=2
    )
    assert g.legal_moves() == ["pass"]
    g.apply("pass")
    assert g.hands[0] == ["5H"] and g.draw_pile == FILLER
    assert (g.turn, g.stall, g.current_seat) == (6, 3, 1)


def test_c30_forced_pass_with_empty_hand():
    """C-15: an empty hand is a forced pass."""
    g = game_from(rules_for(), hands=[[], ["2S"]])
    assert g.legal_moves() == ["pass"]


def test_c30_pass_listed_beside_exchanges():
    """C-30: all cards dead: the exchanges and pass are listed (pass after an exchange is allowed too)."""
    g = game_from(rules_for(), chips={"g": "e5 i7"}, hands=[["5H"], []], draw=["5H"])
    assert g.legal_moves() == ["~5H", "pass"]
    g.apply("~5H")
    assert g.legal_moves() == ["pass"]


def test_c19_no_voluntary_pass_unless_option():
    """C-19/P-18: pass is illegal while a play exists, unless allow_voluntary_pass; then it is scored
    like a forced pass."""
    g = game_from(rules_for(), hands=[["5H"], []])
    with pytest.raises(ValueError, match="C-19"):
        g.apply("pass")
    v = game_from(rules_for(allow_voluntary_pass=True), hands=[["5H"], []])
    assert v.legal_moves() == ["5H@e5", "5H@i7", "pass"]
    v.apply("pass")
    assert v.hands[0] == ["5H"] and v.stall == 1 and v.turn == 1


# ---------------------------------------------------------------------------
# draw pile (C-17, C-29) and deck exhaustion
# ---------------------------------------------------------------------------


def test_c29_reshuffle_takes_all_discards_including_card_just_played():
    """C-29: an empty draw pile is refilled with every discard pile, the card just played included;
    discards become empty and the order is then unknown (P-17)."""
    g = game_from(
        rules_for(), hands=[["5H"], ["2S"]], draw=[], discards=[["KH", "QH"], ["AS"]], rng=random.Random(1)
    )
    total_before = Counter(g._all_cards())
    g.apply("5H@e5")
    assert g.discards == [[], []]
    assert len(g.hands[0]) == 1 and len(g.draw_pile) == 3
    assert Counter(g._all_cards()) == total_before
    assert sorted(g.hands[0] + g.draw_pile) == sorted(["5H", "KH", "QH", "AS"])
    assert g.draw_known is False
    pos = g.to_position()
    assert pos.draw_cards is None and pos.draw_count == 3


def test_c29_conservation_over_random_games():
    """C-29 invariant: hands + discards + draw pile (+ draft) = the whole deck, across reshuffles."""
    for variant, players in (("classic", 2), ("classic", 3), ("draft", 2)):
        rules = rules_for(variant, players)
        full = Counter(rules.deck_cards.cards())
        for seed in range(4):
            pick = random.Random(seed)
            g = RefGame.new(rules, rng=random.Random(seed + 50))
            while not g.is_over:
                g.apply(pick.choice(g.legal_moves()))
                assert Counter(g._all_cards()) == full
                assert len(g.board) == 100


def test_c29_draw_game_ends_as_draw_without_advancing():
    """C-29/C-31.5/P-14 deck_exhaustion=draw_game: the first draw from an empty pile ends the game
    as a draw, counters not advanced."""
    g = game_from(
        rules_for(deck_exhaustion="draw_game"),
        hands=[["5H"], ["2S"]],
        draw=[],
        discards=[["KH"], []],
        turn=40,
    )
    g.apply("5H@e5")
    assert g.result == "draw" and g.termination == "deck_exhausted"
    assert g.turn == 40 and g.discards[0] == ["KH", "5H"] and g.hands[0] == []


def test_c29_draw_game_also_on_exchange():
    """C-29: the exchange replacement uses the same draw procedure."""
    g = game_from(rules_for(deck_exhaustion="draw_game"), chips={"g": "e5 i7"}, hands=[["5H"], []], draw=[])
    g.apply("~5H")
    assert g.result == "draw" and g.termination == "deck_exhausted"


# ---------------------------------------------------------------------------
# draft variant (D-1 .. D-4)
# ---------------------------------------------------------------------------


def test_d1_draft_moves_list_every_pick():
    """D-1/P-13: each play and exchange is listed once per distinct draft card, in deck order."""
    rules = rules_for("draft", 2)
    g = game_from(
        rules,
        chips={"g": "a5 c7"},
        hands=[["5H", "9C"], []],
        draft=["QD", "2C", "AS", "AS"],
        draw=["KH", "3S"],
    )
    assert g.legal_moves() == [
        "5H@e5+AS", "5H@e5+QD", "5H@e5+2C",
        "5H@i7+AS", "5H@i7+QD", "5H@i7+2C",
        "~9C+AS", "~9C+QD", "~9C+2C",
    ]  # fmt: skip


def test_d1_draft_pick_and_refill():
    """D-1: the player takes the chosen draft card; the draft is refilled from the top of the draw pile."""
    rules = rules_for("draft", 2)
    g = game_from(rules, hands=[["5H"], []], draft=["QD", "2C", "AS"], draw=["KH", "3S"])
    with pytest.raises(ValueError, match="draft card"):
        g.clone().apply("5H@e5")
    with pytest.raises(ValueError, match="not in the draft"):
        g.clone().apply("5H@e5+KH")
    g.apply("5H@e5+QD")
    assert g.hands[0] == ["QD"]
    assert sorted(g.draft) == sorted(["AS", "2C", "KH"]) and g.draw_pile == ["3S"]
    assert g.to_position().draft == ("AS", "KH", "2C")


def test_d1_draft_exchange_takes_a_draft_card():
    """D-1: the dead-card exchange replacement is a draft card too (~9C+AS)."""
    rules = rules_for("draft", 2)
    g = game_from(rules, chips={"g": "a5 c7"}, hands=[["9C"], []], draft=["AS"], draw=["KH"])
    g.apply("~9C+AS")
    assert g.hands[0] == ["AS"] and g.draft == ["KH"] and g.discards[0] == ["9C"] and g.current_seat == 0


def test_d1_no_pick_outside_the_draft():
    """D-1: a +XX suffix is illegal in the blind-draw game."""
    with pytest.raises(ValueError, match="no draft"):
        game_from(rules_for(), hands=[["5H"], []]).apply("5H@e5+QD")


def test_d4_draft_end_refill_never_reshuffles():
    """D-4: with draft_end the discards are never reshuffled; the draft simply shrinks."""
    rules = rules_for("draft", 2)
    g = game_from(rules, hands=[["5H"], []], draft=["QD", "2C"], draw=[], discards=[["KH"], []])
    g.apply("5H@e5+QD")
    assert g.draft == ["2C"] and g.draw_pile == [] and g.discards[0] == ["KH", "5H"] and not g.is_over


def test_d4_play_taking_the_last_draft_card_ends_the_game_at_once():
    """D-4: a play that takes the last draft card with nothing to refill it ends the game before
    the next player acts; more sequences wins."""
    rules = rules_for("draft", 2)
    g = game_from(
        rules,
        chips={"G": "a5 b5 c5 d5 e5"},
        sequences=("g a5-e5",),
        hands=[["5H"], ["2S"]],
        draft=["QD"],
        draw=[],
    )
    g.apply("5H@i7+QD")
    assert g.is_over and g.result == "g" and g.termination == "deck_exhausted" and g.draft == []


def test_d4_exchange_taking_the_last_draft_card_ends_before_the_play():
    """D-4: the replacement of a dead-card exchange empties the draft: no play follows."""
    rules = rules_for("draft", 2)
    g = game_from(rules, chips={"g": "a5 c7"}, hands=[["9C", "5H"], []], draft=["AS"], draw=[])
    g.apply("~9C+AS")
    assert g.is_over and g.result == "draw" and g.termination == "deck_exhausted"
    assert g.hands[0] == ["AS", "5H"] and g.legal_moves() == []


def test_d4_draft_end_winner_by_sequences():
    """D-4: a take from an empty draft (a hand-built position) ends the game; more sequences wins; P-14."""
    rules = rules_for("draft", 2)
    g = game_from(
        rules,
        chips={"B": "a5 b5 c5 d5 e5"},
        sequences=("b a5-e5",),
        hands=[[], ["2S"]],
        draft=[],
        draw=[],
        to_move=1,
        turn=30,
    )
    assert g.legal_moves() == ["2S@b1", "2S@g9"]  # no suffix with an empty draft
    g.apply("2S@b1")
    assert g.result == "b" and g.termination == "deck_exhausted" and g.turn == 30


def test_d4_draft_end_equal_counts_draw():
    """D-4: equal sequence counts are a draw."""
    rules = rules_for("draft", 2)
    g = game_from(rules, hands=[["2S"], []], draft=[], draw=[])
    g.apply("2S@b1")
    assert g.result == "draw" and g.termination == "deck_exhausted"


def test_d3_heart_rule_scores_two():
    """D-3: holding e5, f5, e6, f6 scores two sequences: an immediate win with heart_rule=on."""
    rules = rules_for("draft", 2)
    chips = {"b": "e5 f5", "B": "e6"}
    g = game_from(rules, chips=chips, hands=[["3H"], []], draft=["AS"], draw=["KH"])
    g.apply("3H@f6+AS")
    assert g.result == "b" and g.termination == "win" and g.score("b") == 2 and g.sequences == []
    off = game_from(
        rules.replace(heart_rule="off"), chips=chips, hands=[["3H"], []], draft=["AS"], draw=["KH"]
    )
    off.apply("3H@f6+AS")
    assert not off.is_over and off.score("b") == 0


def test_d3_heart_not_held_with_opponent_chip():
    """D-3: the four centre cells must all hold the side's own chips."""
    rules = rules_for("draft", 2)
    g = game_from(rules, chips={"b": "e5 f5", "g": "e6"}, hands=[["3H"], []], draft=["AS"], draw=["KH"])
    g.apply("3H@f6+AS")
    assert not g.is_over and g.score("b") == 0


# ---------------------------------------------------------------------------
# end of turn and termination (C-18, C-31)
# ---------------------------------------------------------------------------


def test_c18_turn_counters_and_next_seat():
    """C-18: turn +1, stall reset by a placement, next seat (s+1) mod N."""
    g = game_from(rules_for("classic", 3), hands=[[], [], ["5H"]], to_move=2, turn=8, stall=5)
    g.apply("5H@e5")
    assert (g.turn, g.stall, g.current_seat) == (9, 0, 0)


def test_c31_stall_limit():
    """C-31.3: stall_limit turns without a chip placed or removed end the game as a draw."""
    g = game_from(rules_for(stall_limit=3), hands=[[], []], stall=2, turn=10)
    g.apply("pass")
    assert g.result == "draw" and g.termination == "stall" and (g.turn, g.stall) == (11, 3)


def test_c31_turn_cap():
    """C-31.4: max_turns turns end the game as a draw."""
    g = game_from(rules_for(max_turns=10), hands=[["5H"], []], turn=9)
    g.apply("5H@e5")
    assert g.result == "draw" and g.termination == "turn_cap" and g.turn == 10


def full_locked_board(empty: str) -> list[str]:
    board = ["*" if c in CORNERS else ("B" if (c // 10) % 2 == 0 else "G") for c in range(100)]
    board[parse_cell(empty)] = "."
    return board


def test_c31_frozen_board():
    """C-31.2: after a turn with no empty non-corner cell and no unlocked chip, the game is a draw."""
    rules = rules_for(sequences_to_win=max_sequences(4), overlap_max_shared=4)
    # row 5 (index 4) is blue: filling e5 completes blue windows of row 5, locking the last chip
    g = game_from(rules, board=full_locked_board("e5"), hands=[["5H"], []])
    g.apply("5H@e5")
    assert g.board[parse_cell("e5")] == "B"
    assert g.result == "draw" and g.termination == "frozen" and g.turn == 1


def test_c31_not_frozen_with_an_unlocked_chip():
    """C-31.2: a full board with an unlocked chip is not frozen (a one-eyed jack could still play)."""
    board = full_locked_board("e5")
    board[parse_cell("e5")] = "g"
    rules = rules_for(sequences_to_win=max_sequences(1))
    g = game_from(rules, board=board, hands=[[], []])
    g.apply("pass")
    assert not g.is_over


def test_c31_frozen_checked_before_stall():
    """C-31: the checks run in order frozen, stall, turn cap."""
    rules = rules_for(sequences_to_win=max_sequences(1), stall_limit=1, max_turns=1)
    g = game_from(
        rules, board=full_locked_board("e5")[:44] + ["B"] + full_locked_board("e5")[45:], hands=[[], []]
    )
    g.apply("pass")
    assert g.termination == "frozen"


def test_windows_helper_sanity():
    """§1.2: the window table used by the reference has 192 windows (numbering = C-26 canonical order)."""
    assert len(windows()) == 192
    assert W("e1-e5") < W("a5-e5")  # first cell e1 precedes a5 in reading order
    assert W("a1-e1") < W("a1-a5") < W("a1-e5")  # same first cell: across, down, down-right
