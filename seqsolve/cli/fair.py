"""The ``fair`` command: race a variant's compensation values for the fairest.

It builds the candidates (:func:`seqsolve.balance.race.candidates_of`), races them
with :func:`seqsolve.balance.race.run_race` (``balance``'s games, records and output
folder underneath) and writes what :mod:`seqsolve.balance.race_output` makes of the
race.  Progress goes to stderr; stdout gets the tables (or one JSON object with
``--json``).
"""

from __future__ import annotations

import json
import os
import time

import click

from ..play.records import make_output_folder, write_figure, write_text
from .balance import _command_line, _plots_failed
from .errors import interrupted
from .options import (
    MAX_GAMES,
    MOVE_TIMEOUT,
    PROCESS_JOBS_HELP,
    FiniteFloat,
    backend_options,
    check_backend,
    check_outputs,
    check_skill,
    dask_backend,
    fresh_seed,
    jobs_option,
    json_option,
    output_options,
    progress_option,
    seating_options,
    seed_option,
    skill_options,
)
from .progress import Progress, progress_enabled


@click.command(
    epilog="""\b
Examples:
  seqsolve fair classic --try hand_bonus=1,2 --try first_turn_jacks=off --out runs/fair
      classic, 2 players, heuristic self-play: 6 candidates (the original among them)
  seqsolve fair classic --players 4 --teams 2 --try hand_bonus=1,2 --budget 60000 --out runs/fair4
  seqsolve fair classic --separate --try hand_bonus=1,2,3 --try first_turn_jacks=off --out runs/each
      each rule alone: 5 candidates, not 4 x 2 = 8 combinations
  seqsolve fair classic --try head_start=1 --try hand_bonus=1 --precision 0.5 --within 1 --budget 300000
      known to +-0.5 points; up to 3 candidates confirmed until one lies within +-1 point
  seqsolve fair classic --try hand_bonus=1,2 --bot greedy --batch 50 --budget 3000 --json
  seqsolve fair classic --try hand_bonus=1 --weak random --match-games 400 --out runs/skill
      also: how much skill still decides (heuristic against random) in the original and the best
  seqsolve fair stacks --players 3 --try OPTION=V1,V2 --out runs/stacks
      any option of Sequence Stacks (docs/rules.md), raced with its default bot
Rerunning the same command with the same --out resumes an interrupted race
(the seed is read back from the folder when --seed is not given) and gives the same answer.
\b
How it races: every round plays --batch more games of every candidate still in the race;
a candidate is dropped as soon as its interval for the first seat's advantage lies wholly
outside +-(--within) while another's still reaches into it (or its interval lies wholly
further from 0 than another's).
The selection stops when --keep candidates are left, when every one left is known to
2.5 x --precision, or when the next round would pass --budget; then the pick plays new
games, as many as a fixed-n interval needs for +-precision, and is reported with that
interval on those games alone. When it does not lie within +-(--within), the next
candidate left is confirmed on new games of its own, up to --confirm candidates as
far as --budget pays; the answer is the first within, else the one nearest 0, with
every confirmation interval at the Bonferroni level so the answer's stays valid. The race's intervals are anytime-valid confidence
sequences (a fixed bet on either side: Waudby-Smith and Ramdas, JRSS-B 2024), so
looking after every round does not void them, unlike a fixed-n interval. The report compares the race's games with a uniform grid's at the same
precision. See docs/fair-command.md.
"""
)
@click.argument("variant")
@click.option(
    "--try",
    "tries",
    multiple=True,
    metavar="OPTION=V1,V2,...",
    help="Values of a compensation option to race (any option of the variant's game, "
    "e.g. hand_bonus=1,2 or first_turn_jacks=off), besides its value in VARIANT; "
    "several --try race every combination.",
)
@click.option(
    "--separate",
    is_flag=True,
    help="Change one tried option at a time (the original and each value alone), not every combination.",
)
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="SPEC",
    help="The bot of every seat (repeat: one per side or one per seat) [default: the game's].",
)
@seating_options(
    "Players [default: the variant's, else 2].", "Sides (needed for 6 and 12 players).", default=None
)
@click.option(
    "--batch",
    type=click.IntRange(1, MAX_GAMES),
    default=200,
    show_default=True,
    help="Games of every candidate still in the race per round.",
)
@click.option(
    "--budget",
    type=click.IntRange(1, MAX_GAMES),
    default=40_000,
    show_default=True,
    help="Self-play games of the whole race, every confirmation's among them, at most (the skill matches not counted).",
)
@click.option(
    "--precision",
    type=FiniteFloat(0.01, 49.99),
    default=1.0,
    show_default=True,
    metavar="PP",
    help="Half width, in points, wanted on the fairest's advantage: the confirmation's games "
    "(a race of one stage when the budget does not pay for them).",
)
@click.option(
    "--within",
    type=FiniteFloat(0.01, 49.99),
    default=1.0,
    show_default=True,
    metavar="PP",
    help="Tolerance, in points: a candidate is fair when its confirmation interval lies within +-PP.",
)
@click.option(
    "--confirm",
    type=click.IntRange(1, 1000),
    default=3,
    show_default=True,
    metavar="K",
    help="Candidates left confirmed at most, one after another in the selection's order until one "
    "is fair within --within (each on new games, at the level 1 - (1 - --level)/K; more than one "
    "only when --precision is below --within and --budget pays for them).",
)
@click.option(
    "--level",
    type=FiniteFloat(0.5, 0.9999),
    default=0.95,
    show_default=True,
    help="Confidence of each candidate's sequence of intervals.",
)
@click.option(
    "--keep",
    type=click.IntRange(1, 1000),
    default=1,
    show_default=True,
    help="Stop when this many candidates or fewer are left.",
)
@click.option(
    "--best",
    type=click.IntRange(1, 1000),
    default=3,
    show_default=True,
    help="Candidates reported in full beside the original (lengths, draws, jacks, skill).",
)
@skill_options(" in the original and the best", "the first --bot", "skill match [default: --batch]")
@jobs_option(PROCESS_JOBS_HELP)
@seed_option("every game, the same at any --jobs", resumes="the --out folder")
@output_options("fair", "candidate", "fair.json, fair.md and its plot", plots="plot")
@json_option()
@backend_options()
@MOVE_TIMEOUT
@progress_option()
@click.pass_context
def fair(
    ctx,
    variant,
    tries,
    separate,
    bots,
    players,
    teams,
    batch,
    budget,
    precision,
    within,
    confirm,
    level,
    keep,
    best,
    weak,
    strong,
    match_games,
    jobs,
    seed,
    out,
    report,
    plots,
    as_json,
    backend,
    scheduler,
    move_timeout,
    progress,
):
    """Race the compensation values of VARIANT for the fairest: the one whose first
    seat has no advantage.

    The candidates are VARIANT with every combination of the --try values and of
    each tried option's own value in VARIANT: VARIANT as it is (the original) is
    one.  Each is played by the bot against itself, a new deal every game (as
    'seqsolve balance' does), in rounds; the clearly unfair
    are dropped early, so the games go to the candidates that might be fair; then the
    pick (the fairest left) plays new games to be known to +-PRECISION points, and
    when its interval does not lie within +-WITHIN, the next left does, up to
    --confirm candidates.  Reported: every candidate's advantage with its sequential
    interval (the confirmed: the fixed-n interval of their new games) and the round
    it was dropped in; the answer (the first confirmed within +-WITHIN, else the
    confirmed one nearest 0); for the
    original and the --best few, balance's metrics (game length, draws and stalls,
    jacks and exchanges per game, --weak's skill match); the games the race spent
    against what a uniform grid needs for the same precision; with --out or
    --report, a plot of the advantage against each tried value.
    """
    check_skill(weak, strong)
    if match_games is not None and weak is None:
        raise click.UsageError("--match-games goes with --weak (it counts the skill matches' games)")
    check_backend(backend, scheduler)
    from ..balance.manifest import open_output, read_manifest
    from ..balance.metrics import first_seat_scores, summarize
    from ..balance.output import plots_folder
    from ..balance.race import RaceConfig, candidates_of, check_race, run_race, uniform_grid
    from ..balance.race_output import format_race, markdown_report, plot_race, report_json
    from ..balance.run import BalanceConfig, jobs_of
    from ..play.config import check_programs
    from .balance import _default_bot

    points = candidates_of(variant, tries, players, teams, separate)
    found = read_manifest(out, "fair") if out and os.path.isdir(out) else None
    given_seed = seed
    if seed is None:
        seed = found["seed"] if found else fresh_seed()
    ctx.meta["balance_seed"] = seed
    balance = BalanceConfig(
        points=points,
        bots=tuple(bots) or (_default_bot(points),),
        seed=seed,
        weak=weak,
        strong=strong,
        move_timeout=move_timeout,
    )
    config = RaceConfig(
        balance=balance,
        tries=tuple((name, tuple(values)) for name, values in _tries(tries, variant)),
        batch=batch,
        budget=budget,
        level=level,
        keep=keep,
        best=best,
        separate=separate,
        precision=precision / 100,
        within=within / 100,
        confirm=confirm,
    )
    check_race(config)
    check_programs(
        jobs_of(balance, points[0])[0].config, balance.bots + tuple(b for b in (weak, strong) if b)
    )
    check_outputs(out, plots, report)
    bar = Progress(progress_enabled(progress))
    client = None
    started = time.perf_counter()
    from ..play.match import import_runner

    import_runner(backend)  # before the folder is made
    try:
        client = dask_backend(scheduler) if backend == "dask" else None
        if out:
            ctx.with_resource(open_output(balance, out, "fair", {"race": config.to_json()}))
        if given_seed is None:
            click.echo(f"seed {seed}" + (f" (from {out})" if found else ""), err=True)
        result, reported = run_race(
            config,
            out=out,
            jobs=jobs,
            backend=backend,
            match_games_each=match_games,
            on_start=bar.start,
            on_records=bar.update,
        )
    except KeyboardInterrupt:
        interrupted(bar, out, "DIR")
    finally:
        bar.close()
        if client is not None:
            client.close()
    summaries = summarize(reported)
    top = result.ranking()[0]
    grid = uniform_grid(
        result, top, first_seat_scores(points[top], _records_of(reported, points[top])), level
    )
    data = report_json(config, result, summaries, grid)
    data["command"] = _command_line(ctx, (variant,))
    data["seconds"] = time.perf_counter() - started
    report = report or (os.path.join(out, "fair.md") if out else None)
    failed = drawn = None
    if out:
        data["out"] = out
        write_text(os.path.join(out, "fair.json"), json.dumps(data, indent=2) + "\n")
    if report:
        if plots:  # a plot that cannot be written loses neither the report nor the numbers
            drawn, failed = _write_plot(plot_race(config, result), plots_folder(report), make_output_folder)
        write_text(report, markdown_report(config, result, summaries, data, drawn, report))
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(
            f"fair — {len(points)} candidates of {points[0].label}, bots {', '.join(balance.bots)}, seed {seed}"
        )
        click.echo(format_race(config, result, summaries, grid))
        if report:
            click.echo(f"written: {report}" + (f" (plot {drawn})" if drawn else ""))
    _plots_failed(failed)


def _tries(tries, variant):
    from ..balance.grid import grid_game, parse_vary

    game = grid_game([variant])
    return [parse_vary(t, game, "--try") for t in tries]


def _records_of(reported, point) -> list[dict]:
    """The self-play records of a reported candidate (the best is always reported)."""
    return next(r.records["self"] for r in reported if r.point == point)


def _write_plot(figure, folder: str, make_folder) -> tuple[str | None, str | None]:
    """The race's plot as ``folder/advantage.png``: its path, or None and why not."""
    from ..play.records import RecordError

    try:
        make_folder(folder, "plots")
        return write_figure(figure, os.path.join(folder, "advantage.png")), None
    except RecordError as exc:
        return None, f"no plot written: {exc}"


COMMANDS = [fair]
