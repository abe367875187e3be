// The host half of gpuplan-probe-gpu (native/cuda/probe_host.cpp): options, the hand-written
// JSON writer (checked by parsing its output with nlohmann_json), statistics. No GPU needed.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "probe_host.h"

using namespace gpuplan::probe;

namespace {
bool Parse(std::vector<std::string> args, Options& options, std::string& error) {
  std::string program = "gpuplan-probe-gpu";
  std::vector<char*> argv{program.data()};
  for (auto& a : args) argv.push_back(a.data());
  return ParseOptions(static_cast<int>(argv.size()), argv.data(), options, error);
}
}  // namespace

TEST_CASE("probe options: flags, values, errors name the flag", "[probe]") {
  Options o;
  std::string error;
  REQUIRE(Parse({"--quick", "--out", "r.json", "--device=2", "--only", "hbm,bf16"}, o, error));
  CHECK(o.quick);
  CHECK(o.out_path == "r.json");
  CHECK(o.device == 2);
  CHECK(o.Wants("hbm"));
  CHECK(o.Wants("bf16"));
  CHECK(o.Wants("gemm"));  // a precision implies the GEMM group
  CHECK_FALSE(o.Wants("fp16"));
  CHECK_FALSE(o.Wants("l2"));

  Options all;
  REQUIRE(Parse({}, all, error));
  CHECK(all.Wants("p2p"));
  CHECK(all.Wants("int8"));

  Options gemm;
  REQUIRE(Parse({"--only=gemm"}, gemm, error));
  CHECK(gemm.Wants("fp8"));
  CHECK_FALSE(gemm.Wants("wmma"));

  Options bad;
  CHECK_FALSE(Parse({"--only", "hbm,nope"}, bad, error));
  CHECK(error.find("nope") != std::string::npos);
  CHECK_FALSE(Parse({"--device", "x"}, bad, error));
  CHECK(error.find("--device") != std::string::npos);
  CHECK_FALSE(Parse({"--out"}, bad, error));
  CHECK(error.find("--out") != std::string::npos);
  CHECK_FALSE(Parse({"--frobnicate"}, bad, error));
  CHECK(error.find("--frobnicate") != std::string::npos);
  CHECK(HelpText().find("exit codes") != std::string::npos);
}

TEST_CASE("probe JSON writer: valid JSON, escaping, no NaN", "[probe]") {
  Metric m;
  m.id = "hbm_copy";
  m.name = "Device \"memory\" copy\n\ttab \\ \x01";
  m.unit = "B/s";
  m.catalog_field = "memory_bandwidth";
  m.value = 4.31e12;
  m.min = 4.2e12;
  m.max = 4.4e12;
  m.reps = 15;
  m.bytes_per_rep = 4294967296.0;
  m.numbers.emplace_back("unroll", 4);
  m.check.present = true;
  m.check.max_rel_err = 1.5e-3;
  m.check.tolerance = 1e-2;
  m.check.passed = true;
  Metric empty;  // every number NaN
  empty.id = "x";

  JsonWriter json;
  json.BeginObject();
  json.Field("schema", kSchema);
  json.Key("metrics");
  json.BeginArray();
  WriteMetric(json, m);
  WriteMetric(json, empty);
  json.EndArray();
  json.Key("empty_object");
  json.BeginObject();
  json.EndObject();
  json.Key("empty_array");
  json.BeginArray();
  json.EndArray();
  json.Field("flag", true);
  json.Field("count", 3);
  json.EndObject();

  const auto doc = nlohmann::json::parse(json.str());
  CHECK(doc["schema"] == "gpuplan.gpu-probe/1");
  const auto& first = doc["metrics"][0];
  CHECK(first["name"] == "Device \"memory\" copy\n\ttab \\ \x01");
  CHECK(first["value"].get<double>() == Approx(4.31e12));
  CHECK(first["catalog_field"] == "memory_bandwidth");
  CHECK(first["unroll"] == 4);
  CHECK(first["check"]["passed"] == true);
  const auto& second = doc["metrics"][1];
  CHECK(second["value"].is_null());
  CHECK(second["catalog_field"].is_null());
  CHECK_FALSE(second.contains("check"));
  CHECK(doc["empty_object"].empty());
  CHECK(doc["empty_array"].empty());
  CHECK(doc["count"] == 3);
}

TEST_CASE("probe statistics: median of odd and even counts", "[probe]") {
  const Summary odd = Summarize({3, 1, 2});
  CHECK(odd.median == 2);
  CHECK(odd.min == 1);
  CHECK(odd.max == 3);
  CHECK(Summarize({4, 1, 3, 2}).median == 2.5);
  CHECK(std::isnan(Summarize({}).median));
  CHECK(gpuplan::FormatRate(4.31e12, "B/s") == "4.31 TB/s");  // the core's, which the probe prints with
  CHECK(gpuplan::FormatRate(7.81e14, "FLOP/s") == "781 TFLOP/s");
  CHECK(UtcNowIso8601().size() == 20);
}

TEST_CASE("probe NVML: a missing library or device is a reason, not a crash", "[probe]") {
  Nvml nvml;
  const bool opened = nvml.Open("0000:ff:1f.7");  // no such device anywhere
  CHECK_FALSE(opened);
  CHECK_FALSE(nvml.reason().empty());
  unsigned mhz = 0;
  CHECK_FALSE(nvml.SmClockMhz(mhz));
}
