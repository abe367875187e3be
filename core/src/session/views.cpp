// core/src/views.cpp — the table of result views and what each prints (views.h).
//
// Index:
//   [SECTION] fit, speed, cost, compare, train, roofline: the scenario's views
//   [SECTION] machine, catalog: this machine's probes, the catalog list
//   [SECTION] capacity: what the GPU gives a workload, step by step
//   Views(): the table itself, at the end
#include "gpuplan/views.h"
#include "gpuplan/version.h"

#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "gpuplan/capacity.h"
#include "gpuplan/machine.h"
#include "gpuplan/plan.h"
#include "gpuplan/report.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

using ordered_json = nlohmann::ordered_json;

// The page state a report's numbers depend on: the scenario and the options the view reads
// (compare's sort and filters, roofline's overlays and phases; not the open panel), and the
// catalog's version (cat=: opened with another catalog, the link says so). The same from the
// CLI and the page.
std::string ReportState(const Session& session, std::string_view view_id) {
  const ViewOptions defaults;
  ViewOptions v = defaults;
  if (const View* view = FindView(view_id))
    for (const std::string& key : view->options)
      (void)SetViewField(v, key, GetViewField(session.view(), key), session.catalog());
  return EncodeState(session.scenario()) + EncodeViewOptions(v) + CatalogStatePair(session.catalog());
}

std::string ErrorJson(const std::string& error) { return ordered_json{{"error", error}}.dump(2); }

// "Llama 3.1 8B on 2 × NVIDIA H100 SXM5 80GB": the model and the GPUs a view runs it on.
std::string ModelOnGpus(const Catalog& cat, const Scenario& s, long long gpus) {
  const Gpu* g = cat.FindGpu(s.gpu);
  const Model* m = cat.FindModel(s.model);
  return TrF("{0} on {1} × {2}", {m ? m->name : s.model, std::to_string(gpus), g ? g->name : s.gpu});
}

std::string GpuLine(const Catalog& cat, const Scenario& s) { return ModelOnGpus(cat, s, s.Gpus()); }

// A bytes table (term, GiB, GB, how): the fit breakdown's shape.
Records BytesRecords(const char* first) {
  return Records{{{"term", first}, {"gib", "GiB", true}, {"gb", "GB", true}, {"formula", Tr("how")}}, {}};
}
void AddBytes(Records& r, const std::string& name, double bytes, const std::string& how) {
  r.rows.push_back({Text(name), Number(bytes / kGiB, FormatFixed(bytes / kGiB, 2)),
                    Number(bytes / kGB, FormatFixed(bytes / kGB, 2)), Text(how)});
}

// What bounds a step ("memory", "compute", "communication", "host memory"), in the reader's language.
std::string BoundWord(const std::string& bound) {
  for (const char* word : {N_("memory"), N_("compute"), N_("communication"), N_("host memory")})
    if (bound == word) return Tr(word);
  return bound;
}

Records StepRecords(const StepTime& t) {
  Records r{{{"term", Tr("term")}, {"seconds", Tr("time"), true}, {"formula", Tr("how")}}, {}};
  for (const TimeTerm& x : t.terms) r.rows.push_back({Text(x.name), Number(x.seconds, FormatSeconds(x.seconds)), Text(x.formula)});
  const char* bound = t.bound == "memory"          ? Tr("memory-bound")
                      : t.bound == "compute"       ? Tr("compute-bound")
                      : t.bound == "communication" ? Tr("communication-bound")
                      : t.bound == "host memory"   ? Tr("host memory-bound")
                                                   : nullptr;
  r.rows.push_back({Text(Tr("= step")), Number(t.seconds, FormatSeconds(t.seconds)),
                    Text(TrF("max(memory {0}, compute {1}) + serial {2}: {3}",
                             {FormatSeconds(t.memory_s), FormatSeconds(t.compute_s), FormatSeconds(t.serial_s),
                              bound ? std::string(bound) : t.bound + "-bound"}))});
  return r;
}

Records CostLineRecords(const CostEstimate& c) {
  Records r{{{"line", Tr("line")}, {"usd", MoneySymbol(c.money), true}, {"formula", Tr("how")}}, {}};
  for (const CostLine& l : c.lines) {
    const double v = l.usd * c.money.per_usd;
    r.rows.push_back({Text(l.name), Number(v, FormatFixed(v, c.money.code == "JPY" ? 2 : 4)), Text(l.formula)});
  }
  return r;
}

Records CurveRecords(const std::vector<CurvePoint>& points, const char* x) {
  Records r{{{x, Tr(x), true}, {"per_user", Tr("tok/s per user"), true}, {"total", Tr("tok/s in all"), true}, {"fits", Tr("fits")}}, {}};
  for (const CurvePoint& p : points)
    r.rows.push_back({Number(p.x, FormatCount(static_cast<long long>(p.x))), Number(p.per_user, FormatFixed(p.per_user, 1)),
                      Number(p.total, FormatFixed(p.total, 1)), Text(p.fits ? Tr("yes") : Tr("no: does not fit in memory"))});
  return r;
}

// A view whose estimate failed prints the reason alone.
Report ErrorReport(const std::string& title, const std::string& error) {
  Report r;
  r.title = title;
  r.warnings.push_back(error);
  return r;
}

// [SECTION] fit ---------------------------------------------------------------------------
Report FitReport(Session& session, const ReportOptions&) {
  const Catalog& cat = session.catalog();
  const Scenario& s = session.scenario();
  const Result<MemoryEstimate>& fit = session.Fit();
  if (!fit.ok()) return ErrorReport("gpuplan fit", fit.error());
  const MemoryEstimate& e = fit.value();
  const Gpu* g = cat.FindGpu(s.gpu);
  const WeightFormat* wf = cat.FindWeightFormat(s.weights);
  const KvFormat* kvf = cat.FindKvFormat(s.kv);
  const bool per = s.tp > 1;
  Report r;
  r.title = "gpuplan fit: " + GpuLine(cat, s) +
            (g ? " (" + FormatFixed(g->memory_quoted_value, 0) + " " + g->memory_quoted_unit + " " + g->memory_type + ")" : "");
  r.lines.push_back(
      TrF("weights {0}, KV cache {1}, context {2} tokens, batch {3}",
          {wf ? wf->name : s.weights, kvf ? kvf->name : s.kv, FormatCount(s.context), std::to_string(s.batch)}));
  Section main{"", FitRecords(e)};
  main.records.cols[0].title = per ? Tr("term per GPU") : Tr("term");
  r.sections.push_back(std::move(main));
  const std::string verdict =
      e.fits ? (per ? Tr("FITS per GPU") : Tr("FITS")) : (per ? Tr("DOES NOT FIT per GPU") : Tr("DOES NOT FIT"));
  r.verdict = e.fits ? 1 : -1;
  r.after.push_back(
      e.fits ? TrF("{0}: {1} of {2} usable ({3} free)",
                   {verdict, FormatBytes(e.total_bytes), FormatBytes(e.usable_bytes), FormatBytes(e.headroom_bytes)})
             : TrF("{0}: {1} of {2} usable (short by {3})",
                   {verdict, FormatBytes(e.total_bytes), FormatBytes(e.usable_bytes), FormatBytes(-e.headroom_bytes)}));
  r.after.push_back(
      TrF("KV cache per token (whole model): {0}", {FormatBytes(e.kv_bytes_per_token, ByteUnit::MiB, 3)}));
  r.after.push_back(
      e.context_window > 0 && e.max_context > e.context_window
          ? TrF("Max context at batch {0}: {1} tokens (memory limit; the model's window is {2})",
                {std::to_string(s.batch), FormatCount(e.max_context), FormatCount(e.context_window)})
          : TrF("Max context at batch {0}: {1} tokens", {std::to_string(s.batch), FormatCount(e.max_context)}));
  r.after.push_back(TrF("Max batch at {0} tokens: {1} sequences", {FormatCount(s.context), FormatCount(e.max_batch)}));
  if (e.host_bytes > 0) {
    const Model* m = cat.FindModel(s.model);
    r.after.push_back(
        TrF("Host RAM for offloaded layers: {0} ({1} of {2} layers on the GPUs)",
            {FormatBytes(e.host_bytes), std::to_string(e.layers_on_gpu), std::to_string(m ? m->layers : 0)}));
  }
  if (e.band.cases > 0)
    r.after.push_back(
        TrF("Error band: real engines used {0}%–{1}% of this total on {2} reference cases",
            {FormatFixed(e.band.lo * 100, 0), FormatFixed(e.band.hi * 100, 0), std::to_string(e.band.cases)}));
  r.warnings = e.warnings;
  r.assumptions = e.assumptions;
  r.state = ReportState(session, "fit");
  return r;
}

std::string FitJson(Session& session, const ReportOptions&) {
  const Result<MemoryEstimate>& fit = session.Fit();
  if (!fit.ok()) return ErrorJson(fit.error());
  return FitReportJson(session.catalog(), session.scenario(), fit.value(), 2, ReportState(session, "fit"));
}

// [SECTION] speed -------------------------------------------------------------------------
Report SpeedReport(Session& session, const ReportOptions& o) {
  const Catalog& cat = session.catalog();
  const Scenario& s = session.scenario();
  const Result<SpeedEstimate>& speed = session.Speed();
  if (!speed.ok()) return ErrorReport("gpuplan speed", speed.error());
  const SpeedEstimate& e = speed.value();
  const CostEstimate& c = session.Cost().value();
  const bool fits = session.Fit().value().fits;
  const WeightFormat* wf = cat.FindWeightFormat(s.weights);
  const EngineProfile* engine = cat.FindEngine(s.engine);
  Report r;
  r.title = "gpuplan speed: " + TrF("{0}, {1} weights, {2}", {GpuLine(cat, s), wf ? wf->name : s.weights,
                                                               engine ? engine->name : s.engine}) +
            (session.use_measured() ? Tr(" (measured efficiencies)") : "");
  r.lines.push_back(TrF("prompt {0} tokens, context {1} tokens, batch {2}",
                        {FormatCount(s.prompt), FormatCount(s.context), std::to_string(s.batch)}) +
                    (fits ? "" : Tr("  (DOES NOT FIT in memory: see gpuplan fit)")));
  r.sections.push_back({"", SpeedRecords(e)});
  if (!e.decode_band.basis.empty()) r.lines.push_back(TrF("decode band {0}", {e.decode_band.basis}));
  if (!e.prefill_band.basis.empty()) r.lines.push_back(TrF("prefill/TTFT band {0}", {e.prefill_band.basis}));
  const std::string sym = MoneySymbol(c.money);
  Records per_m{{{"option", Tr("option")},
                 {"per_m_output", TrF("{0}/1M output", {sym}), true},
                 {"per_m_input", TrF("{0}/1M input", {sym}), true},
                 {"basis", Tr("basis")}},
                {}};
  // FormatMoney: thousands separated ("$346,435", it printed "$346434.779"), 3 decimals below 1,000.
  auto usd = [&](double v) { return v > 0 ? Number(v * c.money.per_usd, FormatMoney(v, c.money, 3)) : Unknown(); };
  if (c.cloud_per_m_output > 0)
    per_m.rows.push_back({Text(Tr("cloud")), usd(c.cloud_per_m_output), usd(c.cloud_per_m_input), Text(c.cloud_basis)});
  if (c.owned_per_m_output > 0)
    per_m.rows.push_back({Text(Tr("owned")), usd(c.owned_per_m_output), usd(c.owned_per_m_input), Text(c.purchase_basis)});
  if (!per_m.rows.empty()) r.sections.push_back({Tr("cost per 1M tokens"), std::move(per_m)});
  if (o.explain) {
    r.sections.push_back(
        {TrF("Decode step — {0} ({1}-bound)", {FormatSeconds(e.decode.seconds), BoundWord(e.decode.bound)}),
         StepRecords(e.decode)});
    r.sections.push_back(
        {TrF("Prefill of the batch — {0} ({1}-bound)", {FormatSeconds(e.prefill.seconds), BoundWord(e.prefill.bound)}),
         StepRecords(e.prefill)});
    r.sections.push_back({Tr("Cost lines"), CostLineRecords(c)});
    if (o.curve_tables) {
      const SpeedCurves& curves = session.Curves();
      r.sections.push_back({Tr("Tokens/s against batch"), CurveRecords(curves.batch, N_("batch"))});
      r.sections.push_back({Tr("Tokens/s per user against context"), CurveRecords(curves.context, N_("context"))});
    }
    r.after.push_back(TrF("peak {0} {1} TFLOP/s, bandwidth {2} GB/s",
                          {e.compute_precision, FormatFixed(e.peak_flops / 1e12, 1), FormatFixed(e.bandwidth / 1e9, 0)}) +
                      (e.link_name.empty() ? "" : TrF(", link {0}", {e.link_name})));
  }
  r.warnings = e.warnings;
  r.notes = c.warnings;
  r.assumptions = e.assumptions;
  if (o.explain) r.assumptions.insert(r.assumptions.end(), c.assumptions.begin(), c.assumptions.end());
  r.state = ReportState(session, "speed");
  return r;
}

std::string SpeedJson(Session& session, const ReportOptions&) {
  const Result<SpeedEstimate>& speed = session.Speed();
  if (!session.Fit().ok()) return ErrorJson(session.Fit().error());
  if (!speed.ok()) return ErrorJson(speed.error());
  return SpeedReportJson(session.catalog(), session.scenario(), session.Fit().value(), speed.value(),
                         session.Cost().value(), &session.Curves(), 2, ReportState(session, "speed"));
}

// [SECTION] serve -------------------------------------------------------------------------
// The workload in words: "500 requests, Poisson at 4/s, ShareGPT-like chat lengths".
std::string WorkloadLine(const ViewOptions& v) {
  const WorkloadPreset* p = FindWorkloadPreset(v.lengths);
  return TrF("{0} requests, {1}, {2}",
             {FormatCount(v.requests),
              v.rate > 0       ? TrF("Poisson arrivals at {0}/s", {FormatShort(v.rate)})
              : v.clients == 1 ? TrF("a closed loop of {0} client", {FormatCount(v.clients)})
                               : TrF("a closed loop of {0} clients", {FormatCount(v.clients)}),
              p ? std::string(Tr(p->name)) : TrF("{0} tokens in/out", {v.lengths})});
}

Records LatencyRecords(const ServeResult& r) {
  Records t{{{"metric", Tr("latency")},
             {"mean_ms", Tr("mean ms"), true},
             {"p50_ms", "p50 ms", true},
             {"p90_ms", "p90 ms", true},
             {"p99_ms", "p99 ms", true}},
            {}};
  auto row = [&](const char* name, const Percentiles& p) {
    auto ms = [](double s) { return Number(s * 1000, FormatShort(s * 1000, 1)); };
    t.rows.push_back({Text(Tr(name)), ms(p.mean), ms(p.p50), ms(p.p90), ms(p.p99)});
  };
  row(N_("TTFT (time to first token)"), r.ttft_s);
  row(N_("TPOT (per output token)"), r.tpot_s);
  row(N_("ITL (between tokens)"), r.itl_s);
  row(N_("end to end"), r.e2e_s);
  row(N_("queue (arrival to admission)"), r.queue_s);
  return t;
}

Records LoadCurveRecords(const LoadCurve& c) {
  Records t{{{"rate", Tr("requests/s"), true},
             {"load", Tr("of capacity"), true},
             {"ttft_p90_ms", "TTFT p90 ms", true},
             {"tpot_p50_ms", "TPOT p50 ms", true},
             {"tpot_p90_ms", "TPOT p90 ms", true},
             {"output_tokens_per_s", Tr("output tok/s"), true},
             {"note", Tr("note")}},
            {}};
  for (size_t i = 0; i < c.points.size(); ++i) {
    const LoadPoint& p = c.points[i];
    auto ms = [](double s) { return Number(s * 1000, FormatShort(s * 1000, 1)); };
    t.rows.push_back({Number(p.rate_rps, FormatShort(p.rate_rps, 2)),
                      Number(kLoadFractions[i], FormatFixed(kLoadFractions[i] * 100, 0) + " %"), ms(p.ttft_s.p90),
                      ms(p.tpot_s.p50), ms(p.tpot_s.p90),
                      Number(p.output_tokens_per_s, FormatFixed(p.output_tokens_per_s, 0)),
                      Text(p.saturated                     ? Tr("saturated")
                           : static_cast<int>(i) == c.knee ? Tr("knee")
                                                           : "")});
  }
  return t;
}

// "how sure: ..." from the engine's serving bands (the published results' spread around the
// simulator's figures), or empty where none are stored.
std::string ServeBandLine(const ServeEstimate& e) {
  if (e.band_throughput.cases == 0) return {};
  auto x = [](const Band& b) { return FormatShort(b.lo, 2) + "-" + FormatShort(b.hi, 2) + "x"; };
  return TrF(
      "how sure: published runs measured {0} this throughput, {1} its TTFT, {2} its TPOT/ITL, {3} its "
      "end-to-end latency (p10-p90 of measured / simulated on published serving runs: gpuplan calibrate "
      "--serving)",
      {x(e.band_throughput), x(e.band_ttft), x(e.band_tpot), x(e.band_e2e)});
}

Report ServeReport(Session& session, const ReportOptions& o) {
  const Catalog& cat = session.catalog();
  const Scenario& s = session.scenario();
  const Result<ServeEstimate>& serve = session.Serve();
  if (!serve.ok()) return ErrorReport("gpuplan serve", serve.error());
  const ServeEstimate& e = serve.value();
  const ServeResult& r = e.result;
  const ViewOptions& v = session.view();
  const WeightFormat* wf = cat.FindWeightFormat(s.weights);
  const EngineProfile* engine = cat.FindEngine(s.engine);
  Report rep;
  rep.title = TrF("gpuplan serve: {0}, {1} weights, {2}",
                  {GpuLine(cat, s), wf ? wf->name : s.weights, engine ? engine->name : s.engine});
  rep.lines.push_back(TrF("{0} (longest {1} tokens)", {WorkloadLine(v), FormatCount(e.max_model_len)}));
  rep.lines.push_back(
      TrF("scheduler: up to {0} sequences and {1} tokens per step, KV blocks of {2} tokens, {3}",
          {FormatCount(r.max_num_seqs), FormatCount(r.max_batched_tokens), std::to_string(r.block_tokens),
           r.chunked_prefill ? Tr("prompts chunked") : Tr("each prompt in one step")}));
  rep.lines.push_back(TrF("KV pool: {0} blocks = {1} tokens: {2} requests of the mean length at once",
                          {FormatCount(r.kv_blocks), FormatCount(static_cast<long long>(r.kv_capacity_tokens)),
                           FormatCount(r.kv_limited_concurrency)}));
  Records t{{{"metric", Tr("throughput")}, {"value", Tr("value"), true}, {"unit", Tr("unit")}}, {}};
  auto add = [&](const char* name, double value, const char* unit, int decimals) {
    t.rows.push_back({Text(Tr(name)), Number(value, FormatFixed(value, decimals)), Text(Tr(unit))});
  };
  add(N_("requests"), r.request_throughput, N_("requests/s"), 2);
  add(N_("output tokens"), r.output_tokens_per_s, "tokens/s", 0);
  add(N_("all tokens (prompt + output)"), r.total_tokens_per_s, "tokens/s", 0);
  if (v.ttft_sla > 0 || v.tpot_sla > 0) add(N_("goodput (within the SLA)"), r.goodput_rps, N_("requests/s"), 2);
  add(N_("sequences per step, mean"), r.mean_running, N_("sequences"), 1);
  add(N_("sequences per step, peak"), r.peak_running, N_("sequences"), 0);
  add(N_("KV pool used, peak"), r.peak_kv_used * 100, "%", 0);
  add(N_("preemptions"), r.preemptions, N_("requests"), 0);
  add(N_("run length"), r.duration_s, "s", 1);
  rep.sections.push_back({Tr("Throughput"), std::move(t)});
  rep.sections.push_back({Tr("Latency"), LatencyRecords(r)});
  rep.main = 1;
  if (const std::string sure = ServeBandLine(e); !sure.empty()) rep.lines.push_back(sure);
  if (v.rate > 0) {
    // The capacity (the load curve's first point: a closed loop of a full batch) tells how near
    // its limit the run is; computed once per change, like the run.
    if (session.ServeCurve().capacity_rps <= 0 && !session.ServeCurve().done) (void)session.ServeCurveStep();
    if (const std::string w = LoadWarning(e, v.rate, session.ServeCurve().capacity_rps); !w.empty())
      rep.warnings.push_back(w);
  }
  if (o.explain) {
    while (session.ServeCurveStep()) {
    }
    rep.sections.push_back({Tr("Latency against load"), LoadCurveRecords(session.ServeCurve())});
    Records series{{{"t_s", Tr("time s"), true},
                    {"running", Tr("running"), true},
                    {"waiting", Tr("waiting"), true},
                    {"kv_used", Tr("KV used %"), true}},
                   {}};
    for (const ServePoint& p : r.series)
      series.rows.push_back({Number(p.t_s, FormatShort(p.t_s, 2)), Number(p.running, FormatCount(p.running)),
                             Number(p.waiting, FormatCount(p.waiting)),
                             Number(p.kv_used * 100, FormatFixed(p.kv_used * 100, 0))});
    rep.sections.push_back({Tr("Batch and KV use over time"), std::move(series)});
  }
  if (v.ttft_sla > 0 || v.tpot_sla > 0)
    rep.after.push_back(TrF("{0} of {1} requests within the SLA ({2})",
                            {FormatCount(r.met_sla), FormatCount(r.requests),
                             (v.ttft_sla > 0 ? "TTFT <= " + FormatSeconds(v.ttft_sla) : std::string()) +
                                 (v.ttft_sla > 0 && v.tpot_sla > 0 ? ", " : "") +
                                 (v.tpot_sla > 0 ? "TPOT <= " + FormatSeconds(v.tpot_sla) : std::string())}));
  if (r.saturated && e.has_capacity)
    rep.after.push_back(
        TrF("SATURATED: {0} requests/s arrive; the setup serves about {1} requests/s ({2} output "
            "tokens/s) at most; {3} requests were waiting when the last one arrived",
            {FormatShort(v.rate), FormatFixed(e.capacity.request_throughput, 2),
             FormatFixed(e.capacity.output_tokens_per_s, 0), FormatCount(r.queue_at_last_arrival)}));
  if (const Result<LaunchPlan>& launch = session.Launch(); launch.ok()) {
    Records flags{{{"flag", Tr("flag")}, {"value", Tr("value")}, {"why", Tr("why")}}, {}};
    for (const LaunchFlag& f : launch->flags) flags.rows.push_back({Text(f.flag), Text(f.value), Text(f.why)});
    rep.sections.push_back({TrF("Launch ({0})", {launch->releases}), std::move(flags)});
    rep.after.push_back(TrF("launch: {0}", {launch->Command()}));
    if (!launch->config_text.empty()) rep.after.push_back(launch->config_file + ":\n" + launch->config_text);
    rep.notes = launch->notes;
  } else {
    rep.notes.push_back(TrF("no launch command: {0}", {launch.error()}));
  }
  rep.warnings.insert(rep.warnings.begin(), e.warnings.begin(), e.warnings.end());
  rep.assumptions = e.assumptions;
  rep.state = ReportState(session, "serve");
  return rep;
}

std::string ServeJson(Session& session, const ReportOptions&) {
  const Result<ServeEstimate>& serve = session.Serve();
  if (!serve.ok()) return ErrorJson(serve.error());
  const ServeEstimate& e = serve.value();
  auto result = [](const ServeResult& r) {
    auto pct = [](const Percentiles& p) {
      return ordered_json{{"mean", p.mean}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}};
    };
    ordered_json series = ordered_json::array();
    for (const ServePoint& p : r.series)
      series.push_back({{"t_s", p.t_s}, {"running", p.running}, {"waiting", p.waiting}, {"kv_used", p.kv_used}});
    return ordered_json{{"requests", r.requests},
                        {"duration_s", r.duration_s},
                        {"request_throughput", r.request_throughput},
                        {"output_tokens_per_s", r.output_tokens_per_s},
                        {"total_tokens_per_s", r.total_tokens_per_s},
                        {"ttft_s", pct(r.ttft_s)},
                        {"tpot_s", pct(r.tpot_s)},
                        {"itl_s", pct(r.itl_s)},
                        {"e2e_s", pct(r.e2e_s)},
                        {"queue_s", pct(r.queue_s)},
                        {"met_sla", r.met_sla},
                        {"goodput_rps", r.goodput_rps},
                        {"kv_blocks", r.kv_blocks},
                        {"block_tokens", r.block_tokens},
                        {"kv_capacity_tokens", r.kv_capacity_tokens},
                        {"kv_limited_concurrency", r.kv_limited_concurrency},
                        {"max_num_seqs", r.max_num_seqs},
                        {"max_batched_tokens", r.max_batched_tokens},
                        {"chunked_prefill", r.chunked_prefill},
                        {"mean_running", r.mean_running},
                        {"peak_running", r.peak_running},
                        {"peak_kv_used", r.peak_kv_used},
                        {"preemptions", r.preemptions},
                        {"steps", r.steps},
                        {"prefix_hits", r.prefix_hits},
                        {"saturated", r.saturated},
                        {"queue_at_last_arrival", r.queue_at_last_arrival},
                        {"series", series}};
  };
  ordered_json j;
  j["schema"] = "gpuplan.serve/1";
  j["state"] = ReportState(session, "serve");
  const ViewOptions& v = session.view();
  j["workload"] = {{"requests", v.requests}, {"rate", v.rate},           {"clients", v.clients},
                   {"lengths", v.lengths},   {"ttft_sla_s", v.ttft_sla}, {"tpot_sla_s", v.tpot_sla}};
  j["max_model_len"] = e.max_model_len;
  j["result"] = result(e.result);
  if (e.has_capacity) j["capacity"] = result(e.capacity);
  if (e.band_throughput.cases > 0) {
    auto band = [](const Band& b) {
      return ordered_json{{"lo", b.lo}, {"hi", b.hi}, {"cases", b.cases}, {"basis", b.basis}};
    };
    j["bands"] = {{"throughput", band(e.band_throughput)},
                  {"ttft", band(e.band_ttft)},
                  {"tpot", band(e.band_tpot)},
                  {"e2e", band(e.band_e2e)},
                  {"meaning", "measured / simulated on published serving runs, p10-p90"}};
  }
  while (session.ServeCurveStep()) {
  }
  const LoadCurve& curve = session.ServeCurve();
  ordered_json points = ordered_json::array();
  for (const LoadPoint& p : curve.points)
    points.push_back({{"rate", p.rate_rps},
                      {"ttft_p90_s", p.ttft_s.p90},
                      {"tpot_p50_s", p.tpot_s.p50},
                      {"tpot_p90_s", p.tpot_s.p90},
                      {"output_tokens_per_s", p.output_tokens_per_s},
                      {"saturated", p.saturated}});
  j["load_curve"] = {{"capacity_rps", curve.capacity_rps}, {"knee", curve.knee}, {"points", points}};
  if (const Result<LaunchPlan>& launch = session.Launch(); launch.ok()) {
    ordered_json flags = ordered_json::array();
    for (const LaunchFlag& f : launch->flags) flags.push_back({{"flag", f.flag}, {"value", f.value}, {"why", f.why}});
    j["launch"] = {
        {"engine", launch->engine}, {"releases", launch->releases},       {"command", launch->Command()},
        {"flags", flags},           {"config_file", launch->config_file}, {"config_text", launch->config_text},
        {"notes", launch->notes}};
  } else {
    j["launch"] = {{"error", launch.error()}};
  }
  j["warnings"] = e.warnings;
  j["assumptions"] = e.assumptions;
  return j.dump(2);
}

std::string ServeFailure(Session& s) {
  return s.Serve().ok() ? std::string() : s.Serve().error();
}

// [SECTION] plan --------------------------------------------------------------------------
// The inverse search (plan.h) for the scenario's model and the view's workload and SLA: the GPU,
// engine, format and layout are what it searches, so the scenario's own are not read.
Report PlanViewReport(Session& session, const ReportOptions&) {
  const PlanSearch& p = session.Plan();
  if (!p.result()) return ErrorReport("gpuplan plan", p.result().error());
  Report r = PlanReport(session.catalog(), p.query(), *p.result());
  r.state = ReportState(session, "plan");
  return r;
}

std::string PlanViewJson(Session& session, const ReportOptions&) {
  const PlanSearch& p = session.Plan();
  if (!p.result()) return ErrorJson(p.result().error());
  return PlanJson(session.catalog(), p.query(), *p.result(), ReportState(session, "plan"));
}

std::string PlanFailure(Session& s) {
  return s.Plan().result().ok() ? std::string() : s.Plan().result().error();
}

// [SECTION] cost --------------------------------------------------------------------------
Report CostReport(Session& session, const ReportOptions& o) {
  const Catalog& cat = session.catalog();
  const Scenario& s = session.scenario();
  const Result<CostEstimate>& cost = session.Cost();
  if (!cost.ok()) return ErrorReport("gpuplan cost", cost.error());
  const CostEstimate& c = cost.value();
  const SpeedEstimate& e = session.Speed().value();
  const Gpu* g = cat.FindGpu(s.gpu);
  const Model* m = cat.FindModel(s.model);
  Report r;
  r.title =
      "gpuplan cost: " + TrF("{0} × {1} serving {2}; {3} busy hours a month ({4}%)",
                             {std::to_string(s.Gpus()), g ? g->name : s.gpu, m ? m->name : s.model,
                              FormatCount(std::llround(c.busy_hours_month)), FormatFixed(s.utilization * 100, 0)});
  r.lines.push_back(
      TrF("at {0} output tokens/s in all, {1} prefill tokens/s",
          {FormatFixed(e.tokens_per_s_total, 1),
           e.unknown.count("prefill_tokens_per_s") ? Tr("unknown") : FormatFixed(e.prefill_tokens_per_s, 0)}) +
      (session.Fit().value().fits ? "" : Tr("  (DOES NOT FIT in memory: see gpuplan fit)")));
  if (!c.money.basis.empty()) r.lines.push_back(TrF("money in {0}: {1}", {c.money.code, c.money.basis}));
  r.sections.push_back({"", CostRecords(s, c)});
  if (c.break_even_months > 0)
    r.after.push_back(
        c.break_even_spot_months > 0
            ? TrF("Buying pays off after {0} months against on demand, {1} against spot.",
                  {FormatFixed(c.break_even_months, 1), FormatFixed(c.break_even_spot_months, 1)})
            : TrF("Buying pays off after {0} months against on demand.", {FormatFixed(c.break_even_months, 1)}));
  else if (c.purchase_gpu > 0 && c.cloud_hour > 0)
    r.after.push_back(Tr("Buying never pays off: energy alone costs as much as renting."));
  if (c.spot_discount > 0)
    r.after.push_back(TrF("Spot saves {0}% after the {1}% interruption overhead.",
                          {FormatFixed(c.spot_discount * 100, 0), FormatFixed(s.spot_overhead * 100, 0)}));
  if (!c.rack.cooling.empty()) {
    // The rack: the three coolings side by side (the seeds' air-or-liquid question), the chosen first.
    const RackPlan& k = c.rack;
    const std::string sym = MoneySymbol(c.money);
    Records racks{{{"cooling", Tr("cooling")},
                   {"rack_kw", Tr("kW a rack"), true},
                   {"servers_per_rack", Tr("servers a rack"), true},
                   {"racks", Tr("racks"), true},
                   {"pue", "PUE", true},
                   {"facility_kw", Tr("facility kW"), true},
                   {"energy_month", TrF("energy {0}/month", {sym}), true}},
                  {}};
    for (const RackOption& opt : k.options)
      racks.rows.push_back(
          {Text(opt.cooling == k.cooling ? opt.cooling + " *" : opt.cooling),
           Number(opt.rack_limit_w / 1000, FormatFixed(opt.rack_limit_w / 1000, 0)),
           opt.servers_per_rack > 0
               ? Number(static_cast<double>(opt.servers_per_rack), std::to_string(opt.servers_per_rack))
               : Unknown(),
           opt.racks > 0 ? Number(static_cast<double>(opt.racks), std::to_string(opt.racks)) : Unknown(),
           Number(opt.pue, FormatFixed(opt.pue, 2)),
           Number(opt.facility_w / 1000, FormatFixed(opt.facility_w / 1000, 1)),
           Number(opt.energy_usd_month * c.money.per_usd, FormatMoney(opt.energy_usd_month, c.money, 0))});
    r.sections.push_back({TrF("Rack: {0} servers of {1} GPUs ({2}), {3} kW each",
                              {std::to_string(k.servers), std::to_string(k.gpus_per_server), Tr(k.platform.c_str()),
                               FormatFixed(k.server_w / 1000, 2)}),
                          std::move(racks)});
    if (k.chosen.racks > 0)
      r.after.push_back(TrF("Rack ({0}): {1} servers a rack, {2} racks, the fullest drawing {3} kW of {4} kW.",
                            {k.cooling, std::to_string(k.chosen.servers_per_rack), std::to_string(k.chosen.racks),
                             FormatFixed(k.rack_w / 1000, 1), FormatFixed(k.chosen.rack_limit_w / 1000, 0)}));
    const RackOption& air = k.options[0];
    const RackOption& liquid = k.options[2];
    if (k.liquid_saving_usd_month > 0)
      r.after.push_back(
          TrF("Liquid against air: PUE {0} instead of {1} saves {2} a month of energy; it pays for itself if it "
              "costs less than {3} more per kW of IT load over {4} years.",
              {FormatFixed(liquid.pue, 2), FormatFixed(air.pue, 2), FormatMoney(k.liquid_saving_usd_month, c.money, 0),
               FormatMoney(k.liquid_break_even_usd_per_kw, c.money, 0), FormatFixed(s.years, 1)}));
    if (air.servers_per_rack == 0)
      r.after.push_back(TrF("Air cannot hold this server: at {0} kW it is over the {1} kW of an air-cooled rack.",
                            {FormatFixed(k.server_w / 1000, 1), FormatFixed(air.rack_limit_w / 1000, 0)}));
    if (k.throttle > 0)
      r.after.push_back(TrF("Thermal throttling: owned tokens cost {0}% more in this dense air-cooled rack (throttle).",
                            {FormatFixed(100 / (1 - k.throttle) - 100, 0)}));
  }
  if (o.explain) {
    r.sections.push_back({Tr("Cost lines"), CostLineRecords(c)});
    const std::string sym = MoneySymbol(c.money);
    Records months{{{"month", Tr("month"), true},
                    {"cloud_usd", TrF("on demand {0}", {sym}), true},
                    {"spot_usd", TrF("spot {0}", {sym}), true},
                    {"owned_usd", TrF("owned {0}", {sym}), true}},
                   {}};
    auto at = [&](const std::vector<double>& v, size_t i) {
      const double x = i < v.size() ? v[i] * c.money.per_usd : 0;
      return i < v.size() ? Number(x, FormatCount(std::llround(x))) : Unknown();
    };
    for (size_t i = 0; i < c.months.size(); i += 6)
      months.rows.push_back({Number(c.months[i], FormatFixed(c.months[i], 1)), at(c.cloud_total, i), at(c.spot_total, i),
                             at(c.owned_total, i)});
    r.sections.push_back({Tr("Cumulative cost by month"), std::move(months)});
  }
  r.notes = c.warnings;
  r.assumptions = c.assumptions;
  r.state = ReportState(session, "cost");
  return r;
}

std::string CostJson(Session& session, const ReportOptions&) {
  if (!session.Fit().ok()) return ErrorJson(session.Fit().error());
  const Result<CostEstimate>& cost = session.Cost();
  if (!cost.ok()) return ErrorJson(cost.error());
  return CostReportJson(session.scenario(), session.Speed().value(), cost.value(), 2, ReportState(session, "cost"));
}

// [SECTION] compare -----------------------------------------------------------------------
std::string GpusThatFit(size_t n) {
  return n == 1 ? std::string(Tr("1 GPU that fits")) : TrF("{0} GPUs that fit", {FormatCount(static_cast<int64_t>(n))});
}

Report CompareReport(Session& session, const ReportOptions&) {
  const Result<MemoryEstimate>& fit = session.Fit();  // a bad model or format is one clear error
  if (!fit.ok()) return ErrorReport("gpuplan compare", fit.error());
  const std::vector<CompareRow> rows = session.CompareShown();
  const Model* m = session.catalog().FindModel(session.scenario().model);
  Report r;
  r.title = "gpuplan compare: " +
            TrF("{0}, {1} of {2} shown, sorted by {3}",
                {m ? m->name : session.scenario().model, std::to_string(rows.size()),
                 FormatCountOf(static_cast<int64_t>(session.CompareAll().size()), "GPU", "GPUs"), session.view().sort});
  r.sections.push_back({"", CompareRecords(rows)});
  // Why the cost columns are empty where they are: the catalog's prices, not a failure.
  size_t no_offer = 0, no_price = 0;
  for (const CompareRow& x : rows)
    if (x.fits) no_offer += x.unknown.count("cloud_per_m_output"), no_price += x.unknown.count("owned_per_m_output");
  const std::string sym = rows.empty() ? std::string("$") : MoneySymbol(rows.front().money);
  if (no_offer)
    r.notes.push_back(
        TrF("{0}/1M rented is empty for {1}: the catalog has no cloud offer (--price-hour sets one for --gpu)",
            {sym, GpusThatFit(no_offer)}));
  if (no_price)
    r.notes.push_back(
        TrF("{0}/1M owned is empty for {1}: the catalog has no purchase price (--buy-usd sets one for --gpu)",
            {sym, GpusThatFit(no_price)}));
  // A budget cannot be checked without a price: name the GPUs it leaves out for that reason.
  const CompareFilter& f = session.view().filter;
  if (f.max_upfront > 0 || f.max_month > 0) {
    std::vector<std::string> unpriced;
    for (const CompareRow& x : session.CompareAll())
      if (x.fits && ((f.max_upfront > 0 && !(x.upfront_usd > 0)) || (f.max_month > 0 && !(x.cloud_month_usd > 0))))
        unpriced.push_back(x.gpu);
    if (!unpriced.empty()) {
      std::string names;
      for (size_t i = 0; i < unpriced.size() && i < 8; ++i) names += (i ? ", " : "") + unpriced[i];
      if (unpriced.size() > 8) names += TrF(" and {0} more", {std::to_string(unpriced.size() - 8)});
      const std::string n = GpusThatFit(unpriced.size());
      r.notes.push_back(
          f.max_upfront > 0
              ? (unpriced.size() == 1
                     ? TrF("the budget leaves out {0} but has no purchase price in the catalog: {1}", {n, names})
                     : TrF("the budget leaves out {0} but have no purchase price in the catalog: {1}", {n, names}))
              : (unpriced.size() == 1
                     ? TrF("the budget leaves out {0} but has no cloud offer in the catalog: {1}", {n, names})
                     : TrF("the budget leaves out {0} but have no cloud offer in the catalog: {1}", {n, names})));
    }
  }
  r.state = ReportState(session, "compare");
  return r;
}

std::string CompareJson(Session& session, const ReportOptions&) {
  const Result<MemoryEstimate>& fit = session.Fit();
  if (!fit.ok()) return ErrorJson(fit.error());
  return CompareReportJson(session.scenario(), session.CompareShown(), 2, ReportState(session, "compare"));
}

// [SECTION] train -------------------------------------------------------------------------
Report TrainReport(Session& session, const ReportOptions& o) {
  const Catalog& cat = session.catalog();
  const Scenario& s = session.scenario();
  const Result<TrainEstimate>& train = session.Train();
  if (!train.ok()) return ErrorReport("gpuplan train", train.error());
  const TrainEstimate& e = train.value();
  const Model* m = cat.FindModel(s.model);
  const Gpu* g = cat.FindGpu(s.gpu);
  Report r;
  r.title =
      "gpuplan train: " + TrF("{0} ({1}), {2} = {3} TP × {4} PP × {5} DP of {6}",
                              {m ? m->name : s.model, s.method, FormatCountOf(e.gpus, "GPU", "GPUs"),
                               std::to_string(s.tp), std::to_string(s.pp), std::to_string(s.dp), g ? g->name : s.gpu});
  r.lines.push_back(TrF("optimizer {0}, ZeRO-{1}, sequence {2} tokens, micro-batch {3}, recompute {4}, {5} attention",
                        {s.optimizer, std::to_string(s.zero), FormatCount(s.context), std::to_string(s.micro_batch),
                         s.recompute, s.flash ? "flash/SDPA" : "eager"}));
  // The recipe's memory switches, where set.
  std::string recipe = s.master
                           ? TrF("cross-entropy {0}, {1} mixed precision, {2} kernels", {s.ce, s.precision, s.kernels})
                           : TrF("cross-entropy {0}, {1} (pure), {2} kernels", {s.ce, s.precision, s.kernels});
  if (s.kbit_prep) recipe += Tr(", k-bit preparation (FP32 tables)");
  if (s.act_offload) recipe += Tr(", activations offloaded");
  if (s.paged) recipe += Tr(", paged optimizer");
  if (s.opt_in_bwd) recipe += Tr(", optimizer in backward");
  if (s.offload) recipe += s.offload >= 2 ? Tr(", parameters and states on the CPU") : Tr(", states on the CPU");
  if (s.train_embed) recipe += Tr(", embeddings trained");
  if (s.cp > 1) recipe += TrF(", context parallel {0}", {std::to_string(s.cp)});
  r.lines.push_back(TrF("recipe: {0}", {recipe}));
  Records memory = BytesRecords(Tr("memory per GPU"));
  for (const Term& t : e.terms) AddBytes(memory, t.name, t.bytes, t.formula);
  AddBytes(memory, Tr("Total"), e.total_bytes, TrainPeakHow(e));
  for (const Term& p : e.phases) AddBytes(memory, "  " + TrF("at {0}", {p.name}), p.bytes, p.formula);
  for (const CapacityRow& c : CapacityRows(e.device)) AddBytes(memory, c.name, c.bytes, c.how);
  r.sections.push_back({"", std::move(memory)});
  // Time and cost: the rows of the csv after the memory terms (which the table above shows).
  Records all = TrainRecords(cat, s, e);
  Records time = all;
  time.rows.erase(time.rows.begin(), time.rows.begin() + static_cast<long>(std::min(all.rows.size(), e.terms.size() + 1)));
  r.sections.push_back({"", std::move(time)});
  r.sections.push_back({"", std::move(all), false});
  r.main = 2;
  r.after.push_back(TrF("{0}: {1} of {2}; the largest micro-batch that fits: {3}",
                        {e.fits ? Tr("FITS") : Tr("DOES NOT FIT"), FormatBytes(e.total_bytes),
                         FormatBytes(e.capacity_bytes), FormatCount(e.max_micro_batch)}));
  r.verdict = e.fits ? 1 : -1;
  for (const std::string& x : e.suggestions) r.after.push_back(TrF("try: {0}", {x}));
  if (e.host_bytes > 0)
    r.after.push_back(TrF("CPU memory for offloaded states: {0} per GPU", {FormatBytes(e.host_bytes)}));
  if (o.target_days > 0 && !e.unknown.count("seconds")) {
    const double need = MfuForDays(e, o.target_days);
    r.after.push_back((e.gpus == 1
                           ? TrF("To finish in {0} days on this GPU: MFU {1}%",
                                 {FormatShort(o.target_days, 3), FormatFixed(need * 100, 0)})
                           : TrF("To finish in {0} days on these {1} GPUs: MFU {2}%",
                                 {FormatShort(o.target_days, 3), FormatCount(e.gpus), FormatFixed(need * 100, 0)})) +
                      (need > 1 ? Tr(" — impossible: above 100% of the dense peak; add GPUs") : ""));
  }
  if (o.explain) {
    Records scaling{{{"gpus", "GPUs", true},
                     {"tokens_per_s", "tokens/s", true},
                     {"efficiency", Tr("efficiency %"), true},
                     {"days", Tr("days"), true}},
                    {}};
    for (const ScalingPoint& p : session.Scaling())
      scaling.rows.push_back({Number(p.gpus, std::to_string(p.gpus)),
                              Number(p.tokens_per_s, FormatCount(static_cast<long long>(p.tokens_per_s))),
                              Number(p.efficiency * 100, FormatFixed(p.efficiency * 100, 1)), Number(p.days, FormatFixed(p.days, 2))});
    r.sections.push_back(
        {TrF("Scaling with data-parallel GPUs at a global batch of {0} sequences",
             {FormatCount(static_cast<long long>(e.global_batch_tokens / static_cast<double>(s.context)))}),
         std::move(scaling)});
  }
  r.warnings = e.warnings;
  r.assumptions = e.assumptions;
  r.state = ReportState(session, "train");
  return r;
}

std::string TrainJson(Session& session, const ReportOptions& o) {
  const Result<TrainEstimate>& train = session.Train();
  if (!train.ok()) return ErrorJson(train.error());
  return TrainReportJson(session.scenario(), train.value(), session.Scaling(), o.target_days, 2,
                         ReportState(session, "train"));
}

// [SECTION] roofline ----------------------------------------------------------------------
Report RooflineReport(Session& session, const ReportOptions&) {
  const Result<Roofline>& result = session.RooflineResult();
  if (!result.ok()) return ErrorReport("gpuplan roofline", result.error());
  const Roofline& rl = result.value();
  const Model* m = session.catalog().FindModel(session.scenario().model);
  Report r;
  r.title = "gpuplan roofline: " +
            TrF("{0} on {1} ({2} matmuls)", {m ? m->name : session.scenario().model, rl.roof.label, rl.precision});
  Records ceilings{{{"ceiling", Tr("ceiling")}, {"rate", Tr("rate"), true}, {"ridge", Tr("ridge FLOP/B"), true}}, {}};
  for (const ComputeCeiling& c : rl.roof.compute)
    ceilings.rows.push_back({Text(c.label), Number(c.flops_per_s, FormatRate(c.flops_per_s, "FLOP/s")),
                             c.measured || rl.roof.Ridge(c.key) <= 0 ? Unknown()
                                                                     : Number(rl.roof.Ridge(c.key), FormatShort(rl.roof.Ridge(c.key), 3))});
  for (const MemoryCeiling& x : rl.roof.memory)
    ceilings.rows.push_back({Text(x.label), Number(x.bytes_per_s, FormatRate(x.bytes_per_s, "B/s")), Unknown()});
  r.sections.push_back({Tr("ceilings"), std::move(ceilings)});
  Records ops = RooflineRecords(rl, "all");
  const ViewOptions& v = session.view();
  // One row per operation, in order: filtered by the operation's phase, not the cell's word.
  std::vector<std::vector<Cell>> shown;
  for (size_t i = 0; i < ops.rows.size() && i < rl.ops.size(); ++i)
    if (v.ShowsPhase(rl.ops[i].phase)) shown.push_back(std::move(ops.rows[i]));
  ops.rows = std::move(shown);
  r.sections.push_back({Tr("operations"), std::move(ops)});
  r.main = 1;
  r.assumptions = rl.assumptions;
  r.state = ReportState(session, "roofline");
  return r;
}

std::string RooflineJson(Session& session, const ReportOptions&) {
  const Result<Roofline>& result = session.RooflineResult();
  if (!result.ok()) return ErrorJson(result.error());
  return RooflineReportJson(session.scenario(), result.value(), 2, ReportState(session, "roofline"));
}

// [SECTION] machine -----------------------------------------------------------------------
// The CPU measured here (or a loaded CPU probe) and a loaded GPU probe against the catalog.
Records GpuProbeRecords(const GpuProbeResult& probe, const Gpu& g) {
  Records r{{{"metric", Tr("metric")},
             {"catalog_field", Tr("catalog field")},
             {"measured", Tr("measured"), true},
             {"datasheet", Tr("datasheet (dense)"), true},
             {"ratio", Tr("% of datasheet"), true},
             {"unit", Tr("unit")}},
            {}};
  for (const MeasuredRow& x : MeasuredVsCatalog(probe, g)) {
    const bool bytes = x.unit == "B/s";
    const double scale = bytes ? 1e9 : 1e12;
    const std::string shown = bytes ? "GB/s" : x.unit == "OP/s" ? "TOP/s" : "TFLOP/s";
    r.rows.push_back({Text(x.metric), Text(x.catalog_field), Number(x.measured, FormatFixed(x.measured / scale, 1) + " " + shown),
                      x.datasheet > 0 ? Number(x.datasheet, FormatFixed(x.datasheet / scale, 1) + " " + shown) : Unknown(),
                      x.datasheet > 0 ? Number(x.ratio(), FormatFixed(x.ratio() * 100, 1) + "%") : Unknown(), Text(x.unit)});
  }
  return r;
}

Report MachineReport(Session& session, const ReportOptions&) {
  Report r;
  if (const std::optional<CpuProbeResult>& p = session.cpu_probe()) {
    r.title = "gpuplan probe cpu: " + p->date +
              (p->quick ? " (" + std::string(Tr("quick: a cache sweep to 2 MiB, fewer samples")) + ")" : "");
    Records rows{{{"quantity", Tr("quantity")}, {"value", Tr("value"), true}, {"unit", Tr("unit")}, {"how", Tr("how")}},
                 {}};
    for (const MachineRow& x : CpuProbeRows(*p))
      rows.rows.push_back({Text(x.quantity), x.unit.empty() ? Text(x.text) : Number(x.value, x.text), Text(x.unit), Text(x.how)});
    r.sections.push_back({"", std::move(rows)});
    r.notes = p->notes;
    r.assumptions = p->cpu.assumptions;
  }
  if (const std::optional<GpuProbeResult>& probe = session.gpu_probe()) {
    const Gpu* g = session.GpuProbeCatalogGpu();
    if (!session.cpu_probe()) r.main = 0;
    const std::string line = TrF(
        "{0} (catalog: {1}), driver {2}, CUDA {3}, measured {4}",
        {probe->device_name, g ? g->id : std::string(Tr("no match")), probe->driver, probe->cuda_runtime, probe->date});
    if (r.title.empty()) r.title = "gpuplan probe compare: " + line;
    else r.lines.push_back(line);
    if (g)
      r.sections.push_back(
          {session.cpu_probe() ? Tr("GPU probe against the catalog") : "", GpuProbeRecords(*probe, *g)});
    else
      r.warnings.push_back(TrF("no catalog GPU matches '{0}'", {probe->device_name}));
  }
  if (r.title.empty()) {
    r.title = "gpuplan probe: " + std::string(Tr("no measurement yet (gpuplan probe cpu measures this machine)"));
    r.sections.push_back(
        {"",
         Records{{{"quantity", Tr("quantity")}, {"value", Tr("value"), true}, {"unit", Tr("unit")}, {"how", Tr("how")}},
                 {}}});
  }
  return r;
}

std::string MachineJson(Session& session, const ReportOptions& o) {
  if (session.cpu_probe()) return CpuProbeToJson(*session.cpu_probe());
  const Report r = MachineReport(session, o);
  if (r.sections.empty()) return "{}";
  std::string json = FormatRecords(r.sections[0].records, "json");
  json.pop_back();  // PrintView ends it with a newline
  return json;
}

// [SECTION] catalog -----------------------------------------------------------------------
Report CatalogReport(Session& session, const ReportOptions&) {
  Report r;
  r.sections.push_back({"", GpuListRecords(session.catalog())});
  return r;
}

std::string CatalogJson(Session& session, const ReportOptions&) {
  std::string json = FormatRecords(GpuListRecords(session.catalog()), "json");
  json.pop_back();  // PrintView ends it with a newline
  return json;
}

// [SECTION] capacity ----------------------------------------------------------------------
// What a GPU gives a workload, step by step: the driver's total, ECC, a MIG slice, the driver's
// reserve, a unified machine's OS rule, the user's limit and other processes (capacity.h).
Result<DeviceMemory> DeviceNow(Session& session) {
  const Gpu* g = session.catalog().FindGpu(session.scenario().gpu);
  if (!g) return Error{"gpu: unknown GPU '" + session.scenario().gpu + "'"};
  return EstimateDeviceMemory(*g, session.scenario());
}

Records CapacityRecords(const DeviceMemory& d) {
  Records r = BytesRecords(Tr("step"));
  for (const CapacityRow& c : CapacityRows(d)) AddBytes(r, c.name, c.bytes, c.how);
  return r;
}

Report CapacityReport(Session& session, const ReportOptions&) {
  const Result<DeviceMemory> d = DeviceNow(session);
  if (!d.ok()) return ErrorReport("gpuplan capacity", d.error());
  const Gpu& g = *session.catalog().FindGpu(session.scenario().gpu);
  Report r;
  r.title = "gpuplan capacity: " + g.name + " (" + FormatFixed(g.memory_quoted_value, 0) + " " + g.memory_quoted_unit + " " +
            g.memory_type + ")";
  r.sections.push_back({"", CapacityRecords(d.value())});
  r.after.push_back(
      TrF("What a workload can allocate: {0} ({1})", {FormatBytes(d.value().free_bytes), d.value().basis}));
  if (d.value().compute_share < 1 || d.value().bandwidth_share < 1)
    r.after.push_back(
        TrF("Share of the GPU: {0}% of the compute, {1}% of the memory bandwidth",
            {FormatFixed(d.value().compute_share * 100, 1), FormatFixed(d.value().bandwidth_share * 100, 1)}));
  r.state = ReportState(session, "capacity");
  return r;
}

std::string CapacityJson(Session& session, const ReportOptions&) {
  const Result<DeviceMemory> d = DeviceNow(session);
  if (!d.ok()) return ErrorJson(d.error());
  ordered_json j;
  j["schema"] = "gpuplan.capacity/1";
  j["gpu"] = session.scenario().gpu;
  ordered_json steps = ordered_json::array();
  for (const CapacityRow& c : CapacityRows(d.value())) steps.push_back({{"step", c.name}, {"bytes", c.bytes}, {"how", c.how}});
  j["steps"] = steps;
  j["free_bytes"] = d.value().free_bytes;
  j["basis"] = d.value().basis;
  j["compute_share"] = d.value().compute_share;
  j["bandwidth_share"] = d.value().bandwidth_share;
  return j.dump(2);
}

std::string CapacityFailure(Session& s) { return DeviceNow(s).ok() ? std::string() : DeviceNow(s).error(); }

std::string NoFailure(Session&) { return {}; }
std::string FitFailure(Session& s) { return s.Fit().ok() ? std::string() : s.Fit().error(); }
std::string SpeedFailure(Session& s) { return s.Speed().ok() ? std::string() : s.Speed().error(); }
std::string TrainFailure(Session& s) { return s.Train().ok() ? std::string() : s.Train().error(); }
std::string RooflineFailure(Session& s) { return s.RooflineResult().ok() ? std::string() : s.RooflineResult().error(); }

}  // namespace

const std::vector<View>& Views() {
  static const std::vector<View> views = {
      {"fit",
       "Fit",
       "memory per GPU for serving a model: weights, KV cache, activations, overhead, the engine's cap; whether it "
       "fits",
       true,
       true,
       {},
       FitReport,
       FitJson,
       FitFailure},
      {"speed",
       "Speed",
       "prefill and decode speed (tokens/s, time to first token) with the error band, and $ per 1M tokens",
       true,
       true,
       {},
       SpeedReport,
       SpeedJson,
       SpeedFailure},
      {"serve",
       "Serve",
       "serving at load: continuous batching replayed request by request (arrival rate or clients, request lengths): "
       "throughput, TTFT / TPOT / ITL / end-to-end percentiles, goodput at an SLA, KV use and saturation",
       true,
       true,
       {"rate", "clients", "requests", "lengths", "ttft-sla", "tpot-sla"},
       ServeReport,
       ServeJson,
       ServeFailure},
      {"plan",
       "Plan",
       "the cheapest GPU, count, layout, engine and format that serve the workload within the SLA (TTFT/TPOT p90), "
       "rented or owned: every setup that fits screened, the cheapest replayed, the Pareto set of cost and latency",
       true,
       true,
       {"rate", "clients", "requests", "lengths", "ttft-sla", "tpot-sla", "by", "vendor", "max-usd-hour", "max-watts",
        "max-gpus"},
       PlanViewReport,
       PlanViewJson,
       PlanFailure},
      {"compare",
       "Compare",
       "the whole catalog for one scenario: fewest GPUs that fit, tokens/s, $/1M tokens, upfront $, watts",
       true,
       true,
       {"sort", "fits", "vendor", "min-tps", "max-ttft", "max-upfront", "max-watts"},
       CompareReport,
       CompareJson,
       FitFailure},
      {"train",
       "Train",
       "training / fine-tuning: memory per GPU (ZeRO, LoRA, QLoRA, activations), time, GPU-hours and cost",
       true,
       true,
       {},
       TrainReport,
       TrainJson,
       TrainFailure},
      {"cost",
       "Cost",
       "cloud on demand and spot vs owning the GPUs: per hour, per month of busy hours, per 1M tokens, break-even "
       "months; the cumulative cost by month",
       true,
       true,
       {},
       CostReport,
       CostJson,
       SpeedFailure},
      {"roofline",
       "Roofline",
       "the scenario's operations (prefill and decode GEMMs, attention naive vs flash, MoE experts, collectives, a "
       "training step) under the GPU's roofline; --svg writes the chart",
       true,
       true,
       {"overlay", "phase"},
       RooflineReport,
       RooflineJson,
       RooflineFailure},
      {"capacity",
       "Capacity",
       "what the GPU gives a workload, step by step: the driver's total, ECC, a MIG slice, the driver's reserve, a "
       "unified machine's OS rule, your limit and other processes",
       true,
       true,
       {},
       CapacityReport,
       CapacityJson,
       CapacityFailure},
      {"machine",
       "This machine",
       "this computer's CPU measured (gpuplan probe cpu) and a GPU probe against the catalog",
       false,
       false,
       {},
       MachineReport,
       MachineJson,
       NoFailure},
      {"catalog",
       "Catalog",
       "the accelerators and models with every figure's source (gpuplan catalog)",
       false,
       false,
       {},
       CatalogReport,
       CatalogJson,
       NoFailure},
  };
  return views;
}

const View* FindView(std::string_view id) {
  for (const View& v : Views())
    if (id == v.id) return &v;
  return nullptr;
}

std::vector<std::string> ViewIds() {
  std::vector<std::string> ids;
  for (const View& v : Views()) ids.push_back(v.id);
  return ids;
}

std::string ViewJson(const View& view, Session& session, const ReportOptions& options) {
  return StampJson(view.json(session, options), session.catalog());
}

std::string PrintView(const View& view, Session& session, std::string_view format, const ReportOptions& options) {
  if (format == "json") return ViewJson(view, session, options) + "\n";
  return FormatReport(view.report(session, options), format) + MadeWithMd(session.catalog(), format);
}

std::string ScenarioLine(const View& view, const Session& session) {
  const Scenario& s = session.scenario();
  if (std::string_view(view.id) == "plan") {  // the GPUs are what it searches
    const Model* m = session.catalog().FindModel(s.model);
    return TrF("{0}: the cheapest setup for the workload", {m ? m->name : s.model});
  }
  return ModelOnGpus(session.catalog(), s, std::string_view(view.id) == "train" ? s.TrainingGpus() : s.Gpus());
}

std::string ViewCliCommand(const View& view, const Session& session) {
  // The reader's language: the copied command prints the Markdown the page copies.
  return CliCommand(view.id, session.scenario()) + ViewCliFlags(session.view(), view.options) +
         (CurrentLang() == Lang::kEn ? "" : std::string(" --lang ") + LangCode(CurrentLang()));
}

}  // namespace gpuplan
