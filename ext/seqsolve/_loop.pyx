# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Whole games between built-in bots in C: the match runner's loop without a Python
round-trip per action (issue 14).

The Python runner spends 97% of a random game's time outside the core (an
observation, a bot call, a legality check, a record line per action).  Here a
:class:`Lineup` holds the match's bots as C choosers (random, greedy, heuristic,
and mcts and rollout on a deterministic budget, each possibly restricted) and
:meth:`Lineup.play` deals and plays a list of games without the GIL, handing
back per game only what a record needs.

Parity with the Python runner is the contract: the same games, action for action.
So every decision is made exactly as there -- on the mover's observation (other
hands and the draw pile unknown), by the same C choosers, drawing from the same
streams in the same order -- and the streams are numpy's own: SeedSequence's
hash of the spawn key and PCG64 (numpy keeps both streams fixed across releases),
computed here in C, because building a numpy generator costs 13 µs, three of them
per game, about what a whole random game costs.  ``pcg64_state`` shows a seeded
state, for the tests that compare it with numpy's.

>>> import numpy as np
>>> words = [7, 0, 0, 0, 3]  # SeedSequence(7, spawn_key=(3,)) assembled, as seeds.stream_words gives
>>> pcg64_state(words) == np.random.PCG64(np.random.SeedSequence(7, spawn_key=(3,))).state["state"]
True
"""

from libc.stdint cimport uint8_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcmp, memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_CheckSignals

from seqsolve._core cimport (
    u128, Tables, Tally, Game, CoreRules, rand_below, act_kind, act_card, act_cell,
    MAX_SEATS, MAX_SIDES, MAX_MOVES, N_CELLS, N_WINDOWS, UNKNOWN_CARD, ctz128,
    ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE, ACT_PASS, CARD_WILD, RESULT_NONE,
    deal, gen_actions, apply_action, uniform_action, tally_start, pcg_step, stream_bind,
)
from seqsolve._eval cimport Ctx, Weights, ScoreMemo, fill_weights, make_ctx, memo_clear, memo_moved, cells_around
from seqsolve._choose cimport (
    CellSums, N_WINDOW_KEYS, sums_packed, greedy_choice, greedy_kept, greedy_summed, heuristic_choice, sums_exact, sums_start, sums_moved,
)
from seqsolve._search cimport search_move
from seqsolve._rollout cimport rollout_move
from seqsolve._worlds cimport searches_halted
from seqsolve._search import Searcher
import threading


# ---------------------------------------------------------------- numpy's streams

# SeedSequence's constants (numpy/random/bit_generator.pyx) and PCG64's multiplier
cdef uint32_t INIT_A = 0x43b0d7e5
cdef uint32_t MULT_A = 0x931e8875
cdef uint32_t INIT_B = 0x8b51f9dd
cdef uint32_t MULT_B = 0x58f38ded
cdef uint32_t MIX_MULT_L = 0xca01f9dd
cdef uint32_t MIX_MULT_R = 0x4973f715

cdef enum:
    POOL_SIZE = 4  # SeedSequence's pool, in 32-bit words


cdef inline uint32_t hashmix(uint32_t value, uint32_t* hash_const) noexcept nogil:
    value ^= hash_const[0]
    hash_const[0] *= MULT_A
    value *= hash_const[0]
    value ^= value >> 16
    return value


cdef inline uint32_t mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y
    result ^= result >> 16
    return result


cdef void stream_seed(Stream* s, const uint32_t* entropy, int n) noexcept nogil:
    """``PCG64(SeedSequence(...))`` from the assembled entropy words of the SeedSequence
    (the root seed's words, zero-padded to the pool size, then the spawn key's)."""
    cdef uint32_t pool[POOL_SIZE]
    cdef uint32_t words[8]
    cdef uint32_t hash_const = INIT_A, value
    cdef uint64_t v[4]
    cdef u128 initstate, initseq
    cdef int i, j
    for i in range(POOL_SIZE):
        pool[i] = hashmix(entropy[i] if i < n else 0, &hash_const)
    for i in range(POOL_SIZE):
        for j in range(POOL_SIZE):
            if i != j:
                pool[j] = mix(pool[j], hashmix(pool[i], &hash_const))
    for i in range(POOL_SIZE, n):
        for j in range(POOL_SIZE):
            pool[j] = mix(pool[j], hashmix(entropy[i], &hash_const))
    # generate_state(4, uint64): eight words from the pool, read as little-endian pairs
    hash_const = INIT_B
    for i in range(8):
        value = pool[i % POOL_SIZE]
        value ^= hash_const
        hash_const *= MULT_B
        value *= hash_const
        value ^= value >> 16
        words[i] = value
    for i in range(4):
        v[i] = (<uint64_t>words[2 * i]) | ((<uint64_t>words[2 * i + 1]) << 32)
    initstate = ((<u128>v[0]) << 64) | v[1]
    initseq = ((<u128>v[2]) << 64) | v[3]
    s.pcg.state = 0
    s.pcg.inc = (initseq << 1) | 1
    pcg_step(&s.pcg)
    s.pcg.state += initstate
    pcg_step(&s.pcg)
    s.pcg.has_uint32 = 0
    s.pcg.uinteger = 0
    stream_bind(s)


cdef int key_words(uint32_t* out, int n, uint64_t part) noexcept nogil:
    """Append one spawn-key entry as SeedSequence reads an int (0 is one word)."""
    if part == 0:
        out[n] = 0
        return n + 1
    while part:
        out[n] = <uint32_t>part  # the low 32 bits
        part >>= 32
        n += 1
    return n


def pcg64_state(list entropy):
    """The 128-bit state of ``PCG64(SeedSequence)`` seeded from the SeedSequence's
    assembled entropy words (:func:`seqsolve.play.seeds.stream_words`)."""
    cdef Stream s
    cdef uint32_t words[256]
    cdef int i
    if len(entropy) > 256:
        raise ValueError("too many entropy words")
    for i in range(len(entropy)):
        words[i] = entropy[i]
    stream_seed(&s, words, len(entropy))
    return {"state": int(<uint64_t>(s.pcg.state >> 64)) << 64 | int(<uint64_t>s.pcg.state),
            "inc": int(<uint64_t>(s.pcg.inc >> 64)) << 64 | int(<uint64_t>s.pcg.inc)}


# ---------------------------------------------------------------- the bots as C choosers

cdef enum:
    BOT_RANDOM = 0
    BOT_GREEDY = 1
    BOT_HEURISTIC = 2
    BOT_MCTS = 3
    BOT_ROLLOUT = 4

#: the choosers by the names Lineup takes
KINDS = {"random": BOT_RANDOM, "greedy": BOT_GREEDY, "heuristic": BOT_HEURISTIC, "mcts": BOT_MCTS,
         "rollout": BOT_ROLLOUT}


ctypedef struct LoopBot:
    int kind
    int restrict                 # RESTRICT_* flags of a restricted bot, 0 for none
    bint summed                  # greedy: reads its placement values off cell sums (sums_exact)
    Ctx ctx                      # on the game's tables
    Ctx barred[MAX_SIDES]        # on the tables that bar side s (a restricted bot)
    void* searcher               # mcts, rollout: its Searcher (kept alive by Lineup.searchers)
    long iterations              # mcts: Searcher.search's budgets
    long long work
    int k, halve, policy         # rollout: Searcher.rollout_choice's arguments
    long long worlds


ctypedef struct Buffers:
    int32_t legal[MAX_MOVES]
    int32_t barred[MAX_MOVES]
    int32_t work[MAX_MOVES]
    bint main_thread             # Ctrl-C reaches a search on this thread (_worlds.keep_searching)
    # an unrestricted greedy bot's scores of cells, kept through a game per bot and side
    # (greedy_kept): forgotten around every chip placed or removed (memo_moved); a
    # summed bot's (greedy_summed) serve for one decision at a time
    int n_kept
    int kept_bot[MAX_SEATS]      # the bots that keep them
    ScoreMemo kept[MAX_SEATS][MAX_SIDES]
    # the cell sums of the summed greedy bots (LoopBot.summed), one per set of weights
    int n_sums
    int sums_of[MAX_SEATS]       # a bot's sums (-1: none)
    int sums_bot[MAX_SEATS]      # a bot whose ctx they follow
    CellSums sums[MAX_SEATS]
    CellSums empty_sums[MAX_SEATS]  # on the empty board, once made (empty_made)
    int packed[MAX_SEATS]           # sums_packed, and its table
    int64_t packed_terms[MAX_SEATS][2 * N_WINDOW_KEYS]
    bint empty_made[MAX_SEATS]
    uint8_t window_cells[N_WINDOWS * 5]
    Tally empty_tally            # the tally of a deal with no chip and no discard, once made
    bint tally_made


cdef inline void observe(const Tables* t, const Game* g, Game* view) noexcept nogil:
    """The mover's observation (State.observation): other hands and the draw pile
    unknown; the view is played with the bot's stream, never the game's."""
    cdef int s
    memcpy(view, g, sizeof(Game))
    for s in range(t.players):
        if s != g.to_move:
            memset(view.hand[s], UNKNOWN_CARD, view.hand_n[s])
    memset(view.draw, UNKNOWN_CARD, view.draw_n)
    view.draw_known = 0


cdef inline int32_t uniform(const int32_t* actions, int n, bitgen_t* rng) noexcept nogil:
    """``actions[rng.integers(n)]``: numpy draws nothing when there is one choice."""
    return actions[0] if n == 1 else actions[rand_below(rng, n)]


cdef int32_t pick(const LoopBot* b, const Ctx* ctx, const Game* view, bitgen_t* rng,
                  Buffers* bufs) except -2 nogil:
    """One unrestricted bot's action on ``view`` under ``ctx``'s tables, as its Python
    class chooses it."""
    if b.kind == BOT_GREEDY:
        return greedy_choice(ctx, view, rng, bufs.work)
    if b.kind == BOT_HEURISTIC:
        return heuristic_choice(ctx, view, rng, bufs.work)
    if b.kind == BOT_MCTS:
        return searched(search_move(b.searcher, ctx.t, view, rng, b.iterations, b.work, bufs.main_thread))
    if b.kind == BOT_ROLLOUT:
        return searched(rollout_move(b.searcher, ctx.t, view, rng, b.k, b.worlds, b.halve, b.policy,
                                     bufs.main_thread))
    return uniform(bufs.work, gen_actions(ctx.t, view, bufs.work), rng)


cdef int32_t searched(int32_t action) except -2 nogil:
    """A search's move, unless halt() stopped the searches: the Ctrl-C of a loop on
    another thread than the main one ends its match as Ctrl-C would."""
    if action < 0 or searches_halted():
        with gil:
            raise KeyboardInterrupt("the searches were halted")
    return action


cdef inline bint listed(int32_t action, const int32_t* actions, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if actions[i] == action:
            return 1
    return 0


cdef int32_t choose(const LoopBot* b, const Game* view, bitgen_t* rng, Buffers* bufs) except -2 nogil:
    """The bot's action on the mover's view; a restricted bot as RestrictedBot.choose:
    the inner bot on the barred tables when an action remains, else unrestricted."""
    cdef const Ctx* barred
    cdef int n_legal, n_allowed = 0, n, i
    cdef int32_t action
    if not b.restrict:
        if b.kind == BOT_RANDOM:  # the same choice as listing them (P-13 order), faster
            return uniform_action(b.ctx.t, view, rng, 0)
        return pick(b, &b.ctx, view, rng, bufs)
    barred = &b.barred[b.ctx.t.seat_side[view.to_move]]
    n_legal = gen_actions(b.ctx.t, view, bufs.legal)
    n = gen_actions(barred.t, view, bufs.barred)
    for i in range(n):
        if listed(bufs.barred[i], bufs.legal, n_legal):
            bufs.barred[n_allowed] = bufs.barred[i]
            n_allowed += 1
    if n_allowed == 0:
        return pick(b, &b.ctx, view, rng, bufs)
    action = pick(b, barred, view, rng, bufs)
    if listed(action, bufs.legal, n_legal):
        return action
    return uniform(bufs.barred, n_allowed, rng)  # a pass only the restriction made legal


# ---------------------------------------------------------------- one game

ctypedef struct Counts:
    # what GameDetail counts per action (seqsolve.games.sequence.tally)
    long decisions, legal, exchanges, two_eyed, one_eyed, passes, reshuffles


ctypedef struct Moves:
    int32_t* actions
    int n, capacity


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int record_move(Moves* m, int32_t action) noexcept nogil:
    cdef int32_t* grown
    if m.n == m.capacity:
        grown = <int32_t*>realloc(m.actions, 2 * m.capacity * sizeof(int32_t))
        if grown == NULL:
            return -1
        m.actions = grown
        m.capacity *= 2
    m.actions[m.n] = action
    m.n += 1
    return 0


cdef void count_action(const Tables* t, const Game* g, int32_t action, Counts* c, int32_t* buf) noexcept nogil:
    cdef int n = gen_actions(t, g, buf), kind = act_kind(action)
    c.legal += n
    c.decisions += n > 1
    if kind == ACT_EXCHANGE:
        c.exchanges += 1
    elif kind == ACT_PASS:
        c.passes += 1
    elif kind == ACT_REMOVE:
        c.one_eyed += 1
    elif t.card_kind[act_card(action)] == CARD_WILD:
        c.two_eyed += 1


cdef void kept_moved(const Tables* t, const LoopBot* bots, const Game* g, int32_t action, int seq_n,
                     Buffers* bufs) noexcept nogil:
    """After ``action``: the kept scores forget the cells around a chip placed or
    removed, and everything when a sequence was made (it bars windows and changes the
    sides' totals) or the heart's cells count (D-3); the cell sums follow the windows."""
    cdef int kind = act_kind(action), i, s, b
    cdef u128 cells
    if kind != ACT_PLACE and kind != ACT_REMOVE:
        return
    if bufs.n_kept:
        cells = cells_around(t, act_cell(action))
        if g.seq_n != seq_n or t.heart:
            cells = ~(<u128>0)
        for i in range(bufs.n_kept):
            b = bufs.kept_bot[i]
            for s in range(t.sides):
                memo_moved(&bufs.kept[b][s], cells)
    for i in range(bufs.n_sums):
        sums_moved(&bots[bufs.sums_bot[i]].ctx, g, &bufs.sums[i], act_cell(action))


def reads_counts(str kind):
    """Whether a bot of ``kind`` reads the window tally's open counts or threat windows
    (the heuristic's features and keys, ...), so that its games must keep them.  The
    random bot reads no tally, the greedy bot its fills and bars alone (place_value_tally,
    score_remove, a draft pick's place_value, its cell sums): games between them skip the
    counts, a third of a greedy game's work (issue 37).  Every other bot keeps them."""
    return kind not in ("random", "greedy")


cdef void start_tally(const Tables* t, Game* g, Buffers* bufs) noexcept nogil:
    """tally_start on a dealt game: a copy of the first one made when no chip is on the
    board and no card discarded (every deal of a match but a position's)."""
    cdef bint empty = (g.chips[0] | g.chips[1] | g.chips[2]) == 0 and g.seq_n == 0 and g.disc_n == 0
    if empty and bufs.tally_made:
        memcpy(&g.tally, &bufs.empty_tally, sizeof(Tally))
        return
    tally_start(t, g)
    if empty:
        memcpy(&bufs.empty_tally, &g.tally, sizeof(Tally))
        bufs.tally_made = 1


cdef void sums_begin(const Ctx* ctx, const Game* g, Buffers* bufs, int i) noexcept nogil:
    """Cell sums ``i`` made for the dealt game ``g``: a copy of those of the empty board
    when the board is empty (every deal of a match but a position's)."""
    cdef CellSums* cs = &bufs.sums[i]
    cdef bint empty = (g.chips[0] | g.chips[1] | g.chips[2]) == 0 and g.seq_n == 0
    if empty and bufs.empty_made[i]:
        # packed, the sums for more sides (the struct's tail) are not read
        memcpy(cs, &bufs.empty_sums[i],
               <size_t>(<char*>&cs.term[0][0] - <char*>cs) if bufs.packed[i] else sizeof(CellSums))
        return
    cs.window_cells = bufs.window_cells
    cs.packed = bufs.packed[i] > 0
    cs.removals = bufs.packed[i] > 1
    cs.packed_terms = bufs.packed_terms[i]
    sums_start(ctx, g, cs)
    if empty:
        memcpy(&bufs.empty_sums[i], cs, sizeof(CellSums))
        bufs.empty_made[i] = 1


cdef int play_one(const Tables* t, const LoopBot* bots, const int* seat_bot, Game* g, Game* view,
                  Stream* table, Stream* seats, Buffers* bufs, Moves* moves, Counts* counts) except -1 nogil:
    """Play a dealt game ``g`` to its end as play_game does; returns its actions
    (MemoryError when the move list cannot grow, KeyboardInterrupt from a search)."""
    cdef int seat, plies = 0, discards, seq_n, i, s
    cdef int32_t action
    cdef const LoopBot* bot
    for i in range(bufs.n_kept):
        for s in range(t.sides):
            memo_clear(&bufs.kept[bufs.kept_bot[i]][s])
    for i in range(bufs.n_sums):
        sums_begin(&bots[bufs.sums_bot[i]].ctx, g, bufs, i)
    while g.result == RESULT_NONE:
        seat = g.to_move
        bot = &bots[seat_bot[seat]]
        if bot.kind == BOT_RANDOM and not bot.restrict:
            # the random bot reads only the mover's cards, the board and the draft
            action = choose(bot, g, &seats[seat].bg, bufs)
        elif bot.kind == BOT_GREEDY and not bot.restrict:
            # so does the greedy bot (the board's windows and sequences besides)
            if bot.summed:
                action = greedy_summed(&bot.ctx, g, &seats[seat].bg, bufs.work,
                                       &bufs.kept[seat_bot[seat]][t.seat_side[seat]],
                                       &bufs.sums[bufs.sums_of[seat_bot[seat]]])
            else:
                action = greedy_kept(&bot.ctx, g, &seats[seat].bg, bufs.work,
                                     &bufs.kept[seat_bot[seat]][t.seat_side[seat]])
        else:
            observe(t, g, view)
            action = choose(bot, view, &seats[seat].bg, bufs)
        plies += 1
        if moves != NULL and record_move(moves, action) < 0:
            with gil:
                raise MemoryError()
        if counts != NULL:
            count_action(t, g, action, counts, bufs.legal)
            discards = g.disc_n
        seq_n = g.seq_n
        apply_action(t, g, action, &table.bg, NULL, -1)
        if bufs.n_kept or bufs.n_sums:
            kept_moved(t, bots, g, action, seq_n, bufs)
        # every action but a pass discards one card; a reshuffle empties the piles (C-29)
        if counts != NULL and g.disc_n < discards + (act_kind(action) != ACT_PASS):
            counts.reshuffles += 1
    return plies


# ---------------------------------------------------------------- Python door

cdef class Lineup:
    """The bots of a match as C choosers, on one game's tables.

    ``bots``: one ``(kind, weights, restrict)`` per bot of the match: ``kind`` a name of
    :data:`KINDS`, ``weights`` the overrides of ``_eval.default_weights`` the bot
    plays with, ``restrict`` the ``RESTRICT_*`` flags of a restricted bot (0: none).
    A searching bot gives its Searcher's arguments for ``weights`` instead: mcts
    ``{"params", "iterations", "work"}`` (Searcher's params and search's budgets),
    rollout ``{"params", "k", "worlds", "halve", "policy", "depth", "work"}`` (rollout_choice's).
    """

    cdef CoreRules rules
    cdef list tables          # the barred tables of restricted bots, kept alive
    cdef list searchers       # the Searchers of mcts and rollout bots, kept alive
    cdef LoopBot bots[MAX_SEATS]
    cdef int n_bots
    cdef bint tallied         # a bot reads the board's windows: keep the window tally
    cdef bint counting        # a bot reads the tally's open counts too (reads_counts)

    def __init__(self, CoreRules rules, list bots):
        cdef Weights w
        cdef CoreRules barred
        cdef int i, s
        if not 1 <= len(bots) <= MAX_SEATS:
            raise ValueError(f"give 1 to {MAX_SEATS} bots, not {len(bots)}")
        self.rules = rules
        self.tables = []
        self.searchers = []
        self.n_bots = len(bots)
        self.tallied = any(kind != "random" for kind, _, _ in bots)
        self.counting = any(reads_counts(kind) for kind, _, _ in bots)
        for i, (kind, weights, restrict) in enumerate(bots):
            if kind not in KINDS:
                raise ValueError(f"no compiled chooser {kind!r} (known: {', '.join(KINDS)})")
            self.bots[i].kind = KINDS[kind]
            self.bots[i].restrict = restrict
            if KINDS[kind] in (BOT_MCTS, BOT_ROLLOUT):
                self._searching(&self.bots[i], weights)
                weights = None  # a searcher's ctx serves only for its tables
            fill_weights(&w, weights, ())
            make_ctx(&self.bots[i].ctx, &rules.t, &w)
            self.bots[i].summed = (KINDS[kind] == BOT_GREEDY and not restrict and not rules.t.draft_mode
                                   and sums_exact(&self.bots[i].ctx))
            if restrict:
                for s in range(rules.t.sides):
                    barred = rules.restricted(s, restrict)
                    self.tables.append(barred)
                    make_ctx(&self.bots[i].barred[s], &barred.t, &w)

    @property
    def counted(self):
        """Whether the games keep the window tally's open counts and threat windows, or
        only its fills, bars and discards (Tally.fill_only): whether a bot of the lineup
        reads them (reads_counts)."""
        return bool(self.counting)

    @property
    def summed(self):
        """Per bot, whether it reads its placement values off cell sums kept through a
        game (an unrestricted greedy bot whose weights make them exact, outside the
        draft variant: greedy_summed) rather than computing them at each decision."""
        return [bool(self.bots[i].summed) for i in range(self.n_bots)]

    cdef _searching(self, LoopBot* bot, dict options):
        """A searching bot's Searcher and budget (see the class docstring)."""
        if bot.kind == BOT_MCTS:
            searcher = Searcher(options["params"])
            bot.iterations = options["iterations"]
            bot.work = options["work"]
            if bot.iterations <= 0 and bot.work <= 0:
                raise ValueError("give mcts a budget: iterations > 0 or work > 0")
        else:
            searcher = Searcher(options["params"])
            bot.k = options["k"]
            bot.worlds = options["worlds"]
            bot.halve = options["halve"]
            bot.policy = options["policy"]
            searcher.rollout_depth = options["depth"]
            searcher.rollout_work = options["work"]
            if bot.k < 1 or bot.worlds < 1:
                raise ValueError("give rollout k >= 1 and worlds >= 1")
        self.searchers.append(searcher)
        bot.searcher = <void*>searcher

    def play(self, list entropy, list games, bint moves=False, bint detail=False):
        """Deal and play ``games`` and return what their records need, in order.

        Args:
            entropy: the match's SeedSequence words before a game's key
                (:func:`seqsolve.play.seeds.stream_words`).
            games: ``(deal, game_of_deal, seat_bot)`` per game: the deal is shuffled by
                the stream ``(deal,)`` under ``entropy``, the bot on seat ``s`` (index
                ``seat_bot[s]`` of the lineup) draws from ``(deal, 1 + game_of_deal, s)``.
            moves: hand back every action of each game.
            detail: hand back what GameDetail counts (per action, and the final board).
        Returns:
            Per game ``(result, termination, turn, plies, seconds, actions, detail)``:
            the core's result and termination codes; ``actions`` a list or None;
            ``detail`` None or ``(counts, chips, sequences)`` as GameDetail records
            them: ``counts`` in its order, the cells of each side's chips, and
            ``[side, window]`` for every sequence in completion order.
        """
        cdef const Tables* t = &self.rules.t
        cdef int n_prefix = len(entropy), n_key, players = t.players, i, s, plies
        cdef int seat_bot[MAX_SEATS]
        cdef uint32_t* words = <uint32_t*>malloc((n_prefix + 8) * sizeof(uint32_t))
        cdef Buffers* bufs = <Buffers*>malloc(sizeof(Buffers))
        cdef Game g, view
        cdef Stream table
        cdef Stream seats[MAX_SEATS]
        cdef Moves played
        cdef Counts counts
        cdef uint64_t deal_no, game_of_deal
        cdef double started
        cdef u128 cells
        played.actions = <int32_t*>malloc(256 * sizeof(int32_t))
        played.capacity = 256
        out = []
        try:
            if words == NULL or bufs == NULL or played.actions == NULL:
                raise MemoryError()
            for i in range(n_prefix):
                words[i] = entropy[i]
            bufs.main_thread = threading.current_thread() is threading.main_thread()
            bufs.n_kept = 0
            bufs.tally_made = 0
            for i in range(N_WINDOWS):
                cells = t.window_mask[i]
                for s in range(5):
                    bufs.window_cells[5 * i + s] = ctz128(cells)
                    cells &= cells - 1
            bufs.n_sums = 0
            for i in range(self.n_bots):
                bufs.sums_of[i] = -1
                if self.bots[i].kind == BOT_GREEDY and not self.bots[i].restrict and not self.bots[i].summed:
                    bufs.kept_bot[bufs.n_kept] = i
                    bufs.n_kept += 1
                if self.bots[i].summed:
                    for s in range(bufs.n_sums):
                        if memcmp(&self.bots[bufs.sums_bot[s]].ctx.w, &self.bots[i].ctx.w, sizeof(Weights)) == 0:
                            bufs.sums_of[i] = s
                    if bufs.sums_of[i] < 0:
                        bufs.sums_of[i] = bufs.n_sums
                        bufs.sums_bot[bufs.n_sums] = i
                        bufs.empty_made[bufs.n_sums] = 0
                        bufs.packed[bufs.n_sums] = sums_packed(&self.bots[i].ctx, bufs.packed_terms[bufs.n_sums])
                        bufs.n_sums += 1
            for deal_no, game_of_deal, bots_of_seat in games:
                if len(bots_of_seat) != players:
                    raise ValueError(f"give a bot for each of the {players} seats")
                for s in range(players):
                    seat_bot[s] = bots_of_seat[s]
                    if not 0 <= seat_bot[s] < self.n_bots:
                        raise ValueError(f"no bot {seat_bot[s]} in a lineup of {self.n_bots}")
                played.n = 0
                memset(&counts, 0, sizeof(Counts))
                with nogil:
                    started = now()
                    n_key = key_words(words, n_prefix, deal_no)
                    stream_seed(&table, words, n_key)
                    n_key = key_words(words, n_key, 1 + game_of_deal)
                    for s in range(players):
                        stream_seed(&seats[s], words, key_words(words, n_key, s))
                    deal(t, &g, &table.bg)
                    if self.tallied:
                        start_tally(t, &g, bufs)
                        g.tally.fill_only = not self.counting
                    plies = play_one(t, self.bots, seat_bot, &g, &view, &table, seats, bufs,
                                     &played if moves else NULL, &counts if detail else NULL)
                    started = now() - started
                out.append((
                    g.result, g.termination, g.turn, plies, started,
                    [played.actions[i] for i in range(played.n)] if moves else None,
                    _detail(t, &g, &counts) if detail else None,
                ))
                PyErr_CheckSignals()  # Ctrl-C between games: a heuristic game lasts about a millisecond
        finally:
            free(words)
            free(bufs)
            free(played.actions)
        return out


cdef list _cells(u128 mask):
    cdef int cell
    return [cell for cell in range(N_CELLS) if (mask >> cell) & 1]


cdef tuple _detail(const Tables* t, const Game* g, const Counts* c):
    cdef int s, i
    counts = (c.decisions, c.legal, c.exchanges, c.two_eyed, c.one_eyed, c.passes, c.reshuffles)
    chips = [_cells(g.chips[s]) for s in range(t.sides)]
    sequences = [[g.seq_side[i], g.seq_window[i]] for i in range(g.seq_n)]
    return counts, chips, sequences
