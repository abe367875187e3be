// Serving at load (issue 19): the step model against the speed estimate it comes from, and the
// continuous-batching simulator's mechanics (serving.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/inference.h"
#include "gpuplan/launch.h"
#include "gpuplan/plan.h"
#include "gpuplan/resolve.h"
#include "gpuplan/serving.h"
#include "gpuplan/serving_check.h"
#include "gpuplan/session.h"
#include "gpuplan/speed.h"
#include "gpuplan/views.h"
#include "gpuplan/workload.h"
#include "support.h"

using namespace gpuplan;
using gpuplan::test::Cat;

namespace {

struct Both {
  MemoryEstimate memory;
  SpeedEstimate speed;
};

Both Estimate(const Scenario& s) {
  Result<MemoryEstimate> m = EstimateMemory(Cat(), s);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  Result<SpeedEstimate> e = EstimateSpeed(Cat(), s, m.value());
  INFO((e.ok() ? std::string() : e.error()));
  REQUIRE(e.ok());
  return {m.value(), e.value()};
}

Scenario Make(const std::string& model, const std::string& gpu, const std::string& weights, int tp,
              const std::string& engine = "vllm") {
  Scenario s;
  s.model = model, s.gpu = gpu, s.weights = weights, s.tp = tp, s.engine = engine;
  s.context = 4096, s.prompt = 1024, s.batch = 16;
  return s;
}

ServeEstimate Serve(const Scenario& s, const WorkloadSpec& w, ServeOptions o = {}) {
  Result<Resolved> r = Resolve(Cat(), s);
  REQUIRE(r.ok());
  Result<ServeEstimate> e = EstimateServing(*r, s, w, o);
  INFO((e.ok() ? std::string() : e.error()));
  REQUIRE(e.ok());
  return e.value();
}

WorkloadSpec Fixed(int requests, int prompt, int output, double rate, int concurrency = 0) {
  WorkloadSpec w;
  w.requests = requests, w.rate = rate, w.concurrency = concurrency;
  w.input = {LengthDist::Kind::kFixed, static_cast<double>(prompt)};
  w.output = {LengthDist::Kind::kFixed, static_cast<double>(output)};
  return w;
}

}  // namespace

TEST_CASE("a step of pure decode or one prompt costs what the speed estimate says", "[serving]") {
  struct Case {
    Scenario s;
    bool prefill;  // compare prefill_one too (dense text models, one pass)
  };
  std::vector<Case> cases = {
      {Make("llama-3.1-8b", "rtx-4090", "bf16", 1), true},
      {Make("llama-3.1-8b", "h100-sxm", "fp8", 1), true},
      {Make("llama-3.1-70b", "h100-sxm", "bf16", 4), true},
      {Make("llama-3.1-70b", "rtx-4090", "q4_k_m", 2, "llama.cpp"), true},  // layer split
      {Make("qwen2.5-7b", "a100-sxm-80gb", "awq-int4-g128", 1, "sglang"), true},
      {Make("mixtral-8x7b", "h100-sxm", "bf16", 2), false},
      {Make("qwen3-30b-a3b", "h100-sxm", "fp8", 2, "sglang"), false},
  };
  Scenario row = Make("llama-3.1-70b", "rtx-4090", "q4_k_m", 2, "llama.cpp");
  row.split = "row";
  cases.push_back({row, false});
  Scenario pipeline = Make("llama-3.1-70b", "h100-sxm", "bf16", 2);
  pipeline.pp = 2;
  cases.push_back({pipeline, false});
  Scenario ep = Make("qwen3-30b-a3b", "h100-sxm", "bf16", 4);
  ep.ep = 1;
  cases.push_back({ep, false});
  Scenario offload = Make("llama-3.1-70b", "rtx-4090", "q4_k_m", 1, "llama.cpp");
  offload.gpu_layers = 40, offload.batch = 1;
  cases.push_back({offload, false});
  for (const Case& c : cases) {
    INFO(c.s.model << " on " << c.s.tp << " x " << c.s.gpu << " (" << c.s.engine << ", split " << c.s.split << ")");
    const Both b = Estimate(c.s);
    StepLoad decode;
    decode.decode_seqs = static_cast<double>(c.s.batch);
    decode.decode_context = static_cast<double>(c.s.batch) * b.speed.decode_context;
    CHECK_THAT(StepSeconds(b.speed.step, decode), Catch::Matchers::WithinRel(b.speed.decode.seconds, 1e-9));
    if (c.prefill) {
      StepLoad one;
      one.prefill_seqs = 1, one.prefill_tokens = static_cast<double>(c.s.prompt);
      one.prefill_context = one.prefill_tokens * one.prefill_tokens / 2;
      CHECK_THAT(StepSeconds(b.speed.step, one), Catch::Matchers::WithinRel(b.speed.prefill_one.seconds, 1e-9));
    }
    // A mixed step costs more than either part and less than both apart (the weights are read once;
    // 272 tokens stay within one of llama.cpp's 512-token micro-batches).
    StepLoad mixed = decode;
    mixed.prefill_seqs = 1, mixed.prefill_tokens = 256, mixed.prefill_context = 256.0 * 128;
    StepLoad chunk;
    chunk.prefill_seqs = 1, chunk.prefill_tokens = 256, chunk.prefill_context = 256.0 * 128;
    const double m = StepSeconds(b.speed.step, mixed), d = StepSeconds(b.speed.step, decode),
                 p = StepSeconds(b.speed.step, chunk);
    CHECK(m >= std::max(d, p) * (1 - 1e-12));
    CHECK(m < d + p);
  }
}

TEST_CASE("the p-th percentile interpolates between ranks as numpy does", "[serving]") {
  std::vector<double> v = {4, 1, 3, 2};
  CHECK(Percentile(v, 50) == Approx(2.5));
  CHECK(Percentile(v, 90) == Approx(3.7));
  CHECK(Percentile(v, 0) == 1);
  CHECK(Percentile(v, 100) == 4);
  std::vector<double> none;
  CHECK(Percentile(none, 50) == 0);
}

TEST_CASE("one client at a time: TTFT is one prompt's step, TPOT the decode steps it waits for", "[serving]") {
  const Scenario s = Make("llama-3.1-8b", "h100-sxm", "bf16", 1);
  const ServeEstimate e = Serve(s, Fixed(5, 1000, 50, 0, 1));
  const ServeResult& r = e.result;
  // The step model the simulator ran on, rebuilt at the same context.
  Scenario at = s;
  at.context = 1050, at.prompt = 1000, at.batch = 1;
  const Both b = Estimate(at);
  StepLoad prompt;
  prompt.prefill_seqs = 1, prompt.prefill_tokens = 1000, prompt.prefill_context = 1000.0 * 500;
  const double ttft = StepSeconds(b.speed.step, prompt);
  double decode = 0;
  for (int k = 1; k < 50; ++k) {  // the k-th output token attends to the prompt and k-1 outputs... plus itself computed
    StepLoad d;
    d.decode_seqs = 1, d.decode_context = 1000 + k - 1;
    decode += StepSeconds(b.speed.step, d);
  }
  CHECK_THAT(r.ttft_s.p50, Catch::Matchers::WithinRel(ttft, 1e-9));
  CHECK_THAT(r.tpot_s.mean, Catch::Matchers::WithinRel(decode / 49, 1e-9));
  CHECK_THAT(r.e2e_s.p99, Catch::Matchers::WithinRel(ttft + decode, 1e-9));
  CHECK_THAT(r.duration_s, Catch::Matchers::WithinRel(5 * (ttft + decode), 1e-9));
  CHECK(r.peak_running == 1);
  CHECK(r.preemptions == 0);
  CHECK(r.queue_s.p99 == 0);
  CHECK(r.request_throughput == Approx(5 / r.duration_s));
  CHECK(r.output_tokens_per_s == Approx(250 / r.duration_s));
}

TEST_CASE("decode bursts (--num-scheduler-steps): tokens stream a burst at a time, arrivals wait for its end",
          "[serving]") {
  const Scenario s = Make("llama-3.1-8b", "h100-sxm", "bf16", 1);
  // One client: each burst is 10 decode steps; the client sees one chunk per burst, so the gaps
  // between chunks are 10 steps long while TPOT (over all tokens) is unchanged.
  ServeOptions burst;
  burst.decode_burst = 10;
  const ServeResult one = Serve(s, Fixed(3, 500, 101, 0, 1)).result;
  const ServeResult ten = Serve(s, Fixed(3, 500, 101, 0, 1), burst).result;
  CHECK_THAT(ten.tpot_s.mean, Catch::Matchers::WithinRel(one.tpot_s.mean, 1e-9));
  CHECK_THAT(ten.ttft_s.p50, Catch::Matchers::WithinRel(one.ttft_s.p50, 1e-9));
  CHECK_THAT(ten.itl_s.p50, Catch::Matchers::WithinRel(10 * one.itl_s.p50, 0.01));
  CHECK(ten.duration_s == Approx(one.duration_s));
  // Poisson arrivals: a request that arrives during a burst waits for it to end, so TTFT grows
  // by about half a burst; the steps themselves cost the same.
  const WorkloadSpec w = Fixed(300, 300, 120, 6);
  const ServeResult a = Serve(s, w).result;
  const ServeResult b = Serve(s, w, burst).result;
  CHECK(b.ttft_s.p50 > a.ttft_s.p50 + 2 * a.itl_s.p50);
  CHECK(b.itl_s.p50 > 5 * a.itl_s.p50);
  CHECK(b.request_throughput == Approx(a.request_throughput).epsilon(0.05));
  CHECK(b.requests == 300);
}

TEST_CASE("more clients: throughput grows and flattens, latency grows", "[serving]") {
  const Scenario s = Make("llama-3.1-8b", "h100-sxm", "bf16", 1);
  double last_tput = 0, last_tpot = 0;
  std::vector<double> tput;
  for (int c : {1, 4, 16, 64, 256}) {
    const ServeEstimate e = Serve(s, Fixed(512, 512, 128, 0, c));
    INFO("concurrency " << c);
    CHECK(e.result.output_tokens_per_s > last_tput);
    CHECK(e.result.tpot_s.p50 >= last_tpot);
    CHECK(e.result.peak_running <= c);
    last_tput = e.result.output_tokens_per_s, last_tpot = e.result.tpot_s.p50;
    tput.push_back(last_tput);
  }
  // Batching pays at first (memory-bound decode) and less as compute takes over.
  CHECK(tput[1] / tput[0] > 3);
  CHECK(tput[4] / tput[3] < tput[1] / tput[0]);
}

TEST_CASE("an arrival rate beyond the setup's capacity is reported saturated, with the capacity", "[serving]") {
  const Scenario s = Make("llama-3.1-8b", "rtx-4090", "bf16", 1);
  WorkloadSpec light = Fixed(300, 512, 128, 0.5);
  const ServeEstimate calm = Serve(s, light);
  CHECK_FALSE(calm.result.saturated);
  CHECK_FALSE(calm.has_capacity);
  CHECK(calm.result.request_throughput == Approx(0.5).epsilon(0.25));
  WorkloadSpec flood = Fixed(600, 512, 128, 500);
  const ServeEstimate over = Serve(s, flood);
  CHECK(over.result.saturated);
  REQUIRE(over.has_capacity);
  CHECK(over.capacity.request_throughput < 500);
  CHECK(over.result.queue_at_last_arrival > 100);
  CHECK(over.result.ttft_s.p90 > 10 * calm.result.ttft_s.p90);
}

TEST_CASE("a KV pool too small for the batch preempts and still finishes every request", "[serving]") {
  // A 70B in 4 bits on one 48 GB card leaves a few GB of cache: long requests crowd it.
  Scenario s = Make("llama-3.1-70b", "rtx-a6000", "awq-int4-g128", 1);
  ServeOptions o;
  o.max_num_seqs = 256;
  const ServeEstimate e = Serve(s, Fixed(64, 2000, 2000, 0, 64), o);
  CHECK(e.result.preemptions > 0);
  CHECK(e.result.peak_kv_used <= 1.0);
  CHECK(e.result.peak_kv_used > 0.9);
  CHECK(e.result.kv_limited_concurrency < 64);
  CHECK(e.result.peak_running < 64);
  CHECK(e.result.requests == 64);
  CHECK(std::isfinite(e.result.e2e_s.p99));
}

TEST_CASE("the same seed gives the same run, another seed another", "[serving]") {
  const Scenario s = Make("qwen3-30b-a3b", "h100-sxm", "fp8", 1);
  WorkloadSpec w;
  w.requests = 400, w.rate = 8;
  w.input = {LengthDist::Kind::kLognormal, 600, 0.8, 8, 8000};
  w.output = {LengthDist::Kind::kLognormal, 200, 0.7, 4, 2000};
  const ServeEstimate a = Serve(s, w), b = Serve(s, w);
  CHECK(a.result.ttft_s.p99 == b.result.ttft_s.p99);
  CHECK(a.result.itl_s.p90 == b.result.itl_s.p90);
  CHECK(a.result.steps == b.result.steps);
  w.seed = 7;
  const ServeEstimate c = Serve(s, w);
  CHECK(c.result.ttft_s.p99 != a.result.ttft_s.p99);
}

TEST_CASE("a shared prefix with prefix caching is computed once", "[serving]") {
  const Scenario s = Make("llama-3.1-8b", "l4", "bf16", 1);
  ServeOptions on;
  on.prefix_caching = true, on.shared_prefix = 1500;
  ServeOptions off = on;
  off.prefix_caching = false;
  const WorkloadSpec w = Fixed(100, 2000, 100, 1);
  const ServeEstimate cached = Serve(s, w, on), plain = Serve(s, w, off);
  CHECK(cached.result.prefix_hits >= 99 * 1488);
  CHECK(plain.result.prefix_hits == 0);
  CHECK(cached.result.ttft_s.p50 < 0.5 * plain.result.ttft_s.p50);
}

TEST_CASE("goodput counts the requests within the SLA", "[serving]") {
  const Scenario s = Make("llama-3.1-8b", "h100-sxm", "bf16", 1);
  ServeOptions o;
  const WorkloadSpec w = Fixed(300, 1024, 256, 20);
  const ServeEstimate loose = Serve(s, w, o);
  CHECK(loose.result.met_sla == 300);  // no limit set
  o.tpot_sla_s = loose.result.tpot_s.p50;
  const ServeEstimate tight = Serve(s, w, o);
  CHECK(tight.result.met_sla > 0);
  CHECK(tight.result.met_sla < 300);
  CHECK(tight.result.goodput_rps < loose.result.goodput_rps);
}

TEST_CASE("serving refuses what cannot be served, naming the field", "[serving]") {
  Result<Resolved> r = Resolve(Cat(), Make("llama-2-7b", "h100-sxm", "bf16", 1));
  REQUIRE(r.ok());
  // Llama 2's window is 4,096 tokens.
  Result<ServeEstimate> e = EstimateServing(*r, Make("llama-2-7b", "h100-sxm", "bf16", 1), Fixed(10, 4000, 200, 1), {});
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().rfind("input:", 0) == 0);
  // A 70B in BF16 does not fit one 24 GB card.
  Scenario big = Make("llama-3.1-70b", "rtx-4090", "bf16", 1);
  Result<Resolved> r2 = Resolve(Cat(), big);
  REQUIRE(r2.ok());
  Result<ServeEstimate> e2 = EstimateServing(*r2, big, Fixed(10, 500, 100, 1), {});
  REQUIRE_FALSE(e2.ok());
  CHECK(e2.error().rfind("gpu:", 0) == 0);
  // A bad workload is the workload's error.
  Result<ServeEstimate> e3 = EstimateServing(*r, Make("llama-2-7b", "h100-sxm", "bf16", 1), Fixed(10, 100, 10, -1), {});
  REQUIRE_FALSE(e3.ok());
  CHECK(e3.error().rfind("rate:", 0) == 0);
}

TEST_CASE("each engine schedules as its own scheduler does", "[serving]") {
  // A crowded pool: a 70B in 4 bits on one 48 GB card, long requests, many clients.
  const WorkloadSpec w = Fixed(48, 2000, 2000, 0, 48);
  ServeOptions o;
  o.max_num_seqs = 256;
  const ServeEstimate vllm = Serve(Make("llama-3.1-70b", "rtx-a6000", "awq-int4-g128", 1, "vllm"), w, o);
  const ServeEstimate trt = Serve(Make("llama-3.1-70b", "rtx-a6000", "awq-int4-g128", 1, "tensorrt-llm"), w, o);
  const ServeEstimate sgl = Serve(Make("llama-3.1-70b", "rtx-a6000", "awq-int4-g128", 1, "sglang"), w, o);
  // vLLM admits on the blocks of the tokens scheduled now and preempts when they run out;
  // TensorRT-LLM reserves each request's blocks to its end and never preempts, so fewer run at once.
  CHECK(vllm.result.preemptions > 0);
  CHECK(trt.result.preemptions == 0);
  CHECK(trt.result.peak_running < vllm.result.peak_running);
  CHECK_FALSE(trt.result.chunked_prefill);
  CHECK(sgl.result.preemptions > 0);

  // SGLang runs a step of prompts whenever one can be admitted: decodes wait for it, so the gaps
  // between tokens spread more than under vLLM's mixed steps.
  const WorkloadSpec load = Fixed(300, 2000, 200, 6);
  const ServeEstimate mixed = Serve(Make("llama-3.1-8b", "h100-sxm", "bf16", 1, "vllm"), load);
  const ServeEstimate first = Serve(Make("llama-3.1-8b", "h100-sxm", "bf16", 1, "sglang"), load);
  CHECK(first.result.itl_s.p99 / first.result.itl_s.p50 > mixed.result.itl_s.p99 / mixed.result.itl_s.p50);
  // SGLang's sequence cap follows the pool when unset.
  const bool rule = std::any_of(first.assumptions.begin(), first.assumptions.end(),
                                [](const std::string& a) { return a.find("rule from the pool") != std::string::npos; });
  CHECK(rule);
}

TEST_CASE("workload presets draw the lengths their sources state", "[serving]") {
  // Each preset keeps its trace's median (and p90: the quantiles its lognormal is fitted through).
  auto draw = [](const char* id) {
    const WorkloadPreset* p = FindWorkloadPreset(id);
    REQUIRE(p);
    WorkloadSpec w;
    w.requests = 40000, w.concurrency = 1;
    w.input = p->input, w.output = p->output;
    Result<std::vector<Request>> r = GenerateRequests(w);
    REQUIRE(r.ok());
    std::vector<double> in, out;
    double in_sum = 0, out_sum = 0;
    for (const Request& q : *r)
      in.push_back(q.prompt), out.push_back(q.output), in_sum += q.prompt, out_sum += q.output;
    INFO(id << ": p90 " << Percentile(in, 90) << " / " << Percentile(out, 90));
    return std::tuple{in_sum / 40000, Percentile(in, 50), out_sum / 40000, Percentile(out, 50)};
  };
  // ShareGPT as the benchmarks sample it: GPUStack's sampled means, 217 and 201 tokens.
  const auto [in_mean, in_median, out_mean, out_median] = draw("sharegpt");
  CHECK_THAT(in_mean, Catch::Matchers::WithinRel(217.4, 0.04));
  CHECK_THAT(out_mean, Catch::Matchers::WithinRel(201.4, 0.04));
  // Azure's conversation trace: medians 1,020 and 129 (Splitwise).
  const auto [a_in_mean, a_in_median, a_out_mean, a_out_median] = draw("azure-conversation");
  CHECK_THAT(a_in_median, Catch::Matchers::WithinRel(1020.0, 0.08));
  CHECK_THAT(a_out_median, Catch::Matchers::WithinRel(129.0, 0.08));
  CHECK_THAT(a_in_mean, Catch::Matchers::WithinRel(1154.7, 0.22));  // the fit's mean is ~19 % high
  CHECK_THAT(a_out_mean, Catch::Matchers::WithinRel(211.1, 0.1));
  const auto [c_in_mean, c_in_median, c_out_mean, c_out_median] = draw("azure-code");
  CHECK_THAT(c_in_median, Catch::Matchers::WithinRel(1469.0, 0.08));
  CHECK_THAT(c_out_median, Catch::Matchers::WithinRel(13.0, 0.1));
  CHECK_THAT(c_in_mean, Catch::Matchers::WithinRel(2047.9, 0.1));
  // arXiv summarisation: the medians hold, the means less (the prompts skew left; the basis says so).
  const auto [x_in_mean, x_in_median, x_out_mean, x_out_median] = draw("arxiv-summarization");
  CHECK_THAT(x_in_median, Catch::Matchers::WithinRel(2730.0, 0.05));
  CHECK_THAT(x_out_median, Catch::Matchers::WithinRel(167.0, 0.08));
  CHECK_THAT(x_in_mean, Catch::Matchers::WithinRel(2588.0, 0.12));
  const auto [f_in, f_in_median, f_out, f_out_median] = draw("random-1024-128");
  CHECK(f_in == 1024);
  CHECK(f_out == 128);
  CHECK(FindWorkloadPreset("nope") == nullptr);
}

TEST_CASE("the simulator against published serving results: errors held as regression thresholds", "[serving]") {
  Result<std::vector<ServingCase>> cases = ParseServingCases(test::ReadTestFile("reference/serving_measurements.json"));
  INFO((cases.ok() ? std::string() : cases.error()));
  REQUIRE(cases.ok());
  REQUIRE(cases->size() >= 25);
  const ServingCheck check = RunServingCases(Cat(), *cases);
  for (const auto& [id, why] : check.refused) INFO(id << ": " << why);
  CHECK(check.refused.empty());
  CHECK(check.rows.size() >= 200);
  // The errors on 2026-12-02 (none of these cases was fitted; the issue's targets are 20 % median for
  // throughput and 30 % for p90 latencies): a change that makes them worse fails here.
  auto find = [&](const std::string& q) {
    for (const ServingSummary& s : check.summary)
      if (s.quantity == q) return s;
    FAIL("no summary for " << q);
    return ServingSummary{};
  };
  const ServingSummary tput = find("throughput"), p50 = find("p50 latencies"), tpot = find("tpot_p50_ms");
  INFO("throughput median " << tput.median << " p90 " << tput.p90 << "; p50 latencies median " << p50.median
                            << "; tpot p50 median " << tpot.median);
  // 2026-12-03: each case replayed with the profile of the release that ran it (vLLM 0.6's V0
  // scheduler and --num-scheduler-steps bursts; 0.8-0.20's memory default) took p50 latencies
  // from 45 % to 36 % and throughput from 30 % to 33 % (the 32k-prompt case: a 0.9 memory
  // fraction instead of 0.92 holds fewer prompts at once).
  // The serving bands stored in engines.json are the ones this run gives (calibrate --serving
  // --bands prints them): a change to the simulator or the cases updates them, or fails here.
  for (const ServingBands& b : FitServingBands(Cat(), check)) {
    const EngineProfile* e = Cat().FindEngine(b.engine);
    REQUIRE(e);
    const EngineCalibration& k = e->calibration;
    for (auto [stored, fitted] : {std::pair{&k.serve_throughput, &b.throughput},
                                  {&k.serve_ttft, &b.ttft},
                                  {&k.serve_tpot, &b.tpot},
                                  {&k.serve_e2e, &b.e2e}}) {
      INFO(b.engine << ": stored " << stored->lo << "-" << stored->hi << ", this run " << fitted->lo << "-"
                    << fitted->hi << " (gpuplan calibrate --serving --bands)");
      CHECK(stored->lo == Approx(fitted->lo).margin(0.011));
      CHECK(stored->hi == Approx(fitted->hi).margin(0.011));
      CHECK(stored->cases == fitted->cases);
    }
  }
  // Then 17 MLPerf v4.1 Server runs joined (timed Poisson runs, lengths from the MLPerf dataset
  // presets): they run at 90-95 % of capacity, where latency is steep in the load, and the
  // simulator puts them well below it: TPOT 2-8x low. Their throughput is the offered rate, which
  // the simulator matches; so throughput fell to 14 % and p50 latencies rose to 54 %.
  const ServingSummary p90 = find("p90 latencies");
  INFO("p90 latencies median " << p90.median);
  CHECK(tput.n >= 100);
  CHECK(tput.median <= 0.16);
  CHECK(tput.p90 <= 0.68);
  CHECK(p50.median <= 0.56);
  CHECK(tpot.median <= 0.55);
  CHECK(p90.n >= 45);
  CHECK(p90.median <= 0.75);
}

TEST_CASE("a malformed serving reference names the case", "[serving]") {
  CHECK_FALSE(ParseServingCases("[]").ok());
  const Result<std::vector<ServingCase>> r = ParseServingCases(
      R"({"cases": [{"id": "x", "engine": "vllm", "model": "llama-3.1-8b", "weights": "bf16", "kv": "fp16",
                           "gpu": "h100-sxm", "workload": {"mode": "poisson"}}]})");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("'x'") != std::string::npos);
}

TEST_CASE("the serve view: options through the session, in links and the CLI command, same numbers", "[serving]") {
  Session session(Cat());
  Scenario s = Make("llama-3.1-8b", "h100-sxm", "bf16", 1);
  session.SetScenario(s);
  REQUIRE_FALSE(session.Set("rate", "4").has_value());
  REQUIRE_FALSE(session.Set("requests", "300").has_value());
  REQUIRE_FALSE(session.Set("lengths", "1024/128").has_value());
  REQUIRE_FALSE(session.Set("tpot-sla", "0.01").has_value());
  // Bad values are refused with the field named, and the option keeps its value.
  auto refused = [&](const char* key, const char* value) {
    const std::optional<Error> e = session.Set(key, value);
    return e && e->message.rfind(key, 0) == 0;
  };
  CHECK(refused("lengths", "sharegpt2"));
  CHECK(refused("lengths", "1024/"));
  CHECK(refused("lengths", "0/10"));
  CHECK(refused("clients", "0"));
  CHECK(refused("requests", "2.5"));
  CHECK(refused("rate", "-1"));
  CHECK(refused("rate", "nan"));
  CHECK(session.view().lengths == "1024/128");
  const View* view = FindView("serve");
  REQUIRE(view);
  REQUIRE(view->failure(session).empty());
  // The view's numbers are the estimate's for the same workload.
  WorkloadSpec w = Fixed(300, 1024, 128, 4);
  ServeOptions o;
  o.tpot_sla_s = 0.01;
  const ServeEstimate direct = Serve(s, w, o);
  REQUIRE(session.Serve().ok());
  CHECK(session.Serve()->result.ttft_s.p90 == direct.result.ttft_s.p90);
  CHECK(session.Serve()->result.met_sla == direct.result.met_sla);
  const std::string json = PrintView(*view, session, "json");
  CHECK(json.find("\"gpuplan.serve/1\"") != std::string::npos);
  const std::string md = PrintView(*view, session, "md");
  CHECK(md.find("TTFT") != std::string::npos);
  // A link and the CLI command carry the workload.
  const std::string cli = ViewCliCommand(*view, session);
  CHECK(cli.find("gpuplan serve") == 0);
  CHECK(cli.find("--rate 4") != std::string::npos);
  CHECK(cli.find("--lengths 1024/128") != std::string::npos);
  Session again(Cat());
  const DecodedState d = again.LoadState(session.StateHash());
  CHECK(d.dropped.empty());
  CHECK(again.view().rate == 4);
  CHECK(again.view().requests == 300);
  CHECK(again.view().tpot_sla == 0.01);
}

TEST_CASE("the plan view: its options through the session, restarted only when the query changes", "[serving]") {
  Session session(Cat());
  session.SetScenario(Make("llama-3.1-8b", "h100-sxm", "bf16", 1));
  REQUIRE_FALSE(session.Set("rate", "3").has_value());
  REQUIRE_FALSE(session.Set("requests", "200").has_value());
  REQUIRE_FALSE(session.Set("tpot-sla", "0.05").has_value());
  REQUIRE_FALSE(session.Set("by", "spot").has_value());
  REQUIRE_FALSE(session.Set("max-usd-hour", "40").has_value());
  REQUIRE_FALSE(session.Set("max-gpus", "4").has_value());
  REQUIRE_FALSE(session.Set("vendor", "nvidia").has_value());
  auto refused = [&](const char* key, const char* value) {
    const std::optional<Error> e = session.Set(key, value);
    return e && e->message.rfind(key, 0) == 0;
  };
  CHECK(refused("by", "cheapest"));
  CHECK(refused("max-gpus", "0"));
  CHECK(refused("max-gpus", "65"));
  CHECK(refused("max-usd-hour", "-2"));
  CHECK(refused("max-usd-hour", "inf"));
  const PlanQuery q = session.PlanQueryNow();
  CHECK(q.by == "spot");
  CHECK(q.max_usd_hour == 40);
  CHECK(q.max_gpus == 4);
  CHECK(q.vendor == "nvidia");
  CHECK(q.workload.rate == 3);
  // Stepped: one slice at a time until done; then the same as the search run at once.
  int slices = 0;
  while (session.PlanStep(0)) ++slices;
  CHECK(slices > 10);
  REQUIRE(session.Plan().result().ok());
  const Result<PlanResult> direct = PlanServing(Cat(), q);
  REQUIRE(direct.ok());
  CHECK(PlanJson(Cat(), q, *session.Plan().result()) == PlanJson(Cat(), q, *direct));
  // A row's fields (the page's "Serve" button): its setup, and one replica's share of the rate.
  REQUIRE_FALSE(direct->rows.empty());
  const PlanRow& first = direct->rows.front();
  Session serve(Cat());
  for (const auto& [key, value] : PlanRowFields(q, first)) CHECK_FALSE(serve.Set(key, value).has_value());
  CHECK(serve.scenario().gpu == first.s.gpu);
  CHECK(serve.scenario().engine == first.s.engine);
  CHECK(serve.scenario().Gpus() == first.s.Gpus());
  CHECK(serve.view().rate == Approx(3.0 / first.replicas));
  // Another GPU, engine or panel leaves the search done; another workload starts it again.
  REQUIRE_FALSE(session.Set("gpu", "rtx-4090").has_value());
  REQUIRE_FALSE(session.Set("engine", "sglang").has_value());
  REQUIRE_FALSE(session.Set("tab", "compare").has_value());
  CHECK(session.PlanShown().done());
  REQUIRE_FALSE(session.Set("rate", "6").has_value());
  CHECK_FALSE(session.PlanShown().done());
  // The view's exports: JSON with the link's state, the CLI command with the plan's flags.
  const View* view = FindView("plan");
  REQUIRE(view);
  CHECK(view->failure(session).empty());
  const std::string json = PrintView(*view, session, "json");
  CHECK(json.find("\"gpuplan.plan/1\"") != std::string::npos);
  CHECK(json.find("by=spot") != std::string::npos);
  const std::string cli = ViewCliCommand(*view, session);
  CHECK(cli.rfind("gpuplan plan", 0) == 0);
  CHECK(cli.find("--by spot") != std::string::npos);
  CHECK(cli.find("--max-gpus 4") != std::string::npos);
  Session again(Cat());
  const DecodedState d = again.LoadState(session.StateHash());
  CHECK(d.dropped.empty());
  CHECK(again.view().by == "spot");
  CHECK(again.view().max_usd_hour == 40);
  CHECK(again.view().max_gpus == 4);
}

TEST_CASE("launch commands use only the flags each engine documents", "[serving]") {
  // Every flag name quoted for each engine (tests/reference/candidates/serving-engines.json: the
  // engines' argument parsers and docs, with their sources).
  const nlohmann::json doc = nlohmann::json::parse(test::ReadTestFile("reference/candidates/serving-engines.json"));
  std::map<std::string, std::set<std::string>> documented;
  const std::regex flag_re("(^|[^A-Za-z0-9_-])(-{1,2}[A-Za-z][A-Za-z0-9_-]*)");
  for (const auto& e : doc["engines"]) {
    std::set<std::string>& names = documented[e["id"].get<std::string>()];
    for (const auto& [purpose, f] : e["flags"].items()) {
      std::string text = f.value("flag", "");
      for (const auto& a : f.value("aliases", nlohmann::json::array())) text += " " + a.get<std::string>();
      for (std::sregex_iterator it(text.begin(), text.end(), flag_re), end; it != end; ++it) names.insert((*it)[2]);
    }
  }
  std::vector<Scenario> scenarios;
  for (const char* engine : {"vllm", "sglang", "tensorrt-llm"}) {
    Scenario a = Make("llama-3.1-70b", "h100-sxm", "fp8", 4, engine);
    a.kv = "fp8", a.pp = 2, a.mem_util = 0.85;
    scenarios.push_back(a);
    Scenario moe = Make("qwen3-30b-a3b", "h100-sxm", "bf16", 2, engine);
    moe.ep = 1;
    scenarios.push_back(moe);
    Scenario dp = Make("deepseek-v3", "h200-sxm", "fp8", 8, engine);
    dp.split = "dp-attention";
    if (std::string(engine) != "tensorrt-llm") scenarios.push_back(dp);
  }
  Scenario cpp = Make("llama-3.1-70b", "rtx-4090", "q4_k_m", 2, "llama.cpp");
  cpp.kv = "q8_0";
  scenarios.push_back(cpp);
  Scenario row = cpp;
  row.split = "row", row.gpu_layers = 60;
  scenarios.push_back(row);
  for (const Scenario& s : scenarios) {
    INFO(s.engine << ": " << s.model << " on " << s.tp << " x " << s.gpu << " split " << s.split);
    Result<Resolved> r = Resolve(Cat(), s);
    REQUIRE(r.ok());
    const ServeEstimate e = Serve(s, Fixed(50, 1000, 200, 0, 8));
    Result<LaunchPlan> plan = MakeLaunchPlan(*r, s, e);
    INFO((plan.ok() ? plan->Command() : plan.error()));
    REQUIRE(plan.ok());
    const std::set<std::string>& names = documented[s.engine];
    REQUIRE_FALSE(names.empty());
    for (const LaunchFlag& f : plan->flags) {
      INFO(f.flag);
      CHECK(names.count(f.flag) == 1);
    }
    // The figures the run used are the ones the command sets.
    const std::string cmd = plan->Command();
    // (llama.cpp's -c is the slots' cells together: slots x the longest request, or the pool.)
    const long long context = s.engine == "llama.cpp"
                                  ? std::min<long long>(static_cast<long long>(e.result.kv_capacity_tokens),
                                                        e.result.max_num_seqs * e.max_model_len)
                                  : e.max_model_len;
    CHECK(cmd.find(" " + std::to_string(context)) != std::string::npos);
    CHECK(cmd.find(" " + std::to_string(e.result.max_num_seqs)) != std::string::npos);
  }
  // An engine that cannot load the weights says so, naming the field.
  Scenario bad = Make("llama-3.1-8b", "h100-sxm", "awq-int4-g128", 1, "llama.cpp");
  Result<Resolved> r = Resolve(Cat(), bad);
  REQUIRE(r.ok());
  const Result<LaunchPlan> none = MakeLaunchPlan(*r, bad, Serve(bad, Fixed(10, 100, 10, 0, 2)));
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().rfind("weights:", 0) == 0);
}

TEST_CASE("plan: the cheapest setup that meets the SLA, the Pareto set, and what binds when nothing does",
          "[serving]") {
  PlanQuery q;
  q.base.model = "llama-3.1-8b";
  q.workload = Fixed(300, 512, 128, 8);
  q.tpot_p90_s = 0.05, q.ttft_p90_s = 1;
  Result<PlanResult> p = PlanServing(Cat(), q);
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  REQUIRE_FALSE(p->rows.empty());
  CHECK(p->considered > 500);
  const PlanRow& best = p->rows.front();
  CHECK(best.meets);
  CHECK(best.pareto);
  CHECK(best.run.tpot_s.p90 <= 0.05);
  CHECK(best.run.ttft_s.p90 <= 1);
  CHECK_FALSE(best.run.saturated);
  // Cheapest first among the rows that meet; none that meets is beaten on cost and TPOT by another.
  for (size_t i = 1; i < p->rows.size(); ++i)
    if (p->rows[i].meets && p->rows[i - 1].meets) CHECK(p->rows[i].usd_hour >= p->rows[i - 1].usd_hour);
  for (const PlanRow& a : p->rows) {
    if (!a.meets) continue;
    for (const PlanRow& b : p->rows)
      if (&a != &b && b.meets && a.pareto)
        CHECK_FALSE((b.usd_hour < a.usd_hour && b.run.tpot_s.p90 < a.run.tpot_s.p90));
  }
  // Each row replays as gpuplan serve does for its share of the load.
  Result<Resolved> r = Resolve(Cat(), best.s);
  REQUIRE(r.ok());
  WorkloadSpec share = q.workload;
  share.rate /= best.replicas;
  ServeOptions so;
  so.tpot_sla_s = q.tpot_p90_s, so.ttft_sla_s = q.ttft_p90_s;
  Result<ServeEstimate> again = EstimateServing(*r, best.s, share, so);
  REQUIRE(again.ok());
  CHECK(again->result.tpot_s.p90 == best.run.tpot_s.p90);

  // A budget: every row within it.
  PlanQuery budget = q;
  budget.max_usd_hour = 1.0;
  Result<PlanResult> b = PlanServing(Cat(), budget);
  REQUIRE(b.ok());
  for (const PlanRow& row : b->rows)
    if (row.meets) CHECK(row.usd_hour <= 1.0);

  // An SLA nothing meets: no row meets, and the notes and verdicts say what binds.
  PlanQuery impossible = q;
  impossible.tpot_p90_s = 0.0005;
  Result<PlanResult> none = PlanServing(Cat(), impossible);
  REQUIRE(none.ok());
  for (const PlanRow& row : none->rows) CHECK_FALSE(row.meets);
  const bool says = std::any_of(none->notes.begin(), none->notes.end(), [](const std::string& n) {
    return n.find("TPOT above the target") != std::string::npos;
  });
  CHECK(says);
  const Report rep = PlanReport(Cat(), impossible, *none);
  REQUIRE_FALSE(rep.after.empty());
  CHECK(rep.after[0].rfind("NOTHING", 0) == 0);

  // Bad queries name the field.
  PlanQuery bad = q;
  bad.by = "cheap";
  CHECK(PlanServing(Cat(), bad).error().rfind("by:", 0) == 0);
  bad = q;
  bad.base.model = "nope";
  CHECK(PlanServing(Cat(), bad).error().rfind("model:", 0) == 0);
}

TEST_CASE("plan in steps: the same result however the steps are cut, progress that only grows", "[serving]") {
  PlanQuery q;
  q.base.model = "qwen3-30b-a3b";  // a mixture of experts: expert-parallel layouts are searched too
  q.workload = Fixed(200, 512, 128, 6);
  q.tpot_p90_s = 0.04;
  const Result<PlanResult> whole = PlanServing(Cat(), q);
  REQUIRE(whole.ok());
  PlanSearch search(Cat(), q);
  CHECK(search.stage().rfind("screening: 0 of ", 0) == 0);
  double last = search.progress();
  int steps = 0;
  bool replaying = false;
  while (search.Step(0)) {  // one unit per step: a GPU screened or a replay run
    ++steps;
    CHECK(search.progress() >= last);
    last = search.progress();
    replaying = replaying || search.stage().rfind("replaying", 0) == 0;
    REQUIRE(search.result().ok());
  }
  CHECK(replaying);
  CHECK(search.done());
  CHECK(search.progress() == 1);
  CHECK(steps > static_cast<int>(Cat().gpus.size()) / 2);
  REQUIRE(search.result().ok());
  CHECK(PlanJson(Cat(), q, *search.result()) == PlanJson(Cat(), q, *whole));
  CHECK_FALSE(search.Step(0));  // done stays done

  // The layouts searched: pipeline stages, and tensor with expert parallelism for a MoE; each
  // row's GPUs are tp x pp and at most max-gpus.
  CHECK(whole->considered > 1500);
  q.finalists = 200;
  q.max_gpus = 4;
  const Result<PlanResult> wide = PlanServing(Cat(), q);
  REQUIRE(wide.ok());
  bool pp = false, ep = false;
  for (const PlanRow& row : wide->rows) {
    pp = pp || row.s.pp > 1;
    ep = ep || row.s.ep == 1;
    CHECK(row.s.Gpus() <= 4);
    CHECK((row.s.tp == 1 || row.s.pp == 1));
  }
  CHECK(pp);
  CHECK(ep);

  // A query the search refuses is done at once, with the error.
  q.base.model = "nope";
  PlanSearch bad(Cat(), q);
  CHECK(bad.done());
  CHECK(bad.result().error().rfind("model:", 0) == 0);
  CHECK_FALSE(bad.Step(0));
}

TEST_CASE("latency against load: capacity first, then rising rates until the queue grows", "[serving]") {
  const Scenario s = Make("llama-3.1-70b", "rtx-4090", "q4_k_m", 2, "llama.cpp");
  WorkloadSpec w = Fixed(200, 512, 128, 1);
  ServeOptions o;
  o.ttft_sla_s = 2;
  const ServeEstimate e = Serve(s, w, o);
  LoadCurve c;
  int steps = 0;
  while (LoadCurveStep(e, w, c)) ++steps;
  CHECK(steps == static_cast<int>(std::size(kLoadFractions)));  // the capacity, then every point but the last
  CHECK(c.done);
  CHECK(c.capacity_rps > 0);
  REQUIRE(c.points.size() == std::size(kLoadFractions));
  for (size_t i = 1; i < c.points.size(); ++i) {
    CHECK(c.points[i].rate_rps > c.points[i - 1].rate_rps);
    CHECK(c.points[i].ttft_s.p90 >= c.points[i - 1].ttft_s.p90 * 0.9);
  }
  // Four slots at 115 % of their capacity: the queue grows; at 10 % it does not.
  CHECK(c.points.back().saturated);
  CHECK_FALSE(c.points.front().saturated);
  REQUIRE(c.knee >= 0);
  CHECK(c.points[static_cast<size_t>(c.knee)].ttft_s.p90 <= 2);
  if (static_cast<size_t>(c.knee) + 1 < c.points.size()) {
    const LoadPoint& next = c.points[static_cast<size_t>(c.knee) + 1];
    CHECK((next.ttft_s.p90 > 2 || next.saturated));
  }
  CHECK_FALSE(LoadCurveStep(e, w, c));  // complete stays complete
}
