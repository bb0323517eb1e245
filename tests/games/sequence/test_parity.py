"""Parity: the compiled core against the plain-Python reference (STYLE habit 9).

Both engines start from the same full-information :class:`Position` and are fed the same
moves; after every move they must agree on everything a position file records, and at
every position on the legal moves (RULES.md P-13: the same strings in the same order).

* **Random play** under every preset and every seating it allows (C-6, §2.2), seeded, up
  to the first reshuffle (C-29: the core shuffles with numpy, the reference with
  ``random.Random``, so their draw piles part ways there).
* **Through reshuffles**: the same, but at a reshuffle both must agree on everything except
  the new pile's order, and the reference is then re-synchronised to the core's order.
  This reaches what short games do not: frozen boards, stalls, turn caps (C-31).
* **Option variants** (§2.1, §2.3): exchanges, voluntary passes, deck exhaustion, the
  colour jacks, the draft, small stall and turn limits.
* **Dense boards** for the sequence rules C-24..C-28: long lines of one colour filled in a
  random order, crossings, removals, explicit declarations, under every overlap option;
  ``declarations(cell)`` is compared on every empty cell.

Everything is seeded (``ROOT_SEED`` and the test's parameters); a failure names the SQN of
the position where the engines parted, the move, and the fields that differ.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, replace

import numpy as np
import pytest
from state_helpers import SEATINGS, preset_configs

from seqsolve.games.sequence.board import CORNERS, cell_name, parse_cell, parse_window, window_name
from seqsolve.games.sequence.cards import CardKind
from seqsolve.games.sequence.moves import Move, MoveKind
from seqsolve.games.sequence.notation import to_sqn
from seqsolve.games.sequence.position import Hand, Position
from seqsolve.games.sequence.rules import PRESETS, UNLIMITED, max_sequences, parse_rules
from seqsolve.games.sequence.state import State, Termination
from seqsolve.reference.game import RefGame

ROOT_SEED = 20_250_611

#: Every seating of C-6 (players, teams); None = the default for that count.


#: (preset, players, teams) for every preset and every seating it allows.
CONFIGS = preset_configs()

#: Positions compared per configuration in the random-play test (41 configurations: 20,500).
POSITIONS_PER_CONFIG = 500

# The reference names terminations with strings (RefGame.termination).
_TERMINATION = {
    Termination.WIN: "win",
    Termination.FROZEN: "frozen",
    Termination.STALL: "stall",
    Termination.TURN_CAP: "turn_cap",
    Termination.DECK_EXHAUSTED: "deck_exhausted",
    Termination.DRAFT_END: "deck_exhausted",
}


def _ident(config) -> str:
    preset, players, teams = config
    return f"{preset}-{players}p" + (f"-{teams}t" if teams else "")


def test_every_preset_and_seating_is_covered():
    """C-6 and §2.2: the configurations above are all that the rules allow, and all are used."""
    by_preset = Counter(p for p, _, _ in CONFIGS)
    assert set(by_preset) == set(PRESETS)
    assert by_preset["classic"] == by_preset["seed002-literal"] == len(SEATINGS)
    assert by_preset["seed000"] == by_preset["numbers"] == by_preset["numbers-seed001-literal"] == 5
    assert by_preset["draft"] == 6  # two sides only (D-2): 2, 4, 6, 8, 10, 12 players
    assert len(CONFIGS) * POSITIONS_PER_CONFIG >= 10_000


# ---------------------------------------------------------------------------
# comparing the engines


def position_diff(got: Position, want: Position) -> str:
    """The fields on which two positions differ, one per line (for failure messages)."""
    lines = []
    for f in fields(Position):
        a, b = getattr(got, f.name), getattr(want, f.name)
        if a != b:
            if f.name == "board":
                cells = [
                    f"{cell_name(c)}: core {x!r} ref {y!r}" for c, (x, y) in enumerate(zip(a, b)) if x != y
                ]
                lines.append("board " + ", ".join(cells))
            else:
                lines.append(f"{f.name}: core {a!r}\n{' ' * len(f.name)}   ref  {b!r}")
    return "\n".join(lines)


def check_moves(state: State, ref: RefGame, where: str) -> list[str]:
    """P-13: the same legal moves, as strings, in the same order; returns them."""
    got = [str(m) for m in state.legal_moves()]
    want = ref.legal_moves()
    if got != want:
        only_core = [m for m in got if m not in want]
        only_ref = [m for m in want if m not in got]
        pytest.fail(
            f"legal moves differ {where}\n  at {to_sqn(state.to_position())}\n"
            f"  only core: {only_core}\n  only reference: {only_ref}\n"
            f"  (same set, different order: {not only_core and not only_ref})"
        )
    return got


def check_same(state: State, ref: RefGame, before: Position, move: str, where: str) -> None:
    """After ``move`` from ``before``: the same position (board, locks, sequences, hands,
    discards, draw pile, draft, counters, result) and the same termination."""
    got, want = state.to_position(), ref.to_position()
    if got != want:
        pytest.fail(
            f"positions differ {where} after {move}\n  from {to_sqn(before)}\n{position_diff(got, want)}"
        )
    index = state.rules.deck_cards.index
    for seat, taken in enumerate(ref.public):  # D-5: the takes everyone saw, not in a position file
        assert state.public_hand(seat) == sorted(taken, key=index), (
            f"seat {seat}'s takes {where} after {move}"
        )
    if state.is_terminal():
        assert _TERMINATION[state.outcome().termination] == ref.termination, (
            f"termination {where} after {move}"
        )


def check_declarations(state: State, ref: RefGame, cells, where: str) -> int:
    """C-26: every maximum declaration, canonical first, for a chip of the mover on each cell."""
    for cell in cells:
        got, want = state.declarations(cell), ref.declarations(cell)
        if got != want:
            pytest.fail(
                f"declarations on {cell_name(cell)} differ {where}\n  at {to_sqn(state.to_position())}\n"
                f"  core {_names(got)}\n  ref  {_names(want)}"
            )
    return len(cells)


def _names(declarations) -> list[list[str]]:
    return [[window_name(w) for w in d] for d in declarations]


def placement_cells(moves: list[str], rng: np.random.Generator, limit: int = 8) -> list[int]:
    """A sample of the distinct cells the mover may place a chip on."""
    cells = sorted({m.cell for m in map(Move.from_str, moves) if m.kind is MoveKind.PLACE})
    if len(cells) > limit:
        cells = sorted(rng.choice(cells, size=limit, replace=False).tolist())
    return cells


def reshuffle_due(state: State) -> bool:
    """The next card drawn would come from a reshuffle (C-29), where the engines' RNGs part."""
    return state.rules.deck_exhaustion == "reshuffle" and state.draw_pile_size() == 0


def play_in_parity(rules, seed: int, rng: np.random.Generator, budget: int, through_reshuffles=False) -> dict:
    """One seeded random game played by both engines; returns counts of what was compared."""
    state = State.new(rules, seed=seed)
    ref = RefGame.from_position(state.to_position())
    stats = Counter()
    where = f"({rules.variant}, {rules.players}p/{rules.teams}t, deal seed {seed})"
    while not state.is_terminal() and stats["positions"] < budget:
        moves = check_moves(state, ref, where)
        stats["positions"] += 1
        if stats["positions"] % 4 == 0:
            stats["declarations"] += check_declarations(state, ref, placement_cells(moves, rng), where)
        shuffling = reshuffle_due(state)
        if shuffling and not through_reshuffles:
            stats["stopped_at_reshuffle"] += 1
            break
        before = state.to_position()
        move = moves[rng.integers(len(moves))]
        state.apply(move)
        ref.apply(move)
        if shuffling and not state.core.draw_known:
            resync_after_reshuffle(state, ref, before, move, where)
            stats["reshuffles"] += 1
        check_same(state, ref, before, move, where)
    assert state.is_terminal() == ref.is_over
    if state.is_terminal():
        stats["finished"] += 1
        stats[f"end:{ref.termination}"] += 1
    return stats


def resync_after_reshuffle(state: State, ref: RefGame, before: Position, move: str, where: str) -> None:
    """C-29 happened in both engines: everything but the new pile's order (and the card the mover
    took from it) must agree; then the reference takes over the core's order."""
    seat = before.to_move
    codes = state.rules.deck_cards.codes
    core = state.core
    pile = [codes[c] for c in core.draw_pile()]
    hand = [codes[c] for c in core.hand(seat)]
    draft = None if ref.draft is None else [codes[c] for c in core.draft()]
    # the mover's hand, the pile and the draft hold the same cards in both engines ...
    mine = Counter(pile + hand + (draft or []))
    theirs = Counter(ref.draw_pile + ref.hands[seat] + (ref.draft or []))
    assert mine == theirs, f"reshuffle {where} after {move} from {to_sqn(before)}: cards differ"
    assert len(pile) == len(ref.draw_pile) and ref.draw_known is False
    # ... and once the reference uses the core's order, the whole position must agree.
    ref.draw_pile = pile
    ref.hands[seat] = sorted(hand, key=state.rules.deck_cards.index)
    if draft is not None:
        ref.draft = sorted(draft, key=state.rules.deck_cards.index)


# ---------------------------------------------------------------------------
# random play


@pytest.mark.parametrize("config", CONFIGS, ids=_ident)
def test_random_play_parity(config):
    """P-13 and C-12..C-31: random games from fresh deals, every preset and seating."""
    preset, players, teams = config
    rules = parse_rules(preset, players=players, teams=teams)
    index = CONFIGS.index(config)
    rng = np.random.default_rng([ROOT_SEED, index])
    total = Counter()
    game = 0
    while total["positions"] < POSITIONS_PER_CONFIG:
        total += play_in_parity(
            rules,
            seed=ROOT_SEED + 1000 * index + game,
            rng=rng,
            budget=POSITIONS_PER_CONFIG - total["positions"],
        )
        game += 1
    assert total["positions"] >= POSITIONS_PER_CONFIG
    assert total["declarations"] > 0


#: Option variants of §2.1/§2.3, each (base preset, players, overrides).
OPTION_VARIANTS = [
    ("classic", 2, {"dead_card_exchanges_per_turn": UNLIMITED}),
    ("classic", 3, {"dead_card_exchanges_per_turn": 0}),
    ("seed000", 4, {"dead_card_exchanges_per_turn": 2}),
    ("classic", 2, {"allow_voluntary_pass": True}),
    ("numbers", 3, {"allow_voluntary_pass": True, "dead_card_exchanges_per_turn": UNLIMITED}),
    ("classic", 2, {"deck_exhaustion": "draw_game"}),
    ("classic", 3, {"deck_exhaustion": "draft_end"}),
    ("classic", 4, {"jack_identity": "colour"}),
    ("classic", 3, {"first_seat": 2}),
    ("classic", 2, {"stall_limit": 2}),
    ("numbers", 2, {"max_turns": 30}),
    ("classic", 3, {"corner_counts_as_shared": False, "sequences_to_win": 3}),
    ("classic", 2, {"overlap_max_shared": 0, "sequences_to_win": 4}),
    ("seed000", 2, {"overlap_reuse_limit": 2, "sequences_to_win": 5}),
    ("classic", 2, {"heart_rule": "on"}),
    ("draft", 2, {"deck_exhaustion": "reshuffle"}),
    ("draft", 4, {"deck_exhaustion": "draw_game", "draft_size": 2}),
    ("draft", 2, {"draft_size": 1, "heart_rule": "off"}),
    ("classic", 2, {"draw_mode": "draft", "draft_size": 3}),
    ("classic", 2, {"bonus_cards": 3}),
    ("classic", 3, {"hand_bonus": 2, "first_seat": 1}),  # K-1
    ("draft", 2, {"hand_bonus": 1}),  # K-1
    ("classic", 2, {"first_turn_jacks": "off"}),  # K-2
    ("seed000", 3, {"first_turn_jacks": "off", "hand_bonus": 1}),  # K-1, K-2
    ("classic", 3, {"first_turn_short": 2, "first_seat": 1}),  # K-3
    ("seed000", 2, {"first_turn_short": 1, "hand_bonus": 1, "first_turn_jacks": "off"}),  # K-1, K-2, K-3
    ("classic", 3, {"head_start": 4, "first_seat": 1}),  # K-5
    ("draft", 2, {"head_start": 2}),  # K-5
    ("classic", 3, {"head_start": 4, "head_start_edge": "on", "first_seat": 2}),  # K-6
    ("classic", 2, {"head_start": 2, "head_start_edge": "on", "first_turn_short": 1}),  # K-3, K-6
    ("draft", 2, {"first_turn_short": 1}),  # K-3 in the draft: the fill from the draw pile
    ("draft", 2, {"hand_bonus": 1, "first_turn_short": 1}),  # K-1, K-3
    ("draft", 4, {"first_turn_short": 2, "first_seat": 1, "deck_exhaustion": "draw_game"}),  # K-3
]


@pytest.mark.parametrize("index", range(len(OPTION_VARIANTS)))
def test_option_variant_parity(index):
    """§2.1 and §2.3 options, one or two at a time, played to the end of the game or the first reshuffle."""
    preset, players, changes = OPTION_VARIANTS[index]
    rules = parse_rules(preset, players=players).replace(**changes)
    rng = np.random.default_rng([ROOT_SEED, 100 + index])
    total = Counter()
    for game in range(4):
        total += play_in_parity(rules, seed=ROOT_SEED + 77 * index + game, rng=rng, budget=10_000)
    assert total["positions"] >= 100


#: Whole games through reshuffles: (preset, players, teams, overrides, games).
LONG_GAMES = [
    ("classic", 2, None, {}, 4),
    ("classic", 3, None, {"stall_limit": 20}, 4),
    ("seed000", 6, 3, {}, 2),
    ("numbers", 4, None, {"max_turns": 400}, 4),
    ("seed002-literal", 12, 2, {}, 4),
    ("draft", 2, None, {"deck_exhaustion": "reshuffle", "max_turns": 500}, 4),
    # max_sequences(s): more sequences than that never fit on the board, so nobody wins
    ("classic", 2, None, {"sequences_to_win": max_sequences(1), "stall_limit": 40}, 2),
    ("numbers-seed001-literal", 3, None, {"sequences_to_win": max_sequences(4), "max_turns": 1500}, 1),
]


@pytest.mark.parametrize("players", [2, 4])
def test_parity_to_the_draft_end(players):
    """D-4: draft games nobody can win end the moment a take empties the draft, in both engines
    at the same action (an exchange included) and with the same count of sequences."""
    rules = parse_rules("draft", players=players).replace(sequences_to_win=max_sequences(1))
    rng = np.random.default_rng([ROOT_SEED, 300 + players])
    total = Counter()
    for game in range(3):
        total += play_in_parity(rules, seed=ROOT_SEED + 53 * players + game, rng=rng, budget=100_000)
    assert total["finished"] == total["end:deck_exhausted"] == 3


@pytest.mark.parametrize("index", range(len(LONG_GAMES)))
def test_parity_through_reshuffles(index):
    """C-29, C-31: whole games; at each reshuffle the engines agree on all but the new order,
    and the games end by a win, a stall or the turn cap exactly when the reference says."""
    preset, players, teams, changes, games = LONG_GAMES[index]
    rules = parse_rules(preset, players=players, teams=teams).replace(**changes)
    rng = np.random.default_rng([ROOT_SEED, 200 + index])
    total = Counter()
    for game in range(games):
        total += play_in_parity(
            rules, seed=ROOT_SEED + 31 * index + game, rng=rng, budget=100_000, through_reshuffles=True
        )
    assert total["finished"] == games
    if rules.sequences_to_win == max_sequences(
        rules.overlap_max_shared
    ):  # nobody wins: the pile runs out again and again
        assert total["reshuffles"] >= 3
        assert total["end:win"] == 0


def test_frozen_board_parity():
    """C-31.2: a placement that locks the last unlocked chip on a full board freezes it (a draw)."""
    rules = parse_rules("classic", players=2).replace(sequences_to_win=max_sequences(1))
    board = []
    for row in range(10):
        colour = "BG"[row % 2]
        board += ["*" if 10 * row + c in CORNERS else colour for c in range(10)]
    sequences = []
    for row in range(10):
        sequences += [
            ("bg"[row % 2], parse_window(f"a{row + 1}-e{row + 1}")),
            ("bg"[row % 2], parse_window(f"f{row + 1}-j{row + 1}")),
        ]
    # row 5 (blue): f5-i5 unlocked, j5 empty, f5-j5 not yet a sequence
    for c in range(45, 49):
        board[c] = "b"
    board[49] = "."
    sequences.remove(("b", parse_window("f5-j5")))
    pos = Position(
        rules=rules,
        seats="bg",
        board=tuple(board),
        to_move=0,
        hands=(Hand(("JD", "2S")), Hand(("3S",))),
        discards=((), ()),
        sequences=tuple(sequences),
        draw_count=2,
        draw_cards=("4S", "5S"),
        turn=100,
        stall=3,
    )
    state, ref = State.from_position(pos), RefGame.from_position(pos)
    moves = check_moves(state, ref, "(frozen)")
    assert moves == ["JD@j5", "~2S"]
    state.apply("JD@j5")
    ref.apply("JD@j5")
    check_same(state, ref, pos, "JD@j5", "(frozen)")
    assert state.outcome().termination is Termination.FROZEN and ref.termination == "frozen"


# ---------------------------------------------------------------------------
# dense boards: long lines, crossings and declarations (C-24..C-28)


def _lines() -> list[list[int]]:
    """Every full straight line of the board at least 5 cells long (rows, columns, diagonals)."""
    lines = []
    for i in range(10):
        lines.append([10 * i + c for c in range(10)])
        lines.append([10 * r + i for r in range(10)])
    for d in range(-5, 6):
        lines.append([10 * r + r + d for r in range(10) if 0 <= r + d < 10])
        lines.append([10 * r + 9 - r - d for r in range(10) if 0 <= 9 - r - d < 10])
    return [line for line in lines if len(line) >= 5]


LINES = _lines()

#: Overlap options of C-25 (base preset, overrides).
OVERLAP_VARIANTS = [
    ("classic", {}),
    ("seed000", {}),
    ("seed002-literal", {}),
    ("numbers-seed001-literal", {}),
    ("classic", {"overlap_max_shared": 0}),
    ("classic", {"overlap_max_shared": 2}),
    ("classic", {"overlap_max_shared": 3}),
    ("classic", {"corner_counts_as_shared": False}),
    ("classic", {"overlap_reuse_limit": 1}),
    ("seed000", {"overlap_reuse_limit": 2}),
    ("seed000", {"corner_counts_as_shared": False}),
    ("seed002-literal", {"overlap_reuse_limit": 1}),
]


def dense_game(rules, rng: np.random.Generator, steps: int, stats: Counter) -> None:
    """Fill straight lines cell by cell, mostly with one side's chips, through both engines.

    Before each placement the mover holds a wild card, a remove card and five random normal
    cards (so dead cards come up on a crowded board); the legal moves and the declarations on
    every empty cell are compared, then the mover places a wild chip on the next cell of the
    current line (with a random maximum declaration, written out half of the time) or, now
    and then, removes an opposing chip lying on it.
    """
    deck = rules.deck_cards
    wild = next(c for c in deck.codes if deck.kind(c) == CardKind.WILD)
    remove = next(c for c in deck.codes if deck.kind(c) == CardKind.REMOVE)
    normal = [c for c in deck.codes if deck.kind(c) == CardKind.NORMAL]
    seats = "bgr"[: rules.teams] * (rules.players // rules.teams)
    pos = Position(
        rules=rules,
        seats=seats,
        board=tuple("*" if c in CORNERS else "." for c in range(100)),
        to_move=0,
        hands=tuple(Hand() for _ in seats),
        discards=tuple(() for _ in seats),
    )
    favourite = int(rng.integers(rules.teams))
    todo: list[int] = []
    for _ in range(steps):
        if pos.result is not None:
            stats["wins"] += 1
            return
        if not todo:
            todo = rng.permutation(LINES[rng.integers(len(LINES))]).tolist()
        seat = favourite if rng.random() < 0.65 else int(rng.integers(rules.teams))
        hand = [wild, remove] + [normal[i] for i in rng.integers(len(normal), size=5)]
        draw = tuple(normal[i] for i in rng.integers(len(normal), size=5))
        hands = tuple(
            Hand(tuple(sorted(hand, key=deck.index))) if s == seat else h for s, h in enumerate(pos.hands)
        )
        pos = replace(
            pos, to_move=seat, hands=hands, draw_count=len(draw), draw_cards=draw, exchange_used=False
        )
        state, ref = State.from_position(pos, seed=0), RefGame.from_position(pos)
        where = f"(dense, {rules.variant}, {rules.players}p)"
        check_moves(state, ref, where)
        stats["positions"] += 1
        empties = [c for c in range(100) if pos.board[c] == "."]
        stats["declarations"] += check_declarations(state, ref, empties, where)
        move = None
        while todo and move is None:
            cell = todo.pop()
            token = pos.board[cell]
            if token == ".":
                options = state.declarations(cell)
                stats["multiple_choices"] += len(options) > 1
                stats["several_at_once"] += len(options[0]) > 1
                chosen = options[rng.integers(len(options))]
                move = f"{wild}@{cell_name(cell)}"
                if chosen and (chosen != options[0] or rng.random() < 0.5):
                    move += "=" + ",".join(window_name(w) for w in chosen)
            elif token in "bgr" and token != seats[seat] and rng.random() < 0.3:
                move = f"{remove}x{cell_name(cell)}"
                stats["removals"] += 1
        if move is None:
            if not empties:
                return
            move = f"{wild}@{cell_name(empties[rng.integers(len(empties))])}"
        state.apply(move)
        ref.apply(move)
        check_same(state, ref, pos, move, where)
        pos = state.to_position()
        stats["sequences"] = max(stats["sequences"], len(pos.sequences))


@pytest.mark.parametrize("index", range(len(OVERLAP_VARIANTS)))
def test_dense_boards_declarations_parity(index):
    """C-24..C-28 on crowded boards: long runs, crossings, removals, explicit declarations."""
    preset, changes = OVERLAP_VARIANTS[index]
    rng = np.random.default_rng([ROOT_SEED, 300 + index])
    stats = Counter()
    for board in range(7):
        players = (2, 3, 4)[board % 3]
        rules = parse_rules(preset, players=players)
        # mostly a game that never ends, so lines get long; sometimes the real target, so wins happen
        shared = changes.get("overlap_max_shared", rules.overlap_max_shared)
        target = rules.sequences_to_win if board % 3 == 2 else max_sequences(shared)
        rules = rules.replace(stall_limit=0, max_turns=0, sequences_to_win=target, **changes)
        dense_game(rules, rng, steps=int(rng.integers(60, 90)), stats=stats)
    assert stats["positions"] >= 200
    assert stats["declarations"] >= 5_000
    assert stats["sequences"] >= 3


def test_dense_boards_exercise_choices():
    """The dense test is not vacuous: maximum declarations with several choices and several
    windows at once (C-26 step 3, C-28) come up under the default and the literal overlap."""
    stats = Counter()
    for index in (0, 2):
        preset, changes = OVERLAP_VARIANTS[index]
        rng = np.random.default_rng([ROOT_SEED, 400 + index])
        rules = parse_rules(preset, players=2)
        shared = changes.get("overlap_max_shared", rules.overlap_max_shared)
        rules = rules.replace(stall_limit=0, max_turns=0, sequences_to_win=max_sequences(shared), **changes)
        for _ in range(3):
            dense_game(rules, rng, steps=80, stats=stats)
    assert stats["multiple_choices"] > 0
    assert stats["several_at_once"] > 0
    assert stats["removals"] > 0


@pytest.mark.parametrize(
    ("preset", "changes", "centre", "choices"),
    [
        ("classic", {}, "d4", 192),
        ("seed000", {}, "d4", 84),
        ("classic", {"overlap_max_shared": 0}, "d4", 15),
        ("classic", {"corner_counts_as_shared": False}, "b2", 8),
    ],
)
def test_declarations_with_many_maximum_choices(preset, changes, centre, choices):
    """C-26 steps 2-3: every line through one empty cell is full of blue chips, so a chip there
    completes windows in four directions with many maximum choices (more than any fixed-size
    buffer of 64); the engines list the same ones in the same order, and accept the last."""
    shared = changes.get("overlap_max_shared", parse_rules(preset, players=2).overlap_max_shared)
    rules = parse_rules(preset, players=2).replace(sequences_to_win=max_sequences(shared), **changes)
    cell = parse_cell(centre)
    board = ["*" if c in CORNERS else "." for c in range(100)]
    for line in LINES:
        if cell in line:
            for c in line:
                if c not in CORNERS:
                    board[c] = "b"
    board[cell] = "."
    pos = Position(
        rules=rules,
        seats="bg",
        board=tuple(board),
        to_move=0,
        hands=(Hand(("JD",)), Hand()),
        discards=((), ()),
        draw_count=1,
        draw_cards=("2S",),
    )
    state, ref = State.from_position(pos), RefGame.from_position(pos)
    check_declarations(state, ref, [cell], "(star)")
    options = state.declarations(cell)
    assert len(options) == choices
    last = options[-1]
    move = f"JD@{centre}=" + ",".join(window_name(w) for w in last)
    state.apply(move)
    ref.apply(move)
    check_same(state, ref, pos, move, "(star)")
    assert [w for _, w in state.sequences()] == sorted(last)
