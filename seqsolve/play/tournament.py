"""A round robin: every pair of bots plays a match of paired deals, and the table
of results becomes Bradley-Terry ratings (:mod:`.ratings`) and a score matrix.

The commands own the order of play, progress and interruption; here is what a
tournament is: its pairings, the match each one plays (and the record file it
keeps), and the report made of their results.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .config import MatchConfig
from .ratings import bradley_terry
from .report import summarize_match
from .seeds import tournament_stream


@dataclass
class Tournament:
    """Bots (each spec once) and the rules every pairing is played under; the results
    of the pairings played so far, as :meth:`add` records them."""

    bots: tuple[str, ...]
    variant: str = "classic"
    players: int = 2
    teams: int | None = None
    move_timeout: float = 10.0
    #: (a, b) -> (wins of a, draws, wins of b), for the pairings played so far
    results: dict[tuple[str, str], tuple[int, int, int]] = field(default_factory=dict)
    #: scores[a][b]: the score of a against b
    scores: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def pairings(self) -> list[tuple[str, str]]:
        """Every pair of bots, in the order given.

        >>> Tournament(("a", "b", "c")).pairings
        [('a', 'b'), ('a', 'c'), ('b', 'c')]
        """
        n = len(self.bots)
        return [(self.bots[i], self.bots[j]) for i in range(n) for j in range(i + 1, n)]

    def config(self, k: int, seed: int) -> MatchConfig:
        """The match of pairing ``k`` under the tournament's root ``seed``: its games
        come from the pairing's own stream (:func:`~.seeds.tournament_stream`)."""
        a, b = self.pairings[k]
        return MatchConfig(
            bots=(a, b),
            variant=self.variant,
            players=self.players,
            teams=self.teams,
            seed=seed,
            stream=tournament_stream(k),
            move_timeout=self.move_timeout,
        )

    def record_path(self, out: str, k: int) -> str:
        """The record file of pairing ``k`` in the folder ``out``.

        >>> Tournament(("mcts:iters=100", "greedy")).record_path("runs", 0)
        'runs/mcts_iters=100-vs-greedy.jsonl'
        """
        a, b = self.pairings[k]
        return os.path.join(out, f"{_slug(a)}-vs-{_slug(b)}.jsonl")

    def add(self, k: int, records: list[dict]) -> None:
        """Count the records of pairing ``k``."""
        a, b = self.pairings[k]
        s = summarize_match(records, (a, b))
        self.results[(a, b)] = (s["wins"][a], s["draws"], s["wins"][b])  # specs are unique here
        self.scores.setdefault(a, {})[b] = s["score"]
        self.scores.setdefault(b, {})[a] = 1 - s["score"]

    def report(self, games: int, seed: int, seconds: float) -> dict:
        """Ratings (best first), the score matrix and the results: the ``--json`` object."""
        table = sorted(bradley_terry(self.results).items(), key=lambda kv: -kv[1][0])
        return {
            "bots": list(self.bots),
            "games_per_pairing": games,
            "seed": seed,
            "variant": self.variant,
            "ratings": [{"bot": name, "elo": r[0], "elo_ci": [r[1], r[2]]} for name, r in table],
            "scores": {a: dict(self.scores.get(a, {})) for a in self.bots},
            "results": [
                {"a": a, "b": b, "wins_a": w, "draws": d, "wins_b": l}
                for (a, b), (w, d, l) in self.results.items()
            ],
            "seconds": seconds,
        }


def _slug(spec: str) -> str:
    """A bot spec as a file-name part."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec)[:60]
