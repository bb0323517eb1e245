"""Are the win chances that ``analyze`` prints true?  Positions from games of the default
search against itself, the estimate of the turn actually played scored against how
that game ended.

For a preset, games ``0..N-1`` of ``match search search`` (seed ``--seed``) are played and
kept in ``CACHE/PRESET-sSEED.jsonl``.  From each game up to ``--per-game`` decisions are
drawn (a seat with more than one legal action), one from each equal stretch of the game,
so the sample covers opening, middle and end and no two come from the same moment.
Each is analysed as the mover saw it (its observation), by :func:`seqsolve.analysis.analyze`
at its defaults (what ``seqsolve analyze`` does), tree seed ``--seed`` and stream
``(game, ply)``; the win chance of the turn played is the estimate (proofs exact, other
estimates within 0.001-0.999, through the calibration map of
:mod:`seqsolve.analysis.calibration` where one is fitted; the search's own estimate is
kept beside as ``raw``), the outcome 1 when the
mover's side won the game, 0 when it lost, 1/sides for a draw.  The games are played by
the default search from that position on, so this checks the claim an estimate makes.
Analyses are cached in ``CACHE/PRESET-sSEED-analyses.jsonl``: a second run with more
games only analyses the new positions.  A cached analysis made under another calibration
map than today's is brought to today's from its raw estimate (the map acts after the
search, on the unproven estimate alone, so that is what ``analyze`` now prints).  When a
map was applied, the figures of the search's own estimates on the same positions are
reported beside, with the difference of the two Brier scores.

Figures: Brier score of the estimates and of the constant base rate (the mean outcome),
with 95% intervals from a bootstrap over games (positions of one game are not
independent); the logistic calibration fit ``outcome ~ a + b * logit(estimate)``
(slope ``b`` 1 and intercept ``a`` 0 when calibrated; ``b`` below 1 means estimates too
extreme, above 1 too timid), with bootstrap intervals; a reliability diagram (PNG).

With ``--replaced`` the same positions are also analysed as the default analysis did
before proofs and the last play were read (:data:`REPLACED`; cached in
``CACHE/PRESET-sSEED-replaced.jsonl``), and its figures are reported beside, with the
difference of the two Brier scores over the same positions (bootstrap over games).

With ``--fit-seed S2 [S3 ...]`` the script also fits a Platt map (``logit p' = a + b logit
p``, on unproven raw estimates; increasing, so it keeps the order of the turns) on the
positions of those seeds, one for the positions whose worlds the last play weighed and one
for the others (a group of fewer than :data:`FIT_AT_LEAST` unproven positions gets none),
prints its coefficients (what :data:`seqsolve.analysis.calibration.PLATT_MAPS` holds) and
reports the figures of the mapped raw estimates on those of ``--seed`` (held out: other
games, other positions).

    python benchmarks/calibration.py --preset classic-2p --games 60 --seed 3 4 --jobs 2 \\
        --replaced --png docs/calibration-classic-2p.png
    python benchmarks/calibration.py --preset classic-2p --games 60 --seed 3 4 --fit-seed 1 2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

#: preset name -> (variant, players, teams)
PRESETS = {
    "classic-2p": ("classic", 2, None),
    "draft-2p": ("draft", 2, None),
    "classic-4p-teams": ("classic", 4, 2),
}

#: what the default analysis was before the proofs and the last play came in (CHANGELOG 2026-12-02 to 2026-12-06):
#: ``search`` at the same budget, but no proof search (a turn read 1 only when it won at
#: once) and the worlds not weighed by the last play (a position recorded none, so
#: ``search`` stood for its spec without ``infer``).  Its estimates were not kept within
#: 0.001-0.999 either; that changes no figure here (the logit clips them as much).
REPLACED = "no proofs, last play not weighed"

#: estimates are clipped this far from 0 and 1 before their logit (proofs read 0 and 1)
LOGIT_EDGE = 1e-3


# ---- scoring ---------------------------------------------------------------------------


def brier(p, y) -> float:
    """Mean squared difference of the estimates ``p`` and outcomes ``y`` (0 is perfect;
    the constant 0.5 scores 0.25 on any outcomes)."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    return float(np.mean((p - y) ** 2))


def logit(p) -> np.ndarray:
    p = np.clip(np.asarray(p, float), LOGIT_EDGE, 1 - LOGIT_EDGE)
    return np.log(p / (1 - p))


def logistic_fit(x, y, iterations: int = 50) -> tuple[float, float]:
    """Intercept and slope of the logistic regression ``y ~ a + b x`` by Newton's method
    (``y`` may be fractional, a draw's 1/sides); a small ridge keeps a separable sample finite."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    design = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    ridge = 1e-6 * np.eye(2)
    for _ in range(iterations):
        mu = 1 / (1 + np.exp(-(design @ beta)))
        w = np.maximum(mu * (1 - mu), 1e-12)
        gradient = design.T @ (y - mu) - ridge @ beta
        hessian = design.T @ (design * w[:, None]) + ridge
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(beta[0]), float(beta[1])


def calibration_slope(p, y) -> tuple[float, float]:
    """(intercept, slope) of ``outcome ~ logit(estimate)``."""
    return logistic_fit(logit(p), y)


def platt_map(a: float, b: float):
    """The recalibration ``p -> sigmoid(a + b logit p)``: monotone increasing when ``b > 0``,
    so it keeps the order of the turns; 0 and 1 (proofs) are kept exactly."""

    def apply(p):
        p = np.asarray(p, float)
        mapped = 1 / (1 + np.exp(-(a + b * logit(p))))
        return np.where((p == 0) | (p == 1), p, mapped)

    return apply


def reliability(p, y, bins: int = 10) -> list[dict]:
    """Per equal-width bin of the estimate: count, mean estimate, mean outcome."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    index = np.minimum((p * bins).astype(int), bins - 1)
    rows = []
    for b in range(bins):
        chosen = index == b
        if chosen.any():
            rows.append(
                {
                    "bin": b,
                    "n": int(chosen.sum()),
                    "estimate": float(p[chosen].mean()),
                    "outcome": float(y[chosen].mean()),
                }
            )
    return rows


def bootstrap(rows: list[dict], statistic, draws: int = 1000, seed: int = 0) -> tuple[float, float]:
    """95% percentile interval of ``statistic(p, y)`` over resamples of whole games."""
    games = sorted({r["game"] for r in rows})
    by_game = {g: [r for r in rows if r["game"] == g] for g in games}
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(draws):
        picked = [r for g in rng.choice(games, len(games)) for r in by_game[g]]
        values.append(
            statistic(np.array([r["win"] for r in picked]), np.array([r["outcome"] for r in picked]))
        )
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def figures(rows: list[dict], draws: int = 1000, seed: int = 0) -> dict:
    """Every figure of the report for the positions ``rows`` (``game``, ``win``, ``outcome``)."""
    p = np.array([r["win"] for r in rows])
    y = np.array([r["outcome"] for r in rows])

    def base(p_, y_):
        return brier(np.full_like(p_, y_.mean()), y_)

    a, b = calibration_slope(p, y)
    return {
        "positions": len(rows),
        "games": len({r["game"] for r in rows}),
        "mean_estimate": float(p.mean()),
        "mean_outcome": float(y.mean()),
        "brier": brier(p, y),
        "brier_ci": bootstrap(rows, brier, draws, seed),
        "brier_base": base(p, y),
        "brier_base_ci": bootstrap(rows, base, draws, seed),
        "brier_gain_ci": bootstrap(rows, lambda p_, y_: base(p_, y_) - brier(p_, y_), draws, seed),
        "intercept": a,
        "slope": b,
        "intercept_ci": bootstrap(rows, lambda p_, y_: calibration_slope(p_, y_)[0], draws, seed),
        "slope_ci": bootstrap(rows, lambda p_, y_: calibration_slope(p_, y_)[1], draws, seed),
        "reliability": reliability(p, y),
    }


# ---- positions -------------------------------------------------------------------------


def config_of(preset: str, seed: int):
    from seqsolve.play.config import MatchConfig

    variant, players, teams = PRESETS[preset]
    return MatchConfig(bots=("search", "search"), variant=variant, players=players, teams=teams, seed=seed)


def chosen_plies(record: dict, per_game: int, seed: int) -> list[int]:
    """Up to ``per_game`` decision plies of the game, one drawn from each equal stretch
    of its decisions (seeded by the match seed and game number)."""
    from seqsolve.play.records.replay import Replay

    game = Replay(record)
    state = game.state
    eligible = [step.ply for step in game if len(state.legal_actions()) > 1]
    rng = np.random.default_rng([seed, record["game"], 7])
    stretches = np.array_split(np.array(eligible), min(per_game, len(eligible)))
    return [int(rng.choice(s)) for s in stretches if len(s)]


def analyse_position(record: dict, ply: int, seed: int, replaced: bool = False, bot: str = "search") -> dict:
    """The default analysis of decision ``ply`` as its mover saw it (``replaced``: the one
    it replaced, :data:`REPLACED`; ``bot``: another search, at the analysis's default
    budget unless its spec names one), and how the game ended for the mover's side."""
    from seqsolve.analysis.search import analyze, records_last_play
    from seqsolve.analysis.spec import search_settings
    from seqsolve.play.records.replay import Replay

    game = Replay(record)
    state = game.state
    for step in game:
        if step.ply == ply:
            break
    view = state.observation(step.seat)
    if replaced:
        settings = search_settings("search", rules=view.rules, evidence=False)
        analysis = analyze(
            view,
            settings=settings,
            seed=seed,
            stream=(record["game"], ply),
            threats=False,
            prove=0,
            depends=0,
        )
    else:
        analysis = analyze(view, bot=bot, seed=seed, stream=(record["game"], ply), threats=False)
    played = next((m for m in analysis.moves if m.actions[0] == step.action), None)
    side = state.sides.index(state.seats[step.seat])
    sides = len(state.sides)
    outcome = 1 / sides if record["winner_side"] is None else float(record["winner_side"] == side)
    weighed = (
        not replaced
        and records_last_play(view)
        and search_settings(bot, rules=view.rules, evidence=True).infer > 0
    )
    return {
        "game": record["game"],
        "ply": ply,
        "plies": record["plies"],
        "win": None if played is None else played.win,
        "raw": None if played is None else (played.win if played.raw_win is None else played.raw_win),
        "proven": played is not None and (played.proof is not None or played.exact == "win"),
        "outcome": outcome,
        "search": analysis.search,
        "weighed": bool(weighed),
        "calibration": None if analysis.calibration is None else analysis.calibration.to_dict(),
    }


def current_map(preset: str, row: dict, bot: str = "search"):
    """The calibration map ``analyze`` applies today to the position of ``row`` (None: none)."""
    from seqsolve.analysis.calibration import platt_map_for

    if bot != "search":
        return None
    variant, players, teams = PRESETS[preset]
    return platt_map_for(variant, players, teams or players, row.get("weighed", False))


def as_printed_now(preset: str, row: dict, bot: str = "search") -> dict:
    """``row`` with the estimate ``analyze`` prints today: a cached analysis made under
    another calibration map (or none) is brought to today's from its raw estimate; the map
    acts after the search, on the unproven estimate alone, so this is what ``analyze`` prints."""
    mapping = current_map(preset, row, bot)
    now = None if mapping is None else mapping.to_dict()
    if row.get("calibration") == now or row["win"] is None:
        return row
    win = row["raw"] if row["proven"] or mapping is None else mapping(row["raw"])
    return {**row, "win": win, "calibration": now}


def cache_name(preset: str, seed: int, replaced: bool = False, bot: str = "search") -> str:
    """The cache file of the analyses of one preset and seed, by which analysis made them."""
    if replaced:
        return f"{preset}-s{seed}-replaced.jsonl"
    if bot == "search":
        return f"{preset}-s{seed}-analyses.jsonl"
    return f"{preset}-s{seed}-" + "".join(c if c.isalnum() else "_" for c in bot) + ".jsonl"


def positions(
    preset: str,
    games: int,
    per_game: int,
    seed: int,
    jobs: int,
    cache: Path,
    replaced: bool = False,
    bot: str = "search",
) -> list[dict]:
    """The analysed positions of games ``0..games-1``, from the cache where they are there
    (``replaced``: by the analysis the default replaced)."""
    from joblib import Parallel, delayed

    from seqsolve.play.match import run_games

    cache.mkdir(parents=True, exist_ok=True)
    records = run_games(config_of(preset, seed), games, jobs=jobs, out=str(cache / f"{preset}-s{seed}.jsonl"))
    done_path = cache / cache_name(preset, seed, replaced, bot)
    done = {}
    if done_path.exists():
        for line in done_path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[(row["game"], row["ply"])] = row
    wanted = [(r, ply) for r in records for ply in chosen_plies(r, per_game, seed)]
    todo = [(r, ply) for r, ply in wanted if (r["game"], ply) not in done]
    if todo:
        with done_path.open("a") as out:
            for row in Parallel(n_jobs=jobs, return_as="generator")(
                delayed(analyse_position)(r, ply, seed, replaced, bot) for r, ply in todo
            ):
                done[(row["game"], row["ply"])] = row
                out.write(json.dumps(row) + "\n")
                out.flush()
    kept = [done[(r["game"], ply)] for r, ply in wanted if done[(r["game"], ply)]["win"] is not None]
    return kept if replaced else [as_printed_now(preset, r, bot) for r in kept]


def pooled(
    preset: str,
    games: int,
    per_game: int,
    seeds: list[int],
    jobs: int,
    cache: Path,
    replaced: bool = False,
    bot: str = "search",
) -> list[dict]:
    """The positions of several seeds together, each game named by its seed and number
    (the bootstrap resamples games)."""
    return [
        {**r, "game": f"{s}:{r['game']}"}
        for s in seeds
        for r in positions(preset, games, per_game, s, jobs, cache, replaced, bot)
    ]


def paired(rows: list[dict], others: list[dict]) -> tuple[list[dict], list[dict]]:
    """The positions both analyses rated (the turn played found in both), in one order."""
    by_key = {(r["game"], r["ply"]): r for r in others}
    kept = [r for r in rows if (r["game"], r["ply"]) in by_key]
    return kept, [by_key[(r["game"], r["ply"])] for r in kept]


def brier_difference(rows: list[dict], others: list[dict], draws: int = 1000, seed: int = 0) -> dict:
    """Brier of ``rows`` minus Brier of ``others`` (the same positions, :func:`paired`),
    with its 95% interval over resamples of whole games: below 0 when ``rows`` is better."""
    rows, others = paired(rows, others)
    joined = [{**r, "other": o["win"]} for r, o in zip(rows, others, strict=True)]
    games = sorted({r["game"] for r in joined})
    by_game = {g: [r for r in joined if r["game"] == g] for g in games}

    def difference(picked):
        y = np.array([r["outcome"] for r in picked])
        return brier([r["win"] for r in picked], y) - brier([r["other"] for r in picked], y)

    rng = np.random.default_rng(seed)
    values = [
        difference([r for g in rng.choice(games, len(games)) for r in by_game[g]]) for _ in range(draws)
    ]
    return {
        "positions": len(joined),
        "difference": difference(joined),
        "difference_ci": (float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))),
    }


# ---- report ----------------------------------------------------------------------------


def diagram(path: str, title: str, curves: list[tuple[str, list[dict]]]) -> None:
    import matplotlib

    from seqsolve.play.records.outputs import write_figure

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="calibrated")
    for label, bins in curves:
        ax.plot([b["estimate"] for b in bins], [b["outcome"] for b in bins], marker="o", label=label)
        for b in bins:
            ax.annotate(
                str(b["n"]),
                (b["estimate"], b["outcome"]),
                fontsize=7,
                xytext=(3, -8),
                textcoords="offset points",
            )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("estimated win chance of the turn played (bin mean)")
    ax.set_ylabel("share of those games the mover's side won")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    try:
        write_figure(fig, path)
    finally:
        plt.close(fig)


def line(name: str, f: dict) -> str:
    return (
        f"{name}: {f['positions']} positions from {f['games']} games; mean estimate {f['mean_estimate']:.3f}, "
        f"mover won {f['mean_outcome']:.3f}; Brier {f['brier']:.3f} [{f['brier_ci'][0]:.3f}, {f['brier_ci'][1]:.3f}] "
        f"vs constant {f['brier_base']:.3f} [{f['brier_base_ci'][0]:.3f}, {f['brier_base_ci'][1]:.3f}], "
        f"gain [{f['brier_gain_ci'][0]:.3f}, {f['brier_gain_ci'][1]:.3f}]; "
        f"slope {f['slope']:.2f} [{f['slope_ci'][0]:.2f}, {f['slope_ci'][1]:.2f}], "
        f"intercept {f['intercept']:.2f} [{f['intercept_ci'][0]:.2f}, {f['intercept_ci'][1]:.2f}]"
    )


def printed(rows: list[dict], calibration: dict[bool, tuple[float, float]]) -> list[dict]:
    """The rows with each unproven raw estimate (the search's own) through the Platt map of
    its group (``calibration``: worlds weighed by the last play or not -> ``(a, b)``; a
    group without one keeps its raw estimate) and kept within 0.001-0.999, as ``analyze``
    would print it with that map; a proof stays 1 or 0."""
    from seqsolve.analysis.results import ESTIMATE_CEILING, ESTIMATE_FLOOR

    def shown(r):
        fitted = calibration.get(r.get("weighed", False))
        if r["proven"] or fitted is None:
            return r["raw"]
        return min(max(float(platt_map(*fitted)(r["raw"])), ESTIMATE_FLOOR), ESTIMATE_CEILING)

    return [{**r, "win": shown(r)} for r in rows]


def unmapped(rows: list[dict]) -> list[dict]:
    """The rows with the search's own estimates, as before any calibration map."""
    return [{**r, "win": r["raw"]} for r in rows]


#: a group of positions (worlds weighed by the last play, or not) with fewer unproven
#: estimates than this gets no map: too few to fit two coefficients on
FIT_AT_LEAST = 100


def platt_fit(rows: list[dict]) -> dict[bool, tuple[float, float]]:
    """The Platt map ``(a, b)`` of each group of ``rows`` (worlds weighed by the last play
    or not: the default search differs between them), fitted on their unproven raw
    estimates (proofs are exact and stay so); a group of fewer than :data:`FIT_AT_LEAST`
    gets none."""
    fitted = {}
    for weighed in (False, True):
        kept = [r for r in rows if not r["proven"] and r.get("weighed", False) == weighed]
        if len(kept) >= FIT_AT_LEAST:
            fitted[weighed] = calibration_slope([r["raw"] for r in kept], [r["outcome"] for r in kept])
    return fitted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), required=True)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--per-game", type=int, default=3)
    parser.add_argument(
        "--seed", type=int, nargs="+", default=[1], help="the match seeds whose positions are scored (pooled)"
    )
    parser.add_argument(
        "--fit-seed",
        type=int,
        nargs="+",
        default=None,
        help="fit a Platt map on these seeds' positions, score it on --seed's",
    )
    parser.add_argument(
        "--replaced",
        action="store_true",
        help="also score the analysis the default replaced (no proofs, last play not weighed)",
    )
    parser.add_argument(
        "--bot",
        default="search",
        help="the analysis scored (a search spec as `analyze FILE BOT` takes it; default: analyze's own)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", default=".calibration")
    parser.add_argument("--png", default=None)
    parser.add_argument("--draws", type=int, default=1000, help="bootstrap resamples")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    if args.games < 1 or args.per_game < 1 or args.jobs < 1 or args.draws < 10:
        parser.error("--games, --per-game and --jobs must be at least 1, --draws at least 10")
    from seqsolve.play.records import RecordError
    from seqsolve.play.records.outputs import check_output_file, write_text

    try:  # a path that cannot be written stops the run before its games
        for path, option in ((args.png, "--png"), (args.json, "--json")):
            if path:
                check_output_file(path, option)
    except RecordError as exc:
        parser.error(str(exc))
    cache = Path(args.cache)
    rows = pooled(args.preset, args.games, args.per_game, args.seed, args.jobs, cache, bot=args.bot)
    seeds = ", ".join(map(str, args.seed))
    report = {"preset": args.preset, "seed": args.seed, "bot": args.bot, "default": figures(rows, args.draws)}
    print(
        line(
            f"{args.preset}, seeds {seeds}" + ("" if args.bot == "search" else f", {args.bot}"),
            report["default"],
        )
    )
    mapped = any(r["calibration"] is not None for r in rows)
    curves = [
        (
            "default analysis" + (" (through its calibration map)" if mapped else ""),
            report["default"]["reliability"],
        )
    ]
    if mapped:
        own = unmapped(rows)
        report["unmapped"] = figures(own, args.draws)
        report["brier_minus_unmapped"] = brier_difference(rows, own, args.draws)
        print(line("  its search's own estimates, before the calibration map", report["unmapped"]))
        d = report["brier_minus_unmapped"]
        print(
            f"  Brier, default minus before the map: "
            f"{d['difference']:+.4f} [{d['difference_ci'][0]:+.4f}, {d['difference_ci'][1]:+.4f}]"
        )
        curves.append(("before the calibration map", report["unmapped"]["reliability"]))
    if args.replaced:
        old = pooled(args.preset, args.games, args.per_game, args.seed, args.jobs, cache, replaced=True)
        report["replaced"] = {"analysis": REPLACED, **figures(old, args.draws)}
        report["brier_minus_replaced"] = brier_difference(rows, old, args.draws)
        print(line(f"  the analysis it replaced ({REPLACED})", report["replaced"]))
        d = report["brier_minus_replaced"]
        print(
            f"  Brier, default minus replaced, on the {d['positions']} positions both rated: "
            f"{d['difference']:+.3f} [{d['difference_ci'][0]:+.3f}, {d['difference_ci'][1]:+.3f}]"
        )
        curves.append((f"the analysis it replaced ({REPLACED})", report["replaced"]["reliability"]))
    if args.fit_seed is not None:
        if set(args.seed) & set(args.fit_seed):
            parser.error(
                "--fit-seed must not share a seed with --seed: the map is scored on positions it was not fitted on"
            )
        fit_rows = pooled(
            args.preset, args.games, args.per_game, args.fit_seed, args.jobs, cache, bot=args.bot
        )
        fitted = platt_fit(fit_rows)
        names = ", ".join(map(str, args.fit_seed))
        report["fit"] = {
            "fit_seed": args.fit_seed,
            "positions": len(fit_rows),
            "maps": {("weighed" if w else "not weighed"): ab for w, ab in fitted.items()},
            "held_out": figures(printed(rows, fitted), args.draws),
        }
        for w, (a, b) in fitted.items():
            group = [r for r in fit_rows if r.get("weighed", False) == w and not r["proven"]]
            print(
                f"Platt map fitted on seeds {names}, last play {'weighed' if w else 'not weighed'} "
                f"({len(group)} unproven positions): a {a:.3f}, b {b:.3f}"
            )
        print(line("  through it, held out", report["fit"]["held_out"]))
        curves.append((f"Platt map fitted on seeds {names}", report["fit"]["held_out"]["reliability"]))
    if args.png:
        f = report["default"]
        diagram(
            args.png,
            f"{args.preset}: {f['positions']} positions of {f['games']} games, seeds {seeds}",
            curves,
        )
    if args.json:
        write_text(args.json, json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
