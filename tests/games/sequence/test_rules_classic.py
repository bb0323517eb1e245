"""Classic Sequence (RULES.md §1, C-1 … C-31) on the compiled engine, :class:`seqsolve.games.sequence.state.State`.

Every test names the rule it checks and plays on a small hand-built position
(see ``state_helpers``): chips are put where the test needs them, hands hold the
few cards that matter, and the draw pile is short and known.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from state_helpers import (
    LONG_GAME,
    board_token,
    card_census,
    cells,
    decl_names,
    drop,
    give,
    make,
    moves,
    rules_for,
    seq_names,
)

from seqsolve.games.sequence.actions import IllegalMoveError
from seqsolve.games.sequence.board import CORNERS, cell_name, get_layout, parse_cell, windows
from seqsolve.games.sequence.cards import CardKind, make_deck, normalize_card
from seqsolve.games.sequence.moves import Move, MoveSyntaxError
from seqsolve.games.sequence.rules import RulesError, parse_rules
from seqsolve.games.sequence.state import State, Termination, default_seats

# ---------------------------------------------------------------------------
# 1.1 Components (C-1 … C-4)
# ---------------------------------------------------------------------------


def test_c1_deck_is_two_standard_decks_without_jokers():
    """C-1: 104 cards, each of the 52 codes exactly twice, no jokers."""
    deck = make_deck()
    assert deck.size == 104 and len(deck.codes) == 52
    counts = Counter(deck.cards())
    assert set(counts.values()) == {2}
    assert all(len(c) == 2 and c[0] in "A23456789TJQK" and c[1] in "SHDC" for c in deck.codes)


def test_c1_new_game_holds_the_whole_deck():
    """C-1/C-12: a fresh deal spreads exactly the 104 cards over hands and draw pile."""
    s = State.new(parse_rules("classic", players=3), seed=11)
    assert card_census(s) == Counter(make_deck().cards())


def test_c1_ten_is_accepted_as_t_and_written_as_t():
    """C-1: parsers accept 10 for T; writers emit T."""
    assert normalize_card("10h") == "TH"
    assert str(Move.from_str("10H@i2")) == "TH@i2"
    s = make(rules_for(), hands=["TH", ""])
    s.apply("10H@i2")
    assert board_token(s, "i2") == "b"


def test_c2_jack_kinds_by_eyes():
    """C-2: JD/JC two-eyed (wild), JS/JH one-eyed (remove); jacks never on the board."""
    deck = make_deck()
    assert {c for c in deck.codes if deck.kind(c) == CardKind.WILD} == {"JD", "JC"}
    assert {c for c in deck.codes if deck.kind(c) == CardKind.REMOVE} == {"JS", "JH"}
    layout = get_layout()
    assert not any(label.startswith("J") for label in layout.labels)


def test_c2_two_eyed_jacks_place_anywhere_one_eyed_remove():
    """C-2/C-15: JC lists every empty non-corner cell; JH lists only removals."""
    s = make(rules_for(), chips={"g": "e5 f5"}, hands=["JC JH", ""])
    listed = moves(s)
    jc = [m for m in listed if m.startswith("JC@")]
    assert len(jc) == 96 - 2
    assert [m for m in listed if m.startswith("JH")] == ["JHxe5", "JHxf5"]


def test_c3_colours_and_red_only_for_a_third_side():
    """C-3: blue and green for two sides, red only with a third."""
    assert default_seats(parse_rules("classic", players=2)) == "bg"
    assert default_seats(parse_rules("classic", players=4)) == "bgbg"
    assert default_seats(parse_rules("classic", players=3)) == "bgr"
    assert "r" not in default_seats(parse_rules("classic", players=12, teams=2))


def test_c3_engine_never_runs_out_of_chips():
    """C-3: with 60 blue chips already on the board blue can still place more."""
    rules = rules_for(**LONG_GAME)
    free = [c for c in range(100) if c not in CORNERS]
    # fill rows 2..7 (60 cells) with blue, except e5 (5H) which blue will take
    blue = [cell_name(c) for c in free if 10 <= c < 70 and cell_name(c) != "e5"]
    assert len(blue) == 59
    s = make(rules, chips={"b": " ".join(blue)}, hands=["5H", ""])
    s.apply("5H@e5")
    assert len(s.chips(0)) == 60


def test_c4_board_ten_by_ten_corners_and_each_card_twice():
    """C-4: 10x10, free corners a1 j1 a10 j10, every one of the 48 non-jack codes on two cells."""
    layout = get_layout()
    assert len(layout.labels) == 100
    assert [cell_name(c) for c, lab in enumerate(layout.labels) if lab == "*"] == ["a1", "j1", "a10", "j10"]
    non_jacks = [c for c in make_deck().codes if c[0] != "J"]
    assert len(non_jacks) == 48
    assert all(len(layout.cells_of(c)) == 2 for c in non_jacks)
    assert sorted(lab for lab in layout.labels if lab != "*") == sorted(non_jacks * 2)


# RULES.md §1.2, "Card -> cells" table, copied by hand.
CARD_CELLS = """
AS b3 j5  AH f2 g5  AD g8 b10  AC f8 a9
2S b1 g9  2H e6 h9  2D c3 j6   2C e2 g4
3S c1 f9  3H f6 i9  3D d3 j7   3C d2 f4
4S d1 e9  4H f5 i8  4D e3 j8   4C c2 e4
5S e1 d9  5H e5 i7  5D f3 j9   5C b2 d4
6S f1 c9  6H d5 i6  6D g3 i10  6C a2 c4
7S g1 b9  7H i5 d6  7D h3 h10  7C a3 c5
8S h1 b8  8H i4 d7  8D h4 g10  8C a4 c6
9S i1 b7  9H i3 e7  9D h5 f10  9C a5 c7
TS j2 b6  TH i2 f7  TD h6 e10  TC a6 c8
QS j3 b5  QH h2 g7  QD h7 d10  QC a7 d8
KS b4 j4  KH g2 g6  KD h8 c10  KC a8 e8
"""


def test_c5_jax_layout_matches_the_card_table():
    """C-5: every card's two cells are those of RULES.md's card -> cells table."""
    tokens = CARD_CELLS.split()
    table = {tokens[i]: sorted(cells(f"{tokens[i + 1]} {tokens[i + 2]}")) for i in range(0, len(tokens), 3)}
    assert len(table) == 48
    layout = get_layout()
    for code, where in table.items():
        assert sorted(layout.cells_of(code)) == where, code


def test_c5_rows_one_and_ten_read_as_printed():
    """C-5: row 1 reads 2S … 9S between corners; row 10 AD … 6D."""
    labels = get_layout().labels
    assert labels[0:10] == ("*", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "*")
    assert labels[90:100] == ("*", "AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", "*")


def test_c5_window_geometry_facts():
    """§1.2 geometry: 192 windows, 12 through a corner, none through two."""
    ws = windows()
    assert len(ws) == 192
    through_corner = [w for w in ws if set(w) & set(CORNERS)]
    assert len(through_corner) == 12
    assert all(len(set(w) & set(CORNERS)) == 1 for w in through_corner)


# ---------------------------------------------------------------------------
# 1.3 Players, teams, seating (C-6 … C-8)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 7, 11, 1, 13])
def test_c6_player_counts_that_cannot_be_seated(players):
    """C-6: only 2, 3, 4, 6, 8, 9, 10, 12 players."""
    with pytest.raises(RulesError, match="C-6"):
        parse_rules("classic", players=players)


def test_c6_teams_required_for_6_and_12_and_must_divide():
    """C-6: 6 and 12 players need teams=2 or 3; sides must be equal; 2-3 play individually."""
    for players in (6, 12):
        with pytest.raises(RulesError, match="teams"):
            parse_rules("classic", players=players)
    with pytest.raises(RulesError):
        parse_rules("classic", players=8, teams=3)
    with pytest.raises(RulesError):
        parse_rules("classic", players=3, teams=2)
    assert parse_rules("classic", players=6, teams=3).teams == 3


def test_c7_seat_s_plays_side_s_mod_t():
    """C-7: team-mates alternate; a chip placed by seat 2 of 4 is blue, seat 3 green."""
    rules = rules_for(players=4)
    s = make(rules, hands=["", "", "5H", "4H"], to_move=2)
    s.apply("5H@e5")
    assert s.current_player == 3
    s.apply("4H@f5")
    assert board_token(s, "e5") == "b" and board_token(s, "f5") == "g"
    assert [s.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_c7_three_teams_every_third_player():
    """C-7: 6 players in 3 teams seat b g r b g r; seat 5 plays red."""
    rules = rules_for(players=6, teams=3)
    assert default_seats(rules) == "bgrbgr"
    s = make(rules, hands=["", "", "", "", "", "5H"], to_move=5)
    s.apply("5H@e5")
    assert board_token(s, "e5") == "r"


def test_c7_another_colour_assignment_from_a_position():
    """C-7/P-3: seats ``gb`` (side 0 plays green) are honoured: seat 0's chips are green."""
    s = make(rules_for(players=3), chips={"g": "a5 b5 c5 d5"}, hands=["5H", "", ""], seats="gbr")
    s.apply("5H@e5")
    assert board_token(s, "e5") == "G" and s.outcome().winner == "g"
    assert s.returns() == [1.0, -1.0, -1.0]


def test_c8_turn_order_is_clockwise_and_wraps():
    """C-8: seat 0, 1, 2, 0 …; with empty hands every turn is a forced pass."""
    s = make(rules_for(players=3))
    order = []
    for _ in range(4):
        order.append(s.current_player)
        s.apply("pass")
    assert order == [0, 1, 2, 0]


# ---------------------------------------------------------------------------
# 1.4-1.6 Hand size, objective, setup (C-9 … C-13)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,teams,hand",
    [
        (2, None, 7),
        (3, None, 6),
        (4, None, 6),
        (6, 2, 5),
        (6, 3, 5),
        (8, None, 4),
        (9, None, 4),
        (10, None, 3),
        (12, 2, 3),
        (12, 3, 3),
    ],
)
def test_c9_hand_size_by_players(players, teams, hand):
    """C-9: the dealt hand depends on the number of players, not of sides."""
    s = State.new(parse_rules("classic", players=players, teams=teams), seed=3)
    assert s.core.hand_sizes() == [hand] * players
    assert s.draw_pile_size() == 104 - hand * players


def test_c10_sequences_to_win_by_sides():
    """C-10: 2 sides need 2 sequences, 3 sides need 1."""
    assert parse_rules("classic", players=2).sequences_to_win == 2
    assert parse_rules("classic", players=6, teams=2).sequences_to_win == 2
    assert parse_rules("classic", players=3).sequences_to_win == 1
    assert parse_rules("classic", players=12, teams=3).sequences_to_win == 1


def test_c10_one_sequence_is_not_enough_for_two_sides():
    """C-10: in a 2-side game the first sequence does not win."""
    s = make(rules_for(), chips={"b": "a5 b5 c5 d5"}, hands=["5H", ""])
    s.apply("5H@e5")
    assert seq_names(s) == ["b:a5-e5"] and not s.is_terminal()


def test_c11_a_sequence_is_five_in_a_line_in_any_direction():
    """C-11: across, down and both diagonals make sequences (3 sides: one wins)."""
    rules = rules_for(players=3)
    cases = [
        ("a5 b5 c5 d5", "5H@e5", "a5-e5"),  # across
        ("e1 e2 e3 e4", "5H@e5", "e1-e5"),  # down
        ("b2 c3 d4", "5H@e5", "a1-e5"),  # down-right (a1 a corner: b2 c3 d4 + e5)
        ("i1 h2 g3 f4", "5H@e5", "i1-e5"),  # down-left
    ]
    for chips, move, window in cases:
        s = make(rules, chips={"b": chips}, hands=["5H", "", ""])
        s.apply(move)
        assert seq_names(s) == [f"b:{window}"], window
        assert s.outcome().winner == "b"


def test_c11_four_and_an_opponent_chip_is_no_sequence():
    """C-11: every cell must count for the side; a green chip in the line breaks it."""
    s = make(rules_for(players=3), chips={"b": "a5 b5 d5", "g": "c5"}, hands=["5H", "", ""])
    s.apply("5H@e5")
    assert seq_names(s) == [] and not s.is_terminal()


def test_c12_c13_new_deal():
    """C-12/C-13: hands dealt, rest in the draw pile, discards empty, empty board, seat 0 first."""
    s = State.new(parse_rules("classic", players=4), seed=5)
    pos = s.to_position()
    assert [len(h) for h in pos.hands] == [6, 6, 6, 6]
    assert pos.draw_count == 104 - 24
    assert pos.discards == ((), (), (), ())
    assert [cell_name(c) for c, t in enumerate(pos.board) if t != "."] == ["a1", "j1", "a10", "j10"]
    assert s.current_player == 0 and s.turn == 0 and s.stall == 0 and s.sequences() == []


def test_c12_same_seed_same_deal():
    """C-12: shuffles come from the seed (STYLE habit 6)."""
    rules = parse_rules("classic", players=2)
    a, b, c = State.new(rules, seed=9), State.new(rules, seed=9), State.new(rules, seed=10)
    assert a.to_position() == b.to_position()
    assert a.to_position() != c.to_position()


# ---------------------------------------------------------------------------
# 1.7 The turn (C-14 … C-19)
# ---------------------------------------------------------------------------


def test_c14_dead_card_exchange_draws_a_replacement_and_stays_on_turn():
    """C-14: the dead 5S goes face up on the own pile, the top card is drawn, the same seat plays."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S 9C", ""], draw="KS QS")
    assert "~5S" in moves(s)
    s.apply("~5S")
    assert s.current_player == 0 and s.turn == 0
    assert s.hand(0) == ["KS", "9C"]
    assert s.to_position().discards == (("5S",), ())
    assert s.draw_pile_size() == 1


def test_c14_only_one_exchange_per_turn_even_if_the_replacement_is_dead():
    """C-14: with the default limit a dead replacement cannot be exchanged this turn."""
    s = make(rules_for(), chips={"b": "e1 d1", "g": "d9 e9"}, hands=["5S 9C", ""], draw="4S QS")
    s.apply("~5S")
    assert s.hand(0) == ["4S", "9C"]
    assert not any(m.startswith("~") for m in moves(s))
    with pytest.raises(IllegalMoveError, match="C-14"):
        s.apply("~4S")


def test_c14_exchange_allowance_renews_each_turn():
    """C-14: the next turn may exchange again."""
    s = make(rules_for(), chips={"b": "e1 d1", "g": "d9 e9"}, hands=["5S 9C", "4S 9C"], draw="KS QS JS")
    s.apply("~5S")
    s.apply("9C@a5")
    assert s.current_player == 1
    assert "~4S" in moves(s)


@pytest.mark.parametrize(
    "chips, hand, listed, refused, why",
    [
        pytest.param(
            {"b": "e1"}, "5S", ["5S@d9"], "~5S", "C-20", id="C-14/C-20 a live card is not exchanged"
        ),
        pytest.param(
            {"g": "e5"}, "5H", ["5H@i7"], "5H@e5", "not empty", id="C-15 a chip needs an empty cell"
        ),
        pytest.param({"b": "e5"}, "JS", ["pass"], "~JS", "C-19a", id="C-19a a JS with no target is not dead"),
    ],
)
def test_only_the_listed_turns_are_accepted(chips, hand, listed, refused, why):
    """C-14/C-20: only dead cards are exchanged; C-15: an occupied cell cannot take a chip;
    C-19a: a JS with nothing to remove is unplayable but not dead: no exchange, forced pass."""
    s = make(rules_for(), chips=chips, hands=[hand, ""])
    assert moves(s) == listed
    with pytest.raises(IllegalMoveError, match=why):
        s.apply(refused)


def test_c15_normal_card_goes_on_either_of_its_cells_only():
    """C-15: 5H lists e5 and i7; other cells are refused."""
    s = make(rules_for(), hands=["5H", ""])
    assert moves(s) == ["5H@e5", "5H@i7"]
    with pytest.raises(IllegalMoveError, match="e5, i7"):
        s.clone().apply("5H@f5")
    s.apply("5H@i7")
    assert board_token(s, "i7") == "b" and s.to_position().discards[0] == ("5H",)


def test_c15_two_eyed_jack_on_a_live_cell_but_not_occupied_or_corner():
    """C-15/§1.8: JD may take e5 although 5H is live; never an occupied cell or a corner."""
    s = make(rules_for(), chips={"g": "f5"}, hands=["JD", ""])
    listed = moves(s)
    assert "JD@e5" in listed and "JD@f5" not in listed
    assert not any(m.endswith(("@a1", "@j1", "@a10", "@j10")) for m in listed)
    with pytest.raises(IllegalMoveError, match="C-23"):
        s.clone().apply("JD@a1")
    with pytest.raises(IllegalMoveError, match="not empty"):
        s.clone().apply("JD@f5")
    s.apply("JD@e5")
    assert board_token(s, "e5") == "b"


def test_c15_one_eyed_jack_targets_only_unlocked_opposing_chips():
    """C-15/§1.8: not own, not a team-mate's, not locked, not a corner, not empty."""
    rules = rules_for(players=4)
    s = make(
        rules,
        chips={"b": "c3 e1", "g": "d3 h5", "G": "b10 c10 d10 e10"},
        sequences=["g a10-e10"],
        hands=["JS", "", "", ""],
    )
    assert moves(s) == ["JSxd3", "JSxh5"]
    for target, why in (
        ("c3", "own side"),
        ("e1", "own side"),
        ("b10", "C-27"),
        ("a1", "no chip"),
        ("e5", "no chip"),
    ):
        with pytest.raises(IllegalMoveError, match=why):
            s.clone().apply(f"JSx{target}")


def test_c15_one_eyed_jack_cannot_remove_a_team_mates_chip():
    """§1.8: seat 2's chip is blue like seat 0's, so seat 0's JH cannot take it."""
    rules = rules_for(players=4)
    s = make(rules, hands=["", "", "5H", ""], to_move=2)
    s.apply("5H@e5")  # seat 2 (blue)
    s = give(s, 0, "JH", to_move=0)
    assert "JHxe5" not in moves(s)
    with pytest.raises(IllegalMoveError, match="own side"):
        s.apply("JHxe5")


def test_c15_one_eyed_jack_any_opponent_with_three_sides():
    """§1.8: with 3 sides either opponent's chip is a target."""
    s = make(rules_for(players=3), chips={"b": "a2", "g": "e5", "r": "f5"}, hands=["JS", "", ""])
    assert moves(s) == ["JSxe5", "JSxf5"]


def test_c15_removal_ends_the_play_and_the_cell_is_not_retaken():
    """C-15: the removal is the whole play: the cell is empty, nothing placed, the turn passes."""
    s = make(rules_for(), chips={"g": "e5"}, hands=["JS 5H", ""], draw="KS")
    s.apply("JSxe5")
    assert board_token(s, "e5") == "." and s.chips(0) == []
    assert s.current_player == 1
    assert s.to_position().discards[0] == ("JS",)


def test_c16_sequence_check_after_a_placement_and_win_ends_at_once():
    """C-16/P-14: the win ends the game before the draw; counters are not advanced."""
    s = make(
        rules_for(players=3), chips={"b": "a5 b5 c5 d5"}, hands=["5H 9C", "", ""], draw="KS", turn=12, stall=3
    )
    s.apply("5H@e5")
    assert s.is_terminal()
    assert s.outcome().termination is Termination.WIN and s.outcome().winner == "b"
    assert s.hand(0) == ["9C"] and s.draw_pile_size() == 1  # no draw
    assert (s.turn, s.stall) == (12, 3)
    assert s.current_player is None and s.legal_moves() == []
    assert s.returns() == [1.0, -1.0, -1.0]


def test_c16_returns_per_team():
    """C-16/§1.3: a team shares its win."""
    s = make(
        rules_for(players=4), chips={"b": "a5 b5 c5 d5 e1 e2 e3 e4"}, hands=["", "", "5H", ""], to_move=2
    )
    s.apply("5H@e5")  # a5-e5 and e1-e5 at once (C-28): 2 sequences win for blue
    assert s.outcome().winner == "b"
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]


def test_c17_draw_after_a_placement_and_after_a_removal():
    """C-17: a card is drawn after every play, including a one-eyed-jack removal."""
    s = make(rules_for(), chips={"g": "f5"}, hands=["5H JS", "9C"], draw="KS QS TC")
    s.apply("5H@e5")
    assert s.hand(0) == ["JS", "KS"] and s.draw_pile_size() == 2
    s.apply("9C@a5")
    assert s.hand(1) == ["QS"]
    s.apply("JSxa5")
    assert s.hand(0) == ["KS", "TC"] and s.draw_pile_size() == 0


def test_c18_turn_counter_stall_and_next_seat():
    """C-18: the turn counter grows by one per turn, the stall counter resets on a chip change."""
    s = make(rules_for(), hands=["5H", ""], turn=4, stall=2)
    s.apply("5H@e5")
    assert (s.turn, s.stall, s.current_player) == (5, 0, 1)
    s.apply("pass")
    assert (s.turn, s.stall, s.current_player) == (6, 1, 0)


def test_c19_no_voluntary_pass_when_a_play_exists():
    """C-19: a player who can play must; pass is neither listed nor accepted."""
    s = make(rules_for(), hands=["5H", ""])
    assert "pass" not in moves(s)
    with pytest.raises(IllegalMoveError, match="C-19"):
        s.apply("pass")


def test_c19a_jacks_are_never_dead_even_on_a_full_board():
    """C-19a: on a full board a JD has no target but is still not exchangeable."""
    rules = rules_for(**LONG_GAME)
    free = " ".join(cell_name(c) for c in range(100) if c not in CORNERS)
    s = make(rules, chips={"G": free}, hands=["JD JC JS JH", ""])
    assert moves(s) == ["pass"]


# ---------------------------------------------------------------------------
# 1.9 Dead cards (C-20, C-21)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("e1,d9", [("b", "g"), ("b", "b"), ("g", "g"), ("B", "g")])
def test_c20_dead_when_both_cells_occupied_by_any_colour(e1, d9):
    """C-20: 5S (e1, d9) is dead whoever holds its cells, locked or not."""
    chips = {e1: "e1"}
    chips[d9] = (chips.get(d9, "") + " d9").strip()
    s = make(rules_for(), chips=chips, hands=["5S 9C", ""])
    assert "~5S" in moves(s) and not any(m.startswith("5S@") for m in moves(s))


def test_c20_one_empty_cell_keeps_a_card_live():
    """C-20: with d9 empty 5S is live."""
    s = make(rules_for(), chips={"g": "e1"}, hands=["5S", ""])
    assert moves(s) == ["5S@d9"]


def test_c20_a_removal_brings_a_dead_card_back_to_life():
    """C-20: dead is judged at the moment; emptying d9 makes 5S live again."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S JS", ""], draw="KS")
    assert "~5S" in moves(s)
    s.apply("JSxd9")
    s.apply("pass")
    assert "5S@d9" in moves(s) and "~5S" not in moves(s)


def test_c21_exchanging_is_optional():
    """C-21: a player with a dead card may play something else and keep it."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S 9C", ""], draw="KS")
    assert moves(s) == ["9C@a5", "9C@c7", "~5S"]
    s.apply("9C@a5")
    assert "5S" in s.hand(0)


# ---------------------------------------------------------------------------
# 1.10 Corners (C-22 … C-24)
# ---------------------------------------------------------------------------


def test_c22_corner_sequence_needs_four_chips_and_corner_is_not_locked():
    """C-22/C-27: a1-e1 with chips on b1..e1; the corner stays a corner."""
    s = make(rules_for(), chips={"b": "b1 c1 d1"}, hands=["5S", ""])
    s.apply("5S@e1")
    assert seq_names(s) == ["b:a1-e1"]
    assert board_token(s, "a1") == "*" and 0 not in s.locked_cells()
    assert [cell_name(c) for c in s.locked_cells()] == ["b1", "c1", "d1", "e1"]


def test_c22_several_sides_share_one_corner():
    """C-22: blue uses a1 in the row, green in the column, both at once."""
    s = make(
        rules_for(),
        chips={"B": "b1 c1 d1 e1", "g": "a2 a3 a4"},
        sequences=["b a1-e1"],
        hands=["", "9C"],
        to_move=1,
    )
    s.apply("9C@a5")
    assert seq_names(s) == ["b:a1-e1", "g:a1-a5"]


def test_c22_one_side_uses_a_corner_in_two_of_its_sequences():
    """C-22/C-25: a1-e1 and a1-a5 share only the corner: both count (a win for 2 sides)."""
    s = make(
        rules_for(), chips={"B": "b1 c1 d1 e1", "b": "a2 a3 a4"}, sequences=["b a1-e1"], hands=["9C", ""]
    )
    s.apply("9C@a5")
    assert seq_names(s) == ["b:a1-e1", "b:a1-a5"]
    assert s.outcome().winner == "b"


def test_c22_all_four_corners_count_for_every_side():
    """C-22/C-24: each corner completes a 4-chip line for green too."""
    rules = rules_for(players=3)
    lines = {
        "b1 c1 d1": ("5S", "e1", "a1-e1"),
        "j2 j3 j4": ("AS", "j5", "j1-j5"),
        "a9 a8 a7": ("TC", "a6", "a6-a10"),
        "i10 h10 g10": ("9D", "f10", "f10-j10"),
    }
    for chips, (card, cell, window) in lines.items():
        s = make(rules, chips={"g": chips}, hands=["", card, ""], to_move=1)
        s.apply(f"{card}@{cell}")
        assert seq_names(s) == [f"g:{window}"]


def test_c23_corners_never_hold_chips_nor_are_removed():
    """C-23: no play lists a corner; JD and JS refuse corners."""
    s = make(rules_for(), chips={"g": "e5"}, hands=["JD JS", ""])
    assert not any(m[-2:] in ("a1", "j1") or m.endswith(("a10", "j10")) for m in moves(s))
    with pytest.raises(IllegalMoveError, match="C-23"):
        s.clone().apply("JD@j10")
    with pytest.raises(IllegalMoveError):
        s.clone().apply("JSxj10")


def test_c23_corners_never_make_a_card_dead_or_live():
    """C-23: no card shows a corner; its liveness is decided by its two real cells."""
    layout = get_layout()
    for code in make_deck().codes:
        assert not set(layout.cells_of(code)) & set(CORNERS)


def test_c24_locked_chips_count_for_a_crossing_line():
    """C-24: a locked chip of the side counts in a new window (here the shared e5)."""
    s = make(
        rules_for(players=3, sequences_to_win=2),
        chips={"B": "a5 b5 c5 d5 e5", "b": "e1 e2 e3"},
        sequences=["b a5-e5"],
        hands=["4C", "", ""],
    )
    s.apply("4C@e4")
    assert seq_names(s) == ["b:a5-e5", "b:e1-e5"]


# ---------------------------------------------------------------------------
# 1.11 Sequences: eligibility, declaration, locking, several at once (C-25 … C-28)
# ---------------------------------------------------------------------------


def test_c25_default_one_shared_cell_allowed():
    """C-25: a second sequence may share exactly one cell with the first."""
    rules = rules_for(**LONG_GAME)
    s = make(rules, chips={"B": "a5 b5 c5 d5 e5", "b": "e1 e2 e3"}, sequences=["b a5-e5"], hands=["4C", ""])
    s.apply("4C@e4")
    assert seq_names(s) == ["b:a5-e5", "b:e1-e5"]


def test_c25_two_shared_cells_refused_by_default():
    """C-25: a window sharing 2 cells with a sequence is not eligible (a 6-run holds one)."""
    rules = rules_for(**LONG_GAME)
    s = make(rules, chips={"B": "a5 b5 c5 d5 e5"}, sequences=["b a5-e5"], hands=["4H", ""])
    s = drop(s, "g5 h5 i5", seat=0)
    s = give(s, 0, (), to_move=0)
    s.apply("4H@f5")
    # full windows through f5: b5-f5 (shares 4 cells with a5-e5), c5-g5 (3), d5-h5 (2), e5-i5 (1)
    assert seq_names(s) == ["b:a5-e5", "b:e5-i5"]


def test_c25_overlap_max_shared_0_forbids_any_shared_cell():
    """C-25 with overlap_max_shared=0: a crossing line through the sequence's cell is refused."""
    rules = rules_for(overlap_max_shared=0, **LONG_GAME)
    s = make(rules, chips={"B": "a5 b5 c5 d5 e5", "b": "e1 e2 e3"}, sequences=["b a5-e5"], hands=["4C", ""])
    s.apply("4C@e4")
    assert seq_names(s) == ["b:a5-e5"]
    assert board_token(s, "e4") == "b"  # placed, not locked


def test_c25_overlap_max_shared_1_default_lets_a_9_run_hold_two():
    """C-25 with the default 1: the halves of a 9-run share the middle cell."""
    s = drop(make(rules_for(**LONG_GAME)), "a5 b5 c5 d5 e5 f5 g5 h5 i5", seat=0)
    assert seq_names(s) == ["b:a5-e5", "b:e5-i5"]


def test_c25_overlap_max_shared_4_lets_a_6_run_count_twice():
    """C-25 with overlap_max_shared=4 (seed002-literal): a 6-run is two sequences."""
    rules = rules_for("seed002-literal", **LONG_GAME)
    s = drop(make(rules), "a5 b5 c5 d5 e5 f5", seat=0)
    assert seq_names(s) == ["b:a5-e5", "b:b5-f5"]


def test_c25_overlap_reuse_limit_1_example_3():
    """C-25 / §5.5 example 3: a5 completes a5-e5, which would be blue's third sequence, but
    e4-e8 was already crossed once (by e6-i6), so under overlap_reuse_limit=1 it does not count."""
    from seqsolve.games.sequence.notation import read_position

    pos = read_position("tests/data/example3.sqn")
    assert pos.rules.overlap_reuse_limit == 1 and pos.rules.sequences_to_win == 3
    s = give(State.from_position(pos), 2, "9C", to_move=2)
    assert decl_names(s, "a5") == [[]]
    s.apply("9C@a5")
    assert seq_names(s) == ["g:b3-f3", "b:e4-e8", "b:e6-i6"] and not s.is_terminal()
    assert board_token(s, "a5") == "b"
    # the same move under the default (unlimited reuse) is blue's third sequence and wins
    free = give(
        State.from_position(replace(pos, rules=pos.rules.replace(overlap_reuse_limit=-1))), 2, "9C", 2
    )
    free.apply("9C@a5")
    assert seq_names(free)[-1] == "b:a5-e5" and free.outcome().winner == "b"


def test_c25_overlap_reuse_limit_1_one_crossing_per_sequence():
    """C-25 condition 3: with reuse limit 1 a window may touch only one sequence, and only an
    uncrossed one; a fresh crossing of an uncrossed sequence is fine."""
    rules = rules_for(overlap_reuse_limit=1, **LONG_GAME)
    s = make(rules, chips={"B": "a5 b5 c5 d5 e5", "b": "e1 e2 e3"}, sequences=["b a5-e5"], hands=["4C", ""])
    s.apply("4C@e4")
    assert seq_names(s) == ["b:a5-e5", "b:e1-e5"]
    # now a5-e5 has been crossed; a5-a9 (column, shares a5) is not eligible
    s = drop(s, "a6 a7 a8", seat=0)
    s = drop(s, "a9", seat=0)
    assert seq_names(s) == ["b:a5-e5", "b:e1-e5", "b:a6-a10"]  # a6-a10 shares nothing


def test_c25_corner_counts_as_shared_false():
    """C-25 with corner_counts_as_shared=false: two sequences sharing only a corner share
    nothing, so they are allowed even with overlap_max_shared=0."""
    for corner_shared, expected in ((True, ["b:a1-e1"]), (False, ["b:a1-e1", "b:a1-a5"])):
        rules = rules_for(overlap_max_shared=0, corner_counts_as_shared=corner_shared, **LONG_GAME)
        s = make(rules, chips={"B": "b1 c1 d1 e1", "b": "a2 a3 a4"}, sequences=["b a1-e1"], hands=["9C", ""])
        s.apply("9C@a5")
        assert seq_names(s) == expected, corner_shared


def test_c25_corner_not_shared_still_counts_other_cells():
    """C-25: corner_counts_as_shared=false only drops corners; b1 c1 … still count."""
    rules = rules_for(corner_counts_as_shared=False, **LONG_GAME)
    # a1-e1 done; b1-f1 shares 4 real cells: refused
    s = make(rules, chips={"B": "b1 c1 d1 e1"}, sequences=["b a1-e1"], hands=["6S", ""])
    s.apply("6S@f1")
    assert seq_names(s) == ["b:a1-e1"]


def test_c26_only_a_placement_declares():
    """C-26: a removal never creates a sequence (even if it leaves a full line of the remover)."""
    s = make(rules_for(**LONG_GAME), chips={"b": "a5 b5 c5 d5", "g": "e5"}, hands=["JS", ""])
    s.apply("JSxe5")
    assert seq_names(s) == []


def test_c26_canonical_declaration_of_a_long_run():
    """C-26: a4 closes the column a1..a7 (a1 a corner): a1-a5, a2-a6, a3-a7 all become full and
    any two share >= 3 cells; the canonical choice is a1-a5 (first cell first)."""
    s = make(rules_for(**LONG_GAME), chips={"b": "a2 a3 a5 a6 a7"}, hands=["8C", ""])
    assert decl_names(s, "a4") == [["a1-a5"], ["a2-a6"], ["a3-a7"]]
    s.apply("8C@a4")
    assert seq_names(s) == ["b:a1-a5"]
    assert [cell_name(c) for c in s.locked_cells()] == ["a2", "a3", "a4", "a5"]
    assert board_token(s, "a6") == "b" and board_token(s, "a7") == "b"


def test_c26_explicit_declaration_accepted_when_a_maximum_choice():
    """C-26/P-12: ``8C@a4=a3-a7`` locks a3..a7 instead of the canonical a1-a5."""
    s = make(rules_for(**LONG_GAME), chips={"b": "a2 a3 a5 a6 a7"}, hands=["8C", ""])
    s.apply("8C@a4=a3-a7")
    assert seq_names(s) == ["b:a3-a7"]
    assert board_token(s, "a2") == "b" and board_token(s, "a7") == "B"


def test_c26_9c_at_a5_explicit_declaration():
    """C-26/P-12: ``9C@a5=a5-e5`` is accepted when a5-e5 alone is a maximum choice
    (overlap 0: a1-a5 and a5-e5 share a5) and refused when both are declared at once (default)."""
    chips = {"b": "b5 c5 d5 e5 a2 a3 a4"}
    tight = make(rules_for(overlap_max_shared=0, **LONG_GAME), chips=chips, hands=["9C", ""])
    assert decl_names(tight, "a5") == [["a1-a5"], ["a5-e5"]]
    canonical = tight.clone()
    canonical.apply("9C@a5")
    assert seq_names(canonical) == ["b:a1-a5"]
    tight.apply("9C@a5=a5-e5")
    assert seq_names(tight) == ["b:a5-e5"]
    assert board_token(tight, "a3") == "b" and board_token(tight, "c5") == "B"

    default = make(rules_for(**LONG_GAME), chips=chips, hands=["9C", ""])
    assert decl_names(default, "a5") == [["a1-a5", "a5-e5"]]
    with pytest.raises(IllegalMoveError, match="C-26"):
        default.clone().apply("9C@a5=a5-e5")
    default.apply("9C@a5=a1-a5,a5-e5")
    assert seq_names(default) == ["b:a1-a5", "b:a5-e5"]


def test_c26_declaration_of_a_window_that_is_not_full_is_refused():
    """C-26: the named window must be one of the maximum choices."""
    s = make(rules_for(**LONG_GAME), chips={"b": "a2 a3 a5 a6 a7"}, hands=["8C", ""])
    for bad in ("8C@a4=a4-a8", "8C@a4=a4-e4", "8C@a4=a1-a5,a3-a7"):
        with pytest.raises(IllegalMoveError, match="C-26"):
            s.clone().apply(bad)
    with pytest.raises(MoveSyntaxError):
        s.clone().apply("8C@a4=b4-b8x")


def test_c26_every_maximum_choice_is_listed_and_accepted():
    """C-26: four crossing runs of 8 through e5 give 4^4 = 256 maximum declarations (one window
    per line); all are listed, agree with the reference engine, and any of them may be chosen."""
    from seqsolve.reference.game import RefGame

    lines = "a5 b5 c5 d5 f5 g5 h5  e1 e2 e3 e4 e6 e7 e8  b2 c3 d4 f6 g7 h8  i1 h2 g3 f4 d6 c7 b8"
    s = make(rules_for(**LONG_GAME), chips={"b": lines}, hands=["5H", ""])
    options = s.declarations(parse_cell("e5"))
    assert len(options) == 256 and len(set(options)) == 256 and all(len(o) == 4 for o in options)
    assert options == RefGame.from_position(s.to_position()).declarations(parse_cell("e5"))
    assert decl_names(s, "e5")[0] == ["a1-e5", "e1-e5", "i1-e5", "a5-e5"]  # canonical first
    s.apply("5H@e5=d5-h5,e4-e8,d4-h8,f4-b8")  # the last choice, declared in any order
    assert seq_names(s) == ["b:d4-h8", "b:e4-e8", "b:f4-b8", "b:d5-h5"]
    assert board_token(s, "a5") == "b" and board_token(s, "h5") == "B"


def test_c26_nine_run_is_two_sequences_sharing_the_middle():
    """C-26/§1.11: a 9-run whose middle chip comes last completes both halves at once."""
    s = drop(make(rules_for(**LONG_GAME)), "a5 b5 c5 d5 f5 g5 h5 i5", seat=0)
    assert seq_names(s) == []
    assert decl_names(s, "e5", seat=0) == [["a5-e5", "e5-i5"]]
    s = drop(s, "e5", seat=0)
    assert seq_names(s) == ["b:a5-e5", "b:e5-i5"]


def test_c26_nine_run_through_a_corner_on_different_turns():
    """§1.11: with a1-e1 a sequence, chips up to i1 complete e1-i1 (shares only e1)."""
    s = drop(make(rules_for(**LONG_GAME)), "b1 c1 d1 e1", seat=0)
    assert seq_names(s) == ["b:a1-e1"]
    s = drop(s, "f1 g1 h1 i1", seat=0)
    assert seq_names(s) == ["b:a1-e1", "b:e1-i1"]


def test_c26_ten_run_left_to_right_is_two():
    """§1.11: a 10-run built left to right holds a2-e2 and e2-i2; j2 adds nothing."""
    s = drop(make(rules_for(**LONG_GAME)), "a2 b2 c2 d2 e2 f2 g2 h2 i2 j2", seat=0)
    assert seq_names(s) == ["b:a2-e2", "b:e2-i2"]
    assert board_token(s, "j2") == "b"


def test_c26_ten_run_disjoint_halves():
    """§1.11: f2-j2 first, then the left half closed at e2: two disjoint sequences."""
    s = drop(make(rules_for(**LONG_GAME)), "f2 g2 h2 i2 j2 a2 b2 c2 d2", seat=0)
    assert seq_names(s) == ["b:f2-j2"]
    assert decl_names(s, "e2", seat=0) == [["a2-e2"], ["b2-f2"]]
    s = drop(s, "e2", seat=0)
    assert seq_names(s) == ["b:f2-j2", "b:a2-e2"]


def test_c26_ten_run_whose_first_sequence_was_c2_g2_holds_one():
    """§1.11: a 10-run whose first declared sequence was c2-g2 holds only that one."""
    s = drop(make(rules_for(**LONG_GAME)), "c2 d2 e2 f2 g2 a2 b2 h2 i2 j2", seat=0)
    assert seq_names(s) == ["b:c2-g2"]
    assert all(board_token(s, c) == "b" for c in ["a2", "b2", "h2", "i2", "j2"])


def test_c26_ten_run_choice_between_right_halves():
    """C-26: closing f2 between a2-e2 and g2..j2 offers e2-i2 or f2-j2; the mover picks."""
    s = drop(make(rules_for(**LONG_GAME)), "a2 b2 c2 d2 e2 g2 h2 i2 j2", seat=0)
    assert decl_names(s, "f2", seat=0) == [["e2-i2"], ["f2-j2"]]
    chosen = give(s, 0, "AH", to_move=0)
    chosen.apply("AH@f2=f2-j2")
    assert seq_names(chosen) == ["b:a2-e2", "b:f2-j2"]
    canonical = give(s, 0, "AH", to_move=0)
    canonical.apply("AH@f2")
    assert seq_names(canonical) == ["b:a2-e2", "b:e2-i2"]
    assert board_token(canonical, "j2") == "b"


def test_c26_sequences_ordered_canonically_within_one_placement():
    """C-26.4: windows declared by one placement are appended in canonical order."""
    s = make(rules_for(**LONG_GAME), chips={"b": "a5 b5 c5 d5 e1 e2 e3 e4"}, hands=["5H", ""])
    s.apply("5H@e5")
    assert seq_names(s) == ["b:e1-e5", "b:a5-e5"]


def test_c27_locked_chips_are_never_removable():
    """C-27: a one-eyed jack cannot touch a chip of a completed sequence, any number of turns later."""
    s = make(rules_for(), chips={"g": "a5 b5 c5 d5"}, hands=["", "5H"], to_move=1, draw="JS JH KS QS")
    s.apply("5H@e5")
    assert [cell_name(c) for c in s.locked_cells()] == ["a5", "b5", "c5", "d5", "e5"]
    s = give(s, 0, "JS JH", to_move=0)
    assert moves(s) == ["pass"]
    for cell in ["a5", "b5", "c5", "d5", "e5"]:
        with pytest.raises(IllegalMoveError, match="C-27"):
            s.clone().apply(f"JSx{cell}")


def test_c27_unlocked_cells_of_a_longer_run_stay_removable():
    """C-27/§1.11: in a 6-run only the declared five lock; the sixth chip can be removed."""
    s = make(rules_for(**LONG_GAME), chips={"g": "a5 b5 c5 d5 f5"}, hands=["", "5H"], to_move=1)
    s.apply("5H@e5")
    assert seq_names(s) == ["g:a5-e5"]
    s = give(s, 0, "JS", to_move=0)
    assert moves(s) == ["JSxf5"]


def test_c28_two_sequences_at_once_win():
    """C-28: one chip completing two sequences wins at once with sequences_to_win=2."""
    s = make(rules_for(), chips={"b": "a5 b5 c5 d5 e1 e2 e3 e4"}, hands=["5H", ""], draw="KS", turn=20)
    s.apply("5H@e5")
    assert seq_names(s) == ["b:e1-e5", "b:a5-e5"]
    assert s.outcome().winner == "b" and s.outcome().termination is Termination.WIN
    assert s.turn == 20 and s.draw_pile_size() == 1


def test_c28_second_sequence_on_a_later_turn_wins():
    """C-28/C-16: the count of completed sequences reaches 2 on a later placement."""
    s = make(
        rules_for(), chips={"B": "a5 b5 c5 d5 e5", "b": "a6 a7 a8"}, sequences=["b a5-e5"], hands=["AC", ""]
    )
    s.apply("AC@a9")  # a5-a9 (shares only a5) and a6-a10 (the corner) are full; canonical a5-a9
    assert seq_names(s) == ["b:a5-e5", "b:a5-a9"] and s.outcome().winner == "b"


# ---------------------------------------------------------------------------
# 1.12 Draw pile (C-29)
# ---------------------------------------------------------------------------


def test_c29_reshuffle_gathers_every_discard_pile_including_the_card_just_played():
    """C-29: with the draw pile empty, all discards of all seats (the 5H just played too)
    become the new draw pile; the discard piles are then empty."""
    s = make(rules_for(players=3), hands=["5H", "", ""], draw=[], discards=["KS", "QS 7C", "2D"])
    s.apply("5H@e5")
    pos = s.to_position()
    assert pos.discards == ((), (), ())
    assert len(s.hand(0)) == 1 and s.draw_pile_size() == 4
    assert Counter(s.hand(0) + [s.rules.deck_cards.codes[c] for c in s.core.draw_pile()]) == Counter(
        ["KS", "QS", "7C", "2D", "5H"]
    )


def test_c29_reshuffle_can_return_the_card_just_played():
    """C-29: with nothing else discarded, the card just played is the whole new pile."""
    s = make(rules_for(), hands=["5H", ""], draw=[])
    s.apply("5H@e5")
    assert s.hand(0) == ["5H"] and s.draw_pile_size() == 0 and s.to_position().discards == ((), ())


def test_c29_reshuffle_on_an_exchange():
    """C-29/C-14: the replacement after an exchange is drawn the same way."""
    s = make(rules_for(), chips={"b": "e1", "g": "d9"}, hands=["5S", ""], draw=[], discards=["", "KS"])
    s.apply("~5S")
    assert s.hand(0) in (["KS"], ["5S"])
    assert s.draw_pile_size() == 1
    assert s.to_position().discards == ((), ())


def test_c29_shuffle_depends_on_the_seed():
    """C-29: the new draw pile is a shuffle (different seeds give different orders)."""
    discards = ["AS AH AD AC 2S 2H 2D 2C", "3S 3H 3D 3C 4S 4H 4D 4C"]
    orders = set()
    for seed in range(6):
        s = make(rules_for(), hands=["5H", ""], draw=[], discards=discards, seed=seed)
        s.apply("5H@e5")
        orders.add(tuple(s.core.draw_pile()))
    assert len(orders) > 1


def test_c29_reshuffle_gathers_pile_by_pile_so_a_position_replays_alike():
    """C-29/RULES-NOTES: the piles are gathered seat 0's first, each bottom first, whatever the
    order the cards were played in; so a game and its position file, given the same bit
    generator, reshuffle into the same draw pile."""
    s = make(rules_for(), hands=["5H 4H 9C", "KS QS TC"], draw="2S 2H 2D 2C")
    for move in ("5H@e5", "KS@b4", "4H@f5", "QS@b5"):  # discards interleave seat 0 and seat 1
        s.apply(move)
    assert s.draw_pile_size() == 0
    played = State(s.rules, s.seats, s.core.clone(np.random.PCG64(5)))
    loaded = State.from_position(s.to_position(), seed=np.random.PCG64(5))
    played.apply("9C@a5")
    loaded.apply("9C@a5")
    assert played.to_position() == loaded.to_position()
    assert played.core.draw_pile() == loaded.core.draw_pile()


def test_c29_card_conservation_in_random_games():
    """C-29 invariant: hands + discards + draw pile = 104 at every step, reshuffles included."""
    deck = Counter(make_deck().cards())
    reshuffles = 0
    for players, teams, seed in ((2, None, 1), (3, None, 2), (4, None, 3), (12, 3, 4)):
        s = State.new(parse_rules("classic", players=players, teams=teams), seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(3000):
            if s.is_terminal():
                break
            actions = s.legal_actions()
            s.apply(int(actions[rng.integers(len(actions))]))
            assert card_census(s) == deck
        assert s.is_terminal()
        reshuffles += not s.core.draw_known
    assert reshuffles >= 1  # the 3- and 12-player games run through the deck


def test_c29_draw_game_on_exhaustion():
    """C-29 with deck_exhaustion=draw_game: the first draw from an empty pile ends the game
    as a draw, counters not advanced (P-14)."""
    s = make(
        rules_for(deck_exhaustion="draw_game"), hands=["5H", ""], draw=[], discards=["KS", "QS"], turn=40
    )
    s.apply("5H@e5")
    assert s.outcome().termination is Termination.DECK_EXHAUSTED and s.outcome().winner is None
    assert s.turn == 40 and s.returns() == [0.0, 0.0]
    assert s.to_position().discards[0] == ("KS", "5H")


def test_c29_draw_game_not_before_a_draw_is_needed():
    """C-29: an empty draw pile alone does not end the game; a forced pass draws nothing."""
    s = make(rules_for(deck_exhaustion="draw_game"), draw=[])
    s.apply("pass")
    assert not s.is_terminal()


# ---------------------------------------------------------------------------
# 1.13 Passing and the end (C-30, C-31)
# ---------------------------------------------------------------------------


def test_c30_forced_pass_plays_and_draws_nothing():
    """C-30: no card played, none drawn; turn and stall counters advance."""
    s = make(
        rules_for(), chips={"b": "e5 i7"}, hands=["5H JS", ""], exchange_used=True, draw="KS", turn=3, stall=1
    )
    assert moves(s) == ["pass"]
    s.apply("pass")
    assert s.hand(0) == ["JS", "5H"] and s.draw_pile_size() == 1
    assert s.to_position().discards == ((), ())
    assert (s.turn, s.stall, s.current_player) == (4, 2, 1)


def test_c30_forced_pass_with_an_empty_hand():
    """C-30: an empty hand passes."""
    s = make(rules_for(), hands=["", "5H"])
    assert moves(s) == ["pass"]


def test_c30_exchange_then_forced_pass():
    """C-30: exchange a dead card, draw another dead one, then pass in the same turn."""
    s = make(rules_for(), chips={"b": "e1 d1", "g": "d9 e9"}, hands=["5S", ""], draw="4S KS")
    assert moves(s) == ["~5S", "pass"]
    s.apply("~5S")
    assert moves(s) == ["pass"]
    s.apply("pass")
    assert s.hand(0) == ["4S"] and s.current_player == 1 and s.stall == 1
    assert s.to_position().discards[0] == ("5S",)


def test_c31_stall_limit():
    """C-31.3: stall_limit consecutive turns without a chip placed or removed: draw."""
    s = make(rules_for(stall_limit=5), stall=4, turn=50)
    s.apply("pass")
    assert s.outcome().termination is Termination.STALL and s.outcome().winner is None
    assert (s.turn, s.stall) == (51, 5)


def test_c31_stall_counter_resets_on_a_removal():
    """C-31.3: a removal changes the board and resets the stall counter."""
    s = make(rules_for(stall_limit=5), chips={"g": "e5"}, hands=["JS", ""], stall=4)
    s.apply("JSxe5")
    assert s.stall == 0 and not s.is_terminal()


def test_c31_turn_cap():
    """C-31.4: max_turns turns played: draw."""
    s = make(rules_for(max_turns=10), hands=["5H", ""], turn=9)
    s.apply("5H@e5")
    assert s.outcome().termination is Termination.TURN_CAP and s.turn == 10


def test_c31_limits_off_with_zero():
    """C-31: stall_limit=0 and max_turns=0 turn the limits off."""
    s = make(rules_for(stall_limit=0, max_turns=0), stall=100000, turn=100000)
    s.apply("pass")
    assert not s.is_terminal()


def test_c31_frozen_board():
    """C-31.2: no empty non-corner cell and no unlocked chip after a turn: draw."""
    free = " ".join(cell_name(c) for c in range(100) if c not in CORNERS)
    s = make(rules_for(**LONG_GAME), chips={"G": free}, hands=["JS 5H", ""])
    s.apply("pass")
    assert s.outcome().termination is Termination.FROZEN and s.outcome().result == "draw"


def test_c31_frozen_board_after_the_last_placement_locks_it():
    """C-31.2: the last empty cell is taken and its sequence locks the chip: frozen."""
    rules = rules_for(sequences_to_win=20, stall_limit=0, max_turns=0)
    others = " ".join(cell_name(c) for c in range(100) if c not in CORNERS and cell_name(c) != "e5")
    s = make(rules, chips={"B": others}, hands=["5H", ""])
    s.apply("5H@e5")
    assert 44 in s.locked_cells()
    assert s.outcome().termination is Termination.FROZEN


def test_c31_not_frozen_with_an_unlocked_chip():
    """C-31.2: a full board with one unlocked chip is not frozen (a one-eyed jack could act)."""
    free = [cell_name(c) for c in range(100) if c not in CORNERS]
    s = make(rules_for(**LONG_GAME), chips={"G": " ".join(free[1:]), "g": free[0]})
    s.apply("pass")
    assert not s.is_terminal()


def test_c31_frozen_checked_before_stall():
    """C-31: when both apply after one turn, the board is reported frozen."""
    free = " ".join(cell_name(c) for c in range(100) if c not in CORNERS)
    s = make(rules_for(stall_limit=3, sequences_to_win=9), chips={"G": free}, stall=2)
    s.apply("pass")
    assert s.outcome().termination is Termination.FROZEN


def test_c31_random_games_always_terminate():
    """C-31: every game ends (win or one of the draws)."""
    for seed in range(5):
        s = State.new(parse_rules("classic", players=3), seed=seed)
        n = s.core.playout()
        assert s.is_terminal() and n > 0
        assert s.outcome().termination in set(Termination) - {Termination.RECORDED}


# ---------------------------------------------------------------------------
# 1.14 Information (observation and resampling)
# ---------------------------------------------------------------------------


def test_information_observation_hides_other_hands_and_the_draw_pile():
    """§1.14: a seat sees its own hand only (not a team-mate's), all discards, sizes."""
    s = State.new(parse_rules("classic", players=4), seed=21)
    s.apply(int(s.legal_actions()[0]))
    assert s.current_player == 1
    seen = s.observation(2)
    obs = seen.to_position()
    assert seen.legal_moves() == []  # the mover's hand is unknown to seat 2 (P-13)
    assert obs.hands[2].unknown == 0 and list(obs.hands[2].known) == s.hand(2)
    for seat in (0, 1, 3):  # seat 0 is seat 2's team-mate
        assert obs.hands[seat].known == () and obs.hands[seat].unknown == len(s.hand(seat))
    assert obs.draw_cards is None and obs.draw_count == s.draw_pile_size()
    assert obs.discards == s.to_position().discards and obs.board == s.to_position().board
    assert obs.to_move == s.current_player


def test_information_resample_keeps_what_the_player_saw():
    """§1.14: resample keeps own hand, discards, board, hand sizes and counts; redeals the rest
    from the unseen cards, consistently (104 cards, nothing seen twice)."""
    s = State.new(parse_rules("classic", players=3), seed=8)
    rng = np.random.default_rng(0)
    for _ in range(12):
        acts = s.legal_actions()
        s.apply(int(acts[rng.integers(len(acts))]))
    seen = s.observation(1).to_position()
    worlds = [s.resample(1, np.random.default_rng(k)) for k in range(5)]
    for w in worlds:
        assert w.hand(1) == s.hand(1)
        assert w.core.hand_sizes() == s.core.hand_sizes()
        assert w.draw_pile_size() == s.draw_pile_size()
        assert w.to_position().discards == s.to_position().discards
        assert w.to_position().board == s.to_position().board
        assert (w.turn, w.stall, w.current_player) == (s.turn, s.stall, s.current_player)
        assert w.observation(1).to_position() == seen
        assert card_census(w) == Counter(make_deck().cards())
    assert len({tuple(w.hand(0)) for w in worlds}) > 1


def test_information_resample_fills_unknown_cards_of_a_position():
    """§1.14: a position seen by seat 0 (other hand and draw unknown) resamples to a full world."""
    from seqsolve.games.sequence.notation import read_position

    pos = read_position("tests/data/example1.sqn")
    s = State.from_position(pos)
    assert s.hand(1) == ["?"] * 7
    w = s.resample(0, 3)
    assert "?" not in w.hand(1) and w.hand(0) == s.hand(0)
    assert card_census(w) == Counter(make_deck().cards())
    assert w.legal_moves() == s.legal_moves()
