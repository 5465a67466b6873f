# The end of a game, written once for every game's core (included by its core.pyx after
# its final_scores(s, cat, out) and winners_of(s, scores, win), which know its scoring
# and its tie-breaks): the final scores as doubles, the winners, the returns under the
# game parameter `returns` (engine.pxi's returns_formula), and the scores of random games.


cdef void returns_from_scores(const GameState* s, const double* scores, int mode, double* out) noexcept nogil:
    """The players' returns under `mode` (RETURNS_*) from scores, final or projected by
    a search."""
    cdef bint win[MAX_SEATS]
    cdef int k = winners_of(s, scores, win)
    returns_formula(s.num_players, scores, win, k, mode, out)


cdef void final_scores_double(const GameState* s, const Catalogue* cat, double* out) noexcept nogil:
    cdef int scores[MAX_SEATS]
    cdef int seat
    final_scores(s, cat, scores)
    for seat in range(s.num_seats):
        out[seat] = scores[seat]


cdef int winners(const GameState* s, const Catalogue* cat, bint* win) noexcept nogil:
    """The winners by the final scores (see the game's winners_of)."""
    cdef double scores[MAX_SEATS]
    final_scores_double(s, cat, scores)
    return winners_of(s, scores, win)


cdef void returns_of(const GameState* s, const Catalogue* cat, int mode, double* out) noexcept nogil:
    """The players' returns at the end (see returns_from_scores)."""
    cdef double scores[MAX_SEATS]
    final_scores_double(s, cat, scores)
    returns_from_scores(s, scores, mode, out)


cdef list random_game_scores(const GameState* initial, const Catalogue* cat, int players, int n,
                             unsigned long long seed):
    """Rules.random_games of every game: n uniformly random games from `initial`, played
    inside the core without the GIL; the final scores of the last one."""
    cdef GameState s
    cdef Rng rng
    cdef int i
    cdef int scores[MAX_SEATS]
    check_game_count(n)
    rng.s = seed
    with nogil:
        for i in range(n):
            s = initial[0]
            play_random(&s, cat, &rng)
        final_scores(&s, cat, scores)
    return [scores[i] for i in range(players)]
