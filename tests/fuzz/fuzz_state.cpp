// libFuzzer target: a page link's hash (DecodeState: the page's URL, `--state`, the native
// window's --state). Whatever a link holds, the scenario it decodes to must encode to a link
// that decodes back to the same scenario with nothing dropped (the round trip the page's share
// button relies on), and the notices stay capped.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gpuplan/catalog.h"
#include "gpuplan/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuplan::Catalog& catalog = gpuplan::EmbeddedCatalog().value();
  const std::string_view hash(reinterpret_cast<const char*>(data), size);
  const gpuplan::DecodedState d = gpuplan::DecodeState(hash, catalog);
  if (d.dropped.size() > gpuplan::kMaxDropped + 2) std::abort();
  const gpuplan::DecodedState again = gpuplan::DecodeState(gpuplan::EncodeState(d.scenario), catalog);
  if (!again.dropped.empty() || !(again.scenario == d.scenario)) std::abort();
  return 0;
}
