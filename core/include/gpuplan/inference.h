// gpuplan/inference.h — serving estimates: memory per GPU under an engine profile (weights,
// KV cache, activation workspace, runtime overhead, the engine's memory cap, partial offload
// to host RAM) and whether it fits, with the largest context and batch that do.
//
// Speed and cost live in speed.h and cost.h; they take this estimate as input.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/capacity.h"
#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// One named term of a breakdown: what it is, how it was computed (in words, with the
// numbers), and its value.
struct Term {
  std::string key;      // stable id: "weights", "kv_cache", "activations", "overhead"
  std::string name;     // "Weights"
  std::string formula;  // "8.03 B params × 16 bits / 8 / 1 GPU"
  double bytes = 0;
};

struct MemoryEstimate {
  std::vector<Term> terms;              // per GPU
  double total_bytes = 0;               // per GPU: the sum of the terms
  DeviceMemory device;                  // per GPU: the driver's total and what stands between it and the workload
  double capacity_bytes = 0;            // per GPU: what this workload can allocate (device.free_bytes)
  std::string capacity_basis;           // how: the total and every step (device.basis)
  double usable_bytes = 0;              // what the engine lets itself use (its memory cap)
  std::string usable_basis;             // "vLLM gpu_memory_utilization 0.92 × 23.99 GiB"
  double headroom_bytes = 0;            // usable - total; negative when it does not fit
  bool fits = false;
  double kv_pool_bytes = 0;             // per GPU: what is left for the KV cache (vLLM allocates all of it)
  double host_bytes = 0;                // whole model: weights + KV kept in host RAM by partial offload
  int layers_on_gpu = 0;                // of the model's layers
  double kv_bytes_per_token = 0;        // whole model, one sequence
  // Per GPU, the pool bytes one token of one sequence holds at the scenario's context (the
  // cache at the context / the context), over the GPUs sharing the sequences (DP attention: /tp):
  // the pool holds kv_pool_bytes / this many tokens (serving.h).
  double kv_token_bytes_gpu = 0;
  int kv_heads_per_gpu = 0;
  long long max_context = 0;            // per sequence, at the scenario's batch (0: weights alone do not fit)
  long long max_batch = 0;              // at the scenario's context
  long long context_window = 0;         // the model's own limit (0: unknown); max_context may exceed it
  Band band;                            // measured / estimated on the reference set (memory cases)
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
};

// Never aborts; an unknown id or impossible scenario comes back as an Error naming the field.
// With limits = false, max_context and max_batch are left at 0 (the verdict alone, for
// callers that try many GPU counts). Detail::kNumbers leaves the words empty (resolve.h).
Result<MemoryEstimate> EstimateMemory(const Catalog& catalog, const Scenario& s, bool limits = true,
                                      Detail detail = Detail::kExplained);
// The same with the scenario's ids already resolved (resolve.h); `r` must be Resolve(…, s)'s.
Result<MemoryEstimate> EstimateMemory(const Resolved& r, const Scenario& s, bool limits = true,
                                      Detail detail = Detail::kExplained);

// How the engine spreads the model over the scenario's tp GPUs: the scenario's split where the
// engine offers it (engines.json multi_gpu_modes), else the engine's default, and a warning
// says so. One GPU: the engine's default (nothing is split).
MultiGpuMode SplitMode(const EngineProfile& engine, const Scenario& s, std::vector<std::string>* warnings = nullptr);

// Layers on the GPUs for a scenario: gpu-layers, or every layer when it is "all" (-1).
int LayersOnGpu(const Model& m, const Scenario& s);

// A weight format's tensor groups by bit width, in words: "layers and routed experts at 8 bits,
// input embedding and LM head at 16 bits" (quant.json tensor_bits); routed experts named only
// for a MoE model.
std::string MixedBitsText(const WeightFormat& wf, bool routed_experts);

}  // namespace gpuplan
