"""A stand-in for the out-of-memory killer: the chunk of games holding a chosen game
kills its own worker process (SIGKILL) before playing, with no timing involved.

Installed only by a test (``monkeypatch`` of ``seqsolve.play.match._play_chunk``, see
:func:`dying_chunks`): nothing a user types or a file holds can reach it.
"""

from __future__ import annotations

import functools
import os
import signal

from seqsolve.play import match, pool

#: the real task, kept before any test replaces it (workers import this module afresh)
_PLAY_CHUNK = match._play_chunk


def dying_chunk(config, games, *rest, game: int, mark: str, always: bool, parent: int):
    """``_play_chunk``, except that a worker given ``game`` dies first: once (leaving
    the file ``mark``), or every time with ``always``.  Never in the test process."""
    if os.getpid() != parent and game in games and (always or not os.path.exists(mark)):
        with open(mark, "a"):
            pass
        os.kill(os.getpid(), signal.SIGKILL)
    return _PLAY_CHUNK(config, games, *rest)


def dying_chunks(monkeypatch, mark, game: int, always: bool = False) -> None:
    """From now on in this test, the worker that is given ``game`` dies."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # two workers, whatever the machine
    monkeypatch.setattr(pool, "IN_PROCESS_SECONDS", 0)  # every game on a worker, however short the run
    chunk = functools.partial(dying_chunk, game=game, mark=str(mark), always=always, parent=os.getpid())
    monkeypatch.setattr(match, "_play_chunk", chunk)
