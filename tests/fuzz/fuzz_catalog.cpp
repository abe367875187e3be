// libFuzzer target: a user's catalog file (LoadCatalog), the parser behind `--catalog`, `catalog
// validate` and the page's dropped files. Any input must give a catalog or an error, never a
// crash, a hang or a leak; an accepted file's entries must be usable (their ids found again).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpuplan/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpuplan::Result<gpuplan::Catalog> c = gpuplan::LoadCatalog({{"fuzz.json", text}});
  if (c.ok()) {
    for (const gpuplan::Gpu& g : c.value().gpus)
      if (!c.value().FindGpu(g.id)) std::abort();
    for (const gpuplan::Model& m : c.value().models)
      if (!c.value().FindModel(m.id)) std::abort();
  } else if (c.error().empty()) {
    std::abort();  // every refusal says why
  }
  return 0;
}
