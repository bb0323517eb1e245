"""Variant options and presets (RULES.md §2), the draft variant (§2.3, D-1 … D-5) and
Sequence Numbers (§3, N-1 … N-10), on the compiled engine.

Each §2.1 option is checked for what it changes in play on a small hand-built
position; each preset for the option values it resolves to; each player count
for its seating (C-7), hand size (C-9) and sequences to win (C-10).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from state_helpers import (
    LONG_GAME,
    board_token,
    card_census,
    drop,
    make,
    moves,
    rules_for,
    seq_names,
)

from seqsolve.games.sequence.actions import IllegalMoveError
from seqsolve.games.sequence.board import cell_name, get_layout
from seqsolve.games.sequence.cards import CardKind, make_deck
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.games.sequence.rules import DEFAULTS, OPTIONS, UNLIMITED, RulesError, parse_rules
from seqsolve.games.sequence.state import State, Termination, default_seats

# ---------------------------------------------------------------------------
# §2.2 presets
# ---------------------------------------------------------------------------


def test_preset_classic_is_all_defaults():
    """§2.2 classic: every option at its §2.1 default."""
    r = parse_rules("classic", players=2)
    assert (r.max_players, r.hand_size, r.sequences_to_win, r.overlap_max_shared) == (12, 7, 2, 1)
    assert r.overlap_reuse_limit == UNLIMITED and r.corner_counts_as_shared
    assert r.dead_card_exchanges_per_turn == 1 and r.deck_exhaustion == "reshuffle"
    assert (r.jack_identity, r.first_seat, r.allow_voluntary_pass) == ("eyes", 0, False)
    assert (r.stall_limit, r.max_turns, r.board, r.deck) == (300, 3000, "jax", "standard-104")
    assert (r.draw_mode, r.draft_size, r.heart_rule) == ("blind", 5, "off")
    assert str(r.variant) == "classic"


def test_preset_seed000():
    """§2.2 seed000: 3 sequences, reuse limit 1, seed000 hand table, at most 6 players."""
    r = parse_rules("seed000", players=4)
    assert (r.sequences_to_win, r.overlap_reuse_limit, r.hand_size, r.max_players) == (3, 1, 6, 6)
    assert parse_rules("seed000", players=2).hand_size == 7
    assert parse_rules("seed000", players=3).hand_size == 6
    assert parse_rules("seed000", players=6, teams=3).hand_size == 5
    assert parse_rules("seed000", players=6, teams=2).hand_size == 6  # literal "two teams -> 6"
    assert parse_rules("seed000", players=3).sequences_to_win == 3
    with pytest.raises(RulesError, match="more than"):
        parse_rules("seed000", players=8)


def test_preset_seed000_plays_example_3():
    """§2.2 seed000 / §5.5 example 3: a third sequence is needed, and reuse is limited."""
    from seqsolve.games.sequence.notation import read_position

    s = State.from_position(read_position("tests/data/example3.sqn"))
    assert s.rules.sequences_to_win == 3 and s.sequence_count(0) == 2 and not s.is_terminal()


def test_preset_seed002_literal():
    """§2.2 seed002-literal: classic with overlap_max_shared=4: a 6-run holds two sequences."""
    r = parse_rules("seed002-literal", players=2)
    assert r.overlap_max_shared == 4 and r.hand_size == 7 and r.sequences_to_win == 2
    s = drop(make(r.replace(**LONG_GAME)), "a5 b5 c5 d5 e5 f5", seat=0)
    assert seq_names(s) == ["b:a5-e5", "b:b5-f5"]
    # under plain classic rules the same run is one sequence
    c = drop(make(rules_for(**LONG_GAME)), "a5 b5 c5 d5 e5 f5", seat=0)
    assert seq_names(c) == ["b:a5-e5"]


def test_preset_seed002_literal_six_run_wins_at_once():
    """§2.2 seed002-literal/C-28: closing the middle of a 6-run completes two windows: a win."""
    r = parse_rules("seed002-literal", players=2)
    s = make(r, chips={"b": "a5 b5 d5 e5 f5"}, hands=["7C", ""])
    s.apply("7C@c5")
    assert seq_names(s) == ["b:a5-e5", "b:b5-f5"] and s.outcome().winner == "b"


def test_preset_draft():
    """§2.2/§2.3 draft: draft drawing of 5, hands of 6, 2 to win, heart rule, draft_end, 2 sides."""
    r = parse_rules("draft", players=2)
    assert (r.draw_mode, r.draft_size, r.hand_size, r.sequences_to_win) == ("draft", 5, 6, 2)
    assert (r.heart_rule, r.deck_exhaustion, r.teams) == ("on", "draft_end", 2)
    assert parse_rules("draft", players=4).hand_size == 6


def test_preset_numbers():
    """§2.2 numbers: stand-in board and deck, Numbers tables, at most 6 players."""
    r = parse_rules("numbers", players=2)
    assert (r.board, r.deck, r.hand_size, r.sequences_to_win, r.max_players) == (
        "numbers-standin-1",
        "numbers-standin-1",
        5,
        1,
        6,
    )
    assert r.overlap_max_shared == 1


def test_preset_numbers_seed001_literal():
    """§2.2 numbers-seed001-literal: numbers with overlap_max_shared=4 (N-9)."""
    r = parse_rules("numbers-seed001-literal", players=4)
    assert r.overlap_max_shared == 4 and r.board == "numbers-standin-1" and r.hand_size == 4
    assert r.sequences_to_win == 2


def test_preset_overrides_and_shortest_variant():
    """§2.2/P-1: a preset may be followed by overrides; the shortest spelling is recovered."""
    r = parse_rules("classic[sequences_to_win=3,overlap_reuse_limit=1]", players=4)
    assert r.sequences_to_win == 3 and r.overlap_reuse_limit == 1
    assert str(r.variant) == "classic[sequences_to_win=3,overlap_reuse_limit=1]"
    assert str(parse_rules("seed000[sequences_to_win=3]", players=4).variant) == "seed000"
    with pytest.raises(RulesError, match="unknown preset"):
        parse_rules("classik", players=2)
    with pytest.raises(RulesError, match="Stacks"):
        parse_rules("stacks", players=2)
    with pytest.raises(RulesError, match="unknown option"):
        parse_rules("classic[colour=red]", players=2)


def test_option_table_lists_every_option_in_order():
    """§2.1/§2.3/P-15: the option names, in table order, with their defaults."""
    assert list(OPTIONS) == [
        "players",
        "teams",
        "max_players",
        "hand_size",
        "sequences_to_win",
        "overlap_max_shared",
        "overlap_reuse_limit",
        "corner_counts_as_shared",
        "dead_card_exchanges_per_turn",
        "deck_exhaustion",
        "jack_identity",
        "first_seat",
        "allow_voluntary_pass",
        "stall_limit",
        "max_turns",
        "board",
        "deck",
        "draw_mode",
        "draft_size",
        "heart_rule",
        "bonus_cards",  # analysis only (RULES-NOTES), after the tables of RULES.md
        "hand_bonus",  # compensation rules, docs/rules.md §2.5 (K-1, K-2)
        "first_turn_jacks",
        "first_turn_short",
        "head_start",
        "head_start_edge",
    ]
    assert set(DEFAULTS) == set(OPTIONS) - {"players"}


# ---------------------------------------------------------------------------
# §2.1 options one by one
# ---------------------------------------------------------------------------


def test_option_max_players():
    """§2.1 max_players: validation only."""
    with pytest.raises(RulesError, match="more than"):
        parse_rules("classic[max_players=4]", players=6, teams=2)
    assert parse_rules("classic[max_players=4]", players=4).players == 4


def test_option_hand_size_number_and_tables():
    """§2.1 hand_size: a number, or the tables official / seed000 / numbers."""
    assert State.new(parse_rules("classic[hand_size=4]", players=2), seed=1).core.hand_sizes() == [4, 4]
    assert parse_rules("classic[hand_size=official]", players=10).hand_size == 3
    assert parse_rules("classic[hand_size=seed000]", players=6, teams=2).hand_size == 6
    assert parse_rules("classic[hand_size=numbers]", players=4).hand_size == 4
    with pytest.raises(RulesError, match="no entry"):
        parse_rules("classic[hand_size=seed000]", players=8)
    with pytest.raises(RulesError):
        parse_rules("classic[hand_size=huge]", players=2)
    with pytest.raises(RulesError, match=r"hand_size must be 1\.\.40, not 60"):
        parse_rules("classic[hand_size=60]", players=2)
    with pytest.raises(RulesError, match="more than"):  # 12 hands of 9 need 108 cards
        parse_rules("classic[hand_size=9]", players=12, teams=2)


def test_option_sequences_to_win_number_and_tables():
    """§2.1 sequences_to_win: a number, by_sides or numbers."""
    assert parse_rules("classic[sequences_to_win=3]", players=2).sequences_to_win == 3
    assert parse_rules("classic[sequences_to_win=numbers]", players=6, teams=3).sequences_to_win == 2
    assert parse_rules("numbers[sequences_to_win=by_sides]", players=6, teams=3).sequences_to_win == 1
    with pytest.raises(RulesError):
        parse_rules("classic[sequences_to_win=0]", players=2)


def test_option_sequences_to_win_changes_when_a_game_ends():
    """§2.1 sequences_to_win=1 in a 2-side game: the first sequence wins."""
    s = make(rules_for(sequences_to_win=1), chips={"b": "a5 b5 c5 d5"}, hands=["5H", ""])
    s.apply("5H@e5")
    assert s.outcome().winner == "b"


@pytest.mark.parametrize(
    "shared,expected",
    [
        (0, ["b:a5-e5"]),
        (1, ["b:a5-e5", "b:e5-i5"]),
        (4, ["b:a5-e5", "b:b5-f5", "b:c5-g5", "b:d5-h5", "b:e5-i5"]),
    ],
)
def test_option_overlap_max_shared_on_a_9_run(shared, expected):
    """§2.1 overlap_max_shared 0/1/4 (C-25): how many windows of a 9-run built left to right count."""
    s = drop(make(rules_for(overlap_max_shared=shared, **LONG_GAME)), "a5 b5 c5 d5 e5 f5 g5 h5 i5", seat=0)
    assert seq_names(s) == expected


def test_option_overlap_max_shared_range():
    """§2.1 overlap_max_shared is 0-4."""
    with pytest.raises(RulesError):
        parse_rules("classic[overlap_max_shared=5]", players=2)


def test_option_overlap_reuse_limit_two():
    """§2.1 overlap_reuse_limit=2 (C-25.3): a sequence may be crossed by two later ones, not three."""
    found = {}
    for limit in (2, UNLIMITED):
        rules = rules_for(overlap_reuse_limit=limit, **LONG_GAME)
        s = make(rules, chips={"B": "a5 b5 c5 d5 e5"}, sequences=["b a5-e5"])
        s = drop(s, "b1 b2 b3 b4", seat=0)  # b1-b5 crosses a5-e5 at b5
        s = drop(s, "c1 c2 c3 c4", seat=0)  # c1-c5: the second crossing
        s = drop(s, "d1 d2 d3 d4", seat=0)  # d1-d5 (and the diagonal a1-e5): a third crossing
        found[limit] = seq_names(s)
    assert found[2] == ["b:a5-e5", "b:b1-b5", "b:c1-c5"]
    assert found[UNLIMITED][:3] == found[2] and "b:d1-d5" in found[UNLIMITED]
    with pytest.raises(RulesError):
        parse_rules("classic[overlap_reuse_limit=0]", players=2)
    assert parse_rules("classic[overlap_reuse_limit=unlimited]", players=2).overlap_reuse_limit == UNLIMITED


def test_option_corner_counts_as_shared():
    """§2.1 corner_counts_as_shared=false (C-25): a shared corner is not a shared cell."""
    for flag, count in ((True, 1), (False, 2)):
        rules = rules_for(overlap_max_shared=0, corner_counts_as_shared=flag, **LONG_GAME)
        s = make(rules, chips={"B": "b1 c1 d1 e1", "b": "a2 a3 a4"}, sequences=["b a1-e1"], hands=["9C", ""])
        s.apply("9C@a5")
        assert len(s.sequences()) == count


def test_option_dead_card_exchanges_zero():
    """§2.1 dead_card_exchanges_per_turn=0: dead cards are never exchanged."""
    s = make(rules_for(dead_card_exchanges_per_turn=0), chips={"b": "e1", "g": "d9"}, hands=["5S 9C", ""])
    assert moves(s) == ["9C@a5", "9C@c7"]
    with pytest.raises(IllegalMoveError, match="C-14"):
        s.apply("~5S")


def test_option_dead_card_exchanges_unlimited():
    """§2.1 dead_card_exchanges_per_turn=unlimited: exchange as long as dead cards come."""
    rules = rules_for(dead_card_exchanges_per_turn=UNLIMITED)
    s = make(rules, chips={"b": "e1 d1 c1 b1", "g": "d9 e9 f9 g9"}, hands=["5S", ""], draw="4S 3S 2S KS")
    for card in ("5S", "4S", "3S", "2S"):
        assert moves(s) == [f"~{card}", "pass"]
        s.apply(f"~{card}")
    assert s.hand(0) == ["KS"] and s.to_position().discards[0] == ("5S", "4S", "3S", "2S")
    assert not s.to_position().exchange_used  # P-16: the count is not recorded


def test_option_deck_exhaustion_reshuffle_is_the_default():
    """§2.1 deck_exhaustion=reshuffle (C-29): play goes on with the discards."""
    s = make(rules_for(), hands=["5H", ""], draw=[], discards=["KS", "QS"])
    s.apply("5H@e5")
    assert not s.is_terminal() and len(s.hand(0)) == 1 and s.draw_pile_size() == 2


def test_option_deck_exhaustion_draw_game_on_an_exchange():
    """§2.1 deck_exhaustion=draw_game (C-29): an exchange needing a draw ends the game as a draw."""
    s = make(
        rules_for(deck_exhaustion="draw_game"), chips={"b": "e1", "g": "d9"}, hands=["5S 9C", ""], draw=[]
    )
    s.apply("~5S")
    assert s.outcome().termination is Termination.DECK_EXHAUSTED and s.outcome().result == "draw"


def test_option_deck_exhaustion_draft_end_with_blind_drawing():
    """§2.1 deck_exhaustion=draft_end without a draft (RULES-NOTES): the empty draw pile ends the
    game; more sequences wins."""
    s = make(
        rules_for(deck_exhaustion="draft_end"),
        chips={"G": "a5 b5 c5 d5 e5"},
        sequences=["g a5-e5"],
        hands=["4H", ""],
        draw=[],
        discards=["KS", ""],
    )
    s.apply("4H@f5")
    assert s.outcome().termination is Termination.DRAFT_END and s.outcome().winner == "g"
    assert s.to_position().discards[0] == ("KS", "4H")  # never reshuffled


def test_option_jack_identity_colour():
    """§2.1 jack_identity=colour (C-2): red jacks (JD, JH) wild, black (JS, JC) remove."""
    deck = make_deck(jack_identity="colour")
    assert deck.kind("JH") == CardKind.WILD and deck.kind("JC") == CardKind.REMOVE
    s = make(rules_for(jack_identity="colour"), chips={"g": "e5"}, hands=["JH JC", ""])
    listed = moves(s)
    assert "JCxe5" in listed and "JH@f5" in listed
    assert not any(m.startswith(("JC@", "JHx")) for m in listed)
    with pytest.raises(IllegalMoveError):
        s.clone().apply("JC@f5")
    s.apply("JH@f5")
    assert board_token(s, "f5") == "b"


def test_option_first_seat():
    """§2.1 first_seat (C-8): the given seat moves first; order then continues clockwise."""
    rules = parse_rules("classic[first_seat=2]", players=3)
    s = State.new(rules, seed=2)
    assert s.current_player == 2
    s.apply(int(s.legal_actions()[0]))
    assert s.current_player == 0
    assert default_seats(rules) == "bgr"  # seating (colours) does not change
    with pytest.raises(RulesError):
        parse_rules("classic[first_seat=3]", players=3)


def test_option_allow_voluntary_pass():
    """§2.1 allow_voluntary_pass (C-19, P-18): pass listed even with plays."""
    s = make(rules_for(allow_voluntary_pass=True), hands=["5H", ""])
    assert moves(s)[-1] == "pass"
    s.apply("pass")
    assert s.stall == 1


def test_option_stall_limit_and_max_turns():
    """§2.1 stall_limit / max_turns (C-31): draws, 0 = off."""
    s = make(rules_for(stall_limit=1))
    s.apply("pass")
    assert s.outcome().termination is Termination.STALL
    s = make(rules_for(max_turns=1), hands=["5H", ""])
    s.apply("5H@e5")
    assert s.outcome().termination is Termination.TURN_CAP
    s = make(rules_for(stall_limit=0, max_turns=0), turn=10**6, stall=10**6)
    s.apply("pass")
    assert not s.is_terminal()


def test_option_board_numbers_standin_and_layout_file(tmp_path):
    """§2.1 board: jax (default), numbers-standin-1, or a layout file (here the jax board
    mirrored left to right)."""
    jax = get_layout("jax")
    rows = [jax.labels[r * 10 : (r + 1) * 10][::-1] for r in range(10)]
    path = tmp_path / "mirror.txt"
    path.write_text(
        "# jax, mirrored\n" + "\n".join(" ".join("XX" if t == "*" else t for t in row) for row in rows)
    )
    rules = rules_for(board=str(path))
    s = make(rules, hands=["5H", ""])
    assert moves(s) == ["5H@f5", "5H@b7"]  # e5 -> f5, i7 -> b7
    with pytest.raises(RulesError):
        rules_for(board=str(tmp_path / "missing.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(" ".join("5H" for _ in range(10)) for _ in range(10)))
    with pytest.raises(RulesError):
        rules_for(board=str(bad))


def test_option_deck():
    """§2.1 deck: standard-104 or numbers-standin-1 (which needs the numbers board)."""
    assert rules_for().deck_cards.size == 104
    assert rules_for("numbers").deck_cards.size == 100
    with pytest.raises(RulesError):
        rules_for(deck="numbers-standin-1")  # the jax board does not show N01


def test_option_draw_mode_and_draft_size():
    """§2.3 draw_mode=draft, draft_size=3: three face-up cards after dealing."""
    rules = parse_rules("classic[draw_mode=draft,draft_size=3]", players=2)
    s = State.new(rules, seed=6)
    assert len(s.to_position().draft) == 3
    assert s.draw_pile_size() == 104 - 14 - 3
    with pytest.raises(RulesError):
        parse_rules("classic[draw_mode=draft,draft_size=0]", players=2)
    with pytest.raises(RulesError, match="D-2"):
        parse_rules("classic[draw_mode=draft]", players=3)


def test_option_heart_rule_off_by_default():
    """§2.3 heart_rule=off: holding the four centre cells is worth nothing in classic."""
    s = make(rules_for(), chips={"b": "e5 f5 e6"}, hands=["3H", ""])
    s.apply("3H@f6")
    assert not s.is_terminal() and s.sequence_count(0) == 0


# ---------------------------------------------------------------------------
# Player counts (C-6, C-7, C-9, C-10) for every seating
# ---------------------------------------------------------------------------

SEATINGS = [
    (2, 2, "bg", 7, 2),
    (3, 3, "bgr", 6, 1),
    (4, 2, "bgbg", 6, 2),
    (6, 2, "bgbgbg", 5, 2),
    (6, 3, "bgrbgr", 5, 1),
    (8, 2, "bg" * 4, 4, 2),
    (9, 3, "bgr" * 3, 4, 1),
    (10, 2, "bg" * 5, 3, 2),
    (12, 2, "bg" * 6, 3, 2),
    (12, 3, "bgr" * 4, 3, 1),
]


@pytest.mark.parametrize("players,teams,seats,hand,to_win", SEATINGS)
def test_c7_c9_c10_every_player_count(players, teams, seats, hand, to_win):
    """C-6/C-7/C-9/C-10: seating, hand size and sequences to win for each allowed seating;
    the last seat's chip has its side's colour; a random game ends and conserves the deck."""
    rules = parse_rules("classic", players=players, teams=teams)
    assert (rules.teams, default_seats(rules), rules.hand_size, rules.sequences_to_win) == (
        teams,
        seats,
        hand,
        to_win,
    )
    s = State.new(rules, seed=players * 10 + teams)
    assert s.seats == seats and s.core.hand_sizes() == [hand] * players
    assert s.draw_pile_size() == 104 - hand * players
    last = players - 1
    hands = [""] * players
    hands[last] = "5H"
    t = make(rules, hands=hands, to_move=last)
    t.apply("5H@e5")
    assert board_token(t, "e5") == seats[last] and t.current_player == 0
    rng = np.random.default_rng(players)
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply(int(acts[rng.integers(len(acts))]))
    assert card_census(s) == Counter(make_deck().cards())
    if s.outcome().termination is Termination.WIN:
        assert s.sequence_count(seats.index(s.outcome().winner)) >= to_win


@pytest.mark.parametrize("players,teams", [(2, 2), (4, 2), (6, 3), (9, 3), (12, 2)])
def test_c10_sides_need_their_count_to_win(players, teams):
    """C-10: a side wins on reaching sequences_to_win, not before, whatever the seat that plays."""
    rules = parse_rules("classic", players=players, teams=teams)
    seat = teams if teams < players else 0  # a blue seat: seat 0's team-mate when there are teams
    hands = [""] * players
    hands[seat] = "5H"
    s = make(rules, chips={"b": "a5 b5 c5 d5"}, hands=hands, to_move=seat)
    s.apply("5H@e5")
    if rules.sequences_to_win == 1:
        assert s.outcome().winner == "b"
    else:
        assert not s.is_terminal() and s.sequence_count(0) == 1


# ---------------------------------------------------------------------------
# §2.3 the draft variant (D-1 … D-5)
# ---------------------------------------------------------------------------


def test_d1_draft_dealt_face_up_after_the_hands():
    """D-1: after dealing 6 each, draft_size cards are turned up; the rest is the draw pile."""
    s = State.new(parse_rules("draft", players=2), seed=8)
    pos = s.to_position()
    assert [len(h) for h in pos.hands] == [6, 6] and len(pos.draft) == 5
    assert pos.draw_count == 104 - 12 - 5
    assert card_census(s) == Counter(make_deck().cards())


def test_d1_play_takes_the_chosen_draft_card_and_refills_from_the_draw_pile():
    """D-1: ``5H@e5+2C`` takes 2C from the draft, which is refilled with the top of the draw pile."""
    s = make(rules_for("draft"), hands=["5H 4H", "9C"], draft="QD 2C 2C", draw="KS QS")
    s.apply("5H@e5+2C")
    assert s.hand(0) == ["4H", "2C"]
    assert s.to_position().draft == ("KS", "QD", "2C") and s.draw_pile_size() == 1


def test_d1_removal_and_exchange_take_a_draft_card_too():
    """D-1: ``JSxe5+2C`` and ``~5S+9H``: the draw of C-17 and of C-14 is a draft pick."""
    s = make(
        rules_for("draft"), chips={"b": "e1", "g": "d9 e5"}, hands=["5S JS", ""], draft="9H 2C", draw="KS QS"
    )
    s.apply("~5S+9H")
    assert s.hand(0) == ["JS", "9H"] and s.to_position().draft == ("KS", "2C")
    s.apply("JSxe5+2C")
    assert s.hand(0) == ["9H", "2C"] and s.to_position().draft == ("QS", "KS")


def test_d1_pick_is_required_and_must_be_in_the_draft():
    """D-1: a play without a pick, or naming a card not in the draft, is refused."""
    s = make(rules_for("draft"), hands=["5H", ""], draft="QD", draw="KS")
    with pytest.raises(IllegalMoveError, match="name the draft card"):
        s.clone().apply("5H@e5")
    with pytest.raises(IllegalMoveError, match="not in the draft"):
        s.clone().apply("5H@e5+KS")
    s.apply("5H@e5+QD")
    assert s.hand(0) == ["QD"]


def test_d1_forced_pass_takes_nothing():
    """D-1/C-30: a forced pass draws nothing, so takes no draft card."""
    s = make(rules_for("draft"), hands=["", ""], draft="QD", draw="KS")
    assert moves(s) == ["pass"]
    s.apply("pass")
    assert s.hand(0) == [] and s.to_position().draft == ("QD",)


def test_d2_hand_size_six_two_sides_only():
    """D-2: hands of 6 for 2 and 4 players, 2 sequences to win, only two sides."""
    for players in (2, 4):
        r = parse_rules("draft", players=players)
        assert r.hand_size == 6 and r.sequences_to_win == 2 and r.teams == 2
        assert default_seats(r) == "bg" * (players // 2)
    for players, teams in ((3, None), (6, 3)):
        with pytest.raises(RulesError):
            parse_rules("draft", players=players, teams=teams)


def test_d3_heart_rule_scores_two_sequences_and_wins():
    """D-3: blue completing e5 f5 e6 f6 scores two sequences at once: a win with 2 to win."""
    s = make(rules_for("draft"), chips={"b": "e5 f5 e6"}, hands=["3H", ""], draft="QD", draw="KS", turn=9)
    s.apply("3H@f6+QD")
    assert s.sequence_count(0) == 2 and s.sequences() == []
    assert s.outcome().winner == "b" and s.outcome().termination is Termination.WIN and s.turn == 9
    assert s.locked_cells() == []  # the heart never locks (RULES-NOTES)


def test_d3_heart_needs_own_chips_only():
    """D-3: a green chip among the four centre cells spoils the heart for blue."""
    s = make(rules_for("draft"), chips={"b": "e5 f5", "g": "e6"}, hands=["3H", ""], draft="QD", draw="KS")
    s.apply("3H@f6+QD")
    assert s.sequence_count(0) == 0 and not s.is_terminal()


@pytest.mark.parametrize(
    "to_win, chips, sequence, hand, draft, draw, move, count, termination",
    [
        # D-3: the heart completed beside a real sequence reaches sequences_to_win=3
        (
            3,
            {"B": "b1 c1 d1 e1", "b": "e5 f5 e6"},
            "b a1-e1",
            "3H",
            "QD",
            "KS",
            "3H@f6+QD",
            3,
            Termination.WIN,
        ),
        # D-4/D-3: a heart already made outweighs green's one sequence when the draft runs out
        (
            5,
            {"b": "e5 f5 e6 f6", "G": "b10 c10 d10 e10"},
            "g a10-e10",
            "9C",
            "",
            [],
            "9C@a5",
            2,
            Termination.DRAFT_END,
        ),
    ],
    ids=["d3-higher-target", "d4-draft-end"],
)
def test_d3_d4_heart_counts_as_two_beside_real_sequences(
    to_win, chips, sequence, hand, draft, draw, move, count, termination
):
    """D-3, D-4: the heart's two sequences count together with real ones, both for the
    target and in the comparison when the draft runs out."""
    rules = rules_for("draft", sequences_to_win=to_win)
    s = make(rules, chips=chips, sequences=[sequence], hands=[hand, ""], draft=draft, draw=draw)
    s.apply(move)
    assert s.sequence_count(0) == count
    assert s.outcome().winner == "b" and s.outcome().termination is termination


def test_d4_draft_end_never_reshuffles_the_draft_shrinks():
    """D-4: with the draw pile empty the draft is not refilled and the discards are never
    reshuffled; while a card is left in the draft the game goes on."""
    s = make(
        rules_for("draft"),
        hands=["5H 4H", "9C 7C"],
        draft="QD 2C",
        draw=[],
        discards=["KS", "QS"],
    )
    s.apply("4H@f5+QD")
    assert s.to_position().draft == ("2C",) and s.draw_pile_size() == 0 and not s.is_terminal()
    assert s.to_position().discards == (("KS", "4H"), ("QS",))
    assert moves(s) == ["7C@a3+2C", "7C@c5+2C", "9C@a5+2C", "9C@c7+2C"]


def test_d4_play_taking_the_last_draft_card_ends_before_the_next_player():
    """D-4: a play that takes the last draft card (nothing refills it) ends the game at once:
    the next player does not act; the side with more sequences wins."""
    s = make(
        rules_for("draft"),
        chips={"G": "a5 b5 c5 d5 e5"},
        sequences=["g a5-e5"],
        hands=["5H 4H", "9C 7C"],
        draft="QD",
        draw=[],
        turn=20,
    )
    s.apply("4H@f5+QD")
    assert s.outcome().termination is Termination.DRAFT_END and s.outcome().winner == "g"
    assert s.to_position().draft == () and s.legal_actions() == [] and s.turn == 20


def test_d4_refilled_draft_goes_on():
    """D-4: taking the last draft card does not end the game when the draw pile refills it."""
    s = make(rules_for("draft"), hands=["4H", "9C"], draft="QD", draw=["KS"])
    s.apply("4H@f5+QD")
    assert not s.is_terminal() and s.to_position().draft == ("KS",)


def test_d4_exchange_taking_the_last_draft_card_ends_before_the_play():
    """D-4: an exchange whose replacement is the last draft card ends the game before the play
    that would follow it in the same turn, here a play that would have won (8D on h4)."""
    s = make(
        rules_for("draft"),
        chips={"B": "b1 c1 d1 e1", "b": "d4 e4 f4 g4", "G": "a5 b5 c5 d5 e5", "g": "c7"},
        sequences=["b a1-e1", "g a5-e5"],
        hands=["9C 2S", "7C"],
        draft="8D",
        draw=[],
    )
    s.apply("~9C+8D")  # 9C is dead: a5 and c7 are taken
    assert s.outcome().termination is Termination.DRAFT_END and s.outcome().winner is None
    assert s.legal_actions() == [] and s.to_position().hands[0].known == ("2S", "8D")


def test_d4_equal_counts_are_a_draw():
    """D-4: equal sequence counts when the draft runs out: a draw."""
    s = make(rules_for("draft"), hands=["5H", ""], draft="", draw=[])
    s.apply("5H@i7")
    assert s.outcome().termination is Termination.DRAFT_END and s.outcome().winner is None
    assert s.returns() == [0.0, 0.0]


def test_d5_draft_is_public_the_rest_hidden():
    """D-5: an observation shows the draft; other hands and the draw pile stay hidden."""
    s = State.new(parse_rules("draft", players=4), seed=12)
    full = s.to_position()
    for seat in range(4):
        seen = s.observation(seat).to_position()
        assert seen.draft == full.draft
        assert seen.draw_cards is None and seen.draw_count == full.draw_count
        assert all(h.known == () for k, h in enumerate(seen.hands) if k != seat)


def _play(state: State, prefix: str, suffix: str) -> None:
    """Play the first legal move of ``state`` that starts with ``prefix`` and ends with ``suffix``."""
    state.apply(next(m for m in moves(state) if m.startswith(prefix) and m.endswith(suffix)))


def test_d5_takes_are_public_until_played():
    """D-1, D-5: everyone sees which draft card a seat takes, so an observation keeps it
    as that seat's public hand until the seat plays that card; the rest of the hand
    stays hidden, and a position file records the takes (P-19), so a game read back
    from one keeps them."""
    s = make(rules_for("draft"), hands=["5H 4H 2C", "9D 2S"], draft="QD 2C KH 8S", draw="KS QS AS AD")
    assert s.public_hand(0) == [] and s.public_hand(1) == []
    s.apply("5H@e5+QD")
    assert s.public_hand(0) == ["QD"]
    seen = s.observation(1)
    assert seen.public_hand(0) == ["QD"] and seen.hand(0) == ["?", "?", "?"]
    _play(s, "9D@", "+2C")
    assert s.public_hand(1) == ["2C"] and s.observation(0).public_hand(1) == ["2C"]
    shown = SEQUENCE.render(s.observation(0), 0, None, False, [])  # what terminal play shows seat 0
    assert "seen taken 1:g 2C  (from the draft" in shown and "1:g QD" not in shown
    _play(s, "QD@", "+KH")  # the taken card played: it leaves the public hand
    assert s.public_hand(0) == ["KH"]
    _play(s, "2S@", "+8S")
    _play(s, "2C@", "+KS")  # seat 0's dealt 2C: seat 0 took no 2C, so its list keeps what it took
    assert sorted(s.public_hand(0)) == ["KH", "KS"] and sorted(s.public_hand(1)) == ["2C", "8S"]
    back = State.from_position(s.to_position())
    assert sorted(back.public_hand(0)) == ["KH", "KS"] and sorted(back.public_hand(1)) == ["2C", "8S"]


def test_d5_a_taken_card_leaves_the_public_hand_whichever_copy_is_played():
    """D-5: a seat holding a dealt 2C takes the other 2C and plays a 2C: its hand is the
    same whichever copy went, one 2C it may or may not hold, so none is public."""
    s = make(rules_for("draft"), hands=["2C 4H", "9D 2S"], draft="2C KH", draw="KS QS AS")
    s.apply("4H@f5+2C")
    assert s.public_hand(0) == ["2C"] and s.hand(0) == ["2C", "2C"]
    _play(s, "9D@", "+KH")
    _play(s, "2C@", "+KS")
    assert s.public_hand(0) == ["KS"] and sorted(s.hand(0)) == ["2C", "KS"]


def test_d5_the_blind_draw_has_no_public_hand():
    """D-5 holds for the draft only: in the blind draw a drawn card is seen by its holder alone."""
    s = State.new(parse_rules("classic", players=2), seed=3)
    for _ in range(12):
        s.apply(s.legal_actions()[0])
    assert s.public_hand(0) == [] and s.public_hand(1) == []


def test_d5_draft_recorded_in_positions():
    """D-5: SQN appends ``draft:`` after the stall field; resample keeps the draft."""
    from seqsolve.games.sequence.notation import parse_position, to_sqn

    s = State.new(parse_rules("draft", players=2), seed=13)
    line = to_sqn(s.observation(0).to_position())
    assert line.split()[-1].startswith("draft:") and len(line.split()) == 11
    pos = parse_position(line)
    assert sorted(pos.draft) == sorted(s.to_position().draft)
    world = State.from_position(pos).resample(0, 3)
    assert world.to_position().draft == s.to_position().draft
    assert world.hand(0) == s.hand(0)
    assert card_census(world) == Counter(make_deck().cards())


# ---------------------------------------------------------------------------
# §3 Sequence Numbers (N-1 … N-10)
# ---------------------------------------------------------------------------

NUMBERS_BOARD = """
 *  2  3  4  5  6  7  8  9  *
42 41 40 39 38 13 24 23 22 10
43  1 26 27 28 29 30 31 21 11
44 12 42 41 40 39 38 32 20 12
45 11 43 18 17 16 13 33 19  1
46 10 44 19 14 15 24 34 18 26
47  9 45 20 21 22 23 35 17 27
48  8 46 47 48 37 25 36 16 28
37  7  6  5  4  3  2 14 15 29
 * 25 36 35 34 33 32 31 30  *
"""


def test_n1_players_two_to_six():
    """N-1: 2, 3, 4 (2x2), 6 (2x3 or 3x2) players; more than 3 play in teams."""
    for players, teams in ((2, None), (3, None), (4, None), (6, 2), (6, 3)):
        assert parse_rules("numbers", players=players, teams=teams).players == players
    for players in (8, 9, 10, 12):
        with pytest.raises(RulesError):
            parse_rules("numbers", players=players, teams=2 if players != 9 else 3)
    assert parse_rules("numbers", players=4).teams == 2


def test_n2_chips_two_sides_and_a_third_only_for_a_third_side():
    """N-2: two chip colours for two sides, red only for a third; completed chips are locked."""
    assert default_seats(parse_rules("numbers", players=4)) == "bgbg"
    assert default_seats(parse_rules("numbers", players=6, teams=3)) == "bgrbgr"
    s = make(rules_for("numbers", players=3), chips={"r": "a5 b5 c5 d5"}, hands=["", "", "N17"], to_move=2)
    s.apply("N17@e5")
    assert seq_names(s) == ["r:a5-e5"] and 40 in s.locked_cells()


def test_n3_objective_by_players_not_sides():
    """N-3: 2-3 players need 1 sequence, 4-6 players 2 (6 players in 3 teams too)."""
    for players, teams, need in ((2, None, 1), (3, None, 1), (4, None, 2), (6, 2, 2), (6, 3, 2)):
        assert parse_rules("numbers", players=players, teams=teams).sequences_to_win == need
    s = make(rules_for("numbers", players=2), chips={"b": "a5 b5 c5 d5"}, hands=["N17", ""])
    s.apply("N17@e5")
    assert s.outcome().winner == "b"  # one sequence wins a 2-player Numbers game


def test_n4_hand_size():
    """N-4: 2-3 players 5 cards, 4-6 players 4."""
    for players, teams, hand in ((2, None, 5), (3, None, 5), (4, None, 4), (6, 2, 4), (6, 3, 4)):
        s = State.new(parse_rules("numbers", players=players, teams=teams), seed=players)
        assert s.core.hand_sizes() == [hand] * players


def test_n5_board_free_corners_and_two_of_each_number():
    """N-5/§3.1: the stand-in board, corners free, numbers 1-48 twice each, jax geometry."""
    layout = get_layout("numbers-standin-1")
    expected = ["*" if t == "*" else f"N{int(t):02d}" for t in NUMBERS_BOARD.split()]
    assert list(layout.labels) == expected
    assert [cell_name(c) for c, t in enumerate(layout.labels) if t == "*"] == ["a1", "j1", "a10", "j10"]
    assert Counter(t for t in layout.labels if t != "*") == Counter({f"N{n:02d}": 2 for n in range(1, 49)})


def test_n5_corners_used_as_in_classic():
    """N-5: a Numbers corner counts for every side (C-22)."""
    s = make(rules_for("numbers", players=2), chips={"g": "b1 c1 d1"}, hands=["", "N05"], to_move=1)
    s.apply("N05@e1")
    assert seq_names(s) == ["g:a1-e1"] and s.outcome().winner == "g"


def test_n6_deck_equation_cards_plus_and_minus():
    """N-6: 96 equation cards (two per answer 1-48), 2 Plus, 2 Minus; a card goes on its answer."""
    deck = make_deck("numbers-standin-1")
    assert deck.size == 100
    assert Counter(deck.cards()) == Counter({**{f"N{n:02d}": 2 for n in range(1, 49)}, "PL": 2, "MI": 2})
    s = make(rules_for("numbers"), hands=["N17", ""])
    assert moves(s) == ["N17@e5", "N17@i7"]
    s = State.new(parse_rules("numbers", players=2), seed=5)
    assert card_census(s) == Counter(deck.cards())


def test_n7_plus_is_wild_minus_removes():
    """N-7: Plus places on any open non-corner space; Minus removes an unlocked opposing chip
    and that is the whole play."""
    s = make(
        rules_for("numbers"),
        chips={"g": "e5", "G": "b10 c10 d10 e10"},
        sequences=["g a10-e10"],
        hands=["PL MI", ""],
    )
    listed = moves(s)
    assert sum(m.startswith("PL@") for m in listed) == 96 - 5
    assert [m for m in listed if m.startswith("MI")] == ["MIxe5"]
    with pytest.raises(IllegalMoveError, match="C-27"):
        s.clone().apply("MIxb10")
    s.apply("MIxe5")
    assert board_token(s, "e5") == "." and s.current_player == 1
    assert make_deck("numbers-standin-1").kind("PL") == CardKind.WILD


def test_n8_dead_cards_exchange_and_reshuffle():
    """N-8: dead card (both answers covered), one exchange per turn; reshuffle of all discards."""
    s = make(rules_for("numbers"), chips={"b": "e5", "g": "i7"}, hands=["N17 N01", ""], draw="N02 N03")
    assert moves(s)[-1] == "~N17"
    s.apply("~N17")
    assert "~N02" not in moves(s) and s.hand(0) == ["N01", "N02"]
    r = make(rules_for("numbers"), hands=["N01", ""], draw=[], discards=["N05", "N09 MI"])
    r.apply("N01@b3")
    assert r.draw_pile_size() == 3 and r.to_position().discards == ((), ())


def test_n9_overlap_default_one_literal_four():
    """N-9: Numbers default overlap 1; numbers-seed001-literal lets a 6-run count twice."""
    plain = drop(make(rules_for("numbers", **LONG_GAME)), "a5 b5 c5 d5 e5 f5", seat=0)
    literal = drop(make(rules_for("numbers-seed001-literal", **LONG_GAME)), "a5 b5 c5 d5 e5 f5", seat=0)
    assert seq_names(plain) == ["b:a5-e5"]
    assert seq_names(literal) == ["b:a5-e5", "b:b5-f5"]


def test_n10_everything_else_as_classic():
    """N-10: forced pass, long lines, locking, termination and information as classic."""
    s = make(rules_for("numbers"), chips={"b": "e5 i7"}, hands=["N17 MI", ""], exchange_used=True)
    assert moves(s) == ["pass"]  # the dead N17 after the exchange, Minus without a target
    s.apply("pass")
    assert s.stall == 1 and s.current_player == 1
    nine = drop(make(rules_for("numbers", **LONG_GAME)), "a5 b5 c5 d5 e5 f5 g5 h5 i5", seat=0)
    assert seq_names(nine) == ["b:a5-e5", "b:e5-i5"]
    game = State.new(parse_rules("numbers", players=4), seed=7)
    assert game.observation(1).to_position().hands[3].known == ()
    game.core.playout()
    assert game.is_terminal()
