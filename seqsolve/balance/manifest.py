"""The output folder of a balance run or a race (``seqsolve fair``, :mod:`.race`): its
``manifest.json`` (what was run, so that a rerun resumes only the same run) and the lock
held while games are written."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator

from ..play.records import (
    FolderLock,
    check_files,
    loads_json,
    make_output_folder,
    write_text,
)
from ..play.seeds import SEED_SCHEME
from .grid import BalanceError, VariantPoint
from .run import BalanceConfig, jobs_of

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1


def _manifest(config: BalanceConfig, kind: str = "balance") -> dict:
    return {
        "seqsolve": kind,
        "format": MANIFEST_FORMAT,
        "seed": config.seed,
        "seeds": SEED_SCHEME,
        "bots": list(config.bots),
        "strong": config.strong,
        "weak": config.weak,
        "restrict": list(config.restrict),
        "points": [{**point.to_json(), "dir": point.slug} for point in config.points],
    }


#: What a manifest must hold the same for a rerun to resume it (rather than mix two runs
#: in one folder and replace the first one's report).
RUN_KEYS = {
    "seed": "seed",
    "bots": "bots",
    "points": "variants",
    "restrict": "restrict",
    "weak": "weak",
    "strong": "strong",
}


def _run_value(manifest: dict, key: str) -> str:
    value = manifest.get(key, [] if key == "restrict" else None)
    if key == "points" and isinstance(value, list):
        try:
            return ", ".join(
                VariantPoint(*(e[k] for k in ("variant", "players", "teams", "replica"))).label for e in value
            )
        except (KeyError, TypeError):
            pass
    return json.dumps(value)


def read_manifest(out: str, kind: str = "balance") -> dict | None:
    """The manifest of an output folder, or None when there is none; ``kind`` is the
    command whose run it must hold (``balance`` or ``fair``)."""
    path = os.path.join(out, MANIFEST)
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as fh:
            data = loads_json(fh.read())
    except (OSError, ValueError):
        raise BalanceError(f"{path}: not a seqsolve {kind} manifest; choose another --out") from None
    if not isinstance(data, dict) or data.get("seqsolve") != kind:
        raise BalanceError(f"{path}: not a seqsolve {kind} manifest; choose another --out")
    if data.get("format") != MANIFEST_FORMAT:
        raise BalanceError(
            f"{path}: manifest format {json.dumps(data.get('format'))} is not one this seqsolve reads"
        )
    if not isinstance(data.get("seed"), int) or isinstance(data.get("seed"), bool):
        raise BalanceError(f"{path}: the manifest has no integer 'seed'")
    return data


@contextlib.contextmanager
def open_output(
    config: BalanceConfig, out: str, kind: str = "balance", extra: dict | None = None
) -> Iterator[None]:
    """Create (when its parent exists) and lock the output folder for the run, and
    check that it holds this run or nothing: its manifest keeps what decides the games
    and the report (:data:`RUN_KEYS`, and every key of ``extra``: a race's own rule),
    and a rerun with any of them changed is refused rather than mixing two runs.  The
    lock is held until the ``with`` block ends.
    """
    created = make_output_folder(out)
    running = False
    try:
        with FolderLock(out):
            found = read_manifest(out, kind)
            mine = {**_manifest(config, kind), **(extra or {})}
            if found is not None:
                if found.get("seeds") != SEED_SCHEME:
                    raise BalanceError(
                        f"{out} holds a {kind} run made with the seeds of seqsolve before spawn-key streams;"
                        " its games cannot be resumed: choose another --out"
                    )
                for key, name in {**RUN_KEYS, **{k: k for k in extra or {}}}.items():
                    if _run_value(found, key) != _run_value(mine, key):
                        raise BalanceError(
                            f"{out} holds a {kind} run with {name}={_run_value(found, key)}, not "
                            f"{_run_value(mine, key)}; use the same options to resume, or choose another --out"
                        )
            elif os.listdir(out):
                raise BalanceError(
                    f"--out {out}: the folder is not empty and holds no {kind} run; choose another"
                )
            check_files(
                [
                    (os.path.join(out, point.slug, job.filename), job.config.to_json())
                    for point in config.points
                    for job in jobs_of(config, point)
                ]
            )
            for point in config.points:
                os.makedirs(os.path.join(out, point.slug), exist_ok=True)
            write_text(os.path.join(out, MANIFEST), json.dumps(mine, indent=2))
            running = True
            yield
    except BaseException:
        if created and not running:  # refused before any game: leave nothing behind
            _remove_new_folder(out, [point.slug for point in config.points])
        raise


def _remove_new_folder(out: str, slugs: list[str]) -> None:
    """The folder :func:`open_output` made, with the manifest and the empty point
    folders it put there (anything else in it stays, and so does the folder)."""
    folder = os.path.realpath(out)
    with contextlib.suppress(OSError):
        os.unlink(os.path.join(folder, MANIFEST))
    for slug in slugs:
        with contextlib.suppress(OSError):
            os.rmdir(os.path.join(folder, slug))
    with contextlib.suppress(OSError):
        os.rmdir(folder)
