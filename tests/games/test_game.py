"""The game interface (seqsolve.games): any Game satisfies the protocol the runners use,
checked by driving it through random playouts; the registry resolves every variant,
and refuses a game not built yet in one place.  Run on every Sequence preset."""

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
      names them where it hides them; a decision that does not end the turn
      (``ends_turn``) leaves the same player to decide.
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
        assert state.ends_turn(action) or twin.current_player == player
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
    seen = check_conformance(game, game.rules(preset, players, teams), seed=players * 7 + len(preset), every=3)
    assert seen["checked"] > 0
    # the observation really hid cards, and resampling really dealt them anew
    assert seen["hidden_in_observation"] == seen["checked"]
    assert seen["resampled_differs"] > 0


def test_registry_gives_sequence_for_every_preset_and_one_answer_for_stacks():
    """§2.2: every preset is Sequence's; `stacks` (§4) is refused in the same words
    by the registry and by Sequence's own variant parser."""
    for preset in PRESETS:
        assert game_for(f"{preset}[hand_size=5]") is SEQUENCE
    assert rules_for("seed000", players=4) == SEQUENCE.rules("seed000", 4, None)
    for call in (lambda: game_for("stacks"), lambda: rules_for(" stacks[x=1]", players=2),
                 lambda: SEQUENCE.parse_variant("stacks")):
        with pytest.raises(RulesError, match="Sequence Stacks, a separate game not built yet"):
            call()
    with pytest.raises(RulesError, match="unknown preset 'classik'"):
        rules_for("classik", players=2)


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
        read_state(text.replace("classic", "stacks"), "x.sqn")
    assert (bad.value.source, bad.value.line) == ("x.sqn", 2) and "not built yet" in bad.value.message
    assert SEQUENCE.terminations[0] == "win" and "recorded" not in SEQUENCE.terminations


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
