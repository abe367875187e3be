// gpuplan/capacity.h — device memory as the runtime has it: the total the driver reports
// (or one derived from the chips), then what stands between it and the workload — the ECC
// reservation on GDDR cards, a MIG slice when a profile is chosen, what the driver keeps back
// for itself, a unified-memory machine's OS rule for the GPU's share of RAM, and memory that
// other processes already hold. Fit (inference.h) and training (training.h) plan against
// `free_bytes`; engine caps are fractions of `runtime_bytes`, as the engines compute them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// One step between the driver's total and what the workload can allocate.
struct CapacityStep {
  std::string key;      // "ecc", "mig", "driver_reserve", "os_rule", "user_limit", "other_processes"
  std::string name;     // "ECC reservation"
  std::string formula;  // in words, with the numbers and their source
  double bytes = 0;     // taken away (a step that gives memory back, ECC turned off, is in the total)
};

struct DeviceMemory {
  double total_bytes = 0;              // the device total at the scenario's ECC state
  std::string total_basis;             // "nvidia-smi memory.total 24,564 MiB", "derived: ..."
  std::vector<CapacityStep> steps;     // in order; runtime = total - every step but other processes
  double runtime_bytes = 0;            // the total the runtime sees (cudaMemGetInfo's): engine caps apply to it
  double free_bytes = 0;               // runtime less other processes: what this workload can allocate
  std::string basis;                   // one line: how free_bytes was reached
  // A MIG slice runs on its share of the GPU: compute slices (1g of 7) and memory slices, which
  // carry their share of the bandwidth (NVIDIA MIG User Guide: "each GPU instance has dedicated
  // ... SMs ... memory controllers and DRAM address busses").
  double compute_share = 1, bandwidth_share = 1;
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
};

// The rows every view prints, in order: "Device total", one per step ("- ECC reservation"),
// "Available" (free_bytes). One list, so the CLI table, the records and the page agree.
struct CapacityRow {
  std::string name;
  double bytes = 0;     // a step's row carries the bytes it takes away (a negative value gives them)
  std::string how;
};
std::vector<CapacityRow> CapacityRows(const DeviceMemory& d);

// Never aborts: a MIG profile the GPU does not have comes back as an Error naming the field.
Result<DeviceMemory> EstimateDeviceMemory(const Gpu& gpu, const Scenario& s, Detail detail = Detail::kExplained);

// The OS rules the catalog's "unified_memory" may name (assets/catalog/README.md).
bool IsUnifiedMemoryRule(std::string_view rule);
std::string UnifiedMemoryRuleNames();

}  // namespace gpuplan
