// gpuplan/serving_check.h — the serving simulator against published serving results
// (tests/reference/serving_measurements.json, issue 19): each case's workload replayed on its
// engine, model and GPUs, and the error per printed quantity (throughput; TTFT, TPOT, ITL and
// end-to-end latency percentiles). Nothing here is fitted: no constant of the simulator or of
// the step costs is tuned on these cases, so every error is out of sample.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/records.h"
#include "gpuplan/serving.h"
#include "gpuplan/workload.h"

namespace gpuplan {

struct ServingCase {
  std::string id, engine, model, weights, kv, gpu, split, source_url;
  std::string engine_version;  // the release that ran it: its profile replays it (FindEngineRelease)
  int count = 1, tp = 1, pp = 1, ep = 0;
  double mem_util = 0;
  WorkloadSpec spec;    // per case, before the split over data-parallel instances
  std::string lengths;  // how the lengths were set ("fixed", "stated means", "preset sharegpt")
  ServeOptions options;
  // What the source printed: "output_tokens_per_s", "request_throughput", "total_tokens_per_s",
  // "ttft_p50_ms", "tpot_p90_ms", "e2e_mean_ms", ...
  std::vector<std::pair<std::string, double>> measured;
  std::string skip;  // why the case cannot be replayed (its lengths are not stated)
};

// Reads the reference file; a malformed file or case is an Error naming it.
Result<std::vector<ServingCase>> ParseServingCases(const std::string& text);

struct ServingRow {
  std::string case_id, quantity;
  std::string engine;  // the engine family (a release's base: vllm-0.6 counts as vllm)
  double measured = 0, estimated = 0;
};
struct ServingSummary {
  std::string quantity;  // a printed quantity, or a group: "throughput", "p90 latencies"
  int n = 0;
  double median = 0, p90 = 0;  // of |estimated / measured - 1|
};
struct ServingCheck {
  std::vector<ServingRow> rows;
  std::vector<std::pair<std::string, std::string>> skipped;  // case id -> why
  std::vector<std::pair<std::string, std::string>> refused;  // the estimator refused a case that ran
  std::vector<ServingSummary> summary;
};

ServingCheck RunServingCases(const Catalog& catalog, const std::vector<ServingCase>& cases);
// The summary of the rows whose quantity passes `pick` (helper for groups).
ServingSummary SummariseServing(const std::string& name, const std::vector<ServingRow>& rows,
                                bool (*pick)(const std::string& quantity));

// The serving bands (EngineCalibration::serve_*): for each engine family with at least
// kMinBandRows rows of a quantity group, p10..p90 of measured / estimated on its rows, else the
// same on every engine's rows; widened to hold 1. As engines.json calibration.serving_bands.
constexpr int kMinBandRows = 8;
struct ServingBands {
  std::string engine;
  Band throughput, ttft, tpot, e2e;  // tpot: TPOT and ITL rows
};
std::vector<ServingBands> FitServingBands(const Catalog& catalog, const ServingCheck& c);
std::string ServingBandsJson(const std::vector<ServingBands>& bands);

Report ServingCheckReport(const ServingCheck& c);
std::string ServingCheckJson(const ServingCheck& c);

}  // namespace gpuplan
