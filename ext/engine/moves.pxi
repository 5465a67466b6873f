# Applying an action and random play, written once for every game's core (included by
# its core.pyx after its rules). The game's core defines what they call:
# at_chance(s), whether the next action is a chance outcome; apply_chance and
# apply_decision; advance, on to the next decision; after_action(s), what must hold
# after every action (nothing in most games); legal_actions and sample_chance.


cdef void apply_action(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Apply a legal action (a chance outcome at chance nodes) and move on to the next
    decision. Legality is the caller's check."""
    if at_chance(s):
        apply_chance(s, cat, a)
    else:
        apply_decision(s, cat, a)
    advance(s, cat)
    after_action(s)


cdef void play_random(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """Uniformly random play (chance by its probabilities) to the end of the game: the
    steps of apply_action, with who acts asked once a step."""
    cdef int buf[MAX_LEGAL]
    cdef int n
    while s.phase != PH_TERMINAL:
        if at_chance(s):
            apply_chance(s, cat, sample_chance(s, cat, rng))
        else:
            n = legal_actions(s, cat, buf)
            apply_decision(s, cat, buf[rng_below(rng, n)])
        advance(s, cat)
        after_action(s)
