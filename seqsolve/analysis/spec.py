"""What an analysis is asked for: the search settings a bot spec names, and whether
a position can be analysed at all."""

from __future__ import annotations

from dataclasses import dataclass

from .results import AnalysisError

#: Iterations of an analysis when neither the caller nor the bot spec gives a budget.
DEFAULT_ITERATIONS = 50_000
#: Iterations per decision of an annotation.
DEFAULT_ANNOTATE_ITERATIONS = 4_000
#: Worlds of a rollout analysis (every legal turn played out in each) when neither
#: the caller nor the bot spec gives a budget, and per decision of an annotation.
DEFAULT_WORLDS = 400
DEFAULT_ANNOTATE_WORLDS = 100


@dataclass(frozen=True)
class SearchSettings:
    """Search parameters (for ``_search.Searcher``) and the budget of each analysis."""

    params: dict
    iterations: int
    seconds: float
    spec: str
    open_information: bool = False
    #: a flat search's playouts (``{"depth": D}``: cut after D actions, 0 to the end):
    #: every legal turn is played out in each of ``iterations`` worlds; None: the tree search
    rollout: dict | None = None
    #: the temperature at which the last play of the seat before the mover weighs the
    #: worlds (the bots' ``infer``; 0: not weighed); used when the position records it (P-20)
    infer: float = 0.0


def search_settings(
    bot: str = "search",
    iterations: int | None = None,
    seconds: float | None = None,
    default_iterations: int = DEFAULT_ITERATIONS,
    game=None,
    rules=None,
    default_worlds: int = DEFAULT_WORLDS,
    evidence: bool = False,
) -> SearchSettings:
    """Parameters and budget from a bot spec of ``game`` (default Sequence) and explicit
    budgets, for a position played by ``rules`` (None: classic, 2 players).

    ``search`` (the default search) stands for the spec it plays in games of ``rules``
    (a game without it: ``mcts``).  An ``mcts`` spec grows a tree: an explicit
    ``iterations``/``seconds`` wins over the spec's ``iters``/``time``; with neither
    anywhere, ``default_iterations``.  A ``rollout`` spec plays every legal turn out
    in the same worlds: ``iterations`` counts the worlds (the spec's ``worlds`` when it
    gives them, else ``default_worlds``); its ``depth`` cuts the playouts.  ``evidence``:
    the position records the last play before the mover's turn (P-20), so that ``search``
    stands for the spec it plays in a game (``infer`` included: SearchBot.spec_for).

    Raises:
        AnalysisError: the spec is not an ``mcts``, ``rollout`` or ``search`` spec (or not a valid one).

    >>> s = search_settings("mcts:c=0.5", iterations=100)
    >>> s.iterations, s.seconds, s.params["c"]
    (100, 0.0, 0.5)
    >>> from seqsolve.games import rules_for
    >>> s = search_settings("search", rules=rules_for("classic", players=3))
    >>> s.spec, s.iterations, s.rollout
    ('rollout:depth=12', 400, {'depth': 12})
    """
    from ..bots import BotError, bot_classes, make_bot, parse_spec
    from ..games import rules_for

    try:
        searched = _python_search(bot, game)
        if searched is not None:
            name, raw, made = searched
            try:
                if rules is not None:
                    made.check_rules(rules)
            except BaseException:
                made.close()
                raise
            return _settings_of(
                name, raw, set(raw), made, bot, iterations, seconds, default_iterations, default_worlds
            )
        name, raw = parse_spec(bot)
        given = set(raw)  # the budget a spec names is the caller's: not the one ``search`` stands for
        if name == "search":
            made = make_bot(bot, game) if "search" in bot_classes(game) else None
            played = rules_for("classic", players=2) if rules is None else rules
            bot = "mcts" if made is None else made.spec_for(played, evidence=evidence)
            name, raw = parse_spec(bot)
        if name not in ("mcts", "rollout") or name not in bot_classes(game):
            known = " or ".join(repr(n) for n in ("search", "mcts", "rollout") if n in bot_classes(game))
            raise AnalysisError(f"analysis needs a search bot ({known}, key=value,... after it), not {bot!r}")
        made = make_bot(bot, game)
        if rules is not None:
            made.check_rules(rules)
    except BotError as exc:
        raise AnalysisError(str(exc)) from None
    return _settings_of(name, raw, given, made, bot, iterations, seconds, default_iterations, default_worlds)


def _python_search(bot: str, game):
    """``(name, raw parameters, search bot)`` when ``bot`` names a Python class (a file's,
    a module's, an entry point's) that is one of the game's searches, ``mcts`` or
    ``rollout``, by subclassing it; None for any other spec.

    Raises:
        AnalysisError: a Python class that is not a search (it plays, but ranks nothing).
    """
    from ..bots import BotError, bot_classes, make_bot, parse_spec
    from ..bots.classes import PythonBot, class_spec, entry_points

    classes = bot_classes(game)
    name = bot.strip().partition(":")[0]
    named = class_spec(bot)
    if name in classes or (named is None and name not in entry_points()):
        return None
    try:
        made = make_bot(bot, game)
    except BotError as exc:
        raise AnalysisError(str(exc)) from None
    if not isinstance(made, PythonBot):  # pragma: no cover - a built-in name is handled above
        made.close()
        return None
    for name in ("mcts", "rollout"):
        if name in classes and isinstance(made.inner, classes[name]):
            rest = named.rest if named is not None else bot.strip().partition(":")[2]
            return name, parse_spec(f"{name}:{rest}")[1], made.inner
    made.close()
    known = " or ".join(repr(n) for n in ("search", "mcts", "rollout") if n in classes)
    raise AnalysisError(
        f"analysis needs a search bot ({known}, or a Python class derived from mcts's or rollout's), "
        f"not {bot!r}: it plays in match, tournament, balance and play, but ranks no turns"
    )


def _settings_of(
    name: str, raw: dict, given: set, made, bot: str, iterations, seconds, default_iterations, default_worlds
) -> SearchSettings:
    """The settings of ``made``, a search bot of ``name`` (``mcts`` or ``rollout``) built
    from the spec ``bot`` whose parameter texts are ``raw`` (``given``: those the caller
    wrote, not those ``search`` stands for)."""
    if name == "rollout":
        try:
            return _rollout_settings(made, raw, given, iterations, seconds, default_worlds)
        finally:
            made.close()
    try:
        for key, flag, value in (("iters", "--iters", iterations), ("time", "--time", seconds)):
            if key in given and value is not None and value != made.options[key]:
                raise AnalysisError(
                    f"{bot}: {key}={_plain(made.options[key])} and {flag} {_plain(value)} both set the search's"
                    f" budget: give one of them"
                )
        if iterations is None and seconds is None:
            if "iters" in given or "time" in given:
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
            dict(made.searcher().params),
            iterations,
            seconds,
            bot,
            bool(made.options.get("open", False)),
            infer=float(made.options.get("infer", 0.0)),
        )
    finally:
        made.close()


def _rollout_settings(made, raw: dict, given: set, worlds, seconds, default_worlds: int) -> SearchSettings:
    """A flat search's settings: the evaluation weights, the playouts' cut and the worlds
    (``raw``: the spec's keys; ``given``: those the caller wrote)."""
    o = made.options
    if o["policy"] != "greedy" or o["halve"] or o["see"] != "none":
        raise AnalysisError(
            "a rollout analysis plays every legal turn out by greedy: policy, halve "
            "and see do not apply (--open sees every card)"
        )
    if worlds is None and seconds is None:
        if "worlds" in given or "time" in given:
            worlds, seconds = (0 if o["time"] and "worlds" not in given else o["worlds"]), o["time"]
        else:
            worlds = default_worlds
    worlds, seconds = int(worlds or 0), float(seconds or 0.0)
    if worlds < 0 or seconds < 0:
        raise AnalysisError("the search budget must not be negative")
    if worlds == 0 and seconds == 0:
        raise AnalysisError("give the search a budget: worlds or seconds (or both)")
    # the spec as the analysis plays it: every legal turn (no k), its own budget (no work)
    kept = [f"{key}={value}" for key, value in raw.items() if key not in ("k", "work", "worlds", "time")]
    played = "rollout" + (":" + ",".join(kept) if kept else "")
    return SearchSettings(
        made.searcher_params(),
        worlds,
        seconds,
        played,
        rollout={"depth": o["depth"]},
        infer=float(o["infer"]),
    )


def check_analyzable(state, open_information: bool = False) -> None:
    """Refuse what cannot be analysed, with one line saying why.

    Raises:
        AnalysisError: the game is over; the mover's cards are not all listed; or
            ``open_information`` is asked for while some cards are hidden.
    """
    if state.is_terminal():
        raise AnalysisError(
            f"the game is over (result {state.outcome().result}): there is nothing to analyze"
        )
    seat = state.current_player
    hand = state.hand(seat)
    unknown = hand.count("?")
    if unknown:
        listed = "not listed" if unknown == len(hand) else f"not all listed ({unknown} unknown)"
        raise AnalysisError(f"seat {seat}'s cards are {listed}: analyze needs the cards of the side to move")
    if open_information and (hidden := state.hidden_cards()):
        raise AnalysisError(f"open analysis (--open) needs every card known, but {'; '.join(hidden)}")


def _plain(value) -> str:
    """A budget as typed: ``200``, ``0.5``."""
    return f"{value:g}" if isinstance(value, float) else str(value)
