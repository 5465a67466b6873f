# Applying an action and random play, written once for every game's core (included by
# its core.pyx after its rules). The game's core defines what they call:
# at_chance(s), whether the next action is a chance outcome; apply_chance and
# apply_decision; advance, on to the next decision; after_action(s), what must hold
# after every action (nothing in most games); legal_actions and sample_chance;
# chance_run, a run of chance draws played at once in random play, the same as one by
# one (False, nothing done, in a game that has none).


cdef inline void move_on(GameState* s, const Catalogue* cat) noexcept nogil:
    """After an action: on to the next decision, and what must hold after every action."""
    advance(s, cat)
    after_action(s)


cdef void apply_action(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Apply a legal action (a chance outcome at chance nodes) and move on to the next
    decision. Legality is the caller's check."""
    if at_chance(s):
        apply_chance(s, cat, a)
    else:
        apply_decision(s, cat, a)
    move_on(s, cat)


cdef inline void draw_chance(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """At a chance node: apply_action of an outcome drawn by its probabilities (the
    caller knows it is a chance node, so it is not asked again)."""
    if chance_run(s, cat, rng):
        return
    apply_chance(s, cat, sample_chance(s, cat, rng))
    move_on(s, cat)


cdef inline void random_decision(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """At a decision node: apply_action of a uniformly random legal decision (the same
    draw from a range as from its list)."""
    cdef int buf[MAX_LEGAL]
    cdef int first
    cdef int n = legal_range(s, cat, &first)
    if n > 0:
        apply_decision(s, cat, first + rng_below(rng, n))
    else:
        n = legal_actions(s, cat, buf)
        apply_decision(s, cat, buf[rng_below(rng, n)])
    move_on(s, cat)


cdef void play_random(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """Uniformly random play (chance by its probabilities) to the end of the game: the
    steps of apply_action, with who acts asked once a step."""
    while s.phase != PH_TERMINAL:
        if at_chance(s):
            draw_chance(s, cat, rng)
        else:
            random_decision(s, cat, rng)
