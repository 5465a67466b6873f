# Hidden information (included by core.pyx).
#
# What a player does not see: the factories another player draws (three, of which one is
# kept and built face up: A_FACTORY names it) and the two put back under the pile, until
# the player draws them himself. In the history these are exactly the chance outcomes
# C_FACTORY of another seat; the deterministic draws from a pile's bottom leave no entry.
# Every other entry is public: lead letters, trading tiles, technologies, orders,
# contracts and city discs are drawn face up; the orders left in the box at setup are
# never drawn (core.pyx). A factory pile's top in view (C_FACTORY_TOP, the piles face up)
# is out of the pile and in no hidden place, so no redraw touches it; the draw that takes
# it marks it seen by all, and so does the place it is put back to.
#
# Factories are all different, so a redraw is a relabelling: among the factories of a
# level that `player` has never seen (the unseen part of the pile, those put back unseen,
# those drawn by another player right now), any permutation gives a state player cannot
# tell from this one, and every such state is as likely; rewriting the hidden entries with
# the new labels gives a history that replays to it.

cdef inline bint sees_drawn(const GameState* s, int i, int player) noexcept nogil:
    """Whether player sees the factory in drawn slot i (its drawer, or one who saw it put
    back); the slot holds one."""
    return s.actor == player or (s.drawn_seen[i] >> player) & 1


cdef inline bint sees_put_back(const GameState* s, int level, int i, int player) noexcept nogil:
    """Whether player saw the factory i-th under the pile of `level` put back."""
    return (s.factory_bottom_seen[level][i] >> player) & 1


cdef void unseen_factories(const GameState* s, int player, int level, int16_t** place, int* n,
                           uint64_t* in_pile) noexcept nogil:
    """The places of the factories of a level that player has not seen, outside the pile
    (the bottom queue, the drawn ones); in_pile: those in the pile."""
    cdef int i
    in_pile[0] = s.factory_pile & level_factories(level)
    for i in range(s.factory_bottom_n[level]):
        if not (s.factory_bottom_seen[level][i] >> player) & 1:
            place[n[0]] = <int16_t*>&s.factory_bottom[level][i]
            n[0] += 1
    for i in range(FACTORY_DRAW):
        if s.drawn[i] >= 0 and cat_level_of_drawn(s, i) == level and not (s.drawn_seen[i] >> player) & 1:
            place[n[0]] = <int16_t*>&s.drawn[i]
            n[0] += 1


cdef inline int cat_level_of_drawn(const GameState* s, int i) noexcept nogil:
    """The level of a drawn factory: the level of the pile being drawn (ids are grouped by
    level, PER_LEVEL_FACTORIES each)."""
    return s.drawn[i] // PER_LEVEL_FACTORIES


cdef void relabel(GameState* s, int player, const int16_t* perm) noexcept nogil:
    """Apply perm (factory id -> new id) to everything player has not seen."""
    cdef int16_t* place[N_FACTORIES]
    cdef int n, i, lv
    cdef uint64_t pile, new_pile = 0, m
    for lv in range(N_LEVELS):
        n = 0
        unseen_factories(s, player, lv, place, &n, &pile)
        for i in range(n):
            place[i][0] = perm[place[i][0]]
        m = pile
        while m:
            new_pile |= bit(perm[ctz64(m)])
            m &= m - 1
    s.factory_pile = new_pile


cdef void random_perm(const GameState* s, int player, const uint64_t* seen_extra, Rng* rng,
                      int16_t* perm) noexcept nogil:
    """A uniformly random permutation, within each level, of the factories player has not
    seen (the pile, the unseen ones put back or drawn now, and those of no seen_extra):
    the places (the pile's count, then each place in turn) get a shuffle of the sorted
    unseen ids, so the new state depends on player's information and the rng only."""
    cdef int16_t* place[N_FACTORIES]
    cdef int16_t ids[N_FACTORIES]
    cdef int shuffled[N_FACTORIES]
    cdef int n, m, i, j, lv, x
    cdef uint64_t pile
    for x in range(N_FACTORIES):
        perm[x] = x
    for lv in range(N_LEVELS):
        n = 0
        unseen_factories(s, player, lv, place, &n, &pile)
        m = 0
        while pile:
            ids[m] = ctz64(pile)
            m += 1
            pile &= pile - 1
        for i in range(n):
            ids[m] = place[i][0]
            m += 1
        if seen_extra != NULL:
            # resample_history: what the history says player saw stays as it is
            j = 0
            for i in range(m):
                if not has_bit(seen_extra[0], ids[i]):
                    ids[j] = ids[i]
                    j += 1
            m = j
        # Dealt from the unseen factories in id order, not from where the true ones lie:
        # two states player cannot tell apart get the same redraw from the same rng.
        for i in range(m):
            shuffled[i] = ids[i]
        sort_ints(shuffled, m)
        shuffle_ints(shuffled, m, rng)
        for i in range(m):
            perm[ids[i]] = shuffled[i]


cdef bint entry_hidden(const GameState* s, int player, int i, int n, int actor, int action) noexcept nogil:
    """Whether `player` has not seen entry i, (actor, action), of the n-entry history that
    led to s: a factory another seat drew."""
    if actor == CHANCE and C_FACTORY <= action < C_TOP:
        return (action - C_FACTORY) // N_FACTORIES != player
    return False


cdef void determinize(GameState* s, const Catalogue* cat, int player, Rng* rng) noexcept nogil:
    """A state `player` cannot tell from s, drawn uniformly: the factories player has not
    seen are relabelled within their level."""
    cdef int16_t perm[N_FACTORIES]
    random_perm(s, player, NULL, rng, perm)
    relabel(s, player, perm)


cdef int resample_from(GameState* start, GameState* s, int player, const int* actors, int* actions,
                       int n, Rng* rng) noexcept nogil:
    """resample_history for a history that begins at `start` (a game's initial state, or
    NULL for the start of the game): the factories player has not seen are relabelled in
    s, in start (where a position may hold some put back unseen) and in the history's
    hidden entries alike, so that replaying the history from the new start gives the new
    s. Returns how many entries changed; a history that does not fit (a factory drawn
    twice, or not from the start's pile, or the pile's count off) is left alone, and s
    and start unchanged (0)."""
    cdef int16_t perm[N_FACTORIES]
    cdef uint64_t drawn_ever = 0, seen = 0
    cdef uint64_t pile = start.factory_pile if start != NULL else bit(N_FACTORIES) - 1
    cdef int i, a, x, q, changed = 0
    for i in range(n):
        a = actions[i]
        if actors[i] == CHANCE and C_FACTORY <= a < C_TOP:
            x = (a - C_FACTORY) % N_FACTORIES
            q = (a - C_FACTORY) // N_FACTORIES
            if has_bit(drawn_ever, x) or not has_bit(pile, x) or has_bit(s.factory_pile, x):
                return 0
            drawn_ever |= bit(x)
            if q == player:
                seen |= bit(x)
        elif actors[i] == CHANCE and C_FACTORY_TOP <= a < N_CHANCE:
            # a pile's top came into view: out of the pile, and everyone saw it
            x = a - C_FACTORY_TOP
            if has_bit(drawn_ever, x) or not has_bit(pile, x) or has_bit(s.factory_pile, x):
                return 0
            drawn_ever |= bit(x)
            seen |= bit(x)
        elif actors[i] >= 0 and A_FACTORY <= a < A_UP:
            seen |= bit(a - A_FACTORY)
    if popcount64(drawn_ever) + popcount64(s.factory_pile) != popcount64(pile):
        return 0
    # Everything out of sight that player never saw (drawn by others, kept by nobody).
    random_perm(s, player, &seen, rng, perm)
    for i in range(n):
        a = actions[i]
        if actors[i] == CHANCE and C_FACTORY <= a < C_TOP:
            q = (a - C_FACTORY) // N_FACTORIES
            x = (a - C_FACTORY) % N_FACTORIES
            if q != player and perm[x] != x:
                actions[i] = C_FACTORY + q * N_FACTORIES + perm[x]
                changed += 1
    relabel(s, player, perm)
    if start != NULL:
        relabel(start, player, perm)
    return changed


cdef int resample_history(GameState* s, int player, const int* actors, int* actions, int n,
                          Rng* rng) noexcept nogil:
    """Redraw what `player` has not seen (as determinize) in a state together with the
    history that led to it from the start of the game, (actors[i], actions[i]): the
    factories other seats drew are rewritten in place so that replaying the history gives
    the new s exactly (resample_from with the game's start)."""
    return resample_from(NULL, s, player, actors, actions, n, rng)
