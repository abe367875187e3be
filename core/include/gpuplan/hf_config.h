// gpuplan/hf_config.h — a Hugging Face config.json as a catalog Model: Llama (2, 3, 4),
// Mistral, Mixtral, Qwen2/2.5/3 (+MoE), Qwen3-Next and Qwen3.5 (Gated DeltaNet hybrids), Gemma
// 2/3/4, Phi-1/2/3/4, DeepSeek-V2/V3/V3.2 and Kimi K2 (MoE + MLA), GLM-4.5, gpt-oss, GPT-2,
// GPT-BigCode, GPT-NeoX, BLOOM, Falcon, OPT, Jamba; BERT/RoBERTa/XLM-R encoders (embedding and
// reranker models); the vision towers of LLaVA, Gemma 3, Llama 4, Qwen2.5-VL and Qwen3.5.
// Any other model_type is refused with the supported list (read as Llama it would be counted
// wrong), encoder-decoder models (T5, BART, Whisper) with the reason. Unknown keys are ignored;
// a missing required key or a wrong type is an error that names the key.
#pragma once

#include <string>
#include <string_view>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"

namespace gpuplan {

// `text` is the config.json contents; `origin` names it in errors ("config.json").
// The model's id is `id` (or model_type when empty); name and sources are left to the caller.
Result<Model> ImportHfConfig(std::string_view text, const std::string& origin, const std::string& id = {});

// The catalog id a config.json gets from its file or checkpoint name ("Llama-3.1-8B.config.json"
// -> "llama-3.1-8b"): URL-safe and lower-case, the same in the CLI (import-hf) and on the page
// (a dropped or pasted file), so a page link opens against a catalog file the CLI wrote.
std::string ImportedModelId(std::string name);

}  // namespace gpuplan
