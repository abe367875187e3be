#include "gpuplan/serving.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>
#include <deque>

#include "gpuplan/model.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

// A run that takes more steps than this is stopped with an error rather than left to spin (a
// million requests of 16 output tokens at batch 1 stay below it).
constexpr long long kMaxSteps = 50000000;
// Engines that state no sequence cap (SGLang sizes max_running_requests from the pool): the
// pool alone limits admission, up to this many sequences.
constexpr int kNoSequenceCap = 4096;

struct Live {
  double arrival = 0, admitted = -1, first = -1, last = -1, finish = -1;
  int prompt = 0, output = 0;
  long long cached = 0;     // tokens whose KV is in the cache
  long long generated = 0;  // output tokens sampled
  long long blocks = 0;     // blocks of its own
  long long shared = 0;     // prefix-cache blocks it reads
  long long want = 0;       // tokens scheduled this step
  int pending = 0;          // tokens sampled in a burst, not yet streamed (ServeSetup::decode_burst)
  bool running = false, done = false;
};

// A (value, count) pair list's percentile, interpolated as Percentile does over the expanded list.
double WeightedPercentile(std::vector<std::pair<double, double>>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double total = 0;
  for (const auto& [value, count] : v) total += count;
  const double rank = std::clamp(p, 0.0, 100.0) / 100 * (total - 1);
  const double lo = std::floor(rank);
  auto at = [&](double k) {  // the k-th value (0-based) of the expanded list
    double seen = 0;
    for (const auto& [value, count] : v) {
      seen += count;
      if (k < seen) return value;
    }
    return v.back().first;
  };
  const double a = at(lo), b = at(std::min(lo + 1, total - 1));
  return a + (b - a) * (rank - lo);
}

Percentiles Summarise(std::vector<double> v) {
  Percentiles p;
  if (v.empty()) return p;
  double sum = 0;
  for (double x : v) sum += x;
  p.mean = sum / static_cast<double>(v.size());
  p.p50 = Percentile(v, 50), p.p90 = Percentile(v, 90), p.p99 = Percentile(v, 99);
  return p;
}

}  // namespace

double Percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::clamp(p, 0.0, 100.0) / 100 * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (rank - static_cast<double>(lo));
}

Result<ServeResult> SimulateServing(const ServeSetup& setup, const WorkloadSpec& spec, std::vector<Request> requests) {
  const long long block = std::max(1, setup.block_tokens);
  if (!(setup.kv_token_bytes > 0) || !(setup.kv_pool_bytes > 0))
    return Error{Tr("memory: no memory is left for the KV cache after the weights and the engine's workspace")};
  const double pool_tokens = std::floor(setup.kv_pool_bytes / setup.kv_token_bytes);
  const long long total_blocks = static_cast<long long>(std::min(pool_tokens / static_cast<double>(block), 1e15));
  if (total_blocks < 1)
    return Error{TrF("memory: the KV pool holds less than one block of {0} tokens", {std::to_string(block)})};
  const int n = static_cast<int>(requests.size());
  if (n == 0) return Error{Tr("requests: none to serve")};
  auto blocks_for = [&](long long tokens) { return (tokens + block - 1) / block; };
  double mean_len = 0;
  for (const Request& r : requests) {
    const long long len = static_cast<long long>(r.prompt) + r.output;
    if (blocks_for(len) > total_blocks)
      return Error{
          TrF("input: a request of {0} tokens needs {1} KV blocks of {2} tokens; the pool holds {3} ({4} "
              "tokens)",
              {FormatCount(len), FormatCount(blocks_for(len)), std::to_string(block), FormatCount(total_blocks),
               FormatCount(static_cast<long long>(pool_tokens))})};
    mean_len += static_cast<double>(len) / n;
  }
  const bool closed = spec.rate == 0;
  const int clients = closed ? std::clamp(spec.concurrency, 1, n) : n;
  const int max_seqs = std::max(1, setup.max_num_seqs);
  const long long max_tokens = std::max(1, setup.max_batched_tokens);
  const long long prefix_blocks = setup.prefix_caching ? setup.shared_prefix / block : 0;

  std::vector<Live> q(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    q[i].arrival = closed ? 0 : requests[i].arrival_s;
    q[i].prompt = requests[i].prompt, q[i].output = requests[i].output;
  }
  std::deque<int> waiting;
  std::vector<int> running, scheduled;
  running.reserve(static_cast<size_t>(std::min(n, max_seqs)));
  int next = closed ? clients : 0;  // the next request to arrive
  if (closed)
    for (int i = 0; i < clients; ++i) waiting.push_back(i);
  long long free_blocks = total_blocks;
  bool prefix_ready = false;

  ServeResult out;
  out.requests = n;
  out.kv_blocks = total_blocks, out.block_tokens = static_cast<int>(block);
  out.max_num_seqs = max_seqs, out.max_batched_tokens = static_cast<int>(max_tokens);
  out.chunked_prefill = setup.chunked_prefill;
  out.kv_capacity_tokens = static_cast<double>(total_blocks * block);
  out.kv_limited_concurrency = static_cast<int>(std::min<double>(
      1e9, std::floor(static_cast<double>(total_blocks) / std::ceil(mean_len / static_cast<double>(block)))));
  out.offered_rate = closed ? 0 : spec.rate;
  std::vector<std::pair<double, double>> itl;  // (gap, tokens)
  std::vector<ServePoint> points;
  double now = 0, running_time = 0;
  int done = 0, waiting_at_half = -1;
  // Multi-step bursts: steps left in the current one, and its requests.
  const int burst_steps = std::max(1, setup.decode_burst);
  int burst_left = 0;
  std::vector<int> burst;
  // A finished request leaves the batch; in a closed loop its client sends the next one.
  auto finish = [&](Live& r) {
    r.done = true, r.running = false, r.finish = now;
    free_blocks += r.blocks, r.blocks = 0;
    ++done;
    if (closed && next < n) {
      q[next].arrival = now;
      waiting.push_back(next++);
    }
  };
  // A burst's tokens reach the client together, as one chunk, when it ends (a benchmark's ITL
  // is the gap between chunks).
  auto deliver = [&](Live& r) {
    if (r.first < 0)
      r.first = now;
    else
      itl.emplace_back(now - r.last, 1);
    r.last = now;
    r.pending = 0;
    if (r.generated >= r.output && !r.done) finish(r);
  };
  bool last_arrived = false;

  while (done < n) {
    if (!closed) {
      while (next < n && q[next].arrival <= now) waiting.push_back(next++);
      if (next == n && !last_arrived) last_arrived = true, out.queue_at_last_arrival = static_cast<int>(waiting.size());
      if (next >= n / 2 && waiting_at_half < 0) waiting_at_half = static_cast<int>(waiting.size());
    }
    if (running.empty() && waiting.empty()) {
      if (!closed && next < n) {
        now = std::max(now, q[next].arrival);
        continue;
      }
      return Error{Tr("serving: the scheduler stopped with requests left (an internal error)")};
    }
    if (++out.steps > kMaxSteps)
      return Error{TrF("requests: the run needs more than {0} steps; serve fewer requests", {FormatCount(kMaxSteps)})};

    // --- Schedule the step ----------------------------------------------------------------
    long long budget = max_tokens;
    bool preempted = false;
    scheduled.clear();
    // What the step computes, summed as requests are scheduled: decodes (one token, attending
    // to the cache) and prompt chunks.
    StepLoad load;
    auto decoding = [](const Live& r) { return r.generated > 0 && r.cached == r.prompt + r.generated - 1; };
    auto take = [&](int idx) {
      const Live& r = q[idx];
      scheduled.push_back(idx);
      if (r.want == 1 && decoding(r)) {
        load.decode_seqs += 1;
        load.decode_context += static_cast<double>(r.cached);
      } else {
        load.prefill_seqs += 1;
        load.prefill_tokens += static_cast<double>(r.want);
        load.prefill_context +=
            static_cast<double>(r.want) * (static_cast<double>(r.cached) + static_cast<double>(r.want) / 2);
      }
    };
    auto preempt = [&](int v) {
      Live& r = q[v];
      if (r.pending > 0) {  // a burst's tokens so far reach the client first
        deliver(r);
        if (r.done) {
          preempted = true;
          return;
        }
      }
      free_blocks += r.blocks;
      r.blocks = 0, r.running = false, r.want = 0;
      r.cached = r.shared * block;  // recompute from the end of the shared prefix
      waiting.push_front(v);
      ++out.preemptions;
      preempted = true;
    };
    auto chunk = [&](const Live& r) {  // the tokens a request may compute now
      const long long uncached = r.prompt + r.generated - r.cached;
      return setup.chunked_prefill                        ? std::min(uncached, budget)
             : uncached <= budget || budget == max_tokens ? uncached
                                                          : 0;
    };
    // Running requests in admission order: decodes, prompt chunks, or both (`kinds`).
    enum Kinds { kDecodes = 1, kPrompts = 2, kBoth = 3 };
    auto schedule_running = [&](int kinds) {
      for (size_t i = 0; i < running.size() && budget > 0;) {
        const int me = running[i];
        Live& r = q[me];
        const long long want =
            r.generated < r.output && (decoding(r) ? kinds & kDecodes : kinds & kPrompts) ? chunk(r) : 0;
        if (want <= 0) {
          ++i;
          continue;
        }
        // Blocks beyond those held (most decode steps need none: a block lasts block_tokens steps).
        const long long need =
            r.cached + want <= (r.shared + r.blocks) * block ? 0 : blocks_for(r.cached + want) - r.shared - r.blocks;
        bool self = false;
        while (need > free_blocks) {
          // The victim among the requests not yet scheduled this step (this one included): the
          // latest admitted (vLLM's recompute preemption), or the one with the fewest output
          // tokens, ties to the longest prompt (SGLang's retract_decode).
          size_t v = running.size() - 1;
          if (setup.preempt_fewest_outputs)
            for (size_t j = i; j < running.size(); ++j) {
              const Live& a = q[running[j]];
              const Live& b = q[running[v]];
              if (a.generated < b.generated || (a.generated == b.generated && a.prompt > b.prompt)) v = j;
            }
          const int victim = running[v];
          running.erase(running.begin() + static_cast<std::ptrdiff_t>(v));
          preempt(victim);
          if (victim == me) {
            self = true;
            break;
          }
        }
        if (self) break;
        free_blocks -= std::max(0LL, need), r.blocks += std::max(0LL, need);
        r.want = want, budget -= want;
        take(me);
        ++i;
      }
    };
    // Waiting requests in arrival order, while the budget, the sequence cap and the blocks allow.
    auto admit = [&] {
      while (!preempted && !waiting.empty() && static_cast<int>(running.size()) < max_seqs && budget > 0) {
        const int idx = waiting.front();
        Live& r = q[idx];
        long long hit = 0;
        if (prefix_ready && r.shared == 0 && r.cached == 0) {
          hit = std::min(prefix_blocks, (static_cast<long long>(r.prompt) - 1) / block) * block;
          r.cached = hit, r.shared = hit / block;
        }
        const long long want = chunk(r);
        // Reserving the whole request (TensorRT-LLM): its blocks to the last output token, now.
        const long long upto = setup.reserve_whole ? static_cast<long long>(r.prompt) + r.output : r.cached + want;
        const long long need = blocks_for(upto) - r.shared - r.blocks;
        if (want <= 0 || need > free_blocks) {
          if (hit > 0) r.cached = 0, r.shared = 0;
          break;
        }
        out.prefix_hits += hit;
        waiting.pop_front();
        if (r.admitted < 0) r.admitted = now;
        r.running = true;
        running.push_back(idx);
        free_blocks -= need, r.blocks += need;
        r.want = want, budget -= want;
        take(idx);
      }
    };
    if (burst_left > 0) {
      // Inside a burst of decode steps (vLLM's multi-step scheduling): the same requests decode
      // again; nothing is admitted until it ends.
      schedule_running(kDecodes);
    } else if (setup.mixed_steps) {
      schedule_running(kBoth);
      admit();
    } else {
      // Prefill first (SGLang): a step of prompt chunks whenever there are any, else decodes.
      schedule_running(kPrompts);
      admit();
      if (scheduled.empty() && !preempted) schedule_running(kDecodes);
    }
    if (scheduled.empty()) {
      if (preempted) {  // a request gave its blocks back before anything was scheduled: again
        --out.steps;
        continue;
      }
      if (!closed && next < n && running.empty()) {
        now = std::max(now, q[next].arrival);
        continue;
      }
      return Error{TrF("serving: no request could be scheduled (KV pool of {0} blocks)", {FormatCount(total_blocks)})};
    }

    // --- Cost the step -----------------------------------------------------------------------
    const double dt = StepSeconds(setup.step, load);
    const double before = now;
    now += dt;
    running_time += dt * static_cast<double>(scheduled.size());

    // A step of decodes alone starts a burst where the engine runs them in bursts.
    if (burst_left == 0 && burst_steps > 1 && load.prefill_seqs == 0) {
      burst_left = burst_steps;
      burst = scheduled;
    }
    const bool in_burst = burst_left > 0;

    // --- Apply it: caches grow, finished prompts and decodes sample a token -----------------
    const int done_before = done;
    double same_gap = 0;  // tokens whose gap is this step's duration
    for (int idx : scheduled) {
      Live& r = q[idx];
      r.cached += r.want;
      r.want = 0;
      if (!prefix_ready && prefix_blocks > 0 && r.cached >= prefix_blocks * block && r.shared == 0) {
        // Its first blocks become the prefix cache's: kept for every later request.
        prefix_ready = true;
        r.blocks -= prefix_blocks, r.shared = prefix_blocks;
      }
      if (r.cached < r.prompt + r.generated) continue;  // a prompt still being computed
      ++r.generated;
      if (in_burst && !setup.burst_streams_each_step) {
        ++r.pending;  // streamed when the burst ends
        continue;
      }
      if (r.first < 0) {
        r.first = now;
      } else if (r.last == before) {
        same_gap += 1;
      } else {
        itl.emplace_back(now - r.last, 1);
      }
      r.last = now;
      if (r.generated >= r.output) finish(r);
    }
    if (same_gap > 0) itl.emplace_back(dt, same_gap);
    // The burst's last step, or every request in it done: its tokens are streamed.
    if (in_burst) {
      const bool any_left = std::any_of(burst.begin(), burst.end(), [&](int i) {
        return q[i].running && !q[i].done && q[i].generated < q[i].output;
      });
      if (--burst_left == 0 || !any_left) {
        burst_left = 0;
        for (int i : burst)
          if (q[i].pending > 0) deliver(q[i]);
      }
    }
    if (done > done_before)
      running.erase(std::remove_if(running.begin(), running.end(), [&](int i) { return q[i].done; }), running.end());
    const double used = 1 - static_cast<double>(free_blocks) / static_cast<double>(total_blocks);
    out.peak_running = std::max(out.peak_running, static_cast<int>(scheduled.size()));
    out.peak_kv_used = std::max(out.peak_kv_used, used);
    points.push_back({now, static_cast<int>(scheduled.size()), static_cast<int>(waiting.size()), used});
  }

  // --- What a benchmark prints ---------------------------------------------------------------
  out.duration_s = now;
  double out_tokens = 0, in_tokens = 0;
  std::vector<double> ttft, tpot, e2e, queue;
  ttft.reserve(static_cast<size_t>(n)), e2e.reserve(static_cast<size_t>(n)), queue.reserve(static_cast<size_t>(n));
  for (const Live& r : q) {
    out_tokens += r.output, in_tokens += r.prompt;
    const double t1 = r.first - r.arrival, tp = r.output > 1 ? (r.finish - r.first) / (r.output - 1) : 0;
    ttft.push_back(t1);
    e2e.push_back(r.finish - r.arrival);
    queue.push_back(r.admitted - r.arrival);
    if (r.output > 1) tpot.push_back(tp);
    const bool ttft_ok = setup.ttft_sla_s <= 0 || t1 <= setup.ttft_sla_s;
    const bool tpot_ok = setup.tpot_sla_s <= 0 || r.output <= 1 || tp <= setup.tpot_sla_s;
    if (ttft_ok && tpot_ok) ++out.met_sla;
  }
  if (now > 0) {
    out.request_throughput = n / now;
    out.output_tokens_per_s = out_tokens / now;
    out.total_tokens_per_s = (out_tokens + in_tokens) / now;
    out.goodput_rps = out.met_sla / now;
    out.mean_running = running_time / now;
  }
  {
    std::vector<double> ends;
    ends.reserve(static_cast<size_t>(n));
    for (const Live& r : q) ends.push_back(r.finish);
    std::sort(ends.begin(), ends.end());
    const size_t a = static_cast<size_t>(n) / 4, b = 3 * static_cast<size_t>(n) / 4;
    out.steady_request_throughput =
        b > a && ends[b] > ends[a] ? static_cast<double>(b - a) / (ends[b] - ends[a]) : out.request_throughput;
  }
  out.ttft_s = Summarise(std::move(ttft));
  out.tpot_s = Summarise(std::move(tpot));
  out.e2e_s = Summarise(std::move(e2e));
  out.queue_s = Summarise(std::move(queue));
  {
    double sum = 0, count = 0;
    for (const auto& [gap, k] : itl) sum += gap * k, count += k;
    out.itl_s.mean = count > 0 ? sum / count : 0;
    out.itl_s.p50 = WeightedPercentile(itl, 50), out.itl_s.p90 = WeightedPercentile(itl, 90);
    out.itl_s.p99 = WeightedPercentile(itl, 99);
  }
  // Saturated: a queue that grew through the second half of the arrivals and was long when the
  // last request came.
  out.saturated = !closed && out.queue_at_last_arrival >= std::max(8, n / 20) &&
                  out.queue_at_last_arrival > std::max(0, waiting_at_half);
  // The series, cut to at most series_points: each point the largest batch and KV use of its span.
  const size_t cap = static_cast<size_t>(std::max(2, setup.series_points));
  if (points.size() <= cap) {
    out.series = std::move(points);
  } else {
    const double span = static_cast<double>(points.size()) / static_cast<double>(cap);
    for (size_t b = 0; b < cap; ++b) {
      const double at = static_cast<double>(b);
      const size_t lo = static_cast<size_t>(std::floor(at * span));
      const size_t hi = std::min(points.size(), static_cast<size_t>(std::floor((at + 1) * span)));
      ServePoint p = points[hi - 1];
      for (size_t i = lo; i < hi; ++i)
        p.running = std::max(p.running, points[i].running), p.waiting = std::max(p.waiting, points[i].waiting),
        p.kv_used = std::max(p.kv_used, points[i].kv_used);
      out.series.push_back(p);
    }
  }
  return out;
}

Result<ServeEstimate> EstimateServing(const Resolved& r, const Scenario& s, const WorkloadSpec& spec,
                                      const ServeOptions& options) {
  Result<std::vector<Request>> requests = GenerateRequests(spec);
  if (!requests) return Error{requests.error()};
  long long longest = 0;
  double mean_prompt = 0;
  for (const Request& q : *requests) {
    longest = std::max<long long>(longest, static_cast<long long>(q.prompt) + q.output);
    mean_prompt += static_cast<double>(q.prompt) / static_cast<double>(requests->size());
  }
  const Model& model = r.model;
  if (model.max_context > 0 && longest > model.max_context)
    return Error{TrF("input: the longest request is {0} tokens (prompt + output), beyond {1}'s window of {2} tokens",
                     {FormatCount(longest), model.name, FormatCount(model.max_context)})};
  if (model.encoder_only)
    return Error{TrF("model: {0} is encoder-only: it generates no tokens to serve", {model.name})};
  if (options.shared_prefix < 0) return Error{Tr("prefix: a shared prefix of 0 or more tokens")};

  ServeEstimate est;
  est.max_model_len = longest;
  // The memory estimate at the longest request (what the engine's max_model_len must allow):
  // its KV pool is what the scheduler fills.
  Scenario at = s;
  at.context = longest;
  at.prompt = std::clamp(static_cast<long long>(std::llround(mean_prompt)), 1LL, longest);
  at.batch = 1;
  Result<MemoryEstimate> memory = EstimateMemory(r, at, false, Detail::kExplained);
  if (!memory) return Error{memory.error()};
  est.memory = std::move(memory).value();
  if (!est.memory.fits || est.memory.kv_pool_bytes <= 0)
    return Error{
        TrF("gpu: {0} does not fit on {1} × {2} with {3} at a context of {4} tokens ({5} needed per GPU, {6} "
            "usable)",
            {model.name, std::to_string(s.Gpus()), r.gpu.name, r.engine.name, FormatCount(longest),
             FormatBytes(est.memory.total_bytes, ByteUnit::GiB), FormatBytes(est.memory.usable_bytes, ByteUnit::GiB)})};
  Result<SpeedEstimate> speed = EstimateSpeed(r, at, est.memory, {}, Detail::kNumbers);
  if (!speed) return Error{speed.error()};

  const EngineProfile& engine = r.engine;
  const BatchDefaults defaults = EngineBatchDefaults(engine, r.gpu, est.memory.device.runtime_bytes);
  ServeSetup setup;
  setup.step = speed->step;
  setup.kv_pool_bytes = est.memory.kv_pool_bytes;
  setup.kv_token_bytes = est.memory.kv_token_bytes_gpu;
  // `defaulted` and `assumed`: the assumption's words, "{0}" the number and "{1}" the engine.
  auto pick = [&](int given, int engines, int fallback, const char* defaulted, const char* assumed) {
    if (given > 0) return given;
    if (engines > 0) {
      est.assumptions.push_back(TrF(defaulted, {FormatCount(engines), engine.name}));
      return engines;
    }
    est.assumptions.push_back(TrF(assumed, {FormatCount(fallback), engine.name}));
    return fallback;
  };
  if (options.max_num_seqs <= 0 && engine.scheduler.seqs_from_pool) {
    // SGLang's max_running_requests when unset (engines.json scheduler): from the pool's tokens
    // and the model's context length.
    const double pool = std::floor(setup.kv_pool_bytes / setup.kv_token_bytes);
    const double context = static_cast<double>(model.max_context > 0 ? model.max_context : longest);
    setup.max_num_seqs = static_cast<int>(std::max(
        1.0, std::min(std::max(std::min(std::floor(pool / context * 512), 4096.0), 2048.0), std::floor(pool / 2))));
    est.assumptions.push_back(
        TrF("sequences per step {0}: {1}'s rule from the pool ({2} tokens) and the {3}-token context",
            {FormatCount(setup.max_num_seqs), engine.name, FormatCount(static_cast<long long>(pool)),
             FormatCount(static_cast<long long>(context))}));
  } else {
    setup.max_num_seqs =
        pick(options.max_num_seqs, defaults.max_num_seqs, kNoSequenceCap, N_("sequences per step {0}: {1}'s default"),
             N_("sequences per step {0}: {1} states none (assumed)"));
  }
  const EngineScheduler& policy = engine.scheduler;
  // The engine's model length: as given, or (-1) its default, the model's whole window.
  const long long model_len = options.max_model_len > 0 ? std::max(longest, options.max_model_len)
                              : options.max_model_len < 0 && model.max_context > 0
                                  ? std::max(longest, model.max_context)
                                  : longest;
  setup.chunked_prefill = options.chunked_prefill < 0 ? policy.chunked_prefill : options.chunked_prefill != 0;
  setup.mixed_steps = policy.mixed_steps;
  const bool auto_chunked = options.chunked_prefill < 0 && !setup.chunked_prefill &&
                            policy.chunked_above_model_len > 0 && model_len > policy.chunked_above_model_len;
  if (auto_chunked) {
    // vLLM V0 turns chunked prefill on for a long model length; its scheduler then runs decodes
    // first and fills the rest of the budget with prompt chunks.
    setup.chunked_prefill = true, setup.mixed_steps = true;
    est.assumptions.push_back(TrF("chunked prefill on: {0} enables it for a model length above {1} tokens (here {2})",
                                  {engine.name, FormatCount(policy.chunked_above_model_len), FormatCount(model_len)}));
  }
  setup.max_batched_tokens =
      auto_chunked && options.max_batched_tokens <= 0
          ? pick(0, policy.chunked_budget, 8192, N_("tokens per step with chunked prefill {0}: {1}'s default"),
                 N_("tokens per step with chunked prefill {0}: {1} states none (assumed)"))
          : pick(options.max_batched_tokens, defaults.max_batched_tokens, 8192,
                 N_("tokens per step {0}: {1}'s default"), N_("tokens per step {0}: {1} states none (assumed)"));
  if (options.block_tokens > 0 || engine.kv_block_tokens > 0) {
    setup.block_tokens = pick(options.block_tokens, engine.kv_block_tokens, 16, N_("KV block of {0}: {1}'s default"),
                              N_("KV block of {0}: {1} states none (assumed)"));
  } else {
    setup.block_tokens = 1;
    est.assumptions.push_back(TrF("{0} states no KV block size: the cache is allocated token by token", {engine.name}));
  }
  if (!setup.chunked_prefill && policy.budget_covers_model_len && setup.max_batched_tokens < model_len) {
    setup.max_batched_tokens = static_cast<int>(std::min<long long>(model_len, 1 << 30));
    est.assumptions.push_back(
        TrF("tokens per step {0}: without chunked prefill {1}'s budget is at least the model length",
            {FormatCount(setup.max_batched_tokens), engine.name}));
  }
  setup.decode_burst = std::max(1, options.decode_burst);
  setup.burst_streams_each_step = policy.burst_streams_each_step;
  if (setup.decode_burst > 1)
    est.assumptions.push_back(
        setup.burst_streams_each_step
            ? TrF("decode steps in bursts of {0} (--num-scheduler-steps): nothing admitted within a burst, its tokens "
                  "streamed as they come",
                  {std::to_string(setup.decode_burst)})
            : TrF("decode steps in bursts of {0} (--num-scheduler-steps): nothing admitted within a burst, its tokens "
                  "streamed at its end",
                  {std::to_string(setup.decode_burst)}));
  setup.reserve_whole = policy.reserve_whole;
  setup.preempt_fewest_outputs = policy.preempt_fewest_outputs;
  setup.prefix_caching = options.prefix_caching;
  setup.shared_prefix = options.shared_prefix;
  setup.ttft_sla_s = options.ttft_sla_s, setup.tpot_sla_s = options.tpot_sla_s;
  setup.series_points = options.series_points;
  if (speed->step.flops_gpu <= 0)
    est.warnings.push_back(
        TrF("{0} has no dense throughput figure in the catalog: prompt computation is left "
            "out, so TTFT and throughput are optimistic",
            {r.gpu.name}));

  est.setup = setup;
  est.band_throughput = engine.calibration.serve_throughput, est.band_ttft = engine.calibration.serve_ttft;
  est.band_tpot = engine.calibration.serve_tpot, est.band_e2e = engine.calibration.serve_e2e;
  Result<ServeResult> run = SimulateServing(setup, spec, *requests);
  if (!run) return Error{run.error()};
  est.result = std::move(run).value();
  if (est.result.saturated) {
    // The most this setup serves: the same requests, all there at once.
    WorkloadSpec all = spec;
    all.rate = 0, all.concurrency = spec.requests;
    Result<ServeResult> cap = SimulateServing(setup, all, *requests);
    if (cap) {
      est.capacity = std::move(cap).value();
      est.has_capacity = true;
    }
  }
  est.assumptions.push_back(
      TrF("{0}'s scheduler (engines.json): {1}; waiting requests in arrival order; {2}; {3}",
          {engine.name,
           setup.mixed_steps ? Tr("decodes and prompt chunks share each step, running requests first")
                             : Tr("a step of prompts whenever one can be admitted, else a step of decodes"),
           setup.chunked_prefill ? Tr("prompts chunked within the step's token budget")
                                 : Tr("each prompt whole in one step"),
           setup.reserve_whole ? Tr("each request's blocks reserved to its last token at admission (no preemption)")
           : setup.preempt_fewest_outputs
               ? Tr("when blocks run out, the request with the fewest outputs is retracted and recomputed")
               : Tr("when blocks run out, the latest admitted request is preempted and recomputed")}));
  est.assumptions.push_back(
      Tr("each step costs the speed estimate's terms for its mix of decode tokens and prompt chunks "
         "(weights read once per step, KV read at the decoding sequences' mean length)"));
  est.assumptions.push_back(
      TrF("KV pool {0} per GPU at {1} per token (at the longest request, {2} tokens): {3} blocks",
          {FormatBytes(setup.kv_pool_bytes, ByteUnit::GiB), FormatBytes(setup.kv_token_bytes, ByteUnit::KiB),
           FormatCount(longest), FormatCount(est.result.kv_blocks)}));
  if (options.prefix_caching)
    est.assumptions.push_back(
        TrF("prefix cache: the first {0} prompt tokens are shared; their full blocks are computed once and kept",
            {FormatCount(options.shared_prefix)}));
  est.assumptions.push_back(
      Tr("the scheduler's own time and sampling are not counted (they overlap the GPU in current engines)"));
  return est;
}

std::string LoadWarning(const ServeEstimate& e, double rate_rps, double capacity_rps) {
  if (!(rate_rps > 0) || !(capacity_rps > 0)) return {};
  const double low = e.band_throughput.cases > 0 ? std::min(1.0, e.band_throughput.lo) : 1.0;
  const double load = rate_rps / capacity_rps, worst = rate_rps / (capacity_rps * low);
  if (worst < 0.7) return {};
  const std::string rate = FormatFixed(load * 100, 0), capacity = FormatShort(capacity_rps, 3);
  if (worst >= 1 && low < 1)
    return TrF(
        "NEAR CAPACITY: the rate is {0} % of the simulated capacity ({1} requests/s); published runs measured "
        "as little as {2}x the simulated throughput, and at {3} requests/s this setup would be saturated: the "
        "queue, TTFT and TPOT would grow far past these figures",
        {rate, capacity, FormatShort(low, 2), FormatShort(capacity_rps * low, 3)});
  return TrF(
      "NEAR CAPACITY: the rate is {0} % of the simulated capacity ({1} requests/s); there latency rises steeply "
      "with load, so a few percent of error in the capacity moves TTFT and TPOT a lot (published runs measured "
      "{2}-1x the simulated throughput)",
      {rate, capacity, FormatShort(low, 2)});
}

bool LoadCurveStep(const ServeEstimate& e, const WorkloadSpec& spec, LoadCurve& curve) {
  constexpr size_t kPoints = std::size(kLoadFractions);
  if (curve.done || curve.points.size() >= kPoints) return !(curve.done = true);
  // The most the setup holds at once: its sequence cap or what its pool holds of the mean request.
  const int most = std::max(1, std::min(e.result.max_num_seqs, std::max(1, e.result.kv_limited_concurrency)));
  // Enough requests that the queue can form past capacity (the batch alone holds `most`).
  const int n = std::clamp(2 * most, kLoadCurveRequests, 4000);
  WorkloadSpec w = spec;
  w.requests = n;
  if (curve.capacity_rps <= 0) {
    // Capacity: a closed loop of `most` clients, the steady state of a full batch.
    w.rate = 0, w.concurrency = most;
    Result<std::vector<Request>> all = GenerateRequests(w);
    Result<ServeResult> cap = all ? SimulateServing(e.setup, w, *all) : Result<ServeResult>(Error{all.error()});
    if (!cap || cap->request_throughput <= 0) return !(curve.done = true);  // nothing to draw
    curve.capacity_rps = cap->steady_request_throughput;  // the full batch, not its filling and draining
    return true;
  }
  w.rate = curve.capacity_rps * kLoadFractions[curve.points.size()];
  LoadPoint p;
  p.rate_rps = w.rate;
  Result<std::vector<Request>> reqs = GenerateRequests(w);
  if (reqs)
    if (Result<ServeResult> r = SimulateServing(e.setup, w, *reqs)) {
      p.ttft_s = r->ttft_s, p.tpot_s = r->tpot_s, p.output_tokens_per_s = r->output_tokens_per_s;
      p.saturated = r->saturated;
    }
  curve.points.push_back(p);
  // The knee: the last point within the SLA, or (without one) before the queue grows.
  curve.knee = -1;
  for (size_t i = 0; i < curve.points.size(); ++i) {
    const LoadPoint& x = curve.points[i];
    const bool within = !x.saturated && (e.setup.ttft_sla_s <= 0 || x.ttft_s.p90 <= e.setup.ttft_sla_s) &&
                        (e.setup.tpot_sla_s <= 0 || x.tpot_s.p90 <= e.setup.tpot_sla_s);
    if (!within) break;
    curve.knee = static_cast<int>(i);
  }
  curve.done = curve.points.size() >= kPoints;
  return !curve.done;
}

}  // namespace gpuplan
