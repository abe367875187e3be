#include "gpuplan/compare.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "gpuplan/ceilings.h"
#include "gpuplan/cost.h"
#include "gpuplan/i18n.h"
#include "gpuplan/inference.h"
#include "gpuplan/resolve.h"
#include "gpuplan/speed.h"

namespace gpuplan {

std::vector<CompareRow> CompareCatalog(const Catalog& catalog, const Scenario& s, const ModelFacts* facts,
                                       const CeilingTable* ceilings) {
  std::vector<CompareRow> rows;
  rows.reserve(catalog.gpus.size());
  // The model's counts once for the whole catalog (every row reads them up to nine times).
  ModelFacts counted;
  if (!facts)
    if (const Model* m = catalog.FindModel(s.model)) facts = &(counted = CountFacts(*m));
  // Numbers only: the rows keep no formula, basis or assumption (Detail::kNumbers).
  constexpr Detail kNumbers = Detail::kNumbers;
  std::optional<CeilingTable> grouped;
  if (!ceilings) ceilings = &grouped.emplace(catalog);
  const double jpy_per_usd = JpyPerUsd(catalog, s);  // yen prices and offers count at this rate
  const Money money = ScenarioMoney(catalog, s);     // every row, priced or not, in one currency
  for (const Gpu& g : catalog.gpus) {
    CompareRow row;
    row.money = money;
    row.gpu = g.id;
    row.name = g.name;
    row.vendor = g.vendor;
    row.year = g.year;
    Scenario t = s;
    t.gpu = g.id;
    // A MIG profile and the user's own memory figure describe the scenario's GPU, not the others.
    if (g.id != s.gpu) t.mig = "none", t.gpu_mem_gib = 0;
    Result<Resolved> r = Resolve(catalog, t);
    if (r) r->facts = facts, r->ceilings = ceilings;
    if (!r) {
      row.note = r.error();
      rows.push_back(std::move(row));
      continue;
    }
    // Fewest GPUs that hold the scenario: powers of two up to a node of 8, then whole nodes.
    Result<MemoryEstimate> fit = Error{""};
    for (int count = 1; count <= kCompareMaxCount; count *= 2) {
      t.tp = count;
      fit = EstimateMemory(*r, t, /*limits=*/false, kNumbers);
      if (!fit) break;
      if (fit->fits) break;
    }
    if (fit) fit = EstimateMemory(*r, t, /*limits=*/true, kNumbers);  // the limits, for the count chosen
    if (!fit) {
      row.note = fit.error();
      rows.push_back(std::move(row));
      continue;
    }
    row.gpus = fit->fits ? static_cast<int>(t.Gpus()) : 0;
    row.fits = fit->fits;
    row.memory_per_gpu = fit->total_bytes;
    row.capacity = fit->usable_bytes;
    // The context this setup serves: memory's limit, capped at the model's own window.
    const Model& model = r->model;
    row.max_context = model.max_context > 0 ? std::min(fit->max_context, model.max_context) : fit->max_context;
    row.max_batch = fit->max_batch;
    const Price* price = PurchasePrice(g, jpy_per_usd > 0 && t.currency == "jpy", jpy_per_usd);
    const int gpus = static_cast<int>(t.Gpus());
    row.watts = g.tdp_w * gpus;
    if (!fit->fits) {
      row.note = TrF("does not fit on {0} GPUs", {std::to_string(kCompareMaxCount)});
      rows.push_back(std::move(row));
      continue;
    }
    row.upfront_usd = price ? PriceUsd(*price, jpy_per_usd) * gpus : 0;
    Result<SpeedEstimate> speed = EstimateSpeed(*r, t, *fit, {}, kNumbers);
    if (!speed) {
      row.note = speed.error();
      for (const char* k : {"tokens_per_s_user", "tokens_per_s_total", "ttft_s", "cloud_per_m_output", "owned_per_m_output"})
        row.unknown.emplace(k, TrF("no speed estimate: {0}", {speed.error()}));
      rows.push_back(std::move(row));
      continue;
    }
    row.unknown = speed->unknown;
    if (!price) row.unknown.emplace("upfront_usd", Tr("no purchase price for this GPU in the catalog"));
    row.tokens_per_s_user = speed->tokens_per_s_user;
    row.tokens_per_s_total = speed->tokens_per_s_total;
    row.ttft_s = speed->ttft_s;
    const std::string& bound = speed->decode.bound;
    row.note = bound == "memory"          ? Tr("memory-bound decode")
               : bound == "compute"       ? Tr("compute-bound decode")
               : bound == "communication" ? Tr("communication-bound decode")
               : bound == "host memory"   ? Tr("host memory-bound decode")
                                          : bound + "-bound decode";
    const CostEstimate cost = EstimateCost(*r, t, *speed, kNumbers);
    row.cloud_per_m_output = cost.cloud_per_m_output;
    row.cloud_month_usd = cost.cloud_month;
    row.owned_per_m_output = cost.owned_per_m_output;
    if (!(cost.cloud_per_m_output > 0))
      row.unknown.emplace("cloud_per_m_output", Tr("no cloud offer for this GPU in the catalog (price-hour sets one)"));
    if (!(cost.cloud_month > 0))
      row.unknown.emplace("cloud_month", Tr("no cloud offer for this GPU in the catalog (price-hour sets one)"));
    if (!(cost.owned_per_m_output > 0))
      row.unknown.emplace("owned_per_m_output", Tr("no purchase price for this GPU in the catalog (buy-usd sets one)"));
    if (cost.cloud_per_m_output > 0) {
      row.usd_per_m_output = cost.cloud_per_m_output;
      row.price_basis = "cloud";
    } else if (cost.owned_per_m_output > 0) {
      row.usd_per_m_output = cost.owned_per_m_output;
      row.price_basis = "owned";
    } else {
      row.unknown.emplace("usd_per_m_output", Tr("no cloud offer and no purchase price for this GPU in the catalog"));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

bool PassesFilter(const CompareRow& r, const CompareFilter& f) {
  if (f.fits_only && !r.fits) return false;
  if (!f.vendor.empty()) {
    auto lower = [](std::string t) {
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return t;
    };
    const std::string v = lower(f.vendor);
    if (lower(r.vendor).find(v) == std::string::npos && lower(r.gpu).find(v) == std::string::npos) return false;
  }
  // A limit excludes rows whose figure is unknown: a budget cannot be checked without a price.
  // Budgets are in the reader's currency: the rows' dollars converted at the same rate.
  if (f.max_upfront > 0 && !(r.upfront_usd > 0 && r.upfront_usd * r.money.per_usd <= f.max_upfront)) return false;
  if (f.max_month > 0 && !(r.cloud_month_usd > 0 && r.cloud_month_usd * r.money.per_usd <= f.max_month)) return false;
  if (f.max_watts > 0 && !(r.watts > 0 && r.watts <= f.max_watts)) return false;
  if (f.min_tokens_per_s > 0 && !(r.tokens_per_s_total >= f.min_tokens_per_s)) return false;
  if (f.max_ttft_s > 0 && !(r.ttft_s > 0 && r.ttft_s <= f.max_ttft_s)) return false;
  return true;
}

}  // namespace gpuplan
