# Printing Press's native OpenSpiel game (ext/engine/spiel.cc.in with
# data/native_game.json) through the shared face of ext/engine/spiel.pxi:
# gutenberg_ai.games.printing_press.game checks the parameters and makes the rules.

SPIEL_GAME_MODULE = "gutenberg_ai.games.printing_press.game"

# ---------------------------------------------------------------------------------------
# Tokens hidden before the game's history began. A game that starts from a position holds
# in its initial state the symbols of tokens some player has not seen (the others' setup
# tokens, tokens placed initiative side up, tokens drawn and not kept yet) and the bag they
# came from. A resample redraws them together with the history (resample_history follows
# the tokens from the start: hidden.pxi), so a serialized state carries the start's token
# layout as one "start_tokens" line: the game's "start record" of engine/spiel.pxi.
#
# A record is START_WIDTH numbers, each 0-99: the bag's count of each symbol; per seat
# (MAX_SEATS) the symbol + 1 of each hand slot's token where the slot holds one face down
# (in hand, or placed initiative side up; 0 otherwise) and the count of each symbol among
# the drawn tokens it placed initiative side up; then the symbol + 1 of each token drawn
# for a discarded card and of the kept token being placed (0: none).
# ---------------------------------------------------------------------------------------
cdef enum:
    REC_SEAT = MAX_HAND + N_SYMBOLS
    REC_POOL = N_SYMBOLS + MAX_SEATS * REC_SEAT
    START_WIDTH = REC_POOL + N_POOL + 1

cdef const char* START_TAG = "start_tokens"
cdef const char* START_WORDS = ("84 numbers: the bag's 12 counts, per seat 5 hand tokens (symbol + 1, "
                                "0 for none) and 12 counts of tokens placed initiative side up, "
                                "then 3 drawn tokens and the held one (symbol + 1, 0 for none)")
cdef const char* START_REFUSED = ("the tokens do not fit the game's start: the same tokens in all, "
                                  "face down where the start has face-down tokens, nothing elsewhere")


cdef inline bint slot_hidden(const PlayerState* p, int k) noexcept nogil:
    return p.slot[k] == SLOT_HAND or p.slot[k] == SLOT_DOWN


cdef bint start_has_hidden(const GameState* s) noexcept nogil:
    """Whether tokens out of the bag at s have symbols some player has not seen."""
    cdef int q, k, x
    for q in range(s.num_players):
        for k in range(MAX_HAND):
            if slot_hidden(&s.players[q], k):
                return True
        for x in range(N_SYMBOLS):
            if s.players[q].hidden_out[x]:
                return True
    return s.n_pool > 0 or (s.held == HELD_KEPT and s.held_shown == SQ_INITIATIVE)


cdef void write_start(const GameState* s, int* out) noexcept nogil:
    """The token layout of s as a start record."""
    cdef int q, k, x, i
    cdef const PlayerState* p
    for i in range(START_WIDTH):
        out[i] = 0
    for x in range(N_SYMBOLS):
        out[x] = s.bag[x]
    for q in range(s.num_players):
        p = &s.players[q]
        for k in range(MAX_HAND):
            if slot_hidden(p, k):
                out[N_SYMBOLS + q * REC_SEAT + k] = p.hand[k] + 1
        for x in range(N_SYMBOLS):
            out[N_SYMBOLS + q * REC_SEAT + MAX_HAND + x] = p.hidden_out[x]
    for i in range(s.n_pool):
        out[REC_POOL + i] = s.pool[i] + 1
    if s.held == HELD_KEPT:
        out[REC_POOL + N_POOL] = s.held_symbol + 1


cdef void count_start(const int* rec, int* counts) noexcept nogil:
    """The tokens of each symbol that a start record places (bag and hidden places)."""
    cdef int x, i
    for x in range(N_SYMBOLS):
        counts[x] = rec[x]
    for i in range(N_SYMBOLS, START_WIDTH):
        if N_SYMBOLS <= i < REC_POOL and (i - N_SYMBOLS) % REC_SEAT >= MAX_HAND:
            counts[(i - N_SYMBOLS) % REC_SEAT - MAX_HAND] += rec[i]
        elif rec[i] > 0:
            counts[rec[i] - 1] += 1


cdef bint set_start_record(GameState* s, const int* record) noexcept nogil:
    """Give the initial state `s` the token layout `record` (see above): False (and s
    unchanged) unless it has the same tokens as s's layout in all, a face-down token
    exactly where s has one, the same number placed initiative side up by each player,
    the same number drawn, and the held token's symbol where it is shown."""
    cdef int mine[START_WIDTH]
    cdef int a[N_SYMBOLS]
    cdef int b[N_SYMBOLS]
    cdef int q, k, x, i, na, nb
    cdef PlayerState* p
    write_start(s, mine)
    for i in range(START_WIDTH):
        if record[i] < 0 or record[i] > 99:
            return False
        # Symbols are 1-12 where s has a token (0 where it has none); counts any.
        if (i >= N_SYMBOLS and not (i < REC_POOL and (i - N_SYMBOLS) % REC_SEAT >= MAX_HAND)
                and ((record[i] == 0) != (mine[i] == 0) or record[i] > N_SYMBOLS)):
            return False
    for q in range(MAX_SEATS):
        na = 0
        nb = 0
        for x in range(N_SYMBOLS):
            na += record[N_SYMBOLS + q * REC_SEAT + MAX_HAND + x]
            nb += mine[N_SYMBOLS + q * REC_SEAT + MAX_HAND + x]
        if na != nb:
            return False
    if s.held == HELD_KEPT and s.held_shown != SQ_INITIATIVE and record[REC_POOL + N_POOL] != mine[REC_POOL + N_POOL]:
        return False
    count_start(record, a)
    count_start(mine, b)
    for x in range(N_SYMBOLS):
        if a[x] != b[x]:
            return False
    for x in range(N_SYMBOLS):
        s.bag[x] = record[x]
    for q in range(s.num_players):
        p = &s.players[q]
        for k in range(MAX_HAND):
            if slot_hidden(p, k):
                p.hand[k] = record[N_SYMBOLS + q * REC_SEAT + k] - 1
        for x in range(N_SYMBOLS):
            p.hidden_out[x] = record[N_SYMBOLS + q * REC_SEAT + MAX_HAND + x]
    for i in range(s.n_pool):
        s.pool[i] = record[REC_POOL + i] - 1
    if s.held == HELD_KEPT:
        s.held_symbol = record[REC_POOL + N_POOL] - 1
    return True


cdef int start_records(const GameState* initial, const GameState* start, const GameState* now,
                       int* out) noexcept nogil:
    """After a resample: the token layout of `start` (as the resample redrew it), one
    record, when the game's initial state has hidden tokens; else none."""
    if not start_has_hidden(initial):
        return 0
    write_start(start, out)
    return 1


cdef inline int resample_from(GameState* start, GameState* s, int player, const int* actors,
                              int* actions, int n, Rng* rng) noexcept nogil:
    """resample_history from `start`, whose hidden tokens are redrawn with the history's."""
    return resample_history(start, s, player, actors, actions, n, rng)


def _start_record(CoreState st):
    """The token layout of a state as a start record (a list of START_WIDTH numbers)."""
    cdef int rec[START_WIDTH]
    write_start(&st.s, rec)
    return [rec[i] for i in range(START_WIDTH)]


def _set_start_record(CoreState st, record):
    """set_start_record for Python (a list of START_WIDTH numbers): ValueError if it is
    refused."""
    cdef int rec[START_WIDTH]
    cdef int i
    if len(record) != START_WIDTH:
        raise ValueError(f"a start record has {START_WIDTH} numbers, got {len(record)}")
    for i in range(START_WIDTH):
        rec[i] = record[i]
    if not set_start_record(&st.s, rec):
        raise ValueError((<bytes>START_REFUSED).decode())


START_RECORD_WIDTH = START_WIDTH

# Every draw a player sees during the game is a history entry: no private view
# (engine/spiel.pxi).
cdef enum:
    PRIVATE_WIDTH = 1


cdef inline int private_view(const GameState* initial, const GameState* s, int player, int* out) noexcept nogil:
    return 0


include "engine/spiel.pxi"
