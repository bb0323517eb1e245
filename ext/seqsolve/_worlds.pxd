# The C-level contract of seqsolve._worlds: the worlds a search deals, the evidence
# that weighs them, the work units a search counts, and the clocks and halt flag
# every search reads.  seqsolve._rollout and seqsolve._search build on Worlds.

from libc.stdint cimport uint8_t, uint16_t, int32_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport Game, CoreGame, CoreRules, Tables, MAX_SEATS, MAX_HAND, MAX_DECK, MAX_CODES
from seqsolve._eval cimport Weights, Ctx

cdef enum:
    MAX_SLOTS = MAX_SEATS * MAX_HAND + MAX_DECK  # hidden cards a world deals at most
    # work units (Searcher.search's ``work``), fitted to the thread's CPU time over
    # fixed draft and classic positions: one unit is about 8 ns on the reference
    # box (benchmarks/RESULTS.md, "Experiments: speed")
    WORK_ACT = 1     # a legal action generated, hashed or matched at a tree node
    WORK_SCORE = 12  # an action scored: an expansion's draw, another seat's policy draw
    WORK_PLY = 90    # a playout ply
    WORK_EVAL = 60   # a leaf evaluation
    # rollout's work: each action greedy scores in a playout is 1 unit (a heuristic
    # playout counts only its plies and its end), and
    WORK_RPLY = 4    # a playout ply (the action applied, its actions generated)
    WORK_REVAL = 30  # a playout's end: the result, or at ``depth`` the evaluation
    WORK_HELD = 18   # a hand card the leaf evaluation values for holding (draft, hold)
    # a card of a dealt world's hand that play_likelihood weighs (infer): about 12 ns,
    # 2 of the tree's units (WORK_LIKE), 1 of the rollouts' (WORK_RLIKE, a third of it)
    WORK_LIKE = 2
    WORK_RLIKE = 1

cdef double now() noexcept nogil
cdef double thread_cpu() noexcept nogil
cdef int keep_searching(bint main_thread) except -1 nogil
cdef bint searches_halted() noexcept nogil


cdef class Worlds:
    cdef int32_t* buf     # MAX_MOVES actions of scratch, allocated by the Searcher
    cdef Ctx ctx
    cdef Weights weights
    cdef double hold
    cdef int recall  # deal around the other seats' public draft takes (public_hand)
    cdef int playout_depth, max_depth  # how far an iteration of the tree can draw (determinize)
    cdef Game root
    cdef int n_slots, n_hand_slots
    cdef uint16_t slot_off[MAX_SLOTS]
    cdef uint8_t pool[MAX_SLOTS]
    cdef int viewer_side, viewer_seat, open_info
    # evidence (set_evidence): the last opponent play
    cdef int ev_seat, ev_tries
    cdef int32_t ev_action
    cdef double ev_temp, ev_top
    # ... and what the opponent's options there were worth, by card code (ev_prepare):
    # the best log-scaled score of the code's actions, the sum of exp((u - best) / T)
    # over them, and the chosen action's u
    cdef double ev_best[MAX_CODES]
    cdef double ev_sum[MAX_CODES]
    cdef double ev_chosen
    cdef object _params
    cdef CoreRules _rules
    cdef readonly long long work   # work units the last search or rollout spent (see WORK_ACT)
    cdef readonly long long ev_scored  # hand cards play_likelihood weighed in the last search or rollout
    cdef long long ev_unit  # the work units each of them costs (WORK_LIKE or WORK_RLIKE)

    cdef void determinize(self, Game* g, bitgen_t* rng, bint full=*) noexcept nogil
    cdef double play_likelihood(self, const Game* g) noexcept nogil
    cdef bint ev_prepare(self, const Tables* t, const Game* before) noexcept nogil
    cdef int prepare(self, CoreGame observation, int viewer, int open_information) except -1
    cdef int hide_unseen(self, const Tables* t, const Game* observation, int viewer,
                         int open_information) except -1 nogil
