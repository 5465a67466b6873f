// One translation unit: the module Cython generates from _native.pyx (the rules of
// ext/core.pyx plus `cdef public` wrappers), then the OpenSpiel glue, which uses the
// structs and wrappers defined above it.
#include "_native.cpp"
#include "gutenberg_spiel.cc"
