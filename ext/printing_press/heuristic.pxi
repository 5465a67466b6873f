# The heuristic player, the static evaluation and action values (included at the end of
# core.pyx).
#
# Written from the rules: a round scores one 3x3 window of the tableau against the
# round's order, so a tableau is worth its best window (exact points, plus partial credit
# for conditions half met while card steps remain, plus the end bonus the window's symbols
# will bring, plus initiative icons); an action is worth what it changes in that. The
# numbers are judgement, kept in one place per idea.

from libc.math cimport exp
from libc.stdint cimport int8_t, uint32_t, uint64_t

cdef enum:
    TOP_WINDOWS = 16       # best windows kept (a card overlaps at most 15)
    # The tableau as the heuristic reads it (Eval.shown): GRID x GRID with PAD empty cells
    # on every side, so that every window the heuristic scores (a window meeting a card
    # anchored at -3 starts at -5; one meeting a card ending at GRID + 2 ends at GRID + 4)
    # is read without bounds checks.
    PAD = 5
    PAD_SIDE = GRID + 2 * PAD
    TOKEN_SHOWN = N_SYMBOLS + 1   # what a token may show: a symbol or SQ_INITIATIVE

cdef double HEURISTIC_EPSILON = 0.03   # chance of a uniformly random move (rollout diversity)
cdef double MAIN_PARTIAL = 0.7         # share of a plate's points for letters half gathered ...
cdef double ADD_PARTIAL = 0.25         # ... of the additional condition not met yet
cdef double INK_PARTIAL = 0.2
cdef double SPECIALTY_PARTIAL = 0.6
cdef double ICON_IN_FRAME = 0.35       # an icon kept in a closed frame: initiative later, per round left
cdef double ICON_THIS_ROUND = 0.3      # an icon in the tableau: initiative for the steps left
cdef double HOLD_MARGIN = 2.5          # a setup token is worth more held until Close Frames
cdef double DISCARD_WORTH = 3.0        # a card worth this much is never worse than 3 tokens
cdef double ABILITY_VALUE = 1.5        # a one-time ability not spent
cdef double FUTURE_MARK = 0.3          # a symbol's value for markers still to come, per marker
cdef double ROUND_POINTS = 16.0        # a round's points and the bonus it brings, for rounds to come
cdef double STEP_POINTS = 2.5          # what a Select Cards step still adds to a round
cdef double AUTOMA_CARD = 2.9          # the automa's points per card to come

# Preferred sides and the solo character (judgement: the extra token, the extra marker,
# free orientation, a specialty token, a cube for a round).
cdef int PREFERRED_SIDE[N_CHARACTERS]
PREFERRED_SIDE[:] = [SIDE_B, SIDE_B, SIDE_A, SIDE_B, SIDE_B]
cdef int SOLO_CHARACTER = CH_CAXTON

ctypedef struct Overlay:
    int n
    int r[3]
    int c[3]
    int v[3]
    bint under             # Ungler: occupied cells keep what they show

ctypedef struct Eval:
    int seat
    int frame
    int plate
    double potential       # how much partial progress still counts (card steps left)
    double bonus_w[N_SYMBOLS]
    double icon_w          # an icon inside the window
    double tab_icon_w      # an icon anywhere in this round's tableau
    int n_top
    double top_val[TOP_WINDOWS]
    int top_r[TOP_WINDOWS]
    int top_c[TOP_WINDOWS]
    double best
    int best_r
    int best_c
    # What each cell of the seat's tableau shows (a symbol, SQ_INITIATIVE, SQ_BLANK), -1
    # where empty: cell (r, c) at [r + PAD][c + PAD]. overlay_delta lays overlays on it
    # and takes them off again.
    int8_t shown[PAD_SIDE][PAD_SIDE]
    # window_value's constants for the seat's order, by shown code + 1: a symbol's bonus
    # weight (0 for the rest), and counts packed 4 bits a symbol (the icon after them).
    double cell_bonus[16]
    uint64_t cell_count[16]
    int letters[N_LETTERS]  # the plate's main letters
    int need                # ... in all
    int want                # specialties the frame asks
    int ink_at[3]           # the cells of the frame's ink line in a window, as offsets
                            # in e.shown from the window's top-left cell
    uint64_t spec_nibbles   # the low bit of the count of each specialty the frame asks
    double main_share[10]   # partial credit for m of the main letters (m < need; a window has 9 cells)
    double add_partial      # potential * ADD_PARTIAL * plate bonus
    double ink_partial      # potential * INK_PARTIAL * ink points
    double spec_share[N_KIND + 1]   # partial credit for k of the specialties asked
    # best_token_delta's answers for this Eval (the tableau does not change while one is
    # used), by what the token shows, for its best 2 windows ([0]) and 4 ([1]): the value,
    # the action, and whether the answer came from the best windows alone (then the 4
    # windows' search goes on from the 2 windows' answer). token_known: bit
    # ix * TOKEN_SHOWN + shown; setup_eval clears it.
    uint32_t token_known
    # token_twin[x]: the first symbol whose token is worth what x's is everywhere (the
    # same bonus weight, and neither counts for the order: not a letter of the plate or
    # its additional condition, the frame's ink or a specialty it asks), else x; the
    # answers above are kept under it.
    int8_t token_twin[TOKEN_SHOWN]
    double token_val[2][TOKEN_SHOWN]
    int token_act[2][TOKEN_SHOWN]
    bint token_in_top[2][TOKEN_SHOWN]


cdef inline double dmax(double a, double b) noexcept nogil:
    return a if a > b else b


cdef inline int steps_left(const GameState* s, const Catalogue* cat) noexcept nogil:
    """Select Cards steps of this round not finished (the current one counts)."""
    if s.phase < PH_DEAL_CARDS:
        return card_steps(s, cat)
    if s.phase > PH_CARDS:
        return 0
    return card_steps(s, cat) - s.step


cdef inline int rounds_after(const GameState* s) noexcept nogil:
    cdef int r = s.rounds - (s.round if s.round > 0 else 1)
    return r if r > 0 else 0


cdef inline int shown_code(int v) noexcept nogil:
    """A cell as Eval.shown keeps it: what it shows (its flags dropped), -1 if empty.
    shown_symbol and shows_icon read it as they read the cell."""
    return v & CELL_BASE if v >= 0 else -1


cdef inline int nibble(uint64_t packed, int x) noexcept nogil:
    return <int>((packed >> (4 * x)) & 15)


cdef double window_value(const Eval* e, const Catalogue* cat, int r0, int c0) noexcept nogil:
    """The window with top-left cell (r0, c0) of the tableau in e.shown (with any overlay
    laid on it): its points, partial credit, bonus symbols and icons. The constants of the
    order come from setup_eval (the hot path of the heuristic: every placement scores the
    windows it meets, so the cells are copied out only for the plate's additional
    condition, and the specialties are counted a nibble each at once)."""
    cdef int16_t w[9]
    cdef const Plate* pl
    cdef const Frame* fr = &cat.frames[e.frame]
    cdef const int8_t* top = &e.shown[r0 + PAD][c0 + PAD]
    cdef const int8_t* row
    cdef uint64_t packed = 0
    cdef int i, k, x, matched = 0, have
    cdef double v = 0.0
    for i in range(3):
        row = top + i * PAD_SIDE
        for k in range(3):
            x = row[k] + 1
            v += e.cell_bonus[x]      # 0 for what is not a symbol
            packed += e.cell_count[x]
    for x in range(N_LETTERS):
        k = nibble(packed, x)
        matched += k if k < e.letters[x] else e.letters[x]
    if matched == e.need:
        pl = &cat.plates[e.plate]
        v += pl.points
        for i in range(3):
            for k in range(3):
                w[i * 3 + k] = top[i * PAD_SIDE + k]
        if plate_additional(pl, w):
            v += pl.bonus
        elif pl.kind != ADD_ABSENT:
            v += e.add_partial
    elif e.need > 0:
        v += e.main_share[matched]
    if top[e.ink_at[0]] == fr.ink or top[e.ink_at[1]] == fr.ink or top[e.ink_at[2]] == fr.ink:
        v += fr.ink_points
    elif nibble(packed, fr.ink) > 0:
        v += e.ink_partial
    # A nibble's bits folded onto its low bit: whether that symbol is in the window.
    have = popcount64((packed | (packed >> 1) | (packed >> 2) | (packed >> 3)) & e.spec_nibbles)
    if have == e.want:
        v += fr.specialty_points
    elif e.want > 0:
        v += e.spec_share[have]
    return v + nibble(packed, N_SYMBOLS) * e.icon_w


cdef inline bint plain_symbol(const Eval* e, const Plate* pl, const Frame* fr, int x) noexcept nogil:
    """Whether symbol x counts in a window only through its bonus weight (window_value
    reads nothing else of it)."""
    if x >= N_SYMBOLS or x == pl.letter or x == pl.letter2 or x == fr.ink:
        return False
    if x < N_LETTERS:
        return pl.letters[x] == 0
    return not (SYM_TYPESETTING <= x < SYM_TYPESETTING + N_KIND and (fr.specialties >> (x - SYM_TYPESETTING)) & 1)


cdef void setup_eval(const GameState* s, const Catalogue* cat, int seat, Eval* e) noexcept nogil:
    """The weights for `seat` now, and its tableau's best windows."""
    cdef const PlayerState* p = &s.players[seat]
    cdef const Plate* pl
    cdef const Frame* fr
    cdef int r, c, x, k, j, round_ix = s.round - 1 if s.round > 0 else 0
    cdef double v
    cdef bint marker_due
    e.seat = seat
    e.frame = p.order_frame[round_ix]
    e.plate = p.order_plate[round_ix]
    e.potential = steps_left(s, cat) / <double>card_steps(s, cat)
    e.icon_w = ICON_IN_FRAME * rounds_after(s)
    e.tab_icon_w = ICON_THIS_ROUND * e.potential
    marker_due = s.phase <= PH_MARKERS and e.frame >= 0 and p.marker[round_ix * 2 + 0] == 0 and \
        p.marker[round_ix * 2 + 1] == 0
    for x in range(N_SYMBOLS):
        e.bonus_w[x] = marker_multiplier(s, cat, p, x)
        if x >= SYM_BLUE:
            e.bonus_w[x] += FUTURE_MARK * rounds_after(s)
    if marker_due:
        for j in range(2):
            e.bonus_w[cat.frames[e.frame].slots[j]] += 1.0
    e.n_top = 0
    e.token_known = 0
    e.best = 0.0
    e.best_r = 0
    e.best_c = 0
    for x in range(16):
        e.cell_bonus[x] = e.bonus_w[x - 1] if 1 <= x <= N_SYMBOLS else 0.0
        e.cell_count[x] = (1ULL << (4 * (x - 1))) if 1 <= x <= N_SYMBOLS + 1 else 0
    if e.frame >= 0:
        pl = &cat.plates[e.plate]
        fr = &cat.frames[e.frame]
        e.need = 0
        for x in range(N_LETTERS):
            e.letters[x] = pl.letters[x]
            e.need += pl.letters[x]
        e.want = 0
        e.spec_nibbles = 0
        for x in range(N_KIND):
            e.want += (fr.specialties >> x) & 1
            if (fr.specialties >> x) & 1:
                e.spec_nibbles |= 1ULL << (4 * (SYM_TYPESETTING + x))
        for k in range(3):
            e.ink_at[k] = (fr.line - LINE_TOP_ROW) * PAD_SIDE + k if fr.line <= LINE_BOTTOM_ROW \
                else k * PAD_SIDE + (fr.line - LINE_LEFT_COLUMN)
        for k in range(10):
            e.main_share[k] = e.potential * MAIN_PARTIAL * pl.points * (k * k) / <double>(e.need * e.need) \
                if e.need > 0 else 0.0
        e.add_partial = e.potential * ADD_PARTIAL * pl.bonus
        e.ink_partial = e.potential * INK_PARTIAL * fr.ink_points
        for k in range(N_KIND + 1):
            e.spec_share[k] = e.potential * SPECIALTY_PARTIAL * fr.specialty_points * k / <double>e.want \
                if e.want > 0 else 0.0
    for x in range(TOKEN_SHOWN):
        e.token_twin[x] = x
        if e.frame >= 0 and plain_symbol(e, &cat.plates[e.plate], &cat.frames[e.frame], x):
            for k in range(x):
                if e.token_twin[k] == k and plain_symbol(e, &cat.plates[e.plate], &cat.frames[e.frame], k) \
                        and e.bonus_w[k] == e.bonus_w[x]:
                    e.token_twin[x] = k
                    break
    memset(e.shown, -1, sizeof(e.shown))
    for r in range(p.height):
        for c in range(p.width):
            e.shown[r + PAD][c + PAD] = shown_code(p.grid[r][c])
    if e.frame < 0 or p.pieces == 0:
        return
    for r in range(-2, p.height):
        for c in range(-2, p.width):
            v = window_value(e, cat, r, c)
            # keep the TOP_WINDOWS best, sorted
            if e.n_top < TOP_WINDOWS:
                k = e.n_top
                e.n_top += 1
            elif v > e.top_val[TOP_WINDOWS - 1]:
                k = TOP_WINDOWS - 1
            else:
                continue
            while k > 0 and e.top_val[k - 1] < v:
                e.top_val[k] = e.top_val[k - 1]
                e.top_r[k] = e.top_r[k - 1]
                e.top_c[k] = e.top_c[k - 1]
                k -= 1
            e.top_val[k] = v
            e.top_r[k] = r
            e.top_c[k] = c
    e.best = e.top_val[0]
    e.best_r = e.top_r[0]
    e.best_c = e.top_c[0]


cdef inline bint window_meets(int r0, int c0, const Overlay* ov) noexcept nogil:
    cdef int i
    for i in range(ov.n):
        if r0 <= ov.r[i] <= r0 + 2 and c0 <= ov.c[i] <= c0 + 2:
            return True
    return False


cdef double overlay_delta(Eval* e, const Catalogue* cat, const PlayerState* p, const Overlay* ov) noexcept nogil:
    """What laying the overlay adds: the best window after it (the windows it meets are
    scored again) minus the best now, and the icons it shows or covers in the tableau.
    The overlay is laid on e.shown for the scoring and taken off again."""
    cdef int i, r, c, r0 = 1 << 20, r1 = -(1 << 20), c0 = 1 << 20, c1 = -(1 << 20), old, icons = 0
    cdef int8_t kept[3]
    cdef double best = 0.0, v
    if e.frame < 0:
        return 0.0
    for i in range(ov.n):
        r0 = ov.r[i] if ov.r[i] < r0 else r0
        r1 = ov.r[i] if ov.r[i] > r1 else r1
        c0 = ov.c[i] if ov.c[i] < c0 else c0
        c1 = ov.c[i] if ov.c[i] > c1 else c1
        old = e.shown[ov.r[i] + PAD][ov.c[i] + PAD]
        kept[i] = <int8_t>old
        if ov.under and old >= 0:
            continue
        icons += (ov.v[i] & CELL_BASE) == SQ_INITIATIVE
        icons -= shows_icon(old)
        e.shown[ov.r[i] + PAD][ov.c[i] + PAD] = <int8_t>shown_code(ov.v[i])
    for i in range(e.n_top):
        if not window_meets(e.top_r[i], e.top_c[i], ov):
            best = e.top_val[i]
            break
    for r in range(r0 - 2, r1 + 1):
        for c in range(c0 - 2, c1 + 1):
            v = window_value(e, cat, r, c)
            if v > best:
                best = v
    for i in range(ov.n - 1, -1, -1):
        e.shown[ov.r[i] + PAD][ov.c[i] + PAD] = kept[i]
    return best - e.best + icons * e.tab_icon_w


cdef inline void card_overlay(const Catalogue* cat, int card, int o, int r, int c, bint under,
                              Overlay* ov) noexcept nogil:
    cdef int i, dr = orient_dr(o), dc = orient_dc(o)
    ov.n = 3
    ov.under = under
    for i in range(3):
        ov.r[i] = r + i * dr
        ov.c[i] = c + i * dc
        ov.v[i] = card_square(&cat.cards[card], o, i)


cdef double best_card_delta(const GameState* s, const Catalogue* cat, Eval* e, const PlayerState* p,
                            int card, int* action) noexcept nogil:
    """The best placement of `card` for the player (with Ungler's ability worth keeping
    unless it pays), and its action."""
    cdef Overlay ov
    cdef int o, r, c, dr, dc, printed = cat.cards[card].vertical
    cdef double best = -1e9, v, cost
    action[0] = -1
    for o in range(4):
        cost = 0.0
        if o != printed:
            if not has_ability(p, CH_UNGLER, SIDE_B) or (o >= 2 and palindrome(&cat.cards[card])):
                continue
            cost = ABILITY_VALUE
        if p.pieces == 0:
            card_overlay(cat, card, o, 0, 0, False, &ov)
            v = overlay_delta(e, cat, p, &ov) - cost
            if v > best:
                best = v
                action[0] = A_PLACE + o * N_ANCHORS + anchor_of(0, 0)
            continue
        dr = orient_dr(o)
        dc = orient_dc(o)
        for r in range(-1 - 2 * dr, p.height + 1):
            for c in range(-1 - 2 * dc, p.width + 1):
                if not card_fits(p, o, r, c, False):
                    continue
                card_overlay(cat, card, o, r, c, False, &ov)
                v = overlay_delta(e, cat, p, &ov) - cost
                if v > best:
                    best = v
                    action[0] = A_PLACE + o * N_ANCHORS + anchor_of(r, c)
    if has_ability(p, CH_UNGLER, SIDE_A) and p.pieces > 0:
        dr = orient_dr(printed)
        dc = orient_dc(printed)
        for r in range(-1 - 2 * dr, p.height + 1):
            for c in range(-1 - 2 * dc, p.width + 1):
                if not card_fits(p, printed, r, c, True):
                    continue
                card_overlay(cat, card, printed, r, c, True, &ov)
                v = overlay_delta(e, cat, p, &ov) - ABILITY_VALUE
                if v > best:
                    best = v
                    action[0] = A_UNDER + anchor_of(r, c)
    return best


cdef inline bint in_top_window(const Eval* e, int k, int r, int c) noexcept nogil:
    """Whether cell (r, c) lies in one of the best k windows."""
    cdef int j
    for j in range(k):
        if e.top_r[j] <= r <= e.top_r[j] + 2 and e.top_c[j] <= c <= e.top_c[j] + 2:
            return True
    return False


cdef double token_scan(const Catalogue* cat, Eval* e, const PlayerState* p, Overlay* ov,
                       int k0, int k1, double best, int* action) noexcept nogil:
    """best_token_delta's search of windows k0..k1-1 of the best ones, from `best` and
    `action` (those of the windows before k0). A cell already in a better window was
    tried there, and the same value is never strictly better: skipped."""
    cdef int k, r, c
    cdef double v
    for k in range(k0, k1):
        for r in range(e.top_r[k], e.top_r[k] + 3):
            for c in range(e.top_c[k], e.top_c[k] + 3):
                if not token_fits(p, r, c) or in_top_window(e, k, r, c):
                    continue
                ov.r[0] = r
                ov.c[0] = c
                v = overlay_delta(e, cat, p, ov)
                if v > best:
                    best = v
                    action[0] = A_TOKEN_AT + anchor_of(r, c)
    return best


cdef double best_token_delta(const Catalogue* cat, Eval* e, const PlayerState* p, int shown,
                             int value_flag, int* action, int windows=4) noexcept nogil:
    """The best place for a token showing `shown` (a symbol or the initiative icon),
    looked for in the `windows` best windows (where a token can count). The value and the
    place do not depend on value_flag (a token or an ability's: the same symbol shown);
    answers for 2 and 4 windows are kept in e (token_known)."""
    cdef Overlay ov
    cdef int r, c, k0 = 0, ix = -1, n_win = e.n_top if e.n_top < windows else windows, key = shown
    cdef uint32_t bit
    cdef double best = -1e9, v
    action[0] = -1
    ov.n = 1
    ov.under = False
    ov.v[0] = value_flag | shown
    if p.pieces == 0:
        return best
    if (windows == 2 or windows == 4) and 0 <= shown < TOKEN_SHOWN:
        ix = windows // 4
        key = e.token_twin[shown]
        bit = 1U << (ix * TOKEN_SHOWN + key)
        if e.token_known & bit:
            action[0] = e.token_act[ix][key]
            return e.token_val[ix][key]
        if ix == 1 and e.token_known & (1U << key) and e.token_in_top[0][key]:
            # The 2 windows' answer, and the search goes on from the third window.
            best = e.token_val[0][key]
            action[0] = e.token_act[0][key]
            k0 = 2 if n_win > 2 else n_win
    best = token_scan(cat, e, p, &ov, k0, n_win, best, action)
    if ix >= 0:
        e.token_in_top[ix][key] = action[0] >= 0
    if action[0] < 0:
        # No cell of the best windows takes a token: anywhere it fits.
        for r in range(-1, p.height + 1):
            for c in range(-1, p.width + 1):
                if token_fits(p, r, c):
                    ov.r[0] = r
                    ov.c[0] = c
                    v = overlay_delta(e, cat, p, &ov)
                    if v > best:
                        best = v
                        action[0] = A_TOKEN_AT + anchor_of(r, c)
    if ix >= 0:
        e.token_known |= bit
        e.token_val[ix][key] = best
        e.token_act[ix][key] = action[0]
    return best


cdef double discard_value(const GameState* s, const Catalogue* cat, Eval* e, const PlayerState* p) noexcept nogil:
    """Expected gain of discarding for 3 tokens: the best of 3 draws (with replacement, as an
    approximation), each placed at its best, or initiative side up."""
    cdef double val[N_SYMBOLS]
    cdef double prob[N_SYMBOLS]
    cdef int order[N_SYMBOLS]
    cdef int x, i, j, t, total = total_bag(s), act
    cdef double down, acc = 0.0, prev = 0.0, cum = 0.0, q
    if total == 0 or p.pieces == 0:
        return -1e9
    down = best_token_delta(cat, e, p, SQ_INITIATIVE, CELL_TOKEN, &act, 2)
    for x in range(N_SYMBOLS):
        order[x] = x
        prob[x] = s.bag[x] / <double>total
        val[x] = dmax(down, best_token_delta(cat, e, p, x, CELL_TOKEN, &act, 2)) if s.bag[x] > 0 else down
    for i in range(1, N_SYMBOLS):
        t = order[i]
        j = i - 1
        while j >= 0 and val[order[j]] < val[t]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = t
    for i in range(N_SYMBOLS):
        cum += prob[order[i]]
        q = 1.0 - (1.0 - (cum if cum < 1.0 else 1.0)) ** DRAW_FOR_DISCARD
        acc += val[order[i]] * (q - prev)
        prev = q
    return acc


cdef double order_value(const GameState* s, const Catalogue* cat, const PlayerState* p, int frame, int plate) noexcept nogil:
    """A static guess of an order's worth: its points, weighted by how often they are met,
    and its bonus slots' symbols for the markers already placed."""
    cdef const Plate* pl = &cat.plates[plate]
    cdef const Frame* fr = &cat.frames[frame]
    cdef int k, need = 0
    cdef double v
    for k in range(N_LETTERS):
        need += pl.letters[k]
    v = pl.points * (0.9 if need <= 3 else 0.75) + pl.bonus * 0.35
    v += fr.ink_points * 0.55
    v += fr.specialty_points * (0.7 if popcount64(fr.specialties) == 1 else 0.5)
    for k in range(2):
        if marked(cat, p, fr.slots[k]):
            v += 0.6
    for k in range(MAX_HAND):
        if p.slot[k] == SLOT_HAND and p.hand[k] < N_LETTERS and pl.letters[p.hand[k]] > 0:
            v += 0.3
    return v


cdef double marker_value(const GameState* s, const Catalogue* cat, const Eval* e, const PlayerState* p,
                         int kind, int j) noexcept nogil:
    """A bonus marker on slot j: its value times the instances of the slot's symbol
    expected in the three frames."""
    cdef const Frame* fr = &cat.frames[e.frame]
    cdef int sym = fr.slots[j], r, i, seen = 0
    cdef int16_t w[9]
    cdef double expected, v
    for r in range(N_ROUNDS):
        if r < s.round - 1:
            for i in range(9):
                seen += shown_symbol(p.closed[r][i]) == sym
    if p.pieces > 0:
        read_window(p, e.best_r, e.best_c, w)
        for i in range(9):
            seen += shown_symbol(w[i]) == sym
    expected = seen + 0.9 * rounds_after(s)
    v = (MARKER_ONE if marked(cat, p, sym) else (MARKER_THREE if kind == MK_THIRTEEN else MARKER_TWO)) * expected
    if kind == MK_WITH_EXTRA:
        sym = fr.slots[1 - j]
        seen = 0
        for r in range(N_ROUNDS):
            if r < s.round - 1:
                for i in range(9):
                    seen += shown_symbol(p.closed[r][i]) == sym
        v += <double>MARKER_ONE * (seen + 0.9 * rounds_after(s)) - 0.5 * rounds_after(s)
    if kind == MK_THIRTEEN:
        v -= 1.0 * rounds_after(s)     # the 1/3 marker is worth keeping for a better symbol
    return v


cdef double window_final_value(const Eval* e, const Catalogue* cat, const PlayerState* p, int r, int c) noexcept nogil:
    return window_value(e, cat, r, c)


cdef double free_action_value(const GameState* s, const Catalogue* cat, Eval* e, const PlayerState* p,
                              int a) noexcept nogil:
    """Setup tokens, Guillard's token, Caxton's exchange: what they add now, less what
    holding them is worth (nothing at Close Frames)."""
    cdef int act, k, x
    cdef double margin = 0.0 if s.phase == PH_CLOSE else HOLD_MARGIN, v, best, given
    if A_SETUP_UP <= a < A_SETUP_DOWN:
        return e.best + best_token_delta(cat, e, p, (a - A_SETUP_UP) % N_SYMBOLS, CELL_TOKEN, &act) - margin - 0.01
    if A_SETUP_DOWN <= a < A_GUILLARD:
        return e.best + best_token_delta(cat, e, p, SQ_INITIATIVE, CELL_TOKEN, &act) - margin - 0.02
    if A_GUILLARD <= a < A_CAXTON_GIVE:
        return e.best + best_token_delta(cat, e, p, a - A_GUILLARD, CELL_ABILITY, &act) - margin - 0.01
    if A_CAXTON_GIVE <= a < A_CAXTON_TAKE:
        if p.pieces == 0:
            return -1e9
        best = 0.0
        for x in range(N_SYMBOLS):
            if s.bag[x] > 0:
                best = dmax(best, best_token_delta(cat, e, p, x, CELL_TOKEN, &act))
        k = a - A_CAXTON_GIVE
        given = dmax(0.0, best_token_delta(cat, e, p, p.hand[PAIR_FIRST[k]], CELL_TOKEN, &act))
        given += dmax(0.0, best_token_delta(cat, e, p, p.hand[PAIR_SECOND[k]], CELL_TOKEN, &act))
        return e.best + best - given - margin - ABILITY_VALUE
    return -1e9


cdef void action_values(const GameState* s, const Catalogue* cat, const int* actions, int n,
                        double* values) noexcept nogil:
    """The heuristic's value of each legal action at a decision node (roughly in points,
    on a scale shared by the actions of one decision: the best window's value where the
    action is compared with free actions)."""
    cdef int seat = current_player(s), i, a, act, k, o, r, c
    cdef const PlayerState* p
    cdef Eval e
    cdef Overlay ov
    cdef double base, disc = -1e9, best_card = -1e9, window_gain = 0.0
    cdef bint window_gain_known = False
    cdef double card_value[N_CARDS]
    if seat < 0:
        for i in range(n):
            values[i] = 0.0
        return
    p = &s.players[seat]
    setup_eval(s, cat, seat, &e)
    base = e.best
    # Taking a card: its best placement, or discarding it for tokens; the tokens are looked
    # at only when no card is clearly worth more.
    for i in range(n):
        if A_TAKE <= actions[i] < A_PLACE:
            card_value[actions[i] - A_TAKE] = best_card_delta(s, cat, &e, p, actions[i] - A_TAKE, &act)
            best_card = dmax(best_card, card_value[actions[i] - A_TAKE])
    if -1e8 < best_card < DISCARD_WORTH:
        disc = discard_value(s, cat, &e, p)
    for i in range(n):
        a = actions[i]
        if s.token_window >= 0 and s.held == HELD_NONE:
            # Before the step's order: a token initiative side up when the place it wins
            # is worth more than holding it; the others as at the player's own decisions.
            if a == A_DONE:
                values[i] = base
            elif A_SETUP_DOWN <= a < A_GUILLARD:
                if not window_gain_known:   # the same for every token: once
                    window_gain = token_window_gain(s, cat, seat)
                    window_gain_known = True
                values[i] = free_action_value(s, cat, &e, p, a) + window_gain
            else:
                values[i] = free_action_value(s, cat, &e, p, a)
        elif A_SETUP_UP <= a < A_TOKEN_AT and not (s.caxton and a >= A_CAXTON_TAKE):
            values[i] = free_action_value(s, cat, &e, p, a)
        elif a == A_YES or a == A_NO:
            values[i] = bonhomme_value(s, cat, seat, a == A_YES)
        elif A_CHARACTER <= a < A_SIDE:
            values[i] = 1.0 if a - A_CHARACTER == SOLO_CHARACTER else 0.0
        elif A_SIDE <= a < A_YES:
            values[i] = 1.0 if p.character >= 0 and a - A_SIDE == PREFERRED_SIDE[p.character] else 0.0
        elif A_ORDER <= a < A_TAKE:
            k = a - A_ORDER
            for o in range(s.n_orders):
                if s.offer_frame[o] == k:
                    values[i] = base + order_value(s, cat, p, k, s.offer_plate[o])
        elif A_TAKE <= a < A_PLACE:
            values[i] = base + dmax(card_value[a - A_TAKE], disc)
        elif A_PLACE <= a < A_UNDER:
            o = (a - A_PLACE) // N_ANCHORS
            k = (a - A_PLACE) % N_ANCHORS
            card_overlay(cat, s.taken, o, anchor_row(k), anchor_col(k), False, &ov)
            values[i] = base + overlay_delta(&e, cat, p, &ov) - (
                ABILITY_VALUE if o != cat.cards[s.taken].vertical else 0.0)
        elif A_UNDER <= a < A_DISCARD:
            k = a - A_UNDER
            card_overlay(cat, s.taken, cat.cards[s.taken].vertical, anchor_row(k), anchor_col(k), True, &ov)
            values[i] = base + overlay_delta(&e, cat, p, &ov) - ABILITY_VALUE
        elif a == A_DISCARD:
            values[i] = base + discard_value(s, cat, &e, p)
        elif A_KEEP_UP <= a < A_KEEP_DOWN:
            values[i] = base + best_token_delta(cat, &e, p, a - A_KEEP_UP, CELL_TOKEN, &act)
        elif A_KEEP_DOWN <= a < A_SETUP_UP:
            values[i] = base + best_token_delta(cat, &e, p, SQ_INITIATIVE, CELL_TOKEN, &act) - 0.01
        elif A_CAXTON_TAKE <= a < A_TOKEN_AT:
            values[i] = base + best_token_delta(cat, &e, p, a - A_CAXTON_TAKE, CELL_TOKEN, &act)
        elif A_TOKEN_AT <= a < A_MARKER:
            k = a - A_TOKEN_AT
            ov.n = 1
            ov.under = False
            ov.r[0] = anchor_row(k)
            ov.c[0] = anchor_col(k)
            ov.v[0] = (CELL_ABILITY if s.held == HELD_GUILLARD else CELL_TOKEN) | s.held_shown
            values[i] = base + overlay_delta(&e, cat, p, &ov)
        elif A_MARKER <= a < A_WINDOW:
            values[i] = base + marker_value(s, cat, &e, p, (a - A_MARKER) // 2, (a - A_MARKER) % 2)
        elif A_WINDOW <= a < N_ACTIONS:
            k = a - A_WINDOW
            values[i] = window_final_value(&e, cat, p, anchor_row(k), anchor_col(k)) if e.frame >= 0 else 0.0
        else:
            values[i] = 0.0


cdef int ranked_offer(const GameState* s, const Catalogue* cat, int seat, double* vals) noexcept nogil:
    """The cards on offer by what each is worth to `seat` (its best placement), best first:
    vals[k] is roughly the card the player gets when k players pick before it."""
    cdef Eval e
    cdef int i, j, n = 0, act
    cdef double tmp
    setup_eval(s, cat, seat, &e)
    for i in range(s.n_offer):
        if s.offer[i] >= 0:
            vals[n] = best_card_delta(s, cat, &e, &s.players[seat], s.offer[i], &act)
            n += 1
    for i in range(1, n):
        tmp = vals[i]
        j = i - 1
        while j >= 0 and vals[j] < tmp:
            vals[j + 1] = vals[j]
            j -= 1
        vals[j + 1] = tmp
    return n


cdef int order_place(const GameState* s, const Catalogue* cat, int seat, int extra) noexcept nogil:
    """The seat's place (0 first) in this step's order were its initiative `extra` higher,
    Bonhomme's going first left aside."""
    cdef GameState t = s[0]
    cdef int i
    t.first_seat = -1
    t.players[seat].cubes += extra
    set_order(&t, cat, s.phase == PH_CARDS)
    for i in range(t.n_turns):
        if t.turn_order[i] == seat:
            return i
    return 0


cdef double bonhomme_value(const GameState* s, const Catalogue* cat, int seat, bint yes) noexcept nogil:
    """Bonhomme's question. Side B: a cube at once (a round of initiative). Side A: go
    first when the card she would get otherwise is clearly worse than the best one (in the
    last step of the game, whenever she is not first)."""
    cdef double vals[MAX_OFFER]
    cdef int n, pos
    cdef double tmp
    if s.phase == PH_ROUND_START:
        return 1.0 if yes else 0.0
    if not yes:
        return 0.0
    pos = order_place(s, cat, seat, 0)
    if pos == 0:
        return -1.0
    if s.phase != PH_CARDS:
        return -0.5
    n = ranked_offer(s, cat, seat, vals)
    if n == 0:
        return -1.0
    tmp = vals[0] - vals[pos if pos < n else n - 1]
    if s.round == s.rounds and s.step + 1 == card_steps(s, cat):
        return tmp
    return tmp - ABILITY_VALUE - 1.0


cdef double token_window_gain(const GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    """The token window: what one more initiative (a token initiative side up) wins in this
    step's order, the card expected at the new place against the one at the present
    place."""
    cdef double vals[MAX_OFFER]
    cdef int n, now, then
    if s.phase != PH_CARDS:
        return 0.0
    now = order_place(s, cat, seat, 0)
    then = order_place(s, cat, seat, 1)
    if then >= now:
        return 0.0
    n = ranked_offer(s, cat, seat, vals)
    if n == 0:
        return 0.0
    return vals[then if then < n else n - 1] - vals[now if now < n else n - 1]


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
    if epsilon > 0 and rng_uniform(rng) < epsilon:
        return buf[rng_below(rng, n)]
    action_values(s, cat, buf, n, values)
    choice = 0
    for i in range(1, n):
        if values[i] > values[choice]:
            choice = i
    return buf[choice]


cdef void evaluate(const GameState* s, const Catalogue* cat, double* value) noexcept nogil:
    """Projected final score per seat, for search cut-offs: the points and bonus so far,
    this round's best window (with partial credit) and what the steps and rounds left are
    expected to add. Exact at the end."""
    cdef int seat, left = steps_left(s, cat), after = rounds_after(s)
    cdef const PlayerState* p
    cdef Eval e
    for seat in range(s.num_seats):
        value[seat] = final_score(s, cat, seat)
        if s.phase == PH_TERMINAL:
            continue
        p = &s.players[seat]
        if is_automa(s, seat):
            if s.round >= 1:
                value[seat] += automa_round_points(s, cat) + left * AUTOMA_CARD
            value[seat] += after * card_steps(s, cat) * AUTOMA_CARD
            continue
        if s.round >= 1 and p.order_frame[s.round - 1] >= 0 and not (s.phase == PH_CLOSE and p.pieces == 0):
            setup_eval(s, cat, seat, &e)
            value[seat] += e.best + left * STEP_POINTS
        elif s.round < 1 or s.phase <= PH_ORDERS:
            value[seat] += ROUND_POINTS
        value[seat] += after * ROUND_POINTS


# =======================================================================================
# Python entry points (heuristic_move, evaluate_state and policy_games are the shared
# search's, ext/engine/search.pxi).
# =======================================================================================
def heuristic_values(CoreState state):
    """The heuristic's value of each legal action: a dict action -> value."""
    cdef int buf[MAX_LEGAL]
    cdef double values[MAX_LEGAL]
    cdef int n = legal_actions(&state.s, &state.rules.cat, buf)
    action_values(&state.s, &state.rules.cat, buf, n, values)
    return {buf[i]: values[i] for i in range(n)}
