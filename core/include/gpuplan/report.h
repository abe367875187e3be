// gpuplan/report.h — results as JSON, the one schema that the CLI prints and the page
// exports (tests compare the two byte for byte).
#pragma once

#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/curves.h"
#include "gpuplan/inference.h"
#include "gpuplan/roofline.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// The fit report: scenario, resolved entries, per-GPU breakdown, verdict. `indent` < 0 gives
// one line. The scenario must have produced `estimate`. `state`, in every report: the page
// state to write (views.cpp: with the view's options and the catalog's version, cat=); empty:
// the scenario's.
std::string FitReportJson(const Catalog& catalog, const Scenario& s, const MemoryEstimate& estimate, int indent = 2,
                          const std::string& state = "");

// The speed report (gpuplan.speed/1): prefill, decode and their terms, bands, cost per token.
// With `curves`, also tokens/s at other batches and contexts ("curves": {"batch", "context"}).
std::string SpeedReportJson(const Catalog& catalog, const Scenario& s, const MemoryEstimate& memory,
                            const SpeedEstimate& speed, const CostEstimate& cost, const SpeedCurves* curves = nullptr,
                            int indent = 2, const std::string& state = "");

// The cost report (gpuplan.cost/1): cloud on demand and spot, owned, per hour, per month and
// per 1M tokens at the speed estimate's throughput, break-even months, the cumulative series.
std::string CostReportJson(const Scenario& s, const SpeedEstimate& speed, const CostEstimate& c, int indent = 2,
                           const std::string& state = "");

// The compare report (gpuplan.compare/1): one row per catalog GPU, in the order given. `state`
// is the page state to write (with the sort and filters: views.cpp); empty: the scenario's.
std::string CompareReportJson(const Scenario& s, const std::vector<CompareRow>& rows, int indent = 2,
                              const std::string& state = "");

// The training report (gpuplan.train/1): memory terms per GPU, verdict, time, cost, scaling.
// With target_days > 0 also "target": the MFU that would finish the tokens in that many days.
std::string TrainReportJson(const Scenario& s, const TrainEstimate& e, const std::vector<ScalingPoint>& scaling,
                            double target_days = 0, int indent = 2, const std::string& state = "");

// The roofline report (gpuplan.roofline/1): the roof's ceilings and ridge points, the
// scenario's operations with intensity, attainable rate, bound and share of their phase.
// `state` as for compare (with the overlays and phases).
std::string RooflineReportJson(const Scenario& s, const Roofline& r, int indent = 2, const std::string& state = "");

}  // namespace gpuplan
