"""``seqsolve serve``'s API under bad input, as an outside checker sends it: every field of
every request given the wrong type (text for a number, an object for a list, a huge or
negative number, unicode, a long text, a lone surrogate), bodies that are not JSON or hold
``NaN``, bots that would load a file or start a program, moves that are garbage, records
cut short or corrupted, Sequence Stacks positions with a character changed.  Each answer
is a success or a 4xx refusal of one line, never a 500 or a traceback."""

from __future__ import annotations

import json
import os
import random
import stat

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from seqsolve.games import game_for, read_state
from seqsolve.games.stacks import position_text
from seqsolve.serve.app import make_app
from seqsolve.serve.work import Limits

#: values of every wrong kind, for any field
WEIRD = [
    True,
    0,
    -1,
    -(2**63),
    2**64,
    10**30,
    1.5,
    1e308,
    "7",
    "",
    "é" * 5,
    "\u202e",
    "\x00",
    "x" * 300,
    "x" * 50_000,
    [],
    [1],
    ["x"] * 3,
    {},
    {"a": 1},
]
#: the fields each request reads
FIELDS = {
    "new": ("variant", "players", "teams", "seed", "seat", "bot"),
    "play": ("game", "move"),
    "undo": ("game",),
    "hint": ("game", "iterations"),
    "save": ("game", "name"),
    "review": ("text", "game", "ply", "marks"),
    "annotate": ("text", "game", "iterations"),
    "analyze": ("position", "moves", "iterations"),
}
#: the fields of the game a page sends back
GAME_FIELDS = ("variant", "players", "teams", "seed", "seats", "moves", "start")
#: bots that would read a file, import a module or start a program, or ask too much
BOTS = [
    "/tmp/x.py:Bot",
    "x.py:Bot",
    "os:system",
    "subprocess:Popen",
    "ext:ls",
    "ext:/bin/sh -c id",
    "heuristic:weights=/etc/passwd",
    "mcts:iters=99999999999999999999",
    "mcts:iters=-1",
    "mcts:time=nan",
    "mcts:time=1e400",
    "mcts:work=0",
    "random:seed=abc",
    "random:x=1",
    ":",
    "nobody",
    "a" * 300,
]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    limits = Limits(max_seconds=1.0, save_dir=str(tmp_path_factory.mktemp("saves")))
    with TestClient(make_app(limits, {"testserver"}), raise_server_exceptions=False) as c:
        yield c


def send(client, action: str, body) -> dict:
    """Post ``body`` (an object, or the raw bytes of one) and check the promise: 200, or a
    4xx whose body is one line of error."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(f"/api/{action}", content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code < 500, (action, raw[:200], response.text[:300])
    data = response.json()
    if response.status_code != 200:
        assert 400 <= response.status_code < 500
        assert set(data) == {"error"}, data
        assert data["error"] and "\n" not in data["error"] and "Traceback" not in data["error"]
    return data


@pytest.fixture(scope="module")
def games(client):
    """A classic and a Stacks game a few moves in, as the page keeps them."""
    found = {}
    for variant in ("classic", "stacks"):
        data = send(client, "new", {"variant": variant, "seed": 5, "bot": "random"})
        for _ in range(3):
            data = send(client, "play", {"game": data["game"], "move": data["legal"][0]["move"]})
        found[variant] = data
    return found


def _bases(games) -> dict[str, dict]:
    classic, stacks = games["classic"], games["stacks"]
    return {
        "new": {"seed": 1, "bot": "random"},
        "play": {"game": stacks["game"]},
        "undo": {"game": classic["game"]},
        "hint": {"game": classic["game"], "iterations": 5},
        "save": {"game": classic["game"], "name": "fuzz.jsonl"},
        "review": {"text": stacks["record"]},
        "annotate": {"text": classic["record"], "iterations": 2},
        "analyze": {"position": _stacks_position(games), "iterations": 3},
    }


def _stacks_position(games) -> str:
    """The Stacks game's position in its readable form, as a file holds it."""
    game = game_for("stacks")
    state = read_state(game.write_position(_state(games["stacks"])), "the position")
    return position_text.to_readable(position_text.parse(game.write_position(state)))


def _state(data):
    from seqsolve.serve.work import _table

    table = _table(data["game"], Limits())
    try:
        return table.state.clone()
    finally:
        table.close()


@pytest.mark.parametrize("action", sorted(FIELDS))
def test_every_field_of_the_wrong_kind_is_refused_in_one_line(client, games, action):
    base = _bases(games)[action]
    for name in FIELDS[action]:
        for value in WEIRD:
            send(client, action, {**base, name: value})
        assert "must be" in send(client, action, {**base, name: True})["error"]


@pytest.mark.parametrize("variant", ["classic", "stacks"])
def test_every_field_of_the_game_sent_back_is_checked(client, games, variant):
    game = games[variant]["game"]
    seated = [["human"], ["human", "human"], *(["human", bot] for bot in BOTS)]
    for name in GAME_FIELDS:
        for value in WEIRD + seated:
            send(client, "play", {"game": {**game, name: value}})


@pytest.mark.parametrize("variant", ["classic", "stacks"])
def test_a_bot_that_would_load_code_or_think_without_bound_is_refused(client, variant):
    for bot in BOTS:
        error = send(client, "new", {"variant": variant, "seed": 1, "bot": bot})["error"]
        assert error
    for spec in ("/tmp/x.py:Bot", "os:system", "ext:ls"):
        assert "cannot be seated" in send(client, "new", {"seed": 1, "bot": spec})["error"]


def test_garbage_moves_and_variants_are_refused(client, games):
    for variant in ("classic", "stacks"):
        game = games[variant]["game"]
        for move in ["", "ZZ", "7H@k11", "x" * 5000, "\u202e", "@", "?", "1" * 400, "B9", "SX SX"]:
            assert "not played" in send(client, "play", {"game": game, "move": move})["error"]
    for variant in ["nope", "classic[", "classic[x=1]", "classic[sequences_to_win=0]", "stacks[players=99]"]:
        assert send(client, "new", {"seed": 1, "variant": variant})["error"]


def test_bodies_that_are_not_json_objects_are_refused(client):
    for raw in [
        b"",
        b"{",
        b"\xff\xfe",
        b"[" * 100_000,
        b'"x"',
        b"1",
        b"[]",
        b'{"seed": 1' + b"9" * 5000 + b"}",
    ]:
        send(client, "new", raw)
    for raw in [b'{"seed": NaN}', b'{"seed": Infinity}', b'{"seed": 1, "bot": "random", "x": -Infinity}']:
        assert send(client, "new", raw)["error"] == "the request's body is not JSON"


def test_a_lone_surrogate_is_refused_at_the_door(client, games):
    """``"\\ud800"`` is valid JSON but no Unicode: an answer quoting it could not be written."""
    game = json.dumps(games["classic"]["game"])
    for action, raw in [
        ("save", '{"game": ' + game + ', "name": "\\ud800x"}'),
        ("play", '{"game": ' + game + ', "move": "\\udfff"}'),
        ("new", '{"seed": 1, "variant": "\\ud800"}'),
    ]:
        assert "not Unicode" in send(client, action, raw.encode())["error"]
    # a surrogate pair is one character, and fine
    assert (
        "not played"
        in send(client, "play", ('{"game": ' + game + ', "move": "\\ud83d\\ude00"}').encode())["error"]
    )


def test_records_cut_short_or_corrupted_are_refused(client, games):
    for variant in ("classic", "stacks"):
        record = games[variant]["record"]
        for text in [
            record[: len(record) // 2],
            record[:-5],
            record.replace('"moves"', '"mov"'),
            record.replace(variant, "nope", 1),
            "{",
            "[]",
            "null\nnull",
            record + "\n{}",
            record.replace('"seed": 5', '"seed": -5'),
            record.replace('"seed": 5', '"seed": "x"'),
            record.replace('"seed": 5', '"seed": NaN'),
            "\ufeff" + record,
        ]:
            for action in ("review", "annotate"):
                send(client, action, {"text": text, "iterations": 2})
        for game_number in (-1, 10**12, "0"):
            assert send(client, "review", {"text": record, "game": game_number})["error"]


def test_stacks_positions_with_a_character_changed_are_refused_or_read(client, games):
    readable = _bases(games)["analyze"]["position"]
    compact = game_for("stacks").write_position(_state(games["stacks"]))
    rng = random.Random(20261206)
    for text in (readable, compact):
        for _ in range(120):
            chars = list(text)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(chars))
                choice = rng.random()
                if choice < 0.4:
                    chars[at] = rng.choice("0123456789,/+:- BRSXKCW?\n")
                elif choice < 0.7:
                    del chars[at]
                else:
                    chars.insert(at, rng.choice("0123456789,/+:- BRSW"))
            send(client, "analyze", {"position": "".join(chars), "iterations": 2})


@pytest.mark.parametrize(
    "last",
    [
        "last: -",
        "last: 0 B3",
        "last: 9 B3",
        "last: 0 ZZ",
        "last: 0 99999999999999999999",
        "last: 0",
        "last: x y z",
    ],
)
def test_a_stacks_last_line_of_any_kind_is_drawn_or_refused(client, games, last):
    readable = _bases(games)["analyze"]["position"]
    for text in (readable + last + "\n", readable.replace("\nturn:", f"\n{last}\nturn:", 1)):
        send(client, "analyze", {"position": text, "iterations": 2})
        send(client, "analyze", {"position": text, "iterations": 2, "moves": ["B4", "pass"]})


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/api/new", 405),
        ("PUT", "/api/play", 405),
        ("DELETE", "/api/new", 405),
        ("POST", "/api/", 404),
        ("POST", "/api/new/x", 404),
        ("POST", "/api/new%0A", 404),
        ("POST", "/api/%ED%A0%80", 404),
        ("POST", "/api/" + "x" * 5000, 404),
    ],
)
def test_a_path_or_method_no_route_answers_is_a_one_line_json_refusal(client, method, path, status):
    response = client.request(method, path, content=b"{}", headers={"Content-Type": "application/json"})
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    assert "default-src 'none'" in response.headers["content-security-policy"]
    (error,) = response.json().values()
    assert error and "\n" not in error and len(error) < 200


def test_a_content_length_that_is_no_number_is_refused(client):
    for size in ("-1", "x", "1e3"):
        response = client.post(
            "/api/new", content=b"{}", headers={"Content-Type": "application/json", "Content-Length": size}
        )
        assert response.status_code == 400 and "Content-Length" in response.json()["error"]


def test_a_save_name_that_is_no_plain_new_file_is_refused_and_nothing_written(tmp_path, games):
    game = games["classic"]["game"]
    os.mkfifo(tmp_path / "fifo.jsonl")
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    with TestClient(make_app(Limits(max_seconds=1.0, save_dir=str(tmp_path)), {"testserver"})) as client:
        for name in [
            "fifo.jsonl",
            "link.jsonl",
            "a\tb.jsonl",
            "a\nb.jsonl",
            "\u202egnp.jsonl",
            "nul\x00.jsonl",
            "../up.jsonl",
            ".hidden.jsonl",
            "x" * 300 + ".jsonl",
            "a.JSONL",
        ]:
            assert send(client, "save", {"game": game, "name": name})["error"]
        assert send(client, "save", {"game": game, "name": "é.jsonl"})["saved"] == "é.jsonl"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.jsonl", "link.jsonl", "é.jsonl"]
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo.jsonl").st_mode)
    assert not (tmp_path / "elsewhere.jsonl").exists()
