"""Analysis of a position, and annotation of a recorded game: what to play, and why.

:func:`analyze` takes a state (from a position file, or a moment of a recorded
game) and answers for the side to move:

* **Every legal turn, ranked** (:class:`TurnStat`): the share of the search's
  root visits it received, its estimated win probability with a 95% interval,
  and the expected continuation (principal variation), in RULES.md P-12
  notation with whole turns (``"~5S 9H@i3"``).
* **Exact answers** (:class:`Tactics`), found by trying moves, not by search:
  every turn that wins at once is ranked first with probability 1; the cells
  where an opposing side would win on its next turn are listed with whether it
  may hold a card for them, and the turns that leave no such cell are flagged as
  blocks and ranked next (or the analysis says that no block exists).
* **A threat summary for every side** (:class:`SideThreats`): completed
  sequences, windows one and two cells from completion that can still become a
  sequence, which cards complete them and whether those cards are live, and the
  dead cards in each hand the analyst can see.

How the search is used
----------------------
The search is the compiled information-set MCTS of :mod:`seqsolve._search`
(the ``mcts`` bot's ``Searcher``; ``--bot mcts:...`` sets its parameters).
Unless the analysis is *open* (every card listed and ``open_information``
asked for), the side to move searches its own observation: every iteration
deals the cards it cannot see at random among those it has not seen, so cards
in its hand and in the discard piles are never dealt elsewhere.

Root parallelism: ``jobs=J`` runs ``J`` independent trees on ``J`` threads (the
search releases the GIL), seeded by ``SeedSequence(seed).spawn(J)``, each with
its share of the iteration budget; their root statistics are merged action by
action (visits and value sums added).  The result is a pure function of
``(position, seed, jobs, iterations, bot parameters)``: the same seed and jobs
give the same analysis on any machine, but ``jobs=1`` and ``jobs=2`` search
different trees and so differ a little (a time budget is never reproducible).

Whole turns and exchanges: in the tree a dead-card exchange is an action of the
mover followed by its play, chosen once the replacement is drawn; the exchange
node's mean is dragged down by the exploration of that extra layer (the plays
of every possible replacement), so it is not used alone.  Instead the analysis
relies on dominance: exchanging a dead card and then making the play ``P`` is
never worse than making ``P`` alone (the hand only gains a live card for a dead
one; C-21's information argument aside).  So each exchange is reported as a
whole turn, the exchange followed by the best turn that needs no exchange
(``"~5S 9H@i3"``), ranked directly above that turn, with ``win`` the larger of
the exchange node's mean and ``r + (1 - r) * win(P)``, where ``r``
(``replacement_wins``) is the exact chance that the replacement wins at once.
When the replacement can win (open information, or a draft card), that turn is
an exact win.  When no held card can follow the exchange, the turn is the
exchange then the tree's most-visited play if the mover can already name it,
else the exchange alone (``"~5S"``).

Win probability: the mean value backed up through the turn's node for the
mover's side (1 for a win, 0 for a loss, 1/sides for a draw, the evaluation's
estimate where a playout stops).  ``win_ci`` is the Wilson score interval of
that mean treated as ``value_sum`` successes in ``visits`` trials.  A value in
[0, 1] with mean p has variance at most p(1 - p), so the interval is
conservative about sampling noise; it says nothing about the evaluation's bias,
and tree statistics are not independent draws, so read it as a guide to how
settled the estimate is, not as a guarantee.

:func:`annotate_record` replays a game of a match record file and analyses each
decision of the chosen seats from the mover's observation, marking mistakes and
blunders by the drop of the estimated win probability from the best turn to
the one played.
"""

from __future__ import annotations

import math
import queue
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from .games.sequence.board import CORNERS, cell_name, window_name, windows
from .games.sequence.cards import CardKind
from .games.sequence.moves import MoveKind, join_turns
from .games.sequence.notation import to_sqn
from .games.sequence.position import CORNER, EMPTY, Position
from .games.sequence.sequences import HEART_CELLS, new_sequences, overlap_allows
from .games.sequence.state import decode_action
from .play.records import Replay, result_text
from .play.stats import rate_interval

__all__ = [
    "DEFAULT_ITERATIONS",
    "Analysis",
    "AnalysisError",
    "SearchSettings",
    "SideThreats",
    "Tactics",
    "TurnStat",
    "analyze",
    "analyze_position",
    "annotate_record",
    "check_analyzable",
    "immediate_wins",
    "search_settings",
    "threat_summary",
]

#: Iterations of an analysis when neither the caller nor the bot spec gives a budget.
DEFAULT_ITERATIONS = 50_000
#: Iterations per decision of an annotation.
DEFAULT_ANNOTATE_ITERATIONS = 4_000

_UNKNOWN = 255


class AnalysisError(ValueError):
    """A position or request that cannot be analysed; the message says why, in one line."""


# ---------------------------------------------------------------------------
# results


@dataclass
class TurnStat:
    """One legal turn of the side to move, with what the analysis found about it.

    ``move`` is the whole turn in P-12 notation; ``actions`` its core actions.
    ``visits``/``share`` are the root visits of its first action (all trees
    merged); ``win`` and ``win_ci`` are None when the search never tried it.
    ``exact`` is ``"win"`` for a turn that wins at once (then ``win`` is 1).
    ``block`` is True/False when some opposing side could win on its next turn
    (does this turn leave it no winning cell?), None otherwise or when unknown.
    """

    move: str
    actions: tuple[int, ...]
    visits: int = 0
    share: float = 0.0
    win: float | None = None
    win_ci: tuple[float, float] | None = None
    pv: list[str] = field(default_factory=list)
    exact: str | None = None
    block: bool | None = None
    replacement_wins: float | None = None

    def to_dict(self) -> dict:
        return {
            "move": self.move,
            "share": self.share,
            "visits": self.visits,
            "win": self.win,
            "win_ci": None if self.win_ci is None else list(self.win_ci),
            "pv": self.pv,
            "exact": self.exact,
            "block": self.block,
            "replacement_wins": self.replacement_wins,
        }


@dataclass
class Tactics:
    """Exact one-move facts: the mover's immediate wins, the opponents' immediate wins
    (cells, the card each needs, whether that side may hold one) and the blocks."""

    win_in_one: list[str]
    threats: list[dict]
    blocks: list[str]
    no_block: bool

    def to_dict(self) -> dict:
        return {
            "win_in_one": self.win_in_one,
            "opponent_wins": self.threats,
            "blocks": self.blocks,
            "no_block": self.no_block,
        }


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
        return {
            "side": self.colour,
            "seats": self.seats,
            "sequences": self.sequences,
            "count": self.count,
            "needed": self.needed,
            "one_away": self.one_away,
            "two_away": self.two_away,
            "cells": self.cells,
            "wild": self.wild,
            "dead_cards": {str(s): cards for s, cards in self.dead_cards.items()},
        }


@dataclass
class Analysis:
    """Everything :func:`analyze` found; :meth:`to_dict` is the ``--json`` object."""

    position: str
    variant: str
    players: int
    teams: int
    to_move: int
    side: str
    turn: int
    open_information: bool
    seed: int
    jobs: int
    iterations: int
    seconds: float
    moves: list[TurnStat]
    tactics: Tactics
    threats: list[SideThreats] | None
    value: float | None

    def to_dict(self, top: int | None = None) -> dict:
        moves = self.moves if not top else self.moves[:top]
        data = {
            "position": self.position,
            "variant": self.variant,
            "players": self.players,
            "teams": self.teams,
            "to_move": self.to_move,
            "side": self.side,
            "turn": self.turn,
            "open": self.open_information,
            "seed": self.seed,
            "jobs": self.jobs,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "legal_turns": len(self.moves),
            "value": self.value,
            "moves": [m.to_dict() for m in moves],
            "exact": self.tactics.to_dict(),
        }
        if self.threats is not None:
            data["threats"] = [t.to_dict() for t in self.threats]
        return data

    def find(self, move: str) -> TurnStat | None:
        """The ranked turn whose text is ``move`` (or, for a bare exchange ``~5S``, the turn
        that starts with it)."""
        for m in self.moves:
            if m.move == move:
                return m
        for m in self.moves:
            if m.move.split()[0] == move:
                return m
        return None


# ---------------------------------------------------------------------------
# search settings


@dataclass(frozen=True)
class SearchSettings:
    """Search parameters (for ``_search.Searcher``) and the budget of each analysis."""

    params: dict
    iterations: int
    seconds: float
    spec: str
    open_information: bool = False


def search_settings(
    bot: str = "mcts",
    iterations: int | None = None,
    seconds: float | None = None,
    default_iterations: int = DEFAULT_ITERATIONS,
) -> SearchSettings:
    """Parameters and budget from a ``mcts:...`` bot spec and explicit budgets.

    An explicit ``iterations``/``seconds`` wins over the spec's ``iters``/``time``;
    with neither anywhere, ``default_iterations``.

    Raises:
        AnalysisError: the spec is not an ``mcts`` spec (or not a valid one).

    >>> s = search_settings("mcts:c=0.5", iterations=100)
    >>> s.iterations, s.seconds, s.params["c"]
    (100, 0.0, 0.5)
    """
    from .bots import BotError, make_bot, parse_spec

    try:
        name, raw = parse_spec(bot)
        if name != "mcts":
            raise AnalysisError(f"analysis needs a search bot ('mcts' or 'mcts:key=value,...'), not {bot!r}")
        made = make_bot(bot)
    except BotError as exc:
        raise AnalysisError(str(exc)) from None
    try:
        if iterations is None and seconds is None:
            if "iters" in raw or "time" in raw:
                iterations, seconds = made.options["iters"], made.options["time"]
            else:
                iterations = default_iterations
        iterations = int(iterations or 0)
        seconds = float(seconds or 0.0)
        if iterations < 0 or seconds < 0:
            raise AnalysisError("the search budget must not be negative")
        if iterations == 0 and seconds == 0:
            raise AnalysisError("give the search a budget: iterations or seconds (or both)")
        return SearchSettings(
            dict(made.searcher().params), iterations, seconds, bot, bool(made.options["open"])
        )
    finally:
        made.close()


# ---------------------------------------------------------------------------
# checking the request


def check_analyzable(pos: Position, open_information: bool = False) -> None:
    """Refuse what cannot be analysed, with one line saying why.

    Raises:
        AnalysisError: the game is over; the mover's cards are not all listed; or
            ``open_information`` is asked for while some cards are hidden.
    """
    if pos.result is not None:
        raise AnalysisError(f"the game is over (result {pos.result}): there is nothing to analyze")
    seat = pos.to_move
    hand = pos.hands[seat]
    if hand.unknown:
        listed = "not listed" if not hand.known else f"not all listed ({hand.unknown} unknown)"
        raise AnalysisError(f"seat {seat}'s cards are {listed}: analyze needs the cards of the side to move")
    if open_information:
        hidden = [f"hand {s} holds {h.unknown} unknown" for s, h in enumerate(pos.hands) if h.unknown]
        if pos.draw_cards is None and pos.draw_count:
            hidden.append(f"the draw pile's {pos.draw_count} cards are not listed")
        if hidden:
            raise AnalysisError(f"open analysis (--open) needs every card known, but {'; '.join(hidden)}")


def analyze_position(pos: Position, **options) -> Analysis:
    """:func:`check_analyzable`, then :func:`analyze` of the position's state."""
    from .games.sequence.state import State

    settings = options.pop("settings", None) or search_settings(
        options.pop("bot", "mcts"), options.pop("iterations", None), options.pop("seconds", None)
    )
    check_analyzable(pos, options.get("open_information", False) or settings.open_information)
    return analyze(State.from_position(pos, seed=options.get("seed", 0)), settings=settings, **options)


# ---------------------------------------------------------------------------
# board helpers (plain Python on the position's tokens)


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
        core = state.core
        self.hands = {}
        known = Counter()
        for seat in range(rules.players):
            cards = [c for c in core.hand(seat) if c != _UNKNOWN]
            self.hands[seat] = Counter(cards)
            known.update(cards)
        known.update(c for _, c in core.discards())
        self.draft = Counter(c for c in core.draft() if c != _UNKNOWN)
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


# ---------------------------------------------------------------------------
# threats and exact answers


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

    >>> from seqsolve.cli.position import load_position
    >>> from seqsolve.games.sequence.state import State
    >>> s = State.from_position(load_position("example:2")).observation(1)
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
                cells=dict(sorted(cell_info.items(), key=lambda kv: _cell_order(kv[0]))),
                wild=wild,
                dead_cards={s: d for s, d in dead.items() if d},
            )
        )
    return out


def _cell_order(name: str) -> int:
    from .games.sequence.board import parse_cell

    return parse_cell(name)


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


def _opponent_wins(state, mover_side: int, open_information: bool) -> list[dict]:
    found = []
    for side in range(state.rules.teams):
        if side != mover_side:
            found.extend(immediate_wins(state, side, open_information))
    return found


def _outcome_of(view, actions: Iterable[int]):
    """The view after a turn, or None when one of its actions is not legal there."""
    child = view.clone()
    for a in actions:
        if a not in child.legal_actions():
            return None
        child.apply(a)
    return child


# ---------------------------------------------------------------------------
# the search


def _group_turns(view, actions: list[int]) -> list[str]:
    """Actions as whole turns: exchanges joined to the play that follows them."""
    return join_turns(view.action_to_move(a) for a in actions)


class SearchThreads:
    """Searches side by side on threads, which Ctrl-C stops within a second.

    The signal reaches only the main thread, and only while it runs Python: it
    waits for each result in short steps, and when it leaves the ``with`` block by
    an exception, :func:`seqsolve._search.halt` ends the running searches (instead
    of waiting for them to use up their budgets), items not yet begun are dropped,
    and the threads are waited for before searches may run again.  The threads
    are daemons, so even one whose start the signal cut short never holds up
    the exit.
    """

    POLL = 0.1  # seconds the main thread waits at a time

    def __init__(self, workers: int):
        self.workers = workers
        self.threads: list[threading.Thread] = []
        self.stopping = False

    def __enter__(self) -> SearchThreads:
        return self

    def map(self, fn: Callable, items: Iterable) -> Iterable:
        """``fn`` of each item, in order (as ``ThreadPoolExecutor.map``)."""
        items = list(items)
        todo = queue.SimpleQueue()
        for i in range(len(items)):
            todo.put(i)
        results: list = [None] * len(items)
        finished = [threading.Event() for _ in items]

        def work() -> None:
            while not self.stopping:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    results[i] = (True, fn(items[i]))
                except BaseException as exc:  # handed to the main thread
                    results[i] = (False, exc)
                finished[i].set()

        for _ in range(min(self.workers, len(items))):
            thread = threading.Thread(target=work, daemon=True)
            self.threads.append(thread)
            thread.start()
        for i in range(len(items)):
            while not finished[i].wait(self.POLL):
                pass
            ok, value = results[i]
            if not ok:
                raise value
            yield value

    def __exit__(self, kind, exc, tb) -> None:
        from . import _search

        if kind is not None:
            self.stopping = True
            _search.halt()
        for thread in self.threads:
            while thread.is_alive():
                thread.join(self.POLL)
        if kind is not None:
            _search.halt(False)  # not reached if a second Ctrl-C cut the wait: they stay halted


def _search_tree(
    view, viewer: int, settings: SearchSettings, seed, iterations: int, open_information: bool, pv_length: int
):
    from . import _search

    searcher = _search.Searcher(settings.params)
    result = searcher.search(
        view.core,
        viewer,
        np.random.PCG64(seed),
        iterations=iterations,
        seconds=settings.seconds,
        open_information=int(open_information),
    )
    return result, searcher.root_stats(pv_length)


def _run_search(view, viewer, settings, seed, jobs, open_information, pv_length):
    """Root-parallel search: ``jobs`` trees, merged by root action."""
    children = (
        np.random.SeedSequence(seed).spawn(jobs)
        if not isinstance(seed, np.random.SeedSequence)
        else seed.spawn(jobs)
    )
    budgets = [
        settings.iterations // jobs + (1 if i < settings.iterations % jobs else 0) for i in range(jobs)
    ]
    if settings.iterations and settings.seconds == 0:
        budgets = [max(1, b) for b in budgets]
    views = [view.clone() for _ in range(jobs)]
    args = [
        (views[i], viewer, settings, children[i], budgets[i], open_information, pv_length)
        for i in range(jobs)
    ]
    if jobs == 1:
        results = [_search_tree(*args[0])]
    else:
        with SearchThreads(jobs) as threads:
            results = list(threads.map(lambda a: _search_tree(*a), args))
    merged: dict[int, dict] = {}
    iterations, seconds, value_sum, value_n = 0, 0.0, 0.0, 0
    for result, stats in results:
        iterations += result["iterations"]
        seconds = max(seconds, result["seconds"])
        if result["value"] == result["value"]:  # not NaN
            value_sum += result["value"] * max(1, result["iterations"])
            value_n += max(1, result["iterations"])
        for st in stats:
            m = merged.setdefault(st["action"], {"visits": 0, "value_sum": 0.0, "pv": st["pv"], "best": 0})
            m["visits"] += st["visits"]
            m["value_sum"] += st["value"] * st["visits"]
            if st["visits"] > m["best"]:
                m["best"], m["pv"] = st["visits"], st["pv"]
    value = value_sum / value_n if value_n else None
    return merged, iterations, seconds, value


def _continuation(view, first: int, pv: list[int]) -> tuple[int, ...]:
    """The whole turn that starts with the exchange ``first``: the exchange(s) then the play
    the tree prefers, if the mover can already name it (see the module docstring)."""
    turn = [first]
    for a in pv[1:]:
        turn.append(a)
        if view.action_to_move(a).is_play:
            break
    else:
        return (first,)
    while len(turn) > 1 and _outcome_of(view, turn) is None:
        turn.pop()  # the play needs the unknown replacement: name the exchange only
    return tuple(turn)


def analyze(
    state,
    *,
    bot: str = "mcts",
    iterations: int | None = None,
    seconds: float | None = None,
    settings: SearchSettings | None = None,
    seed=0,
    jobs: int = 1,
    open_information: bool = False,
    pv_length: int = 8,
    threats: bool = True,
) -> Analysis:
    """Analyse the turn of the side to move in ``state``.

    Args:
        state: a :class:`~seqsolve.games.sequence.state.State` whose mover's hand is known; other
            cards may be unknown.  Unless ``open_information``, only what the mover
            may see is used (``state.observation(mover)``).
        bot: an ``mcts`` spec giving the search parameters (see ``seqsolve bots``).
        iterations, seconds: the search budget (total over the trees); default
            :data:`DEFAULT_ITERATIONS` unless the bot spec gives one.
        settings: ready-made :func:`search_settings` (then ``bot`` and the budget are ignored).
        seed: an int or SeedSequence; the trees' seeds are spawned from it.
        jobs: independent root-parallel trees, one thread each.
        open_information: search with every card known (the state must list them all).
        pv_length: actions in each principal variation (before joining into turns).
        threats: compute the per-side threat summary.

    Returns:
        The :class:`Analysis`; ``moves`` holds every legal turn, best first.

    Raises:
        AnalysisError: the game is over, or the mover's cards are unknown.

    >>> from seqsolve.cli.position import load_position
    >>> from seqsolve.games.sequence.state import State
    >>> a = analyze(State.from_position(load_position("example:2")), iterations=500, seed=1)
    >>> a.to_move, a.iterations, len(a.moves) == len(set(m.move for m in a.moves))
    (1, 500, True)
    """
    if state.is_terminal():
        raise AnalysisError(
            f"the game is over (result {state.outcome().result}): there is nothing to analyze"
        )
    if jobs < 1:
        raise AnalysisError("jobs must be at least 1")
    settings = settings or search_settings(bot, iterations, seconds)
    open_information = open_information or settings.open_information
    mover = state.current_player
    if "?" in state.hand(mover):
        raise AnalysisError(
            f"seat {mover}'s cards are not listed: analyze needs the cards of the side to move"
        )
    if open_information:
        hidden = [s for s in range(state.rules.players) if "?" in state.hand(s)]
        if hidden or _UNKNOWN in state.core.draw_pile():
            raise AnalysisError("open analysis needs every hand and the draw pile known")
        view = state.clone()
    else:
        view = state.observation(mover)
    side = view.side_of(mover)
    legal = view.legal_actions()

    # exact facts first: they do not depend on the search
    threatened = [t for t in _opponent_wins(view, side, open_information) if t["possible"]]

    merged, done, seconds_used, value = {}, 0, 0.0, None
    if len(legal) > 1:
        seed_seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        merged, done, seconds_used, value = _run_search(
            view, mover, settings, seed_seq, jobs, open_information, pv_length
        )
    elif legal:
        from . import _search

        value = _search.evaluate_position(view.core, side)
    total = sum(m["visits"] for m in merged.values())

    def blocks(turn: tuple[int, ...]) -> bool | None:
        after = _outcome_of(view, turn)
        if after is None:
            return None
        if after.is_terminal():
            return _won(after, side)
        if not view.action_to_move(turn[-1]).is_play:
            return None  # the play after the exchange is not known yet
        return not any(t["possible"] for t in _opponent_wins(after, side, open_information))

    def stat_of(turn: tuple[int, ...], m: dict | None) -> TurnStat:
        visits = m["visits"] if m else 0
        win, ci = None, None
        if visits:
            win = m["value_sum"] / visits
            _, low, high = rate_interval(min(max(m["value_sum"], 0.0), visits), visits)
            ci = (low, high)
        text = " ".join(str(view.action_to_move(x)) for x in turn)
        pv = _group_turns(view, list(m["pv"])) if m else []
        if not pv or not (pv[0] == text or pv[0].startswith(text + " ")):
            pv = [text]  # no tree line, or the turn is not the tree's own choice
        stat = TurnStat(text, turn, visits, visits / total if total else 0.0, win, ci, pv)
        if _wins(view, turn, side):
            stat.exact, stat.win, stat.win_ci = "win", 1.0, (1.0, 1.0)
        if threatened:
            stat.block = blocks(turn)
        return stat

    def rank(s: TurnStat):
        return (
            s.exact != "win",
            not (threatened and s.block),
            -s.visits,
            -(s.win if s.win is not None else -1.0),
            s.move,
        )

    plays = sorted((stat_of((a,), merged.get(a)) for a in legal if view.action_to_move(a).is_play), key=rank)
    if len(legal) == 1 and plays and plays[0].win is None:
        plays[0].share, plays[0].win = 1.0, value
    anchored: dict[int, list[TurnStat]] = {}
    exchange_wins, free = [], []
    for a in legal:
        if view.action_to_move(a).is_play:
            continue
        m = merged.get(a)
        after = _outcome_of(view, (a,))
        follow = set(after.legal_actions())
        held = [p for p in plays if p.actions[0] in follow]
        drawn = [b for b in follow if b not in set(legal) and _is_known_play(after, b)]
        winning = [p.actions[0] for p in held if p.exact == "win"] + [
            b for b in drawn if _won_after(after, b, side)
        ]
        if winning:
            exchange_wins.append(stat_of((a, winning[0]), m))
            continue
        chance = _replacement_wins(view, a, side, open_information)
        passes = [p for p in held if view.action_to_move(p.actions[0]).kind is MoveKind.PASS]
        held = [p for p in held if p not in passes]
        if not held:  # nothing held can follow: the play depends on the replacement
            stat = stat_of(_continuation(view, a, m["pv"]) if m else (a,), m)
            stat.replacement_wins = chance
            if not passes:
                free.append(stat)
                continue
            anchor = passes[0]  # exchanging, and passing only if still stuck, beats passing
        else:
            # exchanging, then playing the best held turn, is never worse than that turn alone
            anchor = held[0]
            stat = stat_of((a, *anchor.actions), m)
            stat.replacement_wins = chance
            stat.pv = [stat.move, *anchor.pv[1:]]
        if anchor.win is not None and (stat.win is None or chance + (1 - chance) * anchor.win > stat.win):
            stat.win = chance + (1 - chance) * anchor.win
            stat.win_ci = (
                None if anchor.win_ci is None else tuple(chance + (1 - chance) * x for x in anchor.win_ci)
            )
        anchored.setdefault(anchor.actions[0], []).append(stat)
    stats: list[TurnStat] = [p for p in plays if p.exact == "win"]
    stats += sorted(exchange_wins, key=rank)
    for p in plays:
        if p.exact == "win":
            continue
        stats += sorted(anchored.get(p.actions[0], []), key=lambda s: (-(s.win or 0.0), s.move))
        stats.append(p)
    for f in sorted(free, key=rank):
        at = next((i for i, s in enumerate(stats) if s.exact != "win" and rank(f) < rank(s)), len(stats))
        stats.insert(at, f)
    win_list = [s.move for s in stats if s.exact == "win"]
    block_list = [s.move for s in stats if threatened and s.block and s.exact != "win"]
    tactics = Tactics(
        win_in_one=win_list,
        threats=_opponent_wins(view, side, open_information),
        blocks=block_list,
        no_block=bool(threatened) and not block_list and not win_list,
    )
    rules = state.rules
    return Analysis(
        position=to_sqn(view.to_position()),
        variant=str(rules.variant),
        players=rules.players,
        teams=rules.teams,
        to_move=mover,
        side=view.sides[side],
        turn=view.turn,
        open_information=open_information,
        seed=_seed_int(seed),
        jobs=jobs,
        iterations=done,
        seconds=seconds_used,
        moves=stats,
        tactics=tactics,
        threats=threat_summary(view) if threats else None,
        value=_nan_to_none(value),
    )


def _seed_int(seed) -> int:
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.entropy) if isinstance(seed.entropy, int) else 0
    return int(seed)


def _replacement_wins(view, exchange: int, side: int, open_information: bool) -> float:
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
    from .games.sequence.board import parse_cell

    deck = rules.deck_cards
    cards = _Cards(view)
    codes = {deck.index(rules.layout.labels[parse_cell(c)]) for c in cells} | set(cards.wild)
    if view.draw_pile_size():
        pool = Counter(cards.unseen)
    else:
        pool = Counter(c for _, c in view.core.discards())
        pool[decode_action(exchange)[1]] += 1
    size = sum(pool.values())
    return sum(pool[c] for c in codes) / size if size else 0.0


def _won(state, side: int) -> bool:
    outcome = state.outcome()
    return outcome is not None and outcome.winner == state.sides[side]


def _is_known_play(state, action: int) -> bool:
    """A play whose cards are all known (in an observation of the draft variant, a play may
    take a draft card refilled from the unknown pile: such actions are skipped)."""
    try:
        return state.action_to_move(action).is_play
    except IndexError:
        return False


def _won_after(state, action: int, side: int) -> bool:
    child = state.clone()
    child.apply(action)
    return _won(child, side)


def _wins(view, turn: Iterable[int], side: int) -> bool:
    after = _outcome_of(view, turn)
    return after is not None and _won(after, side)


# ---------------------------------------------------------------------------
# annotation of recorded games


def annotate_record(
    record: dict,
    *,
    seats: Iterable[int] | None = None,
    bot: str = "mcts",
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    jobs: int = 1,
    mistake: float = 0.1,
    blunder: float = 0.25,
    open_information: bool = False,
    progress: Callable[[int, int], None] | None = None,
    where: str = "game record",
) -> dict:
    """Analyse every decision of ``seats`` (default all) in a recorded game.

    The game is replayed from its record (rules from ``variant``/``players``/``teams``,
    the deal from ``deal_seed(seed, deal)``).  Before each action of a chosen seat
    that had a choice, the position as that seat saw it is analysed with
    :func:`analyze` (one tree, seed ``SeedSequence(seed, spawn_key=(ply,))``), so the
    result does not depend on ``jobs``, which only runs decisions side by side.
    A turn with a dead-card exchange is two decisions: exchange or not (the
    exchange is compared with the best whole turn), then the play after the
    replacement is known.  ``drop`` is the best turn's win estimate minus the
    played one's; above ``blunder`` it is a blunder, above ``mistake`` a mistake.

    Returns:
        ``{"game", "variant", "players", "teams", "seats", "result", "termination",
        "iterations", "seed", "thresholds", "decisions": [...], "summary": [...]}``
        (``result`` as recorded, ``result_text`` in words, ``turns`` the turns played);
        each decision holds ``ply`` (1-based index into the record's moves),
        ``turn``, ``seat``, ``side``, ``played``, ``win_played``, ``best``,
        ``win_best``, ``drop``, ``mark`` (None, "mistake" or "blunder"),
        ``visits_played`` and ``exact`` (the best turn's exact tag).

    Raises:
        RecordError: a record that cannot be replayed (the message starts with ``where``).
        AnalysisError: bad seats or thresholds.
    """
    if not 0 <= mistake <= blunder:
        raise AnalysisError(f"thresholds must satisfy 0 <= mistake <= blunder (got {mistake} and {blunder})")
    settings = search_settings(bot, iterations, seconds, DEFAULT_ANNOTATE_ITERATIONS)
    open_information = open_information or settings.open_information
    game = Replay(record, where)
    state = game.state
    players = state.rules.players
    chosen = set(range(players)) if seats is None else set(seats)
    bad = sorted(s for s in chosen if not 0 <= s < players)
    if bad:
        raise AnalysisError(f"seat {bad[0]} does not exist in this game (seats 0..{players - 1})")
    jobs_list = []
    played_moves = []
    for step in game:
        played_moves.append(step.move)
        if step.seat in chosen and len(state.legal_actions()) > 1:
            view = state.clone() if open_information else state.observation(step.seat)
            jobs_list.append((step.ply, state.turn, step.seat, view, step.action))

    def one(job):
        ply, turn, seat, view, action = job
        analysis = analyze(
            view,
            settings=settings,
            seed=np.random.SeedSequence(seed, spawn_key=(ply,)),
            open_information=open_information,
            threats=False,
        )
        return ply, turn, seat, view, action, analysis

    if progress:
        progress(0, len(jobs_list))
    done = 0
    results = []
    if jobs <= 1:
        for job in jobs_list:
            results.append(one(job))
            done += 1
            if progress:
                progress(done, len(jobs_list))
    else:
        with SearchThreads(jobs) as threads:
            for item in threads.map(one, jobs_list):
                results.append(item)
                done += 1
                if progress:
                    progress(done, len(jobs_list))

    decisions = []
    for ply, turn, seat, view, action, analysis in results:
        played_move = view.action_to_move(action)
        played = next((m for m in analysis.moves if m.actions[0] == action), None)
        best = analysis.moves[0]
        win_played = played.win if played else None
        drop = None
        if win_played is not None and best.win is not None:
            drop = max(0.0, best.win - win_played)
        if played is best:
            drop = 0.0
        mark = None
        if drop is not None:
            mark = "blunder" if drop > blunder else "mistake" if drop > mistake else None
        decisions.append(
            {
                "ply": ply,
                "turn": turn + 1,
                "seat": seat,
                "side": view.seats[seat],
                "played": str(played_move),
                "win_played": win_played,
                "visits_played": played.visits if played else 0,
                "best": best.move,
                "win_best": best.win,
                "exact": best.exact,
                "drop": drop,
                "mark": mark,
            }
        )
    summary = []
    for seat in sorted(chosen):
        mine = [d for d in decisions if d["seat"] == seat]
        drops = [d["drop"] for d in mine if d["drop"] is not None]
        summary.append(
            {
                "seat": seat,
                "side": state.seats[seat],
                "bot": record["seats"][seat],
                "decisions": len(mine),
                "mistakes": sum(1 for d in mine if d["mark"] == "mistake"),
                "blunders": sum(1 for d in mine if d["mark"] == "blunder"),
                "mean_drop": sum(drops) / len(drops) if drops else None,
            }
        )
    return {
        "game": record["game"],
        "variant": str(state.rules.variant),
        "players": players,
        "teams": state.rules.teams,
        "seats": record["seats"],
        "result": record["result"],
        "result_text": result_text(record, state.seats),
        "termination": record["termination"],
        "turns": len(join_turns(played_moves)),
        "iterations": settings.iterations,
        "seconds_budget": settings.seconds,
        "open": open_information,
        "seed": seed,
        "thresholds": {"mistake": mistake, "blunder": blunder},
        "decisions": decisions,
        "summary": summary,
    }


def _nan_to_none(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x
