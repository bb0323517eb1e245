"""A tiny referee: a seqsolve bot against a hand-written player, through the public
API only (``import seqsolve``, docs/api.md).

The referee keeps the game (a :class:`seqsolve.State`) and sends each player what a
contest framework would: plain lists and strings of what its seat can see.  The
seqsolve player turns them back into a checked state with :func:`seqsolve.make_state`
and asks a bot; the hand-written one picks among the legal moves it is sent.  A
move that is not legal here loses the game, as in a real contest.

    python examples/embed.py                          # mcts, 0.05 s a move
    python examples/embed.py --bot heuristic --seed 7
"""

from __future__ import annotations

import argparse

import numpy as np

import seqsolve


def view_for(state: seqsolve.State, seat: int) -> dict:
    """What seat ``seat`` is told: the board, its own cards, the other hands' sizes,
    the discard piles, the sequences and the legal moves, as plain objects."""
    pos = state.to_position(viewer=seat)
    return {
        "variant": str(pos.rules.variant),
        "seats": pos.seats,
        "seat": seat,
        "board": ["".join(pos.board[row * 10 : row * 10 + 10]) for row in range(10)],
        "hands": [list(h.known) if s == seat else len(h) for s, h in enumerate(pos.hands)],
        "discards": [list(pile) for pile in pos.discards],
        "sequences": list(pos.sequences),  # (colour, window number) in completion order
        "exchange_used": pos.exchange_used,
        "draw": pos.draw_count,
        "turn": pos.turn,
        "stall": pos.stall,
        "legal": [str(move) for move in state.legal_moves()],
    }


def seqsolve_player(bot: str, seconds: float | None, rng: np.random.Generator):
    """A player backed by a seqsolve bot: the view becomes a state (checked as a
    position file would be), the bot's move goes back as text."""

    def play(view: dict) -> str:
        state = seqsolve.make_state(
            view["board"],
            view["hands"],
            variant=view["variant"],
            seats=view["seats"],
            to_move=view["seat"],
            exchange_used=view["exchange_used"],
            discards=view["discards"],
            sequences=view["sequences"],
            draw=view["draw"],
            turn=view["turn"],
            stall=view["stall"],
        )
        return str(seqsolve.best_move(state, bot, seconds=seconds, seed=rng))

    return play


def centre_player(view: dict) -> str:
    """Hand-written: the placement nearest the centre of the board, else the first
    legal move (an exchange, a removal or a pass)."""

    def distance(move: str) -> float:
        cell = move.partition("@")[2]
        column, row = ord(cell[0]) - ord("a"), int(cell[1:]) - 1
        return abs(column - 4.5) + abs(row - 4.5)

    placements = [m for m in view["legal"] if "@" in m]
    return min(placements, key=distance) if placements else view["legal"][0]


def referee(players: dict, seed: int) -> str:
    """Play one game of classic Sequence between ``players`` (name: player, in seat
    order); says who won and how."""
    names, play = list(players), list(players.values())
    state = seqsolve.State.new(seqsolve.parse_rules("classic", players=len(play)), seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        answer = play[seat](view_for(state, seat))
        try:
            state.apply(answer)
        except (seqsolve.IllegalMoveError, seqsolve.MoveSyntaxError) as exc:
            return f"{names[seat]} forfeits after {state.turn} turns: {exc}"
    outcome = state.outcome()
    winners = [names[s] for s, colour in enumerate(state.seats) if colour == outcome.winner]
    how = f"{outcome.termination.name.lower()} after {state.turn} turns"
    return f"{' and '.join(winners)} wins ({how})" if winners else f"a draw ({how})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="mcts", help="the seqsolve bot's spec (default mcts)")
    parser.add_argument("--seconds", type=float, default=None, help="its time budget a move (mcts: 0.05)")
    parser.add_argument("--seed", type=int, default=1, help="the deal and the bot's choices")
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None or args.bot != "mcts" else 0.05
    bot = seqsolve_player(args.bot, seconds, np.random.default_rng(args.seed))
    print(referee({f"seqsolve {args.bot}": bot, "the centre player": centre_player}, args.seed))


if __name__ == "__main__":
    main()
