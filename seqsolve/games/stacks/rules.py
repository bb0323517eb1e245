"""The rules of one game of Sequence Stacks: preset ``stacks`` and the options of
RULES.md §4.9, written ``stacks[stacks_refill=empty_hand_only,...]`` like every
variant of the tool (P-1).  Stacks has no teams: every player plays for themselves
(ST-1), so a seating is a player count, 2 to 6.
"""

from __future__ import annotations

import dataclasses

from ..base import RulesError
from .cards import HAND_SIZE, deck_counts

PRESET = "stacks"
#: piles of one colour the compiled core has room for (stacks_max_piles_per_colour)
MAX_PILES_PER_COLOUR = 8
#: the compiled core counts chips and turns in 16 and 32 bits
MAX_CHIP_SUPPLY = 99
MAX_TURNS = 1_000_000


@dataclasses.dataclass(frozen=True)
class StacksRules:
    players: int = 2
    refill: str = "turn_start"  # ST-11; "empty_hand_only" is the literal seed
    max_piles_per_colour: int = 2  # ST-7
    chip_supply: int = 20  # per colour, ST-4
    win_chips: int = 5  # ST-21
    win_min_each: int = 2  # ST-21
    two_player_removal: bool = True  # ST-3
    actions_from_discard: bool = True  # ST-12
    steal_chip_can_win: bool = False  # ST-19
    max_turns: int = 3000  # ST-22
    first_turn_short: int = 0  # K-4 (docs/rules.md §2.5): seat 0 dealt this many cards fewer
    first_hand_bonus: int = 0  # K-7 (docs/rules.md §2.5): seat 0 dealt this many cards more

    @property
    def teams(self) -> int:
        """Sides, as the runners count them: every seat is its own (ST-1)."""
        return self.players

    def meets_win(self, blue: int, red: int) -> bool:
        """Whether a seat holding these chips has won (ST-21).

        >>> StacksRules().meets_win(4, 1), StacksRules().meets_win(3, 2)
        (False, True)
        """
        return blue + red >= self.win_chips and min(blue, red) >= self.win_min_each

    @property
    def first_seat(self) -> int:
        """The seat that moves first (ST-6: seat 0)."""
        return 0

    @property
    def deck(self) -> list[int]:
        """Copies of each card kind in this game's deck."""
        return deck_counts(self.players, self.two_player_removal)

    @property
    def variant(self) -> str:
        """The variant string that gives these rules back (options that differ from
        the preset's defaults, in the table's order; the player count is a seating)."""
        base = StacksRules(players=self.players)
        changed = [
            f"{OPTION_NAMES[f.name]}={_format(getattr(self, f.name))}"
            for f in dataclasses.fields(self)
            if f.name != "players" and getattr(self, f.name) != getattr(base, f.name)
        ]
        return PRESET + (f"[{','.join(changed)}]" if changed else "")


#: option name in a variant string -> field of StacksRules
OPTIONS = {
    "stacks_refill": "refill",
    "stacks_max_piles_per_colour": "max_piles_per_colour",
    "stacks_chip_supply": "chip_supply",
    "stacks_win_chips": "win_chips",
    "stacks_win_min_each": "win_min_each",
    "stacks_two_player_removal": "two_player_removal",
    "stacks_actions_from_discard": "actions_from_discard",
    "stacks_steal_chip_can_win": "steal_chip_can_win",
    "max_turns": "max_turns",
    "stacks_first_turn_short": "first_turn_short",
    "stacks_first_hand_bonus": "first_hand_bonus",
}
OPTION_NAMES = {field: name for name, field in OPTIONS.items()}
REFILLS = ("turn_start", "empty_hand_only")


def _format(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _parse_value(name: str, text: str) -> object:
    field = OPTIONS[name]
    kind = type(getattr(StacksRules(), field))
    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise RulesError(f"option {name} takes true or false, not {text!r}")
        return text.lower() == "true"
    if kind is int:
        return _whole_number(f"option {name}", text)
    if text not in REFILLS:
        raise RulesError(f"option {name} takes {' or '.join(REFILLS)}, not {text!r}")
    return text


def _whole_number(what: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RulesError(f"{what} takes a whole number, not {text!r}") from None


def parse_overrides(variant: str) -> dict[str, object]:
    """The options a ``stacks[...]`` string sets, as StacksRules fields."""
    text = variant.strip()
    preset, _, rest = text.partition("[")
    if preset.strip().lower() == PRESET and preset.strip() != PRESET:
        raise RulesError(f"variant {text[:40]!r}: the preset is written {PRESET!r}, in lower case")
    if preset.strip() != PRESET:
        raise RulesError(f"{preset.strip()!r} is not Sequence Stacks' preset ({PRESET!r})")
    if rest and not rest.endswith("]"):
        raise RulesError(f"variant {text!r}: the options' '[' is not closed by a final ']'")
    body = rest[:-1].strip() if rest else ""
    fields: dict[str, object] = {}
    for item in filter(None, (s.strip() for s in body.split(","))) if body else ():
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not value.strip():
            raise RulesError(f"variant option {item!r} is not name=value")
        if name == "players":
            raise RulesError(
                "the player count is a seating: give it with --players (or the position's hands)"
            )
        if name not in OPTIONS:
            raise RulesError(f"unknown Stacks option {name!r} (known: {', '.join(OPTIONS)})")
        if OPTIONS[name] in fields:
            raise RulesError(f"option {name} given twice")
        fields[OPTIONS[name]] = _parse_value(name, value.strip())
    return fields


def parse_option(name: str, text: str) -> object:
    """The value of option ``name`` (a variant option, or ``players``/``teams``, a seating)
    written ``text``, or a RulesError saying what it takes.

    >>> parse_option("stacks_refill", "empty_hand_only"), parse_option("players", "3")
    ('empty_hand_only', 3)
    """
    if name in ("players", "teams"):
        return _whole_number(name, text.strip())
    if name not in OPTIONS:
        raise RulesError(f"unknown Stacks option {name!r} (known: {', '.join(OPTIONS)}, players)")
    value = _parse_value(name, text.strip())
    _check(dataclasses.replace(StacksRules(), **{OPTIONS[name]: value}), name)
    return value


@dataclasses.dataclass(frozen=True)
class StacksVariant:
    """``stacks[...]`` as typed: the options it sets (variant names, in the table's
    order), what the runners' grids extend with more options."""

    overrides: tuple[tuple[str, object], ...] = ()
    preset: str = PRESET

    @classmethod
    def parse(cls, text: str) -> StacksVariant:
        """The options of ``text``, each value checked (a RulesError naming a bad one).

        >>> str(StacksVariant.parse("stacks[max_turns=50, stacks_refill=empty_hand_only]"))
        'stacks[stacks_refill=empty_hand_only,max_turns=50]'
        """
        fields = parse_overrides(text)
        make_rules(text)  # the range checks, which need no seating but a player count
        return cls().with_overrides({OPTION_NAMES[f]: v for f, v in fields.items()})

    def with_overrides(self, extra: dict[str, object]) -> StacksVariant:
        merged = {**dict(self.overrides), **extra}
        return StacksVariant(tuple((name, merged[name]) for name in OPTIONS if name in merged))

    def options(self) -> dict[str, object]:
        """Every option's value; ``players`` and ``teams`` None (a variant seats no one)."""
        base = StacksRules()
        values = {name: getattr(base, field) for name, field in OPTIONS.items()}
        return {**values, **dict(self.overrides), "players": None, "teams": None}

    def __str__(self) -> str:
        body = ",".join(f"{name}={_format(value)}" for name, value in self.overrides)
        return PRESET + (f"[{body}]" if body else "")


def make_rules(variant: str = PRESET, players: int | None = None, teams: int | None = None) -> StacksRules:
    """The rules ``variant`` names for ``players`` (default 2), every value checked."""
    fields = parse_overrides(variant)
    players = 2 if players is None else players
    if not 2 <= players <= 6:
        raise RulesError(f"Sequence Stacks is for 2 to 6 players, not {players} (ST-1)")
    if teams is not None and teams != players:
        raise RulesError("Sequence Stacks has no teams: every player plays for themselves (ST-1)")
    rules = StacksRules(players=players, **fields)
    _check(rules)
    _check_winnable(rules, {OPTION_NAMES[f] for f in fields})
    _check_first_hand(rules)
    return rules


def _check(r: StacksRules, only: str | None = None) -> None:
    """The range of every numeric option by itself (of ``only`` when given); what
    options must be together is :func:`_check_winnable`'s."""

    def within(name: str, value: int, low: int, high: int) -> None:
        if only not in (None, name):
            return
        if not low <= value <= high:
            raise RulesError(f"option {name} must be between {low} and {high}, not {value}")

    within("stacks_max_piles_per_colour", r.max_piles_per_colour, 1, MAX_PILES_PER_COLOUR)
    within("stacks_chip_supply", r.chip_supply, 0, MAX_CHIP_SUPPLY)
    within("stacks_win_chips", r.win_chips, 1, 2 * MAX_CHIP_SUPPLY)
    within("stacks_win_min_each", r.win_min_each, 0, MAX_CHIP_SUPPLY)
    within("max_turns", r.max_turns, 1, MAX_TURNS)
    within("stacks_first_turn_short", r.first_turn_short, 0, 4)  # K-4: seat 0 keeps a card
    within("stacks_first_hand_bonus", r.first_hand_bonus, 0, HAND_SIZE)  # K-7: at most a second hand


def _check_winnable(r: StacksRules, given: set[str]) -> None:
    """ST-4 and ST-21 together: a seat can hold what wins.  Chips come only from the
    supply, so ``stacks_win_chips`` is at most both colours' supply (else every game
    would end in a draw, RULES-NOTES.md); ``stacks_win_min_each`` is at most half of
    ``stacks_win_chips``.  The message blames an option the variant gives, and names
    the other with its value and whether it is the default.

    >>> _check_winnable(StacksRules(win_chips=41), {"stacks_win_chips"})
    Traceback (most recent call last):
    seqsolve.games.base.RulesError: option stacks_win_chips=41 is more chips than the supply holds, 40 in all (stacks_chip_supply 20 by default, of each colour): nobody could win (ST-4, ST-21)
    """

    def said(name: str) -> str:
        value = getattr(r, OPTIONS[name])
        return f"{name}={value}" if name in given else f"{name} {value} by default"

    if r.win_chips > 2 * r.chip_supply:
        supply = f"{2 * r.chip_supply} in all ({said('stacks_chip_supply')}, of each colour)"
        if "stacks_win_chips" in given:
            raise RulesError(
                f"option {said('stacks_win_chips')} is more chips than the supply holds, {supply}:"
                " nobody could win (ST-4, ST-21)"
            )
        lower = f" unless stacks_win_chips is at most {2 * r.chip_supply}" if r.chip_supply else ""
        raise RulesError(
            f"option {said('stacks_chip_supply')} puts {2 * r.chip_supply} chips in play, fewer than the"
            f" {r.win_chips} that win (stacks_win_chips' default): nobody could win{lower} (ST-4, ST-21)"
        )
    if 2 * r.win_min_each > r.win_chips:
        if "stacks_win_min_each" in given:
            raise RulesError(
                f"option {said('stacks_win_min_each')} must be at most half of {said('stacks_win_chips')}"
                f" ({r.win_chips // 2}): ST-21 counts both colours in the chips that win"
            )
        raise RulesError(
            f"option {said('stacks_win_chips')} is fewer than twice stacks_win_min_each ({r.win_min_each} by"
            f" default): give stacks_win_min_each too, at most {r.win_chips // 2} (ST-21)"
        )


def _check_first_hand(r: StacksRules) -> None:
    """K-4 and K-7 both change seat 0's first hand, one shorter and one longer: a game
    takes one of them.  (The deal always fits: at most 6 hands of 5 and 5 more cards,
    35 of a deck of 112 or 120.)

    >>> _check_first_hand(StacksRules(first_turn_short=1, first_hand_bonus=2))
    Traceback (most recent call last):
    seqsolve.games.base.RulesError: options stacks_first_turn_short=1 (K-4) and stacks_first_hand_bonus=2 (K-7) both change seat 0's first hand: give one of them
    """
    if r.first_turn_short and r.first_hand_bonus:
        raise RulesError(
            f"options stacks_first_turn_short={r.first_turn_short} (K-4) and "
            f"stacks_first_hand_bonus={r.first_hand_bonus} (K-7) both change seat 0's first hand: give one of them"
        )
