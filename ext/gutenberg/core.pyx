# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled rules of Gutenberg: one C struct per state, rule functions without the GIL.

Sequence of a game (rulebook: Game Preparation, Sequence of Play, End of the Game):

    setup deal (chance) -> order draft -> types -> 6 x [turn gears, free actions before
    the plans (a window per player), plan (hidden, one action per player), execute the 5
    rows (turns with sub-decisions and free actions), fulfil orders (free actions before
    choosing, the fulfilment gears after, free actions again after printing), prepare the
    next round (chance)] -> end scoring.

Free actions (buy a type, use a gear, Plantin's swap: the rulebook's "at any time") are
the same few actions wherever they are offered; in a window of their own "done"
(A_PASS) closes it, and a window with nothing to do is skipped (has_free_action).

Rewards that need choices (inks of choice, specialty levels, an order as a reward, the
sub-steps of a gear) wait in a queue of pending decisions that is served before the
phase goes on; the player who earned a reward decides it.

Action encoding (player actions; the ranges are enums in gutenberg_types.pxd):

    [A_PLAN, +2723)        plan: index into the table of allocations of 0-10 initiative
                           markers on the 5 rows (at most 6 a row); legal: the player's count
    [A_PRINTING, +50)      printing card X: draft pick, take from the board, keep from draws
    [A_REFINEMENT, +50)    refinement card X: likewise
    [A_TYPES, +20)         setup: the 3 types (multisets of A, I, O, U, lexicographic)
    [A_INKS, +15)          take inks: space s, k inks from the left: s*3 + (k-1)
    [A_SPECIALTY, +50)     develop: specialty card X, use m: X*5 + m; m=0 the card's icons,
                           m=1+j: +1 level to specialty j, one the card does not show
    [A_GEAR, +32)          improve: take gear X from the board
    [A_PLACE, +9)          improve: install the taken gear at position p, active sector o
    [A_REORIENT, +9)       improve: turn the installed gear at p to active sector o
    [A_PATRON_REWARD, +4)  patronage: reward space k (order, specialty, guilders, inks)
    [A_PATRON_CARD, +16)   patronage: patronage card X
    [A_DISCARD, +4)        discard the order in slot k (to make room for a new one)
    [A_BUY, +4)            free action: buy a type (the n-th type costs n guilders)
    [A_USE_GEAR, +3)       free action: use the active sector of the gear at position p
    A_PASS                 pass a turn / done (a free-action window, choosing orders,
                           after printing) / decline a completion reward or an order
    [A_FULFIL, +20)        fulfil: order slot k, mode m: k*5 + m (skip, print, print+colour,
                           print+decoration, print+both)
    [A_INK, +4)            choose an ink colour (reward, swap)
    [A_LETTER, +4)         choose a letter (free type, swap, sell, discount)
    [A_SPECIALTY_UP, +4)   choose a specialty for +1 level
    A_SELL_GUILDERS, A_SELL_FAME   sold type: 5 guilders or 3 fame
    [A_MORE, +3)           order as a reward: pay 2 guilders for 2 more: PP, RR, PR
    [A_CHARACTER, +10)     setup: keep character tile X
    [A_SHIFT, +25)         Gutenberg: move a marker from row i to row j: i*5 + j
    [A_SWAP, +16)          Plantin: swap the levels of specialties i < j: i*4 + j

Chance outcomes: [C_PRINTING, +50) printing card, [C_REFINEMENT, +50), [C_SPECIALTY, +10),
[C_GEAR, +32), [C_PATRONAGE, +16) card ids, [C_INK, +4) an ink colour from the bag,
[C_CHARACTER, +10) a character tile, [C_AUTOMA_PLAN, +10) an automa planning card,
[C_AUTOMA_SPACE, +5) the board space an automa execution card names, C_AUTOMA_NONE no
execution card left for the automa's refinement card at take orders. Decks are unordered
sets, so each draw's outcomes are exactly the cards left in the deck, each with the same
probability; inks are drawn in proportion to the bag's contents.
"""
from libc.string cimport memset, memcpy

from engine_types cimport *
from gutenberg_types cimport *
from libc.stdint cimport int8_t, int16_t, uint16_t, uint32_t, uint64_t
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

include "engine.pxi"   # the random generator, bit helpers, returns_formula (every game's)

cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define GUTENBERG_LITTLE_ENDIAN 1
    #else
    #define GUTENBERG_LITTLE_ENDIAN 0
    #endif
    """
    bint LITTLE_ENDIAN "GUTENBERG_LITTLE_ENDIAN"

# Rulebook constants that are not card data.
cdef enum:
    SELL_TYPE_GUILDERS = 5
    SELL_TYPE_FAME = 3
    TYPE_DISCOUNT = 3
    REDRAW_COST = 2
    ORDER_DRAW = 2          # printing and refinement cards drawn for an order as a reward
    FULFIL_GEAR_FAME = 2    # per order, for the three fulfilment gears

# ---------------------------------------------------------------------------------------
# Tables built once at import.
# ---------------------------------------------------------------------------------------
cdef int16_t PLAN_TABLE[N_PLANS][N_ROWS]
cdef int PLAN_START[MAX_MARKERS + 2]  # plans of m markers: [PLAN_START[m], PLAN_START[m + 1])
cdef int16_t TYPE_SET[N_TYPE_SETS][3]
cdef enum:
    N_EXECUTION_ORDERS = 24   # orders of the 4 automa execution cards (4!)
cdef int8_t EXECUTION_ORDER[N_EXECUTION_ORDERS][N_AUTOMA_EXECUTION]


cdef void _build_tables():
    cdef int idx = 0, total, a, b, c, d, e
    # Every count 0-10: a game has 7-10 markers a player; small variants start from
    # positions with fewer.
    for total in range(MAX_MARKERS + 1):
        PLAN_START[total] = idx
        for a in range(7):
            for b in range(7):
                for c in range(7):
                    for d in range(7):
                        e = total - a - b - c - d
                        if 0 <= e <= 6:
                            PLAN_TABLE[idx][0] = a
                            PLAN_TABLE[idx][1] = b
                            PLAN_TABLE[idx][2] = c
                            PLAN_TABLE[idx][3] = d
                            PLAN_TABLE[idx][4] = e
                            idx += 1
    PLAN_START[MAX_MARKERS + 1] = idx
    assert idx == N_PLANS, idx
    idx = 0
    for a in range(4):
        for b in range(a, 4):
            for c in range(b, 4):
                TYPE_SET[idx][0] = a
                TYPE_SET[idx][1] = b
                TYPE_SET[idx][2] = c
                idx += 1
    assert idx == N_TYPE_SETS
    idx = 0
    for a in range(N_AUTOMA_EXECUTION):
        for b in range(N_AUTOMA_EXECUTION):
            for c in range(N_AUTOMA_EXECUTION):
                d = 6 - a - b - c
                if len({a, b, c, d}) == N_AUTOMA_EXECUTION:
                    EXECUTION_ORDER[idx][0] = a
                    EXECUTION_ORDER[idx][1] = b
                    EXECUTION_ORDER[idx][2] = c
                    EXECUTION_ORDER[idx][3] = d
                    idx += 1
    assert idx == N_EXECUTION_ORDERS


_build_tables()

# ---------------------------------------------------------------------------------------
# Small helpers.
# ---------------------------------------------------------------------------------------
cdef inline int total4(const int16_t* v) noexcept nogil:
    return v[0] + v[1] + v[2] + v[3]


cdef inline int offset_of(const GameState* s, int seat) noexcept nogil:
    return (seat - s.first_player + s.num_seats) % s.num_seats


cdef inline int installed(const PlayerState* p) noexcept nogil:
    cdef int n = 0
    while n < MAX_INSTALLED and p.gear[n] >= 0:
        n += 1
    return n


cdef inline bint holds_order(const PlayerState* p, int k) noexcept nogil:
    """Whether order slot k (0 <= k < MAX_ORDERS) holds an order."""
    return p.order_printing[k] >= 0


cdef inline int held_orders(const PlayerState* p) noexcept nogil:
    cdef int k, n = 0
    for k in range(MAX_ORDERS):
        if holds_order(p, k):
            n += 1
    return n


cdef inline int type_cost(const PlayerState* p) noexcept nogil:
    # Buying your n-th type costs n guilders.
    return total4(p.types) + 1


cdef inline bint room_for_type(const PlayerState* p) noexcept nogil:
    """Whether the player may gain a type (bought, a reward, a discount): a printing house
    holds at most MAX_TYPES types in all (docs/rulings.md), the bound of position files."""
    return total4(p.types) < MAX_TYPES


cdef inline int human_seat(const GameState* s, int k) noexcept nogil:
    """The k-th player (the automa skipped) in seat order from the first player."""
    cdef int i, seat = s.first_player
    if s.automa_seat < 0:
        # (first_player + k) % num_seats, without a division: k < num_seats, so one lap
        # at most, taken off without a branch (which seat acts is as good as random in a
        # rollout); the loop is for a k beyond, and never runs otherwise.
        seat += k
        seat -= s.num_seats * (seat >= s.num_seats)
        while seat >= s.num_seats:
            seat -= s.num_seats
        return seat
    for i in range(s.num_seats):
        if seat != s.automa_seat:
            if k == 0:
                return seat
            k -= 1
        seat += 1
        if seat == s.num_seats:
            seat = 0
    return -1


cdef inline int draft_seat(const GameState* s) noexcept nogil:
    # One order each clockwise, then one each counter-clockwise (the automa drafts none).
    if s.step < s.num_players:
        return human_seat(s, s.step)
    return human_seat(s, 2 * s.num_players - 1 - s.step)


cdef inline int gear_kind(const Catalogue* cat, const PlayerState* p, int pos) noexcept nogil:
    return cat.gears[p.gear[pos]].sectors[p.gear_active[pos]].kind


cdef inline int gear_mask(const Catalogue* cat, const PlayerState* p, int pos) noexcept nogil:
    return cat.gears[p.gear[pos]].sectors[p.gear_active[pos]].mask


cdef inline int mask_index(int mask) noexcept nogil:
    return ctz64(<uint64_t>mask)

# ---------------------------------------------------------------------------------------
# Pending decisions (a queue: pending[0] is served first).
# ---------------------------------------------------------------------------------------
cdef void push_pending(GameState* s, int kind, int seat, int amount, int arg) noexcept nogil:
    if s.n_pending >= MAX_PENDING:
        return
    cdef Pending* p = &s.pending[s.n_pending]
    p.kind = kind
    p.seat = seat
    p.amount = amount
    p.arg = arg
    p.arg2 = -1
    p.stage = -1 if kind == PD_ORDER or kind == PD_GUILLARD else 0
    s.n_pending += 1


cdef void pop_pending(GameState* s) noexcept nogil:
    cdef int i
    for i in range(1, s.n_pending):
        s.pending[i - 1] = s.pending[i]
    s.n_pending -= 1


cdef void give_reward(GameState* s, int seat, int kind, int amount, int optional) noexcept nogil:
    """A reward of the player at `seat`; `optional` (REWARD_OPTIONAL or REWARD_TAKEN):
    whether the choices it needs may be declined. An order as a reward is optional
    wherever it comes from ("an (optional) reward", p.8)."""
    cdef PlayerState* p = &s.players[seat]
    cdef int i
    if amount <= 0:
        return
    if kind == REWARD_INK:
        push_pending(s, PD_INK, seat, amount, optional)
    elif kind == REWARD_GUILDERS:
        p.guilders += amount
    elif kind == REWARD_FAME:
        p.fame += amount
    elif kind == REWARD_SPECIALTY:
        push_pending(s, PD_SPECIALTY, seat, amount, optional)
    elif kind == REWARD_ORDER:
        for i in range(amount):
            push_pending(s, PD_ORDER, seat, 1, 0)
    elif kind == REWARD_TYPE:
        push_pending(s, PD_TYPE, seat, amount, optional)


cdef void reach_track(GameState* s, const Catalogue* cat, int seat, int level) noexcept nogil:
    """A specialty at `level`: each reward-track level reached the first time (on any
    specialty) gives its reward; the player "takes the indicated reward" (p.9)."""
    cdef PlayerState* p = &s.players[seat]
    while p.track < N_TRACK and level >= cat.track_level[p.track]:
        give_reward(s, seat, cat.track_reward[p.track].kind, cat.track_reward[p.track].amount,
                    REWARD_TAKEN)
        p.track += 1


cdef void raise_specialty(GameState* s, const Catalogue* cat, int seat, int j, int n) noexcept nogil:
    """Move specialty j up n levels: past VI each step pays guilders; reaching a
    reward-track level first time (on any specialty) takes that track reward."""
    cdef PlayerState* p = &s.players[seat]
    cdef int i
    for i in range(n):
        if p.levels[j] >= MAX_LEVEL:
            p.guilders += cat.overflow_guilders
            continue
        p.levels[j] += 1
        reach_track(s, cat, seat, p.levels[j])

# ---------------------------------------------------------------------------------------
# Dealing: the next space to fill (setup and Prepare the Next Round).
# ---------------------------------------------------------------------------------------
cdef enum:
    DEAL_NONE = 0
    DEAL_DRAFT_PRINTING
    DEAL_DRAFT_REFINEMENT
    DEAL_PRINTING           # the board's kinds, DEAL_PRINTING to DEAL_PATRONAGE, in the order they fill (board_deal)
    DEAL_REFINEMENT
    DEAL_INK
    DEAL_SPECIALTY
    DEAL_GEAR
    DEAL_PATRONAGE
    DEAL_CHARACTER
    DEAL_AUTOMA_PLAN
    DEAL_AUTOMA_SPACE


cdef int draft_size(const GameState* s, const Catalogue* cat) noexcept nogil:
    # The automa takes no order cards: one order fewer is laid out (its issue).
    cdef int n = cat.board[s.num_seats].draft
    if s.automa_seat >= 0:
        n -= 1
    return n


cdef inline int next_deal(const GameState* s, const Catalogue* cat, int* index) noexcept nogil:
    index[0] = 0
    if s.phase == PH_SETUP_DEAL:
        if s.printing_deck | s.printing_discard:
            if popcount64(s.draft_printing) < draft_size(s, cat):
                return DEAL_DRAFT_PRINTING
        if s.refinement_deck | s.refinement_discard:
            if popcount64(s.draft_refinement) < draft_size(s, cat):
                return DEAL_DRAFT_REFINEMENT
    return board_deal(s, cat, index)


cdef inline int board_deal(const GameState* s, const Catalogue* cat, int* index) noexcept nogil:
    """next_deal's space to fill on the board (its index in `index`). Spaces fill in the
    order of the deals DEAL_PRINTING to DEAL_PATRONAGE, each kind while its deck (or
    discard pile) has cards."""
    cdef const int16_t* spaces
    cdef int n, deal = DEAL_PRINTING
    while deal <= DEAL_PATRONAGE:
        spaces = deal_spaces(s, cat, deal, &n)
        if n >= 0:
            index[0] = first_empty(spaces, n)
            if index[0] >= 0:
                return deal
        deal += 1
    return DEAL_NONE


cdef inline const int16_t* deal_spaces(const GameState* s, const Catalogue* cat, int deal,
                                       int* n) noexcept nogil:
    """The spaces a deal of kind `deal` fills, their number in `n`: -1 while it has
    nothing to deal (its deck and discard pile empty, the bag empty, the patronage cards
    after the setup)."""
    cdef const BoardLayout* b = &cat.board[s.num_seats]
    if deal == DEAL_PRINTING:
        n[0] = b.printing if s.printing_deck | s.printing_discard else -1
        return s.printing_space
    if deal == DEAL_REFINEMENT:
        n[0] = b.refinement if s.refinement_deck | s.refinement_discard else -1
        return s.refinement_space
    if deal == DEAL_INK:
        n[0] = b.ink_sets * INK_SET if total4(s.bag) > 0 else -1
        return &s.ink_space[0][0]
    if deal == DEAL_SPECIALTY:
        n[0] = b.specialty if s.specialty_deck | s.specialty_discard else -1
        return s.specialty_space
    if deal == DEAL_GEAR:
        n[0] = b.gears if s.gear_deck | s.gear_discard else -1
        return s.gear_space
    n[0] = N_PATRONAGE_SPACES if s.phase == PH_SETUP_DEAL and s.patronage_box else -1
    return s.patronage_space


cdef inline int first_empty(const int16_t* spaces, int n) noexcept nogil:
    """The first of n spaces holding nothing (-1), or -1. Four spaces are looked at a time
    (on a little-endian machine): a card or ink is >= 0, so the sign bits of four int16
    read as one word say which are empty (only the n spaces given are read)."""
    cdef uint64_t w
    cdef int i = 0
    while LITTLE_ENDIAN and i + 4 <= n:   # (space i + k in bits 16k..16k+15)
        memcpy(&w, spaces + i, 8)
        w &= 0x8000800080008000ULL
        if w:
            return i + (ctz64(w) >> 4)
        i += 4
    while i < n:
        if spaces[i] < 0:
            return i
        i += 1
    return -1


cdef inline void refill_deck(uint64_t* deck, uint64_t* discard) noexcept nogil:
    """A deck that runs out takes its discard pile as a new deck."""
    if deck[0] == 0:
        deck[0] = discard[0]
        discard[0] = 0


cdef void reshuffle_if_empty(GameState* s, int deal) noexcept nogil:
    if deal == DEAL_PRINTING or deal == DEAL_DRAFT_PRINTING:
        refill_deck(&s.printing_deck, &s.printing_discard)
    elif deal == DEAL_REFINEMENT or deal == DEAL_DRAFT_REFINEMENT:
        refill_deck(&s.refinement_deck, &s.refinement_discard)
    elif deal == DEAL_SPECIALTY:
        refill_deck(&s.specialty_deck, &s.specialty_discard)
    elif deal == DEAL_GEAR:
        refill_deck(&s.gear_deck, &s.gear_discard)


cdef bint automa_space_open(const GameState* s, int i) noexcept nogil:
    """Whether space i has something for the automa at its current action."""
    cdef int k
    if i < 0 or i >= MAX_SPACES:
        return False
    if s.row == ROW_ORDERS:
        return (s.printing_space[i] if s.sub == SUB_CHOOSE else s.refinement_space[i]) >= 0
    if s.row == ROW_INKS:
        for k in range(INK_SET):
            if s.ink_space[i][k] >= 0:
                return True
        return False
    if s.row == ROW_SPECIALTIES:
        return s.specialty_space[i] >= 0
    if s.row == ROW_GEARS:
        return s.gear_space[i] >= 0
    return i < N_PATRONAGE_REWARDS and patron_reward_open(s, i)


cdef int automa_spaces(const GameState* s, const Catalogue* cat, int* space, double* weight) noexcept nogil:
    """Where the automa's execution cards can send it now (space indices, with
    probabilities). A card naming an empty space is set aside and the next drawn, so each
    open space is drawn in proportion to the cards naming it; at take orders the
    refinement card is drawn from the cards the printing card left (automa_refinement)."""
    cdef int n = 0, k, i, j, total = 0
    if s.row == ROW_ORDERS and s.sub == SUB_REFINEMENT:
        return automa_refinement(s, cat, space, weight)
    for k in range(N_AUTOMA_EXECUTION):
        i = cat.automa_execution[k] - 1
        if not automa_space_open(s, i):
            continue
        total += 1
        for j in range(n):
            if space[j] == i:
                weight[j] += 1.0
                break
        else:
            space[n] = i
            weight[n] = 1.0
            n += 1
    for j in range(n):
        weight[j] /= total
    return n


cdef int automa_refinement(const GameState* s, const Catalogue* cat, int* space, double* weight) noexcept nogil:
    """Take orders, the refinement card: the execution deck is reshuffled only after the
    action (p.16), so the cards drawn for the printing card (the one naming the space it
    took, s.sub_card, and those before it, which named empty printing spaces) are not in
    the deck. Over the 24 orders of the deck that find that printing card: the next card
    naming a space with a refinement card, or none left (space MAX_SPACES, C_AUTOMA_NONE).
    Returns 0 if there is surely none: the automa takes no refinement card."""
    cdef int count[MAX_SPACES + 1]
    cdef int o, j, e, total = 0, n = 0, taken = s.sub_card
    for j in range(MAX_SPACES + 1):
        count[j] = 0
    if not 0 <= taken < MAX_SPACES:
        return 0
    for o in range(N_EXECUTION_ORDERS):
        j = 0
        while j < N_AUTOMA_EXECUTION:
            e = cat.automa_execution[EXECUTION_ORDER[o][j]] - 1
            if e == taken or (0 <= e < MAX_SPACES and s.printing_space[e] >= 0):
                break   # the first card naming a printing space that held a card
            j += 1
        if j == N_AUTOMA_EXECUTION or e != taken:
            continue
        total += 1
        j += 1
        while j < N_AUTOMA_EXECUTION:
            e = cat.automa_execution[EXECUTION_ORDER[o][j]] - 1
            if 0 <= e < MAX_SPACES and s.refinement_space[e] >= 0:
                break
            j += 1
        count[e if j < N_AUTOMA_EXECUTION else MAX_SPACES] += 1
    if total == 0 or count[MAX_SPACES] == total:
        return 0
    for j in range(MAX_SPACES + 1):
        if count[j] > 0:
            space[n] = j
            weight[n] = count[j] / <double>total
            n += 1
    return n


cdef int chance_context(const GameState* s, const Catalogue* cat, int* index) noexcept nogil:
    """Which draw the chance node makes: a DEAL_* kind; index -1 for draws into a pool
    (an order as a reward, Guillard's gears)."""
    index[0] = -1
    if s.n_pending > 0:
        if s.pending[0].kind == PD_GUILLARD:
            return DEAL_GEAR
        if s.pool_due_printing > 0:
            return DEAL_PRINTING
        return DEAL_REFINEMENT
    if s.phase == PH_CHARACTERS:
        return DEAL_CHARACTER
    if s.phase == PH_REVEAL:
        return DEAL_AUTOMA_PLAN
    if s.phase == PH_TURN:
        return DEAL_AUTOMA_SPACE
    return next_deal(s, cat, index)


cdef inline uint64_t chance_set(const GameState* s, int deal, int* base) noexcept nogil:
    """The set drawn from (bit mask over ids) and the chance-outcome base of its ids."""
    if deal == DEAL_PRINTING or deal == DEAL_DRAFT_PRINTING:
        base[0] = C_PRINTING
        return s.printing_deck
    if deal == DEAL_REFINEMENT or deal == DEAL_DRAFT_REFINEMENT:
        base[0] = C_REFINEMENT
        return s.refinement_deck
    if deal == DEAL_SPECIALTY:
        base[0] = C_SPECIALTY
        return s.specialty_deck
    if deal == DEAL_GEAR:
        base[0] = C_GEAR
        return s.gear_deck
    if deal == DEAL_PATRONAGE:
        base[0] = C_PATRONAGE
        return s.patronage_box
    if deal == DEAL_CHARACTER:
        base[0] = C_CHARACTER
        return s.character_pool
    base[0] = C_AUTOMA_PLAN
    return s.automa_deck


cdef int chance_outcomes(const GameState* s, const Catalogue* cat, int* out, double* prob) noexcept nogil:
    cdef int index, deal = chance_context(s, cat, &index)
    cdef uint64_t m
    cdef int base = 0, n = 0, c, total
    if deal == DEAL_INK:
        total = total4(s.bag)
        for c in range(N_INKS):
            if s.bag[c] > 0:
                out[n] = C_INK + c
                prob[n] = s.bag[c] / <double>total
                n += 1
        return n
    if deal == DEAL_AUTOMA_SPACE:
        n = automa_spaces(s, cat, out, prob)
        for c in range(n):
            out[c] += C_AUTOMA_SPACE
        _sort_outcomes(out, prob, n)
        return n
    m = chance_set(s, deal, &base)
    total = popcount64(m)
    while m:
        out[n] = base + ctz64(m)
        prob[n] = 1.0 / total
        n += 1
        m &= m - 1
    return n


cdef void _sort_outcomes(int* a, double* p, int n) noexcept nogil:
    cdef int i, j, v
    cdef double w
    for i in range(1, n):
        v = a[i]
        w = p[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            p[j + 1] = p[j]
            j -= 1
        a[j + 1] = v
        p[j + 1] = w


cdef int sample_chance(const GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    cdef int index, deal = chance_context(s, cat, &index)
    return draw(s, cat, rng, deal)


cdef inline int card_from(uint64_t m, int count, Rng* rng) noexcept nogil:
    """A card drawn uniformly from the set m of `count` cards (not empty)."""
    return nth_bit(m, rng_below(rng, count))


cdef inline int ink_drawn(int r, int blue, int silver, int gold) noexcept nogil:
    """The colour of the r-th ink of a bag (0 <= r < its total) holding that many blue,
    silver and gold inks (red last): the colours whose counts up to them r reaches,
    counted (no branch on the draw)."""
    return (r >= blue) + (r >= blue + silver) + (r >= blue + silver + gold)


cdef inline int ink_from(const int16_t* bag, Rng* rng) noexcept nogil:
    """The colour of an ink drawn from the bag (not empty), by the bag's counts."""
    return ink_drawn(rng_below(rng, total4(bag)), bag[0], bag[1], bag[2])


cdef inline int draw(const GameState* s, const Catalogue* cat, Rng* rng, int deal) noexcept nogil:
    """A chance outcome of the draw `deal` (a DEAL_* kind), by its probabilities."""
    cdef int c, n, base = 0
    cdef int space[MAX_SPACES + 1]
    cdef double weight[MAX_SPACES + 1]
    cdef double u
    cdef uint64_t m
    if deal == DEAL_INK:
        return C_INK + ink_from(s.bag, rng)
    if deal == DEAL_AUTOMA_SPACE:
        n = automa_spaces(s, cat, space, weight)
        u = rng_uniform(rng)
        for c in range(n - 1):
            if u < weight[c]:
                return C_AUTOMA_SPACE + space[c]
            u -= weight[c]
        return C_AUTOMA_SPACE + space[n - 1]
    m = chance_set(s, deal, &base)
    return base + card_from(m, popcount64(m), rng)


cdef int outcome_context(const GameState* s, const Catalogue* cat, int a, int* index) noexcept nogil:
    """chance_context for the legal outcome `a`: at a deal (setup, a new round) the kind of
    `a` says which deck was drawn from, so only the spaces of that kind are looked at
    (next_deal looks at every kind before it)."""
    cdef const BoardLayout* b = &cat.board[s.num_seats]
    if s.n_pending > 0 or not (s.phase == PH_SETUP_DEAL or s.phase == PH_REFILL):
        return chance_context(s, cat, index)
    index[0] = -1
    if a < C_REFINEMENT:
        if s.phase == PH_SETUP_DEAL and popcount64(s.draft_printing) < draft_size(s, cat):
            return DEAL_DRAFT_PRINTING
        index[0] = first_empty(s.printing_space, b.printing)
        return DEAL_PRINTING
    if a < C_SPECIALTY:
        if s.phase == PH_SETUP_DEAL and popcount64(s.draft_refinement) < draft_size(s, cat):
            return DEAL_DRAFT_REFINEMENT
        index[0] = first_empty(s.refinement_space, b.refinement)
        return DEAL_REFINEMENT
    if a < C_GEAR:
        index[0] = first_empty(s.specialty_space, b.specialty)
        return DEAL_SPECIALTY
    if a < C_PATRONAGE:
        index[0] = first_empty(s.gear_space, b.gears)
        return DEAL_GEAR
    if a < C_INK:
        index[0] = first_empty(s.patronage_space, N_PATRONAGE_SPACES)
        return DEAL_PATRONAGE
    index[0] = first_empty(&s.ink_space[0][0], b.ink_sets * INK_SET)
    return DEAL_INK


cdef void apply_chance(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int index, deal = outcome_context(s, cat, a, &index)
    put_drawn(s, cat, deal, index, a)


cdef inline void put_drawn(GameState* s, const Catalogue* cat, int deal, int index, int a) noexcept nogil:
    """The outcome `a` of the draw `deal` where it goes: space `index` (-1: a pool)."""
    cdef int x, seat
    if deal == DEAL_CHARACTER:
        x = a - C_CHARACTER
        s.character_pool &= ~bit(x)
        seat = human_seat(s, s.step)
        if s.players[seat].character_drawn[0] < 0:
            s.players[seat].character_drawn[0] = x
        else:
            s.players[seat].character_drawn[1] = x
    elif deal == DEAL_AUTOMA_PLAN:
        x = a - C_AUTOMA_PLAN
        s.automa_deck &= ~bit(x)
        s.automa_card = x
        apply_planning_card(s, cat, NULL)
        s.reveal_stage = 1
    elif deal == DEAL_AUTOMA_SPACE:
        automa_take(s, cat, a - C_AUTOMA_SPACE)
    elif deal == DEAL_INK:
        x = a - C_INK
        s.bag[x] -= 1
        s.ink_space[index // INK_SET][index % INK_SET] = x
    elif deal == DEAL_PRINTING or deal == DEAL_DRAFT_PRINTING:
        x = a - C_PRINTING
        s.printing_deck &= ~bit(x)
        if deal == DEAL_DRAFT_PRINTING:
            s.draft_printing |= bit(x)
        elif index < 0:
            s.pool_printing |= bit(x)
            s.pool_due_printing -= 1
        else:
            s.printing_space[index] = x
    elif deal == DEAL_REFINEMENT or deal == DEAL_DRAFT_REFINEMENT:
        x = a - C_REFINEMENT
        s.refinement_deck &= ~bit(x)
        if deal == DEAL_DRAFT_REFINEMENT:
            s.draft_refinement |= bit(x)
        elif index < 0:
            s.pool_refinement |= bit(x)
            s.pool_due_refinement -= 1
        else:
            s.refinement_space[index] = x
    elif deal == DEAL_SPECIALTY:
        x = a - C_SPECIALTY
        s.specialty_deck &= ~bit(x)
        s.specialty_space[index] = x
    elif deal == DEAL_GEAR:
        x = a - C_GEAR
        s.gear_deck &= ~bit(x)
        if index < 0:
            s.gear_pool |= bit(x)
            s.gear_pool_due -= 1
        else:
            s.gear_space[index] = x
    elif deal == DEAL_PATRONAGE:
        x = a - C_PATRONAGE
        s.patronage_box &= ~bit(x)
        s.patronage_space[index] = x

# ---------------------------------------------------------------------------------------
# The automa (rulebook pp.16-17): its planning card and what it removes from the board.
# ---------------------------------------------------------------------------------------
cdef int automa_row(const GameState* s, const Catalogue* cat, int target) noexcept nogil:
    """A planning-card arrow end: a row, or the row with the fewest/most markers (ties: the
    first tied row scanning down from the card's centre row, wrapping to the top)."""
    cdef const PlayerState* a = &s.players[s.automa_seat]
    cdef const int16_t* plan = &a.plan[0]   # (`= a.plan` makes Cython drop the const: an error in C++)
    cdef int r, k, best
    if target < N_ROWS:
        return target
    best = plan[0]
    for r in range(1, N_ROWS):
        if (target == AUTOMA_MIN and plan[r] < best) or (target == AUTOMA_MAX and plan[r] > best):
            best = plan[r]
    for k in range(N_ROWS):
        r = (cat.automa_planning[s.automa_card].centre + k) % N_ROWS
        if plan[r] == best:
            return r
    return 0


cdef enum:
    # What an arrow of a planning card did (PlanningStep.outcome).
    ARROW_MOVED = 0        # a marker from the first action to the second
    ARROW_BACK = 1         # the first had none: a marker from the second to the first
    ARROW_FULL = 2         # the second holds 6 already: nothing
    ARROW_EMPTY = 3        # neither holds a marker: nothing
    ARROW_SAME = 4         # both ends are the same action (min or max found it): nothing

ctypedef struct PlanningStep:
    # One arrow as applied, for the words of the reveal (CoreState.planning_steps).
    int8_t first           # the arrow's ends as found: an action (min/max resolved)
    int8_t second
    int8_t outcome         # ARROW_*
    int16_t before[N_ROWS] # the automa's markers per action before the arrow


cdef void apply_planning_card(GameState* s, const Catalogue* cat, PlanningStep* steps) noexcept nogil:
    """Each arrow moves a marker from its first action to its second; from the second to
    the first if the first has none; never onto an action with 6 markers. With `steps`
    (not NULL: card.n_moves of them), what each arrow did."""
    cdef const AutomaPlanningCard* card = &cat.automa_planning[s.automa_card]
    cdef int16_t* plan = s.players[s.automa_seat].plan
    cdef int m, a, b, r, outcome
    for m in range(card.n_moves):
        a = automa_row(s, cat, card.move_from[m])
        b = automa_row(s, cat, card.move_to[m])
        if steps != NULL:
            steps[m].first = a
            steps[m].second = b
            for r in range(N_ROWS):
                steps[m].before[r] = plan[r]
        if a == b:
            outcome = ARROW_SAME
        elif plan[a] > 0:
            outcome = ARROW_FULL
            if plan[b] < 6:
                plan[a] -= 1
                plan[b] += 1
                outcome = ARROW_MOVED
        elif plan[b] > 0:
            plan[b] -= 1
            plan[a] += 1
            outcome = ARROW_BACK
        else:
            outcome = ARROW_EMPTY
        if steps != NULL:
            steps[m].outcome = outcome


cdef int automa_patronage_card(const GameState* s, const Catalogue* cat) noexcept nogil:
    """The patronage space whose card the automa takes this turn, or -1 (it takes a
    reward): its planning card must show a patronage card, not in rounds 1-2, and it
    takes the leftmost card that can be taken."""
    cdef int i
    if s.automa_card < 0 or not cat.automa_planning[s.automa_card].patronage or s.round <= 2:
        return -1
    for i in range(N_PATRONAGE_SPACES):
        if s.patronage_space[i] >= 0 and cat.patronage_rounds[i] <= s.round:
            return i
    return -1


cdef inline void inks_to_bag(GameState* s, int16_t* inks, int n) noexcept nogil:
    """The inks on n ink places (-1 empty) back to the bag, the places emptied: counted
    without a branch on which are full (as good as random in a rollout)."""
    cdef int i, c
    for i in range(n):
        c = inks[i]
        s.bag[c * (c >= 0)] += c >= 0   # an empty place adds nothing (to bag[0])
        inks[i] = -1


cdef void automa_take(GameState* s, const Catalogue* cat, int i) noexcept nogil:
    """The automa removes what space i holds at its action. It keeps nothing: inks go
    back to the bag, cards to their discard piles. Space MAX_SPACES: no execution card
    was left (take orders), nothing is taken."""
    if i >= MAX_SPACES:
        s.sub = SUB_DONE
    elif s.row == ROW_ORDERS:
        if s.sub == SUB_CHOOSE:
            s.printing_discard |= bit(s.printing_space[i])
            s.printing_space[i] = -1
            s.sub_card = i   # which card the printing card was drawn with
            s.sub = SUB_REFINEMENT
        else:
            s.refinement_discard |= bit(s.refinement_space[i])
            s.refinement_space[i] = -1
            s.sub = SUB_DONE
    elif s.row == ROW_INKS:
        inks_to_bag(s, s.ink_space[i], INK_SET)
        s.sub = SUB_DONE
    elif s.row == ROW_SPECIALTIES:
        s.specialty_discard |= bit(s.specialty_space[i])
        s.specialty_space[i] = -1
        s.sub = SUB_DONE
    elif s.row == ROW_GEARS:
        s.gear_discard |= bit(s.gear_space[i])
        s.gear_space[i] = -1
        s.sub = SUB_DONE
    else:
        s.patronage_reward_seat[i] = s.automa_seat
        s.sub = SUB_DONE


cdef void automa_pass_markers(GameState* s, const Catalogue* cat) noexcept nogil:
    """End of round: the first player token passes. The automa, if it held the token,
    receives a marker from each player, each onto its action with the fewest markers;
    otherwise it gives one from its action with the most (ties by this round's card)."""
    cdef int16_t* plan = s.players[s.automa_seat].plan
    cdef int16_t* markers = &s.players[s.automa_seat].markers
    cdef int k, r
    if s.automa_card < 0:
        return
    # The markers it owns change with the markers on its board (they stay there): the
    # count was left at the old round's until start_round, so between rounds its plan
    # held more markers than it owned.
    if s.first_player == s.automa_seat:
        for k in range(s.num_seats - 1):
            r = automa_row(s, cat, AUTOMA_MIN)
            if plan[r] < 6:
                plan[r] += 1
                markers[0] += 1
    else:
        r = automa_row(s, cat, AUTOMA_MAX)
        if plan[r] > 0:
            plan[r] -= 1
            markers[0] -= 1

# ---------------------------------------------------------------------------------------
# Rule predicates.
# ---------------------------------------------------------------------------------------
cdef bint inks_cover(const PlayerState* p, const int* need) noexcept nogil:
    """Whether the inks held cover `need` (per colour); Caxton's wild colour this round
    stands in for any colour once his own are used."""
    cdef int c, w = p.wild_ink, spare, short = 0
    if w < 0:
        for c in range(N_INKS):
            if need[c] > p.inks[c]:
                return False
        return True
    spare = p.inks[w] - need[w]
    if spare < 0:
        return False
    for c in range(N_INKS):
        if c != w and need[c] > p.inks[c]:
            short += need[c] - p.inks[c]
    return short <= spare


cdef void spend_inks(GameState* s, PlayerState* p, const int16_t* need) noexcept nogil:
    """Inks of a fulfilled colour part or patronage card go back to the bag: the colour
    itself first, then the wild colour (keeping the wild ink, the more useful, for last)."""
    cdef int c, own, rest
    for c in range(N_INKS):
        own = need[c] if need[c] <= p.inks[c] else p.inks[c]
        rest = need[c] - own
        p.inks[c] -= own
        s.bag[c] += own
        if rest > 0 and p.wild_ink >= 0:
            p.inks[p.wild_ink] -= rest
            s.bag[p.wild_ink] += rest


cdef inline bint can_pay_ink(const PlayerState* p, int c) noexcept nogil:
    """Whether the player can put 1 ink of colour c into the bag (the ink trade gear)."""
    cdef int need[N_INKS]
    need[0] = need[1] = need[2] = need[3] = 0
    need[c] = 1
    return inks_cover(p, need)


cdef inline void pay_ink(GameState* s, PlayerState* p, int c) noexcept nogil:
    cdef int16_t need[N_INKS]
    need[0] = need[1] = need[2] = need[3] = 0
    need[c] = 1
    spend_inks(s, p, need)


cdef bint meets_patronage(const PlayerState* p, const PatronageCard* c) noexcept nogil:
    cdef int i
    cdef int need[N_INKS]
    cdef bint met = True
    # The eight comparisons and-ed without a branch each (a rollout asks this of every
    # card on the patronage spaces, with answers as good as random).
    for i in range(4):
        met &= (p.levels[i] >= c.levels[i]) & (p.types[i] >= c.types[i])
        need[i] = c.inks[i]
    return met and inks_cover(p, need)


cdef int fulfil_gear_count(const GameState* s, const Catalogue* cat, const PlayerState* p,
                           int kind, int mask) noexcept nogil:
    """Orders of this fulfil turn that a fulfilment gear counts (2 fame each)."""
    cdef int k, m, n = 0
    cdef const RefinementCard* r
    cdef const PrintingCard* pc
    for k in range(MAX_ORDERS):
        m = s.fulfil_mode[k]
        if m < FULFIL_PRINT or p.order_printing[k] < 0:
            continue
        r = &cat.refinement[p.order_refinement[k]]
        pc = &cat.printing[p.order_printing[k]]
        if kind == GEAR_COLOUR_FAME:
            if (m == FULFIL_COLOUR or m == FULFIL_BOTH) and (
                    (r.inks[0] and mask & 1) or (r.inks[1] and mask & 2)
                    or (r.inks[2] and mask & 4) or (r.inks[3] and mask & 8)):
                n += 1
        elif kind == GEAR_TYPE_FAME:
            if ((pc.letters[0] and mask & 1) or (pc.letters[1] and mask & 2)
                    or (pc.letters[2] and mask & 4) or (pc.letters[3] and mask & 8)):
                n += 1
        elif kind == GEAR_DECORATION_FAME:
            if (m == FULFIL_DECORATION or m == FULFIL_BOTH) and r.levels[mask_index(mask)] > 0:
                n += 1
    return n


cdef inline bint is_fulfil_gear(int kind) noexcept nogil:
    return kind == GEAR_COLOUR_FAME or kind == GEAR_TYPE_FAME or kind == GEAR_DECORATION_FAME


cdef inline bint gear_free(const Catalogue* cat, const PlayerState* p, int pos) noexcept nogil:
    """Whether a gear is installed at `pos` and may be used (again) this round: a used
    gear marker is left, and the gear is unused (Schoeffer may use one gear twice)."""
    if p.gear[pos] < 0 or p.gear_uses >= MAX_GEAR_USES:
        return False
    if p.gear_used[pos] >= 1:
        if p.character != CH_SCHOEFFER or p.gear_used[pos] >= cat.schoeffer_uses:
            return False
        if (p.character_flags & FLAG_SCHOEFFER_TWICE) and p.gear_used[pos] < 2:
            return False
    return True


cdef inline bint gear_offered(const GameState* s, const Catalogue* cat, const PlayerState* p, int pos,
                              bint others, bint fulfilment) noexcept nogil:
    """Whether the gear at `pos` may give its reward now, where the gears offered are
    `others` (every gear but the fulfilment gears) and `fulfilment` (those). Fulfilment
    gears count the orders of this fulfil turn, so they are used once the orders are
    chosen; the others at any decision point of the player's (and there they would
    change what was chosen)."""
    return (gear_free(cat, p, pos) and (fulfilment if is_fulfil_gear(gear_kind(cat, p, pos)) else others)
            and gear_gives(s, cat, p, pos))


cdef inline bint gear_usable(const GameState* s, const Catalogue* cat, const PlayerState* p, int pos,
                             bint fulfilling) noexcept nogil:
    """gear_offered of the fulfilment gears alone (`fulfilling`) or of the others alone."""
    return gear_offered(s, cat, p, pos, not fulfilling, fulfilling)


cdef inline bint gear_gives(const GameState* s, const Catalogue* cat, const PlayerState* p, int pos) noexcept nogil:
    """Whether the active sector of the installed gear at `pos` has a reward to give now
    (what it takes is there: inks, types, guilders, orders it counts)."""
    cdef int kind = gear_kind(cat, p, pos), mask = gear_mask(cat, p, pos)
    cdef int c, t, cost
    if kind == GEAR_INK_SWAP:
        for c in range(N_INKS):
            if p.inks[c] > 0:
                for t in range(N_INKS):
                    if t != c and s.bag[t] > 0:
                        return True
        return False
    if kind == GEAR_TYPE_SWAP or kind == GEAR_SELL_TYPE:
        return total4(p.types) > 0
    if kind == GEAR_GAIN_INK:
        return s.bag[mask_index(mask)] > 0
    if kind == GEAR_INK_TRADE:
        return can_pay_ink(p, mask_index(mask))
    if kind == GEAR_TYPE_DISCOUNT:
        cost = type_cost(p) - TYPE_DISCOUNT
        return (cost if cost > 0 else 0) <= p.guilders and room_for_type(p)
    if is_fulfil_gear(kind):
        return fulfil_gear_count(s, cat, p, kind, mask) > 0
    return True


cdef int letter_shortfall(const PlayerState* p, const int* need) noexcept nogil:
    cdef int c, short = 0
    for c in range(N_LETTERS):
        if need[c] > p.types[c]:
            short += need[c] - p.types[c]
    return short


cdef inline int chosen_before(const GameState* s, const Catalogue* cat, const PlayerState* p, int slot,
                       int* letters, int* inks) noexcept nogil:
    """What the orders chosen before `slot` in this fulfil turn need: their letters and the
    inks of their colour parts; returns how many of them are printed."""
    cdef int i, k, m, printed = 0
    cdef const RefinementCard* r
    cdef const PrintingCard* pc
    for i in range(4):
        letters[i] = 0
        inks[i] = 0
    for k in range(slot):
        m = s.fulfil_mode[k]
        if m >= FULFIL_PRINT and p.order_printing[k] >= 0:
            printed += 1
            pc = &cat.printing[p.order_printing[k]]
            r = &cat.refinement[p.order_refinement[k]]
            for i in range(4):
                letters[i] += pc.letters[i]
                if m == FULFIL_COLOUR or m == FULFIL_BOTH:
                    inks[i] += r.inks[i]
    return printed


cdef bint can_fulfil(const GameState* s, const Catalogue* cat, const PlayerState* p, int slot,
                     int mode) noexcept nogil:
    """Whether order `slot` can be fulfilled in `mode` together with the orders chosen
    before it in this turn (fulfil_modes)."""
    cdef int letters[N_LETTERS]
    cdef int inks[N_INKS]
    cdef int printed = chosen_before(s, cat, p, slot, letters, inks)
    return (fulfil_modes(cat, p, slot, letters, inks, printed) >> mode) & 1


cdef inline int fulfil_modes(const Catalogue* cat, const PlayerState* p, int slot,
                      const int* before_letters, const int* before_inks, int printed) noexcept nogil:
    """The modes (bit m: FULFIL_*) in which order `slot` can be fulfilled after orders
    needing before_letters and before_inks (`printed` of them): a type serves one order,
    inks are spent, decorations check levels. Manutius may ignore one required type if he
    fulfils 2 or more orders: a pick that leans on that must leave a second order
    possible. Every printing mode needs the same letters, so they are checked once."""
    cdef int letters[N_LETTERS]
    cdef int inks[N_INKS]
    cdef int i, short, allowed = cat.manutius_ignored_types if p.character == CH_MANUTIUS else 0
    cdef int modes = 0
    cdef bint plain, colour, decoration = True
    cdef const RefinementCard* r
    cdef const PrintingCard* pc
    for i in range(4):
        letters[i] = before_letters[i]
    # Skipping is fine unless an ignored type still needs a second order, and none of
    # the later orders could be it.
    if printed != 1 or letter_shortfall(p, letters) == 0 or manutius_second_order(cat, p, slot, letters):
        modes |= 1 << FULFIL_SKIP
    pc = &cat.printing[p.order_printing[slot]]
    r = &cat.refinement[p.order_refinement[slot]]
    for i in range(4):
        letters[i] += pc.letters[i]
    short = letter_shortfall(p, letters)
    if short > 0 and (short > allowed or (printed == 0 and not manutius_second_order(cat, p, slot, letters))):
        return modes
    plain = inks_cover(p, before_inks)
    for i in range(4):
        inks[i] = before_inks[i] + r.inks[i]
        if r.levels[i] > p.levels[i]:
            decoration = False
    colour = inks_cover(p, inks)
    if plain:
        modes |= 1 << FULFIL_PRINT
    if colour:
        modes |= 1 << FULFIL_COLOUR
    if plain and decoration:
        modes |= 1 << FULFIL_DECORATION
    if colour and decoration:
        modes |= 1 << FULFIL_BOTH
    return modes


cdef bint manutius_second_order(const Catalogue* cat, const PlayerState* p, int slot,
                                const int* letters) noexcept nogil:
    """Whether an order after `slot` could still be printed alongside `letters` with no
    more than the one ignored type."""
    cdef int k, i
    cdef int total[N_LETTERS]
    for k in range(slot + 1, MAX_ORDERS):
        if p.order_printing[k] < 0:
            continue
        for i in range(N_LETTERS):
            total[i] = letters[i] + cat.printing[p.order_printing[k]].letters[i]
        if letter_shortfall(p, total) <= cat.manutius_ignored_types:
            return True
    return False

# ---------------------------------------------------------------------------------------
# Legal actions. Every list is generated in ascending order (no sort): cards on the board
# are listed through a bit mask of their ids, and A_PASS goes where it falls among the
# others. is_legal (further down) tests one action directly, with the same predicates.
# Where a test's answer is as good as random in a rollout, its parts are combined with &
# and | rather than `and` and `or`, and its move is listed with add_open: a branch on it
# would be mispredicted about half the time.
# ---------------------------------------------------------------------------------------
cdef inline bint may_buy_type(const PlayerState* p) noexcept nogil:
    return type_cost(p) <= p.guilders and room_for_type(p)


cdef inline bint may_swap(const PlayerState* p) noexcept nogil:
    """Plantin, once a round: swap the levels of two specialties (that differ)."""
    return (p.character == CH_PLANTIN) & ((p.character_flags & FLAG_PLANTIN_SWAPPED) == 0)


cdef inline int add_free_actions(const GameState* s, const Catalogue* cat, const PlayerState* p,
                          int* out, int n, bint others, bint fulfilment) noexcept nogil:
    """The free actions below A_PASS, ascending: buying a type and the gears (`others`:
    every gear but the fulfilment gears, `fulfilment`: those). Plantin's swaps, above
    A_PASS, come from add_swaps."""
    cdef int l, pos
    if not (others or fulfilment):
        return n   # (a fulfil turn once an order is chosen, before "done")
    if others and may_buy_type(p):
        for l in range(N_LETTERS):
            out[n] = A_BUY + l
            n += 1
    for pos in range(MAX_INSTALLED):
        if gear_offered(s, cat, p, pos, others, fulfilment):
            out[n] = A_USE_GEAR + pos
            n += 1
    return n


cdef bint has_free_action(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """Whether any free action (but "done") can be taken (add_free_actions and add_swaps
    would give one): a free-action window with none is skipped."""
    cdef int pos, j
    if may_buy_type(p):
        return True
    for pos in range(MAX_INSTALLED):
        if gear_usable(s, cat, p, pos, False):
            return True
    if may_swap(p):
        for j in range(1, N_SPECIALTIES):
            if p.levels[j] != p.levels[0]:
                return True   # two specialties differ
    return False


cdef inline bint swap_open(const PlayerState* p, int i, int j) noexcept nogil:
    """Plantin: whether specialties i < j may swap levels now (they differ)."""
    return may_swap(p) and i < j and p.levels[i] != p.levels[j]


cdef int add_swaps(const PlayerState* p, int* out, int n) noexcept nogil:
    cdef int i, j
    if not may_swap(p):
        return n
    for i in range(N_SPECIALTIES):
        for j in range(i + 1, N_SPECIALTIES):
            if swap_open(p, i, j):
                out[n] = A_SWAP + i * N_SPECIALTIES + j
                n += 1
    return n


cdef bint free_action_legal(const GameState* s, const Catalogue* cat, const PlayerState* p,
                            int a, bint others, bint fulfilment) noexcept nogil:
    """Whether free action `a` is among those add_free_actions and add_swaps give."""
    cdef int i, j
    if A_BUY <= a < A_BUY + N_LETTERS:
        return others and may_buy_type(p)
    if A_USE_GEAR <= a < A_USE_GEAR + MAX_INSTALLED:
        return gear_offered(s, cat, p, a - A_USE_GEAR, others, fulfilment)
    if A_SWAP <= a < A_SWAP + N_SPECIALTIES * N_SPECIALTIES:
        i = (a - A_SWAP) // N_SPECIALTIES
        j = (a - A_SWAP) % N_SPECIALTIES
        return others and swap_open(p, i, j)
    return False


cdef inline int add_cards(uint64_t m, int base, int* out, int n) noexcept nogil:
    """base + each card id in the mask m, ascending."""
    while m:
        out[n] = base + ctz64(m)
        n += 1
        m &= m - 1
    return n


cdef inline uint64_t cards_on(const int16_t* spaces, int n) noexcept nogil:
    """The ids of the cards on n board spaces, as a mask."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(n):
        # An empty space (-1) shifts a 0: no branch on what the board holds.
        m |= (<uint64_t>(spaces[i] >= 0)) << (spaces[i] & 63)
    return m


cdef inline bint card_in(uint64_t m, int x, int n) noexcept nogil:
    """Whether 0 <= x < n and card x is in the mask m."""
    return 0 <= x < n and (m >> x) & 1


cdef inline bint develop_use_open(const Catalogue* cat, int x, int use) noexcept nogil:
    """Develop specialties with card x: use 0 moves the specialties it shows (A); use
    1 + j moves specialty j one level (B), which must be one the card does not show:
    "(B) move any other specialty marker 1 level up" (p.9)."""
    return use == 0 or (1 <= use <= N_SPECIALTIES and cat.specialty[x].icons[use - 1] == 0)


cdef inline int add_open(int* out, int n, int action, bint is_open) noexcept nogil:
    """Append `action` to out[0..n) if it is open: written always, counted if open, so
    that no branch is taken on it (out has room for one more than it lists)."""
    out[n] = action
    return n + is_open


cdef inline int lowest_level(const PlayerState* p) noexcept nogil:
    cdef int j, low = MAX_LEVEL
    for j in range(N_SPECIALTIES):
        if p.levels[j] < low:
            low = p.levels[j]
    return low


cdef inline bint bag_has_other(const GameState* s, int c) noexcept nogil:
    """An ink of another colour than c is in the bag (an ink swap can take it)."""
    cdef int t
    for t in range(N_INKS):
        if t != c and s.bag[t] > 0:
            return True
    return False


# The conditions of the pending choices, one each, for legal_pending's lists and
# pending_legal's check of one move.
cdef inline bint may_buy_more(const GameState* s, const PlayerState* p, int x) noexcept nogil:
    """Order as a reward: whether 2 guilders buy 2 more cards x (PP, RR, PR)."""
    return p.guilders >= REDRAW_COST and more_cards(s, x)


cdef inline bint ink_swap_open(const GameState* s, const Pending* q, const PlayerState* p, int c) noexcept nogil:
    """Ink swap: stage 0 gives an ink c held (another colour must be in the bag), stage 1
    takes an ink c of another colour from the bag."""
    if q.stage == 0:
        return p.inks[c] > 0 and bag_has_other(s, c)
    return c != q.arg and s.bag[c] > 0


cdef inline bint type_swap_open(const Pending* q, const PlayerState* p, int c) noexcept nogil:
    """Type swap: stage 0 gives a type c held, stage 1 takes a type c of another letter."""
    return (q.stage == 0 and p.types[c] > 0) or (q.stage == 1 and c != q.arg)


cdef inline bint discount_open(const Pending* q, const PlayerState* p, int c) noexcept nogil:
    """Type discount: a type c of the discounted letters (mask arg), with room for it."""
    return (q.arg & (1 << c)) != 0 and room_for_type(p)


cdef inline bint ungler_open(const Pending* q, int j) noexcept nogil:
    """Ungler: stage 0 any specialty, stage 1 another than the first."""
    return q.stage == 0 or j != q.arg


cdef inline bint shift_open(const PlayerState* p, int i, int j) noexcept nogil:
    """Gutenberg: a marker from row i (it has one) to another row j (not full)."""
    return (i != j) & (p.plan[i] > 0) & (p.plan[j] < 6)


cdef inline bint pass_pending(const Pending* q) noexcept nogil:
    """Whether A_PASS answers the pending decision: a declinable reward (p.14), Gutenberg
    not shifting a marker, an order as a reward not taken (before the draw: with four
    orders held, instead of discarding one; after it: none of the cards drawn)."""
    return reward_declinable(q) or q.kind == PD_SHIFT or (q.kind == PD_ORDER and (q.stage == 1 or q.stage == 3))


cdef inline bint more_cards(const GameState* s, int x) noexcept nogil:
    """Order as a reward: whether "pay 2 for 2 more" x (PP, RR, PR) has decks to draw from."""
    cdef bint printing = (s.printing_deck | s.printing_discard) != 0
    cdef bint refinement = (s.refinement_deck | s.refinement_discard) != 0
    if x == 0:
        return printing
    if x == 1:
        return refinement
    return printing and refinement


cdef bint pending_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Whether `a` is among legal_pending's moves, tested directly (with the same
    conditions)."""
    cdef const Pending* q = &s.pending[0]
    cdef const PlayerState* p = &s.players[q.seat]
    cdef int x
    if a == A_PASS:
        return pass_pending(q)
    if q.kind == PD_INK:
        x = a - A_INK
        return 0 <= x < N_INKS and s.bag[x] > 0
    if q.kind == PD_SPECIALTY:
        return A_SPECIALTY_UP <= a < A_SPECIALTY_UP + N_SPECIALTIES
    if q.kind == PD_LOWEST:
        x = a - A_SPECIALTY_UP
        return 0 <= x < N_SPECIALTIES and p.levels[x] == lowest_level(p)
    if q.kind == PD_TYPE:
        return A_LETTER <= a < A_LETTER + N_LETTERS and room_for_type(p)
    if q.kind == PD_ORDER:
        if q.stage == 1:
            if A_PRINTING <= a < A_PRINTING + N_PRINTING:
                return s.pool_refinement != 0 and card_in(s.pool_printing, a - A_PRINTING, N_PRINTING)
            x = a - A_MORE
            return 0 <= x < 3 and may_buy_more(s, p, x)
        if q.stage == 2:
            return card_in(s.pool_refinement, a - A_REFINEMENT, N_REFINEMENT)
        if q.stage == 3:
            x = a - A_DISCARD
            return 0 <= x < MAX_ORDERS and holds_order(p, x)
        return False
    if q.kind == PD_INK_SWAP:
        x = a - A_INK
        return 0 <= x < N_INKS and ink_swap_open(s, q, p, x)
    if q.kind == PD_TYPE_SWAP:
        x = a - A_LETTER
        return 0 <= x < N_LETTERS and type_swap_open(q, p, x)
    if q.kind == PD_SELL_TYPE:
        if q.stage == 0:
            x = a - A_LETTER
            return 0 <= x < N_LETTERS and p.types[x] > 0
        return a == A_SELL_GUILDERS or a == A_SELL_FAME
    if q.kind == PD_TYPE_DISCOUNT:
        x = a - A_LETTER
        return 0 <= x < N_LETTERS and discount_open(q, p, x)
    if q.kind == PD_CAXTON:
        return A_INK <= a < A_INK + N_INKS
    if q.kind == PD_UNGLER:
        x = a - A_SPECIALTY_UP
        return 0 <= x < N_SPECIALTIES and ungler_open(q, x)
    if q.kind == PD_GUILLARD:
        if q.stage == 1:
            return card_in(s.gear_pool, a - A_GEAR, N_GEARS)
        if q.stage == 2:
            x = a - A_PLACE - installed(p) * N_SECTORS
            return 0 <= x < N_SECTORS
        return False
    if q.kind == PD_SHIFT:
        x = a - A_SHIFT
        if not 0 <= x < N_ROWS * N_ROWS:
            return False
        return shift_open(p, x // N_ROWS, x % N_ROWS)
    return False


cdef inline int legal_pending(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    cdef const Pending* q = &s.pending[0]
    cdef const PlayerState* p = &s.players[q.seat]
    cdef int n = 0, c, t, j, low, k
    if pass_pending(q) and q.kind != PD_ORDER:
        # "Taking a reward is optional" (p.14): decline the rest of it; or no shift.
        out[n] = A_PASS
        n += 1
    if q.kind == PD_INK:
        for c in range(N_INKS):
            if s.bag[c] > 0:
                out[n] = A_INK + c
                n += 1
    elif q.kind == PD_SPECIALTY:
        for j in range(N_SPECIALTIES):
            out[n] = A_SPECIALTY_UP + j
            n += 1
    elif q.kind == PD_LOWEST:
        low = lowest_level(p)
        for j in range(N_SPECIALTIES):
            if p.levels[j] == low:
                out[n] = A_SPECIALTY_UP + j
                n += 1
    elif q.kind == PD_TYPE:
        if room_for_type(p):
            for c in range(N_LETTERS):
                out[n] = A_LETTER + c
                n += 1
    elif q.kind == PD_ORDER:
        if q.stage == 1:
            if s.pool_refinement:
                n = add_cards(s.pool_printing, A_PRINTING, out, n)
            out[n] = A_PASS
            n += 1
            for k in range(3):
                if may_buy_more(s, p, k):
                    out[n] = A_MORE + k
                    n += 1
        elif q.stage == 2:
            n = add_cards(s.pool_refinement, A_REFINEMENT, out, n)
        elif q.stage == 3:
            for k in range(MAX_ORDERS):
                if holds_order(p, k):
                    out[n] = A_DISCARD + k
                    n += 1
            out[n] = A_PASS
            n += 1
    elif q.kind == PD_INK_SWAP:
        for c in range(N_INKS):
            if ink_swap_open(s, q, p, c):
                out[n] = A_INK + c
                n += 1
    elif q.kind == PD_TYPE_SWAP:
        for c in range(N_LETTERS):
            if type_swap_open(q, p, c):
                out[n] = A_LETTER + c
                n += 1
    elif q.kind == PD_SELL_TYPE:
        if q.stage == 0:
            for c in range(N_LETTERS):
                if p.types[c] > 0:
                    out[n] = A_LETTER + c
                    n += 1
        else:
            out[0] = A_SELL_GUILDERS
            out[1] = A_SELL_FAME
            n = 2
    elif q.kind == PD_TYPE_DISCOUNT:
        for c in range(N_LETTERS):
            if discount_open(q, p, c):
                out[n] = A_LETTER + c
                n += 1
    elif q.kind == PD_CAXTON:
        for c in range(N_INKS):
            out[n] = A_INK + c
            n += 1
    elif q.kind == PD_UNGLER:
        for j in range(N_SPECIALTIES):
            if ungler_open(q, j):
                out[n] = A_SPECIALTY_UP + j
                n += 1
    elif q.kind == PD_GUILLARD:
        if q.stage == 1:
            n = add_cards(s.gear_pool, A_GEAR, out, n)
        elif q.stage == 2:
            k = installed(p)
            for c in range(N_SECTORS):
                out[n] = A_PLACE + k * N_SECTORS + c
                n += 1
    elif q.kind == PD_SHIFT:
        for c in range(N_ROWS):
            for t in range(N_ROWS):
                n = add_open(out, n, A_SHIFT + c * N_ROWS + t, shift_open(p, c, t))
    return n


cdef inline bint reward_declinable(const Pending* q) noexcept nogil:
    """Whether the pending reward of choice may be declined: a completion reward (p.14);
    the reward track, the patronage rewards and the gears give theirs (Pending.arg)."""
    return (q.kind == PD_INK or q.kind == PD_SPECIALTY or q.kind == PD_TYPE) and q.arg == REWARD_OPTIONAL


cdef inline bint place_open(const PlayerState* p, int installed_, int pos) noexcept nogil:
    """Improve: whether the taken gear may go to position `pos` (the next free one; with
    three installed, over one not used this round)."""
    return ((installed_ < MAX_INSTALLED and pos == installed_)
            or (installed_ == MAX_INSTALLED and p.gear_used[pos] == 0))


cdef inline bint may_take_gear(const PlayerState* p, int installed_) noexcept nogil:
    """Improve: a gear can be taken if there is a free position or an unused gear to
    replace."""
    cdef int pos
    if installed_ < MAX_INSTALLED:
        return True
    for pos in range(installed_):
        if p.gear_used[pos] == 0:
            return True
    return False


cdef inline bint ink_set_open(const GameState* s, const PlayerState* p, int i, int want) noexcept nogil:
    """Take inks: whether the first `want` inks still on space i are there and affordable
    (each costs its position's price: 0, 1, 2). Counted over the set without a branch."""
    cdef int k, there, cost = 0, taken = 0
    for k in range(INK_SET):
        there = s.ink_space[i][k] >= 0
        taken += there
        cost += k * (there & (taken <= want))
    return (taken >= want) & (cost <= p.guilders)


cdef inline bint patronage_open(const GameState* s, const Catalogue* cat, const PlayerState* p,
                                int i) noexcept nogil:
    """Whether the patronage card on space i can be taken now (its round has come, and the
    player meets it)."""
    cdef int x = s.patronage_space[i]
    return x >= 0 and cat.patronage_rounds[i] <= s.round and meets_patronage(p, &cat.patronage[x])


cdef inline bint patron_reward_open(const GameState* s, int k) noexcept nogil:
    """Whether patronage reward k has not been taken this round."""
    return s.patronage_reward_seat[k] < 0


cdef inline bint may_reorient(const PlayerState* p, int pos, int o) noexcept nogil:
    """Improve: whether the installed gear at `pos` may turn to sector `o` (not used this
    round, and another sector than its active one)."""
    return (p.gear_used[pos] == 0) & (o != p.gear_active[pos])


cdef inline bint any_refinement(const GameState* s) noexcept nogil:
    # Take orders needs a refinement card to pair with the printing card.
    cdef int i
    for i in range(MAX_SPACES):
        if s.refinement_space[i] >= 0:
            return True
    return False


cdef inline int legal_turn(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    cdef int seat = s.turn_order[s.turn]
    cdef const PlayerState* p = &s.players[seat]
    cdef int n = 0, i, k, j, pos, o
    cdef uint64_t m
    if s.sub == SUB_REFINEMENT:
        return add_cards(cards_on(s.refinement_space, MAX_SPACES), A_REFINEMENT, out, 0)
    if s.sub == SUB_DISCARD:
        for k in range(MAX_ORDERS):
            if holds_order(p, k):
                out[n] = A_DISCARD + k
                n += 1
        return n
    if s.sub == SUB_PLACE:
        k = installed(p)
        for pos in range(MAX_INSTALLED):
            if place_open(p, k, pos):
                for o in range(N_SECTORS):
                    out[n] = A_PLACE + pos * N_SECTORS + o
                    n += 1
        return n
    # The turn's main choice.
    if s.row == ROW_ORDERS:
        if any_refinement(s):
            n = add_cards(cards_on(s.printing_space, MAX_SPACES), A_PRINTING, out, n)
    elif s.row == ROW_INKS:
        for i in range(MAX_SPACES):
            for k in range(1, INK_SET + 1):
                n = add_open(out, n, A_INKS + i * INK_SET + k - 1, ink_set_open(s, p, i, k))
    elif s.row == ROW_SPECIALTIES:
        m = cards_on(s.specialty_space, MAX_SPACES)
        while m:
            i = ctz64(m)
            for j in range(1 + N_SPECIALTIES):
                n = add_open(out, n, A_SPECIALTY + i * 5 + j, develop_use_open(cat, i, j))
            m &= m - 1
    elif s.row == ROW_GEARS:
        k = installed(p)
        if may_take_gear(p, k):
            n = add_cards(cards_on(s.gear_space, MAX_SPACES), A_GEAR, out, n)
        for pos in range(k):
            for o in range(N_SECTORS):
                n = add_open(out, n, A_REORIENT + pos * N_SECTORS + o, may_reorient(p, pos, o))
    elif s.row == ROW_PATRONAGE:
        for k in range(N_PATRONAGE_REWARDS):
            n = add_open(out, n, A_PATRON_REWARD + k, patron_reward_open(s, k))
        m = 0
        for i in range(N_PATRONAGE_SPACES):
            # An empty space (-1) is never open: it shifts a 0 (no branch on the answer).
            m |= (<uint64_t>patronage_open(s, cat, p, i)) << (s.patronage_space[i] & 63)
        n = add_cards(m, A_PATRON_CARD, out, n)
    n = add_free_actions(s, cat, p, out, n, True, False)
    out[n] = A_PASS
    return add_swaps(p, out, n + 1)


cdef bint turn_has_choice(const GameState* s, const Catalogue* cat) noexcept nogil:
    """Whether the turn's main choice has a move besides "pass" (legal_turn would list
    more than A_PASS), found without listing them."""
    cdef const PlayerState* p = &s.players[s.turn_order[s.turn]]
    # The row's own moves first: they are cheaper to look for than the free actions.
    return row_has_choice(s, cat, p) or has_free_action(s, cat, p)


cdef bint row_has_choice(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """Whether the turn's main choice has a move of the row's own (not a free action)."""
    cdef int i, k
    if s.row == ROW_ORDERS:
        return any_refinement(s) and cards_on(s.printing_space, MAX_SPACES) != 0
    if s.row == ROW_INKS:
        for i in range(MAX_SPACES):
            if ink_set_open(s, p, i, 1):   # the first ink of a set is the cheapest
                return True
        return False
    if s.row == ROW_SPECIALTIES:
        return cards_on(s.specialty_space, MAX_SPACES) != 0
    if s.row == ROW_GEARS:
        k = installed(p)
        if may_take_gear(p, k) and cards_on(s.gear_space, MAX_SPACES) != 0:
            return True
        for i in range(k):
            if p.gear_used[i] == 0:
                return True   # it can be turned to another sector
        return False
    if s.row == ROW_PATRONAGE:
        for k in range(N_PATRONAGE_REWARDS):
            if patron_reward_open(s, k):
                return True
        for i in range(N_PATRONAGE_SPACES):
            if patronage_open(s, cat, p, i):
                return True
    return False


cdef bint turn_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Whether `a` is among legal_turn's moves, tested directly."""
    cdef int seat = s.turn_order[s.turn]
    cdef const PlayerState* p = &s.players[seat]
    cdef int i, k, x, pos
    if s.sub == SUB_REFINEMENT:
        return card_in(cards_on(s.refinement_space, MAX_SPACES), a - A_REFINEMENT, N_REFINEMENT)
    if s.sub == SUB_DISCARD:
        x = a - A_DISCARD
        return 0 <= x < MAX_ORDERS and holds_order(p, x)
    if s.sub == SUB_PLACE:
        x = a - A_PLACE
        return 0 <= x < MAX_INSTALLED * N_SECTORS and place_open(p, installed(p), x // N_SECTORS)
    if a == A_PASS:
        return True
    if is_free_action(a):
        return free_action_legal(s, cat, p, a, True, False)
    if s.row == ROW_ORDERS:
        return any_refinement(s) and card_in(cards_on(s.printing_space, MAX_SPACES), a - A_PRINTING, N_PRINTING)
    if s.row == ROW_INKS:
        x = a - A_INKS
        return 0 <= x < MAX_SPACES * INK_SET and ink_set_open(s, p, x // INK_SET, x % INK_SET + 1)
    if s.row == ROW_SPECIALTIES:
        x = a - A_SPECIALTY
        return (0 <= x < N_SPECIALTY_CARDS * 5 and card_in(cards_on(s.specialty_space, MAX_SPACES), x // 5, N_SPECIALTY_CARDS)
                and develop_use_open(cat, x // 5, x % 5))
    if s.row == ROW_GEARS:
        k = installed(p)
        if A_GEAR <= a < A_GEAR + N_GEARS:
            return may_take_gear(p, k) and card_in(cards_on(s.gear_space, MAX_SPACES), a - A_GEAR, N_GEARS)
        x = a - A_REORIENT
        if not 0 <= x < MAX_INSTALLED * N_SECTORS:
            return False
        pos = x // N_SECTORS
        return pos < k and may_reorient(p, pos, x % N_SECTORS)
    if s.row == ROW_PATRONAGE:
        x = a - A_PATRON_REWARD
        if 0 <= x < N_PATRONAGE_REWARDS:
            return patron_reward_open(s, x)
        x = a - A_PATRON_CARD
        if 0 <= x < N_PATRONAGE:
            for i in range(N_PATRONAGE_SPACES):
                if s.patronage_space[i] == x:
                    return patronage_open(s, cat, p, i)
    return False


cdef inline int legal_fulfil(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """The fulfil turn: free actions before the first order is chosen (they could change
    the choice); each order's parts, slot by slot; once chosen, the fulfilment gears
    (they count the chosen orders) and "done" (print them); after printing, the free
    actions again until "done"."""
    cdef int seat = human_seat(s, s.step)
    cdef const PlayerState* p = &s.players[seat]
    cdef int n = 0, m, printed, modes
    cdef int letters[N_LETTERS]
    cdef int inks[N_INKS]
    cdef bint free = no_picks(s)
    if s.fulfil_slot < MAX_ORDERS:
        n = add_free_actions(s, cat, p, out, 0, free, False)
        printed = chosen_before(s, cat, p, s.fulfil_slot, letters, inks)
        modes = fulfil_modes(cat, p, s.fulfil_slot, letters, inks, printed)
        for m in range(5):
            n = add_open(out, n, A_FULFIL + s.fulfil_slot * 5 + m, (modes >> m) & 1)
        return add_swaps(p, out, n) if free else n
    # After printing (or with no orders to choose from) the free actions; with the orders
    # chosen, the fulfilment gears.
    free = free or s.fulfil_slot == FULFIL_APPLIED
    n = add_free_actions(s, cat, p, out, 0, free, s.fulfil_slot == FULFIL_FINISH)
    out[n] = A_PASS
    return add_swaps(p, out, n + 1) if free else n + 1


cdef bint fulfil_has_choice(const GameState* s, const Catalogue* cat) noexcept nogil:
    """With the orders chosen or printed: whether there is a move besides "done"
    (legal_fulfil would list more than A_PASS), found without listing them."""
    cdef const PlayerState* p = &s.players[human_seat(s, s.step)]
    cdef int pos
    if (no_picks(s) or s.fulfil_slot == FULFIL_APPLIED) and has_free_action(s, cat, p):
        return True
    if s.fulfil_slot == FULFIL_FINISH:
        for pos in range(MAX_INSTALLED):
            if gear_usable(s, cat, p, pos, True):
                return True
    return False


cdef bint fulfil_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Whether `a` is among legal_fulfil's moves, tested directly."""
    cdef const PlayerState* p = &s.players[human_seat(s, s.step)]
    cdef int x
    cdef bint free = no_picks(s)
    if s.fulfil_slot < MAX_ORDERS:
        x = a - A_FULFIL - s.fulfil_slot * 5
        if 0 <= x < 5:
            return can_fulfil(s, cat, p, s.fulfil_slot, x)
        return free and is_free_action(a) and free_action_legal(s, cat, p, a, True, False)
    if a == A_PASS:
        return True
    free = free or s.fulfil_slot == FULFIL_APPLIED
    return is_free_action(a) and free_action_legal(s, cat, p, a, free, s.fulfil_slot == FULFIL_FINISH)


cdef inline bint no_picks(const GameState* s) noexcept nogil:
    """Whether no order of this fulfil turn is chosen yet (every mode -1): the modes'
    sign bits and-ed, one test rather than a branch each."""
    return (s.fulfil_mode[0] & s.fulfil_mode[1] & s.fulfil_mode[2] & s.fulfil_mode[3]) < 0


cdef inline int plan_count(const GameState* s, int seat) noexcept nogil:
    """The plans of `seat` (allocations of its markers): [PLAN_START[m], + plan_count)."""
    cdef int m = s.players[seat].markers
    return PLAN_START[m + 1] - PLAN_START[m]


cdef inline int plan_actions(const GameState* s, int seat, int* first) noexcept nogil:
    """The actions of `seat`'s plans: [first, first + the count returned)."""
    first[0] = A_PLAN + PLAN_START[s.players[seat].markers]
    return plan_count(s, seat)


cdef inline int legal_window(const GameState* s, const Catalogue* cat, const PlayerState* p,
                      int* out) noexcept nogil:
    """A free-action window before the plans: the free actions, then "done"."""
    cdef int n = add_free_actions(s, cat, p, out, 0, True, False)
    out[n] = A_PASS
    return add_swaps(p, out, n + 1)


cdef int legal_actions(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """Legal player actions, ascending; 0 at chance and terminal nodes."""
    cdef int n = 0, i, seat, lo
    cdef const PlayerState* p
    if s.phase == PH_TERMINAL:
        return 0
    seat = current_player(s)
    if seat == CHANCE:
        return 0
    if s.n_pending > 0:
        return legal_pending(s, cat, out)
    if s.phase == PH_DRAFT:
        if s.sub == 0:
            return add_cards(s.draft_printing, A_PRINTING, out, 0)
        return add_cards(s.draft_refinement, A_REFINEMENT, out, 0)
    if s.phase == PH_CHARACTERS:
        p = &s.players[seat]
        i = 0 if p.character_drawn[0] <= p.character_drawn[1] else 1
        out[0] = A_CHARACTER + p.character_drawn[i]
        out[1] = A_CHARACTER + p.character_drawn[1 - i]
        return 2
    if s.phase == PH_TYPES:
        for i in range(N_TYPE_SETS):
            out[i] = A_TYPES + i
        return N_TYPE_SETS
    if s.phase == PH_PLAN:
        if s.sub >= 0:
            return legal_window(s, cat, &s.players[seat], out)
        n = plan_actions(s, seat, &lo)
        for i in range(n):
            out[i] = lo + i
        return n
    if s.phase == PH_TURN:
        return legal_turn(s, cat, out)
    if s.phase == PH_FULFIL:
        return legal_fulfil(s, cat, out)
    return 0


cdef bint decision_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Whether decision `a` is among legal_actions' (s a decision node), tested directly:
    the legality check of every action applied from outside the core."""
    cdef int seat = current_player(s), x, n
    cdef const PlayerState* p = &s.players[seat]
    if s.n_pending > 0:
        return pending_legal(s, cat, a)
    if s.phase == PH_DRAFT:
        if s.sub == 0:
            return card_in(s.draft_printing, a - A_PRINTING, N_PRINTING)
        return card_in(s.draft_refinement, a - A_REFINEMENT, N_REFINEMENT)
    if s.phase == PH_CHARACTERS:
        return a == A_CHARACTER + p.character_drawn[0] or a == A_CHARACTER + p.character_drawn[1]
    if s.phase == PH_TYPES:
        return A_TYPES <= a < A_TYPES + N_TYPE_SETS
    if s.phase == PH_PLAN:
        if s.sub >= 0:
            return a == A_PASS or free_action_legal(s, cat, p, a, True, False)
        n = plan_actions(s, seat, &x)
        return x <= a < x + n
    if s.phase == PH_TURN:
        return turn_legal(s, cat, a)
    if s.phase == PH_FULFIL:
        return fulfil_legal(s, cat, a)
    return False


cdef inline bint at_plan_commit(const GameState* s) noexcept nogil:
    """Whether a player is committing a plan (the free-action windows and the pending
    decisions of the plan step are ordinary, public decisions)."""
    return s.phase == PH_PLAN and s.n_pending == 0 and s.sub < 0


cdef inline int current_player(const GameState* s) noexcept nogil:
    cdef const Pending* q
    cdef int seat
    if s.phase == PH_TERMINAL:
        return TERMINAL
    if s.n_pending > 0:
        q = &s.pending[0]
        if (q.kind == PD_ORDER or q.kind == PD_GUILLARD) and q.stage <= 0:
            return CHANCE
        return q.seat
    if s.phase == PH_SETUP_DEAL or s.phase == PH_REFILL or s.phase == PH_REVEAL:
        return CHANCE
    if s.phase == PH_DRAFT:
        return draft_seat(s)
    if s.phase == PH_TURN:
        seat = s.turn_order[s.turn]
        return CHANCE if seat == s.automa_seat else seat
    if s.phase == PH_PLAN and s.sub >= 0:
        return human_seat(s, s.sub)   # a free-action window before the plans
    seat = human_seat(s, s.step)
    if s.phase == PH_CHARACTERS and s.players[seat].character_drawn[1] < 0:
        return CHANCE
    return seat

# ---------------------------------------------------------------------------------------
# Applying player actions.
# ---------------------------------------------------------------------------------------
cdef void place_order(GameState* s, PlayerState* p, int printing, int refinement) noexcept nogil:
    cdef int k
    for k in range(MAX_ORDERS):
        if p.order_printing[k] < 0:
            p.order_printing[k] = printing
            p.order_refinement[k] = refinement
            return


cdef void discard_order(GameState* s, PlayerState* p, int k) noexcept nogil:
    s.printing_discard |= bit(p.order_printing[k])
    s.refinement_discard |= bit(p.order_refinement[k])
    p.order_printing[k] = -1
    p.order_refinement[k] = -1


cdef void end_order_reward(GameState* s) noexcept nogil:
    s.printing_discard |= s.pool_printing
    s.refinement_discard |= s.pool_refinement
    s.pool_printing = 0
    s.pool_refinement = 0
    s.pool_due_printing = 0
    s.pool_due_refinement = 0
    pop_pending(s)


cdef void use_gear(GameState* s, const Catalogue* cat, int seat, int pos) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    cdef int kind = gear_kind(cat, p, pos)
    cdef int mask = gear_mask(cat, p, pos)
    cdef int c
    p.gear_used[pos] += 1
    p.gear_uses += 1
    if p.gear_used[pos] >= 2:
        p.character_flags |= FLAG_SCHOEFFER_TWICE
    if kind == GEAR_INK_SWAP:
        push_pending(s, PD_INK_SWAP, seat, 1, -1)
    elif kind == GEAR_TYPE_SWAP:
        push_pending(s, PD_TYPE_SWAP, seat, 1, -1)
    elif kind == GEAR_LOWEST_SPECIALTY:
        push_pending(s, PD_LOWEST, seat, 1, 0)
    elif kind == GEAR_ROUND_FAME:
        p.fame += s.round
    elif kind == GEAR_ORDER:
        push_pending(s, PD_ORDER, seat, 1, 0)
    elif kind == GEAR_SELL_TYPE:
        push_pending(s, PD_SELL_TYPE, seat, 1, -1)
    elif is_fulfil_gear(kind):
        p.fame += FULFIL_GEAR_FAME * fulfil_gear_count(s, cat, p, kind, mask)
    elif kind == GEAR_GAIN_INK:
        c = mask_index(mask)
        s.bag[c] -= 1
        p.inks[c] += 1
    elif kind == GEAR_INK_TRADE:
        # 1 ink of the indicated colour into the bag (Caxton's wild colour pays for it
        # too), then any 2 inks from the bag: taken, as far as the bag holds them.
        pay_ink(s, p, mask_index(mask))
        push_pending(s, PD_INK, seat, 2, REWARD_TAKEN)
    elif kind == GEAR_TYPE_DISCOUNT:
        push_pending(s, PD_TYPE_DISCOUNT, seat, 1, mask)
    elif kind == GEAR_SPECIALTY_UP:
        raise_specialty(s, cat, seat, mask_index(mask), 1)


cdef void apply_pending(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef Pending* q = &s.pending[0]
    cdef int seat = q.seat
    cdef PlayerState* p = &s.players[seat]
    cdef int x, k, cost
    if a == A_PASS and reward_declinable(q):
        pop_pending(s)
    elif q.kind == PD_INK:
        x = a - A_INK
        s.bag[x] -= 1
        p.inks[x] += 1
        q.amount -= 1
        if q.amount <= 0:
            pop_pending(s)
    elif q.kind == PD_SPECIALTY:
        q.amount -= 1
        x = q.amount
        raise_specialty(s, cat, seat, a - A_SPECIALTY_UP, 1)
        if x <= 0:
            pop_pending(s)
    elif q.kind == PD_LOWEST:
        pop_pending(s)
        raise_specialty(s, cat, seat, a - A_SPECIALTY_UP, 1)
    elif q.kind == PD_TYPE:
        p.types[a - A_LETTER] += 1
        q.amount -= 1
        if q.amount <= 0:
            pop_pending(s)
    elif q.kind == PD_ORDER:
        if q.stage == 1:
            if a == A_PASS:
                end_order_reward(s)
            elif a >= A_MORE:
                p.guilders -= REDRAW_COST
                x = a - A_MORE
                s.pool_due_printing = 2 if x == 0 else (0 if x == 1 else 1)
                s.pool_due_refinement = 2 - s.pool_due_printing
                q.stage = 0
            else:
                q.arg = a - A_PRINTING
                s.pool_printing &= ~bit(q.arg)
                q.stage = 2
        elif q.stage == 2:
            # A slot is free: one was discarded before the draw if all four were held.
            q.arg2 = a - A_REFINEMENT
            s.pool_refinement &= ~bit(q.arg2)
            place_order(s, p, q.arg, q.arg2)
            end_order_reward(s)
        elif a == A_PASS:
            end_order_reward(s)
        else:
            discard_order(s, p, a - A_DISCARD)
            q.stage = -1     # now the draw
    elif q.kind == PD_INK_SWAP:
        x = a - A_INK
        if q.stage == 0:
            p.inks[x] -= 1
            s.bag[x] += 1
            q.arg = x
            q.stage = 1
        else:
            s.bag[x] -= 1
            p.inks[x] += 1
            pop_pending(s)
    elif q.kind == PD_TYPE_SWAP:
        x = a - A_LETTER
        if q.stage == 0:
            p.types[x] -= 1
            q.arg = x
            q.stage = 1
        else:
            p.types[x] += 1
            pop_pending(s)
    elif q.kind == PD_SELL_TYPE:
        if q.stage == 0:
            p.types[a - A_LETTER] -= 1
            q.stage = 1
        else:
            if a == A_SELL_GUILDERS:
                p.guilders += SELL_TYPE_GUILDERS
            else:
                p.fame += SELL_TYPE_FAME
            pop_pending(s)
    elif q.kind == PD_TYPE_DISCOUNT:
        cost = type_cost(p) - TYPE_DISCOUNT
        p.guilders -= cost if cost > 0 else 0
        p.types[a - A_LETTER] += 1
        pop_pending(s)
    elif q.kind == PD_CAXTON:
        p.wild_ink = a - A_INK
        pop_pending(s)
    elif q.kind == PD_UNGLER:
        x = a - A_SPECIALTY_UP
        if q.stage == 0:
            p.levels[x] = cat.ungler_levels[0]
            q.arg = x
            q.stage = 1
        else:
            p.levels[x] = cat.ungler_levels[1]
            pop_pending(s)
            reach_track(s, cat, seat, cat.ungler_levels[0])
    elif q.kind == PD_GUILLARD:
        if q.stage == 1:
            q.arg = a - A_GEAR
            s.gear_pool &= ~bit(q.arg)
            q.stage = 2
        else:
            k = installed(p)
            p.gear[k] = q.arg
            p.gear_active[k] = (a - A_PLACE) % N_SECTORS
            p.gear_used[k] = 0
            q.amount -= 1
            if q.amount > 0 and s.gear_pool:
                q.stage = 1
            else:
                s.gear_discard |= s.gear_pool
                s.gear_pool = 0
                pop_pending(s)
    elif q.kind == PD_SHIFT:
        if a != A_PASS:
            x = (a - A_SHIFT) // N_ROWS
            k = (a - A_SHIFT) % N_ROWS
            p.plan[x] -= 1
            p.plan[k] += 1
        pop_pending(s)


cdef inline void take_card(int16_t* spaces, int n, int x) noexcept nogil:
    """Card x leaves the board's n spaces of its kind (the space holding it becomes
    empty, -1): every space is rewritten, so no branch is taken on where the card was
    (as good as random in a rollout)."""
    cdef int i
    for i in range(n):
        spaces[i] |= -<int16_t>(spaces[i] == x)


cdef void apply_turn(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int seat = s.turn_order[s.turn]
    cdef PlayerState* p = &s.players[seat]
    cdef int i, k, x, pos, o, j, c, taken
    cdef const SpecialtyCard* sc
    if a == A_PASS:
        s.sub = SUB_DONE
    elif is_free_action(a):
        apply_free_action(s, cat, seat, a)
    elif A_PRINTING <= a < A_PRINTING + N_PRINTING:
        x = a - A_PRINTING
        take_card(s.printing_space, MAX_SPACES, x)
        s.sub_card = x
        s.sub = SUB_REFINEMENT
    elif A_REFINEMENT <= a < A_REFINEMENT + N_REFINEMENT:
        x = a - A_REFINEMENT
        take_card(s.refinement_space, MAX_SPACES, x)
        if held_orders(p) < MAX_ORDERS:
            place_order(s, p, s.sub_card, x)
            s.sub = SUB_DONE
        else:
            # Remember the refinement card until the player says which order goes.
            s.sub_card = s.sub_card * 64 + x
            s.sub = SUB_DISCARD
    elif A_DISCARD <= a < A_DISCARD + MAX_ORDERS:
        discard_order(s, p, a - A_DISCARD)
        place_order(s, p, s.sub_card // 64, s.sub_card % 64)
        s.sub = SUB_DONE
    elif A_INKS <= a < A_INKS + MAX_SPACES * INK_SET:
        i = (a - A_INKS) // INK_SET
        k = (a - A_INKS) % INK_SET + 1
        for pos in range(INK_SET):
            # The first k inks of the space, without a branch on which are there.
            c = s.ink_space[i][pos]
            taken = (k > 0) & (c >= 0)
            p.inks[c * (c >= 0)] += taken
            p.guilders -= pos * taken
            s.ink_space[i][pos] = c | -taken
            k -= taken
        s.sub = SUB_DONE
    elif A_SPECIALTY <= a < A_SPECIALTY + N_SPECIALTY_CARDS * 5:
        x = (a - A_SPECIALTY) // 5
        j = (a - A_SPECIALTY) % 5
        take_card(s.specialty_space, MAX_SPACES, x)
        s.specialty_discard |= bit(x)
        s.sub = SUB_DONE
        if j == 0:
            sc = &cat.specialty[x]
            for i in range(N_SPECIALTIES):
                if sc.icons[i] > 0:
                    raise_specialty(s, cat, seat, i, sc.icons[i])
        else:
            raise_specialty(s, cat, seat, j - 1, 1)
    elif A_GEAR <= a < A_GEAR + N_GEARS:
        x = a - A_GEAR
        take_card(s.gear_space, MAX_SPACES, x)
        s.sub_card = x
        s.sub = SUB_PLACE
    elif A_PLACE <= a < A_PLACE + MAX_INSTALLED * N_SECTORS:
        pos = (a - A_PLACE) // N_SECTORS
        o = (a - A_PLACE) % N_SECTORS
        if p.gear[pos] >= 0:
            s.gear_discard |= bit(p.gear[pos])
        p.gear[pos] = s.sub_card
        p.gear_active[pos] = o
        p.gear_used[pos] = 0
        s.sub = SUB_DONE
    elif A_REORIENT <= a < A_REORIENT + MAX_INSTALLED * N_SECTORS:
        pos = (a - A_REORIENT) // N_SECTORS
        p.gear_active[pos] = (a - A_REORIENT) % N_SECTORS
        s.sub = SUB_DONE
    elif A_PATRON_REWARD <= a < A_PATRON_REWARD + N_PATRONAGE_REWARDS:
        k = a - A_PATRON_REWARD
        s.patronage_reward_seat[k] = seat
        s.sub = SUB_DONE
        give_reward(s, seat, cat.patronage_rewards[k].kind, cat.patronage_rewards[k].amount,
                    REWARD_TAKEN)
    elif A_PATRON_CARD <= a < A_PATRON_CARD + N_PATRONAGE:
        x = a - A_PATRON_CARD
        take_card(s.patronage_space, N_PATRONAGE_SPACES, x)
        spend_inks(s, p, cat.patronage[x].inks)
        p.patronage += 1
        s.sub = SUB_DONE


cdef void swap_levels(PlayerState* p, int a) noexcept nogil:
    cdef int i = (a - A_SWAP) // N_SPECIALTIES, j = (a - A_SWAP) % N_SPECIALTIES
    cdef int16_t v = p.levels[i]
    p.levels[i] = p.levels[j]
    p.levels[j] = v
    p.character_flags |= FLAG_PLANTIN_SWAPPED


cdef void resolve_fulfilment(GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    """All chosen orders are fulfilled at once: rewards come after every check."""
    cdef PlayerState* p = &s.players[seat]
    cdef int k, m, i
    cdef const RefinementCard* r
    for k in range(MAX_ORDERS):
        m = s.fulfil_mode[k]
        if m < FULFIL_PRINT or p.order_printing[k] < 0:
            continue
        r = &cat.refinement[p.order_refinement[k]]
        p.guilders += cat.printing[p.order_printing[k]].guilders
        if m == FULFIL_COLOUR or m == FULFIL_BOTH:
            spend_inks(s, p, r.inks)
            p.fame += r.colour_fame
        if m == FULFIL_DECORATION or m == FULFIL_BOTH:
            p.fame += r.decoration_fame
        # Fiol takes the completion reward for one refinement part as well.
        if m == FULFIL_BOTH or (m != FULFIL_PRINT and p.character == CH_FIOL):
            give_reward(s, seat, r.reward, r.reward_amount, REWARD_OPTIONAL)
        discard_order(s, p, k)
    s.fulfil_slot = FULFIL_APPLIED


cdef void next_fulfil_slot(GameState* s, int after) noexcept nogil:
    """The fulfil turn on to the first order slot after `after` that holds an order, or
    to FULFIL_FINISH (the slot past the last) when none does: the lowest bit of the
    slots held above `after`, found without a branch on what is held."""
    cdef const PlayerState* p = &s.players[human_seat(s, s.step)]
    cdef int k, held = 1 << MAX_ORDERS   # FULFIL_FINISH == MAX_ORDERS
    for k in range(MAX_ORDERS):
        held |= holds_order(p, k) << k
    s.fulfil_slot = ctz64(<uint64_t>((held >> (after + 1)) << (after + 1)))


cdef void begin_fulfil_seat(GameState* s) noexcept nogil:
    cdef int k
    for k in range(MAX_ORDERS):
        s.fulfil_mode[k] = -1
    next_fulfil_slot(s, -1)


cdef void apply_fulfil(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int seat = human_seat(s, s.step)
    cdef int k
    if a == A_PASS:
        finish_fulfil_step(s, cat, seat)
    elif A_FULFIL <= a < A_FULFIL + MAX_ORDERS * 5:
        k = (a - A_FULFIL) // 5
        s.fulfil_mode[k] = (a - A_FULFIL) % 5
        next_fulfil_slot(s, k)
    elif is_free_action(a):
        apply_free_action(s, cat, seat, a)


cdef void finish_fulfil_step(GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    """"Done" in the fulfil turn: orders chosen to print are printed (their rewards'
    choices and the free actions after printing follow); after printing, or with nothing
    to print (no orders held, or all kept), the turn is over: its free actions were
    before the first choice, in the same state."""
    cdef int k
    if s.fulfil_slot == FULFIL_FINISH:
        for k in range(MAX_ORDERS):
            if s.fulfil_mode[k] >= FULFIL_PRINT:
                resolve_fulfilment(s, cat, seat)
                return
    s.fulfil_slot = FULFIL_DONE


cdef inline bint is_free_action(int a) noexcept nogil:
    return (A_BUY <= a < A_USE_GEAR + MAX_INSTALLED
            or A_SWAP <= a < A_SWAP + N_SPECIALTIES * N_SPECIALTIES)


cdef void apply_free_action(GameState* s, const Catalogue* cat, int seat, int a) noexcept nogil:
    """A free action (add_free_actions) of the player at `seat`: buy a type, use a gear,
    Plantin's swap. A gear's choices follow as pending decisions."""
    cdef PlayerState* p = &s.players[seat]
    if A_BUY <= a < A_BUY + N_LETTERS:
        p.guilders -= type_cost(p)
        p.types[a - A_BUY] += 1
    elif A_USE_GEAR <= a < A_USE_GEAR + MAX_INSTALLED:
        use_gear(s, cat, seat, a - A_USE_GEAR)
    else:
        swap_levels(p, a)


cdef void keep_character(GameState* s, const Catalogue* cat, int seat, int x) noexcept nogil:
    """The tile kept is public; the other goes back to the box, seen only by its owner.
    Guillard's and Ungler's setup powers apply at once."""
    cdef PlayerState* p = &s.players[seat]
    p.character = x
    if x == CH_GUILLARD and cat.guillard_keep > 0:
        push_pending(s, PD_GUILLARD, seat, cat.guillard_keep, -1)
    elif x == CH_UNGLER:
        push_pending(s, PD_UNGLER, seat, 1, -1)


cdef inline void apply_decision(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int seat, i
    cdef PlayerState* p
    if s.n_pending > 0:
        apply_pending(s, cat, a)
    elif s.phase == PH_DRAFT:
        seat = draft_seat(s)
        if s.sub == 0:
            s.sub_card = a - A_PRINTING
            s.draft_printing &= ~bit(s.sub_card)
            s.sub = 1
        else:
            s.draft_refinement &= ~bit(a - A_REFINEMENT)
            place_order(s, &s.players[seat], s.sub_card, a - A_REFINEMENT)
            s.sub = 0
            s.step += 1
    elif s.phase == PH_CHARACTERS:
        seat = current_player(s)
        keep_character(s, cat, seat, a - A_CHARACTER)
        s.step += 1
    elif s.phase == PH_TYPES:
        p = &s.players[current_player(s)]
        for i in range(3):
            p.types[TYPE_SET[a - A_TYPES][i]] += 1
        s.step += 1
    elif s.phase == PH_PLAN:
        seat = current_player(s)
        if s.sub >= 0:
            if a == A_PASS:
                s.sub += 1
            else:
                apply_free_action(s, cat, seat, a)
        else:
            p = &s.players[seat]
            for i in range(N_ROWS):
                p.plan[i] = PLAN_TABLE[a - A_PLAN][i]
            s.step += 1
    elif s.phase == PH_TURN:
        apply_turn(s, cat, a)
    elif s.phase == PH_FULFIL:
        apply_fulfil(s, cat, a)

# ---------------------------------------------------------------------------------------
# The flow of the game between decisions.
# ---------------------------------------------------------------------------------------
cdef void start_round(GameState* s) noexcept nogil:
    cdef int seat, pos, k
    cdef PlayerState* p
    s.round += 1
    for seat in range(s.num_seats):
        p = &s.players[seat]
        # 7, 8, 9, 10 markers in seat order from the first player (the token and the
        # markers passed at the end of a round keep this true, for the automa too).
        p.markers = 7 + offset_of(s, seat)
        if seat != s.automa_seat:
            for k in range(N_ROWS):
                p.plan[k] = 0
        for pos in range(MAX_INSTALLED):
            p.gear_used[pos] = 0
        p.gear_uses = 0
        p.character_flags = 0
        # Turn Gears (not in the first round): the top gear one sector clockwise, the
        # gear meshed with it the other way, the third clockwise again.
        if s.round >= 2:
            for pos in range(MAX_INSTALLED):
                if p.gear[pos] >= 0:
                    p.gear_active[pos] = (p.gear_active[pos] + (1 if pos % 2 == 0 else 2)) % N_SECTORS
        if p.character == CH_CAXTON:
            push_pending(s, PD_CAXTON, seat, 1, 0)
    s.automa_card = -1
    s.phase = PH_PLAN
    s.step = 0
    s.sub = 0   # the free-action windows before the plans, from the first player


cdef inline void order_descending(int* a, int i, int j) noexcept nogil:
    """a[i], a[j] in descending order, by min and max (no branch)."""
    cdef int hi = a[i] if a[i] > a[j] else a[j]
    a[j] = a[i] + a[j] - hi
    a[i] = hi


cdef void start_row(GameState* s, int row) noexcept nogil:
    """Turn order at a row: most markers first, ties by seat order from the first player.
    Each seat with markers there is a key, its markers above its place from the first
    player (nearer is larger) above the seat; four keys (absent seats 0) are sorted by a
    network of compare-exchanges: who acts next is as good as random in a rollout, so an
    insertion sort's branches would be mispredicted."""
    cdef int key[MAX_SEATS]
    cdef int k, seat = s.first_player, markers
    for k in range(MAX_SEATS):
        key[k] = 0
    s.row = row
    s.n_turns = 0
    for k in range(s.num_seats):
        markers = s.players[seat].plan[row]
        key[k] = (markers > 0) * ((markers << 6) | ((MAX_SEATS - 1 - k) << 3) | seat)
        s.n_turns += markers > 0
        seat += 1
        seat -= s.num_seats * (seat == s.num_seats)   # the next seat round the table, without a branch
    order_descending(key, 0, 1)
    order_descending(key, 2, 3)
    order_descending(key, 0, 2)
    order_descending(key, 1, 3)
    order_descending(key, 1, 2)
    for k in range(MAX_SEATS):
        # Past the row's turns the order keeps what it held (the state stays as it was).
        s.turn_order[k] = (key[k] & 7) if k < s.n_turns else s.turn_order[k]
    s.turn = 0
    s.sub = SUB_CHOOSE
    s.phase = PH_TURN


cdef inline uint64_t clear_cards(int16_t* spaces, int n) noexcept nogil:
    """The cards on n board spaces (cards_on), the spaces emptied."""
    cdef uint64_t m = cards_on(spaces, n)
    cdef int i
    for i in range(n):
        spaces[i] = -1
    return m


cdef void end_row(GameState* s) noexcept nogil:
    """After everyone has done an action, what is left on its spaces leaves the board."""
    # Which spaces are still full is as good as random in a rollout: each space is
    # emptied and counted without a branch on it.
    if s.row == ROW_ORDERS:
        s.printing_discard |= clear_cards(s.printing_space, MAX_SPACES)
        s.refinement_discard |= clear_cards(s.refinement_space, MAX_SPACES)
    elif s.row == ROW_INKS:
        inks_to_bag(s, &s.ink_space[0][0], MAX_SPACES * INK_SET)
    elif s.row == ROW_SPECIALTIES:
        s.specialty_discard |= clear_cards(s.specialty_space, MAX_SPACES)
    elif s.row == ROW_GEARS:
        s.gear_discard |= clear_cards(s.gear_space, MAX_SPACES)
    if s.row < ROW_PATRONAGE:
        start_row(s, s.row + 1)
    else:
        s.phase = PH_FULFIL
        s.step = 0
        begin_fulfil_seat(s)


cdef bint tory_scores(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """Tory: every ink held can be assigned to a distinct ink of the colour parts of the
    orders held."""
    cdef int c, k, room
    if cat.tory_needs_inks and total4(p.inks) == 0:
        return False
    for c in range(N_INKS):
        room = 0
        for k in range(MAX_ORDERS):
            if p.order_refinement[k] >= 0:
                room += cat.refinement[p.order_refinement[k]].inks[c]
        if p.inks[c] > room:
            return False
    return True


cdef void end_round(GameState* s, const Catalogue* cat) noexcept nogil:
    cdef int k, seat
    for seat in range(s.num_seats):
        if s.players[seat].character == CH_TORY and tory_scores(s, cat, &s.players[seat]):
            s.players[seat].fame += cat.tory_fame
    if s.round >= s.rounds:
        s.phase = PH_TERMINAL
        return
    for k in range(N_PATRONAGE_REWARDS):
        s.patronage_reward_seat[k] = -1
    if s.automa_seat >= 0:
        automa_pass_markers(s, cat)
    s.first_player = (s.first_player + 1) % s.num_seats
    s.phase = PH_REFILL


cdef bint pending_auto(GameState* s, const Catalogue* cat) noexcept nogil:
    """Serve pending items that need no decision; True if something changed."""
    cdef Pending* q = &s.pending[0]
    if q.kind == PD_INK and (q.amount <= 0 or total4(s.bag) == 0):
        pop_pending(s)
        return True
    if (q.kind == PD_SPECIALTY or q.kind == PD_TYPE) and q.amount <= 0:
        pop_pending(s)
        return True
    if q.kind == PD_GUILLARD and q.stage <= 0:
        if q.stage < 0:
            q.stage = 0
            s.gear_pool_due = cat.guillard_draw
        if s.gear_pool_due > 0:
            refill_deck(&s.gear_deck, &s.gear_discard)
            if s.gear_deck:
                return False
            s.gear_pool_due = 0
        q.stage = 1 if s.gear_pool else 0
        if not s.gear_pool:
            pop_pending(s)
        return True
    if q.kind == PD_ORDER and q.stage <= 0:
        if q.stage < 0:
            if held_orders(&s.players[q.seat]) >= MAX_ORDERS:
                # "A player with 4 orders ... must first discard one of the 4 they have
                # to create a free slot" (p.8): the discard (or declining the reward)
                # comes before the draw, so it is chosen without seeing the cards.
                q.stage = 3
                return True
            q.stage = 0
            s.pool_due_printing = ORDER_DRAW
            s.pool_due_refinement = ORDER_DRAW
        if s.pool_due_printing > 0:
            refill_deck(&s.printing_deck, &s.printing_discard)
            if s.printing_deck == 0:
                s.pool_due_printing = 0
                return True
            return False
        if s.pool_due_refinement > 0:
            refill_deck(&s.refinement_deck, &s.refinement_discard)
            if s.refinement_deck == 0:
                s.pool_due_refinement = 0
                return True
            return False
        q.stage = 1
        return True
    return False


cdef inline void advance(GameState* s, const Catalogue* cat) noexcept nogil:
    """Carry the game forward through everything that needs no decision and no draw."""
    advance_listing(s, cat, NULL)


cdef int advance_listing(GameState* s, const Catalogue* cat, int* moves) noexcept nogil:
    """advance; with `moves` (not NULL), where it stops at a decision whose moves it
    lists on its way (to see whether there is a choice), or at a turn or fulfil step,
    it gives them there: their number (legal_actions' list), or 0 (nothing listed).
    Random play takes them instead of listing them again."""
    cdef int buf[MAX_LEGAL]
    cdef double weights[MAX_SPACES + 1]
    cdef int* out = moves if moves != NULL else buf
    cdef int n, index, deal, seat
    while True:
        if s.n_pending > 0:
            if pending_auto(s, cat):
                continue
            if current_player(s) == CHANCE:
                return 0
            n = legal_pending(s, cat, out)
            if n == 0:
                pop_pending(s)   # nothing can be chosen (e.g. the bag ran dry)
                continue
            if n == 1 and out[0] == A_PASS:
                apply_pending(s, cat, A_PASS)
                continue
            return n if moves != NULL else 0
        if s.phase == PH_SETUP_DEAL or s.phase == PH_REFILL:
            deal = next_deal(s, cat, &index)
            if deal != DEAL_NONE:
                reshuffle_if_empty(s, deal)
                return 0
            if s.phase == PH_SETUP_DEAL:
                s.phase = PH_CHARACTERS if s.characters else PH_DRAFT
                s.step = 0
                s.sub = 0
            else:
                start_round(s)
        elif s.phase == PH_CHARACTERS:
            if s.step < s.num_players:
                return 0
            s.phase = PH_DRAFT
            s.step = 0
            s.sub = 0
        elif s.phase == PH_DRAFT:
            if s.step < 2 * s.num_players:
                return 0
            s.printing_discard |= s.draft_printing
            s.refinement_discard |= s.draft_refinement
            s.draft_printing = 0
            s.draft_refinement = 0
            s.phase = PH_TYPES
            s.step = 0
        elif s.phase == PH_TYPES:
            if s.step < s.num_players:
                return 0
            start_round(s)
        elif s.phase == PH_PLAN:
            if s.sub >= 0:
                # Each player's free-action window; one with nothing to do is skipped.
                if s.sub >= s.num_players:
                    s.sub = SUB_CHOOSE
                    continue
                if moves != NULL:
                    n = legal_window(s, cat, &s.players[human_seat(s, s.sub)], moves)
                    if n > 1:
                        return n
                elif has_free_action(s, cat, &s.players[human_seat(s, s.sub)]):
                    return 0
                s.sub += 1   # only "done"
                continue
            if s.step < s.num_players:
                return 0   # a plan (legal_range draws one without a list)
            s.phase = PH_REVEAL
            s.reveal_stage = 0 if s.automa_seat >= 0 else 1
        elif s.phase == PH_REVEAL:
            if s.reveal_stage == 0:
                return 0   # the automa's planning card (chance)
            if s.reveal_stage == 1:
                s.reveal_stage = 2
                for seat in range(s.num_seats):
                    if s.players[seat].character == CH_GUTENBERG and cat.gutenberg_shift > 0:
                        push_pending(s, PD_SHIFT, seat, 1, 0)
                continue
            start_row(s, ROW_ORDERS)
        elif s.phase == PH_TURN:
            if s.turn >= s.n_turns:
                end_row(s)
                continue
            if s.sub == SUB_DONE:
                s.turn += 1
                s.sub = SUB_CHOOSE
                continue
            if s.turn_order[s.turn] == s.automa_seat:
                if s.row == ROW_PATRONAGE and s.sub == SUB_CHOOSE:
                    n = automa_patronage_card(s, cat)
                    if n >= 0:
                        s.players[s.automa_seat].patronage += 1
                        s.patronage_space[n] = -1
                        s.sub = SUB_DONE
                        continue
                if automa_spaces(s, cat, buf, weights) == 0:
                    # Nothing on the spaces its cards name: it takes nothing. At take
                    # orders with no printing card found every card has been drawn, so
                    # none is left for a refinement card either.
                    s.sub = SUB_DONE
                    continue
                return 0   # its draw (chance)
            if moves != NULL:
                n = legal_turn(s, cat, moves)
                if n > 1 or s.sub != SUB_CHOOSE:
                    return n
            elif s.sub != SUB_CHOOSE or turn_has_choice(s, cat):
                return 0
            s.sub = SUB_DONE   # only "pass": nothing to decide
            continue
        elif s.phase == PH_FULFIL:
            if s.step >= s.num_players:
                end_round(s, cat)
                continue
            if s.fulfil_slot < FULFIL_APPLIED and no_picks(s):
                # Before the first pick a free action may have brought a new order.
                next_fulfil_slot(s, -1)
            if s.fulfil_slot == FULFIL_DONE:
                s.step += 1
                if s.step < s.num_players:
                    begin_fulfil_seat(s)
                continue
            if moves != NULL:
                n = legal_fulfil(s, cat, moves)
                if n > 1 or s.fulfil_slot < FULFIL_FINISH:
                    return n
            elif s.fulfil_slot < FULFIL_FINISH or fulfil_has_choice(s, cat):
                return 0
            finish_fulfil_step(s, cat, human_seat(s, s.step))   # only "done"
            continue
        else:
            return 0


cdef bint is_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Whether `a` is a legal action (chance outcome at chance nodes) now, tested directly
    (decision_legal): no list is generated."""
    cdef int buf[MAX_SPACES + 1]
    cdef double weights[MAX_SPACES + 1]
    cdef int n, i, index, deal, base = 0
    cdef uint64_t m64
    if s.phase == PH_TERMINAL:
        return False
    if current_player(s) == CHANCE:
        deal = chance_context(s, cat, &index)
        if deal == DEAL_INK:
            return C_INK <= a < C_INK + N_INKS and s.bag[a - C_INK] > 0
        if deal == DEAL_AUTOMA_SPACE:
            n = automa_spaces(s, cat, buf, weights)
            for i in range(n):
                if a == C_AUTOMA_SPACE + buf[i]:
                    return True
            return False
        m64 = chance_set(s, deal, &base)
        return base <= a < base + 64 and (m64 >> (a - base)) & 1
    return decision_legal(s, cat, a)


cdef inline bint keep_on_the_tracks(GameState* s) noexcept nogil:
    """The engine's fame track and purse end at MAX_FAME and MAX_GUILDERS (docs/gutenberg/rulings.md),
    so a game from any position stays within the bounds of positions and utilities.
    True when a player was past an end."""
    cdef int seat
    cdef bint moved = False
    for seat in range(s.num_seats):
        if s.players[seat].fame > MAX_FAME:
            s.players[seat].fame = MAX_FAME
            moved = True
        if s.players[seat].guilders > MAX_GUILDERS:
            s.players[seat].guilders = MAX_GUILDERS
            moved = True
    return moved


cdef inline bint at_chance(const GameState* s) noexcept nogil:
    return current_player(s) == CHANCE


cdef inline bint after_action(GameState* s) noexcept nogil:
    return keep_on_the_tracks(s)


cdef inline void deal_cards(int16_t* spaces, int n, uint64_t* deck, uint64_t* discard,
                            Rng* rng) noexcept nogil:
    """Each empty space of the n, in order, a card drawn from the deck (draw's draw),
    the discard pile becoming the deck when the deck runs out, while there are cards:
    next_deal's deals of one kind, one after another. The deck is kept in a register and
    its cards counted down rather than counted again, so a draw waits only for the card
    before it."""
    cdef int i, x
    cdef uint64_t cards = deck[0]
    cdef int left = popcount64(cards)
    for i in range(n):
        if spaces[i] >= 0:
            continue
        if left == 0:
            deck[0] = cards
            refill_deck(deck, discard)
            cards = deck[0]
            left = popcount64(cards)
            if left == 0:
                return
        x = card_from(cards, left, rng)
        cards &= ~bit(x)
        left -= 1
        spaces[i] = x
    deck[0] = cards


cdef inline void deal_inks(GameState* s, int n, Rng* rng) noexcept nogil:
    """Each empty ink space of the n (INK_SET a space), in order, an ink drawn from the
    bag (draw's draw), while the bag has inks. The bag's counts are kept in registers
    (four numbers, not an array written and read again) and its total counted down, so
    a draw waits only for the ink before it."""
    cdef int16_t* spaces = &s.ink_space[0][0]
    cdef int i, c, left
    cdef int blue = s.bag[0], silver = s.bag[1], gold = s.bag[2], red = s.bag[3]
    left = blue + silver + gold + red
    for i in range(n):
        if spaces[i] >= 0:
            continue
        if left == 0:
            break
        c = ink_drawn(rng_below(rng, left), blue, silver, gold)
        blue -= c == 0
        silver -= c == 1
        gold -= c == 2
        red -= c == 3
        left -= 1
        spaces[i] = c
    s.bag[0] = blue
    s.bag[1] = silver
    s.bag[2] = gold
    s.bag[3] = red


cdef bint chance_run(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """The deals of the setup or of a new round, drawn at once when played at random:
    draw_chance's draws one after another (the same rng calls and changes to the state),
    a kind of card at a time, not each draw found and dispatched by sample_chance,
    apply_chance and advance. The caller moves on after the last deal, as after one:
    advance and keep_on_the_tracks between the deals would do nothing, as dealing moves
    neither track. False (nothing done) at any other chance node."""
    cdef int index, deal
    cdef uint64_t no_discard = 0
    cdef const BoardLayout* b = &cat.board[s.num_seats]
    if s.n_pending > 0 or not (s.phase == PH_SETUP_DEAL or s.phase == PH_REFILL):
        return False
    deal = next_deal(s, cat, &index)
    if deal == DEAL_NONE:
        return False
    while deal == DEAL_DRAFT_PRINTING or deal == DEAL_DRAFT_REFINEMENT:   # (the setup)
        reshuffle_if_empty(s, deal)
        put_drawn(s, cat, deal, index, draw(s, cat, rng, deal))
        deal = next_deal(s, cat, &index)
    # The board's spaces, in the order of the deals DEAL_PRINTING to DEAL_PATRONAGE.
    deal_cards(s.printing_space, b.printing, &s.printing_deck, &s.printing_discard, rng)
    deal_cards(s.refinement_space, b.refinement, &s.refinement_deck, &s.refinement_discard, rng)
    deal_inks(s, b.ink_sets * INK_SET, rng)
    deal_cards(s.specialty_space, b.specialty, &s.specialty_deck, &s.specialty_discard, rng)
    deal_cards(s.gear_space, b.gears, &s.gear_deck, &s.gear_discard, rng)
    if s.phase == PH_SETUP_DEAL:
        deal_cards(s.patronage_space, N_PATRONAGE_SPACES, &s.patronage_box, &no_discard, rng)
    return True


cdef inline int guilder_point_fame(const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """The fame each guilders_per_point guilders score at the end: Vietor doubles his."""
    return cat.vietor_multiplier if p.character == CH_VIETOR else 1


ctypedef struct ScoreParts:
    # The end-scoring parts of one seat (their sum is its final score).
    int fame
    int specialties
    int patronage
    int guilders


cdef inline ScoreParts score_parts(const PlayerState* p, const Catalogue* cat) noexcept nogil:
    """The end-of-game scoring of one seat, part by part: fame track, specialty levels,
    patronage cards, guilders."""
    cdef ScoreParts parts
    cdef int j
    parts.fame = p.fame
    parts.specialties = 0
    for j in range(N_SPECIALTIES):
        parts.specialties += cat.specialty_points[p.levels[j]]
    parts.patronage = p.patronage * cat.patronage_points
    parts.guilders = (p.guilders // cat.guilders_per_point) * guilder_point_fame(cat, p)
    return parts


cdef void final_scores(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """Fame with the end-of-game scoring (score_parts, summed)."""
    cdef int seat
    cdef ScoreParts parts
    for seat in range(s.num_seats):
        parts = score_parts(&s.players[seat], cat)
        out[seat] = parts.fame + parts.specialties + parts.patronage + parts.guilders


cdef inline int legal_range(const GameState* s, const Catalogue* cat, int* first) noexcept nogil:
    """At a decision node: a plan's legal actions, a range (legal_actions lists the same),
    so random play draws a plan without writing out its hundreds; 0 elsewhere."""
    return plan_actions(s, current_player(s), first) if at_plan_commit(s) else 0


include "moves.pxi"      # apply_action, play_random (engine)


# ---------------------------------------------------------------------------------------
# The end of the game: ranking and returns (shared by the Python shell, the native
# OpenSpiel game and search).
# ---------------------------------------------------------------------------------------
cdef inline bint ranks_above(const GameState* s, const double* scores, int a, int b) noexcept nogil:
    """Whether player a ranks above player b: more fame, then fewer types, then fewer inks
    (rulebook p.15)."""
    cdef int ta = total4(s.players[a].types), tb = total4(s.players[b].types)
    if scores[a] != scores[b]:
        return scores[a] > scores[b]
    if ta != tb:
        return ta < tb
    return total4(s.players[a].inks) < total4(s.players[b].inks)


cdef int winners_of(const GameState* s, const double* scores, bint* win) noexcept nogil:
    """Marks the winners among the players by `scores` (final, or projected by a search;
    the automa is not ranked) and returns how many share the win."""
    cdef int seat, best = 0, k = 0
    for seat in range(1, s.num_players):
        if ranks_above(s, scores, seat, best):
            best = seat
    for seat in range(s.num_seats):
        win[seat] = seat < s.num_players and not ranks_above(s, scores, best, seat)
        k += win[seat]
    return k


include "scoring.pxi"   # final_scores_double, winners, returns_of (engine)

# ---------------------------------------------------------------------------------------
# Hidden information. A player does not see the plans the others commit in a plan step
# until all have committed (the automa has no screen: its markers are seen by all), nor
# the character tiles the others draw at setup (the tile kept is public, the other goes
# back to the box unseen). Decks are unordered sets drawn at chance nodes, so nothing
# else is hidden.
# ---------------------------------------------------------------------------------------
cdef inline bint plan_seen(const GameState* s, int owner, int observer) noexcept nogil:
    # The automa has no screen: its markers are on view during the plan step too.
    return owner == observer or s.phase != PH_PLAN or owner == s.automa_seat


cdef int character_owner(const GameState* s, int x) noexcept nogil:
    """The seat that drew character tile x at setup, or -1."""
    cdef int seat
    for seat in range(s.num_seats):
        if s.players[seat].character_drawn[0] == x or s.players[seat].character_drawn[1] == x:
            return seat
    return -1


cdef bint entry_hidden(const GameState* s, int player, int i, int n, int actor, int action) noexcept nogil:
    """Whether `player` has not seen entry i, (actor, action), of the n-entry history that
    led to s. In a plan step the last s.step entries are the plans committed so far (the
    free-action windows, and any pending decision of the round, come before the first
    plan)."""
    if actor == CHANCE:
        return C_CHARACTER <= action < C_AUTOMA_PLAN and character_owner(s, action - C_CHARACTER) != player
    return i >= n - s.step and not plan_seen(s, actor, player)


cdef int draw_plan(GameState* s, int seat, Rng* rng) noexcept nogil:
    """Give `seat` a uniformly drawn allocation of its markers; returns its plan action."""
    cdef int m = s.players[seat].markers, i
    cdef int idx = PLAN_START[m] + rng_below(rng, PLAN_START[m + 1] - PLAN_START[m])
    for i in range(N_ROWS):
        s.players[seat].plan[i] = PLAN_TABLE[idx][i]
    return A_PLAN + idx


cdef void draw_characters(GameState* s, int player, Rng* rng) noexcept nogil:
    """Deal again the character tiles `player` has not seen (the tiles the others drew,
    except the one each kept, and the tiles never drawn) among those places; each other
    player's drawn tiles, the kept one included, come in a random order. The tiles put
    back are out of play, but later draws at setup come from what is left."""
    cdef int unknown[N_CHARACTERS]
    cdef int tiles[2]
    cdef int n = 0, x, seat, k, d, t
    cdef uint64_t seen = 0
    cdef PlayerState* p
    if not s.characters:
        return
    for seat in range(s.num_seats):
        if s.players[seat].character >= 0:
            seen |= bit(s.players[seat].character)
    if 0 <= player < s.num_seats:
        for k in range(2):
            if s.players[player].character_drawn[k] >= 0:
                seen |= bit(s.players[player].character_drawn[k])
    for x in range(N_CHARACTERS):
        if not (seen >> x) & 1:
            unknown[n] = x
            n += 1
    for seat in range(s.num_seats):
        p = &s.players[seat]
        d = (p.character_drawn[0] >= 0) + (p.character_drawn[1] >= 0)
        if seat == player or d == 0:
            continue
        k = 0
        if p.character >= 0:
            tiles[0] = p.character
            k = 1
        while k < d:   # one of the unknown tiles, uniformly
            t = rng_below(rng, n)
            tiles[k] = unknown[t]
            n -= 1
            unknown[t] = unknown[n]
            k += 1
        if d == 2 and rng_below(rng, 2):
            t = tiles[0]
            tiles[0] = tiles[1]
            tiles[1] = t
        for k in range(d):
            p.character_drawn[k] = tiles[k]
    s.character_pool = 0
    for k in range(n):
        s.character_pool |= bit(unknown[k])


cdef void resample_hidden(GameState* s, int player, Rng* rng, int* plan_actions) noexcept nogil:
    """Redraw, uniformly, everything `player` cannot see: the others' character tiles
    (draw_characters) and the plans the others have committed in this plan step (any
    allocation of their markers). plan_actions, if not NULL, receives the plan action of
    the k-th plan committed in this step (-1 for player's own)."""
    cdef int k, seat, a
    draw_characters(s, player, rng)
    if s.phase != PH_PLAN:
        return
    for k in range(s.step):
        seat = human_seat(s, k)
        if plan_actions != NULL:
            plan_actions[k] = -1
        if not plan_seen(s, seat, player):
            a = draw_plan(s, seat, rng)
            if plan_actions != NULL:
                plan_actions[k] = a


cdef void determinize(GameState* s, const Catalogue* cat, int player, Rng* rng) noexcept nogil:
    """A state `player` cannot tell from s, drawn uniformly (for search in the core)."""
    resample_hidden(s, player, rng, NULL)


cdef int resample_history(GameState* s, int player, const int* actors, int* actions, int n,
                          Rng* rng) noexcept nogil:
    """resample_hidden for a state with its history (n entries, (actors[i], actions[i])):
    the hidden entries of `actions` are rewritten in place so that replaying the history
    leads to the new s. Returns how many entries changed."""
    cdef int plans[MAX_SEATS]
    cdef int where[2 * MAX_SEATS]
    cdef int owner[2 * MAX_SEATS]
    cdef int slot[2 * MAX_SEATS]
    cdef int draws = 0, changed = 0, i, j, a, seat
    # The character draws: whose they are and in which slot, before the redraw.
    for i in range(n):
        if actors[i] == CHANCE and C_CHARACTER <= actions[i] < C_AUTOMA_PLAN and draws < 2 * MAX_SEATS:
            seat = character_owner(s, actions[i] - C_CHARACTER)
            if seat < 0:
                continue   # not a draw that led to s
            where[draws] = i
            owner[draws] = seat
            slot[draws] = 0 if s.players[seat].character_drawn[0] == actions[i] - C_CHARACTER else 1
            draws += 1
    resample_hidden(s, player, rng, plans)
    for j in range(draws):
        if owner[j] != player:
            a = C_CHARACTER + s.players[owner[j]].character_drawn[slot[j]]
            changed += a != actions[where[j]]
            actions[where[j]] = a
    if s.phase == PH_PLAN:
        for j in range(s.step):
            i = n - s.step + j
            # A game started from a position mid-plan-step has plans committed before its
            # history began: nothing in the history to rewrite for those.
            if plans[j] >= 0 and i >= 0:
                changed += plans[j] != actions[i]
                actions[i] = plans[j]
    return changed


cdef void init_state(GameState* s, const Catalogue* cat, int players, int rounds,
                     bint characters, bint automa) noexcept nogil:
    """The state before the first setup draw. With the automa it takes the last seat and
    the first player token; `players` counts the people."""
    cdef int i, seat, pos
    cdef PlayerState* p
    memset(s, 0, sizeof(GameState))
    s.num_players = players
    s.num_seats = players + (1 if automa else 0)
    s.automa_seat = players if automa else -1
    s.first_player = s.automa_seat if automa else 0
    s.rounds = rounds
    s.phase = PH_SETUP_DEAL
    s.turn = 0
    s.sub = SUB_CHOOSE
    s.sub_card = -1
    s.characters = characters
    s.character_pool = bit(N_CHARACTERS) - 1 if characters else 0
    s.automa_deck = bit(N_AUTOMA_PLANNING) - 1 if automa else 0
    s.automa_card = -1
    for i in range(MAX_SPACES):
        s.printing_space[i] = -1
        s.refinement_space[i] = -1
        s.specialty_space[i] = -1
        s.gear_space[i] = -1
        for pos in range(INK_SET):
            s.ink_space[i][pos] = -1
    for i in range(N_PATRONAGE_SPACES):
        s.patronage_space[i] = -1
    for i in range(N_PATRONAGE_REWARDS):
        s.patronage_reward_seat[i] = -1
    for i in range(N_INKS):
        s.bag[i] = cat.inks_per_colour
    s.printing_deck = (bit(N_PRINTING) - 1)
    s.refinement_deck = (bit(N_REFINEMENT) - 1)
    s.specialty_deck = (bit(N_SPECIALTY_CARDS) - 1)
    s.patronage_box = (bit(N_PATRONAGE) - 1)
    for i in range(N_GEARS):
        # Gears with white lines stay in the box with 2 participants.
        if cat.gears[i].white_line and s.num_seats == 2:
            s.gear_box |= bit(i)
        else:
            s.gear_deck |= bit(i)
    for seat in range(MAX_SEATS):
        p = &s.players[seat]
        for i in range(MAX_ORDERS):
            p.order_printing[i] = -1
            p.order_refinement[i] = -1
        for pos in range(MAX_INSTALLED):
            p.gear[pos] = -1
        p.character = -1
        p.character_drawn[0] = -1
        p.character_drawn[1] = -1
        p.wild_ink = -1
        if seat < players:
            p.guilders = cat.starting_guilders
    if automa:
        p = &s.players[s.automa_seat]
        p.markers = cat.markers_first
        for i in range(N_ROWS):
            p.plan[i] = cat.automa_start[i]
    advance(s, cat)

include "api.pxi"
include "heuristic.pxi"
include "search_hooks.pxi"
include "engine/search.pxi"
include "spiel.pxi"
