"""P-19 and P-20: a position records what the table saw that the board does not show,
the draft's takes and each seat's last turn; a game read back from its file keeps both
(the takes the ``recall`` worlds deal around, the last play ``infer`` weighs), and an
analysis of the file is the analysis of the game in play."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import ok

import seqsolve
from seqsolve import _search
from seqsolve.analysis.search import analyze
from seqsolve.analysis.spec import search_settings
from seqsolve.bots import make_bot
from seqsolve.games.sequence.notation import PositionError, parse_position, to_readable
from seqsolve.games.sequence.position_objects import PositionArgumentError
from seqsolve.games.sequence.state import State
from seqsolve.reference.game import RefGame

#: blue (seat 0) has played 5H on e5, after discarding 9D (a classic game, two seats)
BOARD = "*8*/10/10/10/4b5/10/10/10/10/*8*"
BASE = f"classic {BOARD} bg 1 2S,3S,4S,5S,6S,7S,QD/?7 9D,5H/- - 88 1 0"
#: the same play in the draft variant (D-5)
DRAFT = f"classic[draw_mode=draft] {BOARD} bg 1 2S,3S,4S,5S,6S,7S,QD/?7 5H/- - 84 1 0 draft:8H,4D,5C,9C,TC"


def played(variant: str, plies: int, seed: int = 3) -> State:
    state = State.new(seqsolve.parse_rules(variant, players=2), seed=seed)
    for _ in range(plies):
        state.apply_legal(state.random_action())
    return state


def same_analysis(a: State, b: State) -> bool:
    one, two = (analyze(s, seed=1, iterations=300).to_dict() for s in (a, b))
    for d in (one, two):
        d.pop("seconds")
    return one == two


# ---------------------------------------------------------------- P-19 takes


def test_p19_takes_are_written_read_back_and_kept_by_the_game():
    """P-19: every take a seat has not played since is in both forms and JSON, and the
    game read back recalls them as the game in play does (public_hand)."""
    state = played("classic[draw_mode=draft]", 30)
    text = state.to_text()
    assert " takes:" in text
    for form in ("sqn", "readable"):
        back = seqsolve.parse_state(state.to_text(form))
        assert back.to_text() == text
        assert [back.public_hand(s) for s in (0, 1)] == [state.public_hand(s) for s in (0, 1)]
    facts = json.loads(state.to_text("json"))
    assert facts["takes"] == [list(t) for t in state.to_position().takes]


def test_p19_recall_worlds_keep_the_takes_read_from_a_file():
    """P-19: mcts:recall=true deals every world around the takes of a position file, as
    it does around the takes it saw in play."""
    state = played("classic[draw_mode=draft]", 30)
    mover = state.current_player
    other = 1 - mover
    back = seqsolve.parse_state(state.to_text())
    taken = back.public_hand(other)
    assert taken
    searcher = _search.Searcher({"recall": 1})
    for i in range(5):
        world = searcher.deal_world(back.observation(mover).core, mover, np.random.PCG64(i))
        codes = back.rules.deck_cards.codes
        held = sorted(codes[c] for c in world.hand(other))
        assert all(held.count(c) >= taken.count(c) for c in taken)


def test_p19_a_file_without_takes_reads_as_before():
    """P-19: the field is optional: none recorded, no take recalled."""
    state = seqsolve.parse_state(DRAFT)
    assert state.public_hand(0) == [] and state.to_position().takes is None
    assert state.to_text() == DRAFT


@pytest.mark.parametrize(
    ("extra", "message", "column"),
    [
        (" takes:2S/-", "takes are recorded only in the draft variant", None),
        (" takes:2S,3S,4S,5S,6S,7S,QD,2S/-", "took 8 cards but holds 7", None),
        (" takes:KH/-", "seat 0 took KH, which its hand does not hold", None),
        (" takes:-", "no take list for seat 1", None),
        (" takes:ZZ/-", "'ZZ' is not a card", None),
    ],
)
def test_p19_impossible_takes_are_refused_in_one_line(extra, message, column):
    """P-19: takes outside the draft, more than the hand, or not in a known hand."""
    text = (BASE if "only in the draft" in message else DRAFT) + extra
    with pytest.raises(PositionError) as err:
        parse_position(text, "pos.sqn")
    assert message in str(err.value) and str(err.value).startswith("pos.sqn:1:")
    assert "\n" not in str(err.value)


def test_p19_a_take_of_a_hidden_hand_counts_as_a_named_card():
    """P-19 with P-11.6: a take of a hand listed as ``?7`` names that card, so a third
    copy in the file is refused; one in the unknown cards is accepted."""
    text = DRAFT.replace(" 5H/- ", " 5H,KH/- ").replace(" 84 ", " 83 ")
    state = seqsolve.parse_state(text + " takes:-/KH")
    assert state.public_hand(1) == ["KH"]
    with pytest.raises(PositionError, match="card KH is named 3 times"):
        parse_position(text.replace("draft:8H", "draft:KH") + " takes:-/KH")


# ---------------------------------------------------------------- P-20 last turns


def test_p20_last_turns_are_written_read_back_and_kept_by_the_game():
    """P-20: each seat's last turn in both forms and JSON; the game read back keeps
    them, and playing on from either gives the same positions."""
    state = played("classic", 31)
    text = state.to_text()
    assert text.endswith(" last:7C@a3/TS@j2")
    assert "last 0: 7C@a3\nlast 1: TS@j2\n" in state.to_text("readable")
    assert json.loads(state.to_text("json"))["last_turns"] == ["7C@a3", "TS@j2"]
    back = seqsolve.parse_state(state.to_text("readable"))
    assert back.to_text() == text
    action = state.legal_actions()[0]
    state.apply_legal(action)
    back.apply_legal(action)
    assert back.to_text().split()[-1] == state.to_text().split()[-1]


def test_p20_a_turn_with_an_exchange_is_written_whole():
    """P-20: the exchanged cards come first, read from the pile below the play."""
    state = seqsolve.parse_state(BASE + " last:~9D,5H@e5/-")
    assert state.to_text().endswith(" last:~9D,5H@e5/-")
    assert state.core.last_play(0)[1] == 1
    assert state.before_last_play() is None  # an exchange came first: no evidence (set_evidence)


def test_p20_a_file_without_last_turns_reads_as_before():
    state = seqsolve.parse_state(DRAFT)
    assert state.to_position().last_turns is None and state.before_last_play() is None


@pytest.mark.parametrize(
    ("last", "message"),
    [
        ("5H@e5,~9D/-", "a last turn has one play, after its exchanges"),
        ("~9D/-", "a last turn ends with its play"),
        ("5H@zz/-", "bad action '5H@zz'"),
        ("5H@e5=a5-e5/-", "without =, > or +"),
        ("5Hxe5/-", "only a one-eyed jack removes a chip"),
        ("JSe5/-", "bad action 'JSe5'"),
        ("JS@e5/-", "JS removes a chip"),
        ("5H@a1/-", "a1 is a corner"),
        ("5H@f4/-", "5H is played on e5, i7, not f4"),
        ("9D@h5/-", "which must end its discard pile"),
        ("~9C,5H@e5/-", "which must end its discard pile"),
        ("~JD,5H@e5/-", "a jack is never dead"),
        ("~9D,~9D,5H@e5/-", "2 exchanges in one turn; this variant allows 1"),
        ("5H@i7/-", "the turn just played put a b chip on i7"),
        ("ZZ@e5/-", "'ZZ' is not a card"),
        ("-", "no last turn for seat 1"),
    ],
)
def test_p20_impossible_last_turns_are_refused_in_one_line(last, message):
    """P-20: not P-12, not exchanges-then-one-play, not a card of the cell, not the top of
    the seat's pile, or not what the board shows of the turn just played."""
    with pytest.raises(PositionError) as err:
        parse_position(BASE + f" last:{last}", "pos.sqn")
    assert message in str(err.value), str(err.value)
    assert str(err.value).startswith("pos.sqn:1:") and "\n" not in str(err.value)


def test_p20_readable_lines_are_optional_per_seat_and_checked():
    """P-20, P-10: ``last N:`` lines; a seat without one has no last turn known."""
    readable = to_readable(parse_position(BASE))
    state = seqsolve.parse_state(readable + "last 0: 5H@e5\n")
    assert state.to_text().endswith(" last:5H@e5/-")
    with pytest.raises(PositionError, match=r"pos.txt:\d+:\d+: .*must end its discard pile"):
        parse_position(readable + "last 0: 9D@h5\n", "pos.txt")
    with pytest.raises(PositionError, match="last turn for seat 2"):
        parse_position(readable + "last 2: 5H@e5\n", "pos.txt")


def test_p20_exchanges_in_a_mid_turn_position_lie_above_the_last_turn():
    """P-20 with P-16: the seat to move after its exchange (9D, dead: h5 and f10 are
    taken) has it on top of its pile, above its last turn's 5S."""
    text = (
        "classic *3g4*/10/10/10/4b2b2/10/10/10/10/*4g3* bg 1x ?7/2S,3S,4S,6S,7S,QD,KD 5H/5S,9D - 87 3 0"
        " last:5H@e5/5S@e1"
    )
    state = seqsolve.parse_state(text)
    assert state.to_text() == text
    assert state.before_last_play() is None  # mid-turn: the evidence was read at the turn's start
    state.apply("2S@b1")  # the play after the exchange: one turn, written whole
    assert state.to_text().endswith(" last:5H@e5/~9D,2S@b1")
    with pytest.raises(PositionError, match="must end its discard pile below this turn's exchange"):
        parse_position(text.replace("/5S@e1", "/9D@h5"))


# ---------------------------------------------------------------- make_state


def test_p19_p20_make_state_takes_and_last_turns():
    """P-19, P-20 through the API, refusals naming the argument."""
    pos = parse_position(BASE)
    args = {"board": pos.board, "hands": [list(pos.hands[0].known), 7], "discards": [["9D", "5H"], []]}
    state = seqsolve.make_state(**args, to_move=1, turn=1, last_turns=["~9D 5H@e5", None])
    assert state.to_text().endswith(" last:~9D,5H@e5/-")
    with pytest.raises(PositionArgumentError) as err:
        seqsolve.make_state(**args, to_move=1, turn=1, last_turns=["9D@h5", None])
    assert err.value.argument == "last_turns[0]"
    with pytest.raises(PositionArgumentError, match=r"^last_turns\[1\]: expected a turn"):
        seqsolve.make_state(**args, to_move=1, turn=1, last_turns=[None, 5])
    with pytest.raises(PositionArgumentError, match="^last_turns: expected one entry per seat"):
        seqsolve.make_state(**args, to_move=1, turn=1, last_turns="5H@e5")
    with pytest.raises(PositionArgumentError, match=r"^takes: takes are recorded only in the draft variant"):
        seqsolve.make_state(**args, to_move=1, turn=1, takes=[["2S"], []])
    draft = parse_position(DRAFT)
    made = seqsolve.make_state(
        draft.board,
        [list(draft.hands[0].known), 7],
        variant="classic[draw_mode=draft]",
        discards=[["5H"], []],
        to_move=1,
        turn=1,
        draft=list(draft.draft),
        takes=[["QD"], []],
        last_turns=["5H@e5", None],
    )
    assert made.public_hand(0) == ["QD"]
    with pytest.raises(PositionArgumentError, match=r"^takes\[0\]\[0\]: 'ZZ' is not a card"):
        seqsolve.make_state(
            draft.board,
            [list(draft.hands[0].known), 7],
            variant="classic[draw_mode=draft]",
            discards=[["5H"], []],
            to_move=1,
            turn=1,
            draft=list(draft.draft),
            takes=[["ZZ"], []],
        )


# ---------------------------------------------------------------- the reference engine


@pytest.mark.parametrize("variant", ["classic", "classic[draw_mode=draft]"])
def test_p19_p20_reference_engine_reads_and_writes_them_alike(variant):
    """P-19, P-20: the reference engine keeps the takes and last turns as the core does."""
    state = played(variant, 40, seed=5)
    pos = state.to_position()
    ref = RefGame.from_position(pos)
    assert ref.to_position() == pos
    for _ in range(6):
        move = ref.legal_moves()[0]
        ref.apply(move)
        state.apply(move)
    assert ref.to_position().takes == state.to_position().takes
    assert ref.to_position().last_turns == state.to_position().last_turns


# ---------------------------------------------------------------- analysis and bots


def test_p19_a_draft_position_from_replay_analyses_as_the_game_in_play(tmp_path):
    """P-19: ``replay --ply N --to sqn`` of a draft game writes the takes, and the file
    read back analyses exactly as the replayed state (same seed, same output)."""
    out = tmp_path / "games.jsonl"
    ok(
        "match",
        "greedy",
        "greedy",
        "--games",
        "1",
        "--seed",
        "3",
        "--variant",
        "classic[draw_mode=draft]",
        "--out",
        str(out),
        "--jobs",
        "1",
    )
    from seqsolve.cli.options import recorded_game
    from seqsolve.play.records import Replay

    game = Replay(*recorded_game(str(out), 0))
    for step in game:  # a step is yielded before it is played
        if step.ply > 30:
            break
    text = ok("replay", str(out), "--game", "0", "--ply", "30", "--to", "sqn").strip()
    assert " takes:" in text and " last:" in text
    assert text == game.state.to_text()
    assert same_analysis(game.state, seqsolve.parse_state(text))


def test_p19_the_draft_preset_file_analyses_at_the_defaults_as_the_game_in_play(tmp_path):
    """A position of the ``draft`` preset written by ``replay --to sqn`` and read
    back by ``analyze FILE`` gives, at the analysis's defaults, the very answer the game
    in play gets (the tree's budget, proofs and the hidden-card report included)."""
    out = tmp_path / "games.jsonl"
    ok("match", "greedy", "greedy", "--games", "1", "--seed", "5", "--variant", "draft", "--out", str(out))
    from seqsolve.cli.options import recorded_game
    from seqsolve.play.records import Replay

    game = Replay(*recorded_game(str(out), 0))
    for step in game:  # a step is yielded before it is played
        if step.ply > 24:
            break
    path = tmp_path / "draft.sqn"
    path.write_text(ok("replay", str(out), "--game", "0", "--ply", "24", "--to", "sqn"))
    assert " takes:" in path.read_text()
    from_file = json.loads(ok("analyze", str(path), "--seed", "1", "--json"))
    in_play = analyze(game.state, seed=1).to_dict()
    for d in (from_file, in_play):
        d.pop("seconds")
    assert from_file["search"] == "mcts:recall=true" and from_file == in_play


def test_p20_a_blind_two_seat_position_with_a_last_turn_analyses_with_infer_as_in_play():
    """P-20: the default analysis of a blind 2-seat position whose file records the last
    play is the spec ``search`` plays (infer=0.5), weighs the worlds by that play, and is
    the same for the game in play and its file read back."""
    state = played("classic", 31)
    back = seqsolve.parse_state(state.to_text(viewer=state.current_player))
    settings = search_settings("search", rules=state.rules, evidence=True)
    assert settings.infer == 0.5 and "infer=0.5" in settings.spec
    assert analyze(back, seed=1).search == analyze(state, seed=1).search
    assert "infer" in analyze(back, seed=1).search
    assert same_analysis(state, back)
    forgotten = seqsolve.parse_state(state.to_text().rsplit(" last:", 1)[0])
    assert "infer" not in analyze(forgotten, seed=1, iterations=50).search
    before = back.before_last_play()
    searcher = _search.Searcher({})
    assert searcher.set_evidence(before.core, back.observation(back.current_player).core, 0.5)
    assert searcher.evidence_seat == 1 - back.current_player


def test_p20_the_rebuilt_view_before_the_last_play_is_the_one_a_bot_remembers():
    """P-20: before_last_play gives the board, piles and counters the bot kept in play
    (its own view after its own action), so infer weighs a file as it weighs a game."""
    state = played("classic", 30)
    viewer = state.current_player
    remembered = state.observation(viewer)
    action = state.random_action()
    remembered.apply_legal(action)  # what _Evidence._remember keeps
    state.apply_legal(action)
    state.apply_legal(state.random_action())  # the opponent's play
    rebuilt = state.observation(viewer).before_last_play()
    got, kept = rebuilt.to_position(), remembered.to_position()
    assert (got.board, got.discards, got.sequences) == (kept.board, kept.discards, kept.sequences)
    assert (rebuilt.turn, rebuilt.current_player, got.draw_count) == (
        remembered.turn,
        remembered.current_player,
        kept.draw_count,
    )


def test_p20_a_searching_bot_started_from_a_file_weighs_its_first_turn_by_the_last_play():
    """P-20: a bot with infer reads the position's last play at its first turn."""
    state = played("classic", 31)
    back = seqsolve.parse_state(state.to_text())
    bot = make_bot("rollout:worlds=20,infer=0.5")
    bot.start(back.rules, back.seats, back.current_player)
    bot.choose(back.observation(back.current_player), np.random.default_rng(1))
    assert bot._searcher.evidence_seat == 1 - back.current_player
