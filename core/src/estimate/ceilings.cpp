#include "gpuplan/ceilings.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "gpuplan/small_sort.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

double DatasheetPeak(const Gpu& gpu, const std::string& precision) {
  auto it = gpu.dense_flops.find(precision);
  return it == gpu.dense_flops.end() ? 0 : it->second;
}

// GeForce and Radeon figures are quoted differently from the data-centre parts (GeForce 16-bit
// tensor rates are the FP32-accumulate ones, and the cards boost above their spec clock), so a
// consumer card borrows only from consumer cards.
bool Consumer(const Gpu& g) {
  return g.name.find("GeForce") != std::string::npos || g.name.find("Radeon") != std::string::npos;
}

std::string Family(const Gpu& g) { return g.architecture.substr(0, g.architecture.find(' ')); }

double Median(std::vector<double> v) {
  StableSortSmall(v.begin(), v.end(), [](double a, double b) { return a < b; });  // a handful of values
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A kind's measurements ("memory", "gemm") as fractions of each measured GPU's datasheet
// figure, grouped by GPU in the order the catalog lists them (fractions that are not positive
// are left out).
template <typename Fraction>
std::vector<MeasuredGpu> Group(const Catalog& catalog, const char* kind, Fraction fraction) {
  std::vector<MeasuredGpu> out;
  for (const MeasuredCeiling& c : catalog.ceilings) {
    if (c.what != kind) continue;
    const Gpu* g = catalog.FindGpu(c.gpu);
    if (!g) continue;
    const double f = fraction(c, *g);
    if (!(f > 0)) continue;
    auto m = std::find_if(out.begin(), out.end(), [&](const MeasuredGpu& x) { return x.gpu == g; });
    if (m == out.end()) m = out.insert(out.end(), MeasuredGpu{g, {}});
    m->fractions.push_back(f);
  }
  return out;
}

double MemoryFraction(const MeasuredCeiling& c, const Gpu& g) {
  return g.bandwidth_bytes_per_s > 0 ? c.value / g.bandwidth_bytes_per_s : 0.0;
}

bool SixteenBit(const std::string& p) {
  return p == "bf16" || p == "fp16";
}

// FP8 has measurements of its own; 16-bit ones stand for each other (one tensor-core rate);
// the rest take the 16-bit fraction.
auto GemmFraction(bool fp8) {
  return [fp8](const MeasuredCeiling& c, const Gpu& g) {
    const bool c_fp8 = c.precision.rfind("fp8", 0) == 0;
    if (fp8 != c_fp8 || (!fp8 && !SixteenBit(c.precision))) return 0.0;
    const double peak = DatasheetPeak(g, c.precision);
    return peak > 0 ? c.value / peak : 0.0;
  };
}

std::string GemmWhat(const std::string& precision) {
  const bool fp8 = precision.rfind("fp8", 0) == 0;
  return fp8                     ? std::string(Tr("FP8 GEMM"))
         : SixteenBit(precision) ? std::string(Tr("16-bit GEMM"))
                                 : TrF("16-bit (for {0}) GEMM", {precision});
}

// This GPU's measurements of a kind ("memory", "gemm"), else the median of its kind's GPUs':
// same vendor, consumer or not and architecture family; then same vendor and consumer or not.
// `measured`: the kind's fractions grouped by GPU (Group), shared by every GPU asked about.
Attainable Pick(const std::vector<MeasuredGpu>& measured, const Gpu& gpu, const std::string& what, bool say) {
  Attainable a;
  const bool consumer = Consumer(gpu);
  const std::string family = Family(gpu);
  for (const MeasuredGpu& m : measured) {
    if (m.gpu != &gpu && m.gpu->id != gpu.id) continue;
    a.fraction = std::min(1.0, Median(m.fractions));
    a.measurements = static_cast<int>(m.fractions.size());
    a.own = true;
    if (say)
      a.basis = m.fractions.size() == 1 ? TrF("{0}: median of {1} published measurement on this GPU",
                                              {what, std::to_string(m.fractions.size())})
                                        : TrF("{0}: median of {1} published measurements on this GPU",
                                              {what, std::to_string(m.fractions.size())});
    return a;
  }
  for (int level = 0; level < 2; ++level) {
    std::vector<double> theirs;
    for (const MeasuredGpu& m : measured)
      if (m.gpu->vendor == gpu.vendor && Consumer(*m.gpu) == consumer && (level == 1 || Family(*m.gpu) == family))
        theirs.push_back(Median(m.fractions));  // one vote per GPU
    if (theirs.empty()) continue;
    const int gpus = static_cast<int>(theirs.size());
    a.fraction = std::min(1.0, Median(theirs));
    a.measurements = gpus;
    if (say) {
      const std::string kind = gpu.vendor + (level == 0 ? " " + family : std::string());
      const std::string count = std::to_string(gpus);
      a.basis = consumer ? (gpus == 1 ? TrF("{0}: not measured on {1}; the median of {2} other {3} consumer GPU",
                                            {what, gpu.name, count, kind})
                                      : TrF("{0}: not measured on {1}; the median of {2} other {3} consumer GPUs",
                                            {what, gpu.name, count, kind}))
                         : (gpus == 1 ? TrF("{0}: not measured on {1}; the median of {2} other {3} GPU",
                                            {what, gpu.name, count, kind})
                                      : TrF("{0}: not measured on {1}; the median of {2} other {3} GPUs",
                                            {what, gpu.name, count, kind}));
    }
    return a;
  }
  if (say) a.basis = TrF("{0}: no published measurement for {1} or its kind; the datasheet figure", {what, gpu.name});
  return a;
}

}  // namespace

Attainable AttainableMemory(const Catalog& catalog, const Gpu& gpu) {
  return Pick(Group(catalog, "memory", MemoryFraction), gpu, Tr("memory bandwidth"), true);
}

Attainable AttainableGemm(const Catalog& catalog, const Gpu& gpu, const std::string& precision) {
  return Pick(Group(catalog, "gemm", GemmFraction(precision.rfind("fp8", 0) == 0)), gpu, GemmWhat(precision), true);
}

Attainable CeilingTable::Memory(const Gpu& gpu, bool say) const {
  return Pick(memory, gpu, say ? Tr("memory bandwidth") : "", say);
}

Attainable CeilingTable::Gemm(const Gpu& gpu, const std::string& precision, bool say) const {
  const bool fp8 = precision.rfind("fp8", 0) == 0;
  return Pick(fp8 ? gemm_fp8 : gemm_16bit, gpu, say ? GemmWhat(precision) : std::string(), say);
}

namespace {

// The all-reduce measurements with their GPUs (those whose GPU the catalog holds).
std::vector<MeasuredLink> Links(const Catalog& catalog) {
  std::vector<MeasuredLink> out;
  for (const MeasuredCeiling& c : catalog.ceilings)
    if (c.what == "allreduce_busbw" || c.what == "allreduce_latency")
      if (const Gpu* g = catalog.FindGpu(c.gpu)) out.push_back({&c, g});
  return out;
}

MeasuredAllReduce AllReduceFrom(const std::vector<MeasuredLink>& links, const Gpu& gpu, int n, bool say) {
  MeasuredAllReduce out;
  const bool nvlink = gpu.interconnect.has_value();
  // The measurements of a kind nearest n GPUs: their median, and which GPUs and tools.
  auto nearest = [&](const std::string& what, bool own_only, double& value, std::string& basis) {
    int best = 1 << 30;
    for (const auto& [c, g] : links) {
      if (c->what != what) continue;
      if (own_only ? c->gpu != gpu.id : g->interconnect.has_value() != nvlink) continue;
      best = std::min(best, std::abs(c->gpus - n));
    }
    std::vector<double> values;
    std::string where;
    for (const auto& [c, g] : links) {
      if (c->what != what || std::abs(c->gpus - n) != best) continue;
      if (own_only ? c->gpu != gpu.id : g->interconnect.has_value() != nvlink) continue;
      values.push_back(c->value);
      if (!say) continue;
      // The tool's name: its first two words ("nccl-tests all_reduce_perf", "vLLM custom").
      const size_t first = c->tool.find(' '),
                   second = first == std::string::npos ? first : c->tool.find(' ', first + 1);
      std::string tool = c->tool.substr(0, second);
      while (!tool.empty() && (tool.back() == ',' || tool.back() == ';' || tool.back() == ':')) tool.pop_back();
      const std::string tag = std::to_string(c->gpus) + " × " + g->name + (tool.empty() ? "" : " (" + tool + ")");
      if (where.find(tag) == std::string::npos) where += (where.empty() ? "" : "; ") + tag;
    }
    if (values.empty()) return;
    value = Median(values);
    if (say)
      basis = values.size() == 1 ? TrF("median of {0} measurement on {1}", {std::to_string(values.size()), where})
                                 : TrF("median of {0} measurements on {1}", {std::to_string(values.size()), where});
  };
  nearest("allreduce_busbw", true, out.bus_bytes_per_s, out.bus_basis);
  nearest("allreduce_latency", true, out.latency_s, out.latency_basis);
  if (out.latency_s == 0) nearest("allreduce_latency", false, out.latency_s, out.latency_basis);
  return out;
}

}  // namespace

MeasuredAllReduce AllReduceMeasurements(const Catalog& catalog, const Gpu& gpu, int n) {
  return AllReduceFrom(Links(catalog), gpu, n, true);
}

CeilingTable::CeilingTable(const Catalog& catalog)
    : memory(Group(catalog, "memory", MemoryFraction)),
      gemm_16bit(Group(catalog, "gemm", GemmFraction(false))),
      gemm_fp8(Group(catalog, "gemm", GemmFraction(true))),
      links(Links(catalog)) {}

MeasuredAllReduce CeilingTable::AllReduce(const Gpu& gpu, int n, bool say) const {
  return AllReduceFrom(links, gpu, n, say);
}

}  // namespace gpuplan
