# The C-level contract of seqsolve._rollout: flat Monte Carlo over the worlds of
# seqsolve._worlds, and the compiled game loop's door to the ``rollout`` bot.

from libc.stdint cimport int32_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport Game, Tables, MAX_MOVES
from seqsolve._worlds cimport Worlds

cdef enum:
    ROLLOUT_BATCH = 8  # worlds per batch under a time budget: a few ms of playouts between clock reads

ctypedef struct RolloutScratch:
    int32_t cands[MAX_MOVES]   # the candidates, best score first
    double total[MAX_MOVES]    # their summed results (first their scores)
    int alive[MAX_MOVES]       # sequential halving's survivors, best first
    int32_t acts[MAX_MOVES]    # ... their actions
    double sums[MAX_MOVES]     # ... and their sums in this round
    double means[MAX_MOVES]    # one batch's means


cdef class Rollouts(Worlds):
    cdef public int rollout_depth  # rollout playouts: actions before the evaluation scores (0: to the end)
    cdef public long long rollout_work  # rollout's work budget a move (0: none; see WORK_RPLY)

    cdef int rollout_means(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                           const int32_t* acts, int n, long long worlds, int open_information, int policy,
                           bint main_thread, double* means) except -1 nogil
    cdef int play_worlds(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                         const int32_t* acts, int n, long long worlds, double deadline, double started,
                         long long work_limit, int open_information, int policy, bint main_thread,
                         double* sums, double* means) except -1 nogil
    cdef int rollout_candidates(self, const Tables* t, const Game* observation, int32_t* acts,
                                double* scores, int k) noexcept nogil
    cdef int32_t rollout_pick(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                              int k, long long worlds, bint halve, double budget, int open_information,
                              int policy, bint main_thread) except -2 nogil
    cdef int32_t rollout_rounds(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                                int k, long long worlds, bint halve, double budget, int open_information,
                                int policy, bint main_thread, RolloutScratch* sc) except -2 nogil

# The compiled game loop's rollout bot (seqsolve._loop): ``searcher`` is a Searcher
# the caller keeps alive.
cdef int32_t rollout_move(void* searcher, const Tables* t, const Game* view, bitgen_t* rng, int k,
                          long long worlds, bint halve, int policy, bint main_thread) except -2 nogil
