"""A game at a table: people hold some seats, bots the others (``seqsolve play``).

The record is the game: its moves, replayed from its deal (or from the position it
started from, ``start``), make the state, so that ``undo`` is the record cut short
and replayed, a game left half-way is its record with the termination
``unfinished``, and ``replay`` and ``annotate`` read what was played like any match
game.  The table knows no game's rules (it speaks :mod:`seqsolve.games.base`) and
does no input or output: :mod:`seqsolve.cli.play` talks to the people.

A record file of ``play`` is a match record file (:mod:`.records`) whose header's
``config`` says ``"command": "play"`` and names the player of each seat (``human``
or a bot spec) in ``bots``; its one game is game 0 of deal 0 of the stream
``("play",)`` of the seed, and its score is that of seat 0's side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ..bots import Bot, BotFailure, ProgramRefused, make_bot
from ..bots.classes import CodeRefused
from ..errors import SeqsolveError
from ..games import game_for, rules_for
from ..games.base import GameState, turns_played
from ..games.external import clip
from .config import game_score
from .records import RECORD_FORMAT, UNFINISHED, RecordError, start_state, write_text
from .seeds import bot_seed

#: what a record names a seat a person holds
HUMAN = "human"
#: the spawn-key prefix of every stream of a game at a table (see :mod:`.seeds`)
STREAM = ("play",)


def table_record(rules, seed: int, seats: list[str], moves: list[str]) -> dict:
    """The record of a game played at a table, before its start position: one game
    of one deal, the bots' generators drawn from ``seed`` on the :data:`STREAM` of play
    (so a record read back replays the bots' choices)."""
    return {
        "game": 0,
        "deal": 0,
        "variant": str(rules.variant),
        "players": rules.players,
        "teams": rules.teams,
        "seed": seed,
        "stream": list(STREAM),
        "seats": list(seats),
        "side_bot": list(range(rules.teams)),
        "moves": list(moves),
    }


class TableError(SeqsolveError, ValueError):
    """A game that cannot be set up, or a move a person may not make now."""


@dataclass(frozen=True)
class Step:
    """Who made one recorded action, and in which turn (what ``undo`` goes back by)."""

    seat: int
    turn: int


class Table:
    """One game between the people of ``humans`` and bots on every other seat."""

    def __init__(self, record: dict, where: str = "game record", programs: bool = False):
        """The game of ``record`` (read from ``where``) as its moves leave it, its bots started.

        ``programs`` says whether the bot specs of the seats may start a program
        (``ext:``): only when the person running seqsolve named them, never when they
        come from a file, so that opening a record never runs anything.

        Raises:
            ProgramRefused: a seat's bot would start a program and ``programs`` is False.
            BotError: a seat's bot spec is not a bot of the game.
            TableError: a bot's program could not start (its handshake failed).
            RecordError: a recorded move that is not legal where it comes.
        """
        self.record = {**record, "moves": list(record["moves"])}
        self.where = where
        self.game = game_for(record["variant"])
        seats = record["seats"]
        self.humans = [s for s, who in enumerate(seats) if who == HUMAN]
        self.bots: dict[int, Bot] = {}
        try:
            for s, spec in enumerate(seats):
                if spec != HUMAN:
                    self.bots[s] = _seat_bot(spec, self.game, programs, f"seat {s} of {where}")
            self.rngs = {
                s: np.random.default_rng(bot_seed(record["seed"], 0, 0, s, STREAM)) for s in self.bots
            }
            self.replay()
            for seat, bot in self.bots.items():
                try:
                    bot.start(self.state.rules, self.state.seats, seat)
                except BotFailure as exc:
                    raise TableError(f"seat {seat} ({clip(bot.spec, 300)}) cannot start: {exc}") from None
        except BaseException:
            self.close()
            raise

    @classmethod
    def deal(
        cls,
        variant: str,
        players: int | None,
        teams: int | None,
        seed: int,
        seats: list[str],
        start: GameState | None = None,
    ) -> Table:
        """A new game of ``variant`` (or played on from ``start``, every card known),
        ``seats`` naming who holds each seat (:data:`HUMAN` or a bot spec the caller
        gives, which may start a program).

        Raises:
            RulesError, BotError: a bad variant, seating or bot spec.
            TableError: ``seats`` does not name one player per seat, or a bot's program
                could not start.
        """
        rules = start.rules if start is not None else rules_for(variant, players, teams)
        if len(seats) != rules.players:
            raise TableError(f"{len(seats)} players named for {rules.players} seats")
        record = table_record(rules, seed, seats, [])
        if start is not None:
            record["start"] = game_for(str(rules.variant)).write_position(start)
        return cls(record, programs=True)  # the caller's own specs

    # ------------------------------------------------------------ the game

    def replay(self) -> None:
        """The state after the record's moves, from its start (what undo and resuming use).

        Raises:
            RecordError: a recorded move that is not legal where it comes.
        """
        self.state = start_state(self.record, self.where)
        self.steps: list[Step] = []
        self.last_action: int | None = None  # the last action played, which says whether a turn is under way
        for ply, text in enumerate(self.record["moves"], 1):
            try:
                action = self.state.string_to_action(text)
            except ValueError as exc:
                raise RecordError(f"{self.where}: move {ply} {text!r} cannot be replayed: {exc}") from None
            self._apply(action, text)

    def _apply(self, action: int, text: str | None = None) -> str:
        text = text if text is not None else self.state.action_to_string(action)
        self.steps.append(Step(self.state.current_player, self.state.turn))
        self.state.apply(action)
        self.last_action = action
        return text

    def play(self, action: int) -> str:
        """Apply a legal ``action`` of the seat to move and record it; its text."""
        text = self._apply(action)
        self.record["moves"].append(text)
        return text

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    def human_to_move(self) -> int | None:
        """The seat a person holds that decides now, or None (a bot's turn, or the end)."""
        seat = self.state.current_player
        return seat if seat in self.humans else None

    def read_move(self, text: str) -> list[int]:
        """The actions ``text`` names for the person to move: one decision in the game's
        notation, or several separated by spaces (a whole turn, ``~5S 9H@i3``), all
        of the same seat; nothing is applied.

        Raises:
            ValueError: not the notation, or not legal where it comes (the game's message).
        """
        trial = self.state.clone()
        seat = trial.current_player
        actions = []
        for part in text.split():
            if trial.is_terminal() or trial.current_player != seat:
                raise TableError(f"{part!r} comes after the end of the turn")
            action = trial.string_to_action(part)
            actions.append(action)
            trial.apply(action)
        if not actions:
            raise TableError("no move given")
        return actions

    def bot_move(self) -> str:
        """Let the bot to move decide, from what its seat may see; the move's text.

        Raises:
            BotFailure: the bot failed or chose an illegal action.
        """
        seat = self.state.current_player
        bot = self.bots[seat]
        view = self.state if bot.open_information else self.state.observation(seat)
        action = bot.choose(view, self.rngs[seat])
        if action not in self.state.legal_actions():
            raise BotFailure(f"seat {seat} ({bot.spec}) chose an illegal action")
        return self.play(action)

    def undo(self) -> int:
        """Take back the last turn a person played and every bot move after it; how many
        actions were taken back (0: no person has played yet)."""
        steps = self.steps
        cut = len(steps)
        while cut and steps[cut - 1].seat not in self.humans:
            cut -= 1
        if not cut:
            return 0
        last = steps[cut - 1]
        while cut and steps[cut - 1] == last:
            cut -= 1
        taken = len(steps) - cut
        del self.record["moves"][cut:]
        self.replay()
        return taken

    # ------------------------------------------------------------ the record

    def header(self) -> dict:
        """The record file's header: a match record of the command ``play``."""
        config = {
            "command": "play",
            "bots": self.record["seats"],
            "variant": self.record["variant"],
            "players": self.record["players"],
            "teams": self.record["teams"],
            "seed": self.record["seed"],
        }
        return {"seqsolve": "match", "format": RECORD_FORMAT, "config": config}

    def game_record(self) -> dict:
        """The game's record as it stands: unfinished (no result, no score) until it ends."""
        state = self.state
        record = dict(self.record)
        if state.is_terminal():
            outcome = state.outcome()
            side = None if outcome.winner is None else state.sides.index(outcome.winner)
            ending = {
                "result": outcome.result,
                "winner_side": side,
                "termination": outcome.termination.name.lower(),
                "score": game_score(record["side_bot"], side),
            }
        else:
            ending = {"result": None, "winner_side": None, "termination": UNFINISHED, "score": None}
        return {**record, **ending, "forfeit": None, "turns": self.turns, "plies": len(record["moves"])}

    @property
    def turns(self) -> int:
        """The turns the game has had (:func:`~seqsolve.games.base.turns_played`)."""
        return turns_played(self.state, self.last_action)

    def record_text(self) -> str:
        """The record file's text: the header and the game's one line."""
        lines = [json.dumps(self.header()), json.dumps(self.game_record(), separators=(",", ":"))]
        return "\n".join(lines) + "\n"

    def write(self, path: str) -> None:
        """The record file ``path``, whole (a temporary file replaces it)."""
        write_text(path, self.record_text())

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()


def _seat_bot(spec: str, game, programs: bool, seat: str) -> Bot:
    try:
        return make_bot(spec, game, programs=programs)
    except CodeRefused:
        raise ProgramRefused(f"{seat} is Python code ({clip(spec, 300)})") from None
    except ProgramRefused:
        raise ProgramRefused(f"{seat} is an external program ({clip(spec, 300)})") from None


def is_play_header(header: dict) -> bool:
    return header.get("config", {}).get("command") == "play"
