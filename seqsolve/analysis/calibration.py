"""The map that makes the default analysis's win chances mean what they say.

The search's estimate of a turn is the mean outcome of its playouts, and on games of
the default search against itself with 2 players that mean runs a little timid: a turn
it rates 0.3 wins less often than 3 in 10, one it rates 0.7 more often than 7
(``benchmarks/calibration.py``; benchmarks/RESULTS.md, "Calibration").  A Platt map
``logit p' = a + b·logit p`` with ``b > 0``, fitted on the outcomes of such games, puts
it right.  Being increasing it keeps the order of the turns; it is applied only to
estimates (a proof and a win at once stay exactly 1 or 0) and its result is kept
within [ESTIMATE_FLOOR, ESTIMATE_CEILING], so an estimate never reads as a proof.  The
ends of a turn's search-noise interval, and the position's value, go through the same
map: the interval still covers the search's noise, on the printed scale.

A map is fitted for one setup at one search: the default analysis (``search`` at its
default budget, the mover's hidden cards dealt at random) of one variant and number of
seats, with or without the worlds weighed by the opponent's last play.  Anywhere else
(another bot spec or budget, ``--open``, Sequence Stacks, a setup not in :data:`PLATT_MAPS`)
the search's own estimate is printed, as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .results import ESTIMATE_CEILING, ESTIMATE_FLOOR, TurnStat, is_proven


@dataclass(frozen=True)
class PlattMap:
    """``logit p' = a + b·logit p``, fitted for :attr:`setup` (its words, as reports print them)."""

    a: float
    b: float
    setup: str

    def __call__(self, p: float) -> float:
        """The calibrated estimate of ``p`` (an estimate, never a proof), within the bounds."""
        p = min(max(p, ESTIMATE_FLOOR), ESTIMATE_CEILING)
        z = self.a + self.b * math.log(p / (1 - p))
        mapped = 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))
        return min(max(mapped, ESTIMATE_FLOOR), ESTIMATE_CEILING)

    def to_dict(self) -> dict:
        return {"setup": self.setup, "a": self.a, "b": self.b}


#: (variant, seats, teams, worlds weighed by the last play) -> (a, b) of the Platt map of
#: the default analysis.  Fitted on 2026-12-06 at 560eeb3 (the search, its budget and
#: its evaluation as here) by ``python benchmarks/calibration.py --preset P --games 60
#: --per-game 3 --seed 3 4 --fit-seed 1 2`` (classic 4p teams: ``--fit-seed 1 2 5 6``),
#: which prints them: ``platt_fit``'s logistic fit of how the game ended on the unproven
#: raw estimate of the turn played, positions of games of ``search`` against itself of the
#: fit seeds; seeds 3 and 4 are held out and scored in benchmarks/RESULTS.md.  Refit
#: whenever the default search, its budget or its evaluation changes.  Classic 2 players
#: without the last play (a position that does not record it) was calibrated when
#: measured before the last play was weighed, and has no map.
PLATT_MAPS: dict[tuple[str, int, int, bool], tuple[float, float]] = {
    # 341 unproven positions of 120 games (seeds 1, 2): slope 1.34 before
    ("classic", 2, 2, True): (-0.141, 1.337),
    # 347 unproven positions of 120 games (seeds 1, 2): slope 1.26 before
    ("draft", 2, 2, False): (-0.041, 1.259),
    # 704 unproven positions of 240 games (seeds 1, 2, 5, 6; single seeds 1.20, 2.64,
    # 0.99, 0.38): slope 1.04 before, so this map is nearly the identity
    ("classic", 4, 2, False): (0.037, 1.037),
}


def _words(variant: str, players: int, teams: int, weighed: bool) -> str:
    seats = f"{players} players" if teams == players else f"{players} players in {teams} teams"
    return f"{variant}, {seats}" + (", last play weighed" if weighed else "")


def platt_map_for(variant: str, players: int, teams: int, weighed: bool) -> PlattMap | None:
    """The map fitted for the default analysis of this setup, None where none was fitted."""
    fitted = PLATT_MAPS.get((variant, players, teams, weighed))
    if fitted is None:
        return None
    return PlattMap(*fitted, _words(variant, players, teams, weighed))


def calibrate(stats: list[TurnStat], mapping: PlattMap) -> None:
    """Each estimate of ``stats`` (and its interval's ends) through ``mapping``; proven
    turns and wins at once untouched.  The search's own estimate stays in ``raw_win``."""
    for s in stats:
        s.raw_win = s.win
        if s.win is None or is_proven(s, "win") or is_proven(s, "loss"):
            continue
        s.win = mapping(s.win)
        if s.win_ci is not None:
            s.win_ci = (mapping(s.win_ci[0]), mapping(s.win_ci[1]))
