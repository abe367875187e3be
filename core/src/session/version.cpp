// What made a number: the program's version and the catalog's (gpuplan/version.h).
#include "gpuplan/version.h"

#include "gpuplan/i18n.h"

#ifndef GPUPLAN_VERSION
#error "GPUPLAN_VERSION is set by core/CMakeLists.txt from the project's VERSION"
#endif

namespace gpuplan {

const char* ProgramVersion() {
  return GPUPLAN_VERSION;
}

// Replaced by gpuplan_build_info's in the programs (version.h).
[[gnu::weak]] const char* GitCommit() {
  return "unknown";
}

std::string CatalogVersion(const Catalog& catalog) {
  return catalog.catalog_version.empty()
             ? "unknown"
             : catalog.catalog_version + (catalog.catalog_date.empty() ? "" : " (" + catalog.catalog_date + ")");
}

std::string MadeWithLine(const Catalog& catalog) {
  return TrF("gpuplan {0} ({1}) · catalog {2}", {ProgramVersion(), GitCommit(), CatalogVersion(catalog)});
}

std::string MadeWithMd(const Catalog& catalog, std::string_view format) {
  return format == "md" ? "\n*" + MadeWithLine(catalog) + "*\n" : std::string();
}

std::string CatalogStatePair(const Catalog& catalog) {
  return catalog.catalog_version.empty() ? std::string()
                                         : std::string("&") + kCatalogStateKey + "=" + catalog.catalog_version;
}

std::string StampJson(std::string json, const Catalog& catalog) {
  if (json.rfind("{\n", 0) != 0) return json;
  // After the "schema" line where the object starts with one (a reader sees what it is first).
  size_t at = 2;
  if (json.compare(2, 11, "  \"schema\":") == 0)
    if (const size_t eol = json.find('\n', 2); eol != std::string::npos && json[eol - 1] == ',') at = eol + 1;
  // The versions are our own words (digits and dots, a date): nothing to escape.
  const std::string v = catalog.catalog_version.empty() ? "unknown" : catalog.catalog_version;
  const std::string d = catalog.catalog_date.empty() ? "unknown" : catalog.catalog_date;
  json.insert(at, std::string("  \"gpuplan_version\": \"") + ProgramVersion() + "\",\n  \"gpuplan_commit\": \"" +
                      GitCommit() + "\",\n  \"catalog_version\": \"" + v + "\",\n  \"catalog_date\": \"" + d + "\",\n");
  return json;
}

}  // namespace gpuplan
