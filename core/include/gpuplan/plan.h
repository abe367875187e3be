// gpuplan/plan.h — the inverse question (issue 19, item 3): for a model, a workload and an SLA,
// which GPU, how many, which parallel layout, weight format and engine serve it most cheaply.
// Every candidate that fits is screened with the step model (speed.h StepSeconds: the largest
// batch whose step meets the TPOT target, the prompt work each request brings, the replicas the
// load needs); the cheapest are then replayed by the serving simulator (serving.h) at their
// share of the load, a replica added while the SLA is missed. The rows that survive form the
// Pareto set of cost against p90 TPOT.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/records.h"
#include "gpuplan/scenario.h"
#include "gpuplan/serving.h"
#include "gpuplan/workload.h"

namespace gpuplan {

struct PlanQuery {
  Scenario base;          // the model and the cost fields (years, kWh price, utilisation, spot overhead)
  WorkloadSpec workload;  // the load: a rate (open loop) or clients (closed loop), and lengths
  double ttft_p90_s = 0, tpot_p90_s = 0;  // the SLA (0: no limit)
  std::string by = "cloud";               // what "cheapest" means: cloud (on demand), spot, owned (a month)
  std::string vendor;                     // only GPUs whose vendor or id contains this (any case)
  double max_usd_hour = 0;                // a budget for all replicas, on demand per hour (0: none)
  double max_watts = 0;                   // a power cap for all GPUs, TDP (0: none)
  int max_gpus = 8;                       // GPUs per replica at most (tp x pp; 8: one node)
  int finalists = 12;                     // candidates replayed by the simulator
};

struct PlanRow {
  Scenario s;  // gpu, tp, pp, ep, weights, kv, engine
  int replicas = 1;
  double usd_hour = 0, spot_usd_hour = 0, owned_usd_month = 0;  // all replicas; 0: no price known
  double usd_per_m_output = 0;                                  // by the query's measure of cost
  double watts = 0;
  ServeResult run;      // one replica at its share of the load
  bool meets = false;   // the SLA held in the replay
  std::string binding;  // what limits it ("TPOT p90 61 ms > 50 ms", "KV pool", ...)
  bool pareto = false;  // not beaten on both cost and p90 TPOT by another row that meets the SLA
};

struct PlanResult {
  std::vector<PlanRow> rows;  // replayed candidates, cheapest first
  int considered = 0, fitted = 0, screened_out = 0, replayed = 0;
  double ms = 0;  // wall time of the search (not a test figure; bench.sh measures it)
  std::vector<std::string> notes;
};

// The search in steps, so that a page can run it between frames and show its progress: the
// screen one GPU at a time, then one replay at a time. The same units in the same order as one
// call, so the result does not depend on how the steps were cut.
class PlanSearch {
 public:
  PlanSearch();  // nothing to search: done, with an empty result
  // `catalog` must outlive the search. An impossible query (an unknown model, a bad workload)
  // makes a search that is done at once with an Error naming the field.
  PlanSearch(const Catalog& catalog, PlanQuery q);
  PlanSearch(PlanSearch&&) noexcept;
  PlanSearch& operator=(PlanSearch&&) noexcept;
  ~PlanSearch();

  // Works for about `budget_ms` (at least one unit: a GPU screened or a setup replayed); false
  // once the search is complete.
  bool Step(double budget_ms = 0);
  bool done() const;
  double progress() const;    // 0 to 1
  std::string stage() const;  // "screening: 31 of 84 GPUs", "replaying: 3 of 12 setups", "done"
  // Complete once done(); before, the rows replayed so far (in the screen's order, no Pareto).
  const Result<PlanResult>& result() const;
  const PlanQuery& query() const;

 private:
  struct State;
  std::unique_ptr<State> st_;
};

// The whole search at once (the CLI, tests).
Result<PlanResult> PlanServing(const Catalog& catalog, const PlanQuery& q);

// One replica's share of the load: the rate divided, or the clients (rounded up).
WorkloadSpec PlanShare(const WorkloadSpec& w, int replicas);
// A row's setup in words: "2 replicas of 4 x NVIDIA H100 SXM5 80GB (TP 4), vLLM, FP8 ...".
std::string PlanRowText(const Catalog& catalog, const PlanRow& row);

// What `gpuplan plan` prints: the replayed setups with their costs, latencies and verdicts, the
// cheapest that meets the SLA and the command that shows it; and the same as JSON.
Report PlanReport(const Catalog& catalog, const PlanQuery& q, const PlanResult& p);
// `state`: the page link's hash the plan was asked with (views.cpp), or empty.
std::string PlanJson(const Catalog& catalog, const PlanQuery& q, const PlanResult& p, const std::string& state = "");

}  // namespace gpuplan
