#include "gpuplan/contradictions.h"

#include <iterator>

#include "gpuplan/i18n.h"
#include "gpuplan/inference.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

using S = Severity;
using Args = ContradictionArgs;
constexpr unsigned kServe = kServeChecks, kTrain = kTrainChecks, kBoth = kServeChecks | kTrainChecks;

std::string Num(long long v) {
  return std::to_string(v);
}
std::string Gpus(long long n) {
  return FormatCountOf(n, "GPU", "GPUs");
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
bool OverWindow(const Resolved& r, const Scenario& s, Args& a) {
  if (r.model.max_context <= 0 || s.context <= r.model.max_context) return false;
  a[0] = FormatCount(s.context), a[1] = FormatCount(r.model.max_context);
  return true;
}
bool PpOverLayers(const Resolved& r, const Scenario& s, Args& a) {
  if (s.pp <= r.model.layers) return false;
  a[0] = Num(s.pp), a[1] = Num(r.model.layers);
  return true;
}
bool PpUneven(const Resolved& r, const Scenario& s, Args& a) {
  if (s.pp < 2 || s.pp > r.model.layers || r.model.layers % s.pp == 0) return false;
  a[0] = Num(r.model.layers), a[1] = Num(s.pp);
  return true;
}
bool TpHeads(const Resolved& r, const Scenario& s, Args& a, bool split) {
  if (!split || r.model.heads <= 0 || r.model.heads % s.tp == 0) return false;
  a[0] = Num(r.model.heads), a[1] = Gpus(s.tp);
  return true;
}

// Rows that serving estimates apply. The page's first frame runs these (Fit): keep them plain.
const Contradiction kServeRows[] = {
    {"prompt-over-context", "prompt", S::kWarning, kServe,
     N_("prompt: {0} tokens exceed the context of {1} (context counts prompt + output); read as {1}"),
     [](const Resolved&, const Scenario& s, Args& a) {
       if (s.prompt <= s.context) return false;
       a[0] = FormatCount(s.prompt), a[1] = FormatCount(s.context);
       return true;
     }},
    {"context-over-window", "context", S::kWarning, kServe, N_("context {0} exceeds the model's window of {1} tokens"),
     OverWindow},
    {"ep-dense", "ep", S::kWarning, kServe, N_("ep: {0} has no experts; ep has no effect"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (s.ep != 1 || r.model.moe) return false;
       a[0] = r.model.name;
       return true;
     }},
    {"ep-one-gpu", "ep", S::kWarning, kServe,
     N_("ep: one GPU per stage holds every expert; expert parallelism needs tp > 1"),
     [](const Resolved& r, const Scenario& s, Args&) { return s.ep == 1 && r.model.moe && s.tp == 1; }},
    {"ep-over-experts", "ep", S::kWarning, kServe, N_("ep: {0} for {1} experts: some GPUs hold none"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (!ExpertParallel(r, s) || s.tp <= r.model.moe->experts) return false;
       a[0] = Gpus(s.tp), a[1] = Num(r.model.moe->experts);
       return true;
     }},
    {"ep-uneven", "ep", S::kWarning, kServe,
     N_("ep: {0} experts do not divide evenly over {1} (vLLM gives the first GPUs one more): the largest share is "
        "counted"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (!ExpertParallel(r, s) || s.tp > r.model.moe->experts || r.model.moe->experts % s.tp == 0) return false;
       a[0] = Num(r.model.moe->experts), a[1] = Gpus(s.tp);
       return true;
     }},
    {"pp-over-layers", "pp", S::kWarning, kBoth, N_("pp: {0} stages for {1} layers leaves stages empty"), PpOverLayers},
    {"pp-uneven", "pp", S::kWarning, kBoth,
     N_("pp: {0} layers do not divide evenly into {1} stages; the largest stage sets memory and speed"), PpUneven},
    {"tp-heads", "tp", S::kWarning, kServe,
     N_("{0} attention heads do not divide evenly over {1}; vLLM, SGLang and Megatron-LM refuse this"),
     [](const Resolved& r, const Scenario& s, Args& a) { return TpHeads(r, s, a, TensorSplit(r, s)); }},
    {"mla-kv-tp", "tp", S::kWarning, kServe,
     N_("MLA's latent KV cache cannot be split by heads: every GPU holds all of it"),
     [](const Resolved& r, const Scenario& s, Args&) { return r.model.mla && TensorSplit(r, s); }},
    {"kv-heads-replicated", "tp", S::kWarning, kServe, N_("{0} > {1} KV heads: KV heads are replicated, one per GPU"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (r.model.mla || r.model.kv_heads <= 0 || r.model.kv_heads >= s.tp || !TensorSplit(r, s)) return false;
       a[0] = Gpus(s.tp), a[1] = Num(r.model.kv_heads);
       return true;
     }},
    {"kv-heads-uneven", "tp", S::kWarning, kServe,
     N_("{0} KV heads do not divide evenly over {1}; engines such as vLLM refuse this"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (r.model.mla || s.tp < 2 || r.model.kv_heads < s.tp || r.model.kv_heads % s.tp == 0 || !TensorSplit(r, s))
         return false;
       a[0] = Num(r.model.kv_heads), a[1] = Gpus(s.tp);
       return true;
     }},
    {"gpu-layers-engine", "gpu-layers", S::kWarning, kServe,
     N_("partial offload is modelled the llama.cpp way (-ngl); {0} offloads differently, if at all"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (LayersOnGpu(r.model, s) >= r.model.layers || r.engine.layer_offload) return false;
       a[0] = r.engine.name;
       return true;
     }},
    {"mem-util-no-cap", "mem-util", S::kWarning, kServe, N_("mem-util has no effect with {0}"),
     [](const Resolved& r, const Scenario& s, Args& a) {
       if (!(s.mem_util > 0) || r.engine.memory_cap != MemoryCap::kNone) return false;
       a[0] = r.engine.name;
       return true;
     }},
    {"fp8-weights-no-fp8", "weights", S::kWarning, kServe,
     N_("{0} has no FP8 tensor cores in the catalog: FP8 weights are kept in 8 bits and multiplied in 16 bits "
        "(weight-only, as vLLM's Marlin kernels do)"),
     [](const Resolved& r, const Scenario&, Args& a) {
       if (r.weights.id.rfind("fp8", 0) != 0 || HasFp8(r.gpu)) return false;
       a[0] = r.gpu.name;
       return true;
     }},
    {"fp8-kv-no-fp8", "kv", S::kWarning, kServe,
     N_("{0} has no FP8 tensor cores in the catalog: an FP8 KV cache saves memory, but attention converts it to 16 "
        "bits"),
     [](const Resolved& r, const Scenario&, Args& a) {
       if (r.kv.id.rfind("fp8", 0) != 0 || HasFp8(r.gpu)) return false;
       a[0] = r.gpu.name;
       return true;
     }},
};

// Rows that training applies (the Train panel's: their code is deferred on the page).
const Contradiction* TrainRows(std::size_t& count) {
  static const Contradiction rows[] = {
      {"gpus-limit", "scenario", S::kError, kTrain, N_("tp × pp × dp × cp = {0} GPUs; at most {1}"),
       [](const Resolved&, const Scenario& s, Args& a) {
         // Each field's limit is wide, but their product is not bounded by them (4096 × 64 × 65536
         // = 2^34): past int's range the GPU count would wrap. 2^24 is far beyond any cluster built.
         constexpr long long kMaxGpus = 16777216;
         if (s.TrainingGpus() <= kMaxGpus) return false;
         a[0] = Num(s.TrainingGpus()), a[1] = Num(kMaxGpus);
         return true;
       }},
      {"offload-param-zero", "offload", S::kError, kTrain,
       N_("offload 2 moves parameters to the CPU, which DeepSpeed does only with ZeRO-3 (offload_param) and FSDP "
          "only when fully sharded: set zero 3"),
       [](const Resolved&, const Scenario& s, Args&) { return s.offload >= 2 && s.zero < 3; }},
      {"offload-optimizer-zero", "offload", S::kWarning, kTrain,
       N_("offload 1 moves the optimizer states to the CPU, which DeepSpeed does from ZeRO-1 on "
          "(offload_optimizer): set zero 1 or more"),
       // One GPU offloads without ZeRO (torchtune's single-device recipes with torchao's
       // CPUOffloadOptimizer, offload_gradients=True): the rule is DeepSpeed's, for dp × cp > 1.
       [](const Resolved&, const Scenario& s, Args&) {
         return s.offload == 1 && s.zero == 0 && static_cast<long long>(s.dp) * s.cp > 1;
       }},
      {"zero-one-gpu", "zero", S::kWarning, kTrain,
       N_("ZeRO-{0} shards over the data-parallel GPUs; with dp × cp = 1 it saves nothing"),
       [](const Resolved&, const Scenario& s, Args& a) {
         if (s.zero == 0 || s.offload != 0 || static_cast<long long>(s.dp) * s.cp > 1) return false;
         a[0] = Num(s.zero);
         return true;
       }},
      {"shard-group-over-dp", "shard-group", S::kWarning, kTrain,
       N_("shard-group {0} is more than dp {1}: one shard group of every data-parallel GPU"),
       [](const Resolved&, const Scenario& s, Args& a) {
         if (s.shard_group <= s.dp) return false;
         a[0] = Num(s.shard_group), a[1] = Num(s.dp);
         return true;
       }},
      {"shard-group-uneven", "shard-group", S::kWarning, kTrain, N_("dp {0} is not a multiple of shard-group {1}"),
       [](const Resolved&, const Scenario& s, Args& a) {
         if (s.shard_group <= 0 || s.shard_group >= s.dp || s.dp % s.shard_group == 0) return false;
         a[0] = Num(s.dp), a[1] = Num(s.shard_group);
         return true;
       }},
      {"moe-ep-dense", "moe-ep", S::kWarning, kTrain, N_("moe-ep applies to mixture-of-experts models; {0} is dense"),
       [](const Resolved& r, const Scenario& s, Args& a) {
         if (s.moe_ep < 2 || r.model.moe) return false;
         a[0] = r.model.name;
         return true;
       }},
      {"moe-ep-lora", "moe-ep", S::kWarning, kTrain,
       N_("moe-ep is not modelled for LoRA: the adapters are counted as if replicated"),
       [](const Resolved&, const Scenario& s, Args&) { return s.moe_ep > 1 && Lora(s); }},
      {"moe-ep-over-gpus", "moe-ep", S::kError, kTrain,
       N_("moe-ep {0} is more than the tp × dp × cp = {1} GPUs its groups can be carved from (Megatron-LM: the "
          "data-parallel GPUs, and the tensor-parallel ones with MoE parallel folding)"),
       [](const Resolved& r, const Scenario& s, Args& a) {
         const long long gpus = static_cast<long long>(s.tp) * s.dp * s.cp;
         if (!r.model.moe || Lora(s) || s.moe_ep <= gpus) return false;
         a[0] = Num(s.moe_ep), a[1] = Num(gpus);
         return true;
       }},
      {"moe-ep-uneven", "moe-ep", S::kWarning, kTrain,
       N_("moe-ep {0} does not divide dp × cp = {1}: expert-parallel groups are carved out of the data-parallel "
          "GPUs"),
       [](const Resolved& r, const Scenario& s, Args& a) {
         const long long dp_cp = static_cast<long long>(s.dp) * s.cp;
         if (!r.model.moe || Lora(s) || s.moe_ep < 2 || dp_cp % s.moe_ep == 0) return false;
         a[0] = Num(s.moe_ep), a[1] = Num(dp_cp);
         return true;
       }},
      {"moe-ep-experts", "moe-ep", S::kError, kTrain,
       N_("moe-ep {0} does not divide the {1} experts; Megatron-LM refuses this (num_experts % "
          "expert_model_parallel_size)"),
       [](const Resolved& r, const Scenario& s, Args& a) {
         if (!r.model.moe || Lora(s) || s.moe_ep < 2 || r.model.moe->experts % s.moe_ep == 0) return false;
         a[0] = Num(s.moe_ep), a[1] = Num(r.model.moe->experts);
         return true;
       }},
      {"paged-offload", "paged", S::kWarning, kTrain, N_("paged has no effect with the optimizer offloaded to the CPU"),
       [](const Resolved&, const Scenario& s, Args&) { return s.paged && s.offload >= 1; }},
      {"kbit-prep-no-kbit", "kbit-prep", S::kWarning, kTrain,
       N_("kbit-prep applies to a QLoRA or LLM.int8() base; this run has no k-bit weights"),
       [](const Resolved& r, const Scenario& s, Args&) {
         return s.kbit_prep && !(s.method == "qlora" || (s.method == "lora" && r.weights.bits_per_weight < 16));
       }},
      {"train-embed-full", "train-embed", S::kWarning, kTrain,
       N_("train-embed applies to LoRA; full training trains every weight"),
       [](const Resolved&, const Scenario& s, Args&) { return s.train_embed && !Lora(s); }},
      {"lora-options-full", "lora-rank", S::kWarning, kTrain,
       N_("lora-rank, lora-targets and lora-layers apply to LoRA and QLoRA; full training trains every weight"),
       [](const Resolved&, const Scenario& s, Args&) {
         const Scenario d;
         return !Lora(s) &&
                (s.lora_rank != d.lora_rank || s.lora_targets != d.lora_targets || s.lora_layers != d.lora_layers);
       }},
      {"full-weights-format", "weights", S::kWarning, kTrain,
       N_("full training holds BF16 weights; the weights field ({0}) applies to inference and LoRA"),
       [](const Resolved&, const Scenario& s, Args& a) {
         if (Lora(s) || s.weights == "bf16" || s.weights == "fp16") return false;
         a[0] = s.weights;
         return true;
       }},
      {"lora-zero12", "zero", S::kWarning, kTrain,
       N_("ZeRO-1/2 shard only the adapters' states with LoRA; the frozen base is replicated (ZeRO-3/FSDP shards it)"),
       [](const Resolved&, const Scenario& s, Args&) { return Lora(s) && s.zero > 0 && s.zero < 3; }},
      {"precision-fp8-no-fp8", "precision", S::kWarning, kTrain,
       N_("{0} has no FP8 tensor cores in the catalog: trained in BF16 instead (precision fp8 needs Hopper, Ada, "
          "Blackwell or MI300-class GPUs)"),
       [](const Resolved& r, const Scenario& s, Args& a) {
         if (s.precision != "fp8" || HasFp8(r.gpu)) return false;
         a[0] = r.gpu.name;
         return true;
       }},
      {"act-offload-no-recompute", "act-offload", S::kWarning, kTrain,
       N_("activation offloading without recomputation moves every activation over PCIe twice a step; torchtune and "
          "Unsloth offload the checkpoints of recomputed layers (recompute=full)"),
       [](const Resolved&, const Scenario& s, Args&) { return s.act_offload && s.recompute == "none"; }},
      {"kernels-fused-plain-mlp", "kernels", S::kWarning, kTrain,
       N_("kernels: a plain (GPT-style) MLP is counted as Korthikanti et al. do, eager or fused"),
       [](const Resolved& r, const Scenario& s, Args&) { return s.kernels == "fused" && !r.model.gated_mlp; }},
      {"vp-without-pp", "vp", S::kWarning, kTrain, N_("vp {0} interleaves pipeline stages; with pp 1 it has no effect"),
       [](const Resolved&, const Scenario& s, Args& a) {
         if (s.vp < 2 || s.pp > 1) return false;
         a[0] = Num(s.vp);
         return true;
       }},
      {"cp-context", "cp", S::kWarning, kTrain,
       N_("context {0} is not a multiple of 2 × cp = {1}; Megatron-LM's context parallelism needs it"),
       [](const Resolved&, const Scenario& s, Args& a) {
         if (s.cp < 2 || s.context % (2LL * s.cp) == 0) return false;
         a[0] = FormatCount(s.context), a[1] = Num(2LL * s.cp);
         return true;
       }},
      {"global-batch-small", "global-batch", S::kWarning, kTrain,
       N_("global batch {0} is smaller than dp × micro-batch = {1} sequences: one micro-step per step"),
       [](const Resolved&, const Scenario& s, Args& a) {
         const long long micro = static_cast<long long>(s.dp) * s.micro_batch;
         if (s.global_batch <= 0 || s.global_batch >= micro) return false;
         a[0] = FormatCount(s.global_batch), a[1] = Num(micro);
         return true;
       }},
      {"global-batch-rounded", "global-batch", S::kWarning, kTrain,
       N_("global batch rounded up to {0} sequences (a whole number of micro-steps)"),
       [](const Resolved&, const Scenario& s, Args& a) {
         const long long micro = static_cast<long long>(s.dp) * s.micro_batch;
         if (micro <= 0 || s.global_batch < micro || s.global_batch % micro == 0) return false;
         a[0] = Num((s.global_batch / micro + 1) * micro);
         return true;
       }},
      {"sequence-over-window", "context", S::kWarning, kTrain, N_("sequence {0} exceeds the model's window of {1}"),
       OverWindow},
      {"tp-heads-train", "tp", S::kWarning, kTrain,
       N_("{0} attention heads do not divide evenly over {1}; vLLM, SGLang and Megatron-LM refuse this"),
       [](const Resolved& r, const Scenario& s, Args& a) { return TpHeads(r, s, a, s.tp > 1); }},
  };
  count = std::size(rows);
  return rows;
}

void Apply(const Contradiction& c, const Resolved& r, const Scenario& s, unsigned kind, std::optional<Error>& error,
           std::vector<std::string>* warnings) {
  if (!(c.kinds & kind) || error || (c.severity == Severity::kWarning && !warnings)) return;
  std::string m = ContradictionMessage(c, r, s);
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

std::string ContradictionMessage(const Contradiction& c, const Resolved& r, const Scenario& s) {
  Args a;
  return c.applies(r, s, a) ? TrF(c.text, {a[0], a[1], a[2]}) : std::string();
}

std::optional<Error> CheckContradictions(const Resolved& r, const Scenario& s, unsigned kind,
                                         std::vector<std::string>* warnings) {
  std::optional<Error> error;
  std::vector<std::string> said;
  std::size_t n = 0;
  const Contradiction* train = kind & kTrainChecks ? TrainRows(n) : nullptr;
  // Errors first, whichever part of the table holds them: a refused estimate says why alone.
  for (std::size_t i = 0; i < n; ++i)
    if (train[i].severity == Severity::kError) Apply(train[i], r, s, kind, error, nullptr);
  for (const Contradiction& c : kServeRows) Apply(c, r, s, kind, error, warnings ? &said : nullptr);
  for (std::size_t i = 0; i < n && !error; ++i) Apply(train[i], r, s, kind, error, warnings ? &said : nullptr);
  if (warnings && !error) warnings->insert(warnings->end(), said.begin(), said.end());
  return error;
}

}  // namespace gpuplan
