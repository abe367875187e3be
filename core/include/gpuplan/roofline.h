// gpuplan/roofline.h — the roofline model (Williams, Waterman & Patterson 2009, "Roofline: an
// insightful visual performance model for multicore architectures"): an accelerator's
// ceilings (compute per precision, memory bandwidth, caches and host link where known) and the
// scenario's operations placed under them — prefill GEMMs, decode GEMV, attention naive and
// flash, MoE experts, collectives, a training step — each with its arithmetic intensity,
// attainable rate, bound and share of its phase's time. The chart layout (log axes, ticks,
// roof polylines) lives here too, so the page's widget and the SVG writer draw the same picture.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

struct GpuProbeResult;

// [SECTION] Ceilings --------------------------------------------------------------------
struct ComputeCeiling {
  std::string key;    // precision: "bf16", "fp8", "fp32", ...
  std::string label;  // "BF16 dense"
  double flops_per_s = 0;
  bool measured = false;
};

struct MemoryCeiling {
  std::string key;    // "dram", "l2", "l1", "llc", "host", "link"
  std::string label;  // "HBM3e", "L2 (measured)", "PCIe 5.0 x16"
  double bytes_per_s = 0;
  bool measured = false;
};

struct Roof {
  std::string id, label;                // catalog id (or "cpu"), display name
  std::vector<ComputeCeiling> compute;  // highest first
  std::vector<MemoryCeiling> memory;    // the main memory first
  // Ridge point of a precision against the main memory: FLOP per byte where the roof bends.
  double Ridge(const std::string& precision) const;
  const ComputeCeiling* FindCompute(const std::string& key) const;
  const MemoryCeiling* FindMemory(const std::string& key) const;
};

// A catalog accelerator's ceilings: every dense precision of the datasheet, the memory
// bandwidth, the host link (PCIe) and the scale-up link. Caches have no datasheet bandwidth.
Roof GpuRoof(const Catalog& catalog, const Gpu& gpu);

// A GPU probe's measurements as dashed ceilings added to the roof: the GEMM of each dtype,
// device-memory read, L2 read and pinned host-to-device copies.
void AddMeasuredCeilings(Roof& roof, const GpuProbeResult& probe);

struct ChartPoint;
// The probe's GEMMs as measured points at their shape's intensity (m·n·k from the method).
std::vector<ChartPoint> MeasuredGemmPoints(const GpuProbeResult& probe);

// [SECTION] Operations ------------------------------------------------------------------
struct RoofOp {
  std::string key;  // "prefill_qkv", "decode_mlp", "attention_naive", ...
  std::string name;
  std::string phase;            // "prefill", "decode", "train"
  std::string formula;          // the shape and how FLOPs and bytes were counted
  double flops = 0, bytes = 0;  // per GPU, per occurrence
  double count = 1;             // occurrences per step (layers)
  double intensity = 0;         // FLOP per byte
  double attainable_flops_per_s = 0;
  std::string ceiling;  // the ceiling keys it runs against ("bf16", "dram" or "link")
  std::string bound;    // "memory", "compute", "link"
  double seconds = 0;   // per step: count × max(flops/peak, bytes/bandwidth)
  double share = 0;     // of its phase's time
  // The attention variant the scenario does not use (flash field): drawn for comparison, left
  // out of its phase's total; its share is what it would take in place of the one used.
  bool alternative = false;
};

struct Roofline {
  Roof roof;
  std::string precision;  // the compute ceiling the scenario's matmuls use
  std::vector<RoofOp> ops;
  std::vector<std::string> assumptions;
};

// The scenario's operations on its GPU: one layer's GEMMs at prefill (batch × prompt tokens)
// and decode (batch tokens), attention both ways, MoE experts, the tensor-parallel all-reduce,
// the LM head, and a training step (micro-batch × context: forward and backward GEMMs, the
// AdamW update, the data-parallel gradient all-reduce).
Result<Roofline> BuildRoofline(const Catalog& catalog, const Scenario& s);
// The same with the scenario's ids already resolved (resolve.h); `r` must be Resolve(…, s)'s.
Result<Roofline> BuildRoofline(const Resolved& r, const Scenario& s);

// [SECTION] Chart layout (shared by the page's widget and the SVG writer) --------------
struct Tick {
  double value = 0;
  bool major = false;
  std::string label;  // majors only
};

// Decade majors and the 2..9 minors between them for a log axis over [lo, hi]; labels through
// `unit` ("FLOP/s" → "1 T", "FLOP/B" → "0.1").
std::vector<Tick> LogTicks(double lo, double hi, const std::string& unit);


struct ChartPoint {
  std::string label;
  double intensity = 0, flops_per_s = 0;
  uint32_t color = 0;     // 0xRRGGBB
  bool measured = false;  // drawn as a ring instead of a dot
};

struct ChartRoof {
  std::string label;
  uint32_t color = 0;
  bool dashed = false;
  // The roof as a polyline in data coordinates: the slope of `bytes_per_s` up to the ridge
  // of `flops_per_s`, then flat.
  std::vector<std::pair<double, double>> line;
};

struct RooflineChart {
  std::string title;
  double x_lo = 0.01, x_hi = 1e4, y_lo = 1e9, y_hi = 1e16;
  std::vector<ChartRoof> roofs;
  std::vector<ChartPoint> points;
};

// Palette for overlaid accelerators and for the operations' phases.
uint32_t RoofColor(size_t index);
uint32_t PhaseColor(const std::string& phase);

// One polyline per (memory ceiling, compute ceiling) worth drawing: for each roof, its main
// memory under its top precision (solid), the scenario's precision, and measured ceilings
// (dashed). Axis ranges fit every line and point with a decade of margin.
RooflineChart MakeRooflineChart(const std::vector<Roof>& roofs, const std::vector<ChartPoint>& points,
                                const std::string& precision);

// The chart as a standalone SVG document (width × height px): axes, ticks, roofs, points,
// legend. Text is escaped; no external resources.
std::string RooflineSvg(const RooflineChart& chart, int width = 800, int height = 520);

}  // namespace gpuplan
