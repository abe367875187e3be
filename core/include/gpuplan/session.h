// gpuplan/session.h — the one object every door opens: the catalog with the user's imports,
// the scenario, the loaded probe results and the view options (compare sort and filters,
// roofline overlays and phases, the open panel). It computes each result once per change and
// keeps it; the CLI, the page and the native window only read it and draw (Tracy's Worker is
// the model: one object holds the data, the views are thin).
//
// Index:
//   [SECTION] View options: the state a link carries besides the scenario
//   [SECTION] Session
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/ceilings.h"
#include "gpuplan/compare.h"
#include "gpuplan/cost.h"
#include "gpuplan/cpu_probe.h"
#include "gpuplan/curves.h"
#include "gpuplan/expected.h"
#include "gpuplan/inference.h"
#include "gpuplan/launch.h"
#include "gpuplan/plan.h"
#include "gpuplan/probe_result.h"
#include "gpuplan/roofline.h"
#include "gpuplan/scenario.h"
#include "gpuplan/serving.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"

namespace gpuplan {

// [SECTION] View options -----------------------------------------------------------------
// What the views show besides the scenario. Links (the hash), CLI flags and the page's widgets
// set them through the same table (ViewFields), so "Copy link" and "Copy CLI command" keep them.
struct ViewOptions {
  std::string tab = "fit";                    // the panel a link opens
  std::string sort = "tokens_per_s_total";    // compare: the column rows are sorted by
  CompareFilter filter;                       // compare: which rows to show
  std::vector<std::string> overlay;           // roofline: more catalog GPUs' roofs (ids)
  std::string phase = "all";                  // roofline: all, or phases joined by ',' (prefill,decode,train)
  // serve: the workload and the SLA (serving.h)
  double rate = 0;                    // requests per second, Poisson; 0: a closed loop of `clients`
  int clients = 16;                   // closed loop: clients at once
  int requests = 500;                 // requests replayed
  std::string lengths = "sharegpt";   // a workload preset id, or IN/OUT fixed tokens ("1024/128")
  double ttft_sla = 0, tpot_sla = 0;  // seconds; 0: no limit
  // plan: what "cheapest" means, a budget, GPUs per replica (plan.h PlanQuery); its vendor and
  // power cap are compare's filter.vendor and filter.max_watts.
  std::string by = "cloud";
  double max_usd_hour = 0;
  int max_gpus = 8;

  bool ShowsPhase(std::string_view phase_name) const;
};

// key (hash key and CLI flag), label, help; the views that use each are in views.h.
const std::vector<FieldInfo>& ViewFields();
std::string GetViewField(const ViewOptions& v, std::string_view key);
// On error `v` is unchanged and the message names the key and says why.
std::optional<Error> SetViewField(ViewOptions& v, std::string_view key, std::string_view value,
                                  const Catalog& catalog);
// "&sort=gpu&fits=1": the options that differ from the defaults, in table order.
std::string EncodeViewOptions(const ViewOptions& v);
// "a,b,,c" -> {a, b, c}: the lists the options hold (overlay ids, phases).
std::vector<std::string> SplitList(std::string_view text, char sep);
// A serve view's `lengths`: a workload preset id (workload.h) or "IN/OUT" fixed tokens; nullopt
// for anything else.
std::optional<std::pair<LengthDist, LengthDist>> ParseLengths(std::string_view text);
// The fields that put one replica of a plan's row in the scenario and the serve view: its GPU,
// count, layout, engine and formats, and its share of the load (rate or clients), as text for
// Session::Set (the page's "Serve" buttons on the Plan panel).
std::vector<std::pair<std::string, std::string>> PlanRowFields(const PlanQuery& q, const PlanRow& row);
// " --sort gpu --fits": the same as CLI flags, for the options `keys` lists.
std::string ViewCliFlags(const ViewOptions& v, const std::vector<std::string>& keys);



// [SECTION] Session ----------------------------------------------------------------------
// What Import recognised in a text, and what became of it.
struct ImportOutcome {
  bool ok = false;
  std::string kind;     // config, catalog, cpu-probe, gpu-probe, sources
  std::string message;  // for the status line: what was added, or what is wrong
};

class Session {
 public:
  // `base`: the built-in catalog (and, in the CLI, the --catalog files merged into it).
  explicit Session(Catalog base);

  const Catalog& catalog() const { return catalog_; }
  const Scenario& scenario() const { return scenario_; }
  const ViewOptions& view() const { return view_; }

  // One field of the scenario or of the view options, through the shared parsers. On error
  // nothing changes and the message names the field.
  std::optional<Error> Set(std::string_view key, std::string_view value);
  void SetScenario(const Scenario& s);
  void SetView(const ViewOptions& v);
  // The language (i18n.h SetLang) changed: results that carry words are made again.
  void LanguageChanged() { Changed(true); }

  // A scenario field's or a view option's value as text (what links and flags carry); its
  // FieldInfo, from either table.
  std::string Get(std::string_view key) const;
  static const FieldInfo* Field(std::string_view key);

  // Reads a link's hash: scenario and view keys; the page's own (embed, theme) come back in
  // `page`. Dropped fields are listed with their reasons; the rest is kept.
  DecodedState LoadState(std::string_view hash);
  // The scenario and the view options that differ from their defaults.
  std::string StateHash() const;

  // A text the user pasted or dropped: a Hugging Face config.json, a catalog file, a CPU or GPU
  // probe result, or the page's catalog sources bundle. Recognised once, here.
  ImportOutcome Import(std::string_view text, const std::string& name_hint);
  // The largest text Import reads (a config.json is a few KB, a catalog file or the page's
  // sources bundle under a megabyte); a larger file is refused with TooLargeToImport's words,
  // which a front end also gives for a file it does not read at all.
  static constexpr size_t kMaxImportBytes = 16u << 20;
  static ImportOutcome TooLargeToImport(const std::string& name, double bytes);
  // The texts imported so far (catalog additions), replayed when the sources bundle arrives.
  const std::vector<std::pair<std::string, std::string>>& imports() const { return imports_; }
  const std::optional<GpuProbeResult>& gpu_probe() const { return gpu_probe_; }
  const std::optional<CpuProbeResult>& cpu_probe() const { return cpu_probe_; }
  // `catalog_id`: the catalog GPU it ran on, where the device name does not match one (probe
  // compare --gpu); empty: matched by the device name.
  void SetGpuProbe(GpuProbeResult p, std::string catalog_id = "");
  // The catalog GPU the loaded GPU probe ran on, or null (none loaded, or no match).
  const Gpu* GpuProbeCatalogGpu() const;
  void SetCpuProbe(CpuProbeResult p);
  // Speed from the loaded GPU probe's bandwidth and GEMM efficiencies instead of the engine's
  // fitted ones (`gpuplan speed --measured FILE`; the page's Speed panel once a probe is loaded):
  // an upper bound for any engine. Not part of a link: the probe file does not travel with it.
  void SetUseMeasured(bool on);
  bool use_measured() const { return use_measured_; }

  // Results, each computed once after a change. Speed, cost and the curves need a fit; their
  // errors say why there are none.
  const Result<MemoryEstimate>& Fit();
  const Result<SpeedEstimate>& Speed();
  // Serving at load: the scenario's model, GPUs and engine replaying the view's workload
  // (serving.h). Recomputed after any change of the scenario or the view options.
  const Result<ServeEstimate>& Serve();
  bool ServeReady() const { return serve_.has_value(); }
  // Latency against load for the Serve view (serving.h LoadCurve): what is computed so far, and
  // one more step of it (the page runs one per task between frames; the CLI all at once).
  const LoadCurve& ServeCurve() const { return curve_; }
  bool ServeCurveStep();  // false when complete
  // The inverse search (plan.h) for the scenario's model and cost fields and the view's workload,
  // SLA and plan options: complete (Plan), or as far as it has got (PlanShown) and one slice of
  // it (PlanStep, about `budget_ms`; false once complete: the page runs one per task).
  const PlanSearch& Plan();
  const PlanSearch& PlanShown();
  bool PlanStep(double budget_ms);
  PlanQuery PlanQueryNow() const;
  // The engine command that realises the served setup (launch.h).
  const Result<LaunchPlan>& Launch();
  const Result<CostEstimate>& Cost();
  const SpeedCurves& Curves();
  const Result<TrainEstimate>& Train();
  const std::vector<ScalingPoint>& Scaling();
  // The scenario's operations; with a loaded GPU probe of the scenario's GPU, its measured
  // ceilings are on the roof too.
  const Result<Roofline>& RooflineResult();
  // The chart: the scenario's roof, overlays, a loaded GPU probe's and CPU probe's roofs and
  // points, the operations of the phases shown; titled as `gpuplan roofline --svg` writes it.
  const RooflineChart& Chart();
  // Every catalog GPU, sorted by view().sort; and those that pass view().filter. With `wait`
  // false and the ranking not yet done for this scenario, the previous ranking's rows (the
  // page ranks between frames, RankNow, and shows the last rows meanwhile).
  const std::vector<CompareRow>& CompareAll();
  std::vector<CompareRow> CompareShown(bool wait = true);
  bool CompareReady() const { return compare_.has_value(); }
  double compare_ms() const { return compare_ms_; }  // how long the last ranking took

  // The loaded GPU probe's efficiencies for this scenario (speed --measured): an error says
  // why they do not apply (no probe, another GPU, no measurement at this precision).
  Result<Efficiency> MeasuredEfficiencyNow() const;

  // A change counter: the page redraws caches (charts, tables) when it moves.
  unsigned long generation() const { return generation_; }

 private:
  void Changed(bool scenario_changed);
  void ReplaceCatalog(Catalog c);
  // The scenario's ids resolved, with the model's counts and the catalog's grouped ceilings,
  // each worked out once per model and per catalog.
  Result<Resolved> ResolveScenario();
  WorkloadSpec ServeWorkload() const;  // the serve view's workload
  const ModelFacts* Facts(const std::string& model_id);
  const CeilingTable& Ceilings();  // grouped on first use, kept until the catalog changes

  Catalog catalog_;
  Scenario scenario_;
  ViewOptions view_;
  std::optional<GpuProbeResult> gpu_probe_;
  std::string gpu_probe_catalog_id_;
  std::optional<CpuProbeResult> cpu_probe_;
  std::vector<std::pair<std::string, std::string>> imports_;
  unsigned long generation_ = 0;
  bool use_measured_ = false;

  std::optional<Result<MemoryEstimate>> fit_;
  std::optional<Result<SpeedEstimate>> speed_;
  std::optional<Result<CostEstimate>> cost_;
  std::optional<SpeedCurves> curves_;
  std::optional<Result<ServeEstimate>> serve_;
  std::optional<Result<LaunchPlan>> launch_;
  LoadCurve curve_;
  std::optional<PlanSearch> plan_;
  std::string plan_key_;  // the query plan_ searches (PlanShown starts another when it changes)
  std::optional<Result<TrainEstimate>> train_;
  std::optional<std::vector<ScalingPoint>> scaling_;
  std::optional<Result<Roofline>> roofline_;
  std::optional<RooflineChart> chart_;
  std::map<std::string, ModelFacts> facts_;         // per model id, for this catalog
  std::unique_ptr<CeilingTable> ceilings_;          // this catalog's; points into catalog_
  std::optional<std::vector<CompareRow>> compare_;  // ranked, sorted by compare_sorted_by_
  std::vector<CompareRow> compare_before_;          // the last ranking, shown while the next is due
  std::string compare_sorted_by_;
  double compare_ms_ = 0;
};

}  // namespace gpuplan
