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

// The fraction each measurement on `gpu` gives (value / datasheet), for a kind of measurement.
template <typename Fraction>
std::vector<double> FractionsOn(const Catalog& catalog, const Gpu& gpu, Fraction fraction) {
  std::vector<double> out;
  for (const MeasuredCeiling& c : catalog.ceilings)
    if (c.gpu == gpu.id)
      if (const double f = fraction(c, gpu); f > 0) out.push_back(f);
  return out;
}

// This GPU's measurements, else the median of its kind's: same vendor, consumer or not and
// architecture family; then same vendor and consumer or not.
template <typename Fraction>
Attainable Pick(const Catalog& catalog, const Gpu& gpu, const std::string& what, Fraction fraction) {
  Attainable a;
  std::vector<double> mine = FractionsOn(catalog, gpu, fraction);
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
    int gpus = 0;
    for (const Gpu& other : catalog.gpus) {
      if (other.id == gpu.id || other.vendor != gpu.vendor || Consumer(other) != Consumer(gpu)) continue;
      if (level == 0 && Family(other) != Family(gpu)) continue;
      std::vector<double> f = FractionsOn(catalog, other, fraction);
      if (f.empty()) continue;
      ++gpus;
      theirs.push_back(Median(f));  // one vote per GPU
    }
    if (theirs.empty()) continue;
    a.fraction = std::min(1.0, Median(theirs));
    a.measurements = gpus;
    a.basis = what + ": not measured on " + gpu.name + "; the median of " + std::to_string(gpus) + " other " +
              gpu.vendor + (level == 0 ? " " + Family(gpu) : std::string()) + (Consumer(gpu) ? " consumer" : "") +
              " GPU" + (gpus == 1 ? "" : "s");
    return a;
  }
  a.basis = what + ": no published measurement for " + gpu.name + " or its kind; the datasheet figure";
  return a;
}

bool SixteenBit(const std::string& p) { return p == "bf16" || p == "fp16"; }

}  // namespace

Attainable AttainableMemory(const Catalog& catalog, const Gpu& gpu) {
  return Pick(catalog, gpu, "memory bandwidth", [](const MeasuredCeiling& c, const Gpu& g) {
    return c.what == "memory" && g.bandwidth_bytes_per_s > 0 ? c.value / g.bandwidth_bytes_per_s : 0.0;
  });
}

Attainable AttainableGemm(const Catalog& catalog, const Gpu& gpu, const std::string& precision) {
  // FP8 has measurements of its own; 16-bit ones stand for each other (one tensor-core rate);
  // the rest take the 16-bit fraction.
  const bool fp8 = precision.rfind("fp8", 0) == 0;
  const std::string what = (fp8 ? "FP8" : SixteenBit(precision) ? "16-bit" : "16-bit (for " + precision + ")") +
                           std::string(" GEMM");
  return Pick(catalog, gpu, what, [fp8](const MeasuredCeiling& c, const Gpu& g) {
    if (c.what != "gemm") return 0.0;
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
      const Gpu* g = catalog.FindGpu(c.gpu);
      if (c.what != what || !g || (own_only ? c.gpu != gpu.id : g->interconnect.has_value() != nvlink)) continue;
      best = std::min(best, std::abs(c.gpus - n));
    }
    std::vector<double> values;
    std::string where;
    for (const MeasuredCeiling& c : catalog.ceilings) {
      const Gpu* g = catalog.FindGpu(c.gpu);
      if (c.what != what || !g || (own_only ? c.gpu != gpu.id : g->interconnect.has_value() != nvlink) ||
          std::abs(c.gpus - n) != best)
        continue;
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
