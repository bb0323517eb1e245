"""The public API (``import seqsolve``): every exported name documented, a bot's move
in notation from any bot with or without a time budget, and the errors the command
line gives, as exceptions of one line."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from cli_helpers import fails

import seqsolve
from seqsolve import _HOMES

OPEN = "classic *8*/10/10/10/10/10/10/10/10/*8* bg 0 AS,2H,7H,AD,QD,8C,9C/?7 -/- - 90 0 0"


def test_all_is_every_lazy_name_and_each_resolves_with_a_docstring():
    assert sorted(seqsolve.__all__) == sorted([*_HOMES, "__version__"])
    for name in _HOMES:
        obj = getattr(seqsolve, name)
        doc = vars(obj).get("__doc__") if inspect.isclass(obj) else obj.__doc__
        assert doc and doc.strip(), name
        assert obj.__module__.startswith("seqsolve."), name


def test_every_public_function_has_a_doctest():
    """pytest runs them (--doctest-modules): the examples cannot drift from the code."""
    functions = [n for n in _HOMES if inspect.isfunction(getattr(seqsolve, n))]
    assert {"parse_state", "make_state", "best_move", "sequences_from_locked", "discard_piles"} <= set(
        functions
    )
    assert [n for n in functions if ">>>" not in getattr(seqsolve, n).__doc__] == []


def test_dir_offers_the_lazy_names():
    assert set(seqsolve.__all__) <= set(dir(seqsolve))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'make_bots'"):
        seqsolve.make_bots  # noqa: B018


def test_parse_state_is_the_file_reader():
    """P-11: the same checks and the same state as ``seqsolve show`` of a file."""
    state = seqsolve.parse_state(OPEN)
    assert state.hand(0) == ["AS", "2H", "7H", "AD", "QD", "8C", "9C"] and state.hand(1) == ["?"] * 7
    readable = seqsolve.parse_state(f"# a comment\n{OPEN}\n", source="game.sqn")
    assert readable.to_position() == state.to_position()
    with pytest.raises(seqsolve.PositionError, match=r"^game\.sqn:1:\d+: hand 0 holds 8 cards"):
        seqsolve.parse_state(OPEN.replace("9C/", "9C,9C/"), source="game.sqn")


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "heuristic", "mcts:iters=100", "rollout:worlds=4", "restricted:no=one_eyed"]
)
def test_every_bot_answers_with_a_legal_move_in_notation(spec):
    state = seqsolve.parse_state(OPEN)
    move = seqsolve.best_move(state, spec, seed=1)
    assert isinstance(move, seqsolve.Move)
    assert move in state.legal_moves()
    assert seqsolve.Move.from_str(str(move)) == move


def test_the_same_seed_gives_the_same_move():
    state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=5)
    moves = {str(seqsolve.best_move(state, "mcts:iters=300", seed=9)) for _ in range(3)}
    assert len(moves) == 1


def test_a_time_budget_gives_a_legal_move():
    state = seqsolve.parse_state(OPEN)
    for spec in ("mcts", "rollout:worlds=8", "heuristic"):
        assert seqsolve.best_move(state, spec, seconds=0.02, seed=1) in state.legal_moves()


def test_a_kept_bot_plays_a_whole_game():
    """A Bot from make_bot, started once per seat, answers every turn until the end."""
    state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=3)
    bots = [seqsolve.make_bot("greedy"), seqsolve.make_bot("heuristic")]
    for seat, bot in enumerate(bots):
        bot.start(state.rules, state.seats, seat)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        state.apply(seqsolve.best_move(state, bots[state.current_player], seed=rng))
    assert state.outcome() is not None


@pytest.mark.parametrize(
    "bot, seconds, message",
    [
        (
            "alphazero",
            None,
            "unknown bot 'alphazero' (known: random, greedy, heuristic, mcts, rollout, search, restricted, ext;",
        ),
        ("mcts:c=-1", None, "bot mcts: parameter c must be at least 0 and at most 10 (not -1)"),
        ("mcts:iters=0,work=0", None, "bot mcts: give iters, time or work"),
        ("mcts:time=1", 0.5, "bot 'mcts:time=1': the time is given twice (time= and seconds)"),
        ("mcts", float("nan"), "seconds must be a finite number above 0, not nan"),
        ("mcts", 0, "seconds must be a finite number above 0, not 0"),
        ("mcts", 10**6, "bot mcts: parameter time must be at least 0 and at most 86400 (not 1000000.0)"),
    ],
)
def test_a_bad_bot_is_a_one_line_bot_error(bot, seconds, message):
    with pytest.raises(seqsolve.BotError) as err:
        seqsolve.best_move(seqsolve.parse_state(OPEN), bot, seconds=seconds)
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_a_bad_bot_spec_says_what_the_command_line_says():
    state = seqsolve.parse_state(OPEN)
    for spec in ("alphazero", "mcts:c=-1", "heuristic:w_block=x"):
        with pytest.raises(seqsolve.BotError) as err:
            seqsolve.best_move(state, spec)
        assert fails("match", spec, "random", "--games", "2") == f"seqsolve: {err.value}"


def test_seconds_with_a_kept_bot_is_refused():
    with pytest.raises(seqsolve.BotError, match="seconds is for a bot spec"):
        seqsolve.best_move(seqsolve.parse_state(OPEN), seqsolve.make_bot("mcts"), seconds=1)


def test_no_move_when_the_game_is_over_or_the_movers_cards_are_hidden():
    over = seqsolve.make_state(
        ["*........*"] + ["." * 10] * 8 + ["*........*"], [7, 7], to_move=None, result="draw"
    )
    with pytest.raises(seqsolve.IllegalMoveError, match=r"^the game is over \(result draw\)$"):
        seqsolve.best_move(over, "random")
    hidden = seqsolve.parse_state(OPEN.replace("AS,2H,7H,AD,QD,8C,9C/", "?7/"))
    with pytest.raises(
        seqsolve.ArgumentError,
        match="^best_move: seat 0's cards are not all known: a bot needs its own hand$",
    ):
        seqsolve.best_move(hidden, "random")


def test_the_api_page_examples_run_and_the_readme_links_it():
    """docs/api.md's ```python blocks are doctests: the reference cannot drift."""
    import doctest
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 4
    test = doctest.DocTestParser().get_doctest("".join(blocks), {}, "docs/api.md", "docs/api.md", 0)
    report: list[str] = []
    result = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE).run(test, out=report.append)
    assert result.attempted >= 15 and result.failed == 0, "".join(report)
    assert "(docs/api.md)" in (root / "README.md").read_text(encoding="utf-8")


def test_an_open_bot_sees_the_whole_state_and_needs_every_card():
    """As in a match: a bot built to see every card (analysis only) is given the state."""
    full = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=4)
    assert seqsolve.best_move(full, "mcts:iters=100,open=1", seed=1) in full.legal_moves()
    with pytest.raises(
        seqsolve.ArgumentError,
        match=r"^best_move: bot mcts:iters=100,open=True sees every card \(open\), but some are unknown",
    ):
        seqsolve.best_move(seqsolve.parse_state(OPEN), "mcts:iters=100,open=1")
