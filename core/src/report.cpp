#include "gpuplan/report.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "gpuplan/model.h"

namespace gpuplan {

using nlohmann::ordered_json;

namespace {

// JSON has no NaN or infinity; nothing non-finite is ever written (null instead).
ordered_json Number(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

ordered_json ScenarioJson(const Scenario& s) {
  ordered_json j;
  j["model"] = s.model;
  j["weights"] = s.weights;
  j["kv"] = s.kv;
  j["context"] = s.context;
  j["batch"] = s.batch;
  j["gpu"] = s.gpu;
  j["count"] = s.count;
  j["overhead_gib"] = Number(s.overhead_gib);
  return j;
}

}  // namespace

std::string FitReportJson(const Catalog& catalog, const Scenario& s, const MemoryEstimate& e, int indent) {
  ordered_json j;
  j["schema"] = "gpuplan.fit/1";
  j["scenario"] = ScenarioJson(s);
  j["state"] = EncodeState(s);
  if (const Model* m = catalog.FindModel(s.model)) {
    const ParamCount c = CountParams(*m);
    j["model"] = {{"name", m->name},
                  {"params", Number(c.total)},
                  {"active_params", Number(c.active)},
                  {"params_published", m->params > 0 ? ordered_json(m->params) : ordered_json(nullptr)},
                  {"attention", DescribeAttention(*m)}};
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
  return j.dump(indent);
}

}  // namespace gpuplan
