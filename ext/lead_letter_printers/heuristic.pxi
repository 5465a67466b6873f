# The heuristic player, the static evaluation and action values (included at the end of
# core.pyx).
#
# Written from the rules: a position is worth its final score as if the game ended now,
# with the resources and cash counted without rounding, the orders in production at what
# their completion is likely to bring, the orders waiting at part of their points while
# rounds remain (and at their negative value once none do), and what workforce (less its
# wages), factories and technologies will bring in the rounds left; capacity is worth
# something until this round's production is over, and after it only above the workforce
# (the preparation brings it back up to the workforce). At the last optional actions
# nothing is produced any more: a player is worth the score as it stands, and while its
# turn there is still to end, what it may still use. An action is worth the evaluation
# once the effects it starts are carried out (the player's own choices inside them made
# greedily, one step ahead), for the player acting, against the best of the others. The
# numbers are judgement, kept in one place per idea.

cdef double HEURISTIC_EPSILON = 0.05   # chance of a uniformly random move (rollout diversity)
# A resource or a mark scores a fifth of a point at the end (SCORE_DIVISOR), and is worth
# a little more while rounds remain to spend it. Worth more, they are kept instead of
# spent: 200-game matches at 400 iterations a move (benchmarks/heuristic_weights.py,
# figures in benchmarks/README.md), a resource and a mark at 0.5 and 0.45 at every stage
# lost 38.5% to 0.2 + 0.075 and 0.0625 a round left, which lost 35.5% to 0.2 + 0.05 each,
# which lost 40.2% to 0.2 + 0.025 (and 47.5% to 0.2 at every stage: no difference).
cdef double RESOURCE_AT_END = 1.0 / SCORE_DIVISOR
cdef double RESOURCE_PER_ROUND = 0.025 # per round left (at most MAX_ROUNDS_AHEAD)
cdef double MARK_AT_END = 1.0 / SCORE_DIVISOR
cdef double MARK_PER_ROUND = 0.025
cdef double WAGE_MARK = 0.45           # a mark paid in wages in a round to come
cdef double STAGE_SHARE = 0.5          # an order in stage k: (STAGE_SHARE + STAGE_STEP * k) of its points
cdef double STAGE_STEP = 0.12
cdef double WAITING_SHARE = 0.1        # an order waiting while rounds remain
cdef double PER_ROUND_WORKFORCE = 0.25 # what a workforce brings per round left (travel steps, capacity)
cdef double CAPACITY_NOW = 0.15        # capacity before this round's production is over
cdef double PER_ROUND_CAPACITY = 0.1   # capacity above the workforce, per round left
cdef double PER_ROUND_FACTORY = 0.7
cdef double PER_ROUND_TECH = 0.3
cdef double UNUSED_SIGN = 0.4          # a signboard not used yet (an action to come)
cdef double UNUSED_DISC = 0.8          # a city disc's reward not used yet
cdef double HELD_CONTRACT = 0.5        # a contract bought, not active
cdef double LETTER_HELD = 0.4          # a lead letter on the workshop's left
cdef double STICK_PARTIAL = 1.0        # a letter on a composing stick not full yet (5 points for 3)
cdef double OPEN_SLOT = 0.6            # an unlocked contract slot (a contract's points and its bonus)
cdef double FINAL_POTENTIAL = 1.0      # at the last optional actions, the share of optional_potential
                                       # a player still to act is worth (0: the score as it stands)
cdef double OTHERS_SHARE = 0.3         # an action's value: the mover's less this share of the best other's
cdef int MAX_ROUNDS_AHEAD = 4          # rounds left counted at most
cdef int MAX_FINISH = 6                # own choices made greedily inside an action's effects


cdef inline bint capacity_now(const GameState* s, int seat) noexcept nogil:
    """Seat's production of this round is still to come."""
    return s.phase <= PH_PRODUCTION and not (s.phase == PH_PRODUCTION and order_position(s, seat) < s.turn)


cdef double seat_value(const GameState* s, const Catalogue* cat, int seat, int rl) noexcept nogil:
    cdef const PlayerState* p = &s.players[seat]
    cdef int parts[8]
    cdef int i, c, factories, techs
    cdef double v
    score_parts(s, cat, seat, parts)
    v = 0.0
    for i in range(7):
        v += parts[i]
    if s.phase == PH_TERMINAL:
        return v + parts[7]
    if rl > MAX_ROUNDS_AHEAD:
        rl = MAX_ROUNDS_AHEAD
    v += ((p.res[0] + p.res[1] + p.res[2]) * (RESOURCE_AT_END + RESOURCE_PER_ROUND * rl)
          + p.marks * (MARK_AT_END + MARK_PER_ROUND * rl))
    if rl == 0:
        # The last optional actions: nothing is produced any more, and what a player has
        # not used when it passes scores nothing ("They may use all their unused
        # signboards and/or city discs and activate contracts"): the score as it stands,
        # resources and cash unrounded, and for a player whose turn is still to end what
        # it may still use (optional_potential).
        if not final_turn_over(s, seat):
            v += FINAL_POTENTIAL * optional_potential(s, cat, p)
        return v
    for i in range(N_STAGES):
        if p.stage[i] >= 0:
            v += cat.orders[p.stage[i]].points * (STAGE_SHARE + STAGE_STEP * i) - 1.0
    for i in range(N_WAITING):      # rounds remain (rl > 0 here)
        if p.waiting[i] >= 0:
            v += cat.orders[p.waiting[i]].points * (1.0 + WAITING_SHARE)
    factories = techs = 0
    for i in range(N_SPACES):       # factory_count and tech_count(p, cat, -1) in one pass
        if p.up[i] >= N_TECHS:
            factories += 1
        elif p.up[i] >= 0:
            techs += 1
    v += rl * (PER_ROUND_WORKFORCE * p.workforce - WAGE_MARK * (p.workforce // WAGE_PER)
               + PER_ROUND_FACTORY * factories + PER_ROUND_TECH * techs)
    if capacity_now(s, seat):
        v += CAPACITY_NOW * p.capacity
    if p.capacity > p.workforce:
        v += rl * PER_ROUND_CAPACITY * (p.capacity - p.workforce)
    return v + optional_potential(s, cat, p)


cdef inline bint final_turn_over(const GameState* s, int seat) noexcept nogil:
    """Seat has passed at the last optional actions (or the game is over)."""
    return s.phase == PH_TERMINAL or (s.phase == PH_FINAL and order_position(s, seat) < s.turn)


cdef double optional_potential(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """What a player holds that optional actions may still turn into points: signboards
    and city discs not used, contracts not active and slots open for them, lead letters
    to typeset and composing sticks begun."""
    cdef int i, c
    cdef double v = 0.0
    for c in range(N_SIGNS):
        v += UNUSED_SIGN * unused_signs(cat, p, c)
    v += UNUSED_DISC * popcount64(p.discs & ~p.discs_used)
    v += HELD_CONTRACT * popcount64(p.contracts)
    v += LETTER_HELD * (p.stack_n[0] + p.stack_n[1])
    for i in range(STICK_SIDE):
        c = (p.stick[i * 3] >= 0) + (p.stick[i * 3 + 1] >= 0) + (p.stick[i * 3 + 2] >= 0)
        if c < STICK_SIDE:
            v += STICK_PARTIAL * c
    v += OPEN_SLOT * popcount64(p.slots_open)
    return v


cdef void evaluate(const GameState* s, const Catalogue* cat, double* value) noexcept nogil:
    """Projected final score per seat, for search cut-offs; exact at the end."""
    cdef int seat, rl = rounds_left(s)
    for seat in range(s.num_players):
        value[seat] = seat_value(s, cat, seat, rl)


# An action's value needs every other seat's evaluation after it, and most actions leave
# the other players' parts of the state as they were: their values at the state the
# actions start from are kept (OthersKnown) and reused wherever seat_value would read
# the same things. seat_value(s, seat, rl) reads s.players[seat], rl, whether the game is
# over, capacity_now(s, seat), final_turn_over(s, seat) and the seat's assistants on the
# streets (a contract's value), nothing else: seat_score_known compares those, so the
# reuse gives the same doubles.
ctypedef struct OthersKnown:
    bint reuse                  # False: every seat evaluated afresh (to check the reuse)
    const GameState* base       # the state the actions start from
    int rl                      # rounds_left(base)
    double value[MAX_SEATS]     # seat_value at base, where known
    bint known[MAX_SEATS]


cdef inline void others_known_at(OthersKnown* k, const GameState* base, bint reuse) noexcept nogil:
    cdef int q
    k.reuse = reuse
    k.base = base
    k.rl = rounds_left(base)
    for q in range(MAX_SEATS):
        k.known[q] = False


cdef double seat_score_known(const GameState* s, const Catalogue* cat, int seat, OthersKnown* k) noexcept nogil:
    """The evaluation for seat: its projected score less a share of the best other's (the
    other seats' values taken from k where they are the same as at k.base)."""
    cdef int q, rl = rounds_left(s)
    cdef double v, other = -1e18
    # What every seat's value reads alike: rl, the game not over, the assistants on the
    # streets (compared whole: they seldom change); per seat, whether its last turn is
    # over and its capacity counts now, and its own part of the state.
    cdef bint table = (k.reuse and rl == k.rl and s.phase != PH_TERMINAL and k.base.phase != PH_TERMINAL
                       and memcmp(s.street_owner, k.base.street_owner, sizeof(s.street_owner)) == 0)
    for q in range(s.num_players):
        if q == seat:
            continue
        if (table and capacity_now(s, q) == capacity_now(k.base, q)
                and final_turn_over(s, q) == final_turn_over(k.base, q)
                and memcmp(&s.players[q], &k.base.players[q], sizeof(PlayerState)) == 0):
            if not k.known[q]:
                k.value[q] = seat_value(k.base, cat, q, k.rl)
                k.known[q] = True
            v = k.value[q]
        else:
            v = seat_value(s, cat, q, rl)
        if v > other:
            other = v
    return seat_value(s, cat, seat, rl) - OTHERS_SHARE * other


cdef inline void copy_live(GameState* to, const GameState* s) noexcept nogil:
    """Copy what is live of s: all but the frames above its stack and the seats beyond its
    players (the state is 2.5 kB, its live part half as much with 2 players; live_head_size
    in search_hooks.pxi). For the heuristic's look-ahead states only, which nothing hashes
    or compares whole (state_key hashes the same live part)."""
    memcpy(to, s, live_head_size(s))
    memcpy(to.players, s.players, s.num_players * sizeof(PlayerState))


cdef void finish_effects(GameState* s, const Catalogue* cat, int seat, OthersKnown* k) noexcept nogil:
    """Carry out the effects seat has started, its choices inside them made greedily one
    step ahead (stops at chance nodes and when the effects are done)."""
    cdef int buf[MAX_LEGAL]
    cdef GameState child
    cdef int n, i, best, depth
    cdef double v, best_v
    for depth in range(MAX_FINISH):
        if s.phase == PH_TERMINAL or s.deal != DEAL_NONE or s.actor != seat or s.n_frames == 0:
            return
        n = legal_actions(s, cat, buf)
        if n <= 0:
            return
        best = 0
        if n == 1:          # nothing to choose: no evaluation
            apply_action(s, cat, buf[0])
            continue
        best_v = -1e18
        for i in range(n):
            copy_live(&child, s)
            apply_action(&child, cat, buf[i])
            v = seat_score_known(&child, cat, seat, k)
            if v > best_v:
                best_v = v
                best = i
        apply_action(s, cat, buf[best])


cdef void action_values(const GameState* s, const Catalogue* cat, const int* actions, int n,
                        double* values) noexcept nogil:
    """Each action's value to the player acting: the evaluation once the effects it starts
    are carried out (finish_effects), less a share of the best other's."""
    action_values_reusing(s, cat, actions, n, values, True)


cdef void action_values_reusing(const GameState* s, const Catalogue* cat, const int* actions, int n,
                                double* values, bint reuse) noexcept nogil:
    """action_values; `reuse`: the other seats' values kept where unchanged (OthersKnown)."""
    cdef GameState child
    cdef OthersKnown k
    cdef int i, seat = s.actor
    others_known_at(&k, s, reuse)
    for i in range(n):
        copy_live(&child, s)
        apply_action(&child, cat, actions[i])
        finish_effects(&child, cat, seat, &k)
        values[i] = seat_score_known(&child, cat, seat, &k)
        if actions[i] == A_PASS and s.n_frames == 0 and (s.phase == PH_ACTIONS or s.phase == PH_FINAL):
            values[i] -= 0.01        # optional actions first, when they are worth as much


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


# =======================================================================================
# Python entry points (heuristic_move, evaluate_state and policy_games are the shared
# search's: ext/engine/search.pxi).
# =======================================================================================
def heuristic_values(CoreState state, bint reuse_others=True):
    """The heuristic's value of each legal action: a dict action -> value.
    `reuse_others=False` evaluates every seat afresh at every step (the same values,
    slower: the check of OthersKnown)."""
    cdef int buf[MAX_LEGAL]
    cdef double values[MAX_LEGAL]
    cdef int n = legal_actions(&state.s, &state.rules.cat, buf)
    action_values_reusing(&state.s, &state.rules.cat, buf, n, values, reuse_others)
    return {buf[i]: values[i] for i in range(n)}


# The weights above by name, for experiments that compare evaluations
# (benchmarks/heuristic_weights.py). They are the process's: every search and rollout in
# it uses them from the next move on.
import math

_WEIGHT_ADDRESSES = {   # each weight's name and where it lives: the one list of them
    "RESOURCE_AT_END": <size_t>&RESOURCE_AT_END,
    "RESOURCE_PER_ROUND": <size_t>&RESOURCE_PER_ROUND,
    "MARK_AT_END": <size_t>&MARK_AT_END,
    "MARK_PER_ROUND": <size_t>&MARK_PER_ROUND,
    "WAGE_MARK": <size_t>&WAGE_MARK,
    "STAGE_SHARE": <size_t>&STAGE_SHARE,
    "STAGE_STEP": <size_t>&STAGE_STEP,
    "WAITING_SHARE": <size_t>&WAITING_SHARE,
    "PER_ROUND_WORKFORCE": <size_t>&PER_ROUND_WORKFORCE,
    "CAPACITY_NOW": <size_t>&CAPACITY_NOW,
    "PER_ROUND_CAPACITY": <size_t>&PER_ROUND_CAPACITY,
    "PER_ROUND_FACTORY": <size_t>&PER_ROUND_FACTORY,
    "PER_ROUND_TECH": <size_t>&PER_ROUND_TECH,
    "UNUSED_SIGN": <size_t>&UNUSED_SIGN,
    "UNUSED_DISC": <size_t>&UNUSED_DISC,
    "HELD_CONTRACT": <size_t>&HELD_CONTRACT,
    "LETTER_HELD": <size_t>&LETTER_HELD,
    "STICK_PARTIAL": <size_t>&STICK_PARTIAL,
    "OPEN_SLOT": <size_t>&OPEN_SLOT,
    "OTHERS_SHARE": <size_t>&OTHERS_SHARE,
    "FINAL_POTENTIAL": <size_t>&FINAL_POTENTIAL,
}
HEURISTIC_WEIGHTS = tuple(_WEIGHT_ADDRESSES)
MAX_HEURISTIC_WEIGHT = 100.0


cdef double* weight_place(str name):
    return <double*><size_t>_WEIGHT_ADDRESSES[name]


def heuristic_weights():
    """The evaluation's weights now: {name: value} (HEURISTIC_WEIGHTS)."""
    return {name: weight_place(name)[0] for name in HEURISTIC_WEIGHTS}


def set_heuristic_weights(weights):
    """Set some of the evaluation's weights ({name: number}), for this process. All or
    nothing: ValueError naming every unknown name and every value that is not a finite
    number within +-MAX_HEURISTIC_WEIGHT, and nothing set."""
    if not isinstance(weights, dict):
        raise ValueError(f"heuristic weights: a mapping of name to number, not {type(weights).__name__}")
    problems = []
    for name, value in weights.items():
        if not isinstance(name, str) or name not in HEURISTIC_WEIGHTS:
            problems.append(f"{name!r} is not a weight (known: {', '.join(HEURISTIC_WEIGHTS)})")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or abs(value) > MAX_HEURISTIC_WEIGHT:
            problems.append(f"{name}: {value!r} is not a number within +-{MAX_HEURISTIC_WEIGHT:g}")
    if problems:
        raise ValueError("heuristic weights: " + "; ".join(problems))
    for name, value in weights.items():
        weight_place(name)[0] = value
