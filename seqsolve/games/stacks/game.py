"""Sequence Stacks as a :class:`~seqsolve.games.base.Game`: its rules, deals and
position files, reached by the runners the way they reach classic Sequence.

Pure Python at import: the compiled engine is loaded by the first method that deals,
reads or searches a game, and the position text module only by the methods that read
or write one.  What Stacks does not have (proofs for ``analyze``, a heatmap of a balance
point) is said here once: :class:`NotSupported`.
"""

from __future__ import annotations

from ..base import NotSupported
from .rules import PRESET, StacksRules, StacksVariant, make_rules, parse_option

#: Sequence Stacks seats 2 to 6 players, each playing for themselves (ST-1)
PLAYER_COUNTS = (2, 3, 4, 5, 6)


class StacksGame:
    """The card game Sequence Stacks (RULES.md §4)."""

    name = "stacks"
    #: its fastest bot that plays well: mcts does not beat it by much yet
    default_bot = "greedy"

    #: the one preset of RULES.md §4
    presets = (PRESET,)

    def parse_variant(self, text: str) -> StacksVariant:
        """The options ``text`` sets (§4.9), each value checked."""
        return StacksVariant.parse(text)

    @staticmethod
    def parse_option(name: str, text: str):
        """The value of option ``name`` (§4.9, or ``players``) written ``text``."""
        return parse_option(name, text)

    @staticmethod
    def default_teams(players: int) -> int:
        """Every player is a side of its own (ST-1)."""
        return players

    def seatings(self, preset: str) -> list[tuple[int, int]]:
        """2 to 6 players, no teams.

        >>> STACKS.seatings("stacks")
        [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
        """
        return [(players, players) for players in PLAYER_COUNTS]

    def rules(self, variant: str, players: int | None = None, teams: int | None = None) -> StacksRules:
        return make_rules(variant, players, teams)

    def new_initial_state(self, rules: StacksRules, seed=None):
        """A shuffled, dealt game (ST-5): the same seed deals the same cards."""
        from .state import StacksState

        return StacksState.new(rules, seed=seed)

    def read_position(self, text: str, source: str = "<string>", seed=None):
        """The state of a Stacks position file in either form (docs/stacks.md); without a
        seed, a recycled draw pile is unknown (ST-20)."""
        from .position_text import parse
        from .state import StacksState

        return StacksState.from_position(parse(text, source), seed=seed)

    #: the forms :meth:`write_position` writes: one line (STN), readable, JSON fields
    position_forms = ("stn", "readable", "json")

    def write_position(self, state, viewer: int | None = None, form: str = "stn") -> str:
        """The position file of ``state`` in ``form``, as ``viewer`` (if given) may see it;
        ``sqn``, the one-line form's name in classic, is the one-line form here too."""
        return state.to_text(form, viewer)

    def position_facts(self, state) -> dict:
        """Nothing beyond the position's fields (the piles are among them)."""
        return {}

    def render(
        self, state, viewer: int | None, legal: list[str] | None, color: bool, notes: list[str], last=()
    ) -> str:
        """The piles, each seat's hand, discards, chips and skip tokens, the shared stacks.

        ``last`` is not marked: Stacks has no board on which a move lands, and the piles
        and discard tops it changed are on the screen already (``play`` names the moves);
        the state's own last decision is a line of its own."""
        from .view import render_position

        seen = state if viewer is None else state.observation(viewer)
        return render_position(seen.to_position(), legal, notes)

    @staticmethod
    def side_name(side: str) -> str:
        """A side is a seat: ``'2'`` is ``'seat 2'``."""
        return f"seat {side}"

    @property
    def terminations(self) -> tuple[str, ...]:
        """ST-21 and ST-22's reasons (not ``recorded``, which only a position file read back has)."""
        from .state import Termination

        return tuple(t.name.lower() for t in Termination if t is not Termination.RECORDED)

    def tally(self, rules: StacksRules):
        """The balance analysis' count of one game (docs/balance-metrics.md, "Sequence Stacks")."""
        from .tally import StacksDetail

        return StacksDetail(rules)

    def plot_games(self, summary: dict, new_figure):
        raise NotSupported("Sequence Stacks has no board: a balance point has no heatmap")

    def loop(self, rules: StacksRules, choosers, detail=None):
        """The compiled loop that plays whole games between these bots (their
        ``Bot.loop_chooser(rules)``), or None when a bot has none or ``detail`` is not the
        game's own tally: the runner then plays them action by action."""
        from .loop import compiled_games

        return compiled_games(rules, choosers, detail)

    def tactics(self, view, open_information: bool):
        """The exact facts ``analyze`` ranks by and reports (:mod:`.threats`): decisions
        that win now (or win unless blocked, ST-15), every opponent's winning completions,
        the decisions that leave none, and each seat's threat summary (``threats``)."""
        from .threats import StacksTactics

        return StacksTactics(view)

    def prove_win(self, state, side: int, captain: int, plies: int, nodes: int, seconds: float, excluded=()):
        raise NotSupported("proofs of forced wins are searched in Sequence only, not in Sequence Stacks")

    def searcher(self, params: dict):
        """The compiled information-set MCTS of the Stacks ``mcts`` bot, driven by states."""
        return Searcher(params)

    def picture(self, state, viewer: int | None = None, marks=None) -> str:
        """The shared piles, each seat's hand, discard pile, chips and skip tokens, whose
        turn, any Block window and the last decision, as SVG (only what ``viewer`` sees)."""
        from .picture import position_svg

        return position_svg(_seen(state, viewer), marks)

    def move_targets(self, state, moves: list[str], viewer: int | None = None) -> list[dict]:
        """For each decision ``moves`` names, the card a person clicks in the hand and the
        element of :meth:`picture` they click next (``pile:0``, ``slot:b``, ``discard:1``,
        ``chip:1r``, ``special``; None for pass and end): ``seqsolve serve``'s clicks."""
        from .picture import decision_places

        return [{"card": d["card"], "cell": d["place"]} for d in decision_places(_seen(state, viewer), moves)]

    def picture_png(self, state, new_figure, viewer: int | None = None, marks=None) -> bytes:
        """The picture of :meth:`picture`, drawn by matplotlib as PNG bytes."""
        from .picture import position_png

        return position_png(_seen(state, viewer), new_figure, marks)

    @staticmethod
    def halt_searches(stop: bool = True) -> None:
        """Stop every Stacks search of the process at its next check (Ctrl-C), or let them run again."""
        from ... import _stacks_bots

        _stacks_bots.halt(stop)

    @staticmethod
    def bot_classes() -> dict:
        """The bots that play Stacks: its own (random, greedy, mcts: seqsolve/games/stacks/bots.py)
        and the external programs of the line protocol (``ext:``)."""
        from ..external import ExternalBot
        from .bots import bot_classes

        return {**bot_classes(), ExternalBot.name: ExternalBot}

    def __repr__(self) -> str:
        return "STACKS"

    def __reduce__(self):
        return "STACKS"  # one game object per process: pickles by name, to worker processes


def _seen(state, viewer: int | None):
    """The position as ``viewer`` (if given) may see it."""
    return (state if viewer is None else state.observation(viewer)).to_position()


class Searcher:
    """``_stacks_bots.StacksSearcher`` with states in and out, the contract of Sequence's
    searcher that the analysis drives.  A turn is many decisions, so the root ranks one
    decision (a play, a discard, a Block answer), and the line after it is in decisions."""

    def __init__(self, params: dict):
        from ... import _stacks_bots

        self._search = _stacks_bots.StacksSearcher(params)

    @property
    def params(self) -> dict:
        return self._search.params

    def search(
        self,
        state,
        viewer: int,
        bit_generator,
        iterations: int = 0,
        seconds: float = 0.0,
        open_information: int = 0,
    ) -> dict:
        """Grow the tree from ``state`` for ``viewer``, the seat deciding now.

        The search deals anew only the cards ``state`` does not list: an observation
        keeps the others' hands hidden, a whole state with every card listed is searched
        with open cards, so ``open_information`` asks nothing more of it."""
        return self._search.search(state.core, viewer, bit_generator, iterations=iterations, seconds=seconds)

    def root_stats(self, pv_length: int) -> list[dict]:
        return self._search.root_stats(pv_length)

    @staticmethod
    def evaluate(state, side: int) -> float:
        """What a playout cut off in ``state`` scores for ``side`` (a seat: every seat is a side)."""
        from ... import _stacks_bots

        return _stacks_bots.evaluate(state.core, side)


STACKS = StacksGame()
