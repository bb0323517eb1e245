# The C-level contract of seqsolve._search: the playout policy of the tree search
# (the Searcher itself is driven from Python).

from libc.stdint cimport int32_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport Game
from seqsolve._eval cimport Ctx

cdef int32_t sample_action(const Ctx* ctx, const Game* g, bitgen_t* rng) noexcept nogil
cdef int32_t policy_action(const Ctx* ctx, const Game* g, bitgen_t* rng,
                           double eps, int k) noexcept nogil
