// gpuplan/speed.h — how fast a scenario serves: prefill (time to first token) and decode
// (time per output token, tokens/s per user and in all) from a roofline of each step —
// bytes read against the memory bandwidth, FLOPs against the dense tensor peak — with the
// engine's fitted efficiencies, tensor-parallel all-reduce over the real link, and partial
// offload to host RAM. Every figure carries the error band of the reference set.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/ceilings.h"
#include "gpuplan/expected.h"
#include "gpuplan/inference.h"
#include "gpuplan/model.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// One component of a step time: what it is, its formula in words with the numbers, seconds.
struct TimeTerm {
  std::string key;      // "weights_read", "kv_read", "compute", "all_reduce", "row_sync", "launch", "host_read", "pcie"
  std::string name;
  std::string formula;
  double seconds = 0;
};

struct StepTime {
  std::vector<TimeTerm> terms;  // the step is max(memory, compute) + the serial terms
  double memory_s = 0, compute_s = 0, serial_s = 0;
  double seconds = 0;
  std::string bound;            // "memory", "compute", "host memory", "communication"
  double bytes = 0, flops = 0;  // per GPU: what the step reads and computes (roofline point)
};

// Kernels one decode step launches on each GPU, from the model's layer types (speed.cpp
// DecodeKernels: attention / MLA / linear attention, dense / MoE MLP, 8-bit activation quant).
struct KernelCount {
  int total = 0, per_layer_total = 0, per_step = 0, moe_layers = 0;
};
KernelCount DecodeKernels(const Model& m, int extra_per_gemm);

struct Link {
  double bytes_per_s = 0;  // per direction (an all-reduce's measured bus bandwidth where known)
  double latency_s = 0;    // per all-reduce call
  std::string name;
  std::string basis;  // where the rate and latency come from, in words
};

// One forward pass of a continuous-batching engine: every running sequence's next token and a
// chunk of prompt tokens together (vLLM V1's unified step; Sarathi-Serve, Agrawal et al. 2024,
// "Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve", §4: chunked
// prefills piggybacked on decodes). What the serving simulator (serving.h) steps through.
struct StepLoad {
  double decode_seqs = 0;      // sequences generating one token each
  double decode_context = 0;   // their cached tokens, summed over them
  double prefill_seqs = 0;     // sequences whose prompt tokens this step computes
  double prefill_tokens = 0;   // those prompt tokens in all
  double prefill_context = 0;  // their mean position, summed over them (each token attends to the tokens before it)
};

// The numbers EstimateSpeed builds its decode and prefill steps from, kept so that a step of
// any mix costs the same terms by the same formulas (StepSeconds): a pure decode step of
// `batch` sequences at the mean context is the estimate's decode step, and one prompt that
// fits one pass is its prefill_one.
struct StepModel {
  const Model* model = nullptr;  // the catalog's entry (the catalog outlives the estimate)
  ModelFacts facts;
  double kv_bytes_per_element = 2;
  int tp = 1, pp = 1;
  bool layer_split = false, row_split = false, dp_attention = false, ep = false;
  double in_turn = 1;                                      // a layer split's GPUs work in turn
  double bw_gpu = 0, flops_gpu = 0, bw_host = 0;           // effective per GPU (flops 0: no compute figure)
  double gpu_share = 1;                                    // layers on the GPUs / layers
  double weights_fixed = 0, weights_routed = 0;            // per GPU per pass: + routed × experts touched
  double weights_host_fixed = 0, weights_host_routed = 0;  // host RAM per pass (partial offload)
  double prefill_host_copy = 0;  // offloaded weights copied over PCIe per 512-token micro-batch
  Link pcie;
  double launch_s = 0;                       // kernels per pass × fixed time per kernel
  double token_layer_s = 0;                  // non-matmul work per prompt token and layer (fitted)
  double hidden_bytes = 0, all_reduces = 0;  // per token; per pass
  int moe_layers = 0, experts_per_token = 0;
  double row_ubatch = 512;  // row split: the prompt's micro-batch (llama.cpp n_ubatch)
  Link link, hop;           // the tensor-parallel link; the pipeline stages' link
};

// Seconds of one step of `load` (StepModel). Pipeline stages take the decode sequences in up to
// pp micro-batches as the decode estimate does; prefill chunks pass the stages in turn.
double StepSeconds(const StepModel& m, const StepLoad& load);

struct SpeedEstimate {
  StepTime decode;                   // one output token for every sequence of the batch
  StepTime prefill;                  // every prompt of the batch, chunked as the engine does
  StepTime prefill_one;              // one prompt alone (time to first token)
  double ttft_s = 0;                 // prefill_one + one decode step
  double tokens_per_s_user = 0;      // 1 / decode step
  double tokens_per_s_total = 0;     // batch / decode step
  double prefill_tokens_per_s = 0;   // batch × prompt / prefill time
  double decode_context = 0;         // mean tokens in the cache over the output (prompt + output / 2)
  double experts_touched = 1;        // MoE: share of routed experts a decode step reads
  std::string compute_precision;     // the dense peak used: "fp16", "fp8", "int8", ...
  double peak_flops = 0, bandwidth = 0;  // per GPU, datasheet
  double eta_bw = 0, eta_compute = 0;    // the engine's efficiencies, shares of the attainable
  Attainable memory_ceiling, gemm_ceiling;  // attainable fractions of the datasheet (ceilings.h)
  double link_bytes_per_s = 0;           // per direction, for the all-reduce (0: one GPU)
  std::string link_name;
  Band decode_band, prefill_band;
  KernelCount kernels;                   // kernels per decode step (DecodeKernels)
  MultiGpuMode split = MultiGpuMode::kTensorParallel;  // how the GPUs share the model (SplitMode)
  // Outputs the catalog cannot give (a GPU without a compute figure has no prefill): key ->
  // why. The reports leave them empty with the reason, never 0.
  std::map<std::string, std::string> unknown;
  StepModel step;  // the terms per step, for a step of any mix (StepSeconds)
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
};

// Overrides for the engine's fitted efficiencies (0: use the engine's). Issue 7's measured
// bandwidth / GEMM fractions come in here.
struct Efficiency {
  double bw = 0, compute = 0;
};

// The memory estimate supplies the offload split; call EstimateMemory first.
Result<SpeedEstimate> EstimateSpeed(const Catalog& catalog, const Scenario& s, const MemoryEstimate& memory,
                                    Efficiency eff = {}, Detail detail = Detail::kExplained);
// The same with the scenario's ids already resolved (resolve.h); `r` must be Resolve(…, s)'s.
Result<SpeedEstimate> EstimateSpeed(const Resolved& r, const Scenario& s, const MemoryEstimate& memory,
                                    Efficiency eff = {}, Detail detail = Detail::kExplained);

// The link a collective over n GPUs runs on: NVLink (or the part's scale-up fabric) or PCIe of
// its generation within a node of 8, InfiniBand NDR / 100 GbE per GPU beyond; warnings say so.
// `table`: the catalog's measurements grouped once (a ranking's); the link's basis is then left
// empty (the numbers-only path).
Link CollectiveLink(const Catalog& catalog, const Gpu& gpu, int n, std::vector<std::string>& warnings,
                    const CeilingTable* table = nullptr);
// The GPU's PCIe link to the host (and to its peers without NVLink): the catalog's effective
// rate of its generation × lanes/16; generation 4 x16 assumed, with a warning, when unknown.
Link PcieLink(const Catalog& catalog, const Gpu& gpu, std::vector<std::string>& warnings);

// Attention FLOPs per generated token at `context` cached tokens, whole model (QKᵀ and AV).
double AttentionFlopsPerToken(const Model& m, double context);
double AttentionFlopsPerToken(const Model& m, const ModelFacts& f, double context);

// The dense peak a scenario's matmuls run at on a GPU, and its precision key (dense_flops):
// FP8 weights on FP8 hardware, W8A8 weights on INT8 tensor cores, GGUF-quantised weights too
// with an engine whose profile says so (gguf_int8_matmul: llama.cpp's MMQ kernels), else
// 16-bit (FP32 accumulate).
std::string ComputePrecision(const Gpu& gpu, const WeightFormat& wf, const EngineProfile& engine);

}  // namespace gpuplan
