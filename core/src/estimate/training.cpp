#include "gpuplan/training.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/capacity.h"
#include "gpuplan/cost.h"
#include "gpuplan/model.h"
#include "gpuplan/speed.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

std::string Per(double v) {
  return FormatFixed(v, v == std::floor(v) ? 0 : 2);
}

// Optimizer state bytes per trainable parameter (besides the FP32 master copy):
// AdamW two FP32 moments (8, ZeRO paper's K = 12 with the master); 8-bit Adam two 1-byte
// moments with block scales (~2, Dettmers et al. 2022); SGD with momentum and Lion one FP32
// buffer (4); Adafactor's factored second moment (row + column sums) and no first moment by
// default: about nothing per parameter (Shazeer & Stern 2018) — counted as 0.
double OptimizerBytes(const std::string& opt) {
  if (opt == "adamw") return 8;
  if (opt == "adamw-8bit") return 2;
  if (opt == "sgd" || opt == "lion") return 4;
  return 0;  // adafactor
}

// Parameters one LoRA adapter set adds: r × (in + out) for each adapted linear layer
// (Hu et al. 2021). Targets as PEFT names them: "all-linear" (every linear layer of attention
// and MLP, as QLoRA does; in a MoE layer each expert's projections and the shared ones),
// "attention" (q, k, v, o), "qv" (the original paper's choice). `layers` adapted layers.
double LoraParams(const Model& m, int rank, const std::string& targets, double layers) {
  const double h = m.hidden, q = static_cast<double>(m.heads) * m.head_dim,
               kv = static_cast<double>(m.kv_heads) * m.head_dim;
  if (targets == "qv") return rank * ((h + q) + (h + kv)) * layers;
  double per_layer = (h + q) + 2 * (h + kv) + (q + h);  // q, k, v, o
  if (targets == "all-linear") {
    const double mats = m.gated_mlp ? 3 : 2;  // gate/up/down or up/down
    if (m.moe) {
      const double experts = static_cast<double>(m.moe->experts) + m.moe->shared_experts;
      per_layer += mats * experts * (h + m.moe->expert_intermediate);
      if (m.moe->shared_intermediate > 0) per_layer += mats * (h + m.moe->shared_intermediate);
    } else {
      per_layer += mats * (h + m.intermediate);
    }
  }
  return rank * per_layer * layers;
}

// The slowest link of a ring that spans `gpus` GPUs (speed.h's CollectiveLink: NVLink or PCIe
// within a node, InfiniBand NDR or 100 GbE across), bytes per second in one direction.
double RingLink(const Catalog& catalog, const Gpu& gpu, double gpus) {
  std::vector<std::string> ignored;  // the training estimate states its own topology
  return CollectiveLink(catalog, gpu, static_cast<int>(std::min(gpus, 1e9)), ignored).bytes_per_s;
}

}  // namespace

Result<TrainEstimate> EstimateTraining(const Catalog& catalog, const Scenario& s) {
  Result<Resolved> r = Resolve(catalog, s);
  if (!r) return Error{r.error()};
  return EstimateTraining(*r, s);
}

Result<TrainEstimate> EstimateTraining(const Resolved& r, const Scenario& s) {
  const Catalog& catalog = r.catalog;
  const Model& model = r.model;
  const Gpu& gpu = r.gpu;
  if (s.tp < 1 || s.pp < 1 || s.dp < 1 || s.micro_batch < 1 || s.context < 1 || model.layers < 1)
    return Error{"scenario: tp, pp, dp, micro-batch and context must be >= 1"};

  TrainEstimate e;
  const double tp = s.tp, pp = std::max(1, s.pp), dp = s.dp;
  // Each field's limit is wide, but their product is not bounded by them (4096 × 64 × 65536 =
  // 2^34): past int's range the cast below is undefined and made the GPU count, every time and
  // every cost negative. 2^24 GPUs is far beyond any cluster built.
  constexpr double kMaxGpus = 16777216;
  if (tp * pp * dp > kMaxGpus)
    return Error{"scenario: tp × pp × dp = " + Per(tp * pp * dp) + " GPUs; at most " + Per(kMaxGpus)};
  e.gpus = static_cast<int>(tp * pp * dp);
  const ParamCount params = CountParams(model);
  e.total_params = params.total;
  const bool lora = s.method == "lora" || s.method == "qlora";
  const bool qlora = s.method == "qlora";
  const double layers = model.layers;
  const double adapted_layers = s.lora_layers > 0 ? std::min<double>(s.lora_layers, layers) : layers;
  e.trainable_params = lora ? LoraParams(model, s.lora_rank, s.lora_targets, adapted_layers) : params.total;
  const double model_split = tp * pp;  // tensor and pipeline parallelism split every tensor

  // --- Model states (ZeRO paper, Rajbhandari et al. 2019, §3: 2Ψ BF16 weights + 2Ψ gradients
  //     + KΨ optimizer, K = 12 for mixed-precision Adam: 4 FP32 master + 4 + 4 moments; ZeRO-1
  //     shards the K part over the data-parallel degree N, ZeRO-2 the gradients too, ZeRO-3 the
  //     weights too.)
  // The frozen base of LoRA is stored in the weights format (BF16, or 8-bit as with
  // LLM.int8()); QLoRA's in NF4 with or without double quantization (Dettmers et al. 2023,
  // §2: 4.127 bits per weight with, 4.5 without), nf4-dq unless weights names a 4-bit bnb format.
  double base_weight_bytes = 2;
  std::string base_label = "BF16";
  if (lora) {
    std::string base_id = s.weights;
    if (qlora && base_id.rfind("nf4", 0) != 0 && base_id.rfind("fp4-bnb", 0) != 0) base_id = "nf4-dq";
    const WeightFormat* base = base_id == r.weights.id ? &r.weights : catalog.FindWeightFormat(base_id);
    if (!base) return Error{"weights: unknown weight format '" + base_id + "' for the frozen base"};
    base_weight_bytes = base->bits_per_weight / 8;
    base_label = base->name;
  }
  const double zero = s.zero;
  // Hybrid sharding (FSDP HYBRID_SHARD, DeepSpeed ZeRO++ hpZ, "HSDP"): states are sharded within
  // a group of shard-group GPUs and replicated across groups.
  const bool hybrid = s.shard_group > 0 && s.shard_group < s.dp;
  const double shard_dp = hybrid ? s.shard_group : dp;
  const std::string shard_label = hybrid ? " (hybrid shard groups of " + Per(shard_dp) + ")" : "";
  auto shard = [&](int from_stage) { return zero >= from_stage ? shard_dp : 1.0; };
  const double frozen = lora ? params.total : 0;
  const double trainable = e.trainable_params;
  const double weights =
      (frozen * base_weight_bytes + trainable * 2) / model_split / shard(3) * (s.offload >= 2 ? 0 : 1);
  // Optimizer-in-backward (torchtune's optimizer_in_bwd) frees each gradient as soon as its
  // parameter is updated: about one layer's gradients are alive at a time.
  const double layer_trainable = trainable / (lora ? adapted_layers : layers);
  const double grads = (s.opt_in_bwd ? layer_trainable : trainable) * 2 / model_split / shard(2);
  // Pure BF16 training keeps no FP32 master and its optimizer states in BF16 (half the bytes).
  const bool pure = s.master == 0;
  const double master = pure ? 0 : trainable * 4 / model_split / shard(1);
  const double optim = trainable * OptimizerBytes(s.optimizer) * (pure ? 0.5 : 1) / model_split / shard(1);
  const bool opt_offload = s.offload >= 1;
  e.terms.push_back({"weights", "Weights",
                     (lora ? FormatParams(frozen) + " frozen × " + Per(base_weight_bytes) + " B (" + base_label +
                                 ") + " + FormatParams(trainable) + " LoRA × 2 B"
                           : FormatParams(trainable) + " × 2 B (BF16)") +
                         " / " + Per(model_split) + " (TP × PP)" +
                         (zero >= 3 ? " / " + Per(shard_dp) + " (ZeRO-3 / FSDP)" + shard_label : "") +
                         (s.offload >= 2 ? "; offloaded to CPU" : ""),
                     weights});
  e.terms.push_back({"gradients", "Gradients",
                     (s.opt_in_bwd ? "one layer's " + FormatParams(layer_trainable) + " (optimizer in backward)"
                                   : FormatParams(trainable) + " trainable") +
                         " × 2 B / " + Per(model_split) +
                         (zero >= 2 ? " / " + Per(shard_dp) + " (ZeRO-2)" + shard_label : ""),
                     grads});
  e.terms.push_back({"master", "FP32 master weights",
                     pure ? std::string("none: pure BF16 training (master = 0)")
                          : FormatParams(trainable) + " × 4 B / " + Per(model_split) +
                                (zero >= 1 ? " / " + Per(shard_dp) + " (ZeRO-1)" + shard_label : "") +
                                (opt_offload ? "; offloaded to CPU" : ""),
                     opt_offload ? 0 : master});
  e.terms.push_back({"optimizer", "Optimizer states",
                     FormatParams(trainable) + " × " + Per(OptimizerBytes(s.optimizer) * (pure ? 0.5 : 1)) + " B (" +
                         s.optimizer + (pure ? ", BF16 states" : "") + ") / " + Per(model_split) +
                         (zero >= 1 ? " / " + Per(shard_dp) + " (ZeRO-1)" + shard_label : "") +
                         (opt_offload ? "; offloaded to CPU" : ""),
                     opt_offload ? 0 : optim});
  e.host_bytes = (opt_offload ? master + optim : 0) +
                 (s.offload >= 2 ? (frozen * base_weight_bytes + trainable * 2) / model_split / shard(3) : 0);

  // --- Activations (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
  //     Transformer Models", eq. 1-5): per layer and micro-batch, with tensor and sequence
  //     parallelism over t GPUs, s·b·h·(34 + 5·a·s/h)/t bytes in 16-bit: attention 11sbh +
  //     5as²b, MLP 19sbh, norms 4sbh. The MLP term is written for any width I as (3 + 4I/h)sbh,
  //     and (3 + 6I/h)sbh for gated MLPs (two projections and the product kept). Flash/SDPA
  //     attention or selective recomputation drop the 5as²b score tensors; full recomputation
  //     keeps only each layer's 2sbh input. Without sequence parallelism 10sbh of it (norm and
  //     dropout tensors, eq. 2) is not split over TP. The first pipeline stage holds pp
  //     micro-batches of its L/pp layers (1F1B schedule, §4.2.3): L layers' worth in all. LoRA
  //     restricted to the last layers stores nothing below the first adapted one: no gradient
  //     flows there.
  const double sq = static_cast<double>(s.context), b = static_cast<double>(s.micro_batch), h = model.hidden;
  const double a = model.heads;
  const double ffn = model.moe ? static_cast<double>(model.moe->experts_per_token) * model.moe->expert_intermediate +
                                     model.moe->shared_intermediate +
                                     static_cast<double>(model.moe->shared_experts) * model.moe->expert_intermediate
                               : model.intermediate;
  const double mlp_coeff = 3 + (model.gated_mlp ? 6 : 4) * ffn / h;
  const bool scores = !s.flash && s.recompute == "none";
  double per_layer_coeff = 11 + mlp_coeff + 4;  // × s·b·h
  std::string act_formula;
  double per_layer = 0;
  const bool split_all = s.sp != 0 || tp == 1;
  if (s.recompute == "full") {
    per_layer = 2 * sq * b * h / (split_all ? tp : 1);
    act_formula =
        "full recomputation: 2·s·b·h per layer (its input)" + std::string(split_all ? "" : ", not split without SP");
  } else {
    constexpr double kUnsplit = 10;  // norms, dropout masks and the two block inputs (eq. 2)
    per_layer = sq * b * h * (split_all ? per_layer_coeff / tp : kUnsplit + (per_layer_coeff - kUnsplit) / tp) +
                (scores ? 5 * a * sq * sq * b / tp : 0);
    act_formula = split_all ? "s·b·h·" + FormatFixed(per_layer_coeff, 1) + (scores ? " + 5·a·s²·b" : "") +
                                  " per layer / TP " + Per(tp)
                            : "s·b·h·(10 + " + FormatFixed(per_layer_coeff - kUnsplit, 1) + "/TP)" +
                                  (scores ? " + 5·a·s²·b/TP" : "") + " per layer, TP " + Per(tp) + " without SP";
    act_formula += scores ? "" : (s.flash ? " (flash attention: no score tensors)" : " (selective recomputation)");
  }
  const double stored_layers = lora ? adapted_layers : layers;
  const double activations = per_layer * stored_layers;  // L/pp layers × pp micro-batches in flight
  e.terms.push_back({"activations", "Activations",
                     act_formula + "; s " + FormatCount(s.context) + ", b " + FormatCount(s.micro_batch) + ", h " +
                         FormatCount(model.hidden) + " × " + Per(stored_layers) + " layers" +
                         (pp > 1 ? " (first stage: " + Per(pp) + " micro-batches of L/" + Per(pp) + " layers)" : ""),
                     activations});
  // FP32 logits and their gradient for the micro-batch (the largest single tensor for
  // big vocabularies): s·b·V·4 bytes, split over TP (vocab-parallel).
  const double logits = sq * b * model.vocab * 4 * 2 / tp;
  e.terms.push_back({"logits", "Logits (FP32) and their gradient",
                     "2 × s·b·V·4 B / TP = " + FormatCount(s.context) + " × " + FormatCount(s.micro_batch) + " × " +
                         FormatCount(model.vocab) + " × 8 B / " + Per(tp),
                     logits});
  // Temporary buffers: ZeRO-3/FSDP gathers one layer's full weights (and prefetches the next);
  // gradient bucketing keeps about one layer's gradients in flight.
  const double layer_bytes = (params.total - params.embedding) / model.layers * 2 / tp;
  const double buffers = (zero >= 3 ? 2 : 1) * layer_bytes;
  e.terms.push_back({"buffers", "Temporary buffers",
                     (zero >= 3 ? "2 gathered layers (ZeRO-3 prefetch)" : "one layer's gradient bucket") +
                         std::string(" × ") + FormatBytes(layer_bytes),
                     buffers});
  e.terms.push_back({"overhead", "Runtime overhead", FormatFixed(s.overhead_gib, 2) + " GiB (CUDA context, allocator)",
                     s.overhead_gib * kGiB});
  for (const Term& t : e.terms) e.total_bytes += t.bytes;
  Result<DeviceMemory> device = EstimateDeviceMemory(gpu, s);
  if (!device) return Error{device.error()};
  e.device = std::move(device).value();
  e.capacity_bytes = e.device.free_bytes;
  e.warnings.insert(e.warnings.end(), e.device.warnings.begin(), e.device.warnings.end());
  e.headroom_bytes = e.capacity_bytes - e.total_bytes;
  e.fits = e.headroom_bytes >= 0;
  const double per_sequence = (activations + logits) / b;
  const double fixed = e.total_bytes - activations - logits;
  e.max_micro_batch =
      fixed < e.capacity_bytes && per_sequence > 0
          ? static_cast<long long>(std::min(65536.0, std::floor((e.capacity_bytes - fixed) / per_sequence)))
          : 0;
  if (!e.fits) {
    if (zero < 3 && !lora && dp > 1) e.suggestions.push_back("shard more: ZeRO-" + std::to_string(s.zero + 1));
    if (zero == 0 && dp == 1 && !lora) e.suggestions.push_back("add data-parallel GPUs and shard with ZeRO (dp > 1)");
    if (s.recompute != "full") e.suggestions.push_back("recompute activations (recompute=full)");
    if (e.max_micro_batch == 0 && s.micro_batch > 1) e.suggestions.push_back("a smaller micro-batch");
    if (s.offload == 0) e.suggestions.push_back("offload the optimizer to CPU (offload=1)");
    if (!lora) e.suggestions.push_back("fine-tune with LoRA or QLoRA instead of all weights");
    if (s.method == "lora") e.suggestions.push_back("QLoRA: the frozen base in NF4");
    e.suggestions.push_back("more tensor or pipeline parallelism (tp, pp)");
  }

  // --- Time. Training FLOPs per token: 6N (2N forward, 4N backward; Kaplan et al. 2020) plus
  //     attention 12·L·H·Q·T (PaLM, Chowdhery et al. 2022, Appendix B: the MFU definition), with full
  //     recomputation one more forward (8N, Narayanan et al. 2021 eq. 3); LoRA skips the frozen
  //     weights' gradient: 2N forward + 2N input gradients through the adapted layers + 6 × the
  //     adapter parameters (no backward at all below the first adapted layer).
  const double n_active = params.active;
  const double attn = 12.0 * model.layers * static_cast<double>(model.heads) * model.head_dim * sq;
  const double recompute_factor = s.recompute == "full" ? 4.0 / 3 : 1;
  if (lora) {
    const double backward_share = adapted_layers / layers;
    e.flops_per_token =
        (2 * n_active * (1 + backward_share) + 6 * trainable + attn * (1 + 2 * backward_share) / 3) * recompute_factor;
    e.flops_formula = "(2N forward + 2N × " + FormatFixed(backward_share, 2) + " input gradients + 6 × " +
                      FormatParams(trainable) + " adapter + attention)";
  } else {
    e.flops_per_token = (6 * n_active + attn) * recompute_factor;
    e.flops_formula = "6 × " + FormatParams(n_active) + " active params + attention";
  }
  if (s.recompute == "full") e.flops_formula += " × 4/3 (full recomputation: another forward)";
  const auto peak_it = gpu.dense_flops.find("bf16");
  const double peak = peak_it != gpu.dense_flops.end() ? peak_it->second
                      : gpu.dense_flops.count("fp16")  ? gpu.dense_flops.at("fp16")
                                                        : 0;
  // Without a 16-bit compute figure the memory stands and the time cannot be estimated.
  const bool no_peak = !(peak > 0);
  if (no_peak) {
    const std::string why = gpu.name + " has no BF16/FP16 dense throughput in the catalog, so training time cannot be estimated";
    for (const char* k : {"tokens_per_s", "seconds", "days", "gpu_hours", "step", "cloud_usd", "spot_usd", "energy_kwh",
                          "energy_usd", "scaling"})
      e.unknown.emplace(k, why);
  }
  // One optimizer step of the global batch: each data-parallel replica runs `accumulation`
  // micro-steps (global batch / (dp × micro-batch), rounded up). Collectives on a ring of n GPUs
  // send (n-1)/n of the buffer per GPU per reduce-scatter or all-gather (ZeRO paper §7):
  //   ZeRO-0/1: one all-reduce of the 2Ψ gradients per step, during the last micro-step's
  //             backward (DDP's no_sync accumulates locally);
  //   ZeRO-2:   a reduce-scatter of the gradients in every micro-step's backward, and an
  //             all-gather of the updated 2Ψ weights per step;
  //   ZeRO-3:   every micro-step all-gathers the weights for forward and again for backward and
  //             reduce-scatters the gradients (3 × 2Ψ; the frozen base too, for LoRA).
  // With hybrid sharding those run inside a group of g GPUs, and the group's 1/g gradient shard
  // is all-reduced between groups. 80% of a collective hides under the compute it overlaps
  // (the backward pass; forward and backward for ZeRO-3's gathers; stated assumption).
  constexpr double kOverlap = 0.8;
  const double micro_seqs = dp * b;
  const double wanted = s.global_batch > 0 ? static_cast<double>(s.global_batch) : micro_seqs * 8;
  double accumulation = std::ceil(wanted / micro_seqs - 1e-9);
  if (accumulation < 1) {
    accumulation = 1;
    e.warnings.push_back("global batch " + FormatCount(s.global_batch) + " is smaller than dp × micro-batch = " +
                         Per(micro_seqs) + " sequences: one micro-step per step");
  } else if (s.global_batch > 0 && accumulation * micro_seqs != wanted) {
    e.warnings.push_back("global batch rounded up to " + Per(accumulation * micro_seqs) +
                         " sequences (a whole number of micro-steps)");
  }
  e.accumulation_steps = accumulation;
  e.global_batch_tokens = accumulation * micro_seqs * sq;
  const double replica_gpus = tp * pp;
  const double ideal_s = no_peak ? 0 : e.global_batch_tokens * e.flops_per_token / (e.gpus * peak * s.mfu);
  e.step_compute_s = ideal_s;
  // Pipeline bubble (1F1B): (p - 1) / m of the step idles with m micro-batches per step
  // (Narayanan et al. 2021, §2.2.1).
  if (pp > 1) e.step_compute_s *= 1 + (pp - 1) / accumulation;
  const double grad_bytes = trainable * 2 / replica_gpus;
  const double gather_bytes = (frozen * base_weight_bytes + trainable * 2) / replica_gpus;
  const double ring = hybrid ? shard_dp : dp;  // GPUs on the sharded ring
  const double share = (ring - 1) / ring;
  const double ring_link = RingLink(catalog, gpu, (hybrid ? shard_dp : dp) * replica_gpus);
  double per_micro = 0, per_step = 0;  // bytes per GPU
  if (zero >= 3)
    per_micro = share * (2 * gather_bytes + grad_bytes);
  else if (zero == 2)
    per_micro = share * grad_bytes, per_step = share * trainable * 2 / replica_gpus;
  else
    per_step = 2 * share * grad_bytes;
  double micro_comm = dp > 1 ? per_micro / ring_link : 0, step_comm = dp > 1 ? per_step / ring_link : 0;
  if (hybrid) {
    const double groups = dp / shard_dp;
    const double across = 2 * (groups - 1) / groups * grad_bytes / shard_dp / RingLink(catalog, gpu, e.gpus);
    (zero >= 2 ? micro_comm : step_comm) += across;
  }
  const double micro_compute = e.step_compute_s / accumulation;
  const double micro_window = micro_compute * (zero >= 3 ? 1.0 : 2.0 / 3);
  e.step_comm_s = accumulation * std::max(0.0, micro_comm - kOverlap * micro_window) +
                  std::max(0.0, step_comm - kOverlap * micro_compute * 2 / 3);
  e.step_s = e.step_compute_s + e.step_comm_s;
  e.scaling_efficiency = e.step_s > 0 ? ideal_s / e.step_s : 1;
  e.tokens_per_s = e.step_s > 0 ? e.global_batch_tokens / e.step_s : 0;
  e.seconds = e.tokens_per_s > 0 ? s.tokens / e.tokens_per_s : 0;
  e.gpu_hours = e.seconds / 3600 * e.gpus;
  e.chinchilla_tokens = 20 * params.total;

  // --- Cost: GPU-hours at the cheapest catalog offer (or price-hour); spot adds spot-overhead
  //     (10% by default) for restarts from checkpoints; energy at TDP × PUE.
  std::string basis;
  const double hour = s.price_hour > 0 ? s.price_hour : CheapestGpuHour(catalog, s.gpu, false, &basis);
  const double spot = CheapestGpuHour(catalog, s.gpu, true, nullptr);
  e.price_basis = s.price_hour > 0 ? "given price per GPU-hour" : basis;
  e.cloud_usd = hour * e.gpu_hours;
  e.spot_usd = spot * e.gpu_hours * (1 + s.spot_overhead);
  e.energy_kwh = gpu.tdp_w / 1000 * e.gpu_hours * s.pue;
  e.energy_usd = e.energy_kwh * s.kwh_usd;
  if (!(hour > 0)) e.unknown.emplace("cloud_usd", "no cloud offer for this GPU in the catalog: set price-hour");
  if (!(spot > 0)) e.unknown.emplace("spot_usd", "no spot offer for this GPU in the catalog");
  if (!(gpu.tdp_w > 0))
    for (const char* k : {"energy_kwh", "energy_usd"}) e.unknown.emplace(k, "no TDP for this GPU in the catalog");

  e.assumptions = {
      pure ? "pure BF16: weights, gradients and optimizer states in BF16, no FP32 master (8 bytes per parameter for "
             "AdamW)"
           : "BF16 mixed precision with FP32 master weights (the ZeRO paper's 16 bytes per parameter for AdamW)",
      "global batch " + Per(accumulation * micro_seqs) + " sequences = dp × micro-batch × " + Per(accumulation) +
          " accumulation steps" + (s.global_batch > 0 ? "" : " (8 by default; set global-batch)") +
          "; gradient communication overlaps 80% of the backward pass",
      "pipeline stages idle (pp - 1) / " + Per(accumulation) + " of a step (1F1B bubble with that many micro-batches)",
      "MFU " + FormatFixed(s.mfu * 100, 0) +
          "% of the dense BF16 peak (Llama 3 reported 38-43% on H100; adjust with mfu)",
      "spot price + " + FormatFixed(s.spot_overhead * 100, 0) + "% for interruptions and restarts from checkpoints",
  };
  e.assumptions.insert(e.assumptions.end(), e.device.assumptions.begin(), e.device.assumptions.end());
  if (qlora)
    e.assumptions.push_back("QLoRA: frozen base in " + base_label +
                            ", adapters and their optimizer in BF16/FP32; a paged optimizer only moves states to CPU "
                            "under memory spikes, so the peak is counted as if resident");
  if (lora && adapted_layers < layers)
    e.assumptions.push_back("no activations or backward below the first adapted layer (the embeddings stay frozen)");
  if (!lora && s.weights != "bf16" && s.weights != "fp16")
    e.warnings.push_back("full training holds BF16 weights; the weights field (" + s.weights +
                         ") applies to inference and LoRA");
  if (hybrid && static_cast<int>(dp) % s.shard_group != 0)
    e.warnings.push_back("dp " + Per(dp) + " is not a multiple of shard-group " + std::to_string(s.shard_group));
  if (lora && zero > 0 && zero < 3)
    e.warnings.push_back(
        "ZeRO-1/2 shard only the adapters' states with LoRA; the frozen base is replicated (ZeRO-3/FSDP shards it)");
  if (model.max_context > 0 && s.context > model.max_context)
    e.warnings.push_back("sequence " + FormatCount(s.context) + " exceeds the model's window of " +
                         FormatCount(model.max_context));
  return e;
}

double MfuForDays(const TrainEstimate& e, double mfu, double days) {
  if (!(days > 0) || !(e.step_s > 0)) return 0;
  // seconds = steps × (compute + comm); compute ∝ 1/MFU. Solve for the compute share that
  // brings the total to the target, keeping the exposed communication per step.
  const double steps = e.seconds / e.step_s, target_step = days * 86400 / steps;
  const double compute = target_step - e.step_comm_s;
  return compute > 0 ? mfu * e.step_compute_s / compute : 0;
}

std::vector<ScalingPoint> TrainingScaling(const Catalog& catalog, const Scenario& s, int max_dp) {
  // Strong scaling at the scenario's global batch: more replicas mean fewer accumulation steps
  // each, so communication and the pipeline bubble weigh more (until dp × micro-batch reaches
  // the global batch).
  std::vector<ScalingPoint> out;
  Result<Resolved> r = Resolve(catalog, s);
  if (!r) return out;
  Result<TrainEstimate> base = EstimateTraining(*r, s);
  if (!base || base->unknown.count("seconds")) return out;  // no time without a compute figure
  const double global = base->accumulation_steps * s.dp * static_cast<double>(s.micro_batch);
  for (int dp = 1; dp <= max_dp && dp * static_cast<double>(s.micro_batch) <= global; dp *= 2) {
    Scenario t = s;
    t.dp = dp;
    t.global_batch = static_cast<long long>(global);
    if (t.shard_group >= dp) t.shard_group = 0;
    Result<TrainEstimate> e = EstimateTraining(*r, t);
    if (!e) break;
    out.push_back({e->gpus, e->tokens_per_s, e->scaling_efficiency, e->seconds / 86400});
  }
  return out;
}

}  // namespace gpuplan
