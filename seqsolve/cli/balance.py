"""The ``balance`` command: how fair and how decisive each rule variant is.

It expands the grid of variants, hands it to :func:`seqsolve.balance.run.run_balance`
(the match runner underneath: seeded games, resumable records), and writes what
:mod:`seqsolve.balance` make of the records.  Progress
goes to stderr; stdout gets the table (or one JSON object with ``--json``).
"""

from __future__ import annotations

import json
import os
import shlex
import time

import click

from ..play.records import write_text
from .errors import CliError, interrupted
from .options import (
    FILE_PATH,
    MOVE_TIMEOUT,
    PROCESS_JOBS_HELP,
    backend_options,
    check_backend,
    check_outputs,
    check_skill,
    dask_backend,
    fresh_seed,
    games_option,
    jobs_option,
    json_option,
    output_options,
    progress_option,
    seating_options,
    seed_option,
    skill_options,
    variant_option,
)
from .progress import Progress, progress_enabled

# balance (numpy, scipy, joblib, the compiled core) is imported by the command,
# so that --help and every usage error answer at once.


def _stages(bar: Progress, total_jobs: int):
    """The balance runner's ``on_start``: each job of each point is a stage of ``bar``."""
    started = [0]

    def on_start(point, job, games: int) -> None:
        started[0] += 1
        what = {"self": "self-play", "restrict": f"vs no {job.name}", "skill": "strong vs weak"}[job.kind]
        bar.start(f"[{started[0]}/{total_jobs}] {point.label} {what}", games)

    return on_start


def _command_line(ctx: click.Context, arguments: tuple[str, ...] | None = None) -> str:
    """The command that reproduces this run (the options that differ from their defaults);
    ``arguments`` are the command's own arguments (default: balance's bots)."""
    if arguments is None:
        arguments = ctx.params.get("bots", ())
    parts = ["seqsolve", ctx.command.name, *arguments]
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name in ("progress",):
            continue
        value = ctx.params.get(param.name)
        if (
            value is None
            or value == param.default
            or value == ()
            or (value is False and not param.secondary_opts)
        ):
            continue
        flag = param.opts[0]
        if param.is_flag:
            parts.append(flag if value else (param.secondary_opts or [flag])[0])
        elif isinstance(value, tuple):
            for v in value:
                parts += [flag, str(v)]
        else:
            parts += [flag, str(value)]
    if ctx.params.get("seed") is None:
        parts += ["--seed", str(ctx.meta["balance_seed"])]
    return " ".join(shlex.quote(p) for p in parts)


def _restrictions(text: str | None) -> tuple[str, ...]:
    from ..balance.grid import BalanceError
    from ..bots import restrictions

    if text is None:
        return ()
    known = restrictions()
    if text.strip() == "all":
        return known
    names = tuple(dict.fromkeys(x.strip() for x in text.split(",")))
    if not names or "" in names:
        raise BalanceError(f"--restrict: an empty name in {text!r} (known: {', '.join(known)}, or all)")
    for n in names:
        if n not in known:
            raise BalanceError(f"--restrict: unknown restriction {n!r} (known: {', '.join(known)}, or all)")
    return names


@click.command(
    epilog="""\b
Examples:
  seqsolve balance --games 2000 --out runs/classic
  seqsolve balance --variant classic --vary players=2,3,4 --vary sequences_to_win=1,2 --games 1000
  seqsolve balance --variant seed000 --variant classic[sequences_to_win=3] --json
  seqsolve balance greedy random --games 1000        greedy seat 0, random seat 1
  seqsolve balance --restrict all --weak random --games 1000 --out runs/rules
  seqsolve balance --all-presets --games 4300 --jobs 2 --out runs/all --report docs/balance.md
Rerunning the same command with the same --out resumes an interrupted run
(the seed is read back from the folder when --seed is not given).
"""
)
@click.argument("bots", nargs=-1)
@variant_option(
    "A variant to measure (repeatable; default classic). The same one twice is measured twice.",
    multiple=True,
    name="variants",
)
@click.option(
    "--vary",
    multiple=True,
    metavar="OPTION=V1,V2,...",
    help="Measure every value of a rules option (any of RULES.md §2, players and teams too); "
    "several --vary make a grid.",
)
@click.option(
    "--all-presets", is_flag=True, help="Every preset of RULES.md §2.2 with every seating it allows."
)
@seating_options(
    "Players when not varied [default: 2].",
    "Sides when not varied (6 or 12 players without it: both 2 and 3).",
    default=None,
)
@games_option("Self-play games per variant (and per match unless --match-games).", default=1000)
@click.option(
    "--self-play/--no-self-play",
    default=True,
    show_default=True,
    help="Play the self-play games (--no-self-play: only the --restrict and --weak matches).",
)
@click.option(
    "--restrict",
    default=None,
    metavar="two_eyed,one_eyed,exchange,corners|all",
    help="Restricted play: the bot against itself barred from each of these.",
)
@skill_options("", "the first of BOTS", "restricted-play or skill match [default: --games]")
@jobs_option(PROCESS_JOBS_HELP)
@seed_option("every game, the same at any --jobs", resumes="the --out folder")
@output_options(
    "balance",
    "variant and match",
    "balance.json, balance.csv, balance.md and its plots",
    also=(
        click.option(
            "--csv",
            "csv_path",
            type=FILE_PATH,
            default=None,
            help="CSV file, one row per variant [default: OUT/balance.csv].",
        ),
    ),
)
@json_option()
@backend_options()
@MOVE_TIMEOUT
@progress_option()
@click.pass_context
def balance(
    ctx,
    variants,
    vary,
    all_presets,
    players,
    teams,
    bots,
    games,
    self_play,
    restrict,
    weak,
    strong,
    match_games,
    jobs,
    seed,
    out,
    report,
    csv_path,
    plots,
    as_json,
    backend,
    scheduler,
    move_timeout,
    progress,
):
    """Measure how fair and how decisive rule variants are: seat advantage, draws, length.

    BOTS: the bot of every seat (default: the game's, heuristic for Sequence and
    greedy for Sequence Stacks), or one per side or one per
    seat to seat different bots (see 'seqsolve bots').

    Every variant of the grid is played by the bot against itself (a new deal every
    game, each bot fixed on its seat), and reported with 95% intervals: the win
    rate of every seat and side, the first seat's advantage and a chi-square test
    of balanced sides, the draw rate and why games ended, game length, decisions
    and branching, exchanges, jacks and reshuffles per game, and how often the
    winner used a corner.  See docs/balance-metrics.md.
    """
    _check_combinations(variants, all_presets, self_play, restrict, weak, strong, match_games)
    if not self_play:  # the matches get --games unless --match-games says otherwise
        games, match_games = 0, games if match_games is None else match_games
    check_backend(backend, scheduler)
    from ..balance.grid import expand_grid
    from ..balance.manifest import open_output, read_manifest
    from ..balance.metrics import summarize
    from ..balance.output import format_balance, markdown_report, plots_folder, report_json, to_csv
    from ..balance.run import BalanceConfig, check_balance, jobs_of, run_balance
    from ..play.config import check_programs

    points = expand_grid(variants or ("classic",), vary, players, teams, all_presets)
    found = read_manifest(out) if out and os.path.isdir(out) else None
    given_seed = seed
    if seed is None:
        seed = found["seed"] if found else fresh_seed()
    ctx.meta["balance_seed"] = seed
    config = BalanceConfig(
        points=tuple(points),
        bots=tuple(bots) or (_default_bot(points),),
        seed=seed,
        restrict=_restrictions(restrict),
        weak=weak,
        strong=strong,
        move_timeout=move_timeout,
    )
    check_balance(config)
    check_programs(jobs_of(config, points[0])[0].config, config.bots + tuple(b for b in (weak, strong) if b))
    check_outputs(out, plots, report, csv_path)
    n_jobs = len(points) * (1 + len(config.restrict) + bool(weak))
    bar = Progress(progress_enabled(progress))
    client = None
    started = time.perf_counter()
    from ..play.match import import_runner

    import_runner(backend)  # before the folder is made
    try:  # from the moment the folder exists, Ctrl-C says how to resume it
        client = dask_backend(scheduler) if backend == "dask" else None  # refused before the folder is made
        if out:  # created, checked and locked until the command ends
            ctx.with_resource(open_output(config, out))
        if given_seed is None:
            click.echo(f"seed {seed}" + (f" (from {out})" if found else ""), err=True)
        results = run_balance(
            config,
            games,
            out=out,
            jobs=jobs,
            backend=backend,
            games_per_match=match_games,
            on_start=_stages(bar, n_jobs),
            on_records=bar.update,
        )
    except KeyboardInterrupt:
        interrupted(bar, out, "DIR")
    finally:
        bar.close()  # a run that fails (a worker lost twice) ends the line before its message
        if client is not None:
            client.close()
    summaries = summarize(results)
    data = report_json(summaries, config, games, match_games)
    data["seconds"] = time.perf_counter() - started
    command = _command_line(ctx)
    data["command"] = command
    if out:
        data["out"] = out
        write_text(os.path.join(out, "balance.json"), json.dumps(data, indent=2) + "\n")
    csv_path = csv_path or (os.path.join(out, "balance.csv") if out else None)
    if csv_path:
        write_text(csv_path, to_csv(summaries))
    report = report or (os.path.join(out, "balance.md") if out else None)
    failed = None
    if report:
        drawn = None
        if plots:  # a plot that cannot be written loses neither the report nor the numbers
            from ..balance.plots import write_plots

            drawn, failed = write_plots(summaries, plots_folder(report))
        write_text(report, markdown_report(summaries, data, command, drawn, report))
    if as_json:
        click.echo(json.dumps(data, indent=2))
        _plots_failed(failed)
        return
    click.echo(
        f"balance — {len(points)} variant{'s' if len(points) != 1 else ''}, bots {', '.join(config.bots)}, {games} games each, seed {seed}"
    )
    click.echo(format_balance(summaries))
    written = [p for p in (csv_path, report) if p]
    if written:
        click.echo(
            f"written: {', '.join(written)}"
            + (f" (plots in {plots_folder(report)}/)" if report and plots and not failed else "")
        )
    _plots_failed(failed)


def _plots_failed(failed: str | None) -> None:
    """The plots that could not be written, after everything else is out: exit 1."""
    if failed:
        raise CliError(failed)


def _check_combinations(variants, all_presets, self_play, restrict, weak, strong, match_games) -> None:
    """Options that mean nothing together are refused (a usage error), not ignored."""
    matches = bool(restrict) or weak is not None
    if variants and all_presets:
        raise click.UsageError(
            "--variant and --all-presets exclude each other (--all-presets measures every preset)"
        )
    check_skill(weak, strong)
    if match_games is not None and not matches:
        raise click.UsageError("--match-games goes with --restrict or --weak (it counts their games)")
    if not self_play and not matches:
        raise click.UsageError("--no-self-play leaves nothing to play: give --restrict or --weak")


COMMANDS = [balance]


def _default_bot(points) -> str:
    """The bot of the points' game when none is named; variants of two games need one named."""
    from ..games import game_for

    bots = {game_for(p.variant).default_bot for p in points}
    if len(bots) > 1:
        raise click.UsageError("the variants are of different games: name the bot (see 'seqsolve bots')")
    return bots.pop()
