"""The ``seqsolve serve`` command: its options, refused before anything listens, and
the application it hands to uvicorn (``uvicorn.run`` replaced: no port is opened)."""

from __future__ import annotations

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the serve extra (uvicorn) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from cli_helpers import fails, ok, run
from starlette.testclient import TestClient


@pytest.fixture
def started(monkeypatch):
    """What ``uvicorn.run`` was called with, instead of running it."""
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    return calls


def test_help_says_the_address_holds_the_seed():
    text = ok("serve", "--help")
    assert "seqsolve serve --port" in text and "not for contests" in text


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--max-seconds", "0"], "--max-seconds"),
        (["--max-seconds", "nan"], "--max-seconds"),
        (["--max-seconds", "61"], "--max-seconds"),
        (["--port", "0"], "--port"),
    ],
)
def test_a_bad_option_is_refused_before_anything_listens(started, args, expected):
    assert expected in fails("serve", *args, code=2)
    assert started == []


def test_a_missing_save_folder_is_refused(started, tmp_path):
    assert (
        fails("serve", "--save-dir", str(tmp_path / "gone"))
        == f"seqsolve: --save-dir {tmp_path / 'gone'}: no such folder"
    )
    assert started == []


def test_the_server_listens_on_the_loopback_by_default_and_answers_its_own_address(started, tmp_path):
    result = run("serve", "--port", "8999", "--save-dir", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "http://127.0.0.1:8999/" in result.stderr
    ((app, kw),) = started
    assert (kw["host"], kw["port"]) == ("127.0.0.1", 8999)
    with TestClient(app, base_url="http://127.0.0.1:8999") as client:
        assert client.post("/api/new", json={"seed": 1, "bot": "random"}).status_code == 200
    with TestClient(app, base_url="http://localhost:8999") as client:
        assert client.post("/api/new", json={"seed": 1, "bot": "random"}).status_code == 200
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:  # another port: another server
        assert client.post("/api/new", json={"seed": 1}).status_code == 403


def test_another_address_is_warned_about(started, tmp_path):
    result = run("serve", "--host", "0.0.0.0", "--no-save")
    assert result.exit_code == 0 and "warning: listening on 0.0.0.0" in result.stderr
