// libFuzzer target: the JSON error locator (json_error.cpp) against nlohmann's parser, the one
// every reader uses. The two must agree on every text: where nlohmann refuses, the locator names
// a line and column; where nlohmann accepts, the locator finds nothing wrong ("not valid JSON"
// with no position is its answer for a text it cannot fault).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "catalog/json_fields.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool refused = gpuplan::detail::ParseJson(text).is_discarded();
  const bool located = gpuplan::detail::JsonErrorAt(text) != "not valid JSON";
  if (refused != located) std::abort();
  return 0;
}
