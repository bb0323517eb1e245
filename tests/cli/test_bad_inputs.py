"""A matrix of bad invocations of every command (issue 11): each one is refused in one
line on stderr starting ``seqsolve:``, exit code 1 (bad input) or 2 (a malformed
command line), nothing on stdout, no traceback, and nothing written.

Most rows run in-process (CliRunner, fast); a sample runs as real subprocesses
(``python -m seqsolve``) to check the real exit codes and streams.  A row is
``(args, code, start)``: ``start`` is a regular expression the one stderr line must
begin with after ``seqsolve: `` (the file, the option, the bot or the move it names),
or None where only the contract matters.  ``{name}`` in an argument or in ``start``
is the path of a file of :func:`files`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run

from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

CORPUS = Path(__file__).parents[1] / "data" / "bad_inputs"
STACKS_POSITION = "stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"
HEADER = b'{"seqsolve": "match", "format": 1, "config": {"bots": ["random", "random"], "seed": 1}}'


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """Every file a row may name: the bad ones, and a good record file to misuse."""
    folder = tmp_path_factory.mktemp("bad")
    made = {
        "empty": b"",
        "blank": b"\n\n  \n",
        "binary": b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8,
        "latin1": "classic caf\xe9".encode("latin-1"),
        "huge": b"classic " + b"*" * (8 << 20),  # one 8 MB line
        "nul": b"classic\x00" * 10,
        "json_pos": b'{"variant": "classic"}\n',
        "deep_header": b"[" * 100_000 + b"\n",  # past the JSON parser's recursion limit
        "deep_game": HEADER + b"\n" + b"[" * 100_000 + b"\n{}\n",
        "header_only": HEADER + b"\n",
        "not_json_records": b"hello\nworld\n",
        "json_list": b"[1, 2, 3]\n",
    }
    paths = {}
    for name, data in made.items():
        path = folder / f"{name}.dat"
        path.write_bytes(data)
        paths[name] = str(path)
    for path in sorted(
        CORPUS.iterdir()
    ):  # copied: a command that wrongly wrote to one must not change the repository
        copy = folder / path.name
        copy.write_bytes(path.read_bytes())
        paths[path.name] = str(copy)
    record = folder / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=1), 2, jobs=1, out=str(record))
    paths["rec"] = str(record)
    paths["dir"] = str(folder)
    paths["missing"] = str(folder / "no-such-file.sqn")
    paths["missing_dir_file"] = str(folder / "no-such-folder" / "out.jsonl")
    paths["pos"] = str(Path(__file__).parents[1] / "data" / "example2.sqn")
    stacks = folder / "stacks.stn"  # a good Stacks position (docs/stacks.md's example), to misuse
    stacks.write_text(STACKS_POSITION + "\n")
    paths["stacks"] = str(stacks)
    return paths


# ---------------------------------------------------------------- the matrix

CORPUS_POSITIONS = sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".sqn", ".stn", ".txt"))
CORPUS_RECORDS = sorted(p.name for p in CORPUS.iterdir() if p.suffix == ".jsonl")
POSITION_FILES = [
    "missing",
    "binary",
    "empty",
    "blank",
    "latin1",
    "huge",
    "nul",
    "json_pos",
    "rec",
    "not_json_records",
    *CORPUS_POSITIONS,
]
RECORD_FILES = [
    "deep_header",
    "deep_game",
    "binary",
    "blank",
    "latin1",
    "huge",
    "nul",
    "json_pos",
    "pos",
    "not_json_records",
    "json_list",
    *CORPUS_RECORDS,
]

ROWS: list[tuple[tuple[str, ...], int, str | None]] = []


def rows(code: int, start: str | None, *argss: tuple[str, ...]) -> None:
    ROWS.extend((tuple(args), code, start) for args in argss)


# bad files to every command reading a position
for name in POSITION_FILES:
    for command in (("show",), ("convert",), ("apply",), ("perft",), ("analyze",)):
        extra = {"apply": ("AH@f2",), "perft": ("--depth", "1"), "analyze": ("--iters", "10")}.get(
            command[0], ()
        )
        rows(1, None if name == "rec" else f"{{{name}}}", (*command, f"{{{name}}}", *extra))
    rows(
        1,
        None,
        ("show", "{dir}"),
        ("convert", "{dir}"),
        ("apply", "{dir}", "AH@f2"),
        ("perft", "{dir}", "--depth", "1"),
    )
# bad record files to every command reading one
for name in RECORD_FILES:
    rows(
        1,
        f"{{{name}}}",
        ("replay", f"{{{name}}}", "--game", "0"),
        ("annotate", f"{{{name}}}", "--game", "0", "--iters", "10"),
        ("match", "random", "random", "--games", "2", "--jobs", "1", "--seed", "1", "--out", f"{{{name}}}"),
    )
# a device that never ends (the record readers used to read it whole: out of memory)
for args in (
    ("replay", "/dev/zero", "--game", "0"),
    ("annotate", "/dev/zero", "--game", "0"),
    ("show", "/dev/zero"),
    ("convert", "/dev/zero"),
):
    rows(1, "/dev/zero: ", args)
for name in ("missing", "dir", "empty", "header_only"):
    rows(None, None, ("replay", f"{{{name}}}", "--game", "0"), ("annotate", f"{{{name}}}", "--game", "0"))

BAD_BOTS = [
    "nosuchbot",
    "mcts:nosuch=1",
    "mcts:iters=abc",
    "mcts:iters=1.5",
    "mcts:iters=-1",
    "mcts:iters=1e8",
    "mcts:c=nan",
    "mcts:c=inf",
    "mcts:eps=2",
    "mcts:eps=",
    "mcts:=1",
    "mcts:iters",
    "mcts:iters=1,iters=2",
    "greedy:w_win=-1",
    "heuristic:weights=nosuch",
    "heuristic:weights=/dev/null",
    "rollout:k=0",
    "rollout:worlds=-5",
    "rollout:policy=nope",
    "rollout:see=everything",
    "restricted:no=nothing",
    "restricted:no=two_eyed,bot=nosuch",
    "restricted",
    "restricted:bot=restricted",
    "ext:",
    "ext:   ",
    "ext:'unclosed",
    "ext:python x.py,key=1",
    "random:seed=1",
    "",
    ":",
    "mcts:iters=99999999999999999999999",
    "mcts:greedy=maybe",
    "mcts:open=2",
    "MCTS",
]
BOT = "(unknown bot|bot )"
for spec in BAD_BOTS:
    rows(1, BOT, ("match", spec, "random", "--games", "2", "--jobs", "1", "--seed", "1"))
for spec in BAD_BOTS[:12]:
    rows(1, BOT, ("tournament", spec, "random", "--games", "2", "--jobs", "1", "--seed", "1"))
    rows(1, None, ("balance", spec, "--games", "2", "--jobs", "1", "--seed", "1", "--no-plots"))
for spec in ["mcts:nosuch=1", "mcts:iters=abc", "mcts:c=nan", "mcts:iters=1,iters=2", "greedy", "nosuch"]:
    rows(None, None, ("analyze", "example:2", spec, "--iters", "10"))
    rows(None, None, ("annotate", "{rec}", spec, "--game", "0", "--iters", "10"))

BAD_VARIANTS = [
    "klassik",
    "classic[",
    "classic]",
    "classic[hand_size=0]",
    "classic[hand_size=abc]",
    "classic[nosuch=1]",
    "classic[sequences_to_win=1000]",
    "classic[hand_size=7,hand_size=7]",
    "classic[hand_size=]",
    "[",
    "",
    "classic[sequences_to_win=nan]",
    "classic[hand_size=1e8]",
    "draft[draft_size=-1]",
    "numbers[players=99]",
    "classic[[hand_size=7]]",
    "classic[hand_size=7",
    "classic[=7]",
]
VARIANT = "(unknown preset|bad variant|option |unknown option)"
for variant in BAD_VARIANTS:
    rows(
        1,
        VARIANT,
        ("show", "--new", "--variant", variant, "--seed", "1"),
        ("match", "random", "random", "--variant", variant, "--games", "2", "--jobs", "1", "--seed", "1"),
    )
for variant in BAD_VARIANTS[:8]:
    rows(
        1,
        None,
        (
            "tournament",
            "random",
            "greedy",
            "--variant",
            variant,
            "--games",
            "2",
            "--jobs",
            "1",
            "--seed",
            "1",
        ),
        ("balance", "--variant", variant, "--games", "2", "--jobs", "1", "--seed", "1", "--no-plots"),
    )

BAD_NUMBERS = ["-1", "nan", "inf", "-inf", "1e8", "", "abc", "99999999999999999999999999", "0x10", "1.5", " "]


def invalid(option: str) -> str:
    return f"Invalid value for '{option}'"


for value in BAD_NUMBERS:
    negative = value if value != "1.5" else "-1.5"  # 1.5 is a fine number of seconds
    for option, args in [
        ("--games", ("match", "random", "random", "--games", value)),
        ("--seed", ("match", "random", "random", "--seed", value, "--games", "2")),
        ("--move-timeout", ("match", "random", "random", "--move-timeout", negative, "--games", "2")),
        ("--depth", ("perft", "example:4", "--depth", value)),
        ("--games", ("bench", "--games", value)),
        ("--scans", ("bench", "--scans", value)),
        ("--game", ("replay", "{rec}", "--game", value)),
        ("--iters", ("annotate", "{rec}", "--game", "0", "--iters", value)),
        ("--time", ("analyze", "example:2", "--time", negative)),
        ("--games", ("balance", "--games", value)),
        ("--games", ("tournament", "random", "greedy", "--games", value)),
    ]:
        if option == "--game" and value == "99999999999999999999999999":
            rows(1, "{rec} has no game", args)  # a game number, but not one on file: bad input
        else:
            rows(2, invalid(option), args)
    if value not in ("-1", "99999999999999999999999999"):  # every core; more than the cores is the cores
        rows(2, invalid("--jobs"), ("match", "random", "random", "--jobs", value, "--games", "2"))
for value in ["-1", "abc", "1e8"]:
    rows(2, invalid("--top"), ("analyze", "example:2", "--top", value, "--iters", "10"))
for value in ["-1", "99999", "abc", "1e8"]:
    rows(
        None,
        None,
        ("show", "--new", "--players", value, "--seed", "1"),
        ("show", "--new", "--seed", "1", "--viewer", value),
        ("match", "random", "random", "--players", value, "--games", "2", "--seed", "1"),
        ("match", "random", "random", "--teams", value, "--games", "2", "--seed", "1"),
        ("replay", "{rec}", "--game", "0", "--ply", value),
        ("annotate", "{rec}", "--game", "0", "--seat", value, "--iters", "10"),
        ("annotate", "{rec}", "--game", "0", "--mistake", value, "--iters", "10"),
        ("balance", "--players", value, "--games", "2", "--seed", "1"),
        ("tournament", "random", "greedy", "--players", value, "--games", "2", "--seed", "1"),
    )

BAD_MOVES = [
    "",
    " ",
    "zz",
    "AH@z9",
    "AH@f99",
    "AH@f2 AH@f2",
    "XX@f2",
    "JSx",
    "JSxa1",
    "~",
    "~5S",
    "~5S ~5S",
    "pass",
    "AH@",
    "@f2",
    "AH@f2@",
    "10H@f2",
    "\x00",
    "AH@f2\n8S@a1",
    "9" * 1000,
    "AH@f2 junk",
    "JD@a1",
    "KS@a1",
    "2S@a1",
]
for move in BAD_MOVES:
    rows(1, "move 1", ("apply", "example:2", move))
rows(1, "move 2", ("apply", "example:2", "AH@f2", "AH@f2"))

COMBINATIONS = [
    (2, ("show",)),
    (2, ("show", "{pos}", "--new")),
    (2, ("show", "--example", "9")),
    (2, ("show", "{pos}", "--example", "2")),
    (2, ("show", "{pos}", "--variant", "classic")),
    (1, ("show", "--new", "--teams", "3")),
    (2, ("apply", "example:2")),
    (2, ("apply",)),
    (2, ("convert", "example:2", "--to", "pdf")),
    (2, ("perft", "example:4")),
    (2, ("perft", "example:4", "--depth", "13")),
    (1, ("perft", "example:2", "--depth", "1")),
    (2, ("match",)),
    (1, ("match", "random", "--games", "2", "--seed", "1")),
    (1, ("match", "random", "random", "random", "--games", "2", "--seed", "1")),
    (2, ("match", "random", "random", "--scheduler", "tcp://x:1")),
    (2, ("match", "random", "random", "--sprt", "elo0=0")),
    (2, ("match", "random", "random", "--sprt", "elo0=nan,elo1=20,alpha=0.05,beta=0.05")),
    (2, ("match", "random", "random", "--sprt", "elo0=20,elo1=0,alpha=0.05,beta=0.05")),
    (2, ("match", "random", "random", "--sprt", "elo0=0,elo1=20,alpha=2,beta=0.05")),
    (2, ("match", "random", "random", "--sprt", "elo0=-1e300,elo1=1e300,alpha=0.05,beta=0.05")),
    (2, ("match", "random", "random", "--sprt", "elo0=0,elo1=1e300,alpha=1e-320,beta=0.05")),
    (2, ("match", "random", "random", "--sprt", "elo0=0,elo1=2001")),
    (
        1,
        (
            "match",
            "random",
            "random",
            "--players",
            "4",
            "--sprt",
            "elo0=0,elo1=20,alpha=0.05,beta=0.05",
            "--teams",
            "3",
        ),
    ),
    (1, ("match", "random", "random", "--players", "5", "--games", "2", "--seed", "1")),
    (1, ("match", "random", "random", "--players", "6", "--games", "2", "--seed", "1")),
    (1, ("match", "random", "random", "--teams", "2", "--players", "3", "--games", "2", "--seed", "1")),
    (1, ("match", "random", "random", "--games", "2", "--seed", "1", "--out", "{missing_dir_file}")),
    (2, ("match", "random", "random", "--games", "2", "--seed", "1", "--out", "{dir}")),
    (2, ("match", "random", "random", "--nosuch")),
    (2, ("match", "random", "random", "--backend", "mpi")),
    (2, ("tournament", "random")),
    (2, ("tournament", "random", "random", "--games", "2")),
    (2, ("tournament", "random", "greedy", "--games", "2", "--seed", "1", "--out", "{pos}")),
    (1, ("tournament", "random", "greedy", "--games", "2", "--seed", "1", "--out", "{missing_dir_file}")),
    (2, ("replay", "{rec}")),
    (1, ("replay", "{rec}", "--game", "99")),
    (2, ("replay", "{rec}", "--game", "0", "--to", "pdf")),
    (1, ("replay", "{rec}", "--game", "0", "--ply", "100000")),  # the file's content: bad input
    (2, ("annotate", "{rec}")),
    (1, ("annotate", "{rec}", "--game", "99")),
    (1, ("annotate", "{rec}", "--game", "0", "--mistake", "0.5", "--blunder", "0.1")),
    (2, ("bots", "extra")),
    (2, ("bots", "--nosuch")),
    (2, ("nosuchcommand",)),
    (2, ("--nosuch",)),
    (2, ("analyze",)),
    (1, ("analyze", "example:9")),
    (1, ("show", "example:0")),
    (1, ("show", "example:")),
    (2, ("balance", "--strong", "greedy")),
    (2, ("balance", "--scheduler", "tcp://x:1")),
    (1, ("balance", "--restrict", "nothing")),
    (1, ("balance", "--vary", "hand_size")),
    (1, ("balance", "--vary", "nosuch=1,2")),
    (1, ("balance", "--vary", "hand_size=abc")),
    (1, ("balance", "--games", "2", "--seed", "1", "--no-plots", "--report", "{missing_dir_file}")),
    (2, ("balance", "--games", "2", "--seed", "1", "--no-plots", "--csv", "{dir}")),
    (2, ("balance", "--games", "2", "--seed", "1", "--no-plots", "--out", "{pos}")),
]
for code, args in COMBINATIONS:
    rows(code, None, args)

# §4 / issue 13: Sequence Stacks' own bad input, named as its rules name it
rows(1, r"{stacks-bad-card.stn}:1:23: unknown Stacks card 'XX'", ("convert", "{stacks-bad-card.stn}"))
rows(
    1,
    r"{stacks-pile-out-of-order.stn}:1:40: B3 as card 2 of a pile: .* \(ST-8\)",
    ("show", "{stacks-pile-out-of-order.stn}"),
)
rows(
    1,
    r"{stacks-seven-hands.stn}:1:29: 7 hands: .* \(ST-1\)",
    ("perft", "{stacks-seven-hands.stn}", "--depth", "1"),
)
rows(
    1,
    r"{stacks-readable-bad-direction.txt}:4:12: direction takes forward or reverse",
    ("apply", "{stacks-readable-bad-direction.txt}", "B4"),
)
rows(
    1,
    r"{stacks-bad-option.stn}:1:1: bad variant: option stacks_refill takes",
    ("convert", "{stacks-bad-option.stn}"),
)
rows(
    1,
    r"move 1 'B4 BW>3' is illegal: BW>3: no pile of that colour has value 3 \(ST-8\)",
    ("apply", "{stacks}", "B4 BW>3"),
)
rows(
    1,
    r"move 2 'block' is illegal: block: no completion is waiting for a Block \(ST-15\)",
    ("apply", "{stacks}", "B4 ~SK", "block"),
)
rows(1, r"move 1 '~SK B4': '~SK' ends the turn", ("apply", "{stacks}", "~SK B4"))
rows(1, r"move 1 'AH@f2': cannot read Stacks action", ("apply", "{stacks}", "AH@f2"))
rows(
    1,
    r"{stacks}: perft needs every card known, but hand 1 holds 5 unknown",
    ("perft", "{stacks}", "--depth", "1"),
)
rows(
    1,
    r"bot mcts: unknown parameter 'k' \(known: time, iters, work, c, eps, depth, bias, margin, nodes, top, halve\)",
    ("analyze", "{stacks}", "mcts:k=3", "--iters", "10"),
)  # Sequence's mcts option, not Stacks'
rows(
    1,
    r"analysis needs a search bot \('mcts', key=value,... after it\), not 'greedy'",
    ("analyze", "{stacks}", "greedy"),
)
rows(
    1,
    r"analysis needs a search bot \('search' or 'mcts' or 'rollout', key=value,... after it\), not 'heuristic'",
    ("analyze", "{pos}", "heuristic"),
)
rows(
    1,
    r"a rollout analysis plays every legal turn out by greedy: policy, halve and see do not apply",
    ("analyze", "{pos}", "rollout:policy=heuristic"),
)
for args in [
    ("match", "random", "random", "--variant", "stacks[stacks_refill=x]"),
    ("show", "--new", "--variant", "stacks[stacks_refill=x]"),
    ("balance", "--variant", "stacks[stacks_refill=x]", "--games", "1"),
]:
    rows(1, "option stacks_refill takes turn_start or empty_hand_only, not 'x'", args)
rows(
    1,
    r"Sequence Stacks is for 2 to 6 players, not 7 \(ST-1\)",
    ("show", "--new", "--variant", "stacks", "--players", "7"),
    ("match", "ext:python x.py", "ext:python y.py", "--variant", "stacks", "--players", "7"),
)
rows(
    1,
    r"Sequence Stacks has no teams",
    ("match", "ext:python x.py", "ext:python y.py", "--variant", "stacks", "--players", "4", "--teams", "2"),
    ("show", "--new", "--variant", "stacks", "--players", "3", "--teams", "2"),
)
rows(1, "the player count is a seating", ("balance", "--variant", "stacks[players=2]", "--games", "1"))
rows(
    2,
    r"the variants are of different games: name the bot",
    ("balance", "--variant", "stacks", "--variant", "classic", "--games", "1", "--no-plots"),
)
rows(
    1,
    r"--vary 'stacks_win_chips=0': option stacks_win_chips must be between 1 and",
    ("balance", "--variant", "stacks", "--vary", "stacks_win_chips=0"),
)
rows(
    1,
    r"--vary 'hand_size=3': unknown Stacks option 'hand_size'",
    ("balance", "--variant", "stacks", "--vary", "hand_size=3"),
)

# an empty path used to mean "no --out": a whole match played and nothing recorded
for args, option in [
    (("match", "random", "random", "--games", "2", "--seed", "1", "--out", ""), "'--out'"),
    (("tournament", "random", "greedy", "--games", "2", "--seed", "1", "--out", ""), "'--out'"),
    (("balance", "--games", "2", "--seed", "1", "--no-plots", "--out", ""), "'--out'"),
    (("balance", "--games", "2", "--seed", "1", "--no-plots", "--report", ""), "'--report'"),
    (("balance", "--games", "2", "--seed", "1", "--no-plots", "--csv", ""), "'--csv'"),
    (("replay", "", "--game", "0"), "'RECORDS'"),
    (("annotate", "", "--game", "0"), "'RECORDS'"),
]:
    rows(2, f"Invalid value for {option}: an empty path names no file or folder", args)


def _fill(args: tuple[str, ...], files: dict[str, str]) -> list[str]:
    return [files[a[1:-1]] if a.startswith("{") and a.endswith("}") else a for a in args]


PLACEHOLDER = re.compile(r"\{(\w[\w.-]*)\}")


def _pattern(start: str, files: dict[str, str]) -> str:
    """``start`` after ``seqsolve: ``, a ``{name}`` in it the file's path taken literally."""
    return "seqsolve: " + PLACEHOLDER.sub(lambda m: re.escape(files[m.group(1)]), start)


def _snapshot(folder: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}


def _ids(row) -> str:
    return " ".join(row[0])[:90]


@pytest.mark.parametrize("row", ROWS, ids=[_ids(r) for r in ROWS])
def test_bad_input_is_one_line(row, files, tmp_path, monkeypatch):
    args, code, start = row
    monkeypatch.chdir(tmp_path)
    before = _snapshot(files["dir"])
    result = run(*_fill(args, files), input="")
    assert isinstance(result.exception, (SystemExit, type(None))), repr(result.exception)
    assert result.exit_code in ((1, 2) if code is None else (code,)), (result.exit_code, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seqsolve: "), result.stderr
    if start is not None:
        assert re.match(_pattern(start, files), lines[0]), lines[0]
    assert _snapshot(files["dir"]) == before
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- real processes

SUBPROCESS = [
    (("show", "{missing}"), 1, "{missing}"),
    (("show", "{binary}"), 1, "{binary}"),
    (("show", "-"), 1, "<stdin>"),
    (("convert", "{card-three-times.sqn}"), 1, "{card-three-times.sqn}:1:"),
    (("apply", "example:2", "AH@f2", "AH@f2"), 1, "move 2"),
    (("apply", "example:2", "zz"), 1, "move 1"),
    (("perft", "example:2", "--depth", "1"), 1, "example:2: perft needs every card known"),
    (("convert", "{stacks-bad-card.stn}"), 1, "{stacks-bad-card.stn}:1:23: unknown Stacks card 'XX'"),
    (
        ("apply", "{stacks}", "B4 BW>3"),
        1,
        "move 1 'B4 BW>3' is illegal: BW>3: no pile of that colour has value 3 (ST-8)",
    ),
    (
        ("show", "--new", "--variant", "stacks", "--players", "7"),
        1,
        "Sequence Stacks is for 2 to 6 players, not 7",
    ),
    (("perft", "example:4", "--depth", "nan"), 2, "Invalid value for '--depth'"),
    (("bench", "--games", "0"), 2, "Invalid value for '--games'"),
    (("match", "nosuchbot", "random", "--games", "2"), 1, "unknown bot 'nosuchbot'"),
    (("match", "mcts:c=nan", "random", "--games", "2"), 1, "bot mcts: parameter c"),
    (
        ("match", "random", "random", "--games", "2", "--out", "{deep_game}"),
        1,
        "{deep_game}:2: not a JSON line",
    ),
    (("match", "random", "random", "--sprt", "elo0=-1e300,elo1=1e300"), 2, "Invalid value for --sprt"),
    (("match", "random", "random", "--out", ""), 2, "Invalid value for '--out'"),
    (("tournament", "random"), 2, "a tournament needs at least two bots"),
    (("replay", "{format-99.jsonl}", "--game", "0"), 1, "{format-99.jsonl}:1: record format 99"),
    (("replay", "{deep_header}", "--game", "0"), 1, "{deep_header}:1: not a seqsolve match record file"),
    (("annotate", "{game-not-utf8.jsonl}", "--game", "0"), 1, "{game-not-utf8.jsonl}:2: not UTF-8 text"),
    (("analyze", "example:2", "mcts:iters=1,iters=2"), 1, "bot 'mcts:iters=1,iters=2'"),
    (("balance", "--variant", "klassik"), 1, "unknown preset 'klassik'"),
    (("bots", "extra"), 2, "Got unexpected extra argument"),
    (("nosuchcommand",), 2, "No such command"),
    (
        ("replay", "/dev/zero", "--game", "0"),
        1,
        "/dev/zero: not a file, and more than 256 MB: not a record file",
    ),
]


@pytest.mark.parametrize("args, code, start", SUBPROCESS, ids=[" ".join(a)[:60] for a, _, _ in SUBPROCESS])
def test_bad_input_in_a_real_process(args, code, start, files, tmp_path):
    """The real exit code and streams of ``python -m seqsolve`` (the timeout only
    catches a hang; these all answer at once)."""
    before = _snapshot(files["dir"])
    done = subprocess.run(
        [sys.executable, "-m", "seqsolve", *_fill(args, files)],
        input=b"not a position\n",
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == code, stderr
    assert done.stdout == b""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("seqsolve: " + PLACEHOLDER.sub(lambda m: files[m.group(1)], start)), lines[0]
    assert _snapshot(files["dir"]) == before
    assert list(tmp_path.iterdir()) == []
