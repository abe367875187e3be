#include "gpuplan/resolve.h"

#include <string>
#include <vector>

namespace gpuplan {

namespace {

template <typename T>
std::vector<std::string> Ids(const std::vector<T>& list) {
  std::vector<std::string> ids;
  ids.reserve(list.size());
  for (const T& e : list) ids.push_back(e.id);
  return ids;
}

// "<field>: unknown <kind> '<id>' (known: ...)", the scenario parser's wording (scenario.cpp).
template <typename T>
Error Unknown(const char* field, const char* kind, const std::string& id, const std::vector<T>& list) {
  return Error{std::string(field) + ": " + UnknownIdMessage(kind, id, Ids(list))};
}

}  // namespace

Result<Resolved> Resolve(const Catalog& catalog, const Scenario& s) {
  const Model* model = catalog.FindModel(s.model);
  if (!model) return Unknown("model", "model", s.model, catalog.models);
  const Gpu* gpu = catalog.FindGpu(s.gpu);
  if (!gpu) return Unknown("gpu", "GPU", s.gpu, catalog.gpus);
  const WeightFormat* weights = catalog.FindWeightFormat(s.weights);
  if (!weights) return Unknown("weights", "weight format", s.weights, catalog.weight_formats);
  const KvFormat* kv = catalog.FindKvFormat(s.kv);
  if (!kv) return Unknown("kv", "KV format", s.kv, catalog.kv_formats);
  const EngineProfile* engine = catalog.FindEngine(s.engine);
  if (!engine) return Unknown("engine", "engine", s.engine, catalog.engines);
  return Resolved{catalog, *model, *gpu, *weights, *kv, *engine};
}

std::string UnresolvedField(const std::string& error) { return error.substr(0, error.find(':')); }

}  // namespace gpuplan
