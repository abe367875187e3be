// gpuplan/contradictions.h — combinations of inputs that contradict each other or that a
// framework would refuse, in one table: each row an id, a severity, the estimates it applies to,
// the rule with its source, and the message. The estimators apply the table (an error refuses
// the estimate; a warning joins the estimate's warnings), so the CLI and the page say the same.
//
// Index:
//   [SECTION] The table
//   [SECTION] Applying it
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuplan/expected.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// [SECTION] The table -------------------------------------------------------------------
enum class Severity { kWarning, kError };

// The estimates a row applies to (a mask): serving (fit, speed, compare, cost and what builds on
// the memory estimate) and training.
inline constexpr unsigned kServeChecks = 1, kTrainChecks = 2;

// The arguments of a row's message ({0}, {1}, {2}), filled where the row applies.
using ContradictionArgs = std::string[3];

struct Contradiction {
  const char* id;
  const char* field;  // the scenario field it is about ("scenario": several); an error starts with it
  Severity severity;
  unsigned kinds;  // kServeChecks | kTrainChecks
  // The message (N_: translated where shown), which says the rule and its source; with its
  // placeholders it is also what `gpuplan catalog checks` lists. Data, not code: the page
  // carries the table in its start-up download.
  const char* text;
  // Whether the row applies to the scenario; where it does, the message's arguments are set.
  bool (*applies)(const Resolved& r, const Scenario& s, ContradictionArgs& args);
};

// Every row, serving rows first (`gpuplan catalog checks`, the README, the test that walks it).
std::vector<Contradiction> Contradictions();

// [SECTION] Applying it -----------------------------------------------------------------
// The rows of `kind` that apply to the scenario, in table order: the first error comes back as
// the Error (the estimate refuses); with `warnings` non-null, every warning's message is
// appended to it (null: the errors alone, for callers that want numbers without words).
// The row's message for the scenario in the current language, or empty where it does not apply.
std::string ContradictionMessage(const Contradiction& c, const Resolved& r, const Scenario& s);

std::optional<Error> CheckContradictions(const Resolved& r, const Scenario& s, unsigned kind,
                                         std::vector<std::string>* warnings);

}  // namespace gpuplan
