// gpuplan/machine.h — "this machine": the CPU probe (cpu_probe.h) together with the reference
// SGEMM's measured rate (gemm.h), as one result that the CLI (`gpuplan probe cpu`) and the
// page ("This machine") print from the same rows, and that joins the roofline as a CPU roof:
// the measured FMA peak and SGEMM over the measured DRAM and cache bandwidths.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/cpu_probe.h"
#include "gpuplan/expected.h"
#include "gpuplan/roofline.h"

namespace gpuplan {

// The CPU probe with the reference SGEMM timed on square matrices (median of repetitions after
// warm-up): N = 1024 on 1 thread and all in quick mode, 1024 and 2048 otherwise.
Result<CpuProbeResult> MeasureMachine(const CpuProbeOptions& options, const CpuProbeProgress& progress = {});

// GFLOP/s of the reference SGEMM at N×N×N on `threads` threads: the median of `reps` timed
// runs after two warm-up runs (V8 tiers a loop up only between calls).
GemmRate MeasureSgemm(int n, int threads, int reps = 5);

// One line per measured quantity, as the CLI's table and the page's panel show them.
struct MachineRow {
  std::string quantity, text, how;
  double value = 0;
  std::string unit;
};
std::vector<MachineRow> CpuProbeRows(const CpuProbeResult& p);

// The CPU as a roof: compute ceilings (measured FMA peak, SGEMM, the derived peak) over
// memory ceilings (STREAM triad to DRAM, the sweep's cache plateaus).
Roof CpuRoof(const CpuProbeResult& p);
// The SGEMM measurements at their intensity (N/6 FLOP/B for N³ in FP32 with each matrix
// crossing memory once).
std::vector<ChartPoint> CpuGemmPoints(const CpuProbeResult& p);

}  // namespace gpuplan
