# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The bots' one-decision choosers, in C on the core's ``Game`` struct, built on
the scores and the evaluation of ``seqsolve._eval``; the tree search
(``seqsolve._search``) reuses them through ``_choose.pxd``.

* :func:`greedy_action` plays the action with the best one-ply score
  (:func:`seqsolve._eval.score_action`).  In the compiled game loop the greedy bot
  keeps every cell's placement value through the game as a sum of window terms
  updated where a move changes them (``greedy_summed``): the same choices, read off
  the sums instead of computed at each decision.
* :func:`heuristic_action` looks one action ahead with the static evaluation,
  always wins when it can and blocks an opponent's immediate win when a block
  exists; in the draft variant it adds what the card it takes is worth in hand
  (``hold_value``) and what the draft it leaves offers the next seat.
* :func:`decisive_action` is the playouts' decisive move: a winning completion,
  else a block of an opponent's winning cell, else any own completion.

>>> import numpy as np
>>> from seqsolve.games.sequence.rules import parse_rules
>>> from seqsolve.games.sequence.state import State
>>> from seqsolve import _choose
>>> state = State.new(parse_rules("classic", players=2), seed=1)
>>> _choose.greedy_action(state.core, np.random.PCG64(2)) in state.legal_actions()
True
>>> _choose.heuristic_action(state.core, np.random.PCG64(2)) in state.legal_actions()
True
"""

from libc.math cimport INFINITY, ldexp, nearbyint, frexp
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memcpy, memset
import numpy as np
from numpy.random cimport bitgen_t

from seqsolve._core cimport (
    u128, ctz128, ctz64, popcount128, bit, Tables, Tally, Game, CoreGame,
    rand_below, encode, act_kind, act_card, act_cell, act_pick, side_total, open_fill,
    MAX_SIDES, MAX_CODES, MAX_MOVES, MAX_THROUGH, N_CELLS, N_WINDOWS, UNKNOWN_CARD, NO_CELL,
    ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE, ACT_PASS,
    CARD_NORMAL, CARD_WILD, CARD_REMOVE, RESULT_NONE, RESULT_DRAW,
    gen_actions, apply_action,
)
from seqsolve._eval cimport (
    Ctx, Weights, ScoreMemo, Threats, bitgen_of, load_ctx, memo_clear, memo_score, side_scores, rivals_score,
    hold_value, hand_card_term, threats_scan, threat_cells, win_threat_cells, unseen_counts, features_dots, owner_of, four_cells,
    gain_cells, may_gain,
    F_OPEN, F_THREAT, F_WIN_THREAT, F_DOUBLE, F_WIN_DOUBLE, F_SEQUENCE, F_WILD, F_REMOVE, F_DEAD,
    F_READY, F_WIN_READY, F_TEMPO, F_DEAD_OPEN, N_FEATURES,
)


# ---------------------------------------------------------------- decisive moves

cdef int32_t urgent_action(const Ctx* ctx, const Game* g, Threats* th, bitgen_t* rng) noexcept nogil:
    """A decisive move if the mover has one: complete an own sequence, else block a
    cell where an opponent would win at once (by placing on it, or with a one-eyed
    jack on a chip of that window).  -1 when there is none or the hand cannot."""
    cdef const Tables* t = ctx.t
    cdef int seat = g.to_move
    cdef int me = t.seat_side[seat]
    cdef int i, c, o, wild = -1, remove = -1, pick = -1, k, wi
    cdef u128 target, cells, chips
    cdef uint64_t bits
    if t.draft_mode and g.draft_n > 0:
        pick = g.draft[rand_below(rng, g.draft_n)]
    for i in range(g.hand_n[seat]):
        c = g.hand[seat][i]
        if c >= MAX_CODES:
            continue
        if t.card_kind[c] == CARD_WILD:
            wild = c
        elif t.card_kind[c] == CARD_REMOVE:
            remove = c
    # 0: an own completion that wins; 1: block an opponent's winning cell; 2: any own completion
    for k in range(3):
        if k == 1:
            target = 0
            for o in range(t.sides):
                if o != me and side_total(t, g, o) + 1 >= t.seq_to_win:
                    target |= threat_cells(ctx, g, th, o)
        elif k == 0 and side_total(t, g, me) + 1 < t.seq_to_win:
            continue
        else:
            target = threat_cells(ctx, g, th, me)
        if target == 0:
            continue
        for i in range(g.hand_n[seat]):
            c = g.hand[seat][i]
            if c < MAX_CODES and t.card_kind[c] == CARD_NORMAL:
                cells = t.card_cells[c] & target
                if cells:
                    return encode(ACT_PLACE, c, ctz128(cells), pick)
        if wild >= 0:
            return encode(ACT_PLACE, wild, ctz128(target), pick)
        if k == 1 and remove >= 0:
            for o in range(t.sides):
                if o == me or side_total(t, g, o) + 1 < t.seq_to_win:
                    continue
                for i in range(3):
                    bits = th.w[o][i]
                    while bits:
                        wi = (i << 6) + ctz64(bits)
                        bits &= bits - 1
                        chips = t.window_mask[wi] & g.chips[o] & ~g.locked
                        if (t.window_mask[wi] & target) and chips:
                            return encode(ACT_REMOVE, remove, ctz128(chips), pick)
    return -1


# ---------------------------------------------------------------- greedy / heuristic

cdef int32_t greedy_choice(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf) noexcept nogil:
    """The best action by score_action; ties drawn from ``rng``, or, without one
    (NULL), the first in P-13 order, so a playout depends on its world alone."""
    return greedy_counted(ctx, g, rng, buf, NULL)


cdef int32_t greedy_counted(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                            long long* scored) noexcept nogil:
    """:func:`greedy_choice`, adding the number of actions it scored to ``*scored``
    (unless NULL): what a budget counted in work rather than seconds reads."""
    cdef ScoreMemo mm
    cdef int n = gen_actions(ctx.t, g, buf)
    memo_clear(&mm)
    if scored != NULL:
        scored[0] += n
    return greedy_best(ctx, g, rng, buf, n, &mm)


cdef int32_t greedy_kept(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                         ScoreMemo* mm) noexcept nogil:
    """:func:`greedy_choice` with a memo kept from one decision of the same side to the
    next, which has forgotten (memo_moved) every cell whose windows a move changed
    since, and everything when a sequence was made: a cell's value is computed once
    for as long as its windows stay the same, as the same arithmetic, so the same
    games.  The values of draft picks read the whole board and are computed anew."""
    mm.have_pick = 0
    return greedy_best(ctx, g, rng, buf, gen_actions(ctx.t, g, buf), mm)


cdef inline int32_t greedy_best(const Ctx* ctx, const Game* g, bitgen_t* rng, const int32_t* buf,
                                int n, ScoreMemo* mm) noexcept nogil:
    """The best of the ``n`` actions ``buf`` by memo_score, ties drawn as greedy_choice draws them."""
    cdef int i, ties = 0
    cdef double best = -INFINITY, s
    cdef int32_t choice = -1
    for i in range(n):
        s = memo_score(ctx, g, mm, buf[i])
        if s > best:
            best, choice, ties = s, buf[i], 1
        elif s == best and rng != NULL:
            ties += 1
            if rand_below(rng, ties) == 0:
                choice = buf[i]
    return choice


# ---------------------------------------------------------------- the greedy bot's cell sums

cdef enum:
    MAX_TERM = 1 << 24   # the largest window term the sums take: a cell's 20 terms fit 32 bits


cdef inline double grid_round(double r, int e) noexcept nogil:
    """``r`` rounded (to nearest, ties to even) to the spacing of the doubles in [2^e, 2^(e+1))."""
    return ldexp(nearbyint(ldexp(r, 52 - e)), e - 52)


cdef bint centre_exact(double c, int top) noexcept nogil:
    """Whether adding whole numbers >= 0 to ``c`` one at a time, the sums staying below
    2^top, always ends on the double that adding their total at once gives.

    Adding a whole number is exact but where the sum enters a higher binade: there
    ``c``'s fraction is rounded to that binade's spacing.  Rounding in steps can differ
    from rounding at once (ties to even), so the result could depend on the binades the
    sums pass through, that is on the order of the terms; this checks every set of
    binades passed through: each binade's rounding of every value reachable before it
    must be the rounding of ``c`` itself."""
    cdef double seen[64]
    cdef double first
    cdef int n = 1, e, i, e0
    cdef bint known
    if not c >= 0.0:
        return 0
    if c == 0.0:
        return 1
    frexp(c, &e0)  # c in [2^(e0 - 1), 2^e0)
    if top > 48:
        return 0
    seen[0] = c
    for e in range(e0, top + 1):
        first = grid_round(c, e)
        known = 0
        for i in range(n):
            if grid_round(seen[i], e) != first:
                return 0
            known = known or seen[i] == first
        if not known:
            if n == 64:
                return 0
            seen[n] = first
            n += 1
    return 1


cdef inline bint whole(double w, int64_t* out) noexcept nogil:
    """``w`` as a whole number in [0, MAX_TERM] into ``out``; 0 when it is not one."""
    if not (0.0 <= w <= MAX_TERM) or w != <double>(<int64_t>w):
        return 0
    out[0] = <int64_t>w
    return 1


cdef bint sums_exact(const Ctx* ctx) noexcept nogil:
    """Whether greedy_summed makes greedy_choice's choices under ``ctx``: the window
    weights of place_value are whole numbers >= 0, so that their sums are exact in any
    order, and every cell's centre value plus such sums gives the same double added
    window by window as added at once (centre_exact).  Not in the heart variant (D-3),
    whose terms place_value adds after the windows'."""
    cdef const Weights* w = &ctx.w
    cdef int64_t v, top = 0
    cdef int i, cell, e
    if ctx.t.heart:
        return 0
    for i in range(4):
        if not whole(w.extend[i], &v) or not whole(w.extend[i] + w.corner_line, &v):
            return 0
        top = max(top, v)
    for i in range(1, 5):
        if not whole(w.block[i], &v):
            return 0
        top = max(top, v)
    if not whole(w.block_win, &v) or not whole(w.corner_line, &v):
        return 0
    top = max(top, <int64_t>w.block_win)
    frexp(<double>(MAX_THROUGH * top) + 3.0 * ctx.w.centre + 1.0, &e)
    for cell in range(N_CELLS):
        for i in range(cell):
            if ctx.centre[i] == ctx.centre[cell]:
                break  # checked already
        else:
            if not centre_exact(ctx.centre[cell], e):
                return 0
    return 1


cdef inline int32_t window_term(const Ctx* ctx, const Game* g, const CellSums* cs, int s, int wi,
                                uint8_t* four) noexcept nogil:
    """What window ``wi`` adds to place_value for a chip of side ``s`` on an empty cell
    of it, read from the tally as place_value_tally reads it: an extension of s's open
    window, a block of another side's, or nothing; ``four``: s's own window with 4
    counted, which place_value looks at whole (the sequences it may complete)."""
    cdef const Tables* t = ctx.t
    cdef uint16_t fw = g.tally.fill[wi], mine = <uint16_t>(7 << (3 * s))
    cdef int o, f, k
    four[0] = 0
    if (fw & ~mine) == 0:
        o = s
    elif (fw & mine) == 0:
        o = -1
        for k in range(t.sides):
            if (fw >> (3 * k)) & 7:
                if o >= 0:
                    return 0  # two other sides in it: nobody's window
                o = k
    else:
        return 0
    if (g.tally.barred[o][wi >> 6] >> (wi & 63)) & 1:
        return 0
    f = ((fw >> (3 * o)) & 7) + t.corner_n[wi]
    if o == s:
        if f >= 4:
            four[0] = 1
            return 0
        return cs.w_extend[f] + (cs.w_corner if ctx.win_corner[wi] else 0)
    if f >= 4:
        return cs.w_block_win if side_total(t, g, o) + 1 >= t.seq_to_win else cs.w_block[4]
    return cs.w_block[f]


cdef enum:
    FOUR_SHIFT = 26                  # a packed lane: term sum below 2^26, then the fours
    SUM_MASK = (1 << 26) - 1


cdef int sums_packed(const Ctx* ctx, int64_t* packed_terms) noexcept nogil:
    """Whether the cell sums of ``ctx``'s game can be packed (two sides, a window holds
    at most one corner, a cell's sum of terms fits 26 bits), and if so the packed terms
    of every window key (key_base) into ``packed_terms`` (2 N_WINDOW_KEYS of them: a placement's,
    then a removal's).  Returns 0: not packed, 1: packed, 2: the removals' sums are
    exact too (their weights are whole numbers, added to minus the removal's cost)."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef int key, s, o, f, fw, wi, corner, top = 0, term, four, i
    cdef int64_t lane, v
    cdef bint removals
    if t.sides != 2:
        return 0
    for wi in range(N_WINDOWS):
        if t.corner_n[wi] > 1:
            return 0
    for i in range(4):
        top = max(top, <int>(w.extend[i] + w.corner_line))
    for i in range(1, 5):
        top = max(top, <int>w.block[i])
    top = max(top, <int>w.block_win)
    top = max(top, <int>w.extend[4])
    if top * MAX_THROUGH > SUM_MASK:
        return 0
    removals = whole(w.extend[4], &v) and whole(w.remove_cost, &v)
    for key in range(N_WINDOW_KEYS):
        fw = key & 63
        corner = (key >> 8) & 1
        packed_terms[2 * key] = 0
        for s in range(2):
            o = 1 - s
            term = four = 0
            if (fw >> (3 * o)) & 7 == 0:
                o = s  # the chips in it are s's, or none
            elif (fw >> (3 * s)) & 7:
                o = -1  # both sides': nobody's window
            if o >= 0 and not (key >> (6 + o)) & 1:  # not barred for its owner
                f = ((fw >> (3 * o)) & 7) + corner
                if o == s:
                    if f >= 4:
                        four = 1
                    else:
                        term = <int>w.extend[f] + (<int>w.corner_line if corner else 0)
                elif f >= 4:
                    term = <int>w.block_win if (key >> (9 + o)) & 1 else <int>w.block[4]
                else:
                    term = <int>w.block[f]
            lane = term + (<int64_t>four << FOUR_SHIFT)
            packed_terms[2 * key] += lane << (32 * s)
        packed_terms[2 * key + 1] = 0
        for s in range(2):
            packed_terms[2 * key + 1] += (<int64_t>removal_term(w, key, s)) << (32 * s)
    return 1 + removals


cdef inline int removal_term(const Weights* w, int key, int me) noexcept nogil:
    """What a window of window key ``key`` adds to score_remove for side ``me`` taking
    the other side's chip off one of its cells: a block of the other's window, or an
    extension of ``me``'s window that chip alone was spoiling, or nothing."""
    cdef int o = 1 - me, fw = key & 63, corner = (key >> 8) & 1, fo
    if (fw & ~(7 << (3 * o))) == 0:
        if (key >> (6 + o)) & 1:
            return 0
        fo = ((fw >> (3 * o)) & 7) + corner
        if fo == 4:
            return <int>w.block_win if (key >> (9 + o)) & 1 else <int>w.block[4]
        return <int>w.block[fo] if fo < 4 else 0
    if (fw & ~(7 << (3 * me))) == (1 << (3 * o)) and not (key >> (6 + me)) & 1:
        return <int>w.extend[((fw >> (3 * me)) & 7) + corner]
    return 0


cdef inline uint16_t key_base(const Tables* t, const Game* g, int wi) noexcept nogil:
    """Window ``wi``'s window key but its chips, which change on every move, and
    ``near``, the same for every window: its bars and its corner (CellSums.key_base).
    The window key, an entry of a packed_terms table, is ``fill | key_base | near << 9``:
    the chips in the window (tally fill, two sides), whether it is barred for each side,
    its corner, and the sides one sequence short of the win."""
    cdef int k = wi >> 6, b = wi & 63
    return <uint16_t>(<int>((g.tally.barred[0][k] >> b) & 1) << 6
                      | <int>((g.tally.barred[1][k] >> b) & 1) << 7
                      | t.corner_n[wi] << 8)


cdef inline void keys_based(const Tables* t, const Game* g, CellSums* cs) noexcept nogil:
    """Every window's key_base."""
    cdef int wi
    for wi in range(N_WINDOWS):
        cs.key_base[wi] = key_base(t, g, wi)


cdef inline void packed_update(const Game* g, CellSums* cs, int wi) noexcept nogil:
    """window_update of packed sums, its key read off key_base.  A removal's terms are
    only kept per window: a removal is scored far more rarely than a window changes
    (removal_sum)."""
    cdef const int64_t* terms = cs.packed_terms + 2 * (g.tally.fill[wi] | cs.key_base[wi] | cs.near << 9)
    cdef int64_t dv = terms[0] - cs.pterm[wi][0]
    cdef const uint8_t* cells
    cdef int k
    cs.pterm[wi][1] = terms[1]
    if dv:
        cs.pterm[wi][0] = terms[0]
        cells = cs.window_cells + 5 * wi
        for k in range(5):
            cs.psum[cells[k]] += dv


cdef inline uint32_t removal_sum(const Tables* t, const CellSums* cs, int me, int cell) noexcept nogil:
    """The removal terms for side ``me`` of the windows through ``cell`` (packed sums)."""
    cdef uint32_t total = 0
    cdef int i, shift = 32 * me
    for i in range(t.through_n[cell]):
        total += <uint32_t>(cs.pterm[t.through[cell][i]][1] >> shift)
    return total


cdef inline int near_sides(const Tables* t, const Game* g) noexcept nogil:
    """A bit per side one sequence short of the win: the others' blocks of its fours
    are blocks of the win."""
    cdef int s, near = 0
    for s in range(t.sides):
        if side_total(t, g, s) + 1 >= t.seq_to_win:
            near |= 1 << s
    return near


cdef inline void window_update(const Ctx* ctx, const Game* g, CellSums* cs, int wi) noexcept nogil:
    """Window ``wi``'s terms read again, their changes added to its 5 cells' sums."""
    cdef int32_t term, d
    cdef uint8_t four
    cdef int s, k, cell, df
    cdef const uint8_t* cells = cs.window_cells + 5 * wi
    if cs.packed:
        packed_update(g, cs, wi)
        return
    for s in range(ctx.t.sides):
        term = window_term(ctx, g, cs, s, wi, &four)
        d = term - cs.term[s][wi]
        df = <int>four - <int>cs.four[s][wi]
        if d == 0 and df == 0:
            continue
        cs.term[s][wi] = term
        cs.four[s][wi] = four
        for k in range(5):
            cell = cells[k]
            cs.sum[s][cell] += d
            cs.fours[s][cell] += df


cdef void sums_start(const Ctx* ctx, const Game* g, CellSums* cs) noexcept nogil:
    """The sums of ``g`` from scratch (its tally on); ``cs.window_cells``, ``packed``
    and ``packed_terms`` set by the caller, the weights read from ``ctx`` (sums_exact)."""
    cdef const Weights* w = &ctx.w
    cdef int i
    for i in range(4):
        cs.w_extend[i] = <int32_t>w.extend[i]
    cs.w_block[0] = 0
    for i in range(1, 5):
        cs.w_block[i] = <int32_t>w.block[i]
    cs.w_block_win = <int32_t>w.block_win
    cs.w_corner = <int32_t>w.corner_line
    cs.seq_n = g.seq_n
    cs.near = near_sides(ctx.t, g)
    cs.centre_max = 0.0
    for i in range(N_CELLS):
        cs.centre_max = max(cs.centre_max, ctx.centre[i])
    if cs.packed:
        keys_based(ctx.t, g, cs)
    memset(cs.pterm, 0, sizeof(cs.pterm))
    memset(cs.psum, 0, sizeof(cs.psum))
    memset(cs.term, 0, sizeof(cs.term))
    memset(cs.four, 0, sizeof(cs.four))
    memset(cs.sum, 0, sizeof(cs.sum))
    memset(cs.fours, 0, sizeof(cs.fours))
    for i in range(N_WINDOWS):
        window_update(ctx, g, cs, i)


cdef void sums_moved(const Ctx* ctx, const Game* g, CellSums* cs, int cell) noexcept nogil:
    """After a chip came onto or off ``cell``: the windows through it read again.  A
    sequence made bars windows of its side (C-25: those through its cells, or any with
    a reuse limit): those windows are read again too, their key_base first; and when it
    brings a side one sequence short of the win, the windows holding that side's chips
    (its fours then count as a block of the win for the others).  What is read is the
    tally's fills and bars, never its open counts: a greedy game keeps no more
    (Tally.fill_only)."""
    cdef const Tables* t = ctx.t
    cdef int i, k, wi, near = cs.near
    cdef uint16_t nearer = 0
    cdef u128 cells
    if g.seq_n == cs.seq_n and cs.packed:
        for i in range(t.through_n[cell]):
            packed_update(g, cs, t.through[cell][i])
        return
    if g.seq_n == cs.seq_n:
        for i in range(t.through_n[cell]):
            window_update(ctx, g, cs, t.through[cell][i])
        return
    cs.near = near_sides(t, g)
    if t.reuse_limit >= 0:
        if cs.packed:
            keys_based(t, g, cs)
        for wi in range(N_WINDOWS):
            window_update(ctx, g, cs, wi)
        cs.seq_n = g.seq_n
        return
    for i in range(t.through_n[cell]):
        window_update(ctx, g, cs, t.through[cell][i])
    for k in range(cs.seq_n, g.seq_n):
        cells = t.window_mask[g.seq_window[k]]
        while cells:
            cell = ctz128(cells)
            cells &= cells - 1
            for i in range(t.through_n[cell]):
                wi = t.through[cell][i]
                if cs.packed:
                    cs.key_base[wi] = key_base(t, g, wi)
                window_update(ctx, g, cs, wi)
    for k in range(t.sides):
        if ((cs.near ^ near) >> k) & 1:
            nearer |= <uint16_t>(7 << (3 * k))
    if nearer:
        for wi in range(N_WINDOWS):
            if g.tally.fill[wi] & nearer:
                window_update(ctx, g, cs, wi)
    cs.seq_n = g.seq_n


ctypedef struct Best:
    # the best action so far of a decision, and how many tie with it
    double score
    int32_t action
    int ties


cdef inline void offer(Best* b, double s, int32_t a, bitgen_t* rng) noexcept nogil:
    """One action in P-13 order, kept as greedy_best keeps it (the same draws for ties)."""
    if s > b.score:
        b.score, b.action, b.ties = s, a, 1
    elif s == b.score and rng != NULL:
        b.ties += 1
        if rand_below(rng, b.ties) == 0:
            b.action = a


cdef inline double summed_place(const Ctx* ctx, const Game* g, ScoreMemo* mm, const CellSums* cs,
                                int me, int32_t a, int cell, bint wild) noexcept nogil:
    """memo_score of the placement ``a`` on ``cell`` (a two-eyed jack when ``wild``),
    off the cell sums unless a window of the mover's with 4 counted runs through it."""
    cdef uint32_t lane
    cdef double s
    if cs.packed:
        lane = <uint32_t>(cs.psum[cell] >> (32 * me))
        if lane >> FOUR_SHIFT:
            return memo_score(ctx, g, mm, a)
        s = ctx.centre[cell] + <double>lane
    else:
        if cs.fours[me][cell]:
            return memo_score(ctx, g, mm, a)
        s = ctx.centre[cell] + <double>cs.sum[me][cell]
    if wild:
        s -= ctx.w.jack_cost
    return s


cdef inline int64_t lane_floor(double best, double cost, double centre_max) noexcept nogil:
    """A placement whose lane (packed cell sum) is below this scores below ``best``
    whatever its cell's centre value: centre + lane - cost < best by 2 at least, far more
    than any rounding.  At most 2^FOUR_SHIFT: a lane with fours is never passed over."""
    cdef double limit = best + cost - centre_max - 1.0
    if not limit > 0.0:  # and not a NaN
        return 0
    if limit >= <double>(1 << FOUR_SHIFT):
        return 1 << FOUR_SHIFT
    return <int64_t>limit


cdef inline void place_offers(const Ctx* ctx, const Game* g, ScoreMemo* mm, const CellSums* cs, int me,
                              int card, u128 targets, bint wild, Best* b, bitgen_t* rng) noexcept nogil:
    """The placements of ``card`` (a two-eyed jack when ``wild``) on ``targets``, in cell
    order (a 64-bit half at a time), scored as summed_place scores them.  Packed, a
    placement that cannot reach the best so far (lane_floor) is passed over: offer would
    change nothing."""
    cdef uint64_t bits
    cdef uint32_t lane
    cdef int half, cell, shift = 32 * me
    cdef int32_t a
    cdef double s, cost = ctx.w.jack_cost if wild else 0.0  # s - 0.0 is s: the same bits
    cdef int64_t floor = lane_floor(b.score, cost, cs.centre_max) if wild else 0  # a jack's many cells
    for half in range(2):
        bits = <uint64_t>targets if half == 0 else <uint64_t>(targets >> 64)
        while bits:
            cell = (half << 6) + ctz64(bits)
            bits &= bits - 1
            if cs.packed:
                lane = <uint32_t>(cs.psum[cell] >> shift)
                if lane < floor:
                    continue
                if lane >> FOUR_SHIFT == 0:
                    s = ctx.centre[cell] + <double>lane
                    s -= cost
                    if s >= b.score:  # else offer would change nothing
                        offer(b, s, encode(ACT_PLACE, card, cell, -1), rng)
                        if wild:
                            floor = lane_floor(b.score, cost, cs.centre_max)
                    continue
            a = encode(ACT_PLACE, card, cell, -1)
            offer(b, summed_place(ctx, g, mm, cs, me, a, cell, wild), a, rng)
            if wild:
                floor = lane_floor(b.score, cost, cs.centre_max)


cdef inline void remove_offers(const Ctx* ctx, const Game* g, ScoreMemo* mm, const CellSums* cs, int me,
                               int card, u128 targets, Best* b, bitgen_t* rng) noexcept nogil:
    """The removals of one-eyed jack ``card`` from the chips of ``targets``, in cell order:
    off the removal sums when they are exact (CellSums.removals), else memo_score."""
    cdef uint64_t bits
    cdef int half, cell
    cdef int32_t a
    for half in range(2):
        bits = <uint64_t>targets if half == 0 else <uint64_t>(targets >> 64)
        while bits:
            cell = (half << 6) + ctz64(bits)
            bits &= bits - 1
            a = encode(ACT_REMOVE, card, cell, -1)
            if cs.removals:
                offer(b, -ctx.w.remove_cost + <double>removal_sum(ctx.t, cs, me, cell), a, rng)
            else:
                offer(b, memo_score(ctx, g, mm, a), a, rng)


cdef int32_t greedy_summed(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                           ScoreMemo* mm, const CellSums* cs) noexcept nogil:
    """greedy_choice with the placement values read off the cell sums kept through the
    game (sums_exact said they are exact; ``mm`` is room for one decision's memo): the centre value plus the sum of the window
    terms, one addition, unless a window through the cell is the mover's with 4 counted
    (then place_value, which sees what it completes).  Not in the draft variant.

    The actions are met as gen_actions lists them (P-13: plays by card and cell, then
    dead-card exchanges by card, then a pass) without listing them, except on the
    game's first turn under K-2 and for a side under a bot restriction."""
    cdef const Tables* t = ctx.t
    cdef int seat = g.to_move, me = t.seat_side[seat], n, i, c, kind
    cdef bint unknown = 0, played = 0
    cdef uint64_t have = 0, codes, dead = 0  # dead: the ordinary cards with no empty cell
    cdef u128 targets, removable
    cdef int32_t a
    cdef Best b
    b.score, b.action, b.ties = -INFINITY, -1, 0
    memo_clear(mm)  # what it keeps (the cells that may complete a sequence) is kept for one decision
    if (g.result != RESULT_NONE or (t.restrict and me == t.restrict_side)
            or (not t.first_turn_jacks and g.turn == 0)):
        n = gen_actions(t, g, buf)
        for i in range(n):
            a = buf[i]
            if act_kind(a) == ACT_PLACE:
                offer(&b, summed_place(ctx, g, mm, cs, me, a, act_cell(a),
                                       t.card_kind[act_card(a)] == CARD_WILD), a, rng)
            else:
                offer(&b, memo_score(ctx, g, mm, a), a, rng)
        return b.action
    for i in range(g.hand_n[seat]):
        c = g.hand[seat][i]
        if c < MAX_CODES:
            have |= (<uint64_t>1) << c
        else:
            unknown = 1
    removable = (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[me] & ~g.locked
    codes = have
    while codes:
        c = ctz64(codes)
        codes &= codes - 1
        kind = t.card_kind[c]
        if kind == CARD_NORMAL:
            targets = t.card_cells[c] & g.empty
            if not targets:
                dead |= (<uint64_t>1) << c
                continue
        elif kind == CARD_WILD:
            targets = g.empty
        else:
            targets = removable
        played = played or targets != 0
        if kind == CARD_REMOVE:
            remove_offers(ctx, g, mm, cs, me, c, targets, &b, rng)
        else:
            place_offers(ctx, g, mm, cs, me, c, targets, kind == CARD_WILD, &b, rng)
    if g.ex_left > 0:
        while dead:
            c = ctz64(dead)
            dead &= dead - 1
            offer(&b, ctx.w.exchange, encode(ACT_EXCHANGE, c, NO_CELL, -1), rng)
    if (not played and not unknown) or t.vpass:
        offer(&b, 0.0, encode(ACT_PASS, 0, NO_CELL, -1), rng)
    return b.action


cdef double next_pick_value(const Ctx* ctx, const Game* g, int me) noexcept nogil:
    """What the draft left behind is worth to the next seat if it plays against ``me``:
    the best :func:`hold_value` among its known cards (taking a card also denies it)."""
    cdef int i, c, seat = g.to_move
    cdef double v, best = 0.0
    if ctx.t.seat_side[seat] == me:
        return 0.0
    for i in range(g.draft_n):
        c = g.draft[i]
        if c == UNKNOWN_CARD:
            continue
        if ctx.t.card_kind[c] == CARD_WILD:
            v = ctx.w.jack_in_hand
        elif ctx.t.card_kind[c] == CARD_REMOVE:
            v = ctx.w.remove_in_hand
        else:
            v = hold_value(ctx, g, seat, c)
        if v > best:
            best = v
    return best


cdef inline double key_h(const Ctx* ctx, const Game* g, HeuristicMemo* hm, int32_t action,
                         const double* scores, double other, int me) noexcept nogil:
    """The key's evaluation of a play that does not end the game."""
    cdef double h = (scores[me] - other) / ctx.w.eval_scale
    if ctx.w.tactics != 0.0 or not ctx.finite_w:  # else it would add a zero: the same key
        h += ctx.w.tactics * memo_score(ctx, g, &hm.mm, action) / 100.0
    return h


cdef HeuristicKey heuristic_key(const Ctx* ctx, const Game* g, bitgen_t* rng, HeuristicMemo* hm,
                                int32_t action) noexcept nogil:
    """The heuristic's key of one action of ``g``; the actions of one decision
    come in gen_actions' order, with one ``hm`` (heuristic_start) between them.
    Read off the window tally when the game keeps one and the action is an
    ordinary play (board_key), else from a copy the action is applied to."""
    cdef HeuristicKey key
    if hm.board.on < 0:
        board_start(ctx, g, &hm.board)
    if hm.board.on and board_key(ctx, g, hm, action, &key):
        return key
    return copied_key(ctx, g, rng, hm, action)


cdef HeuristicKey copied_key(const Ctx* ctx, const Game* g, bitgen_t* rng, HeuristicMemo* hm,
                             int32_t action) noexcept nogil:
    """heuristic_key on a copy of ``g`` the action is applied to.

    In the draft variant the picks of one play leave the same board, so they share
    its evaluation, corrected for the evaluation's term of the card taken (the
    copies the pick moves from the draft into the hand are not re-counted), and
    each adds what holding the card is worth and subtracts what the draft then
    left offers the next seat."""
    cdef const Tables* t = ctx.t
    cdef int kind = act_kind(action), pick = act_pick(action)
    cdef int seat = g.to_move
    cdef int me = t.seat_side[seat]
    cdef int32_t play = action & 0xFFFFF  # the action without its pick
    cdef Game child
    cdef double scores[MAX_SIDES]
    cdef double other
    cdef bint share = t.draft_mode and not ctx.split
    cdef HeuristicKey key
    memcpy(&child, g, sizeof(Game))
    apply_action(t, &child, action, rng, NULL, -1)
    key.threats = 0
    if child.result == me:
        key.cls, key.h = 2, memo_score(ctx, g, &hm.mm, action)
    elif child.result != RESULT_NONE:  # a loss or a draw: by the count of D-4, or C-31
        key.cls = 0
        if child.result == RESULT_DRAW:
            key.h = -1e14  # still better than leaving an opponent a winning cell
        else:
            key.threats, key.h = 1 << 29, -1e15
    else:
        key.cls = 1 if kind == ACT_EXCHANGE else 0
        if share and play == hm.last_play:
            key.threats = hm.base_threats
            scores[me] = hm.base_me + hand_card_term(ctx, &child, pick)
            other = hm.base_other
        else:
            if key.cls == 0:
                key.threats = win_threat_cells(ctx, &child, me, seat)
            side_scores(ctx, &child, scores)
            other = rivals_score(ctx, scores, me)
            hm.last_play, hm.base_threats = play, key.threats
            hm.base_me, hm.base_other = scores[me] - hand_card_term(ctx, &child, pick), other
        if t.draft_mode:
            scores[me] += hold_value(ctx, &child, seat, pick)
            other += next_pick_value(ctx, &child, me)
        key.h = key_h(ctx, g, hm, action, scores, other, me)
    return key


# ---------------------------------------------------------------- the key read off the tally

cdef void board_start(const Ctx* ctx, const Game* g, BoardKeys* b) noexcept nogil:
    """What the actions of a decision share on the tally's path, which is taken when
    an ordinary play can only end the turn: the game keeps a tally, the draw is a
    plain draw from a non-empty pile, no turn cap is reached, and the evaluation is
    the tally's own (not split, finite weights, no heart).  The mover's drawn card
    (the top of the pile, unknown in an observation) joins its hand."""
    cdef const Tables* t = ctx.t
    cdef int seat = g.to_move, nxt, drawn, s, i, c
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef int count[MAX_SIDES][MAX_CODES]
    cdef int known[MAX_CODES]
    cdef int unseen[MAX_CODES]
    b.on = (g.tally.on and g.result == RESULT_NONE and not t.draft_mode and not t.heart
            and not ctx.split and ctx.finite_w and g.draw_n > 0
            and not (t.max_turns > 0 and g.turn + 1 >= t.max_turns))
    if not b.on:
        return
    b.me = t.seat_side[seat]
    nxt = (seat + 1) % t.players
    b.next_side = t.seat_side[nxt]
    drawn = g.draw[g.draw_n - 1]
    unseen_counts(ctx, g, -1, b.left, &b.wild_left)
    unseen_counts(ctx, g, seat, unseen, &b.unseen_wild)
    if drawn < MAX_CODES:
        if t.card_kind[drawn] == CARD_WILD and unseen[drawn] > 0:
            b.unseen_wild -= 1
        unseen[drawn] -= 1
    memset(count, 0, sizeof(count))
    for i in range(t.players):
        for c in range(g.hand_n[i]):
            if g.hand[i][c] < MAX_CODES:
                count[t.seat_side[i]][g.hand[i][c]] += 1
    if drawn < MAX_CODES:
        count[b.me][drawn] += 1
    b.ready_cells = 0
    b.ready_wild = 0
    for i in range(g.hand_n[nxt]):
        c = g.hand[nxt][i]
        if c < MAX_CODES:
            if t.card_kind[c] == CARD_WILD:
                b.ready_wild = 1
            elif t.card_kind[c] == CARD_NORMAL:
                b.ready_cells |= t.card_cells[c]
    for c in range(t.n_codes):
        known[c] = 0
        b.unseen[c] = unseen[c]
        for s in range(t.sides):
            known[c] += count[s][c]
    b.any_near = 0
    b.barred[0] = b.barred[1] = b.barred[2] = 0
    for s in range(t.sides):
        for i in range(3):
            b.barred[i] |= g.tally.barred[s][i]
        b.open[s] = 0
        for i in range(5):
            b.open[s] |= (<uint64_t>g.tally.open[s][i]) << (12 * i)
        b.fours[s] = four_cells(t, g, s)
        b.tot[s] = side_total(t, g, s)
        b.near[s] = s != b.me and b.tot[s] + 1 >= t.seq_to_win
        b.need[s] = t.seq_to_win - b.tot[s]
        b.double[s] = 0
        if s != b.me and not b.near[s] and b.fours[s] and may_gain(g, s, b.need[s]):
            b.double[s] = gain_cells(t, g, s, g.chips[s], all_chips & ~g.chips[s], b.fours[s], b.need[s])
        b.any_near |= b.near[s] or b.double[s] != 0
        b.wild[s] = b.remove[s] = b.plain_n[s] = 0
        for c in range(t.n_codes):
            b.avail[s][c] = b.left[c] - (known[c] - count[s][c])
            if count[s][c] == 0:
                continue
            if t.card_kind[c] == CARD_WILD:
                b.wild[s] += count[s][c]
            elif t.card_kind[c] == CARD_REMOVE:
                b.remove[s] += count[s][c]
            else:
                b.plain[s][b.plain_n[s]] = c
                b.plain_copies[s][b.plain_n[s]] = count[s][c]
                b.plain_n[s] += 1


cdef void remove_change(const Ctx* ctx, const Game* g, int cell, CellChange* ch) noexcept nogil:
    """The open windows and fours of every side after a one-eyed jack takes the chip
    off ``cell``, as apply_action's tally counts them: only the windows through the
    cell change, but a side's fours elsewhere may share a cell, so they are gathered
    again."""
    cdef const Tables* t = ctx.t
    cdef const Tally* ty = &g.tally
    cdef int side = owner_of(g, t.sides, bit(cell))
    cdef uint64_t fours[MAX_SIDES][3]
    cdef uint64_t b, bits
    cdef uint16_t old, new
    cdef u128 cells
    cdef int i, k, wi, s, before, after
    memcpy(ch.open, ty.open, sizeof(ch.open))
    memcpy(fours, ty.threat, sizeof(fours))
    ch.completes = 0
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        old = ty.fill[wi]
        new = <uint16_t>(old - (1 << (3 * side)))
        b = (<uint64_t>1) << (wi & 63)
        for s in range(t.sides):
            before = open_fill(t, ty, wi, old, s)
            after = open_fill(t, ty, wi, new, s)
            if before == after:
                continue
            if before >= 0:
                ch.open[s][before] -= 1
                if before == 4:
                    fours[s][wi >> 6] &= ~b
            if after >= 0:
                ch.open[s][after] += 1
                if after == 4:
                    fours[s][wi >> 6] |= b
    for s in range(t.sides):
        cells = 0
        for k in range(3):
            bits = fours[s][k]
            while bits:
                cells |= t.window_mask[(k << 6) + ctz64(bits)]
                bits &= bits - 1
        ch.fours[s] = cells & ~((g.chips[s] & ~bit(cell)) | t.corners)


cdef inline void window_place(uint16_t fw, int kc, int sides, int me, int barred, uint64_t* packed,
                              uint64_t* grows, uint64_t* full) noexcept nogil:
    """A chip of ``me`` comes into a window of tally fill ``fw`` with ``kc`` corners
    (``barred``: bit s when it may not become s's sequence): add its change to the
    sides' packed open counts (a count per 12 bits, never above 4095), without a
    branch (which windows change is anyone's guess, so branches mispredict).  A
    window of the mover's moves up one fill (``grows``: to four; ``full``: to five,
    a completion), another side's is lost."""
    cdef uint64_t alone, live
    cdef int s, k
    for s in range(sides):
        alone = (fw & ~(<uint16_t>(7 << (3 * s)))) == 0
        k = ((fw >> (3 * s)) & 7) + kc
        live = alone & ~(barred >> s) & 1
        if s == me:
            full[0] |= alone & (k == 4)
            grows[0] |= live & (k == 3)
            packed[s] += (live << (12 * k)) * 4095  # fill k down one, fill k + 1 up one
        else:
            packed[s] -= live << (12 * k)


ctypedef struct PlaceDelta:
    uint64_t packed[2]
    uint64_t grows, full

# window_place for two sides and a window barred to neither, by mover, corners (a line of five
# holds at most one) and tally fill
cdef PlaceDelta PLACE_TWO[2][2][64]


cdef void place_two_start() noexcept nogil:
    cdef int me, kc, fw
    cdef PlaceDelta* e
    for me in range(2):
        for kc in range(2):
            for fw in range(64):
                e = &PLACE_TWO[me][kc][fw]
                e.packed[0] = e.packed[1] = e.grows = e.full = 0
                window_place(<uint16_t>fw, kc, 2, me, 0, e.packed, &e.grows, &e.full)


place_two_start()


cdef void place_change(const Ctx* ctx, const Game* g, const BoardKeys* b, int cell, CellChange* ch) noexcept nogil:
    """The same counts after a chip of the mover's comes onto the empty ``cell``
    (window_place per window through it; with two sides, read from a table unless
    the window is barred).  A side's fours through the cell all miss this cell: the
    mover's complete (left to the copy), another side's are gone; the mover gains
    those reaching four."""
    cdef const Tables* t = ctx.t
    cdef const Tally* ty = &g.tally
    cdef int me = b.me, i, wi, s, k, barred
    cdef uint64_t packed[MAX_SIDES]
    cdef uint64_t grows, full = 0
    cdef uint16_t fw
    cdef u128 grown = 0
    cdef const PlaceDelta* e
    for s in range(t.sides):
        packed[s] = b.open[s]
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        if t.sides == 2 and not ((b.barred[wi >> 6] >> (wi & 63)) & 1):
            e = &PLACE_TWO[me][t.corner_n[wi]][ty.fill[wi]]
            packed[0] += e.packed[0]
            packed[1] += e.packed[1]
            full |= e.full
            grows = e.grows
        else:
            barred = 0
            for s in range(t.sides):
                barred |= ((ty.barred[s][wi >> 6] >> (wi & 63)) & 1) << s
            grows = 0
            window_place(ty.fill[wi], t.corner_n[wi], t.sides, me, barred, packed, &grows, &full)
        grown |= t.window_mask[wi] & (<u128>0 - <u128>grows)
    ch.completes = full
    for s in range(t.sides):
        for k in range(5):
            ch.open[s][k] = (packed[s] >> (12 * k)) & 4095
        ch.fours[s] = b.fours[s] & ~bit(cell)
    ch.fours[me] |= grown & ~(g.chips[me] | bit(cell) | t.corners)


cdef void child_features(const Ctx* ctx, const BoardKeys* b, const CellChange* ch, int s, int card,
                         u128 empty, int wild_left, double* f) noexcept nogil:
    """side_features of side ``s`` (up to F_DEAD_OPEN) after the mover plays ``card``
    (the board as ``ch``, the empty cells ``empty``): the same features, so the
    same score to the last bit."""
    cdef const Tables* t = ctx.t
    cdef double live
    cdef u128 cells = ch.fours[s], threats = 0
    cdef int k, cell, c, dead = 0
    cdef bint mine = s == b.me
    cdef bint wins = b.tot[s] + 1 >= t.seq_to_win
    for k in range(F_DEAD_OPEN // 2):
        f[2 * k] = 0.0
        f[2 * k + 1] = 0.0
    for k in range(5):
        f[F_OPEN + k] = ch.open[s][k]
    while cells:
        cell = ctz128(cells)
        cells &= cells - 1
        c = ctx.cell_card[cell]
        if c < MAX_CODES and b.avail[s][c] - (mine and c == card) > 0:
            live = 1.0
        elif wild_left > 0:
            live = 0.5
        else:
            continue
        f[F_THREAT] += live
        if wins:
            f[F_WIN_THREAT] += live
        threats |= bit(cell)
    if popcount128(threats) >= 2:
        f[F_DOUBLE] = 1.0
        if wins:
            f[F_WIN_DOUBLE] = 1.0
    f[F_SEQUENCE] = b.tot[s]
    for k in range(b.plain_n[s]):
        if (t.card_cells[b.plain[s][k]] & empty) == 0:
            dead += b.plain_copies[s][k]
    if mine:  # the card played has left the hand
        f[F_WILD] = b.wild[s] - (t.card_kind[card] == CARD_WILD)
        f[F_REMOVE] = b.remove[s] - (t.card_kind[card] == CARD_REMOVE)
        dead -= t.card_kind[card] == CARD_NORMAL and (t.card_cells[card] & empty) == 0
    else:
        f[F_WILD] = b.wild[s]
        f[F_REMOVE] = b.remove[s]
    f[F_DEAD] = dead
    if s == b.next_side:
        f[F_TEMPO] = 1.0
        if (b.ready_cells & threats) or (b.ready_wild and threats):
            f[F_READY] = 1.0
            if wins:
                f[F_WIN_READY] = 1.0


cdef bint board_key(const Ctx* ctx, const Game* g, HeuristicMemo* hm, int32_t action,
                    HeuristicKey* key) noexcept nogil:
    """heuristic_key without the copy: an ordinary play (a chip placed or removed)
    that only ends the turn changes the windows through its cell, so the child's
    features are the parent's tally changed there (place_change, remove_change:
    shared by every card that plays on the cell) plus the cards moved (the card played, the card
    drawn).  Returns 0, having written nothing, when the copy must decide: any
    other action, a chip completing a window, a full board."""
    cdef const Tables* t = ctx.t
    cdef BoardKeys* b = &hm.board
    cdef int kind = act_kind(action), card = act_card(action), cell = act_cell(action)
    cdef int s, wild_left, c, threat_cell
    cdef CellChange* ch = &b.change[cell]
    cdef double scores[MAX_SIDES]
    cdef double f[MAX_SIDES * N_FEATURES]
    cdef u128 empty, cells, chips, others, near = 0
    if kind != ACT_PLACE and kind != ACT_REMOVE:
        return 0
    if not b.have[cell]:
        if kind == ACT_PLACE:
            place_change(ctx, g, b, cell, ch)
        else:
            remove_change(ctx, g, cell, ch)
        b.have[cell] = 1
    empty = g.empty ^ bit(cell)
    if ch.completes or empty == 0:
        return 0
    wild_left = b.wild_left - (t.card_kind[card] == CARD_WILD and b.left[card] > 0)
    for s in range(t.sides):
        child_features(ctx, b, ch, s, card, empty, wild_left, f + s * N_FEATURES)
    features_dots(ctx, f, F_DEAD_OPEN, t.sides, scores)
    key.cls = 0
    key.threats = 0
    if b.any_near or kind == ACT_REMOVE:  # win_threat_cells: the cells where an opponent wins with a card the mover may not see
        for s in range(t.sides):
            if b.near[s]:
                cells = ch.fours[s]
            elif s == b.me or not (b.double[s] or kind == ACT_REMOVE) or not ch.fours[s]:
                continue
            else:
                # two or more sequences at once: a placement only takes cells and windows
                # away, so the cells are among the parent's; a removal may open new ones
                chips = g.chips[s] & ~bit(cell)
                others = (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[s]
                others = (others | bit(cell)) if kind == ACT_PLACE else (others & ~bit(cell))
                cells = gain_cells(t, g, s, chips, others,
                                   ch.fours[s] & (b.double[s] if kind == ACT_PLACE else ch.fours[s]), b.need[s])
            while cells:
                threat_cell = ctz128(cells)
                cells &= cells - 1
                c = ctx.cell_card[threat_cell]
                if b.unseen_wild > 0 or (c < MAX_CODES and b.unseen[c] > 0):
                    near |= bit(threat_cell)
        key.threats = popcount128(near)
    key.h = key_h(ctx, g, hm, action, scores, rivals_score(ctx, scores, b.me), b.me)
    return 1


cdef int32_t heuristic_choice(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf) noexcept nogil:
    """One action of look-ahead with the static evaluation (see heuristic_action):
    the best by heuristic_key, ties drawn at random."""
    return heuristic_best(ctx, g, rng, buf, 1, NULL)


cdef int32_t heuristic_best(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf,
                            bint draw_ties, int* n_legal) noexcept nogil:
    """The best legal action by heuristic_key (-1: none); among equal keys one drawn at
    random, or without ``draw_ties`` the first in generation order (the search's safety
    net compares a fixed move, and draws nothing from the stream for it).  ``n_legal``
    (unless NULL) receives the number of legal actions keyed: what a search counts
    as the decision's work."""
    cdef int n = gen_actions(ctx.t, g, buf), i, ties = 0, order
    cdef int32_t choice = -1
    cdef HeuristicMemo hm
    cdef HeuristicKey key, best
    if n_legal != NULL:
        n_legal[0] = n
    if n <= 1:
        return buf[0] if n == 1 else -1
    heuristic_start(&hm)
    best.cls, best.threats, best.h = -1, 1 << 30, -INFINITY
    for i in range(n):
        key = heuristic_key(ctx, g, rng, &hm, buf[i])
        order = key_order(&key, &best)
        if order > 0:
            best, choice, ties = key, buf[i], 1
        elif order == 0 and draw_ties:
            ties += 1
            if rand_below(rng, ties) == 0:
                choice = buf[i]
    return choice


# ---------------------------------------------------------------- Python door

def decisive_action(CoreGame game, bit_generator=None):
    """The playouts' decisive move for the side to move, or None: a winning
    completion, else a block of a cell where an opponent would win at once, else
    any own completion (RULES C-26 windows; the heart rule is not considered).
    The bit generator only picks the draft card to take (draft variant)."""
    cdef Ctx ctx
    cdef Threats th
    cdef int32_t a
    cdef bitgen_t* rng
    _check_playable(game)
    if bit_generator is None:
        bit_generator = np.random.PCG64(0)
    rng = bitgen_of(bit_generator)
    load_ctx(&ctx, game, None)
    threats_scan(&ctx, &game.g, &th)
    with bit_generator.lock:
        a = urgent_action(&ctx, &game.g, &th, rng)
    return None if a < 0 else a


def heuristic_keys(CoreGame game, bit_generator, weights=None):
    """``[(action, class, threats, h), ...]``: the heuristic's key of every legal
    action, in P-13 order (see :func:`heuristic_action`; the bit generator only
    reshuffles an empty draw pile in the copies).  What a test compares between a
    game that keeps the window tally and the same game without it."""
    cdef Ctx ctx
    cdef int32_t buf[MAX_MOVES]
    cdef HeuristicMemo hm
    cdef HeuristicKey key
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    cdef int n, i
    _check_playable(game)
    load_ctx(&ctx, game, weights)
    n = gen_actions(ctx.t, &game.g, buf)
    heuristic_start(&hm)
    out = []
    with bit_generator.lock:
        for i in range(n):
            key = heuristic_key(&ctx, &game.g, rng, &hm, buf[i])
            out.append((buf[i], key.cls, key.threats, key.h))
    return out


def _check_playable(CoreGame game):
    if game.g.result != RESULT_NONE:
        raise ValueError("the game is over: there is no action to choose")


ctypedef int32_t (*Chooser)(const Ctx*, const Game*, bitgen_t*, int32_t*) noexcept nogil


cdef int32_t choose(Chooser chooser, CoreGame game, object bit_generator, object weights) except? -2:
    """Run one of the C choosers on the mover's view, with the generator's lock held."""
    cdef Ctx ctx
    cdef int32_t buf[MAX_MOVES]
    cdef int32_t choice
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    _check_playable(game)
    load_ctx(&ctx, game, weights)
    with bit_generator.lock:
        with nogil:
            choice = chooser(&ctx, &game.g, rng, buf)
    if choice < 0:
        raise ValueError("no legal action is known for the side to move")
    return choice


def greedy_action(CoreGame game, bit_generator, weights=None):
    """The legal action with the best :func:`score_action`; ties broken at random.

    Args:
        game: the mover's view of the game (hidden cards may be unknown).
        bit_generator: a numpy BitGenerator (ties are drawn from it).
        weights: overrides of :func:`default_weights`.
    Raises:
        ValueError: the game is over, or the mover has no known legal action.
    """
    return choose(greedy_choice, game, bit_generator, weights)


def heuristic_action(CoreGame game, bit_generator, weights=None):
    """One action of look-ahead: apply each legal action to a copy and evaluate it.

    A winning action is always taken (in the draft variant also a take that ends
    the game by the count of D-4 with the mover ahead); an action that ends it in a
    loss never while another exists, one that ends it in a draw only rather than
    leave an opponent a cell where it wins at once; otherwise a dead-card exchange
    if there is one; otherwise the play that leaves the fewest cells where an
    opponent could win at once (so an immediate win is blocked whenever a block
    exists), then the best evaluation score difference (mover minus the other
    sides pooled by :func:`rivals_score`, over eval_scale: the log-odds of the
    mover's win chance; with two sides, minus the other side) plus ``w_tactics * score_action / 100`` (default 0: the
    fitted evaluation alone played best, 57.7% against greedy, against 53% with
    0.25 or 1).
    Exchanges are ranked among themselves by the same difference.

    In the draft variant the evaluation reads no ordinary card of a hand, so each
    action also adds ``w_pick`` times the best gain of a cell the card taken can
    still fill (a fifth chip of its own window counts as ``w_ready``, a broken
    opponent window as that window's value; a dead card nothing) and subtracts the
    same value of the best card the draft leaves for the next seat (jacks at their
    in-hand weights): without it every pick of a play scored the same and the
    heuristic scored 10% against greedy there, with it about 60%.
    Cells "where an opponent could win" count only if a card that fills them is
    not visible to the mover (discards, draft, own hand).  The mover's drawn card
    is unknown in the copies: it is simply not counted.
    """
    return choose(heuristic_choice, game, bit_generator, weights)
