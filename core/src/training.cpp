#include "gpuplan/training.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/cost.h"
#include "gpuplan/model.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

std::string Bytes(double b) { return FormatBytes(b, ByteUnit::GiB); }
std::string Per(double v) { return FormatFixed(v, v == std::floor(v) ? 0 : 2); }

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
// (Hu et al. 2021), all linear layers of attention and MLP ("all-linear", as QLoRA does).
double LoraParams(const Model& m, int rank) {
  const double h = m.hidden, q = static_cast<double>(m.heads) * m.head_dim,
               kv = static_cast<double>(m.kv_heads) * m.head_dim;
  const double ffn = m.moe ? static_cast<double>(m.moe->expert_intermediate) : m.intermediate;
  double per_layer = (h + q) + 2 * (h + kv) + (q + h);  // q, k, v, o
  per_layer += (m.gated_mlp ? 3 : 2) * (h + ffn);        // gate/up/down
  return rank * per_layer * m.layers;
}

}  // namespace

Result<TrainEstimate> EstimateTraining(const Catalog& catalog, const Scenario& s) {
  const Model* model = catalog.FindModel(s.model);
  const Gpu* gpu = catalog.FindGpu(s.gpu);
  if (!model) return Error{"model: unknown model '" + s.model + "'"};
  if (!gpu) return Error{"gpu: unknown GPU '" + s.gpu + "'"};
  if (s.count < 1 || s.pp < 1 || s.dp < 1 || s.micro_batch < 1 || s.context < 1 || model->layers < 1)
    return Error{"scenario: count, pp, dp, micro-batch and context must be >= 1"};

  TrainEstimate e;
  const double tp = s.count, pp = std::max(1, s.pp), dp = s.dp;
  e.gpus = static_cast<int>(tp * pp * dp);
  const ParamCount params = CountParams(*model);
  e.total_params = params.total;
  const bool lora = s.method == "lora" || s.method == "qlora";
  const bool qlora = s.method == "qlora";
  e.trainable_params = lora ? LoraParams(*model, s.lora_rank) : params.total;
  const double model_split = tp * pp;  // tensor and pipeline parallelism split every tensor

  // --- Model states (ZeRO paper, Rajbhandari et al. 2019, §3: 2Ψ BF16 weights + 2Ψ gradients
  //     + KΨ optimizer, K = 12 for mixed-precision Adam: 4 FP32 master + 4 + 4 moments; ZeRO-1
  //     shards the K part over the data-parallel degree N, ZeRO-2 the gradients too, ZeRO-3 the
  //     weights too.)
  double base_weight_bytes = 2;
  std::string base_label = "BF16";
  if (qlora) {
    const WeightFormat* nf4 = catalog.FindWeightFormat("nf4-dq");
    base_weight_bytes = nf4 ? nf4->bits_per_weight / 8 : 0.5;
    base_label = nf4 ? nf4->name : "NF4";
  }
  const double zero = s.zero;
  auto shard = [&](int from_stage) { return zero >= from_stage ? dp : 1.0; };
  const double frozen = lora ? params.total : 0;
  const double trainable = e.trainable_params;
  const double weights =
      (frozen * base_weight_bytes + trainable * 2) / model_split / shard(3) * (s.offload >= 2 ? 0 : 1);
  // Optimizer-in-backward (torchtune's optimizer_in_bwd) frees each gradient as soon as its
  // parameter is updated: about one layer's gradients are alive at a time.
  const double layer_trainable = trainable / model->layers;
  const double grads = (s.opt_in_bwd ? layer_trainable : trainable) * 2 / model_split / shard(2);
  // Pure BF16 training keeps no FP32 master and its optimizer states in BF16 (half the bytes).
  const bool pure = s.master == 0;
  const double master = pure ? 0 : trainable * 4 / model_split / shard(1);
  const double optim = trainable * OptimizerBytes(s.optimizer) * (pure ? 0.5 : 1) / model_split / shard(1);
  const bool opt_offload = s.offload >= 1;
  e.terms.push_back({"weights", "Weights",
                     (lora ? FormatParams(frozen) + " frozen × " + Per(base_weight_bytes) + " B (" + base_label + ") + " +
                                 FormatParams(trainable) + " LoRA × 2 B"
                           : FormatParams(trainable) + " × 2 B (BF16)") +
                         " / " + Per(model_split) + " (TP × PP)" + (zero >= 3 ? " / " + Per(dp) + " (ZeRO-3 / FSDP)" : "") +
                         (s.offload >= 2 ? "; offloaded to CPU" : ""),
                     weights});
  e.terms.push_back({"gradients", "Gradients",
                     (s.opt_in_bwd ? "one layer's " + FormatParams(layer_trainable) + " (optimizer in backward)"
                                   : FormatParams(trainable) + " trainable") +
                         " × 2 B / " + Per(model_split) +
                         (zero >= 2 ? " / " + Per(dp) + " (ZeRO-2)" : ""),
                     grads});
  e.terms.push_back({"master", "FP32 master weights",
                     pure ? std::string("none: pure BF16 training (master = 0)")
                          : FormatParams(trainable) + " × 4 B / " + Per(model_split) +
                                (zero >= 1 ? " / " + Per(dp) + " (ZeRO-1)" : "") + (opt_offload ? "; offloaded to CPU" : ""),
                     opt_offload ? 0 : master});
  e.terms.push_back({"optimizer", "Optimizer states",
                     FormatParams(trainable) + " × " + Per(OptimizerBytes(s.optimizer) * (pure ? 0.5 : 1)) + " B (" +
                         s.optimizer + (pure ? ", BF16 states" : "") + ") / " +
                         Per(model_split) + (zero >= 1 ? " / " + Per(dp) + " (ZeRO-1)" : "") +
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
  //     keeps only each layer's 2sbh input. The first pipeline stage holds pp micro-batches of
  //     its L/pp layers (1F1B schedule, §4.2.3): L layers' worth in all.
  const double sq = static_cast<double>(s.context), b = static_cast<double>(s.micro_batch), h = model->hidden;
  const double a = model->heads;
  const double ffn = model->moe ? static_cast<double>(model->moe->experts_per_token) * model->moe->expert_intermediate +
                                      model->moe->shared_intermediate +
                                      static_cast<double>(model->moe->shared_experts) * model->moe->expert_intermediate
                                : model->intermediate;
  const double mlp_coeff = 3 + (model->gated_mlp ? 6 : 4) * ffn / h;
  const bool scores = !s.flash && s.recompute == "none";
  double per_layer_coeff = 11 + mlp_coeff + 4;  // × s·b·h
  std::string act_formula;
  double per_layer = 0;
  if (s.recompute == "full") {
    per_layer = 2 * sq * b * h / tp;
    act_formula = "full recomputation: 2·s·b·h per layer (its input)";
  } else {
    per_layer = sq * b * h * per_layer_coeff / tp + (scores ? 5 * a * sq * sq * b / tp : 0);
    act_formula = "s·b·h·" + FormatFixed(per_layer_coeff, 1) + (scores ? " + 5·a·s²·b" : "") + " per layer / TP " + Per(tp) +
                  (scores ? "" : (s.flash ? " (flash attention: no score tensors)" : " (selective recomputation)"));
  }
  const double activations = per_layer * model->layers;  // L/pp layers × pp micro-batches in flight
  e.terms.push_back({"activations", "Activations",
                     act_formula + "; s " + FormatCount(s.context) + ", b " + FormatCount(s.micro_batch) + ", h " +
                         FormatCount(model->hidden) + " × " + FormatCount(model->layers) + " layers" +
                         (pp > 1 ? " (first stage: " + Per(pp) + " micro-batches of L/" + Per(pp) + " layers)" : ""),
                     activations});
  // FP32 logits and their gradient for the micro-batch (the largest single tensor for
  // big vocabularies): s·b·V·4 bytes, split over TP (vocab-parallel).
  const double logits = sq * b * model->vocab * 4 * 2 / tp;
  e.terms.push_back({"logits", "Logits (FP32) and their gradient",
                     "2 × s·b·V·4 B / TP = " + FormatCount(s.context) + " × " + FormatCount(s.micro_batch) + " × " +
                         FormatCount(model->vocab) + " × 8 B / " + Per(tp),
                     logits});
  // Temporary buffers: ZeRO-3/FSDP gathers one layer's full weights (and prefetches the next);
  // gradient bucketing keeps about one layer's gradients in flight.
  const double layer_bytes = (params.total - params.embedding) / model->layers * 2 / tp;
  const double buffers = (zero >= 3 ? 2 : 1) * layer_bytes;
  e.terms.push_back({"buffers", "Temporary buffers",
                     (zero >= 3 ? "2 gathered layers (ZeRO-3 prefetch)" : "one layer's gradient bucket") +
                         std::string(" × ") + Bytes(layer_bytes),
                     buffers});
  e.terms.push_back({"overhead", "Runtime overhead", FormatFixed(s.overhead_gib, 2) + " GiB (CUDA context, allocator)",
                     s.overhead_gib * kGiB});
  for (const Term& t : e.terms) e.total_bytes += t.bytes;
  e.capacity_bytes = gpu->CapacityBytes();
  e.headroom_bytes = e.capacity_bytes - e.total_bytes;
  e.fits = e.headroom_bytes >= 0;
  const double per_sequence = (activations + logits) / b;
  const double fixed = e.total_bytes - activations - logits;
  e.max_micro_batch = fixed < e.capacity_bytes && per_sequence > 0
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
    e.suggestions.push_back("more tensor or pipeline parallelism (count, pp)");
  }

  // --- Time. Training FLOPs per token: 6N (2N forward, 4N backward; Kaplan et al. 2020) plus
  //     attention 12·L·H·Q·T (PaLM, Chowdhery et al. 2022, Appendix B: the MFU definition), with full
  //     recomputation one more forward (8N, Narayanan et al. 2021 eq. 3); LoRA skips the frozen
  //     weights' gradient: 4N (forward + input gradients) + 6 × the adapter parameters.
  const double n_active = params.active;
  const double attn = 12.0 * model->layers * static_cast<double>(model->heads) * model->head_dim * sq;
  const double recompute_factor = s.recompute == "full" ? 4.0 / 3 : 1;
  if (lora) {
    e.flops_per_token = (4 * n_active + 6 * trainable + attn) * recompute_factor;
    e.flops_formula = "(4N frozen forward + input gradients + 6 × " + FormatParams(trainable) + " adapter + attention)";
  } else {
    e.flops_per_token = (6 * n_active + attn) * recompute_factor;
    e.flops_formula = "6 × " + FormatParams(n_active) + " active params + attention";
  }
  if (s.recompute == "full") e.flops_formula += " × 4/3 (full recomputation: another forward)";
  const auto peak_it = gpu->dense_flops.find("bf16");
  const double peak = peak_it != gpu->dense_flops.end() ? peak_it->second
                      : gpu->dense_flops.count("fp16") ? gpu->dense_flops.at("fp16")
                                                       : 0;
  if (peak <= 0) return Error{"gpu: the catalog has no BF16/FP16 dense throughput for '" + gpu->id + "'"};
  // One optimizer step: every data-parallel replica processes its micro-batches (global batch
  // = dp × micro-batch × 8 accumulation steps by default: a stated assumption); then the
  // gradients are all-reduced (ZeRO-0/1/2: 2Ψ bytes, ring) or reduce-scattered and the
  // weights all-gathered twice (ZeRO-3: 3 × 2Ψ / 2 per direction, ZeRO paper §7.2). Most of it
  // overlaps the backward pass (80%, stated assumption).
  constexpr double kAccumulation = 8, kOverlap = 0.8;
  e.global_batch_tokens = dp * b * kAccumulation * sq;
  const double replica_gpus = tp * pp;
  e.step_compute_s = e.global_batch_tokens * e.flops_per_token / (e.gpus * peak * s.mfu);
  // Pipeline bubble (1F1B): (p - 1) / m of the step idles with m micro-batches per step
  // (Narayanan et al. 2021, §2.2.1).
  if (pp > 1) e.step_compute_s *= 1 + (pp - 1) / kAccumulation;
  // The slowest link on the data-parallel ring: within a node while dp × tp × pp <= 8 over
  // NVLink or PCIe; across nodes over InfiniBand NDR (data-centre parts) or 100 GbE.
  double link = 0;
  if (e.gpus <= 8) {
    link = gpu->interconnect && gpu->interconnect->bytes_per_s > 0 ? gpu->interconnect->bytes_per_s / 2 : 0;
    if (link == 0)
      for (const InterconnectSpec& ic : catalog.interconnects)
        if (ic.kind == "pcie" && ic.generation == (gpu->pcie_gen ? gpu->pcie_gen : 4)) link = ic.effective_bytes_per_s;
  } else {
    for (const InterconnectSpec& ic : catalog.interconnects)
      if (ic.id == (gpu->interconnect ? "infiniband-ndr" : "ethernet-100g"))
        link = ic.effective_bytes_per_s > 0 ? ic.effective_bytes_per_s : ic.raw_bytes_per_s;
  }
  if (link <= 0) link = 25e9;
  const double grad_bytes = trainable * 2 / replica_gpus;
  const double volume = dp > 1 ? 2 * (dp - 1) / dp * grad_bytes * (zero >= 3 ? 1.5 : 1) : 0;
  const double comm = volume / link;
  const double backward = e.step_compute_s * 2 / 3;
  e.step_comm_s = std::max(0.0, comm - kOverlap * backward);
  e.step_s = e.step_compute_s + e.step_comm_s;
  e.scaling_efficiency = e.step_s > 0 ? e.step_compute_s / e.step_s : 1;
  e.tokens_per_s = e.step_s > 0 ? e.global_batch_tokens / e.step_s : 0;
  e.seconds = e.tokens_per_s > 0 ? s.tokens / e.tokens_per_s : 0;
  e.gpu_hours = e.seconds / 3600 * e.gpus;
  e.chinchilla_tokens = 20 * params.total;

  // --- Cost: GPU-hours at the cheapest catalog offer (or price-hour); spot adds 10% for
  //     restarts from checkpoints (stated assumption); energy at TDP × PUE.
  std::string basis;
  const double hour = s.price_hour > 0 ? s.price_hour : CheapestGpuHour(catalog, s.gpu, false, &basis);
  const double spot = CheapestGpuHour(catalog, s.gpu, true, nullptr);
  e.price_basis = s.price_hour > 0 ? "given price per GPU-hour" : basis;
  e.cloud_usd = hour * e.gpu_hours;
  e.spot_usd = spot * e.gpu_hours * 1.10;
  e.energy_kwh = gpu->tdp_w / 1000 * e.gpu_hours * s.pue;
  e.energy_usd = e.energy_kwh * s.kwh_usd;

  e.assumptions = {
      pure ? "pure BF16: weights, gradients and optimizer states in BF16, no FP32 master (8 bytes per parameter for AdamW)"
           : "BF16 mixed precision with FP32 master weights (the ZeRO paper's 16 bytes per parameter for AdamW)",
      "global batch = dp × micro-batch × 8 accumulation steps; gradient communication overlaps 80% of the backward pass",
      "pipeline stages idle (pp - 1) / 8 of a step (1F1B bubble with 8 micro-batches)",
      "MFU " + FormatFixed(s.mfu * 100, 0) + "% of the dense BF16 peak (Llama 3 reported 38-43% on H100; adjust with mfu)",
      "spot price + 10% for interruptions and restarts from checkpoints",
  };
  if (qlora) e.assumptions.push_back("QLoRA: frozen base in " + base_label + ", adapters and their optimizer in BF16/FP32");
  if (lora && zero > 0 && zero < 3)
    e.warnings.push_back("ZeRO-1/2 shard only the adapters' states with LoRA; the frozen base is replicated (ZeRO-3/FSDP shards it)");
  if (model->max_context > 0 && s.context > model->max_context)
    e.warnings.push_back("sequence " + FormatCount(s.context) + " exceeds the model's window of " +
                         FormatCount(model->max_context));
  return e;
}

std::vector<ScalingPoint> TrainingScaling(const Catalog& catalog, const Scenario& s, int max_dp) {
  std::vector<ScalingPoint> out;
  for (int dp = 1; dp <= max_dp; dp *= 2) {
    Scenario t = s;
    t.dp = dp;
    Result<TrainEstimate> e = EstimateTraining(catalog, t);
    if (!e) break;
    out.push_back({e->gpus, e->tokens_per_s, e->scaling_efficiency, e->seconds / 86400});
  }
  return out;
}

}  // namespace gpuplan
