// libFuzzer target: the CUDA probe's host half (native/cuda/probe_host.cpp), which builds and
// runs without a GPU: its argument parser on any argv (the input split at NUL bytes), and its
// JSON writer on any strings and numbers, whose output must parse and give the strings back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "probe_host.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> words = {"gpuplan-probe-gpu"};
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\0', start), text.size());
    words.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  gpuplan::probe::Options options;
  std::string error;
  const bool ok = gpuplan::probe::ParseOptions(static_cast<int>(words.size()), argv.data(), options, error);
  if (!ok && error.empty()) std::abort();

  gpuplan::probe::JsonWriter json;
  gpuplan::probe::Metric metric;
  metric.id = words.size() > 1 ? words[1] : text;
  metric.name = text;
  double number = 0;
  std::memcpy(&number, data, std::min(size, sizeof number));
  metric.value = number;
  metric.numbers.push_back({text, number});
  metric.strings.push_back({metric.id, text});
  json.BeginObject();
  json.Key("metrics");
  json.BeginArray();
  gpuplan::probe::WriteMetric(json, metric);
  json.EndArray();
  json.EndObject();
  const nlohmann::json back = nlohmann::json::parse(json.str(), nullptr, false);
  if (back.is_discarded()) std::abort();
  return 0;
}
