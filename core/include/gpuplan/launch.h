// gpuplan/launch.h — the engine command that realises a serving setup (issue 19, item 4): the
// model, the parallel layout, the context, the memory fraction, the scheduler's limits and the
// KV format the estimate assumed, as vLLM (`vllm serve`), SGLang (`python -m
// sglang.launch_server`), TensorRT-LLM (`trtllm-serve`, with its YAML for what has no flag) and
// llama.cpp (`llama-server`) spell them. The flag names are the engines' documented ones for the
// releases named in each plan (tests/reference/candidates/serving-engines.json quotes the
// sources; unit-serving checks every flag used against it).
#pragma once

#include <string>
#include <vector>

#include "gpuplan/expected.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"
#include "gpuplan/serving.h"

namespace gpuplan {

struct LaunchFlag {
  std::string flag;   // "--tensor-parallel-size"
  std::string value;  // empty: a switch
  std::string why;    // what it sets, from which figure of the estimate
};

struct LaunchPlan {
  std::string engine;    // the engine id
  std::string releases;  // the releases whose documented flag names these are
  std::string program;   // "vllm serve meta-llama/Llama-3.1-8B"
  std::vector<LaunchFlag> flags;
  std::string config_file;  // TensorRT-LLM: the --config YAML (its name in the command), or empty
  std::string config_text;
  std::vector<std::string> notes;  // what the command cannot say (a checkpoint to fetch, a caveat)
  // The whole command on one line, values shell-quoted where they need it.
  std::string Command() const;
};

// An engine that cannot serve the scenario's weights (llama.cpp without a GGUF format, a GGUF
// format elsewhere) is an Error naming the field.
Result<LaunchPlan> MakeLaunchPlan(const Resolved& r, const Scenario& s, const ServeEstimate& e);

}  // namespace gpuplan
