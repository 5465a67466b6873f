// UCT's scan of a node's arms (ext/engine/search.pxi, uct_select), written in C so that
// it runs on vectors: at a plan the root has hundreds of arms and the scan is most of a
// tree step. Like net_kernels.h, the compiler makes an AVX2 copy beside the baseline one
// (x86-64 and an ELF system), chosen once at load. Every copy gives the choice of a
// scalar loop over the arms: each bound is one multiply and one add (target "avx2" does
// not enable FMA, so nothing is contracted), and taking the largest of exact values does
// not depend on the order they are compared in.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) && !defined(GUTENBERG_PORTABLE)
#define UCT_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define UCT_KERNEL
#endif

#include <math.h>
#include <string.h>

typedef double uct_v4 __attribute__((vector_size(32)));

// The arm UCT takes among n: the first unvisited one (bonus INFINITY), else the first
// of the highest bounds mean + k bonus, where bonus is 1 / sqrt(visits) and k the node's
// c sqrt(ln N). With k 0 (a node visited once) the bound is the mean.
static UCT_KERNEL int uct_argmax(const double* __restrict mean, const double* __restrict bonus, int n,
                                 double k) {
    int i = 0;
    if (!(k > 0.0)) {
        int choice = 0;
        double best = -INFINITY;
        for (i = 0; i < n; i++) {
            if (bonus[i] == INFINITY) return i;
            if (mean[i] > best) {
                best = mean[i];
                choice = i;
            }
        }
        return choice;
    }
    // One pass, four lanes at a time: each lane keeps its highest bound and the first arm
    // with it (a later arm must be higher to replace it); then the highest of the lanes,
    // ties to the first arm, and the rest one by one.
    uct_v4 kv = {k, k, k, k};
    uct_v4 top = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    uct_v4 at = {0.0, 1.0, 2.0, 3.0};   // arm indices, exact as doubles
    uct_v4 top_at = at;
    const uct_v4 four = {4.0, 4.0, 4.0, 4.0};
    for (; i + 4 <= n; i += 4) {
        // Loaded in place (unaligned: a node's arms start anywhere in the pool), not by a
        // helper returning a vector, which clang refuses outside the AVX2 copy.
        uct_v4 m, b;
        memcpy(&m, mean + i, sizeof m);
        memcpy(&b, bonus + i, sizeof b);
        uct_v4 u = m + kv * b;
        auto higher = u > top;   // a lane mask
        top = higher ? u : top;
        top_at = higher ? at : top_at;
        at += four;
    }
    double best = -INFINITY;
    int choice = 0;
    for (int j = 0; j < 4; j++) {
        if (top[j] > best || (top[j] == best && (int)top_at[j] < choice)) {
            best = top[j];
            choice = (int)top_at[j];
        }
    }
    for (; i < n; i++) {
        double u = mean[i] + k * bonus[i];
        if (u > best) {
            best = u;
            choice = i;
        }
    }
    return choice;
}
