// tests/bench/bench_gemm_eigen.cpp — Eigen's GEMM for bench_gemm, in its own translation unit
// because Eigen picks its SIMD width at compile time: this file alone is built for the host CPU
// (-march=native, set in CMake), so Eigen is measured at its best while bench_gemm itself and
// gpuplan stay portable. Threads come from OpenMP when CMake found it, else Eigen runs one.
#include <Eigen/Core>

namespace gpuplan_bench {

int EigenMaxThreads() {
#if defined(EIGEN_HAS_OPENMP) || defined(_OPENMP)
  return 1 << 10;
#else
  return 1;
#endif
}

template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
void EigenGemm(int n, const T* a, const T* b, T* c, int threads) {
  Eigen::setNbThreads(threads);
  Eigen::Map<const RowMajor<T>> ma(a, n, n);
  Eigen::Map<const RowMajor<T>> mb(b, n, n);
  Eigen::Map<RowMajor<T>> mc(c, n, n);
  mc.noalias() = ma * mb;
}

void EigenSgemm(int n, const float* a, const float* b, float* c, int threads) { EigenGemm(n, a, b, c, threads); }
void EigenDgemm(int n, const double* a, const double* b, double* c, int threads) { EigenGemm(n, a, b, c, threads); }

}  // namespace gpuplan_bench
