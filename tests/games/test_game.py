"""The game interface (seqsolve.games): any Game satisfies the protocol the runners use,
checked by driving it through random playouts; the registry resolves every variant
and position file to its game.  Run on every Sequence preset and on Sequence Stacks."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import numpy as np
import pytest

from seqsolve.games import (
    GameState,
    PositionError,
    RulesError,
    game_for,
    position_game,
    read_state,
    rules_for,
)
from seqsolve.games.base import IllegalMoveError, MoveSyntaxError
from seqsolve.games.sequence.game import SEQUENCE
from seqsolve.games.sequence.rules import PRESETS
from seqsolve.games.stacks.game import STACKS

PACKAGE = Path(__file__).resolve().parents[2] / "seqsolve"


def check_conformance(game, rules, seed: int, every: int = 1, max_plies: int = 20000) -> dict:
    """Drive ``game`` through one random playout of ``rules``, checking what the runners
    rely on at every ``every``-th ply (and at every ply, that actions exist); returns
    what it saw (so a test can tell it really looked).

    * the state is a :class:`GameState`; legal actions exist until the game ends, and
      then none, with no player to move, an outcome and returns that agree with it;
    * a clone is independent: playing on it leaves the original as it was;
    * action -> string -> action is the identity for every legal action;
    * position write -> read -> write is the identity, and the state read back has the
      same legal actions (the full form and each seat's own form);
    * the observation of the player to move is what its viewer's position file shows,
      does not change when the hidden cards are dealt anew (it hides them), and has the
      same legal actions; a resampled world keeps that observation and hides nothing;
    * the full state names no hidden card (``hidden_cards``, ``hand``), the observation
      names them where it hides them; a decision ends the turn (``ends_turn``) exactly
      when the count of completed turns moves on (or the game ends).
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(rules, seed=seed)
    assert isinstance(state, GameState)
    seen = {"plies": 0, "checked": 0, "resampled_differs": 0, "hidden_in_observation": 0, "turn_goes_on": 0}
    while not state.is_terminal():
        assert seen["plies"] < max_plies, "the playout does not end"
        player = state.current_player
        legal = state.legal_actions()
        assert player is not None and legal, f"no action at ply {seen['plies']}"
        assert state.outcome() is None and state.returns() == [0.0] * rules.players
        action = legal[int(rng.integers(len(legal)))]
        if seen["plies"] % every:
            state.apply(action)
            seen["plies"] += 1
            continue
        seen["checked"] += 1
        for each in legal:
            assert state.string_to_action(state.action_to_string(each)) == each
        text = game.write_position(state)
        back = game.read_position(text, "<conformance>")
        assert game.write_position(back) == text and back.legal_actions() == legal
        mine = game.write_position(state, viewer=player)
        assert game.write_position(game.read_position(mine, "<viewer>")) == mine

        seen_by_player = state.observation(player)
        assert game.write_position(seen_by_player) == mine
        assert seen_by_player.legal_actions() == legal
        seen["hidden_in_observation"] += seen_by_player.has_hidden_cards()
        assert state.hidden_cards() == [] and "?" not in state.hand(player)
        assert bool(seen_by_player.hidden_cards()) == seen_by_player.has_hidden_cards()
        world = seen_by_player.resample(player, rng)
        assert not world.has_hidden_cards()
        assert game.write_position(world.observation(player)) == mine
        assert game.write_position(world, viewer=player) == mine
        assert world.legal_actions() == legal
        seen["resampled_differs"] += game.write_position(world) != text

        twin = state.clone()
        twin.apply(action)
        assert twin.is_terminal() or state.ends_turn(action) == (twin.turn != state.turn)
        seen["turn_goes_on"] += not state.ends_turn(action)
        assert game.write_position(state) == text and state.legal_actions() == legal
        state.apply(action)
        assert game.write_position(state) == game.write_position(twin)
        seen["plies"] += 1
    assert state.current_player is None and state.legal_actions() == []
    outcome = state.outcome()
    returns = state.returns()
    assert outcome is not None and len(returns) == rules.players
    if outcome.winner is None:
        assert outcome.result == "draw" and returns == [0.0] * rules.players
    else:
        winner = state.sides.index(outcome.winner)
        assert returns == [1.0 if state.side_of(s) == winner else -1.0 for s in range(rules.players)]
    text = game.write_position(state)
    assert game.write_position(game.read_position(text)) == text
    return seen


SEATINGS = [
    (preset, players, teams)
    for preset in PRESETS
    for players, teams in SEQUENCE.seatings(preset)
    if players <= 4
]


@pytest.mark.parametrize("preset, players, teams", SEATINGS, ids=[f"{p}-{n}p{t}t" for p, n, t in SEATINGS])
def test_every_preset_conforms_to_the_game_interface(preset, players, teams):
    game = game_for(preset)
    seen = check_conformance(
        game, game.rules(preset, players, teams), seed=players * 7 + len(preset), every=3
    )
    assert seen["checked"] > 0
    # the observation really hid cards, and resampling really dealt them anew
    assert seen["hidden_in_observation"] == seen["checked"]
    assert seen["resampled_differs"] > 0


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_stacks_conforms_to_the_game_interface(players):
    """§4 through the interface: Block windows (an opponent decides out of turn), Steals,
    Skips and recycling reached by random play, checked as Sequence is."""
    seen = check_conformance(STACKS, rules_for("stacks", players), seed=players, every=5)
    assert seen["checked"] > 0 and seen["turn_goes_on"] > 0
    assert seen["hidden_in_observation"] == seen["checked"]
    assert seen["resampled_differs"] > 0


def test_registry_gives_sequence_for_every_preset_and_stacks_for_its_own():
    """§2.2: every preset but `stacks` is Sequence's; `stacks` (§4) is Sequence Stacks,
    seated 2 to 6 players without teams (ST-1), whose options are its own (§4.9)."""
    for preset in PRESETS:
        assert game_for(f"{preset}[hand_size=5]") is SEQUENCE
    assert rules_for("seed000", players=4) == SEQUENCE.rules("seed000", 4, None)
    assert game_for(" stacks[stacks_refill=empty_hand_only]") is STACKS
    assert rules_for("stacks[stacks_refill=empty_hand_only]", 3).refill == "empty_hand_only"
    assert rules_for("stacks", 5, 5).teams == 5 and STACKS.default_teams(4) == 4
    assert STACKS.presets == ("stacks",) and STACKS.seatings("stacks")[-1] == (6, 6)
    with pytest.raises(RulesError, match="unknown Stacks option 'x'"):
        rules_for(" stacks[x=1]", players=2)
    with pytest.raises(RulesError, match="no teams"):
        rules_for("stacks", 4, 2)
    with pytest.raises(RulesError, match="2 to 6 players, not 7"):
        rules_for("stacks", 7)
    with pytest.raises(RulesError, match="Sequence Stacks, a game of its own"):
        SEQUENCE.parse_variant("stacks")  # Sequence's own parser sends it to the registry
    with pytest.raises(RulesError, match="unknown preset 'classik'"):
        rules_for("classik", players=2)


def test_a_stacks_variant_is_extended_as_a_balance_grid_extends_it():
    """§4.9: every option has a value parser and a range; a variant keeps its options in
    the table's order, so the same rules have one name."""
    variant = STACKS.parse_variant("stacks[max_turns=50]")
    assert variant.preset == "stacks" and variant.options()["players"] is None
    assert str(variant.with_overrides({"stacks_refill": "empty_hand_only"})) == (
        "stacks[stacks_refill=empty_hand_only,max_turns=50]"
    )
    assert STACKS.parse_option("stacks_steal_chip_can_win", "true") is True
    assert STACKS.parse_option("players", "5") == 5
    for name, text, why in [
        ("stacks_refill", "x", "turn_start or empty_hand_only"),
        ("stacks_chip_supply", "100", "between 0 and 99"),
        ("stacks_win_chips", "two", "whole number"),
        ("hand_size", "5", "unknown Stacks option"),
    ]:
        with pytest.raises(RulesError, match=why):
            STACKS.parse_option(name, text)


def test_the_game_and_its_tally_reach_worker_processes_as_themselves():
    """Runners send the game (and its tally, the balance count) to worker processes."""
    assert pickle.loads(pickle.dumps(SEQUENCE)) is SEQUENCE
    tally = pickle.loads(pickle.dumps(SEQUENCE.tally))
    rules = rules_for("classic", players=2)
    state = SEQUENCE.new_initial_state(rules, seed=3)
    counter = tally(rules)
    while not state.is_terminal():
        counter.play(state, state.random_action(), len(state.legal_actions()))
    detail = counter.finish(state)
    assert detail["legal"] >= detail["decisions"] > 0 and len(detail["chips"]) == 2


def test_a_position_file_is_read_by_the_game_its_variant_names():
    """The registry picks the game from the file (an SQN line's variant, Sequence's readable
    header); a seed gives the state its chance, none leaves a reshuffled draw unknown (P-17)."""
    text = (PACKAGE / "data" / "example2.sqn").read_text()
    assert position_game(text) is SEQUENCE and position_game("seqsolve-position 1\n...") is SEQUENCE
    state = read_state(text, "example:2")
    assert SEQUENCE.write_position(state) == SEQUENCE.write_position(SEQUENCE.read_position(text, seed=1))
    assert state.hidden_cards() == ["hand 0 holds 7 unknown", "the draw pile's 56 cards are not listed"]
    with pytest.raises(PositionError) as bad:
        read_state(text.replace("classic", "stacks"), "x.sqn")  # a Stacks file now, and a bad one
    assert (bad.value.source, bad.value.line) == ("x.sqn", 2)
    assert SEQUENCE.terminations[0] == "win" and "recorded" not in SEQUENCE.terminations
    assert STACKS.terminations == ("win", "draw_stalled", "max_turns")


def test_a_stacks_file_is_read_as_stacks_in_either_form():
    """docs/stacks.md: an STN line starts with its variant, the readable form says
    ``variant: stacks``; both read back to the same state through the registry."""
    stn = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"
    readable = STACKS.write_position(read_state(stn), form="readable")
    assert position_game(stn) is STACKS and position_game("# c\n" + readable) is STACKS
    assert STACKS.write_position(read_state(readable, "x.txt")) == stn
    state = read_state(stn)
    assert state.hidden_cards() == [
        "hand 1 holds 5 unknown",
        "the draw pile's 91 cards are not listed",
        "the 5 set-aside cards are not listed",
    ]
    assert state.hand(0) == ["B4", "BW", "R2", "SK", "BK"] and state.hand(1) == ["?"] * 5
    with pytest.raises(PositionError) as bad:
        read_state(stn.replace("B1+B2+B3", "B1+B3"), "bad.stn")
    assert (bad.value.source, bad.value.line) == ("bad.stn", 1) and bad.value.column > 1


def test_play_turn_plays_a_whole_turn_and_says_why_not():
    """P-12: a turn is an exchange and its play; a one-action turn's reason does not repeat it."""
    state = SEQUENCE.read_position((PACKAGE / "data" / "example3.sqn").read_text(), "example:3")
    mover = state.current_player
    state.play_turn("9H@i3")
    assert state.current_player != mover
    with pytest.raises(IllegalMoveError) as bad:
        state.play_turn("AH@a1")
    assert not str(bad.value).startswith("AH@a1")
    with pytest.raises(MoveSyntaxError):
        state.play_turn("9H@i3 ~5S")


def test_string_to_action_takes_one_action_and_says_why_not():
    """P-12: a record entry is one action; a whole turn or an illegal move is refused."""
    state = SEQUENCE.read_position((PACKAGE / "data" / "example2.sqn").read_text(), "example:2")
    assert state.action_to_string(state.string_to_action("AH@f2")) == "AH@f2"
    with pytest.raises(ValueError, match="a turn of 2 actions"):
        state.string_to_action("~5S 9H@i3")
    with pytest.raises(ValueError, match="not empty"):
        state.string_to_action("AH@f3")


RUNNERS = ("play", "analysis", "balance", "cli")


def _runner_files():
    return [p for folder in RUNNERS for p in sorted((PACKAGE / folder).rglob("*.py"))]


@pytest.mark.parametrize("path", _runner_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_runners_do_not_reach_into_the_compiled_game(path):
    """Runners talk to a state through its methods: no `.core`, no unknown-card code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        assert not (isinstance(node, ast.Attribute) and node.attr in ("core", "_core")), node.lineno
        assert not (isinstance(node, ast.Constant) and node.value == 255), node.lineno
        if isinstance(node, ast.ImportFrom):
            assert "UNKNOWN_CODE" not in {a.name for a in node.names}, node.lineno


def test_variant_strings_become_rules_in_one_function():
    """Outside the games, only seqsolve.games.rules_for resolves a variant to rules."""
    for path in _runner_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "resolve":
                pytest.fail(f"{path.relative_to(PACKAGE)}:{node.lineno} resolves a variant itself")


def test_the_conformance_check_catches_an_observation_that_shows_hidden_cards():
    """The check is not vacuous: a state whose observation is a plain copy (every hand
    shown, C-12's hidden hands included) fails it."""
    from seqsolve.games.sequence.game import SequenceGame
    from seqsolve.games.sequence.state import State

    class Leaky(State):
        def observation(self, player):
            return self.clone()

    class LeakyGame(SequenceGame):
        def new_initial_state(self, rules, seed=None):
            real = State.new(rules, seed=seed)
            return Leaky(real.rules, real.seats, real.core)

    with pytest.raises(AssertionError):
        check_conformance(LeakyGame(), rules_for("classic", players=2), seed=1)


def test_play_turn_plays_a_whole_stacks_turn_or_nothing():
    """ST-12..ST-14: a turn is its plays and the discard that ends it; an illegal
    decision anywhere leaves the position as it was, and nothing may follow the discard."""
    stn = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"
    state = read_state(stn)
    with pytest.raises(IllegalMoveError, match=r"^BW>3: no pile of that colour has value 3 \(ST-8\)$"):
        state.play_turn("B4 BW>3")  # B4 goes on the blue 3, which is then a 4
    assert STACKS.write_position(state) == stn
    with pytest.raises(MoveSyntaxError, match="ends the turn"):
        state.play_turn("~SK B4")
    with pytest.raises(MoveSyntaxError, match="cannot read Stacks action"):
        state.play_turn("B4 9H@i3")
    state.play_turn("B4 ~SK")
    assert state.current_player == 1 and state.turn == 7
    assert (
        STACKS.write_position(state)
        == "stacks 1> BW,R2,BK/?5 R5,SK/B2 - B1+B2+B3+B4,R1 0b1r/0b0r 0/0 5 91 7 0"
    )
