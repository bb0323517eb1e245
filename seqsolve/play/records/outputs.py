"""The files and folders a run writes besides its records (``--out``, ``--report``,
``--csv``, pictures, ``play``'s record and ``save``): checked before any work, written
whole or not at all, and never at the cost of anything already there.

What is at the path decides how it is written (:func:`write_text`):

* nothing, or a regular file: a new file with a unique name beside it (beside the
  target of a symbolic link) is written, then renamed over it; a file's permission
  bits and owner are kept, a file that may not be written is refused, and the
  temporary file is removed on any failure, Ctrl-C included.  A symbolic link stays
  a link: its target is replaced.
* a character device (``/dev/null``, a terminal): written in place.
* a FIFO: written in place when a reader has it open, refused otherwise (a writer
  would wait for a reader that may never come).
* a folder, a block device (a disk) or a socket: refused.

Every refusal is one :class:`RecordError` naming the path as the user gave it.
"""

from __future__ import annotations

import errno
import io
import os
import stat

from .schema import RecordError

#: what each kind of existing path is called in a refusal
_REFUSED = {
    stat.S_ISDIR: "is a folder, not a file",
    stat.S_ISBLK: "a block device, not a file",
    stat.S_ISSOCK: "a socket, not a file",
}
#: a FIFO that nobody reads (``open`` with ``O_NONBLOCK`` says ENXIO)
NO_READER = "a pipe that nobody reads: start its reader first, or give a file"
#: a temporary file's name keeps this much of the target's name (names are at most 255 bytes)
_TMP_NAME_KEEP = 100


def _stat(path: str, where: str) -> os.stat_result | None:
    """What ``path`` names (through links); None when nothing is there yet."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a link loop, a file where a folder should be, no permission
        raise RecordError(f"{where}: cannot write ({exc.strerror or exc})") from None


def _refusal(info: os.stat_result) -> str | None:
    for test, words in _REFUSED.items():
        if test(info.st_mode):
            return words
    return None


def check_output_file(path: str, option: str, made: str | None = None) -> None:
    """A file option (``match --out``, ``--report``, ``--csv``, ``save``): the folder of
    the file (of a symbolic link's target) must exist, or be ``made``, the folder the
    command makes itself (``balance --out DIR --report DIR/report.md``), and the path must
    be something a file can be written to (not a folder, a block device or a socket).

    Raises:
        RecordError: naming the option and the path.
    """
    where = f"{option} {path}"
    info = _stat(path, where)
    if info is not None:
        refused = _refusal(info)
        if refused:
            raise RecordError(f"{where}: {refused}")
        return
    folder = os.path.dirname(os.path.realpath(path))
    if made is not None and folder == os.path.realpath(made):
        return
    if not os.path.isdir(folder):
        raise RecordError(f"{where}: folder {folder} does not exist")


def check_output_folder(path: str, option: str = "--out") -> bool:
    """A folder option (``tournament``/``balance --out``, ``--pictures``) before any work:
    a folder, or nothing yet in a folder that exists.  True when it must be made.

    Raises:
        RecordError: the parent folder is missing, or the path is not a folder.
    """
    if os.path.isdir(path):
        return False
    if os.path.exists(path):
        raise RecordError(f"{option} {path}: not a folder")
    parent = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(parent):
        raise RecordError(f"{option} {path}: folder {parent} does not exist")
    return True


def make_output_folder(path: str, option: str = "--out") -> bool:
    """A folder option, created (through a symbolic link to a missing folder, its
    target) when its parent exists; True when this call created it.  Call it once the
    command is known to go on, so a refused command leaves no folder behind.

    Raises:
        RecordError: the parent folder is missing, or the path is not a folder.
    """
    if not check_output_folder(path, option):
        return False
    try:
        os.mkdir(os.path.realpath(path))
    except FileExistsError:
        return False
    except OSError as exc:
        raise RecordError(f"{option} {path}: cannot create the folder ({exc.strerror or exc})") from None
    return True


def write_text(path: str, text: str | bytes) -> None:
    """Write ``path`` whole or not at all, destroying nothing (see the module's rules);
    bytes (a PNG picture) as they are, text as UTF-8.

    Raises:
        RecordError: naming ``path``: it cannot be written, or is refused.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    info = _stat(path, path)
    if info is None or stat.S_ISREG(info.st_mode):
        _replace(path, data, info)
        return
    refused = _refusal(info)
    if refused:
        raise RecordError(f"{path}: {refused}")
    _write_in_place(path, data, fifo=stat.S_ISFIFO(info.st_mode))


def write_figure(fig, path: str) -> str:
    """A matplotlib figure as the PNG file ``path``, by :func:`write_text`'s rules
    (matplotlib's own ``savefig(path)`` truncates whatever is there); the path."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    write_text(path, buffer.getvalue())
    return path


def _write_in_place(path: str, data: bytes, fifo: bool) -> None:
    """A character device or a FIFO: opened without creating or truncating anything."""
    flags = os.O_WRONLY | os.O_CLOEXEC | os.O_NOCTTY | (os.O_NONBLOCK if fifo else 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if fifo and exc.errno == errno.ENXIO:
            raise RecordError(f"{path}: {NO_READER}") from None
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        if fifo:
            os.set_blocking(fd, True)  # the reader takes the data at its own pace
        _write_all(fd, data)
    except OSError as exc:
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _replace(path: str, data: bytes, info: os.stat_result | None) -> None:
    """A new or regular file: a temporary file with a unique name beside the target,
    renamed over it once it is whole."""
    target = os.path.realpath(path)
    if info is not None and not os.access(target, os.W_OK):  # a rename would bypass the file's mode
        raise RecordError(f"{path}: cannot write ({os.strerror(errno.EACCES)})")
    folder, name = os.path.split(target)
    tmp = None
    try:
        fd, tmp = _new_temporary(folder, name, info)
        with os.fdopen(fd, "wb") as fh:
            if info is not None:
                _keep_owner_and_mode(fh.fileno(), info)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:  # any failure, KeyboardInterrupt too: the temporary file goes
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _new_temporary(folder: str, name: str, info: os.stat_result | None) -> tuple[int, str]:
    """A file no one else has (``O_EXCL``) in ``folder``: ``.NAME.RANDOM.tmp``.  A new
    output gets the mode any new file gets (0666 less the umask); a replaced one starts
    private and takes the old file's mode once its owner is set."""
    mode = 0o666 if info is None else 0o600
    for _ in range(100):
        tmp = os.path.join(folder, f".{name[:_TMP_NAME_KEEP]}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name in {folder}")


def _keep_owner_and_mode(fd: int, info: os.stat_result) -> None:
    try:  # only root may give a file away; anyone else keeps writing their own files
        if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            os.fchown(fd, info.st_uid, info.st_gid)
    except OSError:
        pass
    os.fchmod(fd, stat.S_IMODE(info.st_mode))  # after chown, which may clear set-id bits
