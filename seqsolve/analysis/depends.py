"""What the hidden cards decide: for the best few turns, the holdings of the opponents
that split their outcome, and the draws that would win the mover's next turn.

Estimates over dealt worlds
---------------------------
The search's own worlds are not kept (the bots have no use for them), so the analysis
deals its own: :data:`DEPENDS_WORLDS` worlds of the cards the mover cannot see, each
dealt as the mover could imagine it (every unseen card alike, as the search deals
them: nothing is read from what the opponents did or declined to do), and in each
world every candidate turn is played out once by the search's playout (greedy for
every side, cut after the rollout's depth and scored by the evaluation there), the
world's cards known to the playout.  A candidate holding of an opposing side (the
game's :meth:`~seqsolve.games.base.Tactics.holding_features`: a one-eyed jack, a
two-eyed jack, the card of a cell that wins or must be blocked) splits the worlds in
two; the turn's mean result on each side is its win chance *given* that holding.
These are estimates over a few hundred worlds, with the counts shown; a holding is
reported only when each side has at least :data:`MIN_WORLDS` worlds and the two
chances differ by at least :data:`MIN_GAP`; like every estimate of the analysis they
stay within 0.001-0.999 (only a proof reads 1 or 0).

Proofs on a condition
---------------------
A turn the proof search could not prove is tried again with each candidate holding's
cards taken out of what the opponents may hold (:func:`~.proof.prove_win_unless`).
When that proves the win, the statement is exact: the turn wins by force unless an
opposing seat holds (or draws before the win) one of those cards, and the chance that
one holds one now is exact too (:meth:`~seqsolve.games.base.Tactics.holding_chance`,
hypergeometric over the unseen cards).  Turns proven outright, or winning at once, are
left out: their result does not depend on the hidden cards.

Winning draws
-------------
Exact from the board (:meth:`~seqsolve.games.base.Tactics.winning_draws`): the cards
that would win the mover's next turn if drawn at the end of this one, and the chance
of drawing one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games.exact import outcome_of
from .proof import DEFAULT_PROOF_NODES, Proof, prove_win_unless
from .results import clamp_estimate

#: turns of the ranking whose dependence on the hidden cards is shown
DEPENDS_TOP = 3
#: worlds dealt to split each turn's outcome by the opponents' holdings
DEPENDS_WORLDS = 200
#: worlds each side of a split needs before it is reported
MIN_WORLDS = 10
#: the least difference of win chance, with the holding and without, worth reporting
MIN_GAP = 0.1
#: holdings shown per turn, the most decisive first
DEPENDS_SHOWN = 2
#: playout depth when the search is a tree (a rollout search gives its own)
DEPENDS_DEPTH = 12
#: nodes of each conditional proof, per depth (a fifth of an outright proof's)
CONDITION_NODES = DEFAULT_PROOF_NODES // 5


@dataclass
class Dependence:
    """A holding of the opponents that decides a turn: ``share`` of the deals hold it;
    ``win_with``/``win_without`` the turn's win chance with it and without.

    Estimated over ``worlds`` dealt worlds (``worlds_with`` of them holding it), or, when
    ``proof`` is set, proven: without the holding the turn wins by force (``win_without``
    exactly 1), ``share`` is exact (``worlds`` None) and ``win_with`` is the dealt worlds'
    estimate when they had enough of them, else None."""

    feature: str
    share: float
    win_with: float | None
    win_without: float
    worlds: int | None = None
    worlds_with: int | None = None
    proof: Proof | None = None

    def to_dict(self) -> dict:
        data = {
            "feature": self.feature,
            "share": self.share,
            "win_with": self.win_with,
            "win_without": self.win_without,
            "worlds": self.worlds,
            "worlds_with": self.worlds_with,
        }
        if self.proof is not None:
            data["proof"] = self.proof.to_dict()
        return data

    def words(self) -> str:
        """The dependence as the table says it."""
        if self.proof is not None:
            plural = "" if self.proof.turns == 1 else "s"
            given = "" if self.win_with is None else f"; win {self.win_with:.3f} with it (estimate)"
            return (
                f"wins by force in {self.proof.turns} turn{plural} unless {self.feature}"
                f" (now, or drawn in time); held now in {100 * self.share:.1f}% of deals (exact){given}"
            )
        return (
            f"{self.feature} ({100 * self.share:.0f}% of {self.worlds} worlds):"
            f" win {self.win_with:.3f} with it, {self.win_without:.3f} without"
        )


def _split(values: list[float], held: list[bool]) -> tuple[int, float, float] | None:
    """Worlds held, and the mean of ``values`` with and without; None when a side is too small."""
    n = len(values)
    k = sum(held)
    if k < MIN_WORLDS or n - k < MIN_WORLDS:
        return None
    with_ = sum(v for v, h in zip(values, held) if h) / k
    without = sum(v for v, h in zip(values, held) if not h) / (n - k)
    return k, clamp_estimate(with_), clamp_estimate(without)


def _conditions(features: list[dict]) -> list[tuple[str, list[int], list[str]]]:
    """The holdings of every opposing side joined by the cards they name: the proof
    takes the cards from all of them at once (``green or red holds a one-eyed jack``)."""
    joined: dict[tuple[str, ...], tuple[list[str], list[int], str]] = {}
    for f in features:
        key = tuple(f["cards"])
        sides, seats, _ = joined.setdefault(key, ([], [], f["holding"]))
        sides.append(f["side"])
        seats.extend(f["seats"])
    return [
        (f"{' or '.join(sides)} holds {words}", seats, list(key))
        for key, (sides, seats, words) in joined.items()
    ]


def hidden_dependence(
    game,
    view,
    exact,
    stats,
    settings,
    seed_sequence,
    *,
    worlds: int = DEPENDS_WORLDS,
    top: int = DEPENDS_TOP,
    max_turns: int = 0,
) -> None:
    """Fill ``depends`` and ``winning_draws`` of the first ``top`` of ``stats`` (ranked
    turns of the mover in ``view``, an observation), dealing ``worlds`` worlds from
    ``seed_sequence``; conditional proofs up to ``max_turns`` turns (0: none)."""
    mover = view.current_player
    side = view.side_of(mover)
    afters = {}
    for s in stats[:top]:
        if s.exact == "win" or not view.ends_turn(s.actions[-1]):
            continue
        after = outcome_of(view, s.actions)
        if after is None:
            continue
        afters[s.actions] = after
        s.winning_draws = exact.winning_draws(after, s.actions, side)
    chosen = [s for s in stats[:top] if s.actions in afters and s.proof is None]
    if not chosen or not view.has_hidden_cards():
        return
    features = {s.actions: exact.holding_features(afters[s.actions], side) for s in chosen}
    values: list[list[float]] = []
    hands: list[list[set]] = []
    if worlds > 0 and any(features.values()):
        import numpy as np  # here: the command line reads DEPENDS_TOP before any heavy import

        depth = settings.rollout["depth"] if settings.rollout is not None else DEPENDS_DEPTH
        searcher = game.searcher(settings.params)
        results, dealt = searcher.rollout_outcomes(
            view, mover, np.random.PCG64(seed_sequence), [s.actions[0] for s in chosen], worlds, depth
        )
        values = [[r[i] for r in results] for i in range(len(chosen))]
        hands = [[set(hand) for hand in world] for world in dealt]
    for i, s in enumerate(chosen):
        found = []
        for name, seats, cards in _conditions(features[s.actions]):
            split = None
            if hands:
                held = [any(h[seat] & set(cards) for seat in seats) for h in hands]
                split = _split(values[i], held)
            proof = None
            if max_turns >= 2:
                proof = prove_win_unless(view, s.actions, cards, max_turns=max_turns, nodes=CONDITION_NODES)
            chance = exact.holding_chance(seats, cards) if proof is not None else None
            if proof is not None and chance:  # no chance, or none: the condition says nothing
                found.append(Dependence(name, chance, split[1] if split else None, 1.0, proof=proof))
            elif split is not None and abs(split[1] - split[2]) >= MIN_GAP:
                found.append(
                    Dependence(name, split[0] / len(hands), split[1], split[2], len(hands), split[0])
                )
        found.sort(
            key=lambda d: (
                d.proof is None,
                d.proof.turns if d.proof else 0,
                -abs((d.win_with or 0.0) - d.win_without),
                d.feature,
            )
        )
        s.depends = found[:DEPENDS_SHOWN]
