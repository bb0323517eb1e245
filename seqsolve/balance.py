"""Rule-variant balance: how fair and how decisive each variant is.

A *grid* of variants (presets, ``--vary`` options, seatings) is expanded into
:class:`VariantPoint` s.  For every point the match runner plays self-play
games with every bot fixed on its seat and a fresh deal per game
(``MatchConfig(fixed_seats=True)``), recording per-game details
(``detail=GameDetail``: legal-move counts, exchanges, jacks, reshuffles, the final
chips and sequences).  Optionally it also plays two kinds of matches:

* **restricted play** -- the bot against the same bot barred from a rule
  (``restricted:no=two_eyed``; see :mod:`seqsolve.bots.restricted`): the
  bot's score says how much the rule is worth to a player;
* **skill versus luck** -- a strong bot against a weak one: the more the
  strong bot wins, the more the variant rewards skill.

Every run is the match runner's: seeds per game from ``SeedSequence``, one
resumable JSON-lines record file per point and job under the output folder,
and a ``manifest.json`` naming the run.  The seed of a point is derived from
the root seed and the point itself (not its place in the grid), so adding a
variant to a grid changes nothing for the others, and the same variant listed
twice (a *replica*) gets its own, independent games.

Everything reported is computed from the records by :func:`summarize_point`
(the metrics are defined in the README, "Balance metrics").
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import math
import os
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from .play import stats
from .bots import make_bot
from .bots.restricted import RESTRICTIONS
from .games.sequence.board import CORNERS, windows
from .games.sequence.rules import (
    Rules,
    OPTIONS,
    PLAYER_COUNTS,
    PRESETS,
    RulesError,
    Variant,
    default_teams,
    parse_value,
)
from .games.sequence.cards import CardKind
from .games.sequence.state import State, decode_action
from .play.config import MatchConfig, MatchError, check_config
from .play.match import run_games
from .play.records import FolderLock, check_files, loads_json, make_output_folder, write_text
from .play.report import summarize_match

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
SEATING = ("players", "teams")
#: Player counts a rule book names for its preset where the engine would seat more
#: (RULES.md §2.3: the draft variant is for 2 players, or 4 in 2 teams).
RULE_BOOK_PLAYERS: dict[str, tuple[int, ...]] = {"draft": (2, 4)}
TERMINATIONS = ("win", "frozen", "stall", "turn_cap", "deck_exhausted", "draft_end", "forfeit")
COLOURS = "bgr"


class GameDetail:
    """What one game did, beyond its result, for the balance analysis (the runner's ``detail``).

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


class BalanceError(ValueError):
    """A grid that cannot run (bad --vary, impossible seating, bad bots) or an --out folder
    that belongs to another run."""


# ---------------------------------------------------------------- grids


@dataclass(frozen=True, order=True)
class VariantPoint:
    """One variant of a grid: a preset with overrides, a seating, and a replica number."""

    variant: str
    players: int
    teams: int
    replica: int = 0

    @property
    def seating(self) -> str:
        """``2p`` when everyone plays alone, ``4p/2t`` for teams."""
        return f"{self.players}p" if self.players == self.teams else f"{self.players}p/{self.teams}t"

    @property
    def label(self) -> str:
        """``classic 4p/2t`` (``#2`` added for a replica)."""
        extra = f" #{self.replica + 1}" if self.replica else ""
        return f"{self.variant} {self.seating}{extra}"

    @property
    def slug(self) -> str:
        """A folder name for the point's records."""
        text = re.sub(r"[^A-Za-z0-9_.=-]+", "_", self.variant).strip("_")
        extra = f"-r{self.replica + 1}" if self.replica else ""
        return f"{text}-{self.players}p{self.teams}t{extra}"

    def rules(self):
        return Variant.parse(self.variant).resolve(self.players, self.teams)

    def to_json(self) -> dict:
        return {
            "variant": self.variant,
            "players": self.players,
            "teams": self.teams,
            "replica": self.replica,
        }


def parse_vary(text: str) -> tuple[str, list[object]]:
    """``"sequences_to_win=1,2,3"`` -> ``("sequences_to_win", [1, 2, 3])``.

    >>> parse_vary("players=2,3")
    ('players', [2, 3])
    """
    name, eq, values = text.partition("=")
    name = name.strip()
    if not eq or not name or not values.strip():
        raise BalanceError(f"--vary {text!r}: expected OPTION=VALUE,VALUE,... (e.g. players=2,3,4)")
    if name not in OPTIONS:
        raise BalanceError(f"--vary {text!r}: unknown option {name!r} (known: {', '.join(OPTIONS)})")
    parsed = []
    for item in values.split(","):
        if not item.strip():
            raise BalanceError(f"--vary {text!r}: an empty value")
        try:
            parsed.append(parse_value(name, item))
        except RulesError as exc:
            raise BalanceError(f"--vary {text!r}: {exc}") from None
    return name, parsed


def preset_seatings(preset: str) -> list[tuple[int, int]]:
    """Every (players, teams) a preset allows: its ``max_players``, its hand-size table, 2 or
    3 sides where the count does not decide, and the rule book's counts where it names them.

    >>> preset_seatings("draft")
    [(2, 2), (4, 2)]
    """
    out = []
    base = Variant(preset)
    for players in RULE_BOOK_PLAYERS.get(preset, PLAYER_COUNTS):
        given = base.options().get("teams")
        for teams in [given] if given else ([default_teams(players)] if default_teams(players) else [2, 3]):
            try:
                base.resolve(players, teams)
            except RulesError:
                continue
            out.append((players, teams))
    return out


def expand_grid(
    variants: Sequence[str] = ("classic",),
    vary: Sequence[str] = (),
    players: int | None = None,
    teams: int | None = None,
    all_presets: bool = False,
) -> list[VariantPoint]:
    """The variants of a balance run, in order: each base variant (or, with
    ``all_presets``, every preset of RULES.md §2.2 with every seating it allows)
    times the product of the ``--vary`` values.

    Seatings come from ``--vary players=.../teams=...``, else ``players``/``teams``,
    else the variant (default 2 players).  Six or twelve players with no number of
    sides are tried with both 2 and 3 sides.  Any combination that cannot be played
    is an error naming it: a grid is meant to be run whole.

    >>> [p.label for p in expand_grid(["classic"], ["players=2,6"])]
    ['classic 2p', 'classic 6p/2t', 'classic 6p/3t']

    Raises:
        BalanceError: a bad variant, --vary text, option value or seating.
    """
    grid = [parse_vary(v) for v in vary]
    names = [name for name, _ in grid]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise BalanceError(f"--vary {min(repeated)} is given twice; list all its values in one --vary")
    bases: list[tuple[Variant, list[tuple[int | None, int | None]]]] = []
    if all_presets:
        if any(n in SEATING for n in names) or players is not None or teams is not None:
            raise BalanceError(
                "--all-presets seats every player count the presets allow; do not also vary players or teams"
            )
        for preset in PRESETS:
            bases.append((Variant(preset), list(preset_seatings(preset))))
    else:
        for text in variants:
            try:
                base = Variant.parse(text)
            except RulesError as exc:
                raise BalanceError(f"--variant {text!r}: {exc}") from None
            bases.append((base, [(players, teams)]))
    points: list[VariantPoint] = []
    seen: Counter = Counter()
    for base, seatings in bases:
        own = dict(base.overrides)
        own_players, own_teams = own.pop("players", None), own.pop("teams", None)
        base = Variant(base.preset).with_overrides(own)
        for combo in itertools.product(*(values for _, values in grid)):
            chosen = dict(zip(names, combo))
            seat_p, seat_t = chosen.pop("players", None), chosen.pop("teams", None)
            variant = base.with_overrides(chosen)
            for p, t in seatings:
                n_players = _first(seat_p, p, own_players, 2)
                n_teams = _first(seat_t, t, own_teams, variant.options().get("teams"))
                candidates = [n_teams] if n_teams is not None or default_teams(int(n_players)) else [2, 3]
                for sides in candidates:
                    label = f"{variant} with {n_players} players" + (
                        f" in {sides} sides" if sides is not None else ""
                    )
                    try:
                        rules = variant.resolve(int(n_players), None if sides is None else int(sides))
                    except RulesError as exc:
                        raise BalanceError(f"{label}: {exc}") from None
                    key = (str(variant), rules.players, rules.teams)
                    points.append(VariantPoint(str(variant), rules.players, rules.teams, seen[key]))
                    seen[key] += 1
    return points


def _first(*values):
    return next((v for v in values if v is not None), None)


# ---------------------------------------------------------------- a run


@dataclass(frozen=True)
class BalanceConfig:
    """Everything that decides the games of a balance run.

    ``bots``: one spec for every seat, one per side, or one per seat.  ``restrict``:
    the restrictions to measure (names of :data:`RESTRICTIONS`), each as the first bot
    against itself restricted.  ``weak``: a weaker bot for the skill-versus-luck match
    (the first bot, or ``strong``, against it).
    """

    points: tuple[VariantPoint, ...]
    bots: tuple[str, ...] = ("heuristic",)
    seed: int = 0
    restrict: tuple[str, ...] = ()
    weak: str | None = None
    strong: str | None = None
    move_timeout: float = 10.0

    @property
    def strong_bot(self) -> str:
        return self.strong or self.bots[0]


@dataclass(frozen=True)
class Job:
    """One record file of a point: the self-play games, or one match."""

    kind: str  # "self", "restrict" or "skill"
    name: str  # "self", the restriction, or "skill"
    config: MatchConfig

    @property
    def filename(self) -> str:
        return (
            "self.jsonl"
            if self.kind == "self"
            else f"{self.kind}-{self.name}.jsonl"
            if self.kind == "restrict"
            else "skill.jsonl"
        )


def point_seed(root: int, point: VariantPoint, job: str) -> int:
    """The match seed of one job of one point: a function of the root seed and the point
    itself, never of its place in the grid.

    >>> point_seed(1, VariantPoint("classic", 2, 2), "self") == point_seed(1, VariantPoint("classic", 2, 2), "self")
    True
    """
    key = zlib.crc32(f"{point.variant}|{point.players}|{point.teams}|{point.replica}|{job}".encode())
    return int(np.random.SeedSequence([root, key]).generate_state(1)[0]) & 0x7FFFFFFF


def seat_bots(bots: Sequence[str], point: VariantPoint) -> tuple[str, ...]:
    if len(bots) in (1, point.teams, point.players):
        return tuple(bots)
    raise BalanceError(
        f"{point.label}: give one bot, one per side ({point.teams}) or one per seat ({point.players}), not {len(bots)}"
    )


def restricted_spec(bot: str, restriction: str) -> str:
    """``restricted:no=two_eyed,bot=heuristic`` (the inner bot's commas become ``;``)."""
    return f"restricted:no={restriction},bot={bot.replace(',', ';')}"


def jobs_of(config: BalanceConfig, point: VariantPoint) -> list[Job]:
    common = {
        "variant": point.variant,
        "players": point.players,
        "teams": point.teams,
        "move_timeout": config.move_timeout,
    }
    jobs = [
        Job(
            "self",
            "self",
            MatchConfig(
                bots=seat_bots(config.bots, point),
                fixed_seats=True,
                seed=point_seed(config.seed, point, "self"),
                **common,
            ),
        )
    ]
    for r in config.restrict:
        bots = (config.bots[0], restricted_spec(config.bots[0], r))
        jobs.append(
            Job(
                "restrict",
                r,
                MatchConfig(bots=bots, seed=point_seed(config.seed, point, f"restrict:{r}"), **common),
            )
        )
    if config.weak:
        bots = (config.strong_bot, config.weak)
        jobs.append(
            Job(
                "skill",
                "skill",
                MatchConfig(bots=bots, seed=point_seed(config.seed, point, "skill"), **common),
            )
        )
    return jobs


def check_balance(config: BalanceConfig) -> None:
    """Validate bots, restrictions and every point's matches before anything is written."""
    if not config.points:
        raise BalanceError("the grid is empty")
    for r in config.restrict:
        if r not in RESTRICTIONS:
            raise BalanceError(f"--restrict: unknown restriction {r!r} (known: {', '.join(RESTRICTIONS)})")
    for spec in dict.fromkeys(config.bots + tuple(x for x in (config.weak, config.strong) if x)):
        make_bot(spec).close()
    for point in config.points:
        for job in jobs_of(config, point):
            try:
                check_config(job.config)
            except MatchError as exc:
                raise BalanceError(f"{point.label}: {exc}") from None


def match_games(games: int, teams: int) -> int:
    """Games of a match, rounded up to whole deals."""
    return -(-games // teams) * teams


@dataclass
class PointResult:
    """The records of one point: ``self`` (self-play) and one list per match."""

    point: VariantPoint
    records: dict[str, list[dict]] = field(default_factory=dict)
    configs: dict[str, MatchConfig] = field(default_factory=dict)


def _manifest(config: BalanceConfig) -> dict:
    return {
        "seqsolve": "balance",
        "format": MANIFEST_FORMAT,
        "seed": config.seed,
        "bots": list(config.bots),
        "strong": config.strong,
        "weak": config.weak,
        "restrict": list(config.restrict),
        "points": [{**point.to_json(), "dir": point.slug} for point in config.points],
    }


#: What a manifest must hold the same for a rerun to resume it (rather than mix two runs
#: in one folder and replace the first one's report).
RUN_KEYS = {"seed": "seed", "bots": "bots", "points": "variants", "restrict": "restrict", "weak": "weak",
            "strong": "strong"}


def _run_value(manifest: dict, key: str) -> str:
    value = manifest.get(key, [] if key == "restrict" else None)
    if key == "points" and isinstance(value, list):
        try:
            return ", ".join(VariantPoint(*(e[k] for k in ("variant", "players", "teams", "replica"))).label
                             for e in value)
        except (KeyError, TypeError):
            pass
    return json.dumps(value)


def read_manifest(out: str) -> dict | None:
    """The manifest of an output folder, or None when there is none."""
    path = os.path.join(out, MANIFEST)
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as fh:
            data = loads_json(fh.read())
    except (OSError, ValueError):
        raise BalanceError(f"{path}: not a seqsolve balance manifest; choose another --out") from None
    if not isinstance(data, dict) or data.get("seqsolve") != "balance":
        raise BalanceError(f"{path}: not a seqsolve balance manifest; choose another --out")
    if data.get("format") != MANIFEST_FORMAT:
        raise BalanceError(f"{path}: manifest format {json.dumps(data.get('format'))} is not one this seqsolve reads")
    if not isinstance(data.get("seed"), int) or isinstance(data.get("seed"), bool):
        raise BalanceError(f"{path}: the manifest has no integer 'seed'")
    return data


@contextlib.contextmanager
def open_output(config: BalanceConfig, out: str) -> Iterator[None]:
    """Create (when its parent exists) and lock the output folder for the run, and
    check that it holds this run or nothing: its manifest keeps what decides the games
    and the report (:data:`RUN_KEYS`), and a rerun with any of them changed is refused
    rather than mixing two runs.  The lock is held until the ``with`` block ends.
    """
    created = make_output_folder(out)
    try:
        with FolderLock(out):
            found = read_manifest(out)
            mine = _manifest(config)
            if found is not None:
                for key, name in RUN_KEYS.items():
                    if _run_value(found, key) != _run_value(mine, key):
                        raise BalanceError(
                            f"{out} holds a balance run with {name}={_run_value(found, key)}, not "
                            f"{_run_value(mine, key)}; use the same options to resume, or choose another --out"
                        )
            elif os.listdir(out):
                raise BalanceError(f"--out {out}: the folder is not empty and holds no balance run; choose another")
            check_files([(os.path.join(out, point.slug, job.filename), job.config.to_json())
                         for point in config.points for job in jobs_of(config, point)])
            for point in config.points:
                os.makedirs(os.path.join(out, point.slug), exist_ok=True)
            write_text(os.path.join(out, MANIFEST), json.dumps(mine, indent=2))
            yield
    except BaseException:
        if created and not os.listdir(out):
            os.rmdir(out)  # refused before anything was written: leave no empty folder behind
        raise


def run_balance(
    config: BalanceConfig,
    games: int,
    out: str | None = None,
    jobs: int = -1,
    backend: str | None = None,
    games_per_match: int | None = None,
    on_start: Callable[[VariantPoint, Job, int], None] | None = None,
    on_records: Callable[[list[dict]], None] | None = None,
) -> list[PointResult]:
    """Play (or, from ``out``, resume) every job of every point; return their records.

    ``games`` self-play games per point; ``games_per_match`` (default ``games``) per
    restricted-play or skill match, rounded up to whole deals.  ``on_start`` is called
    before each job with the number of games it needs; ``on_records`` with every
    finished chunk (progress).  An ``out`` folder must be held open by
    :func:`open_output` around the call.
    """
    check_balance(config)
    per_match = games if games_per_match is None else games_per_match
    results = []
    for point in config.points:
        result = PointResult(point)
        for job in jobs_of(config, point):
            n = games if job.kind == "self" else match_games(per_match, point.teams)
            path = os.path.join(out, point.slug, job.filename) if out else None
            if on_start:
                on_start(point, job, n)
            records = run_games(
                job.config,
                n,
                jobs=jobs,
                out=path,
                backend=backend,
                detail=GameDetail if job.kind == "self" else None,
                on_records=_never_stop(on_records),
            )
            if job.kind == "self" and any("detail" not in r for r in records):
                raise BalanceError(
                    f"{path}: records without the balance details (not written by 'seqsolve balance')"
                )
            result.records[job.name] = records
            result.configs[job.name] = job.config
        results.append(result)
    return results


def _never_stop(callback: Callable[[list[dict]], None] | None):
    """A progress callback for run_games that never asks it to stop early."""
    if callback is None:
        return None

    def feed(records: list[dict]) -> bool:
        callback(records)
        return False

    return feed


# ---------------------------------------------------------------- metrics


def _ci(k: float, n: int) -> list[float]:
    _, low, high = stats.rate_interval(k, n)
    return [low, high]


def _rate(k: float, n: int) -> float | None:
    return k / n if n else None


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean with a normal 95% interval (lengths and counts per game: many games)."""
    x = np.asarray(values, dtype=float)
    mean = float(x.mean())
    half = 1.959963984540054 * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.inf
    return mean, mean - half, mean + half


def difference_interval(
    a: tuple[float, float, float], b: tuple[float, float, float]
) -> tuple[float, float, float]:
    """``a - b`` of two independent estimates given as (value, low, high), with Newcombe's
    (1998, method 10) square-and-add interval built from their own intervals.

    >>> [round(x, 3) for x in difference_interval((0.5, 0.4, 0.6), (0.5, 0.4, 0.6))]
    [0.0, -0.141, 0.141]
    """
    (x, xl, xh), (y, yl, yh) = a, b
    d = x - y
    return d, d - math.hypot(x - xl, yh - y), d + math.hypot(xh - x, y - yl)


def balance_test(side_wins: Sequence[int]) -> dict:
    """Chi-square goodness of fit of the sides' wins (decisive games) against equal shares.

    Returns ``{"chi2", "df", "p_value", "decisive"}``; ``p_value`` is None without a
    decisive game.  A small p-value says the sides are not equally likely to win.

    >>> round(balance_test([50, 50])["p_value"], 3), round(balance_test([70, 30])["p_value"], 5)
    (1.0, 6e-05)
    """
    from scipy.stats import chisquare

    decisive = int(sum(side_wins))
    if decisive == 0:
        return {"chi2": None, "df": len(side_wins) - 1, "p_value": None, "decisive": 0}
    result = chisquare(list(side_wins))
    return {
        "chi2": float(result.statistic),
        "df": len(side_wins) - 1,
        "p_value": float(result.pvalue),
        "decisive": decisive,
    }


@dataclass(frozen=True)
class _Geometry:
    window_cells: tuple[tuple[int, ...], ...]
    corner_windows: frozenset[int]


def _geometry() -> _Geometry:
    ws = tuple(tuple(w) for w in windows())
    return _Geometry(ws, frozenset(i for i, w in enumerate(ws) if set(w) & set(CORNERS)))


def summarize_point(result: PointResult) -> dict:
    """Every balance metric of one point, from its records (README, "Balance metrics")."""
    point = result.point
    records = result.records.get("self", [])
    rules = point.rules()
    n, sides = len(records), point.teams
    first_side = rules.first_seat % sides
    geo = _geometry()
    side_wins = [0] * sides
    draws = 0
    terminations: Counter = Counter()
    scores = []  # the first mover's side: 1 win, 1/T draw, 0 loss
    chips = np.zeros(100)
    seq_cells = np.zeros(100)
    corner_wins = 0
    per_game: dict[str, list[float]] = {
        k: [] for k in ("decisions", "exchanges", "two_eyed", "one_eyed", "jacks", "reshuffles", "passes")
    }
    legal = plies = 0
    for r in records:
        w = r["winner_side"]
        terminations[r["termination"]] += 1
        if w is None:
            draws += 1
            scores.append(1 / sides)
        else:
            side_wins[w] += 1
            scores.append(1.0 if w == first_side else 0.0)
        d = r["detail"]
        legal += d["legal"]
        plies += r["plies"]
        for k, values in per_game.items():
            values.append(d["two_eyed"] + d["one_eyed"] if k == "jacks" else d[k])
        for side_cells in d["chips"]:
            chips[np.asarray(side_cells, dtype=int)] += 1
        cells = set()
        winner_corner = False
        for side, window in d["sequences"]:
            cells.update(geo.window_cells[window])
            if side == w and window in geo.corner_windows:
                winner_corner = True
        seq_cells[np.asarray(sorted(cells), dtype=int)] += 1
        corner_wins += winner_corner
    decisive = n - draws
    out: dict = {
        "variant": point.variant,
        "players": point.players,
        "teams": point.teams,
        "replica": point.replica,
        "label": point.label,
        "bots": list(result.configs["self"].bots) if "self" in result.configs else None,
        "seed": result.configs["self"].seed if "self" in result.configs else None,
        "games": n,
    }
    if not n:
        return out
    side_rate = [_rate(k, n) for k in side_wins]
    out["side_win"] = side_rate
    out["side_win_ci"] = [_ci(k, n) for k in side_wins]
    out["seat_win"] = [side_rate[s % sides] for s in range(point.players)]
    out["seat_win_ci"] = [out["side_win_ci"][s % sides] for s in range(point.players)]
    out["first_seat"] = rules.first_seat
    mean, low, high = stats.paired_score_interval(scores)
    fair = 1 / sides
    out["first_seat_score"] = mean
    out["first_seat_advantage"] = mean - fair
    out["first_seat_advantage_ci"] = [low - fair, high - fair]
    out["balance_test"] = balance_test(side_wins)
    out["draw_rate"] = draws / n
    out["draw_rate_ci"] = _ci(draws, n)
    out["terminations"] = {
        k: terminations.get(k, 0) for k in TERMINATIONS if terminations.get(k, 0) or k == "win"
    }
    out["termination_rates"] = {k: v / n for k, v in out["terminations"].items()}
    turns = [r["turns"] for r in records]
    out["turns"] = stats.summarize_lengths(turns)
    out["turns_mean_ci"] = list(_mean_ci(turns)[1:])
    out["plies_mean"] = plies / n
    out["plies"] = stats.summarize_lengths([r["plies"] for r in records])
    out["branching"] = legal / plies if plies else None
    for k, values in per_game.items():
        out[f"{k}_mean"] = float(np.mean(values))
    out["corner_win_rate"] = _rate(corner_wins, decisive)
    out["corner_win_ci"] = _ci(corner_wins, decisive) if decisive else None
    # Ludii's outcome concepts (README): player 1 is the side that moves first
    timeouts = terminations.get("turn_cap", 0)
    ludii_rates = [k / n for k in side_wins]
    out["ludii"] = {
        "advantage_p1": (side_wins[first_side] + 0.5 * draws) / n,
        "balance": 1.0 - max(abs(a - b) for a, b in itertools.combinations(ludii_rates, 2)),
        "completion": decisive / n,
        "drawishness": (draws - timeouts) / n,
        "timeouts": timeouts / n,
        "duration": out["turns"]["mean"],
    }
    out["heatmap"] = {"chips": (chips / n).round(4).tolist(), "sequences": (seq_cells / n).round(4).tolist()}
    for name, recs in result.records.items():
        if name == "self" or not recs:
            continue
        config = result.configs[name]
        s = summarize_match(recs, config.bots)
        entry = {
            "bots": list(config.bots),
            "seed": config.seed,
            "games": s["games"],
            "score": s["score"],
            "score_ci": s["score_ci"],
            "fair": 1 / sides,
            "draws": s["draws"],
        }
        if name == "skill":
            out["skill"] = entry
        else:
            out.setdefault("restricted", {})[name] = entry
    return out


def add_deltas(summaries: list[dict]) -> None:
    """Differences of every point from the first one, with 95% intervals (RULES.md §2.2:
    seat advantage, draw rate and game length as deltas), in place."""
    if not summaries or not summaries[0].get("games"):
        return
    base = summaries[0]
    for s in summaries[1:]:
        if not s.get("games"):
            continue
        adv = difference_interval(
            (s["first_seat_advantage"], *s["first_seat_advantage_ci"]),
            (base["first_seat_advantage"], *base["first_seat_advantage_ci"]),
        )
        draw = difference_interval(
            (s["draw_rate"], *s["draw_rate_ci"]), (base["draw_rate"], *base["draw_rate_ci"])
        )
        turns = difference_interval(
            (s["turns"]["mean"], *s["turns_mean_ci"]), (base["turns"]["mean"], *base["turns_mean_ci"])
        )
        s["delta"] = {
            "vs": base["label"],
            "first_seat_advantage": list(adv),
            "draw_rate": list(draw),
            "turns_mean": list(turns),
        }


def summarize(results: list[PointResult]) -> list[dict]:
    out = [summarize_point(r) for r in results]
    add_deltas(out)
    return out


# ---------------------------------------------------------------- tables


def _pct(x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def _interval(ci: Sequence[float] | None, signed: bool = False) -> str:
    if not ci:
        return "-"
    return f"[{_pct(ci[0], signed)}, {_pct(ci[1], signed)}]"


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


TABLE_COLUMNS = (
    "variant",
    "games",
    "first seat adv. (pp) [95% CI]",
    "side wins % (b g r)",
    "balanced p",
    "draws %",
    "other ends",
    "turns mean (p10-p90)",
    "decisions",
    "branching",
    "jacks/game",
    "exch./game",
    "reshuf./game",
    "corner wins %",
)
_ENDS = {
    "frozen": "frozen",
    "stall": "stall",
    "turn_cap": "cap",
    "deck_exhausted": "deck",
    "draft_end": "draft end",
    "forfeit": "forfeit",
}


def table_rows(summaries: list[dict]) -> list[list[str]]:
    """The terminal/Markdown table: one row per variant."""
    rows = []
    for s in summaries:
        if not s.get("games"):
            rows.append([s["label"], "0"] + ["-"] * (len(TABLE_COLUMNS) - 2))
            continue
        t = s["turns"]
        rows.append(
            [
                s["label"],
                str(s["games"]),
                f"{_pct(s['first_seat_advantage'], True)} {_interval(s['first_seat_advantage_ci'], True)}",
                " ".join(_pct(x) for x in s["side_win"]),
                _p(s["balance_test"]["p_value"]),
                _pct(s["draw_rate"]),
                ", ".join(f"{_ENDS[k]} {v}" for k, v in s["terminations"].items() if k != "win") or "-",
                f"{t['mean']:.1f} ({t['p10']:.0f}-{t['p90']:.0f})",
                f"{s['decisions_mean']:.1f}",
                "-" if s["branching"] is None else f"{s['branching']:.1f}",  # no action played: all forfeits
                f"{s['jacks_mean']:.2f}",
                f"{s['exchanges_mean']:.2f}",
                f"{s['reshuffles_mean']:.2f}",
                _pct(s["corner_win_rate"]),
            ]
        )
    return rows


def match_rows(summaries: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Restricted-play and skill scores per variant (empty when none were played)."""
    names = sorted({r for s in summaries for r in s.get("restricted", {})}, key=list(RESTRICTIONS).index)
    skill = any("skill" in s for s in summaries)
    if not names and not skill:
        return [], []
    header = ["variant", "fair"] + [f"vs no {r} %" for r in names] + (["strong vs weak %"] if skill else [])
    rows = []
    for s in summaries:
        row = [s["label"], _pct(1 / s["teams"])]
        for r in names:
            e = s.get("restricted", {}).get(r)
            row.append(f"{_pct(e['score'])} {_interval(e['score_ci'])}" if e else "-")
        if skill:
            e = s.get("skill")
            row.append(f"{_pct(e['score'])} {_interval(e['score_ci'])}" if e else "-")
        rows.append(row)
    return header, rows


def format_text(header: Sequence[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(header, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines)


def format_markdown(header: Sequence[str], rows: list[list[str]]) -> str:
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(header), "|" + "|".join("---" for _ in header) + "|"] + [line(r) for r in rows])


def format_balance(summaries: list[dict]) -> str:
    """The terminal report: the variant table, then the match table if any."""
    text = format_text(TABLE_COLUMNS, table_rows(summaries))
    header, rows = match_rows(summaries)
    if rows:
        text += "\n\nscore of the bot against a restricted or weaker opponent (95% CI):\n"
        text += format_text(header, rows)
    return text


# per-game figures a summary holds under their own names
GAME_MEANS = (
    "plies_mean",
    "decisions_mean",
    "branching",
    "exchanges_mean",
    "two_eyed_mean",
    "one_eyed_mean",
    "jacks_mean",
    "reshuffles_mean",
    "passes_mean",
    "corner_win_rate",
)

CSV_FIELDS = (
    "variant",
    "players",
    "teams",
    "replica",
    "games",
    *(f"side{i}_{k}" for i in range(3) for k in ("win", "low", "high")),
    "first_seat_advantage",
    "first_seat_advantage_low",
    "first_seat_advantage_high",
    "chi2",
    "p_value",
    "draw_rate",
    "draw_rate_low",
    "draw_rate_high",
    *(f"end_{k}" for k in TERMINATIONS),
    "turns_mean",
    "turns_std",
    "turns_p10",
    "turns_median",
    "turns_p90",
    *GAME_MEANS,
    "ludii_advantage_p1",
    "ludii_balance",
    "ludii_completion",
    "ludii_drawishness",
    "ludii_duration",
    *(f"no_{r}_{k}" for r in RESTRICTIONS for k in ("score", "low", "high")),
    "skill_score",
    "skill_low",
    "skill_high",
)


def to_csv(summaries: list[dict]) -> str:
    """One row per variant with every number of the summaries (CSV_FIELDS)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for s in summaries:
        row: dict = {k: s.get(k) for k in ("variant", "players", "teams", "replica", "games")}
        if s.get("games"):
            for i, (rate, ci) in enumerate(zip(s["side_win"], s["side_win_ci"])):
                row.update({f"side{i}_win": rate, f"side{i}_low": ci[0], f"side{i}_high": ci[1]})
            row["first_seat_advantage"] = s["first_seat_advantage"]
            row["first_seat_advantage_low"], row["first_seat_advantage_high"] = s["first_seat_advantage_ci"]
            row["chi2"], row["p_value"] = s["balance_test"]["chi2"], s["balance_test"]["p_value"]
            row["draw_rate"] = s["draw_rate"]
            row["draw_rate_low"], row["draw_rate_high"] = s["draw_rate_ci"]
            for k in TERMINATIONS:
                row[f"end_{k}"] = s["terminations"].get(k, 0)
            for k in ("mean", "std", "p10", "median", "p90"):
                row[f"turns_{k}"] = s["turns"][k]
            for k in GAME_MEANS:
                row[k] = s[k]
            for k in ("advantage_p1", "balance", "completion", "drawishness", "duration"):
                row[f"ludii_{k}"] = s["ludii"][k]
            for r, e in s.get("restricted", {}).items():
                row[f"no_{r}_score"], (row[f"no_{r}_low"], row[f"no_{r}_high"]) = e["score"], e["score_ci"]
            if "skill" in s:
                row["skill_score"], (row["skill_low"], row["skill_high"]) = (
                    s["skill"]["score"],
                    s["skill"]["score_ci"],
                )
        writer.writerow({k: _csv_value(v) for k, v in row.items()})
    return buf.getvalue()


def _csv_value(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else v


# ---------------------------------------------------------------- files


def report_json(
    summaries: list[dict], config: BalanceConfig, games: int, games_per_match: int | None
) -> dict:
    """The ``--json`` object: the run's settings and one entry per variant."""
    return {
        "seqsolve": "balance",
        "seed": config.seed,
        "bots": list(config.bots),
        "games": games,
        "restrict": list(config.restrict),
        "strong": config.strong_bot if config.weak else None,
        "weak": config.weak,
        "games_per_match": (games if games_per_match is None else games_per_match)
        if (config.restrict or config.weak)
        else None,
        "variants": summaries,
    }


def plots_folder(report_path: str) -> str:
    """``docs/balance.md`` keeps its plots in ``docs/balance/``."""
    return os.path.splitext(report_path)[0]


_LEGEND = (
    "Intervals are 95%. *First seat adv.* is the score of the side that moves first (a draw shared "
    "equally) minus its fair share 1/sides, in percentage points; *balanced p* is the chi-square test "
    "of equal wins for every side; *other ends* counts games that did not end in a win (frozen board, "
    "stall, turn cap, ...); *decisions* are actions per game with more than one choice; "
    "*branching* is the mean number of legal actions per action; "
    "*corner wins* is the share of won games in which the winner had a sequence through a corner. "
    'The README\'s "Balance metrics" defines every column.'
)


def markdown_report(
    summaries: list[dict], data: dict, command: str, plots: dict | None, report_path: str
) -> str:
    """A Markdown report: the command, the tables, links to the plots."""
    base = os.path.dirname(os.path.abspath(report_path))

    def link(path: str) -> str:
        return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")

    lines = [
        "# Rule-variant balance",
        "",
        "Made by:",
        "",
        "```",
        command,
        "```",
        "",
        (
            f"Bots: {', '.join(data['bots'])} (self-play, every bot fixed on its seat, a new deal every game); "
            f"root seed {data['seed']}; {data['games']} games per variant."
        ),
        _LEGEND,
        "",
        format_markdown(TABLE_COLUMNS, table_rows(summaries)),
        "",
    ]
    header, rows = match_rows(summaries)
    if rows:
        lines += [
            "## Restricted play and skill",
            "",
            (
                "Score (%) of the bot against the same bot barred from a rule, and of the strong bot against the "
                "weak one, over paired deals; *fair* is the score of equal play (1/sides)."
            ),
            "",
            format_markdown(header, rows),
            "",
        ]
    lines += [
        "## Ludii's outcome concepts",
        "",
        format_markdown(
            ("variant", "advantage P1", "balance", "completion", "drawishness", "duration (turns)"),
            [
                [
                    s["label"],
                    f"{s['ludii']['advantage_p1']:.3f}",
                    f"{s['ludii']['balance']:.3f}",
                    f"{s['ludii']['completion']:.3f}",
                    f"{s['ludii']['drawishness']:.3f}",
                    f"{s['ludii']['duration']:.1f}",
                ]
                for s in summaries
                if s.get("games")
            ],
        ),
        "",
    ]
    if plots:
        lines += [
            "## Plots",
            "",
            f"![seat advantage]({link(plots['seat_advantage'])})",
            "",
            f"![game length]({link(plots['lengths'])})",
            "",
            (
                "Board heatmaps (share of games in which a cell holds a chip at the end, and in which it is part "
                "of a completed sequence):"
            ),
            "",
        ]
        lines += [f"* [{label}]({link(path)})" for label, path in plots["heatmaps"].items()]
        lines.append("")
    return "\n".join(lines)
