"""A balance run: its config, the jobs of each variant point (self-play, restricted
play, skill versus luck) and running them through the match runner."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bots import make_bot, restrictions
from ..games import game_for
from ..play.config import MatchConfig, MatchError, check_config
from ..play.match import run_games
from .grid import BalanceError, VariantPoint, point_stream
from .metrics import PointResult


@dataclass(frozen=True)
class BalanceConfig:
    """Everything that decides the games of a balance run.

    ``bots``: one spec for every seat, one per side, or one per seat.  ``restrict``:
    the restrictions to measure (names of :func:`seqsolve.bots.restrictions`), each as the first bot
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
                seed=config.seed,
                stream=point_stream(point, "self"),
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
                MatchConfig(
                    bots=bots, seed=config.seed, stream=point_stream(point, f"restrict:{r}"), **common
                ),
            )
        )
    if config.weak:
        bots = (config.strong_bot, config.weak)
        jobs.append(
            Job(
                "skill",
                "skill",
                MatchConfig(bots=bots, seed=config.seed, stream=point_stream(point, "skill"), **common),
            )
        )
    return jobs


def check_balance(config: BalanceConfig) -> None:
    """Validate bots, restrictions and every point's matches before anything is written."""
    if not config.points:
        raise BalanceError("the grid is empty")
    known = restrictions()
    for r in config.restrict:
        if r not in known:
            raise BalanceError(f"--restrict: unknown restriction {r!r} (known: {', '.join(known)})")
    if config.restrict:  # its bars are Sequence's actions: a game without them has no restricted bot
        for point in config.points:
            point_game = game_for(point.variant)
            if "restricted" not in point_game.bot_classes():
                raise BalanceError(
                    f"--restrict bars Sequence's actions ({', '.join(known)}), which {point.label} does not"
                    f" have: measure {point_game.name} without --restrict"
                )
    game = game_for(config.points[0].variant)  # every point's own game checks its jobs below
    for spec in dict.fromkeys(config.bots + tuple(x for x in (config.weak, config.strong) if x)):
        make_bot(spec, game).close()
    for point in config.points:
        for job in jobs_of(config, point):
            try:
                check_config(job.config)
            except MatchError as exc:
                raise BalanceError(f"{point.label}: {exc}") from None


def match_games(games: int, teams: int) -> int:
    """Games of a match, rounded up to whole deals."""
    return -(-games // teams) * teams


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
                detail=game_for(point.variant).tally if job.kind == "self" else None,
                on_records=never_stop(on_records),
            )
            if job.kind == "self":
                check_details(path, records, game_for(point.variant).tally(point.rules()))
            result.records[job.name] = records
            result.configs[job.name] = job.config
        results.append(result)
    return results


def check_details(path: str | None, records: list[dict], tally) -> None:
    """Every self-play record holds a sound ``detail`` (a resumed run reads them back from
    a file anyone may have edited): else one line naming the file and the game."""
    for r in records:
        if "detail" not in r:
            raise BalanceError(
                f"{path}: records without the balance details (not written by 'seqsolve balance')"
            )
        problem = tally.check(r["detail"])
        if problem:
            raise BalanceError(f"{path}: game {r.get('game')}: detail: {problem}")


def never_stop(callback: Callable[[list[dict]], None] | None):
    """A progress callback for run_games that never asks it to stop early."""
    if callback is None:
        return None

    def feed(records: list[dict]) -> bool:
        callback(records)
        return False

    return feed
