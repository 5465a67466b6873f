# The end of a game, written once for every game's core (included by its core.pyx after
# its final_scores(s, cat, out) and winners_of(s, scores, win), which know its scoring
# and its tie-breaks): the final scores as doubles, the winners, and the returns under
# the game parameter `returns` (engine.pxi's returns_formula).


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
