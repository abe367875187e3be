// core/src/json_fields.h — the core's JSON parse, and lenient field readers for the reference
// and probe files (not the catalog, whose Reader reports every problem): a missing or mistyped
// field reads as the fallback. Private to the core.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpuplan::detail {

// Every JSON text in the core is parsed through this one call, without exceptions (a discarded
// value on error). One input type means one instantiation of nlohmann's lexer and parser: a
// std::string and a std::string_view argument are two (~12 KB of the page's wasm).
// A NUL byte is never valid JSON (RFC 8259 §7: control characters are escaped inside strings,
// and none may stand outside them), but nlohmann's lexer takes one as the end of the input, so a
// file "1\0 anything" would load as its prefix: such a text is refused here.
inline nlohmann::json ParseJson(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// Why `text` is not JSON, for a message after ParseJson discarded it: "not valid JSON at line
// L, column C: <reason>", then the line's text around the error and a caret under it
// (json_error.cpp).
std::string JsonErrorAt(std::string_view text);

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
