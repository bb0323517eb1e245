"""Commands that analyse: ``analyze`` (a position file) and ``annotate`` (a recorded game).

The logic lives in :mod:`seqsolve.analysis`; these commands read the input,
print a table (or one JSON object with ``--json``) and leave bad input to the
group's one-line error handling.  Progress goes to stderr.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import click

from ..analysis.depends import DEPENDS_TOP
from ..analysis.proof import DEFAULT_PROOF_TURNS
from ..games import game_for
from .errors import CliError, Interrupted
from .options import (
    FILE_PATH,
    FOLDER_PATH,
    GAME_OPTION,
    PROBABILITY,
    SECONDS,
    fresh_seed,
    jobs_option,
    json_option,
    option_group,
    progress_option,
    recorded_game,
    seed_option,
)
from .pictures import (
    PICTURE_TOP,
    check_picture,
    check_pictures,
    draw_picture,
    marks_from_analysis,
    picture_options,
    win_label,
    write_pictures,
)
from .position import load_position
from .progress import Progress, progress_enabled

if TYPE_CHECKING:  # the analysis (numpy, the compiled core) is imported by the commands
    from ..analysis.results import Analysis


def _pct(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _interval(ci) -> str:
    return "-" if ci is None else f"{ci[0]:.3f}-{ci[1]:.3f}"


def _runs(a: Analysis) -> str:
    """What --jobs ran side by side: trees, or threads sharing the worlds."""
    kind = "thread" if a.unit == "worlds" else "tree"
    return kind + ("s" if a.jobs != 1 else "")


def format_analysis(a: Analysis, top: int | None = None) -> str:
    """The text report of an analysis (ends with a newline)."""
    side_name = game_for(a.variant).side_name
    mover = f"seat {a.to_move} ({side_name(a.side)})"
    info = (
        "open: every card known"
        if a.open_information
        else f"hidden cards dealt at random as seat {a.to_move} sees them"
    )
    lines = [
        f"analysis   {a.variant}, {a.players} players ({a.teams} sides); {mover} to move, turn {a.turn}",
        (
            f"search     {a.search}: {a.iterations} {a.unit}, {a.jobs} {_runs(a)}, seed {a.seed},"
            f" {a.seconds:.2f} s; {info}"
        ),
        "",
    ]
    moves = a.moves if not top else a.moves[:top]
    width = max([len(m.move) for m in moves] + [4])
    lines.append(f"  #  {'turn':<{width}}   share    win   search noise  continuation")
    for k, m in enumerate(moves, 1):
        tag = (
            " (wins now)"
            if m.exact == "win"
            else " (wins now unless blocked)"
            if m.exact == "win_unless_blocked"
            else f" ({m.proof.words()})"
            if m.proof
            else " (blocks)"
            if m.block
            else ""
        )
        line = m.pv if m.proof is None or m.exact == "win" else m.proof.line
        lines.append(
            f"{k:>3}  {m.move:<{width}}  {100 * m.share:5.1f}%  {_pct(m.win)}  {_interval(m.win_ci):<12}  "
            f"{', '.join(line)}{tag}"
        )
        lines.extend(_hidden_lines(m, width))
    if top and len(a.moves) > top:
        lines.append(f"     … {len(a.moves) - top} more legal turns (--top 0 lists them all)")
    lines.append("")
    if a.calibration is not None:
        lines.append(
            f"win        calibrated on games of the default search ({a.calibration.setup}); "
            "the search's own estimate is win_raw in --json"
        )
    t = a.tactics
    if t.win_in_one:
        lines.append(f"exact      {side_name(a.side)} wins now with {', '.join(t.win_in_one)}")
    if t.unless_blocked:
        lines.append(
            f"exact      {side_name(a.side)} wins now unless blocked with {', '.join(t.unless_blocked)}"
        )
    if t.threats:
        lines.append("threats    next turn: " + "; ".join(t.notes))
        if t.blocks:
            lines.append(f"blocks     {', '.join(t.blocks)}")
        elif t.no_block:
            what = (
                "decision leaves no possible winning completion"
                if t.decisions
                else "turn stops every possible winning placement"
            )
            lines.append(f"blocks     none: no {what}")
    if not t.win_in_one and not t.unless_blocked and not t.threats and t.looked:
        lines.append("exact      no side can win on its next turn")
    lines.extend(_proof_lines(a, side_name(a.side)))
    if a.threats is not None:
        lines.append("sides")
        for side in a.threats:
            lines.extend(side.lines())
    return "\n".join(lines).rstrip("\n") + "\n"  # a game without exact facts ends with the table


def _hidden_lines(m, width: int) -> list[str]:
    """Under a turn: what its outcome depends on in the dealt worlds, and the draws that
    would win the next turn (see :mod:`seqsolve.analysis.depends`)."""
    pad = " " * 5
    lines = [f"{pad}depends: {d.words()}" for d in m.depends or []]
    draws = m.winning_draws
    if draws and draws["cells"]:
        cards = " ".join(draws["cards"])
        held = f"; holds {' '.join(draws['held'])} already" if draws["held"] else ""
        lines.append(
            f"{pad}draws:   {cards} win next turn on {' '.join(draws['cells'])} if still open:"
            f" {draws['copies']} of {draws['of']} unseen cards, {100 * draws['chance']:.1f}%{held}"
        )
    return lines


def _proof_lines(a: Analysis, side: str) -> list[str]:
    """The proven results in one or two lines (wins in one are the ``exact`` line's)."""
    wins = [m for m in a.moves if m.proof is not None and m.proof.result == "win" and m.proof.turns > 1]
    losses = [m for m in a.moves if m.proof is not None and m.proof.result == "loss"]
    lines = []
    if wins:
        fastest = min(m.proof.turns for m in wins)
        best = [m.move for m in wins if m.proof.turns == fastest]
        lines.append(f"proof      {side} wins by force in {fastest} turns with {', '.join(best)}")
    if losses and len(losses) == len(a.moves):
        slowest = max(m.proof.turns for m in losses)
        lines.append(f"proof      {side} loses by force within {_count(slowest, 'turn')} whatever it plays")
    elif losses:
        lines.append(
            f"proof      {_count(len(losses), 'turn')} lose by force: {', '.join(m.move for m in losses)}"
        )
    return lines


def search_options(iters: str, seconds: str, jobs: str):
    """The search budget and seed options analyze and annotate share; ``iters``,
    ``seconds`` and ``jobs`` say what each means for the command."""
    options = [
        click.option("--iters", type=click.IntRange(1, 10**9), default=None, help=iters),
        click.option(
            "--time", "seconds", type=SECONDS, default=None, help=f"{seconds.rstrip('.')} (0 < s <= 86400)."
        ),
        seed_option("the search (hidden cards, playouts)"),
        jobs_option(f"{jobs.rstrip('.')}; -1 = one per core.", default=1),
    ]
    return option_group(options)


def _threads(jobs: int) -> int:
    """--jobs of analyze and annotate counts threads: -1 is one per core."""
    return (os.cpu_count() or 1) if jobs == -1 else jobs


ANALYZE_EPILOG = """\b
Examples:
  seqsolve analyze game.sqn                      rank every turn of the side to move
  seqsolve analyze example:2 --top 5 --iters 200000
  seqsolve analyze game.sqn --time 5 --jobs 4    four root-parallel trees for 5 s
  seqsolve analyze example:4 --open              every card known: perfect information
  seqsolve analyze game.sqn mcts:c=0.5,depth=8 --seed 3 --json
  seqsolve analyze game.sqn --to svg --out best.svg   the best 3 turns marked on the board
"""


@click.command(epilog=ANALYZE_EPILOG)
@click.argument("file")
@click.argument("bot", default="search", required=False)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="List only the best K turns (0: all).",
)
@search_options(
    iters="A rollout search's worlds (default 400); a tree's iterations in all (default 50000, or the bot spec's).",
    seconds="Search seconds (wall clock; per tree where a tree search runs several).",
    jobs="Threads: a rollout search shares its worlds among them; a tree search grows one tree each.",
)
@click.option(
    "--open",
    "open_information",
    is_flag=True,
    help="Perfect information: every hand and the draw order must be listed.",
)
@click.option(
    "--prove",
    type=click.IntRange(0, 6),
    default=DEFAULT_PROOF_TURNS,
    show_default=True,
    help="Turns deep the proof search of forced wins and losses looks (0: no proofs).",
)
@click.option(
    "--depends",
    type=click.IntRange(0, 20),
    default=DEPENDS_TOP,
    show_default=True,
    help="Best turns shown with what the hidden cards decide and the draws that win next turn (0: none).",
)
@json_option("one JSON object")
@picture_options(
    f"the position with the best --top turns (default {PICTURE_TOP}) marked by their win chances"
)
@progress_option("A line when the search starts")
def analyze(
    file,
    top,
    iters,
    seconds,
    bot,
    seed,
    jobs,
    open_information,
    prove,
    depends,
    as_json,
    picture,
    out,
    progress,
):
    """Rank every legal turn of the side to move in the position FILE.

    BOT is the search (default search: rollouts cut at 12 actions, mcts in the
    draft variant), or an mcts or rollout spec, e.g. mcts:c=0.5,depth=8
    or rollout:depth=12 (a rollout search plays every legal turn out in the same
    worlds; its budget, --iters, counts worlds).

    For each turn (a dead-card exchange counts as part of the turn: '~5S 9H@i3'):
    its share of the search, its estimated win probability with a 95% interval
    of the search's own noise (how settled the estimate is, not how right: the
    error of the playouts is not in it), and the expected continuation.  Turns proven to win by force (whatever
    cards the others hold, counting on no card drawn later) come first, with the
    line of the proof; turns after which an opponent wins by force come last.
    Only a proven turn shows win 1.000 or 0.000: an estimate stays within
    0.001-0.999.  The default search at its default budget calibrates its
    estimates on games of the default search against itself, where a map was
    fitted (classic 2 players with the last play recorded, draft 2 players,
    classic 4 players in 2 teams; the report says so).  Turns that win at once come first (win 1);
    when another side could win on its next turn, the turns that block it come
    next.  Exchanging a dead card never hurts, so an exchange is shown with the
    best play after it, just above that play, its win raised by the exact chance
    that the replacement wins at once.  Under each of the best --depends
    turns (not proven): the opponents' holdings that decide it (a proof on the
    condition that they lack a card, or win chances with and without it over
    dealt worlds) and the draws that would win the next turn.  Below the table: threats of every side (windows one and two cards from
    completion, the cards that complete them and whether they are live, dead
    cards).  Unseen cards are dealt at random, as the side to move could imagine
    them, unless --open.  With the same --seed and --jobs (and an iteration
    budget) the result is the same on every run.
    """
    from ..analysis.search import analyze

    check_picture(picture, out, as_json)
    seed = fresh_seed() if seed is None else seed
    state = load_position(file, seed)
    if progress_enabled(progress):
        click.echo(f"analyzing {file}: searching (Ctrl-C stops) ...", err=True)
    result = analyze(
        state,
        bot=bot,
        iterations=iters,
        seconds=seconds,
        seed=seed,
        jobs=_threads(jobs),
        open_information=open_information,
        prove=prove,
        depends=depends,
    )
    if picture is not None:
        draw_picture(state, picture, out, marks=marks_from_analysis(result.to_dict(top or PICTURE_TOP)))
    elif as_json:
        click.echo(json.dumps(result.to_dict(top or None), indent=2))
    else:
        click.echo(format_analysis(result, top or None), nl=False)


ANNOTATE_EPILOG = """\b
Examples:
  seqsolve match random greedy --games 10 --seed 1 --out games.jsonl
  seqsolve annotate games.jsonl --game 3
  seqsolve annotate games.jsonl --game 3 --seat 0 --iters 10000 --all
  seqsolve annotate games.jsonl --game 3 --mistake 0.05 --blunder 0.2 --jobs 2 --json
  seqsolve annotate games.jsonl --game 3 --pictures game3    an SVG per mistake and blunder
"""


@click.command(epilog=ANNOTATE_EPILOG)
@click.argument("records", type=FILE_PATH)
@click.argument("bot", default="search", required=False)
@GAME_OPTION
@click.option(
    "--seat",
    "seats",
    type=int,
    multiple=True,
    help="Analyse only this seat's moves (repeatable; default all).",
)
@search_options(
    iters="A rollout search's worlds per decision (default 100); a tree's iterations (default 4000).",
    seconds="Seconds per decision.",
    jobs="Decisions analysed side by side (threads).",
)
@click.option(
    "--mistake",
    type=PROBABILITY,
    default=0.1,
    show_default=True,
    help="Win-probability drop that makes a mistake.",
)
@click.option(
    "--blunder",
    type=PROBABILITY,
    default=0.25,
    show_default=True,
    help="Drop that makes a blunder.",
)
@click.option("--open", "open_information", is_flag=True, help="Judge with every card known (hindsight).")
@click.option(
    "--all", "show_all", is_flag=True, help="List every analysed decision, not only the marked ones."
)
@json_option("one JSON object (every decision)")
@click.option(
    "--pictures",
    type=FOLDER_PATH,
    default=None,
    help="Draw each mistake and blunder into this folder (made if its parent exists): "
    "the position as the seat saw it, the turn played and the better one marked.",
)
@progress_option()
def annotate(
    records,
    game,
    seats,
    iters,
    seconds,
    bot,
    seed,
    jobs,
    mistake,
    blunder,
    open_information,
    show_all,
    as_json,
    pictures,
    progress,
):
    """Walk a recorded game and mark the mistakes and blunders, with the better turn.

    Each decision of the chosen seats is analysed from what that seat could see
    at the time; the drop is the best turn's estimated win probability minus
    that of the turn played.  Results depend on --seed and the budget, never on --jobs.
    BOT is the search (default search: rollouts cut at 12 actions, mcts in the
    draft variant), or an mcts or rollout spec, e.g. mcts:c=0.5,depth=8
    or rollout:depth=12 (a rollout search plays every legal turn out in the same
    worlds; its budget, --iters, counts worlds).
    """
    from ..analysis.annotate import annotate_record

    record, where = recorded_game(records, game)
    if pictures is not None:  # refused now, made only once the analysis is done
        check_pictures(pictures, record)
    costly = []
    bar = Progress(progress_enabled(progress), unit="decisions")

    def report(done: int, total: int) -> None:
        if done == 0:
            bar.start(f"annotating game {game}", total)
        bar.advance(done - bar.done)

    try:
        result = annotate_record(
            record,
            seats=seats or None,
            bot=bot,
            iterations=iters,
            seconds=seconds,
            seed=fresh_seed() if seed is None else seed,
            jobs=_threads(jobs),
            mistake=mistake,
            blunder=blunder,
            open_information=open_information,
            progress=report,
            where=where,
            marked=lambda decision, view: costly.append((decision, view)),
        )
    except KeyboardInterrupt:
        bar.close()
        raise Interrupted(f"interrupted after {bar.done} of {bar.total} decisions") from None
    bar.close()
    failed = None
    if pictures is not None:
        result["pictures"], failed = write_pictures(
            pictures, [_costly_picture(d, view) for d, view in costly]
        )
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(format_annotation(result, show_all), nl=False)
    if failed:  # the analysis is out; the pictures that could not be written make the exit 1
        raise CliError(failed)


def _marks(decision: dict) -> str:
    """A decision's mark, and the forced win it missed."""
    marks = [decision["mark"]] if decision["mark"] else []
    if decision.get("missed_win"):
        marks.append(f"missed a forced win in {decision['missed_win']}")
    return ", ".join(marks)


def _costly_picture(decision: dict, view) -> tuple:
    """A marked decision's picture: its name, the view, the better turn and the one played."""
    marks = [
        {"move": decision["best"], "label": f"better {win_label(decision['win_best'])}"},
        {"move": decision["played"], "label": f"played {win_label(decision['win_played'])}"},
    ]
    return f"ply{decision['ply']:04d}-seat{decision['seat']}-{decision['mark']}", view, marks


def format_annotation(result: dict, show_all: bool = False) -> str:
    """The text report of :func:`~seqsolve.analysis.annotate.annotate_record` (ends with a newline)."""
    seats = result["seats"] or []
    side_name = game_for(result["variant"]).side_name
    from ..analysis.results import budget_unit

    unit = budget_unit(result["search"])
    budget = f"{result['iterations']} {unit}" if result["iterations"] else f"{result['seconds_budget']} s"
    lines = [
        (
            f"game {result['game']}: {result['variant']}, {result['players']} players;"
            f" {result['result_text']} after {_count(result['turns'], 'turn')}"
        ),
    ]
    if not result["turns"]:
        lines.append("the record has no moves: there is nothing to analyse")
        return "\n".join(lines) + "\n"
    lines += [
        (
            f"analysed {_count(len(result['decisions']), 'decision')} by {result['search']} at {budget} each,"
            f" seed {result['seed']};"
            f" mistake > {result['thresholds']['mistake']}, blunder > {result['thresholds']['blunder']}"
        ),
        "",
    ]
    rows = [d for d in result["decisions"] if show_all or d["mark"] or d.get("missed_win")]
    if rows:
        pw = max([len(d["played"]) for d in rows] + [6])
        bw = max([len(d["best"]) for d in rows] + [4])
        lines.append(f" ply  turn  seat    {'played':<{pw}}    win  {'better':<{bw}}    win   drop")
        for d in rows:
            better = d["best"] if d["drop"] else "="
            lines.append(
                f"{d['ply']:>4}  {d['turn']:>4}  {d['seat']} ({d['side']})   {d['played']:<{pw}}  {_pct(d['win_played'], 2):>5}"
                f"  {better:<{bw}}  {_pct(d['win_best'], 2):>5}  {_pct(d['drop'], 2):>5}  {_marks(d)}".rstrip()
            )
    else:
        lines.append("no mistakes or blunders found")
    lines.append("")
    for s in result["summary"]:
        bot = f", {seats[s['seat']]}" if s["seat"] < len(seats) else ""
        lines.append(
            f"seat {s['seat']} ({side_name(s['side'])}{bot}): {_count(s['decisions'], 'decision')},"
            f" {_count(s['blunders'], 'blunder')}, {_count(s['mistakes'], 'mistake')},"
            f" mean drop {_pct(s['mean_drop'], 3)}"
        )
    if "pictures" in result:
        lines.append(f"pictures: {_count(len(result['pictures']), 'picture')} of the marked decisions")
    return "\n".join(lines) + "\n"


COMMANDS = [analyze, annotate]
