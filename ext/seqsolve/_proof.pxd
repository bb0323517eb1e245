# The C-level contract of seqsolve._proof: the proof search of forced wins (AND-OR,
# threat-space restricted) on the core's Game struct.

from libc.stdint cimport uint8_t, int32_t, uint64_t
from seqsolve._core cimport Tables, Game, u128

cdef enum:
    PROOF_MAX_PLY = 24

ctypedef struct Prover:
    const Tables* t
    int attacker                       # the side whose forced win is sought
    uint8_t controlled[12]             # seats of that side that choose (OR nodes)
    uint64_t pool                      # card codes any hidden hand may hold (static)
    int end                            # the win must come at a turn number below this
    long long nodes, budget
    double deadline                    # monotonic seconds; 0: none
    int stopped                        # 1: the budget ran out
    int unsound                        # 1: a defence could not be modelled (no proof claimed)
    int32_t pv[PROOF_MAX_PLY][PROOF_MAX_PLY]
    int pv_n[PROOF_MAX_PLY]

cdef int prove(Prover* p, const Game* g, int ply) noexcept nogil
