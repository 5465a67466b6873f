# cython: language_level=3
"""Plain C data that every game's compiled core shares: the random generator's state,
the special values of `current_player`, and the modes of the game parameter `returns`.

A game's core cimports this (`from engine_types cimport *`) and includes engine.pxi for
the functions over it; a .pxd of declarations only, so nothing is imported at run time.
"""
from libc.stdint cimport uint64_t

ctypedef struct Rng:
    uint64_t s

# current_player() at nodes where no seat decides.
cdef enum:
    CHANCE = -1
    TERMINAL = -4

# The game parameter `returns` (RETURNS_MODES in each game's Python face, in this order).
cdef enum:
    RETURNS_WIN = 0      # zero-sum: the winners share
    RETURNS_SCORE = 1    # final score
    RETURNS_MARGIN = 2   # final score minus the mean of the other players'
