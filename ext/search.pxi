# Search kernels over the GameState struct (included at the end of core.pyx).
#
#   heuristic_action   a fast player written from the rules, also the rollout policy
#   evaluate           projected final fame per seat, for rollout cut-offs
#   search trees       single-observer ISMCTS and SM-MCTS (regret matching, Exp3 or
#                      decoupled UCT at the plan step), nogil, root-parallel over threads
#
# Everything above the Python entry points at the end runs without the GIL; see docs/search.md
# for the algorithms, the options and how hidden plans are kept out of the tree.

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.math cimport sqrt, log, exp
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


cdef inline int rounds_left(const GameState* s) noexcept nogil:
    """Rounds still to come after this one (all of them during setup)."""
    cdef int left = s.rounds - s.round
    return left if left > 0 else 0


cdef inline int chances_left(const GameState* s) noexcept nogil:
    """Rounds in which inks and levels can still be gathered before a fulfil step: this
    one too while its actions are not all done."""
    return rounds_left(s) + (1 if s.phase <= PH_TURN else 0)


cdef inline double guilder_value(const GameState* s) noexcept nogil:
    # At the end 3 guilders make a fame point; before that they also buy types and inks.
    return 0.34 + 0.06 * rounds_left(s)


cdef inline double dmax(double a, double b) noexcept nogil:
    return a if a > b else b


cdef void player_needs(const Catalogue* cat, const PlayerState* p, Needs* nd) noexcept nogil:
    cdef int k, i, v
    cdef const PrintingCard* pc
    cdef const RefinementCard* r
    for i in range(4):
        nd.letters[i] = 0
        nd.inks[i] = -p.inks[i]
    nd.orders = 0
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


cdef double reward_value(const GameState* s, int kind, int amount) noexcept nogil:
    if kind == REWARD_INK:
        return 1.0 * amount
    if kind == REWARD_GUILDERS:
        return guilder_value(s) * amount
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
    cdef double g = guilder_value(s), v
    cdef int i, missing = 0, short = 0, gap = 0, inks = 0, letters = 0, cost, owned
    cdef int chances = chances_left(s)
    owned = total4(p.types)
    for i in range(4):
        letters += pc.letters[i]
        if pc.letters[i] > p.types[i]:
            missing += pc.letters[i] - p.types[i]
        if r.inks[i] > p.inks[i]:
            short += r.inks[i] - p.inks[i]
        inks += r.inks[i]
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
    if short == 0 and gap == 0:
        v += reward_value(s, r.reward, r.reward_amount)
    elif chances > 0 and short + gap <= 2:
        v += 0.5 * reward_value(s, r.reward, r.reward_amount)
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


cdef double new_order_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                            int x, int y) noexcept nogil:
    """A new order; with four held, one of them goes to make room."""
    cdef double v = order_value(s, cat, p, x, y)
    if held_orders(p) >= MAX_ORDERS:
        v -= worst_held_value(s, cat, p)
    return v


cdef double level_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                        int j, int level) noexcept nogil:
    """Raising specialty j from `level` one step: end scoring, the reward track, the
    decorations of held orders, patronage cards on the board, and future orders."""
    cdef double v, g = guilder_value(s)
    cdef int k, i, gap, x
    cdef int chances = chances_left(s)
    cdef const RefinementCard* r
    cdef const PatronageCard* pc
    if level >= MAX_LEVEL:
        return cat.overflow_guilders * g
    v = cat.specialty_points[level + 1] - cat.specialty_points[level]
    if p.track < N_TRACK and level + 1 >= cat.track_level[p.track]:
        v += reward_value(s, cat.track_reward[p.track].kind, cat.track_reward[p.track].amount)
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


cdef double best_level_value(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    cdef int j
    cdef double v, best = 0.0
    for j in range(N_SPECIALTIES):
        v = level_value(s, cat, p, j, p.levels[j])
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
    cdef double v, best = -1e9
    best_pos[0] = -1
    best_o[0] = 0
    for pos in range(MAX_INSTALLED):
        if (k < MAX_INSTALLED and pos == k) or (k == MAX_INSTALLED and p.gear_used[pos] == 0):
            for o in range(N_SECTORS):
                v = gear_value(s, cat, gear, o, pos)
                if p.gear[pos] >= 0:
                    v -= gear_value(s, cat, p.gear[pos], p.gear_active[pos], pos)
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
                                const Needs* nd, int k) noexcept nogil:
    cdef int kind = cat.patronage_rewards[k].kind, amount = cat.patronage_rewards[k].amount
    if kind == REWARD_SPECIALTY:
        return best_level_value(s, cat, p) * amount
    if kind == REWARD_INK:
        return dmax(0.0, best_ink_value(s, cat, p, nd)) * amount
    if kind == REWARD_ORDER and held_orders(p) >= MAX_ORDERS:
        return 0.3
    return reward_value(s, kind, amount)


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
                                int x, int use) noexcept nogil:
    """Specialty card x used for its icons (use 0) or for +1 to specialty use-1."""
    cdef int j, n
    cdef double v = 0.0
    if use > 0:
        return level_value(s, cat, p, use - 1, p.levels[use - 1])
    for j in range(N_SPECIALTIES):
        for n in range(cat.specialty[x].icons[j]):
            v += level_value(s, cat, p, j, p.levels[j] + n)
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
            v += ink_value(s, cat, p, nd, c, taken[c]) - pos * guilder_value(s)
            taken[c] += 1
            k -= 1
    return v


cdef double best_pair_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                            int x, const int16_t* refinements, int n) noexcept nogil:
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
        best -= worst_held_value(s, cat, p)
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
    cdef double v, best = 0.0, g = guilder_value(s)
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
    cdef double v, g = guilder_value(s)
    cdef int i, short = 0, gap = 0
    if mode == FULFIL_SKIP:
        if rounds_left(s) == 0:
            return 0.0
        # Worth keeping if a missing part is one ink or one level away.
        for i in range(4):
            if r.inks[i] > p.inks[i]:
                short += r.inks[i] - p.inks[i]
            if r.levels[i] > p.levels[i]:
                gap += r.levels[i] - p.levels[i]
        v = g * pc.guilders
        if short <= 1:
            v += r.colour_fame
        if gap <= 1:
            v += r.decoration_fame
        if short <= 1 and gap <= 1:
            v += reward_value(s, r.reward, r.reward_amount)
        return 0.55 * v
    v = g * pc.guilders
    if mode == FULFIL_COLOUR or mode == FULFIL_BOTH:
        v += r.colour_fame
    if mode == FULFIL_DECORATION or mode == FULFIL_BOTH:
        v += r.decoration_fame
    if mode == FULFIL_BOTH:
        v += reward_value(s, r.reward, r.reward_amount)
    return v


cdef double pending_value(const GameState* s, const Catalogue* cat, const Needs* nd, int a) noexcept nogil:
    """A decision on the first pending reward or gear effect."""
    cdef const Pending* q = &s.pending[0]
    cdef const PlayerState* p = &s.players[q.seat]
    cdef int16_t cards[N_REFINEMENT]
    cdef int n, x
    cdef double best
    if a == A_PASS:
        if q.kind == PD_ORDER:
            return 0.0
        return -1.0    # rewards of choice are never declined
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
                return best_pair_value(s, cat, p, a - A_PRINTING, cards, n)
            # Paying for more cards: when what was drawn is poor.
            best = -1e9
            x = 0
            while x < N_PRINTING:
                if s.pool_printing & bit(x):
                    best = dmax(best, best_pair_value(s, cat, p, x, cards, n))
                x += 1
            return 1.0 - REDRAW_COST * guilder_value(s) if best < 1.0 else -1.0
        if q.stage == 2:
            return new_order_value(s, cat, p, q.arg, a - A_REFINEMENT)
        return -held_order_value(s, cat, p, a - A_DISCARD)
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
        return SELL_TYPE_GUILDERS * guilder_value(s)
    return 0.0


cdef double turn_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                       const Needs* nd, int a) noexcept nogil:
    """A decision in a turn at one of the five actions."""
    cdef int pos, o, best_pos, best_o
    cdef double v
    if s.sub == SUB_REFINEMENT:
        return new_order_value(s, cat, p, s.sub_card, a - A_REFINEMENT)
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
        return best_pair_value(s, cat, p, a - A_PRINTING, s.refinement_space, MAX_SPACES) - 0.5
    if A_INKS <= a < A_SPECIALTY:
        return ink_take_value(s, cat, p, nd, (a - A_INKS) // INK_SET, (a - A_INKS) % INK_SET + 1)
    if A_SPECIALTY <= a < A_GEAR:
        return specialty_use_value(s, cat, p, (a - A_SPECIALTY) // 5, (a - A_SPECIALTY) % 5)
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
    return -1.0


cdef double fulfil_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                         const Needs* nd, int a, int buy) noexcept nogil:
    """A decision in the fulfil turn: buy a type that prints an order, use gears, choose
    each order's parts."""
    cdef double v
    if A_FULFIL <= a < A_INK:
        return fulfil_mode_value(s, cat, p, (a - A_FULFIL) // 5, (a - A_FULFIL) % 5)
    if A_BUY <= a < A_USE_GEAR:
        return USE_FIRST if a - A_BUY == buy else -1.0
    if A_USE_GEAR <= a < A_PASS:
        return gear_choice_value(s, cat, p, nd, a - A_USE_GEAR)
    return 0.0    # done


cdef double window_value(const GameState* s, const Catalogue* cat, const PlayerState* p,
                         const Needs* nd, int a) noexcept nogil:
    """A free-action window (before the plans, after printing): a gear worth using now,
    else "done" at once. A gear's reward is the same now as later in the round (before
    the plans it can inform them; after printing it is the round's last chance); types
    are bought in the fulfil turn, where they are known to print."""
    if A_USE_GEAR <= a < A_PASS:
        return gear_choice_value(s, cat, p, nd, a - A_USE_GEAR)
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
                                 best_pair_value(s, cat, p, s.printing_space[i], s.refinement_space, MAX_SPACES))
        for k in range(1, INK_SET + 1):
            if s.ink_space[i][k - 1] >= 0:
                d[ROW_INKS] = dmax(d[ROW_INKS], ink_take_value(s, cat, p, &nd, i, k))
        x = s.specialty_space[i]
        if x >= 0:
            for m in range(5):
                d[ROW_SPECIALTIES] = dmax(d[ROW_SPECIALTIES], specialty_use_value(s, cat, p, x, m))
        x = s.gear_space[i]
        if x >= 0:
            d[ROW_GEARS] = dmax(d[ROW_GEARS], best_place_value(s, cat, p, x, &k, &m))
    for k in range(N_PATRONAGE_REWARDS):
        if s.patronage_reward_seat[k] < 0:
            d[ROW_PATRONAGE] = dmax(d[ROW_PATRONAGE], patron_reward_value(s, cat, p, &nd, k))
    for i in range(N_PATRONAGE_SPACES):
        x = s.patronage_space[i]
        if x >= 0 and cat.patronage_rounds[i] <= s.round and meets_patronage(p, &cat.patronage[x]):
            d[ROW_PATRONAGE] = dmax(d[ROW_PATRONAGE], patron_card_value(s, cat, p, &nd, x))
    for i in range(N_ROWS):
        # Leftover markers still go somewhere: a turn can always be passed.
        d[i] = dmax(d[i], 0.05)


cdef inline double plan_score(const double* d, int idx) noexcept nogil:
    cdef double v = 0.0
    cdef int i
    for i in range(N_ROWS):
        v += d[i] * MARKER_WEIGHT[PLAN_TABLE[idx][i]]
    return v


cdef int best_plan(const GameState* s, const Catalogue* cat, int seat, Rng* rng, double noise) noexcept nogil:
    cdef double d[N_ROWS]
    cdef double v, best = -1e18
    cdef int i, idx, choice = -1, m = s.players[seat].markers
    row_values(s, cat, seat, d)
    if noise > 0:
        for i in range(N_ROWS):
            d[i] *= 1.0 + noise * ((rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) - 0.5)
    for idx in range(PLAN_START[m], PLAN_START[m + 1]):
        v = plan_score(d, idx)
        if v > best:
            best = v
            choice = idx
    return A_PLAN + choice


cdef int plan_candidates(const GameState* s, const Catalogue* cat, int seat, int* out,
                         double* values, int k) noexcept nogil:
    """The k plans of `seat` the heuristic rates highest, best first (ties: lower index),
    with their scores; k <= 0: all of them."""
    cdef double d[N_ROWS]
    cdef double score[N_PLANS]
    cdef int m = s.players[seat].markers, lo = PLAN_START[m], hi = PLAN_START[m + 1]
    cdef int i, n = 0, best
    row_values(s, cat, seat, d)
    for i in range(lo, hi):
        score[i - lo] = plan_score(d, i)
    if k <= 0 or k > hi - lo:
        k = hi - lo
    # Partial selection: k passes over a few hundred plans.
    while n < k:
        best = -1
        for i in range(hi - lo):
            if score[i] > -1e17 and (best < 0 or score[i] > score[best]):
                best = i
        out[n] = A_PLAN + lo + best
        values[n] = score[best]
        score[best] = -1e18
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
                values[i] = best_pair_value(s, cat, p, a - A_PRINTING, cards, ncards)
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
    cdef int n = legal_actions(s, cat, buf), i, choice
    if n <= 0:
        return -1
    if n == 1:
        return buf[0]
    if epsilon > 0 and (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) < epsilon:
        return buf[rng_below(rng, n)]
    if at_plan_commit(s):
        return best_plan(s, cat, current_player(s), rng, PLAN_NOISE)
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


# =======================================================================================
# Search trees: single-observer ISMCTS and simultaneous-move MCTS.
#
# A node is an information set of the root player: what that player has seen since the
# root (the actions of everyone, the draws, the plans once revealed). An edge is a move
# plus what the root player observes before the next decision: the draws that follow it
# and, at the end of a plan step, every plan. So a child is found by hashing (parent,
# move, draws, revealed plans). The plans of other players during a plan step are unseen:
# their edges carry EDGE_HIDDEN instead of the plan, so they never split the root
# player's nodes (see docs/search.md). Statistics per move live in the node's arms, which
# are created when a node is first selected from (a node seen once is only a leaf).
# =======================================================================================
cdef enum:
    ALG_ISMCTS = 0
    ALG_SMMCTS = 1
    SEL_RM = 0             # regret matching (CFR-style), smmcts plan steps
    SEL_EXP3 = 1
    SEL_UCT = 2            # decoupled UCT (or PUCT, as the tree policy)
    SEL_RM_PLUS = 3        # regret matching+: cumulative regrets floored at 0 (CFR+)
    TREE_PUCT = 0          # Q + c P sqrt(N) / (1 + n), P the heuristic's prior
    TREE_UCT = 1           # Q + c sqrt(ln N / n), each move once first (best prior first)
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1
    EDGE_ROOT = -1
    EDGE_HIDDEN = -2       # another player's plan, unseen by the root player
    EDGE_SIM = -3          # a whole plan step as one simultaneous move (smmcts)
    NODE_SIM = -2          # `player` of a simultaneous node
    MAX_PATH = 1024        # tree depth (a game has a few hundred decisions)
    MAX_EDGE_OBS = 256     # observations recorded on one edge
    PLAN_CODES = 16807     # 7**5 allocations of markers, coded in base 7
    OBS_PLAN = 1 << 20     # observation entries from here on: a revealed plan

ctypedef struct Arm:
    int32_t action
    int32_t visits
    double value           # sum of the acting player's returns, mapped to [0, 1]
    double aux             # regret (regret matching) or gain (Exp3)
    double prior           # the heuristic's probability of the move

ctypedef struct TreeNode:
    int32_t arms           # first arm; -1 until the node is expanded
    int32_t visits
    int32_t first_child
    int32_t next_sibling
    int32_t obs            # first entry of the observations on the edge into this node
    int32_t edge           # the move on the edge into this node, or EDGE_*
    int16_t n_obs
    int16_t player         # the seat to act, or NODE_SIM
    int16_t n_arms[MAX_SEATS]   # a simultaneous node: arms per seat; else n_arms[0]

ctypedef struct SearchConfig:
    int algorithm
    int tree_policy
    int selection
    int rollout
    int cutoff             # rollout plies before `evaluate` (0: play to the end)
    int returns            # RETURNS_*
    int plan_candidates    # plans per player at plan nodes (0: all)
    int max_nodes
    double uct_c           # exploration constant of the tree policy
    double prior_weight    # priors: this much the heuristic's softmax, the rest uniform
    double prior_temperature   # fame points per e-fold of the heuristic's softmax
    double prior_visits    # regret matching: the prior's weight in initial regrets
    double eval_temperature    # "win" at a cut-off: fame points of the soft win shares
    double gamma           # exploration of regret matching and Exp3
    double epsilon         # of the heuristic rollout policy
    double fame_scale      # score and margin returns: fame per half of [0, 1]

ctypedef struct PathStep:
    int32_t node
    int32_t arm[MAX_SEATS]      # chosen arm per seat at a simultaneous node; arm[0] else
    double prob[MAX_SEATS]      # the probability it was chosen with (RM, Exp3)

ctypedef struct Tree:
    SearchConfig cfg
    const Catalogue* cat
    GameState root
    int player                  # the root player
    Rng rng
    TreeNode* nodes
    int32_t n_nodes
    int32_t cap_nodes
    Arm* arms
    int32_t n_arms
    int32_t cap_arms
    int32_t* obs
    int32_t n_obs
    int32_t cap_obs
    uint64_t* hash_keys         # child index: (parent, edge) hash -> node; key 0 is empty
    int32_t* hash_nodes
    int32_t hash_cap
    int32_t hash_count
    int32_t root_first          # the root player's first arm at the root
    int32_t root_n
    double* root_returns        # per root arm and seat: sums of the game's returns
    double* root_win            # per root arm and seat: sums of win shares
    double* root_fame           # per root arm and seat: sums of final (projected) fame
    double baseline[MAX_SEATS]  # mean returns of rollouts from the root (score, margin mapping)
    int64_t iterations
    int64_t mismatches          # a chosen move was not legal (a hash collision); rolled out
    bint full                   # the node pool reached max_nodes
    PathStep path[MAX_PATH]


# Rollouts from the root that set the centre of the score and margin mappings.
cdef enum:
    BASELINE_PROBES = 16

cdef int16_t PLAN_INDEX[PLAN_CODES]     # plan action of an allocation code, -1 if none


cdef inline int plan_code(const int16_t* plan) noexcept nogil:
    return plan[0] + 7 * (plan[1] + 7 * (plan[2] + 7 * (plan[3] + 7 * plan[4])))


def _build_plan_index():
    cdef int i
    for i in range(PLAN_CODES):
        PLAN_INDEX[i] = -1
    for i in range(N_PLANS):
        PLAN_INDEX[plan_code(PLAN_TABLE[i])] = i


_build_plan_index()


cdef inline uint64_t mix(uint64_t h, int64_t v) noexcept nogil:
    h ^= <uint64_t>v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL
    return h ^ (h >> 31)


cdef inline double uniform01(Rng* rng) noexcept nogil:
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


# -- memory ---------------------------------------------------------------------------
cdef bint grow(void** p, int32_t* cap, int32_t need, size_t size) noexcept nogil:
    """Make room for `need` items (doubling); False if memory ran out."""
    cdef int64_t c = cap[0]
    cdef void* q
    if need <= c:
        return True
    while c < need:
        c = c * 2 if c > 0 else 1024
    if c > 0x7FFFFFFF:
        return False
    q = realloc(p[0], c * size)
    if q == NULL:
        return False
    p[0] = q
    cap[0] = <int32_t>c
    return True


cdef bint hash_grow(Tree* t) noexcept nogil:
    cdef int32_t old_cap = t.hash_cap, cap = old_cap * 2 if old_cap > 0 else 4096, i
    cdef uint64_t* keys = <uint64_t*>malloc(cap * sizeof(uint64_t))
    cdef int32_t* nodes = <int32_t*>malloc(cap * sizeof(int32_t))
    cdef uint64_t k
    cdef int32_t j
    if keys == NULL or nodes == NULL:
        free(keys)
        free(nodes)
        return False
    for i in range(cap):
        keys[i] = 0
    for i in range(old_cap):
        k = t.hash_keys[i]
        if k:
            j = <int32_t>(k & (cap - 1))
            while keys[j]:
                j = (j + 1) & (cap - 1)
            keys[j] = k
            nodes[j] = t.hash_nodes[i]
    free(t.hash_keys)
    free(t.hash_nodes)
    t.hash_keys = keys
    t.hash_nodes = nodes
    t.hash_cap = cap
    return True


cdef int32_t hash_find(const Tree* t, uint64_t key) noexcept nogil:
    cdef int32_t j = <int32_t>(key & (t.hash_cap - 1))
    while t.hash_keys[j]:
        if t.hash_keys[j] == key:
            return t.hash_nodes[j]
        j = (j + 1) & (t.hash_cap - 1)
    return -1


cdef int32_t new_node(Tree* t, int32_t parent, uint64_t key, int32_t edge,
                      const int32_t* obs, int n_obs) noexcept nogil:
    """A leaf under `parent` (-1 for the root); -1 if the pool is full."""
    cdef int32_t i, j
    cdef TreeNode* nd
    if t.n_nodes >= t.cfg.max_nodes:
        t.full = True
        return -1
    if (not grow(<void**>&t.nodes, &t.cap_nodes, t.n_nodes + 1, sizeof(TreeNode))
            or not grow(<void**>&t.obs, &t.cap_obs, t.n_obs + n_obs, sizeof(int32_t))):
        t.full = True
        return -1
    if parent >= 0 and 2 * (t.hash_count + 1) > t.hash_cap:
        if not hash_grow(t):
            t.full = True
            return -1
    i = t.n_nodes
    t.n_nodes += 1
    nd = &t.nodes[i]
    nd.arms = -1
    nd.visits = 0
    nd.first_child = -1
    nd.next_sibling = -1
    nd.obs = t.n_obs
    nd.n_obs = n_obs
    nd.edge = edge
    nd.player = -1
    for j in range(MAX_SEATS):
        nd.n_arms[j] = 0
    for j in range(n_obs):
        t.obs[t.n_obs + j] = obs[j]
    t.n_obs += n_obs
    if parent >= 0:
        nd.next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = i
        j = <int32_t>(key & (t.hash_cap - 1))
        while t.hash_keys[j]:
            j = (j + 1) & (t.hash_cap - 1)
        t.hash_keys[j] = key
        t.hash_nodes[j] = i
        t.hash_count += 1
    return i


cdef int node_moves(const Tree* t, const GameState* st, int seat, bint plan, int* moves,
                    double* priors) noexcept nogil:
    """The moves a node considers for `seat`, with the heuristic's priors, highest prior
    first: at a plan step the heuristic's best `plan_candidates` plans (0: all), else
    every legal move. A prior is a softmax of the heuristic's values, mixed with uniform."""
    cdef double values[MAX_LEGAL]
    cdef double total = 0.0, top, w = t.cfg.prior_weight, p
    cdef int n, i, j, a
    if plan:
        n = plan_candidates(st, t.cat, seat, moves, values, t.cfg.plan_candidates)
    else:
        n = legal_actions(st, t.cat, moves)
        action_values(st, t.cat, moves, n, values)
    top = values[0]
    for i in range(1, n):
        if values[i] > top:
            top = values[i]
    for i in range(n):
        priors[i] = exp((values[i] - top) / t.cfg.prior_temperature)
        total += priors[i]
    for i in range(n):
        priors[i] = w * priors[i] / total + (1.0 - w) / n
    # Highest prior first (stable: legal order among equals).
    for i in range(1, n):
        a = moves[i]
        p = priors[i]
        j = i - 1
        while j >= 0 and priors[j] < p:
            moves[j + 1] = moves[j]
            priors[j + 1] = priors[j]
            j -= 1
        moves[j + 1] = a
        priors[j + 1] = p
    return n


cdef bint add_arms(Tree* t, int32_t node, const GameState* st, int seat, bint plan) noexcept nogil:
    cdef int moves[MAX_LEGAL]
    cdef double priors[MAX_LEGAL]
    cdef int n = node_moves(t, st, seat, plan, moves, priors), i
    cdef Arm* a
    if not grow(<void**>&t.arms, &t.cap_arms, t.n_arms + n, sizeof(Arm)):
        return False
    for i in range(n):
        a = &t.arms[t.n_arms + i]
        a.action = moves[i]
        a.visits = 0
        a.value = 0.0
        a.prior = priors[i]
        # Regret matching and Exp3 start from the prior: regrets in proportion to it;
        # gains whose exponential is it.
        if t.cfg.selection == SEL_EXP3:
            a.aux = log(priors[i]) * n / t.cfg.gamma
        else:
            a.aux = t.cfg.prior_visits * priors[i]
    t.n_arms += n
    if t.nodes[node].player == NODE_SIM:
        t.nodes[node].n_arms[seat] = n
    else:
        t.nodes[node].n_arms[0] = n
    return True


cdef bint expand(Tree* t, int32_t node, const GameState* st) noexcept nogil:
    """Give a node its arms: the moves of the player to act, or at a simultaneous plan
    step (smmcts) the plans of every seat. False if memory ran out."""
    cdef int seat
    cdef int32_t first = t.n_arms
    cdef bint plan = at_plan_commit(st)
    if t.cfg.algorithm == ALG_SMMCTS and plan:
        t.nodes[node].player = NODE_SIM
        for seat in range(st.num_seats):
            if seat == st.automa_seat:
                continue   # the automa's plan is its card, chance revealed after the plans
            if not add_arms(t, node, st, seat, True):
                t.n_arms = first
                return False
    else:
        t.nodes[node].player = current_player(st)
        if not add_arms(t, node, st, t.nodes[node].player, plan):
            return False
    t.nodes[node].arms = first
    return True


# -- selection ----------------------------------------------------------------------------
cdef int32_t puct_select(const Tree* t, int32_t first, int n, int32_t visits) noexcept nogil:
    """PUCT over arms [first, first + n): Q + c P sqrt(N) / (1 + n); an unvisited arm's Q
    is the mean of the node's (ties: the first, i.e. the higher prior)."""
    cdef int i
    cdef double total = 0.0, fpu, q, v, sq = sqrt(<double>visits), best = -1e300
    cdef int32_t choice = first, seen = 0
    cdef const Arm* a
    for i in range(n):
        total += t.arms[first + i].value
        seen += t.arms[first + i].visits
    fpu = total / seen if seen > 0 else 0.5
    for i in range(n):
        a = &t.arms[first + i]
        q = a.value / a.visits if a.visits > 0 else fpu
        v = q + t.cfg.uct_c * a.prior * sq / (1 + a.visits)
        if v > best:
            best = v
            choice = first + i
    return choice


cdef int32_t tree_select(const Tree* t, int32_t first, int n, int32_t visits) noexcept nogil:
    if t.cfg.tree_policy == TREE_UCT:
        return uct_select(t, first, n, visits)
    return puct_select(t, first, n, visits)


cdef int32_t uct_select(const Tree* t, int32_t first, int n, int32_t visits) noexcept nogil:
    """UCT over arms [first, first + n): each arm once (in order: the higher prior
    first), then the highest upper confidence bound (ties: the first)."""
    cdef int i
    cdef double logn, v, best = -1e300
    cdef int32_t choice = first
    cdef const Arm* a
    for i in range(n):
        if t.arms[first + i].visits == 0:
            return first + i
    logn = log(<double>visits)
    for i in range(n):
        a = &t.arms[first + i]
        v = a.value / a.visits + t.cfg.uct_c * sqrt(logn / a.visits)
        if v > best:
            best = v
            choice = first + i
    return choice


cdef int32_t mixed_select(Tree* t, int32_t first, int n, double* prob) noexcept nogil:
    """Regret matching or Exp3 over arms [first, first + n), mixed with gamma of uniform
    exploration; samples an arm and gives its probability."""
    cdef int i
    cdef double total = 0.0, top = -1e300, eta = 0.0, r, p, g = t.cfg.gamma
    cdef Arm* a
    if t.cfg.selection == SEL_EXP3:
        eta = g / n
        for i in range(n):
            if t.arms[first + i].aux > top:
                top = t.arms[first + i].aux
        for i in range(n):
            total += exp(eta * (t.arms[first + i].aux - top))
    else:
        for i in range(n):
            if t.arms[first + i].aux > 0:
                total += t.arms[first + i].aux
    r = uniform01(&t.rng)
    for i in range(n):
        a = &t.arms[first + i]
        if t.cfg.selection == SEL_EXP3:
            p = exp(eta * (a.aux - top)) / total
        elif total > 0:
            p = (a.aux if a.aux > 0 else 0.0) / total
        else:
            p = 1.0 / n
        p = (1.0 - g) * p + g / n
        if r < p or i == n - 1:
            prob[0] = p
            return first + i
        r -= p
    return first + n - 1


cdef void mixed_update(Tree* t, int32_t first, int n, int32_t chosen, double prob, double x) noexcept nogil:
    """After a simulation that chose `chosen` (with probability `prob`) and returned x:
    regret matching adds to every arm's regret its sampled value less x, Exp3 adds the
    chosen arm's sampled value to its gain. A sampled value is b + (x - b)/prob for the
    chosen arm and b for the others, with b the seat's mean so far at this node: an
    unbiased estimate (as x/prob alone is) with much less variance when prob is small."""
    cdef int i
    cdef double total = 0.0, b = 0.5, d
    cdef int32_t visits = 0
    for i in range(n):
        total += t.arms[first + i].value
        visits += t.arms[first + i].visits
    if visits > 0:
        b = total / visits
    d = (x - b) / prob
    if t.cfg.selection == SEL_EXP3:
        t.arms[chosen].aux += d
        return
    for i in range(n):
        t.arms[first + i].aux += b - x
    t.arms[chosen].aux += d
    if t.cfg.selection == SEL_RM_PLUS:
        # Regret matching+: a move that was bad for a while can come back at once.
        for i in range(n):
            if t.arms[first + i].aux < 0:
                t.arms[first + i].aux = 0.0


# -- one iteration ------------------------------------------------------------------------
cdef inline double to_unit(const Tree* t, const GameState* st, double r, int seat) noexcept nogil:
    """A return mapped to [0, 1] for selection: win shares linearly; score and margin
    around the root's projection, fame_scale fame per half."""
    cdef int n = st.num_players
    cdef double u
    if t.cfg.returns == RETURNS_WIN:
        return (r * (n - 1) + 1.0) / n
    u = 0.5 + (r - t.baseline[seat]) / (2.0 * t.cfg.fame_scale)
    return 0.0 if u < 0.0 else (1.0 if u > 1.0 else u)


cdef void soft_returns(const Tree* t, const GameState* st, const double* scores, double* out,
                       double* shares) noexcept nogil:
    """Returns at a cut-off, from projected scores. "win": soft win shares, a softmax of
    the scores at eval_temperature fame (wider with more rounds left), in the formula of
    the win returns (share 1: 1, share 0: -1/(n-1), k equal: the shared win). "score" and
    "margin" are smooth already. `shares` gets the win shares."""
    cdef int i, n = st.num_players
    cdef double temp = t.cfg.eval_temperature * sqrt(1.0 + rounds_left(st)), top = scores[0], total = 0.0
    # The people only (seats 0..n-1; an automa sits after them and cannot win).
    for i in range(1, n):
        if scores[i] > top:
            top = scores[i]
    for i in range(st.num_seats):
        shares[i] = exp((scores[i] - top) / temp) if i < n else 0.0
        total += shares[i]
    for i in range(st.num_seats):
        shares[i] /= total
    if t.cfg.returns != RETURNS_WIN:
        returns_from_scores(st, scores, t.cfg.returns, out)
        return
    for i in range(n):
        out[i] = (n * shares[i] - 1.0) / (n - 1)


cdef void rollout(Tree* t, GameState* st) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef int n, plies = 0
    while st.phase != PH_TERMINAL:
        if current_player(st) == CHANCE:
            apply_action(st, t.cat, sample_chance(st, t.cat, &t.rng))
            continue
        if t.cfg.cutoff > 0 and plies >= t.cfg.cutoff:
            return
        if t.cfg.rollout == ROLLOUT_HEURISTIC:
            apply_action(st, t.cat, heuristic_choice(st, t.cat, &t.rng, t.cfg.epsilon))
        else:
            n = legal_actions(st, t.cat, buf)
            apply_action(st, t.cat, buf[rng_below(&t.rng, n)])
        plies += 1


cdef void leaf_returns(const Tree* t, const GameState* st, double* scores, double* ret,
                       double* shares) noexcept nogil:
    """Where a simulation ends: the final scores, the game's returns and the win shares
    at the end of the game; at a cut-off, the evaluation's projections (soft_returns)."""
    cdef bint winner[MAX_SEATS]
    cdef int seat, k
    if st.phase != PH_TERMINAL:
        evaluate(st, t.cat, scores)
        soft_returns(t, st, scores, ret, shares)
        return
    final_scores_double(st, t.cat, scores)
    returns_from_scores(st, scores, t.cfg.returns, ret)
    k = winners_of(st, scores, winner)
    for seat in range(st.num_seats):
        shares[seat] = (1.0 / k) if winner[seat] else 0.0


cdef void probe_baseline(Tree* t, int probes) noexcept nogil:
    """The centre of the score and margin mappings (to_unit): the mean return of
    `probes` rollouts from the root. The evaluation of the root itself counts only what
    is held now, far below what the rounds left bring, and a centre that low would map
    every return to 1 and leave the search blind."""
    cdef GameState st
    cdef double scores[MAX_SEATS]
    cdef double ret[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef int seat, i
    for seat in range(MAX_SEATS):
        t.baseline[seat] = 0.0
    for i in range(probes):
        st = t.root
        determinize(&st, t.cat, t.player, &t.rng)
        rollout(t, &st)
        leaf_returns(t, &st, scores, ret, shares)
        for seat in range(st.num_players):
            t.baseline[seat] += ret[seat] / probes


cdef bint apply_joint_plans(Tree* t, GameState* st, int32_t node, PathStep* step) noexcept nogil:
    """A simultaneous plan step: every seat's chosen plan. Plans already committed (at the
    root, before the root player's turn) are overwritten: nobody has seen them. False if
    a plan does not fit the state (a hash collision put us in the wrong node)."""
    cdef int k, seat, i, committed = st.step, a
    for k in range(st.num_players):
        seat = human_seat(st, k)
        a = t.arms[step.arm[seat]].action
        if k < committed:
            if PLAN_START[st.players[seat].markers] > a - A_PLAN or a - A_PLAN >= PLAN_START[st.players[seat].markers + 1]:
                return False
            for i in range(N_ROWS):
                st.players[seat].plan[i] = PLAN_TABLE[a - A_PLAN][i]
        elif current_player(st) != seat or not is_legal(st, t.cat, a):
            return False
        else:
            apply_action(st, t.cat, a)
    return True


cdef void iterate(Tree* t) noexcept nogil:
    cdef GameState st = t.root
    cdef int32_t node = 0, child, leaf = -1, arm, first
    cdef int32_t obs[MAX_EDGE_OBS]
    cdef int n_path = 0, n_obs, seat, o, k, edge, n
    cdef uint64_t key
    cdef bint was_plan
    cdef double scores[MAX_SEATS]
    cdef double ret[MAX_SEATS]
    cdef double u[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef PathStep* step
    cdef TreeNode* nd
    if t.cfg.algorithm == ALG_ISMCTS:
        determinize(&st, t.cat, t.player, &t.rng)
    elif st.phase == PH_CHARACTERS:
        # smmcts redraws committed plans at its simultaneous node, but the tiles the
        # others drew are hidden too, and while characters are being drawn the pool
        # they left feeds the later draws. (After setup the tiles put back never come
        # back into play, so there is nothing to redraw.)
        draw_characters(&st, t.player, &t.rng)
    # Selection and expansion: down the tree to a new leaf (or the end of the game).
    while True:
        if st.phase == PH_TERMINAL or n_path >= MAX_PATH:
            leaf = node
            break
        if t.nodes[node].arms < 0 and not expand(t, node, &st):
            t.full = True
            leaf = node
            break
        nd = &t.nodes[node]
        step = &t.path[n_path]
        step.node = node
        was_plan = at_plan_commit(&st)
        if nd.player == NODE_SIM:
            first = nd.arms
            for seat in range(st.num_seats):
                n = nd.n_arms[seat]
                if n == 0:
                    continue   # the automa
                if t.cfg.selection == SEL_UCT:
                    step.arm[seat] = tree_select(t, first, n, nd.visits)
                    step.prob[seat] = 1.0
                else:
                    step.arm[seat] = mixed_select(t, first, n, &step.prob[seat])
                first += n
            if not apply_joint_plans(t, &st, node, step):
                t.mismatches += 1
                leaf = node
                break
            edge = EDGE_SIM
        else:
            arm = tree_select(t, nd.arms, nd.n_arms[0], nd.visits)
            if not is_legal(&st, t.cat, t.arms[arm].action):
                t.mismatches += 1
                leaf = node
                break
            step.arm[0] = arm
            edge = t.arms[arm].action
            if was_plan and nd.player != t.player:
                edge = EDGE_HIDDEN
            apply_action(&st, t.cat, t.arms[arm].action)
        n_path += 1
        # What the root player sees before the next decision: draws, then revealed plans.
        key = mix(mix(0x5EA5C4ULL, node), edge)
        n_obs = 0
        while current_player(&st) == CHANCE:
            o = sample_chance(&st, t.cat, &t.rng)
            apply_action(&st, t.cat, o)
            key = mix(key, o)
            if n_obs < MAX_EDGE_OBS:
                obs[n_obs] = o
                n_obs += 1
        if was_plan and st.phase != PH_PLAN:
            for seat in range(st.num_seats):
                o = OBS_PLAN + seat * PLAN_CODES + plan_code(st.players[seat].plan)
                key = mix(key, o)
                if n_obs < MAX_EDGE_OBS:
                    obs[n_obs] = o
                    n_obs += 1
        if key == 0:
            key = 1
        child = hash_find(t, key)
        if child < 0:
            leaf = new_node(t, node, key, edge, obs, n_obs)
            break
        node = child
    # Simulation.
    if st.phase != PH_TERMINAL:
        rollout(t, &st)
    leaf_returns(t, &st, scores, ret, shares)
    for seat in range(st.num_players):
        u[seat] = to_unit(t, &st, ret[seat], seat)
    # Backpropagation.
    for k in range(n_path):
        step = &t.path[k]
        nd = &t.nodes[step.node]
        nd.visits += 1
        if nd.player == NODE_SIM:
            first = nd.arms
            for seat in range(st.num_seats):
                n = nd.n_arms[seat]
                if n == 0:
                    continue   # the automa
                arm = step.arm[seat]
                if t.cfg.selection != SEL_UCT:
                    mixed_update(t, first, n, arm, step.prob[seat], u[seat])
                t.arms[arm].visits += 1
                t.arms[arm].value += u[seat]
                first += n
        else:
            t.arms[step.arm[0]].visits += 1
            t.arms[step.arm[0]].value += u[nd.player]
    if leaf >= 0:
        t.nodes[leaf].visits += 1
    # The root player's statistics per root move, for hints.
    if n_path > 0 and t.root_returns != NULL:
        step = &t.path[0]
        arm = (step.arm[t.player] if t.nodes[0].player == NODE_SIM else step.arm[0]) - t.root_first
        for seat in range(st.num_players):
            t.root_returns[arm * MAX_SEATS + seat] += ret[seat]
            t.root_win[arm * MAX_SEATS + seat] += shares[seat]
            t.root_fame[arm * MAX_SEATS + seat] += scores[seat]
    t.iterations += 1


cdef double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void run_tree(Tree* t, int64_t iterations, double seconds) noexcept nogil:
    """Iterate until `iterations` (if > 0) or `seconds` (if > 0) are spent; the clock is
    read every 8 iterations."""
    cdef double end = now_seconds() + seconds
    cdef int64_t done = 0
    while iterations <= 0 or done < iterations:
        iterate(t)
        done += 1
        if seconds > 0 and (done & 7) == 0 and now_seconds() >= end:
            break


cdef void free_tree(Tree* t) noexcept nogil:
    free(t.nodes)
    free(t.arms)
    free(t.obs)
    free(t.hash_keys)
    free(t.hash_nodes)
    free(t.root_returns)
    free(t.root_win)
    free(t.root_fame)
    t.nodes = NULL
    t.arms = NULL
    t.obs = NULL
    t.hash_keys = NULL
    t.hash_nodes = NULL
    t.root_returns = NULL
    t.root_win = NULL
    t.root_fame = NULL


# =======================================================================================
# Python entry points.
# =======================================================================================

def heuristic_move(CoreState state, unsigned long long seed=0, epsilon=None):
    """The heuristic player's move in `state` (a decision node). `epsilon` is the chance
    of a uniformly random move, drawn with `seed` (default: the policy's own)."""
    cdef Rng rng
    if current_player(&state.s) < 0:
        raise ValueError("the heuristic moves at decision nodes only (this is a chance node or the end)")
    rng.s = seed
    if epsilon is None:
        return heuristic_action(&state.s, &state.rules.cat, &rng)
    return heuristic_choice(&state.s, &state.rules.cat, &rng, epsilon)


def evaluate_state(CoreState state):
    """Projected final fame per seat (`evaluate`): exact at the end of the game."""
    cdef double value[MAX_SEATS]
    evaluate(&state.s, &state.rules.cat, value)
    return [value[i] for i in range(state.s.num_seats)]


def returns_of_final(CoreState state, str mode="win"):
    """The returns the search computes in C from the final scores of `state` (they must
    equal game.returns_of, tie-breaks included): the core's returns_of."""
    return state.returns(mode)


cdef void play_policies(GameState* s, const Catalogue* cat, const int* policy, Rng* rng,
                        double epsilon) noexcept nogil:
    """Play to the end with a policy per seat: 0 uniformly random, 1 heuristic."""
    cdef int buf[MAX_LEGAL]
    cdef int cp, n
    while s.phase != PH_TERMINAL:
        cp = current_player(s)
        if cp == CHANCE:
            apply_action(s, cat, sample_chance(s, cat, rng))
        elif policy[cp] == 1:
            apply_action(s, cat, heuristic_choice(s, cat, rng, epsilon))
        else:
            n = legal_actions(s, cat, buf)
            apply_action(s, cat, buf[rng_below(rng, n)])


def policy_games(Rules rules, policies, int games, unsigned long long seed=0,
                 double epsilon=HEURISTIC_EPSILON):
    """Play `games` full games inside the core with a policy per seat ("random" or
    "heuristic") and return the final scores of each game (a list of lists)."""
    cdef int policy[MAX_SEATS]
    cdef GameState s
    cdef Rng rng
    cdef int g, i
    cdef int scores[MAX_SEATS]
    if len(policies) != rules.players:
        raise ValueError(f"policies: {len(policies)} given for {rules.players} players")
    for i, name in enumerate(policies):
        if name not in ("random", "heuristic"):
            raise ValueError(f"policies: {name!r} is not 'random' or 'heuristic'")
        policy[i] = 1 if name == "heuristic" else 0
    rng.s = seed
    out = []
    for g in range(games):
        s = rules.initial
        with nogil:
            play_policies(&s, &rules.cat, policy, &rng, epsilon)
        final_scores(&s, &rules.cat, scores)
        out.append([scores[i] for i in range(rules.players)])
    return out


# -- search trees from Python -------------------------------------------------------------
ALGORITHMS = {"ismcts": ALG_ISMCTS, "smmcts": ALG_SMMCTS}
SELECTIONS = {"rm": SEL_RM, "rm+": SEL_RM_PLUS, "exp3": SEL_EXP3, "uct": SEL_UCT}
ROLLOUTS = {"random": ROLLOUT_RANDOM, "heuristic": ROLLOUT_HEURISTIC}

# The options of a search and their defaults (docs/search.md explains each).
TREE_POLICIES = {"puct": TREE_PUCT, "uct": TREE_UCT}

SEARCH_OPTIONS = dict(
    rollout="heuristic",     # rollout policy: "heuristic" or "random"
    cutoff=100,              # rollout decisions before the evaluation (0: to the end)
    tree_policy="puct",      # "puct" (heuristic priors) or "uct"
    uct_c=1.0,               # exploration constant, in units of returns mapped to [0, 1]
    prior_weight=0.9,        # priors: the heuristic's softmax with this weight, else uniform
    prior_temperature=1.0,   # fame points per e-fold of the heuristic's softmax
    prior_visits=10.0,       # regret matching: the prior's weight in the initial regrets
    eval_temperature=5.0,    # "win" at a cut-off: softness of the win shares, in fame
    selection="rm",          # smmcts plan steps: "rm", "rm+", "exp3" or "uct" (decoupled)
    gamma=0.1,               # exploration of "rm", "rm+" and "exp3"
    returns="win",           # "win", "score" or "margin", as the game's parameter
    plan_candidates=32,      # plans per player at a plan node (the heuristic's best; 0: all)
    epsilon=HEURISTIC_EPSILON,   # random moves of the heuristic rollout policy
    fame_scale=30.0,         # score and margin returns: fame per half of [0, 1]
    max_nodes=2_000_000,     # node pool; beyond it leaves are only rolled out
)


def search_config(**options):
    """The options with defaults filled in; ValueError names a bad one."""
    unknown = sorted(set(options) - set(SEARCH_OPTIONS))
    if unknown:
        raise ValueError(f"unknown search option(s) {', '.join(unknown)}; known: {', '.join(SEARCH_OPTIONS)}")
    cfg = {**SEARCH_OPTIONS, **options}
    for name, table in (("rollout", ROLLOUTS), ("selection", SELECTIONS), ("returns", RETURNS_MODES),
                        ("tree_policy", TREE_POLICIES)):
        if cfg[name] not in table:
            raise ValueError(f"{name}: {cfg[name]!r} is not one of {', '.join(table)}")
    for name, lo in (("cutoff", 0), ("plan_candidates", 0), ("max_nodes", 1)):
        if isinstance(cfg[name], bool) or not isinstance(cfg[name], int) or cfg[name] < lo:
            raise ValueError(f"{name}: {cfg[name]!r} is not an integer >= {lo}")
    for name, lo, hi in (("uct_c", 0.0, 1e9), ("gamma", 1e-9, 1.0), ("epsilon", 0.0, 1.0),
                         ("fame_scale", 1e-9, 1e9), ("prior_weight", 0.0, 1.0),
                         ("prior_temperature", 1e-9, 1e9), ("prior_visits", 0.0, 1e9),
                         ("eval_temperature", 1e-9, 1e9)):
        if isinstance(cfg[name], bool) or not isinstance(cfg[name], (int, float)) or not lo <= cfg[name] <= hi:
            raise ValueError(f"{name}: {cfg[name]!r} is not a number in [{lo:g}, {hi:g}]")
    return cfg


cdef int revealed_plan(const Tree* t, int32_t node, int seat) noexcept nogil:
    """The plan action of `seat` revealed on the edge into `node`, or -1."""
    cdef int i, e
    for i in range(t.nodes[node].n_obs):
        e = t.obs[t.nodes[node].obs + i] - OBS_PLAN
        if e >= 0 and e // PLAN_CODES == seat:
            return A_PLAN + PLAN_INDEX[e % PLAN_CODES]
    return -1


cdef bint replay_draws(const Tree* t, GameState* st, int32_t node) noexcept nogil:
    """Apply the draws recorded on the edge into `node`; False if one does not fit."""
    cdef int i, o
    for i in range(t.nodes[node].n_obs):
        o = t.obs[t.nodes[node].obs + i]
        if o >= OBS_PLAN:
            continue
        if current_player(st) != CHANCE or not is_legal(st, t.cat, o):
            return False
        apply_action(st, t.cat, o)
    return current_player(st) != CHANCE


cdef void reveal_committed(const Tree* t, GameState* st, int32_t node) noexcept nogil:
    """Set the plans already committed in this plan step to those revealed into `node`."""
    cdef int k, seat, a, i
    for k in range(st.step):
        seat = human_seat(st, k)
        a = revealed_plan(t, node, seat)
        if a >= 0:
            for i in range(N_ROWS):
                st.players[seat].plan[i] = PLAN_TABLE[a - A_PLAN][i]


cdef class SearchTree:
    """One search tree (ISMCTS or SM-MCTS) over a copy of a state: the handle that owns
    the C memory. `search()` runs one per thread and merges their root statistics."""
    cdef Tree* t
    cdef readonly Rules rules
    cdef readonly int player
    cdef readonly str algorithm

    def __cinit__(self, CoreState state, str algorithm="ismcts", unsigned long long seed=0, **options):
        cdef int seat
        cfg = search_config(**options)
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm: {algorithm!r} is not one of {', '.join(ALGORITHMS)}")
        if current_player(&state.s) < 0:
            raise ValueError("search starts at a decision node (this is a chance node or the end)")
        self.t = <Tree*>malloc(sizeof(Tree))
        if self.t == NULL:
            raise MemoryError()
        memset(self.t, 0, sizeof(Tree))
        self.rules = state.rules
        self.algorithm = algorithm
        t = self.t
        t.cat = &self.rules.cat
        t.root = state.s
        t.player = current_player(&state.s)
        self.player = t.player
        t.rng.s = seed
        t.cfg.algorithm = ALGORITHMS[algorithm]
        t.cfg.selection = SELECTIONS[cfg["selection"]]
        t.cfg.tree_policy = TREE_POLICIES[cfg["tree_policy"]]
        t.cfg.prior_weight = cfg["prior_weight"]
        t.cfg.prior_temperature = cfg["prior_temperature"]
        t.cfg.prior_visits = cfg["prior_visits"]
        t.cfg.eval_temperature = cfg["eval_temperature"]
        t.cfg.rollout = ROLLOUTS[cfg["rollout"]]
        t.cfg.cutoff = cfg["cutoff"]
        t.cfg.returns = RETURNS_MODES.index(cfg["returns"])
        if t.root.num_players == 1:
            t.cfg.returns = RETURNS_SCORE   # the solo game returns its score whatever the mode
        t.cfg.plan_candidates = cfg["plan_candidates"]
        t.cfg.max_nodes = cfg["max_nodes"]
        t.cfg.uct_c = cfg["uct_c"]
        t.cfg.gamma = cfg["gamma"]
        t.cfg.epsilon = cfg["epsilon"]
        t.cfg.fame_scale = cfg["fame_scale"]
        if t.cfg.returns != RETURNS_WIN:
            with nogil:
                probe_baseline(t, BASELINE_PROBES)
        if not hash_grow(t) or new_node(t, -1, 0, EDGE_ROOT, NULL, 0) != 0 or not expand(t, 0, &t.root):
            raise MemoryError()
        if t.nodes[0].player == NODE_SIM:
            t.root_first = t.nodes[0].arms
            for seat in range(t.player):
                t.root_first += t.nodes[0].n_arms[seat]
            t.root_n = t.nodes[0].n_arms[t.player]
        else:
            t.root_first = t.nodes[0].arms
            t.root_n = t.nodes[0].n_arms[0]
        t.root_returns = <double*>calloc(t.root_n * MAX_SEATS, sizeof(double))
        t.root_win = <double*>calloc(t.root_n * MAX_SEATS, sizeof(double))
        t.root_fame = <double*>calloc(t.root_n * MAX_SEATS, sizeof(double))
        if t.root_returns == NULL or t.root_win == NULL or t.root_fame == NULL:
            raise MemoryError()

    def __dealloc__(self):
        if self.t != NULL:
            free_tree(self.t)
            free(self.t)
            self.t = NULL

    def run(self, long long iterations=0, double seconds=0.0):
        """Search for `iterations` (if > 0) and at most `seconds` (if > 0), without the GIL."""
        if iterations <= 0 and seconds <= 0:
            raise ValueError("a search needs iterations > 0 or seconds > 0")
        with nogil:
            run_tree(self.t, iterations, seconds)

    @property
    def iterations(self):
        return self.t.iterations

    @property
    def nodes(self):
        return self.t.n_nodes

    @property
    def full(self):
        """Whether the node pool filled up (leaves beyond it were only rolled out)."""
        return bool(self.t.full)

    @property
    def mismatches(self):
        return self.t.mismatches

    def root_stats(self):
        """Per move of the root player: visits and sums (over those visits) of the
        returns, win shares and final fame of every seat."""
        cdef Tree* t = self.t
        cdef int i, seat, n = t.root.num_players
        out = []
        for i in range(t.root_n):
            out.append(dict(
                action=t.arms[t.root_first + i].action,
                visits=t.arms[t.root_first + i].visits,
                returns=[t.root_returns[i * MAX_SEATS + seat] for seat in range(n)],
                win=[t.root_win[i * MAX_SEATS + seat] for seat in range(n)],
                fame=[t.root_fame[i * MAX_SEATS + seat] for seat in range(n)],
            ))
        return out

    cdef str _text(self, const GameState* st, int a):
        cdef CoreState tmp = CoreState.__new__(CoreState)
        tmp.rules = self.rules
        tmp.s = st[0]
        return tmp.action_to_string(a)

    cdef int32_t _best_arm(self, int32_t first, int n):
        # Most visits; ties: the higher mean, then the first.
        cdef int32_t i, best = -1
        cdef Arm* a
        cdef Arm* b
        for i in range(first, first + n):
            a = &self.t.arms[i]
            if a.visits == 0:
                continue
            if best < 0:
                best = i
                continue
            b = &self.t.arms[best]
            if a.visits > b.visits or (a.visits == b.visits and a.value / a.visits > b.value / b.visits):
                best = i
        return best

    def line(self, int action, int max_steps=12):
        """The expected play after the root player's `action`: the most visited moves and,
        after each, the most visited of what followed, as (seat, action, text) triples
        (draws left out). Stops where the tree thins out."""
        cdef Tree* t = self.t
        cdef GameState st = t.root
        cdef int32_t node = 0, arm, c, best, first_arm
        cdef int k, seat, a, committed, edge, i
        cdef bint first = True
        cdef TreeNode* nd
        cdef Rng rng
        out = []
        # The draws are replayed on the root as the root player knows it: the character
        # tiles it has not seen dealt again by a fixed rule, so the line cannot tell them.
        rng.s = 0x11E5
        draw_characters(&st, t.player, &rng)
        while len(out) < max_steps and st.phase != PH_TERMINAL:
            nd = &t.nodes[node]
            if nd.arms < 0:
                break
            best = -1
            if nd.player == NODE_SIM:
                c = nd.first_child
                while c >= 0:
                    if ((not first or revealed_plan(t, c, t.player) == action)
                            and (best < 0 or t.nodes[c].visits > t.nodes[best].visits)):
                        best = c
                    c = t.nodes[c].next_sibling
                if best < 0:
                    break
                committed = st.step
                for k in range(st.num_players):
                    seat = human_seat(&st, k)
                    a = revealed_plan(t, best, seat)
                    if k < committed:
                        for i in range(N_ROWS):
                            st.players[seat].plan[i] = PLAN_TABLE[a - A_PLAN][i]
                        continue
                    if not is_legal(&st, t.cat, a):
                        return out
                    if not (first and seat == t.player):
                        out.append((seat, a, self._text(&st, a)))
                    apply_action(&st, t.cat, a)
            else:
                if first:
                    arm = -1
                    for i in range(nd.n_arms[0]):
                        if t.arms[nd.arms + i].action == action:
                            arm = nd.arms + i
                else:
                    arm = self._best_arm(nd.arms, nd.n_arms[0])
                if arm < 0:
                    break
                a = t.arms[arm].action
                edge = EDGE_HIDDEN if (at_plan_commit(&st) and nd.player != t.player) else a
                c = nd.first_child
                while c >= 0:
                    if t.nodes[c].edge == edge and (best < 0 or t.nodes[c].visits > t.nodes[best].visits):
                        best = c
                    c = t.nodes[c].next_sibling
                if best >= 0 and st.phase == PH_PLAN:
                    # At the end of a plan step the plans are revealed: play those.
                    reveal_committed(t, &st, best)
                    if edge == EDGE_HIDDEN and revealed_plan(t, best, nd.player) >= 0:
                        a = revealed_plan(t, best, nd.player)
                if not is_legal(&st, t.cat, a):
                    break
                if not first:
                    out.append((nd.player, a, self._text(&st, a)))
                apply_action(&st, t.cat, a)
            first = False
            if best < 0 or not replay_draws(t, &st, best):
                break
            node = best
        return out


def _thread_seed(unsigned long long seed, int index):
    cdef Rng rng
    rng.s = seed + <unsigned long long>index * 0xD1B54A32D192ED03ULL
    return rng_next(&rng)


def search(CoreState state, str algorithm="ismcts", iterations=None, seconds=None,
           unsigned long long seed=0, int threads=1, int lines=0, int line_length=12, **options):
    """Search from `state` for its player to act and return the root statistics.

    algorithm   "ismcts" or "smmcts"
    iterations  total iterations (split over the threads); seconds: wall-clock budget per
                thread; either or both (the first reached stops). Default: 1000 iterations.
    threads     independent trees (root parallelism), each with its own seed, each in its
                own thread without the GIL; their root statistics are merged.
    lines       principal lines for the `lines` most visited moves (line_length moves each).
    options     see SEARCH_OPTIONS.

    Returns a dict: player, iterations, seconds, nodes, threads, full (the node pool ran
    out), mismatches (iterations cut short because a move in the tree did not fit the
    sampled state: a hash collision, so almost always 0), and `moves`, one dict per
    move of the root player (most visited first): action, visits, returns (mean per
    seat), win (win probability per seat; a shared win counts 1/k), fame (mean final fame
    per seat, projected at cut-offs) and line (a list of (seat, action, text)) if asked.
    Deterministic for a given seed and iteration budget.
    """
    import threading
    import time as _time
    if threads < 1:
        raise ValueError(f"threads: {threads} is not >= 1")
    if iterations is None and seconds is None:
        iterations = 1000
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations: {iterations!r} is not an integer >= 1")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0):
        raise ValueError(f"seconds: {seconds!r} is not a number > 0")
    trees = [SearchTree(state, algorithm, _thread_seed(seed, i), **options) for i in range(threads)]
    budgets = [0] * threads
    if iterations is not None:
        budgets = [iterations // threads + (1 if i < iterations % threads else 0) for i in range(threads)]
    secs = float(seconds) if seconds is not None else 0.0
    started = _time.perf_counter()
    workers = [threading.Thread(target=tree.run, args=(budgets[i], secs))
               for i, tree in enumerate(trees[1:], 1) if budgets[i] > 0 or secs > 0]
    for w in workers:
        w.start()
    if budgets[0] > 0 or secs > 0:
        trees[0].run(budgets[0], secs)
    for w in workers:
        w.join()
    elapsed = _time.perf_counter() - started
    merged = {}
    order = []
    for tree in trees:
        for st in tree.root_stats():
            m = merged.get(st["action"])
            if m is None:
                merged[st["action"]] = m = dict(action=st["action"], visits=0, returns=[0.0] * len(st["returns"]),
                                                win=[0.0] * len(st["win"]), fame=[0.0] * len(st["fame"]))
                order.append(st["action"])
            m["visits"] += st["visits"]
            for key in ("returns", "win", "fame"):
                m[key] = [x + y for x, y in zip(m[key], st[key])]
    moves = []
    for a in order:
        m = merged[a]
        v = m["visits"]
        for key in ("returns", "win", "fame"):
            m[key] = [x / v for x in m[key]] if v else [0.0] * len(m[key])
        moves.append(m)
    # Most visited first; ties: the higher mean return of the root player, then the action.
    p = state.current_player()
    moves.sort(key=lambda m: (-m["visits"], -m["returns"][p], m["action"]))
    for m in moves[:lines]:
        # The line from the tree where the move was visited most.
        best = max(range(threads), key=lambda i: (_visits_of(trees[i], m["action"]), -i))
        m["line"] = trees[best].line(m["action"], line_length)
    return dict(player=p, algorithm=algorithm, iterations=sum(t.iterations for t in trees),
                seconds=elapsed, nodes=sum(t.nodes for t in trees), threads=threads,
                full=any(t.full for t in trees), mismatches=sum(t.mismatches for t in trees), moves=moves)


def _visits_of(SearchTree tree, int action):
    cdef int i
    for i in range(tree.t.root_n):
        if tree.t.arms[tree.t.root_first + i].action == action:
            return tree.t.arms[tree.t.root_first + i].visits
    return 0
