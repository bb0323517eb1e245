# The C-level contract of seqsolve._stacks, the compiled Sequence Stacks engine
# (RULES.md §4, docs/stacks.md): a fixed-size game, the rule options it plays by,
# and the nogil functions a compiled game loop or search calls.  Cards are the
# kinds of seqsolve/games/stacks/cards.py (0..16), actions the numbers of
# seqsolve/games/stacks/actions.py (0..427).  No Python objects.

from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

cdef enum:
    ST_KINDS = 17
    ST_MAX_SEATS = 6
    ST_MAX_PILES = 16            # two colours x stacks_max_piles_per_colour (at most 8)
    ST_FULL = 5                  # cards in a completed pile (ST-9)
    ST_HAND = 5                  # cards dealt, refilled to and drawn at once (ST-5, ST-11, ST-13)
    ST_DECK = 120
    ST_UNKNOWN = 255             # a draw-pile card nobody at the table knows

# card kinds (cards.Card)
cdef enum:
    ST_BW = 5
    ST_RW = 11
    ST_SK = 12
    ST_RV = 13
    ST_SC = 14
    ST_SX = 15
    ST_BK = 16

# action numbers (actions.py)
cdef enum:
    ST_ARGS = 12
    ST_PLAY_SPAN = 204
    ST_DISCARD = 408
    ST_BLOCK = 425
    ST_PASS = 426
    ST_END = 427
    ST_NUM_ACTIONS = 428

cdef enum:
    ST_ONGOING = -1
    ST_DRAW = 6                  # result: a seat 0..5, or this

cdef enum:
    ST_TERM_NONE = 0
    ST_TERM_WIN = 1              # ST-21
    ST_TERM_STALLED = 2          # ST-22: nothing to draw and a quiet round, or a stalled turn
    ST_TERM_MAX_TURNS = 3        # ST-22: max_turns
    ST_TERM_RECORDED = 4         # loaded finished: the reason is not recorded

ctypedef struct StTables:
    # the options of RULES.md §4.9, resolved
    int players
    int refill_empty_only        # stacks_refill=empty_hand_only
    int max_piles                # per colour
    int chip_supply              # per colour
    int win_chips, win_min_each
    int actions_from_discard
    int steal_chip_can_win
    int max_turns
    uint8_t deck[ST_KINDS]       # copies of each kind (ST-2, ST-3)
    int deck_n
    int first_turn_short         # K-4: cards seat 0 is dealt short; no refill before its first turn
    int first_hand_bonus         # K-7: cards seat 0 is dealt over five, after the ordinary rounds

ctypedef struct StGame:
    int32_t turn, quiet          # completed turns; consecutive ones without progress (ST-22)
    int8_t to_move               # the seat whose turn it is (the completer during a Block window)
    int8_t direction             # +1 or -1 (ST-17)
    int8_t progress              # a card went to a pile or a chip changed hands this turn
    int8_t refilled              # this turn refilled the draw pile, no chip moved since (ST-22 [OURS])
    int8_t block_asked           # the opponent asked whether to block, or -1 (ST-15)
    int8_t result                # ST_ONGOING, a winning seat or ST_DRAW
    int8_t termination
    int16_t draw_n, aside_n      # aside_n counts unknown set-aside cards too
    uint8_t hand[ST_MAX_SEATS][ST_KINDS]     # known cards per kind
    uint8_t hand_unknown[ST_MAX_SEATS]
    uint8_t hand_n[ST_MAX_SEATS]             # all cards, unknown ones included
    uint8_t disc[ST_MAX_SEATS][ST_DECK]      # discard piles, bottom first
    uint8_t disc_n[ST_MAX_SEATS]
    uint8_t special[ST_KINDS]
    uint8_t n_piles
    uint8_t pile[ST_MAX_PILES][ST_FULL]      # oldest pile first, each bottom first
    uint8_t pile_n[ST_MAX_PILES]
    uint8_t pile_colour[ST_MAX_PILES]
    uint8_t chips[ST_MAX_SEATS][2]           # blue, red
    uint8_t skips[ST_MAX_SEATS]
    uint8_t aside[ST_KINDS]                  # known set-aside cards per kind
    uint8_t draw[ST_DECK]                    # top of the pile is draw[draw_n - 1]; ST_UNKNOWN if not known


cdef void st_deal(const StTables* t, StGame* g, bitgen_t* rng) noexcept nogil
cdef int st_legal_actions(const StTables* t, const StGame* g, int16_t* out) noexcept nogil
cdef void st_apply(const StTables* t, StGame* g, int action, bitgen_t* rng) noexcept nogil
cdef int st_random_action(const StTables* t, const StGame* g, bitgen_t* rng) noexcept nogil
cdef int st_playout(const StTables* t, StGame* g, bitgen_t* rng) noexcept nogil
cdef int st_current_player(const StGame* g) noexcept nogil
# rule helpers the bots (seqsolve._stacks_bots) read the game with
cdef int next_seat(const StTables* t, const StGame* g, int seat) noexcept nogil
cdef bint wins(const StTables* t, int blue, int red) noexcept nogil
cdef int supply(const StTables* t, const StGame* g, int colour) noexcept nogil
cdef int target_pile(const StTables* t, const StGame* g, int colour, int value) noexcept nogil
cdef int full_pile(const StGame* g) noexcept nogil
cdef bitgen_t* bitgen_of(object bit_generator) except NULL

cdef class StacksTables:
    cdef StTables t

cdef class StacksCore:
    cdef StGame g
    cdef readonly StacksTables tables
    cdef object bit_generator
    cdef bitgen_t* rng
    cdef bitgen_t* need_rng(self) except NULL
