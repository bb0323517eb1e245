"""Fuzzing record files (issue 11): real ``--out`` files of several variants and
seatings (one with a forfeit, one of Sequence Stacks) and records of ``seqsolve play``
(a game left unfinished, a game played out), mutated line by line, key by key and
byte by byte (games swapped, a winner the moves do not give, another game's header),
then read by ``replay``, ``replay --ply``, ``annotate`` and a resumed ``match``.

Whatever the damage, a command succeeds, or fails with exit 1 (2 for a usage error)
and exactly one stderr line starting ``seqsolve:``, nothing on stdout, and the file's
bytes unchanged.  A resumed match that succeeds leaves a file whose games replay.
Derandomized, no example database: every run tries the same inputs.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import fails, run
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from seqsolve.games import rules_for
from seqsolve.play.config import MatchConfig, not_this_match
from seqsolve.play.match import run_games
from seqsolve.play.records import Replay, game_ending, read_records
from seqsolve.play.table import HUMAN, Table


def fuzz(examples: int):
    """Derandomized, no example database, no deadline (the machine is shared)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


#: an external bot that answers a card it does not hold on its third move: a forfeit mid-game
FORFEITER = """import sys
print("ready", flush=True)
n = 0
for line in sys.stdin:
    words = line.split()
    if words[0] == "legal":
        legal = words[1:]
    if words[0] == "go":
        n += 1
        print("move", "2S@a1" if n == 3 else legal[0], flush=True)
"""


@dataclass(frozen=True, repr=False)
class Source:
    """A real record file and the match that wrote it."""

    name: str
    config: MatchConfig
    games: int
    data: bytes = b""

    def __repr__(self) -> str:  # hypothesis prints the fixture with a failing example
        return f"Source({self.name!r})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    def match_args(self, path: str, games: int) -> tuple[str, ...]:
        c = self.config
        return (
            "match",
            *c.bots,
            "--variant",
            c.variant,
            "--players",
            str(c.players),
            "--seed",
            str(c.seed),
            "--games",
            str(games),
            "--jobs",
            "1",
            "--no-progress",
            "--out",
            path,
        )


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> dict[str, Source]:
    folder = tmp_path_factory.mktemp("sources")
    bot = folder / "forfeiter.py"
    bot.write_text(FORFEITER)
    made = [
        Source("classic", MatchConfig(bots=("random", "random"), seed=1), 4),
        Source("draft", MatchConfig(bots=("greedy", "random"), variant="draft", seed=2), 2),
        Source("numbers-3", MatchConfig(bots=("random", "greedy"), variant="numbers", players=3, seed=3), 3),
        Source("seed000-4", MatchConfig(bots=("random", "random"), variant="seed000", players=4, seed=4), 2),
        Source("forfeit", MatchConfig(bots=(f"ext:{sys.executable} {bot}", "random"), seed=5), 2),
    ]
    made.append(Source("stacks", MatchConfig(bots=("random", "greedy"), variant="stacks", seed=6), 2))
    out = {}
    for source in made:
        path = folder / f"{source.name}.jsonl"
        run_games(source.config, source.games, jobs=1, out=str(path))
        out[source.name] = Source(source.name, source.config, source.games, path.read_bytes())
    for name, moves in (("play-unfinished", 12), ("play-finished", 10_000)):
        path = folder / f"{name}.jsonl"
        _played(moves).write(str(path))
        out[name] = Source(name, MatchConfig(bots=(HUMAN, "random"), seed=7), 1, path.read_bytes())
    assert any(
        r["termination"] == "forfeit" and r["moves"] for r in read_records(str(folder / "forfeit.jsonl"))[1]
    )
    return out


def _played(moves: int) -> Table:
    """A classic game of ``seqsolve play``, the person's first legal action each time,
    stopped after ``moves`` actions or at its end."""
    table = Table.deal("classic", 2, None, 7, [HUMAN, "random"])
    while not table.over and len(table.record["moves"]) < moves:
        if table.human_to_move() is None:
            table.bot_move()
        else:
            table.play(table.state.legal_actions()[0])
    return table


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "games.jsonl"


# ---------------------------------------------------------------- mutations

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 1, 2, 3, 2**31, 2**63, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["0", "classic", "draft", "draw", "b", "forfeit", "win", "random", "1e400", "\x00", "∞"]),
    st.lists(st.integers(-3, 5), max_size=4),
    st.lists(st.text(max_size=4), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.just([[[[]]]]),
    st.just({"seat": [1], "bot": None, "reason": {"x": 1}}),
)
MOVES = st.sampled_from(
    [
        "pass",
        "AH@f2",
        "~5S",
        "~5S 9H@i3",
        "JSxe5",
        "JD@a1",
        "zz@q99",
        "",
        "N17@e4",
        "TD@h0+3H",
        "AH@f2 AH@f2",
        "KC@k11",
        "2S@a1",
    ]
)


def _edit_record(draw, record):
    """One change to a JSON object (a game record, or the header or its config)."""
    target = record
    if "config" in record and isinstance(record["config"], dict) and draw(st.booleans()):
        target = record["config"]
    kind = draw(
        st.sampled_from(["delete", "replace", "add", "moves_cut", "moves_grow", "moves_swap", "move_junk"])
    )
    keys = sorted(target)
    if not keys:
        return
    key = draw(st.sampled_from(keys))
    moves = target.get("moves")
    if kind == "delete":
        del target[key]
    elif kind == "replace":
        target[key] = draw(JUNK)
    elif kind == "add":
        target[draw(st.sampled_from(["extra", "detail", "seconds"]))] = draw(JUNK)
    elif not isinstance(moves, list) or not moves:
        target[key] = draw(JUNK)
    elif kind == "moves_cut":
        target["moves"] = moves[: draw(st.integers(0, len(moves) - 1))]
    elif kind == "moves_grow":
        target["moves"] = moves + draw(st.lists(MOVES, min_size=1, max_size=3))
    elif kind == "moves_swap":
        i, j = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, len(moves) - 1))
        moves[i], moves[j] = moves[j], moves[i]
    else:
        moves[draw(st.integers(0, len(moves) - 1))] = draw(st.one_of(MOVES, JUNK))
    if kind.startswith("moves") and draw(st.booleans()) and isinstance(target.get("moves"), list):
        target["plies"] = len(target["moves"])  # keep the count in step, so only the replay can tell


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _mutate_lines(draw, lines: list[bytes], other: list[bytes]) -> list[bytes]:
    kind = draw(
        st.sampled_from(
            [
                "drop",
                "duplicate",
                "swap",
                "edit",
                "edit",
                "edit",
                "cut",
                "junk_line",
                "non_utf8",
                "header_only",
                "other_header",
                "empty",
                "digit",
                "deep",
                "swap_games",
                "other_winner",
                "other_winner",
                "header_game",
                "header_game",
            ]
        )
    )
    n = len(lines)
    at = draw(st.integers(0, max(n - 1, 0)))
    if kind == "empty":
        return []
    if kind == "header_only":
        return lines[:1]
    if kind == "other_header":
        return other[:1] + lines[1:]
    if n == 0:
        return lines
    if kind == "drop":
        return lines[:at] + lines[at + 1 :]
    if kind == "duplicate":
        return lines[: at + 1] + lines[at:]
    if kind == "swap":
        j = draw(st.integers(0, n - 1))
        lines = list(lines)
        lines[at], lines[j] = lines[j], lines[at]
        return lines
    lines = list(lines)
    if kind == "header_game":  # the header names another game, the seed kept
        header = _json(lines[0])
        if isinstance(header, dict) and isinstance(header.get("config"), dict):
            header["config"]["variant"] = draw(
                st.sampled_from(["classic", "draft", "numbers", "seed000", "stacks"])
            )
            header["config"]["players"] = draw(st.sampled_from([2, 3, 4]))
            lines[0] = json.dumps(header).encode()
        return lines
    record = _json(lines[at])
    if kind == "other_winner" and isinstance(record, dict) and _int(record.get("winner_side")):
        # another side named the winner, result and score in step: only the moves can tell
        side = (record["winner_side"] + 1) % (
            record["teams"] if _int(record.get("teams")) and record["teams"] > 0 else 2
        )
        record["winner_side"] = side
        record["result"] = draw(st.sampled_from(["bg"[side % 2], str(side), "draw"]))
        if _int(record.get("score")) or isinstance(record.get("score"), float):
            record["score"] = 1 - record["score"]
        lines[at] = json.dumps(record).encode()
        return lines
    if kind == "swap_games":  # two records trade their game numbers (and deals)
        j = draw(st.integers(0, n - 1))
        first, second = _json(lines[at]), _json(lines[j])
        if isinstance(first, dict) and isinstance(second, dict):
            for key in ("game", "deal"):
                first[key], second[key] = second.get(key), first.get(key)
            lines[at], lines[j] = json.dumps(first).encode(), json.dumps(second).encode()
        return lines
    if kind == "cut":
        lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
    elif kind == "junk_line":
        lines[at] = json.dumps(draw(JUNK)).encode()
    elif kind == "non_utf8":
        k = draw(st.integers(0, len(lines[at])))
        lines[at] = (
            lines[at][:k]
            + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]))
            + lines[at][k:]
        )
    elif kind == "deep":  # past the JSON parser's recursion limit: was a RecursionError traceback
        lines[at] = b"[" * 100_000 + b"]" * draw(st.sampled_from([0, 100_000]))
    elif kind == "digit":
        old, new = draw(st.sampled_from(b"0123456789")), draw(st.sampled_from(b"0123456789"))
        lines[at] = lines[at].replace(bytes([old]), bytes([new]), 1)
    else:
        try:
            record = json.loads(lines[at])
        except (ValueError, RecursionError):
            return lines
        if isinstance(record, dict):
            _edit_record(draw, record)
            lines[at] = json.dumps(record, separators=(",", ":")).encode()
    return lines


def _apply(sources: dict[str, Source], name: str, draw) -> bytes:
    """The bytes of source ``name`` after one to three mutations."""
    source = sources[name]
    other = sources[
        draw(st.sampled_from([n for n in ("classic", "draft", "stacks") if n != name]))
    ].data.split(b"\n")
    lines = source.data.rstrip(b"\n").split(b"\n")
    for _ in range(draw(st.integers(1, 3))):
        lines = _mutate_lines(draw, lines, other)
    data = b"\n".join(lines)
    if lines and draw(st.booleans()):
        data += b"\n"
    return data


def _refused_or_ok(result, path: Path, before: bytes) -> bool:
    """The contract of every command on a damaged file; True when it succeeded."""
    assert isinstance(result.exception, (SystemExit, type(None))), repr(result.exception)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        event("succeeded")
        return True
    event("refused")
    assert result.exit_code in (1, 2), (result.exit_code, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seqsolve: "), result.stderr
    assert path.read_bytes() == before, "a refused file was changed"
    return False


SOURCES = st.sampled_from(
    ["classic", "draft", "numbers-3", "seed000-4", "forfeit", "stacks", "play-unfinished", "play-finished"]
)


@fuzz(300)
@given(name=SOURCES, data=st.data(), game=st.integers(-1, 4), ply=st.integers(-1, 130))
def test_fuzz_replay_is_a_game_or_one_line(sources, work, name, data, game, ply):
    blob = _apply(sources, name, data.draw)
    work.write_bytes(blob)
    if _refused_or_ok(run("replay", str(work), "--game", str(game)), work, blob):
        _agrees(work, game)
    _refused_or_ok(
        run("replay", str(work), "--game", str(game), "--ply", str(ply), "--to", "json"), work, blob
    )


def _agrees(path: Path, game: int) -> None:
    """A game a command accepted is a game of its header's variant and seating whose
    moves end as its record says (it used to print any result a record gave)."""
    header, records = read_records(str(path))
    record = next(r for r in records if r["game"] == game)
    config = header["config"]
    rules = rules_for(config["variant"], config["players"], config["teams"])
    assert (record["variant"], record["players"], record["teams"]) == (
        str(rules.variant),
        rules.players,
        rules.teams,
    )
    replayed = Replay(record, "game")
    for _ in replayed:
        pass
    if replayed.state.is_terminal():
        assert {key: record[key] for key in ("result", "winner_side", "termination")} == game_ending(
            replayed.state
        )
    else:
        assert record["termination"] in ("forfeit", "unfinished")


@fuzz(80)
@given(name=SOURCES, data=st.data(), game=st.integers(0, 2))
def test_fuzz_annotate_is_a_report_or_one_line(sources, work, name, data, game):
    blob = _apply(sources, name, data.draw)
    work.write_bytes(blob)
    args = ("annotate", str(work), "--game", str(game), "--iters", "50", "--jobs", "1", "--no-progress")
    if _refused_or_ok(run(*args, "--seat", "0"), work, blob):
        _agrees(work, game)


@fuzz(150)
@given(
    name=st.sampled_from(["classic", "draft", "numbers-3", "seed000-4", "stacks"]),
    data=st.data(),
    more=st.integers(0, 3),
)
def test_fuzz_resumed_match_plays_on_or_refuses_untouched(sources, work, name, data, more):
    """A resumed match refuses the file (untouched), or leaves one holding only this
    match's games (no game of another variant, deal or seating, or with a score its
    result does not give, is counted) in which every game it added replays."""
    source = sources[name]
    blob = _apply(sources, name, data.draw)
    work.write_bytes(blob)
    if not _refused_or_ok(run(*source.match_args(str(work), source.games + more)), work, blob):
        return
    header, records = read_records(str(work))
    assert header["config"] == json.loads(json.dumps(source.config.to_json()))
    assert {r["game"] for r in records} >= set(range(source.games + more))
    kept = [_json(line) for line in blob.split(b"\n")]
    for record in records:
        assert not_this_match(source.config, record) is None
        if record not in kept:
            for _ in Replay(record, f"game {record['game']}"):
                pass


@fuzz(40)
@given(name=st.sampled_from(["play-unfinished", "play-finished"]), data=st.data())
def test_fuzz_a_match_resuming_a_play_record_refuses_it_untouched(sources, work, name, data):
    """A record of ``seqsolve play`` given to ``match --out``: never a traceback."""
    blob = _apply(sources, name, data.draw)
    work.write_bytes(blob)
    args = ("match", "random", "random", "--seed", "7", "--games", "2", "--jobs", "1", "--no-progress")
    _refused_or_ok(run(*args, "--out", str(work)), work, blob)


def _json(line: bytes):
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


# ---------------------------------------------------------------- what the fuzzer found


@pytest.mark.parametrize(
    "field, value, message",
    [
        (
            "variant",
            "draft",
            "a game of draft, 2 players, 2 sides among the games of classic, 2 players, 2 sides",
        ),
        (
            "seats",
            ["greedy", "greedy"],
            '\'seats\' is ["greedy", "greedy"], but game 1 of this match has ["random", "random"]',
        ),
        ("side_bot", [0, 1], "'side_bot' is [0, 1], but game 1 of this match has [1, 0]"),
        ("deal", 7, "'deal' is 7, but game 1 of this match has 0"),
        ("score", "flip", "'score' is {flipped}, but its result gives {score:g}"),
    ],
)
def test_a_resumed_match_counts_only_its_own_games(sources, work, field, value, message):
    """A record file whose game 1 is another variant's, deal's or seating's game, or
    carries a score its result does not give, used to be resumed and counted in the
    match's numbers; it is refused naming the line, and left untouched."""
    source = sources["classic"]
    lines = source.data.split(b"\n")
    record = json.loads(lines[2])
    score = record["score"]
    record[field] = 1 - score if value == "flip" else value
    lines[2] = json.dumps(record).encode()
    work.write_bytes(b"\n".join(lines))
    before = work.read_bytes()
    expected = message.format(flipped=1 - score, score=score)
    assert fails(*source.match_args(str(work), 4)) == f"seqsolve: {work}:3: {expected}"
    assert work.read_bytes() == before


def _damage_last(folder: Path, pattern: str) -> dict[Path, bytes]:
    """Append a line nested too deeply to the last record file matching ``pattern``;
    returns every record file's bytes afterwards."""
    paths = sorted(folder.glob(pattern))
    with paths[-1].open("ab") as fh:
        fh.write(b"[" * 100_000 + b"\n")
    return {p: p.read_bytes() for p in paths}


def test_a_tournament_refuses_a_damaged_pairing_file_before_any_game(tmp_path):
    """The last pairing's file used to be found damaged after the earlier pairings had
    played and appended their games, below a 'seed N (from ...)' line: two lines."""
    args = (
        "tournament",
        "random",
        "greedy",
        "heuristic",
        "--jobs",
        "1",
        "--no-progress",
        "--out",
        str(tmp_path),
    )
    run(*args, "--games", "2", "--seed", "1")
    files = _damage_last(tmp_path, "*.jsonl")
    damaged = max(files)
    for seed in (("--seed", "1"), ()):
        assert fails(*args, "--games", "4", *seed) == f"seqsolve: {damaged}:4: not a JSON line"
        assert {p: p.read_bytes() for p in files} == files


def test_balance_refuses_a_damaged_record_file_before_any_game(tmp_path):
    args = (
        "balance",
        "--variant",
        "classic",
        "--variant",
        "draft",
        "--jobs",
        "1",
        "--no-plots",
        "--no-progress",
        "--out",
        str(tmp_path),
    )
    assert run(*args, "--games", "2", "--seed", "1").exit_code == 0
    files = _damage_last(tmp_path, "*/*.jsonl")
    damaged = max(files)
    for seed in (("--seed", "1"), ()):
        assert fails(*args, "--games", "4", *seed) == f"seqsolve: {damaged}:4: not a JSON line"
        assert {p: p.read_bytes() for p in files} == files
