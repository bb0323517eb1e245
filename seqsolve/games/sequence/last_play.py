"""The position just before the last turn's play: what a player who watched it knows
of the moment the opponent chose it.

A searching bot with ``infer`` weighs the worlds it deals by the play the opponent
made since its own last turn (``Searcher.set_evidence`` compares the view before that
play with the view now): an opponent who passed over a strong play probably did not
hold its card.  In a game the bot remembers the view before; a position read from a
file, or built by the API, rebuilds it from the last turn the position records (P-20),
so that the two weigh the worlds alike.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from .board import CORNERS, windows
from .moves import Move, MoveKind
from .position import EMPTY

#: a :class:`~seqsolve.games.sequence.state.State`, named by a type variable so that this
#: module, which ``state.py`` imports, imports nothing back
State = TypeVar("State", bound=Any)


def before_last_play(state: State) -> State | None:
    """``state`` as it was before the play of the seat that moved last, or None when that
    play is no evidence a search reads: the game is over or the mover is mid-turn; not
    two seats (then other turns came between the mover's); the draft (every take is
    public); the last turn is not known, had an exchange, or was a pass.

    The rebuilt position undoes the chip (and the sequences it completed), puts the card
    back on top of the draw pile's count, not in the hand (which card the seat drew is
    not known), and gives the move back to that seat.
    """
    pos = state.to_position()
    rules = state.rules
    if pos.to_move is None or pos.exchange_used or rules.players != 2 or rules.draw_mode == "draft":
        return None
    seat = (pos.to_move - 1) % rules.players
    turn = (pos.last_turns or ((),) * rules.players)[seat]
    if len(turn) != 1 or turn[0] == "pass":
        return None
    move = Move.from_str(turn[0])
    pile = pos.discards[seat]
    if not pile or pile[-1] != move.card:
        return None  # a reshuffle took the card: the discards no longer show the play
    board = list(pos.board)
    sequences = list(pos.sequences)
    colour = pos.seats[seat]
    if move.kind is MoveKind.REMOVE:
        board[move.cell] = pos.seats[pos.to_move]  # two seats: the removed chip was the mover's
    else:
        while sequences and sequences[-1][0] == colour and move.cell in windows()[sequences[-1][1]]:
            sequences.pop()  # completed by this play
        still = {c for _, w in sequences for c in windows()[w]}
        for _, w in pos.sequences[len(sequences) :]:
            for c in windows()[w]:
                if c not in CORNERS and c not in still:
                    board[c] = board[c].lower()
        board[move.cell] = EMPTY
    turns = list(pos.last_turns)
    turns[seat] = ()
    before = replace(
        pos,
        board=tuple(board),
        sequences=tuple(sequences),
        to_move=seat,
        discards=tuple(p[:-1] if s == seat else p for s, p in enumerate(pos.discards)),
        draw_count=pos.draw_count + 1,
        draw_cards=None,
        turn=max(pos.turn - 1, 0),
        last_turns=tuple(turns) if any(turns) else None,
    )
    return type(state).from_position(before)
