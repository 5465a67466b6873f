# What the shared search (ext/engine/search.pxi) needs to know of Printing Press beyond the
# rules and the heuristic. Included by core.pyx before the search.
#
# Printing Press has no simultaneous step: the players decide one after another in
# initiative (or seat) order, and what one does is public except the symbols of tokens
# (hidden.pxi). So the simultaneous-step hooks say "never", and `smmcts` is `ismcts`:
# its iterations redraw the hidden tokens through smmcts_redraw exactly as ismcts does
# through determinize, and it never meets a simultaneous node.


cdef inline bint game_over(const GameState* s) noexcept nogil:
    return s.phase == PH_TERMINAL


cdef inline int rounds_left(const GameState* s) noexcept nogil:
    """Rounds still to come after this one (all of them during setup)."""
    cdef int left = s.rounds - s.round
    return left if left > 0 else 0


cdef inline bint sim_phase(const GameState* s) noexcept nogil:
    return False


cdef inline bint sim_step(const GameState* s) noexcept nogil:
    return False


cdef inline int sim_committed(const GameState* s) noexcept nogil:
    return 0


cdef inline int sim_seats(const GameState* s, int* out) noexcept nogil:
    return 0


cdef inline int sim_moves(const GameState* s, const Catalogue* cat, int seat, int* out,
                          double* values, int k) noexcept nogil:
    return 0


cdef inline bint sim_overwrite(GameState* s, const Catalogue* cat, int seat, int a) noexcept nogil:
    return False


cdef inline int committed_move(const GameState* s, int seat) noexcept nogil:
    return -1


cdef inline bint hidden_move(const GameState* s, int actor, int action, int observer) noexcept nogil:
    """Another player's move whose symbol the observer does not see: keeping a drawn token
    initiative side up, taking Caxton's token from the bag (entry_hidden's decisions)."""
    return actor != observer and ((A_KEEP_DOWN <= action < A_SETUP_UP)
                                  or (A_CAXTON_TAKE <= action < A_TOKEN_AT))


cdef inline bint moves_vary(const GameState* s, int actor, int observer) noexcept nogil:
    """Whether actor's legal moves may differ between the states observer cannot tell
    apart: another player's setup tokens name their symbols (A_SETUP_UP: each
    determinization deals that hand again), and Caxton (side B) takes a symbol from a
    bag whose contents the observer knows only at its own root."""
    if s.caxton:
        return True
    return actor != observer and (free_actions_open(s) or s.token_window == actor) \
        and hand_count(&s.players[actor]) > 0


cdef inline bint solitary_turn(const GameState* s) noexcept nogil:
    """Never: no turn of this game is searched on its own (engine/turn_solver.pxi);
    the rollouts play every decision with the heuristic."""
    return False


cdef inline uint64_t state_key(const GameState* s) noexcept nogil:
    """A hash of the state, for a search of a solitary turn (there is none in this game)."""
    return bytes_hash(s, sizeof(GameState), 0x9955)


cdef inline void smmcts_redraw(GameState* s, int player, Rng* rng) noexcept nogil:
    # Without a simultaneous step, smmcts redraws what ismcts does: every symbol the
    # player has not seen.
    determinize(s, NULL, player, rng)


# The search's defaults for Printing Press, replacing the shared ones (SEARCH_OPTIONS in
# ext/engine/search.pxi, chosen on Gutenberg); each chosen by measurement
# (benchmarks/README.md, "Printing Press: the search's defaults").
GAME_SEARCH_DEFAULTS = dict(
    # Rollouts of 10 decisions (two or three card steps of a 2-player round) before the
    # evaluation: an iteration costs about half of one cut off after 20 (a fifth of one
    # after 100), and the evaluation's window with partial credit says more than the
    # noise of a longer rollout; at equal time a move it held its own against cut-off
    # 20 (benchmarks/README.md, "Search strength").
    cutoff=10,
    # The heuristic plays its best move in rollouts: a random placement among the
    # hundreds of a Select Cards turn (3% of ~20 decisions) costs points that swamp the
    # differences the search is after.
    epsilon=0.0,
)
# The solo game's (against the automa, "score" returns): 10 points per half of [0, 1]
# instead of the shared 30 fame, a scale chosen on Gutenberg's scores of 100-170, where
# Printing Press's solo game scores about 55. Measured: benchmarks/README.md, "The solo
# game's search and weights".
GAME_SOLO_SEARCH_DEFAULTS = dict(fame_scale=10.0)
# The learned bot's solo settings: the shared ones (the network in the rollouts gained
# nothing solo: benchmarks/README.md,
# "Solo Gutenberg: where the search stops gaining").
GAME_SOLO_LEARNED_DEFAULTS = {}
