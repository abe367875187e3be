#include "gpuplan/speed.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/ceilings.h"
#include "gpuplan/model.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {


bool IsGguf(const WeightFormat& wf) {
  return !wf.id.empty() && (wf.id[0] == 'q' || wf.id.rfind("iq", 0) == 0);
}

double Peak(const Gpu& gpu, const std::string& key) {
  auto it = gpu.dense_flops.find(key);
  return it == gpu.dense_flops.end() ? 0 : it->second;
}

// All-reduce latency where the catalog has no measurement for the GPU's kind of link (ceilings
// .json has vLLM's custom all-reduce on 8 × H100 at 10-12 µs, SGLang's at 4.5-7.8 µs, and
// nccl-tests on 8 × RTX 4090 over PCIe at 42 µs): stated assumptions of the same order.
constexpr double kNvlinkAllReduceLatency = 10e-6;
constexpr double kPcieAllReduceLatency = 30e-6;
// A layer split's hand-off is one small device-to-device copy, not a collective: a stated
// ~10 µs (the copy's launch and one trip over the link).
constexpr double kHandoffLatency = 10e-6;

// The measured all-reduce for the GPU and count where the catalog has one (ceilings.h).
void ApplyMeasured(const Catalog& catalog, const Gpu& gpu, int n, Link& link, const CeilingTable* table) {
  const bool say = !table;  // (the grouped table is the numbers-only path's)
  const MeasuredAllReduce m = table ? table->AllReduce(gpu, n, false) : AllReduceMeasurements(catalog, gpu, n);
  if (m.bus_bytes_per_s > 0) link.bytes_per_s = m.bus_bytes_per_s;
  if (m.latency_s > 0) link.latency_s = m.latency_s;
  if (say)
    link.basis =
        TrF("all-reduce over {0}: {1}; {2}",
            {link.name,
             m.bus_bytes_per_s > 0 ? TrF("bus bandwidth {0}", {m.bus_basis}) : std::string(Tr("datasheet link rate")),
             m.latency_s > 0 ? TrF("latency {0}", {m.latency_basis}) : std::string(Tr("stated latency"))});
}

// Ring all-reduce of `bytes` over n GPUs (Patarasuk & Yuan 2009; NCCL's busbw = algbw ×
// 2(n-1)/n, nccl-tests doc/PERFORMANCE.md): each GPU sends and receives 2(n-1)/n × bytes.
double AllReduceSeconds(double bytes, int n, const Link& link) {
  if (n <= 1 || link.bytes_per_s <= 0) return 0;
  return 2.0 * (n - 1) / n * bytes / link.bytes_per_s + link.latency_s;
}


// A row split's sync (llama.cpp ggml-cuda ggml_cuda_op_mul_mat with split buffers): for every
// matmul with a split weight one host thread walks the GPUs, launching on each the copy of the
// input (quantised to q8_1, 36 B per 32 values), its slice of the matmul, the copy of its rows
// of the f32 output back to the layer's GPU and the events that order them; CUDA graphs are off
// with split buffers. So a small-batch split matmul costs host time per GPU: a stated 20 µs,
// derived from published row/layer pairs outside the reference set (2 × V100 with a 27B Q6_K:
// ~27 µs per GPU; 2 × Radeon R9700 under ROCm: ~14 µs; tests/reference/candidates/
// llamacpp-split.json), then checked on the 4 × RTX 4090 pairs of llama.cpp PR #19378 (~17 µs).
// Large batches go in 128-token chunks, each paying it again, and peer access is switched on
// only for batches of up to 128 tokens (GGML_CUDA_PEER_MAX_BATCH_SIZE), so a prompt's copies are
// staged through host memory: they cross the link twice.
struct RowSync {
  double seconds = 0;
  std::string formula;
};
constexpr double kRowSplitPerGpu = 20e-6;
constexpr double kRowSplitChunk = 128;
RowSync RowSyncTime(const Model& m, double tokens, int n, const Link& link, bool say) {
  const double h = m.hidden, others = n - 1.0;
  double matmuls = 0, bytes = 0;
  auto matmul = [&](double in, double out, double count) {
    matmuls += count;
    bytes += count * tokens * (in * 36 / 32 * others + out * 4 * others / n);
  };
  const double q = static_cast<double>(m.heads) * m.head_dim, kv = static_cast<double>(m.kv_heads) * m.head_dim;
  for (int layer = 0; layer < m.layers; ++layer) {
    if (m.IsAttentionLayer(layer)) {
      matmul(h, q, 1), matmul(h, kv, 2), matmul(q, h, 1);  // q, k, v, o (MLA's five projections alike)
    } else {
      matmul(h, h, 2), matmul(h, h, 1);  // linear attention's input and output projections
    }
    if (m.IsMoeLayer(layer)) {
      // The router and any shared expert; the routed experts (3-D tensors) stay whole.
      matmul(h, m.moe->experts, 1);
      const double shared = static_cast<double>(m.moe->shared_experts) * m.moe->expert_intermediate + m.moe->shared_intermediate;
      if (shared > 0) matmul(h, shared, 2), matmul(shared, h, 1);
    } else {
      matmul(h, m.intermediate, 2), matmul(m.intermediate, h, 1);  // gate, up, down
    }
  }
  matmul(h, m.vocab, 1);  // the LM head
  const double chunks = std::max(1.0, std::ceil(tokens / kRowSplitChunk));
  const double crossings = tokens > kRowSplitChunk ? 2 : 1;
  RowSync r;
  r.seconds = chunks * matmuls * n * kRowSplitPerGpu + (link.bytes_per_s > 0 ? crossings * bytes / link.bytes_per_s : 0);
  if (!say) return r;
  r.formula =
      TrF("{0} split matmuls × {1} GPUs × {2} of launches (stated) + {3} of inputs out and outputs back over {4}",
          {FormatCount(static_cast<long long>(matmuls)), std::to_string(n), FormatSeconds(kRowSplitPerGpu),
           FormatBytes(bytes, ByteUnit::GB), link.name});
  if (crossings > 1) r.formula += Tr(", twice (staged through the host)");
  if (chunks > 1)
    r.formula =
        TrF("{0} chunks of {1} tokens × {2}", {FormatFixed(chunks, 0), FormatFixed(kRowSplitChunk, 0), r.formula});
  return r;
}

void Finish(StepTime& t) {
  t.seconds = std::max(t.memory_s, t.compute_s) + t.serial_s;
  double largest_serial = 0;
  std::string serial_bound;
  for (const TimeTerm& term : t.terms)
    if ((term.key == "all_reduce" || term.key == "all_to_all" || term.key == "handoff" || term.key == "row_sync" ||
         term.key == "host_read" ||
         term.key == "pcie") &&
        term.seconds > largest_serial)
      largest_serial = term.seconds,
      serial_bound = term.key == "host_read" || term.key == "pcie" ? "host memory" : "communication";
  if (largest_serial > std::max(t.memory_s, t.compute_s)) t.bound = serial_bound;
  else t.bound = t.compute_s > t.memory_s ? "compute" : "memory";
}

// The band of the reference cases like the scenario (engine, phase, dense or MoE, one or several
// GPUs, GPU vendor; calibrate.cpp WithBands). Three or more such cases: their band. One or two:
// joined with the engine's band. None: the spread of every engine's cases, and it says so.
Band PickBand(const EngineProfile& engine, const std::string& phase, bool moe, bool multi, const std::string& vendor,
              bool say, bool* extrapolated) {
  const EngineCalibration& cal = engine.calibration;
  const Band& own = phase == "decode" ? cal.decode : cal.prefill;
  if (cal.classes.empty()) return own;  // a catalog without class bands (a user's file)
  const char* phase_text = phase == "decode" ? Tr("decode") : Tr("prefill");
  const std::string what =
      !say ? std::string()
           : TrF("{0} {1} on {2} ({3}) with {4}", {moe ? "MoE" : Tr("dense"), phase_text,
                                                   multi ? Tr("several GPUs") : Tr("one GPU"), vendor, engine.name});
  constexpr int kEnough = 3;
  for (const ClassBand& c : cal.classes) {
    if (c.phase != phase || c.moe != moe || c.multi_gpu != multi || c.vendor != vendor) continue;
    if (c.band.cases >= kEnough) {
      Band b = c.band;
      if (say) b.basis = TrF("from {0} reference cases like this: {1}", {std::to_string(c.band.cases), what});
      return b;
    }
    Band b{std::min(c.band.lo, own.lo), std::max(c.band.hi, own.hi), c.band.cases, ""};
    if (say)
      b.basis = c.band.cases == 1
                    ? TrF("thin: only {0} reference case like this ({1}), joined with the engine's band of {2}",
                          {std::to_string(c.band.cases), what, std::to_string(own.cases)})
                    : TrF("thin: only {0} reference cases like this ({1}), joined with the engine's band of {2}",
                          {std::to_string(c.band.cases), what, std::to_string(own.cases)});
    return b;
  }
  Band b = phase == "decode" ? cal.decode_wide : cal.prefill_wide;
  if (extrapolated) *extrapolated = true;
  if (say)
    b.basis = TrF("extrapolated: no reference case for {0}; the band is the spread of every engine's {1} cases ({2})",
                  {what, phase_text, std::to_string(b.cases)});
  return b;
}

}  // namespace

// GPUs per node: beyond it, tensor parallelism crosses the network.
constexpr int kNodeGpus = 8;
constexpr double kNetworkAllReduceLatency = 50e-6;

Link CollectiveLink(const Catalog& catalog, const Gpu& gpu, int n, std::vector<std::string>& warnings,
                    const CeilingTable* table) {
  Link link;
  // GPUs one scale-up fabric joins: 8 in an HGX/DGX node, or the fabric's domain (NVL72: 72 GPUs
  // behind NVLink switches, interconnects.json nvl72).
  int domain = kNodeGpus;
  if (gpu.interconnect && !gpu.interconnect->fabric.empty())
    for (const InterconnectSpec& ic : catalog.interconnects)
      if (ic.id == gpu.interconnect->fabric && ic.domain_gpus > 0) domain = ic.domain_gpus;
  if (n > domain) {
    // One NIC per GPU: InfiniBand NDR (400 Gb/s) where the GPU has a scale-up fabric (data-centre
    // parts), 100 Gb Ethernet otherwise; the catalog's interconnect entries give the rates.
    const bool datacenter = gpu.interconnect.has_value();
    const char* id = datacenter ? "infiniband-ndr" : "ethernet-100g";
    for (const InterconnectSpec& ic : catalog.interconnects)
      if (ic.id == id) {
        link.bytes_per_s = ic.effective_bytes_per_s > 0 ? ic.effective_bytes_per_s : ic.raw_bytes_per_s;
        link.name = ic.name;
      }
    if (link.bytes_per_s == 0) link.bytes_per_s = datacenter ? 50e9 : 12.5e9, link.name = id;
    link.latency_s = kNetworkAllReduceLatency;
    warnings.push_back(
        TrF("{0} GPUs span more than one {1}-GPU node: the all-reduce crosses {2} (real deployments put "
            "pipeline parallelism between nodes instead)",
            {std::to_string(n), std::to_string(domain), link.name}));
    return link;
  }
  if (gpu.interconnect && gpu.interconnect->bytes_per_s > 0) {
    link.bytes_per_s = gpu.interconnect->bytes_per_s / 2;  // vendors quote both directions together
    link.latency_s = kNvlinkAllReduceLatency;
    link.name = gpu.interconnect->kind + (gpu.interconnect->generation ? " " + std::to_string(gpu.interconnect->generation) : "");
    ApplyMeasured(catalog, gpu, n, link, table);
    return link;
  }
  link = PcieLink(catalog, gpu, warnings);
  if (n > 1) ApplyMeasured(catalog, gpu, n, link, table);
  return link;
}

Link PcieLink(const Catalog& catalog, const Gpu& gpu, std::vector<std::string>& warnings) {
  Link link;
  int gen = gpu.pcie_gen, lanes = gpu.pcie_lanes > 0 ? gpu.pcie_lanes : 16;
  if (gen == 0) {
    gen = 4;
    warnings.push_back(TrF("{0}: no PCIe generation in the catalog; PCIe 4.0 x16 assumed", {gpu.name}));
  }
  for (const InterconnectSpec& ic : catalog.interconnects)
    if (ic.kind == "pcie" && ic.generation == gen)
      link.bytes_per_s = (ic.effective_bytes_per_s > 0 ? ic.effective_bytes_per_s : ic.raw_bytes_per_s) * lanes / 16.0;
  if (link.bytes_per_s == 0) link.bytes_per_s = 31.5e9 * lanes / 16.0;
  link.latency_s = kPcieAllReduceLatency;
  link.name = "PCIe " + std::to_string(gen) + ".0 x" + std::to_string(lanes);
  return link;
}

// Attention FLOPs per generated token at `context` cached tokens: QKᵀ and AV, 2 FLOPs per
// multiply-add each (Kaplan et al. 2020, Table 1: 2·n_layer·n_ctx·d_attn per token forward,
// ×2 for the two products), over the tokens each layer attends to (windows cap it).
double AttentionFlopsPerToken(const Model& m, const ModelFacts& f, double context) {
  const double width = m.mla ? static_cast<double>(m.heads) * (m.mla->qk_nope_head_dim + m.mla->qk_rope_head_dim + m.mla->v_head_dim) / 2
                             : static_cast<double>(m.heads) * m.head_dim;
  double flops = f.full_layers * 4 * width * context;
  if (f.sliding_layers > 0) flops += f.sliding_layers * 4 * width * std::min<double>(context, m.sliding_window);
  // Gated DeltaNet: a rank-1 update of each value head's key × value state and a read of it,
  // independent of the context (Yang et al. 2024). Mamba layers' scan is not counted here.
  if (m.linear && f.state_layers > 0)
    flops += f.state_layers * 4.0 * m.linear->value_heads * m.linear->key_head_dim * m.linear->value_head_dim;
  return flops;
}

double AttentionFlopsPerToken(const Model& m, double context) {
  return AttentionFlopsPerToken(m, CountFacts(m), context);
}

KernelCount DecodeKernels(const Model& m, int extra_per_gemm) {
  // Kernels one decode step runs per GPU, counted from vLLM's model code (a CUDA-graph replay
  // runs the same kernels the eager forward launches), by layer type:
  //  - attention, vllm/model_executor/models/llama.py LlamaDecoderLayer.forward: fused
  //    residual-add + RMSNorm, QKV GEMM, rotary, KV-cache write (reshape_and_cache), attention,
  //    O GEMM = 6 (+2 per-head q/k norms, qwen3.py);
  //  - MLA, deepseek_v2.py DeepseekV2MLAAttention + the MLA backend's decode path: norm, fused
  //    q_a/kv_a GEMM, q_a and kv_a norms, q_b GEMM, rotary, W_UK absorption BMM, cache write,
  //    split-KV attention + its combine, W_UV BMM, O GEMM = 12;
  //  - linear attention (Gated DeltaNet), qwen3_next.py: norm, two input GEMMs, causal conv1d
  //    update, gated delta rule step, gated norm, out GEMM = 7;
  //  - dense MLP: norm, gate_up GEMM, SiLU-and-mul, down GEMM = 4;
  //  - MoE MLP, layers/fused_moe: norm, router GEMM, top-k softmax, moe_align_block_size,
  //    w13 grouped GEMM, SiLU-and-mul, w2 grouped GEMM, weighted sum = 8; shared experts add
  //    their gate_up, activation and down = 3; Gemma 4's dense MLP beside it 3;
  //  - 8-bit activations (FP8 / INT8 W8A8) quantise each GEMM input in a kernel of its own
  //    (scaled_fp8_quant / per_token_group_quant_fp8): one per GEMM above; formats with more
  //    (bitsandbytes LLM.int8(): quant.json extra_kernels_per_gemm) that many per GEMM;
  //  - per step: embedding gather, final norm, LM head GEMM, sampling (softmax, top-k/top-p,
  //    the draw) = 6.
  // Collectives (all-reduce, all-to-all) are charged separately with their own latency.
  KernelCount k;
  for (int layer = 0; layer < m.layers; ++layer) {
    int n = 0, gemms = 0;
    if (m.IsAttentionLayer(layer)) {
      if (m.mla) n += 12, gemms += 5;
      else n += 6 + (m.qk_norm ? 2 : 0), gemms += 2;
    } else {
      n += 7, gemms += 3;
    }
    if (m.IsMoeLayer(layer)) {
      n += 8, gemms += 3;
      if (m.moe->shared_experts > 0 || m.moe->shared_intermediate > 0) n += 3, gemms += 2;
      if (m.moe_with_dense) n += 3, gemms += 2;
      ++k.moe_layers;
    } else {
      n += 4, gemms += 2;
    }
    n += extra_per_gemm * gemms;
    k.per_layer_total += n;
  }
  k.per_step = 6;
  k.total = k.per_layer_total + k.per_step;
  return k;
}

double StepSeconds(const StepModel& m, const StepLoad& load) {
  if (!m.model) return 0;
  const Model& model = *m.model;
  const double n = std::max(0.0, load.decode_seqs), t = std::max(0.0, load.prefill_tokens);
  if (n + t <= 0) return 0;
  const double tp = m.tp;
  // Decode: up to pp micro-batches in flight, each passing every stage (as EstimateSpeed).
  const double mb = n > 0 ? n / std::min<double>(n, std::max(1, m.pp)) : 0;
  const double tokens = mb + t;
  const double touched = ExpertsTouchedFraction(model, tokens);
  const double elem = m.kv_bytes_per_element;
  // KV read at the decode sequences' mean cache length (exact for full attention, whose cache
  // grows linearly; a window's cap is applied at the mean).
  const long long context = n > 0 ? static_cast<long long>(load.decode_context / n) : 0;
  const double whole = n > 0 ? KvCacheBytes(model, m.facts, context, elem, 1) : 0;
  const double per_seq = m.layer_split ? whole / tp
                         : m.row_split || m.dp_attention
                             ? whole
                             : (n > 0 ? KvCacheBytes(model, m.facts, context, elem, m.tp) : 0);
  const double own = m.dp_attention ? std::ceil(mb / tp) : mb;
  const double kv_gpu = per_seq * own * m.gpu_share;
  const double kv_host = whole * mb * (1 - m.gpu_share);
  const ParamCount& params = m.facts.params;
  double flops = 0;
  if (mb > 0) {
    const double att = AttentionFlopsPerToken(model, m.facts, static_cast<double>(context));
    flops += m.dp_attention ? 2 * params.attention * own + 2 * (params.active - params.attention) * mb / tp + att * own
                            : 2 * params.active * mb / tp + att * mb / (m.row_split ? 1 : tp);
  }
  if (t > 0) {
    const double att = AttentionFlopsPerToken(model, m.facts, load.prefill_context / t);
    const double own_t =
        m.dp_attention ? std::ceil(std::max(1.0, load.prefill_seqs) / tp) * t / std::max(1.0, load.prefill_seqs) : 0;
    flops += m.dp_attention
                 ? 2 * params.attention * own_t + 2 * (params.active - params.attention) * t / tp + att * own_t
                 : 2 * params.active * t / tp + att * t / (m.row_split ? 1 : tp);
  }
  const double weights = m.weights_fixed + m.weights_routed * touched;
  const double memory_s = (weights + kv_gpu) / m.bw_gpu * m.in_turn;
  const double compute_s = m.flops_gpu > 0 ? flops / m.flops_gpu * m.in_turn : 0;
  double serial = m.launch_s + t * model.layers * m.token_layer_s / tp * m.in_turn;
  const double hb = m.hidden_bytes;
  if (m.layer_split) {
    serial += (tp - 1) * (tokens * hb / m.link.bytes_per_s + kHandoffLatency);
  } else if (m.dp_attention) {
    serial += model.layers * (AllReduceSeconds(tokens * hb, m.tp, m.link) + m.link.latency_s);
  } else if (m.row_split) {
    const double ubatches = t > 0 ? std::max(1.0, std::ceil(tokens / m.row_ubatch)) : 1;
    serial += ubatches * RowSyncTime(model, tokens / ubatches, m.tp, m.link, false).seconds;
  } else if (m.tp > 1) {
    serial += m.all_reduces * AllReduceSeconds(tokens * hb, m.tp, m.link);
  }
  if (m.ep)
    serial +=
        2 * m.moe_layers * (tokens * m.experts_per_token * hb * (tp - 1) / tp / m.link.bytes_per_s + m.link.latency_s);
  if (m.pp > 1 && mb > 0) serial += (m.pp - 1) * (mb * hb / m.hop.bytes_per_s + m.hop.latency_s);
  if (m.gpu_share < 1) {
    if (t > 0)
      serial += std::max(1.0, std::ceil(tokens / 512)) * m.prefill_host_copy;
    else
      serial += (m.weights_host_fixed + m.weights_host_routed * touched + kv_host) / m.bw_host;
  }
  return std::max(memory_s, compute_s) + serial;
}

std::string ComputePrecision(const Gpu& gpu, const WeightFormat& wf, const EngineProfile& engine) {
  auto has = [&](const char* key) { return Peak(gpu, key) > 0; };
  if (wf.id.rfind("fp8", 0) == 0 && has("fp8")) return "fp8";
  if (wf.id == "nvfp4" && has("fp4")) return "fp4";
  if ((wf.id == "int8" || (engine.gguf_int8_matmul && IsGguf(wf))) && has("int8")) return "int8";
  if (has("fp16")) return "fp16";
  if (has("bf16")) return "bf16";
  return "fp32";
}

Result<SpeedEstimate> EstimateSpeed(const Catalog& catalog, const Scenario& s, const MemoryEstimate& memory,
                                    Efficiency eff, Detail detail) {
  Result<Resolved> r = Resolve(catalog, s);
  if (!r) return Error{r.error()};
  return EstimateSpeed(*r, s, memory, eff, detail);
}

Result<SpeedEstimate> EstimateSpeed(const Resolved& r, const Scenario& s, const MemoryEstimate& memory, Efficiency eff,
                                    Detail detail) {
  const bool say = detail == Detail::kExplained;  // the words, besides the numbers
  const Catalog& catalog = r.catalog;
  const Model& model = r.model;
  const Gpu& gpu = r.gpu;
  const WeightFormat& wf = r.weights;
  const KvFormat& kvf = r.kv;
  const EngineProfile& engine = r.engine;
  if (gpu.bandwidth_bytes_per_s <= 0)
    return Error{TrF("gpu: the catalog has no memory bandwidth for '{0}', so speed cannot be estimated", {gpu.id})};

  SpeedEstimate e;
  const EngineCalibration& cal = engine.calibration;
  e.eta_bw = cal.decode_bw_efficiency;
  e.eta_compute = cal.prefill_compute_efficiency;
  double kernel_s = cal.kernel_s;
  std::string fitted_on = say ? TrF("fitted for {0}", {engine.name}) : std::string();
  const std::string vendor = VendorKey(gpu.vendor);
  for (const VendorCalibration& v : cal.by_vendor)
    if (v.vendor == vendor) {
      e.eta_bw = v.decode_bw_efficiency, kernel_s = v.kernel_s;
      if (say)
        fitted_on = TrF("fitted for {0} on {1} GPUs ({2} cases; decode's own, prefill's the engine's)",
                        {engine.name, gpu.vendor, std::to_string(v.cases)});
    }
  // CUDA graphs off: every kernel is launched from the host again, a cost the graph replay hid
  // (engines.json eager_kernel_us, from published same-GPU pairs with graphs on and off).
  double eager_s = 0;
  if (!s.graphs) {
    if (engine.eager_kernel_s > 0) eager_s = engine.eager_kernel_s;
    else if (say)
      e.warnings.push_back("graphs: " +
                           TrF("{0} has no CUDA-graph mode to turn off; graphs=0 changes nothing", {engine.name}));
  }
  kernel_s += eager_s;
  {
    const bool moe = model.moe.has_value(), multi = s.tp * std::max(1, s.pp) > 1;
    bool decode_wide = false, prefill_wide = false;
    e.decode_band = PickBand(engine, "decode", moe, multi, vendor, say, &decode_wide);
    e.prefill_band = PickBand(engine, "prefill", moe, multi, vendor, say, &prefill_wide);
    if (say && decode_wide) e.warnings.push_back(e.decode_band.basis);
    if (say && prefill_wide) e.warnings.push_back(e.prefill_band.basis);
  }
  e.compute_precision = ComputePrecision(gpu, wf, engine);
  // A MIG slice runs on its share of the SMs and of the memory bandwidth (capacity.h).
  e.peak_flops = Peak(gpu, e.compute_precision) * memory.device.compute_share;
  // An engine whose FP16 GEMMs accumulate in FP16 (engines.json fp16_accumulate_gemm: llama.cpp's
  // cuBLAS path) runs at the FP16-accumulate peak, twice the FP32-accumulate one on GeForce and
  // RTX workstation cards (equal on data-centre parts); Volta is excluded as llama.cpp excludes it.
  bool fp16_accumulate = false;
  // BF16 weights run as BF16 with FP32 accumulate there.
  if (engine.fp16_accumulate_gemm && e.compute_precision == "fp16" && (wf.id == "fp16" || IsGguf(wf)) &&
      vendor == "nvidia" && gpu.architecture.find("Volta") == std::string::npos) {
    const double acc = Peak(gpu, "fp16_fp16acc") * memory.device.compute_share;
    if (acc > e.peak_flops) e.peak_flops = acc, fp16_accumulate = true;
  }
  e.bandwidth = gpu.bandwidth_bytes_per_s * memory.device.bandwidth_share;
  const bool no_peak = e.peak_flops <= 0;
  if (no_peak && say)
    e.warnings.push_back(
        TrF("{0}: the catalog has no dense throughput figure, so compute time is left out"
            " (decode is memory-bound; prefill cannot be estimated)",
            {gpu.name}));
  if (model.encoder_only && say)
    e.warnings.push_back(
        TrF("{0} is an encoder-only model (embeddings, reranking): it generates no tokens, so the "
            "decode figures do not apply; its work is the prefill, one forward pass over the input",
            {model.name}));
  if (!(e.eta_bw > 0) || !(e.eta_compute > 0))
    return Error{TrF("engine: '{0}' has no fitted efficiencies", {engine.id})};

  const int tp = s.tp;
  std::vector<std::string> unsaid;  // warnings of helpers when the words are not wanted
  const Link link =
      tp > 1 ? CollectiveLink(catalog, gpu, tp, say ? e.warnings : unsaid, say ? nullptr : r.ceilings) : Link{};
  e.link_bytes_per_s = link.bytes_per_s;
  e.link_name = link.name;
  // How the GPUs share the model (the engine profile's multi_gpu): tensor parallelism splits
  // every layer over them (the all-reduces below); a layer split gives each GPU a run of whole
  // layers and the GPUs work in turn, handing the hidden state on (llama.cpp --split-mode
  // layer, Accelerate's device_map): a step takes the sum of the GPUs' parts, as a pipeline's
  // stages with one micro-batch in flight (GPipe, Huang et al. 2019).
  // A row split (llama.cpp --split-mode row) splits each weight matrix by rows: the GPUs read
  // their slices at once, but the main GPU keeps the KV cache, attention and the small ops, and
  // sends each matmul's input to the others and gathers their outputs (the row sync below).
  e.split = tp > 1 ? SplitMode(engine, s, say ? &e.warnings : nullptr) : engine.multi_gpu;
  const bool layer_split = tp > 1 && e.split == MultiGpuMode::kLayerSplit;
  const bool row_split = tp > 1 && e.split == MultiGpuMode::kRowSplit;
  // DP attention (SGLang --enable-dp-attention; vLLM data parallelism with a MoE model): each
  // GPU runs the attention of its own 1/tp of the sequences with the attention weights whole,
  // and the MLP / MoE layers run tensor-parallel over all the GPUs on every sequence's tokens,
  // gathered before them and scattered after (SGLang docs, "DP, DPA and SGLang DP Router").
  const bool dp_attention = tp > 1 && e.split == MultiGpuMode::kDpAttention;
  const double in_turn = layer_split ? tp : 1;
  const std::string turn_text = say && layer_split ? TrF(" × {0} GPUs in turn", {std::to_string(tp)}) : "";

  ModelFacts counted;
  const ModelFacts& facts = r.facts ? *r.facts : (counted = CountFacts(model));
  const ParamCount& params = facts.params;
  // Bytes of `params` weights of which `routed` are routed experts and `head` the LM head, each
  // group at its format's bits (WeightFormat::BitsFor: FP8 or bitsandbytes checkpoints keep the
  // head in 16 bits, gpt-oss's MXFP4 only quantises the experts). The input embedding is only
  // gathered, never streamed, so it is never in `params` here.
  // A tied LM head is the input embedding table, read whole by the head's matmul every step.
  const bool tied = model.tie_embeddings;
  const double lm_head = tied ? params.input_embedding : params.embedding - params.input_embedding;
  const double head_bits = wf.BitsFor(tied ? TensorGroup::kInputEmbedding : TensorGroup::kLmHead);
  auto weight_bytes = [&](double streamed, double routed, double head) {
    return ((streamed - routed - head) * wf.BitsFor(TensorGroup::kLayers) + routed * wf.BitsFor(TensorGroup::kRoutedExperts) +
            head * head_bits) / 8;
  };
  const double layers = model.layers;
  const double gpu_share = static_cast<double>(memory.layers_on_gpu) / layers;
  const double batch = static_cast<double>(s.batch);
  const double prompt = static_cast<double>(std::min(s.prompt, s.context));
  e.decode_context = prompt + (static_cast<double>(s.context) - prompt) / 2;
  // What the GPU really reaches of its datasheet (published copy and GEMM microbenchmarks,
  // assets/catalog/ceilings.json); the engine's efficiencies are shares of that.
  // A probe's measurement on this machine replaces the published ones (Efficiency).
  e.memory_ceiling = r.ceilings ? r.ceilings->Memory(gpu, say) : AttainableMemory(catalog, gpu);
  e.gemm_ceiling =
      r.ceilings ? r.ceilings->Gemm(gpu, e.compute_precision, say) : AttainableGemm(catalog, gpu, e.compute_precision);
  if (eff.bw > 0)
    e.memory_ceiling = {std::min(1.0, eff.bw), 1, true, Tr("memory bandwidth: measured by the probe on this GPU")};
  if (eff.compute > 0)
    e.gemm_ceiling = {std::min(1.0, eff.compute), 1, true,
                      TrF("{0} GEMM: measured by the probe on this GPU", {e.compute_precision})};
  const double att_bw = e.memory_ceiling.fraction, att_gemm = e.gemm_ceiling.fraction;
  const std::string bw_text = !say ? std::string()
                                   : TrF("{0} × {1} attainable × {2}",
                                         {FormatGBs(e.bandwidth), FormatFixed(att_bw, 2), FormatFixed(e.eta_bw, 2)});
  const std::string peak_text = !say              ? std::string()
                                : fp16_accumulate ? TrF("{0} {1} with FP16 accumulate × {2} attainable × {3}",
                                                        {FormatTflops(e.peak_flops), e.compute_precision,
                                                         FormatFixed(att_gemm, 2), FormatFixed(e.eta_compute, 2)})
                                                  : TrF("{0} {1} × {2} attainable × {3}",
                                                        {FormatTflops(e.peak_flops), e.compute_precision,
                                                         FormatFixed(att_gemm, 2), FormatFixed(e.eta_compute, 2)});
  const double bw_gpu = e.bandwidth * att_bw * e.eta_bw;
  const double bw_host = s.ram_gbs * 1e9 * e.eta_bw;
  const double flops_gpu = no_peak ? 0 : e.peak_flops * att_gemm * e.eta_compute;
  const double hidden_bytes = static_cast<double>(model.hidden) * 2;  // 16-bit activations

  // --- Decode: one token for each of `batch` sequences --------------------------------------
  // Weights read once per step (Pope et al. 2022, "Efficiently Scaling Transformer
  // Inference", §2: small-batch decode is bound by loading the weights); MoE layers read the
  // experts the batch touches. KV read: every cached token of every sequence.
  // Pipeline parallelism (pp stages): the batch is split into up to pp micro-batches in
  // flight (GPipe, Huang et al. 2019; vLLM's pipeline scheduler), so one decode step of a
  // micro-batch of mb sequences passes through every stage in turn, plus pp-1 hand-offs.
  const int pp = std::max(1, s.pp);
  const double micro_batches = std::min<double>(batch, pp);
  const double mb = batch / micro_batches;
  e.experts_touched = ExpertsTouchedFraction(model, mb);
  const double routed_active = model.moe ? params.routed * model.moe->experts_per_token / model.moe->experts : 0;
  const double step_params = params.active - routed_active + params.routed * e.experts_touched;
  // The input embedding is only gathered (one row per token): it is not streamed, unless it is
  // also the (tied) LM head.
  const double streamed_params = step_params - (tied ? 0 : params.input_embedding);
  const double streamed_bytes = weight_bytes(streamed_params, params.routed * e.experts_touched, lm_head);
  // A row split cuts only the dense matrices: MoE experts (MUL_MAT_ID cannot read a split
  // buffer) stay whole on their layer's GPU, read one layer after another.
  const double routed_step_bytes = params.routed * e.experts_touched * wf.BitsFor(TensorGroup::kRoutedExperts) / 8;
  const double attention_bytes = params.attention * wf.BitsFor(TensorGroup::kLayers) / 8;
  const double weights_gpu = row_split      ? ((streamed_bytes - routed_step_bytes) / tp + routed_step_bytes) * gpu_share
                             : dp_attention ? (attention_bytes + (streamed_bytes - attention_bytes) / tp) * gpu_share
                                            : streamed_bytes * gpu_share / tp;
  // DP attention: this GPU's own sequences (the rest run on the other GPUs at the same time).
  const double own_seqs = dp_attention ? std::ceil(mb / tp) : mb;
  const double weights_host = streamed_bytes * (1 - gpu_share);
  // KV read per GPU: a tensor-parallel GPU reads its heads' share (or a replica of what cannot be
  // split); the layer and row splits read each layer's whole cache on the GPU holding the layer,
  // one layer after another (the layer split's share per GPU times its GPUs in turn).
  const long long decode_tokens = static_cast<long long>(e.decode_context);
  const double kv_read =
      (layer_split                 ? KvCacheBytes(model, facts, decode_tokens, kvf.bytes_per_element, 1) / tp
       : row_split || dp_attention ? KvCacheBytes(model, facts, decode_tokens, kvf.bytes_per_element, 1)
                                   : KvCacheBytes(model, facts, decode_tokens, kvf.bytes_per_element, tp)) *
      own_seqs;
  const double kv_gpu = kv_read * gpu_share;
  const double kv_host = KvCacheBytes(model, facts, decode_tokens, kvf.bytes_per_element, 1) * mb * (1 - gpu_share);
  const double decode_flops =
      dp_attention ? 2 * params.attention * own_seqs + 2 * (params.active - params.attention) * mb / tp +
                         AttentionFlopsPerToken(model, facts, e.decode_context) * own_seqs
                   : 2 * params.active * mb / tp +
                         AttentionFlopsPerToken(model, facts, e.decode_context) * mb / (row_split ? 1 : tp);

  StepTime& d = e.decode;
  d.terms.reserve(8);
  d.bytes = weights_gpu + kv_gpu;
  d.flops = decode_flops;
  d.memory_s = d.bytes / bw_gpu * in_turn;
  d.compute_s = no_peak ? 0 : decode_flops / flops_gpu * in_turn;
  d.terms.push_back(
      {"weights_read", Tr("Weights read"),
       !say ? std::string()
            : (pp > 1 ? TrF("{0} per GPU over {1} stages", {FormatBytes(weights_gpu, ByteUnit::GB), std::to_string(pp)})
                      : TrF("{0} per GPU", {FormatBytes(weights_gpu, ByteUnit::GB)})) +
                  (model.moe ? TrF(" ({0}% of routed experts touched)", {FormatFixed(e.experts_touched * 100, 0)})
                             : std::string()) +
                  " / (" + bw_text + ")" + turn_text,
       weights_gpu / bw_gpu * in_turn});
  d.terms.push_back(
      {"kv_read", Tr("KV cache read"),
       !say ? std::string()
            : TrF("{0} ({1} tokens × {2} seq) / ({3})",
                  {FormatBytes(kv_gpu, ByteUnit::GB), FormatCount(static_cast<long long>(e.decode_context)),
                   FormatFixed(mb, mb == std::floor(mb) ? 0 : 1), bw_text}) +
                  turn_text,
       kv_gpu / bw_gpu * in_turn});
  d.terms.push_back({"compute", Tr("Compute"),
                     !say ? std::string()
                          : TrF("2 × {0} active params × {1} tokens + attention, / {2} GPU(s) / ({3})",
                                {FormatParams(params.active), FormatFixed(mb, mb == std::floor(mb) ? 0 : 1),
                                 std::to_string(tp), peak_text}) +
                                turn_text,
                     d.compute_s});
  // Fixed time per kernel (engines.json kernel_us, fitted): the gap between dependent kernels
  // and the ramp of a small kernel that cannot fill the GPU, which a decode step at small
  // batch pays once per kernel whatever it reads. The count comes from the model's layers.
  const bool quantised_activations = e.compute_precision == "fp8" || e.compute_precision == "int8" ||
                                     e.compute_precision == "fp4";
  const int extra_per_gemm = wf.extra_kernels_per_gemm > 0 ? wf.extra_kernels_per_gemm : quantised_activations ? 1 : 0;
  e.kernels = DecodeKernels(model, extra_per_gemm);
  // A layer split's GPUs each launch their own layers' kernels, one GPU after another: the
  // model's kernels once in all, as on one GPU.
  const double launch = e.kernels.total * kernel_s;
  d.serial_s += launch;
  d.terms.push_back(
      {"launch", Tr("Kernel overhead"),
       !say ? std::string()
            : TrF("{0} kernels per step ({1}) × {2} µs (fitted fixed time per kernel: launch gap, ramp and tail of a "
                  "small kernel{3})",
                  {FormatCount(e.kernels.total),
                   TrF("{0} layers", {FormatCount(model.layers)}) +
                       (e.kernels.moe_layers > 0 ? TrF(", {0} of them MoE", {std::to_string(e.kernels.moe_layers)})
                                                 : std::string()) +
                       (wf.extra_kernels_per_gemm > 0
                            ? TrF(", {0} more per matmul for {1}", {std::to_string(wf.extra_kernels_per_gemm), wf.name})
                        : quantised_activations ? std::string(Tr(", 8-bit activation quantisation"))
                                                : std::string()),
                   FormatFixed(kernel_s * 1e6, 2),
                   eager_s > 0 ? TrF("; with {0} µs of eager launch, graphs off", {FormatFixed(eager_s * 1e6, 1)})
                               : std::string()}) +
                  (layer_split ? Tr(", each GPU its own layers'") : ""),
       launch});
  // Expert parallelism: MoE layers dispatch each token to its top-k experts' GPUs and combine
  // the results (two all-to-alls, each GPU sending (n-1)/n of mb × k hidden vectors; GShard,
  // Lepikhin et al. 2020) instead of all-reducing the MLP output.
  const bool ep = s.ep == 1 && model.moe && tp > 1 && !layer_split;
  const int moe_layers = facts.moe_layers;
  const double all_reduces_per_step = ep ? 2 * layers - moe_layers : 2 * layers;
  auto all_to_all = [&](double tokens) {
    const double bytes = tokens * model.moe->experts_per_token * hidden_bytes * (tp - 1) / tp;
    return bytes / link.bytes_per_s + link.latency_s;
  };
  if (layer_split) {
    const double handoff = (tp - 1) * (mb * hidden_bytes / link.bytes_per_s + kHandoffLatency);
    d.serial_s += handoff;
    d.terms.push_back({"handoff", Tr("Layer-split hand-offs"),
                       !say      ? std::string()
                       : tp == 2 ? TrF("{0} copy of the hidden state ({1}) to the next GPU over {2} ({3} "
                                       "latency each, stated)",
                                       {std::to_string(tp - 1), FormatRate(mb * hidden_bytes, "B"), link.name,
                                        FormatSeconds(kHandoffLatency)})
                                 : TrF("{0} copies of the hidden state ({1}) to the next GPU over {2} ({3} "
                                       "latency each, stated)",
                                       {std::to_string(tp - 1), FormatRate(mb * hidden_bytes, "B"), link.name,
                                        FormatSeconds(kHandoffLatency)}),
                       handoff});
  } else if (dp_attention) {
    // Per layer an all-gather of every GPU's hidden states before the MLP and a reduce-scatter
    // after it: together the bytes of one all-reduce, and two calls' latency.
    const double gathers = layers * (AllReduceSeconds(mb * hidden_bytes, tp, link) + link.latency_s);
    d.serial_s += gathers;
    d.terms.push_back({"all_reduce", Tr("DP-attention gathers"),
                       !say ? std::string()
                            : TrF("{0} layers × (all-gather + reduce-scatter of {1} over {2}, {3} per direction, "
                                  "2 × {4} latency)",
                                  {FormatCount(model.layers), FormatRate(mb * hidden_bytes, "B"), link.name,
                                   FormatGBs(link.bytes_per_s), FormatSeconds(link.latency_s)}),
                       gathers});
  } else if (row_split) {
    const RowSync sync = RowSyncTime(model, mb, tp, link, say);
    d.serial_s += sync.seconds;
    d.terms.push_back({"row_sync", Tr("Row-split copies"), sync.formula, sync.seconds});
  } else if (tp > 1) {
    // Megatron-style tensor parallelism: two all-reduces of the hidden state per layer
    // (after attention and after the MLP; Shoeybi et al. 2019, §3).
    const double ar = all_reduces_per_step * AllReduceSeconds(mb * hidden_bytes, tp, link);
    d.serial_s += ar;
    d.terms.push_back(
        {"all_reduce", Tr("Tensor-parallel all-reduce"),
         !say ? std::string()
              : TrF("{0} all-reduces (2 per layer{1}) × ring of {2} over {3} ({4} per direction, {5} "
                    "latency)",
                    {FormatFixed(all_reduces_per_step, 0),
                     ep ? TrF(", none after the {0} MoE layers", {std::to_string(moe_layers)}) : std::string(),
                     FormatRate(mb * hidden_bytes, "B"), link.name, FormatGBs(link.bytes_per_s),
                     FormatSeconds(link.latency_s)}),
         ar});
  }
  if (ep) {
    const double a2a = 2 * moe_layers * all_to_all(mb);
    d.serial_s += a2a;
    d.terms.push_back({"all_to_all", Tr("Expert all-to-all"),
                       !say ? std::string()
                            : TrF("2 × {0} MoE layers × all-to-all of {1} tokens × top-{2} hidden vectors over {3}",
                                  {std::to_string(moe_layers), FormatFixed(mb, 0),
                                   std::to_string(model.moe->experts_per_token), link.name}),
                       a2a});
  }
  if (pp > 1) {
    std::vector<std::string> expected;  // crossing nodes between stages is the intended layout
    const Link hop = CollectiveLink(catalog, gpu, tp * pp, expected, say ? nullptr : r.ceilings);
    const double handoff = (pp - 1) * (mb * hidden_bytes / hop.bytes_per_s + hop.latency_s);
    d.serial_s += handoff;
    d.terms.push_back({"pipeline", Tr("Pipeline hand-offs"),
                       !say ? std::string()
                            : TrF("{0} hand-offs of {1} over {2} ({3} micro-batches of {4} in flight)",
                                  {std::to_string(pp - 1), FormatRate(mb * hidden_bytes, "B"), hop.name,
                                   FormatFixed(micro_batches, 0), FormatFixed(mb, mb == std::floor(mb) ? 0 : 1)}),
                       handoff});
  }
  if (weights_host + kv_host > 0) {
    const double host = (weights_host + kv_host) / bw_host;
    d.serial_s += host;
    d.terms.push_back({"host_read", Tr("Offloaded layers (host RAM)"),
                       !say ? std::string()
                            : FormatBytes(weights_host + kv_host, ByteUnit::GB) + " / (" + FormatFixed(s.ram_gbs, 1) +
                                  " GB/s × " + FormatFixed(e.eta_bw, 2) + ")",
                       host});
  }
  Finish(d);

  // The same terms for a step of any mix (StepSeconds): A + B × experts touched per pass, split
  // over the GPUs as the decode step above splits them.
  {
    StepModel& sm = e.step;
    sm.model = &model;
    sm.facts = facts;
    sm.kv_bytes_per_element = kvf.bytes_per_element;
    sm.tp = tp, sm.pp = pp;
    sm.layer_split = layer_split, sm.row_split = row_split, sm.dp_attention = dp_attention, sm.ep = ep;
    sm.in_turn = in_turn;
    sm.bw_gpu = bw_gpu, sm.flops_gpu = flops_gpu, sm.bw_host = bw_host;
    sm.gpu_share = gpu_share;
    const double fixed = weight_bytes(params.active - routed_active - (tied ? 0 : params.input_embedding), 0, lm_head);
    const double routed = params.routed * wf.BitsFor(TensorGroup::kRoutedExperts) / 8;
    sm.weights_fixed = gpu_share * (row_split      ? fixed / tp
                                    : dp_attention ? attention_bytes + (fixed - attention_bytes) / tp
                                                   : fixed / tp);
    sm.weights_routed = gpu_share * (row_split ? routed : routed / tp);
    sm.weights_host_fixed = fixed * (1 - gpu_share), sm.weights_host_routed = routed * (1 - gpu_share);
    sm.launch_s = e.kernels.total * kernel_s;
    sm.token_layer_s = cal.prefill_token_layer_s;
    sm.hidden_bytes = hidden_bytes, sm.all_reduces = all_reduces_per_step;
    sm.moe_layers = moe_layers, sm.experts_per_token = model.moe ? model.moe->experts_per_token : 0;
    sm.row_ubatch = engine.micro_batch_tokens > 0 ? engine.micro_batch_tokens : 512;
    sm.link = link;
    if (pp > 1) {
      std::vector<std::string> expected;
      sm.hop = CollectiveLink(catalog, gpu, tp * pp, expected, say ? nullptr : r.ceilings);
    }
    if (gpu_share < 1) {
      std::vector<std::string> ignored;
      Gpu plain = gpu;
      plain.interconnect.reset();
      sm.pcie = CollectiveLink(catalog, plain, 1, ignored);
      sm.prefill_host_copy = weight_bytes(params.total - (tied ? 0 : params.input_embedding), params.routed, lm_head) *
                             (1 - gpu_share) / sm.pcie.bytes_per_s;
    }
  }

  // --- Prefill ------------------------------------------------------------------------------
  // 2 FLOPs per parameter per token (Kaplan et al. 2020) plus causal attention over the
  // prompt (half of the P² scores); the engine processes max_num_batched_tokens per forward,
  // and each forward reads the weights once (all experts: a long prompt touches them all).
  auto prefill = [&](double sequences) {
    StepTime p;
    p.terms.reserve(8);
    const double tokens = sequences * prompt;
    const int engine_chunk = EngineBatchDefaults(engine, gpu, memory.device.runtime_bytes).max_batched_tokens;
    const double chunk = engine_chunk > 0 ? engine_chunk : 8192;
    const double passes = std::max(1.0, std::ceil(tokens / chunk));
    // DP attention: this GPU's own prompts through the attention, every prompt's tokens
    // through its share of the MLP / MoE layers.
    const double own_tokens = dp_attention ? std::ceil(sequences / tp) * prompt : tokens / tp;
    const double flops =
        dp_attention ? 2 * params.attention * own_tokens + 2 * (params.active - params.attention) * tokens / tp +
                           AttentionFlopsPerToken(model, facts, prompt / 2) * own_tokens
                     : 2 * params.active * tokens / tp +
                           AttentionFlopsPerToken(model, facts, prompt / 2) * tokens / (row_split ? 1 : tp);
    const double all_bytes = weight_bytes(params.total - (tied ? 0 : params.input_embedding), params.routed, lm_head);
    const double wbytes =
        (dp_attention ? attention_bytes + (all_bytes - attention_bytes) / tp : all_bytes / tp) * gpu_share * passes;
    p.bytes = wbytes;
    p.flops = flops;
    p.compute_s = no_peak ? 0 : flops / flops_gpu * in_turn;
    p.memory_s = wbytes / bw_gpu * in_turn;
    p.terms.push_back({"compute", Tr("Compute"),
                       !say ? std::string()
                            : TrF("(2 × {0} params + attention) × {1} tokens / {2} GPU(s) / ({3})",
                                  {FormatParams(params.active), FormatCount(static_cast<long long>(tokens)),
                                   std::to_string(tp), peak_text}) +
                                  turn_text,
                       p.compute_s});
    p.terms.push_back({"weights_read", Tr("Weights read"),
                       !say ? std::string()
                            : TrF("{0} forward pass(es) × {1} per GPU / ({2})",
                                  {FormatFixed(passes, 0), FormatBytes(wbytes / passes, ByteUnit::GB), bw_text}) +
                                  turn_text,
                       p.memory_s});
    const double launches = passes * e.kernels.total * kernel_s;
    p.serial_s += launches;
    // Work outside the matmuls (norms, rotary, softmax, activation quantisation) grows with
    // tokens × layers; fitted per engine, it is what makes llama.cpp's prefill scale less
    // than the tensor peak across GPUs.
    const double per_token = tokens * layers * cal.prefill_token_layer_s / tp * in_turn;
    p.serial_s += per_token;
    if (per_token > 0)
      p.terms.push_back({"token_work", Tr("Non-matmul work"),
                         !say ? std::string()
                              : TrF("{0} tokens × {1} layers × {2} µs (fitted)",
                                    {FormatCount(static_cast<long long>(tokens)), FormatCount(model.layers),
                                     FormatFixed(cal.prefill_token_layer_s * 1e6, 2)}),
                         per_token});
    if (ep) {
      const double a2a = 2 * moe_layers * passes * all_to_all(tokens / passes);
      p.serial_s += a2a;
      p.terms.push_back({"all_to_all", Tr("Expert all-to-all"),
                         !say ? std::string()
                              : TrF("2 × {0} MoE layers × {1} pass(es) × all-to-all of the chunk's top-k hidden "
                                    "vectors over {2}",
                                    {std::to_string(moe_layers), FormatFixed(passes, 0), link.name}),
                         a2a});
    }
    if (layer_split) {
      const double handoff = passes * (tp - 1) * (tokens / passes * hidden_bytes / link.bytes_per_s + kHandoffLatency);
      p.serial_s += handoff;
      p.terms.push_back({"handoff", Tr("Layer-split hand-offs"),
                         !say      ? std::string()
                         : tp == 2 ? TrF("{0} pass(es) × {1} copy of {2} to the next GPU over {3}",
                                         {FormatFixed(passes, 0), std::to_string(tp - 1),
                                          FormatRate(tokens / passes * hidden_bytes, "B"), link.name})
                                   : TrF("{0} pass(es) × {1} copies of {2} to the next GPU over {3}",
                                         {FormatFixed(passes, 0), std::to_string(tp - 1),
                                          FormatRate(tokens / passes * hidden_bytes, "B"), link.name}),
                         handoff});
    } else if (dp_attention) {
      const double gathers = passes * layers * (AllReduceSeconds(tokens / passes * hidden_bytes, tp, link) + link.latency_s);
      p.serial_s += gathers;
      p.terms.push_back({"all_reduce", Tr("DP-attention gathers"),
                         !say ? std::string()
                              : TrF("{0} pass(es) × {1} layers × (all-gather + reduce-scatter of {2} over {3})",
                                    {FormatFixed(passes, 0), FormatCount(model.layers),
                                     FormatRate(tokens / passes * hidden_bytes, "B"), link.name}),
                         gathers});
    } else if (row_split) {
      // Each micro-batch of the prompt (llama.cpp's n_ubatch) syncs once per matmul.
      const double ub = engine.micro_batch_tokens > 0 ? engine.micro_batch_tokens : 512;
      const double ubatches = std::max(1.0, std::ceil(tokens / ub));
      const RowSync sync = RowSyncTime(model, tokens / ubatches, tp, link, say);
      p.serial_s += ubatches * sync.seconds;
      p.terms.push_back(
          {"row_sync", Tr("Row-split copies"),
           !say ? std::string() : TrF("{0} micro-batch(es) × {1}", {FormatFixed(ubatches, 0), sync.formula}),
           ubatches * sync.seconds});
    } else if (tp > 1) {
      const double ar = all_reduces_per_step * passes * AllReduceSeconds(tokens / passes * hidden_bytes, tp, link);
      p.serial_s += ar;
      p.terms.push_back({"all_reduce", Tr("Tensor-parallel all-reduce"),
                         !say ? std::string()
                              : TrF("2 × {0} layers × {1} pass(es) × all-reduce of {2} over {3}",
                                    {FormatCount(model.layers), FormatFixed(passes, 0),
                                     FormatRate(tokens / passes * hidden_bytes, "B"), link.name}),
                         ar});
    }
    if (weights_host > 0) {
      // llama.cpp runs large batches of offloaded layers on the GPU, copying their weights over
      // PCIe for each 512-token micro-batch (ggml-cuda offload_op for batch >= 32).
      Link pcie;
      std::vector<std::string> ignored;
      Gpu plain = gpu;
      plain.interconnect.reset();
      pcie = CollectiveLink(catalog, plain, 1, ignored);
      const double ubatches = std::max(1.0, std::ceil(tokens / 512));
      const double copy = ubatches * all_bytes * (1 - gpu_share) / pcie.bytes_per_s;
      p.serial_s += copy;
      p.terms.push_back({"pcie", Tr("Offloaded weights over PCIe"),
                         !say ? std::string()
                              : TrF("{0} micro-batches × {1} / {2} ({3})",
                                    {FormatFixed(ubatches, 0), FormatBytes(all_bytes * (1 - gpu_share), ByteUnit::GB),
                                     FormatGBs(pcie.bytes_per_s), pcie.name}),
                         copy});
    }
    Finish(p);
    return p;
  };
  e.prefill = prefill(batch);
  e.prefill_one = prefill(1);
  e.ttft_s = e.prefill_one.seconds + d.seconds;
  e.tokens_per_s_user = d.seconds > 0 ? 1 / d.seconds : 0;
  e.tokens_per_s_total = e.tokens_per_s_user * batch;  // every micro-batch advances once per step
  e.prefill_tokens_per_s = e.prefill.seconds > 0 && !no_peak ? batch * prompt / e.prefill.seconds : 0;
  if (no_peak) {
    e.ttft_s = 0;
    const std::string why =
        TrF("{0} has no dense throughput figure in the catalog, so prefill cannot be estimated", {gpu.name});
    e.unknown = {{"ttft_s", why}, {"prefill_tokens_per_s", why}};
  }

  if (!say) return e;
  // --- The words: what was assumed and what to watch (kExplained only).
  e.assumptions = {
      TrF("decode at the mean cache length over the output: prompt + output / 2 = {0} tokens",
          {FormatCount(static_cast<long long>(e.decode_context))}),
      TrF("attainable {0} (× {1}); {2} (× {3})", {e.memory_ceiling.basis, FormatFixed(e.memory_ceiling.fraction, 2),
                                                  e.gemm_ceiling.basis, FormatFixed(e.gemm_ceiling.fraction, 2)}),
      TrF("efficiencies {0}: attainable bandwidth × {1}, attainable {2} peak × {3}, {4} µs per kernel",
          {fitted_on, FormatFixed(e.eta_bw, 2), e.compute_precision, FormatFixed(e.eta_compute, 2),
           FormatFixed(kernel_s * 1e6, 2)}),
      Tr("all sequences decode in lock-step (continuous batching at a steady batch)"),
  };
  if (pp > 1)
    e.assumptions.push_back(
        TrF("{0} pipeline stages: decode runs {1} micro-batches in flight; prefill passes the stages "
            "one after another (no overlap counted: an upper bound on its time)",
            {std::to_string(pp), FormatFixed(micro_batches, 0)}));
  if (model.moe)
    e.assumptions.push_back(TrF("MoE routing uniform and independent per token: {0}% of routed experts read per step",
                                {FormatFixed(e.experts_touched * 100, 0)}));
  if (row_split)
    e.assumptions.push_back(
        TrF("{0} splits every weight matrix by rows over the {1} GPUs (split row): they read their "
            "slices at once; each layer's GPU keeps its KV cache, attention and MoE experts as in a "
            "layer split, and copies each matmul's input out and the outputs back",
            {engine.name, std::to_string(tp)}));
  if (layer_split)
    e.assumptions.push_back(
        TrF("{0} splits the layers over the {1} GPUs (its default multi-GPU mode): they work in "
            "turn, so a step takes the sum of their parts; prefill's micro-batches are not "
            "overlapped across GPUs (an upper bound on its time)",
            {engine.name, std::to_string(tp)}));
  else if (dp_attention)
    e.assumptions.push_back(
        TrF("DP attention over {0} GPUs: each runs the attention of its own {1} of the {2} "
            "sequences with the attention weights whole; MLP and MoE layers split over all {3}",
            {std::to_string(tp), FormatFixed(own_seqs, 0), FormatFixed(mb, 0), std::to_string(tp)}) +
        (link.basis.empty() ? "" : "; " + link.basis));
  else if (tp > 1 && !row_split)
    e.assumptions.push_back(
        link.basis.empty()
            ? TrF("tensor parallelism over {0} GPUs; all-reduce latency {1} per call (stated assumption)",
                  {std::to_string(tp), FormatSeconds(link.latency_s)})
            : TrF("tensor parallelism over {0} GPUs; {1} ({2}, {3} per call)",
                  {std::to_string(tp), link.basis, FormatGBs(link.bytes_per_s), FormatSeconds(link.latency_s)}));
  if (memory.layers_on_gpu < model.layers)
    e.assumptions.push_back(
        TrF("offloaded layers run on the CPU at host RAM bandwidth {0} GB/s", {FormatFixed(s.ram_gbs, 1)}));
  if (!memory.fits)
    e.warnings.push_back(Tr("the scenario does not fit in memory: speeds are what it would run at if it did"));
  return e;
}

}  // namespace gpuplan
