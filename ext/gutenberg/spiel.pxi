# Gutenberg's native OpenSpiel game (ext/engine/spiel.cc.in with data/native_game.json)
# through the shared face of ext/engine/spiel.pxi: gutenberg_ai.games.gutenberg.game
# checks the parameters and makes the rules.

SPIEL_GAME_MODULE = "gutenberg_ai.games.gutenberg.game"

# ---------------------------------------------------------------------------------------
# Plans committed before a game's history began. A game that starts from a position in
# the middle of a plan step holds the plans committed so far in its initial state (as
# stand-ins when the position hid them); resampling redraws the ones the player has not
# seen, and a serialized state carries them as "start_plan" lines (game.py, the glue).
# These are the game's "start records" of engine/spiel.pxi: a seat and its 5 rows.
# ---------------------------------------------------------------------------------------
cdef enum:
    START_WIDTH = 1 + N_ROWS

cdef const char* START_TAG = "start_plan"
cdef const char* START_WORDS = "a seat and 5 numbers"
cdef const char* START_REFUSED = ("no such plan: the seat did not commit before the history began, "
                                  "or the plan does not place its markers (at most 6 a row)")


cdef bint committed_at_start(const GameState* s, int seat) noexcept nogil:
    """Whether `seat` committed its plan in the plan step `s` is in, before s.step."""
    cdef int k
    if s.phase != PH_PLAN or seat < 0 or seat >= s.num_seats or seat == s.automa_seat:
        return False
    for k in range(s.step):
        if human_seat(s, k) == seat:
            return True
    return False


cdef inline void write_start_record(const GameState* now, int seat, int* out) noexcept nogil:
    """The record (seat, 5 rows) of the plan `now` gives `seat`."""
    cdef int r
    out[0] = seat
    for r in range(N_ROWS):
        out[1 + r] = now.players[seat].plan[r]


cdef bint set_start_record(GameState* s, const int* record) noexcept nogil:
    """Give seat record[0] the committed plan record[1:6] in the initial state `s`: False
    (and s unchanged) unless the seat committed before the history began and the plan
    places all of its markers, at most MAX_ROW a row."""
    cdef int r, total = 0, seat = record[0]
    cdef const int* plan = record + 1
    if not committed_at_start(s, seat):
        return False
    for r in range(N_ROWS):
        if plan[r] < 0 or plan[r] > MAX_ROW:
            return False
        total += plan[r]
    if total != s.players[seat].markers:
        return False
    for r in range(N_ROWS):
        s.players[seat].plan[r] = plan[r]
    return True


cdef inline int resample_from(GameState* start, GameState* s, int player, const int* actors,
                              int* actions, int n, Rng* rng) noexcept nogil:
    """resample_history: Gutenberg's hidden facts at the start (the plans committed before
    the history began) are in `s` while they matter, so `start` is not needed."""
    return resample_history(s, player, actors, actions, n, rng)


cdef int start_records(const GameState* initial, const GameState* start, const GameState* now,
                       int* out) noexcept nogil:
    """The plans `now` gives the seats that committed before the history began, while
    `now` is still in that plan step (a resample may have redrawn them): one record
    (seat, 5 rows) each, in seat order; returns how many."""
    cdef int seat, n = 0
    if now.phase != PH_PLAN or now.round != initial.round:
        return 0
    for seat in range(initial.num_seats):
        if committed_at_start(initial, seat):
            write_start_record(now, seat, out + n * START_WIDTH)
            n += 1
    return n


def _set_start_plan(CoreState st, int seat, plan):
    """set_start_record for the Python shell: ValueError if it is refused."""
    cdef int record[START_WIDTH]
    cdef int r
    if len(plan) != N_ROWS:
        raise ValueError(f"a plan has {N_ROWS} rows, got {len(plan)}")
    record[0] = seat
    for r in range(N_ROWS):
        record[1 + r] = plan[r]
    if not set_start_record(&st.s, record):
        raise ValueError(f"player {seat} did not commit a plan before the game's history began, "
                         f"or {list(plan)} does not place their "
                         f"{st.s.players[seat].markers if 0 <= seat < MAX_SEATS else 0} markers "
                         f"(at most {MAX_ROW} a row)")


def _start_plans(Rules rules, CoreState now):
    """start_records for the Python shell: {seat: plan}."""
    cdef int records[MAX_SEATS * START_WIDTH]
    cdef int n = start_records(&rules.initial, &rules.initial, &now.s, records), k
    return {records[k * START_WIDTH]: [records[k * START_WIDTH + 1 + r] for r in range(N_ROWS)]
            for k in range(n)}


# What a player sees that the history does not hold (engine/spiel.pxi): the plans
# committed before the history began, which no entry holds. Their seat's player knows
# its own; once the plans are revealed, everybody sees them. Without that, two states
# alike in every entry whose start plans differ (a state and its resample) would share a
# string after the reveal, where the turns they give differ (OpenSpiel's ISMCTSBot keys
# its tree by the string, and would play one's move in the other). Each seat's record as
# start_records writes it (seat, 5 rows), for the round those plans are in; every draw
# a player sees is a history entry. Nothing (0) in a game with no such plans.
cdef enum:
    PRIVATE_WIDTH = MAX_SEATS * START_WIDTH


cdef int private_view(const GameState* initial, const GameState* s, int player, int* out) noexcept nogil:
    cdef int seat, n = 0
    if s.round != initial.round:
        return 0
    for seat in range(initial.num_seats):
        # In the plan step the others' are not revealed yet: only the player's own.
        if committed_at_start(initial, seat) and (s.phase != PH_PLAN or seat == player):
            write_start_record(s, seat, out + n)
            n += START_WIDTH
    return n


include "engine/spiel.pxi"
