# The C-level contract of seqsolve._choose: the one-decision choosers (greedy,
# the heuristic's one action of look-ahead, the decisive move) that the bots
# call and the tree search (_search) reuses at its root and in its playouts.

from libc.stdint cimport uint8_t, int16_t, uint16_t, int32_t, int64_t, uint64_t
from libc.string cimport memset
from numpy.random cimport bitgen_t
from seqsolve._core cimport u128, Game, MAX_SIDES, MAX_CODES, N_CELLS, N_WINDOWS
from seqsolve._eval cimport Ctx, ScoreMemo, Threats, memo_clear


ctypedef struct HeuristicKey:
    # the heuristic's order of actions: class (win > exchange > play), then fewer
    # open win threats left, then the evaluation h
    int cls
    int threats
    double h


ctypedef struct CellChange:
    # a chip coming onto or off one cell as the window tally counts it afterwards:
    # the same for every card played there
    int16_t open[MAX_SIDES][5]    # each side's open windows by fill
    u128 fours[MAX_SIDES]         # the cells completing one of a side's open windows of fill 4
    bint completes                # the chip completes a window of the mover's: left to the copy


ctypedef struct BoardKeys:
    # what every action of one decision shares when the key is read off the tally
    # (board_key): the unseen cards, the known hands with the mover's drawn card,
    # and the cells' changes met so far
    int on                          # 1: the tally's path, 0: the copy's, -1: not known yet
    int me, next_side
    int left[MAX_CODES]             # copies not discarded (unseen_counts for no viewer)
    int wild_left
    uint64_t open[MAX_SIDES]        # the tally's open windows of each side, fill k at bits 12k..12k+11
    u128 fours[MAX_SIDES]           # the cells completing a side's open window of fill 4 (four_cells)
    int16_t avail[MAX_SIDES][MAX_CODES]  # left minus the other sides' known copies, after the draw
    int16_t unseen[MAX_CODES]       # what the mover cannot rule out after its draw (win_threat_cells)
    int unseen_wild
    int tot[MAX_SIDES]              # side_total
    bint near[MAX_SIDES]            # an opponent one completion from the win
    int need[MAX_SIDES]             # sequences a side still needs (seq_to_win - tot)
    u128 double[MAX_SIDES]          # an opponent's cells where one chip makes all it needs (need >= 2)
    bint any_near                   # some opponent is near, or has such a cell
    uint64_t barred[3]              # a bit per window barred to some side (place_change)
    int wild[MAX_SIDES]             # jacks in the sides' known hands, after the draw
    int remove[MAX_SIDES]
    uint8_t plain_n[MAX_SIDES]      # the sides' known ordinary cards, by code: how many codes,
    uint8_t plain[MAX_SIDES][MAX_CODES]        # which,
    uint8_t plain_copies[MAX_SIDES][MAX_CODES]  # and how many of each
    u128 ready_cells                # cells the next seat's known ordinary cards fill
    bint ready_wild                 # the next seat holds a two-eyed jack
    uint8_t have[N_CELLS]
    CellChange change[N_CELLS]


ctypedef struct CellSums:
    # the greedy bot's placement values kept whole through a game (greedy_summed): per
    # side, the sum of the window terms of place_value over the windows through each
    # cell, in whole numbers, updated where a window's term changes (sums_moved)
    int32_t w_extend[4]
    int32_t w_block[5]
    int32_t w_block_win, w_corner   # the weights, as whole numbers (sums_exact)
    const uint8_t* window_cells     # the 5 cells of window wi at [5 wi .. 5 wi + 4]
    int seq_n                       # the sequences the sums have seen
    # two sides (packed): a window's terms and a cell's sums for both sides in one
    # number, side s in bits 32s..32s+31 as term + (four << 26), the window's terms
    # read off ``packed_terms`` by their window key (key_base)
    bint packed
    bint removals                   # packed_terms holds the removals' terms too (sums_packed)
    int near                        # bit o: side o's fours are blocks of the win (packed)
    double centre_max               # the largest centre value of a cell (place_offers)
    const int64_t* packed_terms     # at 2 window key: a placement's terms, then a removal's
    int64_t pterm[N_WINDOWS][2]     # the window's terms: a placement's, a removal's (score_remove)
    int64_t psum[N_CELLS]           # the placement terms' sums over the windows through the cell
    uint16_t key_base[N_WINDOWS]    # the window key but the chips and near: its bars and corner
    # more sides: each side's on its own
    int32_t term[MAX_SIDES][N_WINDOWS]  # the window's term for a chip of side s on one of its cells
    uint8_t four[MAX_SIDES][N_WINDOWS]  # 1: the window is s's with 4 counted: left to place_value
    int32_t sum[MAX_SIDES][N_CELLS]     # the terms of the windows through the cell
    uint8_t fours[MAX_SIDES][N_CELLS]   # such windows of s through the cell


ctypedef struct HeuristicMemo:
    # what the actions of one decision share: the scores' memo and, in the draft
    # variant, the evaluation of the last play (its picks leave the same board)
    ScoreMemo mm
    int32_t last_play
    int base_threats
    double base_me, base_other
    BoardKeys board


cdef inline void heuristic_start(HeuristicMemo* hm) noexcept nogil:
    memo_clear(&hm.mm)
    hm.last_play = -1
    hm.base_threats = 0
    hm.base_me = 0.0
    hm.base_other = 0.0
    hm.board.on = -1
    memset(hm.board.have, 0, sizeof(hm.board.have))


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
cdef int32_t greedy_counted(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                            long long* scored) noexcept nogil
cdef int32_t greedy_kept(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                         ScoreMemo* mm) noexcept nogil
cdef bint sums_exact(const Ctx* ctx) noexcept nogil
cdef enum:
    N_WINDOW_KEYS = 2048            # the window keys' values: the size of a packed_terms table

cdef int sums_packed(const Ctx* ctx, int64_t* packed_terms) noexcept nogil
cdef void sums_start(const Ctx* ctx, const Game* g, CellSums* cs) noexcept nogil
cdef void sums_moved(const Ctx* ctx, const Game* g, CellSums* cs, int cell) noexcept nogil
cdef int32_t greedy_summed(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                           ScoreMemo* mm, const CellSums* cs) noexcept nogil
cdef HeuristicKey heuristic_key(const Ctx* ctx, const Game* g, bitgen_t* rng, HeuristicMemo* hm,
                                int32_t action) noexcept nogil
cdef int32_t heuristic_choice(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf) noexcept nogil
cdef int32_t heuristic_best(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                            bint draw_ties, int* n_legal) noexcept nogil
