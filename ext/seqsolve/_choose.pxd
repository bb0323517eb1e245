# The C-level contract of seqsolve._choose: the one-decision choosers (greedy,
# the heuristic's one action of look-ahead, the decisive move) that the bots
# call and the tree search (_search) reuses at its root and in its playouts.

from libc.stdint cimport int32_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport Game
from seqsolve._eval cimport Ctx, ScoreMemo, Threats, memo_clear


ctypedef struct HeuristicKey:
    # the heuristic's order of actions: class (win > exchange > play), then fewer
    # open win threats left, then the evaluation h
    int cls
    int threats
    double h


ctypedef struct HeuristicMemo:
    # what the actions of one decision share: the scores' memo and, in the draft
    # variant, the evaluation of the last play (its picks leave the same board)
    ScoreMemo mm
    int32_t last_play
    int base_threats
    double base_me, base_other


cdef inline void heuristic_start(HeuristicMemo* hm) noexcept nogil:
    memo_clear(&hm.mm)
    hm.last_play = -1
    hm.base_threats = 0
    hm.base_me = 0.0
    hm.base_other = 0.0


cdef inline int key_order(const HeuristicKey* a, const HeuristicKey* b) noexcept nogil:
    """1 when the heuristic prefers ``a`` to ``b``, 0 when it cannot tell them apart, else -1."""
    if a.cls != b.cls:
        return 1 if a.cls > b.cls else -1
    if a.threats != b.threats:
        return 1 if a.threats < b.threats else -1
    if a.h != b.h:
        return 1 if a.h > b.h else -1
    return 0



cdef int32_t urgent_action(const Ctx* ctx, const Game* g, Threats* th, bitgen_t* rng) noexcept nogil
cdef int32_t greedy_choice(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf) noexcept nogil
cdef HeuristicKey heuristic_key(const Ctx* ctx, const Game* g, bitgen_t* rng, HeuristicMemo* hm,
                                int32_t action) noexcept nogil
cdef int32_t heuristic_choice(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf) noexcept nogil
