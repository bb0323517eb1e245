# The C-level contract of seqsolve._search: the playout policy of the tree search,
# and a Searcher's move for the compiled game loop (below; otherwise it is driven
# from Python).

from libc.stdint cimport int32_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport Game
from seqsolve._eval cimport Ctx

cdef int32_t sample_action(const Ctx* ctx, const Game* g, bitgen_t* rng) noexcept nogil
cdef int32_t policy_action(const Ctx* ctx, const Game* g, bitgen_t* rng,
                           double eps, int k) noexcept nogil

# The compiled game loop's mcts bot (seqsolve._loop): a Searcher's move on a C game,
# without the GIL; ``searcher`` is a Searcher the caller keeps alive.  (Its rollout
# bot's door is seqsolve._rollout's rollout_move.)
from seqsolve._core cimport Tables
cdef int32_t search_move(void* searcher, const Tables* t, const Game* view, bitgen_t* rng,
                         long iterations, long long work, bint main_thread) except -2 nogil
