// gpuplan/scenario.h — the inputs of every estimate, their defaults and limits, and the one
// text form they share: the page's URL hash and the CLI's flags use the same field names
// and the same parser ("one parser, two doors").
//
// Index:
//   [SECTION] Scenario
//   [SECTION] Fields: one table for hash keys, CLI flags, help and limits
//   [SECTION] State codec (URL hash, versioned, tolerant)
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"

namespace gpuplan {

// [SECTION] Scenario -------------------------------------------------------------------
// Defaults live here and nowhere else; `--help` and the page read them from this struct.
struct Scenario {
  std::string model = "llama-3.1-8b";
  std::string weights = "bf16";      // weight format id
  std::string kv = "fp16";           // KV-cache format id
  long long context = 8192;          // tokens per sequence (prompt + output)
  long long prompt = 1024;           // prompt tokens per sequence (prefill); output = context - prompt
  long long batch = 1;               // concurrent sequences
  std::string gpu = "rtx-4090";
  int tp = 1;                        // tensor-parallel degree: GPUs per pipeline stage
  int pp = 1;                        // pipeline-parallel stages (GPUs in all: count × pp)
  int ep = 0;                        // 1: MoE experts placed whole on the GPUs (expert parallel)
  std::string split = "auto";        // how the tp GPUs share the model: auto (the engine's default), tensor, layer, row, dp-attention
  std::string engine = "vllm";       // engine profile id (memory terms, efficiencies)
  int graphs = 1;                    // 1: CUDA graphs where the engine uses them (its default); 0: eager launches
  double mem_util = 0;               // engine memory cap (vLLM gpu_memory_utilization); 0: engine default
  double overhead_gib = 1.0;         // CUDA context + runtime, per GPU (stated assumption)
  std::string ecc = "default";       // ECC on GDDR cards: default (the card's factory setting), on, off
  std::string mig = "none";          // MIG profile ("1g.10gb"): the slice of the GPU the scenario runs in
  double gpu_mem_gib = 0;            // memory the GPU may use, GiB; 0: the catalog's total and OS rule
  double used_gib = 0;               // memory other processes already hold on each GPU, GiB
  long long gpu_layers = -1;         // llama.cpp -ngl: repeating layers on the GPUs; -1: all
  double ram_gbs = 89.6;             // host memory bandwidth for offloaded layers, GB/s
  double price_hour = 0;             // $ per GPU-hour; 0: the catalog's cheapest on-demand offer
  double buy_usd = 0;                // purchase price per GPU; 0: the catalog's price
  double years = 3;                  // amortisation period of owned hardware
  double kwh_usd = 0.15;             // electricity price, $ per kWh
  double pue = 1.3;                  // power usage effectiveness of the room
  double utilization = 0.5;          // share of hours owned hardware is busy
  std::string currency = "usd";      // costs shown in usd, jpy or eur (the catalog keeps dollars)
  double fx = 0;                     // units of `currency` per US dollar; 0: the catalog's dated rate
  // The rack (rack.h): none leaves it out (energy is the GPUs' TDP × pue); air, rear-door or
  // liquid plans servers into racks and bills host power and the cooling type's PUE.
  std::string cooling = "none";
  double rack_kw = 0;                // the rack's power limit, kW (0: the cooling type's)
  long long gpus_per_server = 0;     // 0: the platform's (8 on HGX/OAM and PCIe servers, 4 in a workstation)
  double host_kw = 0;                // a server's power besides its GPUs, kW (0: the platform's)
  double rack_pue = 0;               // 0: the cooling type's
  double throttle = 0.10;            // throughput lost in a dense air-cooled rack (stated assumption)
  double spot_overhead = 0.10;       // extra hours on spot for interruptions and restarts (stated assumption)
  // Training (the Train panel, `gpuplan train`); context is the sequence length.
  std::string method = "full";       // full | lora | qlora
  std::string optimizer = "adamw";   // adamw | adamw-8bit | adafactor | sgd | lion
  int zero = 0;                      // ZeRO stage 0-3 (3 = FSDP full shard) over the data-parallel GPUs
  int dp = 1;                        // data-parallel replicas: GPUs in all = count × pp × dp
  long long micro_batch = 1;         // sequences per GPU per micro-step
  std::string recompute = "none";    // activation recomputation: none | selective | full
  int flash = 1;                     // flash/SDPA attention: no s² score tensors stored
  int lora_rank = 16;
  std::string lora_targets = "all-linear";  // all-linear | attention (q, k, v, o) | qv
  int lora_layers = 0;               // adapted layers, counted from the last; 0: every layer
  int sp = 1;                        // sequence parallelism with tensor parallelism (Korthikanti et al.)
  int shard_group = 0;               // ZeRO/FSDP shard group (hybrid shard: replicate across groups); 0: all of dp
  long long global_batch = 0;        // sequences per optimizer step; 0: dp × micro-batch × 8
  double tokens = 1e9;               // training tokens D
  double mfu = 0;                    // model FLOPs utilisation; 0: predicted from the step's time (training.h)
  int offload = 0;  // CPU offload: 1 optimizer states and gradients (ZeRO-Offload), 2 parameters too (ZeRO-3/FSDP)
  int master = 1;                    // 1: mixed precision with FP32 master weights; 0: pure BF16 (states in BF16)
  int opt_in_bwd = 0;                // 1: optimizer step fused into the backward pass (no full gradient buffer)
  std::string ce = "full";         // cross-entropy: full (FP32 logits), chunked (torchtune), fused (Liger/Unsloth/CCE)
  int act_offload = 0;             // 1: activations saved for backward kept in CPU memory (torchtune, Unsloth)
  int kbit_prep = 0;               // QLoRA/LLM.int8(): PEFT prepare_model_for_kbit_training (tables and norms in FP32)
  int train_embed = 0;             // LoRA: 1 trains the embeddings and output head in full (PEFT modules_to_save)
  int paged = 0;                   // 1: optimizer states in paged (unified) memory (bitsandbytes paged optimizers)
  std::string kernels =
      "eager";  // activations kept: eager (PyTorch as written) or fused (torch.compile, Liger, Unsloth, TE)
  std::string precision = "bf16";  // training GEMMs: bf16, or fp8 (Transformer Engine, delayed scaling)
  int cp = 1;                      // context-parallel degree: the sequence split over cp GPUs (ring attention)
  int vp = 1;                      // interleaved pipeline: virtual stages per GPU (Megatron)
  int moe_ep = 1;  // training: expert-parallel GPUs splitting each MoE layer's experts (within dp × cp)
  double reserve = 0.10;           // PyTorch caching allocator's reserve over allocated bytes (stated assumption)

  // GPUs in all serving one copy of the model: tp × pp.
  long long Gpus() const { return static_cast<long long>(tp) * (pp > 1 ? pp : 1); }
  // GPUs in all for training: tp × pp × dp × cp.
  long long TrainingGpus() const { return Gpus() * (dp > 1 ? dp : 1) * (cp > 1 ? cp : 1); }

  bool operator==(const Scenario&) const = default;
};

// [SECTION] Fields ---------------------------------------------------------------------
// What a field holds, so that every door draws and checks it the same way: the page picks a
// widget by it, the CLI its flag's type, the parser its rule.
// kFlags: a comma-joined set of its choices ("all" / "none" for every one / none of them);
// kGpuList: comma-joined catalog GPU ids.
enum class FieldKind { kModel, kWeights, kKv, kGpu, kEngine, kInteger, kNumber, kChoice, kMig, kSwitch, kText, kFlags, kGpuList };

struct FieldInfo {
  const char* key;    // hash key and CLI flag name (--key)
  const char* label;  // short label for the page
  const char* help;   // one line, with limits
  const char* old_key = nullptr;  // the key's name in older links and commands, still read
  FieldKind kind = FieldKind::kText;
  double lo = 0, hi = 0;                 // kInteger, kNumber: the limits
  double step = 0;                       // the page's +/- step (0: none)
  int decimals = 0;                      // kNumber: decimals shown
  double min_nonzero = 0;                // kNumber: 0 (the field's "not set") or from this to hi
  const char* special = nullptr;         // kInteger: a word that stands for -1 ("all")
  std::vector<std::string> choices = {}; // kChoice: the words accepted
};

const std::vector<FieldInfo>& ScenarioFields();
const FieldInfo* FindField(std::string_view key);  // by key or old key; null for another word

// The shortest text that reads back to the same double (1 -> "1", 0.75 -> "0.75"): what a
// widget writes back through SetField, so a typed value is kept exactly.
std::string ExactNumber(double v);

// The field's value as text (what the hash and the CLI command carry).
std::string GetField(const Scenario& s, std::string_view key);

// Sets one field from text. On error the scenario is unchanged and the message names the
// field and says why ("context: '-5' must be a whole number from 1 to 16777216").
std::optional<Error> SetField(Scenario& s, std::string_view key, std::string_view value,
                              const Catalog& catalog);

// [SECTION] State codec ----------------------------------------------------------------
inline constexpr int kStateVersion = 1;

// "v=1&model=llama-3.1-8b&gpu=rtx-4090&context=32768": the model, the GPU and every other field
// that differs from its default, in table order (a shared link stays short; ~720 characters
// with every field). DecodeState starts from the defaults, so the link decodes to the same
// scenario exactly. The defaults are part of the version: changing one means a new
// kStateVersion whose decoder reads v=1 links with v=1's defaults.
std::string EncodeState(const Scenario& s);

// A link's limits: pairs read, and notices kept before "... and K more".
inline constexpr std::size_t kMaxStatePairs = 1000;
inline constexpr std::size_t kMaxDropped = 20;

struct DecodedState {
  Scenario scenario;
  std::vector<std::string> dropped;         // one line per field that was not taken, with the reason
                                            // (the first kMaxDropped, then "... and K more")
  std::map<std::string, std::string> page;  // the page's own keys (PageKeys) found in the hash
  std::vector<std::string> notices;         // read, but worth a word: a link made with another
                                            // catalog version (cat=, version.h)
};

// Keys a link may carry for the page rather than the scenario: embed=<panel> (one panel for an
// iframe), theme=light|dark|auto, compact=1 (an embed without its export buttons and CLI twin),
// facade=<caption> (a click-to-load embed: the page shell shows a still preview and the caption
// until the reader asks for the calculator; the app itself ignores it).
// DecodeState sets them aside; the CLI ignores them. (tab= and
// the compare and roofline options are view options: session.h.)
const std::vector<std::string>& PageKeys();

// Reads a hash ("#v=1&..." or "v=1&..."). Valid fields are kept, invalid or unknown ones are
// dropped with a reason, and missing ones keep `base`'s value. Never fails as a whole.
// Keys named in `aside` (a door's own state, e.g. the view options) are set aside in `page`
// like the page's keys.
DecodedState DecodeState(std::string_view hash, const Catalog& catalog, Scenario base = {},
                         const std::vector<FieldInfo>& aside = {});

// Percent-encodes a value for a link (RFC 3986 unreserved characters stay as they are).
std::string PercentEncode(std::string_view value);

// A value quoted for a POSIX shell where it needs quoting (values from a user catalog may hold
// any character).
std::string ShellQuote(const std::string& v);

// The CLI command that prints the same numbers as the page for this scenario: --model, --gpu
// and the flags whose values differ from their defaults (as EncodeState).
std::string CliCommand(std::string_view subcommand, const Scenario& s);

}  // namespace gpuplan
