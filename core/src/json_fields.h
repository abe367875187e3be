// core/src/json_fields.h — lenient field readers for the reference and probe files (not the
// catalog, whose Reader reports every problem): a missing or mistyped field reads as the
// fallback. Private to the core.
#pragma once

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace gpuplan::detail {

inline std::string JsonString(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A finite number, else `fallback`.
inline double JsonNumber(const nlohmann::json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return fallback;
  const double v = it->get<double>();
  return std::isfinite(v) ? v : fallback;
}

}  // namespace gpuplan::detail
