// gpuplan/version.h — what made a number: the program's version, the git commit it was built
// from, and the catalog's version and date. Exports carry them (views.h: ViewJson, PrintView)
// and a share link carries the catalog's (Session::StateHash, DecodeState's notices), so a
// number read later can be traced to the program and the data that gave it.
#pragma once

#include <string>
#include <string_view>

#include "gpuplan/catalog.h"

namespace gpuplan {

// The program's version, CMakeLists.txt's project(VERSION): "0.1.0".
const char* ProgramVersion();

// The git commit the program was built from ("ffc66cb1234a", "-dirty" appended for uncommitted
// changes), "unknown" outside a git checkout (a source tarball) unless -DGPUPLAN_GIT_COMMIT=...
// names it. Defined by the library gpuplan_build_info (cmake/git_commit.cmake), which the
// programs (the CLI, the native window, the page) link and the core does not: a new commit
// rebuilds one file and relinks the programs. The core's own definition is weak and says
// "unknown" (its tests).
const char* GitCommit();

// The catalog's version ("2026.12") and date, or "unknown" where the catalog declares none
// (a test's own catalog).
std::string CatalogVersion(const Catalog& catalog);

// "gpuplan 0.1.0 (ffc66cb1234a) · catalog 2026.12 (2026-12-03)": the line a Markdown export ends
// with and the page's Catalog panel shows (in the current language).
std::string MadeWithLine(const Catalog& catalog);

// A share link's catalog key ("&cat=2026.12"), empty where the catalog declares no version.
// DecodeState reads it back and says so in its notices when it names another version.
inline constexpr const char* kCatalogStateKey = "cat";
std::string CatalogStatePair(const Catalog& catalog);

// What a Markdown export ends with: "\n*" + MadeWithLine + "*\n" where `format` is "md",
// else nothing.
std::string MadeWithMd(const Catalog& catalog, std::string_view format);

// A JSON export (an object printed with indent 2) with "gpuplan_version", "gpuplan_commit",
// "catalog_version" and "catalog_date" after its "schema" line (first where it has none). Other
// text (an array) comes back as it is.
std::string StampJson(std::string json, const Catalog& catalog);

}  // namespace gpuplan
