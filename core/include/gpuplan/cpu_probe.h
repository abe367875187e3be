// gpuplan/cpu_probe.h — the CPU's own ceilings for a roofline: STREAM bandwidth to DRAM, a
// read-bandwidth sweep over working-set sizes that finds the cache levels (L1/L2/LLC/DRAM
// ceilings of Williams, Waterman & Patterson, "Roofline", CACM 52(4), 2009), the FMA peak
// measured and derived, and the gpuplan.cpu-probe/1 file that carries them.
//
// Index:
//   [SECTION] What the CPU says about itself (DetectCpu, ReportedCacheLevels)
//   [SECTION] STREAM (McCalpin): copy, scale, add, triad
//   [SECTION] Working-set sweep and the plateau detector
//   [SECTION] FMA peak
//   [SECTION] The whole probe, and its file
//
// Portable: one binary for every x86-64 (the wide loops are chosen at run time), and wasm
// (single thread unless built with pthreads; SIMD128 when built with -msimd128). Never throws:
// a failure (an allocation, a malformed file) comes back as an Error naming what failed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpuplan/expected.h"

namespace gpuplan {

// [SECTION] What the CPU says about itself -------------------------------------------------

struct CpuInfo {
  std::string model_name;     // /proc/cpuinfo "model name"; "WebAssembly (browser/node)" in wasm
  int logical_cpus = 1;       // hardware threads this process may use
  int physical_cores = 1;     // logical_cpus without SMT siblings (the FMA units are per core)
  double clock_hz = 0;        // cpufreq max, else /proc/cpuinfo "cpu MHz"; 0: unknown
  int simd_bits = 128;        // widest vector ISA the loops use: 512 (AVX-512F), 256 (AVX2+FMA), 128
  std::string isa;            // "avx512f", "avx2+fma", "sse2", "wasm-simd128", "scalar"
  int fma_units = 0;          // FMA pipes per core (assumed, see assumptions); 0: no FMA
  double peak_flops_fp32 = 0; // cores x clock x lanes x 2 FLOP/FMA x fma_units; 0: not derivable
  double peak_flops_fp64 = 0;
  std::vector<std::string> assumptions;  // every figure above that is a guess, in words
};

CpuInfo DetectCpu();

// One cache level. `size_bytes` is the OS's figure in ReportedCacheLevels, and the end of the
// measured plateau (the largest per-thread working set still at this level's bandwidth) in
// the sweep's levels; `bytes_per_s` is the plateau's read bandwidth (0 when not measured).
struct CacheLevel {
  int level = 0;  // 1, 2, 3...
  double size_bytes = 0;
  double bytes_per_s = 0;
};

// Data and unified caches as the OS reports them for CPU 0 (Linux sysfs, else sysconf), by
// level. Empty where the OS says nothing (wasm). In a VM these are what the hypervisor tells
// the guest: an LLC can be the host socket's total, not the slice a core can reach.
std::vector<CacheLevel> ReportedCacheLevels();

// [SECTION] STREAM ------------------------------------------------------------------------
// J. D. McCalpin, "Memory Bandwidth and Machine Balance in Current High Performance
// Computers", IEEE TCCA Newsletter, 1995; https://www.cs.virginia.edu/stream/. Bytes counted
// as STREAM counts them: copy and scale 16 B per element (one read, one write), add and triad
// 24 B; write-allocate traffic is not counted. The rate is the best of the repetitions after
// the first, as STREAM reports it.

struct StreamResult {
  std::string kernel;           // "copy", "scale", "add", "triad"
  double bytes_per_s = 0;       // best rate
  double avg_bytes_per_s = 0;   // mean rate over the counted repetitions
  double array_bytes = 0;       // each of the three arrays
  double bytes_per_element = 0; // 16 or 24 (McCalpin's count)
  int threads = 1;
  int repetitions = 0;          // counted (the first is a warm-up and not counted)
};

struct StreamOptions {
  double array_bytes = 0;  // per array; 0: DefaultStreamArrayBytes()
  int threads = 0;         // 0: all logical CPUs (1 in a wasm build without pthreads)
  int repetitions = 10;    // STREAM's NTIMES; the first is not counted
};

// 4x the largest reported cache (STREAM's rule), at least 64 MiB, at most 512 MiB (and an
// eighth of the memory where known) so that a full probe stays within ~20 s. The cap matters
// where a VM reports the host socket's LLC: the sweep's measured LLC says whether the arrays
// are still well beyond it (CpuProbeResult::notes says so).
double DefaultStreamArrayBytes();

// The vector ISA the STREAM, sweep and FMA loops use on this CPU ("avx512f", "avx2+fma", ...).
std::string ActiveIsa();

// Copy, scale, add, triad in STREAM's order. Each thread owns one contiguous chunk of each
// array and touches it first (its pages land near it). Checks the arrays' final values as
// STREAM does; an error when memory runs out or the values are wrong.
Result<std::vector<StreamResult>> MeasureStream(const StreamOptions& options);

// [SECTION] Working-set sweep -------------------------------------------------------------

struct SweepPoint {
  double size_bytes = 0;   // working set of each thread
  double bytes_per_s = 0;  // read bandwidth, all threads together
};

struct SweepOptions {
  double min_bytes = 4096;   // first working set per thread
  double max_bytes = 0;      // last; 0: 4x the largest reported cache, within [64 MiB, 512 MiB]
  int steps_per_octave = 4;  // sizes 2^(k/steps)
  int threads = 1;           // 0: all logical CPUs
  double min_sample_s = 2e-3;  // each timed sample at least this long
  int samples = 3;             // best of
};

// Read bandwidth (a sum over the buffer with several independent vector accumulators, so
// neither the add latency nor a reduction order limits it) at each working set.
Result<std::vector<SweepPoint>> MeasureReadSweep(const SweepOptions& options, const std::function<void(double)>& on_point = {});

struct SweepLevels {
  std::vector<CacheLevel> caches;  // plateaus that end before the sweep does, by level
  double memory_bytes_per_s = 0;   // the last plateau: DRAM when the sweep went past the LLC
};

// The cache levels in a sweep curve. Pure (no timing, no OS): runs of three or more points
// agreeing within `tolerance` of their median; a new level where the rate falls by more than
// the tolerance (runs at the same rate or faster join the level before); a level lasts while
// the rate stays at it or above and must span 2 octaves (4x in size). Each level that ends before the
// curve does is a cache, its size the last working set at its rate; a level that reaches the
// end is memory (if none does, memory is the median of the last octave).
SweepLevels DetectCacheLevels(const std::vector<SweepPoint>& points, double tolerance = 0.12);

// [SECTION] FMA peak ----------------------------------------------------------------------

struct FlopsPoint {
  int threads = 1;
  double fp32_flops_per_s = 0;
  double fp64_flops_per_s = 0;
};

// Independent multiply-add chains (16 vector accumulators: 2 units x 4-cycle latency x 2) in
// the widest ISA, 2 FLOP per lane per multiply-add, on 1..max_threads threads. In wasm a
// SIMD128 multiply then add (WebAssembly SIMD has no FMA): the same FLOP, two instructions.
std::vector<FlopsPoint> MeasureFmaPeak(int max_threads, double min_sample_s = 20e-3, int samples = 3);

// [SECTION] The whole probe ---------------------------------------------------------------

struct CpuProbeOptions {
  bool quick = false;        // a short sweep (to 2 MiB), fewer samples; STREAM and SGEMM as the full probe sizes them
  int threads = 0;           // 0: all logical CPUs
  double array_bytes = 0;    // STREAM arrays; 0: DefaultStreamArrayBytes() (full: capped by the measured LLC)
  double sweep_max_bytes = 0;  // 0: quick 2 MiB, else SweepOptions' default
  int sweep_threads = 1;       // 1: per-core ceilings, sizes comparable with the OS's; 0: all
  bool run_stream = true, run_sweep = true, run_fma = true;
};

// The reference SGEMM (gemm.h) timed on N×N×N by machine.h's MeasureMachine.
struct GemmRate {
  int n = 0, threads = 1;
  double flops_per_s = 0;
  std::string kernel;  // the micro-kernel gemm.h chose
};

struct CpuProbeResult {
  std::string date;  // UTC, ISO 8601: 2025-01-31T12:00:00Z
  bool quick = false;
  CpuInfo cpu;
  std::vector<CacheLevel> reported_caches;  // the OS's sizes
  std::vector<StreamResult> stream;
  int sweep_threads = 1;
  std::vector<SweepPoint> sweep;
  std::vector<CacheLevel> measured_caches;  // plateaus found in the sweep
  double memory_read_bytes_per_s = 0;       // the sweep's last plateau (0: not reached)
  std::vector<FlopsPoint> fma;
  std::vector<GemmRate> gemm;      // filled by MeasureMachine (machine.h); empty from RunCpuProbe
  std::vector<std::string> notes;  // caveats found while measuring
  const StreamResult* FindStream(const std::string& kernel) const;
};

// `stage` is "stream", "sweep" or "fma"; `fraction` of the whole probe done, 0..1.
using CpuProbeProgress = std::function<void(const std::string& stage, double fraction)>;

Result<CpuProbeResult> RunCpuProbe(const CpuProbeOptions& options, const CpuProbeProgress& progress = {});

// gpuplan.cpu-probe/1: every metric with its unit and how it was measured.
std::string CpuProbeToJson(const CpuProbeResult& result);
// Lenient (unknown fields are ignored, missing optional ones read as 0) but a wrong schema or
// a value that cannot be right is an error naming the field: "stream[3].bytes_per_s ...".
Result<CpuProbeResult> CpuProbeFromJson(const std::string& text);

}  // namespace gpuplan
