"""Rule options (RULES.md §2), presets, and their resolution for one game.

A *variant* is what a user types: a preset with overrides, e.g.
``classic[sequences_to_win=3]``; option values may still be tables
(``hand_size=seed000``).  :class:`Rules` is a variant resolved for a player
count and a number of sides: every option a single value, which is what the
engine and position files (P-1) use.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...errors import ArgumentError
from ..base import RulesError
from .board import SIZE, Layout, get_layout, parse_cell
from .cards import Deck, make_deck

PLAYER_COUNTS = (2, 3, 4, 6, 8, 9, 10, 12)
UNLIMITED = -1  # stored value of ``unlimited`` for integer options

# Option name -> kind, in the order of the §2.1 table, then §2.3 (P-15), then the
# analysis-only options of RULES-NOTES.
OPTIONS: dict[str, str] = {
    "players": "int",
    "teams": "int",
    "max_players": "int",
    "hand_size": "int_or_table",
    "sequences_to_win": "int_or_table",
    "overlap_max_shared": "int",
    "overlap_reuse_limit": "int_or_unlimited",
    "corner_counts_as_shared": "bool",
    "dead_card_exchanges_per_turn": "int_or_unlimited",
    "deck_exhaustion": "choice:reshuffle,draw_game,draft_end",
    "jack_identity": "choice:eyes,colour",
    "first_seat": "int",
    "allow_voluntary_pass": "bool",
    "stall_limit": "int",
    "max_turns": "int",
    "board": "name",
    "deck": "choice:standard-104,numbers-standin-1",
    "draw_mode": "choice:blind,draft",
    "draft_size": "int",
    "heart_rule": "choice:off,on",
    # analysis only, not a rule of any printed game (RULES-NOTES): seat 0 is dealt extra cards
    "bonus_cards": "int",
    # compensation rules (docs/rules.md §2.5, K-1 to K-7; K-4 and K-7 are Stacks'): a table can play them
    "hand_bonus": "int",
    "first_turn_jacks": "choice:on,off",
    "first_turn_short": "int",  # K-3
    "head_start": "int",  # K-5
    "head_start_edge": "choice:off,on",  # K-6
}

#: The range of every whole-number option (RULES.md §2; RULES-NOTES "Option ranges"),
#: checked when a variant is read and again when it is resolved for a seating.
#: The upper bounds are what the rules can mean: 40 cards in a hand and 16 in the
#: draft are the core's limits, 12 seats the most C-6 allows, a million turns far
#: beyond any game (the longest seen last a few hundred), 192 the five-cell windows
#: of the board.  ``unlimited`` is apart from these.
RANGES: dict[str, tuple[int, int]] = {
    "players": (2, 12),
    "teams": (2, 3),
    "max_players": (2, 12),
    "hand_size": (1, 40),
    "sequences_to_win": (1, 192),  # and at most max_sequences(overlap_max_shared)
    "overlap_max_shared": (0, 4),
    "overlap_reuse_limit": (1, 192),
    "dead_card_exchanges_per_turn": (0, 40),
    "first_seat": (0, 11),  # and a seat of the game
    "stall_limit": (0, 1_000_000),
    "max_turns": (0, 1_000_000),
    "draft_size": (1, 16),
    "bonus_cards": (0, 39),
    "hand_bonus": (0, 7),  # K-1: at most a second classic hand
    "first_turn_short": (0, 39),  # K-3: and fewer than hand_size (the first seat keeps a card)
    "head_start": (0, 4),  # K-5: the cells of HEAD_START_CELLS
}

#: K-5 (``head_start=N``): the cells where each later side's chips stand before the
#: first turn, by the order the sides first move after the first seat's side; a
#: side gets the first N of its row.  Each row is symmetric under a half turn of
#: the board, and no cell is in the heart (D-3) or next to another of the table:
#: a head start, not a half-built line.
HEAD_START_CELLS: tuple[tuple[str, ...], ...] = (
    ("c3", "h8", "c8", "h3"),  # the side that moves second
    ("c6", "h5", "f3", "e8"),  # the side that moves third (three sides)
)

#: K-6 (``head_start_edge=on``): K-5's chips on edge cells instead, a smaller head
#: start (an edge cell lies on fewer five-cell lines than a central one).  The rows
#: keep K-5's properties: each symmetric under a half turn, none in the heart, no two
#: cells neighbours, and no corner (C-22: a corner is every side's already).
HEAD_START_EDGE_CELLS: tuple[tuple[str, ...], ...] = (
    ("a4", "j7", "d10", "g1"),  # the side that moves second
    ("a7", "j4", "g10", "d1"),  # the side that moves third (three sides)
)

HAND_SIZE_TABLES: dict[str, dict] = {
    "official": {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3},
    # seed000: 6 players with 2 teams get 6 (the literal "two teams -> 6").
    "seed000": {2: 7, 3: 6, 4: 6, (6, 3): 5, (6, 2): 6},
    "numbers": {2: 5, 3: 5, 4: 4, 6: 4},
}
SEQUENCE_TABLES = ("by_sides", "numbers")

DEFAULTS: dict[str, object] = {
    "teams": None,
    "max_players": 12,
    "hand_size": "official",
    "sequences_to_win": "by_sides",
    "overlap_max_shared": 1,
    "overlap_reuse_limit": UNLIMITED,
    "corner_counts_as_shared": True,
    "dead_card_exchanges_per_turn": 1,
    "deck_exhaustion": "reshuffle",
    "jack_identity": "eyes",
    "first_seat": 0,
    "allow_voluntary_pass": False,
    "stall_limit": 300,
    "max_turns": 3000,
    "board": "jax",
    "deck": "standard-104",
    "draw_mode": "blind",
    "draft_size": 5,
    "heart_rule": "off",
    "bonus_cards": 0,
    "hand_bonus": 0,
    "first_turn_jacks": "on",
    "first_turn_short": 0,
    "head_start": 0,
    "head_start_edge": "off",
}

PRESETS: dict[str, dict[str, object]] = {
    "classic": {},
    "seed000": {
        "sequences_to_win": 3,
        "overlap_reuse_limit": 1,
        "hand_size": "seed000",
        "max_players": 6,
    },
    "seed002-literal": {"overlap_max_shared": 4},
    "numbers": {
        "board": "numbers-standin-1",
        "deck": "numbers-standin-1",
        "hand_size": "numbers",
        "sequences_to_win": "numbers",
        "max_players": 6,
    },
    "numbers-seed001-literal": {
        "board": "numbers-standin-1",
        "deck": "numbers-standin-1",
        "hand_size": "numbers",
        "sequences_to_win": "numbers",
        "max_players": 6,
        "overlap_max_shared": 4,
    },
    "draft": {
        "draw_mode": "draft",
        "draft_size": 5,
        "hand_size": 6,
        "sequences_to_win": 2,
        "heart_rule": "on",
        "deck_exhaustion": "draft_end",
        "teams": 2,
    },
}


OPTION_MAX = 2**31 - 1  # the largest whole-number option (a C int in the core)


def parse_value(name: str, text: str) -> object:
    """Convert an option's text to its value, with a message naming what is allowed."""
    if name not in OPTIONS:
        raise RulesError(f"unknown option {name!r} (known: {', '.join(OPTIONS)})")
    kind = OPTIONS[name]
    t = text.strip()
    if kind == "bool":
        if t.lower() in ("true", "yes", "on", "1"):
            return True
        if t.lower() in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"option {name} takes true or false, not {t!r}")
    if kind.startswith("choice:"):
        allowed = kind[len("choice:") :].split(",")
        if t not in allowed:
            raise RulesError(f"option {name} takes one of {', '.join(allowed)}, not {t!r}")
        return t
    if kind == "name":
        if not t:
            raise RulesError(f"option {name} needs a value")
        return t
    if kind == "int_or_unlimited" and t == "unlimited":
        return UNLIMITED
    if kind == "int_or_table" and not (t.isascii() and t.lstrip("-").isdigit()):
        tables = HAND_SIZE_TABLES if name == "hand_size" else SEQUENCE_TABLES
        if t not in tables:
            raise RulesError(f"option {name} takes a number or one of {', '.join(tables)}, not {t!r}")
        return t
    shown = repr(t) if len(t) <= 20 else repr(t[:20]) + "..."
    if not re.fullmatch(r"-?[0-9]+", t):
        extra = " or unlimited" if kind == "int_or_unlimited" else ""
        raise RulesError(f"option {name} takes a whole number{extra}, not {shown}")
    digits = t.lstrip("-").lstrip("0") or "0"
    if len(digits) > len(str(OPTION_MAX)):
        # int() is never asked for huge text: a number this long is past every range
        low, top = RANGES[name]
        unlimited = " or unlimited" if kind == "int_or_unlimited" else ""
        raise RulesError(f"option {name} must be {low}..{top}{unlimited}, not {shown}")
    value = int(t)
    check_range(name, value)
    return value


def check_range(name: str, value: int, high: int | None = None, why: str = "") -> None:
    """Refuse ``value`` outside :data:`RANGES` (or below ``high`` when the seating or
    another option narrows it), naming the option and its range in one line."""
    low, top = RANGES[name]
    top = top if high is None else min(top, high)
    if not low <= value <= top:
        unlimited = " or unlimited" if OPTIONS[name] == "int_or_unlimited" else ""
        raise RulesError(f"option {name} must be {low}..{top}{unlimited}{why}, not {value}")


def max_sequences(overlap_max_shared: int, size: int = SIZE) -> int:
    """The most sequences a board of ``size`` × ``size`` cells can hold when two
    sequences may share ``overlap_max_shared`` cells (C-25).

    On one line, two sequences sharing at most ``s`` cells start at least ``5 - s``
    cells apart, so a line of ``L`` cells holds at most ``(L - 5) // (5 - s) + 1``;
    sequences on different lines are different windows.  Summed over the rows,
    columns and both diagonal directions this bounds what any game can reach
    (with ``s = 0`` no cell is shared either: 100 cells hold 20).

    >>> max_sequences(0), max_sequences(1), max_sequences(4)
    (20, 68, 192)
    """
    gap = 5 - overlap_max_shared
    lengths = [size] * (2 * size) + [size - abs(d) for d in range(1 - size, size)] * 2
    fit = sum((length - 5) // gap + 1 for length in lengths if length >= 5)
    return min(fit, size * size // 5) if overlap_max_shared == 0 else fit


def format_value(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value == UNLIMITED:
        return "unlimited"
    return str(value)


_VARIANT = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[(.*)\])?$")


def _check_preset(preset: str) -> None:
    if preset == "stacks":  # another game's preset: the registry (games.game_for) reads it
        raise RulesError(
            "preset 'stacks' is Sequence Stacks, a game of its own: seqsolve.parse_rules reads it"
        )
    if preset not in PRESETS:
        raise RulesError(
            f"unknown preset {preset!r} (known: {', '.join(PRESETS)}; stacks for Sequence Stacks)"
        )


@dataclass(frozen=True)
class Variant:
    """A preset with overrides, as typed (values may be tables)."""

    preset: str = "classic"
    overrides: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        """A Variant a program builds names a preset and options that exist, so that
        :meth:`resolve` refuses it with a RulesError, never a KeyError; the values are
        checked when the rules are made."""
        if not isinstance(self.preset, str):
            raise ArgumentError(
                f"Variant: preset must be a preset name such as 'classic', not {self.preset!r}"
            )
        _check_preset(self.preset)
        pairs = self.overrides
        if (
            isinstance(pairs, (str, dict))
            or not isinstance(pairs, tuple)
            or not all(
                isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) for pair in pairs
            )
        ):
            raise ArgumentError(f"Variant: overrides must be a tuple of (option, value) pairs, not {pairs!r}")
        for name, value in pairs:  # a value is one its text would read as ('z' is no count)
            if parse_value(name, format_value(value)) != value:
                raise RulesError(f"option {name} cannot be {value!r}")

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Parse ``preset[opt=value,...]`` (P-1).

        >>> Variant.parse("classic[sequences_to_win=3]").overrides
        (('sequences_to_win', 3),)
        """
        if not isinstance(text, str):
            raise ArgumentError(
                f"Variant.parse: text must be a variant string such as 'classic', not {text!r}"
            )
        m = _VARIANT.match(text.strip())
        if not m:
            raise RulesError(f"bad variant {text!r} (expected PRESET or PRESET[opt=value,...])")
        preset, body = m.group(1), m.group(2)
        _check_preset(preset)
        overrides: list[tuple[str, object]] = []
        for item in (body or "").split(","):
            if not item.strip():
                continue
            if "=" not in item:
                raise RulesError(f"bad override {item.strip()!r} in {text!r} (expected opt=value)")
            name, value = item.split("=", 1)
            if any(name.strip() == seen for seen, _ in overrides):
                raise RulesError(f"option {name.strip()} is given twice in {text!r}")
            overrides.append((name.strip(), parse_value(name.strip(), value)))
        return cls(preset, tuple(overrides)).with_overrides({})

    def with_overrides(self, extra: dict[str, object]) -> Variant:
        merged = dict(self.overrides)
        merged.update(extra)
        ordered = tuple((k, merged[k]) for k in OPTIONS if k in merged)
        return Variant(self.preset, ordered)

    def options(self) -> dict[str, object]:
        opts = dict(DEFAULTS)
        opts.update(PRESETS[self.preset])
        opts.update(self.overrides)
        return opts

    def resolve(self, players: int | None = None, teams: int | None = None) -> Rules:
        """The rules of one game; ``players``/``teams`` override the variant's own."""
        opts = self.options()
        if players is not None:
            opts["players"] = players
        if teams is not None:
            opts["teams"] = teams
        return Rules.from_options(self.preset, opts)

    def __str__(self) -> str:
        if not self.overrides:
            return self.preset
        body = ",".join(f"{k}={format_value(v)}" for k, v in self.overrides)
        return f"{self.preset}[{body}]"


def default_teams(players: int) -> int | None:
    """Sides for a player count when not given (§2.1 ``teams``); None for 6 and 12."""
    return {2: 2, 3: 3, 4: 2, 8: 2, 9: 3, 10: 2}.get(players)


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md §2 with one value each, for one game."""

    preset: str
    players: int
    teams: int
    max_players: int
    hand_size: int
    sequences_to_win: int
    overlap_max_shared: int
    overlap_reuse_limit: int
    corner_counts_as_shared: bool
    dead_card_exchanges_per_turn: int
    deck_exhaustion: str
    jack_identity: str
    first_seat: int
    allow_voluntary_pass: bool
    stall_limit: int
    max_turns: int
    board: str
    deck: str
    draw_mode: str
    draft_size: int
    heart_rule: str
    bonus_cards: int = 0
    hand_bonus: int = 0
    first_turn_jacks: str = "on"
    first_turn_short: int = 0
    head_start: int = 0
    head_start_edge: str = "off"

    @classmethod
    def from_options(cls, preset: str, opts: dict[str, Any]) -> Rules:
        players = opts.get("players")
        if players is None:
            raise RulesError("the number of players must be given (2, 3, 4, 6, 8, 9, 10 or 12)")
        players = int(players)
        if players not in PLAYER_COUNTS:
            raise RulesError(f"{players} players cannot be seated: allowed 2, 3, 4, 6, 8, 9, 10, 12 (C-6)")
        if players > int(opts["max_players"]):
            raise RulesError(f"{players} players is more than this variant allows ({opts['max_players']})")
        teams = opts.get("teams")
        if teams is None:
            teams = default_teams(players)
            if teams is None:
                raise RulesError(f"with {players} players give the number of sides: teams=2 or teams=3")
        teams = int(teams)
        if teams not in (2, 3) or players % teams:
            raise RulesError(f"{players} players cannot form {teams} equal sides (C-6)")
        if players <= 3 and teams != players:
            # up to 3 players play individually; 2 or 3 players never share a side
            raise RulesError(f"{players} players play individually: teams must be {players}")
        if opts["draw_mode"] == "draft" and teams != 2:
            raise RulesError("the draft variant has exactly 2 sides (D-2)")
        values = dict(opts)
        values["players"], values["teams"] = players, teams
        values["hand_size"] = _resolve_hand_size(opts["hand_size"], players, teams)
        values["sequences_to_win"] = _resolve_sequences(opts["sequences_to_win"], players, teams)
        for name in RANGES:
            if name not in ("players", "teams") and values[name] != UNLIMITED:
                check_range(name, int(values[name]))
        shared = int(values["overlap_max_shared"])
        check_range(
            "sequences_to_win",
            int(values["sequences_to_win"]),
            max_sequences(shared),
            f" with overlap_max_shared={shared} (no more fit on the board)",
        )
        check_range("first_seat", int(values["first_seat"]), players - 1, f" (a seat of {players} players)")
        rules = cls(
            preset=preset, **{f.name: values[f.name] for f in dataclasses.fields(cls) if f.name != "preset"}
        )
        rules._check_cards()
        return rules

    def _check_cards(self) -> None:
        try:
            layout, deck = self.layout, self.deck_cards
        except ValueError as exc:
            raise RulesError(str(exc)) from None
        missing = [c for c in deck.codes if deck.kind(c) == 0 and len(layout.cells_of(c)) != 2]
        if missing:
            raise RulesError(f"board {self.board} does not show card {missing[0]} of deck {self.deck}")
        if self.hand_size * self.players > deck.size:
            raise RulesError(f"{self.players} hands of {self.hand_size} need more than {deck.size} cards")
        if self.hand_size * self.players + self.bonus_cards > deck.size:
            raise RulesError(
                f"{self.players} hands of {self.hand_size} and {self.bonus_cards} bonus cards "
                f"need more than {deck.size} cards"
            )
        if self.hand_size * self.players + self.bonus_cards + self.extra_dealt > deck.size:
            raise RulesError(
                f"{self.players} hands of {self.hand_size} and hand_bonus={self.hand_bonus} "
                f"for {self.players - 1} seats need more than {deck.size} cards (K-1)"
            )
        if self.hand_size + self.hand_bonus > 40:
            raise RulesError(
                f"a hand of {self.hand_size} + hand_bonus={self.hand_bonus} is more than 40 cards (K-1)"
            )
        if self.first_turn_short >= self.hand_size:
            raise RulesError(
                f"first_turn_short={self.first_turn_short} leaves the first seat no card: "
                f"it must be less than the hand of {self.hand_size} (K-3)"
            )
        if self.hand_size + self.bonus_cards > 40:
            raise RulesError(
                f"a hand of {self.hand_size} + {self.bonus_cards} bonus cards is more than 40 cards"
            )
        if (
            self.draw_mode == "draft"
            and self.hand_size * self.players + self.bonus_cards + self.extra_dealt + self.draft_size
            > deck.size
        ):
            raise RulesError(
                f"{self.players} hands of {self.hand_size} and a draft of {self.draft_size} need more than {deck.size} cards"
            )

    @cached_property
    def layout(self) -> Layout:
        return get_layout(self.board)

    @cached_property
    def deck_cards(self) -> Deck:
        return make_deck(self.deck, self.jack_identity)

    @cached_property
    def variant(self) -> Variant:
        """The shortest variant that gives these rules for this seating (P-1, P-15).

        Cached: it resolves the preset, and every game record names it."""
        try:
            base: Rules | None = Variant(self.preset).resolve(self.players, self.teams)
        except RulesError:  # the preset does not seat these players: every option is spelled out
            base = None
        changed = {}
        for name in OPTIONS:
            if name in ("players", "teams"):
                continue
            mine = getattr(self, name)
            if base is None or getattr(base, name) != mine:
                changed[name] = mine
        return Variant(self.preset).with_overrides(changed)

    def replace(self, **changes: object) -> Rules:
        opts = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "preset"}
        opts.update(changes)
        return Rules.from_options(self.preset, opts)

    @property
    def extra_dealt(self) -> int:
        """Cards the deal hands out for ``hand_bonus`` (K-1): ``hand_bonus`` to every seat but the first."""
        return self.hand_bonus * (self.players - 1)

    def hand_limit(self, seat: int) -> int:
        """The cards ``seat`` holds all game: ``hand_size``, plus ``bonus_cards`` for seat 0
        (analysis only) and ``hand_bonus`` for every seat but ``first_seat`` (K-1)."""
        return (
            self.hand_size
            + (self.bonus_cards if seat == 0 else 0)
            + (self.hand_bonus if seat != self.first_seat else 0)
        )

    def head_start_cells(self) -> list[tuple[int, list[int]]]:
        """K-5: ``(side, cells)`` for every side but the first seat's, in the order they
        first move, each with the first ``head_start`` cells of its row of
        HEAD_START_CELLS, or of HEAD_START_EDGE_CELLS with ``head_start_edge=on`` (K-6).

        >>> parse_rules("classic[head_start=2,head_start_edge=on]", players=2).head_start_cells()
        [(1, [30, 69])]
        """
        table = HEAD_START_EDGE_CELLS if self.head_start_edge == "on" else HEAD_START_CELLS
        out = []
        for k in range(1, self.teams):
            side = (self.first_seat + k) % self.players % self.teams
            out.append((side, [parse_cell(c) for c in table[k - 1][: self.head_start]]))
        return out

    @property
    def unlimited_exchanges(self) -> bool:
        return self.dead_card_exchanges_per_turn == UNLIMITED


def _resolve_hand_size(value: object, players: int, teams: int) -> int:
    if isinstance(value, int):
        return value
    table = HAND_SIZE_TABLES[str(value)]
    size = table.get((players, teams), table.get(players))
    if size is None:
        raise RulesError(f"hand size table {value} has no entry for {players} players")
    return int(size)


def _resolve_sequences(value: object, players: int, teams: int) -> int:
    if isinstance(value, int):
        return value
    if value == "by_sides":
        return 2 if teams == 2 else 1
    return 1 if players <= 3 else 2  # numbers: by players, not sides (N-3)


def parse_rules(text: str, players: int | None = None, teams: int | None = None) -> Rules:
    """Shorthand: ``parse_rules("classic", players=2)``.

    >>> r = parse_rules("seed000", players=4); r.hand_size, r.sequences_to_win
    (6, 3)
    """
    return Variant.parse(text).resolve(players, teams)
