"""Helpers for the engine rule tests: small hand-built positions for :class:`seqsolve.games.sequence.state.State`.

Positions are built directly as :class:`Position` objects, so they need not hold a full
104-card deck (the engine does not ask for one); tests about card conservation build full
decks with ``draw="rest"``.  Cells and windows are written by name (``"a5 b5"``,
``"a5-e5"``) so a test reads like the rule it checks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from seqsolve.games.sequence.board import CORNERS, parse_cell, parse_window, window_name
from seqsolve.games.sequence.cards import CardKind
from seqsolve.games.sequence.position import Hand, Position
from seqsolve.games.sequence.rules import PRESETS, RulesError, parse_rules
from seqsolve.games.sequence.state import State

#: Harmless cards for a draw pile (their cells are far from where the tests play).
FILLER = ("AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C")

#: Options that keep hand-built games from ending early in geometry tests.
LONG_GAME = {"sequences_to_win": 9, "stall_limit": 0, "max_turns": 0}


def rules_for(variant: str = "classic", players: int = 2, teams: int | None = None, **changes):
    """Rules of ``variant`` for a seating, with option overrides given as keywords."""
    rules = parse_rules(variant, players=players, teams=teams)
    return rules.replace(**changes) if changes else rules


def cells(names: str) -> list[int]:
    """``cells("a1 e5") == [0, 44]``."""
    return [parse_cell(n) for n in names.split()]


def W(text: str) -> int:
    """Window number of ``"a5-e5"``."""
    return parse_window(text)


def empty_board() -> list[str]:
    return ["*" if c in CORNERS else "." for c in range(100)]


def _cards(value) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    return tuple(value)


def make(
    rules,
    chips: dict[str, str] | None = None,
    hands=None,
    draw=None,
    discards=None,
    sequences: tuple[str, ...] | list[str] = (),
    to_move: int = 0,
    draft=None,
    turn: int = 0,
    stall: int = 0,
    exchange_used: bool = False,
    seats: str | None = None,
    seed: int = 0,
    unknown_hands: dict[int, int] | None = None,
) -> State:
    """A State from a hand-built position.

    Args:
        chips: board token -> space-separated cell names, e.g. ``{"b": "a5 b5", "G": "c3"}``.
        hands: per seat, a list of codes or a space-separated string (default: empty hands).
        draw: the draw pile top first (codes or a string); an int for that many unknown
            cards; ``"rest"`` for every card of the deck not named elsewhere (a full deck).
        discards: per seat, bottom first.
        sequences: ``"b a5-e5"`` strings in completion order.
        unknown_hands: seat -> number of unknown cards added to that hand.
    """
    seats = seats or "bgr"[: rules.teams] * (rules.players // rules.teams)
    board = empty_board()
    for token, where in (chips or {}).items():
        for c in cells(where):
            board[c] = token
    hands = [_cards(h) for h in (hands if hands is not None else [()] * rules.players)]
    hands += [()] * (rules.players - len(hands))
    discards = [_cards(d) for d in (discards if discards is not None else [()] * rules.players)]
    discards += [()] * (rules.players - len(discards))
    draft_cards = None if draft is None else _cards(draft)
    if draw == "rest":
        left = Counter(rules.deck_cards.cards())
        left.subtract(c for h in hands for c in h)
        left.subtract(c for d in discards for c in d)
        left.subtract(draft_cards or ())
        assert all(v >= 0 for v in left.values()), "a card is named more than twice"
        draw_cards: tuple[str, ...] | None = tuple(sorted(left.elements(), key=rules.deck_cards.index))
        draw_count = len(draw_cards)
    elif isinstance(draw, int):
        draw_cards, draw_count = None, draw
    else:
        filler = FILLER if rules.deck == "standard-104" else rules.deck_cards.codes[:12]
        draw_cards = _cards(filler if draw is None else draw)
        draw_count = len(draw_cards)
    unknown_hands = unknown_hands or {}
    pos = Position(
        rules=rules,
        seats=seats,
        board=tuple(board),
        to_move=to_move,
        hands=tuple(
            Hand(tuple(sorted(h, key=rules.deck_cards.index)), unknown_hands.get(s, 0))
            for s, h in enumerate(hands)
        ),
        discards=tuple(discards),
        sequences=tuple((s.split()[0], W(s.split()[1])) for s in sequences),
        draw_count=draw_count,
        draw_cards=draw_cards,
        turn=turn,
        stall=stall,
        exchange_used=exchange_used,
        draft=draft_cards,
    )
    return State.from_position(pos, seed=seed)


def give(state: State, seat: int, cards, to_move: int | None = None) -> State:
    """A copy of ``state`` in which ``seat`` also holds ``cards`` (and, optionally, is to move)."""
    pos = state.to_position()
    hands = list(pos.hands)
    known = hands[seat].known + _cards(cards)
    hands[seat] = Hand(tuple(sorted(known, key=state.rules.deck_cards.index)), hands[seat].unknown)
    pos = replace(pos, hands=tuple(hands), to_move=pos.to_move if to_move is None else to_move)
    return State.from_position(pos, seed=1)


def drop(state: State, where: str, seat: int | None = None, declare: str | None = None) -> State:
    """Let ``seat`` (default: the mover) place chips on the named cells one after another with
    two-eyed jacks (Plus cards in Numbers), each as a turn of its own; returns the resulting state.

    This is how the tests build lines whose chips arrived in a given order (C-26).
    """
    deck = state.rules.deck_cards
    wild = next(c for c in deck.codes if deck.kind(c) == CardKind.WILD)
    for name in where.split():
        mover = state.current_player if seat is None else seat
        state = give(state, mover, wild, to_move=mover)
        suffix = f"={declare}" if declare else ""
        state.apply(f"{wild}@{name}{suffix}")
    return state


def seq_names(state: State) -> list[str]:
    """Completed sequences as ``"b:a5-e5"`` strings, in completion order (P-7)."""
    return [f"{c}:{window_name(w)}" for c, w in state.sequences()]


def decl_names(state: State, cell: str, seat: int | None = None) -> list[list[str]]:
    """The maximum declarations (C-26) a chip of ``seat`` (default: the mover) on ``cell``
    would make."""
    if seat is not None and seat != state.current_player:
        state = give(state, seat, (), to_move=seat)
    return [[window_name(w) for w in d] for d in state.declarations(parse_cell(cell))]


def moves(state: State) -> list[str]:
    """The legal moves as P-12 strings, in P-13 order."""
    return [str(m) for m in state.legal_moves()]


def board_token(state: State, cell: str) -> str:
    return state.to_position().board[parse_cell(cell)]


def card_census(state: State) -> Counter:
    """Every card the engine holds: hands, discard piles, draw pile and draft, as codes
    (read from the core, so a reshuffled draw pile counts too)."""
    core, codes = state.core, state.rules.deck_cards.codes
    found = [c for s in range(state.rules.players) for c in core.hand(s)]
    found += [c for _, c in core.discards()] + core.draw_pile() + core.draft()
    return Counter("?" if c == 255 else codes[c] for c in found)


#: Every seating of RULES.md §1.3: (players, teams), teams None where the count decides it.
SEATINGS = (
    (2, None),
    (3, None),
    (4, None),
    (6, 2),
    (6, 3),
    (8, None),
    (9, None),
    (10, None),
    (12, 2),
    (12, 3),
)


def preset_configs(variants=PRESETS, seatings=SEATINGS) -> list[tuple[str, int, int | None]]:
    """(variant, players, teams) for every variant (the presets by default) and every
    seating of ``seatings`` it allows, found by trying."""
    found = []
    for preset in variants:
        for players, teams in seatings:
            try:
                parse_rules(preset, players=players, teams=teams)
            except RulesError:
                continue
            found.append((preset, players, teams))
    return found
