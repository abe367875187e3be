// core/src/gemm.cpp — the CPU reference GEMM: kernel families, run-time dispatch, threads.
//
// Index:
//   [SECTION] Kernel families (register tiles and cache blocks per ISA)
//   [SECTION] Dispatch
//   [SECTION] Threads and packing buffers
//   [SECTION] Public API
//   [SECTION] Naive references
//
// The method is GotoBLAS/BLIS (Goto & van de Geijn, ACM TOMS 34(3) 2008; Van Zee & van de Geijn,
// ACM TOMS 41(3) 2015); the loops and the micro-kernel are in gemm_kernel.h, written once with
// vector extensions. The library is compiled for baseline x86-64, so the AVX2 and AVX-512
// instantiations are wrapped in functions with a target attribute and chosen at run time with
// __builtin_cpu_supports (cpu_platform.h): one binary runs everywhere and still reaches the FMA
// peak where the wide units exist. (Per-file -mavx512f flags would risk the linker keeping an
// AVX-512 copy of a shared inline function for callers on CPUs without it.)
#include "gpuplan/gemm.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu_platform.h"
#include "gemm_kernel.h"

namespace gpuplan {
namespace {

using gemm_detail::Config;
using gemm_detail::Problem;
using gemm_detail::TeamPart;

// [SECTION] Kernel families --------------------------------------------------------------
// Register tiles: accumulators + B vectors + one broadcast must fit the register file (32 zmm,
// 16 ymm/xmm), and FMA latency x FMA ports (4 x 2 on current x86) independent accumulators are
// the minimum to keep both FMA pipes busy.
//
// AVX-512, 6 x 64 (6 x 4 zmm): 24 accumulators, and per k step 4 vector loads + 6 broadcasts
// for 24 FMAs, fewer loads per FMA than 14 x 32 (16 per 28). Measured on a 2-vCPU Zen 5
// (48 KiB L1d, 1 MiB L2): 6 x 64 with kc = 512 reached ~195-200 GFLOP/s at N = 2048, above
// 14 x 32 (~165-175), 12 x 32, 8 x 48 and 9 x 48 (~185). kc = 512 floats makes the A
// micro-panel 12 KiB (L1) and the B micro-panel 128 KiB (L2); mc x kc of A is 240 KiB (L2).
using SgemmAvx512 = Config<float, 16, 6, 4, 120, 512, 4096>;
using DgemmAvx512 = Config<double, 8, 6, 4, 120, 256, 2048>;  // the same bytes per block
// AVX2 + FMA, 6 x 16 / 6 x 8: BLIS's Haswell tiles and blocks (12 accumulators of 16 ymm).
using SgemmAvx2 = Config<float, 8, 6, 2, 168, 256, 4080>;
using DgemmAvx2 = Config<double, 4, 6, 2, 72, 256, 4080>;
// 16-byte vectors: SSE2, NEON, or WebAssembly SIMD128. No FMA in SSE2 or SIMD128, so each
// update is a mul and an add with a temporary: 4 x 8 (8 accumulators) leaves room in 16
// registers, which V8 also allocates on x86-64.
using SgemmGeneric = Config<float, 4, 4, 2, 128, 256, 4096>;
using DgemmGeneric = Config<double, 2, 4, 2, 64, 256, 4096>;

void SgemmBlockedGeneric(const Problem<float>& p, float* a_pack, float* b_pack, const TeamPart& team) {
  gemm_detail::GemmBlocked<SgemmGeneric>(p, a_pack, b_pack, team);
}
void DgemmBlockedGeneric(const Problem<double>& p, double* a_pack, double* b_pack, const TeamPart& team) {
  gemm_detail::GemmBlocked<DgemmGeneric>(p, a_pack, b_pack, team);
}

#if GPUPLAN_CPU_X86
// The feature sets are the ones platform::HasAvx2Fma and HasAvx512 test at run time.
__attribute__((target(GPUPLAN_CPU_AVX2_FEATURES))) void SgemmBlockedAvx2(const Problem<float>& p, float* a_pack,
                                                                         float* b_pack, const TeamPart& team) {
  gemm_detail::GemmBlocked<SgemmAvx2>(p, a_pack, b_pack, team);
}
__attribute__((target(GPUPLAN_CPU_AVX2_FEATURES))) void DgemmBlockedAvx2(const Problem<double>& p, double* a_pack,
                                                                         double* b_pack, const TeamPart& team) {
  gemm_detail::GemmBlocked<DgemmAvx2>(p, a_pack, b_pack, team);
}
__attribute__((target(GPUPLAN_CPU_AVX512_FEATURES))) void SgemmBlockedAvx512(const Problem<float>& p, float* a_pack,
                                                                             float* b_pack, const TeamPart& team) {
  gemm_detail::GemmBlocked<SgemmAvx512>(p, a_pack, b_pack, team);
}
__attribute__((target(GPUPLAN_CPU_AVX512_FEATURES))) void DgemmBlockedAvx512(const Problem<double>& p, double* a_pack,
                                                                             double* b_pack, const TeamPart& team) {
  gemm_detail::GemmBlocked<DgemmAvx512>(p, a_pack, b_pack, team);
}
#endif

template <typename T>
struct Family {
  void (*run)(const Problem<T>&, T*, T*, const TeamPart&);
  std::size_t (*pack_a_size)(int m, int k);
  std::size_t (*pack_b_size)(int n, int k);
  int mr;
  int nr;
};

template <class Cfg>
constexpr Family<typename Cfg::Scalar> MakeFamily(void (*run)(const Problem<typename Cfg::Scalar>&,
                                                              typename Cfg::Scalar*, typename Cfg::Scalar*,
                                                              const TeamPart&)) {
  return {run, &gemm_detail::PackASize<Cfg>, &gemm_detail::PackBSize<Cfg>, Cfg::kMr, Cfg::kNr};
}

struct Kernels {
  const char* name;
  Family<float> s;
  Family<double> d;
};

#if defined(__wasm_simd128__)
constexpr const char* kGenericName = "simd128: sgemm 4x8, dgemm 4x4";
#elif defined(__wasm__)
constexpr const char* kGenericName = "wasm scalar (no -msimd128): sgemm 4x8, dgemm 4x4";
#elif defined(__x86_64__) || defined(__i386__)
constexpr const char* kGenericName = "sse2: sgemm 4x8, dgemm 4x4";
#elif defined(__ARM_NEON)
constexpr const char* kGenericName = "neon: sgemm 4x8, dgemm 4x4";
#else
constexpr const char* kGenericName = "generic vectors: sgemm 4x8, dgemm 4x4";
#endif
static_assert(SgemmGeneric::kMr == 4 && SgemmGeneric::kNr == 8 && DgemmGeneric::kNr == 4, "names above");

const Kernels kGenericKernels = {kGenericName, MakeFamily<SgemmGeneric>(&SgemmBlockedGeneric),
                                 MakeFamily<DgemmGeneric>(&DgemmBlockedGeneric)};
#if GPUPLAN_CPU_X86
static_assert(SgemmAvx2::kMr == 6 && SgemmAvx2::kNr == 16 && DgemmAvx2::kNr == 8, "names below");
static_assert(SgemmAvx512::kMr == 6 && SgemmAvx512::kNr == 64 && DgemmAvx512::kNr == 32, "names below");
const Kernels kAvx2Kernels = {"avx2+fma: sgemm 6x16, dgemm 6x8", MakeFamily<SgemmAvx2>(&SgemmBlockedAvx2),
                              MakeFamily<DgemmAvx2>(&DgemmBlockedAvx2)};
const Kernels kAvx512Kernels = {"avx512: sgemm 6x64, dgemm 6x32", MakeFamily<SgemmAvx512>(&SgemmBlockedAvx512),
                                MakeFamily<DgemmAvx512>(&DgemmBlockedAvx512)};
#endif

// [SECTION] Dispatch ---------------------------------------------------------------------
GemmIsa DetectBestIsa() {
  if (platform::HasAvx512()) return GemmIsa::kAvx512;
  if (platform::HasAvx2Fma()) return GemmIsa::kAvx2;
  return GemmIsa::kGeneric;
}

GemmIsa BestIsa() {
  static const GemmIsa best = DetectBestIsa();  // the only state kept across calls
  return best;
}

// nullptr when `isa` cannot run here.
const Kernels* Resolve(GemmIsa isa) {
  const GemmIsa best = BestIsa();
  if (isa == GemmIsa::kAuto) isa = best;
  switch (isa) {
    case GemmIsa::kGeneric:
      return &kGenericKernels;
#if GPUPLAN_CPU_X86
    case GemmIsa::kAvx2:
      return best == GemmIsa::kAvx2 || best == GemmIsa::kAvx512 ? &kAvx2Kernels : nullptr;
    case GemmIsa::kAvx512:
      return best == GemmIsa::kAvx512 ? &kAvx512Kernels : nullptr;
#endif
    default:
      return nullptr;
  }
}

template <typename T>
const Family<T>& FamilyOf(const Kernels& kernels);
template <>
const Family<float>& FamilyOf<float>(const Kernels& kernels) {
  return kernels.s;
}
template <>
const Family<double>& FamilyOf<double>(const Kernels& kernels) {
  return kernels.d;
}

// [SECTION] Threads and packing buffers --------------------------------------------------
template <typename Acc, typename T>
void NaiveLoop(const Problem<T>& p) {
  for (int i = 0; i < p.m; ++i) {
    for (int j = 0; j < p.n; ++j) {
      Acc sum = 0;
      for (int l = 0; l < p.k; ++l) sum += static_cast<Acc>(p.a[i * p.lda + l]) * static_cast<Acc>(p.b[l * p.ldb + j]);
      T& cij = p.c[i * p.ldc + j];
      const Acc scaled = static_cast<Acc>(p.alpha) * sum;
      cij = p.beta == T(0) ? static_cast<T>(scaled) : static_cast<T>(scaled + static_cast<Acc>(p.beta) * cij);
    }
  }
}

// One thread's share: its own 64-byte-aligned packing buffers (per call, so nothing is shared
// between threads or kept between calls), then the blocked loops.
template <typename T>
void RunPart(const Family<T>& family, const Problem<T>& p) {
  const platform::AlignedBuffer a_pack(family.pack_a_size(p.m, p.k) * sizeof(T));
  const platform::AlignedBuffer b_pack(family.pack_b_size(p.n, p.k) * sizeof(T));
  if (a_pack.As<T>() == nullptr || b_pack.As<T>() == nullptr) {
    NaiveLoop<T>(p);  // out of memory for packing: slower, but still the right answer
    return;
  }
  family.run(p, a_pack.As<T>(), b_pack.As<T>(), TeamPart{});
}

// Below this many flops per thread, starting a thread (tens of microseconds) costs more than
// it saves: 2 * 128^3 flops is ~20 us on one AVX-512 core.
constexpr double kMinFlopsPerThread = 2.0 * 128 * 128 * 128;
constexpr int kMaxThreads = 256;

// Splits the work over `threads`. A problem wider than tall (more nr-wide panels of N than
// mr-tall tiles of M) goes in independent slabs along N: each thread packs its own columns of
// B and its own copy of A (O(m k) against O(m n k / threads) of arithmetic). Otherwise, as for
// square problems, the team shares B (TeamPart in gemm_kernel.h): each block is packed once,
// a share by each thread, into one buffer, and each thread computes its own rows of C; packing
// all of B in every thread cost 0.52x OpenBLAS at N = 512 on two threads.
template <typename T>
void RunThreaded(const Family<T>& family, const Problem<T>& p, int threads) {
  const double flops = 2.0 * p.m * p.n * p.k;
  const int units_n = (p.n + family.nr - 1) / family.nr;
  const int units_m = (p.m + family.mr - 1) / family.mr;
  const bool split_n = units_n >= units_m;
  const int units = split_n ? units_n : units_m;
  int parts = platform::kThreadsAvailable ? std::min({threads, kMaxThreads, units}) : 1;
  parts = std::max(1, static_cast<int>(std::min(static_cast<double>(parts), flops / kMinFlopsPerThread)));
  if (parts == 1) {
    RunPart<T>(family, p);
    return;
  }
  if (!split_n) {
    const platform::AlignedBuffer b_pack(family.pack_b_size(p.n, p.k) * sizeof(T));
    std::vector<platform::AlignedBuffer> a_packs(static_cast<size_t>(parts));
    bool packed = b_pack.As<T>() != nullptr;
    for (platform::AlignedBuffer& a : a_packs) packed = packed && a.Allocate(family.pack_a_size(p.m, p.k) * sizeof(T));
    if (!packed) {
      NaiveLoop<T>(p);  // out of memory for packing: slower, but still the right answer
      return;
    }
    platform::Barrier barrier(parts);
    const auto wait = [](void* b) { static_cast<platform::Barrier*>(b)->Wait(); };
    // Lockstep: the shares wait on one another at every block of B.
    platform::RunTeam(parts, platform::Shares::kLockstep, [&](int t) {
      family.run(p, a_packs[static_cast<size_t>(t)].As<T>(), b_pack.As<T>(), TeamPart{t, parts, wait, &barrier});
    });
    return;
  }
  auto part = [&](int t) {
    const int u0 = static_cast<int>(static_cast<int64_t>(units) * t / parts);
    const int u1 = static_cast<int>(static_cast<int64_t>(units) * (t + 1) / parts);
    Problem<T> q = p;
    const int j0 = u0 * family.nr;
    q.n = std::min(p.n, u1 * family.nr) - j0;
    q.b = p.b + j0;
    q.c = p.c + j0;
    return q;
  };
  // Independent slabs: a share whose thread cannot be started is done here instead of failing.
  platform::RunTeam(parts, platform::Shares::kIndependent, [&](int t) { RunPart<T>(family, part(t)); });
}

// [SECTION] Public API -------------------------------------------------------------------
template <typename T>
bool Valid(int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, const T* c, int ldc) {
  if (m < 0 || n < 0 || k < 0) return false;
  if (lda < std::max(1, k) || ldb < std::max(1, n) || ldc < std::max(1, n)) return false;
  if (m > 0 && n > 0 && c == nullptr) return false;
  if (m > 0 && n > 0 && k > 0 && alpha != T(0) && (a == nullptr || b == nullptr)) return false;
  return true;
}

// C = beta * C, for alpha == 0 or k == 0; beta == 0 writes zeros without reading.
template <typename T>
void ScaleC(int m, int n, T beta, T* c, std::ptrdiff_t ldc) {
  for (int i = 0; i < m; ++i) {
    T* row = c + i * ldc;
    for (int j = 0; j < n; ++j) row[j] = beta == T(0) ? T(0) : beta * row[j];
  }
}

template <typename T>
bool Gemm(GemmIsa isa, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc,
          int threads) {
  const Kernels* kernels = Resolve(isa);
  if (kernels == nullptr) return false;
  if (!Valid(m, n, k, alpha, a, lda, b, ldb, c, ldc)) return true;
  if (m == 0 || n == 0) return true;
  if (k == 0 || alpha == T(0)) {
    ScaleC(m, n, beta, c, ldc);
    return true;
  }
  const Problem<T> p{m, n, k, alpha, beta, a, lda, b, ldb, c, ldc};
  RunThreaded(FamilyOf<T>(*kernels), p, std::max(1, threads));
  return true;
}

template <typename T>
void Naive(int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  if (!Valid(m, n, k, alpha, a, lda, b, ldb, c, ldc) || m == 0 || n == 0) return;
  if (k == 0 || alpha == T(0)) {
    ScaleC(m, n, beta, c, ldc);
    return;
  }
  NaiveLoop<double, T>(Problem<T>{m, n, k, alpha, beta, a, lda, b, ldb, c, ldc});
}

}  // namespace

bool GemmIsaSupported(GemmIsa isa) { return Resolve(isa) != nullptr; }

GemmIsa GemmBestIsa() { return BestIsa(); }

const char* GemmKernelName(GemmIsa isa) {
  const Kernels* kernels = Resolve(isa);
  return kernels == nullptr ? "unsupported" : kernels->name;
}

void Sgemm(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta, float* c,
           int ldc, int threads) {
  Gemm<float>(GemmIsa::kAuto, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, threads);
}

void Dgemm(int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb, double beta,
           double* c, int ldc, int threads) {
  Gemm<double>(GemmIsa::kAuto, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, threads);
}

bool Sgemm(GemmIsa isa, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
           float* c, int ldc, int threads) {
  return Gemm<float>(isa, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, threads);
}

bool Dgemm(GemmIsa isa, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
           double beta, double* c, int ldc, int threads) {
  return Gemm<double>(isa, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, threads);
}

// [SECTION] Naive references -------------------------------------------------------------
void SgemmNaive(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                float* c, int ldc) {
  Naive(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void DgemmNaive(int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb, double beta,
                double* c, int ldc) {
  Naive(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace gpuplan
