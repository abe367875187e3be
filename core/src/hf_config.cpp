#include "gpuplan/hf_config.h"

#include <cmath>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "json_fields.h"

namespace gpuplan {

using nlohmann::json;

namespace {

// Reads config keys with their Hugging Face aliases, without exceptions.
class ConfigReader {
 public:
  ConfigReader(const json& j, std::string origin) : j_(j), origin_(std::move(origin)) {}

  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }

  const json* Find(std::initializer_list<const char*> keys) const {
    for (const char* k : keys) {
      auto it = j_.find(k);
      if (it != j_.end() && !it->is_null()) return &*it;
    }
    return nullptr;
  }
  bool Has(std::initializer_list<const char*> keys) const { return Find(keys) != nullptr; }

  // A whole number >= 0; `fallback` when absent (or an error when required).
  long long Int(std::initializer_list<const char*> keys, long long fallback, bool required = false) {
    const json* v = Find(keys);
    if (!v) {
      if (required) Fail(*keys.begin(), "is missing");
      return fallback;
    }
    if (!v->is_number() || v->get<double>() < 0 || v->get<double>() != std::floor(v->get<double>()) ||
        v->get<double>() > 1e15) {
      Fail(KeyName(keys, v), "must be a whole number >= 0");
      return fallback;
    }
    return v->get<long long>();
  }
  bool Bool(std::initializer_list<const char*> keys, bool fallback) {
    const json* v = Find(keys);
    if (!v) return fallback;
    if (!v->is_boolean()) {
      Fail(KeyName(keys, v), "must be true or false");
      return fallback;
    }
    return v->get<bool>();
  }
  std::string String(std::initializer_list<const char*> keys) {
    const json* v = Find(keys);
    if (!v) return {};
    if (!v->is_string()) {
      Fail(KeyName(keys, v), "must be a string");
      return {};
    }
    return v->get<std::string>();
  }
  void Fail(std::string_view key, std::string_view why) {
    if (error_.empty()) error_ = origin_ + ": key '" + std::string(key) + "' " + std::string(why);
  }

 private:
  const char* KeyName(std::initializer_list<const char*> keys, const json* v) const {
    for (const char* k : keys) {
      auto it = j_.find(k);
      if (it != j_.end() && &*it == v) return k;
    }
    return *keys.begin();
  }

  const json& j_;
  std::string origin_;
  std::string error_;
};

// Defaults of transformers' config classes that published config.json files rely on.
// Gemma3TextConfig (transformers models/gemma3/configuration_gemma3.py): vocab_size 262208,
// head_dim 256, max_position_embeddings 131072, sliding_window 4096, sliding_window_pattern 6.
json FamilyDefaults(const json& cfg, const json& top) {
  auto type_of = [](const json& j) {
    auto it = j.find("model_type");
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string t = type_of(cfg).empty() ? type_of(top) : type_of(cfg);
  if (t == "gemma3_text" || t == "gemma3")
    return json{{"vocab_size", 262208}, {"head_dim", 256}, {"max_position_embeddings", 131072},
                {"sliding_window", 4096}, {"sliding_window_pattern", 6}};
  return json::object();
}

}  // namespace

Result<Model> ImportHfConfig(std::string_view text, const std::string& origin, const std::string& id) {
  json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{origin + ": not valid JSON"};
  if (!doc.is_object()) return Error{origin + ": must be a JSON object (a Hugging Face config.json)"};
  // Multimodal checkpoints (Gemma 3, Llama 4, ...) keep the language model in text_config.
  const json* cfg = &doc;
  auto text_config = doc.find("text_config");
  if (text_config != doc.end() && text_config->is_object()) cfg = &*text_config;
  // Published configs omit keys that equal their config class's defaults; fill those in.
  json with_defaults = FamilyDefaults(*cfg, doc);
  if (!with_defaults.empty()) {
    with_defaults.update(*cfg);
    cfg = &with_defaults;
  }
  ConfigReader r(*cfg, origin + (cfg != &doc ? ": text_config" : ""));
  ConfigReader top(doc, origin);

  Model m;
  m.model_type = r.String({"model_type"});
  if (m.model_type.empty()) m.model_type = top.String({"model_type"});
  if (m.model_type.empty() && !r.failed()) {
    auto arch = doc.find("architectures");
    if (arch != doc.end() && arch->is_array() && !arch->empty() && (*arch)[0].is_string())
      m.model_type = (*arch)[0].get<std::string>();
    else
      r.Fail("model_type", "is missing (and there is no 'architectures' list)");
  }
  const std::string& t = m.model_type;
  const bool is_gemma = t.rfind("gemma", 0) == 0;
  const bool is_deepseek = t == "deepseek_v2" || t == "deepseek_v3";
  const bool is_bloom = t == "bloom";
  const bool is_falcon = t == "falcon" || t == "RefinedWeb" || t == "RefinedWebModel";
  const bool is_neox = t == "gpt_neox";
  const bool is_jamba = t == "jamba";
  const bool is_gpt_oss = t == "gpt_oss";
  const bool is_opt = t == "opt";

  m.id = id.empty() ? t : id;
  m.hidden = static_cast<int>(r.Int({"hidden_size", "n_embd", "n_embed", "d_model"}, 0, true));
  m.layers = static_cast<int>(r.Int({"num_hidden_layers", "n_layer", "num_layers"}, 0, true));
  m.heads = static_cast<int>(r.Int({"num_attention_heads", "n_head", "num_heads"}, 0, true));
  m.vocab = static_cast<int>(r.Int({"vocab_size"}, 0, true));
  if (r.failed()) return Error{r.error()};
  if (m.hidden <= 0 || m.layers <= 0 || m.heads <= 0 || m.vocab <= 0)
    return Error{origin + ": hidden_size, num_hidden_layers, num_attention_heads and vocab_size must be > 0"};

  long long kv_default = m.heads;
  if (is_falcon && !r.Bool({"new_decoder_architecture"}, false) && r.Bool({"multi_query"}, true)) kv_default = 1;
  m.kv_heads = static_cast<int>(r.Int({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, kv_default));
  if (m.kv_heads <= 0 || m.heads % m.kv_heads != 0)
    return Error{origin + ": key 'num_key_value_heads' (" + std::to_string(m.kv_heads) +
                 ") must be > 0 and divide num_attention_heads (" + std::to_string(m.heads) + ")"};
  m.head_dim = static_cast<int>(r.Int({"head_dim"}, m.hidden / m.heads));
  // Falcon/BLOOM/NeoX-style configs may leave the MLP width implicit: 4 × hidden.
  m.intermediate = static_cast<int>(r.Int({"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"}, 4LL * m.hidden));
  m.max_context = r.Int({"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}, 0);
  // PretrainedConfig's default is tie_word_embeddings = true; Llama-style configs say false.
  m.tie_embeddings = r.Bool({"tie_word_embeddings"}, top.Bool({"tie_word_embeddings"}, true));

  // Layer anatomy by family.
  if (is_bloom || is_neox || is_falcon || is_opt) {
    m.layer_norm = true;
    m.gated_mlp = false;
  }
  if (is_bloom) {
    m.qkv_bias = m.out_bias = m.mlp_bias = true;
    m.embedding_norm = true;
  } else if (is_opt) {
    const bool bias = r.Bool({"enable_bias"}, true);
    m.qkv_bias = m.out_bias = m.mlp_bias = bias;
    // OPT's learned positions have 2 extra rows (OPTLearnedPositionalEmbedding offset).
    m.learned_positions = m.max_context + 2;
  } else if (is_neox) {
    const bool bias = r.Bool({"attention_bias"}, true);
    m.qkv_bias = m.out_bias = bias;
    m.mlp_bias = true;
  } else if (is_falcon) {
    const bool bias = r.Bool({"bias"}, false);
    m.qkv_bias = m.out_bias = m.mlp_bias = bias;
    // The new decoder architecture (40B, 180B) has two LayerNorms per block; 7B has one.
    m.norms_per_layer = r.Bool({"new_decoder_architecture"}, false) ? 2 : 1;
  } else if (t == "qwen2" || t == "qwen2_moe") {
    m.qkv_bias = true;  // Qwen2 hard-codes bias on q, k, v (not on o)
  } else {
    const bool bias = r.Bool({"attention_bias"}, is_gpt_oss);
    m.qkv_bias = m.out_bias = bias;
    m.mlp_bias = r.Bool({"mlp_bias"}, false);
  }
  if (t == "qwen3" || t == "qwen3_moe" || t == "gemma3" || t == "gemma3_text") m.qk_norm = true;
  if (is_gemma && t != "gemma") m.norms_per_layer = 4;  // pre/post attention and feed-forward norms
  m.attention_sinks = is_gpt_oss;

  // Linear-attention layers: Qwen3-Next's Gated DeltaNet (modeling_qwen3_next.py) is modelled;
  // other linear-attention layouts are refused rather than counted wrong.
  if (t == "qwen3_next" || r.Has({"linear_num_value_heads"})) {
    LinearAttnSpec a;
    a.key_heads = static_cast<int>(r.Int({"linear_num_key_heads"}, 0, true));
    a.value_heads = static_cast<int>(r.Int({"linear_num_value_heads"}, 0, true));
    a.key_head_dim = static_cast<int>(r.Int({"linear_key_head_dim"}, 0, true));
    a.value_head_dim = static_cast<int>(r.Int({"linear_value_head_dim"}, 0, true));
    a.conv_kernel = static_cast<int>(r.Int({"linear_conv_kernel_dim"}, 4));
    a.full_attention_interval = static_cast<int>(r.Int({"full_attention_interval"}, 4));
    if (const json* types = r.Find({"layer_types"}); types && types->is_array() && static_cast<int>(types->size()) == m.layers)
      for (const json& lt : *types) a.full_layers.push_back(lt.is_string() && lt.get<std::string>() == "full_attention");
    m.linear = a;
    m.qk_norm = true;  // Qwen3-Next's full-attention layers normalise q and k per head
  } else if (const json* types = r.Find({"layer_types"}); types && types->is_array()) {
    for (const json& lt : *types)
      if (lt.is_string() && lt.get<std::string>() == "linear_attention")
        return Error{origin + ": key 'layer_types' lists linear_attention layers of a family gpuplan does not model yet"};
  }
  // Sliding-window layers: an explicit layer_types list wins; else the family's pattern.
  const json* window = r.Find({"sliding_window"});
  if (window && window->is_number_integer() && window->get<long long>() > 0 &&
      r.Bool({"use_sliding_window"}, true)) {
    m.sliding_window = static_cast<int>(window->get<long long>());
    const json* types = r.Find({"layer_types"});
    if (types && types->is_array() && static_cast<int>(types->size()) == m.layers) {
      for (const json& lt : *types) m.sliding_layers.push_back(lt.is_string() && lt.get<std::string>() == "sliding_attention");
    } else if (t == "gemma2") {
      for (int i = 0; i < m.layers; ++i) m.sliding_layers.push_back(i % 2 == 0);  // local, global, local, ...
    } else if (t == "gemma3" || t == "gemma3_text") {
      const long long pattern = r.Int({"sliding_window_pattern"}, 6);  // 5 local : 1 global
      for (int i = 0; i < m.layers; ++i) m.sliding_layers.push_back(pattern <= 0 || (i + 1) % pattern != 0);
    } else if (t == "qwen2" || t == "qwen2_moe" || t == "qwen3" || t == "qwen3_moe") {
      // Qwen: layers from max_window_layers on use the window.
      const long long from = r.Int({"max_window_layers"}, m.layers);
      for (int i = 0; i < m.layers; ++i) m.sliding_layers.push_back(i >= from);
    }
  }

  // Mixture of experts.
  const long long experts = r.Int({"num_local_experts", "num_experts", "n_routed_experts"}, 0);
  if (experts > 0) {
    MoeSpec e;
    e.experts = static_cast<int>(experts);
    e.experts_per_token = static_cast<int>(r.Int({"num_experts_per_tok", "experts_per_token", "moe_topk"}, 0, true));
    e.expert_intermediate = static_cast<int>(r.Int({"moe_intermediate_size"}, m.intermediate));
    e.shared_experts = static_cast<int>(r.Int({"n_shared_experts"}, 0));
    e.shared_intermediate = static_cast<int>(r.Int({"shared_expert_intermediate_size"}, 0));
    e.first_dense_layers = static_cast<int>(r.Int({"first_k_dense_replace"}, 0));
    e.layer_period = static_cast<int>(r.Int({"moe_layer_freq", "decoder_sparse_step", "expert_layer_period"}, 1));
    e.layer_offset = static_cast<int>(r.Int({"expert_layer_offset"}, 0));
    e.expert_bias = is_gpt_oss;
    if (e.experts_per_token > e.experts)
      r.Fail("num_experts_per_tok", "must not exceed the number of experts");
    if (t == "mixtral" || t == "gpt_oss" || t == "qwen3_moe" || t == "qwen2_moe") {
      // These use MoE in every layer (unless mlp_only_layers says otherwise, which we ignore).
      e.layer_period = std::max(1, e.layer_period);
    }
    m.moe = e;
  }

  // Multi-head latent attention.
  if (is_deepseek || r.Has({"kv_lora_rank"})) {
    MlaSpec a;
    a.q_lora_rank = static_cast<int>(r.Int({"q_lora_rank"}, 0));
    a.kv_lora_rank = static_cast<int>(r.Int({"kv_lora_rank"}, 0, true));
    a.qk_nope_head_dim = static_cast<int>(r.Int({"qk_nope_head_dim"}, 0, true));
    a.qk_rope_head_dim = static_cast<int>(r.Int({"qk_rope_head_dim"}, 0, true));
    a.v_head_dim = static_cast<int>(r.Int({"v_head_dim"}, 0, true));
    m.mla = a;
    m.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
  }

  // Hybrid attention + Mamba (Jamba).
  if (is_jamba || r.Has({"mamba_d_state"})) {
    MambaSpec s;
    s.d_state = static_cast<int>(r.Int({"mamba_d_state"}, 16));
    s.d_conv = static_cast<int>(r.Int({"mamba_d_conv"}, 4));
    s.expand = static_cast<int>(r.Int({"mamba_expand"}, 2));
    s.dt_rank = static_cast<int>(r.Int({"mamba_dt_rank"}, (m.hidden + 15) / 16));
    s.conv_bias = r.Bool({"mamba_conv_bias"}, true);
    s.proj_bias = r.Bool({"mamba_proj_bias"}, false);
    s.inner_norms = is_jamba;
    s.attn_period = static_cast<int>(r.Int({"attn_layer_period"}, 1));
    s.attn_offset = static_cast<int>(r.Int({"attn_layer_offset"}, 0));
    m.mamba = s;
  }

  if (r.failed()) return Error{r.error()};
  if (top.failed()) return Error{top.error()};
  return m;
}

}  // namespace gpuplan
