// gpuplan/hf_config.h — a Hugging Face config.json as a catalog Model: Llama, Mistral,
// Mixtral, Qwen2/2.5/3 (+MoE), Gemma 2/3, Phi-3/4, DeepSeek-V2/V3 (MoE + MLA), gpt-oss,
// GPT-NeoX, BLOOM, Falcon and Jamba (hybrid attention + Mamba) layouts. Unknown keys are
// ignored; a missing required key or a wrong type is an error that names the key.
#pragma once

#include <string>
#include <string_view>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"

namespace gpuplan {

// `text` is the config.json contents; `origin` names it in errors ("config.json").
// The model's id is `id` (or model_type when empty); name and sources are left to the caller.
Result<Model> ImportHfConfig(std::string_view text, const std::string& origin, const std::string& id = {});

}  // namespace gpuplan
