# The face of the core for the native OpenSpiel game (included by core.pyx).
#
# ext/gutenberg_spiel.cc is compiled in the same translation unit, after the C++ that
# Cython generates from core.pyx. It cannot name Cython's functions and enums (their C
# names are mangled), so it calls the `cdef public` functions below (plain C names, and
# inlined there all the same). Rules stay in core.pyx; what lives in Python (checking
# parameters, loading catalogues, words) is reached through the `with gil` callbacks.

from libcpp.string cimport string

cdef public enum:
    GUTENBERG_N_ACTIONS = N_ACTIONS
    GUTENBERG_N_CHANCE = N_CHANCE
    GUTENBERG_MAX_LEGAL = MAX_LEGAL
    GUTENBERG_MAX_SEATS = MAX_SEATS
    GUTENBERG_OBS_SIZE = OBS_SIZE
    GUTENBERG_PH_TERMINAL = PH_TERMINAL

# ---------------------------------------------------------------------------------------
# The rules (core.pyx), without Python.
# ---------------------------------------------------------------------------------------
cdef public int gutenberg_current_player(const GameState* s) noexcept nogil:
    return current_player(s)


cdef public int gutenberg_legal_actions(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    return legal_actions(s, cat, out)


cdef public int gutenberg_chance_outcomes(const GameState* s, const Catalogue* cat, int* out,
                                          double* prob) noexcept nogil:
    return chance_outcomes(s, cat, out, prob)


cdef public bint gutenberg_is_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    return is_legal(s, cat, a)


cdef public void gutenberg_apply_action(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    apply_action(s, cat, a)


cdef public void gutenberg_returns(const GameState* s, const Catalogue* cat, int mode,
                                   double* out) noexcept nogil:
    returns_of(s, cat, mode, out)


cdef public void gutenberg_write_obs(const GameState* s, int player, float* out) noexcept nogil:
    write_obs(s, player, out)


cdef public bint gutenberg_entry_hidden(const GameState* s, int player, int i, int n, int actor,
                                        int action) noexcept nogil:
    return entry_hidden(s, player, i, n, actor, action)


cdef public int gutenberg_resample_history(GameState* s, int player, const int* actors, int* actions,
                                           int n, unsigned long long seed) noexcept nogil:
    cdef Rng rng
    rng.s = seed
    return resample_history(s, player, actors, actions, n, &rng)

# ---------------------------------------------------------------------------------------
# Plans committed before a game's history began. A game that starts from a position in
# the middle of a plan step holds the plans committed so far in its initial state (as
# stand-ins when the position hid them); resampling redraws the ones the player has not
# seen, and a serialized state carries them as "start_plan" lines (game.py, the glue).
# ---------------------------------------------------------------------------------------
cdef bint committed_at_start(const GameState* s, int seat) noexcept nogil:
    """Whether `seat` committed its plan in the plan step `s` is in, before s.step."""
    cdef int k
    if s.phase != PH_PLAN or seat < 0 or seat >= s.num_seats or seat == s.automa_seat:
        return False
    for k in range(s.step):
        if human_seat(s, k) == seat:
            return True
    return False


cdef public bint gutenberg_set_start_plan(GameState* s, int seat, const int* plan) noexcept nogil:
    """Give `seat` this committed plan in the initial state `s`: False (and s unchanged)
    unless the seat committed before the history began and the plan places all of its
    markers, at most MAX_ROW a row."""
    cdef int r, total = 0
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


cdef public int gutenberg_start_plans(const GameState* initial, const GameState* now,
                                      int* plans) noexcept nogil:
    """The plans `now` gives the seats that committed before the history began, while
    `now` is still in that plan step (a resample may have redrawn them): plans[5 * seat
    + row] for each seat in the returned mask."""
    cdef int seat, r, mask = 0
    if now.phase != PH_PLAN or now.round != initial.round:
        return 0
    for seat in range(initial.num_seats):
        if committed_at_start(initial, seat):
            mask |= 1 << seat
            for r in range(N_ROWS):
                plans[N_ROWS * seat + r] = now.players[seat].plan[r]
    return mask


def _set_start_plan(CoreState st, int seat, plan):
    """gutenberg_set_start_plan for the Python shell: ValueError if it is refused."""
    cdef int values[N_ROWS]
    cdef int r
    if len(plan) != N_ROWS:
        raise ValueError(f"a plan has {N_ROWS} rows, got {len(plan)}")
    for r in range(N_ROWS):
        values[r] = plan[r]
    if not gutenberg_set_start_plan(&st.s, seat, values):
        raise ValueError(f"player {seat} did not commit a plan before the game's history began, "
                         f"or {list(plan)} does not place their "
                         f"{st.s.players[seat].markers if 0 <= seat < MAX_SEATS else 0} markers "
                         f"(at most {MAX_ROW} a row)")


def _start_plans(Rules rules, CoreState now):
    """gutenberg_start_plans for the Python shell: {seat: plan}."""
    cdef int plans[MAX_SEATS * N_ROWS]
    cdef int mask = gutenberg_start_plans(&rules.initial, &now.s, plans)
    return {seat: [plans[N_ROWS * seat + r] for r in range(N_ROWS)]
            for seat in range(MAX_SEATS) if mask >> seat & 1}


# ---------------------------------------------------------------------------------------
# Loading a game: its parameters are checked, and its rules made, by gutenberg_ai.game,
# exactly as for the Python shell.
# ---------------------------------------------------------------------------------------
cdef public struct GutenbergSpec:
    int rules_id                  # index in _NATIVE_RULES (for the words)
    const Catalogue* cat          # in that Rules object
    const GameState* initial
    int players                   # the parameters in force (a position file sets them)
    int rounds
    bint characters
    int automa
    int returns_mode              # RETURNS_*
    int max_game_length
    double min_utility
    double max_utility
    bint zero_sum

# The Rules of the native games loaded so far, by index. Games point into them (catalogue,
# initial state), so they are kept for the life of the process: one per distinct content
# of parameters and files (gutenberg_ai.game.setup caches them).
_NATIVE_RULES = []
_NATIVE_RULES_ID = {}


cdef string _utf8(text):
    return (<str>text).encode("utf-8")


cdef public bint gutenberg_game_spec(int players, int rounds, string returns, bint characters,
                                     int automa, string catalogue, string position, GutenbergSpec* spec,
                                     string* returns_used, string* key, string* error) noexcept with gil:
    """Fill `spec` (and `key`, the rules' name in a serialized state) for these
    parameters; False, with a message naming the parameter at fault in `error`, if they
    are refused."""
    cdef Rules rules
    try:
        from gutenberg_ai import game
        setup = game.setup(dict(players=players, rounds=rounds,
                                returns=returns.decode("utf-8", "replace"),
                                characters=bool(characters), automa=automa,
                                catalogue=catalogue.decode("utf-8", "replace"),
                                position=position.decode("utf-8", "replace")))
        p, rules, info = setup.params, setup.rules, setup.info
        key[0] = _utf8(setup.key)
    except Exception as e:
        error[0] = _utf8(str(e))
        return False
    if id(rules) not in _NATIVE_RULES_ID:
        _NATIVE_RULES_ID[id(rules)] = len(_NATIVE_RULES)
        _NATIVE_RULES.append(rules)
    spec.rules_id = _NATIVE_RULES_ID[id(rules)]
    spec.cat = &rules.cat
    spec.initial = &rules.initial
    spec.players = p["players"]
    spec.rounds = p["rounds"]
    spec.characters = p["characters"]
    spec.automa = p["automa"]
    spec.returns_mode = RETURNS_MODES.index(p["returns"])
    spec.max_game_length = info["max_game_length"]
    spec.min_utility = info["min_utility"]
    spec.max_utility = info["max_utility"]
    spec.zero_sum = "utility_sum" in info
    returns_used[0] = _utf8(p["returns"])
    return True

# ---------------------------------------------------------------------------------------
# Words: api.pxi's CoreState over a copy of the struct. A Python exception becomes text:
# it must never unwind into C++.
# ---------------------------------------------------------------------------------------
cdef CoreState _view(const GameState* s, int rules_id):
    cdef CoreState st = CoreState.__new__(CoreState)
    st.rules = _NATIVE_RULES[rules_id]
    st.s = s[0]
    return st


cdef public string gutenberg_action_string(const GameState* s, int rules_id, int action) noexcept with gil:
    try:
        return _utf8(_view(s, rules_id).action_to_string(action))
    except BaseException as e:
        return _utf8(f"action {action} (no words: {type(e).__name__}: {e})")


cdef public string gutenberg_state_string(const GameState* s, int rules_id, int viewer) noexcept with gil:
    """str(core) for viewer -1, else core.observation_string(viewer)."""
    try:
        core = _view(s, rules_id)
        return _utf8(str(core) if viewer < 0 else core.observation_string(viewer))
    except BaseException as e:
        return _utf8(f"(no words: {type(e).__name__}: {e})")


cdef public string gutenberg_illegal_message(const GameState* s, int rules_id, long long action) noexcept with gil:
    try:
        return _utf8(_view(s, rules_id).illegal_message(action))
    except BaseException as e:
        return _utf8(f"action {action} is not legal now (no words: {type(e).__name__}: {e})")
