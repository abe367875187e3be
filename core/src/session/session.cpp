// core/src/session.cpp — the Session (session.h): view options and their codec, then the
// session's state, imports and cached results.
//
// Index:
//   [SECTION] View options
//   [SECTION] Session
#include "gpuplan/session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"

#include "gpuplan/i18n.h"
#include "gpuplan/machine.h"
#include "gpuplan/records.h"
#include "gpuplan/units.h"
#include "gpuplan/version.h"
#include "gpuplan/views.h"

namespace gpuplan {

// [SECTION] View options ------------------------------------------------------------------
namespace {

constexpr const char* kPhases[] = {"prefill", "decode", "train"};
constexpr const char* kPlanBy[] = {"cloud", "spot", "owned"};

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// The compare columns one can sort by (records.h owns the columns).
const std::vector<std::string>& SortKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const CompareColumn& c : CompareColumns())
      if (c.order != CompareColumn::Order::kNone) k.push_back(c.key);
    return k;
  }();
  return keys;
}

bool ReadNumber(std::string_view text, double lo, double hi, double& out) {
  if (text.empty() || text.size() > 32) return false;
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v) || v < lo || v > hi) return false;
  out = v;
  return true;
}

// The shortest text that reads back to the same value: 0.25 -> "0.25", 400000 -> "400000".
std::string NumberText(double v) { return FormatShort(v, 6); }

}  // namespace

std::vector<std::string> SplitList(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(sep, start), text.size());
    if (end > start) out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool ViewOptions::ShowsPhase(std::string_view name) const {
  if (phase == "all") return true;
  for (const std::string& p : SplitList(phase, ','))
    if (p == name) return true;
  return false;
}

const std::vector<FieldInfo>& ViewFields() {
  static const std::vector<FieldInfo> fields = [] {
    auto field = [](const char* key, const char* label, const char* help, FieldKind kind, double hi = 0) {
      FieldInfo f{key, label, help};
      f.kind = kind;
      f.hi = hi;
      return f;
    };
    std::vector<FieldInfo> t = {
        field("tab", "Panel",
              "the panel a link opens: fit, speed, serve, plan, compare, train, cost, roofline, capacity, machine, "
              "catalog",
              FieldKind::kText),
        field("sort", "Sort by", "compare: the column to sort by (descending for speeds, ascending for costs)",
              FieldKind::kChoice),
        field("fits", "Fits only", "compare: 1 = only the GPUs that fit (at up to 64 GPUs)", FieldKind::kSwitch, 1),
        field("vendor", "Vendor", "compare, plan: only this vendor (or GPU id substring), e.g. AMD", FieldKind::kText),
        field("min-tps", "Min tok/s", "compare: at least this many tokens/s in all (decode); 0 = no limit",
              FieldKind::kNumber, 1e12),
        field("max-ttft", "Max TTFT s", "compare: time to first token at most this many seconds; 0 = no limit",
              FieldKind::kNumber, 1e12),
        field("max-upfront", "Max upfront", "compare: purchase budget for all the GPUs (currency); 0 = no limit",
              FieldKind::kNumber, 1e12),
        field("max-month", "Max rent a month",
              "compare: rent budget for a month of busy hours (currency); 0 = no limit", FieldKind::kNumber, 1e12),
        field("max-watts", "Max W", "compare, plan: power budget, TDP of all the GPUs in W; 0 = no limit",
              FieldKind::kNumber, 1e12),
        field("overlay", "Overlay", "roofline: more catalog GPUs whose roofs to draw (ids, comma-separated, up to 6)",
              FieldKind::kGpuList, 6),
        field("phase", "Phases", "roofline: which operations: all, or prefill, decode, train joined by commas",
              FieldKind::kFlags),
        field("rate", "Requests/s", "serve: Poisson arrivals per second; 0 = a closed loop of `clients`",
              FieldKind::kNumber, 1e6),
        field("clients", "Clients", "serve: clients at once in a closed loop (rate 0), 1 to 100000",
              FieldKind::kInteger, 100000),
        field("requests", "Requests", "serve: requests replayed, 1 to 1000000", FieldKind::kInteger,
              kMaxWorkloadRequests),
        field("lengths", "Lengths",
              "serve: request lengths, a workload preset (sharegpt, azure-conversation, azure-code, "
              "arxiv-summarization, random-1024-128, mlperf-openorca-llama2, mlperf-mixtral-openorca-gsm8k-mbxp) or "
              "IN/OUT tokens, e.g. 1024/128",
              FieldKind::kText),
        field("ttft-sla", "TTFT SLA s", "serve: goodput counts requests with TTFT at most this; 0 = no limit",
              FieldKind::kNumber, 1e6),
        field("tpot-sla", "TPOT SLA s", "serve: goodput counts requests with TPOT at most this; 0 = no limit",
              FieldKind::kNumber, 1e6),
        field("by", "Cheapest by", "plan: cloud (on demand $/h), spot ($/h with its overhead) or owned ($/month)",
              FieldKind::kChoice),
        field("max-usd-hour", "Max $/h", "plan: budget in $ per hour on demand for all replicas; 0 = no limit",
              FieldKind::kNumber, 1e9),
        field("max-gpus", "Max GPUs", "plan: GPUs per replica at most (tensor x pipeline), 1 to 64",
              FieldKind::kInteger, 64),
    };
    for (FieldInfo& f : t) {
      if (f.kind == FieldKind::kNumber) f.decimals = -1;
      if (std::string_view(f.key) == "sort") f.choices = SortKeys();
      if (std::string_view(f.key) == "phase") f.choices.assign(std::begin(kPhases), std::end(kPhases));
      if (std::string_view(f.key) == "by") f.choices.assign(std::begin(kPlanBy), std::end(kPlanBy));
      if (f.kind == FieldKind::kInteger) f.lo = 1, f.step = 1;
    }
    return t;
  }();
  return fields;
}

std::string GetViewField(const ViewOptions& v, std::string_view key) {
  if (key == "tab") return v.tab;
  if (key == "sort") return v.sort;
  if (key == "fits") return v.filter.fits_only ? "1" : "0";
  if (key == "vendor") return v.filter.vendor;
  if (key == "min-tps") return NumberText(v.filter.min_tokens_per_s);
  if (key == "max-ttft") return NumberText(v.filter.max_ttft_s);
  if (key == "max-upfront") return NumberText(v.filter.max_upfront);
  if (key == "max-month") return NumberText(v.filter.max_month);
  if (key == "max-watts") return NumberText(v.filter.max_watts);
  if (key == "overlay") return Join(v.overlay, ",");
  if (key == "phase") return v.phase;
  if (key == "rate") return NumberText(v.rate);
  if (key == "clients") return std::to_string(v.clients);
  if (key == "requests") return std::to_string(v.requests);
  if (key == "lengths") return v.lengths;
  if (key == "ttft-sla") return NumberText(v.ttft_sla);
  if (key == "tpot-sla") return NumberText(v.tpot_sla);
  if (key == "by") return v.by;
  if (key == "max-usd-hour") return NumberText(v.max_usd_hour);
  if (key == "max-gpus") return std::to_string(v.max_gpus);
  return {};
}

std::optional<Error> SetViewField(ViewOptions& v, std::string_view key, std::string_view value,
                                  const Catalog& catalog) {
  const std::string k(key), text(value.substr(0, 200));
  auto fail = [&](const std::string& why) { return Error{TrF("{0}: '{1}' {2}", {k, text.substr(0, 40), why})}; };
  if (key == "tab") {
    if (!FindView(value)) return fail(TrF("is not a panel ({0})", {Join(ViewIds(), ", ")}));
    v.tab = text;
    return std::nullopt;
  }
  if (key == "sort") {
    if (value == "count") value = "gpus";  // the column's name before the rename
    if (value == "usd_per_m_output") value = "cloud_per_m_output";  // the mixed $/1M column before the split
    if (std::find(SortKeys().begin(), SortKeys().end(), value) == SortKeys().end())
      return fail(TrF("must be one of {0}", {Join(SortKeys(), ", ")}));
    v.sort = std::string(value);
    return std::nullopt;
  }
  if (key == "fits") {
    if (value != "0" && value != "1") return fail(Tr("must be 0 or 1"));
    v.filter.fits_only = value == "1";
    return std::nullopt;
  }
  if (key == "vendor") {
    if (value.size() > 64) return fail(Tr("is longer than 64 characters"));
    v.filter.vendor = text;
    return std::nullopt;
  }
  if (key == "min-tps" || key == "max-ttft" || key == "max-upfront" || key == "max-month" || key == "max-watts") {
    double d = 0;
    if (!ReadNumber(value, 0, 1e12, d)) return fail(Tr("must be a number from 0 to 1e12"));
    (key == "min-tps"       ? v.filter.min_tokens_per_s
     : key == "max-ttft"    ? v.filter.max_ttft_s
     : key == "max-upfront" ? v.filter.max_upfront
     : key == "max-month"   ? v.filter.max_month
                            : v.filter.max_watts) = d;
    return std::nullopt;
  }
  if (key == "overlay") {
    std::vector<std::string> ids = SplitList(value, ',');
    if (ids.size() > 6) return fail(Tr("names more than 6 GPUs"));
    for (const std::string& id : ids)
      if (!catalog.FindGpu(id))
        return Error{k + ": " + TrF("unknown GPU '{0}' (gpuplan catalog gpus lists them)", {id.substr(0, 40)})};
    v.overlay = std::move(ids);
    return std::nullopt;
  }
  if (key == "phase") {
    if (value == "all" || value == "none") {
      v.phase = text;
      return std::nullopt;
    }
    std::vector<std::string> parts = SplitList(value, ',');
    for (const std::string& p : parts)
      if (std::find(std::begin(kPhases), std::end(kPhases), p) == std::end(kPhases))
        return fail(Tr("must be all, none, or prefill, decode, train joined by commas"));
    if (parts.empty()) return fail(Tr("must be all, none, or prefill, decode, train joined by commas"));
    v.phase = text;
    return std::nullopt;
  }
  if (key == "rate" || key == "ttft-sla" || key == "tpot-sla") {
    double d = 0;
    if (!ReadNumber(value, 0, 1e6, d)) return fail(Tr("must be a number from 0 to 1e6"));
    (key == "rate" ? v.rate : key == "ttft-sla" ? v.ttft_sla : v.tpot_sla) = d;
    return std::nullopt;
  }
  if (key == "clients" || key == "requests" || key == "max-gpus") {
    const double top = key == "clients" ? 100000 : key == "max-gpus" ? 64 : kMaxWorkloadRequests;
    double d = 0;
    if (!ReadNumber(value, 1, top, d) || d != std::floor(d))
      return fail(TrF("must be a whole number from 1 to {0}", {FormatCount(static_cast<long long>(top))}));
    (key == "clients" ? v.clients : key == "max-gpus" ? v.max_gpus : v.requests) = static_cast<int>(d);
    return std::nullopt;
  }
  if (key == "by") {
    if (std::find(std::begin(kPlanBy), std::end(kPlanBy), value) == std::end(kPlanBy))
      return fail(Tr("must be cloud, spot or owned"));
    v.by = text;
    return std::nullopt;
  }
  if (key == "max-usd-hour") {
    double d = 0;
    if (!ReadNumber(value, 0, 1e9, d)) return fail(Tr("must be a number from 0 to 1e9"));
    v.max_usd_hour = d;
    return std::nullopt;
  }
  if (key == "lengths") {
    if (!ParseLengths(value)) {
      std::vector<std::string> ids;
      for (const WorkloadPreset& p : WorkloadPresets()) ids.push_back(p.id);
      return fail(TrF("must be a workload preset ({0}) or IN/OUT tokens, e.g. 1024/128", {Join(ids, ", ")}));
    }
    v.lengths = text;
    return std::nullopt;
  }
  return Error{TrF("unknown field '{0}'", {k.substr(0, 40)})};
}

std::optional<std::pair<LengthDist, LengthDist>> ParseLengths(std::string_view text) {
  if (const WorkloadPreset* p = FindWorkloadPreset(text)) return std::pair{p->input, p->output};
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  double in = 0, out = 0;
  if (!ReadNumber(text.substr(0, slash), 1, kMaxRequestTokens, in) || in != std::floor(in) ||
      !ReadNumber(text.substr(slash + 1), 1, kMaxRequestTokens, out) || out != std::floor(out))
    return std::nullopt;
  return std::pair{LengthDist{LengthDist::Kind::kFixed, in}, LengthDist{LengthDist::Kind::kFixed, out}};
}

std::string EncodeViewOptions(const ViewOptions& v) {
  const ViewOptions defaults;
  std::string out;
  for (const FieldInfo& f : ViewFields()) {
    const std::string value = GetViewField(v, f.key);
    if (value == GetViewField(defaults, f.key)) continue;
    out += std::string("&") + f.key + "=" + PercentEncode(value);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> PlanRowFields(const PlanQuery& q, const PlanRow& row) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* key : {"gpu", "tp", "pp", "ep", "split", "engine", "weights", "kv"})
    out.emplace_back(key, GetField(row.s, key));
  const WorkloadSpec share = PlanShare(q.workload, row.replicas);
  ViewOptions o;
  o.rate = share.rate, o.clients = share.concurrency;
  const char* key = q.workload.rate > 0 ? "rate" : "clients";
  out.emplace_back(key, GetViewField(o, key));
  return out;
}

std::string ViewCliFlags(const ViewOptions& v, const std::vector<std::string>& keys) {
  const ViewOptions defaults;
  std::string out;
  for (const FieldInfo& f : ViewFields()) {
    if (std::find(keys.begin(), keys.end(), f.key) == keys.end()) continue;
    const std::string value = GetViewField(v, f.key);
    if (value == GetViewField(defaults, f.key)) continue;
    if (std::string_view(f.key) == "fits") out += " --fits";  // a flag on the command line
    else out += std::string(" --") + f.key + " " + ShellQuote(value);
  }
  return out;
}

// [SECTION] Session -----------------------------------------------------------------------
Session::Session(Catalog base) : catalog_(std::move(base)) {}

void Session::Changed(bool scenario_changed) {
  ++generation_;
  chart_.reset();
  serve_.reset();  // reads the view options too
  launch_.reset();
  curve_ = LoadCurve{};
  if (!scenario_changed) return;
  fit_.reset();
  speed_.reset();
  cost_.reset();
  curves_.reset();
  train_.reset();
  scaling_.reset();
  roofline_.reset();
  if (compare_) compare_before_ = std::move(*compare_);
  compare_.reset();
}

void Session::ReplaceCatalog(Catalog c) {
  catalog_ = std::move(c);
  facts_.clear();
  ceilings_.reset();
  plan_.reset();  // it points into the catalog
  plan_key_.clear();
  Changed(true);  // the same ids may carry other figures now
}

const FieldInfo* Session::Field(std::string_view key) {
  for (const FieldInfo& f : ViewFields())
    if (key == f.key) return &f;
  return FindField(key);
}

std::string Session::Get(std::string_view key) const {
  for (const FieldInfo& f : ViewFields())
    if (key == f.key) return GetViewField(view_, key);
  return GetField(scenario_, key);
}

std::optional<Error> Session::Set(std::string_view key, std::string_view value) {
  for (const FieldInfo& f : ViewFields()) {
    if (key != f.key) continue;
    ViewOptions v = view_;
    if (auto err = SetViewField(v, key, value, catalog_)) return err;
    SetView(v);
    return std::nullopt;
  }
  Scenario s = scenario_;
  if (auto err = SetField(s, key, value, catalog_)) return err;
  // A MIG profile belongs to a GPU: another GPU without it runs whole, so the scenario stays valid.
  if (s.gpu != scenario_.gpu && s.mig != "none") {
    const Gpu* g = catalog_.FindGpu(s.gpu);
    const bool has = g && std::any_of(g->mig_profiles.begin(), g->mig_profiles.end(),
                                      [&](const MigProfile& p) { return p.name == s.mig; });
    if (!has) s.mig = "none";
  }
  SetScenario(s);
  return std::nullopt;
}

void Session::SetScenario(const Scenario& s) {
  if (s == scenario_) return;
  scenario_ = s;
  Changed(true);
}

void Session::SetView(const ViewOptions& v) {
  if (EncodeViewOptions(v) == EncodeViewOptions(view_)) return;  // every option is in the text
  view_ = v;
  Changed(false);
}

void Session::SetUseMeasured(bool on) {
  if (on == use_measured_) return;
  use_measured_ = on;
  speed_.reset();
  cost_.reset();
  Changed(false);
}

DecodedState Session::LoadState(std::string_view hash) {
  DecodedState d = DecodeState(hash, catalog_, {}, ViewFields());
  ViewOptions v;
  for (auto it = d.page.begin(); it != d.page.end();) {
    const bool view_key = std::any_of(ViewFields().begin(), ViewFields().end(),
                                      [&](const FieldInfo& f) { return it->first == f.key; });
    if (!view_key) {
      ++it;
      continue;
    }
    if (auto err = SetViewField(v, it->first, it->second, catalog_)) d.dropped.push_back(err->message);
    it = d.page.erase(it);
  }
  SetScenario(d.scenario);
  SetView(v);
  return d;
}

std::string Session::StateHash() const {
  return EncodeState(scenario_) + EncodeViewOptions(view_) + CatalogStatePair(catalog_);
}

const Gpu* Session::GpuProbeCatalogGpu() const {
  if (!gpu_probe_) return nullptr;
  return gpu_probe_catalog_id_.empty() ? MatchProbeGpu(catalog_, *gpu_probe_) : catalog_.FindGpu(gpu_probe_catalog_id_);
}

void Session::SetGpuProbe(GpuProbeResult p, std::string catalog_id) {
  gpu_probe_ = std::move(p);
  gpu_probe_catalog_id_ = std::move(catalog_id);
  roofline_.reset();
  speed_.reset();
  cost_.reset();
  Changed(false);
}

void Session::SetCpuProbe(CpuProbeResult p) {
  cpu_probe_ = std::move(p);
  Changed(false);
}

// The easy mistake beside a config.json in a model's repository.
constexpr const char* kTokenizerHint =
    N_("A tokenizer.json holds the vocabulary; drop the model's config.json instead.");

ImportOutcome Session::TooLargeToImport(const std::string& name, double bytes) {
  const std::string size = FormatFixed(bytes / (1 << 20), 1), most = std::to_string(kMaxImportBytes >> 20);
  const bool tokenizer = name.find("tokenizer") != std::string::npos;
  return ImportOutcome{
      false, "file",
      (name.empty()
           ? TrF("the pasted text is {0} MiB, more than the {1} MiB an import may be: nothing was read.", {size, most})
           : TrF("'{0}' is {1} MiB, more than the {2} MiB an import may be: nothing was read.", {name, size, most})) +
          " " +
          Tr(tokenizer ? kTokenizerHint
                       : N_("A model's config.json is a few KB; a catalog file well under a megabyte."))};
}

ImportOutcome Session::Import(std::string_view text, const std::string& name_hint) {
  auto outcome = [](bool ok, const char* kind, std::string message) { return ImportOutcome{ok, kind, std::move(message)}; };
  if (text.size() > kMaxImportBytes) return TooLargeToImport(name_hint, static_cast<double>(text.size()));
  if (text.find("\"gpuplan.cpu-probe/") != std::string_view::npos) {
    // The page's threaded probe module reports a failure as {"schema": ..., "error": "..."}.
    const nlohmann::json j = detail::ParseJson(text);  // the core's one parser instantiation
    if (j.is_object() && j.contains("error") && j["error"].is_string())
      return outcome(false, "cpu-probe", TrF("CPU probe: {0}", {j["error"].get<std::string>()}));
    Result<CpuProbeResult> probe = CpuProbeFromJson(std::string(text));
    if (!probe.ok()) return outcome(false, "cpu-probe", probe.error());
    std::string message = TrF("CPU probe of {0} ({1}) loaded: on the This machine and Roofline tabs",
                              {probe.value().cpu.model_name, probe.value().date});
    SetCpuProbe(std::move(probe.value()));
    return outcome(true, "cpu-probe", std::move(message));
  }
  if (text.find("\"gpuplan.gpu-probe/") != std::string_view::npos) {
    Result<GpuProbeResult> probe = ParseGpuProbe(std::string(text));
    if (!probe.ok()) return outcome(false, "gpu-probe", probe.error());
    std::string message = TrF("GPU probe of {0} ({1}) loaded: its measured ceilings are on the Roofline tab",
                              {probe.value().device_name, probe.value().date});
    SetGpuProbe(std::move(probe.value()));
    return outcome(true, "gpu-probe", std::move(message));
  }
  if (text.find("\"gpuplan.catalog-files/") != std::string_view::npos) {
    // The page's built-in files with their sources (the lean catalog left them out): reload,
    // then the user's imports again on top, as before.
    Result<std::vector<CatalogFile>> files = ParseCatalogBundle(text);
    if (!files.ok()) return outcome(false, "sources", files.error());
    Result<Catalog> full = LoadCatalog(files.value(), {}, OnExistingId::kReject);
    if (!full.ok()) return outcome(false, "sources", TrF("catalog sources: {0}", {full.error()}));
    Catalog c = std::move(full).value();
    for (const auto& [again_text, again_name] : imports_) {
      Result<ImportedText> again = ImportUserText(c, again_text, again_name);
      if (again.ok()) c = std::move(again.value().catalog);
    }
    ReplaceCatalog(std::move(c));
    return outcome(true, "sources", Tr("catalog sources loaded"));
  }
  // Every import is kept to be replayed over the sources bundle: a total, not only a per-file limit.
  size_t kept = text.size();
  for (const auto& [kept_text, kept_name] : imports_) kept += kept_text.size();
  if (std::string beyond = CatalogFilesBeyond(imports_.size() + 1, kept); !beyond.empty())
    return outcome(
        false, "catalog",
        (name_hint.empty() ? Tr("pasted text") : name_hint) + ": " + beyond + "; " + Tr("nothing was imported"));
  Result<ImportedText> imported = ImportUserText(catalog_, text, name_hint);
  if (!imported.ok()) {
    const bool tokenizer = name_hint.find("tokenizer") != std::string::npos ||
                           (text.find("\"vocab\"") != std::string_view::npos &&
                            text.find("\"model_type\"") == std::string_view::npos);
    return outcome(false, "catalog",
                   imported.error() + (tokenizer ? std::string(". ") + Tr(kTokenizerHint) : std::string()));
  }
  imports_.emplace_back(std::string(text), name_hint);
  ReplaceCatalog(std::move(imported.value().catalog));
  return outcome(true, "catalog", imported.value().summary);
}

const ModelFacts* Session::Facts(const std::string& model_id) {
  auto it = facts_.find(model_id);
  if (it == facts_.end()) {
    const Model* m = catalog_.FindModel(model_id);
    if (!m) return nullptr;
    it = facts_.emplace(model_id, CountFacts(*m)).first;
  }
  return &it->second;
}

const CeilingTable& Session::Ceilings() {
  if (!ceilings_) ceilings_ = std::make_unique<CeilingTable>(catalog_);
  return *ceilings_;
}

Result<Resolved> Session::ResolveScenario() {
  Result<Resolved> r = Resolve(catalog_, scenario_);
  if (!r) return r;
  r->facts = Facts(scenario_.model);
  r->ceilings = &Ceilings();
  return r;
}

const Result<MemoryEstimate>& Session::Fit() {
  if (fit_) return *fit_;
  const Result<Resolved> r = ResolveScenario();
  fit_ = r ? EstimateMemory(*r, scenario_) : Result<MemoryEstimate>(Error{r.error()});
  return *fit_;
}

Result<Efficiency> Session::MeasuredEfficiencyNow() const {
  if (!gpu_probe_)
    return Error{Tr("measured: no GPU probe result is loaded (gpuplan probe gpu --out FILE writes one)")};
  const Gpu* on = GpuProbeCatalogGpu();
  if (!on || on->id != scenario_.gpu)
    return Error{
        on ? TrF("measured: the probe ran on '{0}' (catalog id {1}); give --gpu {1} to use its measurements",
                 {gpu_probe_->device_name, on->id})
           : TrF("measured: the probe ran on '{0}'; give --gpu ID to use its measurements", {gpu_probe_->device_name})};
  const WeightFormat* wf = catalog_.FindWeightFormat(scenario_.weights);
  const EngineProfile* engine = catalog_.FindEngine(scenario_.engine);
  if (!wf || !engine) return Error{Tr("measured: the scenario's weight format or engine is not in the catalog")};
  const Efficiency eff = MeasuredEfficiency(*gpu_probe_, *on, ComputePrecision(*on, *wf, *engine));
  if (!(eff.bw > 0) || !(eff.compute > 0))
    return Error{Tr("measured: the probe has no read-bandwidth or GEMM measurement for this scenario's precision")};
  return eff;
}

const Result<SpeedEstimate>& Session::Speed() {
  if (speed_) return *speed_;
  const Result<MemoryEstimate>& m = Fit();
  if (!m.ok()) {
    speed_ = Result<SpeedEstimate>(Error{m.error()});
    return *speed_;
  }
  Efficiency eff;
  if (use_measured_) {
    Result<Efficiency> measured = MeasuredEfficiencyNow();
    if (!measured.ok()) {
      speed_ = Result<SpeedEstimate>(Error{measured.error()});
      return *speed_;
    }
    eff = measured.value();
  }
  const Result<Resolved> r = ResolveScenario();
  speed_ = r ? EstimateSpeed(*r, scenario_, m.value(), eff) : Result<SpeedEstimate>(Error{r.error()});
  return *speed_;
}

const Result<CostEstimate>& Session::Cost() {
  if (cost_) return *cost_;
  const Result<SpeedEstimate>& v = Speed();
  cost_ = v.ok() ? Result<CostEstimate>(EstimateCost(catalog_, scenario_, v.value()))
                 : Result<CostEstimate>(Error{v.error()});
  return *cost_;
}

const Result<ServeEstimate>& Session::Serve() {
  if (serve_) return *serve_;
  Result<Resolved> r = ResolveScenario();
  if (!r) return *(serve_ = Result<ServeEstimate>(Error{r.error()}));
  const WorkloadSpec spec = ServeWorkload();
  ServeOptions options;
  options.ttft_sla_s = view_.ttft_sla, options.tpot_sla_s = view_.tpot_sla;
  serve_ = EstimateServing(*r, scenario_, spec, options);
  return *serve_;
}

WorkloadSpec Session::ServeWorkload() const {
  WorkloadSpec spec;
  spec.requests = view_.requests;
  spec.rate = view_.rate;
  spec.concurrency = view_.clients;
  if (const auto lengths = ParseLengths(view_.lengths)) spec.input = lengths->first, spec.output = lengths->second;
  return spec;
}

bool Session::ServeCurveStep() {
  const Result<ServeEstimate>& serve = Serve();
  if (!serve) return !(curve_.done = true);
  return LoadCurveStep(*serve, ServeWorkload(), curve_);
}

PlanQuery Session::PlanQueryNow() const {
  PlanQuery q;
  // The scenario's model and cost fields; what the search sets itself is left at its defaults,
  // so that another GPU or engine picked on a panel does not start the search again.
  q.base = scenario_;
  const Scenario d;
  q.base.gpu = d.gpu, q.base.engine = d.engine, q.base.weights = d.weights, q.base.kv = d.kv;
  q.base.tp = d.tp, q.base.pp = d.pp, q.base.ep = d.ep, q.base.split = d.split;
  q.base.gpu_layers = d.gpu_layers, q.base.batch = d.batch;
  q.workload = ServeWorkload();
  q.ttft_p90_s = view_.ttft_sla, q.tpot_p90_s = view_.tpot_sla;
  q.by = view_.by, q.vendor = view_.filter.vendor;
  q.max_usd_hour = view_.max_usd_hour, q.max_watts = view_.filter.max_watts, q.max_gpus = view_.max_gpus;
  return q;
}

const PlanSearch& Session::PlanShown() {
  const PlanQuery q = PlanQueryNow();
  // The view options besides the plan's own (the tab, compare's sort) do not restart it.
  ViewOptions only;
  only.rate = view_.rate, only.clients = view_.clients, only.requests = view_.requests, only.lengths = view_.lengths;
  only.ttft_sla = view_.ttft_sla, only.tpot_sla = view_.tpot_sla, only.by = view_.by;
  only.filter.vendor = view_.filter.vendor, only.filter.max_watts = view_.filter.max_watts;
  only.max_usd_hour = view_.max_usd_hour, only.max_gpus = view_.max_gpus;
  std::string key = EncodeState(q.base) + "|" + EncodeViewOptions(only);
  if (!plan_ || key != plan_key_) {
    plan_.emplace(catalog_, q);
    plan_key_ = std::move(key);
  }
  return *plan_;
}

const PlanSearch& Session::Plan() {
  while (PlanStep(1e9)) {
  }
  return *plan_;
}

bool Session::PlanStep(double budget_ms) {
  (void)PlanShown();
  return plan_->Step(budget_ms);
}

const Result<LaunchPlan>& Session::Launch() {
  if (launch_) return *launch_;
  const Result<ServeEstimate>& serve = Serve();
  if (!serve) return *(launch_ = Result<LaunchPlan>(Error{serve.error()}));
  Result<Resolved> r = ResolveScenario();
  launch_ = r ? MakeLaunchPlan(*r, scenario_, *serve) : Result<LaunchPlan>(Error{r.error()});
  return *launch_;
}

const SpeedCurves& Session::Curves() {
  if (!curves_) curves_ = Fit().ok() ? ComputeSpeedCurves(catalog_, scenario_) : SpeedCurves{};
  return *curves_;
}

const Result<TrainEstimate>& Session::Train() {
  if (!train_) train_ = EstimateTraining(catalog_, scenario_);
  return *train_;
}

const std::vector<ScalingPoint>& Session::Scaling() {
  if (!scaling_) scaling_ = Train().ok() ? TrainingScaling(catalog_, scenario_, 512) : std::vector<ScalingPoint>{};
  return *scaling_;
}

const Result<Roofline>& Session::RooflineResult() {
  if (roofline_) return *roofline_;
  roofline_ = BuildRoofline(catalog_, scenario_);
  if (roofline_->ok() && gpu_probe_) {
    const Gpu* measured = GpuProbeCatalogGpu();
    if (measured && measured->id == roofline_->value().roof.id) AddMeasuredCeilings(roofline_->value().roof, *gpu_probe_);
  }
  return *roofline_;
}

const RooflineChart& Session::Chart() {
  if (chart_) return *chart_;
  const Result<Roofline>& r = RooflineResult();
  if (!r.ok()) {
    chart_ = RooflineChart{};
    return *chart_;
  }
  const Roofline& rl = r.value();
  std::vector<Roof> roofs = {rl.roof};  // with a matching probe's measured ceilings already
  for (const std::string& id : view_.overlay)
    if (const Gpu* g = catalog_.FindGpu(id); g && id != rl.roof.id) roofs.push_back(GpuRoof(catalog_, *g));
  std::vector<ChartPoint> points;
  if (gpu_probe_) {
    // The probe's ceilings go on the roof of the GPU it ran on (matched by name), which joins
    // the chart if it is not the scenario's; an unknown device gets a roof of its own.
    const Gpu* measured = GpuProbeCatalogGpu();
    if (!measured || measured->id != rl.roof.id) {
      auto it = std::find_if(roofs.begin(), roofs.end(), [&](const Roof& x) { return measured && x.id == measured->id; });
      if (it == roofs.end()) {
        roofs.push_back(measured ? GpuRoof(catalog_, *measured) : Roof{"measured", gpu_probe_->device_name, {}, {}});
        it = roofs.end() - 1;
      }
      AddMeasuredCeilings(*it, *gpu_probe_);
    }
    points = MeasuredGemmPoints(*gpu_probe_);
  }
  if (cpu_probe_) {
    roofs.push_back(CpuRoof(*cpu_probe_));
    for (const ChartPoint& p : CpuGemmPoints(*cpu_probe_)) points.push_back(p);
  }
  for (const RoofOp& op : rl.ops)
    if (view_.ShowsPhase(op.phase))
      points.push_back({std::string(Tr(op.phase.c_str())) + ": " + op.name, op.intensity, op.attainable_flops_per_s,
                        PhaseColor(op.phase), false});
  chart_ = MakeRooflineChart(roofs, points, rl.precision);
  const Model* m = catalog_.FindModel(scenario_.model);
  chart_->title = TrF("Roofline: {0} on {1}", {m ? m->name : scenario_.model, rl.roof.label});
  return *chart_;
}

const std::vector<CompareRow>& Session::CompareAll() {
  if (!compare_) {
    const auto t0 = std::chrono::steady_clock::now();
    compare_ = CompareCatalog(catalog_, scenario_, Facts(scenario_.model), &Ceilings());
    compare_before_.clear();
    compare_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    compare_sorted_by_.clear();
  }
  if (compare_sorted_by_ != view_.sort) {  // sorted once per change, not every frame
    SortCompareRows(*compare_, view_.sort);
    compare_sorted_by_ = view_.sort;
  }
  return *compare_;
}

std::vector<CompareRow> Session::CompareShown(bool wait) {
  std::vector<CompareRow> rows;
  for (const CompareRow& r : wait || compare_ ? CompareAll() : compare_before_)
    if (PassesFilter(r, view_.filter)) rows.push_back(r);
  return rows;
}

}  // namespace gpuplan
