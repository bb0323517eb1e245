# The C-level contract of seqsolve._stacks_bots, the Sequence Stacks bots: the
# one-decision choosers a compiled game loop or a search calls per action.  They
# read only what the deciding seat may see (its own hand and the public piles,
# discards and chips), so they run alike on a full game and on an observation.

from libc.stdint cimport int16_t
from numpy.random cimport bitgen_t
from seqsolve._stacks cimport StTables, StGame

ctypedef struct StGreedy:
    int block_all                # block every completion that gives a chip (else only when it matters)

cdef int st_chips_needed(const StTables* t, int blue, int red) noexcept nogil
cdef double st_greedy_score(const StTables* t, const StGame* g, const StGreedy* w, int action) noexcept nogil
cdef int st_greedy_action(const StTables* t, const StGame* g, const StGreedy* w) noexcept nogil
cdef int st_policy_action(const StTables* t, const StGame* g, const StGreedy* w, double eps,
                          bitgen_t* rng) noexcept nogil
cdef void st_observe(const StTables* t, StGame* g, int viewer) noexcept nogil
