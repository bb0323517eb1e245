"""``seqsolve play`` driven through a pseudo-terminal (pexpect), as a person plays it:
a whole game against ``random``, bad input, undo, save and resume, hint, Ctrl-C, and the
plain characters of a terminal without colour or of a pipe.

The games are short (one sequence wins) and seeded; nothing here measures time, and
the timeouts are generous for a loaded machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pexpect
import pytest
from cli_helpers import fails, ok

from seqsolve.cli.errors import CliError
from seqsolve.cli.play import _check_render
from seqsolve.play.records import Replay, read_records

VARIANT = "classic[sequences_to_win=1]"
PROMPT = r"(\(seat \d+\)|seat \d+)> "
TIMEOUT = 120


def _env(color: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if not color:
        env["NO_COLOR"] = "1"
    env["TERM"] = "xterm"
    return env


def _spawn(tmp_path, *args: str, color: bool = False) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "seqsolve", "play", *args],
        cwd=str(tmp_path),
        env=_env(color),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(60, 200),
    )
    return child


def _new_game(tmp_path, *extra: str, color: bool = False) -> pexpect.spawn:
    return _spawn(tmp_path, "--variant", VARIANT, "--bot", "random", "--seed", "3", *extra, color=color)


def _say(child: pexpect.spawn, line: str, answer: str | None = None) -> None:
    """Type ``line`` at the prompt, then wait for ``answer`` (a pattern, when given) and
    the next prompt: what a person does at every turn."""
    child.sendline(line)
    if answer is not None:
        child.expect(answer)
    child.expect(PROMPT)


def _finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus


def _record(tmp_path, name: str = "play-3.jsonl") -> dict:
    header, games = read_records(str(tmp_path / name))
    assert header["config"]["command"] == "play" and len(games) == 1
    return games[0]


def test_a_whole_game_against_random_is_recorded_and_reviewed(tmp_path):
    child = _new_game(tmp_path, "--review-time", "0.05", color=True)
    seen = []
    while True:
        index = child.expect([PROMPT, r"result: .* after \d+ turns"])
        seen.append(child.before)
        if index == 1:
            break
        child.sendline("1")  # the first legal move, every turn
    child.expect("your costliest decisions")
    assert _finish(child) == 0
    screens = "".join(seen)
    assert "\x1b[" in screens  # a terminal without NO_COLOR gets colours
    assert "played     seat 1 (green, random): " in screens  # the bot's move in notation
    record = _record(tmp_path)
    assert record["termination"] == "win" and record["result"] in ("b", "g")
    assert record["seats"] == ["human", "random"]
    replay = Replay(record)
    for _ in replay:
        pass
    assert replay.state.is_terminal()
    assert "blue, human" in ok(
        "annotate",
        str(tmp_path / "play-3.jsonl"),
        "--game",
        "0",
        "--seat",
        "0",
        "--iters",
        "20",
        "--seed",
        "1",
    )


def test_bad_input_is_one_line_and_a_new_prompt(tmp_path):
    child = _new_game(tmp_path)
    child.expect(PROMPT)
    for line, answer in [
        ("xx", r"not played: bad move 'xx'"),
        ("99", r"no move 99: the moves are numbered 1 to \d+"),
        ("8S@a1", r"not played: "),  # a corner takes no card
        ("save", r"save what\?"),
    ]:
        _say(child, line, answer)
    assert _record(tmp_path)["moves"] == []  # nothing was played
    child.sendline("quit")
    assert _finish(child) == 0


def test_undo_takes_back_your_turn_and_the_bots_reply(tmp_path):
    child = _new_game(tmp_path)
    child.expect(PROMPT)
    _say(child, "undo", "nothing to undo")
    _say(child, "1")
    before = _record(tmp_path)["moves"]
    assert len(before) == 2  # your move and random's reply
    _say(child, "undo", "undone     2 actions")
    assert _record(tmp_path)["moves"] == []
    child.sendline("quit")
    assert _finish(child) == 0


def test_save_ctrl_c_and_resume(tmp_path):
    child = _new_game(tmp_path)
    child.expect(PROMPT)
    _say(child, "1")
    _say(child, "save pos.sqn", "saved pos.sqn")
    child.sendintr()
    child.expect(r"interrupted; the game is saved: resume it with 'seqsolve play --from play-3.jsonl'")
    assert _finish(child) == 130
    record = _record(tmp_path)
    assert record["termination"] == "unfinished" and len(record["moves"]) == 2
    assert record["result"] is None and record["score"] is None
    # the saved position is what seat 0 sees, and other commands read it
    saved = (tmp_path / "pos.sqn").read_text()
    assert "?7" in saved  # green's hand stays hidden
    analysis = json.loads(ok("analyze", str(tmp_path / "pos.sqn"), "--iters", "50", "--seed", "1", "--json"))
    assert analysis["to_move"] == 0
    # the record resumes the very game; end of input saves it again
    child = _spawn(tmp_path, "--from", "play-3.jsonl")
    child.expect(r"turn       2 ")
    child.expect(PROMPT)
    _say(child, "1")
    child.sendeof()
    child.expect("the game is saved")
    assert _finish(child) == 0
    resumed = _record(tmp_path)
    assert resumed["moves"][:2] == record["moves"] and len(resumed["moves"]) == 4
    # a position file plays on as a new game, its unseen cards dealt afresh
    child = _spawn(tmp_path, "--from", "pos.sqn", "--bot", "random", "--seed", "9", "--out", "again.jsonl")
    child.expect(PROMPT)
    child.sendline("quit")
    assert _finish(child) == 0
    again = _record(tmp_path, "again.jsonl")
    assert "start" in again and again["moves"] == []


def test_hint_gives_three_turns_with_win_chances(tmp_path):
    child = _new_game(tmp_path, "--hint-time", "0.05")
    child.expect(PROMPT)
    _say(
        child,
        "hint",
        r"hint \(\d+ iterations, [0-9.]+ s\): (\S+) \(win [01]\.\d\d\), (\S+) \(win [01]\.\d\d\), "
        r"(\S+) \(win [01]\.\d\d\)",
    )
    _say(child, "moves", r"  1\. ")
    child.sendline("quit")
    assert _finish(child) == 0


def test_stacks_against_greedy_with_a_hint(tmp_path):
    """Sequence Stacks is played decision by decision (docs/stacks.md); its hint is the
    Stacks search's ranking of the decision asked now."""
    child = _spawn(tmp_path, "--variant", "stacks", "--bot", "greedy", "--seed", "3", "--hint-time", "0.05")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect(r"hint \(\d+ iterations, [0-9.]+ s\): (\S+) \(win [01]\.\d\d\)")
    hinted = child.match.group(1)
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect(PROMPT)
    assert f". {hinted} " in child.before.replace("\r\n", " ") + " "  # the hint is one of the legal decisions
    for _ in range(4):  # the first legal decision each time: builds, then a discard ends the turn
        child.sendline("1")
        child.expect(PROMPT)
    child.sendline("quit")
    assert _finish(child) == 0
    record = _record(tmp_path)
    assert record["variant"] == "stacks" and record["seats"] == ["human", "greedy"]
    assert len(record["moves"]) >= 4
    replay = Replay(record)
    for _ in replay:  # every decision recorded replays legally
        pass


@pytest.mark.parametrize("how", ["NO_COLOR", "pipe"])
def test_plain_characters_without_colour(tmp_path, how):
    if how == "NO_COLOR":
        child = _new_game(tmp_path, color=False)
        child.expect(PROMPT)
        screen = child.before
        _say(child, "1")
        screen += child.before
        child.sendline("quit")
        assert _finish(child) == 0
    else:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "seqsolve",
                "play",
                "--variant",
                VARIANT,
                "--bot",
                "random",
                "--seed",
                "3",
            ],
            input="1\nquit\n",
            check=False,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=_env(color=True),
            timeout=TIMEOUT,
        )
        assert done.returncode == 0, done.stderr
        screen = done.stdout
    assert "\x1b" not in screen
    assert "(b)" in screen and "(g)" in screen  # chips in letters
    assert ">(g)<" in screen  # where the bot's chip landed


def test_bad_command_lines(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "--from -" in fails("play", "--from", "-", code=2)
    assert "--seat" in fails("play", "--seat", "5", code=2)
    assert "--bot" in fails(
        "play", "--players", "3", "--bot", "random", "--bot", "greedy", "--bot", "mcts", code=2
    )
    assert "unknown bot" in fails("play", "--bot", "nobody")
    (tmp_path / "play-3.jsonl").write_text("")
    assert "resume its game with --from" in fails("play", "--seed", "3")
    record = tmp_path / "r.jsonl"
    record.write_text(
        json.dumps({"seqsolve": "match", "format": 1, "config": {"seed": 1, "bots": ["a"]}}) + "\n"
    )
    assert "--from a record" in fails("play", "--from", str(record), "--seed", "2", code=2)
    assert "not a game of seqsolve play" in fails("play", "--from", str(record))


def test_a_game_without_a_picture_is_refused_before_it_starts():
    class Blind:  # a game of the registry with no render (Stacks, until it draws itself)
        name = "blind"

    class Seated:
        game = Blind()
        closed = False

        def close(self):
            self.closed = True

    table = Seated()
    with pytest.raises(CliError, match="play: blind has no picture of its positions yet"):
        _check_render(table)
    assert table.closed
