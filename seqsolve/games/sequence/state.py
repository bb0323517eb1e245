"""The game state: the Python face of the compiled core.

``State`` speaks open_spiel's vocabulary (``current_player``, ``legal_moves``,
``apply``, ``clone``, ``is_terminal``, ``returns``, ``observation``,
``resample``) with python-chess ergonomics (``push``/``pop``, ``outcome()``).
It owns one numpy bit generator, so a game's shuffles depend only on its seed.
User input is checked here, with a reason for every refusal; the core assumes
legal actions and never checks again.
"""

from __future__ import annotations

import enum
from collections import Counter
from functools import lru_cache

import numpy as np

from ... import arguments
from ...errors import ArgumentError
from ..engine import Outcome, bit_generator, deal_unseen, not_built
from .actions import NO_CELL, ActionKind, IllegalMoveError, decode_action, encode_action
from .board import CELLS, CORNERS, windows
from .cards import UNKNOWN, CardKind
from .move_checks import check_move
from .moves import Move, MoveKind, MoveSyntaxError, parse_turn
from .notation import check_built_position
from .position import COLOURS, CORNER, COUNTER_MAX, EMPTY, Hand, Position
from .rules import UNLIMITED, Rules

try:
    from ... import _core
except ImportError as exc:  # pragma: no cover - exercised only in an unbuilt tree
    raise not_built("compiled core", exc) from None

#: the core's code of a card this seat cannot see (an unknown hand card or draw pile)
UNKNOWN_CODE = 255
#: every action number is below this (27 bits: see actions.encode_action)
_ACTION_END = 1 << 27
#: the deepest perft asked of a state (``seqsolve perft --depth`` allows as much):
#: a classic position near its start has some 10^20 leaves at 12
PERFT_MAX_DEPTH = 12
_UNLIMITED_EXCHANGES = 32767
_EXHAUSTION = {"reshuffle": 0, "draw_game": 1, "draft_end": 2}


#: what the per-action paths compare with: looking a member up on the enum class costs
#: about 0.1 µs, a module global a few ns (action_to_move runs for every recorded ply)
_REMOVE, _EXCHANGE, _PASS = ActionKind.REMOVE, ActionKind.EXCHANGE, ActionKind.PASS


class CoreResult(enum.IntEnum):
    """The core's ``result`` beyond a winning side's number (0, 1, 2)."""

    ONGOING = -1
    DRAW = 3


#: is_terminal runs twice per action of every game: a module global, not a class lookup
_ONGOING = CoreResult.ONGOING


class Termination(arguments.PublicEnum):
    """Why a game ended (C-31, D-4)."""

    WIN = 1
    FROZEN = 2
    STALL = 3
    TURN_CAP = 4
    DECK_EXHAUSTED = 5
    DRAFT_END = 6
    RECORDED = 7  # read from a finished position file: the reason is not recorded


def default_seats(rules: Rules) -> str:
    """Seat colours in turn order: side ``s mod T`` plays ``'bgr'[side]`` (C-7)."""
    return "".join(COLOURS[s % rules.teams] for s in range(rules.players))


@lru_cache(maxsize=64)
def core_rules(rules: Rules) -> _core.CoreRules:
    """The core's tables for a rule set, built once: cards, cells, windows (STYLE habit 4)."""
    deck, layout = rules.deck_cards, rules.layout
    options = {
        "players": rules.players,
        "sides": rules.teams,
        "hand_size": rules.hand_size,
        "seq_to_win": rules.sequences_to_win,
        "max_shared": rules.overlap_max_shared,
        "reuse_limit": rules.overlap_reuse_limit,
        "ex_limit": _exchanges_per_turn(rules),
        "exhaustion": _EXHAUSTION[rules.deck_exhaustion],
        "first_seat": rules.first_seat,
        "vpass": int(rules.allow_voluntary_pass),
        "stall_limit": rules.stall_limit,
        "max_turns": rules.max_turns,
        "draft_mode": int(rules.draw_mode == "draft"),
        "draft_size": rules.draft_size,
        "heart": int(rules.heart_rule == "on"),
        "corner_shared": int(rules.corner_counts_as_shared),
        "bonus_cards": rules.bonus_cards,
        "hand_bonus": rules.hand_bonus,  # K-1
        "first_turn_jacks": int(rules.first_turn_jacks == "on"),  # K-2
        "first_turn_short": rules.first_turn_short,  # K-3
        "head_start_cells": rules.head_start_cells(),  # K-5
    }
    return _core.CoreRules(
        options,
        [deck.index(c) for c in deck.cards()],
        [int(deck.kind(c)) for c in deck.codes],
        [list(layout.cells_of(c)) if deck.kind(c) == CardKind.NORMAL else [] for c in deck.codes],
        [list(w) for w in windows()],
        [s % rules.teams for s in range(rules.players)],
    )


def _exchanges_per_turn(rules: Rules) -> int:
    """Dead-card exchanges a turn allows, as the core's 16-bit count holds them.

    ``unlimited`` and any limit past 32767 are 32767: no turn comes near it (each
    exchange discards a dead card, and the deck has 96 cards that can die).
    """
    limit = rules.dead_card_exchanges_per_turn
    return _UNLIMITED_EXCHANGES if limit == UNLIMITED or limit > _UNLIMITED_EXCHANGES else limit


def _discard_order(pos: Position) -> list[tuple[int, int]]:
    """Every discard as the core keeps them, ``(seat, card)`` oldest first: seat by seat,
    but with the cards of the last turns (P-20) last, the turn just played newest, so
    that the evidence of a play (Searcher.set_evidence) reads a game read from a file as
    it reads a game in play."""
    deck, players = pos.rules.deck_cards, pos.rules.players
    turns = pos.last_turns or ((),) * players
    newest: list[list[int]] = []
    older: list[tuple[int, int]] = []
    for seat, pile in enumerate(pos.discards):
        n = min(len(pile), sum(1 for a in turns[seat] if a != "pass"))
        if pos.exchange_used and seat == pos.to_move:
            n = 0  # this turn's exchange is on top: the pile keeps its order
        older += [(seat, deck.index(c)) for c in pile[: len(pile) - n]]
        newest.append([deck.index(c) for c in pile[len(pile) - n :]])
    first = pos.to_move if pos.to_move is not None else 0
    recent = [(first + k) % players for k in range(players)]  # the seat to move played longest ago
    return older + [(seat, c) for seat in recent for c in newest[seat]]


def _last_play(turn: tuple[str, ...], deck) -> tuple[int, int]:
    """``(action, exchanges)`` of a P-20 last turn for the core; action -1 when not known."""
    if not turn:
        return -1, 0
    move = Move.from_str(turn[-1])
    if move.kind is MoveKind.PASS:
        return encode_action(ActionKind.PASS), len(turn) - 1
    kind = ActionKind.REMOVE if move.kind is MoveKind.REMOVE else ActionKind.PLACE
    assert move.cell is not None  # a place or a removal names its cell (Move checks it)
    return encode_action(kind, deck.index(move.card), move.cell), len(turn) - 1


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class State:
    """A game of classic Sequence (or Numbers, or draft) in progress or finished."""

    def __init__(self, rules: Rules, seats: str, core: _core.CoreGame):
        self.rules = rules
        self.seats = seats
        self._core = core
        self._stack: list[_core.CoreGame] = []

    def _repr_svg_(self) -> str:
        """Jupyter (and IPython's other front ends) show a state as its picture."""
        from .svg import position_svg

        return position_svg(self.to_position())

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, rules: Rules, seed=None, seats: str | None = None) -> State:
        """Shuffle and deal a new game (C-12).  The same seed deals the same game.

        >>> from seqsolve.games.sequence.rules import parse_rules
        >>> a = State.new(parse_rules("classic", players=2), seed=7)
        >>> b = State.new(parse_rules("classic", players=2), seed=7)
        >>> a.legal_moves() == b.legal_moves(), a.current_player
        (True, 0)

        Raises:
            ArgumentError: ``rules`` is not a Sequence :class:`Rules`, ``seed`` is no
                seed, or ``seats`` is not one colour (``b g r``) per seat.
        """
        if not isinstance(rules, Rules):
            raise ArgumentError(
                f"State.new: rules must be a Sequence Rules (seqsolve.parse_rules('classic', players=2)), not {rules!r}"
            )
        seed = arguments.seed(seed, "State.new")
        if seats is not None and not (
            isinstance(seats, str)
            and len(seats) == rules.players
            and sorted(set(seats)) == sorted(default_seats(rules)[: rules.teams])
        ):
            raise ArgumentError(
                f"State.new: seats must give each of the {rules.players} seats one of {rules.teams} colours, not {seats!r}"
            )
        seats = seats or default_seats(rules)
        core = _core.CoreGame(core_rules(rules), bit_generator(seed))
        core.deal()
        return cls(rules, seats, core)

    @classmethod
    def from_position(cls, pos: Position, seed=None) -> State:
        """A state from a position; unknown cards stay unknown until :meth:`resample`."""
        if not isinstance(pos, Position):
            raise ArgumentError(f"State.from_position: pos must be a Position, not {pos!r}")
        seed = arguments.seed(seed, "State.from_position")
        check_built_position(pos, "State.from_position")
        rules, deck = pos.rules, pos.rules.deck_cards
        sides = pos.seats[: rules.teams]
        chips = [0] * 3
        locked = 0
        for cell, token in enumerate(pos.board):
            if token in (CORNER, EMPTY):
                continue
            chips[sides.index(token.lower())] |= 1 << cell
            if token.isupper():
                locked |= 1 << cell
        discards = _discard_order(pos)
        draw = (
            [deck.index(c) for c in pos.draw_cards]
            if pos.draw_cards is not None
            else [UNKNOWN_CODE] * pos.draw_count
        )
        result: int = CoreResult.ONGOING
        termination = 0
        if pos.result is not None:
            result = CoreResult.DRAW if pos.result == "draw" else sides.index(pos.result)
            termination = Termination.WIN.value if pos.result != "draw" else Termination.RECORDED.value
        core = _core.CoreGame(core_rules(rules), bit_generator(seed))
        core.load(
            {
                "chips": chips,
                "locked": locked,
                "turn": pos.turn,
                "stall": pos.stall,
                "to_move": pos.to_move if pos.to_move is not None else 0,
                "result": result,
                "termination": termination,
                "exchanges_left": 0 if pos.exchange_used else _exchanges_per_turn(rules),
                # a pile given by its count alone is not known, even when empty (P-8)
                "draw_known": int(pos.draw_cards is not None),
                "hands": [[deck.index(c) for c in h.known] + [UNKNOWN_CODE] * h.unknown for h in pos.hands],
                "draw": draw,
                "discards": discards,
                "draft": [deck.index(c) for c in (pos.draft or ())],
                "sequences": [(sides.index(colour), w) for colour, w in pos.sequences],
                "takes": [[deck.index(c) for c in taken] for taken in (pos.takes or ())],
                "last": [_last_play(turn, deck) for turn in (pos.last_turns or ())],
            }
        )
        return cls(rules, pos.seats, core)

    def to_position(self, viewer: int | None = None) -> Position:
        """The position as a file would record it; with ``viewer``, only what that seat sees."""
        if viewer is not None:
            viewer = self._seat(viewer, "to_position", "viewer")
        core, deck = self._core, self.rules.deck_cards
        board = [EMPTY] * 100
        for c in CORNERS:
            board[c] = CORNER
        locked = core.locked()
        for side, colour in enumerate(self.sides):
            for cell in _cells(core.chips(side)):
                board[cell] = colour.upper() if locked >> cell & 1 else colour
        hands = []
        for seat in range(self.rules.players):
            cards = core.hand(seat)
            if viewer is not None and seat != viewer:
                hands.append(Hand((), len(cards)))
                continue
            known = sorted(c for c in cards if c != UNKNOWN_CODE)
            hands.append(Hand(tuple(deck.codes[c] for c in known), len(cards) - len(known)))
        piles: list[list[str]] = [[] for _ in range(self.rules.players)]
        for seat, card in core.discards():
            piles[seat].append(deck.codes[card])
        draw = core.draw_pile()
        listed = viewer is None and core.draw_known and UNKNOWN_CODE not in draw
        outcome = self.outcome()
        over = outcome is not None
        return Position(
            rules=self.rules,
            seats=self.seats,
            board=tuple(board),
            to_move=None if over else core.to_move,
            hands=tuple(hands),
            discards=tuple(tuple(p) for p in piles),
            sequences=tuple((self.sides[s], w) for s, w in core.sequences()),
            draw_count=len(draw),
            draw_cards=tuple(deck.codes[c] for c in draw) if listed else None,
            turn=core.turn,
            stall=core.stall,
            exchange_used=not over
            and core.exchanges_left == 0
            and self.rules.dead_card_exchanges_per_turn != 0,
            result=None if outcome is None else outcome.result,
            draft=tuple(deck.codes[c] for c in sorted(core.draft()))
            if self.rules.draw_mode == "draft"
            else None,
            takes=None if over else self._takes(),  # a finished game has nothing left to decide
            last_turns=None if over else self._last_turns(piles),
        )

    def _takes(self) -> tuple[tuple[str, ...], ...] | None:
        """P-19: each seat's :meth:`public_hand`, None when no seat has one."""
        if self.rules.draw_mode != "draft":
            return None
        takes = tuple(tuple(self.public_hand(seat)) for seat in range(self.rules.players))
        return takes if any(takes) else None

    def _last_turns(self, piles: list[list[str]]) -> tuple[tuple[str, ...], ...] | None:
        """P-20: each seat's last turn, its exchanged cards read from the top of its pile
        (not known when a reshuffle has taken them); None when no seat's is known."""
        core = self._core
        turns: list[tuple[str, ...]] = []
        for seat in range(self.rules.players):
            action, exchanges = core.last_play(seat)
            if action < 0:
                turns.append(())
                continue
            kind, card, cell, _ = decode_action(action)
            play = (
                Move(MoveKind.PASS)
                if kind == _PASS
                else self.action_to_move(encode_action(ActionKind(kind), card, cell))
            )
            pile = piles[seat]
            if seat == core.to_move and not self.is_terminal():  # this turn's exchanges lie on top
                pile = pile[: len(pile) - (self._exchanges_per_turn() - core.exchanges_left)]
            cards = [play.card] if play.card is not None else []
            if exchanges and (len(pile) < exchanges + len(cards) or (cards and pile[-1] != play.card)):
                turns.append(())  # a reshuffle took the exchanged cards
                continue
            exchanged = pile[len(pile) - len(cards) - exchanges : len(pile) - len(cards)] if exchanges else []
            turns.append(tuple([f"~{c}" for c in exchanged] + [str(play)]))
        return tuple(turns) if any(turns) else None

    def _exchanges_per_turn(self) -> int:
        return _exchanges_per_turn(self.rules)

    def to_text(self, form: str = "sqn", viewer: int | None = None) -> str:
        """The position file of this state (RULES.md §5): ``"sqn"``, the one-line form,
        ``"readable"`` or ``"json"``; with ``viewer``, only what that seat may see, as
        :func:`seqsolve.parse_state` reads it back.

        >>> import seqsolve
        >>> state = seqsolve.State.new(seqsolve.parse_rules("classic", players=2), seed=1)
        >>> text = state.to_text(viewer=1)
        >>> text.split()[4], seqsolve.parse_state(text).to_text(viewer=1) == text
        ('?7/8S,2H,7H,AD,QD,8C,9C', True)

        Raises:
            ArgumentError: an unknown ``form``, or a ``viewer`` that is no seat.
        """
        import json

        from .notation import position_to_dict, to_readable, to_sqn

        writers = {
            "sqn": to_sqn,
            "readable": to_readable,
            "json": lambda p: json.dumps(position_to_dict(p), indent=2),
        }
        writer = writers[arguments.choice(form, "to_text", "form", writers)]
        return writer(self.to_position(None if viewer is None else self._seat(viewer, "to_text", "viewer")))

    def _seat(self, seat, where: str, name: str = "seat") -> int:
        """``seat`` if it is one of this game's seats, else ArgumentError naming ``where``."""
        if type(seat) is int and 0 <= seat < self.rules.players:
            return seat
        return arguments.seat(seat, where, self.rules.players, name)

    def _side(self, side, where: str) -> int:
        if type(side) is int and 0 <= side < self.rules.teams:
            return side
        return arguments.integer(side, where, "side", 0, self.rules.teams - 1)

    # ------------------------------------------------------------ reading
    @property
    def sides(self) -> str:
        """Colour of each side (side ``s`` is seats ``s, s+T, …``)."""
        return self.seats[: self.rules.teams]

    @property
    def current_player(self) -> int | None:
        """Seat to move, or None when the game is over."""
        return None if self.is_terminal() else self._core.to_move

    def side_of(self, seat: int) -> int:
        return self._seat(seat, "side_of") % self.rules.teams

    def is_terminal(self) -> bool:
        return self._core.result != _ONGOING

    def outcome(self) -> Outcome | None:
        result = self._core.result
        if result == CoreResult.ONGOING:
            return None
        winner = None if result == CoreResult.DRAW else self.sides[result]
        return Outcome(Termination(self._core.termination), winner)

    def returns(self) -> list[float]:
        """Per seat: 1 for the winning side, -1 for the others, 0 for all in a draw."""
        result = self._core.result
        if result in (CoreResult.ONGOING, CoreResult.DRAW):
            return [0.0] * self.rules.players
        return [1.0 if self.side_of(s) == result else -1.0 for s in range(self.rules.players)]

    @property
    def turn(self) -> int:
        return self._core.turn

    @property
    def stall(self) -> int:
        return self._core.stall

    def hand(self, seat: int) -> list[str]:
        """A seat's cards in canonical order (``'?'`` for unknown ones)."""
        codes = self.rules.deck_cards.codes
        seat = self._seat(seat, "hand")
        return [codes[c] if c != UNKNOWN_CODE else UNKNOWN for c in sorted(self._core.hand(seat))]

    def public_hand(self, seat: int) -> list[str]:
        """The cards of a seat's hand that everyone at the table has seen it take from
        the draft (D-1) and not play since, in canonical order; an observation keeps
        them, as it keeps the discards.  Empty in the blind draw, and for takes a
        position file does not record (a game read from one starts with none)."""
        codes = self.rules.deck_cards.codes
        return [codes[c] for c in sorted(self._core.public_hand(self._seat(seat, "public_hand")))]

    def before_last_play(self) -> State | None:
        """This state before the last play of the seat that moved last, the evidence a
        search with ``infer`` weighs its worlds by; None when there is none
        (:func:`seqsolve.games.sequence.last_play.before_last_play`)."""
        from .last_play import before_last_play

        return before_last_play(self)

    def sequences(self) -> list[tuple[str, int]]:
        """Completed sequences as (colour, window), in completion order."""
        return [(self.sides[s], w) for s, w in self._core.sequences()]

    def sequence_count(self, side: int) -> int:
        """Sequences that count toward the win (the heart bonus of D-3 included)."""
        return self._core.sequence_total(self._side(side, "sequence_count"))

    def chips(self, side: int) -> list[int]:
        return _cells(self._core.chips(self._side(side, "chips")))

    def locked_cells(self) -> list[int]:
        return _cells(self._core.locked())

    def draw_pile_size(self) -> int:
        return len(self._core.draw_pile())

    def has_hidden_cards(self) -> bool:
        """Whether a hand or the draw pile holds a card this state does not know."""
        core = self._core
        return UNKNOWN_CODE in core.draw_pile() or any(
            UNKNOWN_CODE in core.hand(s) for s in range(self.rules.players)
        )

    def hidden_cards(self) -> list[str]:
        """Each hand and the draw pile that hold cards this state does not know, in words
        (empty exactly when :meth:`has_hidden_cards` is False)."""
        core = self._core
        hidden = [
            f"hand {s} holds {n} unknown"
            for s in range(self.rules.players)
            if (n := core.hand(s).count(UNKNOWN_CODE))
        ]
        pile = core.draw_pile()
        unknown = pile.count(UNKNOWN_CODE)
        if unknown:
            listed = "are not listed" if unknown == len(pile) else f"hold {unknown} unknown"
            hidden.append(f"the draw pile's {len(pile)} cards {listed}")
        return hidden

    def known_hand(self, seat: int) -> list[int]:
        """Deck indexes of the cards of ``seat``'s hand that this state knows."""
        return [c for c in self._core.hand(self._seat(seat, "known_hand")) if c != UNKNOWN_CODE]

    def discarded(self) -> list[tuple[int, int]]:
        """Every card in a discard pile, as (seat, deck index), oldest first per pile."""
        return self._core.discards()

    def draft_cards(self) -> list[int]:
        """Deck indexes of the draft's known cards (D-1; empty outside the draft variant)."""
        return [c for c in self._core.draft() if c != UNKNOWN_CODE]

    @property
    def core(self) -> _core.CoreGame:
        """The compiled game, for bots and runners that work in the core."""
        return self._core

    # ------------------------------------------------------------ moves
    def legal_actions(self) -> list[int]:
        """Core action numbers of the legal actions, in P-13 order."""
        return self._core.legal_actions()

    def random_action(self) -> int:
        """A legal action drawn uniformly with the state's own bit generator.

        Raises:
            IllegalMoveError: the action drawn would take a counter past its limit (P-9).
        """
        action = self._core.random_action()
        past = self.counter_past_limit(action)
        if past:
            raise IllegalMoveError(past)
        return action

    def legal_moves(self) -> list[Move]:
        """The legal actions of the side to move, listed as RULES.md P-13 says.

        Empty when the game is over or the mover's hand holds unknown cards.
        """
        if self.is_terminal() or UNKNOWN_CODE in self._core.hand(self._core.to_move):
            return []
        return [self.action_to_move(a) for a in self._core.legal_actions()]

    def action_to_move(self, action: int) -> Move:
        """The :class:`Move` of a core action number.

        Raises:
            ArgumentError: ``action`` is no action number of this game.
        """
        codes = self.rules.deck_cards.codes
        if type(action) is not int or not 0 <= action < _ACTION_END:
            action = self._action_number(action, "action_to_move")
        kind, card_index, cell, pick_index = decode_action(action)
        try:
            card = codes[card_index]
            pick = codes[pick_index] if pick_index >= 0 else None
        except IndexError:
            raise ArgumentError(f"action_to_move: no action of this game has number {action}") from None
        if kind == _PASS:
            return Move(MoveKind.PASS)
        if kind == _EXCHANGE:
            return Move(MoveKind.EXCHANGE, card=card, pick=pick)
        move_kind = MoveKind.REMOVE if kind == _REMOVE else MoveKind.PLACE
        return Move(move_kind, card=card, cell=cell, pick=pick)

    def move_to_action(self, move: Move | str) -> int:
        """The core action of a move, or IllegalMoveError saying why it is not legal here."""
        if isinstance(move, str):
            move = Move.from_str(move)
        if not isinstance(move, Move):
            raise ArgumentError(f"move_to_action: move must be a Move or its text, not {move!r}")
        return check_move(self, move)

    def ends_turn(self, action: int) -> bool:
        """Every action but a dead-card exchange ends the turn (C-21)."""
        if type(action) is not int:
            action = self._action_number(action, "ends_turn")
        return decode_action(action)[0] != _EXCHANGE

    def action_to_string(self, action: int) -> str:
        """The action in move notation (P-12), as records store it (the game interface's name)."""
        return str(self.action_to_move(action))

    def string_to_action(self, text: str) -> int:
        """The action one move written in notation names here (the game interface's name).

        A turn of several actions (``"~5S 9H@i3"``) is refused: an action is one
        decision.  What a move may add to its action (a declaration, the card an
        exchange drew) is not part of the action number; :meth:`apply` a ``Move``
        to keep it.

        Raises:
            IllegalMoveError: the move is not legal here (the message says why).
            MoveSyntaxError: the text is not one action in P-12 notation.
        """
        moves = parse_turn(
            arguments.text(text, "string_to_action", "text", "a move in notation such as '5H@e5'")
        )
        if len(moves) > 1:
            raise MoveSyntaxError(f"{text!r} is a turn of {len(moves)} actions, not one action")
        return check_move(self, moves[0])

    def apply(self, move: Move | str | int) -> None:
        """Play one action (an exchange, or the play that ends the turn): a :class:`Move`,
        its notation, or a core action number from :meth:`legal_actions`.

        A string may also hold a whole turn, exchange first (``"~5S 9H@i3"``, P-12); it
        is applied action by action, and not at all if any of them is illegal.

        Raises:
            IllegalMoveError: the move is not legal here (the message says why).
            MoveSyntaxError: the text is not P-12 notation.
            ArgumentError: ``move`` is none of the three (a bool is not an action number).
        """
        if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
            self.apply_legal(self._checked_action(int(move)))
            return
        if isinstance(move, str):
            actions = parse_turn(move)
            if len(actions) > 1:
                saved = self._core.clone()
                try:
                    for one in actions:
                        self.apply(one)
                except IllegalMoveError:
                    self._core = saved
                    raise
                return
            move = actions[0]
        if not isinstance(move, Move):
            raise ArgumentError(f"apply: move must be a Move, its text or an action number, not {move!r}")
        action = check_move(self, move)
        if move.kind is MoveKind.EXCHANGE and move.drawn and self.rules.draw_mode == "blind":
            self._install_drawn(move.drawn)
        self._core.apply(action, None if move.declare is None else list(move.declare))

    def apply_legal(self, action: int) -> None:
        """Play an action number taken from this state's :meth:`legal_actions`, unchecked:
        the path of the runners and bots, which pick among the legal actions already and
        would pay for :meth:`apply`'s check (a few µs, as much as the rest of a random
        ply).  Anything else corrupts the state: a program's own input goes to :meth:`apply`."""
        try:
            self._core.apply(action)
        except (TypeError, ValueError, OverflowError):  # free until raised: the check of a type only
            raise ArgumentError(
                f"apply_legal: action must be one of legal_actions(), not {action!r}"
            ) from None

    def _checked_action(self, action: int) -> int:
        """``action`` if it is one of the legal actions here, else IllegalMoveError saying
        why (the reason :meth:`move_to_action` gives for its move, when it names one)."""
        if action in self._core.legal_actions() and not self.counter_past_limit(action):
            return action
        if self.is_terminal():
            raise IllegalMoveError(f"action {action}: the game is over")
        move = self._decoded(action)
        if move is None:
            raise IllegalMoveError(f"no action of this game has number {action}")
        check_move(self, move)  # raises, naming the rule
        raise IllegalMoveError(f"{move}: not legal here")  # pragma: no cover - check_move mirrors the core

    @staticmethod
    def _action_number(action, where: str) -> int:
        """``action`` as an int if it may be an action number (numpy's integers too)."""
        return arguments.integer(action, where, "action", 0, _ACTION_END - 1)

    def _decoded(self, action: int) -> Move | None:
        """The move an action number encodes, or None when it encodes none of this deck."""
        if not 0 <= action < _ACTION_END or encode_action(*decode_action(action)) != action:
            return None
        kind, card, cell, pick = decode_action(action)
        n = len(self.rules.deck_cards.codes)
        cell_ok = cell == NO_CELL if kind in (_EXCHANGE, _PASS) else cell < CELLS
        if card >= n or pick >= n or not cell_ok:
            return None
        if kind == _PASS and (card or pick >= 0):
            return None
        return self.action_to_move(action)

    def play_turn(self, text: str) -> None:
        """Play a whole turn in P-12 notation, action by action (the game interface's name).

        An illegal action stops the turn there, the actions before it played; the
        message of a one-action turn does not repeat the move, which the caller names.

        Raises:
            MoveSyntaxError: the text is not a turn in P-12 notation.
            IllegalMoveError: an action is not legal where it comes (the message says why).
        """
        moves = parse_turn(
            arguments.text(text, "play_turn", "text", "a turn in notation such as '~5S 9H@i3'")
        )
        for move in moves:
            try:
                self.apply(move)
            except IllegalMoveError as exc:
                reason = str(exc)
                if len(moves) == 1 and reason.startswith(f"{move}: "):
                    raise IllegalMoveError(reason[len(f"{move}: ") :]) from None
                raise

    def push(self, move: Move | str | int) -> None:
        """Apply a move, remembering the state so :meth:`pop` can take it back."""
        saved = self._core.clone()
        self.apply(move)
        self._stack.append(saved)

    def pop(self) -> None:
        """Take back the last move :meth:`push` played.

        Raises:
            IllegalMoveError: no pushed move is left to take back.
        """
        if not self._stack:
            raise IllegalMoveError("pop: no pushed move is left to take back")
        self._core = self._stack.pop()

    def clone(self) -> State:
        return State(self.rules, self.seats, self._core.clone())

    def declarations(self, cell: int) -> list[tuple[int, ...]]:
        """Every maximum set of new sequences a chip of the mover on ``cell`` would make
        (C-26), canonical first; ``[()]`` when it completes none."""
        return self._core.declarations(arguments.integer(cell, "declarations", "cell", 0, CELLS - 1))

    # ------------------------------------------------------------ hidden information
    def observation(self, player: int) -> State:
        """What ``player`` may see, as a state whose hidden cards are unknown.

        The board, its own hand, every discard pile, the draft, hand and draw-pile
        sizes and whose turn are kept (RULES.md §1.14); other hands (team-mates'
        too) and the draw pile are forgotten, and the observation has no bit
        generator at all (a reshuffle in it leaves the new draw pile unknown), so
        nothing in it can reveal a hidden card or a future shuffle.  ``observation(p).to_position()`` is the position file that seat
        may be shown; ``observation(p).resample(p, rng)`` is one world it may be in.
        """
        player = self._seat(player, "observation", "player")
        seen = self.without_shuffles()
        seen._core.mask_hidden(player)
        return seen

    def without_shuffles(self) -> State:
        """A copy with no bit generator: a reshuffle in it makes the new draw pile, and
        every card then drawn, unknown (P-17), instead of inventing an order nobody knows.

        What a position file's reader can know after playing on from it: the card
        drawn after a reshuffle is ``?`` even in its holder's hand, as a card drawn
        from a pile given by its count alone is.
        """
        return State(self.rules, self.seats, self._core.clone(None))

    def resample(self, player: int, rng) -> State:
        """A full-information world consistent with what ``player`` has seen.

        Every card ``player`` cannot see (other hands, its own unknown cards, the draw
        pile) is dealt anew from the cards that are neither in its hand, nor in any
        discard pile, nor in the draft, nor in another seat's :meth:`public_hand`
        (which that seat keeps).
        """
        player = self._seat(player, "resample", "player")
        core, deck = self._core, self.rules.deck_cards
        rng = (
            rng
            if isinstance(rng, np.random.Generator)
            else np.random.default_rng(arguments.seed(rng, "resample", "rng"))
        )
        unseen = Counter(deck.index(c) for c in deck.cards())
        kept = {s: core.public_hand(s) for s in range(self.rules.players) if s != player}
        kept[player] = [c for c in core.hand(player) if c != UNKNOWN_CODE]
        seen = [c for cards in kept.values() for c in cards] + [c for _, c in core.discards()] + core.draft()
        hands, cards = deal_unseen(unseen, seen, kept, core.hand_sizes(), len(core.draw_pile()), player, rng)
        # the world shuffles with its own generator, drawn from ``rng``: an observation has
        # none, and copying the real game's would let the world foresee its reshuffles
        world = State(self.rules, self.seats, core.clone(bit_generator(rng)))
        world._core.set_hidden(hands, cards, True)
        return world

    def perft(self, depth: int) -> int:
        """Leaves of the action tree ``depth`` actions deep (the perft of chess engines), at
        most :data:`PERFT_MAX_DEPTH` (deeper would not end in a lifetime).

        Raises:
            ArgumentError: a bad ``depth``, or a hand or the draw pile not listed.
        """
        depth = arguments.integer(depth, "perft", "depth", 0, PERFT_MAX_DEPTH)
        if self.has_hidden_cards():
            raise ArgumentError("perft needs every hand and the draw pile listed")
        return self._core.clone().perft(depth)

    # ------------------------------------------------------------ checking input
    def _install_drawn(self, drawn: str) -> None:
        """``~5S>9H`` on an unknown draw pile: the drawn card becomes known (P-12)."""
        pile = self._core.draw_pile()
        if not pile or pile[0] != UNKNOWN_CODE:
            return
        pile[0] = self.rules.deck_cards.index(drawn)
        self._core.set_hidden([self._core.hand(s) for s in range(self.rules.players)], pile, True)

    def counter_past_limit(self, action: int) -> str | None:
        """Why ending the turn with ``action`` would take a counter past COUNTER_MAX, or None.

        The core's counters are 32-bit and would wrap round; only a hand-written
        position gets near the limit, so the turn that would pass it is refused
        (even one that would end the game, RULES-NOTES "Counters").
        """
        if type(action) is not int:
            action = self._action_number(action, "counter_past_limit")
        kind = decode_action(action)[0]
        if kind == ActionKind.EXCHANGE:  # an exchange does not end the turn
            return None
        for name, value, counts in (
            ("turn", self._core.turn, True),
            ("stall", self._core.stall, kind == ActionKind.PASS),
        ):
            if counts and value >= COUNTER_MAX:
                return f"the {name} counter is at its largest value, {COUNTER_MAX}, and may not pass it (P-9)"
        return None
