"""Commands that play bots against each other: match, tournament, replay, bots.

They parse options, hand a :class:`~seqsolve.match.MatchConfig` to the runner
and print what :mod:`seqsolve.report` makes of the records.  Progress goes to
stderr; stdout gets the summary (or one JSON object with ``--json``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
import time
from dataclasses import replace
from typing import NoReturn

import click

from .bots import bot_classes, make_bot
from .match import MatchConfig, check_config, deal_seed, read_records, recorded_seed, run_games
from .report import format_match, summarize_match
from .rules import Variant


def _jobs(value: int) -> int:
    """--jobs: a number of worker processes, or -1 for every core."""
    if value == -1 or value >= 1:
        return value
    raise click.BadParameter(f"{value} is not a number of workers (use 1, 2, ... or -1 for all cores)")


def game_options(where: str):
    """The options match and tournament share: workers, seed and the rules;
    ``where`` names the records a run without --seed takes its seed from."""
    options = [
        click.option("--jobs", "-j", type=int, default=-1, show_default=True, callback=lambda c, p, v: _jobs(v),
                     help="Worker processes; -1 = all cores."),
        click.option("--seed", type=int, default=None,
                     help=f"Root seed; the same seed gives the same games at any --jobs (default: {where}'s, when it holds these games, else fresh)."),
        click.option("--variant", default="classic", show_default=True,
                     help="Preset with overrides, e.g. 'classic[sequences_to_win=3]'."),
        click.option("--players", type=int, default=2, show_default=True, help="2, 3, 4, 6, 8, 9, 10 or 12."),
        click.option("--teams", type=int, default=None, help="Number of sides (2 or 3); needed for 6 and 12 players."),
    ]
    return option_group(options)


def option_group(options: list):
    """One decorator applying ``options`` in the order given (as if stacked above the command)."""

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command

    return apply


def _progress_enabled(flag: bool | None) -> bool:
    return sys.stderr.isatty() if flag is None else flag


class Progress:
    """A one-line progress report on stderr: games done, games/s, running score."""

    def __init__(self, total: int, first_bot: str, enabled: bool):
        self.total, self.first_bot, self.enabled = total, first_bot, enabled
        self.done, self.score, self.started = 0, 0.0, time.perf_counter()

    def update(self, records: list[dict]) -> None:
        self.done += len(records)
        self.score += sum(r["score"] for r in records)
        if not self.enabled:
            return
        rate = self.done / max(time.perf_counter() - self.started, 1e-9)
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        bar = "#" * filled + "-" * (width - filled)
        mean = self.score / self.done if self.done else 0.0
        click.echo(
            f"\r[{bar}] {self.done}/{self.total} games  {rate:.1f} games/s  "
            f"score of {self.first_bot}: {100 * mean:.1f}%",
            err=True,
            nl=False,
        )

    def close(self) -> None:
        if self.enabled:
            click.echo("", err=True)


def _dask_backend(scheduler: str | None):
    """Connect joblib to a Dask cluster (``--backend dask``)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise click.UsageError("--backend dask needs the 'distributed' package: pip install 'seqsolve[dask]'")
    try:
        return Client(scheduler, timeout="10s") if scheduler else Client(processes=True)
    except OSError as exc:
        raise click.UsageError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None


def _sprt_tracker(spec: str | None, sides: int):
    """A callback that feeds complete deals, in order, to the SPRT; None without --sprt."""
    if spec is None:
        return None, None
    from .stats import SPRT

    if sides != 2:
        raise click.UsageError("--sprt needs a two-sided game (2 players or 2 teams)")
    try:
        test = SPRT.parse(spec)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sprt") from None
    state = {"games": {}, "decided_at": None, "llr": 0.0, "decision": None}

    def feed(records: list[dict]) -> bool:
        for r in records:
            state["games"][r["game"]] = r
        counts = [0] * 5
        deal = 0
        while (2 * deal) in state["games"] and (2 * deal + 1) in state["games"]:
            pair = state["games"][2 * deal]["score"] + state["games"][2 * deal + 1]["score"]
            counts[round(pair * 2)] += 1
            deal += 1
            decision = test.decision(counts)
            if decision is not None:
                state.update(decided_at=2 * deal, llr=test.llr(counts), decision=decision)
                return True
        state["llr"] = test.llr(counts)
        return False

    return test, (state, feed)


@click.command(epilog="""\b
Examples:
  seqsolve match greedy random --games 1000
  seqsolve match mcts:iters=2000 heuristic --games 200 --out mcts.jsonl
  seqsolve match heuristic greedy --players 4 --json
  seqsolve match heuristic greedy --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05 --games 20000
""")
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games to play (rounded up to whole deals).")
@game_options(where="the --out file")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Record every game as a JSON line; rerunning resumes.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--sprt", default=None, metavar="elo0=0,elo1=20,alpha=0.05,beta=0.05", help="Stop as soon as the sequential test decides.")
@click.option("--backend", type=click.Choice(["loky", "threading", "dask"]), default=None, help="joblib backend (default loky: processes on this machine).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Dask scheduler address for --backend dask.")
@click.option("--move-timeout", type=float, default=10.0, show_default=True, help="Seconds an external bot may think per move.")
@click.option("--progress/--no-progress", default=None, help="Progress line on stderr (default: when stderr is a terminal).")
def match(bots, games, jobs, seed, variant, players, teams, out, as_json, sprt, backend, scheduler, move_timeout, progress):
    """Play BOTS against each other and report who is stronger, with error bars.

    Give two bot specs (the first is the one whose score is reported), or one per
    side.  Every deal is played once per side with the bots rotated over the seats
    (paired games), so the luck of the cards cancels out.  See 'seqsolve bots'.
    """
    config = MatchConfig(bots=tuple(bots), variant=variant, players=players, teams=teams, seed=seed or 0,
                         move_timeout=move_timeout)
    rules = check_config(config)
    if seed is None:
        seed = _fresh_or_recorded_seed(out, config)
        config = replace(config, seed=seed)
    games = -(-games // rules.teams) * rules.teams
    test, tracker = _sprt_tracker(sprt, rules.teams)
    bar = Progress(games, bots[0], _progress_enabled(progress))
    feed = tracker[1] if tracker else None

    def on_records(records):
        bar.update(records)
        return feed(records) if feed else False

    client = _dask_backend(scheduler) if backend == "dask" else None
    started = time.perf_counter()
    try:
        records = run_games(config, games, jobs=jobs, out=out, on_records=on_records, backend=backend)
    except KeyboardInterrupt:
        interrupted(bar, out, "FILE", f" after {bar.done} games")
    finally:
        if client is not None:
            client.close()
    bar.close()
    seconds = time.perf_counter() - started
    sprt_info = None
    if tracker:
        state = tracker[0]
        if state["decided_at"] is not None:
            records = [r for r in records if r["game"] < state["decided_at"]]
        lower, upper = test.bounds
        sprt_info = {"spec": sprt, "llr": state["llr"], "lower": lower, "upper": upper,
                     "decision": state["decision"] or "undecided"}
    summary = summarize_match(records, config.bots, seconds)
    summary.update(seed=seed, variant=str(rules.variant), players=rules.players, teams=rules.teams, sprt=sprt_info)
    if out:
        summary["out"] = out
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(f"match {' vs '.join(bots)} — {rules.variant}, {rules.players} players, {rules.teams} sides, seed {seed}")
        click.echo(format_match(summary, _colours(rules.teams)))


def interrupted(bar, out: str | None, kind: str, progress: str = "") -> NoReturn:
    """Ctrl-C during a run: what is written stays; the group prints one line on how
    to resume and exits with SIGINT's code (see :class:`~seqsolve.cli.Interrupted`)."""
    from .cli import Interrupted

    bar.close()
    where = f"; rerun the same command to resume from {out}" if out else f" (use --out {kind} to keep and resume games)"
    raise Interrupted(f"interrupted{progress}{where}")


def _fresh_or_recorded_seed(out: str | None, config: MatchConfig) -> int:
    """No --seed: the seed of the same match in ``out`` (so the same command
    resumes it, and says so on stderr), else a fresh one."""
    found = recorded_seed(out, config) if out else None
    if found is None:
        return secrets.randbelow(2**31)
    click.echo(f"seed {found} (from {out})", err=True)
    return found


def _colours(sides: int) -> str:
    return "bgr"[:sides]


@click.command(epilog="""\b
Examples:
  seqsolve tournament random greedy heuristic --games 200
  seqsolve tournament greedy heuristic mcts:iters=1000 --games 100 --out results/ --json
""")
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True, help="Games per pairing.")
@game_options(where="the --out folder")
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Folder for one record file per pairing (resumable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: ratings, scores, results.")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr (default: when stderr is a terminal).")
def tournament(bots, games, jobs, seed, variant, players, teams, out, as_json, progress):
    """Round robin between BOTS (paired deals), a Bradley–Terry rating table with
    95% intervals, and the pairwise score matrix."""
    from .stats import bradley_terry

    if len(bots) < 2:
        raise click.UsageError("a tournament needs at least two bots")
    if len(set(bots)) != len(bots):
        raise click.UsageError("each bot may appear once in a tournament")
    for spec in bots:
        make_bot(spec).close()
    pairings = [(bots[i], bots[j]) for i in range(len(bots)) for j in range(i + 1, len(bots))]

    def pairing(k: int, base: int) -> tuple[MatchConfig, str | None]:
        a, b = pairings[k]
        config = MatchConfig(bots=(a, b), variant=variant, players=players, teams=teams, seed=base + 1000003 * k)
        return config, os.path.join(out, f"{_slug(a)}-vs-{_slug(b)}.jsonl") if out else None

    first, first_path = pairing(0, 0)
    check_config(first)  # every pairing shares the rules: refuse them before a folder is made
    if seed is None:  # the first pairing's records, when there are some, hold the seed
        seed = _fresh_or_recorded_seed(first_path, first)
    if out:
        os.makedirs(out, exist_ok=True)
    results: dict[tuple[str, str], tuple[int, int, int]] = {}
    matrix: dict[str, dict[str, float]] = {a: {} for a in bots}
    started = time.perf_counter()
    for k, (a, b) in enumerate(pairings):
        config, path = pairing(k, seed)
        rules = check_config(config)
        n = -(-games // rules.teams) * rules.teams
        bar = Progress(n, f"{a} vs {b}", _progress_enabled(progress))
        try:
            records = run_games(config, n, jobs=jobs, out=path, on_records=bar.update)
        except KeyboardInterrupt:
            interrupted(bar, out, "DIR", f" in {a} vs {b}")
        bar.close()
        s = summarize_match(records, (a, b))
        results[(a, b)] = (s["wins"][a], s["draws"], s["wins"][b])  # specs are unique here
        matrix[a][b] = s["score"]
        matrix[b][a] = 1 - s["score"]
    ratings = bradley_terry(results)
    table = sorted(ratings.items(), key=lambda kv: -kv[1][0])
    report = {
        "bots": list(bots),
        "games_per_pairing": games,
        "seed": seed,
        "variant": variant,
        "ratings": [{"bot": name, "elo": r[0], "elo_ci": [r[1], r[2]]} for name, r in table],
        "scores": matrix,
        "results": [{"a": a, "b": b, "wins_a": w, "draws": d, "wins_b": l} for (a, b), (w, d, l) in results.items()],
        "seconds": time.perf_counter() - started,
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"tournament — {variant}, {players} players, {games} games per pairing, seed {seed}")
    click.echo("Bradley–Terry ratings (Elo scale, mean 0, 95% CI):")
    for name, (elo, low, high) in table:
        click.echo(f"  {name:<28} {elo:+7.0f}  [{low:+.0f}, {high:+.0f}]")
    click.echo("score of row against column:")
    width = max(len(b) for b in bots) + 2
    click.echo(" " * width + "".join(f"{b[:10]:>12}" for b in bots))
    for a in bots:
        cells = "".join(f"{'—':>12}" if a == b else f"{100 * matrix[a][b]:>11.1f}%" for b in bots)
        click.echo(f"{a:<{width}}{cells}")


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec)[:60]


@click.command(epilog="""\b
Examples:
  seqsolve replay games.jsonl --game 3
  seqsolve replay games.jsonl --game 3 --ply 40 --to readable > pos.txt
""")
@click.argument("records", type=click.Path(dir_okay=False))
@click.option("--game", "-g", type=int, required=True, help="Game number (as in the records).")
@click.option("--ply", "-p", type=int, default=None, help="Write the position after this many actions.")
@click.option("--to", "fmt", type=click.Choice(["sqn", "readable", "json"]), default="sqn", show_default=True)
def replay(records, game, ply, fmt):
    """Print a recorded game move by move, or the position at a given ply."""
    from .notation import position_to_dict, to_readable, to_sqn
    from .state import State

    header, games = read_records(records)
    found = [r for r in games if r["game"] == game]
    if not found:
        raise click.UsageError(f"{records} has no game {game} (it holds {len(games)} games)")
    r = found[0]
    rules = Variant.parse(r["variant"]).resolve(r["players"], r["teams"])
    state = State.new(rules, seed=deal_seed(r["seed"], r["deal"]))
    if ply is not None and not 0 <= ply <= len(r["moves"]):
        raise click.UsageError(f"--ply must be 0..{len(r['moves'])} for game {game}")
    lines = []
    for k, move in enumerate(r["moves"][: ply if ply is not None else None]):
        seat = state.current_player
        state.apply(move)
        lines.append(f"{k + 1:>4}. seat {seat} ({r['seats'][seat]}): {move}")
    if ply is not None:
        pos = state.to_position()
        text = {"sqn": lambda: to_sqn(pos), "readable": lambda: to_readable(pos).rstrip("\n"),
                "json": lambda: json.dumps(position_to_dict(pos), indent=2)}[fmt]()
        click.echo(text)
        return
    click.echo(f"game {game}: {r['variant']}, seats {' '.join(r['seats'])}")
    click.echo("\n".join(lines))
    click.echo(f"result: {r['result']} ({r['termination']}) after {r['turns']} turns")


@click.command(name="bots")
@click.option("--json", "as_json", is_flag=True)
def bots_command(as_json):
    """List the bots and their parameters (use them as 'name:key=value,...')."""
    classes = bot_classes()
    if as_json:
        click.echo(json.dumps({name: {"summary": cls.summary, "params": {
            k: {"type": p.kind.__name__, "default": p.default, "help": p.help} for k, p in cls.params.items()}}
            for name, cls in classes.items()}, indent=2))
        return
    for name, cls in classes.items():
        click.echo(f"{name:<10} {cls.summary}")
        settings = [f"{key}={p.default!s}" for key, p in cls.params.items()]
        width = max(map(len, settings), default=0)
        for setting, p in zip(settings, cls.params.values()):
            click.echo(f"    {setting:<{width}}  {p.help}")


COMMANDS = [match, tournament, replay, bots_command]
