#include "gpuplan/inference.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "gpuplan/capacity.h"
#include "gpuplan/contradictions.h"
#include "gpuplan/model.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

// Largest whole n with n × per_unit <= budget; 0 when the budget is gone. Capped so the
// result stays a sensible integer however small per_unit is.
long long MaxUnits(double budget, double per_unit, long long cap) {
  if (!(budget > 0) || !(per_unit > 0)) return 0;
  double n = std::floor(budget / per_unit);
  return n >= static_cast<double>(cap) ? cap : static_cast<long long>(n);
}

// FFN width one token passes through: the dense MLP, or top-k experts plus shared ones.
double TokenFfnWidth(const Model& m) {
  if (!m.moe) return m.intermediate;
  const MoeSpec& e = *m.moe;
  return static_cast<double>(e.experts_per_token + e.shared_experts) * e.expert_intermediate + e.shared_intermediate;
}

// A reserve for activations and CUDA graphs, per GPU, by the engine's rule (EngineReserve; SGLang's
// python/sglang/srt/server_args.py, _handle_gpu_memory_settings, as recorded in engines.json):
// 512 MiB + 1.5 MiB per chunked-prefill token + 2 MiB per CUDA-graph batch size + 1 GiB per 8
// GPUs, floored at 10 GiB on GPUs above 60 GiB, with chunked_prefill_size / cuda_graph_max_bs
// from the tier of the GPU's memory. SGLang counts TP × PP GPUs; the estimate counts tp.
double ReserveBytes(const EngineReserve& rule, double capacity_bytes, int tp) {
  const double gib = capacity_bytes / kGiB;
  const EngineReserveTier* tier = ReserveTier(rule, capacity_bytes);
  if (!tier) return 0;
  const double chunk = std::max(tier->chunk_tokens, rule.min_chunk_tokens);
  const double graphs = tp < 4 ? tier->graphs_tp_below_4 : tier->graphs_tp_4_up;
  double mib = rule.constant_mib + rule.per_chunk_token_mib * chunk + rule.per_graph_batch_mib * graphs +
               rule.per_8_gpus_mib * tp / 8.0;
  if (gib > rule.floor_above_gib) mib = std::max(mib, rule.floor_mib);
  return mib * kMiB;
}

struct Workspace {
  double bytes = 0;
  std::string formula;
};

// Activation / workspace peak per GPU the engine holds besides weights and KV cache, by the
// engine's workspace model (catalog.h, WorkspaceModel).
Workspace EngineWorkspace(const EngineProfile& engine, const Gpu& gpu, const Model& m, const Scenario& s,
                          double capacity, bool say) {
  const double tp = s.tp;
  const double h = m.hidden, vocab = m.vocab;
  const double qkv = (static_cast<double>(m.heads) + 2.0 * m.kv_heads) * m.head_dim;
  const double ffn = TokenFfnWidth(m);
  Workspace w;
  if (engine.memory_cap == MemoryCap::kReserve && s.mem_util > 0) {
    // An explicit fraction (SGLang --mem-fraction-static) replaces the reserve rule:
    // weights + KV <= fraction × total.
    w.bytes = capacity * (1 - s.mem_util);
    if (say) w.formula = TrF("memory outside mem-fraction-static {0}", {FormatFixed(s.mem_util, 2)});
    return w;
  }
  switch (engine.workspace_model) {
    case WorkspaceModel::kProfiledForward: {
      // vLLM sizes the KV cache after a profiling forward pass of max_num_batched_tokens tokens
      // (Worker.determine_num_available_blocks / profile_run; TensorRT-LLM's PyTorch backend
      // likewise). Its peak is the MLP's live tensors (gate+up output 2·I and the activated I,
      // 2 bytes each), the QKV projection, a few hidden-sized buffers, and fp32 logits +
      // probabilities for up to max_num_seqs (256) sampled rows. Checked against vLLM's logged
      // 1.26 GiB for Llama-3-8B (engines.json).
      const BatchDefaults batch = EngineBatchDefaults(engine, gpu, capacity);
      const double t = batch.max_batched_tokens;
      const double rows = std::min<double>(batch.max_num_seqs > 0 ? batch.max_num_seqs : 256, t);
      const double forward = t * 2 * (3 * ffn / tp + qkv / tp + 4 * h) + rows * vocab * 8;
      w.bytes = forward;
      if (say)
        w.formula =
            TrF("{0} profiled tokens × 2 B × ((3 × {1} FFN + {2} QKV) / {3} + 4 × {4} hidden) + {5} rows × vocab "
                "{6} × 8 B logits",
                {FormatCount(static_cast<long long>(t)), FormatCount(static_cast<long long>(ffn)),
                 FormatCount(static_cast<long long>(qkv)), FormatCountOf(s.tp, "GPU", "GPUs"), FormatCount(m.hidden),
                 FormatCount(static_cast<long long>(rows)), FormatCount(m.vocab)});
      // vLLM V1 also warms the sampler up with max_num_seqs dummy rows over the whole vocabulary
      // (gpu_model_runner _dummy_sampler_run); on a large vocabulary its peak exceeds the
      // forward's and does not shrink with tensor parallelism. Per logit, the bytes vLLM 0.19
      // logs imply (engines.json sampler_bytes_per_logit).
      const double sampler = rows * vocab * engine.sampler_bytes_per_logit;
      if (sampler > forward) {
        w.bytes = sampler;
        if (say)
          w.formula =
              TrF("sampler warm-up: {0} sequences × vocab {1} × {2} B per logit (larger than the profiled "
                  "forward of {3} tokens, {4})",
                  {FormatCount(static_cast<long long>(rows)), FormatCount(m.vocab),
                   FormatShort(engine.sampler_bytes_per_logit), FormatCount(static_cast<long long>(t)),
                   FormatBytes(forward, ByteUnit::GiB)});
      }
      break;
    }
    case WorkspaceModel::kReserveRule: {
      const EngineReserve& rule = *engine.reserve;
      w.bytes = ReserveBytes(rule, capacity, s.tp);
      if (say)
        w.formula =
            TrF("{0} reserve: {1} MiB + {2} MiB × chunked-prefill tokens + {3} MiB × CUDA-graph batch sizes + "
                "{4} GiB per 8 GPUs ({5} GiB floor above {6} GiB)",
                {engine.name, FormatShort(rule.constant_mib), FormatShort(rule.per_chunk_token_mib),
                 FormatShort(rule.per_graph_batch_mib), FormatShort(rule.per_8_gpus_mib / 1024),
                 FormatShort(rule.floor_mib / 1024), FormatShort(rule.floor_above_gib)});
      break;
    }
    case WorkspaceModel::kComputeBuffer: {
      // Compute buffer for one micro-batch (llama.cpp n_ubatch) with flash attention on: fp32
      // logits for the micro-batch plus the FFN and hidden intermediates (llama.cpp reserves
      // the worst-case graph at startup; 'CUDA0 compute buffer size' in its log).
      const double ub = engine.micro_batch_tokens;
      w.bytes = ub * 4 * (vocab + ffn + 4 * h) / tp;
      if (say)
        w.formula = TrF(
            "{0}-token micro-batch × 4 B × (vocab {1} + FFN {2} + 4 × hidden)",
            {FormatCount(engine.micro_batch_tokens), FormatCount(m.vocab), FormatCount(static_cast<long long>(ffn))});
      break;
    }
    case WorkspaceModel::kPrefillForward: {
      // Transformers generate(): the prefill forward of every prompt at once (SDPA attention,
      // no P² scores) with fp32 logits for the last position only (logits_to_keep).
      const double tokens = static_cast<double>(s.batch) * static_cast<double>(std::min(s.prompt, s.context));
      w.bytes = tokens * 2 * (3 * ffn + 4 * h) / tp + static_cast<double>(s.batch) * vocab * 4;
      if (say)
        w.formula = TrF("{0} prompt tokens × 2 B × (3 × FFN + 4 × hidden) + {1} × vocab × 4 B",
                        {FormatCount(static_cast<long long>(tokens)), FormatCountOf(s.batch, "row", "rows")});
      break;
    }
  }
  return w;
}

}  // namespace

MultiGpuMode SplitMode(const EngineProfile& engine, const Scenario& s, std::vector<std::string>* warnings) {
  if (s.split == "auto" || s.split.empty()) return engine.multi_gpu;
  const MultiGpuMode want = s.split == "row"            ? MultiGpuMode::kRowSplit
                            : s.split == "layer"        ? MultiGpuMode::kLayerSplit
                            : s.split == "dp-attention" ? MultiGpuMode::kDpAttention
                                                        : MultiGpuMode::kTensorParallel;
  for (MultiGpuMode m : engine.multi_gpu_modes) {
    if (m != want) continue;
    for (const auto& [mode, note] : engine.multi_gpu_notes)
      if (mode == want && warnings) warnings->push_back("split: " + note);
    return want;
  }
  if (warnings) {
    std::string offers;
    for (MultiGpuMode m : engine.multi_gpu_modes) offers += (offers.empty() ? "" : ", ") + std::string(MultiGpuModeName(m));
    warnings->push_back("split: " + TrF("{0} has no {1} (it offers {2}); its default {3} is used",
                                        {engine.name, MultiGpuModeName(want),
                                         offers.empty() ? std::string(MultiGpuModeName(engine.multi_gpu)) : offers,
                                         MultiGpuModeName(engine.multi_gpu)}));
  }
  return engine.multi_gpu;
}

int LayersOnGpu(const Model& m, const Scenario& s) {
  if (s.gpu_layers < 0) return m.layers;
  return static_cast<int>(std::min<long long>(s.gpu_layers, m.layers));
}

Result<MemoryEstimate> EstimateMemory(const Catalog& catalog, const Scenario& s, bool limits, Detail detail) {
  Result<Resolved> r = Resolve(catalog, s);
  if (!r) return Error{r.error()};
  return EstimateMemory(*r, s, limits, detail);
}

std::string MixedBitsText(const WeightFormat& wf, bool routed_experts) {
  // Groups sharing a bit width are named together: "input embedding and LM head at 16 bits".
  const std::pair<TensorGroup, const char*> groups[] = {{TensorGroup::kLayers, N_("layers")},
                                                        {TensorGroup::kRoutedExperts, N_("routed experts")},
                                                        {TensorGroup::kInputEmbedding, N_("input embedding")},
                                                        {TensorGroup::kLmHead, N_("LM head")}};
  std::vector<std::pair<double, std::string>> by_bits;
  for (const auto& [group, name] : groups) {
    if (group == TensorGroup::kRoutedExperts && !routed_experts) continue;
    const double bits = wf.BitsFor(group);
    auto it = std::find_if(by_bits.begin(), by_bits.end(), [&](const auto& b) { return b.first == bits; });
    if (it == by_bits.end())
      by_bits.push_back({bits, Tr(name)});
    else
      it->second = TrF("{0} and {1}", {it->second, Tr(name)});
  }
  std::string out;
  for (const auto& [bits, names] : by_bits)
    out += (out.empty() ? "" : ", ") + TrF("{0} at {1} bits", {names, FormatShort(bits, 4)});
  return out;
}

Result<MemoryEstimate> EstimateMemory(const Resolved& r, const Scenario& s, bool limits, Detail detail) {
  const bool say = detail == Detail::kExplained;  // the words, besides the numbers
  const Model& model = r.model;
  const Gpu& gpu = r.gpu;
  const WeightFormat& wf = r.weights;
  const KvFormat& kvf = r.kv;
  const EngineProfile& engine = r.engine;
  if (s.tp < 1 || s.pp < 1 || s.context < 1 || s.batch < 1 || !(s.overhead_gib >= 0))
    return Error{Tr("scenario: tp, pp, context and batch must be >= 1 and overhead-gib >= 0")};
  if (model.layers < 1) return Error{TrF("model: '{0}' has no layers", {s.model})};
  // Combinations the table of contradictions refuses or warns about (contradictions.h); its
  // warnings join the others where the words are written, below.
  std::vector<std::string> contradictions;
  if (std::optional<Error> refused = CheckContradictions(r, s, kServeChecks, say ? &contradictions : nullptr))
    return *refused;

  MemoryEstimate e;
  ModelFacts counted;
  const ModelFacts& facts = r.facts ? *r.facts : (counted = CountFacts(model));
  const double tp = s.tp;
  // A row split (llama.cpp -sm row) places each layer's other tensors and its KV cache on one GPU
  // as a layer split does (llama.cpp since its Oct 2024 loader refactor: llama-kv-cache.cpp puts
  // layer i's K/V on dev_layer(i)) and cuts only the dense weight matrices by rows over all the
  // GPUs, so memory per GPU is the layer split's.
  const MultiGpuMode mode = s.tp > 1 ? SplitMode(engine, s, say ? &e.warnings : nullptr) : engine.multi_gpu;
  const bool row_split = s.tp > 1 && mode == MultiGpuMode::kRowSplit;
  // Per GPU, the KV cache of `tokens` tokens for one sequence: tensor parallelism splits each
  // layer's KV heads (replicating those it cannot split: MLA's latent, fewer KV heads than
  // GPUs); the layer and row splits give each GPU whole layers' caches.
  const bool whole_layers = s.tp > 1 && (mode == MultiGpuMode::kLayerSplit || mode == MultiGpuMode::kRowSplit);
  // DP attention: each GPU holds the whole cache of its own sequences, 1/tp of the batch.
  const bool dp_attention = s.tp > 1 && mode == MultiGpuMode::kDpAttention;
  const double seqs_per_gpu = dp_attention ? std::ceil(static_cast<double>(s.batch) / s.tp) : static_cast<double>(s.batch);
  auto kv_bytes = [&](long long tokens) {
    return whole_layers   ? KvCacheBytes(model, facts, tokens, kvf.bytes_per_element, 1) / s.tp
           : dp_attention ? KvCacheBytes(model, facts, tokens, kvf.bytes_per_element, 1)
                          : KvCacheBytes(model, facts, tokens, kvf.bytes_per_element, s.tp);
  };

  // Weights: params × effective bits per weight / 8, split evenly by tensor parallelism.
  // Parameters are counted from the architecture (model.h); effective bits include block
  // scales (e.g. GGUF Q8_0 = 8.5; see quant.json derivations). With partial offload
  // (llama.cpp -ngl) only layers_on_gpu layers live on the GPUs (llama.cpp puts the last ones
  // there: i_gpu_start = n_layer - n_gpu_layers in llama-model.cpp; the layers being alike,
  // only the count matters here); an engine with input_embedding_on_host (llama.cpp) keeps the
  // input embedding table in host RAM in every case (it only gathers rows from it).
  const ParamCount& params = facts.params;
  e.layers_on_gpu = LayersOnGpu(model, s);
  // Bytes per parameter of each group of tensors: a format may keep the embeddings and the LM
  // head in 16 bits, or quantise only the routed experts (WeightFormat::BitsFor, quant.json).
  const double layer_bpp = wf.BitsFor(TensorGroup::kLayers) / 8, routed_bpp = wf.BitsFor(TensorGroup::kRoutedExperts) / 8;
  const double embedding_bpp = wf.BitsFor(TensorGroup::kInputEmbedding) / 8, head_bpp = wf.BitsFor(TensorGroup::kLmHead) / 8;
  const double layer_params = (params.total - params.embedding) / model.layers;
  const double layer_bytes = ((params.total - params.embedding - params.routed) * layer_bpp + params.routed * routed_bpp) /
                             model.layers;
  const double host_embedding = engine.input_embedding_on_host ? params.input_embedding : 0;
  // Pipeline parallelism splits the layers into pp stages; the largest stage sets the need
  // per GPU, and the first and last stages also hold the input embedding and the LM head.
  const int pp = std::max(1, s.pp);
  const int stage_layers = (e.layers_on_gpu + pp - 1) / pp;
  const double lm_head = params.embedding - params.input_embedding;
  const double embedding_bytes = (params.input_embedding - host_embedding) * embedding_bpp, head_bytes = lm_head * head_bpp;
  const double stage_embedding =
      pp == 1 ? params.embedding - host_embedding : std::max(params.input_embedding - host_embedding, lm_head);
  const double stage_embedding_bytes = pp == 1 ? embedding_bytes + head_bytes : std::max(embedding_bytes, head_bytes);
  const double gpu_params = layer_params * e.layers_on_gpu + params.embedding - host_embedding;
  const double gpu_bytes = layer_bytes * e.layers_on_gpu + embedding_bytes + head_bytes;
  const double all_bytes = layer_bytes * model.layers + params.input_embedding * embedding_bpp + head_bytes;
  double stage_params = layer_params * stage_layers + stage_embedding;
  double stage_bytes = layer_bytes * stage_layers + stage_embedding_bytes;
  // Expert parallelism places whole experts: each GPU holds ceil(E / n) of every MoE layer's
  // routed experts instead of 1/n of each (the same when n divides E).
  const bool ep = s.ep == 1 && model.moe && model.moe->experts > 0 && s.tp > 1;
  double ep_extra = 0;  // params per GPU beyond the even split
  if (ep) {
    const double experts = model.moe->experts;
    const double routed_stage = params.routed * stage_layers / model.layers;
    ep_extra = routed_stage * (std::ceil(experts / tp) / experts - 1 / tp) * tp;  // scaled back by /tp below
    stage_params += ep_extra;
    stage_bytes += ep_extra * routed_bpp;
  }
  const bool offload = e.layers_on_gpu < model.layers;
  std::string weights_formula;
  if (say) {
    // The bits as one figure: the format's own, or the mix's average over what the GPUs hold.
    // (A stage that holds nothing, every layer on the host: the format's own figure.)
    const double mixed_bits = stage_params > 0 ? stage_bytes * 8 / stage_params : wf.bits_per_weight;
    const std::string bits_text = wf.Mixed()
                                      ? TrF("{0} bits on average ({1}; {2})",
                                            {FormatFixed(mixed_bits, 3), wf.name, MixedBitsText(wf, params.routed > 0)})
                                      : TrF("{0} bits ({1})", {FormatFixed(wf.bits_per_weight, 3), wf.name});
    const std::string gpus = FormatCountOf(s.tp, "GPU", "GPUs");
    weights_formula = TrF("{0} params × {1} / 8 / {2}", {FormatParams(params.total), bits_text, gpus});
    if (offload || host_embedding > 0)
      weights_formula = TrF("{0} of {1} params on the GPUs ({2} of {3} layers{4}) × {5} / 8 / {6}",
                            {FormatParams(gpu_params), FormatParams(params.total), std::to_string(e.layers_on_gpu),
                             std::to_string(model.layers),
                             host_embedding > 0 ? Tr("; input embedding in host RAM") : "", bits_text, gpus});
    if (pp > 1)
      weights_formula =
          TrF("{0} params on the largest of {1} pipeline stages ({2} layers + {3}) × {4} / 8 / {5} per stage",
              {FormatParams(stage_params), std::to_string(pp), std::to_string(stage_layers),
               lm_head > params.input_embedding ? Tr("LM head") : Tr("embedding"), bits_text, gpus});
    if (ep)
      weights_formula += TrF("; expert parallel: {0} of {1} experts per GPU, whole",
                             {std::to_string(static_cast<long long>(std::ceil(model.moe->experts / tp))),
                              std::to_string(model.moe->experts)});
  }
  // DP attention keeps the attention weights whole on every GPU (each serves its own sequences);
  // the rest is split as tensor parallelism splits it.
  const double attention_stage_bytes = params.attention * stage_layers / model.layers * layer_bpp;
  double weights_bytes = stage_bytes / tp;
  if (dp_attention) {
    weights_bytes += attention_stage_bytes * (1 - 1 / tp);
    if (say)
      weights_formula += TrF("; DP attention: the attention's {0} params whole on every GPU",
                             {FormatParams(params.attention * stage_layers / model.layers)});
  }
  Term weights{"weights", Tr("Weights"), std::move(weights_formula), weights_bytes};

  // KV cache per token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element
  // (vLLM paper, Kwon et al. 2023, §3: OPT-13B ≈ 800 KB per token); GQA/MQA models have fewer
  // KV heads than query heads, MLA keeps one latent per layer, sliding-window layers hold at
  // most the window and Mamba layers a constant state (model.h, KvCacheBytes). Offloaded
  // layers keep their cache in host RAM (llama.cpp's default with -ngl).
  const double gpu_layer_share = static_cast<double>(e.layers_on_gpu) / model.layers;
  e.kv_heads_per_gpu = model.mla ? 0 : whole_layers || dp_attention ? model.kv_heads : KvHeadsPerGpu(model, s.tp);
  e.kv_bytes_per_token = KvBytesPerToken(model, facts, kvf.bytes_per_element);
  const double kv_share = static_cast<double>(stage_layers) / model.layers;  // per GPU: its stage's layers
  const double kv_per_sequence = kv_bytes(s.context) * kv_share;
  std::string kv_formula;
  if (say) {
    if (!model.mla && !model.mamba && !model.linear && model.sliding_window == 0) {
      kv_formula = (whole_layers ? TrF("2 × {0} layers / {1} × {2} KV heads × {3} head dim",
                                       {std::to_string(stage_layers), FormatCountOf(s.tp, "GPU", "GPUs"),
                                        std::to_string(e.kv_heads_per_gpu), std::to_string(model.head_dim)})
                                 : TrF("2 × {0} layers × {1} KV heads/GPU × {2} head dim",
                                       {std::to_string(stage_layers), std::to_string(e.kv_heads_per_gpu),
                                        std::to_string(model.head_dim)})) +
                   " × ";
    } else {
      kv_formula = DescribeAttention(model) +
                   (model.mla && s.tp > 1 && !whole_layers ? Tr(" (replicated on each GPU)") : "") +
                   (whole_layers ? TrF("; whole layers, 1/{0} of them per GPU", {std::to_string(s.tp)}) : "") +
                   (offload ? TrF("; {0} layers on the GPUs", {std::to_string(e.layers_on_gpu)}) : "") + "; ";
    }
    const long long seqs = static_cast<long long>(seqs_per_gpu);
    kv_formula +=
        (seqs == 1 ? TrF("{0} B ({1}) × {2} tokens × {3} sequence",
                         {FormatShort(kvf.bytes_per_element), kvf.name, FormatCount(s.context), FormatCount(seqs)})
                   : TrF("{0} B ({1}) × {2} tokens × {3} sequences",
                         {FormatShort(kvf.bytes_per_element), kvf.name, FormatCount(s.context), FormatCount(seqs)})) +
        (dp_attention ? TrF(" per GPU (DP attention: its share of the {0})", {std::to_string(s.batch)}) : "");
  }
  Term kv{"kv_cache", Tr("KV cache"), std::move(kv_formula), kv_per_sequence * seqs_per_gpu};

  Result<DeviceMemory> device = EstimateDeviceMemory(gpu, s, detail);
  if (!device) return Error{device.error()};
  e.device = std::move(device).value();
  const double capacity = e.device.free_bytes;
  const Workspace ws = EngineWorkspace(engine, gpu, model, s, e.device.runtime_bytes, say);
  Term activations{
      "activations",
      engine.workspace_model == WorkspaceModel::kComputeBuffer ? Tr("Compute buffer") : Tr("Activations / workspace"),
      ws.formula, ws.bytes};

  Term overhead{"overhead", Tr("Runtime overhead"),
                say ? TrF("{0} GiB per GPU (stated assumption: CUDA context and framework; adjust with overhead-gib)",
                          {FormatFixed(s.overhead_gib, 2)})
                    : std::string(),
                s.overhead_gib * kGiB};
  // With several GPUs the engine also holds collective buffers (NCCL's, its custom all-reduce's)
  // outside PyTorch's allocator: vLLM 0.19 logs ~1.85 GiB more non-torch memory at TP 2 and 4
  // on NVLink-linked H100s than at TP 1 (engines.json multi_gpu_buffers_gib). Without NVLink
  // vLLM's custom all-reduce stays off and its log shows none (0.25 GiB on 2 x RTX 4090).
  if (s.Gpus() > 1 && engine.multi_gpu_buffers_bytes > 0 && gpu.interconnect) {
    overhead.bytes += engine.multi_gpu_buffers_bytes;
    if (say)
      overhead.formula += TrF(" + {0} of {1}'s collective buffers with {2}",
                              {FormatBytes(engine.multi_gpu_buffers_bytes, ByteUnit::GiB), engine.name,
                               FormatCountOf(s.Gpus(), "GPU", "GPUs")});
  }

  const double fixed_terms = weights.bytes + activations.bytes + overhead.bytes;  // all but the KV cache
  e.terms.reserve(5);
  e.terms.push_back(std::move(weights));
  e.terms.push_back(std::move(kv));
  e.terms.push_back(std::move(activations));
  e.terms.push_back(std::move(overhead));
  // CUDA graphs' pool (vLLM: one graph per captured batch size; its 0.19 logs show 0.67-1.79
  // GiB on H100 at TP 1-4, ~26 MiB per layer: engines.json cuda_graph_mib_per_layer). vLLM 0.21
  // counts its estimate before sizing the KV cache (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on
  // by default); earlier releases take it from the headroom the memory cap leaves.
  const double graphs = s.graphs ? engine.cuda_graph_bytes_per_layer * stage_layers : 0;
  if (graphs > 0 && engine.cuda_graphs_in_budget)
    e.terms.push_back(
        {"cuda_graphs", Tr("CUDA graphs"),
         say ? TrF("{0} layers × {1} MiB ({2}'s captured graphs, counted before the KV cache)",
                   {FormatCount(stage_layers), FormatShort(engine.cuda_graph_bytes_per_layer / kMiB), engine.name})
             : std::string(),
         graphs});
  for (const Term& t : e.terms) e.total_bytes += t.bytes;
  e.capacity_bytes = capacity;
  e.capacity_basis = e.device.basis;

  // The engine's cap (catalog.h, MemoryCap): vLLM's gpu_memory_utilization is a fraction of
  // the device's total as the runtime sees it (torch.cuda.mem_get_info's total); TensorRT-LLM's
  // KV fraction is of the memory still free after weights and activations (engines.json).
  // SGLang's mem_fraction_static is what its reserve (the workspace term) leaves; llama.cpp
  // and Transformers take what they need of what is free.
  const double graphs_in = engine.cuda_graphs_in_budget ? graphs : 0;
  const double fixed = fixed_terms + graphs_in;
  const double fraction = s.mem_util > 0 ? s.mem_util : engine.memory_fraction;
  bool cap_refused = false;
  if (engine.memory_cap == MemoryCap::kTotal && fraction > 0) {
    const double cap = e.device.runtime_bytes * fraction;
    e.usable_bytes = std::min(cap, capacity);
    if (say)
      e.usable_basis = TrF("{0} memory cap {1} × {2}",
                           {engine.name, FormatFixed(fraction, 2), FormatBytes(e.device.runtime_bytes, ByteUnit::GiB)});
    // vLLM checks at start-up that this much is free ("Free memory on device ... is less than
    // desired GPU memory utilization", vllm/v1/worker/gpu_worker.py) and stops otherwise.
    if (cap > capacity * 1.000001) {
      cap_refused = true;
      if (say)
        e.warnings.push_back(
            TrF("{0} would refuse to start: its cap {1} is more than the {2} free beside other processes; "
                "lower mem-util to {3} or less",
                {engine.name, FormatBytes(cap), FormatBytes(capacity),
                 FormatFixed(std::floor(capacity / e.device.runtime_bytes * 100) / 100, 2)}));
    }
  } else if (engine.memory_cap == MemoryCap::kFree && fraction > 0) {
    e.usable_bytes = fixed + std::max(0.0, capacity - fixed) * fraction;
    if (say)
      e.usable_basis =
          TrF("{0} KV fraction {1} of the memory free after weights", {engine.name, FormatFixed(fraction, 2)});
  } else {
    e.usable_bytes = capacity;
    if (say) e.usable_basis = TrF("all that is free ({0} has no memory cap)", {engine.name});
  }
  e.headroom_bytes = e.usable_bytes - e.total_bytes;
  e.fits = e.headroom_bytes >= 0 && !cap_refused;
  e.warnings.insert(e.warnings.end(), e.device.warnings.begin(), e.device.warnings.end());
  const double free_for_kv = e.usable_bytes - fixed;
  if (say && graphs > 0 && !engine.cuda_graphs_in_budget && e.usable_bytes + graphs > capacity)
    e.warnings.push_back(
        TrF("{0}'s CUDA graphs (about {1}) come after the KV cache, from the {2} its memory cap "
            "leaves: start-up may run out of memory (lower mem-util)",
            {engine.name, FormatBytes(graphs, ByteUnit::GiB),
             FormatBytes(std::max(0.0, capacity - e.usable_bytes), ByteUnit::GiB)}));
  e.kv_pool_bytes = std::max(0.0, free_for_kv);
  e.kv_token_bytes_gpu = kv_per_sequence / static_cast<double>(std::max(1LL, s.context)) / (dp_attention ? s.tp : 1);
  e.host_bytes = (all_bytes - gpu_bytes) + KvCacheBytes(model, facts, s.context, kvf.bytes_per_element, 1) *
                                               (1 - gpu_layer_share) * static_cast<double>(s.batch);

  // Largest context / batch that fit: the cache grows monotonically with tokens (windows and
  // recurrent states make it non-linear), so the context limit is found by bisection.
  const double batch = seqs_per_gpu;
  auto fits_tokens = [&](long long tokens) {
    return kv_bytes(tokens) * kv_share * batch <= free_for_kv;
  };
  constexpr long long kContextCap = 16777216;
  if (limits && free_for_kv > 0 && fits_tokens(1)) {
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
  e.context_window = model.max_context;
  e.max_batch = limits ? std::min<long long>(65536, MaxUnits(free_for_kv, kv_per_sequence, 65536) * (dp_attention ? s.tp : 1)) : 0;
  e.band = engine.calibration.memory;

  if (!say) return e;
  // --- The words: what was assumed and what to watch (kExplained only).
  const char* spread = s.tp == 1   ? (pp > 1 ? Tr("one GPU per pipeline stage") : Tr("one GPU: nothing split"))
                       : row_split ? Tr("dense weight matrices split by rows over the GPUs, each layer's other tensors "
                                        "and KV cache on one GPU as in a layer split (row split)")
                       : dp_attention
                           ? Tr("attention data-parallel (each GPU its own sequences and their whole KV cache, "
                                "the attention weights on every GPU), MLP and MoE layers split over all the GPUs")
                       : mode == MultiGpuMode::kLayerSplit
                           ? Tr("each GPU holds an even share of the layers and their KV cache (layer split)")
                           : Tr("weights and KV heads are split evenly across GPUs (tensor parallelism)");
  e.assumptions = {
      spread,
      Tr("KV cache is allocated for the full context of every sequence"),
      TrF("engine profile: {0} ({1})", {engine.name, engine.version}),
  };
  e.assumptions.insert(e.assumptions.end(), e.device.assumptions.begin(), e.device.assumptions.end());
  if (offload)
    e.assumptions.push_back(
        TrF("{0} layers and their KV cache stay in host RAM ({1})",
            {std::to_string(model.layers - e.layers_on_gpu), FormatBytes(e.host_bytes, ByteUnit::GiB)}));
  if (pp > 1)
    e.assumptions.push_back(TrF("{0} pipeline stages of up to {1} layers, {2} each: {3} GPUs in all",
                                {std::to_string(pp), std::to_string(stage_layers), FormatCountOf(s.tp, "GPU", "GPUs"),
                                 std::to_string(s.tp * pp)}));
  e.warnings.insert(e.warnings.end(), contradictions.begin(), contradictions.end());
  return e;
}

}  // namespace gpuplan
