# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled engine of Sequence Stacks (RULES.md §4, docs/stacks.md).

A game is the fixed-size ``StGame`` struct; every rule that runs per decision
(the legal actions, a play, the Block window, draws and recycling, the start and
end of a turn, the win and termination tests) is a ``noexcept nogil`` function
on it, so playouts and a future search never touch Python.  Hands are counts per
card kind, because a hand's order means nothing and the legal actions depend
only on which kinds it holds.  The classes at the bottom are the narrow door
:mod:`seqsolve.games.stacks.state` uses.

>>> from seqsolve.games.stacks.state import stacks_tables
>>> from seqsolve.games.stacks.rules import make_rules
>>> import numpy as np
>>> core = StacksCore(stacks_tables(make_rules("stacks", 2)), np.random.PCG64(1))
>>> core.deal(); core.hand_sizes(), core.draw_count, core.current_player
([5, 5], 102, 0)
"""

from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t

from seqsolve._core cimport rand_below

# ---------------------------------------------------------------- cards

cdef inline bint is_wild(int card) noexcept nogil:
    return card == ST_BW or card == ST_RW


cdef inline int card_colour(int card) noexcept nogil:
    return card // 6


cdef inline int card_value(int card) noexcept nogil:
    """1..5 for a number card, 0 for a wild."""
    return 0 if is_wild(card) else card % 6 + 1


cdef inline void shuffle(uint8_t* cards, int n, bitgen_t* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


cdef int next_seat(const StTables* t, const StGame* g, int seat) noexcept nogil:
    return (seat + g.direction + t.players) % t.players


cdef inline void hand_add(StGame* g, int seat, int card) noexcept nogil:
    if card == ST_UNKNOWN:
        g.hand_unknown[seat] += 1
    else:
        g.hand[seat][card] += 1
    g.hand_n[seat] += 1


cdef inline void hand_take(StGame* g, int seat, int card) noexcept nogil:
    g.hand[seat][card] -= 1
    g.hand_n[seat] -= 1


# ---------------------------------------------------------------- drawing (ST-20)

cdef void recycle(StGame* g, bitgen_t* rng) noexcept nogil:
    """The set-aside cards become the draw pile, shuffled.  Without a shuffle source
    (an observation) nobody knows the new order, so every card of it is unknown:
    nothing here invents what the table cannot see."""
    cdef int k, i, n = 0
    if rng == NULL:
        n = g.aside_n
        memset(g.draw, ST_UNKNOWN, n)
    else:
        for k in range(ST_KINDS):  # kind order, then the unknown ones: the same aside shuffles alike
            for i in range(g.aside[k]):
                g.draw[n] = k
                n += 1
        memset(g.draw + n, ST_UNKNOWN, g.aside_n - n)
        n = g.aside_n
        shuffle(g.draw, n, rng)
    g.draw_n = n
    g.aside_n = 0
    memset(g.aside, 0, sizeof(g.aside))


cdef bint draw_card(StGame* g, int seat, bitgen_t* rng) noexcept nogil:
    """One card from the top of the draw pile into ``seat``'s hand, recycling the
    set-aside piles when it is empty (lazily, ST-20); False when there is nothing.
    A second refill in one turn with no chip moved since the first is the stalled
    draw (ST-22 [OURS]): the cards would come back and be built again without end,
    so the game ends instead and nothing is recycled."""
    if g.draw_n == 0:
        if g.aside_n == 0:
            return 0
        if g.refilled:
            finish(g, ST_DRAW, ST_TERM_STALLED)
            return 0
        recycle(g, rng)
        g.refilled = 1
    g.draw_n -= 1
    hand_add(g, seat, g.draw[g.draw_n])
    return 1


cdef void draw_up_to(StGame* g, int seat, int size, bitgen_t* rng) noexcept nogil:
    while g.hand_n[seat] < size:
        if not draw_card(g, seat, rng):
            return


cdef void draw_five(StGame* g, int seat, bitgen_t* rng) noexcept nogil:
    cdef int i
    for i in range(ST_HAND):
        if not draw_card(g, seat, rng):
            return


# ---------------------------------------------------------------- piles and chips

cdef int colour_piles(const StGame* g, int colour) noexcept nogil:
    cdef int i, n = 0
    for i in range(g.n_piles):
        if g.pile_colour[i] == colour:
            n += 1
    return n


cdef int target_pile(const StTables* t, const StGame* g, int colour, int value) noexcept nogil:
    """Where a card of ``colour`` that needs a pile of ``value`` goes: the oldest such
    pile, or g.n_piles for a new pile (value 0, ST-7); -1 when there is none."""
    cdef int i
    if value == 0:
        return g.n_piles if colour_piles(g, colour) < t.max_piles else -1
    for i in range(g.n_piles):
        if g.pile_colour[i] == colour and g.pile_n[i] == value:
            return i
    return -1


cdef bint wins(const StTables* t, int blue, int red) noexcept nogil:
    """ST-21: enough chips, with enough of each colour."""
    return blue + red >= t.win_chips and blue >= t.win_min_each and red >= t.win_min_each


cdef int supply(const StTables* t, const StGame* g, int colour) noexcept nogil:
    cdef int s, n = t.chip_supply
    for s in range(t.players):
        n -= g.chips[s][colour]
    return n


cdef bint steal_allowed(const StTables* t, const StGame* g, int seat, int victim, int colour) noexcept nogil:
    """ST-19: a chip to take, and (unless stacks_steal_chip_can_win) no win by it."""
    if victim == seat or victim >= t.players or g.chips[victim][colour] == 0:
        return 0
    if t.steal_chip_can_win:
        return 1
    return not wins(t, g.chips[seat][0] + (colour == 0), g.chips[seat][1] + (colour == 1))


cdef int full_pile(const StGame* g) noexcept nogil:
    cdef int i
    for i in range(g.n_piles):
        if g.pile_n[i] == ST_FULL:
            return i
    return -1


cdef int aside_known(const StGame* g) noexcept nogil:
    """How many set-aside cards are known (the rest came from a position that gave
    the count alone)."""
    cdef int k, n = 0
    for k in range(ST_KINDS):
        n += g.aside[k]
    return n


cdef void set_aside(StGame* g, int p) noexcept nogil:
    """A completed or blocked pile leaves play for the set-aside stack (ST-9, ST-15)."""
    cdef int i
    for i in range(g.pile_n[p]):
        g.aside[g.pile[p][i]] += 1
    g.aside_n += g.pile_n[p]
    for i in range(p, g.n_piles - 1):
        memcpy(g.pile[i], g.pile[i + 1], ST_FULL)
        g.pile_n[i] = g.pile_n[i + 1]
        g.pile_colour[i] = g.pile_colour[i + 1]
    g.n_piles -= 1


# ---------------------------------------------------------------- turns

cdef void finish(StGame* g, int result, int termination) noexcept nogil:
    """The end: what only a game going on has (a window, this turn's progress, the
    direction) is cleared, as a finished position file has none of it."""
    g.result = result
    g.termination = termination
    g.block_asked = -1
    g.progress = 0
    g.refilled = 0
    g.direction = 1


cdef void begin_turn(const StTables* t, StGame* g, bitgen_t* rng) noexcept nogil:
    """The start of ``to_move``'s turn: a skip token spends the whole turn (ST-10),
    otherwise the hand is refilled (ST-11, or the literal seed's empty-hand draw)."""
    cdef int seat
    while g.result == ST_ONGOING:
        seat = g.to_move
        if g.skips[seat] == 0:
            if t.refill_empty_only:
                if g.hand_n[seat] == 0:
                    draw_five(g, seat, rng)
            else:
                draw_up_to(g, seat, ST_HAND, rng)
            return
        g.skips[seat] -= 1
        complete_turn(t, g)


cdef void complete_turn(const StTables* t, StGame* g) noexcept nogil:
    """Count the turn, apply ST-22, pass to the neighbour in the current direction."""
    g.turn += 1
    g.quiet = 0 if g.progress else g.quiet + 1
    g.progress = 0
    g.refilled = 0
    if g.draw_n == 0 and g.aside_n == 0 and g.quiet >= t.players:
        finish(g, ST_DRAW, ST_TERM_STALLED)
    elif g.turn >= t.max_turns:
        finish(g, ST_DRAW, ST_TERM_MAX_TURNS)
    else:
        g.to_move = next_seat(t, g, g.to_move)


cdef void end_turn(const StTables* t, StGame* g, bitgen_t* rng) noexcept nogil:
    complete_turn(t, g)
    begin_turn(t, g, rng)


cdef void close_window(const StTables* t, StGame* g, bint blocked, bitgen_t* rng) noexcept nogil:
    """The end of a Block window (ST-15): the pile is set aside; unblocked, the
    completer takes a chip if the supply has one (ST-9) and may win (ST-21).  Then
    the completer carries on with its turn."""
    cdef int p = full_pile(g), seat = g.to_move
    cdef int colour = g.pile_colour[p]
    g.block_asked = -1
    set_aside(g, p)
    if not blocked and supply(t, g, colour) > 0:
        g.chips[seat][colour] += 1
        g.refilled = 0
        if wins(t, g.chips[seat][0], g.chips[seat][1]):
            finish(g, seat, ST_TERM_WIN)


cdef int lay_on_pile(const StTables* t, StGame* g, int card, int arg) noexcept nogil:
    """ST-7, ST-8: the card on the pile it names (a new one for a start); that pile."""
    cdef int colour = card_colour(card)
    cdef int need = arg if is_wild(card) else card_value(card) - 1
    cdef int p = target_pile(t, g, colour, need)
    if p == g.n_piles:
        g.n_piles += 1
        g.pile_n[p] = 0
        g.pile_colour[p] = colour
    g.pile[p][g.pile_n[p]] = card
    g.pile_n[p] += 1
    return p


cdef void play_to_pile(const StTables* t, StGame* g, int card, int arg) noexcept nogil:
    """A completion opens the Block window at the completer's neighbour (ST-15)."""
    cdef int p = lay_on_pile(t, g, card, arg)
    g.progress = 1
    if g.pile_n[p] == ST_FULL:
        g.block_asked = next_seat(t, g, g.to_move)


cdef void land_after_stall(const StTables* t, StGame* g, int card, int arg) noexcept nogil:
    """The card whose ST-13 draw stalled the game (ST-22 [OURS]) still lands where it
    was played, so that every card is somewhere, but does nothing more: a pile it
    completes goes straight to the set-aside stack, an action card to the special pile."""
    cdef int p
    if card >= ST_SK:
        g.special[card] += 1
        return
    p = lay_on_pile(t, g, card, arg)
    if g.pile_n[p] == ST_FULL:
        set_aside(g, p)


cdef void play_action_card(const StTables* t, StGame* g, int card, int arg) noexcept nogil:
    cdef int seat = g.to_move, victim, colour, top
    g.special[card] += 1
    if card == ST_SK:  # ST-16: a token for whoever is next now
        g.skips[next_seat(t, g, seat)] += 1
    elif card == ST_RV:  # ST-17
        g.direction = -g.direction
    elif card == ST_SC:  # ST-18
        victim = arg
        g.disc_n[victim] -= 1
        top = g.disc[victim][g.disc_n[victim]]
        hand_add(g, seat, top)
    elif card == ST_SX:  # ST-19
        victim = arg // 2
        colour = arg % 2
        g.chips[victim][colour] -= 1
        g.chips[seat][colour] += 1
        g.progress = 1
        g.refilled = 0
        if wins(t, g.chips[seat][0], g.chips[seat][1]):  # only with stacks_steal_chip_can_win
            finish(g, seat, ST_TERM_WIN)


cdef void st_apply(const StTables* t, StGame* g, int action, bitgen_t* rng) noexcept nogil:
    """Play one action, assumed legal (the Python face checks what users give)."""
    cdef int seat = g.to_move, card, arg, src, asked
    if action == ST_BLOCK:
        asked = g.block_asked
        hand_take(g, asked, ST_BK)
        g.special[ST_BK] += 1
        close_window(t, g, 1, rng)
        return
    if action == ST_PASS:
        asked = next_seat(t, g, g.block_asked)
        if asked == seat:
            close_window(t, g, 0, rng)
        else:
            g.block_asked = asked
        return
    if action == ST_END:
        end_turn(t, g, rng)
        return
    if action >= ST_DISCARD:  # ST-14
        card = action - ST_DISCARD
        hand_take(g, seat, card)
        g.disc[seat][g.disc_n[seat]] = card
        g.disc_n[seat] += 1
        end_turn(t, g, rng)
        return
    src = action // ST_PLAY_SPAN
    card = (action % ST_PLAY_SPAN) // ST_ARGS
    arg = action % ST_ARGS
    if src:
        g.disc_n[seat] -= 1
    else:
        hand_take(g, seat, card)
        if g.hand_n[seat] == 0:  # ST-13: five more at once, as the last card leaves the hand
            draw_five(g, seat, rng)
            if g.result != ST_ONGOING:
                land_after_stall(t, g, card, arg)
                return
    if card < ST_SK:
        play_to_pile(t, g, card, arg)
    else:
        play_action_card(t, g, card, arg)


# ---------------------------------------------------------------- legal actions

cdef int card_plays(const StTables* t, const StGame* g, int card, int base, int16_t* out) noexcept nogil:
    """Every play of ``card`` (from the hand or the discard top, by ``base``) into out."""
    cdef int n = 0, arg, seat = g.to_move, colour
    if card < ST_SK:
        colour = card_colour(card)
        if is_wild(card):
            for arg in range(ST_FULL):
                if target_pile(t, g, colour, arg) >= 0:
                    out[n] = base + card * ST_ARGS + arg
                    n += 1
        elif target_pile(t, g, colour, card_value(card) - 1) >= 0:
            out[n] = base + card * ST_ARGS
            n += 1
    elif card == ST_SK or card == ST_RV:
        out[n] = base + card * ST_ARGS
        n += 1
    elif card == ST_SC:
        for arg in range(t.players):
            if arg != seat and g.disc_n[arg] > 0:
                out[n] = base + card * ST_ARGS + arg
                n += 1
    elif card == ST_SX:
        for arg in range(2 * t.players):
            if steal_allowed(t, g, seat, arg // 2, arg % 2):
                out[n] = base + card * ST_ARGS + arg
                n += 1
    return n  # a Block is never a play (ST-15)


cdef int st_legal_actions(const StTables* t, const StGame* g, int16_t* out) noexcept nogil:
    """The legal actions in ascending order into ``out`` (room for ST_NUM_ACTIONS);
    returns how many.  Only known cards are played: a hand of unknown cards (an
    observation's) has no legal action until it is resampled."""
    cdef int n = 0, seat = g.to_move, card, top
    if g.result != ST_ONGOING:
        return 0
    if g.block_asked >= 0:
        if g.hand[g.block_asked][ST_BK] > 0:
            out[n] = ST_BLOCK
            n += 1
        out[n] = ST_PASS
        return n + 1
    for card in range(ST_KINDS):
        if g.hand[seat][card] > 0:
            n += card_plays(t, g, card, 0, out + n)
    if g.disc_n[seat] > 0:
        top = g.disc[seat][g.disc_n[seat] - 1]
        if top < ST_SK or (t.actions_from_discard and top != ST_BK):
            n += card_plays(t, g, top, ST_PLAY_SPAN, out + n)
    for card in range(ST_KINDS):
        if g.hand[seat][card] > 0:
            out[n] = ST_DISCARD + card
            n += 1
    if g.hand_n[seat] == 0:
        out[n] = ST_END
        n += 1
    return n


cdef int st_current_player(const StGame* g) noexcept nogil:
    """The seat that decides now: the asked opponent in a Block window; -1 when over."""
    if g.result != ST_ONGOING:
        return -1
    return g.block_asked if g.block_asked >= 0 else g.to_move


cdef int st_random_action(const StTables* t, const StGame* g, bitgen_t* rng) noexcept nogil:
    """A legal action drawn uniformly, or -1 when there is none."""
    cdef int16_t buf[ST_NUM_ACTIONS]
    cdef int n = st_legal_actions(t, g, buf)
    if n == 0:
        return -1
    return buf[rand_below(rng, n)]


cdef int st_playout(const StTables* t, StGame* g, bitgen_t* rng) noexcept nogil:
    """Uniformly random play to the end; returns the number of actions played (it
    stops early only at a hand of unknown cards, which has no legal action)."""
    cdef int action, plies = 0
    while g.result == ST_ONGOING:
        action = st_random_action(t, g, rng)
        if action < 0:
            break
        st_apply(t, g, action, rng)
        plies += 1
    return plies


cdef void st_deal(const StTables* t, StGame* g, bitgen_t* rng) noexcept nogil:
    """A new game (ST-5, ST-6): the deck shuffled, five cards to each seat one at a
    time from seat 0, seat 0 to move forward."""
    cdef int k, i, s, n = 0
    memset(g, 0, sizeof(StGame))
    for k in range(ST_KINDS):
        for i in range(t.deck[k]):
            g.draw[n] = k
            n += 1
    g.draw_n = n
    shuffle(g.draw, n, rng)
    g.direction = 1
    g.block_asked = -1
    g.result = ST_ONGOING
    for i in range(ST_HAND):
        for s in range(t.players):
            if s == 0 and i >= ST_HAND - t.first_turn_short:
                continue  # K-4: seat 0 is skipped in the last rounds of the deal
            draw_card(g, s, rng)
    for i in range(t.first_hand_bonus):  # K-7: seat 0's extra cards, after the ordinary rounds
        draw_card(g, 0, rng)
    if t.first_turn_short == 0:
        begin_turn(t, g, rng)  # K-4: otherwise seat 0 plays its first turn short, unrefilled


cdef unsigned int perft_calls = 0  # inner nodes counted by perft, to space out its signal checks


cdef long long perft(const StTables* t, const StGame* g, bitgen_t* rng, int depth) except -1 nogil:
    """Leaves ``depth`` actions below ``g``; -1 with the exception set when a signal
    handler raised (checked every 2**16 inner nodes)."""
    global perft_calls
    cdef int16_t buf[ST_NUM_ACTIONS]
    cdef StGame child
    cdef int n, i
    cdef long long total = 0
    if depth == 0:
        return 1
    n = st_legal_actions(t, g, buf)
    if depth == 1:
        return n
    perft_calls += 1
    if (perft_calls & 0xFFFF) == 0:
        with gil:
            PyErr_CheckSignals()
    for i in range(n):
        memcpy(&child, g, sizeof(StGame))
        st_apply(t, &child, buf[i], rng)
        if child.result == ST_ONGOING:
            total += perft(t, &child, rng, depth - 1)
    return total


# ---------------------------------------------------------------- Python door

cdef bitgen_t* bitgen_of(object bit_generator) except NULL:
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


cdef class StacksTables:
    """The rule options of one game (StacksRules) as the engine reads them."""

    def __init__(self, int players, str refill, int max_piles_per_colour, int chip_supply,
                 int win_chips, int win_min_each, bint actions_from_discard,
                 bint steal_chip_can_win, int max_turns, list deck, int first_turn_short=0,
                 int first_hand_bonus=0):
        cdef StTables* t = &self.t
        cdef int k
        if not 2 <= players <= ST_MAX_SEATS or not 1 <= max_piles_per_colour <= ST_MAX_PILES // 2:
            raise ValueError("too many players or piles for the Stacks engine")
        if len(deck) != ST_KINDS or sum(deck) > ST_DECK or not 0 <= chip_supply <= 127:
            raise ValueError("deck or chip supply too large for the Stacks engine")
        if not 0 <= first_turn_short < ST_HAND:
            raise ValueError("stacks_first_turn_short must leave seat 0 a card")
        if not 0 <= first_hand_bonus <= ST_HAND or (first_hand_bonus and first_turn_short):
            raise ValueError("stacks_first_hand_bonus must be 0..5, without stacks_first_turn_short")
        if players * ST_HAND + first_hand_bonus > sum(deck):
            raise ValueError("the deal does not fit in the deck")
        memset(t, 0, sizeof(StTables))
        t.players = players
        t.refill_empty_only = refill == "empty_hand_only"
        t.max_piles = max_piles_per_colour
        t.chip_supply = chip_supply
        t.win_chips = win_chips
        t.win_min_each = win_min_each
        t.actions_from_discard = actions_from_discard
        t.steal_chip_can_win = steal_chip_can_win
        t.max_turns = max_turns
        t.first_turn_short = first_turn_short
        t.first_hand_bonus = first_hand_bonus
        for k in range(ST_KINDS):
            t.deck[k] = deck[k]
            t.deck_n += deck[k]

    @property
    def players(self):
        return self.t.players


_COPY = object()


cdef class StacksCore:
    """One game's state, plus the numpy bit generator that shuffles its recycled
    piles (None: recycled piles stay unknown)."""

    def __init__(self, StacksTables tables, bit_generator=None):
        self.tables = tables
        self.bit_generator = bit_generator
        self.rng = bitgen_of(bit_generator) if bit_generator is not None else NULL
        memset(&self.g, 0, sizeof(StGame))
        self.g.direction = 1
        self.g.block_asked = -1
        self.g.result = ST_ONGOING

    def deal(self):
        if self.rng == NULL:
            raise ValueError("dealing needs a bit generator")
        st_deal(&self.tables.t, &self.g, self.rng)

    def clone(self, bit_generator=_COPY):
        """A copy sharing no state; the bit generator is copied unless another (or None)
        is given."""
        if bit_generator is _COPY and self.bit_generator is not None:
            bit_generator = type(self.bit_generator)()
            bit_generator.state = self.bit_generator.state
        elif bit_generator is _COPY:
            bit_generator = None
        cdef StacksCore other = StacksCore.__new__(StacksCore)
        other.tables = self.tables
        other.bit_generator = bit_generator
        other.rng = bitgen_of(bit_generator) if bit_generator is not None else NULL
        memcpy(&other.g, &self.g, sizeof(StGame))
        return other

    # -- actions
    def legal_actions(self):
        cdef int16_t buf[ST_NUM_ACTIONS]
        cdef int n = st_legal_actions(&self.tables.t, &self.g, buf)
        return [buf[i] for i in range(n)]

    def apply(self, int action):
        with nogil:
            st_apply(&self.tables.t, &self.g, action, self.rng)

    cdef bitgen_t* need_rng(self) except NULL:
        if self.rng == NULL:
            raise ValueError("this game has no bit generator (an observation): resample it first")
        return self.rng

    def random_action(self):
        """A uniform legal action (-1 when there is none), drawn with the game's generator."""
        return st_random_action(&self.tables.t, &self.g, self.need_rng())

    def playout(self):
        """Uniform random play to the end; returns the number of actions played."""
        cdef bitgen_t* rng = self.need_rng()
        cdef int plies
        with nogil:
            plies = st_playout(&self.tables.t, &self.g, rng)
        return plies

    def perft(self, int depth):
        """Leaves of the action tree ``depth`` deep (Ctrl-C stops it)."""
        cdef long long total
        with nogil:
            total = perft(&self.tables.t, &self.g, self.rng, depth)
        return total

    # -- reading
    @property
    def current_player(self):
        cdef int p = st_current_player(&self.g)
        return None if p < 0 else p

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
    def draw_count(self):
        return self.g.draw_n

    def hand_sizes(self):
        return [self.g.hand_n[s] for s in range(self.tables.t.players)]

    def hand_counts(self, int seat):
        """Known cards of ``seat``'s hand per kind, and how many are unknown."""
        return [self.g.hand[seat][k] for k in range(ST_KINDS)], self.g.hand_unknown[seat]

    def has_unknown(self):
        """Whether a hand, the draw pile or the set-aside stack holds an unknown card."""
        cdef int s, i
        if aside_known(&self.g) < self.g.aside_n:
            return True
        for i in range(self.g.draw_n):
            if self.g.draw[i] == ST_UNKNOWN:
                return True
        for s in range(self.tables.t.players):
            if self.g.hand_unknown[s]:
                return True
        return False

    def dump(self):
        """Every field as plain Python values (the names of StacksPosition; lists of
        known cards in kind order where order has no meaning)."""
        cdef StGame* g = &self.g
        cdef int s, k, i, players = self.tables.t.players
        over = g.result != ST_ONGOING
        draw = [g.draw[g.draw_n - 1 - i] for i in range(g.draw_n)]  # top first
        return {
            "to_move": None if over else g.to_move,
            "direction": g.direction,
            "progress": bool(g.progress),
            "refilled": bool(g.refilled),
            "block_asked": None if g.block_asked < 0 else g.block_asked,
            "result": None if not over else ("draw" if g.result == ST_DRAW else g.result),
            "hands": [[k for k in range(ST_KINDS) for i in range(g.hand[s][k])] for s in range(players)],
            "unknown": [g.hand_unknown[s] for s in range(players)],
            "discards": [[g.disc[s][i] for i in range(g.disc_n[s])] for s in range(players)],
            "special": [k for k in range(ST_KINDS) for i in range(g.special[k])],
            "piles": [[g.pile[p][i] for i in range(g.pile_n[p])] for p in range(g.n_piles)],
            "chips": [(g.chips[s][0], g.chips[s][1]) for s in range(players)],
            "skips": [g.skips[s] for s in range(players)],
            "aside_count": g.aside_n,
            "aside_cards": [k for k in range(ST_KINDS) for i in range(g.aside[k])] if aside_known(g) == g.aside_n else None,
            "draw_count": g.draw_n,
            "draw_cards": None if ST_UNKNOWN in draw else draw,
            "turn": g.turn,
            "quiet": g.quiet,
            "termination": g.termination,
        }

    def load(self, dict p):
        """Set every field from plain Python values (the keys :meth:`dump` gives); the
        position is taken as it stands, its turn already begun."""
        cdef StGame* g = &self.g
        cdef int s, i, players = self.tables.t.players
        memset(g, 0, sizeof(StGame))
        g.turn, g.quiet = p["turn"], p["quiet"]
        g.direction = p["direction"]
        g.progress = p["progress"]
        g.refilled = p["refilled"]
        g.block_asked = -1 if p["block_asked"] is None else p["block_asked"]
        result = p["result"]
        g.result = ST_ONGOING if result is None else (ST_DRAW if result == "draw" else result)
        g.termination = p.get("termination", ST_TERM_NONE if result is None else
                              (ST_TERM_WIN if result != "draw" else ST_TERM_RECORDED))
        g.to_move = p["to_move"] if p["to_move"] is not None else 0
        for s in range(players):
            for k in p["hands"][s]:
                g.hand[s][k] += 1
            g.hand_unknown[s] = p["unknown"][s]
            g.hand_n[s] = len(p["hands"][s]) + p["unknown"][s]
            g.disc_n[s] = len(p["discards"][s])
            for i, k in enumerate(p["discards"][s]):
                g.disc[s][i] = k
            g.chips[s][0], g.chips[s][1] = p["chips"][s]
            g.skips[s] = p["skips"][s]
        for k in p["special"]:
            g.special[k] += 1
        if len(p["piles"]) > ST_MAX_PILES:
            raise ValueError("too many piles for the Stacks engine")
        g.n_piles = len(p["piles"])
        for i, pile in enumerate(p["piles"]):
            if not 1 <= len(pile) <= ST_FULL:
                raise ValueError("a pile holds 1 to 5 cards")
            g.pile_n[i] = len(pile)
            g.pile_colour[i] = card_colour(pile[0])
            for s, k in enumerate(pile):
                g.pile[i][s] = k
        g.aside_n = p["aside_count"]
        for k in p["aside_cards"] or ():
            g.aside[k] += 1
        g.draw_n = p["draw_count"]
        memset(g.draw, ST_UNKNOWN, g.draw_n)
        for i, k in enumerate(p["draw_cards"] or ()):  # top first
            g.draw[g.draw_n - 1 - i] = k

    def mask_hidden(self, int viewer):
        """Forget what ``viewer`` cannot see: the other hands and the draw pile (§4.8)."""
        cdef int s, k
        for s in range(self.tables.t.players):
            if s != viewer:
                for k in range(ST_KINDS):
                    self.g.hand[s][k] = 0
                self.g.hand_unknown[s] = self.g.hand_n[s]
        memset(self.g.draw, ST_UNKNOWN, self.g.draw_n)

    def set_hidden(self, list hands, list draw, aside):
        """Install a world: every hand's cards, the draw pile (top first) and, if given,
        the set-aside cards — how resampling deals the unseen cards."""
        cdef int s, i, k
        for s, hand in enumerate(hands):
            memset(self.g.hand[s], 0, ST_KINDS)
            for k in hand:
                self.g.hand[s][k] += 1
            self.g.hand_unknown[s] = 0
            self.g.hand_n[s] = len(hand)
        self.g.draw_n = len(draw)
        for i, k in enumerate(draw):
            self.g.draw[self.g.draw_n - 1 - i] = k
        if aside is not None:
            memset(self.g.aside, 0, ST_KINDS)
            for k in aside:
                self.g.aside[k] += 1
            self.g.aside_n = len(aside)


def random_games(StacksTables tables, bit_generator, long n_games):
    """Deal and play ``n_games`` uniformly random games without the GIL; returns
    (games, actions, draws)."""
    cdef bitgen_t* rng = bitgen_of(bit_generator)
    cdef StGame g
    cdef long i
    cdef long long plies = 0, draws = 0
    with nogil:
        for i in range(n_games):
            if (i & 63) == 63:
                with gil:
                    PyErr_CheckSignals()
            st_deal(&tables.t, &g, rng)
            plies += st_playout(&tables.t, &g, rng)
            if g.result == ST_DRAW:
                draws += 1
    return n_games, plies, draws
