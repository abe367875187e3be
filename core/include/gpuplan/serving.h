// gpuplan/serving.h — serving at load (issue 19): a continuous-batching scheduler, as vLLM's V1
// scheduler runs it, replaying a workload (workload.h) step by step on the speed estimate's
// per-step roofline (speed.h StepSeconds). What comes out is what a serving benchmark prints
// (vLLM benchmark_serving, genai-perf): request and token throughput, TTFT / TPOT / ITL /
// end-to-end latency percentiles, goodput at an SLA, and the batch and KV use over time.
//
// The scheduler, per step (vllm/v1/core/sched/scheduler.py Scheduler.schedule, FCFS policy; the
// other engines' differences are the catalog's EngineScheduler: SGLang's prefill-first steps and
// retraction of the request with the fewest outputs, TensorRT-LLM's whole-request reservation):
//  1. running requests first, in admission order: each asks for its next token, or for the
//     next chunk of its prompt within the step's token budget (max_num_batched_tokens);
//     a request that needs a KV block when none is free preempts the most recently admitted
//     running request (recompute: its blocks are freed and it goes back to the front of the
//     queue), or itself when it is the last;
//  2. then, when nothing was preempted, waiting requests in arrival order while the budget,
//     the sequence cap (max_num_seqs) and free KV blocks allow, each admitted with the blocks
//     for the tokens scheduled now (prefix-cache hits computed already).
// A step that computes a prompt's last token also samples its first output token.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/inference.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"
#include "gpuplan/speed.h"
#include "gpuplan/workload.h"

namespace gpuplan {

// The engine's scheduler settings; 0 / -1: the engine's own (engines.json, EngineBatchDefaults).
struct ServeOptions {
  int max_num_seqs = 0;         // sequences per step (vLLM --max-num-seqs)
  int max_batched_tokens = 0;   // tokens per step (vLLM --max-num-batched-tokens)
  int block_tokens = 0;         // tokens per KV block (vLLM --block-size)
  int chunked_prefill = -1;     // 1: prompts split over steps; 0: a prompt in one step; -1: the engine's
  // vLLM 0.6-0.7 --num-scheduler-steps: decode steps run back to back in bursts of this many,
  // admitting nothing and streaming each burst's tokens at its end, or every step where the
  // engine's scheduler says so (1: no bursts, as today's engines run).
  int decode_burst = 1;
  // The engine's --max-model-len: 0, the longest request (as the launch command sets it); -1,
  // the engine's default, the model's whole window (a published run that does not state it).
  long long max_model_len = 0;
  bool prefix_caching = false;  // the workload's shared prefix is computed once and its blocks shared
  int shared_prefix = 0;        // tokens every prompt starts with (a system prompt), part of the prompt
  double ttft_sla_s = 0;        // goodput: requests whose TTFT and TPOT are within these (0: no limit)
  double tpot_sla_s = 0;
  int series_points = 120;  // the time series is cut to at most this many points
};

// What the simulator steps on: the per-step terms and the KV pool.
struct ServeSetup {
  StepModel step;
  double kv_pool_bytes = 0;   // per GPU (MemoryEstimate::kv_pool_bytes)
  double kv_token_bytes = 0;  // per GPU, one token of one sequence (MemoryEstimate::kv_token_bytes_gpu)
  int block_tokens = 16, max_num_seqs = 256, max_batched_tokens = 8192;
  bool chunked_prefill = true, prefix_caching = false;
  bool mixed_steps = true, reserve_whole = false, preempt_fewest_outputs = false;  // EngineScheduler
  int decode_burst = 1;                                                            // ServeOptions::decode_burst
  bool burst_streams_each_step = false;                                            // EngineScheduler
  int shared_prefix = 0;
  double ttft_sla_s = 0, tpot_sla_s = 0;
  int series_points = 120;
};

struct Percentiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

struct ServePoint {
  double t_s = 0;      // end of the step
  int running = 0;     // sequences in the step
  int waiting = 0;     // arrived and not admitted
  double kv_used = 0;  // share of the KV blocks held
};

struct ServeResult {
  int requests = 0;
  double duration_s = 0;          // first arrival (t = 0) to the last completion
  double request_throughput = 0;  // requests per second
  double output_tokens_per_s = 0, total_tokens_per_s = 0;
  Percentiles ttft_s, tpot_s, itl_s, e2e_s, queue_s;  // TPOT over requests of 2+ output tokens
  int met_sla = 0;                                    // requests within both SLA limits
  double goodput_rps = 0;                             // met_sla / duration (DistServe, Zhong et al. 2024)
  long long kv_blocks = 0;                            // blocks in the pool
  int block_tokens = 0, max_num_seqs = 0, max_batched_tokens = 0;
  bool chunked_prefill = true;
  double kv_capacity_tokens = 0;   // tokens the pool holds
  int kv_limited_concurrency = 0;  // sequences of the workload's mean length the pool holds at once
  int peak_running = 0;
  double mean_running = 0;  // time-weighted
  double peak_kv_used = 0;
  int preemptions = 0;
  long long steps = 0;
  long long prefix_hits = 0;  // prompt tokens not computed thanks to the prefix cache
  // Open loop: arrivals faster than the setup serves them. The queue then grows with every
  // request and the latencies with the run's length; `queue_at_last_arrival` says how far.
  bool saturated = false;
  double offered_rate = 0;  // requests per second offered (0: closed loop)
  int queue_at_last_arrival = 0;
  // Requests completed per second between the first and the third quarter of the completions:
  // the steady state, without the batch filling at the start and draining at the end.
  double steady_request_throughput = 0;
  std::vector<ServePoint> series;
};

// Steps `requests` (arrival order, workload.h) through the scheduler. Closed loop (spec.rate 0):
// the first `concurrency` requests are there at t = 0 and each later one arrives when an
// earlier one ends. An Error names what cannot be served (a request longer than the pool).
Result<ServeResult> SimulateServing(const ServeSetup& setup, const WorkloadSpec& spec, std::vector<Request> requests);

// The whole question: the scenario's model on its GPUs and engine, serving `spec`. The memory
// estimate runs at the longest request (max_model_len), its KV pool is the simulator's; the
// speed estimate gives the step terms.
struct ServeEstimate {
  ServeSetup setup;  // what the run stepped on (for more runs: the load curve)
  ServeResult result;
  ServeResult capacity;  // when saturated: the same requests all at once (the most it serves)
  bool has_capacity = false;
  MemoryEstimate memory;
  long long max_model_len = 0;  // the longest request, prompt + output
  // How far published results fell from the simulator's (the engine's serving bands,
  // EngineCalibration::serve_*): measured / simulated, p10..p90; cases 0 where none are stored.
  Band band_throughput, band_ttft, band_tpot, band_e2e;
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
};
Result<ServeEstimate> EstimateServing(const Resolved& r, const Scenario& s, const WorkloadSpec& spec,
                                      const ServeOptions& options);

// Latency against load (the Serve panel's charts, `gpuplan serve --explain`): the same setup and
// request lengths replayed at fractions of its capacity, the throughput of a closed loop of as
// many clients as it holds at once (its sequence cap, or what its KV pool holds).
struct LoadPoint {
  double rate_rps = 0;
  Percentiles ttft_s, tpot_s;
  double output_tokens_per_s = 0;
  bool saturated = false;
};
struct LoadCurve {
  double capacity_rps = 0;        // a full batch's steady throughput (0: not run yet)
  std::vector<LoadPoint> points;  // in rising rate
  int knee = -1;                  // the last point within the SLA (or before the queue grows); -1: none
  bool done = false;              // every point run (or none can be)
};
inline constexpr double kLoadFractions[] = {0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.9, 1.0, 1.15};
inline constexpr int kLoadCurveRequests = 400;  // requests per point at least (2 x what the batch holds, to 4,000)
// One more step of the curve: the capacity first, then the next rate. False when it is complete.
// `spec`: the workload (its lengths and seed; rate and clients are the curve's).
bool LoadCurveStep(const ServeEstimate& e, const WorkloadSpec& spec, LoadCurve& curve);

// How near its capacity an open-loop run is, and what that means for the figures: close to
// capacity, latency grows steeply with load (an M/G/1-like queue), so a small error in the
// simulated capacity moves TTFT and TPOT a lot; below the engine's throughput band
// (band_throughput.lo × capacity) the real setup may already be saturated. Empty for a closed
// loop, an unknown capacity, or a load under 70 % of the band's low capacity.
std::string LoadWarning(const ServeEstimate& e, double rate_rps, double capacity_rps);

// The p-th percentile (0..100) of `values` (sorted in place), interpolated linearly between the
// closest ranks as numpy's percentile does (what vLLM's benchmark_serving prints); 0 for none.
double Percentile(std::vector<double>& values, double p);

}  // namespace gpuplan
