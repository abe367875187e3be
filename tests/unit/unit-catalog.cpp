// Catalog: the embedded data loads and respects the traps; bad files are rejected with a
// message that names file, entry and field.
#include <catch2/catch.hpp>

#include "support.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog.h"
#include "gpuplan/describe.h"
#include "gpuplan/inference.h"
#include "gpuplan/speed.h"
#include "gpuplan/units.h"

using namespace gpuplan;
using Catch::Matchers::Contains;

namespace {

// A minimal valid GPU file with one substitution applied.
std::string GpuFile(const std::string& memory = R"({"value": 24, "unit": "GB", "type": "GDDR6X"})",
                    const std::string& fields = R"(["memory", "bandwidth", "tdp_w"])",
                    const std::string& extra = R"("tdp_w": 450,)") {
  return R"({"schema": 1, "gpus": [{"id": "test-gpu", "name": "Test GPU", "vendor": "Test", "memory": )" + memory +
         R"(, "bandwidth": {"value": 1008, "unit": "GB/s"}, )" + extra +
         R"( "sources": [{"fields": )" + fields +
         R"(, "title": "Test datasheet", "url": "https://example.invalid/ds", "read": "2026-11-29"}]}]})";
}

Result<Catalog> Load(const std::string& text) { return LoadCatalog({{"user.json", text}}); }

// A built-in engine's entry as engines.json has it (the embedded file, with its sources).
nlohmann::json BuiltInEngine(const std::string& id) {
  for (const CatalogFile& f : EmbeddedCatalogFiles()) {
    if (f.name != "engines.json") continue;
    const nlohmann::json doc = nlohmann::json::parse(f.text);
    for (const nlohmann::json& e : doc["engines"])
      if (e["id"] == id) return e;
  }
  FAIL("no built-in engine " << id);
  return {};
}

// A user catalog file holding one engine entry.
std::string EngineFile(const nlohmann::json& entry) {
  return nlohmann::json{{"schema", 1}, {"engines", nlohmann::json::array({entry})}}.dump();
}

}  // namespace

TEST_CASE("the embedded catalog loads and every entry has sources", "[catalog]") {
  const Catalog& c = test::Cat();
  CHECK(c.gpus.size() >= 6);
  CHECK(c.models.size() >= 5);
  CHECK(c.weight_formats.size() >= 8);
  CHECK(c.kv_formats.size() >= 2);
  for (const Gpu& g : c.gpus) {
    INFO(g.id);
    CHECK(!g.sources.empty());
    CHECK(g.TotalBytes() > 1 * kGiB);
    for (const Source& s : g.sources) {
      CHECK(s.url.rfind("http", 0) == 0);
      CHECK(s.read.size() == 10);
    }
  }
  for (const Model& m : c.models) {
    INFO(m.id);
    CHECK(!m.sources.empty());
    CHECK(m.heads % m.kv_heads == 0);
  }
  for (const WeightFormat& f : c.weight_formats) {
    INFO(f.id);
    CHECK(!f.source.url.empty());
  }
  // An engine's efficiencies say how and when they were fitted (the loader lets the page's
  // lean copy leave the words out, so the built-in files are held to it here).
  for (const EngineProfile& e : c.engines) {
    INFO(e.id);
    CHECK(e.calibration.basis.size() > 20);
  }
}

TEST_CASE("catalog traps: dense figures, FP32-accumulate on GeForce, quoted units kept", "[catalog]") {
  const Catalog& c = test::Cat();
  const Gpu* h100 = c.FindGpu("h100-sxm");
  REQUIRE(h100);
  // The datasheet headline 1,979 TFLOPS is 2:4 sparse; the dense figure is half.
  CHECK(h100->dense_flops.at("bf16") == Approx(989.4e12).epsilon(0.01));
  CHECK(h100->memory_quoted_unit == "GB");
  CHECK(h100->memory_quoted_value == 80);
  const Gpu* rtx4090 = c.FindGpu("rtx-4090");
  REQUIRE(rtx4090);
  // Ada whitepaper: 165.2 dense with FP32 accumulate, 330.3 with FP16 accumulate.
  CHECK(rtx4090->dense_flops.at("fp16") == Approx(165.2e12).epsilon(0.01));
  CHECK(rtx4090->dense_flops.at("fp16_fp16acc") == Approx(2 * rtx4090->dense_flops.at("fp16")).epsilon(0.01));
  // Driver-reported total (24564 MiB) is closer to 24 GiB than to 24 GB.
  REQUIRE(rtx4090->memory_reported);
  CHECK(rtx4090->memory_reported->bytes == 24564 * kMiB);
  CHECK(rtx4090->TotalBytes() > 24e9);
}

TEST_CASE("parameter counts agree with the architecture (Llama-style layers)", "[catalog]") {
  // Llama: embeddings + lm_head (untied) + per layer q,o (h×h), k,v (h×kv·d), gated MLP 3·h·I,
  // two RMSNorms, plus the final norm. The published counts must match this to the parameter.
  const Catalog& c = test::Cat();
  for (const char* id : {"llama-3.1-8b", "llama-3.1-70b"}) {
    const Model* m = c.FindModel(id);
    REQUIRE(m);
    double h = m->hidden, kv = m->kv_heads * m->head_dim;
    double per_layer = 2 * h * h + 2 * h * kv + 3 * h * m->intermediate + 2 * h;
    double total = m->layers * per_layer + 2.0 * m->vocab * h + h;
    INFO(id);
    CHECK(total == m->params);
  }
}

TEST_CASE("the catalog's version: declared once in catalog.json, checked in user files, not taken from them",
          "[catalog]") {
  // The built-in files and their compact form agree (the programs read the latter).
  Result<Catalog> json = LoadBuiltInCatalog(EmbeddedCatalogFiles(), false);
  REQUIRE(json.ok());
  CHECK(json.value().catalog_version == test::Cat().catalog_version);
  CHECK(json.value().catalog_date == test::Cat().catalog_date);
  CHECK(test::Cat().catalog_version.find_first_not_of("0123456789.") == std::string::npos);
  CHECK(test::Cat().catalog_date.size() == 10);
  // A user file may declare one; it is checked and the built-in version stays.
  const std::string with =
      R"({"schema": 1, "catalog_version": "1999.1", "catalog_date": "1999-01-31",)" + GpuFile().substr(13);
  Result<Catalog> user = LoadCatalog({{"user.json", with}}, test::Cat());
  REQUIRE(user.ok());
  CHECK(user.value().catalog_version == test::Cat().catalog_version);
  // Alone, the first file that declares it sets it.
  Result<Catalog> alone = Load(with);
  REQUIRE(alone.ok());
  CHECK(alone.value().catalog_version == "1999.1");
  CHECK(alone.value().catalog_date == "1999-01-31");
  // Bad values and a version without its date are errors that name the field.
  Result<Catalog> bad = Load(R"({"schema": 1, "catalog_version": "v1; drop", "catalog_date": "soon"})");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Contains("user.json: field 'catalog_version' must be numbers and dots"));
  CHECK_THAT(bad.error(), Contains("field 'catalog_date' must be YYYY-MM-DD"));
  CHECK_FALSE(Load(R"({"schema": 1, "catalog_version": "2026.12"})").ok());
}

TEST_CASE("a valid user file adds an entry and overrides by id", "[catalog]") {
  Result<Catalog> c = LoadCatalog({{"user.json", GpuFile()}}, test::Cat());
  REQUIRE(c.ok());
  const Gpu* g = c.value().FindGpu("test-gpu");
  REQUIRE(g);
  CHECK(g->memory_quoted_bytes == 24e9);
  CHECK(g->bandwidth_bytes_per_s == 1008e9);
  CHECK(c.value().gpus.size() == test::Cat().gpus.size() + 1);

  std::string override_4090 = GpuFile();
  override_4090.replace(override_4090.find("test-gpu"), 8, "rtx-4090");
  Result<Catalog> o = LoadCatalog({{"user.json", override_4090}}, test::Cat());
  REQUIRE(o.ok());
  CHECK(o.value().gpus.size() == test::Cat().gpus.size());
  CHECK(o.value().FindGpu("rtx-4090")->name == "Test GPU");
}

TEST_CASE("an engine release is its base's profile with its own fields over it", "[catalog]") {
  const EngineProfile* newest = test::Cat().FindEngine("vllm");
  const EngineProfile* old = test::Cat().FindEngine("vllm-0.19");
  REQUIRE((newest && old));
  CHECK(old->base == "vllm");
  CHECK(old->memory_fraction == Approx(0.9));  // v0.21 raised it to 0.92
  CHECK(newest->memory_fraction == Approx(0.92));
  CHECK((newest->cuda_graphs_in_budget && !old->cuda_graphs_in_budget));
  CHECK(old->kv_block_tokens == newest->kv_block_tokens);  // inherited
  CHECK(old->calibration.kernel_s == newest->calibration.kernel_s);
  CHECK(old->sources.size() > newest->sources.size() - 1);  // the base's sources and its own
  // A base that is not given earlier in the file is named.
  Result<Catalog> bad = Load(R"({"schema": 1, "engines": [{"id": "x-1", "base": "nowhere"}]})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().find("'base'") != std::string::npos);
}

TEST_CASE("a measured ceiling names its unit, its GPU and its source", "[catalog]") {
  auto file = [](const std::string& fields) {
    return std::string(R"({"schema": 1, "ceilings": [{"id": "x", "what": "memory", "tool": "BabelStream", )") + fields +
           R"(, "sources": [{"fields": ["measured"], "title": "t", "url": "https://example.com", "read": "2026-12-02"}]}]})";
  };
  Result<Catalog> ok = LoadCatalog({{"user.json", file(R"("gpu": "h100-sxm", "measured": 3000, "unit": "GB/s")")}}, test::Cat());
  REQUIRE(ok.ok());
  CHECK(ok.value().ceilings.back().value == Approx(3000e9));
  Result<Catalog> unit = LoadCatalog({{"user.json", file(R"("gpu": "h100-sxm", "measured": 3, "unit": "TB/s")")}}, test::Cat());
  REQUIRE_FALSE(unit.ok());
  CHECK_THAT(unit.error(), Contains("'unit' must be GB/s for memory"));
  Result<Catalog> gpu = LoadCatalog({{"user.json", file(R"("gpu": "nope", "measured": 3000, "unit": "GB/s")")}}, test::Cat());
  REQUIRE_FALSE(gpu.ok());
  CHECK_THAT(gpu.error(), Contains("ceiling 'x': field 'gpu' names an unknown GPU 'nope'"));
}

TEST_CASE("malformed and invalid files name the file, entry and field", "[catalog]") {
  SECTION("not JSON") {
    auto r = Load("{\"schema\": 1, \"gpus\": [");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("user.json") && Contains("not valid JSON"));
  }
  SECTION("wrong schema") {
    auto r = Load(R"({"schema": 2})");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("'schema'"));
  }
  SECTION("missing field") {
    auto r = Load(GpuFile(R"({"unit": "GB"})"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("gpus[0] (id 'test-gpu')") && Contains("memory") && Contains("'value' is missing"));
  }
  SECTION("negative number") {
    auto r = Load(GpuFile(R"({"value": -24, "unit": "GB"})"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("'value' must be > 0"));
  }
  SECTION("unknown unit") {
    auto r = Load(GpuFile(R"({"value": 24, "unit": "gigs"})"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("'unit' must be one of"));
  }
  SECTION("a number without a source") {
    auto r = Load(GpuFile(R"({"value": 24, "unit": "GB"})", R"(["memory", "bandwidth"])"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("'tdp_w' has no source"));
  }
  SECTION("sparse-looking zero or string throughput") {
    auto r = Load(GpuFile(R"({"value": 24, "unit": "GB"})", R"(["memory", "bandwidth", "tdp_w", "dense_tflops"])",
                          R"("tdp_w": 450, "dense_tflops": {"fp16": "330"},)"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("dense_tflops.fp16"));
  }
  SECTION("duplicate ids in one file") {
    std::string two = GpuFile();
    std::string entry = two.substr(two.find("{\"id\""), two.rfind("]}") - two.find("{\"id\""));
    two.insert(two.rfind("]}"), ", " + entry);
    auto r = Load(two);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("gpus[1]") && Contains("repeats an id"));
  }
  SECTION("a rejected file changes nothing") {
    Result<Catalog> r = LoadCatalog({{"good.json", GpuFile()}, {"bad.json", "[]"}}, test::Cat());
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("bad.json"));
  }
  SECTION("model with kv_heads not dividing heads") {
    auto r = Load(R"({"schema":1,"models":[{"id":"m","name":"M","params":1e9,"layers":2,"hidden":64,"heads":6,
      "kv_heads":4,"head_dim":16,"vocab":100,"sources":[{"fields":["params","layers","hidden","heads","kv_heads","head_dim","vocab"],
      "title":"t","url":"https://example.invalid","read":"2026-11-29"}]}]})");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("models[0] (id 'm')") && Contains("'kv_heads' must divide heads"));
  }
}

TEST_CASE("a JSON error names its line, column and reason, with the line's text and a caret", "[catalog][json]") {
  auto err = [](const std::string& text) {
    auto r = Load(text);
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  CHECK_THAT(err("{\"schema\": 1,\n \"gpus\": [{\"x\": 1e400}]}"),
             Contains("user.json: not valid JSON at line 2, column 17: the number 1e400 is out of range") &&
                 Contains("\n     \"gpus\": [{\"x\": 1e400}]}\n                    ^"));
  CHECK_THAT(err("{\"schema\": 1, \"gpus\": [\n"),
             Contains("line 1, column 24: unexpected end of the text: a value is missing"));
  CHECK_THAT(err("{\"schema\": 1 \"gpus\": []}"), Contains("column 14: expected ',' or '}', found '\"'"));
  CHECK_THAT(err("{\"schema\": 01}"), Contains("a number cannot start with 0"));
  CHECK_THAT(err("{\"schema\": \"a\\qb\"}"), Contains("an invalid escape '\\q'"));
  CHECK_THAT(err("{\"schema\": \"a\tb\"}"), Contains("a control character inside a string"));
  CHECK_THAT(err("{\"schema\": \"\xff\"}"), Contains("invalid UTF-8 inside a string"));
  CHECK_THAT(err("{\"schema\": 1} x"), Contains("column 15: expected the end of the text after the value, found 'x'"));
  CHECK_THAT(err("{schema: 1}"), Contains("column 2: expected a key in double quotes, found 's'"));
  CHECK_THAT(err("{\"a\": \"b}"), Contains("a string is not closed"));
  CHECK_THAT(err(""), Contains("the text is empty") && !Contains("^"));
  // The column counts characters: the three-byte yen sign is one.
  CHECK_THAT(err("{\"\xc2\xa5\": tru}"), Contains("column 7: expected a value"));
  // A byte-order mark before the text is skipped, by the parser and by the locator alike: an error
  // after one is placed as in the text without it.
  CHECK(Load("\xEF\xBB\xBF{\"schema\": 1}").ok());
  CHECK_THAT(err("\xEF\xBB\xBF{\"schema\": 1 \"gpus\": []}"), Contains("column 14: expected ',' or '}', found '\"'"));
  // A million open brackets: the scanner keeps its own stack and finds the end of the text.
  CHECK_THAT(err(std::string(1000000, '[')), Contains("unexpected end of the text"));
}

TEST_CASE("typos are caught: unknown fields warn with the nearest, unknown lists and empty ids fail", "[catalog]") {
  SECTION("a misspelt field loads with a warning that names the field it was meant to be") {
    auto r = Load(GpuFile(R"({"value": 24, "unit": "GB", "type": "GDDR6X"})", R"(["memory", "bandwidth", "tdp_w"])",
                          R"("tdp_w": 450, "boost_clok_mhz": 2520, "colour": "green",)"));
    REQUIRE(r.ok());
    const std::vector<std::string>& w = r.value().warnings;
    auto has = [&](const std::string& text) {
      return std::any_of(w.begin(), w.end(), [&](const std::string& x) { return x.find(text) != std::string::npos; });
    };
    CHECK(
        has("gpus[0] (id 'test-gpu'): field 'boost_clok_mhz' is not a field of this entry (ignored): did you mean "
            "'boost_clock_mhz'?"));
    CHECK(has("field 'colour' is not a field of this entry (ignored)"));
    CHECK_FALSE(has("'colour' is not a field of this entry (ignored): did you mean"));
  }
  SECTION("inside a nested object too") {
    auto r = Load(GpuFile(R"({"value": 24, "unit": "GB", "type": "GDDR6X", "vaule": 3})"));
    REQUIRE(r.ok());
    const std::vector<std::string>& w = r.value().warnings;
    CHECK(std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x.find("memory: field 'vaule' is not a field of this entry (ignored): did you mean 'value'?") !=
             std::string::npos;
    }));
  }
  SECTION("an entry that fails lists its unknown fields among its errors") {
    auto r = Load(R"({"schema": 1, "models": [{"id": "m", "name": "M", "layrs": 3}]})");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("field 'layers' is missing") && Contains("'layrs' is not a field of this entry") &&
                              Contains("did you mean 'layers'?"));
  }
  SECTION("a key that names no list is an error") {
    auto r = Load(R"({"schema": 1, "gpu": [], "_comment": "fine", "$note": "fine too"})");
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("user.json: 'gpu' is not a list of a catalog file: did you mean 'gpus'?"));
    CHECK_THAT(r.error(), !Contains("_comment") && !Contains("$note"));
  }
  SECTION("an empty id is an error") {
    std::string file = GpuFile();
    file.replace(file.find("\"test-gpu\""), 10, "\"\"");
    auto r = Load(file);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("field 'id' must not be empty"));
  }
  SECTION("an id with a space or a control character is an error") {
    for (const char* id : {"\"my gpu\"", "\" \"", "\"gpu\\t1\""}) {
      std::string file = GpuFile();
      file.replace(file.find("\"test-gpu\""), 10, id);
      auto r = Load(file);
      REQUIRE_FALSE(r.ok());
      CHECK_THAT(r.error(), Contains("field 'id' must not contain spaces or control characters"));
    }
  }
  SECTION("the built-in catalog reads every field it holds") {
    for (const std::string& w : test::Cat().warnings) CHECK_THAT(w, !Contains("is not a field of this entry"));
  }
}

TEST_CASE("a catalog file's numbers within real-world limits before they are scaled or multiplied", "[catalog]") {
  SECTION("one device: memory, bandwidth, TFLOPS, power, clock") {
    struct Case {
      std::string memory, extra, field, limit;
    };
    const std::string mem = R"({"value": 24, "unit": "GB", "type": "GDDR6X"})";
    for (const Case& c : std::vector<Case>{
             {R"({"value": 200, "unit": "TB", "type": "HBM"})", R"("tdp_w": 450,)", "memory: field 'value' is 200,000",
              "above 100,000, the largest memory of one device (GB) gpuplan accepts"},
             {mem, R"("tdp_w": 450, "dense_tflops": {"bf16": 2e6},)", "field 'dense_tflops.bf16' is 2,000,000",
              "the largest TFLOPS of one device"},
             {mem, R"("tdp_w": 1e6,)", "field 'tdp_w' is 1,000,000", "the largest power of one device (W)"},
             {mem, R"("tdp_w": 450, "boost_clock_mhz": 25000,)", "field 'boost_clock_mhz' is 25,000",
              "the largest clock (MHz)"},
             {mem, R"("tdp_w": 450, "l2_cache_mib": 1e300,)", "field 'l2_cache_mib' is 1",
              "the largest quantity in a catalog file"},
         }) {
      auto r = Load(GpuFile(c.memory, R"(["memory", "bandwidth", "tdp_w"])", c.extra));
      REQUIRE_FALSE(r.ok());
      CHECK_THAT(r.error(), Contains("gpus[0] (id 'test-gpu'): " + c.field) && Contains(c.limit));
    }
    std::string fast = GpuFile();
    fast.replace(fast.find("1008"), 4, "2e8");
    auto r = Load(fast);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("bandwidth: field 'value' is 200,000,000") &&
                              Contains("the largest memory bandwidth of one device (GB/s)"));
  }
}

TEST_CASE("the nearest word: a typo's intended word, nothing for a stranger or a tie", "[units]") {
  const std::vector<std::string> words = {"fit", "speed", "cost", "compare", "train", "serve", "bandwidth", "gpus"};
  CHECK(NearestWord("fitt", words) == "fit");
  CHECK(NearestWord("sped", words) == "speed");
  CHECK(NearestWord("bandwith", words) == "bandwidth");
  CHECK(NearestWord("Bandwidht", words) == "bandwidth");  // a swap is one edit; case is ignored
  CHECK(NearestWord("gpu", words) == "gpus");
  CHECK(NearestWord("zzz", words).empty());
  CHECK(NearestWord("", words).empty());
  CHECK(NearestWord(std::string(100000, 'a'), words).empty());  // long input is not compared
  CHECK(NearestWord("cat", {"cap", "car"}).empty());            // two equally near: no guess
  CHECK(NearestWord("h1000", {"b100"}).empty());                // a typo rarely changes the first letter
}

TEST_CASE("unknown-id messages list the known ids", "[catalog]") {
  CHECK(UnknownIdMessage("GPU", "h1000", {"a", "b"}) == "unknown GPU 'h1000' (known: a, b)");
}

TEST_CASE("the extended GPU fields load, and each needs its source", "[catalog]") {
  const std::string full = R"({"schema": 1, "gpus": [{"id": "x", "name": "X", "vendor": "V", "year": 2024,
    "form_factor": "SXM5", "memory": {"value": 80, "unit": "GB", "type": "HBM3"},
    "bandwidth": {"value": 3.35, "unit": "TB/s"}, "l2_cache_mib": 50, "compute_units": {"value": 132, "kind": "SM"},
    "boost_clock_mhz": 1980, "dense_tflops": {"bf16": 989.4}, "sparsity_factor": 2, "tdp_w": 700,
    "interconnect": {"kind": "NVLink", "generation": 4, "gb_per_s": 900}, "pcie": {"gen": 5, "lanes": 16},
    "ecc": {"supported": true}, "mig": "up to 7 instances",
    "prices": [{"usd": 30000, "kind": "street", "date": "2024-01",
                "source": {"title": "t", "url": "https://example.invalid/p", "read": "2026-11-29"}}],
    "sources": [{"fields": ["memory", "bandwidth", "l2_cache_mib", "compute_units", "boost_clock_mhz", "dense_tflops",
                            "sparsity_factor", "tdp_w", "interconnect", "pcie", "ecc"],
                 "title": "t", "url": "https://example.invalid", "read": "2026-11-29"}]}]})";
  Result<Catalog> r = LoadCatalog({{"full.json", full}});
  REQUIRE(r.ok());
  const Gpu& g = r.value().gpus.at(0);
  CHECK(g.l2_cache_bytes == 50 * kMiB);
  CHECK(g.compute_units == 132);
  CHECK(g.compute_unit_kind == "SM");
  CHECK(g.boost_clock_hz == 1980e6);
  CHECK(g.sparsity_factor == 2);
  REQUIRE(g.interconnect);
  CHECK(g.interconnect->bytes_per_s == 900e9);
  CHECK(g.pcie_gen == 5);
  CHECK(g.ecc.value_or(false));
  REQUIRE(g.prices.size() == 1);
  CHECK(g.prices[0].usd == 30000);

  auto broken = [&](const std::string& from, const std::string& to) {
    std::string text = full;
    text.replace(text.find(from), from.size(), to);
    Result<Catalog> b = LoadCatalog({{"full.json", text}});
    REQUIRE_FALSE(b.ok());
    return b.error();
  };
  CHECK_THAT(broken("\"sparsity_factor\": 2", "\"sparsity_factor\": 8"), Contains("'sparsity_factor' must be from 1 to 4"));
  CHECK_THAT(broken("\"kind\": \"street\"", "\"kind\": \"rumour\""),
             Contains("prices[0]") && Contains("launch, street or estimate"));
  CHECK_THAT(broken("\"interconnect\", \"pcie\"", "\"pcie\""), Contains("'interconnect' has no source"));
  CHECK_THAT(broken("\"year\": 2024", "\"year\": 1999"), Contains("'year' must be a year"));
  CHECK_THAT(broken("\"value\": 132, \"kind\": \"SM\"", "\"value\": 132"), Contains("compute_units") && Contains("'kind' is missing"));
}

TEST_CASE("every numeric row of every built-in GPU names a source", "[catalog]") {
  for (const Gpu& g : test::Cat().gpus) {
    for (const DetailRow& row : DescribeGpu(g)) {
      if (row.field == "vendor" || row.field == "architecture" || row.field == "year" || row.field == "form_factor" ||
          row.field == "mig" || row.field == "prices")
        continue;  // text fields; prices carry their own source
      INFO(g.id << ": " << row.label);
      CHECK_FALSE(row.sources.empty());
    }
  }
}

TEST_CASE("every problem in a file is reported at once, each with file, entry and field", "[catalog]") {
  const std::string text = R"({"schema": 1, "gpus": [
    {"id": "a", "name": "A", "vendor": "V", "memory": {"value": -1, "unit": "GB"}, "tdp_w": "450",
     "sources": [{"fields": ["memory"], "title": "t", "url": "https://example.invalid", "read": "2026-11-29"}]},
    {"id": "b", "vendor": "V", "memory": {"value": 24, "unit": "gigs"},
     "sources": [{"fields": ["memory"], "title": "t", "url": "https://example.invalid", "read": "yesterday"}]}]})";
  Result<Catalog> r = LoadCatalog({{"many.json", text}});
  REQUIRE_FALSE(r.ok());
  const std::string& e = r.error();
  CHECK_THAT(e, Contains("many.json: gpus[0] (id 'a'): memory: field 'value' must be > 0"));
  CHECK_THAT(e, Contains("many.json: gpus[0] (id 'a'): field 'tdp_w' must be a number"));
  CHECK_THAT(e, Contains("many.json: gpus[1] (id 'b'): field 'name' is missing"));
  CHECK_THAT(e, Contains("gpus[1] (id 'b'): memory: field 'unit' must be one of"));
  CHECK_THAT(e, Contains("gpus[1] (id 'b'): sources[0]: field 'read' must be a date"));
  CHECK(std::count(e.begin(), e.end(), '\n') >= 4);
}

TEST_CASE("consistency: implausible bandwidth for the memory type, sparse next to dense, params vs architecture",
          "[catalog]") {
  auto gpu = [](const std::string& memory_type, const std::string& bandwidth, const std::string& flops) {
    return R"({"schema": 1, "gpus": [{"id": "x", "name": "X", "vendor": "V",
      "memory": {"value": 80, "unit": "GB", "type": ")" + memory_type + R"("}, "bandwidth": )" + bandwidth +
           R"(, "dense_tflops": )" + flops + R"(, "sources": [{"fields": ["memory", "bandwidth", "dense_tflops"],
      "title": "t", "url": "https://example.invalid", "read": "2026-11-29"}]}]})";
  };
  CHECK(LoadCatalog({{"ok.json", gpu("HBM3", R"({"value": 3.35, "unit": "TB/s"})", R"({"bf16": 989.4, "fp8": 1978.9})")}}).ok());
  // 3.35 typed as GB/s instead of TB/s.
  auto unit_slip = LoadCatalog({{"x.json", gpu("HBM3", R"({"value": 3.35, "unit": "GB/s"})", "{}")}});
  REQUIRE_FALSE(unit_slip.ok());
  CHECK_THAT(unit_slip.error(), Contains("'bandwidth' 3 GB/s is implausible for HBM3"));
  // FP8 quoted sparse (3,958) next to dense BF16 (989.4).
  auto sparse = LoadCatalog({{"x.json", gpu("HBM3", R"({"value": 3.35, "unit": "TB/s"})", R"({"bf16": 989.4, "fp8": 3958})")}});
  REQUIRE_FALSE(sparse.ok());
  CHECK_THAT(sparse.error(), Contains("dense_tflops.fp8") && Contains("sparse"));

  const std::string model = R"({"schema": 1, "models": [{"id": "m", "name": "M", "params": 9e9, "config": {
      "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
      "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": false},
      "sources": [{"fields": ["config", "params"], "title": "t", "url": "https://example.invalid", "read": "2026-11-29"}]}]})";
  auto params = LoadCatalog({{"m.json", model}});
  REQUIRE_FALSE(params.ok());
  CHECK_THAT(params.error(), Contains("published 9.00 B but the architecture gives 8.03 B"));
}

TEST_CASE("interconnects, cloud offers and engine profiles load with their sources", "[catalog]") {
  const Catalog& c = test::Cat();
  CHECK(c.interconnects.size() >= 20);
  CHECK(c.cloud_offers.size() >= 20);
  CHECK(c.engines.size() >= 5);
  for (const CloudOffer& o : c.cloud_offers) {
    INFO(o.id);
    CHECK(c.FindGpu(o.gpu));
    CHECK(o.gpu_count >= 1);
    CHECK(o.date.size() >= 7);
    CHECK_FALSE(o.sources.empty());
  }
  // The seeds quote AWS p4d at $32.77/h (before AWS's 2025 cut): present, dated, sourced.
  bool p4d = false;
  for (const CloudOffer& o : c.cloud_offers)
    p4d = p4d || (o.instance == "p4d.24xlarge" && o.on_demand_usd_per_hour == Approx(32.77) && o.date.rfind("2024", 0) == 0);
  CHECK(p4d);
  // PCIe: effective never above raw; x16 gen 4 = 32 GB/s per direction raw.
  for (const InterconnectSpec& l : c.interconnects) {
    INFO(l.id);
    if (l.effective_bytes_per_s > 0) CHECK(l.effective_bytes_per_s <= l.raw_bytes_per_s);
  }
  bool pcie4 = false;
  for (const InterconnectSpec& l : c.interconnects) pcie4 = pcie4 || (l.id == "pcie4-x16" && l.raw_bytes_per_s == 32e9);
  CHECK(pcie4);
  for (const EngineProfile& e : c.engines) {
    INFO(e.id);
    for (const EngineExample& ex : e.examples) CHECK((ex.source >= 0 && ex.source < static_cast<int>(e.sources.size())));
  }
}

TEST_CASE("cross-file references and engine examples are checked", "[catalog]") {
  const std::string offer = R"({"schema": 1, "cloud_offers": [{"id": "o", "provider": "P", "instance": "i",
    "gpu": "h1000", "gpu_count": 8, "on_demand_usd_per_hour": 10, "date": "2026-01",
    "sources": [{"fields": ["on_demand_usd_per_hour"], "title": "t", "url": "https://example.invalid", "read": "2026-11-29"}]}]})";
  auto r = LoadCatalog({{"offer.json", offer}}, test::Cat());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error(), Contains("cloud offer 'o': field 'gpu' names an unknown GPU 'h1000'"));

  const std::string engine = R"({"schema": 1, "engines": [{"id": "e", "name": "E", "version": "1",
    "gpu_memory_utilization_default": 1.5,
    "activation_workspace_gib_examples": [{"model": "m", "gpu": "g", "gib": 1.2, "source_index": 3}],
    "sources": [{"fields": ["gpu_memory_utilization_default", "activation_workspace_gib_examples"], "title": "t",
                 "url": "https://example.invalid", "read": "2026-11-29"}]}]})";
  auto e = LoadCatalog({{"engine.json", engine}});
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.error(), Contains("'gpu_memory_utilization_default' must be a fraction"));
  CHECK_THAT(e.error(), Contains("activation_workspace_gib_examples[0]: field 'source_index' must index"));
}

TEST_CASE("the seeds' GPU tables, rebuilt from the catalog: every quoted figure explained", "[catalog][reference]") {
  nlohmann::json ref = nlohmann::json::parse(test::ReadTestFile("reference/seed_tables.json"));
  int rows = 0;
  for (const auto& row : ref["rows"]) {
    const std::string id = row["gpu"].get<std::string>();
    const Gpu* g = test::Cat().FindGpu(id);
    INFO(row["seed"].get<std::string>() << ":" << row["line"].get<int>() << " " << id);
    REQUIRE(g);
    const std::string precision = row["quoted"]["precision"].get<std::string>();
    const double quoted = row["quoted"]["tflops"].get<double>();
    const std::vector<std::string> why = ExplainQuotedTflops(*g, precision, quoted);
    std::string joined;
    for (const std::string& w : why) joined += w + "; ";
    INFO("relations: " << joined);
    const std::string expect = row["expect"].get<std::string>();
    if (expect == "dense") {
      REQUIRE_FALSE(why.empty());
      // GeForce cards say which accumulator their dense FP16 is.
      CHECK((why[0].rfind("dense " + precision + " (", 0) == 0 ||
             why[0].rfind("dense " + precision + " with FP32 accumulate (", 0) == 0));
    } else if (expect == "sparse") {
      REQUIRE_FALSE(why.empty());
      for (const std::string& w : why) CHECK(w.rfind("sparse:", 0) == 0);
    } else if (expect == "fp16acc-or-sparse") {
      CHECK_THAT(joined, Contains("dense " + precision + " with FP16 accumulate") &&
                             Contains("sparse: 2 × dense " + precision + " with FP32 accumulate ("));
    } else {
      CHECK(expect == "not-in-catalog");
      CHECK(g->dense_flops.count(precision) == 0);
    }
    if (row.contains("bandwidth_gb_s")) {
      const double seed_bw = row["bandwidth_gb_s"].get<double>() * kGB;
      if (row.value("memory_differs", false))
        CHECK(std::abs(g->bandwidth_bytes_per_s / seed_bw - 1) > 0.02);
      else
        CHECK(std::abs(g->bandwidth_bytes_per_s / seed_bw - 1) <= 0.025);  // seeds round 2,039 to 2,000
    }
    if (row.contains("memory_gb")) {
      const bool same = g->memory_quoted_value == row["memory_gb"].get<double>() && g->memory_quoted_unit == "GB";
      CHECK(same != row.value("memory_differs", false));
    }
    if (row.contains("tdp_w")) CHECK(g->tdp_w == row["tdp_w"].get<double>());
    if (row.contains("year")) CHECK((g->year == row["year"].get<int>()) != row.value("year_differs", false));
    ++rows;
  }
  CHECK(rows >= 12);
}

TEST_CASE("the page's catalog-sources bundle reads back as the built-in files - a broken one is named") {
  // The bundle as cmake/catalog_lean.py writes it: every built-in file as a JSON object.
  nlohmann::json files = nlohmann::json::array();
  for (const CatalogFile& f : EmbeddedCatalogFiles())
    files.push_back({{"name", f.name}, {"doc", nlohmann::json::parse(f.text)}});
  const std::string bundle = nlohmann::json{{"schema", "gpuplan.catalog-files/1"}, {"files", files}}.dump();
  Result<std::vector<CatalogFile>> parsed = ParseCatalogBundle(bundle);
  REQUIRE(parsed.ok());
  Result<Catalog> full = LoadCatalog(parsed.value(), {}, OnExistingId::kReject);
  REQUIRE(full.ok());
  const Catalog& built_in = EmbeddedCatalog().value();
  CHECK_FALSE(built_in.sources_elsewhere);  // natively the built-in catalog has its sources
  REQUIRE(full.value().gpus.size() == built_in.gpus.size());
  for (size_t i = 0; i < built_in.gpus.size(); ++i) {
    CHECK(full.value().gpus[i].id == built_in.gpus[i].id);
    CHECK(full.value().gpus[i].bandwidth_bytes_per_s == built_in.gpus[i].bandwidth_bytes_per_s);
    CHECK(full.value().gpus[i].sources.size() == built_in.gpus[i].sources.size());
  }
  CHECK_THAT(ParseCatalogBundle("{}").error(), Contains("not a gpuplan.catalog-files/1 file"));
  CHECK_THAT(ParseCatalogBundle(R"({"schema": "gpuplan.catalog-files/1", "error": "HTTP 404"})").error(),
             Contains("catalog sources: HTTP 404"));
  CHECK_THAT(ParseCatalogBundle(R"({"schema": "gpuplan.catalog-files/1", "files": [{"name": 1}]})").error(),
             Contains("needs a name and a doc"));
  CHECK_THAT(ParseCatalogBundle("not json").error(), Contains("not a gpuplan.catalog-files/1"));
}

TEST_CASE("an engine that is not built in behaves exactly per its fields", "[catalog][engine]") {
  // Each built-in engine's fields under a new id and name: the estimators key on the fields,
  // never on the id, so every number is the same (bit for bit).
  Catalog with_copies = test::Cat();
  for (const char* id : {"vllm", "sglang", "llama.cpp", "hf-transformers", "tensorrt-llm"}) {
    nlohmann::json copy = BuiltInEngine(id);
    copy["id"] = std::string(id) + "-copy";
    copy["name"] = "A build of " + copy["name"].get<std::string>();
    Result<Catalog> c = LoadCatalog({{"mine.json", EngineFile(copy)}}, with_copies);
    INFO(id << ": " << (c.ok() ? std::string() : c.error()));
    REQUIRE(c.ok());
    with_copies = std::move(c).value();
  }
  struct Case {
    const char* model;
    const char* weights;
    const char* gpu;
    int tp;
    long long batch, context, gpu_layers;
    double mem_util;
  };
  const Case cases[] = {
      {"llama-3.1-8b", "bf16", "rtx-4090", 1, 8, 8192, -1, 0},
      {"llama-3.1-70b", "fp8", "h100-sxm", 2, 32, 8192, -1, 0},
      {"llama-3.1-70b", "fp8", "h200-sxm", 4, 16, 32768, -1, 0},
      {"llama-3.1-8b", "q4_k_m", "t4", 1, 1, 4096, -1, 0},
      {"llama-3.1-8b", "int8", "l40s", 1, 4, 8192, -1, 0.8},
      {"mixtral-8x7b", "q4_k_m", "rtx-4090", 1, 1, 4096, 20, 0},
      {"deepseek-r1", "fp8", "b200", 8, 16, 32768, -1, 0},
  };
  for (const char* id : {"vllm", "sglang", "llama.cpp", "hf-transformers", "tensorrt-llm"}) {
    for (const Case& k : cases) {
      Scenario s;
      s.model = k.model;
      s.weights = k.weights;
      s.gpu = k.gpu;
      s.tp = k.tp;
      s.batch = k.batch;
      s.context = k.context;
      s.gpu_layers = k.gpu_layers;
      s.mem_util = k.mem_util;
      s.engine = id;
      Scenario t = s;
      t.engine = std::string(id) + "-copy";
      INFO(id << " " << k.model << " " << k.weights << " on " << k.tp << " × " << k.gpu);
      Result<MemoryEstimate> a = EstimateMemory(with_copies, s), b = EstimateMemory(with_copies, t);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      REQUIRE(a->terms.size() == b->terms.size());
      for (size_t i = 0; i < a->terms.size(); ++i) {
        CHECK(a->terms[i].key == b->terms[i].key);
        CHECK(a->terms[i].bytes == b->terms[i].bytes);
      }
      CHECK(a->total_bytes == b->total_bytes);
      CHECK(a->usable_bytes == b->usable_bytes);
      CHECK(a->fits == b->fits);
      CHECK(a->kv_pool_bytes == b->kv_pool_bytes);
      CHECK(a->host_bytes == b->host_bytes);
      CHECK(a->max_context == b->max_context);
      CHECK(a->max_batch == b->max_batch);
      CHECK(a->warnings.size() == b->warnings.size());
      Result<SpeedEstimate> va = EstimateSpeed(with_copies, s, *a), vb = EstimateSpeed(with_copies, t, *b);
      REQUIRE(va.ok());
      REQUIRE(vb.ok());
      CHECK(va->compute_precision == vb->compute_precision);
      CHECK(va->decode.seconds == vb->decode.seconds);
      CHECK(va->prefill.seconds == vb->prefill.seconds);
      CHECK(va->ttft_s == vb->ttft_s);
      CHECK(va->tokens_per_s_user == vb->tokens_per_s_user);
      CHECK(va->tokens_per_s_total == vb->tokens_per_s_total);
      CHECK(va->prefill_tokens_per_s == vb->prefill_tokens_per_s);
    }
  }
}

TEST_CASE("a user engine profile without a field the estimators need is refused, naming engine and field",
          "[catalog][engine]") {
  auto refused = [](nlohmann::json entry, const std::string& field, const std::string& why) {
    entry["id"] = "my-engine";
    Result<Catalog> c = LoadCatalog({{"mine.json", EngineFile(entry)}}, test::Cat());
    INFO(field);
    REQUIRE_FALSE(c.ok());
    CHECK_THAT(c.error(), Contains("mine.json: engines[0] (id 'my-engine')") && Contains("field '" + field + "' " + why));
  };
  // Every profile states how its cap applies, how it sizes its workspace, and the rest.
  for (const char* field : {"memory_cap", "workspace_model", "input_embedding_on_host", "layer_offload", "gguf_int8_matmul"}) {
    nlohmann::json entry = BuiltInEngine("vllm");
    entry.erase(field);
    refused(entry, field, "is missing");
  }
  // What each way of sizing the workspace needs.
  nlohmann::json profiled = BuiltInEngine("vllm");
  profiled.erase("default_max_num_batched_tokens");
  refused(profiled, "default_max_num_batched_tokens", "is missing");
  nlohmann::json buffer = BuiltInEngine("llama.cpp");
  buffer.erase("default_n_ubatch");
  refused(buffer, "default_n_ubatch", "is missing");
  nlohmann::json reserve = BuiltInEngine("sglang");
  reserve.erase("reserved_mem_mib");
  refused(reserve, "reserved_mem_mib", "is missing");
  reserve = BuiltInEngine("sglang");
  reserve["defaults_by_gpu_memory"].erase(reserve["defaults_by_gpu_memory"].size() - 1);
  refused(reserve, "gpu_mem_below_gib", "must be null in the last tier");
  // Words outside the schema, and a cap without the fraction it applies.
  nlohmann::json word = BuiltInEngine("vllm");
  word["memory_cap"] = "sometimes";
  refused(word, "memory_cap", "must be one of total, free, reserve, none");
  word = BuiltInEngine("vllm");
  word["workspace_model"] = "guess";
  refused(word, "workspace_model", "must be one of profiled-forward, reserve-rule, compute-buffer, prefill-forward");
  nlohmann::json cap = BuiltInEngine("vllm");
  cap["memory_cap"] = "free";
  refused(cap, "memory_cap", "is 'free' but no fraction of free memory is given");
  cap = BuiltInEngine("llama.cpp");
  cap["memory_cap"] = "total";
  refused(cap, "memory_cap", "is 'total' but no fraction of total memory is given");
  nlohmann::json flag = BuiltInEngine("llama.cpp");
  flag["layer_offload"] = "yes";
  refused(flag, "layer_offload", "must be true or false");
}

TEST_CASE("a GPU without a launch year shows no year (never 'Year 0')", "[catalog]") {
  const Gpu* g = test::Cat().FindGpu("a10g");
  REQUIRE(g);
  REQUIRE(g->year == 0);  // the catalog has none for it
  for (const DetailRow& row : DescribeGpu(*g)) CHECK(row.label != "Year");
  const Gpu* dated = test::Cat().FindGpu("h100-sxm");
  REQUIRE(dated);
  const auto rows = DescribeGpu(*dated);
  CHECK(std::any_of(rows.begin(), rows.end(), [](const DetailRow& r) { return r.label == "Year" && r.value == "2022"; }));
}

TEST_CASE("the built-in catalog programs start with is the compact form of the JSON, field for field", "[catalog]") {
  // This test links the compact form (gpuplan_catalog_compact), as the CLI, the window and the
  // page do: what EmbeddedCatalog gives must be what loading the JSON with every check gives.
  const Result<Catalog> json = LoadBuiltInCatalog(EmbeddedCatalogFiles(), false);
  REQUIRE(json.ok());
  const Catalog& built_in = test::Cat();
  const std::string from_json = WriteCompactCatalog(json.value());
  CHECK(WriteCompactCatalog(built_in) == from_json);  // a stale or lossy compact form differs here
  CHECK(built_in.gpus.size() == json.value().gpus.size());
  CHECK(built_in.models.size() == json.value().models.size());
  // Spot checks through the lookups (the id indexes are rebuilt on reading).
  const Gpu* h100 = built_in.FindGpu("h100-sxm");
  REQUIRE(h100);
  CHECK(h100->bandwidth_bytes_per_s == json.value().FindGpu("h100-sxm")->bandwidth_bytes_per_s);
  CHECK(h100->dense_flops == json.value().FindGpu("h100-sxm")->dense_flops);
  CHECK(!h100->sources.empty());
  const Model* r1 = built_in.FindModel("deepseek-r1");
  REQUIRE(r1);
  REQUIRE(r1->mla.has_value());
  CHECK(r1->mla->kv_lora_rank == json.value().FindModel("deepseek-r1")->mla->kv_lora_rank);

  // Damaged bytes are an error, never a crash or a half catalog.
  CHECK_FALSE(ReadCompactCatalog("").ok());
  CHECK_FALSE(ReadCompactCatalog("{\"schema\": 1}").ok());
  for (const size_t cut : {size_t{30}, from_json.size() / 3, from_json.size() - 1}) {
    INFO("cut at " << cut);
    CHECK_FALSE(ReadCompactCatalog(std::string_view(from_json).substr(0, cut)).ok());
  }
  std::string longer = from_json + "x";
  CHECK_FALSE(ReadCompactCatalog(longer).ok());
  // A count that claims more than the bytes left (the first list's length, all ones).
  std::string lying = from_json;
  const size_t first_count = std::string_view(from_json).find('\0') + 1;  // after the magic
  for (size_t i = 0; i < 4; ++i) lying[first_count + i] = '\xff';
  CHECK_FALSE(ReadCompactCatalog(lying).ok());
}

TEST_CASE("money in the catalog: yen prices keep their yen, rates are dated and sane", "[catalog]") {
  const std::string src = R"("sources": [{"fields": ["per_usd", "on_demand_jpy_per_hour", "on_demand_usd_per_hour",
      "monthly_jpy"], "title": "t", "url": "https://example.invalid", "read": "2026-12-03"}])";
  const std::string fsrc = R"("source": {"title": "t", "url": "https://example.invalid", "read": "2026-12-03"})";
  auto load = [&](const std::string& body) {
    return LoadCatalog({{"money.json", "{\"schema\": 1, " + body + "}"}}, test::Cat());
  };
  // A rate in the wrong units (yen per cent; dollars per euro) is refused with the reason.
  auto yen =
      load(R"("fx_rates": [{"id": "j", "currency": "JPY", "per_usd": 1.55, "date": "2025-12-15", )" + fsrc + "}]");
  REQUIRE_FALSE(yen.ok());
  CHECK_THAT(yen.error(), Contains("yen per US dollar outside 50-500"));
  auto gbp =
      load(R"("fx_rates": [{"id": "g", "currency": "GBP", "per_usd": 0.8, "date": "2025-12-15", )" + fsrc + "}]");
  REQUIRE_FALSE(gbp.ok());
  CHECK_THAT(gbp.error(), Contains("must be JPY or EUR"));
  auto date = load(R"("fx_rates": [{"id": "d", "currency": "EUR", "per_usd": 0.85, "date": "2025-12", )" + fsrc + "}]");
  REQUIRE_FALSE(date.ok());
  CHECK_THAT(date.error(), Contains("YYYY-MM-DD"));
  // An offer quotes one currency.
  auto both = load(R"("cloud_offers": [{"id": "o", "provider": "P", "instance": "i", "gpu": "h100-sxm", "gpu_count": 1,
      "on_demand_usd_per_hour": 2, "on_demand_jpy_per_hour": 300, "date": "2026-01", )" +
                   src + "}]");
  REQUIRE_FALSE(both.ok());
  CHECK_THAT(both.error(), Contains("one currency per offer"));
  auto who = load(R"("cloud_offers": [{"id": "o", "provider": "P", "instance": "i", "gpu": "h100-sxm", "gpu_count": 1,
      "monthly_jpy": 300000, "access": "members", "date": "2026-01", )" +
                  src + "}]");
  REQUIRE_FALSE(who.ok());
  CHECK_THAT(who.error(), Contains("must be application or academic"));
  // A good yen offer and rate load, and the latest rate is the one used.
  auto ok =
      load(R"("fx_rates": [{"id": "a", "currency": "JPY", "per_usd": 150, "date": "2027-01-04", )" + fsrc +
           R"(}], "cloud_offers": [{"id": "o", "provider": "P", "instance": "i", "gpu": "h100-sxm", "gpu_count": 1,
      "monthly_jpy": 300000, "date": "2026-01", )" +
           src + "}]");
  REQUIRE(ok.ok());
  CHECK(ok->LatestFx("JPY")->per_usd == 150);
  CHECK(ok->cloud_offers.back().monthly_jpy == 300000);
  // The shipped catalog: at least ten prices quoted in yen, each with its source.
  int yen_prices = 0;
  for (const CloudOffer& o : test::Cat().cloud_offers) {
    if (!(o.on_demand_jpy_per_hour > 0 || o.monthly_jpy > 0 || o.spot_jpy_per_hour > 0)) continue;
    ++yen_prices;
    CHECK_FALSE(o.sources.empty());
  }
  for (const Gpu& g : test::Cat().gpus)
    for (const Price& p : g.prices) {
      if (!(p.jpy > 0)) continue;
      ++yen_prices;
      CHECK_FALSE(p.source.url.empty());
    }
  CHECK(yen_prices >= 10);
}
