// gpuplan/resolve.h — a scenario's catalog ids (model, GPU, weight format, KV format, engine)
// looked up once. Every estimator starts here; the doors (CLI, page, Session) may resolve once
// and hand the result to the estimators' overloads that take it.
#pragma once

#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/model.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

class CeilingTable;  // ceilings.h

// The entries a scenario names, checked to exist. The references point into `catalog`, which
// must outlive this value (and stay unchanged: a merge or import makes a new catalog).
struct Resolved {
  const Catalog& catalog;
  const Model& model;
  const Gpu& gpu;
  const WeightFormat& weights;
  const KvFormat& kv;
  const EngineProfile& engine;
  // The model's counts (model.h), computed by whoever resolves once for many estimates (the
  // Session, the ranking); null: each estimator counts them itself.
  const ModelFacts* facts = nullptr;
  // The catalog's measured ceilings grouped once (ceilings.h); null: each estimate groups them.
  const CeilingTable* ceilings = nullptr;
};

// How much an estimator writes. kNumbers computes every figure by the same code as kExplained
// and leaves the words empty (formulas, bases, assumptions, warnings): what a ranking or a
// search needs, at a fraction of the cost. The views ask for kExplained.
enum class Detail { kNumbers, kExplained };

// The first id the catalog does not hold is an Error naming the scenario's field, in the
// order model, gpu, weights, kv, engine: "model: unknown model 'x' (known: a, b, c)".
Result<Resolved> Resolve(const Catalog& catalog, const Scenario& s);

// The scenario field an error from Resolve names: "model", "gpu", "weights", "kv" or "engine"
// (runners that skip a case say which id is missing in their own words).
std::string UnresolvedField(const std::string& error);

}  // namespace gpuplan
