// libFuzzer target: a GPU probe result file (ParseGpuProbe: `gpuplan probe compare`,
// `--measured`, the page's import).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpuplan/probe_result.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpuplan::Result<gpuplan::GpuProbeResult> r = gpuplan::ParseGpuProbe(text);
  if (!r.ok() && r.error().empty()) std::abort();
  return 0;
}
