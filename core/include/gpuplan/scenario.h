// gpuplan/scenario.h — the inputs of every estimate, their defaults and limits, and the one
// text form they share: the page's URL hash and the CLI's flags use the same field names
// and the same parser ("one parser, two doors").
//
// Index:
//   [SECTION] Scenario
//   [SECTION] Fields: one table for hash keys, CLI flags, help and limits
//   [SECTION] State codec (URL hash, versioned, tolerant)
#pragma once

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
  long long batch = 1;               // concurrent sequences
  std::string gpu = "rtx-4090";
  int count = 1;                     // GPUs, tensor-parallel
  double overhead_gib = 1.0;         // CUDA context + runtime, per GPU (stated assumption)

  bool operator==(const Scenario&) const = default;
};

// [SECTION] Fields ---------------------------------------------------------------------
struct FieldInfo {
  const char* key;    // hash key and CLI flag name (--key)
  const char* label;  // short label for the page
  const char* help;   // one line, with limits
};

const std::vector<FieldInfo>& ScenarioFields();

// The field's value as text (what the hash and the CLI command carry).
std::string GetField(const Scenario& s, std::string_view key);

// Sets one field from text. On error the scenario is unchanged and the message names the
// field and says why ("context: '-5' must be a whole number from 1 to 16777216").
std::optional<Error> SetField(Scenario& s, std::string_view key, std::string_view value,
                              const Catalog& catalog);

// [SECTION] State codec ----------------------------------------------------------------
inline constexpr int kStateVersion = 1;

// "v=1&model=llama-3.1-8b&weights=bf16&..." — every field, in table order.
std::string EncodeState(const Scenario& s);

struct DecodedState {
  Scenario scenario;
  std::vector<std::string> dropped;  // one line per field that was not taken, with the reason
};

// Reads a hash ("#v=1&..." or "v=1&..."). Valid fields are kept, invalid or unknown ones are
// dropped with a reason, and missing ones keep `base`'s value. Never fails as a whole.
DecodedState DecodeState(std::string_view hash, const Catalog& catalog, Scenario base = {});

// The CLI command that prints the same numbers as the page for this scenario.
std::string CliCommand(std::string_view subcommand, const Scenario& s);

}  // namespace gpuplan
