// Inference memory: published KV sizes, GQA vs MHA, tensor-parallel split, the fit verdict
// and its limits, and no non-finite number on extreme inputs.
#include <catch2/catch.hpp>

#include "support.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "gpuplan/inference.h"
#include "gpuplan/units.h"

using namespace gpuplan;
using test::Cat;

namespace {

MemoryEstimate Estimate(const Scenario& s) {
  Result<MemoryEstimate> r = EstimateMemory(Cat(), s);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return r.value();
}

double TermBytes(const MemoryEstimate& e, const std::string& key) {
  for (const Term& t : e.terms)
    if (t.key == key) return t.bytes;
  FAIL("no term " << key);
  return 0;
}

}  // namespace

TEST_CASE("KV cache per token matches published figures (tests/reference/kv_cache.json)", "[inference][reference]") {
  nlohmann::json ref = nlohmann::json::parse(test::ReadTestFile("reference/kv_cache.json"));
  REQUIRE(ref["cases"].size() >= 1);
  for (const auto& c : ref["cases"]) {
    Scenario s;
    s.model = c["model"].get<std::string>();
    s.kv = c["kv"].get<std::string>();
    s.gpu = "h100-sxm";
    MemoryEstimate e = Estimate(s);
    INFO(c["source"]["title"].get<std::string>());
    CHECK(e.kv_bytes_per_token == Approx(c["published_bytes_per_token"].get<double>())
                                      .epsilon(c["tolerance_rel"].get<double>() + 1e-12));
  }
}

TEST_CASE("GQA: Llama 3.1 8B holds 4x less KV per token than MHA Llama 2 7B", "[inference]") {
  Scenario s;
  s.model = "llama-3.1-8b";
  double gqa = Estimate(s).kv_bytes_per_token;
  s.model = "llama-2-7b";
  double mha = Estimate(s).kv_bytes_per_token;
  CHECK(gqa == 128 * kKiB);  // 2 × 32 layers × 8 KV heads × 128 × 2 B
  CHECK(mha == 512 * kKiB);  // 32 KV heads
  s.kv = "fp8";
  CHECK(Estimate(s).kv_bytes_per_token == 256 * kKiB);
}

TEST_CASE("weights use effective bits per weight and split over GPUs", "[inference]") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.weights = "bf16";
  s.gpu = "h100-sxm";
  s.tp = 1;
  double one = TermBytes(Estimate(s), "weights");
  CHECK(one == Approx(70553706496.0 * 2));
  s.tp = 4;
  CHECK(TermBytes(Estimate(s), "weights") == Approx(one / 4));
  s.weights = "q8_0";
  CHECK(TermBytes(Estimate(s), "weights") == Approx(70553706496.0 * 8.5 / 8 / 4));
}

TEST_CASE("KV heads split under tensor parallelism and are replicated past kv_heads", "[inference]") {
  Scenario s;
  s.model = "llama-3.1-70b";  // 8 KV heads
  s.gpu = "h100-sxm";
  s.tp = 2;
  CHECK(Estimate(s).kv_heads_per_gpu == 4);
  s.tp = 8;
  CHECK(Estimate(s).kv_heads_per_gpu == 1);
  CHECK(Estimate(s).warnings.empty());
  s.tp = 16;
  MemoryEstimate e = Estimate(s);
  CHECK(e.kv_heads_per_gpu == 1);
  REQUIRE(e.warnings.size() == 1);
  CHECK_THAT(e.warnings[0], Catch::Matchers::Contains("replicated"));
  s.tp = 3;
  CHECK_THAT(Estimate(s).warnings.at(0), Catch::Matchers::Contains("do not divide evenly"));
}

TEST_CASE("the verdict: fits exactly up to max_context and max_batch", "[inference]") {
  Scenario s;
  s.model = "llama-3.1-8b";
  s.gpu = "rtx-4090";
  s.weights = "bf16";
  s.batch = 2;
  MemoryEstimate e = Estimate(s);
  REQUIRE(e.max_context > 0);
  s.context = e.max_context;
  CHECK(Estimate(s).fits);
  s.context = e.max_context + 1;
  CHECK_FALSE(Estimate(s).fits);

  s.context = 8192;
  long long max_batch = Estimate(s).max_batch;
  REQUIRE(max_batch > 0);
  s.batch = max_batch;
  CHECK(Estimate(s).fits);
  s.batch = max_batch + 1;
  CHECK_FALSE(Estimate(s).fits);
}

TEST_CASE("70B in BF16 does not fit one 24 GB card - its headroom is negative and stated", "[inference]") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.gpu = "rtx-4090";
  MemoryEstimate e = Estimate(s);
  CHECK_FALSE(e.fits);
  CHECK(e.headroom_bytes < -100 * kGiB);
  CHECK(e.max_context == 0);
  CHECK(e.max_batch == 0);
}

TEST_CASE("the total is the sum of its terms and capacity is the driver total less its steps", "[inference]") {
  Scenario s;
  MemoryEstimate e = Estimate(s);
  double sum = 0;
  for (const Term& t : e.terms) sum += t.bytes;
  CHECK(e.total_bytes == sum);
  REQUIRE(Cat().FindGpu(s.gpu)->memory_reported);
  CHECK(e.device.total_bytes == Cat().FindGpu(s.gpu)->memory_reported->bytes);
  double steps = 0;
  for (const CapacityStep& c : e.device.steps) steps += c.bytes;
  CHECK(e.capacity_bytes == Approx(e.device.total_bytes - steps));
  CHECK(e.headroom_bytes == e.usable_bytes - e.total_bytes);
  CHECK(e.usable_bytes <= e.capacity_bytes);
}

TEST_CASE("extreme scenarios stay finite and non-negative where sizes are", "[inference]") {
  for (const Model& m : Cat().models)
    for (const Gpu& g : Cat().gpus)
      for (long long context : {1LL, 16777216LL})
        for (long long batch : {1LL, 65536LL})
          for (int count : {1, 3, 4096}) {
            Scenario s;
            s.model = m.id;
            s.gpu = g.id;
            s.context = context;
            s.batch = batch;
            s.tp = count;
            s.weights = "nf4-dq";
            MemoryEstimate e = Estimate(s);
            for (const Term& t : e.terms) {
              CHECK(std::isfinite(t.bytes));
              CHECK(t.bytes >= 0);
            }
            CHECK(std::isfinite(e.headroom_bytes));
            CHECK(e.max_context >= 0);
            CHECK(e.max_batch >= 0);
          }
}

TEST_CASE("invalid scenarios come back as errors naming the field", "[inference]") {
  Scenario s;
  s.model = "nope";
  Result<MemoryEstimate> r = EstimateMemory(Cat(), s);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error(), Catch::Matchers::StartsWith("model:"));
  s = Scenario{};
  s.tp = 0;
  CHECK_FALSE(EstimateMemory(Cat(), s).ok());
  s = Scenario{};
  s.overhead_gib = std::nan("");
  CHECK_FALSE(EstimateMemory(Cat(), s).ok());
}

TEST_CASE("Resolve looks a scenario's ids up once and names the first unknown field with the known ids",
          "[inference]") {
  Scenario s;
  Result<Resolved> r = Resolve(Cat(), s);
  REQUIRE(r.ok());
  CHECK(&r->catalog == &Cat());
  CHECK(r->model.id == s.model);
  CHECK(r->gpu.id == s.gpu);
  CHECK(r->weights.id == s.weights);
  CHECK(r->kv.id == s.kv);
  CHECK(r->engine.id == s.engine);
  // The estimators' overloads that take the resolved ids give the same estimate.
  Result<MemoryEstimate> a = EstimateMemory(Cat(), s), b = EstimateMemory(*r, s);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->total_bytes == b->total_bytes);
  CHECK(a->max_context == b->max_context);

  struct Bad {
    std::string Scenario::*field;
    const char* id;
    const char* message;
    const char* named;
  };
  const Bad bad[] = {
      {&Scenario::model, "llama-9", "model: unknown model 'llama-9' (known: ", "model"},
      {&Scenario::gpu, "h1000", "gpu: unknown GPU 'h1000' (known: ", "gpu"},
      {&Scenario::weights, "q3", "weights: unknown weight format 'q3' (known: ", "weights"},
      {&Scenario::kv, "fp7", "kv: unknown KV format 'fp7': did you mean 'fp8'? (known: ", "kv"},
      {&Scenario::engine, "ollama", "engine: unknown engine 'ollama' (known: vllm, ", "engine"},
  };
  for (const Bad& x : bad) {
    Scenario t;
    t.*x.field = x.id;
    Result<Resolved> u = Resolve(Cat(), t);
    INFO(x.id);
    REQUIRE_FALSE(u.ok());
    CHECK_THAT(u.error(), Catch::Matchers::StartsWith(x.message));
    CHECK(UnresolvedField(u.error()) == x.named);
    // Every estimator reports the same.
    CHECK(EstimateMemory(Cat(), t).error() == u.error());
  }
  Scenario both;
  both.model = "llama-9";
  both.gpu = "h1000";
  CHECK(UnresolvedField(Resolve(Cat(), both).error()) == "model");  // in the order of the fields
}

// The seeds' VRAM table (choosing-gpus-for-llms.ja.txt): each figure's reading reproduces it,
// and the recommended GPU is re-derived with KV cache, workspace and overhead.
TEST_CASE("the seeds' VRAM table: what each figure implies, and the recommended GPUs re-derived", "[inference][reference]") {
  const nlohmann::json ref = nlohmann::json::parse(test::ReadTestFile("reference/seed_vram_table.json"));
  for (const auto& row : ref["rows"]) {
    const std::string model = row["model"].get<std::string>();
    INFO("seed line " << row["line"].get<int>() << ": " << model << " " << row["seed"].get<std::string>());
    REQUIRE(Cat().FindModel(model));
    // The reading: nominal parameters × bits / 8, in the unit named, is the seed's figure.
    const double unit = row["unit"] == "GiB" ? kGiB : kGB;
    const double read = row["nominal_params"].get<double>() * row["bits"].get<double>() / 8 / unit;
    CHECK(read == Approx(row["seed_value"].get<double>()).epsilon(0.02));
    // ...and the other reading is off by the GB/GiB factor: the seed mixes units.
    const double other = row["nominal_params"].get<double>() * row["bits"].get<double>() / 8 / (unit == kGiB ? kGB : kGiB);
    CHECK(std::abs(other / row["seed_value"].get<double>() - 1) > 0.05);
    for (const auto& d : row["derived"]) {
      Scenario s;
      s.model = model;
      s.gpu = row["recommended"]["gpu"].get<std::string>();
      s.weights = d["weights"].get<std::string>();
      s.engine = d["engine"].get<std::string>();
      s.context = ref["context"].get<long long>();
      s.prompt = 1024;
      int fewest = 0;
      for (int count = 1; count <= 64 && fewest == 0; count *= 2) {
        s.tp = count;
        Result<MemoryEstimate> e = EstimateMemory(Cat(), s);
        REQUIRE(e.ok());
        if (e->fits) fewest = count;
      }
      INFO(s.weights << " with " << s.engine << ": " << d["why"].get<std::string>());
      CHECK(fewest == d["fewest"].get<int>());
    }
  }
}

// A mixed format's average bits over what a stage holds: a stage that holds nothing (every
// layer left in host RAM by llama.cpp's -ngl 0) prints the format's own figure, not "n/a".
TEST_CASE("a pipeline stage that holds no weights still states its bits", "[inference]") {
  Scenario s;
  s.model = "qwen2.5-1.5b";
  s.weights = "llm-int8";
  s.engine = "llama.cpp";
  s.gpu = "rtx-4090";
  s.pp = 4;
  s.gpu_layers = 0;
  Result<MemoryEstimate> e = EstimateMemory(Cat(), s);
  REQUIRE(e.ok());
  const std::string& f = e->terms[0].formula;
  INFO(f);
  CHECK(f.find("n/a") == std::string::npos);
  CHECK(f.find("nan") == std::string::npos);
  CHECK(f.find("bits on average") != std::string::npos);
}
