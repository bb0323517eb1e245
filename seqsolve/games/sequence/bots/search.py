"""The bots whose brains live in the compiled search module: greedy, heuristic, mcts, rollout.

The evaluation's weights are one set, chosen by ``weights=``: ``default`` (the
weights of ``seqsolve._eval.default_weights()``) or a JSON file holding an
object of weights by name (``{"w_block": [1, 3, 12, 3000], "w_jack_cost": 20}``);
a weight the file leaves out keeps its default.  benchmarks/tune_weights.py and
benchmarks/fit_eval.py ``--plain`` write such files.  The Python side only
translates specs and hands the observation's compiled game to the C functions;
every per-move computation (scoring, one-ply evaluation, the tree search and its
playouts) runs in C without the GIL.
"""

from __future__ import annotations

import json
import math
from typing import Any, ClassVar

import numpy as np

from .... import _choose, _eval, _search
from ...bot import Bot, BotError, Param
from ..rules import Rules
from ..state import State

#: the named weight sets of ``weights=NAME``: each the weights it changes from the defaults
WEIGHT_SETS: dict[str, dict[str, Any]] = {"default": {}}

#: a weight's magnitude above which the evaluation's sums would lose every other term
WEIGHT_MAX = 1e12


def load_weights(bot: str, text: str) -> dict[str, Any]:
    """The weights ``weights=text`` names: a set of :data:`WEIGHT_SETS`, else a JSON
    file of weights by name, each a number or (for the weights by fill) a list of
    as many numbers as the default has.

    >>> load_weights("heuristic", "default")
    {}

    Raises:
        BotError: an unreadable file, or one that is not such an object, in one line.
    """
    if text in WEIGHT_SETS:
        return dict(WEIGHT_SETS[text])
    where = f"bot {bot}: weights file {text}"
    try:
        with open(text, encoding="utf-8") as fh:
            given = json.load(fh)
    except FileNotFoundError:
        sets = ", ".join(WEIGHT_SETS)
        raise BotError(f"bot {bot}: weights {text!r} is neither a weight set ({sets}) nor a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BotError(f"{where}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    except json.JSONDecodeError as exc:
        raise BotError(f"{where}, line {exc.lineno} column {exc.colno}: not JSON ({exc.msg})") from None
    if not isinstance(given, dict):
        raise BotError(f"{where}: holds a JSON object of weights by name")
    defaults = _eval.default_weights()
    weights = {}
    for name, value in given.items():
        if name not in defaults:
            raise BotError(f"{where}: unknown weight {name!r} (known: {', '.join(defaults)})")
        default = defaults[name]
        values = value if isinstance(value, list) else [value]
        size = len(default) if isinstance(default, tuple) else None
        if (
            len(values) != (size or 1)
            or (size is None) != (not isinstance(value, list))
            or not all(_finite_weight(v) for v in values)
        ):
            shape = f"a list of {size} numbers" if size else "a number"
            raise BotError(
                f"{where}: weight {name} is {shape} of magnitude at most {WEIGHT_MAX:g}, not {value!r}"
            )
        weights[name] = tuple(float(v) for v in values) if size else float(value)
    return weights


def _finite_weight(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= WEIGHT_MAX
    )


class _WeightsParam(Param):
    """``weights=NAME|FILE``: checked (the file read) when the spec is parsed."""

    def parse(self, bot: str, name: str, text: str) -> Any:
        load_weights(bot, text)
        return text


_WEIGHTS = _WeightsParam(
    str, "default", "evaluation weights: a named set (default) or a JSON file of weights by name"
)

#: the parameters of earlier versions that measured no gain and were removed, by bot,
#: and the one line that says so (benchmarks/RESULTS.md has their measurements)
_NO_GAIN = "it measured no gain over the default (benchmarks/RESULTS.md)"
_PER_WEIGHT = "the evaluation weights are one set now: weights=FILE, a JSON object of weights by name"
_REMOVED_WEIGHTS = {name: _PER_WEIGHT for name in _eval.default_weights()}


_INFER = Param(
    float, 0.0, "temperature of the opponent model weighing worlds by the last play (0: off)", maximum=100.0
)
_RECALL = Param(
    bool, False, "draft variant: worlds keep the cards each seat was seen to take and has not played (D-1)"
)


class _Evidence:
    """What a searching bot with ``infer=T`` remembers between its turns: its own
    view after its last action.  At its next turn the play an opponent made in
    between weighs the worlds it deals (Searcher.set_evidence): an opponent who
    passed over a strong play probably did not hold the card for it.  Only public
    information is used (the board and the discards both views show).  At its first
    turn of a game (one read from a position file too) the last play the position
    records (P-20) stands in for the view it has not kept."""

    options: dict[str, Any]
    open_information: bool

    def start(self, rules, seats: str, seat: int) -> None:
        self._before: State | None = None

    def check_rules(self, rules) -> None:
        """``recall`` keeps the cards taken from the face-up draft: only the draft variant has one."""
        if self.options["recall"] and getattr(rules, "draw_mode", None) != "draft":
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
        if before is None:  # a new game, or one read from a position: the last play it records
            before = observation.before_last_play()
            if before is None:
                searcher.clear_evidence()  # what the last game showed is void
            else:
                searcher.set_evidence(before.core, observation.core, self.options["infer"])
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
    params: ClassVar[dict[str, Param]] = {"weights": _WEIGHTS}
    removed: ClassVar[dict[str, str]] = _REMOVED_WEIGHTS

    def __init__(self, **values: Any):
        super().__init__(**values)
        self._weights = load_weights(self.name, self.options["weights"])

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        return _choose.greedy_action(observation.core, rng.bit_generator, self._weights)

    def loop_chooser(self, rules: Rules) -> tuple[str, dict, int]:
        return self.name, self._weights, 0


class HeuristicBot(GreedyBot):
    name = "heuristic"
    summary = "one ply with a full evaluation: open windows, threats, double threats, card economy"

    def choose(self, observation: State, rng: np.random.Generator) -> int:
        return _choose.heuristic_action(observation.core, rng.bit_generator, self._weights)


#: mcts's default work budget per move (Searcher.search's ``work`` units, 8-15 ns
#: of CPU each on the machines measured): the issue's 0.1 s on one core with a margin
#: for a loaded box on the slower of them (a 2 GHz Xeon), yet the same seed plays the
#: same game anywhere; it cuts about half the draft moves (up to ~10 M units at 6,000
#: iterations) and no move of another preset measured (at most ~4.6 million units there:
#: benchmarks/RESULTS.md, "Experiments: speed" and "Experiments: the draft search")
MOVE_WORK = 6_000_000


class MCTSBot(_Evidence, Bot):
    name = "mcts"
    summary = "information-set MCTS in C: a fresh world of hidden cards every iteration"
    _search_defaults = _search.default_params()
    params = {
        "iters": Param(
            int, 6000, "iterations per move (0: none; time or work alone ends the search)", maximum=10**9
        ),
        "time": Param(float, 0.0, "seconds per move (0: iterations and work only)", maximum=86_400.0),
        "work": Param(
            int,
            MOVE_WORK,
            "most work units a move spends (8-15 ns of CPU each, counted: the same on any machine; 0: none)",
            maximum=10**15,
        ),
        "cap": Param(
            float,
            0.0,
            "most CPU seconds of its thread a move takes (0: none; off with time)",
            maximum=86_400.0,
        ),
        "c": Param(
            float, _search_defaults["c"], "UCB1 exploration constant (values in [0, 1])", maximum=10.0
        ),
        "depth": Param(
            int,
            _search_defaults["playout_depth"],
            "playout actions before the evaluation scores (0: the new leaf; -1: to the end)",
            minimum=-1,
            maximum=1000,
        ),
        "eps": Param(
            float,
            _search_defaults["policy_eps"],
            "chance that a playout move is the best of k by the greedy score",
            maximum=1.0,
        ),
        "k": Param(
            int,
            _search_defaults["policy_k"],
            "sampled moves a guided playout move is chosen among",
            minimum=1,
            maximum=1000,
        ),
        "expand": Param(
            int,
            _search_defaults["expand_k"],
            "untried moves drawn at an expansion, the best by the greedy score taken",
            minimum=1,
            maximum=1000,
        ),
        "others": Param(
            int,
            _search_defaults["other_policy"],
            "the other seats move by the playout policy (1) or the tree (0); -1: 1 with 3 sides",
            minimum=-1,
            maximum=1,
        ),
        "top": Param(
            int,
            _search_defaults["root_top"],
            "root candidates: the heuristic's best k moves (0: all; -1: 8 in the draft variant, else all)",
            minimum=-1,
            maximum=10**4,
        ),
        "puct": Param(
            float,
            _search_defaults["root_puct"],
            "root PUCT constant, the heuristic's rank as prior (0: UCB1; -1: 1 "
            "where 3 teams need 2+ sequences)",
            minimum=-1.0,
            maximum=100.0,
        ),
        "hold": Param(
            float,
            _search_defaults["hold"],
            "draft variant: × what each known hand card is worth to hold",
            maximum=100.0,
        ),
        "nodes": Param(int, _search_defaults["max_nodes"], "most tree nodes kept", minimum=16, maximum=10**9),
        "infer": _INFER,
        "recall": _RECALL,
        "open": Param(bool, False, "sees every card (analysis only)"),
        "weights": _WEIGHTS,
    }
    removed: ClassVar[dict[str, str]] = {
        **_REMOVED_WEIGHTS,
        **{name: _NO_GAIN for name in ("quiet", "oheur", "greedy", "rank", "margin")},
    }

    def __init__(self, **values: Any):
        super().__init__(**values)
        if not self.options["iters"] and not self.options["time"] and not self.options["work"]:
            raise BotError("bot mcts: give iters, time or work")
        if self.options["cap"] and self.options["time"]:
            raise BotError(
                "bot mcts: cap bounds a move's iterations, and time= replaces them: give cap or time, not both"
            )
        self.open_information = bool(self.options["open"])
        self._weights = load_weights(self.name, self.options["weights"])
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
            "c": "c",
            "depth": "playout_depth",
            "eps": "policy_eps",
            "k": "policy_k",
            "nodes": "max_nodes",
            "hold": "hold",
            "top": "root_top",
            "puct": "root_puct",
            "expand": "expand_k",
            "others": "other_policy",
            "recall": "recall",
        }
        # only what the spec changed: the search keeps its own tuned defaults
        params = {key: o[name] for name, key in names.items() if o[name] != self.params[name].default}
        params.update(self._weights)
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
    summary = (
        "flat Monte Carlo: the k best moves by the greedy score, each played to the end in the same worlds"
    )
    params = {
        "worlds": Param(
            int,
            1600,
            "deals of the unseen cards per move, every candidate played in each (with time: the most)",
            minimum=1,
            maximum=10**7,
        ),
        "time": Param(
            float,
            0.0,
            "seconds per move: worlds dealt in batches of 8 until spent (0: every world)",
            maximum=86_400.0,
        ),
        "k": Param(int, 8, "candidate moves: the best by the greedy score", minimum=1, maximum=1000),
        "halve": Param(
            bool, False, "sequential halving: the worse half of the candidates dropped after each round"
        ),
        "policy": Param(str, "greedy", "who plays the playouts for every side: greedy or heuristic"),
        "depth": Param(
            int,
            0,
            "actions played after a candidate before the evaluation scores it (0: to the end)",
            minimum=0,
            maximum=10**6,
        ),
        "work": Param(
            int,
            0,
            "work units per move (about 60 ns of CPU each, counted: the same on any machine; 0: none)",
            minimum=0,
            maximum=10**12,
        ),
        "see": Param(
            str, "none", "none (fair); for analysis only: hands (every hand), all (and the draw pile)"
        ),
        "infer": _INFER,
        "recall": _RECALL,
        "weights": _WEIGHTS,
    }
    removed: ClassVar[dict[str, str]] = _REMOVED_WEIGHTS

    def __init__(self, **values: Any):
        super().__init__(**values)
        for key, allowed in (("policy", _POLICY), ("see", _SEE)):
            if self.options[key] not in allowed:
                raise BotError(
                    f"bot rollout: {key} is one of {', '.join(allowed)}, not {self.options[key]!r}"
                )
        self.open_information = self.options["see"] != "none"
        self._weights = load_weights(self.name, self.options["weights"])
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
        choice = {
            "params": self.searcher_params(),
            "k": o["k"],
            "worlds": o["worlds"],
            "halve": o["halve"],
            "policy": _POLICY[o["policy"]],
            "depth": o["depth"],
            "work": o["work"],
        }
        return self.name, choice, 0

    def close(self) -> None:
        self._searcher = None
