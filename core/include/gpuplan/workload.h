// gpuplan/workload.h — the requests a serving simulation replays (issue 19): when each
// arrives, and how long its prompt and its output are. The same for a seed on every platform the
// core builds for, up to the last bit of libm's log, exp and cos (glibc and the wasm build's musl
// may differ by an ulp): the random bits come from std::mt19937_64, whose sequence the C++
// standard fixes, through this file's own transforms (the std:: distributions are left to each
// standard library and differ between libstdc++ and libc++, so natively and in wasm).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/expected.h"

namespace gpuplan {

// A length in tokens: fixed, uniform on [lo, hi], or lognormal with the given mean and the
// standard deviation `sigma` of its logarithm (request lengths in chat logs are close to
// lognormal: a long right tail), cut to [lo, hi]. Lengths are whole tokens, at least 1.
struct LengthDist {
  enum class Kind { kFixed, kUniform, kLognormal };
  Kind kind = Kind::kFixed;
  double mean = 0;        // kFixed: the length; kLognormal: the mean before the cut
  double sigma = 0;       // kLognormal
  double lo = 1, hi = 0;  // kUniform: the range; kLognormal: the cut (hi 0: none)
};

// Open loop: requests arrive as a Poisson process at `rate` per second (vLLM's
// benchmark_serving --request-rate; exponential gaps). Closed loop (rate 0): `concurrency`
// clients each send the next request when their last one ends (genai-perf --concurrency);
// every request is then ready at time 0 and the simulator admits them as slots free.
struct WorkloadSpec {
  int requests = 1000;
  double rate = 0;      // requests per second; 0: closed loop
  int concurrency = 0;  // closed loop: clients at once
  LengthDist input{LengthDist::Kind::kFixed, 512}, output{LengthDist::Kind::kFixed, 128};
  std::uint64_t seed = 1;
};

struct Request {
  double arrival_s = 0;  // open loop: when it arrives; closed loop: 0
  int prompt = 0, output = 0;
};

inline constexpr int kMaxWorkloadRequests = 1000000;
inline constexpr double kMaxRequestTokens = 16777216;  // the context cap of the estimators

// Request lengths as published traces and benchmark samplers give them (issue 19), each with its
// source: WorkloadPresets() lists them, a spec takes their input and output.
struct WorkloadPreset {
  const char* id;
  const char* name;
  LengthDist input, output;
  const char* basis;  // where the figures come from, and what the fit leaves out
};
const std::vector<WorkloadPreset>& WorkloadPresets();
const WorkloadPreset* FindWorkloadPreset(std::string_view id);  // null for another id

// The requests in arrival order. An impossible spec is an Error naming the field
// ("rate: must be >= 0 and finite", "input.hi: below input.lo").
Result<std::vector<Request>> GenerateRequests(const WorkloadSpec& spec);

}  // namespace gpuplan
