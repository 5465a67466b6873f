# The face of a game's core for its native OpenSpiel game (ext/engine/native_game.h),
# written once for every game and included at the end of the game's core.pyx.
#
# The glue file of the game is compiled in the same translation unit, after the C++ that
# Cython generates from core.pyx. It cannot name Cython's functions and enums (their C
# names are mangled), so it calls the `cdef public` functions below (plain C names, and
# inlined there all the same). Rules stay in the core; what lives in Python (checking
# parameters, loading catalogues, words) is reached through the `with gil` callbacks.
#
# The including module defines, besides the rules the search needs (engine/search.pxi):
#   SPIEL_GAME_MODULE   the Python module that checks parameters and makes rules:
#                       setup(dict) -> an object with params (every parameter as the
#                       game plays it), rules (Rules), info (max_game_length,
#                       min_utility, max_utility, utility_sum if zero-sum) and key (a
#                       text naming the rules: a serialized state carries it)
#   OBS_SIZE, write_obs(s, player, out), entry_hidden(...), resample_from(...) (below),
#   returns_of(s, cat, mode, out), and the Python classes Rules (cat, initial) and
#   CoreState (action_to_string, observation_string, __str__, illegal_message).
#   resample_from(start, s, player, actors, actions, n, rng): resample_history for a
#   history that begins at `start` (the game's initial state with the state's start
#   records set); a game whose hidden facts at the start are in `start` may redraw them
#   there too (Printing Press), one that keeps them in `s` ignores it (Gutenberg).
#   Start records: hidden facts of a game's initial state that are in no history entry
#   (a position's hidden commitments or hidden tokens) but that a resample redraws, so
#   that a serialized state must carry them: START_WIDTH ints a record, written as
#   "START_TAG <ints>" lines (START_WORDS says what the ints are, START_REFUSED why a
#   record a file gives does not fit the game's start); start_records(initial, start,
#   now, out) gives them after a resample (`start` as resample_from left it, `now` the
#   resampled state), set_start_record(s, record) checks and sets one in an initial
#   state. A game without them: START_WIDTH 1, start_records returns 0,
#   set_start_record False.
#   What a player sees that no history entry holds (a tile drawn from under a pile
#   without chance, seen by its drawer): PRIVATE_WIDTH ints at most, written by
#   private_view(initial, s, player, out) (returns how many; `initial` the game's
#   initial state, as start_records has it); the information state string ends with
#   them, so that two states a player can tell apart never share a string. A game whose
#   history holds everything a player sees: PRIVATE_WIDTH 1, private_view returns 0.

from libcpp.string cimport string

cdef public enum:
    SPIEL_N_ACTIONS = N_ACTIONS
    SPIEL_N_CHANCE = N_CHANCE
    SPIEL_MAX_LEGAL = MAX_LEGAL
    SPIEL_MAX_SEATS = MAX_SEATS
    SPIEL_OBS_SIZE = OBS_SIZE
    SPIEL_START_WIDTH = START_WIDTH
    SPIEL_PRIVATE_WIDTH = PRIVATE_WIDTH

# ---------------------------------------------------------------------------------------
# The rules, without Python.
# ---------------------------------------------------------------------------------------
cdef public int spiel_current_player(const GameState* s) noexcept nogil:
    return current_player(s)


cdef public bint spiel_game_over(const GameState* s) noexcept nogil:
    return game_over(s)


cdef public int spiel_legal_actions(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    return legal_actions(s, cat, out)


cdef public int spiel_chance_outcomes(const GameState* s, const Catalogue* cat, int* out,
                                      double* prob) noexcept nogil:
    return chance_outcomes(s, cat, out, prob)


cdef public bint spiel_is_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    return is_legal(s, cat, a)


cdef public void spiel_apply_action(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    apply_action(s, cat, a)


cdef public void spiel_returns(const GameState* s, const Catalogue* cat, int mode,
                               double* out) noexcept nogil:
    returns_of(s, cat, mode, out)


cdef public void spiel_write_obs(const GameState* s, int player, float* out) noexcept nogil:
    write_obs(s, player, out)


cdef public bint spiel_entry_hidden(const GameState* s, int player, int i, int n, int actor,
                                    int action) noexcept nogil:
    return entry_hidden(s, player, i, n, actor, action)


cdef public int spiel_private_view(const GameState* initial, const GameState* s, int player,
                                   int* out) noexcept nogil:
    return private_view(initial, s, player, out)


def _private_view(Rules rules, CoreState now, int player):
    """private_view for the Python shell: what the information state string ends with."""
    cdef int seen[PRIVATE_WIDTH]
    cdef int k = private_view(&rules.initial, &now.s, player, seen), i
    return [seen[i] for i in range(k)]


cdef public int spiel_resample_history(GameState* start, GameState* s, int player, const int* actors,
                                       int* actions, int n, unsigned long long seed) noexcept nogil:
    cdef Rng rng
    rng.s = seed
    return resample_from(start, s, player, actors, actions, n, &rng)


cdef public int spiel_start_records(const GameState* initial, const GameState* start,
                                    const GameState* now, int* out) noexcept nogil:
    """At most MAX_SEATS records of SPIEL_START_WIDTH ints."""
    return start_records(initial, start, now, out)


cdef public bint spiel_set_start_record(GameState* s, const int* record) noexcept nogil:
    return set_start_record(s, record)


cdef public const char* spiel_start_tag() noexcept nogil:
    return START_TAG


cdef public const char* spiel_start_words() noexcept nogil:
    return START_WORDS


cdef public const char* spiel_start_refused() noexcept nogil:
    return START_REFUSED

# ---------------------------------------------------------------------------------------
# Loading a game: its parameters are checked, and its rules made, by the game's Python
# module, exactly as for its Python shell.
# ---------------------------------------------------------------------------------------
cdef public struct SpielSpec:
    int rules_id                  # key of _NATIVE_RULES (for the words)
    const Catalogue* cat          # in that Rules object
    const GameState* initial
    int players                   # the number of players in force
    int returns_mode              # RETURNS_*
    int max_game_length
    double min_utility
    double max_utility
    bint zero_sum

# The Rules of the native games alive, by id. Games point into them (catalogue, initial
# state) without a Python reference, so each is held here while a native game uses it:
# spiel_game_spec counts a game in, the game's destructor out (spiel_release_rules).
_NATIVE_RULES = {}        # rules id -> [Rules, the native games using them]
_NATIVE_RULES_ID = {}     # id(Rules) -> rules id
cdef int _next_rules_id = 0


cdef string _utf8(text):
    return (<str>text).encode("utf-8", "replace")


cdef public bint spiel_game_spec(string params, SpielSpec* spec, string* in_force, string* key,
                                 string* error) noexcept with gil:
    """Fill `spec` for the parameters (JSON); False, with a message naming the parameter
    at fault in `error`, if they are refused. `in_force` gets every parameter as the game
    plays it (JSON): a position file may set some; `key` the rules' name."""
    cdef Rules rules
    import importlib
    import json
    try:
        game = importlib.import_module(SPIEL_GAME_MODULE)
        setup = game.setup(json.loads(params.decode("utf-8", "replace")))
        p, rules, info = setup.params, setup.rules, setup.info
        key[0] = _utf8(setup.key)
    except Exception as e:
        error[0] = _utf8(str(e))
        return False
    global _next_rules_id
    if id(rules) not in _NATIVE_RULES_ID:
        _NATIVE_RULES_ID[id(rules)] = _next_rules_id
        _NATIVE_RULES[_next_rules_id] = [rules, 0]
        _next_rules_id += 1
    spec.rules_id = _NATIVE_RULES_ID[id(rules)]
    _NATIVE_RULES[spec.rules_id][1] += 1   # the game made of this spec (released by its destructor)
    spec.cat = &rules.cat
    spec.initial = &rules.initial
    spec.players = p["players"]
    spec.returns_mode = RETURNS_MODES.index(p["returns"])
    spec.max_game_length = info["max_game_length"]
    spec.min_utility = info["min_utility"]
    spec.max_utility = info["max_utility"]
    spec.zero_sum = "utility_sum" in info
    in_force[0] = _utf8(json.dumps(p))
    return True


cdef public void spiel_release_rules(int rules_id) noexcept with gil:
    """A native game made by spiel_game_spec is gone: its Rules are let go with the last
    game using them (gamedata keeps what it still needs). Nothing may unwind into C++."""
    try:
        held = _NATIVE_RULES[rules_id]
        held[1] -= 1
        if held[1] == 0:
            del _NATIVE_RULES[rules_id], _NATIVE_RULES_ID[id(held[0])]
    except BaseException:
        pass


def _native_rules_held() -> int:
    """How many Rules the native games alive hold (for tests of their release)."""
    return len(_NATIVE_RULES)

# ---------------------------------------------------------------------------------------
# Words: api.pxi's CoreState over a copy of the struct. A Python exception becomes text:
# it must never unwind into C++.
# ---------------------------------------------------------------------------------------
cdef CoreState _view(const GameState* s, int rules_id):
    cdef CoreState st = CoreState.__new__(CoreState)
    st.rules = _NATIVE_RULES[rules_id][0]
    st.s = s[0]
    return st


cdef public string spiel_action_string(const GameState* s, int rules_id, int action) noexcept with gil:
    try:
        return _utf8(_view(s, rules_id).action_to_string(action))
    except BaseException as e:
        return _utf8(f"action {action} (no words: {type(e).__name__}: {e})")


cdef public string spiel_state_string(const GameState* s, int rules_id, int viewer) noexcept with gil:
    """str(core) for viewer -1, else core.observation_string(viewer)."""
    try:
        core = _view(s, rules_id)
        return _utf8(str(core) if viewer < 0 else core.observation_string(viewer))
    except BaseException as e:
        return _utf8(f"(no words: {type(e).__name__}: {e})")


cdef public string spiel_illegal_message(const GameState* s, int rules_id, long long action) noexcept with gil:
    try:
        return _utf8(_view(s, rules_id).illegal_message(action))
    except BaseException as e:
        return _utf8(f"action {action} is not legal now (no words: {type(e).__name__}: {e})")
