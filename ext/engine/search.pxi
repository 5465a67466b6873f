# The search, written once for every game: single-observer ISMCTS and simultaneous-move
# MCTS over a game's C state, nogil, root-parallel over threads, and their Python entry
# points. Each game's core module includes this file after its rules and heuristic, so
# the same source is compiled against each game's struct at full speed (no indirection:
# every call below is to a function of the including module, inlined where it is small).
#
# What a game provides before `include "engine/search.pxi"` (docs/new-game.md):
#
#   types      GameState (with fields num_players and num_seats: the people sit in
#              seats 0..num_players-1, any automa after them), Catalogue, Rng
#   constants  MAX_SEATS, MAX_LEGAL, N_ACTIONS, CHANCE, RETURNS_WIN/SCORE/MARGIN,
#              RETURNS_MODES, HEURISTIC_EPSILON
#   rules      current_player, legal_actions, is_legal, apply_action, sample_chance,
#              determinize, game_over, final_scores_double, returns_from_scores,
#              winners_of, rounds_left
#   heuristic  evaluate (projected final score per seat), action_values (the value of
#              each legal move, for priors), heuristic_choice (the rollout policy)
#   hidden     hidden_move(st, actor, action, observer): actor's move at st is unseen
#              by observer until the end of its simultaneous step
#              moves_vary(st, actor, observer): actor's legal moves at st may differ
#              between the states observer cannot tell apart (a move that names a
#              hidden symbol); such nodes select among the moves legal in the
#              iteration's determinization, with availability counts
#   simultaneous steps (a step where seats commit hidden moves one after another, such
#   as Gutenberg's plan; a game without one returns False / 0):
#                sim_phase(st)        inside such a step (decisions may be pending)
#                sim_step(st)         at its commitment (smmcts makes it one node)
#                sim_seats(st, out)   the seats that commit, in order; the first
#                sim_committed(st)    of them have committed already
#                sim_moves(st, cat, seat, out, values, k)   the k best moves of a seat
#                                     there, with the heuristic's values (0: all;
#                                     values NULL with k 0: all, without values)
#                sim_overwrite(st, cat, seat, action)       replace a committed move
#                                     (nobody has seen it); False if it does not fit
#                committed_move(st, seat)   the move a seat committed, once revealed
#                smmcts_redraw(st, player, rng)   what smmcts redraws every iteration
#                                     besides the commitments its nodes choose
#
# See docs/search.md for the algorithms and the options.

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.math cimport sqrt, log, exp, INFINITY
from libc.stdint cimport int32_t, int64_t, uint32_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from "uct_kernels.h" nogil:
    int uct_argmax(const double* mean, const double* bonus, int n, double k)

include "learned.pxi"   # a learned evaluation and prior (Net), if a model is given
include "turn_solver.pxi"   # play_turn: a solitary turn played out by search (rollouts)

# =======================================================================================
# Search trees: single-observer ISMCTS and simultaneous-move MCTS.
#
# A node is an information set of the root player: what that player has seen since the
# root (the actions of everyone, the draws, the moves once revealed). An edge is a move
# plus what the root player observes before the next decision: the draws that follow it
# and, at the end of a simultaneous step, every seat's committed move. So a child is
# found by hashing (parent, move, observations). (Draws that only another player sees
# split nodes too: merging them would give another player's nodes moves that differ
# from one determinization to the next.)
# The moves other players commit unseen carry EDGE_HIDDEN instead of the move, so they
# never split the root player's nodes (see docs/search.md). Statistics per move live in
# the node's arms, which are created when a node is first selected from (a node seen
# once is only a leaf).
# =======================================================================================
cdef enum:
    ALG_ISMCTS = 0
    ALG_SMMCTS = 1
    SEL_RM = 0             # regret matching (CFR-style), smmcts simultaneous steps
    SEL_EXP3 = 1
    SEL_UCT = 2            # decoupled UCT (or PUCT, as the tree policy)
    SEL_RM_PLUS = 3        # regret matching+: cumulative regrets floored at 0 (CFR+)
    TREE_PUCT = 0          # Q + c P sqrt(N) / (1 + n), P the heuristic's prior
    TREE_UCT = 1           # Q + c sqrt(ln N / n), each move once first (best prior first)
    ROOT_TREE = 0          # the root selects as every node does (tree policy, or smmcts's rule)
    ROOT_GUMBEL = 1        # Gumbel top-m sampling and sequential halving at the root
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1
    ROLLOUT_NONE = 2       # the leaf is evaluated where it is (a learned value, AlphaZero-like)
    ROLLOUT_LEARNED = 3    # the learned policy's best move (a model is needed)
    EDGE_ROOT = -1
    EDGE_HIDDEN = -2       # another player's move unseen by the root player (a plan)
    EDGE_SIM = -3          # a whole simultaneous step as one move (smmcts)
    NODE_SIM = -2          # `player` of a simultaneous node
    MAX_PATH = 1024        # tree depth (a game has a few hundred decisions)
    MAX_EDGE_OBS = 256     # observations recorded on one edge
    OBS_REVEAL = 1 << 20   # from here on: a revealed move, OBS_REVEAL + seat * N_ACTIONS + action

ctypedef struct Arm:
    int32_t action
    int32_t visits
    double value           # sum of the acting player's returns, mapped to [0, 1]
    double aux             # regret (regret matching) or gain (Exp3)
    double prior           # the heuristic's probability of the move
    int32_t avail          # at a node whose moves vary: selections where the move was legal

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
    double epsilon         # random moves of the rollout policy
    double fame_scale      # score and margin returns: fame per half of [0, 1]
    int root_action        # >= 0: the root player's only move at the root (a move forced,
                           # to measure it: a game review's played move); -1: none
    bint net_value         # with a model: its value at cut-offs (else the heuristic's)
    bint net_priors        # with a model: its policy as the priors (else the heuristic's)
    bint open_loop         # ismcts: the draws do not split nodes (a node is its moves)
    int root_selection     # ROOT_TREE or ROOT_GUMBEL
    int gumbel_moves       # Gumbel: the moves sampled at the root (m)
    double gumbel_c_visit  # Gumbel: sigma(q) = (c_visit + max visits) * c_scale * q
    double gumbel_c_scale
    int turn_nodes         # > 0: a solitary turn in a rollout searched over this many states

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
    # What a node's scan reads of each arm, beside the arms (arm_mean[i] is arms[i]'s):
    # one array each, so that UCT runs over them on vectors (uct_kernels.h).
    double* arm_mean            # value / visits (0 unvisited)
    double* arm_bonus           # 1 / sqrt(visits) (INFINITY unvisited: UCT tries it first)
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
    int64_t mismatches          # a chosen move was not legal (a hash collision), or no move
                                # of a node whose moves vary was; rolled out
    bint full                   # the node pool reached max_nodes
    const Net* net              # a learned model (NULL: the hand-written judgement only)
    NetScratch* net_scratch     # its buffers (observations, the last pass's first layer)
    const Net* rollout_net      # rollout="learned": whose moves the rollouts play (net unless
    NetScratch* rollout_scratch # rollout_model names other weights), and its buffers
    # Gumbel root selection (root_selection="gumbel"): the survivors of sequential halving.
    int32_t* gumbel_sel         # root arm indices (0..root_n-1) still in, best score first
    double* gumbel_g            # per root arm: its Gumbel draw plus log prior
    int32_t gumbel_k            # survivors
    int32_t gumbel_phases_left  # halvings still to come (0: one survivor)
    int32_t gumbel_target       # root visits each survivor reaches in this phase
    int32_t gumbel_base         # ... at the phase's start
    int64_t gumbel_phase_start  # iterations at the phase's start
    int64_t gumbel_budget       # iterations planned for the whole search (0: not known yet)
    TurnSearch* turn            # the rollouts' search of solitary turns, made when first needed
    PathStep path[MAX_PATH]


# Rollouts from the root that set the centre of the score and margin mappings.
cdef enum:
    BASELINE_PROBES = 16


cdef inline uint64_t mix(uint64_t h, int64_t v) noexcept nogil:
    h ^= <uint64_t>v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL
    return h ^ (h >> 31)


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


# UCT's bonus 1 / sqrt(n) for the visit counts most arms have, without a square root
# when an arm is visited; INFINITY unvisited, so that UCT tries every arm once first.
cdef enum:
    INV_SQRT_SIZE = 4096
cdef double INV_SQRT[INV_SQRT_SIZE]
INV_SQRT[0] = INFINITY
for _i in range(1, INV_SQRT_SIZE):
    INV_SQRT[_i] = 1.0 / sqrt(<double>_i)
del _i


cdef inline double arm_bonus(int32_t visits) noexcept nogil:
    """An arm's bonus in UCT's scan (Tree.arm_bonus) after `visits` visits."""
    return INV_SQRT[visits] if visits < INV_SQRT_SIZE else 1.0 / sqrt(<double>visits)


cdef bint grow_arms(Tree* t, int32_t need) noexcept nogil:
    """Make room for `need` arms, with their means and bonuses; False if memory ran out."""
    cdef int32_t cap = t.cap_arms
    if need <= cap:
        return True
    if not grow(<void**>&t.arm_mean, &cap, need, sizeof(double)):
        return False
    cap = t.cap_arms
    if not grow(<void**>&t.arm_bonus, &cap, need, sizeof(double)):
        return False
    return grow(<void**>&t.arms, &t.cap_arms, need, sizeof(Arm))


cdef inline void new_arm(Tree* t, int32_t i, int action, double prior, double aux) noexcept nogil:
    """Arm i: `action`, unvisited."""
    cdef Arm* a = &t.arms[i]
    a.action = action
    a.visits = 0
    a.value = 0.0
    a.aux = aux
    a.prior = prior
    a.avail = 0
    t.arm_mean[i] = 0.0
    t.arm_bonus[i] = arm_bonus(0)


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


cdef int move_values(const GameState* st, const Catalogue* cat, int seat, bint plan, int candidates,
                     int* moves, double* values) noexcept nogil:
    """The moves a node considers for `seat` with the heuristic's values: at a simultaneous
    step the heuristic's best `candidates` moves (0: all), else every legal move."""
    cdef int n
    if plan:
        return sim_moves(st, cat, seat, moves, values, candidates)
    n = legal_actions(st, cat, moves)
    action_values(st, cat, moves, n, values)
    return n


cdef inline bint heuristic_unasked(const Tree* t, bint plan) noexcept nogil:
    """Whether the heuristic has no say in a node's moves: no weight in the priors, and
    every move considered (at a simultaneous step, every plan rather than its best)."""
    return t.cfg.prior_weight == 0.0 and (not plan or t.cfg.plan_candidates <= 0)


cdef int node_moves(Tree* t, const GameState* st, int seat, bint plan, int* moves,
                    double* priors) noexcept nogil:
    """The moves a node considers for `seat`, with the heuristic's priors, highest prior
    first: at a simultaneous step the heuristic's best `plan_candidates` moves (0: all),
    else every legal move. A prior is a softmax of the heuristic's values, mixed with
    uniform."""
    cdef double values[MAX_LEGAL]
    cdef double total = 0.0, top, w = t.cfg.prior_weight, p, temperature
    cdef int n, i, j, a
    if heuristic_unasked(t, plan):
        # Every move, uniform, in a random order (as OpenSpiel's ISMCTSBot expands: no
        # bias from the move order), and no values computed.
        n = sim_moves(st, t.cat, seat, moves, NULL, 0) if plan else legal_actions(st, t.cat, moves)
        shuffle_ints(moves, n, &t.rng)
        for i in range(n):
            priors[i] = 1.0 / n
        return n
    n = move_values(st, t.cat, seat, plan, t.cfg.plan_candidates, moves, values)
    if t.net != NULL and t.cfg.net_priors and n > 1:
        # The learned policy's logits (they take the heuristic's values as an input). A
        # forced move's prior is 1 whatever its logit: no pass of the network for it.
        net_logits(t.net, st, t.cat, seat, t.net_scratch, False, moves, values, n, values)
        temperature = 1.0
    else:
        temperature = t.cfg.prior_temperature
    top = values[0]
    for i in range(1, n):
        if values[i] > top:
            top = values[i]
    for i in range(n):
        priors[i] = exp((values[i] - top) / temperature)
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
    if node == 0 and seat == t.player and t.cfg.root_action >= 0:
        # A forced root move (checked legal by SearchTree): the search measures it alone.
        moves[0] = t.cfg.root_action
        priors[0] = 1.0
        n = 1
    if not grow_arms(t, t.n_arms + n):
        return False
    for i in range(n):
        # Regret matching and Exp3 start from the prior: regrets in proportion to it;
        # gains whose exponential is it.
        new_arm(t, t.n_arms + i, moves[i], priors[i],
                log(priors[i]) * n / t.cfg.gamma if t.cfg.selection == SEL_EXP3
                else t.cfg.prior_visits * priors[i])
    t.n_arms += n
    if t.nodes[node].player == NODE_SIM:
        t.nodes[node].n_arms[seat] = n
    else:
        t.nodes[node].n_arms[0] = n
    return True


cdef bint expand(Tree* t, int32_t node, const GameState* st) noexcept nogil:
    """Give a node its arms: the moves of the player to act, or at a simultaneous step
    (smmcts) the moves of every seat that commits there, in seat order. False if memory
    ran out."""
    cdef int seats[MAX_SEATS]
    cdef int seat, k, n
    cdef int32_t first = t.n_arms
    cdef bint plan = sim_step(st)
    cdef bint commits[MAX_SEATS]
    if t.cfg.algorithm == ALG_SMMCTS and plan:
        t.nodes[node].player = NODE_SIM
        n = sim_seats(st, seats)
        for seat in range(MAX_SEATS):
            commits[seat] = False
        for k in range(n):
            commits[seats[k]] = True
        for seat in range(st.num_seats):
            if not commits[seat]:
                continue   # e.g. an automa: its move is chance, revealed after the step
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
cdef inline void add_return(Tree* t, int32_t i, double u) noexcept nogil:
    cdef Arm* a = &t.arms[i]
    cdef int32_t v = a.visits + 1
    a.visits = v
    a.value += u
    t.arm_mean[i] = a.value / v
    t.arm_bonus[i] = arm_bonus(v)


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
        q = t.arm_mean[first + i] if a.visits > 0 else fpu
        v = q + t.cfg.uct_c * a.prior * sq / (1 + a.visits)
        if v > best:
            best = v
            choice = first + i
    return choice


cdef int32_t tree_select(const Tree* t, int32_t first, int n, int32_t visits) noexcept nogil:
    if t.cfg.tree_policy == TREE_UCT:
        return uct_select(t, first, n, visits)
    return puct_select(t, first, n, visits)


cdef inline double uct_scale(double uct_c, int32_t visits) noexcept nogil:
    """UCT's c sqrt(ln N) at a node visited N times (0 for N <= 1): what multiplies each
    arm's bonus."""
    return uct_c * sqrt(log(<double>visits)) if visits > 1 else 0.0


cdef int32_t uct_select(const Tree* t, int32_t first, int n, int32_t visits) noexcept nogil:
    """UCT over arms [first, first + n): each arm once (in the arms' order: the higher
    prior first, or drawn where the priors are uniform), then the highest upper
    confidence bound (ties: the first)."""
    return first + uct_argmax(&t.arm_mean[first], &t.arm_bonus[first], n, uct_scale(t.cfg.uct_c, visits))


def uct_choice(means, visits, double uct_c, int node_visits):
    """The arm UCT takes at a node visited `node_visits` times whose arms have these
    mean returns and visit counts (means of unvisited arms are not read): the first
    unvisited arm, else the first of the highest mean + uct_c sqrt(ln N / visits). The
    tree's own scan (uct_select's pieces), for the tests and for reading.

    >>> uct_choice([0.5, 0.9, 0.7], [4, 1, 0], 2.0, 5)
    2
    >>> uct_choice([0.5, 0.9, 0.7], [4, 1, 2], 0.0, 7)
    1
    """
    cdef int i, n = len(means)
    cdef double* mean
    cdef double* bonus
    if len(visits) != n or n == 0:
        raise ValueError("means and visits: one of each per arm, at least one arm")
    if node_visits < 0 or uct_c < 0 or any(not isinstance(v, int) or v < 0 for v in visits):
        raise ValueError("visits, node_visits and uct_c: not negative (visits whole numbers)")
    mean = <double*>malloc(n * sizeof(double))
    bonus = <double*>malloc(n * sizeof(double))
    try:
        if mean == NULL or bonus == NULL:
            raise MemoryError()
        for i in range(n):
            mean[i] = means[i] if visits[i] > 0 else 0.0
            bonus[i] = arm_bonus(visits[i])
        return uct_argmax(mean, bonus, n, uct_scale(uct_c, node_visits))
    finally:
        free(mean)
        free(bonus)


cdef int find_sorted(const int* a, int n, int x) noexcept nogil:
    """The index of x in the ascending a[0..n), or -1."""
    cdef int lo = 0, hi = n - 1, mid
    while lo <= hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        elif a[mid] > x:
            hi = mid - 1
        else:
            return mid
    return -1


cdef bint add_available(Tree* t, int32_t node, const GameState* st, const int* legal, int n,
                        bint plan) noexcept nogil:
    """Give `node` arms for the moves `legal` (ascending: the moves the node considers in
    st) that it has none for (first met in this determinization), with the priors here.
    The node's arms stay one block: moved to the end of the pool when they are not there
    already. False if memory ran out."""
    cdef int moves[MAX_LEGAL]
    cdef double priors[MAX_LEGAL]
    cdef bint known[MAX_LEGAL]
    cdef int32_t first = t.nodes[node].arms, na = t.nodes[node].n_arms[0], start
    cdef int i, j, k, m, missing = 0
    for i in range(n):
        known[i] = False
    for i in range(na):
        j = find_sorted(legal, n, t.arms[first + i].action)
        if j >= 0:
            known[j] = True
    for i in range(n):
        missing += not known[i]
    if missing == 0:
        return True
    m = node_moves(t, st, t.nodes[node].player, plan, moves, priors)
    start = first
    if first + na != t.n_arms:
        start = t.n_arms
    if not grow_arms(t, start + na + missing):
        return False
    if start != first:
        for i in range(na):
            t.arms[start + i] = t.arms[first + i]
            t.arm_mean[start + i] = t.arm_mean[first + i]
            t.arm_bonus[start + i] = t.arm_bonus[first + i]
    k = na
    for i in range(m):
        j = find_sorted(legal, n, moves[i])
        if j < 0 or known[j]:
            continue
        new_arm(t, start + k, moves[i], priors[i], 0.0)
        k += 1
    t.n_arms = start + k
    t.nodes[node].arms = start
    t.nodes[node].n_arms[0] = k
    return True


cdef int32_t select_available(Tree* t, int32_t node, const GameState* st) noexcept nogil:
    """Selection at a node whose moves differ between determinizations (moves_vary; with
    open_loop, every node below the root): the moves legal in this one (at a plan node,
    the heuristic's best plan_candidates here) get arms if they have none (not at the
    root, whose moves are the real ones), only they compete, and each counts the
    selections where it was available in place of the node's visits (Cowling, Powley and
    Whitehouse 2012). PUCT renormalises the priors over the available moves and takes its
    first-play value from them. -1 if no arm is legal here, or memory ran out."""
    cdef int legal[MAX_LEGAL]
    cdef double values[MAX_LEGAL]
    cdef bint plan = sim_step(st)
    cdef int n, i
    cdef int32_t first, na, choice = -1, seen = 0
    cdef double total = 0.0, psum = 0.0, fpu, q, v, best = -1e300
    cdef Arm* a
    if plan:
        # The plans a node considers are the heuristic's best here (ascending, to search);
        # all of them, without its values, where it has no say (node_moves).
        n = sim_moves(st, t.cat, t.nodes[node].player, legal,
                      <double*>NULL if heuristic_unasked(t, True) else values, t.cfg.plan_candidates)
        sort_ints(legal, n)
    else:
        n = legal_actions(st, t.cat, legal)
    if node != 0 and not add_available(t, node, st, legal, n, plan):
        return -1
    first = t.nodes[node].arms
    na = t.nodes[node].n_arms[0]
    for i in range(na):
        a = &t.arms[first + i]
        if find_sorted(legal, n, a.action) < 0:
            continue
        a.avail += 1
        total += a.value
        seen += a.visits
        psum += a.prior
        if t.cfg.tree_policy == TREE_UCT and a.visits == 0 and choice < 0:
            choice = first + i   # UCT: every available move once first, the higher prior first
    if choice >= 0 or psum <= 0.0:
        return choice
    fpu = total / seen if seen > 0 else 0.5
    for i in range(na):
        a = &t.arms[first + i]
        if find_sorted(legal, n, a.action) < 0:
            continue
        if t.cfg.tree_policy == TREE_UCT:
            v = a.value / a.visits + t.cfg.uct_c * sqrt(log(<double>a.avail) / a.visits)
        else:
            q = a.value / a.visits if a.visits > 0 else fpu
            v = q + t.cfg.uct_c * (a.prior / psum) * sqrt(<double>a.avail) / (1 + a.visits)
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
    r = rng_uniform(&t.rng)
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


# -- Gumbel root selection ------------------------------------------------------------------
# Danihelka, Guez, Schrittwieser and Silver, "Policy improvement by planning with Gumbel"
# (ICLR 2022): m root moves sampled without replacement by Gumbel-top-m over the log
# priors, then sequential halving over ceil(log2 m) phases, each a equal share of the
# budget split evenly among the moves still in; after a phase the better half by
# g + log prior + sigma(q) stays, sigma(q) = (c_visit + max root visits) c_scale q, q the
# move's mean return in [0, 1]. Below the root the tree selects as before.
cdef double gumbel_score(const Tree* t, int32_t i, int32_t top_visits) noexcept nogil:
    cdef const Arm* a = &t.arms[t.root_first + i]
    cdef double q = a.value / a.visits if a.visits > 0 else 0.0
    return t.gumbel_g[i] + (t.cfg.gumbel_c_visit + top_visits) * t.cfg.gumbel_c_scale * q


cdef void gumbel_sort(Tree* t) noexcept nogil:
    """The survivors by score, best first (stable: among equals, the earlier sampled)."""
    cdef int32_t top_visits = 0, i, j, x
    cdef double sx
    for i in range(t.root_n):
        if t.arms[t.root_first + i].visits > top_visits:
            top_visits = t.arms[t.root_first + i].visits
    for i in range(1, t.gumbel_k):
        x = t.gumbel_sel[i]
        sx = gumbel_score(t, x, top_visits)
        j = i - 1
        while j >= 0 and gumbel_score(t, t.gumbel_sel[j], top_visits) < sx:
            t.gumbel_sel[j + 1] = t.gumbel_sel[j]
            j -= 1
        t.gumbel_sel[j + 1] = x


cdef void gumbel_init(Tree* t) noexcept nogil:
    """Draw a Gumbel per root move and keep the m best of g + log prior."""
    cdef int32_t i, m = t.cfg.gumbel_moves
    cdef double u
    for i in range(t.root_n):
        u = rng_uniform(&t.rng)
        u = 1e-300 if u <= 0.0 else u
        t.gumbel_g[i] = -log(-log(u)) + log(max(t.arms[t.root_first + i].prior, 1e-300))
        t.gumbel_sel[i] = i
    t.gumbel_k = t.root_n
    gumbel_sort(t)   # no visits yet: by g + log prior
    if m > t.root_n:
        m = t.root_n
    t.gumbel_k = m
    t.gumbel_phases_left = 0
    while (1 << t.gumbel_phases_left) < m:
        t.gumbel_phases_left += 1


cdef int32_t gumbel_pick(Tree* t) noexcept nogil:
    """The root arm (absolute index) this iteration visits: the survivor furthest below
    the phase's target (the first among equals). When all reach it, the phase goes on if
    the budget left allows (a time budget's estimate grows), else the better half stays."""
    cdef int32_t j, best, v, vbest, planned
    while True:
        if t.gumbel_k <= 1:
            return t.root_first + t.gumbel_sel[0]
        best = -1
        vbest = 0
        for j in range(t.gumbel_k):
            v = t.arms[t.root_first + t.gumbel_sel[j]].visits
            if v < t.gumbel_target and (best < 0 or v < vbest):
                best = j
                vbest = v
        if best >= 0:
            return t.root_first + t.gumbel_sel[best]
        planned = t.gumbel_base + 1
        if t.gumbel_budget > t.gumbel_phase_start:
            planned = t.gumbel_base + max(1, <int32_t>((t.gumbel_budget - t.gumbel_phase_start)
                                                      // (t.gumbel_phases_left * t.gumbel_k)))
        elif t.gumbel_budget <= 0:
            planned = t.gumbel_target + 1   # a time budget not estimated yet: one more round
        if planned > t.gumbel_target:
            t.gumbel_target = planned
            continue
        gumbel_sort(t)
        t.gumbel_k = max(1, t.gumbel_k // 2)
        t.gumbel_phases_left -= 1
        t.gumbel_base = t.gumbel_target
        t.gumbel_phase_start = t.iterations


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


cdef int learned_choice(const Net* net, NetScratch* sc, bint incremental, const GameState* st,
                        const Catalogue* cat, int candidates, Rng* rng, double epsilon) noexcept nogil:
    """The learned policy's move for the player to act: its best among the moves a node
    would consider (a simultaneous step's `candidates`; no network for a forced move), or
    with probability `epsilon` a uniformly random legal move, as the heuristic's.
    `incremental`: the pass updates the last one's (net_trunk), as in a rollout."""
    cdef int moves[MAX_LEGAL]
    cdef double values[MAX_LEGAL]
    cdef int seat = current_player(st), i, best = 0, n
    if epsilon > 0 and rng_uniform(rng) < epsilon:
        return heuristic_choice(st, cat, rng, 1.0)
    n = move_values(st, cat, seat, sim_step(st), candidates, moves, values)
    if n > 1:
        net_logits(net, st, cat, seat, sc, incremental, moves, values, n, values)
        for i in range(1, n):
            if values[i] > values[best]:
                best = i
    return moves[best]


cdef void rollout(Tree* t, GameState* st) noexcept nogil:
    cdef int plies = 0
    if t.cfg.rollout == ROLLOUT_NONE:
        return
    if t.cfg.rollout == ROLLOUT_RANDOM:
        play_random_decisions(st, t.cat, &t.rng, t.cfg.cutoff if t.cfg.cutoff > 0 else -1)
        return
    while not game_over(st):
        if current_player(st) == CHANCE:
            draw_chance(st, t.cat, &t.rng)
            continue
        if t.cfg.cutoff > 0 and plies >= t.cfg.cutoff:
            return
        if t.cfg.turn_nodes > 0 and solitary_turn(st):
            # The rest of the turn by search (turn_solver.pxi), as one ply.
            if t.turn == NULL:
                t.turn = turn_search_new(t.cfg.turn_nodes)
            if t.turn != NULL and play_turn(t.turn, st, t.cat, &t.rng) >= 0:
                plies += 1
                continue
        if t.cfg.rollout == ROLLOUT_HEURISTIC:
            apply_action(st, t.cat, heuristic_choice(st, t.cat, &t.rng, t.cfg.epsilon))
        else:
            # ROLLOUT_LEARNED, one decision after another: the passes are incremental.
            apply_action(st, t.cat, learned_choice(t.rollout_net, t.rollout_scratch, True, st, t.cat,
                                                   t.cfg.plan_candidates, &t.rng, t.cfg.epsilon))
        plies += 1


cdef void leaf_returns(const Tree* t, const GameState* st, double* scores, double* ret,
                       double* shares) noexcept nogil:
    """Where a simulation ends: the final scores, the game's returns and the win shares
    at the end of the game; at a cut-off, the evaluation's projections (soft_returns)."""
    cdef bint winner[MAX_SEATS]
    cdef int seat, k
    cdef int n = st.num_players
    if not game_over(st):
        if t.net != NULL and t.cfg.net_value:
            # The learned value, from the root player's point of view (the state is one
            # that player cannot tell from the true one).
            net_value(t.net, st, t.cat, t.player, t.net_scratch, scores, shares)
            if t.cfg.returns == RETURNS_WIN:
                for seat in range(n):
                    ret[seat] = (n * shares[seat] - 1.0) / (n - 1)
            else:
                returns_from_scores(st, scores, t.cfg.returns, ret)
            return
        evaluate(st, t.cat, scores)
        soft_returns(t, st, scores, ret, shares)
        return
    final_scores_double(st, t.cat, scores)
    returns_from_scores(st, scores, t.cfg.returns, ret)
    k = winners_of(st, scores, winner)
    for seat in range(st.num_seats):
        shares[seat] = (1.0 / k) if winner[seat] else 0.0


cdef void root_world(const Tree* t, GameState* st) noexcept nogil:
    """The root as the root player knows it: what that player has not seen dealt again
    by a fixed rule (determinize with a fixed seed). Each game's determinize draws from a
    canonical order of the unseen pool, so every state the player cannot tell from the
    root gives this same world, and what is computed from it (the root's priors, the
    line) cannot tell the true hidden facts."""
    cdef Rng rng
    rng.s = 0x11E5
    st[0] = t.root
    determinize(st, t.cat, t.player, &rng)


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


cdef bint apply_joint_moves(Tree* t, GameState* st, PathStep* step) noexcept nogil:
    """A simultaneous step: every seat's chosen move, in commitment order. Moves already
    committed (at the root, before the root player's turn) are overwritten: nobody has
    seen them. False if a move does not fit the state (a hash collision put us in the
    wrong node)."""
    cdef int seats[MAX_SEATS]
    cdef int k, seat, a, committed = sim_committed(st), n = sim_seats(st, seats)
    for k in range(n):
        seat = seats[k]
        a = t.arms[step.arm[seat]].action
        if k < committed:
            if not sim_overwrite(st, t.cat, seat, a):
                return False
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
    cdef bint was_sim, gumbel_root
    cdef double scores[MAX_SEATS]
    cdef double ret[MAX_SEATS]
    cdef double u[MAX_SEATS]
    cdef double shares[MAX_SEATS]
    cdef PathStep* step
    cdef TreeNode* nd
    if t.cfg.algorithm == ALG_ISMCTS:
        determinize(&st, t.cat, t.player, &t.rng)
    else:
        # smmcts redraws committed moves at its simultaneous nodes; the game says what
        # else is hidden and must be redrawn.
        smmcts_redraw(&st, t.player, &t.rng)
    # Selection and expansion: down the tree to a new leaf (or the end of the game).
    while True:
        if game_over(&st) or n_path >= MAX_PATH:
            leaf = node
            break
        if t.nodes[node].arms < 0 and not expand(t, node, &st):
            t.full = True
            leaf = node
            break
        nd = &t.nodes[node]
        step = &t.path[n_path]
        step.node = node
        was_sim = sim_phase(&st)
        gumbel_root = node == 0 and t.cfg.root_selection == ROOT_GUMBEL
        if nd.player == NODE_SIM:
            first = nd.arms
            for seat in range(st.num_seats):
                n = nd.n_arms[seat]
                if n == 0:
                    continue   # not committing here (an automa)
                if gumbel_root and seat == t.player:
                    step.arm[seat] = gumbel_pick(t)
                    step.prob[seat] = 1.0
                elif t.cfg.selection == SEL_UCT:
                    step.arm[seat] = tree_select(t, first, n, nd.visits)
                    step.prob[seat] = 1.0
                else:
                    step.arm[seat] = mixed_select(t, first, n, &step.prob[seat])
                first += n
            if not apply_joint_moves(t, &st, step):
                t.mismatches += 1
                leaf = node
                break
            edge = EDGE_SIM
        else:
            if (t.cfg.open_loop and node != 0) or moves_vary(&st, nd.player, t.player):
                arm = select_available(t, node, &st)
                if arm < 0:
                    t.mismatches += 1
                    leaf = node
                    break
            else:
                if gumbel_root:
                    arm = gumbel_pick(t)
                else:
                    arm = tree_select(t, nd.arms, nd.n_arms[0], nd.visits)
                if not is_legal(&st, t.cat, t.arms[arm].action):
                    t.mismatches += 1
                    leaf = node
                    break
            step.arm[0] = arm
            edge = t.arms[arm].action
            if nd.player != t.player and hidden_move(&st, nd.player, edge, t.player):
                edge = EDGE_HIDDEN
            apply_action(&st, t.cat, t.arms[arm].action)
        n_path += 1
        # What the root player sees before the next decision: draws, then revealed moves.
        key = mix(mix(0x5EA5C4ULL, node), edge)
        n_obs = 0
        # Open loop: the draws are recorded (a line replays them) but do not split the
        # node; a node is the moves that lead to it, and who acts there and how.
        while current_player(&st) == CHANCE:
            o = sample_chance(&st, t.cat, &t.rng)
            apply_action(&st, t.cat, o)
            if not t.cfg.open_loop:
                key = mix(key, o)
            if n_obs < MAX_EDGE_OBS:
                obs[n_obs] = o
                n_obs += 1
        if was_sim and not sim_phase(&st):
            for seat in range(st.num_seats):
                o = OBS_REVEAL + seat * N_ACTIONS + committed_move(&st, seat)
                if not t.cfg.open_loop or seat < st.num_players:   # an automa's plan is a draw
                    key = mix(key, o)
                if n_obs < MAX_EDGE_OBS:
                    obs[n_obs] = o
                    n_obs += 1
        if t.cfg.open_loop and not game_over(&st):
            key = mix(mix(key, current_player(&st)), sim_step(&st))
        if key == 0:
            key = 1
        child = hash_find(t, key)
        if child < 0:
            leaf = new_node(t, node, key, edge, obs, n_obs)
            break
        node = child
    # Simulation.
    if not game_over(&st):
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
                    continue   # not committing here (an automa)
                arm = step.arm[seat]
                if t.cfg.selection != SEL_UCT and not (k == 0 and seat == t.player
                                                       and t.cfg.root_selection == ROOT_GUMBEL):
                    mixed_update(t, first, n, arm, step.prob[seat], u[seat])
                add_return(t, arm, u[seat])
                first += n
        else:
            add_return(t, step.arm[0], u[nd.player])
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
    free(t.arm_mean)
    free(t.arm_bonus)
    free(t.obs)
    free(t.hash_keys)
    free(t.hash_nodes)
    free(t.root_returns)
    free(t.root_win)
    free(t.root_fame)
    free(t.gumbel_sel)
    free(t.gumbel_g)
    t.gumbel_sel = NULL
    t.gumbel_g = NULL
    turn_search_free(t.turn)
    t.turn = NULL
    if t.rollout_scratch != NULL and t.rollout_scratch != t.net_scratch:
        net_scratch_free(t.rollout_scratch)
        free(t.rollout_scratch)
    t.rollout_scratch = NULL
    if t.net_scratch != NULL:
        net_scratch_free(t.net_scratch)
        free(t.net_scratch)
        t.net_scratch = NULL
    t.nodes = NULL
    t.arms = NULL
    t.arm_mean = NULL
    t.arm_bonus = NULL
    t.obs = NULL
    t.hash_keys = NULL
    t.hash_nodes = NULL
    t.root_returns = NULL
    t.root_win = NULL
    t.root_fame = NULL


# =======================================================================================
# Python entry points.
# =======================================================================================
from cpython.exc cimport PyErr_CheckSignals

# A search runs in slices of this many seconds without the GIL; between them Ctrl-C is
# seen and progress reported, so a search stops within a slice of being interrupted.
cdef double RUN_SLICE = 0.01
PROGRESS_EVERY = 0.1   # seconds between progress reports of search()
BATCHES = 16           # parts of a search's budget, for the standard errors of the means


def heuristic_move(CoreState state, unsigned long long seed=0, epsilon=None):
    """The heuristic player's move in `state` (a decision node). `epsilon` is the chance
    of a uniformly random move, drawn with `seed` (default: the policy's own)."""
    cdef Rng rng
    if current_player(&state.s) < 0:
        raise ValueError("the heuristic moves at decision nodes only (this is a chance node or the end)")
    rng.s = seed
    return heuristic_choice(&state.s, &state.rules.cat, &rng,
                            HEURISTIC_EPSILON if epsilon is None else epsilon)


def learned_move(CoreState state, str model="default", unsigned long long seed=0, double epsilon=0.0,
                 plan_candidates=None):
    """The learned policy's move in `state` (a decision node), as `rollout="learned"` plays
    it: the network's best among the moves the search considers there (a simultaneous
    step's best `plan_candidates` by the heuristic), or with probability `epsilon` a
    uniformly random move drawn with `seed`. `model`: a weights file or "default"."""
    cdef Rng rng
    cdef LearnedModel m
    cdef int candidates
    cdef bint solo = state.s.num_players == 1   # the solo game: its own defaults and weights
    if current_player(&state.s) < 0:
        raise ValueError("the policy moves at decision nodes only (this is a chance node or the end)")
    if not model:
        raise ValueError('model: the policy is a learned model\'s: give a weights file or "default"')
    cfg = search_config(solo=solo, model=model, epsilon=epsilon,
                        **({} if plan_candidates is None else {"plan_candidates": plan_candidates}))
    m = learned_model(model, solo)
    candidates = cfg["plan_candidates"]
    rng.s = seed
    return learned_choice(&m.net, &m.scratch, False, &state.s, &state.rules.cat, candidates, &rng, epsilon)


SOLITARY_TURN_NODES = TURN_NODES          # play_solitary_turn's default bound
MAX_SOLITARY_TURN_NODES = MAX_TURN_NODES  # its bound's bound, and turn_nodes'


def play_solitary_turn(CoreState state, unsigned long long seed=0, nodes=TURN_NODES):
    """The rest of the acting player's solitary turn (the game's `solitary_turn`: Lead
    Letter Printers' last optional actions) as the rollouts play it: the line with the
    player's best final score among the first `nodes` states of a depth-first search
    (1..MAX_TURN_NODES; the rollouts' TURN_NODES), chance drawn with `seed`. Returns (the
    state where the line ends, the states searched); `state` is left as it was."""
    cdef TurnSearch* ts
    cdef Rng rng
    cdef CoreState out
    cdef int searched
    from gutenberg_ai.common import limits
    limits.check_whole(nodes, "nodes", 1, MAX_TURN_NODES)
    if current_player(&state.s) < 0 or not solitary_turn(&state.s):
        raise ValueError("not a solitary turn: the player to act here does not play the rest "
                         "of its turn alone (Lead Letter Printers' last optional actions do)")
    ts = turn_search_new(<int>nodes)
    if ts == NULL:
        raise MemoryError()
    out = state.clone()
    rng.s = seed
    with nogil:
        searched = play_turn(ts, &out.s, &state.rules.cat, &rng)
    turn_search_free(ts)
    if searched < 0:
        raise RuntimeError("no line of the turn ended (every one met a state searched already)")
    return out, searched


def evaluate_state(CoreState state):
    """Projected final score per seat (`evaluate`): exact at the end of the game."""
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
    cdef int cp
    while not game_over(s):
        cp = current_player(s)
        if cp == CHANCE:
            draw_chance(s, cat, rng)
        elif policy[cp] == 1:
            apply_action(s, cat, heuristic_choice(s, cat, rng, epsilon))
        else:
            random_decision(s, cat, rng)


def policy_games(Rules rules, policies, int games, unsigned long long seed=0,
                 double epsilon=HEURISTIC_EPSILON, bint with_automa=False):
    """Play `games` full games inside the core with a policy per seat ("random" or
    "heuristic") and return the final scores of each game (a list of lists; with_automa:
    the solo automa's score after the players')."""
    cdef int policy[MAX_SEATS]
    cdef GameState s
    cdef Rng rng
    cdef int g, i
    cdef double scores[MAX_SEATS]
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
        final_scores_double(&s, &rules.cat, scores)
        out.append([int(scores[i]) for i in range(s.num_seats if with_automa else rules.players)])
    return out


# -- search trees from Python -------------------------------------------------------------
ALGORITHMS = {"ismcts": ALG_ISMCTS, "smmcts": ALG_SMMCTS}
SELECTIONS = {"rm": SEL_RM, "rm+": SEL_RM_PLUS, "exp3": SEL_EXP3, "uct": SEL_UCT}
ROLLOUTS = {"random": ROLLOUT_RANDOM, "heuristic": ROLLOUT_HEURISTIC, "none": ROLLOUT_NONE,
            "learned": ROLLOUT_LEARNED}

# The options of a search and their defaults (docs/search.md explains each).
TREE_POLICIES = {"puct": TREE_PUCT, "uct": TREE_UCT}
ROOT_SELECTIONS = {"tree": ROOT_TREE, "gumbel": ROOT_GUMBEL}

SEARCH_OPTIONS = dict(
    rollout="heuristic",     # rollout policy: "heuristic", "random", "learned" (the model's) or "none"
    cutoff=100,              # rollout decisions before the evaluation (0: to the end)
    tree_policy="puct",      # "puct" (heuristic priors) or "uct"
    uct_c=1.0,               # exploration constant, in units of returns mapped to [0, 1]
    prior_weight=0.9,        # priors: the heuristic's softmax with this weight, else uniform
    prior_temperature=1.0,   # fame points per e-fold of the heuristic's softmax
    prior_visits=10.0,       # regret matching: the prior's weight in the initial regrets
    eval_temperature=5.0,    # "win" at a cut-off: softness of the win shares, in fame
    selection="rm",          # smmcts simultaneous steps: "rm", "rm+", "exp3" or "uct" (decoupled)
    gamma=0.1,               # exploration of "rm", "rm+" and "exp3"
    returns="win",           # "win", "score" or "margin", as the game's parameter
    plan_candidates=32,      # moves per player at a simultaneous step (the heuristic's best; 0: all)
    epsilon=HEURISTIC_EPSILON,   # random moves of the heuristic and learned rollout policies
    fame_scale=30.0,         # score and margin returns: fame per half of [0, 1]
    max_nodes=2_000_000,     # node pool; beyond it leaves are only rolled out
    root_action=-1,          # >= 0: the root player's only move at the root (a move measured)
    model="",                # a learned model: a weights file, or "default" (the game's own); "": none
    rollout_model="",        # rollout="learned": the weights whose moves it plays ("": the model's)
    model_value=True,        # with a model: its value at the leaves (else the heuristic's)
    model_priors=True,       # with a model: its policy as the priors (else the heuristic's)
    open_loop=False,         # ismcts: the draws do not split the tree's nodes
    root_selection="tree",   # "tree" (as every node) or "gumbel" (Gumbel sampling, sequential halving)
    gumbel_moves=16,         # "gumbel": root moves sampled (m)
    gumbel_c_visit=50.0,     # "gumbel": sigma(q) = (c_visit + max visits) * c_scale * q
    gumbel_c_scale=1.0,
    turn_nodes=0,            # a solitary turn (the game's solitary_turn) in a rollout: played out by a
                             # search of this many states (turn_solver.pxi); 0: move by move
)
# The game's own defaults (GAME_SEARCH_DEFAULTS, in its search hooks), chosen by
# measurement for that game, replace the shared ones: every search of the game (bots,
# hints, the arena, benchmarks) starts from them.
SHARED_SEARCH_OPTIONS = dict(SEARCH_OPTIONS)
SEARCH_OPTIONS.update(GAME_SEARCH_DEFAULTS)
# The solo game (one person; "score" returns) has defaults of its own where measured
# (GAME_SOLO_SEARCH_DEFAULTS, in the game's search hooks): with no one to beat, the
# search compares fame, whose spread the shared exploration constant was not chosen on.
SOLO_SEARCH_OPTIONS = {**SEARCH_OPTIONS, **GAME_SOLO_SEARCH_DEFAULTS}


def search_config(*, solo=False, **options):
    """The options with the game's defaults (SEARCH_OPTIONS; with `solo`, for a game of
    one person, SOLO_SEARCH_OPTIONS) filled in; ValueError names a bad one."""
    unknown = sorted(set(options) - set(SEARCH_OPTIONS))
    if unknown:
        raise ValueError(f"unknown search option(s) {', '.join(unknown)}; known: {', '.join(SEARCH_OPTIONS)}")
    cfg = {**(SOLO_SEARCH_OPTIONS if solo else SEARCH_OPTIONS), **options}
    for name, table in (("rollout", ROLLOUTS), ("selection", SELECTIONS), ("returns", RETURNS_MODES),
                        ("tree_policy", TREE_POLICIES), ("root_selection", ROOT_SELECTIONS)):
        if cfg[name] not in table:
            raise ValueError(f"{name}: {cfg[name]!r} is not one of {', '.join(table)}")
    from gutenberg_ai.common import limits
    for name, lo, hi in (("cutoff", 0, limits.MAX_SEARCH_INT), ("plan_candidates", 0, limits.MAX_SEARCH_INT),
                         ("max_nodes", 1, limits.MAX_NODES), ("root_action", -1, limits.MAX_SEARCH_INT),
                         ("gumbel_moves", 1, limits.MAX_SEARCH_INT), ("turn_nodes", 0, MAX_TURN_NODES)):
        limits.check_whole(cfg[name], name, lo, hi)
    for name, lo, hi in (("uct_c", 0.0, 1e9), ("gamma", 1e-9, 1.0), ("epsilon", 0.0, 1.0),
                         ("fame_scale", 1e-9, 1e9), ("prior_weight", 0.0, 1.0),
                         ("prior_temperature", 1e-9, 1e9), ("prior_visits", 0.0, 1e9),
                         ("eval_temperature", 1e-9, 1e9), ("gumbel_c_visit", 0.0, 1e9),
                         ("gumbel_c_scale", 0.0, 1e9)):
        if isinstance(cfg[name], bool) or not isinstance(cfg[name], (int, float)) or not lo <= cfg[name] <= hi:
            raise ValueError(f"{name}: {cfg[name]!r} is not a number in [{lo:g}, {hi:g}]")
    for name in ("model_value", "model_priors", "open_loop"):
        if not isinstance(cfg[name], bool):
            raise ValueError(f"{name}: {cfg[name]!r} is not true or false")
    if cfg["rollout"] == "learned" and not (cfg["rollout_model"] or cfg["model"]):
        raise ValueError('rollout: "learned" plays the model\'s policy: give a model too (e.g. model="default")')
    if cfg["rollout_model"] and cfg["rollout"] != "learned":
        raise ValueError(f'rollout_model: only rollout="learned" plays a model\'s moves (rollout is {cfg["rollout"]!r})')
    for name in ("model", "rollout_model"):
        if not isinstance(cfg[name], str):
            raise ValueError(f"{name}: {cfg[name]!r} is not a weights file's name")
        if cfg[name]:
            learned_model(cfg[name], solo)   # read and checked once (a bad file: ValueError)
    return cfg


_LEARNED_MODELS = {}   # (a weights file, its time) -> LearnedModel, read once per process


def learned_model(str name, bint solo=False):
    """The LearnedModel of a weights file (a path, or "default": the game's shipped
    weights; with `solo`, its solo game's where it ships them), read and checked once
    (gutenberg_ai.search.learn.model); ValueError says what is wrong with it."""
    import os
    import sys
    from gutenberg_ai.search.learn import model as weights
    game = weights.game_of_core(__name__)
    path = weights.resolve(name, game, solo)
    # Keyed by the file's time too: weights written again are read again.
    key = (path, os.stat(path).st_mtime_ns if os.path.exists(path) else None)
    model = _LEARNED_MODELS.get(key)
    if model is None:
        arrays, meta = weights.read(path, game, sys.modules[__name__])
        shown = path
        if name == "default":
            shown = f"{game} default" + (" (solo)" if os.path.basename(path) == weights.SHIPPED_SOLO else "")
        model = LearnedModel(arrays, meta["beta"], meta["scale"], shown)
        _LEARNED_MODELS[key] = model
    return model


def root_move_values(CoreState state, int plan_candidates=-1):
    """The moves the search considers at `state` for the player to act, with the
    heuristic's values (what its priors and the learned policy start from): a list of
    (action, value), as the search's root would have them (plan_candidates: the game's
    default when -1)."""
    cdef int moves[MAX_LEGAL]
    cdef double values[MAX_LEGAL]
    cdef int n, i, seat = current_player(&state.s)
    if seat < 0:
        raise ValueError("moves are considered at a decision node (this is a chance node or the end)")
    k = SEARCH_OPTIONS["plan_candidates"] if plan_candidates < 0 else plan_candidates
    n = move_values(&state.s, &state.rules.cat, seat, sim_step(&state.s), k, moves, values)
    return [(moves[i], values[i]) for i in range(n)]


cdef int revealed_move(const Tree* t, int32_t node, int seat) noexcept nogil:
    """The move of `seat` revealed on the edge into `node`, or -1."""
    cdef int i, e
    for i in range(t.nodes[node].n_obs):
        e = t.obs[t.nodes[node].obs + i] - OBS_REVEAL
        if e >= 0 and e // N_ACTIONS == seat:
            return e % N_ACTIONS
    return -1


cdef bint replay_draws(const Tree* t, GameState* st, int32_t node) noexcept nogil:
    """Apply the draws recorded on the edge into `node`; False if one does not fit."""
    cdef int i, o
    for i in range(t.nodes[node].n_obs):
        o = t.obs[t.nodes[node].obs + i]
        if o >= OBS_REVEAL:
            continue
        if current_player(st) != CHANCE or not is_legal(st, t.cat, o):
            return False
        apply_action(st, t.cat, o)
    return current_player(st) != CHANCE


cdef bint _draws_on(const Tree* t, int32_t node) noexcept nogil:
    """Whether the edge into `node` records a draw (not only moves revealed)."""
    cdef int i
    for i in range(t.nodes[node].n_obs):
        if t.obs[t.nodes[node].obs + i] < OBS_REVEAL:
            return True
    return False


cdef void reveal_committed(const Tree* t, GameState* st, int32_t node) noexcept nogil:
    """Set the moves already committed in this simultaneous step to those revealed into
    `node`."""
    cdef int seats[MAX_SEATS]
    cdef int k, a, committed = sim_committed(st)
    sim_seats(st, seats)
    for k in range(committed):
        a = revealed_move(t, node, seats[k])
        if a >= 0:
            sim_overwrite(st, t.cat, seats[k], a)


cdef class SearchTree:
    """One search tree (ISMCTS or SM-MCTS) over a copy of a state: the handle that owns
    the C memory. `search()` runs one per thread and merges their root statistics."""
    cdef Tree* t
    cdef readonly Rules rules
    cdef readonly int player
    cdef readonly str algorithm
    cdef object model      # the LearnedModel the tree's Net points into (kept alive)
    cdef object rollout_model   # and the one its rollouts play, where it is another
    cdef bint planned           # the whole search's budget is known (plan())
    cdef int64_t plan_iterations    # ... its iterations (0: none)
    cdef double plan_t0, plan_end   # ... and its time: from, to (0: none)
    cdef int64_t plan_it0

    def __cinit__(self, CoreState state, str algorithm="ismcts", unsigned long long seed=0, **options):
        cdef int seat
        cdef GameState st
        solo = state.s.num_players == 1   # the solo game: its own defaults and weights
        cfg = search_config(solo=solo, **options)
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm: {algorithm!r} is not one of {', '.join(ALGORITHMS)}")
        if cfg["open_loop"] and algorithm != "ismcts":
            raise ValueError(f"open_loop: only ismcts searches open loop ({algorithm} keeps its draws apart)")
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
        t.cfg.root_action = cfg["root_action"]
        t.cfg.net_value = cfg["model_value"]
        t.cfg.net_priors = cfg["model_priors"]
        t.cfg.open_loop = cfg["open_loop"]
        t.cfg.turn_nodes = cfg["turn_nodes"]
        t.cfg.root_selection = ROOT_SELECTIONS[cfg["root_selection"]]
        t.cfg.gumbel_moves = cfg["gumbel_moves"]
        t.cfg.gumbel_c_visit = cfg["gumbel_c_visit"]
        t.cfg.gumbel_c_scale = cfg["gumbel_c_scale"]
        if cfg["model"]:
            self.model = learned_model(cfg["model"], solo)
            t.net = &(<LearnedModel>self.model).net
            t.net_scratch = <NetScratch*>calloc(1, sizeof(NetScratch))
            if t.net_scratch == NULL or not net_scratch_init(t.net_scratch):
                raise MemoryError()
        t.rollout_net, t.rollout_scratch = t.net, t.net_scratch
        if cfg["rollout_model"]:
            # Its own buffers: an incremental pass continues the last pass of the same weights.
            self.rollout_model = learned_model(cfg["rollout_model"], solo)
            t.rollout_net = &(<LearnedModel>self.rollout_model).net
            t.rollout_scratch = <NetScratch*>calloc(1, sizeof(NetScratch))
            if t.rollout_scratch == NULL or not net_scratch_init(t.rollout_scratch):
                raise MemoryError()
        if t.cfg.root_action >= 0 and t.cfg.root_action not in state.legal_actions():
            raise ValueError(f"root_action: {t.cfg.root_action} is not a legal move here")
        if t.cfg.returns != RETURNS_WIN:
            with nogil:
                probe_baseline(t, BASELINE_PROBES)
        # The root's arms and priors from the root player's information only (the
        # heuristic reads every field of the state it is given).
        root_world(t, &st)
        if not hash_grow(t) or new_node(t, -1, 0, EDGE_ROOT, NULL, 0) != 0 or not expand(t, 0, &st):
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
        if t.cfg.root_selection == ROOT_GUMBEL:
            t.gumbel_sel = <int32_t*>calloc(t.root_n, sizeof(int32_t))
            t.gumbel_g = <double*>calloc(t.root_n, sizeof(double))
            if t.gumbel_sel == NULL or t.gumbel_g == NULL:
                raise MemoryError()
            gumbel_init(t)

    def __dealloc__(self):
        if self.t != NULL:
            free_tree(self.t)
            free(self.t)
            self.t = NULL

    def plan(self, long long iterations=0, double seconds=0.0):
        """The budget of the whole search to come (run() may spend it in parts): Gumbel
        root selection splits it over its halving phases. With `seconds` the iterations
        are estimated from the rate measured so far, at every slice; each phase is planned
        when it starts, from the estimate then. Without a plan, run()'s own budget is it."""
        cdef Tree* t = self.t
        self.planned = True
        self.plan_iterations = t.iterations + iterations if iterations > 0 else 0
        self.plan_t0 = now_seconds()
        self.plan_end = self.plan_t0 + seconds if seconds > 0 else 0.0
        self.plan_it0 = t.iterations
        t.gumbel_budget = self.plan_iterations

    cdef void _estimate_budget(self) noexcept:
        # A time budget: the iterations it will buy at the rate so far (capped by an
        # iteration budget given too).
        cdef Tree* t = self.t
        cdef double now = now_seconds(), rate
        cdef int64_t estimate
        if self.plan_end <= 0 or now <= self.plan_t0 or t.iterations <= self.plan_it0:
            return
        rate = (t.iterations - self.plan_it0) / (now - self.plan_t0)
        estimate = t.iterations + <int64_t>(rate * max(0.0, self.plan_end - now))
        if self.plan_iterations > 0 and estimate > self.plan_iterations:
            estimate = self.plan_iterations
        t.gumbel_budget = max(estimate, 1)

    def run(self, long long iterations=0, double seconds=0.0, stop=None, on_slice=None):
        """Search for `iterations` (if > 0) and at most `seconds` (if > 0), without the GIL.

        The budget is spent in slices of RUN_SLICE seconds. Between slices the thread
        takes the GIL for a moment: in the main thread a signal is handled there (Ctrl-C
        raises KeyboardInterrupt within a slice), any thread stops early once `stop` (a
        threading.Event) is set, and `on_slice()` is called (progress). The slices change
        nothing else: the same iterations run in the same order."""
        cdef Tree* t = self.t
        cdef int64_t target = t.iterations + iterations
        cdef int64_t left = 0
        cdef double end = now_seconds() + seconds
        cdef double slice_
        if iterations <= 0 and seconds <= 0:
            raise ValueError("a search needs iterations > 0 or seconds > 0")
        if not self.planned:
            self.plan(iterations, seconds)
        while True:
            if iterations > 0:
                left = target - t.iterations
                if left <= 0:
                    break
            slice_ = RUN_SLICE
            if seconds > 0:
                slice_ = min(slice_, end - now_seconds())
                if slice_ <= 0:
                    break
            with nogil:
                run_tree(t, left, slice_)
            if t.cfg.root_selection == ROOT_GUMBEL:
                self._estimate_budget()
            PyErr_CheckSignals()   # raises KeyboardInterrupt after Ctrl-C (main thread only)
            if on_slice is not None:
                on_slice()
            if stop is not None and stop.is_set():
                break

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

    @property
    def survivors(self):
        """Gumbel root selection: the root moves still in the halving, best first by
        g + log prior + sigma(q) (the first is the move the search plays; after the last
        phase, its two moves); None for the other root selection."""
        cdef Tree* t = self.t
        cdef int32_t j, i, top_visits = 0
        if t.cfg.root_selection != ROOT_GUMBEL:
            return None
        for i in range(t.root_n):
            top_visits = max(top_visits, t.arms[t.root_first + i].visits)
        scored = sorted((-gumbel_score(t, t.gumbel_sel[j], top_visits), j,
                         t.arms[t.root_first + t.gumbel_sel[j]].action) for j in range(t.gumbel_k))
        return [action for _, _, action in scored]

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

    def child_arms(self, int action):
        """The node the root player's `action` leads to (the most visited one, over the
        draws that followed it) and its moves: a dict with the seat to act (`player`),
        `visits` and `arms`, one dict per move (action, visits, avail: the selections
        where the move was legal, counted at nodes whose moves vary, and prior); None if
        the move has no expanded node below it yet. For tests and inspection."""
        cdef Tree* t = self.t
        cdef int32_t c, best = -1, i
        cdef Arm* a
        c = t.nodes[0].first_child
        while c >= 0:
            if t.nodes[c].edge == action and (best < 0 or t.nodes[c].visits > t.nodes[best].visits):
                best = c
            c = t.nodes[c].next_sibling
        if best < 0 or t.nodes[best].arms < 0 or t.nodes[best].player == NODE_SIM:
            return None
        arms = []
        for i in range(t.nodes[best].n_arms[0]):
            a = &t.arms[t.nodes[best].arms + i]
            arms.append(dict(action=a.action, visits=a.visits, avail=a.avail, prior=a.prior))
        return dict(player=t.nodes[best].player, visits=t.nodes[best].visits, arms=arms)

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
        after each, the most visited of what followed, as (seat, action, text) triples.
        It names only what the root player can know: another player's move it does not
        see is (seat, -1, None), and it stops at the first draw, given as (CHANCE, -1,
        None): the tree's most visited outcome is one of its own redraws, not a card
        anyone has seen. Stops where the tree thins out."""
        cdef Tree* t = self.t
        cdef GameState st = t.root
        cdef int32_t node = 0, arm, c, best
        cdef int seats[MAX_SEATS]
        cdef int k, n, seat, a, committed, edge, i
        cdef bint first = True
        cdef TreeNode* nd
        out = []
        # The draws are replayed on the root as the root player knows it, so the line
        # cannot tell what it has not seen.
        root_world(t, &st)
        while len(out) < max_steps and not game_over(&st):
            nd = &t.nodes[node]
            if nd.arms < 0:
                break
            best = -1
            if nd.player == NODE_SIM:
                c = nd.first_child
                while c >= 0:
                    if ((not first or revealed_move(t, c, t.player) == action)
                            and (best < 0 or t.nodes[c].visits > t.nodes[best].visits)):
                        best = c
                    c = t.nodes[c].next_sibling
                if best < 0:
                    break
                committed = sim_committed(&st)
                n = sim_seats(&st, seats)
                for k in range(n):
                    seat = seats[k]
                    a = revealed_move(t, best, seat)
                    if k < committed:
                        if not sim_overwrite(&st, t.cat, seat, a):
                            return out
                        continue
                    if a < 0 or not is_legal(&st, t.cat, a):
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
                edge = EDGE_HIDDEN if (nd.player != t.player and hidden_move(&st, nd.player, a, t.player)) else a
                c = nd.first_child
                while c >= 0:
                    if t.nodes[c].edge == edge and (best < 0 or t.nodes[c].visits > t.nodes[best].visits):
                        best = c
                    c = t.nodes[c].next_sibling
                unseen = edge == EDGE_HIDDEN
                if best >= 0 and sim_phase(&st):
                    # At the end of a simultaneous step the moves are revealed: play those.
                    reveal_committed(t, &st, best)
                    if edge == EDGE_HIDDEN and revealed_move(t, best, nd.player) >= 0:
                        a = revealed_move(t, best, nd.player)
                        unseen = False
                if not is_legal(&st, t.cat, a):
                    break
                if not first:
                    out.append((nd.player, -1, None) if unseen else (nd.player, a, self._text(&st, a)))
                apply_action(&st, t.cat, a)
            first = False
            if best < 0:
                break
            if _draws_on(t, best):
                out.append((CHANCE, -1, None))
                break
            if not replay_draws(t, &st, best):
                break
            node = best
        return out


def _thread_seed(unsigned long long seed, int index):
    cdef Rng rng
    rng.s = seed + <unsigned long long>index * 0xD1B54A32D192ED03ULL
    return rng_next(&rng)


def search(CoreState state, str algorithm="ismcts", iterations=None, seconds=None,
           unsigned long long seed=0, threads=1, int lines=0, int line_length=12, progress=None,
           batches=1, trees=None, **options):
    """Search from `state` for its player to act and return the root statistics.

    algorithm   "ismcts" or "smmcts"
    iterations  total iterations (split over the threads); seconds: wall-clock budget per
                thread; either or both (the first reached stops). Default: 1000 iterations.
    threads     threads without the GIL that grow the trees (root parallelism)
    trees       independent trees, each with its own seed (from `seed` and its index),
                their root statistics merged; default: one per thread. With an iteration
                budget they may outnumber the threads (each thread grows its share of
                them in turn): the result depends on `trees`, not on `threads`. A time
                budget alone needs one tree per thread; with an iteration budget it is a
                cap on the whole search (what it stops is not reproducible).
    lines       principal lines for the `lines` most visited moves (line_length moves each).
    progress    called as progress(iterations, seconds) a few times a second (main thread).
    batches     run each tree's budget in this many parts, for the standard errors below
                (1, the default: none, and nothing spent on them; hints use BATCHES).
    options     see SEARCH_OPTIONS.

    Ctrl-C stops the search within a slice (RUN_SLICE): KeyboardInterrupt is raised in the
    calling thread once every tree has stopped.

    Returns a dict: player, iterations, seconds, nodes, threads, full (the node pool ran
    out), mismatches (iterations cut short because a move in the tree did not fit the
    sampled state: a hash collision, so almost always 0), and `moves`, one dict per
    move of the root player (most visited first): action, visits, returns (mean per
    seat), win (win probability per seat; a shared win counts 1/k), fame (mean final fame
    per seat, projected at cut-offs), `se`: the standard errors of those three means
    ({"returns": [...], "win": [...], "fame": [...]}, None where the move was visited in
    fewer than 2 batches), `parts`: the batches that visited it (over all trees; the
    standard errors' degrees of freedom are parts - 1) and line (a list of (seat, action,
    text)) if asked.

    The standard errors are batch means: each tree's budget is run in `batches` parts
    and a move's mean is compared across them (the ratio estimator's variance). Successive
    iterations of a tree are not independent draws (the tree's policy moves), and
    batches absorb that correlation where a per-iteration variance would not.
    Deterministic for a given seed, iteration budget and number of trees.

    `chosen` is the move the search plays: the most visited (moves[0]); with
    root_selection="gumbel", the surviving move of sequential halving (over several
    trees, the one most of them kept; ties: the most visited).
    """
    import threading
    import time as _time
    from gutenberg_ai.common import limits
    # The bounds of gutenberg_ai.common.limits, checked before any tree is made: an absurd
    # budget would search without end, a million threads would take the machine.
    limits.check_threads(threads)
    limits.check_whole(batches, "batches", 1, limits.MAX_SEARCH_INT)
    n_trees = threads if trees is None else limits.check_whole(trees, "trees", 1, limits.MAX_THREADS)
    if iterations is None and seconds is None:
        iterations = 1000
    seconds, iterations = limits.check_budget(seconds, iterations)
    if n_trees != threads and iterations is None:
        raise ValueError(f"trees: {n_trees} trees for {threads} threads needs an iteration budget "
                         "(with seconds alone, each thread grows one tree for the time)")
    threads = min(threads, n_trees)
    trees = [SearchTree(state, algorithm, _thread_seed(seed, i), **options) for i in range(n_trees)]
    budgets = [0] * n_trees
    if iterations is not None:
        budgets = [iterations // n_trees + (1 if i < iterations % n_trees else 0) for i in range(n_trees)]
    for i, tree in enumerate(trees):
        tree.plan(budgets[i], float(seconds) if seconds is not None else 0.0)
    secs = float(seconds) if seconds is not None else 0.0
    stop = threading.Event()
    snapshots = [[] for _ in trees]   # per tree: the root sums after each batch
    started = _time.perf_counter()
    last_report = [started]

    def report():
        now = _time.perf_counter()
        if progress is not None and now - last_report[0] >= PROGRESS_EVERY:
            last_report[0] = now
            progress(sum(t.iterations for t in trees), now - started)

    def work(int first, on_slice=None):
        # This thread's trees: first, first + threads, ...
        for i in range(first, n_trees, threads):
            tree = trees[i]
            for b in range(batches):
                its = budgets[i] * (b + 1) // batches - budgets[i] * b // batches
                # More trees than threads: `seconds` caps the whole search (a thread's later
                # trees get what time is left); else each batch has its share of the time.
                share = 1.0 if n_trees != threads else (b + 1) / batches
                window = started + secs * share - _time.perf_counter() if secs > 0 else 0.0
                if (its > 0 or iterations is None) and (window > 0 or secs <= 0):
                    tree.run(its, window if secs > 0 else 0.0, stop, on_slice)
                if batches > 1:
                    snapshots[i].append({st["action"]: st for st in tree.root_stats()})
                if stop.is_set():
                    return

    workers = [threading.Thread(target=work, args=(i,)) for i in range(1, threads)]
    try:
        for w in workers:
            w.start()
        work(0, report)
        for w in workers:
            while w.is_alive():
                w.join(PROGRESS_EVERY)
                report()
    except BaseException:
        stop.set()   # Ctrl-C (or an error): every tree stops at its next slice
        for w in workers:
            w.join()
        raise
    elapsed = _time.perf_counter() - started
    if progress is not None:
        progress(sum(t.iterations for t in trees), elapsed)
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
        m["se"], m["parts"] = _batch_errors(a, m, snapshots) if batches > 1 else (None, 0)
        moves.append(m)
    # Most visited first; ties: the higher mean return of the root player, then the action.
    p = state.current_player()
    moves.sort(key=lambda m: (-m["visits"], -m["returns"][p], m["action"]))
    for m in moves[:lines]:
        # The line from the tree where the move was visited most.
        best = max(range(n_trees), key=lambda i: (_visits_of(trees[i], m["action"]), -i))
        m["line"] = trees[best].line(m["action"], line_length)
    return dict(player=p, algorithm=algorithm, iterations=sum(t.iterations for t in trees),
                chosen=_chosen(trees, moves), trees=n_trees,
                seconds=elapsed, nodes=sum(t.nodes for t in trees), threads=threads,
                full=any(t.full for t in trees), mismatches=sum(t.mismatches for t in trees), moves=moves)


def _chosen(trees, moves):
    """The move a search plays: the most visited, or Gumbel's survivor (the one most
    trees kept; ties: the most visited)."""
    if not moves:
        return None
    kept = [tree.survivors[0] for tree in trees if tree.survivors]
    if not kept:
        return moves[0]["action"]
    rank = {m["action"]: i for i, m in enumerate(moves)}
    return min(set(kept), key=lambda a: (-kept.count(a), rank.get(a, len(rank))))


def _batch_errors(int action, dict move, snapshots):
    """Standard errors of a move's means (returns, win, fame per seat) from the batches of
    every tree (`snapshots`: per tree, the root statistics by action after each batch):
    for the ratio mean = sum(s_b) / sum(v_b) over the batches b that visited the move,
    with sums s_b and visits v_b, var = k/(k-1) * sum((s_b - mean * v_b)^2) / (sum v_b)^2
    (k such batches), and k. None with fewer than 2 of them."""
    keys = ("returns", "win", "fame")
    parts = []   # (visits, sums per key) of each batch that visited the move
    for tree_snapshots in snapshots:
        before = None
        for snap in tree_snapshots:
            now = snap.get(action)
            if now is None:
                continue
            v = now["visits"] - (before["visits"] if before is not None else 0)
            if v > 0:
                parts.append((v, {key: [x - (before[key][i] if before is not None else 0.0)
                                        for i, x in enumerate(now[key])] for key in keys}))
            before = now
    k = len(parts)
    if k < 2:
        return None, k
    total = sum(v for v, _ in parts)
    return {key: [sqrt(k / (k - 1.0) * sum((sums[key][seat] - move[key][seat] * v) ** 2 for v, sums in parts))
                  / total for seat in range(len(move[key]))] for key in keys}, k


def _visits_of(SearchTree tree, int action):
    cdef int i
    for i in range(tree.t.root_n):
        if tree.t.arms[tree.t.root_first + i].action == action:
            return tree.t.arms[tree.t.root_first + i].visits
    return 0
