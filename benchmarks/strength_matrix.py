"""The strength matrix: every built-in bot against greedy and against heuristic,
on every preset and every seating class the preset allows.

A claim about a bot holds only for the presets and seatings it was measured on
(a bot that was better on ``classic`` once lost 90% of its games on ``draft``),
so this covers them all: for each preset, 2 players, 3 players, 4 players in 2
teams and 6 players in 3 teams where the rules allow them.  Games are paired
deals (every shuffle played once per side with the bots rotated), played
through the same code as ``seqsolve match``; each cell gives the first bot's
score with its 95% interval, the fair share (1/sides), and the bot's mean and
worst thinking time per move, in CPU seconds of the thread that thought (so a
busy machine does not inflate it; wall time is kept in the JSON).

Usage::

    python benchmarks/strength_matrix.py                       # everything, then prints the table
    python benchmarks/strength_matrix.py --write               # ... and puts it into RESULTS.md
    python benchmarks/strength_matrix.py --quick --presets draft --bots heuristic,mcts
    python benchmarks/strength_matrix.py --compare mcts:widen=0.5,mcts   # an idea against the default, deal by deal

Every finished cell is appended to ``--cache`` (JSON lines, default
benchmarks/strength_matrix.jsonl, not committed); ``--resume`` reuses the cells
already there (same seed, at least as many games), so an interrupted run goes on
where it stopped.  Without it the cache starts empty.
Every cell is seeded (``--seed``); bots with an iteration budget give the same
games on every machine, a bot with a time budget (``time=``) does not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass

from joblib import Parallel, delayed

from seqsolve.bots import make_bot
from seqsolve.games.sequence.rules import Variant
from seqsolve.play.config import MatchConfig, check_config
from seqsolve.play.match import play_game
from seqsolve.play.report import _deal_scores, summarize_match
from seqsolve.stats import mean_interval, paired_score_interval

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "RESULTS.md")
START, END = "<!-- strength-matrix:start -->", "<!-- strength-matrix:end -->"

PRESETS = ("classic", "seed000", "seed002-literal", "numbers", "numbers-seed001-literal", "draft")
SEATINGS = ((2, None), (3, None), (4, 2), (6, 3))
OPPONENTS = ("greedy", "heuristic")
#: the bots and the games per cell (rounded up to whole deals: 2 games a deal with 2 sides, 3 with 3)
BOTS = {
    "random": 200,
    "greedy": 600,
    "heuristic": 600,
    "mcts": 120,
    "rollout:time=0.1": 60,
    "search": 120,
}


def seatings(preset: str) -> list[tuple[int, int | None]]:
    """The seating classes the preset's rules accept."""
    out = []
    for players, teams in SEATINGS:
        try:
            Variant.parse(preset).resolve(players, teams)
        except ValueError:
            continue
        out.append((players, teams))
    return out


class TimedBot:
    """A bot whose ``choose`` is timed (CPU time of the calling thread, and wall time)."""

    def __init__(self, bot):
        self.bot = bot
        self.cpu = self.wall = self.worst = 0.0
        self.moves = 0

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def choose(self, observation, rng):
        cpu, wall = time.thread_time(), time.perf_counter()
        action = self.bot.choose(observation, rng)
        spent = time.thread_time() - cpu
        self.cpu += spent
        self.wall += time.perf_counter() - wall
        self.worst = max(self.worst, spent)
        self.moves += 1
        return action


def _play(config: MatchConfig, games: list[int]) -> tuple[list[dict], dict]:
    bots = [TimedBot(make_bot(spec)) for spec in config.bots]
    try:
        records = [play_game(config, g, bots, moves=False) for g in games]
    finally:
        for bot in bots:
            bot.close()
    a = bots[0]
    return records, {"cpu": a.cpu, "wall": a.wall, "worst": a.worst, "moves": a.moves}


@dataclass(frozen=True)
class Cell:
    bot: str
    opponent: str
    preset: str
    players: int
    teams: int | None

    @property
    def key(self) -> str:
        return f"{self.bot} vs {self.opponent} | {self.preset} | {self.players}p{self.teams or ''}"


def play_cell(cell: Cell, games: int, seed: int, jobs: int) -> dict:
    config = MatchConfig(
        bots=(cell.bot, cell.opponent), variant=cell.preset, players=cell.players, teams=cell.teams, seed=seed
    )
    rules = check_config(config)
    per = config.games_per_deal
    games = max(per, -(-games // per) * per)
    n_jobs = max(1, min(jobs if jobs > 0 else (os.cpu_count() or 1), games // per))
    deals = list(range(games // per))
    parts = [deals[i :: n_jobs * 4] for i in range(min(len(deals), n_jobs * 4))]
    started = time.perf_counter()
    done = Parallel(n_jobs=n_jobs)(
        delayed(_play)(config, [d * per + k for d in part for k in range(per)]) for part in parts
    )
    seconds = time.perf_counter() - started
    records = sorted((r for rs, _ in done for r in rs), key=lambda r: r["game"])
    summary = summarize_match(records, config.bots, seconds)
    moves = sum(t["moves"] for _, t in done)
    row = {
        "key": cell.key,
        "bot": cell.bot,
        "opponent": cell.opponent,
        "preset": cell.preset,
        "players": cell.players,
        "teams": cell.teams,
        "sides": rules.teams,
        "fair": 1 / rules.teams,
        "games": summary["games"],
        "score": summary["score"],
        "score_ci": summary["score_ci"],
        "draws": summary["draws"],
        "seed": seed,
        "deal_scores": _deal_scores(records),
        "cpu_per_move": sum(t["cpu"] for _, t in done) / max(1, moves),
        "wall_per_move": sum(t["wall"] for _, t in done) / max(1, moves),
        "worst_cpu_per_move": max(t["worst"] for _, t in done),
        "seconds": seconds,
    }
    return row


def verdict(row: dict) -> str:
    """'above', 'below' or 'even': where the 95% interval lies against the fair share."""
    low, high = row["score_ci"]
    if low > row["fair"]:
        return "above"
    if high < row["fair"]:
        return "below"
    return "even"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}" if seconds < 0.01 else f"{seconds * 1000:.0f}"


def table(rows: list[dict]) -> str:
    lines = [
        "| preset | seating | bot | vs | games | score | 95% CI | fair | verdict | ms/move (mean, worst) |",
        "|---|---|---|---|---:|---:|---|---:|---|---|",
    ]
    order = {p: i for i, p in enumerate(PRESETS)}
    for r in sorted(rows, key=lambda r: (order.get(r["preset"], 99), r["players"], r["opponent"], r["bot"])):
        seating = f"{r['players']}p" + (f" ({r['teams']} teams)" if r["teams"] else "")
        low, high = r["score_ci"]
        lines.append(
            f"| {r['preset']} | {seating} | `{r['bot']}` | `{r['opponent']}` | {r['games']} | "
            f"{r['score']:.1%} | [{low:.1%}, {high:.1%}] | {r['fair']:.1%} | {verdict(r)} | "
            f"{_ms(r['cpu_per_move'])}, {_ms(r['worst_cpu_per_move'])} |"
        )
    return "\n".join(lines)


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def write_results(rows: list[dict], command: str) -> None:
    with open(RESULTS, encoding="utf-8") as fh:
        text = fh.read()
    body = (
        f"{START}\n"
        f"Regenerate: `{command}` ({time.strftime('%Y-%m-%d')}, {machine()}). "
        "Score of the first bot with the 95% paired-deal interval; verdict: the interval above, "
        "below or around the fair share 1/sides; time per move in CPU milliseconds of the bot's thread.\n\n"
        f"{table(rows)}\n{END}"
    )
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + body + rest.split(END, 1)[1]
    else:
        text = (
            text.rstrip("\n")
            + "\n\n## Strength matrix (every bot, every preset, every seating)\n\n"
            + body
            + "\n"
        )
    with open(RESULTS, "w", encoding="utf-8") as fh:
        fh.write(text)


#: what every cell of the cache holds and --resume (its table), --pool or --compare read
CELL_FIELDS = (
    "key",
    "bot",
    "opponent",
    "preset",
    "players",
    "teams",
    "seed",
    "games",
    "deal_scores",
    "score",
    "score_ci",
    "fair",
    "cpu_per_move",
    "worst_cpu_per_move",
)


class CacheError(Exception):
    """A cache file that cannot be read, named with the line at fault."""


def cache_rows(path: str) -> list[dict]:
    """The finished cells in a cache file, in the order they were written; a line
    that is not one is an error naming the file and the line (a cell is appended
    in one small write once it is finished, so an interrupted run leaves none)."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise CacheError(f"{path}: cannot read the cache: {exc.strerror or exc}") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CacheError(f"{path}:{number}:{exc.colno}: not a cell of the cache: {exc.msg}") from None
        missing = [name for name in CELL_FIELDS if not isinstance(row, dict) or name not in row]
        if missing:
            raise CacheError(f"{path}:{number}: not a cell of the cache: no {', '.join(missing)}")
        rows.append(row)
    return rows


def pooled(path: str) -> list[str]:
    """Each cell played on several seeds, its deals pooled into one score and interval.

    A target is judged on one figure over every game played for it; the deals of
    different seeds are independent, so they pool as one paired sample.
    """
    by_key: dict[str, dict[int, dict]] = {}
    for row in cache_rows(path):
        by_key.setdefault(row["key"], {})[row["seed"]] = row
    lines = []
    for key, runs in by_key.items():
        if len(runs) < 2:
            continue
        deals = [s for row in runs.values() for s in row["deal_scores"]]
        score, low, high = paired_score_interval(deals)
        games = sum(row["games"] for row in runs.values())
        worst = max(row["worst_cpu_per_move"] for row in runs.values())
        lines.append(
            f"{key}: {score:.1%} [{low:.1%}, {high:.1%}], {games} games, seeds "
            f"{', '.join(map(str, sorted(runs)))}, worst {_ms(worst)} ms/move"
        )
    return lines


def compared(path: str, first: str, second: str) -> list[str]:
    """The paired difference between two bots on the same deals, cell by cell.

    Two bots measured on the same seed met the same shuffles, deal by deal, so
    the difference of their deal scores leaves out what a deal does to both: it
    is what an "idea A beats the default B" claim rests on. (How much narrower
    its interval is than the two scores' side by side depends on the game: on
    classic with 2 players, hardly, for the cards decide most games whoever
    holds them; see benchmarks/RESULTS.md, "Experiments: the search on classic
    and the blind draw".) A deal's streams are
    keyed by its index, so a shorter run's deals are the first ones of a longer
    run on the same seed; the deals both bots played are compared, over every
    seed both were played on.
    """
    by_cell: dict[tuple, dict[str, dict[int, dict]]] = {}
    for row in cache_rows(path):
        if row["bot"] in (first, second):
            cell = (row["opponent"], row["preset"], row["players"], row["teams"])
            runs = by_cell.setdefault(cell, {}).setdefault(row["bot"], {})
            if len(row["deal_scores"]) >= len(runs.get(row["seed"], {}).get("deal_scores", ())):
                runs[row["seed"]] = row
    lines = []
    for (opponent, preset, players, teams), bots in by_cell.items():
        seeds = sorted(set(bots.get(first, {})) & set(bots.get(second, {})))
        if not seeds:
            continue
        a, b = [], []
        for seed in seeds:
            x, y = bots[first][seed]["deal_scores"], bots[second][seed]["deal_scores"]
            n = min(len(x), len(y))
            a += x[:n]
            b += y[:n]
        if not a:
            continue
        diff, low, high = mean_interval(p - q for p, q in zip(a, b))
        seating = f"{players}p" + (f" ({teams} teams)" if teams else "")
        lines.append(
            f"{first} - {second} vs {opponent} | {preset} | {seating}: {diff:+.1%} [{low:+.1%}, {high:+.1%}] "
            f"over {len(a)} deals (seeds {', '.join(map(str, seeds))}); "
            f"{sum(a) / len(a):.1%} against {sum(b) / len(b):.1%}"
        )
    return lines


def split_specs(text: str) -> list[str]:
    """Bot specs from one comma-separated list. A spec's options are comma-separated
    too, so a piece of the form ``key=value`` continues the spec before it: splitting
    at every comma would turn ``mcts:others=1,top=4`` into two bots, quietly."""
    specs: list[str] = []
    for piece in text.split(","):
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--bots",
        help="comma-separated bot specs; a spec's own options may follow it "
        "(mcts:eps=1,k=8,heuristic is two bots) (default: " + ", ".join(BOTS) + ")",
    )
    ap.add_argument("--opponents", default=",".join(OPPONENTS))
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--players", default="2,3,4,6", help="the seating classes to play, by player count")
    ap.add_argument("--games", type=int, help="games per cell, rounded up to whole deals (default: per bot)")
    ap.add_argument("--quick", action="store_true", help="a quarter of the games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--cache", default=os.path.join(HERE, "strength_matrix.jsonl"))
    ap.add_argument("--resume", action="store_true", help="reuse the cells already in the cache")
    ap.add_argument("--write", action="store_true", help="put the table into RESULTS.md")
    ap.add_argument(
        "--pool",
        action="store_true",
        help="print each cell of the cache played on several seeds, pooled, and stop",
    )
    ap.add_argument(
        "--compare",
        metavar="A,B",
        help="print bot A's score minus bot B's on the deals both played, cell by cell, "
        "from the cache, and stop",
    )
    args = ap.parse_args()
    try:
        run(ap, args)
    except CacheError as exc:
        sys.exit(f"strength_matrix.py: {exc}")


def run(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.compare:
        pair = split_specs(args.compare)
        if len(pair) != 2:
            ap.error(f"--compare takes two bot specs, got {len(pair)}: {args.compare!r}")
        print("\n".join(compared(args.cache, *pair)) or "no cell has both bots on a common seed")
        return
    if args.pool:
        print("\n".join(pooled(args.cache)))
        return
    bots = split_specs(args.bots) if args.bots else list(BOTS)
    cached: dict[str, dict] = {}
    if not args.resume:
        open(args.cache, "w").close()
    elif os.path.exists(args.cache):
        cached = {row["key"]: row for row in cache_rows(args.cache)}
    rows = []
    cells = [
        Cell(bot, opp, preset, players, teams)
        for preset in args.presets.split(",")
        for players, teams in seatings(preset)
        if str(players) in args.players.split(",")
        for opp in split_specs(args.opponents)
        for bot in bots
        if bot != opp
    ]
    for i, cell in enumerate(cells, 1):
        games = args.games or BOTS.get(cell.bot, 120)
        if args.quick:
            games = max(12, games // 4)
        if (
            cell.key in cached
            and cached[cell.key]["seed"] == args.seed
            and cached[cell.key]["games"] >= games
        ):
            rows.append(cached[cell.key])
            continue
        row = play_cell(cell, games, args.seed, args.jobs)
        rows.append(row)
        with open(args.cache, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        low, high = row["score_ci"]
        print(
            f"[{i}/{len(cells)}] {cell.key}: {row['score']:.1%} [{low:.1%}, {high:.1%}] "
            f"({verdict(row)}, {row['games']} games, {_ms(row['cpu_per_move'])} ms/move, "
            f"{row['seconds']:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    print(table(rows))
    if args.write:
        write_results(rows, "python benchmarks/strength_matrix.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
