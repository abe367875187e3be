// libFuzzer target: anything a reader drops or pastes on the page (Session::Import routes it:
// a config.json, a catalog file, a CPU or GPU probe result, the catalog-sources bundle). The
// session must stay usable: its catalog still resolves the default scenario.
//
// One session serves every input that fails to import (most of what a fuzzer makes): a failed
// import must leave the session as it was, which is checked here, so reusing it keeps each input
// reproducible on its own. An import that succeeded changed the session, and the next input gets
// a fresh one. (A new Session per input copied the catalog each time: ~3x fewer runs per second.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "gpuplan/catalog.h"
#include "gpuplan/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuplan::Catalog& catalog = gpuplan::EmbeddedCatalog().value();
  static std::optional<gpuplan::Session> session;
  if (!session) session.emplace(catalog);
  const unsigned long generation = session->generation();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const gpuplan::ImportOutcome r = session->Import(text, size % 2 ? "config.json" : "fuzz.json");
  if (r.message.empty()) std::abort();
  if (!session->catalog().FindGpu(gpuplan::Scenario{}.gpu)) std::abort();
  if (r.ok) {
    session.reset();
  } else if (session->generation() != generation || !session->imports().empty() || session->gpu_probe() ||
             session->cpu_probe() || session->catalog().gpus.size() != catalog.gpus.size() ||
             session->catalog().models.size() != catalog.models.size()) {
    std::abort();  // a failed import changed the session
  }
  return 0;
}
