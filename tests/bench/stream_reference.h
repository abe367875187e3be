// tests/bench/stream_reference.h — a plain STREAM (McCalpin) to measure gpuplan's probe against.
#pragma once

#include <cstddef>

namespace stream_reference {

struct Rates {
  double copy = 0, scale = 0, add = 0, triad = 0;  // best rate, B/s, STREAM's byte counts
  bool valid = false;                              // allocated, and STREAM's result check passed
};

// n doubles per array, split in `threads` contiguous chunks (first touch by their thread),
// `ntimes` repetitions of the four kernels, the first not counted.
Rates Run(size_t n, int threads, int ntimes);

}  // namespace stream_reference
