// Model architectures: Hugging Face config.json import and parameter counts computed from the
// architecture, compared with published counts (tests/reference/model_params-*.json) for
// every model whose config is in tests/data/hf/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "support.h"
#include "gpuplan/catalog.h"
#include "gpuplan/hf_config.h"
#include "gpuplan/model.h"

using namespace gpuplan;
using Catch::Matchers::Contains;

namespace {

Model Import(const std::string& id) {
  Result<Model> m = ImportHfConfig(test::ReadTestFile("data/hf/" + id + ".config.json"), id + ".config.json", id);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  return m.value();
}

}  // namespace

TEST_CASE("computed parameter counts match published ones within 1%", "[model][reference]") {
  int checked = 0;
  for (const char* file : {"model_params-a.json", "model_params-b.json", "model_params-c.json"}) {
    nlohmann::json ref = nlohmann::json::parse(test::ReadTestFile(std::string("reference/") + file));
    for (const auto& entry : ref["models"]) {
      const std::string id = entry["id"].get<std::string>();
      if (!entry.value("comparable", true)) continue;  // no exact published count, or refused (reason in the file)
      Model m = Import(id);
      ParamCount c = CountParams(m);
      // 1%, or one unit of the publisher's rounding where the count is given rounded ("37B").
      auto tolerance = [&](const char* which, double published) {
        double tol = 0.01;
        if (entry.contains("published_rounded_to")) {
          const nlohmann::json& r = entry["published_rounded_to"];
          for (const auto& one : r.is_array() ? r : nlohmann::json::array({r})) {
            const std::string w = one["which"].get<std::string>();
            if (w == which || w == "both") tol = std::max(tol, one["unit"].get<double>() / published);
          }
        }
        return tol;
      };
      // The publisher's conventions (model.h): vision tower, MTP module, embeddings in the active count.
      m.published_excludes_vision = entry.value("total_excludes_vision", false);
      m.published_includes_mtp = entry.value("total_includes_mtp", false);
      m.active_excludes = entry.value("active_excludes", entry.value("active_excludes_input_embedding", false) ? "input_embedding" : "");
      const double total = entry["published_total_params"].get<double>();
      INFO(id << ": computed total " << PublishedConventionTotal(m, c) << ", published " << total << " ("
              << entry["params_source"]["title"].get<std::string>() << ")");
      CHECK(std::abs(PublishedConventionTotal(m, c) / total - 1) <= tolerance("total", total));
      if (entry.contains("published_vision_params"))
        CHECK(c.vision == entry["published_vision_params"].get<double>());
      if (entry.contains("published_active_params") && !entry["published_active_params"].is_null()) {
        const double active = entry["published_active_params"].get<double>();
        const double computed = PublishedConventionActive(m, c);
        INFO("computed active " << computed << ", published " << active);
        CHECK(std::abs(computed / active - 1) <= tolerance("active", active));
      }
      ++checked;
    }
  }
  CHECK(checked >= 55);
}

TEST_CASE("import reads each family's layout", "[model][import]") {
  Model ds = Import("deepseek-v3");
  REQUIRE(ds.mla);
  CHECK(ds.mla->kv_lora_rank == 512);
  CHECK(ds.mla->qk_rope_head_dim == 64);
  REQUIRE(ds.moe);
  CHECK(ds.moe->experts == 256);
  CHECK(ds.moe->experts_per_token == 8);
  CHECK(ds.moe->shared_experts == 1);
  CHECK(ds.moe->first_dense_layers == 3);
  // MLA caches one latent (512) plus the decoupled RoPE key (64) per layer: 61 × 576 × 2 B.
  CHECK(KvBytesPerToken(ds, 2) == 61 * 576 * 2);
  // ... replicated on every tensor-parallel GPU.
  CHECK(KvCacheBytes(ds, 1000, 2, 8) == KvCacheBytes(ds, 1000, 2, 1));

  Model mistral = Import("mistral-7b-v0.1");
  CHECK(mistral.sliding_window == 4096);
  // Every layer slides: the cache stops growing at the window.
  CHECK(KvCacheBytes(mistral, 32768, 2, 1) == KvCacheBytes(mistral, 4096, 2, 1));
  CHECK(KvCacheBytes(mistral, 4096, 2, 1) == 4096.0 * 32 * 2 * 8 * 128 * 2);

  Model gemma2 = Import("gemma-2-9b");
  CHECK(gemma2.norms_per_layer == 4);
  CHECK(gemma2.IsSlidingLayer(0));
  CHECK_FALSE(gemma2.IsSlidingLayer(1));
  // Half the layers are global and keep growing; the other half stop at 4,096.
  const double per_layer_token = 2.0 * 8 * 256 * 2;
  CHECK(KvCacheBytes(gemma2, 8192, 2, 1) == per_layer_token * (21 * 8192.0 + 21 * 4096.0));

  Model gemma3 = Import("gemma-3-27b");
  CHECK(gemma3.qk_norm);
  CHECK(gemma3.vocab == 262208);  // Gemma3TextConfig default, absent from the published file
  CHECK_FALSE(gemma3.IsSlidingLayer(5));  // 5 local : 1 global
  CHECK(gemma3.IsSlidingLayer(6));

  Model jamba = Import("jamba-v0.1");
  REQUIRE(jamba.mamba);
  CHECK(jamba.IsAttentionLayer(4));
  CHECK_FALSE(jamba.IsAttentionLayer(5));
  CHECK(jamba.IsMoeLayer(1));
  CHECK_FALSE(jamba.IsMoeLayer(2));
  // Only 4 of 32 layers keep a KV cache; Mamba layers hold a constant state.
  CHECK(KvBytesPerToken(jamba, 2) == 4 * 2 * 8 * 128 * 2);
  CHECK(KvCacheBytes(jamba, 0, 2, 1) > 0);

  Model mixtral = Import("mixtral-8x7b");
  REQUIRE(mixtral.moe);
  CHECK(mixtral.moe->experts == 8);
  CHECK(mixtral.moe->experts_per_token == 2);

  Model oss = Import("gpt-oss-120b");
  CHECK(oss.attention_sinks);
  CHECK(oss.qkv_bias);
  REQUIRE(oss.moe);
  CHECK(oss.moe->expert_bias);

  Model falcon = Import("falcon-40b");
  CHECK(falcon.layer_norm);
  CHECK_FALSE(falcon.gated_mlp);
  CHECK(falcon.kv_heads == 8);
}

TEST_CASE("numbers from a config or catalog are limited before any cast or loop", "[model][import][limits]") {
  auto config = [](const std::string& key, const std::string& value) {
    nlohmann::json j = nlohmann::json::parse(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "intermediate_size": 14336})");
    j[key] = nlohmann::json::parse(value);
    return ImportHfConfig(j.dump(), "config.json");
  };
  // 23,333,333,334 layers used to wrap to 1.86 billion and loop once per layer.
  Result<Model> layers = config("num_hidden_layers", "23333333334");
  REQUIRE_FALSE(layers.ok());
  CHECK_THAT(layers.error(), Contains("config.json: key 'num_hidden_layers' is 23333333334, above 1,024, the largest "
                                      "number of layers gpuplan accepts"));
  // 2^32 + 4096 used to import as 4096.
  CHECK_THAT(config("hidden_size", "4294971392").error(), Contains("key 'hidden_size' is 4294971392, above 131,072"));
  CHECK_THAT(config("hidden_size", "2147483647").error(), Contains("above 131,072"));
  CHECK_THAT(config("vocab_size", "1e12").error(), Contains("key 'vocab_size' is 1000000000000, above 4,194,304"));
  CHECK_THAT(config("max_position_embeddings", "9007199254740993").error(), Contains("above 134,217,728"));
  CHECK_THAT(config("num_local_experts", "100000").error(), Contains("above 16,384, the largest number of experts"));
  CHECK_THAT(config("sliding_window", "4294967296").error(), Contains("key 'sliding_window' is 4294967296"));
  // A real model at its limits still loads: Llama 3.1 405B's 126 layers, Gemma 3's 262,144 vocabulary.
  CHECK(config("num_hidden_layers", "126").ok());
  CHECK(config("vocab_size", "262144").ok());
  // The catalog's flat fields: the same limits.
  const std::string file = R"({"schema": 1, "models": [{"id": "m", "name": "M", "layers": 32, "hidden": 4294967296,
      "heads": 32, "kv_heads": 8, "head_dim": 128, "vocab": 32000, "sources": [{"title": "T", "url": "https://x.invalid",
      "read": "2026-12-03", "fields": ["layers", "hidden", "heads", "kv_heads", "head_dim", "vocab"]}]}]})";
  Result<Catalog> cat = LoadCatalog({{"user.json", file}});
  REQUIRE_FALSE(cat.ok());
  CHECK_THAT(cat.error(), Contains("models[0] (id 'm'): field 'hidden' is 4,294,967,296, above 131,072"));
}

TEST_CASE("import errors name the key - unknown keys are ignored", "[model][import]") {
  auto err = [](const std::string& text) {
    Result<Model> m = ImportHfConfig(text, "config.json");
    REQUIRE_FALSE(m.ok());
    return m.error();
  };
  CHECK_THAT(err("{"), Contains("config.json: not valid JSON"));
  CHECK_THAT(err("[1, 2]"), Contains("must be a JSON object"));
  CHECK_THAT(err(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000})"),
             Contains("key 'num_hidden_layers' is missing"));
  CHECK_THAT(err(R"({"model_type": "llama", "hidden_size": "4096", "num_hidden_layers": 32, "num_attention_heads": 32,
                    "vocab_size": 32000})"),
             Contains("key 'hidden_size' must be a whole number"));
  CHECK_THAT(err(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                    "num_key_value_heads": 5, "vocab_size": 32000})"),
             Contains("'num_key_value_heads' (5)") && Contains("divide"));
  CHECK_THAT(err(R"({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 10})"),
             Contains("'model_type' is missing"));
  CHECK_THAT(err(R"({"model_type": "mixtral", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
                    "vocab_size": 10, "num_local_experts": 8, "num_experts_per_tok": 9})"),
             Contains("num_experts_per_tok"));
  // An unknown layout is refused with its model_type and the supported list, not read as Llama.
  CHECK_THAT(err(R"({"model_type": "future_hybrid", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
                    "vocab_size": 10, "layer_types": ["linear_attention", "full_attention"]})"),
             Contains("model_type 'future_hybrid' is not a layout gpuplan reads") && Contains("supported: llama, "));
  // Linear-attention layers in a family that has none are refused rather than counted wrong.
  CHECK_THAT(err(R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
                    "vocab_size": 10, "layer_types": ["linear_attention", "full_attention"]})"),
             Contains("linear_attention") && Contains("does not model"));
  // Encoder-decoder models (T5, BART, Whisper) are refused with the reason.
  CHECK_THAT(err(test::ReadTestFile("data/hf/t5-small.config.json")),
             Contains("model_type 't5' is an encoder-decoder model"));
  // A config without model_type names its family by the class in "architectures".
  Result<Model> by_class = ImportHfConfig(R"({"architectures": ["GPT2LMHeadModel"], "n_embd": 64, "n_layer": 2,
      "n_head": 4, "vocab_size": 10, "n_positions": 32})", "config.json");
  REQUIRE(by_class.ok());
  CHECK(by_class.value().model_type == "gpt2");

  Result<Model> ok = ImportHfConfig(R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
      "num_attention_heads": 4, "vocab_size": 10, "some_future_key": {"x": [1, 2]}, "rope_scaling": null})",
                                    "config.json", "tiny");
  REQUIRE(ok.ok());
  CHECK(ok.value().id == "tiny");
  CHECK(ok.value().kv_heads == 4);
  CHECK(ok.value().head_dim == 16);
  CHECK(ok.value().intermediate == 256);  // absent: 4 × hidden
}

TEST_CASE("every built-in model imports and its computed count is finite and positive", "[model][catalog]") {
  for (const Model& m : test::Cat().models) {
    INFO(m.id);
    ParamCount c = CountParams(m);
    CHECK(c.total > 1e8);
    CHECK(c.active <= c.total);
    CHECK(c.active > 0);
    // Within 2% of the published count under the publisher's conventions (model.h), or of its
    // rounding ("1T" for Kimi K2's 1.026 trillion); the loader enforces the same.
    if (m.params > 0) CHECK(std::abs(PublishedConventionTotal(m, c) / m.params - 1) < 0.03);
    CHECK(KvBytesPerToken(m, 2) > 0);
  }
}

TEST_CASE("user text: a config.json becomes a model, a catalog file merges, garbage is refused", "[model][import]") {
  const Catalog& base = test::Cat();
  const std::string cfg = test::ReadTestFile("data/hf/phi-4.config.json");
  Result<ImportedText> a = ImportUserText(base, cfg, "My Phi.config.json");
  REQUIRE(a.ok());
  const Model* m = a.value().catalog.FindModel("my-phi");
  REQUIRE(m);
  CHECK(m->name == "my-phi (imported)");
  CHECK(a.value().catalog.models.size() == base.models.size() + 1);
  CHECK_THAT(a.value().summary, Contains("model 'my-phi' added"));

  const std::string file = R"({"schema": 1, "gpus": [{"id": "lab-gpu", "name": "Lab GPU", "vendor": "Lab",
    "memory": {"value": 96, "unit": "GiB"}, "sources": [{"fields": ["memory"], "title": "our card",
    "url": "https://example.invalid", "read": "2026-11-29"}]}]})";
  Result<ImportedText> b = ImportUserText(base, file, "lab.json");
  REQUIRE(b.ok());
  CHECK(b.value().catalog.FindGpu("lab-gpu"));
  CHECK_THAT(b.value().summary, Contains("1 new GPUs"));

  Result<ImportedText> c = ImportUserText(base, "{\"model_type\": \"llama\"}", "");
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.error(), Contains("pasted text: key 'hidden_size' is missing"));
  CHECK_FALSE(ImportUserText(base, "not json", "x.json").ok());
}

// Qwen3-Next: 3 Gated DeltaNet layers to 1 full-attention layer, 512 experts top-10 with a
// shared expert. The model card gives 80 B parameters in total and "3B activated".
TEST_CASE("Qwen3-Next: linear-attention layers counted, their state is fixed per sequence", "[model]") {
  Result<Model> r = ImportHfConfig(test::ReadTestFile("data/hf/qwen3-next-80b-a3b.config.json"), "config.json", "next");
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  const Model& m = r.value();
  int full = 0;
  for (int i = 0; i < m.layers; ++i) full += m.IsAttentionLayer(i);
  CHECK(full == 12);
  CHECK_FALSE(m.IsAttentionLayer(0));
  CHECK(m.IsAttentionLayer(3));
  const ParamCount c = CountParams(m);
  CHECK(c.total == Approx(80e9).epsilon(0.01));
  // Active without the embedding and LM head: 3.25 B, which the card rounds to "3B".
  CHECK((c.active - c.embedding) / 1e9 == Approx(3.25).epsilon(0.02));
  // The cache: 12 attention layers × K and V × 2 KV heads × 256 × 2 B per token, plus a state
  // that does not grow: 36 layers × (32 heads × 128 × 128 + conv 8,192 × 3) × 2 B.
  CHECK(KvBytesPerToken(m, 2) == 12 * 2 * 2 * 256 * 2);
  const double state = 36.0 * (32 * 128 * 128 + 8192 * 3) * 2;
  CHECK(KvCacheBytes(m, 1, 2, 1) == Approx(state + KvBytesPerToken(m, 2)));
  CHECK(KvCacheBytes(m, 100000, 2, 1) == Approx(state + 100000 * KvBytesPerToken(m, 2)));
  CHECK_THAT(DescribeAttention(m), Contains("36 linear-attention"));
}

TEST_CASE("an imported config's id is the same from the CLI and the page: lower-case, URL-safe", "[model][import]") {
  CHECK(ImportedModelId("models/Llama-3.1-8B.config.json") == "llama-3.1-8b");
  CHECK(ImportedModelId("Qwen2.5 7B (mine).json") == "qwen2.5-7b--mine-");
  CHECK(ImportedModelId("meta-llama/Llama-3.2-1B") == "llama-3.2-1b");
  CHECK(ImportedModelId("config.json") == "imported-model");
  CHECK(ImportedModelId("") == "imported-model");
  // The page's import names the model by the same rule (catalog.cpp ImportUserText).
  const std::string text = R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
    "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 128, "vocab_size": 1000})";
  Result<ImportedText> r = ImportUserText(test::Cat(), text, "My-Model.config.json");
  REQUIRE(r.ok());
  CHECK(r.value().catalog.FindModel("my-model") != nullptr);
}
