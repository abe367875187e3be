#include "gpuplan/cost.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/units.h"

namespace gpuplan {

namespace {

constexpr double kHoursPerYear = 8760;
constexpr double kHoursPerMonth = kHoursPerYear / 12;

// $ per million tokens at `tokens_per_s` for `usd_per_hour` (0 when either is unknown).
double PerMillion(double usd_per_hour, double tokens_per_s) {
  if (!(usd_per_hour > 0) || !(tokens_per_s > 0)) return 0;
  return usd_per_hour / (tokens_per_s * 3600) * 1e6;
}

}  // namespace

Money ScenarioMoney(const Catalog& catalog, const Scenario& s, std::vector<std::string>* warnings) {
  Money m;
  if (s.currency != "jpy" && s.currency != "eur") return m;
  m.code = s.currency == "jpy" ? "JPY" : "EUR";
  const FxRate* rate = catalog.LatestFx(m.code);
  const Money unit{m.code, 1, ""};
  if (s.fx > 0) {
    m.per_usd = s.fx;
    m.basis = TrF("given: {0} per $", {FormatMoney(1, Money{m.code, s.fx, ""}, 4)});
    if (warnings && rate && (s.fx > 3 * rate->per_usd || s.fx < rate->per_usd / 3))
      warnings->push_back(
          TrF("fx {0} is far from the catalog's {1} {2} per US dollar ({3}): check the units ({4} per $)",
              {FormatShort(s.fx), FormatShort(rate->per_usd), m.code, rate->date, MoneySymbol(unit)}));
  } else if (rate) {
    m.per_usd = rate->per_usd;
    m.basis = rate->source.title.empty()
                  ? TrF("{0} per $ ({1})", {FormatMoney(1, Money{m.code, rate->per_usd, ""}, 4), rate->date})
                  : TrF("{0} per $ ({1}, {2})",
                        {FormatMoney(1, Money{m.code, rate->per_usd, ""}, 4), rate->date, rate->source.title});
  } else {
    // No rate to convert with: dollars, said.
    if (warnings) warnings->push_back(TrF("no {0} rate in the catalog: costs stay in US dollars (set fx)", {m.code}));
    return Money{};
  }
  return m;
}

double JpyPerUsd(const Catalog& catalog, const Scenario& s) {
  if (s.currency == "jpy" && s.fx > 0) return s.fx;
  const FxRate* rate = catalog.LatestFx("JPY");
  return rate ? rate->per_usd : 0;
}

double OfferUsdPerHour(const CloudOffer& o, bool spot, double jpy_per_usd, double utilization) {
  if (spot) {
    if (o.spot_usd_per_hour > 0) return o.spot_usd_per_hour;
    return o.spot_jpy_per_hour > 0 && jpy_per_usd > 0 ? o.spot_jpy_per_hour / jpy_per_usd : 0;
  }
  if (o.on_demand_usd_per_hour > 0) return o.on_demand_usd_per_hour;
  if (!(jpy_per_usd > 0)) return 0;
  if (o.on_demand_jpy_per_hour > 0) return o.on_demand_jpy_per_hour / jpy_per_usd;
  const double busy = kHoursPerMonth * std::clamp(utilization, 0.01, 1.0);
  return o.monthly_jpy > 0 ? o.monthly_jpy / busy / jpy_per_usd : 0;
}

const Price* PurchasePrice(const Gpu& gpu, bool want_yen, double jpy_per_usd) {
  const Price* best = nullptr;
  for (const Price& p : gpu.prices) {
    if (!(p.usd > 0 || (p.jpy > 0 && jpy_per_usd > 0))) continue;
    const bool p_yen = p.jpy > 0, best_yen = best && best->jpy > 0;
    if (!best || (p_yen != best_yen ? p_yen == want_yen : p.date > best->date)) best = &p;
  }
  return best;
}

double PriceUsd(const Price& p, double jpy_per_usd) {
  if (p.usd > 0) return p.usd;
  return p.jpy > 0 && jpy_per_usd > 0 ? p.jpy / jpy_per_usd : 0;
}

double CheapestGpuHour(const Catalog& catalog, const std::string& gpu_id, bool spot, std::string* basis,
                       double jpy_per_usd, const Money& shown, double utilization) {
  double best = 0;
  auto money = [&](double usd) { return FormatMoney(usd, shown); };
  for (const CloudOffer& o : catalog.cloud_offers) {
    if (o.gpu != gpu_id || o.gpu_count <= 0 || o.access == "academic") continue;
    const double price = OfferUsdPerHour(o, spot, jpy_per_usd, utilization);
    if (!(price > 0)) continue;
    const double per_gpu = price / o.gpu_count;
    if (best == 0 || per_gpu < best) {
      best = per_gpu;
      if (!basis) continue;
      // The offer's own size and price as quoted (yen stay yen), then the per-GPU rate the
      // scenario is charged at (its GPU count may differ: "(1 GPUs, $0.74/h)" on a 2-GPU
      // scenario read as a wrong count).
      const Money yen{"JPY", 1, ""};
      const bool in_yen = o.on_demand_usd_per_hour == 0 && o.spot_usd_per_hour == 0;
      const bool monthly = in_yen && !spot && o.on_demand_jpy_per_hour == 0;
      const std::string quoted =
          !in_yen   ? money(price) + "/h"
          : monthly ? TrF("{0} a month ÷ (730 h × {1}% busy)",
                          {FormatMoney(o.monthly_jpy, yen), FormatFixed(std::clamp(utilization, 0.01, 1.0) * 100, 0)})
                    : FormatMoney(spot ? o.spot_jpy_per_hour : o.on_demand_jpy_per_hour, yen) + "/h";
      *basis = TrF("{0}: {1} for its {2} ({3}), {4} per GPU-hour",
                   {o.provider + " " + o.instance + (o.access == "application" ? Tr(" (by application)") : ""),
                    spot      ? TrF("{0} spot", {quoted})
                    : monthly ? quoted
                              : TrF("{0} on demand", {quoted}),
                    FormatCountOf(o.gpu_count, "GPU", "GPUs"), o.date, money(per_gpu)}) +
               (in_yen && shown.code != "JPY" ? TrF(" at ¥{0}/$", {FormatShort(jpy_per_usd, 2)}) : "");
    }
  }
  return best;
}

namespace {

// `gpu` null: the scenario's ids do not resolve; its purchase price and power stay unknown.
CostEstimate Cost(const Catalog& catalog, const Gpu* gpu, const Scenario& s, const SpeedEstimate& speed,
                  Detail detail) {
  const bool say = detail == Detail::kExplained;  // the words, besides the numbers
  CostEstimate c;
  c.money = ScenarioMoney(catalog, s, say ? &c.warnings : nullptr);
  const double jpy_per_usd = JpyPerUsd(catalog, s);
  auto Usd = [&](double usd) { return FormatMoney(usd, c.money); };
  const double n = static_cast<double>(s.Gpus());  // GPUs in all
  const long long gpus = static_cast<long long>(n);

  // Cloud.
  if (s.price_hour > 0) {
    c.cloud_gpu_hour = s.price_hour;
    if (say) c.cloud_basis = TrF("given: {0} per GPU-hour", {Usd(s.price_hour)});
  } else {
    c.cloud_gpu_hour =
        CheapestGpuHour(catalog, s.gpu, false, say ? &c.cloud_basis : nullptr, jpy_per_usd, c.money, s.utilization);
    if (c.cloud_gpu_hour == 0 && say)
      c.warnings.push_back(Tr("no cloud offer for this GPU in the catalog: set price-hour"));
  }
  c.spot_gpu_hour = CheapestGpuHour(catalog, s.gpu, true, say ? &c.spot_basis : nullptr, jpy_per_usd, c.money);
  c.cloud_hour = c.cloud_gpu_hour * n;
  // Spot: the hours lost to interruptions (work since the last checkpoint, restarts) are paid
  // again. AWS's Spot Instance Advisor buckets interruptions per month as <5%, 5-10%, 10-15%,
  // 15-20% and >20% (aws.amazon.com/ec2/spot/instance-advisor, via sparecores.com,
  // 2024-04-16, read 2026-11-30); the default 10% is an assumption the user sets.
  c.spot_effective_gpu_hour = c.spot_gpu_hour * (1 + s.spot_overhead);
  c.spot_hour = c.spot_effective_gpu_hour * n;
  if (c.cloud_gpu_hour > 0 && c.spot_effective_gpu_hour > 0)
    c.spot_discount = std::max(0.0, 1 - c.spot_effective_gpu_hour / c.cloud_gpu_hour);
  c.cloud_per_m_output = PerMillion(c.cloud_hour, speed.tokens_per_s_total);
  c.cloud_per_m_input = PerMillion(c.cloud_hour, speed.prefill_tokens_per_s);
  c.spot_per_m_output = PerMillion(c.spot_hour, speed.tokens_per_s_total);
  c.busy_hours_month = kHoursPerMonth * s.utilization;
  c.cloud_month = c.cloud_hour * c.busy_hours_month;
  c.spot_month = c.spot_hour * c.busy_hours_month;
  if (c.cloud_hour > 0)
    c.lines.push_back({"cloud_hour", Tr("Cloud on demand, per hour"),
                       !say ? std::string()
                            : TrF("{0} per GPU-hour × {1} ({2})",
                                  {Usd(c.cloud_gpu_hour), FormatCountOf(gpus, "GPU", "GPUs"), c.cloud_basis}),
                       c.cloud_hour});
  if (c.spot_hour > 0)
    c.lines.push_back({"spot_hour", Tr("Cloud spot, per hour"),
                       !say ? std::string()
                            : TrF("{0} per GPU-hour × (1 + {1}% interruptions) × {2} ({3})",
                                  {Usd(c.spot_gpu_hour), FormatFixed(s.spot_overhead * 100, 0),
                                   FormatCountOf(gpus, "GPU", "GPUs"), c.spot_basis}),
                       c.spot_hour});

  // Owned: the purchase price, else the catalog's latest street or launch price.
  if (s.buy_usd > 0) {
    c.purchase_gpu = s.buy_usd;
    if (say) c.purchase_basis = Tr("given");
  } else if (gpu) {
    const bool want_yen = c.money.code == "JPY";
    if (const Price* best = PurchasePrice(*gpu, want_yen, jpy_per_usd)) {
      c.purchase_gpu = PriceUsd(*best, jpy_per_usd);
      if (say)
        c.purchase_basis = (best->kind == "estimate" ? TrF("analyst estimate {0}", {best->date})
                            : best->kind == "launch" ? TrF("launch price {0}", {best->date})
                            : best->kind == "street" ? TrF("street price {0}", {best->date})
                                                     : best->kind + " price " + best->date) +
                           (best->jpy > 0 ? " " + FormatMoney(best->jpy, Money{"JPY", 1, ""}) +
                                                (want_yen ? "" : TrF(" at ¥{0}/$", {FormatShort(jpy_per_usd, 2)}))
                                          : "") +
                           " (" + best->source.title + ")";
    }
  }
  c.power_w = gpu ? gpu->tdp_w * n : 0;
  // Energy: board power at TDP while busy × PUE (The Green Grid, PUE = facility energy / IT
  // energy) × $/kWh. Without a rack, host CPUs, RAM and networking are not counted; with one
  // (rack.h), the servers' host power is, at the cooling type's PUE.
  double pue = s.pue;
  if (gpu && s.cooling != "none") {
    c.rack = PlanRack(*gpu, s, static_cast<long long>(n), kHoursPerMonth * s.utilization);
    c.power_w = c.rack.it_w;
    pue = c.rack.chosen.pue;
    if (say) {
      c.warnings.insert(c.warnings.end(), c.rack.warnings.begin(), c.rack.warnings.end());
      c.assumptions.insert(c.assumptions.end(), c.rack.assumptions.begin(), c.rack.assumptions.end());
    }
  }
  c.energy_hour = c.power_w / 1000 * pue * s.kwh_usd;
  c.energy_month = c.energy_hour * c.busy_hours_month;
  const double purchase = c.purchase_gpu * n;
  if (c.purchase_gpu > 0) {
    const double amortised = purchase / (s.years * kHoursPerYear * s.utilization);
    c.owned_hour = amortised + c.energy_hour;
    c.amortised_month = purchase / (s.years * 12);
    c.owned_month = c.amortised_month + c.energy_month;
    // A dense air-cooled rack throttles (rack.h): the owned GPUs make fewer tokens an hour.
    const double kept = 1 - c.rack.throttle;
    c.owned_per_m_output = PerMillion(c.owned_hour, speed.tokens_per_s_total * kept);
    c.owned_per_m_input = PerMillion(c.owned_hour, speed.prefill_tokens_per_s * kept);
    c.lines.push_back({"amortisation", Tr("Purchase, per busy hour"),
                       !say ? std::string()
                            : TrF("{0} × {1} / ({2} years × 8,760 h × {3}% busy)",
                                  {Usd(c.purchase_gpu), FormatCountOf(gpus, "GPU", "GPUs"), FormatFixed(s.years, 1),
                                   FormatFixed(s.utilization * 100, 0)}),
                       amortised});
    // Break-even: the month where the purchase is paid back by the rent saved net of energy,
    // renting the same busy hours: purchase / ((rent − energy) per month).
    const double gap = c.cloud_month - c.energy_month, spot_gap = c.spot_month - c.energy_month;
    // Beyond 100 years it never pays off in practice (and a tiny gap would overflow): 0.
    auto months = [&](double g) {
      const double m = g > 0 ? purchase / g : 0;
      return std::isfinite(m) && m <= 1200 ? m : 0;
    };
    c.break_even_months = months(gap);
    c.break_even_spot_months = months(spot_gap);
  } else if (say) {
    c.warnings.push_back(Tr("no purchase price for this GPU in the catalog: set buy-usd"));
  }
  c.lines.push_back(
      {"energy", Tr("Energy, per busy hour"),
       !say ? std::string()
       : c.rack.cooling.empty()
           ? FormatFixed(c.power_w, 0) + " W TDP × PUE " + FormatFixed(s.pue, 2) + " × " + Usd(s.kwh_usd) + "/kWh"
           : TrF("{0} W ({1} GPUs × {2} W TDP + {3} servers × {4} W host) × PUE {5} ({6}) × {7}/kWh",
                 {FormatFixed(c.power_w, 0), std::to_string(c.rack.gpus), FormatFixed(c.rack.gpu_w, 0),
                  std::to_string(c.rack.servers), FormatFixed(c.rack.host_w, 0), FormatFixed(pue, 2), c.rack.cooling,
                  Usd(s.kwh_usd)}),
       c.energy_hour});

  // The chart: cumulative cost month by month over the amortisation period, or to 1.5× the
  // later break-even when that comes after it (up to 20 years).
  const double horizon = std::clamp(
      std::max({s.years * 12, c.break_even_months * 1.5, c.break_even_spot_months * 1.5}), 1.0, 240.0);
  const int steps = 48;
  c.months.reserve(steps + 1);
  if (c.cloud_month > 0) c.cloud_total.reserve(steps + 1);
  if (c.spot_month > 0) c.spot_total.reserve(steps + 1);
  if (c.purchase_gpu > 0) c.owned_total.reserve(steps + 1);
  // An option without a price has no series (empty), not a line at zero.
  for (int i = 0; i <= steps; ++i) {
    const double m = horizon * i / steps;
    c.months.push_back(m);
    if (c.cloud_month > 0) c.cloud_total.push_back(c.cloud_month * m);
    if (c.spot_month > 0) c.spot_total.push_back(c.spot_month * m);
    if (c.purchase_gpu > 0) c.owned_total.push_back(purchase + c.energy_month * m);
  }
  // What stays unknown, and why: the reports print these empty with the reason, never as 0
  // (the numbers-only path leaves the map empty: there a 0 is the unknown).
  auto unknown = [&](std::initializer_list<const char*> keys, const char* why) {
    if (say)
      for (const char* k : keys) c.unknown.emplace(k, Tr(why));
  };
  if (!(c.cloud_gpu_hour > 0))
    unknown({"cloud_gpu_hour", "cloud_hour", "cloud_month", "cloud_per_m_output", "cloud_per_m_input", "spot_discount"},
            N_("no cloud offer for this GPU in the catalog: set price-hour"));
  if (!(c.spot_gpu_hour > 0))
    unknown({"spot_gpu_hour", "spot_effective_gpu_hour", "spot_hour", "spot_month", "spot_per_m_output",
             "spot_discount", "break_even_spot_months"},
            N_("no spot offer for this GPU in the catalog"));
  if (!(c.purchase_gpu > 0))
    unknown({"purchase_gpu", "owned_hour", "owned_month", "amortised_month", "owned_per_m_output", "owned_per_m_input",
             "break_even_months", "break_even_spot_months"},
            N_("no purchase price for this GPU in the catalog: set buy-usd"));
  if (!(c.power_w > 0)) unknown({"power_w", "energy_hour", "energy_month"}, N_("no TDP for this GPU in the catalog"));
  if (auto it = speed.unknown.find("prefill_tokens_per_s"); it != speed.unknown.end())
    unknown({"cloud_per_m_input", "owned_per_m_input"}, it->second.c_str());
  if (!(speed.tokens_per_s_total > 0))
    unknown({"cloud_per_m_output", "owned_per_m_output", "spot_per_m_output"}, N_("no decode rate"));
  if (c.purchase_gpu > 0 && c.cloud_gpu_hour > 0 && c.break_even_months == 0)
    unknown(
        {"break_even_months"},
        N_("renting these hours costs about as much as the energy of owning: buying never pays off within 100 years"));
  if (c.purchase_gpu > 0 && c.spot_gpu_hour > 0 && c.break_even_spot_months == 0)
    unknown({"break_even_spot_months"},
            N_("renting spot costs about as much as the energy of owning: buying never pays off within 100 years"));
  if (!say) return c;
  std::vector<std::string> rack = std::move(c.assumptions);  // the rack's, gathered above
  c.assumptions = {
      Tr("cost per token at the scenario's steady throughput: output at the decode rate, input at the prefill rate"),
      c.rack.cooling.empty()
          ? Tr("owned GPUs draw their TDP while busy; host, cooling beyond PUE and staff are not counted")
          : Tr("owned servers draw their GPUs' TDP and their host power while busy, at the cooling's PUE; racks, "
               "floor space and staff are not counted"),
      Tr("break-even compares buying with renting the same busy hours (730 h a month × utilisation), energy included"),
      Tr("spot: the spot price + spot-overhead for the work redone after interruptions"),
  };
  c.assumptions.insert(c.assumptions.end(), rack.begin(), rack.end());
  return c;
}

}  // namespace

CostEstimate EstimateCost(const Catalog& catalog, const Scenario& s, const SpeedEstimate& speed, Detail detail) {
  Result<Resolved> r = Resolve(catalog, s);
  return Cost(catalog, r ? &r->gpu : nullptr, s, speed, detail);
}

CostEstimate EstimateCost(const Resolved& r, const Scenario& s, const SpeedEstimate& speed, Detail detail) {
  return Cost(r.catalog, &r.gpu, s, speed, detail);
}

}  // namespace gpuplan
