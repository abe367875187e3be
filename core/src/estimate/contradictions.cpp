#include "gpuplan/contradictions.h"

#include <cmath>

#include "gpuplan/i18n.h"
#include "gpuplan/inference.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

using S = Severity;
std::string Num(long long v) {
  return std::to_string(v);
}
bool HasFp8(const Gpu& gpu) {
  return gpu.dense_flops.count("fp8") > 0;
}
bool Lora(const Scenario& s) {
  return s.method == "lora" || s.method == "qlora";
}
// How the serving engine spreads the model over tp GPUs: whole layers per GPU (layer and row
// splits), attention data-parallel, or tensor parallelism (inference.cpp, SplitMode).
bool TensorSplit(const Resolved& r, const Scenario& s) {
  if (s.tp < 2) return false;
  const MultiGpuMode m = SplitMode(r.engine, s);
  return m != MultiGpuMode::kLayerSplit && m != MultiGpuMode::kRowSplit && m != MultiGpuMode::kDpAttention;
}
bool ExpertParallel(const Resolved& r, const Scenario& s) {
  return s.ep == 1 && r.model.moe && r.model.moe->experts > 0 && s.tp > 1;
}

// Rows that serving estimates apply (some training too). The page's first frame runs these;
// keep them few and plain.
const Contradiction kServeRows[] = {
    {"prompt-over-context", "prompt", S::kWarning, kServeChecks,
     N_("prompt > context: the context counts prompt and output"),
     [](const Resolved&, const Scenario& s, unsigned) {
       return s.prompt <= s.context
                  ? std::string()
                  : TrF("prompt: {0} tokens exceed the context of {1} (context counts prompt + output); read as {1}",
                        {FormatCount(s.prompt), FormatCount(s.context)});
     }},
    {"context-over-window", "context", S::kWarning, kServeChecks | kTrainChecks,
     N_("context > the model's max_position_embeddings (its config.json): quality past the trained window is "
        "not promised"),
     [](const Resolved& r, const Scenario& s, unsigned kind) {
       if (r.model.max_context <= 0 || s.context <= r.model.max_context) return std::string();
       return TrF(kind == kTrainChecks ? N_("sequence {0} exceeds the model's window of {1}")
                                       : N_("context {0} exceeds the model's window of {1} tokens"),
                  {FormatCount(s.context), FormatCount(r.model.max_context)});
     }},
    {"ep-dense", "ep", S::kWarning, kServeChecks, N_("ep 1 on a dense model: it has no experts to place"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return s.ep == 1 && !r.model.moe ? TrF("ep: {0} has no experts; ep has no effect", {r.model.name})
                                        : std::string();
     }},
    {"ep-one-gpu", "ep", S::kWarning, kServeChecks, N_("ep 1 with tp 1: one GPU per stage holds every expert"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return s.ep == 1 && r.model.moe && s.tp == 1
                  ? std::string(Tr("ep: one GPU per stage holds every expert; expert parallelism needs tp > 1"))
                  : std::string();
     }},
    {"ep-over-experts", "ep", S::kWarning, kServeChecks,
     N_("ep 1 with more GPUs (tp) than experts: some GPUs hold none"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return ExpertParallel(r, s) && s.tp > r.model.moe->experts
                  ? TrF("ep: {0} for {1} experts: some GPUs hold none",
                        {FormatCountOf(s.tp, "GPU", "GPUs"), Num(r.model.moe->experts)})
                  : std::string();
     }},
    {"ep-uneven", "ep", S::kWarning, kServeChecks,
     N_("ep 1 with tp not dividing the experts: vLLM gives the first GPUs one expert more"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return ExpertParallel(r, s) && s.tp <= r.model.moe->experts && r.model.moe->experts % s.tp != 0
                  ? TrF("ep: {0} experts do not divide evenly over {1}: the largest share is counted",
                        {Num(r.model.moe->experts), FormatCountOf(s.tp, "GPU", "GPUs")})
                  : std::string();
     }},
    {"pp-over-layers", "pp", S::kWarning, kServeChecks | kTrainChecks, N_("pp > layers: some stages hold no layer"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return s.pp > r.model.layers
                  ? TrF("pp: {0} stages for {1} layers leaves stages empty", {Num(s.pp), Num(r.model.layers)})
                  : std::string();
     }},
    {"pp-uneven", "pp", S::kWarning, kServeChecks | kTrainChecks,
     N_("pp not dividing the layers: unequal stages, the largest sets memory and speed"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return s.pp > 1 && s.pp <= r.model.layers && r.model.layers % s.pp != 0
                  ? TrF("pp: {0} layers do not divide evenly into {1} stages; the largest stage sets memory and speed",
                        {Num(r.model.layers), Num(s.pp)})
                  : std::string();
     }},
    {"tp-heads", "tp", S::kWarning, kServeChecks | kTrainChecks,
     N_("tensor parallelism with tp not dividing the attention heads: vLLM, SGLang and Megatron-LM require "
        "heads % tp == 0"),
     [](const Resolved& r, const Scenario& s, unsigned kind) {
       const bool split = kind == kTrainChecks ? s.tp > 1 : TensorSplit(r, s);
       return split && r.model.heads > 0 && r.model.heads % s.tp != 0
                  ? TrF("{0} attention heads do not divide evenly over {1}; vLLM, SGLang and Megatron-LM refuse this",
                        {Num(r.model.heads), FormatCountOf(s.tp, "GPU", "GPUs")})
                  : std::string();
     }},
    {"mla-kv-tp", "tp", S::kWarning, kServeChecks,
     N_("tensor parallelism on an MLA model: the latent KV cache is not split"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return r.model.mla && TensorSplit(r, s)
                  ? std::string(Tr("MLA's latent KV cache cannot be split by heads: every GPU holds all of it"))
                  : std::string();
     }},
    {"kv-heads-replicated", "tp", S::kWarning, kServeChecks,
     N_("tensor parallelism with tp > KV heads: each KV head is replicated"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return !r.model.mla && TensorSplit(r, s) && r.model.kv_heads > 0 && r.model.kv_heads < s.tp
                  ? TrF("{0} > {1} KV heads: KV heads are replicated, one per GPU",
                        {FormatCountOf(s.tp, "GPU", "GPUs"), Num(r.model.kv_heads)})
                  : std::string();
     }},
    {"kv-heads-uneven", "tp", S::kWarning, kServeChecks,
     N_("tensor parallelism with tp not dividing the KV heads: vLLM refuses it"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return !r.model.mla && TensorSplit(r, s) && r.model.kv_heads >= s.tp && r.model.kv_heads % s.tp != 0
                  ? TrF("{0} KV heads do not divide evenly over {1}; engines such as vLLM refuse this",
                        {Num(r.model.kv_heads), FormatCountOf(s.tp, "GPU", "GPUs")})
                  : std::string();
     }},
    {"gpu-layers-engine", "gpu-layers", S::kWarning, kServeChecks,
     N_("gpu-layers below the model's layers with an engine that has no -ngl style offload"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return LayersOnGpu(r.model, s) < r.model.layers && !r.engine.layer_offload
                  ? TrF("partial offload is modelled the llama.cpp way (-ngl); {0} offloads differently, if at all",
                        {r.engine.name})
                  : std::string();
     }},
    {"mem-util-no-cap", "mem-util", S::kWarning, kServeChecks, N_("mem-util with an engine that has no memory cap"),
     [](const Resolved& r, const Scenario& s, unsigned) {
       return s.mem_util > 0 && r.engine.memory_cap == MemoryCap::kNone
                  ? TrF("mem-util has no effect with {0}", {r.engine.name})
                  : std::string();
     }},
    {"fp8-weights-no-fp8", "weights", S::kWarning, kServeChecks,
     N_("FP8 weights on a GPU without FP8 tensor cores (no fp8 dense figure in the catalog)"),
     [](const Resolved& r, const Scenario&, unsigned) {
       return r.weights.id.rfind("fp8", 0) == 0 && !HasFp8(r.gpu)
                  ? TrF("{0} has no FP8 tensor cores in the catalog: FP8 weights are kept in 8 bits and multiplied "
                        "in 16 bits (weight-only, as vLLM's Marlin kernels do)",
                        {r.gpu.name})
                  : std::string();
     }},
    {"fp8-kv-no-fp8", "kv", S::kWarning, kServeChecks,
     N_("FP8 KV cache on a GPU without FP8 tensor cores (no fp8 dense figure in the catalog)"),
     [](const Resolved& r, const Scenario&, unsigned) {
       return r.kv.id.rfind("fp8", 0) == 0 && !HasFp8(r.gpu)
                  ? TrF("{0} has no FP8 tensor cores in the catalog: an FP8 KV cache saves memory, but attention "
                        "converts it to 16 bits",
                        {r.gpu.name})
                  : std::string();
     }},
};

// Rows that only training applies (the Train panel's code: deferred on the page).
const Contradiction* TrainRows(std::size_t& count) {
  static const Contradiction rows[] = {
      {"gpus-limit", "scenario", S::kError, kTrainChecks, N_("tp × pp × dp × cp above 2^24 GPUs"),
       [](const Resolved&, const Scenario& s, unsigned) {
         // Each field's limit is wide, but their product is not bounded by them (4096 × 64 × 65536
         // = 2^34): past int's range the GPU count would wrap. 2^24 is far beyond any cluster built.
         constexpr double kMaxGpus = 16777216;
         const double gpus = static_cast<double>(s.TrainingGpus());
         return gpus > kMaxGpus
                    ? TrF("tp × pp × dp × cp = {0} GPUs; at most {1}", {FormatFixed(gpus, 0), FormatFixed(kMaxGpus, 0)})
                    : std::string();
       }},
      {"offload-param-zero", "offload", S::kError, kTrainChecks,
       N_("offload 2 (parameters) below ZeRO-3: DeepSpeed offloads parameters only in stage 3 (offload_param)"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.offload >= 2 && s.zero < 3
                    ? std::string(Tr("offload 2 moves parameters to the CPU, which DeepSpeed does only with ZeRO-3 "
                                     "(offload_param) and FSDP only when fully sharded: set zero 3"))
                    : std::string();
       }},
      {"offload-optimizer-zero", "offload", S::kWarning, kTrainChecks,
       N_("offload 1 (optimizer) with ZeRO-0: DeepSpeed's offload_optimizer needs stage 1 or more"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.offload == 1 && s.zero == 0
                    ? std::string(Tr("offload 1 moves the optimizer states to the CPU, which DeepSpeed does from "
                                     "ZeRO-1 on (offload_optimizer): set zero 1 or more"))
                    : std::string();
       }},
      {"zero-one-gpu", "zero", S::kWarning, kTrainChecks, N_("ZeRO 1-3 without offload on a single data-parallel GPU"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.zero > 0 && s.offload == 0 && static_cast<long long>(s.dp) * s.cp <= 1
                    ? TrF("ZeRO-{0} shards over the data-parallel GPUs; with dp × cp = 1 it saves nothing",
                          {Num(s.zero)})
                    : std::string();
       }},
      {"shard-group-over-dp", "shard-group", S::kWarning, kTrainChecks,
       N_("shard-group above dp: read as every data-parallel GPU"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.shard_group > s.dp
                    ? TrF("shard-group {0} is more than dp {1}: one shard group of every data-parallel GPU",
                          {Num(s.shard_group), Num(s.dp)})
                    : std::string();
       }},
      {"shard-group-uneven", "shard-group", S::kWarning, kTrainChecks, N_("shard-group not dividing dp (hybrid shard)"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.shard_group > 0 && s.shard_group < s.dp && s.dp % s.shard_group != 0
                    ? TrF("dp {0} is not a multiple of shard-group {1}", {Num(s.dp), Num(s.shard_group)})
                    : std::string();
       }},
      {"moe-ep-dense", "moe-ep", S::kWarning, kTrainChecks, N_("moe-ep on a dense model"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         return s.moe_ep > 1 && !r.model.moe
                    ? TrF("moe-ep applies to mixture-of-experts models; {0} is dense", {r.model.name})
                    : std::string();
       }},
      {"moe-ep-lora", "moe-ep", S::kWarning, kTrainChecks, N_("moe-ep with LoRA or QLoRA (not modelled)"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.moe_ep > 1 && Lora(s)
                    ? std::string(Tr("moe-ep is not modelled for LoRA: the adapters are counted as if replicated"))
                    : std::string();
       }},
      {"moe-ep-over-gpus", "moe-ep", S::kError, kTrainChecks,
       N_("moe-ep above tp × dp × cp: Megatron-LM carves expert-parallel groups out of the data-parallel GPUs and, "
          "with MoE parallel folding, the tensor-parallel ones"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         const long long gpus = static_cast<long long>(s.tp) * s.dp * s.cp;
         return r.model.moe && !Lora(s) && s.moe_ep > gpus
                    ? TrF("moe-ep {0} is more than the tp × dp × cp = {1} GPUs its groups can be carved from",
                          {Num(s.moe_ep), Num(gpus)})
                    : std::string();
       }},
      {"moe-ep-uneven", "moe-ep", S::kWarning, kTrainChecks, N_("moe-ep not dividing dp × cp"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         const long long dp_cp = static_cast<long long>(s.dp) * s.cp;
         return r.model.moe && !Lora(s) && s.moe_ep > 1 && dp_cp % s.moe_ep != 0
                    ? TrF("moe-ep {0} does not divide dp × cp = {1}: expert-parallel groups are carved out of the "
                          "data-parallel GPUs",
                          {Num(s.moe_ep), Num(dp_cp)})
                    : std::string();
       }},
      {"moe-ep-experts", "moe-ep", S::kError, kTrainChecks,
       N_("moe-ep not dividing the experts: Megatron-LM requires num_experts % expert_model_parallel_size == 0"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         return r.model.moe && !Lora(s) && s.moe_ep > 1 && r.model.moe->experts % s.moe_ep != 0
                    ? TrF("moe-ep {0} does not divide the {1} experts; Megatron-LM refuses this",
                          {Num(s.moe_ep), Num(r.model.moe->experts)})
                    : std::string();
       }},
      {"paged-offload", "paged", S::kWarning, kTrainChecks, N_("paged optimizer with the optimizer offloaded"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.paged && s.offload >= 1
                    ? std::string(Tr("paged has no effect with the optimizer offloaded to the CPU"))
                    : std::string();
       }},
      {"kbit-prep-no-kbit", "kbit-prep", S::kWarning, kTrainChecks,
       N_("kbit-prep without a k-bit (QLoRA or LLM.int8()) base"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         const bool kbit = s.method == "qlora" || (s.method == "lora" && r.weights.bits_per_weight < 16);
         return s.kbit_prep && !kbit ? std::string(Tr("kbit-prep applies to a QLoRA or LLM.int8() base; this run "
                                                      "has no k-bit weights"))
                                     : std::string();
       }},
      {"train-embed-full", "train-embed", S::kWarning, kTrainChecks, N_("train-embed with full training"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.train_embed && !Lora(s)
                    ? std::string(Tr("train-embed applies to LoRA; full training trains every weight"))
                    : std::string();
       }},
      {"lora-options-full", "lora-rank", S::kWarning, kTrainChecks,
       N_("lora-rank, lora-targets or lora-layers set with full training"),
       [](const Resolved&, const Scenario& s, unsigned) {
         const Scenario d;
         return !Lora(s) && (s.lora_rank != d.lora_rank || s.lora_targets != d.lora_targets ||
                             s.lora_layers != d.lora_layers)
                    ? std::string(Tr("lora-rank, lora-targets and lora-layers apply to LoRA and QLoRA; full training "
                                     "trains every weight"))
                    : std::string();
       }},
      {"full-weights-format", "weights", S::kWarning, kTrainChecks,
       N_("a weights format other than bf16/fp16 with full training"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return !Lora(s) && s.weights != "bf16" && s.weights != "fp16"
                    ? TrF("full training holds BF16 weights; the weights field ({0}) applies to inference and LoRA",
                          {s.weights})
                    : std::string();
       }},
      {"lora-zero12", "zero", S::kWarning, kTrainChecks, N_("ZeRO-1/2 with LoRA: the frozen base stays replicated"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return Lora(s) && s.zero > 0 && s.zero < 3
                    ? std::string(Tr("ZeRO-1/2 shard only the adapters' states with LoRA; the frozen base is "
                                     "replicated (ZeRO-3/FSDP shards it)"))
                    : std::string();
       }},
      {"precision-fp8-no-fp8", "precision", S::kWarning, kTrainChecks,
       N_("precision fp8 on a GPU without FP8 tensor cores"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         return s.precision == "fp8" && !HasFp8(r.gpu)
                    ? TrF("{0} has no FP8 tensor cores in the catalog: trained in BF16 instead (precision fp8 needs "
                          "Hopper, Ada, Blackwell or MI300-class GPUs)",
                          {r.gpu.name})
                    : std::string();
       }},
      {"act-offload-no-recompute", "act-offload", S::kWarning, kTrainChecks, N_("act-offload without recomputation"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.act_offload && s.recompute == "none"
                    ? std::string(Tr("activation offloading without recomputation moves every activation over PCIe "
                                     "twice a step; torchtune and Unsloth offload the checkpoints of recomputed layers "
                                     "(recompute=full)"))
                    : std::string();
       }},
      {"kernels-fused-plain-mlp", "kernels", S::kWarning, kTrainChecks, N_("kernels fused on a plain (GPT-style) MLP"),
       [](const Resolved& r, const Scenario& s, unsigned) {
         return s.kernels == "fused" && !r.model.gated_mlp
                    ? "kernels: " +
                          std::string(Tr("a plain (GPT-style) MLP is counted as Korthikanti et al. do, eager or fused"))
                    : std::string();
       }},
      {"vp-without-pp", "vp", S::kWarning, kTrainChecks, N_("vp above 1 with one pipeline stage"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.vp > 1 && s.pp <= 1
                    ? TrF("vp {0} interleaves pipeline stages; with pp 1 it has no effect", {Num(s.vp)})
                    : std::string();
       }},
      {"cp-context", "cp", S::kWarning, kTrainChecks,
       N_("context not a multiple of 2 × cp: Megatron-LM splits each sequence into 2 × cp chunks"),
       [](const Resolved&, const Scenario& s, unsigned) {
         return s.cp > 1 && s.context % (2LL * s.cp) != 0
                    ? TrF("context {0} is not a multiple of 2 × cp = {1}; Megatron-LM's context parallelism needs it",
                          {FormatCount(s.context), Num(2LL * s.cp)})
                    : std::string();
       }},
      {"global-batch-small", "global-batch", S::kWarning, kTrainChecks, N_("global-batch below dp × micro-batch"),
       [](const Resolved&, const Scenario& s, unsigned) {
         const long long micro = static_cast<long long>(s.dp) * s.micro_batch;
         return s.global_batch > 0 && s.global_batch < micro
                    ? TrF("global batch {0} is smaller than dp × micro-batch = {1} sequences: one micro-step per step",
                          {FormatCount(s.global_batch), Num(micro)})
                    : std::string();
       }},
      {"global-batch-rounded", "global-batch", S::kWarning, kTrainChecks,
       N_("global-batch not a multiple of dp × micro-batch"),
       [](const Resolved&, const Scenario& s, unsigned) {
         const long long micro = static_cast<long long>(s.dp) * s.micro_batch;
         return s.global_batch >= micro && micro > 0 && s.global_batch % micro != 0
                    ? TrF("global batch rounded up to {0} sequences (a whole number of micro-steps)",
                          {Num((s.global_batch / micro + 1) * micro)})
                    : std::string();
       }},
  };
  count = sizeof rows / sizeof rows[0];
  return rows;
}

void Apply(const Contradiction& c, const Resolved& r, const Scenario& s, unsigned kind, std::optional<Error>& error,
           std::vector<std::string>* warnings) {
  if (!(c.kinds & kind) || error) return;
  if (c.severity == Severity::kWarning && !warnings) return;
  std::string m = c.message(r, s, kind);
  if (m.empty()) return;
  if (c.severity == Severity::kError)
    error = Error{std::string(c.field) + ": " + m};
  else
    warnings->push_back(std::move(m));
}

}  // namespace

std::vector<Contradiction> Contradictions() {
  std::vector<Contradiction> all(std::begin(kServeRows), std::end(kServeRows));
  std::size_t n = 0;
  const Contradiction* train = TrainRows(n);
  all.insert(all.end(), train, train + n);
  return all;
}

std::optional<Error> CheckContradictions(const Resolved& r, const Scenario& s, unsigned kind,
                                         std::vector<std::string>* warnings) {
  std::optional<Error> error;
  std::vector<std::string> said;
  // Errors first, whichever part of the table holds them: a refused estimate says why alone.
  if (kind & kTrainChecks) {
    std::size_t n = 0;
    const Contradiction* train = TrainRows(n);
    for (std::size_t i = 0; i < n; ++i)
      if (train[i].severity == Severity::kError) Apply(train[i], r, s, kind, error, nullptr);
    if (error) return error;
  }
  for (const Contradiction& c : kServeRows) Apply(c, r, s, kind, error, warnings ? &said : nullptr);
  if (error) return error;
  if (kind & kTrainChecks) {
    std::size_t n = 0;
    const Contradiction* train = TrainRows(n);
    for (std::size_t i = 0; i < n; ++i) Apply(train[i], r, s, kind, error, warnings ? &said : nullptr);
  }
  if (warnings) warnings->insert(warnings->end(), said.begin(), said.end());
  return error;
}

}  // namespace gpuplan
