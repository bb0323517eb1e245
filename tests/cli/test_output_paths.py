"""Every output of every command against every kind of path (issue 34): nothing the
program writes destroys anything.

Each file output (``match``/``play --out``, pictures' ``--out``, ``balance --report``
and ``--csv``, ``fair --report``, ``play``'s ``save``) and each folder output
(``tournament``/``balance``/``fair --out``, ``annotate --pictures``) is run on a symbolic link to a file, to nothing yet, to
``/dev/null`` and ``/dev/full`` (links in the test's folder: no test names a device),
on a FIFO nobody reads, and beside a user's own ``X.tmp`` file or folder.  Whatever the
outcome, a link stays a link, a FIFO a FIFO, and nothing else in the folder changes; a
refusal is one line naming the path given.  A test lists the commands' path options, so
a new output option cannot be left out of the matrix.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import click
import pytest
from cli_helpers import fails, ok, run

from seqsolve.cli import main
from seqsolve.cli.options import NonEmptyPath
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games

NO_READER = "a pipe that nobody reads: start its reader first, or give a file"
NO_SPACE = "cannot write (No space left on device)"
BALANCE = ("balance", "random", "--games", "2", "--seed", "1", "--no-plots", "--no-progress")
MATCH = ("match", "random", "random", "--games", "2", "--seed", "1", "--jobs", "1", "--no-progress")
FAIR = ("fair", "classic", "--try", "hand_bonus=1", "--bot", "random", "--batch", "2", "--budget", "4")
FAIR = (*FAIR, "--seed", "1", "--jobs", "1", "--no-plots", "--no-progress")


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> str:
    """Two games of random against random: something to annotate."""
    path = tmp_path_factory.mktemp("record") / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), seed=3), 2, jobs=1, out=str(path))
    return str(path)


@pytest.fixture(scope="module")
def stacks_record(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("stacks") / "games.jsonl"
    run_games(MatchConfig(bots=("random", "random"), variant="stacks", seed=3), 2, jobs=1, out=str(path))
    return str(path)


# ---------------------------------------------------------------- the outputs


def _command(args, input=None) -> tuple[bool, str | None]:
    """Run a command: (True, None) when it succeeds, else (False, its one line without 'seqsolve: ')."""
    result = run(*args, input=input)
    if result.exit_code == 0:
        return True, None
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("seqsolve: "), result.stderr
    return False, lines[0].removeprefix("seqsolve: ")


def _save(path: str, tmp_path: Path) -> tuple[bool, str | None]:
    """``save PATH`` at ``play``'s prompt: its answer, with the game's own files kept apart."""
    game = tmp_path.parent / f"{tmp_path.name}-game"
    game.mkdir()
    result = run(
        "play",
        "--seed",
        "1",
        "--out",
        str(game / "g.jsonl"),
        "--no-review",
        "--no-color",
        input=f"save {path}\nquit\n",
    )
    assert result.exit_code == 0, result.stderr
    answer = next(line for line in result.stdout.splitlines() if "saved" in line)
    if "not saved: " in answer:
        return False, answer.split("not saved: ", 1)[1]
    return True, None


#: name -> (suffix, how a path is written: "replace", "record" or "new record", run(path, tmp_path))
FILE_OUTPUTS = {
    "show --out": (
        ".svg",
        "replace",
        lambda p, t: _command(("show", "example:3", "--to", "svg", "--out", p)),
    ),
    "analyze --out": (
        ".svg",
        "replace",
        lambda p, t: _command(
            ("analyze", "example:3", "--iters", "20", "--seed", "1", "--to", "svg", "--out", p)
        ),
    ),
    "balance --report": (".md", "replace", lambda p, t: _command((*BALANCE, "--report", p))),
    "balance --csv": (".csv", "replace", lambda p, t: _command((*BALANCE, "--csv", p))),
    "fair --report": (".md", "replace", lambda p, t: _command((*FAIR, "--report", p))),
    "play save": (".sqn", "replace", _save),
    "match --out": (".jsonl", "record", lambda p, t: _command((*MATCH, "--out", p))),
    "play --out": (
        ".jsonl",
        "new record",
        lambda p, t: _command(
            ("play", "--seed", "1", "--out", p, "--no-review", "--no-color"), input="quit\n"
        ),
    ),
}


def _link(path: Path, target: str) -> None:
    path.symlink_to(target)


#: name -> make the path kind at ``path`` (its folder is the test's)
FILE_KINDS = {
    "new": lambda p: None,
    "link-to-file": lambda p: (
        p.with_name("real" + p.suffix).write_text("old\n"),
        p.with_name("real" + p.suffix).chmod(0o640),
        _link(p, "real" + p.suffix),
    ),
    "link-to-nothing-yet": lambda p: _link(p, "made" + p.suffix),
    "link-to-dev-null": lambda p: _link(p, os.devnull),
    "link-to-dev-full": lambda p: _link(p, "/dev/" + "full"),
    "fifo-nobody-reads": lambda p: os.mkfifo(p),
    "beside-a-tmp-file": lambda p: p.with_name(p.name + ".tmp").write_text("mine\n"),
    "beside-a-tmp-folder": lambda p: p.with_name(p.name + ".tmp").mkdir(),
}


def _expected(how: str, kind: str, path: str) -> str | None:
    """The one line of a refusal, or None when the output is written."""
    exists = kind in ("link-to-file", "link-to-dev-null", "link-to-dev-full", "fifo-nobody-reads")
    if how == "new record" and exists:  # play starts a new record, never over another file
        return f"{path} exists: resume its game with --from {path}, or choose another --out"
    if kind == "link-to-dev-full":
        return f"{path}: {NO_SPACE}"
    if kind == "fifo-nobody-reads":
        return (
            f"{path}: a pipe, not a file: records are read back to resume"
            if how == "record"
            else f"{path}: {NO_READER}"
        )
    if how == "record" and kind == "link-to-file":  # not a record: refused, untouched
        return f"{path}:1: not a seqsolve match record file"
    return None


def _listing(folder: Path) -> dict[str, tuple]:
    out = {}
    for name in sorted(os.listdir(folder)):
        info = os.lstat(folder / name)
        if stat.S_ISLNK(info.st_mode):
            out[name] = ("link", os.readlink(folder / name))
        elif stat.S_ISREG(info.st_mode):
            out[name] = ("file", (folder / name).read_bytes(), stat.S_IMODE(info.st_mode))
        else:
            out[name] = (stat.S_IFMT(info.st_mode),)
    return out


@pytest.mark.parametrize("kind", FILE_KINDS)
@pytest.mark.parametrize("output", FILE_OUTPUTS)
def test_a_file_output_destroys_nothing_whatever_the_path(tmp_path, output, kind):
    suffix, how, command = FILE_OUTPUTS[output]
    path = tmp_path / f"out{suffix}"
    FILE_KINDS[kind](path)
    before = _listing(tmp_path)
    written, message = command(str(path), tmp_path)
    expected = _expected(how, kind, str(path))
    assert (written, message) == (expected is None, expected)
    after = _listing(tmp_path)
    target = {"link-to-file": "real", "link-to-nothing-yet": "made"}.get(kind, "out") + suffix
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    if written and kind not in ("link-to-dev-null",):
        assert target in changed and after[target][0] == "file" and after[target][1], after.get(target)
        if kind == "link-to-file":
            assert after[target][2] == 0o640  # the replaced file's mode is kept
    # besides the target, only the position 'play' leaves beside its record may appear
    assert changed <= ({target, "out.sqn"} if written else set()), changed
    if "link" in kind:
        assert after[path.name] == before[path.name]  # still the same link
    if kind == "fifo-nobody-reads":
        assert stat.S_ISFIFO(os.lstat(path).st_mode)


#: name -> run(path) of a command writing into a folder
FOLDER_OUTPUTS = {
    "tournament --out": lambda p, r: _command(
        ("tournament", "random", "greedy", "--games", "2", "--seed", "1", "--no-progress", "--out", p)
    ),
    "balance --out": lambda p, r: _command((*BALANCE, "--out", p)),
    "fair --out": lambda p, r: _command((*FAIR, "--out", p)),
    "annotate --pictures": lambda p, r: _command(
        ("annotate", r, "--game", "0", "--iters", "5", "--seed", "1", "--pictures", p)
    ),
}

FOLDER_KINDS = {
    "new": lambda p: None,
    "link-to-folder": lambda p: ((p.parent / "real").mkdir(), _link(p, "real")),
    "link-to-nothing-yet": lambda p: _link(p, "real"),
    "link-to-dev-null": lambda p: _link(p, os.devnull),
    "fifo": lambda p: os.mkfifo(p),
    "a-file": lambda p: p.write_text("mine\n"),
}


@pytest.mark.parametrize("kind", FOLDER_KINDS)
@pytest.mark.parametrize("output", FOLDER_OUTPUTS)
def test_a_folder_output_destroys_nothing_whatever_the_path(tmp_path, record, output, kind):
    path = tmp_path / "out"
    FOLDER_KINDS[kind](path)
    before = _listing(tmp_path)
    written, message = FOLDER_OUTPUTS[output](str(path), record)
    option = output.split()[1]
    if kind in ("link-to-dev-null", "fifo", "a-file"):
        refusal = (
            f"Invalid value for '{option}': Directory '{path}' is a file. (see 'main {output.split()[0]} --help')"
            if kind == "a-file"
            else f"{option} {path}: not a folder"
        )  # a file: Click's own check
        assert (written, message) == (False, refusal)
        assert _listing(tmp_path) == before
        return
    assert (written, message) == (True, None)
    folder = tmp_path / ("real" if "link" in kind else "out")
    assert folder.is_dir() and os.listdir(folder)
    if "link" in kind:
        assert os.readlink(path) == "real"


@pytest.mark.parametrize("output", FOLDER_OUTPUTS)
def test_a_folder_in_a_missing_folder_is_refused_and_nothing_is_made(tmp_path, record, output):
    path = tmp_path / "gone" / "out"
    written, message = FOLDER_OUTPUTS[output](str(path), record)
    assert (written, message) == (
        False,
        f"{output.split()[1]} {path}: folder {tmp_path / 'gone'} does not exist",
    )
    assert os.listdir(tmp_path) == []


def test_every_path_option_of_every_command_is_in_the_matrix():
    """A new output option must join FILE_OUTPUTS or FOLDER_OUTPUTS (inputs are named here)."""
    inputs = {"show --arrows"}
    found = {
        f"{name} {param.opts[0]}"
        for name, command in main.commands.items()
        for param in command.params
        if isinstance(param, click.Option) and isinstance(param.type, NonEmptyPath)
    }
    assert found - inputs == {*FILE_OUTPUTS, *FOLDER_OUTPUTS} - {"play save"}


# ---------------------------------------------------------------- refused commands leave nothing


def test_annotate_pictures_of_a_stacks_game_in_a_missing_folder_is_refused_first(tmp_path, stacks_record):
    pictures = tmp_path / "gone" / "pictures"
    message = fails("annotate", stacks_record, "--game", "0", "--iters", "5", "--pictures", str(pictures))
    assert message == f"seqsolve: --pictures {pictures}: folder {tmp_path / 'gone'} does not exist"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "command",
    [
        ("tournament", "random", "greedy", "--games", "2", "--no-progress"),
        (*BALANCE,),
        (*MATCH,),
        (*FAIR,),
    ],
    ids=["tournament", "balance", "match", "fair"],
)
def test_an_unreachable_scheduler_leaves_no_output_behind(tmp_path, monkeypatch, command):
    def unreachable(scheduler):
        raise click.UsageError(f"cannot reach the Dask scheduler {scheduler}: refused")

    for module in ("seqsolve.cli.match", "seqsolve.cli.balance", "seqsolve.cli.fair"):
        monkeypatch.setattr(f"{module}.dask_backend", unreachable)
    out = tmp_path / ("games.jsonl" if command[0] == "match" else "out")
    message = fails(
        *command, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--out", str(out), code=2
    )
    assert "cannot reach the Dask scheduler" in message
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------- one picture lost, nothing else


def test_a_picture_that_cannot_be_written_loses_no_analysis(tmp_path, record):
    args = ("annotate", record, "--game", "0", "--iters", "5", "--seed", "1", "--json")
    names = [
        os.path.basename(p) for p in json.loads(ok(*args, "--pictures", str(tmp_path / "first")))["pictures"]
    ]
    assert len(names) >= 2
    pictures = tmp_path / "second"
    (pictures / names[0]).mkdir(parents=True)  # where the first picture would go
    result = run(*args, "--pictures", str(pictures))
    assert result.exit_code == 1
    data = json.loads(result.stdout)  # the analysis is out whole
    assert [os.path.basename(p) for p in data["pictures"]] == names[1:]
    assert result.stderr.splitlines() == [
        f"seqsolve: 1 of {len(names)} pictures not written: {pictures / names[0]}: is a folder, not a file"
    ]


def test_a_plot_that_cannot_be_written_loses_no_report(tmp_path):
    report = tmp_path / "report.md"
    (tmp_path / "report" / "lengths.png").mkdir(parents=True)
    result = run(*(a for a in BALANCE if a != "--no-plots"), "--report", str(report))
    assert result.exit_code == 1
    assert "balance — 1 variant" in result.stdout
    assert result.stderr.splitlines() == [
        f"seqsolve: 1 of 3 plots not written: {tmp_path / 'report' / 'lengths.png'}: is a folder, not a file"
    ]
    text = report.read_text()
    assert "seat_advantage.png" in text and "lengths.png" not in text
    assert sorted(os.listdir(tmp_path / "report")) == [
        "heatmap-classic_2p.png",
        "lengths.png",
        "seat_advantage.png",
    ]


# ---------------------------------------------------------------- paths the command makes, suffixes


def test_balance_report_in_the_out_folder_it_makes(tmp_path):
    out = tmp_path / "runs"
    ok(*BALANCE, "--out", str(out), "--report", str(out / "report.md"), "--csv", str(out / "table.csv"))
    assert (out / "report.md").read_text().startswith("# Rule-variant balance")
    assert (out / "table.csv").read_text()


@pytest.mark.parametrize("command", [("show", "example:3"), ("analyze", "example:3", "--iters", "20")])
@pytest.mark.parametrize("form, name", [("svg", "board.png"), ("png", "board.SVG")])
def test_a_suffix_that_contradicts_to_is_refused(tmp_path, command, form, name):
    out = tmp_path / name
    suffix = name.rsplit(".", 1)[1].lower()
    message = fails(*command, "--to", form, "--out", str(out), code=2)
    assert message.startswith(
        f"seqsolve: --out {out} names a .{suffix} file but --to {form} draws {form.upper()}: give --to {suffix},"
        f" or --out a .{form} file (see '"
    )
    assert os.listdir(tmp_path) == []
