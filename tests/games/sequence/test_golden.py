"""Golden data (STYLE habit 8): perft counts and seeded game transcripts in tests/data.

Both are written by ``tests/data/make_golden.py`` (run it to regenerate; its docstring says
how every number was made).  The perft counts were computed by the compiled core *and* the
plain-Python reference, which agreed; here the core is checked against the file and a few
counts are recomputed by the reference.  The transcripts pin whole seeded games: every
recorded action must be legal when it is played, the game must end in the recorded
position and outcome, and the seeded random playout must choose exactly those actions.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from seqsolve.games.sequence.notation import parse_position, to_sqn
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.reference.game import RefGame

DATA = Path(__file__).parents[2] / "data"


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_golden", DATA / "make_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


golden = _load_generator()


def _perft_lines() -> tuple[list[tuple[str, int, int]], dict[str, str]]:
    """The ``<SQN>;<depth>;<count>`` lines, and each position's label (the comment above it)."""
    lines, labels, label = [], {}, ""
    for raw in (DATA / "perft.txt").read_text().splitlines():
        if raw.startswith("# ") and ";" not in raw:
            label = raw[2:].split(",")[0].replace(" ", "-")
        elif raw.strip() and not raw.startswith("#"):
            sqn, depth, count = raw.rsplit(";", 2)
            lines.append((sqn, int(depth), int(count)))
            labels[sqn] = label
    return lines, labels


PERFT, PERFT_LABELS = _perft_lines()
TRANSCRIPTS = sorted((DATA / "transcripts").glob("*.txt"))


def _perft_id(line) -> str:
    return f"{PERFT_LABELS[line[0]]}-d{line[1]}"


# ---------------------------------------------------------------------------
# perft


def test_perft_file_covers_what_it_promises():
    """At least 8 full-information positions, each at depths 1-3 (draft included, mid-turn included)."""
    positions = {sqn: parse_position(sqn) for sqn, _, _ in PERFT}
    assert len(positions) >= 8
    for sqn, pos in positions.items():
        assert all(h.unknown == 0 for h in pos.hands), sqn
        assert pos.draw_cards is not None and pos.result is None, sqn
        assert sorted(d for s, d, _ in PERFT if s == sqn) == [1, 2, 3], sqn
    assert any(p.rules.draw_mode == "draft" for p in positions.values())
    assert any(p.exchange_used for p in positions.values())
    assert {p.rules.preset for p in positions.values()} >= {"classic", "seed000", "numbers", "draft"}


@pytest.mark.parametrize("line", PERFT, ids=_perft_id)
def test_perft_core_matches_the_file(line):
    """P-13 move generation and apply, counted to depth 3, against the golden counts."""
    sqn, depth, count = line
    state = State.from_position(parse_position(sqn), seed=0)
    assert state.perft(depth) == count, f"perft({depth}) of {sqn}"
    if depth == 1:
        assert len(state.legal_moves()) == count


#: The counts the reference recomputes here: every one at depth 2 or 3 up to 12,000 leaves
#: (a couple of seconds in all; the generator checked the rest).  They include a dead card,
#: a mid-turn position, a winning move (a finished game has no leaves below it), the draft,
#: Plus and Minus, and both kinds of jack.
REFERENCE_CHECKED = [line for line in PERFT if line[1] >= 2 and line[2] <= 12_000]


@pytest.mark.parametrize("line", REFERENCE_CHECKED, ids=_perft_id)
def test_perft_reference_matches_the_file(line):
    """The slow reference agrees with the golden counts (and so with the core)."""
    sqn, depth, count = line
    game = RefGame.from_position(parse_position(sqn))
    assert golden.reference_perft(game, depth) == count, f"reference perft({depth}) of {sqn}"


# ---------------------------------------------------------------------------
# transcripts


def test_transcripts_cover_several_variants_and_endings():
    games = [golden.read_transcript(path) for path in TRANSCRIPTS]
    assert len(games) >= 6
    assert len({(g["variant"], g["players"], g["teams"]) for g in games}) == len(games)
    endings = {g["outcome"][0] for g in games}
    assert {"WIN", "STALL", "TURN_CAP", "DRAFT_END"} <= endings
    actions = [a for g in games for _, _, acts in g["moves"] for a in acts]
    assert any(a.startswith("~") for a in actions) and "pass" in actions
    assert any("x" in a for a in actions) and any("+" in a for a in actions)


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_transcript_replays_legally_to_the_recorded_end(path):
    """Every recorded action is legal when played (P-13), turn numbers and seats follow C-8 and
    C-18, and the game ends in the recorded position (§5) with the recorded outcome (C-31)."""
    game = golden.read_transcript(path)
    rules = parse_rules(game["variant"], players=game["players"], teams=game["teams"])
    state = State.new(rules, seed=game["seed"])
    assert len(game["moves"]) == game["turns"]
    for number, seat, actions in game["moves"]:
        assert not state.is_terminal(), f"{path.name}: the game is over before turn {number}"
        assert (state.turn, state.current_player) == (number, seat), f"{path.name}: turn {number}"
        for action in actions:
            legal = [str(m) for m in state.legal_moves()]
            assert action in legal, (
                f"{path.name} turn {number}: {action} is not legal at {to_sqn(state.to_position())}"
            )
            state.apply(action)
    assert state.is_terminal(), f"{path.name}: the game goes on after the last recorded turn"
    assert to_sqn(state.to_position()) == game["final"]
    assert parse_position(game["final"]) == state.to_position()
    outcome = state.outcome()
    assert (outcome.termination.name, outcome.result) == game["outcome"]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_transcript_whole_turns_replay(path):
    """P-12/P-16: the same game played one whole turn at a time (``"~5S 9H@i3"`` as one move)."""
    game = golden.read_transcript(path)
    rules = parse_rules(game["variant"], players=game["players"], teams=game["teams"])
    state = State.new(rules, seed=game["seed"])
    for _, _, actions in game["moves"]:
        state.apply(" ".join(actions))
    assert to_sqn(state.to_position()) == game["final"]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_seeded_playout_reproduces_the_transcript(path):
    """STYLE habit 6: the seed alone gives the same deal, shuffles and random choices, so the
    generator rewrites the file byte for byte."""
    game = golden.read_transcript(path)
    rules = parse_rules(game["variant"], players=game["players"], teams=game["teams"])
    turns, state = golden.seeded_game(rules, game["seed"])
    assert turns == [actions for _, _, actions in game["moves"]]
    assert to_sqn(state.to_position()) == game["final"]
    stem, variant, players, teams, _, wanted = next(g for g in golden.TRANSCRIPT_GAMES if g[0] == path.stem)
    assert golden.transcript_text(stem, variant, players, teams, game["seed"]) == path.read_text()
    assert wanted(golden._summary(turns, state)), "the game no longer shows what it was chosen for"
