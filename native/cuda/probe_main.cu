// native/cuda/probe_main.cu — gpuplan-probe-gpu: measures one CUDA GPU (bandwidths, GEMM
// throughput per precision, a hand-written tensor-core kernel) and prints the results as JSON,
// schema "gpuplan.gpu-probe/1" (native/cuda/README.md). `gpuplan` reads that file back to set
// the measurements against the catalog's datasheet figures.
//
// usage: gpuplan-probe-gpu [--out FILE] [--quick] [--device N] [--only LIST]
//
// Exit codes:
//   0  all probes ran (skipped ones are listed in the JSON with their reason)
//   1  a CUDA or cuBLAS error (the JSON gathered so far is still written, with an "error" field)
//   2  bad arguments
//   3  no CUDA device or no driver: exactly one line on stderr,
//      "gpuplan-probe-gpu: no CUDA device: <reason>", and no JSON
//   4  a GEMM correctness check failed (the JSON is written; see metrics[].check)
//
// Build (CMake target gpuplan-probe-gpu, or one nvcc line):
//   nvcc -O3 -std=c++17 -arch=sm_90 -Icore/include -o gpuplan-probe-gpu native/cuda/probe_main.cu
//        native/cuda/probe_memory.cu native/cuda/probe_gemm.cu native/cuda/probe_host.cpp core/src/catalog/units.cpp
//        core/src/catalog/lang.cpp -lcublasLt -ldl
//   (scripts/device_probe.sh does this on a GPU machine.)
//
// [SECTION] Progress
// [SECTION] Device properties and clocks
// [SECTION] Report
// [SECTION] main
#include <cuda_runtime.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_cuda.cuh"

namespace gpuplan::probe {

// [SECTION] Progress -----------------------------------------------------------------------------

void Context::Announce(const std::string& name) {
  ++step;
  announced = true;
  if (!progress) return;
  std::fprintf(stderr, "[%d/%d] %s ... ", step, steps, name.c_str());
  std::fflush(stderr);
}

void Context::Add(Metric metric) {
  if (!announced) ++step;
  if (progress) {
    if (!announced) std::fprintf(stderr, "[%d/%d] %s ... ", step, steps, metric.name.c_str());
    std::string line = FormatRate(metric.value, metric.unit);
    if (metric.check.present && std::isfinite(metric.check.max_rel_err))
      line += metric.check.passed ? " (check ok)" : " (CHECK FAILED)";
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  announced = false;
  metrics->push_back(std::move(metric));
}

void Context::Skipped(const std::string& id, const std::string& reason) {
  if (!announced) ++step;
  if (progress) {
    if (!announced) std::fprintf(stderr, "[%d/%d] %s ... ", step, steps, id.c_str());
    std::fprintf(stderr, "skipped: %s\n", reason.c_str());
  }
  announced = false;
  skipped->push_back({id, reason});
}

namespace {

// [SECTION] Device properties and clocks ----------------------------------------------------------

int Attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) return -1;
  return value;
}

std::string CudaVersion(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

std::string Uuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char buf[64];
  std::snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

struct ClockSample {
  double sm_mhz = kNaN;
  double temperature_c = kNaN;
  double power_w = kNaN;
};

ClockSample SampleClocks(const Context& ctx) {
  ClockSample s;
  unsigned v = 0;
  double w = 0;
  if (ctx.nvml->SmClockMhz(v)) {
    s.sm_mhz = v;
  } else {
    const int khz = Attribute(cudaDevAttrClockRate, ctx.device);
    if (khz > 0) s.sm_mhz = khz / 1000.0;
  }
  if (ctx.nvml->TemperatureC(v)) s.temperature_c = v;
  if (ctx.nvml->PowerUsageW(w)) s.power_w = w;
  return s;
}

void WriteUnsignedOrUnknown(JsonWriter& json, const std::string& key, bool known, unsigned value) {
  if (known) {
    json.Field(key, static_cast<long long>(value));
  } else {
    json.Field(key, "unknown");
  }
}

void WriteDevice(JsonWriter& json, const Context& ctx) {
  const cudaDeviceProp& p = ctx.prop;
  const int d = ctx.device;
  char bus_id[32] = "unknown";
  cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, d);
  const int sm_khz = Attribute(cudaDevAttrClockRate, d);
  const int mem_khz = Attribute(cudaDevAttrMemoryClockRate, d);
  const int bus_bits = Attribute(cudaDevAttrGlobalMemoryBusWidth, d);
  json.Key("device");
  json.BeginObject();
  json.Field("index", d);
  json.Field("name", std::string(p.name));
  json.Field("uuid", Uuid(p.uuid));
  json.Field("pci_bus_id", std::string(bus_id));
  json.Field("compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor));
  json.Field("sm_count", p.multiProcessorCount);
  json.Field("sm_clock_max_mhz", sm_khz > 0 ? sm_khz / 1000.0 : kNaN);
  json.Field("mem_clock_max_mhz", mem_khz > 0 ? mem_khz / 1000.0 : kNaN);
  if (bus_bits > 0) {
    json.Field("mem_bus_width_bits", bus_bits);
  } else {
    json.Field("mem_bus_width_bits", "unknown");
  }
  json.Field("mem_total_bytes", static_cast<double>(p.totalGlobalMem));
  json.Field("mem_free_bytes", static_cast<double>(ctx.free_bytes));
  // Double data rate: 2 transfers per memory clock (what the attributes imply; HBM3/HBM3e and
  // GDDR report their clocks so that this matches the datasheet within rounding).
  json.Field("mem_bandwidth_theoretical_bytes_per_s",
             mem_khz > 0 && bus_bits > 0 ? 2.0 * mem_khz * 1e3 * bus_bits / 8.0 : kNaN);
  json.Field("l2_bytes", p.l2CacheSize);
  json.Field("ecc", Attribute(cudaDevAttrEccEnabled, d) == 1);
  json.Field("visible_devices", ctx.device_count);
  unsigned gen = 0, width = 0;
  json.Key("pcie");
  json.BeginObject();
  const bool cur = ctx.nvml->PcieCurrent(gen, width);
  WriteUnsignedOrUnknown(json, "gen_current", cur, gen);
  WriteUnsignedOrUnknown(json, "width_current", cur, width);
  const bool max = ctx.nvml->PcieMax(gen, width);
  WriteUnsignedOrUnknown(json, "gen_max", max, gen);
  WriteUnsignedOrUnknown(json, "width_max", max, width);
  json.EndObject();
  double watts = 0;
  if (ctx.nvml->PowerLimitW(watts)) {
    json.Field("power_limit_w", watts);
  } else {
    json.Field("power_limit_w", "unknown");
  }
  json.Field("nvml", ctx.nvml->ok() ? std::string("ok") : ctx.nvml->reason());
  json.EndObject();
}

// [SECTION] Report --------------------------------------------------------------------------------

// Catalog fields a metric can stand for (dense figures): memory_bandwidth is the catalog's
// bandwidth_bytes_per_s, the others are keys of its dense_flops map.
const char* const kCatalogFields[] = {"memory_bandwidth", "fp64", "fp64_tensor", "fp32", "tf32",
                                      "fp16",             "bf16", "fp8",         "int8"};

struct Report {
  std::string date;
  std::vector<Metric> metrics;
  std::vector<Skip> skipped;
  ClockSample before, after;
  std::string error;
  double suite_s = kNaN;
};

bool ChecksPassed(const Report& r) {
  for (const Metric& m : r.metrics)
    if (m.check.present && std::isfinite(m.check.max_rel_err) && !m.check.passed) return false;
  return true;
}

std::string WriteReport(const Context& ctx, const Report& r) {
  JsonWriter json;
  json.BeginObject();
  json.Field("schema", kSchema);
  json.Field("date", r.date);
  json.Key("tool");
  json.BeginObject();
  json.Field("name", kProgram);
  json.Field("version", kVersion);
  json.Field("mode", ctx.options.quick ? "quick" : "full");
  std::string only;
  for (const std::string& o : ctx.options.only) only += (only.empty() ? "" : ",") + o;
  json.Field("only", only.empty() ? std::string("all") : only);
  json.Field("nvcc", std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__));
#ifdef __CUDA_ARCH_LIST__
#define PROBE_STR2(...) #__VA_ARGS__
#define PROBE_STR(...) PROBE_STR2(__VA_ARGS__)
  json.Field("cuda_arch_list", PROBE_STR(__CUDA_ARCH_LIST__));
#endif
  json.EndObject();
  WriteDevice(json, ctx);

  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::string nvml_driver;
  json.Field("driver", ctx.nvml->DriverVersion(nvml_driver) ? nvml_driver : std::to_string(driver));
  json.Field("cuda_driver_api", CudaVersion(driver));
  json.Field("cuda_runtime", CudaVersion(runtime));

  json.Key("clocks");
  json.BeginObject();
  json.Field("sm_mhz_before", r.before.sm_mhz);
  json.Field("sm_mhz_after", r.after.sm_mhz);
  unsigned mhz = 0;
  const int mem_khz = Attribute(cudaDevAttrMemoryClockRate, ctx.device);
  json.Field("mem_mhz", ctx.nvml->MemClockMhz(mhz) ? static_cast<double>(mhz) : (mem_khz > 0 ? mem_khz / 1000.0 : kNaN));
  json.Field("sm_mhz_max", ctx.nvml->MaxSmClockMhz(mhz) ? static_cast<double>(mhz) : kNaN);
  json.Field("source", ctx.nvml->ok() ? "nvml (live readings)"
                                      : "cudaDevAttrClockRate / MemoryClockRate (peak clocks, not live readings)");
  json.Field("temperature_c_before", r.before.temperature_c);
  json.Field("temperature_c_after", r.after.temperature_c);
  json.Field("power_w_after", r.after.power_w);
  unsigned long long reasons = 0;
  if (ctx.nvml->ClockEventReasons(reasons)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", reasons);
    json.Field("clock_event_reasons_after", buf);
  }
  json.EndObject();

  json.Key("metrics");
  json.BeginArray();
  for (const Metric& m : r.metrics) WriteMetric(json, m);
  json.EndArray();

  json.Key("skipped");
  json.BeginArray();
  for (const Skip& s : r.skipped) {
    json.BeginObject();
    json.Field("id", s.id);
    json.Field("reason", s.reason);
    json.EndObject();
  }
  json.EndArray();

  // The best measurement per catalog field: what "% of datasheet" uses.
  json.Key("catalog");
  json.BeginObject();
  for (const char* field : kCatalogFields) {
    const Metric* best = nullptr;
    for (const Metric& m : r.metrics)
      if (m.catalog_field == field && std::isfinite(m.value) && (best == nullptr || m.value > best->value)) best = &m;
    if (best == nullptr) continue;
    json.Key(field);
    json.BeginObject();
    json.Field("metric", best->id);
    json.Field("value", best->value);
    json.Field("unit", best->unit);
    json.EndObject();
  }
  json.EndObject();

  json.Field("checks_passed", ChecksPassed(r));
  json.Field("suite_seconds", r.suite_s);
  if (!r.error.empty()) json.Field("error", r.error);
  json.EndObject();
  return json.str();
}

// Errors that mean "there is no usable GPU here" rather than "something broke".
bool IsNoDevice(cudaError_t err) {
  switch (err) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInitializationError:
    case cudaErrorSystemNotReady: return true;
    default: return false;
  }
}

int NoDevice(const std::string& reason) {
  std::fprintf(stderr, "%s: no CUDA device: %s\n", kProgram, reason.c_str());
  return kExitNoDevice;
}

}  // namespace
}  // namespace gpuplan::probe

// [SECTION] main ------------------------------------------------------------------------------------

int main(int argc, char** argv) {
  using namespace gpuplan::probe;
  Options options;
  std::string error;
  if (!ParseOptions(argc, argv, options, error)) {
    std::fprintf(stderr, "%s: %s (see --help)\n", kProgram, error.c_str());
    return kExitBadArgs;
  }
  if (options.help) {
    std::fputs(HelpText().c_str(), stdout);
    return kExitOk;
  }

  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (IsNoDevice(err)) return NoDevice(std::string(cudaGetErrorString(err)) + " (" + cudaGetErrorName(err) + ")");
  if (err == cudaSuccess && count == 0) return NoDevice("the driver reports 0 devices");
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s: error: cudaGetDeviceCount: %s\n", kProgram, cudaGetErrorString(err));
    return kExitCudaError;
  }
  if (options.device >= count) {
    std::fprintf(stderr, "%s: --device %d: only %d CUDA device(s) visible (see --help)\n", kProgram, options.device,
                 count);
    return kExitBadArgs;
  }
  // Create the context now (not inside the first probe). A GPU that exists but cannot be used
  // (exclusive-process mode and busy, driver not ready) is "no device" too.
  cudaError_t init = cudaSetDevice(options.device);
  if (init == cudaSuccess) init = cudaFree(nullptr);
  if (IsNoDevice(init)) return NoDevice(std::string(cudaGetErrorString(init)) + " (" + cudaGetErrorName(init) + ")");
  if (init != cudaSuccess) {
    std::fprintf(stderr, "%s: error: creating a CUDA context on device %d: %s\n", kProgram, options.device,
                 cudaGetErrorString(init));
    return kExitCudaError;
  }
  std::FILE* out = stdout;
  if (!options.out_path.empty()) {
    out = std::fopen(options.out_path.c_str(), "w");
    if (out == nullptr) {
      std::fprintf(stderr, "%s: --out: cannot write '%s': %s\n", kProgram, options.out_path.c_str(),
                   std::strerror(errno));
      return kExitBadArgs;
    }
  }

  const auto t0 = std::chrono::steady_clock::now();
  Nvml nvml;
  Report report;
  report.date = UtcNowIso8601();
  Context ctx;
  ctx.options = options;
  ctx.device = options.device;
  ctx.device_count = count;
  ctx.nvml = &nvml;
  ctx.metrics = &report.metrics;
  ctx.skipped = &report.skipped;
  // Progress on a terminal; GPUPLAN_PROBE_PROGRESS=1 forces it into a log (scripts/device_probe.sh).
  const char* force_progress = std::getenv("GPUPLAN_PROBE_PROGRESS");
  ctx.progress = isatty(STDERR_FILENO) == 1 || (force_progress != nullptr && std::string(force_progress) == "1");
  try {
    PROBE_CUDA(cudaGetDeviceProperties(&ctx.prop, ctx.device));
    ctx.cc = ctx.prop.major * 10 + ctx.prop.minor;
    size_t total = 0;
    PROBE_CUDA(cudaMemGetInfo(&ctx.free_bytes, &total));
    PROBE_CUDA(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ctx.device) == cudaSuccess) nvml.Open(bus_id);
    ctx.steps = PlannedMemorySteps(ctx) + PlannedGemmSteps(ctx);
    report.before = SampleClocks(ctx);
    if (ctx.progress)
      std::fprintf(stderr, "%s: device %d: %s, %d SMs, compute capability %d.%d%s\n", kProgram, ctx.device,
                   ctx.prop.name, ctx.prop.multiProcessorCount, ctx.prop.major, ctx.prop.minor,
                   options.quick ? " (quick mode)" : "");

    if (options.Wants("hbm")) ProbeDeviceMemory(ctx);
    if (options.Wants("l2")) ProbeL2(ctx);
    if (options.Wants("host")) ProbeHostTransfers(ctx);
    if (options.Wants("p2p")) ProbePeer(ctx);
    if (options.Wants("gemm") || options.Wants("wmma")) ProbeGemms(ctx);
  } catch (const CudaFailure& e) {
    report.error = e.what();
  } catch (const std::exception& e) {
    report.error = std::string("unexpected: ") + e.what();
  }
  if (ctx.progress && ctx.announced) std::fputs("\n", stderr);
  report.after = SampleClocks(ctx);
  report.suite_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const std::string text = WriteReport(ctx, report);
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  const bool closed = out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0;
  if (!written || !closed) {
    std::fprintf(stderr, "%s: error: could not write the JSON\n", kProgram);
    return kExitCudaError;
  }
  if (!report.error.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, report.error.c_str());
    return kExitCudaError;
  }
  if (!ChecksPassed(report)) {
    std::fprintf(stderr, "%s: a GEMM correctness check failed (see metrics[].check in the JSON)\n", kProgram);
    return kExitCheckFailed;
  }
  if (ctx.progress) std::fprintf(stderr, "%s: done in %.1f s\n", kProgram, report.suite_s);
  return kExitOk;
}
