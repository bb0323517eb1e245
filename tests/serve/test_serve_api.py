"""``seqsolve serve`` over HTTP (Starlette's TestClient): what the page's requests get,
the door's refusals, whole games through the API and the records they leave."""

from __future__ import annotations

import importlib.resources
import json
import os

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from cli_helpers import ok
from starlette.testclient import TestClient

from seqsolve.play.records import scan_bytes
from seqsolve.serve.app import allowed_hosts, make_app
from seqsolve.serve.work import Limits

EXAMPLE4 = importlib.resources.files("seqsolve").joinpath("data", "example4.sqn").read_text()
ONE_SEQUENCE = "classic[sequences_to_win=1]"


@pytest.fixture
def client():
    with TestClient(make_app(Limits(max_seconds=5.0), {"testserver"})) as c:
        yield c


def post(client, action: str, body: dict, status: int = 200) -> dict:
    response = client.post(f"/api/{action}", json=body)
    assert response.status_code == status, response.text
    data = response.json()
    if status != 200:
        assert set(data) == {"error"} and "\n" not in data["error"] and "Traceback" not in data["error"]
    return data


def error(client, action: str, body: dict) -> str:
    return post(client, action, body, 400)["error"]


# ---------------------------------------------------------------- the page and the door


def test_the_page_and_its_files_load_from_the_server_only(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert "http" not in page.text.replace('name="viewport"', "")  # nothing from the internet
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../work.py").status_code == 404
    assert client.get("/static/secret.txt").status_code == 404


def test_no_file_of_the_page_is_left_out_of_the_repository():
    """A file the page needs that git ignores would be missing from every fresh clone."""
    import pathlib
    import shutil
    import subprocess

    from seqsolve.serve.app import PAGE_FILES

    root = pathlib.Path(__file__).resolve().parents[2]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout: nothing to check")
    paths = [f"seqsolve/serve/static/{name}" for name in PAGE_FILES]
    ignored = subprocess.run(["git", "check-ignore", *paths], cwd=root, capture_output=True, text=True)
    assert ignored.stdout.split() == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver.evil.example"},
        {"Host": "evil.example"},
    ],
)
def test_a_request_from_another_site_is_refused(client, headers):
    response = client.post("/api/new", json={"seed": 1}, headers=headers)
    assert response.status_code == 403
    assert response.json()["error"].startswith("refused:")


def test_a_request_from_the_page_itself_is_served(client):
    response = client.post("/api/new", json={"seed": 1}, headers={"Origin": "http://testserver"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_the_api_takes_json_only(client, content_type):
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post("/api/new", content=b'{"seed": 1}', headers=headers)
    assert response.status_code == 415
    assert "application/json" in response.json()["error"]


@pytest.mark.parametrize("body", [b"{", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 100_000])
def test_a_body_that_is_not_a_json_object_is_one_line(client, body):
    response = client.post("/api/new", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] in (
        "the request's body is not JSON",
        "the request's body must be a JSON object",
    )


def test_an_unknown_request_and_a_get_of_the_api_are_refused(client):
    assert client.post("/api/shutdown", json={}).status_code == 404
    assert client.get("/api/new").status_code == 405


def test_the_loopback_names_are_the_hosts_of_a_loopback_server():
    assert allowed_hosts("127.0.0.1", 8765) == {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"}
    assert allowed_hosts("192.0.2.7", 80) == {"192.0.2.7:80"}


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"variant": "nope"}, "unknown preset 'nope'"),
        ({"variant": "classic[hand_size=0]"}, "hand_size"),
        ({"players": 5}, "5"),
        ({"seed": -1}, "'seed' must be from 0"),
        ({"seed": "7"}, "'seed' must be a whole number"),
        ({"seat": 2}, "'seat' must be from 0 to 1"),
        ({"bot": "ext:touch /tmp/x"}, "cannot be seated from the page"),
        ({"bot": "restricted:no=corners"}, "cannot be seated from the page"),
        ({"bot": "mcts:iters=1000000"}, "iters must be from 1 to 50,000"),
        ({"bot": "mcts:work=0"}, "work must be from 1"),
        ({"bot": "mcts:time=30"}, "above the server's 5 s a move"),
        ({"bot": "heuristic:weights=/etc/passwd"}, "a weights file is not read"),
        ({"bot": "mcts:zz=1"}, "unknown parameter 'zz'"),
    ],
)
def test_a_bad_new_game_is_one_clear_line(client, body, expected):
    assert expected in error(client, "new", body)


def test_a_bad_move_is_one_clear_line_and_changes_nothing(client):
    game = post(client, "new", {"seed": 5, "bot": "random"})["game"]
    assert "not played" in error(client, "play", {"game": game, "move": "ZZ@k11"})
    hand = post(client, "play", {"game": game})["hand"]
    absent = next(c for c in ("2S", "3S", "4S", "5S", "6S") if c not in hand)
    assert "not played" in error(client, "play", {"game": game, "move": f"{absent}@b2"})
    assert "not played" in error(client, "play", {"game": game, "move": ""})
    assert post(client, "play", {"game": game})["game"]["moves"] == game["moves"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"moves": ["AH@a1"]}, "cannot be replayed"),
        ({"moves": "2C@g4"}, "'moves' must be a list"),
        ({"seats": ["heuristic", "random"]}, "nobody to play it"),
        ({"seats": ["human"]}, "'seats' names 1 players for 2 seats"),
        ({"seats": ["human", "ext:sh"]}, "cannot be seated"),
        ({"seed": None}, "the game has no 'seed'"),
        ({"variant": 3}, "'variant' must be text"),
        ({"start": "classic nonsense"}, "the game (start)"),
    ],
)
def test_a_game_the_page_sends_is_checked_like_a_record(client, change, expected):
    game = post(client, "new", {"seed": 5, "bot": "random"})["game"]
    assert expected in error(client, "play", {"game": {**game, **change}})


# ---------------------------------------------------------------- playing


def test_a_whole_game_through_the_api_leaves_a_record_replay_and_annotate_read(client, tmp_path):
    data = post(client, "new", {"variant": ONE_SEQUENCE, "seed": 11, "bot": "greedy"})
    assert data["your_turn"] and data["picture"].startswith("<svg") and data["legal"]
    requests = 0
    while not data["over"]:
        assert data["your_turn"] and data["to_move"] == data["seat"] == 0
        first = data["legal"][0]
        if first["cell"] is not None:
            assert f'data-cell="{first["cell"]}"' in data["picture"]
        data = post(client, "play", {"game": data["game"], "move": first["move"]})
        requests += 1
        assert requests < 400
    assert data["result"] and not data["legal"] and not data["your_turn"]
    found = scan_bytes("the record", data["record"].encode())
    ((_line, record),) = found.games
    assert record["termination"] != "unfinished" and record["moves"] == data["game"]["moves"]
    path = tmp_path / "game.jsonl"
    path.write_text(data["record"])
    assert "turn" in ok("replay", str(path), "--game", "0")
    annotated = json.loads(ok("annotate", str(path), "--game", "0", "--iters", "20", "--json"))
    assert annotated["decisions"]
    assert "the game is over" in error(
        client, "play", {"game": data["game"], "move": data["game"]["moves"][0]}
    )


def test_a_reload_asks_the_same_bots_the_same_question(client):
    game = post(client, "new", {"seed": 3, "seat": 1, "bot": "mcts:iters=200"})["game"]
    assert len(game["moves"]) == 1  # the bot on seat 0 opened
    again = post(client, "new", {"seed": 3, "seat": 1, "bot": "mcts:iters=200"})["game"]
    assert again == game
    fresh = post(client, "play", {"game": {**game, "moves": []}})["game"]
    assert fresh == game


def test_undo_takes_back_the_persons_turn_and_the_replies(client):
    data = post(client, "new", {"seed": 2, "bot": "random"})
    played = post(client, "play", {"game": data["game"], "move": data["legal"][0]["move"]})
    assert len(played["game"]["moves"]) == 2
    undone = post(client, "undo", {"game": played["game"]})
    assert undone["game"]["moves"] == [] and undone["hand"] == data["hand"]
    assert "nothing to undo" in error(client, "undo", {"game": undone["game"]})


def test_a_hint_draws_the_best_turns_on_the_board(client):
    data = post(client, "new", {"seed": 4, "bot": "random"})
    hinted = post(client, "hint", {"game": data["game"], "iterations": 50})
    rows = hinted["analysis"]["moves"]
    assert 1 <= len(rows) <= 3
    legal = {m["move"] for m in data["legal"]}
    assert all(r["move"].split()[-1] in legal or r["move"].startswith("~") for r in rows)
    assert hinted["picture"].count('class="mark"') == len(rows)
    assert hinted["game"] == data["game"]
    assert "'iterations' must be from 1 to 50000" in error(
        client, "hint", {"game": data["game"], "iterations": 10**9}
    )


def test_stacks_is_played_on_its_picture(client):
    data = post(client, "new", {"variant": "stacks", "seed": 8, "bot": "random"})
    assert data["picture"].startswith("<svg") and data["no_picture"] is None
    assert "draw pile" in data["text"] and data["hand"] and data["legal"]
    assert all(m["card"] and m["cell"] for m in data["legal"])  # tests/serve/test_serve_stacks.py: where
    seat_moves = len(data["game"]["moves"])
    after = post(client, "play", {"game": data["game"], "move": data["legal"][0]["move"]})
    assert len(after["game"]["moves"]) > seat_moves


def test_a_whole_stacks_game_through_the_api_is_a_record_replay_reads(client, tmp_path):
    data = post(client, "new", {"variant": "stacks", "seed": 1, "bot": "random"})
    requests = 0
    while not data["over"]:
        data = post(client, "play", {"game": data["game"], "move": data["legal"][0]["move"]})
        requests += 1
        assert requests < 1000
    assert data["result"].startswith("seat ")
    path = tmp_path / "stacks.jsonl"
    path.write_text(data["record"])
    assert "turn" in ok("replay", str(path), "--game", "0")


def test_save_writes_a_new_record_in_the_save_folder_only(tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    with TestClient(make_app(Limits(5.0, str(folder)), {"testserver"})) as client:
        game = post(client, "new", {"seed": 9, "bot": "random"})["game"]
        assert post(client, "save", {"game": game, "name": "mine.jsonl"})["saved"] == "mine.jsonl"
        assert "exists" in error(client, "save", {"game": game, "name": "mine.jsonl"})
        for name in ("../up.jsonl", "/tmp/x.jsonl", ".hidden.jsonl", "sub/x.jsonl", "x.txt", ""):
            assert error(client, "save", {"game": game, "name": name})
    assert sorted(os.listdir(folder)) == ["mine.jsonl"] and sorted(os.listdir(tmp_path)) == ["saves"]
    assert scan_bytes("mine", (folder / "mine.jsonl").read_bytes()).games


def test_a_server_without_a_save_folder_writes_nothing(client):
    game = post(client, "new", {"seed": 9, "bot": "random"})["game"]
    assert "saves no files" in error(client, "save", {"game": game, "name": "x.jsonl"})


# ---------------------------------------------------------------- review and analysis


def _finished_record(client) -> str:
    data = post(client, "new", {"variant": ONE_SEQUENCE, "seed": 21, "bot": "greedy"})
    while not data["over"]:
        data = post(client, "play", {"game": data["game"], "move": data["legal"][-1]["move"]})
    return data["record"]


def test_a_record_is_stepped_through_with_its_marks_drawn(client):
    text = _finished_record(client)
    start = post(client, "review", {"text": text})
    assert start["ply"] == 0 and start["plies"] == len(start["moves"]) > 0
    assert 'class="chip"' not in start["picture"]
    one = post(client, "review", {"text": text, "ply": 1})
    assert one["picture"].count('class="chip"') == 1 or one["moves"][0]["move"].startswith("~")
    end = post(client, "review", {"text": text, "ply": start["plies"]})
    assert end["to_move"] is None and end["legal"] == []
    move = start["moves"][1]["move"]
    marked = post(client, "review", {"text": text, "ply": 1, "marks": [{"move": move, "label": "better"}]})
    assert marked["picture"].count('class="mark"') == 1 and ">better<" in marked["picture"]
    assert "'ply' must be from 0" in error(client, "review", {"text": text, "ply": start["plies"] + 1})
    assert "no game 5" in error(client, "review", {"text": text, "game": 5})
    assert error(client, "review", {"text": text, "marks": [{"move": "nonsense!"}]})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "the record:1: not a seqsolve match record file"),
        ("hello\n", "the record:1: not a seqsolve match record file"),
        ('{"seqsolve": "match", "format": 1, "config": {"seed": 1, "bots": ["a"]}}\n', "holds no game"),
    ],
)
def test_a_bad_record_is_one_line_naming_where(client, text, expected):
    assert expected in error(client, "review", {"text": text})


def test_a_damaged_line_of_a_record_is_named(client):
    lines = _finished_record(client).splitlines()
    game = json.loads(lines[1])
    game["moves"][0] = "ZZ@a1"
    bad = "\n".join([lines[0], json.dumps(game)]) + "\n"
    assert "the record:2: move 1 'ZZ@a1' cannot be replayed" in error(client, "review", {"text": bad})


def test_an_annotation_marks_decisions_with_the_better_turn(client):
    text = _finished_record(client)
    found = post(client, "annotate", {"text": text, "iterations": 20})
    plies = len(json.loads(text.splitlines()[1])["moves"])
    assert found["decisions"] and all(1 <= d["ply"] <= plies for d in found["decisions"])
    assert {d["mark"] for d in found["decisions"]} <= {None, "mistake", "blunder"}
    assert all(d["best"] and d["played"] for d in found["decisions"])


def test_a_pasted_position_is_drawn_with_its_analysis_recomputed_as_moves_are_tried(client):
    first = post(client, "analyze", {"position": EXAMPLE4, "iterations": 100})
    assert first["analysis"]["moves"] and first["picture"].count('class="mark"') == len(
        first["analysis"]["moves"]
    )
    best = first["analysis"]["moves"][0]["move"]
    after = post(client, "analyze", {"position": EXAMPLE4, "moves": [best], "iterations": 100})
    assert after["moves"] == [best] and after["to_move"] != first["to_move"]
    assert after["position"] != first["position"]
    assert after["analysis"] is not None or after["no_analysis"]


@pytest.mark.parametrize(
    ("position", "moves", "expected"),
    [
        ("nonsense", [], "the position:1:"),
        ("", [], "the position"),
        (EXAMPLE4, ["ZZ@a1"], "move 1 'ZZ@a1'"),
        (EXAMPLE4, ["AS@a1"], "move 1 'AS@a1'"),
    ],
)
def test_a_bad_position_or_tried_move_is_one_clear_line(client, position, moves, expected):
    assert expected in error(client, "analyze", {"position": position, "moves": moves})


def test_a_position_whose_mover_is_unknown_is_drawn_without_analysis(client):
    hidden = "classic *8*/b9/10/10/10/10/10/10/10/*8* bg 1 ?7/?7 -/- - 90 0 0\n"
    data = post(client, "analyze", {"position": hidden})
    assert data["analysis"] is None and "cards are not listed" in data["no_analysis"]
    assert data["picture"].count('class="chip"') == 1


def test_two_heavy_requests_run_at_once_and_neither_blocks_the_loop(monkeypatch):
    """Each of two requests waits for the other inside its work: with one global lock
    (or work on the event loop) neither would finish.  The barrier's timeout is a bound
    on a failure, not a pace: passing never waits for it."""
    import threading

    from seqsolve.serve import app as app_module

    barrier = threading.Barrier(2, timeout=60)

    def meet(body, limits):
        barrier.wait()
        return {"met": body["n"]}

    monkeypatch.setitem(app_module.ROUTES, "new", meet)
    results = {}
    with TestClient(make_app(Limits(5.0), {"testserver"})) as client:

        def ask(n):
            results[n] = client.post("/api/new", json={"n": n}).json()

        threads = [threading.Thread(target=ask, args=(n,)) for n in (1, 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert client.get("/").status_code == 200
    assert results == {1: {"met": 1}, 2: {"met": 2}}
    assert app_module.WORKERS == 2
