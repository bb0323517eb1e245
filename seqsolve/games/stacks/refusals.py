"""Why a Stacks action is not legal in a position, in one sentence naming the rule: the
one wording of the engine's refusals (:class:`~.state.StacksState`) and the plain-Python
reference's, each of which decides legality on its own and asks here only for the words."""

from __future__ import annotations

from .actions import BLOCK, END, NUM_ACTIONS, PASS, ActionKind, action_to_text, decode_action
from .cards import PILE_CARDS, Card, value
from .position import StacksPosition
from .rules import StacksRules


def refusal(pos: StacksPosition, rules: StacksRules, action: int) -> str:
    """Why ``action`` is not legal in ``pos``, in one sentence naming the rule."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        return f"no Stacks action has number {action!r}"
    text, a = action_to_text(action), decode_action(action)
    if pos.result is not None:
        return f"{text}: the game is over"
    if pos.block_asked is not None:
        if action == BLOCK:
            return f"block: {_holds_no(pos, pos.block_asked, 'Block')} (ST-15)"
        return (
            f"{text}: seat {pos.block_asked} is asked whether to block the completion: block or pass (ST-15)"
        )
    seat = pos.to_move
    if action in (BLOCK, PASS):
        return f"{text}: no completion is waiting for a Block (ST-15)"
    if action == END:
        return "end: the hand is not empty, so the turn ends with a discard (ST-14)"
    if a.kind == ActionKind.DISCARD or not a.from_discard:
        if a.card not in pos.hands[seat]:
            return f"{text}: {_holds_no(pos, seat, a.card.name)}"
    elif not pos.discards[seat] or pos.discards[seat][-1] != a.card:
        return f"{text}: the top of seat {seat}'s discard pile is not {a.card.name} (ST-12)"
    elif a.card not in PILE_CARDS and not rules.actions_from_discard:
        return f"{text}: action cards are played from the hand only (stacks_actions_from_discard=false)"
    if a.card == Card.BK:
        return f"{text}: a Block is played only in answer to a completion (ST-15)"
    return f"{text}: {_no_target(a.card, a.arg, rules.max_piles_per_colour)}"


def _holds_no(pos: StacksPosition, seat: int, card: str) -> str:
    """That ``seat`` has no such card or, with cards of its hand unknown here, that it
    shows none: it may hold one, but only a card the position shows is played."""
    return f"seat {seat} {'shows' if pos.unknown[seat] else 'holds'} no {card}"


def _no_target(card: int, arg: int, max_piles: int) -> str:
    """Why a play of ``card`` naming ``arg`` finds no target (``max_piles``: a colour's
    piles in play at the most, ST-7)."""
    if card in PILE_CARDS:
        v = value(card)
        if v and arg:
            return "a number card names no target (its value gives the pile)"
        if v == 1 or (v == 0 and arg == 0):
            return f"{max_piles} piles of that colour are in play already (ST-7)"
        return f"no pile of that colour has value {arg if v == 0 else v - 1} (ST-8)"
    if card in (Card.SK, Card.RV):
        return "this card names no target"
    if card == Card.SC:
        return f"seat {arg} is not an opponent with a discard pile to steal from (ST-18)"
    return (
        f"seat {arg // 2} is not an opponent holding such a chip, or the steal would win"
        " and stacks_steal_chip_can_win is false (ST-19)"
    )
