# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Proofs of forced wins: an AND-OR search on the core's Game struct.

``prove`` answers one question: can the side ``attacker`` win before turn number
``end`` whatever the other seats do and whatever cards they hold?  The turns and
their effects are the core's own (``gen_actions`` for the seats that choose,
``apply_action`` for every turn), so every rule option the tables carry (sequences
to win, corners, C-25 overlap and reuse limits, teams, dead cards, draft takes)
is the game's.  What the search adds is who may do what, chosen so that a "yes"
is true in the real game:

* **What the choosing seats hold.**  The seats of the attacker that choose (OR
  nodes: the side to move, and a team-mate whose whole hand is known) play only
  cards they are known to hold now.  Every card drawn or taken inside the search
  is unknown (the draw pile and the draft are blanked on entry), so no line counts
  on a future draw, even when the order of the pile is known.
* **What everyone else may hold.**  Every other seat (opponents, and a team-mate
  whose hand is hidden) is an AND node: it may play any card it is known to hold
  and, once its hand holds an unknown card (from the start, after a draw, or
  because it may exchange a dead card first), any card of the *pool*: every code
  with a copy not known to be in a hand or on a discard pile when the search
  starts (the draw pile and the draft count as unseen).  Two seats may both be
  given the last copy; that only makes the defence stronger.
* **Which defences are tried.**  Each turn changes one cell.  A window can become a
  sequence of side ``s`` before ``end`` only if its cells that are not yet ``s``'s
  (corners count for everyone) are no more than the turns ``s`` has left, and none
  of them is another side's locked chip.  The *zone* is the union of those windows
  for every side (and the four cells of the heart, where its rule is on).  An AND node tries every placement and every removal on a cell of
  the zone that its possible cards reach, and one more child, the *rest*: the seat
  passes and is given an unknown card, standing for every turn outside the zone,
  an exchange, or a forced pass.  Why the rest may stand for all of them: a turn
  outside the zone changes a cell through which no window can be completed by
  anybody before ``end`` (a side's shortfall in a window never falls faster than
  its turns run out, so the zone only shrinks down the tree and the cell never
  joins it); the cards the seat may hold afterwards are the same (its known cards
  and the pool, which is fixed); the attacker's own cards are untouched; and the
  draw pile and draft, being blank, differ only in their lengths, which matter only
  when the game may end by exhausting them, a case the search refuses (as it does a
  board about to fill up).  A pass may end the game by the stall rule where the
  real turn would not; a draw is never a win, so that only loses proofs.
* **Declarations.**  The attacker declares the core's canonical sequences (one of
  its choices, so never too optimistic).  When another seat's placement completes
  more than one window at once without ending the game, its choice of declaration
  is not modelled and the search claims nothing (``unsound``).

The attacker's choices are cut down too (any subset of its legal turns is sound):
on its last turn in the horizon only placements in the zone, which holds every cell
that could complete a sequence; before that, the turns on cells of the zone, plus
one turn with a card that reaches no cell of the zone (a waiting move).  Exchanges
are never tried: the replacement would be an unknown card.

So a proof holds in every deal consistent with what the search was shown; a
failure proves nothing (the budget ran out, the attacker needed a move outside
the zone, a draw, or simply no forced win).
"""

from libc.stdint cimport uint8_t, int32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from seqsolve._core cimport (
    Tables, Game, CoreGame, u128, bit, popcount128, ctz128, ctz64,
    gen_actions, apply_action, public_hand, cell_scan, encode, act_kind, act_card, act_cell,
    ACT_PLACE, ACT_REMOVE, ACT_EXCHANGE, ACT_PASS, CARD_NORMAL, CARD_WILD, CARD_REMOVE,
    RESULT_NONE, UNKNOWN_CARD, NO_CELL, MAX_MOVES, N_WINDOWS, MAX_SIDES, MAX_SEATS,
    MAX_HAND, MAX_CODES, EXH_RESHUFFLE,
)


cdef double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void turns_left(const Prover* p, const Game* g, int* turns) noexcept nogil:
    """Turns each side plays from ``g`` (the one to move included) before ``end``."""
    cdef const Tables* t = p.t
    cdef int k, remaining = p.end - g.turn
    for k in range(MAX_SIDES):
        turns[k] = 0
    for k in range(remaining if remaining > 0 else 0):
        turns[t.seat_side[(g.to_move + k) % t.players]] += 1


cdef u128 zone_of(const Prover* p, const Game* g, const int* turns) noexcept nogil:
    """The cells of every window some side could still complete before ``end``."""
    cdef const Tables* t = p.t
    cdef u128 z = 0, own, blocked, m
    cdef int s, w
    for s in range(t.sides):
        if turns[s] == 0:
            continue
        own = g.chips[s] | t.corners
        blocked = g.locked & ~g.chips[s]
        for w in range(N_WINDOWS):
            m = t.window_mask[w]
            if (m & blocked) == 0 and popcount128(m & ~own) <= turns[s]:
                z |= m
    if t.heart:
        z |= t.heart_mask  # holding the heart counts as sequences too (D-3)
    return z & ~t.corners


cdef inline void give(Game* g, int seat, int card) noexcept nogil:
    if g.hand_n[seat] < MAX_HAND:
        g.hand[seat][g.hand_n[seat]] = card
        g.hand_n[seat] += 1


cdef uint64_t possible_codes(const Prover* p, const Game* g, int seat) noexcept nogil:
    """Codes an AND seat may play: its known cards, and the pool once it may hold an
    unknown card (it holds one, or it may exchange a dead card for one)."""
    cdef const Tables* t = p.t
    cdef uint64_t have = 0
    cdef int i, c, unknown = 0, dead = 0
    for i in range(g.hand_n[seat]):
        c = g.hand[seat][i]
        if c == UNKNOWN_CARD:
            unknown = 1
        else:
            have |= (<uint64_t>1) << c
            if t.card_kind[c] == CARD_NORMAL and not (t.card_cells[c] & g.empty):
                dead = 1
    if unknown or (dead and g.ex_left > 0):
        have |= p.pool
    return have


cdef inline void keep_line(Prover* p, int ply, int32_t action) noexcept nogil:
    """The line of ``ply``: ``action`` then the line found below it."""
    cdef int k, n = 0
    if ply >= PROOF_MAX_PLY:
        return
    p.pv[ply][0] = action
    if ply + 1 < PROOF_MAX_PLY:
        n = p.pv_n[ply + 1]
        if n > PROOF_MAX_PLY - 1:
            n = PROOF_MAX_PLY - 1
        for k in range(n):
            p.pv[ply][k + 1] = p.pv[ply + 1][k]
    p.pv_n[ply] = n + 1


cdef int and_child(Prover* p, const Game* g, int ply, int seat, int kind, int card, int cell) noexcept nogil:
    """Play one defence (``kind`` ACT_PASS: the rest) and prove the attacker still wins."""
    cdef Game child
    cdef int side = p.t.seat_side[seat]
    memcpy(&child, g, sizeof(Game))
    if kind == ACT_PASS:
        apply_action(p.t, &child, encode(ACT_PASS, 0, NO_CELL, -1), NULL, NULL, -1)
        give(&child, seat, UNKNOWN_CARD)  # as if it had played and drawn
    else:
        give(&child, seat, card)  # its known cards stay: the pool decides what it holds
        apply_action(p.t, &child, encode(kind, card, cell, -1), NULL, NULL, -1)
        if (kind == ACT_PLACE and child.result == RESULT_NONE and child.seq_n > g.seq_n
                and cell_scan(p.t, &child, side, cell) > 1):
            p.unsound = 1  # its choice of declaration is not modelled
            return 0
    return prove(p, &child, ply + 1)


cdef int and_node(Prover* p, const Game* g, int ply, u128 zone) noexcept nogil:
    cdef const Tables* t = p.t
    cdef int seat = g.to_move, side = t.seat_side[seat]
    cdef uint64_t codes = possible_codes(p, g, seat), rest
    cdef int c, cell, wild = -1, remover = -1, first = 1
    cdef u128 place = 0, targets
    cdef int32_t action
    rest = codes
    while rest:
        c = ctz64(rest)
        rest &= rest - 1
        if t.card_kind[c] == CARD_NORMAL:
            place |= t.card_cells[c]
        elif t.card_kind[c] == CARD_WILD:
            wild = c
        else:
            remover = c
    targets = (g.empty if wild >= 0 else place & g.empty) & zone
    while targets:
        cell = ctz128(targets)
        targets &= targets - 1
        c = wild
        rest = codes
        while rest:  # a card showing the cell, if the seat may hold one, else the wild jack
            if t.card_kind[ctz64(rest)] == CARD_NORMAL and (t.card_cells[ctz64(rest)] & bit(cell)):
                c = ctz64(rest)
                break
            rest &= rest - 1
        if not and_child(p, g, ply, seat, ACT_PLACE, c, cell):
            return 0
        if first:
            keep_line(p, ply, encode(ACT_PLACE, c, cell, -1))
            first = 0
    if remover >= 0:
        targets = (g.chips[0] | g.chips[1] | g.chips[2]) & ~g.chips[side] & ~g.locked & zone
        while targets:
            cell = ctz128(targets)
            targets &= targets - 1
            if not and_child(p, g, ply, seat, ACT_REMOVE, remover, cell):
                return 0
            if first:
                keep_line(p, ply, encode(ACT_REMOVE, remover, cell, -1))
                first = 0
    if not and_child(p, g, ply, seat, ACT_PASS, 0, NO_CELL):
        return 0
    if first:
        keep_line(p, ply, encode(ACT_PASS, 0, NO_CELL, -1))
    return 1


cdef int or_node(Prover* p, const Game* g, int ply, u128 zone, int last) noexcept nogil:
    cdef const Tables* t = p.t
    cdef int32_t* buf = <int32_t*>malloc(MAX_MOVES * sizeof(int32_t))
    cdef int n, i, kind, c, found = 0, waiting = -1
    cdef Game child
    cdef uint64_t useless = 0, zoned = 0
    if buf == NULL:
        p.stopped = 1
        return 0
    n = gen_actions(t, g, buf)
    # first every placement that wins at once
    for i in range(n):
        if act_kind(buf[i]) != ACT_PLACE or not (zone & bit(act_cell(buf[i]))):
            continue
        memcpy(&child, g, sizeof(Game))
        apply_action(t, &child, buf[i], NULL, NULL, -1)
        if child.result == p.attacker:
            if ply < PROOF_MAX_PLY:
                p.pv[ply][0] = buf[i]
                p.pv_n[ply] = 1
            free(buf)
            return 1
    if last:
        free(buf)
        return 0
    for i in range(n):
        kind = act_kind(buf[i])
        if kind == ACT_PLACE or kind == ACT_REMOVE:
            c = act_card(buf[i])
            if zone & bit(act_cell(buf[i])):
                zoned |= (<uint64_t>1) << c
            else:
                useless |= (<uint64_t>1) << c
    useless &= ~zoned  # cards that reach no cell of the zone: a waiting move may spend one
    for i in range(n):
        kind = act_kind(buf[i])
        if kind == ACT_EXCHANGE:
            continue
        if kind == ACT_PLACE or kind == ACT_REMOVE:
            if not (zone & bit(act_cell(buf[i]))):
                if waiting < 0 and (useless >> act_card(buf[i])) & 1:
                    waiting = i
                continue
        memcpy(&child, g, sizeof(Game))
        apply_action(t, &child, buf[i], NULL, NULL, -1)
        if prove(p, &child, ply + 1):
            keep_line(p, ply, buf[i])
            found = 1
            break
        if p.stopped:
            break
    if not found and not p.stopped and waiting >= 0:
        memcpy(&child, g, sizeof(Game))
        apply_action(t, &child, buf[waiting], NULL, NULL, -1)
        if prove(p, &child, ply + 1):
            keep_line(p, ply, buf[waiting])
            found = 1
    free(buf)
    return found


cdef int prove(Prover* p, const Game* g, int ply) noexcept nogil:
    """1 when ``p.attacker`` wins from ``g`` before ``p.end`` against every defence."""
    cdef int turns[MAX_SIDES]
    cdef int seat = g.to_move
    cdef u128 zone
    if ply < PROOF_MAX_PLY:
        p.pv_n[ply] = 0
    if g.result != RESULT_NONE:
        return g.result == p.attacker
    if g.turn >= p.end or p.stopped or ply >= PROOF_MAX_PLY - 1:
        return 0
    p.nodes += 1
    if p.nodes > p.budget or (p.deadline > 0 and (p.nodes & 255) == 0 and monotonic() > p.deadline):
        p.stopped = 1
        return 0
    turns_left(p, g, turns)
    if turns[p.attacker] == 0:
        return 0
    zone = zone_of(p, g, turns)
    if p.t.seat_side[seat] == p.attacker and p.controlled[seat]:
        return or_node(p, g, ply, zone, turns[p.attacker] == 1)
    return and_node(p, g, ply, zone)


def prove_win(CoreGame game, int attacker, int captain, int plies, long long budget=100000,
              double seconds=0.0, uint64_t excluded=0):
    """Does side ``attacker`` win by force within ``plies`` turns from ``game``?

    Args:
        game: the position (an observation or an open state); it is not changed.
        attacker: the side whose forced win is sought.
        captain: a seat of that side that chooses its turns whatever it holds (the
            side that asked), or -1; other seats of the side choose only when their
            whole hand is known, else they are treated as anyone else (any card).
        plies: turns of any seat, the first of them the one to move now.
        budget: nodes at most (deterministic); seconds: a wall-clock cap too (0: none).
        excluded: a mask of card codes (bit ``c`` for code ``c``) taken out of the pool:
            the proof then holds on the condition that no seat holds or draws one of
            them unknown to the attacker before the win (the analysis' "wins unless
            green holds a one-eyed jack"); cards known to be in a hand stay playable.

    Returns:
        ``(proven, line, nodes, complete)``: ``line`` the proof's main line as core
        actions (an opponent's "anything else" is a pass); ``complete`` False when
        the budget ran out (a False ``proven`` then says nothing).
    """
    cdef Prover p
    cdef Game g
    cdef const Tables* t = &game.rules.t
    cdef int counts[MAX_CODES]
    cdef uint8_t pub[MAX_HAND]
    cdef int s, i, k, c, known, n, draws
    cdef bint proven
    memcpy(&g, &game.g, sizeof(Game))
    memset(&p, 0, sizeof(Prover))
    p.t = t
    p.attacker = attacker
    p.budget = budget
    if g.result != RESULT_NONE:
        return g.result == attacker, [], 0, True
    # refused: the game may end by running out of cards or room before the horizon (a
    # turn may draw once per exchange too)
    draws = plies * (1 + (t.ex_limit if 0 <= t.ex_limit <= MAX_HAND else MAX_HAND)) + 2
    if t.exhaustion != EXH_RESHUFFLE and g.draw_n + g.draft_n <= draws:
        return False, [], 0, True
    if popcount128(g.empty) <= plies + 1:
        return False, [], 0, True
    for s in range(t.players):
        known = 0
        for i in range(g.hand_n[s]):
            known += g.hand[s][i] != UNKNOWN_CARD
        if known == 0 and g.hand_n[s] > 0:  # what everyone saw it take (draft) is still held
            n = public_hand(&g, s, pub)
            for i in range(n):
                g.hand[s][i] = pub[i]
            known = n
        p.controlled[s] = t.seat_side[s] == attacker and (s == captain or known == g.hand_n[s])
    for c in range(MAX_CODES):
        counts[c] = 0
    for i in range(t.deck_n):
        counts[t.deck[i]] += 1
    for s in range(t.players):
        for i in range(g.hand_n[s]):
            if g.hand[s][i] != UNKNOWN_CARD:
                counts[g.hand[s][i]] -= 1
    for i in range(g.disc_n):
        counts[g.disc_card[i]] -= 1
    for c in range(t.n_codes):
        if counts[c] > 0:
            p.pool |= (<uint64_t>1) << c
    p.pool &= ~excluded
    for i in range(g.draw_n):
        g.draw[i] = UNKNOWN_CARD
    g.draw_known = 0
    for i in range(g.draft_n):
        g.draft[i] = UNKNOWN_CARD
    p.end = g.turn + plies
    if seconds > 0:
        p.deadline = monotonic() + seconds
    with nogil:
        proven = prove(&p, &g, 0)
    line = [p.pv[0][k] for k in range(p.pv_n[0])] if proven else []
    return bool(proven), line, p.nodes, not p.stopped
