// Shared by the unit tests: the embedded catalog, which every area tests against.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "gpuplan/catalog.h"

namespace gpuplan::test {

inline const Catalog& Cat() {
  const Result<Catalog>& c = EmbeddedCatalog();
  INFO((c.ok() ? std::string() : c.error()));
  REQUIRE(c.ok());
  return c.value();
}

// A file under tests/ (GPUPLAN_TEST_DATA), e.g. "reference/kv_cache.json", as text.
inline std::string ReadTestFile(const std::string& relative) {
  const std::string path = std::string(GPUPLAN_TEST_DATA) + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  INFO(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace gpuplan::test
