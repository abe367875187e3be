// gpuplan/ceilings.h — what a GPU really reaches of its datasheet: the attainable fraction of
// the memory bandwidth and of the dense GEMM peak, from the published microbenchmarks in
// assets/catalog/ceilings.json (BabelStream, nvbandwidth, cuBLASLt/hipBLASLt and torch.matmul
// runs). A GPU without a measurement borrows the median of its kind's (same vendor and
// architecture, then same vendor), and says so.
#pragma once
#include <string>

#include "gpuplan/catalog.h"

namespace gpuplan {

struct Attainable {
  double fraction = 1;    // of the catalog's datasheet figure, at most 1
  int measurements = 0;   // behind the fraction (0: none; the datasheet figure is used)
  bool own = false;       // measured on this GPU (false: borrowed from GPUs of its kind)
  std::string basis;      // in words: "median of 2 measurements on this GPU (BabelStream)"
};

// Device memory bandwidth (copy/triad kernels) over the datasheet bandwidth.
Attainable AttainableMemory(const Catalog& catalog, const Gpu& gpu);
// Dense GEMM of `precision` over the datasheet dense peak of that precision. Precisions without
// measurements (int8, fp4, fp32, tf32) take the 16-bit GEMM's fraction, and say so.
Attainable AttainableGemm(const Catalog& catalog, const Gpu& gpu, const std::string& precision);

// All-reduce over n GPUs as measured (nccl-tests bus bandwidth on this GPU; small-message
// latency of an engine's custom all-reduce or nccl-tests, on this GPU or one linked the same
// way, NVLink or PCIe), at the measured GPU count nearest n. 0 where nothing was measured.
struct MeasuredAllReduce {
  double bus_bytes_per_s = 0, latency_s = 0;
  std::string bus_basis, latency_basis;
};
MeasuredAllReduce AllReduceMeasurements(const Catalog& catalog, const Gpu& gpu, int n);

}  // namespace gpuplan
