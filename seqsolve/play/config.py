"""A match as data: which bots, which rules, which root seed; who sits where in each
game, and what a game's record must say to be that game of the match (so that a
resumed run can trust the records on file).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import numpy as np

from ..bots import BotFailure, make_bot, starts_a_program
from ..errors import SeqsolveError
from ..games import RulesError, game_for, rules_for
from .seeds import KeyPart, bot_seed, deal_seed


class MatchError(SeqsolveError, ValueError):
    """A match that cannot run: bad bots, variant or seating."""


@dataclass(frozen=True)
class MatchConfig:
    """Everything that decides the games of a match (and nothing that does not)."""

    bots: tuple[str, ...]
    variant: str = "classic"
    players: int = 2
    teams: int | None = None
    seed: int = 0
    move_timeout: float = 10.0
    #: every bot stays on its seat and every game has its own deal (self-play balance)
    fixed_seats: bool = False
    #: the spawn-key prefix of this match's streams inside a bigger run (a tournament's
    #: pairing, a balance job; see :mod:`.seeds`); empty for a match of its own
    stream: tuple[KeyPart, ...] = ()

    def rules(self):
        return rules_for(self.variant, self.players, self.teams)

    @property
    def game(self):
        """The game the variant is played by (:func:`seqsolve.games.game_for`)."""
        return game_for(self.variant)

    @property
    def sides(self) -> int:
        return self.rules().teams

    @property
    def games_per_deal(self) -> int:
        """How many consecutive games share a deal: one per side, or 1 with fixed seats."""
        return 1 if self.fixed_seats else self.sides

    def seat_bots(self, game: int) -> list[int]:
        """Index into ``bots`` of the bot on each seat in game ``game``.

        With two bots, the first plays side ``game mod T`` and the second every other
        side; with one bot per side, the bots rotate over the sides.  With fixed seats
        nothing rotates: one bot plays every seat, one bot per side plays its side's
        seats, one bot per seat plays its seat.
        """
        rules = self.rules()
        if self.fixed_seats:
            if len(self.bots) == rules.players:
                return list(range(rules.players))
            if len(self.bots) == rules.teams:
                return [s % rules.teams for s in range(rules.players)]
            return [0] * rules.players
        rotation = game % rules.teams
        if len(self.bots) == rules.teams:
            return [(s % rules.teams - rotation) % rules.teams for s in range(rules.players)]
        return [0 if s % rules.teams == rotation else 1 for s in range(rules.players)]

    def deal_index(self, game: int) -> int:
        return game // self.games_per_deal

    def deal_seed(self, game: int) -> np.random.SeedSequence:
        return deal_seed(self.seed, self.deal_index(game), self.stream)

    def bot_seed(self, game: int, seat: int) -> np.random.SeedSequence:
        per = self.games_per_deal
        return bot_seed(self.seed, game // per, game % per, seat, self.stream)

    def to_json(self) -> dict:
        data = asdict(self)
        if not self.fixed_seats:
            del data["fixed_seats"]  # record headers of ordinary matches stay as they were
        if not self.stream:
            del data["stream"]
        return data

    @classmethod
    def from_json(cls, data: dict) -> MatchConfig:
        """The config of :meth:`to_json` (a record file's header holds it)."""
        return cls(**{**data, "bots": tuple(data["bots"]), "stream": tuple(data.get("stream", ()))})


def check_config(config: MatchConfig):
    """Validate bots, variant and seating before anything is written."""
    try:
        rules = config.rules()
    except RulesError as exc:
        raise MatchError(str(exc)) from None
    if config.fixed_seats:
        if len(config.bots) not in (1, rules.teams, rules.players):
            raise MatchError(
                f"give one bot, one per side ({rules.teams}) or one per seat ({rules.players}), not {len(config.bots)}"
            )
    elif len(config.bots) not in (2, rules.teams):
        raise MatchError(f"give two bots or one per side ({rules.teams}), not {len(config.bots)}")
    if not (math.isfinite(config.move_timeout) and config.move_timeout > 0):
        raise MatchError(
            f"the time limit per move must be a number of seconds above 0, not {config.move_timeout}"
        )
    for spec in config.bots:
        bot = make_bot(spec, config.game)  # raises BotError with the list of what exists
        try:
            bot.check_rules(rules)
        finally:
            bot.close()
    return rules


def check_programs(config: MatchConfig, specs: Iterable[str] | None = None) -> None:
    """Start every bot of the match (or of ``specs``, in games of the match's rules) that
    starts a program, once, and end it: a program that cannot finish its handshake
    within the time limit per move stops the run here, in one line, before anything is
    written, rather than costing that wait again in every worker and forfeiting every game.

    Raises:
        MatchError: naming the bot and why its program did not start.
    """
    rules = None
    for spec in dict.fromkeys(config.bots if specs is None else specs):
        if not starts_a_program(spec, config.game):
            continue
        if rules is None:
            rules = config.rules()
            seats = config.game.new_initial_state(rules, seed=config.deal_seed(0)).seats
        bot = make_bot(spec, config.game)
        bot.move_timeout = config.move_timeout
        try:
            bot.start(rules, seats, 0)
        except BotFailure as exc:
            raise MatchError(f"bot {spec} cannot start: {exc}") from None
        finally:
            bot.close()


def game_identity(config: MatchConfig, game: int) -> dict:
    """The fields of game ``game``'s record that the match fixes before it is played."""
    rules = config.rules()
    seat_bot = config.seat_bots(game)
    return {
        "game": game,
        "deal": config.deal_index(game),
        "variant": str(rules.variant),
        "players": rules.players,
        "teams": rules.teams,
        "seed": config.seed,
        "seats": [config.bots[b] for b in seat_bot],
        "side_bot": [seat_bot[s] for s in range(rules.teams)],
        **({"stream": list(config.stream)} if config.stream else {}),
    }


def game_score(side_bot: list[int], winner_side: int | None) -> float:
    """The first bot's score in one game: 1 or 0, a draw 1/T among T sides (1/2, 1/3, ...)."""
    if winner_side is None:
        return 1 / len(side_bot)
    return float(side_bot[winner_side] == 0)


def not_this_match(config: MatchConfig, record: dict) -> str | None:
    """Why a game record (one :func:`~seqsolve.play.records.check_game` accepts) is not
    game ``record["game"]`` of this match as it would be played, or None.

    A resumed run counts the games on file without playing them again: a record of
    another variant, deal or seating, or with a score its result does not give,
    would silently change the match's numbers."""
    game = record["game"]
    identity = {"stream": [], **game_identity(config, game)}  # a match of its own has no stream
    for key, value in identity.items():
        if record.get(key, []) != value:
            return f"{key!r} is {json.dumps(record.get(key))[:40]}, but game {game} of this match has {json.dumps(value)[:40]}"
    score = game_score(record["side_bot"], record["winner_side"])
    if record["score"] != score:
        return f"'score' is {record['score']}, but its result gives {score:g}"
    return None
