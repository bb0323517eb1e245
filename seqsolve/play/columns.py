"""Game records column by column: how a worker hands its games to a runner that keeps
no record file, and how such a run hands its match to the report.

A record is a dict of some fifteen fields.  Sent from a worker process as dicts, each
is built again in the runner, field by field, while the workers play: in a 40,000-game
greedy match that was 0.06 of the 0.08 CPU seconds the runner spent on its pool (30
tasks; 0.02 with empty results), taken from the two cores the workers need.  As
columns (one list per field, the fields of every record in the same order) the same
games take a fifth of that to unpickle, and the report reads the columns it needs
without a dict being built.  The records are the same: :meth:`Columns.records` and
iterating :class:`Outcomes` build them, field for field and in order, only when asked.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator, Sequence


class Columns:
    """The records of a few games, one list of values per field.

    >>> part = Columns.of([{"game": 4, "score": 1.0}, {"game": 5, "score": 0.0}])
    >>> len(part), part.column("score"), part.records()[1]
    (2, [1.0, 0.0], {'game': 5, 'score': 0.0})
    """

    __slots__ = ("keys", "values")

    def __init__(self, keys: tuple[str, ...], values: list[list]):
        self.keys, self.values = keys, values

    @classmethod
    def of(cls, records: list[dict]) -> Columns | list[dict]:
        """``records`` as columns; unchanged when they do not all have the same fields in
        the same order (a forfeit, a tally), which columns could not give back alike."""
        if not records:
            return records
        keys = tuple(records[0])
        if any(tuple(r) != keys for r in records):
            return records
        return cls(keys, [[r[k] for r in records] for k in keys])

    def __len__(self) -> int:
        return len(self.values[0]) if self.values else 0

    def column(self, key: str) -> list:
        """Every record's value of ``key`` (None where there is no such field)."""
        return self.values[self.keys.index(key)] if key in self.keys else [None] * len(self)

    def records(self) -> list[dict]:
        """The records, each a dict with the fields in their order."""
        keys = self.keys
        return [dict(zip(keys, row)) for row in zip(*self.values)]

    def __getstate__(self):
        return self.keys, self.values

    def __setstate__(self, state) -> None:
        self.keys, self.values = state


def column(records: Columns | Outcomes | list[dict], key: str) -> list:
    """Every record's value of ``key`` (None where a record has no such field), whatever
    form the records come in.

    >>> column([{"game": 0, "score": 0.5}], "score")
    [0.5]
    """
    if isinstance(records, (Columns, Outcomes)):
        return records.column(key)
    return [r.get(key) for r in records]


class Outcomes(Sequence):
    """A run's records in game order, kept as the parts they came in (dicts, or
    :class:`Columns` from the workers).  :meth:`column` reads a field of every game
    without building a record; indexing or iterating builds the records, once.

    >>> runs = Outcomes([Columns.of([{"game": 1, "score": 0.0}]), [{"game": 0, "score": 1.0}]])
    >>> runs.column("score"), [r["game"] for r in runs]
    ([1.0, 0.0], [0, 1])
    """

    def __init__(self, parts: list[Columns | list[dict]]):
        # by their first game: a worker's task is a run of games, so the parts of a run
        # then follow each other and every column is joined without being reordered
        self._parts = sorted((p for p in parts if len(p)), key=lambda part: column(part, "game")[0])
        games = self._joined("game")
        self._length = len(games)
        in_order = all(map(operator.lt, games, itertools.islice(games, 1, None)))
        self._order = None if in_order else sorted(range(len(games)), key=games.__getitem__)
        self._records: list[dict] | None = None

    def _joined(self, key: str) -> list:
        values: list = []
        for part in self._parts:
            values.extend(column(part, key))
        return values

    def _ordered(self, values: list) -> list:
        if self._order is None or len(values) < 2:
            return values
        return list(operator.itemgetter(*self._order)(values))

    def column(self, key: str) -> list:
        """Every game's value of ``key``, in game order (None where a record has no such field)."""
        if self._records is not None:
            return [r.get(key) for r in self._records]
        return self._ordered(self._joined(key))

    def _built(self) -> list[dict]:
        if self._records is None:
            joined: list[dict] = []
            for part in self._parts:
                joined.extend(part.records() if isinstance(part, Columns) else part)
            self._records = self._ordered(joined)
        return self._records

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        return self._built()[index]

    def __iter__(self) -> Iterator[dict]:
        return iter(self._built())

    def __eq__(self, other) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def parts_of(done: dict[int, dict | Columns]) -> list[Columns | list[dict]]:
    """The parts of a run's ``done`` (game -> its record, or the :class:`Columns` that
    hold it), each part once."""
    dicts: list[dict] = []
    seen: dict[int, Columns] = {}
    last = None
    for value in done.values():
        if value is last:  # a part's games follow each other in ``done``
            continue
        last = value
        if isinstance(value, Columns):
            seen.setdefault(id(value), value)
        else:
            dicts.append(value)
    return [dicts, *seen.values()]
