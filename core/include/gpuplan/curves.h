// gpuplan/curves.h — tokens/s at other batches and contexts: the same estimate (inference.h,
// speed.h) repeated along one axis. The Speed panel's charts, `gpuplan speed --explain` and the
// speed report's "curves" read it.
#pragma once

#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

struct CurvePoint {
  double x = 0, per_user = 0, total = 0;  // batch or context; decode tokens/s per user and in all
  bool fits = true;                       // false: the speed it would run at, had it the memory
};
struct SpeedCurves {
  std::vector<CurvePoint> batch;    // batch 1, 2, 4, ... 512
  std::vector<CurvePoint> context;  // context 1k, 2k, ... up to the model's window
};
// Points where the scenario does not give an estimate (an error) are left out.
SpeedCurves ComputeSpeedCurves(const Catalog& catalog, const Scenario& s);

}  // namespace gpuplan
