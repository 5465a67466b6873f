# What the shared search (ext/engine/search.pxi) needs to know of Lead Letter Printers
# beyond the rules and the heuristic. Included by core.pyx before the Python face, the
# heuristic and the search.
#
# Lead Letter Printers has no simultaneous step: the players decide one after another,
# and every decision is public (the factories a player draws are chance outcomes, hidden
# through entry_hidden; the one kept is named by A_FACTORY). So the simultaneous-step hooks
# say "never", and `smmcts` is `ismcts`: its iterations redraw the hidden factories
# through smmcts_redraw exactly as ismcts does through determinize.


cdef inline bint game_over(const GameState* s) noexcept nogil:
    return s.phase == PH_TERMINAL


cdef int rounds_left(const GameState* s) noexcept nogil:
    """Rounds still to come, estimated: each round takes at least as many orders off the
    board as there are players (bought or discarded at the preparation)."""
    cdef int i, n = display_count(s.order_display), r
    if s.phase == PH_TERMINAL:
        return 0
    for i in range(N_LEVELS):
        n += s.orders_left[i]
    r = (n + s.num_players - 1) // s.num_players
    if s.phase <= PH_SETUP:
        r += 1
    if s.max_rounds > 0:
        r = imin(r, s.max_rounds - s.rounds_played)
    return imax(r, 1) if s.phase != PH_FINAL else 0


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
    """No decision of this game is hidden (a factory drawn is a chance outcome)."""
    return False


cdef inline bint moves_vary(const GameState* s, int actor, int observer) noexcept nogil:
    """Never, as the search has treated this game so far (its moves in the tree are checked
    for legality and a misfit counted as a mismatch); whether some of its moves name what
    another player has not seen is for the game to say here."""
    return False


cdef inline bint solitary_turn(const GameState* s) noexcept nogil:
    """The last optional actions: each player in player order uses what is left ("They
    may use all their unused signboards and/or city discs and activate contracts"), and
    nothing is produced or bought any more, so the player's decisions until it passes
    change its own final score (what another player gains from them, a mark paid for a
    step onto its agent, is small and the player's to weigh no more than before). The
    rollouts play such a turn out by search (engine/turn_solver.pxi)."""
    return s.phase == PH_FINAL


cdef inline size_t live_head_size(const GameState* s) noexcept nogil:
    """The bytes of the state before its first frame above the stack: what is live of it
    but the players (the frames above the stack keep what was last there, and the seats
    beyond the players are unused)."""
    return <size_t>(<const char*>&s.frames[s.n_frames] - <const char*>s)


cdef inline uint64_t state_key(const GameState* s) noexcept nogil:
    """A hash of what is live of the state (live_head_size and the players' seats), equal
    for equal states: what heuristic.pxi's copy_live copies."""
    return bytes_hash(s.players, s.num_players * sizeof(PlayerState), bytes_hash(s, live_head_size(s), 0x11EAD))


cdef inline void smmcts_redraw(GameState* s, int player, Rng* rng) noexcept nogil:
    # Without a simultaneous step, smmcts redraws what ismcts does: the factories the
    # player has not seen.
    determinize(s, NULL, player, rng)


# The search's defaults for Lead Letter Printers: the shared ones (SEARCH_OPTIONS in
# ext/engine/search.pxi) but the cut-off. The heuristic chooses a rollout move by applying
# and evaluating every legal move, its effects carried out, so a rollout decision is dear:
# 50 of them before the evaluation, not 100 (measured: docs/search.md, "Options").
GAME_SEARCH_DEFAULTS = {"cutoff": 50}
# Lead Letter Printers has no solo game (2-4 players).
GAME_SOLO_SEARCH_DEFAULTS = {}
GAME_SOLO_LEARNED_DEFAULTS = {}     # no solo game
