# Small pieces that every game's compiled core needs, written once (included by each
# game's core.pyx after `from engine_types cimport *`): the random generator, bit
# helpers over card sets, a hash of bytes, the formula of the win / score / margin returns, and a small
# sort.

from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from operator import index as _operator_index

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil

# ---------------------------------------------------------------------------------------
# The random generator (every random thing takes a seed: Rng.s).
# ---------------------------------------------------------------------------------------
cdef inline uint64_t splitmix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_take(Rng* rng) noexcept nogil:
    """A step of the generator: draw the number rng_peek gave (rng_next, its value
    already in hand)."""
    rng.s += 0x9E3779B97F4A7C15ULL


cdef inline uint64_t rng_peek(const Rng* rng) noexcept nogil:
    """What rng_next will give, without drawing it: splitmix64's state is a counter, so
    the next number can be worked out ahead (its multiplications overlapping other work)
    and taken later with rng_take."""
    cdef Rng next = rng[0]
    rng_take(&next)
    return splitmix(next.s)


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    # splitmix64: tiny, fast, and good enough for playouts.
    rng_take(rng)
    return splitmix(rng.s)


cdef inline int below(uint64_t r, int n) noexcept nogil:
    """A 64-bit random number r as uniform in 0..n-1 (n >= 1)."""
    return <int>(((r >> 32) * <uint64_t>n) >> 32)


cdef inline int rng_below(Rng* rng, int n) noexcept nogil:
    """Uniform in 0..n-1 (n >= 1)."""
    return below(rng_next(rng), n)


cdef inline double rng_uniform(Rng* rng) noexcept nogil:
    """Uniform in [0, 1)."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef uint64_t bytes_hash(const void* p, size_t n, uint64_t h) noexcept nogil:
    """A 64-bit hash of n bytes, continuing h (never 0: 0 marks an empty slot)."""
    cdef const unsigned char* b = <const unsigned char*>p
    cdef size_t i = 0
    cdef uint64_t w
    while i + 8 <= n:
        memcpy(&w, b + i, 8)
        h = (h ^ w) * 0x100000001B3ULL
        h ^= h >> 29
        i += 8
    while i < n:
        h = (h ^ b[i]) * 0x100000001B3ULL
        i += 1
    h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL
    h ^= h >> 27
    return h if h != 0 else 1

# ---------------------------------------------------------------------------------------
# Sets as bit masks over ids.
# ---------------------------------------------------------------------------------------
cdef inline uint64_t bit(int i) noexcept nogil:
    return (<uint64_t>1) << i


cdef unsigned char NTH_IN_BYTE[8][256]   # [n][byte]: the index of the byte's n-th set bit


cdef void _build_nth_in_byte():
    cdef int b, n, i
    for b in range(256):
        n = 0
        for i in range(8):
            if (b >> i) & 1:
                NTH_IN_BYTE[n][b] = i
                n += 1


_build_nth_in_byte()


cdef inline int nth_bit(uint64_t m, int n) noexcept nogil:
    """The index of the n-th set bit of m (from 0, lowest first; n < popcount64(m)): the
    16 bits it is in, counted from the bits below each 16, then the byte, then a table.
    The comparisons are added up, not branched on: n is a random draw (of a card from a
    deck), so a branch on it would be mispredicted half the time."""
    cdef int base = 16 * ((n >= popcount64(m & 0xFFFFULL)) + (n >= popcount64(m & 0xFFFFFFFFULL))
                          + (n >= popcount64(m & 0xFFFFFFFFFFFFULL)))
    cdef int c, upper
    n -= popcount64(m & ((1ULL << base) - 1))
    m >>= base
    c = popcount64(m & 0xFF)
    upper = n >= c
    n -= c * upper
    m >>= 8 * upper
    return base + 8 * upper + NTH_IN_BYTE[n][m & 0xFF]

# ---------------------------------------------------------------------------------------
# Returns at the end of a game (or of a projection) from the players' scores and who
# wins by them (the game's winners_of, which knows its tie-breaks).
# ---------------------------------------------------------------------------------------
cdef void returns_formula(int n, const double* scores, const bint* win, int k, int mode,
                          double* out) noexcept nogil:
    """The n players' returns under `mode` (RETURNS_*). Win: each of k winners gets
    (n-k)/(k(n-1)), each other player -1/(n-1), so they sum to 0 and a lone winner gets
    1; all 0 when all share. Score: the scores. Margin: the score minus the mean of the
    others'. A solo game (n == 1) returns its score whatever the mode."""
    cdef int seat
    cdef double total = 0.0
    if mode == RETURNS_SCORE or n == 1:
        for seat in range(n):
            out[seat] = scores[seat]
    elif mode == RETURNS_MARGIN:
        for seat in range(n):
            total += scores[seat]
        for seat in range(n):
            out[seat] = scores[seat] - (total - scores[seat]) / (n - 1)
    else:
        for seat in range(n):
            if k == n:
                out[seat] = 0.0
            elif win[seat]:
                out[seat] = (n - k) / <double>(k * (n - 1))
            else:
                out[seat] = -1.0 / (n - 1)


cdef int action_id(object action) except? -1:
    """`action` as an action id of the core: an integer or integer-like (numpy) only, as
    operator.index takes them (a float is not truncated: 2381.5 was applied as 2381); the
    game's IllegalActionError for anything else, and for an integer no action id reaches."""
    try:
        return _operator_index(action)
    except TypeError:
        raise IllegalActionError(f"action {action!r} is not an integer") from None
    except OverflowError:
        raise IllegalActionError(f"action {action!r} is out of range (no action id is that large)") from None


MAX_RANDOM_GAMES = 10_000_000     # games one call plays at random inside a core (minutes of CPU)


def check_game_count(int n):
    """ValueError unless n games, 1 to MAX_RANDOM_GAMES, may be played in one call."""
    if not 1 <= n <= MAX_RANDOM_GAMES:
        raise ValueError(f"n: {n} games; 1 to {MAX_RANDOM_GAMES:,} are played in one call")


cdef void shuffle_ints(int* a, int n, Rng* rng) noexcept nogil:
    """A uniformly random order of a[0..n), in place (Fisher-Yates, from the end)."""
    cdef int i, j, x
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        x = a[i]
        a[i] = a[j]
        a[j] = x


cdef void sort_ints(int* a, int n) noexcept nogil:
    """Ascending, in place (insertion: lists of a few dozen: moves, cards)."""
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v
