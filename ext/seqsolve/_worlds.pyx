# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The worlds a search deals: the cards a seat cannot see, dealt at random
consistently with what it has seen (a determinization), and weighed by the
opponent's last play when there is evidence.

:class:`Worlds` is the base of the rollouts (``seqsolve._rollout``) and of the
tree search (``seqsolve._search.Searcher``, the class to build): it keeps the root
position, the hidden slots and the pool of unseen cards, and counts the work a
search spends.  :meth:`Worlds.set_evidence` makes the worlds follow the
opponent's last play: a world in which the opponent would probably have played
otherwise is probably not the world we are in (rejection sampling under a
softmax model of greedy's scores).  :func:`halt` stops every running search.

>>> import numpy as np
>>> from seqsolve.games.sequence.rules import parse_rules
>>> from seqsolve.games.sequence.state import State
>>> from seqsolve._search import Searcher
>>> state = State.new(parse_rules("classic", players=2), seed=1)
>>> view = state.observation(0).core
>>> world = Searcher().deal_world(view, 0, np.random.PCG64(2))
>>> world.hand(0) == view.hand(0), view.hand(1)[:3], 255 in world.hand(1)  # 255: unknown
(True, [255, 255, 255], False)
"""

from libc.math cimport exp, log, INFINITY
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID
from cpython.exc cimport PyErr_CheckSignals
from numpy.random cimport bitgen_t

from seqsolve._core cimport (
    u128, ctz128, ctz64, popcount128, Tables, Game, CoreGame, public_hand,
    rand_below, encode, act_kind, act_card, MAX_HAND, MAX_CODES, UNKNOWN_CARD,
    ACT_PLACE, ACT_REMOVE, ACT_PASS, CARD_REMOVE, RESULT_NONE,
    gen_actions, tally_start,
)
from seqsolve._eval cimport bitgen_of, make_ctx, action_score


# ---------------------------------------------------------------- clocks and halt

cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef double thread_cpu() noexcept nogil:
    """CPU seconds of the calling thread: what a move costs on one core, however
    busy the machine (the strength matrix times moves the same way)."""
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int halted = 0  # set by halt(): every running search stops at its next check


def halt(bint stop=True):
    """Make every search running in this process return at its next check (within
    milliseconds) with what it has, or (``stop=False``) let searches run again.

    Ctrl-C reaches only the main thread; a driver whose searches run on other
    threads calls this so that they end instead of using up their budget."""
    global halted
    halted = stop


cdef int keep_searching(bint main_thread) except -1 nogil:
    """0 once halt() was called; raises (-1) when, on the main thread, a signal
    handler raised (Ctrl-C's KeyboardInterrupt)."""
    if halted:
        return 0
    if main_thread:
        with gil:
            PyErr_CheckSignals()
    return 1


cdef bint searches_halted() noexcept nogil:
    return halted


# ---------------------------------------------------------------- the worlds

cdef class Worlds:
    """The worlds of one searching seat: a root position with the cards it cannot
    see taken out into a pool (hide_unseen), dealt anew into the hidden slots for
    every world (determinize), the deals weighed by the evidence of the last
    opponent play (set_evidence).  Not built alone: a Searcher is one."""

    def __cinit__(self):
        self.buf = NULL
        self.ev_seat = -1
        self.ev_temp = 0.0
        self.ev_unit = WORK_RLIKE

    def __init__(self, *args, **kwargs):
        raise TypeError("build a seqsolve._search.Searcher: its worlds and rollouts are not searches alone")

    def __dealloc__(self):
        free(self.buf)

    cdef void determinize(self, Game* g, bitgen_t* rng, bint full=0) noexcept nogil:
        """Deal the unseen cards at random into the hidden slots.

        Slots are listed hands first, then the draw pile from the top, and only
        the first ``m`` get a uniform draw (a partial Fisher-Yates shuffle), where
        ``m`` covers every hand and as many pile cards as this iteration can
        draw (one per action: the deepest tree path so far plus the playout).
        The rest of the pile keeps the leftover cards in some order; no action
        of the iteration reaches them.  Full playouts (and ``full``) shuffle everything.

        With evidence (set_evidence) a deal is kept with probability L / L_top,
        where L is the chance that the opponent, holding the dealt cards it
        already had, would have made the play it made, and L_top the highest L
        met so far (rejection sampling: the kept worlds follow the posterior of
        that opponent model, once L_top has settled); after ``ev_tries``
        rejections the last deal stands."""
        cdef int i, j, m = self.n_slots, tries = 0
        cdef double like
        cdef uint8_t tmp
        cdef uint8_t* base = <uint8_t*>g
        if self.playout_depth >= 0 and not full:
            m = self.n_hand_slots + self.playout_depth + self.max_depth + 2
            if m > self.n_slots:
                m = self.n_slots
        while True:
            for i in range(m):
                j = i + rand_below(rng, self.n_slots - i)
                tmp = self.pool[i]
                self.pool[i] = self.pool[j]
                self.pool[j] = tmp
            for i in range(self.n_slots):
                base[self.slot_off[i]] = self.pool[i]
            if self.ev_seat < 0 or tries >= self.ev_tries:
                return
            tries += 1
            like = self.play_likelihood(g)
            if like >= self.ev_top:
                self.ev_top = like
                return
            if rng.next_double(rng.state) * self.ev_top < like:
                return

    cdef double play_likelihood(self, const Game* g) noexcept nogil:
        """Chance that the evidence's opponent, with the hand this world gives it
        (all but its newest card, plus the card it played), chose the play it
        made: a softmax of the greedy scores (on a log scale) at temperature
        ev_temp over the actions that hand had.  An action's score does not depend
        on the rest of the hand, so ev_prepare summed each card's actions once;
        a world costs one term per distinct card."""
        cdef const Tables* t = self.ctx.t
        cdef int o = self.ev_seat, n = g.hand_n[o], i, c, k = 0
        cdef uint64_t codes = (<uint64_t>1) << act_card(self.ev_action), rest
        cdef double top = -INFINITY, total = 0.0
        for i in range(n - 1):
            if g.hand[o][i] < MAX_CODES:  # a dealt world has no unknown card; a caller's might
                codes |= (<uint64_t>1) << g.hand[o][i]
        if t.vpass:
            top = 0.0  # the pass, scored 0
        rest = codes
        while rest:
            c = ctz64(rest)
            rest &= rest - 1
            k += 1
            if self.ev_best[c] > top:
                top = self.ev_best[c]
        self.ev_scored += k
        self.work += self.ev_unit * k
        if t.vpass:
            total = exp(-top / self.ev_temp)
        while codes:
            c = ctz64(codes)
            codes &= codes - 1
            if self.ev_sum[c] > 0:
                total += self.ev_sum[c] * exp((self.ev_best[c] - top) / self.ev_temp)
        return exp((self.ev_chosen - top) / self.ev_temp) / total

    cdef bint ev_prepare(self, const Tables* t, const Game* before) noexcept nogil:
        """Fill ev_best, ev_sum and ev_chosen from ``before``: the opponent's legal
        actions with every card code in hand (a handful of codes at a time, listed
        by gen_actions as for any hand), each credited to its card.  False when the
        play made is not among them."""
        cdef Game h
        cdef int o = self.ev_seat, c0, c, i, k, m
        cdef int32_t a
        cdef double u
        cdef bint found = 0
        memcpy(&h, before, sizeof(Game))
        tally_start(t, &h)  # the scores read the window tally
        for c in range(MAX_CODES):
            self.ev_best[c] = -INFINITY
            self.ev_sum[c] = 0.0
        for c0 in range(0, t.n_codes, 7):
            m = min(7, t.n_codes - c0)
            h.hand_n[o] = m
            for i in range(m):
                h.hand[o][i] = c0 + i
            k = gen_actions(t, &h, self.buf)
            for i in range(k):
                a = self.buf[i]
                if act_kind(a) == ACT_PASS:
                    continue
                c = act_card(a)
                u = action_score(&self.ctx, &h, a)
                u = log(1.0 + u) if u >= 0 else -log(1.0 - u)
                if a == self.ev_action:
                    self.ev_chosen = u
                    found = 1
                if u > self.ev_best[c]:
                    self.ev_sum[c] = self.ev_sum[c] * exp((self.ev_best[c] - u) / self.ev_temp) + 1.0
                    self.ev_best[c] = u
                else:
                    self.ev_sum[c] += exp((u - self.ev_best[c]) / self.ev_temp)
        return found

    def set_evidence(self, CoreGame before, CoreGame now, double temperature, int tries=64):
        """Remember the opponent's play between ``before`` (the viewer's own view
        after its last action) and ``now`` (the viewer's view at its next turn), to
        weigh the worlds dealt for it (see determinize).  Kept only when exactly
        one other seat made exactly one play (a placement or a removal, no
        exchange, no draft) in between; returns whether it was kept.  A
        temperature of 0 forgets any evidence."""
        cdef const Tables* t = &now.rules.t
        cdef Game* b = &before.g
        cdef Game* g = &now.g
        cdef int o = b.to_move, cell = -1, kind = ACT_PLACE, c
        cdef u128 changed
        self.ev_seat = -1
        if temperature <= 0 or t.draft_mode or g.result != RESULT_NONE or b.result != RESULT_NONE:
            return False
        if g.disc_n != b.disc_n + 1 or g.disc_seat[g.disc_n - 1] != o or g.turn != b.turn + 1:
            return False
        if g.hand_n[o] != b.hand_n[o] or g.hand_n[o] < 1 or g.to_move == o:
            return False
        c = g.disc_card[g.disc_n - 1]
        if c >= MAX_CODES:
            return False
        changed = (b.empty ^ g.empty)
        if popcount128(changed) != 1:
            return False
        cell = ctz128(changed)
        if t.card_kind[c] == CARD_REMOVE:
            kind = ACT_REMOVE
        self.ev_action = encode(kind, c, cell, -1)
        self.ev_seat = o
        self.ev_temp = temperature
        self.ev_tries = tries
        self.ev_top = 0.0
        make_ctx(&self.ctx, t, &self.weights)
        self.ctx.hold = self.hold
        if not self.ev_prepare(t, b):
            self.ev_seat = -1
            return False
        return True

    def play_likelihood_in(self, CoreGame world):
        """play_likelihood of a world dealt for the evidence (deal_world), for tests."""
        if self.ev_seat < 0:
            raise ValueError("no evidence: set_evidence first")
        return self.play_likelihood(&world.g)

    def clear_evidence(self):
        self.ev_seat = -1

    @property
    def evidence_seat(self):
        """The seat whose last play weighs the worlds, or -1."""
        return self.ev_seat

    def deal_world(self, CoreGame observation, int viewer, bit_generator):
        """One world as the search deals it (evidence included): a copy of the
        observation with every card ``viewer`` cannot see dealt, keeping the
        window tally the search's worlds keep."""
        cdef CoreGame world = observation.clone(None)
        cdef bitgen_t* rng = bitgen_of(bit_generator)
        make_ctx(&self.ctx, &observation.rules.t, &self.weights)
        self.ctx.hold = self.hold
        self.prepare(observation, viewer, 0)
        with bit_generator.lock:
            memcpy(&world.g, &self.root, sizeof(Game))
            if self.n_slots:
                self.determinize(&world.g, rng, 1)
        return world

    cdef int prepare(self, CoreGame observation, int viewer, int open_information) except -1:
        """Root state, hidden slots and the pool of unseen cards (see hide_unseen)."""
        return self.hide_unseen(&observation.rules.t, &observation.g, viewer, open_information)

    cdef int hide_unseen(self, const Tables* t, const Game* observation, int viewer,
                         int open_information) except -1 nogil:
        """Root state, hidden slots and the pool of unseen cards (open_information:
        0 deal every card viewer cannot see, 1 none, 2 only the draw pile).

        The root keeps the window tally, counted here once: a deal fills hands and
        the draw pile, never a chip or a discard, so every world copies it as it
        is and its scores and evaluations read it instead of recounting windows."""
        cdef Game* g = &self.root
        cdef int counts[MAX_CODES]
        cdef int s, i, c, n_known, n_pool = 0
        cdef uint8_t known[MAX_HAND]
        cdef uint8_t* base = <uint8_t*>g
        self.open_info = open_information
        memcpy(g, observation, sizeof(Game))
        for c in range(MAX_CODES):
            counts[c] = 0
        for i in range(t.deck_n):
            counts[t.deck[i]] += 1
        self.n_slots = 0
        for i in range(g.disc_n):
            counts[g.disc_card[i]] -= 1
        for i in range(g.draft_n):
            if g.draft[i] != UNKNOWN_CARD:
                counts[g.draft[i]] -= 1
        for s in range(t.players):
            n_known = 0
            if self.recall and t.draft_mode and s != viewer and not open_information:
                n_known = public_hand(g, s, known)
            for i in range(g.hand_n[s]):
                c = g.hand[s][i]
                if i < n_known and counts[known[i]] > 0:
                    # a card everyone saw this seat take: every world keeps it there
                    g.hand[s][i] = known[i]
                    counts[known[i]] -= 1
                elif c == UNKNOWN_CARD or (s != viewer and not open_information):
                    self.slot_off[self.n_slots] = <uint16_t>(<uint8_t*>&g.hand[s][i] - base)
                    self.n_slots += 1
                else:
                    counts[c] -= 1
        self.n_hand_slots = self.n_slots
        for i in range(g.draw_n - 1, -1, -1):  # from the top of the pile
            c = g.draw[i]
            if c == UNKNOWN_CARD or open_information != 1:
                self.slot_off[self.n_slots] = <uint16_t>(<uint8_t*>&g.draw[i] - base)
                self.n_slots += 1
            else:
                counts[c] -= 1
        for c in range(MAX_CODES):
            if counts[c] < 0:
                with gil:
                    raise ValueError("inconsistent position: a card is seen more often than the deck holds it")
            for i in range(counts[c]):
                if n_pool < MAX_SLOTS:
                    self.pool[n_pool] = c
                n_pool += 1
        if n_pool != self.n_slots:
            with gil:
                raise ValueError(
                    f"inconsistent position: {self.n_slots} hidden cards but {n_pool} cards unseen by seat {viewer}"
                )
        for i in range(self.n_slots):
            base[self.slot_off[i]] = self.pool[i]  # any world will do until the first deal
        tally_start(t, g)
        return 0
