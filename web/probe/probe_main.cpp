// web/probe/probe_main.cpp — the CPU probe and the reference SGEMM in a WebAssembly module
// built with threads (-pthread), which a page loads only when it is cross-origin isolated
// (COOP + COEP headers give it SharedArrayBuffer; TOOLCHAIN.md). The page's own module stays
// single-threaded so that it runs in any iframe; this one measures on every core and hands
// its gpuplan.cpu-probe/1 JSON to the page, which loads it as if the file had been dropped.
#include <emscripten.h>

#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/cpu_probe.h"
#include "gpuplan/machine.h"

namespace {
std::string g_result;  // backs the string returned to JavaScript
}

extern "C" {

// Measures and returns the probe file's JSON, or the schema with {"error": "..."}; threads 0 = all.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_probe_run(int quick, int threads) {
  gpuplan::CpuProbeOptions options;
  options.quick = quick != 0;
  options.threads = threads;
  gpuplan::Result<gpuplan::CpuProbeResult> r = gpuplan::MeasureMachine(options);
  if (r.ok()) {
    g_result = gpuplan::CpuProbeToJson(r.value());
  } else {
    g_result = nlohmann::json{{"schema", "gpuplan.cpu-probe/1"}, {"error", r.error()}}.dump();
  }
  return g_result.c_str();
}

}  // extern "C"

int main() {
  return 0;
}
