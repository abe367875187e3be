#include "gpuplan/ceilings.h"

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

// This GPU's measurements of a kind ("memory", "gemm"), else the median of its kind's GPUs':
// same vendor, consumer or not and architecture family; then same vendor and consumer or not.
// One pass over the ceilings of that kind (a speed estimate asks for every GPU in a compare).
template <typename Fraction>
Attainable Pick(const Catalog& catalog, const Gpu& gpu, const std::string& what, const char* kind, Fraction fraction) {
  Attainable a;
  struct Vote {
    const Gpu* g;
    bool same_family;
    std::vector<double> f;
  };
  std::vector<double> mine;
  std::vector<Vote> votes;
  const bool consumer = Consumer(gpu);
  const std::string family = Family(gpu);
  for (const MeasuredCeiling& c : catalog.ceilings) {
    if (c.what != kind) continue;
    if (c.gpu == gpu.id) {
      if (const double f = fraction(c, gpu); f > 0) mine.push_back(f);
      continue;
    }
    const Gpu* other = catalog.FindGpu(c.gpu);
    if (!other || other->vendor != gpu.vendor || Consumer(*other) != consumer) continue;
    const double f = fraction(c, *other);
    if (!(f > 0)) continue;
    auto v = std::find_if(votes.begin(), votes.end(), [&](const Vote& x) { return x.g == other; });
    if (v == votes.end()) v = votes.insert(votes.end(), Vote{other, Family(*other) == family, {}});
    v->f.push_back(f);
  }
  if (!mine.empty()) {
    a.fraction = std::min(1.0, Median(mine));
    a.measurements = static_cast<int>(mine.size());
    a.own = true;
    a.basis = what + ": median of " + std::to_string(mine.size()) + " published measurement" +
              (mine.size() == 1 ? "" : "s") + " on this GPU";
    return a;
  }
  for (int level = 0; level < 2; ++level) {
    std::vector<double> theirs;
    for (const Vote& v : votes)
      if (level == 1 || v.same_family) theirs.push_back(Median(v.f));  // one vote per GPU
    if (theirs.empty()) continue;
    const int gpus = static_cast<int>(theirs.size());
    a.fraction = std::min(1.0, Median(theirs));
    a.measurements = gpus;
    a.basis = what + ": not measured on " + gpu.name + "; the median of " + std::to_string(gpus) + " other " +
              gpu.vendor + (level == 0 ? " " + family : std::string()) + (consumer ? " consumer" : "") + " GPU" +
              (gpus == 1 ? "" : "s");
    return a;
  }
  a.basis = what + ": no published measurement for " + gpu.name + " or its kind; the datasheet figure";
  return a;
}

bool SixteenBit(const std::string& p) { return p == "bf16" || p == "fp16"; }

}  // namespace

Attainable AttainableMemory(const Catalog& catalog, const Gpu& gpu) {
  return Pick(catalog, gpu, "memory bandwidth", "memory", [](const MeasuredCeiling& c, const Gpu& g) {
    return g.bandwidth_bytes_per_s > 0 ? c.value / g.bandwidth_bytes_per_s : 0.0;
  });
}

Attainable AttainableGemm(const Catalog& catalog, const Gpu& gpu, const std::string& precision) {
  // FP8 has measurements of its own; 16-bit ones stand for each other (one tensor-core rate);
  // the rest take the 16-bit fraction.
  const bool fp8 = precision.rfind("fp8", 0) == 0;
  const std::string what = (fp8 ? "FP8" : SixteenBit(precision) ? "16-bit" : "16-bit (for " + precision + ")") +
                           std::string(" GEMM");
  return Pick(catalog, gpu, what, "gemm", [fp8](const MeasuredCeiling& c, const Gpu& g) {
    const bool c_fp8 = c.precision.rfind("fp8", 0) == 0;
    if (fp8 != c_fp8 || (!fp8 && !SixteenBit(c.precision))) return 0.0;
    const double peak = DatasheetPeak(g, c.precision);
    return peak > 0 ? c.value / peak : 0.0;
  });
}

MeasuredAllReduce AllReduceMeasurements(const Catalog& catalog, const Gpu& gpu, int n) {
  MeasuredAllReduce out;
  const bool nvlink = gpu.interconnect.has_value();
  // The measurements of a kind nearest n GPUs: their median, and which GPUs and tools.
  auto nearest = [&](const std::string& what, bool own_only, double& value, std::string& basis) {
    int best = 1 << 30;
    for (const MeasuredCeiling& c : catalog.ceilings) {
      if (c.what != what) continue;
      const Gpu* g = catalog.FindGpu(c.gpu);
      if (!g || (own_only ? c.gpu != gpu.id : g->interconnect.has_value() != nvlink)) continue;
      best = std::min(best, std::abs(c.gpus - n));
    }
    std::vector<double> values;
    std::string where;
    for (const MeasuredCeiling& c : catalog.ceilings) {
      if (c.what != what || std::abs(c.gpus - n) != best) continue;
      const Gpu* g = catalog.FindGpu(c.gpu);
      if (!g || (own_only ? c.gpu != gpu.id : g->interconnect.has_value() != nvlink)) continue;
      values.push_back(c.value);
      // The tool's name: its first two words ("nccl-tests all_reduce_perf", "vLLM custom").
      const size_t first = c.tool.find(' '), second = first == std::string::npos ? first : c.tool.find(' ', first + 1);
      std::string tool = c.tool.substr(0, second);
      while (!tool.empty() && (tool.back() == ',' || tool.back() == ';' || tool.back() == ':')) tool.pop_back();
      const std::string tag = std::to_string(c.gpus) + " × " + g->name + (tool.empty() ? "" : " (" + tool + ")");
      if (where.find(tag) == std::string::npos) where += (where.empty() ? "" : "; ") + tag;
    }
    if (values.empty()) return;
    value = Median(values);
    basis = "median of " + std::to_string(values.size()) + " measurement" + (values.size() == 1 ? "" : "s") + " on " + where;
  };
  nearest("allreduce_busbw", true, out.bus_bytes_per_s, out.bus_basis);
  nearest("allreduce_latency", true, out.latency_s, out.latency_basis);
  if (out.latency_s == 0) nearest("allreduce_latency", false, out.latency_s, out.latency_basis);
  return out;
}

}  // namespace gpuplan
