#include "gpuplan/scenario.h"

#include "gpuplan/i18n.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gpuplan/units.h"
#include "gpuplan/version.h"

namespace gpuplan {

// Limits: wide enough for any real deployment, narrow enough that no product overflows or
// turns into nonsense. Context: 2^24 tokens is above every published model window (10M).
namespace {
constexpr long long kMaxContext = 16777216;
constexpr long long kMaxBatch = 65536;
constexpr long long kMaxCount = 4096;
constexpr double kMaxOverheadGib = 1024;
constexpr long long kMaxLayers = 100000;
}  // namespace

namespace {

// Whole numbers only: "8192" yes, "8k", "1e4", " 5", "+5" no — a share link is exact.
bool ParseInteger(std::string_view text, long long& out) {
  if (text.empty() || text.size() > 18) return false;
  long long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

bool ParseNumber(std::string_view text, double& out) {
  if (text.empty() || text.size() > 32) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);  // locale "C": the CLI pins LC_NUMERIC, wasm has only "C"
  if (end != s.c_str() + s.size() || errno != 0 || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::string Quote(std::string_view v) {
  // Keep messages short and printable even when a link carries garbage.
  std::string s;
  for (char c : v.substr(0, 40)) s += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  if (v.size() > 40) s += "...";
  return "'" + s + "'";
}

template <typename T>
std::vector<std::string> Ids(const std::vector<T>& list) {
  std::vector<std::string> ids;
  for (const T& e : list) ids.push_back(e.id);
  return ids;
}

Error FieldError(std::string_view key, std::string message) {
  return Error{std::string(key) + ": " + std::move(message)};
}

std::string Percent(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

bool Unpercent(std::string_view s, std::string& out) {
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size()) return false;
      auto hexval = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      };
      int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return true;
}

// The shortest text that reads back to the same double (1 -> "1", 0.75 -> "0.75", 0.0004 ->
// "0.0004", 1e9 -> "1000000000"), so a link or a CLI command carries exactly the value the page
// computed with. Fixed notation down to 1e-5: a '+' from an exponent reads as a space in a URL;
// below that a negative exponent, which has none. (snprintf: libc++ 14 in Emscripten has no
// floating-point std::to_chars; the CLI pins LC_NUMERIC to "C" and wasm has only "C".)
std::string FormatNumber(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e17) return std::to_string(static_cast<long long>(v));
  char buf[400];
  const bool fixed = std::abs(v) >= 1e-5;
  for (int digits = 1; digits <= 17; ++digits) {
    if (fixed) {
      // Significant digits -> decimals: 0.0004 (exponent -4) needs 4 decimals for 1 digit.
      const int exponent = static_cast<int>(std::floor(std::log10(std::abs(v))));
      std::snprintf(buf, sizeof buf, "%.*f", std::max(0, digits - 1 - exponent), v);
    } else {
      std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    }
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}


}  // namespace

// [SECTION] The field table ----------------------------------------------------------------
// One row per field: key, label, help, and how it reads and writes the scenario. The hash,
// the CLI flags, --help and the page all iterate this table.
namespace {

using Kind = FieldKind;

// A field as the table holds it: what every door sees (FieldInfo) and where it lives.
struct FieldDef {
  FieldInfo info;
  std::string Scenario::*text = nullptr;   // id and word fields
  long long Scenario::*integer = nullptr;
  double Scenario::*number = nullptr;
  int Scenario::*small = nullptr;          // int fields (tp, pp, ...)
};

FieldDef Def(const char* key, const char* label, const char* help, Kind kind, double lo = 0, double hi = 0) {
  FieldDef f;
  f.info.key = key;
  f.info.label = label;
  f.info.help = help;
  f.info.kind = kind;
  f.info.lo = lo;
  f.info.hi = hi;
  return f;
}

const std::vector<FieldDef>& Table() {
  static const std::vector<FieldDef> table = [] {
    std::vector<FieldDef> t;
    // id fields: a catalog id
    auto id = [&](const char* key, const char* label, const char* help, Kind kind, std::string Scenario::*m) {
      FieldDef f = Def(key, label, help, kind);
      f.text = m;
      t.push_back(f);
    };
    auto integer = [&](const char* key, const char* label, const char* help, double lo, double hi, double step,
                       long long Scenario::*m, const char* special = nullptr) {
      FieldDef f = Def(key, label, help, Kind::kInteger, lo, hi);
      f.info.step = step;
      f.info.special = special;
      f.integer = m;
      t.push_back(f);
    };
    auto small = [&](const char* key, const char* label, const char* help, double lo, double hi, double step,
                     int Scenario::*m) {
      FieldDef f = Def(key, label, help, lo == 0 && hi == 1 ? Kind::kSwitch : Kind::kInteger, lo, hi);
      f.info.step = step;
      f.small = m;
      t.push_back(f);
    };
    // decimals < 0: shortest form ("%g")
    auto number = [&](const char* key, const char* label, const char* help, double lo, double hi, double step,
                      int decimals, double Scenario::*m) {
      FieldDef f = Def(key, label, help, Kind::kNumber, lo, hi);
      f.info.step = step;
      f.info.decimals = decimals;
      f.number = m;
      t.push_back(f);
    };
    auto choice = [&](const char* key, const char* label, const char* help, std::vector<std::string> words,
                      std::string Scenario::*m) {
      FieldDef f = Def(key, label, help, Kind::kChoice);
      f.info.choices = std::move(words);
      f.text = m;
      t.push_back(f);
    };
    id("model", "Model", "model id from the catalog (gpuplan catalog models)", Kind::kModel, &Scenario::model);
    id("weights", "Weights", "weight format id: bf16, fp8, q4_k_m, ... (gpuplan catalog formats)", Kind::kWeights,
       &Scenario::weights);
    id("kv", "KV cache", "KV-cache element format id: fp16, bf16, fp8", Kind::kKv, &Scenario::kv);
    integer("context", "Context (tokens)", "tokens per sequence, prompt + output (1 to 16777216)", 1,
            static_cast<double>(kMaxContext), 1024, &Scenario::context);
    integer("prompt", "Prompt (tokens)", "prompt tokens per sequence, at most the context (1 to 16777216)", 1,
            static_cast<double>(kMaxContext), 256, &Scenario::prompt);
    integer("batch", "Batch (sequences)", "concurrent sequences (1 to 65536)", 1, static_cast<double>(kMaxBatch), 1,
            &Scenario::batch);
    id("gpu", "GPU", "accelerator id from the catalog (gpuplan catalog gpus)", Kind::kGpu, &Scenario::gpu);
    // Links and commands from before the rename say count=; they still read (FieldInfo::old_key).
    small("tp", "Tensor parallel",
          "tensor-parallel degree: GPUs per pipeline stage, each holding 1/tp of every layer (1 to 4096)", 1,
          static_cast<double>(kMaxCount), 1, &Scenario::tp);
    t.back().info.old_key = "count";
    small("pp", "Pipeline stages", "pipeline-parallel stages, layers split between them (1 to 64); GPUs in all = tp × pp",
          1, 64, 1, &Scenario::pp);
    small("ep", "Expert parallel",
          "1: MoE experts placed whole on the GPUs of a stage (expert parallelism), 0: each expert split by tensor parallelism",
          0, 1, 0, &Scenario::ep);
    choice("split", "Multi-GPU split",
           "how the engine spreads the model over the tp GPUs: auto (its default: tensor parallel in vLLM, SGLang, "
           "TensorRT-LLM; layer split in llama.cpp and Transformers), tensor, layer (llama.cpp -sm layer), row "
           "(llama.cpp -sm row), dp-attention (SGLang --enable-dp-attention, vLLM --data-parallel-size: attention "
           "data-parallel, MLP/MoE over all the GPUs)",
           {"auto", "tensor", "layer", "row", "dp-attention"}, &Scenario::split);
    id("engine", "Engine", "inference engine profile: vllm, sglang, llama.cpp, hf-transformers, tensorrt-llm",
       Kind::kEngine, &Scenario::engine);
    small("graphs", "CUDA graphs",
          "1: decode steps replayed from CUDA graphs where the engine does so (its default); 0: eager launches "
          "(vLLM --enforce-eager, SGLang --disable-cuda-graph, llama.cpp GGML_CUDA_DISABLE_GRAPHS=1)",
          0, 1, 0, &Scenario::graphs);
    number("mem-util", "Memory cap", "engine memory cap as a fraction (vLLM gpu_memory_utilization); 0 = engine default",
           0, 1, 0.01, 2, &Scenario::mem_util);
    number("overhead-gib", "Overhead (GiB)", "CUDA context + runtime per GPU in GiB (0 to 1024)", 0, kMaxOverheadGib,
           0.25, 2, &Scenario::overhead_gib);
    choice("ecc", "ECC", "ECC on GDDR cards (it takes 1/16 of their memory): default (the card's factory setting), on, off",
           {"default", "on", "off"}, &Scenario::ecc);
    {
      FieldDef m = Def("mig", "MIG slice",
                       "MIG GPU-instance profile to run in, e.g. 1g.10gb (gpuplan catalog show GPU lists them); none = the whole GPU",
                       Kind::kMig);
      m.text = &Scenario::mig;
      t.push_back(m);
    }
    number("gpu-mem-gib", "Limit (GiB)", "memory the GPU may use in GiB, instead of the catalog's total and a unified machine's OS rule (0 = the catalog's; up to 100000)",
           0, 100000, 1, 2, &Scenario::gpu_mem_gib);
    number("used-gib", "In use (GiB)", "memory other processes already hold on each GPU in GiB: a desktop, a second model (0 to 100000)",
           0, 100000, 0.5, 2, &Scenario::used_gib);
    integer("gpu-layers", "GPU layers", "layers kept on the GPUs (llama.cpp -ngl), the rest in host RAM; all = every layer",
            0, static_cast<double>(kMaxLayers), 1, &Scenario::gpu_layers, "all");
    number("ram-gbs", "Host RAM GB/s", "host memory bandwidth for offloaded layers, GB/s (1 to 100000)", 1, 100000, 1, 1,
           &Scenario::ram_gbs);
    number("price-hour", "$/GPU-hour (0 = catalog)", "cloud price per GPU-hour in $; 0 = the catalog's cheapest on-demand offer", 0,
           1000, 0, 2, &Scenario::price_hour);
    number("buy-usd", "$ per GPU (0 = catalog)", "purchase price per GPU in $; 0 = the catalog's price", 0, 10000000, 0, 0,
           &Scenario::buy_usd);
    number("years", "Years", "years over which owned hardware is paid off (0.1 to 20)", 0.1, 20, 0.5, 1, &Scenario::years);
    number("kwh-usd", "$/kWh", "electricity price in $ per kWh (0 to 10)", 0, 10, 0.01, 3, &Scenario::kwh_usd);
    number("pue", "PUE", "power usage effectiveness of the room (1 to 5)", 1, 5, 0.05, 2, &Scenario::pue);
    number("utilization", "Utilisation", "share of hours the GPUs are busy, rented or owned (0.01 to 1)", 0.01, 1, 0.05, 2,
           &Scenario::utilization);
    choice("currency", "Currency",
           "currency of every cost shown: usd, jpy (yen) or eur; prices quoted in yen keep their yen",
           {"usd", "jpy", "eur"}, &Scenario::currency);
    number("fx", "Exchange rate (0 = catalog)",
           "units of the chosen currency per US dollar (yen: about 150); 0 = the catalog's dated rate", 0, 100000, 1, 4,
           &Scenario::fx);
    t.back().info.min_nonzero = 0.001;
    choice("cooling", "Cooling",
           "the rack: none (GPUs' TDP × pue only), air (about 20 kW a rack), rear-door (heat exchanger, about 55 kW) "
           "or liquid (direct to chip, about 120 kW): servers, racks, host power and the cooling's PUE",
           {"none", "air", "rear-door", "liquid"}, &Scenario::cooling);
    number("rack-kw", "Rack kW (0 = cooling's)",
           "the power one rack may draw, kW (0 = the cooling type's limit; 1 to 300)", 0, 300, 1, 1,
           &Scenario::rack_kw);
    integer(
        "gpus-per-server", "GPUs per server (0 = platform's)",
        "GPUs in one server (0 = the platform's: 8 on HGX/OAM boards and PCIe servers, 4 in a workstation; up to 72)",
        0, 72, 1, &Scenario::gpus_per_server);
    number("host-kw", "Host kW per server (0 = platform's)",
           "a server's power besides its GPUs (CPUs, memory, NICs, fans, power supplies), kW (0 = the platform's; up "
           "to 50)",
           0, 50, 0.1, 2, &Scenario::host_kw);
    number("rack-pue", "Rack PUE (0 = cooling's)", "the room's PUE with this cooling (0 = the cooling type's; 1 to 5)",
           0, 5, 0.05, 2, &Scenario::rack_pue);
    t.back().info.min_nonzero = 1;
    number("throttle", "Throttling (air)",
           "throughput lost to thermal throttling in an air-cooled rack above 15 kW, as a fraction (0 to 0.5)", 0, 0.5,
           0.01, 2, &Scenario::throttle);
    number("spot-overhead", "Spot overhead",
           "extra GPU-hours on spot for interruptions and restarts from checkpoints, as a fraction (0 to 5)", 0, 5, 0.05, 2,
           &Scenario::spot_overhead);
    choice("method", "Method", "training method: full (pre-training or full fine-tune), lora, qlora",
           {"full", "lora", "qlora"}, &Scenario::method);
    choice("optimizer", "Optimizer", "adamw, adamw-8bit, adafactor, sgd (with momentum), lion",
           {"adamw", "adamw-8bit", "adafactor", "sgd", "lion"}, &Scenario::optimizer);
    small("zero", "ZeRO stage", "ZeRO stage over the data-parallel GPUs: 0 none, 1 optimizer, 2 + gradients, 3 + parameters (FSDP)",
          0, 3, 1, &Scenario::zero);
    small("dp", "Data parallel", "data-parallel replicas (1 to 65536); GPUs in all = tp × pp × dp", 1, 65536, 1,
          &Scenario::dp);
    integer("micro-batch", "Micro-batch", "sequences per GPU per micro-step (1 to 65536)", 1, 65536, 1, &Scenario::micro_batch);
    choice("recompute", "Recompute", "activation recomputation: none, selective (attention), full (every layer)",
           {"none", "selective", "full"}, &Scenario::recompute);
    small("flash", "Flash attention", "1: flash/SDPA attention (no score tensors kept), 0: eager", 0, 1, 0, &Scenario::flash);
    small("lora-rank", "LoRA rank", "LoRA rank r (1 to 4096)", 1, 4096, 1, &Scenario::lora_rank);
    choice("lora-targets", "LoRA targets", "adapted modules: all-linear (attention and MLP), attention (q, k, v, o), qv",
           {"all-linear", "attention", "qv"}, &Scenario::lora_targets);
    small("lora-layers", "LoRA layers", "adapted layers counted from the last (0 = every layer; 0 to 100000)", 0, 100000, 1,
          &Scenario::lora_layers);
    small("sp", "Sequence parallel", "1: sequence parallelism splits norms and dropouts over the tensor-parallel GPUs too", 0, 1,
          0, &Scenario::sp);
    small("shard-group", "Shard group", "GPUs a ZeRO/FSDP shard spans (hybrid shard: replicas across groups); 0 = every data-parallel GPU",
          0, 65536, 1, &Scenario::shard_group);
    integer("global-batch", "Global batch", "sequences per optimizer step (0 = dp × micro-batch × 8; up to 16777216)", 0,
            16777216, 1, &Scenario::global_batch);
    number("tokens", "Tokens", "training tokens D (1e3 to 1e16)", 1e3, 1e16, 0, -1, &Scenario::tokens);
    number(
        "mfu", "MFU (0 = predict)",
        "model FLOPs utilisation to assume, 0.01 to 1 (Llama 3: 0.38-0.43 on H100); 0 = predicted from the step's time",
        0, 1, 0, 2, &Scenario::mfu);
    small(
        "offload", "CPU offload",
        "0 none, 1 optimizer states and gradients to CPU (ZeRO-Offload), 2 parameters too (ZeRO-3 / FSDP cpu_offload)",
        0, 2, 1, &Scenario::offload);
    small("master", "FP32 master", "1: BF16 mixed precision with FP32 master weights and FP32 optimizer states; 0: pure BF16",
          0, 1, 0, &Scenario::master);
    small("opt-in-bwd", "Optimizer in backward", "1: each parameter is updated as its gradient is computed (no gradient buffer)",
          0, 1, 0, &Scenario::opt_in_bwd);
    choice(
        "ce", "Cross-entropy",
        "loss over the vocabulary: full (FP32 logits and their gradient), chunked (torchtune: 8 chunks upcast one at a "
        "time), fused (Liger, Unsloth, Cut Cross-Entropy: logits never whole)",
        {"full", "chunked", "fused"}, &Scenario::ce);
    small("act-offload", "Activation offload",
          "1: activations saved for backward wait in CPU memory (torchtune, Unsloth)", 0, 1, 0, &Scenario::act_offload);
    small("train-embed", "Train embeddings",
          "LoRA: 1 trains the embeddings and output head in full (PEFT modules_to_save)", 0, 1, 0,
          &Scenario::train_embed);
    small("kbit-prep", "k-bit preparation",
          "QLoRA: 1 = PEFT's prepare_model_for_kbit_training (TRL, one GPU): tables and norms in FP32", 0, 1, 0,
          &Scenario::kbit_prep);
    small("paged", "Paged optimizer",
          "1: optimizer states in paged unified memory (bitsandbytes), evicted to CPU under pressure", 0, 1, 0,
          &Scenario::paged);
    choice("kernels", "Kernels",
           "activations kept: eager (PyTorch as written) or fused (torch.compile, Liger, Unsloth, Transformer Engine)",
           {"eager", "fused"}, &Scenario::kernels);
    choice("precision", "Precision",
           "training GEMMs: bf16, or fp8 (Transformer Engine; weights and master stay BF16/FP32)", {"bf16", "fp8"},
           &Scenario::precision);
    small("cp", "Context parallel",
          "context-parallel GPUs splitting each sequence (ring attention; 1 to 1024); GPUs = tp × pp × dp × cp", 1,
          1024, 1, &Scenario::cp);
    small("vp", "Virtual stages", "interleaved pipeline: model chunks per pipeline GPU (1 to 64; shrinks the bubble)",
          1, 64, 1, &Scenario::vp);
    small("moe-ep", "Expert parallel (training)",
          "training a mixture of experts: GPUs that split each MoE layer's experts, taken from dp × cp (1 to 1024)", 1,
          1024, 1, &Scenario::moe_ep);
    number("reserve", "Allocator reserve",
           "PyTorch's caching allocator over the allocated bytes, as a fraction (0 to 1; 0.1 assumed)", 0, 1, 0.05, 2,
           &Scenario::reserve);
    return t;
  }();
  return table;
}

const FieldDef* FindDef(std::string_view key) {
  for (const FieldDef& f : Table())
    if (key == f.info.key || (f.info.old_key && key == f.info.old_key)) return &f;
  return nullptr;
}

std::string ValueOf(const FieldDef& f, const Scenario& s) {
  if (f.text) return s.*(f.text);
  if (f.small) return std::to_string(s.*(f.small));
  if (f.integer) {
    const long long v = s.*(f.integer);
    return v < 0 && f.info.special ? f.info.special : std::to_string(v);
  }
  return FormatNumber(s.*(f.number));
}

// The fields a link or a command names: the model, the GPU and every field off its default, in
// the table's order. Walks the table itself (looking each field up by its key again made an
// encode quadratic in the number of fields: a third of the link fuzzer's time).
template <class Each>
void ForEachNamed(const Scenario& s, Each each) {
  static const Scenario defaults;
  for (const FieldDef& f : Table()) {
    const std::string_view key = f.info.key;
    if (const std::string value = ValueOf(f, s); key == "model" || key == "gpu" || value != ValueOf(f, defaults))
      each(f.info.key, value);
  }
}

}  // namespace

const std::vector<FieldInfo>& ScenarioFields() {
  static const std::vector<FieldInfo> fields = [] {
    std::vector<FieldInfo> out;
    for (const FieldDef& f : Table()) out.push_back(f.info);
    return out;
  }();
  return fields;
}

const FieldInfo* FindField(std::string_view key) {
  const FieldDef* f = FindDef(key);
  return f ? &f->info : nullptr;
}

std::string ExactNumber(double v) { return FormatNumber(v); }

std::string GetField(const Scenario& s, std::string_view key) {
  const FieldDef* f = FindDef(key);
  return f ? ValueOf(*f, s) : std::string();
}

namespace {

// A Japanese IME types full-width forms (U+FF01..U+FF5E: "３２７６８", "ｑ４＿ｋ＿ｍ") and the
// ideographic space: read as the ASCII they stand for (Unicode's NFKC folds them the same way).
std::string HalfWidth(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const unsigned cp = c >= 0xE0 ? Utf8ThreeByteAt(text, i) : 0;
    if ((cp >= 0xFF01 && cp <= 0xFF5E) || cp == 0x3000) {
      out += cp == 0x3000 ? ' ' : static_cast<char>(cp - 0xFF01 + 0x21);
      i += 2;
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace

std::optional<Error> SetField(Scenario& s, std::string_view key, std::string_view typed, const Catalog& catalog) {
  const std::string half = HalfWidth(typed);
  const std::string_view value = half;
  const FieldDef* f = FindDef(key);
  if (!f) {
    std::vector<std::string> keys;
    for (const FieldInfo& field : ScenarioFields()) keys.emplace_back(field.key);
    const std::string near = NearestWord(key, keys);
    return Error{TrF("unknown field {0}", {Quote(key)}) + (near.empty() ? "" : TrF(": did you mean '{0}'?", {near}))};
  }
  switch (f->info.kind) {
    case Kind::kModel:
      if (!catalog.FindModel(value)) return FieldError(key, UnknownIdMessage(N_("model"), value, Ids(catalog.models)));
      break;
    case Kind::kWeights:
      if (!catalog.FindWeightFormat(value))
        return FieldError(key, UnknownIdMessage(N_("weight format"), value, Ids(catalog.weight_formats)));
      break;
    case Kind::kKv:
      if (!catalog.FindKvFormat(value))
        return FieldError(key, UnknownIdMessage(N_("KV format"), value, Ids(catalog.kv_formats)));
      break;
    case Kind::kGpu:
      if (!catalog.FindGpu(value)) return FieldError(key, UnknownIdMessage(N_("GPU"), value, Ids(catalog.gpus)));
      break;
    case Kind::kEngine:
      if (!catalog.FindEngine(value))
        return FieldError(key, UnknownIdMessage(N_("engine"), value, Ids(catalog.engines)));
      break;
    case Kind::kInteger:
    case Kind::kSwitch: {
      long long v = 0;
      if (f->info.special && value == f->info.special) {
        v = -1;
      } else if (!ParseInteger(value, v) || static_cast<double>(v) < f->info.lo || static_cast<double>(v) > f->info.hi) {
        return FieldError(key,
                          f->info.special
                              ? TrF("{0} must be a whole number from {1} to {2}, or {3}",
                                    {Quote(value), FormatNumber(f->info.lo), FormatNumber(f->info.hi), f->info.special})
                              : TrF("{0} must be a whole number from {1} to {2}",
                                    {Quote(value), FormatNumber(f->info.lo), FormatNumber(f->info.hi)}));
      }
      if (f->small) s.*(f->small) = static_cast<int>(v);
      else s.*(f->integer) = v;
      return std::nullopt;
    }
    case Kind::kText:
    case Kind::kFlags:    // view options only (session.cpp SetViewField parses them)
    case Kind::kGpuList:
      break;
    case Kind::kMig: {
      // Profiles differ per GPU: here the name must be one some GPU has; the estimate checks the
      // scenario's GPU (a link may set mig before gpu).
      if (value == "none") break;
      std::vector<std::string> known = {"none"};
      for (const Gpu& g : catalog.gpus)
        for (const MigProfile& p : g.mig_profiles)
          if (std::find(known.begin(), known.end(), p.name) == known.end()) known.push_back(p.name);
      if (std::find(known.begin(), known.end(), value) == known.end())
        return FieldError(key, UnknownIdMessage(N_("MIG profile"), value, known));
      break;
    }
    case Kind::kChoice:
      if (std::find(f->info.choices.begin(), f->info.choices.end(), value) == f->info.choices.end()) {
        std::string list;
        for (const std::string& c : f->info.choices) list += (list.empty() ? "" : ", ") + c;
        return FieldError(key, TrF("{0} must be one of {1}", {Quote(value), list}));
      }
      break;
    case Kind::kNumber: {
      double v = 0;
      // A field whose 0 means "the catalog's" or "the cooling's" takes nothing between 0 and its
      // least real value (a yen rate of 1e-300 would make every yen price infinite dollars).
      const double least = f->info.min_nonzero;
      if (!ParseNumber(value, v) || v < f->info.lo || v > f->info.hi || (least > 0 && v != 0 && v < least))
        return FieldError(key, least > 0 ? TrF("{0} must be 0 or a number from {1} to {2}",
                                               {Quote(value), FormatNumber(least), FormatNumber(f->info.hi)})
                                         : TrF("{0} must be a number from {1} to {2}",
                                               {Quote(value), FormatNumber(f->info.lo), FormatNumber(f->info.hi)}));
      s.*(f->number) = v;
      return std::nullopt;
    }
  }
  s.*(f->text) = std::string(value);
  return std::nullopt;
}

// A link names the model and the GPU always, every other field only where it differs from its
// default (which is what a missing field reads as).
std::string EncodeState(const Scenario& s) {
  std::string out = "v=" + std::to_string(kStateVersion);
  ForEachNamed(
      s, [&](const char* key, const std::string& value) { out += std::string("&") + key + "=" + Percent(value); });
  return out;
}

std::string PercentEncode(std::string_view value) { return Percent(value); }

DecodedState DecodeState(std::string_view hash, const Catalog& catalog, Scenario base,
                         const std::vector<FieldInfo>& aside) {
  DecodedState result{std::move(base), {}, {}, {}};
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  // A link holds one pair per field (about 150 keys in all): a hostile or broken one with
  // thousands is read up to kMaxStatePairs, and its messages stop at kMaxDropped with a count of
  // the rest, so a 2 MB link costs milliseconds and a screenful of notices, not megabytes.
  size_t pairs = 0, untold = 0, unread = 0;
  auto drop = [&](std::string message) {
    if (result.dropped.size() < kMaxDropped)
      result.dropped.push_back(std::move(message));
    else
      ++untold;
  };
  size_t pos = 0;
  while (pos <= hash.size() && !hash.empty()) {
    if (++pairs > kMaxStatePairs) {
      unread = static_cast<size_t>(std::count(hash.begin() + static_cast<std::ptrdiff_t>(pos), hash.end(), '&')) + 1;
      break;
    }
    size_t amp = hash.find('&', pos);
    std::string_view part = hash.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos);
    pos = amp == std::string_view::npos ? hash.size() + 1 : amp + 1;
    if (part.empty()) continue;
    size_t eq = part.find('=');
    std::string key, value;
    if (eq == std::string_view::npos || !Unpercent(part.substr(0, eq), key) ||
        !Unpercent(part.substr(eq + 1), value)) {
      drop(TrF("{0}: not a key=value pair", {Quote(part)}));
      continue;
    }
    if (key == "v") {
      long long v = 0;
      if (!ParseInteger(value, v) || v < 1)
        drop(TrF("v: {0} is not a version; read as v{1}", {Quote(value), std::to_string(kStateVersion)}));
      else if (v > kStateVersion)
        drop(
            TrF("v: link is from a newer version (v{0}); fields read as v{1}", {value, std::to_string(kStateVersion)}));
      continue;
    }
    if (key == kCatalogStateKey) {
      // The catalog the link was made with: its numbers came from that data. One notice for an
      // older, a newer or a malformed version (the page's start-up download has no room for three).
      if (!catalog.catalog_version.empty() && value != catalog.catalog_version)
        result.notices.push_back(TrF("made with catalog {0}; this is catalog {1}: numbers may differ",
                                     {Quote(value), catalog.catalog_version}));
      continue;
    }
    if (std::find(PageKeys().begin(), PageKeys().end(), key) != PageKeys().end() ||
        std::any_of(aside.begin(), aside.end(), [&](const FieldInfo& f) { return key == f.key; })) {
      result.page[key] = value;  // the page's own (embed, tab, theme): not the scenario's
      continue;
    }
    if (auto err = SetField(result.scenario, key, value, catalog)) drop(err->message);
  }
  // A MIG profile belongs to one GPU: a link whose GPU lacks it keeps the whole GPU, and says so.
  if (const Gpu* g = catalog.FindGpu(result.scenario.gpu); g && result.scenario.mig != "none") {
    const bool has = std::any_of(g->mig_profiles.begin(), g->mig_profiles.end(),
                                 [&](const MigProfile& p) { return p.name == result.scenario.mig; });
    if (!has) {
      drop(TrF("mig: {0} has no MIG profile '{1}'; read as none", {g->name, result.scenario.mig}));
      result.scenario.mig = "none";
    }
  }
  if (untold > 0)
    result.dropped.push_back(TrF("... and {0} more fields not taken", {FormatCount(static_cast<int64_t>(untold))}));
  if (unread > 0)
    result.dropped.push_back(
        TrF("link: {0} more pairs after the first {1} were not read (a link holds one pair per field)",
            {FormatCount(static_cast<int64_t>(unread)), FormatCount(kMaxStatePairs)}));
  return result;
}

const std::vector<std::string>& PageKeys() {
  static const std::vector<std::string> keys = {"embed", "theme", "compact", "facade", "lang"};
  return keys;
}

std::string ShellQuote(const std::string& v) {
  bool plain = !v.empty();
  for (char c : v)
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '/');
  if (plain) return v;
  std::string out = "'";
  for (char c : v) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string CliCommand(std::string_view subcommand, const Scenario& s) {
  std::string cmd = "gpuplan " + std::string(subcommand);
  ForEachNamed(
      s, [&](const char* key, const std::string& value) { cmd += std::string(" --") + key + " " + ShellQuote(value); });
  return cmd;
}

}  // namespace gpuplan
