"""Regenerate the golden data that tests/games/sequence/test_golden.py checks (STYLE habit 8).

Run from the project folder::

    python tests/data/make_golden.py           # rewrite tests/data/perft.txt and tests/data/transcripts/
    python tests/data/make_golden.py --check   # recompute everything, compare, write nothing

**Perft** (``perft.txt``): full-information positions reached by seeded random play, each
with its leaf counts at depths 1-3.  Every count is computed twice, by the compiled core
(:meth:`State.perft`) and by the plain-Python reference (:func:`reference_perft`); the
script stops if they disagree.

**Transcripts** (``transcripts/*.txt``): seeded random games.  The game is
``State.new(rules, seed)`` and every action is ``moves[rng.integers(len(moves))]`` with
``moves = state.legal_moves()`` (RULES.md P-13 order) and ``rng =
numpy.random.default_rng(seed)`` (:func:`seeded_game`).

The perft convention is the chess one: the tree is expanded action by action (a dead-card
exchange is an action of its own, P-13), ``perft(0) = 1``, ``perft(1)`` is the number of
legal actions, and a game that ends before the last level has no leaves below it.

>>> from seqsolve.games.sequence.rules import parse_rules
>>> turns, state = seeded_game(parse_rules("classic", players=2), seed=0, max_turns=3)
>>> len(turns), state.turn
(3, 3)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from seqsolve.games.sequence.notation import parse_position, to_sqn
from seqsolve.games.sequence.rules import parse_rules
from seqsolve.games.sequence.state import State
from seqsolve.reference.game import RefGame

DATA = Path(__file__).resolve().parent
PERFT_FILE = DATA / "perft.txt"
TRANSCRIPTS = DATA / "transcripts"

PERFT_HEADER = """\
# Perft counts for seqsolve (RULES.md §1, §2.3; P-13 actions).
# Format: one line per count, <SQN>;<depth>;<count>
#   SQN   a full-information position (every hand and the draw pile listed, RULES.md §5.1)
#   depth actions deep: an exchange (~XX) is one action, a play (or pass) another
#   count leaves of the action tree at that depth; a finished game has no leaves below it
# Every count was computed by both the compiled core (State.perft) and the plain-Python
# reference (tests/data/make_golden.py: reference_perft), which agreed.
# Regenerate with: python tests/data/make_golden.py
"""


# ---------------------------------------------------------------------------
# playing


def seeded_game(rules, seed: int, max_turns: int | None = None) -> tuple[list[list[str]], State]:
    """The seeded random game of a transcript: its turns (each a list of P-12 actions) and the
    final state.  ``max_turns`` stops early (for examples)."""
    state = State.new(rules, seed=seed)
    rng = np.random.default_rng(seed)
    turns: list[list[str]] = []
    current: list[str] = []
    while not state.is_terminal() and (max_turns is None or len(turns) < max_turns):
        moves = state.legal_moves()
        move = moves[rng.integers(len(moves))]
        state.apply(move)
        current.append(str(move))
        if move.is_play or state.is_terminal():
            turns.append(current)
            current = []
    return turns, state


def reference_perft(game: RefGame, depth: int) -> int:
    """Leaves of the action tree ``depth`` actions deep, by the reference engine."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.clone()
        child.apply(move)
        if not child.is_over:
            total += reference_perft(child, depth - 1)
    return total


def _is_full_information(state: State) -> bool:
    return state.core.draw_known and all(255 not in state.core.hand(s) for s in range(state.rules.players))


def find_position(preset, players, teams, seed, wanted, overrides=None, prefix=()):
    """The first position of a seeded random game (as :func:`seeded_game` plays it) for which
    ``wanted(state)`` holds, before any reshuffle and with at least 3 cards left to draw (so
    perft to depth 3 never reshuffles); ``prefix`` (actions, or a function of the state giving
    them) is then applied to that position."""
    rules = parse_rules(preset, players=players, teams=teams)
    if overrides:
        rules = rules.replace(**overrides)
    state = State.new(rules, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal() and _is_full_information(state) and state.draw_pile_size() >= 4:
        if wanted(state):
            for move in prefix(state) if callable(prefix) else prefix:
                state.apply(move)
            return state.to_position()
        moves = state.legal_moves()
        state.apply(moves[rng.integers(len(moves))])
    raise LookupError(f"no wanted position in {preset} {players}p seed {seed}")


def _mover_has(state: State, *kinds: str) -> bool:
    moves = [str(m) for m in state.legal_moves()]
    hand = state.hand(state.current_player)
    checks = {
        "dead": any(m.startswith("~") for m in moves),
        "wild": any(c in ("JD", "JC") for c in hand),
        "remove": any(m[2] == "x" for m in moves if m[:2] in ("JS", "JH")),
        "win": any(_wins(state, m) for m in moves if not m.startswith("~")),
    }
    return all(checks[k] for k in kinds)


def _wins(state: State, move: str) -> bool:
    child = state.clone()
    child.apply(move)
    return child.is_terminal() and child.outcome().winner is not None


def _first_exchange(state: State) -> list[str]:
    return [next(str(m) for m in state.legal_moves() if str(m).startswith("~"))]


#: The perft positions: (label, preset, players, teams, seed, wanted, prefix, depths).
PERFT_POSITIONS = [
    ("fresh classic 2p, wild jacks on both sides", "classic", 2, None, 4, lambda s: True, (), (1, 2, 3)),
    ("fresh classic 3p", "classic", 3, None, 2, lambda s: True, (), (1, 2, 3)),
    ("fresh seed000 6p in 3 teams", "seed000", 6, 3, 3, lambda s: True, (), (1, 2, 3)),
    ("fresh numbers 4p, Plus and Minus in hand", "numbers", 4, None, 3, lambda s: True, (), (1, 2, 3)),
    ("mid-game classic 2p, turn 40", "classic", 2, None, 5, lambda s: s.turn >= 40, (), (1, 2, 3)),
    (
        "dead card to exchange, classic 2p",
        "classic",
        2,
        None,
        6,
        lambda s: _mover_has(s, "dead"),
        (),
        (1, 2, 3),
    ),
    (
        "two-eyed and one-eyed jack in hand, classic 4p",
        "classic",
        4,
        None,
        7,
        lambda s: _mover_has(s, "wild", "remove"),
        (),
        (1, 2, 3),
    ),
    ("draft 2p, turn 20", "draft", 2, None, 8, lambda s: s.turn >= 20, (), (1, 2, 3)),
    (
        "mid-turn after an exchange (Nx), classic 3p",
        "classic",
        3,
        None,
        9,
        lambda s: _mover_has(s, "dead"),
        _first_exchange,
        (1, 2, 3),
    ),
    (
        "a winning move on the board, classic 3p",
        "classic",
        3,
        None,
        10,
        lambda s: _mover_has(s, "win"),
        (),
        (1, 2, 3),
    ),
]


def perft_lines(check_reference: bool = True, verbose: bool = True) -> list[str]:
    lines = []
    for label, preset, players, teams, seed, wanted, prefix, depths in PERFT_POSITIONS:
        pos = find_position(preset, players, teams, seed, wanted, prefix=prefix)
        sqn = to_sqn(pos)
        assert parse_position(sqn) == pos
        lines.append(f"# {label}")
        for depth in depths:
            count = State.from_position(pos, seed=0).perft(depth)
            if check_reference:
                slow = reference_perft(RefGame.from_position(pos), depth)
                if slow != count:
                    raise SystemExit(f"perft {depth} differs (core {count}, reference {slow}) at {sqn}")
            lines.append(f"{sqn};{depth};{count}")
            if verbose:
                print(f"{label}: perft({depth}) = {count}", file=sys.stderr)
    return lines


# ---------------------------------------------------------------------------
# transcripts


def _summary(turns: list[list[str]], state: State) -> dict:
    actions = [a for turn in turns for a in turn]
    return {
        "end": state.outcome().termination.name,
        "exchanges": sum(a.startswith("~") for a in actions),
        "passes": actions.count("pass"),
        "removals": sum("x" in a for a in actions),
        "reshuffled": not state.core.draw_known,
    }


#: The transcript games: (file stem, variant, players, teams, first seed, wanted).  Each
#: file holds the first seed from ``first seed`` on whose game has the ``wanted`` features
#: (so that a change to the engine's shuffles does not silently lose them): reshuffles,
#: many exchanges and forced passes, three sides, the draft's end by count (D-4), a stall
#: and a turn cap (C-31).
TRANSCRIPT_GAMES = [
    ("classic-2p", "classic", 2, None, 11, lambda g: g["reshuffled"] and g["removals"] > 0),
    (
        "classic-3p",
        "classic",
        3,
        None,
        12,
        lambda g: g["reshuffled"] and g["passes"] > 0 and g["exchanges"] >= 5,
    ),
    ("seed000-4p", "seed000", 4, None, 13, lambda g: g["exchanges"] >= 20 and g["passes"] >= 10),
    ("seed002-literal-6p-3t", "seed002-literal", 6, 3, 14, lambda g: g["end"] == "WIN"),
    ("numbers-2p", "numbers", 2, None, 15, lambda g: g["end"] == "WIN" and g["exchanges"] > 0),
    ("draft-4p", "draft", 4, None, 16, lambda g: g["end"] == "DRAFT_END"),
    ("classic-12p-2t", "classic", 12, 2, 17, lambda g: g["reshuffled"]),
    ("classic-3p-stall", "classic[stall_limit=4]", 3, None, 30, lambda g: g["end"] == "STALL"),
    ("numbers-3p-turn-cap", "numbers[max_turns=60]", 3, None, 30, lambda g: g["end"] == "TURN_CAP"),
]


def pick_seed(variant, players, teams, first_seed, wanted) -> int:
    rules = parse_rules(variant, players=players, teams=teams)
    for seed in range(first_seed, first_seed + 1000):
        if wanted(_summary(*seeded_game(rules, seed))):
            return seed
    raise LookupError(f"no wanted game for {variant} {players}p from seed {first_seed}")


TRANSCRIPT_HEADER = """\
# seqsolve game transcript (regenerate with: python tests/data/make_golden.py)
# The game is State.new(parse_rules(variant, players, teams), seed); each action is
# moves[rng.integers(len(moves))] with moves = state.legal_moves() (P-13 order) and
# rng = numpy.random.default_rng(seed).  One turn per line: <turn> <seat> <actions (P-12)>.
"""


def transcript_text(stem, variant, players, teams, seed) -> str:
    rules = parse_rules(variant, players=players, teams=teams)
    turns, state = seeded_game(rules, seed)
    seat, lines = rules.first_seat, []
    for number, actions in enumerate(turns):
        lines.append(f"{number} {seat} {' '.join(actions)}")
        seat = (seat + 1) % rules.players
    outcome = state.outcome()
    head = [
        f"variant: {rules.variant}",
        f"players: {rules.players}",
        f"teams: {rules.teams}",
        f"seed: {seed}",
        f"turns: {len(turns)}",
        "moves:",
    ]
    tail = [f"final: {to_sqn(state.to_position())}", f"outcome: {outcome.termination.name} {outcome.result}"]
    return TRANSCRIPT_HEADER + "\n".join(head + lines + tail) + "\n"


def read_transcript(path: Path) -> dict:
    """A transcript file as a dict: variant, players, teams, seed, turns (their number),
    moves (a list of (turn, seat, [actions])), final (SQN) and outcome ((termination, result))."""
    out: dict = {"moves": []}
    in_moves = False
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(": ")
        if line == "moves:":
            in_moves = True
        elif key in ("final", "outcome"):
            in_moves = False
            out[key] = value if key == "final" else tuple(value.split())
        elif in_moves:
            number, seat, *actions = line.split()
            out["moves"].append((int(number), int(seat), actions))
        else:
            out[key] = value if key == "variant" else int(value)
    return out


# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="recompute and compare; write nothing")
    args = parser.parse_args(argv)
    files = {PERFT_FILE: PERFT_HEADER + "\n".join(perft_lines(verbose=not args.check)) + "\n"}
    for stem, variant, players, teams, first_seed, wanted in TRANSCRIPT_GAMES:
        seed = pick_seed(variant, players, teams, first_seed, wanted)
        files[TRANSCRIPTS / f"{stem}.txt"] = transcript_text(stem, variant, players, teams, seed)
    stale = [path for path, text in files.items() if not path.exists() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"out of date: {path}", file=sys.stderr)
        return 1 if stale else 0
    TRANSCRIPTS.mkdir(exist_ok=True)
    for path, text in files.items():
        path.write_text(text)
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
