"""The reference game: :class:`RefGame`, a whole full-information game (classic,
Numbers or the draft variant) in plain Python; ``legal_moves()`` lists the P-13
strings in canonical order and ``apply()`` plays one action, raising ``ValueError``
with the reason when it is illegal.

Reshuffles use a ``random.Random`` (the core uses numpy), so parity holds only
up to the order of a reshuffled draw pile.
"""

from __future__ import annotations

import copy
import random

from ..games.sequence.board import CELLS, CORNERS, cell_name, window_name, windows
from ..games.sequence.cards import CardKind
from ..games.sequence.moves import Move, MoveKind, parse_turn
from ..games.sequence.position import COLOURS, CORNER, EMPTY, Hand, Position
from ..games.sequence.rules import UNLIMITED, Rules
from .sequences import HEART_CELLS, eligible_windows, maximum_declarations

#: Reasons a game ended (``RefGame.termination``), C-31 and D-4.
TERMINATIONS = ("win", "frozen", "stall", "turn_cap", "deck_exhausted")


class RefGame:
    """A mutable, full-information classic (or Numbers, or draft) game.

    Everything is public attributes of plain Python types:

    * ``board``: 100 tokens of P-2 (``*`` corner, ``.`` empty, ``b g r``
      chips, ``B G R`` locked chips);
    * ``hands``: one list per seat (kept in canonical deck order);
    * ``discards``: one list per seat, bottom first;
    * ``draw_pile``: top first; ``draw_known`` is False after a reshuffle
      (the order is still there, but no player may know it, P-17);
    * ``draft``: the face-up draft (canonical order), None outside the draft
      variant;
    * ``public``: per seat, the draft cards it was seen to take and has not
      played since, oldest first (D-5, P-19; a game read from a position starts
      from the takes it lists; emptied by a reshuffle);
    * ``last``: per seat, its last turn as P-12 actions (exchanges, then the
      play; P-20), empty when not seen;
    * ``sequences``: ``(colour, window)`` in completion order;
    * ``turn``, ``stall``, ``to_move``, ``exchanges_left`` (``UNLIMITED`` = no
      limit), ``result`` (None, a colour or ``"draw"``) and ``termination``.

    >>> from seqsolve.games.sequence.rules import parse_rules
    >>> g = RefGame.new(parse_rules("classic", players=2), rng=random.Random(1))
    >>> len(g.hands[0]), len(g.draw_pile), g.current_seat
    (7, 90, 0)
    >>> g.apply(g.legal_moves()[0]); g.turn, g.current_seat
    (1, 1)
    """

    def __init__(self, rules: Rules, seats: str, rng: random.Random | None = None):
        self.rules = rules
        self.seats = seats
        self.rng = rng if rng is not None else random.Random(0)
        self.board: list[str] = [CORNER if c in CORNERS else EMPTY for c in range(CELLS)]
        self.hands: list[list[str]] = [[] for _ in seats]
        self.discards: list[list[str]] = [[] for _ in seats]
        self.draw_pile: list[str] = []
        self.draw_known = True
        self.draft: list[str] | None = [] if rules.draw_mode == "draft" else None
        self.public: list[list[str]] = [[] for _ in seats]
        self.last: list[list[str]] = [[] for _ in seats]
        self.exchanged: list[str] = []  # this turn's exchanges so far
        self.sequences: list[tuple[str, int]] = []
        self.to_move = rules.first_seat
        self.exchanges_left = rules.dead_card_exchanges_per_turn
        self.turn = 0
        self.stall = 0
        self.result: str | None = None
        self.termination: str | None = None

    # -- construction -------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, seats: str | None = None, rng: random.Random | None = None) -> RefGame:
        """Deal a new game (C-12, C-13, D-1).

        The deck is shuffled with ``rng.shuffle``; the shuffled list is the
        pile top first.  Cards are dealt one at a time round-robin, seat 0
        first, until every seat holds ``hand_size``, then seat 0 takes
        ``bonus_cards`` more (an analysis option), then ``hand_bonus`` more
        rounds go to every seat but the first seat, in turn order from the seat
        after it (K-1); with ``first_turn_short=N`` the first seat is skipped
        in the last N rounds of the ordinary deal (K-3); in the draft variant the
        next ``draft_size`` cards are turned face up; the rest is the draw
        pile.  With ``head_start=N`` the later sides' chips stand on their
        cells before the deal (K-5).  ``rules.first_seat`` moves first.  ``seats`` defaults to the
        colours ``'bgr'[:teams]`` repeated (C-7).
        """
        if seats is None:
            seats = COLOURS[: rules.teams] * (rules.players // rules.teams)
        _check_seats(rules, seats)
        game = cls(rules, seats, rng)
        for side, cells in rules.head_start_cells():  # K-5: seat `side` plays for side `side`
            for cell in cells:
                game.board[cell] = seats[side]
        pile = rules.deck_cards.cards()
        game.rng.shuffle(pile)
        for rnd in range(rules.hand_size):
            for seat in range(rules.players):
                if seat == rules.first_seat and rnd >= rules.hand_size - rules.first_turn_short:
                    continue  # K-3: the first seat is dealt first_turn_short cards fewer
                game.hands[seat].append(pile.pop(0))
        for _ in range(min(rules.bonus_cards, len(pile))):  # analysis option: seat 0's extra cards
            game.hands[0].append(pile.pop(0))
        for _ in range(rules.hand_bonus):  # K-1: one more card a round to every seat after the first
            for k in range(1, rules.players):
                if pile:
                    game.hands[(rules.first_seat + k) % rules.players].append(pile.pop(0))
        if game.draft is not None:
            for _ in range(rules.draft_size):
                if pile:
                    game.draft.append(pile.pop(0))
        game.draw_pile = pile
        game._sort_cards()
        return game

    @classmethod
    def from_position(cls, pos: Position, rng: random.Random | None = None) -> RefGame:
        """A game from a fully known position (every hand and the draw pile listed).

        Raises:
            ValueError: a hand holds unknown cards, the draw pile is not
                listed, or the position does not fit its rules.
        """
        rules = pos.rules
        _check_seats(rules, pos.seats)
        if len(pos.board) != CELLS:
            raise ValueError(f"board has {len(pos.board)} cells, expected {CELLS}")
        if len(pos.hands) != rules.players or len(pos.discards) != rules.players:
            raise ValueError(f"need one hand and one discard pile per seat ({rules.players})")
        if any(h.unknown for h in pos.hands):
            raise ValueError("the reference engine needs every hand known (no '?' cards)")
        if pos.draw_cards is None:
            raise ValueError("the reference engine needs the draw pile listed (P-8 ': top-first list')")
        if len(pos.draw_cards) != pos.draw_count:
            raise ValueError(f"draw count {pos.draw_count} but {len(pos.draw_cards)} cards listed")
        if rules.draw_mode == "draft" and pos.draft is None:
            raise ValueError("the draft variant needs the draft listed (D-5)")
        if rules.draw_mode != "draft" and pos.draft:
            raise ValueError("a draft is listed but draw_mode is not draft")
        game = cls(rules, pos.seats, rng)
        game.board = list(pos.board)
        game.hands = [list(h.known) for h in pos.hands]
        game.discards = [list(d) for d in pos.discards]
        game.draw_pile = list(pos.draw_cards)
        if game.draft is not None:
            game.draft = list(pos.draft or ())
        game.public = [list(t) for t in pos.takes or [() for _ in pos.seats]]
        game.last = [list(t) for t in pos.last_turns or [() for _ in pos.seats]]
        deck = rules.deck_cards
        for card in game._all_cards():
            if card not in deck.codes:
                raise ValueError(f"card {card!r} is not in deck {deck.name}")
        game.sequences = [(colour, window) for colour, window in pos.sequences]
        game.turn, game.stall = pos.turn, pos.stall
        game.exchanges_left = 0 if pos.exchange_used else rules.dead_card_exchanges_per_turn
        game.result = pos.result
        if pos.result is not None:
            game.to_move = None  # type: ignore[assignment]
            game.termination = game._infer_termination()
        else:
            if pos.to_move is None or not 0 <= pos.to_move < rules.players:
                raise ValueError(f"to-move {pos.to_move} is not a seat")
            game.to_move = pos.to_move
        game._sort_cards()
        return game

    def to_position(self) -> Position:
        """The canonical :class:`Position` (hands in deck order, draw pile top first).

        After a reshuffle the draw pile is given by its count only (P-17).
        """
        index = self.rules.deck_cards.index
        over = self.is_over
        return Position(
            rules=self.rules,
            seats=self.seats,
            board=tuple(self.board),
            to_move=None if over else self.to_move,
            hands=tuple(Hand(tuple(sorted(h, key=index)), 0) for h in self.hands),
            discards=tuple(tuple(d) for d in self.discards),
            sequences=tuple(self.sequences),
            draw_count=len(self.draw_pile),
            draw_cards=tuple(self.draw_pile) if self.draw_known else None,
            turn=self.turn,
            stall=self.stall,
            exchange_used=(
                not over and self.exchanges_left == 0 and self.rules.dead_card_exchanges_per_turn != 0
            ),
            result=self.result,
            draft=None if self.draft is None else tuple(sorted(self.draft, key=index)),
            takes=None if over else self._takes(),
            last_turns=None if over else self._last_turns(),
        )

    def _takes(self) -> tuple[tuple[str, ...], ...] | None:
        if self.draft is None or not any(self.public):
            return None
        index = self.rules.deck_cards.index
        return tuple(tuple(sorted(t, key=index)) for t in self.public)

    def _last_turns(self) -> tuple[tuple[str, ...], ...] | None:
        """Each seat's last turn; one with exchanges whose cards no longer end its pile
        (a reshuffle took them) is not known."""
        turns = []
        for seat, turn in enumerate(self.last):
            pile = self.discards[seat]
            if seat == self.to_move and not self.is_over:  # this turn's exchanges lie on top
                pile = pile[: len(pile) - self._exchanged_this_turn(len(pile))]
            cards = [Move.from_str(a).card for a in turn if a != "pass"]
            if len(turn) > 1 and pile[len(pile) - len(cards) :] != cards:
                turn = []
            turns.append(tuple(turn))
        return tuple(turns) if any(turns) else None

    def _exchanged_this_turn(self, most: int) -> int:
        """Exchanges the mover made this turn; read from a position with its exchange used
        (P-16, count not recorded): the limit, or with no limit every card of its pile."""
        if self.exchanged:
            return len(self.exchanged)
        limit = self.rules.dead_card_exchanges_per_turn
        if limit == UNLIMITED:
            return most if self.exchanges_left == 0 else 0
        return limit - self.exchanges_left

    def clone(self) -> RefGame:
        """An independent copy, with its own copy of the random generator."""
        return copy.deepcopy(self)

    # -- observers ----------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def current_seat(self) -> int | None:
        """The seat to move, None when the game is over."""
        return None if self.is_over else self.to_move

    def colour_of(self, seat: int) -> str:
        return self.seats[seat]

    @property
    def sides(self) -> str:
        """The colour of each side (C-7)."""
        return self.seats[: self.rules.teams]

    def completed(self, colour: str) -> list[int]:
        """The windows completed by side ``colour``, in completion order."""
        return [w for c, w in self.sequences if c == colour]

    def holds_heart(self, colour: str) -> bool:
        """D-3: the side has its own chips (locked or not) on e5, f5, e6 and f6."""
        return all(self.board[c].lower() == colour for c in HEART_CELLS)

    def score(self, colour: str) -> int:
        """Sequences of a side, plus 2 while it holds the heart with ``heart_rule=on`` (D-3)."""
        total = len(self.completed(colour))
        if self.rules.heart_rule == "on" and self.holds_heart(colour):
            total += 2
        return total

    def is_dead(self, card: str) -> bool:
        """C-20: a normal card both of whose cells are occupied.  A jack is never dead (C-19a)."""
        if self.rules.deck_cards.kind(card) != CardKind.NORMAL:
            return False
        return all(self.board[c] != EMPTY for c in self.rules.layout.cells_of(card))

    def targets(self, card: str, colour: str) -> list[int]:
        """The cells ``card`` may be played on by side ``colour`` (C-15), ascending."""
        kind = self.rules.deck_cards.kind(card)
        if kind == CardKind.NORMAL:
            return sorted(c for c in self.rules.layout.cells_of(card) if self.board[c] == EMPTY)
        if kind == CardKind.WILD:
            return [c for c in range(CELLS) if self.board[c] == EMPTY]
        # REMOVE: an unlocked (lower-case) chip of another side; never a corner or empty cell
        return [c for c in range(CELLS) if self.board[c] in COLOURS and self.board[c] != colour]

    def jack_barred(self, card: str) -> bool:
        """K-2 (``first_turn_jacks=off``): on the game's first turn (turn 0) a jack may
        not be played while a card that is not a jack can be."""
        if self.rules.first_turn_jacks != "off" or self.turn != 0:
            return False
        if self.rules.deck_cards.kind(card) == CardKind.NORMAL:
            return False
        colour = self.seats[self.to_move]
        return any(
            self.rules.deck_cards.kind(c) == CardKind.NORMAL and self.targets(c, colour)
            for c in set(self.hands[self.to_move])
        )

    def has_play(self) -> bool:
        colour = self.seats[self.to_move]
        return any(self.targets(card, colour) for card in set(self.hands[self.to_move]))

    def exchange_allowed(self) -> bool:
        return self.exchanges_left != 0

    def declarations(self, cell: int, colour: str | None = None) -> list[tuple[int, ...]]:
        """All maximum-size valid declarations (C-26) if ``colour`` placed a chip on ``cell``.

        ``colour`` defaults to the side to move.  Window tuples are ascending;
        the list is in lexicographic order, so its first entry is the
        canonical declaration.  ``[()]`` when the placement completes nothing.

        Raises:
            ValueError: the cell is not empty.
        """
        if colour is None:
            if self.is_over:
                raise ValueError("the game is over: give the colour")
            colour = self.seats[self.to_move]
        if self.board[cell] != EMPTY:
            raise ValueError(f"{cell_name(cell)} is not empty")
        board = list(self.board)
        board[cell] = colour
        completed = self.completed(colour)
        return maximum_declarations(
            eligible_windows(board, colour, cell, completed, self.rules), completed, self.rules
        )

    # -- move generation ----------------------------------------------------

    def legal_moves(self) -> list[str]:
        """The legal actions of the side to move as P-13 strings, in canonical order.

        Plays sorted by (card, cell, draft pick) in deck order; then one
        exchange ``~XX`` per distinct dead card while an exchange is allowed;
        then ``pass`` when no play exists (always with
        ``allow_voluntary_pass``).  Empty when the game is over.
        """
        if self.is_over:
            return []
        deck = self.rules.deck_cards
        seat = self.to_move
        colour = self.seats[seat]
        picks = self._pick_suffixes()
        plays = []
        for card in sorted(set(self.hands[seat]), key=deck.index):
            if self.jack_barred(card):
                continue
            op = "x" if deck.kind(card) == CardKind.REMOVE else "@"
            for cell in self.targets(card, colour):
                for pick in picks:
                    plays.append(f"{card}{op}{cell_name(cell)}{pick}")
        exchanges = []
        if self.exchange_allowed():
            for card in sorted(set(self.hands[seat]), key=deck.index):
                if self.is_dead(card):
                    for pick in picks:
                        exchanges.append(f"~{card}{pick}")
        passes = ["pass"] if (not plays or self.rules.allow_voluntary_pass) else []
        return plays + exchanges + passes

    def _pick_suffixes(self) -> list[str]:
        """``['']`` outside the draft or with an empty draft; else ``'+XX'`` per distinct draft card."""
        if self.draft is None or not self.draft:
            return [""]
        index = self.rules.deck_cards.index
        return [f"+{card}" for card in sorted(set(self.draft), key=index)]

    # -- applying moves -----------------------------------------------------

    def apply(self, move: str | Move) -> None:
        """Play one action (an exchange, or the play that ends the turn).

        A string holding a whole turn (``"~5S 9H@i3"``) is applied action by
        action, and not at all if any action is illegal.

        Raises:
            ValueError: the move is illegal (the message says why) or not P-12 notation.
        """
        if isinstance(move, str):
            actions = parse_turn(move)
            if len(actions) > 1:
                saved = self._snapshot()
                try:
                    for action in actions:
                        self._apply_one(action)
                except ValueError:
                    self._restore(saved)
                    raise
                return
            move = actions[0]
        self._apply_one(move)

    def _apply_one(self, move: Move) -> None:
        self._check_legal(move)
        seat = self.to_move
        colour = self.seats[seat]
        if move.kind is MoveKind.EXCHANGE:
            self.exchanged.append(f"~{move.card}")
        else:
            self.last[seat] = [*self.exchanged, str(Move(move.kind, move.card, move.cell))]
            self.exchanged = []
        if move.kind is MoveKind.PASS:
            if not self._fill_first_hand(seat):
                return
            self._end_turn(chip_changed=False)
            return
        self.hands[seat].remove(move.card)
        self.discards[seat].append(move.card)
        if move.card in self.public[seat]:  # the hand is the same whichever copy went
            self.public[seat].remove(move.card)
        if move.kind is MoveKind.EXCHANGE:
            if self.exchanges_left > 0:
                self.exchanges_left -= 1
            self._take_card(seat, move.pick)
            return
        if move.kind is MoveKind.REMOVE:
            self.board[move.cell] = EMPTY
        else:
            declaration = move.declare if move.declare is not None else self.declarations(move.cell)[0]
            self.board[move.cell] = colour
            self._complete(colour, declaration)
            if self.score(colour) >= self.rules.sequences_to_win:
                self._finish(colour, "win")
                return
        if not self._take_card(seat, move.pick):
            return
        if not self._fill_first_hand(seat):
            return
        self._end_turn(chip_changed=True)

    def _check_legal(self, move: Move) -> None:
        """Raise ``ValueError`` with the reason if ``move`` is not legal now."""
        if self.is_over:
            raise ValueError(f"illegal move {move}: the game is over")
        seat = self.to_move
        colour = self.seats[seat]
        deck = self.rules.deck_cards
        picks = self._pick_suffixes()
        if move.kind is not MoveKind.PASS:
            if move.card not in deck.codes:
                raise ValueError(f"illegal move {move}: {move.card} is not a card of deck {deck.name}")
            if move.card not in self.hands[seat]:
                raise ValueError(f"illegal move {move}: seat {seat} does not hold {move.card}")
            if move.pick is None and picks != [""]:
                raise ValueError(f"illegal move {move}: choose a draft card with +XX (D-1)")
            if move.pick is not None and self.draft is None:
                raise ValueError(f"illegal move {move}: there is no draft in this variant (D-1)")
            if move.pick is not None and f"+{move.pick}" not in picks:
                raise ValueError(f"illegal move {move}: {move.pick} is not in the draft (D-1)")
        kind = None if move.card is None else deck.kind(move.card)
        if move.kind is MoveKind.PASS:
            if move.pick is not None:
                raise ValueError(f"illegal move {move}: a pass takes no card")
            if self.has_play() and not self.rules.allow_voluntary_pass:
                raise ValueError("illegal move pass: a legal play exists (C-19)")
        elif move.kind is MoveKind.EXCHANGE:
            if not self.exchange_allowed():
                raise ValueError(f"illegal move {move}: no exchange left this turn (C-14)")
            if not self.is_dead(move.card):
                raise ValueError(f"illegal move {move}: {move.card} is not a dead card (C-20)")
        elif self.jack_barred(move.card):
            raise ValueError(f"illegal move {move}: no jack on the first turn while another card plays (K-2)")
        elif move.kind is MoveKind.REMOVE:
            if kind != CardKind.REMOVE:
                raise ValueError(f"illegal move {move}: {move.card} cannot remove a chip")
            token = self.board[move.cell]
            if token == CORNER or token == EMPTY:
                raise ValueError(f"illegal move {move}: no chip on {cell_name(move.cell)}")
            if token.lower() == colour:
                raise ValueError(f"illegal move {move}: cannot remove your own side's chip (C-15)")
            if token.isupper():
                raise ValueError(f"illegal move {move}: the chip on {cell_name(move.cell)} is locked (C-27)")
        else:
            if kind == CardKind.REMOVE:
                raise ValueError(f"illegal move {move}: {move.card} removes a chip (write {move.card}x...)")
            if self.board[move.cell] != EMPTY:
                raise ValueError(f"illegal move {move}: {cell_name(move.cell)} is not an empty cell")
            if kind == CardKind.NORMAL and move.cell not in self.rules.layout.cells_of(move.card):
                raise ValueError(f"illegal move {move}: {move.card} is not shown on {cell_name(move.cell)}")
            if move.declare is not None:
                allowed = self.declarations(move.cell)
                if move.declare not in allowed:
                    names = " or ".join(",".join(window_name(w) for w in d) or "(none)" for d in allowed)
                    raise ValueError(f"illegal move {move}: the declaration must be one of {names} (C-26)")
        bare = str(Move(move.kind, move.card, move.cell, None, move.pick))
        if bare not in self.legal_moves():  # the checks above must agree with the generator
            raise ValueError(f"illegal move {move}: not among the legal moves")

    def _complete(self, colour: str, declaration: tuple[int, ...]) -> None:
        """C-26 step 4 and C-27: record the new sequences and lock their chips."""
        for w in sorted(declaration):
            self.sequences.append((colour, w))
            for c in windows()[w]:
                if self.board[c] != CORNER:
                    self.board[c] = self.board[c].upper()

    # -- drawing ------------------------------------------------------------

    def _take_card(self, seat: int, pick: str | None) -> bool:
        """Draw procedure C-29 (blind) or D-1 (draft).  False if it ended the game."""
        if self.draft is None:
            return self._draw_blind(seat)
        return self._take_from_draft(seat, pick)

    def _fill_first_hand(self, seat: int) -> bool:
        """K-3 (``first_turn_short=N``): at the end of the game's first turn the seat that
        played it draws face down from the draw pile until its hand is full; in the draft
        variant too, after its take from the draft, and there under ``draft_end`` an empty
        pile leaves the hand short (that game ends on an empty draft, D-4).  False if a
        draw ended the game."""
        if not self.rules.first_turn_short or self.turn != 0:
            return True
        full = self.rules.hand_limit(seat)
        while len(self.hands[seat]) < full:
            before = len(self.hands[seat])
            if self.draft is not None and not self.draw_pile and self.rules.deck_exhaustion == "draft_end":
                break
            if not self._draw_blind(seat):
                return False
            if len(self.hands[seat]) == before:  # no card left anywhere
                break
        return True

    def _draw_blind(self, seat: int) -> bool:
        if not self.draw_pile:
            exhaustion = self.rules.deck_exhaustion
            if exhaustion == "draw_game":
                self._finish("draw", "deck_exhausted")
                return False
            if exhaustion == "draft_end":
                self._finish_by_count()
                return False
            self._reshuffle()
        if self.draw_pile:
            self.hands[seat].append(self.draw_pile.pop(0))
            self._sort_cards()
        return True

    def _take_from_draft(self, seat: int, pick: str | None) -> bool:
        if not self.draft:
            if self.rules.deck_exhaustion == "draft_end":
                self._finish_by_count()
                return False
        else:
            self.draft.remove(pick)  # type: ignore[arg-type]
            self.hands[seat].append(pick)  # type: ignore[arg-type]
            self.public[seat].append(pick)  # type: ignore[arg-type]
        if not self.draw_pile:
            if self.rules.deck_exhaustion == "draw_game":
                self._finish("draw", "deck_exhausted")
                return False
            if self.rules.deck_exhaustion == "reshuffle":
                self._reshuffle()
        if self.draw_pile:
            self.draft.append(self.draw_pile.pop(0))  # type: ignore[union-attr]
        self._sort_cards()
        if not self.draft and self.rules.deck_exhaustion == "draft_end":
            self._finish_by_count()  # D-4: at once, before any further action
            return False
        return True

    def _reshuffle(self) -> None:
        """C-29: every discard pile (seat 0 first, bottom first) shuffled into a new draw pile."""
        pile = []
        for d in self.discards:
            pile.extend(d)
            d.clear()
        for taken in self.public:  # the record of takes goes with the discards it stood beside
            taken.clear()
        self.rng.shuffle(pile)
        self.draw_pile = pile
        self.draw_known = False

    # -- end of turn and of game --------------------------------------------

    def _end_turn(self, chip_changed: bool) -> None:
        """C-18 then the C-31 checks."""
        self.turn += 1
        self.stall = 0 if chip_changed else self.stall + 1
        self.to_move = (self.to_move + 1) % self.rules.players
        self.exchanges_left = self.rules.dead_card_exchanges_per_turn
        if self.is_frozen():
            self._finish("draw", "frozen")
        elif self.rules.stall_limit > 0 and self.stall >= self.rules.stall_limit:
            self._finish("draw", "stall")
        elif self.rules.max_turns > 0 and self.turn >= self.rules.max_turns:
            self._finish("draw", "turn_cap")

    def is_frozen(self) -> bool:
        """C-31.2: no empty non-corner cell and no unlocked chip."""
        return all(t == CORNER or t.isupper() for t in self.board)

    def _finish(self, result: str, termination: str) -> None:
        self.result = result
        self.termination = termination
        self.to_move = None  # type: ignore[assignment]

    def _finish_by_count(self) -> None:
        """D-4: the side with the most sequences (heart included) wins; a tie is a draw."""
        scores = {colour: self.score(colour) for colour in self.sides}
        best = max(scores.values())
        leaders = [colour for colour, s in scores.items() if s == best]
        self._finish(leaders[0] if len(leaders) == 1 else "draw", "deck_exhausted")

    def _infer_termination(self) -> str:
        """Best guess at why a loaded finished position ended (positions do not record it)."""
        if self.result != "draw":
            if self.score(self.result) >= self.rules.sequences_to_win:  # type: ignore[arg-type]
                return "win"
            return "deck_exhausted"
        if self.is_frozen():
            return "frozen"
        if self.rules.stall_limit > 0 and self.stall >= self.rules.stall_limit:
            return "stall"
        if self.rules.max_turns > 0 and self.turn >= self.rules.max_turns:
            return "turn_cap"
        return "deck_exhausted"

    # -- helpers ------------------------------------------------------------

    def _all_cards(self) -> list[str]:
        """Every card not on the board: hands, discards, draw pile, draft."""
        cards = (
            [c for h in self.hands for c in h] + [c for d in self.discards for c in d] + list(self.draw_pile)
        )
        return cards + list(self.draft or ())

    def _sort_cards(self) -> None:
        index = self.rules.deck_cards.index
        for h in self.hands:
            h.sort(key=index)
        if self.draft is not None:
            self.draft.sort(key=index)

    def _snapshot(self) -> tuple[dict, object]:
        state = {k: copy.deepcopy(v) for k, v in self.__dict__.items() if k not in ("rng", "rules")}
        return state, self.rng.getstate()

    def _restore(self, saved: tuple[dict, object]) -> None:
        state, rng_state = saved
        self.__dict__.update(state)
        self.rng.setstate(rng_state)  # type: ignore[arg-type]


def _check_seats(rules: Rules, seats: str) -> None:
    """C-7: one colour per seat, seat ``s`` plays side ``s mod T``, the T colours distinct."""
    if len(seats) != rules.players:
        raise ValueError(f"{len(seats)} seats for {rules.players} players")
    sides = seats[: rules.teams]
    if len(set(sides)) != rules.teams or any(c not in COLOURS for c in sides):
        raise ValueError(f"seats {seats!r}: the {rules.teams} sides need distinct colours from {COLOURS!r}")
    if any(seats[s] != sides[s % rules.teams] for s in range(len(seats))):
        raise ValueError(f"seats {seats!r}: seat s must have the colour of side s mod {rules.teams} (C-7)")
