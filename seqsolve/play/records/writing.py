"""Writing record files: a run holds an exclusive lock (``fcntl.flock``) on its record
file, or on its output folder, from start to end, so two runs writing the same games
twice is refused; a record file is appended whole lines at a time and resumed where an
interrupted run stopped."""

from __future__ import annotations

import fcntl
import json
import os
import stat
from typing import Self

from .outputs import check_output_file
from .reading import check_file, games_by_number
from .schema import RECORD_FORMAT, RecordError


def _lock(fd: int, path: str, what: str) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise RecordError(
            f"{path}: in use by another seqsolve run; wait for it to end or choose another {what}"
        ) from None
    except OSError as exc:
        os.close(fd)
        raise RecordError(f"{path}: cannot lock ({exc.strerror or exc})") from None


def record_lines(records: list[dict]) -> str:
    """Game records as the lines of a record file, each ending in a newline.

    >>> record_lines([{"game": 0, "score": 1.0}])
    '{"game":0,"score":1.0}\\n'
    """
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


class RecordFile:
    """A record file open for a run: checked, locked until :meth:`close`, resumable.

    Opening an empty or missing file writes the header; opening an existing one
    checks every line, refuses another match's file, drops an interrupted last
    line, and keeps the games in ``done``.
    """

    def __init__(self, path: str, config: dict):
        self.path = path
        self.header = json.loads(json.dumps({"seqsolve": "match", "format": RECORD_FORMAT, "config": config}))
        self.done: dict[int, dict] = {}
        self.fd: int | None = None

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def open(self) -> None:
        """Open (through a symbolic link, its target), lock, check and resume, or write the
        header.  Refused: a FIFO (records are read back to resume), and what
        :func:`~seqsolve.play.records.outputs.check_output_file` refuses; a character
        device (``/dev/null``) is written.  A file this call made goes again if it fails."""
        check_output_file(self.path, "--out")
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC | os.O_NOCTTY
        created = False
        try:
            try:  # made here (not a dangling link's target): removed again on a refusal
                fd, created = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
            except FileExistsError:
                fd = os.open(self.path, flags | os.O_CREAT, 0o666)
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot open ({exc.strerror or exc})") from None
        _lock(fd, self.path, "--out")
        self.fd = fd
        try:
            info = os.fstat(fd)
            if stat.S_ISFIFO(info.st_mode):  # nobody may read it: the run would hang once it is full
                raise RecordError(f"{self.path}: a pipe, not a file: records are read back to resume")
            if not stat.S_ISREG(info.st_mode) and not stat.S_ISCHR(info.st_mode):
                raise RecordError(f"{self.path}: not a file")
            if not stat.S_ISREG(info.st_mode) or info.st_size == 0:  # a new file (or a device)
                self._write(json.dumps(self.header) + "\n")
            else:
                self._resume()
        except BaseException:
            self.close()
            if created:
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            raise

    def _resume(self) -> None:
        found = check_file(self.path, self.header["config"], self.fd)
        self.done = games_by_number(found.games)
        if found.keep < os.fstat(self.fd).st_size:
            os.ftruncate(self.fd, found.keep)
        if found.newline_missing:
            self._write("\n")

    def append(self, records: list[dict], lines: str | None = None) -> None:
        """Write finished games: whole lines or nothing (a failed write is undone).
        ``lines``, when given, is :func:`record_lines` of ``records``, made by the worker
        that played them (a tenth of a greedy game's cost, spared the runner)."""
        self._write(record_lines(records) if lines is None else lines)
        for r in records:
            self.done[r["game"]] = r

    def _write(self, text: str) -> None:
        info = os.fstat(self.fd)
        regular = stat.S_ISREG(info.st_mode)
        data = text.encode("utf-8")
        try:
            while data:
                data = data[os.write(self.fd, data) :]
            if regular:
                os.fsync(self.fd)
        except OSError as exc:
            if regular:
                try:
                    os.ftruncate(self.fd, info.st_size)
                except OSError:
                    pass
            raise RecordError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None


class FolderLock:
    """An exclusive lock on an output folder (``--out DIR``) for a whole run."""

    def __init__(self, folder: str, option: str = "--out"):
        self.folder, self.option, self.fd = folder, option, None

    def __enter__(self) -> Self:
        try:
            fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise RecordError(f"{self.folder}: cannot open the folder ({exc.strerror or exc})") from None
        _lock(fd, self.folder, self.option)
        self.fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
