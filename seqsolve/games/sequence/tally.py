"""What one game of Sequence did beyond its result, for the balance analysis
(docs/balance-metrics.md): the game's :meth:`~seqsolve.games.sequence.game.SequenceGame.tally`,
which the match runner feeds every action of a self-play game."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...stats import rate_interval
from .actions import ActionKind, decode_action
from .board import CORNERS, windows
from .cards import CardKind
from .rules import Rules, parse_rules
from .state import State

#: compared with for every action of a self-play game (an enum class lookup costs ~0.1 µs)
_REMOVE, _EXCHANGE, _PASS = ActionKind.REMOVE, ActionKind.EXCHANGE, ActionKind.PASS

#: what GameDetail counts per action, in the order of its record (and of the compiled loop's counts)
COUNTS = ("decisions", "legal", "exchanges", "two_eyed", "one_eyed", "passes", "reshuffles")


def detail_record(counts, chips: list[list[int]], sequences: list[list[int]]) -> dict:
    """A game's ``detail`` as its record holds it, from the :data:`COUNTS` in order, the
    cells of each side's chips and ``[side, window]`` of every completed sequence."""
    return {**dict(zip(COUNTS, counts)), "chips": chips, "sequences": sequences}


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
        self.counts = dict.fromkeys(COUNTS, 0)

    def play(self, state: State, action: int, n_legal: int) -> None:
        """Apply ``action`` to ``state``, counting it."""
        c = self.counts
        c["legal"] += n_legal
        c["decisions"] += n_legal > 1
        kind, card, _, _ = decode_action(action)
        if kind == _EXCHANGE:
            c["exchanges"] += 1
        elif kind == _PASS:
            c["passes"] += 1
        elif kind == _REMOVE:
            c["one_eyed"] += 1
        elif self.deck.kind(self.deck.codes[card]) == CardKind.WILD:
            c["two_eyed"] += 1
        discards = len(state.discarded())
        state.apply_legal(action)
        # every action but a pass discards one card; a reshuffle empties the piles (C-29)
        if len(state.discarded()) < discards + (kind != _PASS):
            c["reshuffles"] += 1

    def finish(self, state: State) -> dict:
        return detail_record(
            self.counts.values(),
            [state.chips(side) for side in range(state.rules.teams)],
            [[state.sides.index(colour), w] for colour, w in state.sequences()],
        )

    @staticmethod
    def check(detail: object) -> str | None:
        """What is wrong with a record's ``detail`` as read back from a file (a resumed run
        trusts no file), or None: every count a whole number >= 0, ``chips`` one list of
        distinct cells 0..99 per side, ``sequences`` pairs of such a side and a window."""
        if not isinstance(detail, dict):
            return "is not an object"
        for key in COUNTS:
            if not _count(detail.get(key)):
                return f"{key} must be a whole number >= 0, not {detail.get(key)!r}"
        chips, sequences = detail.get("chips"), detail.get("sequences")
        if not isinstance(chips, list) or not 2 <= len(chips) <= 3:
            return f"chips must be a list of each side's cells, not {chips!r:.60}"
        for side, cells in enumerate(chips):
            if (
                not isinstance(cells, list)
                or not all(_count(c) and c < 100 for c in cells)
                or len(set(cells)) < len(cells)
            ):
                return f"chips[{side}] must be a list of distinct cells 0..99"
        n_windows = len(windows())
        if not isinstance(sequences, list) or not all(
            isinstance(q, list)
            and len(q) == 2
            and _count(q[0])
            and q[0] < len(chips)
            and _count(q[1])
            and q[1] < n_windows
            for q in sequences
        ):
            return f"sequences must be a list of [side, window] pairs, not {sequences!r:.60}"
        return None

    @staticmethod
    def summarize(records: list[dict]) -> dict:
        """Sequence's metrics of a point's self-play records (at least one): counts per
        game, how often the winner's sequences used a corner, how often a jack or an
        exchange decided a game won by a play (:func:`_won_by`; not one won at the end
        of the cards, D-4, or by a forfeit), and the board heatmaps."""
        corner_windows = _corner_windows()
        chips, seq_cells = np.zeros(100), np.zeros(100)
        per_game: dict[str, list[float]] = {k: [] for k in _PER_GAME}
        corner_wins = decisive = 0
        decided = {"jack": 0, "exchange": 0}
        won_by_play = 0
        for r in records:
            d, w = r["detail"], r["winner_side"]
            if w is not None and r.get("termination") == "win" and r.get("moves"):  # won by a play
                won_by_play += 1
                for how in _won_by(r):
                    decided[how] += 1
            for k, values in per_game.items():
                values.append(d["two_eyed"] + d["one_eyed"] if k == "jacks" else d[k])
            for side_cells in d["chips"]:
                chips[np.asarray(side_cells, dtype=int)] += 1
            cells = set()
            for side, window in d["sequences"]:
                cells.update(windows()[window])
            seq_cells[np.asarray(sorted(cells), dtype=int)] += 1
            decisive += w is not None
            corner_wins += any(side == w and window in corner_windows for side, window in d["sequences"])
        n = len(records)
        out: dict = {f"{k}_mean": float(np.mean(values)) for k, values in per_game.items()}
        out["corner_win_rate"] = corner_wins / decisive if decisive else None
        out["corner_win_ci"] = list(rate_interval(corner_wins, decisive)[1:]) if decisive else None
        for how, won in decided.items():
            out[f"{how}_won_rate"] = won / won_by_play if won_by_play else None
            out[f"{how}_won_ci"] = list(rate_interval(won, won_by_play)[1:]) if won_by_play else None
        out["heatmap"] = {
            "chips": (chips / n).round(4).tolist(),
            "sequences": (seq_cells / n).round(4).tolist(),
        }
        return out


#: the counts of :meth:`GameDetail.summarize` given as means per game, in the order tables show them
_PER_GAME = ("decisions", "exchanges", "two_eyed", "one_eyed", "jacks", "reshuffles", "passes")


def _won_by(record: dict) -> list[str]:
    """What decided a won game, from its moves (P-12 notation, one action each): ``jack``
    when the winning play placed a two-eyed jack (a wild chip, C-15), ``exchange`` when
    the winning turn began with a dead-card exchange (C-14: the card it drew may be the
    one that won).  Read from the record's moves rather than counted while playing, so
    records of any bot and any earlier run say it alike.

    >>> _won_by({"variant": "classic", "players": 2, "teams": 2, "moves": ["~5S", "JD@e5"]})
    ['jack', 'exchange']
    """
    moves = record["moves"]
    card, placed, _ = moves[-1].partition("@")
    deck = _deck(record["variant"], record["players"], record["teams"])
    how = []
    if placed and deck.kind(card) == CardKind.WILD:
        how.append("jack")
    if len(moves) > 1 and moves[-2].startswith("~"):
        how.append("exchange")
    return how


@lru_cache(maxsize=64)  # asked once per won game of a summary
def _deck(variant: str, players: int, teams: int):
    return parse_rules(variant, players, teams).deck_cards


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@lru_cache(maxsize=1)
def _corner_windows() -> frozenset[int]:
    """The windows that hold a corner (a corner counts for every side, C-24)."""
    return frozenset(i for i, w in enumerate(windows()) if set(w) & set(CORNERS))
