#include "gpuplan/machine.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpuplan/i18n.h"
#include "gpuplan/small_sort.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

// Cache and array sizes in the units the OS reports them: KiB below a MiB.
std::string CacheSize(double bytes) {
  return bytes < kMiB ? FormatBytes(bytes, ByteUnit::KiB, 0) : FormatBytes(bytes, ByteUnit::MiB, 1);
}

}  // namespace

std::vector<MachineRow> CpuProbeRows(const CpuProbeResult& p) {
  std::vector<MachineRow> rows;
  const CpuInfo& c = p.cpu;
  rows.push_back(
      {"CPU", c.model_name, TrF("{0} logical CPUs; vector ISA {1}", {std::to_string(c.logical_cpus), c.isa}), 0, ""});
  if (c.clock_hz > 0)
    rows.push_back({Tr("Clock"), FormatRate(c.clock_hz, "Hz"),
                    Tr("the boost clock: the OS's maximum, else measured (assumptions say which)"), c.clock_hz, "Hz"});
  if (c.peak_flops_fp32 > 0)
    rows.push_back(
        {Tr("FP32 peak (derived)"), FormatRate(c.peak_flops_fp32, "FLOP/s"),
         TrF("{0} cores × clock × {1} lanes × 2 FLOP × {2} FMA units",
             {std::to_string(c.physical_cores), std::to_string(c.simd_bits / 32), std::to_string(c.fma_units)}),
         c.peak_flops_fp32, "FLOP/s"});
  double best_fma = 0;
  for (const FlopsPoint& f : p.fma) {
    best_fma = std::max(best_fma, f.fp32_flops_per_s);
    rows.push_back({f.threads > 1 ? TrF("FMA peak, {0} threads", {std::to_string(f.threads)})
                                  : TrF("FMA peak, {0} thread", {std::to_string(f.threads)}),
                    FormatRate(f.fp32_flops_per_s, "FLOP/s"),
                    TrF("FP32 independent multiply-add chains; FP64 {0}", {FormatRate(f.fp64_flops_per_s, "FLOP/s")}),
                    f.fp32_flops_per_s, "FLOP/s"});
  }
  for (const GemmRate& g : p.gemm) {
    double peak = 0;  // the measured FMA peak at the same thread count
    for (const FlopsPoint& f : p.fma)
      if (f.threads == g.threads) peak = f.fp32_flops_per_s;
    rows.push_back(
        {g.threads > 1 ? TrF("SGEMM N={0}, {1} threads", {std::to_string(g.n), std::to_string(g.threads)})
                       : TrF("SGEMM N={0}, {1} thread", {std::to_string(g.n), std::to_string(g.threads)}),
         FormatRate(g.flops_per_s, "FLOP/s"),
         g.kernel + (peak > 0 ? "; " + TrF("{0}% of the FMA peak", {FormatFixed(g.flops_per_s / peak * 100, 0)}) : ""),
         g.flops_per_s, "FLOP/s"});
  }
  for (const StreamResult& st : p.stream)
    rows.push_back(
        {"STREAM " + st.kernel, FormatRate(st.bytes_per_s, "B/s"),
         TrF("{0} arrays, {1} thread(s), best of {2}", {FormatBytes(st.array_bytes, ByteUnit::MiB, 0),
                                                        std::to_string(st.threads), std::to_string(st.repetitions)}),
         st.bytes_per_s, "B/s"});
  for (const CacheLevel& l : p.measured_caches)
    rows.push_back({TrF("L{0} read", {std::to_string(l.level)}), FormatRate(l.bytes_per_s, "B/s"),
                    TrF("plateau of the sweep up to {0} per thread", {CacheSize(l.size_bytes)}), l.bytes_per_s, "B/s"});
  if (p.memory_read_bytes_per_s > 0) {
    // The sweep's last plateau is main memory only when the sweep went past the last cache; a
    // quick sweep (2 MiB) ends inside it. Say which, rather than call it "Memory read".
    double largest = 0, llc = 0;
    for (const SweepPoint& s : p.sweep) largest = std::max(largest, s.size_bytes);
    for (const CacheLevel& l : p.reported_caches) llc = std::max(llc, l.size_bytes);
    for (const CacheLevel& l : p.measured_caches) llc = std::max(llc, l.size_bytes);
    const bool dram = llc > 0 && largest > 2 * llc;
    const std::string upto = CacheSize(largest), threads = std::to_string(p.sweep_threads);
    rows.push_back(
        {dram ? Tr("Memory read") : Tr("Largest sweep read"), FormatRate(p.memory_read_bytes_per_s, "B/s"),
         dram      ? TrF("the sweep's last plateau, up to {0} per thread, {1} thread(s) (past the last cache: main "
                              "memory)",
                         {upto, threads})
         : llc > 0 ? TrF("the sweep's last plateau, up to {0} per thread, {1} thread(s) (within the {2} last cache: "
                         "not main memory)",
                         {upto, threads, CacheSize(llc)})
                   : TrF("the sweep's last plateau, up to {0} per thread, {1} thread(s) (no cache size known: may be "
                         "a cache, not main memory)",
                         {upto, threads}),
         p.memory_read_bytes_per_s, "B/s"});
  }
  for (const CacheLevel& l : p.reported_caches)
    rows.push_back({TrF("L{0} size (reported)", {std::to_string(l.level)}), CacheSize(l.size_bytes),
                    Tr("the OS's figure"), l.size_bytes, "B"});
  return rows;
}

Roof CpuRoof(const CpuProbeResult& p) {
  Roof r;
  r.id = "cpu";
  r.label = p.cpu.model_name.empty() ? std::string(Tr("this CPU")) : p.cpu.model_name;
  double fma32 = 0, fma64 = 0, gemm = 0;
  for (const FlopsPoint& f : p.fma)
    fma32 = std::max(fma32, f.fp32_flops_per_s), fma64 = std::max(fma64, f.fp64_flops_per_s);
  for (const GemmRate& g : p.gemm) gemm = std::max(gemm, g.flops_per_s);
  // The measured FMA peak is the roof (drawn solid, it is this machine's); the derived peak
  // and the SGEMM are further ceilings.
  if (fma32 > 0) r.compute.push_back({"fp32", Tr("FP32 FMA peak (measured)"), fma32, false});
  if (fma64 > 0) r.compute.push_back({"fp64", Tr("FP64 FMA peak (measured)"), fma64, false});
  if (gemm > 0) r.compute.push_back({"fp32", Tr("SGEMM (measured)"), gemm, true});
  StableSortSmall(r.compute.begin(), r.compute.end(),
                   [](const ComputeCeiling& a, const ComputeCeiling& b) { return a.flops_per_s > b.flops_per_s; });
  const StreamResult* triad = p.FindStream("triad");
  const double dram = triad ? triad->bytes_per_s : p.memory_read_bytes_per_s;
  // Quick probes use arrays that may still fit a cache: the label gives the size.
  if (dram > 0)
    r.memory.push_back(
        {"dram",
         triad ? TrF("STREAM triad, {0} arrays", {CacheSize(triad->array_bytes)}) : std::string(Tr("memory read")),
         dram, false});
  for (const CacheLevel& l : p.measured_caches)
    if (l.bytes_per_s > 0)
      r.memory.push_back({l.level == 1   ? "l1"
                          : l.level == 2 ? "l2"
                                         : "llc",
                          TrF("L{0} (measured)", {std::to_string(l.level)}), l.bytes_per_s, true});
  return r;
}

std::vector<ChartPoint> CpuGemmPoints(const CpuProbeResult& p) {
  std::vector<ChartPoint> out;
  for (const GemmRate& g : p.gemm)
    if (g.n > 0 && g.flops_per_s > 0)
      out.push_back({TrF("SGEMM N={0}, {1} thread(s)", {std::to_string(g.n), std::to_string(g.threads)}),
                     static_cast<double>(g.n) / 6, g.flops_per_s, 0x2ca02c, true});
  return out;
}

}  // namespace gpuplan
