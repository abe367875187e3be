// tests/bench/bench_gemm.cpp — GFLOP/s of gpuplan's CPU reference GEMM (`bench_gemm` target),
// next to OpenBLAS and Eigen when CMake found them, and to this machine's FMA peak measured in
// the same run. Timings on shared VMs swing 20-25% run to run, so every ratio printed here
// (gpuplan / OpenBLAS, gpuplan / peak) comes from one run; compare ratios, not raw numbers.
// Not a test: nothing here fails on time.
//
// Usage: bench_gemm [--min-n N] [--max-n N] [--reps R]
//   natively: N = 256 ... 4096 on 1 and 2 threads; in wasm (node): gpuplan only, up to 2048.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gpuplan/gemm.h"

#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
#define BENCH_THREADS 1
#include <thread>
#else
#define BENCH_THREADS 0
#endif

#if defined(GPUPLAN_BENCH_OPENBLAS)
#include <cblas.h>
#if defined(__linux__)
#include <unistd.h>
#endif
#endif

#if defined(GPUPLAN_BENCH_EIGEN)
namespace gpuplan_bench {
int EigenMaxThreads();
void EigenSgemm(int n, const float* a, const float* b, float* c, int threads);
void EigenDgemm(int n, const double* a, const double* b, double* c, int threads);
}  // namespace gpuplan_bench
#endif

using namespace gpuplan;

namespace {

volatile double g_sink = 0;  // keeps results alive

double Seconds(const std::function<void()>& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// At least `reps` timed runs and at least `min_total_s` seconds, after one untimed run: the
// median (what a caller meets: thread starts, first touches and all) and the best (the run
// least disturbed by neighbours on a shared VM). A gap between them is a finding, not noise.
struct Timing {
  double median = 0, best = 0;
};

Timing TimeRuns(int reps, double min_total_s, const std::function<void()>& fn) {
  fn();
  std::vector<double> runs;
  double total = 0;
  for (int i = 0; (i < reps || total < min_total_s) && i < 100; ++i) {
    runs.push_back(Seconds(fn));
    total += runs.back();
  }
  std::sort(runs.begin(), runs.end());
  const size_t m = runs.size() / 2;
  return {runs.size() % 2 ? runs[m] : (runs[m - 1] + runs[m]) / 2, runs.front()};
}

// GFLOP/s of a Timing: {median, best}.
struct Rate {
  double median = 0, best = 0;  // 0: not measured
};
Rate RateOf(double flops, const Timing& t) { return {flops / t.median / 1e9, flops / t.best / 1e9}; }

#if defined(GPUPLAN_BENCH_OPENBLAS) || defined(GPUPLAN_BENCH_EIGEN)
// OpenBLAS's worker threads spin for a while after a call before they sleep, and so do
// OpenMP's (Eigen); on a 2-core machine that would steal a core from whatever is timed next.
void Settle() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }
#endif

// [SECTION] FMA peak ---------------------------------------------------------------------
// kChains independent chains acc = acc * x + y. An FMA has ~4 cycles of latency and current x86
// cores issue two per cycle, so at least 8 chains are needed; 16 leave margin and still fit in
// 32 zmm. Without FMA (SSE2, wasm SIMD128) each step is a mul and a dependent add: 12 chains
// cover their latency and still fit 16 registers, which V8 uses on x86-64.
template <typename T, int kLanes>
struct Vec {
  typedef T type __attribute__((vector_size(sizeof(T) * kLanes)));
};

template <typename T, int kLanes, int kChains>
[[gnu::always_inline]] inline double Chains(int64_t iters) {
  using V = typename Vec<T, kLanes>::type;
  V acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = V{} + static_cast<T>(i) * static_cast<T>(1e-3);
  const V x = V{} + static_cast<T>(0.999999);
  const V y = V{} + static_cast<T>(1e-7);
  for (int64_t it = 0; it < iters; ++it) {
#pragma GCC unroll 16
    for (int i = 0; i < kChains; ++i) acc[i] = acc[i] * x + y;
  }
  double sum = 0;
  for (int i = 0; i < kChains; ++i) {
    for (int l = 0; l < kLanes; ++l) sum += static_cast<double>(acc[i][l]);
  }
  return sum;
}

constexpr int kPeakChainsNoFma = 12;

double ChainsGeneric32(int64_t iters) { return Chains<float, 4, kPeakChainsNoFma>(iters); }
double ChainsGeneric64(int64_t iters) { return Chains<double, 2, kPeakChainsNoFma>(iters); }
#if defined(__x86_64__) || defined(__i386__)
constexpr int kPeakChains = 16;
__attribute__((target("avx2,fma"))) double ChainsAvx2F32(int64_t iters) {
  return Chains<float, 8, kPeakChains>(iters);
}
__attribute__((target("avx2,fma"))) double ChainsAvx2F64(int64_t iters) {
  return Chains<double, 4, kPeakChains>(iters);
}
__attribute__((target("avx512f,fma"))) double ChainsAvx512F32(int64_t iters) {
  return Chains<float, 16, kPeakChains>(iters);
}
__attribute__((target("avx512f,fma"))) double ChainsAvx512F64(int64_t iters) {
  return Chains<double, 8, kPeakChains>(iters);
}
#endif

struct PeakLoop {
  double (*fn)(int64_t);
  double flops_per_iter;
  const char* what;
};

PeakLoop PeakLoopFor(bool f64) {
#if defined(__x86_64__) || defined(__i386__)
  switch (GemmBestIsa()) {
    case GemmIsa::kAvx512:
      return f64 ? PeakLoop{&ChainsAvx512F64, 2.0 * 8 * kPeakChains, "512-bit FMA"}
                 : PeakLoop{&ChainsAvx512F32, 2.0 * 16 * kPeakChains, "512-bit FMA"};
    case GemmIsa::kAvx2:
      return f64 ? PeakLoop{&ChainsAvx2F64, 2.0 * 4 * kPeakChains, "256-bit FMA"}
                 : PeakLoop{&ChainsAvx2F32, 2.0 * 8 * kPeakChains, "256-bit FMA"};
    default:
      break;
  }
#endif
#if defined(__wasm_simd128__)
  const char* what = "simd128 mul+add";
#else
  const char* what = "128-bit mul+add";
#endif
  return f64 ? PeakLoop{&ChainsGeneric64, 2.0 * 2 * kPeakChainsNoFma, what}
             : PeakLoop{&ChainsGeneric32, 2.0 * 4 * kPeakChainsNoFma, what};
}

// Calls `fn` until `seconds` have passed. V8 first runs a wasm function in its baseline tier,
// compiles the optimized version in the background, and switches only between calls, so a long
// first call would be timed in baseline code; many short calls over a while let it switch.
void WarmUp(double seconds, const std::function<void()>& fn) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) fn();
}

#if defined(__EMSCRIPTEN__)
constexpr double kWarmUpSeconds = 1.0;
#else
constexpr double kWarmUpSeconds = 0.1;
#endif

// GFLOP/s of the peak loop on `threads` threads at once (all start together; the slowest
// decides), after a warm-up of short calls.
double MeasurePeak(const PeakLoop& loop, int threads) {
  WarmUp(kWarmUpSeconds, [&] { g_sink = g_sink + loop.fn(10000); });
  const int64_t iters = 20'000'000;
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const double s = Seconds([&] {
#if BENCH_THREADS
      std::vector<std::thread> workers;
      for (int t = 1; t < threads; ++t) workers.emplace_back([&] { g_sink = g_sink + loop.fn(iters); });
      g_sink = g_sink + loop.fn(iters);
      for (std::thread& w : workers) w.join();
#else
      (void)threads;
      g_sink = g_sink + loop.fn(iters);
#endif
    });
    best = std::max(best, loop.flops_per_iter * static_cast<double>(iters) * threads / s / 1e9);
  }
  return best;
}

// [SECTION] OpenBLAS core check ----------------------------------------------------------
#if defined(GPUPLAN_BENCH_OPENBLAS)
bool IsAvx512Core(const std::string& core) {
  std::string lower = core;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const char* name : {"skylakex", "cooperlake", "sapphirerapids"}) {
    if (lower.find(name) != std::string::npos) return true;
  }
  return false;
}

// Debian's OpenBLAS 0.3.21 does not recognise recent CPUs (Zen 5, Emerald Rapids) and falls back
// to a narrow kernel, which would flatter gpuplan by 2-5x. OpenBLAS reads OPENBLAS_CORETYPE once,
// while the library loads, so the only way to set it from here is to start again with it set.
void EnsureOpenBlasCore(char** argv) {
  const std::string core = openblas_get_corename();
  const char* env = std::getenv("OPENBLAS_CORETYPE");
#if defined(__linux__)
  if (env == nullptr && !IsAvx512Core(core) && GemmBestIsa() == GemmIsa::kAvx512) {
    std::printf("OpenBLAS picked '%s' on an AVX-512 CPU; restarting with OPENBLAS_CORETYPE=SkylakeX\n", core.c_str());
    std::fflush(stdout);
    setenv("OPENBLAS_CORETYPE", "SkylakeX", 1);
    execv("/proc/self/exe", argv);
    std::printf("(restart failed; continuing with '%s')\n", core.c_str());
  }
#else
  (void)argv;
#endif
  std::printf("OpenBLAS %s, core: %s (OPENBLAS_CORETYPE=%s)\n", OPENBLAS_VERSION, core.c_str(), env ? env : "unset");
  if (GemmBestIsa() == GemmIsa::kAvx512 && !IsAvx512Core(core)) {
    std::printf(
        "\n!!! WARNING: OpenBLAS runs its '%s' kernel on a CPU with AVX-512. Its numbers below are NOT\n"
        "!!! OpenBLAS at its best; set OPENBLAS_CORETYPE=SkylakeX (OpenBLAS 0.3.21) and run again.\n\n",
        core.c_str());
  }
}
#endif

// [SECTION] GEMM measurements ------------------------------------------------------------
template <typename T>
std::vector<T> RandomMatrix(int n, uint32_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n) * n);
  uint32_t state = seed * 2654435761u + 1u;
  for (T& x : v) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<T>(static_cast<double>(state >> 8) / static_cast<double>(1u << 24) - 0.5);
  }
  return v;
}

template <typename T>
void Ours(int n, const T* a, const T* b, T* c, int threads) {
  if constexpr (sizeof(T) == sizeof(float)) {
    Sgemm(n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, threads);
  } else {
    Dgemm(n, n, n, 1.0, a, n, b, n, 0.0, c, n, threads);
  }
}

struct Row {
  Rate ours;
  Rate openblas;
  Rate eigen;
  double max_rel_diff = -1;  // gpuplan vs OpenBLAS (or Eigen), relative to max |C|; -1: no other
};

template <typename T>
Row Measure(int n, int threads, int reps) {
  const auto a = RandomMatrix<T>(n, 1);
  const auto b = RandomMatrix<T>(n, 2);
  std::vector<T> c(static_cast<std::size_t>(n) * n);
  std::vector<T> other(c.size());
  const double flops = 2.0 * n * n * n;
  const double min_total_s = 0.3;
  Row row;
  row.ours = RateOf(flops, TimeRuns(reps, min_total_s, [&] { Ours(n, a.data(), b.data(), c.data(), threads); }));
  bool have_other = false;
#if defined(GPUPLAN_BENCH_OPENBLAS)
  openblas_set_num_threads(threads);
  row.openblas = RateOf(flops, TimeRuns(reps, min_total_s, [&] {
                          if constexpr (sizeof(T) == sizeof(float)) {
                            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n,
                                        b.data(), n, 0.0f, other.data(), n);
                          } else {
                            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n,
                                        b.data(), n, 0.0, other.data(), n);
                          }
                        }));
  have_other = true;
  Settle();
#endif
#if defined(GPUPLAN_BENCH_EIGEN)
  if (threads <= gpuplan_bench::EigenMaxThreads()) {
    std::vector<T> eigen_c(c.size());
    row.eigen = RateOf(flops, TimeRuns(reps, min_total_s, [&] {
                         if constexpr (sizeof(T) == sizeof(float)) {
                           gpuplan_bench::EigenSgemm(n, a.data(), b.data(), eigen_c.data(), threads);
                         } else {
                           gpuplan_bench::EigenDgemm(n, a.data(), b.data(), eigen_c.data(), threads);
                         }
                       }));
    Settle();
    if (!have_other) {
      other.swap(eigen_c);
      have_other = true;
    }
  }
#endif
  if (have_other) {
    double max_abs = 0;
    double max_diff = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      max_abs = std::max(max_abs, std::fabs(static_cast<double>(other[i])));
      max_diff = std::max(max_diff, std::fabs(static_cast<double>(c[i]) - static_cast<double>(other[i])));
    }
    row.max_rel_diff = max_abs > 0 ? max_diff / max_abs : max_diff;
  }
  g_sink = g_sink + static_cast<double>(c[c.size() / 2]);
  return row;
}

// "median/best" GFLOP/s.
std::string Gflops(const Rate& r) {
  if (r.median <= 0) return "-";
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.1f/%.1f", r.median, r.best);
  return buf;
}

std::string Diff(double v) {
  if (v < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1e", v);
  return buf;
}

std::string Ratio(double num, double den) {
  if (num <= 0 || den <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", num / den);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
#if defined(__EMSCRIPTEN__)
  int max_n = 2048;
  const char* where = "wasm (node)";
#else
  int max_n = 4096;
  const char* where = "native";
#endif
  int min_n = 256;
  int reps = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--min-n" && i + 1 < argc) {
      min_n = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--max-n" && i + 1 < argc) {
      max_n = std::atoi(argv[++i]);
    } else if (arg == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: bench_gemm [--min-n N] [--max-n N] [--reps R]   (N doubles from min to max)\n");
      return 2;
    }
  }
#if defined(GPUPLAN_BENCH_OPENBLAS)
  EnsureOpenBlasCore(argv);
#endif
#if BENCH_THREADS
  const std::vector<int> thread_counts = {1, 2};
#else
  const std::vector<int> thread_counts = {1};
#endif
  std::printf("gpuplan bench_gemm, %s: kernel %s; median/best of >= %d runs (and >= 0.3 s) after a warm-up\n", where,
              GemmKernelName(), reps);
#if defined(GPUPLAN_BENCH_EIGEN)
  std::printf("Eigen: built for the host CPU; threads up to %d\n", gpuplan_bench::EigenMaxThreads());
#endif

  {
    const auto a = RandomMatrix<float>(128, 1);
    const auto ad = RandomMatrix<double>(128, 1);
    std::vector<float> c(a.size());
    std::vector<double> cd(ad.size());
    WarmUp(kWarmUpSeconds, [&] {
      Ours(128, a.data(), a.data(), c.data(), 1);
      Ours(128, ad.data(), ad.data(), cd.data(), 1);
    });
  }

  double peak[2][3] = {};  // [f64][threads]
  for (int f64 = 0; f64 < 2; ++f64) {
    const PeakLoop loop = PeakLoopFor(f64 != 0);
    for (int threads : thread_counts) {
      peak[f64][threads] = MeasurePeak(loop, threads);
      std::printf("peak (%s, %s, %d thread%s): %.1f GFLOP/s\n", loop.what, f64 ? "fp64" : "fp32", threads,
                  threads > 1 ? "s" : "", peak[f64][threads]);
    }
  }
  std::printf("\n%-5s %5s %3s %15s %15s %15s %12s %10s %12s\n", "type", "N", "thr", "gpuplan", "OpenBLAS", "Eigen",
              "gp/OpenBLAS", "gp/peak", "max rel diff");
  for (int f64 = 0; f64 < 2; ++f64) {
    for (int n = min_n; n <= max_n; n *= 2) {
      for (int threads : thread_counts) {
        const Row row = f64 ? Measure<double>(n, threads, reps) : Measure<float>(n, threads, reps);
        std::printf("%-5s %5d %3d %15s %15s %15s %12s %10s %12s\n", f64 ? "dgemm" : "sgemm", n, threads,
                    Gflops(row.ours).c_str(), Gflops(row.openblas).c_str(), Gflops(row.eigen).c_str(),
                    Ratio(row.ours.median, row.openblas.median).c_str(), Ratio(row.ours.median, peak[f64][threads]).c_str(),
                    Diff(row.max_rel_diff).c_str());
        std::fflush(stdout);
      }
    }
  }
  std::printf("(GFLOP/s = 2 N^3 / time, median/best of the runs; the ratios are of the medians; gp/peak against\n"
              " the peak loop above on as many threads)\n");
  return 0;
}
