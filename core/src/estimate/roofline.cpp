#include "gpuplan/roofline.h"
#include "gpuplan/i18n.h"

#include "gpuplan/ceilings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gpuplan/model.h"
#include "gpuplan/probe_result.h"
#include "gpuplan/small_sort.h"
#include "gpuplan/speed.h"
#include "gpuplan/training.h"
#include "gpuplan/units.h"

namespace gpuplan {

namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c == '_' ? ' ' : c);
  return s;
}

std::string Num(double v) {
  return FormatShort(v, 3);
}

// Bytes per element of a matmul operand at a compute precision.
double ElementBytes(const std::string& precision) {
  if (precision == "fp64") return 8;
  if (precision == "fp32" || precision == "tf32") return 4;
  if (precision.rfind("fp8", 0) == 0 || precision == "int8") return 1;
  if (precision == "fp4" || precision == "int4" || precision == "nvfp4" || precision == "mxfp4") return 0.5;
  return 2;
}

}  // namespace

// [SECTION] Ceilings --------------------------------------------------------------------
const ComputeCeiling* Roof::FindCompute(const std::string& key) const {
  for (const ComputeCeiling& c : compute)
    if (c.key == key && !c.measured) return &c;
  return nullptr;
}

const MemoryCeiling* Roof::FindMemory(const std::string& key) const {
  for (const MemoryCeiling& m : memory)
    if (m.key == key) return &m;
  return nullptr;
}

double Roof::Ridge(const std::string& precision) const {
  const ComputeCeiling* c = FindCompute(precision);
  if (!c || memory.empty() || memory.front().bytes_per_s <= 0) return 0;
  return c->flops_per_s / memory.front().bytes_per_s;
}

Roof GpuRoof(const Catalog& catalog, const Gpu& gpu) {
  Roof r;
  r.id = gpu.id;
  r.label = gpu.name;
  for (const auto& [key, flops] : gpu.dense_flops)
    if (flops > 0) r.compute.push_back({key, TrF("{0} dense", {Upper(key)}), flops, false});
  StableSortSmall(r.compute.begin(), r.compute.end(),
                   [](const ComputeCeiling& a, const ComputeCeiling& b) { return a.flops_per_s > b.flops_per_s; });
  if (gpu.bandwidth_bytes_per_s > 0)
    r.memory.push_back({"dram", gpu.memory_type.empty() ? std::string(Tr("memory")) : gpu.memory_type,
                        gpu.bandwidth_bytes_per_s, false});
  if (gpu.interconnect && gpu.interconnect->bytes_per_s > 0)
    r.memory.push_back({"link",
                        TrF("{0} (one direction)",
                            {gpu.interconnect->kind +
                             (gpu.interconnect->generation ? " " + std::to_string(gpu.interconnect->generation) : "")}),
                        gpu.interconnect->bytes_per_s / 2, false});
  if (gpu.pcie_gen > 0) {  // no host ceiling drawn from an assumed generation
    std::vector<std::string> ignored;
    const Link pcie = PcieLink(catalog, gpu, ignored);
    r.memory.push_back({"host", TrF("{0} (host)", {pcie.name}), pcie.bytes_per_s, false});
  }
  // The attainable roof (dashed): what published copy and GEMM microbenchmarks reach on this
  // GPU, or on GPUs of its kind where it has none (ceilings.h); a probe's own measurements
  // join it (AddMeasuredCeilings).
  auto how = [](const Attainable& a) { return std::string(a.own ? Tr("published") : Tr("its kind's")); };
  const Attainable mem = AttainableMemory(catalog, gpu);
  if (mem.measurements > 0 && gpu.bandwidth_bytes_per_s > 0)
    r.memory.push_back({"dram-measured",
                        TrF("memory, attainable ({0} {1}%)", {how(mem), FormatFixed(mem.fraction * 100, 0)}),
                        gpu.bandwidth_bytes_per_s * mem.fraction, true});
  const size_t datasheet = r.compute.size();
  for (size_t i = 0; i < datasheet; ++i) {
    const ComputeCeiling c = r.compute[i];
    if (c.key != "bf16" && c.key != "fp16" && c.key.rfind("fp8", 0) != 0) continue;  // GEMMs measured in these
    const Attainable g = AttainableGemm(catalog, gpu, c.key);
    if (g.measurements > 0)
      r.compute.push_back(
          {c.key, TrF("{0} GEMM, attainable ({1} {2}%)", {Upper(c.key), how(g), FormatFixed(g.fraction * 100, 0)}),
           c.flops_per_s * g.fraction, true});
  }
  return r;
}

void AddMeasuredCeilings(Roof& roof, const GpuProbeResult& probe) {
  for (const ProbeMetric& m : probe.metrics) {
    if (!(m.value > 0)) continue;
    if (m.id.rfind("gemm_", 0) == 0 && !m.catalog_field.empty()) {
      std::string key = m.id.substr(5);
      roof.compute.push_back({key, TrF("{0} GEMM (measured)", {Upper(key)}), m.value, true});
    } else if (m.id == "hbm_read") {
      roof.memory.push_back({"dram-measured", Tr("memory read (measured)"), m.value, true});
    } else if (m.id == "l2_read") {
      roof.memory.push_back({"l2", Tr("L2 read (measured)"), m.value, true});
    } else if (m.id == "h2d_pinned") {
      roof.memory.push_back({"host-measured", Tr("host to device, pinned (measured)"), m.value, true});
    }
  }
}

std::vector<ChartPoint> MeasuredGemmPoints(const GpuProbeResult& probe) {
  std::vector<ChartPoint> out;
  for (const ProbeMetric& m : probe.metrics) {
    if (m.id.rfind("gemm_", 0) != 0 || !(m.value > 0)) continue;
    // The probe's method names the shape: "m=8192 n=8192 k=8192".
    double dims[3] = {0, 0, 0};
    const char* names[3] = {"m=", "n=", "k="};
    for (int i = 0; i < 3; ++i)
      if (size_t at = m.method.find(names[i]); at != std::string::npos)
        dims[i] = std::strtod(m.method.c_str() + at + 2, nullptr);
    if (!(dims[0] > 0 && dims[1] > 0 && dims[2] > 0)) continue;
    const double elem = ElementBytes(m.id.substr(5));
    const double flops = 2 * dims[0] * dims[1] * dims[2];
    const double bytes = (dims[0] * dims[2] + dims[2] * dims[1] + dims[0] * dims[1]) * elem;
    out.push_back({Tr(m.name.c_str()), flops / bytes, m.value, 0x333333, true});
  }
  return out;
}

// [SECTION] Operations ------------------------------------------------------------------
Result<Roofline> BuildRoofline(const Catalog& catalog, const Scenario& s) {
  Result<Resolved> r = Resolve(catalog, s);
  if (!r) return Error{r.error()};
  return BuildRoofline(*r, s);
}

Result<Roofline> BuildRoofline(const Resolved& r, const Scenario& s) {
  const Catalog& catalog = r.catalog;
  const Gpu& gpu = r.gpu;
  const WeightFormat& wf = r.weights;
  const KvFormat& kvf = r.kv;
  if (gpu.bandwidth_bytes_per_s <= 0) return Error{TrF("gpu: the catalog has no memory bandwidth for '{0}'", {gpu.id})};
  if (s.tp < 1 || s.batch < 1 || s.context < 1) return Error{Tr("scenario: tp, batch and context must be >= 1")};

  Roofline out;
  out.roof = GpuRoof(catalog, gpu);
  out.precision = ComputePrecision(gpu, wf, r.engine);
  auto peak_of = [&](const std::string& key) {
    for (const char* k : {key.c_str(), "bf16", "fp16", "fp32"})
      if (const ComputeCeiling* c = out.roof.FindCompute(k)) return c->flops_per_s;
    return 0.0;
  };
  const double gemm_peak = peak_of(out.precision);
  if (gemm_peak <= 0) return Error{TrF("gpu: the catalog has no dense throughput for '{0}'", {gpu.id})};
  // A GPU quoted only at a low precision (Jetson AGX Thor: FP4) has no 16/32-bit figure: its
  // attention and FP32 work are drawn against the one it has, an upper bound, and said so.
  double half_peak = peak_of("bf16"), fp32_peak = peak_of("fp32");
  if (half_peak <= 0 || fp32_peak <= 0) {
    out.assumptions.push_back(
        TrF("{0}: the catalog has no 16/32-bit dense throughput; attention and FP32 work are "
            "placed against the {1} peak (an upper bound)",
            {gpu.name, out.precision}));
    if (half_peak <= 0) half_peak = gemm_peak;
    if (fp32_peak <= 0) fp32_peak = half_peak;
  }
  const double bw = gpu.bandwidth_bytes_per_s;
  std::vector<std::string> link_warnings;
  const Link link = CollectiveLink(catalog, gpu, s.tp, link_warnings);

  const Model& m = r.model;
  const double tp = s.tp, wb = wf.bits_per_weight / 8, ab = 2;
  const double h = m.hidden, d = m.head_dim;
  const double heads = m.heads / tp, kv_heads = KvHeadsPerGpu(m, s.tp);
  const double batch = static_cast<double>(s.batch);
  const double prompt = static_cast<double>(std::min(s.prompt, s.context));
  const double decode_context = prompt + (static_cast<double>(s.context) - prompt) / 2;
  double attention_layers = 0, moe_layers = 0;
  for (int layer = 0; layer < m.layers; ++layer) {
    attention_layers += m.IsAttentionLayer(layer) ? 1 : 0;
    moe_layers += m.IsMoeLayer(layer) ? 1 : 0;
  }
  const double dense_layers = m.layers - moe_layers;
  const double mats = m.gated_mlp ? 3 : 2;

  auto add = [&](RoofOp op, double peak, double ceiling_bw, const std::string& ceiling) {
    op.intensity = op.bytes > 0 ? op.flops / op.bytes : 0;
    op.attainable_flops_per_s = std::min(peak, op.intensity * ceiling_bw);
    const double compute_s = op.flops / peak, memory_s = op.bytes / ceiling_bw;
    op.seconds = op.count * std::max(compute_s, memory_s);
    op.ceiling = ceiling;
    op.bound = compute_s >= memory_s ? "compute" : (ceiling == "link" ? "link" : "memory");
    out.ops.push_back(op);
  };
  // A GEMM of M tokens × K inputs → N outputs with weights at wbytes per element (Williams et
  // al.'s operational intensity: FLOPs over the DRAM traffic of one pass, each operand once).
  auto gemm = [&](const std::string& key, const std::string& name, const std::string& phase, double rows, double n,
                  double k, double count, double weight_bytes) {
    RoofOp op;
    op.key = key;
    op.name = name;
    op.phase = phase;
    op.count = count;
    op.flops = 2 * rows * n * k;
    op.bytes = rows * k * ab + k * n * weight_bytes + rows * n * ab;
    op.formula = TrF("{0} × {1} × {2}: 2·M·N·K FLOPs; A and C at 2 B, weights at {3} B",
                     {Num(rows), Num(n), Num(k), FormatShort(weight_bytes, 3)});
    add(op, gemm_peak, bw, out.precision);
  };
  const double q = heads * d, kv = kv_heads * d;
  const double ffn = m.intermediate / tp;

  // Inference: one layer's matmuls at prefill (batch × prompt rows) and decode (batch rows).
  for (const char* phase : {"prefill", "decode"}) {
    const std::string ph = phase;
    const double rows = ph == "prefill" ? batch * prompt : batch;
    gemm(ph + "_qkv", Tr("QKV projection"), ph, rows, q + 2 * kv, h, attention_layers, wb);
    gemm(ph + "_o", Tr("attention output projection"), ph, rows, h, q, attention_layers, wb);
    if (dense_layers > 0 && m.intermediate > 0) {
      gemm(ph + "_mlp_up", m.gated_mlp ? Tr("MLP gate + up") : Tr("MLP up"), ph, rows, (mats - 1) * ffn, h,
           dense_layers, wb);
      gemm(ph + "_mlp_down", Tr("MLP down"), ph, rows, h, ffn, dense_layers, wb);
    }
    if (m.moe && moe_layers > 0) {
      // Routed experts: each token runs k of E experts; the weights read are those of the
      // experts some token picked (ExpertsTouchedFraction: 1-(1-k/E)^rows).
      const MoeSpec& e = *m.moe;
      const double width = static_cast<double>(e.expert_intermediate) / (s.ep ? 1 : tp);
      const double touched = ExpertsTouchedFraction(m, rows) * e.experts / (s.ep ? tp : 1);
      RoofOp op;
      op.key = ph + "_experts";
      op.name = Tr("MoE expert GEMMs");
      op.phase = ph;
      op.count = moe_layers;
      op.flops = 2 * rows * e.experts_per_token * mats * h * width / (s.ep ? tp : 1);
      op.bytes = touched * mats * h * width * wb + rows * e.experts_per_token * (2 * h + width) * ab / (s.ep ? tp : 1);
      op.formula =
          TrF("{0} tokens × top-{1} of {2} experts ({3} experts' weights read per GPU), each {4} matrices of "
              "{5} × {6}",
              {Num(rows), std::to_string(e.experts_per_token), std::to_string(e.experts), FormatFixed(touched, 1),
               Num(mats), Num(h), Num(width)});
      add(op, gemm_peak, bw, out.precision);
    }
    // Attention itself (16-bit): prefill naive materialises the batch·heads·s² scores in memory
    // (written by QKᵀ, read and written by softmax, read by PV: four passes at 2 B; every
    // masked score too), flash keeps them on chip and skips the masked half (Dao et al. 2022).
    if (ph == "prefill") {
      const double scores = batch * heads * prompt * prompt;
      const double qkvo = batch * prompt * (2 * q + 2 * kv) * ab;
      RoofOp naive;
      naive.key = "attention_naive";
      naive.name = Tr("attention, eager (scores in memory)");
      naive.phase = ph;
      naive.count = attention_layers;
      naive.flops = 4 * scores * d;
      naive.bytes = qkvo + 4 * scores * ab;
      naive.formula = Tr("QKᵀ and PV: 4·b·a·s²·d FLOPs; Q, K, V, O + 4 passes over b·a·s² scores at 2 B");
      naive.alternative = s.flash != 0;
      add(naive, half_peak, bw, "bf16");
      RoofOp flash = naive;
      flash.alternative = s.flash == 0;
      flash.key = "attention_flash";
      flash.name = Tr("attention, flash/SDPA");
      flash.flops = 2 * scores * d;
      flash.bytes = qkvo;
      flash.formula = Tr("causal: 2·b·a·s²·d FLOPs (masked blocks skipped); only Q, K, V, O cross memory");
      add(flash, half_peak, bw, "bf16");
    } else {
      RoofOp op;
      op.key = "attention_decode";
      op.name = Tr("attention over the KV cache");
      op.phase = ph;
      op.count = attention_layers;
      const double cache = KvCacheBytes(m, static_cast<long long>(decode_context), kvf.bytes_per_element, s.tp) *
                           batch / std::max(1.0, attention_layers);
      op.flops = batch * AttentionFlopsPerToken(m, decode_context) / std::max(1.0, attention_layers) / tp;
      op.bytes = cache + batch * 2 * q * ab;
      op.formula =
          TrF("one query per sequence against {0} cached tokens: the cache is read once", {Num(decode_context)});
      add(op, half_peak, bw, "bf16");
    }
    gemm(ph + "_lm_head", Tr("LM head (last token)"), ph, batch, static_cast<double>(m.vocab) / tp, h, 1, wb);
    if (s.tp > 1) {
      // Ring all-reduce of the layer output, twice per layer (attention and MLP): each GPU
      // moves 2(t-1)/t of it and adds (t-1)/t of its elements.
      RoofOp op;
      op.key = ph + "_all_reduce";
      op.name = Tr("tensor-parallel all-reduce");
      op.phase = ph;
      op.count = 2.0 * m.layers;
      op.bytes = 2 * (tp - 1) / tp * rows * m.hidden * ab;
      op.flops = (tp - 1) / tp * rows * m.hidden;
      op.formula = TrF("2(tp-1)/tp × {0} × {1} × 2 B over {2}", {Num(rows), Num(h), link.name});
      add(op, half_peak, link.bytes_per_s, "link");
    }
  }

  // Training: one optimizer step of the training estimate (its accumulation steps, its
  // trainable parameters and sharding).
  if (Result<TrainEstimate> train = EstimateTraining(r, s); train.ok()) {
    const double micro_rows = static_cast<double>(s.micro_batch * s.context), steps = train->accumulation_steps;
    const double tokens_weights = (q + 2 * kv) * h + h * q + (dense_layers > 0 ? mats * ffn * h : 0);
    RoofOp op;
    op.key = "train_gemms";
    op.name = Tr("layer GEMMs, forward + backward");
    op.phase = "train";
    op.count = m.layers * steps;
    op.flops = 3 * 2 * micro_rows * tokens_weights;
    op.bytes = 3 * (tokens_weights * 2 + micro_rows * (2 * h + q + 2 * kv + (mats - 1) * ffn) * ab);
    op.formula = TrF("3 × the forward (input and weight gradients) of one layer's linear layers at {0} tokens, BF16",
                     {Num(micro_rows)});
    add(op, half_peak, bw, "bf16");
    RoofOp attn;
    attn.key = "train_attention";
    attn.name = Tr("flash attention, forward + backward");
    attn.phase = "train";
    attn.count = attention_layers * steps;
    const double scores =
        static_cast<double>(s.micro_batch) * heads * static_cast<double>(s.context) * static_cast<double>(s.context);
    // FlashAttention-2's backward does 2.5 times the forward's matmul FLOPs (Dao 2023, §3.2).
    attn.flops = 3.5 * 2 * scores * d;
    attn.bytes = 3 * micro_rows * (2 * q + 2 * kv) * ab;
    attn.formula = Tr("3.5 × the causal forward (2·b·a·s²·d); Q, K, V, O and their gradients cross memory");
    add(attn, half_peak, bw, "bf16");
    // AdamW on the local shard: reads FP32 master, BF16 gradient, two FP32 moments; writes the
    // master, the moments and the BF16 weights: 28 B and ~13 FLOPs per parameter.
    const double local = train->trainable_params / (tp * std::max(1, s.pp)) / (s.zero >= 1 ? s.dp : 1);
    RoofOp adam;
    adam.key = "train_adamw";
    adam.name = Tr("AdamW update");
    adam.phase = "train";
    adam.count = 1;
    adam.flops = 13 * local;
    adam.bytes = 28 * local;
    adam.formula =
        TrF("{0} parameters × (28 B, 13 FLOPs): element-wise, the lowest intensity of the step", {FormatParams(local)});
    add(adam, fp32_peak > 0 ? fp32_peak : half_peak, bw, "fp32");
    if (s.dp > 1) {
      std::vector<std::string> ignored;
      const Link ring = CollectiveLink(catalog, gpu, train->gpus, ignored);
      RoofOp ar;
      ar.key = "train_all_reduce";
      ar.name = Tr("gradient all-reduce");
      ar.phase = "train";
      ar.count = 1;
      const double grads = train->trainable_params * 2 / (tp * std::max(1, s.pp));
      ar.bytes = 2.0 * (s.dp - 1) / s.dp * grads;
      ar.flops = (s.dp - 1.0) / s.dp * grads / 2;
      ar.formula = TrF("ring all-reduce of {0} BF16 gradients over {1}", {FormatBytes(grads), ring.name});
      add(ar, half_peak, ring.bytes_per_s, "link");
    }
  }

  for (const char* phase : {"prefill", "decode", "train"}) {
    double total = 0, replaced = 0;  // replaced: the variant an alternative would stand in for
    for (const RoofOp& op : out.ops)
      if (op.phase == phase && !op.alternative) total += op.seconds;
    for (const RoofOp& op : out.ops)
      if (op.phase == phase && !op.alternative && (op.key == "attention_naive" || op.key == "attention_flash"))
        replaced = op.seconds;
    for (RoofOp& op : out.ops) {
      if (op.phase != phase) continue;
      const double whole = op.alternative ? total - replaced + op.seconds : total;
      op.share = whole > 0 ? op.seconds / whole : 0;
    }
  }
  out.assumptions = {
      Tr("time per operation = max(FLOPs / peak, bytes / bandwidth) at the datasheet's dense peak: an upper bound on "
         "speed "
         "(the Speed tab applies measured efficiencies)"),
      TrF("GEMM operands cross memory once (perfect cache reuse inside the kernel); matmuls at {0}, attention in BF16, "
          "the optimizer in FP32",
          {Upper(out.precision)}),
      TrF("prefill {0} × {1} tokens; decode {2} tokens at a mean context of {3}",
          {Num(batch), Num(prompt), Num(batch), Num(decode_context)}),
  };
  if (m.mla) out.assumptions.push_back(Tr("MLA projections drawn with the heads × head_dim shapes of plain attention"));
  if (attention_layers < m.layers)
    out.assumptions.push_back(Tr("recurrent (Mamba / linear attention) mixers are not drawn; their layers' MLPs are"));
  for (const std::string& w : link_warnings) out.assumptions.push_back(w);
  return out;
}

// [SECTION] Chart layout -----------------------------------------------------------------

std::vector<Tick> LogTicks(double lo, double hi, const std::string& unit) {
  std::vector<Tick> out;
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return out;
  const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int last = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  for (int e = first; e <= last && out.size() < 400; ++e) {
    const double decade = std::pow(10.0, e);
    for (int k = 1; k <= 9; ++k) {
      const double v = decade * k;
      if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
      out.push_back({v, k == 1, k == 1 ? FormatRate(v, unit) : std::string()});
    }
  }
  return out;
}

uint32_t RoofColor(size_t index) {
  static const uint32_t kPalette[] = {0x1f77b4, 0xd62728, 0x2ca02c, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf};
  return kPalette[index % (sizeof kPalette / sizeof kPalette[0])];
}

uint32_t PhaseColor(const std::string& phase) {
  if (phase == "prefill") return 0xff7f0e;
  if (phase == "decode") return 0x17becf;
  if (phase == "train") return 0xbcbd22;
  return 0x555555;
}

RooflineChart MakeRooflineChart(const std::vector<Roof>& roofs, const std::vector<ChartPoint>& points,
                                const std::string& precision) {
  RooflineChart c;
  struct Pending {
    std::string label;
    uint32_t color;
    bool dashed;
    double bytes_per_s, flops_per_s;
  };
  std::vector<Pending> lines;
  for (size_t i = 0; i < roofs.size(); ++i) {
    const Roof& r = roofs[i];
    if (r.compute.empty() || r.memory.empty()) continue;
    const MemoryCeiling& main = r.memory.front();
    // The top ceiling, the scenario's matmul precision, and BF16 (attention and training run
    // there), each once per distinct rate.
    std::vector<const ComputeCeiling*> tops = {&r.compute.front()};
    for (const std::string& key : {precision, std::string("bf16")})
      if (const ComputeCeiling* p = r.FindCompute(key);
          p && std::none_of(tops.begin(), tops.end(),
                            [&](const ComputeCeiling* t) { return t->flops_per_s == p->flops_per_s; }))
        tops.push_back(p);
    for (const ComputeCeiling* top : tops)
      lines.push_back(
          {r.label + ": " + top->label + ", " + main.label, RoofColor(i), false, main.bytes_per_s, top->flops_per_s});
    // Measured ceilings, dashed: the measured GEMM of the chart's precision (or the fastest
    // measured) under each measured memory level.
    const ComputeCeiling* measured_top = nullptr;
    for (const ComputeCeiling& cc : r.compute)
      if (cc.measured && (!measured_top || cc.key == precision ||
                          (measured_top->key != precision && cc.flops_per_s > measured_top->flops_per_s)))
        measured_top = &cc;
    for (const MemoryCeiling& mc : r.memory)
      if (mc.measured && (mc.key == "dram-measured" || mc.key == "l2" || mc.key == "l1" || mc.key == "llc"))
        lines.push_back(
            {r.label + ": " + (measured_top ? measured_top->label : std::string(Tr("peak"))) + ", " + mc.label,
             RoofColor(i), true, mc.bytes_per_s,
             measured_top ? measured_top->flops_per_s : r.compute.front().flops_per_s});
  }
  double x_min = 0.1, x_max = 1000, y_max = 0, y_min = 1e300;
  for (const Pending& p : lines) {
    if (!(p.bytes_per_s > 0 && p.flops_per_s > 0)) continue;
    x_max = std::max(x_max, p.flops_per_s / p.bytes_per_s * 8);
    y_max = std::max(y_max, p.flops_per_s);
  }
  for (const ChartPoint& p : points) {
    if (!(p.intensity > 0 && p.flops_per_s > 0)) continue;
    x_min = std::min(x_min, p.intensity / 2);
    x_max = std::max(x_max, p.intensity * 2);
    y_max = std::max(y_max, p.flops_per_s);
    y_min = std::min(y_min, p.flops_per_s / 2);
  }
  for (const Pending& p : lines)
    if (p.bytes_per_s > 0) y_min = std::min(y_min, p.bytes_per_s * x_min);
  if (!(y_max > 0)) y_max = 1e15;
  c.x_lo = std::pow(10.0, std::floor(std::log10(x_min)));
  c.x_hi = std::pow(10.0, std::ceil(std::log10(x_max)));
  c.y_hi = std::pow(10.0, std::ceil(std::log10(y_max * 1.5)));
  c.y_lo = std::max(std::pow(10.0, std::floor(std::log10(std::min(y_min, y_max)))), c.y_hi / 1e8);
  for (const Pending& p : lines) {
    if (!(p.bytes_per_s > 0 && p.flops_per_s > 0)) continue;
    ChartRoof roof{p.label, p.color, p.dashed, {}};
    const double ridge = p.flops_per_s / p.bytes_per_s;
    // Start where the slope enters the plot (it may start below the y range).
    const double x0 = std::max(c.x_lo, c.y_lo / p.bytes_per_s);
    if (x0 < ridge) roof.line.push_back({x0, p.bytes_per_s * x0});
    roof.line.push_back({std::clamp(ridge, c.x_lo, c.x_hi), p.flops_per_s});
    roof.line.push_back({c.x_hi, p.flops_per_s});
    c.roofs.push_back(std::move(roof));
  }
  c.points = points;
  return c;
}

// [SECTION] SVG ---------------------------------------------------------------------------
namespace {

std::string Hex(uint32_t rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", static_cast<unsigned>(rgb & 0xffffff));
  return buf;
}

std::string F(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", std::isfinite(v) ? v : 0.0);
  return buf;
}

}  // namespace

std::string RooflineSvg(const RooflineChart& c, int width, int height) {
  const double left = 92, right = 34, top = c.title.empty() ? 14 : 34, bottom = 46;
  // Points that land within a few pixels of each other share one number; the key below the
  // chart names every point, so no label overlaps another.
  std::vector<std::pair<double, double>> spots;  // pixel position per group
  std::vector<std::vector<size_t>> groups;
  const double lx0 = std::log10(c.x_lo), lx1 = std::log10(c.x_hi), ly0 = std::log10(c.y_lo), ly1 = std::log10(c.y_hi);
  const double pw = width - left - right, ph = height - top - bottom;
  auto px = [&](double x) { return left + (std::log10(std::max(x, 1e-300)) - lx0) / (lx1 - lx0) * pw; };
  auto py = [&](double y) { return top + ph - (std::log10(std::max(y, 1e-300)) - ly0) / (ly1 - ly0) * ph; };
  for (size_t i = 0; i < c.points.size(); ++i) {
    const ChartPoint& p = c.points[i];
    if (!(p.intensity > 0 && p.flops_per_s > 0)) continue;
    const double x = px(std::clamp(p.intensity, c.x_lo, c.x_hi)), y = py(std::clamp(p.flops_per_s, c.y_lo, c.y_hi));
    size_t g = 0;
    while (g < spots.size() && std::hypot(spots[g].first - x, spots[g].second - y) > 5) ++g;
    if (g == spots.size()) spots.push_back({x, y}), groups.emplace_back();
    groups[g].push_back(i);
  }
  const double legend_h =
      16.0 * static_cast<double>(c.roofs.size()) + 14.0 * static_cast<double>(spots.empty() ? 0 : c.points.size()) + 8;
  const double total_h = height + legend_h;
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" + F(total_h) +
       "\" viewBox=\"0 0 " + std::to_string(width) + " " + F(total_h) +
       "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!c.title.empty())
    o += "<text x=\"" + F(left) + "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" + XmlEscape(c.title) + "</text>\n";
  o += "<g clip-path=\"none\">\n";
  for (const Tick& t : LogTicks(c.x_lo, c.x_hi, "FLOP/B")) {
    const double x = px(t.value);
    o += "<line x1=\"" + F(x) + "\" y1=\"" + F(top) + "\" x2=\"" + F(x) + "\" y2=\"" + F(top + ph) + "\" stroke=\"" +
         (t.major ? "#cccccc" : "#eeeeee") + "\"/>\n";
    if (t.major)
      o += "<text x=\"" + F(x) + "\" y=\"" + F(top + ph + 16) + "\" text-anchor=\"middle\">" + XmlEscape(t.label) +
           "</text>\n";
  }
  for (const Tick& t : LogTicks(c.y_lo, c.y_hi, "FLOP/s")) {
    const double y = py(t.value);
    o += "<line x1=\"" + F(left) + "\" y1=\"" + F(y) + "\" x2=\"" + F(left + pw) + "\" y2=\"" + F(y) + "\" stroke=\"" +
         (t.major ? "#cccccc" : "#eeeeee") + "\"/>\n";
    if (t.major)
      o +=
          "<text x=\"" + F(left - 6) + "\" y=\"" + F(y + 4) + "\" text-anchor=\"end\">" + XmlEscape(t.label) + "</text>\n";
  }
  o += "</g>\n<rect x=\"" + F(left) + "\" y=\"" + F(top) + "\" width=\"" + F(pw) + "\" height=\"" + F(ph) +
       "\" fill=\"none\" stroke=\"#333333\"/>\n";
  o += "<text x=\"" + F(left + pw / 2) + "\" y=\"" + F(top + ph + 36) + "\" text-anchor=\"middle\">" +
       XmlEscape(Tr("arithmetic intensity (FLOP per byte)")) + "</text>\n";
  o += "<text transform=\"translate(16," + F(top + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
       XmlEscape(Tr("attainable FLOP/s")) + "</text>\n";
  // Each point's number in the key: its position in c.points, counted from 1.
  for (const ChartRoof& r : c.roofs) {
    std::string pts;
    for (const auto& [x, y] : r.line) pts += F(px(x)) + "," + F(py(std::max(y, c.y_lo))) + " ";
    o += "<polyline class=\"roof\" fill=\"none\" stroke=\"" + Hex(r.color) + "\" stroke-width=\"2\"" +
         (r.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + pts + "\"><title>" + XmlEscape(r.label) +
         "</title></polyline>\n";
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    std::string numbers;
    for (size_t i : groups[g]) {
      const ChartPoint& p = c.points[i];
      o += "<circle class=\"point\" cx=\"" + F(spots[g].first) + "\" cy=\"" + F(spots[g].second) +
           "\" r=\"4\" fill=\"" + (p.measured ? std::string("none") : Hex(p.color)) + "\" stroke=\"" + Hex(p.color) +
           "\" stroke-width=\"1.5\"><title>" +
           XmlEscape(p.label + ": " + FormatShort(p.intensity, 3) + " FLOP/B, " + FormatRate(p.flops_per_s, "FLOP/s")) +
           "</title></circle>\n";
      numbers += (numbers.empty() ? "" : ",") + std::to_string(i + 1);
    }
    o += "<text x=\"" + F(spots[g].first + 6) + "\" y=\"" + F(spots[g].second - 5) +
         "\" font-size=\"9\" fill=\"#444444\">" + XmlEscape(numbers) + "</text>\n";
  }
  double ly = height + 4;
  for (const ChartRoof& r : c.roofs) {
    o += "<line x1=\"" + F(left) + "\" y1=\"" + F(ly) + "\" x2=\"" + F(left + 24) + "\" y2=\"" + F(ly) +
         "\" stroke=\"" + Hex(r.color) + "\" stroke-width=\"2\"" + (r.dashed ? " stroke-dasharray=\"6 4\"" : "") +
         "/>\n";
    o += "<text class=\"legend\" x=\"" + F(left + 30) + "\" y=\"" + F(ly + 4) + "\">" + XmlEscape(r.label) + "</text>\n";
    ly += 16;
  }
  if (!spots.empty())
    for (size_t i = 0; i < c.points.size(); ++i) {
      const ChartPoint& p = c.points[i];
      o += "<circle cx=\"" + F(left + 12) + "\" cy=\"" + F(ly) + "\" r=\"4\" fill=\"" +
           (p.measured ? std::string("none") : Hex(p.color)) + "\" stroke=\"" + Hex(p.color) + "\"/>\n";
      o += "<text class=\"legend\" x=\"" + F(left + 30) + "\" y=\"" + F(ly + 4) + "\">" +
           XmlEscape(std::to_string(i + 1) + "  " + p.label + ": " + FormatShort(p.intensity, 3) + " FLOP/B, " +
                  FormatRate(p.flops_per_s, "FLOP/s")) +
           "</text>\n";
      ly += 14;
    }
  o += "</svg>\n";
  return o;
}

}  // namespace gpuplan
