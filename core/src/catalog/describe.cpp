#include "gpuplan/describe.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/i18n.h"
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
  add("vendor", Tr("Vendor"), g.vendor);
  if (!g.architecture.empty()) add("architecture", Tr("Architecture"), g.architecture);
  if (g.year) add("year", Tr("Year"), std::to_string(g.year));
  if (!g.form_factor.empty()) add("form_factor", Tr("Form factor"), g.form_factor);
  add("memory", Tr("Memory (as quoted)"),
      FormatShort(g.memory_quoted_value) + " " + g.memory_quoted_unit +
          (g.memory_type.empty() ? "" : " " + g.memory_type) + " = " +
          FormatBytes(g.memory_quoted_bytes, ByteUnit::GiB) + " = " + FormatBytes(g.memory_quoted_bytes, ByteUnit::GB));
  auto figure_row = [&](const char* field, const char* label, const std::optional<MemoryFigure>& f) {
    if (!f) return;
    std::string v = FormatCount(static_cast<long long>(std::llround(f->bytes / kMiB))) + " MiB = " +
                    FormatBytes(f->bytes, ByteUnit::GiB) + " = " + FormatBytes(f->bytes, ByteUnit::GB) + " (" + f->how;
    if (f->ecc) v += ", " + std::string(*f->ecc ? Tr("ECC on") : Tr("ECC off"));
    add(field, Tr(label), v + ")");
  };
  figure_row("memory_reported_mib", N_("Memory (driver total)"), g.memory_reported);
  figure_row("memory_runtime_mib", N_("Memory (runtime total)"), g.memory_runtime);
  figure_row("memory_derived", N_("Memory (derived)"), g.memory_derived);
  if (g.unified) {
    std::string v = g.unified->rule;
    if (g.unified->rule == "fraction") v += " " + TrF("{0}% of RAM", {FormatShort(g.unified->gpu_fraction * 100)});
    if (!g.unified->note.empty()) v += " (" + g.unified->note + ")";
    add("unified_memory", Tr("Unified memory: GPU share by"), v);
  }
  if (g.bandwidth_bytes_per_s > 0)
    add("bandwidth", Tr("Memory bandwidth"), FormatShort(g.bandwidth_bytes_per_s / kGB) + " GB/s");
  if (g.l2_cache_bytes > 0)
    add("l2_cache_mib", Tr("L2 / last-level cache"), FormatShort(g.l2_cache_bytes / kMiB) + " MiB");
  if (g.compute_units > 0)
    add("compute_units", Tr("Compute units"), std::to_string(g.compute_units) + " " + g.compute_unit_kind);
  if (g.boost_clock_hz > 0) add("boost_clock_mhz", Tr("Boost clock"), FormatShort(g.boost_clock_hz / 1e6) + " MHz");
  // Dense throughput in a fixed, readable order; unknown precisions are simply absent.
  static const char* kOrder[] = {"fp64", "fp64_tensor", "fp32", "tf32", "bf16", "fp16", "fp16_fp16acc",
                                 "fp8", "fp8_fp16acc", "int8", "fp6", "fp4"};
  std::vector<std::string> done;
  auto flops_row = [&](const std::string& precision, double flops) {
    const bool integer = precision.rfind("int", 0) == 0;
    add("dense_tflops", TrF("Dense {0}", {precision}), FormatShort(flops / 1e12) + (integer ? " TOPS" : " TFLOP/s"));
    done.push_back(precision);
  };
  for (const char* p : kOrder) {
    auto it = g.dense_flops.find(p);
    if (it != g.dense_flops.end()) flops_row(it->first, it->second);
  }
  for (const auto& [p, v] : g.dense_flops)
    if (std::find(done.begin(), done.end(), p) == done.end()) flops_row(p, v);
  for (const auto& [p, v] : g.sparse_flops)
    add("sparse_tflops", TrF("Sparse {0} (as quoted)", {p}), FormatShort(v / 1e12) + " TFLOP/s");
  if (g.sparsity_factor > 0)
    add("sparsity_factor", Tr("Sparsity factor"),
        TrF("{0}× (2:4 structured; headline = dense × factor)", {FormatShort(g.sparsity_factor)}));
  if (g.tdp_w > 0) add("tdp_w", Tr("TDP / board power"), FormatShort(g.tdp_w) + " W");
  if (g.interconnect) {
    const Interconnect& ic = *g.interconnect;
    std::string v = ic.kind + (ic.generation ? " gen " + std::to_string(ic.generation) : "");
    if (ic.bytes_per_s > 0) v += ", " + TrF("{0} GB/s per device", {FormatShort(ic.bytes_per_s / kGB)});
    if (!ic.note.empty()) v += " (" + ic.note + ")";
    add("interconnect", Tr("Scale-up interconnect"), v);
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
    add("pcie", Tr("Host link"), v);
  }
  if (g.ecc) {
    std::string v = *g.ecc ? Tr("yes") : Tr("no");
    if (*g.ecc) v += ", " + std::string(g.ecc_default_on ? Tr("on by default") : Tr("off by default"));
    if (g.ecc_reserved_fraction > 0)
      v += ", " + TrF("reserves {0}% of capacity when on", {FormatFixed(g.ecc_reserved_fraction * 100, 2)});
    if (!g.ecc_note.empty()) v += " (" + g.ecc_note + ")";
    add("ecc", "ECC", v);
  }
  if (!g.mig.empty()) add("mig", "MIG", g.mig);
  if (!g.mig_profiles.empty()) {
    std::string v;
    for (const MigProfile& p : g.mig_profiles) {
      v += (v.empty() ? "" : ", ") + p.name + " " + FormatBytes(p.bytes, ByteUnit::GiB);
      if (p.max_instances > 0) v += " ×" + std::to_string(p.max_instances);
    }
    add("mig_profiles", Tr("MIG profiles (mig=)"), v);
  }
  for (const Price& p : g.prices) {
    std::string v = p.jpy > 0 ? "¥" : "$";  // appended, not chained: see the -Wrestrict note above
    v += FormatCount(static_cast<long long>(p.jpy > 0 ? p.jpy : p.usd));
    v += " (" + p.date + "; " + p.source.title + ")";
    rows.push_back({"prices",
                    p.kind == "launch"     ? Tr("Launch price")
                    : p.kind == "estimate" ? Tr("Estimated price")
                                           : Tr("Street price"),
                    v,
                    {}});
  }
  return rows;
}

}  // namespace gpuplan

namespace gpuplan {

// 2:4 structured sparsity doubles tensor-core math only (NVIDIA A100 whitepaper, "Fine-grained
// structured sparsity"): never the FP64/FP32 vector units, nor Hopper's FP64 tensor cores, whose
// 67 TFLOPS on an H100 SXM is a dense figure (H100 datasheet: "FP64 Tensor Core 67 teraFLOPS").
namespace {

bool SparsityApplies(const std::string& key) {
  return key != "fp64" && key != "fp64_tensor" && key != "fp32";
}

// What a catalog key means, in words a datasheet reader recognises. GeForce cards (the ones with
// an FP16-accumulate figure) say which accumulator their "FP16" is.
std::string RateLabel(const Gpu& g, const std::string& key) {
  if (key == "fp64") return Tr("fp64 (non-tensor)");
  if (key == "fp64_tensor") return Tr("fp64 tensor-core");
  if (key == "fp32") return Tr("fp32 (non-tensor)");
  const size_t acc = key.find("_fp16acc");
  if (acc != std::string::npos) return TrF("{0} with FP16 accumulate", {key.substr(0, acc)});
  if (g.dense_flops.count(key + "_fp16acc")) return TrF("{0} with FP32 accumulate", {key});
  return key;
}

}  // namespace

std::vector<std::string> ExplainQuotedTflops(const Gpu& g, const std::string& precision, double quoted_tflops,
                                             double tolerance) {
  std::vector<std::string> out;
  auto near = [&](double tflops) { return tflops > 0 && std::abs(quoted_tflops / tflops - 1) <= tolerance; };
  // Every reading of one catalog key: its dense figure, and its sparse one (as the vendor quotes
  // it where that is not dense × factor, as on Blackwell Ultra's FP4).
  auto readings = [&](const std::string& key, const std::string& prefix) {
    std::vector<std::string> found;
    auto it = g.dense_flops.find(key);
    if (it == g.dense_flops.end()) return found;
    const double dense = it->second / 1e12;
    const std::string label = RateLabel(g, key);
    if (near(dense)) found.push_back(prefix + TrF("dense {0} ({1})", {label, FormatShort(dense, 2)}));
    if (!SparsityApplies(key)) return found;
    if (auto sp = g.sparse_flops.find(key); sp != g.sparse_flops.end()) {
      if (near(sp->second / 1e12))
        found.push_back(prefix + TrF("sparse: {0} as quoted ({1}; not 2 × dense {2})",
                                     {label, FormatShort(sp->second / 1e12, 2), FormatShort(dense, 2)}));
    } else if (g.sparsity_factor > 1 && near(dense * g.sparsity_factor)) {
      found.push_back(prefix + TrF("sparse: {0} × dense {1} ({0} × {2})",
                                   {FormatShort(g.sparsity_factor), label, FormatShort(dense, 2)}));
    }
    return found;
  };
  std::vector<std::string> own = {precision, precision + "_fp16acc"};
  if (precision == "fp64") own.push_back("fp64_tensor");
  for (const std::string& key : own)
    for (std::string& r : readings(key, "")) out.push_back(std::move(r));
  if (!out.empty()) return out;
  // Not a rate of the precision asked about: guides often print another precision's figure under
  // its heading (an A100's "FP16 19.5" is its FP32 rate).
  for (const auto& [key, flops] : g.dense_flops) {
    if (std::find(own.begin(), own.end(), key) != own.end()) continue;
    for (std::string& r : readings(key, TrF("not a {0} rate of this GPU", {precision}) + ": "))
      out.push_back(std::move(r));
  }
  return out;
}

}  // namespace gpuplan
