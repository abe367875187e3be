// The measuring half of machine.h: the CPU probe and the reference SGEMM's rate. Kept apart
// from the presentation (rows, roof) so the page's threaded probe module (web/probe) builds
// from cpu_probe.cpp, gemm.cpp and this file alone.
#include <algorithm>
#include <chrono>
#include <vector>

#include "gpuplan/gemm.h"
#include "gpuplan/machine.h"

namespace gpuplan {

GemmRate MeasureSgemm(int n, int threads, int reps) {
  GemmRate r;
  r.n = n;
  r.threads = std::max(1, threads);
  r.kernel = GemmKernelName();
  const size_t elems = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a(elems), b(elems), c(elems, 0.0f);
  // Values that neither overflow nor turn denormal over k sums.
  for (size_t i = 0; i < elems; ++i) {
    a[i] = static_cast<float>((i * 7 + 3) % 17) * 0.0625f - 0.5f;
    b[i] = static_cast<float>((i * 5 + 1) % 13) * 0.0625f - 0.375f;
  }
  auto once = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    Sgemm(n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n, r.threads);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  once();
  once();
  std::vector<double> t;
  for (int i = 0; i < std::max(1, reps); ++i) t.push_back(once());
  std::sort(t.begin(), t.end());
  const double median = t[t.size() / 2];
  r.flops_per_s = median > 0 ? 2.0 * n * static_cast<double>(n) * n / median : 0;
  return r;
}

Result<CpuProbeResult> MeasureMachine(const CpuProbeOptions& options, const CpuProbeProgress& progress) {
  // The probe reports 0..1 of its own work; the GEMMs take the last tenth of the bar.
  auto scaled = [&](const std::string& stage, double f) {
    if (progress) progress(stage, 0.9 * f);
  };
  Result<CpuProbeResult> r = RunCpuProbe(options, scaled);
  if (!r.ok()) return r;
  CpuProbeResult& p = r.value();
  const int all = std::max(1, options.threads > 0 ? options.threads : p.cpu.logical_cpus);
  // Quick measures the full probe's smaller size: N = 512 on two threads read 13-22 % low
  // (each run is short against its start-up).
  const std::vector<int> sizes = options.quick ? std::vector<int>{1024} : std::vector<int>{1024, 2048};
  std::vector<int> thread_counts = {1};
  if (all > 1) thread_counts.push_back(all);
  const double total = static_cast<double>(sizes.size() * thread_counts.size());
  double done = 0;
  for (int n : sizes)
    for (int threads : thread_counts) {
      if (progress) progress("gemm", 0.9 + 0.1 * done / total);
      p.gemm.push_back(MeasureSgemm(n, threads, 5));
      done += 1;
    }
  if (progress) progress("gemm", 1.0);
  return r;
}

}  // namespace gpuplan
