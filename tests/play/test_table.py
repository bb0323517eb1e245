"""The table of ``seqsolve play`` (people and bots at one game) and the record it keeps:
undo takes back a whole turn of a person, a game left half-way and a game played on
from a position are records that replay and annotate read."""

from __future__ import annotations

from cli_helpers import ok

from seqsolve.cli.position import load_position
from seqsolve.play.records import Replay, check_game, read_records
from seqsolve.play.table import HUMAN, Table

VARIANT = "classic[sequences_to_win=1]"


def _play_first(table: Table) -> None:
    while not table.over and table.human_to_move() is None:
        table.bot_move()


def test_undo_takes_back_the_whole_turn_with_its_exchange_and_the_replies():
    # C-21: an exchange and the play after it are one turn of the person
    table = Table.deal(VARIANT, 2, None, 11, [HUMAN, "random"])
    for _ in range(200):
        _play_first(table)
        legal = table.state.legal_actions()
        exchanges = [a for a in legal if not table.state.ends_turn(a)]
        if exchanges:
            break
        table.play(legal[0])
    else:
        raise AssertionError("no dead card in 200 turns of this seeded game")
    before = list(table.record["moves"])
    table.play(exchanges[0])
    table.play(table.state.legal_actions()[0])  # the play that ends the turn
    _play_first(table)
    played = len(table.record["moves"]) - len(before)
    assert played >= 3  # the exchange, the play, a reply
    assert table.undo() == played
    assert table.record["moves"] == before
    assert table.human_to_move() == 0
    table.close()


def test_undo_before_any_move_of_a_person_takes_nothing_back():
    table = Table.deal(VARIANT, 2, None, 4, ["random", HUMAN])
    _play_first(table)  # the bot on seat 0 opens
    assert len(table.record["moves"]) == 1
    assert table.undo() == 0 and len(table.record["moves"]) == 1
    table.close()


def test_an_unfinished_game_is_a_record_that_replays_as_far_as_it_goes(tmp_path):
    table = Table.deal(VARIANT, 2, None, 5, [HUMAN, "greedy"])
    table.play(table.state.legal_actions()[0])
    _play_first(table)
    path = tmp_path / "game.jsonl"
    table.write(str(path))
    header, (record,) = read_records(str(path))
    assert header["config"]["command"] == "play"
    assert record["termination"] == "unfinished" and record["result"] is None and record["score"] is None
    steps = list(Replay(record))
    assert [s.text for s in steps] == record["moves"]
    assert "unfinished after 2 turns" in ok("replay", str(path), "--game", "0")
    # null results belong to unfinished games only, and unfinished games have them
    assert "null only in" in check_game({**record, "termination": "win"})
    assert "null in" in check_game({**record, "result": "b"})
    table.close()


def test_a_game_from_a_position_records_its_start(tmp_path):
    start = load_position("example:4", seed=1)  # every card known
    table = Table.deal("", None, None, 7, [HUMAN, "random"], start)
    assert table.state.turn == start.turn
    while not table.over:
        if table.human_to_move() is None:
            table.bot_move()
        else:
            table.play(table.state.legal_actions()[0])
    path = tmp_path / "game.jsonl"
    table.write(str(path))
    _, (record,) = read_records(str(path))
    assert "start" in record and record["termination"] != "unfinished"
    replay = Replay(record)
    for _ in replay:
        pass
    assert replay.state.is_terminal() and replay.state.outcome().result == record["result"]
    table.close()
