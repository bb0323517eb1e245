# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Flat Monte Carlo rollouts, the ``rollout`` bot's search, in C without the GIL.

:class:`Rollouts` (a base of ``seqsolve._search.Searcher``, the class to build)
plays a few candidate actions, each to the end (or ``depth`` actions on, scored by
the static evaluation) by greedy, in the same dealt worlds (common random
numbers), so their differences are measured precisely.  With every card seen
(``open_information``) it measures what the hidden cards cost.  The compiled game
loop (``seqsolve._loop``) runs the same choice per move through :func:`rollout_move`.

>>> import numpy as np
>>> from seqsolve.games.sequence.rules import parse_rules
>>> from seqsolve.games.sequence.state import State
>>> from seqsolve._search import Searcher
>>> state = State.new(parse_rules("classic", players=2), seed=1)
>>> seat = state.current_player
>>> view = state.observation(seat).core
>>> Searcher().rollout_choice(view, seat, np.random.PCG64(2), 4, 20) in state.legal_actions()
True
"""

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
import threading
from numpy.random cimport bitgen_t

from libc.stdint cimport uint8_t, int32_t
from seqsolve._core cimport (
    Tables, Game, CoreGame, MAX_SIDES, MAX_MOVES, MAX_SEATS, MAX_HAND, RESULT_NONE, gen_actions, apply_action,
)
from seqsolve._eval cimport bitgen_of, make_ctx, action_score, side_values
from seqsolve._choose cimport greedy_counted, heuristic_choice
from seqsolve._worlds cimport Worlds, WORK_RPLY, WORK_REVAL, WORK_RLIKE, now, keep_searching


cdef double play_out(Rollouts self, const Tables* t, const Game* world, int32_t act, bitgen_t* rng,
                     int depth, int policy, int side) noexcept nogil:
    """The result for ``side`` of ``act`` in ``world``, played on by ``policy`` (0: greedy,
    1: heuristic) for every side to the end, or ``depth`` actions on (0: no cut) where
    the evaluation scores it."""
    cdef Game g
    cdef int steps = 0
    cdef int32_t a
    cdef double values[MAX_SIDES]
    memcpy(&g, world, sizeof(Game))
    apply_action(t, &g, act, rng, NULL, -1)
    while g.result == RESULT_NONE and (depth <= 0 or steps < depth):
        steps += 1
        if policy == 1:
            a = heuristic_choice(&self.ctx, &g, rng, self.buf)
        else:
            a = greedy_counted(&self.ctx, &g, NULL, self.buf, &self.work)
        if a < 0:
            break
        apply_action(t, &g, a, rng, NULL, -1)
    self.work += WORK_RPLY * steps + WORK_REVAL
    side_values(&self.ctx, &g, values)  # the result, or at ``depth`` the evaluation
    return values[side]


cdef class Rollouts(Worlds):
    """Flat Monte Carlo over the worlds a Searcher deals (see the module docstring)."""

    def rollout_values(self, CoreGame observation, int viewer, bit_generator, actions, int worlds,
                       int open_information=0, int policy=0, int depth=0):
        """Mean result for ``viewer``'s side of each of ``actions`` (flat Monte Carlo).

        Every world deals the cards ``viewer`` cannot see; in it each action is
        applied and the game played to its end by ``policy`` (0: greedy, ties to
        the first action, so a playout depends on its world alone; 1: heuristic)
        for every side.  All actions meet the same worlds (common random
        numbers), so their differences are measured far more precisely than
        their values.  ``open_information``: 0 fair, 1 sees every card and the
        draw pile's order, 2 sees every hand but not the draw pile (the last two
        for analysis only: they measure what hidden cards cost).
        """
        cdef bitgen_t* rng = bitgen_of(bit_generator)
        cdef int n = len(actions), i
        cdef int32_t acts[MAX_MOVES]
        cdef double means[MAX_MOVES]
        if n > MAX_MOVES or n < 1:
            raise ValueError("give 1..MAX_MOVES actions")
        for i in range(n):
            acts[i] = actions[i]
        self.rollout_depth = max(depth, 0)
        cdef bint main_thread = threading.current_thread() is threading.main_thread()
        with bit_generator.lock:
            with nogil:
                self.rollout_means(&observation.rules.t, &observation.g, viewer, rng, acts, n, worlds,
                                   open_information, policy, main_thread, means)
        return [means[i] for i in range(n)]

    def rollout_outcomes(self, CoreGame observation, int viewer, bit_generator, actions, int worlds,
                         int depth=0):
        """Each world's result for ``viewer``'s side of each of ``actions``, and the hands
        dealt in it: what the analysis splits by the opponents' holdings (the bots never
        ask for it).  The worlds are dealt as :meth:`rollout_values` deals them (fair:
        the cards ``viewer`` cannot see), each action played out by greedy, cut after
        ``depth`` actions (0: to the end).

        Returns:
            ``(results, hands)``: ``results[w][i]`` the result of ``actions[i]`` in world
            ``w``; ``hands[w][s]`` the card codes of seat ``s`` in world ``w``.
        """
        cdef bitgen_t* rng = bitgen_of(bit_generator)
        cdef const Tables* t = &observation.rules.t
        cdef int n = len(actions), i, s, k, side
        cdef long long w
        cdef int32_t acts[MAX_MOVES]
        cdef Game world
        if n > MAX_MOVES or n < 1:
            raise ValueError("give 1..MAX_MOVES actions")
        if worlds < 0:
            raise ValueError("worlds must be at least 0")
        for i in range(n):
            acts[i] = actions[i]
        cdef double* results = <double*>malloc(max(worlds, 1) * n * sizeof(double))
        cdef uint8_t* dealt = <uint8_t*>malloc(max(worlds, 1) * MAX_SEATS * MAX_HAND * sizeof(uint8_t))
        cdef uint8_t* sizes = <uint8_t*>malloc(max(worlds, 1) * MAX_SEATS * sizeof(uint8_t))
        if results == NULL or dealt == NULL or sizes == NULL:
            free(results)
            free(dealt)
            free(sizes)
            raise MemoryError()
        try:
            with bit_generator.lock:
                with nogil:
                    make_ctx(&self.ctx, t, &self.weights)
                    self.viewer_side = t.seat_side[viewer]
                    self.hide_unseen(t, &observation.g, viewer, 0)
                    side = self.viewer_side
                    for w in range(worlds):
                        memcpy(&world, &self.root, sizeof(Game))
                        if self.n_slots:
                            self.determinize(&world, rng, 1)
                        for s in range(t.players):
                            sizes[w * MAX_SEATS + s] = world.hand_n[s]
                            memcpy(&dealt[(w * MAX_SEATS + s) * MAX_HAND], world.hand[s], MAX_HAND)
                        for i in range(n):
                            results[w * n + i] = play_out(self, t, &world, acts[i], rng, depth, 0, side)
            return (
                [[results[w * n + i] for i in range(n)] for w in range(worlds)],
                [[[dealt[(w * MAX_SEATS + s) * MAX_HAND + k] for k in range(sizes[w * MAX_SEATS + s])]
                  for s in range(t.players)] for w in range(worlds)],
            )
        finally:
            free(results)
            free(dealt)
            free(sizes)

    cdef int rollout_means(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                           const int32_t* acts, int n, long long worlds, int open_information, int policy,
                           bint main_thread, double* means) except -1 nogil:
        """:meth:`rollout_values` on a C game: the mean result of each of ``acts`` over
        ``worlds`` dealt worlds, into ``means``."""
        cdef Game world
        cdef long long w
        cdef int i, side
        cdef int depth = self.rollout_depth
        for i in range(n):
            means[i] = 0.0
        make_ctx(&self.ctx, t, &self.weights)
        # no hold: playouts score only finished games, and heuristic playouts add the pick's own value
        self.viewer_side = t.seat_side[viewer]
        self.hide_unseen(t, observation, viewer, open_information)
        side = self.viewer_side
        for w in range(worlds):
            if not keep_searching(main_thread):
                worlds = max(w, 1)  # halted: the means of the worlds played
                break
            memcpy(&world, &self.root, sizeof(Game))
            if self.n_slots:
                self.determinize(&world, rng, 1)
            for i in range(n):
                means[i] += play_out(self, t, &world, acts[i], rng, depth, policy, side)
        for i in range(n):
            means[i] /= worlds
        return 0

    cdef int play_worlds(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                         const int32_t* acts, int n, long long worlds, double deadline, double started,
                         long long work_limit, int open_information, int policy, bint main_thread,
                         double* sums, double* means) except -1 nogil:
        """Sum over ``worlds`` dealt worlds of each of ``acts``'s results into ``sums``;
        with a ``deadline`` (seconds since ``started``) or a ``work_limit`` (on
        self.work) the worlds come in batches of ROLLOUT_BATCH, each met by every
        action, until one is passed."""
        cdef long long batch = worlds, dealt = 0, m
        cdef int i
        if (deadline > 0 or work_limit > 0) and ROLLOUT_BATCH < worlds:
            batch = ROLLOUT_BATCH
        for i in range(n):
            sums[i] = 0.0
        while dealt < worlds:
            m = min(batch, worlds - dealt)
            self.rollout_means(t, observation, viewer, rng, acts, n, m, open_information, policy,
                               main_thread, means)
            for i in range(n):
                sums[i] += means[i] * m
            dealt += m
            if deadline > 0 and now() - started >= deadline:
                break
            if work_limit > 0 and self.work >= work_limit:
                break
        return 0

    cdef int rollout_candidates(self, const Tables* t, const Game* observation, int32_t* acts,
                                double* scores, int k) noexcept nogil:
        """The best ``k`` legal actions by score_action, best first, equal scores in
        generation order, into ``acts`` and ``scores``; returns how many (all if fewer)."""
        cdef int n, i, j, kept = 0
        cdef double score
        make_ctx(&self.ctx, t, &self.weights)
        n = gen_actions(t, observation, self.buf)
        for i in range(n):
            score = action_score(&self.ctx, observation, self.buf[i])
            j = kept
            while j > 0 and score > scores[j - 1]:
                if j < k:
                    scores[j] = scores[j - 1]
                    acts[j] = acts[j - 1]
                j -= 1
            if j < k:
                scores[j] = score
                acts[j] = self.buf[i]
                if kept < k:
                    kept += 1
        return kept

    cdef int32_t rollout_pick(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                              int k, long long worlds, bint halve, double budget, int open_information,
                              int policy, bint main_thread) except -2 nogil:
        """The ``rollout`` bot's move (see :meth:`rollout_choice`), its scratch on the heap."""
        cdef int32_t action
        cdef RolloutScratch* scratch = <RolloutScratch*>malloc(sizeof(RolloutScratch))
        if scratch == NULL:
            with gil:
                raise MemoryError()
        action = self.rollout_rounds(t, observation, viewer, rng, k, worlds, halve, budget, open_information,
                                     policy, main_thread, scratch)
        free(scratch)
        return action

    cdef int32_t rollout_rounds(self, const Tables* t, const Game* observation, int viewer, bitgen_t* rng,
                                int k, long long worlds, bint halve, double budget, int open_information,
                                int policy, bint main_thread, RolloutScratch* sc) except -2 nogil:
        cdef int32_t* cands = sc.cands
        cdef double* total = sc.total
        cdef int* alive = sc.alive
        cdef int n, i, j, r, rounds = 0, n_alive, best
        cdef long long share
        cdef double started
        self.work = 0
        self.ev_scored = 0
        self.ev_unit = WORK_RLIKE
        n = self.rollout_candidates(t, observation, cands, total, k if k < MAX_MOVES else MAX_MOVES)
        # a win, and a dead-card exchange (it costs nothing), need no playouts
        if n == 1 or total[0] >= min(self.weights.exchange, self.weights.win):
            return cands[0]
        started = now()
        if not halve or n <= 2:
            self.play_worlds(t, observation, viewer, rng, cands, n, worlds, budget, started, self.rollout_work,
                             open_information, policy, main_thread, total, sc.means)
            best = 0
            for i in range(1, n):
                if total[i] > total[best]:
                    best = i
            return cands[best]
        # Sequential halving (Karnin, Koren & Somekh 2013): every round gets the same
        # share of the k x worlds playouts; the survivors have met the same worlds, so
        # their sums compare under common random numbers.
        while (1 << rounds) < n:
            rounds += 1
        n_alive = n
        for i in range(n):
            alive[i] = i
            total[i] = 0.0
        for r in range(rounds):
            share = max(1, worlds * n // (rounds * n_alive))
            for i in range(n_alive):
                sc.acts[i] = cands[alive[i]]
            self.play_worlds(t, observation, viewer, rng, sc.acts, n_alive, share, budget * (r + 1) / rounds,
                             started, self.rollout_work * (r + 1) // rounds, open_information, policy,
                             main_thread, sc.sums, sc.means)
            for i in range(n_alive):
                total[alive[i]] += sc.sums[i]
            if r < rounds - 1:
                for i in range(1, n_alive):  # a stable sort, best first
                    j = i
                    best = alive[i]
                    while j > 0 and total[best] > total[alive[j - 1]]:
                        alive[j] = alive[j - 1]
                        j -= 1
                    alive[j] = best
                n_alive = (n_alive + 1) // 2
        best = alive[0]
        for i in range(1, n_alive):
            if total[alive[i]] > total[best]:
                best = alive[i]
        return cands[best]

    def rollout_choice(self, CoreGame observation, int viewer, bit_generator, int k, long long worlds,
                       bint halve=False, double seconds=0, int open_information=0, int policy=0,
                       int depth=0, long long work=0):
        """The ``rollout`` bot's move for ``viewer`` (to move): the best ``k`` actions
        by score_action (a win or a dead-card exchange at once, without playouts),
        each played out in ``worlds`` dealt worlds (rollout_values: ``policy``,
        ``open_information``), the best sum wins (ties to the better score).  With
        ``halve``, sequential halving: ``ceil(log2 k)`` rounds share the k x worlds
        playouts, the worse half dropped after each.  ``seconds`` (0: none) cuts
        the worlds, dealt in batches of ROLLOUT_BATCH (each round its share of it);
        so does ``work`` (0: none), counted in work units (WORK_RPLY), so that a
        budget cuts the same worlds on a busy machine as on an idle one.
        ``depth`` (0: to the end) cuts every playout after that many actions
        and scores it by the static evaluation (side_values): in long games a
        playout to the end is mostly noise, and the evaluation a dozen actions
        on, reached by the same worlds for every candidate, tells moves apart."""
        cdef bitgen_t* rng = bitgen_of(bit_generator)
        cdef int32_t action
        if observation.g.result != RESULT_NONE:
            raise ValueError("the game is over: nothing to choose")
        if k < 1 or worlds < 1:
            raise ValueError("give k >= 1 and worlds >= 1")
        self.rollout_depth = max(depth, 0)
        self.rollout_work = max(work, 0)
        cdef bint main_thread = threading.current_thread() is threading.main_thread()
        with bit_generator.lock:
            with nogil:
                action = self.rollout_pick(&observation.rules.t, &observation.g, viewer, rng, k, worlds, halve,
                                           seconds, open_information, policy, main_thread)
        return action


# ---------------------------------------------------------------- the compiled game loop's door

cdef int32_t rollout_move(void* searcher, const Tables* t, const Game* view, bitgen_t* rng, int k,
                          long long worlds, bint halve, int policy, bint main_thread) except -2 nogil:
    """``searcher.rollout_choice`` for the mover of ``view``, without a time budget."""
    return (<Rollouts>searcher).rollout_pick(t, view, view.to_move, rng, k, worlds, halve, 0.0, 0, policy,
                                             main_thread)
