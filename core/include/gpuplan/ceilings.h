// gpuplan/ceilings.h — what a GPU really reaches of its datasheet: the attainable fraction of
// the memory bandwidth and of the dense GEMM peak, from the published microbenchmarks in
// assets/catalog/ceilings.json (BabelStream, nvbandwidth, cuBLASLt/hipBLASLt and torch.matmul
// runs). A GPU without a measurement borrows the median of its kind's (same vendor and
// architecture, then same vendor), and says so.
#pragma once
#include <string>
#include <vector>

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

// A kind's measurements of one GPU, as fractions of its datasheet figure.
struct MeasuredGpu {
  const Gpu* gpu = nullptr;
  std::vector<double> fractions;
};

// An all-reduce measurement and its GPU.
struct MeasuredLink {
  const MeasuredCeiling* ceiling = nullptr;
  const Gpu* gpu = nullptr;
};

// The measurements of a catalog grouped once, for the many GPUs a ranking asks about (the
// functions above group them on every call). Gives the same figures as AttainableMemory and
// AttainableGemm; `say` false leaves the basis empty. Points into the catalog, which must
// outlive it unchanged.
class CeilingTable {
 public:
  explicit CeilingTable(const Catalog& catalog);
  Attainable Memory(const Gpu& gpu, bool say = true) const;
  Attainable Gemm(const Gpu& gpu, const std::string& precision, bool say = true) const;
  MeasuredAllReduce AllReduce(const Gpu& gpu, int n, bool say = true) const;

 private:
  std::vector<MeasuredGpu> memory, gemm_16bit, gemm_fp8;
  std::vector<MeasuredLink> links;
};

}  // namespace gpuplan
