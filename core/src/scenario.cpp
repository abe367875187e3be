#include "gpuplan/scenario.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "gpuplan/units.h"

namespace gpuplan {

// Limits: wide enough for any real deployment, narrow enough that no product overflows or
// turns into nonsense. Context: 2^24 tokens is above every published model window (10M).
namespace {
constexpr long long kMaxContext = 16777216;
constexpr long long kMaxBatch = 65536;
constexpr long long kMaxCount = 4096;
constexpr double kMaxOverheadGib = 1024;
}  // namespace

const std::vector<FieldInfo>& ScenarioFields() {
  static const std::vector<FieldInfo> fields = {
      {"model", "Model", "model id from the catalog (gpuplan catalog models)"},
      {"weights", "Weights", "weight format id: bf16, fp8, q4_k_m, ... (gpuplan catalog formats)"},
      {"kv", "KV cache", "KV-cache element format id: fp16, bf16, fp8"},
      {"context", "Context", "tokens per sequence, prompt + output (1 to 16777216)"},
      {"batch", "Batch", "concurrent sequences (1 to 65536)"},
      {"gpu", "GPU", "accelerator id from the catalog (gpuplan catalog gpus)"},
      {"count", "GPUs", "number of GPUs, tensor-parallel (1 to 4096)"},
      {"overhead-gib", "Overhead", "CUDA context + runtime per GPU in GiB (0 to 1024)"},
  };
  return fields;
}

namespace {

// Whole numbers only: "8192" yes, "8k", "1e4", " 5", "+5" no — a share link is exact.
bool ParseInteger(std::string_view text, long long& out) {
  if (text.empty() || text.size() > 18) return false;
  long long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

bool ParseNumber(std::string_view text, double& out) {
  if (text.empty() || text.size() > 32) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);  // locale "C": the CLI pins LC_NUMERIC, wasm has only "C"
  if (end != s.c_str() + s.size() || errno != 0 || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::string Quote(std::string_view v) {
  // Keep messages short and printable even when a link carries garbage.
  std::string s;
  for (char c : v.substr(0, 40)) s += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  if (v.size() > 40) s += "...";
  return "'" + s + "'";
}

template <typename T>
std::vector<std::string> Ids(const std::vector<T>& list) {
  std::vector<std::string> ids;
  for (const T& e : list) ids.push_back(e.id);
  return ids;
}

Error FieldError(std::string_view key, std::string message) {
  return Error{std::string(key) + ": " + std::move(message)};
}

std::string Percent(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

bool Unpercent(std::string_view s, std::string& out) {
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size()) return false;
      auto hexval = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      };
      int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return true;
}

std::string FormatOverhead(double gib) {
  // Shortest exact-enough text: 1 -> "1", 0.75 -> "0.75".
  std::string s = FormatFixed(gib, 3);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// Values from a user catalog may hold any character: quote them for a POSIX shell.
std::string ShellQuote(const std::string& v) {
  bool plain = !v.empty();
  for (char c : v)
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '/');
  if (plain) return v;
  std::string out = "'";
  for (char c : v) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string GetField(const Scenario& s, std::string_view key) {
  if (key == "model") return s.model;
  if (key == "weights") return s.weights;
  if (key == "kv") return s.kv;
  if (key == "context") return std::to_string(s.context);
  if (key == "batch") return std::to_string(s.batch);
  if (key == "gpu") return s.gpu;
  if (key == "count") return std::to_string(s.count);
  if (key == "overhead-gib") return FormatOverhead(s.overhead_gib);
  return {};
}

std::optional<Error> SetField(Scenario& s, std::string_view key, std::string_view value,
                              const Catalog& catalog) {
  auto whole = [&](long long lo, long long hi, long long& out) -> std::optional<Error> {
    long long v = 0;
    if (!ParseInteger(value, v) || v < lo || v > hi)
      return FieldError(key, Quote(value) + " must be a whole number from " + std::to_string(lo) +
                                 " to " + std::to_string(hi));
    out = v;
    return std::nullopt;
  };
  if (key == "model") {
    if (!catalog.FindModel(value)) return FieldError(key, UnknownIdMessage("model", value, Ids(catalog.models)));
    s.model = value;
  } else if (key == "weights") {
    if (!catalog.FindWeightFormat(value))
      return FieldError(key, UnknownIdMessage("weight format", value, Ids(catalog.weight_formats)));
    s.weights = value;
  } else if (key == "kv") {
    if (!catalog.FindKvFormat(value))
      return FieldError(key, UnknownIdMessage("KV format", value, Ids(catalog.kv_formats)));
    s.kv = value;
  } else if (key == "gpu") {
    if (!catalog.FindGpu(value)) return FieldError(key, UnknownIdMessage("GPU", value, Ids(catalog.gpus)));
    s.gpu = value;
  } else if (key == "context") {
    return whole(1, kMaxContext, s.context);
  } else if (key == "batch") {
    return whole(1, kMaxBatch, s.batch);
  } else if (key == "count") {
    long long v = s.count;
    if (auto e = whole(1, kMaxCount, v)) return e;
    s.count = static_cast<int>(v);
  } else if (key == "overhead-gib") {
    double v = 0;
    if (!ParseNumber(value, v) || v < 0 || v > kMaxOverheadGib)
      return FieldError(key, Quote(value) + " must be a number of GiB from 0 to " + FormatOverhead(kMaxOverheadGib));
    s.overhead_gib = v;
  } else {
    return Error{"unknown field " + Quote(key)};
  }
  return std::nullopt;
}

std::string EncodeState(const Scenario& s) {
  std::string out = "v=" + std::to_string(kStateVersion);
  for (const FieldInfo& f : ScenarioFields()) out += std::string("&") + f.key + "=" + Percent(GetField(s, f.key));
  return out;
}

DecodedState DecodeState(std::string_view hash, const Catalog& catalog, Scenario base) {
  DecodedState result{std::move(base), {}};
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  size_t pos = 0;
  while (pos <= hash.size() && !hash.empty()) {
    size_t amp = hash.find('&', pos);
    std::string_view part = hash.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos);
    pos = amp == std::string_view::npos ? hash.size() + 1 : amp + 1;
    if (part.empty()) continue;
    size_t eq = part.find('=');
    std::string key, value;
    if (eq == std::string_view::npos || !Unpercent(part.substr(0, eq), key) ||
        !Unpercent(part.substr(eq + 1), value)) {
      result.dropped.push_back(Quote(part) + ": not a key=value pair");
      continue;
    }
    if (key == "v") {
      long long v = 0;
      if (!ParseInteger(value, v) || v < 1)
        result.dropped.push_back("v: " + Quote(value) + " is not a version; read as v" + std::to_string(kStateVersion));
      else if (v > kStateVersion)
        result.dropped.push_back("v: link is from a newer version (v" + value + "); fields read as v" +
                                 std::to_string(kStateVersion));
      continue;
    }
    if (auto err = SetField(result.scenario, key, value, catalog)) result.dropped.push_back(err->message);
  }
  return result;
}

std::string CliCommand(std::string_view subcommand, const Scenario& s) {
  std::string cmd = "gpuplan " + std::string(subcommand);
  for (const FieldInfo& f : ScenarioFields()) cmd += std::string(" --") + f.key + " " + ShellQuote(GetField(s, f.key));
  return cmd;
}

}  // namespace gpuplan
