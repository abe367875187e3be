#include "gpuplan/probe_result.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"
#include "gpuplan/i18n.h"
#include "gpuplan/limits.h"

namespace gpuplan {

using nlohmann::json;

const ProbeMetric* GpuProbeResult::Find(const std::string& id) const {
  for (const ProbeMetric& m : metrics)
    if (m.id == id) return &m;
  return nullptr;
}

namespace {

using detail::JsonNumber;
using detail::JsonString;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Result<GpuProbeResult> ParseGpuProbe(const std::string& text) {
  const json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{"probe file: " + detail::JsonErrorAt(text)};
  if (!doc.is_object()) return Error{"probe file: not a JSON object"};
  if (JsonString(doc, "schema") != "gpuplan.gpu-probe/1")
    return Error{"probe file: schema '" + JsonString(doc, "schema") + "' is not gpuplan.gpu-probe/1 (written by gpuplan probe gpu)"};
  GpuProbeResult r;
  r.date = JsonString(doc, "date");
  r.cuda_runtime = JsonString(doc, "cuda_runtime");
  if (auto d = doc.find("driver"); d != doc.end()) r.driver = d->is_string() ? d->get<std::string>() : d->dump();
  auto dev = doc.find("device");
  if (dev == doc.end() || !dev->is_object()) return Error{"probe file: 'device' is missing"};
  // Every number within its limit before it is used (limits.h): "device.power_limit_w is 1e+30, above ...".
  std::optional<Error> bad;
  auto number = [&bad](const json& obj, const char* key, const std::string& where) {
    const double v = JsonNumber(obj, key);
    if (!bad && (v < 0 || v > static_cast<double>(limits::kProbeValue.max)))
      bad = Error{"probe file: " + where + key + " is " + obj.find(key)->dump() + ", " +
                  (v < 0 ? std::string("below 0") : limits::Above(limits::kProbeValue))};
    return v;
  };
  r.device_name = JsonString(*dev, "name");
  r.power_limit_w = number(*dev, "power_limit_w", "device.");
  r.memory_total_bytes = number(*dev, "mem_total_bytes", "device.");
  auto metrics = doc.find("metrics");
  if (metrics == doc.end() || !metrics->is_array()) return Error{"probe file: 'metrics' must be an array"};
  for (size_t i = 0; i < metrics->size(); ++i) {
    const json& m = (*metrics)[i];
    if (!m.is_object()) continue;  // as a metric without a value
    ProbeMetric p;
    p.id = JsonString(m, "id");
    p.name = JsonString(m, "name");
    p.unit = JsonString(m, "unit");
    p.catalog_field = JsonString(m, "catalog_field");
    p.method = JsonString(m, "method");
    p.value = number(m, "value", "metrics[" + std::to_string(i) + "].");
    if (bad) return *bad;
    if (p.id.empty() || !(p.value > 0)) continue;  // a metric that did not run has no value
    r.metrics.push_back(p);
  }
  if (bad) return *bad;
  if (r.device_name.empty()) return Error{"probe file: the device has no name"};
  return r;
}

const Gpu* MatchProbeGpu(const Catalog& catalog, const GpuProbeResult& probe) {
  // The device name's words, split on whitespace by hand: std::istringstream would link
  // libc++'s whole locale machinery into the page (~40 KB of wasm).
  std::vector<std::string> words;
  const std::string lower = Lower(probe.device_name);
  for (size_t i = 0; i < lower.size();) {
    const auto is_space = [&](size_t k) { return std::isspace(static_cast<unsigned char>(lower[k])) != 0; };
    while (i < lower.size() && is_space(i)) ++i;
    const size_t begin = i;
    while (i < lower.size() && !is_space(i)) ++i;
    if (i > begin) words.push_back(lower.substr(begin, i - begin));
  }
  const Gpu* best = nullptr;
  for (const Gpu& g : catalog.gpus) {
    const std::string name = Lower(g.name);
    if (!std::all_of(words.begin(), words.end(), [&](const std::string& w) { return name.find(w) != std::string::npos; }))
      continue;
    if (!best || (probe.power_limit_w > 0 && g.tdp_w == probe.power_limit_w && best->tdp_w != probe.power_limit_w))
      best = &g;
  }
  return best;
}

std::vector<MeasuredRow> MeasuredVsCatalog(const GpuProbeResult& probe, const Gpu& gpu) {
  std::vector<MeasuredRow> rows;
  for (const ProbeMetric& m : probe.metrics) {
    if (m.catalog_field.empty()) continue;
    MeasuredRow r{m.id, Tr(m.name.c_str()), m.catalog_field, m.unit, m.value, 0};
    if (m.catalog_field == "memory_bandwidth") {
      r.datasheet = gpu.bandwidth_bytes_per_s;
    } else if (auto it = gpu.dense_flops.find(m.catalog_field); it != gpu.dense_flops.end()) {
      r.datasheet = it->second;
    }
    rows.push_back(r);
  }
  return rows;
}

Efficiency MeasuredEfficiency(const GpuProbeResult& probe, const Gpu& gpu, const std::string& precision) {
  Efficiency e;
  // Decode streams weights and cache: the read bandwidth is the ceiling that matters.
  const ProbeMetric* read = probe.Find("hbm_read");
  if (read && gpu.bandwidth_bytes_per_s > 0) e.bw = std::min(1.0, read->value / gpu.bandwidth_bytes_per_s);
  for (const ProbeMetric& m : probe.metrics)
    if (m.catalog_field == precision && m.id.rfind("gemm_", 0) == 0) {
      auto it = gpu.dense_flops.find(precision);
      if (it != gpu.dense_flops.end() && it->second > 0) e.compute = std::min(1.0, m.value / it->second);
    }
  return e;
}

}  // namespace gpuplan
