#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"

#include "gpuplan/model.h"
#include "gpuplan/resolve.h"
#include "gpuplan/speed.h"
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

bool Has(const std::string& text, const char* word) {
  std::string lower = text;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return lower.find(word) != std::string::npos;
}
bool Flag(const json& x, const char* key) {
  return x.contains(key) && x[key].is_boolean() && x[key].get<bool>();
}

// The settings of the recipe a table was measured with, as gpuplan fields: the case's
// "gpuplan" object, written from the recipe's YAML config, launch flags or the tool's documented
// defaults (the recipe object beside it keeps the evidence). Through the one field table, so a
// case sets exactly what a link or a flag would. An unknown field or value names itself.
std::optional<std::string> ApplySettings(const Catalog& catalog, const json& c, Scenario& s) {
  const auto it = c.find("gpuplan");
  if (it == c.end()) return std::nullopt;
  if (!it->is_object()) return "'gpuplan' is not an object";
  for (const auto& [key, value] : it->items()) {
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (std::optional<Error> err = SetField(s, key, text, catalog)) return err->message;
  }
  return std::nullopt;
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

  if (c.contains("source") && c["source"].is_object()) r.source = Str(c["source"], "title");
  if (r.kind == "mfu" || r.kind == "tflops_per_gpu" || r.kind == "tokens_per_s_per_gpu") {
    // Throughput of a published run: the predicted tokens/s per GPU against the measured, an MFU
    // or TFLOP/s turned into tokens/s by the source's own FLOP count (PaLM's 6N + 12·L·H·Q·T unless
    // the case says recomputation is counted too, as Narayanan et al.'s "% of peak" does).
    s.model = Str(c, "model");
    // A model outside the catalog, from the architecture the case quotes (its config or paper).
    Catalog with_arch;
    const Catalog* cat = &catalog;
    if (s.model.empty() && c.contains("arch") && c["arch"].is_object()) {
      const json& x = c["arch"];
      Model m;
      m.id = "case-arch";
      m.name = Str(x, "label");
      m.hidden = static_cast<int>(Num(x, "hidden"));
      m.layers = static_cast<int>(Num(x, "layers"));
      m.heads = static_cast<int>(Num(x, "heads"));
      m.kv_heads = static_cast<int>(Num(x, "kv_heads", m.heads));
      m.head_dim = static_cast<int>(Num(x, "head_dim", m.heads > 0 ? m.hidden / m.heads : 0));
      m.intermediate = static_cast<int>(Num(x, "intermediate"));
      m.vocab = static_cast<int>(Num(x, "vocab"));
      m.max_context = static_cast<long long>(Num(x, "max_context"));
      m.learned_positions = static_cast<long long>(Num(x, "learned_positions"));
      m.gated_mlp = Flag(x, "gated_mlp");
      m.tie_embeddings = Flag(x, "tie_embeddings");
      m.qkv_bias = m.out_bias = m.mlp_bias = Flag(x, "bias");
      m.layer_norm = Flag(x, "layer_norm");
      if (m.hidden <= 0 || m.layers <= 0 || m.heads <= 0 || m.vocab <= 0 || m.intermediate <= 0)
        return r.skipped = "the case's architecture is incomplete", r;
      with_arch = catalog;
      with_arch.models.push_back(m);
      cat = &with_arch;
      s.model = m.id;
    }
    if (s.model.empty()) return r.skipped = "model not in the catalog", r;
    if (Str(c, "gpu").empty()) return r.skipped = "GPU not in the catalog (" + Str(c, "gpu_label") + ")", r;
    s.pp = static_cast<int>(Num(c, "pp", 1));
    s.cp = static_cast<int>(Num(c, "cp", 1));
    s.vp = std::max(1, static_cast<int>(Num(c, "vp", 1)));
    s.moe_ep = std::max(1, static_cast<int>(Num(c, "ep", 1)));
    const double gpus = Num(c, "gpus", 1);
    s.dp = c.contains("dp") && c["dp"].is_number() ? static_cast<int>(Num(c, "dp"))
                                                   : std::max(1, static_cast<int>(gpus / (s.tp * s.pp * s.cp)));
    if (Num(c, "global_batch") > 0) s.global_batch = static_cast<long long>(Num(c, "global_batch"));
    if (Num(c, "tokens_per_batch") > 0 && s.global_batch == 0)
      s.global_batch = static_cast<long long>(Num(c, "tokens_per_batch") / static_cast<double>(s.context));
    if (Str(c, "precision") == "fp8") s.precision = "fp8";
    // FSDP (full shard) is ZeRO-3; Megatron's DDP with its distributed optimizer shards the
    // optimizer states (ZeRO-1), NeMo's default.
    const std::string fsdp = Str(c, "fsdp");
    s.zero = Has(fsdp, "full") && !Has(fsdp, "none") ? 3 : 1;
    if (c.contains("zero_stage") && c["zero_stage"].is_number()) s.zero = static_cast<int>(Num(c, "zero_stage"));
    if (s.recompute.empty()) s.recompute = "none";
    // Published pre-training runs use fused kernels: Megatron's Transformer Engine, torchtitan's
    // torch.compile, llm-foundry's flash-attention layers.
    s.kernels = "fused";
    s.mfu = 0;
    const Result<Resolved> ids = Resolve(*cat, s);
    if (!ids) {
      const std::string field = UnresolvedField(ids.error());
      return r.skipped = field == "model" ? "model not in the catalog"
                         : field == "gpu" ? "GPU not in the catalog"
                                          : ids.error(),
             r;
    }
    Result<TrainEstimate> e = EstimateTraining(*ids, s);
    if (!e) return r.skipped = e.error(), r;
    if (!(e->tokens_per_s > 0)) return r.skipped = "no time estimate", r;
    r.estimated = e->tokens_per_s / e->gpus;
    const ParamCount params = CountParams(ids->model);
    const std::string counting = Str(c, "flops_counting");
    // Narayanan et al.'s 96·B·s·l·h²(1 + s/6h + V/16lh) counts the recomputed forward.
    const bool recompute_counted = Has(counting, "96 b s l h");
    const double attention = AttentionFlopsPerToken(ids->model, static_cast<double>(s.context));
    const double flops = recompute_counted ? 8 * params.active + 4 * attention : 6 * params.active + 3 * attention;
    const double peak = ids->gpu.dense_flops.count("bf16") ? ids->gpu.dense_flops.at("bf16") : 0;
    const double fp8_peak = ids->gpu.dense_flops.count("fp8") ? ids->gpu.dense_flops.at("fp8") : 0;
    const double mfu_peak = Str(c, "mfu_peak") == "fp8" && fp8_peak > 0 ? fp8_peak : peak;
    if (r.kind == "tflops_per_gpu") r.measured = r.measured * 1e12 / flops;
    if (r.kind == "mfu") r.measured = r.measured * mfu_peak / flops;
  } else if (r.kind == "model_states_gb_per_gpu") {
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
    // One more layer's activations: a model of two layers less one of one (full recomputation
    // also holds one rebuilt layer, whatever the depth).
    auto activations = [&](int layers) -> Result<double> {
      m.layers = layers;
      Catalog one = catalog;
      one.models = {m};
      s.model = "ref";
      Result<TrainEstimate> e = EstimateTraining(one, s);
      if (!e) return Error{e.error()};
      for (const Term& t : e->terms)
        if (t.key == "activations") return t.bytes;
      return Error{"no activations term"};
    };
    const Result<double> one = activations(1), two = activations(2);
    if (!one || !two) return r.skipped = !one ? one.error() : two.error(), r;
    r.estimated = (*two - *one) / scale;
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
  } else if (r.kind == "peak_memory_gb" || r.kind == "max_context_tokens") {
    // A row the case marks unusable (its settings unknown, or a config copy that cannot be the
    // one measured) says why; it constrains nothing.
    if (!Str(c, "skip").empty()) return r.skipped = Str(c, "skip"), r;
    // Unpacked samples are as long as each batch's longest, not the stated maximum: the peak
    // belongs to a length nobody wrote down.
    if (auto rec = c.find("recipe"); rec != c.end() && rec->is_object() && rec->contains("packed") &&
                                     (*rec)["packed"].is_boolean() && !(*rec)["packed"].get<bool>() &&
                                     !Has(Str(*rec, "micro_batch_note"), "padded to"))
      return r.skipped = "unpacked samples: the sequence length varies with each batch", r;
    if (!c.contains("gpuplan")) return r.skipped = "the recipe's settings are unknown", r;
    // Multi-GPU fine-tuning recipes (torchtune, axolotl, PEFT) shard with FSDP or ZeRO-3.
    if (!c.contains("dp") && Num(c, "gpus", 1) > 1) s.dp = static_cast<int>(Num(c, "gpus")), s.zero = 3;
    if (r.kind == "max_context_tokens") {
      // Nobody reaches a long context without recomputing activations: full, unless the case
      // says otherwise.
      s.recompute = "full";
      s.gpu = Str(c, "gpu").empty() ? "h100-sxm" : Str(c, "gpu");
      const double vram = Num(c, "gpu_vram_gb");
      if (vram > 0) s.gpu_mem_gib = vram;
    }
    s.model = Str(c, "model");
    if (std::optional<std::string> err = ApplySettings(catalog, c, s)) return r.skipped = *err, r;
    // The recipe's gradient accumulation: accumulated gradients stay alive through the forward.
    if (auto rec = c.find("recipe");
        rec != c.end() && rec->is_object() && s.global_batch == 0 && Num(*rec, "gradient_accumulation_steps") >= 1)
      s.global_batch = static_cast<long long>(static_cast<double>(s.dp) * static_cast<double>(s.micro_batch) *
                                              Num(*rec, "gradient_accumulation_steps"));
    const Result<Resolved> ids = Resolve(catalog, s);
    if (!ids) {
      const std::string field = UnresolvedField(ids.error());
      return r.skipped = field == "model" ? "model not in the catalog" : field == "gpu" ? "GPU not in the catalog" : ids.error(), r;
    }
    if (r.kind == "peak_memory_gb") {
      Result<TrainEstimate> e = EstimateTraining(*ids, s);
      if (!e) return r.skipped = e.error(), r;
      // The statistic the table printed: PyTorch's active or allocated bytes; reserved (those plus
      // the caching allocator's reserve; also assumed when the table does not say); or the whole
      // device as nvidia-smi shows it (reserved plus the CUDA context).
      //   active/allocated: the high-water mark of live tensors (torch.cuda.memory_stats()
      //     'active_bytes.all.peak', 'allocated_bytes.all.peak'), i.e. the largest single moment
      //     of the step, not the sum of every term at its own largest;
      //   reserved/device: the caching allocator keeps the blocks each phase asked for and cannot
      //     always hand one phase's to another (sizes differ), so the sum of the terms at their
      //     largest, plus the reserve, is the estimate.
      const std::string stat = Str(c, "memory_stat");
      double overhead = 0;
      for (const Term& term : e->terms)
        if (term.key == "overhead") overhead += term.bytes;
      const bool live = stat == "active" || stat == "allocated";
      auto as_stated = [&](double allocated) {
        const double reserved = allocated * (1 + s.reserve);
        return (live ? allocated : stat == "device" ? reserved + overhead : reserved) / scale;
      };
      r.estimated = as_stated(live ? e->moment_bytes : e->allocated_bytes);
      r.floor = as_stated(e->moment_bytes);
    } else {
      // The longest sequence whose step fits in the card's memory (the case's VRAM class, GiB as
      // cards are sold), found by bisection; the estimate is the tokens of one micro-batch.
      if (s.method == "full") return r.skipped = "only LoRA/QLoRA context cases are modelled", r;
      auto fits = [&](long long context) {
        s.context = context;
        Result<TrainEstimate> e = EstimateTraining(*ids, s);
        return e && e->fits;
      };
      long long lo = 0, hi = 4194304;
      if (!fits(1)) return r.skipped = "not even one token fits", r;
      lo = 1;
      while (hi - lo > 1) {
        const long long mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
      }
      r.estimated = static_cast<double>(lo * s.micro_batch);
    }
  } else {
    return r.skipped = "kind not modelled", r;
  }
  if (!(r.estimated > 0) || !(r.measured > 0)) return r.skipped = "no positive estimate or measurement", r;
  r.ratio = r.measured / r.estimated;
  r.ran = true;
  // A row whose settings had to be guessed (the source states them for a table the row cannot
  // have followed) is checked apart: its error says as much about the guess as the model.
  if (!Str(c, "settings_inferred").empty()) r.kind += " (settings inferred)";
  return r;
}

}  // namespace

Result<std::vector<TrainCaseResult>> RunTrainingReference(const Catalog& catalog, const std::string& text) {
  const json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{"training reference: " + detail::JsonErrorAt(text)};
  if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array())
    return Error{"training reference: not a JSON object with a 'cases' array"};
  // A row that gives both tokens/s and TFLOP/s is one measurement: its tokens/s case counts.
  std::set<std::string> ids;
  for (const json& c : doc["cases"]) ids.insert(Str(c, "id"));
  std::vector<TrainCaseResult> out;
  for (const json& c : doc["cases"]) {
    const std::string id = Str(c, "id");
    const std::string suffix = "-tflops";
    if (id.size() > suffix.size() && id.compare(id.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        ids.count(id.substr(0, id.size() - suffix.size()) + "-tokens")) {
      TrainCaseResult r;
      r.id = id;
      r.kind = Str(c, "kind");
      r.skipped = "the same row's tokens/s is the case";
      out.push_back(r);
      continue;
    }
    out.push_back(RunOne(catalog, c));
  }
  return out;
}

}  // namespace gpuplan
