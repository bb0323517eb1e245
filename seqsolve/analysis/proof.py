"""Proven results of an analysis: the turns that win by force, and the turns after
which an opponent wins by force, each a few turns deep.

The search is :func:`seqsolve._proof.prove_win` (its module docstring says why a
proof holds whatever the hidden cards are).  For each legal turn of the side to move:

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

from .exact import outcome_of

#: Turns of the proving side searched at most (a win in 3: this turn and two more).
DEFAULT_PROOF_TURNS = 3
#: Nodes of the proof search per turn and depth (deterministic).
DEFAULT_PROOF_NODES = 4_000


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
    """Core actions of a proof's line as moves, a pass of the defence as ``…``."""
    from ..games.sequence.actions import ActionKind, decode_action

    out = []
    for a in actions:
        out.append("…" if decode_action(a)[0] == ActionKind.PASS else state.action_to_string(a))
    return out


def prove_turns(
    view,
    turns: list[tuple[int, ...]],
    *,
    max_turns: int = DEFAULT_PROOF_TURNS,
    nodes: int = DEFAULT_PROOF_NODES,
    seconds: float = 0.0,
) -> dict[tuple[int, ...], Proof]:
    """The proven results of ``turns`` (whole turns of the side to move in ``view``).

    ``view`` is what the analysis searches: the mover's observation, or the whole
    state with open information.  Turns not proven either way are absent.
    """
    from .. import _proof

    rules = view.rules
    mover = view.current_player
    side = view.side_of(mover)
    deadline = time.perf_counter() + seconds if seconds else None
    proofs: dict[tuple[int, ...], Proof] = {}
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
        left = 0.0
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
        found = _prove_one(_proof, rules, child, side, mover, max_turns, nodes, left)
        if found is not None:
            proofs[turn] = Proof(found.result, found.turns, [text, *found.line] if found.result == "win" else found.line)
    return proofs


def _prove_one(_proof, rules, child, side: int, mover: int, max_turns: int, nodes: int, seconds: float):
    core = child.core
    seat = child.current_player
    for n in range(2, max_turns + 1):
        plies = plies_until(rules, seat, side, n - 1)
        proven, line, _, _ = _proof.prove_win(core, side, mover, plies, nodes, seconds)
        if proven:
            return Proof("win", n, _line(child, line))
    for n in range(1, max_turns + 1):
        for other in range(rules.teams):
            if other == side:
                continue
            plies = plies_until(rules, seat, other, n)
            proven, line, _, _ = _proof.prove_win(core, other, -1, plies, nodes, seconds)
            if proven:
                return Proof("loss", n, _line(child, line))
    return None
