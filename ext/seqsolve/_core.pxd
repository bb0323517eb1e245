# The C-level contract of seqsolve._core: fixed-size game state, precomputed
# rule tables, and the nogil functions that search and playouts are built on.
# Everything here is C integers and 128-bit bitboards; no Python objects.

from libc.stdint cimport uint8_t, int8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

cdef extern from *:
    """
    typedef unsigned __int128 ss_u128;
    /* popcount without a libgcc call when the compiler may not use POPCNT
       (the shipped flags do not enable it; CFLAGS=-mpopcnt does). */
    #if defined(__POPCNT__)
    static inline int ss_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    static inline int ss_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    static inline int ss_popcount(ss_u128 x) {
        return ss_popcount64((unsigned long long)x) + ss_popcount64((unsigned long long)(x >> 64));
    }
    static inline int ss_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int ss_ctz(ss_u128 x) {
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    """
    ctypedef unsigned long long u128 "ss_u128"
    int popcount64 "ss_popcount64"(uint64_t x) noexcept nogil
    int popcount128 "ss_popcount"(u128 x) noexcept nogil
    int ctz64 "ss_ctz64"(uint64_t x) noexcept nogil
    int ctz128 "ss_ctz"(u128 x) noexcept nogil

cdef enum:
    MAX_SEATS = 12
    MAX_SIDES = 3
    MAX_HAND = 40
    MAX_DECK = 128
    MAX_CODES = 64
    N_CELLS = 100
    N_WINDOWS = 192
    MAX_THROUGH = 20
    MAX_DRAFT = 16
    MAX_MOVES = 8192
    MAX_DECLARATIONS = 64       # first buffer size when every maximum declaration is listed
    UNKNOWN_CARD = 255
    NO_CELL = 127

# action = kind << 16 | (pick + 1) << 20 | card << 8 | cell
cdef enum:
    ACT_PLACE = 0
    ACT_REMOVE = 1
    ACT_EXCHANGE = 2
    ACT_PASS = 3

cdef enum:
    CARD_NORMAL = 0
    CARD_WILD = 1
    CARD_REMOVE = 2

cdef enum:
    RESULT_NONE = -1
    RESULT_DRAW = 3

cdef enum:
    TERM_NONE = 0
    TERM_WIN = 1
    TERM_FROZEN = 2
    TERM_STALL = 3
    TERM_TURN_CAP = 4
    TERM_DECK_EXHAUSTED = 5
    TERM_DRAFT_END = 6

cdef enum:
    EXH_RESHUFFLE = 0
    EXH_DRAW_GAME = 1
    EXH_DRAFT_END = 2

# Restrictions of one side's move generation (CoreRules.restricted): a bot handicap used
# to measure how much a rule matters (seqsolve.games.sequence.bots.restricted), never a rule of the game.
cdef enum:
    RESTRICT_TWO_EYED = 1        # no two-eyed (wild) jack placements
    RESTRICT_ONE_EYED = 2        # no one-eyed jack removals
    RESTRICT_EXCHANGE = 4        # no dead-card exchanges
    RESTRICT_CORNER = 8          # never fill the last cell of a five-cell line through a corner

ctypedef struct Tables:
    # rule options, resolved (RULES.md §2)
    int players, sides, hand_size, seq_to_win
    int max_shared, reuse_limit          # reuse_limit < 0: unlimited
    int ex_limit                         # < 0: unlimited
    int exhaustion, first_seat, vpass, stall_limit, max_turns
    int draft_mode, draft_size, heart
    # cards
    int n_codes, deck_n
    uint8_t deck[MAX_DECK]
    uint8_t card_kind[MAX_CODES]
    u128 card_cells[MAX_CODES]
    # geometry
    u128 window_mask[N_WINDOWS]
    uint8_t through[N_CELLS][MAX_THROUGH]
    uint8_t through_n[N_CELLS]
    u128 corners, playable, heart_mask, share_mask
    uint8_t seat_side[MAX_SEATS]
    # appended after the fields above so that their layout never moves
    int bonus_cards                      # analysis option: extra cards dealt to seat 0
    int restrict_side, restrict          # RESTRICT_* flags for one side (-1: none)
    u128 corner_window[12]               # the 12 windows through a corner
    uint8_t corner_n[N_WINDOWS]          # corners in each window (they count for every side)
    # per cell, the union of the windows through it in each direction (at most 4 lines of
    # 9 cells): a window through the cell can be full only where a line holds 5 counting
    # cells, so the sequence check after most placements ends after 4 counts
    u128 line[N_CELLS][4]
    uint8_t line_n[N_CELLS]
    # a card's targets without a branch on its kind (the random move's count):
    # (play_cells & empty) | (removable & remove_sel)
    u128 play_cells[MAX_CODES]           # a plain card's cells, every playable cell for a two-eyed jack
    u128 remove_sel[MAX_CODES]           # all ones for a one-eyed jack, else 0
    int hand_bonus                       # K-1: extra cards dealt to every seat but first_seat
    int first_turn_jacks                 # K-2: 0 = no jack on turn 0 while another card plays
    int first_turn_short                 # K-3: cards first_seat is dealt short, filled after turn 0
    u128 head_start[MAX_SIDES]           # K-5: each side's chips on the board before the first turn

# Per-side window counts kept up to date by apply_action (issue 14, item 2), so the
# bots read a window's fill instead of recounting it per candidate cell.  Off (all
# zero) in a game the Python layer builds; tally_start turns it on.
ctypedef struct Tally:
    uint8_t on
    # 1: apply_action keeps fill, barred and gone but not open and threat, which go
    # stale (issue 37): a game none of whose readers reads them (Lineup.counted) does
    # not pay for them.  In the byte that aligned fill; tally_start clears it.
    uint8_t fill_only
    uint16_t fill[N_WINDOWS]         # chips of side s in the window (corners not counted) at bits 3s..3s+2
    int16_t open[MAX_SIDES][5]       # windows open to side s (no other chip, C-25 eligible) by fill 0..4, corners counted
    uint64_t threat[MAX_SIDES][3]    # a bit per window of open[s][4]: one cell short
    uint64_t barred[MAX_SIDES][3]    # a bit per window that may not become a sequence of s (C-25 conditions 2 and 3)
    uint8_t gone[MAX_CODES]          # copies of each card code in the discard piles

ctypedef struct Game:
    u128 chips[MAX_SIDES]        # chips of each side, locked ones included
    u128 locked
    u128 empty                   # empty non-corner cells
    int32_t turn, stall
    int16_t draw_n, disc_n, seq_n, ex_left
    int8_t to_move, result, termination
    uint8_t draw_known, draft_n
    uint8_t hand_n[MAX_SEATS]
    uint8_t hand[MAX_SEATS][MAX_HAND]
    uint8_t draw[MAX_DECK]       # top of the pile is draw[draw_n - 1]
    uint8_t disc_card[MAX_DECK]  # every discard, oldest first ...
    uint8_t disc_seat[MAX_DECK]  # ... and whose pile it is on ...
    uint8_t disc_take[MAX_DECK]  # ... and the draft card that seat took after it (D-1: public;
                                 # UNKNOWN_CARD in the blind draw, or where not recorded)
    uint8_t draft[MAX_DRAFT]
    uint8_t seq_window[N_WINDOWS]
    uint8_t seq_side[N_WINDOWS]
    uint8_t seq_count[MAX_SIDES]
    # appended after the fields above so that their layout never moves
    Tally tally
    # the takes a position file recorded (D-1: public), each seat's known cards before
    # any discard the game holds; public_hand starts from them, a reshuffle forgets them
    uint8_t pos_take_n[MAX_SEATS]
    uint8_t pos_take[MAX_SEATS][MAX_HAND]
    int16_t pos_disc_n  # the discards the file listed: they came before its takes
    # each seat's last play (public): its action + 1 (0: none seen), and the dead-card
    # exchanges made before it in that turn
    int32_t last_play[MAX_SEATS]
    uint8_t last_ex[MAX_SEATS]

# ---------------------------------------------------------------- shared inline helpers
# Defined here, once, so the core and the search module inline the same code.

cdef inline u128 bit(int cell) noexcept nogil:
    return (<u128>1) << cell


cdef inline uint64_t nth_byte(u128 mask, int* k, int* base) noexcept nogil:
    """The word whose lowest byte holds the ``k``-th set bit (0-based, ascending) of a
    mask with more than ``k`` bits; ``base`` becomes that byte's first cell and ``k``
    the bit's rank within the byte.

    Without a branch: which half (64, 32, 16, 8 bits) holds the bit is chosen by
    masks.  In a random playout both k and the mask are random, so every branch here
    would be a coin toss for the predictor."""
    cdef uint64_t lo = <uint64_t>mask, hi = <uint64_t>(mask >> 64), s
    cdef int n = popcount64(lo), r = k[0], b
    s = (<uint64_t>0) - <uint64_t>(r >= n)  # all ones: the bit is in the high word
    r -= n & <int>s
    lo = (hi & s) | (lo & ~s)
    b = 64 & <int>s
    n = popcount64(lo & <uint64_t>0xFFFFFFFF)
    s = (<uint64_t>0) - <uint64_t>(r >= n)
    r -= n & <int>s
    lo >>= 32 & <int>s
    b += 32 & <int>s
    n = popcount64(lo & <uint64_t>0xFFFF)
    s = (<uint64_t>0) - <uint64_t>(r >= n)
    r -= n & <int>s
    lo >>= 16 & <int>s
    b += 16 & <int>s
    n = popcount64(lo & <uint64_t>0xFF)
    s = (<uint64_t>0) - <uint64_t>(r >= n)
    r -= n & <int>s
    lo >>= 8 & <int>s
    b += 8 & <int>s
    k[0] = r
    base[0] = b
    return lo


cdef inline int nth_cell(u128 mask, int k) noexcept nogil:
    """The k-th set bit (0-based, ascending) of a mask with more than k bits: the byte
    by nth_byte, then at most 7 low bits cleared in a loop of fixed length."""
    cdef int base, j
    cdef uint64_t lo = nth_byte(mask, &k, &base)
    for j in range(7):
        lo &= lo - <uint64_t>(j < k)
    return base + ctz64(lo)


# numpy's PCG64 drawn inline: the same stream as numpy's (XSL-RR output, the low half of
# a 64-bit output first, its high half kept for the next 32-bit draw), so a hot loop
# draws by a few multiplications instead of a call through the bit generator's table,
# and a Stream's bitgen_t hands the same stream to every function that takes one.

ctypedef struct Pcg64:
    # the state of numpy's PCG64 (pcg64_state: the 128-bit LCG, then the half of the
    # last 64-bit output that next_uint32 has not handed out yet)
    u128 state
    u128 inc
    int has_uint32
    uint32_t uinteger


ctypedef struct Stream:
    # a bitgen_t over its own Pcg64 (stream_bind ties them)
    Pcg64 pcg
    bitgen_t bg


cdef inline void pcg_step(Pcg64* p) noexcept nogil:
    p.state = p.state * (((<u128>2549297995355413924ULL) << 64) | (<u128>4865540595714422341ULL)) + p.inc


cdef inline uint64_t pcg_next64(Pcg64* p) noexcept nogil:
    cdef uint64_t x
    cdef unsigned int rot
    pcg_step(p)
    x = (<uint64_t>(p.state >> 64)) ^ (<uint64_t>p.state)
    rot = <unsigned int>(p.state >> 122)
    return (x >> rot) | (x << ((64 - rot) & 63))


cdef inline uint32_t pcg_next32(Pcg64* p) noexcept nogil:
    cdef uint64_t nxt
    if p.has_uint32:
        p.has_uint32 = 0
        return p.uinteger
    nxt = pcg_next64(p)
    p.has_uint32 = 1
    p.uinteger = <uint32_t>(nxt >> 32)
    return <uint32_t>nxt  # the low half


cdef inline uint64_t stream_next64(void* st) noexcept nogil:
    return pcg_next64(<Pcg64*>st)


cdef inline uint32_t stream_next32(void* st) noexcept nogil:
    return pcg_next32(<Pcg64*>st)


cdef inline double stream_next_double(void* st) noexcept nogil:
    return (pcg_next64(<Pcg64*>st) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void stream_bind(Stream* s) noexcept nogil:
    """Point the stream's bitgen_t at its own Pcg64."""
    s.bg.state = &s.pcg
    s.bg.next_uint64 = stream_next64
    s.bg.next_uint32 = stream_next32
    s.bg.next_double = stream_next_double
    s.bg.next_raw = stream_next64


cdef inline uint32_t rand_below(bitgen_t* rng, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1, without bias (Lemire's multiply-and-reject)."""
    cdef uint64_t m = <uint64_t>rng.next_uint32(rng.state) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = <uint64_t>rng.next_uint32(rng.state) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline int32_t encode(int kind, int card, int cell, int pick) noexcept nogil:
    """An action number: ``kind << 16 | (pick + 1) << 20 | card << 8 | cell``."""
    return (kind << 16) | ((pick + 1) << 20) | (card << 8) | cell


cdef inline int act_kind(int32_t a) noexcept nogil:
    return (a >> 16) & 3


cdef inline int act_card(int32_t a) noexcept nogil:
    return (a >> 8) & 0xFF


cdef inline int act_cell(int32_t a) noexcept nogil:
    return a & 0x7F


cdef inline int act_pick(int32_t a) noexcept nogil:
    return ((a >> 20) & 0x7F) - 1


cdef inline int side_total(const Tables* t, const Game* g, int side) noexcept nogil:
    """Sequences that count toward the win: completed ones, plus 2 for a held heart (D-3)."""
    cdef int total = g.seq_count[side]
    if t.heart and (g.chips[side] & t.heart_mask) == t.heart_mask:
        total += 2
    return total


cdef inline int open_fill(const Tables* t, const Tally* ty, int wi, uint16_t fill, int s) noexcept nogil:
    """The fill (corners counted) at which window ``wi``, holding the chips of tally
    fill ``fill``, counts among side ``s``'s open windows; -1 when it does not: another
    side's chip is in it, it may not become s's sequence (C-25), or it is complete."""
    cdef int k
    if (fill & ~(<uint16_t>(7 << (3 * s)))) or ((ty.barred[s][wi >> 6] >> (wi & 63)) & 1):
        return -1
    k = ((fill >> (3 * s)) & 7) + t.corner_n[wi]
    return k if k < 5 else -1



cdef inline bint overlap_ok(const Tables* t, u128 m, const uint8_t* seqs, int n) noexcept nogil:
    """C-25 conditions 2 and 3: may the window of cells ``m`` become a sequence of a
    side whose completed sequences are the windows seqs[0..n)?  Inline here so the
    core's declarations, its window tally and the evaluation apply one rule."""
    cdef u128 sk
    cdef int k, j, shared, touching = 0, crossed
    m &= t.share_mask
    for k in range(n):
        shared = popcount128(m & t.window_mask[seqs[k]])
        if shared > t.max_shared:
            return 0
        if shared:
            touching += 1
    if t.reuse_limit < 0:
        return 1
    if touching > t.reuse_limit:
        return 0
    for k in range(n):
        sk = t.window_mask[seqs[k]] & t.share_mask
        if not (m & sk):
            continue
        crossed = 0
        for j in range(n):
            if j != k and (sk & t.window_mask[seqs[j]]):
                crossed += 1
        if crossed >= t.reuse_limit:
            return 0
    return 1


cdef inline int side_sequences(const Game* g, int side, uint8_t* out) noexcept nogil:
    """The windows of ``side``'s completed sequences, in the order completed, into
    ``out`` (room for N_WINDOWS); returns how many."""
    cdef int k, n = 0
    for k in range(g.seq_n):
        if g.seq_side[k] == side:
            out[n] = g.seq_window[k]
            n += 1
    return n


cdef void deal(const Tables* t, Game* g, bitgen_t* rng) noexcept nogil
cdef int public_hand(const Game* g, int seat, uint8_t* out) noexcept nogil
cdef int gen_actions(const Tables* t, const Game* g, int32_t* out) noexcept nogil
cdef int32_t random_action(const Tables* t, const Game* g, bitgen_t* rng) noexcept nogil
cdef int32_t uniform_action(const Tables* t, const Game* g, bitgen_t* rng, bint draw_for_one) noexcept nogil
cdef void apply_action(const Tables* t, Game* g, int32_t action, bitgen_t* rng,
                       const uint8_t* declare, int declare_n) noexcept nogil
cdef int playout(const Tables* t, Game* g, bitgen_t* rng) noexcept nogil
cdef int cell_scan(const Tables* t, const Game* g, int side, int cell) noexcept nogil
cdef void tally_start(const Tables* t, Game* g) noexcept nogil
cdef bint declare_sequences(const Tables* t, Game* g, int side, int cell,
                            const uint8_t* declare, int declare_n) noexcept nogil

cdef class CoreRules:
    cdef Tables t

cdef class CoreGame:
    cdef Game g
    cdef readonly CoreRules rules
    cdef object bit_generator
    cdef bitgen_t* rng
    cdef bitgen_t* need_rng(self) except NULL
