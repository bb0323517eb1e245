"""Options and specs: one meaning and one range everywhere, refused in one line
before any work (seqsolve/cli/options.py, Param ranges, rules option ranges)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest
from cli_helpers import fails, ok, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seqsolve.bots import BotError, make_bot
from seqsolve.cli.options import MAX_GAMES, SEED_LIMIT
from seqsolve.games.sequence.rules import RulesError, max_sequences, parse_rules
from seqsolve.play.config import MatchConfig
from seqsolve.play.match import chunks, run_games, workers

# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "1e400"])
def test_time_budget_must_be_finite(value):
    line = fails("analyze", "example:2", "--time", value, code=2)
    assert "'--time'" in line and "finite" in line


@pytest.mark.parametrize(
    "args, option",
    [
        (["annotate", "x.jsonl", "--game", "0", "--mistake", "nan"], "--mistake"),
        (["annotate", "x.jsonl", "--game", "0", "--blunder", "inf"], "--blunder"),
        (["match", "random", "random", "--move-timeout", "inf"], "--move-timeout"),
        (["match", "random", "random", "--move-timeout", "0"], "--move-timeout"),
        (["balance", "--move-timeout", "nan"], "--move-timeout"),
        (["annotate", "x.jsonl", "--game", "0", "--time", "nan"], "--time"),
    ],
)
def test_every_float_option_refuses_non_finite_values(args, option):
    assert f"'{option}'" in fails(*args, code=2)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("heuristic:w_block=2", "parameter w_block was removed: the evaluation weights are one set"),
        ("greedy:weights=nosuch", "weights 'nosuch' is neither a weight set"),
        ("mcts:eps=2", "eps must be at least 0 and at most 1"),
        ("mcts:time=inf", "time must be"),
        ("mcts:iters=99999999999999999999", "iters must be at least 0 and at most 1000000000"),
        ("mcts:depth=-2", "depth must be at least -1"),
        ("rollout:infer=nan", "infer must be"),
        ("mcts:c=1,c=2", "parameter c is given twice"),
    ],
)
def test_bot_parameters_have_a_range(spec, words):
    with pytest.raises(BotError, match=words):
        make_bot(spec)
    assert words in fails("match", spec, "random", "--games", "2", "--seed", "1")


def test_every_numeric_bot_parameter_has_a_finite_range():
    from seqsolve.bots import bot_classes

    for name, cls in bot_classes().items():
        for key, param in cls.params.items():
            if param.kind in (int, float):
                assert param.maximum < float("inf"), f"{name}:{key}"
                assert param.minimum <= param.default <= param.maximum, f"{name}:{key}"


def test_bots_lists_every_range():
    listing = ok("bots")
    assert any(line.split()[:2] == ["eps=0.5", "[0..1]"] for line in listing.splitlines())
    data = json.loads(ok("bots", "--json"))
    assert data["mcts"]["params"]["eps"]["range"] == "0..1"
    assert data["random"]["params"] == {} or all("range" in p for p in data["random"]["params"].values())


# ---------------------------------------------------------------- variants (RULES.md §2)


@pytest.mark.parametrize(
    "variant, words",
    [
        ("classic[hand_size=5,hand_size=6]", "option hand_size is given twice"),
        ("classic[sequences_to_win=1000]", "option sequences_to_win must be 1..192, not 1000"),
        ("classic[sequences_to_win=69]", "sequences_to_win must be 1..68 with overlap_max_shared=1"),
        ("classic[hand_size=0]", "option hand_size must be 1..40, not 0"),
        ("classic[stall_limit=99999999999999999999]", "option stall_limit must be 0..1000000"),
        ("classic[first_seat=2]", "first_seat must be 0..1"),
        ("classic[overlap_reuse_limit=0]", "overlap_reuse_limit must be 1..192 or unlimited"),
        ("draft[draft_size=17]", "draft_size must be 1..16"),
        ("", "bad variant ''"),
    ],
)
def test_variant_options_have_a_range(variant, words):
    """C-10, C-25, C-31, D-1: every option named with its range in the one line."""
    with pytest.raises(RulesError, match=words.replace("[", r"\[").replace(".", r"\.")):
        parse_rules(variant, players=2)
    for args in (["match", "random", "random"], ["show", "--new"], ["balance"]):
        assert words in fails(*args, "--variant", variant)


def test_sequences_to_win_up_to_what_fits_is_accepted():
    """C-10 with C-25: the bound itself is a legal (if long) game."""
    assert parse_rules("classic[sequences_to_win=68]", players=2).sequences_to_win == 68
    assert parse_rules("seed002-literal[sequences_to_win=192]", players=2).sequences_to_win == 192
    assert [max_sequences(s) for s in range(5)] == [20, 68, 72, 102, 192]


# ---------------------------------------------------------------- combinations


@pytest.mark.parametrize(
    "args, words",
    [
        (["balance", "--strong", "heuristic"], "--strong goes with --weak"),
        (["balance", "--restrict", "all", "--match-games", "0"], "'--match-games'"),
        (["balance", "--match-games", "10"], "--match-games goes with --restrict or --weak"),
        (["balance", "--variant", "classic", "--all-presets"], "--variant and --all-presets"),
        (["balance", "--no-self-play"], "--no-self-play leaves nothing to play"),
        (["balance", "--scheduler", "tcp://h:1"], "--scheduler goes with --backend dask"),
        (["match", "random", "random", "--scheduler", "tcp://h:1"], "--scheduler goes with --backend dask"),
        (["match", "random", "random", "--backend", "loky", "--scheduler", "x"], "--backend dask"),
        (
            ["tournament", "random", "greedy", "--scheduler", "tcp://h:1"],
            "--scheduler goes with --backend dask",
        ),
    ],
)
def test_options_that_mean_nothing_together_are_usage_errors(args, words):
    assert words in fails(*args, code=2)


# ---------------------------------------------------------------- --jobs, --games, --seed


#: a command line of each command that takes --jobs (all of them also take --seed)
WITH_JOBS = [
    ["match", "random", "random"],
    ["tournament", "random", "greedy"],
    ["balance"],
    ["analyze", "example:2"],
    ["annotate", "x.jsonl", "--game", "0"],
]


@pytest.mark.parametrize("jobs", ["0", "-2", "x", "1025", "99999999999999999999"])
@pytest.mark.parametrize("command", WITH_JOBS)
def test_jobs_means_one_thing_everywhere(command, jobs):
    line = fails(*command, "--jobs", jobs, code=2)
    assert "'--jobs'" in line


def test_workers_never_exceed_chunks_nor_cores():
    cores = os.cpu_count() or 1
    assert workers(1000, 2) == min(2, cores)
    assert workers(-1, 10**6) == cores
    assert workers(1000, 10**6, "threading") == 1000
    assert workers(3, 1) == 1
    with pytest.raises(ValueError):
        workers(0, 4)


def test_jobs_1000_with_4_games_finishes_as_jobs_1():
    """Only as many workers as chunks start; the games are those of --jobs 1."""
    many = json.loads(
        ok("match", "random", "random", "--games", "4", "--seed", "5", "--jobs", "1000", "--json")
    )
    one = json.loads(ok("match", "random", "random", "--games", "4", "--seed", "5", "--jobs", "1", "--json"))
    assert many["games"] == 4
    for timing in ("seconds", "games_per_s"):
        del many[timing], one[timing]
    assert many == one


@pytest.mark.parametrize("games", ["99999999999999999999999", str(MAX_GAMES + 1), "0", "-1", "1e8"])
def test_games_has_one_range(games):
    for command in (["match", "random", "random"], ["tournament", "random", "greedy"], ["bench"]):
        assert "'--games'" in fails(*command, "--games", games, code=2)


def test_games_are_planned_lazily():
    """A billion-game plan holds no list of a billion games: chunks are made on demand
    and a run stopped after its first chunk returns at once."""
    parts = chunks(iter(range(10**12)), 3)
    assert next(parts) == [0, 1, 2] and next(parts) == [3, 4, 5]
    config = MatchConfig(bots=("random", "random"), seed=3)
    records = run_games(config, MAX_GAMES, jobs=1, on_records=lambda records: True, chunk=4)
    assert [r["game"] for r in records] == [0, 1, 2, 3]


@pytest.mark.parametrize("seed", ["-5", str(SEED_LIMIT), "1.5", "x"])
@pytest.mark.parametrize(
    "command", WITH_JOBS + [["show", "--new"], ["perft", "example:4", "--depth", "1"], ["bench"]]
)
def test_seed_has_one_range_everywhere(command, seed):
    assert "'--seed'" in fails(*command, "--seed", seed, code=2)


def test_largest_seed_is_played():
    data = json.loads(ok("show", "--new", "--seed", str(SEED_LIMIT - 1), "--json"))
    assert data["seed"] == SEED_LIMIT - 1


def test_usage_errors_come_before_the_heavy_imports():
    """--help and a bad option load neither numpy nor the compiled core."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from seqsolve.cli import main\n"
        "for args in (['--help'], ['match', 'a', 'b', '--seed', '-5'], ['balance', '--jobs', '0'],"
        " ['analyze', 'x', '--time', 'nan'], ['annotate', '--help']):\n"
        "    assert CliRunner().invoke(main, args).exit_code in (0, 2), args\n"
        "heavy = [m for m in ('numpy', 'scipy', 'joblib', 'seqsolve._core', 'seqsolve._eval',"
        " 'seqsolve._choose', 'seqsolve._search') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- fuzzing every command

NUMBERS = ["1", "2", "0", "-1", "-5", "nan", "inf", "-inf", "1e8", "1.5", "", "x", "99999999999999999999999"]
SEEDS = ["0", "7", "-5", str(SEED_LIMIT), str(SEED_LIMIT - 1), "nan", ""]
JOBS = ["1", "0", "-2", "x", "", "nan"]  # -1 and large counts start processes: tested above
VARIANTS = [
    "classic",
    "",
    " ",
    "draft",
    "classic[stall_limit=5]",
    "classic[hand_size=0]",
    "classic[hand_size=5,hand_size=6]",
    "classic[sequences_to_win=1000]",
    "classic[",
    "nosuch",
    "classic[max_turns=99999999999999999999]",
    "seed000[bonus_cards=3]",
    "classic[first_seat=1]",
    "numbers[draft_size=0]",
]
BOTS = [
    "random",
    "greedy",
    "",
    ":",
    "nosuch",
    "random:x=1",
    "mcts:eps=2",
    "mcts:iters=5,depth=0",
    "mcts:c=1,c=2",
    "heuristic:w_block=nan",
    "rollout:worlds=0",
    "rollout:worlds=2,k=2",
    "restricted:no=corners,bot=random",
    "restricted:no=nothing",
    "ext:",
    "ext:/no/such/program",
    "mcts:iters=0,work=0",
]
FLOATS = ["0.5", "0", "1", "2", "-1", "nan", "inf", "", "x", "1e400"]
#: the options every command that plays games (match, tournament, balance) takes, with
#: one meaning and one range in all of them (issue 12); ``_argv`` draws them by name
RUNS = {"--jobs": JOBS, "--seed": SEEDS, "--variant": VARIANTS, "--move-timeout": FLOATS, "--out": ["OUT"]}

FUZZ = {
    "match": (
        lambda d: ["random", "random", "--games", "2", "--jobs", "1"],
        {
            **RUNS,
            "--games": ["1", "2", "0", "-1", "1e8", "99999999999999999999999", "x"],
            "--players": ["2", "3", "4", "5", "0", "-1", "99999999999999999999", ""],
            "--teams": ["2", "3", "1", "0", "x"],
            "--sprt": ["elo0=0,elo1=20", "elo0=nan,elo1=1", "elo0=1,elo0=2", "x", ""],
            "--backend": ["threading", "nosuch"],  # dask: tests/play/test_match.py starts a real cluster
            "--scheduler": ["tcp://127.0.0.1:1", ""],
            "bot": BOTS,
        },
    ),
    "tournament": (
        lambda d: ["random", "greedy", "--games", "2", "--jobs", "1"],
        {
            **RUNS,
            "--games": ["1", "2", "0", "-1", "99999999999999999999999"],
            "--players": ["2", "4", "5", "-1"],
            "--backend": ["threading", "nosuch"],
            "--scheduler": ["tcp://127.0.0.1:1"],
            "bot": BOTS,
        },
    ),
    "balance": (
        lambda d: ["random", "--no-plots", "--games", "1", "--jobs", "1"],
        {
            **RUNS,
            "--games": ["1", "2", "0", "-1", "99999999999999999999999"],
            "--match-games": ["1", "0", "-1", "x"],
            "--vary": ["players=2,3", "hand_size=0", "sequences_to_win=1,1000", "x", "", "nosuch=1"],
            "--all-presets": [None],
            "--no-self-play": [None],
            "--players": ["2", "5", "-1", "x"],
            "--restrict": ["corners", "all", "nothing", ""],
            "--weak": ["random", "mcts:eps=2", ""],
            "--strong": ["random", "nosuch"],
            "+bot": BOTS,
            "--scheduler": ["tcp://127.0.0.1:1"],
        },
    ),
    "fair": (
        lambda d: [
            "classic",
            "--try",
            "hand_bonus=1",
            "--no-plots",
            "--batch",
            "2",
            "--budget",
            "8",
            "--jobs",
            "1",
        ],
        {
            **{k: v for k, v in RUNS.items() if k != "--variant"},
            "--try": ["hand_bonus=1,2", "first_turn_jacks=off", "hand_bonus=x", "players=3", "nosuch=1", ""],
            "--separate": [None],
            "--bot": ["random", "greedy", "nosuch", "mcts:eps=2", ""],
            "--batch": ["1", "2", "0", "-1", "x"],
            "--budget": ["4", "8", "1", "0", "99999999999999999999999"],
            "--level": FLOATS,
            "--precision": FLOATS,
            "--within": FLOATS,
            "--confirm": ["1", "2", "0", "x"],
            "--keep": ["1", "2", "0", "x"],
            "--best": ["1", "0", "x"],
            "--players": ["2", "5", "-1", "x"],
            "--weak": ["random", "mcts:eps=2", ""],
            "--strong": ["random", "nosuch"],
            "--match-games": ["1", "0", "x"],
        },
    ),
    "analyze": (
        lambda d: ["example:2", "--iters", "50"],
        {
            "--iters": ["1", "50", "0", "-1", "99999999999999999999", "x"],
            "--time": ["0.01", "0", "-1", "nan", "inf", "1e400", "x"],
            "--jobs": ["1", "2", "0", "-2", "x"],
            "--seed": SEEDS,
            "+bot": ["mcts", "mcts:c=0.5", "mcts:eps=2", "mcts:c=1,c=2", "random", "nosuch", "mcts:depth=-2"],
            "--top": ["0", "3", "-1", "x"],
        },
    ),
    "annotate": (
        lambda d: [
            os.path.join(os.path.dirname(d), "games.jsonl"),
            "--game",
            "0",
            "--iters",
            "20",
        ],  # d is in records_folder
        {
            "--game": ["0", "1", "-1", "99999999999999999999", "x"],
            "--seat": ["0", "1", "5", "-1", "x"],
            "--iters": ["1", "20", "0", "x"],
            "--time": ["0.01", "nan", "inf", "0"],
            "--jobs": ["1", "2", "0", "-2"],
            "--seed": SEEDS,
            "--mistake": FLOATS,
            "--blunder": FLOATS,
            "+bot": ["mcts", "mcts:eps=2", "nosuch"],
        },
    ),
    "show": (
        lambda d: ["--new"],
        {
            "--seed": SEEDS,
            "--variant": VARIANTS,
            "--players": ["2", "4", "5", "0", "-1", "99999999999999999999"],
            "--teams": ["2", "3", "0"],
            "--viewer": ["0", "1", "-1", "99999999999999999999"],
            "--play-random": [None],
            "--json": [None],
        },
    ),
    "replay": (
        lambda d: [os.path.join(os.path.dirname(d), "games.jsonl"), "--game", "0"],
        {
            "--game": ["0", "1", "-1", "99999999999999999999", "x"],
            "--ply": ["0", "3", "-1", "99999999999999999999", "x", ""],
            "--to": ["sqn", "readable", "json", "x"],
        },
    ),
    "apply": (
        lambda d: ["example:2", "AH@f2"],
        {
            "--to": ["sqn", "readable", "json", "x"],
        },
    ),
    "perft": (
        lambda d: ["example:4"],
        {
            "--depth": ["0", "1", "-1", "13", "99999999999999999999", "x", ""],
            "--seed": SEEDS,
            "--divide": [None],
        },
    ),
    "bench": (
        lambda d: ["--games", "2", "--scans", "2"],
        {
            "--games": ["1", "2", "0", "-1", "99999999999999999999999", "nan"],
            "--scans": ["1", "0", "-1", "x"],
            "--seed": SEEDS,
        },
    ),
}


def _argv(command: str, folder: str, draw) -> list[str]:
    base, options = FUZZ[command]
    argv = [command] + base(folder)
    names = draw(st.lists(st.sampled_from(sorted(options)), max_size=5))
    for name in names:
        value = draw(st.sampled_from(options[name]))
        if name == "bot":  # a positional bot spec replaces one of the two
            argv[1 + draw(st.integers(0, 1))] = value
        elif name == "+bot":  # one more positional bot spec (bots are never an option)
            argv.append(value)
        elif value is None:
            argv.append(name)
        else:
            argv += [name, os.path.join(folder, "out") if value == "OUT" else value]
    return argv


@pytest.fixture(scope="module")
def records_folder():
    with tempfile.TemporaryDirectory() as folder:
        ok(
            "match",
            "random",
            "random",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--out",
            os.path.join(folder, "games.jsonl"),
        )
        yield folder


@pytest.mark.parametrize("command", sorted(FUZZ))
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(data=st.data())
def test_fuzz_every_command(records_folder, command, data):
    """Random values of the right and wrong kinds, repeated options, bogus specs and
    variants: exit 0, 1 or 2; a failure is one ``seqsolve:`` line, no traceback, nothing
    on stdout, and no --out written."""
    with tempfile.TemporaryDirectory(dir=records_folder) as folder:
        argv = _argv(command, folder, data.draw)
        result = run(*argv)
        assert result.exception is None or isinstance(result.exception, SystemExit), (argv, result.exception)
        assert result.exit_code in (0, 1, 2), (argv, result.exit_code)
        assert "Traceback" not in result.stderr, argv
        if result.exit_code != 0:
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("seqsolve: "), (argv, result.stderr)
            assert result.stdout == "", argv
            assert not os.path.exists(os.path.join(folder, "out")), argv


# ---------------------------------------------------------------- --seed: one default


SAMPLING = ["match", "tournament", "balance", "show", "analyze", "annotate"]


@pytest.mark.parametrize("command", SAMPLING)
def test_every_seed_defaults_to_a_fresh_one_given_in_the_output(command):
    text = " ".join(ok(command, "--help").split())
    assert "a fresh one, given in the output)" in text


@pytest.mark.parametrize("command", ["bench", "perft"])
def test_a_fixed_workload_says_its_seed_is_fixed(command):
    text = " ".join(ok(command, "--help").split())
    assert "a fixed workload, the same every run. [default: 0;" in text


def test_analyze_without_seed_draws_one_and_gives_it_so_the_run_repeats():
    args = ("analyze", "example:2", "--iters", "200", "--json")
    first = json.loads(ok(*args))
    again = json.loads(ok(*args, "--seed", str(first["seed"])))
    assert first["moves"] == again["moves"]


# ---------------------------------------------------------------- bots: one way to name them


@pytest.mark.parametrize(
    "args", [["balance"], ["analyze", "example:2"], ["match", "random"], ["tournament", "random"]]
)
def test_bots_are_arguments_everywhere_never_a_bot_option(args):
    assert "No such option '--bot'" in fails(*args, "--bot", "greedy", code=2)
    usage = ok(args[0], "--help").splitlines()[0]
    assert "BOT" in usage
