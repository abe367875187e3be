// Model architectures: Hugging Face config.json import and parameter counts computed from the
// architecture, compared with published counts (tests/reference/model_params-*.json) for
// every model whose config is in tests/data/hf/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support.h"
#include "gpuplan/hf_config.h"
#include "gpuplan/model.h"

using namespace gpuplan;
using Catch::Matchers::Contains;

namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  INFO(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Model Import(const std::string& id) {
  const std::string path = std::string(GPUPLAN_TEST_DATA) + "/data/hf/" + id + ".config.json";
  Result<Model> m = ImportHfConfig(ReadText(path), id + ".config.json", id);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  return m.value();
}

}  // namespace

TEST_CASE("computed parameter counts match published ones within 1%", "[model][reference]") {
  int checked = 0;
  for (const char* file : {"model_params-a.json", "model_params-b.json"}) {
    nlohmann::json ref = nlohmann::json::parse(ReadText(std::string(GPUPLAN_TEST_DATA) + "/reference/" + file));
    for (const auto& entry : ref["models"]) {
      const std::string id = entry["id"].get<std::string>();
      Model m = Import(id);
      if (!entry.value("comparable", true)) continue;  // no exact published count (reason in the file)
      ParamCount c = CountParams(m);
      // 1%, or one unit of the publisher's rounding where the count is given rounded ("37B").
      auto tolerance = [&](const char* which, double published) {
        double tol = 0.01;
        if (entry.contains("published_rounded_to")) {
          const auto& r = entry["published_rounded_to"];
          const std::string w = r["which"].get<std::string>();
          if (w == which || w == "both") tol = std::max(tol, r["unit"].get<double>() / published);
        }
        return tol;
      };
      const double total = entry["published_total_params"].get<double>();
      INFO(id << ": computed total " << c.total << ", published " << total << " ("
              << entry["params_source"]["title"].get<std::string>() << ")");
      CHECK(std::abs(c.total / total - 1) <= tolerance("total", total));
      if (entry.contains("published_active_params")) {
        const double active = entry["published_active_params"].get<double>();
        // gpt-oss's published active counts leave out the input embedding (see its notes).
        const double computed = entry.value("active_excludes_input_embedding", false)
                                    ? c.active - static_cast<double>(m.vocab) * m.hidden
                                    : c.active;
        INFO("computed active " << computed << ", published " << active);
        CHECK(std::abs(computed / active - 1) <= tolerance("active", active));
      }
      ++checked;
    }
  }
  CHECK(checked >= 40);
}
