"""The second step of reading a position: located fields into a :class:`Position`,
through the P-11 checks (RULES.md), the same code for both text forms.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ..base import MoveSyntaxError
from ..position_syntax import DIGITS, BadToken, Tok, end_of, number_value
from .board import CELLS, CORNERS, cell_name, parse_window, window_name, windows
from .cards import CardKind, Deck, normalize_card
from .moves import Move, MoveKind
from .position import COLOUR_NAMES, COLOURS, CORNER, COUNTER_MAX, Hand, Position
from .position_syntax import BOARD_TOKENS, Fields, TokList
from .rules import PLAYER_COUNTS, Rules, RulesError, Variant, format_value, parse_value
from .sequences import HEART_CELLS, overlap_allows

_PLAYABLE = frozenset(BOARD_TOKENS) - {CORNER}
_SEQUENCE = re.compile(r"([bgrBGR]):(.+)")


def build_position(f: Fields) -> Position:
    """Turn located fields into a Position, running every P-11 check."""
    seats = _read_seats(f)
    rules = _read_rules(f, seats)
    deck = rules.deck_cards
    board = _read_board(f)
    to_move, exchange_used, result = _read_turn_state(f, seats, rules)
    hands, hand_cards = _read_hands(f, rules)
    discards = _read_discards(f, rules)
    sequences = _read_sequences(f, seats, board, rules)
    _check_locks(f, sequences)
    _check_wins(f, sequences, result, rules, board)
    draft = _read_draft(f, rules)
    takes, taken_unknown = _read_takes(f, rules, hands)
    last_turns = _read_last_turns(f, rules, board, discards, to_move, exchange_used)
    draw_cards = (
        None if f.draw_cards is None else [_card(t, deck, "the listed draw pile") for t in f.draw_cards]
    )
    listed = (
        hand_cards
        + taken_unknown
        + [t for pile in discards for t in pile]
        + (draw_cards or [])
        + (draft or [])
    )
    _check_copies(listed, deck)
    draw_count = _read_draw_count(f, hands, discards, draft, draw_cards, deck)
    return Position(
        rules=rules,
        seats=seats,
        board=board,
        to_move=to_move,
        hands=hands,
        discards=tuple(tuple(t.text for t in pile) for pile in discards),
        sequences=sequences,
        draw_count=draw_count,
        draw_cards=None if draw_cards is None else tuple(t.text for t in draw_cards),
        turn=_read_counter(f.turn, "turn"),
        stall=_read_counter(f.stall, "stall"),
        exchange_used=exchange_used,
        result=result,
        draft=None if draft is None else tuple(deck.in_order(t.text for t in draft)),
        takes=takes,
        last_turns=last_turns,
    )


def _read_seats(f: Fields) -> str:
    """P-3 and P-11.2: colour letters, a known player count, seat ``s`` plays side ``s mod T``."""
    assert f.seats_at is not None
    for tok in f.seats:
        if tok.text not in COLOURS:
            raise BadToken(tok, f"bad seat colour {tok.text!r}: expected b, g or r (P-3)")
    seats = "".join(t.text for t in f.seats)
    if len(seats) not in PLAYER_COUNTS:
        allowed = ", ".join(map(str, PLAYER_COUNTS))
        raise BadToken(f.seats_at, f"{len(seats)} seats: a game has {allowed} players (C-6, P-11.2)")
    teams = len(set(seats))
    if teams < 2:
        raise BadToken(f.seats_at, "every seat plays the same colour: a game has 2 or 3 sides (P-3)")
    if len(seats) % teams:
        raise BadToken(f.seats_at, f"{len(seats)} seats cannot form {teams} equal sides (C-6, P-11.2)")
    for seat, tok in enumerate(f.seats):
        first = seat % teams
        if seats[seat] != seats[first]:
            raise BadToken(
                tok,
                f"seat {seat} plays {tok.text} but seat {first} plays {seats[first]}: with {teams} sides"
                f" seat s plays the colour of seat s mod {teams} (P-3)",
            )
    return seats


def _read_rules(f: Fields, seats: str) -> Rules:
    """P-1 (plus the readable ``options`` line), resolved for the seats' players and sides."""
    assert f.variant is not None
    try:
        variant = Variant.parse(f.variant.text)
    except RulesError as exc:
        raise BadToken(f.variant, f"bad variant: {exc} (P-1)") from None
    variant = variant.with_overrides(_read_options(f.options, variant))
    players, teams = len(seats), len(set(seats))
    given = dict(variant.overrides)
    for name, want in (("players", players), ("teams", teams)):
        if name in given and given[name] != want:
            raise BadToken(
                f.variant, f"the variant sets {name}={given[name]} but the seats give {want} (P-1, P-3)"
            )
    try:
        return resolve_variant(variant, players, teams)
    except RulesError as exc:
        raise BadToken(f.variant, f"{exc} (P-11.2)") from None


@lru_cache(maxsize=64)
def resolve_variant(variant: Variant, players: int, teams: int | None) -> Rules:
    """``variant.resolve(players, teams)``, once per seating: resolving checks every
    option and table, a third of the time of reading a whole position."""
    return variant.resolve(players, teams)


def _read_options(options: list[Tok], variant: Variant) -> dict[str, object]:
    """The readable ``options:`` items; an option may be set only once."""
    found: dict[str, object] = {}
    already = dict(variant.overrides)
    for tok in options:
        name, sep, text = tok.text.partition("=")
        if not sep or not name:
            raise BadToken(tok, f"bad option {tok.text!r}: expected name=value (P-1)")
        if name in found or name in already:
            raise BadToken(tok, f"option {name} is set twice")
        try:
            found[name] = parse_value(name, text)
        except RulesError as exc:
            raise BadToken(tok, f"{exc} (P-1)") from None
    return found


def _read_board(f: Fields) -> tuple[str, ...]:
    """P-2 and P-11.1: one of ``* . b g r B G R`` per cell, ``*`` exactly on the corners."""
    assert len(f.board) == CELLS
    cells = tuple(t.text for t in f.board)
    if all(cells[c] == CORNER for c in CORNERS) and sum(map(_PLAYABLE.__contains__, cells)) == CELLS - len(
        CORNERS
    ):
        return cells  # the usual case, checked at once; the loop below finds what is wrong
    for cell, tok in enumerate(f.board):
        if len(tok.text) != 1 or tok.text not in BOARD_TOKENS:
            raise BadToken(
                tok, f"bad board token {tok.text!r} at {cell_name(cell)}: expected one of * . b g r B G R"
            )
        if cell in CORNERS and tok.text != CORNER:
            raise BadToken(tok, f"corner {cell_name(cell)} must be * (P-11.1)")
        if cell not in CORNERS and tok.text == CORNER:
            raise BadToken(tok, f"* at {cell_name(cell)}: free corners are only a1, j1, a10, j10 (P-11.1)")
    return tuple(t.text for t in f.board)


def _read_turn_state(f: Fields, seats: str, rules: Rules) -> tuple[int | None, bool, str | None]:
    """P-4, P-11.8: the seat to move and the used exchange, or the result of a finished game."""
    if f.result is not None:
        result = f.result.text
        if f.to_move is not None:
            raise BadToken(f.to_move, f"the game is over (result {result}), so nobody is to move (P-10)")
        if f.exchange is not None:
            raise BadToken(f.exchange, f"the game is over (result {result}), so no exchange is in progress")
        if result != "draw" and result not in seats:
            raise BadToken(f.result, f"result says {result} won, but nobody plays {result} (P-4)")
        return None, False, result
    if f.to_move is None:
        raise BadToken(f.head, "'to-move:' is required while the game is in progress (P-10)")
    seat = _read_counter(f.to_move, "to-move")
    if seat >= len(seats):
        raise BadToken(f.to_move, f"to-move {seat} is not a seat: seats are 0..{len(seats) - 1} (P-11.8)")
    if f.exchange is not None and rules.dead_card_exchanges_per_turn == 0:
        raise BadToken(
            f.exchange, "an exchange is marked as used, but dead_card_exchanges_per_turn=0 (P-11.8)"
        )
    return seat, f.exchange is not None, None


def _read_counter(tok: Tok | None, name: str) -> int:
    """P-9: a whole number 0..COUNTER_MAX (the core's 32-bit counters, RULES-NOTES);
    a missing readable counter is 0."""
    if tok is None:
        return 0
    if not DIGITS.fullmatch(tok.text):
        raise BadToken(tok, f"{name} must be a whole number >= 0, not {_shown(tok.text)} (P-9)")
    value = number_value(tok.text)
    if value > COUNTER_MAX:
        digits = tok.text if len(tok.text) <= 20 else tok.text[:20] + "..."
        raise BadToken(tok, f"{name} {digits} is out of range: at most {COUNTER_MAX} (P-9)")
    return value


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short so that one bad token stays one short line."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _seat_entries(entries: dict[int, TokList], sqn_field: Tok | None, f: Fields, what: str) -> list[TokList]:
    """Exactly one entry per seat, in seat order (P-5, P-6, P-10).

    A missing entry is reported at the end of the SQN field, or (readable
    form, no field) at the seat's letter on the ``seats:`` line.
    """
    players = len(f.seats)
    for seat, entry in entries.items():
        if seat >= players:
            raise BadToken(entry.at, f"{what} for seat {seat}, but the seats are 0..{players - 1}")
    for seat in range(players):
        if seat not in entries:
            where = end_of(sqn_field) if sqn_field is not None else f.seats[seat]
            raise BadToken(where, f"no {what} for seat {seat}: one per seat is required")
    return [entries[seat] for seat in range(players)]


def _read_hands(f: Fields, rules: Rules) -> tuple[tuple[Hand, ...], list[Tok]]:
    """P-5 and the hand-size half of P-11.7; also returns the known cards for P-11.6."""
    hands, known_tokens = [], []
    for seat, entry in enumerate(_seat_entries(f.hands, f.hands_at, f, "hand")):
        known, unknown = _read_cards(entry, rules.deck_cards, "hand", allow_unknown=True)
        size = len(known) + unknown
        limit = rules.hand_limit(seat)  # bonus_cards (RULES-NOTES) and hand_bonus (K-1) included
        if size > limit:
            raise BadToken(
                entry.at, f"hand {seat} holds {size} cards; this variant's hand size is {limit} (P-11.7)"
            )
        known_tokens += known
        hands.append(Hand(tuple(rules.deck_cards.in_order(t.text for t in known)), unknown))
    return tuple(hands), known_tokens


def _read_discards(f: Fields, rules: Rules) -> list[list[Tok]]:
    """P-6: one pile per seat, bottom first; discards are public, so no ``?``."""
    return [
        _read_cards(entry, rules.deck_cards, "discard pile", allow_unknown=False)[0]
        for entry in _seat_entries(f.discards, f.discards_at, f, "discard pile")
    ]


def _read_cards(entry: TokList, deck: Deck, what: str, allow_unknown: bool) -> tuple[list[Tok], int]:
    """A card list: codes, ``?``/``?N`` unknowns when allowed, or a lone ``-`` for none."""
    if not entry.items:
        raise BadToken(entry.at, f"empty {what}: write - for none")
    if [t.text for t in entry.items] == ["-"]:
        return [], 0
    known, unknown = [], 0
    for tok in entry.items:
        if tok.text == "-":
            raise BadToken(tok, f"- means an empty {what} and stands alone")
        if tok.text.startswith("?"):
            if not allow_unknown:
                raise BadToken(
                    tok, f"the {what} is public: unknown cards (?) are not allowed here (P-6, D-5)"
                )
            unknown += _unknown_count(tok)
        else:
            known.append(_card(tok, deck, f"a {what}"))
    return known, unknown


def _unknown_count(tok: Tok) -> int:
    """``?`` is one unknown card, ``?N`` is N (P-5, P-15)."""
    if tok.text == "?":
        return 1
    digits = tok.text[1:]
    if not DIGITS.fullmatch(digits) or number_value(digits) < 1:
        raise BadToken(tok, f"bad unknown cards {tok.text!r}: write ? or ?N with N >= 1 (P-5)")
    return number_value(digits)


def _card(tok: Tok, deck: Deck, where: str) -> Tok:
    """A card code of this deck, canonically spelt (``10h`` -> ``TH``, C-1)."""
    if tok.text in _codes(deck):  # already canonical, as every program writes them
        return tok
    code = normalize_card(tok.text)
    try:
        deck.index(code)
    except KeyError:
        if tok.text.startswith("?"):
            raise BadToken(tok, f"unknown cards (?) are not allowed in {where}") from None
        sample = ", ".join(deck.codes[:3])
        raise BadToken(
            tok, f"{tok.text!r} is not a card of deck {deck.name} ({sample}, ..., {deck.codes[-1]})"
        ) from None
    return tok._replace(text=code)


@lru_cache(maxsize=8)
def _codes(deck: Deck) -> frozenset[str]:
    return frozenset(deck.codes)


def _read_sequences(
    f: Fields, seats: str, board: tuple[str, ...], rules: Rules
) -> tuple[tuple[str, int], ...]:
    """P-7 and P-11.3: straight five-cell windows of a seated colour, counting for it (C-24),
    and allowed by the overlap options (C-25) in the listed order."""
    done: dict[str, list[int]] = {}
    listed: list[tuple[str, int]] = []
    for tok in f.sequences:
        m = _SEQUENCE.fullmatch(tok.text)
        if not m:
            raise BadToken(tok, f"bad sequence {tok.text!r}: expected colour:end-end, e.g. b:a6-a10 (P-7)")
        colour = m.group(1).lower()
        try:
            window = parse_window(m.group(2))
        except ValueError as exc:
            raise BadToken(tok, f"{exc} (P-11.3)") from None
        if colour not in seats:
            raise BadToken(
                tok, f"sequence {window_name(window)} of {colour}, but nobody plays {colour} (P-11.3)"
            )
        for cell in windows()[window]:
            if board[cell] != CORNER and board[cell].lower() != colour:
                raise BadToken(
                    tok,
                    f"sequence {colour} {window_name(window)}: {cell_name(cell)} holds {board[cell]!r},"
                    f" which does not count for {colour} (C-24, P-11.3)",
                )
        earlier = done.setdefault(colour, [])
        if not overlap_allows(window, earlier, rules):
            raise BadToken(
                tok,
                f"sequence {colour} {window_name(window)} overlaps the earlier {colour} sequences more than"
                f" overlap_max_shared={rules.overlap_max_shared},"
                f" overlap_reuse_limit={format_value(rules.overlap_reuse_limit)} allow (C-25, P-11.3)",
            )
        earlier.append(window)
        listed.append((colour, window))
    return tuple(listed)


def _check_locks(f: Fields, sequences: tuple[tuple[str, int], ...]) -> None:
    """P-11.4: locked chips are exactly the non-corner cells of the listed sequences."""
    in_sequence = {cell: colour for colour, w in sequences for cell in windows()[w] if cell not in CORNERS}
    for cell, tok in enumerate(f.board):
        locked = tok.text.isupper()
        if locked and cell not in in_sequence:
            raise BadToken(
                tok, f"locked chip {tok.text} at {cell_name(cell)} is in no listed sequence (P-11.4)"
            )
        if not locked and cell in in_sequence:
            colour = in_sequence[cell]
            raise BadToken(
                tok,
                f"{cell_name(cell)} is in a listed {colour} sequence, so its chip must be locked:"
                f" write {colour.upper()} (P-11.4)",
            )


def _check_wins(
    f: Fields,
    sequences: tuple[tuple[str, int], ...],
    result: str | None,
    rules: Rules,
    board: tuple[str, ...],
) -> None:
    """P-11.5: only the side the result names may have ``sequences_to_win`` sequences,
    and the side it names must have won: by its sequences (the heart of D-3 counting
    two), or, when the draft ends the game (D-4), by more sequences than any other side."""
    count: Counter[str] = Counter()
    for tok, (colour, _) in zip(f.sequences, sequences, strict=True):
        count[colour] += 1
        if count[colour] == rules.sequences_to_win and colour != result:
            if result is None:
                state = "the game is still in progress"
            elif result == "draw":
                state = "the result is a draw"
            else:
                state = f"the result says {COLOUR_NAMES[result]} won"
            raise BadToken(
                tok,
                f"{COLOUR_NAMES[colour]} has {count[colour]} sequences, enough to win"
                f" (sequences_to_win={rules.sequences_to_win}), but {state} (P-11.5)",
            )
    if result not in (None, "draw") and count[result] < rules.sequences_to_win:
        heart = rules.heart_rule == "on" and all(board[c].lower() == result for c in HEART_CELLS)
        ahead = rules.deck_exhaustion == "draft_end" and all(
            count[result] > n for c, n in count.items() if c != result
        )
        if not (heart or ahead):
            raise BadToken(
                f.result,
                f"the result says {COLOUR_NAMES[result]} won, but {COLOUR_NAMES[result]} has {count[result]}"
                f" sequences of the {rules.sequences_to_win} that win (sequences_to_win) (P-11.5)",
            )


def _read_draft(f: Fields, rules: Rules) -> list[Tok] | None:
    """D-5: the face-up draft, present exactly in the draft variant, at most ``draft_size`` cards."""
    if rules.draw_mode != "draft":
        if f.draft is not None:
            raise BadToken(f.draft.at, "a draft is recorded only with draw_mode=draft (D-5)")
        return None
    if f.draft is None:
        raise BadToken(
            f.head,
            "the draft variant records its draft: add a draft:CARDS field (SQN) or a 'draft:' line (D-5)",
        )
    cards, _ = _read_cards(f.draft, rules.deck_cards, "draft", allow_unknown=False)
    if len(cards) > rules.draft_size:
        raise BadToken(f.draft.at, f"draft of {len(cards)} cards; draft_size is {rules.draft_size} (D-5)")
    return cards


def _check_copies(cards: list[Tok], deck: Deck) -> None:
    """P-11.6: no code more often than the deck holds it over all cards the file names."""
    seen: Counter[str] = Counter()
    for tok in cards:
        seen[tok.text] += 1
        if seen[tok.text] > deck.copies:
            raise BadToken(
                tok,
                f"card {tok.text} is named {seen[tok.text]} times over hands, discards, draw pile and draft;"
                f" the deck has {deck.copies} (P-11.6)",
            )


def _read_draw_count(
    f: Fields,
    hands: tuple[Hand, ...],
    discards: list[list[Tok]],
    draft: list[Tok] | None,
    draw_cards: list[Tok] | None,
    deck: Deck,
) -> int:
    """P-8, P-15 and the total of P-11.7: hands + discards + draw (+ draft) = deck size."""
    held = sum(len(h) for h in hands) + sum(len(p) for p in discards) + len(draft or ())
    what = "hands, discards and draft" if draft is not None else "hands and discards"
    if f.draw is None:  # readable form without draw: (P-15)
        if held > deck.size:
            raise BadToken(
                f.head, f"{what} hold {held} cards, more than the {deck.size} of the deck (P-11.7)"
            )
        return deck.size - held
    count = _read_counter(f.draw, "draw")
    if draw_cards is not None and len(draw_cards) != count:
        raise BadToken(f.draw, f"the draw pile has {count} cards but {len(draw_cards)} are listed (P-8)")
    if held + count != deck.size:
        raise BadToken(
            f.draw,
            f"{what} hold {held} cards and the draw pile {count}: {held + count} in all,"
            f" but the deck has {deck.size} (P-11.7)",
        )
    return count


def _optional_entries(
    entries: dict[int, TokList], sqn_field: Tok | None, f: Fields, what: str
) -> list[TokList | None]:
    """A per-seat field that may be left out: in SQN one entry per seat as for the hands;
    in the readable form a seat without a line has none (``None``)."""
    if sqn_field is not None:
        return list(_seat_entries(entries, sqn_field, f, what))
    players = len(f.seats)
    for seat, entry in entries.items():
        if seat >= players:
            raise BadToken(entry.at, f"{what} for seat {seat}, but the seats are 0..{players - 1}")
    return [entries.get(seat) for seat in range(players)]


def _read_takes(
    f: Fields, rules: Rules, hands: tuple[Hand, ...]
) -> tuple[tuple[tuple[str, ...], ...] | None, list[Tok]]:
    """P-19: each seat's draft takes not played since, cards its hand can hold; also returns
    the takes that name cards of a hand listed as unknown, for P-11.6."""
    if not f.takes:
        return None, []
    if rules.draw_mode != "draft":
        at = f.takes_at or next(iter(f.takes.values())).at
        raise BadToken(at, "takes are recorded only in the draft variant, draw_mode=draft (P-19, D-1)")
    deck = rules.deck_cards
    takes, named = [], []
    for seat, entry in enumerate(_optional_entries(f.takes, f.takes_at, f, "take list")):
        cards = [] if entry is None else _read_cards(entry, deck, "take list", allow_unknown=False)[0]
        hand = hands[seat]
        if len(cards) > len(hand):
            raise BadToken(entry.at, f"seat {seat} took {len(cards)} cards but holds {len(hand)} (P-19)")
        known = Counter(hand.known)
        beyond = []
        for tok in cards:
            if known[tok.text] > 0:
                known[tok.text] -= 1
            else:
                beyond.append(tok)
        if len(beyond) > hand.unknown:
            raise BadToken(
                beyond[hand.unknown],
                f"seat {seat} took {beyond[hand.unknown].text}, which its hand does not hold (P-19)",
            )
        named += beyond
        takes.append(tuple(deck.in_order(t.text for t in cards)))
    return (tuple(takes) if any(takes) else None), named


def _read_last_turns(
    f: Fields,
    rules: Rules,
    board: tuple[str, ...],
    discards: list[list[Tok]],
    to_move: int | None,
    exchange_used: bool,
) -> tuple[tuple[str, ...], ...] | None:
    """P-20: each seat's last turn, exchanges then one play, each card on top of its pile."""
    if not f.last:
        return None
    turns = []
    for seat, entry in enumerate(_optional_entries(f.last, f.last_at, f, "last turn")):
        if entry is None or [t.text for t in entry.items] == ["-"]:
            turns.append(())
            continue
        if not entry.items:
            raise BadToken(entry.at, "empty last turn: write - when it is not known (P-20)")
        moves = _last_turn_moves(entry, rules, board)
        # the seat to move after its exchange (P-16) has this turn's exchanges on top
        ongoing = seat == to_move and exchange_used
        _check_last_turn_pile(entry, moves, discards[seat], ongoing, rules, seat)
        if (
            to_move is not None
            and seat == (to_move - 1) % len(f.seats)
            and moves[-1].kind is not MoveKind.PASS
        ):
            _check_last_play_board(entry.items[-1], moves[-1], board, f.seats[seat].text)
        turns.append(tuple(str(m) for m in moves))
    return tuple(turns) if any(turns) else None


def _last_turn_moves(entry: TokList, rules: Rules, board: tuple[str, ...]) -> list[Move]:
    """The actions of a turn (P-12), exchanges first and one play last, each one that
    could have been played on this layout; declarations, drawn cards and takes are left
    out (the board, the hands and P-19 hold them)."""
    deck = rules.deck_cards
    moves = []
    for i, tok in enumerate(entry.items):
        try:
            move = Move.from_str(tok.text)
        except MoveSyntaxError:
            raise BadToken(
                tok,
                f"bad action {tok.text!r} in a last turn: expected 5H@e5, JSxe5, ~5S or pass (P-12, P-20)",
            ) from None
        last = i == len(entry.items) - 1
        if (move.kind is MoveKind.EXCHANGE) == last:
            what = "ends with its play" if last else "has one play, after its exchanges"
            raise BadToken(tok, f"a last turn {what}: {tok.text!r} (P-20)")
        if move.declare is not None or move.drawn is not None or move.pick is not None:
            raise BadToken(
                tok, f"a last turn names the actions alone, without =, > or + (P-20): {tok.text!r}"
            )
        if move.card is not None:
            _card(tok._replace(text=move.card), deck, "a last turn")
            kind = deck.kind(move.card)
            where = "" if move.cell is None else cell_name(move.cell)
            if move.kind is MoveKind.REMOVE and kind != CardKind.REMOVE:
                raise BadToken(tok, f"only a one-eyed jack removes a chip, not {move.card} (C-15, P-20)")
            if move.kind is MoveKind.PLACE and kind == CardKind.REMOVE:
                raise BadToken(tok, f"{move.card} removes a chip: {move.card}x{where} (C-15, P-20)")
            if move.cell is not None and move.cell in CORNERS:
                raise BadToken(tok, f"{where} is a corner, never played on (C-23, P-20)")
            if (
                move.kind is MoveKind.PLACE
                and kind == CardKind.NORMAL
                and move.cell not in rules.layout.cells_of(move.card)
            ):
                raise BadToken(
                    tok,
                    f"{move.card} is played on {', '.join(map(cell_name, rules.layout.cells_of(move.card)))}, not {where} (P-20)",
                )
            if move.kind is MoveKind.EXCHANGE and kind != CardKind.NORMAL:
                raise BadToken(tok, f"a jack is never dead, so never exchanged: {tok.text!r} (C-19a, P-20)")
        moves.append(move)
    limit = rules.dead_card_exchanges_per_turn
    if 0 <= limit < len(moves) - 1:
        raise BadToken(
            entry.items[limit],
            f"{len(moves) - 1} exchanges in one turn; this variant allows {limit} (C-14, P-20)",
        )
    return moves


def _check_last_turn_pile(
    entry: TokList, moves: list[Move], pile: list[Tok], ongoing: bool, rules: Rules, seat: int
) -> None:
    """The cards of a last turn end the seat's discard pile (below this turn's exchanges
    when ``ongoing``), or, when a reshuffle took them since, its pile holds only the newest
    of them."""
    cards = [m.card for m in moves if m.card is not None]
    if not cards:
        return
    texts = [t.text for t in pile]
    limit = rules.dead_card_exchanges_per_turn
    tops = range(1, min(len(texts), limit if limit >= 0 else len(texts)) + 1) if ongoing else (0,)
    for above in tops:
        below = texts[: len(texts) - above]
        if below[-len(cards) :] == cards or (
            len(below) < len(cards) and below == cards[len(cards) - len(below) :]
        ):
            return
    raise BadToken(
        entry.at,
        f"seat {seat}'s last turn discarded {' '.join(cards)}, which must end its discard pile"
        + (" below this turn's exchange" if ongoing else "")
        + " (P-6, P-20)",
    )


def _check_last_play_board(tok: Tok, move: Move, board: tuple[str, ...], colour: str) -> None:
    """The turn just played is on the board: its chip is there, or its removal left the cell empty."""
    token = board[move.cell]
    where = cell_name(move.cell)
    if move.kind is MoveKind.PLACE and token.lower() != colour:
        raise BadToken(
            tok,
            f"the turn just played put a {colour} chip on {where}, but the board has {token!r} there (P-20)",
        )
    if move.kind is MoveKind.REMOVE and token != ".":
        raise BadToken(
            tok, f"the turn just played removed the chip on {where}, but the board has {token!r} there (P-20)"
        )
