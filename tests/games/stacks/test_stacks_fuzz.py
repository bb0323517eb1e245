"""Fuzzing Sequence Stacks files: STN lines and readable positions mutated character by
character and field by field, read by the game (``read_state``), ``show`` and
``analyze``; Stacks match records mutated move by move and key by key, read by
``replay`` and ``annotate``.

Whatever the damage, the reader gives a state or a :class:`PositionError`, and a
command succeeds or fails with exit 1 (2 for a usage error) and exactly one stderr
line starting ``seqsolve:``, never a traceback.  A state that is read writes back a
position that reads again to the same line.  Derandomized, no example database.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seqsolve.games import PositionError, read_state
from seqsolve.games.stacks.game import STACKS
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games


def fuzz(examples: int):
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


def _positions() -> list[str]:
    """STN lines of several kinds: docs' example, a deal with every card listed, a Block
    window, a reversed 3-player game with skip tokens, a finished game."""
    lines = ["stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"]
    for players, seed in ((2, 3), (3, 5), (4, 1)):
        state = STACKS.new_initial_state(STACKS.rules("stacks", players), seed=seed)
        seen = set()
        while not state.is_terminal():
            pos = state.to_position()
            kind = (pos.block_asked is not None, pos.direction, any(pos.skips), len(seen) == 0)
            if kind not in seen and (any(kind[:3]) or kind[3]):
                seen.add(kind)
                lines.append(STACKS.write_position(state))
            state.apply(state.random_action())
        lines.append(STACKS.write_position(state))
    return lines


POSITIONS = _positions()
READABLE = [STACKS.write_position(read_state(line), form="readable") for line in POSITIONS[:6]]
CHARS = st.sampled_from(
    list("0123456789 /,+-:?!<>=bkprBRWSKVCX*#[]\n\t") + ["B5", "RW", "?99999", "\x00", "é"]
)
TOKENS = st.sampled_from(
    [
        "-",
        "0",
        "99",
        "?",
        "?5",
        "B1",
        "B1+B2",
        "BW+B2+B3+B4+B5",
        "RV",
        "SK,SK,SK",
        "0b0r",
        "9b9r",
        "!0",
        "!=",
        "0<",
        "1>prk0",
        "0>k9",
        "stacks[max_turns=1]",
        "stacks[x=1]",
        "stacks[stacks_chip_supply=0]",
        "1:B1",
        "0:",
        "12:B1,B2",
        "4294967296",
        "-1",
    ]
)


@st.composite
def mutated(draw, sources: list[str]) -> str:
    text = draw(st.sampled_from(sources))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(["insert", "delete", "replace", "field", "field_swap", "field_drop", "line"])
        )
        if kind in ("insert", "delete", "replace"):
            at = draw(st.integers(0, len(text)))
            cut = 0 if kind == "insert" else 1
            text = text[:at] + ("" if kind == "delete" else draw(CHARS)) + text[at + cut :]
        elif kind == "line":
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i] = lines[j] if draw(st.booleans()) else ""
            text = "\n".join(lines)
        else:
            words = text.split(" ")
            i = draw(st.integers(0, len(words) - 1))
            if kind == "field":
                words[i] = draw(TOKENS)
            elif kind == "field_swap":
                j = draw(st.integers(0, len(words) - 1))
                words[i], words[j] = words[j], words[i]
            else:
                del words[i]
            text = " ".join(words)
    return text


def _read(text: str):
    """The state, or None when refused with a PositionError (nothing else may come out)."""
    try:
        state = read_state(text, "fuzz.stn")
    except PositionError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("fuzz.stn:")
        return None
    line = STACKS.write_position(state)
    assert STACKS.write_position(read_state(line)) == line  # what it writes reads back the same
    return state


def _one_line_or_ok(result) -> bool:
    assert isinstance(result.exception, (SystemExit, type(None))), repr(result.exception)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        return True
    assert result.exit_code in (1, 2), (result.exit_code, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seqsolve: "), result.stderr
    return False


@fuzz(400)
@given(text=mutated(POSITIONS))
def test_fuzz_stn_is_a_state_or_one_position_error(text):
    _read(text)


@fuzz(200)
@given(text=mutated(READABLE))
def test_fuzz_the_readable_form_is_a_state_or_one_position_error(text):
    _read(text)


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@fuzz(60)
@given(text=mutated(POSITIONS + READABLE))
def test_fuzz_show_and_analyze_give_a_position_or_one_line(work, text):
    path = work / "p.stn"
    path.write_text(text)
    state = None
    try:
        state = read_state(text)
    except PositionError:
        pass
    assert _one_line_or_ok(run("show", str(path))) == (state is not None)
    if state is not None and not state.is_terminal():
        _one_line_or_ok(run("analyze", str(path), "--iters", "5", "--seed", "1"))


# ---------------------------------------------------------------- records


class Files(dict):
    """Record files by name (a short repr: hypothesis prints it with a failing example)."""

    def __repr__(self) -> str:
        return f"Files({sorted(self)})"


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Files:
    folder = tmp_path_factory.mktemp("records")
    out = Files()
    for name, config, games in (
        ("stacks-2", MatchConfig(bots=("greedy", "random"), variant="stacks", seed=1), 2),
        (
            "stacks-3",
            MatchConfig(bots=("greedy", "random", "greedy"), variant="stacks", players=3, seed=2),
            3,
        ),
    ):
        path = folder / f"{name}.jsonl"
        run_games(config, games, jobs=1, out=str(path))
        out[name] = path.read_bytes()
    return out


MOVES = st.sampled_from(
    [
        "B1",
        "BW>0",
        "BW>9",
        "~B3",
        "^B4",
        "SC@0",
        "SC@7",
        "SX@1r",
        "SX@1z",
        "block",
        "pass",
        "end",
        "SK",
        "RV",
        "~BK",
        "B1 B2",
        "",
        "zz",
        "^SX@0b",
    ]
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=8),
    st.sampled_from(["stacks", "stacks[max_turns=1]", "classic", "draw", "0", "win", "forfeit"]),
    st.lists(st.integers(-2, 7), max_size=3),
)


@st.composite
def mutated_record(draw, records) -> bytes:
    lines = records[draw(st.sampled_from(sorted(records)))].rstrip(b"\n").split(b"\n")
    if draw(st.booleans()):  # the other file's header
        lines = [records[draw(st.sampled_from(sorted(records)))].split(b"\n")[0], *lines[1:]]
    at = draw(st.integers(1, len(lines) - 1))
    record = json.loads(lines[at])
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["move", "cut", "grow", "swap", "key"]))
        moves = record["moves"] if isinstance(record.get("moves"), list) and record["moves"] else None
        if kind == "key" or moves is None:
            record[draw(st.sampled_from(sorted(record)))] = draw(JUNK)
        elif kind == "move":
            moves[draw(st.integers(0, len(moves) - 1))] = draw(MOVES)
        elif kind == "cut":
            record["moves"] = moves[: draw(st.integers(0, len(moves) - 1))]
        elif kind == "grow":
            record["moves"] = moves + draw(st.lists(MOVES, min_size=1, max_size=3))
        else:
            i, j = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, len(moves) - 1))
            moves[i], moves[j] = moves[j], moves[i]
        if draw(st.booleans()) and isinstance(record.get("moves"), list):
            record["plies"] = len(record["moves"])
    lines[at] = json.dumps(record).encode()
    return b"\n".join(lines)


@fuzz(120)
@given(data=st.data(), game=st.integers(0, 3))
def test_fuzz_stacks_records_replay_or_one_line(records, work, data, game):
    path = work / "games.jsonl"
    path.write_bytes(data.draw(mutated_record(records)))
    _one_line_or_ok(run("replay", str(path), "--game", str(game)))
    _one_line_or_ok(run("replay", str(path), "--game", str(game), "--ply", "7", "--to", "readable"))


@fuzz(25)
@given(data=st.data(), game=st.integers(0, 2))
def test_fuzz_stacks_records_annotate_or_one_line(records, work, data, game):
    path = work / "games.jsonl"
    path.write_bytes(data.draw(mutated_record(records)))
    _one_line_or_ok(
        run("annotate", str(path), "--game", str(game), "--iters", "5", "--jobs", "1", "--no-progress")
    )
