// native/cuda/device_query.cu — lists the CUDA devices this machine has, one line each.
// Without a GPU or driver it prints one clean line and exits with code 3, so scripts and
// tests can tell "no device" from a failure.
//
// Exit codes: 0 devices listed; 3 no CUDA device (or no driver); 1 other CUDA error.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || (err == cudaSuccess && count == 0)) {
    std::printf("no CUDA device: %s\n",
                err == cudaSuccess ? "the driver reports 0 devices" : cudaGetErrorString(err));
    return 3;
  }
  if (err != cudaSuccess) {
    std::fprintf(stderr, "gpuplan-cuda-query: error: cudaGetDeviceCount: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("CUDA driver %d.%d, runtime %d.%d, %d device(s)\n", driver / 1000, (driver % 1000) / 10,
              runtime / 1000, (runtime % 1000) / 10, count);
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    std::printf("device %d: %s, compute capability %d.%d, %d SMs, %.2f GiB, L2 %.1f MiB\n", i, p.name, p.major,
                p.minor, p.multiProcessorCount, static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0),
                p.l2CacheSize / (1024.0 * 1024.0));
  }
  return 0;
}
