// gpuplan/calibrate.h — the estimators against published measurements
// (tests/reference/inference_measurements.json): each case becomes a scenario, the estimate is
// set against the measured figure, and the errors are summarised. The same code fits the
// engines' efficiencies (gpuplan calibrate) and guards them (tests/unit/unit-calibration.cpp).
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"

namespace gpuplan {

struct ReferenceCase {
  std::string id, kind, engine, model, weights, kv, gpu, unit, source_url, gap;
  int tp = 1;
  long long batch = 1, prompt = 0, output = 0, context = 0;
  double measured = 0;
};

// "memory" for the memory kinds, "speed" for the rest.
std::string CaseGroup(const std::string& kind);

// Reads the reference file; a malformed case is an error naming it.
Result<std::vector<ReferenceCase>> ParseReferenceCases(const std::string& text);

struct CaseResult {
  const ReferenceCase* c = nullptr;
  bool ran = false;
  std::string skipped;     // why not (catalog gap, unknown id, does not apply)
  double estimated = 0;    // in the case's unit
  double ratio = 0;        // measured / estimated
};

std::vector<CaseResult> RunReferenceCases(const Catalog& catalog, const std::vector<ReferenceCase>& cases);

struct ErrorStats {
  int n = 0;
  double median_abs_error = 0;  // |measured / estimated - 1|, median
  double worst_abs_error = 0;   // the largest such error (in whichever direction)
  std::string worst_case;
  double p10_ratio = 1, p90_ratio = 1;  // measured / estimated percentiles: the error band
};

// Stats over the cases that ran, filtered by group ("memory" / "speed" / "" all), engine
// ("" all) and kind ("" all). Error is symmetric in log space: max(r, 1/r) - 1.
ErrorStats Summarise(const std::vector<CaseResult>& results, const std::string& group, const std::string& engine = "",
                     const std::string& kind = "");

// Fits each engine's decode bandwidth efficiency and per-layer overhead on its decode and
// throughput cases, and its prefill efficiency on its prefill / TTFT cases (least median
// absolute log error over a grid), then sets the bands from the fitted residuals. Engines with
// fewer than `min_cases` cases of a kind borrow the fit over all engines. Returns the catalog
// with the new calibration and a log of what was fitted on what.
Catalog FitCalibration(const Catalog& catalog, const std::vector<ReferenceCase>& cases, std::vector<std::string>& log,
                       int min_cases = 5);

// The bands alone, from the residuals under the catalog's current calibration (what
// FitCalibration's last step does): the test checks the stored bands against these.
Catalog WithBands(const Catalog& catalog, const std::vector<ReferenceCase>& cases, int min_cases = 5);

}  // namespace gpuplan
