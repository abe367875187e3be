#include "gpuplan/cost.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/units.h"

namespace gpuplan {

namespace {

constexpr double kHoursPerYear = 8760;
constexpr double kHoursPerMonth = kHoursPerYear / 12;

std::string Usd(double v) { return "$" + FormatFixed(v, v >= 100 ? 0 : v >= 1 ? 2 : 4); }

// $ per million tokens at `tokens_per_s` for `usd_per_hour` (0 when either is unknown).
double PerMillion(double usd_per_hour, double tokens_per_s) {
  if (!(usd_per_hour > 0) || !(tokens_per_s > 0)) return 0;
  return usd_per_hour / (tokens_per_s * 3600) * 1e6;
}

}  // namespace

double CheapestGpuHour(const Catalog& catalog, const std::string& gpu_id, bool spot, std::string* basis) {
  double best = 0;
  for (const CloudOffer& o : catalog.cloud_offers) {
    if (o.gpu != gpu_id || o.gpu_count <= 0) continue;
    const double price = spot ? o.spot_usd_per_hour : o.on_demand_usd_per_hour;
    if (!(price > 0)) continue;
    const double per_gpu = price / o.gpu_count;
    if (best == 0 || per_gpu < best) {
      best = per_gpu;
      if (basis)
        *basis = o.provider + " " + o.instance + " (" + std::to_string(o.gpu_count) + " GPUs, " + Usd(price) +
                 "/h" + (spot ? " spot" : " on demand") + ", " + o.date + ")";
    }
  }
  return best;
}

CostEstimate EstimateCost(const Catalog& catalog, const Scenario& s, const SpeedEstimate& speed) {
  CostEstimate c;
  const Gpu* gpu = catalog.FindGpu(s.gpu);
  const double n = static_cast<double>(s.count) * std::max(1, s.pp);  // GPUs in all
  const long long gpus = static_cast<long long>(n);

  // Cloud.
  if (s.price_hour > 0) {
    c.cloud_gpu_hour = s.price_hour;
    c.cloud_basis = "given: " + Usd(s.price_hour) + " per GPU-hour";
  } else {
    c.cloud_gpu_hour = CheapestGpuHour(catalog, s.gpu, false, &c.cloud_basis);
    if (c.cloud_gpu_hour == 0) c.warnings.push_back("no cloud offer for this GPU in the catalog: set price-hour");
  }
  c.spot_gpu_hour = CheapestGpuHour(catalog, s.gpu, true, &c.spot_basis);
  c.cloud_hour = c.cloud_gpu_hour * n;
  c.cloud_per_m_output = PerMillion(c.cloud_hour, speed.tokens_per_s_total);
  c.cloud_per_m_input = PerMillion(c.cloud_hour, speed.prefill_tokens_per_s);
  c.spot_per_m_output = PerMillion(c.spot_gpu_hour * n, speed.tokens_per_s_total);
  if (c.cloud_hour > 0)
    c.lines.push_back({"cloud_hour", "Cloud, per hour",
                       Usd(c.cloud_gpu_hour) + " per GPU-hour × " + FormatCount(gpus) + " GPUs (" + c.cloud_basis + ")",
                       c.cloud_hour});

  // Owned: the purchase price, else the catalog's latest street or launch price.
  if (s.buy_usd > 0) {
    c.purchase_gpu = s.buy_usd;
    c.purchase_basis = "given";
  } else if (gpu) {
    const Price* best = nullptr;
    for (const Price& p : gpu->prices)
      if (!best || p.date > best->date) best = &p;
    if (best) {
      c.purchase_gpu = best->usd;
      c.purchase_basis = best->kind + " price " + best->date + " (" + best->source.title + ")";
    }
  }
  c.power_w = gpu ? gpu->tdp_w * n : 0;
  // Energy: board power at TDP while busy × PUE (The Green Grid, PUE = facility energy / IT
  // energy) × $/kWh. Host CPUs, RAM and networking are not counted.
  c.energy_hour = c.power_w / 1000 * s.pue * s.kwh_usd;
  if (c.purchase_gpu > 0) {
    const double amortised = c.purchase_gpu * n / (s.years * kHoursPerYear * s.utilization);
    c.owned_hour = amortised + c.energy_hour;
    c.owned_per_m_output = PerMillion(c.owned_hour, speed.tokens_per_s_total);
    c.owned_per_m_input = PerMillion(c.owned_hour, speed.prefill_tokens_per_s);
    c.lines.push_back({"amortisation", "Purchase, per busy hour",
                       Usd(c.purchase_gpu) + " × " + FormatCount(gpus) + " GPUs / (" + FormatFixed(s.years, 1) +
                           " years × 8,760 h × " + FormatFixed(s.utilization * 100, 0) + "% busy)",
                       amortised});
    const double monthly_gap = (c.cloud_hour - c.energy_hour) * kHoursPerMonth * s.utilization;
    if (monthly_gap > 0) c.break_even_months = c.purchase_gpu * n / monthly_gap;
  } else {
    c.warnings.push_back("no purchase price for this GPU in the catalog: set buy-usd");
  }
  c.lines.push_back({"energy", "Energy, per busy hour",
                     FormatFixed(c.power_w, 0) + " W TDP × PUE " + FormatFixed(s.pue, 2) + " × " + Usd(s.kwh_usd) +
                         "/kWh",
                     c.energy_hour});
  c.assumptions = {
      "cost per token at the scenario's steady throughput: output at the decode rate, input at the prefill rate",
      "owned GPUs draw their TDP while busy; host, cooling beyond PUE and staff are not counted",
      "break-even compares buying with renting the same busy hours, energy included",
  };
  return c;
}

}  // namespace gpuplan
