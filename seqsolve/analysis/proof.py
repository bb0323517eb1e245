"""Proven results of an analysis: the turns that win by force, and the turns after
which an opponent wins by force, each a few turns deep.

The search is the game's :meth:`~seqsolve.games.base.Game.prove_win`, for Sequence
the compiled ``seqsolve._proof`` (its module docstring says why a proof holds
whatever the hidden cards are).  For each legal turn of the side to move:

* **win in N**: after the turn, the side to move wins within its next N - 1 turns
  (N counts the turn itself and the turns of its team-mates) against every defence
  the other seats could make with any cards the mover has not seen, never counting
  on a card anybody draws later.  A turn that wins at once is a win in 1.
* **loss in N**: after the turn, an opposing side wins within N of its own turns
  whatever the mover's side does, using only cards the mover knows that side holds
  (with ``--open`` its hand; otherwise what everyone saw it take in the draft), or
  none (a seat whose hand is hidden must win whatever it holds).

Both are searched by iterative deepening, each depth within a node budget, so the
result is a pure function of the position and the budget; the optional time cap
(the analysis's ``--time``) may only cut a search short, so a turn that is proven
is proven whatever the clock says.  A turn neither proven nor disproven says nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..games.exact import outcome_of

#: Turns of the proving side searched at most (a win in 3: this turn and two more).
DEFAULT_PROOF_TURNS = 3
#: Nodes of the proof search per turn and depth (deterministic).
DEFAULT_PROOF_NODES = 10_000
#: Nodes of the proof search over all the turns of one analysis (deterministic).
DEFAULT_PROOF_TOTAL = 100_000
#: Seconds the proofs of one analysis may take when the analysis has no time budget:
#: a guard that the node budgets keep far away from (a proof it cuts short is only
#: not found, never wrong).
PROOF_SECONDS_CAP = 2.0


@dataclass
class ProofReport:
    """What the proof search of one analysis did: the proven turns, the nodes
    searched, and whether every turn got its whole budget (not cut by the total
    budget or the clock)."""

    proofs: dict
    nodes: int = 0
    complete: bool = True


@dataclass(frozen=True)
class Proof:
    """A proven result of one turn: ``result`` "win" or "loss", in ``turns`` turns
    of the winning side, along ``line`` (whole turns; ``…`` is any other turn)."""

    result: str
    turns: int
    line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"result": self.result, "turns": self.turns, "line": list(self.line)}

    def words(self) -> str:
        """The result as the table says it."""
        plural = "" if self.turns == 1 else "s"
        if self.result == "win":
            return f"wins by force in {self.turns} turn{plural}"
        return f"loses by force in {self.turns} turn{plural} whatever it plays"


def plies_until(rules, seat: int, side: int, n: int) -> int:
    """Turns of any seat, from ``seat``'s, up to and including side ``side``'s ``n``-th."""
    plies, seen = 0, 0
    while seen < n:
        if (seat + plies) % rules.players % rules.teams == side:
            seen += 1
        plies += 1
    return plies


def _line(state, actions: list[int]) -> list[str]:
    """Actions of a proof's line as moves; a pass of the defence (it stands for any turn
    that changes nothing that matters) as ``…``."""
    texts = (state.action_to_string(a) for a in actions)
    return ["…" if text == "pass" else text for text in texts]


def prove_turns(
    view,
    turns: list[tuple[int, ...]],
    *,
    max_turns: int = DEFAULT_PROOF_TURNS,
    nodes: int = DEFAULT_PROOF_NODES,
    total: int = DEFAULT_PROOF_TOTAL,
    seconds: float = PROOF_SECONDS_CAP,
) -> ProofReport:
    """The proven results of ``turns`` (whole turns of the side to move in ``view``),
    in the order given, each depth of each turn within ``nodes`` and all of them
    within ``total`` nodes and ``seconds`` (0: no clock).

    ``view`` is what the analysis searches: the mover's observation, or the whole
    state with open information.  Turns not proven either way are absent.
    """
    from ..games import game_for

    game = game_for(str(view.rules.variant))
    rules = view.rules
    mover = view.current_player
    side = view.side_of(mover)
    deadline = time.perf_counter() + seconds if seconds else None
    report = ProofReport({})
    proofs = report.proofs
    for turn in turns:
        if not turn or not view.ends_turn(turn[-1]):
            continue
        child = outcome_of(view, turn)
        if child is None:
            continue
        text = " ".join(view.action_to_string(a) for a in turn)
        if child.is_terminal():
            outcome = child.outcome()
            if outcome.winner == view.sides[side]:
                proofs[turn] = Proof("win", 1, [text])
            continue
        found = _prove_one(game, rules, child, side, mover, max_turns, nodes, total, deadline, report)
        if found is not None:
            proofs[turn] = Proof(
                found.result, found.turns, [text, *found.line] if found.result == "win" else found.line
            )
        if not report.complete:
            break
    return report


def _prove_one(game, rules, child, side, mover, max_turns, nodes, total, deadline, report: ProofReport):
    """The first proof found for the position after a turn, shallowest first: a win
    of ``side`` (its turn just played was the first), else a win of another side."""
    seat = child.current_player
    tasks = [("win", n, side, mover, plies_until(rules, seat, side, n - 1)) for n in range(2, max_turns + 1)]
    tasks += [
        ("loss", n, other, -1, plies_until(rules, seat, other, n))
        for n in range(1, max_turns + 1)
        for other in range(rules.teams)
        if other != side
    ]
    for result, n, attacker, captain, plies in tasks:
        budget = min(nodes, total - report.nodes)
        left = 0.0
        if deadline is not None:
            left = deadline - time.perf_counter()
        if budget <= 0 or (deadline is not None and left <= 0):
            report.complete = False
            return None
        proven, line, used, _ = game.prove_win(child, attacker, captain, plies, budget, left)
        report.nodes += used
        if proven:
            return Proof(result, n, _line(child, line))
    return None


def prove_win_unless(
    view,
    turn: tuple[int, ...],
    excluded: list[str],
    *,
    max_turns: int = DEFAULT_PROOF_TURNS,
    nodes: int = DEFAULT_PROOF_NODES,
    seconds: float = PROOF_SECONDS_CAP,
) -> Proof | None:
    """A forced win of the mover's side after ``turn`` (a whole turn of the side to move in
    ``view``) on a condition: that no other seat holds, or draws before the win, one of the
    ``excluded`` cards unseen by the mover.  Shallowest first, each depth within ``nodes``;
    None when none is found (which proves nothing)."""
    from ..games import game_for

    game = game_for(str(view.rules.variant))
    rules = view.rules
    mover = view.current_player
    side = view.side_of(mover)
    child = outcome_of(view, turn)
    if child is None or child.is_terminal():
        return None
    deadline = time.perf_counter() + seconds if seconds else None
    text = " ".join(view.action_to_string(a) for a in turn)
    seat = child.current_player
    for n in range(2, max_turns + 1):
        left = 0.0
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
        plies = plies_until(rules, seat, side, n - 1)
        proven, line, _, _ = game.prove_win(child, side, mover, plies, nodes, left, excluded=tuple(excluded))
        if proven:
            return Proof("win", n, [text, *_line(child, line)])
    return None
