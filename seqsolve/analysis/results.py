"""What an analysis finds, as plain data: ranked turns, exact answers, threats."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import SeqsolveError


class AnalysisError(SeqsolveError, ValueError):
    """A position or request that cannot be analysed; the message says why, in one line."""


#: An estimated win chance is shown (and put in JSON) within these bounds: 1 and 0,
#: and an interval reaching them, are kept for what is proven (a win in one, a
#: forced win or loss), since an estimate cannot tell a certain result from a likely one.
ESTIMATE_FLOOR = 0.001
ESTIMATE_CEILING = 0.999


@dataclass
class TurnStat:
    """One legal turn of the side to move, with what the analysis found about it.

    ``move`` is the whole turn in P-12 notation; ``actions`` its core actions.
    ``visits``/``share`` are the root visits of its first action (all trees
    merged); ``win`` and ``win_ci`` are None when the search never tried it.
    ``exact`` is ``"win"`` for a turn that wins at once (then ``win`` is 1), or in Stacks
    ``"win_unless_blocked"`` for a completion whose chip wins unless an opponent plays a
    Block on it (ST-15; ``win`` stays the search's estimate).
    ``proof`` is a proven result (a forced win, then ``win`` is 1; a forced loss, then
    0); without one (and not ``exact``), ``win`` and ``win_ci`` are estimates kept
    within [:data:`ESTIMATE_FLOOR`, :data:`ESTIMATE_CEILING`].
    ``block`` is True/False when some opposing side could win on its next turn
    (does this turn leave it no winning cell?), None otherwise or when unknown.
    """

    move: str
    actions: tuple[int, ...]
    visits: int = 0
    share: float = 0.0
    win: float | None = None
    win_ci: tuple[float, float] | None = None
    pv: list[str] = field(default_factory=list)
    exact: str | None = None
    block: bool | None = None
    replacement_wins: float | None = None
    #: a proven result (:class:`~seqsolve.analysis.proof.Proof`), None when nothing is proven
    proof: object | None = None
    #: for the best few turns (:mod:`.depends`): the opponents' holdings that split the
    #: turn's outcome over the dealt worlds (:class:`~.depends.Dependence`), None when not looked at
    depends: list | None = None
    #: for the best few turns: the cards whose draw would win the mover's next turn
    #: (the game's ``winning_draws``), None when not looked at or not a chance
    winning_draws: dict | None = None
    #: the search's own estimate before the calibration map (:mod:`.calibration`) put
    #: ``win`` through it; None when no map was applied (then ``win`` is that estimate)
    raw_win: float | None = None

    def to_dict(self) -> dict:
        data = {
            "move": self.move,
            "share": self.share,
            "visits": self.visits,
            "win": self.win,
            "win_ci": None if self.win_ci is None else list(self.win_ci),
            "win_raw": self.win if self.raw_win is None else self.raw_win,
            "pv": self.pv,
            "exact": self.exact,
            "block": self.block,
            "replacement_wins": self.replacement_wins,
        }
        if self.proof is not None:
            data["proof"] = self.proof.to_dict()
        if self.depends is not None:
            data["depends"] = [d.to_dict() for d in self.depends]
        if self.winning_draws is not None:
            data["winning_draws"] = self.winning_draws
        return data


def is_proven(stat: TurnStat, result: str) -> bool:
    """Whether ``stat`` is a proven ``result`` ("win" or "loss"); a win at once counts."""
    if result == "win" and stat.exact == "win":
        return True
    return stat.proof is not None and stat.proof.result == result


def clamp_estimate(x: float) -> float:
    """An estimated win chance within [ESTIMATE_FLOOR, ESTIMATE_CEILING]."""
    return min(max(x, ESTIMATE_FLOOR), ESTIMATE_CEILING)


def settle_estimates(stats: list[TurnStat]) -> None:
    """Proven turns at 1 (win) or 0 (loss) exactly; every other estimate, and its
    interval, within [ESTIMATE_FLOOR, ESTIMATE_CEILING]: only a proof reads 1.000 or 0.000."""
    clamp = clamp_estimate

    for s in stats:
        if is_proven(s, "win"):
            s.win, s.win_ci = 1.0, (1.0, 1.0)
        elif is_proven(s, "loss"):
            s.win, s.win_ci = 0.0, (0.0, 0.0)
        else:
            if s.win is not None:
                s.win = clamp(s.win)
            if s.win_ci is not None:
                s.win_ci = (clamp(s.win_ci[0]), clamp(s.win_ci[1]))


def rank_proven(stats: list[TurnStat]) -> list[TurnStat]:
    """Proven wins first (fewest turns first), then the estimates in their order, then
    proven losses (the slowest first)."""

    def key(s: TurnStat) -> tuple:
        if is_proven(s, "win"):
            return (0, s.proof.turns if s.proof is not None else 1)
        if is_proven(s, "loss"):
            return (2, -s.proof.turns)
        return (1, 0)

    return sorted(stats, key=key)


@dataclass
class Tactics:
    """Exact one-move facts: the mover's immediate wins, the opponents' immediate wins
    (cells, the card each needs, whether that side may hold one) and the blocks."""

    win_in_one: list[str]
    threats: list[dict]
    blocks: list[str]
    no_block: bool
    #: each of ``threats`` in words, as the game says it (not part of the JSON)
    notes: list[str] = field(default_factory=list)
    #: whether the opponents' wins were looked for: a game without tactics has no
    #: exact threats, so its empty ``threats`` says nothing (``opponent_wins`` null)
    looked: bool = True
    #: Stacks: the decisions whose completion wins unless an opponent blocks it (ST-15);
    #: None for a game where a win at once is the end of the game (not in the JSON)
    unless_blocked: list[str] | None = None
    #: the game ranks single decisions, not whole turns (Stacks): the report's wording
    decisions: bool = False

    def to_dict(self) -> dict:
        data = {
            "win_in_one": self.win_in_one,
            "opponent_wins": self.threats if self.looked else None,
            "blocks": self.blocks,
            "no_block": self.no_block,
        }
        if self.unless_blocked is not None:
            data["win_unless_blocked"] = self.unless_blocked
        return data


def budget_unit(spec: str) -> str:
    """What an analysis budget of the search ``spec`` counts: a tree's iterations, or
    the worlds every turn was played out in (a ``rollout`` spec)."""
    return "worlds" if spec.startswith("rollout") else "iterations"


@dataclass
class Analysis:
    """Everything :func:`analyze` found; :meth:`to_dict` is the ``--json`` object."""

    position: str
    variant: str
    players: int
    teams: int
    to_move: int
    side: str
    turn: int
    open_information: bool
    seed: int
    jobs: int
    iterations: int
    seconds: float
    moves: list[TurnStat]
    tactics: Tactics
    #: per side, the game's threat summary (objects with ``to_dict()`` and ``lines()``)
    threats: list | None
    value: float | None
    #: the spec searched (``search`` resolved); a ``rollout`` spec's iterations are worlds
    search: str = "mcts"
    #: the calibration map the estimates went through (:class:`~.calibration.PlattMap`),
    #: None when the search's own estimates are shown
    calibration: object | None = None

    @property
    def unit(self) -> str:
        return budget_unit(self.search)

    def to_dict(self, top: int | None = None) -> dict:
        moves = self.moves if not top else self.moves[:top]
        data = {
            "position": self.position,
            "variant": self.variant,
            "players": self.players,
            "teams": self.teams,
            "to_move": self.to_move,
            "side": self.side,
            "turn": self.turn,
            "open": self.open_information,
            "seed": self.seed,
            "jobs": self.jobs,
            "search": self.search,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "legal_turns": len(self.moves),
            "value": self.value,
            "calibration": None if self.calibration is None else self.calibration.to_dict(),
            "moves": [m.to_dict() for m in moves],
            "exact": self.tactics.to_dict(),
        }
        if self.threats is not None:
            data["threats"] = [t.to_dict() for t in self.threats]
        return data

    def find(self, move: str) -> TurnStat | None:
        """The ranked turn whose text is ``move`` (or, for a bare exchange ``~5S``, the turn
        that starts with it)."""
        for m in self.moves:
            if m.move == move:
                return m
        for m in self.moves:
            if m.move.split()[0] == move:
                return m
        return None
