"""Sequence's threats and exact answers for ``analyze`` (the game's
:meth:`~seqsolve.games.sequence.game.SequenceGame.tactics`), found by trying moves
rather than by search: cells that win at once, the cards that fill them and who may
hold them, dead cards, and the chance an exchange's replacement wins (plain Python
on the position's tokens)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from math import comb

from .actions import ActionKind, decode_action
from .board import CORNERS, cell_name, parse_cell, window_name, windows
from .cards import CardKind
from .position import COLOUR_NAMES, CORNER, EMPTY
from .sequences import HEART_CELLS, new_sequences, overlap_allows


class SequenceTactics:
    """The :class:`~seqsolve.games.base.Tactics` of one view: what the analyst sees
    (an observation, or the full state for an open analysis)."""

    def __init__(self, view, open_information: bool):
        self.view = view
        self.open_information = open_information

    def opponent_wins(self, state, side: int) -> list[dict]:
        """The cells where a side other than ``side`` wins by its next placement (see
        :func:`immediate_wins`)."""
        found = []
        for other in range(state.rules.teams):
            if other != side:
                found.extend(immediate_wins(state, other, self.open_information))
        return found

    def replacement_wins(self, action: int, side: int) -> float:
        return replacement_wins(self.view, action, side, self.open_information)

    @staticmethod
    def is_pass(action: int) -> bool:
        return decode_action(action)[0] == ActionKind.PASS

    @staticmethod
    def is_known_play(state, action: int) -> bool:
        """A play whose cards are all known (in an observation of the draft variant, a play
        may take a draft card refilled from the unknown pile: such actions are skipped)."""
        try:
            return state.action_to_move(action).is_play
        except IndexError:
            return False

    def summary(self) -> list[SideThreats]:
        return threat_summary(self.view)

    @staticmethod
    def holding_features(after, side: int) -> list[dict]:
        return holding_features(after, side)

    def holding_chance(self, seats, cards) -> float | None:
        return holding_chance(self.view, seats, cards)

    def winning_draws(self, after, turn: tuple[int, ...], side: int) -> dict | None:
        return winning_draws(self.view, after, turn, side)

    @staticmethod
    def describe(threat: dict) -> str:
        """One entry of :meth:`opponent_wins` in words."""
        maybe = "possible" if threat["possible"] else "impossible: no copy left for it"
        return f"{COLOUR_NAMES[threat['side']]} on {threat['cell']} with {threat['card']} or a wild card ({maybe})"


@dataclass
class SideThreats:
    """The threat summary of one side (see :func:`threat_summary`)."""

    colour: str
    seats: list[int]
    sequences: list[str]
    count: int
    needed: int
    one_away: list[dict]
    two_away: list[dict]
    cells: dict[str, dict]
    wild: dict
    dead_cards: dict[int, list[str]]

    def to_dict(self) -> dict:
        """The fields as JSON: the colour as ``side``, seats as text keys of ``dead_cards``."""
        data = {"side": self.colour, **asdict(self)}
        del data["colour"]
        data["dead_cards"] = {str(s): cards for s, cards in self.dead_cards.items()}
        return data

    def lines(self, limit: int = 6) -> list[str]:
        """The side's threats as lines of ``analyze``'s report (at most ``limit`` windows a kind)."""
        name = COLOUR_NAMES[self.colour]
        seqs = f" ({', '.join(self.sequences)})" if self.sequences else ""
        lines = [
            f"  {name:<6} {self.count}/{self.needed} sequences{seqs}; seats {', '.join(map(str, self.seats))}"
        ]
        for entries, label in ((self.one_away, "one away"), (self.two_away, "two away")):
            lines.append(f"         {label}: {_window_list(entries, limit)}")
        needed = [c for e in self.one_away for c in e["cells"]]
        if needed:
            cells = sorted(set(needed), key=needed.index)
            notes = [f"{c} {self.cells[c]['card']} ({_cards_note(self.cells[c])})" for c in cells]
            lines.append("         cards:    " + "; ".join(notes))
        if self.one_away or self.two_away:
            lines.append(f"         wild:     {' '.join(self.wild['cards'])} ({_cards_note(self.wild)})")
        for seat, cards in self.dead_cards.items():
            lines.append(f"         dead cards in seat {seat}'s hand: {' '.join(cards)}")
        return lines


def _window_list(entries: list[dict], limit: int) -> str:
    if not entries:
        return "-"
    shown = []
    for e in entries[:limit]:
        wins = ", wins" if e.get("wins") else ""
        shown.append(f"{e['window']} needs {' '.join(e['cells'])}{wins}")
    more = f"; … {len(entries) - limit} more" if len(entries) > limit else ""
    return f"{len(entries)}: " + "; ".join(shown) + more


def _cards_note(info: dict) -> str:
    parts = []
    if info["holders"]:
        parts.append("held by seat " + ", ".join(map(str, info["holders"])))
    parts.append(f"{info['unseen']} unseen")
    if info.get("draft"):
        parts.append(f"{info['draft']} in the draft")
    if not info["live"]:
        parts.append("not live")
    return ", ".join(parts)


def _board(state) -> list[str]:
    """The 100 P-2 tokens of the state's board."""
    board = [EMPTY] * 100
    for c in CORNERS:
        board[c] = CORNER
    locked = set(state.locked_cells())
    for side, colour in enumerate(state.sides):
        for cell in state.chips(side):
            board[cell] = colour.upper() if cell in locked else colour
    return board


def _completed(state, colour: str) -> list[int]:
    return [w for c, w in state.sequences() if c == colour]


def _gain(state, board: list[str], side: int, cell: int) -> int:
    """The side's sequence total if it placed a chip on the empty ``cell`` (C-26, D-3)."""
    rules = state.rules
    colour = state.sides[side]
    completed = _completed(state, colour)
    after = list(board)
    after[cell] = colour
    total = state.sequence_count(side) + len(new_sequences(after, colour, cell, completed, rules))
    if rules.heart_rule == "on" and cell in HEART_CELLS:
        before = all(board[c].lower() == colour for c in HEART_CELLS)
        if not before and all(after[c].lower() == colour for c in HEART_CELLS):
            total += 2
    return total


def _near_windows(state, board: list[str], colour: str, missing: int) -> list[tuple[int, list[int]]]:
    """Windows that ``missing`` placements of ``colour`` would complete into an eligible
    sequence: no opposing chip, exactly ``missing`` empty cells, not yet a sequence of that
    side, and allowed by the overlap options (C-25)."""
    completed = _completed(state, colour)
    found = []
    for w, cells in enumerate(windows()):
        empty = []
        for c in cells:
            token = board[c]
            if token == EMPTY:
                empty.append(c)
            elif token != CORNER and token.lower() != colour:
                break
        else:
            if len(empty) == missing and w not in completed and overlap_allows(w, completed, state.rules):
                found.append((w, empty))
    return found


class _Cards:
    """Where the analyst knows each card to be, and how many copies it does not see."""

    def __init__(self, state):
        rules = state.rules
        deck = rules.deck_cards
        self.deck = deck
        self.codes = deck.codes
        self.hands = {}
        known = Counter()
        for seat in range(rules.players):
            cards = state.known_hand(seat)
            self.hands[seat] = Counter(cards)
            known.update(cards)
        known.update(c for _, c in state.discarded())
        self.draft = Counter(state.draft_cards())
        known.update(self.draft)
        total = Counter(deck.index(c) for c in deck.cards())
        self.unseen = {c: max(0, total[c] - known[c]) for c in total}
        self.wild = [deck.index(c) for c in deck.codes if deck.kind(c) == CardKind.WILD]
        self.players = rules.players
        self.teams = rules.teams
        self.draft_mode = rules.draw_mode == "draft"

    def odds(self, codes: Iterable[int], side: int) -> dict:
        """For the cards ``codes`` (together): seats of ``side`` known to hold one, copies
        unseen, and whether one is live for that side."""
        codes = list(codes)
        holders = sorted(
            s for s in range(side, self.players, self.teams) if any(self.hands[s][c] for c in codes)
        )
        unseen = sum(self.unseen[c] for c in codes)
        out = {"holders": holders, "unseen": unseen}
        live = bool(holders) or unseen > 0
        if self.draft_mode:
            out["draft"] = sum(self.draft[c] for c in codes)
            live = live or out["draft"] > 0
        out["live"] = live
        return out

    def possible(self, codes: Iterable[int], side: int, open_information: bool) -> bool:
        """May ``side`` hold one of ``codes`` on its next turn?"""
        codes = list(codes)
        seats = range(side, self.players, self.teams)
        if any(self.hands[s][c] for s in seats for c in codes):
            return True
        if open_information:
            return False
        return sum(self.unseen[c] for c in codes) > 0


def _cell_codes(state, cell: int) -> list[int]:
    """The normal card shown on ``cell`` (as a core code)."""
    label = state.rules.layout.labels[cell]
    return [state.rules.deck_cards.index(label)]


def dead_cards(state, seat: int) -> list[str]:
    """The known cards of ``seat`` that are dead (both cells occupied, C-20)."""
    rules, deck = state.rules, state.rules.deck_cards
    board = _board(state)
    out = []
    for card in state.hand(seat):
        if card == "?" or deck.kind(card) != CardKind.NORMAL:
            continue
        if all(board[c] != EMPTY for c in rules.layout.cells_of(card)):
            out.append(card)
    return out


def threat_summary(state, viewer: int | None = None) -> list[SideThreats]:
    """Per side: sequences, windows one and two cells from completion, their cards, dead cards.

    ``state`` is what the analyst sees (an observation, or the full state for an open
    analysis); ``viewer`` is not needed beyond that, since unknown cards are unknown.
    A window counts when it holds no opposing chip, is not already a sequence of
    the side, and the overlap options would let it join the side's sequences.  For
    each missing cell the entry ``cells[name]`` gives its card with ``holders``
    (seats of that side known to hold it), ``unseen`` (copies in hidden hands or the
    draw pile) and ``live``; ``wild`` gives the same for the wild cards (two-eyed
    jacks, Numbers' Plus), which complete any cell.

    >>> from importlib import resources
    >>> from seqsolve.games.sequence.game import SEQUENCE
    >>> text = resources.files("seqsolve").joinpath("data", "example2.sqn").read_text()
    >>> s = SEQUENCE.read_position(text).observation(1)
    >>> [(t.colour, t.count, t.needed) for t in threat_summary(s)]
    [('b', 1, 2), ('g', 0, 2)]
    """
    rules = state.rules
    board = _board(state)
    cards = _Cards(state)
    out = []
    for side, colour in enumerate(state.sides):
        seats = list(range(side, rules.players, rules.teams))
        total = state.sequence_count(side)
        ones, twos, cell_info = [], [], {}
        for missing, bucket in ((1, ones), (2, twos)):
            for w, empty in _near_windows(state, board, colour, missing):
                entry = {"window": window_name(w), "cells": [cell_name(c) for c in empty]}
                if missing == 1:
                    entry["wins"] = _gain(state, board, side, empty[0]) >= rules.sequences_to_win
                bucket.append(entry)
                for c in empty:
                    name = cell_name(c)
                    if name not in cell_info:
                        codes = _cell_codes(state, c)
                        info = {"card": cards.codes[codes[0]], **cards.odds(codes, side)}
                        cell_info[name] = info
        dead = {s: dead_cards(state, s) for s in seats if "?" not in state.hand(s) and state.hand(s)}
        wild = {"cards": [cards.codes[c] for c in cards.wild], **cards.odds(cards.wild, side)}
        out.append(
            SideThreats(
                colour=colour,
                seats=seats,
                sequences=[f"{colour}:{window_name(w)}" for w in _completed(state, colour)],
                count=total,
                needed=rules.sequences_to_win,
                one_away=ones,
                two_away=twos,
                cells=dict(sorted(cell_info.items(), key=lambda kv: parse_cell(kv[0]))),
                wild=wild,
                dead_cards={s: d for s, d in dead.items() if d},
            )
        )
    return out


def immediate_wins(state, side: int, open_information: bool = False) -> list[dict]:
    """The cells where ``side`` would win by placing a chip on its next turn.

    Each entry: ``{"side", "cell", "card", "possible"}``, where ``possible`` says whether
    a seat of that side may hold the cell's card or a wild card (a known hand holds
    one, or an unseen copy exists; with ``open_information`` only known hands count).
    """
    rules = state.rules
    board = _board(state)
    colour = state.sides[side]
    cards = _Cards(state)
    cells = set()
    for _, empty in _near_windows(state, board, colour, 1):
        cells.add(empty[0])
    if rules.heart_rule == "on":
        held = [c for c in HEART_CELLS if board[c].lower() == colour]
        free = [c for c in HEART_CELLS if board[c] == EMPTY]
        if len(held) == 3 and len(free) == 1:
            cells.add(free[0])
    out = []
    for cell in sorted(cells):
        if _gain(state, board, side, cell) < rules.sequences_to_win:
            continue
        codes = _cell_codes(state, cell) + cards.wild
        out.append(
            {
                "side": colour,
                "cell": cell_name(cell),
                "card": cards.codes[codes[0]],
                "possible": cards.possible(codes, side, open_information),
            }
        )
    return out


def replacement_wins(view, exchange: int, side: int, open_information: bool) -> float:
    """Chance that the card drawn for the exchange lets the mover win at once.

    Hidden cards: the replacement is the top of the draw pile, which from the mover's
    seat is any card it has not seen, each copy alike (or, when the pile is empty, any
    card of the discard piles, the exchanged one included, which are reshuffled).  Open
    information or the draft variant: the card is known, and a winning one was already
    found exactly, so 0.
    """
    rules = view.rules
    if open_information or rules.draw_mode == "draft":
        return 0.0
    cells = [c["cell"] for c in immediate_wins(view, view.side_of(view.current_player))]
    if not cells:
        return 0.0
    deck = rules.deck_cards
    cards = _Cards(view)
    codes = {deck.index(rules.layout.labels[parse_cell(c)]) for c in cells} | set(cards.wild)
    if view.draw_pile_size():
        pool = Counter(cards.unseen)
    else:
        pool = Counter(c for _, c in view.discarded())
        pool[decode_action(exchange)[1]] += 1
    size = sum(pool.values())
    return sum(pool[c] for c in codes) / size if size else 0.0


def _jack_names(deck) -> dict[CardKind, str]:
    """The words for the two jack kinds of the deck (Numbers' Plus and Minus)."""
    if "PL" in deck.codes:
        return {CardKind.WILD: "a Plus", CardKind.REMOVE: "a Minus"}
    return {CardKind.WILD: "a two-eyed jack", CardKind.REMOVE: "a one-eyed jack"}


def holding_features(after, side: int) -> list[dict]:
    """What an opposing side's hidden hand may hold that can decide the game after a turn.

    For each side other than ``side``: a one-eyed jack (it removes a chip), a two-eyed
    jack (it fills any cell), and the card of each cell where some side would win by its
    next placement in ``after`` (a cell that wins for that side, or that it must block).
    Each entry: ``{"side", "holding", "seats", "cards"}`` (the side's colour name, the
    holding in words); a world has it when one of ``seats`` holds one of ``cards``.
    """
    rules = after.rules
    deck = rules.deck_cards
    jacks = _jack_names(deck)
    cells = sorted({parse_cell(t["cell"]) for s in range(rules.teams) for t in immediate_wins(after, s)})
    by_card: dict[str, list[str]] = {}
    for cell in cells:
        by_card.setdefault(rules.layout.labels[cell], []).append(cell_name(cell))
    holdings = [
        (jacks[kind], [c for c in deck.codes if deck.kind(c) == kind])
        for kind in (CardKind.REMOVE, CardKind.WILD)
    ]
    holdings += [(f"{card} (for {' '.join(names)})", [card]) for card, names in by_card.items()]
    out = []
    for other in range(rules.teams):
        if other == side:
            continue
        seats = list(range(other, rules.players, rules.teams))
        for words, cards in holdings:
            colour = COLOUR_NAMES[after.sides[other]]
            out.append({"side": colour, "holding": words, "seats": seats, "cards": cards})
    return out


def holding_chance(view, seats: Iterable[int], cards: Iterable[str]) -> float | None:
    """The exact chance, as the analyst sees the cards, that one of ``seats`` holds one of
    ``cards`` now: every unseen card is alike in the hidden hands and the draw pile, so the
    hidden cards of ``seats`` are a uniform draw from the unseen ones (hypergeometric).
    None when one of ``seats`` is known to hold one (its hand, or a draft take everyone
    saw): then it is no chance."""
    deck = view.rules.deck_cards
    codes = {deck.index(c) for c in cards}
    info = _Cards(view)
    seats = list(seats)
    if any(info.hands[s][c] for s in seats for c in codes) or any(
        c in cards for s in seats for c in view.public_hand(s)
    ):
        return None
    hidden = sum(view.hand(s).count("?") for s in seats)
    unseen = sum(info.unseen.values())
    copies = sum(info.unseen[c] for c in codes)
    if hidden > unseen:
        return None
    return 1.0 - comb(unseen - copies, hidden) / comb(unseen, hidden)


def _draw_pool(view, exchanged: int | None = None) -> Counter:
    """The cards the next draw may be, each copy alike, as the analyst sees them: the
    unseen ones, or, when the draw pile is empty, the discard piles (with the card just
    exchanged or played) that are reshuffled."""
    if view.draw_pile_size():
        return Counter(_Cards(view).unseen)
    pool = Counter(c for _, c in view.discarded())
    if exchanged is not None:
        pool[exchanged] += 1
    return pool


def winning_draws(view, after, turn: tuple[int, ...], side: int) -> dict | None:
    """The cards whose draw at the end of ``turn`` lets ``side`` (the mover's) win on its
    next turn, if the cells are still open then (the opponents may block them first).

    Exact from the board after the turn: the cells where one more chip of the side wins,
    each filled by its own card or a two-eyed jack; ``chance`` is the share of those
    cards among the cards the draw may be (the unseen ones, each copy alike, since from
    the mover's seat any unseen card is equally likely to be on top of the draw pile).
    ``held`` lists the mover's cards that already fit (then the draw is not needed).
    None with open information or in the draft variant (the draw is known or chosen).
    """
    rules = view.rules
    if rules.draw_mode == "draft" or not view.has_hidden_cards():
        return None
    cells = [t["cell"] for t in immediate_wins(after, side)]
    deck = rules.deck_cards
    played = [decode_action(a)[1] for a in turn]
    pool = _draw_pool(view, played[-1] if played else None)
    size = sum(pool.values())
    if not cells:
        return {"cells": [], "cards": [], "held": [], "copies": 0, "of": size, "chance": 0.0}
    wild = [deck.index(c) for c in deck.codes if deck.kind(c) == CardKind.WILD]
    codes = sorted({deck.index(rules.layout.labels[parse_cell(c)]) for c in cells} | set(wild))
    copies = sum(pool[c] for c in codes)
    mover = view.current_player
    hand = Counter(view.known_hand(mover))
    hand.subtract(played)
    held = sorted({deck.codes[c] for c in codes if hand[c] > 0})
    return {
        "cells": cells,
        "cards": [deck.codes[c] for c in codes],
        "held": held,
        "copies": copies,
        "of": size,
        "chance": copies / size if size else 0.0,
    }
