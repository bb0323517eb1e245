"""The reference Sequence Stacks engine: :class:`ReferenceStacks`, the rules of
RULES.md §4 as the contract of docs/stacks.md cuts them into decisions, in plain
Python lists, for parity tests against the compiled core (STYLE habit 9).

It keeps a card nobody knows as ``None`` (in the draw pile and the set-aside
stack; a hand counts its unknown cards apart), as the core keeps its UNKNOWN
code: drawing one gives the hand an unknown card, and recycling without a
shuffle source leaves the new draw pile unknown (ST-20).  Recycling shuffles
with ``random.Random`` where the core uses numpy, so the two agree only up to the
order of a recycled draw pile.

Nothing in the package imports it.

>>> import random
>>> from seqsolve.games.stacks.rules import make_rules
>>> game = ReferenceStacks.new(make_rules("stacks", 2), random.Random(1))
>>> [len(h) for h in game.hands], game.to_position().draw_count, game.current_player
([5, 5], 102, 0)
>>> game.random_playout(random.Random(2)) and game.is_terminal()
True
"""

from __future__ import annotations

import bisect
import copy
import random

from ..games.stacks.actions import (
    BLOCK,
    END,
    PASS,
    ActionKind,
    decode_action,
    encode_discard,
    encode_play,
)
from ..games.stacks.cards import HAND_SIZE, PILE_CARDS, Card, colour, value
from ..games.stacks.position import StacksPosition
from ..games.stacks.refusals import refusal
from ..games.stacks.rules import StacksRules

#: what a completed pile holds (ST-9)
FULL_PILE = 5


class ReferenceStacks:
    """A mutable Stacks game, every field a public list or number.

    ``hands`` (known cards, ascending) with ``unknown`` counts, ``discards`` (bottom
    first), ``special`` (ascending), ``piles`` (oldest first, bottom first),
    ``chips`` (``[blue, red]`` per seat), ``skips``, ``aside`` and ``draw`` (top
    first; ``None`` for an unknown card), ``to_move``, ``direction``, ``progress``,
    ``refilled``, ``block_asked``, ``result``, ``turn`` and ``quiet`` mean what the fields of
    :class:`StacksPosition` of the same names mean.
    """

    def __init__(self, rules: StacksRules, rng: random.Random | None = None):
        n = rules.players
        self.rules = rules
        self.rng = rng
        self.to_move: int | None = 0
        self.direction = 1
        self.progress = False
        self.refilled = False
        self.block_asked: int | None = None
        self.result: int | str | None = None
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.unknown = [0] * n
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.special: list[int] = []
        self.piles: list[list[int]] = []
        self.chips = [[0, 0] for _ in range(n)]
        self.skips = [0] * n
        self.aside: list[int | None] = []
        self.draw: list[int | None] = []
        self.turn = 0
        self.quiet = 0

    # -- construction -------------------------------------------------------

    @classmethod
    def new(cls, rules: StacksRules, rng: random.Random) -> ReferenceStacks:
        """Deal a game (ST-5): the deck shuffled by ``rng`` (the list is the pile top
        first), one card at a time round the table from seat 0 until each holds 5;
        ``rng`` stays the game's shuffle source for recycling (ST-20).  With
        ``stacks_first_turn_short=N`` (K-4) seat 0 is skipped in the last N rounds
        and plays its first turn with what it was dealt: no refill before it.  With
        ``stacks_first_hand_bonus=N`` (K-7) seat 0 takes N more cards after the
        rounds, and its first refill finds a hand of 5 or more: nothing to draw."""
        game = cls(rules, rng)
        deck = [card for card, copies in enumerate(rules.deck) for _ in range(copies)]
        rng.shuffle(deck)
        game.draw = list(deck)
        short = rules.first_turn_short  # K-4: seat 0 skipped in the last rounds, then not refilled
        for rnd in range(HAND_SIZE):
            for seat in range(rules.players):
                if seat == 0 and rnd >= HAND_SIZE - short:
                    continue
                game._draw_one(seat)
        game._draw_cards(0, rules.first_hand_bonus)  # K-7: seat 0's extra cards
        if not short:
            game._start_turn(0)
        return game

    @classmethod
    def from_position(cls, pos: StacksPosition, seed: int | None = None) -> ReferenceStacks:
        """The game at ``pos``, a decision point: the mover's turn start (ST-10,
        ST-11) is behind it.  ``seed`` seeds the shuffle of a recycled draw pile;
        without one, recycled cards are unknown."""
        n = pos.players
        for name in ("hands", "unknown", "discards", "chips", "skips"):
            if len(getattr(pos, name)) != n:
                raise ValueError(f"{name}: {len(getattr(pos, name))} entries for {n} players")
        game = cls(pos.rules, None if seed is None else random.Random(seed))
        game.to_move = pos.to_move
        game.direction = pos.direction
        game.progress = pos.progress
        game.refilled = pos.refilled
        game.block_asked = pos.block_asked
        game.result = pos.result
        game.hands = [sorted(h) for h in pos.hands]
        game.unknown = list(pos.unknown)
        game.discards = [list(d) for d in pos.discards]
        game.special = sorted(pos.special)
        game.piles = [list(p) for p in pos.piles]
        game.chips = [list(c) for c in pos.chips]
        game.skips = list(pos.skips)
        game.aside = [None] * pos.aside_count if pos.aside_cards is None else list(pos.aside_cards)
        game.draw = [None] * pos.draw_count if pos.draw_cards is None else list(pos.draw_cards)
        game.turn, game.quiet = pos.turn, pos.quiet
        if game.result is None and (game.to_move is None or not 0 <= game.to_move < n):
            raise ValueError(f"to-move {game.to_move} is not a seat of a game still going")
        return game

    def to_position(self) -> StacksPosition:
        """Everything, in the canonical lists of docs/stacks.md; an empty draw pile or
        set-aside stack is listed (there is nothing unknown in it)."""
        return StacksPosition(
            rules=self.rules,
            to_move=self.to_move,
            direction=self.direction,
            progress=self.progress,
            refilled=self.refilled,
            block_asked=self.block_asked,
            result=self.result,
            hands=[list(h) for h in self.hands],
            unknown=list(self.unknown),
            discards=[list(d) for d in self.discards],
            special=list(self.special),
            piles=[list(p) for p in self.piles],
            chips=[(b, r) for b, r in self.chips],
            skips=list(self.skips),
            aside_count=len(self.aside),
            aside_cards=None if None in self.aside else sorted(self.aside),
            draw_count=len(self.draw),
            draw_cards=None if None in self.draw else list(self.draw),
            turn=self.turn,
            quiet=self.quiet,
        )

    def clone(self) -> ReferenceStacks:
        """An independent copy, with its own copy of the shuffle source."""
        return copy.deepcopy(self)

    # -- the game interface ---------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat that decides now: the asked opponent in a Block window (ST-15)."""
        if self.result is not None:
            return None
        return self.to_move if self.block_asked is None else self.block_asked

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        """1 for the winner and -1 for the others; all 0 for a draw or a game going on."""
        n = self.rules.players
        if self.result is None or self.result == "draw":
            return [0.0] * n
        return [1.0 if seat == self.result else -1.0 for seat in range(n)]

    def legal_actions(self) -> list[int]:
        """The decisions of :attr:`current_player`, ascending.  Only known cards can be
        played or discarded: a hand of unknown cards alone has no action but ``end``
        (when empty) until its cards are resampled."""
        if self.result is not None:
            return []
        if self.block_asked is not None:
            return ([BLOCK] if Card.BK in self.hands[self.block_asked] else []) + [PASS]
        seat = self.to_move
        actions: set[int] = set()
        for card in set(self.hands[seat]):
            actions.update(encode_play(card, arg) for arg in self._args(card))
            actions.add(encode_discard(card))
        top = self._discard_top(seat)
        if top is not None and (top in PILE_CARDS or self.rules.actions_from_discard):
            actions.update(encode_play(top, arg, from_discard=True) for arg in self._args(top))
        if self._hand_size(seat) == 0:
            actions.add(END)
        return sorted(actions)

    def apply(self, action: int) -> None:
        """Play one decision; a ValueError saying why if it is not legal here."""
        if action not in self.legal_actions():
            raise ValueError(refusal(self.to_position(), self.rules, action))
        a = decode_action(action)
        if a.kind == ActionKind.BLOCK:
            self._block()
        elif a.kind == ActionKind.PASS:
            self._pass()
        elif a.kind == ActionKind.DISCARD:
            seat = self.to_move
            self.hands[seat].remove(a.card)
            self.discards[seat].append(a.card)
            self._end_turn()
        elif a.kind == ActionKind.END:
            self._end_turn()
        else:
            self._play(a.card, a.arg, a.from_discard)

    def random_playout(self, rng: random.Random) -> list[int]:
        """Play uniformly random legal actions to the end; the actions played."""
        played = []
        while not self.is_terminal():
            action = rng.choice(self.legal_actions())
            self.apply(action)
            played.append(action)
        return played

    # -- seats, piles and chips -----------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The neighbour in the current direction (ST-6, ST-17)."""
        return (seat + self.direction) % self.rules.players

    def _hand_size(self, seat: int) -> int:
        return len(self.hands[seat]) + self.unknown[seat]

    def _discard_top(self, seat: int) -> int | None:
        return self.discards[seat][-1] if self.discards[seat] else None

    def _piles_of(self, pile_colour: int) -> list[list[int]]:
        return [p for p in self.piles if colour(p[0]) == pile_colour]

    def supply(self, chip_colour: int) -> int:
        """Chips of a colour still in the middle (ST-4)."""
        return self.rules.chip_supply - sum(c[chip_colour] for c in self.chips)

    def meets_win(self, blue: int, red: int) -> bool:
        """ST-21: enough chips, and enough of each colour."""
        r = self.rules
        return blue + red >= r.win_chips and min(blue, red) >= r.win_min_each

    def _args(self, card: int) -> list[int]:
        """Every canonical ``arg`` with which ``card`` can be played by the mover now."""
        seat = self.to_move
        if card in PILE_CARDS:
            return self._pile_targets(card)
        if card in (Card.SK, Card.RV):
            return [0]
        opponents = [s for s in range(self.rules.players) if s != seat]
        if card == Card.SC:  # ST-18: the top of a non-empty discard pile
            return [s for s in opponents if self.discards[s]]
        if card == Card.SX:  # ST-19
            args = []
            for victim in opponents:
                for c in (0, 1):
                    gained = list(self.chips[seat])
                    gained[c] += 1
                    if self.chips[victim][c] and (
                        self.rules.steal_chip_can_win or not self.meets_win(*gained)
                    ):
                        args.append(victim * 2 + c)
            return args
        return []  # a Block is never played in one's own turn (ST-15)

    def _pile_targets(self, card: int) -> list[int]:
        """ST-7/ST-8: 0 starts a pile, v builds on a pile of value v (a number card
        has the one target its value gives, written as 0)."""
        piles = self._piles_of(colour(card))
        can_start = len(piles) < self.rules.max_piles_per_colour
        v = value(card)
        if v == 0:
            return ([0] if can_start else []) + sorted({len(p) for p in piles if len(p) < FULL_PILE})
        if v == 1:
            return [0] if can_start else []
        return [0] if any(len(p) == v - 1 for p in piles) else []

    # -- decisions --------------------------------------------------------------

    def _play(self, card: int, arg: int, from_discard: bool) -> None:
        seat = self.to_move
        if from_discard:
            self.discards[seat].pop()
        else:
            self.hands[seat].remove(card)
            if self._hand_size(seat) == 0:  # ST-13, as the card leaves the hand
                self._draw_cards(seat, HAND_SIZE)
                if self.result is not None:
                    self._land_after_stall(card, arg)
                    return
        if card in PILE_CARDS:
            self._to_pile(card, arg)
            return
        bisect.insort(self.special, card)
        if card == Card.SK:  # ST-16
            self.skips[self.next_seat(seat)] += 1
        elif card == Card.RV:  # ST-17
            self.direction = -self.direction
        elif card == Card.SC:  # ST-18
            bisect.insort(self.hands[seat], self.discards[arg].pop())
        else:  # ST-19
            victim, c = divmod(arg, 2)
            self.chips[victim][c] -= 1
            self.chips[seat][c] += 1
            self.progress = True
            self.refilled = False
            if self.meets_win(*self.chips[seat]):
                self._finish(seat)

    def _to_pile(self, card: int, arg: int) -> None:
        """A completion (ST-9) opens the Block window (ST-15)."""
        self.progress = True
        if len(self._lay_on_pile(card, arg)) == FULL_PILE:
            self.block_asked = self.next_seat(self.to_move)

    def _lay_on_pile(self, card: int, arg: int) -> list[int]:
        """ST-7/ST-8: the card on the pile it names (a new one for a start); that pile."""
        v = value(card)
        target_value = arg if v == 0 else v - 1
        if target_value == 0:
            self.piles.append([card])
            return self.piles[-1]
        pile = next(p for p in self._piles_of(colour(card)) if len(p) == target_value)
        pile.append(card)
        return pile

    def _land_after_stall(self, card: int, arg: int) -> None:
        """The card whose ST-13 draw stalled the game (ST-22 [OURS]) still lands where
        it was played, so that every card is somewhere, but does nothing more: a pile
        it completes goes straight to the set-aside stack, an action card to the
        special pile."""
        if card not in PILE_CARDS:
            bisect.insort(self.special, card)
            return
        pile = self._lay_on_pile(card, arg)
        if len(pile) == FULL_PILE:
            self._set_aside(pile)

    def _completed_pile(self) -> list[int]:
        return next(p for p in self.piles if len(p) == FULL_PILE)

    def _block(self) -> None:
        """ST-15: the Block goes to the special pile, the pile is set aside, no chip."""
        self.hands[self.block_asked].remove(Card.BK)
        bisect.insort(self.special, Card.BK)
        self._set_aside(self._completed_pile())
        self.block_asked = None

    def _pass(self) -> None:
        """The next opponent is asked; after the last, the completer scores (ST-9)."""
        asked = self.next_seat(self.block_asked)
        if asked != self.to_move:
            self.block_asked = asked
            return
        self.block_asked = None
        pile = self._completed_pile()
        self._set_aside(pile)
        c = colour(pile[0])
        if self.supply(c) > 0:
            self.chips[self.to_move][c] += 1
            self.refilled = False
            if self.meets_win(*self.chips[self.to_move]):  # ST-21
                self._finish(self.to_move)

    def _set_aside(self, pile: list[int]) -> None:
        self.piles.remove(pile)
        self.aside.extend(pile)

    # -- turns ------------------------------------------------------------------

    def _end_turn(self) -> None:
        """ST-14 then the next player's turn start; skipped turns complete at once."""
        seat = self.to_move
        while True:
            self.turn += 1
            self.quiet = 0 if self.progress else self.quiet + 1
            self.progress = False
            self.refilled = False
            if self._ends_in_draw():
                self._finish("draw")
                return
            seat = self.next_seat(seat)
            self.to_move = seat
            if self.skips[seat] == 0:
                break
            self.skips[seat] -= 1  # ST-10: the whole turn is skipped
        self._start_turn(seat)

    def _start_turn(self, seat: int) -> None:
        """ST-11: refill to 5, or with ``empty_hand_only`` draw 5 into an empty hand."""
        self.to_move = seat
        size = self._hand_size(seat)
        if self.rules.refill == "turn_start":
            self._draw_cards(seat, HAND_SIZE - size)
        elif size == 0:
            self._draw_cards(seat, HAND_SIZE)

    def _ends_in_draw(self) -> bool:
        """ST-22, counted at the end of each completed turn."""
        if self.turn >= self.rules.max_turns:
            return True
        return not self.draw and not self.aside and self.quiet >= self.rules.players

    def _finish(self, result: int | str) -> None:
        """The game is over; what only a game going on has is cleared."""
        self.result = result
        self.to_move = None
        self.block_asked = None
        self.direction = 1
        self.progress = False
        self.refilled = False

    # -- drawing ------------------------------------------------------------------

    def _draw_cards(self, seat: int, count: int) -> None:
        for _ in range(count):
            if not self._draw_one(seat):
                return

    def _draw_one(self, seat: int) -> bool:
        """One card from the top; an empty draw pile is first refilled from the
        set-aside stack (ST-20).  False when there is nothing to draw.  A second
        refill in one turn with no chip moved since the first is the stalled draw
        (ST-22 [OURS]): the same cards would come back and be built again without
        end, so the game ends instead and nothing is recycled."""
        if not self.draw:
            if not self.aside:
                return False
            if self.refilled:
                self._finish("draw")
                return False
            self._recycle()
            self.refilled = True
        card = self.draw.pop(0)
        if card is None:
            self.unknown[seat] += 1
        else:
            bisect.insort(self.hands[seat], card)
        return True

    def _recycle(self) -> None:
        """ST-20: the set-aside cards shuffled into a new draw pile; with no shuffle
        source nobody can say their order, so they are unknown."""
        cards = sorted(c for c in self.aside if c is not None) + [None] * self.aside.count(None)
        self.aside = []
        if self.rng is None:
            self.draw = [None] * len(cards)
        else:
            self.rng.shuffle(cards)
            self.draw = cards

    # -- refusals -----------------------------------------------------------------
