"""Bot matchups: who plays which seat, with which seeds, where the records go.

The runner owns seeds, seats and records (STYLE habit 5).  Every game is a
pure function of (match config, game index): its deal comes from
``SeedSequence(seed, spawn_key=(deal,))`` and its bots' streams from keys under
it, so results never depend on ``--jobs``, chunking, the backend or the order
in which games finish.  Deals are shared: with ``T`` sides, every deal is
played ``T`` times and the first bot plays each side once (for two sides, the
paired games of chess-engine testing: the same shuffle with seats swapped).

A config with ``fixed_seats`` (self-play for rule-variant balance) instead
keeps every bot on its seat and gives every game its own deal, so that games
are independent samples of the seats' chances.  With ``detail`` the runner
also records what the balance analysis counts (legal-move counts, exchanges,
jacks, reshuffles, the final chips and sequences) in a ``detail`` field.
"""

from __future__ import annotations

import json
import os
import signal
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from .bots import BotFailure, make_bot
from .bots.base import Bot
from .cards import CardKind
from .rules import Rules, RulesError, Variant
from .state import State, decode_action

RECORD_FORMAT = 1


class MatchError(ValueError):
    """A match that cannot run: bad config, or an --out file that belongs to another match."""


@dataclass(frozen=True)
class MatchConfig:
    """Everything that decides the games of a match (and nothing that does not)."""

    bots: tuple[str, ...]
    variant: str = "classic"
    players: int = 2
    teams: int | None = None
    seed: int = 0
    move_timeout: float = 10.0
    #: every bot stays on its seat and every game has its own deal (self-play balance)
    fixed_seats: bool = False

    def rules(self) -> Rules:
        return _resolve(self.variant, self.players, self.teams)

    @property
    def sides(self) -> int:
        return self.rules().teams

    @property
    def games_per_deal(self) -> int:
        """How many consecutive games share a deal: one per side, or 1 with fixed seats."""
        return 1 if self.fixed_seats else self.sides

    def seat_bots(self, game: int) -> list[int]:
        """Index into ``bots`` of the bot on each seat in game ``game``.

        With two bots, the first plays side ``game mod T`` and the second every other
        side; with one bot per side, the bots rotate over the sides.  With fixed seats
        nothing rotates: one bot plays every seat, one bot per side plays its side's
        seats, one bot per seat plays its seat.
        """
        rules = self.rules()
        if self.fixed_seats:
            if len(self.bots) == rules.players:
                return list(range(rules.players))
            if len(self.bots) == rules.teams:
                return [s % rules.teams for s in range(rules.players)]
            return [0] * rules.players
        rotation = game % rules.teams
        if len(self.bots) == rules.teams:
            return [(s % rules.teams - rotation) % rules.teams for s in range(rules.players)]
        return [0 if s % rules.teams == rotation else 1 for s in range(rules.players)]

    def deal_index(self, game: int) -> int:
        return game // self.games_per_deal

    def deal_seed(self, game: int) -> np.random.SeedSequence:
        return deal_seed(self.seed, self.deal_index(game))

    def bot_seed(self, game: int, seat: int) -> np.random.SeedSequence:
        per = self.games_per_deal
        return np.random.SeedSequence(self.seed, spawn_key=(game // per, 1 + game % per, seat))

    def to_json(self) -> dict:
        data = asdict(self)
        if not self.fixed_seats:
            del data["fixed_seats"]  # record headers of ordinary matches stay as they were
        return data


def deal_seed(seed: int, deal: int) -> np.random.SeedSequence:
    """The stream that shuffles deal number ``deal`` of a match (and its reshuffles)."""
    return np.random.SeedSequence(seed, spawn_key=(deal,))


@lru_cache(maxsize=32)
def _resolve(variant: str, players: int, teams: int | None) -> Rules:
    return Variant.parse(variant).resolve(players, teams)


def check_config(config: MatchConfig) -> Rules:
    """Validate bots, variant and seating before anything is written."""
    try:
        rules = config.rules()
    except RulesError as exc:
        raise MatchError(str(exc)) from None
    if config.fixed_seats:
        if len(config.bots) not in (1, rules.teams, rules.players):
            raise MatchError(
                f"give one bot, one per side ({rules.teams}) or one per seat ({rules.players}), not {len(config.bots)}"
            )
    elif len(config.bots) not in (2, rules.teams):
        raise MatchError(f"give two bots or one per side ({rules.teams}), not {len(config.bots)}")
    for spec in config.bots:
        make_bot(spec).close()  # raises BotError with the list of what exists
    return rules


# ---------------------------------------------------------------- one game

def play_game(
    config: MatchConfig, game: int, bots: list[Bot] | None = None, detail: bool = False, moves: bool = True
) -> dict:
    """Play game number ``game`` of a match and return its record.

    With ``detail`` the record also holds a ``detail`` dict (see :class:`GameDetail`);
    without ``moves`` it leaves out the move list (``plies`` still counts them):
    writing every move as text is a fifth of a random game's cost, and a run
    that keeps no record file never reads them.
    """
    rules = config.rules()
    seat_bot = config.seat_bots(game)
    owned = bots is None
    if bots is None:
        bots = [make_bot(spec) for spec in config.bots]
    state = State.new(rules, seed=config.deal_seed(game))
    rngs = [np.random.default_rng(config.bot_seed(game, s)) for s in range(rules.players)]
    played: list[str] | None = [] if moves else None
    plies = 0
    forfeit = None
    tally = GameDetail(rules) if detail else None
    started = time.perf_counter()
    try:
        for seat in range(rules.players):
            try:
                _start(bots[seat_bot[seat]], rules, state.seats, seat)
            except BotFailure as exc:  # a program that does not start loses like one that crashes
                forfeit = {"seat": seat, "bot": config.bots[seat_bot[seat]], "reason": str(exc)}
                break
        while forfeit is None and not state.is_terminal():
            seat = state.current_player
            bot = bots[seat_bot[seat]]
            try:
                view = state if bot.open_information else state.observation(seat)
                action = bot.choose(view, rngs[seat])
                legal = state.legal_actions()
                if action not in legal:
                    raise BotFailure(f"illegal action {state.action_to_move(action)}")
            except BotFailure as exc:
                forfeit = {"seat": seat, "bot": config.bots[seat_bot[seat]], "reason": str(exc)}
                break
            plies += 1
            if played is not None:
                played.append(str(state.action_to_move(action)))
            if tally is None:
                state.apply(action)
            else:
                tally.play(state, action, len(legal))
    finally:
        if owned:
            for bot in bots:
                bot.close()
    record = _record(config, game, state, seat_bot, played, plies, forfeit, time.perf_counter() - started)
    if tally is not None:
        record["detail"] = tally.finish(state)
    return record


class GameDetail:
    """What one game did, beyond its result, for the balance analysis (``detail=True``).

    Counted per action (ply): ``decisions`` (plies with more than one legal action),
    ``legal`` (legal actions summed over plies: branching = legal / plies),
    ``exchanges`` (dead-card exchanges), ``two_eyed`` (two-eyed jacks placed),
    ``one_eyed`` (one-eyed jacks played), ``passes`` and ``reshuffles`` (discards
    shuffled into a new draw pile, C-29).  At the end: ``chips``, the cells of each
    side's chips, and ``sequences``, ``[side, window]`` for every completed sequence.
    """

    def __init__(self, rules: Rules):
        self.deck = rules.deck_cards
        self.counts = dict.fromkeys(("decisions", "legal", "exchanges", "two_eyed", "one_eyed", "passes", "reshuffles"), 0)

    def play(self, state: State, action: int, n_legal: int) -> None:
        """Apply ``action`` to ``state``, counting it."""
        c = self.counts
        c["legal"] += n_legal
        c["decisions"] += n_legal > 1
        kind, card, _, _ = decode_action(action)
        if kind == 2:
            c["exchanges"] += 1
        elif kind == 3:
            c["passes"] += 1
        elif kind == 1:
            c["one_eyed"] += 1
        elif self.deck.kind(self.deck.codes[card]) == CardKind.WILD:
            c["two_eyed"] += 1
        discards = len(state.core.discards())
        state.apply(action)
        # every action but a pass discards one card; a reshuffle empties the piles (C-29)
        if len(state.core.discards()) < discards + (kind != 3):
            c["reshuffles"] += 1

    def finish(self, state: State) -> dict:
        out: dict = dict(self.counts)
        out["chips"] = [state.chips(side) for side in range(state.rules.teams)]
        out["sequences"] = [[state.sides.index(colour), w] for colour, w in state.sequences()]
        return out


def _start(bot: Bot, rules: Rules, seats: str, seat: int) -> None:
    try:
        bot.start(rules, seats, seat)
    except BotFailure:
        raise
    except OSError as exc:  # pragma: no cover - defensive
        raise BotFailure(str(exc)) from None


def _record(config, game, state, seat_bot, moves, plies, forfeit, seconds) -> dict:
    rules = state.rules
    if forfeit is None:
        outcome = state.outcome()
        result, termination = outcome.result, outcome.termination.name.lower()
        winner_side = None if outcome.winner is None else state.sides.index(outcome.winner)
    else:
        loser = seat_bot[forfeit["seat"]]
        winner_side = next(s for s in range(rules.teams) if seat_bot[s] != loser)
        result, termination = state.sides[winner_side], "forfeit"
    side_bot = [seat_bot[s] for s in range(rules.teams)]
    score = 0.5 if winner_side is None else float(side_bot[winner_side] == 0)
    if winner_side is None and rules.teams == 3:
        score = 1 / 3
    return {
        "game": game,
        "deal": config.deal_index(game),
        "variant": str(rules.variant),
        "players": rules.players,
        "teams": rules.teams,
        "seed": config.seed,
        "seats": [config.bots[b] for b in seat_bot],
        "side_bot": side_bot,
        **({} if moves is None else {"moves": moves}),
        "result": result,
        "winner_side": winner_side,
        "termination": termination,
        "forfeit": forfeit,
        "turns": state.turn,
        "plies": plies,
        "score": score,
        "seconds": round(seconds, 6),
    }


def _play_chunk(config: MatchConfig, games: list[int], detail: bool = False, moves: bool = True) -> list[dict]:
    """One joblib task: a few games sharing bot instances (and their warm memory)."""
    bots = [make_bot(spec) for spec in config.bots]
    try:
        return [play_game(config, g, bots, detail, moves) for g in games]
    finally:
        for bot in bots:
            bot.close()


# ---------------------------------------------------------------- records

@dataclass
class RecordFile:
    """A JSON-lines file: a header naming the match, then one line per finished game.

    A rerun with the same ``--out`` reads what is there, drops a line cut short by
    an interruption, and plays only the games that are missing.
    """

    path: str
    config: MatchConfig
    done: dict[int, dict] = field(default_factory=dict)

    def open(self) -> None:
        header = _header(self.config)
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            parent = os.path.dirname(os.path.abspath(self.path))
            if not os.path.isdir(parent):
                raise MatchError(f"{self.path}: folder {parent} does not exist")
            with open(self.path, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(header) + "\n")
            return
        try:
            with open(self.path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise MatchError(f"{self.path}: cannot read ({exc.strerror})") from None
        lines = data.split(b"\n")
        try:
            first = json.loads(lines[0])
        except (ValueError, UnicodeDecodeError):
            raise MatchError(f"{self.path}:1: not a seqsolve match record file; choose another --out") from None
        if not isinstance(first, dict) or first.get("seqsolve") != "match":
            raise MatchError(f"{self.path}:1: not a seqsolve match record file; choose another --out")
        if first.get("config") != header["config"]:
            raise MatchError(
                f"{self.path}:1: holds a different match ({_describe(first.get('config'))}); "
                "use the same options to resume, or choose another --out"
            )
        keep = len(lines[0]) + 1
        for number, raw in enumerate(lines[1:], start=2):
            if not raw.endswith(b"}"):
                break  # the last line was cut short by an interruption
            try:
                record = json.loads(raw)
            except ValueError:
                break
            self.done.setdefault(record["game"], record)
            keep += len(raw) + 1
        if keep < len(data):
            with open(self.path, "r+b") as fh:
                fh.truncate(keep)

    def append(self, records: list[dict]) -> None:
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
            fh.flush()
            os.fsync(fh.fileno())
        for r in records:
            self.done[r["game"]] = r


def _header(config: MatchConfig) -> dict:
    # through JSON and back, so it compares equal to what a file holds (tuples become lists)
    return json.loads(json.dumps({"seqsolve": "match", "format": RECORD_FORMAT, "config": config.to_json()}))


def recorded_seed(path: str, config: MatchConfig) -> int | None:
    """The seed of the match the record file ``path`` holds, when that match is
    ``config`` in all but its seed; else None (no file, another match, not ours).

    A command run without ``--seed`` draws a fresh one, so rerunning it after an
    interruption would meet its own records as "a different match"; taking the
    seed from the file is what lets the same command resume."""
    try:
        with open(path, encoding="utf-8") as fh:
            first = json.loads(fh.readline())
    except (OSError, ValueError):
        return None
    if not isinstance(first, dict) or first.get("seqsolve") != "match" or not isinstance(first.get("config"), dict):
        return None
    held = dict(first["config"])
    seed = held.pop("seed", None)
    mine = _header(config)["config"]
    del mine["seed"]
    return seed if held == mine and isinstance(seed, int) else None


def _describe(config) -> str:
    if not isinstance(config, dict):
        return "unknown"
    return ", ".join(f"{k}={config.get(k)}" for k in ("bots", "variant", "players", "seed"))


def read_records(path: str) -> tuple[dict, list[dict]]:
    """The header and the game records of a record file, ordered by game number."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    except OSError as exc:
        raise MatchError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        header = json.loads(lines[0])
    except ValueError:
        raise MatchError(f"{path}:1: not a seqsolve record file") from None
    records = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                break  # an interrupted last line
            raise MatchError(f"{path}:{number}: not a JSON record") from None
    return header, sorted(records, key=lambda r: r["game"])


# ---------------------------------------------------------------- running

def chunks(indices: list[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(indices), size):
        yield indices[i : i + size]


def run_games(
    config: MatchConfig,
    games: int,
    jobs: int = -1,
    out: str | None = None,
    on_records: Callable[[list[dict]], bool | None] | None = None,
    backend: str | None = None,
    chunk: int | None = None,
    detail: bool = False,
) -> list[dict]:
    """Play games ``0 .. games-1`` (skipping those already in ``out``) in parallel.

    ``on_records`` sees every finished chunk (in completion order); returning True
    stops the run early (SPRT).  ``detail`` adds the ``detail`` field of
    :class:`GameDetail` to new records.  Returns every record, ordered by game number.
    """
    from joblib import Parallel, delayed, parallel_backend, parallel_config

    check_config(config)
    store = RecordFile(out, config) if out else None
    done: dict[int, dict] = {}
    if store:
        store.open()
        done = {g: r for g, r in store.done.items() if g < games}
    todo = [g for g in range(games) if g not in done]
    if on_records and done:
        if on_records(sorted(done.values(), key=lambda r: r["game"])):
            todo = []
    if todo:
        n_jobs = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
        size = chunk or max(1, min(64, len(todo) // (n_jobs * 8) or 1))
        # keep pairs of a deal in one chunk so an early stop never splits a deal
        per = config.games_per_deal
        size = max(per, size - size % per)
        tasks = (delayed(_play_chunk)(config, part, detail, store is not None) for part in chunks(todo, size))
        if backend not in (None, "loky"):
            context = parallel_backend(backend, n_jobs=n_jobs)
        else:  # worker processes on this machine
            context = parallel_config(backend="loky", n_jobs=n_jobs, initializer=_leave_ctrl_c_to_the_runner)
        with context:
            runner = Parallel(n_jobs=n_jobs if backend is None else None, return_as="generator_unordered")
            results = runner(tasks)
            try:
                for records in results:
                    if store:
                        store.append(records)
                    for r in records:
                        done[r["game"]] = r
                    if on_records and on_records(records):
                        break
            finally:
                close = getattr(results, "close", None)
                if close:
                    with warnings.catch_warnings():  # stopped early on purpose: unused results are expected
                        warnings.filterwarnings("ignore", "[0-9]+ tasks have been successfully executed")
                        close()
    return [done[g] for g in sorted(done)]


def _leave_ctrl_c_to_the_runner() -> None:
    """Worker processes ignore SIGINT: a terminal's Ctrl-C reaches every process of
    the group, and the runner, which keeps what is done and stops the workers,
    is the one to answer it (a worker would print its traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
