"""Sequence Stacks on ``seqsolve serve``'s picture: every legal decision of random Stacks
positions is reached by exactly the clicks the page sends (a card of the hand, then an
element of the picture, named as ``app.js`` names it from its class and ``data-``
attributes), and lands where the picture says; a hint draws arrows on the picture."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from seqsolve.games import game_for, rules_for
from seqsolve.serve.app import allowed_hosts, make_app
from seqsolve.serve.work import Limits

SVG = "{http://www.w3.org/2000/svg}"
#: the decisions that land nowhere on the picture: the page offers them as buttons
PLAIN = {"pass", "end"}


@pytest.fixture
def client():
    with TestClient(make_app(Limits(max_seconds=5.0), allowed_hosts("testserver", 80) | {"testserver"})) as c:
        yield c


def post(client, action: str, body: dict) -> dict:
    response = client.post(f"/api/{action}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def place_name(element) -> str | None:
    """What the page calls an element of the picture (``placeName`` of app.js)."""
    cls = element.get("class", "").split()
    data = {k[5:]: v for k, v in element.attrib.items() if k.startswith("data-")}
    if "cell" in data:
        return data["cell"]
    if "pile" in cls:
        return f"pile:{data['index']}"
    if "pile-slot" in cls:
        return f"slot:{data['colour']}"
    if "discard" in cls:
        return f"discard:{data['seat']}"
    if "chip" in cls:
        return f"chip:{data['seat']}{data['colour']}"
    if "special-pile" in cls:
        return "special"
    return None


def places(svg: str) -> dict[str, list[dict]]:
    """The picture's clickable places by name, each element's ``data-`` attributes."""
    found: dict[str, list[dict]] = {}
    for element in ET.fromstring(svg).iter():
        name = place_name(element)
        if name is not None:
            data = {k[5:]: v for k, v in element.attrib.items() if k.startswith("data-")}
            found.setdefault(name, []).append(data)
    return found


def hand_buttons(view: dict) -> list[str]:
    """The card buttons the page draws: the hand, then the cards legal moves play from elsewhere."""
    playable = {m["card"] for m in view["legal"] if m["card"]}
    return view["hand"] + sorted(playable - set(view["hand"]))


def check_clicks(view: dict) -> int:
    """Every legal decision of ``view`` is reached by its card and its place, and by
    nothing else; the place is where the decision goes.  How many were checked."""
    shown = places(view["picture"])
    buttons = hand_buttons(view)
    seat = view["to_move"]
    for m in view["legal"]:
        move, card, cell = m["move"], m["card"], m["cell"]
        if move in PLAIN:
            assert card is None and cell is None, m
            continue
        assert card in buttons and cell in shown, (m, buttons, sorted(shown))
        same = [x["move"] for x in view["legal"] if x["card"] == card and x["cell"] == cell]
        assert same == [move], (card, cell, same)  # one click pair, one decision
        data = shown[cell][0]  # a colour's empty slots, a seat's chips of a colour: several elements
        assert len(shown[cell]) == 1 or cell.split(":")[0] in ("slot", "chip"), (cell, shown[cell])
        if move.startswith("~"):
            assert cell == f"discard:{seat}" and card == move[1:]
        elif move == "block":
            assert card == "BK" and data["count"] == "5"  # the pile just completed (ST-15)
        elif card.lstrip("^") == "SC":
            assert cell == f"discard:{move.split('@')[1]}" and int(data["count"]) > 0
        elif card.lstrip("^") == "SX":
            assert cell == f"chip:{move.split('@')[1]}"
        elif card.lstrip("^") in ("SK", "RV"):
            assert cell == "special"
        else:  # a number card or a wild: on the pile of its colour one below it, or a new pile
            code = card.lstrip("^")
            before = int(move.split(">")[1]) if ">" in move else int(code[1]) - 1
            assert data["colour"] == code[0].lower()
            assert cell.startswith("slot:") if before == 0 else int(data["count"]) == before
        if card.startswith("^"):
            assert shown[f"discard:{seat}"][0]["top"] == card[1:]
    return len(view["legal"])


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 11)])
def test_every_stacks_decision_is_one_card_and_one_place_of_the_picture(client, players, seed):
    """Games through the API, the person deciding at random: each position's decisions
    are checked against its picture, then one of them is played by its text."""
    rng = random.Random(seed)
    data = post(client, "new", {"variant": "stacks", "players": players, "seed": seed, "bot": "random"})
    checked = kinds = 0
    seen = set()
    for _ in range(40):
        if data["over"]:
            break
        checked += check_clicks(data)
        seen |= {m["cell"].split(":")[0] for m in data["legal"] if m["cell"]}
        move = rng.choice(data["legal"])["move"]
        data = post(client, "play", {"game": data["game"], "move": move})
        assert data["game"]["moves"][len(data["game"]["moves"]) - len(data["bots_played"]) - 1] == move
        kinds += 1
    assert checked > kinds and {"pile", "slot", "discard"} <= seen


def test_stacks_positions_of_every_kind_map_their_decisions():
    """Random Stacks games played by the state alone, the picture and the targets taken
    for the seat deciding at every decision (Block windows and steals included)."""
    game = game_for("stacks")
    kinds: set[str] = set()
    for seed in range(6):
        rules = rules_for("stacks", 2 + seed % 3, None)
        state = game.new_initial_state(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            targets = game.move_targets(state, moves, seat)
            view = {
                "picture": game.picture(state, seat),
                "hand": state.hand(seat),
                "to_move": seat,
                "legal": [{"move": m, **t} for m, t in zip(moves, targets)],
            }
            check_clicks(view)
            kinds |= {m if m in PLAIN or m == "block" else m.lstrip("^~")[:2] for m in moves}
            kinds |= {"^" for m in moves if m.startswith("^")} | {"~" for m in moves if m.startswith("~")}
            state.apply(rng.choice(moves))
    assert {"SC", "SX", "SK", "block", "pass", "^", "~"} <= kinds and kinds & {"BW", "RW"}


def test_a_stacks_hint_draws_its_turns_as_arrows_on_the_picture(client):
    data = post(client, "new", {"variant": "stacks", "seed": 5, "bot": "random"})
    hinted = post(client, "hint", {"game": data["game"], "iterations": 200})
    rows = hinted["analysis"]["moves"]
    legal = {m["move"] for m in data["legal"]}
    assert rows and all(r["move"] in legal for r in rows)
    marks = [e for e in ET.fromstring(hinted["picture"]).iter() if e.get("class") == "mark"]
    assert sorted(e.get("data-move") for e in marks) == sorted(r["move"] for r in rows)
    assert all(e.tag == f"{SVG}line" for e in marks if e.get("data-move") not in PLAIN)  # an arrow each
    assert hinted["game"] == data["game"] and hinted["legal"] == data["legal"]
