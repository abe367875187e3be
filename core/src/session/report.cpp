#include "gpuplan/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include <nlohmann/json.hpp>

#include "gpuplan/model.h"
#include "gpuplan/records.h"

namespace gpuplan {

using nlohmann::ordered_json;

namespace {

// JSON has no NaN or infinity; nothing non-finite is ever written (null instead).
ordered_json Number(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

// Every scenario field under its hash key, typed: numbers as numbers, ids as strings.
ordered_json ScenarioJson(const Scenario& s) {
  ordered_json j;
  for (const FieldInfo& f : ScenarioFields()) {
    const std::string v = GetField(s, f.key);
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (!v.empty() && end == v.c_str() + v.size() && std::isfinite(d)) j[f.key] = d;
    else j[f.key] = v;
  }
  return j;
}

// The device's memory from the driver's total to what the workload can allocate (capacity.h).
// Steps carry the bytes they move, never negative: "adds" marks one that gives memory back.
ordered_json DeviceJson(const DeviceMemory& d) {
  ordered_json steps = ordered_json::array();
  for (const CapacityStep& s : d.steps) {
    ordered_json step = {{"key", s.key}, {"name", s.name}, {"formula", s.formula}, {"bytes", Number(std::abs(s.bytes))}};
    if (s.bytes < 0) step["adds"] = true;
    steps.push_back(step);
  }
  return {{"total_bytes", Number(d.total_bytes)}, {"total_basis", d.total_basis}, {"steps", steps},
          {"runtime_bytes", Number(d.runtime_bytes)}, {"free_bytes", Number(d.free_bytes)}};
}

// Figures the estimate could not give: null in place of a number, and the reason under
// "unknown" — never a 0 that reads as a measurement.
void MarkUnknown(ordered_json& j, const std::map<std::string, std::string>& unknown) {
  if (unknown.empty()) return;
  ordered_json why = ordered_json::object();
  for (const auto& [key, reason] : unknown) {
    if (!j.contains(key)) continue;
    j[key] = nullptr;
    why[key] = reason;
  }
  if (!why.empty()) j["unknown"] = why;
}

ordered_json BandJson(const Band& b) {
  ordered_json j{{"lo", Number(b.lo)}, {"hi", Number(b.hi)}, {"cases", b.cases}};
  if (!b.basis.empty()) j["basis"] = b.basis;
  return j;
}

ordered_json StepJson(const StepTime& t) {
  ordered_json terms = ordered_json::array();
  for (const TimeTerm& x : t.terms)
    terms.push_back({{"key", x.key}, {"name", x.name}, {"formula", x.formula}, {"seconds", Number(x.seconds)}});
  return {{"seconds", Number(t.seconds)}, {"bound", t.bound},     {"memory_s", Number(t.memory_s)},
          {"compute_s", Number(t.compute_s)}, {"serial_s", Number(t.serial_s)}, {"bytes", Number(t.bytes)},
          {"flops", Number(t.flops)}, {"terms", terms}};
}

ordered_json Numbers(const std::vector<double>& v) {
  ordered_json a = ordered_json::array();
  for (double x : v) a.push_back(Number(x));
  return a;
}

// The cost block: in the speed report (per token) and, with the monthly series, the cost report.
// The currency the words show. The JSON's figures stay in US dollars (their keys say usd or
// are dollars per unit); multiply by per_usd for the reader's currency.
ordered_json MoneyJson(const Money& m) {
  return {{"code", m.code}, {"per_usd", Number(m.per_usd)}, {"basis", m.basis}};
}

ordered_json CostJson(const CostEstimate& c) {
  ordered_json lines = ordered_json::array();
  for (const CostLine& l : c.lines)
    lines.push_back({{"key", l.key}, {"name", l.name}, {"formula", l.formula}, {"usd", Number(l.usd)}});
  return {{"cloud_gpu_hour", Number(c.cloud_gpu_hour)},
          {"cloud_basis", c.cloud_basis},
          {"cloud_hour", Number(c.cloud_hour)},
          {"spot_gpu_hour", Number(c.spot_gpu_hour)},
          {"spot_basis", c.spot_basis},
          {"spot_effective_gpu_hour", Number(c.spot_effective_gpu_hour)},
          {"spot_hour", Number(c.spot_hour)},
          {"spot_discount", Number(c.spot_discount)},
          {"cloud_per_m_output", Number(c.cloud_per_m_output)},
          {"cloud_per_m_input", Number(c.cloud_per_m_input)},
          {"spot_per_m_output", Number(c.spot_per_m_output)},
          {"purchase_gpu", Number(c.purchase_gpu)},
          {"purchase_basis", c.purchase_basis},
          {"power_w", Number(c.power_w)},
          {"energy_hour", Number(c.energy_hour)},
          {"owned_hour", Number(c.owned_hour)},
          {"owned_per_m_output", Number(c.owned_per_m_output)},
          {"owned_per_m_input", Number(c.owned_per_m_input)},
          {"busy_hours_month", Number(c.busy_hours_month)},
          {"cloud_month", Number(c.cloud_month)},
          {"spot_month", Number(c.spot_month)},
          {"amortised_month", Number(c.amortised_month)},
          {"energy_month", Number(c.energy_month)},
          {"owned_month", Number(c.owned_month)},
          {"break_even_months", Number(c.break_even_months)},
          {"break_even_spot_months", Number(c.break_even_spot_months)},
          {"lines", lines},
          {"currency", MoneyJson(c.money)},
          {"assumptions", c.assumptions},
          {"warnings", c.warnings}};
}

ordered_json CostJsonMarked(const CostEstimate& c) {
  ordered_json j = CostJson(c);
  MarkUnknown(j, c.unknown);
  return j;
}

}  // namespace

std::string FitReportJson(const Catalog& catalog, const Scenario& s, const MemoryEstimate& e, int indent,
                          const std::string& state) {
  ordered_json j;
  j["schema"] = "gpuplan.fit/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = state.empty() ? EncodeState(s) : state;
  if (const Model* m = catalog.FindModel(s.model)) {
    const ParamCount c = CountParams(*m);
    j["model"] = {{"name", m->name},
                  {"params", Number(c.total)},
                  {"active_params", Number(c.active)},
                  {"params_published", m->params > 0 ? ordered_json(m->params) : ordered_json(nullptr)},
                  {"active_params_published", m->active_params > 0 ? ordered_json(m->active_params) : ordered_json(nullptr)},
                  {"vision_params", Number(c.vision)},
                  {"attention", DescribeAttention(*m)}};
    // How the published counts compare with the computed ones (model.h conventions).
    std::string convention;
    if (m->published_excludes_vision && c.vision > 0) convention += "published total without the vision tower; ";
    if (m->published_includes_mtp) convention += "published total with the MTP module; ";
    if (m->active_excludes == "input_embedding") convention += "published active count without the input embedding; ";
    if (m->active_excludes == "embeddings") convention += "published active count without the embedding and LM head; ";
    if (!convention.empty()) j["model"]["published_convention"] = convention.substr(0, convention.size() - 2);
  }
  if (const Gpu* g = catalog.FindGpu(s.gpu))
    j["gpu"] = {{"name", g->name},
                {"memory_quoted", std::to_string(static_cast<long long>(g->memory_quoted_value)) + " " +
                                      g->memory_quoted_unit}};
  ordered_json per_gpu;
  ordered_json terms = ordered_json::array();
  for (const Term& t : e.terms)
    terms.push_back({{"key", t.key}, {"name", t.name}, {"formula", t.formula}, {"bytes", Number(t.bytes)}});
  per_gpu["terms"] = terms;
  per_gpu["total_bytes"] = Number(e.total_bytes);
  per_gpu["capacity_bytes"] = Number(e.capacity_bytes);
  per_gpu["capacity_basis"] = e.capacity_basis;
  per_gpu["device"] = DeviceJson(e.device);
  per_gpu["headroom_bytes"] = Number(e.headroom_bytes);
  j["per_gpu"] = per_gpu;
  j["fits"] = e.fits;
  j["kv_bytes_per_token"] = Number(e.kv_bytes_per_token);
  j["kv_heads_per_gpu"] = e.kv_heads_per_gpu;
  j["max_context"] = e.max_context;
  j["max_batch"] = e.max_batch;
  j["context_window"] = e.context_window;
  j["assumptions"] = e.assumptions;
  j["warnings"] = e.warnings;
  j["usable_bytes"] = Number(e.usable_bytes);
  j["usable_basis"] = e.usable_basis;
  j["kv_pool_bytes"] = Number(e.kv_pool_bytes);
  j["host_bytes"] = Number(e.host_bytes);
  j["layers_on_gpu"] = e.layers_on_gpu;
  j["band"] = BandJson(e.band);
  return j.dump(indent);
}

std::string SpeedReportJson(const Catalog& catalog, const Scenario& s, const MemoryEstimate& memory,
                            const SpeedEstimate& e, const CostEstimate& c, const SpeedCurves* curves, int indent,
                            const std::string& state) {
  (void)catalog;
  ordered_json j;
  j["schema"] = "gpuplan.speed/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = state.empty() ? EncodeState(s) : state;
  j["fits"] = memory.fits;
  j["ttft_s"] = Number(e.ttft_s);
  j["tokens_per_s_user"] = Number(e.tokens_per_s_user);
  j["tokens_per_s_total"] = Number(e.tokens_per_s_total);
  j["prefill_tokens_per_s"] = Number(e.prefill_tokens_per_s);
  j["decode_context"] = Number(e.decode_context);
  j["experts_touched"] = Number(e.experts_touched);
  j["compute_precision"] = e.compute_precision;
  j["peak_flops"] = Number(e.peak_flops);
  j["bandwidth"] = Number(e.bandwidth);
  j["eta_bw"] = Number(e.eta_bw);
  j["eta_compute"] = Number(e.eta_compute);
  auto ceiling = [](const Attainable& a) {
    return ordered_json{{"fraction", Number(a.fraction)}, {"measurements", a.measurements}, {"own", a.own}, {"basis", a.basis}};
  };
  j["memory_ceiling"] = ceiling(e.memory_ceiling);
  j["gemm_ceiling"] = ceiling(e.gemm_ceiling);
  j["kernels_per_step"] = e.kernels.total;
  j["multi_gpu_mode"] = s.tp > 1 ? MultiGpuModeName(e.split) : "one GPU";
  j["link"] = {{"name", e.link_name}, {"bytes_per_s", Number(e.link_bytes_per_s)}};
  j["decode"] = StepJson(e.decode);
  j["prefill"] = StepJson(e.prefill);
  j["prefill_one"] = StepJson(e.prefill_one);
  j["decode_band"] = BandJson(e.decode_band);
  j["prefill_band"] = BandJson(e.prefill_band);
  MarkUnknown(j, e.unknown);
  if (!e.unknown.empty()) j["peak_flops"] = nullptr, j["unknown"]["peak_flops"] = e.unknown.begin()->second;
  j["cost"] = CostJsonMarked(c);
  if (curves) {
    // Chart data, to 6 significant digits: the same text natively and in wasm, whose libm may
    // differ in the last bit at other batches and contexts.
    auto sig6 = [](double v) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6g", v);
      return Number(std::strtod(buf, nullptr));
    };
    auto points = [&](const std::vector<CurvePoint>& v, const char* x) {
      ordered_json a = ordered_json::array();
      for (const CurvePoint& p : v)
        a.push_back({{x, Number(p.x)}, {"tokens_per_s_user", sig6(p.per_user)}, {"tokens_per_s_total", sig6(p.total)},
                     {"fits", p.fits}});
      return a;
    };
    j["curves"] = {{"batch", points(curves->batch, "batch")}, {"context", points(curves->context, "context")}};
  }
  j["assumptions"] = e.assumptions;
  j["warnings"] = e.warnings;
  return j.dump(indent);
}

std::string CostReportJson(const Scenario& s, const SpeedEstimate& speed, const CostEstimate& c, int indent,
                           const std::string& state) {
  ordered_json j;
  j["schema"] = "gpuplan.cost/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = state.empty() ? EncodeState(s) : state;
  j["gpus"] = s.Gpus();
  j["tokens_per_s_total"] = Number(speed.tokens_per_s_total);
  j["prefill_tokens_per_s"] = Number(speed.prefill_tokens_per_s);
  MarkUnknown(j, speed.unknown);
  ordered_json cost = CostJsonMarked(c);
  cost["series"] = {{"months", Numbers(c.months)},
                    {"cloud", Numbers(c.cloud_total)},
                    {"spot", Numbers(c.spot_total)},
                    {"owned", Numbers(c.owned_total)}};
  j["cost"] = cost;
  if (!c.rack.cooling.empty()) {
    const RackPlan& r = c.rack;
    ordered_json options = ordered_json::array();
    for (const RackOption& o : r.options)
      options.push_back({{"cooling", o.cooling},
                         {"rack_limit_w", Number(o.rack_limit_w)},
                         {"servers_per_rack", o.servers_per_rack},
                         {"racks", o.racks},
                         {"pue", Number(o.pue)},
                         {"facility_w", Number(o.facility_w)},
                         {"energy_usd_month", Number(o.energy_usd_month)}});
    j["rack"] = {{"cooling", r.cooling},
                 {"platform", r.platform},
                 {"gpus_per_server", r.gpus_per_server},
                 {"servers", r.servers},
                 {"gpu_w", Number(r.gpu_w)},
                 {"host_w", Number(r.host_w)},
                 {"host_basis", r.host_basis},
                 {"server_w", Number(r.server_w)},
                 {"it_w", Number(r.it_w)},
                 {"rack_limit_w", Number(r.chosen.rack_limit_w)},
                 {"rack_basis", r.rack_basis},
                 {"servers_per_rack", r.chosen.servers_per_rack},
                 {"racks", r.chosen.racks},
                 {"rack_w", Number(r.rack_w)},
                 {"pue", Number(r.chosen.pue)},
                 {"pue_basis", r.pue_basis},
                 {"throttle", Number(r.throttle)},
                 {"options", options},
                 {"liquid_saving_usd_month", Number(r.liquid_saving_usd_month)},
                 {"liquid_break_even_usd_per_kw", Number(r.liquid_break_even_usd_per_kw)}};
  }
  return j.dump(indent);
}

std::string CompareReportJson(const Scenario& s, const std::vector<CompareRow>& rows, int indent,
                              const std::string& state) {
  ordered_json j;
  j["schema"] = "gpuplan.compare/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = state.empty() ? EncodeState(s) : state;
  ordered_json list = ordered_json::array();
  for (const CompareRow& r : rows) {
    ordered_json row = {{"gpu", r.gpu},
                    {"name", r.name},
                    {"vendor", r.vendor},
                    {"gpus", r.gpus},
                    {"fits", r.fits},
                    {"memory_per_gpu", Number(r.memory_per_gpu)},
                    {"usable_per_gpu", Number(r.capacity)},
                    {"max_context", r.max_context},
                    {"max_batch", r.max_batch},
                    {"tokens_per_s_user", Number(r.tokens_per_s_user)},
                    {"tokens_per_s_total", Number(r.tokens_per_s_total)},
                    {"ttft_s", Number(r.ttft_s)},
                    {"usd_per_m_output", Number(r.usd_per_m_output)},
                    {"price_basis", r.price_basis},
                    {"upfront_usd", Number(r.upfront_usd)},
                    {"watts", Number(r.watts)},
                    {"year", r.year},
                    {"note", r.note}};
    // A table column the row struct does not hold (one computed from the figures above) comes
    // in under its key too, so the JSON has every column (records.h: CompareColumns).
    std::map<std::string, std::string> unknown = r.unknown;
    for (const CompareColumn& c : CompareColumns()) {
      if (row.contains(c.key)) continue;
      const Cell cell = c.cell(r);
      if (cell.kind == Cell::Kind::kText) row[c.key] = cell.text;
      else row[c.key] = Number(cell.number);
      if (cell.kind == Cell::Kind::kUnknown)
        unknown.emplace(c.key, r.fits ? "a figure it is computed from is unknown" : "does not fit");
    }
    if (!r.fits)
      for (const char* k : {"gpus", "tokens_per_s_user", "tokens_per_s_total", "ttft_s", "usd_per_m_output",
                            "cloud_per_m_output", "owned_per_m_output", "upfront_usd",
                            "max_context", "max_batch"})
        unknown.emplace(k, r.note.empty() ? "does not fit" : r.note);
    MarkUnknown(row, unknown);
    list.push_back(row);
  }
  j["rows"] = list;
  return j.dump(indent);
}

std::string TrainReportJson(const Scenario& s, const TrainEstimate& e, const std::vector<ScalingPoint>& scaling,
                            double target_days, int indent, const std::string& state) {
  ordered_json j;
  j["schema"] = "gpuplan.train/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = state.empty() ? EncodeState(s) : state;
  ordered_json terms = ordered_json::array();
  for (const Term& t : e.terms)
    terms.push_back({{"key", t.key}, {"name", t.name}, {"formula", t.formula}, {"bytes", Number(t.bytes)}});
  ordered_json phases = ordered_json::array();
  for (const Term& t : e.phases)
    phases.push_back({{"key", t.key}, {"name", t.name}, {"alive", t.formula}, {"bytes", Number(t.bytes)}});
  j["per_gpu"] = {{"terms", terms},
                  {"phases", phases},
                  {"largest_moment", e.peak_phase},
                  {"largest_moment_bytes", Number(e.moment_bytes)},
                  {"total_bytes", Number(e.total_bytes)},
                  {"capacity_bytes", Number(e.capacity_bytes)},
                  {"device", DeviceJson(e.device)},
                  {"headroom_bytes", Number(e.headroom_bytes)},
                  {"host_bytes", Number(e.host_bytes)}};
  j["fits"] = e.fits;
  j["max_micro_batch"] = e.max_micro_batch;
  j["suggestions"] = e.suggestions;
  j["trainable_params"] = Number(e.trainable_params);
  j["total_params"] = Number(e.total_params);
  j["gpus"] = e.gpus;
  j["flops_per_token"] = Number(e.flops_per_token);
  j["flops_formula"] = e.flops_formula;
  j["flops_per_token_6nd"] = Number(e.flops_6nd_per_token);
  j["hardware_flops_per_token"] = Number(e.hardware_flops_per_token);
  j["allocated_bytes"] = Number(e.allocated_bytes);
  j["mfu"] = {{"value", Number(e.mfu)},
              {"source", s.mfu > 0 ? "given" : "predicted"},
              {"predicted", Number(e.mfu_predicted)},
              {"band", {Number(e.mfu * TrainingBand().first), Number(e.mfu * TrainingBand().second)}},
              {"under_6nd", Number(e.mfu_6nd)},
              {"hfu", Number(e.hfu)}};
  ordered_json parts = ordered_json::array();
  for (const StepPart& p : e.step_parts)
    parts.push_back({{"key", p.key}, {"name", p.name}, {"seconds", Number(p.seconds)}});
  j["step_parts"] = parts;
  j["tokens_per_s"] = Number(e.tokens_per_s);
  j["step"] = {{"global_batch_tokens", Number(e.global_batch_tokens)},
               {"accumulation_steps", Number(e.accumulation_steps)},
               {"compute_s", Number(e.step_compute_s)},
               {"exposed_comm_s", Number(e.step_comm_s)},
               {"seconds", Number(e.step_s)},
               {"scaling_efficiency", Number(e.scaling_efficiency)}};
  j["seconds"] = Number(e.seconds);
  j["days"] = Number(e.seconds / 86400);
  j["gpu_hours"] = Number(e.gpu_hours);
  j["chinchilla_tokens"] = Number(e.chinchilla_tokens);
  j["cost"] = {{"cloud_usd", Number(e.cloud_usd)},   {"spot_usd", Number(e.spot_usd)},
               {"price_basis", e.price_basis},       {"energy_kwh", Number(e.energy_kwh)},
               {"energy_usd", Number(e.energy_usd)}, {"currency", MoneyJson(e.money)}};
  MarkUnknown(j, e.unknown);
  MarkUnknown(j["cost"], e.unknown);
  ordered_json curve = ordered_json::array();
  for (const ScalingPoint& p : scaling)
    curve.push_back({{"gpus", p.gpus}, {"tokens_per_s", Number(p.tokens_per_s)}, {"efficiency", Number(p.efficiency)},
                     {"days", Number(p.days)}});
  j["scaling"] = curve;
  j["assumptions"] = e.assumptions;
  j["warnings"] = e.warnings;
  if (target_days > 0) {
    const double need = MfuForDays(e, target_days);
    j["target"] = {{"days", target_days}, {"mfu_needed", need > 0 ? ordered_json(need) : ordered_json(nullptr)},
                   {"possible", need > 0 && need <= 1}};
  }
  return j.dump(indent);
}

std::string RooflineReportJson(const Scenario& s, const Roofline& r, int indent, const std::string& state) {
  ordered_json j;
  j["schema"] = "gpuplan.roofline/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = state.empty() ? EncodeState(s) : state;
  ordered_json compute = ordered_json::array(), memory = ordered_json::array();
  for (const ComputeCeiling& c : r.roof.compute)
    compute.push_back({{"key", c.key}, {"label", c.label}, {"flops_per_s", Number(c.flops_per_s)},
                       {"measured", c.measured}, {"ridge_flop_per_byte", Number(c.measured ? 0 : r.roof.Ridge(c.key))}});
  for (const MemoryCeiling& m : r.roof.memory)
    memory.push_back({{"key", m.key}, {"label", m.label}, {"bytes_per_s", Number(m.bytes_per_s)}, {"measured", m.measured}});
  j["roof"] = {{"id", r.roof.id}, {"label", r.roof.label}, {"compute", compute}, {"memory", memory}};
  j["precision"] = r.precision;
  ordered_json ops = ordered_json::array();
  for (const RoofOp& op : r.ops)
    ops.push_back({{"key", op.key},
                   {"name", op.name},
                   {"phase", op.phase},
                   {"flops", Number(op.flops)},
                   {"bytes", Number(op.bytes)},
                   {"count", Number(op.count)},
                   {"intensity", Number(op.intensity)},
                   {"attainable_flops_per_s", Number(op.attainable_flops_per_s)},
                   {"ceiling", op.ceiling},
                   {"bound", op.bound},
                   {"seconds", Number(op.seconds)},
                   {"share", Number(op.share)},
                   {"alternative", op.alternative},
                   {"formula", op.formula}});
  j["ops"] = ops;
  j["assumptions"] = r.assumptions;
  return j.dump(indent);
}

}  // namespace gpuplan
