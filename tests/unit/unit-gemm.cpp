// The CPU reference GEMM against the naive triple loop: every kernel family this machine runs,
// odd and non-square sizes (edge tiles in both directions, sizes crossing the cache blocks),
// alpha/beta combinations, padded leading dimensions, and 1-3 threads.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuplan/gemm.h"

using namespace gpuplan;

namespace {

struct Shape {
  int m;
  int n;
  int k;
};

// Deterministic values in [-1, 1): the same data natively and in wasm.
template <typename T>
std::vector<T> RandomMatrix(std::size_t count, uint32_t seed) {
  std::vector<T> v(count);
  uint32_t state = seed * 2654435761u + 1u;
  for (T& x : v) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<T>(static_cast<double>(state >> 8) / static_cast<double>(1u << 24) * 2.0 - 1.0);
  }
  return v;
}

std::vector<GemmIsa> SupportedIsas() {
  std::vector<GemmIsa> isas;
  for (GemmIsa isa : {GemmIsa::kGeneric, GemmIsa::kAvx2, GemmIsa::kAvx512}) {
    if (GemmIsaSupported(isa)) isas.push_back(isa);
  }
  return isas;
}

template <typename T>
bool Run(GemmIsa isa, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc,
         int threads) {
  if constexpr (sizeof(T) == sizeof(float)) {
    return Sgemm(isa, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, threads);
  } else {
    return Dgemm(isa, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, threads);
  }
}

template <typename T>
void RunNaive(int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  if constexpr (sizeof(T) == sizeof(float)) {
    SgemmNaive(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    DgemmNaive(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

// Runs one case and returns the worst error as a multiple of its allowed bound, which is
// (k + 2) * eps * (|alpha| * sum_l |a_il| |b_lj| + |beta c_ij|) times a small constant: the
// classic forward error bound of a dot product (Higham, "Accuracy and Stability of Numerical
// Algorithms", 2nd ed., sec. 3.1). Padding outside the m x n window of C must stay untouched;
// a change there returns infinity.
template <typename T>
double WorstError(GemmIsa isa, Shape s, T alpha, T beta, int pad, int threads) {
  const int lda = s.k + pad;
  const int ldb = s.n + pad;
  const int ldc = s.n + pad;
  const auto a = RandomMatrix<T>(static_cast<std::size_t>(s.m) * lda, 1);
  const auto b = RandomMatrix<T>(static_cast<std::size_t>(s.k) * ldb, 2);
  const auto c0 = RandomMatrix<T>(static_cast<std::size_t>(s.m) * ldc, 3);
  std::vector<T> c = c0;
  std::vector<T> ref = c0;
  REQUIRE(Run<T>(isa, s.m, s.n, s.k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc, threads));
  RunNaive<T>(s.m, s.n, s.k, alpha, a.data(), lda, b.data(), ldb, beta, ref.data(), ldc);
  const double eps = std::numeric_limits<T>::epsilon();
  double worst = 0;
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < ldc; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * ldc + j;
      if (j >= s.n) {
        if (c[at] != c0[at]) return std::numeric_limits<double>::infinity();
        continue;
      }
      double magnitude = 0;
      for (int l = 0; l < s.k; ++l) {
        magnitude += std::fabs(static_cast<double>(a[static_cast<std::size_t>(i) * lda + l]) *
                               static_cast<double>(b[static_cast<std::size_t>(l) * ldb + j]));
      }
      const double bound = 4.0 * (s.k + 2) * eps *
                               (std::fabs(static_cast<double>(alpha)) * magnitude +
                                std::fabs(static_cast<double>(beta) * static_cast<double>(c0[at]))) +
                           std::numeric_limits<T>::min();
      const double err = std::fabs(static_cast<double>(c[at]) - static_cast<double>(ref[at]));
      if (!(err <= bound)) worst = std::max(worst, std::isfinite(err) ? err / bound : 1e300);
    }
  }
  return worst;
}

// Edge tiles in m and n, k crossing the k-blocks (256 and 512), n crossing the widest n-block
// (4096); with 2-3 threads, 257x129x300 is split over M (more row tiles than column panels)
// and 3x4133x530 over N.
const Shape kShapes[] = {{1, 1, 1},   {7, 13, 5},     {33, 65, 17},  {127, 1, 255}, {1, 127, 3},
                         {64, 64, 64}, {257, 129, 300}, {130, 70, 530}, {3, 4133, 530},
                         {1000, 9, 700}};

template <typename T>
void CheckAllShapes() {
  for (GemmIsa isa : SupportedIsas()) {
    for (const Shape& s : kShapes) {
      for (int threads : {1, 2, 3}) {
        CAPTURE(GemmKernelName(isa), s.m, s.n, s.k, threads);
        CHECK(WorstError<T>(isa, s, T(1), T(0), 0, threads) <= 1.0);
      }
    }
  }
}

template <typename T>
void CheckScalarsAndStrides() {
  const struct {
    T alpha;
    T beta;
  } scalars[] = {{T(1), T(0)}, {T(1), T(1)}, {T(-0.5), T(2)}, {T(2.5), T(-1)}};
  for (GemmIsa isa : SupportedIsas()) {
    for (const Shape& s : {Shape{7, 13, 5}, Shape{33, 65, 17}, Shape{257, 129, 300}}) {
      for (const auto& sc : scalars) {
        for (int pad : {0, 3}) {
          for (int threads : {1, 2}) {
            CAPTURE(GemmKernelName(isa), s.m, s.n, s.k, sc.alpha, sc.beta, pad, threads);
            CHECK(WorstError<T>(isa, s, sc.alpha, sc.beta, pad, threads) <= 1.0);
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("a kernel family is selected and named", "[gemm]") {
  CHECK(GemmIsaSupported(GemmIsa::kAuto));
  CHECK(GemmIsaSupported(GemmIsa::kGeneric));
  CHECK(GemmIsaSupported(GemmBestIsa()));
  CHECK(std::string(GemmKernelName()) == GemmKernelName(GemmBestIsa()));
  CHECK(std::string(GemmKernelName()).find("sgemm") != std::string::npos);
  INFO("selected: " << GemmKernelName());
  SUCCEED();
}

TEST_CASE("sgemm matches the naive reference on odd sizes, every family, 1-3 threads", "[gemm]") {
  CheckAllShapes<float>();
}

TEST_CASE("dgemm matches the naive reference on odd sizes, every family, 1-3 threads", "[gemm]") {
  CheckAllShapes<double>();
}

TEST_CASE("sgemm alpha/beta combinations and padded leading dimensions", "[gemm]") {
  CheckScalarsAndStrides<float>();
}

TEST_CASE("dgemm alpha/beta combinations and padded leading dimensions", "[gemm]") {
  CheckScalarsAndStrides<double>();
}

TEST_CASE("beta == 0 overwrites C without reading it", "[gemm]") {
  const int m = 19;
  const int n = 37;
  const int k = 11;
  const auto a = RandomMatrix<float>(m * k, 4);
  const auto b = RandomMatrix<float>(k * n, 5);
  std::vector<float> c(m * n, std::numeric_limits<float>::quiet_NaN());
  std::vector<float> ref(m * n, std::numeric_limits<float>::quiet_NaN());
  Sgemm(m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, c.data(), n, 2);
  SgemmNaive(m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, ref.data(), n);
  for (int i = 0; i < m * n; ++i) {
    REQUIRE(std::isfinite(c[i]));
    REQUIRE(std::isfinite(ref[i]));
    CHECK(c[i] == Approx(ref[i]).epsilon(1e-4).margin(1e-5));
  }
}

TEST_CASE("alpha == 0 or k == 0 only scales C by beta", "[gemm]") {
  std::vector<double> c = {1, 2, 3, 4, 5, 6};
  const std::vector<double> a = {std::numeric_limits<double>::quiet_NaN(), 1, 1, 1, 1, 1};
  const std::vector<double> b = {1, 1, 1, 1, 1, 1};
  Dgemm(2, 3, 1, 0.0, a.data(), 1, b.data(), 3, 2.0, c.data(), 3);
  CHECK(c == std::vector<double>{2, 4, 6, 8, 10, 12});
  Dgemm(2, 3, 0, 1.0, nullptr, 1, nullptr, 3, 0.5, c.data(), 3);
  CHECK(c == std::vector<double>{1, 2, 3, 4, 5, 6});
  Dgemm(2, 3, 0, 1.0, nullptr, 1, nullptr, 3, 0.0, c.data(), 3);
  CHECK(c == std::vector<double>{0, 0, 0, 0, 0, 0});
}

TEST_CASE("invalid arguments leave C untouched", "[gemm]") {
  const std::vector<float> a(16, 1.0f);
  const std::vector<float> b(16, 1.0f);
  const std::vector<float> c0(16, 7.0f);
  std::vector<float> c = c0;
  Sgemm(-1, 4, 4, 1.0f, a.data(), 4, b.data(), 4, 0.0f, c.data(), 4);
  Sgemm(4, 4, 4, 1.0f, a.data(), 3, b.data(), 4, 0.0f, c.data(), 4);  // lda < k
  Sgemm(4, 4, 4, 1.0f, a.data(), 4, b.data(), 3, 0.0f, c.data(), 4);  // ldb < n
  Sgemm(4, 4, 4, 1.0f, a.data(), 4, b.data(), 4, 0.0f, c.data(), 3);  // ldc < n
  Sgemm(4, 4, 4, 1.0f, nullptr, 4, b.data(), 4, 0.0f, c.data(), 4);
  SgemmNaive(4, 4, 4, 1.0f, a.data(), 3, b.data(), 4, 0.0f, c.data(), 4);
  CHECK(c == c0);
  Sgemm(0, 4, 4, 1.0f, a.data(), 4, b.data(), 4, 0.0f, c.data(), 4);
  CHECK(c == c0);
}

TEST_CASE("an unsupported family reports false and computes nothing", "[gemm]") {
  std::vector<double> c(4, 3.0);
  const std::vector<double> ab(4, 1.0);
  for (GemmIsa isa : {GemmIsa::kAvx2, GemmIsa::kAvx512}) {
    if (GemmIsaSupported(isa)) continue;
    CHECK_FALSE(Dgemm(isa, 2, 2, 2, 1.0, ab.data(), 2, ab.data(), 2, 0.0, c.data(), 2));
    CHECK(c == std::vector<double>(4, 3.0));
    CHECK(std::string(GemmKernelName(isa)) == "unsupported");
  }
}

TEST_CASE("threads beyond the work, or below one, still give the right answer", "[gemm]") {
  const Shape s{200, 300, 150};
  for (int threads : {0, -3, 7, 64}) {
    CAPTURE(threads);
    CHECK(WorstError<float>(GemmIsa::kAuto, s, 1.0f, 0.5f, 1, threads) <= 1.0);
  }
}

TEST_CASE("a team sharing B gives every row exactly what one thread gives, with more threads than CPUs too", "[gemm]") {
  // More row tiles than column panels in every family, so the team shares each packed block of
  // B (gemm.cpp RunThreaded); k above every family's kc, so the team meets at several blocks.
  // The arithmetic per element is the same as alone, so the result is bit for bit the same.
  // With more threads than CPUs the barrier yields rather than spinning against the thread it
  // awaits.
  const int m = 1201, n = 300, k = 1100;
  const auto a = RandomMatrix<float>(static_cast<std::size_t>(m) * k, 11);
  const auto b = RandomMatrix<float>(static_cast<std::size_t>(k) * n, 12);
  for (GemmIsa isa : {GemmIsa::kGeneric, GemmIsa::kAvx2, GemmIsa::kAvx512}) {
    if (!GemmIsaSupported(isa)) continue;
    std::vector<float> alone(static_cast<std::size_t>(m) * n, 1.0f);
    REQUIRE(Sgemm(isa, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.5f, alone.data(), n, 1));
    for (int threads : {2, 3, 16}) {
      CAPTURE(GemmKernelName(isa), threads);
      std::vector<float> team(static_cast<std::size_t>(m) * n, 1.0f);
      REQUIRE(Sgemm(isa, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.5f, team.data(), n, threads));
      CHECK(team == alone);
    }
  }
}
