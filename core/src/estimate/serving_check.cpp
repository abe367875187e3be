#include "gpuplan/serving_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"
#include "gpuplan/i18n.h"
#include "gpuplan/resolve.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

using json = nlohmann::json;

// Replayed requests per data-parallel instance at most (a case of 5,000 prompts keeps its
// mix and load; the percentiles change little past a few thousand).
constexpr int kMaxReplayed = 3000;

// A case's lengths: a fixed length, a uniform range, or a dataset (its stated mean with the
// preset's spread, else the preset). Empty when nothing says how long the requests were.
bool Lengths(const json& w, const char* key, LengthDist& out, std::string& how) {
  auto it = w.find(key);
  if (it == w.end() || !it->is_object()) return false;
  const std::string kind = detail::JsonString(*it, "kind"), dataset = detail::JsonString(*it, "dataset");
  const double mean = detail::JsonNumber(*it, "mean"), lo = detail::JsonNumber(*it, "lo"),
               hi = detail::JsonNumber(*it, "hi");
  if (kind == "uniform" && lo >= 1 && hi >= lo) {
    out = {LengthDist::Kind::kUniform, 0, 0, lo, hi};
    how = "uniform";
    return true;
  }
  if (kind == "fixed" || (kind == "dataset" && dataset.find("synthetic") != std::string::npos)) {
    if (!(mean >= 1)) return false;
    out = {LengthDist::Kind::kFixed, mean};
    how = "fixed";
    return true;
  }
  // A dataset with a workload preset (workload.h): its fitted lengths, or its spread around the
  // run's own stated mean.
  if (const WorkloadPreset* p = kind == "dataset" ? FindWorkloadPreset(dataset) : nullptr) {
    out = std::string(key) == "input" ? p->input : p->output;
    if (mean >= 1) {
      out.mean = mean;  // the run's own sampled mean (as the mean before the cut: ~5 % high)
      how = "stated means, " + dataset + " spread";
    } else {
      how = "preset " + dataset;
    }
    return true;
  }
  return false;
}

void Measured(const json& m, ServingCase& c) {
  for (const char* key : {"request_throughput", "output_tokens_per_s", "total_tokens_per_s"})
    if (const double v = detail::JsonNumber(m, key); v > 0) c.measured.emplace_back(key, v);
  for (const char* q : {"ttft", "tpot", "itl", "e2e"}) {
    auto it = m.find(std::string(q) + "_ms");
    if (it == m.end() || !it->is_object()) continue;
    for (const char* stat : {"mean", "p50", "p90", "p99"})
      if (const double v = detail::JsonNumber(*it, stat); v > 0)
        c.measured.emplace_back(std::string(q) + "_" + stat + "_ms", v);
  }
}

double Estimated(const ServeResult& r, const std::string& q, double instances) {
  if (q == "request_throughput") return r.request_throughput * instances;
  if (q == "output_tokens_per_s") return r.output_tokens_per_s * instances;
  if (q == "total_tokens_per_s") return r.total_tokens_per_s * instances;
  const size_t a = q.find('_'), b = q.rfind('_');
  const std::string what = q.substr(0, a), stat = q.substr(a + 1, b - a - 1);
  const Percentiles& p = what == "ttft" ? r.ttft_s : what == "tpot" ? r.tpot_s : what == "itl" ? r.itl_s : r.e2e_s;
  const double s = stat == "mean" ? p.mean : stat == "p50" ? p.p50 : stat == "p90" ? p.p90 : p.p99;
  return s * 1000;
}

bool IsThroughput(const std::string& q) {
  return q.find("_per_s") != std::string::npos || q == "request_throughput";
}
bool IsP90Latency(const std::string& q) {
  return q.find("_p90_") != std::string::npos;
}
bool IsP50Latency(const std::string& q) {
  return q.find("_p50_") != std::string::npos;
}
bool IsP99Latency(const std::string& q) {
  return q.find("_p99_") != std::string::npos;
}

}  // namespace

Result<std::vector<ServingCase>> ParseServingCases(const std::string& text) {
  json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{"serving reference: " + detail::JsonErrorAt(text)};
  if (!doc.is_object()) return Error{"serving reference: not a JSON object"};
  auto list = doc.find("cases");
  if (list == doc.end() || !list->is_array()) return Error{"serving reference: 'cases' must be an array"};
  std::vector<ServingCase> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const json& j = (*list)[i];
    ServingCase c;
    c.id = detail::JsonString(j, "id");
    if (c.id.empty()) return Error{"serving reference: case " + std::to_string(i) + " has no id"};
    for (auto [field, key] :
         {std::pair{&c.engine, "engine"}, {&c.model, "model"}, {&c.weights, "weights"}, {&c.kv, "kv"}, {&c.gpu, "gpu"}})
      if ((*field = detail::JsonString(j, key)).empty())
        return Error{"serving reference: case '" + c.id + "': '" + key + "' must be a catalog id"};
    if (auto src = j.find("source"); src != j.end() && src->is_object()) c.source_url = detail::JsonString(*src, "url");
    c.engine_version = detail::JsonString(j, "engine_version");
    c.options.max_model_len = -1;  // unless the engine's arguments state it: the engine's default
    c.count = static_cast<int>(std::max(1.0, detail::JsonNumber(j, "count", 1)));
    c.tp = static_cast<int>(std::max(1.0, detail::JsonNumber(j, "tp", 1)));
    c.pp = static_cast<int>(std::max(1.0, detail::JsonNumber(j, "pp", 1)));
    c.ep = detail::JsonNumber(j, "ep", 0) >= 1 ? 1 : 0;
    auto w = j.find("workload");
    if (w == j.end() || !w->is_object()) return Error{"serving reference: case '" + c.id + "': no workload"};
    const std::string mode = detail::JsonString(*w, "mode");
    const double requests = detail::JsonNumber(*w, "requests");
    if (mode == "poisson") {
      c.spec.rate = detail::JsonNumber(*w, "rate");
      if (!(c.spec.rate > 0)) return Error{"serving reference: case '" + c.id + "': a Poisson workload needs a rate"};
    } else if (mode == "concurrency" || mode == "offline") {
      c.spec.rate = 0;
      c.spec.concurrency = mode == "offline" ? 0 : static_cast<int>(detail::JsonNumber(*w, "concurrency"));
      if (mode == "concurrency" && c.spec.concurrency < 1)
        return Error{"serving reference: case '" + c.id + "': a closed loop needs its concurrency"};
    } else {
      return Error{"serving reference: case '" + c.id + "': mode must be poisson, concurrency or offline"};
    }
    c.spec.requests = static_cast<int>(requests);
    if (c.spec.requests < 1) {
      // A closed loop's count unstated (NIM's genai-perf runs): ten requests per client, at least
      // 100. A timed Poisson run (MLPerf's Server scenario: at least ten minutes at the target
      // rate) is replayed long enough to reach its steady state: the replay's cap.
      if (mode == "concurrency")
        c.spec.requests = std::max(100, 10 * c.spec.concurrency);
      else if (mode == "poisson" && detail::JsonNumber(*w, "duration_s") > 0)
        c.spec.requests =
            static_cast<int>(std::min<double>(kMaxReplayed * std::max(1, c.count / std::max(1, c.tp * c.pp)),
                                              std::ceil(c.spec.rate * detail::JsonNumber(*w, "duration_s"))));
      else
        c.skip = "the number of requests is not stated (an MLPerf run lasts a set time)";
    }
    if (mode == "offline") c.spec.concurrency = std::max(1, c.spec.requests);
    std::string in_how, out_how;
    if (!Lengths(*w, "input", c.spec.input, in_how) || !Lengths(*w, "output", c.spec.output, out_how)) {
      if (c.skip.empty()) c.skip = "the request lengths are not stated";
    }
    c.lengths = in_how == out_how ? in_how : in_how + " / " + out_how;
    if (auto args = w->find("engine_args"); args != w->end() && args->is_object()) {
      c.options.max_num_seqs = static_cast<int>(detail::JsonNumber(*args, "max_num_seqs"));
      c.options.max_batched_tokens = static_cast<int>(detail::JsonNumber(*args, "max_num_batched_tokens"));
      c.mem_util = detail::JsonNumber(*args, "gpu_memory_utilization");
      c.options.decode_burst = std::max(1, static_cast<int>(detail::JsonNumber(*args, "num_scheduler_steps", 1)));
      c.options.max_model_len = static_cast<long long>(detail::JsonNumber(*args, "max_model_len", -1));
      if (auto ch = args->find("enable_chunked_prefill"); ch != args->end() && ch->is_boolean())
        c.options.chunked_prefill = ch->get<bool>() ? 1 : 0;
      if (auto dp = args->find("enable_dp_attention"); dp != args->end() && dp->is_boolean() && dp->get<bool>())
        c.split = "dp-attention";
    }
    if (auto gap = j.find("catalog_gap"); gap != j.end() && gap->is_boolean() && gap->get<bool>() && c.skip.empty())
      c.skip = "its GPU or model is not in the catalog";
    if (auto m = j.find("measured"); m != j.end() && m->is_object()) Measured(*m, c);
    if (c.measured.empty() && c.skip.empty()) c.skip = "no measured quantity";
    out.push_back(std::move(c));
  }
  return out;
}

ServingSummary SummariseServing(const std::string& name, const std::vector<ServingRow>& rows,
                                bool (*pick)(const std::string& quantity)) {
  std::vector<double> errors;
  for (const ServingRow& r : rows)
    if (pick(r.quantity) && r.measured > 0) errors.push_back(std::fabs(r.estimated / r.measured - 1));
  ServingSummary s;
  s.quantity = name;
  s.n = static_cast<int>(errors.size());
  s.median = Percentile(errors, 50);
  s.p90 = Percentile(errors, 90);
  return s;
}

ServingCheck RunServingCases(const Catalog& catalog, const std::vector<ServingCase>& cases) {
  ServingCheck out;
  for (const ServingCase& c : cases) {
    if (!c.skip.empty()) {
      out.skipped.emplace_back(c.id, c.skip);
      continue;
    }
    Scenario s;
    s.model = c.model, s.weights = c.weights, s.kv = c.kv, s.gpu = c.gpu, s.engine = c.engine;
    // The profile of the release that ran it (vLLM 0.6's V0 scheduler, 0.11's memory default).
    if (const EngineProfile* e = catalog.FindEngineRelease(c.engine, c.engine_version)) s.engine = e->id;
    s.tp = c.tp, s.pp = c.pp, s.ep = c.ep;
    if (!c.split.empty()) s.split = c.split;
    if (c.mem_util > 0) s.mem_util = c.mem_util;
    Result<Resolved> r = Resolve(catalog, s);
    if (!r) {
      out.skipped.emplace_back(c.id, r.error());
      continue;
    }
    // Data-parallel instances share the load: each gets its part of the rate or the clients.
    const int instances = std::max(1, c.count / std::max(1, c.tp * c.pp));
    WorkloadSpec spec = c.spec;
    if (spec.rate > 0) spec.rate /= instances;
    spec.concurrency = (spec.concurrency + instances - 1) / instances;
    spec.requests = std::min(kMaxReplayed, std::max(1, spec.requests / instances));
    if (spec.rate == 0) spec.concurrency = std::clamp(spec.concurrency, 1, spec.requests);
    Result<ServeEstimate> e = EstimateServing(*r, s, spec, c.options);
    if (!e) {
      out.refused.emplace_back(c.id, e.error());
      continue;
    }
    for (const auto& [quantity, value] : c.measured)
      out.rows.push_back({c.id, quantity, r->engine.base.empty() ? r->engine.id : r->engine.base, value,
                          Estimated(e->result, quantity, instances)});
  }
  out.summary.push_back(SummariseServing(N_("throughput"), out.rows, IsThroughput));
  out.summary.push_back(SummariseServing(N_("p50 latencies"), out.rows, IsP50Latency));
  out.summary.push_back(SummariseServing(N_("p90 latencies"), out.rows, IsP90Latency));
  out.summary.push_back(SummariseServing(N_("p99 latencies"), out.rows, IsP99Latency));
  std::map<std::string, int> seen;
  for (const ServingRow& row : out.rows) seen[row.quantity]++;
  for (const auto& [quantity, n] : seen) {
    std::vector<ServingRow> only;
    for (const ServingRow& row : out.rows)
      if (row.quantity == quantity) only.push_back(row);
    out.summary.push_back(SummariseServing(quantity, only, [](const std::string&) { return true; }));
  }
  return out;
}

namespace {

const char* BandGroup(const std::string& q) {
  if (IsThroughput(q)) return "throughput";
  if (q.rfind("ttft", 0) == 0) return "ttft";
  if (q.rfind("tpot", 0) == 0 || q.rfind("itl", 0) == 0) return "tpot";
  if (q.rfind("e2e", 0) == 0) return "e2e";
  return "";
}

// p10..p90 of measured / estimated, widened to hold 1 (the estimate lies within its band).
Band RatioBand(std::vector<double> ratios, int cases, const std::string& basis) {
  Band b;
  b.cases = cases;
  b.basis = std::to_string(ratios.size()) + " figures of " + basis;
  if (ratios.empty()) return b;
  b.lo = std::min(1.0, std::round(Percentile(ratios, 10) * 100) / 100);
  b.hi = std::max(1.0, std::round(Percentile(ratios, 90) * 100) / 100);
  return b;
}

}  // namespace

std::vector<ServingBands> FitServingBands(const Catalog& catalog, const ServingCheck& c) {
  std::map<std::string, std::map<std::string, std::vector<double>>> by;  // engine -> group -> ratios
  std::map<std::string, std::vector<double>> all;
  std::map<std::string, std::set<std::string>> cases_by, cases_all;  // engine + group, group -> case ids
  for (const ServingRow& row : c.rows) {
    const std::string g = BandGroup(row.quantity);
    if (g.empty() || !(row.estimated > 0) || !(row.measured > 0)) continue;
    by[row.engine][g].push_back(row.measured / row.estimated);
    all[g].push_back(row.measured / row.estimated);
    cases_by[row.engine + "/" + g].insert(row.case_id);
    cases_all[g].insert(row.case_id);
  }
  std::vector<ServingBands> out;
  for (const EngineProfile& e : catalog.engines) {
    if (!e.base.empty()) continue;  // a release shares its engine's
    ServingBands b;
    b.engine = e.id;
    for (auto [key, band] :
         {std::pair{"throughput", &b.throughput}, {"ttft", &b.ttft}, {"tpot", &b.tpot}, {"e2e", &b.e2e}}) {
      const std::vector<double>& own = by[e.id][key];
      const int own_cases = static_cast<int>(cases_by[e.id + "/" + key].size());
      *band =
          own.size() >= static_cast<size_t>(kMinBandRows)
              ? RatioBand(own, own_cases, "its own published serving results")
              : RatioBand(all[key], static_cast<int>(cases_all[key].size()),
                          "every engine's published serving results (" + std::to_string(own.size()) + " of its own)");
    }
    out.push_back(std::move(b));
  }
  return out;
}

std::string ServingBandsJson(const std::vector<ServingBands>& bands) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const ServingBands& b : bands) {
    nlohmann::ordered_json e = nlohmann::ordered_json::object();
    for (auto [key, band] :
         {std::pair{"throughput", &b.throughput}, {"ttft", &b.ttft}, {"tpot", &b.tpot}, {"e2e", &b.e2e}})
      e[key] = {{"lo", band->lo}, {"hi", band->hi}, {"cases", band->cases}, {"basis", band->basis}};
    j[b.engine] = e;
  }
  return j.dump(2);
}

Report ServingCheckReport(const ServingCheck& c) {
  Report r;
  int cases = 0;
  {
    std::string last;
    for (const ServingRow& row : c.rows)
      if (row.case_id != last) ++cases, last = row.case_id;
  }
  r.title = Tr("Serving at load: the simulator against published results");
  r.lines = {TrF("{0} cases replayed ({1} printed figures), {2} skipped, {3} refused by the estimator",
                 {FormatCount(cases), FormatCount(static_cast<long long>(c.rows.size())),
                  FormatCount(static_cast<long long>(c.skipped.size())),
                  FormatCount(static_cast<long long>(c.refused.size()))}),
             Tr("error = |estimated / measured - 1|; nothing in the simulator is fitted to these cases")};
  Section summary{Tr("Errors per quantity"), {}};
  summary.records.cols = {{"quantity", Tr("quantity")},
                          {"n", "n", true},
                          {"median", Tr("median error"), true},
                          {"p90", Tr("p90 error"), true}};
  for (const ServingSummary& s : c.summary)
    summary.records.rows.push_back({Text(Tr(s.quantity.c_str())), Number(s.n, FormatCount(s.n)),
                                    s.n ? Number(s.median, FormatFixed(s.median * 100, 0) + " %") : Unknown(),
                                    s.n ? Number(s.p90, FormatFixed(s.p90 * 100, 0) + " %") : Unknown()});
  Section rows{Tr("Cases"), {}};
  rows.records.cols = {{"case", Tr("case")},
                       {"quantity", Tr("quantity")},
                       {"measured", Tr("measured"), true},
                       {"estimated", Tr("estimated"), true},
                       {"ratio", Tr("est / meas"), true}};
  for (const ServingRow& row : c.rows)
    rows.records.rows.push_back({Text(row.case_id), Text(row.quantity), Number(row.measured, FormatShort(row.measured)),
                                 Number(row.estimated, FormatShort(row.estimated)),
                                 Number(row.estimated / row.measured, FormatFixed(row.estimated / row.measured, 2))});
  r.sections = {std::move(summary), std::move(rows)};
  r.main = 1;
  for (const auto& [id, why] : c.skipped) r.notes.push_back(TrF("skipped {0}: {1}", {id, why}));
  for (const auto& [id, why] : c.refused) r.warnings.push_back(TrF("refused {0}: {1}", {id, why}));
  return r;
}

std::string ServingCheckJson(const ServingCheck& c) {
  json j;
  j["schema"] = "gpuplan.serving-check/1";
  json& summary = j["summary"] = json::array();
  for (const ServingSummary& s : c.summary)
    summary.push_back({{"quantity", s.quantity}, {"n", s.n}, {"median_error", s.median}, {"p90_error", s.p90}});
  json& rows = j["rows"] = json::array();
  for (const ServingRow& r : c.rows)
    rows.push_back(
        {{"case", r.case_id}, {"quantity", r.quantity}, {"measured", r.measured}, {"estimated", r.estimated}});
  json& skipped = j["skipped"] = json::array();
  for (const auto& [id, why] : c.skipped) skipped.push_back({{"case", id}, {"why", why}});
  json& refused = j["refused"] = json::array();
  for (const auto& [id, why] : c.refused) refused.push_back({{"case", id}, {"why", why}});
  return j.dump(1);
}

}  // namespace gpuplan
