// libFuzzer target: a Hugging Face config.json (ImportHfConfig: `gpuplan import-hf`, a catalog
// entry's "config", a config dropped on the page). An accepted model is counted as the
// estimators count it: every count finite, none negative.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gpuplan/hf_config.h"
#include "gpuplan/model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuplan::Result<gpuplan::Model> m = gpuplan::ImportHfConfig(text, "config.json", "fuzz");
  if (!m.ok()) {
    if (m.error().empty()) std::abort();
    return 0;
  }
  const gpuplan::ParamCount c = gpuplan::CountParams(m.value());
  if (!std::isfinite(c.total) || c.total < 0 || !std::isfinite(c.embedding) || c.embedding < 0) std::abort();
  return 0;
}
