# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""What the bots know about a position, in C on the core's ``Game`` struct: the
evaluation weights, the per-call context (``Ctx``), one-ply action scores and a
static evaluation.  The choosers (``seqsolve._choose``) and the tree search
(``seqsolve._search``) are built from these, through ``_eval.pxd``.

* :func:`score_action` looks only at the (at most 20) windows through the target
  cell: win now >> complete a sequence >> block an opponent's four >> extend own
  open windows by their fill >> a little centre value; jacks carry a cost so they
  are kept for when they matter, and a dead-card exchange always scores above
  every play but a win (exchanges come before the play).  In the draft variant
  the card taken from the draft adds its own value.
* :func:`evaluate_position` scores a whole position for every side: open windows
  by fill, live threats, sequences, jacks and dead cards in the side's known
  hands, "can complete a sequence on this turn" and the move (the F_* features
  of _eval.pxd, see :func:`position_features`).  Scores become win chances by
  a softmax (a logistic of the difference for two sides).  The default weights
  were fitted by logistic regression on 157,000 positions of greedy and
  heuristic self-play (2 players).
* The threat scan (threats_scan, threat_cells, win_threat_cells) finds the cells
  where a side would complete a sequence at once: the decisive moves of the
  choosers and of the search's playouts are read from it.

>>> from seqsolve.games.sequence.rules import parse_rules
>>> from seqsolve.games.sequence.state import State
>>> from seqsolve import _eval
>>> state = State.new(parse_rules("classic", players=2), seed=1)
>>> action = state.legal_actions()[0]
>>> _eval.score_action(state.core, action) < _eval.default_weights()["w_win"]
True
>>> 0.0 < _eval.evaluate_position(state.core, 0) < 1.0
True
"""

from libc.math cimport exp, log, isfinite, INFINITY
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint64_t
from libc.string cimport memset

from seqsolve._core cimport (
    u128, ctz128, ctz64, popcount128, Tables, Game, CoreGame,
    bit, act_kind, act_card, act_cell, act_pick, side_total, overlap_ok, side_sequences,
    MAX_SIDES, MAX_CODES, N_CELLS, N_WINDOWS, MAX_MOVES, UNKNOWN_CARD,
    ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE, ACT_PASS,
    CARD_NORMAL, CARD_WILD, CARD_REMOVE, RESULT_NONE, RESULT_DRAW,
    gen_actions,
)


# ---------------------------------------------------------------- small helpers

cdef enum:
    MAX_CAND = 10   # completed windows through one cell considered for a declaration


cdef int max_compatible(const Tables* t, uint8_t* seqs, int n_seqs, const uint8_t* cand, int n,
                        int i) noexcept nogil:
    """Size of the largest subset of the windows cand[i:] that may join the sequences
    seqs[:n_seqs] one after another (C-26 step 2, C-25's limits, the reuse limit
    included, as the core declares them); ``seqs`` has room for MAX_CAND more."""
    cdef int with_it = 0, without
    if i == n:
        return 0
    if overlap_ok(t, t.window_mask[cand[i]], seqs, n_seqs):
        seqs[n_seqs] = cand[i]
        with_it = 1 + max_compatible(t, seqs, n_seqs + 1, cand, n, i + 1)
        if with_it == n - i:
            return with_it
    without = max_compatible(t, seqs, n_seqs, cand, n, i + 1)
    return with_it if with_it > without else without


# ---------------------------------------------------------------- context

cdef void make_ctx(Ctx* ctx, const Tables* t, const Weights* w) noexcept nogil:
    """Per-rule-set lookups the scoring functions need (cheap: about a microsecond)."""
    cdef int c, cell, i
    cdef u128 cells
    ctx.t = t
    ctx.w = w[0]
    memset(ctx.cell_card, 255, sizeof(ctx.cell_card))
    memset(ctx.copies, 0, sizeof(ctx.copies))
    ctx.wild_copies = 0
    ctx.n_wild = 0
    for c in range(t.n_codes):
        if t.card_kind[c] == CARD_WILD:
            ctx.wild_code[ctx.n_wild] = c
            ctx.n_wild += 1
        cells = t.card_cells[c]
        while cells:
            cell = ctz128(cells)
            cells &= cells - 1
            ctx.cell_card[cell] = c
    for i in range(t.deck_n):
        if t.deck[i] < MAX_CODES:
            ctx.copies[t.deck[i]] += 1
            if t.card_kind[t.deck[i]] == CARD_WILD:
                ctx.wild_copies += 1
    for i in range(N_WINDOWS):
        ctx.win_corner[i] = (t.window_mask[i] & t.corners) != 0
    for cell in range(N_CELLS):
        ctx.centre[cell] = w.centre * t.through_n[cell] / 20.0
    for i in range(5):
        ctx.feat_w[F_OPEN + i] = w.open[i]
    ctx.feat_w[F_THREAT] = w.threat
    ctx.feat_w[F_WIN_THREAT] = w.win_threat
    ctx.feat_w[F_DOUBLE] = w.double_threat
    ctx.feat_w[F_WIN_DOUBLE] = w.win_double
    ctx.feat_w[F_SEQUENCE] = w.sequence
    ctx.feat_w[F_WILD] = w.jack_in_hand
    ctx.feat_w[F_REMOVE] = w.remove_in_hand
    ctx.feat_w[F_DEAD] = -w.dead_card
    ctx.feat_w[F_READY] = w.ready
    ctx.feat_w[F_WIN_READY] = w.win_ready
    ctx.feat_w[F_TEMPO] = w.tempo
    ctx.split = 0
    ctx.hold = 0.0
    for i in range(5):
        ctx.feat_w[F_DEAD_OPEN + i] = w.dead_open[i]
        ctx.feat_w[F_HAND + i] = w.hand[i]
        if w.hand[i] != 0.0 or w.dead_open[i] != w.open[i]:
            ctx.split = 1
    ctx.finite_w = 1
    for i in range(<int>(sizeof(Weights) // sizeof(double))):  # Weights holds doubles only
        if not isfinite((<const double*>w)[i]):
            ctx.finite_w = 0


# ---------------------------------------------------------------- one-ply scores

cdef inline bint barred(const Game* g, int s, int wi) noexcept nogil:
    """Window ``wi`` may not become a sequence of ``s`` (the tally's eligible())."""
    return (g.tally.barred[s][wi >> 6] >> (wi & 63)) & 1


cdef double place_value(const Ctx* ctx, const Game* g, int me, int cell, bint* won) noexcept nogil:
    """Value of a chip of side ``me`` on the empty ``cell`` (C-15 placement), before
    any jack's cost (memo_score charges a two-eyed jack unless ``won``: the chip
    wins the game)."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cnt_me = g.chips[me] | t.corners
    cdef u128 others = all_chips & ~g.chips[me]
    cdef u128 seqm
    cdef u128 m, opp_in
    cdef uint8_t cand[MAX_CAND]
    cdef int i, wi, f, o, fo, n_cand = 0
    cdef double score = ctx.centre[cell]
    if g.tally.on:
        return place_value_tally(ctx, g, me, cell, won)
    seqm = seq_cells(t, g, me)
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        m = t.window_mask[wi]
        opp_in = m & others
        if opp_in == 0:
            if not eligible(t, g, me, m, seqm):
                continue
            f = popcount128(m & cnt_me)
            if f >= 4:
                if n_cand < MAX_CAND:
                    cand[n_cand] = wi
                    n_cand += 1
            else:
                score += w.extend[f]
                if ctx.win_corner[wi]:
                    score += w.corner_line
        elif (m & g.chips[me]) == 0:
            for o in range(t.sides):
                if o != me and (opp_in & ~g.chips[o]) == 0:
                    break
            else:
                continue  # two opponents in it: nobody's window
            if not eligible(t, g, o, m, seq_cells(t, g, o)):
                continue
            fo = popcount128(m & (g.chips[o] | t.corners))
            if fo >= 4:
                score += w.block_win if side_total(t, g, o) + 1 >= t.seq_to_win else w.block[4]
            else:
                score += w.block[fo]
    return place_rest(ctx, g, me, cell, score, cand, n_cand, won)


cdef inline int sole_side(uint16_t fw, int sides) noexcept nogil:
    """The one side with chips in a window of tally fill ``fw``; -1 when two have
    (nobody's window) or none."""
    cdef int s, o = -1
    for s in range(sides):
        if (fw >> (3 * s)) & 7:
            if o >= 0:
                return -1
            o = s
    return o


cdef inline int tally_owner(const Tables* t, const Game* g, int me, int wi, int* fill) noexcept nogil:
    """Whose open window ``wi`` is, read from the tally, for a chip of side ``me`` on an
    empty cell of it: ``me`` (its own window), another side (that side's window alone),
    or -1 (two sides in it, or barred by C-25 for its owner); ``fill`` gets the owner's
    chips with the corners counted."""
    cdef uint16_t fw = g.tally.fill[wi], mine = <uint16_t>(7 << (3 * me))
    cdef int o
    if (fw & ~mine) == 0:
        o = me
    elif (fw & mine) == 0:
        o = 1 - me if t.sides == 2 else sole_side(fw, t.sides)
        if o < 0:
            return -1
    else:
        return -1
    if barred(g, o, wi):
        return -1
    fill[0] = ((fw >> (3 * o)) & 7) + t.corner_n[wi]
    return o


cdef double place_value_tally(const Ctx* ctx, const Game* g, int me, int cell, bint* won) noexcept nogil:
    """place_value read from the game's window tally: the same windows in the same
    order and the same additions, so the same value to the last bit, without
    counting a window's chips or its overlap with the sequences."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef uint8_t cand[MAX_CAND]
    cdef int i, wi, f = 0, o, n_cand = 0
    cdef double score = ctx.centre[cell]
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        o = tally_owner(t, g, me, wi, &f)
        if o < 0:
            continue
        if o == me:
            if f >= 4:
                if n_cand < MAX_CAND:
                    cand[n_cand] = wi
                    n_cand += 1
            else:
                score += w.extend[f]
                if ctx.win_corner[wi]:
                    score += w.corner_line
        else:
            if f >= 4:
                score += w.block_win if side_total(t, g, o) + 1 >= t.seq_to_win else w.block[4]
            else:
                score += w.block[f]
    return place_rest(ctx, g, me, cell, score, cand, n_cand, won)


cdef inline double place_rest(const Ctx* ctx, const Game* g, int me, int cell, double score,
                              const uint8_t* cand, int n_cand, bint* won) noexcept nogil:
    """place_value after the windows through the cell: the heart (D-3), then the
    sequences the chip completes (a win, or w_complete each)."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef u128 others, hm
    cdef uint8_t seqs[N_WINDOWS + MAX_CAND]
    cdef int o, n_new = 0, total, hf
    if t.heart and (bit(cell) & t.heart_mask):
        others = (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[me]
        hm = t.heart_mask
        if (hm & others) == 0 and (g.chips[me] & hm) != hm:
            hf = popcount128(g.chips[me] & hm)
            if hf == 3:
                n_new = 2
            else:
                score += 2 * w.extend[hf + 1]
        elif (hm & g.chips[me]) == 0:
            for o in range(t.sides):
                if o != me and ((hm & others) & ~g.chips[o]) == 0:
                    hf = popcount128(g.chips[o] & hm)
                    if hf == 3:
                        score += w.block_win if side_total(t, g, o) + 2 >= t.seq_to_win else 2 * w.block[4]
                    else:
                        score += 2 * w.block[hf + 1]
                    break
    if n_cand:
        n_new += max_compatible(t, seqs, side_sequences(g, me, seqs), cand, n_cand, 0)
    won[0] = 0
    if n_new:
        total = side_total(t, g, me) + n_new
        if total >= t.seq_to_win:
            won[0] = 1
            return w.win + score
        score += w.complete * n_new
    return score


cdef double score_remove(const Ctx* ctx, const Game* g, int me, int cell) noexcept nogil:
    """Value of a one-eyed jack taking the (unlocked, opposing) chip off ``cell``."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef u128 b = bit(cell)
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cnt_me = g.chips[me] | t.corners
    cdef u128 m, cnt_o, seqo, seqm, hm
    cdef uint16_t fw
    cdef int i, wi, hf, f, fo
    cdef int o = owner_of(g, t.sides, b)
    cdef double score = -w.remove_cost
    if o < 0:
        return score
    cnt_o = g.chips[o] | t.corners
    seqo = seq_cells(t, g, o)
    seqm = seq_cells(t, g, me)
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        # the window's fill for o when it is o's window, for me when o's chip on the
        # cell is all that keeps it from being mine; -1 when neither or not eligible
        fo = f = -1
        if g.tally.on:  # the same tests, read from the window tally
            fw = g.tally.fill[wi]
            if (fw & ~(<uint16_t>(7 << (3 * o)))) == 0:
                if not barred(g, o, wi):
                    fo = ((fw >> (3 * o)) & 7) + t.corner_n[wi]
            elif (fw & ~(<uint16_t>(7 << (3 * me)))) == (1 << (3 * o)):
                if not barred(g, me, wi):
                    f = ((fw >> (3 * me)) & 7) + t.corner_n[wi]
        else:
            m = t.window_mask[wi]
            if (m & all_chips & ~g.chips[o]) == 0:
                if eligible(t, g, o, m, seqo):
                    fo = popcount128(m & cnt_o)
            elif (m & all_chips & ~g.chips[me]) == b:
                if eligible(t, g, me, m, seqm):
                    f = popcount128(m & cnt_me)
        if fo == 4:
            score += w.block_win if side_total(t, g, o) + 1 >= t.seq_to_win else w.block[4]
        elif 0 <= fo < 4:
            score += w.block[fo]
        elif 0 <= f <= 4:
            score += w.extend[f]
    if t.heart and (b & t.heart_mask):
        hm = t.heart_mask
        if (hm & all_chips & ~g.chips[o]) == 0 and (g.chips[o] & hm) != hm:
            hf = popcount128(g.chips[o] & hm)
            if hf == 3:
                score += w.block_win if side_total(t, g, o) + 2 >= t.seq_to_win else 2 * w.block[4]
            else:
                score += 2 * w.block[hf + 1]
    return score


cdef double pick_value(const Ctx* ctx, const Game* g, int me, int pick) noexcept nogil:
    """Value of taking draft card ``pick`` into hand (D-1), capped at w_complete."""
    cdef const Tables* t = ctx.t
    cdef u128 cells
    cdef int kind, cell
    cdef double v, best
    cdef bint won
    if pick < 0 or pick >= t.n_codes:
        return 0.0
    kind = t.card_kind[pick]
    if kind == CARD_WILD:
        return ctx.w.pick * 2 * ctx.w.jack_cost
    if kind == CARD_REMOVE:
        return ctx.w.pick * 2 * ctx.w.remove_cost
    cells = t.card_cells[pick] & g.empty
    if cells == 0:
        return 0.0
    best = -INFINITY
    while cells:
        cell = ctz128(cells)
        cells &= cells - 1
        v = place_value(ctx, g, me, cell, &won)
        if v > best:
            best = v
    if best > ctx.w.complete:
        best = ctx.w.complete
    return ctx.w.pick * best


# ---------------------------------------------------------------- evaluation

cdef inline u128 add_threat(const Ctx* ctx, double* f, u128 miss, const int* avail, int wild_left,
                            bint wins, u128 threats) noexcept nogil:
    """Count the cell ``miss`` completing an open window of fill 4 as a threat of
    side_features' side, once per cell, by the chance a card for it is still live:
    returns the threat cells so far."""
    cdef int c = ctx.cell_card[ctz128(miss)]
    cdef double live = 1.0 if (c < MAX_CODES and avail[c] > 0) else (0.5 if wild_left > 0 else 0.0)
    if live > 0 and not (threats & miss):
        f[F_THREAT] += live
        if wins:
            f[F_WIN_THREAT] += live
        threats |= miss
    return threats


cdef void side_features(const Ctx* ctx, const Game* g, int s, const int* left, int wild_left,
                        double* f) noexcept nogil:
    """The evaluation features of side ``s`` (indices F_*), from public information
    plus the known hand cards; ``left`` counts the copies not yet discarded.

    A card in another side's known hand is out of ``s``'s reach, so ``s``'s
    windows are judged by what ``s`` could still get: a window needing a cell
    whose card has no copy left for ``s`` is "dead" (a two-eyed jack only), and
    a live window counts the cells ``s``'s own known hand can fill, because a
    window the hand can finish is a plan, not a hope."""
    cdef const Tables* t = ctx.t
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cnt = g.chips[s] | t.corners
    cdef u128 others = all_chips & ~g.chips[s]
    cdef u128 seqm = seq_cells(t, g, s)
    cdef u128 m, miss, threats = 0, hm, cells, hand_cells = 0, dead = 0
    cdef uint64_t bits
    cdef int wi, k, c, seat, i, kind, hf, h, ready = 0
    cdef int avail[MAX_CODES]
    cdef int tot = side_total(t, g, s)
    cdef bint wins = tot + 1 >= t.seq_to_win
    cdef double live
    for k in range(N_FEATURES // 2):  # in pairs: gcc stores them, where a memset is a slow rep stos
        f[2 * k] = 0.0
        f[2 * k + 1] = 0.0
    if N_FEATURES % 2:
        f[N_FEATURES - 1] = 0.0
    for c in range(t.n_codes):
        avail[c] = left[c]
    for seat in range(t.players):
        for i in range(g.hand_n[seat]):
            c = g.hand[seat][i]
            if c >= MAX_CODES:
                continue
            if t.seat_side[seat] != s:
                avail[c] -= 1
            elif ctx.split and t.card_kind[c] == CARD_NORMAL:
                hand_cells |= t.card_cells[c]
    if ctx.split:  # else every window counts as live and no hand feature is read
        hand_cells &= g.empty
        for c in range(t.n_codes):
            if avail[c] <= 0 and t.card_kind[c] == CARD_NORMAL:
                dead |= t.card_cells[c]
        dead &= g.empty & ~hand_cells
    f[F_SEQUENCE] = tot
    f[F_TEMPO] = t.seat_side[g.to_move] == s
    if g.tally.on and not ctx.split:
        for k in range(5):
            f[F_OPEN + k] = g.tally.open[s][k]
        for i in range(3):
            bits = g.tally.threat[s][i]
            while bits:
                wi = (i << 6) + ctz64(bits)
                bits &= bits - 1
                threats = add_threat(ctx, f, t.window_mask[wi] & ~cnt, avail, wild_left, wins, threats)
    else:
        for wi in range(N_WINDOWS):
            m = t.window_mask[wi]
            if m & others:
                continue
            k = popcount128(m & cnt)
            if k == 5 or not eligible(t, g, s, m, seqm):
                continue
            if not ctx.split:
                f[F_OPEN + k] += 1.0
            else:
                miss = m & ~cnt
                if miss & dead:
                    f[F_DEAD_OPEN + k] += 1.0
                else:
                    f[F_OPEN + k] += 1.0
                    if miss & hand_cells:
                        f[F_HAND + k + popcount128(miss & hand_cells) - 1] += 1.0
            if k == 4:
                threats = add_threat(ctx, f, m & ~cnt, avail, wild_left, wins, threats)
    if t.heart:
        hm = t.heart_mask
        if (hm & others) == 0 and (g.chips[s] & hm) != hm:
            hf = popcount128(g.chips[s] & hm)
            f[F_OPEN + hf + 1] += 2.0
            if hf == 3:
                miss = hm & ~g.chips[s]
                c = ctx.cell_card[ctz128(miss)]
                if ((c < MAX_CODES and avail[c] > 0) or wild_left > 0) and not (threats & miss):
                    f[F_THREAT] += 1.0
                    if tot + 2 >= t.seq_to_win:
                        f[F_WIN_THREAT] += 1.0
                    threats |= miss
    if popcount128(threats) >= 2:
        f[F_DOUBLE] = 1.0
        if wins:
            f[F_WIN_DOUBLE] = 1.0
    for seat in range(t.players):
        if t.seat_side[seat] != s:
            continue
        for i in range(g.hand_n[seat]):
            c = g.hand[seat][i]
            if c >= MAX_CODES:
                continue
            kind = t.card_kind[c]
            if kind == CARD_WILD:
                f[F_WILD] += 1.0
                if threats and seat == g.to_move:
                    ready = 1
            elif kind == CARD_REMOVE:
                f[F_REMOVE] += 1.0
            else:
                cells = t.card_cells[c]
                if (cells & g.empty) == 0:
                    f[F_DEAD] += 1.0
                elif (cells & threats) and seat == g.to_move:
                    ready = 1
    if ready:
        f[F_READY] = 1.0
        if wins:
            f[F_WIN_READY] = 1.0


cdef void side_scores(const Ctx* ctx, const Game* g, double* scores) noexcept nogil:
    """Raw static score of every side (higher is better): the features dotted with
    the weights (see side_features)."""
    cdef const Tables* t = ctx.t
    cdef int left[MAX_CODES]
    cdef double f[MAX_SIDES * N_FEATURES]
    cdef int wild_left, s
    cdef int seat, i, c
    # the features from F_DEAD_OPEN on are zero unless split: a zero times a finite
    # weight adds a signed zero to a sum that is never -0.0 (it starts at +0.0),
    # which leaves it the same to the bit, so they are not added
    cdef int n_feat = N_FEATURES if ctx.split or not ctx.finite_w else F_DEAD_OPEN
    unseen_counts(ctx, g, -1, left, &wild_left)
    for s in range(t.sides):
        side_features(ctx, g, s, left, wild_left, f + s * N_FEATURES)
    features_dots(ctx, f, n_feat, t.sides, scores)
    if ctx.hold != 0.0 and t.draft_mode:
        # the features read no plain card in a hand, so a search would not know
        # one draft pick from another: add what every known card is worth to hold
        for seat in range(t.players):
            for i in range(g.hand_n[seat]):
                c = g.hand[seat][i]
                if c != UNKNOWN_CARD:
                    scores[t.seat_side[seat]] += ctx.hold * hold_value(ctx, g, seat, c)


cdef void terminal_values(const Tables* t, const Game* g, double* values) noexcept nogil:
    cdef int s
    for s in range(t.sides):
        if g.result == RESULT_DRAW:
            values[s] = 1.0 / t.sides
        else:
            values[s] = 1.0 if g.result == s else 0.0


cdef void side_values(const Ctx* ctx, const Game* g, double* values) noexcept nogil:
    """Estimated win chance of every side: a softmax of the scores (sums to 1)."""
    cdef const Tables* t = ctx.t
    cdef double scores[MAX_SIDES]
    cdef double top, total = 0.0, inv
    cdef int s
    if g.result != RESULT_NONE:
        terminal_values(t, g, values)
        return
    side_scores(ctx, g, scores)
    top = scores[0]
    for s in range(1, t.sides):
        if scores[s] > top:
            top = scores[s]
    inv = 1.0 / ctx.w.eval_scale if ctx.w.eval_scale > 0 else 1.0
    for s in range(t.sides):
        values[s] = exp((scores[s] - top) * inv)
        total += values[s]
    for s in range(t.sides):
        values[s] = values[s] / total
        # keep strictly inside (0, 1): a static guess is never certain
        if values[s] < 1e-9:
            values[s] = 1e-9
        elif values[s] > 1.0 - 1e-9:
            values[s] = 1.0 - 1e-9


cdef double side_value(const Ctx* ctx, const Game* g, int side) noexcept nogil:
    cdef double values[MAX_SIDES]
    side_values(ctx, g, values)
    return values[side]


# ---------------------------------------------------------------- threats

cdef void threats_scan(const Ctx* ctx, const Game* g, Threats* th) noexcept nogil:
    """Every side's threat windows, from scratch."""
    cdef const Tables* t = ctx.t
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cnt, others, seqm, m
    cdef int s, wi
    for s in range(MAX_SIDES):
        th.w[s][0] = th.w[s][1] = th.w[s][2] = 0
    for s in range(t.sides):
        cnt = g.chips[s] | t.corners
        others = all_chips & ~g.chips[s]
        seqm = seq_cells(t, g, s)
        for wi in range(N_WINDOWS):
            m = t.window_mask[wi]
            if (m & others) == 0 and popcount128(m & cnt) == 4 and eligible(t, g, s, m, seqm):
                th.w[s][wi >> 6] |= (<uint64_t>1) << (wi & 63)


cdef u128 threat_cells(const Ctx* ctx, const Game* g, Threats* th, int s) noexcept nogil:
    """The cells completing a threat window of side s (checked, stale windows dropped)."""
    cdef const Tables* t = ctx.t
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cells = 0
    cdef uint64_t bits
    cdef int k, wi
    for k in range(3):
        bits = th.w[s][k]
        while bits:
            wi = (k << 6) + ctz64(bits)
            bits &= bits - 1
            if is_threat_window(t, g, s, wi, all_chips):
                cells |= t.window_mask[wi] & ~(g.chips[s] | t.corners)
            else:
                th.w[s][k] &= ~((<uint64_t>1) << (wi & 63))
    return cells


cdef u128 four_cells(const Tables* t, const Game* g, int s) noexcept nogil:
    """The cells that complete an open window of side ``s`` holding four (the
    tally's threat windows when the game keeps one)."""
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cnt = g.chips[s] | t.corners
    cdef u128 others = all_chips & ~g.chips[s]
    cdef u128 seqm, m, cells = 0
    cdef uint64_t bits
    cdef int i, wi
    if g.tally.on:
        for i in range(3):
            bits = g.tally.threat[s][i]
            while bits:
                wi = (i << 6) + ctz64(bits)
                bits &= bits - 1
                cells |= t.window_mask[wi]
        return cells & ~cnt
    seqm = seq_cells(t, g, s)
    for wi in range(N_WINDOWS):
        m = t.window_mask[wi]
        if (m & others) == 0 and popcount128(m & cnt) == 4 and eligible(t, g, s, m, seqm):
            cells |= m & ~cnt
    return cells


cdef int cell_gain(const Tables* t, const Game* g, int s, u128 chips, u128 others, int cell) noexcept nogil:
    """How many sequences side ``s`` would declare with a chip on the empty ``cell``
    when its chips are ``chips`` and the other sides' are ``others`` (C-26: the most
    windows through the cell that fill and may join its sequences together, C-25
    with the reuse limit); ``g`` gives only the sequences already made."""
    cdef u128 cnt = chips | t.corners | bit(cell), m
    cdef uint8_t cand[MAX_CAND]
    cdef uint8_t seqs[N_WINDOWS + MAX_CAND]
    cdef int i, wi, n = 0
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        m = t.window_mask[wi]
        if (m & cnt) == m and (m & others) == 0 and n < MAX_CAND:
            cand[n] = wi
            n += 1
    if n == 0:
        return 0
    return max_compatible(t, seqs, side_sequences(g, s, seqs), cand, n, 0)


cdef u128 gain_cells(const Tables* t, const Game* g, int s, u128 chips, u128 others, u128 cells,
                     int need) noexcept nogil:
    """The cells of ``cells`` where a chip of side ``s`` declares ``need`` or more
    sequences at once (cell_gain): where a side that needs two or more wins with one
    chip, two of its fours crossing (or, with overlap_max_shared above 1, a line of
    six with a gap)."""
    cdef u128 out = 0
    cdef int cell
    while cells:
        cell = ctz128(cells)
        cells &= cells - 1
        if cell_gain(t, g, s, chips, others, cell) >= need:
            out |= bit(cell)
    return out


cdef int win_threat_cells(const Ctx* ctx, const Game* g, int me, int viewer) noexcept nogil:
    """Distinct empty cells where some opponent of ``me`` would win with its next chip
    (a sequence that is its last, two at once where it needs two, the heart's last
    cell) with a card that ``viewer`` cannot rule out."""
    cdef const Tables* t = ctx.t
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 others, fours, miss, near = 0, cells = 0, hm
    cdef int left[MAX_CODES]
    cdef int wild_left, o, c, cell, need
    for o in range(t.sides):
        if o == me:
            continue
        need = t.seq_to_win - side_total(t, g, o)
        others = all_chips & ~g.chips[o]
        fours = four_cells(t, g, o)
        if need <= 1:
            near |= fours
        elif fours and may_gain(g, o, need):
            near |= gain_cells(t, g, o, g.chips[o], others, fours, need)
        if t.heart and need <= 2:
            hm = t.heart_mask
            if (hm & others) == 0 and popcount128(g.chips[o] & hm) == 3:
                near |= hm & ~g.chips[o]
    if near == 0:
        return 0  # no opponent one chip from the win: no unseen card to count
    unseen_counts(ctx, g, viewer, left, &wild_left)
    while near:
        cell = ctz128(near)
        near &= near - 1
        c = ctx.cell_card[cell]
        if wild_left > 0 or (c < MAX_CODES and left[c] > 0):
            cells |= bit(cell)
    return popcount128(cells)


cdef double hold_gain(const Ctx* ctx, const Game* g, int s, int cell) noexcept nogil:
    """What a chip of side ``s`` on the empty ``cell`` would add to the evaluation
    (its features, in score points), read from the windows through the cell only:
    its own open windows move up one fill (a fifth chip makes the side "ready"),
    and an opponent's open window through it is broken."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef u128 all_chips = g.chips[0] | g.chips[1] | g.chips[2]
    cdef u128 cnt = g.chips[s] | t.corners
    cdef u128 others = all_chips & ~g.chips[s]
    cdef u128 seqm, m
    cdef int i, wi, k, o
    cdef bint wins = side_total(t, g, s) + 1 >= t.seq_to_win
    cdef double gain = 0.0
    if g.tally.on:
        return hold_gain_tally(ctx, g, s, cell, wins)
    seqm = seq_cells(t, g, s)
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        m = t.window_mask[wi]
        if (m & others) == 0:
            if not eligible(t, g, s, m, seqm):
                continue
            gain = window_gain(w, 1, popcount128(m & cnt), wins, gain)
        elif (m & g.chips[s]) == 0:
            o = owner_of(g, t.sides, m & others)
            if (m & others & ~g.chips[o]) or not eligible(t, g, o, m, seq_cells(t, g, o)):
                continue  # two opponents in it, or not one's window
            gain = window_gain(w, 0, popcount128(m & (g.chips[o] | t.corners)), wins, gain)
    return hold_heart(ctx, g, s, cell, gain)


cdef inline double window_gain(const Weights* w, bint own, int k, bint wins, double gain) noexcept nogil:
    """``gain`` plus hold_gain's terms for one window through the cell holding ``k``
    chips (corners counted): one's own window moves up a fill (a fifth chip makes the
    side "ready"), an opponent's is broken; added one by one, in one order, so that
    both ways of reading the windows give the same sum to the last bit."""
    if not own:
        gain += w.open[k]
        if k == 4:
            gain += w.threat
    elif k == 4:
        gain += w.ready + (w.win_ready if wins else 0.0)
    else:
        gain += w.open[k + 1] - w.open[k]
        if k == 3:
            gain += w.threat + (w.win_threat if wins else 0.0)
    return gain


cdef double hold_gain_tally(const Ctx* ctx, const Game* g, int s, int cell, bint wins) noexcept nogil:
    """hold_gain read from the game's window tally: the same windows in the same order
    and the same additions (so the same value to the last bit), without counting a
    window's chips or its overlap with the sequences; the leaf evaluation of a draft
    search calls it for every known hand card of every seat."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef int i, wi, k = 0, o
    cdef double gain = 0.0
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        o = tally_owner(t, g, s, wi, &k)
        if o < 0:
            continue  # two sides in it, or not its owner's window
        gain = window_gain(w, o == s, k, wins, gain)
    return hold_heart(ctx, g, s, cell, gain)


cdef inline double hold_heart(const Ctx* ctx, const Game* g, int s, int cell, double gain) noexcept nogil:
    """hold_gain's last term: the heart (D-3), when the cell is one of its four."""
    cdef const Tables* t = ctx.t
    cdef const Weights* w = &ctx.w
    cdef u128 hm, others
    cdef int hf
    if t.heart and (bit(cell) & t.heart_mask):
        hm = t.heart_mask
        others = (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[s]
        if (hm & others) == 0:
            hf = popcount128(g.chips[s] & hm)
            if hf == 3:
                gain += w.ready + (w.win_ready if side_total(t, g, s) + 2 >= t.seq_to_win else 0.0)
            else:
                gain += 2 * (w.open[hf + 2] - w.open[hf + 1])
    return gain


cdef double hold_value(const Ctx* ctx, const Game* g, int seat, int card) noexcept nogil:
    """Worth of ``seat`` holding ``card`` (in hand already) for a later turn, in score
    points: ``w_pick`` times the best gain of a cell it can still fill, the second best
    when the hand holds two of it; a dead card is worth nothing, and jacks are valued
    by the evaluation itself (w_jack_in_hand, w_remove_in_hand)."""
    cdef const Tables* t = ctx.t
    cdef u128 cells
    cdef int i, cell, copies = 0
    cdef double v, best = 0.0, second = 0.0
    if card < 0 or card >= t.n_codes or t.card_kind[card] != CARD_NORMAL:
        return 0.0
    for i in range(g.hand_n[seat]):
        copies += g.hand[seat][i] == card
    cells = t.card_cells[card] & g.empty
    while cells:
        cell = ctz128(cells)
        cells &= cells - 1
        v = hold_gain(ctx, g, t.seat_side[seat], cell)
        if v > best:
            best, second = v, best
        elif v > second:
            second = v
    return ctx.w.pick * (second if copies >= 2 else best)


cdef double hand_card_term(const Ctx* ctx, const Game* g, int card) noexcept nogil:
    """The evaluation's own term for one card in a hand (see side_features): jacks, dead cards."""
    cdef const Tables* t = ctx.t
    if card < 0 or card >= t.n_codes:
        return 0.0
    if t.card_kind[card] == CARD_WILD:
        return ctx.feat_w[F_WILD]
    if t.card_kind[card] == CARD_REMOVE:
        return ctx.feat_w[F_REMOVE]
    if (t.card_cells[card] & g.empty) == 0:
        return ctx.feat_w[F_DEAD]
    return 0.0


cdef double rivals_score(const Ctx* ctx, const double* scores, int me) noexcept nogil:
    """The other sides' scores pooled as the evaluation's softmax pools them (a
    log-sum-exp at eval_scale), so that mover minus this is the log-odds of the
    mover's win chance.  With one rival it is that rival's score, exactly; with two
    it also counts the trailing rival, whom a play that only watched the leader
    would let grow or leave unharmed (either rival's win is the mover's loss)."""
    cdef const Tables* t = ctx.t
    cdef double top = -INFINITY, total = 0.0
    cdef int s
    for s in range(t.sides):
        if s != me and scores[s] > top:
            top = scores[s]
    if t.sides <= 2:
        return top
    for s in range(t.sides):
        if s != me:
            total += exp((scores[s] - top) / ctx.w.eval_scale)
    return top + ctx.w.eval_scale * log(total)


# ---------------------------------------------------------------- Python door

_DEFAULT_WEIGHTS = {
    # score_action
    "w_win": 1e6,
    "w_complete": 1e4,
    "w_block": (1.0, 3.0, 12.0, 3000.0),
    "w_block_win": 2e5,
    "w_extend": (1.0, 4.0, 16.0, 64.0, 256.0),
    "w_jack_cost": 40.0,
    "w_remove_cost": 30.0,
    "w_centre": 2.0,
    "w_corner_line": 2.0,
    "w_exchange": 5e5,
    "w_pick": 0.5,
    "w_tactics": 0.0,
    # evaluate (fitted by logistic regression on greedy/heuristic self-play, 2 players)
    "w_open": (0.0, 1.0, 2.3, 6.4, 8.0),
    "w_threat": 24.0,
    "w_win_threat": 5.0,
    "w_double_threat": 0.0,
    "w_win_double": 0.0,
    "w_sequence": 130.0,
    "w_jack_in_hand": 23.0,
    "w_remove_in_hand": 24.0,
    "w_dead_card": 0.0,
    "w_ready": 70.0,
    "w_win_ready": 115.0,
    "w_tempo": 9.0,
    # Dead windows weigh like live ones and hand-fillable cells not at all by
    # default: neither a logistic fit (36% against greedy) nor a CMA-ES search for
    # strength (benchmarks/tune_weights.py: no generation beat these defaults)
    # found a better use for them.  They stay as tunable features.
    "w_dead_open": (0.0, 1.0, 2.3, 6.4, 8.0),
    "w_hand": (0.0, 0.0, 0.0, 0.0, 0.0),
    "eval_scale": 100.0,
}

#: Names of the evaluation features, in the order of position_features().
FEATURE_NAMES = (
    "open0", "open1", "open2", "open3", "open4", "threat", "win_threat",
    "double", "win_double", "sequence", "wild", "remove", "dead", "ready", "win_ready", "tempo",
    "dead_open0", "dead_open1", "dead_open2", "dead_open3", "dead_open4",
    "hand1", "hand2", "hand3", "hand4", "hand5",
)

def default_weights():
    """The default evaluation weights (a fresh dict; see the ``Weights`` struct).

    >>> w = default_weights(); w["w_win"] > w["w_complete"] > w["w_block"][3]
    True
    """
    return dict(_DEFAULT_WEIGHTS)


cdef int fill_weights(Weights* w, object given, object also_known) except -1:
    """Defaults overridden by a dict; unknown keys raise ValueError naming the known
    ones (``also_known``: the keys a caller reads itself, e.g. the Searcher's)."""
    cdef int i
    merged = dict(_DEFAULT_WEIGHTS)
    if given:
        known = list(_DEFAULT_WEIGHTS) + list(also_known)
        unknown = sorted(k for k in given if k not in known)
        if unknown:
            raise ValueError(f"unknown key(s) {', '.join(map(str, unknown))}; known: {', '.join(known)}")
        merged.update((k, v) for k, v in given.items() if k in _DEFAULT_WEIGHTS)
    block = tuple(merged["w_block"])
    extend = tuple(merged["w_extend"])
    opened = tuple(merged["w_open"])
    dead_open = tuple(merged["w_dead_open"])
    hand = tuple(merged["w_hand"])
    if len(block) != 4 or len(extend) != 5 or len(opened) != 5 or len(dead_open) != 5 or len(hand) != 5:
        raise ValueError("w_block needs 4 values (opponent fill 1..4), w_extend, w_open and w_dead_open 5 "
                         "(own fill 0..4), w_hand 5 (fill plus hand-fillable cells 1..5)")
    w.win = merged["w_win"]
    w.complete = merged["w_complete"]
    w.block[0] = 0.0
    for i in range(4):
        w.block[i + 1] = block[i]
    w.block_win = merged["w_block_win"]
    for i in range(5):
        w.extend[i] = extend[i]
        w.open[i] = opened[i]
        w.dead_open[i] = dead_open[i]
        w.hand[i] = hand[i]
    w.jack_cost = merged["w_jack_cost"]
    w.remove_cost = merged["w_remove_cost"]
    w.centre = merged["w_centre"]
    w.corner_line = merged["w_corner_line"]
    w.exchange = merged["w_exchange"]
    w.pick = merged["w_pick"]
    w.tactics = merged["w_tactics"]
    w.threat = merged["w_threat"]
    w.win_threat = merged["w_win_threat"]
    w.double_threat = merged["w_double_threat"]
    w.win_double = merged["w_win_double"]
    w.sequence = merged["w_sequence"]
    w.dead_card = merged["w_dead_card"]
    w.jack_in_hand = merged["w_jack_in_hand"]
    w.remove_in_hand = merged["w_remove_in_hand"]
    w.ready = merged["w_ready"]
    w.win_ready = merged["w_win_ready"]
    w.tempo = merged["w_tempo"]
    w.eval_scale = merged["eval_scale"]
    if not w.eval_scale > 0:
        raise ValueError("eval_scale must be positive")
    return 0


cdef int load_ctx(Ctx* ctx, CoreGame game, object weights) except -1:
    cdef Weights w
    fill_weights(&w, weights, ())
    make_ctx(ctx, &game.rules.t, &w)
    return 0


def score_action(CoreGame game, int action, weights=None):
    """One-ply score of ``action`` for the side to move (see the module docstring).

    Args:
        game: the position (an observation is fine: only the mover's cards are read).
        action: a core action number, legal here.
        weights: overrides of :func:`default_weights`.
    Returns:
        The score; at least ``w_win`` for a winning play.
    """
    cdef Ctx ctx
    load_ctx(&ctx, game, weights)
    return action_score(&ctx, &game.g, action)


def score_actions(CoreGame game, weights=None):
    """``[(action, score), ...]`` for every legal action, in P-13 order."""
    cdef Ctx ctx
    cdef int32_t buf[MAX_MOVES]
    cdef int n, i
    load_ctx(&ctx, game, weights)
    n = gen_actions(&game.rules.t, &game.g, buf)
    return [(buf[i], action_score(&ctx, &game.g, buf[i])) for i in range(n)]


def evaluate_position(CoreGame game, int side, weights=None):
    """Estimated win chance of ``side`` in (0, 1), from a static evaluation.

    A finished game gives 1, 0, or 1/sides for a draw.  The chances of all sides
    sum to 1 (a softmax of the scores over ``eval_scale``).
    """
    cdef Ctx ctx
    if not 0 <= side < game.rules.t.sides:
        raise ValueError(f"side must be 0..{game.rules.t.sides - 1}")
    load_ctx(&ctx, game, weights)
    return side_value(&ctx, &game.g, side)


def evaluate_scores(CoreGame game, weights=None):
    """The raw per-side scores behind :func:`evaluate_position`: what a test of the
    evaluation's premises reads before it looks at a choice."""
    cdef Ctx ctx
    cdef double scores[MAX_SIDES]
    load_ctx(&ctx, game, weights)
    side_scores(&ctx, &game.g, scores)
    return [scores[s] for s in range(game.rules.t.sides)]


def position_features(CoreGame game):
    """The evaluation features of every side (``FEATURE_NAMES`` order): the score
    of a side is their dot product with the evaluation weights."""
    cdef Ctx ctx
    cdef int left[MAX_CODES]
    cdef double f[N_FEATURES]
    cdef int wild_left, s, k
    load_ctx(&ctx, game, None)
    ctx.split = 1
    unseen_counts(&ctx, &game.g, -1, left, &wild_left)
    out = []
    for s in range(game.rules.t.sides):
        side_features(&ctx, &game.g, s, left, wild_left, f)
        out.append([f[k] for k in range(N_FEATURES)])
    return out
