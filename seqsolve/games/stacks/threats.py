"""What ``analyze`` can say exactly of a Sequence Stacks position beyond its search,
found by trying decisions and counting cards rather than by search (the game's
:meth:`~seqsolve.games.stacks.game.StacksGame.tactics`):

* **wins now**: a decision whose completion (ST-9) brings the chip that wins the mover
  the game (ST-21).  All opponents are then asked whether to block it (ST-15), so it
  is an exact win only when none of them can hold a Block; otherwise it wins unless
  one is played (``win_unless_blocked``);
* **opponents' completions**: per opponent, each pile one card from its 5 whose chip
  would win that seat, with the cards that complete it (the pile's 5 and its colour's
  wild, ST-8), whether the seat holds one, may hold one or cannot, as the analyst
  sees the cards, and whether a Block (ST-15) can stop it; a completion waiting in an
  open Block window counts too.  A decision after which no opponent has a possible
  one left is a *block* (a pile completed by the mover, a chip stolen, ST-19);
* **the threat summary** of every seat (``threats`` of ``analyze --json``).

It is a count, not a search: runs of several cards in one turn (ST-12: a pile at 3
finished with its 4 and its 5), and an opponent's Steal-a-Chip that wins under
``stacks_steal_chip_can_win=true`` (ST-19), are left to the search.  Every seat is a
side (ST-1).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from ..exact import NoTactics, has_won, outcome_of
from .cards import HAND_SIZE, Card, card_code, colour
from .position_text import FULL_PILE

COLOUR_WORDS = ("blue", "red")
#: the cards that complete a pile at 4 of each colour: its 5 and its wild (ST-8)
COMPLETERS = ((Card.B5, Card.BW), (Card.R5, Card.RW))


@dataclass
class SeatThreats:
    """The threat summary of one seat (see :func:`threat_summary`)."""

    side: str
    seats: list[int]
    chips: dict[str, int]
    #: chip colours whose next chip wins the seat the game (ST-21), with chips left in the supply
    wins_with: list[str]
    #: piles at 4 of those colours: ``{"pile", "cards", "holds"}``, ``holds`` one of
    #: ``yes`` (in its hand or on its discard top, or a Steal-a-Card it holds reaches one
    #: on a discard top), ``maybe`` (its unknown cards, or its draw at its next turn
    #: start, may bring one), ``no``; ``played`` for a completion in an open Block window
    completions: list[dict]
    #: whether the seat could win with the next card it plays (a Block aside)
    possible: bool

    def to_dict(self) -> dict:
        return asdict(self)

    def lines(self) -> list[str]:
        """The seat's line(s) of ``analyze``'s report."""
        chips = f"{self.chips['blue']}b{self.chips['red']}r"
        wins = " or ".join(self.wins_with) + " chip wins" if self.wins_with else "no single chip wins"
        out = [f"  seat {self.side:<4} {chips}: {wins}"]
        for c in self.completions:
            if c["holds"] == "played":
                out.append(f"         {c['pile']} completed: the chip is the Block window's")
            else:
                out.append(
                    f"         {c['pile']} completes with {' or '.join(c['cards'])}: holds {c['holds']}"
                )
        return out


class _Cards:
    """What the analyst knows of the cards of a position: the copies of each kind it
    does not see, and what each seat holds, may hold or will draw."""

    def __init__(self, pos):
        self.pos = pos
        self.unseen = _unseen(pos)

    def draws(self, seat: int) -> int:
        """Cards ``seat`` draws at the start of its next turn (ST-11); none for the seat
        whose turn it is (it refilled already) or when nothing is left to draw."""
        pos = self.pos
        if seat == pos.to_move or not (pos.draw_count or pos.aside_count):
            return 0
        size = len(pos.hands[seat]) + pos.unknown[seat]
        if pos.rules.refill == "turn_start":
            return max(0, HAND_SIZE - size)
        return HAND_SIZE if size == 0 else 0

    def _top(self, seat: int) -> set[int]:
        """The seat's own discard top when it may play it (ST-12: numbers and wilds
        always, action cards when ``stacks_actions_from_discard``)."""
        top = self.pos.discards[seat][-1:]
        if top and colour(top[0]) is None and not self.pos.rules.actions_from_discard:
            return set()
        return set(top)

    def holds(self, seat: int, kinds) -> str:
        """``yes``, ``maybe`` or ``no``: may ``seat`` play one of ``kinds`` on its next
        turn (its hand, its discard top, its draw, or a Steal-a-Card on another seat's
        discard top, ST-18)?"""
        pos = self.pos
        kinds = set(kinds)
        own = set(pos.hands[seat]) | self._top(seat)
        stealable = {
            pile[-1] for s, pile in enumerate(pos.discards) if s != seat and pile and pile[-1] in kinds
        }
        if own & kinds or (stealable and Card.SC in own):
            return "yes"
        drawn = self._drawn(seat)
        if any(k in drawn for k in kinds):
            return "maybe"
        hidden = pos.unknown[seat] + (self.draws(seat) if pos.draw_cards is None else 0)
        if hidden and (any(self.unseen[k] for k in kinds) or (stealable and self.unseen[Card.SC])):
            return "maybe"
        if stealable and Card.SC in drawn:
            return "maybe"
        return "no"

    def _drawn(self, seat: int) -> list[int]:
        """The listed cards ``seat`` would draw at its next turn start (open information;
        the mover's own draws this turn may change them, so they are a ``maybe``)."""
        if self.pos.draw_cards is None:
            return []
        return self.pos.draw_cards[: self.draws(seat)]

    def blockers(self, completer: int) -> dict:
        """Who could block a completion of ``completer`` (ST-15: from the hand only):
        ``{"block": "yes" | "maybe" | "no", "blockers": seats holding or maybe holding one}``."""
        pos = self.pos
        sure, maybe = [], []
        for seat in range(pos.rules.players):
            if seat == completer:
                continue
            if Card.BK in pos.hands[seat]:
                sure.append(seat)
            elif pos.unknown[seat] and self.unseen[Card.BK]:
                maybe.append(seat)
        word = "yes" if sure else "maybe" if maybe else "no"
        return {"block": word, "blockers": sorted(sure + maybe)}


def _winning_colours(pos, seat: int) -> list[int]:
    """Chip colours whose next chip wins ``seat`` (ST-21), with a chip left in the supply (ST-9)."""
    rules = pos.rules
    held = [sum(c[k] for c in pos.chips) for k in (0, 1)]
    chips = pos.chips[seat]
    return [
        k
        for k in (0, 1)
        if held[k] < rules.chip_supply and rules.meets_win(chips[0] + (k == 0), chips[1] + (k == 1))
    ]


def _completions(pos, cards: _Cards, seat: int) -> list[dict]:
    """The completions that would win ``seat`` the game: piles at 4 of a winning colour,
    and the pile at 5 of an open Block window when ``seat`` made it."""
    wins_with = _winning_colours(pos, seat)
    out = []
    for pile in pos.piles:
        k = colour(pile[0])
        if k not in wins_with:
            continue
        if len(pile) == FULL_PILE - 1:
            kinds = COMPLETERS[k]
            out.append(
                {
                    "pile": "+".join(map(card_code, pile)),
                    "cards": [card_code(c) for c in kinds],
                    "holds": cards.holds(seat, kinds),
                }
            )
        elif len(pile) == FULL_PILE and pos.block_asked is not None and seat == pos.to_move:
            out.append({"pile": "+".join(map(card_code, pile)), "cards": [], "holds": "played"})
    return out


def threat_summary(view) -> list[SeatThreats]:
    """Every seat's summary in ``view`` (a state; what it does not list is unknown)."""
    pos = view.to_position()
    cards = _Cards(pos)
    out = []
    for seat in range(pos.rules.players):
        chips = pos.chips[seat]
        completions = _completions(pos, cards, seat)
        out.append(
            SeatThreats(
                side=view.seats[seat],
                seats=[seat],
                chips={"blue": chips[0], "red": chips[1]},
                wins_with=[COLOUR_WORDS[k] for k in _winning_colours(pos, seat)],
                completions=completions,
                possible=any(c["holds"] != "no" for c in completions),
            )
        )
    return out


def opponent_wins(view, side: int) -> list[dict]:
    """For every seat but ``side``, the completions that would win it the game.

    Each entry (shaped as Sequence's, a pile for a cell): ``{"side", "pile", "cards",
    "holds", "possible", "block", "blockers"}``: the seat, the pile (``B1+B2+B3+B4``),
    the cards that complete it, whether the seat holds one (``yes``, ``maybe``,
    ``no``, ``played`` when it waits in an open Block window), ``possible`` unless
    ``no``, and whether a Block can stop it (``yes`` when a seat is known to hold one,
    ``maybe``, ``no``) with the seats that hold or may hold one.

    >>> from seqsolve.games import read_state
    >>> s = read_state("stacks 0> B1,B3,R5,SK/R2,R3 -/- - B1+B2+B3+B4 0b0r/2b2r 0/0 0 102 0 0")
    >>> [(t["side"], t["pile"], t["holds"], t["block"]) for t in opponent_wins(s.observation(0), 0)]
    [('1', 'B1+B2+B3+B4', 'maybe', 'no')]
    """
    pos = view.to_position()
    cards = _Cards(pos)
    out = []
    for seat in range(pos.rules.players):
        if seat == side:
            continue
        for c in _completions(pos, cards, seat):
            out.append(
                {
                    "side": view.seats[seat],
                    **c,
                    "possible": c["holds"] != "no",
                    **cards.blockers(seat),
                }
            )
    return out


def wins_now(view, turn, side: int) -> str | None:
    """``"win"`` when the decisions ``turn`` win ``side`` the game at once (the game is
    over, or the completion that wins waits in a Block window no opponent can answer
    with a Block); ``"win_unless_blocked"`` when an opponent may block that completion;
    None otherwise (or when ``turn`` is not legal in ``view``)."""
    after = outcome_of(view, turn)
    if after is None:
        return None
    if after.is_terminal():
        return "win" if has_won(after, side) else None
    pos = after.to_position()
    if pos.block_asked is None or pos.to_move != side:
        return None
    cards = _Cards(pos)
    if not any(c["holds"] == "played" for c in _completions(pos, cards, side)):
        return None
    return "win" if cards.blockers(side)["block"] == "no" else "win_unless_blocked"


def _unseen(pos) -> Counter:
    """Copies of each kind the position does not show anywhere."""
    shown = Counter()
    for cards in (
        *pos.hands,
        *pos.discards,
        pos.special,
        *pos.piles,
        pos.aside_cards or [],
        pos.draw_cards or [],
    ):
        shown.update(cards)
    return Counter({kind: count - shown[kind] for kind, count in enumerate(pos.rules.deck)})


class StacksTactics(NoTactics):
    """Stacks' exact facts for ``analyze``: wins now, the opponents' winning completions
    and the decisions that leave none.  A turn is many decisions, so each decision is
    ranked on its own (``whole_turns`` False), and there are no exchanges nor proofs."""

    whole_turns = False
    looked = True

    def __init__(self, view):
        self._view = view

    @staticmethod
    def opponent_wins(view, side: int) -> list[dict]:
        return opponent_wins(view, side)

    @staticmethod
    def wins_now(view, turn, side: int) -> str | None:
        return wins_now(view, turn, side)

    @staticmethod
    def describe(threat: dict) -> str:
        """One entry of :func:`opponent_wins` in words."""
        if threat["holds"] == "played":
            what = f"seat {threat['side']} completed {threat['pile']}, its winning chip waits on the Block window"
        else:
            what = (
                f"seat {threat['side']} completes {threat['pile']} with {' or '.join(threat['cards'])}"
                f" (holds {threat['holds']})"
            )
        seats = ", ".join(map(str, threat["blockers"]))
        block = {
            "yes": f"a Block stops it (seats holding or maybe holding one: {seats})",
            "maybe": f"a Block may stop it (seats maybe holding one: {seats})",
            "no": "no Block can stop it",
        }[threat["block"]]
        return f"{what}; {block}"

    def summary(self) -> list[SeatThreats]:
        return threat_summary(self._view)
