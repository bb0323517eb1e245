"""The Click parameter types and options every command shares.

One type per kind of value, so that an option means the same thing, takes the
same range and is refused with the same words everywhere, and so that a bad
value is a usage error (exit 2, naming the option) found while the command
line is read: before any heavy module (numpy, scipy, joblib, the compiled
core) is imported and before any work starts.  This module imports only Click.
"""

from __future__ import annotations

import math

import click

#: ``--seed`` is a root seed for numpy's SeedSequence, which takes any non-negative
#: integer; 2**63 keeps it a signed 64-bit number in JSON records and other tools.
SEED_LIMIT = 2**63
#: ``--games`` above this cannot be played in any reasonable time (a random game
#: takes tens of microseconds on the fastest core; heuristic games far more).
MAX_GAMES = 10**9
#: ``--jobs -1`` means every core of this machine.
ALL_CORES = -1
#: ``--jobs`` above this is no machine's core count: analyze would start that many
#: threads (one tree each) and never finish, the threading backend as many threads.
MAX_JOBS = 1024


class FiniteFloat(click.ParamType):
    """A finite float in a range: ``nan`` and ``inf`` are refused (they would make a
    time budget endless or a probability meaningless)."""

    name = "number"

    def __init__(self, low: float | None = None, high: float | None = None, low_open: bool = False):
        self.low, self.high, self.low_open = low, high, low_open

    def convert(self, value, param, ctx) -> float:
        if isinstance(value, float) and math.isfinite(value):
            number = value
        else:
            try:
                number = float(value)
            except (TypeError, ValueError):
                self.fail(f"{value!r} is not a number", param, ctx)
            if not math.isfinite(number):
                self.fail(f"{value!r} is not a finite number", param, ctx)
        too_low = self.low is not None and (number <= self.low if self.low_open else number < self.low)
        if too_low or (self.high is not None and number > self.high):
            self.fail(f"{value} is not in {self.describe()}", param, ctx)
        return number

    def describe(self) -> str:
        low = "" if self.low is None else f"{self.low:g} {'<' if self.low_open else '<='} "
        high = "" if self.high is None else f" <= {self.high:g}"
        return f"the range {low}x{high}"

    def __repr__(self) -> str:
        return f"FiniteFloat({self.low}, {self.high})"


class Jobs(click.ParamType):
    """``--jobs``: -1 for every core, else a count from 1 to :data:`MAX_JOBS` (0 means nothing)."""

    name = "N"

    def convert(self, value, param, ctx) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if number == ALL_CORES or 1 <= number <= MAX_JOBS:
            return number
        self.fail(
            f"{number} is not a number of workers (use 1 to {MAX_JOBS}, or -1 for every core)", param, ctx
        )


SEED = click.IntRange(0, SEED_LIMIT - 1)
GAMES = click.IntRange(1, MAX_GAMES)
JOBS = Jobs()
SECONDS = FiniteFloat(0, 86_400, low_open=True)  # a positive time budget, at most a day
PROBABILITY = FiniteFloat(0, 1)


def seed_option(what: str, fixed: bool = False, resumes: str | None = None):
    """``--seed``: the root of every random draw of the command, with one default
    everywhere: a fresh seed (:func:`fresh_seed`) that the output gives, so the run
    can be repeated; a resumed run takes the seed of ``resumes`` (its records).
    ``fixed`` is for commands that measure a fixed workload (bench, perft): 0."""
    if fixed:
        return click.option(
            "--seed",
            type=SEED,
            default=0,
            show_default=True,
            help=f"Seed of {what}; a fixed workload, the same every run.",
        )
    resumed = f"the seed of {resumes} when it holds this run, else " if resumes else ""
    return click.option(
        "--seed",
        type=SEED,
        default=None,
        help=f"Root seed of {what} (default: {resumed}a fresh one, given in the output).",
    )


def fresh_seed() -> int:
    """The seed of a run given none: below 2**31, short to type back."""
    import secrets

    return secrets.randbelow(2**31)


def games_option(help: str, default: int):
    """``--games``/``-n``: 1 to :data:`MAX_GAMES` in every command (no 0 that means
    something else: balance says ``--no-self-play``)."""
    return click.option("--games", "-n", type=GAMES, default=default, show_default=True, help=help)


def jobs_option(help: str, default: int = ALL_CORES):
    """``--jobs``/``-j``: -1 (every core) or a count of 1 or more, validated the same way everywhere."""
    return click.option("--jobs", "-j", type=JOBS, default=default, show_default=True, help=help)


PROCESS_JOBS_HELP = (
    "Worker processes; -1 = all cores. None for a run of under a second of work;"
    " never more than there are games, nor (local backends) more than this machine's cores."
)


class NonEmptyPath(click.Path):
    """A file or folder path; an empty one is refused (``--out ""`` used to be taken
    for no --out at all: a whole match played and nothing recorded)."""

    def convert(self, value, param, ctx):
        if value == "":
            self.fail("an empty path names no file or folder", param, ctx)
        return super().convert(value, param, ctx)


#: a file to read or write (record files, reports), and a folder to write into
FILE_PATH = NonEmptyPath(dir_okay=False)
FOLDER_PATH = NonEmptyPath(file_okay=False)


def _check_variants(ctx, param, value):
    """Read every --variant now (a bad one is refused, exit 1, before any work);
    the command still gets the text as typed."""
    from ..games import game_for  # pure Python: no numpy, no compiled core

    for text in value if isinstance(value, tuple) else (value,):
        if text is not None:
            game_for(text).parse_variant(text)
    return value


def variant_option(help: str, default: str | None = None, multiple: bool = False, name: str = "variant"):
    """``--variant``: a preset with overrides (RULES.md §2, P-1), checked when read."""
    extra = {"show_default": True} if default is not None else {}
    return click.option(
        "--variant",
        name,
        default=default,
        multiple=multiple,
        callback=_check_variants,
        metavar="PRESET[opt=v,...]",
        help=help,
        **extra,
    )


#: ``--game``: a game of a record file (replay, annotate); one that is not there is bad
#: input (exit 1, see :func:`recorded_game`), like any other, not a malformed command line
GAME_OPTION = click.option(
    "--game", "-g", type=click.IntRange(0), required=True, help="Game number, as in the records (0, 1, ...)."
)


def recorded_game(records: str, game: int) -> tuple[dict, str]:
    """Game ``game`` of the record file ``records`` and where it is (``file:line``).

    Raises:
        CliError: the file holds no such game (exit 1).
    """
    from ..play.records import find_game
    from .errors import CliError

    record, where = find_game(records, game)
    if record is None:
        raise CliError(f"{records} has no game {game} (it holds {where} games)")
    return record, where


#: the time an external program may think per move (match, tournament, balance)
MOVE_TIMEOUT = click.option(
    "--move-timeout",
    type=SECONDS,
    default=10.0,
    show_default=True,
    help="Seconds an external bot (ext:...) may think per move (0 < s <= 86400); past it, it loses the game.",
)


def json_option(what: str = "one JSON object instead of the table"):
    """``--json``: the command's result as JSON on stdout, the one spelling of machine
    output (``--to json`` of apply, convert and replay is a form of a position file)."""
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what}.")


def progress_option(what: str = "Progress line"):
    """``--progress/--no-progress``: stderr only, by default when stderr is a terminal."""
    return click.option(
        "--progress/--no-progress",
        default=None,
        help=f"{what} on stderr (default: when stderr is a terminal).",
    )


def seating_options(
    players: str = "2, 3, 4, 6, 8, 9, 10 or 12 (Sequence Stacks: 2 to 6).",
    teams: str = "Number of sides (2 or 3); needed for 6 and 12 players.",
    default: int | None = 2,
):
    """``--players`` and ``--teams``: the players and the sides they form are one seating,
    so every command that takes one takes both (``players`` and ``teams`` are their help)."""
    shown = {"show_default": True} if default is not None else {}
    return option_group(
        [
            click.option("--players", type=int, default=default, help=players, **shown),
            click.option("--teams", type=int, default=None, help=teams),
        ]
    )


def game_options(where: str):
    """The options match and tournament share: workers, seed and the rules;
    ``where`` names the records a run without --seed takes its seed from."""
    options = [
        jobs_option(PROCESS_JOBS_HELP),
        seed_option("every game, the same at any --jobs", resumes=where),
        variant_option("Preset with overrides, e.g. 'classic[sequences_to_win=3]'.", default="classic"),
        seating_options(),
        MOVE_TIMEOUT,
    ]
    return option_group(options)


def backend_options():
    """--backend and --scheduler (match, tournament and balance); see :func:`check_backend`."""
    return option_group(
        [
            click.option(
                "--backend",
                type=click.Choice(["loky", "threading", "dask"]),
                default=None,
                help="joblib backend (default loky: processes on this machine).",
            ),
            click.option(
                "--scheduler",
                default=None,
                metavar="tcp://HOST:PORT",
                help="Dask scheduler address for --backend dask.",
            ),
        ]
    )


def skill_options(where: str, strong_default: str, match_games: str):
    """``--weak``, ``--strong`` and ``--match-games`` of the commands that measure
    variants (balance, fair): how much skill still decides, as the strong bot's score
    against a weaker one.  ``where`` says which variants play the match, ``strong_default``
    names the default strong bot and ``match_games`` which matches are counted and their
    default size.  :func:`check_skill` refuses --strong without --weak."""
    return option_group(
        [
            click.option(
                "--weak",
                default=None,
                metavar="SPEC",
                help=f"Skill vs luck{where}: the bot (or --strong) against this weaker bot.",
            ),
            click.option(
                "--strong",
                default=None,
                metavar="SPEC",
                help=f"The strong bot of --weak [default: {strong_default}].",
            ),
            click.option(
                "--match-games",
                type=GAMES,
                default=None,
                help=f"Games of each {match_games}, rounded up to whole deals.",
            ),
        ]
    )


def check_skill(weak: str | None, strong: str | None) -> None:
    """A strong bot means nothing without a weak one to play: refused, not ignored."""
    if strong is not None and weak is None:
        raise click.UsageError("--strong goes with --weak (the strong bot plays against the weak one)")


def output_options(command: str, records: str, outputs: str, plots: str = "plots", also: tuple = ()):
    """``--out``, ``--report`` and ``--plots/--no-plots`` of the commands that measure
    variants (balance, fair): a resumable folder of records and reports, the Markdown
    report elsewhere, and its PNG plots.  ``records`` says what the folder keeps a
    record file of, ``outputs`` the files it gets besides, ``plots`` what the report
    draws (its plot or plots); ``also`` are the command's own outputs, put after --report."""
    one = plots == "plot"
    return option_group(
        [
            click.option(
                "--out",
                type=FOLDER_PATH,
                default=None,
                help=f"Folder for the records (one file per {records}, resumable), {outputs}.",
            ),
            click.option(
                "--report",
                type=FILE_PATH,
                default=None,
                help=f"Markdown report; its {plots} {'goes' if one else 'go'} into the folder of the same name"
                f" [default: OUT/{command}.md].",
            ),
            *also,
            click.option(
                "--plots/--no-plots",
                default=True,
                show_default=True,
                help=f"Draw the report's PNG {plots}.",
            ),
        ]
    )


def check_outputs(out: str | None, plots: bool, report: str | None, csv: str | None = None) -> None:
    """The outputs of :func:`output_options`, checked before any game is played: the
    ``--report`` and ``--csv`` files given (in the ``--out`` folder, which the command
    makes itself, or in one that exists), the folder, and that plots can be drawn when a
    report will be written: a refusal is one line, with nothing made yet."""
    from ..play.records import check_output_file, check_output_folder

    for path, option in ((report, "--report"), (csv, "--csv")):
        if path:
            check_output_file(path, option, made=out)
    if out:
        check_output_folder(out)
    if plots and (out or report):
        from ..balance.plots import new_figure

        try:
            new_figure(1, 1)
        except ImportError as exc:
            raise click.ClickException(str(exc)) from None


def check_backend(backend: str | None, scheduler: str | None) -> None:
    """A scheduler address means nothing without the Dask backend: refused, not ignored."""
    if scheduler is not None and backend != "dask":
        raise click.UsageError("--scheduler goes with --backend dask")


def option_group(options: list):
    """One decorator applying ``options`` in the order given (as if stacked above the command)."""

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command

    return apply


def dask_backend(scheduler: str | None):
    """Connect joblib to a Dask cluster (``--backend dask``)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise click.UsageError("--backend dask needs the 'distributed' package: pip install 'seqsolve[dask]'")
    try:
        return Client(scheduler, timeout="10s") if scheduler else Client(processes=True)
    except OSError as exc:
        raise click.UsageError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
