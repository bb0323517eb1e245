"""Reading record files: every reader goes through :func:`scan`, which checks the
whole file before anyone uses it, so a damaged file is refused in one line naming
``file:line`` and the problem, never half-way through a replay or after new games were
appended.  The one exception is a last line without its newline that is not JSON: an
interrupted write, dropped (and cut off on resume)."""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass, field

from .schema import RecordError, check_game, check_header, header_game


@dataclass
class Scan:
    """A checked record file: its header, its games with their line numbers, and
    ``keep``, how many bytes are worth keeping (an interrupted last line left out)."""

    path: str
    header: dict
    games: list[tuple[int, dict]] = field(default_factory=list)
    keep: int = 0
    #: the last line kept lacks its newline (a write cut just before it)
    newline_missing: bool = False


#: what is read from a pipe or device before it is refused (a regular file is read whole)
MAX_STREAM_BYTES = 256 << 20


def _open_to_read(path: str):
    """``open(path, "rb")`` that does not wait for a FIFO's writer: a FIFO nobody
    writes to reads as empty instead of hanging the command."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    os.set_blocking(fd, True)  # a pipe with a writer is then read to its end
    return os.fdopen(fd, "rb")


def _read_bytes(path: str, fd: int | None = None) -> bytes:
    try:
        if fd is None:
            with _open_to_read(path) as fh:
                if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    return fh.read()
                data = fh.read(MAX_STREAM_BYTES + 1)  # a pipe or a device: /dev/zero never ends
            if len(data) > MAX_STREAM_BYTES:
                raise RecordError(
                    f"{path}: not a file, and more than {MAX_STREAM_BYTES >> 20} MB: not a record file"
                )
            return data
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror or exc})") from None


#: deeper JSON is not a record: the parser's own limit ends in a RecursionError, and a
#: parse that deep can leave "Exception ignored in sys.unraisablehook" on stderr
MAX_JSON_DEPTH = 100


def loads_json(raw: bytes):
    """The JSON value of one line of a file seqsolve wrote (a record, a manifest).

    Raises:
        UnicodeDecodeError: not UTF-8 text.
        ValueError: not JSON, or nested deeper than :data:`MAX_JSON_DEPTH`.
    """
    text = raw.decode("utf-8")
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"nested more than {MAX_JSON_DEPTH} deep")
    return json.loads(text)


def _depth(text: str) -> int:
    """How deep the brackets of JSON ``text`` nest, outside its strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _header_of(path: str, raw: bytes) -> dict:
    try:
        header = loads_json(raw)
    except UnicodeDecodeError:
        raise RecordError(f"{path}:1: not a seqsolve match record file (not UTF-8 text)") from None
    except ValueError:
        raise RecordError(f"{path}:1: not a seqsolve match record file") from None
    return check_header(header, path)


def scan(path: str, fd: int | None = None) -> Scan:
    """Read and check every line of the record file ``path`` (through ``fd`` when open).

    Raises:
        RecordError: naming ``path:line`` and what is wrong; the file is not touched.
    """
    return scan_bytes(path, _read_bytes(path, fd))


def scan_bytes(path: str, data: bytes) -> Scan:
    """:func:`scan` of a record file's bytes already read (a record pasted in
    ``seqsolve serve``'s page), ``path`` naming it in the messages.

    Raises:
        RecordError: naming ``path:line`` and what is wrong.
    """
    lines = data.split(b"\n")
    out = Scan(path, _header_of(path, lines[0]), keep=len(lines[0]) + 1)
    last = len(lines)  # the number of the segment after the last newline
    seed, bots = out.header["config"]["seed"], out.header["config"]["bots"]
    game = None  # the game the header names, read at the first game record
    for number, raw in enumerate(lines[1:], start=2):
        size = len(raw) + (number < last)
        if not raw.strip():
            out.keep += size
            continue
        try:
            record = loads_json(raw)
        except UnicodeDecodeError:
            raise RecordError(f"{path}:{number}: not UTF-8 text") from None
        except ValueError:
            if number == last:
                break  # no newline after it: a write cut short, dropped
            raise RecordError(f"{path}:{number}: not a JSON line") from None
        problem = check_game(record)
        if problem:
            raise RecordError(f"{path}:{number}: {problem}")
        if record["seed"] != seed:
            raise RecordError(
                f"{path}:{number}: a game of seed {record['seed']} among the games of seed {seed}"
            )
        game = game or header_game(out.header, path)
        held = (record["variant"], record["players"], record["teams"])
        if held != game:
            raise RecordError(f"{path}:{number}: a game of {_game(held)} among the games of {_game(game)}")
        if not all(0 <= b < len(bots) for b in record["side_bot"]):
            raise RecordError(f"{path}:{number}: 'side_bot' must number the header's {len(bots)} bots from 0")
        if record.get("moves"):
            # one string per distinct move, as the games played here hold them: parsed
            # apart, the 880,000 games of a long seqsolve-fair race (some 300 moves each)
            # took more than 24 GB, shared about 11 GB (the whole report)
            record["moves"] = list(map(sys.intern, record["moves"]))
        out.games.append((number, record))
        out.keep += size
    out.keep = min(out.keep, len(data))
    out.newline_missing = data[out.keep - 1 : out.keep] != b"\n"
    return out


def check_file(path: str, config: dict, fd: int | None = None) -> Scan:
    """Check, reading only, that the record file ``path`` may be resumed by a run of
    the match ``config`` (a config's JSON): every line a game record, the header's
    match this one, and every game this match's game of its number (its moves are not
    replayed: that would cost as much as playing random games again).

    Raises:
        RecordError: naming ``path:line``; the file is not touched.
    """
    from ..config import MatchConfig, not_this_match  # numpy: not for --help

    found = scan(path, fd)
    check_seed_scheme(found.header["config"], config, path)
    if found.header["config"] != json.loads(json.dumps(config)):
        raise RecordError(
            f"{path}:1: holds a different match ({_describe(found.header['config'])}); "
            "use the same options to resume, or choose another --out"
        )
    match = MatchConfig.from_json(found.header["config"])
    for number, record in found.games:
        problem = not_this_match(match, record)
        if problem:
            raise RecordError(f"{path}:{number}: {problem}")
    return found


def check_seed_scheme(held: dict, config: dict, path: str) -> None:
    """Refuse a tournament's or balance run's record file made before their matches
    had streams (:mod:`.seeds`): its games were dealt from another seed (the root plus
    a multiple of a prime, or a hash of the variant), so the same command would now
    play other games, and mixing them would change the numbers.

    Raises:
        RecordError: naming the file and what to do.
    """
    if "stream" in config and "stream" not in held:
        raise RecordError(
            f"{path}:1: made with the seeds of seqsolve before spawn-key streams (its seed {held.get('seed')}"
            " is not a root seed), so its games cannot be resumed; choose another --out"
        )


def check_files(runs: list[tuple[str, dict]]) -> None:
    """:func:`check_file` for every ``(path, config)`` whose file exists and is not
    empty: a run writing several record files (tournament, balance) refuses a damaged
    one before it plays any game, not after the games of the files before it."""
    for path, config in runs:
        if os.path.isfile(path) and os.path.getsize(path) > 0:
            check_file(path, config)


def read_records(path: str) -> tuple[dict, list[dict]]:
    """The header and the game records of a record file, ordered by game number
    (the first of two records of one game wins)."""
    found = scan(path)
    return found.header, sorted(games_by_number(found.games).values(), key=lambda r: r["game"])


def games_by_number(games: list[tuple[int, dict]]) -> dict[int, dict]:
    """The games of a :class:`Scan` by number, the first record of a game kept: a run
    interrupted after writing a game may write it again on resume."""
    done: dict[int, dict] = {}
    for _, record in games:
        done.setdefault(record["game"], record)
    return done


def find_game(path: str, game: int) -> tuple[dict, str] | tuple[None, int]:
    """Game number ``game`` of the record file and where it is (``path:line``), or
    ``(None, number of games held)``."""
    found = scan(path)
    for number, record in found.games:
        if record["game"] == game:
            return record, f"{path}:{number}"
    return None, len(games_by_number(found.games))


def recorded_seed(path: str, config: dict) -> int | None:
    """The seed of the match the record file ``path`` holds, when that match is
    ``config`` (a config's JSON) in all but its seed; else None (no file, another
    match, not ours).

    A command run without ``--seed`` draws a fresh one, so rerunning it after an
    interruption would meet its own records as "a different match"; taking the
    seed from the file is what lets the same command resume."""
    try:
        with _open_to_read(path) as fh:
            header = _header_of(path, fh.readline(1 << 20).rstrip(b"\n"))
    except (OSError, ValueError):
        return None
    held = dict(header["config"])
    seed = held.pop("seed")
    mine = json.loads(json.dumps(config))
    mine.pop("seed", None)
    return seed if held == mine else None


def _game(game: tuple[str, int, int]) -> str:
    variant, players, sides = game
    return f"{variant}, {players} players, {sides} sides"


def _describe(config) -> str:
    return ", ".join(f"{k}={config.get(k)}" for k in ("bots", "variant", "players", "seed"))
