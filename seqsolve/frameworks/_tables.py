"""What both framework wrappers share: a fixed, small action space, the explicit deal and
draws, and the tensor a seat observes.  Nothing here imports a framework.

The core numbers an action with 27 bits (kind, card, cell, draft pick); a framework
wants the actions of a game numbered ``0 .. N-1`` once for the whole game, so that a
policy network has one output per action and a mask says which are legal.
:class:`ActionTable` lists every action the rules could ever allow (a card on one of
its cells, a jack on any non-corner cell, an exchange, a pass), each with every draft
pick when the variant has a draft: 533 actions in classic, 28,249 in the draft.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from ..errors import ArgumentError
from ..games.base import IllegalMoveError
from ..games.sequence.actions import ActionKind, decode_action, encode_action
from ..games.sequence.board import CELLS, CORNERS
from ..games.sequence.cards import CardKind
from ..games.sequence.position import Hand
from ..games.sequence.rules import Rules, RulesError, Variant
from ..games.sequence.state import UNKNOWN_CODE, State


def game_rules(variant: str = "classic", players: int = 2, teams: int = 0) -> Rules:
    """The rules of a wrapped game: a variant as ``--variant`` takes it (a preset, with
    options in brackets: ``classic[heart_rule=on]``), its players and its number of
    sides (0: the preset's choice).

    >>> game_rules("seed000", 4).sequences_to_win
    3

    Raises:
        RulesError: an unknown preset or option, or rules the wrappers cannot deal
            explicitly (bonus cards, hand_bonus, first_turn_short, head_start, a draft that reshuffles).
    """
    for name, value in (("players", players), ("teams", teams)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ArgumentError(f"{name} must be a whole number, not {value!r}")
    rules = Variant.parse(variant).resolve(int(players), int(teams) or None)
    if rules.bonus_cards:
        raise RulesError("the framework wrappers do not deal bonus cards (bonus_cards must be 0)")
    if rules.hand_bonus:
        raise RulesError("the framework wrappers do not deal extra cards (hand_bonus must be 0)")
    if rules.first_turn_short:
        raise RulesError("the framework wrappers do not deal short hands (first_turn_short must be 0)")
    if rules.head_start:
        raise RulesError("the framework wrappers start from an empty board (head_start must be 0)")
    if rules.draw_mode == "draft" and rules.deck_exhaustion == "reshuffle":
        raise RulesError("the framework wrappers cannot deal a draft that reshuffles (deck_exhaustion)")
    return rules


class ActionTable:
    """Every action a game of ``rules`` could allow, numbered from 0.

    >>> from seqsolve.games.sequence.rules import parse_rules
    >>> table = ActionTable(parse_rules("classic", players=2))
    >>> table.size, table.text(table.index(table.core(17)))
    (533, '9S@b7')
    """

    def __init__(self, rules: Rules):
        deck, layout = rules.deck_cards, rules.layout
        free = [c for c in range(CELLS) if c not in CORNERS]
        bases = []
        for card, code in enumerate(deck.codes):
            kind = deck.kind(code)
            if kind == CardKind.NORMAL:
                bases += [encode_action(ActionKind.PLACE, card, cell) for cell in layout.cells_of(code)]
            elif kind == CardKind.WILD:
                bases += [encode_action(ActionKind.PLACE, card, cell) for cell in free]
            else:
                bases += [encode_action(ActionKind.REMOVE, card, cell) for cell in free]
        bases += [encode_action(ActionKind.EXCHANGE, card) for card in range(len(deck.codes))]
        bases.append(encode_action(ActionKind.PASS))
        #: draft picks: none (-1), then each card code
        self.picks = len(deck.codes) + 1 if rules.draw_mode == "draft" else 1
        self._bases = bases
        self.size = len(bases) * self.picks
        #: core action number -> table number, every pick spelled out (the hot path)
        self._index = {self.core(i): i for i in range(self.size)}
        self._template = State.new(rules, seed=0)

    def index(self, action: int) -> int:
        """The table's number of a core action number."""
        return self._index[action]

    def core(self, index: int) -> int:
        """The core action number of the table's ``index``."""
        base, pick = divmod(index, self.picks)
        kind, card, cell, _ = decode_action(self._bases[base])
        return encode_action(kind, card, cell, pick - 1)

    def text(self, index: int) -> str:
        """The action in move notation (RULES.md P-12)."""
        return self._template.action_to_string(self.core(index))

    def checked(self, action, world: State, who: str) -> int:
        """``action``, a table number, as an int once it is one of the legal actions of
        ``world``: a framework's caller may hand anything, and the core plays only legal
        actions (it does not check them again).

        >>> from seqsolve.games.sequence.rules import parse_rules
        >>> table = ActionTable(parse_rules("classic", players=2))
        >>> table.checked(1.0, State.new(table._template.rules, seed=1), "player_0")
        Traceback (most recent call last):
        seqsolve.errors.ArgumentError: player_0: action 1.0 is not legal: an action is a whole number from 0 to 532

        Raises:
            ArgumentError: ``action`` is not a whole number of the table (a float, text,
                a bool, a list) or is out of its range.
            IllegalMoveError: ``action`` is not legal in ``world``.
        """
        if isinstance(action, (bool, np.bool_)) or not hasattr(action, "__index__"):
            number = None
        else:
            try:
                number = action.__index__()
            except TypeError:  # a numpy array of more than one number
                number = None
        if number is None or not 0 <= number < self.size:
            shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:37] + "..."
            raise ArgumentError(
                f"{who}: action {shown} is not legal: an action is a whole number from 0 to {self.size - 1}"
            )
        if world.is_terminal() or self.core(number) not in world.legal_actions():
            raise IllegalMoveError(
                f"{who}: action {self.text(number)} is not legal here (number {number} of the {self.size})"
            )
        return number

    def legal(self, world: State) -> list[int]:
        """The table's numbers of the legal actions of ``world``, ascending."""
        index = self._index
        return sorted([index[a] for a in world.legal_actions()])


@dataclass
class Dealer:
    """The explicit chance of a game: which card each deal and draw gives.

    The deal is one chance outcome per card (hands round the table, then the draft's
    face-up cards), each card code with the probability of its copies among the cards
    not dealt yet.  After the deal, every card that leaves the draw pile is one
    chance outcome too, drawn from the cards the pile holds (or, when a reshuffle
    makes the pile anew, from every card not in sight), so that nothing the engine's
    bit generator decides reaches what a seat observes.
    """

    rules: Rules
    template: State

    @classmethod
    def of(cls, rules: Rules) -> Dealer:
        return cls(rules, State.new(rules, seed=0))

    @property
    def deal_size(self) -> int:
        r = self.rules
        return r.players * r.hand_size + (r.draft_size if r.draw_mode == "draft" else 0)

    def deal_owner(self, k: int) -> int | None:
        """The seat the ``k``-th card dealt goes to, None for a face-up draft card."""
        r = self.rules
        return k % r.players if k < r.players * r.hand_size else None

    def deal_outcomes(self, dealt: list[int]) -> list[tuple[int, float]]:
        left = Counter(self.rules.deck_cards.index(c) for c in self.rules.deck_cards.cards())
        left.subtract(dealt)
        return outcomes(left)

    def table(self, dealt: list[int], seed: int) -> State:
        """The game once every card of the deal is known: ``dealt`` in deal order, the
        draw pile the other cards in an order drawn from ``seed`` (never seen: every
        draw is a chance outcome of its own)."""
        r, deck = self.rules, self.rules.deck_cards
        n = r.players * r.hand_size
        hands = [sorted(dealt[s : n : r.players]) for s in range(r.players)]
        rest = Counter(deck.index(c) for c in deck.cards())
        rest.subtract(dealt)
        pile = np.random.default_rng(seed).permutation(sorted(rest.elements())).tolist()
        pos = replace(
            self.template.to_position(),
            hands=tuple(Hand(tuple(deck.codes[c] for c in h), 0) for h in hands),
            draft=tuple(deck.codes[c] for c in sorted(dealt[n:])) if r.draw_mode == "draft" else None,
            draw_cards=tuple(deck.codes[c] for c in pile),
            draw_count=len(pile),
        )
        return _copy(State.from_position(pos, seed=seed))


def outcomes(cards: Counter) -> list[tuple[int, float]]:
    """Chance outcomes of drawing one of ``cards`` (deck index -> copies), ascending."""
    total = sum(cards.values())
    return [(c, n / total) for c, n in sorted(cards.items()) if n > 0]


@dataclass
class Draw:
    """A play made, its draw not yet known: ``unseen`` is the game after the play with
    the drawn card unknown (what every seat sees), ``stock`` the cards it may be."""

    before: State
    action: int
    unseen: State
    stock: Counter

    def outcomes(self) -> list[tuple[int, float]]:
        return outcomes(self.stock)

    def drawn_by(self) -> int | None:
        """The seat that draws the card (None: it goes face up to the draft)."""
        seat = self.before.current_player
        return seat if UNKNOWN_CODE in self.unseen.core.hand(seat) else None


def _copy(world: State) -> State:
    """A copy of ``world`` without a bit generator (copying one costs more than the rest
    of a ply): the wrappers' games never shuffle, a chance outcome gives every card."""
    return State(world.rules, world.seats, world.core.clone(None))


def play(world: State, action: int) -> tuple[State | None, Draw | None]:
    """Play the core ``action`` on a copy of ``world``: ``(state, None)`` when it draws
    no card (or ends the game), ``(None, draw)`` when a chance outcome must say which.

    The play is first made with the draw pile hidden, so the card that leaves it shows
    as unknown in the mover's hand or the draft, and a reshuffle leaves it hidden too.
    (A play that wins draws its card after the game is over: that card stays unknown.)
    """
    core = world.core
    seats = range(world.rules.players)
    unseen = _copy(world)
    unseen.core.set_hidden([core.hand(s) for s in seats], [UNKNOWN_CODE] * world.draw_pile_size(), False)
    unseen.apply_legal(action)
    hidden = UNKNOWN_CODE in unseen.core.hand(world.current_player) or UNKNOWN_CODE in unseen.core.draft()
    if unseen.is_terminal() or not hidden:
        after = _copy(world)
        after.apply_legal(action)
        return after, None
    pile = core.draw_pile()
    if pile:
        return None, Draw(world, action, unseen, Counter(pile))
    else:  # a reshuffle: every card not in sight
        deck = world.rules.deck_cards
        stock = Counter(deck.index(c) for c in deck.cards())
        stock.subtract(c for s in seats for c in unseen.core.hand(s) if c != UNKNOWN_CODE)
        stock.subtract(c for _, c in unseen.discarded())
        stock.subtract(unseen.draft_cards())
    return None, Draw(world, action, unseen, +stock)


def draw(pending: Draw, card: int) -> State:
    """The game after ``pending``'s play when the card drawn is ``card``."""
    world = pending.before
    core = world.core
    seats = range(world.rules.players)
    pile = core.draw_pile()
    if pile:  # the card goes on top of the pile, then the play draws it
        after = _copy(world)
        i = pile.index(card)
        pile[0], pile[i] = pile[i], pile[0]
        after.core.set_hidden([core.hand(s) for s in seats], pile, True)
        after.apply_legal(pending.action)
        return after
    # a reshuffle (blind draws only, game_rules refuses a draft that reshuffles): the card
    # takes the unknown place in the mover's hand, the rest is the new pile
    unseen = pending.unseen
    turn = unseen.turn
    after = _copy(unseen)
    hands = [after.core.hand(s) for s in seats]
    mover = pending.drawn_by()
    assert mover is not None
    hands[mover][hands[mover].index(UNKNOWN_CODE)] = card
    rest = pending.stock.copy()
    rest[card] -= 1
    new_pile = np.random.default_rng(turn).permutation(sorted(rest.elements())).tolist()
    after.core.set_hidden(hands, new_pile, True)
    return after


@dataclass
class Seen:
    """What one seat sees of a game, as plain numbers (the input of every tensor)."""

    chips: list[int]  # per side, its chips as a bitmask of cells (bit c: cell c)
    locked: int  # the locked chips' bitmask
    hand: list[int]  # deck indexes of the seat's known cards
    discards: list[tuple[int, int]]  # (seat, card)
    draft: list[int]
    public: list[list[int]]  # per seat, cards the table saw it take (draft)
    hand_sizes: list[int]
    draw_size: int
    to_move: int  # -1 when none (chance, or over)
    sequences: list[int]  # per side
    exchange_left: bool
    turn: int


def seen_in(world: State, seat: int, to_move: int | None = None) -> Seen:
    """What ``seat`` sees of ``world`` (its own hand, never another's)."""
    core, r = world.core, world.rules
    mover = world.current_player if to_move is None else to_move
    return Seen(
        chips=[core.chips(s) for s in range(r.teams)],
        locked=core.locked(),
        hand=sorted(world.known_hand(seat)),  # deck order: the core's slots depend on the past
        discards=world.discarded(),
        draft=world.draft_cards(),
        public=[core.public_hand(s) for s in range(r.players)],
        hand_sizes=core.hand_sizes(),
        draw_size=world.draw_pile_size(),
        to_move=-1 if mover is None else mover,
        sequences=[world.sequence_count(s) for s in range(r.teams)],
        exchange_left=mover is not None and core.exchanges_left > 0,
        turn=world.turn,
    )


def seen_in_deal(rules: Rules, dealer: Dealer, dealt: list[int], seat: int) -> Seen:
    """What ``seat`` sees while the cards are dealt: its cards so far, the draft's."""
    n = rules.players * rules.hand_size
    hand_cards = dealt[:n]
    sizes = [len(hand_cards[s :: rules.players]) for s in range(rules.players)]
    return Seen(
        chips=[0] * rules.teams,
        locked=0,
        hand=sorted(hand_cards[seat :: rules.players]),
        discards=[],
        draft=sorted(dealt[n:]),
        public=[[] for _ in range(rules.players)],
        hand_sizes=sizes,
        draw_size=len(rules.deck_cards.codes) * rules.deck_cards.copies - len(dealt),
        to_move=-1,
        sequences=[0] * rules.teams,
        exchange_left=False,
        turn=0,
    )


def observation_pieces(rules: Rules, private: bool = True, public: bool = True, recall: bool = False):
    """``(name, shape)`` of each part of the observation tensor, every seat and side
    counted from the observing one (seat 0 is the observer, side 0 its side)."""
    codes, players = len(rules.deck_cards.codes), rules.players
    pieces = []
    if public:
        pieces += [
            ("board", (5, 10, 10)),  # corners, chips of each side from the observer's, locked
            ("discards", (players, codes)),
            ("draft", (codes,)),
            ("public_hands", (players, codes)),
            ("hand_sizes", (players,)),
            ("draw_pile", (1,)),
            ("to_move", (players,)),
            ("sequences", (3,)),
            ("exchange_left", (1,)),
        ]
    if private:
        pieces.append(("hand", (codes,)))
        if recall:
            pieces.append(("held", (codes,)))  # every card the seat was dealt or drew
    return pieces


_CORNER_LIST = sorted(CORNERS)


def _bits(mask: int) -> np.ndarray:
    """The 100 cells of a bitmask as 0/1 (bit ``c`` is cell ``c``)."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(16, "little"), np.uint8), bitorder="little")[:CELLS]


def write_seen(views: dict, seen: Seen, seat: int, rules: Rules, held: Counter | None = None) -> None:
    """Fill the arrays of ``views`` (name -> array, zeroed) with ``seen`` of ``seat``."""
    players, teams = rules.players, rules.teams
    side = seat % teams
    if "board" in views:
        board = views["board"].reshape(5, 100)
        board[0, _CORNER_LIST] = 1
        for s, mask in enumerate(seen.chips):
            board[1 + (s - side) % teams] = _bits(mask)
        board[4] = _bits(seen.locked)
        if seen.discards:
            piles = np.array(seen.discards)
            np.add.at(views["discards"], ((piles[:, 0] - seat) % players, piles[:, 1]), 1)
        for card in seen.draft:
            views["draft"][card] += 1
        for who, cards in enumerate(seen.public):
            for card in cards:
                views["public_hands"][(who - seat) % players, card] += 1
        for who, n in enumerate(seen.hand_sizes):
            views["hand_sizes"][(who - seat) % players] = n
        views["draw_pile"][0] = seen.draw_size
        if seen.to_move >= 0:
            views["to_move"][(seen.to_move - seat) % players] = 1
        for s, n in enumerate(seen.sequences):
            views["sequences"][(s - side) % teams] = n
        views["exchange_left"][0] = seen.exchange_left
    if "hand" in views:
        for card in seen.hand:
            views["hand"][card] += 1
    if "held" in views and held:
        for card, n in held.items():
            views["held"][card] = n
