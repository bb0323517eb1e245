"""A slow, full-width check of a forced win, in plain Python on :class:`RefGame`:
the reference for the compiled proof search (:mod:`seqsolve._proof`).

Nothing is cut down here.  After a given turn of the side to move, every seat that is
not one of the side's choosing seats may play every card of the *pool* (every card
with a copy the side to move has not seen) and every card it is known to hold, on
every cell, or pass; the choosing seats play only the cards they hold now, less
those they have played (nothing drawn is counted on).  The side wins by force
within ``plies`` turns when, whatever those seats do, its choosing seats can make
it win.  Exponential: meant for two or three turns in tests.
"""

from __future__ import annotations

from collections import Counter

from ..games.sequence.moves import Move, MoveKind
from .game import RefGame


def unseen_pool(game: RefGame, seen_hands: list[list[str] | None]) -> list[str]:
    """Distinct cards with a copy in no hand listed in ``seen_hands`` and on no discard pile."""
    counts = Counter(game._all_cards())
    for hand in seen_hands:
        if hand:
            counts.subtract(hand)
    for pile in game.discards:
        counts.subtract(pile)
    return [c for c, n in counts.items() if n > 0]


def forced_win(
    game: RefGame,
    colour: str,
    hands: dict[int, list[str]],
    pool: list[str],
    plies: int,
    holds: dict[int, list[str]] | None = None,
) -> bool:
    """Does ``colour`` win within ``plies`` turns of ``game`` whatever the others do?

    Args:
        game: the full game (its hands are replaced as the check goes).
        colour: the side to prove a win for.
        hands: the cards each choosing seat of that side may play (copied).
        pool: the cards any other seat may play.
        plies: turns of any seat, the one to move first.
        holds: other seats whose hands are known: on their next turn they play only
            these cards (and the pool too if one of them is dead, as an exchange would
            bring any card); later they have drawn, and play the pool.

    Another seat's turns that put a chip on the same cell (or take the same one off) are
    tried once: which card it discarded cannot change what a side holds, and the pool
    stays as it was.
    """
    holds = holds or {}
    if game.is_over:
        return game.result == colour
    if plies <= 0:
        return False
    seat = game.to_move
    if seat in hands:
        for move in _moves(game, seat, hands[seat]):
            child = game.clone()
            child.hands[seat] = list(hands[seat])
            child.apply(move)
            if child.result is None and child.to_move == seat:
                continue  # an exchange: the replacement is not counted on
            rest = dict(hands)
            rest[seat] = _without(hands[seat], move)
            if forced_win(child, colour, rest, pool, plies - 1, holds):
                return True
        return False
    cards = set(pool)
    later = holds
    if seat in holds:
        cards = set(holds[seat])
        if any(game.is_dead(c) for c in cards) and game.exchange_allowed():
            cards |= set(pool)
        later = {s: h for s, h in holds.items() if s != seat}
    tried = set()
    for card in sorted(cards):
        for move in _moves(game, seat, [card]):
            parsed = Move.from_str(move)
            target = (parsed.kind, parsed.cell)
            if parsed.kind == MoveKind.EXCHANGE or target in tried:
                continue  # an exchange: what follows it is another card of the pool
            tried.add(target)
            child = game.clone()
            child.hands[seat] = [card]
            child.apply(move)
            if not forced_win(child, colour, hands, pool, plies - 1, later):
                return False
    child = game.clone()
    child.hands[seat] = []
    child.apply("pass")  # nothing it holds can be played, or it plays where nothing matters
    return forced_win(child, colour, hands, pool, plies - 1, later)


def _moves(game: RefGame, seat: int, cards: list[str]) -> list[str]:
    """The legal actions of ``seat`` holding exactly ``cards`` (one draft pick each)."""
    game = game.clone()
    game.hands[seat] = list(cards)
    seen, out = set(), []
    for move in game.legal_moves():
        key = move.split("+")[0]
        if key not in seen and move != "pass":
            seen.add(key)
            out.append(move)
    if not out:
        out.append("pass")
    return out


def _without(cards: list[str], move: str) -> list[str]:
    rest = list(cards)
    played = Move.from_str(move).card
    if played in rest:
        rest.remove(played)
    return rest
