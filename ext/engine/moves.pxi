# Applying an action and random play, written once for every game's core (included by
# its core.pyx after its rules). The game's core defines what they call:
# at_chance(s), whether the next action is a chance outcome; apply_chance and
# apply_decision; advance, on to the next decision, and advance_listing, the same that
# also lists the next decision's moves where it has them in hand; after_action(s), what
# must hold after every action (True when it changed the state: nothing in most games);
# legal_actions and sample_chance; chance_run, a run of chance draws applied at once in
# random play, the same as one by one (False, nothing done, in a game that has none).


cdef inline int move_on_listing(GameState* s, const Catalogue* cat, int* moves) noexcept nogil:
    """After an action: on to the next decision, and what must hold after every action;
    with `moves` (not NULL), the next decision's moves where advance listed them on its
    way (their number; 0: not listed, or a chance node). A list made before after_action
    changed the state is dropped: it may list other moves."""
    cdef int n = advance_listing(s, cat, moves)
    if after_action(s):
        return 0
    return n


cdef inline void move_on(GameState* s, const Catalogue* cat) noexcept nogil:
    move_on_listing(s, cat, NULL)


cdef void apply_action(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Apply a legal action (a chance outcome at chance nodes) and move on to the next
    decision. Legality is the caller's check."""
    if at_chance(s):
        apply_chance(s, cat, a)
    else:
        apply_decision(s, cat, a)
    move_on(s, cat)


cdef inline void random_chance(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """At a chance node: an outcome drawn by its probabilities, applied (or a run of
    draws, chance_run), before moving on."""
    if not chance_run(s, cat, rng):
        apply_chance(s, cat, sample_chance(s, cat, rng))


cdef inline void random_choice(GameState* s, const Catalogue* cat, Rng* rng, uint64_t r) noexcept nogil:
    """At a decision node: a uniformly random legal decision, applied (the same draw from
    a range as from its list), before moving on; r is rng_peek's next number, taken."""
    cdef int buf[MAX_LEGAL]
    cdef int first
    cdef int n = legal_range(s, cat, &first)
    rng_take(rng)
    if n > 0:
        apply_decision(s, cat, first + below(r, n))
    else:
        n = legal_actions(s, cat, buf)
        apply_decision(s, cat, buf[below(r, n)])


cdef inline void draw_chance(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """At a chance node: apply_action of an outcome drawn by its probabilities (the
    caller knows it is a chance node, so it is not asked again)."""
    random_chance(s, cat, rng)
    move_on(s, cat)


cdef inline void random_decision(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """At a decision node: apply_action of a uniformly random legal decision."""
    random_choice(s, cat, rng, rng_peek(rng))
    move_on(s, cat)


cdef void play_random_decisions(GameState* s, const Catalogue* cat, Rng* rng, int decisions) noexcept nogil:
    """Uniformly random play (chance by its probabilities) for `decisions` decisions, or
    to the end of the game (-1, or sooner): the steps of draw_chance and random_decision,
    with who acts asked once a step, and a decision's moves taken from advance where it
    listed them (move_on_listing) instead of listed again. It stops at the decision
    after the last one (the search's rollout cut-off)."""
    cdef int moves[MAX_LEGAL]
    cdef int n = 0   # the moves of the decision at hand, listed by move_on_listing
    # The next random number, worked out while the moves are listed: a decision's draw
    # does not wait for splitmix64's multiplications (a chance node draws its own).
    cdef uint64_t r = rng_peek(rng)
    while s.phase != PH_TERMINAL:
        if n > 0 or not at_chance(s):
            if decisions == 0:
                return
            decisions -= 1
            if n > 0:
                rng_take(rng)
                apply_decision(s, cat, moves[below(r, n)])
            else:
                random_choice(s, cat, rng, r)
        else:
            random_chance(s, cat, rng)
        r = rng_peek(rng)
        n = move_on_listing(s, cat, moves)


cdef inline void play_random(GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """Uniformly random play to the end of the game (play_random_decisions)."""
    play_random_decisions(s, cat, rng, -1)
