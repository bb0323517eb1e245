"""The tactics corpus: positions from seeded games with a known, checked answer, and
the run of ``analyze`` at its defaults over all of them.

Run from the repository root::

    python benchmarks/tactics_corpus.py make    # (re)write tests/data/tactics.txt
    python benchmarks/tactics_corpus.py refresh # answer the same positions again
    python benchmarks/tactics_corpus.py check   # analyze every position at its defaults

``make`` plays seeded ``heuristic`` games on each preset of :data:`SETUPS`; before
each turn it reads the position back from its SQN (what a file gives ``analyze``)
and runs the proof search (:func:`seqsolve.analysis.proof.prove_turns`) with every
card known (``open``) and as the mover sees it (``hidden``).  It keeps

* ``win N``: the fastest forced win takes N turns; the answer is every turn proven
  to win in N (N = 1: wins at once; N >= 2: double threats, jack threats, team wins,
  three-sequence games of seed000);
* ``trap``: a turn after which the mover has two or more winning cells with cards it
  holds (a search that does not defend would call it won), but which the defence can
  stop: the proof search must not claim it, and the full-width check agrees;
* ``loss``: every turn of the mover loses by force (N: the slowest loss).

An answer is checked independently by the full-width reference search
(:func:`seqsolve.reference.forced.forced_win`, which tries every defence with every
card) where that takes seconds: the defence gets one turn with any card (hidden
cards, a win in 2 on two sides), or up to three turns with the cards it holds
first (every card known); a loss in 1 is checked turn by turn.  A position that
fails the check is not kept (``make`` says REFUTED).  The others are kept with the
mark ``solver`` (checked by the proof search only).

``check`` runs :func:`seqsolve.analysis.search.analyze` at its defaults on each
position and reports how many it solves (the answer's turns proven as stated, a
trap's turn not proven), the CPU time a position (the slowest, and how many take over
1 s), how many unproven turns show 1.000 or 0.000 (none may), and the proof nodes;
it exits non-zero unless every position is solved and none shows such a turn.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "tactics.txt"

#: (preset, players, games to scan at most, positions to keep at most)
SETUPS = [
    ("classic", 2, 120, 16),
    ("classic", 3, 30, 12),
    ("classic", 4, 30, 14),
    ("draft", 2, 30, 12),
    ("draft", 4, 20, 8),
    ("numbers", 2, 30, 10),
    ("seed000", 2, 120, 14),
    ("seed000", 4, 20, 10),
    ("seed002-literal", 2, 20, 8),
    ("numbers-seed001-literal", 2, 20, 6),
]


def _state(sqn: str):
    from seqsolve.games import read_state

    return read_state(sqn, "corpus", 0)


def _view(state, mode: str):
    return state.clone() if mode == "open" else state.observation(state.current_player)


def _turns(view) -> list[tuple[int, ...]]:
    """Every whole turn the mover can name now: a play, or an exchange then a play of a
    card it will hold (with every card known, the replacement too)."""
    from seqsolve.games.exact import outcome_of

    turns = []
    for a in view.legal_actions():
        if view.ends_turn(a):
            turns.append((a,))
            continue
        after = outcome_of(view, (a,))
        known = set(after.core.hand(after.current_player)) - {255}
        for b in after.legal_actions():
            if after.ends_turn(b) and ((b >> 8) & 0xFF) in known:
                turns.append((a, b))
    return turns


def _text(view, turn) -> str:
    return " ".join(view.action_to_string(a) for a in turn)


def _naive_threats(view, turn) -> int:
    """Cells where the mover could win next turn with a card it holds after ``turn``
    (nobody else moving): what a search that does not defend counts."""
    from seqsolve.games.exact import outcome_of
    from seqsolve.games.sequence.threats import immediate_wins

    after = outcome_of(view, turn)
    if after is None or after.is_terminal():
        return 0
    side = view.side_of(view.current_player)
    return sum(1 for w in immediate_wins(after, side, True) if w["possible"])


def _verify(state, mode: str, turn: tuple[int, ...], side: int, turns: int) -> bool | None:
    """The full-width reference answer to "after ``turn``, does ``side`` win within
    ``turns`` of its turns (the mover's side: counting ``turn``)", or None when that
    check would take too long (hidden cards with more than one defender, or a
    defender playing any card twice)."""
    from seqsolve.analysis.proof import plies_until
    from seqsolve.reference.forced import forced_win, unseen_pool
    from seqsolve.reference.game import RefGame

    rules = state.rules
    mover = state.current_player
    mine = side == state.side_of(mover)
    plies = plies_until(rules, (mover + 1) % rules.players, side, turns - 1 if mine else turns)
    if plies > (2 if mode == "hidden" else 4):
        return None
    ref = RefGame.from_position(state.to_position())
    before = list(ref.hands[mover])
    text = " ".join(state.action_to_string(a) for a in turn)
    ref.apply(text)
    colour = state.sides[side]
    if ref.is_over:
        return ref.result == colour
    if mode == "open":
        hands = {s: list(ref.hands[s]) for s in range(rules.players) if s % rules.teams == side}
        holds = {s: list(ref.hands[s]) for s in range(rules.players) if s % rules.teams != side}
        pool = unseen_pool(ref, [list(h) for h in ref.hands])
        return forced_win(ref, colour, hands, pool, plies, holds)
    if not mine:
        return None
    from seqsolve.games.sequence.moves import parse_turn

    rest = list(before)
    for m in parse_turn(text):
        if m.card in rest:
            rest.remove(m.card)
        if m.pick:
            rest.append(m.pick)  # a draft card taken in the open is held
    return forced_win(ref, colour, {mover: rest}, unseen_pool(ref, [before]), plies)


def make(seed: int = 0) -> None:
    from seqsolve.bots import make_bot
    from seqsolve.games import rules_for
    from seqsolve.games.sequence.notation import to_sqn
    from seqsolve.games.sequence.state import State

    lines = [
        "# The tactics corpus (benchmarks/tactics_corpus.py make): preset, players, open|hidden,",
        "# the answer, how it was checked (reference: full-width search; solver: proof search only),",
        "# and the position (SQN, every card listed; hidden: analysed as the mover sees it).",
        "# win N: T1 T2 ... = the turns that win by force in N turns (no turn wins faster);",
        "# trap: T = T looks like a double threat but the defence stops it (must not be proven);",
        "# loss N = every turn loses by force, the slowest in N turns.",
    ]
    totals: Counter = Counter()
    seen: set[str] = set()
    for preset, players, games, keep in SETUPS:
        rules = rules_for(preset, players=players)
        kept = 0
        bot = make_bot("heuristic")
        # first the positions won as the mover sees them (and the traps), then with every card known
        for modes, quota in ((("hidden",), keep // 2), (("hidden", "open"), keep)):
            for game in range(games):
                if kept >= quota:
                    break
                state = State.new(rules, seed=seed * 1000 + game)
                rng = np.random.default_rng(seed * 1000 + game)
                per_game = 0
                while not state.is_terminal() and kept < quota and per_game < 2:
                    if state.core.exchanges_left > 0 or rules.dead_card_exchanges_per_turn == 0:
                        sqn = to_sqn(state.to_position())
                        if sqn not in seen:
                            for entry in _classify(_state(sqn), preset, players, sqn, totals, modes):
                                seen.add(sqn)
                                lines.append(entry)
                                if "\ttrap: " not in entry:
                                    kept += 1
                                    per_game += 1
                    state.apply(bot.choose(state.observation(state.current_player), rng))
        print(f"{preset} {players}p: {kept} positions", file=sys.stderr)
    CORPUS.write_text("\n".join(lines) + "\n")
    print(f"wrote {CORPUS.relative_to(ROOT)}: {dict(totals)}", file=sys.stderr)


def _classify(state, preset, players, sqn, totals, modes) -> list[str]:
    """The corpus lines of a position (none when it has nothing to teach): with two
    players, a trap; then a forced win as the mover sees it, else with every card
    known, else a loss with every card known (as ``modes`` allow)."""
    lines = [] if players != 2 or totals["trap", preset] >= 3 else _trap(state, preset, sqn, totals)
    line = _answer(state, preset, players, sqn, totals, modes, quick_wins=modes != ("hidden",))
    return lines + ([line] if line else [])


def _answer(state, preset, players, sqn, totals, modes, quick_wins: bool = True) -> str | None:
    from seqsolve.analysis.proof import prove_turns

    for mode in modes:
        view = _view(state, mode)
        turns = _turns(view)
        proofs = prove_turns(view, turns).proofs
        side = view.side_of(view.current_player)
        wins = {t: p for t, p in proofs.items() if p.result == "win"}
        head = f"{preset}\t{players}\t{mode}"
        if wins:
            fastest = min(p.turns for p in wins.values())
            best = [t for t in turns if t in wins and wins[t].turns == fastest]
            if fastest == 1 and (totals["win1"] >= 15 or not quick_wins):
                return None
            truth = _verify(state, mode, best[0], side, fastest)
            if truth is False:
                print(f"REFUTED {head} {_text(view, best[0])}: {sqn}", file=sys.stderr)
                return None
            totals["win1" if fastest == 1 else "multi"] += 1
            moves = ", ".join(_text(view, t) for t in best)
            return f"{head}\twin {fastest}: {moves}\t{'reference' if truth else 'solver'}\t{sqn}"
        if mode == "open" and turns and len(proofs) == len(turns) and totals["loss"] < 10:
            slowest = max(p.turns for p in proofs.values())
            checks = []
            for t in turns:
                p = proofs[t]
                attackers = [x for x in range(state.rules.teams) if x != side]
                checks.append(
                    any(_verify(state, mode, t, x, p.turns) for x in attackers) if p.turns == 1 else None
                )
            if False in checks:
                print(f"REFUTED loss {head}: {sqn}", file=sys.stderr)
                return None
            totals["loss"] += 1
            return f"{head}\tloss {slowest}\t{'reference' if all(checks) else 'solver'}\t{sqn}"
    return None


def _trap(state, preset, sqn, totals) -> list[str]:
    """A turn that makes two winning cells for the mover's cards but that the defence
    stops (the reference says so, and the proof search must not claim it)."""
    from seqsolve.analysis.proof import prove_turns

    view = _view(state, "hidden")
    side = view.side_of(view.current_player)
    tempting = [t for t in _turns(view) if _naive_threats(view, t) >= 2][:2]  # the check takes seconds
    for t in tempting:
        if _verify(state, "hidden", t, side, 2) is False:
            if prove_turns(view, [t]).proofs:
                print(f"UNSOUND trap {preset}: {sqn}", file=sys.stderr)
                return []
            totals["trap", preset] += 1
            totals["trap"] += 1
            return [f"{preset}\t2\thidden\ttrap: {_text(view, t)}\treference\t{sqn}"]
    return []


def refresh() -> None:
    """Answer again every position of the corpus (the same positions and modes): after a
    change of what counts as a turn or of the proof search's reach."""
    totals: Counter = Counter({"win1": -1000, "loss": -1000})
    header = [line for line in CORPUS.read_text().splitlines() if line.startswith("#")]
    lines = list(header)
    for e in read_corpus():
        if e["kind"] == "trap":
            lines.append(
                "\t".join(
                    [
                        e["preset"],
                        str(e["players"]),
                        e["mode"],
                        f"trap: {e['moves'][0]}",
                        e["checked"],
                        e["sqn"],
                    ]
                )
            )
            continue
        line = _answer(_state(e["sqn"]), e["preset"], e["players"], e["sqn"], totals, (e["mode"],))
        if line is None:
            print(f"dropped {e['preset']} {e['players']}p {e['mode']}: {e['sqn']}", file=sys.stderr)
        else:
            lines.append(line)
    CORPUS.write_text("\n".join(lines) + "\n")


def read_corpus(path: Path = CORPUS) -> list[dict]:
    """The corpus entries: preset, players, mode, kind, turns, moves, checked, sqn."""
    entries = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        preset, players, mode, answer, checked, sqn = line.split("\t")
        kind, _, rest = answer.partition(" ")
        if kind == "trap:":
            entries.append(
                {
                    "preset": preset,
                    "players": int(players),
                    "mode": mode,
                    "kind": "trap",
                    "turns": 0,
                    "moves": [rest.strip()],
                    "checked": checked,
                    "sqn": sqn,
                }
            )
            continue
        n, _, moves = rest.partition(":")
        entries.append(
            {
                "preset": preset,
                "players": int(players),
                "mode": mode,
                "kind": kind,
                "turns": int(n),
                "moves": [m.strip() for m in moves.split(",") if m.strip()],
                "checked": checked,
                "sqn": sqn,
            }
        )
    return entries


def solved(entry: dict, analysis) -> bool:
    """Whether an analysis gives the entry's answer."""
    by_move = {m.move: m for m in analysis.moves}
    if entry["kind"] == "trap":
        m = by_move.get(entry["moves"][0])
        return m is not None and (m.proof is None or m.proof.result != "win")
    if entry["kind"] == "loss":
        return (
            all(m.proof is not None and m.proof.result == "loss" for m in analysis.moves)
            and max(m.proof.turns for m in analysis.moves) == entry["turns"]
        )
    best = analysis.moves[0]
    if best.proof is None or best.proof.result != "win" or best.proof.turns != entry["turns"]:
        return False
    # the analysis lists an exchange with one play after it (the best held one), so only
    # the plays without an exchange must match one for one
    fastest = {
        m.move
        for m in analysis.moves
        if m.proof is not None
        and m.proof.result == "win"
        and m.proof.turns == entry["turns"]
        and not m.move.startswith("~")
    }
    return fastest == {m for m in entry["moves"] if not m.startswith("~")}


def unproven_extremes(analysis) -> int:
    """How many turns of ``analysis`` print a win chance (or an interval end) of 1.000 or
    0.000 without a proof: only a proven turn may."""
    from seqsolve.analysis.results import is_proven

    count = 0
    for m in analysis.moves:
        if is_proven(m, "win") or is_proven(m, "loss"):
            continue
        shown = [x for x in (m.win, *(m.win_ci or ())) if x is not None]
        count += any(f"{x:.3f}" in ("1.000", "0.000") for x in shown)
    return count


def check(seed: int = 1) -> int:
    from seqsolve.analysis.proof import prove_turns
    from seqsolve.analysis.search import analyze

    entries = read_corpus()
    ok, slowest, worst, by_setup = 0, 0.0, None, Counter()
    nodes, most_nodes, proof_time, times, walls, extremes = 0, 0, 0.0, [], [], 0
    for e in entries:
        state = _state(e["sqn"])
        started, wall = time.process_time(), time.perf_counter()
        a = analyze(state, seed=seed, open_information=e["mode"] == "open")
        took = time.process_time() - started  # CPU time: the machine may be shared
        walls.append(time.perf_counter() - wall)
        times.append(took)
        extremes += unproven_extremes(a)
        view = _view(state, e["mode"])
        started = time.process_time()
        report = prove_turns(view, [m.actions for m in a.moves])
        proof_time = max(proof_time, time.process_time() - started)
        nodes += report.nodes
        most_nodes = max(most_nodes, report.nodes)
        good = solved(e, a)
        ok += good
        by_setup[(e["preset"], e["players"], good)] += 1
        if took > slowest:
            slowest, worst = took, e
        if not good:
            print(
                f"NOT SOLVED {e['preset']} {e['players']}p {e['mode']} {e['kind']} {e['moves']}",
                file=sys.stderr,
            )
    kinds = Counter((e["kind"], e["turns"] if e["kind"] != "trap" else 0) for e in entries)
    print(
        f"{ok}/{len(entries)} solved by analyze at its defaults; slowest {slowest:.2f} s of CPU"
        f" ({worst['preset']} {worst['players']}p {worst['mode']})"
    )
    print(
        f"analyze CPU time: median {sorted(times)[len(times) // 2]:.2f} s, mean {sum(times) / len(times):.2f} s,"
        f" over 1 s: {sum(t > 1 for t in times)}; wall time: median {sorted(walls)[len(walls) // 2]:.2f} s"
    )
    print(f"unproven turns shown at 1.000 or 0.000 (estimate or interval): {extremes}")
    print(
        f"proof search: {nodes} nodes in all, at most {most_nodes} and {proof_time:.3f} s of CPU for one position"
    )
    print("answers:", dict(sorted(kinds.items())))
    for (preset, players, good), n in sorted(by_setup.items()):
        print(f"  {preset:<24} {players}p  {'solved' if good else 'NOT solved'}: {n}")
    return 0 if ok == len(entries) and not extremes else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["make", "refresh", "check"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.what == "make":
        make(args.seed)
        return 0
    if args.what == "refresh":
        refresh()
        return 0
    return check()


if __name__ == "__main__":
    sys.exit(main())
