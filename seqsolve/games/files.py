"""The text of a position file, whatever its game: at most :data:`MAX_FILE_BYTES` of
UTF-8 (a byte-order mark allowed).  What is not such text is refused as a whole, a
:class:`~seqsolve.games.base.PositionError` at line 0, column 0, without echoing any of it."""

from __future__ import annotations

import os

from .base import PositionError

# A position file is a few hundred bytes; readers stop here so that /dev/zero or a
# huge file is refused at once instead of filling the memory.
MAX_FILE_BYTES = 1 << 20


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of the file at ``path``; an unreadable file is a PositionError.

    A FIFO is opened without waiting for a writer (one with none reads as empty), and
    at most :data:`MAX_FILE_BYTES` are read, so no file can make this hang or fill memory.
    """
    source = os.fspath(path)
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            os.set_blocking(fd, True)  # a pipe with a writer is then read to its end
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PositionError(source, 0, 0, f"cannot read position file: {exc.strerror or exc}") from None
    return text_of(data, source)


def read_stream_text(stream, source: str = "<stdin>") -> str:
    """The text of an open stream (standard input), with the limits of :func:`read_text`."""
    data = getattr(stream, "buffer", stream).read(MAX_FILE_BYTES + 1)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return text_of(data, source)


def text_of(data: bytes, source: str) -> str:
    """A position file's bytes as text, or a PositionError saying why they are not.

    >>> text_of(b"\\xef\\xbb\\xbfclassic ...", "f")
    'classic ...'
    """
    if len(data) > MAX_FILE_BYTES:
        raise PositionError(source, 0, 0, f"larger than {MAX_FILE_BYTES >> 20} MB: not a position file")
    nul = data.find(b"\0")
    if nul >= 0:
        raise PositionError(source, 0, 0, f"binary data (a NUL byte at offset {nul}): not a position file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PositionError(
            source, 0, 0, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
