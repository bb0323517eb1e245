"""The race for the fairest compensation (``seqsolve fair``): candidates played in
rounds, the clearly unfair ones dropped as soon as their interval says so.

The candidates are one variant with every combination of the values tried for its
compensation options (any option of the variant's game: nothing here knows what a
rule does), and the variant as it is (*the original*).  In the manner of F-race
(Birattari, Stützle, Paquete and Varrentrapp, GECCO 2002) and irace, each round
plays ``batch`` more self-play games of every candidate still in the race, then
drops, at once:

* every candidate whose interval for the first seat's advantage lies wholly outside
  the tolerance ``±within`` (what counts as fair; 0 itself when there is none) while
  another candidate's still reaches into it: a candidate that may be fair within the
  tolerance is not dropped for an unlucky start that only excludes 0 itself;
* every candidate surely further from fair than another: the nearest its interval
  comes to 0 is further than the furthest another's goes (this one decides among
  those that may be fair, and once none may).

The candidate whose interval reaches least far from 0 is never dropped, so one always
remains.  The intervals are confidence sequences (:mod:`.sequential`), valid however
many rounds are looked at.

A race aims at a *precision*: the fairest candidate's advantage known to within
``precision`` on each side.  When the budget pays for it, the race works in two
stages, the way a screening trial hands its pick to a confirmatory one:

1. *selection*: the rounds above, with intervals tuned for a coarser width
   (:data:`SELECTION_FACTOR` times the precision), until ``keep`` or fewer remain, or
   every one left is known to that coarser width (the rest are as fair as one another
   at that scale), or the next round and the confirmation would pass the budget;
2. *confirmation*: the one left whose advantage is nearest 0 plays a number of new
   games fixed before the first of them (:func:`.sequential.fixed_games`: enough for
   the precision at the variance of a fair game), and its advantage is the fixed-``n``
   score-test interval of those new games alone.  They are independent of the games
   that picked it, so that interval is valid as it is, with no price for the looks
   and no winner's curse; and a fixed-``n`` interval is about 1.4 times narrower
   than the confidence sequence over as many games, so the pick's new games are
   what a uniform grid pays for every candidate.

A confirmed interval is *within tolerance* when it lies wholly within ``±within``.
When the pick's does not, the next candidate left (by the selection's order) is
confirmed on new games of its own, and so on, up to ``most`` candidates
(:func:`confirm_left`); the answer is the first confirmed within tolerance, else the
confirmed one nearest 0.  That choice looks at the confirmation games, so each of
the ``K`` confirmations the race may make is a fixed-``n`` interval at the
Bonferroni level ``1 - alpha / K`` (``K`` fixed after the selection, before the first
confirmation game): all ``K`` intervals then hold their candidates' advantages at
once with probability at least ``1 - alpha``, so the one reported does too, whichever
the rule reports, and a candidate truly outside the tolerance is called within it
with probability at most ``alpha``.  At ``1 - alpha`` each, trying ``K`` would call
one within by luck up to ``K`` times as often (a winner's curse of the confirmation
stage).  Each confirmation plays the games its interval needs for the precision at
that level (1.31 times a single one's for ``K = 2`` at 95%, 1.49 for 3).

When the budget does not pay for a round of every candidate and the confirmation,
the race has one stage: the rounds go on until ``keep`` or fewer remain or the
budget is spent, and every interval is the confidence sequence.

The games are ``balance``'s (:mod:`.run`): a candidate's self-play games are those
``seqsolve balance`` plays for that variant with the same seed and bots, kept in the
same record files, so a race resumes like a balance run, and the race is a function
of the records alone: the same seed gives the same race at any ``--jobs``, resumed or
not.  :func:`race` is the rule itself, on scores, with no game in it.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..games import RulesError, game_for
from ..play.match import run_games
from ..play.records import RecordFile
from .grid import SEATING, BalanceError, VariantPoint, expand_grid, parse_vary
from .metrics import PointResult, first_seat_scores
from .run import BalanceConfig, check_balance, check_details, jobs_of, match_games, never_stop
from .sequential import bet_for_games, bet_games_for, bet_interval, fixed_games, fixed_games_for, tuned_bet

#: the selection stage's width, in multiples of the precision wanted: a coarser
#: selection costs fewer games but may pick a candidate less fair by up to about that
#: much; 2.5 kept the race near a third of a uniform grid or below (0.20 to 0.35 at the
#: defaults) on the simulated candidate sets of docs/fair-command.md, picking one within
#: 1 point of the fairest in most runs
SELECTION_FACTOR = 2.5


@dataclass(frozen=True)
class RacePlan:
    """What a race's options decide before any game: the confidence sequence's
    ``bet``, the selection's width (None: one stage) and the games of one confirmation
    (0: none); the ``precision``, the score ``variance`` and ``alpha`` size the
    confirmations when there may be more than one (:meth:`confirmation_games`)."""

    bet: float
    select_width: float | None
    confirm: int
    precision: float = 0.0
    variance: float = 0.25
    alpha: float = 0.05

    @classmethod
    def of(cls, k: int, sides: int, batch: int, budget: int, level: float, precision: float) -> RacePlan:
        """The plan of a race of ``k`` candidates with ``sides`` sides.  The
        confirmation has the games a fixed-n interval needs for ``precision`` at the
        variance of a fair game with no draw, ``f (1 - f)`` for a fair share ``f``
        (draws only lower it), when the budget pays for them and a round of every
        candidate; the bet is tuned for the selection's width, or in a race of one
        stage for the games a candidate plays when none is dropped.

        >>> plan = RacePlan.of(6, 2, 200, 40_000, 0.95, 0.01)
        >>> plan.confirm, plan.select_width
        (9604, 0.025)
        >>> RacePlan.of(6, 2, 200, 10_000, 0.95, 0.01).confirm
        0
        """
        alpha = 1 - level
        share = 1 / sides
        variance = share * (1 - share)
        confirm = fixed_games(precision, variance, alpha)
        if batch * k + confirm > budget:
            confirm = 0
        if confirm:
            width = SELECTION_FACTOR * precision
            return cls(tuned_bet(width, alpha, variance), width, confirm, precision, variance, alpha)
        return cls(bet_for_games(budget // k, alpha, variance), None, 0, precision, variance, alpha)

    def confirmation_games(self, count: int) -> int:
        """The games of each confirmation when the race may make ``count`` of them: a
        fixed-n interval at the Bonferroni level ``1 - alpha / count`` as wide as the
        precision (one of them: :attr:`confirm`).

        >>> plan = RacePlan.of(6, 2, 200, 40_000, 0.95, 0.01)
        >>> [plan.confirmation_games(c) for c in (1, 2, 3)]
        [9604, 12560, 14328]
        """
        return fixed_games(self.precision, self.variance, self.alpha / count)

    def confirmations(self, left: int, most: int, budget_left: int, within: float) -> int:
        """How many candidates the race may confirm, decided after the selection and
        before any confirmation game (the Bonferroni ``K``): ``most`` at most, no more
        than are ``left``, as many as ``budget_left`` pays for at their own size; one
        when no interval as wide as the precision can lie within ``±within``.

        >>> plan = RacePlan.of(6, 2, 200, 40_000, 0.95, 0.005)
        >>> plan.confirmations(3, 3, 200_000, 0.01), plan.confirmations(3, 3, 110_000, 0.01)
        (3, 2)
        >>> plan.confirmations(3, 3, 200_000, 0.005), plan.confirmations(1, 3, 200_000, 0.01)
        (1, 1)
        """
        if self.precision >= within:
            return 1
        for count in range(min(most, left), 1, -1):
            if count * self.confirmation_games(count) <= budget_left:
                return count
        return 1


@dataclass(frozen=True)
class RaceConfig:
    """Everything that decides a race: the balance run underneath (candidates as its
    points, the original first; bots; seed; ``weak``/``strong`` for the skill match)
    and the race's own rule."""

    balance: BalanceConfig
    tries: tuple[tuple[str, tuple], ...]
    batch: int = 100
    budget: int = 20_000
    level: float = 0.95
    keep: int = 1
    best: int = 3
    separate: bool = False
    precision: float = 0.01
    #: the tolerance: a confirmed interval within ``±within`` is fair
    within: float = 0.01
    #: the most candidates confirmed, one after another until one is within tolerance
    confirm: int = 1

    @property
    def candidates(self) -> tuple[VariantPoint, ...]:
        return self.balance.points

    @property
    def alpha(self) -> float:
        return 1 - self.level

    @property
    def plan(self) -> RacePlan:
        return RacePlan.of(
            len(self.candidates),
            self.candidates[0].teams,
            self.batch,
            self.budget,
            self.level,
            self.precision,
        )

    @property
    def select_width(self) -> float | None:
        return self.plan.select_width

    @property
    def bet(self) -> float:
        return self.plan.bet

    def to_json(self) -> dict:
        """The options that decide which games are played and how the selection runs:
        what an ``--out`` folder must hold the same to resume.  ``within`` and
        ``confirm`` are not among them: they decide which candidates are dropped and
        confirmed, on games that are a function of the seed, so a rerun may change
        them and get what a fresh run with them gets."""
        return {
            "tries": {name: list(values) for name, values in self.tries},
            "batch": self.batch,
            "budget": self.budget,
            "level": self.level,
            "keep": self.keep,
            "separate": self.separate,
            "precision": self.precision,
        }


def candidates_of(
    variant: str,
    tries: Sequence[str],
    players: int | None = None,
    teams: int | None = None,
    separate: bool = False,
) -> tuple[VariantPoint, ...]:
    """The original ``variant`` first, then every other combination of the values of the
    ``--try`` options, each option taking its value in ``variant`` too (a candidate
    names only the options it changes); with ``separate``, one option changed at a time.

    >>> [p.label for p in candidates_of("classic", ["hand_bonus=1,2"])]
    ['classic 2p', 'classic[hand_bonus=1] 2p', 'classic[hand_bonus=2] 2p']
    >>> len(candidates_of("classic", ["hand_bonus=1", "first_turn_jacks=off"]))
    4
    >>> len(candidates_of("classic", ["hand_bonus=1", "first_turn_jacks=off"], separate=True))
    3

    Raises:
        BalanceError: a bad variant, option or value; a seating option tried; an
            option or a value given twice.
    """
    if not tries:
        raise BalanceError("give at least one --try OPTION=V1,V2,... (the compensation values to race)")
    try:
        game_for(variant).parse_variant(variant)
    except RulesError as exc:
        raise BalanceError(f"VARIANT {variant!r}: {exc}") from None
    (original,) = expand_grid([variant], (), players, teams)
    game = game_for(original.variant)
    base = game.parse_variant(original.variant)
    own = base.options()
    grid: dict[str, list] = {}
    for text in tries:
        name, values = parse_vary(text, game, "--try")
        if name in SEATING:
            raise BalanceError(
                f"--try {text!r}: {name} is the seating, not a compensation; give it with --{name}"
            )
        if name in grid:
            raise BalanceError(f"--try {name} is given twice; list all its values in one --try")
        if len(set(map(repr, values))) < len(values):
            raise BalanceError(f"--try {text!r}: a value is given twice")
        grid[name] = list(dict.fromkeys([own.get(name), *values]))
    points = [original]
    seen = {original.rules()}
    if separate:
        changes = [{k: v} for k, values in grid.items() for v in values if v != own.get(k)]
    else:
        changes = [
            {k: v for k, v in zip(grid, combo) if v != own.get(k)}
            for combo in itertools.product(*grid.values())
        ]
    for changed in changes:
        text = str(base.with_overrides(changed))
        try:
            (point,) = expand_grid([text], (), original.players, original.teams)
        except BalanceError as exc:
            raise BalanceError(f"--try: {exc}") from None
        if point.rules() not in seen:
            seen.add(point.rules())
            points.append(point)
    if len(points) < 2:
        raise BalanceError(f"--try gives no variant other than {original.label}: nothing to race")
    return tuple(points)


def option_values(point: VariantPoint, names: Sequence[str]) -> dict[str, object]:
    """The value of each tried option in a candidate (its preset's default when not
    overridden), as the variant's game gives it."""
    options = game_for(point.variant).parse_variant(point.variant).options()
    return {name: options.get(name) for name in names}


@dataclass
class RaceResult:
    """What a race did: per candidate its games, interval and the round it left the
    race in (None: still in), and every round's intervals."""

    games: list[int]
    intervals: list[tuple[float, float, float]]  # advantage, low, high
    dropped: list[int | None]
    rounds: list[dict] = field(default_factory=list)
    stopped: str = ""
    #: the confirmation stage, in the order confirmed: per candidate confirmed its
    #: new games, their fixed-n interval, its level (for ``planned`` confirmations at
    #: most), whether it lies within the tolerance, and the sequential interval it had
    #: when the selection stopped
    confirmations: list[dict] = field(default_factory=list)
    #: why no further candidate was confirmed
    confirm_stopped: str = ""

    @property
    def spent(self) -> int:
        return sum(self.games)

    @property
    def confirmed(self) -> dict | None:
        """The confirmation reported: the first within tolerance, else the one whose
        advantage is nearest 0 (the earlier on a tie); None for a race of one stage."""
        if not self.confirmations:
            return None
        within = [c for c in self.confirmations if c["within"]]
        return within[0] if within else min(self.confirmations, key=lambda c: abs(c["interval"][0]))

    def ranking(self) -> list[int]:
        """Candidates best first: the one reported, then those still in by distance
        of the advantage from 0, then those dropped, the later the better."""

        pick = self.confirmed["candidate"] if self.confirmed else None

        def key(i: int):
            adv = abs(self.intervals[i][0])
            d = self.dropped[i]
            return (0, i != pick, adv) if d is None else (1, -d, adv)

        return sorted(range(len(self.games)), key=key)


def _reach(low: float, high: float) -> tuple[float, float]:
    """How near and how far from 0 an interval comes."""
    near = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return near, max(abs(low), abs(high))


def drops(intervals: dict[int, tuple[float, float, float]], band: float = 0.0) -> list[int]:
    """The candidates a round drops, from the intervals of those still in (see the
    module's rule); ``band`` is the tolerance: an interval that reaches within
    ``±band`` of 0 counts as one that may be fair.

    >>> drops({0: (0.05, 0.02, 0.08), 1: (0.0, -0.03, 0.03), 2: (-0.01, -0.04, 0.02)})
    [0]
    >>> drops({0: (0.05, 0.04, 0.06), 1: (0.02, 0.01, 0.03)})
    [0]
    >>> drops({0: (-0.02, -0.04, -0.001), 1: (0.0, -0.012, 0.012)}, band=0.01)
    []
    """
    reach = {i: _reach(lo, hi) for i, (_, lo, hi) in intervals.items()}
    fair = {i for i, (near, _) in reach.items() if near <= band}
    out = []
    for i, (near, _) in reach.items():
        others_far = [far for j, (_, far) in reach.items() if j != i]
        if not others_far:
            continue
        if (near > band and fair - {i}) or near > min(others_far):
            out.append(i)
    return out


def race(
    scores_of: Callable[[int, int], np.ndarray],
    fair_share: Sequence[float],
    batch: int,
    budget: int,
    plan: RacePlan,
    keep: int = 1,
    most: int = 1,
    within: float = math.inf,
) -> RaceResult:
    """Race ``len(fair_share)`` candidates: ``scores_of(i, n)`` gives the scores (1 win,
    1/sides a draw, 0 loss) of candidate ``i``'s first ``n`` games.  With a
    confirmation in the ``plan``, the race has two stages (the module's rule): the
    selection stops once every candidate left is within ``plan.select_width`` on each
    side, and the candidates left are then confirmed on new games, up to ``most`` of
    them, until one's interval lies within ``±within``.

    Raises:
        BalanceError: the budget does not pay for one round (and the confirmation).
    """
    alpha, bet, select_width, confirm = plan.alpha, plan.bet, plan.select_width, plan.confirm
    band = within if math.isfinite(within) else 0.0  # what may still be fair
    k = len(fair_share)
    if batch * k + confirm > budget:
        raise BalanceError(
            f"--budget {budget} does not pay for one round: {k} candidates x --batch {batch} = {batch * k} games"
            + (f" and {confirm} to confirm" if confirm else "")
        )
    result = RaceResult([0] * k, [(np.nan, -1.0, 1.0)] * k, [None] * k)
    alive = list(range(k))
    n = 0
    while True:
        n += batch
        number = len(result.rounds) + 1
        seen = {}
        for i in alive:
            scores = np.asarray(scores_of(i, n), dtype=float)
            mean, low, high = bet_interval(scores, alpha, bet)
            f = fair_share[i]
            seen[i] = (mean - f, low - f, high - f)
            result.games[i] = len(scores)
            result.intervals[i] = seen[i]
        gone = drops(seen, band)
        for i in gone:
            result.dropped[i] = number
        result.rounds.append(
            {"round": number, "games": n, "intervals": {i: list(v) for i, v in seen.items()}, "dropped": gone}
        )
        alive = [i for i in alive if i not in gone]
        if len(alive) <= keep:
            result.stopped = f"{len(alive)} candidate{'s' if len(alive) != 1 else ''} left (--keep {keep})"
            break
        if select_width and all((seen[i][2] - seen[i][1]) / 2 <= select_width for i in alive):
            result.stopped = (
                f"{len(alive)} candidates left, each known to ±{100 * select_width:.1f} pp"
                " (as fair as one another at that scale)"
            )
            break
        if result.spent + batch * len(alive) + confirm > budget:
            result.stopped = (
                f"the budget: the next round needs {batch * len(alive)} games, {budget - result.spent - confirm} left"
                + (f" besides the {confirm} to confirm" if confirm else "")
            )
            break
    if plan.confirm:
        confirm_left(result, scores_of, fair_share, plan, budget, most, within)
    return result


def confirm_left(
    result: RaceResult,
    scores_of: Callable[[int, int], np.ndarray],
    fair_share: Sequence[float],
    plan: RacePlan,
    budget: int,
    most: int = 1,
    within: float = math.inf,
) -> None:
    """The confirmation stage (the module's rule): the candidates left, in the
    selection's order, each on new games of its own, until one's fixed-n interval lies
    within ``±within`` or ``K`` (:meth:`RacePlan.confirmations`) are confirmed."""
    from ..stats import paired_score_interval

    left = [i for i in result.ranking() if result.dropped[i] is None]
    count = plan.confirmations(len(left), most, budget - result.spent, within)
    games = plan.confirmation_games(count)
    level = 1 - plan.alpha / count
    tolerance = f"±{100 * within:.1f} pp" if math.isfinite(within) else ""
    for i in left[:count]:
        if result.spent + games > budget:  # never: ``count`` is what the budget pays for
            break
        before = result.games[i]
        scores = np.asarray(scores_of(i, before + games), dtype=float)[before:]
        mean, low, high = (x - fair_share[i] for x in paired_score_interval(scores, level))
        result.confirmations.append(
            {
                "candidate": i,
                "selection_games": before,
                "games": len(scores),
                "level": level,
                "planned": count,
                "interval": [mean, low, high],
                "within": -within <= low and high <= within,
                "sequential": list(result.intervals[i]),
            }
        )
        result.games[i] = before + len(scores)
        result.intervals[i] = (mean, low, high)
        if result.confirmations[-1]["within"]:
            result.confirm_stopped = (
                f"confirmation {len(result.confirmations)} lies within {tolerance}"
                if tolerance
                else "no tolerance"
            )
            return
    done = len(result.confirmations)
    if done == len(left):
        result.confirm_stopped = f"none within {tolerance}, and no other candidate left"
    elif done == most:
        result.confirm_stopped = f"none within {tolerance} in --confirm {most}"
    elif plan.precision >= within:
        result.confirm_stopped = (
            f"not within {tolerance}; no interval of ±{100 * plan.precision:.1f} pp (--precision) can lie"
            f" within {tolerance} (--within): no other confirmed"
        )
    else:
        result.confirm_stopped = (
            f"none within {tolerance}; the budget pays for {done} confirmation{'s' if done > 1 else ''}"
            f" of {games} games, not {min(most, len(left))} ({budget - result.spent} games left)"
        )


def uniform_grid(result: RaceResult, best: int, scores: Sequence[float], level: float) -> dict:
    """What the designer's alternative, a uniform grid (every candidate the same games,
    fixed in advance, one look at the end), needs to know every candidate as precisely
    as the race ended up knowing its ``best``: the half width of the best's final
    interval, reached with ``balance``'s fixed-``n`` interval on scores distributed as
    the best's (``scores``: all its games; a confirmed pick's new games only count),
    at ``level``, or at the confirmation's level when the best was confirmed (the
    grid makes the same claim as the race).  ``same_sequence`` is the same grid with
    confidence sequences: as many games each as the best played in a race of one
    stage, as the betting sequence tuned for that width needs after a confirmation.
    ``race_share`` is the race's games (every confirmation's among them) over the grid's."""
    k = len(result.games)
    _, low, high = result.intervals[best]
    width = (high - low) / 2
    scores = list(scores)
    confirmed = next((c for c in result.confirmations if c["candidate"] == best), None)
    if confirmed:
        level = confirmed["level"]
        scores = scores[confirmed["selection_games"] :]
        values, counts = np.unique(np.asarray(scores, dtype=float), return_counts=True)
        sequence = (
            bet_games_for(values, counts, width, 1 - level)
            if width > 0 and len(scores)
            else result.games[best]
        )
    else:
        sequence = result.games[best]
    fixed = fixed_games_for(scores, width, level) if width > 0 and len(scores) else result.games[best]
    return {
        "race_games": result.spent,
        "best_games": result.games[best],
        "half_width": width,
        "level": level,
        "same_sequence": k * sequence,
        "fixed_interval_games_each": fixed,
        "fixed_interval": k * fixed,
        "race_share": result.spent / (k * fixed),
    }


class HeldGames:
    """The games of a candidate kept in memory between rounds of a race without
    ``--out``, in the shape of the record file :func:`~seqsolve.play.match.run_games`
    resumes from (its ``done`` games are skipped, new ones ``append`` ed): a race never
    plays a game twice."""

    path = "memory (no --out)"

    def __init__(self) -> None:
        self.done: dict[int, dict] = {}

    def append(self, records: list[dict], lines: str | None = None) -> None:
        for r in records:
            self.done[r["game"]] = r


class OpenRecords:
    """The candidates' record files held open between the rounds of a race: a file is
    read and checked whole once, when first opened, and after that only appended to
    (reopened every round, a race of many rounds read its files again and again: two
    thirds of its time).  At most :attr:`most` stay open at once, the least recently
    used closed first, so a race of many candidates never runs out of descriptors."""

    most = 64

    def __init__(self, stack: contextlib.ExitStack) -> None:
        self.stack = stack
        self.open: OrderedDict[int, RecordFile] = OrderedDict()

    def get(self, i: int, path: str, config: dict) -> RecordFile:
        if i in self.open:
            self.open.move_to_end(i)
            return self.open[i]
        if len(self.open) >= self.most:
            _, oldest = self.open.popitem(last=False)
            oldest.close()
        store = self.stack.enter_context(RecordFile(path, config))
        self.open[i] = store
        return store


def check_race(config: RaceConfig) -> None:
    """Validate the bots, every candidate's games and the budget before anything is written.

    Raises:
        BalanceError: naming what is wrong.
    """
    check_balance(config.balance)
    k = len(config.candidates)
    if config.batch * k > config.budget:
        raise BalanceError(
            f"--budget {config.budget} does not pay for one round: {k} candidates x --batch {config.batch}"
            f" = {config.batch * k} games"
        )
    if not 0 < config.precision < 0.5:
        raise BalanceError(f"--precision {100 * config.precision:g}: give a width in points between 0 and 50")
    if not 0 < config.within < 0.5:
        raise BalanceError(f"--within {100 * config.within:g}: give a tolerance in points between 0 and 50")
    if config.confirm < 1:
        raise BalanceError(f"--confirm {config.confirm}: confirm at least the pick (1)")


def run_race(
    config: RaceConfig,
    out: str | None = None,
    jobs: int = -1,
    backend: str | None = None,
    match_games_each: int | None = None,
    on_start: Callable[[str, int], None] | None = None,
    on_records: Callable[[list[dict]], None] | None = None,
) -> tuple[RaceResult, list[PointResult]]:
    """Race the candidates, then play the skill match (when ``weak`` is set) of the
    best few and the original; returns the race and the records of those reported
    (the original first, then the best), each cut to the games the race used.

    An ``out`` folder must be held open by :func:`seqsolve.balance.manifest.open_output`.
    """
    bal = config.balance
    check_race(config)
    points = bal.points
    held: dict[int, list[dict]] = {}
    checked: list[set[int]] = [set() for _ in points]  # the games whose details are checked
    kept = [HeldGames() for _ in points]  # without ``out``, a round plays only its new games
    with contextlib.ExitStack() as stack:
        files = OpenRecords(stack)

        def scores_of(i: int, n: int) -> np.ndarray:
            point = points[i]
            job = jobs_of(bal, point)[0]
            path = os.path.join(out, point.slug, job.filename) if out else None
            if on_start:
                on_start(f"{point.label}: games 1-{n}", n)
            tally = game_for(point.variant).tally
            records = run_games(
                job.config,
                n,
                jobs=jobs,
                out=files.get(i, path, job.config.to_json()) if path else kept[i],
                backend=backend,
                detail=tally,
                on_records=never_stop(on_records),
            )
            check_details(path, [r for r in records if r["game"] not in checked[i]], tally(point.rules()))
            checked[i].update(r["game"] for r in records)
            held[i] = records
            return first_seat_scores(point, records)

        fair = [1 / p.teams for p in points]
        result = race(
            scores_of,
            fair,
            config.batch,
            config.budget,
            config.plan,
            config.keep,
            config.confirm,
            config.within,
        )
        order = result.ranking()
        shown = [0] + [i for i in order if i != 0][: config.best]
        reported = []
        for i in shown:
            point = points[i]
            pr = PointResult(point)
            self_job, *rest = jobs_of(bal, point)
            pr.records["self"] = held[i][: result.games[i]]
            pr.configs["self"] = self_job.config
            for job in rest:  # the skill match
                n = match_games(match_games_each or config.batch, point.teams)
                path = os.path.join(out, point.slug, job.filename) if out else None
                if on_start:
                    on_start(f"{point.label} strong vs weak", n)
                pr.records[job.name] = run_games(
                    job.config, n, jobs=jobs, out=path, backend=backend, on_records=never_stop(on_records)
                )
                pr.configs[job.name] = job.config
            reported.append(pr)
    return result, reported
