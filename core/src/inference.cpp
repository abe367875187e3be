#include "gpuplan/inference.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/units.h"

namespace gpuplan {

namespace {

std::string Plural(long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Largest whole n with n × per_unit <= budget; 0 when the budget is gone. Capped so the
// result stays a sensible integer however small per_unit is.
long long MaxUnits(double budget, double per_unit, long long cap) {
  if (!(budget > 0) || !(per_unit > 0)) return 0;
  double n = std::floor(budget / per_unit);
  return n >= static_cast<double>(cap) ? cap : static_cast<long long>(n);
}

}  // namespace

Result<MemoryEstimate> EstimateMemory(const Catalog& catalog, const Scenario& s) {
  const Model* model = catalog.FindModel(s.model);
  const Gpu* gpu = catalog.FindGpu(s.gpu);
  const WeightFormat* wf = catalog.FindWeightFormat(s.weights);
  const KvFormat* kvf = catalog.FindKvFormat(s.kv);
  if (!model) return Error{"model: unknown model '" + s.model + "'"};
  if (!gpu) return Error{"gpu: unknown GPU '" + s.gpu + "'"};
  if (!wf) return Error{"weights: unknown weight format '" + s.weights + "'"};
  if (!kvf) return Error{"kv: unknown KV format '" + s.kv + "'"};
  if (s.count < 1 || s.context < 1 || s.batch < 1 || !(s.overhead_gib >= 0))
    return Error{"scenario: count, context and batch must be >= 1 and overhead-gib >= 0"};

  MemoryEstimate e;
  const double n = s.count;

  // Weights: params × effective bits per weight / 8, split evenly by tensor parallelism.
  // Effective bits include block scales (e.g. GGUF Q8_0 = 8.5; see quant.json derivations).
  Term weights{"weights", "Weights",
               FormatParams(model->params) + " params × " + FormatFixed(wf->bits_per_weight, 3) +
                   " bits (" + wf->name + ") / 8 / " + Plural(s.count, "GPU", "GPUs"),
               model->params * wf->bits_per_weight / 8.0 / n};

  // KV cache per token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element
  // (vLLM paper, Kwon et al. 2023, §3: OPT-13B ≈ 800 KB per token). GQA/MQA models have
  // fewer KV heads than query heads; that is where most calculators go wrong.
  // Under tensor parallelism each GPU holds kv_heads / tp heads; when tp > kv_heads the heads
  // are replicated, one per GPU (vLLM ModelConfig.get_num_kv_heads: max(1, kv_heads // tp)).
  e.kv_heads_per_gpu = std::max(1, static_cast<int>(std::ceil(static_cast<double>(model->kv_heads) / n)));
  e.kv_bytes_per_token = 2.0 * model->layers * model->kv_heads * model->head_dim * kvf->bytes_per_element;
  const double kv_per_token_per_gpu =
      2.0 * model->layers * e.kv_heads_per_gpu * model->head_dim * kvf->bytes_per_element;
  Term kv{"kv_cache", "KV cache",
          "2 × " + std::to_string(model->layers) + " layers × " + std::to_string(e.kv_heads_per_gpu) +
              " KV heads/GPU × " + std::to_string(model->head_dim) + " head dim × " +
              FormatFixed(kvf->bytes_per_element, 0) + " B (" + kvf->name + ") × " +
              FormatCount(s.context) + " tokens × " + Plural(s.batch, "sequence", "sequences"),
          kv_per_token_per_gpu * static_cast<double>(s.context) * static_cast<double>(s.batch)};

  Term overhead{"overhead", "Runtime overhead",
                FormatFixed(s.overhead_gib, 2) + " GiB per GPU (stated assumption: CUDA context and framework; "
                "adjust with overhead-gib)",
                s.overhead_gib * kGiB};

  e.terms = {weights, kv, overhead};
  for (const Term& t : e.terms) e.total_bytes += t.bytes;
  e.capacity_bytes = gpu->CapacityBytes();
  e.capacity_basis = gpu->memory_reported_bytes
                         ? "driver-reported total (" + gpu->memory_reported_how + "), vendor quotes " +
                               FormatFixed(gpu->memory_quoted_value, 0) + " " + gpu->memory_quoted_unit
                         : "as quoted by the vendor: " + FormatFixed(gpu->memory_quoted_value, 0) + " " +
                               gpu->memory_quoted_unit;
  e.headroom_bytes = e.capacity_bytes - e.total_bytes;
  e.fits = e.headroom_bytes >= 0;

  const double free_for_kv = e.capacity_bytes - weights.bytes - overhead.bytes;
  e.max_context = MaxUnits(free_for_kv, kv_per_token_per_gpu * static_cast<double>(s.batch), 16777216);
  e.context_window = model->max_context;
  e.max_batch = MaxUnits(free_for_kv, kv_per_token_per_gpu * static_cast<double>(s.context), 65536);

  e.assumptions = {
      "weights and KV heads are split evenly across GPUs (tensor parallelism)",
      "KV cache is allocated for the full context of every sequence",
      "activation workspace and engine memory caps are not modelled yet",
  };
  if (model->max_context > 0 && s.context > model->max_context)
    e.warnings.push_back("context " + FormatCount(s.context) + " exceeds the model's window of " +
                         FormatCount(model->max_context) + " tokens");
  if (model->kv_heads < s.count)
    e.warnings.push_back(Plural(s.count, "GPU", "GPUs") + " > " + std::to_string(model->kv_heads) +
                         " KV heads: KV heads are replicated, one per GPU");
  else if (model->kv_heads % s.count != 0)
    e.warnings.push_back(std::to_string(model->kv_heads) + " KV heads do not divide evenly over " +
                         Plural(s.count, "GPU", "GPUs") + "; engines such as vLLM refuse this");
  return e;
}

}  // namespace gpuplan
