// gpuplan/catalog.h — accelerators, model architectures and number formats, every figure
// with its source. The catalog is JSON (assets/catalog/*.json) embedded at build time;
// user files can add entries or override them by id.
//
// Index:
//   [SECTION] Sources
//   [SECTION] Entries: Gpu, Model, WeightFormat, KvFormat
//   [SECTION] Catalog and loading
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpuplan/expected.h"

namespace gpuplan {

// [SECTION] Sources --------------------------------------------------------------------
struct Source {
  std::vector<std::string> fields;  // which fields of the entry this source backs
  std::string title;
  std::string url;
  std::string read;                 // date the source was read, YYYY-MM-DD
  std::string note;
};

// [SECTION] Entries ----------------------------------------------------------------------
struct Interconnect {
  std::string kind;          // "NVLink", "Infinity Fabric", "ICI", "NeuronLink", "RoCE", ...
  int generation = 0;        // 0: not stated
  double bytes_per_s = 0;    // per GPU, total bidirectional, as vendors quote it
  std::string note;
  std::string fabric;  // the scale-up fabric's interconnect id (its domain_gpus: GPUs one switch joins)
};

struct Price {
  double usd = 0;
  double jpy = 0;            // a price quoted in yen (Japanese retail) keeps its yen; usd is then 0
  std::string kind;          // "launch" (MSRP / list), "street", or "estimate" (an analyst's, of what buyers pay)
  std::string date;          // YYYY-MM or YYYY-MM-DD
  Source source;
};

// A memory total some tool reported (nvidia-smi, rocm-smi, hl-smi, PyTorch, JAX), or one derived
// from the memory configuration where no reading is published; `how` names which.
struct MemoryFigure {
  double bytes = 0;
  std::string how;            // "nvidia-smi memory.total", "derived: 12 × 16 Gbit GDDR6X chips", ...
  std::optional<bool> ecc;    // ECC state of the reading, where ECC changes the total (GDDR)
};

// A MIG GPU-instance profile ("1g.10gb") and the memory the driver gives it.
struct MigProfile {
  std::string name;
  double bytes = 0;
  int max_instances = 0;      // 0: not stated
};

// How much of a unified-memory machine's RAM the GPU may take, by the OS's rule (capacity.h).
struct UnifiedMemory {
  std::string rule;           // "apple-metal", "amd-gtt", "cuda-unified", "fraction" (capacity.h)
  double gpu_fraction = 0;    // "fraction": the share of RAM the GPU may allocate, as its source states
  std::string note;
};

struct Gpu {
  std::string id, name, vendor, architecture;
  int year = 0;
  std::string form_factor;   // "SXM5", "PCIe dual-slot", "OAM", "SoC (unified memory)", ...
  // Capacity as the vendor quotes it ("80 GB"): the unit is kept, never reinterpreted. The
  // estimators do not plan against it: the vendor's "GB" for DRAM is a binary figure on almost
  // every board, so the driver's total (or one derived from the chips) is what counts.
  double memory_quoted_value = 0;
  std::string memory_quoted_unit;   // "GB" or "GiB"
  std::string memory_type;          // "HBM3", "GDDR6X", ...
  double memory_quoted_bytes = 0;   // value × unit (GB = 1e9, GiB = 2^30)
  // The device total the driver reports (nvidia-smi "MiB", rocm-smi, hl-smi, ...).
  std::optional<MemoryFigure> memory_reported;
  // The total the compute runtime sees (cudaMemGetInfo / PyTorch "total capacity"): smaller
  // than the driver's total by what the driver reserves for itself.
  std::optional<MemoryFigure> memory_runtime;
  // Where no reading is published: stacks/chips × density, stated as derived.
  std::optional<MemoryFigure> memory_derived;
  int runtime_devices = 1;                    // devices the runtime sees per board (MI250X: 2 GCDs)
  std::optional<UnifiedMemory> unified;      // RAM shared with the CPU (Apple, GB10, Strix Halo, Jetson)
  double bandwidth_bytes_per_s = 0;           // 0: unknown (no source found yet)
  std::map<std::string, double> dense_flops;  // precision -> FLOP/s (dense, never 2:4 sparse)
  // Sparse figures the vendor quotes where they are not dense × sparsity_factor (Blackwell
  // Ultra's FP4: 15 dense, 20 sparse).
  std::map<std::string, double> sparse_flops;
  double sparsity_factor = 0;               // 2:4 structured sparsity on tensor rates; 0: none stated
  double tdp_w = 0;
  double l2_cache_bytes = 0;                 // 0: unknown
  int compute_units = 0;                     // 0: unknown
  std::string compute_unit_kind;             // "SM", "CU", "TensorCore", "NeuronCore", "GPU core", ...
  double boost_clock_hz = 0;                 // 0: unknown
  std::optional<Interconnect> interconnect;  // scale-up link
  int pcie_gen = 0, pcie_lanes = 0;          // 0: unknown / none
  std::optional<bool> ecc;
  bool ecc_default_on = false;               // the factory state (data-centre GDDR cards ship with ECC on)
  double ecc_reserved_fraction = 0;          // share of capacity ECC takes where it does (GDDR)
  std::string ecc_note;
  std::string mig;                           // MIG profiles in words
  std::vector<MigProfile> mig_profiles;
  std::vector<Price> prices;
  std::vector<Source> sources;

  // The device's memory total: the driver's reading, else the derived figure, else the quoted
  // figure read as binary (a user file without either; the loader warns). Device memory (ECC,
  // MIG, the driver's reserve, other processes, a unified machine's OS rule) is capacity.h's.
  double TotalBytes() const;
  // The quoted figure read as binary ("24 GB" as 24 GiB): what DRAM of that label holds.
  double QuotedBinaryBytes() const;
  bool IsUnified() const { return unified.has_value(); }
};

// Mixture of experts, as Hugging Face configs describe it (Mixtral, Qwen-MoE, DeepSeek, gpt-oss).
struct MoeSpec {
  int experts = 0;                 // routed experts per MoE layer
  int experts_per_token = 0;       // top-k
  int shared_experts = 0;          // DeepSeek-style always-on experts (count × expert_intermediate)
  int expert_intermediate = 0;     // FFN width of one expert
  int shared_intermediate = 0;     // Qwen2-MoE: one shared expert of this width (with a 1-unit gate)
  int first_dense_layers = 0;      // DeepSeek first_k_dense_replace
  int layer_period = 1;            // every n-th layer is MoE (Jamba expert_layer_period, Qwen decoder_sparse_step)
  int layer_offset = 0;
  bool expert_bias = false;        // gpt-oss: biases on expert projections and router
};

// Multi-head latent attention (DeepSeek-V2/V3): the KV cache holds one compressed latent.
struct MlaSpec {
  int q_lora_rank = 0;             // 0: queries are projected directly
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
  // DeepSeek-V3.2's sparse-attention indexer in every layer (DeepSeek-V3.2-Exp inference/model.py,
  // class Indexer): its own FP8 key cache of index_head_dim values + an fp32 scale per 128.
  int indexer_heads = 0, indexer_head_dim = 0;
};

// Mamba layers in a hybrid model (Jamba): constant state instead of a KV cache.
struct MambaSpec {
  int d_state = 0, d_conv = 0, expand = 0, dt_rank = 0;
  bool conv_bias = true, proj_bias = false, inner_norms = false;
  int attn_period = 0, attn_offset = 0;  // layer i is attention when i % period == offset
};

// Linear-attention layers in a hybrid model (Qwen3-Next's Gated DeltaNet): a fixed-size
// recurrent state per sequence instead of a KV cache that grows with the context.
struct LinearAttnSpec {
  int key_heads = 0, value_heads = 0, key_head_dim = 0, value_head_dim = 0;
  int conv_kernel = 4;
  int full_attention_interval = 4;  // layer i is full attention when (i + 1) % interval == 0
  bool gated_attention = true;      // the full-attention layers' q_proj also emits an output gate
  std::vector<bool> full_layers;    // from layer_types when given (overrides the interval)
};

struct Model {
  std::string id, name, hf_repo;
  std::string model_type;           // Hugging Face model_type ("llama", "deepseek_v3", ...)
  double params = 0;                // published total parameter count (0: not given)
  double active_params = 0;         // published active count for MoE (0: not given)
  int layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
  int intermediate = 0, vocab = 0;
  long long max_context = 0;
  bool tie_embeddings = false;
  // Layer anatomy, enough to count parameters exactly.
  bool gated_mlp = true;            // SwiGLU/GeGLU: 3 matrices; plain MLP: 2
  bool qkv_bias = false, out_bias = false, mlp_bias = false;
  bool layer_norm = false;          // LayerNorm (weight + bias) instead of RMSNorm (weight)
  int norms_per_layer = 2;          // Gemma 2/3: 4; Falcon-40B: 2 (ln_attn, ln_mlp)
  bool qk_norm = false;             // Qwen3, Gemma 3: per-head q/k norms
  bool embedding_norm = false;      // BLOOM: LayerNorm after the embeddings
  long long learned_positions = 0;  // OPT/GPT-2 style position table rows
  bool attention_sinks = false;     // gpt-oss: one learned sink logit per head and layer
  bool final_norm = true;           // a norm after the last layer (BERT-style encoders have none)
  bool lm_head_bias = false;        // Phi-1/2: the LM head has a bias
  long long token_types = 0;        // BERT: token_type_embeddings rows
  bool router_bias = false;         // DeepSeek-V3 / GLM-4.5: e_score_correction_bias per expert
  bool moe_with_dense = false;      // Gemma 4: a dense MLP beside the MoE block in each MoE layer
  double moe_layer_extra = 0;       // Gemma 4: router scales and the MoE block's own norms, per MoE layer
  double layer_extra = 0;           // parameters per layer outside the usual anatomy (Gemma 4's layer scalar)
  // Gemma 4: global (non-sliding) layers have their own head size and KV heads, and share K as V.
  int global_head_dim = 0, global_kv_heads = 0;
  bool global_k_eq_v = false;
  // Encoder-only models (BERT, XLM-R: embedding and reranker models) read a whole input at once:
  // no KV cache, no decode.
  bool encoder_only = false;
  double head_params = 0;           // an encoder's pooler or classifier head (total and active)
  std::string head_what;
  // A multimodal checkpoint's vision tower and projector: weights in memory, never read per
  // generated token (in the total, not the active count).
  double vision_params = 0;
  std::string vision_what;          // how it was counted, from the config's vision_config
  // Multi-token-prediction layers the checkpoint carries beyond num_hidden_layers (DeepSeek-V3,
  // GLM-4.5: num_nextn_predict_layers). Engines load them only for speculative decoding; the
  // publishers' headline counts leave them out, Hugging Face's page metadata counts them.
  int mtp_layers = 0;
  // Publishers' conventions for the published counts the loader checks (params, active_params).
  bool published_excludes_vision = false;  // Gemma 4's "25.2B" is the language model alone
  bool published_includes_mtp = false;     // DeepSeek-V3.2's "685B" counts the MTP module
  // What the published active count leaves out: "" (nothing), "input_embedding" (gpt-oss: a token
  // gathers one row of it), "embeddings" (input embedding and LM head: Qwen3-Next, GLM-4.5).
  std::string active_excludes;
  // Attention span: layers with a sliding window hold at most `sliding_window` tokens.
  int sliding_window = 0;
  std::vector<bool> sliding_layers;  // per layer; empty with a window set: every layer slides
  std::optional<MoeSpec> moe;
  std::optional<MlaSpec> mla;
  std::optional<MambaSpec> mamba;
  std::optional<LinearAttnSpec> linear;
  std::string notes;
  std::vector<Source> sources;

  bool IsAttentionLayer(int layer) const {
    if (linear) {
      if (!linear->full_layers.empty())
        return layer < static_cast<int>(linear->full_layers.size()) && linear->full_layers[static_cast<size_t>(layer)];
      return linear->full_attention_interval > 0 && (layer + 1) % linear->full_attention_interval == 0;
    }
    return !mamba || mamba->attn_period <= 0 || layer % mamba->attn_period == mamba->attn_offset;
  }
  bool IsMoeLayer(int layer) const {
    if (!moe || layer < moe->first_dense_layers) return false;
    return moe->layer_period <= 1 || layer % moe->layer_period == moe->layer_offset;
  }
  bool IsSlidingLayer(int layer) const {
    if (sliding_window <= 0) return false;
    if (sliding_layers.empty()) return true;
    return layer < static_cast<int>(sliding_layers.size()) && sliding_layers[static_cast<size_t>(layer)];
  }
};

// The groups of a checkpoint's tensors a weight format may store differently (quant.json
// "tensor_bits"): FP8 and GPTQ/AWQ/bitsandbytes checkpoints keep the embeddings and the LM head
// in 16 bits; gpt-oss's MXFP4 quantises only the routed experts.
enum class TensorGroup { kLayers, kRoutedExperts, kInputEmbedding, kLmHead };

struct WeightFormat {
  std::string id, name;
  double bits_per_weight = 0;       // effective, including scales and zero points
  // Bits of a group stored otherwise (0: bits_per_weight). Layers = every layer tensor but the
  // routed experts.
  double layer_bits = 0, routed_bits = 0, input_embedding_bits = 0, lm_head_bits = 0;
  std::string tensor_bits_why;      // which tensors the recipe keeps in other formats, and why
  // Kernels a matmul of this format launches besides the GEMM itself at decode (quant.json
  // extra_kernels_per_gemm; 0: none, or the 8-bit activation quantisation speed.cpp counts).
  int extra_kernels_per_gemm = 0;
  std::string derivation;
  Source source;
  double BitsFor(TensorGroup g) const {
    const double b = g == TensorGroup::kLayers           ? layer_bits
                     : g == TensorGroup::kRoutedExperts  ? routed_bits
                     : g == TensorGroup::kInputEmbedding ? input_embedding_bits
                                                          : lm_head_bits;
    return b > 0 ? b : bits_per_weight;
  }
  bool Mixed() const { return layer_bits > 0 || routed_bits > 0 || input_embedding_bits > 0 || lm_head_bits > 0; }
};

struct KvFormat {
  std::string id, name;
  double bytes_per_element = 0;
  std::string derivation;
  Source source;
};

// A link between accelerators or hosts. Bandwidths are per direction unless named otherwise.
struct InterconnectSpec {
  std::string id, name, kind;          // kind: pcie, nvlink, nvswitch, infiniband, ethernet, infinity-fabric, ici, ...
  int generation = 0, links = 0, domain_gpus = 0;
  double raw_bytes_per_s = 0;           // signalling rate, per direction
  double effective_bytes_per_s = 0;     // after encoding / protocol overhead, per direction
  double bidirectional_bytes_per_s = 0; // both directions, as vendors quote it
  double domain_total_bytes_per_s = 0;  // whole switch domain (NVL72: 130 TB/s)
  double measured_busbw_bytes_per_s = 0;  // NCCL all-reduce bus bandwidth measured on a named system
  double latency_s = 0;
  std::string scope, notes;
  std::vector<Source> sources;
};

// What a microbenchmark measured on a GPU (assets/catalog/ceilings.json): the attainable part
// of a datasheet figure. Values in SI units; divided by the catalog's own datasheet figure for
// the GPU they give the attainable fraction (gpuplan/ceilings.h).
struct MeasuredCeiling {
  std::string id, gpu;
  std::string what;        // "gemm", "memory", "pcie", "allreduce_busbw", "allreduce_latency"
  std::string precision;   // gemm: "bf16", "fp16", "fp8", ...
  int gpus = 0;            // collectives: GPUs taking part
  double message_bytes = 0;  // allreduce_latency: the message size
  double value = 0;        // FLOP/s, bytes/s or seconds
  std::string tool, notes;
  std::vector<Source> sources;
};

// A priced cloud instance at a date.
struct CloudOffer {
  std::string id, provider, instance, gpu, interconnect, region, date, notes;
  int gpu_count = 0;
  double on_demand_usd_per_hour = 0, spot_usd_per_hour = 0, reserved_1y_usd_per_hour = 0;  // 0: not published
  // An offer quoted in yen (Japanese clouds) keeps its yen: per hour, or a flat month's rent
  // (monthly_jpy, charged whether busy or not). Its dollar fields are then 0.
  double on_demand_jpy_per_hour = 0, spot_jpy_per_hour = 0, monthly_jpy = 0;
  // Who may rent it: "" anyone with a card; "application" companies and researchers after an
  // application or contract (ABCI, TSUBAME's industry use); "academic" universities and
  // research only (mdx). Academic offers are listed but never priced as the cloud option.
  std::string access;
  std::vector<Source> sources;
};

// A currency's rate against the US dollar on a date: the catalog's money is in dollars, a
// price quoted in another currency keeps its own amount, and reports convert at the rate.
struct FxRate {
  std::string id;        // "jpy-2026-11-20"
  std::string currency;  // ISO 4217: "JPY", "EUR"
  double per_usd = 0;    // units of the currency one US dollar buys
  std::string date;      // YYYY-MM-DD
  std::string notes;
  Source source;  // one, like a price's: its title stays in the page's lean catalog (reports quote it)
};

// What an inference engine reserves (issue 4 turns these into memory terms).
struct EngineExample {
  std::string model, gpu;
  double workspace_bytes = 0;  // activation / workspace peak the engine logged
  int source = -1;             // index into the engine's sources
};

// Efficiencies fitted on tests/reference/inference_measurements.json (gpuplan calibrate prints
// them) and the error band the same set implies: the measured/estimated ratios that the middle
// 80% of cases fall within. A test recomputes both and fails when they drift.
struct Band {
  double lo = 1, hi = 1;  // measured / estimated: the estimate times lo..hi brackets reality
  int cases = 0;          // reference cases behind it (0: none; the band is a stated guess)
  std::string basis;      // which cases it came from, in words (speed.cpp PickBand); may be empty
};

// A band from the reference cases like a scenario: same engine, phase, dense or MoE, one or
// several GPUs, GPU vendor (calibrate.cpp WithBands; speed.cpp picks the one that matches).
struct ClassBand {
  std::string phase;      // "decode" (decode and throughput cases) or "prefill" (prefill, TTFT)
  bool moe = false, multi_gpu = false;
  std::string vendor;     // the GPU's vendor, lower case ("nvidia", "amd", "apple")
  Band band;
};

// A GPU vendor as the class bands name it: lower case ("nvidia", "amd", "apple").
inline std::string VendorKey(const std::string& vendor) {
  std::string v;
  for (char ch : vendor) v += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
  return v.empty() ? "unknown" : v;
}

// An engine's decode efficiencies on one vendor's GPUs, where its kernels there differ (vLLM on
// ROCm streams and launches differently from vLLM on CUDA): fitted on that vendor's cases.
struct VendorCalibration {
  std::string vendor;  // VendorKey
  double decode_bw_efficiency = 0, kernel_s = 0;
  int cases = 0;
};

struct EngineCalibration {
  double decode_bw_efficiency = 0;       // share of datasheet bandwidth a decode step reaches
  double prefill_compute_efficiency = 0; // share of dense tensor peak prefill reaches
  double kernel_s = 0;                   // fixed cost per kernel of a decode step (speed.cpp DecodeKernels)
  double prefill_token_layer_s = 0;      // prefill: non-matmul work per token and layer
  Band decode, prefill, memory;
  std::vector<ClassBand> classes;        // bands per kind of scenario (empty: none fitted)
  std::vector<VendorCalibration> by_vendor;  // decode efficiencies of their own on some vendors' GPUs
  // Where no case is like the scenario: p5..p95 of every engine's cases of the phase, joined
  // with the engine's own band. Said so in words ("extrapolated: ...").
  Band decode_wide, prefill_wide;
  // Serving at load (serving.h): measured / simulated on the published serving results of this
  // engine (or of all engines where it has few), p10..p90 widened to hold 1 (engines.json
  // calibration.serving_bands, printed by `gpuplan calibrate --serving --bands`).
  Band serve_throughput, serve_ttft, serve_tpot, serve_e2e;
  std::string basis;                     // how and when the numbers were fitted
};

// How the engine's memory cap bounds what it uses (engines.json "memory_cap"; inference.cpp).
enum class MemoryCap {
  kTotal,    // "total": cap = fraction × the device total the runtime sees; the engine refuses to
             // start when that much is not free (vLLM gpu_memory_utilization)
  kFree,     // "free": the KV cache takes the fraction of what is free after weights and
             // activations (TensorRT-LLM kv_cache_free_gpu_mem_fraction)
  kReserve,  // "reserve": weights + KV take all but a reserve (the workspace term); mem-util
             // replaces the reserve rule by a fraction of the total (SGLang mem_fraction_static)
  kNone,     // "none": the engine takes what it needs of what is free (llama.cpp, Transformers)
};

// How the engine sizes its activation / workspace peak (engines.json "workspace_model").
enum class WorkspaceModel {
  kProfiledForward,  // "profiled-forward": a profiling forward pass of max_batched_tokens tokens
                     // before the KV cache is sized (vLLM profile_run, TensorRT-LLM PyTorch backend)
  kReserveRule,      // "reserve-rule": a reserve from GPU memory and TP (EngineReserve; SGLang)
  kComputeBuffer,    // "compute-buffer": a worst-case graph of one micro-batch of
                     // micro_batch_tokens, reserved at start-up (llama.cpp n_ubatch)
  kPrefillForward,   // "prefill-forward": the prefill of every prompt at once, nothing reserved
                     // ahead (Transformers generate())
};
// How the engine runs a model over several GPUs by default (engines.json "multi_gpu"; speed.cpp).
enum class MultiGpuMode {
  kTensorParallel,  // "tensor-parallel": every layer split over the GPUs, two all-reduces per layer
                    // (Megatron; vLLM, SGLang, TensorRT-LLM --tp)
  kLayerSplit,      // "layer-split": each GPU holds a run of whole layers and the GPUs work in turn,
                    // handing the hidden state on (llama.cpp --split-mode layer, its default)
  kRowSplit,        // "row-split": every weight matrix split by rows over the GPUs, the main GPU keeping
                    // the KV cache and the rest of the work, results gathered to it after each
                    // matmul (llama.cpp --split-mode row)
  kDpAttention,     // "dp-attention": attention data-parallel (each GPU its own sequences, the
                    // attention weights whole on every GPU, no KV cache replicated), the MLP and
                    // MoE layers tensor-parallel over all the GPUs (SGLang --enable-dp-attention,
                    // vLLM --data-parallel-size with MoE models)
};
// The engines.json words for the three: "total", "profiled-forward", "layer-split", ...
const char* MemoryCapName(MemoryCap cap);
const char* WorkspaceModelName(WorkspaceModel model);
const char* MultiGpuModeName(MultiGpuMode mode);

// A reserve for activations and CUDA graphs, per GPU, in MiB: constant + per_chunk_token_mib ×
// max(chunk, min_chunk_tokens) + per_graph_batch_mib × graphs + per_8_gpus_mib × tp / 8, at
// least floor_mib on GPUs above floor_above_gib; chunk and graphs from the first tier whose
// bound the GPU's memory is below (SGLang's _handle_gpu_memory_settings, engines.json
// "reserved_mem_mib" and "defaults_by_gpu_memory").
struct EngineReserveTier {
  double below_gib = 0;      // 0: no upper bound (the last tier)
  double chunk_tokens = 0;   // chunked_prefill_size
  double graphs_tp_below_4 = 0, graphs_tp_4_up = 0;  // cuda_graph_max_bs at TP < 4 and TP >= 4
};
struct EngineReserve {
  double constant_mib = 0, per_chunk_token_mib = 0, min_chunk_tokens = 0, per_graph_batch_mib = 0;
  double per_8_gpus_mib = 0, floor_mib = 0;
  double floor_above_gib = 60;  // named by the key "floor_if_gpu_mem_over_60gib"
  std::vector<EngineReserveTier> tiers;
};

// An engine profile. What the estimators do differently per engine is read from these fields,
// never from the id: a user file may add an engine that behaves per its fields.
// How an engine's scheduler fills a step (engines.json "scheduler"; serving.h). The defaults are
// vLLM V1's (vllm/v1/core/sched/scheduler.py).
struct EngineScheduler {
  // Decodes and prompt chunks share a step (vLLM V1, TensorRT-LLM in-flight batching, llama.cpp's
  // server); false: a step of prompts whenever one can be admitted, else a step of decodes
  // (SGLang without --enable-mixed-chunk).
  bool mixed_steps = true;
  bool chunked_prefill = true;  // a prompt split over steps within the token budget
  // Admission reserves the blocks of prompt + output at once and nothing is ever preempted
  // (TensorRT-LLM's GUARANTEED_NO_EVICT capacity policy); false: blocks as tokens are scheduled.
  bool reserve_whole = false;
  // The request preempted when blocks run out: the one with the fewest output tokens (SGLang's
  // decode retraction) or the latest admitted (vLLM's recompute preemption).
  bool preempt_fewest_outputs = false;
  // The sequence cap follows from the pool (SGLang's max_running_requests when unset:
  // min(max(min(pool tokens / context length × 512, 4096), 2048), pool tokens / 2)).
  bool seqs_from_pool = false;
  // Without chunked prefill the step's token budget is at least the model length, so any prompt
  // fits one step (vLLM V0: max_num_batched_tokens = max(max_model_len, 2048)).
  bool budget_covers_model_len = false;
  // Chunked prefill switched on by the engine for a model length above this (vLLM V0 from 0.5.3:
  // 32,768), then with this token budget and decodes first in a mixed step; 0: never.
  long long chunked_above_model_len = 0;
  int chunked_budget = 0;
  // With decode bursts (multi-step scheduling): tokens streamed every step (vLLM from 0.6.3)
  // rather than once at the end of the burst (0.6.0-0.6.2).
  bool burst_streams_each_step = false;
  std::string why;
};

// "0.6.3.post1" < "0.8.0": release numbers compared part by part (a suffix after them is ignored).
bool VersionBefore(std::string_view a, std::string_view b);

struct EngineProfile {
  std::string id, name, version;
  // Another release of the engine `base` names (engines.json "base"): every field it does not
  // give is the base's, its efficiencies and bands too (one engine, one fit: calibrate.cpp).
  std::string base;
  // The releases of `base` this profile stands for (engines.json serves_versions), from one
  // version up to, not including, another; empty: not chosen by version. The serving check
  // replays a published result with the profile of the release it names.
  std::string serves_from, serves_before;
  EngineCalibration calibration;
  std::string calibrate_like;      // engine whose fit to borrow while this one has too few measurements
  double memory_fraction = 0;      // vLLM gpu_memory_utilization, SGLang mem_fraction_static, TRT-LLM KV fraction
  std::string memory_fraction_of;  // "total" (vLLM, SGLang) or "free" (TensorRT-LLM: of free memory after weights)
  MemoryCap memory_cap = MemoryCap::kNone;
  WorkspaceModel workspace_model = WorkspaceModel::kPrefillForward;
  std::optional<EngineReserve> reserve;  // with WorkspaceModel::kReserveRule
  int micro_batch_tokens = 0;            // with kComputeBuffer: llama.cpp n_ubatch
  bool input_embedding_on_host = false;  // the input embedding table stays in host RAM (llama.cpp)
  bool layer_offload = false;            // partial offload of layers to host RAM (llama.cpp -ngl)
  // Norms, rotary, activations and residual adds run fused into few kernels per layer
  // (engines.json fused_elementwise): prefill has no per-token elementwise work worth a fitted
  // term (calibration prefill_token_layer_us stays 0).
  bool fused_elementwise = false;
  // FP16 GEMMs accumulate in FP16 (engines.json fp16_accumulate_gemm): the GPU's fp16_fp16acc peak.
  bool fp16_accumulate_gemm = false;
  bool gguf_int8_matmul = false;         // GGUF-quantised weights run on INT8 tensor cores (llama.cpp MMQ)
  MultiGpuMode multi_gpu = MultiGpuMode::kTensorParallel;
  std::vector<MultiGpuMode> multi_gpu_modes;  // every mode the engine offers (engines.json; multi_gpu first)
  std::vector<std::pair<MultiGpuMode, std::string>> multi_gpu_notes;  // what a user choosing the mode should know
  EngineScheduler scheduler;
  int kv_block_tokens = 0;
  int max_batched_tokens = 0;
  int max_num_seqs = 0;                  // sequences per step (vLLM max_num_seqs); 0: not stated
  // Smaller defaults on GPUs below `below_gib` or whose name contains `name_contains` (vLLM's
  // get_batch_defaults: >= 70 GiB and not an A100 get 8192 tokens and 1024 sequences).
  struct SmallGpuDefaults {
    double below_gib = 0;
    std::string name_contains;
    int max_batched_tokens = 0, max_num_seqs = 0;
  };
  std::optional<SmallGpuDefaults> small_gpu;
  double sampler_bytes_per_logit = 0;    // the sampler warm-up's peak per row and vocabulary entry (0: none)
  double multi_gpu_buffers_bytes = 0;    // per GPU with 2+ GPUs: collective buffers (NCCL, custom all-reduce)
  // CUDA graphs' memory (vLLM: the graph pool of every captured batch size), per layer per GPU,
  // and whether the engine counts it before sizing the KV cache (vLLM >= 0.21) or takes it from
  // the headroom its memory cap leaves (earlier releases).
  double cuda_graph_bytes_per_layer = 0;
  bool cuda_graphs_in_budget = false;
  double eager_kernel_s = 0;  // added per kernel with CUDA graphs off (0: the engine has no graphs to turn off)
  double cuda_context_bytes = 0;
  std::string activation_workspace, notes;
  std::vector<EngineExample> examples;
  std::vector<Source> sources;
};

// The engine's per-step limits on a GPU: its defaults, or the smaller ones it picks there.
struct BatchDefaults {
  int max_batched_tokens = 0, max_num_seqs = 0;
};
BatchDefaults EngineBatchDefaults(const EngineProfile& engine, const Gpu& gpu, double device_bytes);
// The tier of a reserve rule for a GPU of `device_bytes` (the first whose bound it is below; the
// last, unbounded, otherwise); null for a rule without tiers.
const EngineReserveTier* ReserveTier(const EngineReserve& rule, double device_bytes);

// [SECTION] Catalog and loading ----------------------------------------------------------

struct CatalogFile {
  std::string name;   // shown in error messages ("gpus.json", a user's path)
  std::string text;
};

struct Catalog {
  // The built-in catalog's version ("2026.12": year.month, a third part for a second release in
  // a month) and date (YYYY-MM-DD), from its files' top-level "catalog_version" and
  // "catalog_date" (assets/catalog/catalog.json; what changed: assets/catalog/CHANGELOG.md).
  // The first file that declares them sets them; a user file's own are checked, not taken.
  std::string catalog_version, catalog_date;
  // Things the loader found suspicious but not wrong (a memory unit unusual for its memory type,
  // a capacity read from the quoted figure): `catalog validate` prints them.
  std::vector<std::string> warnings;
  // Those of them that name a field nothing reads (a typo: "field 'bandwith' is not a field of
  // this entry (ignored): did you mean 'bandwidth'?"): every command that loads the file says so.
  std::vector<std::string> unknown_fields;
  // The page's lean built-in catalog: its entries' "sources" lists are not loaded yet (the page
  // fetches catalog-sources.json on demand: ParseCatalogBundle, then LoadCatalog).
  bool sources_elsewhere = false;
  std::vector<Gpu> gpus;
  std::vector<Model> models;
  std::vector<WeightFormat> weight_formats;
  std::vector<KvFormat> kv_formats;
  std::vector<InterconnectSpec> interconnects;
  std::vector<CloudOffer> cloud_offers;
  std::vector<EngineProfile> engines;
  std::vector<MeasuredCeiling> ceilings;
  std::vector<FxRate> fx_rates;

  const Gpu* FindGpu(std::string_view id) const;
  // The latest rate for a currency ("JPY"); null when the catalog has none.
  const FxRate* LatestFx(std::string_view currency) const;
  const Model* FindModel(std::string_view id) const;
  const WeightFormat* FindWeightFormat(std::string_view id) const;
  const KvFormat* FindKvFormat(std::string_view id) const;
  const EngineProfile* FindEngine(std::string_view id) const;
  // The profile that stands for release `version` of engine `id` (a profile whose base is `id`
  // and whose serves_versions holds it), else `id`'s own; null for an unknown id.
  const EngineProfile* FindEngineRelease(std::string_view id, std::string_view version) const;

  // Where each GPU and model id sits, built by the loader (IndexIds) for the lookups a
  // ranking makes by the thousand. Every hit is checked against the entry, and a miss scans:
  // a catalog edited after loading (tests, a merge in progress) is still searched right.
  struct IdHash {
    using is_transparent = void;  // looked up by string_view without a copy
    size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };
  using IdIndex = std::unordered_map<std::string, size_t, IdHash, std::equal_to<>>;
  IdIndex gpu_index, model_index;
  void IndexIds();
};

// What a file may do with an id that is already in the catalog.
enum class OnExistingId {
  kReplace,  // user catalogs: override a built-in entry by id
  kReject,   // built-in files: an id defined twice is a mistake
};

// Parses catalog files into `base`: entries with a new id are added, an existing id is
// replaced (or rejected). Any error (malformed JSON, missing or wrong-typed field,
// non-positive number, a number without a source) rejects the whole file and names file,
// entry and field.
// Empty when `files` catalog files of `bytes` bytes in all may be loaded together; otherwise why
// not (limits::kCatalogFiles, kCatalogBytes). LoadCatalog checks it; a front end that reads the
// files itself checks it first, so it never holds more than the limit.
std::string CatalogFilesBeyond(size_t files, size_t bytes);
Result<Catalog> LoadCatalog(const std::vector<CatalogFile>& files, Catalog base = {},
                            OnExistingId on_existing = OnExistingId::kReplace);

// Text a user pastes or drops on the page (or passes to the CLI): a catalog file (it has
// "schema") merged over `base`, or a Hugging Face config.json that becomes a model entry with
// id `name_hint` (a file name, say) or its _name_or_path. `summary` says what was added.
struct ImportedText {
  Catalog catalog;
  std::string summary;
};
Result<ImportedText> ImportUserText(const Catalog& base, std::string_view text, const std::string& name_hint);

// The catalog compiled into the program (assets/catalog/*.json). Loaded once.
const Result<Catalog>& EmbeddedCatalog();
// The built-in catalog files as text (what EmbeddedCatalog parses; the bench times it).
std::vector<CatalogFile> EmbeddedCatalogFiles();

// The built-in catalog in a compact binary form made at build time (compact.cpp): the loaded
// catalog's fields as they are, read back without parsing or checking (they were checked when
// the JSON was loaded, at build time). Not a format for users: their catalogs are JSON.
std::string WriteCompactCatalog(const Catalog& catalog);
Result<Catalog> ReadCompactCatalog(std::string_view bytes);
// The built-in files loaded as EmbeddedCatalog loads them (an id defined twice is an error);
// `sources_elsewhere`: the page's lean copy, its "sources" lists left out.
Result<Catalog> LoadBuiltInCatalog(const std::vector<CatalogFile>& files, bool sources_elsewhere);

// The built-in catalog files with their sources, as the page's catalog-sources.json carries
// them: {"schema": "gpuplan.catalog-files/1", "files": [{"name": ..., "doc": {...}}]}.
Result<std::vector<CatalogFile>> ParseCatalogBundle(std::string_view text);

// "unknown model 'x' (known: a, b, c)" — shared wording for CLI and page.
std::string UnknownIdMessage(std::string_view kind, std::string_view id,
                             const std::vector<std::string>& known);

}  // namespace gpuplan
