// Training memory and time against the ZeRO paper's model-state arithmetic and the seeds' example.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "gpuplan/model.h"
#include "gpuplan/training.h"
#include "gpuplan/units.h"
#include "support.h"

using namespace gpuplan;
using test::Cat;

namespace {

TrainEstimate Train(const Scenario& s) {
  Result<TrainEstimate> r = EstimateTraining(Cat(), s);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

double ModelStates(const TrainEstimate& e) {
  double b = 0;
  for (const Term& t : e.terms)
    if (t.key == "weights" || t.key == "gradients" || t.key == "master" || t.key == "optimizer") b += t.bytes;
  return b;
}

}  // namespace

// ZeRO (Rajbhandari et al. 2019), Figure 1 / §5: Ψ = 7.5 B, N = 64, K = 12:
// baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB. The ratio to a catalog
// model's counted parameters reproduces the arithmetic exactly.
TEST_CASE("model states follow the ZeRO paper's 16 bytes per parameter and its sharding", "[training][reference]") {
  Scenario s;
  s.model = "llama-2-7b";
  s.gpu = "a100-sxm-80gb";
  s.dp = 64;
  const double psi = CountParams(*Cat().FindModel(s.model)).total;
  const double paper[] = {120, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    s.zero = stage;
    const double per_param = ModelStates(Train(s)) / psi;  // bytes per parameter per GPU
    INFO("ZeRO-" << stage);
    CHECK(per_param * 7.5e9 / 1e9 == Approx(paper[stage]).epsilon(0.03));
  }
}

TEST_CASE("pure BF16 halves the model states - optimizer in backward drops the gradient buffer", "[training]") {
  Scenario s;
  s.model = "llama-2-7b";
  s.gpu = "h100-sxm";
  const double psi = CountParams(*Cat().FindModel(s.model)).total;
  CHECK(ModelStates(Train(s)) / psi == Approx(16));
  s.master = 0;  // 2 weights + 2 gradients + 2 × 2 BF16 moments
  CHECK(ModelStates(Train(s)) / psi == Approx(8));
  s.opt_in_bwd = 1;
  const TrainEstimate e = Train(s);
  CHECK(e.terms[1].bytes == Approx(psi * 2 / 32));  // one of 32 layers' gradients
}

TEST_CASE("LoRA and QLoRA: frozen base, adapters with their optimizer - QLoRA's base in NF4", "[training]") {
  Scenario s;
  s.model = "llama-2-7b";
  s.gpu = "a100-sxm-80gb";
  s.context = 512;
  s.method = "lora";
  const TrainEstimate lora = Train(s);
  CHECK(lora.trainable_params > 0);
  CHECK(lora.trainable_params < 0.01 * lora.total_params);
  s.method = "qlora";
  const TrainEstimate q = Train(s);
  CHECK(q.terms[0].bytes < 0.35 * lora.terms[0].bytes);  // ~4.1 vs 16 bits per frozen weight
  s.method = "full";
  const TrainEstimate full = Train(s);
  CHECK(ModelStates(full) > 10 * ModelStates(q));
}

TEST_CASE("LoRA targets and layers, and an 8-bit frozen base", "[training]") {
  Scenario s;
  s.model = "llama-2-7b";  // MHA, h 4096, MLP 11008, 32 layers
  s.gpu = "a100-sxm-80gb";
  s.method = "lora";
  s.lora_rank = 8;
  s.lora_targets = "qv";
  // Hu et al. 2021 count: r × (in + out) per matrix, q and v of 32 layers = 8 × 2 × 8192 × 32.
  CHECK(Train(s).trainable_params == Approx(8.0 * 2 * 8192 * 32));
  s.lora_targets = "attention";
  CHECK(Train(s).trainable_params == Approx(8.0 * 4 * 8192 * 32));
  s.lora_targets = "all-linear";
  const TrainEstimate all = Train(s);
  CHECK(all.trainable_params == Approx(8.0 * (4 * 8192 + 3 * (4096 + 11008)) * 32));
  s.lora_layers = 8;  // the last 8 of 32 layers: a quarter of the adapters and of the stored activations
  const TrainEstimate last = Train(s);
  CHECK(last.trainable_params == Approx(all.trainable_params / 4));
  // (the one-layer backward workspace of eager kernels, 2h + 6I per token, does not scale)
  const double workspace = static_cast<double>(s.context * s.micro_batch) * (2 * 4096 + 6 * 11008);
  CHECK(last.terms[4].bytes - workspace == Approx((all.terms[4].bytes - workspace) / 4));
  CHECK(last.flops_per_token < all.flops_per_token);
  s.lora_layers = 0;
  s.weights = "llm-int8";
  CHECK(Train(s).terms[0].bytes < 0.55 * all.terms[0].bytes);
  s.weights = "no-such-format";
  CHECK_FALSE(EstimateTraining(Cat(), s).ok());
}

TEST_CASE("hybrid sharding shards inside a group and replicates across groups", "[training]") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.gpu = "h100-sxm";
  s.zero = 3;
  s.dp = 8;
  const double eight = ModelStates(Train(s));
  s.dp = 64;
  s.shard_group = 8;
  const TrainEstimate hybrid = Train(s);
  CHECK(ModelStates(hybrid) == Approx(eight));
  s.shard_group = 0;
  CHECK(ModelStates(Train(s)) == Approx(eight / 8));
  // The sharded collectives stay on NVLink inside the node: less exposed communication than
  // sharding over all 64 GPUs across InfiniBand.
  CHECK(hybrid.step_comm_s <= Train(s).step_comm_s);
}

TEST_CASE("more GPUs than tp × pp × dp can mean is an error, not a negative GPU count", "[training]") {
  // Found by unit-sweep: each field is inside its limits, the product (2^34) is not an int, and
  // the estimate came back with -2147483648 GPUs and negative times and costs.
  Scenario s;
  s.gpu = "h100-sxm";
  s.tp = 4096;
  s.pp = 64;
  s.dp = 65536;
  const Result<TrainEstimate> e = EstimateTraining(Cat(), s);
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.error(), Catch::Matchers::StartsWith("scenario: tp × pp × dp"));
  s.dp = 64;  // 2^24 GPUs: still an estimate
  const TrainEstimate big = Train(s);
  CHECK(big.gpus == 16777216);
  CHECK(big.step_s > 0);
  CHECK(big.cloud_usd >= 0);
}

TEST_CASE("strong scaling at a fixed global batch loses efficiency as accumulation shrinks", "[training]") {
  Scenario s;
  s.model = "llama-3-8b";
  s.gpu = "h100-sxm";
  s.context = 2048;
  s.zero = 1;
  s.global_batch = 512;
  const std::vector<ScalingPoint> curve = TrainingScaling(Cat(), s, 1024);
  REQUIRE(curve.size() == 10);  // 1 .. 512 GPUs; 1024 × 1 sequence would exceed the batch
  CHECK(curve.front().efficiency == Approx(1));
  for (size_t i = 1; i < curve.size(); ++i) {
    CHECK(curve[i].efficiency <= curve[i - 1].efficiency + 1e-12);
    CHECK(curve[i].tokens_per_s >= curve[i - 1].tokens_per_s);
  }
  CHECK(curve.back().efficiency < 0.6);
  s.dp = 8;
  const TrainEstimate e = Train(s);
  CHECK(e.accumulation_steps == 64);
  CHECK(e.global_batch_tokens == 512.0 * 2048);
  s.global_batch = 4;  // smaller than dp × micro-batch: one micro-step, with a warning
  const TrainEstimate small = Train(s);
  CHECK(small.accumulation_steps == 1);
  CHECK_FALSE(small.warnings.empty());
}

TEST_CASE("activations: recomputation and flash attention shrink them - the verdict suggests fixes", "[training]") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  s.context = 8192;
  s.micro_batch = 4;
  s.flash = 0;
  const double eager = Train(s).terms[4].bytes;
  s.flash = 1;
  const double flash = Train(s).terms[4].bytes;
  s.recompute = "full";
  const double full = Train(s).terms[4].bytes;
  CHECK(eager > flash);
  CHECK(full < flash / 10);
  s.recompute = "none";
  const TrainEstimate e = Train(s);  // 8B full fine-tune on one H100: 16 B/param alone is 128 GB
  CHECK_FALSE(e.fits);
  CHECK_FALSE(e.suggestions.empty());
}

// A gated layer counted tensor by tensor: eager PyTorch keeps the norms' FP32 copies and all four
// MLP products (16h + 4q + 4kv + 8I bytes per token), fused kernels the matmul inputs only
// (12h + 4kv + 4I for q = h), plus eager's one-layer backward workspace (2h + 6I).
TEST_CASE("kernels: eager and fused layers keep what autograd saves - k-bit preparation upcasts the tables",
          "[training]") {
  Scenario s;
  s.model = "llama-3.1-8b";  // h 4096, q 4096, kv 1024, I 14336, 32 layers
  s.gpu = "h100-sxm";
  s.context = 4096;
  s.micro_batch = 1;
  auto activations = [&](const Scenario& x) {
    for (const Term& t : Train(x).terms)
      if (t.key == "activations") return t.bytes;
    return -1.0;
  };
  const double tokens = 4096, h = 4096, kv = 1024, ffn = 14336;
  s.kernels = "eager";
  CHECK(activations(s) == Approx(tokens * 32 * (16 * h + 4 * kv + 8 * ffn) + tokens * (2 * h + 6 * ffn)));
  s.kernels = "fused";
  CHECK(activations(s) == Approx(tokens * 32 * (12 * h + 4 * kv + 4 * ffn)));

  // QLoRA: the NF4 base keeps its 16-bit tables; PEFT's k-bit preparation makes them FP32.
  s.method = "qlora";
  s.recompute = "full";
  s.kernels = "eager";
  const TrainEstimate plain = Train(s);
  s.kbit_prep = 1;
  const TrainEstimate prepared = Train(s);
  const double tables = CountParams(*Cat().FindModel("llama-3.1-8b")).embedding;
  CHECK(prepared.terms[0].bytes - plain.terms[0].bytes == Approx(tables * 2));
  CHECK(prepared.terms[0].formula.find("FP32: k-bit preparation") != std::string::npos);
  CHECK(prepared.warnings.size() == plain.warnings.size());
  s.method = "full";
  const TrainEstimate full = Train(s);
  CHECK(std::any_of(full.warnings.begin(), full.warnings.end(),
                    [](const std::string& w) { return w.find("kbit-prep applies") != std::string::npos; }));
}

// The seed (gpu-hardware-guide-for-ai.ja.txt): Llama 3 8B on 8 × A100 for 100 B tokens takes
// "7-10 days" and $6,291 at p4d's $32.77/h. At the MFU the step model predicts (and at the 38-43%
// Llama 3 reported) it takes about a month or more; the seed's days would need an MFU above 100%.
TEST_CASE("the seeds' Llama 3 8B / 8 x A100 / 100 B tokens example", "[training][reference]") {
  Scenario s;
  s.model = "llama-3-8b";
  s.gpu = "a100-sxm-80gb";
  s.dp = 8;
  s.zero = 3;
  s.context = 4096;
  s.tokens = 1e11;
  const TrainEstimate e = Train(s);
  const double days = e.seconds / 86400;
  CHECK(e.mfu == e.mfu_predicted);
  CHECK(e.mfu > 0.3);
  CHECK(e.mfu < 0.75);
  CHECK(days > 20);
  CHECK(days < 90);
  CHECK(MfuForDays(e, 10) > 1.0);
  CHECK(MfuForDays(e, 10) == Approx(e.mfu * days / 10));
  CHECK(MfuForDays(e, days) == Approx(e.mfu));
  CHECK(MfuForDays(e, 0) == 0);
  // 6·N·D alone: 6 × 8.03e9 × 1e11 = 4.8e21 FLOPs.
  CHECK(e.flops_6nd_per_token * s.tokens == Approx(6 * CountParams(*Cat().FindModel("llama-3-8b")).active * 1e11));
  CHECK(e.flops_per_token > e.flops_6nd_per_token);
  s.recompute = "full";  // hardware FLOPs count the recomputed forward
  CHECK(Train(s).hardware_flops_per_token > Train(s).flops_per_token);
  s.recompute = "none";
  // An MFU given is end to end: the time is the model FLOPs at that MFU, nothing added.
  s.mfu = 0.4;
  const TrainEstimate given = Train(s);
  CHECK(given.mfu == 0.4);
  CHECK(given.seconds == Approx(s.tokens * given.flops_per_token / (8 * 312e12 * 0.4)).epsilon(1e-9));
}

TEST_CASE("the training estimator against published numbers", "[training][reference]") {
  Result<std::vector<TrainCaseResult>> r =
      RunTrainingReference(Cat(), test::ReadTestFile("reference/training_measurements.json"));
  REQUIRE(r.ok());
  // Errors as max(r, 1/r) - 1. The throughput kinds (an MFU, TFLOP/s or tokens/s per GPU, all
  // compared as tokens/s per GPU) are pooled as "throughput".
  auto pooled = [](const std::string& kind) {
    return kind == "mfu" || kind == "tflops_per_gpu" || kind == "tokens_per_s_per_gpu" ? std::string("throughput")
                                                                                       : kind;
  };
  std::map<std::string, std::vector<double>> errors;
  std::vector<const TrainCaseResult*> throughput;
  int ran = 0;
  for (const TrainCaseResult& c : *r) {
    if (!c.ran) {
      std::printf("%-56s %-26s skipped: %s\n", c.id.c_str(), c.kind.c_str(), c.skipped.c_str());
      continue;
    }
    ++ran;
    errors[pooled(c.kind)].push_back(std::max(c.ratio, 1 / c.ratio) - 1);
    if (pooled(c.kind) == "throughput") throughput.push_back(&c);
    std::printf("%-56s %-26s measured %-12.4g estimated %-12.4g ratio %.3f", c.id.c_str(), c.kind.c_str(), c.measured,
                c.estimated, c.ratio);
    if (c.floor > 0) std::printf("  largest moment %.4g", c.floor);
    std::printf("\n");
  }
  // Peak memory as a band: the largest single moment (a floor for the tensors counted) to the sum
  // of the terms (their ceiling). Where the measurements fall says how the band can be read.
  int below = 0, within = 0, above = 0;
  for (const TrainCaseResult& c : *r)
    if (c.ran && c.floor > 0) {
      CHECK(c.floor <= c.estimated * (1 + 1e-12));
      (c.measured < c.floor * 0.98 ? below : c.measured > c.estimated * 1.02 ? above : within)++;
    }
  std::printf("peak_memory_gb band [largest moment, sum of terms] ±2%%: %d below, %d within, %d above\n", below, within,
              above);
  auto quantile = [](std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
  };
  for (auto& [kind, e] : errors)
    std::printf("%-28s %3zu cases, median error %6.1f%%, p90 %6.1f%%\n", kind.c_str(), e.size(), 100 * quantile(e, 0.5),
                100 * quantile(e, 0.9));

  // The step model's one fitted factor (TrainingStepFactor) is the median of measured over
  // predicted without it: the stored value must be that median, and the errors that count are
  // leave-one-source-out, each source's runs predicted with the factor fitted on the others.
  const double factor = TrainingStepFactor();
  std::vector<double> raw;
  for (const TrainCaseResult* c : throughput) raw.push_back(c->ratio * factor);
  CHECK(quantile(raw, 0.5) == Approx(factor).margin(0.01));
  std::vector<double> loso;
  std::map<std::string, int> sources;
  for (const TrainCaseResult* c : throughput) {
    std::vector<double> others;
    for (const TrainCaseResult* o : throughput)
      if (o->source != c->source) others.push_back(o->ratio * factor);
    REQUIRE_FALSE(others.empty());
    const double ratio = c->ratio * factor / quantile(others, 0.5);
    loso.push_back(std::max(ratio, 1 / ratio) - 1);
    ++sources[c->source];
  }
  std::printf("throughput, leave-one-source-out: %zu cases from %zu sources, median error %.1f%%, p90 %.1f%%\n",
              loso.size(), sources.size(), 100 * quantile(loso, 0.5), 100 * quantile(loso, 0.9));
  // The band the reports state (TrainingBand): p10 and p90 of measured / predicted, leave one
  // source out, as stored.
  std::vector<double> ratios;
  for (const TrainCaseResult* c : throughput) {
    std::vector<double> others;
    for (const TrainCaseResult* o : throughput)
      if (o->source != c->source) others.push_back(o->ratio * factor);
    ratios.push_back(c->ratio * factor / quantile(others, 0.5));
  }
  std::printf("band: p10 %.3f, p90 %.3f\n", quantile(ratios, 0.1), quantile(ratios, 0.9));
  CHECK(TrainingBand().first == Approx(quantile(ratios, 0.1)).margin(0.02));
  CHECK(TrainingBand().second == Approx(quantile(ratios, 0.9)).margin(0.02));
  CHECK(ran >= 100);
  CHECK(sources.size() >= 8);
  // Recorded 2026-12-03 with a margin: a change that makes them worse fails. Model states and
  // activation formulas are exact; whole-run GPU-hours (model cards) hold restarts, evaluation
  // and a layout the cards do not give, so the step model's one-GPU time falls short of them;
  // fine-tuning peak memory uses each table's recipe as its config and launch flags set it.
  auto median = [&](const std::string& k) { return quantile(errors[k], 0.5); };
  auto p90 = [&](const std::string& k) { return quantile(errors[k], 0.9); };
  CHECK(errors["model_states_gb_per_gpu"].size() >= 30);
  CHECK(median("model_states_gb_per_gpu") <= 0.01);
  CHECK(p90("model_states_gb_per_gpu") <= 0.03);
  CHECK(p90("activation_bytes_per_layer") <= 0.01);
  CHECK(quantile(loso, 0.5) <= 0.13);  // recorded 11.7% (43 runs, 9 sources)
  CHECK(quantile(loso, 0.9) <= 0.56);  // recorded 51.0%: fine-grained MoE and small FP8 runs
  CHECK(median("gpu_hours") <= 0.9);   // recorded 79%
  // Peak memory: rows of unpacked datasets (their batch lengths vary) and configs that cannot be
  // the one measured are skipped with the reason; rows whose settings had to be guessed are
  // counted apart ("settings inferred": torchtune's 3.1 table, whose 4090 and A6000 rows differ
  // twofold under one stated setting, and axolotl's 70B FSDP QLoRA). The remaining p90 is FSDP
  // QLoRA with CPU offload (20 GB measured where the model leaves 12 GB) and the 405B QLoRA run
  // (measured 0.73 of the estimate: its full cross-entropy runs on torchtune's BF16 logits, which
  // the model counts as Hugging Face's FP32). Compiled chunked cross-entropy (no FP32 chunk)
  // brought the p90 from 37.0% to 24.9%; comparing a table of PyTorch's active bytes (a
  // high-water mark of live tensors) with the largest moment rather than the sum of the terms at
  // their largest brought the median from 10.6% to 7.1%.
  CHECK(errors["peak_memory_gb"].size() >= 17);
  CHECK(median("peak_memory_gb") <= 0.09);  // recorded 7.1% (17 cases); target 10%
  CHECK(p90("peak_memory_gb") <= 0.26);     // recorded 24.9%; target 25%
  CHECK(errors["max_context_tokens"].size() >= 15);
  CHECK(median("max_context_tokens") <= 0.14);  // recorded 12.1% (17 cases)
  CHECK(p90("max_context_tokens") <= 0.25);     // recorded 22.4%
}

// The seeds' training table: 8 bytes per parameter "plus activations" against mixed-precision
// AdamW's 16, and the GPUs really needed.
TEST_CASE("the seeds' training table, recomputed with the real terms", "[training][reference]") {
  const nlohmann::json ref = nlohmann::json::parse(test::ReadTestFile("reference/seed_training_table.json"));
  for (const auto& row : ref["rows"]) {
    INFO("seed line " << row["line"].get<int>() << ": " << row["label"].get<std::string>());
    const double psi = row["nominal_params"].get<double>();
    CHECK(psi * 2 / 1e9 == Approx(row["seed_params_gb"].get<double>()).epsilon(0.01));    // FP16 weights, GB
    CHECK(psi * 8 / 1e9 == Approx(row["seed_training_gb"].get<double>()).epsilon(0.03));  // "x 4": 8 B/param
    const std::string model = row["model"].get<std::string>();
    if (model.empty()) {
      CHECK(psi * 16 / (80e9) >= 200);  // 1T: the states alone need 200 GPUs of 80 GB
      continue;
    }
    Scenario s;
    s.model = model;
    s.gpu = ref["gpu"].get<std::string>();
    s.context = ref["context"].get<long long>();
    s.zero = 3;
    s.recompute = "full";
    auto fewest = [&](int tp) {
      s.tp = tp;
      for (int dp = 1; dp <= 1024; dp *= 2) {
        s.dp = dp;
        if (Train(s).fits) return tp * dp;
      }
      return 0;
    };
    CHECK(fewest(1) == row["fewest_gpus"].get<int>());
    if (row.contains("fewest_gpus_tp8")) CHECK(fewest(8) == row["fewest_gpus_tp8"].get<int>());
    // Mixed-precision AdamW model states: 16 bytes per counted parameter, twice the seed's 8.
    s.tp = 1;
    s.dp = 1;
    s.zero = 0;
    CHECK(ModelStates(Train(s)) / CountParams(*Cat().FindModel(model)).total == Approx(16));
  }
}
