# Hidden information (included by core.pyx).
#
# What a player does not see: the symbols of the others' setup tokens (in hand, or placed
# initiative side up), of the tokens the others draw for a discarded card (the one kept
# when it is placed initiative side up, and the two put back), and of the token Caxton
# (side B) takes from the bag. In the history these are exactly: the chance outcomes
# C_SETUP and C_DRAW of another seat, and another seat's A_KEEP_DOWN and A_CAXTON_TAKE.
# Every other entry is public: a token placed symbol side up says its symbol in its own
# action (A_KEEP_UP, A_SETUP_UP), so an information state never needs a later entry to
# reveal an earlier one.

cdef enum:
    MAX_TOKENS = 64        # physical tokens followed by resample_history (the game has 48)


cdef bint entry_hidden(const GameState* s, int player, int i, int n, int actor, int action) noexcept nogil:
    """Whether `player` has not seen entry i, (actor, action), of the n-entry history that
    led to s (OpenSpiel information states with perfect recall mask these)."""
    if actor == CHANCE:
        if C_SETUP <= action < C_FRAME:
            return (action - C_SETUP) // N_SYMBOLS != player
        if C_DRAW <= action < N_CHANCE:
            return (action - C_DRAW) // N_SYMBOLS != player
        return False
    if actor == player:
        return False
    return (A_KEEP_DOWN <= action < A_SETUP_UP) or (A_CAXTON_TAKE <= action < A_TOKEN_AT)


cdef inline int pool_owner(const GameState* s) noexcept nogil:
    """The seat whose drawn tokens are in the pool (or whose kept token is held): the one
    to decide, or, while the draws are still being made (a chance node), the one who
    discarded."""
    if s.pool_due > 0 and s.turn < s.n_turns:
        return s.turn_order[s.turn]
    return current_player(s)


cdef inline int draw_from(int* counts, int total, Rng* rng) noexcept nogil:
    """A symbol drawn in proportion to counts (total > 0), removed from counts."""
    cdef int r = rng_below(rng, total), x
    for x in range(N_SYMBOLS):
        if r < counts[x]:
            counts[x] -= 1
            return x
        r -= counts[x]
    return -1


cdef void determinize(GameState* s, const Catalogue* cat, int player, Rng* rng) noexcept nogil:
    """A state `player` cannot tell from s, drawn uniformly: the symbols player has not
    seen (the others' hand tokens and tokens placed initiative side up, the tokens another
    player has drawn or holds face down right now) are dealt again from those symbols
    together with the bag's; what is left is the bag (when player is Caxton choosing from
    the open bag, the bag stays and the others' tokens are dealt among themselves). The records of tokens Caxton gave
    back are redrawn too, so that nothing of the others' hidden symbols stays in s."""
    cdef int counts[N_SYMBOLS]
    cdef int16_t* place[MAX_SEATS * (MAX_HAND + 1) + N_POOL]
    cdef int down[MAX_SEATS]
    cdef int n = 0, total = 0, q, k, x, i, owner
    cdef int actor = current_player(s)
    # Caxton (side B) choosing his token looks into the bag: its contents are known to
    # him then, and only the others' hidden tokens are dealt again, among themselves.
    cdef bint bag_open = s.caxton and actor == player
    cdef PlayerState* p
    for x in range(N_SYMBOLS):
        counts[x] = 0 if bag_open else s.bag[x]
    for q in range(s.num_players):
        if q == player:
            continue
        p = &s.players[q]
        for k in range(MAX_HAND):
            if p.slot[k] == SLOT_HAND or p.slot[k] == SLOT_DOWN:
                counts[p.hand[k]] += 1
                place[n] = &p.hand[k]
                n += 1
        down[q] = 0
        for x in range(N_SYMBOLS):
            counts[x] += p.hidden_out[x]
            down[q] += p.hidden_out[x]
            p.hidden_out[x] = 0
    owner = pool_owner(s)
    if 0 <= owner != player and owner < s.num_players:
        for i in range(s.n_pool):
            counts[s.pool[i]] += 1
            place[n] = &s.pool[i]
            n += 1
        if s.held == HELD_KEPT and s.held_shown == SQ_INITIATIVE:
            counts[s.held_symbol] += 1
            place[n] = &s.held_symbol
            n += 1
    for x in range(N_SYMBOLS):
        total += counts[x]
    for i in range(n):
        place[i][0] = draw_from(counts, total, rng)
        total -= 1
    for q in range(s.num_players):
        if q == player:
            continue
        for i in range(down[q]):
            s.players[q].hidden_out[draw_from(counts, total, rng)] += 1
            total -= 1
        for k in range(MAX_HAND):
            if s.players[q].slot[k] == SLOT_RETURNED:
                s.players[q].hand[k] = rng_below(rng, N_SYMBOLS)
    if not bag_open:
        for x in range(N_SYMBOLS):
            s.bag[x] = counts[x]

# ---------------------------------------------------------------------------------------
# Resampling a history. Tokens of one symbol are alike, so a game's history can be read as
# the story of physical tokens, each given an identity when drawn (any token of that
# symbol then in the bag). Permuting the symbols among the tokens `player` never saw keeps
# every draw possible when it happens (the token drawn is in the bag under its new symbol
# too) and every entry player saw unchanged; rewriting the hidden entries with the new
# symbols gives a history that replays to the new state.
# ---------------------------------------------------------------------------------------
ctypedef struct TokenStory:
    int16_t label[MAX_TOKENS]             # each token's symbol
    int16_t hand[MAX_SEATS][MAX_HAND]     # token ids in each hand slot (kept as records)
    int16_t n_setup[MAX_SEATS]
    int16_t pool[MAX_SEATS][N_POOL]
    int16_t n_pool[MAX_SEATS]
    int16_t held[MAX_SEATS]               # the kept token not placed yet
    int16_t held_down[MAX_SEATS]          # ... kept initiative side up
    int16_t down_by[MAX_TOKENS]           # kept tokens placed initiative side up: by whom
    int16_t solo[N_ROUNDS * N_CHOICES]
    int16_t n_solo
    int16_t solo_round
    int16_t n_tokens
    uint64_t in_bag
    uint64_t seen
    bint broken                           # the history does not fit the state


cdef int story_pick(TokenStory* st, int x, bint prefer_seen) noexcept nogil:
    """A token of symbol x from the bag: one player has seen if prefer_seen (keeping
    the unseen ones free), else an unseen one, when there is such."""
    cdef int t, fallback = -1
    for t in range(st.n_tokens):
        if st.label[t] != x or not (st.in_bag >> t) & 1:
            continue
        if ((st.seen >> t) & 1) == prefer_seen:
            st.in_bag &= ~bit(t)
            return t
        if fallback < 0:
            fallback = t
    if fallback < 0:
        st.broken = True
        return 0
    st.in_bag &= ~bit(fallback)
    return fallback


cdef int story_add(TokenStory* st, int x, bint seen) noexcept nogil:
    """A new token of symbol x, out of the bag; its id (0 when there are too many)."""
    cdef int t = st.n_tokens
    if t >= MAX_TOKENS or x < 0 or x >= N_SYMBOLS:
        st.broken = True
        return 0
    st.label[t] = x
    if seen:
        st.seen |= bit(t)
    st.n_tokens += 1
    return t


cdef void story_start(TokenStory* st, const GameState* s, int player) noexcept nogil:
    """The tokens at `s`, where a history begins (the start of the game, or a position):
    those in the bag, and those out of it whose symbols somebody may not know: each
    player's hand tokens (in hand or placed initiative side up), the drawn tokens they
    placed initiative side up (hidden_out), the tokens drawn or kept at s, the solo
    board's choice tokens not returned yet. `player` has seen their own and the board's.
    Tokens shown symbol side up in a tableau or frame are public and never come back:
    they are not followed."""
    cdef int x, k, t, q, i, r, actor = pool_owner(s)
    cdef const PlayerState* p
    memset(st, 0, sizeof(TokenStory))
    for q in range(MAX_SEATS):
        st.held[q] = -1
        for k in range(MAX_HAND):
            st.hand[q][k] = -1
    for t in range(MAX_TOKENS):
        st.down_by[t] = -1
    for x in range(N_SYMBOLS):
        for k in range(s.bag[x]):
            t = story_add(st, x, False)
            st.in_bag |= bit(t)
    for q in range(s.num_players):
        p = &s.players[q]
        st.n_setup[q] = p.n_setup
        for k in range(MAX_HAND):
            if p.slot[k] == SLOT_HAND or p.slot[k] == SLOT_DOWN:
                st.hand[q][k] = story_add(st, p.hand[k], q == player)
        for x in range(N_SYMBOLS):
            for k in range(p.hidden_out[x]):
                st.down_by[story_add(st, x, q == player)] = q
    if 0 <= actor < s.num_players:
        for i in range(s.n_pool):
            st.pool[actor][i] = story_add(st, s.pool[i], actor == player)
        st.n_pool[actor] = s.n_pool
        if s.held == HELD_KEPT:
            st.held[actor] = story_add(st, s.held_symbol,
                                       actor == player or s.held_shown != SQ_INITIATIVE)
            st.held_down[actor] = s.held_shown == SQ_INITIATIVE
    st.n_solo = s.solo_dealt
    st.solo_round = s.solo_returned
    for r in range(s.solo_returned, N_ROUNDS):
        for i in range(N_CHOICES):
            if s.solo[r][i] >= 0 and r * N_CHOICES + i < s.solo_dealt:
                st.solo[r * N_CHOICES + i] = story_add(st, s.solo[r][i], True)


cdef void start_relabel(GameState* s, const TokenStory* st, const int16_t* new_label) noexcept nogil:
    """Give the tokens of story_start(st, s) their new symbols in s itself (the start of
    a history whose hidden symbols were permuted)."""
    cdef int x, k, t, q, i, actor = pool_owner(s)
    cdef PlayerState* p
    for x in range(N_SYMBOLS):
        s.bag[x] = 0
    for t in range(st.n_tokens):
        if (st.in_bag >> t) & 1:
            s.bag[new_label[t]] += 1
    for q in range(s.num_players):
        p = &s.players[q]
        for k in range(MAX_HAND):
            if st.hand[q][k] >= 0:
                p.hand[k] = new_label[st.hand[q][k]]
        for x in range(N_SYMBOLS):
            p.hidden_out[x] = 0
        for t in range(st.n_tokens):
            if st.down_by[t] == q:
                p.hidden_out[new_label[t]] += 1
    if 0 <= actor < s.num_players:
        for i in range(st.n_pool[actor]):
            s.pool[i] = new_label[st.pool[actor][i]]
        if st.held[actor] >= 0:
            s.held_symbol = new_label[st.held[actor]]


cdef int story_step(TokenStory* st, const GameState* s, int player, int actor, int a,
                    const int16_t* new_label) noexcept nogil:
    """Follow one history entry. With new_label, returns the entry rewritten with the new
    symbols (the entry itself when player has seen it)."""
    cdef int q, x, t, k, i
    if actor == CHANCE:
        if C_SOLO <= a < C_SETUP:
            t = story_pick(st, a - C_SOLO, True)
            st.seen |= bit(t)
            if st.n_solo < N_ROUNDS * N_CHOICES:
                st.solo[st.n_solo] = t
                st.n_solo += 1
        elif C_SETUP <= a < C_FRAME:
            q = (a - C_SETUP) // N_SYMBOLS
            x = (a - C_SETUP) % N_SYMBOLS
            t = story_pick(st, x, q == player)
            if q == player:
                st.seen |= bit(t)
            if st.n_setup[q] < MAX_HAND:
                st.hand[q][st.n_setup[q]] = t
                st.n_setup[q] += 1
            if new_label != NULL and q != player:
                return C_SETUP + q * N_SYMBOLS + new_label[t]
        elif C_DRAW <= a < N_CHANCE:
            q = (a - C_DRAW) // N_SYMBOLS
            x = (a - C_DRAW) % N_SYMBOLS
            t = story_pick(st, x, q == player)
            if q == player:
                st.seen |= bit(t)
            if st.n_pool[q] < N_POOL:
                st.pool[q][st.n_pool[q]] = t
                st.n_pool[q] += 1
            if new_label != NULL and q != player:
                return C_DRAW + q * N_SYMBOLS + new_label[t]
        return a
    q = actor
    if q < 0 or q >= MAX_SEATS:
        return a
    if A_KEEP_UP <= a < A_SETUP_UP:
        x = (a - A_KEEP_UP) % N_SYMBOLS
        t = -1
        for i in range(st.n_pool[q]):
            if t < 0 and st.label[st.pool[q][i]] == x:
                t = st.pool[q][i]
            else:
                st.in_bag |= bit(st.pool[q][i])
        st.n_pool[q] = 0
        if t < 0:
            st.broken = True
            return a
        st.held[q] = t
        st.held_down[q] = a >= A_KEEP_DOWN
        if a < A_KEEP_DOWN:
            st.seen |= bit(t)
        elif new_label != NULL and q != player:
            return A_KEEP_DOWN + new_label[t]
    elif A_SETUP_UP <= a < A_SETUP_DOWN:
        t = st.hand[q][(a - A_SETUP_UP) // N_SYMBOLS]
        if t >= 0:
            st.seen |= bit(t)
    elif A_CAXTON_GIVE <= a < A_CAXTON_TAKE:
        k = PAIR_FIRST[a - A_CAXTON_GIVE]
        if st.hand[q][k] >= 0:
            st.in_bag |= bit(st.hand[q][k])
        k = PAIR_SECOND[a - A_CAXTON_GIVE]
        if st.hand[q][k] >= 0:
            st.in_bag |= bit(st.hand[q][k])
    elif A_CAXTON_TAKE <= a < A_TOKEN_AT:
        t = story_pick(st, a - A_CAXTON_TAKE, q == player)
        if q == player:
            st.seen |= bit(t)
        st.hand[q][MAX_HAND - 1] = t
        if new_label != NULL and q != player:
            return A_CAXTON_TAKE + new_label[t]
    elif A_TOKEN_AT <= a < A_MARKER:
        if st.held[q] >= 0 and st.held_down[q]:
            st.down_by[st.held[q]] = q
        st.held[q] = -1
        st.held_down[q] = 0
    elif A_WINDOW <= a < N_ACTIONS and s.automa_seat >= 0:
        # A solo round ends with the player's window: its choice tokens go back.
        for i in range(N_CHOICES):
            k = st.solo_round * N_CHOICES + i
            if k < st.n_solo:
                st.in_bag |= bit(st.solo[k])
        st.solo_round += 1
    return a


cdef bint story_fits(const TokenStory* st, const GameState* s) noexcept nogil:
    """Whether the story (from the start of the game) ends where s is."""
    cdef int counts[N_SYMBOLS]
    cdef int q, t, x
    if st.broken or st.n_solo != s.solo_dealt:
        return False
    for q in range(s.num_players):
        if st.n_setup[q] != s.players[q].n_setup:
            return False
    memset(counts, 0, sizeof(counts))
    for t in range(st.n_tokens):
        if (st.in_bag >> t) & 1:
            counts[st.label[t]] += 1
    for x in range(N_SYMBOLS):
        if counts[x] != s.bag[x]:
            return False
    return True


cdef int resample_history(GameState* start, GameState* s, int player, const int* actors,
                          int* actions, int n, Rng* rng) noexcept nogil:
    """Redraw what `player` has not seen (as determinize) in a state together with the
    history that led to it from `start` (the start of the game, or a position),
    (actors[i], actions[i]): the hidden entries of `actions` are rewritten in place, and
    the hidden symbols of `start` redrawn in it, so that replaying the history from the new
    start gives the new s exactly. Returns how many entries changed; a history that does
    not lead from start to s is left alone and s unchanged (0)."""
    cdef TokenStory st
    cdef TokenStory first
    cdef int16_t new_label[MAX_TOKENS]
    cdef int free_labels[MAX_TOKENS]
    cdef int free_ids[MAX_TOKENS]
    cdef int i, t, m = 0, a, changed = 0, q, k, x, actor
    cdef PlayerState* p
    story_start(&first, start, player)
    st = first
    for i in range(n):
        story_step(&st, s, player, actors[i], actions[i], NULL)
    if not story_fits(&st, s):
        return 0
    # Permute the symbols among the tokens player never saw.
    for t in range(st.n_tokens):
        new_label[t] = st.label[t]
        if not (st.seen >> t) & 1:
            free_ids[m] = t
            free_labels[m] = st.label[t]
            m += 1
    # Shuffled from the unseen symbols in symbol order, not in the order their true
    # tokens came. The tokens' ids still follow the true symbols (story_pick), so two
    # histories player cannot tell apart may be redrawn differently (docs/resampling.md);
    # determinize, the search's redraw, deals from the counts and has no such order.
    sort_ints(free_labels, m)
    shuffle_ints(free_labels, m, rng)
    for i in range(m):
        new_label[free_ids[i]] = free_labels[i]
    # The same story again (its picks are the same), rewriting the hidden entries.
    st = first
    for i in range(n):
        a = story_step(&st, s, player, actors[i], actions[i], new_label)
        changed += a != actions[i]
        actions[i] = a
    start_relabel(start, &first, new_label)
    # The state's hidden symbols, from the tokens' new symbols.
    for x in range(N_SYMBOLS):
        s.bag[x] = 0
    for t in range(st.n_tokens):
        if (st.in_bag >> t) & 1:
            s.bag[new_label[t]] += 1
    for q in range(s.num_players):
        if q == player:
            continue
        p = &s.players[q]
        for k in range(MAX_HAND):
            if st.hand[q][k] >= 0:
                p.hand[k] = new_label[st.hand[q][k]]
        for x in range(N_SYMBOLS):
            p.hidden_out[x] = 0
        for t in range(st.n_tokens):
            if st.down_by[t] == q:
                p.hidden_out[new_label[t]] += 1
    actor = pool_owner(s)
    if 0 <= actor < s.num_players and actor != player:
        for i in range(s.n_pool):
            s.pool[i] = new_label[st.pool[actor][i]]
        if s.held == HELD_KEPT and st.held[actor] >= 0:
            s.held_symbol = new_label[st.held[actor]]
    return changed
