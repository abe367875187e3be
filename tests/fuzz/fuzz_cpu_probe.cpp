// libFuzzer target: a CPU probe result file (CpuProbeFromJson: `gpuplan roofline --cpu`, the
// page's import and its threaded probe module's reply).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpuplan/cpu_probe.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpuplan::Result<gpuplan::CpuProbeResult> r = gpuplan::CpuProbeFromJson(text);
  if (!r.ok() && r.error().empty()) std::abort();
  return 0;
}
