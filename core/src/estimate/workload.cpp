#include "gpuplan/workload.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace gpuplan {

namespace {

// A double in [0, 1) from the top 53 bits of one draw: the same on every platform.
double Uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// A standard normal by Box-Muller (Box & Muller 1958), one of the pair, from two draws.
double StandardNormal(std::mt19937_64& rng) {
  const double u1 = 1.0 - Uniform01(rng);  // (0, 1]: the logarithm stays finite
  const double u2 = Uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

std::string Check(const LengthDist& d, const std::string& field) {
  auto bad = [](double v) { return !std::isfinite(v); };
  if (bad(d.mean) || bad(d.sigma) || bad(d.lo) || bad(d.hi)) return field + ": every figure must be a finite number";
  const double top = d.hi > 0 ? d.hi : kMaxRequestTokens;
  switch (d.kind) {
    case LengthDist::Kind::kFixed:
      if (d.mean < 1 || d.mean > kMaxRequestTokens) return field + ".mean: a length of 1 to 16,777,216 tokens";
      break;
    case LengthDist::Kind::kUniform:
      if (d.lo < 1 || d.hi > kMaxRequestTokens) return field + ".lo/hi: lengths of 1 to 16,777,216 tokens";
      if (d.hi < d.lo) return field + ".hi: below " + field + ".lo";
      break;
    case LengthDist::Kind::kLognormal:
      if (d.mean < 1 || d.mean > kMaxRequestTokens) return field + ".mean: a length of 1 to 16,777,216 tokens";
      if (d.sigma < 0 || d.sigma > 5) return field + ".sigma: the log's standard deviation, 0 to 5";
      if (d.lo < 1 || top > kMaxRequestTokens || top < d.lo)
        return field + ".lo/hi: a cut of 1 to 16,777,216 tokens, lo <= hi";
      break;
  }
  return "";
}

int Draw(const LengthDist& d, std::mt19937_64& rng) {
  double v = d.mean;
  if (d.kind == LengthDist::Kind::kUniform) {
    const double first = std::ceil(d.lo), last = std::max(first, std::floor(d.hi));
    v = std::min(last, first + std::floor(Uniform01(rng) * (last - first + 1)));
  } else if (d.kind == LengthDist::Kind::kLognormal) {
    // mu so that the mean of exp(mu + sigma Z) is `mean`: E = exp(mu + sigma^2 / 2).
    const double mu = std::log(d.mean) - d.sigma * d.sigma / 2;
    v = std::exp(mu + d.sigma * StandardNormal(rng));
    v = std::clamp(v, d.lo, d.hi > 0 ? d.hi : kMaxRequestTokens);
  }
  return static_cast<int>(std::clamp(std::round(v), 1.0, kMaxRequestTokens));
}

}  // namespace

Result<std::vector<Request>> GenerateRequests(const WorkloadSpec& spec) {
  if (spec.requests < 1 || spec.requests > kMaxWorkloadRequests)
    return Error{"requests: 1 to " + std::to_string(kMaxWorkloadRequests)};
  if (!std::isfinite(spec.rate) || spec.rate < 0) return Error{"rate: must be >= 0 and finite (0: closed loop)"};
  if (spec.rate == 0 && (spec.concurrency < 1 || spec.concurrency > kMaxWorkloadRequests))
    return Error{"concurrency: a closed loop (rate 0) needs 1 to " + std::to_string(kMaxWorkloadRequests) + " clients"};
  if (std::string e = Check(spec.input, "input"); !e.empty()) return Error{e};
  if (std::string e = Check(spec.output, "output"); !e.empty()) return Error{e};
  std::mt19937_64 rng(spec.seed);
  std::vector<Request> out(static_cast<size_t>(spec.requests));
  double t = 0;
  for (Request& r : out) {
    // Poisson arrivals: exponential gaps of mean 1 / rate (inverse transform of 1 - U).
    if (spec.rate > 0) t += -std::log(1.0 - Uniform01(rng)) / spec.rate;
    r.arrival_s = t;
    r.prompt = Draw(spec.input, rng);
    r.output = Draw(spec.output, rng);
  }
  return out;
}

}  // namespace gpuplan
