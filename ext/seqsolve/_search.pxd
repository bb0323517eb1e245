# The C-level contract of seqsolve._search: evaluation weights, the per-call
# context built from the core's Tables, and the nogil scoring / evaluation /
# policy functions that the bots and the information-set MCTS are made of.

from libc.stdint cimport uint8_t, int8_t, int32_t, uint32_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport Tables, Game, MAX_CODES, MAX_SIDES, N_CELLS, N_WINDOWS

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

cdef void make_ctx(Ctx* ctx, const Tables* t, const Weights* w) noexcept nogil
cdef double action_score(const Ctx* ctx, const Game* g, int32_t action) noexcept nogil
cdef void side_features(const Ctx* ctx, const Game* g, int s, const int* left, int wild_left,
                        double* f) noexcept nogil
cdef void side_scores(const Ctx* ctx, const Game* g, double* scores) noexcept nogil
cdef void side_values(const Ctx* ctx, const Game* g, double* values) noexcept nogil
cdef double side_value(const Ctx* ctx, const Game* g, int side) noexcept nogil
cdef int32_t policy_action(const Ctx* ctx, const Game* g, bitgen_t* rng,
                           double eps, int k) noexcept nogil
