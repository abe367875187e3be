#include "gpuplan/inference.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/model.h"
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
  // Parameters are counted from the architecture (model.h); effective bits include block
  // scales (e.g. GGUF Q8_0 = 8.5; see quant.json derivations).
  const ParamCount params = CountParams(*model);
  Term weights{"weights", "Weights",
               FormatParams(params.total) + " params × " + FormatFixed(wf->bits_per_weight, 3) +
                   " bits (" + wf->name + ") / 8 / " + Plural(s.count, "GPU", "GPUs"),
               params.total * wf->bits_per_weight / 8.0 / n};

  // KV cache per token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element
  // (vLLM paper, Kwon et al. 2023, §3: OPT-13B ≈ 800 KB per token); GQA/MQA models have fewer
  // KV heads than query heads, MLA keeps one latent per layer, sliding-window layers hold at
  // most the window and Mamba layers a constant state (model.h, KvCacheBytes).
  e.kv_heads_per_gpu = model->mla ? 0 : KvHeadsPerGpu(*model, s.count);
  e.kv_bytes_per_token = KvBytesPerToken(*model, kvf->bytes_per_element);
  const double kv_per_sequence = KvCacheBytes(*model, s.context, kvf->bytes_per_element, s.count);
  std::string kv_formula;
  if (!model->mla && !model->mamba && model->sliding_window == 0) {
    kv_formula = "2 × " + std::to_string(model->layers) + " layers × " + std::to_string(e.kv_heads_per_gpu) +
                 " KV heads/GPU × " + std::to_string(model->head_dim) + " head dim × ";
  } else {
    kv_formula = DescribeAttention(*model) + (model->mla ? " (replicated on each GPU)" : "") + "; ";
  }
  kv_formula += FormatShort(kvf->bytes_per_element) + " B (" + kvf->name + ") × " + FormatCount(s.context) +
                " tokens × " + Plural(s.batch, "sequence", "sequences");
  Term kv{"kv_cache", "KV cache", kv_formula, kv_per_sequence * static_cast<double>(s.batch)};

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

  // Largest context / batch that fit: the cache grows monotonically with tokens (windows and
  // recurrent states make it non-linear), so the context limit is found by bisection.
  const double free_for_kv = e.capacity_bytes - weights.bytes - overhead.bytes;
  const double batch = static_cast<double>(s.batch);
  auto fits_tokens = [&](long long tokens) {
    return KvCacheBytes(*model, tokens, kvf->bytes_per_element, s.count) * batch <= free_for_kv;
  };
  constexpr long long kContextCap = 16777216;
  if (free_for_kv > 0 && fits_tokens(1)) {
    long long lo = 1, hi = kContextCap;
    if (fits_tokens(hi)) {
      lo = hi;
    } else {
      while (hi - lo > 1) {
        long long mid = lo + (hi - lo) / 2;
        (fits_tokens(mid) ? lo : hi) = mid;
      }
    }
    e.max_context = lo;
  }
  e.context_window = model->max_context;
  e.max_batch = MaxUnits(free_for_kv, kv_per_sequence, 65536);

  e.assumptions = {
      "weights and KV heads are split evenly across GPUs (tensor parallelism)",
      "KV cache is allocated for the full context of every sequence",
      "activation workspace and engine memory caps are not modelled yet",
  };
  if (model->max_context > 0 && s.context > model->max_context)
    e.warnings.push_back("context " + FormatCount(s.context) + " exceeds the model's window of " +
                         FormatCount(model->max_context) + " tokens");
  if (model->mla && s.count > 1)
    e.warnings.push_back("MLA's latent KV cache cannot be split by heads: every GPU holds all of it");
  else if (model->kv_heads < s.count)
    e.warnings.push_back(Plural(s.count, "GPU", "GPUs") + " > " + std::to_string(model->kv_heads) +
                         " KV heads: KV heads are replicated, one per GPU");
  else if (model->kv_heads % s.count != 0)
    e.warnings.push_back(std::to_string(model->kv_heads) + " KV heads do not divide evenly over " +
                         Plural(s.count, "GPU", "GPUs") + "; engines such as vLLM refuse this");
  return e;
}

}  // namespace gpuplan
