// gpuplan/compare.h — the whole catalog ranked for one scenario: for every accelerator, the
// fewest GPUs (1, 2, 4, 8 per node, then whole nodes) that hold the model, and what that
// setup does: max context, tokens/s, time to first token, $ per million tokens, upfront $,
// watts. Callers sort and filter the rows; the rows themselves are cached by scenario.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/model.h"
#include "gpuplan/scenario.h"
#include "gpuplan/units.h"

namespace gpuplan {

class CeilingTable;  // ceilings.h

struct CompareRow {
  std::string gpu, name, vendor;
  int gpus = 0;                    // GPUs used in all, tp × pp (0: does not fit at any count tried)
  bool fits = false;
  double memory_per_gpu = 0;       // bytes the scenario needs per GPU
  double capacity = 0;             // usable bytes per GPU under the engine's cap
  long long max_context = 0, max_batch = 0;  // context: capped at the model's window
  double tokens_per_s_user = 0, tokens_per_s_total = 0, ttft_s = 0;
  // $ per 1M output tokens renting (the catalog's cheapest on-demand offer) and owning (the
  // purchase price amortised, with power): two figures, never one mixed column; 0 when the
  // catalog lacks the price (`unknown` says which).
  double cloud_per_m_output = 0, owned_per_m_output = 0;
  double usd_per_m_output = 0;     // the JSON's older field: cloud when an offer exists, else owned
  std::string price_basis;         // "cloud" / "owned" / "": which of the two usd_per_m_output is
  double upfront_usd = 0;          // purchase price × count (0: unknown)
  double cloud_month_usd = 0;      // renting them on demand for a month of the busy hours (0: unknown)
  Money money;                     // the currency the scenario shows (cost.h ScenarioMoney)
  double watts = 0;                // TDP × count
  int year = 0;
  std::string note;                // why it does not fit, or the bound
  std::map<std::string, std::string> unknown;  // figures left empty (key as in the report) -> why
};

inline constexpr int kCompareMaxCount = 64;

// Every catalog GPU for scenario `s` (its gpu and count fields are replaced per row), on the
// estimators' numbers-only path (Detail::kNumbers). `facts`: the model's counts where the
// caller keeps them (the Session); null: counted once here.
// `ceilings`: the catalog's measurements grouped (ceilings.h); null: grouped here.
std::vector<CompareRow> CompareCatalog(const Catalog& catalog, const Scenario& s, const ModelFacts* facts = nullptr,
                                       const CeilingTable* ceilings = nullptr);

// Which rows to show: the page's filter bar and the CLI's flags (0 / empty: no limit).
struct CompareFilter {
  bool fits_only = false;
  std::string vendor;            // case-insensitive substring of the vendor or the GPU id
  // Budgets in the scenario's currency (CompareRow::money): what buying all the GPUs may cost,
  // and what renting them for a month of the busy hours may cost (on demand).
  double max_upfront = 0, max_month = 0;
  double max_watts = 0;          // TDP of all the GPUs
  double min_tokens_per_s = 0;   // decode, all users
  double max_ttft_s = 0;         // time to first token
};
bool PassesFilter(const CompareRow& row, const CompareFilter& f);
// Sorting and the table's columns: records.h (CompareColumns, SortCompareRows).

}  // namespace gpuplan
