"""The schema of match record files: the header, every field of a game record and
what it must hold, and the checks of one record or header (no file is read here)."""

from __future__ import annotations

import json

from ...errors import SeqsolveError
from ...games import RulesError, rules_for

RECORD_FORMAT = 1


class RecordError(SeqsolveError, ValueError):
    """A record file that cannot be used (its message names the file and line), or that
    cannot be read, written or locked."""


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
    if (
        not isinstance(header, dict)
        or header.get("seqsolve") != "match"
        or not isinstance(header.get("config"), dict)
    ):
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


def header_game(header: dict, path: str) -> tuple[str, int, int]:
    """The game every game of ``path`` must be, as its header's config names it:
    ``(variant, players, sides)`` as a game record spells them.

    Raises:
        RecordError: a header naming no game that can be set up.
    """
    config = header["config"]
    variant, players, teams = config.get("variant"), config.get("players"), config.get("teams")
    if not isinstance(variant, str) or not _int(players) or not (teams is None or _int(teams)):
        raise RecordError(f"{path}:1: the header's config names no game (a variant, players and sides)")
    try:
        rules = rules_for(variant, players, teams)
    except RulesError as exc:
        raise RecordError(f"{path}:1: the header's game cannot be set up: {exc}") from None
    return str(rules.variant), rules.players, rules.teams
