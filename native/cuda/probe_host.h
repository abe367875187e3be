// native/cuda/probe_host.h — the host-only half of gpuplan-probe-gpu: command-line options, the
// result records, a tiny JSON writer, statistics, the UTC date and NVML loaded at run time.
// No CUDA include here, so probe_host.cpp compiles with the project's strict C++ warnings.
//
// [SECTION] Options and exit codes
// [SECTION] Result records (one Metric per timed measurement)
// [SECTION] JSON writer
// [SECTION] Statistics, date
// [SECTION] NVML through dlopen (no link-time dependency)
#pragma once

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/units.h"  // core/src/catalog/units.cpp: standard C++ only, built with the probe

namespace gpuplan::probe {

// [SECTION] Options and exit codes ------------------------------------------------------------

constexpr const char* kProgram = "gpuplan-probe-gpu";
constexpr const char* kSchema = "gpuplan.gpu-probe/1";
#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.1.0"
#endif
constexpr const char* kVersion = GPUPLAN_VERSION;

constexpr int kExitOk = 0;
constexpr int kExitCudaError = 1;
constexpr int kExitBadArgs = 2;
constexpr int kExitNoDevice = 3;
constexpr int kExitCheckFailed = 4;

// Probe groups `--only` accepts; GEMM precisions select single GEMMs (and imply the group).
inline const std::vector<std::string>& GroupNames() {
  static const std::vector<std::string> names = {"hbm", "l2", "host", "p2p", "gemm", "wmma"};
  return names;
}
inline const std::vector<std::string>& GemmNames() {
  static const std::vector<std::string> names = {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"};
  return names;
}

struct Options {
  std::string out_path;          // empty: JSON to stdout
  bool quick = false;            // smaller sizes, fewer repetitions (smoke tests)
  int device = 0;
  std::set<std::string> only;    // empty: everything
  bool help = false;

  // Whether a group ("hbm", "gemm", ...) or a GEMM precision ("bf16") is selected.
  bool Wants(const std::string& name) const;
};

// Parses argv; on error returns false with `error` naming the flag.
bool ParseOptions(int argc, char** argv, Options& options, std::string& error);
std::string HelpText();

// [SECTION] Result records ------------------------------------------------------------------

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Check {
  bool present = false;
  int m = 0, n = 0, k = 0;
  double max_rel_err = kNaN;   // max |D - ref| / max |ref| (normwise; ref in double on the host)
  double tolerance = kNaN;
  bool passed = false;
  std::string note;            // e.g. an error that prevented the check
};

struct Metric {
  std::string id, name, unit, method;
  std::string catalog_field;   // empty: no catalog counterpart
  double value = kNaN;         // work / median time
  double min = kNaN, max = kNaN;  // slowest and fastest repetition's rate
  double median_s = kNaN;
  int reps = 0, warmup = 0;
  double bytes_per_rep = kNaN;   // bandwidth metrics
  double flop_per_rep = kNaN;    // GEMM metrics (2·m·n·k)
  int m = 0, n = 0, k = 0;
  double sm_mhz_during = kNaN;   // NVML SM clock sampled while the repetitions ran
  Check check;
  std::vector<std::pair<std::string, double>> numbers;       // extra numeric fields
  std::vector<std::pair<std::string, std::string>> strings;  // extra text fields
};

struct Skip {
  std::string id, reason;
};

// [SECTION] JSON writer -------------------------------------------------------------------------

// Writes indented JSON; keeps commas and nesting right. Non-finite numbers become null.
class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(const std::string& key);
  void String(const std::string& value);
  void Number(double value);
  void Int(long long value);
  void Bool(bool value);
  void Null();

  void Field(const std::string& key, const std::string& value) { Key(key); String(value); }
  void Field(const std::string& key, const char* value) { Key(key); String(value); }
  void Field(const std::string& key, double value) { Key(key); Number(value); }
  void Field(const std::string& key, int value) { Key(key); Int(value); }
  void Field(const std::string& key, long long value) { Key(key); Int(value); }
  void Field(const std::string& key, bool value) { Key(key); Bool(value); }

  const std::string& str() const { return out_; }
  static std::string Escape(const std::string& text);

 private:
  void BeforeValue();
  void Open(char bracket);
  void Close(char bracket);
  std::string out_;
  std::vector<bool> has_items_;  // one entry per open container
  bool after_key_ = false;
};

void WriteMetric(JsonWriter& json, const Metric& metric);

// [SECTION] Statistics, date -------------------------------------------------------------------

struct Summary {
  double median = kNaN, min = kNaN, max = kNaN;
};
Summary Summarize(std::vector<double> values);
std::string UtcNowIso8601();
// Rates and sizes print through the core's one formatting room (gpuplan/units.h, above):
// FormatRate "4.31 TB/s", FormatBytes.

// [SECTION] NVML through dlopen ---------------------------------------------------------------

// NVML (libnvidia-ml.so.1) is opened at run time: the probe runs (with "unknown" fields) where it
// is missing. Every getter returns false when NVML or the value is unavailable.
class Nvml {
 public:
  Nvml() = default;
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // Loads the library and finds the device by its PCI bus id ("0000:19:00.0").
  bool Open(const std::string& pci_bus_id);
  bool ok() const { return device_ != nullptr; }
  const std::string& reason() const { return reason_; }

  bool DriverVersion(std::string& version) const;
  bool SmClockMhz(unsigned& mhz) const;
  bool MemClockMhz(unsigned& mhz) const;
  bool MaxSmClockMhz(unsigned& mhz) const;
  bool PcieCurrent(unsigned& gen, unsigned& width) const;
  bool PcieMax(unsigned& gen, unsigned& width) const;
  bool PowerLimitW(double& watts) const;
  bool PowerUsageW(double& watts) const;
  bool TemperatureC(unsigned& celsius) const;
  bool ClockEventReasons(unsigned long long& mask) const;  // throttle reasons bit mask

 private:
  template <class Fn>
  Fn Symbol(const char* name) const;
  bool ClockInfo(const char* fn_name, int clock_type, unsigned& mhz) const;

  void* lib_ = nullptr;
  void* device_ = nullptr;
  bool initialised_ = false;
  std::string reason_ = "not opened";
};

}  // namespace gpuplan::probe
