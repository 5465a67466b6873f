// The network's two hottest loops (ext/engine/learned.pxi), written in C so that the
// compiler can make an AVX2 copy beside the baseline one (x86-64 and an ELF system:
// the copy is chosen once, at load, by the processor). The build stays portable, and
// both copies give the same bits: each element is one multiply and one add, in the same
// order (target "avx2" does not enable FMA, so nothing is contracted), and there is no
// sum across elements whose order could change.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__) && !defined(GUTENBERG_PORTABLE)
#define NET_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define NET_KERNEL
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { NET_SCAN_BLOCK = 16 };   // features compared at once (64 bytes)

// y += W (obs - last): for each feature whose value differs, its row of w (row_of: the
// row of each feature, -1 for none; rows are `width` floats) times the difference,
// feature by feature in order. Only the blocks of NET_SCAN_BLOCK features that start at
// `blocks` are scanned (the others have no row), and a block whose bytes are all as in
// `last` is skipped at once.
static NET_KERNEL void net_first_layer_update(float* __restrict y, const float* __restrict obs,
                                              const float* __restrict last, int size,
                                              const int32_t* __restrict row_of, const float* __restrict w,
                                              int width, const int32_t* __restrict blocks, int n_blocks) {
    for (int b = 0; b < n_blocks; b++) {
        int begin = blocks[b], end = begin + NET_SCAN_BLOCK;
        if (end <= size && memcmp(obs + begin, last + begin, NET_SCAN_BLOCK * sizeof(float)) == 0)
            continue;
        if (end > size) end = size;
        for (int k = begin; k < end; k++) {
            float x = obs[k] - last[k];
            if (x != 0.0f && row_of[k] >= 0) {
                const float* r = w + (size_t)row_of[k] * width;
                for (int j = 0; j < width; j++) y[j] += x * r[j];
            }
        }
    }
}

// out = relu(b + W h) for h >= 0 given by input unit: w_by_input holds W transposed
// (n_in rows of n_out); the inputs the ReLU zeroed add nothing and are skipped, and each
// out[j] sums its terms in the order of the inputs.
static NET_KERNEL void net_relu_layer(float* __restrict out, const float* __restrict h, int n_in,
                                      const float* __restrict w_by_input, const float* __restrict b, int n_out) {
    for (int j = 0; j < n_out; j++) out[j] = b[j];
    for (int i = 0; i < n_in; i++) {
        float x = h[i];
        if (x > 0.0f) {
            const float* r = w_by_input + (size_t)i * n_out;
            for (int j = 0; j < n_out; j++) out[j] += r[j] * x;
        }
    }
    for (int j = 0; j < n_out; j++)
        if (!(out[j] > 0.0f)) out[j] = 0.0f;
}
