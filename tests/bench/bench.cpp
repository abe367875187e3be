// tests/bench/bench.cpp — how long the page's and the CLI's computations take, natively and in
// wasm (`bench` target; under node in the wasm build). Every figure is printed with its ratio
// to a reference measured in the same run (parsing the built-in catalog), so runs on different
// machines compare, and with its share of a 60 Hz frame (16.7 ms), the page's budget.
// Not a test: nothing here fails on time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/inference.h"
#include "gpuplan/plan.h"
#include "gpuplan/presets.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"
#include "gpuplan/serving.h"
#include "gpuplan/session.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"

using namespace gpuplan;

namespace {

// Median seconds of `reps` runs after one warm-up.
double Median(int reps, const std::function<void()>& fn) {
  fn();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

volatile double g_sink = 0;  // keeps results alive

}  // namespace

int main() {
  const Result<Catalog>& loaded = EmbeddedCatalog();
  if (!loaded.ok()) {
    std::fprintf(stderr, "bench: catalog failed to load: %s\n", loaded.error().c_str());
    return 1;
  }
  const Catalog& cat = loaded.value();
  const std::vector<CatalogFile> files = EmbeddedCatalogFiles();
#ifdef __EMSCRIPTEN__
  const char* where = "wasm (node)";
#else
  const char* where = "native";
#endif
  const double ref = Median(9, [&] { g_sink = g_sink + static_cast<double>(LoadCatalog(files, {}).ok()); });
  std::printf("gpuplan bench, %s: reference = parse the built-in catalog (%zu files, %zu GPUs, %zu models): %.3f ms\n",
              where, files.size(), cat.gpus.size(), cat.models.size(), ref * 1e3);
  std::printf("%-60s %10s %12s %10s\n", "what", "median", "x reference", "x frame");
  auto row = [&](const std::string& what, double s) {
    std::printf("%-60s %8.3f ms %12.3f %10.3f\n", what.c_str(), s * 1e3, s / ref, s / (1.0 / 60));
  };

  // Start-up: the built-in catalog from the compact form made at build time (what programs
  // read; catalog.h ReadCompactCatalog), against parsing and checking its JSON (the reference).
  {
    const std::string compact = WriteCompactCatalog(cat);
    row("start-up: the built-in catalog from its compact form (" + std::to_string(compact.size() / 1000) + " KB)",
        Median(21, [&] { g_sink = g_sink + static_cast<double>(ReadCompactCatalog(compact).ok()); }));
  }
  Scenario s8;
  const double single = Median(51, [&] {
    Result<MemoryEstimate> m = EstimateMemory(cat, s8);
    Result<SpeedEstimate> v = EstimateSpeed(cat, s8, *m);
    g_sink = g_sink + EstimateCost(cat, s8, *v).cloud_hour;
  });
  row("fit + speed + cost, Llama 3.1 8B on one RTX 4090", single);
  // The Train panel after an edit: the estimate with its predicted step, and the scaling curve
  // (one estimate per data-parallel degree).
  {
    // The seed's example (presets.h): Llama 3 8B with FSDP on 8 x A100.
    const Scenario t = DecodeState(FindPreset("seed-llama3-8b-8xa100")->hash, cat).scenario;
    row("train: Llama 3 8B FSDP on 8 x A100, estimate + scaling curve", Median(21, [&] {
          Result<TrainEstimate> e = EstimateTraining(cat, t);
          g_sink = g_sink + (e ? e->mfu : 0) + static_cast<double>(TrainingScaling(cat, t).size());
        }));
  }
  struct Case {
    const char* what;
    Scenario s;
  };
  Scenario s70;
  s70.model = "llama-3.1-70b";
  s70.weights = "fp8";
  Scenario r1;
  r1.model = "deepseek-r1";
  r1.weights = "fp8";
  r1.context = 32768;
  Scenario q;
  q.model = "qwen3-30b-a3b";
  q.weights = "q4_k_m";
  q.engine = "llama.cpp";
  for (const Case& c : {Case{"compare whole catalog: Llama 3.1 8B BF16 (vLLM)", s8},
                        Case{"compare whole catalog: Llama 3.1 70B FP8 (vLLM)", s70},
                        Case{"compare whole catalog: DeepSeek-R1 FP8, 32k context", r1},
                        Case{"compare whole catalog: Qwen3-30B-A3B Q4_K_M (llama.cpp)", q}})
    row(c.what, Median(11, [&] { g_sink = g_sink + static_cast<double>(CompareCatalog(cat, c.s).size()); }));
  // What the page recomputes after an edit: the Session's fit, speed, cost and speed curves (the
  // charts' 20 points), each once per change.
  Session session(cat);
  session.SetScenario(s8);
  long long edit = 0;
  row("page recompute after an edit (Session: fit, speed, cost, 20 curve points)", Median(21, [&] {
        session.Set("batch", std::to_string(1 + (edit++ % 16)));
        g_sink = g_sink + session.Speed()->tokens_per_s_total + session.Cost()->cloud_hour +
                 static_cast<double>(session.Curves().batch.size());
      }));

  // Serving at load (serving.h, issue 19: 1,000 requests in <= 20 ms natively, <= 80 ms in wasm):
  // the whole question (memory and speed estimates, the workload drawn, the run), against the
  // single-step estimate above.
  struct ServeCase {
    const char* what;
    Scenario s;
    WorkloadSpec w;
  };
  WorkloadSpec chat;  // ShareGPT-like: lognormal lengths with long tails
  chat.requests = 1000, chat.rate = 10;
  chat.input = {LengthDist::Kind::kLognormal, 250, 1.0, 4, 4096};
  chat.output = {LengthDist::Kind::kLognormal, 200, 0.9, 4, 2048};
  Scenario h100 = s8;
  h100.gpu = "h100-sxm";
  WorkloadSpec clients = chat;
  clients.rate = 0, clients.concurrency = 64;
  Scenario tp2 = s70;
  tp2.gpu = "h100-sxm", tp2.tp = 2;
  WorkloadSpec fixed;
  fixed.requests = 1000, fixed.rate = 0, fixed.concurrency = 256;
  fixed.input = {LengthDist::Kind::kFixed, 1000}, fixed.output = {LengthDist::Kind::kFixed, 1000};
  Scenario r1x8 = r1;
  r1x8.gpu = "h200-sxm", r1x8.tp = 8, r1x8.context = 8192;
  for (const ServeCase& c :
       {ServeCase{"serve 1,000 chat requests at 10/s: Llama 3.1 8B, one H100", h100, chat},
        ServeCase{"serve 1,000 chat requests, 64 clients: Llama 3.1 70B FP8, 2 x H100", tp2, clients},
        ServeCase{"serve 1,000 x (1000 in, 1000 out), 256 clients: DeepSeek-R1, 8 x H200", r1x8, fixed}}) {
    const Result<Resolved> r = Resolve(cat, c.s);
    long long steps = 0;
    const double t = Median(5, [&] {
      Result<ServeEstimate> e = EstimateServing(*r, c.s, c.w, {});
      if (!e) {
        std::fprintf(stderr, "bench: %s: %s\n", c.what, e.error().c_str());
        return;
      }
      steps = e->result.steps;
      g_sink = g_sink + e->result.ttft_s.p90;
    });
    row(c.what, t);
    std::printf("%-60s %10lld steps, x%.1f of the single-step estimate\n", "", steps, t / single);
  }

  // The inverse search over the whole catalog (plan.h, issue 19: <= 2 s natively): screen every
  // GPU x engine x format x count, replay the cheapest.
  {
    PlanQuery pq;
    pq.base.model = "llama-3.1-70b";
    pq.workload = chat;
    pq.workload.requests = 1000, pq.workload.rate = 5;
    pq.tpot_p90_s = 0.05, pq.ttft_p90_s = 2;
    int considered = 0, replayed = 0;
    const double t = Median(3, [&] {
      Result<PlanResult> p = PlanServing(cat, pq);
      if (!p) return;
      considered = p->considered, replayed = p->replayed;
      g_sink = g_sink + static_cast<double>(p->rows.size());
    });
    row("plan: Llama 3.1 70B, chat at 5/s, TPOT p90 <= 50 ms, whole catalog", t);
    std::printf("%-60s %10d setups screened, %d replays, x%.1f of the single-step estimate\n", "", considered, replayed,
                t / single);
  }
  return 0;
}
