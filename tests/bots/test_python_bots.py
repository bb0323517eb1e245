"""Bots written as Python classes, played in-process: ``FILE.py:Class``, ``module:Class``
and the entry points of ``seqsolve.bots`` build bots that play match, tournament, balance
(in joblib workers, which load the class from the spec), play and, for a class derived
from a search, analyze; what goes wrong inside them forfeits a game with the reason, and
a bad spec is one line and exit code 1, as an unknown bot name is."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pexpect
import pytest
from cli_helpers import fails, ok

import seqsolve
from seqsolve.bots import BotError, ProgramRefused, make_bot
from seqsolve.errors import ArgumentError
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import run_games
from seqsolve.play.records import read_records

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python_bot.py"

BOTS = '''
from seqsolve.bots import Bot, BotFailure, Param


class First(Bot):
    """Plays the first legal action, or the one ``skip`` places on."""

    params = {"skip": Param(int, 0, "legal actions skipped", 0, 100)}

    def choose(self, observation, rng):
        legal = observation.legal_actions()
        return legal[min(self.options["skip"], len(legal) - 1)]


class Plain:
    """No Bot subclass: the same methods are enough."""

    def __init__(self):
        self.games = 0

    def start(self, rules, seats, seat):
        self.games += 1

    def choose(self, observation, rng):
        legal = observation.legal_actions()
        return legal[int(rng.integers(len(legal)))]


class Boom:
    def choose(self, observation, rng):
        return {}["no such key"]


class Illegal:
    def choose(self, observation, rng):
        legal = observation.legal_actions()
        return max(legal) + 1


class Words:
    def choose(self, observation, rng):
        return "somewhere"


class Refuses:
    def choose(self, observation, rng):
        raise BotFailure("out of ideas")


class BadStart:
    def start(self, rules, seats, seat):
        raise RuntimeError("no table")

    def choose(self, observation, rng):
        return observation.legal_actions()[0]


class Broken:
    def __init__(self):
        raise RuntimeError("no weights found")

    def choose(self, observation, rng):
        return 0


class NotABot:
    pass


NOT_A_CLASS = 3


class Quits:
    def choose(self, observation, rng):
        raise SystemExit(3)


class Framed:
    """A wrapper of another framework: it asks for the game played."""

    writes_positions = True

    def __init__(self, game):
        self.game = game

    def choose(self, observation, rng):
        return observation.legal_actions()[0]
'''


@pytest.fixture
def bots_file(tmp_path) -> Path:
    """The bots above as a file, named by its absolute path (a worker of an earlier test
    may have been started in another folder)."""
    path = tmp_path / "my_bots.py"
    path.write_text(BOTS)
    return path


def _config(*bots: str, seed: int = 3) -> MatchConfig:
    return MatchConfig(bots=tuple(bots), variant="classic[sequences_to_win=1]", seed=seed)


def _stable(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


# ---------------------------------------------------------------- the three doors


def test_a_file_spec_plays_with_its_parameters_and_the_seed_decides(bots_file):
    spec = f"{bots_file}:First:skip=2"
    bot = make_bot(spec)
    assert bot.name == f"{bots_file}:First" and bot.options == {"skip": 2}
    assert bot.spec == spec
    records = run_games(_config(spec, "random"), 4, jobs=1)
    assert [r["termination"] for r in records] == ["win"] * 4
    assert records[0]["seats"][records[0]["side_bot"][0]] == spec
    assert _stable(run_games(_config(spec, "random"), 4, jobs=1)) == _stable(records)


def test_a_plain_class_plays_and_its_choose_is_checked_as_a_bots_is(bots_file):
    spec = f"{bots_file}:Plain"
    records = run_games(_config(spec, "greedy"), 4, jobs=1)
    assert all(r["forfeit"] is None for r in records)
    assert _stable(run_games(_config(spec, "greedy"), 4, jobs=1)) == _stable(records)  # its rng is seeded
    assert _stable(run_games(_config(spec, "greedy", seed=4), 4, jobs=1)) != _stable(records)
    bot = make_bot(spec)
    with pytest.raises(ArgumentError, match=rf"^bot {bots_file}:Plain: choose takes a game state"):
        bot.choose("a position", np.random.default_rng(0))
    state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
    with pytest.raises(ArgumentError, match="numpy.random.Generator"):
        bot.choose(state.observation(0), 7)
    bot.start(state.rules, state.seats, 0)
    assert bot.inner.games == 1  # start reaches the class
    assert bot.choose(state.observation(0), np.random.default_rng(0)) in state.legal_actions()


def test_a_class_plays_sequence_stacks_and_inside_restricted(bots_file):
    spec = f"{bots_file}:Plain"
    stacks = run_games(MatchConfig(bots=(spec, "greedy"), variant="stacks", seed=1), 2, jobs=1)
    assert [r["termination"] for r in stacks] == ["win", "win"]
    barred = run_games(_config(f"restricted:no=two_eyed,bot={spec}", "random"), 2, jobs=1)
    assert all(r["forfeit"] is None for r in barred)


def test_what_a_class_prints_goes_to_stderr_and_json_stays_clean(tmp_path):
    from cli_helpers import run

    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        'print("loading")\n\n\nclass Chatty:\n    def choose(self, observation, rng):\n'
        '        print("thinking")\n        return observation.legal_actions()[0]\n'
    )
    done = run("match", f"{chatty}:Chatty", "random", "--games", "2", "--seed", "1", "--jobs", "1", "--json")
    assert done.exit_code == 0 and json.loads(done.stdout)["games"] == 2
    assert "loading" in done.stderr and "thinking" in done.stderr


def test_a_class_that_asks_for_the_game_is_handed_it(bots_file):
    assert make_bot(f"{bots_file}:Framed", "stacks").inner.game.name == "stacks"
    assert make_bot(f"{bots_file}:Framed").inner.game.name == "sequence"


def test_a_module_spec_imports_the_module_from_the_python_path(tmp_path, monkeypatch):
    package = tmp_path / "botpack"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "strong.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_bot("botpack.strong:First:skip=1")
    assert bot.spec == "botpack.strong:First:skip=1"
    out = ok(
        "match", "botpack.strong:First", "random", "--games", "2", "--seed", "1", "--jobs", "1", "--json"
    )
    assert json.loads(out)["games"] == 2
    message = fails("match", "botpack.nothere:First", "random", "--games", "2")
    assert message == (
        "seqsolve: bot botpack.nothere:First: no module named 'botpack.nothere' on the Python path"
        " (a file is named with its .py: botpack/nothere.py:First)"
    )


def _distribution(site: Path, entry_points: str) -> None:
    """An installed distribution as importlib.metadata finds it: a dist-info folder on sys.path."""
    info = site / "fakebots-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakebots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[seqsolve.bots]\n" + textwrap.dedent(entry_points))
    (site / "fakebots_impl.py").write_text(BOTS)


def test_an_entry_point_is_listed_and_plays_by_its_name(tmp_path, monkeypatch):
    _distribution(
        tmp_path,
        """\
        firsty = fakebots_impl:First
        missing = fakebots_impl:Nowhere
        random = fakebots_impl:Plain
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    listed = ok("bots")
    assert "installed (entry points seqsolve.bots):" in listed
    assert (
        "firsty     Plays the first legal action, or the one ``skip`` places on. (fakebots_impl:First of fakebots)"
        in listed
    )
    assert "    skip=0  [0..100]  legal actions skipped" in listed
    assert "missing    (fakebots_impl:Nowhere of fakebots) loading it raised AttributeError" in listed
    assert "random     (fakebots_impl:Plain of fakebots) hidden by the built-in bot random" in listed
    data = json.loads(ok("bots", "--json"))
    assert data["firsty"]["entry_point"] == "fakebots_impl:First of fakebots"
    assert data["firsty"]["params"]["skip"]["range"] == "0..100"
    assert data["random"]["summary"].startswith("uniform")  # the built-in one
    assert make_bot("firsty:skip=1").options == {"skip": 1}
    assert type(make_bot("random")).__module__.startswith("seqsolve.")
    out = ok("match", "firsty:skip=1", "random", "--games", "2", "--seed", "1", "--jobs", "1", "--json")
    assert json.loads(out)["games"] == 2
    assert fails("match", "missing", "random").startswith(
        "seqsolve: bot missing (fakebots_impl:Nowhere of fakebots): loading it raised AttributeError"
    )
    with pytest.raises(BotError, match=r"known: random, .*, ext, firsty, missing; see 'seqsolve bots'"):
        make_bot("nobody")


# ---------------------------------------------------------------- forfeits


@pytest.mark.parametrize(
    "cls, reason",
    [
        ("Boom", r"^raised KeyError: 'no such key' \(my_bots\.py, line 31\)$"),
        ("Illegal", r"^illegal action \S+$"),
        ("Words", r"^answered 'somewhere', not an action \(an int of legal_actions\(\)\)$"),
        ("Refuses", r"^out of ideas$"),
        ("Quits", r"^raised SystemExit: 3 \(my_bots\.py, line \d+\)$"),
        ("BadStart", r"^start raised RuntimeError: no table \(my_bots\.py, line 52\)$"),
    ],
)
def test_what_goes_wrong_in_the_class_forfeits_the_game_with_the_reason(bots_file, cls, reason):
    spec = f"{bots_file}:{cls}"
    records = run_games(_config(spec, "random"), 4, jobs=1)
    assert len(records) == 4  # the match goes on
    for r in records:
        assert r["termination"] == "forfeit" and r["score"] == 0.0
        assert r["forfeit"]["bot"] == spec
        assert r["forfeit"]["seat"] == r["side_bot"].index(0)
        assert r["result"] == r["seats"][r["side_bot"].index(1)] or r["winner_side"] == r["side_bot"].index(1)
        assert __import__("re").match(reason, r["forfeit"]["reason"]), r["forfeit"]["reason"]


# ---------------------------------------------------------------- every runner


def test_balance_loads_the_class_in_its_workers_and_jobs_change_nothing(bots_file, tmp_path):
    spec = f"{bots_file}:Plain"
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        args = ("--games", "16", "--seed", "5", "--jobs", jobs, "--out", str(out), "--no-plots", "--json")
        ok("balance", spec, *args)
        header, games = read_records(str(out / "classic-2p2t" / "self.jsonl"))
        assert header["config"]["bots"] == [spec]
        outs.append(sorted(_stable(games), key=lambda r: r["game"]))
    assert len(outs[0]) == 16 and outs[0] == outs[1]


def test_a_match_over_two_workers_gives_the_records_of_one(bots_file):
    config = _config(f"{bots_file}:First:skip=1", f"{bots_file}:Plain", seed=8)
    assert _stable(run_games(config, 8, jobs=2, chunk=2)) == _stable(run_games(config, 8, jobs=1))


def test_a_tournament_rates_a_python_bot(bots_file):
    spec = f"{bots_file}:First"
    report = json.loads(
        ok("tournament", spec, "random", "--games", "4", "--seed", "2", "--jobs", "1", "--json")
    )
    assert {r["bot"] for r in report["ratings"]} == {spec, "random"}


def test_the_example_bot_plays_sequence_and_refuses_stacks():
    spec = f"{EXAMPLE}:Neighbourly:greed=0.5"
    out = json.loads(ok("match", spec, "random", "--games", "4", "--seed", "1", "--jobs", "1", "--json"))
    assert out["games"] == 4 and not out["forfeits"]
    assert fails("match", spec, "greedy", "--variant", "stacks") == (
        "seqsolve: bot Neighbourly plays Sequence, not Sequence Stacks"
    )


def test_best_move_takes_a_class_spec(bots_file):
    state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
    move = seqsolve.best_move(state, f"{bots_file}:First:skip=1", seed=1)
    assert move == state.action_to_move(state.legal_actions()[1])


SEARCH = '''
import seqsolve


class Deeper(type(seqsolve.make_bot("mcts"))):
    """mcts with deeper playouts."""

    def __init__(self, **values):
        super().__init__(**{**values, "depth": 6})
'''


def test_analyze_takes_a_class_derived_from_a_search_and_refuses_any_other(bots_file, tmp_path):
    search = tmp_path / "search_bots.py"
    search.write_text(SEARCH)
    spec = f"{search}:Deeper:c=0.5"
    common = ("--iters", "200", "--seed", "1", "--prove", "0", "--depends", "0", "--json")
    data = json.loads(ok("analyze", "example:2", spec, *common))
    assert data["search"] == spec and data["iterations"] == 200 and data["moves"]
    assert seqsolve.make_bot(spec).inner.searcher().params["playout_depth"] == 6
    assert fails("analyze", "example:2", f"{bots_file}:First", *common) == (
        f"seqsolve: analysis needs a search bot ('search' or 'mcts' or 'rollout', or a Python class derived"
        f" from mcts's or rollout's), not '{bots_file}:First': it plays in match, tournament, balance and"
        " play, but ranks no turns"
    )


def _play(tmp_path, spec: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "seqsolve", "play", "--variant", "classic[sequences_to_win=1]", "--bot", spec, "--seed", "3"],
        cwd=str(tmp_path),
        env={k: v for k, v in __import__("os").environ.items()} | {"NO_COLOR": "1", "TERM": "xterm"},
        encoding="utf-8",
        timeout=120,
        dimensions=(60, 200),
    )


def test_play_against_a_python_bot_and_its_failure_saves_the_game(bots_file, tmp_path):
    prompt = r"(\(seat \d+\)|seat \d+)> "
    child = _play(tmp_path, f"{bots_file}:First")
    child.expect(prompt)
    child.sendline("1")
    child.expect(prompt)
    assert f"played     seat 1 (green, {bots_file}:First): " in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = str(tmp_path / "play-3.jsonl")
    refused = fails("play", "--from", saved)  # opening a file runs no code: --bot names it again
    assert refused == (
        f"seqsolve: seat 1 of {saved}:2 is Python code ({bots_file}:First),"
        " which opening a file never runs; name it with --bot to run it"
    )
    (tmp_path / "play-3.jsonl").unlink()
    child = _play(tmp_path, f"{bots_file}:Boom")
    child.expect(prompt)
    child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "failed: raised KeyError: 'no such key' (my_bots.py, line 31); the game is saved" in child.before


# ---------------------------------------------------------------- bad specs


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "{dir}/nothere.py:First",
            "bot {dir}/nothere.py:First: cannot read {dir}/nothere.py (No such file or directory)",
        ),
        ("{dir}/syntax.py:X", "bot {dir}/syntax.py:X: {dir}/syntax.py:2:27: expected ':'"),
        (
            "{dir}/imports.py:X",
            (
                "bot {dir}/imports.py:X: loading {dir}/imports.py raised ModuleNotFoundError:"
                " No module named 'no_such_library_here' (imports.py, line 1)"
            ),
        ),
        ("{file}:Nobody", "bot {file}:Nobody: {file} has no class 'Nobody'"),
        (
            "{file}:NotABot",
            "bot {file}:NotABot: NotABot is not a bot: it has no method choose(observation, rng)",
        ),
        ("{file}:NOT_A_CLASS", "bot {file}:NOT_A_CLASS: NOT_A_CLASS is not a class but int"),
        (
            "{file}:Broken",
            "bot {file}:Broken: Broken(...) raised RuntimeError: no weights found (my_bots.py, line 60)",
        ),
        ("{file}", "bot {file}: name the class after the file: {file}:ClassName"),
        ("{file}:First:depth=2", "bot {file}:First: unknown parameter 'depth' (known: skip)"),
        (
            "{file}:First:skip=500",
            "bot {file}:First: parameter skip must be at least 0 and at most 100 (not 500)",
        ),
        ("{file}:Plain:skip=1", "bot {file}:Plain: unknown parameter 'skip' (known: none)"),
        (
            "{dir}/notes.txt:X",
            "bot {dir}/notes.txt:X: a bot file is a Python file ending in .py, not '{dir}/notes.txt'",
        ),
        ("{dir}:X", "bot {dir}:X: a bot file is a Python file ending in .py, not '{dir}'"),
        (
            "json:JSONDecoder",
            "bot json:JSONDecoder: JSONDecoder is not a bot: it has no method choose(observation, rng)",
        ),
    ],
)
def test_a_bad_spec_is_one_line_and_exit_code_1(bots_file, spec, message):
    folder = bots_file.parent
    (folder / "syntax.py").write_text("class X:\n    def choose(self, o, r)\n        return 0\n")
    (folder / "imports.py").write_text("import no_such_library_here\n")
    spec, message = (t.format(dir=folder, file=bots_file) for t in (spec, message))
    for command in ("match", "tournament"):
        assert fails(command, spec, "random", "--games", "2") == f"seqsolve: {message}"
    assert fails("balance", spec, "--games", "2") == f"seqsolve: {message}"


def test_a_spec_read_from_a_file_may_not_load_code(bots_file):
    with pytest.raises(
        ProgramRefused, match=r"runs the code of .*my_bots\.py, which a spec read from a file may not"
    ):
        make_bot(f"{bots_file}:First", programs=False)
    with pytest.raises(ProgramRefused):
        make_bot(f"restricted:no=two_eyed,bot={bots_file}:First", programs=False)


def test_a_changed_file_is_read_again(tmp_path):
    path = tmp_path / "changing.py"
    path.write_text("class B:\n    def choose(self, o, r):\n        return o.legal_actions()[0]\n")
    assert make_bot(f"{path}:B")
    path.write_text("class C:\n    def choose(self, obs, rng):\n        return obs.legal_actions()[0]\n")
    assert make_bot(f"{path}:C")
