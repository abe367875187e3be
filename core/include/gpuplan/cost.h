// gpuplan/cost.h — what serving a scenario costs: cloud $/hour from the catalog's offers (or a
// given price), owned hardware amortised over years plus power × PUE, and $ per million
// output and input tokens at the scenario's throughput; break-even months of buying vs renting.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/scenario.h"
#include "gpuplan/speed.h"

namespace gpuplan {

struct CostLine {
  std::string key, name, formula;
  double usd = 0;  // per hour unless the key says otherwise
};

struct CostEstimate {
  // Cloud: per GPU-hour, from scenario.price_hour or the cheapest catalog offer for this GPU.
  double cloud_gpu_hour = 0, spot_gpu_hour = 0;  // 0: no price known
  std::string cloud_basis, spot_basis;
  double cloud_hour = 0;                          // all GPUs
  double cloud_per_m_output = 0, cloud_per_m_input = 0, spot_per_m_output = 0;
  // Owned: purchase price per GPU, amortised over the busy hours of `years`, plus energy.
  double purchase_gpu = 0;                        // 0: no price known
  std::string purchase_basis;
  double power_w = 0;                             // TDP × GPUs
  double energy_hour = 0;                         // power × PUE × $/kWh, per busy hour
  double owned_hour = 0;                          // amortisation + energy, per busy hour
  double owned_per_m_output = 0, owned_per_m_input = 0;
  double break_even_months = 0;                   // 0: renting is never dearer, or no prices
  std::vector<CostLine> lines;
  std::vector<std::string> assumptions, warnings;
};

CostEstimate EstimateCost(const Catalog& catalog, const Scenario& s, const SpeedEstimate& speed);

// The cheapest on-demand (or spot) price per GPU-hour among the catalog's offers for a GPU;
// 0 when none. `basis` names the offer and its date.
double CheapestGpuHour(const Catalog& catalog, const std::string& gpu_id, bool spot, std::string* basis);

}  // namespace gpuplan
