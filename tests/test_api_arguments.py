"""The Python API refuses what it cannot use with a documented error naming the
argument (docs/api.md, "What goes wrong"): an action number is checked as a move is,
every error derives from ``seqsolve.SeqsolveError``, and Sequence Stacks is reached
through the same public names as Sequence."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import seqsolve
from seqsolve import ArgumentError, IllegalMoveError, PositionError, SeqsolveError

EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
HAND = ["AS", "2H", "7H", "AD", "QD", "8C", "9C"]
STN = "stacks 0> B1,B3,R5,R5,SX/?5 -/- - - 0b0r/0b0r 0/0 0 102 0 0"


def new_game(seed: int = 1) -> seqsolve.State:
    return seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=seed)


@pytest.mark.parametrize(
    "action, error, message",
    [
        (-1, IllegalMoveError, "no action of this game has number -1"),
        (10**6, IllegalMoveError, "no action of this game has number 1000000"),
        (2**70, IllegalMoveError, "no action of this game has number"),
        (True, ArgumentError, "apply: move must be a Move, its text or an action number, not True"),
        (None, ArgumentError, "not None"),
        (1.0, ArgumentError, "not 1.0"),
        ([1], ArgumentError, r"not \[1\]"),
    ],
)
def test_apply_checks_an_action_number(action, error, message):
    state = new_game()
    before = state.to_text()
    with pytest.raises(error, match=message):
        state.apply(action)
    assert state.to_text() == before


def test_apply_refuses_a_card_not_held_naming_the_rule():
    state = new_game()
    held = set(state.hand(0))
    other = next(
        a
        for a in range(1 << 16)
        if state._decoded(a) is not None and state.action_to_move(a).card not in held
    )
    with pytest.raises(IllegalMoveError, match=r"seat 0 does not hold"):
        state.apply(other)
    # the state's own actions still play, numpy integers too
    state.apply(np.int64(state.legal_actions()[0]))
    assert state.turn == 1


def test_apply_legal_is_the_unchecked_path_the_runners_take():
    a, b = new_game(), new_game()
    for action in a.legal_actions()[:1]:
        a.apply(action)
        b.apply_legal(action)
    assert a.to_text() == b.to_text()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s: seqsolve.parse_state(None), "parse_state: text must be"),
        (lambda s: seqsolve.parse_state("classic", seed=-1), "parse_state: seed must be"),
        (lambda s: seqsolve.best_move(None, "random"), "best_move: state must be"),
        (lambda s: seqsolve.best_move(s, None), "best_move: bot must be"),
        (lambda s: seqsolve.best_move(s, "random", seed=True), "best_move: seed must be"),
        (lambda s: seqsolve.parse_rules(None), "parse_rules: text must be"),
        (lambda s: seqsolve.parse_rules("classic", players="2"), "parse_rules: players must be"),
        (lambda s: seqsolve.State.new("classic"), "State.new: rules must be a Sequence Rules"),
        (lambda s: s.action_to_move(-1), "action_to_move: action must be"),
        (lambda s: s.hand(2**70), "hand: seat must be an integer from 0 to 1"),
        (lambda s: s.hand(99), "hand: seat must be an integer from 0 to 1, not 99"),
        (lambda s: s.observation(99), "observation: player must be"),
        (lambda s: s.to_position(viewer="0"), "to_position: viewer must be"),
        (lambda s: s.to_text(form="png"), "to_text: form must be one of sqn, readable, json"),
        (lambda s: s.to_text(form=[]), r"to_text: form must be one of sqn, readable, json, not \[\]"),
        (
            lambda s: seqsolve.parse_state(STN).to_text(form={}),
            "to_text: form must be one of stn, readable, json",
        ),
        (lambda s: s.apply_legal(float("nan")), "apply_legal: action must be one of legal_actions"),
        (lambda s: seqsolve.parse_state(STN).apply_legal(float("nan")), "apply_legal: action must be one of"),
        (
            lambda s: seqsolve.parse_state(STN).seats_skipped(2**70),
            "seats_skipped: action must be an integer",
        ),
        (lambda s: seqsolve.MoveKind("jump"), "MoveKind: 'jump' is not one of 'place', 'remove'"),
        (lambda s: seqsolve.Termination([]), r"Termination: \[\] is not one of 1, 2"),
        (lambda s: s.pop(), "pop: no pushed move"),
        (lambda s: s.perft(10**6), "perft: depth must be"),
        (lambda s: seqsolve.make_bot("greedy", 3), "make_bot: game must be"),
        (lambda s: seqsolve.make_bot(None), "make_bot: spec must be"),
    ],
)
def test_a_bad_argument_is_named_by_a_documented_error(call, message):
    with pytest.raises(SeqsolveError, match=f"^{message}"):
        call(new_game())


def test_seconds_must_be_a_number_not_a_flag():
    with pytest.raises(seqsolve.BotError, match="seconds must be a finite number above 0, not True"):
        seqsolve.best_move(new_game(), "mcts", seconds=True)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"exchange_used": "no"}, "exchange_used: expected True or False, not 'no'"),
        ({"hands": [2**70, 7]}, "hands[0]: expected a list of cards, or how many cards from 0"),
        ({"hands": [["AS", "ZZ"], 7]}, "hands[0][1]: 'ZZ' is not a card"),
        ({"hands": [[None], 7]}, "hands[0]: expected a list of card codes"),
        ({"board": None}, "board: expected a string or rows of strings"),
        ({"turn": 1.5}, "turn: expected an integer"),
        ({"seed": -1}, "make_state: seed must be"),
        ({"discards": True}, "discards: expected one discard pile per seat, not True"),
        ({"sequences": [None]}, "sequences: expected 'b:a6-a10' or ('b', 'a6-a10'), not None"),
        ({"sequences": [[1]]}, "sequences: expected 'b:a6-a10' or ('b', 'a6-a10'), not [1]"),
        ({"sequences": [("b", 999)]}, "sequences: window 999 is not one of 0 to 191"),
    ],
)
def test_make_state_names_the_bad_argument(kwargs, message):
    args = {"board": EMPTY, "hands": [HAND, 7], **kwargs}
    with pytest.raises(SeqsolveError) as info:
        seqsolve.make_state(args.pop("board"), args.pop("hands"), **args)
    assert str(info.value).startswith(message)


def test_discard_piles_checks_each_seat():
    with pytest.raises(PositionError, match=r"^plays\[0\]: seat 5 is not one of the 2 seats"):
        seqsolve.discard_piles([(5, "5H")], players=2)
    with pytest.raises(PositionError, match=r"^plays\[1\]: seat -1 is not one of the 2 seats"):
        seqsolve.discard_piles([(0, "5H"), (-1, "5H")], players=2)
    with pytest.raises(PositionError, match=r"^plays\[0\]: expected a card code such as '5H', not 'ZZ'"):
        seqsolve.discard_piles([(0, "ZZ")], players=2)
    with pytest.raises(ArgumentError, match="^discard_piles: players must be"):
        seqsolve.discard_piles([], players=None)


def test_a_winner_must_have_won_and_the_reverse_is_refused_too():
    with pytest.raises(PositionError, match=r"^result: the result says blue won, but blue has 0 sequences"):
        seqsolve.make_state(EMPTY, [7, 7], to_move=None, result="b")
    locked = ["*........*", "BBBBB.....", *EMPTY[2:]]
    with pytest.raises(
        PositionError, match=r"blue has 1 sequences, enough to win .* but the result says green won"
    ):
        seqsolve.make_state(locked, [7, 7], variant="classic[sequences_to_win=1]", to_move=None, result="g")
    won = seqsolve.make_state(locked, [7, 7], variant="classic[sequences_to_win=1]", to_move=None, result="b")
    assert won.outcome().winner == "b"


def test_the_mover_hidden_hand_is_an_argument_error():
    hidden = seqsolve.parse_state("classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 ?7/?7 -/- - 90 0 0")
    with pytest.raises(ArgumentError, match="^best_move: seat 0's cards are not all known"):
        seqsolve.best_move(hidden, "greedy")


def test_a_failing_ext_bot_is_a_documented_bot_failure():
    with pytest.raises(seqsolve.BotFailure) as info:
        seqsolve.best_move(new_game(), "ext:false")
    assert isinstance(info.value, SeqsolveError) and isinstance(info.value, RuntimeError)


def test_every_error_class_derives_from_the_root_and_keeps_its_builtin_base():
    from seqsolve.analysis.results import AnalysisError
    from seqsolve.balance.grid import BalanceError
    from seqsolve.games.base import NotSupported
    from seqsolve.games.sequence.locked import LockedChipsError
    from seqsolve.games.sequence.position_objects import PositionArgumentError
    from seqsolve.play.config import MatchError
    from seqsolve.play.records.schema import RecordError
    from seqsolve.play.table import TableError

    value_errors = [
        AnalysisError,
        BalanceError,
        NotSupported,
        LockedChipsError,
        PositionArgumentError,
        MatchError,
        RecordError,
        TableError,
        seqsolve.BotError,
        seqsolve.RulesError,
        seqsolve.PositionError,
        seqsolve.MoveSyntaxError,
        seqsolve.IllegalMoveError,
        seqsolve.ArgumentError,
    ]
    for cls in value_errors:
        assert issubclass(cls, SeqsolveError) and issubclass(cls, ValueError), cls
    assert issubclass(seqsolve.BotFailure, RuntimeError) and issubclass(seqsolve.BotFailure, SeqsolveError)
    assert issubclass(ArgumentError, TypeError)
    exported = [getattr(seqsolve, n) for n in seqsolve.__all__ if n != "__version__"]
    errors = [e for e in exported if inspect.isclass(e) and issubclass(e, BaseException)]
    assert all(issubclass(e, SeqsolveError) for e in errors) and SeqsolveError in errors


def test_stacks_is_read_played_and_asked_through_the_public_names():
    state = seqsolve.parse_state(STN)
    assert state.rules.variant == "stacks" and state.current_player == 0
    readable = seqsolve.parse_state(state.to_text("readable"))
    assert readable.to_text() == state.to_text() == STN
    assert seqsolve.parse_rules("stacks", players=3).players == 3
    assert seqsolve.make_bot("greedy", "stacks").name == "greedy"
    assert seqsolve.make_bot("mcts:iters=50", state).name == "mcts"
    decisions = [state.action_to_string(a) for a in state.legal_actions()]
    move = seqsolve.best_move(state, "greedy", seed=1)
    assert move in decisions
    assert seqsolve.best_move(state, seed=1) == move  # the game's own default bot
    state.apply(move)
    with pytest.raises(IllegalMoveError):
        state.apply(10**9)
    with pytest.raises(ArgumentError):
        state.apply(True)


@pytest.mark.parametrize("form", ["sqn", "readable"])
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_a_state_writes_back_as_text_each_viewer_sees_it(form, viewer):
    state = new_game(3)
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    text = state.to_text(form, viewer)
    again = seqsolve.parse_state(text)
    assert again.to_text(form) == text
    if viewer is not None:
        assert again.hand(viewer) == state.hand(viewer) and "?" in again.hand(1 - viewer)


@pytest.mark.parametrize("form", ["stn", "readable"])
def test_a_stacks_state_writes_back_as_text(form):
    state = seqsolve.parse_state(STN).resample(0, 1)  # every card known: both seats can play
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    for viewer in (None, state.current_player):
        text = state.to_text(form, viewer)
        assert seqsolve.parse_state(text).to_text(form) == text


STACKS_OPENING = "stacks 0> B1,B3,R5,R5,SX/?5 -/- - - 0b0r/0b0r 0/0 0 102 0 0"


@pytest.mark.parametrize("action", [10**6, 2**31 - 1])
def test_a_stacks_action_number_out_of_range_is_refused_not_played(action):
    """seats_skipped played the number on a copy of the engine unchecked, and a number
    past the engine's tables ended the process; apply_legal took it too."""
    state = seqsolve.parse_state(STACKS_OPENING).resample(0, 1)
    with pytest.raises(
        ArgumentError, match=f"seats_skipped: action must be an integer from 0 to 427, not {action}"
    ):
        state.seats_skipped(action)
    with pytest.raises(ArgumentError, match="apply_legal"):
        state.apply_legal(action)


@pytest.mark.parametrize("which", ["sequence", "stacks"])
def test_to_text_names_a_form_that_is_no_string(which):
    state = (
        seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
        if which == "sequence"
        else seqsolve.parse_state(STACKS_OPENING)
    )
    with pytest.raises(ArgumentError, match=r"to_text: form must be one of .*, not \[\]"):
        state.to_text([])


def test_seats_skipped_asks_about_a_legal_decision():
    state = seqsolve.parse_state(STN).resample(0, 1)
    with pytest.raises(IllegalMoveError):
        state.seats_skipped(
            next(a for a in range(428) if a not in state.legal_actions() and state.ends_turn(a))
        )


def test_an_enum_of_the_api_still_reads_its_own_values():
    assert seqsolve.MoveKind("pass") is seqsolve.MoveKind.PASS
    assert seqsolve.Termination(1) is seqsolve.Termination.WIN
    with pytest.raises(ValueError):  # what enum's own refusal was
        seqsolve.MoveKind("jump")


@pytest.mark.parametrize(
    "args, message",
    [
        (("place", "AH", 5), "Move: kind must be a MoveKind, not 'place'"),
        ((seqsolve.MoveKind.REMOVE, "AH"), "Move: kind 'remove' needs cell"),
        ((seqsolve.MoveKind.PASS, "AH"), "Move: kind 'pass' takes no card"),
        ((seqsolve.MoveKind.PLACE, "AH", "a1"), "Move: cell must be an integer from 0 to 99, not 'a1'"),
        ((seqsolve.MoveKind.PLACE, 5, 5), "Move: card must be a card code"),
        ((seqsolve.MoveKind.PLACE, "AH", 5, "AH"), "Move: declare must be window numbers"),
    ],
)
def test_a_move_built_by_a_program_is_checked_for_its_shape(args, message):
    """Such a move used to pass until played or printed, then fail with a TypeError."""
    with pytest.raises(ArgumentError, match=f"^{message}"):
        seqsolve.Move(*args)
    assert str(seqsolve.Move(seqsolve.MoveKind.PLACE, "9C", np.int64(40), declare=[3])) == "9C@a5=b1-f1"


@pytest.mark.parametrize(
    "args, error, message",
    [
        (("AH",), seqsolve.RulesError, "unknown preset 'AH'"),
        ((3,), ArgumentError, "Variant: preset must be a preset name"),
        (("classic", "AH"), ArgumentError, "Variant: overrides must be a tuple of"),
        (("classic", (("x", 1),)), seqsolve.RulesError, "unknown option 'x'"),
        (
            ("classic", (("sequences_to_win", "3"),)),
            seqsolve.RulesError,
            "option sequences_to_win cannot be '3'",
        ),
    ],
)
def test_a_variant_built_by_a_program_names_what_exists(args, error, message):
    """Such a variant used to fail in resolve() with a KeyError, or play a text as a count."""
    with pytest.raises(error, match=f"^{message}"):
        seqsolve.Variant(*args).resolve(2)
    assert seqsolve.Variant("classic", (("sequences_to_win", 1),)).resolve(2).sequences_to_win == 1
