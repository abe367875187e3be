#include "gpuplan/curves.h"

#include <algorithm>

#include "gpuplan/inference.h"
#include "gpuplan/speed.h"

namespace gpuplan {

SpeedCurves ComputeSpeedCurves(const Catalog& catalog, const Scenario& s) {
  SpeedCurves c;
  auto point = [&](const Scenario& t, double x, std::vector<CurvePoint>& out) {
    Result<MemoryEstimate> m = EstimateMemory(catalog, t);
    if (!m.ok()) return;
    Result<SpeedEstimate> v = EstimateSpeed(catalog, t, m.value());
    if (v.ok()) out.push_back({x, v.value().tokens_per_s_user, v.value().tokens_per_s_total, m.value().fits});
  };
  for (long long b = 1; b <= 512; b *= 2) {
    Scenario t = s;
    t.batch = b;
    point(t, static_cast<double>(b), c.batch);
  }
  // Up to the model's window (its own limit, when known), doubling from 1k.
  const Model* model = catalog.FindModel(s.model);
  const long long window = model && model->max_context > 0 ? model->max_context : 1048576;
  for (long long x = 1024; x <= window; x = x * 2 > window && x < window ? window : x * 2) {
    Scenario t = s;
    t.context = x;
    t.prompt = std::min(s.prompt, x);
    point(t, static_cast<double>(x), c.context);
  }
  return c;
}

}  // namespace gpuplan
