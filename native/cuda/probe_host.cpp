// native/cuda/probe_host.cpp — options, JSON writer, statistics, date and NVML for
// gpuplan-probe-gpu (host code only; see probe_host.h).
#include "probe_host.h"

#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace gpuplan::probe {

// [SECTION] Options --------------------------------------------------------------------------

bool Options::Wants(const std::string& name) const {
  if (only.empty()) return true;
  if (only.count(name)) return true;
  // A GEMM precision is wanted when "gemm" or that precision is listed; "gemm" is wanted
  // when any precision is listed.
  const auto& gemms = GemmNames();
  const bool is_gemm_precision = std::find(gemms.begin(), gemms.end(), name) != gemms.end();
  if (is_gemm_precision) return only.count("gemm") > 0;
  if (name == "gemm") {
    for (const auto& g : gemms)
      if (only.count(g)) return true;
  }
  return false;
}

namespace {

// "--flag=value" or "--flag value"; returns false when the value is missing.
bool TakeValue(int argc, char** argv, int& i, const std::string& arg, const std::string& flag, std::string& value,
               std::string& error) {
  if (arg.size() > flag.size() && arg.compare(0, flag.size() + 1, flag + "=") == 0) {
    value = arg.substr(flag.size() + 1);
  } else if (i + 1 < argc) {
    value = argv[++i];
  } else {
    error = flag + ": missing value";
    return false;
  }
  if (value.empty()) {
    error = flag + ": empty value";
    return false;
  }
  return true;
}

bool Matches(const std::string& arg, const std::string& flag) {
  return arg == flag || arg.compare(0, flag.size() + 1, flag + "=") == 0;
}

}  // namespace

bool ParseOptions(int argc, char** argv, Options& options, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string value;
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (Matches(arg, "--out")) {
      if (!TakeValue(argc, argv, i, arg, "--out", value, error)) return false;
      options.out_path = value;
    } else if (Matches(arg, "--device")) {
      if (!TakeValue(argc, argv, i, arg, "--device", value, error)) return false;
      char* end = nullptr;
      errno = 0;
      const long device = std::strtol(value.c_str(), &end, 10);
      if (errno != 0 || end == value.c_str() || *end != '\0' || device < 0 || device > 1023) {
        error = "--device: '" + value + "' is not a device index (0, 1, ...)";
        return false;
      }
      options.device = static_cast<int>(device);
    } else if (Matches(arg, "--only")) {
      if (!TakeValue(argc, argv, i, arg, "--only", value, error)) return false;
      size_t start = 0;
      while (start <= value.size()) {
        const size_t comma = std::min(value.find(',', start), value.size());
        const std::string name = value.substr(start, comma - start);
        const auto& groups = GroupNames();
        const auto& gemms = GemmNames();
        if (std::find(groups.begin(), groups.end(), name) == groups.end() &&
            std::find(gemms.begin(), gemms.end(), name) == gemms.end()) {
          error = "--only: unknown probe '" + name + "' (known: hbm, l2, host, p2p, gemm, wmma, " +
                  "fp64, fp32, tf32, fp16, bf16, fp8, int8)";
          return false;
        }
        options.only.insert(name);
        start = comma + 1;
      }
    } else {
      error = "unknown argument '" + arg + "'";
      return false;
    }
  }
  return true;
}

std::string HelpText() {
  std::string text;
  text += "usage: gpuplan-probe-gpu [--out FILE] [--quick] [--device N] [--only LIST]\n";
  text += "\n";
  text += "Measures one CUDA GPU and prints the results as JSON (schema gpuplan.gpu-probe/1):\n";
  text += "device properties, device-memory bandwidth (read, write, copy, triad, memcpy), L2\n";
  text += "bandwidth, host<->device bandwidth (pageable, pinned), peer-to-peer bandwidth, cuBLASLt\n";
  text += "GEMM throughput (FP64, FP32, TF32, FP16, BF16, FP8 E4M3, INT8) with a correctness check\n";
  text += "each, and a hand-written WMMA tensor-core GEMM next to cuBLAS.\n";
  text += "\n";
  text += "options:\n";
  text += "  --out FILE    write the JSON to FILE (default: standard output)\n";
  text += "  --quick       smaller sizes and fewer repetitions (a smoke test, not a measurement)\n";
  text += "  --device N    CUDA device index (default 0)\n";
  text += "  --only LIST   comma-separated probes: hbm, l2, host, p2p, gemm, wmma, or single GEMM\n";
  text += "                precisions fp64, fp32, tf32, fp16, bf16, fp8, int8 (default: all)\n";
  text += "  -h, --help    this text\n";
  text += "\n";
  text += "Progress lines go to standard error when it is a terminal (or GPUPLAN_PROBE_PROGRESS=1).\n";
  text += "\n";
  text += "exit codes:\n";
  text += "  0  all probes ran (skipped ones are listed in the JSON with a reason)\n";
  text += "  1  a CUDA or cuBLAS error (the JSON so far is still written, with an \"error\" field)\n";
  text += "  2  bad arguments\n";
  text += "  3  no CUDA device or no driver (one line on standard error, no JSON)\n";
  text += "  4  a GEMM correctness check failed (the JSON is written; see metrics[].check)\n";
  return text;
}

// [SECTION] JSON writer --------------------------------------------------------------------------

std::string JsonWriter::Escape(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      // Well-formed UTF-8 passes through; a stray byte (a device name from a broken driver)
      // becomes U+FFFD, so the file always parses.
      const std::size_t n = Utf8SequenceAt(text, i);
      if (n == 0) {
        out += "\\ufffd";
      } else {
        out.append(text, i, n);
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(u));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ += ',';
    has_items_.back() = true;
    out_ += '\n';
    out_.append(2 * has_items_.size(), ' ');
  }
}

void JsonWriter::Open(char bracket) {
  BeforeValue();
  out_ += bracket;
  has_items_.push_back(false);
}

void JsonWriter::Close(char bracket) {
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items) {
    out_ += '\n';
    out_.append(2 * has_items_.size(), ' ');
  }
  out_ += bracket;
  if (has_items_.empty()) out_ += '\n';
}

void JsonWriter::BeginObject() { Open('{'); }
void JsonWriter::EndObject() { Close('}'); }
void JsonWriter::BeginArray() { Open('['); }
void JsonWriter::EndArray() { Close(']'); }

void JsonWriter::Key(const std::string& key) {
  BeforeValue();
  out_ += '"' + Escape(key) + "\": ";
  after_key_ = true;
}

void JsonWriter::String(const std::string& value) {
  BeforeValue();
  out_ += '"' + Escape(value) + '"';
}

void JsonWriter::Number(double value) {
  BeforeValue();
  if (!std::isfinite(value)) {
    out_ += "null";  // JSON has no NaN or infinity
    return;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", value);
  // Ten digits round a value near the largest double (1.7976931348623157e308) up past it, which
  // no reader can parse (the fuzz target found it): such a value keeps all 17.
  if (!std::isfinite(std::strtod(buf, nullptr))) std::snprintf(buf, sizeof buf, "%.17g", value);
  out_ += buf;
}

void JsonWriter::Int(long long value) {
  BeforeValue();
  out_ += std::to_string(value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

void WriteMetric(JsonWriter& json, const Metric& metric) {
  json.BeginObject();
  json.Field("id", metric.id);
  json.Field("name", metric.name);
  json.Field("value", metric.value);
  json.Field("unit", metric.unit);
  json.Key("catalog_field");
  if (metric.catalog_field.empty()) {
    json.Null();
  } else {
    json.String(metric.catalog_field);
  }
  json.Field("method", metric.method);
  json.Field("reps", metric.reps);
  json.Field("warmup", metric.warmup);
  json.Field("median_s", metric.median_s);
  json.Field("min", metric.min);
  json.Field("max", metric.max);
  if (std::isfinite(metric.bytes_per_rep)) json.Field("bytes_per_rep", metric.bytes_per_rep);
  if (std::isfinite(metric.flop_per_rep)) json.Field("flop_per_rep", metric.flop_per_rep);
  if (metric.m > 0) {
    json.Field("m", metric.m);
    json.Field("n", metric.n);
    json.Field("k", metric.k);
  }
  json.Field("sm_mhz_during", metric.sm_mhz_during);
  for (const auto& [key, value] : metric.numbers) json.Field(key, value);
  for (const auto& [key, value] : metric.strings) json.Field(key, value);
  if (metric.check.present) {
    json.Key("check");
    json.BeginObject();
    json.Field("m", metric.check.m);
    json.Field("n", metric.check.n);
    json.Field("k", metric.check.k);
    json.Field("max_rel_err", metric.check.max_rel_err);
    json.Field("tolerance", metric.check.tolerance);
    json.Field("passed", metric.check.passed);
    if (!metric.check.note.empty()) json.Field("note", metric.check.note);
    json.EndObject();
  }
  json.EndObject();
}

// [SECTION] Statistics, date ---------------------------------------------------------------------

Summary Summarize(std::vector<double> values) {
  Summary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  s.median = n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  s.min = values.front();
  s.max = values.back();
  return s;
}

std::string UtcNowIso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

// [SECTION] NVML through dlopen --------------------------------------------------------------------

namespace {
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;   // nvmlClockType_t NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2;  // nvmlClockType_t NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0;
using NvmlDevice = void*;
}  // namespace

template <class Fn>
Fn Nvml::Symbol(const char* name) const {
  if (lib_ == nullptr) return nullptr;
  // POSIX guarantees that a dlsym result converts to a function pointer.
  return reinterpret_cast<Fn>(dlsym(lib_, name));
}

Nvml::~Nvml() {
  if (initialised_) {
    if (auto shutdown = Symbol<int (*)()>("nvmlShutdown")) shutdown();
  }
  if (lib_ != nullptr) dlclose(lib_);
}

bool Nvml::Open(const std::string& pci_bus_id) {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib_ == nullptr) {
    reason_ = "libnvidia-ml.so.1 not loadable";
    return false;
  }
  auto init = Symbol<int (*)()>("nvmlInit_v2");
  auto by_bus = Symbol<int (*)(const char*, NvmlDevice*)>("nvmlDeviceGetHandleByPciBusId_v2");
  if (init == nullptr || by_bus == nullptr) {
    reason_ = "libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
    return false;
  }
  const int rc = init();
  if (rc != kNvmlSuccess) {
    reason_ = "nvmlInit_v2 failed (" + std::to_string(rc) + ")";
    return false;
  }
  initialised_ = true;
  // CUDA writes a 4-digit domain ("0000:19:00.0"), NVML an 8-digit one; try both spellings.
  for (const std::string& id : {pci_bus_id, "0000" + pci_bus_id}) {
    NvmlDevice device = nullptr;
    if (by_bus(id.c_str(), &device) == kNvmlSuccess && device != nullptr) {
      device_ = device;
      reason_.clear();
      return true;
    }
  }
  reason_ = "NVML has no device with PCI bus id " + pci_bus_id;
  return false;
}

bool Nvml::DriverVersion(std::string& version) const {
  auto fn = Symbol<int (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
  if (!initialised_ || fn == nullptr) return false;
  char buf[96] = {};
  if (fn(buf, sizeof buf) != kNvmlSuccess) return false;
  version = buf;
  return !version.empty();
}

bool Nvml::ClockInfo(const char* fn_name, int clock_type, unsigned& mhz) const {
  auto fn = Symbol<int (*)(NvmlDevice, int, unsigned*)>(fn_name);
  return ok() && fn != nullptr && fn(device_, clock_type, &mhz) == kNvmlSuccess;
}

bool Nvml::SmClockMhz(unsigned& mhz) const { return ClockInfo("nvmlDeviceGetClockInfo", kNvmlClockSm, mhz); }
bool Nvml::MemClockMhz(unsigned& mhz) const { return ClockInfo("nvmlDeviceGetClockInfo", kNvmlClockMem, mhz); }
bool Nvml::MaxSmClockMhz(unsigned& mhz) const {
  return ClockInfo("nvmlDeviceGetMaxClockInfo", kNvmlClockSm, mhz);
}

bool Nvml::PcieCurrent(unsigned& gen, unsigned& width) const {
  auto fgen = Symbol<int (*)(NvmlDevice, unsigned*)>("nvmlDeviceGetCurrPcieLinkGeneration");
  auto fwidth = Symbol<int (*)(NvmlDevice, unsigned*)>("nvmlDeviceGetCurrPcieLinkWidth");
  return ok() && fgen != nullptr && fwidth != nullptr && fgen(device_, &gen) == kNvmlSuccess &&
         fwidth(device_, &width) == kNvmlSuccess;
}

bool Nvml::PcieMax(unsigned& gen, unsigned& width) const {
  auto fgen = Symbol<int (*)(NvmlDevice, unsigned*)>("nvmlDeviceGetMaxPcieLinkGeneration");
  auto fwidth = Symbol<int (*)(NvmlDevice, unsigned*)>("nvmlDeviceGetMaxPcieLinkWidth");
  return ok() && fgen != nullptr && fwidth != nullptr && fgen(device_, &gen) == kNvmlSuccess &&
         fwidth(device_, &width) == kNvmlSuccess;
}

bool Nvml::PowerLimitW(double& watts) const {
  auto fn = Symbol<int (*)(NvmlDevice, unsigned*)>("nvmlDeviceGetPowerManagementLimit");
  unsigned milliwatts = 0;
  if (!ok() || fn == nullptr || fn(device_, &milliwatts) != kNvmlSuccess) return false;
  watts = milliwatts / 1000.0;
  return true;
}

bool Nvml::PowerUsageW(double& watts) const {
  auto fn = Symbol<int (*)(NvmlDevice, unsigned*)>("nvmlDeviceGetPowerUsage");
  unsigned milliwatts = 0;
  if (!ok() || fn == nullptr || fn(device_, &milliwatts) != kNvmlSuccess) return false;
  watts = milliwatts / 1000.0;
  return true;
}

bool Nvml::TemperatureC(unsigned& celsius) const {
  auto fn = Symbol<int (*)(NvmlDevice, int, unsigned*)>("nvmlDeviceGetTemperature");
  return ok() && fn != nullptr && fn(device_, kNvmlTemperatureGpu, &celsius) == kNvmlSuccess;
}

bool Nvml::ClockEventReasons(unsigned long long& mask) const {
  // Renamed in driver 535 ("throttle" -> "clocks event"); the old name stays as an alias.
  for (const char* name : {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"}) {
    auto fn = Symbol<int (*)(NvmlDevice, unsigned long long*)>(name);
    if (ok() && fn != nullptr && fn(device_, &mask) == kNvmlSuccess) return true;
  }
  return false;
}

}  // namespace gpuplan::probe
