"""Sequence as an OpenSpiel game (seqsolve.frameworks.openspiel), checked by OpenSpiel's
own tests (random simulation, its information-set MCTS) and against the engine."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed (the test extra installs it on Python 3.11 and later)"
)

import seqsolve
from seqsolve.bots import make_bot
from seqsolve.frameworks.openspiel import GAME_NAME, ISMCTSBot, SequenceGame
from seqsolve.games.sequence.rules import PRESETS
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import play_game

#: every preset, each seated as its rules allow (teams and three sides included); three
#: sequences to win make seed000's random games run to the turn cap, capped lower here
SEATINGS = [
    ("classic", 2, 0),
    ("classic", 4, 0),
    ("classic", 6, 3),
    ("seed000[max_turns=120]", 3, 0),
    ("seed002-literal", 2, 0),
    ("numbers", 2, 0),
    ("numbers-seed001-literal", 3, 0),
    ("draft", 2, 0),
    ("draft", 4, 0),
]


def load(variant="classic", players=2, teams=0):
    return pyspiel.load_game(GAME_NAME, {"variant": variant, "players": players, "teams": teams})


def test_every_preset_is_seated_here():
    assert {v.split("[")[0] for v, _, _ in SEATINGS} == set(PRESETS)


@pytest.mark.parametrize(("variant", "players", "teams"), SEATINGS)
def test_openspiel_random_simulation(variant, players, teams):
    """OpenSpiel's own checks of a game, over whole random games: legal actions and
    masks, chance outcomes that sum to 1, tensors of the declared shapes, strings,
    returns within the utilities (and summing to 0 when zero-sum), clones, and states
    serialised and read back (with the game's string, options in the bracket too)."""
    pyspiel.random_sim_test(load(variant, players, teams), num_sims=2, serialize=True, verbose=False)


def test_a_game_string_holds_a_variants_options():
    game = pyspiel.load_game(f"{GAME_NAME}(variant=classic[heart_rule:on;max_turns:200],players=4)")
    assert (game.rules.heart_rule, game.rules.max_turns, game.rules.players) == ("on", 200, 4)
    assert pyspiel.load_game(str(game)).rules == game.rules
    assert load("classic[heart_rule=on,max_turns=200]", 4).rules == game.rules


def test_unlimited_exchanges_bound_the_game_by_the_deck():
    game = load("classic[dead_card_exchanges_per_turn=unlimited]")
    assert game.max_game_length() == game.rules.max_turns * (104 + 1)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_type_and_sizes():
    classic = load()
    kind = classic.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (classic.num_players(), classic.max_chance_outcomes()) == (2, 52)
    assert load("classic", 6, 3).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # every action the engine lists in a game is in the table, and back
    game = classic.rules, classic.table
    state = seqsolve.State.new(game[0], seed=4)
    for action in state.legal_actions():
        assert game[1].core(game[1].index(action)) == action
        assert game[1].text(game[1].index(action)) == state.action_to_string(action)


def test_bad_parameters_are_one_clear_error():
    with pytest.raises(seqsolve.RulesError, match="unknown preset"):
        SequenceGame({"variant": "nosuch"})
    with pytest.raises(seqsolve.RulesError, match="bonus"):
        SequenceGame({"variant": "classic[bonus_cards=2]"})


def _play_random(state, rng, check):
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            check(state, actions, probs)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("variant", ["seed000", "draft"])
def test_every_card_comes_from_a_chance_outcome(variant):
    """The deal and every draw: the chance outcomes are the cards not yet in sight,
    weighted by their copies, and the card chosen is the one the seat (or the draft)
    receives; the deck is whole throughout.  seed000's long games (three sequences to
    win) empty the draw pile: the draw after it comes from the reshuffled discards."""
    game = load(variant)
    deck = game.rules.deck_cards
    full = Counter(deck.index(c) for c in deck.cards())
    state = game.new_initial_state()
    seen = []

    def check(state, actions, probs):
        assert abs(sum(probs) - 1) < 1e-9
        world = state.world or (state._draw.value.before if state._draw else None)
        if world is None:  # dealing: every card not dealt yet
            left = full - Counter(state._dealt)
        else:
            left = Counter(world.core.draw_pile()) or state._draw.value.stock
        assert dict(zip(actions, probs)) == pytest.approx({c: n / left.total() for c, n in left.items()})
        seen.append(world is not None and not world.core.draw_pile())

    rng = np.random.default_rng(5)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                check(state, actions, probs)
                card = int(rng.choice(actions, p=probs))
                pending = state._draw.value if state._draw else None
                state.apply_action(card)
                if pending is not None:
                    seat = pending.drawn_by()
                    where = state.world.core.hand(seat) if seat is not None else state.world.core.draft()
                    assert card in where
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            if state.world is not None:
                core = state.world.core
                cards = Counter(c for s in range(game.rules.players) for c in core.hand(s))
                cards += Counter(core.draw_pile()) + Counter(c for _, c in core.discards())
                cards += Counter(core.draft())
                assert cards == full
    assert any(seen) == (variant == "seed000")  # a reshuffle, where the rules have one


def test_a_seat_sees_its_own_cards_and_never_another_seats():
    game = load()
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    world = state.world
    for seat in (0, 1):
        text = state.observation_string(seat)
        assert text == world.to_text(viewer=seat)
        view = seqsolve.parse_state(text)
        assert view.hand(seat) == world.hand(seat)
        assert set(view.hand(1 - seat)) == {"?"}
        info = state.information_state_string(seat)
        assert ",".join(world.hand(seat)) in info and ",".join(world.hand(1 - seat)) not in info


def test_a_draw_changes_only_the_drawers_information():
    """Two draws of different cards to seat 0: seat 1's information state and
    observation (string and tensor) cannot tell them apart, seat 0's can."""
    game = load()
    rng = np.random.default_rng(8)
    state = game.new_initial_state()
    while not (state.is_chance_node() and state._draw is not None and state._draw.value.drawn_by() == 0):
        state.apply_action(
            int(rng.choice([a for a, _ in state.chance_outcomes()]))
            if state.is_chance_node()
            else int(rng.choice(state.legal_actions()))
        )
    outcomes = [a for a, _ in state.chance_outcomes()]
    a, b = state.child(outcomes[0]), state.child(outcomes[-1])
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.observation_tensor(0) != b.observation_tensor(0)


def test_resample_keeps_what_the_seat_knows():
    game = load()
    rng = np.random.default_rng(11)
    state = game.new_initial_state()
    for _ in range(40):
        state.apply_action(
            int(rng.choice([a for a, _ in state.chance_outcomes()]))
            if state.is_chance_node()
            else int(rng.choice(state.legal_actions()))
        )
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        hands.add(tuple(world.world.hand(1 - seat)))
    assert len(hands) > 1


def _openspiel_match(game, bots, seed):
    """A game between OpenSpiel bots, OpenSpiel's way: chance sampled from its
    outcomes, each bot's ``step`` at its seat (evaluate_bots would also ask the bots
    to ``restart_at``, which OpenSpiel's Python ISMCTS does not implement)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state.returns()


def test_openspiel_ismcts_plays_whole_games_in_openspiel():
    """OpenSpiel's ISMCTS bot, with OpenSpiel's random-rollout evaluator (rollouts
    through this game's Python states) and with the core's playouts, plays whole
    games against OpenSpiel's uniform random bot through OpenSpiel's own loop."""
    from open_spiel.python.algorithms import ismcts, mcts

    from seqsolve.frameworks.openspiel import PlayoutEvaluator

    game = load()
    for seed, evaluator, sims in (
        (1, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 4),
        (2, PlayoutEvaluator(1, np.random.default_rng(2)), 20),
    ):
        search = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(seed))
        returns = _openspiel_match(game, [search, pyspiel.make_uniform_random_bot(1, seed)], seed)
        assert sorted(returns) == [-1.0, 1.0] or list(returns) == [0.0, 0.0]


def test_ismcts_bot_plays_seqsolve_matches():
    """The seqsolve bot around OpenSpiel's ISMCTS plays whole games through the match
    runner (both seats, classic and the draft), legally, and the same seed plays the
    same game."""
    for variant, games in (("classic", (0, 1)), ("draft", (0,))):
        config = MatchConfig(bots=("openspiel-ismcts:sims=10", "random"), variant=variant, seed=3)
        records = [play_game(config, g, bots=[ISMCTSBot(sims=10), make_bot("random")]) for g in games]
        for record in records:
            assert record["forfeit"] is None
            assert record["termination"] in ("win", "stall", "turn_cap", "draft_end", "deck_exhausted")
            assert record["plies"] > 0
        again = play_game(config, 0, bots=[ISMCTSBot(sims=10), make_bot("random")])
        assert again["moves"] == records[0]["moves"]


def test_ismcts_bot_refuses_other_games_before_the_first_and_travels_to_workers():
    import pickle

    bot = ISMCTSBot(sims=5)
    with pytest.raises(seqsolve.BotError, match="plays Sequence only"):
        bot.check_rules(seqsolve.parse_rules("stacks", players=2))
    with pytest.raises(seqsolve.BotError, match="bonus"):
        bot.check_rules(seqsolve.parse_rules("classic[bonus_cards=2]", players=2))
    state = seqsolve.State.new(seqsolve.parse_rules("draft", players=2), seed=2)
    bot.start(state.rules, state.seats, 0)
    copy = pickle.loads(pickle.dumps(bot))  # a joblib worker's copy: the OpenSpiel game is rebuilt there
    assert copy.choose(state.observation(0), np.random.default_rng(3)) in state.legal_actions()


def test_ismcts_bot_spec_and_parameters():
    bot = ISMCTSBot(sims=50)
    assert bot.spec == "openspiel-ismcts:sims=50"
    with pytest.raises(seqsolve.BotError, match="sims"):
        ISMCTSBot.parse_param("sims", "0")
    state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
    action = bot.choose(state.observation(0), np.random.default_rng(1))
    assert action in state.legal_actions()
    with pytest.raises(seqsolve.ArgumentError, match="numpy"):
        bot.choose(state.observation(0), 1)


@pytest.mark.parametrize("variant", ["classic", "draft"])
def test_a_serialised_state_plays_on_as_the_original(variant):
    """Read back mid-game, mid-draw included, a state plays the rest of the game
    exactly as the original: the same legal actions, chance outcomes and strings."""
    game = load(variant)
    rng = np.random.default_rng(21)
    state = game.new_initial_state()
    copies, mid_draw = [], 0
    while not state.is_terminal():
        if len(state.history()) % 37 == 0:
            copies.append(game.deserialize_state(state.serialize()))
            mid_draw += state._draw is not None
        for copy in copies:
            assert copy.history() == state.history()
            assert copy.information_state_string(0) == state.information_state_string(0)
            assert copy.observation_string(1) == state.observation_string(1)
            assert copy.is_chance_node() == state.is_chance_node()
            if state.is_chance_node():
                assert copy.chance_outcomes() == state.chance_outcomes()
            else:
                assert copy.legal_actions() == state.legal_actions()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = int(rng.choice(actions, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        for copy in copies:
            copy.apply_action(action)
    assert len(copies) > 2 and mid_draw
    assert all(c.returns() == state.returns() for c in copies)


def test_a_public_observer_shows_no_hand():
    """OpenSpiel's observation types: a public observer (no private information) shows
    no seat's cards, in its string or its tensor; the default ones show the seat's own."""
    from open_spiel.python.observation import make_observation

    game = load()
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(
            int(rng.choice([a for a, _ in state.chance_outcomes()]))
            if state.is_chance_node()
            else int(rng.choice(state.legal_actions()))
        )
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    hand = ",".join(state.world.hand(0))
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    history = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    for kind in (public, history):
        observation = make_observation(game, kind)
        observation.set_from(state, 0)
        assert "hand" not in observation.dict and "held" not in observation.dict
        text = observation.string_from(state, 0)
        assert text == observation.string_from(state, 1).replace("seat 1", "seat 0")
        assert hand not in text
        assert not any(f"deal0:{card}" in text for card in state.world.rules.deck_cards.codes)
    assert hand in state.observation_string(0) and hand in state.information_state_string(0)


def test_seqsolve_match_seats_openspiels_ismcts_through_the_class_door():
    """``seqsolve match module:Class`` seats the OpenSpiel bot, on one worker and two,
    with the same records; Stacks is one clear line before any game."""
    import json

    from cli_helpers import fails, ok

    spec = "seqsolve.frameworks.openspiel:ISMCTSBot:sims=8"
    one = ok("match", spec, "random", "--games", "2", "--seed", "5", "--jobs", "1", "--json")
    two = ok("match", spec, "random", "--games", "2", "--seed", "5", "--jobs", "2", "--json")
    first, second = json.loads(one), json.loads(two)
    for result in (first, second):
        del result["seconds"], result["games_per_s"]
    assert first == second and first["games"] == 2 and first["forfeits"] == []
    assert "Sequence only" in fails("match", spec, "random", "--variant", "stacks", "--games", "1")
