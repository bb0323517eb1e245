"""The files and folders a run writes besides its records (``--out``, ``--report``,
``--csv``, pictures): checked before any work, written whole or not at all."""

from __future__ import annotations

import os

from .schema import RecordError


def check_output_file(path: str, option: str) -> None:
    """A file option (``match --out``, ``--report``, ``--csv``): its folder must exist.

    Raises:
        RecordError: naming the option and the path.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise RecordError(f"{option} {path}: folder {folder} does not exist")
    if os.path.isdir(path):
        raise RecordError(f"{option} {path}: is a folder, not a file")


def make_output_folder(path: str, option: str = "--out") -> bool:
    """A folder option (``tournament``/``balance --out``): created when its parent
    exists; True when this call created it.

    Raises:
        RecordError: the parent folder is missing, or the path is a file.
    """
    if os.path.isdir(path):
        return False
    if os.path.exists(path):
        raise RecordError(f"{option} {path}: not a folder")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise RecordError(f"{option} {path}: folder {parent} does not exist")
    try:
        os.mkdir(path)
    except FileExistsError:
        return False
    except OSError as exc:
        raise RecordError(f"{option} {path}: cannot create the folder ({exc.strerror or exc})") from None
    return True


def write_text(path: str, text: str | bytes) -> None:
    """Write ``path`` whole or not at all (through a temporary file beside it); bytes
    (a PNG picture) as they are, text as UTF-8."""
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") if isinstance(text, bytes) else open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
