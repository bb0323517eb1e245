# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The bots' one-decision choosers, in C on the core's ``Game`` struct, built on
the scores and the evaluation of ``seqsolve._eval``; the tree search
(``seqsolve._search``) reuses them through ``_choose.pxd``.

* :func:`greedy_action` plays the action with the best one-ply score
  (:func:`seqsolve._eval.score_action`).
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

from libc.math cimport INFINITY
from libc.stdint cimport uint64_t, int32_t
from libc.string cimport memcpy
import numpy as np
from numpy.random cimport bitgen_t

from seqsolve._core cimport (
    u128, ctz128, ctz64, Tables, Game, CoreGame,
    rand_below, encode, act_kind, act_pick, side_total,
    MAX_SIDES, MAX_CODES, MAX_MOVES, UNKNOWN_CARD,
    ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE,
    CARD_NORMAL, CARD_WILD, CARD_REMOVE, RESULT_NONE, RESULT_DRAW,
    gen_actions, apply_action,
)
from seqsolve._eval cimport (
    Ctx, ScoreMemo, Threats, bitgen_of, load_ctx, memo_clear, memo_score, side_scores, rivals_score,
    hold_value, hand_card_term, threats_scan, threat_cells, win_threat_cells,
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
    cdef int n = gen_actions(ctx.t, g, buf), i, ties = 0
    cdef double best = -INFINITY, s
    cdef int32_t choice = -1
    cdef ScoreMemo mm
    memo_clear(&mm)
    for i in range(n):
        s = memo_score(ctx, g, &mm, buf[i])
        if s > best:
            best, choice, ties = s, buf[i], 1
        elif s == best and rng != NULL:
            ties += 1
            if rand_below(rng, ties) == 0:
                choice = buf[i]
    return choice


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


cdef HeuristicKey heuristic_key(const Ctx* ctx, const Game* g, bitgen_t* rng, HeuristicMemo* hm,
                                int32_t action) noexcept nogil:
    """The heuristic's key of one action of ``g``; the actions of one decision
    come in gen_actions' order, with one ``hm`` (heuristic_start) between them.

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
        key.h = (scores[me] - other) / ctx.w.eval_scale
        if ctx.w.tactics != 0.0 or not ctx.finite_w:  # else it would add a zero: the same key
            key.h += ctx.w.tactics * memo_score(ctx, g, &hm.mm, action) / 100.0
    return key


cdef int32_t heuristic_choice(const Ctx* ctx, const Game* g, bitgen_t* rng, int32_t* buf) noexcept nogil:
    """One action of look-ahead with the static evaluation (see heuristic_action):
    the best by heuristic_key, ties drawn at random."""
    cdef int n = gen_actions(ctx.t, g, buf), i, ties = 0, order
    cdef int32_t choice = -1
    cdef HeuristicMemo hm
    cdef HeuristicKey key, best
    if n <= 1:
        return buf[0] if n == 1 else -1
    heuristic_start(&hm)
    best.cls, best.threats, best.h = -1, 1 << 30, -INFINITY
    for i in range(n):
        key = heuristic_key(ctx, g, rng, &hm, buf[i])
        order = key_order(&key, &best)
        if order > 0:
            best, choice, ties = key, buf[i], 1
        elif order == 0:
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
