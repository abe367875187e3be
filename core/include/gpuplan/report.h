// gpuplan/report.h — results as JSON, the one schema that the CLI prints and the page
// exports (tests compare the two byte for byte).
#pragma once

#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/inference.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// The fit report: scenario, resolved entries, per-GPU breakdown, verdict. `indent` < 0 gives
// one line. The scenario must have produced `estimate`.
std::string FitReportJson(const Catalog& catalog, const Scenario& s, const MemoryEstimate& estimate,
                          int indent = 2);

}  // namespace gpuplan
