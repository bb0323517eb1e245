"""``seqsolve play``: a person (or several, hot-seat) against the bots in the terminal.

The game is a :class:`~seqsolve.play.table.Table`; this module only talks: it draws
the position through the game's :meth:`~seqsolve.games.base.Game.render` (what the
seat to move may see), reads a line, and says in one line what is wrong with a bad
one before asking again.  The record file is rewritten after every move, so that
whatever stops the game (``quit``, end of input, Ctrl-C, a crash) leaves it ready
to resume with ``--from``.
"""

from __future__ import annotations

import json
import os
import shlex
import stat

import click

from ..games.base import NotSupported
from .errors import CliError, Interrupted, describe
from .options import FILE_PATH, SECONDS, fresh_seed, seating_options, seed_option, variant_option
from .position import _use_color, load_position

#: what a person may type besides a move, as the screen lists it
COMMANDS_HELP = "moves, hint, undo, save FILE, quit"

#: the one-line position forms by file suffix, each of its own game
POSITION_SUFFIXES = {".sqn": "Sequence (SQN)", ".stn": "Sequence Stacks (STN)"}


def command_text(*words: str) -> str:
    """A ``seqsolve play`` command line to type, quoted as a shell reads it.

    >>> print(command_text("--from", "my game.jsonl"))
    "seqsolve play --from 'my game.jsonl'"
    """
    line = " ".join(shlex.quote(word) for word in ("seqsolve", "play", *words))
    return f'"{line}"' if "'" in line else f"'{line}'"


PLAY_EPILOG = """\b
Examples:
  seqsolve play                                  you (seat 0, blue) against heuristic
  seqsolve play --bot mcts:iters=2000 --seed 7   a stronger bot, a repeatable deal
  seqsolve play --players 4 --bot greedy         4 players in 2 teams: your partner is a bot
  seqsolve play --players 3 --seat 0 --seat 1    hot-seat: two people, one bot
  seqsolve play --variant 'classic[sequences_to_win=1]' --bot random
  seqsolve play --from play-7.jsonl              resume a game left half-way (its record)
  seqsolve play --from play-7.jsonl --bot greedy  ... with another bot on the other seats
  seqsolve play --from game.sqn --seat 1         play on from a position file as seat 1

\b
At the prompt:
  5H@e5  JSxe5  ~5S  pass       a move in the notation of RULES.md (P-12); a draft
                                pick is written after the play: 5H@e5+QD
  ~5S 9H@i3                     a whole turn at once
  3                             move number 3 of the 'moves' list
  moves                         list your legal moves, numbered
  hint                          the analysis' three best turns with win chances
  undo                          take back your last turn and the bots' replies
  save FILE                     write the position as your seat sees it (quote a
                                name with spaces: save "my game.sqn")
  quit                          stop; the record resumes the game (--from)
"""


@click.command(epilog=PLAY_EPILOG)
@variant_option("Preset with overrides, e.g. 'classic[sequences_to_win=1]' [default: classic].")
@seating_options("2, 3, 4, 6, 8, 9, 10 or 12 [default: 2].", default=None)
@click.option(
    "--seat",
    "seats",
    type=int,
    multiple=True,
    help="The seat you hold (0 plays first); repeat it for hot-seat play [default: 0].",
)
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="SPEC",
    help="The bot of the other seats, or one per other seat in seat order; with --from a record, the"
    " bots that replace the record's [default: the game's, heuristic; greedy in Sequence Stacks].",
)
@seed_option("the deal and the bots")
@click.option(
    "--from",
    "source",
    default=None,
    metavar="FILE",
    help="Resume the game of a record file of play, or play on from a position file.",
)
@click.option(
    "--out",
    type=FILE_PATH,
    default=None,
    help="The record file, rewritten after every move [default: play-SEED.jsonl, or the --from record].",
)
@click.option("--hint-time", type=SECONDS, default=2.0, show_default=True, help="Seconds the hint searches.")
@click.option(
    "--review-time",
    type=SECONDS,
    default=0.5,
    show_default=True,
    help="Seconds the review at the end spends on each of your decisions.",
)
@click.option("--no-review", is_flag=True, help="No review of your decisions at the end.")
@click.option(
    "--color/--no-color",
    default=None,
    help="Force ANSI colours on or off (default: on a terminal without NO_COLOR).",
)
def play(variant, players, teams, seats, bots, seed, source, out, hint_time, review_time, no_review, color):
    """Play Sequence against the bots in the terminal.

    You hold one seat (several with repeated --seat: hot-seat), bots the others.
    The screen shows the board (chips in colour, locked chips [B] and completed
    sequences, the coordinates a-j and 1-10), the hand of the seat to move (and the
    draft where the variant has one, with the cards the others were seen to take from
    it and have not played), every discard pile, the cards left and whose
    turn it is; only what that seat may see.  The cells of the bots' last moves
    stand between > and <.  Type a move or a command at the prompt (below).

    The game is recorded in --out as a record file that 'seqsolve replay' and
    'seqsolve annotate' read; quit, end of input or Ctrl-C leave it there with the
    position, and --from resumes.  At the end: the result and your three costliest
    decisions by the analysis.
    """
    table, out = _setup(variant, players, teams, seats, bots, seed, source, out)
    talk = Conversation(table, out, _use_color(color), hint_time)
    try:
        talk.run()
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; {talk.leave()}") from None
    finally:
        table.close()
    if not table.over:
        return
    if not no_review:
        talk.review(review_time)


def _setup(variant, players, teams, seats, bots, seed, source, out):
    """The table of the command line and its record file's path; bad options refused before any output."""
    from ..games import game_for
    from ..play.table import HUMAN, Table

    if source == "-":
        raise click.UsageError("--from - would read the position from the input the moves are typed on")
    twice = sorted({s for s in seats if seats.count(s) > 1})
    if twice:
        raise click.BadParameter(f"seat {twice[0]} is given twice", param_hint="--seat")
    if source is not None and _record_header(source) is not None:
        if variant or players or teams or seats or seed is not None:
            raise click.UsageError(
                "--from a record resumes its game as it was: give no --variant, --players,"
                " --teams, --seat or --seed (--bot replaces the bots)"
            )
        out = _record_path(out or source, source)
        return _resume(source, bots), out
    if source is not None and (variant or players or teams):
        raise click.UsageError("--variant, --players and --teams come from the --from position")
    seed = fresh_seed() if seed is None else seed
    start = _start_position(source, seed, seats) if source is not None else None
    rules = start.rules if start is not None else _rules(variant, players, teams)
    humans = sorted(set(seats or (0,)))
    _check_seats(humans, rules.players)
    game = game_for(str(rules.variant))
    seated = _with_bots(
        [HUMAN if s in humans else "" for s in range(rules.players)], bots or (game.default_bot,)
    )
    out = _record_path(out or f"play-{seed}.jsonl")
    table = Table.deal(str(rules.variant), rules.players, rules.teams, seed, seated, start)
    _check_render(table)
    return table, out


def _check_seats(humans, players: int) -> None:
    bad = [s for s in humans if not 0 <= s < players]
    if bad:
        raise click.BadParameter(f"seat {bad[0]} does not exist (0..{players - 1})", param_hint="--seat")


def _with_bots(seated: list[str], bots) -> list[str]:
    """``seated`` (who holds each seat) with the bots of --bot on every seat no person
    holds: one bot for them all, or one per seat in seat order."""
    from ..play.table import HUMAN

    others = [s for s, who in enumerate(seated) if who != HUMAN]
    specs = list(bots)
    if len(specs) != 1 and len(specs) != len(others):
        raise click.BadParameter(
            f"give one bot, or one per other seat ({len(others)}), not {len(specs)}", param_hint="--bot"
        )
    if len(specs) == 1:
        specs *= len(others)
    seated = list(seated)
    for s, spec in zip(others, specs):
        seated[s] = spec
    return seated


def _record_path(out: str, resumed: str | None = None) -> str:
    """The record file to write: a new one, or the one the game is resumed from (never
    another game's record, which would be overwritten)."""
    from ..play.records import check_output_file

    if out != resumed and os.path.exists(out):
        raise CliError(f"{out} exists: resume its game with --from {out}, or choose another --out")
    check_output_file(out, "--out")
    return out


def _rules(variant, players, teams):
    from .position import _new_rules

    return _new_rules(variant or "classic", players, teams)


def _record_header(path: str) -> dict | None:
    """The header of the record file ``path`` (None for anything else: a position file,
    or what is not a regular file, which the position reader reads without waiting)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, encoding="utf-8") as fh:
            first = fh.readline(1 << 20)
    except (OSError, ValueError):
        return None
    try:
        header = json.loads(first)
    except ValueError:
        if first.lstrip("\ufeff \t").startswith('{"seqsolve"') and not first.endswith("\n"):
            raise CliError(f"{path}:1: cut short: the file ends inside the header of a record") from None
        return None
    return header if isinstance(header, dict) and header.get("seqsolve") == "match" else None


def _resume(path: str, bots):
    """The table of the game of the play record ``path``, its bots those of ``bots``
    when given (the person's own specs), else the record's: a record that seats a
    program is refused, since opening a file never runs one."""
    from ..bots import ProgramRefused
    from ..play.records import scan
    from ..play.table import HUMAN, Table, is_play_header

    found = scan(path)
    if not is_play_header(found.header):
        raise CliError(f"{path}: not a game of seqsolve play (replay or annotate read match records)")
    if not found.games:
        partial = os.path.getsize(path) > found.keep
        raise CliError(
            f"{path}: cut short: line 2, the game, is {'incomplete' if partial else 'missing'}; there is nothing to resume"
        )
    if len(found.games) > 1:
        raise CliError(f"{path}:{found.games[1][0]}: a second game; a record of play holds one game")
    line, record = found.games[0]
    if record["termination"] != "unfinished":
        raise CliError(
            f"{path}: the game is over ({record['result']}): 'seqsolve replay {path} --game 0' shows it"
        )
    if HUMAN not in record["seats"]:
        raise CliError(f"{path}:{line}: no seat of the game is a person's ({HUMAN!r}): nobody to play it")
    if bots:
        record = {**record, "seats": _with_bots(record["seats"], bots)}
    try:
        table = Table(record, f"{path}:{line}", programs=bool(bots))
    except ProgramRefused as exc:
        raise CliError(f"{exc}, which opening a file never runs; name it with --bot to run it") from None
    _check_render(table)
    return table


def _start_position(source: str, seed: int, seats):
    """The position of a position file to play on from, every card known: the cards the
    first seat held cannot see are dealt at random among those it has not seen."""
    import numpy as np

    state = load_position(source, seed)
    if state.is_terminal():
        raise CliError(f"{source}: the game is over: nothing to play")
    _check_seats(seats, len(state.seats))
    if state.has_hidden_cards():
        seat = min(seats) if seats else 0
        if "?" in state.hand(seat):
            shown = [s for s in range(len(state.seats)) if "?" not in state.hand(s)]
            which = (
                f"the file shows seat {shown[0]}'s: play it with --seat {shown[0]}"
                if shown
                else "nor any seat's"
            )
            raise CliError(f"{source}: seat {seat}'s cards are not listed; {which}")
        state = state.resample(seat, np.random.default_rng(seed))
    return state


def _check_render(table) -> None:
    """Refuse a game that draws no picture of its positions, before the game starts."""
    render = getattr(table.game, "render", None)
    try:
        if render is None:
            raise NotSupported(f"{table.game.name} has no picture of its positions yet")
        render(table.state, 0, None, color=False, notes=[])
    except NotSupported as exc:
        table.close()
        raise CliError(f"play: {exc}") from None


class Conversation:
    """The conversation at the table: screens, prompts and answers."""

    def __init__(self, table, out: str, color: bool, hint_time: float):
        self.table, self.out, self.color, self.hint_time = table, out, color, hint_time
        self.game = table.game
        self.notes: list[str] = []
        self.last: list[str] = []
        self.legal: list[int] = []
        self.viewer = table.humans[0]

    def say(self, text: str = "") -> None:
        click.echo(text, color=self.color)

    def side(self, seat: int) -> str | None:
        """The name of ``seat``'s side, None where every seat is a side (Sequence Stacks)."""
        side = self.game.side_name(self.table.state.seats[seat])
        return None if side == f"seat {seat}" else side

    def seat_name(self, seat: int) -> str:
        who = self.table.record["seats"][seat]
        about = ["you" if who == "human" else who]
        side = self.side(seat)
        return f"seat {seat} ({', '.join(([side] if side else []) + about)})"

    # ---------------------------------------------------------------- the game

    def run(self) -> None:
        table = self.table
        record = table.record
        self.say(
            f"seqsolve play: {record['variant']}, {record['players']} players ({record['teams']} sides),"
            f" seed {record['seed']}; record {self.out}"
        )
        self.say("players: " + ", ".join(self.seat_name(s) for s in range(record["players"])))
        table.write(self.out)
        while not table.over:
            self.bots_play()
            if table.over:
                break
            self.show()
            if not self.ask():
                self.say(self.leave())
                return
        self.say()
        self.say(
            self.game.render(table.state, self.viewer, None, self.color, self.notes, self.last).rstrip("\n")
        )
        self.say(f"result: {self.result()} after {table.turns} turns; record {self.out}")

    def bots_play(self) -> None:
        from ..bots import BotFailure

        table = self.table
        while not table.over and table.human_to_move() is None:
            seat = table.state.current_player
            try:
                text = table.bot_move()
            except BotFailure as exc:
                table.write(self.out)
                raise CliError(
                    f"{self.seat_name(seat)} failed: {exc}; the game is saved: {self.resume_hint(failed=seat)}"
                ) from None
            self.notes.append(f"played     {self.seat_name(seat)}: {text}")
            self.last.append(text)
            table.write(self.out)

    def show(self) -> None:
        table = self.table
        seat = table.human_to_move()
        self.viewer = seat
        self.legal = table.state.legal_actions()
        notes = self.notes or ["played     -"]
        self.say()
        self.say(self.game.render(table.state, seat, None, self.color, notes, self.last).rstrip("\n"))
        self.say(
            f"your move, {self.seat_name(seat)}: a move (e.g. {self.example()}), its number in"
            f" 'moves', or {COMMANDS_HELP}"
        )
        self.notes, self.last = [], []

    def example(self) -> str:
        return self.table.state.action_to_string(self.legal[0]) if self.legal else "pass"

    def ask(self) -> bool:
        """Read lines until a move is played (True) or the person leaves (False)."""
        seat = self.viewer
        side = self.side(seat)
        prompt = f"{side} (seat {seat})> " if side else f"seat {seat}> "
        while True:
            try:
                line = input(prompt).strip()
            except EOFError:
                self.say()
                return False
            if not line:
                continue
            word, rest = (line.split(None, 1) + [""])[:2]
            if word == "save":
                self.save(rest)
                continue
            if word in ("quit", "moves", "hint", "undo") and rest:
                self.say(f"not done: {word} takes nothing after it ({COMMANDS_HELP})")
                continue
            if line == "quit":
                return False
            if line == "moves":
                self.list_moves()
            elif line == "hint":
                self.hint()
            elif line == "undo":
                if self.undo():
                    return True
            elif self.move(line):
                return True

    def move(self, line: str) -> bool:
        table = self.table
        if line.isascii() and line.isdigit():  # "²" is a digit to str.isdigit, not to int
            number = int(line)
            if not 1 <= number <= len(self.legal):
                self.say(
                    f"no move {number}: the moves are numbered 1 to {len(self.legal)} ('moves' lists them)"
                )
                return False
            actions = [self.legal[number - 1]]
        else:
            try:
                actions = table.read_move(line)
            except ValueError as exc:
                self.say(f"not played: {exc}")
                return False
        seat = table.state.current_player
        played = [table.play(action) for action in actions]
        self.last.extend(played)
        self.notes.append(f"played     {self.seat_name(seat)}: {' '.join(played)}")
        table.write(self.out)
        return True

    def list_moves(self) -> None:
        texts = [self.table.state.action_to_string(a) for a in self.legal]
        width = max(map(len, texts), default=0) + 6
        per_line = max(1, 96 // width)
        items = [f"{k:>3}. {t:<{width - 5}}" for k, t in enumerate(texts, 1)]
        for i in range(0, len(items), per_line):
            self.say("".join(items[i : i + per_line]).rstrip())

    def hint(self) -> None:
        from ..analysis.search import analyze

        table = self.table
        try:
            result = analyze(
                table.state,
                seconds=self.hint_time,
                seed=table.record["seed"],
                stream=("hint", len(table.record["moves"])),
                threats=False,
            )
        except (NotSupported, ValueError) as exc:
            self.say(f"no hint: {exc}")
            return
        best = ", ".join(
            f"{m.move} (win {m.win:.2f})" if m.win is not None else m.move for m in result.moves[:3]
        )
        self.say(f"hint ({result.iterations} iterations, {result.seconds:.1f} s): {best}")

    def undo(self) -> bool:
        taken = self.table.undo()
        if not taken:
            self.say("nothing to undo: you have not played yet")
            return False
        self.table.write(self.out)
        self.notes, self.last = [f"undone     {taken} action{'s' if taken != 1 else ''}"], []
        return True

    def save(self, argument: str) -> None:
        """``save FILE``: FILE is one word as a shell reads it (quotes, ``~``)."""
        try:
            words = shlex.split(argument)
        except ValueError as exc:  # an unclosed quote
            self.say(f"not saved: cannot read the file name {argument}: {exc}")
            return
        if len(words) != 1:
            self.say(
                "save what? 'save FILE' writes the position to FILE"
                if not words
                else f'not saved: give one file name, not {len(words)} (quote a name with spaces: save "my game.sqn")'
            )
            return
        path = os.path.expanduser(words[0])
        from ..play.records import check_output_file, write_text

        problem = "a file name holds no NUL character" if "\0" in path else self.wrong_suffix(path)
        if problem:
            self.say(f"not saved: {problem}")
            return
        try:
            check_output_file(path, "save")
            write_text(path, self.position_text())
        except (ValueError, OSError) as exc:  # RecordError, or what the system says of the path
            self.say(f"not saved: {describe(exc)}")
            return
        self.say(f"saved {path}: {command_text('--from', path, '--seat', str(self.viewer))} plays on from it")

    def wrong_suffix(self, path: str) -> str | None:
        """Why ``path`` names another game's position form (``.sqn`` for a Stacks position, ``.stn`` for
        Sequence's), or None."""
        suffix = os.path.splitext(path)[1].lower()
        mine = "." + self.game.position_forms[0]
        if suffix in POSITION_SUFFIXES and suffix != mine:
            return f"{path} names a {POSITION_SUFFIXES[suffix]} position; this game's is {mine} ({self.game.name})"
        return None

    def position_text(self) -> str:
        """The position as the seat to move (a person) sees it: no card it may not see."""
        return self.game.write_position(self.table.state, self.viewer).rstrip("\n") + "\n"

    # ---------------------------------------------------------------- leaving and the end

    def leave(self) -> str:
        """Write the record (from its moves: an action cut short by Ctrl-C is not in it) and
        the position beside it; what to type to resume."""
        table = self.table
        table.replay()
        table.write(self.out)
        seat = table.human_to_move()
        self.viewer = seat if seat is not None else table.humans[0]
        position = os.path.splitext(self.out)[0] + "." + self.game.position_forms[0]
        from ..play.records import write_text

        write_text(position, self.position_text())
        where = " ".join(shlex.quote(word) for word in ("--from", position, "--seat", str(self.viewer)))
        return f"the game is saved: {self.resume_hint()}, or {where} (unseen cards dealt afresh)"

    def resume_hint(self, failed: int | None = None) -> str:
        """What to type to resume the game: with the bots of the record on --bot when one
        starts a program or loads Python code (a record never does either itself), and with the game's own bot
        instead of the bot of seat ``failed``, which failed."""
        from ..bots import refused_in_files
        from ..play.table import HUMAN

        seats = self.table.record["seats"]
        bots = [self.game.default_bot if s == failed else who for s, who in enumerate(seats) if who != HUMAN]
        words = ["--from", self.out]
        if failed is not None or any(refused_in_files(spec, self.game) for spec in bots):
            for spec in bots[:1] if len(set(bots)) == 1 else bots:
                words += ["--bot", spec]
        return f"resume it with {command_text(*words)}"

    def result(self) -> str:
        from ..play.records import result_text

        return result_text(self.table.game_record(), self.table.state.seats)

    def review(self, seconds: float) -> None:
        """The three decisions of the people that the analysis says cost the most."""
        from ..analysis.annotate import annotate_record

        table = self.table
        self.say(f"review: your decisions, {seconds:g} s each (Ctrl-C skips) ...")
        try:
            result = annotate_record(
                table.game_record(),
                seats=table.humans,
                seconds=seconds,
                seed=table.record["seed"],
                where=self.out,
            )
        except KeyboardInterrupt:
            self.say("review skipped")
            return
        except (NotSupported, ValueError) as exc:
            self.say(f"no review: {exc}")
            return
        costly = sorted((d for d in result["decisions"] if d["drop"]), key=lambda d: -d["drop"])[:3]
        if not costly:
            self.say("your costliest decisions: none, the analysis found nothing better than what you played")
            return
        self.say("your costliest decisions:")
        seat = (lambda d: f", seat {d['seat']}") if len(table.humans) > 1 else (lambda d: "")
        for d in costly:
            self.say(
                f"  turn {d['turn']:>3}{seat(d)}: {d['played']} (win {d['win_played']:.2f}); better {d['best']}"
                f" (win {d['win_best']:.2f}), a drop of {d['drop']:.2f}{' — ' + d['mark'] if d['mark'] else ''}"
            )
        self.say(f"the whole game: seqsolve annotate {self.out} --game 0")


COMMANDS = [play]
