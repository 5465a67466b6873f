# What the shared search (ext/engine/search.pxi) needs to know of Gutenberg, beyond the
# rules and the heuristic: when the game is over, and the plan step, the one step where
# players commit hidden moves (their plans) one after another. Included by core.pyx
# before the search.

cdef enum:
    PLAN_CODES = 16807     # 7**5 allocations of markers, coded in base 7

cdef int16_t PLAN_INDEX[PLAN_CODES]     # plan index of an allocation code, -1 if none


cdef inline int plan_code(const int16_t* plan) noexcept nogil:
    return plan[0] + 7 * (plan[1] + 7 * (plan[2] + 7 * (plan[3] + 7 * plan[4])))


def _build_plan_index():
    cdef int i
    for i in range(PLAN_CODES):
        PLAN_INDEX[i] = -1
    for i in range(N_PLANS):
        PLAN_INDEX[plan_code(PLAN_TABLE[i])] = i


_build_plan_index()


cdef inline bint game_over(const GameState* s) noexcept nogil:
    return s.phase == PH_TERMINAL


cdef inline bint sim_phase(const GameState* s) noexcept nogil:
    return s.phase == PH_PLAN


cdef inline bint sim_step(const GameState* s) noexcept nogil:
    """A player is about to commit a plan (the free-action windows before the plans and
    the pending decisions of the plan step are ordinary, public decisions)."""
    return at_plan_commit(s)


cdef inline int sim_committed(const GameState* s) noexcept nogil:
    return s.step


cdef int sim_seats(const GameState* s, int* out) noexcept nogil:
    """The people, in the order they commit; the automa's plan is its card, a draw."""
    cdef int k
    for k in range(s.num_players):
        out[k] = human_seat(s, k)
    return s.num_players


cdef inline int sim_moves(const GameState* s, const Catalogue* cat, int seat, int* out,
                          double* values, int k) noexcept nogil:
    return plan_candidates(s, cat, seat, out, values, k)


cdef bint sim_overwrite(GameState* s, const Catalogue* cat, int seat, int a) noexcept nogil:
    """Replace the plan `seat` committed (unseen) by plan action `a`."""
    cdef int m = s.players[seat].markers, i
    if a - A_PLAN < PLAN_START[m] or a - A_PLAN >= PLAN_START[m + 1]:
        return False
    for i in range(N_ROWS):
        s.players[seat].plan[i] = PLAN_TABLE[a - A_PLAN][i]
    return True


cdef int committed_move(const GameState* s, int seat) noexcept nogil:
    """The plan action of `seat`'s markers on the rows (-1 if no plan action places them
    so: the automa's markers are its card's, known once the card is)."""
    cdef int i, idx
    for i in range(N_ROWS):
        if s.players[seat].plan[i] < 0 or s.players[seat].plan[i] > 6:
            return -1
    idx = PLAN_INDEX[plan_code(s.players[seat].plan)]
    return A_PLAN + idx if idx >= 0 else -1


cdef inline bint hidden_move(const GameState* s, int actor, int action, int observer) noexcept nogil:
    """Plans are unseen by the others until every plan is committed."""
    return s.phase == PH_PLAN and actor != observer and A_PLAN <= action < A_PLAN + N_PLANS


cdef inline bint moves_vary(const GameState* s, int actor, int observer) noexcept nogil:
    """Never: a move's legality depends on nothing another player cannot see (the plans
    that are hidden are chosen at their own nodes, and smmcts redraws them)."""
    return False


cdef inline bint solitary_turn(const GameState* s) noexcept nogil:
    """Never: no turn of this game is searched on its own (engine/turn_solver.pxi);
    the rollouts play every decision with the heuristic."""
    return False


cdef inline uint64_t state_key(const GameState* s) noexcept nogil:
    """A hash of the state, for a search of a solitary turn (there is none in this game)."""
    return bytes_hash(s, sizeof(GameState), 0x6E7B)


cdef inline void smmcts_redraw(GameState* s, int player, Rng* rng) noexcept nogil:
    # While characters are being drawn, the tiles the others drew are hidden and the pool
    # they left feeds the later draws. (After setup the tiles put back never come back
    # into play, so there is nothing to redraw.)
    if s.phase == PH_CHARACTERS:
        draw_characters(s, player, rng)

# The search's defaults for Gutenberg: the shared ones (ext/engine/search.pxi,
# SEARCH_OPTIONS), which were chosen on this game (benchmarks/README.md).
GAME_SEARCH_DEFAULTS = {}
# The solo game's (one person against the automa, "score" returns): less exploration and
# rollouts to the end. Fame differences between moves are a few points in a spread of
# tens, so the shared uct_c explores too much; and the solo game has no rival's moves to
# cut short, so a whole rollout is affordable and exact. Measured: benchmarks/README.md,
# "The solo game's search and weights".
GAME_SOLO_SEARCH_DEFAULTS = dict(uct_c=0.5, cutoff=0)
# The learned bot's solo settings, on top of those and of bots.LEARNED_OPTIONS: the solo
# network plays the rollouts. Its policy alone scores about 116 fame against the
# heuristic's 100-103, and the search gains with it as the budget grows: +3.2 fame at 1 s
# a move (48 games), +3.5 at 3,000 iterations, level at 1,000 (benchmarks/README.md, "The
# learned bot's solo rollouts"). A rollout costs about five times the heuristic's.
GAME_SOLO_LEARNED_DEFAULTS = dict(rollout="learned")
