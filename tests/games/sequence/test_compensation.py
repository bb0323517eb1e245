"""Compensation rules (docs/rules.md §2.5): K-1 ``hand_bonus``, K-2
``first_turn_jacks``, K-3 ``first_turn_short``, K-5 ``head_start`` and K-6
``head_start_edge``, on the compiled engine, in position files and against the
plain-Python reference.

Each is a rule a table can play that gives the later seats something back for
moving second; these tests pin what each changes on hand-built positions and
deals, and that a game without them is dealt and played as before.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from state_helpers import make, moves, rules_for

from seqsolve.games.sequence.actions import IllegalMoveError, decode_action
from seqsolve.games.sequence.board import cell_name, parse_cell
from seqsolve.games.sequence.cards import CardKind
from seqsolve.games.sequence.notation import PositionError, parse_position, to_readable, to_sqn
from seqsolve.games.sequence.rules import HEAD_START_CELLS, HEAD_START_EDGE_CELLS, RulesError, parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.reference.game import RefGame


def _jacks(rules, kind):
    deck = rules.deck_cards
    return [c for c in deck.codes if deck.kind(c) == kind]


# ---------------------------------------------------------------- K-1 hand_bonus


@pytest.mark.parametrize("players, first", [(2, 0), (3, 0), (3, 2), (4, 1)])
def test_k1_hand_bonus_deals_every_later_seat_extra_cards_after_the_deal(players, first):
    """K-1: the ordinary deal is unchanged, then every seat but the first seat takes N more."""
    plain = State.new(parse_rules(f"classic[first_seat={first}]", players=players), seed=7)
    rules = parse_rules(f"classic[first_seat={first},hand_bonus=2]", players=players)
    state = State.new(rules, seed=7)
    size = rules.hand_size
    assert state.core.hand_sizes() == [size if s == first else size + 2 for s in range(players)]
    assert state.hand(first) == plain.hand(first)
    assert len(state.core.draw_pile()) == len(plain.core.draw_pile()) - 2 * (players - 1)


def test_k1_hand_bonus_hands_keep_their_size_all_game():
    """K-1: every play still draws one card, so the later seats hold hand_size + N all game."""
    state = State.new(parse_rules("classic[hand_bonus=1]", players=3), seed=2)
    rng = np.random.default_rng(0)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    assert state.core.hand_sizes() == [6, 7, 7]


def test_k1_hand_bonus_in_position_files():
    """K-1, P-1, P-11.7: the option is written in the variant, and the later seats may hold N more."""
    state = State.new(parse_rules("classic[hand_bonus=2]", players=2), seed=3)
    text = to_sqn(state.to_position())
    assert text.startswith("classic[hand_bonus=2] ")
    assert parse_position(text).hands[1].known == tuple(state.hand(1))
    with pytest.raises(PositionError, match="hand 1 holds 9 cards; this variant's hand size is 7"):
        parse_position(text.replace("classic[hand_bonus=2]", "classic"))
    swapped = make(
        rules_for(hand_bonus=1), hands=["5H 6H 7H 8H 9H 2C 3C 4C", "2D"], draw="rest"
    ).to_position()
    with pytest.raises(PositionError, match="hand 0 holds 8 cards; this variant's hand size is 7"):
        parse_position(to_sqn(swapped))


def test_k1_hand_bonus_refuses_bad_values():
    """K-1: 0..7, and only what the deck can deal; one line naming the option."""
    with pytest.raises(RulesError, match=r"hand_bonus must be 0\.\.7, not 8"):
        parse_rules("classic[hand_bonus=8]", players=2)
    with pytest.raises(RulesError, match="hand_bonus"):
        parse_rules("classic[hand_bonus=-1]", players=2)
    with pytest.raises(RulesError):
        parse_rules("classic[hand_bonus=two]", players=2)
    with pytest.raises(RulesError, match=r"hand_bonus=7 for 11 seats need more than 104 cards \(K-1\)"):
        parse_rules("classic[hand_bonus=7]", players=12, teams=2)


def test_k1_hand_bonus_is_not_bonus_cards():
    """K-1 against the analysis option bonus_cards: one favours seat 0, the other the later seats."""
    both = State.new(parse_rules("classic[bonus_cards=1,hand_bonus=2]", players=3), seed=5)
    assert both.core.hand_sizes() == [7, 8, 8]


def test_k1_reference_deals_as_the_core():
    """K-1 in the reference: the same hands from the same shuffled pile as the core's order."""
    rules = rules_for("classic", 3, hand_bonus=2, first_seat=1)
    plain = RefGame.new(rules_for("classic", 3, first_seat=1), rng=random.Random(4))
    g = RefGame.new(rules, rng=random.Random(4))
    assert [len(h) for h in g.hands] == [8, 6, 8]
    assert sorted(g.hands[1]) == sorted(plain.hands[1])
    assert sorted(g._all_cards()) == sorted(rules.deck_cards.cards())


# ---------------------------------------------------------------- K-2 first_turn_jacks


def test_k2_no_jack_on_the_first_turn_while_another_card_plays():
    """K-2: with first_turn_jacks=off the first turn lists no jack play; the next turn does."""
    rules = rules_for(first_turn_jacks="off")
    wild = _jacks(rules, CardKind.WILD)[0]
    state = make(rules, hands=[f"{wild} 5H", f"{wild} 6H"], draw="rest")
    assert moves(state) and all(m.startswith("5H@") for m in moves(state))
    with pytest.raises(IllegalMoveError, match=r"K-2"):
        state.apply(f"{wild}@e5")
    plain = make(rules_for(), hands=[f"{wild} 5H", f"{wild} 6H"], draw="rest")
    assert any(m.startswith(f"{wild}@") for m in moves(plain))
    state.apply(moves(state)[0])
    assert any(m.startswith(f"{wild}@") for m in moves(state))  # turn 1: jacks again


def test_k2_a_hand_of_only_jacks_plays_them():
    """K-2: a first hand of jacks alone (or whose other cards cannot be played) plays a jack as usual."""
    rules = rules_for(first_turn_jacks="off")
    wild = _jacks(rules, CardKind.WILD)[0]
    state = make(rules, hands=[f"{wild}", "6H"], draw="rest")
    assert len(moves(state)) == 96 and all(m.startswith(f"{wild}@") for m in moves(state))
    ref = RefGame.from_position(state.to_position())
    assert ref.legal_moves() == moves(state)


def test_k2_reference_refuses_the_jack_and_agrees_on_the_list():
    """K-2 in the reference: the same legal list, and the jack refused naming the rule."""
    rules = rules_for(first_turn_jacks="off")
    wild = _jacks(rules, CardKind.WILD)[0]
    state = make(rules, hands=[f"{wild} 5H 9C", "6H"], draw="rest")
    ref = RefGame.from_position(state.to_position())
    assert ref.legal_moves() == moves(state)
    with pytest.raises(ValueError, match="K-2"):
        ref.apply(f"{wild}@e5")


def test_k2_in_position_files_and_bad_values():
    """K-2, P-1: written in the variant; a position at turn 1 lifts it; bad values are refused."""
    state = State.new(parse_rules("classic[first_turn_jacks=off]", players=2), seed=1)
    text = to_sqn(state.to_position())
    assert text.startswith("classic[first_turn_jacks=off] ")
    assert str(parse_position(text).rules.variant) == "classic[first_turn_jacks=off]"
    with pytest.raises(RulesError, match="first_turn_jacks"):
        parse_rules("classic[first_turn_jacks=maybe]", players=2)
    wild = _jacks(rules_for(), CardKind.WILD)[0]
    later = make(rules_for(first_turn_jacks="off"), hands=[f"{wild} 5H", "6H"], draw="rest", turn=1)
    assert any(m.startswith(f"{wild}@") for m in moves(later))


def test_k2_random_playouts_keep_the_rule():
    """K-2 in the core's random play (the playouts' and the random bot's path): no jack on turn 0."""
    deck = parse_rules("classic", players=2).deck_cards
    first_cards = {"on": set(), "off": set()}
    for setting, kinds in first_cards.items():
        rules = parse_rules(f"classic[first_turn_jacks={setting}]", players=2)
        for seed in range(12):
            state = State.new(rules, seed=seed)
            for _ in range(10):
                _, card, _, _ = decode_action(state.core.random_action())
                kinds.add(deck.kind(deck.codes[card]))
    assert CardKind.WILD in first_cards["on"]
    assert first_cards["off"] == {CardKind.NORMAL}


# ---------------------------------------------------------------- K-3 first_turn_short


@pytest.mark.parametrize("players, first", [(2, 0), (3, 0), (3, 2), (4, 1)])
def test_k3_first_turn_short_deals_the_first_seat_n_cards_fewer(players, first):
    """K-3: the first seat is skipped in the last N rounds of the deal; the others hold hand_size."""
    rules = parse_rules(f"classic[first_seat={first},first_turn_short=2]", players=players)
    plain = State.new(parse_rules(f"classic[first_seat={first}]", players=players), seed=7)
    state = State.new(rules, seed=7)
    size = rules.hand_size
    assert state.core.hand_sizes() == [size - 2 if s == first else size for s in range(players)]
    assert len(state.core.draw_pile()) == len(plain.core.draw_pile()) + 2


def test_k3_first_seat_fills_its_hand_at_the_end_of_its_first_turn():
    """K-3: after its first play the first seat draws N + 1 cards from the pile; the next
    seat draws one as usual, and so does the first seat from its second turn on."""
    rules = rules_for(first_turn_short=2)
    state = make(rules, hands=["5H 6H 7H 8H 9H", "5D 6D 7D 8D 9D TD QD"], draw="rest")
    codes = rules.deck_cards.codes
    pile = len(state.core.draw_pile())
    state.apply("5H@e5")
    assert state.core.hand_sizes() == [7, 7]
    assert len(state.core.draw_pile()) == pile - 3
    kept = Counter(codes[c] for c in state.core.hand(0)) - Counter(["6H", "7H", "8H", "9H"])
    assert sum(kept.values()) == 3  # three new cards beside the four kept
    play = next(m for m in moves(state) if m.startswith("5D@"))
    state.apply(play)
    assert state.core.hand_sizes() == [7, 7]
    assert len(state.core.draw_pile()) == pile - 4
    state.apply(moves(state)[0])
    assert state.core.hand_sizes() == [7, 7]
    assert len(state.core.draw_pile()) == pile - 5


def test_k3_a_pass_on_the_first_turn_fills_the_hand_too():
    """K-3: a first turn that ends in a pass (voluntary pass allowed) still fills the hand."""
    rules = rules_for(first_turn_short=3, allow_voluntary_pass=True)
    state = make(rules, hands=["5H 6H 7H 8H", "5D 6D 7D 8D 9D TD QD"], draw="rest")
    state.apply("pass")
    assert state.core.hand_sizes() == [7, 7]
    ref = RefGame.from_position(
        make(rules, hands=["5H 6H 7H 8H", "5D 6D 7D 8D 9D TD QD"], draw="rest").to_position()
    )
    ref.apply("pass")
    assert [len(h) for h in ref.hands] == [7, 7]


def test_k3_reference_fills_the_same_cards_as_the_core():
    """K-3 in the reference: from the same position both engines give the first seat the same cards."""
    rules = rules_for("classic", 3, first_turn_short=2, first_seat=1)
    state = State.new(rules, seed=11)
    ref = RefGame.from_position(state.to_position())
    move = moves(state)[0]
    state.apply(move)
    ref.apply(move)
    codes = rules.deck_cards.codes
    assert sorted(ref.hands[1]) == sorted(codes[c] for c in state.core.hand(1))
    assert len(ref.hands[1]) == rules.hand_size
    assert to_sqn(state.to_position()) == to_sqn(ref.to_position())


def test_k3_reference_deals_as_the_core():
    """K-3 in the reference: the first seat is skipped in the last rounds, the deck is whole."""
    rules = rules_for("classic", 3, first_turn_short=2, first_seat=2)
    g = RefGame.new(rules, rng=random.Random(4))
    assert [len(h) for h in g.hands] == [6, 6, 4]
    assert sorted(g._all_cards()) == sorted(rules.deck_cards.cards())


def test_k3_random_games_keep_full_hands_after_the_first_turn():
    """K-3 on the core's random-play path: after turn 0 every hand is full again."""
    rules = parse_rules("classic[first_turn_short=3,hand_bonus=1]", players=3)
    state = State.new(rules, seed=2)
    assert state.core.hand_sizes() == [3, 7, 7]
    rng = np.random.default_rng(0)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    assert state.core.hand_sizes() == [6, 7, 7]


def test_k3_first_turn_short_in_position_files():
    """K-3, P-1: written in the variant and read back; the short hand fits P-11.7."""
    state = State.new(parse_rules("classic[first_turn_short=2]", players=2), seed=3)
    text = to_sqn(state.to_position())
    assert text.startswith("classic[first_turn_short=2] ")
    back = parse_position(text)
    assert str(back.rules.variant) == "classic[first_turn_short=2]"
    assert len(back.hands[0].known) == 5
    assert to_sqn(State.from_position(back).to_position()) == text
    assert to_sqn(parse_position(to_readable(back))) == text  # the readable form too


def test_k3_first_turn_short_refuses_bad_values():
    """K-3: a whole number below the hand size, the draft's too; one line naming the option."""
    with pytest.raises(
        RulesError, match=r"first_turn_short=7 leaves the first seat no card: .* hand of 7 \(K-3\)"
    ):
        parse_rules("classic[first_turn_short=7]", players=2)
    with pytest.raises(RulesError, match="first_turn_short"):
        parse_rules("classic[first_turn_short=-1]", players=2)
    with pytest.raises(RulesError, match="first_turn_short"):
        parse_rules("classic[first_turn_short=two]", players=2)
    with pytest.raises(
        RulesError, match=r"first_turn_short=6 leaves the first seat no card: .* hand of 6 \(K-3\)"
    ):
        parse_rules("draft[first_turn_short=6]", players=2)
    assert parse_rules("draft[first_turn_short=5]", players=2).first_turn_short == 5


# ------------------------------------------------- K-3 first_turn_short in the draft variant

#: A draft position at turn 0: the first seat two cards short of the draft's hand of 6.
DRAFT_SHORT = {"hands": ["5H 6H 7H 8H", "5D 6D 7D 8D 9D TD"], "draft": "4C 4D 4H 4S QC"}


def _both_play(state, move):
    """``move`` played by the core and by the reference from the same position; both must
    reach the same position (P-8: the draw pile listed, top first)."""
    ref = RefGame.from_position(state.to_position())
    state.apply(move)
    ref.apply(move)
    assert to_sqn(state.to_position()) == to_sqn(ref.to_position())
    return ref


@pytest.mark.parametrize("players, first", [(2, 0), (2, 1), (4, 1)])
def test_k3_draft_deals_the_first_seat_short_before_k1_and_the_draft(players, first):
    """K-3 in the draft: the first seat is skipped in the last N rounds, K-1's extra cards
    follow, then the draft is laid out in full (D-1); the deck is whole in the reference too."""
    spec = f"draft[first_seat={first},hand_bonus=1,first_turn_short=2]"
    rules = parse_rules(spec, players=players)
    plain = State.new(parse_rules(f"draft[first_seat={first},hand_bonus=1]", players=players), seed=7)
    state = State.new(rules, seed=7)
    size = rules.hand_size
    assert state.core.hand_sizes() == [size - 2 if s == first else size + 1 for s in range(players)]
    assert len(state.to_position().draft) == rules.draft_size
    assert len(state.core.draw_pile()) == len(plain.core.draw_pile()) + 2
    ref = RefGame.new(rules, rng=random.Random(4))
    assert [len(h) for h in ref.hands] == [size - 2 if s == first else size + 1 for s in range(players)]
    assert len(ref.draft) == rules.draft_size
    assert sorted(ref._all_cards()) == sorted(rules.deck_cards.cards())


def test_k3_draft_first_seat_fills_from_the_draw_pile_not_the_draft():
    """K-3 in the draft: the short hand passes P-11.7 at turn 0; at the end of the turn the
    first seat takes its pick (the draft refilled from the top of the pile as usual, D-1),
    then draws the missing cards face down from the pile; the draft is not touched again,
    and the fill is not a public take (D-5)."""
    rules = rules_for("draft", first_turn_short=2)
    state = make(rules, **DRAFT_SHORT, draw="rest")
    pile = state.to_position().draw_cards
    assert parse_position(to_sqn(state.to_position())).hands[0].known == ("5H", "6H", "7H", "8H")  # P-11.7
    _both_play(state, "5H@e5+QC")
    pos = state.to_position()
    assert sorted(pos.hands[0].known) == sorted(["6H", "7H", "8H", "QC", *pile[1:3]])
    assert sorted(pos.draft) == sorted(["4C", "4D", "4H", "4S", pile[0]])  # the pick's usual refill only
    assert pos.draw_cards == pile[3:]
    assert pos.takes == (("QC",), ())  # P-19: the pick is public, the cards drawn are not
    play = next(m for m in moves(state) if m.startswith("5D@"))
    _both_play(state, play)  # the second seat and every later turn: one pick, no fill
    assert state.core.hand_sizes() == [6, 6]
    assert state.to_position().draw_cards == pile[4:]


def test_k3_draft_a_pass_on_the_first_turn_fills_from_the_pile():
    """K-3 in the draft: a first turn that ends in a pass takes nothing from the draft (D-1)
    and still fills the hand from the draw pile."""
    rules = rules_for("draft", first_turn_short=2, allow_voluntary_pass=True)
    state = make(rules, **DRAFT_SHORT, draw="KS KH KD KC 9S 9H")
    _both_play(state, "pass")
    pos = state.to_position()
    assert sorted(pos.hands[0].known) == ["5H", "6H", "7H", "8H", "KH", "KS"]
    assert sorted(pos.draft) == ["4C", "4D", "4H", "4S", "QC"]
    assert pos.draw_cards == ("KD", "KC", "9S", "9H")


@pytest.mark.parametrize(
    "exhaustion, hand, over",
    [
        ("draft_end", ("6H", "7H", "8H", "QC"), None),  # short; the game ends on an empty draft
        ("draw_game", ("6H", "7H", "8H", "QC"), "deck_exhausted"),  # the pile's end ends it
        ("reshuffle", ("5H", "6H", "7H", "8H", "QC"), None),  # the discards, then short
    ],
)
def test_k3_draft_fill_from_an_empty_pile(exhaustion, hand, over):
    """K-3 in the draft, a hand-built pile of one card: the pick's refill takes it, and the
    fill meets an empty pile.  draft_end: the hand stays short and play goes on (D-4 ends
    the game on an empty draft, not pile); draw_game: the game ends drawn, as the draft's
    refill would (C-29); reshuffle: the one discard is reshuffled and drawn, then nothing is
    left and the hand stays one short.  Both engines alike."""
    rules = rules_for("draft", first_turn_short=2, deck_exhaustion=exhaustion)
    state = make(rules, **DRAFT_SHORT, draw="KS")
    ref = _both_play(state, "5H@e5+QC")
    assert sorted(state.to_position().hands[0].known) == sorted(hand)
    assert sorted(state.to_position().draft) == ["4C", "4D", "4H", "4S", "KS"]
    assert ref.termination == over
    assert state.is_terminal() == (over is not None)


def test_k3_draft_first_turn_short_in_position_files():
    """K-3 in the draft, P-1: the variant, the short hand and the draft written and read back
    in both text forms; the game read back fills the hand as the original does."""
    state = State.new(parse_rules("draft[hand_bonus=1,first_turn_short=1]", players=2), seed=3)
    text = to_sqn(state.to_position())
    assert text.startswith("draft[hand_bonus=1,first_turn_short=1] ")
    back = parse_position(text)
    assert len(back.hands[0].known) == 5 and len(back.hands[1].known) == 7
    assert to_sqn(parse_position(to_readable(back))) == text  # the readable form too
    again = State.from_position(back)
    assert to_sqn(again.to_position()) == text
    move = moves(state)[0]
    state.apply(move)
    again.apply(move)
    assert to_sqn(again.to_position()) == to_sqn(state.to_position())
    assert state.core.hand_sizes() == [6, 7]


# ---------------------------------------------------------------- K-5 head_start


def _chips_before_play(
    first: int, options: str, players: int, teams: int | None, expected: dict[str, str]
) -> None:
    """The board dealt under ``classic[first_seat=first,options]`` holds exactly the
    ``expected`` chips (colour: cells), the hands are those dealt without the options,
    and the reference sets up the same board."""
    rules = parse_rules(f"classic[first_seat={first},{options}]", players=players, teams=teams)
    plain = State.new(parse_rules(f"classic[first_seat={first}]", players=players, teams=teams), seed=6)
    state = State.new(rules, seed=6)
    board = state.to_position().board
    placed = {c: t for c, t in enumerate(board) if t not in (".", "*")}
    assert placed == {
        parse_cell(name): colour for colour, names in expected.items() for name in names.split()
    }
    assert [state.hand(s) for s in range(players)] == [plain.hand(s) for s in range(players)]
    assert tuple(RefGame.new(rules, rng=random.Random(2)).board) == board


@pytest.mark.parametrize(
    "players, teams, first, expected",
    [
        (2, None, 0, {"g": "c3 h8"}),
        (2, None, 1, {"b": "c3 h8"}),
        (3, None, 2, {"b": "c3 h8", "g": "c6 h5"}),
        (4, 2, 1, {"b": "c3 h8"}),
        (6, 3, 0, {"g": "c3 h8", "r": "c6 h5"}),
    ],
)
def test_k5_head_start_puts_the_later_sides_chips_on_their_cells(players, teams, first, expected):
    """K-5: before the first turn each side but the first seat's holds the first N cells of
    its row, in the order the sides first move; the cards are dealt as without the option."""
    _chips_before_play(first, "head_start=2", players, teams, expected)


def test_k5_head_start_chips_are_ordinary_chips():
    """K-5: a head-start chip counts toward a sequence and a one-eyed jack takes it off."""
    rules = rules_for(head_start=1, sequences_to_win=1)
    one_eyed = _jacks(rules, CardKind.REMOVE)[0]
    state = State.new(rules, seed=9)
    position = state.to_position()
    assert position.board[parse_cell("c3")] == "g"
    # the first seat with a one-eyed jack may remove it on the first turn ...
    built = make(rules, chips={"g": "c3"}, hands=[f"{one_eyed}", "AS"], draw="rest")
    assert moves(built) == [f"{one_eyed}xc3"]
    # ... and the side it belongs to finishes a line through it: a1 (corner) b2 c3 d4 e5
    wild = _jacks(rules, CardKind.WILD)[0]
    line = make(rules, chips={"g": "c3 d4 e5"}, hands=["AS", f"{wild}"], draw="rest", to_move=1, turn=1)
    line.apply(f"{wild}@b2")
    assert line.is_terminal() and line.outcome().winner == "g"


def test_k5_head_start_in_position_files_and_parity():
    """K-5, P-1: written in the variant, the chips on the board; both engines play on alike."""
    rules = parse_rules("classic[head_start=4]", players=3)
    state = State.new(rules, seed=8)
    text = to_sqn(state.to_position())
    assert text.startswith("classic[head_start=4] ")
    back = parse_position(text)
    assert back.board == state.to_position().board
    assert to_sqn(parse_position(to_readable(back))) == text  # the readable form too
    ref = RefGame.from_position(back)
    assert ref.legal_moves() == moves(state)


def test_k5_head_start_refuses_bad_values():
    """K-5: 0..4 cells a side; one line naming the option."""
    with pytest.raises(RulesError, match=r"head_start must be 0\.\.4, not 5"):
        parse_rules("classic[head_start=5]", players=2)
    with pytest.raises(RulesError, match="head_start"):
        parse_rules("classic[head_start=-1]", players=2)
    with pytest.raises(RulesError, match="head_start"):
        parse_rules("classic[head_start=c3]", players=2)


# ---------------------------------------------------------------- K-6 head_start_edge


def _half_turn(name: str) -> str:
    cell = parse_cell(name)
    return cell_name(99 - cell)


def test_k6_edge_cells_keep_the_rows_properties():
    """K-6: each row of the edge table is symmetric under a half turn, on the board's edge
    and off its corners, out of the heart (D-3), with no two cells of the table neighbours
    and none shared with K-5's table."""
    edge = [name for row in HEAD_START_EDGE_CELLS for name in row]
    assert len(set(edge)) == 8 and not set(edge) & {n for row in HEAD_START_CELLS for n in row}
    for row in HEAD_START_EDGE_CELLS:
        assert sorted(map(_half_turn, row)) == sorted(row)
    for name in edge:
        col, row = divmod(parse_cell(name), 10)[::-1]
        assert col in (0, 9) or row in (0, 9)
        assert (col, row) not in {(0, 0), (0, 9), (9, 0), (9, 9)}  # C-22: not a corner
        assert name not in ("e5", "f5", "e6", "f6")
    places = [divmod(parse_cell(n), 10) for n in edge]
    assert all(max(abs(a - c), abs(b - d)) > 1 for i, (a, b) in enumerate(places) for c, d in places[:i])


@pytest.mark.parametrize(
    "players, teams, first, expected",
    [
        (2, None, 0, {"g": "a4 j7"}),
        (2, None, 1, {"b": "a4 j7"}),
        (3, None, 2, {"b": "a4 j7", "g": "a7 j4"}),
        (4, 2, 1, {"b": "a4 j7"}),
        (6, 3, 0, {"g": "a4 j7", "r": "a7 j4"}),
    ],
)
def test_k6_head_start_edge_puts_the_chips_on_edge_cells(players, teams, first, expected):
    """K-6: with head_start_edge=on, K-5's chips stand on the edge table's cells, by the
    same order of the sides; the cards are dealt as without either option; the
    reference sets up the same board."""
    _chips_before_play(first, "head_start=2,head_start_edge=on", players, teams, expected)


def test_k6_hand_built_edge_chip_finishes_a_sequence_along_the_edge():
    """K-6: the dealt board is the hand-built one with g on a4, and that chip counts toward
    a line on the edge: a1 (corner) a2 a3 a4 a5."""
    rules = rules_for(head_start=1, head_start_edge="on", sequences_to_win=1)
    dealt = State.new(rules, seed=3).to_position().board
    assert dealt == make(rules, chips={"g": "a4"}, hands=["AS", "KS"], draw="rest").to_position().board
    wild = _jacks(rules, CardKind.WILD)[0]
    line = make(rules, chips={"g": "a2 a3 a4"}, hands=["AS", f"{wild}"], draw="rest", to_move=1, turn=1)
    ref = RefGame.from_position(line.to_position())
    assert f"{wild}@a5" in moves(line) and ref.legal_moves() == moves(line)
    line.apply(f"{wild}@a5")
    assert line.is_terminal() and line.outcome().winner == "g"


def test_k6_head_start_edge_in_position_files_and_parity():
    """K-6, P-1: written in the variant beside head_start, read back from both forms; both
    engines list the same moves on the dealt board."""
    rules = parse_rules("classic[head_start=4,head_start_edge=on]", players=3)
    state = State.new(rules, seed=8)
    text = to_sqn(state.to_position())
    assert text.startswith("classic[head_start=4,head_start_edge=on] ")
    back = parse_position(text)
    assert back.rules == rules and back.board == state.to_position().board
    assert to_sqn(parse_position(to_readable(back))) == text
    assert RefGame.from_position(back).legal_moves() == moves(state)


def test_k6_head_start_edge_without_head_start_places_nothing():
    """K-6 with head_start=0 (RULES-NOTES): accepted, so a sweep over head_start may start
    at 0, and the board starts empty, as without the option."""
    rules = parse_rules("classic[head_start_edge=on]", players=2)
    assert rules.head_start_cells() == [(1, [])]
    board = State.new(rules, seed=5).to_position().board
    assert board == State.new(parse_rules("classic", players=2), seed=5).to_position().board


def test_k6_head_start_edge_refuses_bad_values():
    """K-6: on or off; one line naming the option and its values."""
    with pytest.raises(RulesError, match=r"option head_start_edge takes one of off, on, not 'yes'"):
        parse_rules("classic[head_start=1,head_start_edge=yes]", players=2)
    with pytest.raises(RulesError, match="head_start_edge"):
        parse_rules("classic[head_start_edge=1]", players=2)


@pytest.mark.parametrize(
    "variant", ["classic[first_turn_short=1]", "draft[first_turn_short=1]", "classic[head_start=1]"]
)
def test_k3_k5_framework_wrappers_refuse_what_they_cannot_deal(variant):
    """K-3, K-5: the framework wrappers deal full hands on an empty board; they refuse in one line."""
    from seqsolve.frameworks._tables import game_rules

    with pytest.raises(RulesError, match=variant.split("[")[1].split("=")[0]):
        game_rules(variant)
