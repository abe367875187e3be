#include "gpuplan/presets.h"

namespace gpuplan {

const std::vector<Preset>& Presets() {
  // Every hash decodes without a dropped field against the built-in catalog (unit-state).
  static const std::vector<Preset> presets = {
      {"seed-70b-2x4090", "Llama 3.1 70B at 4-bit on 2 x RTX 4090 (llama.cpp, 8k context)", "fit",
       "v=1&model=llama-3.1-70b&weights=q4_k_m&kv=fp16&context=8192&prompt=1024&batch=1&gpu=rtx-4090&tp=2"
       "&engine=llama.cpp",
       "seeds: gpu-hardware-guide-for-ai.ja.txt, 70B on two RTX 4090 at 4-bit"},
      {"seed-llama3-8b-8xa100", "Train Llama 3 8B on 8 x A100 for 100B tokens (FSDP)", "train",
       "v=1&model=llama-3-8b&gpu=a100-sxm-80gb&dp=8&zero=3&context=4096&tokens=100000000000",
       "seeds: gpu-hardware-guide-for-ai.ja.txt, 'Llama 3 8B on 8 x A100, 100B tokens: 7-10 days'"},
      {"deepseek-r1-8xh200", "Serve DeepSeek-R1 671B in FP8 on 8 x H200 (vLLM, 32k context, 16 users)", "fit",
       "v=1&model=deepseek-r1&weights=fp8&kv=fp8&context=32768&prompt=4096&batch=16&gpu=h200-sxm&tp=8&engine=vllm",
       "seeds: the DeepSeek-R1 671B example"},
      {"8b-on-4090", "Llama 3.1 8B on one RTX 4090: tokens/s for 8 users (vLLM)", "speed",
       "v=1&model=llama-3.1-8b&weights=bf16&kv=fp16&context=8192&prompt=1024&batch=8&gpu=rtx-4090&engine=vllm", ""},
      {"70b-fp8-which-gpu", "Which GPU for Llama 3.1 70B in FP8 at 32 users? (the whole catalog)", "compare",
       "v=1&model=llama-3.1-70b&weights=fp8&kv=fp8&context=8192&prompt=1024&batch=32&gpu=h100-sxm&tp=2&engine=vllm",
       ""},
      {"qlora-70b-48gb", "QLoRA-fine-tune a 70B model on one 48 GB card", "train",
       "v=1&model=llama-3.1-70b&gpu=rtx-a6000&method=qlora&context=2048&recompute=full", ""},
      {"roofline-8b-h100", "Why decode is memory-bound: Llama 3.1 8B on H100 under the roofline", "roofline",
       "v=1&model=llama-3.1-8b&weights=bf16&kv=fp16&context=8192&prompt=4096&batch=8&gpu=h100-sxm", ""},
  };
  return presets;
}

const Preset* FindPreset(const std::string& id) {
  for (const Preset& p : Presets())
    if (p.id == id) return &p;
  return nullptr;
}

}  // namespace gpuplan
