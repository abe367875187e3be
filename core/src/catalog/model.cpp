#include "gpuplan/model.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/units.h"

namespace gpuplan {

// Parameter anatomy per layer, following the Hugging Face implementations of each family
// (modeling_llama/qwen2/qwen3/gemma2/gemma3/phi3/mixtral/deepseek_v3/gpt_oss/gpt_neox/bloom/
// falcon/jamba.py): projections are weight matrices in × out, plus the biases and norms the
// config enables. Fused projections (Phi-3 qkv_proj, Falcon query_key_value) have the same
// count as separate ones.
ParamCount CountParams(const Model& m) {
  const double h = m.hidden, heads = m.heads, kv = m.kv_heads, d = m.head_dim;
  const double norm = m.layer_norm ? 2 * h : h;  // LayerNorm has a bias, RMSNorm does not

  ParamCount c;
  c.embedding = static_cast<double>(m.vocab) * h * (m.tie_embeddings ? 1 : 2) +
                static_cast<double>(m.learned_positions) * h + static_cast<double>(m.token_types) * h +
                (m.lm_head_bias ? m.vocab : 0);
  double shared = c.embedding + (m.final_norm ? norm : 0) + (m.embedding_norm ? 2 * h : 0) + m.head_params;
  double routed_total = 0, routed_active = 0, last_layer = 0;

  for (int layer = 0; layer < m.layers; ++layer) {
    const double routed_before = routed_total;
    double p = m.norms_per_layer * norm + m.layer_extra;
    const double mixer_start = p;
    if (m.IsAttentionLayer(layer)) {
      if (m.mla) {
        const MlaSpec& a = *m.mla;
        const double qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
        p += a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * heads * qk : h * heads * qk;
        p += h * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank +
             a.kv_lora_rank * heads * (a.qk_nope_head_dim + a.v_head_dim);
        p += heads * a.v_head_dim * h;
        if (a.indexer_heads > 0) {
          // Indexer: wq_b from the q latent, wk, a LayerNorm on k, and per-head weights.
          const double ih = a.indexer_heads, id = a.indexer_head_dim;
          p += a.q_lora_rank * ih * id + h * id + 2 * id + h * ih;
        }
      } else {
        // Gemma 4's global layers: their own head size and KV heads, K shared as V (no v_proj).
        const bool global = m.global_head_dim > 0 && !m.IsSlidingLayer(layer);
        const double hd = global ? m.global_head_dim : d;
        const double kvh = global && m.global_kv_heads > 0 ? m.global_kv_heads : kv;
        const double kv_mats = global && m.global_k_eq_v ? 1 : 2;
        p += h * heads * hd * (m.linear && m.linear->gated_attention ? 2 : 1) + kv_mats * h * kvh * hd + heads * hd * h;
        if (m.qkv_bias) p += heads * hd + kv_mats * kvh * hd;
        if (m.out_bias) p += h;
        if (m.qk_norm) p += 2 * hd;
        if (m.attention_sinks) p += heads;
      }
    } else if (m.linear) {
      // Gated DeltaNet (Yang et al. 2024; modeling_qwen3_next.py): in_proj_qkvz, in_proj_ba,
      // a depthwise conv over q, k and v, dt_bias and A_log per value head, a gated RMSNorm
      // over the value head dim, out_proj.
      const LinearAttnSpec& a = *m.linear;
      const double key_dim = static_cast<double>(a.key_heads) * a.key_head_dim;
      const double value_dim = static_cast<double>(a.value_heads) * a.value_head_dim;
      p += h * (2 * key_dim + 2 * value_dim) + h * 2.0 * a.value_heads;
      p += (2 * key_dim + value_dim) * a.conv_kernel;
      p += 2.0 * a.value_heads + a.value_head_dim;
      p += value_dim * h;
    } else if (m.mamba) {
      // Mamba block (Gu & Dao 2023) as in Jamba: in_proj, depthwise conv, x_proj, dt_proj,
      // A_log, D, out_proj, and Jamba's RMSNorms on dt, B and C.
      const MambaSpec& s = *m.mamba;
      const double inner = static_cast<double>(s.expand) * h;
      p += h * 2 * inner + (s.proj_bias ? 2 * inner : 0);
      p += inner * s.d_conv + (s.conv_bias ? inner : 0);
      p += inner * (s.dt_rank + 2.0 * s.d_state);
      p += s.dt_rank * inner + inner;
      p += inner * s.d_state + inner;
      p += inner * h + (s.proj_bias ? h : 0);
      if (s.inner_norms) p += s.dt_rank + 2.0 * s.d_state;
    }
    c.attention += p - mixer_start;
    const double dense_mlp = m.intermediate > 0 ? (m.gated_mlp ? 3 : 2) * h * m.intermediate +
                                                      (m.mlp_bias ? (m.gated_mlp ? 2 : 1) * m.intermediate + h : 0)
                                                : 0;
    if (m.IsMoeLayer(layer)) {
      const MoeSpec& e = *m.moe;
      const double ie = e.expert_intermediate;
      const double expert = (m.gated_mlp ? 3 : 2) * h * ie + (e.expert_bias ? (m.gated_mlp ? 2 : 1) * ie + h : 0);
      const double router = h * e.experts + (e.expert_bias || m.router_bias ? e.experts : 0);
      double always = router + e.shared_experts * 3 * h * ie + m.moe_layer_extra;
      if (e.shared_intermediate > 0) always += 3 * h * e.shared_intermediate + h;  // + shared-expert gate
      if (m.moe_with_dense) always += dense_mlp;
      p += always;
      routed_total += e.experts * expert;
      routed_active += e.experts_per_token * expert;
    } else {
      p += dense_mlp;
    }
    shared += p;
    last_layer = p + routed_total - routed_before;
  }
  // DeepSeek-V3's MTP module (its inference/model.py; mlx-lm deepseek_v3.py): one more decoder
  // layer like the last, eh_proj (2h × h), enorm, hnorm and the head's norm, plus the copies of the
  // embedding and LM head the checkpoint stores with it.
  c.mtp = m.mtp_layers * (last_layer + 2 * h * h + 3 * h + 2.0 * m.vocab * h);
  c.total = shared + routed_total + m.vision_params;
  c.active = shared + routed_active;
  c.routed = routed_total;
  c.vision = m.vision_params;
  c.input_embedding = static_cast<double>(m.vocab) * h + static_cast<double>(m.learned_positions) * h +
                      static_cast<double>(m.token_types) * h;
  return c;
}

double PublishedConventionTotal(const Model& m, const ParamCount& c) {
  return c.total - (m.published_excludes_vision ? c.vision : 0) + (m.published_includes_mtp ? c.mtp : 0);
}

double PublishedConventionActive(const Model& m, const ParamCount& c) {
  if (m.active_excludes == "input_embedding") return c.active - c.input_embedding;
  if (m.active_excludes == "embeddings") return c.active - c.embedding;
  return c.active;
}

double ExpertsTouchedFraction(const Model& m, double batch) {
  if (!m.moe || m.moe->experts <= 0) return 1;
  const double k = std::min(1.0, static_cast<double>(m.moe->experts_per_token) / m.moe->experts);
  return 1 - std::pow(1 - k, std::max(1.0, batch));
}

int KvHeadsPerGpu(const Model& m, int tp) {
  if (tp < 1) tp = 1;
  return std::max(1, static_cast<int>(std::ceil(static_cast<double>(m.kv_heads) / tp)));
}

namespace {

// Per-token bytes of one attention layer on one GPU.
double LayerKvPerToken(const Model& m, double elem, int tp, bool sliding) {
  if (m.encoder_only) return 0;  // an encoder reads its input whole: nothing is cached
  if (m.mla) {
    double bytes = (m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) * elem;  // latent, not split by TP
    // DeepSeek-V3.2's indexer keys: FP8 values + an fp32 scale per 128, whatever the KV format.
    if (m.mla->indexer_head_dim > 0) bytes += m.mla->indexer_head_dim + 4.0 * ((m.mla->indexer_head_dim + 127) / 128);
    return bytes;
  }
  if (m.global_head_dim > 0 && !sliding) {
    const int kvh = std::max(1, static_cast<int>(std::ceil(static_cast<double>(m.global_kv_heads > 0 ? m.global_kv_heads : m.kv_heads) / std::max(1, tp))));
    return (m.global_k_eq_v ? 1.0 : 2.0) * kvh * m.global_head_dim * elem;
  }
  return 2.0 * KvHeadsPerGpu(m, tp) * m.head_dim * elem;
}

// Recurrent state of one Mamba layer (SSM state + convolution window), split by TP.
double MambaStateBytes(const Model& m, double elem, int tp) {
  const MambaSpec& s = *m.mamba;
  const double inner = static_cast<double>(s.expand) * m.hidden;
  return inner * (s.d_state + s.d_conv) * elem / std::max(1, tp);
}

// Recurrent state of one Gated DeltaNet layer: a key × value matrix per value head, plus the
// convolution's last kernel-1 inputs (vLLM's layout), split by TP over the heads.
double LinearStateBytes(const Model& m, double elem, int tp) {
  const LinearAttnSpec& a = *m.linear;
  const double conv_dim = 2.0 * a.key_heads * a.key_head_dim + static_cast<double>(a.value_heads) * a.value_head_dim;
  const double state = static_cast<double>(a.value_heads) * a.key_head_dim * a.value_head_dim;
  return (state + conv_dim * (a.conv_kernel - 1)) * elem / std::max(1, tp);
}

}  // namespace

ModelFacts CountFacts(const Model& m) {
  ModelFacts f;
  f.params = CountParams(m);
  for (int layer = 0; layer < m.layers; ++layer) {
    if (!m.IsAttentionLayer(layer))
      ++f.state_layers;
    else if (m.IsSlidingLayer(layer))
      ++f.sliding_layers;
    else
      ++f.full_layers;
    f.moe_layers += m.IsMoeLayer(layer);
  }
  return f;
}

// By kinds of layer: every full attention layer caches the same per token (the global kind
// where the model has one), every sliding layer the plain kind up to the window, every other
// layer its constant state (Mamba or linear attention).
double KvCacheBytes(const Model& m, const ModelFacts& f, long long tokens, double elem, int tp) {
  if (tokens < 0) tokens = 0;
  double bytes = 0;
  if (f.full_layers > 0) bytes += f.full_layers * LayerKvPerToken(m, elem, tp, false) * static_cast<double>(tokens);
  if (f.sliding_layers > 0)
    bytes += f.sliding_layers * LayerKvPerToken(m, elem, tp, true) *
             static_cast<double>(std::min<long long>(tokens, m.sliding_window));
  if (f.state_layers > 0) {
    if (m.mamba) bytes += f.state_layers * MambaStateBytes(m, elem, tp);
    if (m.linear) bytes += f.state_layers * LinearStateBytes(m, elem, tp);
  }
  return bytes;
}

double KvBytesPerToken(const Model& m, const ModelFacts& f, double elem) {
  return f.full_layers * LayerKvPerToken(m, elem, 1, false) + f.sliding_layers * LayerKvPerToken(m, elem, 1, true);
}

double KvCacheBytes(const Model& m, long long tokens, double elem, int tp) {
  return KvCacheBytes(m, CountFacts(m), tokens, elem, tp);
}

double KvBytesPerToken(const Model& m, double elem) {
  return KvBytesPerToken(m, CountFacts(m), elem);
}

std::string DescribeAttention(const Model& m) {
  std::string s;
  if (m.encoder_only) return "encoder-only: no KV cache (the input is read whole)";
  if (m.mla) {
    s = "MLA: latent " + std::to_string(m.mla->kv_lora_rank) + " + rope " + std::to_string(m.mla->qk_rope_head_dim) +
        " per layer" + (m.mla->indexer_head_dim > 0 ? " + FP8 indexer key " + std::to_string(m.mla->indexer_head_dim) : "");
  } else {
    s = m.kv_heads == m.heads ? "MHA" : m.kv_heads == 1 ? "MQA" : "GQA";
    s += ": " + std::to_string(m.kv_heads) + " KV heads × " + std::to_string(m.head_dim);
    if (m.global_head_dim > 0)
      s += " (global layers: " + std::to_string(m.global_kv_heads) + " × " + std::to_string(m.global_head_dim) +
           (m.global_k_eq_v ? ", K shared as V" : "") + ")";
  }
  int attention = 0, sliding = 0;
  for (int layer = 0; layer < m.layers; ++layer) {
    if (!m.IsAttentionLayer(layer)) continue;
    ++attention;
    if (m.IsSlidingLayer(layer)) ++sliding;
  }
  if (sliding > 0)
    s += "; sliding window " + FormatCount(m.sliding_window) + " on " + std::to_string(sliding) + " of " +
         std::to_string(attention) + " layers";
  if (m.mamba)
    s += "; hybrid: " + std::to_string(attention) + " attention + " + std::to_string(m.layers - attention) +
         " Mamba layers";
  if (m.linear)
    s += "; hybrid: " + std::to_string(attention) + " attention + " + std::to_string(m.layers - attention) +
         " linear-attention (Gated DeltaNet) layers";
  return s;
}

}  // namespace gpuplan
