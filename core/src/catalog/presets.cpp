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
      // The seeds' budgets (gpu-hardware-guide-for-ai.ja.txt, 予算別推奨): what each buys or rents.
      {"seed-budget-individual", "Buy for about ¥200,000: Llama 3.1 8B at 4-bit", "compare",
       "v=1&model=llama-3.1-8b&weights=q4_k_m&batch=1&engine=llama.cpp&currency=jpy&tab=compare&fits=1"
       "&max-upfront=200000",
       "seeds: 個人研究者（約20万円）"},
      {"seed-budget-startup", "Buy for ¥5M: Llama 3.1 70B in FP8, 8 users", "compare",
       "v=1&model=llama-3.1-70b&weights=fp8&kv=fp8&batch=8&gpu=h100-sxm&tp=2&currency=jpy&tab=compare&fits=1"
       "&max-upfront=5000000",
       "seeds: スタートアップチーム（約100万〜500万円）"},
      {"seed-budget-startup-rent", "Rent for ¥1M a month: Llama 3.1 70B in FP8, 8 users", "compare",
       "v=1&model=llama-3.1-70b&weights=fp8&kv=fp8&batch=8&gpu=h100-sxm&tp=2&currency=jpy&tab=compare&fits=1"
       "&max-month=1000000",
       "seeds: スタートアップチーム（約100万〜500万円）"},
      {"seed-budget-midsize", "Buy for ¥100M: Llama 3.1 405B in FP8, 32 users", "compare",
       "v=1&model=llama-3.1-405b&weights=fp8&kv=fp8&batch=32&gpu=h200-sxm&tp=8&currency=jpy&tab=compare&fits=1"
       "&max-upfront=100000000",
       "seeds: 中規模AIチーム（約1億円以上）"},
      {"qlora-70b-48gb", "QLoRA-fine-tune a 70B model on one 48 GB card", "train",
       "v=1&model=llama-3.1-70b&gpu=rtx-a6000&method=qlora&context=2048&recompute=full", ""},
      // Fine-tuning recipes: each sets what its tool's config sets (pure BF16 = master 0).
      {"torchtune-8b-full-1gpu", "torchtune: full fine-tune of Llama 3.1 8B on one 24 GB card", "train",
       "v=1&model=llama-3.1-8b&context=2048&gpu=rtx-4090&micro-batch=2&recompute=full&master=0&optimizer=adamw-8bit"
       "&paged=1&opt-in-bwd=1&ce=chunked",
       "torchtune recipes/configs/llama3_1/8B_full_single_device.yaml (PagedAdamW8bit, optimizer_in_bwd, "
       "CEWithChunkedOutputLoss, activation checkpointing, bf16): https://github.com/pytorch/torchtune/blob/"
       "30b8519e86d2094879576e16ab1f8d21a6f6f9f7/recipes/configs/llama3_1/8B_full_single_device.yaml"},
      {"torchtune-8b-lora-1gpu", "torchtune: LoRA of Llama 3.1 8B on one GPU (q and v, rank 8)", "train",
       "v=1&model=llama-3.1-8b&context=2048&gpu=rtx-4090&micro-batch=2&method=lora&lora-rank=8&lora-targets=qv"
       "&recompute=full&master=0&ce=chunked",
       "torchtune recipes/configs/llama3_1/8B_lora_single_device.yaml (lora_attn_modules [q_proj, v_proj], rank 8, "
       "CEWithChunkedOutputLoss, activation checkpointing, bf16): https://github.com/pytorch/torchtune/blob/"
       "30b8519e86d2094879576e16ab1f8d21a6f6f9f7/recipes/configs/llama3_1/8B_lora_single_device.yaml"},
      {"torchtune-8b-qlora-1gpu", "torchtune: QLoRA of Llama 3.1 8B on one GPU (attention and MLP, rank 8)", "train",
       "v=1&model=llama-3.1-8b&context=2048&gpu=rtx-4090&micro-batch=2&method=qlora&lora-rank=8&recompute=full"
       "&master=0&ce=chunked",
       "torchtune recipes/configs/llama3_1/8B_qlora_single_device.yaml (NF4 base, q/k/v/output_proj + MLP, rank 8, "
       "CEWithChunkedOutputLoss, activation checkpointing, bf16): https://github.com/pytorch/torchtune/blob/"
       "30b8519e86d2094879576e16ab1f8d21a6f6f9f7/recipes/configs/llama3_1/8B_qlora_single_device.yaml"},
      {"torchtune-70b-lora-8gpu", "torchtune: LoRA of Llama 3.1 70B on 8 x A100 80GB (FSDP)", "train",
       "v=1&model=llama-3.1-70b&context=2048&gpu=a100-sxm-80gb&dp=8&zero=3&micro-batch=2&method=lora&lora-rank=16"
       "&lora-targets=attention&recompute=full&master=0&ce=chunked",
       "torchtune recipes/configs/llama3_1/70B_lora.yaml (lora_finetune_distributed: FSDP, q/k/v rank 16 — read here "
       "as q/k/v/o —, CEWithChunkedOutputLoss, activation checkpointing, bf16): "
       "https://github.com/pytorch/torchtune/blob/"
       "30b8519e86d2094879576e16ab1f8d21a6f6f9f7/recipes/configs/llama3_1/70B_lora.yaml"},
      {"unsloth-8b-qlora", "Unsloth: QLoRA of Llama 3.1 8B with a long context on one 24 GB card", "train",
       "v=1&model=llama-3.1-8b&context=32768&gpu=rtx-4090&method=qlora&lora-rank=32&recompute=full&act-offload=1"
       "&ce=fused&kernels=fused&master=0&optimizer=adamw-8bit",
       "Unsloth README (commit 30a18786, context-length table): 4-bit QLoRA, rank 32 on all linear layers, batch 1, "
       "use_gradient_checkpointing=\"unsloth\" (offloaded checkpoints), Apple's Cut Cross-Entropy; the notebooks' "
       "adamw_8bit"},
      {"trl-8b-qlora", "Hugging Face TRL: QLoRA of Llama 3.1 8B on one 24 GB card (SFTTrainer, PEFT)", "train",
       "v=1&model=llama-3.1-8b&context=2048&gpu=rtx-4090&micro-batch=2&method=qlora&lora-rank=16&recompute=full"
       "&kbit-prep=1",
       "TRL SFTTrainer on an unsharded 4-bit model runs PEFT's prepare_model_for_kbit_training (FP32 tables): "
       "https://github.com/huggingface/trl/blob/11fa70c69ce311b7a3033c0a39f319f433a9aedc/trl/models/utils.py, "
       "https://github.com/huggingface/peft/blob/012c0d5a96744096ab28f87cde9bd9918f5367a1/src/peft/utils/other.py"},
      {"axolotl-llama3-8b-lora", "axolotl: LoRA of Llama 3 8B on an 8-bit base, embeddings trained", "train",
       "v=1&model=llama-3-8b&weights=llm-int8&context=4096&gpu=rtx-a6000&micro-batch=2&method=lora&lora-rank=32"
       "&train-embed=1&recompute=full&optimizer=adamw-8bit",
       "axolotl examples/llama-3/lora-8b.yml (load_in_8bit, lora_r 32, lora_target_linear, lora_modules_to_save "
       "[embed_tokens, lm_head], gradient_checkpointing, micro_batch_size 2, sequence_len 4096, adamw_bnb_8bit): "
       "https://github.com/axolotl-ai-cloud/axolotl/blob/107c67ae5a236ab458454e8daf3b77a98ce56867/examples/llama-3/"
       "lora-8b.yml"},
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
