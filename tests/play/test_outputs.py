"""Writing outputs (seqsolve/play/records/outputs.py and the record file's opening):
nothing a run writes destroys anything.  A symbolic link is written through and stays a
link, a device is written in place, a FIFO is written when read and refused otherwise,
temporary files have names of their own and never outlive a failure, and every error
names the path as it was given.

Devices are reached through symbolic links in the test's folder: no test names a
device path itself.  A FIFO test either has a reader or expects a refusal, under a
guard that turns a hang into a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import stat
import threading
from pathlib import Path
from typing import Self

import pytest

from seqsolve.play.config import MatchConfig
from seqsolve.play.records import RecordError, RecordFile, check_output_file, make_output_folder, write_text

HEADER = MatchConfig(bots=("random", "random"), seed=1).to_json()


class Hung(BaseException):
    """Raised by the guard: a write that waited for a FIFO's reader."""


@contextlib.contextmanager
def no_hang(seconds: int = 120):
    """A wait for a FIFO's reader fails the test instead of hanging it (the bound only
    catches a hang: nothing that works comes near it)."""

    def alarm(signum, frame):
        raise Hung(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class FifoReader:
    """A reader of ``fifo`` for the length of a ``with`` block; ``data`` is what it read.

    A read end opened without waiting is held from the start, so a writer finds a reader
    whatever the thread is doing; the thread reads until the writer closes.  If nothing
    ever writes, leaving the block opens the write end once to let the thread go.
    """

    def __init__(self, fifo):
        self.fifo, self.data, self.chunks = str(fifo), b"", []

    def __enter__(self) -> Self:
        self.held = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        with open(self.fifo, "rb") as fh:  # waits for a writer
            while chunk := fh.read(1 << 16):
                self.chunks.append(chunk)

    def __exit__(self, *exc) -> None:
        with contextlib.suppress(OSError):  # no writer came: wake the thread with an empty one
            os.close(os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK))
        self.thread.join(60)
        os.close(self.held)
        self.data = b"".join(self.chunks)


def _listing(folder) -> dict[str, tuple]:
    """Every name in ``folder`` with its kind, link target and content: what a write may not change."""
    out = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            out[name] = ("link", os.readlink(path))
        elif stat.S_ISREG(info.st_mode):
            out[name] = ("file", Path(path).read_bytes(), stat.S_IMODE(info.st_mode))
        else:
            out[name] = (stat.S_IFMT(info.st_mode),)
    return out


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.svg"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "board.svg"
    link.symlink_to("real.svg")
    write_text(str(link), "new\n")
    assert link.is_symlink() and os.readlink(link) == "real.svg"
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the file's mode is kept on replace
    assert sorted(os.listdir(tmp_path)) == ["board.svg", "real.svg"]  # no temporary file left


def test_a_link_to_nothing_yet_makes_its_target(tmp_path):
    link = tmp_path / "board.svg"
    link.symlink_to("made.svg")
    write_text(str(link), "new\n")
    assert link.is_symlink() and (tmp_path / "made.svg").read_text() == "new\n"


def test_a_new_file_gets_the_mode_of_any_new_file(tmp_path):
    reference = tmp_path / "reference"
    reference.write_text("")
    write_text(str(tmp_path / "new.txt"), "x")
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == stat.S_IMODE(reference.stat().st_mode)


def test_a_character_device_is_written_in_place(tmp_path):
    null, full = tmp_path / "null", tmp_path / "full"
    null.symlink_to(os.devnull)
    full.symlink_to("/dev/" + "full")
    write_text(str(null), "anything\n")
    with pytest.raises(RecordError) as error:
        write_text(str(full), "anything\n")
    assert str(error.value) == f"{full}: cannot write (No space left on device)"
    assert null.is_symlink() and full.is_symlink() and stat.S_ISCHR(null.stat().st_mode)
    assert sorted(os.listdir(tmp_path)) == ["full", "null"]


def test_a_fifo_nobody_reads_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with no_hang(), pytest.raises(RecordError) as error:
        write_text(str(fifo), "x" * 100)
    assert str(error.value) == f"{fifo}: a pipe that nobody reads: start its reader first, or give a file"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_fifo_with_a_reader_gets_the_whole_text(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    text = "0123456789" * 30000  # more than a pipe holds: the writer waits for the reader
    with no_hang(), FifoReader(fifo) as reader:
        write_text(str(fifo), text)
    assert reader.data == text.encode()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_socket_a_folder_and_a_link_loop_are_refused_by_the_path_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a socket's address is short
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        (tmp_path / "folder").mkdir()
        os.symlink("loop", "loop")
        for name, words in (
            ("sock", "a socket, not a file"),
            ("folder", "is a folder, not a file"),
            ("loop", "cannot write (Too many levels of symbolic links)"),
        ):
            with pytest.raises(RecordError) as error:
                write_text(name, "x")
            assert str(error.value) == f"{name}: {words}"
            with pytest.raises(RecordError) as error:
                check_output_file(name, "--out")
            assert str(error.value) == f"--out {name}: {words}"
        assert stat.S_ISSOCK(os.lstat("sock").st_mode)


def test_a_users_tmp_file_and_a_tmp_folder_are_not_touched(tmp_path):
    (tmp_path / "board.svg.tmp").write_text("mine\n")
    (tmp_path / "report.md.tmp").mkdir()
    write_text(str(tmp_path / "board.svg"), "new\n")
    write_text(str(tmp_path / "report.md"), "new\n")
    assert (tmp_path / "board.svg.tmp").read_text() == "mine\n"
    assert (tmp_path / "report.md").read_text() == "new\n" and (tmp_path / "report.md.tmp").is_dir()
    assert sorted(os.listdir(tmp_path)) == ["board.svg", "board.svg.tmp", "report.md", "report.md.tmp"]


@pytest.mark.parametrize(
    "failure", [OSError(28, "No space left on device"), KeyboardInterrupt()], ids=["disk-full", "ctrl-c"]
)
def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch, failure):
    target = tmp_path / "report.md"
    target.write_text("old\n")
    before = _listing(tmp_path)

    def fail(*args):
        raise failure

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(RecordError if isinstance(failure, OSError) else KeyboardInterrupt) as error:
        write_text(str(target), "new\n")
    if isinstance(failure, OSError):
        assert str(error.value) == f"{target}: cannot write (No space left on device)"
    assert _listing(tmp_path) == before


def test_check_output_file_follows_a_link_to_its_folder(tmp_path):
    link = tmp_path / "out.svg"
    link.symlink_to(tmp_path / "gone" / "out.svg")
    with pytest.raises(RecordError) as error:
        check_output_file(str(link), "--out")
    assert str(error.value) == f"--out {link}: folder {tmp_path / 'gone'} does not exist"
    check_output_file(str(tmp_path / "gone" / "x.md"), "--report", made=str(tmp_path / "gone"))


def test_a_folder_through_a_link_to_nothing_yet_is_made_at_its_target(tmp_path):
    link = tmp_path / "pictures"
    link.symlink_to("real")
    assert make_output_folder(str(link), "--pictures") is True
    assert link.is_symlink() and (tmp_path / "real").is_dir()
    assert make_output_folder(str(link), "--pictures") is False


# ---------------------------------------------------------------- records appended as games end


def _records(path) -> RecordFile:
    return RecordFile(str(path), HEADER)


def test_a_record_file_is_appended_through_a_link(tmp_path):
    link = tmp_path / "games.jsonl"
    link.symlink_to("real.jsonl")
    with _records(link):
        pass
    assert link.is_symlink()
    assert json.loads((tmp_path / "real.jsonl").read_text())["config"] == json.loads(json.dumps(HEADER))
    with _records(link) as store:  # resumed through the link
        assert store.done == {}
    assert link.is_symlink() and len((tmp_path / "real.jsonl").read_text().splitlines()) == 1


def test_a_record_file_on_a_device_a_fifo_or_a_socket(tmp_path, monkeypatch):
    null, full, fifo = tmp_path / "null", tmp_path / "full", tmp_path / "pipe"
    null.symlink_to(os.devnull)
    full.symlink_to("/dev/" + "full")
    os.mkfifo(fifo)
    with _records(null):
        pass
    with pytest.raises(RecordError) as error, _records(full):
        pass
    assert str(error.value) == f"{full}: cannot write (No space left on device)"
    with no_hang(), pytest.raises(RecordError) as error, _records(fifo):
        pass
    assert str(error.value) == f"{fifo}: a pipe, not a file: records are read back to resume"
    monkeypatch.chdir(tmp_path)
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        with pytest.raises(RecordError) as error, _records("sock"):
            pass
        assert str(error.value) == "--out sock: a socket, not a file"
    assert null.is_symlink() and full.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_record_file_that_cannot_start_is_not_left_behind(tmp_path, monkeypatch):
    path = tmp_path / "games.jsonl"

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", fail)
    with pytest.raises(RecordError) as error, _records(path):
        pass
    assert str(error.value) == f"{path}: cannot write (No space left on device)"
    assert os.listdir(tmp_path) == []
