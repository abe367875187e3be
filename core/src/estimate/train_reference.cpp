#include <cmath>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"

#include "gpuplan/resolve.h"
#include "gpuplan/training.h"
#include "gpuplan/units.h"

namespace gpuplan {

using nlohmann::json;

namespace {

double Num(const json& j, const char* key, double fallback = 0) {
  return detail::JsonNumber(j, key, fallback);
}
std::string Str(const json& j, const char* key) {
  return detail::JsonString(j, key);
}
double Scale(const std::string& unit) {
  if (unit == "GB") return kGB;
  if (unit == "GiB") return kGiB;
  if (unit == "bytes") return 1;
  if (unit == "GPU-hours" || unit == "days") return 1;
  return 0;
}

double ModelStateBytes(const TrainEstimate& e) {
  double b = 0;
  for (const Term& t : e.terms)
    if (t.key == "weights" || t.key == "gradients" || t.key == "master" || t.key == "optimizer") b += t.bytes;
  return b;
}

TrainCaseResult RunOne(const Catalog& catalog, const json& c) {
  TrainCaseResult r;
  r.id = Str(c, "id");
  r.kind = Str(c, "kind");
  r.measured = Num(c, "measured");
  if (!Str(c, "catalog_gap").empty() && r.kind != "model_states_gb_per_gpu" && r.kind != "activation_bytes_per_layer")
    return r.skipped = "catalog gap: " + Str(c, "catalog_gap"), r;
  const double scale = Scale(Str(c, "unit"));
  Scenario s;
  s.method = Str(c, "method") == "lora" || Str(c, "method") == "qlora" ? Str(c, "method") : "full";
  const std::string opt = Str(c, "optimizer");
  s.optimizer = opt.empty() || opt == "adam" ? "adamw" : opt;
  s.zero = static_cast<int>(Num(c, "zero_stage", 0));
  s.dp = static_cast<int>(Num(c, "dp", 1));
  s.tp = static_cast<int>(Num(c, "tp", 1));
  s.micro_batch = static_cast<long long>(Num(c, "micro_batch", 1));
  s.context = static_cast<long long>(Num(c, "seq_len", 2048));
  s.lora_rank = static_cast<int>(Num(c, "lora_rank", 16));
  if (c.contains("recompute") && c["recompute"].is_string()) s.recompute = Str(c, "recompute");
  if (c.contains("flash_attention") && c["flash_attention"].is_boolean())
    s.flash = c["flash_attention"].get<bool>() ? 1 : 0;
  s.gpu = Str(c, "gpu").empty() ? "a100-sxm-80gb" : Str(c, "gpu");
  if (scale == 0 && (r.kind == "model_states_gb_per_gpu" || r.kind == "peak_memory_gb"))
    return r.skipped = "unit '" + Str(c, "unit") + "' not understood", r;

  if (r.kind == "mfu" || r.kind == "tflops_per_gpu")
    return r.skipped = "an input of the estimator (MFU), not an output: checked against the default separately", r;

  if (r.kind == "model_states_gb_per_gpu") {
    // Bytes per parameter from any dense catalog model, times the paper's Ψ.
    s.model = "llama-2-7b";
    if (s.dp < 1) s.dp = 1;
    Result<TrainEstimate> e = EstimateTraining(catalog, s);
    if (!e) return r.skipped = e.error(), r;
    const double psi = Num(c, "params");
    if (!(psi > 0)) return r.skipped = "no parameter count", r;
    r.estimated = ModelStateBytes(*e) / e->total_params * psi / scale;
  } else if (r.kind == "activation_bytes_per_layer") {
    if (c.contains("sequence_parallel") && c["sequence_parallel"].is_boolean())
      s.sp = c["sequence_parallel"].get<bool>() ? 1 : 0;
    // The paper's GPT-style layer: MLP 4h, GeLU (not gated), MHA.
    Model m;
    m.id = "ref";
    m.hidden = static_cast<int>(Num(c, "hidden"));
    m.heads = m.kv_heads = static_cast<int>(Num(c, "heads"));
    if (m.hidden <= 0 || m.heads <= 0) return r.skipped = "no hidden size or heads", r;
    m.head_dim = m.hidden / m.heads;
    m.intermediate = 4 * m.hidden;
    m.gated_mlp = false;
    m.layers = 1;
    m.vocab = 1;
    Catalog one = catalog;
    one.models = {m};
    s.model = "ref";
    Result<TrainEstimate> e = EstimateTraining(one, s);
    if (!e) return r.skipped = e.error(), r;
    r.estimated = e->terms[4].bytes / scale;  // activations, one layer
  } else if (r.kind == "gpu_hours" || r.kind == "train_days") {
    s.model = Str(c, "model");
    const Result<Resolved> ids = Resolve(catalog, s);
    if (!ids && UnresolvedField(ids.error()) == "model") return r.skipped = "model not in the catalog", r;
    s.tokens = Num(c, "tokens");
    if (!(s.tokens > 0)) return r.skipped = "no token count", r;
    const double achieved = Num(c, "achieved_tflops_per_gpu");
    if (achieved > 0) {
      if (!ids || !ids->gpu.dense_flops.count("bf16")) return r.skipped = "no GPU peak", r;
      s.mfu = std::min(1.0, achieved * 1e12 / ids->gpu.dense_flops.at("bf16"));
    }
    s.dp = static_cast<int>(Num(c, "gpus", 1));
    if (Num(c, "global_batch_tokens") > 0 && s.context > 0)
      s.global_batch = static_cast<long long>(Num(c, "global_batch_tokens") / static_cast<double>(s.context));
    Result<TrainEstimate> e = EstimateTraining(catalog, s);
    if (!e) return r.skipped = e.error(), r;
    r.estimated = r.kind == "gpu_hours" ? e->gpu_hours : e->seconds / 86400;
  } else if (r.kind == "peak_memory_gb") {
    // The recipe the table was measured with (its YAML config), where recorded.
    if (auto rec = c.find("recipe"); rec != c.end() && rec->is_object()) {
      const json& x = *rec;
      if (Str(x, "dtype") == "bf16") s.master = 0;  // torchtune trains in pure BF16
      if (x.contains("activation_checkpointing") && x["activation_checkpointing"].is_boolean())
        s.recompute = x["activation_checkpointing"].get<bool>() ? "full" : "none";
      if (Num(x, "batch_size") > 0) s.micro_batch = static_cast<long long>(Num(x, "batch_size"));
      if (Num(x, "seq_len") > 0) s.context = static_cast<long long>(Num(x, "seq_len"));
      if (Num(x, "lora_rank") > 0) s.lora_rank = static_cast<int>(Num(x, "lora_rank"));
      // Adapted modules, from torchtune's lora_attn_modules/apply_lora_to_mlp or axolotl's
      // lora_target_linear as the recipe records them.
      const std::string targets = Str(x, "lora_targets");
      if (targets.find("apply_lora_to_mlp True") != std::string::npos ||
          targets.find("lora_target_linear: true") != std::string::npos)
        s.lora_targets = "all-linear";
      else if (targets.find("[q_proj, v_proj]") != std::string::npos)
        s.lora_targets = "qv";
      else if (!targets.empty())
        s.lora_targets = "attention";
      if (Str(x, "dtype").find("load_in_8bit: true") != std::string::npos) s.weights = "llm-int8";
      const std::string o = Str(x, "optimizer");
      if (o.find("8bit") != std::string::npos || o.find("8Bit") != std::string::npos) s.optimizer = "adamw-8bit";
      if (x.contains("optimizer_in_bwd") && x["optimizer_in_bwd"].is_boolean())
        s.opt_in_bwd = x["optimizer_in_bwd"].get<bool>() ? 1 : 0;
    }
    // Multi-GPU fine-tuning recipes (torchtune, axolotl) shard with FSDP: ZeRO-3 over the GPUs.
    if (!c.contains("dp") && Num(c, "gpus", 1) > 1) s.dp = static_cast<int>(Num(c, "gpus")), s.zero = 3;
    s.model = Str(c, "model");
    const Result<Resolved> ids = Resolve(catalog, s);
    if (!ids) {
      const std::string field = UnresolvedField(ids.error());
      return r.skipped = field == "model" ? "model not in the catalog" : field == "gpu" ? "GPU not in the catalog" : ids.error(), r;
    }
    Result<TrainEstimate> e = EstimateTraining(*ids, s);
    if (!e) return r.skipped = e.error(), r;
    r.estimated = e->total_bytes / scale;
  } else {
    return r.skipped = "kind not modelled", r;
  }
  if (!(r.estimated > 0) || !(r.measured > 0)) return r.skipped = "no positive estimate or measurement", r;
  r.ratio = r.measured / r.estimated;
  r.ran = true;
  return r;
}

}  // namespace

Result<std::vector<TrainCaseResult>> RunTrainingReference(const Catalog& catalog, const std::string& text) {
  const json doc = detail::ParseJson(text);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array())
    return Error{"training reference: not a JSON object with a 'cases' array"};
  std::vector<TrainCaseResult> out;
  for (const json& c : doc["cases"]) out.push_back(RunOne(catalog, c));
  return out;
}

}  // namespace gpuplan
