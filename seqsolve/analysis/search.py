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
* **Proven results** (:mod:`.proof`): each turn that wins by force within a few
  turns whatever cards the others hold (``proof`` of the turn, ranked above every
  estimate, win exactly 1), and each turn after which an opposing side wins by force
  with cards the mover knows it holds (ranked below every estimate, win exactly 0).
  Every other win estimate, and its interval, is kept within
  [:data:`~.results.ESTIMATE_FLOOR`, :data:`~.results.ESTIMATE_CEILING`] (0.001 to
  0.999): an estimate cannot tell a certain result from a likely one, so only a
  proof (or a win at once) reads 1.000 or 0.000.
* **A threat summary for every side** (the game's, Sequence's ``SideThreats``): completed
  sequences, windows one and two cells from completion that can still become a
  sequence, which cards complete them and whether those cards are live, and the
  dead cards in each hand the analyst can see.

How the search is used
----------------------
The search is the game's :meth:`~seqsolve.games.base.Game.searcher`, for Sequence the
compiled information-set MCTS of :mod:`seqsolve._search` (the ``mcts`` bot's ``Searcher``;
an ``mcts:...`` spec after the position sets its parameters), for Sequence Stacks its
``mcts`` bot's ``StacksSearcher`` (:mod:`seqsolve._stacks_bots`), whose decisions are ranked
one by one (a turn is many decisions), its exact facts (:mod:`seqsolve.games.stacks.threats`)
first: a completion whose chip wins, then one that wins unless an opponent blocks it
(ST-15), then the decisions after which no opponent's winning completion is left.
Unless the analysis is *open* (every card listed and ``open_information``
asked for), the side to move searches its own observation: every iteration
deals the cards it cannot see at random among those it has not seen, so cards
in its hand and in the discard piles are never dealt elsewhere.

Root parallelism: ``jobs=J`` runs ``J`` independent trees on ``J`` threads (the
search releases the GIL), tree ``i`` seeded by the stream ``(*stream, i)`` of the root
seed (:mod:`seqsolve.play.seeds`), each with
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
import time
from collections.abc import Callable, Iterable
from typing import Self

import numpy as np

from ..games import game_for
from ..games.base import whole_turns
from ..games.exact import NoTactics, has_won, outcome_of, tactics_of, turn_wins, won_after
from ..stats import rate_interval
from .calibration import PlattMap, calibrate, platt_map_for
from .depends import DEPENDS_TOP, hidden_dependence
from .proof import DEFAULT_PROOF_TURNS, PROOF_SECONDS_CAP, prove_turns
from .results import (
    ESTIMATE_CEILING,
    ESTIMATE_FLOOR,
    Analysis,
    AnalysisError,
    Tactics,
    TurnStat,
    rank_proven,
    settle_estimates,
)
from .spec import SearchSettings, check_analyzable, search_settings


def _group_turns(view, actions: list[int]) -> list[str]:
    """Actions as whole turns: the decisions of a turn joined up to the one that ends it."""
    return whole_turns((view.action_to_string(a), view.ends_turn(a)) for a in actions)


class SearchThreads:
    """Searches side by side on threads, which Ctrl-C stops within a second.

    The signal reaches only the main thread, and only while it runs Python: it
    waits for each result in short steps, and when it leaves the ``with`` block by
    an exception, the game's :meth:`~seqsolve.games.base.Game.halt_searches` ends the running searches (instead
    of waiting for them to use up their budgets), items not yet begun are dropped,
    and the threads are waited for before searches may run again.  The threads
    are daemons, so even one whose start the signal cut short never holds up
    the exit.
    """

    POLL = 0.1  # seconds the main thread waits at a time

    def __init__(self, workers: int, game):
        self.workers = workers
        self.game = game
        self.threads: list[threading.Thread] = []
        self.stopping = False

    def __enter__(self) -> Self:
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
                except BaseException as exc:  # noqa: BLE001 - handed to the main thread
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
        if kind is not None:
            self.stopping = True
            self.game.halt_searches()
        for thread in self.threads:
            while thread.is_alive():
                thread.join(self.POLL)
        if kind is not None:
            self.game.halt_searches(False)  # not reached if a second Ctrl-C cut the wait: they stay halted


def _game(state):
    """The game that plays the state's variant: its searcher does the searching."""
    return game_for(str(state.rules.variant))


def _before_last_play(state, open_information: bool):
    """The state before the last play of the seat before the mover, when the position
    records it (P-20) and a search may read it (not with every card known); else None."""
    if open_information or state.is_terminal():
        return None
    before = getattr(state, "before_last_play", None)
    return before() if before is not None else None


def records_last_play(state, open_information: bool = False) -> bool:
    """Whether an analysis of ``state`` weighs its worlds by the last play before the
    mover's turn (P-20): the position records it and not every card is known.  A caller
    that builds its own :func:`search_settings` (``annotate``) passes this as their
    ``evidence``, so that it searches as :func:`analyze` and the bots in play do."""
    return _before_last_play(state, open_information) is not None


def _as_read(view):
    """``view`` as its position file reads back: the analysis then depends on what the
    position records (P-19, P-20 included), never on the order the engine happens to hold
    a hand or the draft in, so a game in play and its file read back analyse alike."""
    game = _game(view)
    if not hasattr(game, "read_position"):  # a game without position files keeps its view
        return view
    return game.read_position(game.write_position(view))


def _searcher(view, settings: SearchSettings, evidence):
    """A searcher of ``settings``, its worlds weighed by ``evidence`` (the state before
    the last play, and the temperature) as the bots' ``infer`` weighs them in a game."""
    searcher = _game(view).searcher(settings.params)
    if evidence is not None:
        before, temperature = evidence
        searcher.set_evidence(before, view, temperature)
    return searcher


def _search_tree(
    view,
    viewer: int,
    settings: SearchSettings,
    seed,
    iterations: int,
    open_information: bool,
    pv_length: int,
    evidence=None,
):
    searcher = _searcher(view, settings, evidence)
    result = searcher.search(
        view,
        viewer,
        np.random.PCG64(seed),
        iterations=iterations,
        seconds=settings.seconds,
        open_information=int(open_information),
    )
    return result, searcher.root_stats(pv_length)


def _side_by_side(search: Callable, view, viewer, settings, seed, stream, jobs: int, *rest) -> list:
    """``search(view, viewer, settings, seed_i, budget_i, *rest)`` for ``i`` in ``range(jobs)``,
    each on its own copy of ``view`` and thread (one job: this thread): seeded by the
    stream ``(*stream, i)`` of ``seed``, with its share of ``settings.iterations``."""
    from ..play.seeds import stream_seed

    budgets = [
        settings.iterations // jobs + (1 if i < settings.iterations % jobs else 0) for i in range(jobs)
    ]
    if settings.iterations and settings.seconds == 0:
        budgets = [max(1, b) for b in budgets]
    args = [
        (view.clone(), viewer, settings, stream_seed(seed, (*stream, i)), budgets[i], *rest)
        for i in range(jobs)
    ]
    if jobs == 1:
        return [search(*args[0])]
    with SearchThreads(jobs, _game(view)) as threads:
        return list(threads.map(lambda a: search(*a), args))


def _run_search(view, viewer, settings, seed, stream, jobs, open_information, pv_length, evidence=None):
    """Root-parallel search: ``jobs`` trees, merged by root action."""
    results = _side_by_side(
        _search_tree, view, viewer, settings, seed, stream, jobs, open_information, pv_length, evidence
    )
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


#: worlds a timed rollout analysis plays between looks at the clock
_ROLLOUT_BATCH = 8


def _play_out(
    view, viewer, settings, seed, worlds: int, legal: list[int], open_information: bool, evidence=None
):
    """One thread's share of a rollout analysis: the worlds played and each legal action's
    summed result; with ``settings.seconds``, batches until they are spent (``worlds``
    then the most, 0: no most)."""
    searcher = _searcher(view, settings, evidence)
    rng = np.random.PCG64(seed)
    sums = [0.0] * len(legal)
    played, started = 0, time.perf_counter()
    while True:
        batch = worlds - played
        if settings.seconds:
            batch = _ROLLOUT_BATCH if not worlds else min(_ROLLOUT_BATCH, batch)
        if batch <= 0:
            break
        means = searcher.rollout_values(
            view, viewer, rng, legal, batch, int(open_information), settings.rollout["depth"]
        )
        sums = [s + m * batch for s, m in zip(sums, means)]
        played += batch
        if not settings.seconds or time.perf_counter() - started >= settings.seconds:
            break
    return played, sums, time.perf_counter() - started


def _run_rollouts(view, viewer, settings, seed, stream, jobs, open_information, evidence=None):
    """A flat search over every legal action: each played out in the same worlds, the
    worlds shared among ``jobs`` threads, thread ``i`` on the stream ``(*stream, i)``.
    A turn's visits are the worlds it was played in, all the same."""
    legal = view.legal_actions()
    results = _side_by_side(
        _play_out, view, viewer, settings, seed, stream, jobs, legal, open_information, evidence
    )
    worlds = sum(r[0] for r in results)
    sums = [sum(r[1][i] for r in results) for i in range(len(legal))]
    merged = {
        a: {"visits": worlds, "value_sum": sums[i], "pv": [a], "best": worlds} for i, a in enumerate(legal)
    }
    value = max(sums) / worlds if worlds else None
    return merged, worlds, max(r[2] for r in results), value


def _continuation(view, first: int, pv: list[int]) -> tuple[int, ...]:
    """The whole turn that starts with the exchange ``first``: the exchange(s) then the play
    the tree prefers, if the mover can already name it (see the module docstring)."""
    turn = [first]
    for a in pv[1:]:
        turn.append(a)
        if view.ends_turn(a):
            break
    else:
        return (first,)
    while len(turn) > 1 and outcome_of(view, turn) is None:
        turn.pop()  # the play needs the unknown replacement: name the exchange only
    return tuple(turn)


def analyze(
    state,
    *,
    bot: str = "search",
    iterations: int | None = None,
    seconds: float | None = None,
    settings: SearchSettings | None = None,
    seed: int = 0,
    stream: tuple = (),
    jobs: int = 1,
    open_information: bool = False,
    pv_length: int = 8,
    threats: bool = True,
    prove: int = DEFAULT_PROOF_TURNS,
    depends: int = DEPENDS_TOP,
) -> Analysis:
    """Analyse the turn of the side to move in ``state``.

    Args:
        state: a :class:`~seqsolve.games.base.GameState` whose mover's hand is known; other
            cards may be unknown, of a game with a :meth:`~seqsolve.games.base.Game.searcher`.  Unless ``open_information``, only what the mover
            may see is used (``state.observation(mover)``).
        bot: the search: ``search`` (the default search of the position's number of
            sides), an ``mcts`` spec (a tree) or a ``rollout`` spec (every legal
            action played out in the same worlds; see ``seqsolve bots``).
        iterations, seconds: the search budget (total over the trees or threads):
            iterations of a tree, worlds of a rollout search; default
            :data:`DEFAULT_ITERATIONS` (:data:`DEFAULT_WORLDS`) unless the bot spec gives one.
        settings: ready-made :func:`search_settings` (then ``bot`` and the budget are ignored).
        seed: the root seed; tree ``i`` draws from its stream ``(*stream, i)``.
        stream: the key prefix of this analysis under ``seed`` (annotate: the decision's ply).
        jobs: independent root-parallel trees, one thread each.
        open_information: search with every card known (the state must list them all).
        pv_length: actions in each principal variation (before joining into turns).
        threats: compute the per-side threat summary.
        prove: turns of the proof search (:mod:`seqsolve.analysis.proof`): each turn that
            wins by force within this many turns of the mover's side, or after which an
            opposing side wins by force within as many of its turns, says so and is
            ranked first (last); 0: no proofs.
        depends: the best turns (not proven) whose outcome is split by the opponents'
            hidden holdings over dealt worlds, and whose winning draws are listed
            (:mod:`seqsolve.analysis.depends`); 0: none.

    Returns:
        The :class:`Analysis`; ``moves`` holds every legal turn, best first.

    Raises:
        AnalysisError: what :func:`check_analyzable` refuses, or a bad bot spec or budget.
        NotSupported: the game has no search (a game without tactics is analysed without
            exact facts, each legal decision ranked on its own).

    >>> from seqsolve.cli.position import load_position
    >>> a = analyze(load_position("example:2", seed=1), iterations=500, seed=1)
    >>> a.to_move, a.iterations, len(a.moves) == len(set(m.move for m in a.moves))
    (1, 500, True)
    """
    before = _before_last_play(state, open_information)
    settings_given = settings
    settings = settings or search_settings(
        bot, iterations, seconds, game=_game(state), rules=state.rules, evidence=before is not None
    )
    if jobs < 1:
        raise AnalysisError("jobs must be at least 1")
    if isinstance(depends, bool) or not isinstance(depends, int) or depends < 0:
        raise AnalysisError(f"depends must be a whole number of turns, at least 0, not {depends!r}")
    open_information = open_information or settings.open_information
    check_analyzable(state, open_information)
    mover = state.current_player
    view = state.clone() if open_information else _as_read(state.observation(mover))
    evidence = (
        (before, settings.infer)
        if before is not None and settings.infer > 0 and not open_information
        else None
    )
    side = view.side_of(mover)
    legal = view.legal_actions()
    game = _game(view)
    exact = tactics_of(game, view, open_information)
    # rank a turn's first decisions as whole turns (Sequence), or each decision on its own
    # (Stacks, a game without tactics); whether the opponents' wins are looked for at all
    whole = getattr(exact, "whole_turns", not isinstance(exact, NoTactics))
    looked = getattr(exact, "looked", whole)
    wins_now = getattr(exact, "wins_now", None)  # a game whose win at once is not the end of the game

    # exact facts first: they do not depend on the search
    threatened = [t for t in exact.opponent_wins(view, side) if t["possible"]]

    merged, done, seconds_used, value = {}, 0, 0.0, None
    if len(legal) > 1:
        if settings.rollout is not None:
            merged, done, seconds_used, value = _run_rollouts(
                view, mover, settings, seed, stream, jobs, open_information, evidence
            )
        else:
            merged, done, seconds_used, value = _run_search(
                view, mover, settings, seed, stream, jobs, open_information, pv_length, evidence
            )
    elif legal:
        value = game.searcher(settings.params).evaluate(view, side)
    total = sum(m["visits"] for m in merged.values())

    def blocks(turn: tuple[int, ...]) -> bool | None:
        after = outcome_of(view, turn)
        if after is None:
            return None
        if after.is_terminal():
            return has_won(after, side)
        if whole and not view.ends_turn(turn[-1]):
            return None  # the play after the exchange is not known yet
        return not any(t["possible"] for t in exact.opponent_wins(after, side))

    def stat_of(turn: tuple[int, ...], m: dict | None) -> TurnStat:
        visits = m["visits"] if m else 0
        win, ci = None, None
        if visits:
            win = m["value_sum"] / visits
            _, low, high = rate_interval(min(max(m["value_sum"], 0.0), visits), visits)
            ci = (low, high)
        text = " ".join(view.action_to_string(x) for x in turn)
        pv = _group_turns(view, list(m["pv"])) if m else []
        if not pv or not (pv[0] == text or pv[0].startswith(text + " ")):
            pv = [text]  # no tree line, or the turn is not the tree's own choice
        stat = TurnStat(text, turn, visits, visits / total if total else 0.0, win, ci, pv)
        now = "win" if turn_wins(view, turn, side) else wins_now(view, turn, side) if wins_now else None
        if now == "win":
            stat.exact, stat.win, stat.win_ci = "win", 1.0, (1.0, 1.0)
        elif now is not None:
            stat.exact = now  # Stacks: a completion whose chip wins unless an opponent blocks it
        if threatened:
            stat.block = blocks(turn)
        return stat

    def rank(s: TurnStat):
        return (
            s.exact != "win",
            s.exact != "win_unless_blocked",
            not (threatened and s.block),
            -s.visits,
            -(s.win if s.win is not None else -1.0),
            s.move,
        )

    plays = sorted((stat_of((a,), merged.get(a)) for a in legal if view.ends_turn(a) or not whole), key=rank)
    if len(legal) == 1 and plays and plays[0].win is None:
        plays[0].share, plays[0].win = 1.0, value
    anchored: dict[int, list[TurnStat]] = {}
    exchange_wins, free = [], []
    for a in legal:
        if view.ends_turn(a) or not whole:
            continue
        m = merged.get(a)
        after = outcome_of(view, (a,))
        follow = set(after.legal_actions())
        held = [p for p in plays if p.actions[0] in follow]
        drawn = [b for b in follow if b not in set(legal) and exact.is_known_play(after, b)]
        winning = [p.actions[0] for p in held if p.exact == "win"] + [
            b for b in drawn if won_after(after, b, side)
        ]
        if winning:
            exchange_wins.append(stat_of((a, winning[0]), m))
            continue
        chance = exact.replacement_wins(a, side)
        passes = [p for p in held if exact.is_pass(p.actions[0])]
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
    if whole and prove > 0 and len(stats) > 0:
        found = prove_turns(
            view, [s.actions for s in stats], max_turns=prove, seconds=settings.seconds or PROOF_SECONDS_CAP
        )
        for s in stats:
            s.proof = found.proofs.get(s.actions)
        stats = rank_proven(stats)
    settle_estimates(stats)
    calibration = None
    if settings_given is None and bot == "search" and iterations is None and seconds is None:
        calibration = _calibration_for(state.rules, evidence is not None, open_information)
    if calibration is not None:
        calibrate(stats, calibration)
    if whole and depends > 0:
        from ..play.seeds import stream_seed

        hidden_dependence(
            game,
            view,
            exact,
            stats,
            settings,
            stream_seed(seed, (*stream, "depends")),
            top=depends,
            max_turns=prove,
        )
    if stats and stats[0].proof is not None and stats[0].proof.result == "win":
        value = 1.0
    elif stats and all(s.proof is not None and s.proof.result == "loss" for s in stats):
        value = 0.0
    elif value is not None and not math.isnan(value):
        value = min(max(value, ESTIMATE_FLOOR), ESTIMATE_CEILING)
        if calibration is not None:
            value = calibration(value)
    win_list = [s.move for s in stats if s.exact == "win"]
    block_list = [
        s.move for s in stats if threatened and s.block and s.exact not in ("win", "win_unless_blocked")
    ]
    threats_now = exact.opponent_wins(view, side)
    unless = [s.move for s in stats if s.exact == "win_unless_blocked"]
    tactics = Tactics(
        win_in_one=win_list,
        threats=threats_now,
        blocks=block_list,
        no_block=bool(threatened) and not block_list and not win_list,
        notes=[exact.describe(t) for t in threats_now],
        looked=looked,
        unless_blocked=unless if wins_now else None,
        decisions=not whole,
    )
    rules = state.rules
    return Analysis(
        position=game.write_position(view),
        variant=str(rules.variant),
        players=rules.players,
        teams=rules.teams,
        to_move=mover,
        side=view.sides[side],
        turn=view.turn,
        open_information=open_information,
        seed=seed,
        jobs=jobs,
        iterations=done,
        seconds=seconds_used,
        moves=stats,
        tactics=tactics,
        threats=exact.summary() if threats else None,
        value=_nan_to_none(value),
        search=settings.spec,
        calibration=calibration,
    )


def _calibration_for(rules, weighed: bool, open_information: bool) -> PlattMap | None:
    """The calibration map of the default analysis of a position of ``rules`` (its worlds
    ``weighed`` by the last play or not), None with every card known or no map fitted."""
    if open_information:
        return None
    teams = rules.teams or rules.players
    return platt_map_for(str(rules.variant), rules.players, teams, weighed)


def _nan_to_none(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x
