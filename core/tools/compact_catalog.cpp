// compact_catalog OUT [--sources-elsewhere] FILE...: loads the catalog files as the program
// loads its built-in catalog, with every check (any error fails the build), and writes them in
// the compact form the programs then embed and read at start-up without parsing (compact.cpp).
// --sources-elsewhere: the page's lean copy, without the "sources" lists (web/CMakeLists.txt).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: compact_catalog OUT [--sources-elsewhere] FILE...\n");
    return 2;
  }
  bool sources_elsewhere = false;
  std::vector<gpuplan::CatalogFile> files;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sources-elsewhere") == 0) {
      sources_elsewhere = true;
      continue;
    }
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "compact_catalog: cannot read %s\n", argv[i]);
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string name = argv[i];
    if (const size_t slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
    files.push_back({name, text.str()});
  }
  const gpuplan::Result<gpuplan::Catalog> catalog = gpuplan::LoadBuiltInCatalog(files, sources_elsewhere);
  if (!catalog.ok()) {
    std::fprintf(stderr, "compact_catalog: %s\n", catalog.error().c_str());
    return 1;
  }
  const std::string bytes = gpuplan::WriteCompactCatalog(catalog.value());
  // Read back before anything embeds it: the form must give the catalog it was made from.
  const gpuplan::Result<gpuplan::Catalog> back = gpuplan::ReadCompactCatalog(bytes);
  if (!back.ok() || gpuplan::WriteCompactCatalog(back.value()) != bytes) {
    std::fprintf(stderr, "compact_catalog: the compact form does not read back as written\n");
    return 1;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "compact_catalog: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("compact_catalog: %zu GPUs, %zu models -> %s (%zu bytes)\n", catalog.value().gpus.size(),
              catalog.value().models.size(), argv[1], bytes.size());
  return 0;
}
