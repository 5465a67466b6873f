# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled rules of Lead Letter Printers (A-games, 2022): one C struct per state, rule
functions without the GIL.

Sequence of a game (rulebook: Setup, Gameplay, Game end):

    setup: chance fills the boards (the typesetting table's 4 lead letters, each player's
    lead letter with its resources, 3 trading tiles, 3 technologies of each level, a disc
    on each grey city, 5 orders of level I, 5 contracts); the tradesmen go into II rooms in
    player order and then in reverse, each taking its room's action at once
    -> rounds of [Action phase: two turns each in player order, each a Shop or a Reset
    action with any optional actions before and after; Order and contract phase in the
    reverse order of the order track; Production phase in player order, each followed by
    its wages; Preparation: the new player order, the displays refilled (chance)]
    -> when no order is left after a preparation: the last optional actions in player
    order, then the final scoring.

Who decides: one player at a time. Every effect that needs a choice (a trade, a
typesetting, a travel, a technology, a build, a factory, an assistant, ...) becomes a
frame on a stack in the state (GameState.frames); the acting player answers the top frame
until the stack is empty, then the turn's own menu comes back. A frame whose only answer
is to decline or to stop is passed over without a decision. Production is played one
player after another in player order (the rulebook's "simultaneously": the players share
only the supply and the trading tiles).

Chance: every draw from a pile (lead letters, trading tiles, technologies, orders,
contracts, city discs, factories) is a chance node, uniform over what the pile holds (the
lead letters' backs show their letters: the top's come into view before it is drawn).
The factory piles lie face up (setup 2a; the rule factory_tops, 0 for a face-down deck):
each pile's top factory comes into view at a chance node of its own (C_FACTORY_TOP), at
the setup and after each draw from the pile, and a draw takes it first.
Orders left in the box at setup are not drawn at setup: a pile of an unknown part of the
orders of a level is, to everyone, a pile drawn uniformly from the orders not seen yet,
with its count known (rulings.md). Tiles put back under a pile (refreshed technologies,
the two factories not kept) come out after the rest, in order, without chance.

Hidden information: the factories a player draws and the two put back under the pile
are seen by that player only (C_FACTORY outcomes carry the seat), all but a pile's top in
sight, which everyone saw. Everything else is public once drawn.

Action encoding (the ranges are enums in llp_types.pxd; a cell is r * 4 + c on the city
board, a street is cell * 2 (to the right) or cell * 2 + 1 (below), a space is
column * 3 + row of the workshop, a stick space is stick * 3 + place):

    A_PASS                 end the turn (after its Shop or Reset), decline an optional
                           effect, stop producing, pass in the order phase; turn a completed
                           order's signboard face down (F_SIGN_SOURCE)
    [A_SETUP, +16)         setup: the next tradesman into the II room of cell X
    [A_MOVE, +64)          Shop: tradesman t to cell X, room r: (t * 16 + X) * 2 + r; the
                           capacity paid is the least that any path there costs
    [A_RESET, +4)          Reset with lead letter X of the typesetting table
    [A_KEEP, +2)           keep the lead letter on stack k
    A_DISCARD              discard it for its resources (a Reset)
    [A_LAY, +2)            Reset: lay down tradesman t
    [A_RESOURCE, +3)       a resource: paper, lead, ink (to gain, or to pay in a 1:2)
    A_CONVERT              trade: the 1:2 conversion
    [A_TILE, +6)           trade: face-up trading tile i, d = 0 left to right, 1 back: i*2+d
    A_REFRESH_TILES        trade: 1 mark, 3 new trading tiles
    A_AGAIN                trade: the trading tile once more
    [A_STACK, +2)          the top lead letter of stack k (typesetting, its resources,
                           the end of a chain)
    [A_STICK, +9)          typesetting: onto composing stick space X
    [A_STICK_PAIR, +9)     ... paired with a city tile showing the space's letter
    [A_UNDER, +4)          ... under the contract in slot X
    [A_MAP, +6)            travel: the agent along link k of its node
    A_TRACK                travel: the agent 1 section on along the order track
    A_STOP                 travel: stop on the map (its city or coin), or end the travel
    A_TRADE                after a travel's stop: the trade action
    [A_FACTORY_PILE, +4)   a factory of level X: draw 3
    [A_FACTORY, +36)       keep factory X of those drawn
    [A_UP, +15)            build face up on space X
    [A_DOWN, +15)          build face down on space X (one level above the tile's)
    [A_REPLACE, +15)       build on space X; its tile goes face down one level higher
    [A_TECH, +12)          the technology of level c, row r: c * 3 + r
    [A_REFRESH_COLUMN, +4) 1 mark: three new technologies of level X
    [A_CHAIN, +15)         the blue chain goes on to space X
    [A_ASSISTANT, +5)      the assistant of kind X (paper, lead, ink, mark, capacity) ...
    [A_STREET, +32)        ... onto street X
    [A_TABLE, +4)          lead letter X of the typesetting table
    [A_ADVANCE, +6)        an order on: waiting order X (0-1) into stage 1, or the order
                           in stage X - 1 (X = 2..5) on
    [A_BUY_ORDER, +5)      the order on display space X (0 the cheapest)
    [A_BUY_CONTRACT, +5)   the contract on display space X
    [A_SIGNBOARD, +3)      a signboard action: white, red, blue
    [A_ACTIVATE, +96)      contract X into contract slot k: X * 4 + k
    [A_DISC, +24)          use city disc X for its reward; choosing which signboards to
                           turn face down: city disc X's (A_PASS: a completed order's)
    [A_CITY, +16)          the disc of city X
    [A_COPY, +15)          copy the technology on space X
    [A_SLIDE, +2)          slide tradesman t from its I room to the II room
    [A_PAIR, +24)          pair city disc X with a lead letter on the composing sticks
                           (the pairing technology; an optional action)

Chance outcomes: [C_LETTER, +54) a lead letter, [C_TILE, +36) a trading tile,
[C_TECH, +48) a technology, [C_ORDER, +36) an order, [C_CONTRACT, +24) a contract,
[C_DISC, +24) a city disc for the next grey city, [C_FACTORY, +144) factory X drawn by
seat q (q * 36 + X), [C_TOP, +64) the letters (a mask over A-F) on the back of the lead
letters' top tile, [C_FACTORY_TOP, +36) factory X in view on top of its level's pile. What
an outcome is for (which table space, which display space) is the state's: the first
empty one. The lead letters' pile is face down with the letters on the
backs in view: its top's letters come into view first (C_TOP, in proportion to the tiles
that show them), then a draw takes one of the tiles with those letters.
"""
from libc.string cimport memset, memcpy, memcmp

from engine_types cimport *
from llp_types cimport *
from libc.stdint cimport int16_t, int32_t, uint32_t, uint64_t
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

include "engine.pxi"

# Numbers of the rulebook's text (not pictures), so not catalogue data.
cdef enum:
    ORDER_SECTIONS = 5      # "if you are standing on the rightmost section, any tiles are free"
    WAGE_PER = 2            # "For every 2 workforce you have to pay 1 mark"
    STICK_POINTS = 5        # a full composing stick
    SET_POINTS = 5          # a set of 3 different signboards
    SCORE_DIVISOR = 5       # resources and cash
    SIGNBOARD_FACTORY_POINTS = 2
    RED_BLUE_COST = 2       # signboards used for a travel / a technology
    FACTORY_DRAW = 3
    DEAL_NONE = -1

cdef int REMOVED_ORDERS[MAX_SEATS + 1]
REMOVED_ORDERS[:] = [0, 5, 5, 3, 1]    # "remove 5 of each ... 3 of each ... 1 of each"

# Deals (what a chance node fills).
cdef enum:
    DEAL_FACTORY = 0
    DEAL_TABLE = 1
    DEAL_START = 2
    DEAL_TILE = 3
    DEAL_TECH = 4
    DEAL_DISC = 5
    DEAL_ORDER = 6
    DEAL_CONTRACT = 7
    DEAL_TOP = 8            # the back of the lead letters' top tile (its letters) comes into view
    DEAL_FACTORY_TOP = 9    # a factory pile's top comes into view (the piles lie face up)

# ---------------------------------------------------------------------------------------
# Small helpers.
# ---------------------------------------------------------------------------------------
cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline bint has_bit(uint64_t m, int i) noexcept nogil:
    return (m >> i) & 1


cdef inline int tile_level(const Catalogue* cat, int code) noexcept nogil:
    """The level of a workshop tile code: a technology id, or N_TECHS + a factory id."""
    if code < N_TECHS:
        return cat.techs[code].level
    return cat.factories[code - N_TECHS].level


cdef inline int cell_row(int cell) noexcept nogil:
    return cell // GRID_SIDE


cdef inline int cell_col(int cell) noexcept nogil:
    return cell % GRID_SIDE


cdef inline bint cell_in(const GameState* s, const Catalogue* cat, int cell) noexcept nogil:
    return 0 <= cell < GRID_CELLS and cat.boards[s.num_players].shop[cell] >= 0


cdef inline int street_a(int e) noexcept nogil:
    return e // 2


cdef inline int street_b(int e) noexcept nogil:
    return e // 2 + (1 if e % 2 == 0 else GRID_SIDE)


cdef inline bint street_in(const GameState* s, const Catalogue* cat, int e) noexcept nogil:
    """A street between two shops of this player count's board."""
    cdef int a = street_a(e)
    if e % 2 == 0 and cell_col(a) == GRID_SIDE - 1:
        return False
    return cell_in(s, cat, a) and cell_in(s, cat, street_b(e))


cdef inline int street_between(int a, int b) noexcept nogil:
    if b == a + 1:
        return a * 2
    if b == a - 1:
        return b * 2
    if b == a + GRID_SIDE:
        return a * 2 + 1
    return b * 2 + 1


cdef inline int markers_left(const PlayerState* p) noexcept nogil:
    return N_MARKERS - popcount64(p.cities) - p.factories_paid


cdef inline int count_letters(const Catalogue* cat, int tile, int letter) noexcept nogil:
    return (cat.letters[tile].letters >> letter) & 1


cdef inline int top_letter(const PlayerState* p, int k) noexcept nogil:
    return p.stack[k][p.stack_n[k] - 1] if p.stack_n[k] > 0 else -1


cdef inline int display_count(const int16_t* d) noexcept nogil:
    cdef int i, n = 0
    for i in range(N_DISPLAY):
        n += d[i] >= 0
    return n


# ---------------------------------------------------------------------------------------
# Factories in a workshop (face up only: a face-down tile shows nothing).
# ---------------------------------------------------------------------------------------
cdef int ability_count(const PlayerState* p, const Catalogue* cat, int ability, int arg) noexcept nogil:
    """Face-up factories of the player with this ability (arg -1: any argument)."""
    cdef int x, code, n = 0
    cdef const Factory* f
    for x in range(N_SPACES):
        code = p.up[x]
        if code >= N_TECHS:
            f = &cat.factories[code - N_TECHS]
            if f.ability == ability and (arg < 0 or f.arg == arg):
                n += 1
    return n


cdef int tech_count(const PlayerState* p, const Catalogue* cat, int level) noexcept nogil:
    """Face-up technologies of the level (-1: all levels)."""
    cdef int x, code, n = 0
    for x in range(N_SPACES):
        code = p.up[x]
        if 0 <= code < N_TECHS and (level < 0 or cat.techs[code].level == level):
            n += 1
    return n


cdef int factory_count(const PlayerState* p) noexcept nogil:
    cdef int x, n = 0
    for x in range(N_SPACES):
        n += p.up[x] >= N_TECHS
    return n


cdef int assistants_on_board(const GameState* s, int seat) noexcept nogil:
    cdef int e, n = 0
    for e in range(N_STREETS):
        n += s.street_owner[e] == seat
    return n

# ---------------------------------------------------------------------------------------
# Goods: the supply is limited (20 of each resource), the bank is not.
# ---------------------------------------------------------------------------------------
cdef inline void gain_res(GameState* s, int seat, int r, int n) noexcept nogil:
    n = imin(n, s.supply[r])
    s.supply[r] -= n
    s.players[seat].res[r] += n


cdef inline void pay_res(GameState* s, int seat, int r, int n) noexcept nogil:
    s.supply[r] += n
    s.players[seat].res[r] -= n


cdef inline void gain_marks(GameState* s, int seat, int n) noexcept nogil:
    s.bank -= n
    s.players[seat].marks += n


cdef inline void pay_marks(GameState* s, int seat, int n) noexcept nogil:
    s.bank += n
    s.players[seat].marks -= n


cdef inline void gain_good(GameState* s, int seat, int g, int n) noexcept nogil:
    if g < N_RES:
        gain_res(s, seat, g, n)
    elif g == G_MARKS:
        gain_marks(s, seat, n)
    else:
        s.players[seat].points += n


cdef inline bint can_pay_goods(const PlayerState* p, const TradingTile* t, int d) noexcept nogil:
    """The player has what the trading tile's paying side asks (d = 1: its right side)."""
    cdef int r, x
    for r in range(N_GOODS):
        x = t.get[r] if d else t.give[r]
        if r < N_RES and p.res[r] < x:
            return False
        if (r == G_MARKS and p.marks < x) or (r == G_POINTS and p.points < x):
            return False
    return True


cdef void gain_capacity(GameState* s, const Catalogue* cat, int seat, int n) noexcept nogil:
    """Past the track's end, 1 mark for each further capacity."""
    cdef PlayerState* p = &s.players[seat]
    cdef int room = CAP_SPACES - 1 - p.capacity
    if n > room:
        gain_marks(s, seat, n - room)
        n = room
    p.capacity += n


cdef void lose_capacity(GameState* s, int seat, int n) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    p.capacity = imax(0, p.capacity - n)


cdef void remove_assistant(GameState* s, int seat, int e) noexcept nogil:
    if 0 <= e < N_STREETS and s.street_owner[e] == seat:
        s.players[seat].assistants |= 1 << s.street_kind[e]
        s.street_owner[e] = -1
        s.street_kind[e] = -1


cdef void lose_workforce(GameState* s, const Catalogue* cat, int seat, int n) noexcept nogil:
    """Workforce down (never below 1), capacity with it; the assistant a workforce level
    brought leaves the board when the workforce falls below that level."""
    cdef PlayerState* p = &s.players[seat]
    cdef int k
    while n > 0 and p.workforce > 1:
        p.workforce -= 1
        lose_capacity(s, seat, 1)
        n -= 1
        for k in range(2):
            if p.workforce < cat.assistant_at[k] and p.wf_street[k] >= 0:
                remove_assistant(s, seat, p.wf_street[k])
                p.wf_street[k] = -1

# ---------------------------------------------------------------------------------------
# Frames.
# ---------------------------------------------------------------------------------------
cdef inline Frame* top(GameState* s) noexcept nogil:
    return &s.frames[s.n_frames - 1]


cdef Frame* push(GameState* s, int kind, int n, int arg) noexcept nogil:
    """A new frame on top (the struct's limit: a frame past MAX_FRAMES is dropped, which a
    game of this catalogue never reaches; problems() would report it)."""
    cdef Frame* f
    if s.n_frames >= MAX_FRAMES:
        return &s.frames[MAX_FRAMES - 1]
    f = &s.frames[s.n_frames]
    s.n_frames += 1
    f.kind = kind
    f.kind2 = -1
    f.n = n
    f.arg = arg
    f.a = -1
    f.b = -1
    f.c = 0
    f.d = 0
    return f


cdef inline void pop(GameState* s) noexcept nogil:
    if s.n_frames > 0:
        s.n_frames -= 1


cdef void push_effects(GameState* s, const Effects* ef, int times) noexcept nogil:
    """The effects, to be carried out first to last (times times over)."""
    cdef int i, t
    cdef Frame* f
    for t in range(times):
        for i in range(ef.n - 1, -1, -1):
            f = push(s, F_EFFECT, ef.e[i].n, ef.e[i].arg)
            f.kind2 = ef.e[i].kind


cdef void gain_workforce(GameState* s, const Catalogue* cat, int seat, int n) noexcept nogil:
    """Workforce up, capacity with it; an assistant at levels 3 and 6 (while the one from
    that level is not on the board); past the track's end 1 point each. Each is "a
    workforce gain" (the track's end: "1 victory point for each further workforce gain"),
    so the factory's "Every time you gain a workforce, you also gain 1 mark" pays for
    each, at the track's end too."""
    cdef PlayerState* p = &s.players[seat]
    cdef int k
    cdef Frame* f
    while n > 0:
        n -= 1
        gain_marks(s, seat, ability_count(p, cat, FA_WORKFORCE_MARKS, -1))
        if p.workforce >= cat.workforce_max:
            p.points += 1
            continue
        p.workforce += 1
        gain_capacity(s, cat, seat, 1)
        for k in range(2):
            if p.workforce == cat.assistant_at[k] and p.wf_street[k] < 0:
                f = push(s, F_ASSISTANT, 1, 0)
                f.b = k

# ---------------------------------------------------------------------------------------
# Scoring (rulebook: Game end, Contracts).
# ---------------------------------------------------------------------------------------
cdef void derive_sign_masks(Catalogue* cat) noexcept nogil:
    """The catalogue's sign_orders and sign_discs, from its orders' and discs' signboards."""
    cdef int i, c
    for c in range(N_SIGNS):
        cat.sign_orders[c] = 0
        cat.sign_discs[c] = 0
    for i in range(N_ORDERS):
        if cat.orders[i].sign >= 0:
            cat.sign_orders[cat.orders[i].sign] |= (<uint64_t>1) << i
    for i in range(N_DISCS):
        if cat.discs[i].sign >= 0:
            cat.sign_discs[cat.discs[i].sign] |= (<uint32_t>1) << i


cdef void sign_counts(const Catalogue* cat, const PlayerState* p, int* out) noexcept nogil:
    """Signboards of completed orders and of city discs, used or not."""
    cdef int c
    for c in range(N_SIGNS):
        out[c] = popcount64(p.completed & cat.sign_orders[c]) + popcount64(p.discs & cat.sign_discs[c])


cdef int lead_letters_on_sticks(const Catalogue* cat, const PlayerState* p, int letter) noexcept nogil:
    cdef int x, n = 0
    for x in range(N_STICK):
        if p.stick[x] >= 0:
            n += count_letters(cat, p.stick[x], letter)
    return n


cdef int letters_shown(const Catalogue* cat, const PlayerState* p, int letter) noexcept nogil:
    """Lead letters of the letter on the composing sticks, paired city tiles included
    (paired tiles "count towards victory points for the letter")."""
    cdef int x, n = lead_letters_on_sticks(cat, p, letter)
    for x in range(N_STICK):
        if p.stick_disc[x] >= 0 and cat.discs[p.stick_disc[x]].letter == letter:
            n += 1
    return n


cdef int letters_with_city_tiles(const Catalogue* cat, const PlayerState* p, int letter) noexcept nogil:
    """A green letter technology's count: "the number of A/B/C/D/E/F lead letters on
    your composing sticks ... Including any city tiles collected from the map" (paired
    or not, each once)."""
    cdef int d, n = lead_letters_on_sticks(cat, p, letter)
    for d in range(N_DISCS):
        if has_bit(p.discs, d) and cat.discs[d].letter == letter:
            n += 1
    return n


cdef int full_lines(const PlayerState* p, int kind) noexcept nogil:
    """Full rows (0), columns (1) or diagonals (2) of the composing stick board."""
    cdef int i, j, n = 0
    cdef bint full
    if kind == 2:
        n += p.stick[0] >= 0 and p.stick[4] >= 0 and p.stick[8] >= 0
        n += p.stick[2] >= 0 and p.stick[4] >= 0 and p.stick[6] >= 0
        return n
    for i in range(STICK_SIDE):
        full = True
        for j in range(STICK_SIDE):
            if p.stick[i * 3 + j if kind == 0 else j * 3 + i] < 0:
                full = False
        n += full
    return n


cdef int contract_value(const GameState* s, const Catalogue* cat, int seat, int c) noexcept nogil:
    cdef const PlayerState* p = &s.players[seat]
    cdef const Contract* k = &cat.contracts[c]
    cdef int signs[N_SIGNS]
    cdef int x, n = 0
    if k.kind == K_MARKS:
        return p.marks // 5
    if k.kind == K_SIGNBOARDS:
        sign_counts(cat, p, signs)
        return signs[k.arg]
    if k.kind == K_TECH_LEVEL:
        return tech_count(p, cat, k.arg)
    if k.kind == K_TECHS:
        return tech_count(p, cat, -1) // 2
    if k.kind == K_DISCS:
        return popcount64(p.discs) // 2
    if k.kind == K_ORDERS:
        return popcount64(p.completed) // 2
    if k.kind == K_WORKFORCE:
        return p.workforce // 2
    if k.kind == K_FACTORIES:
        return factory_count(p)
    if k.kind == K_LETTER:
        return letters_shown(cat, p, k.arg)
    if k.kind == K_ASSISTANTS:
        return assistants_on_board(s, seat)
    if k.kind == K_CONTRACTS:
        for x in range(N_SLOTS):
            n += p.slot_contract[x] >= 0
        return n
    if k.kind == K_SLOTS:
        return popcount64(p.slots_open)
    if k.kind == K_COLUMNS:
        return 2 * full_lines(p, 1)
    return 3 * full_lines(p, 2)


cdef void score_parts(const GameState* s, const Catalogue* cat, int seat, int* parts) noexcept nogil:
    """The final score's lines: [0] the scoring track, [1] signboard sets, [2] orders in
    production, [3] orders not started (negative), [4] full composing sticks, [5] the
    director, [6] contracts, [7] resources and cash."""
    cdef const PlayerState* p = &s.players[seat]
    cdef int signs[N_SIGNS]
    cdef int i, c, v
    for i in range(8):
        parts[i] = 0
    parts[0] = p.points
    sign_counts(cat, p, signs)
    parts[1] = SET_POINTS * imin(signs[0], imin(signs[1], signs[2]))
    for i in range(N_STAGES):
        parts[2] += p.stage[i] >= 0
    for i in range(N_WAITING):
        if p.waiting[i] >= 0:
            parts[3] -= cat.orders[p.waiting[i]].points
    parts[4] = STICK_POINTS * full_lines(p, 0)
    parts[5] = cat.director_points[popcount64(p.cities)]
    for i in range(N_SLOTS):
        c = p.slot_contract[i]
        if c >= 0:
            v = contract_value(s, cat, seat, c)
            parts[6] += 2 * v if p.contract_letter[c] >= 0 else v
    parts[7] = (p.res[0] + p.res[1] + p.res[2] + p.marks) // SCORE_DIVISOR


cdef int final_score(const GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    cdef int parts[8]
    cdef int i, n = 0
    score_parts(s, cat, seat, parts)
    for i in range(8):
        n += parts[i]
    return n


cdef void final_scores(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    cdef int seat
    for seat in range(s.num_players):
        out[seat] = final_score(s, cat, seat)


cdef int green_points(const GameState* s, const Catalogue* cat, int seat, int kind, int arg) noexcept nogil:
    cdef const PlayerState* p = &s.players[seat]
    if kind == E_PTS_CAPACITY:
        return p.capacity // 2
    if kind == E_PTS_WORKFORCE:
        return p.workforce
    if kind == E_PTS_ASSISTANTS:
        return assistants_on_board(s, seat)
    if kind == E_PTS_TECHS:
        return tech_count(p, cat, 0) + tech_count(p, cat, 1) + tech_count(p, cat, 2)
    return letters_with_city_tiles(cat, p, arg)

# ---------------------------------------------------------------------------------------
# The order track and player order.
# ---------------------------------------------------------------------------------------
cdef int free_track_slot(const GameState* s, int section, int except_seat) noexcept nogil:
    """The rightmost free slot of a section (slot 0 is the rightmost)."""
    cdef int k, q
    cdef bint used
    for k in range(MAX_SEATS):
        used = False
        for q in range(s.num_players):
            if q != except_seat and s.players[q].section == section and s.players[q].track_slot == k:
                used = True
        if not used:
            return k
    return MAX_SEATS - 1


cdef void track_step(GameState* s, int seat) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    if p.section < ORDER_SECTIONS:
        p.track_slot = free_track_slot(s, p.section + 1, seat)
        p.section += 1


cdef void purchase_order(const GameState* s, int* out) noexcept nogil:
    """Seats in the order of the order and contract phase: the leftmost agent first
    (lower sections first; in a section, the slot further left first)."""
    cdef int i, j, t, n = s.num_players
    cdef int key[MAX_SEATS]
    for i in range(n):
        out[i] = i
        key[i] = s.players[i].section * 16 - s.players[i].track_slot
    for i in range(1, n):
        t = out[i]
        j = i - 1
        while j >= 0 and key[out[j]] > key[t]:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = t


cdef void new_player_order(GameState* s) noexcept nogil:
    """Preparation: the players who moved on the order track first (the one furthest on
    first), then those who stayed, their first player moving to the last place; the
    agents back to the player order section."""
    cdef int rank[MAX_SEATS]
    cdef int moved[MAX_SEATS]
    cdef int stayed[MAX_SEATS]
    cdef int nm = 0, ns = 0, i, n = s.num_players
    purchase_order(s, rank)
    for i in range(n - 1, -1, -1):
        if s.players[rank[i]].section > 0:
            moved[nm] = rank[i]
            nm += 1
        else:
            stayed[ns] = rank[i]
            ns += 1
    for i in range(nm):
        s.order[i] = moved[i]
    for i in range(1, ns):
        s.order[nm + i - 1] = stayed[i]
    if ns > 0:
        s.order[n - 1] = stayed[0]
    for i in range(n):
        s.players[s.order[i]].section = 0
        s.players[s.order[i]].track_slot = i


cdef inline int order_position(const GameState* s, int seat) noexcept nogil:
    cdef int i
    for i in range(s.num_players):
        if s.order[i] == seat:
            return i
    return 0


cdef inline int price_of(const GameState* s, const Catalogue* cat, int seat, int space, bint contract) noexcept nogil:
    """An order's or contract's price: the space's, 1 less for each section moved, less
    the factories' discounts."""
    cdef const PlayerState* p = &s.players[seat]
    cdef int v = (cat.contract_price[space] if contract else cat.order_price[space]) - p.section
    v -= ability_count(p, cat, FA_CONTRACT_DISCOUNT if contract else FA_ORDER_DISCOUNT, -1)
    return imax(0, v)

# ---------------------------------------------------------------------------------------
# The city board: the Shop action's paths (rulebook: A. Shop, The effects of the assistants).
# ---------------------------------------------------------------------------------------
cdef inline int neighbour(const GameState* s, const Catalogue* cat, int cell, int d) noexcept nogil:
    cdef int r = cell_row(cell), c = cell_col(cell)
    if d == 0:
        c += 1
    elif d == 1:
        r += 1
    elif d == 2:
        c -= 1
    else:
        r -= 1
    if r < 0 or c < 0 or r >= GRID_SIDE or c >= GRID_SIDE:
        return -1
    return r * GRID_SIDE + c if cell_in(s, cat, r * GRID_SIDE + c) else -1


cdef void walk(const GameState* s, const Catalogue* cat, int seat, int cell, int visited, int steps,
               int free, int need, int limit, int* best) noexcept nogil:
    """Every path from cell that never visits a shop twice: with `steps` streets crossed,
    `free` of them past the player's own assistants (which may be counted or not), the
    count of movement points can be anything in [steps - free, steps]; the capacity paid
    is the count's distance from `need`. best[cell] keeps the least."""
    cdef int d, nb, own, lo, hi, cost
    for d in range(4):
        nb = neighbour(s, cat, cell, d)
        if nb < 0 or (visited >> nb) & 1:
            continue
        own = s.street_owner[street_between(cell, nb)] == seat
        lo = steps + 1 - free - own
        if lo > need + limit:
            continue        # lo never falls along a path
        hi = steps + 1
        cost = 0 if lo <= need <= hi else (lo - need if lo > need else need - hi)
        if cost < best[nb]:
            best[nb] = cost
        walk(s, cat, seat, nb, visited | (1 << nb), steps + 1, free + own, need, limit, best)


# The last walk from each cell, per thread: the heuristic applies every Shop move of a
# position (and do_move walks again for its cost), so the same walk comes back dozens of
# times in a row. Its key is everything walk reads.
cdef extern from *:
    """
    struct LlpWalkMemo { int valid; uint32_t cells; uint32_t own; int need; int limit; int best[16]; };
    static thread_local LlpWalkMemo llp_walk_memo[16];
    static inline LlpWalkMemo* llp_walk_memo_at(int cell) { return &llp_walk_memo[cell]; }
    """
    ctypedef struct LlpWalkMemo:
        int valid
        uint32_t cells              # the board's cells in play (bit mask)
        uint32_t own                # the streets of the walker's assistants (bit mask)
        int need
        int limit
        int best[GRID_CELLS]
    LlpWalkMemo* llp_walk_memo_at(int cell) nogil


cdef void move_costs(const GameState* s, const Catalogue* cat, int seat, int t, int* best) noexcept nogil:
    """The least capacity that moving tradesman t to each cell costs (99: out of reach)."""
    cdef const PlayerState* p = &s.players[seat]
    cdef int i, start = p.pos[t]
    cdef int need = cat.order_steps[order_position(s, seat)]
    cdef uint32_t cells = 0, own = 0
    cdef LlpWalkMemo* memo
    for i in range(GRID_CELLS):
        if cell_in(s, cat, i):
            cells |= (<uint32_t>1) << i
    for i in range(N_STREETS):
        if s.street_owner[i] == seat:
            own |= (<uint32_t>1) << i
    memo = llp_walk_memo_at(start) if 0 <= start < GRID_CELLS else NULL
    if memo != NULL and memo.valid and memo.cells == cells and memo.own == own \
            and memo.need == need and memo.limit == p.capacity:
        memcpy(best, memo.best, GRID_CELLS * sizeof(int))
        return
    for i in range(GRID_CELLS):
        best[i] = 99
    walk(s, cat, seat, start, 1 << start, 0, 0, need, p.capacity, best)
    if memo != NULL:
        memo.valid, memo.cells, memo.own, memo.need, memo.limit = 1, cells, own, need, p.capacity
        memcpy(memo.best, best, GRID_CELLS * sizeof(int))


cdef inline bint movable(const PlayerState* p, int t) noexcept nogil:
    return p.upright[t] and p.room[t] == 1


cdef void meet(GameState* s, int seat, int t) noexcept nogil:
    """Tradesman t of seat has entered its room: each other player with a tradesman there
    already gets 1 mark."""
    cdef int q, u
    cdef PlayerState* p = &s.players[seat]
    for q in range(s.num_players):
        if q == seat:
            continue
        for u in range(N_TRADESMEN):
            if s.players[q].pos[u] == p.pos[t] and s.players[q].room[u] == p.room[t] \
                    and s.players[q].entered[u] < p.entered[t]:
                gain_marks(s, q, 1)


cdef void assistant_rewards(GameState* s, const Catalogue* cat, int seat, int cell) noexcept nogil:
    """Another player's assistants beside the shop where seat's move ends reward their owners."""
    cdef int d, nb, e, q, k
    for d in range(4):
        nb = neighbour(s, cat, cell, d)
        if nb < 0:
            continue
        e = street_between(cell, nb)
        q = s.street_owner[e]
        if q < 0 or q == seat:
            continue
        k = s.street_kind[e]
        if k < N_RES:
            gain_res(s, q, k, 1)
        elif k == N_RES:
            gain_marks(s, q, 1)
        else:
            gain_capacity(s, cat, q, 1)


cdef inline const Effects* room_action(const GameState* s, const Catalogue* cat, int cell, int room) noexcept nogil:
    return &cat.shops[cat.boards[s.num_players].shop[cell]].room[room]

# ---------------------------------------------------------------------------------------
# The workshop: building rules for technologies and factories.
# ---------------------------------------------------------------------------------------
cdef bint path_to(const PlayerState* p, const Catalogue* cat, int x) noexcept nogil:
    """A continuous path from the workshop's left side: the first column, or a linked space
    of the column to its left with a tile on it."""
    cdef int y
    if cat.spaces[x].column == 0:
        return True
    for y in range(N_SPACES):
        if (cat.spaces[x].left >> y) & 1 and (p.up[y] >= 0 or p.down[y] >= 0):
            return True
    return False


cdef inline bint can_up(const PlayerState* p, const Catalogue* cat, int level, int x) noexcept nogil:
    return cat.spaces[x].level == level and p.up[x] < 0 and path_to(p, cat, x)


cdef inline bint can_down(const PlayerState* p, const Catalogue* cat, int level, int x) noexcept nogil:
    return cat.spaces[x].level == level + 1 and p.up[x] < 0 and p.down[x] < 0


cdef bint can_replace(const PlayerState* p, const Catalogue* cat, int level, int x) noexcept nogil:
    cdef int y
    if p.up[x] < 0 or cat.spaces[x].level != level:
        return False
    for y in range(N_SPACES):
        if y != x and can_down(p, cat, tile_level(cat, p.up[x]), y):
            return True
    return False


cdef bint can_build(const PlayerState* p, const Catalogue* cat, int level) noexcept nogil:
    cdef int x
    for x in range(N_SPACES):
        if can_up(p, cat, level, x) or can_down(p, cat, level, x) or can_replace(p, cat, level, x):
            return True
    return False

# ---------------------------------------------------------------------------------------
# Production (rulebook: Production phase).
# ---------------------------------------------------------------------------------------
cdef bint can_advance(const PlayerState* p, const Catalogue* cat, int pos, bint pay) noexcept nogil:
    """Position 0-1 a waiting order into stage 1 (no resources); 2-5 the order in stage
    1-4 on (its stage's resources), never onto an occupied stage."""
    cdef int k, r, o
    if pos < N_WAITING:
        return p.waiting[pos] >= 0 and p.stage[0] < 0
    k = pos - N_WAITING
    o = p.stage[k]
    if o < 0 or (k < N_STAGES - 1 and p.stage[k + 1] >= 0):
        return False
    if pay:
        for r in range(N_RES):
            if p.res[r] < cat.orders[o].cost[k][r]:
                return False
    return True


cdef void do_advance(GameState* s, const Catalogue* cat, int seat, int pos, bint pay) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    cdef int k, r, o
    if pos < N_WAITING:
        p.stage[0] = p.waiting[pos]
        p.waiting[pos] = -1
        return
    k = pos - N_WAITING
    o = p.stage[k]
    if pay:
        for r in range(N_RES):
            pay_res(s, seat, r, cat.orders[o].cost[k][r])
    p.stage[k] = -1
    if k < N_STAGES - 1:
        p.stage[k + 1] = o
    else:
        p.points += cat.orders[o].points
        p.completed |= bit(o)
        if s.phase == PH_ACTIONS:
            p.signs_fresh |= bit(o)     # "Starting from your next Action phase, you may use up any signboards"
        if cat.orders[o].sign >= 0:
            p.points += SIGNBOARD_FACTORY_POINTS * ability_count(p, cat, FA_SIGNBOARD_POINTS, cat.orders[o].sign)
    push(s, F_STAGE, 1, k)


cdef void stage_abilities(GameState* s, const Catalogue* cat, int seat, int k) noexcept nogil:
    """An order left stage k + 1: the factories of that stage."""
    cdef PlayerState* p = &s.players[seat]
    cdef int i
    gain_marks(s, seat, ability_count(p, cat, FA_STAGE_MARKS, k))
    gain_capacity(s, cat, seat, ability_count(p, cat, FA_STAGE_CAPACITY, k))
    p.points += ability_count(p, cat, FA_STAGE_POINTS, k)
    for i in range(ability_count(p, cat, FA_STAGE_TRADE, k)):
        push(s, F_TRADE, 1, 1)


cdef void pay_wages(GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    """1 mark per 2 workforce; 1 workforce (and capacity) less per mark not paid."""
    cdef PlayerState* p = &s.players[seat]
    cdef int wage = p.workforce // WAGE_PER
    cdef int paid = imin(wage, p.marks)
    pay_marks(s, seat, paid)
    lose_workforce(s, cat, seat, wage - paid)

# ---------------------------------------------------------------------------------------
# Piles and chance (rulebook: Setup; refills).
# ---------------------------------------------------------------------------------------
cdef inline uint64_t level_techs(int level) noexcept nogil:
    return ((<uint64_t>1 << PER_LEVEL_TECHS) - 1) << (level * PER_LEVEL_TECHS)


cdef inline uint64_t level_factories(int level) noexcept nogil:
    return ((<uint64_t>1 << PER_LEVEL_FACTORIES) - 1) << (level * PER_LEVEL_FACTORIES)


cdef uint64_t level_orders(const Catalogue* cat, int level) noexcept nogil:
    cdef int i
    cdef uint64_t m = 0
    for i in range(N_ORDERS):
        if cat.orders[i].level == level:
            m |= bit(i)
    return m


cdef int order_pile_level(const GameState* s) noexcept nogil:
    """The pile orders are drawn from: the lowest level with orders left."""
    cdef int lv
    for lv in range(N_LEVELS):
        if s.orders_left[lv] > 0:
            return lv
    return -1


cdef inline int first_empty(const int16_t* a, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i] < 0:
            return i
    return -1


cdef inline int factories_available(const GameState* s, int level) noexcept nogil:
    return (popcount64(s.factory_pile & level_factories(level)) + s.factory_bottom_n[level]
            + (s.factory_top[level] >= 0))


cdef inline bint drawing_from(const GameState* s, int level) noexcept nogil:
    """Whether a draw of factories from the pile of `level` is under way."""
    return (s.n_frames > 0 and s.frames[s.n_frames - 1].kind == F_FACTORY_DRAW
            and s.frames[s.n_frames - 1].a == level)


cdef inline bint factory_top_due(const GameState* s, int level) noexcept nogil:
    """Whether the pile of `level` lies face up with no top in view: at the setup, or once
    a draw took the top (the next comes into view after the three are drawn, not between)."""
    return s.factory_tops and s.factory_top[level] < 0 and not drawing_from(s, level)


cdef inline int factory_top_level(const GameState* s) noexcept nogil:
    """The first level whose pile's top comes into view now at a chance node (from the
    unseen part of the pile), -1 if none."""
    cdef int lv
    for lv in range(N_LEVELS):
        if factory_top_due(s, lv) and s.factory_pile & level_factories(lv) != 0:
            return lv
    return -1


cdef int take_put_back(GameState* s, int lv, int16_t* seen) noexcept nogil:
    """Take the first factory put back under the pile of `lv` (the next to come out);
    `seen` gets the seats that saw it put back."""
    cdef int i, x = s.factory_bottom[lv][0]
    seen[0] = s.factory_bottom_seen[lv][0]
    for i in range(1, s.factory_bottom_n[lv]):
        s.factory_bottom[lv][i - 1] = s.factory_bottom[lv][i]
        s.factory_bottom_seen[lv][i - 1] = s.factory_bottom_seen[lv][i]
    s.factory_bottom_n[lv] -= 1
    s.factory_bottom[lv][s.factory_bottom_n[lv]] = -1
    s.factory_bottom_seen[lv][s.factory_bottom_n[lv]] = 0
    return x


cdef void draw_fixed_factories(GameState* s, int lv) noexcept nogil:
    """The factories a draw from the pile of `lv` takes without chance: the top in view
    first, then, once the pile's unseen part is out, those put back, in order."""
    cdef int k = first_empty(s.drawn, FACTORY_DRAW)
    cdef int16_t seen
    while k >= 0:
        if s.factory_top[lv] >= 0:
            # The top in view is the first of the three, and everyone saw which.
            s.drawn[k] = s.factory_top[lv]
            s.drawn_seen[k] = (1 << s.num_players) - 1
            s.factory_top[lv] = -1
        elif s.factory_pile & level_factories(lv) == 0 and s.factory_bottom_n[lv] > 0:
            s.drawn[k] = take_put_back(s, lv, &seen)
            s.drawn_seen[k] = seen | (1 << s.actor)
            if not s.factory_tops:
                # The face-down reading takes one factory put back per draw, as it
                # always has: the lines recorded under it (the suites) replay so.
                return
        else:
            return
        k = first_empty(s.drawn, FACTORY_DRAW)


cdef void show_put_back_tops(GameState* s) noexcept nogil:
    """A face-up pile with no top in view whose unseen part is out: the first factory put
    back comes to the top, in everyone's view (no chance: its place was known)."""
    cdef int lv
    cdef int16_t seen
    for lv in range(N_LEVELS):
        if factory_top_due(s, lv) and s.factory_pile & level_factories(lv) == 0 \
                and s.factory_bottom_n[lv] > 0:
            s.factory_top[lv] = take_put_back(s, lv, &seen)


cdef void fill_fixed(GameState* s, const Catalogue* cat) noexcept nogil:
    """What fills without chance: reshuffles of spent piles (a reshuffled pile is drawn
    at chance nodes like any), tiles from the bottom queues once the rest of their pile
    is gone (a factory pile's top in view is drawn first, and shown from under the pile
    when nothing else is left), and the end of a display refill."""
    cdef int lv, i, k
    if first_empty(s.table, N_TABLE) >= 0 and s.letter_pile == 0 and s.letter_discard != 0:
        s.letter_pile = s.letter_discard
        s.letter_discard = 0
        s.letter_top = -1
    if first_empty(s.face_tiles, N_FACE_TILES) >= 0 and s.tile_pile == 0 and s.tile_discard != 0:
        s.tile_pile = s.tile_discard
        s.tile_discard = 0
    for lv in range(N_LEVELS):
        while s.tech_pile & level_techs(lv) == 0 and s.tech_bottom_n[lv] > 0:
            i = first_empty(s.tech_face[lv], TECH_ROWS)
            if i < 0:
                break
            s.tech_face[lv][i] = s.tech_bottom[lv][0]
            for k in range(1, s.tech_bottom_n[lv]):
                s.tech_bottom[lv][k - 1] = s.tech_bottom[lv][k]
            s.tech_bottom_n[lv] -= 1
            s.tech_bottom[lv][s.tech_bottom_n[lv]] = -1
    if s.refill_display:
        if first_empty(s.contract_display, N_DISPLAY) >= 0 and s.contract_pile == 0 and s.contract_discard != 0:
            s.contract_pile = s.contract_discard
            s.contract_discard = 0
        if (first_empty(s.order_display, N_DISPLAY) < 0 or order_pile_level(s) < 0) and \
                (first_empty(s.contract_display, N_DISPLAY) < 0 or s.contract_pile == 0):
            s.refill_display = 0
    if s.n_frames > 0 and top(s).kind == F_FACTORY_DRAW:
        draw_fixed_factories(s, top(s).a)
    if s.factory_tops:
        show_put_back_tops(s)


cdef int deal_due(const GameState* s, const Catalogue* cat) noexcept nogil:
    """The deal a chance node makes now, DEAL_NONE if none."""
    cdef int lv, k
    cdef const Frame* f
    if s.phase == PH_TERMINAL:
        return DEAL_NONE
    if s.n_frames > 0 and s.frames[s.n_frames - 1].kind == F_FACTORY_DRAW:
        f = &s.frames[s.n_frames - 1]
        k = first_empty(s.drawn, FACTORY_DRAW)
        if k >= 0 and s.factory_pile & level_factories(f.a) != 0:
            return DEAL_FACTORY
    if s.factory_tops and factory_top_level(s) >= 0:
        return DEAL_FACTORY_TOP
    if s.letter_pile != 0 and s.letter_top < 0:
        return DEAL_TOP
    if first_empty(s.table, N_TABLE) >= 0 and s.letter_pile != 0:
        return DEAL_TABLE
    if s.start_letters_due > 0 and s.letter_pile != 0:
        return DEAL_START
    if first_empty(s.face_tiles, N_FACE_TILES) >= 0 and s.tile_pile != 0:
        return DEAL_TILE
    for lv in range(N_LEVELS):
        if first_empty(s.tech_face[lv], TECH_ROWS) >= 0 and s.tech_pile & level_techs(lv) != 0:
            return DEAL_TECH
    if s.discs_due > 0 and s.disc_pile != 0:
        return DEAL_DISC
    if s.refill_display:
        if first_empty(s.order_display, N_DISPLAY) >= 0 and order_pile_level(s) >= 0:
            return DEAL_ORDER
        if first_empty(s.contract_display, N_DISPLAY) >= 0 and s.contract_pile != 0:
            return DEAL_CONTRACT
    return DEAL_NONE


cdef int mask_outcomes(uint64_t m, int base, int* out, double* prob) noexcept nogil:
    cdef int n = popcount64(m), i = 0
    cdef double p = 1.0 / n if n > 0 else 0.0
    while m:
        out[i] = base + ctz64(m)
        prob[i] = p
        m &= m - 1
        i += 1
    return n


cdef int deal_mask(const GameState* s, const Catalogue* cat, int deal, uint64_t* m) noexcept nogil:
    """The pile a deal draws from (uniformly) and the base of its outcomes."""
    cdef int lv
    if deal == DEAL_FACTORY:
        m[0] = s.factory_pile & level_factories(s.frames[s.n_frames - 1].a)
        return C_FACTORY + s.actor * N_FACTORIES
    if deal == DEAL_FACTORY_TOP:
        m[0] = s.factory_pile & level_factories(factory_top_level(s))
        return C_FACTORY_TOP
    if deal == DEAL_TABLE or deal == DEAL_START:
        m[0] = top_tiles(s, cat)
        return C_LETTER
    if deal == DEAL_TILE:
        m[0] = s.tile_pile
        return C_TILE
    if deal == DEAL_TECH:
        for lv in range(N_LEVELS):
            if first_empty(s.tech_face[lv], TECH_ROWS) >= 0 and s.tech_pile & level_techs(lv) != 0:
                m[0] = s.tech_pile & level_techs(lv)
                return C_TECH
    if deal == DEAL_DISC:
        m[0] = s.disc_pile
        return C_DISC
    if deal == DEAL_ORDER:
        m[0] = s.order_pile & level_orders(cat, order_pile_level(s))
        return C_ORDER
    m[0] = s.contract_pile
    return C_CONTRACT


cdef uint64_t top_tiles(const GameState* s, const Catalogue* cat) noexcept nogil:
    """The tiles of the lead letters' pile whose back shows the top's letters."""
    cdef uint64_t m = s.letter_pile, out = 0
    cdef int x
    while m:
        x = ctz64(m)
        if cat.letters[x].letters == s.letter_top:
            out |= bit(x)
        m &= m - 1
    return out


cdef int top_outcomes(const GameState* s, const Catalogue* cat, int* out, double* prob) noexcept nogil:
    """The letters the pile's top may show: each set of letters in proportion to the tiles
    of the pile that carry it."""
    cdef int count[1 << N_LETTERS]
    cdef int x, n = 0, total = popcount64(s.letter_pile)
    cdef uint64_t m = s.letter_pile
    memset(count, 0, sizeof(count))
    while m:
        count[cat.letters[ctz64(m)].letters] += 1
        m &= m - 1
    for x in range(1 << N_LETTERS):
        if count[x] > 0:
            out[n] = C_TOP + x
            prob[n] = count[x] / <double>total
            n += 1
    return n


cdef int chance_outcomes(const GameState* s, const Catalogue* cat, int* out, double* prob) noexcept nogil:
    cdef uint64_t m = 0
    cdef int base
    if s.deal == DEAL_NONE:
        return 0
    if s.deal == DEAL_TOP:
        return top_outcomes(s, cat, out, prob)
    base = deal_mask(s, cat, s.deal, &m)
    return mask_outcomes(m, base, out, prob)


cdef int sample_chance(const GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    cdef uint64_t m = 0
    cdef int base
    if s.deal == DEAL_NONE:
        return -1
    if s.deal == DEAL_TOP:      # the back of a tile drawn uniformly from the pile
        return C_TOP + cat.letters[nth_bit(s.letter_pile, rng_below(rng, popcount64(s.letter_pile)))].letters
    base = deal_mask(s, cat, s.deal, &m)
    return base + nth_bit(m, rng_below(rng, popcount64(m)))


cdef void next_grey_city(const GameState* s, const Catalogue* cat, int* city) noexcept nogil:
    cdef int c
    city[0] = -1
    for c in range(cat.n_cities):
        if cat.city_kind[c] == CITY_GREY and s.city_disc[c] < 0:
            city[0] = c
            return


cdef void apply_chance(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int deal = s.deal
    cdef int x, i, lv, seat, c, k
    cdef PlayerState* p
    if deal == DEAL_TOP:
        s.letter_top = a - C_TOP
    elif deal == DEAL_FACTORY:
        x = (a - C_FACTORY) % N_FACTORIES
        s.factory_pile &= ~bit(x)
        k = first_empty(s.drawn, FACTORY_DRAW)
        s.drawn[k] = x
        s.drawn_seen[k] = 1 << s.actor
    elif deal == DEAL_FACTORY_TOP:
        x = a - C_FACTORY_TOP
        s.factory_pile &= ~bit(x)
        s.factory_top[cat.factories[x].level] = x
    elif deal == DEAL_TABLE:
        x = a - C_LETTER
        s.letter_pile &= ~bit(x)
        s.letter_top = -1
        s.table[first_empty(s.table, N_TABLE)] = x
    elif deal == DEAL_START:
        x = a - C_LETTER
        s.letter_pile &= ~bit(x)
        s.letter_top = -1
        seat = s.order[s.num_players - s.start_letters_due]
        s.start_letters_due -= 1
        p = &s.players[seat]
        p.stack[0][0] = x
        p.stack_n[0] = 1
        for i in range(N_RES):
            gain_res(s, seat, i, cat.letters[x].res[i])
    elif deal == DEAL_TILE:
        x = a - C_TILE
        s.tile_pile &= ~bit(x)
        s.face_tiles[first_empty(s.face_tiles, N_FACE_TILES)] = x
    elif deal == DEAL_TECH:
        x = a - C_TECH
        lv = cat.techs[x].level
        s.tech_pile &= ~bit(x)
        s.tech_face[lv][first_empty(s.tech_face[lv], TECH_ROWS)] = x
    elif deal == DEAL_DISC:
        x = a - C_DISC
        s.disc_pile &= ~bit(x)
        next_grey_city(s, cat, &c)
        s.city_disc[c] = x
        s.discs_due -= 1
    elif deal == DEAL_ORDER:
        x = a - C_ORDER
        s.order_pile &= ~bit(x)
        s.orders_left[cat.orders[x].level] -= 1
        s.order_display[first_empty(s.order_display, N_DISPLAY)] = x
    else:
        x = a - C_CONTRACT
        s.contract_pile &= ~bit(x)
        s.contract_display[first_empty(s.contract_display, N_DISPLAY)] = x


cdef void compact(int16_t* d) noexcept nogil:
    """Push what is left to the cheapest spaces."""
    cdef int i, j = 0
    for i in range(N_DISPLAY):
        if d[i] >= 0:
            d[j] = d[i]
            j += 1
    for i in range(j, N_DISPLAY):
        d[i] = -1

# ---------------------------------------------------------------------------------------
# Effects (rulebook: Shop actions, Iconography, Optional actions).
# ---------------------------------------------------------------------------------------
cdef void start_travel(GameState* s, const Catalogue* cat, int steps, bint real, bint free) noexcept nogil:
    """A Travel action (real) or steps on the map and/or the order track (not a travel)."""
    cdef PlayerState* p = &s.players[s.actor]
    cdef Frame* f = push(s, F_TRAVEL, ability_count(p, cat, FA_TRAVEL_DISCOUNT, -1) if real else 0, free)
    f.a = steps
    f.b = 0
    f.c = 0
    f.d = real


cdef void gain_disc(GameState* s, const Catalogue* cat, int seat, int city) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    cdef int d = s.city_disc[city], k
    if d < 0:
        return
    s.city_disc[city] = -1
    p.discs |= 1 << d
    k = ability_count(p, cat, FA_DISC_RESOURCE, -1)
    if k > 0:
        push(s, F_RESOURCE, k, 0)


cdef void start_effect(GameState* s, const Catalogue* cat, int kind, int n, int arg) noexcept nogil:
    """Carry out an effect that has come up: at once, or as a frame waiting for choices."""
    cdef int seat = s.actor, i
    cdef PlayerState* p = &s.players[seat]
    cdef Frame* f
    if kind <= E_INK:
        gain_res(s, seat, kind, n)
    elif kind == E_MARKS:
        gain_marks(s, seat, n)
    elif kind == E_POINTS:
        p.points += n
    elif kind == E_RESOURCE:
        push(s, F_RESOURCE, n, 0)
    elif kind == E_CAPACITY:
        gain_capacity(s, cat, seat, n)
    elif kind == E_CAPACITY_REWARD:
        for i in range(n):
            if p.capacity < CAP_SPACES - 1:
                p.capacity += 1
                push_effects(s, &cat.capacity_reward[p.capacity], 1)
            else:
                gain_marks(s, seat, 1)
    elif kind == E_WORKFORCE:
        gain_workforce(s, cat, seat, n)
    elif kind == E_TRADE:
        f = push(s, F_TRADE, n, 0)
        f.a = 0
    elif kind == E_TYPESETTING:
        push(s, F_TYPESET, n, 0)
    elif kind == E_TYPESET_ANY:
        push(s, F_TYPESET, n, 1)
    elif kind == E_TRAVEL:
        for i in range(n):
            start_travel(s, cat, p.workforce, True, arg != 0)
    elif kind == E_TECHNOLOGY:
        for i in range(n):
            f = push(s, F_TECHNOLOGY, 1, arg)
            f.a = 0
    elif kind == E_TECH_LEVEL:
        for i in range(n):
            f = push(s, F_TECHNOLOGY, 1, FREE_RESOURCES | FREE_MONEY)
            f.a = 0
            f.b = arg
    elif kind == E_FACTORY:
        for i in range(n):
            push(s, F_FACTORY, 1, 1)
    elif kind == E_ASSISTANT:
        push(s, F_ASSISTANT, n, 0)
    elif kind == E_LETTER_RESOURCES:
        push(s, F_LETTER_RES, n, 0)
    elif kind == E_TAKE_LETTER:
        push(s, F_TABLE, n, 1 if arg else 0)
    elif kind == E_DISCARD_LETTER:
        push(s, F_TABLE, n, 2)
    elif kind == E_ADVANCE:
        push(s, F_ADVANCE, n, arg)
    elif kind == E_STEPS:
        start_travel(s, cat, n, False, False)
    elif kind == E_BUY_ORDER or kind == E_BUY_CONTRACT:
        f = push(s, F_BUY, n, 0 if kind == E_BUY_ORDER else 1)
        f.b = arg
    elif kind == E_SIGNBOARD:
        push(s, F_SIGNBOARD, n, 0)
    elif kind == E_CITY_DISC:
        push(s, F_CITY_DISC, n, 0)
    elif kind == E_COPY:
        push(s, F_COPY, n, arg)
    elif kind == E_SLIDE:
        push(s, F_SLIDE, 1, n)
    elif kind == E_PAIRING:
        p.pairing = 1
    else:
        p.points += green_points(s, cat, seat, kind, arg)


cdef void do_signboard(GameState* s, const Catalogue* cat, int c) noexcept nogil:
    """White: 1 workforce; red: a travel without money for the map; blue: a technology
    without paying."""
    cdef Frame* f
    if c == 0:
        gain_workforce(s, cat, s.actor, 1)
    elif c == 1:
        start_travel(s, cat, s.players[s.actor].workforce, True, True)
    else:
        f = push(s, F_TECHNOLOGY, 1, FREE_RESOURCES | FREE_MONEY)
        f.a = 0


cdef inline int unused_signs(const Catalogue* cat, const PlayerState* p, int c) noexcept nogil:
    """Signboards of colour c that can be used: of orders completed before this Action
    phase and of city discs, not turned face down."""
    return (popcount64(p.completed & ~p.signs_fresh & ~p.signs_used & cat.sign_orders[c])
            + popcount64(p.discs & ~p.discs_used & cat.sign_discs[c]))


cdef int unused_sign_order(const Catalogue* cat, const PlayerState* p, int c) noexcept nogil:
    """A completed order whose signboard of colour c can be used, -1."""
    cdef int i
    for i in range(N_ORDERS):
        if has_bit(p.completed & ~p.signs_fresh, i) and not has_bit(p.signs_used, i) and cat.orders[i].sign == c:
            return i
    return -1


cdef inline bint disc_sign_unused(const Catalogue* cat, const PlayerState* p, int d, int c) noexcept nogil:
    return (p.discs >> d) & 1 and not (p.discs_used >> d) & 1 and cat.discs[d].sign == c


cdef void use_signboards(GameState* s, const Catalogue* cat, int c) noexcept nogil:
    """A signboard action of colour c: its signboards are turned face down, then the action.
    Which ones is the player's choice (F_SIGN_SOURCE) when a city disc is among them and
    there are more than the action uses (completed orders are all alike: a signboard is
    their only use); otherwise all of them."""
    cdef PlayerState* p = &s.players[s.actor]
    cdef int need = sign_cost(c), have = unused_signs(cat, p, c), d
    cdef bint disc = False
    for d in range(N_DISCS):
        disc = disc or disc_sign_unused(cat, p, d, c)
    if disc and have > need:
        push(s, F_SIGN_SOURCE, need, c)
        return
    while need > 0:
        turn_sign(cat, p, c, -1)
        need -= 1
    do_signboard(s, cat, c)


cdef void turn_sign(const Catalogue* cat, PlayerState* p, int c, int disc) noexcept nogil:
    """Turn one signboard of colour c face down: the city disc `disc`, or (-1) a completed
    order if there is one, else the first city disc."""
    cdef int i = unused_sign_order(cat, p, c) if disc < 0 else -1
    if i >= 0:
        p.signs_used |= bit(i)
        return
    if disc < 0:
        for i in range(N_DISCS):
            if disc_sign_unused(cat, p, i, c):
                disc = i
                break
    if disc >= 0:
        p.discs_used |= 1 << disc


cdef inline int sign_cost(int c) noexcept nogil:
    return 1 if c == 0 else RED_BLUE_COST


cdef void trade_done(GameState* s, const Catalogue* cat) noexcept nogil:
    """A trade action was carried out: the factories that reward it."""
    cdef PlayerState* p = &s.players[s.actor]
    gain_marks(s, s.actor, ability_count(p, cat, FA_TRADE_MARKS, -1))
    p.points += ability_count(p, cat, FA_TRADING_POINTS, -1)


cdef bint can_tile(const PlayerState* p, const Catalogue* cat, int tile, int d) noexcept nogil:
    cdef const TradingTile* t = &cat.tiles[tile]
    if d == 1 and not t.two_way:
        return False
    return can_pay_goods(p, t, d)


cdef void do_tile(GameState* s, const Catalogue* cat, int tile, int d) noexcept nogil:
    """Carry out a trading tile once: as printed (d = 0) or back (d = 1, two-way)."""
    cdef const TradingTile* t = &cat.tiles[tile]
    cdef int g, give, get
    cdef PlayerState* p = &s.players[s.actor]
    for g in range(N_GOODS):
        give = t.get[g] if d else t.give[g]
        if g < N_RES:
            pay_res(s, s.actor, g, give)
        elif g == G_MARKS:
            pay_marks(s, s.actor, give)
        else:
            p.points -= give
    for g in range(N_GOODS):
        get = t.give[g] if d else t.get[g]
        gain_good(s, s.actor, g, get)


cdef bint can_convert_paying(const GameState* s, const PlayerState* p, int r) noexcept nogil:
    """The 1:2 conversion paying resource r: "discard 1 of any resource, then you take 2
    resources of any other type from the supply" (a payment that takes nothing is none)."""
    cdef int other
    if p.res[r] <= 0:
        return False
    for other in range(N_RES):
        if other != r and s.supply[other] > 0:
            return True
    return False


cdef bint letter_destination(const PlayerState* p, bint contracts) noexcept nogil:
    """Somewhere a lead letter can go: an empty composing stick space, or (`contracts`)
    an active contract without a letter."""
    cdef int x
    for x in range(N_STICK):
        if p.stick[x] < 0:
            return True
    if not contracts:
        return False
    for x in range(N_SLOTS):
        if p.slot_contract[x] >= 0 and p.contract_letter[p.slot_contract[x]] < 0:
            return True
    return False


cdef inline bint disc_paired(const PlayerState* p, int d) noexcept nogil:
    cdef int x
    for x in range(N_STICK):
        if p.stick_disc[x] == d:
            return True
    return False


cdef int unpaired_disc(const Catalogue* cat, const PlayerState* p, int letter) noexcept nogil:
    """A city tile of the letter not paired yet, -1."""
    cdef int d
    for d in range(N_DISCS):
        if (p.discs >> d) & 1 and cat.discs[d].letter == letter and not disc_paired(p, d):
            return d
    return -1


cdef int unpaired_letter(const PlayerState* p) noexcept nogil:
    """The first composing stick space whose lead letter has no city tile paired, -1.
    Pairing "anytime" (A_PAIR) goes there: which lead letter takes the tile changes
    nothing (a tile counts for its own letter, and each lead letter takes one)."""
    cdef int x
    for x in range(N_STICK):
        if p.stick[x] >= 0 and p.stick_disc[x] < 0:
            return x
    return -1


cdef void open_slots(const Catalogue* cat, PlayerState* p) noexcept nogil:
    """Unlock the contract slots whose formation the composing sticks show (the relative
    places of the letters, not rotated)."""
    cdef int k, r0, c0, i, r, c
    cdef bint ok
    cdef const Slot* sl
    for k in range(N_SLOTS):
        if (p.slots_open >> k) & 1:
            continue
        sl = &cat.slots[k]
        for r0 in range(STICK_SIDE):
            for c0 in range(STICK_SIDE):
                ok = True
                for i in range(sl.n):
                    r = r0 + sl.dr[i]
                    c = c0 + sl.dc[i]
                    if r < 0 or c < 0 or r >= STICK_SIDE or c >= STICK_SIDE or p.stick[r * 3 + c] < 0:
                        ok = False
                        break
                if ok:
                    p.slots_open |= 1 << k


cdef int keep_stacks(const PlayerState* p, bint* ok) noexcept nogil:
    """The stacks a kept letter may go on: an empty one while there is one, else either
    (covering a letter)."""
    cdef int k, n = 0
    cdef bint empty = p.stack_n[0] == 0 or p.stack_n[1] == 0
    for k in range(N_STACKS):
        ok[k] = (p.stack_n[k] == 0) if empty else (p.stack_n[k] < MAX_STACK)
        n += ok[k]
    return n


cdef void mark_built(GameState* s, int code, int x) noexcept nogil:
    """Tell the waiting F_TECH_DONE of a bought technology where it was built face up."""
    cdef int i
    for i in range(s.n_frames - 1, -1, -1):
        if s.frames[i].kind == F_TECH_DONE and s.frames[i].a == code and s.frames[i].b < 0:
            s.frames[i].b = x
            return


cdef void start_factory(GameState* s, int level) noexcept nogil:
    cdef Frame* f
    cdef int i
    push(s, F_FACTORY_KEEP, 1, 0)
    f = push(s, F_FACTORY_DRAW, 0, 0)
    f.a = level
    for i in range(FACTORY_DRAW):
        s.drawn[i] = -1
        s.drawn_seen[i] = 0


cdef bint factory_ok(const GameState* s, const Catalogue* cat, const PlayerState* p, int level) noexcept nogil:
    return markers_left(p) > 0 and factories_available(s, level) > 0 and can_build(p, cat, level)


cdef int tech_money(const Catalogue* cat, const PlayerState* p, int level, int arg) noexcept nogil:
    if arg & FREE_MONEY:
        return 0
    return imax(0, cat.column_money[level] - ability_count(p, cat, FA_TECH_DISCOUNT, -1))


cdef bint tech_affordable(const Catalogue* cat, const PlayerState* p, int level, int row, int arg) noexcept nogil:
    cdef int r
    if p.marks < tech_money(cat, p, level, arg):
        return False
    if not arg & FREE_RESOURCES:
        for r in range(N_RES):
            if p.res[r] < cat.row_cost[row][r]:
                return False
    return True


cdef int coin_cost(const GameState* s, const Catalogue* cat, const Frame* f, int node, int k) noexcept nogil:
    """Marks a step along link k costs: 1 onto a coin space, nothing into a city, nothing
    without money (arg) or along a road with the player's city markers at both ends."""
    cdef int nb = cat.next[node][k], road = cat.road_of[node][k]
    cdef const PlayerState* p = &s.players[s.actor]
    if nb < cat.n_cities or f.arg:
        return 0
    if (p.cities >> cat.road_end[road][0]) & 1 and (p.cities >> cat.road_end[road][1]) & 1:
        return 0
    return 0 if f.n > 0 else 1


cdef void map_stop(GameState* s, const Catalogue* cat, bint real) noexcept nogil:
    """The agent stops on the map: in a city, its disc, a city marker once per city and
    the director's step and reward; after a Travel action also a trade or a factory (a
    city) or a trade (a coin)."""
    cdef PlayerState* p = &s.players[s.actor]
    cdef int node = p.agent, k
    if node >= cat.n_cities:
        if real:
            push(s, F_COIN_CHOICE, 1, 0)
        return
    if real:
        push(s, F_CITY_CHOICE, 1, 0)
    if not (p.cities >> node) & 1 and markers_left(p) > 0:
        p.cities |= 1 << node
        k = popcount64(p.cities)
        push_effects(s, &cat.director_reward[k - 1], 1)
    gain_disc(s, cat, s.actor, node)

# ---------------------------------------------------------------------------------------
# Decisions: what the top frame, or the phase's menu, allows.
# ---------------------------------------------------------------------------------------
cdef int optional_actions(const GameState* s, const Catalogue* cat, int* out, int n) noexcept nogil:
    """Signboards, contracts into slots, city discs (rulebook: Optional actions)."""
    cdef const PlayerState* p = &s.players[s.actor]
    cdef int c, k, d
    cdef bint active
    for c in range(N_SIGNS):
        if unused_signs(cat, p, c) >= sign_cost(c):
            out[n] = A_SIGNBOARD + c
            n += 1
    for c in range(N_CONTRACTS):
        if not (p.contracts >> c) & 1:
            continue
        active = False
        for k in range(N_SLOTS):
            if p.slot_contract[k] == c:
                active = True
        if active:
            continue
        for k in range(N_SLOTS):
            if (p.slots_open >> k) & 1 and not (p.slots_changed >> k) & 1:
                out[n] = A_ACTIVATE + c * N_SLOTS + k
                n += 1
    for d in range(N_DISCS):
        if (p.discs >> d) & 1 and not (p.discs_used >> d) & 1:
            out[n] = A_DISC + d
            n += 1
    if p.pairing and unpaired_letter(p) >= 0:
        for d in range(N_DISCS):
            if (p.discs >> d) & 1 and not disc_paired(p, d):
                out[n] = A_PAIR + d
                n += 1
    return n


cdef int frame_legal(const GameState* s, const Catalogue* cat, const Frame* f, int* out) noexcept nogil:
    cdef const PlayerState* p = &s.players[s.actor]
    cdef int n = 0, r, i, d, x, k, lv, row, y, code, level, node
    cdef bint ok[N_STACKS]
    cdef const Technology* t
    if f.kind == F_RESOURCE:
        for r in range(N_RES):
            if s.supply[r] > 0:
                out[n] = A_RESOURCE + r
                n += 1
    elif f.kind == F_TRADE:
        out[n] = A_PASS
        n += 1
        for r in range(N_RES):
            if can_convert_paying(s, p, r):
                out[n] = A_CONVERT
                n += 1
                break
        for i in range(N_FACE_TILES):
            if s.face_tiles[i] >= 0:
                for d in range(2):
                    if can_tile(p, cat, s.face_tiles[i], d):
                        out[n] = A_TILE + i * 2 + d
                        n += 1
        if f.a == 0 and f.arg == 0 and p.marks >= 1:
            out[n] = A_REFRESH_TILES
            n += 1
    elif f.kind == F_CONVERT:
        for r in range(N_RES):
            if (f.a < 0 and can_convert_paying(s, p, r)) or (f.a >= 0 and r != f.a and s.supply[r] > 0):
                out[n] = A_RESOURCE + r
                n += 1
    elif f.kind == F_TILE_AGAIN:
        out[n] = A_PASS
        n += 1
        if can_tile(p, cat, f.a, f.b):
            out[n] = A_AGAIN
            n += 1
    elif f.kind == F_TYPESET:
        out[n] = A_PASS
        n += 1
        if letter_destination(p, f.arg == 0):
            for k in range(N_STACKS):
                if p.stack_n[k] > 0:
                    out[n] = A_STACK + k
                    n += 1
    elif f.kind == F_TYPESET_WHERE:
        code = top_letter(p, f.a)
        for x in range(N_STICK):
            if p.stick[x] < 0:
                out[n] = A_STICK + x
                n += 1
                if p.pairing and not count_letters(cat, code, cat.stick[x].letter) and \
                        unpaired_disc(cat, p, cat.stick[x].letter) >= 0:
                    out[n] = A_STICK_PAIR + x
                    n += 1
        for k in range(N_SLOTS):
            # The action "regardless of the letter" (arg 1) goes "to an empty space on your
            # composing stick board" only.
            if f.arg == 0 and p.slot_contract[k] >= 0 and p.contract_letter[p.slot_contract[k]] < 0:
                out[n] = A_UNDER + k
                n += 1
    elif f.kind == F_TRAVEL:
        out[n] = A_STOP
        n += 1
        if f.a > 0:
            if not f.c:
                node = p.agent
                for k in range(cat.degree[node]):
                    if p.marks >= coin_cost(s, cat, f, node, k):
                        out[n] = A_MAP + k
                        n += 1
            if p.section < ORDER_SECTIONS:
                out[n] = A_TRACK
                n += 1
    elif f.kind == F_CITY_CHOICE or f.kind == F_COIN_CHOICE or f.kind == F_FACTORY:
        out[n] = A_PASS
        n += 1
        if f.kind != F_FACTORY:
            out[n] = A_TRADE
            n += 1
        if f.kind != F_COIN_CHOICE:
            for lv in range(N_LEVELS):
                if factory_ok(s, cat, p, lv):
                    out[n] = A_FACTORY_PILE + lv
                    n += 1
    elif f.kind == F_TECHNOLOGY:
        out[n] = A_PASS
        n += 1
        for lv in range(N_LEVELS):
            if f.b >= 0 and lv != f.b:
                continue
            if not can_build(p, cat, lv):
                continue
            for row in range(TECH_ROWS):
                if s.tech_face[lv][row] >= 0 and tech_affordable(cat, p, lv, row, f.arg):
                    out[n] = A_TECH + lv * TECH_ROWS + row
                    n += 1
        if f.a == 0 and p.marks >= 1:
            for lv in range(N_LEVELS):
                if (f.b < 0 or lv == f.b) and (s.tech_pile & level_techs(lv) != 0 or s.tech_bottom_n[lv] > 0):
                    out[n] = A_REFRESH_COLUMN + lv
                    n += 1
    elif f.kind == F_BUILD:
        level = tile_level(cat, f.a)
        for x in range(N_SPACES):
            if f.b == 0 and can_up(p, cat, level, x):
                out[n] = A_UP + x
                n += 1
            if can_down(p, cat, level, x):
                out[n] = A_DOWN + x
                n += 1
            if f.b == 0 and can_replace(p, cat, level, x):
                out[n] = A_REPLACE + x
                n += 1
    elif f.kind == F_CHAIN:
        if cat.spaces[f.a].column > 0:
            for y in range(N_SPACES):
                if (cat.spaces[f.a].left >> y) & 1:
                    out[n] = A_CHAIN + y
                    n += 1
        else:
            for k in range(N_STACKS):
                if p.stack_n[k] > 0:
                    out[n] = A_STACK + k
                    n += 1
    elif f.kind == F_FACTORY_KEEP:
        for i in range(FACTORY_DRAW):
            if s.drawn[i] >= 0:
                out[n] = A_FACTORY + s.drawn[i]
                n += 1
    elif f.kind == F_ASSISTANT:
        if p.assistants == 0:
            return 0
        if f.a < 0:
            for x in range(N_STREETS):
                if street_in(s, cat, x) and s.street_owner[x] < 0:
                    for k in range(N_ASSISTANTS):
                        if (p.assistants >> k) & 1:
                            out[n] = A_ASSISTANT + k
                            n += 1
                    break
        else:
            for x in range(N_STREETS):
                if street_in(s, cat, x) and s.street_owner[x] < 0:
                    out[n] = A_STREET + x
                    n += 1
    elif f.kind == F_LETTER_RES:
        for k in range(N_STACKS):
            if p.stack_n[k] > 0:
                out[n] = A_STACK + k
                n += 1
    elif f.kind == F_TABLE:
        if f.arg == 2 or keep_stacks(p, ok) > 0:
            for i in range(N_TABLE):
                if s.table[i] >= 0:
                    out[n] = A_TABLE + i
                    n += 1
    elif f.kind == F_KEEP:
        keep_stacks(p, ok)
        for k in range(N_STACKS):
            if ok[k]:
                out[n] = A_KEEP + k
                n += 1
        if f.b == 1 or n == 0:
            out[n] = A_DISCARD
            n += 1
    elif f.kind == F_ADVANCE:
        out[n] = A_PASS
        n += 1
        for i in range(N_WAITING + N_STAGES):
            if can_advance(p, cat, i, not f.arg):
                out[n] = A_ADVANCE + i
                n += 1
    elif f.kind == F_BUY:
        out[n] = A_PASS
        n += 1
        n = buy_actions(s, cat, f.arg == 0, f.arg == 1, f.b, out, n)
    elif f.kind == F_SIGNBOARD:
        for i in range(N_SIGNS):
            out[n] = A_SIGNBOARD + i
            n += 1
    elif f.kind == F_CITY_DISC:
        out[n] = A_PASS
        n += 1
        for x in range(cat.n_cities):
            if s.city_disc[x] >= 0:
                out[n] = A_CITY + x
                n += 1
    elif f.kind == F_COPY:
        out[n] = A_PASS
        n += 1
        for x in range(N_SPACES):
            code = p.up[x]
            if 0 <= code < N_TECHS:
                t = &cat.techs[code]
                if not t.green and t.level <= f.arg and t.action.e[0].kind != E_COPY:
                    out[n] = A_COPY + x
                    n += 1
    elif f.kind == F_SLIDE:
        # "You can move down your tradesman to a II room": declinable, as the other
        # "You can" icons are.
        out[n] = A_PASS
        n += 1
        for i in range(N_TRADESMEN):
            if p.room[i] == 0:
                out[n] = A_SLIDE + i
                n += 1
    elif f.kind == F_SIGN_SOURCE:
        if unused_sign_order(cat, p, f.arg) >= 0:
            out[n] = A_PASS         # a completed order
            n += 1
        for d in range(N_DISCS):
            if disc_sign_unused(cat, p, d, f.arg):
                out[n] = A_DISC + d
                n += 1
    elif f.kind == F_LAY:
        for i in range(N_TRADESMEN):
            if p.upright[i]:
                out[n] = A_LAY + i
                n += 1
    return n


cdef int buy_actions(const GameState* s, const Catalogue* cat, bint orders, bint contracts, bint free,
                     int* out, int n) noexcept nogil:
    cdef const PlayerState* p = &s.players[s.actor]
    cdef int i
    for i in range(N_DISPLAY):
        if orders and s.order_display[i] >= 0 and (p.waiting[0] < 0 or p.waiting[1] < 0) and \
                (free or p.marks >= price_of(s, cat, s.actor, i, False)):
            out[n] = A_BUY_ORDER + i
            n += 1
    for i in range(N_DISPLAY):
        if contracts and s.contract_display[i] >= 0 and (free or p.marks >= price_of(s, cat, s.actor, i, True)):
            out[n] = A_BUY_CONTRACT + i
            n += 1
    return n


cdef bint tradesman_in(const GameState* s, int x) noexcept nogil:
    """Whether some tradesman stands in the shop of cell x. At setup: "do not place more
    then one tradesman in the same shop!" (whosever they are)."""
    cdef int q, k
    for q in range(s.num_players):
        for k in range(N_TRADESMEN):
            if s.players[q].pos[k] == x:
                return True
    return False


cdef int phase_legal(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """The decisions when no effect is waiting: the turn's menu, the phases' own."""
    cdef const PlayerState* p = &s.players[s.actor]
    cdef int n = 0, x, t, r, q
    cdef int best[GRID_CELLS]
    cdef bint taken
    if s.phase == PH_SETUP:
        for x in range(GRID_CELLS):
            if cell_in(s, cat, x) and not tradesman_in(s, x):
                out[n] = A_SETUP + x
                n += 1
    elif s.phase == PH_ACTIONS:
        n = optional_actions(s, cat, out, n)
        if s.main_done:
            out[n] = A_PASS
            n += 1
            return n
        for t in range(N_TRADESMEN):
            if not movable(p, t):
                continue
            move_costs(s, cat, s.actor, t, best)
            for x in range(GRID_CELLS):
                if best[x] <= p.capacity and x != p.pos[1 - t]:
                    for r in range(N_ROOMS):
                        out[n] = A_MOVE + (t * GRID_CELLS + x) * N_ROOMS + r
                        n += 1
        taken = False
        for x in range(N_TABLE):
            if s.table[x] >= 0:
                out[n] = A_RESET + x
                n += 1
                taken = True
        if not taken:
            out[n] = A_RESET      # no lead letter left anywhere: a Reset without one
            n += 1
    elif s.phase == PH_ORDERS:
        out[n] = A_PASS
        n += 1
        n = buy_actions(s, cat, not p.bought_order, not p.bought_contract, False, out, n)
    elif s.phase == PH_PRODUCTION:
        out[n] = A_PASS
        n += 1
        if s.prod_left > 0 and p.capacity > 0:
            for x in range(N_WAITING + N_STAGES):
                if can_advance(p, cat, x, True):
                    out[n] = A_ADVANCE + x
                    n += 1
    elif s.phase == PH_FINAL:
        n = optional_actions(s, cat, out, n)
        out[n] = A_PASS
        n += 1
    return n


cdef int current_player(const GameState* s) noexcept nogil:
    if s.phase == PH_TERMINAL:
        return TERMINAL
    if s.deal != DEAL_NONE:
        return CHANCE
    return s.actor


cdef int legal_actions(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """The legal decisions, sorted (none at chance and terminal nodes)."""
    cdef int n
    if s.phase == PH_TERMINAL or s.deal != DEAL_NONE:
        return 0
    if s.n_frames > 0:
        n = frame_legal(s, cat, &s.frames[s.n_frames - 1], out)
    else:
        n = phase_legal(s, cat, out)
    sort_ints(out, n)
    return n


cdef bint is_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef double prob[N_CHANCE]
    cdef int cbuf[N_CHANCE]
    cdef int n, i
    if s.phase == PH_TERMINAL:
        return False
    if s.deal != DEAL_NONE:
        n = chance_outcomes(s, cat, cbuf, prob)
        for i in range(n):
            if cbuf[i] == a:
                return True
        return False
    n = legal_actions(s, cat, buf)
    for i in range(n):
        if buf[i] == a:
            return True
    return False

# ---------------------------------------------------------------------------------------
# Applying a decision.
# ---------------------------------------------------------------------------------------
cdef void gain_letter_resources(GameState* s, const Catalogue* cat, int tile) noexcept nogil:
    cdef int r
    for r in range(N_RES):
        gain_res(s, s.actor, r, cat.letters[tile].res[r])


cdef int take_top(PlayerState* p, int k) noexcept nogil:
    cdef int x = p.stack[k][p.stack_n[k] - 1]
    p.stack_n[k] -= 1
    p.stack[k][p.stack_n[k]] = -1
    return x


cdef void frame_apply(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int seat = s.actor, x, k, i, r, tile, level, code, c, old
    cdef PlayerState* p = &s.players[seat]
    cdef Frame* f = top(s)
    cdef Frame* g
    cdef int kind = f.kind
    if kind == F_RESOURCE:
        gain_res(s, seat, a - A_RESOURCE, 1)
        f.n -= 1
        if f.n <= 0:
            pop(s)
    elif kind == F_TRADE:
        if a == A_PASS:
            pop(s)
        elif a == A_REFRESH_TILES:
            pay_marks(s, seat, 1)
            for i in range(N_FACE_TILES):
                if s.face_tiles[i] >= 0:
                    s.tile_discard |= bit(s.face_tiles[i])
                    s.face_tiles[i] = -1
            f.a = 1
        else:
            f.n -= 1
            f.a = 0
            c = f.arg
            if f.n <= 0:
                pop(s)
            trade_done(s, cat)
            if a == A_CONVERT:
                g = push(s, F_CONVERT, 2, 0)
            else:
                i = (a - A_TILE) // 2
                k = (a - A_TILE) % 2
                tile = s.face_tiles[i]
                do_tile(s, cat, tile, k)
                if not c:
                    s.tile_discard |= bit(tile)
                    s.face_tiles[i] = -1
                if cat.tiles[tile].times > 1:
                    g = push(s, F_TILE_AGAIN, cat.tiles[tile].times - 1, 0)
                    g.a = tile
                    g.b = k
    elif kind == F_CONVERT:
        r = a - A_RESOURCE
        if f.a < 0:
            pay_res(s, seat, r, 1)
            f.a = r
        else:
            gain_res(s, seat, r, 1)
            f.n -= 1
            if f.n <= 0:
                pop(s)
    elif kind == F_TILE_AGAIN:
        if a == A_PASS:
            pop(s)
        else:
            do_tile(s, cat, f.a, f.b)
            f.n -= 1
            if f.n <= 0:
                pop(s)
    elif kind == F_TYPESET:
        if a == A_PASS:
            pop(s)
        else:
            c = f.arg
            f.n -= 1
            if f.n <= 0:
                pop(s)
            g = push(s, F_TYPESET_WHERE, 1, c)
            g.a = a - A_STACK
    elif kind == F_TYPESET_WHERE:
        code = take_top(p, f.a)
        c = f.arg
        pop(s)
        p.points += ability_count(p, cat, FA_TYPESETTING_POINTS, -1)
        if a >= A_UNDER:
            p.contract_letter[p.slot_contract[a - A_UNDER]] = code
        else:
            x = (a - A_STICK) % N_STICK
            p.stick[x] = code
            if a >= A_STICK_PAIR:
                p.stick_disc[x] = unpaired_disc(cat, p, cat.stick[x].letter)
            open_slots(cat, p)
            if c or a >= A_STICK_PAIR or count_letters(cat, code, cat.stick[x].letter):
                push_effects(s, &cat.stick[x].action, 1)
    elif kind == F_TRAVEL:
        if a == A_STOP:
            if f.b and not f.c:
                f.c = 1
                map_stop(s, cat, f.d)
            else:
                pop(s)
        elif a == A_TRACK:
            f.a -= 1
            track_step(s, seat)
        else:
            k = a - A_MAP
            x = cat.next[p.agent][k]
            if coin_cost(s, cat, f, p.agent, k) > 0:
                old = -1
                for i in range(s.num_players):
                    if i != seat and s.players[i].agent == x and old < 0:
                        old = i
                if old >= 0:
                    p.marks -= 1
                    s.players[old].marks += 1
                else:
                    pay_marks(s, seat, 1)
            elif x >= cat.n_cities and not f.arg and f.n > 0 and \
                    not ((p.cities >> cat.road_end[cat.road_of[p.agent][k]][0]) & 1
                         and (p.cities >> cat.road_end[cat.road_of[p.agent][k]][1]) & 1):
                f.n -= 1          # the travel factory's mark
            p.agent = x
            f.a -= 1
            f.b = 1
    elif kind == F_CITY_CHOICE or kind == F_COIN_CHOICE or kind == F_FACTORY:
        pop(s)
        if a == A_TRADE:
            g = push(s, F_TRADE, 1, 0)
            g.a = 0
        elif a != A_PASS:
            start_factory(s, a - A_FACTORY_PILE)
    elif kind == F_TECHNOLOGY:
        if a == A_PASS:
            pop(s)
        elif a >= A_REFRESH_COLUMN:
            level = a - A_REFRESH_COLUMN
            pay_marks(s, seat, 1)
            for i in range(TECH_ROWS):
                if s.tech_face[level][i] >= 0:
                    s.tech_bottom[level][s.tech_bottom_n[level]] = s.tech_face[level][i]
                    s.tech_bottom_n[level] += 1
                    s.tech_face[level][i] = -1
            f.a = 1
        else:
            level = (a - A_TECH) // TECH_ROWS
            i = (a - A_TECH) % TECH_ROWS
            code = s.tech_face[level][i]
            pay_marks(s, seat, tech_money(cat, p, level, f.arg))
            if not f.arg & FREE_RESOURCES:
                for r in range(N_RES):
                    pay_res(s, seat, r, cat.row_cost[i][r])
            s.tech_face[level][i] = -1
            pop(s)
            g = push(s, F_TECH_DONE, 1, 0)
            g.a = code
            g = push(s, F_BUILD, 1, 0)
            g.a = code
            g.b = 0
    elif kind == F_BUILD:
        code = f.a
        if a >= A_REPLACE:
            # "You only get the newly covered action!": the space the replaced tile goes
            # to, face down; the new technology's own action and a blue one's chain do
            # not come. A green one's points do ("At the moment you build these, you
            # gain the indicated victory points").
            x = a - A_REPLACE
            old = p.up[x]
            p.up[x] = code
            if code < N_TECHS and cat.techs[code].green:
                mark_built(s, code, x)
            f.a = old
            f.b = 1
        elif a >= A_DOWN:
            x = a - A_DOWN
            p.down[x] = code
            pop(s)
            push_effects(s, &cat.spaces[x].action, 1)
        else:
            x = a - A_UP
            p.up[x] = code
            pop(s)
            mark_built(s, code, x)
            push_effects(s, &cat.spaces[x].action, 1)
    elif kind == F_CHAIN:
        if a >= A_CHAIN:
            x = a - A_CHAIN
            f.a = x
            code = p.up[x]
            if 0 <= code < N_TECHS and not cat.techs[code].green:
                push_effects(s, &cat.techs[code].action, 1)
        else:
            pop(s)
            gain_letter_resources(s, cat, top_letter(p, a - A_STACK))
    elif kind == F_FACTORY_KEEP:
        x = a - A_FACTORY
        level = cat.factories[x].level
        for i in range(FACTORY_DRAW):
            if s.drawn[i] >= 0 and s.drawn[i] != x:
                s.factory_bottom[level][s.factory_bottom_n[level]] = s.drawn[i]
                s.factory_bottom_seen[level][s.factory_bottom_n[level]] = s.drawn_seen[i]
                s.factory_bottom_n[level] += 1
            s.drawn[i] = -1
            s.drawn_seen[i] = 0
        p.factories_paid += 1
        pop(s)
        g = push(s, F_BUILD, 1, 0)
        g.a = N_TECHS + x
        g.b = 0
    elif kind == F_ASSISTANT:
        if a < A_STREET:
            f.a = a - A_ASSISTANT
        else:
            x = a - A_STREET
            s.street_owner[x] = seat
            s.street_kind[x] = f.a
            p.assistants &= ~(1 << f.a)
            if f.b >= 0:
                p.wf_street[f.b] = x
            f.n -= 1
            f.a = -1
            if f.n <= 0:
                pop(s)
    elif kind == F_LETTER_RES:
        f.n -= 1
        if f.n <= 0:
            pop(s)
        gain_letter_resources(s, cat, top_letter(p, a - A_STACK))
    elif kind == F_TABLE:
        i = a - A_TABLE
        code = s.table[i]
        s.table[i] = -1
        c = f.arg
        f.n -= 1
        if f.n <= 0:
            pop(s)
        if c == 2:
            gain_letter_resources(s, cat, code)
            s.letter_discard |= bit(code)
        else:
            if c == 1:
                gain_letter_resources(s, cat, code)
            g = push(s, F_KEEP, 1, 0)
            g.a = code
            g.b = 0
    elif kind == F_KEEP:
        code = f.a
        c = f.b
        pop(s)
        if a == A_DISCARD:
            gain_letter_resources(s, cat, code)
            s.letter_discard |= bit(code)
            if c == 1:
                k = ability_count(p, cat, FA_RESET_DISCARD, -1)
                if k > 0:
                    push(s, F_RESOURCE, k, 0)
        else:
            k = a - A_KEEP
            p.stack[k][p.stack_n[k]] = code
            p.stack_n[k] += 1
            gain_marks(s, seat, ability_count(p, cat, FA_LETTER_MARKS, -1))
            gain_capacity(s, cat, seat, ability_count(p, cat, FA_LETTER_CAPACITY, -1))
    elif kind == F_ADVANCE:
        if a == A_PASS:
            pop(s)
        else:
            c = f.arg
            f.n -= 1
            if f.n <= 0:
                pop(s)
            do_advance(s, cat, seat, a - A_ADVANCE, not c)
    elif kind == F_BUY:
        if a == A_PASS:
            pop(s)
        else:
            c = f.b
            f.n -= 1
            if f.n <= 0:
                pop(s)
            buy(s, cat, a, c)
            # "Replace the order after your purchase": push down, refill from the pile.
            compact(s.order_display)
            compact(s.contract_display)
            s.refill_display = 1
    elif kind == F_SIGNBOARD:
        pop(s)
        do_signboard(s, cat, a - A_SIGNBOARD)
    elif kind == F_CITY_DISC:
        pop(s)
        if a != A_PASS:
            gain_disc(s, cat, seat, a - A_CITY)
    elif kind == F_COPY:
        pop(s)
        if a != A_PASS:
            push_effects(s, &cat.techs[p.up[a - A_COPY]].action, 1)
    elif kind == F_SLIDE:
        k = f.arg
        pop(s)
        if a != A_PASS:
            i = a - A_SLIDE
            p.room[i] = 1
            s.stamp += 1
            p.entered[i] = s.stamp
            meet(s, seat, i)
            push_effects(s, room_action(s, cat, p.pos[i], 1), k)
    elif kind == F_LAY:
        p.upright[a - A_LAY] = 0
        pop(s)
    elif kind == F_SIGN_SOURCE:
        c = f.arg
        turn_sign(cat, p, c, -1 if a == A_PASS else a - A_DISC)
        f.n -= 1
        if f.n <= 0:
            pop(s)
            do_signboard(s, cat, c)
        elif unused_signs(cat, p, c) <= f.n:
            # What is left is all that is left to turn.
            while f.n > 0:
                turn_sign(cat, p, c, -1)
                f.n -= 1
            pop(s)
            do_signboard(s, cat, c)


cdef void buy(GameState* s, const Catalogue* cat, int a, bint free) noexcept nogil:
    """Buy the order or contract of a display space."""
    cdef PlayerState* p = &s.players[s.actor]
    cdef int i
    if a < A_BUY_CONTRACT:
        i = a - A_BUY_ORDER
        if not free:
            pay_marks(s, s.actor, price_of(s, cat, s.actor, i, False))
        p.waiting[0 if p.waiting[0] < 0 else 1] = s.order_display[i]
        s.order_display[i] = -1
        p.bought_order = 1
        s.taken[0] += 1
    else:
        i = a - A_BUY_CONTRACT
        if not free:
            pay_marks(s, s.actor, price_of(s, cat, s.actor, i, True))
        p.contracts |= 1 << s.contract_display[i]
        s.contract_display[i] = -1
        p.bought_contract = 1
        s.taken[1] += 1


cdef void do_move(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """The Shop action: the tradesman moves, pays capacity for the steps off its order
    marker's, lies down and takes its room's action; meetings and assistants reward."""
    cdef int seat = s.actor
    cdef PlayerState* p = &s.players[seat]
    cdef int t = (a - A_MOVE) // (GRID_CELLS * N_ROOMS)
    cdef int x = ((a - A_MOVE) // N_ROOMS) % GRID_CELLS
    cdef int r = (a - A_MOVE) % N_ROOMS
    cdef int best[GRID_CELLS]
    move_costs(s, cat, seat, t, best)
    lose_capacity(s, seat, best[x])
    p.pos[t] = x
    p.room[t] = r
    p.upright[t] = 0
    s.stamp += 1
    p.entered[t] = s.stamp
    meet(s, seat, t)
    assistant_rewards(s, cat, seat, x)
    push_effects(s, room_action(s, cat, x, r), 1)


cdef void do_reset(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """The Reset action: a lead letter of the table (kept or discarded), the tradesmen in I
    rooms slide to II rooms, one upright tradesman lies down, the slid ones act."""
    cdef int seat = s.actor, i = a - A_RESET, code = s.table[i], k
    cdef PlayerState* p = &s.players[seat]
    cdef Frame* f
    for k in range(4):
        gain_good(s, seat, k, ability_count(p, cat, FA_RESET_GOOD, k))
    gain_capacity(s, cat, seat, ability_count(p, cat, FA_RESET_CAPACITY, -1))
    f = push(s, F_RESET_ACT, 1, 0)
    f.a = 0
    f.c = 0
    if code >= 0:
        s.table[i] = -1
        f = push(s, F_KEEP, 1, 0)
        f.a = code
        f.b = 1


cdef void phase_apply(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int seat = s.actor, c, k, x
    cdef PlayerState* p = &s.players[seat]
    if A_SIGNBOARD <= a < A_ACTIVATE:
        use_signboards(s, cat, a - A_SIGNBOARD)
    elif A_ACTIVATE <= a < A_DISC:
        c = (a - A_ACTIVATE) // N_SLOTS
        k = (a - A_ACTIVATE) % N_SLOTS
        p.slot_contract[k] = c          # a contract replaced goes back beside the workshop
        p.slots_changed |= 1 << k
        if not (p.slots_used >> k) & 1:
            p.slots_used |= 1 << k
            push_effects(s, &cat.slots[k].action, 1)
    elif A_DISC <= a < A_CITY:
        x = a - A_DISC
        p.discs_used |= 1 << x
        push_effects(s, &cat.discs[x].reward, 1)
    elif A_PAIR <= a < A_PAIR + N_DISCS:
        p.stick_disc[unpaired_letter(p)] = a - A_PAIR
    elif s.phase == PH_SETUP:
        x = a - A_SETUP
        k = 0 if s.turn < s.num_players else 1
        p.pos[k] = x
        p.room[k] = 1
        p.upright[k] = 1
        s.stamp += 1
        p.entered[k] = s.stamp
        s.turn += 1
        push_effects(s, room_action(s, cat, x, 1), 1)
    elif s.phase == PH_ACTIONS:
        if a == A_PASS:
            s.turn += 1
            s.main_done = 0
            p.slots_changed = 0
        elif a < A_RESET:
            s.main_done = 1
            do_move(s, cat, a)
        else:
            s.main_done = 1
            do_reset(s, cat, a)
    elif s.phase == PH_ORDERS:
        if a == A_PASS:
            s.turn += 1
        else:
            buy(s, cat, a, False)
    elif s.phase == PH_PRODUCTION:
        if a == A_PASS:
            pay_wages(s, cat, seat)
            s.turn += 1
            s.main_done = 0
            s.prod_left = 0
        else:
            s.prod_left -= 1
            p.capacity -= 1
            do_advance(s, cat, seat, a - A_ADVANCE, True)
            push_effects(s, &cat.capacity_reward[p.capacity], 1)
    elif s.phase == PH_FINAL:
        s.turn += 1
        p.slots_changed = 0


cdef void apply_decision(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    if s.n_frames > 0:
        frame_apply(s, cat, a)
    else:
        phase_apply(s, cat, a)

# ---------------------------------------------------------------------------------------
# The flow of the game: everything that happens without a decision.
# ---------------------------------------------------------------------------------------
cdef bint auto_frame(GameState* s, const Catalogue* cat) noexcept nogil:
    """Carry out the top frame if it needs no decision; False if it waits for one."""
    cdef Frame* f = top(s)
    cdef PlayerState* p = &s.players[s.actor]
    cdef int kind = f.kind, n, arg, k, t, x
    cdef Frame* g
    if kind == F_EFFECT:
        k = f.kind2
        n = f.n
        arg = f.arg
        pop(s)
        start_effect(s, cat, k, n, arg)
        return True
    if kind == F_STAGE:
        k = f.arg
        pop(s)
        stage_abilities(s, cat, s.actor, k)
        return True
    if kind == F_FACTORY_DRAW:
        # fill_fixed drew from the bottom queue; chance from the rest: done when 3 are
        # drawn or the pile is out.
        pop(s)
        return True
    if kind == F_TECH_DONE:
        k = f.a
        x = f.b
        pop(s)
        if x < 0 or p.up[x] != k:
            return True             # built face down: it shows nothing
        if cat.techs[k].green:
            push_effects(s, &cat.techs[k].action, 1)
        else:
            g = push(s, F_CHAIN, 1, 0)
            g.a = x
            push_effects(s, &cat.techs[k].action, 1)
        return True
    if kind == F_RESET_ACT:
        if f.c == 0:
            for t in range(N_TRADESMEN):
                if p.room[t] == 0:
                    p.room[t] = 1
                    s.stamp += 1
                    p.entered[t] = s.stamp
                    meet(s, s.actor, t)
                    f.a |= 1 << t
            f.c = 1
            n = 0
            for t in range(N_TRADESMEN):
                n += p.upright[t]
            if n > 1:
                push(s, F_LAY, 1, 0)
            else:
                for t in range(N_TRADESMEN):
                    p.upright[t] = 0
            return True
        k = f.a
        pop(s)
        for t in range(N_TRADESMEN - 1, -1, -1):
            if (k >> t) & 1:
                push_effects(s, room_action(s, cat, p.pos[t], 1), 1)
        return True
    return False


cdef void start_round(GameState* s) noexcept nogil:
    cdef int i, n = s.num_players
    for i in range(n):
        s.players[i].signs_fresh = 0
    s.phase = PH_ACTIONS
    for i in range(n):
        s.seq[i] = s.order[i]
        s.seq[n + i] = s.order[i]
    s.n_turns = 2 * n
    s.turn = 0
    s.main_done = 0


cdef void start_sequence(GameState* s, int phase) noexcept nogil:
    """A phase taken one player after another in player order."""
    cdef int i
    s.phase = phase
    for i in range(s.num_players):
        s.seq[i] = s.order[i]
        if phase == PH_FINAL:
            s.players[i].signs_fresh = 0    # "They may use all their unused signboards"
    s.n_turns = s.num_players
    s.turn = 0
    s.main_done = 0


cdef bint production_open(const GameState* s, const Catalogue* cat) noexcept nogil:
    cdef const PlayerState* p = &s.players[s.actor]
    cdef int x
    if s.prod_left <= 0 or p.capacity <= 0:
        return False
    for x in range(N_WAITING + N_STAGES):
        if can_advance(p, cat, x, True):
            return True
    return False


cdef void preparation(GameState* s, const Catalogue* cat) noexcept nogil:
    """The new player order; fewer spaces emptied this round than players in a display:
    as many more as needed are discarded from the cheapest spaces; what is left goes to
    the cheapest spaces; the refill follows (chance)."""
    cdef int i, n, q
    cdef int16_t* d
    new_player_order(s)
    for i in range(2):
        d = &s.order_display[0] if i == 0 else &s.contract_display[0]
        n = s.taken[i]
        s.taken[i] = 0
        for q in range(N_DISPLAY):
            if n >= s.num_players:
                break
            if d[q] >= 0:
                if i == 0:
                    s.order_discard |= bit(d[q])
                else:
                    s.contract_discard |= 1 << d[q]
                d[q] = -1
                n += 1
        compact(d)
    s.refill_display = 1


cdef void advance(GameState* s, const Catalogue* cat) noexcept nogil:
    """Run what follows without a decision until a decision or a chance node."""
    cdef int buf[MAX_LEGAL]
    cdef int n, i, seat
    cdef PlayerState* p
    while True:
        if s.phase == PH_TERMINAL:
            s.deal = DEAL_NONE
            s.actor = -1
            return
        fill_fixed(s, cat)
        s.deal = deal_due(s, cat)
        if s.deal != DEAL_NONE:
            return
        if s.n_frames > 0:
            if auto_frame(s, cat):
                continue
            n = frame_legal(s, cat, top(s), buf)
            if n == 0:
                pop(s)
                continue
            if n == 1 and (buf[0] == A_PASS or buf[0] == A_STOP):
                frame_apply(s, cat, buf[0])
                continue
            return
        if s.phase == PH_DEAL:
            s.phase = PH_SETUP
            n = s.num_players
            for i in range(n):
                s.seq[i] = s.order[i]
                s.seq[2 * n - 1 - i] = s.order[i]
            s.n_turns = 2 * n
            s.turn = 0
        elif s.phase == PH_SETUP:
            if s.turn < s.n_turns:
                s.actor = s.seq[s.turn]
                return
            # The setup is not round 1: what its rooms bought (and replaced at once)
            # empties no space of round 1 (rulings.md 43).
            s.taken[0] = 0
            s.taken[1] = 0
            start_round(s)
        elif s.phase == PH_ACTIONS:
            if s.turn < s.n_turns:
                s.actor = s.seq[s.turn]
                return
            s.phase = PH_ORDERS
            purchase_order(s, buf)
            for i in range(s.num_players):
                s.seq[i] = buf[i]
                s.players[i].bought_order = 0
                s.players[i].bought_contract = 0
            s.n_turns = s.num_players
            s.turn = 0
        elif s.phase == PH_ORDERS:
            if s.turn < s.n_turns:
                s.actor = s.seq[s.turn]
                p = &s.players[s.actor]
                if buy_actions(s, cat, not p.bought_order, not p.bought_contract, False, buf, 0) > 0:
                    return
                s.turn += 1
                continue
            start_sequence(s, PH_PRODUCTION)
        elif s.phase == PH_PRODUCTION:
            if s.turn < s.n_turns:
                s.actor = s.seq[s.turn]
                if not s.main_done:
                    s.main_done = 1
                    s.prod_left = s.players[s.actor].capacity
                if production_open(s, cat):
                    return
                pay_wages(s, cat, s.actor)
                s.turn += 1
                s.main_done = 0
                s.prod_left = 0     # nothing left over for the observation (a table has no such number)
                continue
            s.rounds_played += 1
            s.phase = PH_PREPARATION
            s.turn = 0
            s.actor = -1
            if s.max_rounds > 0 and s.rounds_played >= s.max_rounds:
                start_sequence(s, PH_FINAL)
                continue
            preparation(s, cat)
            s.turn = 1
        elif s.phase == PH_PREPARATION:
            if display_count(s.order_display) == 0:
                start_sequence(s, PH_FINAL)     # no orders left: the game ends
                continue
            for seat in range(s.num_players):
                p = &s.players[seat]
                for i in range(N_TRADESMEN):
                    p.upright[i] = 1
                if p.capacity < p.workforce:
                    p.capacity = p.workforce
            start_round(s)
        elif s.phase == PH_FINAL:
            if s.turn < s.n_turns:
                s.actor = s.seq[s.turn]
                return
            s.phase = PH_TERMINAL
        else:
            return


cdef inline bint at_chance(const GameState* s) noexcept nogil:
    return s.deal != DEAL_NONE


include "plain_moves.pxi"   # after_action, chance_run, legal_range, advance_listing: none to shortcut (engine)
include "moves.pxi"         # apply_action, play_random (engine)


cdef enum:
    BAD_NONE = 0
    BAD_RESOURCES = 1      # a resource not conserved (supply + players != 20) or negative
    BAD_MONEY = 2          # marks not conserved (bank + players) or a player's negative
    BAD_TRACK = 3          # workforce, capacity, order track section or a stack off its range
    BAD_FRAMES = 4         # the effect stack at its limit
    BAD_LEGAL = 5          # a decision without legal actions, or chance without outcomes
    BAD_LENGTH = 6         # the game did not end within the bound


cdef int state_bad(const GameState* s, const Catalogue* cat) noexcept nogil:
    """The invariants every state keeps (the core's own check; CoreState.problems() checks
    every component's place besides)."""
    cdef int r, seat, total
    cdef int32_t money = s.bank
    cdef const PlayerState* p
    for r in range(N_RES):
        total = s.supply[r]
        if s.supply[r] < 0:
            return BAD_RESOURCES
        for seat in range(s.num_players):
            total += s.players[seat].res[r]
            if s.players[seat].res[r] < 0:
                return BAD_RESOURCES
        if total != RESOURCE_SUPPLY:
            return BAD_RESOURCES
    for seat in range(s.num_players):
        p = &s.players[seat]
        money += p.marks
        if p.marks < 0:
            return BAD_MONEY
        if not 1 <= p.workforce <= cat.workforce_max or not 0 <= p.capacity < CAP_SPACES:
            return BAD_TRACK
        if not 0 <= p.section <= ORDER_SECTIONS or p.stack_n[0] > MAX_STACK or p.stack_n[1] > MAX_STACK:
            return BAD_TRACK
        if markers_left(p) < 0:
            return BAD_TRACK
    if money != BANK:
        return BAD_MONEY
    if s.n_frames >= MAX_FRAMES:
        return BAD_FRAMES
    return BAD_NONE


cdef int check_random_game(GameState* s, const Catalogue* cat, Rng* rng, int max_length,
                           int* length) noexcept nogil:
    """Play a uniformly random game, checking the invariants after every step; the first
    failure (BAD_*) or BAD_NONE."""
    cdef int buf[MAX_LEGAL]
    cdef int n, bad
    length[0] = 0
    while s.phase != PH_TERMINAL:
        if s.deal != DEAL_NONE:
            apply_action(s, cat, sample_chance(s, cat, rng))
        else:
            n = legal_actions(s, cat, buf)
            if n <= 0:
                return BAD_LEGAL
            apply_action(s, cat, buf[rng_below(rng, n)])
        length[0] += 1
        bad = state_bad(s, cat)
        if bad != BAD_NONE:
            return bad
        if length[0] > max_length:
            return BAD_LENGTH
    return BAD_NONE


# ---------------------------------------------------------------------------------------
# The end of the game: ranking and returns.
# ---------------------------------------------------------------------------------------
cdef int winners_of(const GameState* s, const double* scores, bint* win) noexcept nogil:
    """Marks the winners by `scores` and returns how many share the win: the most points;
    a tie goes to the most completed orders, then to the most cash; still tied, they
    share."""
    cdef int seat, k = 0
    cdef double best = -1e18, key
    cdef double keys[MAX_SEATS]
    for seat in range(s.num_players):
        key = scores[seat] * 1e6 + popcount64(s.players[seat].completed) * 1e4 + s.players[seat].marks
        keys[seat] = key
        if key > best:
            best = key
    for seat in range(MAX_SEATS):
        win[seat] = False
    for seat in range(s.num_players):
        win[seat] = keys[seat] == best
        k += win[seat]
    return k


include "scoring.pxi"   # final_scores_double, winners, returns_of (engine)

include "hidden.pxi"


cdef void init_state(GameState* s, const Catalogue* cat, int players, int max_rounds,
                     bint factory_tops) noexcept nogil:
    """The state before the first setup draw: seat 0 is the first player. factory_tops:
    the factory piles lie face up (their tops are dealt into view with the setup)."""
    cdef int seat, i, k, lv
    cdef PlayerState* p
    memset(s, 0, sizeof(GameState))
    s.num_players = players
    s.num_seats = players
    s.max_rounds = max_rounds
    s.factory_tops = factory_tops
    s.phase = PH_DEAL
    s.actor = -1
    s.deal = DEAL_NONE
    s.bank = BANK
    for i in range(N_RES):
        s.supply[i] = RESOURCE_SUPPLY
    s.letter_pile = bit(N_LETTER_TILES) - 1
    s.letter_top = -1
    s.tile_pile = bit(N_TILES) - 1
    s.tech_pile = bit(N_TECHS) - 1
    s.factory_pile = bit(N_FACTORIES) - 1
    s.order_pile = bit(N_ORDERS) - 1
    s.contract_pile = (1 << N_CONTRACTS) - 1
    s.disc_pile = (1 << N_DISCS) - 1
    for lv in range(N_LEVELS):
        s.orders_left[lv] = popcount64(level_orders(cat, lv)) - REMOVED_ORDERS[players]
        for i in range(TECH_ROWS):
            s.tech_face[lv][i] = -1
        for i in range(PER_LEVEL_TECHS):
            s.tech_bottom[lv][i] = -1
        for i in range(PER_LEVEL_FACTORIES):
            s.factory_bottom[lv][i] = -1
        s.factory_top[lv] = -1
    for i in range(N_TABLE):
        s.table[i] = -1
    for i in range(N_FACE_TILES):
        s.face_tiles[i] = -1
    for i in range(3):
        s.drawn[i] = -1
    for i in range(N_DISPLAY):
        s.order_display[i] = -1
        s.contract_display[i] = -1
    s.refill_display = 1
    for i in range(MAX_CITIES):
        s.city_disc[i] = -1
    for i in range(cat.n_cities):
        s.discs_due += cat.city_kind[i] == CITY_GREY
    for i in range(N_STREETS):
        s.street_owner[i] = -1
        s.street_kind[i] = -1
    s.start_letters_due = players
    for seat in range(MAX_SEATS):
        p = &s.players[seat]
        s.order[seat] = seat if seat < players else -1
        p.wf_street[0] = -1
        p.wf_street[1] = -1
        for k in range(N_STACKS):
            for i in range(MAX_STACK):
                p.stack[k][i] = -1
        for i in range(N_STICK):
            p.stick[i] = -1
            p.stick_disc[i] = -1
        for i in range(N_SLOTS):
            p.slot_contract[i] = -1
        for i in range(N_CONTRACTS):
            p.contract_letter[i] = -1
        for i in range(N_SPACES):
            p.up[i] = -1
            p.down[i] = -1
        for i in range(N_WAITING):
            p.waiting[i] = -1
        for i in range(N_STAGES):
            p.stage[i] = -1
        for i in range(N_TRADESMEN):
            p.pos[i] = -1
            p.room[i] = -1
        if seat >= players:
            continue
        p.workforce = 1
        p.capacity = 1
        p.assistants = (1 << N_ASSISTANTS) - 1
        p.agent = cat.mainz
        p.section = 0
        p.track_slot = seat
    advance(s, cat)

include "search_hooks.pxi"
include "api.pxi"
include "heuristic.pxi"
include "engine/search.pxi"
include "spiel.pxi"
