# The C-level contract of seqsolve._eval: evaluation weights, the per-call
# context built from the core's Tables, the one-ply action scores, the static
# evaluation and the threat scan, which the choosers (_choose) and the tree
# search (_search) are made of.  A call into another compiled module goes through
# a function pointer and is never inlined, so the helpers those modules call in
# their inner loops (memo_score: once per action a chooser ranks) are defined
# here, inline, and compiled into each.

from libc.stdint cimport uint8_t, int8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from seqsolve._core cimport (
    u128, bit, popcount64, popcount128, Tables, Game, CoreGame, act_kind, act_card, act_cell, act_pick,
    overlap_ok, side_sequences, MAX_CODES, MAX_SIDES, N_CELLS, N_WINDOWS, ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE, ACT_PASS, CARD_WILD,
)


# Evaluation features of one side (side_features); the score is their dot
# product with Ctx.feat_w.
cdef enum:
    F_OPEN = 0          # 0..4: open eligible windows holding 0..4 counting cells
    F_THREAT = 5        # distinct cells completing an open window, card still live
    F_WIN_THREAT = 6    # ... when that completion would win
    F_DOUBLE = 7        # two or more threat cells
    F_WIN_DOUBLE = 8    # ... when a completion would win
    F_SEQUENCE = 9      # sequences counting toward the win
    F_WILD = 10         # two-eyed jacks in the side's known hands
    F_REMOVE = 11       # one-eyed jacks in the side's known hands
    F_DEAD = 12         # dead cards in the side's known hands
    F_READY = 13        # the seat to move is this side's and can complete a threat now
    F_WIN_READY = 14    # ... and that wins
    F_TEMPO = 15        # the side is to move
    F_DEAD_OPEN = 16    # 16..20: open windows (fill 0..4) with a cell no card left can fill (jacks only)
    F_HAND = 21         # 21..25: live open windows by fill + cells the side's known hand can fill (1..5)
    N_FEATURES = 26

ctypedef struct Weights:
    # score_action (one-ply tactics); all values are in the same "points"
    double win              # w_win: the action wins the game now
    double complete         # w_complete: per sequence the action completes (without winning)
    double block[5]         # w_block[f]: break an opponent's open window holding f counting cells (1..4)
    double block_win        # w_block_win: break an opponent window whose completion would win
    double extend[5]        # w_extend[f]: own open window holding f counting cells (0..4)
    double jack_cost        # w_jack_cost: cost of spending a two-eyed jack
    double remove_cost      # w_remove_cost: cost of spending a one-eyed jack
    double centre           # w_centre: value of the most central cell (scaled by windows through it)
    double corner_line      # w_corner_line: per own open window through a corner
    double exchange         # w_exchange: a dead-card exchange (more than any play but a win)
    double pick             # w_pick: scale of the value of the draft card an action takes
    double tactics          # w_tactics: heuristic_action adds this * score / 100 to the eval (nats)
    # evaluate (whole position): weights of the F_* features
    double open[5]          # w_open[f]: open eligible window holding f counting cells
    double threat           # w_threat: threat cell (window one cell short, card still live)
    double win_threat       # w_win_threat: extra when completing it would win
    double double_threat    # w_double_threat: two or more threat cells
    double win_double       # w_win_double: extra when a completion would win
    double sequence         # w_sequence: per sequence counting toward the win
    double jack_in_hand     # w_jack_in_hand: per two-eyed jack in a known hand
    double remove_in_hand   # w_remove_in_hand: per one-eyed jack in a known hand
    double dead_card        # w_dead_card: per dead card in a known hand (a penalty)
    double ready            # w_ready: the side to move can complete a sequence now
    double win_ready        # w_win_ready: ... and that wins
    double tempo            # w_tempo: the side is to move
    double dead_open[5]     # w_dead_open[f]: open window (fill f) needing a cell no card left can fill
    double hand[5]          # w_hand[e]: live open window whose fill plus hand-fillable cells is e+1
    double eval_scale       # eval_scale: softmax temperature turning scores into win chances

ctypedef struct Ctx:
    const Tables* t
    Weights w
    double feat_w[N_FEATURES]      # the evaluation weights by feature
    uint8_t cell_card[N_CELLS]     # the card code a cell shows (255: corner / none)
    uint8_t copies[MAX_CODES]      # copies of each code in the deck
    int wild_copies                # two-eyed jacks in the deck
    uint8_t win_corner[N_WINDOWS]  # window holds a corner
    double centre[N_CELLS]         # w_centre * windows through the cell / 20
    bint split                     # compute the dead-window and hand features (their weights matter)
    double hold                    # draft variant, search only: × what each known hand card is worth to hold
    # appended after the fields above so that their layout never moves
    int n_wild                     # two-eyed jack codes, in code order ...
    uint8_t wild_code[MAX_CODES]   # ... so that counting the live ones reads no other code
    bint finite_w                  # every weight is finite: a zero feature or factor adds nothing to a score

ctypedef struct Threats:
    uint64_t w[MAX_SIDES][3]   # per side, a bit per window that is (or was) a threat


ctypedef struct ScoreMemo:
    # the parts of action_score that one decision shares between its actions:
    # a cell's placement value (plain card or two-eyed jack), a removal, a draft pick.
    # What is kept is marked by a bit per cell (per card code for a pick), so that a
    # memo kept from one decision to the next (the compiled loop's greedy bot) forgets
    # the cells a move changed in a few instructions (memo_moved)
    u128 have_place
    u128 won
    u128 have_remove
    uint64_t have_pick
    double place[N_CELLS]
    double remove[N_CELLS]
    double pick[MAX_CODES + 1]


# ---------------------------------------------------------------- inline helpers

cdef inline u128 seq_cells(const Tables* t, const Game* g, int side) noexcept nogil:
    """Cells (sharing mask applied) of a side's completed sequences."""
    cdef u128 m = 0
    cdef int k
    for k in range(g.seq_n):
        if g.seq_side[k] == side:
            m |= t.window_mask[g.seq_window[k]]
    return m & t.share_mask


cdef inline bint eligible(const Tables* t, const Game* g, int side, u128 m, u128 seqm) noexcept nogil:
    """C-25 conditions 2 and 3: may window m still become a sequence of side?  ``seqm``
    (seq_cells) answers at once for a window that crosses none of the side's
    sequences, or, without a reuse limit, crosses them in few enough cells."""
    cdef uint8_t seqs[N_WINDOWS]
    if (m & seqm) == 0 or (t.reuse_limit < 0 and popcount128(m & seqm) <= t.max_shared):
        return 1
    return overlap_ok(t, m, seqs, side_sequences(g, side, seqs))


cdef inline bint may_gain(const Game* g, int s, int need) noexcept nogil:
    """Side ``s`` may declare ``need`` sequences with one chip: it has that many
    windows one chip short (the tally's threat windows; without a tally, maybe)."""
    cdef int i, n = 0
    if not g.tally.on:
        return 1
    for i in range(3):
        n += popcount64(g.tally.threat[s][i])
    return n >= need


cdef inline bint is_threat_window(const Tables* t, const Game* g, int s, int wi, u128 all_chips) noexcept nogil:
    """Window wi is open for side s, eligible, and one (empty) cell short."""
    cdef u128 m = t.window_mask[wi]
    if m & all_chips & ~g.chips[s]:
        return 0
    if popcount128(m & (g.chips[s] | t.corners)) != 4:
        return 0
    return eligible(t, g, s, m, seq_cells(t, g, s))


cdef inline void threats_update(const Ctx* ctx, const Game* g, Threats* th, int32_t action,
                                int mover) noexcept nogil:
    """After side ``mover``'s action: a placement may have made threats of its own
    through the cell; a removal may have reopened windows of any side.  Stale
    windows are dropped when read (threat_cells)."""
    cdef const Tables* t = ctx.t
    cdef int kind = act_kind(action), cell, i, wi, s
    cdef u128 all_chips
    if kind != ACT_PLACE and kind != ACT_REMOVE:
        return
    cell = act_cell(action)
    all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    for s in range(t.sides):
        if kind == ACT_PLACE and s != mover:
            continue
        for i in range(t.through_n[cell]):
            wi = t.through[cell][i]
            if is_threat_window(t, g, s, wi, all_chips):
                th.w[s][wi >> 6] |= (<uint64_t>1) << (wi & 63)


cdef inline void memo_clear(ScoreMemo* mm) noexcept nogil:
    mm.have_place = 0
    mm.won = 0
    mm.have_remove = 0
    mm.have_pick = 0


cdef inline u128 cells_around(const Tables* t, int cell) noexcept nogil:
    """The cells of the windows through ``cell``: the cells whose placement and
    removal values a chip coming onto or off ``cell`` may change."""
    cdef u128 m = 0
    cdef int i
    for i in range(t.through_n[cell]):
        m |= t.window_mask[t.through[cell][i]]
    return m


cdef inline void memo_moved(ScoreMemo* mm, u128 cells) noexcept nogil:
    """Forget what a memo kept across decisions knew of ``cells`` (cells_around a chip
    placed or removed); a draft pick's value reads the whole board, so it is never
    kept from one decision to the next (memo_clear_picks)."""
    mm.have_place &= ~cells
    mm.have_remove &= ~cells


cdef inline double memo_score(const Ctx* ctx, const Game* g, ScoreMemo* mm, int32_t action) noexcept nogil:
    """action_score, with what the actions of one decision share computed once
    (the same arithmetic, so the same value to the last bit).  It matters in the
    draft variant, where every play comes with each of the draft's cards, and
    whenever a two-eyed jack and a plain card reach the same cell.  ``mm`` NULL:
    nothing is kept (one action scored on its own)."""
    cdef const Tables* t = ctx.t
    cdef int me = t.seat_side[g.to_move]
    cdef int kind = act_kind(action), card = act_card(action), cell, pick
    cdef bint won
    cdef double s
    if kind == ACT_PASS:
        return 0.0
    if kind == ACT_EXCHANGE:
        s = ctx.w.exchange
    elif kind == ACT_REMOVE:
        cell = act_cell(action)
        if mm == NULL:
            s = score_remove(ctx, g, me, cell)
        else:
            if not ((mm.have_remove >> cell) & 1):
                mm.remove[cell] = score_remove(ctx, g, me, cell)
                mm.have_remove |= bit(cell)
            s = mm.remove[cell]
    else:
        cell = act_cell(action)
        if mm == NULL:
            s = place_value(ctx, g, me, cell, &won)
        else:
            if not ((mm.have_place >> cell) & 1):
                mm.place[cell] = place_value(ctx, g, me, cell, &won)
                if won:
                    mm.won |= bit(cell)
                else:
                    mm.won &= ~bit(cell)
                mm.have_place |= bit(cell)
            s = mm.place[cell]
            won = (mm.won >> cell) & 1
        if card < MAX_CODES and t.card_kind[card] == CARD_WILD and not won:
            s -= ctx.w.jack_cost
    if t.draft_mode:
        pick = act_pick(action)
        if mm == NULL or pick < 0 or pick >= t.n_codes:
            s += pick_value(ctx, g, me, pick)
        else:
            if not ((mm.have_pick >> pick) & 1):
                mm.pick[pick] = pick_value(ctx, g, me, pick)
                mm.have_pick |= (<uint64_t>1) << pick
            s += mm.pick[pick]
    return s


cdef inline double action_score(const Ctx* ctx, const Game* g, int32_t action) noexcept nogil:
    """Cheap one-ply score of an action for the side to move (higher is better):
    a placement's window value (a two-eyed jack costs w_jack_cost unless it wins),
    a removal's, w_exchange for a dead-card exchange, plus in the draft variant
    the value of the card taken.  A decision that scores many actions shares one
    ScoreMemo between them (memo_score)."""
    return memo_score(ctx, g, NULL, action)


cdef inline int owner_of(const Game* g, int sides, u128 b) noexcept nogil:
    cdef int s
    for s in range(sides):
        if g.chips[s] & b:
            return s
    return -1


cdef inline void unseen_counts(const Ctx* ctx, const Game* g, int viewer, int* left, int* wild_left) noexcept nogil:
    """Copies of each code not in a discard pile, the draft or ``viewer``'s hand (-1: no hand)."""
    cdef const Tables* t = ctx.t
    cdef int i, c
    if g.tally.on:
        for c in range(MAX_CODES):
            left[c] = ctx.copies[c] - g.tally.gone[c]
    else:
        for c in range(MAX_CODES):
            left[c] = ctx.copies[c]
        for i in range(g.disc_n):
            c = g.disc_card[i]
            if c < MAX_CODES:
                left[c] -= 1
    for i in range(g.draft_n):
        c = g.draft[i]
        if c < MAX_CODES:
            left[c] -= 1
    if viewer >= 0:
        for i in range(g.hand_n[viewer]):
            c = g.hand[viewer][i]
            if c < MAX_CODES:
                left[c] -= 1
    wild_left[0] = 0
    for i in range(ctx.n_wild):
        c = ctx.wild_code[i]
        if left[c] > 0:
            wild_left[0] += left[c]


cdef inline void features_dots(const Ctx* ctx, const double* f, int n, int sides, double* scores) noexcept nogil:
    """Every side's score: its first ``n`` features (side s's at ``f + s * N_FEATURES``)
    dotted with the weights, in feature order (a sum in another order can differ in
    the last bit); the sides' sums run side by side, so their additions overlap."""
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, w
    cdef int k
    for k in range(n):
        w = ctx.feat_w[k]
        s0 += w * f[k]
        s1 += w * f[N_FEATURES + k]
        if sides > 2:
            s2 += w * f[2 * N_FEATURES + k]
    scores[0] = s0
    scores[1] = s1
    if sides > 2:
        scores[2] = s2


cdef inline bitgen_t* bitgen_of(object bit_generator) except NULL:
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


# ---------------------------------------------------------------- exported functions

cdef void make_ctx(Ctx* ctx, const Tables* t, const Weights* w) noexcept nogil
cdef int fill_weights(Weights* w, object given, object also_known) except -1
cdef int load_ctx(Ctx* ctx, CoreGame game, object weights) except -1
cdef double place_value(const Ctx* ctx, const Game* g, int me, int cell, bint* won) noexcept nogil
cdef double score_remove(const Ctx* ctx, const Game* g, int me, int cell) noexcept nogil
cdef double pick_value(const Ctx* ctx, const Game* g, int me, int pick) noexcept nogil
cdef void side_features(const Ctx* ctx, const Game* g, int s, const int* left, int wild_left,
                        double* f) noexcept nogil
cdef void side_scores(const Ctx* ctx, const Game* g, double* scores) noexcept nogil
cdef void side_values(const Ctx* ctx, const Game* g, double* values) noexcept nogil
cdef double side_value(const Ctx* ctx, const Game* g, int side) noexcept nogil
cdef double rivals_score(const Ctx* ctx, const double* scores, int me) noexcept nogil
cdef double hold_value(const Ctx* ctx, const Game* g, int seat, int card) noexcept nogil
cdef double hand_card_term(const Ctx* ctx, const Game* g, int card) noexcept nogil
cdef void threats_scan(const Ctx* ctx, const Game* g, Threats* th) noexcept nogil
cdef u128 threat_cells(const Ctx* ctx, const Game* g, Threats* th, int s) noexcept nogil
cdef int win_threat_cells(const Ctx* ctx, const Game* g, int me, int viewer) noexcept nogil
cdef u128 four_cells(const Tables* t, const Game* g, int s) noexcept nogil
cdef int cell_gain(const Tables* t, const Game* g, int s, u128 chips, u128 others, int cell) noexcept nogil
cdef u128 gain_cells(const Tables* t, const Game* g, int s, u128 chips, u128 others, u128 cells, int need) noexcept nogil
