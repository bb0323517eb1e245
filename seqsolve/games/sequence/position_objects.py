"""A position from Python objects (a board, hands, discard piles...) through the very
P-11 checks of a position file.

A program that keeps its own game (a contest framework, a GUI) has lists and
strings, not a file.  Writing them out as SQN only to parse the text again costs
more than a bot's move, and a :class:`Position` built directly gets only the checks
that keep the engine sound (``State.from_position``), not those of P-11.
Here the objects become the located fields that :mod:`.position_checks` reads, each
token remembering which argument it came from, so a rejection names the argument
(``hands[1][2]``, ``board g4``) instead of a line and column.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import count, repeat

from ... import arguments
from ...errors import ArgumentError
from ..base import PositionArgumentError
from ..position_syntax import BadToken, Tok
from .board import CELLS, cell_name, window_name, windows
from .cards import make_deck, normalize_card
from .locked import LockedChipsError, locked_sequences
from .position_checks import build_position, resolve_variant
from .position_syntax import Fields, TokList
from .rules import PLAYER_COUNTS, Rules, RulesError, Variant
from .state import State, default_seats

#: a hand or a pile: its cards, or (a hand) how many cards when none of them is known
CardList = Sequence[str] | int
#: more cards than any deck holds: a count past it is refused before it reaches the checks
_MOST_CARDS = 10_000
#: the card codes of every deck: discard_piles, which knows no variant, refuses any other
#: (make_state then checks the cards against the variant's own deck)
_EVERY_CARD = frozenset(make_deck("standard-104").codes) | frozenset(make_deck("numbers-standin-1").codes)


@dataclass
class _Arguments:
    """Hands out tokens that say which argument they came from: the line numbers an
    argument (its index in ``names``), the column its item (1 for the first; 0 for the
    argument as a whole); labels are made only for the one token a check refuses."""

    names: list[str] = field(default_factory=lambda: ["position"])

    def line(self, name: str) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def tok(self, text: object, name: str) -> Tok:
        return Tok(str(text), self.line(name), 0)

    def items(self, texts: Iterable[object], name: str) -> list[Tok]:
        # tuple.__new__ skips Tok's Python-level constructor: a board alone is 100 tokens
        line = self.line(name)
        return list(map(tuple.__new__, repeat(Tok), zip(map(str, texts), repeat(line), count(1))))

    def cards(self, cards: CardList, name: str) -> TokList:
        """A hand (``N`` unknown cards allowed), a pile or the draft; empty is ``-`` (P-5)."""
        if isinstance(cards, int) and not isinstance(cards, bool):
            if not 0 <= cards <= _MOST_CARDS:
                raise PositionArgumentError(
                    name, f"expected a list of cards, or how many cards from 0, not {cards}"
                )
            items = [f"?{cards}"] if cards else ["-"]
        elif isinstance(cards, str):
            raise PositionArgumentError(name, f"expected a list of cards, not the text {cards!r}")
        elif not isinstance(cards, Iterable) or not all(isinstance(c, str) for c in cards):
            raise PositionArgumentError(name, f"expected a list of card codes such as 'TD', not {cards!r}")
        else:
            items = list(cards) or ["-"]
        return TokList(Tok("", len(self.names), 0), self.items(items, name))

    def turn(self, turn: str | None, name: str) -> TokList:
        """A turn in P-12 notation, its actions separated by blanks; None is not known (P-20)."""
        if turn is not None and not isinstance(turn, str):
            raise PositionArgumentError(name, f"expected a turn such as '~5S 9H@i3', or None, not {turn!r}")
        return TokList(Tok("", len(self.names), 0), self.items((turn or "").split() or ["-"], name))

    def label(self, at: Tok) -> str:
        """``hands[1][2]``, ``board g4``, ``to_move``: the argument (and item) of a token."""
        name = self.names[at.line]
        if at.col == 0:
            return name
        if name == "board":
            return f"board {cell_name(at.col - 1)}"
        return f"{name}[{at.col - 1}]"


def make_state(
    board: str | Iterable[str],
    hands: Sequence[CardList],
    *,
    variant: str | Rules = "classic",
    seats: str | None = None,
    to_move: int | None = 0,
    exchange_used: bool = False,
    result: str | None = None,
    discards: Sequence[Sequence[str]] | None = None,
    sequences: Iterable[str | tuple[str, int | str]] | None = None,
    draw: int | Sequence[str] | None = None,
    turn: int = 0,
    stall: int = 0,
    draft: Sequence[str] | None = None,
    takes: Sequence[Sequence[str]] | None = None,
    last_turns: Sequence[str | None] | None = None,
    seed=None,
) -> State:
    """A state from plain objects, through the same P-11 checks as a position file.

    Args:
        board: 100 cells, row 1 first (cell a1, b1, ... j1, a2, ...), one P-2 token
            each (``*`` corner, ``.`` empty, ``b g r`` chips, ``B G R`` locked chips):
            a string, or rows of strings; blanks and ``/`` are ignored.
        hands: one per seat: a list of card codes (``"TD"``, ``"10d"``; ``"?"`` for
            an unknown card), or the number of cards when none is known.
        variant: a variant (``"classic[sequences_to_win=1]"``) or a :class:`Rules`.
        seats: each seat's colour (``"bg"``); by default as a deal seats them (C-7).
        to_move: the seat to move; None when ``result`` says the game is over.
        exchange_used: the mover has made its dead-card exchange this turn (P-4).
        result: ``"b"``, ``"g"``, ``"r"`` or ``"draw"`` for a finished game.
        discards: each seat's discard pile, bottom first (P-6); none by default
            (:func:`seqsolve.discard_piles` sorts a list of plays by seat).
        sequences: completed sequences, ``"b:a6-a10"`` or ``("b", "a6-a10")``, in
            completion order; by default read from the locked chips
            (:func:`seqsolve.sequences_from_locked`).
        draw: the draw pile's size, or its cards top first; by default the cards
            no hand, pile or draft holds (P-15).
        turn, stall: the counters of P-9.
        draft: the face-up draft of the draft variant (D-5).
        takes: one list per seat, the draft cards everyone saw it take and has not
            seen it play since (P-19, draft variant only); none by default.
        last_turns: one per seat, its last turn in P-12 notation (``"~5S 9H@i3"``),
            or None when not known (P-20); none by default.  The turn of the seat
            that moved last is the evidence a search with ``infer`` reads.
        seed: seeds the state's shuffles, as for :func:`seqsolve.parse_state`.

    Raises:
        PositionError: a check fails; the message starts with the argument at fault
            (``hands[1][2]: 'ZZ' is not a card ...``, ``board g4: ...``).

    >>> import seqsolve
    >>> board = ["*........*"] + ["." * 10] * 8 + ["*........*"]
    >>> state = seqsolve.make_state(board, [["AS", "2H", "7H", "AD", "QD", "8C", "9C"], 7])
    >>> state.current_player, state.draw_pile_size()
    (0, 90)
    >>> seqsolve.make_state(board, [["AS", "ZZ"], 7])
    Traceback (most recent call last):
    seqsolve.games.base.PositionArgumentError: hands[0][1]: 'ZZ' is not a card of deck standard-104 (AS, 2S, 3S, ..., KC)
    """
    args = _Arguments()
    if not isinstance(variant, (str, Rules)):
        raise PositionArgumentError("variant", f"expected a variant string or Rules, not {variant!r}")
    variant_text = str(variant.variant) if isinstance(variant, Rules) else variant
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise PositionArgumentError("hands", f"expected one hand per seat, not {hands!r}")
    if not isinstance(exchange_used, bool):
        raise PositionArgumentError("exchange_used", f"expected True or False, not {exchange_used!r}")
    for name, value in (("to_move", to_move), ("turn", turn), ("stall", stall)):
        if not (value is None and name == "to_move") and (
            isinstance(value, bool) or not isinstance(value, int)
        ):
            raise PositionArgumentError(name, f"expected an integer, not {value!r}")
    if seats is not None and (
        not isinstance(seats, (str, Sequence)) or not all(isinstance(c, str) for c in seats)
    ):
        raise PositionArgumentError("seats", f"expected one colour letter per seat ('bg'), not {seats!r}")
    if result is not None and not isinstance(result, str):
        raise PositionArgumentError("result", f"expected 'b', 'g', 'r' or 'draw', not {result!r}")
    players = len(hands)
    seats = "".join(seats) if seats is not None else _default_seats(variant_text, players)
    cells = board_tokens(board)
    f = Fields(head=args.tok("", "position"), variant=args.tok(variant_text, "variant"))
    f.seats_at = args.tok(seats, "seats")
    f.seats = args.items(seats, "seats")
    if len(cells) != CELLS:
        raise PositionArgumentError("board", f"{len(cells)} cells, expected 100 (10 rows of 10, row 1 first)")
    f.board = args.items(cells, "board")
    f.to_move = None if to_move is None else args.tok(to_move, "to_move")
    f.exchange = args.tok("x", "exchange_used") if exchange_used else None
    f.result = None if result is None else args.tok(result, "result")
    f.hands_at = args.tok("", "hands")
    f.hands = {s: args.cards(h, f"hands[{s}]") for s, h in enumerate(hands)}
    f.discards_at = args.tok("", "discards")
    if discards is not None and (isinstance(discards, str) or not isinstance(discards, Sequence)):
        raise PositionArgumentError("discards", f"expected one discard pile per seat, not {discards!r}")
    piles = discards if discards is not None else [()] * len(seats)
    f.discards = {s: args.cards(p, f"discards[{s}]") for s, p in enumerate(piles)}
    if sequences is None:
        sequences = _from_locked(cells, variant_text, seats)
    elif isinstance(sequences, str) or not isinstance(sequences, Iterable):
        raise PositionArgumentError(
            "sequences", f"expected a list of sequences such as 'b:a6-a10', not {sequences!r}"
        )
    f.sequences = args.items(map(_sequence_text, sequences), "sequences")
    if isinstance(draw, int) and not isinstance(draw, bool):
        f.draw = args.tok(draw, "draw")
    elif isinstance(draw, str):
        raise PositionArgumentError("draw", f"expected a count or a list of cards, not the text {draw!r}")
    elif draw is not None:
        if not isinstance(draw, Sequence) or not all(isinstance(c, str) for c in draw):
            raise PositionArgumentError("draw", f"expected a count or a list of cards, not {draw!r}")
        f.draw = args.tok(len(draw), "draw")
        f.draw_cards = args.items(draw, "draw")
    f.turn, f.stall = args.tok(turn, "turn"), args.tok(stall, "stall")
    f.draft = None if draft is None else args.cards(draft, "draft")
    if takes is not None:
        f.takes_at = args.tok("", "takes")
        f.takes = {
            s: args.cards(t, f"takes[{s}]") for s, t in enumerate(_per_seat(takes, "takes", "lists of cards"))
        }
    if last_turns is not None:
        f.last_at = args.tok("", "last_turns")
        f.last = {
            s: args.turn(t, f"last_turns[{s}]")
            for s, t in enumerate(_per_seat(last_turns, "last_turns", "turns"))
        }
    seed = arguments.seed(seed, "make_state")
    try:
        position = build_position(f)
    except BadToken as bad:
        raise PositionArgumentError(args.label(bad.at), bad.message) from None
    return State.from_position(position, seed)


def _per_seat(values: object, name: str, what: str) -> Sequence:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise PositionArgumentError(name, f"expected one entry per seat ({what}), not {values!r}")
    return values


def board_tokens(board: str | Iterable[str]) -> list[str]:
    """One P-2 token per cell from a string or rows of strings, blanks and ``/`` ignored."""
    rows = [board] if isinstance(board, str) else list(board) if isinstance(board, Iterable) else None
    if rows is None or not all(isinstance(row, str) for row in rows):
        raise PositionArgumentError("board", f"expected a string or rows of strings, not {board!r}")
    text = "".join(rows)
    return list("".join(text.split()).replace("/", ""))


def _default_seats(variant_text: str, players: int) -> str:
    """Seats as the engine deals them (C-7): side ``s mod T`` for seat ``s``."""
    try:
        return default_seats(resolve_variant(Variant.parse(variant_text), players, None))
    except RulesError as exc:
        raise PositionArgumentError("variant", f"{exc} (with {players} hands)") from None


def _from_locked(cells: list[str], variant_text: str, seats: str) -> list[str]:
    """The sequences of the locked chips; left empty when the variant or the seats are
    wrong, so that the checks report those first."""
    try:
        rules = resolve_variant(Variant.parse(variant_text), len(seats), len(set(seats)))
    except RulesError:
        return []
    return sequences_from_locked(cells, rules)


def _sequence_text(sequence: str | tuple[str, int | str]) -> str:
    """``b:a6-a10`` (P-7) from itself or from ``(colour, window)``, window a number or ends."""
    if isinstance(sequence, str):
        return sequence
    if not (isinstance(sequence, Sequence) and len(sequence) == 2):
        raise PositionArgumentError("sequences", f"expected 'b:a6-a10' or ('b', 'a6-a10'), not {sequence!r}")
    colour, window = sequence
    if isinstance(window, int) and not isinstance(window, bool):
        if not 0 <= window < len(windows()):
            raise PositionArgumentError(
                "sequences", f"window {window} is not one of 0 to {len(windows()) - 1}"
            )
        window = window_name(window)
    return f"{colour}:{window}"


def discard_piles(plays: Iterable[tuple[int, str]], players: int) -> list[list[str]]:
    """Each seat's discard pile, bottom first (P-6), from the cards played in order.

    >>> discard_piles([(0, "5H"), (1, "JS"), (0, "TD")], players=2)
    [['5H', 'TD'], ['JS']]
    >>> discard_piles([(2, "5H")], players=2)
    Traceback (most recent call last):
    seqsolve.games.base.PositionArgumentError: plays[0]: seat 2 is not one of the 2 seats (0 to 1)

    Raises:
        PositionError: a play is not a (seat, card) pair of a seat the game has.
        ArgumentError: ``players`` is not a player count.
    """
    players = arguments.integer(players, "discard_piles", "players", 1, max(PLAYER_COUNTS))
    if isinstance(plays, str) or not isinstance(plays, Iterable):
        raise PositionArgumentError("plays", f"expected a list of (seat, card) pairs, not {plays!r}")
    piles: list[list[str]] = [[] for _ in range(players)]
    for i, play in enumerate(plays):
        if not (isinstance(play, Sequence) and not isinstance(play, str) and len(play) == 2):
            raise PositionArgumentError(f"plays[{i}]", f"expected a (seat, card) pair, not {play!r}")
        seat, card = play
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise PositionArgumentError(
                f"plays[{i}]", f"seat {seat!r} is not one of the {players} seats (0 to {players - 1})"
            )
        if not isinstance(card, str) or normalize_card(card) not in _EVERY_CARD:
            raise PositionArgumentError(f"plays[{i}]", f"expected a card code such as '5H', not {card!r}")
        piles[seat].append(card)
    return piles


def sequences_from_locked(board: str | Iterable[str], rules: Rules) -> list[str]:
    """The completed sequences (P-7 text) that the locked chips of ``board`` must be
    under ``rules``' overlap options (C-25), for a program that marks locked chips but
    keeps no list of sequences.  ``board`` is given as to :func:`seqsolve.make_state`.

    >>> from seqsolve import parse_rules
    >>> board = "*........*" + "BBBBBBBBB." + "." * 70 + "*........*"
    >>> sequences_from_locked(board, parse_rules("classic", players=2))
    ['b:a2-e2', 'b:e2-i2']
    >>> sequences_from_locked(board, parse_rules("classic[overlap_max_shared=4]", players=2))
    Traceback (most recent call last):
    seqsolve.games.base.PositionArgumentError: board: the locked b chips at a2, b2, c2, d2, e2, f2, g2, h2, i2 are sequences a2-e2, b2-f2, c2-g2, d2-h2, e2-i2 or a2-e2, b2-f2, c2-g2, e2-i2: list the sequences (P-7)

    Raises:
        PositionError: the board is not 100 cells, or its locked chips form no set
            of sequences the overlap options allow, or several (naming the cells).
    """
    if not isinstance(rules, Rules):
        raise ArgumentError(
            f"sequences_from_locked: rules must be a Sequence Rules (seqsolve.parse_rules), not {rules!r}"
        )
    cells = board_tokens(board)
    if len(cells) != CELLS:
        raise PositionArgumentError("board", f"{len(cells)} cells, expected 100 (10 rows of 10, row 1 first)")
    try:
        return [_sequence_text(s) for s in locked_sequences(tuple(cells), rules)]
    except LockedChipsError as exc:
        raise PositionArgumentError("board", str(exc)) from None
