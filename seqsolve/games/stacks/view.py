"""A Stacks position for people and programs: drawn as text for ``seqsolve show`` and
given as JSON fields for ``--json`` and ``--to json`` (docs/stacks.md, "Commands").

Both read a :class:`~.position.StacksPosition`, so they show exactly what a position
file would (an observation's unknown cards as ``?``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..render import draw_pile_line, legal_lines
from .actions import action_to_text
from .cards import card_code
from .position import StacksPosition
from .position_text import to_stn
from .rules import OPTIONS


def _codes(cards: Sequence[int]) -> list[str]:
    return [card_code(c) for c in cards]


def _hand(pos: StacksPosition, seat: int) -> list[str]:
    return _codes(sorted(pos.hands[seat])) + ["?"] * pos.unknown[seat]


def _known_then_unknown(pos: StacksPosition, seat: int) -> list[str]:
    """The hand as a file writes it: known cards, then ``?N`` for the unknown ones."""
    known = _codes(sorted(pos.hands[seat]))
    return known + [f"?{pos.unknown[seat]}"] if pos.unknown[seat] else known


def position_to_dict(pos: StacksPosition) -> dict:
    """Every field of ``pos`` as JSON-able data, cards by their codes (``"?"`` unknown).

    >>> from seqsolve.games.stacks.position_text import parse
    >>> d = position_to_dict(parse("stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0"))
    >>> d["hands"][1], d["piles"], d["chips"]
    (['?', '?', '?', '?', '?'], [['B1', 'B2', 'B3'], ['R1']], [[0, 1], [0, 0]])
    """
    variant = pos.rules.variant
    defaults = type(pos.rules)(players=pos.rules.players)
    return {
        "variant": variant,
        "options": {
            name: getattr(pos.rules, field)
            for name, field in OPTIONS.items()
            if getattr(pos.rules, field) != getattr(defaults, field)
        },
        "players": pos.players,
        "to_move": pos.to_move,
        "direction": "forward" if pos.direction == 1 else "reverse",
        "progress": pos.progress,
        "refilled": pos.refilled,
        "block_asked": pos.block_asked,
        "result": None if pos.result is None else str(pos.result),
        "turn": pos.turn,
        "quiet": pos.quiet,
        "hands": [_hand(pos, s) for s in range(pos.players)],
        "discards": [_codes(pile) for pile in pos.discards],
        "special": _codes(sorted(pos.special)),
        "piles": [_codes(pile) for pile in pos.piles],
        "chips": [[blue, red] for blue, red in pos.chips],
        "skips": list(pos.skips),
        "aside_count": pos.aside_count,
        "aside_cards": None if pos.aside_cards is None else _codes(sorted(pos.aside_cards)),
        "draw_count": pos.draw_count,
        "draw_cards": None if pos.draw_cards is None else _codes(pos.draw_cards),
        "last_decision": None
        if pos.last_decision is None
        else {"seat": pos.last_decision[0], "decision": action_to_text(pos.last_decision[1])},
        "stn": to_stn(pos),
    }


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def render_position(
    pos: StacksPosition, legal: Sequence[str] | None = None, notes: Sequence[str] = ()
) -> str:
    """The piles, then each seat's hand, discard pile, chips and skip tokens, then the
    shared stacks; ``legal`` lists the decisions of the seat asked now.  Ends with a newline."""
    rules = pos.rules
    lines = [
        (
            f"variant    {rules.variant}  ({rules.players} players, {rules.win_chips} chips to win,"
            f" at least {rules.win_min_each} of each colour)"
        )
    ]
    if pos.result is not None:
        lines.append("result     draw" if pos.result == "draw" else f"result     seat {pos.result} wins")
    else:
        way = "forward" if pos.direction == 1 else "reverse"
        made = ", has made progress" if pos.progress else ""
        made += ", has refilled the draw pile" if pos.refilled else ""
        lines.append(f"to move    seat {pos.to_move} (play goes {way}{made})")
        if pos.block_asked is not None:
            lines.append(
                f"block?     seat {pos.block_asked} is asked whether to block the completed pile (ST-15)"
            )
    lines.extend(notes)
    lines.append(f"turn       {pos.turn}  (quiet {pos.quiet})")
    if pos.last_decision is not None:
        seat, action = pos.last_decision
        lines.append(f"last       seat {seat}: {action_to_text(action)}")
    piles = "  |  ".join(" ".join(_codes(p)) for p in pos.piles)
    lines.append(f"piles      {piles or '-'}")
    for seat in range(pos.players):
        blue, red = pos.chips[seat]
        lines.append(
            f"seat {seat}     hand {_cards(_known_then_unknown(pos, seat))}   chips {blue} blue {red} red"
            + (f"   skips {pos.skips[seat]}" if pos.skips[seat] else "")
        )
    for seat, pile in enumerate(pos.discards):
        top = f"  (top {card_code(pile[-1])}, {len(pile)} cards)" if pile else ""
        lines.append(f"discard {seat}  {_cards(_codes(pile))}{top}")
    lines.append(f"special    {_cards(_codes(sorted(pos.special)))}")
    lines.append(f"aside      {pos.aside_count} card{'s' if pos.aside_count != 1 else ''}")
    lines.append(draw_pile_line(pos.draw_count, pos.draw_cards and _codes(pos.draw_cards)))
    lines.extend(legal_lines(legal, pos.result, "the hand of the seat asked is not known here"))
    return "\n".join(lines) + "\n"
