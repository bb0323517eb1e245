"""Variant grids: presets, ``--vary`` options and seatings expanded into
:class:`VariantPoint` s, and the stream each point's games come from under the
root seed: a function of the point itself (not its place in the grid), so adding
a variant changes nothing for the others and a replica gets its own games."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from ..errors import SeqsolveError
from ..games import Game, RulesError, all_games, game_for, rules_for
from ..play.seeds import balance_stream

SEATING = ("players", "teams")


class BalanceError(SeqsolveError, ValueError):
    """A grid that cannot run (bad --vary, impossible seating, bad bots) or an --out folder
    that belongs to another run."""


@dataclass(frozen=True, order=True)
class VariantPoint:
    """One variant of a grid: a preset with overrides, a seating, and a replica number."""

    variant: str
    players: int
    teams: int
    replica: int = 0

    @property
    def seating(self) -> str:
        """``2p`` when everyone plays alone, ``4p/2t`` for teams."""
        return f"{self.players}p" if self.players == self.teams else f"{self.players}p/{self.teams}t"

    @property
    def label(self) -> str:
        """``classic 4p/2t`` (``#2`` added for a replica)."""
        extra = f" #{self.replica + 1}" if self.replica else ""
        return f"{self.variant} {self.seating}{extra}"

    @property
    def slug(self) -> str:
        """A folder name for the point's records."""
        text = re.sub(r"[^A-Za-z0-9_.=-]+", "_", self.variant).strip("_")
        extra = f"-r{self.replica + 1}" if self.replica else ""
        return f"{text}-{self.players}p{self.teams}t{extra}"

    def rules(self):
        return rules_for(self.variant, self.players, self.teams)

    def to_json(self) -> dict:
        """Every field (a manifest names its points by them, :mod:`.manifest`)."""
        return asdict(self)


def parse_vary(text: str, game: Game | None = None, option: str = "--vary") -> tuple[str, list[object]]:
    """``"sequences_to_win=1,2,3"`` -> ``("sequences_to_win", [1, 2, 3])``, the values
    read by the game of the grid (:func:`grid_game`); ``option`` is what errors call the
    text (``fair`` reads its ``--try`` here too).

    >>> parse_vary("players=2,3")
    ('players', [2, 3])
    """
    game = game or all_games()[0]
    name, eq, values = text.partition("=")
    name = name.strip()
    if not eq or not name or not values.strip():
        example = "players=2,3,4" if option == "--vary" else "hand_bonus=1,2"
        raise BalanceError(f"{option} {text!r}: expected OPTION=VALUE,VALUE,... (e.g. {example})")
    parsed = []
    for item in values.split(","):
        if not item.strip():
            raise BalanceError(f"{option} {text!r}: an empty value")
        try:
            parsed.append(game.parse_option(name, item))
        except RulesError as exc:
            raise BalanceError(f"{option} {text!r}: {exc}") from None
    return name, parsed


def grid_game(variants: Sequence[str], all_presets: bool = False) -> Game:
    """The game of a grid, whose options ``--vary`` names: the first variant's (the first
    game built for ``--all-presets``, or when that variant is refused, which is said later
    naming it)."""
    if variants and not all_presets:
        try:
            return game_for(variants[0])
        except RulesError:
            pass
    return all_games()[0]


def expand_grid(
    variants: Sequence[str] = ("classic",),
    vary: Sequence[str] = (),
    players: int | None = None,
    teams: int | None = None,
    all_presets: bool = False,
) -> list[VariantPoint]:
    """The variants of a balance run, in order: each base variant (or, with
    ``all_presets``, every preset of RULES.md §2.2 with every seating it allows)
    times the product of the ``--vary`` values.

    Seatings come from ``--vary players=.../teams=...``, else ``players``/``teams``,
    else the variant (default 2 players).  Six or twelve players with no number of
    sides are tried with both 2 and 3 sides.  Any combination that cannot be played
    is an error naming it: a grid is meant to be run whole.

    >>> [p.label for p in expand_grid(["classic"], ["players=2,6"])]
    ['classic 2p', 'classic 6p/2t', 'classic 6p/3t']

    Raises:
        BalanceError: a bad variant, --vary text, option value or seating.
    """
    game = grid_game(variants, all_presets)
    grid = [parse_vary(v, game) for v in vary]
    names = [name for name, _ in grid]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise BalanceError(f"--vary {min(repeated)} is given twice; list all its values in one --vary")
    bases: list[tuple[object, list[tuple[int | None, int | None]]]] = []
    if all_presets:
        if any(n in SEATING for n in names) or players is not None or teams is not None:
            raise BalanceError(
                "--all-presets seats every player count the presets allow; do not also vary players or teams"
            )
        for preset in game.presets:
            bases.append((game.parse_variant(preset), list(game.seatings(preset))))
    else:
        for text in variants:
            try:
                base = game_for(text).parse_variant(text)
            except RulesError as exc:
                raise BalanceError(f"--variant {text!r}: {exc}") from None
            bases.append((base, [(players, teams)]))
    points: list[VariantPoint] = []
    seen: Counter = Counter()
    for base, seatings in bases:
        own = dict(base.overrides)
        own_players, own_teams = own.pop("players", None), own.pop("teams", None)
        base_game = game_for(base.preset)
        base = base_game.parse_variant(base.preset).with_overrides(own)
        for combo in itertools.product(*(values for _, values in grid)):
            chosen = dict(zip(names, combo))
            seat_p, seat_t = chosen.pop("players", None), chosen.pop("teams", None)
            variant = base.with_overrides(chosen)
            for p, t in seatings:
                n_players = _first(seat_p, p, own_players, 2)
                n_teams = _first(seat_t, t, own_teams, variant.options().get("teams"))
                implied = base_game.default_teams(int(n_players))
                candidates = [n_teams] if n_teams is not None or implied else [2, 3]
                for sides in candidates:
                    label = f"{variant} with {n_players} players" + (
                        f" in {sides} sides" if sides is not None else ""
                    )
                    try:
                        rules = rules_for(str(variant), int(n_players), None if sides is None else int(sides))
                    except RulesError as exc:
                        raise BalanceError(f"{label}: {exc}") from None
                    key = (str(variant), rules.players, rules.teams)
                    points.append(VariantPoint(str(variant), rules.players, rules.teams, seen[key]))
                    seen[key] += 1
    return points


def _first(*values):
    return next((v for v in values if v is not None), None)


def point_stream(point: VariantPoint, job: str) -> tuple:
    """The stream of one job of one point under the run's root seed (:mod:`seqsolve.play.seeds`):
    a function of the point itself, never of its place in the grid.

    >>> point_stream(VariantPoint("classic", 2, 2), "self")
    ('balance', 'classic', 2, 2, 0, 'self')
    """
    return balance_stream(point.variant, point.players, point.teams, point.replica, job)
