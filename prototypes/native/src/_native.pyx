# distutils: language = c++
"""The Gutenberg rules of ext/core.pyx compiled a second time, as C++, with a `cdef public`
face for the native OpenSpiel glue (src/gutenberg_spiel.cc).

Nothing of the rules is copied: `include "core.pyx"` pulls ext/core.pyx (and through it
ext/api.pxi) into this module, so this extension holds its own copy of the compiled rule
functions. The directives of core.pyx's `# cython:` line do not apply to an included file;
setup.py reads that line and passes the same directives to this module.

The glue is compiled in the same translation unit, after the code Cython generates from
this file (src/unity.cpp), so it sees the structs of ext/gutenberg_types.pxd as Cython
emits them and can inline the wrappers below.
"""
from libcpp.string cimport string

include "core.pyx"

cdef extern from "gutenberg_spiel.h":
    # Defined in gutenberg_spiel.cc (the catalogue as an untyped pointer, since the glue's
    # declarations are seen before Cython's struct definitions).
    void gn_glue_set_catalogue(const void* cat, int catalogue_id) except +

# ---------------------------------------------------------------------------------------
# Constants the glue needs, without Cython's mangled names.
# ---------------------------------------------------------------------------------------
cdef public enum:
    GN_N_ACTIONS = N_ACTIONS
    GN_N_CHANCE = N_CHANCE
    GN_MAX_LEGAL = MAX_LEGAL
    GN_MAX_SEATS = MAX_SEATS
    GN_N_PLANS = N_PLANS
    GN_OBS_SIZE = OBS_SIZE
    GN_PH_PLAN = PH_PLAN
    GN_PH_TERMINAL = PH_TERMINAL

# ---------------------------------------------------------------------------------------
# The rule functions of core.pyx, under unmangled names (no GIL, no Python objects).
# ---------------------------------------------------------------------------------------
cdef public void gn_init_state(GameState* s, const Catalogue* cat, int players, int rounds) noexcept nogil:
    init_state(s, cat, players, rounds)

cdef public int gn_current_player(const GameState* s) noexcept nogil:
    return current_player(s)

cdef public int gn_legal_actions(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    return legal_actions(s, cat, out)

cdef public int gn_chance_outcomes(const GameState* s, const Catalogue* cat, int* out, double* prob) noexcept nogil:
    return chance_outcomes(s, cat, out, prob)

cdef public bint gn_is_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    return is_legal(s, cat, a)

cdef public void gn_apply_action(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    apply_action(s, cat, a)

cdef public void gn_final_scores(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    final_scores(s, cat, out)

cdef public void gn_write_obs(const GameState* s, int player, float* out) noexcept nogil:
    write_obs(s, player, out)

cdef public void gn_win_returns(const GameState* s, const Catalogue* cat, double* out) noexcept nogil:
    """Returns of the "win" mode: the winners share, zero-sum. Ranking as
    CoreState.ranking_key: final score, then fewer types, then fewer inks.
    (A C version of CoreState.winners + game.returns_of; it belongs in core.pyx.)"""
    cdef int scores[MAX_SEATS]
    cdef int best[3]
    cdef int key[MAX_SEATS][3]
    cdef bint win[MAX_SEATS]
    cdef int seat, n = s.num_players, k = 0, j
    final_scores(s, cat, scores)
    for seat in range(s.num_seats):
        key[seat][0] = scores[seat]
        key[seat][1] = -total4(s.players[seat].types)
        key[seat][2] = -total4(s.players[seat].inks)
    best[0] = key[0][0]
    best[1] = key[0][1]
    best[2] = key[0][2]
    for seat in range(1, s.num_seats):
        for j in range(3):
            if key[seat][j] != best[j]:
                if key[seat][j] > best[j]:
                    best[0] = key[seat][0]
                    best[1] = key[seat][1]
                    best[2] = key[seat][2]
                break
    for seat in range(s.num_seats):
        win[seat] = key[seat][0] == best[0] and key[seat][1] == best[1] and key[seat][2] == best[2]
        if win[seat]:
            k += 1
    for seat in range(n):
        if k == n:
            out[seat] = 0.0
        elif win[seat]:
            out[seat] = (n - k) / <double>(k * (n - 1))
        else:
            out[seat] = -1.0 / (n - 1)

cdef public int gn_resample_plan(GameState* s, int seat, double u) noexcept nogil:
    """Give `seat` a uniformly drawn plan (u in [0, 1)) for its markers; the plan action.
    The same draw as core.pyx's determinize(), with OpenSpiel's random number."""
    cdef int m = s.players[seat].markers
    cdef int count = PLAN_START[m + 1] - PLAN_START[m]
    cdef int k = <int>(u * count), i
    if k >= count:
        k = count - 1
    if k < 0:
        k = 0
    for i in range(N_ROWS):
        s.players[seat].plan[i] = PLAN_TABLE[PLAN_START[m] + k][i]
    return A_PLAN + PLAN_START[m] + k

# ---------------------------------------------------------------------------------------
# Words: back into Python under the GIL, through the CoreState of api.pxi.
# ---------------------------------------------------------------------------------------
_RULES = []   # Rules per catalogue id; kept for the life of the process


cdef CoreState _core_of(const GameState* s, int catalogue_id):
    cdef CoreState st = CoreState.__new__(CoreState)
    st.rules = _RULES[catalogue_id]
    st.s = s[0]
    return st


cdef string _utf8(text):
    return (<str>text).encode("utf-8")


cdef public string gn_py_action_string(const GameState* s, int catalogue_id, int action) noexcept with gil:
    try:
        return _utf8(_core_of(s, catalogue_id).action_to_string(action))
    except BaseException as e:
        return _utf8(f"action {action} (no text: {type(e).__name__}: {e})")


cdef public string gn_py_state_string(const GameState* s, int catalogue_id, int viewer) noexcept with gil:
    """str(core) for viewer -1, else core.observation_string(viewer)."""
    try:
        core = _core_of(s, catalogue_id)
        return _utf8(str(core) if viewer < 0 else core.observation_string(viewer))
    except BaseException as e:
        return _utf8(f"(no text: {type(e).__name__}: {e})")

# ---------------------------------------------------------------------------------------
# Python API.
# ---------------------------------------------------------------------------------------
def set_catalogue(catalogue):
    """Use `catalogue` (a gutenberg_ai.catalogue.Catalogue) for the games loaded from now
    on. Checked and converted by the same code as gutenberg_ai._core.Rules."""
    cdef Rules rules = Rules(catalogue, 2, 6)
    _RULES.append(rules)
    gn_glue_set_catalogue(&rules.cat, len(_RULES) - 1)
    return len(_RULES) - 1


def state_size():
    """sizeof(GameState) in this build (it must equal gutenberg_ai._core's)."""
    return sizeof(GameState)
