"""Match record files: the one place that reads, checks, locks, appends and replays them.

A record file is JSON lines: a header ``{"seqsolve": "match", "format": 1,
"config": {...}}`` naming the match, then one object per finished game (see
:data:`GAME_FIELDS`).  Every reader goes through :func:`scan`, which checks the
whole file before anyone uses it, so a damaged file is refused in one line
naming ``file:line`` and the problem, never half-way through a replay or after
new games were appended.  The one exception is a last line without its newline
that is not JSON: an interrupted write, dropped (and cut off on resume).

A run holds an exclusive lock (``fcntl.flock``) on its record file, or on its
output folder, from start to end: two runs writing the same games twice is
refused instead.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..games import RulesError, game_for, rules_for

RECORD_FORMAT = 1


class RecordError(ValueError):
    """A record file that cannot be used (its message names the file and line), or that
    cannot be read, written or locked."""


# ---------------------------------------------------------------- the schema


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _strings(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _ints(v) -> bool:
    return isinstance(v, list) and all(_int(x) for x in v)


#: the termination of a game stopped before its end (``seqsolve play`` left, to be
#: resumed): its record has no result and no score (both null)
UNFINISHED = "unfinished"

#: Every field of a game record, with what it must hold.
GAME_FIELDS = {
    "game": ("a game number (0, 1, ...)", lambda v: _int(v) and v >= 0),
    "deal": ("a deal number (0, 1, ...)", lambda v: _int(v) and v >= 0),
    "variant": ("a variant name", lambda v: isinstance(v, str)),
    "players": ("a number of players", _int),
    "teams": ("a number of sides", _int),
    "seed": ("a seed (0, 1, ...)", lambda v: _int(v) and v >= 0),
    "seats": ("a list of bot specs", _strings),
    "side_bot": ("a list of bot numbers", _ints),
    "moves": ("a list of moves", _strings),
    "result": (
        "a side's character, 'draw' or null",
        lambda v: v is None or v == "draw" or (isinstance(v, str) and len(v) == 1 and v.isalnum()),
    ),
    "winner_side": ("a side number or null", lambda v: v is None or _int(v)),
    "termination": ("why the game ended", lambda v: isinstance(v, str)),
    "forfeit": ("null or the forfeit", lambda v: v is None or isinstance(v, dict)),
    "turns": ("a number of turns", lambda v: _int(v) and v >= 0),
    "plies": ("a number of actions", lambda v: _int(v) and v >= 0),
    "score": ("a score from 0 to 1", lambda v: v is None or (_number(v) and 0 <= v <= 1)),
}


def _stream(v) -> bool:
    """A spawn-key prefix (:mod:`.seeds`): whole numbers 0, 1, ... and texts."""
    return isinstance(v, list) and all(isinstance(p, str) or (_int(p) and p >= 0) for p in v)


#: Fields a game record has only in some runs, with what they must hold.
OPTIONAL_FIELDS = {
    "stream": ("a stream key (whole numbers and texts)", _stream),
    # a game played on from a position file (``play --from``): the position, every card
    # listed, that the moves start from instead of the deal
    "start": ("a position file's text", lambda v: isinstance(v, str)),
}


def check_game(record) -> str | None:
    """What is wrong with one game record, or None when it can be used.

    >>> check_game(None)
    'a game record is a JSON object, not null'
    >>> check_game({"game": "0"})[:40]
    "'game' must be a game number (0, 1, ...)"
    """
    if not isinstance(record, dict):
        return f"a game record is a JSON object, not {json.dumps(record)[:40]}"
    for name, (what, valid) in GAME_FIELDS.items():
        if name not in record:
            return f"the game record has no {name!r}"
        if not valid(record[name]):
            return f"{name!r} must be {what}, not {json.dumps(record[name])[:40]}"
    for name, (what, valid) in OPTIONAL_FIELDS.items():
        if name in record and not valid(record[name]):
            return f"{name!r} must be {what}, not {json.dumps(record[name])[:40]}"
    unfinished = record["termination"] == UNFINISHED
    for name in ("result", "score"):
        if (record[name] is None) != unfinished:
            state = "null only in" if record[name] is None else "null in"
            return f"{name!r} must be {state} an unfinished game's record"
    try:
        rules = rules_for(record["variant"], record["players"], record["teams"])
    except RulesError as exc:
        return f"the game cannot be set up: {exc}"
    if len(record["seats"]) != rules.players:
        return f"'seats' names {len(record['seats'])} bots for {rules.players} seats"
    side = record["winner_side"]
    if side is not None and not 0 <= side < rules.teams:
        return f"'winner_side' must be a side from 0 to {rules.teams - 1} or null, not {side}"
    if len(record["side_bot"]) != rules.teams:
        return f"'side_bot' names {len(record['side_bot'])} bots for {rules.teams} sides"
    if len(record["moves"]) != record["plies"]:
        return f"'plies' says {record['plies']} actions but 'moves' lists {len(record['moves'])}"
    return None


def check_header(header, path: str) -> dict:
    """The header of ``path`` if it is one of a match record file of this format."""
    if not isinstance(header, dict) or header.get("seqsolve") != "match" or not isinstance(header.get("config"), dict):
        raise RecordError(f"{path}:1: not a seqsolve match record file")
    if header.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"{path}:1: record format {json.dumps(header.get('format'))[:20]} is not one this seqsolve reads"
            f" (format {RECORD_FORMAT}); use the seqsolve that wrote it"
        )
    config = header["config"]
    if not _int(config.get("seed")) or config["seed"] < 0:
        raise RecordError(f"{path}:1: the header's config has no seed (0, 1, ...)")
    if not _strings(config.get("bots")) or not config["bots"]:
        raise RecordError(f"{path}:1: the header's config has no list of bots")
    return header


# ---------------------------------------------------------------- reading


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
                raise RecordError(f"{path}: not a file, and more than {MAX_STREAM_BYTES >> 20} MB: not a record file")
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
    data = _read_bytes(path, fd)
    lines = data.split(b"\n")
    out = Scan(path, _header_of(path, lines[0]), keep=len(lines[0]) + 1)
    last = len(lines)  # the number of the segment after the last newline
    seed, bots = out.header["config"]["seed"], out.header["config"]["bots"]
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
            raise RecordError(f"{path}:{number}: a game of seed {record['seed']} among the games of seed {seed}")
        if not all(0 <= b < len(bots) for b in record["side_bot"]):
            raise RecordError(f"{path}:{number}: 'side_bot' must number the header's {len(bots)} bots from 0")
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
    from .config import MatchConfig, not_this_match  # numpy: not for --help

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
    return found.header, sorted(_unique(found.games).values(), key=lambda r: r["game"])


def _unique(games: list[tuple[int, dict]]) -> dict[int, dict]:
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
    return None, len(_unique(found.games))


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


# ---------------------------------------------------------------- writing


def _lock(fd: int, path: str, what: str) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise RecordError(f"{path}: in use by another seqsolve run; wait for it to end or choose another {what}") from None
    except OSError as exc:
        os.close(fd)
        raise RecordError(f"{path}: cannot lock ({exc.strerror or exc})") from None


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

    def __enter__(self) -> RecordFile:
        self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def open(self) -> None:
        check_output_file(self.path, "--out")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot open ({exc.strerror or exc})") from None
        _lock(fd, self.path, "--out")
        self.fd = fd
        try:
            info = os.fstat(fd)
            if stat.S_ISFIFO(info.st_mode):  # nobody may read it: the run would hang once it is full
                raise RecordError(f"{self.path}: a pipe, not a file: records are read back to resume")
            if not stat.S_ISREG(info.st_mode) or info.st_size == 0:  # a new file (or a device)
                self._write(json.dumps(self.header) + "\n")
            else:
                self._resume()
        except BaseException:
            self.close()
            raise

    def _resume(self) -> None:
        found = check_file(self.path, self.header["config"], self.fd)
        self.done = _unique(found.games)
        if found.keep < os.fstat(self.fd).st_size:
            os.ftruncate(self.fd, found.keep)
        if found.newline_missing:
            self._write("\n")

    def append(self, records: list[dict]) -> None:
        """Write finished games: whole lines or nothing (a failed write is undone)."""
        self._write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
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


def _describe(config) -> str:
    return ", ".join(f"{k}={config.get(k)}" for k in ("bots", "variant", "players", "seed"))


class FolderLock:
    """An exclusive lock on an output folder (``--out DIR``) for a whole run."""

    def __init__(self, folder: str, option: str = "--out"):
        self.folder, self.option, self.fd = folder, option, None

    def __enter__(self) -> FolderLock:
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


# ---------------------------------------------------------------- output paths


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


# ---------------------------------------------------------------- replaying


def start_state(record: dict, where: str = "game record"):
    """The state a recorded game started from: its game's deal for its rules and seed,
    or its ``start`` position (whose reshuffles draw from that seed).

    Raises:
        PositionError: a ``start`` that is not a position of the record's rules.
    """
    from .seeds import deal_seed

    game = game_for(record["variant"])
    rules = game.rules(record["variant"], record["players"], record["teams"])
    seed = deal_seed(record["seed"], record["deal"], record.get("stream", ()))
    if "start" not in record:
        return game.new_initial_state(rules, seed=seed)
    state = game.read_position(record["start"], f"{where} (start)", seed=seed)
    if str(state.rules.variant) != str(rules.variant) or state.rules.players != rules.players:
        raise RecordError(f"{where}: the start position is not a game of {rules.variant}, {rules.players} players")
    return state


@dataclass(frozen=True)
class Step:
    """One recorded action about to be replayed: ``ply`` counts actions from 1 (the
    entry of ``moves`` it comes from), ``turn`` the turns completed before it (the
    actions of one turn share it)."""

    ply: int
    text: str
    seat: int
    turn: int
    action: int


class Replay:
    """Replays a recorded game: iterate for each action (``state`` is the position
    before it; it is applied when the next step is asked for); ``state`` is the
    final position afterwards.

    Raises (while iterating):
        RecordError: a move that is not legal there, or moves that stop before the
        end of a game that was not forfeited, naming ``where`` (``file:line``).
    """

    def __init__(self, record: dict, where: str = "game record"):
        problem = check_game(record)
        if problem:
            raise RecordError(f"{where}: {problem}")
        self.record, self.where = record, where
        self.state = start_state(record, where)

    def __iter__(self) -> Iterator[Step]:
        state = self.state
        for ply, text in enumerate(self.record["moves"], 1):
            if state.is_terminal():
                raise RecordError(f"{self.where}: move {ply} {text!r}: the game was already over")
            try:
                action = state.string_to_action(text)
            except ValueError as exc:
                raise RecordError(f"{self.where}: move {ply} {text!r} cannot be replayed: {exc}") from None
            yield Step(ply, text, state.current_player, state.turn, action)
            state.apply(action)
        if not state.is_terminal() and self.record["termination"] not in ("forfeit", UNFINISHED):
            raise RecordError(f"{self.where}: the moves stop before the game is over")


def turns(steps) -> list[tuple[int, list[str]]]:
    """The steps of a replay grouped into whole turns: ``(seat, actions)`` each.

    >>> [(seat, texts) for seat, texts in turns([Step(1, "~5S", 0, 0, 1), Step(2, "9H@i3", 0, 0, 2)])]
    [(0, ['~5S', '9H@i3'])]
    """
    out: list[tuple[int, list[str]]] = []
    last = None
    for step in steps:
        if step.turn != last:
            out.append((step.seat, []))
            last = step.turn
        out[-1][1].append(step.text)
    return out


def result_text(record: dict, seats: str) -> str:
    """How a recorded game ended, in words: ``green won``, ``draw (stall)``,
    ``blue won: seat 1 (ext:bot) forfeited (no answer)``.  ``seats`` is the
    side of each seat in turn order (``GameState.seats``); the game names the sides."""
    side = record["winner_side"]
    name = game_for(record["variant"]).side_name
    sides = list(dict.fromkeys(seats))
    forfeit = record["forfeit"]
    if record["termination"] == UNFINISHED:
        return "unfinished"
    if record["termination"] == "forfeit" and forfeit:
        who = f"seat {forfeit.get('seat')} ({forfeit.get('bot')}) forfeited ({forfeit.get('reason')})"
        return f"{name(sides[side])} won: {who}" if side is not None else who
    if side is None:
        return f"draw ({record['termination']})"
    why = "" if record["termination"] == "win" else f" ({record['termination']})"
    return f"{name(sides[side])} won{why}"
