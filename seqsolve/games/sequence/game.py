"""Sequence as a :class:`~seqsolve.games.base.Game`: the one object through which the
runners reach its rules, deals, position files, balance tally and compiled search.

Pure Python at import: the compiled core is loaded by the first method that deals
or reads a game, so that checking a variant string costs no numpy.
"""

from __future__ import annotations

from functools import lru_cache

from .position import COLOUR_NAMES
from .rules import PLAYER_COUNTS, PRESETS, Rules, RulesError, Variant, default_teams, parse_value

#: Player counts a rule book names for its preset where the engine would seat more
#: (RULES.md §2.3: the draft variant is for 2 players, or 4 in 2 teams).
RULE_BOOK_PLAYERS: dict[str, tuple[int, ...]] = {"draft": (2, 4)}


class SequenceGame:
    """The board game Sequence (classic, the rule books' variants, Numbers, draft)."""

    name = "sequence"
    #: the strongest bot that is quick enough for thousands of games
    default_bot = "heuristic"

    def parse_variant(self, text: str) -> Variant:
        """The preset and overrides of ``text`` (P-1), checked before any seating."""
        return Variant.parse(text)

    def rules(self, variant: str, players: int | None = None, teams: int | None = None) -> Rules:
        return _resolve(variant, players, teams)

    #: the presets of RULES.md §2.2, in its order
    presets = tuple(PRESETS)

    @staticmethod
    def parse_option(name: str, text: str):
        """The value of option ``name`` written ``text`` (§2.1), or a RulesError saying what it takes."""
        return parse_value(name, text)

    @staticmethod
    def default_teams(players: int) -> int | None:
        """Sides for a player count when not given (§2.1 ``teams``); None for 6 and 12."""
        return default_teams(players)

    def seatings(self, preset: str) -> list[tuple[int, int]]:
        """Every (players, teams) a preset allows: its ``max_players``, its hand-size table, 2 or
        3 sides where the count does not decide, and the rule book's counts where it names them.

        >>> SEQUENCE.seatings("draft")
        [(2, 2), (4, 2)]
        """
        out = []
        given = Variant(preset).options().get("teams")
        for players in RULE_BOOK_PLAYERS.get(preset, PLAYER_COUNTS):
            implied = default_teams(players)
            for teams in [given] if given else ([implied] if implied else [2, 3]):
                try:
                    self.rules(preset, players, teams)
                except RulesError:
                    continue
                out.append((players, teams))
        return out

    def new_initial_state(self, rules: Rules, seed=None):
        """A shuffled, dealt game (C-12): the same seed deals the same cards."""
        from .state import State

        return State.new(rules, seed=seed)

    def read_position(self, text: str, source: str = "<string>", seed=None):
        """The state of a position file in either form, with every P-11 check; without
        a seed, a draw after a reshuffle is unknown (P-17)."""
        from .notation import parse_position
        from .state import State

        state = State.from_position(parse_position(text, source), seed=seed)
        return state if seed is not None else state.without_shuffles()

    #: the forms :meth:`write_position` writes (P-15): one line, readable, JSON fields
    position_forms = ("sqn", "readable", "json")

    def write_position(self, state, viewer: int | None = None, form: str = "sqn") -> str:
        """The position file of the state in ``form``, as ``viewer`` (if given) may see it."""
        return state.to_text(form, viewer)

    @staticmethod
    def move_target(text: str) -> dict:
        """The card a move plays and the cell of the picture it lands on (None for a pass or
        an exchange): what a person clicks to make it (``seqsolve serve``).

        >>> SEQUENCE.move_target("JSxe5"), SEQUENCE.move_target("~5S")["cell"]
        ({'card': 'JS', 'cell': 'e5'}, None)
        """
        from .board import cell_name
        from .moves import Move

        move = Move.from_str(text)
        return {"card": move.card, "cell": None if move.cell is None else cell_name(move.cell)}

    def position_facts(self, state) -> dict:
        """The completed sequences, as P-7 strings (``b:a1-e1``)."""
        from .board import window_name

        return {"sequences": [f"{colour}:{window_name(w)}" for colour, w in state.sequences()]}

    def render(
        self, state, viewer: int | None, legal: list[str] | None, color: bool, notes: list[str], last=()
    ) -> str:
        """The board in colour (P-2 letters without it), hands, piles and whose turn; the
        cells of the plays ``last`` marked (an exchange or a pass touches no cell)."""
        from .moves import Move
        from .render import render_position

        cells = [move.cell for move in map(Move.from_str, last) if move.cell is not None]
        taken = [
            f"{seat}:{state.seats[seat]} {' '.join(cards)}"
            for seat in range(state.rules.players)
            if seat != viewer and (cards := state.public_hand(seat))
        ]
        if taken:  # what a watcher remembers of the draft (D-5); the position file has no field for it
            notes = [*notes, f"seen taken {'  '.join(taken)}  (from the draft, not played since)"]
        return render_position(state.to_position(viewer), legal, color=color, notes=notes, marks=cells)

    def picture(self, state, viewer: int | None = None, marks: list[dict] | None = None) -> str:
        """The board with card faces, chips, locked chips, sequences and coordinates, as SVG."""
        from .svg import position_svg

        return position_svg(state.to_position(viewer), marks)

    def picture_png(
        self, state, new_figure, viewer: int | None = None, marks: list[dict] | None = None
    ) -> bytes:
        """The picture of :meth:`picture`, drawn by matplotlib as PNG bytes."""
        from .svg import position_png

        return position_png(state.to_position(viewer), new_figure, marks)

    @staticmethod
    def side_name(side: str) -> str:
        return COLOUR_NAMES[side]

    @property
    def terminations(self) -> tuple[str, ...]:
        """C-31 and D-4's reasons (not ``recorded``, which only a position file read back has)."""
        from .state import Termination

        return tuple(t.name.lower() for t in Termination if t is not Termination.RECORDED)

    def tactics(self, view, open_information: bool):
        """Cells that win at once, their cards, dead cards, what an exchange may draw."""
        from .threats import SequenceTactics

        return SequenceTactics(view, open_information)

    def tally(self, rules: Rules):
        """The balance analysis' count of one game (docs/balance-metrics.md)."""
        from .tally import GameDetail

        return GameDetail(rules)

    def loop(self, rules: Rules, choosers, detail=None):
        """The compiled loop that plays whole games between these bots (their
        ``Bot.loop_chooser(rules)``), or None when a bot has none or ``detail`` is not the
        game's own tally: the runner then plays action by action."""
        from .loop import compiled_games

        return compiled_games(rules, choosers, detail)

    def plot_games(self, summary: dict, new_figure):
        """The board heatmaps of a balance point, drawn on a figure of ``new_figure``."""
        from .heatmap import plot_heatmap

        return plot_heatmap(summary, new_figure)

    @staticmethod
    def bot_classes() -> dict:
        """The bots of :mod:`seqsolve.bots` (random, greedy, heuristic, mcts, rollout, search, restricted, ext)."""
        from .bots import sequence_bots

        return sequence_bots()

    def searcher(self, params: dict):
        """The compiled information-set MCTS of ``seqsolve._search``, driven by states."""
        return Searcher(params)

    @staticmethod
    def prove_win(
        state, side: int, captain: int, plies: int, nodes: int, seconds: float, excluded: tuple[str, ...] = ()
    ):
        """The compiled proof search of ``seqsolve._proof`` (its docstring says why a
        proof holds whatever the hidden cards are; ``excluded`` cards, by name, are
        taken out of what the others may hold unseen)."""
        from ... import _proof

        deck = state.rules.deck_cards
        mask = sum(1 << deck.index(card) for card in set(excluded))
        return _proof.prove_win(state.core, side, captain, plies, nodes, seconds, mask)

    @staticmethod
    def halt_searches(stop: bool = True) -> None:
        """Stop every compiled search of the process at its next check (Ctrl-C), or let them run again."""
        from ... import _search

        _search.halt(stop)

    def __repr__(self) -> str:
        return "SEQUENCE"

    def __reduce__(self):
        return "SEQUENCE"  # one game object per process: pickles by name, to worker processes


class Searcher:
    """``seqsolve._search.Searcher`` with states in and out, so that no runner reads the
    compiled game behind a state.  It is the analysis's search, which ranks every
    move: a move that wins at once is searched like the others (``root_win`` off)
    rather than played unsearched, and the analysis tags it exact itself."""

    def __init__(self, params: dict):
        from ... import _search

        self._search = _search.Searcher({**params, "root_win": 0})

    def search(self, state, viewer: int, bit_generator, **budget) -> dict:
        """Grow the tree from ``state`` for ``viewer`` (``iterations``, ``seconds``,
        ``open_information`` as the compiled searcher takes them)."""
        return self._search.search(state.core, viewer, bit_generator, **budget)

    def set_evidence(self, before, now, temperature: float) -> bool:
        """Weigh the worlds by the play made between two states (``_search.Searcher.set_evidence``)."""
        return self._search.set_evidence(before.core, now.core, temperature)

    def root_stats(self, pv_length: int) -> list[dict]:
        return self._search.root_stats(pv_length)

    def rollout_values(
        self,
        state,
        viewer: int,
        bit_generator,
        actions: list[int],
        worlds: int,
        open_information: int = 0,
        depth: int = 0,
    ) -> list[float]:
        """The mean result for ``viewer``'s side of each of ``actions``, each played out by
        greedy in the same ``worlds`` deals (cut after ``depth`` actions, 0: to the end)."""
        return self._search.rollout_values(
            state.core, viewer, bit_generator, actions, worlds, open_information=open_information, depth=depth
        )

    def rollout_outcomes(
        self, state, viewer: int, bit_generator, actions: list[int], worlds: int, depth: int = 0
    ) -> tuple[list[list[float]], list[list[list[str]]]]:
        """Per dealt world, the result for ``viewer``'s side of each of ``actions`` (played out
        by greedy, cut after ``depth`` actions) and every seat's hand in it, by card name:
        the analysis splits the worlds by what the opponents hold."""
        results, hands = self._search.rollout_outcomes(
            state.core, viewer, bit_generator, actions, worlds, depth=depth
        )
        codes = state.rules.deck_cards.codes
        return results, [[[codes[c] for c in hand] for hand in world] for world in hands]

    @staticmethod
    def evaluate(state, side: int) -> float:
        """The static evaluation of ``state`` for ``side`` (what a playout stops on)."""
        from ... import _eval

        return _eval.evaluate_position(state.core, side)


@lru_cache(maxsize=64)
def _resolve(variant: str, players: int | None, teams: int | None) -> Rules:
    return Variant.parse(variant).resolve(players, teams)


SEQUENCE = SequenceGame()
