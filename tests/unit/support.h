// Shared by the unit tests: the embedded catalog, which every area tests against.
#pragma once

#include <catch2/catch.hpp>

#include "gpuplan/catalog.h"

namespace gpuplan::test {

inline const Catalog& Cat() {
  const Result<Catalog>& c = EmbeddedCatalog();
  INFO((c.ok() ? std::string() : c.error()));
  REQUIRE(c.ok());
  return c.value();
}

}  // namespace gpuplan::test
