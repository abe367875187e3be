#include "gpuplan/hf_config.h"

#include <cstring>
#include <cctype>
#include <cmath>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "gpuplan/i18n.h"
#include "gpuplan/limits.h"
#include "gpuplan/units.h"
#include "json_fields.h"

namespace gpuplan {

using nlohmann::json;

namespace {

// The limit (limits.h) of each integer key a config may hold; other keys are structural counts.
const limits::Limit& LimitOf(std::string_view key) {
  using namespace limits;
  static const std::pair<const char*, const Limit*> kKeys[] = {
      {"hidden_size", &kHidden},
      {"n_embd", &kHidden},
      {"n_embed", &kHidden},
      {"d_model", &kHidden},
      {"q_lora_rank", &kHidden},
      {"kv_lora_rank", &kHidden},
      {"mamba_dt_rank", &kHidden},
      {"num_hidden_layers", &kLayers},
      {"n_layer", &kLayers},
      {"num_layers", &kLayers},
      {"max_window_layers", &kLayers},
      {"first_k_dense_replace", &kLayers},
      {"num_nextn_predict_layers", &kLayers},
      {"num_attention_heads", &kHeads},
      {"n_head", &kHeads},
      {"num_heads", &kHeads},
      {"num_key_value_heads", &kHeads},
      {"num_kv_heads", &kHeads},
      {"n_head_kv", &kHeads},
      {"linear_num_key_heads", &kHeads},
      {"linear_num_value_heads", &kHeads},
      {"index_n_heads", &kHeads},
      {"num_global_key_value_heads", &kHeads},
      {"head_dim", &kHeadDim},
      {"linear_key_head_dim", &kHeadDim},
      {"linear_value_head_dim", &kHeadDim},
      {"qk_nope_head_dim", &kHeadDim},
      {"qk_rope_head_dim", &kHeadDim},
      {"v_head_dim", &kHeadDim},
      {"index_head_dim", &kHeadDim},
      {"global_head_dim", &kHeadDim},
      {"mamba_d_state", &kHeadDim},
      {"intermediate_size", &kIntermediate},
      {"ffn_hidden_size", &kIntermediate},
      {"n_inner", &kIntermediate},
      {"ffn_dim", &kIntermediate},
      {"intermediate_size_mlp", &kIntermediate},
      {"moe_intermediate_size", &kIntermediate},
      {"shared_expert_intermediate_size", &kIntermediate},
      {"vocab_size", &kVocab},
      {"type_vocab_size", &kVocab},
      {"max_position_embeddings", &kContext},
      {"n_positions", &kContext},
      {"max_sequence_length", &kContext},
      {"seq_length", &kContext},
      {"attention_chunk_size", &kContext},
      {"sliding_window", &kContext},
      {"num_local_experts", &kExperts},
      {"num_experts", &kExperts},
      {"n_routed_experts", &kExperts},
      {"num_experts_per_tok", &kExperts},
      {"experts_per_token", &kExperts},
      {"moe_topk", &kExperts},
      {"top_k_experts", &kExperts},
      {"n_shared_experts", &kExperts},
  };
  for (const auto& [name, limit] : kKeys)
    if (key == name) return *limit;
  return kSmallCount;
}

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
      if (required) Fail(*keys.begin(), N_("is missing"));
      return fallback;
    }
    if (!v->is_number() || v->get<double>() < 0 || v->get<double>() != std::floor(v->get<double>())) {
      Fail(KeyName(keys, v), N_("must be a whole number >= 0"));
      return fallback;
    }
    // The limit before any cast: 23333333334 layers must not wrap to an int, nor run a loop.
    const char* key = KeyName(keys, v);
    const limits::Limit& limit = LimitOf(key);
    if (v->get<double>() > static_cast<double>(limit.max)) {
      Fail(key, TrF("is {0}, {1}",
                    {v->is_number_float() ? FormatShort(v->get<double>(), 0) : v->dump(), limits::Above(limit)}));
      return fallback;
    }
    return v->get<long long>();
  }
  bool Bool(std::initializer_list<const char*> keys, bool fallback) {
    const json* v = Find(keys);
    if (!v) return fallback;
    if (!v->is_boolean()) {
      Fail(KeyName(keys, v), N_("must be true or false"));
      return fallback;
    }
    return v->get<bool>();
  }
  std::string String(std::initializer_list<const char*> keys) {
    const json* v = Find(keys);
    if (!v) return {};
    if (!v->is_string()) {
      Fail(KeyName(keys, v), N_("must be a string"));
      return {};
    }
    return v->get<std::string>();
  }
  void Fail(std::string_view key, std::string_view why) {
    // `why` is translated where the table has it (the literals passed here are marked N_).
    if (error_.empty()) error_ = TrF("{0}: key '{1}' {2}", {origin_, key, Tr(std::string(why).c_str())});
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
// LlamaConfig (configuration_llama.py), which LLaVA's text_config leaves to defaults: hidden 4096,
// intermediate 11008, 32 layers, 32 heads, vocab 32000, untied.
json FamilyDefaults(const json& cfg, const json& top) {
  auto type_of = [](const json& j) {
    auto it = j.find("model_type");
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string t = type_of(cfg).empty() ? type_of(top) : type_of(cfg);
  if (t == "gemma3_text" || t == "gemma3")
    return json{{"vocab_size", 262208}, {"head_dim", 256}, {"max_position_embeddings", 131072},
                {"sliding_window", 4096}, {"sliding_window_pattern", 6}};
  if (t == "llama" && &cfg != &top)
    return json{{"hidden_size", 4096}, {"intermediate_size", 11008}, {"num_hidden_layers", 32},
                {"num_attention_heads", 32}, {"vocab_size", 32000}, {"tie_word_embeddings", false}};
  return json::object();
}

// The families gpuplan reads, by model_type (the text model's, for multimodal wrappers), and
// the ones it refuses with a reason. Anything else is refused too: reading an unknown layout as
// Llama gives a wrong count (GPT-2 124M became 152M).
const char* const kSupported[] = {
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen3_next", "qwen3_5_text",
    "qwen3_5_moe_text", "gemma", "gemma2", "gemma3", "gemma3_text", "gemma4_text", "phi", "phi3", "deepseek_v2",
    "deepseek_v3", "deepseek_v32", "kimi_k2", "glm4_moe", "gpt_oss", "gpt2", "gpt_bigcode", "gpt_neox", "bloom",
    "falcon", "RefinedWeb", "RefinedWebModel", "opt", "jamba", "llama4_text", "qwen2_5_vl", "qwen2_vl", "bert",
    "roberta", "xlm-roberta"};
// Multimodal wrappers whose language model sits in text_config.
const char* const kWrappers[] = {"llava", "llama4", "gemma3", "gemma4", "qwen3_5", "qwen3_5_moe", "mistral3"};
const char* const kEncoderDecoder[] = {"t5", "mt5", "umt5", "longt5", "bart", "mbart", "pegasus", "marian", "whisper",
                                       "switch_transformers", "encoder-decoder", "fsmt", "prophetnet", "led",
                                       "blenderbot", "m2m_100", "nllb-moe", "seamless_m4t"};

template <size_t N>
bool In(const char* const (&list)[N], const std::string& t) {
  for (const char* x : list)
    if (t == x) return true;
  return false;
}

std::string SupportedList() {
  std::string out;
  for (const char* x : kSupported) out += (out.empty() ? "" : ", ") + std::string(x);
  for (const char* x : kWrappers) out += ", " + std::string(x);
  return out;
}

// A vision tower and its projector from a multimodal config's vision_config: parameters and how
// they were counted. Layouts per family (transformers modeling_clip/siglip/llava/gemma3/qwen2_5_vl/
// qwen3_vl/llama4 and mlx-vlm's ports); each is checked against a published total in
// tests/reference/model_params-*.json.
struct Vision {
  double params = 0;
  std::string what;
};

Vision CountVision(const json& v, const std::string& family, double text_hidden) {
  auto get = [&](const char* k, double fallback) {
    auto it = v.find(k);
    return it != v.end() && it->is_number() ? it->get<double>() : fallback;
  };
  Vision out;
  const double h = get("hidden_size", 768), inter = get("intermediate_size", 3072);
  const double layers = get("num_hidden_layers", get("depth", 12)), patch = get("patch_size", 32);
  const double image = get("image_size", 224), channels = get("num_channels", get("in_channels", get("in_chans", 3)));
  // A ViT block with biases everywhere and two LayerNorms: q, k, v, o; fc1, fc2.
  const double vit_block = 4 * (h * h + h) + (h * inter + inter) + (inter * h + h) + 2 * 2 * h;
  const double patches = std::floor(image / patch) * std::floor(image / patch);
  if (family == "llava") {
    // CLIP ViT: class token, patch conv without bias, positions for patches + 1, pre- and
    // post-LayerNorm; LLaVA's projector is a 2-layer MLP into the language model's width.
    const double tower = h + channels * patch * patch * h + (patches + 1) * h + 2 * h + layers * vit_block + 2 * h;
    const double projector = h * text_hidden + text_hidden + text_hidden * text_hidden + text_hidden;
    out = {tower + projector,
           TrF("CLIP vision tower ({0}) + 2-layer projector ({1})", {FormatParams(tower), FormatParams(projector)})};
  } else if (family == "gemma3") {
    // SigLIP: patch conv with bias, positions for the patches, post-LayerNorm; Gemma 3's projector
    // is one matrix into the text width plus an RMSNorm.
    const double tower = channels * patch * patch * h + h + patches * h + layers * vit_block + 2 * h;
    const double projector = h * text_hidden + h;
    out = {tower + projector,
           TrF("SigLIP vision tower ({0}) + projector ({1})", {FormatParams(tower), FormatParams(projector)})};
  } else if (family == "llama4") {
    // Llama 4's ViT (mlx-vlm llama4/vision.py): class token, patch conv without bias, positions
    // for patches + 1, pre/post LayerNorms; a pixel-shuffle MLP adapter; a linear projector.
    const double pin = get("projector_input_dim", 4096), pout = get("projector_output_dim", 4096);
    const double vout = get("vision_output_dim", 4096);
    const double tower = layers * vit_block + channels * patch * patch * h + h + (patches + 1) * h + 4 * h;
    const double adapter = inter * pin + pout * pout;
    const double projector = vout * text_hidden;
    out = {tower + adapter + projector, TrF("Llama 4 vision tower ({0}) + adapter and projector ({1})",
                                            {FormatParams(tower), FormatParams(adapter + projector)})};
  } else if (family == "qwen2_5_vl") {
    // Qwen2.5-VL (modeling_qwen2_5_vl.py): 3-D patch conv without bias, RMSNorm blocks with a
    // fused qkv and a gated MLP (biases), a merger: RMSNorm, Linear(4h, 4h), Linear(4h, out).
    const double tp = get("temporal_patch_size", 2), out_h = get("out_hidden_size", text_hidden);
    const double merge = get("spatial_merge_size", 2), m = h * merge * merge;
    const double block = 2 * h + (h * 3 * h + 3 * h) + (h * h + h) + 2 * (h * inter + inter) + (inter * h + h);
    const double tower = channels * tp * patch * patch * h + layers * block;
    const double merger = h + (m * m + m) + (m * out_h + out_h);
    out = {tower + merger,
           TrF("Qwen2.5-VL vision tower ({0}) + merger ({1})", {FormatParams(tower), FormatParams(merger)})};
  } else if (family == "qwen3_5") {
    // Qwen3-VL-style tower (Qwen3.5): 3-D patch conv with bias, learned positions, LayerNorm ViT
    // blocks with biases, a merger (LayerNorm, fc1, fc2) and one more per deep-stack level.
    const double tp = get("temporal_patch_size", 2), out_h = get("out_hidden_size", text_hidden);
    const double merge = get("spatial_merge_size", 2), m = h * merge * merge;
    double deepstack = 0;
    if (auto it = v.find("deepstack_visual_indexes"); it != v.end() && it->is_array()) deepstack = static_cast<double>(it->size());
    const double tower = channels * tp * patch * patch * h + h + get("num_position_embeddings", 0) * h + layers * vit_block;
    const double merger = (2 * h + (m * m + m) + (m * out_h + out_h)) * (1 + deepstack);
    out = {tower + merger,
           TrF("Qwen3.5 vision tower ({0}) + merger ({1})", {FormatParams(tower), FormatParams(merger)})};
  } else if (family == "pixtral") {
    // Pixtral (modeling_pixtral.py, Mistral Small 3.x): patch conv without bias, ln_pre, RMSNorm
    // blocks with q, k, v, o and a gated MLP, no biases; Mistral3's projector: an RMSNorm, a
    // patch merger Linear(4h, h) and two linears into the text width (no bias by default).
    const double block = 4 * h * h + 3 * h * inter + 2 * h;
    const double tower = channels * patch * patch * h + h + layers * block;
    const double merge = 2;  // Mistral3Config's spatial_merge_size: 2 in every published config
    const double projector = h + merge * merge * h * h + h * text_hidden + text_hidden * text_hidden;
    out = {tower + projector, TrF("Pixtral vision tower ({0}) + patch merger and projector ({1})",
                                  {FormatParams(tower), FormatParams(projector)})};
  } else {
    // Gemma 4's tower has no published layout gpuplan has read: a ViT of its width and depth
    // (RMSNorms, gated MLP, no biases), its position table and a projector; approximate.
    const double block = 4 * h * h + 3 * h * inter + 4 * h;
    const double tower = layers * block + channels * patch * patch * h + get("position_embedding_size", 0) * h;
    const double projector = h * text_hidden;
    out = {tower + projector,
           TrF("vision tower approximated as a ViT of its width and depth ({0}; layout not read); an audio "
               "tower, if any, is not counted",
               {FormatParams(tower + projector)})};
  }
  return out;
}

}  // namespace

Result<Model> ImportHfConfig(std::string_view text, const std::string& origin, const std::string& id) {
  json doc = detail::ParseJson(text);
  if (doc.is_discarded()) return Error{origin + ": " + detail::JsonErrorAt(text)};
  if (!doc.is_object()) return Error{origin + ": " + Tr("must be a JSON object (a Hugging Face config.json)")};
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
    if (arch != doc.end() && arch->is_array() && !arch->empty() && (*arch)[0].is_string()) {
      // "Qwen2ForCausalLM" -> "qwen2", "GPT2LMHeadModel" -> "gpt2": the class names the family.
      std::string a = (*arch)[0].get<std::string>();
      for (const char* cut : {"ForCausalLM", "ForConditionalGeneration", "LMHeadModel", "Model"})
        if (const size_t at = a.find(cut); at != std::string::npos && at > 0) {
          a.resize(at);
          break;
        }
      for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      m.model_type = a;
    } else {
      r.Fail("model_type", N_("is missing (and there is no 'architectures' list)"));
    }
  }
  if (r.failed()) return Error{r.error()};
  std::string t = m.model_type;
  const std::string wrapper = top.String({"model_type"});
  const bool encoder_decoder = In(kEncoderDecoder, t) || In(kEncoderDecoder, wrapper) ||
                               (doc.contains("is_encoder_decoder") && doc["is_encoder_decoder"].is_boolean() &&
                                doc["is_encoder_decoder"].get<bool>());
  if (encoder_decoder)
    return Error{origin + ": " +
                 TrF("model_type '{0}' is an encoder-decoder model (T5, BART, Whisper, ...): gpuplan "
                     "plans decoder-only language models and encoder-only embedding and reranker models, not these",
                     {t})};
  if (t == "kimi_k2") t = "deepseek_v3";  // Kimi K2 is DeepSeek-V3's layout (architectures: DeepseekV3ForCausalLM)
  if (!In(kSupported, t) && !(In(kWrappers, t) && cfg == &doc && t != "llava"))
    return Error{origin + ": " +
                 TrF("model_type '{0}' is not a layout gpuplan reads (it would count it wrong); supported: {1}",
                     {m.model_type, SupportedList()})};
  const bool is_gemma = t.rfind("gemma", 0) == 0;
  const bool is_deepseek = t == "deepseek_v2" || t == "deepseek_v3" || t == "deepseek_v32";
  const bool is_bloom = t == "bloom";
  const bool is_falcon = t == "falcon" || t == "RefinedWeb" || t == "RefinedWebModel";
  const bool is_neox = t == "gpt_neox";
  const bool is_jamba = t == "jamba";
  const bool is_gpt_oss = t == "gpt_oss";
  const bool is_opt = t == "opt";
  const bool is_gpt2 = t == "gpt2" || t == "gpt_bigcode";
  const bool is_phi = t == "phi";
  const bool is_encoder = t == "bert" || t == "roberta" || t == "xlm-roberta";
  const bool is_llama4 = t == "llama4_text" || t == "llama4";
  const bool is_glm = t == "glm4_moe";
  const bool is_gemma4 = t == "gemma4_text";

  m.id = id.empty() ? t : id;
  m.hidden = static_cast<int>(r.Int({"hidden_size", "n_embd", "n_embed", "d_model"}, 0, true));
  m.layers = static_cast<int>(r.Int({"num_hidden_layers", "n_layer", "num_layers"}, 0, true));
  m.heads = static_cast<int>(r.Int({"num_attention_heads", "n_head", "num_heads"}, 0, true));
  m.vocab = static_cast<int>(r.Int({"vocab_size"}, 0, true));
  if (r.failed()) return Error{r.error()};
  if (m.hidden <= 0 || m.layers <= 0 || m.heads <= 0 || m.vocab <= 0)
    return Error{origin + ": " + Tr("hidden_size, num_hidden_layers, num_attention_heads and vocab_size must be > 0")};

  long long kv_default = m.heads;
  if (is_falcon && !r.Bool({"new_decoder_architecture"}, false) && r.Bool({"multi_query"}, true)) kv_default = 1;
  m.kv_heads = static_cast<int>(r.Int({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, kv_default));
  if (m.kv_heads <= 0 || m.heads % m.kv_heads != 0)
    return Error{origin + ": " +
                 TrF("key 'num_key_value_heads' ({0}) must be > 0 and divide num_attention_heads ({1})",
                     {std::to_string(m.kv_heads), std::to_string(m.heads)})};
  m.head_dim = static_cast<int>(r.Int({"head_dim"}, m.hidden / m.heads));
  // Falcon/BLOOM/NeoX-style configs may leave the MLP width implicit: 4 × hidden.
  m.intermediate = static_cast<int>(r.Int({"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"}, 4LL * m.hidden));
  // Llama 4: dense layers use intermediate_size_mlp; intermediate_size is each expert's width.
  const int llama4_expert = is_llama4 ? m.intermediate : 0;
  if (is_llama4) m.intermediate = static_cast<int>(r.Int({"intermediate_size_mlp"}, m.intermediate));
  m.max_context = r.Int({"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}, 0);
  // When a config leaves tie_word_embeddings out, its config class's default applies: true for
  // GPT-2, BLOOM, OPT, Falcon, Gemma and the BERT family (PretrainedConfig's), false for LlamaConfig,
  // MistralConfig, Qwen2Config, Llama4TextConfig, GPTNeoXConfig, PhiConfig and the rest of the
  // families read here (a Mistral3 wrapper's text_config leaves it out, say).
  const bool tied_by_default = is_gemma || is_gpt2 || is_bloom || is_opt || is_falcon || is_encoder;
  m.tie_embeddings = r.Bool({"tie_word_embeddings"}, top.Bool({"tie_word_embeddings"}, tied_by_default));

  // Layer anatomy by family.
  if (is_bloom || is_neox || is_falcon || is_opt || is_gpt2 || is_phi || is_encoder) {
    m.layer_norm = true;
    m.gated_mlp = false;
  }
  if (is_gpt2) {
    // GPT-2 / GPT-BigCode (modeling_gpt2.py, modeling_gpt_bigcode.py): learned positions, biases on
    // every projection, a plain 4h MLP, tied embeddings; BigCode's multi-query attention keeps one
    // K/V head.
    m.qkv_bias = m.out_bias = m.mlp_bias = true;
    m.learned_positions = m.max_context;
    if (t == "gpt_bigcode" && r.Bool({"multi_query"}, true)) m.kv_heads = 1;
  } else if (is_phi) {
    // Phi-1/1.5/2 (modeling_phi.py): one LayerNorm per block (attention and MLP in parallel), biases
    // on q, k, v, dense, fc1, fc2, a final LayerNorm and an untied LM head with a bias.
    m.qkv_bias = m.out_bias = m.mlp_bias = true;
    m.norms_per_layer = 1;
    m.lm_head_bias = true;
    if (r.Bool({"qk_layernorm"}, false)) m.qk_norm = true;
  } else if (is_encoder) {
    // BERT / RoBERTa / XLM-R (modeling_bert.py): word, position and token-type embeddings with a
    // LayerNorm, post-norm blocks with biases, no final norm, no LM head. An embedding model keeps
    // the pooler, a reranker its classification head.
    m.encoder_only = true;
    m.qkv_bias = m.out_bias = m.mlp_bias = true;
    m.embedding_norm = true;
    m.final_norm = false;
    m.tie_embeddings = true;  // one table: no LM head
    m.learned_positions = m.max_context;
    m.token_types = r.Int({"type_vocab_size"}, 2);
    std::string arch;
    if (auto a = doc.find("architectures"); a != doc.end() && a->is_array() && !a->empty() && (*a)[0].is_string())
      arch = (*a)[0].get<std::string>();
    const double h = m.hidden;
    if (arch.find("ForSequenceClassification") != std::string::npos) {
      double labels = 2;
      if (auto l = doc.find("id2label"); l != doc.end() && l->is_object()) labels = static_cast<double>(l->size());
      m.head_params = h * h + h + h * labels + labels;
      m.head_what = "classification head (dense + " + std::to_string(static_cast<int>(labels)) + "-label projection)";
    } else if (arch.find("ForMaskedLM") == std::string::npos) {
      m.head_params = h * h + h;
      m.head_what = "pooler";
    }
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
  } else if (t == "qwen2" || t == "qwen2_moe" || t == "qwen2_5_vl" || t == "qwen2_vl") {
    m.qkv_bias = true;  // Qwen2 hard-codes bias on q, k, v (not on o)
  } else if (is_glm) {
    // GLM-4.5 (modeling_glm4_moe.py): attention_bias puts biases on q, k and v only; QK-norm with
    // weights when use_qk_norm.
    m.qkv_bias = r.Bool({"attention_bias"}, false);
    m.qk_norm = r.Bool({"use_qk_norm"}, false);
    m.mtp_layers = static_cast<int>(r.Int({"num_nextn_predict_layers"}, 0));
  } else if (!is_gpt2 && !is_phi && !is_encoder) {
    const bool bias = r.Bool({"attention_bias"}, is_gpt_oss);
    m.qkv_bias = m.out_bias = bias;
    m.mlp_bias = r.Bool({"mlp_bias"}, false);
  }
  if (t == "qwen3" || t == "qwen3_moe" || t == "gemma3" || t == "gemma3_text" || is_gemma4) m.qk_norm = true;
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
        return Error{origin + ": " +
                     Tr("key 'layer_types' lists linear_attention layers of a family gpuplan does not model yet")};
  }
  // Sliding-window layers: an explicit layer_types list wins; else the family's pattern.
  const json* window = r.Find({"sliding_window"});
  if (window && window->is_number_integer() && window->get<long long>() > 0 && r.Bool({"use_sliding_window"}, true) &&
      r.Int({"sliding_window"}, 0) > 0) {
    m.sliding_window = static_cast<int>(r.Int({"sliding_window"}, 0));
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
  if (experts > 0 && (!is_gemma4 || r.Bool({"enable_moe_block"}, true))) {
    MoeSpec e;
    e.experts = static_cast<int>(experts);
    e.experts_per_token =
        static_cast<int>(r.Int({"num_experts_per_tok", "experts_per_token", "moe_topk", "top_k_experts"}, 0, true));
    e.expert_intermediate = static_cast<int>(r.Int({"moe_intermediate_size"}, is_llama4 ? llama4_expert : m.intermediate));
    e.shared_experts = static_cast<int>(r.Int({"n_shared_experts"}, 0));
    e.shared_intermediate = static_cast<int>(r.Int({"shared_expert_intermediate_size"}, 0));
    e.first_dense_layers = static_cast<int>(r.Int({"first_k_dense_replace"}, 0));
    e.layer_period = static_cast<int>(r.Int({"moe_layer_freq", "decoder_sparse_step", "expert_layer_period"}, 1));
    e.layer_offset = static_cast<int>(r.Int({"expert_layer_offset"}, 0));
    e.expert_bias = is_gpt_oss;
    if (e.experts_per_token > e.experts) r.Fail("num_experts_per_tok", N_("must not exceed the number of experts"));
    if (t == "mixtral" || t == "gpt_oss" || t == "qwen3_moe" || t == "qwen2_moe") {
      // These use MoE in every layer (unless mlp_only_layers says otherwise, which we ignore).
      e.layer_period = std::max(1, e.layer_period);
    }
    if (is_llama4) {
      // Llama 4 (modeling_llama4.py, mlx-lm llama4.py): layer i is MoE when i % step == step - 1;
      // each MoE block has one always-on shared expert of the expert width; the router has no bias.
      e.layer_period = static_cast<int>(r.Int({"interleave_moe_layer_step"}, 1));
      e.layer_offset = std::max(0, e.layer_period - 1);
      e.shared_experts = 1;
    }
    if (is_gemma4) {
      // Gemma 4: the MoE block sits beside the dense MLP in every layer; its router carries a scale
      // per hidden unit and per expert, and the block has three norms of its own.
      m.moe_with_dense = true;
      m.moe_layer_extra = 4.0 * m.hidden + static_cast<double>(experts);
    }
    // DeepSeek-V3 / Kimi K2 / GLM-4.5 route with a learned bias per expert (e_score_correction_bias).
    m.router_bias = is_glm || (is_deepseek && r.String({"topk_method"}) == "noaux_tc");
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
    a.indexer_heads = static_cast<int>(r.Int({"index_n_heads"}, 0));
    a.indexer_head_dim = static_cast<int>(r.Int({"index_head_dim"}, 0));
    m.mla = a;
    m.mtp_layers = static_cast<int>(r.Int({"num_nextn_predict_layers"}, 0));
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

  // Gemma 4: global layers with their own head size and KV heads, K shared as V; a scalar per layer.
  if (is_gemma4) {
    m.global_head_dim = static_cast<int>(r.Int({"global_head_dim"}, 0));
    m.global_kv_heads = static_cast<int>(r.Int({"num_global_key_value_heads"}, m.kv_heads));
    m.global_k_eq_v = r.Bool({"attention_k_eq_v"}, false);
    m.layer_extra = 1;
  }
  // Llama 4: chunked local attention on three of every four layers (the fourth is global, no
  // RoPE): the chunked layers cache at most attention_chunk_size tokens.
  if (is_llama4) {
    const long long chunk = r.Int({"attention_chunk_size"}, 0);
    if (chunk > 0) {
      m.sliding_window = static_cast<int>(chunk);
      m.sliding_layers.clear();
      for (int i = 0; i < m.layers; ++i) m.sliding_layers.push_back((i + 1) % 4 != 0);
    }
  }

  // A multimodal checkpoint's vision tower and projector: weights the engine loads.
  if (auto v = doc.find("vision_config"); v != doc.end() && v->is_object()) {
    const std::string family = wrapper == "llava" ? "llava" : wrapper == "llama4" ? "llama4" : wrapper == "gemma3" ? "gemma3"
                               : t == "qwen2_5_vl" || t == "qwen2_vl" ? "qwen2_5_vl"
                               : wrapper == "qwen3_5" || wrapper == "qwen3_5_moe" ? "qwen3_5"
                               : wrapper == "mistral3" ? "pixtral" : "other";
    const Vision vision = CountVision(*v, family, m.hidden);
    m.vision_params = vision.params;
    m.vision_what = vision.what;
  }

  if (r.failed()) return Error{r.error()};
  if (top.failed()) return Error{top.error()};
  return m;
}

std::string ImportedModelId(std::string id) {
  for (const char* suffix : {".json", ".config"})
    if (id.size() > std::strlen(suffix) && id.compare(id.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
      id.resize(id.size() - std::strlen(suffix));
  if (const size_t slash = id.find_last_of("/\\"); slash != std::string::npos) id = id.substr(slash + 1);
  if (id.empty() || id == "config") return "imported-model";
  for (char& ch : id) {
    const bool keep = std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.';
    ch = keep ? static_cast<char>(std::tolower(static_cast<unsigned char>(ch))) : '-';
  }
  return id;
}

}  // namespace gpuplan
