#include "gpuplan/calibrate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"

#include "gpuplan/ceilings.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/resolve.h"
#include "gpuplan/speed.h"
#include "gpuplan/units.h"

namespace gpuplan {

using nlohmann::json;

std::string CaseGroup(const std::string& kind) {
  return kind == "weights_gib" || kind == "kv_cache_gib" || kind == "kv_bytes_per_token" ||
                 kind == "peak_memory_gib" || kind == "total_memory_gib"
             ? "memory"
             : "speed";
}

namespace {

double UnitScale(const std::string& unit) {
  if (unit == "GiB") return kGiB;
  if (unit == "GB") return kGB;
  if (unit == "MiB") return kMiB;
  if (unit == "MB") return 1e6;
  if (unit == "KiB") return 1024;
  if (unit == "KB" || unit == "kB") return 1e3;
  if (unit == "bytes" || unit == "B") return 1;
  if (unit == "s") return 1;
  if (unit == "ms") return 1e-3;
  if (unit == "tokens/s") return 1;
  return 0;
}

long long IntField(const json& j, const char* key, long long fallback) {
  const double v = detail::JsonNumber(j, key, -1);
  return v >= 0 ? static_cast<long long>(v) : fallback;
}

}  // namespace

std::string SourceKey(const std::string& url) {
  std::string u = url;
  for (const char* scheme : {"https://", "http://"})
    if (u.rfind(scheme, 0) == 0) u = u.substr(std::string(scheme).size());
  if (u.rfind("www.", 0) == 0) u = u.substr(4);
  u = u.substr(0, u.find_first_of("?#"));
  // A GitHub repository is one source (its README, notebooks, PRs and docs are one author's or
  // one project's runs); a device run is one source; a web page is itself.
  if (u.rfind("github.com/", 0) == 0) {
    const size_t owner = u.find('/', 11);
    const size_t repo = owner == std::string::npos ? owner : u.find('/', owner + 1);
    return repo == std::string::npos ? u : u.substr(0, repo);
  }
  while (!u.empty() && u.back() == '/') u.pop_back();
  return u.empty() ? "(no source)" : u;
}

Result<std::vector<ReferenceCase>> ParseReferenceCases(const std::string& text) {
  json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{"reference file: " + detail::JsonErrorAt(text)};
  if (!doc.is_object()) return Error{"reference file: not a JSON object"};
  auto list = doc.find("cases");
  if (list == doc.end() || !list->is_array()) return Error{"reference file: 'cases' must be an array"};
  std::vector<ReferenceCase> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const json& j = (*list)[i];
    ReferenceCase c;
    c.id = detail::JsonString(j, "id");
    c.kind = detail::JsonString(j, "kind");
    c.engine = detail::JsonString(j, "engine");
    c.model = detail::JsonString(j, "model");
    c.weights = detail::JsonString(j, "weights");
    c.kv = detail::JsonString(j, "kv");
    c.gpu = detail::JsonString(j, "gpu");
    if (auto g = j.find("gpu_candidates"); c.gpu.empty() && g != j.end() && g->is_array())
      for (const json& id : *g)
        if (id.is_string()) c.gpu_candidates.push_back(id.get<std::string>());
    c.unit = detail::JsonString(j, "unit");
    c.gap = detail::JsonString(j, "catalog_gap");
    c.not_modelled = detail::JsonString(j, "not_modelled");
    if (auto src = j.find("source"); src != j.end() && src->is_object()) c.source_url = detail::JsonString(*src, "url");
    // A fork's copy of a project's documents is that project's source ("source_group").
    c.source = detail::JsonString(j, "source_group");
    if (c.source.empty()) c.source = SourceKey(c.source_url);
    c.tp = static_cast<int>(std::max(IntField(j, "tp", 0), IntField(j, "count", 1)));
    c.ep = static_cast<int>(IntField(j, "ep", 1));
    c.split = detail::JsonString(j, "split_mode");
    if (auto u = j.find("gpu_memory_utilization"); u != j.end() && u->is_number()) c.mem_util = u->get<double>();
    c.batch = IntField(j, "batch", 0);  // 0: not stated (a throughput run at full load)
    c.prompt = IntField(j, "prompt_tokens", 0);
    c.output = IntField(j, "output_tokens", 0);
    c.context = IntField(j, "context", 0);
    auto m = j.find("measured");
    const std::string where = "reference case " + std::to_string(i) + " ('" + c.id + "')";
    if (c.id.empty() || c.kind.empty()) return Error{where + ": needs id and kind"};
    if (m == j.end() || !m->is_number() || !(m->get<double>() > 0)) return Error{where + ": 'measured' must be a number > 0"};
    c.measured = m->get<double>();
    // Units as the sources print them, normalised: per-GPU throughput to the whole setup,
    // milliseconds per token to tokens per second.
    if (c.unit.rfind("tokens/s", 0) == 0) {
      if (c.unit.find("per GPU") != std::string::npos) c.measured *= std::max(1, c.tp);
      c.unit = "tokens/s";
    } else if (c.unit.rfind("ms/token", 0) == 0) {
      c.measured = 1000 / c.measured;
      c.unit = "tokens/s";
    }
    if (UnitScale(c.unit) == 0 && c.kind != "kv_bytes_per_token") return Error{where + ": unknown unit '" + c.unit + "'"};
    if (c.tp < 1) c.tp = 1;
    out.push_back(c);
  }
  return out;
}

namespace {

// Why a case's scenario does not resolve, in the runner's words.
std::string NotInCatalog(const std::string& error, const Scenario& s) {
  const std::string field = UnresolvedField(error);
  if (field == "model") return "model '" + s.model + "' not in the catalog";
  if (field == "gpu") return "GPU '" + s.gpu + "' not in the catalog";
  if (field == "weights") return "weight format '" + s.weights + "' not in the catalog";
  if (field == "kv") return "KV format '" + s.kv + "' not in the catalog";
  if (field == "engine") return "engine '" + s.engine + "' not in the catalog";
  return error;
}

CaseResult RunOneGpu(const Catalog& catalog, const ReferenceCase& c);

// The case's GPU, or its first candidate (the candidates are one family: same vendor, class).
const std::string& CaseGpu(const ReferenceCase& c) {
  return c.gpu.empty() && !c.gpu_candidates.empty() ? c.gpu_candidates.front() : c.gpu;
}

CaseResult RunCase(const Catalog& catalog, const ReferenceCase& c) {
  if (!c.gpu.empty() || c.gpu_candidates.empty() || !c.gap.empty() || !c.not_modelled.empty())
    return RunOneGpu(catalog, c);
  // A form factor the source leaves open: every candidate, and the geometric mean of their
  // estimates (the candidates differ by a few percent in bandwidth; no side is chosen).
  CaseResult r;
  r.c = &c;
  double log_sum = 0;
  for (const std::string& gpu : c.gpu_candidates) {
    ReferenceCase one = c;
    one.gpu = gpu;
    one.gpu_candidates.clear();
    const CaseResult x = RunOneGpu(catalog, one);
    if (!x.ran) return r.skipped = x.skipped + " (candidate GPU '" + gpu + "')", r;
    log_sum += std::log(x.estimated);
  }
  r.estimated = std::exp(log_sum / static_cast<double>(c.gpu_candidates.size()));
  r.ratio = c.measured / r.estimated;
  r.ran = true;
  return r;
}

CaseResult RunOneGpu(const Catalog& catalog, const ReferenceCase& c) {
  CaseResult r;
  r.c = &c;
  if (!c.gap.empty()) return r.skipped = "catalog gap: " + c.gap, r;
  if (!c.not_modelled.empty()) return r.skipped = "not modelled: " + c.not_modelled, r;
  Scenario s;
  s.model = c.model;
  s.weights = c.weights.empty() ? "bf16" : c.weights;
  s.kv = c.kv.empty() ? "fp16" : c.kv;
  s.gpu = c.gpu;
  s.tp = c.tp;
  s.engine = c.engine.empty() ? "vllm" : c.engine;
  s.ep = c.ep > 1 ? 1 : 0;  // the scenario's expert parallelism is on or off (over all tp GPUs)
  if (c.split == "row" || c.split == "layer" || c.split == "tensor" || c.split == "dp-attention") s.split = c.split;
  if (c.mem_util > 0 && c.mem_util <= 1) s.mem_util = c.mem_util;
  s.batch = std::max<long long>(1, c.batch);
  // The KV cache per token and the weights do not depend on the GPU: those cases run on any.
  Result<Resolved> first = Resolve(catalog, s);
  const bool any_gpu = c.kind == "kv_bytes_per_token" || c.kind == "weights_gib";
  if (!first && UnresolvedField(first.error()) == "gpu" && any_gpu)
    s.gpu = catalog.gpus.empty() ? "" : catalog.gpus.front().id;
  const Result<Resolved> resolved = first ? first : Resolve(catalog, s);
  if (!resolved) return r.skipped = NotInCatalog(resolved.error(), s), r;
  const Resolved& ids = *resolved;
  const double scale = UnitScale(c.unit);

  // Token counts: llama-bench's tgN starts from an empty cache; ppN is one N-token prompt.
  if (c.kind == "decode_tps") {
    s.prompt = std::max<long long>(1, c.prompt);
    s.context = s.prompt + std::max<long long>(1, c.output > 0 ? c.output : 128);
  } else if (c.kind == "prefill_tps" || c.kind == "ttft_s") {
    s.prompt = std::max<long long>(1, c.prompt > 0 ? c.prompt : 512);
    s.context = s.prompt + std::max<long long>(1, c.output);
  } else if (c.kind == "throughput_tps") {
    s.prompt = std::max<long long>(1, c.prompt > 0 ? c.prompt : 128);
    s.context = s.prompt + std::max<long long>(1, c.output > 0 ? c.output : 128);
  } else {
    s.context = c.context > 0 ? c.context : std::max<long long>(1, c.prompt + c.output);
    s.prompt = std::min(s.context, std::max<long long>(1, c.prompt));
  }
  if (c.kind == "kv_bytes_per_token") {
    r.estimated = KvBytesPerToken(ids.model, ids.kv.bytes_per_element) / (scale > 0 ? scale : 1);
  } else {
    Result<MemoryEstimate> mem = EstimateMemory(ids, s);
    if (!mem) return r.skipped = mem.error(), r;
    if (c.kind == "throughput_tps" && c.batch == 0) {
      // Benchmarks at full load (TensorRT-LLM's perf overview) run as many sequences as the
      // KV cache holds; 1,024 caps it where the scheduler would.
      s.batch = std::clamp<long long>(mem->max_batch, 1, 1024);
      mem = EstimateMemory(ids, s);
      if (!mem) return r.skipped = mem.error(), r;
    }
    if (c.kind == "weights_gib") {
      r.estimated = mem->terms[0].bytes / scale;
    } else if (c.kind == "kv_cache_gib") {
      // vLLM-style engines log the pool they allocate; llama.cpp logs the cache for n_ctx.
      r.estimated = (ids.engine.memory_fraction > 0 ? mem->kv_pool_bytes : mem->terms[1].bytes) / scale;
    } else if (c.kind == "peak_memory_gib" || c.kind == "total_memory_gib") {
      // Engines that pre-allocate to their cap (vLLM) hold the cap; the others what they need.
      const bool preallocates = ids.engine.memory_cap == MemoryCap::kTotal;
      r.estimated = (preallocates ? mem->usable_bytes : mem->total_bytes) / scale;
    } else {
      Result<SpeedEstimate> sp = EstimateSpeed(ids, s, *mem);
      if (!sp) return r.skipped = sp.error(), r;
      if (c.kind == "decode_tps") {
        r.estimated = sp->tokens_per_s_user;
      } else if (c.kind == "prefill_tps") {
        r.estimated = sp->prefill_tokens_per_s;
      } else if (c.kind == "ttft_s") {
        // Every sequence of the batch arrives at once: the batch's prefill, then one step.
        r.estimated = (sp->prefill.seconds + sp->decode.seconds) / scale;
      } else if (c.kind == "throughput_tps") {
        // Output tokens per second over whole requests: the batch's prefill, then its decode.
        const double out_tokens = static_cast<double>(s.context - s.prompt);
        const double t = sp->prefill.seconds + out_tokens * sp->decode.seconds;
        r.estimated = t > 0 ? static_cast<double>(s.batch) * out_tokens / t : 0;
      } else {
        return r.skipped = "unknown kind '" + c.kind + "'", r;
      }
    }
  }
  if (!(r.estimated > 0) || !std::isfinite(r.estimated)) return r.skipped = "estimate is not positive", r;
  r.ratio = c.measured / r.estimated;
  r.ran = true;
  return r;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 1;
  std::sort(v.begin(), v.end());
  const double pos = p * static_cast<double>(v.size() - 1);
  const size_t i = static_cast<size_t>(pos);
  const double f = pos - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

double SymmetricError(double ratio) { return std::max(ratio, 1 / ratio) - 1; }

}  // namespace

std::vector<CaseResult> RunReferenceCases(const Catalog& catalog, const std::vector<ReferenceCase>& cases) {
  std::vector<CaseResult> out;
  out.reserve(cases.size());
  for (const ReferenceCase& c : cases) out.push_back(RunCase(catalog, c));
  return out;
}

ErrorStats Summarise(const std::vector<CaseResult>& results, const std::string& group, const std::string& engine,
                     const std::string& kind) {
  ErrorStats st;
  std::vector<double> errors, ratios;
  for (const CaseResult& r : results) {
    if (!r.ran) continue;
    if (!group.empty() && CaseGroup(r.c->kind) != group) continue;
    if (!engine.empty() && r.c->engine != engine) continue;
    if (!kind.empty() && r.c->kind != kind) continue;
    const double e = SymmetricError(r.ratio);
    errors.push_back(e);
    ratios.push_back(r.ratio);
    if (e > st.worst_abs_error) st.worst_abs_error = e, st.worst_case = r.c->id;
  }
  st.n = static_cast<int>(errors.size());
  if (st.n == 0) return st;
  st.median_abs_error = Percentile(errors, 0.5);
  st.p90_abs_error = Percentile(errors, 0.9);
  st.p10_ratio = std::min(1.0, Percentile(ratios, 0.1));
  st.p90_ratio = std::max(1.0, Percentile(ratios, 0.9));
  return st;
}

namespace {

bool IsDecodeKind(const std::string& k) { return k == "decode_tps" || k == "throughput_tps"; }
bool IsPrefillKind(const std::string& k) { return k == "prefill_tps" || k == "ttft_s"; }
bool IsSpeedKind(const std::string& k) { return IsDecodeKind(k) || IsPrefillKind(k); }

// Median |log ratio| of the selected cases under a candidate calibration.
double Loss(const Catalog& cat, const std::vector<ReferenceCase>& cases, bool (*pick)(const std::string&)) {
  std::vector<double> logs;
  for (const ReferenceCase& c : cases) {
    if (!pick(c.kind)) continue;
    CaseResult r = RunCase(cat, c);
    if (r.ran) logs.push_back(std::abs(std::log(r.ratio)));
  }
  if (logs.empty()) return 1e9;
  // Median plus a little of the mean so the fit does not ignore the tails.
  double mean = 0;
  for (double l : logs) mean += l;
  mean /= static_cast<double>(logs.size());
  return Percentile(logs, 0.5) + 0.25 * mean;
}

}  // namespace

constexpr double kMinBandwidthEfficiency = 0.55;
// Prefill's compute efficiency is a share of the attainable GEMM rate (ceilings.json, measured
// GEMM runs per GPU kind), which a prefill of hundreds of tokens per GEMM nearly reaches; a fit
// below half of it would be a cost the model does not have (a serving stack's queueing and
// HTTP time in a TTFT, say) passed off as slow matrix multiplication.
constexpr double kMinComputeEfficiency = 0.5;

Catalog FitCalibration(const Catalog& catalog, const std::vector<ReferenceCase>& cases, std::vector<std::string>& log,
                       int min_cases) {
  Catalog cat = catalog;
  auto count_of = [&](const std::string& engine, bool (*pick)(const std::string&)) {
    int n = 0;
    for (const ReferenceCase& c : cases)
      if ((engine.empty() || c.engine == engine) && pick(c.kind) && RunCase(catalog, c).ran) ++n;
    return n;
  };
  auto subset = [&](const std::string& engine) {
    std::vector<ReferenceCase> out;
    for (const ReferenceCase& c : cases)
      if (engine.empty() || c.engine == engine) out.push_back(c);
    return out;
  };
  // The pooled fit: every engine's cases with each case scored under its own engine profile,
  // all profiles sharing one candidate calibration.
  // token_work: whether the engines fitted run per-token elementwise kernels of their own
  // (EngineProfile::fused_elementwise false); fused engines keep prefill_token_layer at 0.
  auto fit = [&](const std::vector<ReferenceCase>& sel, EngineCalibration start, const std::string& only_engine,
                 bool token_work) {
    EngineCalibration best = start;
    auto apply = [&](const EngineCalibration& k) {
      for (EngineProfile& e : cat.engines)
        if (only_engine.empty() || e.id == only_engine || e.base == only_engine) {
          e.calibration.decode_bw_efficiency = k.decode_bw_efficiency;
          e.calibration.prefill_compute_efficiency = k.prefill_compute_efficiency;
          e.calibration.kernel_s = k.kernel_s;
          e.calibration.prefill_token_layer_s = k.prefill_token_layer_s;
        }
    };
    // Coordinate descent, two rounds: bandwidth efficiency and per-kernel overhead on the
    // decode-side cases, then compute efficiency and per-token work on every speed case
    // (large-batch throughput is compute-bound, so it informs the compute efficiency too).
    // Each pair is searched coarse then fine around the coarse best (about a tenth of the
    // full grid's runs, so leave-one-source-out can refit once per source).
    // Dense models' cases: where streaming the weights dominates a decode step, so they alone
    // say how fast an engine streams (MoE steps at small batch are dominated by their many
    // small kernels, and would otherwise pull the streaming efficiency down).
    std::vector<ReferenceCase> dense;
    int dense_decode = 0;
    for (const ReferenceCase& c : sel)
      if (const Model* m = cat.FindModel(c.model); m && !m->moe) {
        dense.push_back(c);
        dense_decode += IsDecodeKind(c.kind);
      }
    const std::vector<ReferenceCase>* on = &sel;
    auto search2 = [&](double a_lo, double a_hi, double a_step, const std::vector<double>& b_values,
                       bool (*pick)(const std::string&), auto set) {
      double best_loss = 1e18, best_a = a_lo, best_b = b_values.front();
      for (double a = a_lo; a <= a_hi + 1e-9; a += a_step)
        for (double b : b_values) {
          EngineCalibration k = best;
          set(k, a, b);
          apply(k);
          const double l = Loss(cat, *on, pick);
          if (l < best_loss) best_loss = l, best_a = a, best_b = b;
        }
      set(best, best_a, best_b);
      return std::pair{best_a, best_b};
    };
    auto geometric = [](double lo, double hi, double factor) {
      std::vector<double> v{0};  // 0, then lo to hi geometric
      for (double x = lo; x <= hi * 1.0001; x *= factor) v.push_back(x);
      return v;
    };
    auto set_decode = [](EngineCalibration& k, double bw, double us) {
      k.decode_bw_efficiency = bw;
      k.kernel_s = us * 1e-6;
    };
    auto set_prefill = [](EngineCalibration& k, double c, double tl) {
      k.prefill_compute_efficiency = c;
      k.prefill_token_layer_s = tl * 1e-6;
    };
    for (int round = 0; round < 2; ++round) {
      // Bandwidth efficiency 0.55-1 of the attainable bandwidth (ceilings.h: what copy kernels
      // reach, 77-89% of the datasheet on H100/H200/A100/MI300X/RTX 3090/4090): a decode GEMV
      // streams at most of that, and a fit below 0.55 would be the kernel count's time (or an
      // unmodelled cost) passed off as slow streaming. Per kernel: 0, or 0.1 to 200 µs.
      // With three or more dense decode cases the streaming efficiency is fitted on them (with
      // the kernel time), then the kernel time alone on every decode case; else both on all.
      on = dense_decode >= 3 ? &dense : &sel;
      auto [bw, us] = search2(kMinBandwidthEfficiency, 1.0, 0.05, geometric(0.1, 200, 1.4), IsDecodeKind, set_decode);
      auto near = [](double x) {
        std::vector<double> v{x};
        if (x > 0)
          for (double y = x / 1.5; y <= x * 1.5; y *= 1.05) v.push_back(y);
        else
          v = {0, 0.05, 0.1};
        return v;
      };
      std::tie(bw, us) = search2(std::max(kMinBandwidthEfficiency, bw - 0.04), std::min(1.0, bw + 0.04), 0.01, near(us),
                                 IsDecodeKind, set_decode);
      if (on == &dense) {
        on = &sel;
        const double fixed_bw = bw;
        us = search2(fixed_bw, fixed_bw, 1, geometric(0.1, 200, 1.4), IsDecodeKind, set_decode).second;
        search2(fixed_bw, fixed_bw, 1, near(us), IsDecodeKind, set_decode);
      }
      on = &sel;
      const std::vector<double> tl_values =
          token_work ? std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4} : std::vector<double>{0};
      auto [c, tl] = search2(kMinComputeEfficiency, 1.0, 0.05, tl_values, IsSpeedKind, set_prefill);
      std::vector<double> near_tl;
      for (double x = std::max(0.0, tl - 0.5); x <= std::min(4.0, tl + 0.5) + 1e-9; x += 0.1)
        if (token_work || x == 0) near_tl.push_back(x);
      search2(std::max(kMinComputeEfficiency, c - 0.04), std::min(1.0, c + 0.04), 0.02, near_tl, IsSpeedKind, set_prefill);
    }
    apply(best);
    return best;
  };

  // 1. All engines together (the fallback for thin engines).
  // From a fixed start, so the fit is a function of the cases alone (not of the calibration
  // stored before it: a refit of a refit gives the same numbers).
  EngineCalibration start;
  start.decode_bw_efficiency = 0.9;
  start.prefill_compute_efficiency = 0.6;
  start.kernel_s = 5e-6;
  start.prefill_token_layer_s = 0;
  for (EngineProfile& e : cat.engines) e.calibration.by_vendor.clear();
  // Without per-token work: the pool is the fallback of engines with too few cases, and llama.cpp's
  // per-token time (its unfused ggml graph) is its own, not every engine's.
  EngineCalibration pooled = fit(cases, start, "", false);
  log.push_back("pooled: bw " + FormatFixed(pooled.decode_bw_efficiency, 2) + ", compute " +
                FormatFixed(pooled.prefill_compute_efficiency, 2) + ", " + FormatFixed(pooled.kernel_s * 1e6, 2) +
                " us/kernel");
  // 2. Each engine with enough cases of its own; then the thin ones borrow from the engine
  //    they name as alike (calibrate_like), else from the pooled fit.
  struct Fitted {
    EngineCalibration k;
    bool own_decode = false, own_prefill = false;
  };
  std::map<std::string, Fitted> fitted;
  std::map<std::string, std::vector<VendorCalibration>> vendor_fits;
  auto vendor_of = [&](const ReferenceCase& c) {
    const Gpu* g = cat.FindGpu(CaseGpu(c));
    return VendorKey(g ? g->vendor : "");
  };
  for (const EngineProfile& e : cat.engines) {
    if (!e.base.empty()) continue;  // a release of another engine: fitted with it (WithBands copies)
    const int nd = count_of(e.id, IsDecodeKind), np = count_of(e.id, IsPrefillKind);
    Fitted f{pooled, nd >= min_cases, np >= min_cases};
    // A vendor other than NVIDIA (every engine here is built for CUDA first) with min_cases
    // decode cases gets decode efficiencies of its own; the engine's are then fitted without its
    // cases, or borrowed (calibrate_like, pooled) when fewer than min_cases remain.
    std::vector<ReferenceCase> mine = subset(e.id);
    if (f.own_decode) {
      std::map<std::string, int> by;
      for (const ReferenceCase& c : mine)
        if (IsDecodeKind(c.kind) && RunCase(catalog, c).ran) ++by[vendor_of(c)];
      int left = nd;
      for (const auto& [vendor, n] : by) {
        if (vendor == "nvidia" || n < min_cases) continue;
        left -= n;
        std::vector<ReferenceCase> theirs, rest;
        for (const ReferenceCase& c : mine) (vendor_of(c) == vendor ? theirs : rest).push_back(c);
        const EngineCalibration v = fit(theirs, pooled, e.id, !e.fused_elementwise);
        vendor_fits[e.id].push_back({vendor, v.decode_bw_efficiency, v.kernel_s, n});
        log.push_back(e.id + " on " + vendor + ": " + std::to_string(n) + " decode/throughput cases -> bw " +
                      FormatFixed(v.decode_bw_efficiency, 2) + " and " + FormatFixed(v.kernel_s * 1e6, 2) + " us/kernel");
        // The vendor's prefill cases stay with the engine's fit.
        mine.clear();
        for (const ReferenceCase& c : rest) mine.push_back(c);
        for (const ReferenceCase& c : theirs)
          if (!IsDecodeKind(c.kind)) mine.push_back(c);
      }
      f.own_decode = left >= min_cases;
    }
    if (f.own_decode || f.own_prefill) {
      const EngineCalibration own = fit(mine, pooled, e.id, !e.fused_elementwise);
      if (f.own_decode) f.k.decode_bw_efficiency = own.decode_bw_efficiency, f.k.kernel_s = own.kernel_s;
      if (f.own_prefill)
        f.k.prefill_compute_efficiency = own.prefill_compute_efficiency, f.k.prefill_token_layer_s = own.prefill_token_layer_s;
    }
    fitted[e.id] = f;
  }
  // An engine's family: the engines joined to it by calibrate_like (vLLM and SGLang name
  // TensorRT-LLM, MLX names llama.cpp), i.e. engines built the same way (fused kernels replayed
  // from CUDA graphs; or ggml-style kernels). Where neither an engine nor the one it names has
  // enough cases, the family's cases fitted together stand in, before every engine's: a thin
  // server engine should not inherit llama.cpp's per-token work, nor Transformers' eager
  // Python overhead.
  auto root_of = [&](const std::string& id) {
    std::string at = id;
    for (int hops = 0; hops < 4; ++hops) {
      const EngineProfile* p = cat.FindEngine(at);
      if (!p || p->calibrate_like.empty()) break;
      at = p->calibrate_like;
    }
    return at;
  };
  std::map<std::string, Fitted> family_fits;
  auto family_fit = [&](const std::string& id) -> const Fitted* {
    const std::string root = root_of(id);
    if (auto it = family_fits.find(root); it != family_fits.end()) return &it->second;
    std::vector<ReferenceCase> theirs;
    for (const ReferenceCase& c : cases) {
      if (root_of(c.engine) != root) continue;
      // Cases of a vendor fitted on its own stay out (they have their own efficiencies).
      const auto& vf = vendor_fits[c.engine];
      const std::string v = vendor_of(c);
      if (IsDecodeKind(c.kind) &&
          std::any_of(vf.begin(), vf.end(), [&](const VendorCalibration& x) { return x.vendor == v; }))
        continue;
      theirs.push_back(c);
    }
    int nd = 0, np = 0;
    for (const ReferenceCase& c : theirs)
      if (RunCase(catalog, c).ran) nd += IsDecodeKind(c.kind), np += IsPrefillKind(c.kind);
    Fitted f{pooled, nd >= min_cases, np >= min_cases};
    if (f.own_decode || f.own_prefill) {
      const EngineProfile* r = cat.FindEngine(root);
      const EngineCalibration k = fit(theirs, pooled, "", !(r && r->fused_elementwise));
      if (f.own_decode) f.k.decode_bw_efficiency = k.decode_bw_efficiency, f.k.kernel_s = k.kernel_s;
      if (f.own_prefill)
        f.k.prefill_compute_efficiency = k.prefill_compute_efficiency, f.k.prefill_token_layer_s = k.prefill_token_layer_s;
    }
    return &family_fits.emplace(root, f).first->second;
  };
  for (EngineProfile& e : cat.engines) {
    if (!e.base.empty()) continue;
    Fitted f = fitted[e.id];
    std::string decode_from = f.own_decode ? "own" : "pooled", prefill_from = f.own_prefill ? "own" : "pooled";
    auto like = fitted.find(e.calibrate_like);
    const bool like_decode = like != fitted.end() && like->second.own_decode;
    const bool like_prefill = like != fitted.end() && like->second.own_prefill;
    if ((!f.own_decode && !like_decode) || (!f.own_prefill && !like_prefill)) {
      const Fitted* fam = family_fit(e.id);
      const std::string family = "family of " + root_of(e.id);
      if (!f.own_decode && !like_decode && fam->own_decode) {
        f.k.decode_bw_efficiency = fam->k.decode_bw_efficiency;
        f.k.kernel_s = fam->k.kernel_s;
        decode_from = family;
      }
      if (!f.own_prefill && !like_prefill && fam->own_prefill) {
        f.k.prefill_compute_efficiency = fam->k.prefill_compute_efficiency;
        f.k.prefill_token_layer_s = fam->k.prefill_token_layer_s;
        prefill_from = family;
      }
    }
    if (like != fitted.end()) {
      if (!f.own_decode && like->second.own_decode) {
        f.k.decode_bw_efficiency = like->second.k.decode_bw_efficiency;
        f.k.kernel_s = like->second.k.kernel_s;
        for (const VendorCalibration& v : vendor_fits[e.calibrate_like])  // and its vendors' own, where
          if (std::none_of(vendor_fits[e.id].begin(), vendor_fits[e.id].end(),  // this engine has none
                           [&](const VendorCalibration& mine_v) { return mine_v.vendor == v.vendor; }))
            vendor_fits[e.id].push_back(v);
        decode_from = "like " + e.calibrate_like;
      }
      if (!f.own_prefill && like->second.own_prefill) {
        f.k.prefill_compute_efficiency = like->second.k.prefill_compute_efficiency;
        f.k.prefill_token_layer_s = like->second.k.prefill_token_layer_s;
        prefill_from = "like " + e.calibrate_like;
      }
    }
    if (e.fused_elementwise) f.k.prefill_token_layer_s = 0;  // whatever it borrowed
    const EngineCalibration& k = f.k;
    e.calibration.decode_bw_efficiency = k.decode_bw_efficiency;
    e.calibration.prefill_compute_efficiency = k.prefill_compute_efficiency;
    e.calibration.kernel_s = k.kernel_s;
    e.calibration.prefill_token_layer_s = k.prefill_token_layer_s;
    e.calibration.by_vendor = vendor_fits[e.id];
    log.push_back(e.id + ": " + std::to_string(count_of(e.id, IsDecodeKind)) + " decode/throughput cases, " +
                  std::to_string(count_of(e.id, IsPrefillKind)) + " prefill/TTFT cases -> bw " +
                  FormatFixed(k.decode_bw_efficiency, 2) + " and " + FormatFixed(k.kernel_s * 1e6, 2) +
                  " us/kernel (" + decode_from + "), compute " + FormatFixed(k.prefill_compute_efficiency, 2) + " and " +
                  FormatFixed(k.prefill_token_layer_s * 1e6, 2) + " us/token/layer (" + prefill_from + ")");
  }
  return WithBands(cat, cases, min_cases);
}

namespace {

Band BandOf(const std::vector<CaseResult>& use, double lo_pct, double hi_pct) {
  std::vector<double> ratios;
  for (const CaseResult& r : use) ratios.push_back(r.ratio);
  Band b;
  b.cases = static_cast<int>(ratios.size());
  if (ratios.empty()) return b;
  b.lo = std::floor(std::min(1.0, Percentile(ratios, lo_pct)) * 100) / 100;
  b.hi = std::ceil(std::max(1.0, Percentile(ratios, hi_pct)) * 100) / 100;
  return b;
}

}  // namespace

Catalog WithBands(const Catalog& catalog, const std::vector<ReferenceCase>& cases, int min_cases) {
  Catalog cat = catalog;
  // Bands from the residuals: each engine's own when it has enough cases, else all.
  const std::vector<CaseResult> results = RunReferenceCases(cat, cases);
  // The kind of scenario each case is: dense or MoE, one or several GPUs, GPU vendor.
  struct Kind {
    bool moe = false, multi = false;
    std::string vendor;
  };
  std::vector<Kind> kinds(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const ReferenceCase& c = *results[i].c;
    const Model* m = cat.FindModel(c.model);
    const Gpu* g = cat.FindGpu(CaseGpu(c));
    kinds[i] = {m && m->moe.has_value(), c.tp > 1, VendorKey(g ? g->vendor : "")};
  }
  // A case of one of an engine's releases (engines.json "base") counts as the engine's.
  auto of_engine = [&](const std::string& id, const EngineProfile& e) {
    if (id == e.id) return true;
    const EngineProfile* p = cat.FindEngine(id);
    return p && p->base == e.id;
  };
  for (EngineProfile& e : cat.engines) {
    auto band = [&](const std::string& group, bool (*pick)(const std::string&)) {
      std::vector<CaseResult> mine, all;
      for (const CaseResult& r : results) {
        if (!r.ran || CaseGroup(r.c->kind) != group || (pick && !pick(r.c->kind))) continue;
        all.push_back(r);
        if (of_engine(r.c->engine, e)) mine.push_back(r);
      }
      if (static_cast<int>(mine.size()) < min_cases && !e.calibrate_like.empty()) {
        mine.clear();
        for (const CaseResult& r : all)
          if (r.c->engine == e.calibrate_like) mine.push_back(r);
      }
      const std::vector<CaseResult>& use = static_cast<int>(mine.size()) >= min_cases ? mine : all;
      return BandOf(use, 0.1, 0.9);
    };
    e.calibration.decode = band("speed", IsDecodeKind);
    e.calibration.prefill = band("speed", IsPrefillKind);
    e.calibration.memory = band("memory", nullptr);
    // Per kind of scenario, this engine's cases only (an engine's thin classes are not filled
    // from another engine: a missing class is what "extrapolated" reports).
    e.calibration.classes.clear();
    for (const char* phase : {"decode", "prefill"}) {
      bool (*pick)(const std::string&) = std::string(phase) == "decode" ? IsDecodeKind : IsPrefillKind;
      std::vector<CaseResult> every;
      std::map<std::tuple<bool, bool, std::string>, std::vector<CaseResult>> by_class;
      for (size_t i = 0; i < results.size(); ++i) {
        const CaseResult& r = results[i];
        if (!r.ran || !pick(r.c->kind)) continue;
        every.push_back(r);
        if (of_engine(r.c->engine, e)) by_class[{kinds[i].moe, kinds[i].multi, kinds[i].vendor}].push_back(r);
      }
      for (const auto& [key, list] : by_class) {
        ClassBand cb;
        cb.phase = phase;
        std::tie(cb.moe, cb.multi_gpu, cb.vendor) = key;
        cb.band = BandOf(list, 0.1, 0.9);
        e.calibration.classes.push_back(cb);
      }
      // Far from every case: the spread of all engines' cases (p5-p95), joined with the
      // engine's own band.
      Band wide = BandOf(every, 0.05, 0.95);
      const Band& own = std::string(phase) == "decode" ? e.calibration.decode : e.calibration.prefill;
      wide.lo = std::min(wide.lo, own.lo);
      wide.hi = std::max(wide.hi, own.hi);
      (std::string(phase) == "decode" ? e.calibration.decode_wide : e.calibration.prefill_wide) = wide;
    }
  }
  // An engine's other releases share its fit and bands (their speed cases are few or none).
  for (EngineProfile& e : cat.engines)
    if (const EngineProfile* base = e.base.empty() ? nullptr : cat.FindEngine(e.base)) e.calibration = base->calibration;
  return cat;
}

std::vector<KindErrors> KindErrorTable(const std::vector<CaseResult>& stored, const std::vector<CaseResult>& refit,
                                       const std::vector<CaseResult>& held_out) {
  std::vector<KindErrors> out;
  for (const char* kind : {"decode_tps", "throughput_tps", "prefill_tps", "ttft_s", "kv_cache_gib", "weights_gib",
                           "total_memory_gib", "peak_memory_gib"}) {
    KindErrors k;
    k.kind = kind;
    k.stored = Summarise(stored, "", "", kind);
    k.in_sample = Summarise(refit, "", "", kind);
    k.held_out = Summarise(held_out, "", "", kind);
    k.fitted = CaseGroup(kind) == "speed";
    if (k.stored.n + k.in_sample.n + k.held_out.n > 0) out.push_back(k);
  }
  return out;
}

std::vector<KindErrors> CeilingErrorTable(const Catalog& catalog) {
  // The figures as reference cases (measured = the figure's fraction of the datasheet).
  std::vector<ReferenceCase> figures;
  std::vector<const MeasuredCeiling*> of;
  for (const MeasuredCeiling& c : catalog.ceilings) {
    const Gpu* g = catalog.FindGpu(c.gpu);
    if (!g || (c.what != "gemm" && c.what != "memory")) continue;
    const bool fp8 = c.precision.rfind("fp8", 0) == 0, sixteen = c.precision == "bf16" || c.precision == "fp16";
    if (c.what == "gemm" && !fp8 && !sixteen) continue;  // the precisions the model has fractions of
    double datasheet = g->bandwidth_bytes_per_s;
    if (c.what == "gemm") {
      auto it = g->dense_flops.find(c.precision);
      datasheet = it == g->dense_flops.end() ? 0 : it->second;
    }
    if (!(datasheet > 0) || !(c.value > 0)) continue;
    ReferenceCase rc;
    rc.id = c.id;
    rc.kind = c.what + "_ceiling";
    rc.gpu = c.gpu;
    rc.measured = c.value / datasheet;
    rc.source = c.sources.empty() ? "(no source)" : SourceKey(c.sources.front().url);
    figures.push_back(rc);
    of.push_back(&c);
  }
  auto predict = [](const Catalog& cat, const MeasuredCeiling& c) {
    const Gpu* g = cat.FindGpu(c.gpu);
    return c.what == "memory" ? AttainableMemory(cat, *g).fraction : AttainableGemm(cat, *g, c.precision).fraction;
  };
  std::vector<CaseResult> stored(figures.size()), held_out(figures.size());
  auto result = [&](const ReferenceCase& rc, double estimated) {
    CaseResult r;
    r.c = &rc;
    r.estimated = estimated;
    r.ran = estimated > 0;
    r.ratio = r.ran ? rc.measured / estimated : 0;
    return r;
  };
  for (size_t i = 0; i < figures.size(); ++i) stored[i] = result(figures[i], predict(catalog, *of[i]));
  std::vector<std::string> sources;
  for (const ReferenceCase& f : figures)
    if (std::find(sources.begin(), sources.end(), f.source) == sources.end()) sources.push_back(f.source);
  for (const std::string& source : sources) {
    Catalog without = catalog;
    without.ceilings.clear();
    for (const MeasuredCeiling& c : catalog.ceilings)
      if (c.sources.empty() || SourceKey(c.sources.front().url) != source) without.ceilings.push_back(c);
    for (size_t i = 0; i < figures.size(); ++i)
      if (figures[i].source == source) held_out[i] = result(figures[i], predict(without, *of[i]));
  }
  std::vector<KindErrors> out;
  for (const char* kind : {"gemm_ceiling", "memory_ceiling"}) {
    KindErrors k;
    k.kind = kind;
    k.stored = k.in_sample = Summarise(stored, "", "", kind);
    k.held_out = Summarise(held_out, "", "", kind);
    if (k.stored.n > 0) out.push_back(k);
  }
  return out;
}

LosoResult LeaveOneSourceOut(const Catalog& catalog, const std::vector<ReferenceCase>& cases, int min_cases) {
  LosoResult out;
  std::vector<std::string> fit_log;
  out.stored = RunReferenceCases(catalog, cases);
  out.refit = RunReferenceCases(FitCalibration(catalog, cases, fit_log, min_cases), cases);
  std::vector<std::string> sources;
  for (const ReferenceCase& c : cases)
    if (std::find(sources.begin(), sources.end(), c.source) == sources.end()) sources.push_back(c.source);
  out.held_out.resize(cases.size());
  for (const std::string& source : sources) {
    std::vector<ReferenceCase> rest;
    std::vector<size_t> mine;
    for (size_t i = 0; i < cases.size(); ++i)
      if (cases[i].source == source) mine.push_back(i);
      else rest.push_back(cases[i]);
    std::vector<std::string> ignored;
    const Catalog without = FitCalibration(catalog, rest, ignored, min_cases);
    int ran = 0;
    for (size_t i : mine) {
      out.held_out[i] = RunReferenceCases(without, {cases[i]}).front();
      out.held_out[i].c = &cases[i];
      ran += out.held_out[i].ran;
    }
    out.sources.push_back({source, static_cast<int>(mine.size()), ran});
  }
  out.kinds = KindErrorTable(out.stored, out.refit, out.held_out);
  for (const KindErrors& k : CeilingErrorTable(catalog)) out.kinds.push_back(k);
  return out;
}

}  // namespace gpuplan
