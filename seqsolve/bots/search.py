"""The bots whose brains live in the compiled search module: greedy, heuristic, mcts.

Evaluation weights are tuned through the spec string as *multipliers* of the
defaults of ``seqsolve._eval.default_weights()``: ``heuristic:w_block=2``
doubles every blocking weight (the list of four, by opponent fill), and
``w_jack_cost=0`` makes jacks free.  The Python side only translates specs and
hands the observation's compiled game to the C functions; every per-move
computation (scoring, one-ply evaluation, the tree search and its playouts)
runs in C without the GIL.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _choose, _eval, _search
from ..games.sequence.rules import Rules
from ..games.sequence.state import State
from .base import Bot, Param

_WEIGHT_HELP = {
    "w_win": "win now",
    "w_complete": "complete a sequence",
    "w_block": "block opponent windows (by their fill 1..4)",
    "w_block_win": "block an opponent's winning window",
    "w_extend": "extend own open windows (by fill 0..4)",
    "w_jack_cost": "cost of spending a two-eyed jack",
    "w_remove_cost": "cost of spending a one-eyed jack",
    "w_centre": "centre cells",
    "w_corner_line": "lines through a corner",
    "w_exchange": "value of exchanging a dead card",
    "w_pick": "draft pick quality",
    "w_tactics": "one-ply tactics inside the evaluation",
    "w_open": "open windows in the evaluation (by fill)",
    "w_threat": "windows one card from completion",
    "w_win_threat": "threats that would win",
    "w_double_threat": "double threats",
    "w_win_double": "winning double threats",
    "w_sequence": "completed sequences",
    "w_jack_in_hand": "two-eyed jacks in hand",
    "w_remove_in_hand": "one-eyed jacks in hand",
    "w_dead_card": "dead cards in hand (negative value)",
    "w_ready": "threats the hand can complete",
    "w_win_ready": "winning threats the hand can complete",
    "w_tempo": "having the move",
    "w_dead_open": "open windows needing a cell no card left can fill (by fill)",
    "w_hand": "live windows by fill plus cells the hand can fill (1..5)",
    "eval_scale": "scale of the logistic win estimate",
}


#: weights are multiplied by at most this: a thousand times any default already
#: swamps every other term of the score
WEIGHT_FACTOR_MAX = 1000.0


def _weight_params() -> dict[str, Param]:
    return {
        name: Param(float, 1.0, f"× default weight: {_WEIGHT_HELP.get(name, name)}", maximum=WEIGHT_FACTOR_MAX)
        for name in _eval.default_weights()
    }


def _scaled_weights(options: dict[str, Any]) -> dict[str, Any]:
    """Default weights multiplied by the spec's factors (only those that differ from 1)."""
    weights = {}
    for name, default in _eval.default_weights().items():
        factor = options.get(name, 1.0)
        if factor == 1.0:
            continue
        if isinstance(default, (tuple, list)):
            weights[name] = tuple(v * factor for v in default)
        else:
            weights[name] = default * factor
    return weights


_INFER = Param(
    float, 0.0, "temperature of the opponent model weighing worlds by the last play (0: off)", maximum=100.0
)
_RECALL = Param(
    bool, False, "draft variant: every world keeps the cards the other seats took from the face-up draft "
                 "and have not played since (public, RULES.md D-1) in their hands"
)


class _Evidence:
    """What a searching bot with ``infer=T`` remembers between its turns: its own
    view after its last action.  At its next turn the play an opponent made in
    between weighs the worlds it deals (Searcher.set_evidence): an opponent who
    passed over a strong play probably did not hold the card for it.  Only public
    information is used (the board and the discards both views show)."""

    options: dict[str, Any]
    open_information: bool

    def start(self, rules, seats: str, seat: int) -> None:
        self._before: State | None = None

    def check_rules(self, rules) -> None:
        """``recall`` keeps the cards taken from the face-up draft: only the draft variant has one."""
        if self.options["recall"] and getattr(rules, "draw_mode", None) != "draft":
            from .base import BotError

            raise BotError(
                f"bot {self.name}: recall keeps the cards taken from the face-up draft, which only the draft"
                f" variant has (draw_mode=draft), not {rules.variant}"
            )

    def _infers(self) -> bool:
        return self.options["infer"] > 0 and not self.open_information

    def _weigh(self, searcher: _search.Searcher, observation: State) -> None:
        if not self._infers():
            return
        before = getattr(self, "_before", None)
        if before is None:
            searcher.clear_evidence()  # a new game: what the last one showed is void
        elif before.current_player != observation.current_player:
            searcher.set_evidence(before.core, observation.core, self.options["infer"])
        # else our own exchange came first this turn: the evidence stands

    def _remember(self, observation: State, action: int) -> None:
        if self._infers():
            after = observation.clone()
            after.apply_legal(action)
            self._before = after


class GreedyBot(Bot):
    name = "greedy"
    summary = "one ply: win now, block a side about to win, extend its best windows, keep jacks"
    params = _weight_params()

    def __init__(self, **values: Any):
        super().__init__(**values)
        self._weights = _scaled_weights(self.options)

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        return _choose.greedy_action(observation.core, rng.bit_generator, self._weights)

    def loop_chooser(self, rules: Rules) -> tuple[str, dict, int]:
        return self.name, self._weights, 0


class HeuristicBot(GreedyBot):
    name = "heuristic"
    summary = "one ply with a full evaluation: open windows, threats, double threats, card economy"
    params = _weight_params()

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        return _choose.heuristic_action(observation.core, rng.bit_generator, self._weights)


#: mcts's default work budget per move (Searcher.search's ``work`` units, 8-15 ns
#: of CPU each on the machines measured): the issue's 0.1 s on one core with a margin
#: for a loaded box on the slower of them (a 2 GHz Xeon), yet the same seed plays the
#: same game anywhere; it cuts about half the draft moves (up to ~10 M units at 6,000
#: iterations) and no move of another preset measured (at most ~4.6 million units there:
#: benchmarks/RESULTS.md, "A deterministic work budget" and "The draft search at 0.1 s
#: on the Xeon host (tenth session)")
MOVE_WORK = 6_000_000


class MCTSBot(_Evidence, Bot):
    name = "mcts"
    summary = "information-set MCTS in C: a fresh world of hidden cards every iteration"
    _search_defaults = _search.default_params()
    params = {
        "iters": Param(int, 6000, "iterations per move (0: none, time or work alone ends the search); 6,000 "
                             "take about 15-30 ms (classic, numbers) to 55 ms (draft) of CPU a move, work bounds the worst",
                       maximum=10**9),
        "time": Param(float, 0.0, "seconds per move (0: use iterations only)", maximum=86_400.0),
        "c": Param(float, _search_defaults["c"], "UCB1 exploration constant (values in [0, 1])", maximum=10.0),
        "depth": Param(
            int,
            _search_defaults["playout_depth"],
            "playout actions before the evaluation scores the position (0: score the new leaf; -1: play to the end)",
            minimum=-1,
            maximum=1000,
        ),
        "quiet": Param(
            int,
            _search_defaults["playout_quiet"],
            "most decisive moves (complete a sequence, block a winning cell) played after the playout's depth "
            "before the evaluation scores the position",
            maximum=100,
        ),
        "eps": Param(
            float, _search_defaults["policy_eps"], "chance that a playout move is the best of k by the greedy score", maximum=1.0
        ),
        "k": Param(int, _search_defaults["policy_k"], "sampled moves the guided playout chooses among", minimum=1, maximum=1000),
        "expand": Param(int, _search_defaults["expand_k"], "untried moves drawn at an expansion, the best by the "
                        "greedy score expanded (1: a uniform draw)", minimum=1, maximum=1000),
        "others": Param(int, _search_defaults["other_policy"], "1: the other seats move by the playout policy "
                        "(a decisive move, else the best of expand draws), not by the tree; 0: by the tree; "
                        "-1: 1 with 3 sides", minimum=-1, maximum=1),
        "oheur": Param(int, _search_defaults["other_heuristic"], "where the other seats move by the policy "
                       "(others): 1: the heuristic's move, on what that seat sees; 0: the policy's; -1: 1 with 3 sides",
                       minimum=-1, maximum=1),
        "greedy": Param(bool, bool(_search_defaults["playout_greedy"]), "playouts play greedy's move (every action scored)"),
        "nodes": Param(int, _search_defaults["max_nodes"], "most tree nodes kept", minimum=16, maximum=10**9),
        "hold": Param(float, _search_defaults["hold"], "draft variant: × what each known hand card is worth "
                      "to hold, added to the evaluation (0: the picks are told apart by playouts only)",
                      maximum=100.0),
        "top": Param(int, _search_defaults["root_top"], "root candidates: the heuristic's best k moves "
                     "(0: every legal move; -1: 8 in the draft variant, else 0)", minimum=-1, maximum=10**4),
        "rank": Param(bool, bool(_search_defaults["root_rank"]), "the root's moves enter the tree in the "
                      "heuristic's order, best first"),
        "puct": Param(float, _search_defaults["root_puct"], "PUCT at the root with the heuristic's rank as prior "
                      "(the constant; 0: UCB1; -1: 1 where 3 teams each need 2 or more sequences, else 0)",
                      minimum=-1.0, maximum=100.0),
        "margin": Param(float, _search_defaults["root_margin"], "safety net: play the heuristic's move "
                        "unless the search's most visited move beats its mean value by this many standard "
                        "errors (binomial, of the difference; the heuristic's move is searched first; 0: off)",
                        maximum=100.0),
        "work": Param(int, MOVE_WORK, "most work units a move may spend, whatever iters says (8-15 ns "
                      "of CPU each; the same seed stops at the same iteration anywhere; 0: none; "
                      "off when time= is given)", maximum=10**15),
        "cap": Param(float, 0.0, "most CPU seconds of this thread a move may take, whatever iters says "
                     "(0: none; a move it cuts depends on the machine's load; off when time= is given)",
                     maximum=86_400.0),
        "open": Param(bool, False, "perfect information (sees every card: for analysis only)"),
        "infer": _INFER,
        "recall": _RECALL,
        **_weight_params(),
    }

    def __init__(self, **values: Any):
        super().__init__(**values)
        if not self.options["iters"] and not self.options["time"] and not self.options["work"]:
            from .base import BotError

            raise BotError("bot mcts: give iters, time or work")
        if self.options["cap"] and self.options["time"]:
            from .base import BotError

            raise BotError("bot mcts: cap bounds a move's iterations, and time= replaces them: give cap or time, not both")
        self.open_information = bool(self.options["open"])
        self._searcher: _search.Searcher | None = None
        self.last: dict | None = None

    def searcher(self) -> _search.Searcher:
        if self._searcher is None:
            self._searcher = _search.Searcher(self.searcher_params())
        return self._searcher

    def searcher_params(self) -> dict[str, Any]:
        """What ``_search.Searcher`` takes: the options the spec changed, by the searcher's names."""
        o = self.options
        names = {
            "c": "c", "depth": "playout_depth", "quiet": "playout_quiet", "eps": "policy_eps", "k": "policy_k",
            "greedy": "playout_greedy", "nodes": "max_nodes", "hold": "hold", "top": "root_top",
            "rank": "root_rank", "puct": "root_puct", "expand": "expand_k",
            "others": "other_policy", "oheur": "other_heuristic", "margin": "root_margin", "recall": "recall",
        }
        # only what the spec changed: the search keeps its own tuned defaults
        params = {key: o[name] for name, key in names.items() if o[name] != self.params[name].default}
        params.update(_scaled_weights(o))
        return params

    def loop_chooser(self, rules: Rules) -> tuple[str, dict, int] | None:
        """The compiled loop plays the deterministic budgets (iters, work) alone: a time
        budget or cap depends on the machine, evidence on Python-side memory."""
        o = self.options
        if o["time"] or o["cap"] or o["infer"] or self.open_information:
            return None
        return self.name, {"params": self.searcher_params(), "iterations": o["iters"], "work": o["work"]}, 0

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        seat = observation.current_player
        self._weigh(self.searcher(), observation)
        self.last = self.searcher().search(
            observation.core,
            seat,
            rng.bit_generator,
            iterations=self.options["iters"],
            seconds=self.options["time"],
            open_information=int(self.open_information),
            cpu_seconds=0.0 if self.options["time"] else self.options["cap"],
            work=0 if self.options["time"] else self.options["work"],
        )
        self._remember(observation, self.last["best"])
        return self.last["best"]

    def close(self) -> None:
        self._searcher = None


_SEE = {"none": 0, "all": 1, "hands": 2}
_POLICY = {"greedy": 0, "heuristic": 1}


class RolloutBot(_Evidence, Bot):
    name = "rollout"
    summary = "flat Monte Carlo: the k best moves by the greedy score, each played to the end in the same worlds"
    params = {
        "worlds": Param(
            int, 1600, "deals of the unseen cards per move; every candidate is played out in each (with time: the most)",
            minimum=1, maximum=10**7,
        ),
        "time": Param(
            float, 0.0, "seconds per move (0: play every world): worlds are dealt in batches until it is spent",
            maximum=86_400.0,
        ),
        "k": Param(int, 8, "candidate moves: the best by the greedy score", minimum=1, maximum=1000),
        "halve": Param(bool, False, "sequential halving: the budget in rounds, the worse half of the candidates "
                                    "dropped after each (the same playouts, more of them on the best)"),
        "policy": Param(str, "greedy", "who plays the playouts, for every side: greedy or heuristic"),
        "depth": Param(int, 0, "actions played after a candidate before the evaluation scores it (0: to the end)",
                       minimum=0, maximum=10**6),
        "work": Param(
            int, 0, "work units per move (about 60 ns of CPU each on average; 0: none): worlds are dealt in batches "
                    "of 8 until they are spent; counted, so a move does not depend on the machine's load",
            minimum=0, maximum=10**12,
        ),
        "see": Param(str, "none", "none (fair); for analysis only: hands (every hand), all (hands and draw pile)"),
        "infer": _INFER,
        "recall": _RECALL,
        **_weight_params(),
    }

    def __init__(self, **values: Any):
        super().__init__(**values)
        from .base import BotError

        for key, allowed in (("policy", _POLICY), ("see", _SEE)):
            if self.options[key] not in allowed:
                raise BotError(f"bot rollout: {key} is one of {', '.join(allowed)}, not {self.options[key]!r}")
        self.open_information = self.options["see"] != "none"
        self._weights = _scaled_weights(self.options)
        self._searcher: _search.Searcher | None = None

    def searcher_params(self) -> dict[str, Any]:
        """What ``_search.Searcher`` takes: the weights the spec changed, and recall when on."""
        return {**self._weights, **({"recall": 1} if self.options["recall"] else {})}

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        action = self._choose(observation, rng)
        self._remember(observation, action)
        return action

    def _choose(self, observation: State, rng: np.random.Generator) -> int:
        if self._searcher is None:
            self._searcher = _search.Searcher(self.searcher_params())
        self._weigh(self._searcher, observation)
        o = self.options
        return self._searcher.rollout_choice(
            observation.core,
            observation.current_player,
            rng.bit_generator,
            o["k"],
            o["worlds"],
            halve=o["halve"],
            seconds=o["time"],
            open_information=_SEE[o["see"]],
            policy=_POLICY[o["policy"]],
            depth=o["depth"],
            work=o["work"],
        )

    def loop_chooser(self, rules: Rules) -> tuple[str, dict, int] | None:
        """The compiled loop plays every world (no time budget), fair, without evidence."""
        o = self.options
        if o["time"] or o["infer"] or self.open_information:
            return None
        choice = {"params": self.searcher_params(), "k": o["k"], "worlds": o["worlds"], "halve": o["halve"],
                  "policy": _POLICY[o["policy"]], "depth": o["depth"], "work": o["work"]}
        return self.name, choice, 0

    def close(self) -> None:
        self._searcher = None
