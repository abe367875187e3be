// tests/bench/stream_reference.cpp — the plain STREAM a user would compile: McCalpin's four
// loops from stream.c (https://www.cs.virginia.edu/stream/FTP/Code/stream.c), his byte counts
// and "best rate" over NTIMES with the first iteration skipped, his result check; compiled
// -O3 -march=native (tests/CMakeLists.txt). The only changes: the arrays are on the heap (the
// size is chosen at run time) in STREAM's static layout (three arrays back to back, OFFSET
// apart), and std::thread with a spin barrier stands in for `#pragma omp parallel for`
// (static schedule: one contiguous chunk per thread, first-touch initialised by it).
// Deliberately independent of gpuplan's code: it is the yardstick.
#include "stream_reference.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>
#include <vector>

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#include <immintrin.h>
#endif

namespace stream_reference {
namespace {

// STREAM's static arrays, sized at run time.
double* a;
double* b;
double* c;

double Seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// What `omp parallel for` does at each loop's end.
class Barrier {
 public:
  explicit Barrier(int n) : n_(n) {}
  void Wait() {
    const unsigned gen = gen_.load(std::memory_order_acquire);
    if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
      count_.store(0, std::memory_order_relaxed);
      gen_.fetch_add(1, std::memory_order_release);
      return;
    }
    while (gen_.load(std::memory_order_acquire) == gen) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
      _mm_pause();
#endif
    }
  }

 private:
  const int n_;
  std::atomic<int> count_{0};
  std::atomic<unsigned> gen_{0};
};

}  // namespace

Rates Run(size_t n, int threads, int ntimes) {
  Rates rates;
  n = n / 8 * 8;
  // OFFSET: 1 KiB + 64 B past a 4 KiB multiple, as gpuplan's probe lays its arrays out.
  const size_t stride = (n + 511) / 512 * 512 + (1024 + 64) / sizeof(double);
  double* block = static_cast<double*>(std::aligned_alloc(64, 3 * stride * sizeof(double)));
  if (!block) return rates;
  a = block;
  b = block + stride;
  c = block + 2 * stride;
  const double scalar = 3.0;
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  threads = 1;
#endif
  std::vector<std::vector<double>> times(4, std::vector<double>(static_cast<size_t>(ntimes)));
  Barrier barrier(threads);
  auto body = [&](int t) {
    const size_t lo = n * static_cast<size_t>(t) / static_cast<size_t>(threads) / 8 * 8;
    const size_t hi = t + 1 == threads ? n : n * static_cast<size_t>(t + 1) / static_cast<size_t>(threads) / 8 * 8;
    for (size_t j = lo; j < hi; j++) {
      a[j] = 1.0;
      b[j] = 2.0;
      c[j] = 0.0;
    }
    for (int k = 0; k < ntimes; k++) {
      double t0 = 0;
      barrier.Wait();
      if (t == 0) t0 = Seconds();
      for (size_t j = lo; j < hi; j++) c[j] = a[j];
      barrier.Wait();
      if (t == 0) times[0][static_cast<size_t>(k)] = Seconds() - t0;

      barrier.Wait();
      if (t == 0) t0 = Seconds();
      for (size_t j = lo; j < hi; j++) b[j] = scalar * c[j];
      barrier.Wait();
      if (t == 0) times[1][static_cast<size_t>(k)] = Seconds() - t0;

      barrier.Wait();
      if (t == 0) t0 = Seconds();
      for (size_t j = lo; j < hi; j++) c[j] = a[j] + b[j];
      barrier.Wait();
      if (t == 0) times[2][static_cast<size_t>(k)] = Seconds() - t0;

      barrier.Wait();
      if (t == 0) t0 = Seconds();
      for (size_t j = lo; j < hi; j++) a[j] = b[j] + scalar * c[j];
      barrier.Wait();
      if (t == 0) times[3][static_cast<size_t>(k)] = Seconds() - t0;
    }
  };
  std::vector<std::thread> team;
#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
  for (int t = 1; t < threads; ++t) team.emplace_back(body, t);
#endif
  body(0);
  for (std::thread& th : team) th.join();

  // checkSTREAMresults
  double aj = 1.0, bj = 2.0, cj = 0.0;
  for (int k = 0; k < ntimes; k++) {
    cj = aj;
    bj = scalar * cj;
    cj = aj + bj;
    aj = bj + scalar * cj;
  }
  bool ok = true;
  for (size_t j = 0; j < n; j += 997)
    ok = ok && std::fabs(a[j] - aj) / aj < 1e-13 && std::fabs(b[j] - bj) / bj < 1e-13 && std::fabs(c[j] - cj) / cj < 1e-13;

  const double bytes[4] = {2 * sizeof(double) * static_cast<double>(n), 2 * sizeof(double) * static_cast<double>(n),
                           3 * sizeof(double) * static_cast<double>(n), 3 * sizeof(double) * static_cast<double>(n)};
  double best[4];
  for (int k = 0; k < 4; k++) {
    double mintime = 1e300;
    for (int r = 1; r < ntimes; r++) mintime = std::fmin(mintime, times[static_cast<size_t>(k)][static_cast<size_t>(r)]);
    best[k] = bytes[k] / mintime;
  }
  std::free(block);
  rates.copy = best[0];
  rates.scale = best[1];
  rates.add = best[2];
  rates.triad = best[3];
  rates.valid = ok;
  return rates;
}

}  // namespace stream_reference
