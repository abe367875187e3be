// libFuzzer target: anything a reader drops or pastes on the page (Session::Import routes it:
// a config.json, a catalog file, a CPU or GPU probe result, the catalog-sources bundle). The
// session must stay usable: its catalog still resolves the default scenario.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpuplan/catalog.h"
#include "gpuplan/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuplan::Catalog& catalog = gpuplan::EmbeddedCatalog().value();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuplan::Session session(catalog);
  const gpuplan::ImportOutcome r = session.Import(text, size % 2 ? "config.json" : "fuzz.json");
  if (r.message.empty()) std::abort();
  if (!session.catalog().FindGpu(gpuplan::Scenario{}.gpu)) std::abort();
  return 0;
}
