// gpuplan/training.h — training and fine-tuning: memory per GPU (model states under ZeRO/FSDP
// sharding, tensor and pipeline parallelism and CPU offload; activations by Korthikanti et
// al.'s per-layer formula; LoRA/QLoRA), the largest micro-batch that fits and what to change
// when nothing does; the step's time from its parts (GEMMs at the attainable peak, attention,
// elementwise work, collectives, bubble, optimizer) and the MFU it implies; GPU-hours and cost.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/expected.h"
#include "gpuplan/inference.h"
#include "gpuplan/resolve.h"
#include "gpuplan/scenario.h"
#include "gpuplan/units.h"

namespace gpuplan {

// One part of a training step's time: GEMMs, attention, collectives, the bubble…
struct StepPart {
  std::string key, name;
  double seconds = 0;
};

struct TrainEstimate {
  // Memory, per GPU.
  std::vector<Term> terms;     // weights, gradients, master weights, optimizer, activations, logits, buffers,
                               // [fp8], reserve, overhead
  double allocated_bytes = 0;  // the live tensors (torch.cuda.max_memory_allocated's view): the terms' sum
  // The terms are each at their largest and their sum is a ceiling; a step's moments (forward and
  // loss, backward's first and last layer, optimizer step) with what is alive in each, and the
  // largest of them, a floor.
  std::vector<Term> phases;
  std::string peak_phase;  // the largest moment's name
  double moment_bytes = 0;
  double total_bytes = 0, capacity_bytes = 0,
         headroom_bytes = 0;          // total: as the driver sees it; capacity: device.free_bytes
  DeviceMemory device;                // the driver's total and what stands between it and the run
  bool fits = false;
  long long max_micro_batch = 0;      // largest micro-batch that fits (0: not even one)
  std::vector<std::string> suggestions;  // what to change when it does not fit
  double trainable_params = 0, total_params = 0;
  double host_bytes = 0;              // offloaded to CPU memory, per GPU
  // Time.
  int gpus = 1;
  double flops_per_token = 0;  // model FLOPs: 6N + causal attention (LoRA less); MFU's numerator
  std::string flops_formula;
  double flops_6nd_per_token = 0;       // the 6·N·D convention (Kaplan et al. 2020)
  double hardware_flops_per_token = 0;  // what runs: recomputation and flash attention's backward included
  double mfu = 0;                       // the one in use: given (Scenario::mfu) or predicted
  double mfu_predicted = 0;             // model FLOPs / (step time × GPUs × dense BF16 peak), from the step model
  double mfu_6nd = 0, hfu = 0;          // the same time under the 6·N·D count, and hardware FLOPs utilisation
  std::vector<StepPart> step_parts;     // where one optimizer step's time goes (predicted), per GPU
  double tokens_per_s = 0;            // whole cluster, with communication
  double step_compute_s = 0, step_comm_s = 0, step_s = 0;  // one optimizer step of the global batch
  double global_batch_tokens = 0, accumulation_steps = 1;
  double scaling_efficiency = 1;      // ideal compute / step (pipeline bubble and exposed communication)
  double seconds = 0, gpu_hours = 0;  // to train scenario.tokens
  double chinchilla_tokens = 0;       // 20 tokens per parameter (Hoffmann et al. 2022)
  // Cost.
  double cloud_usd = 0, spot_usd = 0, energy_kwh = 0, energy_usd = 0;
  std::string price_basis;
  Money money;  // the currency the cost rows show (cost.h ScenarioMoney)
  // Figures the catalog cannot give (no compute figure: no time; no offer: no cloud cost): the
  // report's key -> why. Reports leave them empty with the reason, never 0.
  std::map<std::string, std::string> unknown;
  std::vector<std::string> assumptions, warnings;
};

Result<TrainEstimate> EstimateTraining(const Catalog& catalog, const Scenario& s);
// The same with the scenario's ids already resolved (resolve.h); `r` must be Resolve(…, s)'s.
Result<TrainEstimate> EstimateTraining(const Resolved& r, const Scenario& s);

// Scaling: tokens/s and efficiency at other data-parallel degrees and the scenario's global
// batch (the curve on the page, the table in the CLI).
struct ScalingPoint {
  int gpus = 0;
  double tokens_per_s = 0, efficiency = 0, days = 0;
};
std::vector<ScalingPoint> TrainingScaling(const Catalog& catalog, const Scenario& s, int max_dp = 1024);

// The share of the step model's time that real runs reach: one fitted factor for what the
// parts leave out (training.cpp says how it was fitted).
double TrainingStepFactor();
// How sure the predicted throughput is: p10 and p90 of measured / predicted tokens/s over the
// published runs, each predicted with the factor fitted without its source (unit-training).
std::pair<double, double> TrainingBand();

// The MFU that would finish the scenario's tokens in `days` on its GPUs: the estimate's MFU
// scaled by its time over the target (MFU is end to end). Above 1 the target is impossible on
// these GPUs.
double MfuForDays(const TrainEstimate& e, double days);

}  // namespace gpuplan

namespace gpuplan {

// The training estimator against published numbers (tests/reference/training_measurements.json):
// ZeRO's model states, Korthikanti's activation formulas, GPU-hours of published runs at the
// default MFU, fine-tuning peak memory tables. Kinds that are inputs (MFU, TFLOP/s per GPU)
// are skipped with that reason.
struct TrainCaseResult {
  std::string id, kind, skipped, source;  // source: the source's title (leave-one-source-out)
  bool ran = false;
  double measured = 0, estimated = 0, ratio = 0;  // ratio = measured / estimated
  double floor = 0;  // peak memory: the same statistic from the largest single moment (0: not a memory case)
};
Result<std::vector<TrainCaseResult>> RunTrainingReference(const Catalog& catalog, const std::string& text);

}  // namespace gpuplan
