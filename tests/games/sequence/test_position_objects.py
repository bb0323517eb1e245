"""A position from Python objects (``seqsolve.make_state``) passes the P-11 checks of a
position file, the same ones: every position the text path accepts the objects path
accepts as the same state, and every impossible one both refuse with the same message;
the sequences are read back from the locked chips when only one reading exists."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import seqsolve
from seqsolve.bots import make_bot
from seqsolve.games.sequence.board import CORNERS, parse_cell, parse_window, window_name, windows
from seqsolve.games.sequence.notation import PositionError, parse_position, read_position, to_sqn
from seqsolve.games.sequence.position import Hand, Position
from seqsolve.games.sequence.position_objects import PositionArgumentError, sequences_from_locked
from seqsolve.games.sequence.state import State

EXAMPLES = [f"seqsolve/data/example{n}.sqn" for n in (1, 2, 3, 4)]


def objects_of(pos: Position) -> dict:
    """``make_state`` arguments that say everything ``pos`` says, sequences included."""
    return {
        "board": pos.board,
        "hands": [list(h.known) + ["?"] * h.unknown for h in pos.hands],
        "variant": str(pos.rules.variant),
        "seats": pos.seats,
        "to_move": pos.to_move,
        "exchange_used": pos.exchange_used,
        "result": pos.result,
        "discards": [list(p) for p in pos.discards],
        "sequences": [f"{c}:{window_name(w)}" for c, w in pos.sequences],
        "draw": pos.draw_count if pos.draw_cards is None else list(pos.draw_cards),
        "turn": pos.turn,
        "stall": pos.stall,
        "draft": None if pos.draft is None else list(pos.draft),
        "takes": None if pos.takes is None else [list(t) for t in pos.takes],
        "last_turns": None if pos.last_turns is None else [" ".join(t) or None for t in pos.last_turns],
    }


def played(variant: str, players: int, plies: int, seed: int, teams: int | None = None) -> State:
    """A game ``plies`` actions in, greedy against itself (sequences and locked chips
    appear after a few dozen)."""
    state = State.new(seqsolve.parse_rules(variant, players=players, teams=teams), seed=seed)
    bot, rng = make_bot("greedy"), np.random.default_rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        bot.start(state.rules, state.seats, state.current_player)
        state.apply(bot.choose(state.observation(state.current_player), rng))
    return state


def positions() -> list[Position]:
    found = [read_position(p) for p in EXAMPLES]
    for n, (variant, players, teams) in enumerate(
        [
            ("classic", 2, None),
            ("classic", 3, None),
            ("classic", 4, None),
            ("seed000", 6, 3),
            ("draft", 2, None),
            ("numbers", 2, None),
        ]
    ):
        for plies in (0, 40, 90, 400):
            state = played(variant, players, plies, seed=n * 10 + plies, teams=teams)
            found += [state.to_position(), state.to_position(viewer=state.current_player or 0)]
    return found


POSITIONS = positions()


def test_the_played_positions_include_sequences_finished_games_and_hidden_cards():
    """Otherwise the parity tests below would not reach the checks they are about."""
    assert any(p.sequences for p in POSITIONS)
    assert any(p.result is not None for p in POSITIONS)
    assert any(p.draw_cards is None for p in POSITIONS) and any(p.draft is not None for p in POSITIONS)


@pytest.mark.parametrize("pos", POSITIONS, ids=to_sqn)
def test_objects_and_text_give_the_same_state(pos):
    by_text = seqsolve.parse_state(to_sqn(pos), seed=1)
    assert seqsolve.make_state(**objects_of(pos), seed=1).to_position() == by_text.to_position()


def test_sequences_read_from_the_locked_chips_are_the_engines_or_refused_as_ambiguous():
    """P-7: where the locked chips have one reading it is the set of sequences the engine
    recorded (their order is the order of completion, which a board does not show);
    where they have two, the error names both, and listing the sequences resolves it.
    (A corner makes two readings common: j1-f5 and e4-e8 lock the same chips as i2-e6
    and e4-e8.)"""
    read_back = ambiguous = 0
    for pos in POSITIONS:
        args = objects_of(pos)
        args["sequences"] = None
        try:
            got = set(seqsolve.make_state(**args).to_position().sequences)
        except PositionArgumentError as err:
            assert err.argument == "board" and " are sequences " in err.message, err
            ambiguous += 1
            continue
        assert got == set(pos.sequences), to_sqn(pos)
        read_back += bool(pos.sequences)
    assert read_back > ambiguous > 0


MID_GAME = read_position("seqsolve/data/example4.sqn")
WITH_SEQUENCE = read_position("seqsolve/data/example2.sqn")


def _board(pos: Position, **cells: str) -> tuple[str, ...]:
    board = list(pos.board)
    for name, token in cells.items():
        board[parse_cell(name)] = token
    return tuple(board)


def _hand(pos: Position, seat: int, *extra: str) -> tuple[Hand, ...]:
    hands = list(pos.hands)
    hands[seat] = Hand(hands[seat].known + extra, hands[seat].unknown)
    return tuple(hands)


# Each an impossible position, as a Position that skipped the checks: both paths must
# refuse it, with the same words.
IMPOSSIBLE = {
    "P-11.1 a corner without its *": replace(MID_GAME, board=_board(MID_GAME, a1=".")),
    "P-11.1 a * off the corners": replace(MID_GAME, board=_board(MID_GAME, e5="*")),
    "P-3 one colour for every seat": replace(MID_GAME, seats="bb"),
    "P-11.2 three seats of two sides": replace(MID_GAME, seats="bgb"),
    "P-11.3 a sequence of the other colour": replace(
        WITH_SEQUENCE, sequences=tuple(("g" if c == "b" else "b", w) for c, w in WITH_SEQUENCE.sequences)
    ),
    "P-11.4 a locked chip in no sequence": replace(MID_GAME, board=_board(MID_GAME, e5="B")),
    "P-11.6 a card three times": replace(
        MID_GAME, discards=(MID_GAME.discards[0] + ("5H",) * 3, MID_GAME.discards[1])
    ),
    "P-11.7 a hand too big": replace(MID_GAME, hands=_hand(MID_GAME, 0, "5H")),
    "P-11.7 cards missing from the deck": replace(
        MID_GAME, draw_count=MID_GAME.draw_count - 1, draw_cards=None
    ),
    "P-11.8 a seat to move that is not seated": replace(MID_GAME, to_move=2),
    "P-9 a turn counter past the core's": replace(MID_GAME, turn=2**31),
    "D-5 a draft outside the draft variant": replace(MID_GAME, draft=()),
    "C-1 a card of no deck": replace(MID_GAME, discards=(("ZZ",), MID_GAME.discards[1])),
}


@pytest.mark.parametrize("rule", IMPOSSIBLE)
def test_an_impossible_position_is_refused_with_the_words_of_a_file(rule):
    bad = IMPOSSIBLE[rule]
    with pytest.raises(PositionError) as by_text:
        parse_position(to_sqn(bad))
    with pytest.raises(PositionError) as by_objects:
        seqsolve.make_state(**objects_of(bad))
    assert by_objects.value.message == by_text.value.message
    assert str(by_objects.value).count("\n") == 0


@pytest.mark.parametrize(
    "change, argument",
    [
        ({"hands": [["AS", "ZZ"], 7]}, "hands[0][1]"),
        ({"board": "x" + "." * 8 + "*" + "." * 80 + "*........*"}, "board a1"),
        ({"discards": [[], ["JD", "JD", "JD"]]}, "discards[1][2]"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": None}, "position"),
        ({"result": "b"}, "to_move"),
        ({"seats": "bb"}, "seats"),
        ({"seats": "bgr"}, "hands"),
        ({"draw": 91}, "draw"),
        ({"sequences": ["b:a1-a7"]}, "sequences[0]"),
        ({"variant": "classic[hand_size=99]"}, "variant"),
        ({"turn": -1}, "turn"),
        ({"board": "*" * 99}, "board"),
        ({"hands": ["AS 2H", 7]}, "hands[0]"),
        ({"draw": "90"}, "draw"),
        ({"draw": ["AS", "JS", "XX"]}, "draw[2]"),
    ],
)
def test_an_error_names_the_argument_at_fault(change, argument):
    args = {"board": ["*........*"] + ["." * 10] * 8 + ["*........*"], "hands": [7, 7], **change}
    with pytest.raises(PositionArgumentError) as err:
        seqsolve.make_state(**args)
    assert err.value.argument == argument
    assert str(err.value) == f"{argument}: {err.value.message}"
    assert "\n" not in str(err.value)


def test_the_board_may_be_one_string_or_rows_and_hands_counts_or_cards():
    rows = ["*........*"] + ["." * 10] * 8 + ["*........*"]
    state = seqsolve.make_state("/".join(rows), [["AS", "10d", "?"], 7], seed=3)
    assert state.to_position() == seqsolve.make_state(rows, [["AS", "TD", "?"], 7], seed=3).to_position()
    assert state.hand(0) == ["AS", "TD", "?"] and len(state.hand(1)) == 7
    assert state.draw_pile_size() == 104 - 10  # P-15: the rest of the deck


def _locked(*runs: str, colour: str = "B") -> list[str]:
    """An empty board but for the windows ``runs``, locked chips of ``colour``."""
    board = ["*" if c in CORNERS else "." for c in range(100)]
    for run in runs:
        for cell in windows()[parse_window(run)]:
            if cell not in CORNERS:
                board[cell] = colour
    return board


CLASSIC = seqsolve.parse_rules("classic", players=2)


def test_two_sequences_sharing_a_cell_are_read_back_c25():
    """C-25: nine locked chips in a row are two sequences sharing the middle cell."""
    assert sequences_from_locked(_locked("a2-e2", "e2-i2"), CLASSIC) == ["b:a2-e2", "b:e2-i2"]


def test_a_corner_counts_for_the_sequence_through_it_c24():
    assert sequences_from_locked(_locked("a1-a5"), CLASSIC) == ["b:a1-a5"]


def test_sequences_of_each_colour_are_read_apart():
    board = _locked("a3-e3")
    for cell in windows()[parse_window("a5-e5")]:
        board[cell] = "G"
    assert sequences_from_locked(board, CLASSIC) == ["b:a3-e3", "g:a5-e5"]


def test_locked_chips_that_overlap_too_much_are_refused_naming_the_cells_c25():
    """Six locked chips in a row would be two sequences sharing four cells: classic
    allows one shared cell, so no reading exists."""
    with pytest.raises(
        PositionError, match=r"^board: the locked b chips at a4, b4, c4, d4, e4, f4 are no set"
    ):
        sequences_from_locked(_locked("a4-e4", "b4-f4"), CLASSIC)


def test_locked_chips_with_two_readings_are_refused_naming_both():
    """With overlap_max_shared=4, seven chips in a row are two sequences or three."""
    rules = seqsolve.parse_rules("classic[overlap_max_shared=4]", players=2)
    with pytest.raises(PositionError) as err:
        sequences_from_locked(_locked("a4-e4", "c4-g4"), rules)
    assert err.value.message.startswith("the locked b chips at a4, b4, c4, d4, e4, f4, g4 are sequences ")
    assert "a4-e4, b4-f4, c4-g4 or a4-e4, c4-g4" in err.value.message


def test_make_state_reads_the_sequences_it_is_not_given():
    rows = _locked("a2-e2")
    state = seqsolve.make_state(rows, [7, 7])
    assert state.sequences() == [("b", parse_window("a2-e2"))]
    with pytest.raises(PositionError, match="^board: "):
        seqsolve.make_state(_locked("a4-e4", "b4-f4"), [7, 7])


def test_discard_piles_feed_make_state():
    plays = [(0, "5H"), (1, "JS"), (0, "TD")]
    state = seqsolve.make_state(
        ["*........*"] + ["." * 10] * 8 + ["*........*"], [7, 7], discards=seqsolve.discard_piles(plays, 2)
    )
    assert state.to_position().discards == (("5H", "TD"), ("JS",))


def test_the_variant_may_be_rules_and_the_seats_follow_the_deal():
    """C-7: without ``seats`` side ``s mod T`` plays seat ``s``, as a deal seats them."""
    rules = seqsolve.parse_rules("classic[sequences_to_win=1]", players=2)
    empty = ["*........*"] + ["." * 10] * 8 + ["*........*"]
    assert seqsolve.make_state(empty, [7, 7], variant=rules).rules == rules
    four = seqsolve.make_state(empty, [6, 6, 6, 6])
    assert (four.seats, four.rules.teams) == ("bgbg", 2)
    with pytest.raises(PositionArgumentError, match=r"^variant: with 6 players give the number of sides"):
        seqsolve.make_state(empty, [5] * 6)
    assert seqsolve.make_state(empty, [5] * 6, seats="bgrbgr").rules.teams == 3
