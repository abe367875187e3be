#include "gpuplan/describe.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/units.h"

namespace gpuplan {

namespace {

std::vector<int> SourcesFor(const Gpu& g, const std::string& field) {
  std::vector<int> out;
  for (size_t i = 0; i < g.sources.size(); ++i) {
    const auto& f = g.sources[i].fields;
    if (std::find(f.begin(), f.end(), field) != f.end()) out.push_back(static_cast<int>(i));
  }
  return out;
}

}  // namespace

std::vector<DetailRow> DescribeGpu(const Gpu& g) {
  std::vector<DetailRow> rows;
  auto add = [&](const std::string& field, const std::string& label, const std::string& value) {
    rows.push_back({field, label, value, SourcesFor(g, field)});
  };
  add("vendor", "Vendor", g.vendor);
  if (!g.architecture.empty()) add("architecture", "Architecture", g.architecture);
  if (g.year) add("year", "Year", std::to_string(g.year));
  if (!g.form_factor.empty()) add("form_factor", "Form factor", g.form_factor);
  add("memory", "Memory (as quoted)",
      FormatShort(g.memory_quoted_value) + " " + g.memory_quoted_unit + (g.memory_type.empty() ? "" : " " + g.memory_type) +
          " = " + FormatBytes(g.memory_quoted_bytes, ByteUnit::GiB) + " = " +
          FormatBytes(g.memory_quoted_bytes, ByteUnit::GB));
  if (g.memory_reported_bytes)
    add("memory_reported_mib", "Memory (driver total)",
        FormatCount(static_cast<long long>(*g.memory_reported_bytes / kMiB)) + " MiB = " +
            FormatBytes(*g.memory_reported_bytes, ByteUnit::GiB) + " (" + g.memory_reported_how + ")");
  if (g.bandwidth_bytes_per_s > 0)
    add("bandwidth", "Memory bandwidth", FormatShort(g.bandwidth_bytes_per_s / kGB) + " GB/s");
  if (g.l2_cache_bytes > 0) add("l2_cache_mib", "L2 / last-level cache", FormatShort(g.l2_cache_bytes / kMiB) + " MiB");
  if (g.compute_units > 0) add("compute_units", "Compute units", std::to_string(g.compute_units) + " " + g.compute_unit_kind);
  if (g.boost_clock_hz > 0) add("boost_clock_mhz", "Boost clock", FormatShort(g.boost_clock_hz / 1e6) + " MHz");
  // Dense throughput in a fixed, readable order; unknown precisions are simply absent.
  static const char* kOrder[] = {"fp64", "fp64_tensor", "fp32", "tf32", "bf16", "fp16", "fp16_fp16acc",
                                 "fp8", "fp8_fp16acc", "int8", "fp6", "fp4"};
  std::vector<std::string> done;
  auto flops_row = [&](const std::string& precision, double flops) {
    const bool integer = precision.rfind("int", 0) == 0;
    add("dense_tflops", "Dense " + precision, FormatShort(flops / 1e12) + (integer ? " TOPS" : " TFLOP/s"));
    done.push_back(precision);
  };
  for (const char* p : kOrder) {
    auto it = g.dense_flops.find(p);
    if (it != g.dense_flops.end()) flops_row(it->first, it->second);
  }
  for (const auto& [p, v] : g.dense_flops)
    if (std::find(done.begin(), done.end(), p) == done.end()) flops_row(p, v);
  if (g.sparsity_factor > 0) add("sparsity_factor", "Sparsity factor", FormatShort(g.sparsity_factor) + "× (2:4 structured; headline = dense × factor)");
  if (g.tdp_w > 0) add("tdp_w", "TDP / board power", FormatShort(g.tdp_w) + " W");
  if (g.interconnect) {
    const Interconnect& ic = *g.interconnect;
    std::string v = ic.kind + (ic.generation ? " gen " + std::to_string(ic.generation) : "");
    if (ic.bytes_per_s > 0) v += ", " + FormatShort(ic.bytes_per_s / kGB) + " GB/s per device";
    if (!ic.note.empty()) v += " (" + ic.note + ")";
    add("interconnect", "Scale-up interconnect", v);
  }
  if (g.pcie_gen) {
    // Built by appending: g++ 12 warns falsely (-Wrestrict) on "literal" + std::string chains here.
    std::string v = "PCIe ";
    v += std::to_string(g.pcie_gen);
    v += ".0";
    if (g.pcie_lanes) {
      v += " x";
      v += std::to_string(g.pcie_lanes);
    }
    add("pcie", "Host link", v);
  }
  if (g.ecc) {
    std::string v = *g.ecc ? "yes" : "no";
    if (g.ecc_reserved_fraction > 0) v += ", reserves " + FormatFixed(g.ecc_reserved_fraction * 100, 2) + "% of capacity when on";
    if (!g.ecc_note.empty()) v += " (" + g.ecc_note + ")";
    add("ecc", "ECC", v);
  }
  if (!g.mig.empty()) add("mig", "MIG", g.mig);
  for (const Price& p : g.prices) {
    std::string v = "$";  // appended, not chained: see the -Wrestrict note above
    v += FormatCount(static_cast<long long>(p.usd));
    v += " (" + p.date + "; " + p.source.title + ")";
    rows.push_back({"prices", p.kind == "launch" ? "Launch price" : "Street price", v, {}});
  }
  return rows;
}

}  // namespace gpuplan

namespace gpuplan {

std::vector<std::string> ExplainQuotedTflops(const Gpu& g, const std::string& precision, double quoted_tflops,
                                             double tolerance) {
  std::vector<std::string> out;
  auto near = [&](double tflops) { return tflops > 0 && std::abs(quoted_tflops / tflops - 1) <= tolerance; };
  auto check = [&](const std::string& key, const std::string& label) {
    auto it = g.dense_flops.find(key);
    if (it == g.dense_flops.end()) return;
    const double dense = it->second / 1e12;
    if (near(dense)) out.push_back("dense " + label + " (" + FormatShort(dense, 2) + ")");
    if (g.sparsity_factor > 1 && near(dense * g.sparsity_factor))
      out.push_back("sparse: " + FormatShort(g.sparsity_factor) + " × dense " + label + " (" +
                    FormatShort(g.sparsity_factor) + " × " + FormatShort(dense, 2) + ")");
  };
  check(precision, precision);
  check(precision + "_fp16acc", precision + " with FP16 accumulate");
  return out;
}

}  // namespace gpuplan
