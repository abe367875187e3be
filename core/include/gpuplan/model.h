// gpuplan/model.h — what a model architecture implies: parameter counts (total and active),
// and the KV cache / recurrent state a sequence holds. Computed from the architecture, never
// taken from a label; tests compare the counts with published ones (tests/reference/).
#pragma once

#include <string>

#include "gpuplan/catalog.h"

namespace gpuplan {

struct ParamCount {
  double total = 0;      // every weight, embeddings included (and lm_head unless tied)
  double active = 0;     // weights one token passes through: MoE counts top-k experts only
  double embedding = 0;  // input embeddings + lm_head + learned positions
  double routed = 0;     // MoE routed experts, all of them (0 for dense models)
  double attention = 0;  // the token mixers: attention / MLA / linear-attention / Mamba projections
  double input_embedding = 0;  // the input table alone (llama.cpp keeps it in host RAM)
  double vision = 0;     // a multimodal checkpoint's vision tower + projector (in total, not active)
  double mtp = 0;        // the checkpoint's MTP module with its embedding and head copies (not in total)
};

// Share of each MoE layer's routed experts a decode step reads when `batch` tokens each pick
// top-k of E experts independently and uniformly: 1 - (1 - k/E)^batch. At batch 1 it is k/E;
// by batch 64 a 64-expert top-2 layer touches 87% of its experts. Real routers are not
// uniform (hot experts), so this is an upper estimate of the weights read.
double ExpertsTouchedFraction(const Model& m, double batch);

ParamCount CountParams(const Model& m);

// What the estimators read of a model on every call, counted once per model (the layer loops
// run here, not per estimate: a whole-catalog ranking asks for them hundreds of times). The
// Session caches one per model; Resolved carries it (resolve.h).
struct ModelFacts {
  ParamCount params;
  int full_layers = 0;     // attention layers that cache every token
  int sliding_layers = 0;  // attention layers that cache at most the window
  int state_layers = 0;    // the rest: Mamba or linear-attention layers, a constant state each
  int moe_layers = 0;
};
ModelFacts CountFacts(const Model& m);

// The count a publisher states, under the model's conventions (Model::published_excludes_vision,
// published_includes_mtp, active_excludes): what the loader and the tests compare with `params`
// and `active_params`.
double PublishedConventionTotal(const Model& m, const ParamCount& c);
double PublishedConventionActive(const Model& m, const ParamCount& c);

// Bytes of cache one sequence of `tokens` holds on one of `tp` tensor-parallel GPUs:
// K and V per attention layer (MHA/GQA/MQA), one latent per layer for MLA (replicated on
// every GPU, as vLLM does), at most the window on sliding-window layers, and a constant
// state on Mamba layers. Monotone non-decreasing in `tokens`.
double KvCacheBytes(const Model& m, long long tokens, double bytes_per_element, int tp);
// The same from the layer counts, without the loop over layers.
double KvCacheBytes(const Model& m, const ModelFacts& f, long long tokens, double bytes_per_element, int tp);

// Bytes per token while every attention layer still grows (context below any window), whole
// model, one GPU: the figure papers quote (vLLM: OPT-13B ≈ 800 KB per token).
double KvBytesPerToken(const Model& m, double bytes_per_element);
double KvBytesPerToken(const Model& m, const ModelFacts& f, double bytes_per_element);

// KV heads each GPU holds under tensor parallelism: kv_heads / tp, at least one (vLLM
// replicates KV heads when tp > kv_heads: ModelConfig.get_num_kv_heads).
int KvHeadsPerGpu(const Model& m, int tp);

// One line describing the cache's shape ("GQA: 8 KV heads × 128", "MLA: latent 512 + rope 64",
// "sliding window 4,096 on 24 of 48 layers", "hybrid: 4 attention + 28 Mamba layers").
std::string DescribeAttention(const Model& m);

}  // namespace gpuplan
