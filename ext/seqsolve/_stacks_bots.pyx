# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Sequence Stacks bots in C, on the engine's ``StGame`` (ext/seqsolve/_stacks.pxd).

* :func:`random_action`: uniform over the legal actions.
* :func:`greedy_action`: the best action by a one-decision score (:func:`greedy_scores`,
  documented at ``st_greedy_score`` and in docs/stacks.md "Bots").
* :class:`StacksSearcher`: information-set MCTS (Cowling, Powley & Whitehouse 2012).
  Every iteration deals the cards the viewer cannot see anew (a world consistent
  with its observation, as ``StacksState.resample`` deals it), descends by UCB1
  with availability counts among the children legal in that world, expands one
  untried action (greedy's choice first) and plays the world out with greedy-with-ε;
  the result is scored from each seat's view.  The loop runs without the GIL.
  The bot decides with its flat search (:meth:`StacksSearcher.decide`): greedy's
  best few actions, every one played out by greedy in the same dealt worlds
  (common random numbers), so they are compared on the same luck of the deal; the
  budget goes in rounds that drop the worse half of them (sequential halving).
* :func:`play_game`: a whole game between these bots without the GIL (benchmarks
  and strength tests); a searching seat is given its observation only.
* :class:`Lineup`: the match runner's compiled loop, whole games dealt and played
  from numpy's own streams of a match (``seqsolve._loop``), the same games and
  records as the runner plays action by action.

A turn is many decisions (docs/stacks.md), so a search is one decision deep at its
root: a play, a discard, a block or a pass.

>>> import numpy as np
>>> from seqsolve.games.stacks.rules import make_rules
>>> from seqsolve.games.stacks.state import StacksState
>>> state = StacksState.new(make_rules("stacks", 2), seed=3)
>>> seen = state.observation(state.current_player)
>>> greedy_action(seen.core) in state.legal_actions()
True
>>> found = StacksSearcher().search(seen.core, state.current_player, np.random.PCG64(1), iterations=50)
>>> found["best"] in state.legal_actions(), found["iterations"]
(True, 50)
"""

from libc.math cimport exp, log, sqrt
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_CheckSignals
from numpy.random cimport bitgen_t

from seqsolve._core cimport rand_below
from seqsolve._loop cimport Stream as PcgStream, stream_seed, key_words
from seqsolve._stacks cimport (
    StTables, StGame, StacksCore, StacksTables,
    ST_KINDS, ST_MAX_SEATS, ST_FULL, ST_HAND, ST_DECK, ST_UNKNOWN, ST_BW, ST_RW, ST_SK, ST_RV, ST_SC, ST_SX, ST_BK,
    ST_ARGS, ST_PLAY_SPAN, ST_DISCARD, ST_BLOCK, ST_PASS, ST_END, ST_NUM_ACTIONS, ST_ONGOING, ST_DRAW,
    st_legal_actions, st_apply, st_random_action, st_current_player, st_deal,
    next_seat, wins, supply, target_pile, full_pile, bitgen_of,
)

cdef extern from "<time.h>" nogil:
    enum: CLOCK_THREAD_CPUTIME_ID

# ---------------------------------------------------------------- the greedy score

# Score bands: a decision takes the best-scoring legal action.  A play worth making
# scores above 0, every discard (the end of the turn) below -1000, and a play worth
# nothing now (it helps the opponents more, or spends a wild early) below every
# discard: it waits for a later turn.
cdef enum:
    S_WIN = 1000000       # a completion whose chip wins (ST-21)
    S_COMPLETE = 10000    # a completion that takes a chip (ST-9)
    S_CHAIN = 2000        # a build the hand can carry on to the 5 this turn
    S_SKIP = 300          # a Skip on the player about to win (every Skip with 2 players)
    S_BUILD = 20          # a build nobody finishes yet: one card fewer to hold, a fresh one drawn
    W_WILD = 60           # what spending a wild costs (keep it for the 5)
    S_DISCARD = -1000
    S_WAIT = -100000      # a play worth nothing now: below every discard, above nothing
    BLOCK_NEAR = 2        # block (when it matters) a chip that leaves the completer this near the win


cdef inline double danger(int after) noexcept nogil:
    """What a build that leaves a pile at ``after`` (1..4) offers the next players: a pile
    at 4 is one card from a chip for whoever holds its 5 or a wild."""
    if after == 4:
        return 400.0
    if after == 3:
        return 15.0
    return 4.0 if after == 2 else 0.0


cdef inline bint is_wild(int card) noexcept nogil:
    return card == ST_BW or card == ST_RW


cdef inline int colour_of(int card) noexcept nogil:
    return card // 6


cdef int st_chips_needed(const StTables* t, int blue, int red) noexcept nogil:
    """Chips a seat holding ``blue`` and ``red`` still needs to meet ST-21 (0: it has won)."""
    cdef int short = max(0, t.win_min_each - blue) + max(0, t.win_min_each - red)
    return max(short, t.win_chips - blue - red)


cdef inline int needed(const StTables* t, const StGame* g, int seat) noexcept nogil:
    return st_chips_needed(t, g.chips[seat][0], g.chips[seat][1])


cdef int least_needed(const StTables* t, const StGame* g, int but) noexcept nogil:
    """The fewest chips any seat other than ``but`` still needs: how close the leader is."""
    cdef int s, best = 1000
    for s in range(t.players):
        if s != but:
            best = min(best, needed(t, g, s))
    return best


cdef inline int discard_top(const StGame* g, int seat, int depth) noexcept nogil:
    """The card ``depth`` below the top of ``seat``'s discard pile, or -1."""
    return g.disc[seat][g.disc_n[seat] - 1 - depth] if g.disc_n[seat] > depth else -1


cdef bint pile_at(const StGame* g, int colour, int value) noexcept nogil:
    cdef int i
    for i in range(g.n_piles):
        if g.pile_colour[i] == colour and g.pile_n[i] == value:
            return 1
    return 0


cdef bint finishes(const uint8_t* hand, int top, int colour, int after) noexcept nogil:
    """Whether the numbers ``after + 1`` … 5 of ``colour`` can follow from ``hand`` and
    the discard top ``top``, wilds filling the gaps: a pile the player finishes itself."""
    cdef uint8_t left[ST_KINDS]
    cdef int v, card, wild = colour * 6 + 5
    memcpy(left, hand, ST_KINDS)
    for v in range(after + 1, ST_FULL + 1):
        card = colour * 6 + v - 1
        if left[card] > 0:
            left[card] -= 1
        elif top == card:
            top = -1
        elif left[wild] > 0:
            left[wild] -= 1
        else:
            return 0
    return 1


cdef double pile_play_score(const StTables* t, const StGame* g, int seat, int card, int arg, int src) noexcept nogil:
    """A number or wild to a pile: complete it (and win), build what the hand can finish,
    build low when nothing is finished; a wild only as the 5 or in a finishing run."""
    cdef int colour = colour_of(card), wild = is_wild(card)
    cdef int after = (arg if wild else card % 6) + 1, top
    cdef uint8_t hand[ST_KINDS]
    cdef double s
    if after == ST_FULL:
        if supply(t, g, colour) > 0:
            if wins(t, g.chips[seat][0] + (colour == 0), g.chips[seat][1] + (colour == 1)):
                s = S_WIN
            else:
                s = S_COMPLETE + 100.0 * (needed(t, g, seat) - st_chips_needed(
                    t, g.chips[seat][0] + (colour == 0), g.chips[seat][1] + (colour == 1)))
        else:  # no chip left of that colour: finishing only recycles cards (ST-22's stalled turn)
            s = -1.0
    else:
        memcpy(hand, g.hand[seat], ST_KINDS)
        if src:
            top = discard_top(g, seat, 1)
        else:
            hand[card] -= 1
            top = discard_top(g, seat, 0)
        if supply(t, g, colour) > 0 and finishes(hand, top, colour, after):
            s = S_CHAIN + 10.0 * after
        elif wild:
            s = -W_WILD
        else:
            s = S_BUILD - danger(after)
    if wild:
        s -= W_WILD
    return from_discard(s, src)


cdef inline double from_discard(double s, int src) noexcept nogil:
    """A worthwhile play from the discard top beats the same play from the hand: the hand
    keeps its card.  A play that waits keeps waiting."""
    return s + 1.0 if s > 0 and src else s


cdef double skip_score(const StTables* t, const StGame* g, int seat) noexcept nogil:
    """Skip the player about to win: with 2 players every Skip is a turn more; with more,
    only the next player leading the race (or one chip from the win) is worth it."""
    cdef int victim = next_seat(t, g, seat), need = needed(t, g, victim)
    if t.players == 2 or need <= 1 or need <= least_needed(t, g, victim):
        return S_SKIP + 10.0 * (ST_FULL - need)
    return -1.0


cdef double reverse_score(const StTables* t, const StGame* g, int seat) noexcept nogil:
    """Reverse when the next player is closer to winning than the previous one: it then
    plays last instead of first."""
    cdef int nxt = next_seat(t, g, seat)
    cdef int prv = (seat - g.direction + t.players) % t.players
    cdef int gap = needed(t, g, prv) - needed(t, g, nxt)
    return 100.0 + 50.0 * gap if gap > 0 else -1.0


cdef double card_use(const StTables* t, const StGame* g, int seat, int card) noexcept nogil:
    """What a card taken into the hand is worth now: a completion with a chip most, then a
    playable number, a wild, the action cards that matter; <= 0 for dead weight."""
    cdef int colour, v
    if card < 0:
        return -1.0
    if card < ST_SK:
        colour = colour_of(card)
        if is_wild(card):
            return 200.0 if pile_at(g, colour, 4) and supply(t, g, colour) > 0 else 50.0
        v = card % 6  # the pile value it needs
        if v == 4 and pile_at(g, colour, 4) and supply(t, g, colour) > 0:
            return 200.0
        return 30.0 if target_pile(t, g, colour, v) >= 0 else -1.0
    if card == ST_SX or card == ST_BK:
        return 50.0
    if card == ST_SK:
        return 30.0
    return -1.0


cdef double steal_card_score(const StTables* t, const StGame* g, int seat, int victim) noexcept nogil:
    """Steal a card when it is useful: to me, or (a completing card) to its owner, who may
    play its own discard top next turn."""
    cdef int top = discard_top(g, victim, 0)
    cdef double use = card_use(t, g, seat, top)
    if use <= 0:
        return -1.0
    if card_use(t, g, victim, top) >= 200.0:
        use += 100.0
    return use


cdef double steal_chip_score(const StTables* t, const StGame* g, int seat, int victim, int colour) noexcept nogil:
    """Steal a chip when it matters: it brings me closer to the win, or takes the victim
    further from it, weighed by how close the victim is (denying the leader)."""
    cdef int b = g.chips[seat][0], r = g.chips[seat][1]
    cdef int gain = needed(t, g, seat) - st_chips_needed(t, b + (colour == 0), r + (colour == 1))
    cdef int vb = g.chips[victim][0] - (colour == 0), vr = g.chips[victim][1] - (colour == 1)
    cdef int deny = st_chips_needed(t, vb, vr) - needed(t, g, victim)
    if gain <= 0 and deny <= 0:
        return -1.0
    return 200.0 * gain + 200.0 * deny + 20.0 * (ST_FULL - needed(t, g, victim))


cdef double block_score(const StTables* t, const StGame* g, const StGreedy* w, int seat) noexcept nogil:
    """Block a completion that gives the completer a chip: always (``block_all``), or when
    it matters: with the chip the completer would be at most two chips from the win."""
    cdef int completer = g.to_move, colour = g.pile_colour[full_pile(g)]
    cdef int after
    if supply(t, g, colour) == 0:
        return -1.0
    if w.block_all:
        return 100.0
    after = st_chips_needed(t, g.chips[completer][0] + (colour == 0), g.chips[completer][1] + (colour == 1))
    if after <= BLOCK_NEAR:
        return 100.0
    return -1.0


cdef double keep_value(const StTables* t, const StGame* g, int seat, int card) noexcept nogil:
    """What a card is worth in the hand for the turns to come (the discard gives up the least)."""
    cdef int colour, v, i
    cdef double s
    if is_wild(card):
        return 60.0
    if card == ST_BK:  # hold a Block while someone is one card from a chip
        return 80.0 if pile_at(g, 0, 4) or pile_at(g, 1, 4) else 45.0
    if card == ST_SX:
        return 40.0
    if card == ST_SK:
        return 25.0
    if card == ST_SC:
        return 15.0
    if card == ST_RV:
        return 8.0
    colour = colour_of(card)
    v = card % 6
    if target_pile(t, g, colour, v) >= 0:
        s = 30.0
    elif v == 0:
        s = 12.0
    else:
        s = 4.0
        for i in range(g.n_piles):
            if g.pile_colour[i] == colour and g.pile_n[i] < v:
                s = max(s, 10.0 + 3.0 * g.pile_n[i])
    if g.hand[seat][card] > 1:
        s -= 6.0
    return s


cdef double feed_value(const StTables* t, const StGame* g, int card) noexcept nogil:
    """What a discarded card offers the others: its top is public, Steal-a-Card takes it."""
    cdef int colour
    if card < ST_SK:
        colour = colour_of(card)
        if (is_wild(card) or card % 6 == 4) and pile_at(g, colour, 4):
            return 40.0
        if is_wild(card) or target_pile(t, g, colour, card % 6) >= 0:
            return 8.0
        return 0.0
    if card == ST_SX:
        return 10.0
    return 0.0


cdef double st_greedy_score(const StTables* t, const StGame* g, const StGreedy* w, int action) noexcept nogil:
    """The one-decision score of a legal ``action`` for the seat deciding now (higher first).

    Preferences, strongest first: a completion that wins (ST-21), then one that takes a
    chip; a build the hand (with the discard top) carries on to the 5 this turn; a
    Skip on the player about to win; a steal of a chip that brings the win closer or
    denies the leader (ST-19), of a card that is useful (ST-18); a low build.  Wilds
    are kept for the 5: a wild costs more than the number that does the same job.  A
    build that leaves a pile at 4 for the next players waits.  A Block (ST-15) is
    played on a completion that gives a chip, always or when it matters.  The turn
    ends with the discard of the card worth least in hand plus what it offers the next
    players (a discard top is public and Steal-a-Card takes it).
    """
    cdef int seat, card
    cdef double s
    if action == ST_BLOCK:
        return block_score(t, g, w, g.block_asked)
    if action == ST_PASS:
        return 0.0
    seat = g.to_move
    if action == ST_END:
        return S_DISCARD
    if action >= ST_DISCARD:
        card = action - ST_DISCARD
        return S_DISCARD - keep_value(t, g, seat, card) - feed_value(t, g, card)
    s = play_score(t, g, seat, action)
    return s if s > 0 else S_WAIT + s


cdef double play_score(const StTables* t, const StGame* g, int seat, int action) noexcept nogil:
    cdef int src = action // ST_PLAY_SPAN, rest = action % ST_PLAY_SPAN
    cdef int card = rest // ST_ARGS, arg = rest % ST_ARGS
    if card < ST_SK:
        return pile_play_score(t, g, seat, card, arg, src)
    if card == ST_SK:
        return from_discard(skip_score(t, g, seat), src)
    if card == ST_RV:
        return from_discard(reverse_score(t, g, seat), src)
    if card == ST_SC:
        return from_discard(steal_card_score(t, g, seat, arg), src)
    if card == ST_SX:
        return from_discard(steal_chip_score(t, g, seat, arg // 2, arg % 2), src)
    return -1.0


cdef int st_greedy_action(const StTables* t, const StGame* g, const StGreedy* w) noexcept nogil:
    """The legal action with the best score (the first, in action order, of equals); -1
    when there is none."""
    cdef int16_t buf[ST_NUM_ACTIONS]
    cdef int n = st_legal_actions(t, g, buf), i, best = -1
    cdef double s, top = -1e300
    for i in range(n):
        s = st_greedy_score(t, g, w, buf[i])
        if s > top:
            top = s
            best = buf[i]
    return best


cdef int st_policy_action(const StTables* t, const StGame* g, const StGreedy* w, double eps,
                          bitgen_t* rng) noexcept nogil:
    """Greedy with ε: a uniform legal action with probability ``eps``, else greedy's."""
    if eps > 0 and rng.next_double(rng.state) < eps:
        return st_random_action(t, g, rng)
    return st_greedy_action(t, g, w)


cdef void st_observe(const StTables* t, StGame* g, int viewer) noexcept nogil:
    """Forget what ``viewer`` cannot see (§4.8): the other hands and the draw pile, as
    ``StacksCore.mask_hidden`` does."""
    cdef int s, k
    for s in range(t.players):
        if s != viewer:
            for k in range(ST_KINDS):
                g.hand[s][k] = 0
            g.hand_unknown[s] = g.hand_n[s]
    memset(g.draw, ST_UNKNOWN, g.draw_n)


# ---------------------------------------------------------------- a replayable random stream

ctypedef struct Stream:
    bitgen_t gen
    uint64_t state


cdef uint64_t stream_next64(void* st) noexcept nogil:
    """SplitMix64 (Steele, Lea & Flood 2014): a tiny generator whose whole state is one
    number, so a stream can be started again from its seed."""
    cdef uint64_t* state = <uint64_t*>st
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef uint32_t stream_next32(void* st) noexcept nogil:
    return <uint32_t>(stream_next64(st) >> 32)


cdef double stream_next_double(void* st) noexcept nogil:
    return (stream_next64(st) >> 11) * (1.0 / 9007199254740992.0)


cdef void stream_start(Stream* s, uint64_t seed) noexcept nogil:
    """(Re)start ``s`` at ``seed``: the same seed draws the same numbers."""
    s.state = seed
    s.gen.state = &s.state
    s.gen.next_uint64 = stream_next64
    s.gen.next_uint32 = stream_next32
    s.gen.next_double = stream_next_double
    s.gen.next_raw = stream_next64


# ---------------------------------------------------------------- the tree search

cdef enum:
    MAX_PATH = 1024
    MAX_CANDIDATES = 16     # root actions a flat search compares at most
    SIGNAL_EVERY = 256      # iterations between two signal checks (Ctrl-C)

ctypedef struct StNode:
    int32_t child            # first child, or -1
    int32_t sibling          # next child of the same parent, or -1
    int16_t action
    int8_t actor             # the seat that chose ``action``
    uint32_t visits, avail
    double value             # sum of the actor's rewards


cdef void rewards(const StTables* t, const StGame* w, double* out) noexcept nogil:
    """Each seat's reward in [0, 1]: 1 to the winner; a draw shares equally; a cut-off
    playout shares by how few chips each seat still needs."""
    cdef int s, players = t.players
    cdef double total = 0
    if w.result != ST_ONGOING and w.result != ST_DRAW:
        for s in range(players):
            out[s] = 1.0 if s == w.result else 0.0
        return
    if w.result == ST_DRAW:
        for s in range(players):
            out[s] = 1.0 / players
        return
    for s in range(players):
        out[s] = exp(-1.0 * needed(t, w, s))
        total += out[s]
    for s in range(players):
        out[s] /= total


def evaluate(StacksCore core, int seat):
    """``seat``'s reward in ``core`` as a search scores a cut-off playout there: its share
    by how few chips each seat still needs (1 or 0 once won, 1/players in a draw)."""
    cdef double out[ST_MAX_SEATS]
    if not 0 <= seat < core.tables.t.players:
        raise ValueError(f"no seat {seat} in a game of {core.tables.t.players}")
    rewards(&core.tables.t, &core.g, out)
    return out[seat]


cdef int halted = 0  # set by halt(): every running search stops at its next check


def halt(bint stop=True):
    """Make every search running in this process return at its next check (every
    ``SIGNAL_EVERY`` iterations) with what it has, or (``stop=False``) let searches run
    again: Ctrl-C reaches only the main thread, and an analysis may search on others."""
    global halted
    halted = stop


cdef inline double cpu_now() noexcept nogil:
    """CPU seconds of the calling thread: a budget a loaded machine does not eat."""
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


def default_params():
    """The search's parameters and their defaults (see :class:`StacksSearcher`)."""
    return {"c": 0.7, "eps": 0.0, "depth": -1, "bias": 1.0, "margin": 1.0, "max_nodes": 200_000, "block_all": 1, "top": 6,
            "halve": 2}


cdef class StacksSearcher:
    """Information-set MCTS for one viewer (SO-ISMCTS) on the Stacks engine, in C, and
    the flat search over greedy's best actions the bot decides with (:meth:`decide`).

    Args:
        params: overrides of :func:`default_params`:

            * ``c``: UCB1 exploration constant (rewards are in [0, 1]).
            * ``eps``: the playouts' chance of a uniform action instead of greedy's.
            * ``depth``: playout actions before the position is scored by the chips
              each seat still needs (-1: play to the end).
            * ``bias``: progressive bias toward greedy's choice, ``bias / (visits+1)``.
            * ``margin``: play greedy's choice unless the most visited action's mean
              (flat: the best mean gain over greedy's choice, paired by world) beats it
              by this many standard errors (0: the most visited or best, always).
            * ``max_nodes``: most tree nodes kept (the tree stops growing there).
            * ``block_all``: the greedy policy's Block setting (see greedy_action).
            * ``top``: the candidates of :meth:`decide`'s flat search, greedy's best
              ``top`` actions (0: :meth:`decide` searches with the tree).
            * ``halve``: in games of at most this many players the flat search
              spends its budget in rounds (sequential halving): after each, the worse
              half of the candidates other than greedy's choice stops being played
              out, so the close ones get the most worlds (0: never, every candidate
              in every world).
    """

    cdef StNode* nodes
    cdef int n_nodes, cap, max_nodes, depth, top
    cdef int n_cand                  # root candidates of a flat search (0: the tree)
    cdef int n_live, rounds, round   # candidates still played out; halving rounds planned, and ended
    cdef int halve_players
    cdef uint8_t live[MAX_CANDIDATES]
    cdef long iter_cap               # the search's iterations at most (0: none)
    cdef double time_cap, time_start # its CPU seconds at most (0: none), from this clock reading
    cdef int16_t cand[MAX_CANDIDATES]
    cdef int32_t cand_node[MAX_CANDIDATES]
    cdef double diff_sum[MAX_CANDIDATES]
    cdef double diff_sq[MAX_CANDIDATES]  # of each candidate's result minus greedy's choice's, per world
    cdef double c, eps, bias, margin
    cdef long work, work_cap         # playout actions played this search, and its cap (0: none)
    cdef double last_clock, longest  # the CPU clock's last reading and the longest iteration, this search
    cdef StGreedy greedy
    cdef const StTables* t
    cdef StGame base
    cdef int viewer
    cdef uint8_t pool[ST_DECK]
    cdef int n_pool
    cdef uint32_t stamp[ST_NUM_ACTIONS]
    cdef int32_t slot[ST_NUM_ACTIONS]
    cdef uint32_t generation
    cdef int16_t buf[ST_NUM_ACTIONS]
    cdef int16_t untried[ST_NUM_ACTIONS]
    cdef int32_t path[MAX_PATH]
    cdef object _params

    def __cinit__(self):
        self.nodes = NULL
        self.cap = 0

    def __init__(self, params=None):
        p = default_params()
        for key, value in (params or {}).items():
            if key not in p:
                raise ValueError(f"unknown search parameter {key!r} (known: {', '.join(p)})")
            p[key] = value
        self.c = p["c"]
        self.eps = p["eps"]
        self.depth = p["depth"]
        self.bias = p["bias"]
        self.margin = p["margin"]
        self.max_nodes = max(16, int(p["max_nodes"]))
        self.top = min(MAX_CANDIDATES, max(0, int(p["top"])))
        self.halve_players = int(p["halve"])
        self.greedy.block_all = int(p["block_all"])
        self._params = p
        self.generation = 0
        memset(self.stamp, 0, sizeof(self.stamp))

    def __dealloc__(self):
        free(self.nodes)

    @property
    def params(self):
        """The parameters in use (:func:`default_params` with the overrides given)."""
        return dict(self._params)

    # -- worlds
    cdef int prepare(self, const StTables* t, const StGame* obs, int viewer) except -1:
        """Keep the observation and the unseen cards a world deals into its unknown slots
        (hands, draw pile, set-aside cards known by count only)."""
        cdef int seen[ST_KINDS]
        cdef int k, s, i, slots = 0, known_aside = 0
        self.t = t
        self.viewer = viewer
        memcpy(&self.base, obs, sizeof(StGame))
        memset(seen, 0, sizeof(seen))
        for s in range(t.players):
            for k in range(ST_KINDS):
                seen[k] += obs.hand[s][k]
            slots += obs.hand_unknown[s]
            for i in range(obs.disc_n[s]):
                seen[obs.disc[s][i]] += 1
        for k in range(ST_KINDS):
            seen[k] += obs.special[k] + obs.aside[k]
            known_aside += obs.aside[k]
        for i in range(obs.n_piles):
            for k in range(obs.pile_n[i]):
                seen[obs.pile[i][k]] += 1
        for i in range(obs.draw_n):
            if obs.draw[i] == ST_UNKNOWN:
                slots += 1
            else:
                seen[obs.draw[i]] += 1
        slots += obs.aside_n - known_aside
        self.n_pool = 0
        for k in range(ST_KINDS):
            if seen[k] > t.deck[k]:
                raise ValueError("inconsistent position: a card is seen more often than the deck holds it")
            for i in range(t.deck[k] - seen[k]):
                self.pool[self.n_pool] = k
                self.n_pool += 1
        if self.n_pool != slots:
            raise ValueError(f"inconsistent position: {slots} hidden cards but {self.n_pool} cards unseen by seat {viewer}")
        return 0

    cdef void deal_world(self, StGame* w, bitgen_t* rng) noexcept nogil:
        """A world: the observation with its unknown slots dealt from the shuffled unseen cards."""
        cdef int i, j, s, n = 0, known_aside = 0, k
        cdef uint8_t tmp
        memcpy(w, &self.base, sizeof(StGame))
        for i in range(self.n_pool - 1, 0, -1):
            j = rand_below(rng, i + 1)
            tmp = self.pool[i]
            self.pool[i] = self.pool[j]
            self.pool[j] = tmp
        for s in range(self.t.players):
            for i in range(w.hand_unknown[s]):
                w.hand[s][self.pool[n]] += 1
                n += 1
            w.hand_unknown[s] = 0
        for i in range(w.draw_n):
            if w.draw[i] == ST_UNKNOWN:
                w.draw[i] = self.pool[n]
                n += 1
        for k in range(ST_KINDS):
            known_aside += w.aside[k]
        for i in range(w.aside_n - known_aside):
            w.aside[self.pool[n]] += 1
            n += 1

    # -- the tree
    cdef int new_node(self, int parent, int action, int actor) noexcept nogil:
        cdef int i = self.n_nodes
        cdef StNode* grown
        if i >= self.cap:
            grown = <StNode*>realloc(self.nodes, 2 * self.cap * sizeof(StNode))
            if grown == NULL:
                return -1
            self.nodes = grown
            self.cap *= 2
        self.n_nodes += 1
        self.nodes[i].child = -1
        self.nodes[i].sibling = -1
        self.nodes[i].action = action
        self.nodes[i].actor = actor
        self.nodes[i].visits = 0
        self.nodes[i].avail = 0
        self.nodes[i].value = 0
        if parent >= 0:
            self.nodes[i].sibling = self.nodes[parent].child
            self.nodes[parent].child = i
        return i

    cdef void play_out(self, StGame* w, bitgen_t* rng) noexcept nogil:
        """Greedy-with-ε for every seat, to the end or for ``depth`` actions."""
        cdef int plies = 0, a
        while w.result == ST_ONGOING and (self.depth < 0 or plies < self.depth):  # every game ends (ST-22)
            a = st_policy_action(self.t, w, &self.greedy, self.eps, rng)
            if a < 0:
                break
            st_apply(self.t, w, a, rng)
            plies += 1
        self.work += plies

    cdef void iterate(self, bitgen_t* rng) noexcept nogil:
        cdef StGame w
        cdef const StTables* t = self.t
        cdef int node = 0, plen = 1, n, i, a, ch, best, u, player, g_act
        cdef double score, top, mean
        cdef double reward[ST_MAX_SEATS]
        cdef StNode* nd
        self.deal_world(&w, rng)
        self.path[0] = 0
        while w.result == ST_ONGOING and plen < MAX_PATH:
            n = st_legal_actions(t, &w, self.buf)
            if n == 0:
                break
            player = st_current_player(&w)
            self.generation += 1
            ch = self.nodes[node].child
            while ch >= 0:
                self.stamp[self.nodes[ch].action] = self.generation
                self.slot[self.nodes[ch].action] = ch
                ch = self.nodes[ch].sibling
            g_act = st_greedy_action(t, &w, &self.greedy) if n > 1 else self.buf[0]
            u = 0
            best = -1
            top = -1e300
            for i in range(n):
                a = self.buf[i]
                if self.stamp[a] != self.generation:
                    self.untried[u] = a
                    u += 1
                    continue
                nd = &self.nodes[self.slot[a]]
                nd.avail += 1
                mean = nd.value / nd.visits
                score = mean + self.c * sqrt(log(<double>nd.avail) / nd.visits)
                if a == g_act:
                    score += self.bias / (nd.visits + 1)
                if score > top:
                    top = score
                    best = self.slot[a]
            if u > 0 and self.n_nodes < self.max_nodes:
                a = g_act if self.stamp[g_act] != self.generation else self.untried[rand_below(rng, u)]
                ch = self.new_node(node, a, player)
                if ch < 0:
                    break
                self.nodes[ch].avail = 1
                st_apply(t, &w, a, rng)
                self.path[plen] = ch
                plen += 1
                break
            if best < 0:
                break
            st_apply(t, &w, self.nodes[best].action, rng)
            node = best
            self.path[plen] = node
            plen += 1
        self.play_out(&w, rng)
        rewards(t, &w, reward)
        self.nodes[0].visits += 1
        for i in range(1, plen):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            nd.value += reward[nd.actor]

    # -- the flat search
    cdef int pick_candidates(self, long iterations, double seconds, double start) noexcept nogil:
        """Greedy's choice and the next best by greedy's score, ``top`` in all, as root
        children, and the halving rounds of the budget (``iterations``, ``seconds`` from
        ``start``, ``work_cap``); returns how many (the legal actions, if fewer)."""
        cdef int n = st_legal_actions(self.t, &self.base, self.buf), i, j, best, left
        cdef double score[ST_NUM_ACTIONS]
        cdef double top
        for i in range(n):
            score[i] = st_greedy_score(self.t, &self.base, &self.greedy, self.buf[i])
        self.n_cand = 0
        while self.n_cand < min(n, self.top):
            best = -1
            for i in range(n):
                if score[i] > -1e300 and (best < 0 or score[i] > top):
                    best = i
                    top = score[i]
            score[best] = -1e301
            j = self.n_cand
            self.cand[j] = self.buf[best]
            self.cand_node[j] = self.new_node(0, self.buf[best], self.viewer)
            self.diff_sum[j] = 0
            self.diff_sq[j] = 0
            self.live[j] = 1
            self.n_cand += 1
        self.n_live = self.n_cand
        self.iter_cap, self.time_cap, self.time_start = iterations, seconds, start
        self.rounds, self.round, left = 1, 0, self.n_cand
        while self.t.players <= self.halve_players and left > 2:
            left = (left + 1) // 2
            self.rounds += 1
        return self.n_cand

    cdef double spent(self) noexcept nogil:
        """The share of the budget spent: of the work when it is counted (the same on any
        machine), else of the iterations, else of the CPU time."""
        if self.work_cap > 0:
            return <double>self.work / self.work_cap
        if self.iter_cap > 0:
            return <double>self.nodes[0].visits / self.iter_cap
        return (cpu_now() - self.time_start) / self.time_cap

    cdef double gain(self, int j) noexcept nogil:
        """Candidate ``j``'s mean result minus greedy's choice's, over the worlds it met."""
        cdef uint32_t n = self.nodes[self.cand_node[j]].visits
        return self.diff_sum[j] / n if n else 0.0

    cdef void halve(self) noexcept nogil:
        """End a round: keep greedy's choice and the better half of the others by their
        mean gain over it (the first of equals), half of the candidates in all."""
        cdef int j, k, better, others = (self.n_live + 1) // 2 - 1
        cdef uint8_t keep[MAX_CANDIDATES]
        for j in range(1, self.n_cand):
            better = 0
            for k in range(1, self.n_cand):
                if self.live[k] and k != j and (self.gain(k) > self.gain(j) or (self.gain(k) == self.gain(j) and k < j)):
                    better += 1
            keep[j] = self.live[j] and better < others
        for j in range(1, self.n_cand):
            self.live[j] = keep[j]
        self.n_live = others + 1

    cdef void compare(self, bitgen_t* rng) noexcept nogil:
        """One world for every candidate (common random numbers): the same unseen cards and
        the same random stream after each, so a difference between two candidates' results
        is the difference the choice makes in that world, not the luck of two worlds."""
        cdef StGame world, w
        cdef Stream stream
        cdef uint64_t seed
        cdef double reward[ST_MAX_SEATS]
        cdef double first = 0, d
        cdef int j
        cdef StNode* nd
        while self.round < self.rounds - 1 and self.spent() >= (self.round + 1.0) / self.rounds:
            self.halve()
            self.round += 1
        self.deal_world(&world, rng)
        seed = rng.next_uint64(rng.state)
        for j in range(self.n_cand):
            if not self.live[j]:
                continue
            memcpy(&w, &world, sizeof(StGame))
            stream_start(&stream, seed)
            st_apply(self.t, &w, self.cand[j], &stream.gen)
            self.play_out(&w, &stream.gen)
            rewards(self.t, &w, reward)
            nd = &self.nodes[self.cand_node[j]]
            nd.visits += 1
            nd.avail += 1
            nd.value += reward[self.viewer]
            if j == 0:
                first = reward[self.viewer]
            d = reward[self.viewer] - first
            self.diff_sum[j] += d
            self.diff_sq[j] += d * d
        self.nodes[0].visits += 1

    cdef int flat_best(self) noexcept nogil:
        """The candidate still played out whose mean gain over greedy's choice, paired by
        world, is largest among those that beat it by ``margin`` standard errors; else
        greedy's choice."""
        cdef int j, best = 0
        cdef double n, mean, var, top = 0
        for j in range(1, self.n_cand):
            n = self.nodes[self.cand_node[j]].visits
            if not self.live[j] or n < 2:
                continue
            mean = self.diff_sum[j] / n
            if mean <= top:
                continue
            var = max(0.0, (self.diff_sq[j] - self.diff_sum[j] * mean) / (n - 1))
            if mean > self.margin * sqrt(var / n):
                top = mean
                best = j
        return self.cand[best]

    cdef long run(self, bitgen_t* rng, long iterations, double seconds, double start) noexcept nogil:
        """Iterate until ``iterations`` (0: no cap), ``work_cap`` playout actions (0: no
        cap) or ``seconds`` of this thread's CPU since ``start`` (0: no limit); returns
        the iterations made.  The clock is read after every iteration, and an iteration
        starts only if the longest one so far still fits in the budget: the budget is a
        cap, not a target."""
        cdef long it = 0
        cdef double now
        if self.last_clock < start:
            self.last_clock = start
        while (iterations <= 0 or it < iterations) and (self.work_cap <= 0 or self.work < self.work_cap):
            if seconds > 0:
                now = cpu_now()
                self.longest = max(self.longest, now - self.last_clock)
                self.last_clock = now
                if now - start + self.longest >= seconds:
                    break
            if self.n_cand:
                self.compare(rng)
            else:
                self.iterate(rng)
            it += 1
        return it

    cdef int begin(self, const StTables* t, const StGame* obs, int viewer, long work) except -1:
        """A fresh tree for the observation ``obs`` of ``viewer``, ``work`` playout actions
        to spend at most (0: no cap)."""
        self.prepare(t, obs, viewer)
        self.work = 0
        self.work_cap = work
        if self.nodes == NULL:
            self.cap = 1024
            self.nodes = <StNode*>malloc(self.cap * sizeof(StNode))
            if self.nodes == NULL:
                raise MemoryError()
        self.n_nodes = 0
        self.new_node(-1, -1, -1)
        self.last_clock = 0
        self.longest = 0
        self.n_cand = 0
        return 0

    cdef int best_action(self) noexcept nogil:
        """The most visited root child legal in the observation (equal visits: the better
        mean); -1 without one."""
        cdef int n, i, ch, best = -1
        cdef uint32_t most = 0
        cdef double mean, best_mean = -1
        if self.n_cand:
            return self.flat_best()
        n = st_legal_actions(self.t, &self.base, self.buf)
        self.generation += 1
        for i in range(n):
            self.stamp[self.buf[i]] = self.generation
        ch = self.nodes[0].child
        while ch >= 0:
            if n == 0 or self.stamp[self.nodes[ch].action] == self.generation:
                mean = self.nodes[ch].value / self.nodes[ch].visits if self.nodes[ch].visits else 0
                if self.nodes[ch].visits > most or (self.nodes[ch].visits == most and mean > best_mean):
                    most = self.nodes[ch].visits
                    best_mean = mean
                    best = self.nodes[ch].action
            ch = self.nodes[ch].sibling
        if best < 0 and n > 0:
            best = self.buf[0]
        return self.unless_sure(best) if self.margin > 0 and n > 0 else best

    cdef int unless_sure(self, int best) noexcept nogil:
        """Greedy's own choice, unless the search's ``best`` beats it by ``margin`` standard
        errors: most decisions of a turn change little, and a search that picks among
        near-equals by noise gives away what greedy keeps."""
        cdef int keep = st_greedy_action(self.t, &self.base, &self.greedy), ch = self.nodes[0].child
        cdef StNode* mine = NULL
        cdef StNode* theirs = NULL
        while ch >= 0:
            if self.nodes[ch].action == best:
                mine = &self.nodes[ch]
            if self.nodes[ch].action == keep:
                theirs = &self.nodes[ch]
            ch = self.nodes[ch].sibling
        if mine == NULL or theirs == NULL or mine == theirs or theirs.visits == 0:
            return best
        if (mine.value / mine.visits - theirs.value / theirs.visits
                > self.margin * sqrt(0.25 / mine.visits + 0.25 / theirs.visits)):
            return best
        return keep

    cdef int single_action(self) noexcept nogil:
        """The only legal action of the observation when there is exactly one, else -1."""
        if st_legal_actions(self.t, &self.base, self.buf) == 1:
            return self.buf[0]
        return -1

    def decide(self, StacksCore observation, int viewer, bit_generator, long iterations=0, double seconds=0,
               long work=0):
        """The bot's decision: :meth:`search`'s arguments and answer, but with ``top`` > 0 a
        flat search over greedy's best ``top`` actions in common worlds (the other
        decisions stay untried; every candidate still in the race is played out in
        every iteration)."""
        return self.searched(observation, viewer, bit_generator, iterations, seconds, work, self.top > 0)

    def search(self, StacksCore observation, int viewer, bit_generator, long iterations=0, double seconds=0,
               long work=0):
        """Search the decision of ``viewer`` (the seat deciding now) in its observation
        with the tree, which tries every legal decision (an analysis ranks them all).

        Args:
            observation: what ``viewer`` may see (``StacksState.observation(viewer).core``);
                cards it does not know are dealt anew in every iteration.
            viewer: the searching seat.
            bit_generator: a numpy BitGenerator driving worlds, tree and playouts.
            iterations: stop after this many iterations (0: no cap).
            seconds: stop after this many seconds of this thread's CPU time (0: no limit);
                no iteration starts that the longest so far would carry past it.
            work: stop after the iteration that brings the playout actions played to
                this many (0: no cap): a budget that ends at the same iteration on any
                machine.  At least one budget is needed.
        Returns:
            ``{"iterations", "seconds", "work", "nodes", "best", "value" (the viewer's mean
            reward over the iterations), "actions": [(action, visits, mean reward of
            viewer), ...]}`` sorted by visits, best first.  A single legal action comes
            back at once with 0 iterations.  After :func:`halt` the search returns
            within ``SIGNAL_EVERY`` iterations with what it has.
        Raises:
            ValueError: a finished game, no budget, a viewer not deciding now, or an
                inconsistent position.
        """
        return self.searched(observation, viewer, bit_generator, iterations, seconds, work, False)

    cdef dict searched(self, StacksCore observation, int viewer, bit_generator, long iterations, double seconds,
                       long work, bint flat):
        cdef const StTables* t = &observation.tables.t
        cdef bitgen_t* rng = bitgen_of(bit_generator)
        cdef long it = 0, chunk, done
        cdef double start = cpu_now()
        cdef int best
        if observation.g.result != ST_ONGOING:
            raise ValueError("the game is over: nothing to search")
        if viewer != st_current_player(&observation.g):
            raise ValueError(f"seat {viewer} does not decide now (seat {st_current_player(&observation.g)} does)")
        if iterations <= 0 and seconds <= 0 and work <= 0:
            raise ValueError("give a budget: iterations > 0, seconds > 0 or work > 0")
        self.begin(t, &observation.g, viewer, work)
        best = self.single_action()
        if best < 0:
            if flat:
                self.pick_candidates(iterations, seconds, start)
            with bit_generator.lock:
                while iterations <= 0 or it < iterations:
                    chunk = SIGNAL_EVERY if iterations <= 0 else min(SIGNAL_EVERY, iterations - it)
                    with nogil:
                        done = self.run(rng, chunk, seconds, start)
                    it += done
                    PyErr_CheckSignals()
                    if done < chunk or halted:  # the time is spent, or halt() was called
                        break
            best = self.best_action()
        out = []
        visits, value = 0, 0.0
        ch = self.nodes[0].child
        while ch >= 0:
            nd = self.nodes[ch]
            out.append((nd.action, nd.visits, nd.value / nd.visits if nd.visits else float("nan")))
            visits += nd.visits
            value += nd.value
            ch = nd.sibling
        out.sort(key=lambda x: (-x[1], -x[2], x[0]))
        return {
            "iterations": it,
            "seconds": cpu_now() - start,
            "work": self.work,
            "nodes": self.n_nodes,
            "best": best,
            "value": value / visits if visits else float("nan"),
            "actions": out,
        }

    def root_stats(self, int pv_length=12):
        """Per root action of the last search with visits, most visited first: ``{"action",
        "visits", "value" (the viewer's mean reward), "pv" (the action, then the most
        visited child below it, up to ``pv_length`` actions)}``.

        A line below the root mixes worlds: a deeper action was legal in the worlds that
        reached it, not necessarily in the one the viewer is in."""
        cdef int ch
        stats = []
        if self.nodes == NULL:
            return stats
        ch = self.nodes[0].child
        while ch >= 0:
            if self.nodes[ch].visits:
                stats.append({
                    "action": self.nodes[ch].action,
                    "visits": self.nodes[ch].visits,
                    "value": self.nodes[ch].value / self.nodes[ch].visits,
                    "pv": self.line(ch, pv_length),
                })
            ch = self.nodes[ch].sibling
        stats.sort(key=lambda d: (-d["visits"], -d["value"], d["action"]))
        return stats

    cdef list line(self, int node, int length):
        """``node``'s action and then, as long as there are children, the most visited one's."""
        cdef int ch, best
        pv = []
        while node >= 0 and len(pv) < length:
            pv.append(self.nodes[node].action)
            best = -1
            ch = self.nodes[node].child
            while ch >= 0:
                if self.nodes[ch].visits and (best < 0 or self.nodes[ch].visits > self.nodes[best].visits):
                    best = ch
                ch = self.nodes[ch].sibling
            node = best
        return pv

    cdef int choose(self, const StTables* t, const StGame* obs, int viewer, bitgen_t* rng,
                    long iterations, double seconds, long work) except -2:
        """:meth:`decide` in the compiled game loop, its generator's lock already held: one
        decision, the iterations without the GIL."""
        cdef double start = cpu_now()
        cdef int best
        self.begin(t, obs, viewer, work)
        if self.single_action() >= 0:
            return self.buf[0]
        if self.top > 0:
            self.pick_candidates(iterations, seconds, start)
        with nogil:
            self.run(rng, iterations, seconds, start)
            best = self.best_action()
        if halted:
            raise KeyboardInterrupt("the searches were halted")
        return best


# ---------------------------------------------------------------- the Python door

def random_action(StacksCore core, bit_generator):
    """A uniform legal action of the seat deciding in ``core`` (-1 when there is none)."""
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    with bit_generator.lock:
        return st_random_action(&core.tables.t, &core.g, rng)


cdef StGreedy greedy_settings(bint block_all):
    cdef StGreedy w
    w.block_all = block_all
    return w


def greedy_action(StacksCore core, bint block_all=True):
    """Greedy's action for the seat deciding in ``core`` (-1 when there is none); it reads
    only that seat's hand and the public cards, so an observation gives the same."""
    cdef StGreedy w = greedy_settings(block_all)
    return st_greedy_action(&core.tables.t, &core.g, &w)


def greedy_scores(StacksCore core, bint block_all=True):
    """Every legal action with greedy's score, best first (ties: action order)."""
    cdef StGreedy w = greedy_settings(block_all)
    cdef int16_t buf[ST_NUM_ACTIONS]
    cdef int n = st_legal_actions(&core.tables.t, &core.g, buf)
    scored = [(buf[i], st_greedy_score(&core.tables.t, &core.g, &w, buf[i])) for i in range(n)]
    scored.sort(key=lambda x: -x[1])
    return scored


# seat kinds of play_game
cdef enum:
    SEAT_RANDOM = 0
    SEAT_GREEDY = 1
    SEAT_MCTS = 2


def play_game(StacksTables tables, deal_bit_generator, bot_bit_generator, list seats):
    """Deal with ``deal_bit_generator`` and play one game to its end without the GIL.

    ``seats`` gives each seat's bot: ``"random"``, ``"greedy"``, ``"greedy-matters"`` (its
    Blocks only when they matter),
    or ``(StacksSearcher, iterations, seconds[, work])``; a searching seat sees only its
    observation.  The same deal generator state deals the same cards, so a deal can be
    replayed with the seats rotated.

    Returns:
        ``(result, turns, moves)``: the winning seat or 6 for a draw, completed turns,
        and per seat ``(searches, CPU seconds in all, worst CPU seconds)``.
    """
    cdef const StTables* t = &tables.t
    cdef int players = t.players, s, a, seat
    cdef int kind[ST_MAX_SEATS]
    cdef long iters[ST_MAX_SEATS], work[ST_MAX_SEATS]
    cdef double secs[ST_MAX_SEATS], spent[ST_MAX_SEATS], worst[ST_MAX_SEATS], start, took
    cdef long searches[ST_MAX_SEATS]
    cdef StGreedy greedy[ST_MAX_SEATS]
    cdef StacksSearcher me
    cdef StGame g, obs
    cdef bitgen_t* deal_rng = bitgen_of(deal_bit_generator)
    cdef bitgen_t* bot_rng = bitgen_of(bot_bit_generator)
    if len(seats) != players:
        raise ValueError(f"{players} seats need {players} bots, not {len(seats)}")
    for s, spec in enumerate(seats):
        greedy[s] = greedy_settings(spec != "greedy-matters")
        spent[s] = worst[s] = 0
        searches[s] = 0
        if spec == "random":
            kind[s] = SEAT_RANDOM
        elif spec in ("greedy", "greedy-matters"):
            kind[s] = SEAT_GREEDY
        elif isinstance(spec, tuple) and isinstance(spec[0], StacksSearcher):
            kind[s] = SEAT_MCTS
            iters[s], secs[s] = spec[1], spec[2]
            work[s] = spec[3] if len(spec) > 3 else 0
            if iters[s] <= 0 and secs[s] <= 0 and work[s] <= 0:
                raise ValueError("a searching seat needs a budget")
        else:
            raise ValueError(f"unknown seat bot {spec!r}")
    if deal_bit_generator is bot_bit_generator:
        raise ValueError("the deal and the bots need two bit generators")
    with deal_bit_generator.lock, bot_bit_generator.lock:
        with nogil:
            st_deal(t, &g, deal_rng)
            while g.result == ST_ONGOING:  # max_turns and the stalled turn end every game (ST-22)
                seat = st_current_player(&g)
                if kind[seat] == SEAT_RANDOM:
                    a = st_random_action(t, &g, bot_rng)
                elif kind[seat] == SEAT_GREEDY:
                    a = st_greedy_action(t, &g, &greedy[seat])
                else:
                    memcpy(&obs, &g, sizeof(StGame))
                    st_observe(t, &obs, seat)
                    start = cpu_now()
                    with gil:
                        me = seats[seat][0]
                        a = me.choose(t, &obs, seat, bot_rng, iters[seat], secs[seat], work[seat])
                    took = cpu_now() - start
                    searches[seat] += 1
                    spent[seat] += took
                    worst[seat] = max(worst[seat], took)
                if a < 0:
                    break
                st_apply(t, &g, a, deal_rng)
    return (g.result if g.result != ST_ONGOING else ST_DRAW), g.turn, [(searches[s], spent[s], worst[s]) for s in range(players)]


# ---------------------------------------------------------------- the match runner's loop

#: the choosers by the names Lineup takes (the bots' ``loop_chooser`` kinds)
KINDS = {"random": SEAT_RANDOM, "greedy": SEAT_GREEDY, "mcts": SEAT_MCTS}


ctypedef struct StCounts:
    # what StacksDetail counts per action (seqsolve.games.stacks.tally), in its order
    long decisions, legal, blocks, steals_card, steals_chip, skips, reverses, recycles
    int block_decided, steal_chip_won


ctypedef struct StMoves:
    int16_t* actions
    int n, capacity


cdef inline double wall_now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int keep_move(StMoves* m, int action) noexcept nogil:
    cdef int16_t* grown
    if m.n == m.capacity:
        grown = <int16_t*>realloc(m.actions, 2 * m.capacity * sizeof(int16_t))
        if grown == NULL:
            return -1
        m.actions = grown
        m.capacity *= 2
    m.actions[m.n] = action
    m.n += 1
    return 0


cdef bint chip_would_win(const StTables* t, const StGame* g) noexcept nogil:
    """Whether the completer (the mover while a Block is asked) would win with the chip
    of the completed pile, if the supply still has one (ST-21): the tally's
    ``block_decided``."""
    cdef int colour = g.pile_colour[full_pile(g)], seat = g.to_move
    if supply(t, g, colour) <= 0:
        return 0
    return wins(t, g.chips[seat][0] + (colour == 0), g.chips[seat][1] + (colour == 1))


cdef void counted_apply(const StTables* t, StGame* g, int action, bitgen_t* rng, StCounts* c,
                        int16_t* buf) noexcept nogil:
    """``st_apply``, counting what StacksDetail.play counts of the action."""
    cdef int n = st_legal_actions(t, g, buf), card = -1, draw_n, aside_n
    cdef bint low = g.draw_n < ST_HAND * t.players  # only so low a draw pile can be recycled now
    c.legal += n
    c.decisions += n > 1
    if action < ST_DISCARD:
        card = (action % ST_PLAY_SPAN) // ST_ARGS
        if card == ST_SC:
            c.steals_card += 1
        elif card == ST_SX:
            c.steals_chip += 1
        elif card == ST_SK:
            c.skips += 1
        elif card == ST_RV:
            c.reverses += 1
    elif action < ST_BLOCK:
        card = action - ST_DISCARD
    elif action == ST_BLOCK:
        c.blocks += 1
        c.block_decided |= chip_would_win(t, g)
    draw_n, aside_n = g.draw_n, g.aside_n
    st_apply(t, g, action, rng)
    if low and (g.aside_n < aside_n or g.draw_n > draw_n):
        c.recycles += 1
    if card == ST_SX and g.result != ST_ONGOING and g.result != ST_DRAW:
        c.steal_chip_won = 1


cdef class Lineup:
    """The bots of a match as C choosers, on one rule set's tables: what
    ``STACKS.loop`` plays whole games with.

    ``bots``: one ``(kind, options, restrict)`` per bot of the match, each bot's
    ``loop_chooser``: ``kind`` a name of :data:`KINDS`, ``restrict`` 0 (Stacks bots
    bar nothing); ``options`` None for random, ``{"block_all"}`` for greedy,
    ``{"params", "iterations", "seconds", "work"}`` for mcts (its StacksSearcher's
    parameters and :meth:`StacksSearcher.decide`'s budgets).
    """

    cdef StacksTables tables
    cdef int n_bots
    cdef int kind[ST_MAX_SEATS]
    cdef StGreedy greedy[ST_MAX_SEATS]
    cdef long iters[ST_MAX_SEATS]
    cdef long work[ST_MAX_SEATS]
    cdef double secs[ST_MAX_SEATS]
    cdef list searchers       # per bot: its StacksSearcher, or None

    def __init__(self, StacksTables tables, list bots):
        if not 1 <= len(bots) <= ST_MAX_SEATS:
            raise ValueError(f"give 1 to {ST_MAX_SEATS} bots, not {len(bots)}")
        self.tables = tables
        self.n_bots = len(bots)
        self.searchers = []
        for i, (kind, options, restrict) in enumerate(bots):
            if kind not in KINDS:
                raise ValueError(f"no compiled Stacks chooser {kind!r} (known: {', '.join(KINDS)})")
            if restrict:
                raise ValueError("a Stacks bot bars no action: restrict must be 0")
            self.kind[i] = KINDS[kind]
            self.greedy[i] = greedy_settings(True)
            searcher = None
            if kind == "greedy":
                self.greedy[i] = greedy_settings(options["block_all"])
            elif kind == "mcts":
                searcher = StacksSearcher(options["params"])
                self.iters[i], self.secs[i], self.work[i] = options["iterations"], options["seconds"], options["work"]
                if self.iters[i] <= 0 and self.secs[i] <= 0 and self.work[i] <= 0:
                    raise ValueError("give mcts a budget: iterations, seconds or work > 0")
            self.searchers.append(searcher)

    def play(self, list entropy, list games, bint moves=False, bint detail=False):
        """Deal and play ``games`` and return what their records need, in order.

        Args:
            entropy: the match's SeedSequence words before a game's key
                (:func:`seqsolve.play.seeds.stream_words`).
            games: ``(deal, game_of_deal, seat_bot)`` per game: the deal (and every
                recycling of its piles) draws from the stream ``(deal,)`` under
                ``entropy``, the bot on seat ``s`` (index ``seat_bot[s]`` of the lineup)
                from ``(deal, 1 + game_of_deal, s)``, as ``play_game`` seeds them.
            moves: hand back every action of each game.
            detail: hand back what StacksDetail counts.
        Returns:
            Per game ``(result, termination, turns, plies, seconds, actions, detail)``:
            the engine's result (a seat, or 6 for a draw) and termination codes, the
            turns begun (``StacksState.turns_played``), ``actions`` a list or None,
            ``detail`` None or StacksDetail's counts in its order, then
            ``block_decided`` and ``steal_chip_won``.
        """
        cdef const StTables* t = &self.tables.t
        cdef int n_prefix = len(entropy), n_key, players = t.players, i, s, plies, seat, a, last
        cdef int seat_bot[ST_MAX_SEATS]
        cdef uint32_t* words = <uint32_t*>malloc((n_prefix + 8) * sizeof(uint32_t))
        cdef int16_t* buf = <int16_t*>malloc(ST_NUM_ACTIONS * sizeof(int16_t))
        cdef StGame* g = <StGame*>malloc(sizeof(StGame))
        cdef StGame* obs = <StGame*>malloc(sizeof(StGame))
        cdef PcgStream table
        cdef PcgStream seats[ST_MAX_SEATS]
        cdef StMoves played
        cdef StCounts counts
        cdef uint64_t deal_no, game_of_deal
        cdef double started
        cdef bint searching = 0
        cdef StacksSearcher me
        played.actions = <int16_t*>malloc(256 * sizeof(int16_t))
        played.capacity = 256
        out = []
        try:
            if words == NULL or buf == NULL or g == NULL or obs == NULL or played.actions == NULL:
                raise MemoryError()
            for i in range(n_prefix):
                words[i] = entropy[i]
            for deal_no, game_of_deal, bots_of_seat in games:
                if len(bots_of_seat) != players:
                    raise ValueError(f"give a bot for each of the {players} seats")
                searching = 0
                for s in range(players):
                    seat_bot[s] = bots_of_seat[s]
                    if not 0 <= seat_bot[s] < self.n_bots:
                        raise ValueError(f"no bot {seat_bot[s]} in a lineup of {self.n_bots}")
                    searching |= self.kind[seat_bot[s]] == SEAT_MCTS
                played.n = 0
                plies = 0
                last = -1
                memset(&counts, 0, sizeof(StCounts))
                with nogil:
                    started = wall_now()
                    n_key = key_words(words, n_prefix, deal_no)
                    stream_seed(&table, words, n_key)
                    n_key = key_words(words, n_key, 1 + game_of_deal)
                    for s in range(players):
                        stream_seed(&seats[s], words, key_words(words, n_key, s))
                    st_deal(t, g, &table.bg)
                    while g.result == ST_ONGOING:  # max_turns and the stalled turn end every game (ST-22)
                        seat = st_current_player(g)
                        i = seat_bot[seat]
                        # random and greedy read only the seat's hand and the public cards:
                        # the whole game gives what its observation would
                        if self.kind[i] == SEAT_RANDOM:
                            a = st_random_action(t, g, &seats[seat].bg)
                        elif self.kind[i] == SEAT_GREEDY:
                            a = st_greedy_action(t, g, &self.greedy[i])
                        else:
                            memcpy(obs, g, sizeof(StGame))
                            st_observe(t, obs, seat)
                            with gil:
                                me = self.searchers[i]
                                a = me.choose(t, obs, seat, &seats[seat].bg, self.iters[i], self.secs[i],
                                              self.work[i])
                                PyErr_CheckSignals()
                        if a < 0:
                            with gil:
                                raise RuntimeError(f"seat {seat} has no legal action in an ongoing game")
                        plies += 1
                        if moves and keep_move(&played, a) < 0:
                            with gil:
                                raise MemoryError()
                        if detail:
                            counted_apply(t, g, a, &table.bg, &counts, buf)
                        else:
                            st_apply(t, g, a, &table.bg)
                        last = a
                    started = wall_now() - started
                # the turn the game stopped in counts when its last decision did not end it
                out.append((
                    g.result, g.termination,
                    g.turn + (last >= 0 and not (ST_DISCARD <= last < ST_BLOCK or last == ST_END)),
                    plies, started,
                    [played.actions[i] for i in range(played.n)] if moves else None,
                    (counts.decisions, counts.legal, counts.blocks, counts.steals_card, counts.steals_chip,
                     counts.skips, counts.reverses, counts.recycles, bool(counts.block_decided),
                     bool(counts.steal_chip_won)) if detail else None,
                ))
                PyErr_CheckSignals()  # Ctrl-C between games
        finally:
            free(words)
            free(buf)
            free(g)
            free(obs)
            free(played.actions)
        return out
