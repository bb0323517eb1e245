# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of seqsolve: classic Sequence on 128-bit bitboards.

Cells are bits 0..99 of a 128-bit word.  Every rule that runs per ply
(move generation, placement, the incremental sequence scan through the placed
cell, draws and reshuffles, termination) is a ``noexcept nogil`` C function on
the fixed-size ``Game`` struct, so playouts and tree search never touch Python.
The Python classes at the bottom are the narrow door the package uses.
"""

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from numpy.random import PCG64

# ---------------------------------------------------------------- bit helpers

cdef inline u128 mask_from_int(object value):
    return (<u128>(<uint64_t>(value & 0xFFFFFFFFFFFFFFFF))) | ((<u128>(<uint64_t>(value >> 64))) << 64)


cdef inline object mask_to_int(u128 value):
    return int(<uint64_t>value) | (int(<uint64_t>(value >> 64)) << 64)


# ---------------------------------------------------------------- randomness

cdef inline void shuffle(uint8_t* cards, int n, bitgen_t* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


cdef inline uint32_t quick_below(Stream* p, uint32_t n) noexcept nogil:
    """rand_below on the inline stream."""
    cdef uint64_t m = <uint64_t>pcg_next32(&p.pcg) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = <uint64_t>pcg_next32(&p.pcg) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void quick_shuffle(uint8_t* cards, int n, Stream* p) noexcept nogil:
    """shuffle() on the inline stream."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = quick_below(p, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


cdef bint quick_rng_load(Stream* p, object bit_generator) except -1:
    """Take over a numpy PCG64's stream (False, nothing taken, for any other kind)."""
    if type(bit_generator) is not PCG64:
        return 0
    st = bit_generator.state
    p.pcg.state = mask_from_int(st["state"]["state"])
    p.pcg.inc = mask_from_int(st["state"]["inc"])
    p.pcg.has_uint32 = st["has_uint32"]
    p.pcg.uinteger = st["uinteger"]
    stream_bind(p)
    return 1


cdef void quick_rng_store(Stream* p, object bit_generator) except *:
    """Hand the stream back where quick_rng_load took it, advanced by what was drawn."""
    st = bit_generator.state
    st["state"] = {"state": mask_to_int(p.pcg.state), "inc": mask_to_int(p.pcg.inc)}
    st["has_uint32"] = p.pcg.has_uint32
    st["uinteger"] = p.pcg.uinteger
    bit_generator.state = st


# ---------------------------------------------------------------- actions

# ---------------------------------------------------------------- cards

cdef inline void hand_remove(Game* g, int seat, int card) noexcept nogil:
    """Take the first copy of ``card`` out of the hand (the last card fills its slot).
    The whole hand is looked at, last to first, so the loop has no exit to mispredict:
    where the card sits is random in a playout."""
    cdef int i, n = g.hand_n[seat], at = -1
    cdef uint8_t* hand = g.hand[seat]
    for i in range(n - 1, -1, -1):
        at = i if hand[i] == card else at
    if at >= 0:
        hand[at] = hand[n - 1]
        g.hand_n[seat] = n - 1


cdef inline void hand_add(Game* g, int seat, int card) noexcept nogil:
    if g.hand_n[seat] < MAX_HAND:
        g.hand[seat][g.hand_n[seat]] = card
        g.hand_n[seat] += 1


cdef inline void discard(Game* g, int seat, int card) noexcept nogil:
    g.disc_card[g.disc_n] = card
    g.disc_seat[g.disc_n] = seat
    g.disc_take[g.disc_n] = UNKNOWN_CARD  # until take_card records what followed it
    g.disc_n += 1
    if g.tally.on and card < MAX_CODES:
        g.tally.gone[card] += 1


cdef inline int pop_draw(const Tables* t, Game* g, bitgen_t* rng) noexcept nogil:
    """Top card of the draw pile, reshuffling every discard pile first if it is empty (C-29)."""
    if g.draw_n > 0:  # inline: every ply draws, a reshuffle comes once in many
        g.draw_n -= 1
        return g.draw[g.draw_n]
    return reshuffle_draw(t, g, rng)


cdef int reshuffle_draw(const Tables* t, Game* g, bitgen_t* rng) noexcept nogil:
    """pop_draw on an empty draw pile."""
    cdef int i, seat, n = 0
    if g.draw_n == 0:
        if t.exhaustion != EXH_RESHUFFLE or g.disc_n == 0:
            return -1
        # gathered seat 0's pile first, each bottom first (RULES-NOTES), so that a game and
        # the same game read back from its position file shuffle alike
        for seat in range(t.players):
            for i in range(g.disc_n):
                if g.disc_seat[i] == seat:
                    g.draw[n] = g.disc_card[i]
                    n += 1
        g.draw_n = n
        g.disc_n = 0
        memset(g.pos_take_n, 0, sizeof(g.pos_take_n))  # as the takes the discards carried
        g.pos_disc_n = 0
        if g.tally.on:
            memset(g.tally.gone, 0, sizeof(g.tally.gone))
        if rng != NULL:
            shuffle(g.draw, g.draw_n, rng)
        else:
            # an observation never invents a hidden order: the new pile is unknown (§1.14)
            memset(g.draw, UNKNOWN_CARD, g.draw_n)
        g.draw_known = 0
    g.draw_n -= 1
    return g.draw[g.draw_n]


cdef void end_by_count(const Tables* t, Game* g) noexcept nogil:
    """D-4: the side with the most sequences wins; a tie is a draw."""
    cdef int s, best = -1, best_n = -1, tie = 0, n
    for s in range(t.sides):
        n = side_total(t, g, s)
        if n > best_n:
            best, best_n, tie = s, n, 0
        elif n == best_n:
            tie = 1
    g.result = RESULT_DRAW if tie else best
    g.termination = TERM_DRAFT_END


cdef inline int take_card(const Tables* t, Game* g, int seat, int pick, bitgen_t* rng) noexcept nogil:
    """The draw step (C-17, C-29, D-1).  Returns 1 when it ended the game.

    Under draft_end the game ends the moment a take leaves the draft empty (D-4),
    before any further action, even the play after an exchange; an empty draft met
    at a take (only in a hand-built position) ends it too."""
    cdef int i, card
    if t.draft_mode:
        if g.draft_n == 0 and t.exhaustion == EXH_DRAFT_END:
            end_by_count(t, g)
            return 1
        if g.draft_n > 0:
            for i in range(g.draft_n):
                if g.draft[i] == pick:
                    break
            else:
                i = 0  # no pick named: the first draft card (only reachable through bad input)
            hand_add(g, seat, g.draft[i])
            if g.disc_n > 0:  # the take follows this seat's discard: both are public (D-1, D-5)
                g.disc_take[g.disc_n - 1] = g.draft[i]
            g.draft_n -= 1
            g.draft[i] = g.draft[g.draft_n]
        # refilling the draft is the draw from the draw pile
        if g.draw_n == 0 and t.exhaustion == EXH_DRAW_GAME:
            g.result = RESULT_DRAW
            g.termination = TERM_DECK_EXHAUSTED
            return 1
        card = pop_draw(t, g, rng)
        if card >= 0 and g.draft_n < MAX_DRAFT:
            g.draft[g.draft_n] = card
            g.draft_n += 1
        if g.draft_n == 0 and t.exhaustion == EXH_DRAFT_END:
            end_by_count(t, g)
            return 1
        return 0
    return draw_blind(t, g, seat, rng)


cdef inline int draw_blind(const Tables* t, Game* g, int seat, bitgen_t* rng) noexcept nogil:
    """A card face down from the draw pile into ``seat``'s hand (C-29): an empty pile ends
    the game under draw_game and draft_end, is the reshuffled discards under reshuffle
    (none left: no card).  Returns 1 when it ended the game."""
    cdef int card
    if g.draw_n == 0:
        if t.exhaustion == EXH_DRAW_GAME:
            g.result = RESULT_DRAW
            g.termination = TERM_DECK_EXHAUSTED
            return 1
        if t.exhaustion == EXH_DRAFT_END:
            end_by_count(t, g)
            return 1
    card = pop_draw(t, g, rng)
    if card >= 0:
        hand_add(g, seat, card)
    return 0


cdef int fill_first_hand(const Tables* t, Game* g, int seat, bitgen_t* rng) noexcept nogil:
    """K-3: at the end of the game's first turn the seat that played it draws face down
    from the draw pile until its hand is full (hand_size, with seat 0's bonus_cards and
    the later seats' hand_bonus); in the draft variant too, after its take from the draft.
    Returns 1 when a draw ended the game (only a hand-built position with a short pile).
    In the draft under draft_end an empty pile leaves the hand short: that game ends
    when the draft is empty (D-4), not the pile."""
    cdef int full = t.hand_size + (t.bonus_cards if seat == 0 else 0)
    cdef int before
    if seat != t.first_seat:
        full += t.hand_bonus
    while g.hand_n[seat] < full:
        before = g.hand_n[seat]
        if t.draft_mode and g.draw_n == 0 and t.exhaustion == EXH_DRAFT_END:
            break
        if draw_blind(t, g, seat, rng):
            return 1
        if g.hand_n[seat] == before:  # no card left anywhere
            break
    return 0


cdef void deal(const Tables* t, Game* g, bitgen_t* rng) noexcept nogil:
    """A new game: empty board, shuffled deck, hands dealt one card at a time (C-12, C-13)."""
    deal_inline(t, g, rng, NULL)


cdef inline void deal_inline(const Tables* t, Game* g, bitgen_t* rng, Stream* own) noexcept nogil:
    """deal()'s body; ``own``, when not NULL, is the stream behind ``rng``, drawn inline
    for the shuffle (random_games)."""
    cdef int i, s
    memset(g, 0, sizeof(Game))
    g.empty = t.playable
    g.result = RESULT_NONE
    g.draw_known = 1
    g.to_move = t.first_seat
    g.ex_left = t.ex_limit if t.ex_limit >= 0 else 32767
    for s in range(t.sides):  # K-5: the later sides' chips stand on the board before play
        g.chips[s] |= t.head_start[s]
        g.empty &= ~t.head_start[s]
    for i in range(t.deck_n):
        g.draw[i] = t.deck[i]
    g.draw_n = t.deck_n
    if own != NULL:
        quick_shuffle(g.draw, g.draw_n, own)
    else:
        shuffle(g.draw, g.draw_n, rng)
    for i in range(t.hand_size):
        for s in range(t.players):
            if s == t.first_seat and i >= t.hand_size - t.first_turn_short:
                continue  # K-3: the first seat is skipped in the last rounds
            g.draw_n -= 1
            hand_add(g, s, g.draw[g.draw_n])
    for i in range(t.bonus_cards):  # analysis option bonus_cards: seat 0's extra cards
        if g.draw_n == 0:
            break
        g.draw_n -= 1
        hand_add(g, 0, g.draw[g.draw_n])
    for i in range(t.hand_bonus):  # K-1: the later seats' extra cards, one round at a time
        for s in range(1, t.players):
            if g.draw_n == 0:
                break
            g.draw_n -= 1
            hand_add(g, (t.first_seat + s) % t.players, g.draw[g.draw_n])
    if t.draft_mode:
        for i in range(t.draft_size):
            if g.draw_n == 0:
                break
            g.draw_n -= 1
            g.draft[g.draft_n] = g.draw[g.draw_n]
            g.draft_n += 1


cdef int public_hand(const Game* g, int seat, uint8_t* out) noexcept nogil:
    """The cards everyone knows ``seat`` holds, into ``out`` (at most its hand size),
    in code order; returns how many.

    In the draft variant each take is public (D-1, D-5): a card a seat took and has
    not discarded since is still in its hand.  When it discards a card it took, the
    hand afterwards is the same whichever copy went, so the taken one leaves the
    list.  A game read from a position file starts from the takes the file lists
    (pos_take).  Takes before a reshuffle are not recorded, so the list may be
    shorter than what a watcher would recall, never wrong."""
    cdef int i, j, n = 0, c
    for i in range(g.pos_take_n[seat]):
        out[n] = g.pos_take[seat][i]
        n += 1
    for i in range(g.pos_disc_n, g.disc_n):
        if g.disc_seat[i] != seat:
            continue
        c = g.disc_card[i]
        for j in range(n):
            if out[j] == c:
                n -= 1
                out[j] = out[n]
                break
        c = g.disc_take[i]
        if c != UNKNOWN_CARD and n < MAX_HAND:
            out[n] = <uint8_t>c
            n += 1
    for i in range(1, n):  # in code order: the same list whatever order the takes were seen in
        c = out[i]
        j = i - 1
        while j >= 0 and out[j] > c:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = <uint8_t>c
    return n if n <= g.hand_n[seat] else g.hand_n[seat]


# ---------------------------------------------------------------- sequences

ctypedef struct DeclSearch:
    int n_cand
    uint8_t cand[MAX_THROUGH]
    uint8_t seqs[N_WINDOWS + MAX_THROUGH]
    int base_n
    uint8_t cur[MAX_THROUGH]
    int cur_n
    int best_n
    int collect_all
    int n_found                  # maximum subsets met so far (all of them when collect_all)
    int capacity                 # rows of ``found``; subsets met beyond it are counted only
    uint8_t* found               # capacity rows of MAX_THROUGH windows, owned by the caller


cdef void search_declarations(const Tables* t, DeclSearch* s, int i) noexcept nogil:
    """Depth-first over candidate subsets, including before excluding, so the first
    maximum subset met is the canonical (lexicographically smallest) one (C-26)."""
    cdef int k, remaining = s.n_cand - i
    if s.cur_n + remaining < s.best_n or (not s.collect_all and s.cur_n + remaining == s.best_n and s.n_found):
        return
    if i == s.n_cand:
        if s.cur_n > s.best_n:
            s.best_n = s.cur_n
            s.n_found = 0
        if s.n_found < s.capacity:
            for k in range(s.cur_n):
                s.found[s.n_found * MAX_THROUGH + k] = s.cur[k]
        s.n_found += 1
        return
    if overlap_ok(t, t.window_mask[s.cand[i]], s.seqs, s.base_n + s.cur_n):
        s.seqs[s.base_n + s.cur_n] = s.cand[i]
        s.cur[s.cur_n] = s.cand[i]
        s.cur_n += 1
        search_declarations(t, s, i + 1)
        s.cur_n -= 1
    search_declarations(t, s, i + 1)


cdef int prepare_declarations(const Tables* t, const Game* g, int side, int cell, DeclSearch* s) noexcept nogil:
    """Candidates C of C-26 for a chip of ``side`` just placed on ``cell``; returns |C|."""
    cdef u128 counting = g.chips[side] | t.corners
    cdef int i, k, w
    s.base_n = 0
    for k in range(g.seq_n):
        if g.seq_side[k] == side:
            s.seqs[s.base_n] = g.seq_window[k]
            s.base_n += 1
    s.n_cand = 0
    for i in range(t.through_n[cell]):
        w = t.through[cell][i]
        if (t.window_mask[w] & counting) == t.window_mask[w] and overlap_ok(t, t.window_mask[w], s.seqs, s.base_n):
            s.cand[s.n_cand] = w
            s.n_cand += 1
    s.cur_n = 0
    s.best_n = 0
    s.n_found = 0
    return s.n_cand


cdef inline void add_sequence(const Tables* t, Game* g, int side, int w) noexcept nogil:
    g.seq_window[g.seq_n] = w
    g.seq_side[g.seq_n] = side
    g.seq_n += 1
    g.seq_count[side] += 1
    g.locked |= t.window_mask[w] & ~t.corners


cdef bint declare_sequences(const Tables* t, Game* g, int side, int cell,
                            const uint8_t* declare, int declare_n) noexcept nogil:
    """Sequence check after a placement (C-16, C-26, C-28); True when the side has won."""
    cdef DeclSearch s
    cdef uint8_t first[MAX_THROUGH]  # only the canonical declaration is kept
    cdef u128 counting = g.chips[side] | t.corners
    cdef int i, w, full = 0
    if t.line_n[cell]:  # cheaper than the tally's fills of the 20 windows through the cell
        for i in range(t.line_n[cell]):  # a full window needs a line of 5 counting cells
            if popcount128(t.line[cell][i] & counting) >= 5:
                break
        else:
            return side_total(t, g, side) >= t.seq_to_win
    for i in range(t.through_n[cell]):
        w = t.through[cell][i]
        if g.tally.on:
            full = ((g.tally.fill[w] >> (3 * side)) & 7) + t.corner_n[w] == 5
        else:
            full = (t.window_mask[w] & counting) == t.window_mask[w]
        if full:
            break
    if full:
        if declare_n >= 0:
            for i in range(declare_n):
                add_sequence(t, g, side, declare[i])
        elif prepare_declarations(t, g, side, cell, &s) == 1:
            add_sequence(t, g, side, s.cand[0])
        elif s.n_cand > 1:
            s.collect_all = 0
            s.found = first
            s.capacity = 1
            search_declarations(t, &s, 0)
            for i in range(s.best_n):
                add_sequence(t, g, side, first[i])
    return side_total(t, g, side) >= t.seq_to_win


# ---------------------------------------------------------------- window tally

cdef inline void tally_part(const Tables* t, Tally* ty, int wi, uint16_t fill, int s, int sign) noexcept nogil:
    """Add (``sign`` 1) or take away (-1) window ``wi``'s part, at ``fill``, of side
    ``s``'s open counts: the condition of side_features' window loop (_eval)."""
    cdef uint64_t b = (<uint64_t>1) << (wi & 63)
    cdef int k = open_fill(t, ty, wi, fill, s)
    if k < 0:
        return
    ty.open[s][k] += sign
    b &= -(<uint64_t>(k == 4))  # without a branch: which fill a window has is anyone's guess
    if sign > 0:
        ty.threat[s][wi >> 6] |= b
    else:
        ty.threat[s][wi >> 6] &= ~b


cdef inline void tally_move(const Tables* t, Game* g, int cell, int side, int delta) noexcept nogil:
    """A chip of ``side`` comes onto (``delta`` 1) or off (-1) ``cell``: only the
    windows through the cell change.  Their fills alone when the tally is fill_only:
    the open counts were most of a greedy game's apply_action (issue 37)."""
    cdef Tally* ty = &g.tally
    cdef int i, wi, s
    cdef uint16_t old, new, own = <uint16_t>(7 << (3 * side))
    cdef uint16_t step = <uint16_t>(delta * (1 << (3 * side)))
    if ty.fill_only:
        for i in range(t.through_n[cell]):
            wi = t.through[cell][i]
            ty.fill[wi] = <uint16_t>(ty.fill[wi] + step)
        return
    for i in range(t.through_n[cell]):
        wi = t.through[cell][i]
        old = ty.fill[wi]
        new = <uint16_t>(old + step)
        ty.fill[wi] = new
        if (old & ~own) and (old & own) and (new & own):
            continue  # other sides' chips and this side's, before and after: nobody's window
        for s in range(t.sides):
            tally_part(t, ty, wi, old, s, -1)
            tally_part(t, ty, wi, new, s, 1)


cdef void tally_bar(const Tables* t, Game* g, int s, int seq) noexcept nogil:
    """Side ``s`` has completed the sequence ``seq``: the windows that may no longer
    become its sequences (C-25) leave its counts.  Without a reuse limit those are the
    windows sharing more than max_shared cells with ``seq``, so only the windows
    through its cells are looked at; with one, a window crossing an earlier sequence
    that ``seq`` crossed may be barred too, so every window is looked at (a sequence
    is rare: the cost does not matter).  A fill_only tally keeps the bars alone."""
    cdef Tally* ty = &g.tally
    cdef u128 shared = t.window_mask[seq] & t.share_mask, cells = t.window_mask[seq]
    cdef uint64_t b
    cdef uint8_t seqs[N_WINDOWS]
    cdef int i, cell, wi, n
    if t.reuse_limit >= 0:
        n = side_sequences(g, s, seqs)
        for wi in range(N_WINDOWS):
            b = (<uint64_t>1) << (wi & 63)
            if not (ty.barred[s][wi >> 6] & b) and not overlap_ok(t, t.window_mask[wi], seqs, n):
                if not ty.fill_only:
                    tally_part(t, ty, wi, ty.fill[wi], s, -1)
                ty.barred[s][wi >> 6] |= b
        return
    while cells:
        cell = ctz128(cells)
        cells &= cells - 1
        for i in range(t.through_n[cell]):
            wi = t.through[cell][i]
            b = (<uint64_t>1) << (wi & 63)
            if not (ty.barred[s][wi >> 6] & b) and popcount128(t.window_mask[wi] & shared) > t.max_shared:
                if not ty.fill_only:
                    tally_part(t, ty, wi, ty.fill[wi], s, -1)
                ty.barred[s][wi >> 6] |= b


cdef void tally_side(const Tables* t, Game* g, int s) noexcept nogil:
    """Side ``s``'s barred windows and open counts from scratch (tally_start)."""
    cdef Tally* ty = &g.tally
    cdef uint8_t seqs[N_WINDOWS]
    cdef int wi, k, n = side_sequences(g, s, seqs)
    for k in range(5):
        ty.open[s][k] = 0
    for k in range(3):
        ty.threat[s][k] = 0
        ty.barred[s][k] = 0
    for wi in range(N_WINDOWS):
        if not overlap_ok(t, t.window_mask[wi], seqs, n):
            ty.barred[s][wi >> 6] |= (<uint64_t>1) << (wi & 63)
        tally_part(t, ty, wi, ty.fill[wi], s, 1)


cdef void tally_start(const Tables* t, Game* g) noexcept nogil:
    """Count every window of ``g`` and keep the counts up to date from now on
    (apply_action); a copy of ``g`` keeps them too."""
    cdef int s, wi
    memset(&g.tally, 0, sizeof(Tally))
    for s in range(t.sides):
        for wi in range(N_WINDOWS):
            g.tally.fill[wi] += popcount128(t.window_mask[wi] & g.chips[s]) << (3 * s)
    for s in range(t.sides):
        tally_side(t, g, s)
    for s in range(g.disc_n):
        if g.disc_card[s] < MAX_CODES:
            g.tally.gone[g.disc_card[s]] += 1
    g.tally.on = 1


# ---------------------------------------------------------------- turns

cdef inline void end_turn(const Tables* t, Game* g, bint moved) noexcept nogil:
    """C-18 and the termination checks of C-31."""
    g.turn += 1
    g.stall = 0 if moved else g.stall + 1
    g.to_move += 1  # the next seat, without a division
    if g.to_move == t.players:
        g.to_move = 0
    g.ex_left = t.ex_limit if t.ex_limit >= 0 else 32767
    if g.empty == 0 and ((g.chips[0] | g.chips[1] | g.chips[2]) & ~g.locked) == 0:
        g.result = RESULT_DRAW
        g.termination = TERM_FROZEN
    elif t.stall_limit > 0 and g.stall >= t.stall_limit:
        g.result = RESULT_DRAW
        g.termination = TERM_STALL
    elif t.max_turns > 0 and g.turn >= t.max_turns:
        g.result = RESULT_DRAW
        g.termination = TERM_TURN_CAP


cdef void apply_action(const Tables* t, Game* g, int32_t action, bitgen_t* rng,
                       const uint8_t* declare, int declare_n) noexcept nogil:
    """Play one action, assumed legal (the Python layer checks user input).

    ``declare_n < 0`` means the canonical declaration (C-26)."""
    apply_inline(t, g, action, rng, declare, declare_n)


cdef inline void apply_inline(const Tables* t, Game* g, int32_t action, bitgen_t* rng,
                              const uint8_t* declare, int declare_n) noexcept nogil:
    """apply_action's body, inlined into playout."""
    cdef int seat = g.to_move
    cdef int side = t.seat_side[seat]
    cdef int kind = act_kind(action)
    cdef int card = act_card(action)
    cdef int cell = act_cell(action)
    cdef int pick = act_pick(action)
    cdef int s, seqs
    cdef bint won
    cdef u128 b
    if kind != ACT_EXCHANGE:  # the play that ends the turn, seen by all
        g.last_play[seat] = action + 1
        g.last_ex[seat] = (t.ex_limit if t.ex_limit >= 0 else 32767) - g.ex_left
    if kind == ACT_PASS:
        if t.first_turn_short and g.turn == 0 and fill_first_hand(t, g, seat, rng):
            return
        end_turn(t, g, 0)
        return
    hand_remove(g, seat, card)
    discard(g, seat, card)
    if kind == ACT_EXCHANGE:
        g.ex_left -= 1
        take_card(t, g, seat, pick, rng)
        return
    b = bit(cell)
    if kind == ACT_REMOVE:
        for s in range(t.sides):
            if g.tally.on and g.chips[s] & b:
                tally_move(t, g, cell, s, -1)
            g.chips[s] &= ~b
        g.empty |= b
    else:
        g.chips[side] |= b
        g.empty &= ~b
        seqs = g.seq_n
        if g.tally.on:
            tally_move(t, g, cell, side, 1)
        won = declare_sequences(t, g, side, cell, declare, declare_n)
        if g.tally.on:
            while seqs < g.seq_n:
                tally_bar(t, g, side, g.seq_window[seqs])
                seqs += 1
        if won:
            g.result = side
            g.termination = TERM_WIN
            return
    if take_card(t, g, seat, pick, rng):
        return
    if t.first_turn_short and g.turn == 0 and fill_first_hand(t, g, seat, rng):
        return
    end_turn(t, g, 1)


cdef inline uint64_t hand_codes(const Game* g, int seat, int* unknown) noexcept nogil:
    """The distinct known cards of a hand as a bit set of card codes."""
    cdef uint64_t have = 0
    cdef int i, c, unseen = 0
    for i in range(g.hand_n[seat]):  # without branches: the loop runs every ply of a playout
        c = g.hand[seat][i]
        unseen |= c == UNKNOWN_CARD
        have |= (<uint64_t>(c < 64)) << (c & 63)
    unknown[0] = unseen
    return have


cdef inline int draft_picks(const Tables* t, const Game* g, int* picks) noexcept nogil:
    """Distinct draft cards in code order, or the single 'no pick' (-1)."""
    cdef uint64_t seen = 0
    cdef int i, n = 0
    if not t.draft_mode or g.draft_n == 0:
        picks[0] = -1
        return 1
    for i in range(g.draft_n):
        if g.draft[i] != UNKNOWN_CARD:  # a draft card turned up in an observation is unknown
            seen |= (<uint64_t>1) << g.draft[i]
    if not seen:
        picks[0] = -1
        return 1
    while seen:
        picks[n] = ctz64(seen)
        n += 1
        seen &= seen - 1
    return n


cdef inline u128 card_targets(const Tables* t, const Game* g, int card, u128 removable) noexcept nogil:
    cdef int kind = t.card_kind[card]
    if kind == CARD_NORMAL:
        return t.card_cells[card] & g.empty
    if kind == CARD_WILD:
        return g.empty
    return removable


cdef inline u128 removable_chips(const Tables* t, const Game* g, int side) noexcept nogil:
    return (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[side] & ~g.locked


cdef u128 corner_finishers(const Tables* t, const Game* g, int side) noexcept nogil:
    """Empty cells that would fill the last cell of a line through a corner for ``side``."""
    cdef u128 miss, cells = 0
    cdef int k
    for k in range(12):
        miss = t.corner_window[k] & ~(g.chips[side] | t.corners)
        if miss and (miss & (miss - 1)) == 0 and (miss & g.empty):
            cells |= miss
    return cells


cdef inline bint card_restricted(const Tables* t, int card, int flags) noexcept nogil:
    if t.card_kind[card] == CARD_WILD:
        return (flags & RESTRICT_TWO_EYED) != 0
    if t.card_kind[card] == CARD_REMOVE:
        return (flags & RESTRICT_ONE_EYED) != 0
    return 0


cdef inline bint normal_play(const Tables* t, const Game* g, uint64_t have) noexcept nogil:
    """Whether a card of ``have`` that is not a jack can be played (K-2: while one can,
    no jack may be played on the game's first turn)."""
    cdef int c
    while have:
        c = ctz64(have)
        have &= have - 1
        if t.card_kind[c] == CARD_NORMAL and (t.card_cells[c] & g.empty):
            return 1
    return 0


cdef int gen_actions(const Tables* t, const Game* g, int32_t* out) noexcept nogil:
    """The legal actions of the side to move in P-13 order: plays by (card, cell,
    pick), then exchanges by card, then pass.  Returns how many were written.

    Tables made by ``CoreRules.restricted`` leave out the actions a bot restriction
    forbids its side (an analysis handicap, not a rule)."""
    cdef int seat = g.to_move, side, unknown, c, cell, kind, i, n = 0, n_picks
    cdef int picks[MAX_DRAFT]
    cdef int flags = 0
    cdef uint64_t have, codes
    cdef u128 removable, targets, forbidden = 0
    if g.result != RESULT_NONE:
        return 0
    side = t.seat_side[seat]
    if t.restrict and side == t.restrict_side:
        flags = t.restrict
        if flags & RESTRICT_CORNER:
            forbidden = corner_finishers(t, g, side)
    have = hand_codes(g, seat, &unknown)
    if not t.first_turn_jacks and g.turn == 0 and normal_play(t, g, have):
        flags |= RESTRICT_TWO_EYED | RESTRICT_ONE_EYED  # K-2
    removable = removable_chips(t, g, side)
    n_picks = draft_picks(t, g, picks)
    codes = have
    while codes:
        c = ctz64(codes)
        codes &= codes - 1
        if flags and card_restricted(t, c, flags):
            continue
        targets = card_targets(t, g, c, removable)
        kind = ACT_REMOVE if t.card_kind[c] == CARD_REMOVE else ACT_PLACE
        if kind == ACT_PLACE:
            targets &= ~forbidden
        while targets:
            cell = ctz128(targets)
            targets &= targets - 1
            for i in range(n_picks):
                out[n] = encode(kind, c, cell, picks[i])
                n += 1
    cdef int n_plays = n
    if g.ex_left > 0 and not (flags & RESTRICT_EXCHANGE):
        codes = have
        while codes:
            c = ctz64(codes)
            codes &= codes - 1
            if t.card_kind[c] == CARD_NORMAL and not (t.card_cells[c] & g.empty):
                for i in range(n_picks):
                    out[n] = encode(ACT_EXCHANGE, c, NO_CELL, picks[i])
                    n += 1
    if (n_plays == 0 and not unknown) or t.vpass:
        out[n] = encode(ACT_PASS, 0, NO_CELL, -1)
        n += 1
    return n


cdef int32_t restricted_random_action(const Tables* t, const Game* g, bitgen_t* rng, bint draw_for_one) noexcept nogil:
    """random_action for a side under a bot restriction: list the actions, pick one."""
    cdef int32_t buf[MAX_MOVES]
    cdef int n = gen_actions(t, g, buf)
    if n == 0:
        return encode(ACT_PASS, 0, NO_CELL, -1)
    if n == 1 and not draw_for_one:
        return buf[0]
    return buf[rand_below(rng, n)]


cdef int32_t random_action(const Tables* t, const Game* g, bitgen_t* rng) noexcept nogil:
    """A uniform choice among the actions gen_actions would list, without listing them
    (one number drawn, even for a single action: the playouts' stream)."""
    return uniform_action(t, g, rng, 1)


cdef int32_t uniform_action(const Tables* t, const Game* g, bitgen_t* rng, bint draw_for_one) noexcept nogil:
    """random_action; without ``draw_for_one`` nothing is drawn when one action is legal,
    as numpy's ``Generator.integers(1)`` draws nothing (the random bot's stream)."""
    return uniform_inline(t, g, rng, draw_for_one)


cdef inline int32_t uniform_inline(const Tables* t, const Game* g, bitgen_t* rng, bint draw_for_one) noexcept nogil:
    """uniform_action's body, inlined into playout (the random playouts' hot loop)."""
    cdef int seat = g.to_move, side, unknown, c, i, n_picks, kind
    cdef int picks[MAX_DRAFT]
    cdef int counts[MAX_CODES]
    cdef uint64_t have, codes, dead = 0
    cdef u128 removable, targets
    cdef int n_plays = 0, n_dead = 0, total, r
    side = t.seat_side[seat]
    if (t.restrict and side == t.restrict_side) or (not t.first_turn_jacks and g.turn == 0):
        return restricted_random_action(t, g, rng, draw_for_one)
    have = hand_codes(g, seat, &unknown)
    removable = removable_chips(t, g, side)
    n_picks = draft_picks(t, g, picks)
    codes = have
    while codes:
        c = ctz64(codes)
        codes &= codes - 1
        targets = (t.play_cells[c] & g.empty) | (removable & t.remove_sel[c])  # card_targets
        counts[c] = popcount128(targets)
        n_plays += counts[c]
        if counts[c] == 0 and t.card_kind[c] == CARD_NORMAL and g.ex_left > 0:
            dead |= (<uint64_t>1) << c
            n_dead += 1
    total = (n_plays + n_dead) * n_picks
    if (n_plays == 0 and not unknown) or t.vpass or total == 0:
        total += 1
    r = rand_below(rng, total) if total > 1 or draw_for_one else 0
    if r >= (n_plays + n_dead) * n_picks:
        return encode(ACT_PASS, 0, NO_CELL, -1)
    if n_picks == 1:  # every variant but the draft: no division on the playouts' path
        i = 0
    else:
        i = r % n_picks
        r = r // n_picks
    if r >= n_plays:
        r -= n_plays
        codes = dead
        while r > 0:
            codes &= codes - 1
            r -= 1
        return encode(ACT_EXCHANGE, ctz64(codes), NO_CELL, picks[i])
    codes = have
    while True:
        c = ctz64(codes)
        codes &= codes - 1
        if r < counts[c]:
            break
        r -= counts[c]
    kind = ACT_REMOVE if t.card_kind[c] == CARD_REMOVE else ACT_PLACE
    targets = (t.play_cells[c] & g.empty) | (removable & t.remove_sel[c])
    return encode(kind, c, nth_cell(targets, r), picks[i])


cdef int playout(const Tables* t, Game* g, bitgen_t* rng) noexcept nogil:
    """Uniformly random play to the end; returns the number of actions played."""
    cdef int plies = 0
    while g.result == RESULT_NONE:
        apply_inline(t, g, uniform_inline(t, g, rng, 1), rng, NULL, -1)
        plies += 1
    return plies


# ---------------------------------------------------------------- quick random playouts
# A random playout reads, every ply, how many cells each card in the mover's hand can
# take.  uniform_inline recounts that from the bitboards for every card; the playout
# below keeps it instead: the copies of each card code in each hand and the empty
# cells of each plain card's code, both changed by one at a time as cards and chips
# move.  It chooses the same action from the same draw as uniform_inline (codes in
# ascending order, cells in ascending order, then the exchanges, then a pass).  A
# placement is applied by quick_place, which asks declare_sequences only when a run of
# five is there (the tally is off in a random game: nothing reads it, nothing keeps
# it); every other action by apply_inline.  So the game, the draws and the bit
# generator's stream are those of playout() (tests/games/sequence/test_random_games.py).

cdef uint64_t SPARE_BIT = (<uint64_t>1) << (MAX_CODES - 1)  # a code no card has (quick_tables)
cdef uint8_t BYTE_SELECT[256][8]  # BYTE_SELECT[b][k]: the k-th set bit of byte b (0 past its last)


cdef void byte_select_table() noexcept nogil:
    """Fill BYTE_SELECT (once, at import)."""
    cdef int b, k, i
    for b in range(256):
        k = 0
        for i in range(8):
            BYTE_SELECT[b][i] = 0
        for i in range(8):
            if (b >> i) & 1:
                BYTE_SELECT[b][k] = i
                k += 1


byte_select_table()


cdef inline int quick_nth(u128 mask, int k) noexcept nogil:
    """nth_cell(mask, k), the bit within its byte read from BYTE_SELECT: one load
    instead of a chain of 7 dependent steps."""
    cdef int base
    cdef uint64_t lo = nth_byte(mask, &k, &base)
    return base + BYTE_SELECT[lo & 0xFF][k & 7]


ctypedef struct QuickTables:
    int8_t cell_code[N_CELLS]        # the plain card code of each cell, -1 for none
    uint64_t wild                    # the two-eyed jacks' codes, as bits
    uint64_t remove                  # the one-eyed jacks' codes, as bits
    u128 lines[N_CELLS][4]           # the windows through a cell by step: 1, 10, 11, 9
    uint8_t free_start[MAX_CODES]    # each plain code's cells on the empty board
    uint64_t dead_start              # plain codes with no cell (none on a full layout)

ctypedef struct HandCounts:
    uint8_t copies[MAX_SEATS][MAX_CODES]   # copies of each code in each hand
    uint64_t have[MAX_SEATS]               # the codes each hand holds, as bits
    uint8_t free_n[MAX_CODES]              # the cells each code can take: a plain card's
                                           # empty cells, kept; a jack's, written each ply
    uint64_t dead                          # plain codes whose every cell is taken


cdef int QUICK_STEP[4]
QUICK_STEP[:] = [1, 10, 11, 9]


cdef bint quick_tables(const Tables* t, QuickTables* q) noexcept nogil:
    """The tables of quick_playout; False when these rules need the general playout:
    a draft (a choice of pick per action), a bot restriction, a board where a cell
    belongs to two plain cards (then a chip changes more than one code's count), or
    windows that are not the 192 lines of five cells of the 10 x 10 board (the quick
    sequence check reads runs of five along the lines through the placed cell), or a
    compensation that changes the start (K-3 refills the first hand after its first
    turn, K-5 puts chips on the board before it: the counts here start from an empty
    board and full hands)."""
    cdef int c, cell, w, v, d, a, step, k, s
    cdef u128 cells, m
    if t.draft_mode or t.restrict or t.n_codes >= MAX_CODES:  # SPARE_BIT must be no card
        return 0
    if t.first_turn_short:
        return 0
    for s in range(MAX_SIDES):
        if t.head_start[s]:
            return 0
    memset(q, 0, sizeof(QuickTables))
    memset(q.cell_code, -1, sizeof(q.cell_code))
    for c in range(t.n_codes):
        q.wild |= (<uint64_t>(t.card_kind[c] == CARD_WILD)) << c
        q.remove |= (<uint64_t>(t.card_kind[c] == CARD_REMOVE)) << c
        if t.card_kind[c] != CARD_NORMAL:
            continue
        cells = t.card_cells[c]
        while cells:
            cell = ctz128(cells)
            cells &= cells - 1
            if q.cell_code[cell] >= 0:
                return 0
            q.cell_code[cell] = c
    for c in range(t.n_codes):
        if t.card_kind[c] == CARD_NORMAL:
            q.free_start[c] = popcount128(t.card_cells[c] & t.playable)
            q.dead_start |= (<uint64_t>(q.free_start[c] == 0)) << c
    for w in range(N_WINDOWS):
        m = t.window_mask[w]
        if popcount128(m) != 5:
            return 0
        a = ctz128(m)
        step = ctz128(m & (m - 1)) - a
        for d in range(4):
            if step == QUICK_STEP[d]:
                break
        else:
            return 0
        if a // 10 + 4 * (step >= 9) > 9 or a % 10 + 4 * (step == 1 or step == 11) > 9 or a % 10 < 4 * (step == 9):
            return 0  # off the board's edge
        for v in range(w):
            if t.window_mask[v] == m:
                return 0
        for k in range(5):
            if not (m >> (a + k * step)) & 1:
                return 0
            q.lines[a + k * step][d] |= m
    return 1


cdef inline bint quick_full(const QuickTables* q, int cell, u128 counting) noexcept nogil:
    """Whether a window through ``cell`` holds five counting cells, without a branch:
    along each line through the cell, the cells that start a run of five."""
    cdef u128 x, r, found
    x = q.lines[cell][0] & counting
    r = x & (x >> 1)
    found = r & (r >> 2) & (x >> 4)
    x = q.lines[cell][1] & counting
    r = x & (x >> 10)
    found |= r & (r >> 20) & (x >> 40)
    x = q.lines[cell][2] & counting
    r = x & (x >> 11)
    found |= r & (r >> 22) & (x >> 44)
    x = q.lines[cell][3] & counting
    r = x & (x >> 9)
    found |= r & (r >> 18) & (x >> 36)
    return found != 0


cdef inline void quick_place(const Tables* t, Game* g, int32_t action, bitgen_t* rng,
                             const QuickTables* q) noexcept nogil:
    """apply_inline for a placement with the tally off and no draft: the sequence
    check reads quick_full first, and only a full window goes to declare_sequences."""
    cdef int seat = g.to_move, side = t.seat_side[seat], card = act_card(action), cell = act_cell(action)
    cdef u128 b = bit(cell)
    cdef bint won
    g.last_play[seat] = action + 1
    g.last_ex[seat] = (t.ex_limit if t.ex_limit >= 0 else 32767) - g.ex_left
    hand_remove(g, seat, card)
    discard(g, seat, card)
    g.chips[side] |= b
    g.empty &= ~b
    if quick_full(q, cell, g.chips[side] | t.corners):
        won = declare_sequences(t, g, side, cell, NULL, -1)
    else:
        won = side_total(t, g, side) >= t.seq_to_win
    if won:
        g.result = side
        g.termination = TERM_WIN
        return
    if g.draw_n > 0:
        g.draw_n -= 1
        hand_add(g, seat, g.draw[g.draw_n])
    elif take_card(t, g, seat, -1, rng):
        return
    end_turn(t, g, 1)


cdef inline void counts_start(const Tables* t, const Game* g, const QuickTables* q, HandCounts* h) noexcept nogil:
    """The counts of a game just dealt (every card known, the board empty)."""
    cdef int s, i, c
    memset(h.copies, 0, t.players * sizeof(h.copies[0]))
    for s in range(t.players):
        h.have[s] = 0
        for i in range(g.hand_n[s]):
            c = g.hand[s][i]
            h.copies[s][c] += 1
            h.have[s] |= (<uint64_t>1) << c
    memcpy(h.free_n, q.free_start, sizeof(h.free_n))
    h.dead = q.dead_start


cdef inline void counts_cell(const QuickTables* q, HandCounts* h, int cell, int delta) noexcept nogil:
    """A chip comes onto (``delta`` -1) or off (+1) ``cell``."""
    cdef int c = q.cell_code[cell]
    cdef uint64_t b
    if c < 0:
        return
    h.free_n[c] += delta
    b = (<uint64_t>1) << c
    h.dead = (h.dead & ~b) | (b & -(<uint64_t>(h.free_n[c] == 0)))


cdef inline void counts_card(HandCounts* h, int seat, int card, int delta) noexcept nogil:
    """A copy of ``card`` comes into (``delta`` 1) or leaves (-1) ``seat``'s hand."""
    cdef uint64_t b = (<uint64_t>1) << card
    h.copies[seat][card] += delta
    h.have[seat] = (h.have[seat] & ~b) | (b & -(<uint64_t>(h.copies[seat][card] != 0)))


cdef inline int32_t quick_choice(const Tables* t, const Game* g, bitgen_t* rng, Stream* own,
                                 const QuickTables* q, HandCounts* h) noexcept nogil:
    """uniform_inline(t, g, rng, 1) from the kept counts (no draft, every card known).

    Every ply the choice is a chain of dependent steps (the count, the draw, the code
    drawn, its cell, the placement the next count reads), so each step is kept short:
    the loops run once per card in the hand, whatever the codes (no exit for the
    branch predictor to guess), and the cell of a plain card, the first or second of
    its targets, is read without the general select (quick_nth, for the jacks)."""
    cdef int seat = g.to_move, side = t.seat_side[seat], n = 0, k, c, n_plays, n_dead, total, r, cell
    cdef int codes[MAX_HAND]
    cdef int upto[MAX_HAND + 1]          # upto[k]: the actions of codes[0..k)
    cdef uint64_t have = h.have[seat], dead
    cdef u128 removable = removable_chips(t, g, side), targets
    cdef uint64_t jacks = q.wild & have
    while jacks:  # a jack held counts the empty cells, or the chips it may take
        h.free_n[ctz64(jacks)] = popcount128(g.empty)
        jacks &= jacks - 1
    jacks = q.remove & have
    while jacks:
        h.free_n[ctz64(jacks)] = popcount128(removable)
        jacks &= jacks - 1
    upto[0] = 0
    for n in range(g.hand_n[seat]):  # as many turns as cards, not codes: the same every ply
        c = ctz64(have | SPARE_BIT)  # past the last code held: the spare code, no action
        have &= have - 1
        codes[n] = c
        upto[n + 1] = upto[n] + h.free_n[c]
    n = g.hand_n[seat]
    n_plays = upto[n]
    dead = h.have[seat] & h.dead & -(<uint64_t>(g.ex_left > 0))
    n_dead = popcount64(dead)
    total = n_plays + n_dead
    if n_plays == 0 or t.vpass or total == 0:
        total += 1
    r = quick_below(own, total) if own != NULL else rand_below(rng, total)
    if r >= n_plays + n_dead:
        return encode(ACT_PASS, 0, NO_CELL, -1)
    if r >= n_plays:
        r -= n_plays
        while r > 0:
            dead &= dead - 1
            r -= 1
        return encode(ACT_EXCHANGE, ctz64(dead), NO_CELL, -1)
    k = 0
    for c in range(1, n):
        k += upto[c] <= r
    c = codes[k]
    r -= upto[k]
    targets = (t.play_cells[c] & g.empty) | (removable & t.remove_sel[c])
    if r < 2:  # a plain card's cell (most plies): its first or second target, a short chain
        cell = ctz128(targets & (targets - <u128>r))
    else:
        cell = quick_nth(targets, r)
    return encode(ACT_REMOVE if t.card_kind[c] == CARD_REMOVE else ACT_PLACE, c, cell, -1)


cdef int quick_playout(const Tables* t, Game* g, bitgen_t* rng, Stream* own, const QuickTables* q,
                       HandCounts* h) noexcept nogil:
    """playout() for rules quick_tables accepts, on a game just dealt; ``own``, when
    not NULL, is the stream behind ``rng``, drawn inline for the choice."""
    cdef int plies = 0, seat, kind, held
    cdef int32_t action
    counts_start(t, g, q, h)
    while g.result == RESULT_NONE:
        seat = g.to_move
        if g.turn == 0 and not t.first_turn_jacks:
            action = uniform_inline(t, g, rng, 1)  # K-2: the first turn's own count
        else:
            action = quick_choice(t, g, rng, own, q, h)
        held = g.hand_n[seat]
        kind = act_kind(action)
        if kind == ACT_PLACE:
            quick_place(t, g, action, rng, q)
        else:
            apply_inline(t, g, action, rng, NULL, -1)
        plies += 1
        if kind == ACT_PASS:
            continue
        counts_card(h, seat, act_card(action), -1)
        if g.hand_n[seat] == held:  # a card was drawn: it went to the end of the hand
            counts_card(h, seat, g.hand[seat][held - 1], 1)
        if kind == ACT_PLACE:
            counts_cell(q, h, act_cell(action), -1)
        elif kind == ACT_REMOVE:
            counts_cell(q, h, act_cell(action), 1)
    return plies


cdef int full_scan(const Tables* t, const Game* g, int side) noexcept nogil:
    """Count the windows wholly of one side (the slow scan incremental detection avoids)."""
    cdef u128 counting = g.chips[side] | t.corners
    cdef int w, n = 0
    for w in range(N_WINDOWS):
        if (t.window_mask[w] & counting) == t.window_mask[w]:
            n += 1
    return n


cdef int cell_scan(const Tables* t, const Game* g, int side, int cell) noexcept nogil:
    """Count the full windows of one side through one cell (the incremental scan)."""
    cdef u128 counting = g.chips[side] | t.corners
    cdef int i, w, n = 0
    for i in range(t.through_n[cell]):
        w = t.through[cell][i]
        if (t.window_mask[w] & counting) == t.window_mask[w]:
            n += 1
    return n


# ---------------------------------------------------------------- Python door

cdef bitgen_t* bitgen_of(object bit_generator) except NULL:
    capsule = bit_generator.capsule
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef class CoreRules:
    """Rule options and precomputed tables, built once per game kind by seqsolve.games.sequence.state."""

    def __init__(self, dict options, list deck, list card_kind, list card_cells,
                 list windows, list seat_side):
        cdef Tables* t = &self.t
        cdef int i, w, k
        memset(t, 0, sizeof(Tables))
        for name in ("players", "sides", "hand_size", "seq_to_win", "max_shared", "reuse_limit",
                     "ex_limit", "exhaustion", "first_seat", "vpass", "stall_limit", "max_turns",
                     "draft_mode", "draft_size", "heart"):
            setattr_table(t, name, int(options[name]))
        t.bonus_cards = int(options.get("bonus_cards", 0))
        t.hand_bonus = int(options.get("hand_bonus", 0))
        t.first_turn_jacks = int(options.get("first_turn_jacks", 1))
        t.first_turn_short = int(options.get("first_turn_short", 0))
        for side, cells in options.get("head_start_cells", ()):
            if not 0 <= side < MAX_SIDES:
                raise ValueError("head_start: no such side in the core")
            for cell in cells:
                if not 0 <= cell < N_CELLS or (bit(cell) & (t.head_start[0] | t.head_start[1] | t.head_start[2])):
                    raise ValueError("head_start: a cell off the board or given twice")
                t.head_start[side] |= bit(cell)
        t.restrict_side = -1
        if not 0 <= t.bonus_cards <= MAX_HAND - t.hand_size:
            raise ValueError("too many bonus cards for the core")
        if not 0 <= t.hand_bonus <= MAX_HAND - t.hand_size:
            raise ValueError("too many hand_bonus cards for the core")
        if not 0 <= t.first_turn_short < t.hand_size:
            raise ValueError("first_turn_short must leave the first seat a card")
        if not (0 < len(deck) <= MAX_DECK and 0 < len(card_kind) <= MAX_CODES):
            raise ValueError("deck too large for the core")
        if not (t.players <= MAX_SEATS and t.hand_size <= MAX_HAND and t.draft_size <= MAX_DRAFT):
            raise ValueError("too many players, cards in hand or draft cards for the core")
        t.deck_n = len(deck)
        for i in range(t.deck_n):
            t.deck[i] = deck[i]
        t.n_codes = len(card_kind)
        for i in range(t.n_codes):
            t.card_kind[i] = card_kind[i]
            t.card_cells[i] = 0
            for cell in card_cells[i]:
                t.card_cells[i] |= bit(cell)
        if len(windows) != N_WINDOWS:
            raise ValueError("the core needs the 192 windows")
        memset(t.through_n, 0, sizeof(t.through_n))
        for w in range(N_WINDOWS):
            t.window_mask[w] = 0
            for cell in windows[w]:
                t.window_mask[w] |= bit(cell)
                t.through[cell][t.through_n[cell]] = w
                t.through_n[cell] += 1
        directions = [dict() for _ in range(N_CELLS)]
        for w in range(N_WINDOWS):
            step = windows[w][1] - windows[w][0] if len(windows[w]) > 1 else 0
            for cell in windows[w]:
                directions[cell].setdefault(step, len(directions[cell]))
        for i in range(N_CELLS):
            t.line_n[i] = len(directions[i]) if len(directions[i]) <= 4 else 0  # 0: no shortcut
            for k in range(4):
                t.line[i][k] = 0
        for w in range(N_WINDOWS):
            step = windows[w][1] - windows[w][0] if len(windows[w]) > 1 else 0
            for cell in windows[w]:
                if t.line_n[cell]:
                    t.line[cell][directions[cell][step]] |= t.window_mask[w]
        t.corners = bit(0) | bit(9) | bit(90) | bit(99)
        for w in range(N_WINDOWS):
            t.corner_n[w] = popcount128(t.window_mask[w] & t.corners)
        i = 0
        for w in range(N_WINDOWS):
            if t.window_mask[w] & t.corners:
                if i == 12:
                    raise ValueError("more than 12 windows through the corners")
                t.corner_window[i] = t.window_mask[w]
                i += 1
        t.playable = 0
        for i in range(N_CELLS):
            t.playable |= bit(i)
        t.playable &= ~t.corners
        t.heart_mask = bit(44) | bit(45) | bit(54) | bit(55)
        for i in range(t.n_codes):
            t.play_cells[i] = t.playable if t.card_kind[i] == CARD_WILD else (
                t.card_cells[i] if t.card_kind[i] == CARD_NORMAL else 0)
            t.remove_sel[i] = ~(<u128>0) if t.card_kind[i] == CARD_REMOVE else 0
        t.share_mask = ~(<u128>0)
        if not options["corner_shared"]:
            t.share_mask &= ~t.corners
        for i in range(len(seat_side)):
            t.seat_side[i] = seat_side[i]

    def restricted(self, int side, int flags):
        """A copy of these tables whose move generator forbids ``side`` some actions.

        ``flags`` is a sum of RESTRICT_TWO_EYED (1), RESTRICT_ONE_EYED (2),
        RESTRICT_EXCHANGE (4) and RESTRICT_CORNER (8).  A bot handicap for analysis
        (seqsolve.games.sequence.bots.restricted): a game played with these tables is not a legal game.
        """
        if not 0 <= side < self.t.sides or not 0 <= flags < 16:
            raise ValueError("bad side or restriction flags")
        cdef CoreRules other = CoreRules.__new__(CoreRules)
        memcpy(&other.t, &self.t, sizeof(Tables))
        other.t.restrict_side = side
        other.t.restrict = flags
        return other

    @property
    def restriction(self):
        """(side, flags) of a restricted copy, or None."""
        return (self.t.restrict_side, self.t.restrict) if self.t.restrict else None

    @property
    def players(self):
        return self.t.players

    @property
    def n_codes(self):
        return self.t.n_codes


cdef void setattr_table(Tables* t, str name, int value):
    if name == "players": t.players = value
    elif name == "sides": t.sides = value
    elif name == "hand_size": t.hand_size = value
    elif name == "seq_to_win": t.seq_to_win = value
    elif name == "max_shared": t.max_shared = value
    elif name == "reuse_limit": t.reuse_limit = value
    elif name == "ex_limit": t.ex_limit = value
    elif name == "exhaustion": t.exhaustion = value
    elif name == "first_seat": t.first_seat = value
    elif name == "vpass": t.vpass = value
    elif name == "stall_limit": t.stall_limit = value
    elif name == "max_turns": t.max_turns = value
    elif name == "draft_mode": t.draft_mode = value
    elif name == "draft_size": t.draft_size = value
    elif name == "heart": t.heart = value


_COPY = object()


cdef class CoreGame:
    """One game's state plus the numpy bit generator that drives its shuffles."""

    def __init__(self, CoreRules rules, bit_generator):
        self.rules = rules
        self.bit_generator = bit_generator
        self.rng = bitgen_of(bit_generator) if bit_generator is not None else NULL
        memset(&self.g, 0, sizeof(Game))
        self.g.result = RESULT_NONE
        self.g.draw_known = 1
        self.g.empty = rules.t.playable

    cdef bitgen_t* need_rng(self) except NULL:
        if self.rng == NULL:
            raise ValueError("this game has no bit generator (an observation): resample it first")
        return self.rng

    def deal(self):
        deal(&self.rules.t, &self.g, self.need_rng())

    def clone(self, bit_generator=_COPY):
        """A copy that shares no state.  By default the bit generator is copied too;
        pass another one, or None for a game that never shuffles (an observation:
        a reshuffle then makes the draw pile unknown instead)."""
        if bit_generator is _COPY and self.bit_generator is not None:
            bit_generator = type(self.bit_generator)()
            bit_generator.state = self.bit_generator.state
        elif bit_generator is _COPY:
            bit_generator = None
        cdef CoreGame other = CoreGame.__new__(CoreGame)
        other.rules = self.rules
        other.bit_generator = bit_generator
        other.rng = bitgen_of(bit_generator) if bit_generator is not None else NULL
        memcpy(&other.g, &self.g, sizeof(Game))
        return other

    def with_rules(self, CoreRules rules):
        """A copy of this game that plays by other tables of the same game (a restricted
        copy from CoreRules.restricted); the bit generator is copied as by clone()."""
        if rules.t.players != self.rules.t.players or rules.t.n_codes != self.rules.t.n_codes:
            raise ValueError("the tables belong to another kind of game")
        cdef CoreGame other = self.clone()
        other.rules = rules
        return other

    # -- moves
    def legal_actions(self):
        cdef int32_t buf[MAX_MOVES]
        cdef int n = gen_actions(&self.rules.t, &self.g, buf)
        return [buf[i] for i in range(n)]

    def apply(self, int32_t action, declare=None):
        cdef uint8_t chosen[MAX_THROUGH]
        cdef int n = -1, i
        if declare is not None:
            n = len(declare)
            if n > MAX_THROUGH:
                raise ValueError("too many windows declared")
            for i in range(n):
                chosen[i] = declare[i]
        with nogil:
            apply_action(&self.rules.t, &self.g, action, self.rng, chosen, n)

    def declarations(self, int cell):
        """Every maximum declaration (C-26) if the side to move placed a chip on ``cell``,
        canonical first; ``[()]`` when the placement completes nothing."""
        cdef DeclSearch s
        cdef Game trial
        cdef int side = self.rules.t.seat_side[self.g.to_move], k, i
        cdef int capacity = MAX_DECLARATIONS
        cdef uint8_t* buf
        if not 0 <= cell < N_CELLS:
            raise ValueError(f"no cell {cell}")
        memcpy(&trial, &self.g, sizeof(Game))
        trial.chips[side] |= bit(cell)
        trial.empty &= ~bit(cell)
        while True:  # a long line in every direction can have hundreds of maximum choices
            if prepare_declarations(&self.rules.t, &trial, side, cell, &s) == 0:
                return [()]
            buf = <uint8_t*>malloc(capacity * MAX_THROUGH)
            if buf == NULL:
                raise MemoryError()
            s.found = buf
            s.capacity = capacity
            s.collect_all = 1
            search_declarations(&self.rules.t, &s, 0)
            if s.n_found <= capacity:
                found = [tuple(buf[k * MAX_THROUGH + i] for i in range(s.best_n)) for k in range(s.n_found)]
                free(buf)
                return found
            free(buf)
            capacity = s.n_found

    def random_action(self):
        return random_action(&self.rules.t, &self.g, self.need_rng())

    def playout(self):
        """Random play to the end of the game; returns the number of actions."""
        cdef int plies
        cdef bitgen_t* rng = self.need_rng()
        with nogil:
            plies = playout(&self.rules.t, &self.g, rng)
        return plies

    def perft(self, int depth):
        """Leaf count of the action tree to ``depth`` (exchanges are actions, P-13).

        Ctrl-C stops it within milliseconds (KeyboardInterrupt), however deep."""
        cdef long long total
        cdef bitgen_t* rng = self.need_rng()
        with nogil:
            total = perft(&self.rules.t, &self.g, rng, depth)
        return total

    # -- observation
    @property
    def to_move(self):
        return self.g.to_move

    @property
    def result(self):
        return self.g.result

    @property
    def termination(self):
        return self.g.termination

    @property
    def turn(self):
        return self.g.turn

    @property
    def stall(self):
        return self.g.stall

    @property
    def exchanges_left(self):
        return self.g.ex_left

    @property
    def draw_known(self):
        return bool(self.g.draw_known)

    def chips(self, int side):
        return mask_to_int(self.g.chips[side])

    def locked(self):
        return mask_to_int(self.g.locked)

    def hand(self, int seat):
        return [self.g.hand[seat][i] for i in range(self.g.hand_n[seat])]

    def hand_sizes(self):
        return [self.g.hand_n[s] for s in range(self.rules.t.players)]

    def discards(self):
        """Every discard, oldest first, as (seat, card)."""
        return [(self.g.disc_seat[i], self.g.disc_card[i]) for i in range(self.g.disc_n)]

    def public_hand(self, int seat):
        """The cards every seat knows ``seat`` holds: draft cards it took and has not
        discarded since (see the C function)."""
        cdef uint8_t out[MAX_HAND]
        cdef int n
        if not 0 <= seat < self.rules.t.players:
            raise ValueError(f"no seat {seat}")
        n = public_hand(&self.g, seat, out)
        return [out[i] for i in range(n)]

    def draw_pile(self):
        """The draw pile, top first."""
        return [self.g.draw[self.g.draw_n - 1 - i] for i in range(self.g.draw_n)]

    def draft(self):
        return [self.g.draft[i] for i in range(self.g.draft_n)]

    def sequences(self):
        return [(self.g.seq_side[i], self.g.seq_window[i]) for i in range(self.g.seq_n)]

    def last_play(self, int seat):
        """``(action, exchanges)`` of the seat's last play, action -1 when none was seen."""
        if not 0 <= seat < self.rules.t.players:
            raise IndexError("seat out of range")
        return self.g.last_play[seat] - 1, self.g.last_ex[seat]

    def sequence_total(self, int side):
        return side_total(&self.rules.t, &self.g, side)

    # -- loading a position
    def load(self, dict p):
        """Set every field from plain Python values (see State.from_position)."""
        cdef Game* g = &self.g
        cdef int i, s
        memset(g, 0, sizeof(Game))
        for s in range(3):
            g.chips[s] = mask_from_int(p["chips"][s]) if s < len(p["chips"]) else 0
        g.locked = mask_from_int(p["locked"])
        g.empty = self.rules.t.playable & ~(g.chips[0] | g.chips[1] | g.chips[2])
        g.turn, g.stall = p["turn"], p["stall"]
        g.to_move = p["to_move"]
        g.result = p["result"]
        g.termination = p["termination"]
        g.ex_left = p["exchanges_left"]
        g.draw_known = p["draw_known"]
        for s, hand in enumerate(p["hands"]):
            if len(hand) > MAX_HAND:
                raise ValueError("hand too large for the core")
            g.hand_n[s] = len(hand)
            for i, c in enumerate(hand):
                g.hand[s][i] = c
        draw = p["draw"]  # top first
        g.draw_n = len(draw)
        for i, c in enumerate(draw):
            g.draw[g.draw_n - 1 - i] = c
        g.disc_n = len(p["discards"])
        for i, (s, c) in enumerate(p["discards"]):
            g.disc_seat[i], g.disc_card[i] = s, c
            g.disc_take[i] = UNKNOWN_CARD  # a position file lists the takes per seat instead
        for s, (play, exchanges) in enumerate(p.get("last", ())):
            g.last_play[s], g.last_ex[s] = play + 1, exchanges
        g.pos_disc_n = g.disc_n
        for s, taken in enumerate(p.get("takes", ())):
            if len(taken) > MAX_HAND:
                raise ValueError("too many takes for the core")
            g.pos_take_n[s] = len(taken)
            for i, c in enumerate(taken):
                g.pos_take[s][i] = c
        g.draft_n = len(p["draft"])
        for i, c in enumerate(p["draft"]):
            g.draft[i] = c
        g.seq_n = len(p["sequences"])
        for i, (s, w) in enumerate(p["sequences"]):
            g.seq_side[i], g.seq_window[i] = s, w
            g.seq_count[s] += 1

    def start_tally(self, bint fill_only=False):
        """Keep per-side window counts from now on (tally_start): what the compiled
        game loop does for its bots; the scores and the evaluation read them then.
        ``fill_only``: keep the fills, bars and discards alone (Tally.fill_only), as
        the loop does for bots that read no more."""
        tally_start(&self.rules.t, &self.g)
        self.g.tally.fill_only = fill_only

    def tally(self):
        """The kept counts, or None when off: ``(fill, open, threat, barred, gone)``
        per side, ``threat`` and ``barred`` as sorted window lists, ``gone`` the
        discarded copies of each card code (the same for every side; for the tests);
        ``open`` and ``threat`` None when the tally is fill_only."""
        cdef const Tally* ty = &self.g.tally
        cdef int s, wi
        if not ty.on:
            return None
        return [([(ty.fill[wi] >> (3 * s)) & 7 for wi in range(N_WINDOWS)],
                 None if ty.fill_only else [ty.open[s][wi] for wi in range(5)],
                 None if ty.fill_only else
                 [wi for wi in range(N_WINDOWS) if (ty.threat[s][wi >> 6] >> (wi & 63)) & 1],
                 [wi for wi in range(N_WINDOWS) if (ty.barred[s][wi >> 6] >> (wi & 63)) & 1],
                 [ty.gone[wi] for wi in range(self.rules.t.n_codes)])
                for s in range(self.rules.t.sides)]

    def mask_hidden(self, int viewer):
        """Forget what ``viewer`` cannot see: other hands and the draw pile become unknown."""
        cdef int s, i
        for s in range(self.rules.t.players):
            if s != viewer:
                for i in range(self.g.hand_n[s]):
                    self.g.hand[s][i] = UNKNOWN_CARD
        for i in range(self.g.draw_n):
            self.g.draw[i] = UNKNOWN_CARD
        self.g.draw_known = 0  # nobody at the table knows the order of the draw pile (§1.14)

    def set_hidden(self, list hands, list draw, bint draw_known):
        """Replace hands and draw pile (top first): how resampling installs a world."""
        cdef int s, i
        for s, hand in enumerate(hands):
            self.g.hand_n[s] = len(hand)
            for i, c in enumerate(hand):
                self.g.hand[s][i] = c
        self.g.draw_n = len(draw)
        for i, c in enumerate(draw):
            self.g.draw[self.g.draw_n - 1 - i] = c
        self.g.draw_known = draw_known


cdef unsigned int perft_calls = 0  # inner nodes counted by perft, to space out its signal checks


cdef long long perft(const Tables* t, const Game* g, bitgen_t* rng, int depth) except -1 nogil:
    """Leaves below ``g``; -1 with the exception set when a signal handler raised
    (checked every 2**16 inner nodes, a few milliseconds, so Ctrl-C is felt at once)."""
    global perft_calls
    cdef int32_t buf[MAX_MOVES]
    cdef Game child
    cdef int n, i
    cdef long long total = 0
    if depth == 0:
        return 1
    n = gen_actions(t, g, buf)
    if depth == 1:
        return n
    perft_calls += 1
    if (perft_calls & 0xFFFF) == 0:
        with gil:
            PyErr_CheckSignals()
    for i in range(n):
        memcpy(&child, g, sizeof(Game))
        apply_action(t, &child, buf[i], rng, NULL, -1)
        if child.result == RESULT_NONE:  # a finished game has no leaves deeper down
            total += perft(t, &child, rng, depth - 1)
    return total


def random_games(CoreRules rules, bit_generator, long n_games):
    """Play ``n_games`` uniformly random games from fresh deals without the GIL.

    The games are those of ``deal`` then ``playout`` on one game, one after the other
    from the same bit generator (the same actions, the same draws, the bit generator
    left in the same state); where the rules allow (quick_tables) they are played by
    quick_playout, which keeps the counts a random move needs instead of recounting
    them every ply, and a numpy PCG64 is drawn from inline.

    Returns (games, actions, draws): the workload of ``seqsolve bench``."""
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    cdef Game g
    cdef QuickTables q
    cdef HandCounts h
    cdef Stream own
    cdef Stream* own_p = NULL
    cdef bint quick = quick_tables(&rules.t, &q)
    cdef long i = 0, j, chunk
    cdef long long plies = 0, draws = 0
    if quick and quick_rng_load(&own, bit_generator):
        own_p = &own
        rng = &own.bg
    try:
        while i < n_games:
            chunk = n_games - i if n_games - i < 256 else 256  # then Ctrl-C: every few milliseconds
            with nogil:
                for j in range(chunk):
                    deal_inline(&rules.t, &g, rng, own_p)
                    if quick:
                        plies += quick_playout(&rules.t, &g, rng, own_p, &q, &h)
                    else:
                        plies += playout(&rules.t, &g, rng)
                    if g.result == RESULT_DRAW:
                        draws += 1
            i += chunk
            PyErr_CheckSignals()
    finally:
        if own_p != NULL:
            quick_rng_store(own_p, bit_generator)
    return n_games, plies, draws


def scan_counts(CoreGame game, long repeats, bint incremental):
    """Run one kind of sequence scan ``repeats`` times over every side: the full scan of
    the 192 windows, or (``incremental``) the scan through each of the 100 cells.
    Returns (scans, windows found) for ``seqsolve bench``."""
    cdef const Tables* t = &game.rules.t
    cdef long r
    cdef int s, c
    cdef long long found = 0, scans = 0
    with nogil:
        for r in range(repeats):
            if (r & 4095) == 4095:  # Ctrl-C: every few milliseconds
                with gil:
                    PyErr_CheckSignals()
            for s in range(t.sides):
                if incremental:
                    for c in range(N_CELLS):
                        found += cell_scan(t, &game.g, s, c)
                    scans += N_CELLS
                else:
                    found += full_scan(t, &game.g, s)
                    scans += 1
    return scans, found

