# A learned evaluation and prior, evaluated inside the search: plain C loops over the
# weights of a small network, without the GIL (docs/learning.md). Included by
# engine/search.pxi, so it is compiled against each game's observation (write_obs,
# OBS_SIZE), moves (N_ACTIONS) and seats (MAX_SEATS).
#
# The network, from the point of view of a seat p (seats relative to p, p first):
#
#   x        the observation of p (write_obs: one-hots and scaled counts, mostly zeros)
#   proj     the heuristic's projected final fame per relative seat (evaluate), / scale
#   h1       relu(W_obs x + W_proj proj + b1)           (hidden units)
#   h2       relu(W2 h1 + b2)                           (hidden2 units)
#   score_k  proj_k * scale + scale * (W_score_k h2 + b_score_k): a correction of the
#            heuristic's projection, in fame
#   win      softmax over the people of score_k / scale * exp(w_sharp h2 + b_sharp):
#            each one's chance to win, sharper as the scores become certain (one
#            sharpness per position: a head per seat memorised the training games'
#            winners and did not generalise)
#   logit_a  beta * (value_a - best value) + W_policy_a h2 + b_policy_a, for the moves a
#            the node considers (value_a: the heuristic's value of move a, in fame)
#
# W_obs has a row only for the observation features seen in training (`row_of`: the
# row of each feature, -1 for none), so a game with a wide observation ships small
# weights, and a pass costs a few hundred multiply-adds per hidden unit: the features
# that are set.

ctypedef struct Net:
    int hidden
    int hidden2
    const int32_t* row_of       # OBS_SIZE
    const int32_t* scan_blocks  # the first feature of each NET_SCAN_BLOCK of features with a row
    int n_scan_blocks           # (the others add nothing to the first layer: not scanned)
    const float* w_obs          # rows x hidden
    const float* w_proj         # MAX_SEATS x hidden
    const float* b1             # hidden
    const float* w2_by_input    # hidden x hidden2: W2 (hidden2 x hidden in the file)
                                # transposed, for the pass that skips the units the ReLU zeroed
    const float* b2             # hidden2
    const float* w_score        # MAX_SEATS x hidden2
    const float* b_score        # MAX_SEATS
    const float* w_sharp        # hidden2
    const float* b_sharp        # 1
    const float* w_policy       # N_ACTIONS x hidden2
    const float* b_policy       # N_ACTIONS
    double beta                 # the heuristic's values in the policy's logits, per fame
    double scale                # fame per unit of the scaled projections and corrections


cdef extern from "net_kernels.h" nogil:
    # The hot loops, with an AVX2 copy chosen at load where the processor has it.
    enum: NET_SCAN_BLOCK
    void net_first_layer_update(float* y, const float* obs, const float* last, int size, const int32_t* row_of,
                                const float* w, int width, const int32_t* blocks, int n_blocks)
    void net_relu_layer(float* out, const float* h, int n_in, const float* w_by_input, const float* b,
                        int n_out)


cdef enum:
    MAX_HIDDEN = 256
    NET_REFRESH = 128     # incremental passes before a whole one (their rounding drifts)


ctypedef struct NetScratch:
    # The buffers of a network's passes, one per searching thread. A rollout's decisions
    # follow one another and change about a dozen of the ~180 features set, so an
    # incremental pass adds only the rows of the features that changed since the last.
    float* obs                  # OBS_SIZE: the observation being written
    float* last                 # OBS_SIZE: the observation of the last pass
    int seat                    # whose observation `last` is; -1: none yet
    int passes                  # incremental passes since the last whole one
    float first[MAX_HIDDEN]     # b1 + W_obs last: the first layer before the projections


cdef bint net_scratch_init(NetScratch* sc) noexcept nogil:
    """Allocate the buffers (False: out of memory; net_scratch_free frees what was)."""
    sc.obs = <float*>malloc(OBS_SIZE * sizeof(float))
    sc.last = <float*>malloc(OBS_SIZE * sizeof(float))
    sc.seat = -1
    sc.passes = 0
    return sc.obs != NULL and sc.last != NULL


cdef void net_scratch_free(NetScratch* sc) noexcept nogil:
    free(sc.obs)
    free(sc.last)
    sc.obs = NULL
    sc.last = NULL
    sc.seat = -1


# The first layer's update scans the observations sixteen features at a time, only the
# blocks where some feature has a row (Net.scan_blocks: half of them for the solo
# weights), and skips a block that is as in the other observation; the sums are the
# same, in the same order, as feature by feature (net_kernels.h). A whole pass is the
# update against an observation with nothing set.
cdef float NO_FEATURES[OBS_SIZE]    # static: zeros


cdef inline void first_layer_update(const Net* m, const float* obs, const float* last, float* first) noexcept nogil:
    """first += W_obs (obs - last): the rows of the features that changed."""
    net_first_layer_update(first, obs, last, OBS_SIZE, m.row_of, m.w_obs, m.hidden, m.scan_blocks,
                           m.n_scan_blocks)


cdef void net_trunk(const Net* m, const GameState* st, int p, const double* proj, NetScratch* sc,
                    bint incremental, float* h2) noexcept nogil:
    """h2 of the network from seat p's point of view. A whole pass sums the first layer
    afresh (bitwise the same every time); an `incremental` one updates the last pass's
    by the features that changed since (a rollout's passes), and is whole every
    NET_REFRESH passes so that rounding cannot drift."""
    cdef float h1[MAX_HIDDEN]
    cdef int j, k, seat, n = st.num_seats, H = m.hidden, H2 = m.hidden2
    cdef float x
    cdef const float* w
    cdef float* swap
    write_obs(st, p, sc.obs)
    if incremental and sc.seat == p and sc.passes < NET_REFRESH:
        first_layer_update(m, sc.obs, sc.last, sc.first)
        sc.passes += 1
    else:
        for j in range(H):
            sc.first[j] = m.b1[j]
        first_layer_update(m, sc.obs, NO_FEATURES, sc.first)
        sc.passes = 0
    sc.seat = p
    swap = sc.last
    sc.last = sc.obs
    sc.obs = swap
    for j in range(H):
        h1[j] = sc.first[j]
    for k in range(n):
        seat = (p + k) % n
        x = <float>(proj[seat] / m.scale)
        w = m.w_proj + k * H
        for j in range(H):
            h1[j] += x * w[j]
    # h2 = relu(W2 relu(h1) + b2), by input unit: the units the ReLU zeroed (about half)
    # add nothing and are skipped.
    net_relu_layer(h2, h1, H, m.w2_by_input, m.b2, H2)


cdef inline float net_dot(const float* w, const float* h, int n) noexcept nogil:
    cdef float acc = 0.0
    cdef int i
    for i in range(n):
        acc += w[i] * h[i]
    return acc


cdef void net_value(const Net* m, const GameState* st, const Catalogue* cat, int p, NetScratch* sc,
                    double* scores, double* shares) noexcept nogil:
    """Projected final fame per seat and each person's chance to win, from p's point of
    view; an automa (a seat after the people) gets no chance to win."""
    cdef double proj[MAX_SEATS]
    cdef float h2[MAX_HIDDEN]
    cdef double logit[MAX_SEATS]
    cdef int k, seat, n = st.num_seats, H2 = m.hidden2
    cdef double top = -1e300, total = 0.0, sharp
    evaluate(st, cat, proj)
    net_trunk(m, st, p, proj, sc, False, h2)
    sharp = exp(net_dot(m.w_sharp, h2, H2) + m.b_sharp[0])
    for k in range(n):
        seat = (p + k) % n
        scores[seat] = proj[seat] + m.scale * (net_dot(m.w_score + k * H2, h2, H2) + m.b_score[k])
        if seat < st.num_players:
            logit[seat] = scores[seat] / m.scale * sharp
            if logit[seat] > top:
                top = logit[seat]
    for seat in range(n):
        shares[seat] = exp(logit[seat] - top) if seat < st.num_players else 0.0
        total += shares[seat]
    for seat in range(n):
        shares[seat] /= total


cdef void net_logits(const Net* m, const GameState* st, const Catalogue* cat, int p, NetScratch* sc,
                     bint incremental, const int* moves, const double* values, int n,
                     double* logits) noexcept nogil:
    """The policy's logits of `moves` (with the heuristic's `values`) for seat p to act
    (`incremental`: see net_trunk)."""
    cdef double proj[MAX_SEATS]
    cdef float h2[MAX_HIDDEN]
    cdef double top = values[0]
    cdef int i, H2 = m.hidden2
    for i in range(1, n):
        if values[i] > top:
            top = values[i]
    evaluate(st, cat, proj)
    net_trunk(m, st, p, proj, sc, incremental, h2)
    for i in range(n):
        logits[i] = (m.beta * (values[i] - top) + net_dot(m.w_policy + <size_t>moves[i] * H2, h2, H2)
                     + m.b_policy[moves[i]])


# The arrays of a weights file, by name, with their shapes (H: hidden, H2: hidden2, R:
# rows of W_obs). gutenberg_ai/search/learn/model.py reads and checks the file; LearnedModel
# checks the shapes again before pointing at the arrays.
NET_ARRAYS = ("row_of", "w_obs", "w_proj", "b1", "w2", "b2", "w_score", "b_score", "w_sharp", "b_sharp",
              "w_policy", "b_policy")
NET_DIMENSIONS = dict(obs_size=OBS_SIZE, n_actions=N_ACTIONS, seats=MAX_SEATS, max_hidden=MAX_HIDDEN)


def net_shapes(int rows, int hidden, int hidden2):
    """The shape of each array of NET_ARRAYS for a network with these rows of W_obs and
    hidden units (what a weights file must hold for this game)."""
    return dict(row_of=(OBS_SIZE,), w_obs=(rows, hidden), w_proj=(MAX_SEATS, hidden), b1=(hidden,),
                w2=(hidden2, hidden), b2=(hidden2,), w_score=(MAX_SEATS, hidden2), b_score=(MAX_SEATS,),
                w_sharp=(hidden2,), b_sharp=(1,), w_policy=(N_ACTIONS, hidden2), b_policy=(N_ACTIONS,))


cdef class LearnedModel:
    """A network's weights held for the search (the arrays stay owned by this object).
    `arrays`: name -> numpy array (NET_ARRAYS, float32 but row_of int32), `beta` and
    `scale` numbers; `name` says where they came from."""
    cdef Net net
    cdef NetScratch scratch     # the passes asked from Python (under the GIL: one at a time)
    cdef readonly str name
    cdef readonly int hidden, hidden2
    cdef object arrays

    def __init__(self, arrays, double beta, double scale, str name="model"):
        import numpy as np
        a = {k: np.ascontiguousarray(arrays[k], dtype=np.int32 if k == "row_of" else np.float32)
             for k in NET_ARRAYS}
        H, H2 = a["b1"].shape[0], a["b2"].shape[0]
        rows = a["w_obs"].shape[0] if a["w_obs"].ndim == 2 else -1
        for k, shape in net_shapes(rows, H, H2).items():
            if a[k].shape != shape:
                raise ValueError(f"{name}: {k} has shape {a[k].shape}, not {shape}")
        if not (1 <= H <= MAX_HIDDEN and 1 <= H2 <= MAX_HIDDEN):
            raise ValueError(f"{name}: {H} and {H2} hidden units; 1 to {MAX_HIDDEN} each")
        if a["row_of"].min() < -1 or a["row_of"].max() >= rows:
            raise ValueError(f"{name}: row_of names a row outside w_obs (0-{rows - 1}, or -1)")
        if not scale > 0:
            raise ValueError(f"{name}: scale {scale} is not > 0")
        a["w2_by_input"] = np.ascontiguousarray(a["w2"].T)
        a["scan_blocks"] = np.ascontiguousarray(
            np.unique(np.flatnonzero(a["row_of"] >= 0) // NET_SCAN_BLOCK) * NET_SCAN_BLOCK, dtype=np.int32)
        self.arrays = a
        self.name, self.hidden, self.hidden2 = name, H, H2
        self.net.hidden, self.net.hidden2 = H, H2
        self.net.beta, self.net.scale = beta, scale
        self.net.row_of = <const int32_t*><size_t>a["row_of"].ctypes.data
        self.net.scan_blocks = <const int32_t*><size_t>a["scan_blocks"].ctypes.data
        self.net.n_scan_blocks = a["scan_blocks"].shape[0]
        self.net.w_obs = <const float*><size_t>a["w_obs"].ctypes.data
        self.net.w_proj = <const float*><size_t>a["w_proj"].ctypes.data
        self.net.b1 = <const float*><size_t>a["b1"].ctypes.data
        self.net.w2_by_input = <const float*><size_t>a["w2_by_input"].ctypes.data
        self.net.b2 = <const float*><size_t>a["b2"].ctypes.data
        self.net.w_score = <const float*><size_t>a["w_score"].ctypes.data
        self.net.b_score = <const float*><size_t>a["b_score"].ctypes.data
        self.net.w_sharp = <const float*><size_t>a["w_sharp"].ctypes.data
        self.net.b_sharp = <const float*><size_t>a["b_sharp"].ctypes.data
        self.net.w_policy = <const float*><size_t>a["w_policy"].ctypes.data
        self.net.b_policy = <const float*><size_t>a["b_policy"].ctypes.data
        net_scratch_free(&self.scratch)
        if not net_scratch_init(&self.scratch):
            raise MemoryError()

    def value(self, CoreState state, int player=-1):
        """(projected final fame per seat, win chance per seat) from `player`'s point of
        view (default: the player to act)."""
        cdef double scores[MAX_SEATS]
        cdef double shares[MAX_SEATS]
        p = current_player(&state.s) if player < 0 else player
        if not 0 <= p < state.s.num_seats:
            raise ValueError(f"player: {p} is not a seat of this game")
        net_value(&self.net, &state.s, &state.rules.cat, p, &self.scratch, scores, shares)
        n = state.s.num_seats
        return [scores[i] for i in range(n)], [shares[i] for i in range(n)]

    def logits(self, CoreState state, moves, values, bint incremental=False):
        """The policy's logits of `moves` (with the heuristic's `values`) for the player to act.
        `incremental`: the pass updates the last one's first layer by the features that
        changed since (as the network's rollouts do; the same logits up to rounding)."""
        cdef int buf[MAX_LEGAL]
        cdef double vals[MAX_LEGAL]
        cdef double out[MAX_LEGAL]
        cdef int i, n = len(moves)
        cdef int p = current_player(&state.s)
        if p < 0:
            raise ValueError("the policy is asked at a decision")
        if n < 1 or n > MAX_LEGAL or len(values) != n:
            raise ValueError("moves: 1 to MAX_LEGAL moves, one value each")
        for i in range(n):
            if not 0 <= moves[i] < N_ACTIONS:
                raise ValueError(f"moves: {moves[i]} is not an action")
            buf[i] = moves[i]
            vals[i] = values[i]
        net_logits(&self.net, &state.s, &state.rules.cat, p, &self.scratch, incremental, buf, vals, n, out)
        return [out[i] for i in range(n)]

    def __dealloc__(self):
        net_scratch_free(&self.scratch)
