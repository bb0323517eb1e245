"""Annotation of a recorded game: replay it and analyse each decision of the chosen
seats from the mover's observation, marking mistakes and blunders by the drop of
the estimated win probability from the best turn to the one played."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..games import GameState, game_for
from ..play.records import Replay, result_text, turns
from .results import AnalysisError, is_proven
from .search import SearchThreads, analyze, records_last_play
from .spec import DEFAULT_ANNOTATE_ITERATIONS, DEFAULT_ANNOTATE_WORLDS, search_settings


def annotate_record(
    record: dict,
    *,
    seats: Iterable[int] | None = None,
    bot: str = "search",
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    jobs: int = 1,
    mistake: float = 0.1,
    blunder: float = 0.25,
    open_information: bool = False,
    progress: Callable[[int, int], None] | None = None,
    where: str = "game record",
    marked: Callable[[dict, GameState], None] | None = None,
) -> dict:
    """Analyse every decision of ``seats`` (default all) in a recorded game.

    The game is replayed from its record (rules from ``variant``/``players``/``teams``,
    the deal from its seed, stream and deal number).  Before each action of a chosen seat
    that had a choice, the position as that seat saw it is analysed with
    :func:`analyze` (one tree, the stream ``(ply, 0)`` of the root seed), so the
    result does not depend on ``jobs``, which only runs decisions side by side.
    A turn with a dead-card exchange is two decisions: exchange or not (the
    exchange is compared with the best whole turn), then the play after the
    replacement is known.  ``drop`` is the best turn's win estimate minus the
    played one's; above ``blunder`` it is a blunder, above ``mistake`` a mistake.
    ``marked`` is called with each marked decision and the view it was analysed in
    (what ``annotate --pictures`` draws).

    Returns:
        ``{"game", "variant", "players", "teams", "seats", "result", "termination",
        "search", "iterations", "seed", "thresholds", "decisions": [...], "summary": [...]}``
        (``search`` the spec searched; a ``rollout`` spec's ``iterations`` are worlds)
        (``result`` as recorded, ``result_text`` in words, ``turns`` the turns played);
        each decision holds ``ply`` (1-based index into the record's moves),
        ``turn``, ``seat``, ``side``, ``played``, ``win_played``, ``best``,
        ``win_best``, ``drop``, ``mark`` (None, "mistake" or "blunder"),
        ``visits_played``, ``exact`` (the best turn's exact tag), ``proof_best`` (the
        best turn's proven result, or None) and ``missed_win`` (N when the best turn
        wins by force in N turns and the turn played was not proven to win, else None).

    Raises:
        RecordError: a record that cannot be replayed (the message starts with ``where``).
        AnalysisError: bad seats or thresholds.
    """
    if not 0 <= mistake <= blunder:
        raise AnalysisError(f"thresholds must satisfy 0 <= mistake <= blunder (got {mistake} and {blunder})")
    game = Replay(record, where)
    state = game.state

    def settings_for(evidence: bool):
        return search_settings(
            bot,
            iterations,
            seconds,
            DEFAULT_ANNOTATE_ITERATIONS,
            game_for(str(state.rules.variant)),
            rules=state.rules,
            default_worlds=DEFAULT_ANNOTATE_WORLDS,
            evidence=evidence,
        )

    # a decision after another seat's play weighs the worlds by it, as analyze and the
    # bots in play do (``search`` then stands for its spec with ``infer``); the first
    # decision of a game has no last play to read
    settings, weighed = settings_for(False), settings_for(True)
    open_information = open_information or settings.open_information
    players = state.rules.players
    chosen = set(range(players)) if seats is None else set(seats)
    bad = sorted(s for s in chosen if not 0 <= s < players)
    if bad:
        raise AnalysisError(f"seat {bad[0]} does not exist in this game (seats 0..{players - 1})")
    jobs_list = []
    steps = []
    for step in game:
        steps.append(step)
        if step.seat in chosen and len(state.legal_actions()) > 1:
            view = state.clone() if open_information else state.observation(step.seat)
            jobs_list.append((step.ply, state.turn, step.seat, view, step.action))

    def one(job):
        ply, turn, seat, view, action = job
        analysis = analyze(
            view,
            settings=weighed if records_last_play(view, open_information) else settings,
            seed=seed,
            stream=(ply,),
            open_information=open_information,
            threats=False,
            depends=0,  # an annotation marks mistakes: what the hidden cards decide is not shown
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
        with SearchThreads(jobs, game_for(str(state.rules.variant))) as threads:
            for item in threads.map(one, jobs_list):
                results.append(item)
                done += 1
                if progress:
                    progress(done, len(jobs_list))

    decisions = []
    for ply, turn, seat, view, action, analysis in results:
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
        missed = None
        if is_proven(best, "win") and not (played is not None and is_proven(played, "win")):
            missed = best.proof.turns if best.proof is not None else 1
        decision = {
            "ply": ply,
            "turn": turn + 1,
            "seat": seat,
            "side": view.seats[seat],
            "played": view.action_to_string(action),
            "win_played": win_played,
            "visits_played": played.visits if played else 0,
            "best": best.move,
            "win_best": best.win,
            "exact": best.exact,
            "drop": drop,
            "mark": mark,
            "proof_best": None if best.proof is None else best.proof.to_dict(),
            "missed_win": missed,
        }
        decisions.append(decision)
        if mark and marked is not None:
            marked(decision, view)
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
        "turns": len(turns(steps)),
        "search": weighed.spec if not open_information else settings.spec,
        "iterations": settings.iterations,
        "seconds_budget": settings.seconds,
        "open": open_information,
        "seed": seed,
        "thresholds": {"mistake": mistake, "blunder": blunder},
        "decisions": decisions,
        "summary": summary,
    }
