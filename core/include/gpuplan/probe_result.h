// gpuplan/probe_result.h — reading a CUDA probe's results (gpuplan.gpu-probe/1, written by
// native/cuda's gpuplan-probe-gpu; schema in native/cuda/README.md) and setting them against
// the catalog: % of the datasheet per metric, and the measured efficiencies that replace the
// engine's fitted ones when an estimate should use this GPU's own ceilings.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/speed.h"

namespace gpuplan {

struct ProbeMetric {
  std::string id, name, unit, catalog_field, method;
  double value = 0;  // median rate: B/s, FLOP/s, OP/s
};

struct GpuProbeResult {
  std::string device_name, driver, cuda_runtime, date;
  double power_limit_w = 0, memory_total_bytes = 0;
  std::vector<ProbeMetric> metrics;
  const ProbeMetric* Find(const std::string& id) const;
};

// A malformed or foreign file is an error naming what is wrong.
Result<GpuProbeResult> ParseGpuProbe(const std::string& text);

// The catalog entry the probe ran on: every word of the device name in the entry's name, ties
// broken by the power limit against the TDP. Null when nothing matches.
const Gpu* MatchProbeGpu(const Catalog& catalog, const GpuProbeResult& probe);

struct MeasuredRow {
  std::string metric, name, catalog_field, unit;
  double measured = 0, datasheet = 0;  // datasheet 0: the catalog has no figure
  double ratio() const { return datasheet > 0 ? measured / datasheet : 0; }
};

// Each probe metric that has a catalog counterpart, against it.
std::vector<MeasuredRow> MeasuredVsCatalog(const GpuProbeResult& probe, const Gpu& gpu);

// Efficiencies from measurement: read bandwidth / datasheet bandwidth, and the GEMM of the
// scenario's compute precision / its datasheet peak (0 where either is missing).
Efficiency MeasuredEfficiency(const GpuProbeResult& probe, const Gpu& gpu, const std::string& precision);

}  // namespace gpuplan
