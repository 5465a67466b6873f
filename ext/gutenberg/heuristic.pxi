# Gutenberg's heuristic (included by core.pyx, before the shared search):
#
#   heuristic_choice   a fast player written from the rules, also the rollout policy
#   action_values      its value of each legal move: the search's priors
#   evaluate           projected final fame per seat, for rollout cut-offs
#
# All of it runs without the GIL. The search itself is ext/engine/search.pxi, written
# once for every game; search_hooks.pxi tells it what it needs of Gutenberg.

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.math cimport sqrt, log, exp, fabs
from libc.stdint cimport int32_t, int64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

# =======================================================================================
# The heuristic player.
#
# Every legal action gets a value in fame points (what it is expected to bring by the end
# of the game, roughly) and the best one is played; plans are chosen by scoring every
# allocation of the markers against the value of acting at each row. The numbers are
# judgement, kept in one place per idea so they can be tuned.
# =======================================================================================
cdef double HEURISTIC_EPSILON = 0.03   # chance of a uniformly random move (rollout diversity)
cdef double PLAN_NOISE = 0.25          # relative noise on the row values when planning
cdef double USE_FIRST = 100.0          # free actions worth doing come before the main choice

# Weight of markers on a row: acting at all counts most, more markers act earlier.
cdef double MARKER_WEIGHT[7]
for _i, _w in enumerate((0.0, 1.0, 1.3, 1.45, 1.55, 1.62, 1.67)):
    MARKER_WEIGHT[_i] = _w
del _i, _w

ctypedef struct Needs:
    int letters[N_LETTERS]   # types missing to print the held order that needs most of each
    int inks[N_INKS]         # inks the held orders' colour parts ask for beyond those held
    int orders               # orders held
    # Values the same for every move of one decision, computed once when first asked for
    # (the moves of a decision share them: the specialty cards' uses, the orders):
    double level[N_SPECIALTIES][2]   # level_value at each specialty's level and one above
    int known_levels                 # bit 2j+n: level[j][n] is computed
    double worst_held                # worst_held_value
    bint known_worst
    int swap_may_gain                # Plantin: -1 not yet known, else whether a swap can gain


cdef inline int rounds_left(const GameState* s) noexcept nogil:
    """Rounds still to come after this one (all of them during setup)."""
    cdef int left = s.rounds - s.round
    return left if left > 0 else 0


cdef inline int chances_left(const GameState* s) noexcept nogil:
    """Rounds in which inks and levels can still be gathered before a fulfil step: this
    one too while its actions are not all done."""
    return rounds_left(s) + (1 if s.phase <= PH_TURN else 0)


cdef inline double guilder_value(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    # At the end 3 guilders make a fame point (Vietor's count twice: rulebook p.23);
    # before that they also buy types and inks.
    return 0.34 * guilder_point_fame(cat, p) + 0.06 * rounds_left(s)


cdef inline double dmax(double a, double b) noexcept nogil:
    return a if a > b else b


cdef void player_needs(const Catalogue* cat, const PlayerState* p, Needs* nd) noexcept nogil:
    cdef int k, i, v, w
    cdef const PrintingCard* pc
    cdef const RefinementCard* r
    for i in range(4):
        nd.letters[i] = 0
        nd.inks[i] = -p.inks[i]
    nd.orders = 0
    nd.known_levels = 0
    nd.known_worst = False
    nd.swap_may_gain = -1
    for k in range(MAX_ORDERS):
        if p.order_printing[k] < 0:
            continue
        nd.orders += 1
        pc = &cat.printing[p.order_printing[k]]
        r = &cat.refinement[p.order_refinement[k]]
        for i in range(4):
            v = pc.letters[i] - p.types[i]
            if v > nd.letters[i]:
                nd.letters[i] = v
            nd.inks[i] += r.inks[i]
    w = p.wild_ink
    if w >= 0:
        # Caxton's spare inks of this round's wild colour stand in for the others'.
        for i in range(N_INKS):
            if i != w and nd.inks[i] > 0 and nd.inks[w] < 0:
                v = nd.inks[i] if nd.inks[i] < -nd.inks[w] else -nd.inks[w]
                nd.inks[i] -= v
                nd.inks[w] += v


cdef inline int ink_short(const PlayerState* p, const int16_t* need) noexcept nogil:
    """The inks missing for `need` (per colour), Caxton's wild colour this round standing
    in for the others once its own part is paid (as the rules' inks_cover)."""
    cdef int c, w = p.wild_ink, short = 0, spare
    for c in range(N_INKS):
        if c != w and need[c] > p.inks[c]:
            short += need[c] - p.inks[c]
    if w < 0:
        return short
    spare = p.inks[w] - need[w]
    if spare < 0:
        return short - spare
    return short - spare if short > spare else 0


cdef double reward_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                         int kind, int amount) noexcept nogil:
    if kind == REWARD_INK:
        return 1.0 * amount
    if kind == REWARD_GUILDERS:
        return guilder_value(s, cat, p) * amount
    if kind == REWARD_FAME:
        return 1.0 * amount
    if kind == REWARD_SPECIALTY:
        return 1.5 * amount
    if kind == REWARD_ORDER:
        return (2.0 if rounds_left(s) > 0 else 0.5) * amount
    if kind == REWARD_TYPE:
        return 1.5 * amount
    return 0.0


cdef double order_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                        int x, int y) noexcept nogil:
    """The order (printing x, refinement y) in the hands of player p: guilders for
    printing less the types to buy, each refinement part if its inks and levels are
    within reach, and the completion reward."""
    cdef const PrintingCard* pc = &cat.printing[x]
    cdef const RefinementCard* r = &cat.refinement[y]
    cdef double g = guilder_value(s, cat, p), v
    cdef int i, missing = 0, short = ink_short(p, r.inks), gap = 0, inks = 0, letters = 0, cost, owned
    cdef int decoration = 0
    cdef int chances = chances_left(s)
    # Fiol takes the completion reward for one refinement part alone (rulebook p.23).
    cdef bint fiol = p.character == CH_FIOL
    owned = total4(p.types)
    for i in range(4):
        letters += pc.letters[i]
        if pc.letters[i] > p.types[i]:
            missing += pc.letters[i] - p.types[i]
        inks += r.inks[i]
        decoration += r.levels[i]
        if r.levels[i] > p.levels[i]:
            gap += r.levels[i] - p.levels[i]
    if s.phase == PH_DRAFT:
        # Types are chosen after the draft: three of them will fit.
        missing = letters - 3 if letters > 3 else 0
        owned = 3
    # Buying your n-th type costs n guilders; types stay, so they count a bit less.
    cost = missing * (owned + 1) + missing * (missing - 1) // 2
    v = g * (pc.guilders - 0.7 * cost)
    if cost > p.guilders + 5 * chances:
        v -= 2.0
    if inks > 0:
        if short == 0:
            v += r.colour_fame
        elif chances > 0:
            v += dmax(0.0, r.colour_fame - 1.3 * short)
    if gap == 0:
        v += r.decoration_fame
    elif gap <= 2 * chances:
        v += dmax(0.0, r.decoration_fame * (1.0 - 0.3 * gap))
    if (short == 0 and gap == 0) or (fiol and ((inks > 0 and short == 0) or (decoration > 0 and gap == 0))):
        v += reward_value(s, cat, p, r.reward, r.reward_amount)
    elif chances > 0 and (short + gap <= 2 or (fiol and ((inks > 0 and short <= 1)
                                                          or (decoration > 0 and gap <= 2)))):
        v += 0.5 * reward_value(s, cat, p, r.reward, r.reward_amount)
    return v


cdef double held_order_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                             int k) noexcept nogil:
    return order_value(s, cat, p, p.order_printing[k], p.order_refinement[k])


cdef double worst_held_value(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    cdef int k
    cdef double v, worst = 1e9
    for k in range(MAX_ORDERS):
        if p.order_printing[k] >= 0:
            v = held_order_value(s, cat, p, k)
            if v < worst:
                worst = v
    return worst if worst < 1e9 else 0.0


cdef double worst_held(const GameState* s, const Catalogue* cat, const PlayerState* p,
                       Needs* nd) noexcept nogil:
    """worst_held_value, computed once for a decision."""
    if not nd.known_worst:
        nd.worst_held = worst_held_value(s, cat, p)
        nd.known_worst = True
    return nd.worst_held


cdef double new_order_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                            Needs* nd, int x, int y) noexcept nogil:
    """A new order; with four held, one of them goes to make room."""
    cdef double v = order_value(s, cat, p, x, y)
    if held_orders(p) >= MAX_ORDERS:
        v -= worst_held(s, cat, p, nd)
    return v


cdef double level_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                        int j, int level) noexcept nogil:
    """Raising specialty j from `level` one step: end scoring, the reward track, the
    decorations of held orders, patronage cards on the board, and future orders."""
    cdef double v, g = guilder_value(s, cat, p)
    cdef int k, i, gap, x
    cdef int chances = chances_left(s)
    cdef const RefinementCard* r
    cdef const PatronageCard* pc
    if level >= MAX_LEVEL:
        return cat.overflow_guilders * g
    v = cat.specialty_points[level + 1] - cat.specialty_points[level]
    if p.track < N_TRACK and level + 1 >= cat.track_level[p.track]:
        v += reward_value(s, cat, p, cat.track_reward[p.track].kind, cat.track_reward[p.track].amount)
    for k in range(MAX_ORDERS):
        if p.order_printing[k] < 0:
            continue
        r = &cat.refinement[p.order_refinement[k]]
        if r.levels[j] > level:
            gap = 0
            for i in range(4):
                if r.levels[i] > p.levels[i]:
                    gap += r.levels[i] - p.levels[i]
            if gap < 1:
                gap = 1
            v += r.decoration_fame / <double>gap * (1.0 if gap <= 2 * chances else 0.3)
    for i in range(N_PATRONAGE_SPACES):
        x = s.patronage_space[i]
        if x < 0:
            continue
        pc = &cat.patronage[x]
        if pc.levels[j] > level:
            gap = 0
            for k in range(4):
                if pc.levels[k] > p.levels[k]:
                    gap += pc.levels[k] - p.levels[k]
            if gap <= 3:
                v += 2.5 / gap
    if chances > 0:
        v += 0.4 if level < 4 else 0.2
    return v


cdef double level_value_at(const GameState* s, const Catalogue* cat, const PlayerState* p,
                           Needs* nd, int j, int level) noexcept nogil:
    """level_value, computed once for a decision at a specialty's level and one above."""
    cdef int n = level - p.levels[j]
    if n < 0 or n > 1:
        return level_value(s, cat, p, j, level)
    if not (nd.known_levels >> (2 * j + n)) & 1:
        nd.level[j][n] = level_value(s, cat, p, j, level)
        nd.known_levels |= 1 << (2 * j + n)
    return nd.level[j][n]


cdef double best_level_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                             Needs* nd) noexcept nogil:
    cdef int j
    cdef double v, best = 0.0
    for j in range(N_SPECIALTIES):
        v = level_value_at(s, cat, p, nd, j, p.levels[j])
        if v > best:
            best = v
    return best


cdef double ink_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                      const Needs* nd, int c, int already) noexcept nogil:
    """One more ink of colour c (`already` of them taken in the same move)."""
    cdef int i, x
    if nd.inks[c] - already > 0:
        return 1.6
    if chances_left(s) == 0:
        return 0.0
    for i in range(N_PATRONAGE_SPACES):
        x = s.patronage_space[i]
        if x >= 0 and cat.patronage[x].inks[c] > p.inks[c] + already:
            return 0.7
    return 0.35


cdef double best_ink_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                           const Needs* nd) noexcept nogil:
    cdef int c
    cdef double v, best = -1.0
    for c in range(N_INKS):
        if s.bag[c] > 0:
            v = ink_value(s, cat, p, nd, c, 0)
            if v > best:
                best = v
    return best


cdef double letter_value(const Needs* nd, int l) noexcept nogil:
    """One more type of letter l."""
    return 2.0 if nd.letters[l] > 0 else 0.4


cdef double letter_keep_value(const Catalogue* cat, const PlayerState* p, int l) noexcept nogil:
    """What giving up one type of letter l costs: a type that prints a held order counts."""
    cdef int k
    for k in range(MAX_ORDERS):
        if p.order_printing[k] >= 0 and cat.printing[p.order_printing[k]].letters[l] >= p.types[l]:
            return 2.0
    return 0.3


cdef double ink_keep_value(const PlayerState* p, const Needs* nd, int c) noexcept nogil:
    return 1.6 if nd.inks[c] >= 0 else 0.3


cdef double sector_value(const GameState* s, int kind) noexcept nogil:
    """A gear sector's reward for one round, on average."""
    if kind == GEAR_ROUND_FAME:
        return s.round + 1.0
    if kind == GEAR_ORDER:
        return 2.0
    if kind == GEAR_LOWEST_SPECIALTY or kind == GEAR_SPECIALTY_UP:
        return 1.6
    if kind == GEAR_SELL_TYPE or kind == GEAR_COLOUR_FAME or kind == GEAR_TYPE_FAME:
        return 1.2
    if kind == GEAR_GAIN_INK or kind == GEAR_TYPE_DISCOUNT or kind == GEAR_DECORATION_FAME:
        return 1.0
    if kind == GEAR_INK_TRADE:
        return 0.8
    return 0.6    # ink swap, type swap


cdef double gear_value(const GameState* s, const Catalogue* cat, int gear, int active, int pos) noexcept nogil:
    """A gear installed at `pos` with sector `active` now: its sectors over this round
    and the rounds left, as Turn Gears moves them (position 1 and 3 one step, 2 two)."""
    cdef int t, step = 1 if pos % 2 == 0 else 2
    cdef double sectors[N_SECTORS]
    cdef double v = 0.0
    for t in range(N_SECTORS):
        sectors[t] = sector_value(s, cat.gears[gear].sectors[t].kind)
    for t in range(rounds_left(s) + 1):
        v += sectors[(active + step * t) % N_SECTORS]
    return v


cdef double best_place_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                             int gear, int* best_pos, int* best_o) noexcept nogil:
    """Where a taken gear goes best (with three installed it replaces an unused one)."""
    cdef int k = installed(p), pos, o
    cdef double v, old, best = -1e9
    best_pos[0] = -1
    best_o[0] = 0
    for pos in range(MAX_INSTALLED):
        if place_open(p, k, pos):
            old = gear_value(s, cat, p.gear[pos], p.gear_active[pos], pos) if p.gear[pos] >= 0 else 0.0
            for o in range(N_SECTORS):
                v = gear_value(s, cat, gear, o, pos)
                if p.gear[pos] >= 0:
                    v -= old
                if v > best:
                    best = v
                    best_pos[0] = pos
                    best_o[0] = o
    return best


cdef double gear_use_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                           const Needs* nd, int pos) noexcept nogil:
    """Using the active sector of the gear at `pos` now (negative: better not)."""
    cdef int kind = gear_kind(cat, p, pos), mask = gear_mask(cat, p, pos), c, l
    cdef bint surplus = False, wanted = False
    if kind == GEAR_ROUND_FAME:
        return s.round
    if kind == GEAR_LOWEST_SPECIALTY or kind == GEAR_SPECIALTY_UP:
        return 1.0
    if kind == GEAR_GAIN_INK:
        return 0.5
    if kind == GEAR_ORDER:
        return 1.0 if held_orders(p) < MAX_ORDERS and rounds_left(s) > 0 else -1.0
    if is_fulfil_gear(kind):
        return 2.0
    if kind == GEAR_INK_TRADE:
        return 1.0 if nd.inks[mask_index(mask)] < 0 else -1.0
    if kind == GEAR_INK_SWAP:
        for c in range(N_INKS):
            if p.inks[c] > 0 and nd.inks[c] < 0:
                surplus = True
            if nd.inks[c] > 0 and s.bag[c] > 0:
                wanted = True
        return 1.0 if surplus and wanted else -1.0
    if kind == GEAR_TYPE_SWAP or kind == GEAR_SELL_TYPE:
        for l in range(N_LETTERS):
            if p.types[l] > 0 and letter_keep_value(cat, p, l) < 1.0:
                surplus = True
            if nd.letters[l] > 0:
                wanted = True
        if kind == GEAR_SELL_TYPE:
            return 1.0 if surplus else -1.0
        return 1.0 if surplus and wanted else -1.0
    if kind == GEAR_TYPE_DISCOUNT:
        for l in range(N_LETTERS):
            if mask & (1 << l) and nd.letters[l] > 0:
                return 1.0
        return -1.0
    return -1.0


cdef double patron_reward_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                                Needs* nd, int k) noexcept nogil:
    cdef int kind = cat.patronage_rewards[k].kind, amount = cat.patronage_rewards[k].amount
    if kind == REWARD_SPECIALTY:
        return best_level_value(s, cat, p, nd) * amount
    if kind == REWARD_INK:
        return dmax(0.0, best_ink_value(s, cat, p, nd)) * amount
    if kind == REWARD_ORDER and held_orders(p) >= MAX_ORDERS:
        return 0.3
    return reward_value(s, cat, p, kind, amount)


cdef double patron_card_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                              const Needs* nd, int x) noexcept nogil:
    # The card's points, less the inks it sends back to the bag.
    cdef int c
    cdef double v = cat.patronage_points
    for c in range(N_INKS):
        if cat.patronage[x].inks[c] > 0:
            v -= cat.patronage[x].inks[c] * ink_keep_value(p, nd, c) * 0.5
    return v


cdef double specialty_use_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                                Needs* nd, int x, int use) noexcept nogil:
    """Specialty card x used for its icons (use 0) or for +1 to specialty use-1."""
    cdef int j, n
    cdef double v = 0.0
    if use > 0:
        return level_value_at(s, cat, p, nd, use - 1, p.levels[use - 1])
    for j in range(N_SPECIALTIES):
        for n in range(cat.specialty[x].icons[j]):
            v += level_value_at(s, cat, p, nd, j, p.levels[j] + n)
    return v


cdef double ink_take_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                           const Needs* nd, int space, int k) noexcept nogil:
    """Taking the first k inks still on ink space `space`, each at its position's price."""
    cdef int pos, c, taken[4]
    cdef double v = 0.0
    taken[0] = taken[1] = taken[2] = taken[3] = 0
    for pos in range(INK_SET):
        c = s.ink_space[space][pos]
        if k > 0 and c >= 0:
            v += ink_value(s, cat, p, nd, c, taken[c]) - pos * guilder_value(s, cat, p)
            taken[c] += 1
            k -= 1
    return v


cdef double best_pair_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                            Needs* nd, int x, const int16_t* refinements, int n) noexcept nogil:
    """Printing card x with the best of the refinement cards listed (-1 entries skipped),
    as a new order (new_order_value)."""
    cdef int i
    cdef double v, best = -1e9
    for i in range(n):
        if refinements[i] >= 0:
            v = order_value(s, cat, p, x, refinements[i])
            if v > best:
                best = v
    if held_orders(p) >= MAX_ORDERS:
        best -= worst_held(s, cat, p, nd)
    return best


cdef int mask_cards(uint64_t m, int16_t* out) noexcept nogil:
    cdef int n = 0
    while m:
        out[n] = ctz64(m)
        n += 1
        m &= m - 1
    return n


cdef double type_set_value(const Catalogue* cat, const PlayerState* p, int k) noexcept nogil:
    """The setup's 3 types: cover the letters of the drafted orders."""
    cdef int have[4], i, l, most, total, kk
    cdef double v = 0.0
    have[0] = have[1] = have[2] = have[3] = 0
    for i in range(3):
        have[TYPE_SET[k][i]] += 1
    for l in range(4):
        most = 0
        total = 0
        for kk in range(MAX_ORDERS):
            if p.order_printing[kk] >= 0:
                i = cat.printing[p.order_printing[kk]].letters[l]
                total += i
                if i > most:
                    most = i
        v += 10.0 * (have[l] if have[l] < most else most)
        v += 1.0 * (have[l] if have[l] < total else total)
    return v


cdef int buy_target(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """A letter worth buying now: the first missing letter of the most valuable held order
    whose missing letters are all affordable, if its value pays for them; else -1."""
    cdef int k, l, missing, cost, owned = total4(p.types), letter, best_letter = -1
    cdef double v, best = 0.0, g = guilder_value(s, cat, p)
    cdef const PrintingCard* pc
    for k in range(MAX_ORDERS):
        if p.order_printing[k] < 0:
            continue
        pc = &cat.printing[p.order_printing[k]]
        missing = 0
        letter = -1
        for l in range(N_LETTERS):
            if pc.letters[l] > p.types[l]:
                missing += pc.letters[l] - p.types[l]
                if letter < 0:
                    letter = l
        if missing == 0:
            continue
        cost = missing * (owned + 1) + missing * (missing - 1) // 2
        if cost > p.guilders:
            continue
        v = held_order_value(s, cat, p, k) - 0.7 * g * cost
        if v > best:
            best = v
            best_letter = letter
    return best_letter


cdef double fulfil_mode_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                              int k, int mode) noexcept nogil:
    """Fulfilling held order k now in `mode`; skipping keeps it for a later round."""
    cdef const PrintingCard* pc = &cat.printing[p.order_printing[k]]
    cdef const RefinementCard* r = &cat.refinement[p.order_refinement[k]]
    cdef double v, g = guilder_value(s, cat, p)
    cdef int i, short = 0, gap = 0
    # Fiol takes the completion reward for one refinement part alone (rulebook p.23).
    cdef bint fiol = p.character == CH_FIOL
    if mode == FULFIL_SKIP:
        if rounds_left(s) == 0:
            return 0.0
        # Worth keeping if a missing part is one ink or one level away.
        short = ink_short(p, r.inks)
        for i in range(4):
            if r.levels[i] > p.levels[i]:
                gap += r.levels[i] - p.levels[i]
        v = g * pc.guilders
        if short <= 1:
            v += r.colour_fame
        if gap <= 1:
            v += r.decoration_fame
        if (short <= 1 and gap <= 1) or (fiol and (short <= 1 or gap <= 1)):
            v += reward_value(s, cat, p, r.reward, r.reward_amount)
        return 0.55 * v
    v = g * pc.guilders
    if mode == FULFIL_COLOUR or mode == FULFIL_BOTH:
        v += r.colour_fame
    if mode == FULFIL_DECORATION or mode == FULFIL_BOTH:
        v += r.decoration_fame
    if mode == FULFIL_BOTH or (fiol and (mode == FULFIL_COLOUR or mode == FULFIL_DECORATION)):
        v += reward_value(s, cat, p, r.reward, r.reward_amount)
    return v


cdef double pending_value(const GameState* s, const Catalogue* cat, Needs* nd, int a) noexcept nogil:
    """A decision on the first pending reward or gear effect."""
    cdef const Pending* q = &s.pending[0]
    cdef const PlayerState* p = &s.players[q.seat]
    cdef int16_t cards[N_REFINEMENT]
    cdef int n, x
    cdef double best
    if a == A_PASS:
        if q.kind == PD_ORDER or q.kind == PD_SHIFT:
            return 0.0
        return -1.0    # rewards of choice are never declined
    if q.kind == PD_SHIFT:
        return shift_value(s, cat, q.seat, a)
    if q.kind == PD_CAXTON:
        return wild_value(cat, p, a - A_INK)
    if q.kind == PD_GUILLARD:
        # Guillard's gears at setup (rulebook p.23): each as it would turn from where it
        # goes, the next free position.
        x = installed(p)
        if q.stage == 1:
            best = -1e9
            for n in range(N_SECTORS):
                best = dmax(best, gear_value(s, cat, a - A_GEAR, n, x))
            return best
        return gear_value(s, cat, q.arg, (a - A_PLACE) % N_SECTORS, x)
    if q.kind == PD_INK:
        return ink_value(s, cat, p, nd, a - A_INK, 0)
    if q.kind == PD_SPECIALTY or q.kind == PD_LOWEST:
        x = a - A_SPECIALTY_UP
        return level_value(s, cat, p, x, p.levels[x])
    if q.kind == PD_TYPE or q.kind == PD_TYPE_DISCOUNT:
        return letter_value(nd, a - A_LETTER)
    if q.kind == PD_ORDER:
        if q.stage == 1:
            n = mask_cards(s.pool_refinement, cards)
            if A_PRINTING <= a < A_REFINEMENT:
                return best_pair_value(s, cat, p, nd, a - A_PRINTING, cards, n)
            # Paying for more cards: when what was drawn is poor.
            best = -1e9
            x = 0
            while x < N_PRINTING:
                if s.pool_printing & bit(x):
                    best = dmax(best, best_pair_value(s, cat, p, nd, x, cards, n))
                x += 1
            return 1.0 - REDRAW_COST * guilder_value(s, cat, p) if best < 1.0 else -1.0
        if q.stage == 2:
            return new_order_value(s, cat, p, nd, q.arg, a - A_REFINEMENT)
        # Four held: an order gives way, before the draw, for what a drawn order is worth.
        return reward_value(s, cat, p, REWARD_ORDER, 1) - held_order_value(s, cat, p, a - A_DISCARD)
    if q.kind == PD_INK_SWAP:
        if q.stage == 0:
            return -ink_keep_value(p, nd, a - A_INK)
        return ink_value(s, cat, p, nd, a - A_INK, 0)
    if q.kind == PD_TYPE_SWAP or q.kind == PD_SELL_TYPE:
        if q.stage == 0:
            return -letter_keep_value(cat, p, a - A_LETTER)
        if q.kind == PD_TYPE_SWAP:
            return letter_value(nd, a - A_LETTER)
        if a == A_SELL_FAME:
            return SELL_TYPE_FAME
        return SELL_TYPE_GUILDERS * guilder_value(s, cat, p)
    return 0.0


cdef double wild_value(const Catalogue* cat, const PlayerState* p, int w) noexcept nogil:
    """Caxton's wild colour for the round (rulebook p.23): the inks of colour w held
    beyond what his orders ask of w, as far as they cover the other colours' shortfall;
    then the most held (the likeliest spare later in the round)."""
    cdef int need[N_INKS]
    cdef int c, k, short = 0, spare
    for c in range(N_INKS):
        need[c] = 0
    for k in range(MAX_ORDERS):
        if p.order_printing[k] >= 0:
            for c in range(N_INKS):
                need[c] += cat.refinement[p.order_refinement[k]].inks[c]
    for c in range(N_INKS):
        if c != w and need[c] > p.inks[c]:
            short += need[c] - p.inks[c]
    spare = p.inks[w] - need[w]
    if spare < 0:
        spare = 0
    return 1.6 * (spare if spare < short else short) + 0.1 * p.inks[w]


cdef inline bint levels_meet(const int16_t* need, const int16_t* levels) noexcept nogil:
    """Whether specialty `levels` reach every level of `need` (a decoration, a patronage card)."""
    cdef int t
    for t in range(N_SPECIALTIES):
        if need[t] > levels[t]:
            return False
    return True


cdef double swap_value(const GameState* s, const Catalogue* cat, const PlayerState* p, int a) noexcept nogil:
    """Plantin's swap of two specialty levels (rulebook p.23), worth what it changes now:
    the decorations of held orders it brings within reach or puts out of it, and the
    patronage cards on the board whose levels it meets or misses (the end scoring counts
    the same levels either way)."""
    cdef int i = (a - A_SWAP) // N_SPECIALTIES, j = (a - A_SWAP) % N_SPECIALTIES, k, t, x
    cdef int16_t after[N_SPECIALTIES]
    cdef double v = 0.0
    cdef const RefinementCard* r
    for t in range(N_SPECIALTIES):
        after[t] = p.levels[t]
    after[i] = p.levels[j]
    after[j] = p.levels[i]
    for k in range(MAX_ORDERS):
        if p.order_printing[k] >= 0:
            r = &cat.refinement[p.order_refinement[k]]
            v += r.decoration_fame * (levels_meet(r.levels, after) - levels_meet(r.levels, p.levels))
    for k in range(N_PATRONAGE_SPACES):
        x = s.patronage_space[k]
        if x >= 0:
            v += 0.5 * cat.patronage_points * (levels_meet(cat.patronage[x].levels, after)
                                               - levels_meet(cat.patronage[x].levels, p.levels))
    return v


cdef bint swap_may_gain(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """Whether any swap can gain (swap_value): a held order's decoration or a patronage
    card on the board asks for a level he does not have."""
    cdef int k, x
    for k in range(MAX_ORDERS):
        if p.order_printing[k] >= 0 and not levels_meet(cat.refinement[p.order_refinement[k]].levels, p.levels):
            return True
    for k in range(N_PATRONAGE_SPACES):
        x = s.patronage_space[k]
        if x >= 0 and not levels_meet(cat.patronage[x].levels, p.levels):
            return True
    return False


cdef inline double swap_choice_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                                     Needs* nd, int a) noexcept nogil:
    """A swap as a free action: before anything else if it gains something now (it is
    once a round, so a swap for nothing would only spend it). Whether any swap can gain
    is asked once a decision: mostly none can, and then none is scored."""
    cdef double v
    if nd.swap_may_gain < 0:
        nd.swap_may_gain = swap_may_gain(s, cat, p)
    if not nd.swap_may_gain:
        return -1.0
    v = swap_value(s, cat, p, a)
    return USE_FIRST + v if v > 0.5 else -1.0


cdef double turn_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                       Needs* nd, int a) noexcept nogil:
    """A decision in a turn at one of the five actions."""
    cdef int pos, o, best_pos, best_o
    cdef double v
    if s.sub == SUB_REFINEMENT:
        return new_order_value(s, cat, p, nd, s.sub_card, a - A_REFINEMENT)
    if s.sub == SUB_DISCARD:
        return -held_order_value(s, cat, p, a - A_DISCARD)
    if s.sub == SUB_PLACE:
        pos = (a - A_PLACE) // N_SECTORS
        o = (a - A_PLACE) % N_SECTORS
        v = gear_value(s, cat, s.sub_card, o, pos)
        if p.gear[pos] >= 0:
            v -= gear_value(s, cat, p.gear[pos], p.gear_active[pos], pos)
        return v
    if a == A_PASS:
        return 0.0
    if A_USE_GEAR <= a < A_USE_GEAR + MAX_INSTALLED:
        return gear_choice_value(s, cat, p, nd, a - A_USE_GEAR)
    if A_BUY <= a < A_BUY + N_LETTERS:
        return -1.0    # types are bought in the fulfil turn, where they are known to print
    if A_PRINTING <= a < A_REFINEMENT:
        return best_pair_value(s, cat, p, nd, a - A_PRINTING, s.refinement_space, MAX_SPACES) - 0.5
    if A_INKS <= a < A_SPECIALTY:
        return ink_take_value(s, cat, p, nd, (a - A_INKS) // INK_SET, (a - A_INKS) % INK_SET + 1)
    if A_SPECIALTY <= a < A_GEAR:
        return specialty_use_value(s, cat, p, nd, (a - A_SPECIALTY) // 5, (a - A_SPECIALTY) % 5)
    if A_GEAR <= a < A_PLACE:
        return best_place_value(s, cat, p, a - A_GEAR, &best_pos, &best_o) - 0.5
    if A_REORIENT <= a < A_PATRON_REWARD:
        pos = (a - A_REORIENT) // N_SECTORS
        o = (a - A_REORIENT) % N_SECTORS
        return (gear_value(s, cat, p.gear[pos], o, pos)
                - gear_value(s, cat, p.gear[pos], p.gear_active[pos], pos) - 0.5)
    if A_PATRON_REWARD <= a < A_PATRON_CARD:
        return patron_reward_value(s, cat, p, nd, a - A_PATRON_REWARD)
    if A_PATRON_CARD <= a < A_DISCARD:
        return patron_card_value(s, cat, p, nd, a - A_PATRON_CARD)
    if A_SWAP <= a < A_SWAP + N_SPECIALTIES * N_SPECIALTIES:
        return swap_choice_value(s, cat, p, nd, a)
    return -1.0


cdef double fulfil_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                         Needs* nd, int a, int buy) noexcept nogil:
    """A decision in the fulfil turn: buy a type that prints an order, use gears, choose
    each order's parts."""
    cdef double v
    if A_FULFIL <= a < A_INK:
        return fulfil_mode_value(s, cat, p, (a - A_FULFIL) // 5, (a - A_FULFIL) % 5)
    if A_BUY <= a < A_USE_GEAR:
        return USE_FIRST if a - A_BUY == buy else -1.0
    if A_USE_GEAR <= a < A_PASS:
        return gear_choice_value(s, cat, p, nd, a - A_USE_GEAR)
    if A_SWAP <= a < A_SWAP + N_SPECIALTIES * N_SPECIALTIES:
        return swap_choice_value(s, cat, p, nd, a)
    return 0.0    # done


cdef double window_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                         Needs* nd, int a) noexcept nogil:
    """A free-action window (before the plans, after printing): a gear worth using now,
    else "done" at once. A gear's reward is the same now as later in the round (before
    the plans it can inform them; after printing it is the round's last chance); types
    are bought in the fulfil turn, where they are known to print."""
    if A_USE_GEAR <= a < A_PASS:
        return gear_choice_value(s, cat, p, nd, a - A_USE_GEAR)
    if A_SWAP <= a < A_SWAP + N_SPECIALTIES * N_SPECIALTIES:
        return swap_choice_value(s, cat, p, nd, a)
    return 0.0 if a == A_PASS else -1.0


cdef inline double gear_choice_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                                     const Needs* nd, int pos) noexcept nogil:
    """Using the gear at `pos` as a free action: before anything else if it is worth it."""
    cdef double v = gear_use_value(s, cat, p, nd, pos)
    return USE_FIRST + v if v > 0 else -1.0


# -- plans ------------------------------------------------------------------------------
cdef void row_values(const GameState* s, const Catalogue* cat, int seat, double* d) noexcept nogil:
    """What acting at each row is worth to `seat` with the board as it is (at the plan
    step the board is full)."""
    cdef const PlayerState* p = &s.players[seat]
    cdef Needs nd
    cdef int i, k, x, m
    cdef double v
    player_needs(cat, p, &nd)
    for i in range(N_ROWS):
        d[i] = 0.0
    for i in range(MAX_SPACES):
        if s.printing_space[i] >= 0:
            d[ROW_ORDERS] = dmax(d[ROW_ORDERS],
                                 best_pair_value(s, cat, p, &nd, s.printing_space[i], s.refinement_space, MAX_SPACES))
        for k in range(1, INK_SET + 1):
            if s.ink_space[i][k - 1] >= 0:
                d[ROW_INKS] = dmax(d[ROW_INKS], ink_take_value(s, cat, p, &nd, i, k))
        x = s.specialty_space[i]
        if x >= 0:
            for m in range(5):
                if develop_use_open(cat, x, m):
                    d[ROW_SPECIALTIES] = dmax(d[ROW_SPECIALTIES], specialty_use_value(s, cat, p, &nd, x, m))
        x = s.gear_space[i]
        if x >= 0:
            d[ROW_GEARS] = dmax(d[ROW_GEARS], best_place_value(s, cat, p, x, &k, &m))
    for k in range(N_PATRONAGE_REWARDS):
        if patron_reward_open(s, k):
            d[ROW_PATRONAGE] = dmax(d[ROW_PATRONAGE], patron_reward_value(s, cat, p, &nd, k))
    for i in range(N_PATRONAGE_SPACES):
        if patronage_open(s, cat, p, i):
            d[ROW_PATRONAGE] = dmax(d[ROW_PATRONAGE], patron_card_value(s, cat, p, &nd, s.patronage_space[i]))
    for i in range(N_ROWS):
        # Leftover markers still go somewhere: a turn can always be passed.
        d[i] = dmax(d[i], 0.05)


cdef int plan_scores(const double* d, int m, double* score) noexcept nogil:
    """score[i]: the value of plan PLAN_START[m] + i, the sum over the rows of d[row]
    times MARKER_WEIGHT[markers on it] (added row by row, top to bottom). The plans are
    enumerated in the table's order (build_tables) and the partial sums of the first rows
    shared between them: a few additions a plan. Returns the number of plans."""
    cdef double w[N_ROWS][MAX_ROW + 1]
    cdef double va, vb, vc
    cdef int i, a, b, c, left, n = 0
    for i in range(N_ROWS):
        for a in range(MAX_ROW + 1):
            w[i][a] = d[i] * MARKER_WEIGHT[a]
    for a in range(imin(MAX_ROW, m) + 1):
        va = 0.0 + w[0][a]
        for b in range(imin(MAX_ROW, m - a) + 1):
            vb = va + w[1][b]
            for c in range(imin(MAX_ROW, m - a - b) + 1):
                vc = vb + w[2][c]
                left = m - a - b - c    # on the last two rows, at most MAX_ROW each
                for i in range(imax(0, left - MAX_ROW), imin(MAX_ROW, left) + 1):
                    score[n] = (vc + w[3][i]) + w[4][left - i]
                    n += 1
    return n


cdef double shift_value(const GameState* s, const Catalogue* cat, int seat, int a) noexcept nogil:
    """Gutenberg's shift of one marker after the plans are revealed (rulebook p.23): what
    the plan's score (plan_scores) gains with the board as it is, a little less, so that
    a shift for nothing is passed."""
    cdef double d[N_ROWS]
    cdef const PlayerState* p = &s.players[seat]
    cdef int x = (a - A_SHIFT) // N_ROWS, k = (a - A_SHIFT) % N_ROWS
    row_values(s, cat, seat, d)
    return (d[k] * (MARKER_WEIGHT[p.plan[k] + 1] - MARKER_WEIGHT[p.plan[k]])
            - d[x] * (MARKER_WEIGHT[p.plan[x]] - MARKER_WEIGHT[p.plan[x] - 1]) - 0.01)


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef int PLACINGS[N_ROWS + 1][MAX_MARKERS + 1]   # ways to put l markers on r rows, at most MAX_ROW a row


def _build_placings():
    cdef int r, l, x
    for l in range(MAX_MARKERS + 1):
        PLACINGS[0][l] = 1 if l == 0 else 0
    for r in range(1, N_ROWS + 1):
        for l in range(MAX_MARKERS + 1):
            PLACINGS[r][l] = 0
            for x in range(min(MAX_ROW, l) + 1):
                PLACINGS[r][l] += PLACINGS[r - 1][l - x]


_build_placings()


cdef int best_plan(const GameState* s, const Catalogue* cat, int seat, Rng* rng, double noise) noexcept nogil:
    """The plan with the highest score (plan_scores; ties: the first), found without
    scoring them all: up[r][l], the most rows r.. can add with l markers, bounds what
    each partial plan can reach, and only the plans that can come near the best (within
    far more than the rounding of a sum) are scored, exactly as plan_scores does; the
    others are counted past (PLACINGS)."""
    cdef double d[N_ROWS]
    cdef double w[N_ROWS][MAX_ROW + 1]
    cdef double up[N_ROWS + 1][MAX_MARKERS + 1]
    cdef double best = -1e18, floor, v, va, vb, vc
    cdef int i, r, l, x, a, b, c, la, lb, lc, idx = 0, choice = 0, m = s.players[seat].markers
    row_values(s, cat, seat, d)
    if noise > 0:
        for i in range(N_ROWS):
            d[i] *= 1.0 + noise * (rng_uniform(rng) - 0.5)
    for r in range(N_ROWS):
        for x in range(MAX_ROW + 1):
            w[r][x] = d[r] * MARKER_WEIGHT[x]
    for l in range(m + 1):
        up[N_ROWS][l] = 0.0 if l == 0 else -1e300
    for r in range(N_ROWS - 1, -1, -1):
        for l in range(m + 1):
            up[r][l] = -1e300
            for x in range(imin(MAX_ROW, l) + 1):
                up[r][l] = dmax(up[r][l], w[r][x] + up[r + 1][l - x])
    floor = up[0][m] - 1e-9 * (fabs(up[0][m]) + 1.0)
    for a in range(imin(MAX_ROW, m) + 1):
        la = m - a
        if w[0][a] + up[1][la] < floor:
            idx += PLACINGS[N_ROWS - 1][la]
            continue
        va = 0.0 + w[0][a]
        for b in range(imin(MAX_ROW, la) + 1):
            lb = la - b
            if va + w[1][b] + up[2][lb] < floor:
                idx += PLACINGS[N_ROWS - 2][lb]
                continue
            vb = va + w[1][b]
            for c in range(imin(MAX_ROW, lb) + 1):
                lc = lb - c
                if vb + w[2][c] + up[3][lc] < floor:
                    idx += PLACINGS[N_ROWS - 3][lc]
                    continue
                vc = vb + w[2][c]
                for i in range(imax(0, lc - MAX_ROW), imin(MAX_ROW, lc) + 1):
                    v = (vc + w[3][i]) + w[4][lc - i]
                    if v > best:
                        best = v
                        choice = idx
                    idx += 1
    return A_PLAN + PLAN_START[m] + choice


cdef int plan_candidates(const GameState* s, const Catalogue* cat, int seat, int* out,
                         double* values, int k) noexcept nogil:
    """The k plans of `seat` the heuristic rates highest, best first (ties: lower index),
    with their scores; k <= 0: all of them. `values` NULL (with k <= 0): every plan in
    index order, without the heuristic's work (a search with no priors)."""
    cdef double d[N_ROWS]
    cdef double score[N_PLANS]
    cdef int m = s.players[seat].markers, lo = PLAN_START[m]
    cdef int i, j, n = 0, total
    if values == NULL:
        total = plan_count(s, seat)
        for i in range(total):
            out[i] = A_PLAN + lo + i
        return total
    row_values(s, cat, seat, d)
    total = plan_scores(d, m, score)
    if k <= 0 or k > total:
        k = total
    # The best k so far, best first: a plan goes in after those it does not beat (the
    # earlier ones win ties), and the k-th falls out.
    for i in range(total):
        if n == k and not score[i] > values[k - 1]:
            continue
        j = n if n < k else k - 1
        while j > 0 and score[i] > values[j - 1]:
            values[j] = values[j - 1]
            out[j] = out[j - 1]
            j -= 1
        values[j] = score[i]
        out[j] = A_PLAN + lo + i
        if n < k:
            n += 1
    return n


# -- the policy ---------------------------------------------------------------------------
cdef void action_values(const GameState* s, const Catalogue* cat, const int* actions, int n,
                        double* values) noexcept nogil:
    """The heuristic's value of each legal action (in fame points, roughly) at a decision
    node other than a plan commitment."""
    cdef int i, a, buy = -1, ncards = 0
    cdef const PlayerState* p = &s.players[current_player(s)]
    cdef Needs nd
    cdef int16_t cards[N_REFINEMENT]
    player_needs(cat, p, &nd)
    if s.n_pending == 0 and s.phase == PH_FULFIL:
        buy = buy_target(s, cat, p)
    if s.n_pending == 0 and s.phase == PH_DRAFT and s.sub == 0:
        ncards = mask_cards(s.draft_refinement, cards)
    for i in range(n):
        a = actions[i]
        if s.n_pending > 0:
            values[i] = pending_value(s, cat, &nd, a)
        elif s.phase == PH_TURN:
            values[i] = turn_value(s, cat, p, &nd, a)
        elif s.phase == PH_PLAN or (s.phase == PH_FULFIL and s.fulfil_slot == FULFIL_APPLIED):
            values[i] = window_value(s, cat, p, &nd, a)
        elif s.phase == PH_FULFIL:
            values[i] = fulfil_value(s, cat, p, &nd, a, buy)
        elif s.phase == PH_DRAFT:
            if s.sub == 0:
                values[i] = best_pair_value(s, cat, p, &nd, a - A_PRINTING, cards, ncards)
            else:
                values[i] = order_value(s, cat, p, s.sub_card, a - A_REFINEMENT)
        elif s.phase == PH_TYPES:
            values[i] = type_set_value(cat, p, a - A_TYPES)
        else:
            values[i] = 0.0


cdef int heuristic_choice(const GameState* s, const Catalogue* cat, Rng* rng, double epsilon) noexcept nogil:
    """The heuristic's move; with probability `epsilon` a uniformly random legal one.
    -1 at chance and terminal nodes."""
    cdef int buf[MAX_LEGAL]
    cdef double values[MAX_LEGAL]
    cdef int n, i, choice, seat
    if at_plan_commit(s):
        # The plans are a range of actions: no list is needed.
        seat = current_player(s)
        n = plan_count(s, seat)
        if n == 1:
            return A_PLAN + PLAN_START[s.players[seat].markers]
        if epsilon > 0 and rng_uniform(rng) < epsilon:
            return A_PLAN + PLAN_START[s.players[seat].markers] + rng_below(rng, n)
        return best_plan(s, cat, seat, rng, PLAN_NOISE)
    n = legal_actions(s, cat, buf)
    if n <= 0:
        return -1
    if n == 1:
        return buf[0]
    if epsilon > 0 and rng_uniform(rng) < epsilon:
        return buf[rng_below(rng, n)]
    action_values(s, cat, buf, n, values)
    choice = 0
    for i in range(1, n):
        if values[i] > values[choice]:
            choice = i
    return buf[choice]


cdef int heuristic_action(const GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """The heuristic player's move in `s` (a decision node), with a small epsilon of
    uniformly random moves drawn from `rng`."""
    return heuristic_choice(s, cat, rng, HEURISTIC_EPSILON)


# =======================================================================================
# Evaluation and returns.
# =======================================================================================
cdef void evaluate(const GameState* s, const Catalogue* cat, double* value) noexcept nogil:
    """Projected final fame per seat: the end scoring now, plus what the held orders,
    inks and gears are expected to bring in the rounds left. Exact at the end."""
    cdef int scores[MAX_SEATS]
    cdef int seat, k, pos, c
    cdef double v
    cdef const PlayerState* p
    final_scores(s, cat, scores)
    for seat in range(s.num_seats):
        value[seat] = scores[seat]
        if s.phase == PH_TERMINAL:
            continue
        p = &s.players[seat]
        v = 0.0
        for k in range(MAX_ORDERS):
            if p.order_printing[k] >= 0:
                v += 0.6 * dmax(0.0, held_order_value(s, cat, p, k))
        if chances_left(s) > 0:
            v += 0.3 * total4(p.inks)
        for pos in range(MAX_INSTALLED):
            if p.gear[pos] >= 0:
                v += 0.5 * gear_value(s, cat, p.gear[pos], p.gear_active[pos], pos)
        value[seat] += v


