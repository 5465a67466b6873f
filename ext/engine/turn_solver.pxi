# A turn played out by search: where a game's hook solitary_turn(st) says the player to
# act plays the rest of its turn alone (its decisions until another player acts change
# its own final score only: Lead Letter Printers' last optional actions), the rollout
# does not play that turn move by move with the heuristic, whose one-step look-ahead
# cannot see a line that scores only at its end (a travel, a factory built, a letter
# typeset, then the contract it unlocks), but searches the player's decisions depth
# first and plays the line that ends with the best final score. Included by search.pxi.
#
# The search is bounded (TURN_NODES states a turn, TURN_DEPTH decisions deep), so a
# rollout's cost is too; a state reached again by another order of the same moves is
# searched once (a set of the states' keys: the game's state_key). A draw on the way
# gives the same outcome on every line (seeded by the rollout's generator and what may
# come up), so that the search does not pick its luck. Lines are ranked by the player's
# final score as the game would count it now (final_scores_double), then by the
# evaluation (which counts the resources and cash a line leaves unrounded: the
# tie-break's cash among them).

cdef enum:
    TURN_DEPTH = 64          # decisions of one turn searched at most; deeper, the line ends
    TURN_NODES = 4096        # states one turn's search applies at most (the rollouts')
    MAX_TURN_NODES = 1 << 22 # a caller's bound (turn_nodes, play_solitary_turn): 150 MB of
                             # memory, a few seconds a turn


ctypedef struct TurnSearch:
    GameState* states        # [TURN_DEPTH + 1]: the line being searched
    int* moves               # [TURN_DEPTH * MAX_LEGAL]: each depth's legal moves
    uint64_t* seen           # [seen_mask + 1]: hashes of the states searched (0: empty)
    uint32_t seen_mask       # its slots less one: at least 2 * (max_nodes + 1), a power of two
    int32_t* used            # [max_nodes + 1]: the slots of `seen` filled, to empty them
    int* outcomes            # [N_CHANCE]: a draw's outcomes
    double* prob             # [N_CHANCE]: and their probabilities
    int n_used
    GameState best           # where the best line found so far ends
    double best_score        # its player's final score there
    double best_value        # and its evaluation, for ties
    int actor
    uint64_t seed            # this turn's draws, with what may come up
    int nodes                # states applied so far
    int max_nodes            # at most this many


cdef TurnSearch* turn_search_new(int max_nodes) noexcept nogil:
    """A turn search of at most `max_nodes` states a turn (1..MAX_TURN_NODES); NULL if
    memory ran out."""
    cdef TurnSearch* ts = <TurnSearch*>calloc(1, sizeof(TurnSearch))
    cdef uint32_t slots = 1024
    if ts == NULL:
        return NULL
    if max_nodes < 1:
        max_nodes = 1
    elif max_nodes > MAX_TURN_NODES:
        max_nodes = MAX_TURN_NODES
    while slots < 2 * <uint32_t>(max_nodes + 1):
        slots *= 2
    ts.max_nodes = max_nodes
    ts.seen_mask = slots - 1
    ts.states = <GameState*>malloc((TURN_DEPTH + 1) * sizeof(GameState))
    ts.moves = <int*>malloc(TURN_DEPTH * MAX_LEGAL * sizeof(int))
    ts.seen = <uint64_t*>calloc(slots, sizeof(uint64_t))
    ts.used = <int32_t*>malloc((max_nodes + 1) * sizeof(int32_t))
    ts.outcomes = <int*>malloc(N_CHANCE * sizeof(int))
    ts.prob = <double*>malloc(N_CHANCE * sizeof(double))
    if (ts.states == NULL or ts.moves == NULL or ts.seen == NULL or ts.used == NULL
            or ts.outcomes == NULL or ts.prob == NULL):
        turn_search_free(ts)
        return NULL
    return ts


cdef void turn_search_free(TurnSearch* ts) noexcept nogil:
    if ts != NULL:
        free(ts.states)
        free(ts.moves)
        free(ts.seen)
        free(ts.used)
        free(ts.outcomes)
        free(ts.prob)
        free(ts)


cdef bint turn_seen(TurnSearch* ts, const GameState* st) noexcept nogil:
    """Whether the state was searched already in this turn; if not, it is now. (A turn
    marks at most max_nodes + 1 states, half of the set's slots.)"""
    cdef uint64_t h = state_key(st)
    cdef uint32_t k = <uint32_t>h & ts.seen_mask
    while ts.seen[k] != 0:
        if ts.seen[k] == h:
            return True
        k = (k + 1) & ts.seen_mask
    if ts.n_used > ts.max_nodes:
        return False
    ts.seen[k] = h
    ts.used[ts.n_used] = <int32_t>k
    ts.n_used += 1
    return False


cdef void turn_leaf(TurnSearch* ts, const Catalogue* cat, const GameState* st) noexcept nogil:
    """A line ends here: the best so far if its player's final score is higher (or the
    same and its evaluation higher)."""
    cdef double scores[MAX_SEATS]
    cdef double values[MAX_SEATS]
    final_scores_double(st, cat, scores)
    evaluate(st, cat, values)
    if (ts.best_score < -1e300 or scores[ts.actor] > ts.best_score
            or (scores[ts.actor] == ts.best_score and values[ts.actor] > ts.best_value)):
        ts.best = st[0]
        ts.best_score = scores[ts.actor]
        ts.best_value = values[ts.actor]


cdef void turn_dfs(TurnSearch* ts, const Catalogue* cat, int depth) noexcept nogil:
    cdef GameState* st = &ts.states[depth]
    cdef GameState* child
    cdef Rng draw
    cdef int* moves
    cdef int n, i, k
    if (game_over(st) or current_player(st) != ts.actor or not solitary_turn(st)
            or depth >= TURN_DEPTH):
        turn_leaf(ts, cat, st)
        return
    if turn_seen(ts, st):
        return
    moves = &ts.moves[depth * MAX_LEGAL]
    n = legal_actions(st, cat, moves)
    child = &ts.states[depth + 1]
    for i in range(n):
        if ts.nodes >= ts.max_nodes:
            return
        ts.nodes += 1
        child[0] = st[0]
        apply_action(child, cat, moves[i])
        while current_player(child) == CHANCE:
            # A draw from the same pile gives the same outcome on every line of the
            # turn's search (seeded by what may come up): the lines compare the player's
            # choices, not their luck, and meet again after the draw.
            k = chance_outcomes(child, cat, ts.outcomes, ts.prob)
            draw.s = bytes_hash(ts.outcomes, k * sizeof(int), bytes_hash(ts.prob, k * sizeof(double), ts.seed))
            apply_action(child, cat, sample_chance(child, cat, &draw))
        turn_dfs(ts, cat, depth + 1)


cdef int play_turn(TurnSearch* ts, GameState* st, const Catalogue* cat, Rng* rng) noexcept nogil:
    """Play the rest of the acting player's solitary turn at `st` (solitary_turn(st)) by
    the line with its best final score found within ts.max_nodes states; `st` becomes the
    state where that line ends. Returns the states applied, or -1 if no line ended (every
    one met a state searched already: `st` is as it was)."""
    cdef int i
    ts.actor = current_player(st)
    ts.nodes = 0
    ts.n_used = 0
    ts.best_score = -1e308
    ts.best_value = -1e308
    ts.states[0] = st[0]
    ts.seed = rng_next(rng)
    turn_dfs(ts, cat, 0)
    for i in range(ts.n_used):
        ts.seen[ts.used[i]] = 0
    if ts.best_score < -1e300:
        return -1
    st[0] = ts.best
    return ts.nodes
