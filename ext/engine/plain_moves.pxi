# The random-play hooks of moves.pxi for a game that has no runs to shortcut: nothing
# to keep after an action, each chance draw on its own, the legal decisions always
# listed, none listed on advance's way. A game's core.pyx includes this before
# moves.pxi where these are its answers (docs/new-game.md); a game with runs writes its
# own four instead.


cdef inline bint after_action(GameState* s) noexcept nogil:
    return False   # nothing to keep


cdef inline bint chance_run(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    return False   # each chance draw on its own


cdef inline int legal_range(const GameState* s, const Catalogue* cat, int* first) noexcept nogil:
    return 0       # the legal decisions always listed


cdef inline int advance_listing(GameState* s, const Catalogue* cat, int* moves) noexcept nogil:
    advance(s, cat)
    return 0       # nothing listed on the way
