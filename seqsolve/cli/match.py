"""Commands that play bots against each other: match, tournament, replay, bots.

They parse options, hand a :class:`~seqsolve.play.config.MatchConfig` to the runner
and print what :mod:`seqsolve.play.report` makes of the records.  Progress goes to
stderr; stdout gets the summary (or one JSON object with ``--json``).
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import replace

import click

from .errors import CliError, interrupted
from .options import (
    FILE_PATH,
    FOLDER_PATH,
    GAME_OPTION,
    backend_options,
    check_backend,
    dask_backend,
    fresh_seed,
    game_options,
    games_option,
    json_option,
    progress_option,
    recorded_game,
    variant_option,
)
from .progress import Progress, progress_enabled


def _sprt_tracker(spec: str | None, sides: int):
    """A callback that feeds complete deals, in order, to the SPRT; None without --sprt."""
    if spec is None:
        return None, None
    from ..stats import SPRT

    if sides != 2:
        raise click.UsageError("--sprt needs a two-sided game (2 players or 2 teams)")
    try:
        test = SPRT.parse(spec)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sprt") from None
    state = {"games": {}, "decided_at": None, "llr": 0.0, "decision": None}
    counts = [0] * 5  # pentanomial counts of deals 0 .. deal-1, the complete ones in order
    deal = 0
    scores = state["games"]  # game -> score, of the games past the counted deals

    def feed(records) -> bool:
        nonlocal deal
        from ..play.columns import column

        scores.update(zip(column(records, "game"), column(records, "score")))
        # each deal is counted once, when it and every deal before it are complete
        while (2 * deal) in scores and (2 * deal + 1) in scores:
            pair = scores.pop(2 * deal) + scores.pop(2 * deal + 1)
            counts[round(pair * 2)] += 1
            deal += 1
            decision = test.decision(counts)
            if decision is not None:
                state.update(decided_at=2 * deal, llr=test.llr(counts), decision=decision)
                return True
        state["llr"] = test.llr(counts)
        return False

    return test, (state, feed)


@click.command(
    epilog="""\b
Examples:
  seqsolve match greedy random --games 1000
  seqsolve match mcts:iters=2000 heuristic --games 200 --out mcts.jsonl
  seqsolve match heuristic greedy --players 4 --json
  seqsolve match heuristic greedy --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05 --games 20000
"""
)
@click.argument("bots", nargs=-1, required=True)
@games_option("Games to play (rounded up to whole deals).", default=100)
@game_options(where="the --out file")
@click.option(
    "--out", type=FILE_PATH, default=None, help="Record every game as a JSON line; rerunning resumes."
)
@json_option()
@click.option(
    "--sprt",
    default=None,
    metavar="elo0=0,elo1=20,alpha=0.05,beta=0.05",
    help="Stop as soon as the sequential test decides.",
)
@backend_options()
@progress_option()
def match(
    bots,
    games,
    jobs,
    seed,
    variant,
    players,
    teams,
    out,
    as_json,
    sprt,
    backend,
    scheduler,
    move_timeout,
    progress,
):
    """Play BOTS against each other and report who is stronger, with error bars.

    Give two bot specs (the first is the one whose score is reported), or one per
    side.  Every deal is played once per side with the bots rotated over the seats
    (paired games), so the luck of the cards cancels out.  See 'seqsolve bots'.
    """
    from ..play.columns import column
    from ..play.config import MatchConfig, check_config, check_programs
    from ..play.match import import_runner, run_games
    from ..play.records import RecordFile
    from ..play.report import format_match, summarize_match

    check_backend(backend, scheduler)
    config = MatchConfig(
        bots=tuple(bots),
        variant=variant,
        players=players,
        teams=teams,
        seed=seed or 0,
        move_timeout=move_timeout,
    )
    rules = check_config(config)
    check_programs(config)  # before the record file exists
    recorded = _recorded_seed(out, config) if seed is None else None
    if seed is None:
        seed = fresh_seed() if recorded is None else recorded
        config = replace(config, seed=seed)
    games = -(-games // rules.teams) * rules.teams
    test, tracker = _sprt_tracker(sprt, rules.teams)
    import_runner(backend)  # before the record file exists
    bar = Progress(progress_enabled(progress))
    bar.start(" vs ".join(bots), games)
    feed = tracker[1] if tracker else None
    score = [0.0]  # the first bot's, over the games done

    def on_records(records):  # dicts, or a worker's Columns
        score[0] += sum(column(records, "score"))
        mean = score[0] / max(bar.done + len(records), 1)
        bar.advance(len(records), note=f"score of {bots[0]}: {100 * mean:.1f}%")
        return feed(records) if feed else False

    client = None
    started = time.perf_counter()
    try:  # from the moment the record file exists, Ctrl-C says how to resume it
        client = dask_backend(scheduler) if backend == "dask" else None  # refused before the file is made
        store = click.get_current_context().with_resource(RecordFile(out, config.to_json())) if out else None
        if recorded is not None:
            click.echo(f"seed {seed} (from {out})", err=True)
        records = run_games(
            config, games, jobs=jobs, out=store, on_records=on_records, backend=backend, columns=True
        )
    except KeyboardInterrupt:
        interrupted(bar, out, "FILE", f" after {bar.done} games")
    finally:
        bar.close()  # a run that fails (a worker lost twice) ends the line before its message
        if client is not None:
            client.close()
    seconds = time.perf_counter() - started
    sprt_info = None
    if tracker:
        state = tracker[0]
        if state["decided_at"] is not None:
            records = [r for r in records if r["game"] < state["decided_at"]]
        lower, upper = test.bounds
        sprt_info = {
            "spec": sprt,
            "llr": state["llr"],
            "lower": lower,
            "upper": upper,
            "decision": state["decision"] or "undecided",
        }
    summary = summarize_match(records, config.bots, seconds)
    summary.update(
        seed=seed, variant=str(rules.variant), players=rules.players, teams=rules.teams, sprt=sprt_info
    )
    if out:
        summary["out"] = out
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(
            f"match {' vs '.join(bots)} — {rules.variant}, {rules.players} players, {rules.teams} sides, seed {seed}"
        )
        click.echo(format_match(summary, config.game.new_initial_state(rules, seed=0).sides))


def _recorded_seed(out: str | None, config) -> int | None:
    """No --seed: the seed of the same match in ``out``, so the same command resumes
    it (the caller says so on stderr once the file is open), else None."""
    from ..play.records import recorded_seed

    return recorded_seed(out, config.to_json()) if out else None


@click.command(
    epilog="""\b
Examples:
  seqsolve tournament random greedy heuristic --games 200
  seqsolve tournament greedy heuristic mcts:iters=1000 --games 100 --out results/ --json
"""
)
@click.argument("bots", nargs=-1, required=True)
@games_option("Games per pairing.", default=100)
@game_options(where="the --out folder")
@click.option(
    "--out", type=FOLDER_PATH, default=None, help="Folder for one record file per pairing (resumable)."
)
@json_option("one JSON object: ratings, scores, results")
@backend_options()
@progress_option()
def tournament(
    bots, games, jobs, seed, variant, players, teams, move_timeout, out, as_json, backend, scheduler, progress
):
    """Round robin between BOTS (paired deals), a Bradley–Terry rating table with
    95% intervals, and the pairwise score matrix."""
    from ..bots import make_bot
    from ..play.config import check_config, check_programs
    from ..play.match import import_runner, run_games
    from ..play.records import FolderLock, check_files, check_output_folder, make_output_folder
    from ..play.tournament import Tournament

    check_backend(backend, scheduler)
    if len(bots) < 2:
        raise click.UsageError("a tournament needs at least two bots")
    if len(set(bots)) != len(bots):
        raise click.UsageError("each bot may appear once in a tournament")
    from ..games import game_for

    for spec in bots:
        make_bot(spec, game_for(variant)).close()
    league = Tournament(tuple(bots), variant, players, teams, move_timeout)
    first = league.config(0, 0)
    first_path = league.record_path(out, 0) if out else None
    check_config(first)  # every pairing shares the rules: refuse them before a folder is made
    check_programs(first, bots)
    recorded = _recorded_seed(first_path, first) if seed is None else None
    if seed is None:  # the first pairing's records, when there are some, hold the seed
        seed = fresh_seed() if recorded is None else recorded
    import_runner(backend)  # before the folder is made
    if out:
        check_output_folder(out)
    bar = Progress(progress_enabled(progress))
    client = None
    try:  # Ctrl-C between pairings as well as inside one says how to resume
        client = dask_backend(scheduler) if backend == "dask" else None  # refused before the folder is made
        if out:  # locked until the command ends: a second run on the folder is refused
            make_output_folder(out)
            click.get_current_context().with_resource(FolderLock(out))
            # a damaged record file is refused before any game
            pairings = range(len(league.pairings))
            check_files([(league.record_path(out, k), league.config(k, seed).to_json()) for k in pairings])
        if recorded is not None:
            click.echo(f"seed {seed} (from {first_path})", err=True)
        started = time.perf_counter()
        for k, (a, b) in enumerate(league.pairings):
            config = league.config(k, seed)
            rules = check_config(config)
            n = -(-games // rules.teams) * rules.teams
            bar.start(f"{a} vs {b}", n)
            path = league.record_path(out, k) if out else None
            league.add(k, run_games(config, n, jobs=jobs, out=path, on_records=bar.update, backend=backend))
    except KeyboardInterrupt:
        interrupted(bar, out, "DIR", f" in {bar.label}" if bar.label else "")
    finally:
        bar.close()  # a run that fails (a worker lost twice) ends the line before its message
        if client is not None:
            client.close()
    report = league.report(games, seed, time.perf_counter() - started)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"tournament — {variant}, {players} players, {games} games per pairing, seed {seed}")
    click.echo("Bradley–Terry ratings (Elo scale, mean 0, 95% CI):")
    for r in report["ratings"]:
        low, high = r["elo_ci"]
        click.echo(f"  {r['bot']:<28} {r['elo']:+7.0f}  [{low:+.0f}, {high:+.0f}]")
    click.echo("score of row against column:")
    width = max(len(b) for b in bots) + 2
    click.echo(" " * width + "".join(f"{b[:10]:>12}" for b in bots))
    for a in bots:
        cells = "".join(f"{'—':>12}" if a == b else f"{100 * report['scores'][a][b]:>11.1f}%" for b in bots)
        click.echo(f"{a:<{width}}{cells}")


@click.command(
    epilog="""\b
Examples:
  seqsolve replay games.jsonl --game 3
  seqsolve replay games.jsonl --game 3 --ply 40 --to readable > pos.txt
"""
)
@click.argument("records", type=FILE_PATH)
@GAME_OPTION
@click.option(
    "--ply",
    "-p",
    type=int,
    default=None,
    help="Write the position after this many actions (an exchange and the play after it are two).",
)
@click.option("--to", "fmt", type=click.Choice(["sqn", "readable", "json"]), default="sqn", show_default=True)
def replay(records, game, ply, fmt):
    """Print a recorded game turn by turn, or the position after a given number of actions."""
    from ..games import game_for
    from ..play.records import Replay, result_text, turns

    r, where = recorded_game(records, game)
    if ply is not None and not 0 <= ply <= r["plies"]:
        raise CliError(f"--ply must be 0..{r['plies']} for game {game} of {records}")
    played = Replay(r, where)
    state = played.state
    whole = turns(itertools.takewhile(lambda step: ply is None or step.ply <= ply, played))
    if ply is not None:
        click.echo(game_for(r["variant"]).write_position(state, form=fmt).rstrip("\n"))
        return
    seats = state.seats
    side_name = game_for(r["variant"]).side_name
    click.echo(
        f"game {game}: {r['variant']}, seats "
        + ", ".join(f"{seat} ({side_name(c)}, {bot})" for seat, (c, bot) in enumerate(zip(seats, r["seats"])))
    )
    for number, (seat, moves) in enumerate(whole, 1):
        click.echo(f"{number:>4}. seat {seat} ({side_name(seats[seat])}): {' '.join(moves)}")
    click.echo(f"result: {result_text(r, seats)} after {len(whole)} turn{'' if len(whole) == 1 else 's'}")


@click.command(name="bots")
@variant_option("The game whose bots to list: any of its variants, e.g. 'stacks'.", default="classic")
@json_option("every bot and parameter as one JSON object")
def bots_command(variant, as_json):
    """List the bots and their parameters (use them as 'name:key=value,...'),
    each with its default and, for numbers, its range; then the bots of installed
    packages (entry points 'seqsolve.bots').  A Python class of your own plays as
    FILE.py:Class or module:Class (docs/api.md)."""
    from ..bots import bot_classes
    from ..bots.classes import installed_bots, summary_of
    from ..games import game_for

    classes = bot_classes(game_for(variant))
    installed = installed_bots(classes)
    if as_json:
        listed = {name: _bot_json(cls.summary, cls.params) for name, cls in classes.items()}
        for bot in installed:
            if bot.name not in listed:
                listed[bot.name] = {
                    **_bot_json(summary_of(bot.cls) if bot.cls else "", getattr(bot.cls, "params", {})),
                    "entry_point": bot.provider,
                    **({"problem": bot.problem} if bot.problem else {}),
                }
        click.echo(json.dumps(listed, indent=2))
        return
    for name, cls in classes.items():
        _echo_bot(name, cls.summary, cls.params)
    if installed:
        click.echo("installed (entry points seqsolve.bots):")
    for bot in installed:
        if bot.cls is None:
            click.echo(f"{bot.name:<10} ({bot.provider}) {bot.problem}")
        else:
            _echo_bot(
                bot.name,
                f"{summary_of(bot.cls)} ({bot.provider})",
                bot.cls.params if hasattr(bot.cls, "params") else {},
            )
    click.echo("FILE.py:Class, module:Class  your own Python class (docs/api.md), its parameters after ':'")


def _bot_json(summary: str, params: dict) -> dict:
    return {
        "summary": summary,
        "params": {
            k: {"type": p.kind.__name__, "default": p.default, "help": p.help, "range": p.range}
            for k, p in params.items()
        },
    }


def _echo_bot(name: str, summary: str, params: dict) -> None:
    click.echo(f"{name:<10} {summary}")
    settings = [f"{key}={p.default!s}" for key, p in params.items()]
    width = max(map(len, settings), default=0)
    ranges = [f"[{p.range}]" if p.range else "" for p in params.values()]
    span = max(map(len, ranges), default=0)
    for setting, bounds, p in zip(settings, ranges, params.values()):
        click.echo(f"    {setting:<{width}}  {bounds:<{span}}  {p.help}")


COMMANDS = [match, tournament, replay, bots_command]
