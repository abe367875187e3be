#include "gpuplan/launch.h"
#include "gpuplan/i18n.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "gpuplan/units.h"

namespace gpuplan {

namespace {

bool IsGgufFormat(const std::string& id) {
  return id.rfind("q", 0) == 0 || id.rfind("iq", 0) == 0;
}

// The checkpoint a pre-quantised format needs, in words (a placeholder the user replaces).
std::string Checkpoint(const Model& m, const WeightFormat& wf) {
  return "<" + wf.name + " checkpoint of " + (m.hf_repo.empty() ? m.name : m.hf_repo) + ">";
}

std::string Fraction(double v) {
  return FormatFixed(v, 2);
}

}  // namespace

std::string LaunchPlan::Command() const {
  std::string out = program;
  for (const LaunchFlag& f : flags) {
    out += " " + f.flag;
    if (!f.value.empty()) out += " " + ShellQuote(f.value);
  }
  return out;
}

Result<LaunchPlan> MakeLaunchPlan(const Resolved& r, const Scenario& s, const ServeEstimate& e) {
  const Model& m = r.model;
  const WeightFormat& wf = r.weights;
  const EngineProfile& engine = r.engine;
  const ServeResult& run = e.result;
  const std::string repo = m.hf_repo.empty() ? m.id : m.hf_repo;
  const bool gguf = IsGgufFormat(wf.id);
  const bool fp8_weights = wf.id == "fp8" || wf.id == "fp8-e4m3";
  const bool prequantised = !gguf && !fp8_weights && wf.id != "bf16" && wf.id != "fp16" && wf.id != "fp32";
  const bool fp8_kv = r.kv.id.rfind("fp8", 0) == 0;
  const int tp = s.tp, pp = std::max(1, s.pp);
  const MultiGpuMode split = SplitMode(engine, s);
  const bool dp_attention = tp > 1 && split == MultiGpuMode::kDpAttention;
  const bool ep = s.ep == 1 && m.moe && tp > 1;
  const std::string len = std::to_string(e.max_model_len);
  const std::string seqs = std::to_string(run.max_num_seqs), tokens = std::to_string(run.max_batched_tokens);
  LaunchPlan p;
  p.engine = engine.id;
  // `why`: a message (N_), shown in the reader's language.
  auto add = [&](std::string flag, std::string value, const char* why) {
    p.flags.push_back({std::move(flag), std::move(value), Tr(why)});
  };
  const std::string base = engine.base.empty() ? engine.id : engine.base;
  if (base != "llama.cpp" && gguf)
    return Error{"weights: " + wf.name + " is a GGUF format, which llama.cpp serves (engine llama.cpp); " +
                 engine.name + " serves safetensors checkpoints"};

  if (base == "vllm") {
    // vllm/engine/arg_utils.py (v0.11 era) and vllm/entrypoints/cli/serve.py: `vllm serve MODEL`.
    // A profile of the V0 engine (before 0.8): the OpenAI server module, which every release has
    // (`vllm serve` came with 0.5), and no expert parallelism flag.
    const bool v0 = !engine.serves_before.empty() && !VersionBefore("0.8.0", engine.serves_before);
    const std::string model_arg = ShellQuote(prequantised ? Checkpoint(m, wf) : repo);
    p.releases = v0 ? TrF("vLLM {0} to before {1} (V0 engine)", {engine.serves_from, engine.serves_before})
                    : std::string(Tr("vLLM v0.11 and later (V1 engine)"));
    p.program = v0 ? "python -m vllm.entrypoints.openai.api_server --model " + model_arg : "vllm serve " + model_arg;
    if (dp_attention) {
      add("--data-parallel-size", std::to_string(tp), N_("DP attention: each GPU runs its own sequences' attention"));
      if (m.moe) add("--enable-expert-parallel", "", N_("the MoE layers spread over the data-parallel GPUs"));
    } else {
      if (tp > 1) add("--tensor-parallel-size", std::to_string(tp), N_("tensor parallelism over the GPUs of a stage"));
      if (ep && !v0) add("--enable-expert-parallel", "", N_("experts placed whole on the GPUs"));
    }
    if (pp > 1) add("--pipeline-parallel-size", std::to_string(pp), N_("pipeline stages"));
    add("--max-model-len", len, N_("the longest request of the workload, prompt + output"));
    add("--gpu-memory-utilization", Fraction(s.mem_util > 0 ? s.mem_util : engine.memory_fraction),
        N_("the share of each GPU's memory the estimate's KV pool was sized with"));
    add("--max-num-seqs", seqs, N_("sequences per step, as simulated"));
    add("--max-num-batched-tokens", tokens, N_("tokens per step, as simulated"));
    if (fp8_kv) add("--kv-cache-dtype", "fp8", N_("the KV cache in FP8"));
    if (fp8_weights) {
      add("--quantization", "fp8", N_("FP8 weights quantised at load from the 16-bit checkpoint"));
      p.notes.push_back(Tr("a pre-quantised FP8 checkpoint of the model loads without --quantization"));
    }
    if (wf.id == "fp16") add("--dtype", "float16", N_("16-bit weights as FP16"));
  } else if (base == "sglang") {
    // sglang python/sglang/srt/server_args.py and docs/advanced_features/server_arguments.md.
    p.releases = Tr("SGLang 0.4 and later");
    p.program = "python -m sglang.launch_server --model-path " + ShellQuote(prequantised ? Checkpoint(m, wf) : repo);
    if (tp > 1) add("--tp-size", std::to_string(tp), N_("tensor parallelism over the GPUs of a stage"));
    if (dp_attention) {
      add("--enable-dp-attention", "", N_("DP attention: each GPU runs its own sequences' attention"));
      add("--dp-size", std::to_string(tp), N_("one attention replica per GPU"));
    }
    if (ep) add("--ep-size", std::to_string(tp), N_("experts placed whole on the GPUs"));
    if (pp > 1) add("--pp-size", std::to_string(pp), N_("pipeline stages"));
    add("--context-length", len, N_("the longest request of the workload, prompt + output"));
    if (s.mem_util > 0) add("--mem-fraction-static", Fraction(s.mem_util), N_("the scenario's memory fraction"));
    add("--max-running-requests", seqs, N_("sequences at once, as simulated"));
    add("--chunked-prefill-size", tokens, N_("the prompt chunk per step, as simulated"));
    if (fp8_kv) add("--kv-cache-dtype", "fp8_e4m3", N_("the KV cache in FP8 (E4M3)"));
    if (fp8_weights) add("--quantization", "fp8", N_("FP8 weights quantised at load from the 16-bit checkpoint"));
  } else if (base == "tensorrt-llm") {
    // tensorrt_llm/commands/serve.py (trtllm-serve) and the LLM API options YAML (--config,
    // --extra_llm_api_options in 1.0/1.1).
    p.releases = Tr("TensorRT-LLM 1.0 and later (PyTorch backend)");
    p.program = "trtllm-serve " + ShellQuote(prequantised || fp8_weights ? Checkpoint(m, wf) : repo);
    if (tp > 1) add("--tp_size", std::to_string(tp), N_("tensor parallelism over the GPUs"));
    if (pp > 1) add("--pp_size", std::to_string(pp), N_("pipeline stages"));
    if (ep) add("--ep_size", std::to_string(tp), N_("experts placed whole on the GPUs"));
    add("--max_seq_len", len, N_("the longest request of the workload, prompt + output"));
    add("--max_batch_size", seqs, N_("sequences at once, as simulated"));
    add("--max_num_tokens", tokens, N_("tokens per step, as simulated"));
    if (s.mem_util > 0)
      add("--kv_cache_free_gpu_memory_fraction", Fraction(s.mem_util), N_("the share of free memory for the KV cache"));
    std::string yaml;
    if (fp8_kv) yaml += "kv_cache_config:\n  dtype: fp8\n";
    if (dp_attention) yaml += "enable_attention_dp: true\n";
    if (!yaml.empty()) {
      p.config_file = "gpuplan-trtllm.yaml";
      p.config_text = yaml;
      add("--extra_llm_api_options", p.config_file,
          N_("what trtllm-serve takes from a file (--config in later releases)"));
    }
    if (prequantised || fp8_weights)
      p.notes.push_back(
          TrF("trtllm-serve quantises nothing itself: give it a {0} checkpoint (TensorRT Model Optimizer makes one)",
              {wf.name}));
  } else if (base == "llama.cpp") {
    // llama.cpp tools/server/README.md; -np/-kvu after PR #17997, -fa on|off|auto after PR #15746.
    if (!gguf && wf.id != "fp16" && wf.id != "bf16")
      return Error{"weights: llama.cpp serves GGUF files (q4_k_m, q8_0, ...); " + wf.name + " is not one"};
    p.releases = Tr("llama.cpp builds from December 2025 on");
    std::string quant = wf.id;
    for (char& c : quant) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    p.program = "llama-server -m " + ShellQuote("<" + repo + " " + quant + " .gguf file>");
    add("-ngl", s.gpu_layers >= 0 ? std::to_string(s.gpu_layers) : "999",
        s.gpu_layers >= 0 ? N_("the layers kept on the GPUs") : N_("every layer on the GPUs"));
    if (tp > 1)
      add("--split-mode", split == MultiGpuMode::kRowSplit ? "row" : "layer", N_("how the GPUs share the model"));
    const long long slots = run.max_num_seqs;
    const long long ctx = std::min<long long>(static_cast<long long>(run.kv_capacity_tokens), slots * e.max_model_len);
    add("-c", std::to_string(ctx), N_("KV cells in all, shared by the slots"));
    add("-np", std::to_string(slots), N_("parallel slots, as simulated"));
    add("-kvu", "", N_("one KV buffer for every slot (explicit -np turns it off otherwise)"));
    add("-b", tokens, N_("tokens per step, as simulated"));
    add("-fa", "on", N_("flash attention"));
    if (r.kv.id == "q8_0" || r.kv.id == "q4_0") {
      add("--cache-type-k", r.kv.id, N_("the KV cache quantised"));
      add("--cache-type-v", r.kv.id, N_("the KV cache quantised"));
    }
  } else {
    return Error{"engine: gpuplan has no launch command for " + engine.name +
                 " (vLLM, SGLang, TensorRT-LLM, llama.cpp)"};
  }
  if (prequantised && base != "llama.cpp" && base != "tensorrt-llm")
    p.notes.push_back(TrF("{0} reads the quantisation from a {1} checkpoint's config: replace the placeholder with one",
                          {engine.name, wf.name}));
  return p;
}

}  // namespace gpuplan
