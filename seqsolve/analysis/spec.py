"""What an analysis is asked for: the search settings a bot spec names, and whether
a position can be analysed at all."""

from __future__ import annotations

from dataclasses import dataclass

from .results import AnalysisError

#: Iterations of an analysis when neither the caller nor the bot spec gives a budget.
DEFAULT_ITERATIONS = 50_000
#: Iterations per decision of an annotation.
DEFAULT_ANNOTATE_ITERATIONS = 4_000


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
    game=None,
) -> SearchSettings:
    """Parameters and budget from a ``mcts:...`` bot spec of ``game`` (default Sequence)
    and explicit budgets.

    An explicit ``iterations``/``seconds`` wins over the spec's ``iters``/``time``;
    with neither anywhere, ``default_iterations``.

    Raises:
        AnalysisError: the spec is not an ``mcts`` spec (or not a valid one).

    >>> s = search_settings("mcts:c=0.5", iterations=100)
    >>> s.iterations, s.seconds, s.params["c"]
    (100, 0.0, 0.5)
    """
    from ..bots import BotError, make_bot, parse_spec

    try:
        name, raw = parse_spec(bot)
        if name != "mcts":
            raise AnalysisError(f"analysis needs a search bot ('mcts' or 'mcts:key=value,...'), not {bot!r}")
        made = make_bot(bot, game)
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
        # a game whose cards are all listed is searched open by asking for it: only
        # Sequence's mcts has an ``open`` option as well
        return SearchSettings(
            dict(made.searcher().params), iterations, seconds, bot, bool(made.options.get("open", False))
        )
    finally:
        made.close()


def check_analyzable(state, open_information: bool = False) -> None:
    """Refuse what cannot be analysed, with one line saying why.

    Raises:
        AnalysisError: the game is over; the mover's cards are not all listed; or
            ``open_information`` is asked for while some cards are hidden.
    """
    if state.is_terminal():
        raise AnalysisError(f"the game is over (result {state.outcome().result}): there is nothing to analyze")
    seat = state.current_player
    hand = state.hand(seat)
    unknown = hand.count("?")
    if unknown:
        listed = "not listed" if unknown == len(hand) else f"not all listed ({unknown} unknown)"
        raise AnalysisError(f"seat {seat}'s cards are {listed}: analyze needs the cards of the side to move")
    if open_information and (hidden := state.hidden_cards()):
        raise AnalysisError(f"open analysis (--open) needs every card known, but {'; '.join(hidden)}")
