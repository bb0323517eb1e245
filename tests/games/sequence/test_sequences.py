"""The package's own sequence rules (seqsolve.games.sequence.sequences) against the
reference's independent copy, on random boards (C-24, C-25, C-26)."""

from __future__ import annotations

import random

import pytest

from seqsolve.games.sequence.board import CORNERS, parse_cell, parse_window, windows, windows_through
from seqsolve.games.sequence.rules import UNLIMITED, parse_rules
from seqsolve.games.sequence.sequences import new_sequences, overlap_allows
from seqsolve.reference.sequences import eligible_windows, maximum_declarations
from seqsolve.reference.sequences import overlap_allows as reference_overlap_allows

OVERLAPS = [(0, UNLIMITED), (1, UNLIMITED), (1, 1), (2, 1), (4, 2), (4, UNLIMITED)]


def _rules(max_shared: int, reuse: int, corners: bool):
    return parse_rules("classic", players=2).replace(
        overlap_max_shared=max_shared, overlap_reuse_limit=reuse, corner_counts_as_shared=corners
    )


def _random_board(rng: random.Random, fill: float) -> list[str]:
    board = [rng.choice("bg") if rng.random() < fill else "." for _ in range(100)]
    for c in CORNERS:
        board[c] = "*"
    return board


@pytest.mark.parametrize("max_shared,reuse", OVERLAPS)
@pytest.mark.parametrize("corners", [False, True])
def test_c25_c26_agree_with_the_reference(max_shared, reuse, corners):
    rules = _rules(max_shared, reuse, corners)
    rng = random.Random(f"{max_shared}-{reuse}-{corners}")
    found_some = 0
    for _ in range(300):
        board = _random_board(rng, rng.choice([0.6, 0.8, 0.95]))
        colour = rng.choice("bg")
        cell = rng.choice([c for c in range(100) if c not in CORNERS])
        board[cell] = colour
        completed = [w for w in rng.sample(range(len(windows())), rng.randint(0, 3))]
        expected = maximum_declarations(
            eligible_windows(board, colour, cell, completed, rules), completed, rules
        )[0]
        assert new_sequences(board, colour, cell, completed, rules) == expected
        found_some += bool(expected)
        for w in windows_through()[cell]:
            assert overlap_allows(w, completed, rules) == reference_overlap_allows(w, completed, rules)
    assert found_some > 10  # the boards are full enough for sequences to form


def test_c26_declares_the_lexicographically_first_maximum_set():
    rules = _rules(1, UNLIMITED, False)
    board = ["."] * 100
    for c in CORNERS:
        board[c] = "*"
    for name in ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"]:
        board[parse_cell(name)] = "b"
    # the five windows through a5 all count; only a1-a5 and a5-a9 share at most one cell
    declared = new_sequences(board, "b", parse_cell("a5"), [], rules)
    assert declared == (parse_window("a1-a5"), parse_window("a5-a9"))
    # sharing nothing: one window, the first
    assert new_sequences(board, "b", parse_cell("a5"), [], _rules(0, UNLIMITED, False)) == (
        parse_window("a1-a5"),
    )
