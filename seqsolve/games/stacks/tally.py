"""What one game of Sequence Stacks did beyond its result, for the balance analysis
(docs/balance-metrics.md, "Sequence Stacks"): the game's
:meth:`~seqsolve.games.stacks.game.StacksGame.tally`, which the match runner feeds
every action of a self-play game, and its summary over a point's records."""

from __future__ import annotations

from ...stats import mean_interval, rate_interval
from .actions import BLOCK, ActionKind, decode_action
from .cards import Card, colour
from .rules import StacksRules
from .state import StacksState

#: what StacksDetail counts per action, in the order of its record
COUNTS = ("decisions", "legal", "blocks", "steals_card", "steals_chip", "skips", "reverses", "recycles")
#: the action cards counted when played (from the hand or the discard pile)
_PLAYED = {Card.SC: "steals_card", Card.SX: "steals_chip", Card.SK: "skips", Card.RV: "reverses"}
#: per-game counts summarized as means with intervals
PER_GAME = ("decisions", "blocks", "steals_card", "steals_chip", "skips", "reverses", "recycles")


class StacksDetail:
    """One game's counts (the runner's ``detail``): per action ``decisions`` (plies with
    more than one legal action), ``legal`` (summed: branching = legal / plies),
    ``blocks`` (ST-15), ``steals_card`` (ST-18), ``steals_chip`` (ST-19), ``skips``
    (ST-16), ``reverses`` (ST-17) played, and ``recycles`` (the set-aside stack
    shuffled into a new draw pile, ST-20); and two facts, ``block_decided`` (a Block
    cancelled a chip that would have won the completer the game, ST-21) and
    ``steal_chip_won`` (the winning decision was a Steal-a-Chip, which
    ``stacks_steal_chip_can_win=true`` allows)."""

    def __init__(self, rules: StacksRules):
        self.rules = rules
        self.counts = dict.fromkeys(COUNTS, 0)
        self.block_decided = False
        self.steal_chip_won = False

    def play(self, state: StacksState, action: int, n_legal: int) -> None:
        """Apply ``action`` to ``state``, counting it."""
        c = self.counts
        c["legal"] += n_legal
        c["decisions"] += n_legal > 1
        a = decode_action(action)
        if a.kind == ActionKind.PLAY and a.card in _PLAYED:
            c[_PLAYED[a.card]] += 1
        if action == BLOCK:
            c["blocks"] += 1
            self.block_decided |= _chip_would_win(self.rules, state.to_position())
        # one action draws at most 5 cards per turn it starts: only a pile that low can be
        # recycled now, so only then are the piles compared (reading them costs a dump)
        low = state.core.draw_count < 5 * self.rules.players
        before = state.to_position() if low else None
        state.apply_legal(action)
        if before is not None:
            after = state.to_position()
            if after.aside_count < before.aside_count or after.draw_count > before.draw_count:
                c["recycles"] += 1
        if a.card == Card.SX and state.is_terminal() and state.outcome().winner is not None:
            self.steal_chip_won = True

    def finish(self, state: StacksState) -> dict:
        return {**self.counts, "block_decided": self.block_decided, "steal_chip_won": self.steal_chip_won}

    @staticmethod
    def check(detail: object) -> str | None:
        """What is wrong with a record's ``detail`` as read back from a file (a resumed run
        trusts no file), or None: every count a whole number >= 0, the two facts true or false."""
        if not isinstance(detail, dict):
            return "is not an object"
        for key in COUNTS:
            value = detail.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                return f"{key} must be a whole number >= 0, not {value!r}"
        for key in ("block_decided", "steal_chip_won"):
            if not isinstance(detail.get(key), bool):
                return f"{key} must be true or false, not {detail.get(key)!r}"
        return None

    @staticmethod
    def summarize(records: list[dict]) -> dict:
        """Stacks' metrics of a point's self-play records (at least one): each count's mean
        per game with a 95% interval, and how often a Block or a Steal-a-Chip decided a
        game (among all games, and among the decisive ones), with Wilson intervals."""
        out: dict = {}
        for k in PER_GAME:
            mean, low, high = mean_interval([r["detail"][k] for r in records])
            out[f"{k}_mean"], out[f"{k}_mean_ci"] = mean, [low, high]
        n = len(records)
        decisive = sum(r["winner_side"] is not None for r in records)
        for key, among in (("block_decided", n), ("steal_chip_won", decisive)):
            k = sum(bool(r["detail"][key]) for r in records)
            out[f"{key}_rate"] = k / among if among else None
            out[f"{key}_ci"] = list(rate_interval(k, among)[1:]) if among else None
        return out


def _chip_would_win(rules: StacksRules, pos) -> bool:
    """Whether the completer (the mover while a Block is asked) would win with the chip
    of the completed pile, if the supply still has one (ST-21)."""
    pile = next(p for p in pos.piles if len(p) == 5)
    which = next(colour(card) for card in pile)
    if sum(chips[which] for chips in pos.chips) >= rules.chip_supply:
        return False
    blue, red = pos.chips[pos.to_move]
    blue, red = (blue + 1, red) if which == 0 else (blue, red + 1)
    return blue + red >= rules.win_chips and min(blue, red) >= rules.win_min_each
