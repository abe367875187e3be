// core/src/gemm_kernel.h — the ISA-neutral body of the blocked GEMM (private to gemm.cpp).
//
// Index:
//   [SECTION] Problem and configuration
//   [SECTION] Micro-kernel
//   [SECTION] Packing
//   [SECTION] Blocked loops
//
// Everything here is written once with GCC/Clang vector extensions and instantiated per kernel
// family: gemm.cpp wraps each instantiation in a function carrying __attribute__((target(...))),
// and because these templates are always_inline, their bodies are compiled for that target
// (AVX-512, AVX2+FMA) while the rest of the library stays portable. In a wasm build with
// -msimd128 the 16-byte vectors become SIMD128. The loop structure follows Goto & van de Geijn
// (ACM TOMS 2008) in the five-loop form of BLIS (Van Zee & van de Geijn, ACM TOMS 2015).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

// Unrolling the k loop by 4 hides the loop overhead on x86 (checked: the loop body is then 96
// vfmadd231ps zmm, 16 loads and 24 broadcasts, no spills). In wasm, clang groups the unrolled
// products per accumulator, which needs more live vectors than V8 has registers (15 xmm on
// x86-64); 2 measured best there.
#if defined(__wasm__)
#define GPUPLAN_GEMM_UNROLL_K _Pragma("GCC unroll 2")
#else
#define GPUPLAN_GEMM_UNROLL_K _Pragma("GCC unroll 4")
#endif

namespace gpuplan::gemm_detail {

// [SECTION] Problem and configuration ----------------------------------------------------
template <typename T>
struct Problem {
  int m = 0;
  int n = 0;
  int k = 0;
  T alpha = 1;
  T beta = 0;
  const T* a = nullptr;
  std::ptrdiff_t lda = 0;
  const T* b = nullptr;
  std::ptrdiff_t ldb = 0;
  T* c = nullptr;
  std::ptrdiff_t ldc = 0;
};

// kMr x (kLanes * kNrVecs) register tile; kMc x kKc block of A kept in L2, kKc x kNc block of B
// in L3 (per thread), kKc x kNr micro-panel of B in L1 (Goto & van de Geijn 2008, sec. 6).
template <typename T, int kLanesV, int kMrV, int kNrVecsV, int kMcV, int kKcV, int kNcV>
struct Config {
  using Scalar = T;
  typedef T Vec __attribute__((vector_size(sizeof(T) * kLanesV)));
  static constexpr int kLanes = kLanesV;
  static constexpr int kMr = kMrV;
  static constexpr int kNrVecs = kNrVecsV;
  static constexpr int kNr = kLanesV * kNrVecsV;
  static constexpr int kMc = kMcV;
  static constexpr int kKc = kKcV;
  static constexpr int kNc = kNcV;
  static_assert(kMc % kMr == 0 && kNc % kNr == 0, "blocks hold whole register tiles");
};

// [SECTION] Micro-kernel -----------------------------------------------------------------
// C[kMr x kNr] = alpha * Apanel * Bpanel + beta * C over kc steps. The accumulators live in
// registers for the whole loop: per step, kNrVecs vector loads of B, kMr broadcasts of A and
// kMr * kNrVecs multiply-adds (contracted to FMA where the target has it). beta == 0 never reads C.
template <class Cfg>
[[gnu::always_inline]] inline void MicroKernel(int kc, const typename Cfg::Scalar* __restrict a,
                                               const typename Cfg::Scalar* __restrict b,
                                               typename Cfg::Scalar alpha, typename Cfg::Scalar beta,
                                               typename Cfg::Scalar* __restrict c, std::ptrdiff_t ldc) {
  using T = typename Cfg::Scalar;
  using V = typename Cfg::Vec;
  constexpr int kMr = Cfg::kMr;
  constexpr int kNrVecs = Cfg::kNrVecs;
  constexpr int kLanes = Cfg::kLanes;

  V acc[kMr][kNrVecs];
#pragma GCC unroll 32
  for (int i = 0; i < kMr; ++i) {
#pragma GCC unroll 8
    for (int j = 0; j < kNrVecs; ++j) acc[i][j] = V{};
  }
  // The C tile is touched only after the loop; start its fetch now so the write-back does not
  // wait on memory.
#pragma GCC unroll 32
  for (int i = 0; i < kMr; ++i) {
    __builtin_prefetch(c + i * ldc, 1, 3);
    __builtin_prefetch(c + i * ldc + Cfg::kNr - 1, 1, 3);
  }

  GPUPLAN_GEMM_UNROLL_K
  for (int p = 0; p < kc; ++p) {
    V bv[kNrVecs];
    // memcpy: unaligned-safe, one vector load each. (No helper returning V: passing wide vectors
    // by value through a function not compiled for the target would change the ABI, -Wpsabi.)
#pragma GCC unroll 8
    for (int j = 0; j < kNrVecs; ++j) std::memcpy(&bv[j], b + j * kLanes, sizeof(V));
#pragma GCC unroll 32
    for (int i = 0; i < kMr; ++i) {
      const T ai = a[i];
#pragma GCC unroll 8
      for (int j = 0; j < kNrVecs; ++j) acc[i][j] += ai * bv[j];
    }
    a += kMr;
    b += Cfg::kNr;
  }

  if (beta == T(0)) {
#pragma GCC unroll 32
    for (int i = 0; i < kMr; ++i) {
#pragma GCC unroll 8
      for (int j = 0; j < kNrVecs; ++j) {
        const V r = alpha * acc[i][j];
        std::memcpy(c + i * ldc + j * kLanes, &r, sizeof(V));
      }
    }
  } else {
#pragma GCC unroll 32
    for (int i = 0; i < kMr; ++i) {
#pragma GCC unroll 8
      for (int j = 0; j < kNrVecs; ++j) {
        T* cij = c + i * ldc + j * kLanes;
        V r;
        std::memcpy(&r, cij, sizeof(V));
        r = alpha * acc[i][j] + beta * r;
        std::memcpy(cij, &r, sizeof(V));
      }
    }
  }
}

// [SECTION] Packing ----------------------------------------------------------------------
// A (mc x kc, row stride lda) -> ceil(mc / kMr) panels, each kc steps of kMr values. Rows past
// mc are zero, so the micro-kernel always runs a full tile and edge tiles need no special code.
template <class Cfg>
[[gnu::always_inline]] inline void PackA(int mc, int kc, const typename Cfg::Scalar* a, std::ptrdiff_t lda,
                                         typename Cfg::Scalar* __restrict dst) {
  using T = typename Cfg::Scalar;
  constexpr int kMr = Cfg::kMr;
  for (int i0 = 0; i0 < mc; i0 += kMr) {
    const int rows = std::min(kMr, mc - i0);
    const T* row[kMr];
    for (int i = 0; i < kMr; ++i) row[i] = a + (i0 + std::min(i, rows - 1)) * lda;
    if (rows == kMr) {
      for (int p = 0; p < kc; ++p) {
#pragma GCC unroll 32
        for (int i = 0; i < kMr; ++i) dst[p * kMr + i] = row[i][p];
      }
    } else {
      for (int p = 0; p < kc; ++p) {
        for (int i = 0; i < kMr; ++i) dst[p * kMr + i] = i < rows ? row[i][p] : T(0);
      }
    }
    dst += kMr * kc;
  }
}

// B (kc x nc, row stride ldb) -> ceil(nc / kNr) panels, each kc rows of kNr values, zero-padded.
template <class Cfg>
[[gnu::always_inline]] inline void PackB(int kc, int nc, const typename Cfg::Scalar* b, std::ptrdiff_t ldb,
                                         typename Cfg::Scalar* __restrict dst) {
  using T = typename Cfg::Scalar;
  constexpr int kNr = Cfg::kNr;
  for (int j0 = 0; j0 < nc; j0 += kNr) {
    const int cols = std::min(kNr, nc - j0);
    const T* src = b + j0;
    if (cols == kNr) {
      for (int p = 0; p < kc; ++p) std::memcpy(dst + p * kNr, src + p * ldb, sizeof(T) * kNr);
    } else {
      for (int p = 0; p < kc; ++p) {
        for (int j = 0; j < kNr; ++j) dst[p * kNr + j] = j < cols ? src[p * ldb + j] : T(0);
      }
    }
    dst += kNr * kc;
  }
}

// Packing buffer sizes (elements) for a problem of this shape.
template <class Cfg>
std::size_t PackASize(int m, int k) {
  const int mc = std::min(Cfg::kMc, (m + Cfg::kMr - 1) / Cfg::kMr * Cfg::kMr);
  return static_cast<std::size_t>(mc) * static_cast<std::size_t>(std::min(Cfg::kKc, k));
}
template <class Cfg>
std::size_t PackBSize(int n, int k) {
  const int nc = std::min(Cfg::kNc, (n + Cfg::kNr - 1) / Cfg::kNr * Cfg::kNr);
  return static_cast<std::size_t>(nc) * static_cast<std::size_t>(std::min(Cfg::kKc, k));
}

// [SECTION] Blocked loops ----------------------------------------------------------------
// The five loops around the micro-kernel (BLIS order): jc over kNc columns of B/C, pc over kKc
// (pack B), ic over kMc rows of A/C (pack A), jr over kNr, ir over kMr. In the inner two loops
// one kKc x kNr panel of B stays in L1 while the kMc x kKc block of A streams from L2.
// Requires m, n, k >= 1 and alpha != 0 (the caller handles the degenerate cases).
// One thread's part in a team computing one GEMM together (BLIS's parallel third loop, Smith
// et al., IPDPS 2014): the team packs each block of B once, each thread its share of the
// nr-wide panels into the one shared buffer, waits for the others, then computes its own rows
// of C with its own packed A, and waits again before the next block overwrites B. Alone
// (threads = 1) it packs all of B and computes every row, with no waits.
struct TeamPart {
  int t = 0, threads = 1;
  void (*wait)(void*) = nullptr;  // the team's barrier
  void* barrier = nullptr;
};

template <class Cfg>
[[gnu::always_inline]] inline void GemmBlocked(const Problem<typename Cfg::Scalar>& pr,
                                               typename Cfg::Scalar* __restrict a_pack,
                                               typename Cfg::Scalar* __restrict b_pack, const TeamPart& team) {
  using T = typename Cfg::Scalar;
  constexpr int kMr = Cfg::kMr;
  constexpr int kNr = Cfg::kNr;
  // This thread's rows of C: a contiguous run of whole mr-tall tiles.
  const int tiles = (pr.m + kMr - 1) / kMr;
  const int row0 = std::min(pr.m, tiles * team.t / team.threads * kMr);
  const int row1 = std::min(pr.m, tiles * (team.t + 1) / team.threads * kMr);
  for (int jc = 0; jc < pr.n; jc += Cfg::kNc) {
    const int nc = std::min(Cfg::kNc, pr.n - jc);
    for (int pc = 0; pc < pr.k; pc += Cfg::kKc) {
      const int kc = std::min(Cfg::kKc, pr.k - pc);
      if (team.threads == 1) {
        PackB<Cfg>(kc, nc, pr.b + pc * pr.ldb + jc, pr.ldb, b_pack);
      } else {
        const int panels = (nc + kNr - 1) / kNr;
        const int p0 = panels * team.t / team.threads, p1 = panels * (team.t + 1) / team.threads;
        if (p1 > p0)
          PackB<Cfg>(kc, std::min(nc, p1 * kNr) - p0 * kNr, pr.b + pc * pr.ldb + jc + p0 * kNr, pr.ldb,
                     b_pack + static_cast<std::ptrdiff_t>(p0) * kNr * kc);
        team.wait(team.barrier);  // all of B's block is packed
      }
      // Later k-blocks accumulate onto what the first one wrote.
      const T beta = pc == 0 ? pr.beta : T(1);
      for (int ic = row0; ic < row1; ic += Cfg::kMc) {
        const int mc = std::min(Cfg::kMc, row1 - ic);
        PackA<Cfg>(mc, kc, pr.a + ic * pr.lda + pc, pr.lda, a_pack);
        for (int jr = 0; jr < nc; jr += kNr) {
          const int nr = std::min(kNr, nc - jr);
          const T* b_panel = b_pack + jr * kc;
          for (int ir = 0; ir < mc; ir += kMr) {
            const int mr = std::min(kMr, mc - ir);
            const T* a_panel = a_pack + ir * kc;
            T* c_tile = pr.c + (ic + ir) * pr.ldc + jc + jr;
            if (mr == kMr && nr == kNr) {
              MicroKernel<Cfg>(kc, a_panel, b_panel, pr.alpha, beta, c_tile, pr.ldc);
            } else {
              // Edge tile: compute the full padded tile aside, then merge only the valid part.
              alignas(64) T tile[kMr * kNr];
              MicroKernel<Cfg>(kc, a_panel, b_panel, pr.alpha, T(0), tile, kNr);
              for (int i = 0; i < mr; ++i) {
                T* c_row = c_tile + i * pr.ldc;
                if (beta == T(0)) {
                  for (int j = 0; j < nr; ++j) c_row[j] = tile[i * kNr + j];
                } else {
                  for (int j = 0; j < nr; ++j) c_row[j] = tile[i * kNr + j] + beta * c_row[j];
                }
              }
            }
          }
        }
      }
      if (team.threads > 1) team.wait(team.barrier);  // every thread is done with this block of B
    }
  }
}

}  // namespace gpuplan::gemm_detail
