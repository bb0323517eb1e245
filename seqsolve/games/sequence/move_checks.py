"""Why a move is not legal here, in words: the checks behind ``State.apply`` and
``State.move_to_action``.

The core assumes legal actions and never checks again, so user input (a move
typed, read from a record or a program's answer) is checked here first, with
the rule that refuses it named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .actions import ActionKind, IllegalMoveError, decode_action, encode_action
from .board import CORNERS, cell_name, window_name
from .cards import CardKind
from .moves import Move, MoveKind

if TYPE_CHECKING:
    from ... import _core
    from .rules import Rules


class Checked(Protocol):
    """What the checks read of a state (a :class:`~seqsolve.games.sequence.state.State`):
    named here so that this module, which ``state.py`` imports, imports nothing back."""

    rules: Rules

    @property
    def core(self) -> _core.CoreGame: ...

    def is_terminal(self) -> bool: ...

    def side_of(self, seat: int) -> int: ...

    def locked_cells(self) -> list[int]: ...

    def counter_past_limit(self, action: int) -> str | None: ...


def check_move(state: Checked, move: Move) -> int:
    """Why a move is illegal, named; or its core action."""
    if state.is_terminal():
        raise IllegalMoveError(f"{move}: the game is over")
    rules, deck, core = state.rules, state.rules.deck_cards, state.core
    past = state.counter_past_limit(encode_action(ActionKind.of(move)))
    if past:  # whatever the move, this position cannot end a turn
        raise IllegalMoveError(f"{move}: {past}")
    seat = core.to_move
    side = state.side_of(seat)
    legal = core.legal_actions()
    if move.kind is MoveKind.PASS:
        action = encode_action(ActionKind.PASS)
        if action not in legal:
            raise IllegalMoveError("pass: a legal play exists, and a player who can play must (C-19)")
        return action
    if move.card not in deck.codes:
        raise IllegalMoveError(f"{move}: {move.card} is not a card of the {deck.name} deck")
    card = deck.index(move.card)
    hand = core.hand(seat)
    if card not in hand:
        raise IllegalMoveError(f"{move}: seat {seat} does not hold {move.card}")
    pick = _check_pick(state, move)
    kind = deck.kind(move.card)
    if move.kind is MoveKind.EXCHANGE:
        if kind != CardKind.NORMAL:
            raise IllegalMoveError(f"{move}: a jack is never dead (C-19a)")
        free = [cell_name(c) for c in rules.layout.cells_of(move.card) if _is_empty(state, c)]
        if free:
            raise IllegalMoveError(f"{move}: {move.card} is not dead ({', '.join(free)} is empty) (C-20)")
        if core.exchanges_left <= 0:
            raise IllegalMoveError(f"{move}: no dead-card exchange is left this turn (C-14)")
        action = encode_action(ActionKind.EXCHANGE, card, pick=pick)
    else:
        cell = move.cell
        where = cell_name(cell)
        if (
            kind != CardKind.NORMAL
            and rules.first_turn_jacks == "off"
            and core.turn == 0
            and any(_plays_normal_card(deck, a) for a in legal)
        ):
            raise IllegalMoveError(f"{move}: no jack on the game's first turn while another card plays (K-2)")
        if move.kind is MoveKind.REMOVE:
            if kind != CardKind.REMOVE:
                raise IllegalMoveError(f"{move}: only a one-eyed jack removes a chip (C-15)")
            owner = _owner(state, cell)
            if owner is None:
                raise IllegalMoveError(f"{move}: there is no chip on {where} to remove")
            if owner == side:
                raise IllegalMoveError(f"{move}: {where} holds your own side's chip")
            if cell in state.locked_cells():
                raise IllegalMoveError(f"{move}: the chip on {where} is locked in a sequence (C-27)")
            action = encode_action(ActionKind.REMOVE, card, cell, pick)
        else:
            if kind == CardKind.REMOVE:
                raise IllegalMoveError(f"{move}: {move.card} removes a chip; write {move.card}x{where}")
            if cell in CORNERS:
                raise IllegalMoveError(f"{move}: {where} is a free corner, never played on (C-23)")
            if not _is_empty(state, cell):
                raise IllegalMoveError(f"{move}: {where} is not empty")
            cells = rules.layout.cells_of(move.card)
            if kind == CardKind.NORMAL and cell not in cells:
                names = ", ".join(cell_name(c) for c in cells)
                raise IllegalMoveError(f"{move}: {move.card} is played on {names}, not {where}")
            action = encode_action(ActionKind.PLACE, card, cell, pick)
            if move.declare is not None:
                options = core.declarations(cell)
                if tuple(move.declare) not in options:
                    shown = "; ".join(",".join(_window_names(o)) or "none" for o in options[:4])
                    if len(options) > 4:
                        shown += f"; … ({len(options)} maximum choices in all)"
                    raise IllegalMoveError(f"{move}: not a maximum declaration here (C-26); choose {shown}")
    if action not in legal:  # pragma: no cover - the checks above mirror the core
        raise IllegalMoveError(f"{move}: not legal here")
    return action


def _check_pick(state: Checked, move: Move) -> int:
    """Index of the draft card a move takes (D-1), -1 outside the draft variant."""
    draft = state.core.draft()
    if state.rules.draw_mode != "draft" or not draft:
        if move.pick is not None:
            raise IllegalMoveError(f"{move}: there is no draft card to take")
        return -1
    codes = state.rules.deck_cards.codes
    if move.pick is None:
        offer = ", ".join(sorted({codes[c] for c in draft}, key=state.rules.deck_cards.index))
        raise IllegalMoveError(
            f"{move}: name the draft card to take, e.g. {move}+{codes[draft[0]]} ({offer})"
        )
    if move.pick not in codes or state.rules.deck_cards.index(move.pick) not in draft:
        raise IllegalMoveError(f"{move}: {move.pick} is not in the draft")
    return state.rules.deck_cards.index(move.pick)


def _owner(state: Checked, cell: int) -> int | None:
    for side in range(state.rules.teams):
        if state.core.chips(side) >> cell & 1:
            return side
    return None


def _is_empty(state: Checked, cell: int) -> bool:
    return cell not in CORNERS and _owner(state, cell) is None


def _window_names(option: tuple[int, ...]) -> list[str]:
    return [window_name(w) for w in option]


def _plays_normal_card(deck, action: int) -> bool:
    """Whether a core action places a chip with a card that is not a jack (K-2)."""
    kind, card, _, _ = decode_action(action)
    return kind == ActionKind.PLACE and deck.kind(deck.codes[card]) == CardKind.NORMAL
