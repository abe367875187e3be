// Speed, cost, compare and the calibration against published measurements
// (tests/reference/inference_measurements.json).
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpuplan/calibrate.h"
#include "gpuplan/ceilings.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/records.h"
#include "gpuplan/speed.h"
#include "gpuplan/units.h"
#include "gpuplan/workload.h"
#include "support.h"

using namespace gpuplan;
using gpuplan::test::Cat;

namespace {

SpeedEstimate Speed(const Scenario& s) {
  Result<MemoryEstimate> m = EstimateMemory(Cat(), s);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  Result<SpeedEstimate> e = EstimateSpeed(Cat(), s, m.value());
  INFO((e.ok() ? std::string() : e.error()));
  REQUIRE(e.ok());
  return e.value();
}

std::vector<ReferenceCase> Reference() {
  Result<std::vector<ReferenceCase>> cases = ParseReferenceCases(test::ReadTestFile("reference/inference_measurements.json"));
  INFO((cases.ok() ? std::string() : cases.error()));
  REQUIRE(cases.ok());
  return cases.value();
}

}  // namespace

TEST_CASE("decode is the weights read over the bandwidth, with the work shown") {
  Scenario s;
  s.model = "llama-2-7b";
  s.weights = "q4_0";
  s.engine = "llama.cpp";
  s.gpu = "rtx-4090";
  s.prompt = 1;
  s.context = 129;
  const SpeedEstimate e = Speed(s);
  CHECK(e.decode.bound == "memory");
  // Weights streamed per token: every parameter but the input embedding, at Q4_0's
  // whole-model 4.64 bits (quant.json).
  const ParamCount p = CountParams(*Cat().FindModel("llama-2-7b"));
  const double weights = (p.active - p.input_embedding) * 4.64 / 8;
  REQUIRE(e.decode.terms[0].key == "weights_read");
  // Over the attainable bandwidth: the published copy measurements on an RTX 4090 (912 GB/s of
  // 1008, ceilings.json), times the engine's efficiency.
  CHECK(e.memory_ceiling.own);
  CHECK(e.memory_ceiling.fraction == Approx(912.0 / 1008).epsilon(1e-6));
  CHECK(e.decode.terms[0].seconds == Approx(weights / (1008e9 * e.memory_ceiling.fraction * e.eta_bw)).epsilon(1e-9));
  CHECK(e.tokens_per_s_user == Approx(1 / e.decode.seconds));
  CHECK(e.compute_precision == "int8");
  for (const TimeTerm& t : e.decode.terms) CHECK_FALSE(t.formula.empty());
}

TEST_CASE("speed responds to batch, context, MoE, tensor parallelism and offload in the right direction") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  const SpeedEstimate one = Speed(s);
  s.batch = 32;
  const SpeedEstimate many = Speed(s);
  CHECK(many.tokens_per_s_total > 10 * one.tokens_per_s_total);  // weights shared by the batch
  CHECK(many.tokens_per_s_user < one.tokens_per_s_user);
  s.batch = 1;
  s.context = 65536;
  s.prompt = 32768;
  CHECK(Speed(s).tokens_per_s_user < one.tokens_per_s_user);  // longer KV read

  Scenario moe;
  moe.model = "mixtral-8x7b";
  moe.gpu = "h100-sxm";
  moe.tp = 2;
  const SpeedEstimate m1 = Speed(moe);
  CHECK(m1.experts_touched == Approx(2.0 / 8));
  moe.batch = 64;
  CHECK(Speed(moe).experts_touched > 0.99);

  Scenario tp;
  tp.model = "llama-3.1-70b";
  tp.weights = "fp8";
  tp.gpu = "h100-sxm";
  tp.tp = 2;
  const SpeedEstimate two = Speed(tp);
  tp.tp = 4;
  const SpeedEstimate four = Speed(tp);
  CHECK(four.tokens_per_s_user > two.tokens_per_s_user);
  bool has_all_reduce = false;
  for (const TimeTerm& t : four.decode.terms) has_all_reduce = has_all_reduce || (t.key == "all_reduce" && t.seconds > 0);
  CHECK(has_all_reduce);
  CHECK(four.link_name == "NVLink 4");

  Scenario off;
  off.model = "llama-3.1-70b";
  off.weights = "q4_k_m";
  off.engine = "llama.cpp";
  off.gpu = "rtx-4090";
  off.context = 4096;
  off.prompt = 512;
  off.gpu_layers = 40;
  Result<MemoryEstimate> mem = EstimateMemory(Cat(), off);
  REQUIRE(mem.ok());
  CHECK(mem->layers_on_gpu == 40);
  CHECK(mem->host_bytes > 15e9);
  CHECK(mem->fits);
  const SpeedEstimate slow = Speed(off);
  CHECK(slow.decode.bound == "host memory");
  CHECK(slow.tokens_per_s_user < 5);  // ~20 GB from host RAM at ~90 GB/s
}

TEST_CASE("pipeline parallelism splits the layers: less memory per GPU, the same single-stream speed") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.weights = "fp8";
  s.gpu = "h100-sxm";
  s.tp = 2;
  Result<MemoryEstimate> one = EstimateMemory(Cat(), s);
  s.pp = 2;
  Result<MemoryEstimate> two = EstimateMemory(Cat(), s);
  REQUIRE((one.ok() && two.ok()));
  // 80 layers over 2 stages: half the layers' weights, plus the larger embedding table.
  CHECK(two->terms[0].bytes < 0.6 * one->terms[0].bytes);
  CHECK(two->terms[1].bytes == Approx(one->terms[1].bytes / 2));
  s.pp = 1;
  const SpeedEstimate tp = Speed(s);
  s.pp = 2;
  const SpeedEstimate pp = Speed(s);
  CHECK(pp.tokens_per_s_user <= tp.tokens_per_s_user);           // a token still passes every layer
  CHECK(pp.tokens_per_s_user > 0.9 * tp.tokens_per_s_user);      // plus one small hand-off
  s.batch = 32;
  const SpeedEstimate busy = Speed(s);
  CHECK(busy.tokens_per_s_total > 16 * pp.tokens_per_s_user);    // two micro-batches in flight
  const CostEstimate c = EstimateCost(Cat(), s, busy);
  CHECK(c.power_w == Approx(4 * 700));                           // 2 GPUs × 2 stages
}

TEST_CASE("expert parallelism places whole experts and trades MLP all-reduces for all-to-alls") {
  Scenario s;
  s.model = "mixtral-8x7b";
  s.gpu = "h100-sxm";
  s.tp = 4;
  Result<MemoryEstimate> tp = EstimateMemory(Cat(), s);
  s.ep = 1;
  Result<MemoryEstimate> ep = EstimateMemory(Cat(), s);
  REQUIRE((tp.ok() && ep.ok()));
  CHECK(ep->terms[0].bytes == Approx(tp->terms[0].bytes));  // 8 experts over 4 GPUs: 2 each either way
  s.tp = 3;
  Result<MemoryEstimate> uneven = EstimateMemory(Cat(), s);
  s.ep = 0;
  Result<MemoryEstimate> split = EstimateMemory(Cat(), s);
  REQUIRE((uneven.ok() && split.ok()));
  CHECK(uneven->terms[0].bytes > split->terms[0].bytes);  // ceil(8/3) = 3 experts on the fullest GPU
  s.tp = 4;
  s.ep = 1;
  s.batch = 16;
  const SpeedEstimate e = Speed(s);
  bool a2a = false;
  for (const TimeTerm& t : e.decode.terms) a2a = a2a || (t.key == "all_to_all" && t.seconds > 0);
  CHECK(a2a);
  Scenario dense;
  dense.ep = 1;
  dense.tp = 2;
  Result<MemoryEstimate> d = EstimateMemory(Cat(), dense);
  REQUIRE(d.ok());
  CHECK(d->warnings.back().find("no experts") != std::string::npos);
}

TEST_CASE("llama.cpp's row split reads the dense weights at once but pays launches per GPU and matmul") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.weights = "q4_k_m";
  s.gpu = "rtx-4090";
  s.engine = "llama.cpp";
  s.tp = 4;
  s.prompt = 512;
  s.context = 640;
  const SpeedEstimate layer = Speed(s);
  CHECK(layer.split == MultiGpuMode::kLayerSplit);  // the engine's default (auto)
  s.split = "row";
  const SpeedEstimate row = Speed(s);
  CHECK(row.split == MultiGpuMode::kRowSplit);
  double row_sync = 0;
  for (const TimeTerm& t : row.decode.terms) row_sync += t.key == "row_sync" ? t.seconds : 0;
  CHECK(row_sync > 0);
  // Weights read in parallel: the memory part of the step shrinks 4x ...
  CHECK(row.decode.memory_s < layer.decode.memory_s / 3);
  // ... but on 4 RTX 4090s the launches per GPU and matmul cost more than that saves: llama.cpp
  // PR #19378 measured row / layer = 0.83 for decode and 0.23 for a 512-token prompt.
  const double decode_ratio = row.tokens_per_s_user / layer.tokens_per_s_user;
  const double prefill_ratio = row.prefill_tokens_per_s / layer.prefill_tokens_per_s;
  CHECK(decode_ratio == Approx(0.83).epsilon(0.15));
  CHECK(prefill_ratio == Approx(0.23).epsilon(0.4));
  // Memory per GPU is the layer split's: each GPU holds whole layers' KV cache.
  Result<MemoryEstimate> m_row = EstimateMemory(Cat(), s);
  s.split = "auto";
  Result<MemoryEstimate> m_layer = EstimateMemory(Cat(), s);
  REQUIRE((m_row.ok() && m_layer.ok()));
  CHECK(m_row->terms[1].bytes == Approx(m_layer->terms[1].bytes));
  CHECK(m_row->kv_heads_per_gpu == 8);
  // An engine without the mode keeps its own, and says so; a mode with a note carries it.
  s.engine = "vllm";
  s.weights = "bf16";
  s.split = "row";
  const SpeedEstimate v = Speed(s);
  CHECK(v.split == MultiGpuMode::kTensorParallel);
  bool said = false;
  for (const std::string& w : v.warnings) said = said || w.find("has no row-split") != std::string::npos;
  CHECK(said);
  bool noted = false;
  for (const std::string& w : row.warnings) noted = noted || w.find("PR #24216") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("CUDA graphs off: every kernel pays the eager launch again, and no graph pool is held") {
  Scenario s;
  s.model = "llama-3-8b";
  s.gpu = "h100-sxm";
  const SpeedEstimate graphs = Speed(s);
  Result<MemoryEstimate> with_pool = EstimateMemory(Cat(), s);
  s.graphs = 0;
  const SpeedEstimate eager = Speed(s);
  Result<MemoryEstimate> without_pool = EstimateMemory(Cat(), s);
  REQUIRE((with_pool.ok() && without_pool.ok()));
  // Published pairs on Llama 7B/8B at batch 1: eager / graphs = 0.76-0.89 (SGLang PR #1401,
  // vLLM PR #1440).
  const double ratio = eager.tokens_per_s_user / graphs.tokens_per_s_user;
  CHECK(ratio > 0.7);
  CHECK(ratio < 0.92);
  CHECK(without_pool->kv_pool_bytes > with_pool->kv_pool_bytes);
  s.engine = "hf-transformers";  // eager already: said, and nothing changes
  const SpeedEstimate hf = Speed(s);
  CHECK(hf.warnings.back().find("no CUDA-graph mode") != std::string::npos);
}

TEST_CASE("DP attention: each GPU its own sequences' whole KV cache, the attention weights on every GPU") {
  Scenario s;
  s.model = "deepseek-r1";
  s.weights = "fp8";
  s.gpu = "h200-sxm";
  s.tp = 8;
  s.engine = "sglang";
  s.batch = 16;
  Result<MemoryEstimate> tp = EstimateMemory(Cat(), s);
  s.split = "dp-attention";
  Result<MemoryEstimate> dpa = EstimateMemory(Cat(), s);
  REQUIRE((tp.ok() && dpa.ok()));
  // MLA's latent is replicated under tensor parallelism: 16 sequences' cache on every GPU; with
  // DP attention each GPU holds its 2 sequences' (SGLang docs: DPA removes the duplication).
  CHECK(dpa->terms[1].bytes == Approx(tp->terms[1].bytes / 8));
  CHECK(dpa->max_batch > 5 * tp->max_batch);
  // The attention weights (~11 B params of DeepSeek-R1) are whole on every GPU.
  const double extra = dpa->terms[0].bytes - tp->terms[0].bytes;
  CHECK(extra / kGiB > 5);
  CHECK(extra / kGiB < 15);
  const SpeedEstimate e = Speed(s);
  CHECK(e.split == MultiGpuMode::kDpAttention);
  bool gathers = false;
  for (const TimeTerm& t : e.decode.terms) gathers = gathers || t.name == "DP-attention gathers";
  CHECK(gathers);
  s.engine = "llama.cpp";  // no DP attention there: its default, and said so
  s.weights = "q4_k_m";
  const SpeedEstimate l = Speed(s);
  CHECK(l.split == MultiGpuMode::kLayerSplit);
}

TEST_CASE("a layer split gives each GPU whole layers' KV cache, MLA's latent included") {
  Scenario s;
  s.model = "deepseek-r1";
  s.weights = "q4_k_m";
  s.gpu = "h200-sxm";
  s.tp = 8;
  s.engine = "vllm";
  Result<MemoryEstimate> tp = EstimateMemory(Cat(), s);
  s.engine = "llama.cpp";
  Result<MemoryEstimate> layer = EstimateMemory(Cat(), s);
  REQUIRE((tp.ok() && layer.ok()));
  // Tensor parallelism replicates MLA's latent on every GPU; a layer split holds 1/8 of it.
  CHECK(layer->terms[1].bytes == Approx(tp->terms[1].bytes / 8));
}

TEST_CASE("engine profiles: vLLM caps memory, llama.cpp keeps the embedding in host RAM") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  Result<MemoryEstimate> v = EstimateMemory(Cat(), s);
  REQUIRE(v.ok());
  CHECK(v->usable_bytes == Approx(v->capacity_bytes * 0.92));
  // Activation peak of vLLM's profiling pass on an H100 (1,024 sequences: the sampler warm-up
  // over a 128k vocabulary), near vLLM 0.19's logged 1.89 GiB for Llama-3.1-8B at TP 1, 2 and 4.
  CHECK(v->terms[2].bytes / kGiB == Approx(1.89).epsilon(0.1));
  s.tp = 4;
  Result<MemoryEstimate> v4 = EstimateMemory(Cat(), s);
  REQUIRE(v4.ok());
  CHECK(v4->terms[2].bytes / kGiB == Approx(1.89).epsilon(0.1));
  // With NVLink, collective buffers join the runtime overhead (0.19: ~2.1 GiB non-torch at TP 4).
  CHECK(v4->terms[3].bytes > v->terms[3].bytes + 1.5 * kGiB);
  // vLLM >= 0.21 counts its CUDA graphs before the KV cache; 0.19 took them from the headroom.
  REQUIRE(v4->terms.size() == 5);
  CHECK(v4->terms[4].key == "cuda_graphs");
  s.engine = "vllm-0.19";
  Result<MemoryEstimate> old = EstimateMemory(Cat(), s);
  REQUIRE(old.ok());
  CHECK(old->terms.size() == 4);
  CHECK(old->usable_bytes == Approx(old->capacity_bytes * 0.9));
  s.engine = "vllm";
  s.tp = 1;
  s.mem_util = 0.5;
  CHECK(EstimateMemory(Cat(), s)->usable_bytes == Approx(v->capacity_bytes * 0.5));
  s.mem_util = 0;
  s.engine = "llama.cpp";
  Result<MemoryEstimate> l = EstimateMemory(Cat(), s);
  REQUIRE(l.ok());
  CHECK(l->terms[0].bytes < v->terms[0].bytes);
  CHECK(l->usable_bytes == l->capacity_bytes);
  s.prompt = 9000;  // longer than the context: capped, and said so
  Result<MemoryEstimate> capped = EstimateMemory(Cat(), s);
  REQUIRE(capped.ok());
  CHECK(capped->warnings.front().find("prompt") != std::string::npos);
}

TEST_CASE("cost per token follows from the price and the throughput") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  s.batch = 16;
  s.price_hour = 2.0;
  const SpeedEstimate e = Speed(s);
  const CostEstimate c = EstimateCost(Cat(), s, e);
  CHECK(c.cloud_per_m_output == Approx(2.0 / (e.tokens_per_s_total * 3600) * 1e6));
  s.buy_usd = 25000;
  const CostEstimate owned = EstimateCost(Cat(), s, e);
  CHECK(owned.owned_hour == Approx(25000 / (3 * 8760 * 0.5) + 0.7 * 1.3 * 0.15));
  CHECK(owned.break_even_months > 0);
}

TEST_CASE("cost: the cloud basis names the offer's own GPU count and the per-GPU rate, not the scenario's count") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.weights = "fp8";
  s.gpu = "rtx-4090";
  s.tp = 2;
  const CostEstimate c = EstimateCost(Cat(), s, Speed(s));
  INFO(c.cloud_basis);
  CHECK(c.cloud_basis.find("GPUs, $") == std::string::npos);
  CHECK(c.cloud_basis.find("1 GPUs") == std::string::npos);
  CHECK(c.cloud_basis.find(" per GPU-hour") != std::string::npos);
  CHECK(c.cloud_basis.find("for its 1 GPU (") != std::string::npos);
}

TEST_CASE("cost: spot with its overhead, a month of busy hours, break-even where the cumulative lines cross") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "rtx-4090";
  s.tp = 2;
  s.price_hour = 0.74;   // $ per GPU-hour
  s.buy_usd = 1599;      // $ per GPU
  s.utilization = 0.25;  // 182.5 busy hours a month
  s.spot_overhead = 0.2;
  s.kwh_usd = 0.30;
  s.pue = 1.5;
  const SpeedEstimate e = Speed(s);
  const CostEstimate c = EstimateCost(Cat(), s, e);
  CHECK(c.busy_hours_month == Approx(8760.0 / 12 * 0.25));
  CHECK(c.cloud_hour == Approx(1.48));
  CHECK(c.cloud_month == Approx(1.48 * 182.5));
  // 2 × 450 W × PUE 1.5 × $0.30/kWh = $0.405 per busy hour.
  CHECK(c.energy_hour == Approx(0.405));
  CHECK(c.amortised_month == Approx(2 * 1599 / 36.0));
  CHECK(c.owned_month == Approx(2 * 1599 / 36.0 + 0.405 * 182.5));
  CHECK(c.break_even_months == Approx(2 * 1599 / ((1.48 - 0.405) * 182.5)));
  if (c.spot_gpu_hour > 0) {
    CHECK(c.spot_effective_gpu_hour == Approx(c.spot_gpu_hour * 1.2));
    CHECK(c.spot_per_m_output == Approx(c.spot_hour / (e.tokens_per_s_total * 3600) * 1e6));
  }
  // The series: renting starts at 0, owning at the purchase; they cross at break-even.
  REQUIRE(c.months.size() == c.cloud_total.size());
  REQUIRE(c.months.size() == c.owned_total.size());
  CHECK(c.cloud_total.front() == 0);
  CHECK(c.owned_total.front() == Approx(2 * 1599));
  CHECK(c.months.back() >= c.break_even_months);
  for (size_t i = 0; i < c.months.size(); ++i) {
    INFO(c.months[i]);
    CHECK((c.cloud_total[i] < c.owned_total[i]) == (c.months[i] < c.break_even_months));
  }
  // A rent a hair above the energy: no overflow to infinity, and beyond 100 years is "never" (0).
  Scenario tiny = s;
  tiny.price_hour = 2.2250738585072014e-308;
  tiny.kwh_usd = 0;
  CHECK(EstimateCost(Cat(), tiny, e).break_even_months == 0);
  // Energy dearer than renting: buying never pays off, and says so with 0.
  s.kwh_usd = 10;
  CHECK(EstimateCost(Cat(), s, e).break_even_months == 0);
  // No price: no series, a warning naming the field.
  Scenario none = s;
  none.gpu = "h100-sxm";
  none.tp = 1;
  none.buy_usd = 0;
  const CostEstimate n = EstimateCost(Cat(), none, Speed(none));
  if (n.purchase_gpu == 0) {
    CHECK(n.owned_total.empty());
    CHECK(n.warnings.back().find("buy-usd") != std::string::npos);
  }
}

TEST_CASE("compare ranks the whole catalog - every number is finite") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.weights = "fp8";
  std::vector<CompareRow> rows = CompareCatalog(Cat(), s);
  CHECK(rows.size() == Cat().gpus.size());
  SortCompareRows(rows, "tokens_per_s_total");
  REQUIRE(rows.front().fits);
  for (size_t i = 1; i < rows.size(); ++i)
    if (rows[i].fits && rows[i].tokens_per_s_total > 0) CHECK(rows[i - 1].tokens_per_s_total >= rows[i].tokens_per_s_total);
  for (const CompareRow& r : rows) {
    CHECK(std::isfinite(r.tokens_per_s_total));
    CHECK(std::isfinite(r.usd_per_m_output));
    CHECK(r.tokens_per_s_total >= 0);
    if (r.fits) CHECK((r.gpus >= 1 && r.gpus <= kCompareMaxCount));
  }
  const auto h100 = std::find_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.gpu == "h100-sxm"; });
  REQUIRE(h100 != rows.end());
  // 67.7 GiB of FP8 weights (16-bit embeddings and LM head) plus vLLM's CUDA graphs, workspace
  // and an 8k KV cache pass its 0.92 cap on one 80 GB H100 (short by 3.4 GiB): two; one 141 GB
  // H200 holds it.
  CHECK(h100->gpus == 2);
  const auto h200 = std::find_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.gpu == "h200-sxm"; });
  REQUIRE(h200 != rows.end());
  CHECK(h200->gpus == 1);
}

// The reference set: published measurements with citations. Thresholds are the errors
// recorded when the efficiencies were fitted (2026-11-30) plus a margin; a change to the
// estimators that makes them worse fails here.
TEST_CASE("estimates stay within the recorded error against published measurements") {
  const std::vector<ReferenceCase> cases = Reference();
  const std::vector<CaseResult> results = RunReferenceCases(Cat(), cases);
  int ran = 0;
  for (const CaseResult& r : results) ran += r.ran;
  CHECK(ran >= 140);
  const ErrorStats memory = Summarise(results, "memory");
  const ErrorStats speed = Summarise(results, "speed");
  INFO("memory: n " << memory.n << ", median " << memory.median_abs_error << ", worst " << memory.worst_abs_error << " ("
                    << memory.worst_case << ")");
  INFO("speed: n " << speed.n << ", median " << speed.median_abs_error << ", worst " << speed.worst_abs_error << " ("
                   << speed.worst_case << ")");
  CHECK(memory.n >= 30);
  CHECK(speed.n >= 100);
  CHECK(memory.median_abs_error <= 0.03);  // recorded 1.1%
  CHECK(memory.worst_abs_error <= 1.30);   // recorded 123% (HF batch-16 peak; the source gives no sequence length)
  // recorded 18.3% on 105 cases; 21.4% on 109 since Apple GPUs have compute figures (their four
  // prefill cases now count: ratios 0.64-1.50) and device memory is the driver's (2026-12-01).
  // 17.3% since llama.cpp's and Transformers' multi-GPU runs are a layer split (the engines'
  // multi_gpu; 2026-12-01). 22.9% on 169 since issue 16 added 65 cases where the set was thin
  // (MoE on several GPUs, AMD, Apple/MLX, A10G/L4/L40S) and the per-layer constant became a
  // per-kernel cost over each layer type's kernels (2026-12-02); 19.9% once the efficiencies are
  // shares of the attainable (published copy/GEMM) ceilings and formats keep 16-bit embeddings.
  // 260 cases with three more Transformers sources (2026-12-02): decode 14.2%, prefill 18.7%.
  CHECK(speed.median_abs_error <= 0.24);
  CHECK(speed.worst_abs_error <= 5.5);     // recorded 386% (DeepSeek-R1 on 8 x H200, TensorRT-LLM, 4 concurrent users)
  // By kind: decode is the figure most users bring (recorded median 10%, worst 82%; 13.8% and
  // 386% with the MoE multi-GPU cases, 2026-12-02).
  const ErrorStats decode = Summarise(results, "speed", "", "decode_tps");
  CHECK(decode.median_abs_error <= 0.19);
  CHECK(decode.worst_abs_error <= 4.0);
  CHECK(Summarise(results, "speed", "", "prefill_tps").median_abs_error <= 0.45);    // recorded 43%
  // recorded 25%; 27.3% since device memory is the driver's total (2026-12-01): larger KV pools
  // moved the throughput estimates both ways; 32.3% on 40 cases with issue 16's (2026-12-02),
  // 35.4% once vLLM's decode on AMD GPUs has efficiencies of its own.
  CHECK(Summarise(results, "speed", "", "throughput_tps").median_abs_error <= 0.37);
}

TEST_CASE("the catalog's error bands are the ones the reference set implies") {
  const std::vector<ReferenceCase> cases = Reference();
  const Catalog recomputed = WithBands(Cat(), cases);
  for (const EngineProfile& e : Cat().engines) {
    const EngineProfile* r = recomputed.FindEngine(e.id);
    REQUIRE(r);
    INFO(e.id);
    for (auto [stored, fresh] : {std::pair{e.calibration.decode, r->calibration.decode},
                                 std::pair{e.calibration.prefill, r->calibration.prefill},
                                 std::pair{e.calibration.memory, r->calibration.memory}}) {
      CHECK(stored.lo == Approx(fresh.lo).margin(0.011));
      CHECK(stored.hi == Approx(fresh.hi).margin(0.011));
      CHECK(stored.cases == fresh.cases);
    }
  }
}

TEST_CASE("a band comes from the reference cases like the scenario, and says when none is near") {
  // DeepSeek-R1 on 8 x H200 with TensorRT-LLM: MoE decode on several NVIDIA GPUs has cases.
  SpeedEstimate near = Speed({.model = "deepseek-r1", .weights = "fp8", .gpu = "h200-sxm", .tp = 8, .engine = "tensorrt-llm"});
  CHECK(near.decode_band.basis.rfind("from ", 0) == 0);
  CHECK(near.decode_band.basis.find("MoE decode on several GPUs (nvidia)") != std::string::npos);
  // SGLang's cases are all DeepSeek on several GPUs: a dense model on one RTX 4090 is far from them.
  SpeedEstimate far = Speed({.model = "llama-3.1-8b", .gpu = "rtx-4090", .engine = "sglang"});
  CHECK(far.decode_band.basis.rfind("extrapolated: no reference case for dense decode on one GPU (nvidia)", 0) == 0);
  const EngineProfile* sglang = Cat().FindEngine("sglang");
  REQUIRE(sglang);
  CHECK(far.decode_band.lo <= sglang->calibration.decode.lo);
  CHECK(far.decode_band.hi >= sglang->calibration.decode.hi);
  CHECK(std::find(far.warnings.begin(), far.warnings.end(), far.decode_band.basis) != far.warnings.end());
}

TEST_CASE("a decode step's kernels are counted from the model's layer types") {
  const Model* llama = Cat().FindModel("llama-3.1-8b");
  const Model* r1 = Cat().FindModel("deepseek-r1");
  REQUIRE(llama);
  REQUIRE(r1);
  // Llama: attention 6 + dense MLP 4 per layer, 6 per step; 8-bit activations add a quantise
  // kernel per GEMM (4 per layer).
  CHECK(DecodeKernels(*llama, false).total == 32 * 10 + 6);
  CHECK(DecodeKernels(*llama, 1).total == 32 * 14 + 6);
  // bitsandbytes LLM.int8(): 5 more kernels per GEMM (quant.json extra_kernels_per_gemm).
  const WeightFormat* int8 = Cat().FindWeightFormat("llm-int8");
  REQUIRE(int8);
  CHECK(int8->extra_kernels_per_gemm == 5);
  CHECK(DecodeKernels(*llama, int8->extra_kernels_per_gemm).total == 32 * (10 + 5 * 4) + 6);
  const SpeedEstimate bnb = Speed({.model = "llama-3.1-8b", .weights = "llm-int8", .gpu = "a100-sxm-80gb", .engine = "hf-transformers"});
  CHECK(bnb.kernels.total == 32 * 30 + 6);
  // DeepSeek-R1: MLA 12 in every layer; 3 dense MLP layers (4), 58 MoE layers (8 + 3 shared).
  const KernelCount k = DecodeKernels(*r1, false);
  CHECK(k.moe_layers == 58);
  CHECK(k.total == 61 * 12 + 3 * 4 + 58 * 11 + 6);
}

TEST_CASE("attainable ceilings come from published measurements, borrowed from the GPU's kind or none") {
  const Gpu* h100 = Cat().FindGpu("h100-sxm");
  const Gpu* h100_pcie = Cat().FindGpu("h100-pcie");
  const Gpu* mi300x = Cat().FindGpu("mi300x");
  const Gpu* gaudi = Cat().FindGpu("gaudi2");
  REQUIRE((h100 && h100_pcie && mi300x && gaudi));
  // H100 SXM: BabelStream 2900 and 2970 of 3350 GB/s (Azure), median 0.877.
  const Attainable mem = AttainableMemory(Cat(), *h100);
  CHECK(mem.own);
  CHECK(mem.measurements == 2);
  CHECK(mem.fraction == Approx((2900.0 + 2970.0) / 2 / 3350).epsilon(1e-6));
  // MI300X's GEMMs reach a far smaller share of the datasheet than Hopper's.
  CHECK(AttainableGemm(Cat(), *mi300x, "fp8").fraction < 0.55);
  CHECK(AttainableGemm(Cat(), *h100, "fp8").fraction > 0.65);
  // H100 PCIe has no run of its own: the median of the other Hopper data-centre parts, said so.
  const Attainable borrowed = AttainableMemory(Cat(), *h100_pcie);
  CHECK_FALSE(borrowed.own);
  CHECK(borrowed.measurements >= 2);
  CHECK(borrowed.basis.find("not measured on NVIDIA H100 PCIe") != std::string::npos);
  // No Intel GPU has a measurement: the datasheet, said so.
  const Attainable none = AttainableMemory(Cat(), *gaudi);
  CHECK(none.fraction == 1);
  CHECK(none.measurements == 0);
  CHECK(none.basis.find("no published measurement") != std::string::npos);
  // GeForce cards boost above the datasheet's FP32-accumulate rate: capped at the datasheet.
  CHECK(AttainableGemm(Cat(), *Cat().FindGpu("rtx-4090"), "fp16").fraction == 1);
}

TEST_CASE("an all-reduce takes the measured bus bandwidth and latency of its GPUs and link") {
  const MeasuredAllReduce h100 = AllReduceMeasurements(Cat(), *Cat().FindGpu("h100-sxm"), 8);
  // vLLM's custom all-reduce at 512 B and 32 KB (10.1, 11.8 µs) and SGLang's (7.8 µs) on 8 x H100.
  CHECK(h100.latency_s == Approx(10.1e-6));
  CHECK(h100.bus_bytes_per_s == Approx(478.87e9));  // nccl-tests on 8 x H100
  // RTX 4090s over PCIe: nccl-tests' 42 µs at 8 B is the PCIe figure, also for 2 GPUs.
  const MeasuredAllReduce pcie = AllReduceMeasurements(Cat(), *Cat().FindGpu("rtx-3090"), 2);
  CHECK(pcie.latency_s == Approx(42.14e-6));
  CHECK(pcie.latency_basis.find("RTX 4090") != std::string::npos);
  CHECK(pcie.bus_bytes_per_s == 0);  // no bus bandwidth measured on RTX 3090s
}

TEST_CASE("a weight format's recipe keeps some tensors in other formats") {
  const Model* oss = Cat().FindModel("gpt-oss-120b");
  REQUIRE(oss);
  const ParamCount p = CountParams(*oss);
  // gpt-oss's checkpoint: only the routed experts in MXFP4 (4.25 bits), the rest BF16 (65 GB
  // of safetensors on Hugging Face).
  Scenario s{.model = "gpt-oss-120b", .weights = "mxfp4", .gpu = "h200-sxm"};
  Result<MemoryEstimate> m = EstimateMemory(Cat(), s);
  REQUIRE(m.ok());
  CHECK(m.value().terms[0].bytes == Approx(p.routed * 4.25 / 8 + (p.total - p.routed) * 2).epsilon(1e-9));
  CHECK(m.value().terms[0].bytes / 1e9 == Approx(65.2).epsilon(0.01));
  // FP8: the layers at 8 bits, the input embedding and the LM head at 16.
  const Model* llama = Cat().FindModel("llama-3.1-70b");
  REQUIRE(llama);
  const ParamCount q = CountParams(*llama);
  Scenario f{.model = "llama-3.1-70b", .weights = "fp8", .gpu = "h200-sxm"};
  Result<MemoryEstimate> mf = EstimateMemory(Cat(), f);
  REQUIRE(mf.ok());
  CHECK(mf.value().terms[0].bytes == Approx((q.total - q.embedding) * 1 + q.embedding * 2).epsilon(1e-9));
  CHECK(mf.value().terms[0].formula.find("input embedding and LM head at 16 bits") != std::string::npos);
  // A tied LM head is the embedding table: decode reads it every step.
  const Model* small = Cat().FindModel("llama-3.2-1b");
  REQUIRE(small);
  REQUIRE(small->tie_embeddings);
  const ParamCount t = CountParams(*small);
  Scenario tied{.model = "llama-3.2-1b", .prompt = 1, .gpu = "h100-sxm"};
  tied.context = 2;
  const SpeedEstimate e = Speed(tied);
  CHECK(e.decode.terms[0].key == "weights_read");
  const double read = e.decode.terms[0].seconds * e.bandwidth * e.memory_ceiling.fraction * e.eta_bw;
  CHECK(read == Approx(t.active * 2).epsilon(1e-6));
}

TEST_CASE("a case whose source leaves the GPU's form factor open runs on every candidate") {
  const std::string one = R"({"id":"x","kind":"decode_tps","engine":"hf-transformers","model":"llama-2-7b","weights":"fp16",
    "batch":1,"output_tokens":256,"measured":30,"unit":"tokens/s","source":{"url":"https://example.org/a"},)";
  Result<std::vector<ReferenceCase>> both = ParseReferenceCases(
      R"({"cases":[)" + one + R"("gpu_candidates":["a100-sxm-80gb","a100-pcie-80gb"]}]})");
  Result<std::vector<ReferenceCase>> sxm = ParseReferenceCases(R"({"cases":[)" + one + R"("gpu":"a100-sxm-80gb"}]})");
  Result<std::vector<ReferenceCase>> pcie = ParseReferenceCases(R"({"cases":[)" + one + R"("gpu":"a100-pcie-80gb"}]})");
  REQUIRE(both.ok());
  REQUIRE(sxm.ok());
  REQUIRE(pcie.ok());
  CHECK(both->front().gpu_candidates.size() == 2);
  const CaseResult a = RunReferenceCases(Cat(), *both).front(), b = RunReferenceCases(Cat(), *sxm).front(),
                   c = RunReferenceCases(Cat(), *pcie).front();
  REQUIRE(a.ran);
  REQUIRE(b.ran);
  REQUIRE(c.ran);
  CHECK(b.estimated != Approx(c.estimated));  // the two A100s differ in bandwidth
  CHECK(a.estimated == Approx(std::sqrt(b.estimated * c.estimated)));
  // An unknown candidate skips the case and names the GPU.
  Result<std::vector<ReferenceCase>> unknown =
      ParseReferenceCases(R"({"cases":[)" + one + R"("gpu_candidates":["a100-sxm-80gb","no-such-gpu"]}]})");
  REQUIRE(unknown.ok());
  const CaseResult u = RunReferenceCases(Cat(), *unknown).front();
  CHECK_FALSE(u.ran);
  CHECK(u.skipped.find("no-such-gpu") != std::string::npos);
}

TEST_CASE("llama.cpp's FP16 GEMMs accumulate in FP16 - twice the peak on GeForce, the same on Volta and data-centre parts") {
  const SpeedEstimate lcpp = Speed({.model = "llama-3.1-8b", .weights = "fp16", .gpu = "rtx-4090", .engine = "llama.cpp"});
  const SpeedEstimate vllm = Speed({.model = "llama-3.1-8b", .weights = "fp16", .gpu = "rtx-4090", .engine = "vllm"});
  const SpeedEstimate bf16 = Speed({.model = "llama-3.1-8b", .weights = "bf16", .gpu = "rtx-4090", .engine = "llama.cpp"});
  CHECK(lcpp.compute_precision == "fp16");
  CHECK(lcpp.peak_flops == Approx(330.3e12));  // the Ada whitepaper's FP16-accumulate rate
  CHECK(vllm.peak_flops == Approx(165.2e12));  // FP32 accumulate
  CHECK(bf16.peak_flops == Approx(165.2e12));  // BF16 GGUF weights: cuBLAS BF16, FP32 accumulate
  const SpeedEstimate h100 = Speed({.model = "llama-3.1-8b", .weights = "fp16", .gpu = "h100-sxm", .engine = "llama.cpp"});
  const SpeedEstimate h100v = Speed({.model = "llama-3.1-8b", .weights = "fp16", .gpu = "h100-sxm", .engine = "vllm"});
  CHECK(h100.peak_flops == Approx(h100v.peak_flops));
  const SpeedEstimate v100 = Speed({.model = "llama-3.1-8b", .weights = "fp16", .gpu = "v100-sxm2-32gb", .engine = "llama.cpp"});
  const SpeedEstimate v100v = Speed({.model = "llama-3.1-8b", .weights = "fp16", .gpu = "v100-sxm2-32gb", .engine = "vllm"});
  CHECK(v100.peak_flops == Approx(v100v.peak_flops));
}

TEST_CASE("engines with fused elementwise kernels fit no per-token prefill work") {
  for (const char* id : {"vllm", "vllm-0.19", "sglang", "tensorrt-llm"}) {
    const EngineProfile* e = Cat().FindEngine(id);
    REQUIRE(e);
    INFO(id);
    CHECK(e->fused_elementwise);
    CHECK(e->calibration.prefill_token_layer_s == 0);
  }
  for (const char* id : {"llama.cpp", "hf-transformers", "mlx"}) {
    const EngineProfile* e = Cat().FindEngine(id);
    REQUIRE(e);
    CHECK_FALSE(e->fused_elementwise);
  }
}

TEST_CASE("the microbenchmark ceilings are checked leave-one-source-out") {
  const std::vector<KindErrors> kinds = CeilingErrorTable(Cat());
  REQUIRE(kinds.size() == 2);
  for (const KindErrors& k : kinds) {
    INFO(k.kind << ": n " << k.stored.n << ", stored median " << k.stored.median_abs_error << ", held out "
                << k.held_out.n << " median " << k.held_out.median_abs_error << " p90 " << k.held_out.p90_abs_error);
    CHECK(k.stored.n >= 8);
    CHECK(k.held_out.n == k.stored.n);
    CHECK(std::isfinite(k.held_out.median_abs_error));
    // In: a GPU's fraction is the median of its own figures, close to each of them.
    CHECK(k.stored.median_abs_error <= 0.05);
    // Out: its kind's median stands in; recorded 2026-12-02 (see calibrate --loso).
    CHECK(k.held_out.median_abs_error <= 0.25);
    CHECK(k.held_out.median_abs_error >= k.stored.median_abs_error);
  }
}

TEST_CASE("a malformed reference file is an error naming the case") {
  CHECK_FALSE(ParseReferenceCases("not json").ok());
  Result<std::vector<ReferenceCase>> bad = ParseReferenceCases(R"({"cases":[{"id":"x","kind":"decode_tps","measured":-1}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().find("'x'") != std::string::npos);
}

// [SECTION] Workloads for the serving simulation (workload.h) ----------------------------------
TEST_CASE(
    "workloads: Poisson arrivals and length distributions have the asked-for means, the same for a seed everywhere",
    "[workload]") {
  WorkloadSpec w;
  w.requests = 20000;
  w.rate = 4;  // per second
  w.input = {LengthDist::Kind::kLognormal, 800, 1.0, 4, 32768};
  w.output = {LengthDist::Kind::kUniform, 0, 0, 50, 250};
  const Result<std::vector<Request>> r = GenerateRequests(w);
  REQUIRE(r.ok());
  REQUIRE(r->size() == 20000);
  double in = 0, out = 0;
  int out_lo = 1 << 30, out_hi = 0, in_lo = 1 << 30, in_hi = 0;
  bool in_order = true;
  for (size_t i = 0; i < r->size(); ++i) {
    const Request& q = (*r)[i];
    in_order = in_order && (i == 0 || q.arrival_s >= (*r)[i - 1].arrival_s);
    in += q.prompt, out += q.output;
    out_lo = std::min(out_lo, q.output), out_hi = std::max(out_hi, q.output);
    in_lo = std::min(in_lo, q.prompt), in_hi = std::max(in_hi, q.prompt);
  }
  CHECK(in_order);
  // 20,000 exponential gaps of mean 0.25 s: the last arrival near 5,000 s (sd ~0.7 %).
  CHECK_THAT(r->back().arrival_s, Catch::Matchers::WithinRel(5000.0, 0.03));
  CHECK_THAT(in / 20000, Catch::Matchers::WithinRel(800.0, 0.05));  // sigma 1: the cut barely moves the mean
  CHECK_THAT(out / 20000, Catch::Matchers::WithinRel(150.0, 0.02));
  CHECK(out_lo == 50);
  CHECK(out_hi == 250);
  CHECK(in_lo >= 4);
  CHECK(in_hi <= 32768);
  CHECK(in_hi > 5000);  // a long right tail

  // A seed gives one sequence on every platform: the first request of seed 1, natively and in
  // wasm (std::mt19937_64 is fixed by the standard; the transforms are the core's own).
  WorkloadSpec again = w;
  const Result<std::vector<Request>> r2 = GenerateRequests(again);
  REQUIRE(r2.ok());
  CHECK((*r2)[123].prompt == (*r)[123].prompt);
  CHECK((*r2)[123].arrival_s == (*r)[123].arrival_s);
  again.seed = 2;
  const Result<std::vector<Request>> r3 = GenerateRequests(again);
  REQUIRE(r3.ok());
  bool differs = false;
  for (size_t i = 0; i < 10; ++i) differs = differs || (*r3)[i].prompt != (*r)[i].prompt;
  CHECK(differs);
  std::mt19937_64 reference(1);
  const double u = static_cast<double>(reference() >> 11) * 0x1.0p-53;
  CHECK_THAT((*r)[0].arrival_s, Catch::Matchers::WithinRel(-std::log(1.0 - u) / 4, 1e-12));
  // The first requests of seed 1 as the native build draws them: the wasm build must agree.
  const int prompts[] = {290, 56, 1614, 262}, outputs[] = {54, 64, 161, 100};
  const double arrivals[] = {0.035931984290064556, 0.14397338055280365, 0.35487704688372845, 0.74462500488041528};
  for (size_t i = 0; i < 4; ++i) {
    CHECK((*r)[i].prompt == prompts[i]);
    CHECK((*r)[i].output == outputs[i]);
    CHECK_THAT((*r)[i].arrival_s, Catch::Matchers::WithinRel(arrivals[i], 1e-12));
  }

  // A closed loop: every request ready at time 0; fixed lengths exactly.
  WorkloadSpec closed;
  closed.requests = 10, closed.concurrency = 4;
  const Result<std::vector<Request>> c = GenerateRequests(closed);
  REQUIRE(c.ok());
  for (const Request& q : *c) CHECK((q.arrival_s == 0 && q.prompt == 512 && q.output == 128));
}

TEST_CASE("workloads: an impossible spec is refused with the field named", "[workload]") {
  auto error = [](WorkloadSpec w) {
    const Result<std::vector<Request>> r = GenerateRequests(w);
    return r.ok() ? std::string("accepted") : r.error();
  };
  WorkloadSpec w;
  w.rate = 1;
  CHECK(error([&] {
          auto x = w;
          x.requests = 0;
          return x;
        }())
            .rfind("requests:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.requests = kMaxWorkloadRequests + 1;
          return x;
        }())
            .rfind("requests:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.rate = -1;
          return x;
        }())
            .rfind("rate:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.rate = std::nan("");
          return x;
        }())
            .rfind("rate:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.rate = 0;
          x.concurrency = 0;
          return x;
        }())
            .rfind("concurrency:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.input = {LengthDist::Kind::kFixed, 0};
          return x;
        }())
            .rfind("input.mean:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.output = {LengthDist::Kind::kUniform, 0, 0, 100, 50};
          return x;
        }())
            .rfind("output.hi:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.input = {LengthDist::Kind::kLognormal, 500, -1, 1, 0};
          return x;
        }())
            .rfind("input.sigma:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.input = {LengthDist::Kind::kLognormal, 500, 1, 1, 1e30};
          return x;
        }())
            .rfind("input.lo/hi:", 0) == 0);
  CHECK(error([&] {
          auto x = w;
          x.input = {LengthDist::Kind::kFixed, INFINITY};
          return x;
        }())
            .rfind("input:", 0) == 0);
  CHECK(error(w) == "accepted");
}

// [SECTION] money in yen and euros --------------------------------------------------------
TEST_CASE("money: yen have no minor units, euros and dollars two - the symbol leads") {
  const Money usd, jpy{"JPY", 155.26, ""}, eur{"EUR", 0.8526, ""};
  CHECK(FormatMoney(1234.5, usd, 2) == "$1,235");  // thousands: whole units
  CHECK(FormatMoney(2.5, usd, 2) == "$2.50");
  CHECK(FormatMoney(2.5, jpy, 2) == "¥388");        // 388.15: no sen
  CHECK(FormatMoney(7951.9, jpy) == "¥1,234,612");  // 7,951.9 × 155.26 = 1,234,612.0
  CHECK(FormatMoney(0.0123, jpy, 2) == "¥2");
  CHECK(FormatMoney(0.0123, jpy, 4) == "¥1.91");
  CHECK(FormatMoney(2.5, eur, 2) == "€2.13");
  CHECK(FormatMoney(std::nan(""), jpy) == "n/a");
}

TEST_CASE("money: a yen offer keeps its yen - converted at the catalog's dated rate, or at the reader's own") {
  const FxRate* rate = Cat().LatestFx("JPY");
  REQUIRE(rate != nullptr);
  CHECK(rate->per_usd > 100);
  CHECK_FALSE(rate->source.url.empty());
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "b200";  // the catalog's cheapest B200 hour may be a yen offer or a dollar one
  s.currency = "jpy";
  const SpeedEstimate e = Speed(s);
  CostEstimate c = EstimateCost(Cat(), s, e);
  CHECK(c.money.code == "JPY");
  CHECK(c.money.per_usd == rate->per_usd);
  CHECK(c.money.basis.find(rate->date) != std::string::npos);
  // The hourly yen offer, priced at ¥1,320/h: at whatever rate the reader counts, a yen reader
  // pays ¥1,320 (or less where a dollar offer is cheaper at that rate).
  for (double fx : {100.0, 155.26, 200.0}) {
    s.fx = fx;
    c = EstimateCost(Cat(), s, e);
    INFO(c.cloud_basis);
    CHECK(c.cloud_gpu_hour * fx <= 1320 + 1e-9);
    if (c.cloud_basis.find("HIGHRESO") != std::string::npos) CHECK(c.cloud_gpu_hour * fx == Approx(1320));
  }
  // The same offer in dollars: at the catalog's rate.
  CloudOffer yen;
  yen.gpu_count = 1;
  yen.on_demand_jpy_per_hour = 1320;
  CHECK(OfferUsdPerHour(yen, false, rate->per_usd) == Approx(1320 / rate->per_usd));
  CHECK(OfferUsdPerHour(yen, false, 0) == 0);  // no rate: out of reach, not free
  CHECK(OfferUsdPerHour(yen, true, rate->per_usd) == 0);
  // A flat monthly rent is paid busy or not: spread over the busy hours.
  CloudOffer month;
  month.gpu_count = 1;
  month.monthly_jpy = 385000;
  CHECK(OfferUsdPerHour(month, false, 150, 1.0) == Approx(385000 / 730.0 / 150));
  CHECK(OfferUsdPerHour(month, false, 150, 0.5) == Approx(2 * 385000 / 730.0 / 150));
}

TEST_CASE("money: academic tariffs are listed, never priced as the cloud option - yen readers pay yen prices") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "h100-sxm";
  s.currency = "jpy";
  const CostEstimate c = EstimateCost(Cat(), s, Speed(s));
  INFO(c.cloud_basis);
  CHECK(c.cloud_basis.find("academic") == std::string::npos);
  bool listed = false;
  for (const CloudOffer& o : Cat().cloud_offers) listed = listed || o.access == "academic";
  CHECK(listed);
  // RTX 4090: a yen reader buys at the Japanese price, a dollar reader at the US list price.
  const Gpu* g = Cat().FindGpu("rtx-4090");
  REQUIRE(g != nullptr);
  const Price* yen = PurchasePrice(*g, true, 155);
  const Price* usd = PurchasePrice(*g, false, 155);
  REQUIRE(yen != nullptr);
  REQUIRE(usd != nullptr);
  CHECK(yen->jpy > 0);
  CHECK(PriceUsd(*yen, 155) == Approx(yen->jpy / 155));
  CHECK(PurchasePrice(*g, true, 0)->usd > 0);  // no yen rate: the dollar price
}

TEST_CASE("money: the reader's rate far from the catalog's is named - a currency without a rate stays dollars") {
  Catalog cat = Cat();
  Scenario s;
  s.currency = "jpy";
  s.fx = 1.5;  // dollars typed where yen were meant
  std::vector<std::string> warnings;
  const Money m = ScenarioMoney(cat, s, &warnings);
  CHECK(m.per_usd == 1.5);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("far from the catalog") != std::string::npos);
  cat.fx_rates.clear();
  s.fx = 0;
  warnings.clear();
  const Money none = ScenarioMoney(cat, s, &warnings);
  CHECK(none.code == "USD");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("set fx") != std::string::npos);
}

TEST_CASE("money: a budget in yen filters the whole catalog by what buying or renting costs in yen") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.weights = "q4_k_m";
  s.engine = "llama.cpp";
  s.batch = 1;
  s.currency = "jpy";
  const std::vector<CompareRow> rows = CompareCatalog(Cat(), s);
  CompareFilter buy;
  buy.fits_only = true;
  buy.max_upfront = 200000;  // the seeds' individual researcher
  int bought = 0, priced = 0;
  for (const CompareRow& r : rows) {
    if (r.fits && r.upfront_usd > 0) ++priced;
    const bool within = r.fits && r.upfront_usd > 0 && r.upfront_usd * r.money.per_usd <= 200000;
    CHECK(PassesFilter(r, buy) == within);
    bought += within;
    if (r.gpu == "rtx-4060-ti-16gb") CHECK(r.upfront_usd * r.money.per_usd == Approx(88800));  // its yen price
  }
  CHECK(bought > 0);
  CHECK(bought < priced);  // the budget excludes some
  CompareFilter rent;
  rent.max_month = 100000;  // ¥100k a month of the busy hours
  for (const CompareRow& r : rows)
    CHECK(PassesFilter(r, rent) == (r.cloud_month_usd > 0 && r.cloud_month_usd * r.money.per_usd <= 100000));
  // In dollars the same budget number means dollars.
  s.currency = "usd";
  for (const CompareRow& r : CompareCatalog(Cat(), s))
    CHECK(PassesFilter(r, buy) == (r.fits && r.upfront_usd > 0 && r.upfront_usd <= 200000));
}

TEST_CASE(
    "the rack: DGX-class servers against the seeds' 20 kW air rack, host power, PUE by cooling, throttling, liquid's "
    "break-even") {
  const Catalog& cat = EmbeddedCatalog().value();
  const Gpu& h100 = *cat.FindGpu("h100-sxm");
  Scenario s;
  s.cooling = "air";
  // Four DGX H100 (32 GPUs): 10.2 kW each (8 × 700 W + 4.6 kW host), one to a 20 kW air rack.
  RackPlan p = PlanRack(h100, s, 32, 730 * s.utilization);
  CHECK(p.gpus_per_server == 8);
  CHECK(p.servers == 4);
  CHECK(p.server_w == Approx(10200));
  CHECK(p.it_w == Approx(40800));
  CHECK(p.chosen.servers_per_rack == 1);
  CHECK(p.chosen.racks == 4);
  CHECK(p.chosen.pue == Approx(1.58));
  CHECK(p.throttle == 0);  // 10.2 kW a rack: not dense
  REQUIRE(p.options.size() == 3);
  CHECK(p.options[1].servers_per_rack == 5);   // rear door, 55 kW
  CHECK(p.options[2].servers_per_rack == 11);  // liquid, 120 kW
  CHECK(p.options[2].racks == 1);
  // Liquid's break-even per kW of IT load: (1.58 - 1.15) × busy hours × $/kWh × the years' months.
  const double per_kw = (1.58 - 1.15) * 730 * s.utilization * s.kwh_usd * s.years * 12;
  CHECK(p.liquid_break_even_usd_per_kw == Approx(per_kw));
  CHECK(p.liquid_saving_usd_month == Approx(per_kw / (s.years * 12) * 40.8));
  // A 30 kW air rack takes two of them, past 15 kW: throttled by the stated 10%.
  s.rack_kw = 30;
  p = PlanRack(h100, s, 32, 365);
  CHECK(p.chosen.servers_per_rack == 2);
  CHECK(p.rack_w == Approx(20400));
  CHECK(p.throttle == Approx(0.10));
  // A DGX B200 (14.3 kW) in a 10 kW rack: named, not placed.
  s.rack_kw = 10;
  p = PlanRack(*cat.FindGpu("b200"), s, 8, 365);
  CHECK(p.server_w == Approx(14300));
  CHECK(p.chosen.servers_per_rack == 0);
  REQUIRE(!p.warnings.empty());
  CHECK(p.warnings[0].find("14.3 kW") != std::string::npos);
  // Two RTX 4090s: a workstation's host (517 W for 4 GPUs) scaled to the box of 4.
  s = Scenario{};
  s.cooling = "liquid";
  p = PlanRack(*cat.FindGpu("rtx-4090"), s, 2, 365);
  CHECK(p.gpus_per_server == 4);
  CHECK(p.host_w == Approx(517));
  CHECK(p.it_w == Approx(2 * 450 + 517));
  CHECK(p.chosen.pue == Approx(1.15));
  // none: no rack, and the cost's energy is the GPUs' TDP × pue as before.
  s.cooling = "none";
  CHECK(PlanRack(h100, s, 8, 365).cooling.empty());
}

TEST_CASE("the rack in the cost: host power and the cooling's PUE in the energy, a throttled rack's tokens cost more") {
  const Catalog& cat = EmbeddedCatalog().value();
  Scenario s;
  s.model = "llama-3.1-70b";
  s.gpu = "h100-sxm";
  s.tp = 8;
  s.buy_usd = 30000;
  const SpeedEstimate speed = EstimateSpeed(cat, s, EstimateMemory(cat, s).value()).value();
  const CostEstimate plain = EstimateCost(cat, s, speed);
  CHECK(plain.power_w == Approx(8 * 700));
  s.cooling = "air";
  const CostEstimate air = EstimateCost(cat, s, speed);
  CHECK(air.power_w == Approx(10200));
  CHECK(air.energy_hour == Approx(10.2 * 1.58 * s.kwh_usd));
  s.rack_kw = 30;
  s.tp = 8;
  const CostEstimate one = EstimateCost(cat, s, speed);  // one server: 10.2 kW, not dense
  CHECK(one.rack.throttle == 0);
  CHECK(one.owned_per_m_output == Approx(air.owned_per_m_output));
}
