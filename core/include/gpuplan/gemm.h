// gpuplan/gemm.h — the CPU reference GEMM: C = alpha * A * B + beta * C, row-major, in portable
// C++ with no BLAS dependency. It gives the planner a measured CPU baseline and the GPU probes
// a result to check against.
//
// Index:
//   [SECTION] Micro-kernel families
//   [SECTION] Blocked GEMM (packed, vectorised, threaded)
//   [SECTION] Naive references (for tests)
//
// Method: GotoBLAS / BLIS — pack A into MR-row panels and B into NR-column panels, block for the
// cache hierarchy, and do all arithmetic in a register-blocked micro-kernel (Goto & van de Geijn,
// "Anatomy of high-performance matrix multiplication", ACM TOMS 34(3), 2008; Van Zee & van de
// Geijn, "BLIS: a framework for rapidly instantiating BLAS functionality", ACM TOMS 41(3), 2015).
//
// Contract, for every function here:
//   - row-major: element (i, j) of A is a[i * lda + j]; lda >= k, ldb >= n, ldc >= n;
//   - invalid arguments (a negative size, a leading dimension too small, a null pointer for a
//     non-empty operand) leave C untouched; nothing throws or aborts;
//   - beta == 0 overwrites C without reading it (NaN in C does not propagate), and alpha == 0 or
//     k == 0 only scales C by beta (the BLAS convention);
//   - `threads` < 1 counts as 1; small problems run on the calling thread whatever is asked. In
//     WebAssembly, threads are used only in a pthreads build (a cross-origin-isolated page).
#pragma once

namespace gpuplan {

// [SECTION] Micro-kernel families -------------------------------------------------------
// kAuto picks, at run time, the fastest family this CPU runs. The others exist so tests can
// check every family the machine supports; kGeneric is portable vector-extension code
// (SSE2 on x86-64, NEON on Arm, SIMD128 in a wasm build compiled with -msimd128).
enum class GemmIsa { kAuto, kGeneric, kAvx2, kAvx512 };

// True when `isa` was compiled in and this CPU (and OS) can run it. kAuto and kGeneric: always.
bool GemmIsaSupported(GemmIsa isa);
// The family kAuto resolves to on this machine.
GemmIsa GemmBestIsa();
// Which kernel runs, with its register tiles, e.g. "avx512: sgemm 14x32, dgemm 14x16".
const char* GemmKernelName(GemmIsa isa = GemmIsa::kAuto);

// [SECTION] Blocked GEMM -----------------------------------------------------------------
void Sgemm(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta, float* c,
           int ldc, int threads = 1);
void Dgemm(int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb, double beta,
           double* c, int ldc, int threads = 1);

// The same with a chosen kernel family; returns false (C untouched) when `isa` is not supported.
bool Sgemm(GemmIsa isa, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
           float* c, int ldc, int threads = 1);
bool Dgemm(GemmIsa isa, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
           double beta, double* c, int ldc, int threads = 1);

// [SECTION] Naive references -------------------------------------------------------------
// Triple loop, single-threaded, same contract. SgemmNaive accumulates in double so it is a
// better reference than the code it checks.
void SgemmNaive(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                float* c, int ldc);
void DgemmNaive(int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb, double beta,
                double* c, int ldc);

}  // namespace gpuplan
