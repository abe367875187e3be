// gpuplan/cost.h — what serving a scenario costs: cloud $/hour from the catalog's offers (or a
// given price), on demand and spot (with the interruption overhead), owned hardware amortised
// over years plus power × PUE, per hour, per month of busy hours and per million output and
// input tokens at the scenario's throughput; break-even months of buying vs renting, and the
// cumulative cost of each option month by month (the Cost panel's chart, `gpuplan cost`).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/rack.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"
#include "gpuplan/speed.h"
#include "gpuplan/units.h"

namespace gpuplan {

struct CostLine {
  std::string key, name, formula;
  double usd = 0;  // per hour unless the key says otherwise
};

// The currency the scenario's costs are shown in: its rate is the scenario's fx where given,
// else the catalog's latest for that currency (dollars: 1). `warnings` gets a rate far from the
// catalog's (a factor of 3: yen typed as dollars, cents for dollars).
Money ScenarioMoney(const Catalog& catalog, const Scenario& s, std::vector<std::string>* warnings = nullptr);
// Yen per US dollar for converting prices quoted in yen: the scenario's fx when it shows yen,
// else the catalog's latest; 0 when neither exists (yen offers then stay out of reach).
double JpyPerUsd(const Catalog& catalog, const Scenario& s);
// An offer's price per busy hour in dollars (on demand or spot); a flat monthly rent is paid
// whether busy or not, so it is spread over the busy hours: 730 h × `utilization`. 0 when it
// quotes none or its yen cannot be converted.
double OfferUsdPerHour(const CloudOffer& o, bool spot, double jpy_per_usd, double utilization = 1);

// The purchase price a reader counts with: where they count in yen, the latest price quoted in
// yen (what they would pay); otherwise the latest. A yen price needs a yen rate (0: left out).
// Null when the GPU has no usable price.
const Price* PurchasePrice(const Gpu& gpu, bool want_yen, double jpy_per_usd);
// A price in dollars (a yen price at the rate).
double PriceUsd(const Price& p, double jpy_per_usd);

struct CostEstimate {
  Money money;  // the currency the words (and the records made from this) show
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
  double break_even_months = 0;                   // 0: not within 100 years, or no prices
  // Spot with its overhead: the spot price × (1 + spot-overhead) for the hours lost to
  // interruptions and restarts from checkpoints.
  double spot_effective_gpu_hour = 0, spot_hour = 0, spot_discount = 0;  // discount vs on demand, 0-1
  double break_even_spot_months = 0;              // buying vs renting spot; 0: not within 100 years
  // A month of the busy hours (730 h × utilisation): what renting those hours costs, and what
  // owning costs (the purchase spread over the years' months + the energy of the busy hours).
  double busy_hours_month = 0;
  double cloud_month = 0, spot_month = 0, owned_month = 0, energy_month = 0, amortised_month = 0;
  // Cumulative cost from month 0 to `months.back()`: renting on demand and spot, and owning
  // (the whole purchase at month 0, then energy every month). An option with no price has an
  // empty series.
  std::vector<double> months, cloud_total, spot_total, owned_total;
  // The rack (scenario cooling air, rear-door or liquid): servers, racks, host power and the
  // cooling's PUE, which replace the GPUs' TDP and pue in the energy; empty cooling: none.
  RackPlan rack;
  std::vector<CostLine> lines;
  // Figures with no price or rate behind them: key (as in the report) -> why. Reports leave
  // them empty with the reason, never 0.
  std::map<std::string, std::string> unknown;
  std::vector<std::string> assumptions, warnings;
};

CostEstimate EstimateCost(const Catalog& catalog, const Scenario& s, const SpeedEstimate& speed,
                          Detail detail = Detail::kExplained);
// The same with the scenario's ids already resolved (resolve.h); `r` must be Resolve(…, s)'s.
CostEstimate EstimateCost(const Resolved& r, const Scenario& s, const SpeedEstimate& speed,
                          Detail detail = Detail::kExplained);

// The cheapest on-demand (or spot) price per GPU-hour among the catalog's offers for a GPU;
// 0 when none. `basis` names the offer and its date.
// Prices quoted in yen count at `jpy_per_usd` (0: left out); `basis` shows money in `shown`.
double CheapestGpuHour(const Catalog& catalog, const std::string& gpu_id, bool spot, std::string* basis,
                       double jpy_per_usd = 0, const Money& shown = Money{}, double utilization = 1);

}  // namespace gpuplan
