"""``seqsolve serve`` runs at most :data:`~seqsolve.serve.app.WORKERS` heavy requests at
once: a third waits while two run, and runs once one of them ends.  Event-based: the
requests are held in their worker threads by an event, and the test waits until every
task of the event loop is blocked (anyio's ``wait_all_tasks_blocked``), never on a clock."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="the API is asked through httpx's ASGI transport")

import anyio
from anyio import wait_all_tasks_blocked

from seqsolve.serve import app as serve_app
from seqsolve.serve.work import Limits

#: the longest a held request waits for its release before the test fails (a bound, not a pace)
PATIENCE = 60


def test_a_third_heavy_request_waits_while_two_run(monkeypatch):
    assert serve_app.WORKERS == 2
    release = threading.Event()
    lock = threading.Lock()
    started: list[int] = []
    running: list[int] = []
    most = [0]

    def hold(body: dict, limits: Limits) -> dict:
        """A heavy request: it runs until the test releases it."""
        with lock:
            started.append(body["k"])
            running.append(body["k"])
            most[0] = max(most[0], len(running))
        assert release.wait(PATIENCE), "the test never released the request"
        with lock:
            running.remove(body["k"])
        return {"k": body["k"]}

    monkeypatch.setitem(serve_app.ROUTES, "hold", hold)
    handed = []  # the requests handed to a worker thread, as the event loop hands them
    to_thread = anyio.to_thread.run_sync

    async def hand_over(func, *args, **kwargs):
        handed.append(args[0]["k"] if func is hold else None)
        return await to_thread(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", hand_over)
    application = serve_app.make_app(Limits(max_seconds=5.0), {"testserver"})
    answers: dict[int, httpx.Response] = {}

    async def main():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:

            async def ask(k: int) -> None:
                answers[k] = await client.post("/api/hold", json={"k": k})

            async with anyio.create_task_group() as tasks:
                for k in range(3):
                    tasks.start_soon(ask, k)
                try:  # every request in: two held in their threads, the third at the workers' door
                    while len(started) < 2:
                        await wait_all_tasks_blocked()
                    await wait_all_tasks_blocked()  # the third is blocked too: not in a thread, so waiting
                    with lock:
                        assert len(started) == 2 and len(running) == 2, started
                    assert sorted(handed) == sorted(started), (handed, started)
                finally:
                    release.set()  # the two end; the third runs, and ends at once

    anyio.run(main)
    assert sorted(answers) == [0, 1, 2]
    assert all(r.status_code == 200 and r.json() == {"k": k} for k, r in answers.items())
    assert most[0] == 2 and len(started) == 3 and sorted(handed) == [0, 1, 2]
