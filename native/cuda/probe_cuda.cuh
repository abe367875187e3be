// native/cuda/probe_cuda.cuh — what the probe's .cu files share: error handling, device
// buffers, the run context, the timing loop (warm-up, CUDA events, median) and the hash RNG.
//
// [SECTION] Errors
// [SECTION] Buffers
// [SECTION] Run context and progress
// [SECTION] Timing
// [SECTION] Random fill
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuplan/i18n.h"  // N_: the metric names the page translates
#include "probe_host.h"

namespace gpuplan::probe {

// [SECTION] Errors ----------------------------------------------------------------------------

// A CUDA or cuBLAS failure the suite cannot continue after; main() turns it into exit code 1.
struct CudaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void ThrowCuda(cudaError_t err, const char* call, const char* file, int line) {
  throw CudaFailure(std::string(call) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") at " +
                    file + ":" + std::to_string(line));
}

#define PROBE_CUDA(call)                                                                   \
  do {                                                                                     \
    const cudaError_t probe_err_ = (call);                                                 \
    if (probe_err_ != cudaSuccess) ::gpuplan::probe::ThrowCuda(probe_err_, #call, __FILE__, __LINE__); \
  } while (0)

// [SECTION] Buffers ---------------------------------------------------------------------------

// Device memory owned by a scope.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) { PROBE_CUDA(cudaMalloc(&ptr_, bytes)); }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept : ptr_(other.ptr_), bytes_(other.bytes_) { other.ptr_ = nullptr; }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      if (ptr_ != nullptr) cudaFree(ptr_);
      ptr_ = other.ptr_;
      bytes_ = other.bytes_;
      other.ptr_ = nullptr;
    }
    return *this;
  }

  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Page-locked host memory owned by a scope.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes) { PROBE_CUDA(cudaMallocHost(&ptr_, bytes)); }
  ~PinnedBuffer() {
    if (ptr_ != nullptr) cudaFreeHost(ptr_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

// [SECTION] Run context and progress -------------------------------------------------------------

struct Context {
  Options options;
  int device = 0;
  int device_count = 0;
  cudaDeviceProp prop{};
  int cc = 0;                 // compute capability × 10 (90 for 9.0)
  size_t free_bytes = 0;      // cudaMemGetInfo at start
  cudaStream_t stream = nullptr;
  Nvml* nvml = nullptr;
  std::vector<Metric>* metrics = nullptr;
  std::vector<Skip>* skipped = nullptr;
  bool progress = false;      // stderr is a terminal
  bool announced = false;     // a progress line is open (Announce without Add/Skipped yet)
  int step = 0, steps = 0;

  // Repetition counts: the whole suite stays well under a minute on an H200.
  int Warmup() const { return options.quick ? 1 : 3; }
  int Reps() const { return options.quick ? 3 : 15; }

  void Add(Metric metric);
  void Skipped(const std::string& id, const std::string& reason);
  void Announce(const std::string& name);  // "[3/12] HBM copy ..." before a probe starts
};

// [SECTION] Timing ------------------------------------------------------------------------------

struct Timing {
  std::vector<double> seconds;   // one entry per repetition
  Summary summary;               // of `seconds`
  double sm_mhz_during = kNaN;   // NVML SM clock sampled after the repetitions were queued
  int warmup = 0;
};

// Runs `enqueue` (which queues the work on ctx.stream) `warmup` times untimed, then `reps` times
// between CUDA events (one event pair per repetition, all queued before waiting, so the GPU
// runs back to back). The NVML SM clock is read while the queued repetitions still run.
template <class F>
Timing TimeGpu(Context& ctx, int warmup, int reps, F&& enqueue) {
  Timing t;
  t.warmup = warmup;
  for (int i = 0; i < warmup; ++i) enqueue();
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    PROBE_CUDA(cudaEventCreate(&start[i]));
    PROBE_CUDA(cudaEventCreate(&stop[i]));
  }
  for (int i = 0; i < reps; ++i) {
    PROBE_CUDA(cudaEventRecord(start[i], ctx.stream));
    enqueue();
    PROBE_CUDA(cudaEventRecord(stop[i], ctx.stream));
  }
  unsigned mhz = 0;
  if (ctx.nvml != nullptr && ctx.nvml->SmClockMhz(mhz)) t.sm_mhz_during = mhz;
  PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
  PROBE_CUDA(cudaGetLastError());
  for (int i = 0; i < reps; ++i) {
    float ms = 0;
    PROBE_CUDA(cudaEventElapsedTime(&ms, start[i], stop[i]));
    t.seconds.push_back(ms * 1e-3);
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  t.summary = Summarize(t.seconds);
  return t;
}

// Fills the rate fields of `m` from a timing and the work per repetition (bytes or FLOP).
inline void SetRate(Metric& m, const Timing& t, double work_per_rep) {
  m.median_s = t.summary.median;
  m.value = work_per_rep / t.summary.median;
  m.min = work_per_rep / t.summary.max;  // slowest repetition
  m.max = work_per_rep / t.summary.min;  // fastest repetition
  m.reps = static_cast<int>(t.seconds.size());
  m.warmup = t.warmup;
  m.sm_mhz_during = t.sm_mhz_during;
}

// [SECTION] Random fill ---------------------------------------------------------------------------

// A stateless integer hash (lowbias32, Chris Wellons): value i of stream `seed`. Random inputs
// matter: GEMMs on zeros run faster (and draw less power) than on real data.
__host__ __device__ inline uint32_t HashU32(uint64_t i, uint32_t seed) {
  uint32_t x = static_cast<uint32_t>(i) ^ (static_cast<uint32_t>(i >> 32) * 0x9E3779B9u) ^ (seed * 0x85EBCA6Bu);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

// Uniform in [0, 1), 24 random bits.
__host__ __device__ inline float HashUnit(uint64_t i, uint32_t seed) {
  return static_cast<float>(HashU32(i, seed) >> 8) * (1.0f / 16777216.0f);
}

// Probe groups, one entry point each (probe_memory.cu, probe_gemm.cu).
void ProbeDeviceMemory(Context& ctx);
void ProbeL2(Context& ctx);
void ProbeHostTransfers(Context& ctx);
void ProbePeer(Context& ctx);
void ProbeGemms(Context& ctx);   // cuBLASLt for each precision, and the WMMA kernel
int PlannedMemorySteps(const Context& ctx);
int PlannedGemmSteps(const Context& ctx);

}  // namespace gpuplan::probe
