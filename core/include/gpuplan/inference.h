// gpuplan/inference.h — serving estimates. For now: memory per GPU (weights + KV cache +
// runtime overhead) and whether it fits. Speed, engine profiles and activations come later.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// One named term of a breakdown: what it is, how it was computed (in words, with the
// numbers), and its value.
struct Term {
  std::string key;      // stable id: "weights", "kv_cache", "overhead"
  std::string name;     // "Weights"
  std::string formula;  // "8.03 B params × 16 bits / 8 / 1 GPU"
  double bytes = 0;
};

struct MemoryEstimate {
  std::vector<Term> terms;              // per GPU
  double total_bytes = 0;               // per GPU
  double capacity_bytes = 0;            // per GPU, see Gpu::CapacityBytes
  std::string capacity_basis;           // where the capacity figure comes from
  double headroom_bytes = 0;            // capacity - total; negative when it does not fit
  bool fits = false;
  double kv_bytes_per_token = 0;        // whole model, one sequence
  int kv_heads_per_gpu = 0;
  long long max_context = 0;            // per sequence, at the scenario's batch (0: weights alone do not fit)
  long long max_batch = 0;              // at the scenario's context
  long long context_window = 0;         // the model's own limit (0: unknown); max_context may exceed it
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
};

// Never aborts; an unknown id or impossible scenario comes back as an Error naming the field.
Result<MemoryEstimate> EstimateMemory(const Catalog& catalog, const Scenario& s);

}  // namespace gpuplan
