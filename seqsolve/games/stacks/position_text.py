"""Stacks position files (docs/stacks.md, "Position files"): the one-line STN form and
the readable form, read through every check of the doc's "Validation" section and
written canonically, so that both convert into each other without loss.

Reading is done in two steps, as classic's (:mod:`seqsolve.games.sequence.notation`):
:mod:`.position_syntax` cuts the text into located tokens, and here they become a
:class:`StacksPosition`; a rejection is classic's :class:`PositionError`, naming the
source, line and column of the text at fault.

>>> pos = parse("stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0")
>>> pos.unknown, pos.piles[1], pos.draw_count
([0, 5], [<Card.R1: 6>], 91)
>>> to_stn(parse(to_readable(pos)))
'stacks 0> B4,BW,R2,SK,BK/?5 R5/B2 - B1+B2+B3,R1 0b1r/0b0r 0/0 5 91 6 0'
"""

from __future__ import annotations

from collections import Counter

from ..base import PositionError, RulesError
from ..position_syntax import (
    COUNTER_MAX,
    DIGITS,
    HEADER,
    BadToken,
    Tok,
    end_of,
    number_value,
    position_error,
    token_after,
)
from .actions import action_to_text, text_to_action
from .cards import ACTION_CARDS, COLOUR_LETTERS, PILE_CARDS, Card, card_code, colour, parse_card, value
from .position import StacksPosition
from .position_syntax import GOING_KEYS, StacksFields, parse_fields
from .rules import OPTION_NAMES, StacksRules, make_rules, parse_overrides

__all__ = ["PositionError", "parse", "to_readable", "to_stn"]

#: the most of one thing a seat holds that a file may say (chips, skip tokens, unknown cards)
MAX_SMALL = 999
FULL_PILE = 5


def parse(text: str, source: str = "<string>") -> StacksPosition:
    """Read a Stacks position in either form.

    Args:
        text: the file's contents; a first meaningful line ``seqsolve-position 1``
            starts the readable form, anything else is an STN line.
        source: the name used in error messages.

    Raises:
        PositionError: on a grammar error or a failed check, with line and column.
    """
    try:
        return _build(parse_fields(text))
    except BadToken as bad:
        raise position_error(bad, source) from None


# ---------------------------------------------------------------------------
# Checking located fields into a position


def _build(f: StacksFields) -> StacksPosition:
    players = _players(f)
    rules = _rules(f, players)
    to_move, block_asked, result = _turn_state(f, players)
    hands = [_hand(f.hands[s]) for s in range(players)]
    discards = [[_card(t) for t in f.discards[s]] for s in range(players)]
    special = [_special_card(t) for t in f.special]
    piles = _piles(f, rules, block_asked)
    chips = _chips(f, rules, result)
    aside_count, aside_cards = _listed_pile(f.aside, f.aside_cards, "aside", f)
    draw_count, draw_cards = _listed_pile(f.draw, f.draw_cards, "draw", f)
    _check_deck(f, rules, hands, aside_count, draw_count)
    going = result is None
    turn, quiet = _count(f.turn, "turn", COUNTER_MAX), _count(f.quiet, "quiet", COUNTER_MAX)
    if going:
        _check_counters(f, rules, turn, quiet)
        _check_direction(f, rules, special)
    return StacksPosition(
        rules=rules,
        to_move=to_move,
        direction=_direction(f.direction) if going else 1,
        progress=going and _flag(f.progress, "progress", "p"),
        refilled=going and _flag(f.refilled, "refilled", "r"),
        block_asked=block_asked,
        result=result,
        hands=[sorted(known) for known, _ in hands],
        unknown=[unknown for _, unknown in hands],
        discards=discards,
        special=sorted(special),
        piles=piles,
        chips=chips,
        skips=[_count(f.skips.get(s), "skip tokens", MAX_SMALL) for s in range(players)],
        aside_count=aside_count,
        aside_cards=None if aside_cards is None else sorted(aside_cards),
        draw_count=draw_count,
        draw_cards=draw_cards,
        turn=turn,
        quiet=quiet,
        last_decision=_last(f.last, players),
    )


def _last(tok: Tok | None, players: int) -> tuple[int, int] | None:
    """The readable form's ``last: SEAT DECISION`` (``-``: not known), the decision that
    made the position: a note for pictures, not checked against the position."""
    if tok is None or tok.text == "-":
        return None
    words = tok.text.split()
    if len(words) != 2:
        raise BadToken(tok, f"last takes a seat and a decision (e.g. 0 B3), or -, not {tok.text!r}")
    seat = _seat(tok._replace(text=words[0]), players, "last seat")
    try:
        action = text_to_action(words[1])
    except ValueError as exc:
        at = token_after(tok, tok.text.index(words[1], len(words[0])))._replace(text=words[1])
        raise BadToken(at, str(exc)) from None
    return seat, action


def _check_counters(f: StacksFields, rules: StacksRules, turn: int, quiet: int) -> None:
    """ST-22 in a game going on: ``quiet`` counts some of the completed turns, and the
    turn that completes the ``max_turns``-th ends the game."""
    if quiet > turn:
        raise BadToken(
            f.quiet or f.head,
            f"quiet {quiet} is more than turn {turn}: quiet turns are completed turns (ST-22)",
        )
    if turn >= rules.max_turns:
        raise BadToken(
            f.turn or f.head,
            f"turn {turn}, but the game ended in a draw after max_turns={rules.max_turns} completed turns (ST-22)",
        )


def _check_direction(f: StacksFields, rules: StacksRules, special: list[int]) -> None:
    """ST-17: every Reverse played stays in the special pile and flipped the direction
    once, so the direction is what their count makes it."""
    reverses = special.count(Card.RV)
    backward = _direction(f.direction) == -1
    if backward == (reverses % 2 == 1):
        return
    at = f.direction or f.head
    if not rules.deck[Card.RV]:
        raise BadToken(
            at, f"direction reverse, but the deck of {rules.players} players has no Reverse (ST-3, ST-17)"
        )
    if backward:
        raise BadToken(
            at,
            f"direction reverse, but the special pile holds {reverses} Reverse: an even number leaves play forward (ST-17)",
        )
    raise BadToken(
        at,
        f"direction forward, but the special pile holds {reverses} Reverse: an odd number turns play backward (ST-17)",
    )


def _readable(f: StacksFields) -> bool:
    return f.head.text.lower() == "seqsolve-position"


def _players(f: StacksFields) -> int:
    """ST-1: one hand per seat, 2 to 6; the seat entries agree with the hands."""
    players = len(f.hands)
    if not 2 <= players <= 6:
        at = f.hands_at[max(f.hands_at)] if f.hands_at else f.head
        raise BadToken(at, f"{players} hands: Sequence Stacks is for 2 to 6 players (ST-1)")
    entries = (
        ("hand", f.hands, f.hands_at),
        ("discard", f.discards, f.discards_at),
        ("chips", f.chips, f.chips),
        ("skips", f.skips, f.skips),
    )
    for name, entry, where in entries:
        for seat in sorted(entry):
            if seat >= players:
                at = where[seat][0] if name == "chips" else where[seat]
                raise BadToken(
                    at, f"{name} entry for seat {seat}, but the {players} hands give seats 0-{players - 1}"
                )
        missing = [s for s in range(players) if s not in entry]
        if missing and not (name == "skips" and _readable(f)):
            if _readable(f):
                raise BadToken(f.head, f"missing '{name} {missing[0]}:' line (one per seat)")
            last = where[max(entry)] if entry else f.head
            last = last[0] if name == "chips" else last
            raise BadToken(
                end_of(last), f"{len(entry)} {name} entries for {players} hands: one per seat, /-separated"
            )
    return players


def _rules(f: StacksFields, players: int) -> StacksRules:
    """The variant (and the readable ``options:`` line), for the hands' player count."""
    assert f.variant is not None
    try:
        fields = parse_overrides(f.variant.text)
    except RulesError as exc:
        raise BadToken(f.variant, f"bad variant: {exc}") from None
    for tok in f.options:
        try:
            option = parse_overrides(f"stacks[{tok.text}]")
        except RulesError as exc:
            raise BadToken(tok, f"bad option: {exc}") from None
        if option.keys() & fields.keys():
            raise BadToken(tok, f"option {OPTION_NAMES[next(iter(option))]} is set twice")
        fields.update(option)
    try:
        return make_rules(StacksRules(players=players, **fields).variant, players)
    except RulesError as exc:
        raise BadToken(f.variant, str(exc)) from None


def _turn_state(f: StacksFields, players: int) -> tuple[int | None, int | None, int | str | None]:
    """to-move, the asked seat and the result; a finished game has no mover."""
    if f.result is not None:
        for key in GOING_KEYS:
            tok = getattr(f, key.replace("-", "_"))
            if tok is not None:
                raise BadToken(tok, f"a finished game has no {key} (result {f.result.text})")
        if f.result.text == "draw":
            return None, None, "draw"
        return None, None, _seat(f.result, players, "winner")
    if f.to_move is None:
        raise BadToken(f.head, "missing 'to-move:' line (required unless result is given)")
    to_move = _seat(f.to_move, players, "to-move")
    asked = f.block_asked
    if asked is None or asked.text == "-":
        return to_move, None, None
    block_asked = _seat(asked, players, "block-asked")
    if block_asked == to_move:
        raise BadToken(
            asked, f"seat {to_move} completed the pile: only an opponent is asked to block it (ST-15)"
        )
    return to_move, block_asked, None


def _seat(tok: Tok, players: int, what: str) -> int:
    if not DIGITS.fullmatch(tok.text) or number_value(tok.text) >= players:
        raise BadToken(tok, f"bad {what} {tok.text!r}: a seat is 0 to {players - 1}")
    return number_value(tok.text)


def _direction(tok: Tok | None) -> int:
    words = {">": 1, "<": -1, "forward": 1, "reverse": -1}
    if tok is None:
        return 1
    if tok.text.lower() not in words:
        raise BadToken(tok, f"direction takes forward or reverse, not {tok.text!r}")
    return words[tok.text.lower()]


def _flag(tok: Tok | None, name: str, letter: str) -> bool:
    """A flag of the to-move field (its letter in STN, yes or no in the readable form)."""
    words = {letter: True, "yes": True, "no": False}
    if tok is None:
        return False
    if tok.text.lower() not in words:
        raise BadToken(tok, f"{name} takes yes or no, not {tok.text!r}")
    return words[tok.text.lower()]


def _count(tok: Tok | None, what: str, maximum: int) -> int:
    """A whole number 0..maximum; one the readable form leaves out is 0."""
    if tok is None:
        return 0
    if not DIGITS.fullmatch(tok.text):
        raise BadToken(tok, f"{what} must be a whole number >= 0, not {tok.text[:20]!r}")
    if number_value(tok.text) > maximum:
        raise BadToken(tok, f"{what} {tok.text[:20]} is out of range: at most {maximum}")
    return number_value(tok.text)


def _card(tok: Tok) -> Card:
    try:
        return parse_card(tok.text)
    except ValueError as exc:
        raise BadToken(tok, str(exc)) from None


def _hand(items: list[Tok]) -> tuple[list[int], int]:
    """Known cards and how many unknown ones: ``?`` is one, ``?N`` is N."""
    known, unknown = [], 0
    for tok in items:
        if tok.text.startswith("?"):
            unknown += (
                1
                if tok.text == "?"
                else _count(tok._replace(text=tok.text[1:], col=tok.col + 1), "unknown cards", MAX_SMALL)
            )
        else:
            known.append(_card(tok))
    return known, unknown


def _special_card(tok: Tok) -> Card:
    card = _card(tok)
    if card not in ACTION_CARDS:
        raise BadToken(
            tok, f"{card.name} is not an action card: the special pile holds only played action cards (ST-5)"
        )
    return card


def _piles(f: StacksFields, rules: StacksRules, block_asked: int | None) -> list[list[int]]:
    """ST-7, ST-8: each pile one colour, 1, 2, ... in order, wilds for any value; 5 cards
    only for the pile a Block window is open on; at most the option's piles a colour."""
    piles, full = [], 0
    per_colour = Counter()
    for whole, toks in f.piles:
        cards = [_card(t) for t in toks]
        for tok, card in zip(toks, cards):
            if card not in PILE_CARDS:
                raise BadToken(
                    tok, f"{card.name} is an action card: sequence piles hold number and wild cards (ST-8)"
                )
        if len(cards) > FULL_PILE:
            raise BadToken(toks[FULL_PILE], f"a pile of {len(cards)} cards: a pile is complete at 5 (ST-9)")
        pile_colour = colour(cards[0])
        for place, (tok, card) in enumerate(zip(toks, cards), 1):
            if colour(card) != pile_colour:
                raise BadToken(
                    tok, f"{card.name} on a {COLOUR_LETTERS[pile_colour]} pile: a pile is one colour (ST-8)"
                )
            if value(card) not in (0, place):
                raise BadToken(
                    tok, f"{card.name} as card {place} of a pile: card {place} is a {place} or a wild (ST-8)"
                )
        if len(cards) == FULL_PILE:
            full += 1
            if block_asked is None or full > 1:
                raise BadToken(
                    whole,
                    "a pile of 5 cards stands only while a Block window is open on it (to-move ...k<seat>, ST-15)",
                )
        per_colour[pile_colour] += 1
        if per_colour[pile_colour] > rules.max_piles_per_colour:
            raise BadToken(
                whole,
                f"more than {rules.max_piles_per_colour} piles of one colour (ST-7, stacks_max_piles_per_colour)",
            )
        piles.append(cards)
    if block_asked is not None and not full:
        assert f.block_asked is not None
        raise BadToken(
            f.block_asked, "k names a seat asked to block a completion, but no pile holds 5 cards (ST-15)"
        )
    return piles


def _chips(f: StacksFields, rules: StacksRules, result: int | str | None) -> list[tuple[int, int]]:
    """ST-4: no more chips of a colour than the supply; ST-21: the winner holds a win and
    nobody else does (the first win ends the game), nobody in a game going on or drawn."""
    chips, held = [], [0, 0]
    for seat in range(rules.players):
        entry, blue_tok, red_tok = f.chips[seat]
        pair = (_count(blue_tok, "blue chips", MAX_SMALL), _count(red_tok, "red chips", MAX_SMALL))
        for c in (0, 1):
            held[c] += pair[c]
            if held[c] > rules.chip_supply:
                raise BadToken(
                    entry, f"more {('blue', 'red')[c]} chips than the supply of {rules.chip_supply} (ST-4)"
                )
        if result != seat and rules.meets_win(*pair):
            raise BadToken(
                entry, f"seat {seat} holds {pair[0]}b{pair[1]}r and has won (ST-21), but {_ended(result)}"
            )
        if result == seat and not rules.meets_win(*pair):
            raise BadToken(
                entry,
                f"seat {seat} won, but holds {pair[0]}b{pair[1]}r: a win is {rules.win_chips} chips,"
                f" at least {rules.win_min_each} of each colour (ST-21)",
            )
        chips.append(pair)
    return chips


def _ended(result: int | str | None) -> str:
    """How the game ended, for a seat holding a win it did not get."""
    if result is None:
        return "the game is going on"
    return (
        "the game ended in a draw"
        if result == "draw"
        else f"seat {result} won: the first to win ends the game"
    )


def _listed_pile(
    count_tok: Tok | None, listed: list[Tok] | None, name: str, f: StacksFields
) -> tuple[int, list[int] | None]:
    """The count and, if listed, the cards of the draw pile or the set-aside stack;
    an empty one is listed (nothing in it is unknown)."""
    if count_tok is None:
        raise BadToken(f.head, f"missing '{name}:' line (the number of cards)")
    count = _count(count_tok, f"{name} count", COUNTER_MAX)
    cards = None if listed is None else [_card(t) for t in listed]
    if cards is not None and len(cards) != count:
        raise BadToken(count_tok, f"{name} count {count} but {len(cards)} cards listed")
    return count, [] if count == 0 else cards


def _check_deck(
    f: StacksFields, rules: StacksRules, hands: list[tuple[list[int], int]], aside: int, draw: int
) -> None:
    """ST-2, ST-3: no card more often than the deck holds it, and every card somewhere."""
    deck = rules.deck
    known = [t for s in range(rules.players) for t in f.hands[s] if not t.text.startswith("?")]
    known += [t for s in range(rules.players) for t in f.discards[s]] + f.special
    known += [t for _, toks in f.piles for t in toks] + (f.aside_cards or []) + (f.draw_cards or [])
    seen: Counter[int] = Counter()
    for tok in known:
        card = _card(tok)
        seen[card] += 1
        if seen[card] > deck[card]:
            raise BadToken(
                tok,
                f"{card.name} is named {seen[card]} times; the deck of {rules.players} players has {deck[card]} (ST-2, ST-3)",
            )
    in_hands = sum(len(k) + u for k, u in hands)
    listed = (
        in_hands
        + sum(len(f.discards[s]) for s in range(rules.players))
        + len(f.special)
        + sum(len(t) for _, t in f.piles)
    )
    total = listed + aside + draw
    if total != sum(deck):
        assert f.draw is not None
        raise BadToken(
            f.draw,
            f"the position holds {total} cards ({listed} in hands, discards and piles, {aside} set aside, {draw} to draw); the deck has {sum(deck)} (ST-2, ST-3)",
        )


# ---------------------------------------------------------------------------
# Writing (canonical forms)


def _codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]


def _hand_items(pos: StacksPosition, seat: int) -> list[str]:
    """Known cards in kind order, then the unknown ones as one ``?N``."""
    items = _codes(sorted(pos.hands[seat]))
    return items + [f"?{pos.unknown[seat]}"] if pos.unknown[seat] else items


def _to_move_text(pos: StacksPosition) -> str:
    if pos.result is not None:
        return "!=" if pos.result == "draw" else f"!{pos.result}"
    asked = "" if pos.block_asked is None else f"k{pos.block_asked}"
    flags = ("p" if pos.progress else "") + ("r" if pos.refilled else "")
    return f"{pos.to_move}{'>' if pos.direction == 1 else '<'}{flags}{asked}"


def _counted(count: int, cards: list[int] | None, sep: str, between: str) -> str:
    return str(count) if not count or cards is None else f"{count}{sep}{between.join(_codes(cards))}"


def to_stn(pos: StacksPosition) -> str:
    """The canonical STN line of ``pos``, without a newline."""
    n = pos.players
    fields = [
        pos.rules.variant,
        _to_move_text(pos),
        "/".join(",".join(_hand_items(pos, s)) or "-" for s in range(n)),
        "/".join(",".join(_codes(d)) or "-" for d in pos.discards),
        ",".join(_codes(sorted(pos.special))) or "-",
        ",".join("+".join(_codes(p)) for p in pos.piles) or "-",
        "/".join(f"{b}b{r}r" for b, r in pos.chips),
        "/".join(map(str, pos.skips)),
        _counted(pos.aside_count, None if pos.aside_cards is None else sorted(pos.aside_cards), ":", ","),
        _counted(pos.draw_count, pos.draw_cards, ":", ","),
        str(pos.turn),
        str(pos.quiet),
    ]
    return " ".join(fields)


def to_readable(pos: StacksPosition) -> str:
    """The canonical readable form of ``pos``, laid out as docs/stacks.md's example;
    a finished game gives its result instead of the mover's lines.  Ends with a newline."""
    n = pos.players
    overrides = pos.rules.variant.partition("[")[2].rstrip("]")
    lines = [HEADER, "variant: stacks"] + (
        [f"options: {', '.join(overrides.split(','))}"] if overrides else []
    )
    if pos.result is None:
        lines += [
            f"to-move: {pos.to_move}",
            f"direction: {'forward' if pos.direction == 1 else 'reverse'}",
            f"progress: {'yes' if pos.progress else 'no'}",
            f"refilled: {'yes' if pos.refilled else 'no'}",
            f"block-asked: {'-' if pos.block_asked is None else pos.block_asked}",
            "result: *",
        ]
    else:
        lines.append(f"result: {pos.result}")
    lines += [f"turn: {pos.turn}", f"quiet: {pos.quiet}"]
    if pos.last_decision is not None:
        seat, action = pos.last_decision
        lines.append(f"last: {seat} {action_to_text(action)}")
    lines += [f"hand {s}: {' '.join(_hand_items(pos, s)) or '-'}" for s in range(n)]
    lines += [f"discard {s}: {' '.join(_codes(d)) or '-'}" for s, d in enumerate(pos.discards)]
    lines.append(f"special: {' '.join(_codes(sorted(pos.special))) or '-'}")
    lines += [f"pile: {' '.join(_codes(p))}" for p in pos.piles]
    lines += [f"chips {s}: {b} {r}" for s, (b, r) in enumerate(pos.chips)]
    lines += [f"skips {s}: {k}" for s, k in enumerate(pos.skips)]
    lines.append(
        f"aside: {_counted(pos.aside_count, None if pos.aside_cards is None else sorted(pos.aside_cards), ' : ', ' ')}"
    )
    lines.append(f"draw: {_counted(pos.draw_count, pos.draw_cards, ' : ', ' ')}")
    return "\n".join(lines) + "\n"
