# Lead Letter Printers's native OpenSpiel game (ext/engine/spiel.cc.in with
# data/native_game.json) through the shared face of ext/engine/spiel.pxi:
# gutenberg_ai.games.lead_letter_printers.game checks the parameters and makes the rules.

SPIEL_GAME_MODULE = "gutenberg_ai.games.lead_letter_printers.game"

# ---------------------------------------------------------------------------------------
# Factories hidden before the game's history began. A game that starts from a position
# may hold factories some player has not seen (put back under a pile, or drawn by the
# player acting). A resample relabels them together with the history (resample_from in
# hidden.pxi), so a serialized state carries the start's factory layout as one
# "start_factories" line: the game's "start record" of engine/spiel.pxi.
#
# A record is START_WIDTH numbers, one per factory (by id): 0 in its pile, 1-9 its place
# under the pile (1 the next to come out), 10-12 drawn (the drawn slot + 10), 13 anywhere
# else (built, in sight).
# ---------------------------------------------------------------------------------------
cdef enum:
    START_WIDTH = N_FACTORIES
    PLACE_PILE = 0
    PLACE_BOTTOM = 1
    PLACE_DRAWN = 10
    PLACE_ELSEWHERE = 13

cdef const char* START_TAG = "start_factories"
cdef const char* START_WORDS = ("36 numbers, one per factory: 0 in its pile, 1-9 its place under the pile, "
                                "10-12 drawn (slot + 10), 13 elsewhere")
cdef const char* START_REFUSED = ("the factories do not fit the game's start: the same places of each "
                                  "level's pile filled, the factories elsewhere where they are")


cdef bint start_has_hidden(const GameState* s) noexcept nogil:
    """Whether factories out of the piles' unseen parts are out of some player's sight."""
    cdef int lv, i
    for lv in range(N_LEVELS):
        if s.factory_bottom_n[lv] > 0:
            return True
    for i in range(FACTORY_DRAW):
        if s.drawn[i] >= 0:
            return True
    return False


cdef void write_start(const GameState* s, int* out) noexcept nogil:
    """The factory layout of s as a start record."""
    cdef int x, lv, i
    for x in range(N_FACTORIES):
        out[x] = PLACE_PILE if has_bit(s.factory_pile, x) else PLACE_ELSEWHERE
    for lv in range(N_LEVELS):
        for i in range(s.factory_bottom_n[lv]):
            out[s.factory_bottom[lv][i]] = PLACE_BOTTOM + i
    for i in range(FACTORY_DRAW):
        if s.drawn[i] >= 0:
            out[s.drawn[i]] = PLACE_DRAWN + i


cdef bint set_start_record(GameState* s, const int* record) noexcept nogil:
    """Give the initial state `s` the factory layout `record`: False (and s unchanged)
    unless each level's pile, places under it and drawn slots are filled as in s by
    factories of that level, and every factory elsewhere is where s has it."""
    cdef int mine[START_WIDTH]
    cdef int seen[3 * PER_LEVEL_FACTORIES]
    cdef int x, lv, i, k
    write_start(s, mine)
    for lv in range(N_LEVELS):
        for i in range(3 * PER_LEVEL_FACTORIES):
            seen[i] = 0
        for k in range(PER_LEVEL_FACTORIES):
            x = lv * PER_LEVEL_FACTORIES + k
            if record[x] < 0 or record[x] > PLACE_ELSEWHERE:
                return False
            if (record[x] == PLACE_ELSEWHERE) != (mine[x] == PLACE_ELSEWHERE):
                return False
            if PLACE_BOTTOM <= record[x] < PLACE_ELSEWHERE:
                seen[record[x]] += 1
            if PLACE_BOTTOM <= mine[x] < PLACE_ELSEWHERE:
                seen[mine[x]] -= 1
        for i in range(3 * PER_LEVEL_FACTORIES):
            if seen[i] != 0:
                return False
    s.factory_pile = 0
    for x in range(N_FACTORIES):
        if record[x] == PLACE_PILE:
            s.factory_pile |= bit(x)
        elif record[x] < PLACE_DRAWN:
            s.factory_bottom[x // PER_LEVEL_FACTORIES][record[x] - PLACE_BOTTOM] = x
        elif record[x] < PLACE_ELSEWHERE:
            s.drawn[record[x] - PLACE_DRAWN] = x
    return True


cdef int start_records(const GameState* initial, const GameState* start, const GameState* now,
                       int* out) noexcept nogil:
    """After a resample: the factory layout of `start` (as the resample relabelled it), one
    record, when the game's initial state hides factories; else none."""
    if not start_has_hidden(initial):
        return 0
    write_start(start, out)
    return 1


def _start_record(CoreState st):
    """The factory layout of a state as a start record (a list of START_WIDTH numbers)."""
    cdef int rec[START_WIDTH]
    write_start(&st.s, rec)
    return [rec[i] for i in range(START_WIDTH)]


def _set_start_record(CoreState st, record):
    """set_start_record for Python: ValueError if it is refused."""
    cdef int rec[START_WIDTH]
    cdef int i
    if len(record) != START_WIDTH:
        raise ValueError(f"a start record has {START_WIDTH} numbers, got {len(record)}")
    for i in range(START_WIDTH):
        rec[i] = record[i]
    if not set_start_record(&st.s, rec):
        raise ValueError((<bytes>START_REFUSED).decode())


START_RECORD_WIDTH = START_WIDTH


# ---------------------------------------------------------------------------------------
# What a player sees that the history does not hold: a draw from under a factory pile is
# no chance outcome (the tiles come out in order), so the factories a player draws from
# there, and those it saw put back, are in no entry. Two states alike in every entry a
# player sees may differ in them (and so in the factories that player may keep): the
# information state string ends with this view, the places as write_obs shows them
# (sees_drawn, sees_put_back in hidden.pxi).
# Per level: how many lie under the pile, then each (its id if player saw it put back,
# else -1); then the three drawn slots (the id if player sees it, -1 hidden, -2 empty);
# with the piles face up, then each pile's top in view (-1 none): a factory put back that
# comes to the top is in everyone's view with no entry. Nothing (0) when player sees none
# of them.
# ---------------------------------------------------------------------------------------
cdef enum:
    PRIVATE_WIDTH = N_LEVELS * (1 + PER_LEVEL_FACTORIES) + FACTORY_DRAW + N_LEVELS


cdef int private_view(const GameState* initial, const GameState* s, int player, int* out) noexcept nogil:
    cdef int lv, i, k = 0
    cdef bint any_seen = False
    for lv in range(N_LEVELS):
        out[k] = s.factory_bottom_n[lv]
        k += 1
        for i in range(s.factory_bottom_n[lv]):
            if sees_put_back(s, lv, i, player):
                out[k] = s.factory_bottom[lv][i]
                any_seen = True
            else:
                out[k] = -1
            k += 1
    for i in range(FACTORY_DRAW):
        if s.drawn[i] < 0:
            out[k] = -2
        elif sees_drawn(s, i, player):
            out[k] = s.drawn[i]
            any_seen = True
        else:
            out[k] = -1
        k += 1
    if s.factory_tops:
        for lv in range(N_LEVELS):
            out[k] = s.factory_top[lv]
            any_seen = any_seen or s.factory_top[lv] >= 0
            k += 1
    return k if any_seen else 0

include "engine/spiel.pxi"
