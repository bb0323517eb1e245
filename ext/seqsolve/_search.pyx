# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The tree search of the bots: information-set Monte Carlo tree search in C on the
core's ``Game`` struct, built from the evaluation of ``seqsolve._eval``, the
choosers of ``seqsolve._choose``, the worlds of ``seqsolve._worlds`` and the
rollouts of ``seqsolve._rollout`` (the bases of :class:`Searcher`, the one class
the bots build).

* :class:`Searcher` runs single-observer information-set MCTS (Cowling, Powley
  & Whitehouse 2012): every iteration deals the cards the searching seat cannot
  see at random, descends the tree among the children legal in that world by
  UCB1 with availability counts and progressive widening, expands one untried
  action (a decisive one first: win, block a win), and finishes with a short
  guided playout scored by the evaluation.  The loop runs without the GIL;
  nothing per node touches Python.
* :meth:`Searcher.rollout_values` and :meth:`Searcher.rollout_choice` (from
  ``seqsolve._rollout``) are flat Monte Carlo: a few candidate actions, each
  played out in the same dealt worlds (the ``rollout`` bot).
* :meth:`Searcher.set_evidence` (from ``seqsolve._worlds``) makes the worlds
  follow the opponent's last play.

Everything is driven by a numpy bit generator passed in by the caller, so a
fixed seed and iteration or work budget give the same answer every time.  The
compiled game loop (``seqsolve._loop``) runs the same search and the same
``rollout`` choice per move through :func:`search_move` and ``_rollout.rollout_move``,
on its own copies of numpy's streams.

>>> import numpy as np
>>> from seqsolve.games.sequence.rules import parse_rules
>>> from seqsolve.games.sequence.state import State
>>> from seqsolve import _search
>>> state = State.new(parse_rules("classic", players=2), seed=1)
>>> seat = state.current_player
>>> result = _search.Searcher().search(state.observation(seat).core, seat, np.random.PCG64(2), iterations=200)
>>> result["best"] in state.legal_actions()
True
"""

from libc.math cimport log, pow, sqrt, INFINITY
from libc.stdint cimport uint8_t, uint16_t, int8_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
import threading
from numpy.random cimport bitgen_t

from seqsolve._core cimport (
    u128, ctz128, popcount128, Tables, Game, CoreGame,
    bit, nth_cell, rand_below, encode, act_kind, act_card, act_cell, act_pick,
    MAX_SIDES, MAX_HAND, MAX_CODES, MAX_MOVES, UNKNOWN_CARD, NO_CELL,
    ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE, ACT_PASS,
    CARD_NORMAL, CARD_WILD, CARD_REMOVE, RESULT_NONE,
    gen_actions, apply_action, declare_sequences,
)
from seqsolve._eval cimport (
    ScoreMemo, Threats, Ctx, bitgen_of, make_ctx, fill_weights, memo_clear, memo_score,
    action_score, side_values, side_value,
)
from seqsolve._choose cimport HeuristicKey, HeuristicMemo, heuristic_start, key_order, heuristic_key, urgent_action
from seqsolve._worlds cimport (
    MAX_SLOTS, WORK_ACT, WORK_SCORE, WORK_PLY, WORK_EVAL, WORK_HELD, WORK_LIKE,
    now, thread_cpu, keep_searching,
)
from seqsolve._worlds import halt  # noqa: F401  (seqsolve._search.halt: what drivers call)
from seqsolve._rollout cimport Rollouts

# ---------------------------------------------------------------- playout policy

cdef inline Threats* tally_threats(const Game* g, Threats* th) noexcept nogil:
    """The threat windows urgent_action reads, from a world's window tally: it keeps
    them current, so the search needs neither threats_scan's scan of every window
    nor threats_update's upkeep after each action."""
    memcpy(th.w, g.tally.threat, sizeof(th.w))
    return th


cdef int32_t sample_action(const Ctx* ctx, const Game* g, bitgen_t* rng) noexcept nogil:
    """A cheap random legal action for playouts, by card rather than by action: a
    dead-card exchange if one is allowed (it never hurts), else a card chosen
    uniformly among the playable ones and a target uniformly among its targets (so
    a two-eyed jack is not played 96 times more often than a plain card), else a
    pass.  The draft card taken is uniform among the draft (D-1)."""
    cdef const Tables* t = ctx.t
    cdef int seat = g.to_move
    cdef int me = t.seat_side[seat]
    cdef int i, c, n = 0, pick = -1, kind
    cdef int playable[MAX_HAND]
    cdef u128 targets, removable
    cdef u128 tg[MAX_HAND]
    if t.draft_mode and g.draft_n > 0:
        pick = g.draft[rand_below(rng, g.draft_n)]
    removable = (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[me] & ~g.locked
    for i in range(g.hand_n[seat]):
        c = g.hand[seat][i]
        if c >= MAX_CODES:
            continue
        kind = t.card_kind[c]
        if kind == CARD_NORMAL:
            targets = t.card_cells[c] & g.empty
            if targets == 0:
                if g.ex_left > 0:
                    return encode(ACT_EXCHANGE, c, NO_CELL, pick)
                continue
        elif kind == CARD_WILD:
            targets = g.empty
        else:
            targets = removable
        if targets:
            playable[n] = c
            tg[n] = targets
            n += 1
    if n == 0:
        return encode(ACT_PASS, 0, NO_CELL, -1)
    i = rand_below(rng, n)
    c = playable[i]
    targets = tg[i]
    kind = ACT_REMOVE if t.card_kind[c] == CARD_REMOVE else ACT_PLACE
    if targets & (targets - 1):
        return encode(kind, c, nth_cell(targets, rand_below(rng, popcount128(targets))), pick)
    return encode(kind, c, ctz128(targets), pick)


cdef int32_t policy_action(const Ctx* ctx, const Game* g, bitgen_t* rng,
                           double eps, int k) noexcept nogil:
    """With probability eps the best by score_action of k sampled actions, else one
    sampled action (see sample_action)."""
    cdef int32_t a = sample_action(ctx, g, rng), b
    cdef double best, s
    cdef int j
    if k <= 1 or eps <= 0.0 or act_kind(a) >= ACT_EXCHANGE or (eps < 1.0 and rng.next_double(rng.state) >= eps):
        return a
    best = action_score(ctx, g, a)
    for j in range(1, k):
        b = sample_action(ctx, g, rng)
        if b == a:
            continue
        s = action_score(ctx, g, b)
        if s > best:
            best = s
            a = b
    return a


# ---------------------------------------------------------------- parameters

_DEFAULT_SEARCH = {
    "c": 0.3,
    "widen": 1.0,
    "widen_exp": 0.5,
    "expand_k": 8,
    "decisive": 1,
    "root_win": 1,
    "root_prior": 30.0,
    "root_top": -1,
    "root_puct": -1.0,
    "other_policy": -1,
    "playout_depth": 2,
    "policy_eps": 0.5,
    "policy_k": 4,
    "max_nodes": 1_000_000,
    "hold": 1.0,
    "recall": 0,
}


def default_params():
    """The default :class:`Searcher` parameters: the search keys and every weight."""
    from seqsolve._eval import default_weights  # not re-exported: _eval owns it

    params = dict(_DEFAULT_SEARCH)
    params.update(default_weights())
    return params

# ---------------------------------------------------------------- ISMCTS

cdef enum:
    DRAFT_TOP = 8  # root_top's default in the draft variant (root_top=-1)
    HASH_BITS = 14
    HASH_SIZE = 1 << HASH_BITS
    MAX_PATH = 512
    LOG_TABLE = 1 << 16

ctypedef struct Node:
    double value[MAX_SIDES]   # summed value of each side over the visits
    uint32_t visits
    uint32_t avail            # parent visits in which this action was legal
    int32_t children          # pool index of the first child; children are contiguous
    uint16_t n_children
    uint16_t cap_children
    int8_t side               # the side that chose the action
    float prior               # root children: the static value of the action (heuristic)
    float p                   # root children: the PUCT prior of the action (root_puct)

ctypedef struct Slot:
    int32_t key
    uint32_t stamp
    int32_t index

cdef double LOG_N[LOG_TABLE]
cdef int _i
LOG_N[0] = 0.0
for _i in range(1, LOG_TABLE):
    LOG_N[_i] = log(<double>_i)


cdef inline double log_n(uint32_t n) noexcept nogil:
    return LOG_N[n] if n < LOG_TABLE else log(<double>n)

cdef int32_t winning_play(const Tables* t, const Game* g, const int32_t* acts, int n) noexcept nogil:
    """The first of ``acts`` (the legal actions of ``g``, P-13 order) whose chip wins
    the game at once by the sequences it declares (C-10, C-26; with the heart rule,
    D-3, also the fourth heart cell), else -1.  A search cannot better a win, and a
    search that spends its budget elsewhere may never try it: a two-eyed jack offers
    nearly every cell, and progressive widening lets in only some of them.  Each
    cell is placed on a copy with the core's own declaration, so it is exact; no
    random draw is used, so a search that finds none runs as it would have."""
    cdef Game child
    cdef int me = t.seat_side[g.to_move], i, k, cell
    cdef u128 counting = g.chips[me] | t.corners, tried = 0, wins = 0, b
    for i in range(n):
        if act_kind(acts[i]) != ACT_PLACE:
            continue
        cell = act_cell(acts[i])
        b = bit(cell)
        if not (tried & b):
            tried |= b
            for k in range(t.through_n[cell]):
                if (t.window_mask[t.through[cell][k]] & ~(counting | b)) == 0:
                    break
            else:
                if not (t.heart and (b & t.heart_mask)):
                    continue  # no window through the cell fills, and no heart: no win
            memcpy(&child, g, sizeof(Game))
            child.tally.on = 0
            child.chips[me] |= b
            child.empty &= ~b
            if declare_sequences(t, &child, me, cell, NULL, -1):
                wins |= b
        if wins & b:
            return acts[i]
    return -1

cdef class Searcher(Rollouts):
    """Information-set MCTS for one observer (SO-ISMCTS), in C without the GIL.

    Each iteration deals the cards the viewer cannot see at random (a
    determinization), descends the tree choosing, among the children whose action
    is legal in that world, by UCB1 with availability counts, expands one untried
    legal action, plays a short guided playout, scores the end with the static
    evaluation (or the result) and backs up one value per side; a node keeps the
    value of the side that chose its action, so 2 or 3 sides and teams work alike.

    Args:
        params: overrides of :func:`default_params` (unknown keys: ValueError):

            * ``c``: UCB1 exploration constant on values in [0, 1].
            * ``widen``, ``widen_exp``: progressive widening; a node with ``v``
              visits gets a new child only while fewer than ``widen * (v+1) **
              widen_exp`` of its children are legal in the current world
              (``widen=0``: expand whenever an untried action is legal, as in
              plain ISMCTS).  Without it the wide, ever-changing opponent nodes
              expand on nearly every visit and are never searched.
            * ``expand_k``: the action expanded is the best by score_action of
              ``expand_k`` untried legal ones drawn at random (1: uniform).
            * ``decisive``: expansion and playouts first take a decisive move
              (complete a winning sequence, else block an opponent's winning
              cell, else complete any sequence) when the mover's hand allows it.
            * ``root_win``: a root action that wins at once is played without a
              search (the first in P-13 order, found by placing each chip on a
              copy: exact, where ``decisive`` reads one window at a time and
              misses a cell that completes two sequences at once).  0: it is
              searched like any other move, as analysis does, which ranks every
              move and tags the winning ones itself.
            * ``root_prior``: virtual visits giving each root action the static
              value of the position after it (heuristic_action's view) until
              the search has real visits (0: off).
            * ``root_top``: the root considers only the heuristic's best
              ``root_top`` actions (heuristic_key, ties in generation order; 0:
              every legal action; -1: DRAFT_TOP in the draft variant, else 0), as
              ``rollout`` considers greedy's best k: the iterations are spent
              telling good moves apart instead of refuting the many poor ones
              (the viewer must be to move, its hand known).  In the draft variant
              every play comes with each of five picks and the cut is worth
              about 4 points against greedy; on classic it cost points
              (benchmarks/RESULTS.md, "Experiments: the draft search").
            * ``root_puct``: at the root, the exploration term is ``root_puct *
              P(a) * sqrt(avail) / (1 + visits)`` (PUCT, as in AlphaZero) with the
              prior P of the action at heuristic rank r proportional to 1/(r+1),
              instead of UCB1's: visits go to the heuristic's favourites until
              the search finds them wanting (0: off); the root's children then enter
              the tree in the heuristic's order, best first.
              Negative (the default): 1 where 3 teams each need 2 or more
              sequences (6 players), else off.  There one move shifts the
              position's value so little that the root's mean values lie within
              noise of each other (benchmarks/root_spread.py: a median spread of
              0.003-0.009 against 0.02-0.05 elsewhere), and UCB1 then picks among
              near-equals by chance; the prior lets the heuristic's judgement
              decide until the search finds its favourites wanting.  With 3
              players (seed000 3p, flat too) it scored 4.6 points less than UCB1
              on the same deals, so it stays off there.  On classic
              with 2 players it scored 3 points less against the heuristic
              (benchmarks/RESULTS.md, "Experiments: the search on classic and the blind draw"), so it
              stays off there.
            * ``other_policy``: 1: every seat but the viewer moves by the
              playout policy (a decisive move, else the best by score_action of
              ``expand_k`` drawn actions) instead of by the tree, so the tree holds
              the viewer's own choices and the visits are not spread over the
              replies of two rivals; 0: every seat by the tree; -1: 1 with 3
              sides (3 players, or 6 in 3 teams), else 0 (with 2 teams it lost
              points against heuristic on seed000: benchmarks/RESULTS.md,
              "Experiments: the search on classic and the blind draw").
            * ``playout_depth``: actions played out before the position is
              scored by the evaluation (0: score the new leaf at once; -1: play
              to the end of the game and score the result).
            * ``policy_eps``, ``policy_k``: a playout action is, with probability
              eps, the best by score_action of ``k`` sampled actions, else one
              sampled action (cards uniform, then targets; exchanges first).
            * ``max_nodes``: node-pool size at which the tree stops growing.
            * ``hold``: in the draft variant, the evaluation adds ``hold`` times
              what every known card of a hand is worth to hold (the heuristic's
              ``hold_value``): its features read no plain card in a hand, so
              without it the search cannot tell one draft pick from another.
            * ``recall``: in the draft variant, every world keeps in each other
              hand the cards that seat took from the draft and has not played
              since (public, D-1; ``CoreGame.public_hand``), and deals the rest.
            * any key of :func:`default_weights`.

    The node pool is allocated once, doubled as the tree grows (up to
    ``max_nodes``) and reused by later searches; each search starts a new tree.
    The children of a node sit side by side in the pool (a block that moves,
    doubled, when it fills), so choosing among them reads memory in order.
    "Is this child legal in this world" is one look-up in a stamp-cleared hash
    of the legal actions.  A Searcher is not thread-safe: one per thread.
    """
    cdef Node* nodes
    cdef int32_t* acts    # acts[i]: the action that leads to nodes[i] from its parent, kept
                          # beside the pool so that a descent scans a node's children's
                          # actions 16 to a cache line and reads a Node only when legal
    cdef int n_nodes, capacity, max_nodes
    cdef Slot* table
    cdef uint32_t stamp, hmask
    cdef uint8_t* tried
    cdef double c, widen, widen_exp
    cdef int policy_k, expand_k, decisive, root_win
    cdef double policy_eps
    cdef double root_prior
    cdef int n_root, root_top, top_setting, ranked
    cdef double root_puct, puct_setting, root_h
    cdef HeuristicKey* root_key
    cdef int32_t* root_act
    cdef float* root_val
    cdef int32_t path[MAX_PATH]
    cdef int other_policy, other_setting
    cdef ScoreMemo memo   # the scores pick_untried's draws share
    cdef int32_t single   # the only legal root action, or a winning one, when the search returned at once, else -1
    cdef bint single_wins  # ... and it wins the game

    def __cinit__(self):
        self.nodes = NULL
        self.acts = NULL
        self.table = NULL
        self.tried = NULL
        self.root_act = NULL
        self.root_val = NULL
        self.root_key = NULL
        self.capacity = 0
        self.n_nodes = 0
        self.single = -1

    def __init__(self, params=None):
        merged = default_params()
        fill_weights(&self.weights, params, _DEFAULT_SEARCH)
        if params:
            merged.update(params)
        self.c = float(merged["c"])
        self.playout_depth = int(merged["playout_depth"])
        self.policy_eps = float(merged["policy_eps"])
        self.policy_k = int(merged["policy_k"])
        self.max_nodes = int(merged["max_nodes"])
        self.hold = float(merged["hold"])
        self.recall = int(bool(merged["recall"]))
        self.expand_k = int(merged["expand_k"])
        self.decisive = int(bool(merged["decisive"]))
        self.root_win = int(bool(merged["root_win"]))
        self.root_prior = float(merged["root_prior"])
        self.top_setting = int(merged["root_top"])
        self.puct_setting = float(merged["root_puct"])  # resolved per search, by the rules
        self.other_setting = int(merged["other_policy"])
        self.widen = float(merged["widen"])
        self.widen_exp = float(merged["widen_exp"])
        if (self.max_nodes < 16 or self.policy_k < 1 or self.c < 0 or self.top_setting < -1
                or not -INFINITY < self.puct_setting < INFINITY or not -1 <= self.other_setting <= 1):
            raise ValueError("need max_nodes >= 16, policy_k >= 1, c >= 0, root_top >= -1, a finite root_puct "
                             "and other_policy in -1..1")
        self._params = merged
        if self.nodes == NULL:
            self.capacity = min(4096, self.max_nodes)
            self.nodes = <Node*>malloc(self.capacity * sizeof(Node))
            self.acts = <int32_t*>malloc(self.capacity * sizeof(int32_t))
            self.table = <Slot*>malloc(HASH_SIZE * sizeof(Slot))
            self.buf = <int32_t*>malloc(MAX_MOVES * sizeof(int32_t))
            self.tried = <uint8_t*>malloc(MAX_MOVES)
            self.root_act = <int32_t*>malloc(MAX_MOVES * sizeof(int32_t))
            self.root_val = <float*>malloc(MAX_MOVES * sizeof(float))
            self.root_key = <HeuristicKey*>malloc(MAX_MOVES * sizeof(HeuristicKey))
            if (self.nodes == NULL or self.acts == NULL or self.table == NULL or self.buf == NULL or self.tried == NULL
                    or self.root_act == NULL or self.root_val == NULL or self.root_key == NULL):
                raise MemoryError()
            memset(self.table, 0, HASH_SIZE * sizeof(Slot))
            self.stamp = 0
            self.hmask = HASH_SIZE - 1

    def __dealloc__(self):
        free(self.nodes)
        free(self.acts)
        free(self.table)
        free(self.tried)
        free(self.root_act)
        free(self.root_val)
        free(self.root_key)

    @property
    def params(self):
        """The parameters in use (a copy)."""
        return dict(self._params)

    @property
    def node_count(self):
        """Pool slots used by the last search's tree (the root and moved blocks included)."""
        return self.n_nodes

    # -- the legal-set hash: open addressing cleared by a stamp, O(1) per look-up;
    #    only the first 2n..4n slots are used, so small sets stay in cache
    cdef inline void new_set(self, int n) noexcept nogil:
        cdef uint32_t size = 64
        while size < <uint32_t>(2 * n) and size < HASH_SIZE:
            size <<= 1
        self.hmask = size - 1
        self.stamp += 1
        if self.stamp == 0:
            memset(self.table, 0, HASH_SIZE * sizeof(Slot))
            self.stamp = 1

    cdef inline void set_insert(self, int32_t key, int index) noexcept nogil:
        cdef uint32_t h = (((<uint32_t>key) * (<uint32_t>2654435761)) >> 16) & self.hmask
        while self.table[h].stamp == self.stamp:
            h = (h + 1) & self.hmask
        self.table[h].key = key
        self.table[h].stamp = self.stamp
        self.table[h].index = index

    cdef inline int set_find(self, int32_t key) noexcept nogil:
        cdef uint32_t h = (((<uint32_t>key) * (<uint32_t>2654435761)) >> 16) & self.hmask
        while self.table[h].stamp == self.stamp:
            if self.table[h].key == key:
                return self.table[h].index
            h = (h + 1) & self.hmask
        return -1

    # -- the node pool
    cdef int alloc_block(self, int k) noexcept nogil:
        """``k`` consecutive fresh slots, or -1 when the pool cannot grow (max_nodes, memory)."""
        cdef Node* grown
        cdef int32_t* grown_acts
        cdef long cap
        if self.n_nodes + k > self.capacity:
            cap = self.capacity
            while cap < self.n_nodes + k:
                cap *= 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            if cap < self.n_nodes + k:
                return -1
            grown = <Node*>realloc(self.nodes, cap * sizeof(Node))
            if grown == NULL:
                self.max_nodes = self.capacity
                return -1
            self.nodes = grown
            grown_acts = <int32_t*>realloc(self.acts, cap * sizeof(int32_t))
            if grown_acts == NULL:
                self.max_nodes = self.capacity
                return -1
            self.acts = grown_acts
            self.capacity = cap
        self.n_nodes += k
        return self.n_nodes - k

    cdef inline void init_node(self, int index, int32_t action, int side) noexcept nogil:
        cdef Node* nd = &self.nodes[index]
        nd.value[0] = 0.0
        nd.value[1] = 0.0
        nd.value[2] = 0.0
        self.acts[index] = action
        nd.visits = 0
        nd.avail = 0
        nd.children = -1
        nd.n_children = 0
        nd.cap_children = 0
        nd.side = side
        nd.prior = 0.0
        nd.p = 0.0

    cdef int add_child(self, int node, int32_t action, int side) noexcept nogil:
        """Append a child to ``node`` (moving its block when full); its index or -1."""
        cdef Node* nd = &self.nodes[node]
        cdef int cap, block, ch
        if nd.n_children == nd.cap_children:
            if nd.cap_children >= 32768:
                return -1
            cap = 4 if nd.cap_children == 0 else 2 * nd.cap_children
            block = self.alloc_block(cap)
            if block < 0:
                return -1
            nd = &self.nodes[node]  # the pool may have moved
            if nd.n_children:
                memcpy(&self.nodes[block], &self.nodes[nd.children], nd.n_children * sizeof(Node))
                memcpy(&self.acts[block], &self.acts[nd.children], nd.n_children * sizeof(int32_t))
            nd.children = block
            nd.cap_children = cap
        ch = nd.children + nd.n_children
        nd.n_children += 1
        self.init_node(ch, action, side)
        return ch

    cdef inline double root_score(self, const Node* nd, int side) noexcept nogil:
        """The selection value of a root child: its mean, pulled towards its static
        value by root_prior virtual visits, plus the PUCT term (root_puct) or UCB1's."""
        cdef double q
        if self.root_prior > 0:
            q = (nd.value[side] + self.root_prior * nd.prior) / (nd.visits + self.root_prior)
        else:
            q = nd.value[side] / nd.visits
        if self.root_puct > 0:
            return q + self.root_puct * nd.p * sqrt(<double>nd.avail) / (1.0 + nd.visits)
        return q + self.c * sqrt(log_n(nd.avail) / nd.visits)

    cdef inline int32_t next_ranked(self, int n) noexcept nogil:
        """The heuristic's best root action not yet in the tree (buf holds root_act,
        best first, and tried marks those in the tree)."""
        cdef int i
        for i in range(n):
            if not self.tried[i]:
                return self.buf[i]
        return self.buf[0]  # not reached: the caller expands only when one is untried

    cdef int32_t pick_untried(self, const Game* g, int n, bitgen_t* rng) noexcept nogil:
        """The action to expand: the best by score_action of ``expand_k`` untried legal
        actions drawn at random (one uniform draw when expand_k is 1)."""
        cdef int i, m = 0, j
        cdef int32_t a, best_a = 0
        cdef double sc, best = -INFINITY
        for i in range(n):
            if not self.tried[i]:
                self.buf[m] = self.buf[i]  # compact the untried ones in place (m <= i)
                m += 1
        if self.expand_k <= 1 or m == 1:
            return self.buf[rand_below(rng, m)]
        memo_clear(&self.memo)  # the draws share cells and (draft) picks
        for j in range(self.expand_k if self.expand_k < m else m):
            a = self.buf[rand_below(rng, m)]
            sc = memo_score(&self.ctx, g, &self.memo, a)
            if sc > best:
                best = sc
                best_a = a
        return best_a

    cdef void iterate(self, bitgen_t* rng) noexcept nogil:
        """One ISMCTS iteration: a world, a descent, one expansion, a playout, a backup."""
        cdef const Tables* t = self.ctx.t
        cdef Game g
        cdef int node = 0, depth = 0, n, i, j, r, ch, best, n_legal, side, s, plies, first
        cdef int expanded
        cdef Threats th
        cdef double u, best_u
        cdef double values[MAX_SIDES]
        cdef Node* nd
        cdef int32_t action
        cdef uint64_t held, offered
        memcpy(&g, &self.root, sizeof(Game))
        if self.n_slots:
            self.determinize(&g, rng)
        self.path[0] = 0
        while g.result == RESULT_NONE and depth + 1 < MAX_PATH:
            if self.other_policy and g.to_move != self.viewer_seat:
                # another seat moves by the policy (it cannot read the viewer's hand)
                side = t.seat_side[g.to_move]
                action = -1
                if self.decisive:
                    action = urgent_action(&self.ctx, &g, tally_threats(&g, &th), rng)
                if action < 0:
                    action = policy_action(&self.ctx, &g, rng, 1.0, self.expand_k)
                    self.work += WORK_SCORE * self.expand_k
                first = self.nodes[node].children
                ch = -1
                for j in range(self.nodes[node].n_children):
                    if self.acts[first + j] == action:
                        ch = first + j
                        break
                expanded = 0
                if ch < 0:
                    ch = self.add_child(node, action, side)
                    if ch < 0:
                        break  # the pool is full: play out from here
                    expanded = 1
                self.nodes[ch].avail += 1
                apply_action(t, &g, action, rng, NULL, -1)
                depth += 1
                self.path[depth] = ch
                node = ch
                if expanded:
                    break
                continue
            if node == 0 and (self.root_top > 0 or self.ranked) and self.n_root > 0:
                n = self.n_root  # the root's candidates: the same in every world
                memcpy(self.buf, self.root_act, n * sizeof(int32_t))
            else:
                n = gen_actions(t, &g, self.buf)
            if n == 0:
                break
            self.work += WORK_ACT * (n + self.nodes[node].n_children)
            self.new_set(n)
            for i in range(n):
                self.set_insert(self.buf[i], i)
                self.tried[i] = 0
            side = t.seat_side[g.to_move]
            n_legal = 0
            best = -1
            best_u = -INFINITY
            first = self.nodes[node].children
            held = 0  # the mover's cards and the draft's, as bits of their codes: a child
            offered = 0  # that needs a card not there is not legal, known without a look-up
            for i in range(g.hand_n[g.to_move]):
                if g.hand[g.to_move][i] < MAX_CODES:
                    held |= (<uint64_t>1) << g.hand[g.to_move][i]
            for i in range(g.draft_n):
                if g.draft[i] < MAX_CODES:
                    offered |= (<uint64_t>1) << g.draft[i]
            for j in range(self.nodes[node].n_children):
                action = self.acts[first + j]
                if act_kind(action) != ACT_PASS:
                    if not (held >> (act_card(action) & 63)) & 1:
                        continue  # (a card's code is below MAX_CODES, 64)
                    r = act_pick(action)
                    if 0 <= r < MAX_CODES and not (offered >> r) & 1:
                        continue
                i = self.set_find(action)
                if i >= 0:
                    nd = &self.nodes[first + j]
                    self.tried[i] = 1
                    n_legal += 1
                    nd.avail += 1
                    if node == 0 and (self.root_prior > 0 or self.root_puct > 0):
                        u = self.root_score(nd, side)
                    else:
                        u = nd.value[side] / nd.visits + self.c * sqrt(log_n(nd.avail) / nd.visits)
                    if u > best_u:
                        best_u = u
                        best = first + j
            if n_legal < n and (n_legal == 0 or self.widen <= 0 or
                                n_legal < self.widen * pow(self.nodes[node].visits + 1.0, self.widen_exp)):
                action = -1
                if self.decisive:
                    action = urgent_action(&self.ctx, &g, tally_threats(&g, &th), rng)
                    if action >= 0:
                        i = self.set_find(action)
                        if i < 0 or self.tried[i]:
                            action = -1
                if action < 0:
                    if node == 0 and self.ranked and self.n_root > 0:
                        action = self.next_ranked(n)
                    else:
                        action = self.pick_untried(&g, n, rng)
                        self.work += WORK_SCORE * self.expand_k
                ch = self.add_child(node, action, side)
                if ch >= 0:
                    self.nodes[ch].avail = 1
                    if node == 0:
                        for j in range(self.n_root):
                            if self.root_act[j] == action:
                                self.nodes[ch].prior = self.root_val[j]
                                if self.ranked:
                                    self.nodes[ch].p = <float>(1.0 / ((j + 1) * self.root_h))
                                break
                    apply_action(t, &g, action, rng, NULL, -1)
                    depth += 1
                    self.path[depth] = ch
                    break
            if best < 0:
                break  # the pool is full and nothing legal here is in the tree: play out
            apply_action(t, &g, self.acts[best], rng, NULL, -1)
            node = best
            depth += 1
            self.path[depth] = node
        if depth > self.max_depth:
            self.max_depth = depth
        plies = 0
        while g.result == RESULT_NONE and (self.playout_depth < 0 or plies < self.playout_depth):
            action = -1
            if self.decisive:
                action = urgent_action(&self.ctx, &g, tally_threats(&g, &th), rng)
            if action < 0:
                action = policy_action(&self.ctx, &g, rng, self.policy_eps, self.policy_k)
            apply_action(t, &g, action, rng, NULL, -1)
            plies += 1
        self.work += WORK_PLY * plies + WORK_EVAL
        if self.ctx.hold != 0.0 and t.draft_mode:
            for s in range(t.players):
                self.work += WORK_HELD * g.hand_n[s]
        side_values(&self.ctx, &g, values)
        for i in range(depth + 1):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            for s in range(t.sides):
                nd.value[s] += values[s]

    cdef void root_priors(self, bitgen_t* rng) noexcept nogil:
        """The static value, for the mover, of each root action applied to the
        root with every hidden card unknown: the heuristic's view of it; with
        root_top, only the heuristic's best root_top actions are kept."""
        cdef const Tables* t = self.ctx.t
        cdef Game masked, child
        cdef int i, me = t.seat_side[self.root.to_move]
        self.mask_root(&masked)
        self.n_root = gen_actions(t, &masked, self.root_act)
        if self.root_top > 0 and self.n_root > self.root_top:
            self.keep_heuristic_best(&masked, rng, self.root_top)
        elif self.ranked:
            self.keep_heuristic_best(&masked, rng, self.n_root)
        self.root_h = 0.0
        for i in range(self.n_root):
            self.root_h += 1.0 / (i + 1)
        for i in range(self.n_root):
            memcpy(&child, &masked, sizeof(Game))
            apply_action(t, &child, self.root_act[i], rng, NULL, -1)
            self.root_val[i] = side_value(&self.ctx, &child, me)

    cdef void mask_root(self, Game* masked) noexcept nogil:
        """The root with every hidden card unknown: the mover's own view, as the
        heuristic sees it."""
        cdef uint8_t* base = <uint8_t*>masked
        cdef int i
        memcpy(masked, &self.root, sizeof(Game))
        for i in range(self.n_slots):
            base[self.slot_off[i]] = UNKNOWN_CARD

    cdef void keep_heuristic_best(self, const Game* masked, bitgen_t* rng, int keep) noexcept nogil:
        """Cut root_act to the heuristic's best ``keep`` actions, best first (stable:
        equal keys keep generation order), ranked as heuristic_choice ranks them
        (without hold, which the heuristic adds for the pick alone)."""
        cdef Ctx plain = self.ctx
        cdef HeuristicMemo hm
        cdef HeuristicKey key
        cdef int32_t action
        cdef int i, j, kept = 0
        plain.hold = 0.0
        heuristic_start(&hm)
        for i in range(self.n_root):
            action = self.root_act[i]
            key = heuristic_key(&plain, masked, rng, &hm, action)
            # insertion into the sorted best-so-far prefix root_act[0:kept]
            j = kept if kept < keep else keep
            while j > 0 and key_order(&key, &self.root_key[j - 1]) > 0:
                if j < keep:
                    self.root_key[j] = self.root_key[j - 1]
                    self.root_act[j] = self.root_act[j - 1]
                j -= 1
            if j < keep:
                self.root_key[j] = key
                self.root_act[j] = action
                if kept < keep:
                    kept += 1
        self.n_root = kept

    def search(self, CoreGame observation, int viewer, bit_generator, long iterations=0,
               double seconds=0, int open_information=0, double cpu_seconds=0, long long work=0):
        """Search the position seen by seat ``viewer``; return the root statistics.

        Args:
            observation: what ``viewer`` may see (``State.observation(viewer).core``).
                Unless ``open_information``, the other hands and the draw pile are
                never read, even when the game passed in has them.
            viewer: the searching seat (normally the seat to move).
            bit_generator: a numpy BitGenerator driving worlds, tree and playouts.
            iterations: stop after this many iterations (0: no limit).
            seconds: stop after this much wall-clock time (0: no limit); the
                clock is read every 64 iterations.  At least one budget is needed.
                Every 64 iterations too, the search ends early after :func:`halt`,
                and on the main thread Ctrl-C raises KeyboardInterrupt.
            open_information: search the game as given (only unknown slots dealt).
            cpu_seconds: a hard cap (0: none) on the CPU time of the calling
                thread since the call began, read every 64 iterations after the
                first 64: whatever the iteration budget, a move costs at most
                about this much on one core, however busy the machine; a search
                it cuts depends on the machine's speed and load.
            work: a budget of work units (0: none), checked after every
                iteration: the search stops once it has spent this many.  The
                units count what the iterations do (legal actions met in the
                tree, actions scored, playout plies, leaf evaluations, hand cards
                valued for holding), weighted to track CPU time (one unit is
                about 8 ns on the reference machine), so a costly position gets
                fewer iterations, yet the same seed stops it at the same
                iteration on any machine, under any load.
        Returns:
            ``{"iterations", "seconds", "nodes", "best", "value", "pv", "capped",
            "work", "work_cut", "actions": [(action, visits, mean value for
            viewer's side, availability), ...]}``, actions sorted by visits (then
            value), best first; ``value`` is the root's mean value for the
            viewer's side and ``pv`` the most-visited line; ``capped`` says
            whether ``cpu_seconds`` ended the search, ``work`` the units spent and
            ``work_cut`` whether the ``work`` budget ended it.  When
            the viewer (to move, hand known) has a single legal action, or an
            action that wins at once (the first in P-13 order; its value is 1),
            it comes back at once with 0 iterations.
        Raises:
            ValueError: a finished game, no budget, or an inconsistent position.
        """
        cdef const Tables* t = &observation.rules.t
        cdef bitgen_t* rng = bitgen_of(bit_generator)
        cdef Node* root
        if observation.g.result != RESULT_NONE:
            raise ValueError("the game is over: nothing to search")
        if not 0 <= viewer < t.players:
            raise ValueError(f"viewer must be a seat 0..{t.players - 1}")
        if iterations <= 0 and seconds <= 0 and work <= 0:
            raise ValueError("give a budget: iterations > 0, seconds > 0 or work > 0")
        self._rules = observation.rules
        cdef bint main_thread = threading.current_thread() is threading.main_thread()
        with bit_generator.lock:
            with nogil:
                self.run_search(t, &observation.g, viewer, rng, iterations, seconds, open_information,
                                cpu_seconds, work, main_thread)
        if self.single >= 0:
            return {
                "iterations": 0, "seconds": 0.0, "nodes": 1, "best": self.single,
                "value": 1.0 if self.single_wins else side_value(&self.ctx, &observation.g, self.viewer_side),
                "pv": [self.single], "actions": [(self.single, 0, 1.0 if self.single_wins else float("nan"), 0)],
                "capped": False,
                "work": 0, "work_cut": False,
            }
        root = &self.nodes[0]
        best = self.best_action()
        return {
            "iterations": self.iterations,
            "seconds": self.elapsed,
            "nodes": self.n_nodes,
            "best": best if best >= 0 else None,
            "value": root.value[self.viewer_side] / root.visits if root.visits else float("nan"),
            "pv": self._pv(0, 64),
            "actions": self._children(0),
            "capped": bool(self.capped),
            "work": self.work,
            "work_cut": bool(self.work_cut),
        }

    cdef list _children(self, int node):
        cdef Node* nd
        cdef int j, ch
        out = []
        for j in range(self.nodes[node].n_children):
            ch = self.nodes[node].children + j
            nd = &self.nodes[ch]
            if nd.visits:
                out.append((self.acts[ch], nd.visits, nd.value[self.viewer_side] / nd.visits, nd.avail))
        out.sort(key=lambda x: (-x[1], -x[2], x[0]))
        return out

    cdef int _most_visited(self, int node):
        cdef int j, ch, best = -1
        cdef uint32_t most = 0
        for j in range(self.nodes[node].n_children):
            ch = self.nodes[node].children + j
            if self.nodes[ch].visits > most:
                most = self.nodes[ch].visits
                best = ch
        return best

    cdef list _pv(self, int node, int length):
        line = []
        node = self._most_visited(node)
        while node >= 0 and len(line) < length:
            line.append(self.acts[node])
            node = self._most_visited(node)
        return line

    def root_stats(self, int pv_length=12):
        """Per root action of the last search, most visited first: ``{"action",
        "visits", "share" (of root visits), "value" (mean for the viewer's side),
        "availability", "pv" (the action then its most-visited line)}``."""
        cdef int j, ch
        cdef Node* nd
        if self.single >= 0:
            return [{"action": self.single, "visits": 0, "share": 1.0,
                     "value": 1.0 if self.single_wins else float("nan"),
                     "availability": 0, "pv": [self.single]}]
        if self.n_nodes == 0:
            return []
        total = max(1, self.nodes[0].visits)
        stats = []
        for j in range(self.nodes[0].n_children):
            ch = self.nodes[0].children + j
            nd = &self.nodes[ch]
            if nd.visits:
                stats.append({
                    "action": self.acts[ch],
                    "visits": nd.visits,
                    "share": nd.visits / total,
                    "value": nd.value[self.viewer_side] / nd.visits,
                    "availability": nd.avail,
                    "pv": [self.acts[ch]] + self._pv(ch, pv_length - 1),
                })
        stats.sort(key=lambda d: (-d["visits"], -d["value"], d["action"]))
        return stats

    # -- the C door: what search() runs, and what the compiled game loop
    #    (seqsolve._loop) calls per move, without the GIL

    cdef long iterations        # the last search's iterations ...
    cdef double elapsed         # ... its wall-clock seconds ...
    cdef bint capped, work_cut  # ... and what ended it (see search)

    cdef int run_search(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                        long iterations, double seconds, int open_information, double cpu_seconds,
                        long long work, bint main_thread) except -1 nogil:
        """The search of :meth:`search` (its arguments, checked there) on a C game:
        the tree, ``single`` when the viewer had one legal action, and what ended it
        (iterations, elapsed, capped, work_cut, work) stay for the caller to read."""
        cdef long it = 0
        cdef double start, cpu_start = thread_cpu()
        cdef int n, unknown_mover = 0, i
        make_ctx(&self.ctx, t, &self.weights)
        self.ctx.hold = self.hold
        self.viewer_side = t.seat_side[viewer]
        self.viewer_seat = viewer
        self.hide_unseen(t, observation, viewer, open_information)
        self.n_nodes = 0
        self.max_depth = 0
        self.single = -1
        self.single_wins = 0
        self.work = 0
        self.ev_scored = 0
        self.ev_unit = WORK_LIKE
        self.iterations = 0
        self.elapsed = 0.0
        self.capped = 0
        self.work_cut = 0
        self.alloc_block(1)
        self.init_node(0, 0, -1)
        for i in range(self.root.hand_n[self.root.to_move]):
            if observation.hand[self.root.to_move][i] == UNKNOWN_CARD:
                unknown_mover = 1
        if not unknown_mover and (open_information or viewer == self.root.to_move):
            n = gen_actions(t, &self.root, self.buf)
            if n == 1:
                self.single = self.buf[0]
                return 0
            if self.root_win:
                self.single = winning_play(t, &self.root, self.buf, n)
            if self.single >= 0:
                self.single_wins = 1
                return 0
        self.n_root = 0
        self.root_top = self.top_setting
        if self.root_top < 0:
            self.root_top = DRAFT_TOP if t.draft_mode else 0
        self.root_puct = self.puct_setting
        if self.root_puct < 0:
            self.root_puct = 1.0 if t.sides > 2 and t.players > t.sides and t.seq_to_win >= 2 else 0.0
        self.ranked = self.root_puct > 0
        self.other_policy = self.other_setting
        if self.other_policy < 0:
            self.other_policy = 1 if t.sides > 2 else 0
        if ((self.root_prior > 0 or self.root_top > 0 or self.ranked) and not unknown_mover
                and (open_information or viewer == self.root.to_move)):
            self.root_priors(rng)
        start = now()
        while True:
            if iterations > 0 and it >= iterations:
                break
            if work > 0 and self.work >= work:
                self.work_cut = 1
                break
            if (it & 63) == 0:
                if seconds > 0 and now() - start >= seconds:
                    break
                if cpu_seconds > 0 and it > 0 and thread_cpu() - cpu_start >= cpu_seconds:
                    self.capped = 1
                    break
                if not keep_searching(main_thread):
                    break
            self.iterate(rng)
            it += 1
        self.elapsed = now() - start
        self.iterations = it
        return 0

    cdef int32_t best_action(self) noexcept nogil:
        """search()'s "best": the root's most visited action, ties to the higher mean
        value for the viewer, then to the lower action number (-1: none visited)."""
        cdef const Node* nd
        cdef int j, ch, side = self.viewer_side
        cdef int32_t best = -1
        cdef uint32_t most = 0
        cdef double mean, best_mean = 0.0
        if self.single >= 0:
            return self.single
        for j in range(self.nodes[0].n_children):
            ch = self.nodes[0].children + j
            nd = &self.nodes[ch]
            if not nd.visits:
                continue
            mean = nd.value[side] / nd.visits
            if (best < 0 or nd.visits > most or (nd.visits == most and (
                    mean > best_mean or (mean == best_mean and self.acts[ch] < best)))):
                best, most, best_mean = self.acts[ch], nd.visits, mean
        return best


# ---------------------------------------------------------------- the compiled game loop's door

cdef int32_t search_move(void* searcher, const Tables* t, const Game* view, bitgen_t* rng,
                         long iterations, long long work, bint main_thread) except -2 nogil:
    """What ``searcher.search(view, view's mover, iterations=, work=)`` returns as
    "best", for a searcher that a caller holding the GIL keeps alive (-1: halt()
    stopped it before its first iteration)."""
    (<Searcher>searcher).run_search(t, view, view.to_move, rng, iterations, 0.0, 0, 0.0, work, main_thread)
    return (<Searcher>searcher).best_action()
