#include "gpuplan/plan.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "gpuplan/ceilings.h"
#include "gpuplan/cost.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/records.h"
#include "gpuplan/resolve.h"
#include "gpuplan/speed.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

// Requests replayed per candidate at most (per replica): enough for stable p90s, few enough
// that a dozen finalists replay in well under a second.
constexpr int kReplayed = 600;
// The screen aims below the SLA and the capacity it estimates, so that the replay (which sees
// queueing the screen does not) mostly confirms it.
constexpr double kScreenMargin = 0.9, kLoadMargin = 0.85;
constexpr int kMoreReplicas = 3;

struct Option {
  const char* engine;
  const char* weights;
  const char* kv;
};

// The formats each engine serves on a GPU, as a user would pick them: 16-bit, FP8 where the
// GPU has FP8 tensor cores, 4-bit AWQ; TensorRT-LLM's NVFP4 on FP4 parts; llama.cpp's GGUF.
std::vector<Option> Options(const Gpu& g) {
  const std::string vendor = VendorKey(g.vendor);
  const bool fp8 = g.dense_flops.count("fp8") > 0, fp4 = g.dense_flops.count("fp4") > 0;
  std::vector<Option> out;
  if (vendor == "nvidia" || vendor == "amd")
    for (const char* e : {"vllm", "sglang"}) {
      out.push_back({e, "bf16", "fp16"});
      if (fp8) out.push_back({e, "fp8", "fp8"});
      out.push_back({e, "awq-int4-g128", "fp16"});
    }
  if (vendor == "nvidia") {
    out.push_back({"tensorrt-llm", "bf16", "fp16"});
    if (fp8) out.push_back({"tensorrt-llm", "fp8", "fp8"});
    if (fp4) out.push_back({"tensorrt-llm", "nvfp4", "fp8"});
  }
  out.push_back({"llama.cpp", "q4_k_m", "fp16"});
  out.push_back({"llama.cpp", "q8_0", "fp16"});
  return out;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Screened {
  Scenario s;
  int replicas = 1;
  double measure = 0;  // the query's cost, all replicas
  double watts = 0;
  // One replica's costs from the screen's estimate (EstimateCost): the replay scales them.
  double cloud_hour = 0, spot_hour = 0, owned_month = 0, busy_hours_month = 0;
};

// The parallel layouts tried for n GPUs: tensor parallel over all n; for n > 1 pipeline stages
// (vLLM --pipeline-parallel-size, SGLang --pp-size, TensorRT-LLM pp_size: what GPUs without a
// fast link are usually given) and, for a mixture of experts, tensor parallel with the experts
// placed whole (expert parallel). llama.cpp splits by its own split mode (layers, the default).
struct Layout {
  int tp, pp, ep;
};
enum LayoutKind { kTensor, kPipeline, kExpert, kLayoutKinds };
Layout MakeLayout(LayoutKind k, int n) {
  return k == kTensor ? Layout{n, 1, 0} : k == kPipeline ? Layout{1, n, 0} : Layout{n, 1, 1};
}
bool LayoutApplies(LayoutKind k, const Option& o, const Model& m) {
  if (k == kTensor) return true;
  if (std::string_view(o.engine) == "llama.cpp") return false;
  return k == kPipeline || m.moe.has_value();
}

std::string LayoutText(const Scenario& s) {
  const int pp = std::max(1, s.pp);
  if (s.tp <= 1 && pp <= 1) return "1 GPU";
  std::string t = s.tp > 1 ? "TP " + std::to_string(s.tp) : "";
  if (pp > 1) t += (t.empty() ? "" : " x ") + std::string("PP ") + std::to_string(pp);
  if (s.ep == 1) t += " + EP";
  return t;
}

}  // namespace

struct PlanSearch::State {
  const Catalog* catalog = nullptr;
  PlanQuery q;
  Result<PlanResult> out = PlanResult{};
  enum Phase { kScreen, kReplay, kDone } phase = kDone;
  // The workload's shape, from its generated requests.
  double mean_prompt = 0, mean_output = 0;
  long long longest = 0;
  bool closed = false;
  const Model* model = nullptr;
  std::unique_ptr<ModelFacts> facts;
  std::unique_ptr<CeilingTable> ceilings;
  std::string vendor;            // lower case
  std::vector<const Gpu*> gpus;  // those the vendor filter lets through
  size_t next_gpu = 0;
  std::vector<Screened> pass;
  std::map<std::string, int> dropped;  // why candidates were screened out -> how many
  // The replay: the finalist, its row so far and the replica count to run next.
  size_t next_final = 0;
  int next_replicas = 0;
  PlanRow row;
  double ms = 0;

  void ScreenGpu(const Gpu& g);
  void ReplayOne();
  void Finish();
};

void PlanSearch::State::ScreenGpu(const Gpu& g) {
  PlanResult& o = *out;
  if (g.bandwidth_bytes_per_s <= 0 || g.dense_flops.empty()) {
    ++dropped[N_("no speed figures in the catalog")];
    return;
  }
  for (const Option& opt : Options(g))
    for (int k = 0; k < kLayoutKinds; ++k) {
      const LayoutKind kind = static_cast<LayoutKind>(k);
      if (!LayoutApplies(kind, opt, *model)) continue;
      bool fitted_once = false;
      for (int n = kind == kTensor ? 1 : 2; n <= q.max_gpus; n *= 2) {
        ++o.considered;
        const Layout l = MakeLayout(kind, n);
        Scenario s = q.base;
        s.gpu = g.id, s.engine = opt.engine, s.weights = opt.weights, s.kv = opt.kv;
        s.tp = l.tp, s.pp = l.pp, s.ep = l.ep;
        s.split = "auto", s.gpu_layers = -1, s.batch = 1, s.context = longest;
        s.prompt = std::clamp(static_cast<long long>(std::llround(mean_prompt)), 1LL, longest);
        Result<Resolved> r = Resolve(*catalog, s);
        if (!r) break;
        r->facts = facts.get(), r->ceilings = ceilings.get();
        Result<MemoryEstimate> m = EstimateMemory(*r, s, false, Detail::kNumbers);
        if (!m || !m->fits || m->kv_pool_bytes <= 0 || !(m->kv_token_bytes_gpu > 0) ||
            m->kv_pool_bytes / m->kv_token_bytes_gpu < static_cast<double>(longest)) {
          if (fitted_once) break;
          continue;  // more GPUs may hold it
        }
        ++o.fitted;
        Result<SpeedEstimate> v = EstimateSpeed(*r, s, *m, {}, Detail::kNumbers);
        if (!v || v->step.flops_gpu <= 0) {
          ++dropped[N_("no speed estimate")];
          break;
        }
        // The largest batch the pool and the engine hold, then the largest whose step (its decodes
        // and the prompt tokens the batch's requests bring per step) meets the TPOT target.
        const double pool_tokens = m->kv_pool_bytes / m->kv_token_bytes_gpu;
        const BatchDefaults d = EngineBatchDefaults(r->engine, g, m->device.runtime_bytes);
        const double cap = std::max(1.0, std::min(std::floor(pool_tokens / (mean_prompt + mean_output)),
                                                  static_cast<double>(d.max_num_seqs > 0 ? d.max_num_seqs : 4096)));
        auto step = [&](double b) {
          StepLoad load;
          load.decode_seqs = b, load.decode_context = b * (mean_prompt + mean_output / 2);
          load.prefill_seqs = b / mean_output, load.prefill_tokens = b * mean_prompt / mean_output;
          load.prefill_context = load.prefill_tokens * mean_prompt / 2;
          return StepSeconds(v->step, load);
        };
        double batch = cap;
        fitted_once = true;
        if (q.tpot_p90_s > 0) {
          if (step(1) > q.tpot_p90_s * kScreenMargin) {
            ++dropped[N_("TPOT above the target at one sequence")];
            continue;  // more GPUs may be faster
          }
          double lo = 1, hi = cap;
          while (hi - lo > 1) {
            const double mid = std::floor((lo + hi) / 2);
            (step(mid) <= q.tpot_p90_s * kScreenMargin ? lo : hi) = mid;
          }
          batch = step(hi) <= q.tpot_p90_s * kScreenMargin ? hi : lo;
        }
        if (q.ttft_p90_s > 0) {
          StepLoad one;
          one.prefill_seqs = 1, one.prefill_tokens = mean_prompt, one.prefill_context = mean_prompt * mean_prompt / 2;
          if (StepSeconds(v->step, one) > q.ttft_p90_s * kScreenMargin) {
            ++dropped[N_("TTFT above the target for one prompt")];
            continue;
          }
        }
        const double capacity = batch / (mean_output * step(batch));  // requests per second per replica
        Screened c;
        c.s = s;
        c.replicas = closed ? static_cast<int>(std::ceil(q.workload.concurrency / batch))
                            : static_cast<int>(std::ceil(q.workload.rate / (kLoadMargin * capacity)));
        c.replicas = std::max(1, c.replicas);
        const CostEstimate cost = EstimateCost(*r, s, *v, Detail::kNumbers);
        const double one = q.by == "cloud" ? cost.cloud_hour : q.by == "spot" ? cost.spot_hour : cost.owned_month;
        if (!(one > 0)) {
          ++dropped[q.by == "owned" ? N_("no purchase price in the catalog") : N_("no cloud offer in the catalog")];
          continue;
        }
        c.measure = one * c.replicas;
        c.cloud_hour = cost.cloud_hour, c.spot_hour = cost.spot_hour, c.owned_month = cost.owned_month;
        c.busy_hours_month = cost.busy_hours_month;
        c.watts = g.tdp_w * static_cast<double>(s.Gpus()) * c.replicas;
        if (q.max_usd_hour > 0 && cost.cloud_hour * c.replicas > q.max_usd_hour) {
          ++dropped[N_("over the hourly budget")];
          continue;
        }
        if (q.max_watts > 0 && c.watts > q.max_watts) {
          ++dropped[N_("over the power cap")];
          continue;
        }
        pass.push_back(std::move(c));
      }
    }
}

// One run of the replay: the current finalist at `next_replicas`, its share of the load. The
// row is kept once the SLA holds or the replicas to try run out.
void PlanSearch::State::ReplayOne() {
  PlanResult& o = *out;
  const Screened& c = pass[next_final];
  if (next_replicas == 0) {  // a new finalist
    row = PlanRow{};
    row.s = c.s;
    row.s.context = q.base.context, row.s.prompt = q.base.prompt;  // the query's own, for links
    next_replicas = c.replicas;
  }
  bool finished = true;
  if (Result<Resolved> r = Resolve(*catalog, c.s)) {
    r->facts = facts.get(), r->ceilings = ceilings.get();
    const int replicas = next_replicas;
    WorkloadSpec share = PlanShare(q.workload, replicas);
    share.requests = std::min(q.workload.requests, kReplayed);
    ServeOptions so;
    so.ttft_sla_s = q.ttft_p90_s, so.tpot_sla_s = q.tpot_p90_s;
    Result<ServeEstimate> e = EstimateServing(*r, row.s, share, so);
    ++o.replayed;
    if (!e) {
      row.binding = e.error();
    } else {
      row.replicas = replicas;
      row.run = e->result;
      const ServeResult& x = row.run;
      std::string why;
      if (x.saturated)
        why = Tr("saturated: the queue grows");
      else if (q.tpot_p90_s > 0 && x.tpot_s.p90 > q.tpot_p90_s)
        why = "TPOT p90 " + FormatSeconds(x.tpot_s.p90) + " > " + FormatSeconds(q.tpot_p90_s);
      else if (q.ttft_p90_s > 0 && x.ttft_s.p90 > q.ttft_p90_s)
        why = "TTFT p90 " + FormatSeconds(x.ttft_s.p90) + " > " + FormatSeconds(q.ttft_p90_s);
      row.binding = why;
      row.meets = why.empty();
      finished = row.meets || replicas >= c.replicas + kMoreReplicas;
    }
  }
  if (!finished) {
    ++next_replicas;
    return;
  }
  // Costs of all replicas, from one replica's (the screen's).
  row.usd_hour = c.cloud_hour * row.replicas;
  row.spot_usd_hour = c.spot_hour * row.replicas;
  row.owned_usd_month = c.owned_month * row.replicas;
  const double tps = row.run.output_tokens_per_s * row.replicas;
  const double per_hour = q.by == "cloud"  ? row.usd_hour
                          : q.by == "spot" ? row.spot_usd_hour
                                           : (c.busy_hours_month > 0 ? row.owned_usd_month / c.busy_hours_month : 0);
  row.usd_per_m_output = tps > 0 && per_hour > 0 ? per_hour / (tps * 3600) * 1e6 : 0;
  row.watts = c.watts / c.replicas * row.replicas;
  // Replicas added in the replay may break the budget or the power cap.
  if (row.meets && q.max_usd_hour > 0 && row.usd_hour > q.max_usd_hour)
    row.meets = false, row.binding = TrF("over the budget with {0} replicas: {1}/h",
                                         {std::to_string(row.replicas), FormatUsd(row.usd_hour, 2)});
  if (row.meets && q.max_watts > 0 && row.watts > q.max_watts)
    row.meets = false, row.binding = TrF("over the power cap with {0} replicas: {1} W",
                                         {std::to_string(row.replicas), FormatFixed(row.watts, 0)});
  o.rows.push_back(std::move(row));
  ++next_final, next_replicas = 0;
}

void PlanSearch::State::Finish() {
  PlanResult& o = *out;
  auto measure = [&](const PlanRow& r) {
    return q.by == "cloud" ? r.usd_hour : q.by == "spot" ? r.spot_usd_hour : r.owned_usd_month;
  };
  std::stable_sort(o.rows.begin(), o.rows.end(), [&](const PlanRow& a, const PlanRow& b) {
    if (a.meets != b.meets) return a.meets;
    if (measure(a) != measure(b)) return measure(a) < measure(b);
    return a.run.tpot_s.p90 < b.run.tpot_s.p90;  // at one price, the faster first
  });
  for (PlanRow& a : o.rows) {
    if (!a.meets) continue;
    a.pareto = std::none_of(o.rows.begin(), o.rows.end(), [&](const PlanRow& b) {
      return &a != &b && b.meets && measure(b) <= measure(a) && b.run.tpot_s.p90 <= a.run.tpot_s.p90 &&
             (measure(b) < measure(a) || b.run.tpot_s.p90 < a.run.tpot_s.p90);
    });
  }
  o.notes.push_back(
      TrF("considered {0} setups (GPU x engine x format x layout, 1-{1} GPUs), {2} fit; the {3} cheapest by "
          "the screen replayed ({4} runs of up to {5} requests)",
          {FormatCount(o.considered), std::to_string(q.max_gpus), FormatCount(o.fitted),
           FormatCount(static_cast<long long>(pass.size())), FormatCount(o.replayed), FormatCount(kReplayed)}));
  phase = kDone;
}

WorkloadSpec PlanShare(const WorkloadSpec& w, int replicas) {
  WorkloadSpec share = w;
  replicas = std::max(1, replicas);
  if (w.rate > 0)
    share.rate = w.rate / replicas;
  else
    share.concurrency = std::max(1, (w.concurrency + replicas - 1) / replicas);
  return share;
}

std::string PlanRowText(const Catalog& catalog, const PlanRow& row) {
  const Gpu* g = catalog.FindGpu(row.s.gpu);
  const EngineProfile* e = catalog.FindEngine(row.s.engine);
  const WeightFormat* w = catalog.FindWeightFormat(row.s.weights);
  const std::string setup = std::to_string(row.s.Gpus()) + " x " + (g ? g->name : row.s.gpu) + " (" +
                            LayoutText(row.s) + "), " + (e ? e->name : row.s.engine) + ", " +
                            (w ? w->name : row.s.weights);
  return row.replicas > 1 ? TrF("{0} replicas of {1}", {std::to_string(row.replicas), setup}) : setup;
}

PlanSearch::PlanSearch() : st_(std::make_unique<State>()) {}
PlanSearch::PlanSearch(PlanSearch&&) noexcept = default;
PlanSearch& PlanSearch::operator=(PlanSearch&&) noexcept = default;
PlanSearch::~PlanSearch() = default;

PlanSearch::PlanSearch(const Catalog& catalog, PlanQuery q) : st_(std::make_unique<State>()) {
  State& st = *st_;
  st.catalog = &catalog;
  st.q = std::move(q);
  const PlanQuery& pq = st.q;
  auto fail = [&](std::string why) { st.out = Error{std::move(why)}; };
  if (pq.by != "cloud" && pq.by != "spot" && pq.by != "owned") {
    fail("by: cloud, spot or owned");
    return;
  }
  if (pq.max_gpus < 1 || pq.max_gpus > 64) {
    fail("max-gpus: 1 to 64");
    return;
  }
  st.model = catalog.FindModel(pq.base.model);
  if (!st.model) {
    fail("model: unknown model '" + pq.base.model + "'");
    return;
  }
  Result<std::vector<Request>> requests = GenerateRequests(pq.workload);
  if (!requests) {
    fail(requests.error());
    return;
  }
  for (const Request& r : *requests) {
    st.mean_prompt += r.prompt, st.mean_output += r.output;
    st.longest = std::max<long long>(st.longest, static_cast<long long>(r.prompt) + r.output);
  }
  st.mean_prompt /= static_cast<double>(requests->size());
  st.mean_output /= static_cast<double>(requests->size());
  if (st.model->max_context > 0 && st.longest > st.model->max_context) {
    fail("input: the longest request is " + FormatCount(st.longest) + " tokens, beyond " + st.model->name +
         "'s window of " + FormatCount(st.model->max_context) + " tokens");
    return;
  }
  st.closed = pq.workload.rate == 0;
  st.facts = std::make_unique<ModelFacts>(CountFacts(*st.model));
  st.ceilings = std::make_unique<CeilingTable>(catalog);
  st.vendor = Lower(pq.vendor);
  for (const Gpu& g : catalog.gpus)
    if (st.vendor.empty() || Lower(g.vendor).find(st.vendor) != std::string::npos ||
        Lower(g.id).find(st.vendor) != std::string::npos)
      st.gpus.push_back(&g);
  st.phase = State::kScreen;
}

bool PlanSearch::Step(double budget_ms) {
  State& st = *st_;
  if (st.phase == State::kDone) return false;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  do {
    if (st.phase == State::kScreen) {
      if (st.next_gpu < st.gpus.size()) {
        st.ScreenGpu(*st.gpus[st.next_gpu++]);
        continue;
      }
      // The screen is complete: its tallies, then the cheapest go on to the replay.
      for (const auto& [why, n] : st.dropped) {
        st.out->screened_out += n;
        st.out->notes.push_back(TrF("{0} screened out: {1}", {FormatCount(n), Tr(why.c_str())}));
      }
      std::stable_sort(st.pass.begin(), st.pass.end(),
                       [](const Screened& a, const Screened& b) { return a.measure < b.measure; });
      if (st.pass.size() > static_cast<size_t>(std::max(1, st.q.finalists)))
        st.pass.resize(static_cast<size_t>(std::max(1, st.q.finalists)));
      st.phase = State::kReplay;
    } else if (st.phase == State::kReplay) {
      if (st.next_final < st.pass.size())
        st.ReplayOne();
      else
        st.Finish();
    }
  } while (st.phase != State::kDone && elapsed() < budget_ms);
  st.ms += elapsed();
  if (st.phase == State::kDone && st.out) st.out->ms = st.ms;
  return st.phase != State::kDone;
}

bool PlanSearch::done() const {
  return st_->phase == State::kDone;
}

double PlanSearch::progress() const {
  const State& st = *st_;
  if (st.phase == State::kDone) return 1;
  // The screen is about a third of the work natively; each finalist is one to four replays.
  const double screen = st.gpus.empty() ? 1 : static_cast<double>(st.next_gpu) / static_cast<double>(st.gpus.size());
  if (st.phase == State::kScreen) return 0.3 * screen;
  const double replay = st.pass.empty() ? 1 : static_cast<double>(st.next_final) / static_cast<double>(st.pass.size());
  return 0.3 + 0.7 * replay;
}

std::string PlanSearch::stage() const {
  const State& st = *st_;
  if (st.phase == State::kDone) return "done";
  if (st.phase == State::kScreen)
    return TrF("screening: {0} of {1} GPUs", {std::to_string(st.next_gpu), std::to_string(st.gpus.size())});
  return TrF("replaying: {0} of {1} setups", {std::to_string(st.next_final), std::to_string(st.pass.size())});
}

const Result<PlanResult>& PlanSearch::result() const {
  return st_->out;
}
const PlanQuery& PlanSearch::query() const {
  return st_->q;
}

Result<PlanResult> PlanServing(const Catalog& catalog, const PlanQuery& q) {
  PlanSearch search(catalog, q);
  while (search.Step(1e9)) {
  }
  return search.result();
}

Report PlanReport(const Catalog& catalog, const PlanQuery& q, const PlanResult& p) {
  Report r;
  const Model* m = catalog.FindModel(q.base.model);
  const std::string model = m ? m->name : q.base.model;
  r.title = q.by == "cloud"  ? TrF("gpuplan plan: {0}, the cheapest setups to rent on demand", {model})
            : q.by == "spot" ? TrF("gpuplan plan: {0}, the cheapest setups to rent on spot", {model})
                             : TrF("gpuplan plan: {0}, the cheapest setups to own", {model});
  r.lines.push_back(
      TrF("{0} requests, {1}; SLA: {2}, {3}",
          {FormatCount(q.workload.requests),
           q.workload.rate > 0           ? TrF("Poisson arrivals at {0}/s", {FormatShort(q.workload.rate)})
           : q.workload.concurrency == 1 ? TrF("{0} client at once", {FormatCount(q.workload.concurrency)})
                                         : TrF("{0} clients at once", {FormatCount(q.workload.concurrency)}),
           q.ttft_p90_s > 0 ? "TTFT p90 <= " + FormatSeconds(q.ttft_p90_s) : std::string(Tr("no TTFT limit")),
           q.tpot_p90_s > 0 ? "TPOT p90 <= " + FormatSeconds(q.tpot_p90_s) : std::string(Tr("no TPOT limit"))}));
  // Money in the scenario's currency (cost.h ScenarioMoney).
  const Money money = ScenarioMoney(catalog, q.base);
  const std::string sym = MoneySymbol(money);
  if (!money.basis.empty()) r.lines.push_back(TrF("money in {0}: {1}", {money.code, money.basis}));
  Records t{{{"gpu", Tr("GPU")},
             {"gpus", Tr("GPUs"), true},
             {"layout", Tr("layout")},
             {"replicas", Tr("replicas"), true},
             {"engine", Tr("engine")},
             {"weights", Tr("weights")},
             {"usd_hour", TrF("{0}/h on demand", {sym}), true},
             {"spot_usd_hour", TrF("{0}/h spot", {sym}), true},
             {"owned_usd_month", TrF("{0}/month owned", {sym}), true},
             {"usd_per_m_output", TrF("{0}/1M output", {sym}), true},
             {"ttft_p90_ms", "TTFT p90 ms", true},
             {"tpot_p90_ms", "TPOT p90 ms", true},
             {"output_tokens_per_s", Tr("output tok/s"), true},
             {"verdict", Tr("verdict")}},
            {}};
  auto usd = [&](double v, int d) { return v > 0 ? Number(v * money.per_usd, FormatMoney(v, money, d)) : Unknown(); };
  for (const PlanRow& row : p.rows) {
    const Gpu* g = catalog.FindGpu(row.s.gpu);
    const EngineProfile* e = catalog.FindEngine(row.s.engine);
    const WeightFormat* w = catalog.FindWeightFormat(row.s.weights);
    const double tps = row.run.output_tokens_per_s * row.replicas;
    t.rows.push_back(
        {Text(g ? g->name : row.s.gpu), Number(static_cast<double>(row.s.Gpus()), std::to_string(row.s.Gpus())),
         Text(LayoutText(row.s)), Number(row.replicas, std::to_string(row.replicas)), Text(e ? e->name : row.s.engine),
         Text(w ? w->name : row.s.weights), usd(row.usd_hour, 2), usd(row.spot_usd_hour, 2),
         usd(row.owned_usd_month, 0), usd(row.usd_per_m_output, 3),
         Number(row.run.ttft_s.p90 * 1000, FormatFixed(row.run.ttft_s.p90 * 1000, 0)),
         Number(row.run.tpot_s.p90 * 1000, FormatFixed(row.run.tpot_s.p90 * 1000, 1)), Number(tps, FormatFixed(tps, 0)),
         Text(row.meets ? (row.pareto ? Tr("meets the SLA (Pareto)") : Tr("meets the SLA")) : row.binding)});
  }
  r.sections.push_back({Tr("Setups replayed, cheapest first"), std::move(t)});
  const PlanRow* best = nullptr;
  for (const PlanRow& row : p.rows)
    if (row.meets) {
      best = &row;
      break;
    }
  if (best) {
    r.after.push_back(TrF("CHEAPEST: {0}", {PlanRowText(catalog, *best)}));
    const WorkloadSpec share = PlanShare(q.workload, best->replicas);
    r.after.push_back("gpuplan serve --state '" + EncodeState(best->s) + "'" +
                      (q.workload.rate > 0 ? " --rate " + FormatShort(share.rate, 4)
                                           : " --clients " + std::to_string(share.concurrency)) +
                      "   # " + Tr("one replica at its share of the load, with its launch command"));
  } else {
    r.after.push_back(p.rows.empty() ? Tr("NOTHING REPLAYED MEETS THE SLA: no setup passed the screen (see the notes)")
                                     : Tr("NOTHING REPLAYED MEETS THE SLA: the closest are listed with what binds"));
  }
  r.notes = p.notes;
  if (best)
    if (const EngineProfile* e = catalog.FindEngine(best->s.engine); e && e->calibration.serve_tpot.cases > 0) {
      const EngineCalibration& k = e->calibration;
      r.notes.push_back(
          TrF("how sure: published {0} runs measured {1}-{2}x the simulated TPOT and {3}-{4}x its TTFT "
              "(p10-p90): a setup close to the SLA may miss it in practice",
              {e->name, FormatShort(k.serve_tpot.lo, 2), FormatShort(k.serve_tpot.hi, 2),
               FormatShort(k.serve_ttft.lo, 2), FormatShort(k.serve_ttft.hi, 2)}));
    }
  r.assumptions = {
      Tr("replicas share the load evenly (a load balancer in front); each is replayed at its share"),
      Tr("the screen estimates each setup's largest batch within the TPOT target from the step model, "
         "then the simulator replays the cheapest; setups it screened out are not replayed"),
      Tr("formats searched: 16-bit, FP8 where the GPU has FP8, AWQ 4-bit, NVFP4 (TensorRT-LLM on FP4 parts), "
         "GGUF Q4_K_M and Q8_0 (llama.cpp); 1, 2, 4 ... GPUs per replica, as tensor parallel, pipeline stages, or "
         "(a mixture of experts) tensor parallel with expert parallelism; one node per replica")};
  return r;
}

std::string PlanJson(const Catalog& catalog, const PlanQuery& q, const PlanResult& p, const std::string& state) {
  (void)catalog;
  nlohmann::ordered_json j;
  j["schema"] = "gpuplan.plan/1";
  if (!state.empty()) j["state"] = state;
  j["model"] = q.base.model;
  j["workload"] = {{"requests", q.workload.requests}, {"rate", q.workload.rate}, {"clients", q.workload.concurrency}};
  j["sla"] = {{"ttft_p90_s", q.ttft_p90_s}, {"tpot_p90_s", q.tpot_p90_s}};
  j["by"] = q.by;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const PlanRow& row : p.rows)
    rows.push_back({{"state", EncodeState(row.s)},
                    {"gpu", row.s.gpu},
                    {"gpus", row.s.Gpus()},
                    {"tp", row.s.tp},
                    {"pp", std::max(1, row.s.pp)},
                    {"ep", row.s.ep == 1},
                    {"replicas", row.replicas},
                    {"engine", row.s.engine},
                    {"weights", row.s.weights},
                    {"kv", row.s.kv},
                    {"usd_hour", row.usd_hour},
                    {"spot_usd_hour", row.spot_usd_hour},
                    {"owned_usd_month", row.owned_usd_month},
                    {"usd_per_m_output", row.usd_per_m_output},
                    {"ttft_p90_s", row.run.ttft_s.p90},
                    {"tpot_p90_s", row.run.tpot_s.p90},
                    {"output_tokens_per_s", row.run.output_tokens_per_s * row.replicas},
                    {"meets", row.meets},
                    {"pareto", row.pareto},
                    {"binding", row.binding}});
  j["rows"] = rows;
  j["considered"] = p.considered;
  j["fitted"] = p.fitted;
  j["replayed"] = p.replayed;
  j["notes"] = p.notes;
  return j.dump(2);
}

}  // namespace gpuplan
