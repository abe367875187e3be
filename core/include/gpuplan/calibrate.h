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
  // Where the source names a GPU family but not its form factor (an "A100 80GB" may be SXM or
  // PCIe): the GPUs it may be. The case's estimate is their estimates' geometric mean.
  std::vector<std::string> gpu_candidates;
  std::string not_modelled;  // why the estimator cannot model the run (listed, not scored)
  std::string source;  // SourceKey(source_url): the unit leave-one-source-out holds out
  int tp = 1;
  int ep = 1;  // expert-parallel degree of the run
  double mem_util = 0;       // the engine's memory cap in the run (gpu_memory_utilization); 0: its default
  std::string split;        // "row" or "layer": the engine's multi-GPU mode where the run chose one (split_mode)
  long long batch = 1, prompt = 0, output = 0, context = 0;
  double measured = 0;
};

// "memory" for the memory kinds, "speed" for the rest.
std::string CaseGroup(const std::string& kind);

// Which source a case comes from, for leave-one-source-out: a GitHub URL's owner/repository
// (one project's or one author's runs), otherwise the page's URL without scheme and query.
std::string SourceKey(const std::string& url);

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
  double p90_abs_error = 0;      // the 90th percentile of the same errors
  double p10_ratio = 1, p90_ratio = 1;  // measured / estimated percentiles: the error band
};

// Stats over the cases that ran, filtered by group ("memory" / "speed" / "" all), engine
// ("" all) and kind ("" all). Error is symmetric in log space: max(r, 1/r) - 1.
ErrorStats Summarise(const std::vector<CaseResult>& results, const std::string& group, const std::string& engine = "",
                     const std::string& kind = "");

// Fits each engine's decode bandwidth efficiency and per-kernel overhead on its decode and
// throughput cases, and its prefill efficiency on its prefill / TTFT cases (least median
// absolute log error over a grid), then sets the bands from the fitted residuals. Engines with
// fewer than `min_cases` cases of a kind borrow the fit over all engines. Returns the catalog
// with the new calibration and a log of what was fitted on what.
Catalog FitCalibration(const Catalog& catalog, const std::vector<ReferenceCase>& cases, std::vector<std::string>& log,
                       int min_cases = 5);

// The bands alone, from the residuals under the catalog's current calibration (what
// FitCalibration's last step does): the test checks the stored bands against these.
Catalog WithBands(const Catalog& catalog, const std::vector<ReferenceCase>& cases, int min_cases = 5);

// Errors per kind of case: under the stored calibration (assets/catalog/engines.json), under a
// refit on every case (in-sample), and with each source's cases estimated by a fit made without
// that source (leave-one-source-out: the honest figure; a source's cases never tune the
// constants they are judged by). Memory kinds have no fitted constant, so their three agree.
struct KindErrors {
  std::string kind;
  bool fitted = false;  // whether a fitted constant enters this kind's estimate
  ErrorStats stored, in_sample, held_out;
};
struct LosoSource {
  std::string source;
  int cases = 0, ran = 0;
};
struct LosoResult {
  std::vector<CaseResult> stored, refit, held_out;  // per case, in the input's order
  std::vector<LosoSource> sources;
  std::vector<KindErrors> kinds;
};
std::vector<KindErrors> KindErrorTable(const std::vector<CaseResult>& stored, const std::vector<CaseResult>& refit,
                                       const std::vector<CaseResult>& held_out);
// The microbenchmark ceilings (assets/catalog/ceilings.json), checked the same way: for each
// measured GEMM and memory-copy figure, the attainable fraction the speed model uses for that
// GPU (stored: every measurement in; held out: the measurements of the figure's source taken
// out, so the GPU falls back to its other sources or its kind's median) against the figure's
// own fraction. Kinds "gemm_ceiling" and "memory_ceiling"; no constant is fitted.
std::vector<KindErrors> CeilingErrorTable(const Catalog& catalog);
// One refit per source (FitCalibration without it): a few seconds per source natively.
LosoResult LeaveOneSourceOut(const Catalog& catalog, const std::vector<ReferenceCase>& cases, int min_cases = 5);

}  // namespace gpuplan
